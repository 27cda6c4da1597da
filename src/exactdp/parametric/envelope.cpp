#include "exactdp/parametric/envelope.hpp"

#include "exactdp/core/error.hpp"
#include "exactdp/parametric/flint_poly.hpp"

#include <flint/fmpz_poly_q.h>

#include <map>
#include <string>

namespace exactdp::parametric {

using detail::descartes_bound;
using detail::Poly;

namespace {

RealAlgebraic exact_point(const Rational& x) {
  RealAlgebraic a;
  a.polynomial = {-Integer(x.get_num()), Integer(x.get_den())};
  a.lower = a.upper = x;
  return a;
}

/// Pieces as they are produced (open intervals and points, in order), with their best functions.
struct RawPieces {
  std::vector<Piece> pieces;
  std::vector<std::size_t> best;
  void add(Piece p, std::size_t b) {
    pieces.push_back(std::move(p));
    best.push_back(b);
  }
};

/// The envelope from pieces in order: a point piece takes its left neighbour's function (equal to
/// the largest there by continuity), an interval whose function is that of the interval before
/// the point preceding it absorbs both, a point at a range end joins its neighbouring interval,
/// and every interval gets the simplest rational inside it as its sample.
Envelope normalise(RawPieces raw, const ParameterRange& range) {
  Envelope out;
  for (std::size_t k = 0; k < raw.pieces.size(); ++k) {
    Piece& p = raw.pieces[k];
    const std::size_t b = raw.best[k];
    if (p.is_point()) {
      out.pieces.push_back(p);
      out.best.push_back(out.best.empty() ? b : out.best.back());
      continue;
    }
    const std::size_t n = out.pieces.size();
    if (n >= 2 && out.pieces[n - 1].is_point() && !out.pieces[n - 2].is_point() && out.best[n - 2] == b) {
      out.pieces.pop_back();
      out.best.pop_back();
      out.pieces.back().upper = p.upper;
      out.pieces.back().upper_closed = p.upper_closed;
    } else if (n >= 1 && !out.pieces[n - 1].is_point() && out.best[n - 1] == b) {
      out.pieces.back().upper = p.upper;
      out.pieces.back().upper_closed = p.upper_closed;
    } else {
      out.pieces.push_back(p);
      out.best.push_back(b);
    }
  }
  // a point at a closed range end belongs to its neighbouring interval (the largest function there
  // is the interval's, by continuity)
  if (out.pieces.size() >= 2 && out.pieces.front().is_point()) {
    out.pieces[1].lower = out.pieces.front().lower;
    out.pieces[1].lower_closed = true;
    out.pieces.erase(out.pieces.begin());
    out.best.erase(out.best.begin());
  }
  if (out.pieces.size() >= 2 && out.pieces.back().is_point()) {
    out.pieces[out.pieces.size() - 2].upper = out.pieces.back().upper;
    out.pieces[out.pieces.size() - 2].upper_closed = true;
    out.pieces.pop_back();
    out.best.pop_back();
  }
  out.pieces.front().lower_closed = !range.lower_open && out.pieces.front().lower.is_rational() && out.pieces.front().lower.lower == range.lower;
  out.pieces.back().upper_closed = !range.upper_open && out.pieces.back().upper.is_rational() && out.pieces.back().upper.lower == range.upper;
  for (auto& p : out.pieces)
    if (!p.is_point()) p.sample = simplest_rational_between(p.lower.upper, p.upper.lower);
  return out;
}

/// Throws unless every function's denominator is free of roots on the range.
void require_continuous(const std::vector<RationalFunction>& functions, const ParameterRange& range, std::string_view variable) {
  std::map<std::string, bool> checked;
  for (const auto& f : functions) {
    const Poly den(fmpz_poly_q_denref(static_cast<fmpz_poly_q_struct*>(f.flint())));
    if (den.degree() <= 0) continue;
    // no root inside (Descartes' bound 0) and none at an included end: continuous, no isolation needed
    if (descartes_bound(den, range.lower, range.upper) == 0 && (range.lower_open || den.sign_at(range.lower) != 0) &&
        (range.upper_open || den.sign_at(range.upper) != 0))
      continue;
    const std::string key = f.key();
    if (!checked.emplace(key, true).second) continue;
    const auto poles = real_roots_in(den.coefficients(), range);
    if (!poles.empty())
      throw Error("", "", f.to_string(variable),
                  "the denominator vanishes at " + poles.front().to_string(variable) + ", inside the parameter range " + range.to_string());
  }
}

/// Elimination and halving (the file comment of envelope.hpp).
class Sweep {
public:
  Sweep(const std::vector<RationalFunction>& functions, std::string_view variable) : functions_(functions), variable_(variable) {
    for (const auto& f : functions) {
      auto* q = static_cast<fmpz_poly_q_struct*>(f.flint());
      numerator_.emplace_back(fmpz_poly_q_numref(q));
      denominator_.emplace_back(fmpz_poly_q_denref(q));
    }
  }

  /// Appends the envelope of the functions @p alive on the open interval (lo, hi) to @p out.
  void solve(const std::vector<std::size_t>& alive, const Rational& lo, const Rational& hi, unsigned depth, RawPieces& out) {
    ++stats_.intervals;
    const Rational mid = (lo + hi) / 2;
    // the function largest at the midpoint (exact values)
    std::size_t champion = alive.front();
    Rational top = functions_[champion].evaluate(mid);
    for (std::size_t i : alive) {
      Rational v = functions_[i].evaluate(mid);
      if (v > top) top = std::move(v), champion = i;
    }
    // f_c − f_i = (N_c·D_i − N_i·D_c)/(D_c·D_i), the denominator without roots on the range: where the
    // cross numerator has no root in (lo, hi), the difference keeps its sign at mid (≥ 0, not 0): f_i < f_c
    std::vector<std::size_t> survivors{champion};
    Poly cross, term;
    for (std::size_t i : alive) {
      if (i == champion) continue;
      fmpz_poly_mul(cross.get(), numerator_[champion].get(), denominator_[i].get());
      fmpz_poly_mul(term.get(), numerator_[i].get(), denominator_[champion].get());
      fmpz_poly_sub(cross.get(), cross.get(), term.get());
      ++stats_.comparisons;
      if (fmpz_poly_is_zero(cross.get()))
        throw Error("parametric::upper_envelope", "", functions_[i].to_string(variable_), "internal: a function is given twice");
      if (descartes_bound(cross, lo, hi) == 0) continue;
      survivors.push_back(i);
    }
    if (survivors.size() == 1) {
      out.add(Piece{exact_point(lo), exact_point(hi), false, false, mid}, champion);
      return;
    }
    if (survivors.size() <= kFewSurvivors || depth >= kMaxDepth) {
      // split (lo, hi) at the roots of the survivors' pairwise differences
      std::vector<RationalFunction> few;
      for (std::size_t i : survivors) few.push_back(functions_[i]);
      Envelope local = upper_envelope_pairwise(few, ParameterRange{lo, hi, true, true}, variable_);
      stats_.comparisons += few.size() * (few.size() - 1) / 2;
      stats_.distinct_factors += local.distinct_factors;
      for (std::size_t k = 0; k < local.pieces.size(); ++k) out.add(std::move(local.pieces[k]), survivors[local.best[k]]);
      return;
    }
    solve(survivors, lo, mid, depth + 1, out);
    out.add(Piece{exact_point(mid), exact_point(mid), true, true, mid}, champion);
    solve(survivors, mid, hi, depth + 1, out);
  }

  const Envelope& stats() const { return stats_; }

private:
  /// At most this many survivors are split pairwise (their differences factored and isolated).
  static constexpr std::size_t kFewSurvivors = 6;
  /// Halvings before the survivors are split pairwise however many: around a point where many
  /// functions meet, halving never separates them.
  static constexpr unsigned kMaxDepth = 40;

  const std::vector<RationalFunction>& functions_;
  std::string variable_;
  std::vector<Poly> numerator_, denominator_;
  Envelope stats_;
};

}  // namespace

Envelope upper_envelope_pairwise(const std::vector<RationalFunction>& functions, const ParameterRange& range, std::string_view variable) {
  if (functions.empty()) throw Error("parametric::upper_envelope", "", "", "internal: no function");
  const std::size_t n = functions.size();
  // the functions themselves (their poles are refused), then every pairwise difference
  std::vector<RationalFunction> all = functions;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) all.push_back(functions[i] - functions[j]);
  const SignPartition partition = sign_partition(all, range, variable);
  // sign of f_i − f_j on piece k, from the difference with i < j
  auto compare = [&](std::size_t i, std::size_t j, std::size_t k) {
    if (i == j) return 0;
    const std::size_t lo = std::min(i, j), hi = std::max(i, j);
    const std::size_t index = n + lo * n - lo * (lo + 1) / 2 + (hi - lo - 1);
    const int s = partition.signs[index][k];
    return i < j ? s : -s;
  };
  RawPieces raw;
  for (std::size_t k = 0; k < partition.pieces.size(); ++k) {
    std::size_t best = 0;
    for (std::size_t j = 1; j < n; ++j)
      if (compare(best, j, k) < 0) best = j;
    raw.add(partition.pieces[k], best);
  }
  Envelope out = normalise(std::move(raw), range);
  out.comparisons = n * (n - 1) / 2;
  out.intervals = 1;
  out.distinct_factors = partition.distinct_factors;
  return out;
}

Envelope upper_envelope(const std::vector<RationalFunction>& functions, const ParameterRange& range, std::string_view variable) {
  if (functions.empty()) throw Error("parametric::upper_envelope", "", "", "internal: no function");
  if (!(range.lower < range.upper)) throw Error("parametric::upper_envelope", "", range.to_string(), "the range is empty or a single point");
  require_continuous(functions, range, variable);
  std::vector<std::size_t> all(functions.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  Sweep sweep(functions, variable);
  RawPieces raw;
  sweep.solve(all, range.lower, range.upper, 0, raw);
  Envelope out = normalise(std::move(raw), range);
  out.comparisons = sweep.stats().comparisons;
  out.intervals = sweep.stats().intervals;
  out.distinct_factors = sweep.stats().distinct_factors;
  return out;
}

}  // namespace exactdp::parametric
