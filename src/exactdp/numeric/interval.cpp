#include "exactdp/numeric/interval.hpp"

#include "exactdp/core/error.hpp"

#include <algorithm>
#include <memory>

#ifdef EXACTDP_HAVE_ARB
#include <arb.h>
#include <arb_hypgeom.h>
#endif

namespace exactdp {
namespace {

Precision prec_of(mpfi_srcptr x) { return mpfi_get_prec(x); }

/// MPFR aborts the process on an invalid precision; a library must throw instead.
Precision checked_precision(Precision p) {
  if (p < min_precision || p > MPFR_PREC_MAX)
    throw Error("", "precision", std::to_string(p),
                "certified arithmetic: the precision must be at least " + std::to_string(min_precision) + " bits");
  return p;
}

/// A scratch MPFR number that is cleared even when an exception passes through.
class Mpfr {
public:
  explicit Mpfr(Precision p) { mpfr_init2(value_, p); }
  ~Mpfr() { mpfr_clear(value_); }
  Mpfr(const Mpfr&) = delete;
  Mpfr& operator=(const Mpfr&) = delete;
  mpfr_ptr get() { return value_; }
  mpfr_srcptr get() const { return value_; }

private:
  mpfr_t value_;
};

/// Exact rational value of a finite MPFR number.
Rational to_rational(mpfr_srcptr x) {
  if (!mpfr_number_p(x)) throw Error("", "", "", "internal: infinite endpoint converted to a rational");
  Rational q;
  mpfr_get_q(q.get_mpq_t(), x);
  return q;
}

/// Throws unless the argument of a function lies in its domain; names the argument and its value.
void require_domain(bool ok, const Interval& x, const std::string& why) {
  if (!ok) throw Error("", "x", x.to_string(), why);
}

bool bounded(const Interval& x) { return x.lower_is_finite() && x.upper_is_finite(); }

void check_not_nan(const Interval& r, const char* op, const Interval& x) {
  if (mpfi_nan_p(r.get()) || mpfi_is_empty(r.get()))
    throw Error("", "x", x.to_string(), std::string("certified arithmetic: ") + op + " is undefined on its argument");
}

/// Applies a monotone MPFR function endpointwise. MPFR rounds correctly in the requested
/// direction, so rounding the image of the lower end down and of the upper end up is outward.
template <class F>
Interval monotone(const Interval& x, F f, bool increasing) {
  const Precision prec = prec_of(x.get());
  Mpfr lo(prec), hi(prec);
  f(lo.get(), increasing ? &x.get()->left : &x.get()->right, MPFR_RNDD);
  f(hi.get(), increasing ? &x.get()->right : &x.get()->left, MPFR_RNDU);
  Interval r = Interval::zero(prec);
  mpfi_interv_fr(r.get(), lo.get(), hi.get());
  return r;
}

std::string endpoint_string(mpfr_srcptr x, int digits, mpfr_rnd_t rnd) {
  if (mpfr_inf_p(x)) return mpfr_sgn(x) > 0 ? "inf" : "-inf";
  if (mpfr_zero_p(x)) return "0";
  digits = std::max(digits, 2);
  mpfr_exp_t e = 0;
  // mpfr_get_str rounds correctly in direction rnd, which is what makes the printing outward.
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
  mpfi_init2(value_, checked_precision(precision));
  mpfi_set_q(value_, q.get_mpq_t());
}

Interval::Interval(long n, Precision precision) {
  mpfi_init2(value_, checked_precision(precision));
  mpfi_set_si(value_, n);
}

Interval Interval::hull(const Rational& lo, const Rational& hi, Precision precision) {
  if (lo > hi)
    throw Error("", "lo, hi", exactdp::to_string(lo) + ", " + exactdp::to_string(hi),
                "interval hull: the lower end exceeds the upper end");
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

// The moved-from object receives a fresh [NaN-free] value of the same precision, so it stays
// valid: it can be destroyed, assigned to, or used as an operand (it then holds [0, 0]).
Interval::Interval(Interval&& other) noexcept {
  mpfi_init2(value_, prec_of(other.value_));
  mpfi_set_si(value_, 0);
  mpfi_swap(value_, other.value_);
}

Interval& Interval::operator=(const Interval& other) {
  if (this != &other) {
    mpfi_set_prec(value_, prec_of(other.value_));  // exact copy: same precision as the source
    mpfi_set(value_, other.value_);
  }
  return *this;
}

// Swapping hands our old (valid) value to the moved-from object; the precision travels with it.
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

// Exact comparisons of the endpoints with q (mpfr_cmp_q does not round), valid for ±∞ endpoints.
bool Interval::contains(const Rational& q) const {
  return mpfr_cmp_q(&value_->left, q.get_mpq_t()) <= 0 && mpfr_cmp_q(&value_->right, q.get_mpq_t()) >= 0;
}

bool Interval::subset_of(const Interval& other) const { return mpfi_is_inside(value_, other.value_) > 0; }

Rational Interval::width_upper() const {
  if (!bounded(*this))
    throw Error("", "x", to_string(), "certified arithmetic: the width of an unbounded interval is infinite");
  // The difference of two p-bit numbers rounded up is an upper bound (exact when it fits).
  Mpfr w(precision() + 2);
  mpfr_sub(w.get(), &value_->right, &value_->left, MPFR_RNDU);
  return to_rational(w.get());
}

std::string Interval::lower_string(int digits) const { return endpoint_string(&value_->left, digits, MPFR_RNDD); }
std::string Interval::upper_string(int digits) const { return endpoint_string(&value_->right, digits, MPFR_RNDU); }
std::string Interval::to_string(int digits) const {
  return "[" + lower_string(digits) + ", " + upper_string(digits) + "]";
}

namespace {

/// Computes a ∘ b at the larger precision of the two. Only an unbounded operand can make MPFI
/// return NaN (∞ − ∞, ∞/∞); in that case the result is built in a temporary so that the error
/// leaves @p a unchanged. Otherwise the operation runs in place (the hot path).
template <class Op>
void binary_in_place(Interval& a, const Interval& b, Op op, const char* name) {
  const Precision prec = std::max(a.precision(), b.precision());
  if (bounded(a) && bounded(b)) {
    if (prec > a.precision()) mpfi_round_prec(a.get(), prec);  // exact: more bits
    op(a.get(), a.get(), b.get());
    return;
  }
  Interval r = Interval::zero(prec);
  op(r.get(), a.get(), b.get());
  if (mpfi_nan_p(r.get()) || mpfi_is_empty(r.get()))
    throw Error("", "operands", a.to_string() + " and " + b.to_string(),
                std::string("certified arithmetic: ") + name + " is undefined on these operands");
  a = std::move(r);
}

}  // namespace

Interval& Interval::operator+=(const Interval& b) {
  binary_in_place(*this, b, mpfi_add, "addition");
  return *this;
}
Interval& Interval::operator-=(const Interval& b) {
  binary_in_place(*this, b, mpfi_sub, "subtraction");
  return *this;
}
Interval& Interval::operator*=(const Interval& b) {
  binary_in_place(*this, b, mpfi_mul, "multiplication");
  return *this;
}
Interval& Interval::operator/=(const Interval& b) {
  if (mpfi_has_zero(b.value_))
    throw Error("", "divisor", b.to_string(), "certified arithmetic: division by an interval containing 0");
  binary_in_place(*this, b, mpfi_div, "division");
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
  Mpfr lo(r.precision()), hi(r.precision());
  mpfr_max(lo.get(), &a.get()->left, &b.get()->left, MPFR_RNDD);
  mpfr_max(hi.get(), &a.get()->right, &b.get()->right, MPFR_RNDU);
  mpfi_interv_fr(r.get(), lo.get(), hi.get());
  return r;
}

Interval min(const Interval& a, const Interval& b) { return -max(-a, -b); }

#define EXACTDP_MPFI_UNARY(name, fn, cond, msg) \
  Interval name(const Interval& x) {            \
    require_domain(cond, x, msg);               \
    Interval r = Interval::zero(x.precision()); \
    fn(r.get(), x.get());                       \
    check_not_nan(r, #name, x);                 \
    return r;                                   \
  }

EXACTDP_MPFI_UNARY(exp, mpfi_exp, true, "")
EXACTDP_MPFI_UNARY(expm1, mpfi_expm1, true, "")
EXACTDP_MPFI_UNARY(log, mpfi_log, mpfr_sgn(&x.get()->left) > 0, "certified log: the argument must be positive")
EXACTDP_MPFI_UNARY(log1p, mpfi_log1p, mpfr_cmp_si(&x.get()->left, -1) > 0,
                   "certified log1p: the argument must exceed -1")
EXACTDP_MPFI_UNARY(sqrt, mpfi_sqrt, mpfr_sgn(&x.get()->left) >= 0, "certified sqrt: the argument must be non-negative")
#undef EXACTDP_MPFI_UNARY

// ξ ↦ ξ^n is monotone on any interval that does not straddle 0, and on all of ℝ for odd n > 0;
// there the range lies between the images of the endpoints. For even n > 0 on a straddling
// interval the minimum is 0 (at ξ = 0) and the maximum is at an endpoint. mpfr_pow_si rounds
// correctly in the requested direction, so each bound is outward.
Interval pow(const Interval& x, long n) {
  const Precision prec = x.precision();
  if (n == 0) return Interval(1L, prec);
  if (n < 0 && mpfi_has_zero(x.get()))
    throw Error("", "x", x.to_string(),
                "certified pow: a negative exponent (" + std::to_string(n) + ") needs an interval without 0");
  Mpfr a_down(prec), a_up(prec), b_down(prec), b_up(prec);
  mpfr_pow_si(a_down.get(), &x.get()->left, n, MPFR_RNDD);
  mpfr_pow_si(a_up.get(), &x.get()->left, n, MPFR_RNDU);
  mpfr_pow_si(b_down.get(), &x.get()->right, n, MPFR_RNDD);
  mpfr_pow_si(b_up.get(), &x.get()->right, n, MPFR_RNDU);
  Mpfr lo(prec), hi(prec);
  mpfr_max(hi.get(), a_up.get(), b_up.get(), MPFR_RNDU);
  const bool straddles = mpfr_sgn(&x.get()->left) < 0 && mpfr_sgn(&x.get()->right) > 0;
  if (straddles && n % 2 == 0)
    mpfr_set_zero(lo.get(), 1);
  else
    mpfr_min(lo.get(), a_down.get(), b_down.get(), MPFR_RNDD);
  Interval r = Interval::zero(prec);
  mpfi_interv_fr(r.get(), lo.get(), hi.get());
  check_not_nan(r, "pow", x);
  return r;
}

Interval pow(const Interval& x, const Interval& y) {
  require_domain(mpfr_sgn(&x.get()->left) > 0, x,
                 "certified pow: a real exponent needs a positive base (use the integer power otherwise)");
  return exp(y * log(x));
}

Interval erf(const Interval& x) { return monotone(x, mpfr_erf, true); }

#ifdef EXACTDP_HAVE_ARB
namespace {

/// An Arb ball holding the interval x at precision p, cleared on scope exit.
class Ball {
public:
  Ball() { arb_init(value_); }
  ~Ball() { arb_clear(value_); }
  Ball(const Ball&) = delete;
  Ball& operator=(const Ball&) = delete;
  arb_ptr get() { return value_; }

private:
  arb_t value_;
};

/// Whether [lo, hi] is thin enough to be evaluated as one ball: hi − lo ≤ 2^(−prec/2)·(|hi| + 1).
/// (A ball's enclosure of a monotone function is as tight as the two ends' when the ball is thin.)
bool thin(mpfr_srcptr lo, mpfr_srcptr hi, Precision prec) {
  Mpfr width(prec), scale(64);
  mpfr_sub(width.get(), hi, lo, MPFR_RNDU);
  mpfr_abs(scale.get(), hi, MPFR_RNDU);
  mpfr_add_ui(scale.get(), scale.get(), 1, MPFR_RNDU);
  mpfr_mul_2si(scale.get(), scale.get(), -static_cast<long>(prec / 2), MPFR_RNDU);
  return mpfr_cmp(width.get(), scale.get()) <= 0;
}

/// Arb is used only on finite arguments of moderate size (|x| ≤ 2^20).
bool moderate(const Interval& x) {
  return bounded(x) && mpfr_cmp_si_2exp(&x.get()->left, -1, 20) >= 0 && mpfr_cmp_si_2exp(&x.get()->right, 1, 20) <= 0;
}

/// [low, high] clamped to [0, top] into @p out at @p prec; false if empty.
bool to_interval(mpfr_ptr low, mpfr_ptr high, unsigned long top, Precision prec, Interval& out) {
  if (mpfr_sgn(low) < 0) mpfr_set_zero(low, 1);
  if (mpfr_cmp_ui(high, top) > 0) mpfr_set_ui(high, top, MPFR_RNDU);
  if (mpfr_cmp(low, high) > 0) return false;
  out = Interval::zero(prec);
  mpfi_interv_fr(out.get(), low, high);
  return true;
}

/// erfc on [lo, hi] by Arb's ball arithmetic (arb_hypgeom_erfc, rigorous error bounds), which is
/// 3–60× faster than MPFR's correctly rounded mpfr_erfc at 64–128 bits, most in the tails
/// (bench/README.md). A thin interval is evaluated as one ball; a wide one at its two ends as point
/// balls (erfc decreases). Balls are converted back outward (arb_get_interval_mpfr rounds outward;
/// underflow gives 0 below, the least positive number above). Returns false, leaving @p out alone,
/// when an end is infinite or huge or Arb cannot bound the value (then MPFR is used).
bool arb_erfc(const Interval& x, Interval& out) {
  if (!moderate(x)) return false;
  const Precision prec = x.precision();
  mpfr_srcptr lo = &x.get()->left, hi = &x.get()->right;
  const slong working = static_cast<slong>(prec) + 8;
  Ball arg, value;
  Mpfr low(prec), high(prec), unused(prec);
  if (thin(lo, hi, prec)) {
    arb_set_interval_mpfr(arg.get(), lo, hi, working);
    arb_hypgeom_erfc(value.get(), arg.get(), working);
    if (!arb_is_finite(value.get())) return false;
    arb_get_interval_mpfr(low.get(), high.get(), value.get());
  } else {
    arb_set_interval_mpfr(arg.get(), hi, hi, working);  // exact point ball
    arb_hypgeom_erfc(value.get(), arg.get(), working);
    if (!arb_is_finite(value.get())) return false;
    arb_get_interval_mpfr(low.get(), unused.get(), value.get());
    arb_set_interval_mpfr(arg.get(), lo, lo, working);
    arb_hypgeom_erfc(value.get(), arg.get(), working);
    if (!arb_is_finite(value.get())) return false;
    arb_get_interval_mpfr(unused.get(), high.get(), value.get());
  }
  return to_interval(low.get(), high.get(), 2, prec, out);  // erfc lies in [0, 2]
}

/// Φ(x) = erfc(−x/√2)/2 of a thin x as one chain of balls (no intermediate MPFI rounding or
/// allocation); false when x is not thin and moderate or Arb cannot bound the value.
bool arb_normal_cdf(const Interval& x, Interval& out) {
  if (!moderate(x)) return false;
  const Precision prec = x.precision();
  if (!thin(&x.get()->left, &x.get()->right, prec)) return false;
  const slong working = static_cast<slong>(prec) + 16;
  Ball arg, root2, value;
  arb_set_interval_mpfr(arg.get(), &x.get()->left, &x.get()->right, working);
  arb_sqrt_ui(root2.get(), 2, working);
  arb_div(arg.get(), arg.get(), root2.get(), working);
  arb_neg(arg.get(), arg.get());
  arb_hypgeom_erfc(value.get(), arg.get(), working);
  arb_mul_2exp_si(value.get(), value.get(), -1);
  if (!arb_is_finite(value.get())) return false;
  Mpfr low(prec), high(prec);
  arb_get_interval_mpfr(low.get(), high.get(), value.get());
  return to_interval(low.get(), high.get(), 1, prec, out);  // Φ lies in [0, 1]
}

}  // namespace
#endif

Interval erfc(const Interval& x) {
#ifdef EXACTDP_HAVE_ARB
  Interval out;
  if (arb_erfc(x, out)) return out;
#endif
  return monotone(x, mpfr_erfc, false);
}

Interval normal_cdf(const Interval& x) {
#ifdef EXACTDP_HAVE_ARB
  Interval ball;
  if (arb_normal_cdf(x, ball)) return ball;
#endif
  // Φ(x) = erfc(−x/√2)/2: erfc is decreasing, so Φ is increasing; compute with a margin.
  Precision p = x.precision() + 16;
  Interval two(2L, p);
  Interval t = -(x / sqrt(two));
  Interval r = erfc(t) / two;
  Interval out = Interval::zero(x.precision());
  mpfi_set(out.get(), r.get());  // rounds outward to the caller's precision
  return out;
}

// ------------------------------------------------------------------------------------------------
// Φ⁻¹. The ends are found in the lower tail only (argument s ≤ 1/2, root ≤ 0), where Φ is
// computed with small relative error; the upper tail uses Φ⁻¹(t) = −Φ⁻¹(1 − t).
namespace {

/// The point ξ = 40 bounds every root we accept: Φ(−40) ≈ 3.7·10^−350 < 10^−340 (hand check:
/// Φ(−40) < φ(40)/40 = e^−800/(40√(2π)) and e^−800 ≈ 3.7·10^−348).
constexpr long quantile_bound = 40;

/// One Newton step for ln Φ(x) = ln s at x's precision: x ← x − (ln Φ(x) − ln s)·Φ(x)/φ(x).
/// Returns |step| in @p step. Uncertified: only used to find a good candidate.
void newton_step(mpfr_ptr x, mpfr_srcptr s, mpfr_ptr step) {
  const Precision p = mpfr_get_prec(x);
  Mpfr t(p), big_phi(p), small_phi(p), a(p);
  mpfr_sqrt_ui(t.get(), 2, MPFR_RNDN);
  mpfr_div(a.get(), x, t.get(), MPFR_RNDN);
  mpfr_neg(a.get(), a.get(), MPFR_RNDN);
  mpfr_erfc(big_phi.get(), a.get(), MPFR_RNDN);
  mpfr_div_2ui(big_phi.get(), big_phi.get(), 1, MPFR_RNDN);  // Φ(x) = erfc(−x/√2)/2
  mpfr_sqr(a.get(), x, MPFR_RNDN);
  mpfr_div_2ui(a.get(), a.get(), 1, MPFR_RNDN);
  mpfr_neg(a.get(), a.get(), MPFR_RNDN);
  mpfr_exp(small_phi.get(), a.get(), MPFR_RNDN);
  mpfr_const_pi(t.get(), MPFR_RNDN);
  mpfr_mul_2ui(t.get(), t.get(), 1, MPFR_RNDN);
  mpfr_sqrt(t.get(), t.get(), MPFR_RNDN);
  mpfr_div(small_phi.get(), small_phi.get(), t.get(), MPFR_RNDN);  // φ(x) = e^{−x²/2}/√(2π)
  mpfr_log(a.get(), big_phi.get(), MPFR_RNDN);
  mpfr_log(t.get(), s, MPFR_RNDN);
  mpfr_sub(a.get(), a.get(), t.get(), MPFR_RNDN);
  mpfr_mul(a.get(), a.get(), big_phi.get(), MPFR_RNDN);
  mpfr_div(a.get(), a.get(), small_phi.get(), MPFR_RNDN);
  mpfr_sub(x, x, a.get(), MPFR_RNDN);
  mpfr_abs(step, a.get(), MPFR_RNDN);
}

/// An uncertified approximation of Φ⁻¹(s), 0 < s ≤ 1/2, to roughly mpfr_get_prec(x) bits.
/// ln Φ is concave and increasing, so Newton's method on it converges monotonically from the
/// left; the start −√(−2 ln 2s) lies left of the root because Φ(−a) ≤ e^{−a²/2}/2 for a ≥ 0.
/// The first steps run at 64 bits; then each step doubles the precision (quadratic convergence).
void approximate_lower_quantile(mpfr_ptr x_out, mpfr_srcptr s) {
  const Precision target = mpfr_get_prec(x_out);
  Precision p = 64;
  Mpfr x(p), step(p), tol(p);
  mpfr_mul_2ui(x.get(), s, 1, MPFR_RNDN);
  mpfr_log(x.get(), x.get(), MPFR_RNDN);
  mpfr_mul_si(x.get(), x.get(), -2, MPFR_RNDN);
  mpfr_sqrt(x.get(), x.get(), MPFR_RNDN);
  mpfr_neg(x.get(), x.get(), MPFR_RNDN);
  for (int i = 0; i < 200; ++i) {
    newton_step(x.get(), s, step.get());
    if (!mpfr_number_p(x.get())) break;
    mpfr_abs(tol.get(), x.get(), MPFR_RNDN);
    mpfr_add_ui(tol.get(), tol.get(), 1, MPFR_RNDN);
    mpfr_div_2ui(tol.get(), tol.get(), 56, MPFR_RNDN);
    if (mpfr_cmp(step.get(), tol.get()) <= 0) break;
  }
  while (p < target && mpfr_number_p(x.get())) {
    p = std::min(2 * p, target);
    mpfr_prec_round(x.get(), p, MPFR_RNDN);
    mpfr_set_prec(step.get(), p);
    newton_step(x.get(), s, step.get());
  }
  if (mpfr_number_p(x.get())) newton_step(x.get(), s, step.get());
  // A failed approximation costs width, never soundness: the certification below widens.
  if (!mpfr_number_p(x.get())) mpfr_set_si(x.get(), -1, MPFR_RNDN);
  mpfr_set(x_out, x.get(), MPFR_RNDN);
}

/// A certified enclosure of Φ(c) at a point, with 16 guard bits over c's precision.
Interval normal_cdf_at(mpfr_srcptr c) {
  Interval point = Interval::zero(mpfr_get_prec(c) + 16);
  mpfi_set_fr(point.get(), c);  // exact: more bits
  return normal_cdf(point);
}

/// Starting step for moving the candidate outward: 2^(e − prec) with |approx| < 2^e, e ≥ 0,
/// i.e. about one unit in the last place of the output (never below 2^−prec absolute, which is
/// the conditioning of Φ⁻¹ near s = 1/2 anyway).
void initial_offset(mpfr_ptr h, mpfr_srcptr approx, Precision prec) {
  mpfr_exp_t e = mpfr_regular_p(approx) ? std::max<mpfr_exp_t>(mpfr_get_exp(approx), 0) : 0;
  mpfr_set_ui_2exp(h, 1, e - prec, MPFR_RNDN);
}

/// Writes into @p out (at its precision) a point a with Φ(a) ≤ s, proved by a certified
/// evaluation of Φ, for 10^−340 < s ≤ 1/2. Falls back to −40 (Φ(−40) < 10^−349 < s).
void certified_lower_end(mpfr_ptr out, mpfr_srcptr s) {
  const Precision prec = mpfr_get_prec(out);
  Mpfr approx(prec + 32), h(8);
  approximate_lower_quantile(approx.get(), s);
  initial_offset(h.get(), approx.get(), prec);
  for (;;) {
    mpfr_sub(out, approx.get(), h.get(), MPFR_RNDD);
    if (mpfr_cmp_si(out, -quantile_bound) <= 0) {
      mpfr_set_si(out, -quantile_bound, MPFR_RNDD);
      return;
    }
    if (mpfr_cmp(&normal_cdf_at(out).get()->right, s) <= 0) return;
    mpfr_mul_2ui(h.get(), h.get(), 3, MPFR_RNDN);
  }
}

/// Writes into @p out a point b with Φ(b) ≥ s, proved by a certified evaluation of Φ, for
/// 0 < s ≤ 1/2. Falls back to 0 (Φ(0) = 1/2 ≥ s exactly).
void certified_upper_end(mpfr_ptr out, mpfr_srcptr s) {
  const Precision prec = mpfr_get_prec(out);
  Mpfr approx(prec + 32), h(8);
  approximate_lower_quantile(approx.get(), s);
  initial_offset(h.get(), approx.get(), prec);
  for (;;) {
    mpfr_add(out, approx.get(), h.get(), MPFR_RNDU);
    if (mpfr_sgn(out) >= 0) {
      mpfr_set_zero(out, 1);
      return;
    }
    if (mpfr_cmp(&normal_cdf_at(out).get()->left, s) >= 0) return;
    mpfr_mul_2ui(h.get(), h.get(), 3, MPFR_RNDN);
  }
}

bool at_most_half(mpfr_srcptr t) { return mpfr_cmp_ui_2exp(t, 1, -1) <= 0; }

/// A point ≤ Φ⁻¹(t). For t > 1/2: Φ⁻¹(t) = −Φ⁻¹(1 − t), and a point ≥ Φ⁻¹(s′) with s′ ≥ 1 − t
/// is ≥ Φ⁻¹(1 − t) (Φ⁻¹ increases), hence 1 − t is rounded up (it is exact in fact: t ∈ (1/2, 1)).
void quantile_lower_end(mpfr_ptr out, mpfr_srcptr t) {
  if (at_most_half(t)) return certified_lower_end(out, t);
  Mpfr s(mpfr_get_prec(t) + 2);
  mpfr_ui_sub(s.get(), 1, t, MPFR_RNDU);
  certified_upper_end(out, s.get());
  mpfr_neg(out, out, MPFR_RNDD);  // exact
}

/// A point ≥ Φ⁻¹(t); mirror image of quantile_lower_end (1 − t rounded down).
void quantile_upper_end(mpfr_ptr out, mpfr_srcptr t) {
  if (at_most_half(t)) return certified_upper_end(out, t);
  Mpfr s(mpfr_get_prec(t) + 2);
  mpfr_ui_sub(s.get(), 1, t, MPFR_RNDD);
  certified_lower_end(out, s.get());
  mpfr_neg(out, out, MPFR_RNDU);  // exact
}

/// 10^−340: the smallest tail mass accepted by normal_quantile.
const Rational& quantile_tail_limit() {
  static const Rational limit = [] {
    Integer p;
    mpz_ui_pow_ui(p.get_mpz_t(), 10, 340);
    return Rational(Integer(1), p);
  }();
  return limit;
}

}  // namespace

Interval normal_quantile(const Interval& p) {
  const Rational& tail = quantile_tail_limit();
  const Rational upper_limit = 1 - tail;
  if (!(mpfr_cmp_q(&p.get()->left, tail.get_mpq_t()) > 0) ||
      !(mpfr_cmp_q(&p.get()->right, upper_limit.get_mpq_t()) < 0))
    throw Error("", "p", p.to_string(), "normal quantile: the argument must lie in (1e-340, 1 - 1e-340)");
  const Precision prec = p.precision();
  Mpfr lo(prec), hi(prec);
  quantile_lower_end(lo.get(), &p.get()->left);
  quantile_upper_end(hi.get(), &p.get()->right);
  Interval r = Interval::zero(prec);
  mpfi_interv_fr(r.get(), lo.get(), hi.get());
  return r;
}

}  // namespace exactdp
