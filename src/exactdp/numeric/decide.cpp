#include "exactdp/numeric/decide.hpp"

#include "exactdp/core/error.hpp"

#include <algorithm>

namespace exactdp {
namespace {

/// Sign of (endpoint − q), exact; endpoints may be ±∞.
int compare_end(mpfr_srcptr end, const Rational& q) { return mpfr_cmp_q(end, q.get_mpq_t()); }
mpfr_srcptr lo(const Interval& v) { return &v.get()->left; }
mpfr_srcptr hi(const Interval& v) { return &v.get()->right; }

void validate(const DecideOptions& options) {
  if (options.start < min_precision || options.start > MPFR_PREC_MAX)
    throw Error("", "start", std::to_string(options.start),
                "certified decision: the start precision must be at least " + std::to_string(min_precision) + " bits");
  if (options.cap < options.start || options.cap > MPFR_PREC_MAX)
    throw Error("", "cap", std::to_string(options.cap),
                "certified decision: the precision cap must be at least the start precision (" +
                    std::to_string(options.start) + ")");
}

/// The escalation loop shared by every public decide function: @p at_precision answers the
/// question for enclosures of one precision.
template <class AtPrecision>
Decision escalate(AtPrecision at_precision, const DecideOptions& options) {
  validate(options);
  for (Precision p = options.start;; p = std::min(options.cap, 2 * p)) {
    const Tri t = at_precision(p);
    if (t != Tri::undecided || p >= options.cap) return Decision{t, p};
  }
}

Decision exact(bool b) { return Decision{to_tri(b), 0}; }

}  // namespace

std::string to_string(Tri t) {
  switch (t) {
    case Tri::yes: return "yes";
    case Tri::no: return "no";
    case Tri::undecided: return "undecided";
  }
  return "undecided";
}

std::string to_string(Relation r) {
  switch (r) {
    case Relation::less: return "<";
    case Relation::less_equal: return "<=";
    case Relation::greater: return ">";
    case Relation::greater_equal: return ">=";
  }
  return "?";
}

bool holds(const Rational& a, Relation rel, const Rational& b) {
  switch (rel) {
    case Relation::less: return a < b;
    case Relation::less_equal: return a <= b;
    case Relation::greater: return a > b;
    case Relation::greater_equal: return a >= b;
  }
  return false;
}

Tri certainly_less(const Interval& v, const Rational& q) {
  if (compare_end(hi(v), q) < 0) return Tri::yes;
  if (compare_end(lo(v), q) >= 0) return Tri::no;
  return Tri::undecided;
}

Tri certainly_less_equal(const Interval& v, const Rational& q) {
  if (compare_end(hi(v), q) <= 0) return Tri::yes;
  if (compare_end(lo(v), q) > 0) return Tri::no;
  return Tri::undecided;
}

// q < v ⇔ ¬(v ≤ q); q ≤ v ⇔ ¬(v < q): negating a three-valued answer keeps undecided.
Tri certainly_less(const Rational& q, const Interval& v) { return !certainly_less_equal(v, q); }
Tri certainly_less_equal(const Rational& q, const Interval& v) { return !certainly_less(v, q); }

Tri certainly_less(const Interval& v, const Interval& w) {
  if (mpfr_less_p(hi(v), lo(w))) return Tri::yes;
  if (mpfr_greaterequal_p(lo(v), hi(w))) return Tri::no;
  return Tri::undecided;
}

Tri certainly_less_equal(const Interval& v, const Interval& w) {
  if (mpfr_lessequal_p(hi(v), lo(w))) return Tri::yes;
  if (mpfr_greater_p(lo(v), hi(w))) return Tri::no;
  return Tri::undecided;
}

Tri certainly(const Interval& v, Relation rel, const Rational& q) {
  switch (rel) {
    case Relation::less: return certainly_less(v, q);
    case Relation::less_equal: return certainly_less_equal(v, q);
    case Relation::greater: return certainly_less(q, v);
    case Relation::greater_equal: return certainly_less_equal(q, v);
  }
  return Tri::undecided;
}

std::string to_string(const Decision& d) {
  if (!d.decided()) return "undecided at precision " + std::to_string(d.precision);
  const std::string how = d.precision == 0 ? "exact" : "precision " + std::to_string(d.precision);
  return to_string(d.outcome) + " (" + how + ")";
}

bool require_decided(const Decision& d, std::string_view what) {
  if (!d.decided())
    throw Error("", std::string(what), std::to_string(d.precision),
                "certified comparison undecided at precision " + std::to_string(d.precision) +
                    " (raise the precision cap)");
  return d.outcome == Tri::yes;
}

Decision decide(const Enclosure& enclose, Relation rel, const Rational& q, const DecideOptions& options) {
  return escalate([&](Precision p) { return certainly(enclose(p), rel, q); }, options);
}

Decision decide_less(const Enclosure& enclose, const Rational& q, const DecideOptions& options) {
  return decide(enclose, Relation::less, q, options);
}
Decision decide_less_equal(const Enclosure& enclose, const Rational& q, const DecideOptions& options) {
  return decide(enclose, Relation::less_equal, q, options);
}
Decision decide_less(const Rational& q, const Enclosure& enclose, const DecideOptions& options) {
  return decide(enclose, Relation::greater, q, options);
}
Decision decide_less_equal(const Rational& q, const Enclosure& enclose, const DecideOptions& options) {
  return decide(enclose, Relation::greater_equal, q, options);
}
Decision decide_less(const Enclosure& v, const Enclosure& w, const DecideOptions& options) {
  return escalate([&](Precision p) { return certainly_less(v(p), w(p)); }, options);
}
Decision decide_less_equal(const Enclosure& v, const Enclosure& w, const DecideOptions& options) {
  return escalate([&](Precision p) { return certainly_less_equal(v(p), w(p)); }, options);
}

Decision decide_exp(const Rational& x, Relation rel, const Rational& q, const DecideOptions& options) {
  if (x == 0) return exact(holds(Rational(1), rel, q));  // e^0 = 1
  if (q <= 0) return exact(rel == Relation::greater || rel == Relation::greater_equal);  // e^x > 0 ≥ q
  // x ≠ 0: e^x is transcendental, so e^x ≠ q and the escalation terminates (B.15).
  return decide([&x](Precision p) { return exp(Interval(x, p)); }, rel, q, options);
}

Decision decide_exp_less_equal(const Rational& x, const Rational& q, const DecideOptions& options) {
  return decide_exp(x, Relation::less_equal, q, options);
}
Decision decide_exp_less(const Rational& x, const Rational& q, const DecideOptions& options) {
  return decide_exp(x, Relation::less, q, options);
}

Decision decide_log(const Rational& r, Relation rel, const Rational& q, const DecideOptions& options) {
  if (r <= 0) throw Error("", "r", to_string(r), "certified decision: the logarithm needs a positive argument");
  if (r == 1) return exact(holds(Rational(0), rel, q));  // ln 1 = 0
  if (q == 0) return exact(holds(r, rel, Rational(1)));  // ln is increasing and ln 1 = 0
  // ln r rel q ⇔ r rel e^q ⇔ e^q flip(rel) r, since exp is increasing.
  return decide_exp(q, flip(rel), r, options);
}

Decision decide_log_less_equal(const Rational& r, const Rational& q, const DecideOptions& options) {
  return decide_log(r, Relation::less_equal, q, options);
}
Decision decide_log_less(const Rational& r, const Rational& q, const DecideOptions& options) {
  return decide_log(r, Relation::less, q, options);
}

}  // namespace exactdp
