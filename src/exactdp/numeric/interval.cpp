#include "exactdp/numeric/interval.hpp"

#include "exactdp/core/error.hpp"

#include <algorithm>
#include <memory>

namespace exactdp {
namespace {

Precision prec_of(mpfi_srcptr x) { return mpfi_get_prec(x); }

/// Exact rational value of a finite MPFR number.
Rational to_rational(mpfr_srcptr x) {
  if (!mpfr_number_p(x)) throw Error("", "", "", "internal: infinite endpoint converted to a rational");
  Rational q;
  mpfr_get_q(q.get_mpq_t(), x);
  return q;
}

void require(bool ok, const char* what) {
  if (!ok) throw Error("", "", "", what);
}

void check_not_nan(const Interval& r, const char* op) {
  if (mpfi_nan_p(r.get()) || mpfi_is_empty(r.get()))
    throw Error("", "", "", std::string("certified arithmetic: ") + op + " is undefined on its argument");
}

/// Applies a monotone MPFR function endpointwise with outward rounding.
template <class F>
Interval monotone(const Interval& x, F f, bool increasing) {
  Interval r = Interval::zero(prec_of(x.get()));
  mpfr_t lo, hi;
  mpfr_init2(lo, prec_of(x.get()));
  mpfr_init2(hi, prec_of(x.get()));
  if (increasing) {
    f(lo, &x.get()->left, MPFR_RNDD);
    f(hi, &x.get()->right, MPFR_RNDU);
  } else {
    f(lo, &x.get()->right, MPFR_RNDD);
    f(hi, &x.get()->left, MPFR_RNDU);
  }
  mpfi_interv_fr(r.get(), lo, hi);
  mpfr_clear(lo);
  mpfr_clear(hi);
  return r;
}

std::string endpoint_string(mpfr_srcptr x, int digits, mpfr_rnd_t rnd) {
  if (mpfr_inf_p(x)) return mpfr_sgn(x) > 0 ? "inf" : "-inf";
  if (mpfr_zero_p(x)) return "0";
  digits = std::max(digits, 2);
  mpfr_exp_t e = 0;
  std::unique_ptr<char, void (*)(char*)> s(mpfr_get_str(nullptr, &e, 10, static_cast<size_t>(digits), x, rnd),
                                           mpfr_free_str);
  std::string m(s.get());
  bool neg = !m.empty() && m[0] == '-';
  if (neg) m.erase(0, 1);
  // m holds `digits` digits d1 d2 ...; value = 0.d1d2... × 10^e
  std::string out;
  if (e > 0 && e <= 21) {
    if (static_cast<size_t>(e) >= m.size()) {
      out = m + std::string(static_cast<size_t>(e) - m.size(), '0');
    } else {
      out = m.substr(0, static_cast<size_t>(e)) + "." + m.substr(static_cast<size_t>(e));
    }
  } else if (e <= 0 && e > -7) {
    out = "0." + std::string(static_cast<size_t>(-e), '0') + m;
  } else {
    out = m.substr(0, 1) + "." + m.substr(1) + "e" + std::to_string(e - 1);
  }
  // trim trailing zeros of a fraction part (does not change the value)
  auto epos = out.find('e');
  std::string mant = out.substr(0, epos), tail = epos == std::string::npos ? "" : out.substr(epos);
  if (mant.find('.') != std::string::npos) {
    while (!mant.empty() && mant.back() == '0') mant.pop_back();
    if (!mant.empty() && mant.back() == '.') mant.pop_back();
  }
  return (neg ? "-" : "") + mant + tail;
}

}  // namespace

Interval::Interval() {
  mpfi_init2(value_, default_precision);
  mpfi_set_si(value_, 0);
}

Interval Interval::zero(Precision precision) { return Interval(0L, precision); }

Interval::Interval(const Rational& q, Precision precision) {
  mpfi_init2(value_, precision);
  mpfi_set_q(value_, q.get_mpq_t());
}

Interval::Interval(long n, Precision precision) {
  mpfi_init2(value_, precision);
  mpfi_set_si(value_, n);
}

Interval Interval::hull(const Rational& lo, const Rational& hi, Precision precision) {
  if (lo > hi) throw Error("", "", "", "interval hull: lower end exceeds upper end");
  Interval a(lo, precision), b(hi, precision);
  mpfi_union(a.value_, a.value_, b.value_);
  return a;
}

Interval Interval::at_least(const Rational& lo, Precision precision) {
  Interval r(lo, precision);
  mpfr_set_inf(&r.value_->right, 1);
  return r;
}

Interval Interval::infinity(Precision precision) {
  Interval r = Interval::zero(precision);
  mpfr_set_inf(&r.value_->left, 1);
  mpfr_set_inf(&r.value_->right, 1);
  return r;
}

Interval::Interval(const Interval& other) {
  mpfi_init2(value_, prec_of(other.value_));
  mpfi_set(value_, other.value_);
}

Interval::Interval(Interval&& other) noexcept {
  mpfi_init2(value_, prec_of(other.value_));
  mpfi_swap(value_, other.value_);
}

Interval& Interval::operator=(const Interval& other) {
  if (this != &other) {
    mpfi_set_prec(value_, prec_of(other.value_));
    mpfi_set(value_, other.value_);
  }
  return *this;
}

Interval& Interval::operator=(Interval&& other) noexcept {
  if (this != &other) mpfi_swap(value_, other.value_);
  return *this;
}

Interval::~Interval() { mpfi_clear(value_); }

Precision Interval::precision() const { return prec_of(value_); }
Rational Interval::lower() const { return to_rational(&value_->left); }
Rational Interval::upper() const { return to_rational(&value_->right); }
bool Interval::lower_is_finite() const { return mpfr_number_p(&value_->left) != 0; }
bool Interval::upper_is_finite() const { return mpfr_number_p(&value_->right) != 0; }

bool Interval::contains(const Rational& q) const {
  return mpfi_is_inside_q(q.get_mpq_t(), value_) > 0;
}

bool Interval::subset_of(const Interval& other) const { return mpfi_is_inside(value_, other.value_) > 0; }

Rational Interval::width_upper() const {
  mpfr_t w;
  mpfr_init2(w, precision() + 2);
  mpfr_sub(w, &value_->right, &value_->left, MPFR_RNDU);
  Rational r = mpfr_number_p(w) ? to_rational(w) : Rational(-1);
  mpfr_clear(w);
  return r;
}

std::string Interval::lower_string(int digits) const { return endpoint_string(&value_->left, digits, MPFR_RNDD); }
std::string Interval::upper_string(int digits) const { return endpoint_string(&value_->right, digits, MPFR_RNDU); }
std::string Interval::to_string(int digits) const {
  return "[" + lower_string(digits) + ", " + upper_string(digits) + "]";
}

namespace {
void widen_to(Interval& a, const Interval& b) {
  if (b.precision() > a.precision()) {
    Interval t = Interval::zero(b.precision());
    mpfi_set(t.get(), a.get());
    a = std::move(t);
  }
}
}  // namespace

Interval& Interval::operator+=(const Interval& b) {
  widen_to(*this, b);
  mpfi_add(value_, value_, b.value_);
  check_not_nan(*this, "addition");
  return *this;
}
Interval& Interval::operator-=(const Interval& b) {
  widen_to(*this, b);
  mpfi_sub(value_, value_, b.value_);
  check_not_nan(*this, "subtraction");
  return *this;
}
Interval& Interval::operator*=(const Interval& b) {
  widen_to(*this, b);
  mpfi_mul(value_, value_, b.value_);
  check_not_nan(*this, "multiplication");
  return *this;
}
Interval& Interval::operator/=(const Interval& b) {
  if (mpfi_has_zero(b.value_)) throw Error("", "", "", "certified arithmetic: division by an interval containing 0");
  widen_to(*this, b);
  mpfi_div(value_, value_, b.value_);
  check_not_nan(*this, "division");
  return *this;
}
Interval Interval::operator-() const {
  Interval r = Interval::zero(precision());
  mpfi_neg(r.value_, value_);
  return r;
}

Interval hull(const Interval& a, const Interval& b) {
  Interval r = Interval::zero(std::max(a.precision(), b.precision()));
  mpfi_union(r.get(), a.get(), b.get());
  return r;
}

Interval max(const Interval& a, const Interval& b) {
  Interval r = Interval::zero(std::max(a.precision(), b.precision()));
  mpfr_t lo, hi;
  mpfr_init2(lo, r.precision());
  mpfr_init2(hi, r.precision());
  mpfr_max(lo, &a.get()->left, &b.get()->left, MPFR_RNDD);
  mpfr_max(hi, &a.get()->right, &b.get()->right, MPFR_RNDU);
  mpfi_interv_fr(r.get(), lo, hi);
  mpfr_clear(lo);
  mpfr_clear(hi);
  return r;
}

Interval min(const Interval& a, const Interval& b) { return -max(-a, -b); }

#define EXACTDP_MPFI_UNARY(name, fn, cond, msg)                   \
  Interval name(const Interval& x) {                              \
    require(cond, msg);                                           \
    Interval r = Interval::zero(x.precision());                                    \
    fn(r.get(), x.get());                                         \
    check_not_nan(r, #name);                                      \
    return r;                                                     \
  }

EXACTDP_MPFI_UNARY(exp, mpfi_exp, true, "")
EXACTDP_MPFI_UNARY(expm1, mpfi_expm1, true, "")
EXACTDP_MPFI_UNARY(log, mpfi_log, mpfr_sgn(&x.get()->left) > 0, "certified log: the argument must be positive")
EXACTDP_MPFI_UNARY(log1p, mpfi_log1p, mpfr_cmp_si(&x.get()->left, -1) > 0,
                   "certified log1p: the argument must exceed -1")
EXACTDP_MPFI_UNARY(sqrt, mpfi_sqrt, mpfr_sgn(&x.get()->left) >= 0, "certified sqrt: the argument must be non-negative")
#undef EXACTDP_MPFI_UNARY

Interval pow(const Interval& x, long n) {
  if (n == 0) return Interval(1L, x.precision());
  if (n < 0) return Interval(1L, x.precision()) / pow(x, -n);
  // repeated squaring on intervals overestimates for sign-straddling x; use |x| bounds for even n
  Interval base = x, r(1L, x.precision());
  unsigned long k = static_cast<unsigned long>(n);
  if (mpfi_has_zero(x.get()) && k % 2 == 0) {
    Interval a = Interval::zero(x.precision());
    mpfi_abs(a.get(), x.get());
    base = a;
  }
  while (k) {
    if (k & 1) r *= base;
    k >>= 1;
    if (k) base *= base;
  }
  return r;
}

Interval pow(const Interval& x, const Interval& y) { return exp(y * log(x)); }

Interval erf(const Interval& x) { return monotone(x, mpfr_erf, true); }
Interval erfc(const Interval& x) { return monotone(x, mpfr_erfc, false); }

Interval normal_cdf(const Interval& x) {
  // Φ(x) = erfc(−x/√2)/2: erfc is decreasing, so Φ is increasing; compute with a margin.
  Precision p = x.precision() + 16;
  Interval two(2L, p);
  Interval t = -(x / sqrt(two));
  Interval r = erfc(t) / two;
  Interval out = Interval::zero(x.precision());
  mpfi_set(out.get(), r.get());  // rounds outward to the caller's precision
  return out;
}

namespace {
/// x with Φ(x) certainly ≤ target (want_upper=false) or certainly ≥ target (want_upper=true),
/// found by bisection on MPFR points, to within 2^-(prec) relative.
void quantile_end(mpfr_ptr out, mpfr_srcptr target, bool want_upper, Precision prec) {
  mpfr_t a, b, m;
  mpfr_inits2(prec, a, b, m, static_cast<mpfr_ptr>(nullptr));
  // Φ(-40) < 1e-349 and 1 − Φ(40) < 1e-349: below any target we accept (checked by caller)
  mpfr_set_si(a, -40, MPFR_RNDN);
  mpfr_set_si(b, 40, MPFR_RNDN);
  auto phi_at = [&](mpfr_srcptr point) {
    Interval xi = Interval::zero(prec);
    mpfi_set_fr(xi.get(), point);
    return normal_cdf(xi);
  };
  for (Precision it = 0; it < prec + 64; ++it) {
    mpfr_add(m, a, b, MPFR_RNDN);
    mpfr_div_2ui(m, m, 1, MPFR_RNDN);
    if (mpfr_equal_p(m, a) || mpfr_equal_p(m, b)) break;
    Interval ph = phi_at(m);
    // invariant: Φ(a) certainly ≤ target (for the lower end) / Φ(b) certainly ≥ target (upper)
    if (!want_upper) {
      if (mpfr_cmp(&ph.get()->right, target) <= 0) mpfr_set(a, m, MPFR_RNDN);
      else mpfr_set(b, m, MPFR_RNDN);
    } else {
      if (mpfr_cmp(&ph.get()->left, target) >= 0) mpfr_set(b, m, MPFR_RNDN);
      else mpfr_set(a, m, MPFR_RNDN);
    }
  }
  mpfr_set(out, want_upper ? b : a, want_upper ? MPFR_RNDU : MPFR_RNDD);
  mpfr_clears(a, b, m, static_cast<mpfr_ptr>(nullptr));
}
}  // namespace

Interval normal_quantile(const Interval& p) {
  // Φ(±40) is beyond 1e-349 from {0,1}; smaller or closer-to-1 arguments are refused.
  Interval lo_bound(Rational(1, 1), p.precision());
  mpfi_set_str(lo_bound.get(), "1e-340", 10);
  if (!(mpfr_cmp(&p.get()->left, &lo_bound.get()->right) > 0) ||
      !(mpfr_cmp_si(&p.get()->right, 1) < 0) ||
      !(mpfr_cmp(&(Interval(1L, p.precision()) - p).get()->left, &lo_bound.get()->right) > 0))
    throw Error("", "p", p.to_string(), "normal quantile: the argument must lie in [1e-340, 1 − 1e-340]");
  Precision prec = p.precision();
  mpfr_t lo, hi;
  mpfr_init2(lo, prec);
  mpfr_init2(hi, prec);
  quantile_end(lo, &p.get()->left, false, prec);
  quantile_end(hi, &p.get()->right, true, prec);
  Interval r = Interval::zero(prec);
  mpfi_interv_fr(r.get(), lo, hi);
  mpfr_clear(lo);
  mpfr_clear(hi);
  return r;
}

}  // namespace exactdp
