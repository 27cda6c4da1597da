#include "exactdp/numeric/symbolic_ratio.hpp"

#include "exactdp/core/error.hpp"

namespace exactdp {
namespace {

int sign_of_kind(const SymbolicRatio& r) { return r.is_zero() ? 0 : r.is_infinite() ? 2 : 1; }

}  // namespace

SymbolicRatio SymbolicRatio::zero() {
  SymbolicRatio r;
  r.kind_ = Kind::zero;
  r.c_ = 0;
  return r;
}

SymbolicRatio SymbolicRatio::infinity() {
  SymbolicRatio r;
  r.kind_ = Kind::infinite;
  r.c_ = 0;
  return r;
}

SymbolicRatio SymbolicRatio::exponential(const Rational& c, const Rational& s) {
  if (sgn(c) <= 0) throw Error("SymbolicRatio", "c", exactdp::to_string(c), "the coefficient of c*e^s must be positive");
  SymbolicRatio r;
  r.c_ = c;
  r.s_ = s;
  return r;
}

SymbolicRatio SymbolicRatio::of(const ExtendedRational& ratio) {
  if (ratio.is_infinite()) return infinity();
  if (sgn(ratio.value()) == 0) return zero();
  return exponential(ratio.value());
}

Interval SymbolicRatio::enclosure(Precision precision) const {
  switch (kind_) {
    case Kind::zero: return Interval::zero(precision);
    case Kind::infinite: return Interval::infinity(precision);
    case Kind::finite: break;
  }
  if (sgn(s_) == 0) return Interval(c_, precision);
  return Interval(c_, precision) * exp(Interval(s_, precision));
}

SymbolicRatio SymbolicRatio::inverse() const {
  if (is_zero()) return infinity();
  if (is_infinite()) return zero();
  return exponential(1 / c_, -s_);  // 1/(c·e^s) = (1/c)·e^{−s}
}

SymbolicRatio operator*(const SymbolicRatio& a, const SymbolicRatio& b) {
  if ((a.is_zero() && b.is_infinite()) || (a.is_infinite() && b.is_zero()))
    throw Error("SymbolicRatio", "product", "0*inf", "the product of the ratios 0 and +inf is undefined");
  if (a.is_zero() || b.is_zero()) return SymbolicRatio::zero();
  if (a.is_infinite() || b.is_infinite()) return SymbolicRatio::infinity();
  return SymbolicRatio::exponential(a.c_ * b.c_, a.s_ + b.s_);
}

bool SymbolicRatio::StorageLess::operator()(const SymbolicRatio& a, const SymbolicRatio& b) const {
  if (a.kind_ != b.kind_) return a.kind_ < b.kind_;
  if (a.c_ != b.c_) return a.c_ < b.c_;
  return a.s_ < b.s_;
}

std::string SymbolicRatio::to_string() const {
  if (is_zero()) return "0";
  if (is_infinite()) return "inf";
  if (sgn(s_) == 0) return exactdp::to_string(c_);
  std::string e = "e^(" + exactdp::to_string(s_) + ")";
  return c_ == 1 ? e : exactdp::to_string(c_) + "*" + e;
}

Decision decide_ratio_less(const SymbolicRatio& a, const SymbolicRatio& b, const DecideOptions& options) {
  const int ka = sign_of_kind(a), kb = sign_of_kind(b);
  if (ka != kb || ka != 1) return Decision{to_tri(ka < kb), 0};
  const Rational &ca = a.coefficient(), &cb = b.coefficient(), &sa = a.exponent(), &sb = b.exponent();
  if (ca == cb) return Decision{to_tri(sa < sb), 0};
  if (sa == sb) return Decision{to_tri(ca < cb), 0};
  if (ca <= cb && sa <= sb) return Decision{Tri::yes, 0};  // both factors no larger, one smaller
  if (ca >= cb && sa >= sb) return Decision{Tri::no, 0};
  // c_a e^{s_a} < c_b e^{s_b} ⇔ ln(c_a/c_b) < s_b − s_a (never equal: Lindemann–Weierstrass)
  return decide_log(Rational(ca / cb), Relation::less, Rational(sb - sa), options);
}

}  // namespace exactdp
