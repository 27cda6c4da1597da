/// @file
/// Certified decisions: comparing a certified real (an Interval enclosure that can be refined)
/// with an exact rational, without ever guessing (THEOREMS.md B.15).
///
/// Two levels:
///  - three-valued comparisons of one enclosure at one precision (`certainly_less` and friends):
///    `Tri::yes` / `Tri::no` when every point of the enclosure gives the same answer,
///    `Tri::undecided` otherwise;
///  - escalating decisions (`decide`, `decide_less`, …) that call an enclosure function at
///    precisions start, 2·start, 4·start, … up to a cap, and stop as soon as the enclosure
///    separates from the rational. Their outcome is `Tri::undecided` only when the cap was reached;
///    callers report it as "undecided at precision p" (see to_string(const Decision&)).
///
/// **True equalities never separate.** If the real number equals the rational (e^0 = 1, ln 1 = 0,
/// a Φ(0) = 1/2 …) every enclosure contains it and the loop runs to the cap. Callers must detect
/// such equalities symbolically first; decide_exp() and decide_log() do so for e^x and ln r, and
/// for them the loop always terminates below an unbounded cap: for rational x ≠ 0, e^x is
/// transcendental (Lindemann–Weierstrass) and so never equals a rational (THEOREMS.md B.15).
#pragma once

#include "exactdp/numeric/interval.hpp"
#include "exactdp/numeric/rational.hpp"

#include <functional>
#include <string>
#include <string_view>

namespace exactdp {

/// A three-valued truth value: the answer is known to be true, known to be false, or cannot be
/// told apart at the current precision.
enum class Tri { yes, no, undecided };

/// "yes", "no" or "undecided".
std::string to_string(Tri t);
/// Tri::yes for true, Tri::no for false.
constexpr Tri to_tri(bool b) { return b ? Tri::yes : Tri::no; }
/// Logical negation; undecided stays undecided.
constexpr Tri operator!(Tri t) { return t == Tri::yes ? Tri::no : t == Tri::no ? Tri::yes : Tri::undecided; }

/// The order relation asked about, read left to right: `x rel q`.
enum class Relation { less, less_equal, greater, greater_equal };

/// "<", "<=", ">" or ">=".
std::string to_string(Relation r);
/// The relation with its sides swapped: x < q ⇔ q > x, so flip(less) = greater, etc.
constexpr Relation flip(Relation r) {
  switch (r) {
    case Relation::less: return Relation::greater;
    case Relation::less_equal: return Relation::greater_equal;
    case Relation::greater: return Relation::less;
    case Relation::greater_equal: return Relation::less_equal;
  }
  return r;
}
/// Whether `a rel b` holds for two exact rationals.
bool holds(const Rational& a, Relation rel, const Rational& b);

// ------------------------------------------------------------------ one precision, three values
// In each function the Interval encloses one unknown real v; the answer is about v.

/// v < q: yes if hi < q, no if lo ≥ q, otherwise undecided. Comparisons are exact.
Tri certainly_less(const Interval& v, const Rational& q);
/// v ≤ q: yes if hi ≤ q, no if lo > q, otherwise undecided.
Tri certainly_less_equal(const Interval& v, const Rational& q);
/// q < v: yes if q < lo, no if q ≥ hi, otherwise undecided.
Tri certainly_less(const Rational& q, const Interval& v);
/// q ≤ v: yes if q ≤ lo, no if q > hi, otherwise undecided.
Tri certainly_less_equal(const Rational& q, const Interval& v);
/// v < w for two unknown reals: yes if v.hi < w.lo, no if v.lo ≥ w.hi, otherwise undecided.
Tri certainly_less(const Interval& v, const Interval& w);
/// v ≤ w: yes if v.hi ≤ w.lo, no if v.lo > w.hi, otherwise undecided.
Tri certainly_less_equal(const Interval& v, const Interval& w);
/// v rel q, for any of the four relations.
Tri certainly(const Interval& v, Relation rel, const Rational& q);

// ------------------------------------------------------------------ escalating precision

/// Limits of the precision escalation, in bits.
struct DecideOptions {
  /// The first precision tried. Must be ≥ min_precision.
  Precision start = 64;
  /// The last precision tried (precisions double from start and are clipped to cap).
  /// Must be ≥ start.
  Precision cap = 8192;
};

/// The outcome of an escalating decision, with the precision at which it was reached.
struct Decision {
  /// yes or no; undecided only if the enclosure at precision `cap` still straddled the rational.
  Tri outcome = Tri::undecided;
  /// The precision (bits) of the enclosure that decided, or the cap when undecided;
  /// 0 when the answer was found exactly (symbolically), without any enclosure.
  Precision precision = 0;

  bool decided() const { return outcome != Tri::undecided; }
  friend bool operator==(const Decision&, const Decision&) = default;
};

/// "yes (precision 64)", "no (exact)", or "undecided at precision 8192".
std::string to_string(const Decision& d);

/// The answer of a decided Decision as a bool; throws exactdp::Error naming @p what (field) and
/// the precision reached (value) when it is undecided. For callers that cannot continue without
/// an answer.
bool require_decided(const Decision& d, std::string_view what);

/// A certified real given by its enclosures: enclose(p) must return an interval containing the
/// real for every precision p it is called with, and should shrink as p grows (otherwise the
/// escalation merely runs to the cap). Exceptions it throws propagate unchanged.
using Enclosure = std::function<Interval(Precision)>;

/// Decides `v rel q`, where v is the real enclosed by @p enclose, by calling enclose at
/// precisions options.start, 2·start, … ≤ options.cap until certainly() answers yes or no.
/// Never guesses: returns Tri::undecided (with precision = cap) when the cap is reached, which is
/// always the case when v == q (see the file comment). Throws exactdp::Error (field "start" or
/// "cap") when the options are invalid.
Decision decide(const Enclosure& enclose, Relation rel, const Rational& q, const DecideOptions& options = {});
/// v < q, see decide().
Decision decide_less(const Enclosure& enclose, const Rational& q, const DecideOptions& options = {});
/// v ≤ q, see decide().
Decision decide_less_equal(const Enclosure& enclose, const Rational& q, const DecideOptions& options = {});
/// q < v (the reverse orientation), see decide().
Decision decide_less(const Rational& q, const Enclosure& enclose, const DecideOptions& options = {});
/// q ≤ v (the reverse orientation), see decide().
Decision decide_less_equal(const Rational& q, const Enclosure& enclose, const DecideOptions& options = {});
/// v < w for two certified reals: both are enclosed at the same precision, which escalates until
/// the enclosures separate. Undecided at the cap when v == w.
Decision decide_less(const Enclosure& v, const Enclosure& w, const DecideOptions& options = {});
/// v ≤ w for two certified reals (undecided at the cap when v == w).
Decision decide_less_equal(const Enclosure& v, const Enclosure& w, const DecideOptions& options = {});

// ------------------------------------------------------------------ e^x and ln r, equalities handled

/// Decides `e^x rel q` for exact rationals x and q. The cases that need no enclosure are
/// answered exactly (precision 0): x = 0 (e^0 = 1 is compared with q exactly) and q ≤ 0
/// (e^x > 0 ≥ q). In every other case e^x ≠ q by Lindemann–Weierstrass (x ≠ 0 rational ⇒ e^x
/// transcendental), so only the precision cap can leave the answer undecided (THEOREMS.md B.15).
Decision decide_exp(const Rational& x, Relation rel, const Rational& q, const DecideOptions& options = {});
/// e^x ≤ q, see decide_exp().
Decision decide_exp_less_equal(const Rational& x, const Rational& q, const DecideOptions& options = {});
/// e^x < q, see decide_exp().
Decision decide_exp_less(const Rational& x, const Rational& q, const DecideOptions& options = {});

/// Decides `ln r rel q` for exact rationals r > 0 and q. Exact cases (precision 0): r = 1
/// (ln 1 = 0 compared with q) and q = 0 (ln r rel 0 ⇔ r rel 1). Otherwise ln r ≠ q because
/// r = e^q would make e^q rational for q ≠ 0 (Lindemann–Weierstrass); the comparison is carried out
/// as r rel e^q, i.e. through decide_exp(). Throws exactdp::Error (field "r") unless r > 0.
Decision decide_log(const Rational& r, Relation rel, const Rational& q, const DecideOptions& options = {});
/// ln r ≤ q, see decide_log().
Decision decide_log_less_equal(const Rational& r, const Rational& q, const DecideOptions& options = {});
/// ln r < q, see decide_log().
Decision decide_log_less(const Rational& r, const Rational& q, const DecideOptions& options = {});

}  // namespace exactdp
