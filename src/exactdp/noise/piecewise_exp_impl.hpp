/// @file
/// The member definitions of BasicPiecewiseExp (noise/piecewise_exp.hpp), written once for every
/// field policy. Included by piecewise_exp.cpp (the numeric instance) and by the parametric
/// layer's instance (parametric/parametric_field.cpp); not a public header.
#pragma once

#include "exactdp/core/error.hpp"
#include "exactdp/noise/piecewise_exp.hpp"

#include <algorithm>
#include <iterator>
#include <utility>

namespace exactdp::noise {

namespace piecewise_detail {

inline constexpr const char* where = "noise::PiecewiseExp";
inline constexpr long max_unit_pieces = 100000;

template <class F>
bool is_nil(const typename F::Value& x) {
  return x == typename F::Value(0);
}

/// Sorts by base, merges equal bases, drops zero coefficients.
template <class F>
void tidy(typename BasicPiecewiseExp<F>::Terms& t) {
  using Term = BasicExpTerm<F>;
  std::sort(t.begin(), t.end(), [](const Term& a, const Term& b) { return F::before(a.base, b.base); });
  typename BasicPiecewiseExp<F>::Terms out;
  for (auto& term : t) {
    if (!out.empty() && out.back().base == term.base) out.back().coefficient += term.coefficient;
    else out.push_back(std::move(term));
  }
  std::erase_if(out, [](const Term& x) { return is_nil<F>(x.coefficient); });
  t = std::move(out);
}

template <class F>
typename BasicPiecewiseExp<F>::Terms times(const typename BasicPiecewiseExp<F>::Terms& x, const typename BasicPiecewiseExp<F>::Terms& y) {
  typename BasicPiecewiseExp<F>::Terms out;
  out.reserve(x.size() * y.size());
  for (const auto& a : x)
    for (const auto& b : y) out.push_back({a.coefficient * b.coefficient, a.base * b.base});
  tidy<F>(out);
  return out;
}

template <class F>
typename BasicPiecewiseExp<F>::Terms plus(const typename BasicPiecewiseExp<F>::Terms& x, const typename BasicPiecewiseExp<F>::Terms& y,
                                          int sign) {
  typename BasicPiecewiseExp<F>::Terms out = x;
  for (const auto& b : y) out.push_back({sign > 0 ? b.coefficient : -b.coefficient, b.base});
  tidy<F>(out);
  return out;
}

/// An interval end: a finite integer or ±∞.
struct End {
  bool infinite = true;
  long at = 0;
};

/// The first and last j of piece @p i of a function with cuts @p cuts.
inline std::pair<End, End> span(const std::vector<long>& cuts, std::size_t i) {
  End lo, hi;
  if (i > 0) lo = {false, cuts[i - 1]};
  if (i < cuts.size()) hi = {false, cuts[i] - 1};
  return {lo, hi};
}

/// Σ_{j=a}^{b} c θ^j for one term, ends possibly infinite (the closed forms of the file comment
/// of piecewise_exp.hpp).
template <class F>
typename F::Value term_sum(const BasicExpTerm<F>& t, End a, End b) {
  using V = typename F::Value;
  const V& th = t.base;
  if (a.infinite && b.infinite)
    throw Error(where, "sum", F::show(th), "a non-zero exponential summed over all of Z diverges");
  if (a.infinite) {
    if (compare_with_one<F>(th) <= 0) throw Error(where, "sum", F::show(th), "the sum towards -infinity diverges (base <= 1)");
    return t.coefficient * F::power(th, b.at + 1) / (th - V(1));
  }
  if (b.infinite) {
    if (compare_with_one<F>(th) >= 0) throw Error(where, "sum", F::show(th), "the sum towards +infinity diverges (base >= 1)");
    return t.coefficient * F::power(th, a.at) / (V(1) - th);
  }
  return t.coefficient * geometric_sum_of<F>(th, a.at, b.at);
}

template <class F>
std::string show_terms(const typename BasicPiecewiseExp<F>::Terms& t) {
  if (t.empty()) return "0";
  std::string out;
  for (std::size_t i = 0; i < t.size(); ++i) {
    typename F::Value c = t[i].coefficient;
    if (i > 0) {
      const bool minus = F::prints_negative(c);
      out += minus ? " - " : " + ";
      if (minus) c = -c;
    }
    if (t[i].base == typename F::Value(1)) out += F::show(c);
    else out += F::show(c) + "*(" + F::show(t[i].base) + ")^j";
  }
  return out;
}

/// Applies @p op piecewise on the common refinement of the cuts of @p f and @p g.
template <class F, class Op>
BasicPiecewiseExp<F> combine(const BasicPiecewiseExp<F>& f, const BasicPiecewiseExp<F>& g, Op op) {
  std::vector<long> cuts;
  std::set_union(f.cuts().begin(), f.cuts().end(), g.cuts().begin(), g.cuts().end(), std::back_inserter(cuts));
  std::vector<typename BasicPiecewiseExp<F>::Terms> pieces;
  pieces.reserve(cuts.size() + 1);
  std::size_t i = 0, k = 0;  // the pieces of f and g that contain the current piece
  for (std::size_t p = 0; p <= cuts.size(); ++p) {
    if (p > 0) {
      const long start = cuts[p - 1];
      while (i < f.cuts().size() && f.cuts()[i] <= start) ++i;
      while (k < g.cuts().size() && g.cuts()[k] <= start) ++k;
    }
    pieces.push_back(op(f.pieces()[i], g.pieces()[k]));
  }
  return BasicPiecewiseExp<F>(std::move(cuts), std::move(pieces));
}

}  // namespace piecewise_detail

template <class F>
BasicPiecewiseExp<F>::BasicPiecewiseExp() : pieces_(1) {}

template <class F>
BasicPiecewiseExp<F>::BasicPiecewiseExp(std::vector<long> cuts, std::vector<Terms> pieces) : cuts_(std::move(cuts)), pieces_(std::move(pieces)) {
  using piecewise_detail::where;
  if (pieces_.size() != cuts_.size() + 1)
    throw Error(where, "pieces", std::to_string(pieces_.size()), "there must be exactly one more piece than cuts");
  for (std::size_t i = 1; i < cuts_.size(); ++i)
    if (cuts_[i] <= cuts_[i - 1]) throw Error(where, "cuts", std::to_string(cuts_[i]), "cuts must be strictly increasing");
  for (auto& p : pieces_)
    for (const auto& t : p)
      if (F::sign(t.base) <= 0) throw Error(where, "base", F::show(t.base), "bases must be positive");
  normalise();
}

template <class F>
BasicPiecewiseExp<F> BasicPiecewiseExp<F>::constant(const Value& c) {
  return BasicPiecewiseExp({}, {{{c, Value(1)}}});
}

template <class F>
BasicPiecewiseExp<F> BasicPiecewiseExp<F>::exponential(const Value& c, const Value& base) {
  return BasicPiecewiseExp({}, {{{c, base}}});
}

template <class F>
BasicPiecewiseExp<F> BasicPiecewiseExp<F>::indicator(std::optional<long> lo, std::optional<long> hi) {
  if (lo && hi && *hi < *lo) return BasicPiecewiseExp();
  std::vector<long> cuts;
  std::vector<Terms> pieces;
  const Terms one{{Value(1), Value(1)}};
  if (lo) {
    cuts.push_back(*lo);
    pieces.push_back({});
  }
  pieces.push_back(one);
  if (hi) {
    cuts.push_back(*hi + 1);
    pieces.push_back({});
  }
  return BasicPiecewiseExp(std::move(cuts), std::move(pieces));
}

template <class F>
BasicPiecewiseExp<F> BasicPiecewiseExp<F>::point(long at, const Value& value) {
  return BasicPiecewiseExp({at, at + 1}, {{}, {{value, Value(1)}}, {}});
}

template <class F>
void BasicPiecewiseExp<F>::normalise() {
  for (auto& p : pieces_) piecewise_detail::tidy<F>(p);
  std::vector<long> cuts;
  std::vector<Terms> pieces{std::move(pieces_[0])};
  for (std::size_t i = 0; i < cuts_.size(); ++i) {
    if (pieces_[i + 1] == pieces.back()) continue;
    cuts.push_back(cuts_[i]);
    pieces.push_back(std::move(pieces_[i + 1]));
  }
  cuts_ = std::move(cuts);
  pieces_ = std::move(pieces);
}

template <class F>
std::size_t BasicPiecewiseExp<F>::piece_of(long j) const {
  return static_cast<std::size_t>(std::upper_bound(cuts_.begin(), cuts_.end(), j) - cuts_.begin());
}

template <class F>
typename F::Value BasicPiecewiseExp<F>::operator()(long j) const {
  Value s(0);
  for (const auto& t : pieces_[piece_of(j)]) s += t.coefficient * F::power(t.base, j);
  return s;
}

template <class F>
bool BasicPiecewiseExp<F>::is_zero() const {
  return cuts_.empty() && pieces_[0].empty();
}

template <class F>
bool BasicPiecewiseExp<F>::is_identically_zero() const {
  for (std::size_t i = 0; i < pieces_.size(); ++i) {
    const Terms& p = pieces_[i];
    if (p.empty()) continue;
    if (i == 0 || i == cuts_.size()) return false;  // an unbounded piece with terms
    const long a = cuts_[i - 1], b = cuts_[i] - 1;
    if (b - a + 1 >= static_cast<long>(p.size())) return false;
    for (long j = a; j <= b; ++j) {
      Value v(0);
      for (const auto& t : p) v += t.coefficient * F::power(t.base, j);
      if (!piecewise_detail::is_nil<F>(v)) return false;
    }
  }
  return true;
}

template <class F>
std::optional<long> BasicPiecewiseExp<F>::lowest_nonzero_piece() const {
  for (std::size_t i = 0; i < pieces_.size(); ++i)
    if (!pieces_[i].empty()) return i == 0 ? std::nullopt : std::optional<long>(cuts_[i - 1]);
  return std::nullopt;
}

template <class F>
std::optional<long> BasicPiecewiseExp<F>::highest_nonzero_piece() const {
  for (std::size_t i = pieces_.size(); i-- > 0;)
    if (!pieces_[i].empty()) return i == cuts_.size() ? std::nullopt : std::optional<long>(cuts_[i] - 1);
  return std::nullopt;
}

template <class F>
BasicPiecewiseExp<F> BasicPiecewiseExp<F>::operator*(const BasicPiecewiseExp& g) const {
  return piecewise_detail::combine(*this, g, [](const Terms& x, const Terms& y) { return piecewise_detail::times<F>(x, y); });
}

template <class F>
BasicPiecewiseExp<F> BasicPiecewiseExp<F>::operator+(const BasicPiecewiseExp& g) const {
  return piecewise_detail::combine(*this, g, [](const Terms& x, const Terms& y) { return piecewise_detail::plus<F>(x, y, 1); });
}

template <class F>
BasicPiecewiseExp<F> BasicPiecewiseExp<F>::operator-(const BasicPiecewiseExp& g) const {
  return piecewise_detail::combine(*this, g, [](const Terms& x, const Terms& y) { return piecewise_detail::plus<F>(x, y, -1); });
}

template <class F>
BasicPiecewiseExp<F> BasicPiecewiseExp<F>::scaled(const Value& c) const {
  auto pieces = pieces_;
  for (auto& p : pieces)
    for (auto& t : p) t.coefficient *= c;
  return BasicPiecewiseExp(cuts_, std::move(pieces));
}

template <class F>
BasicPiecewiseExp<F> BasicPiecewiseExp<F>::shifted(long v) const {
  // f(j − v) = Σ c θ^{j−v} = Σ (c θ^{−v}) θ^j, with every cut moved by v
  auto cuts = cuts_;
  for (auto& b : cuts) b += v;
  auto pieces = pieces_;
  for (auto& p : pieces)
    for (auto& t : p) t.coefficient *= F::power(t.base, -v);
  return BasicPiecewiseExp(std::move(cuts), std::move(pieces));
}

template <class F>
BasicPiecewiseExp<F> BasicPiecewiseExp<F>::reflected() const {
  // f(−j): the piece [a, b] becomes [−b, −a] and c θ^{−j} = c (1/θ)^j
  std::vector<long> cuts;
  for (auto it = cuts_.rbegin(); it != cuts_.rend(); ++it) cuts.push_back(1 - *it);
  std::vector<Terms> pieces(pieces_.rbegin(), pieces_.rend());
  for (auto& p : pieces)
    for (auto& t : p) t.base = Value(1) / t.base;
  return BasicPiecewiseExp(std::move(cuts), std::move(pieces));
}

template <class F>
BasicPiecewiseExp<F> BasicPiecewiseExp<F>::restricted(std::optional<long> lo, std::optional<long> hi) const {
  return *this * indicator(lo, hi);
}

template <class F>
typename F::Value BasicPiecewiseExp<F>::sum(std::optional<long> lo, std::optional<long> hi) const {
  using piecewise_detail::End;
  Value total(0);
  if (lo && hi && *hi < *lo) return total;
  for (std::size_t i = 0; i < pieces_.size(); ++i) {
    if (pieces_[i].empty()) continue;
    auto [a, b] = piecewise_detail::span(cuts_, i);
    if (lo && (a.infinite || a.at < *lo)) a = {false, *lo};
    if (hi && (b.infinite || b.at > *hi)) b = {false, *hi};
    if (!a.infinite && !b.infinite && b.at < a.at) continue;
    for (const auto& t : pieces_[i]) total += piecewise_detail::term_sum<F>(t, a, b);
  }
  return total;
}

template <class F>
BasicPiecewiseExp<F> BasicPiecewiseExp<F>::cumulative() const {
  using piecewise_detail::where;
  const Value one(1);
  // first split every bounded piece with a θ = 1 term and more than one point into single points,
  // since Σ_{j=a}^{k} 1 = k − a + 1 is linear in k
  std::vector<long> cuts;
  std::vector<Terms> pieces{pieces_[0]};
  for (std::size_t i = 0; i < cuts_.size(); ++i) {
    const Terms& p = pieces_[i + 1];
    const bool bounded = i + 1 < cuts_.size();
    const bool has_one = std::any_of(p.begin(), p.end(), [&](const Term& t) { return t.base == one; });
    if (has_one && !bounded)
      throw Error(where, "cumulative", piecewise_detail::show_terms<F>(p), "a constant term on an unbounded piece is not summable");
    if (has_one && cuts_[i + 1] - cuts_[i] > 1) {
      if (cuts_[i + 1] - cuts_[i] > piecewise_detail::max_unit_pieces)
        throw Error(where, "cumulative", std::to_string(cuts_[i + 1] - cuts_[i]),
                    "a constant piece longer than 100000 points has no closed-form running sum here");
      for (long j = cuts_[i]; j < cuts_[i + 1]; ++j) {
        cuts.push_back(j);
        pieces.push_back(p);
      }
      continue;
    }
    cuts.push_back(cuts_[i]);
    pieces.push_back(p);
  }
  if (!pieces[0].empty() && cuts.empty())
    throw Error(where, "cumulative", piecewise_detail::show_terms<F>(pieces[0]),
                "a function non-zero on all of Z with one formula is not a mass function");
  std::vector<Terms> out;
  Value before(0);  // F(start − 1) of the current piece
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    const Terms& p = pieces[i];
    Terms f;
    if (i == 0) {
      // F(k) = Σ_{j≤k} c θ^j = c θ^{k+1}/(θ − 1), θ > 1
      for (const auto& t : p) {
        if (compare_with_one<F>(t.base) <= 0)
          throw Error(where, "cumulative", F::show(t.base), "not summable towards -infinity (base <= 1)");
        f.push_back({t.coefficient * t.base / (t.base - one), t.base});
      }
    } else {
      // F(k) = F(a − 1) + Σ_{j=a}^{k} c θ^j = F(a − 1) + c θ^a/(1 − θ) − (c θ/(1 − θ)) θ^k
      const long a = cuts[i - 1];
      Value constant = before;
      for (const auto& t : p) {
        if (t.base == one) {
          constant += t.coefficient;  // a single point (split above)
          continue;
        }
        constant += t.coefficient * F::power(t.base, a) / (one - t.base);
        f.push_back({-(t.coefficient * t.base / (one - t.base)), t.base});
      }
      f.push_back({constant, one});
    }
    piecewise_detail::tidy<F>(f);
    if (i < cuts.size()) {
      before = Value(0);
      for (const auto& t : f) before += t.coefficient * F::power(t.base, cuts[i] - 1);
    }
    out.push_back(std::move(f));
  }
  return BasicPiecewiseExp(std::move(cuts), std::move(out));
}

template <class F>
std::string BasicPiecewiseExp<F>::to_string() const {
  std::string out;
  for (std::size_t i = 0; i < pieces_.size(); ++i) {
    auto [a, b] = piecewise_detail::span(cuts_, i);
    if (!out.empty()) out += "; ";
    if (a.infinite && b.infinite) out += "all j";
    else if (a.infinite) out += "j<=" + std::to_string(b.at);
    else if (b.infinite) out += "j>=" + std::to_string(a.at);
    else if (a.at == b.at) out += "j=" + std::to_string(a.at);
    else out += std::to_string(a.at) + "<=j<=" + std::to_string(b.at);
    out += ": " + piecewise_detail::show_terms<F>(pieces_[i]);
  }
  return out;
}

}  // namespace exactdp::noise
