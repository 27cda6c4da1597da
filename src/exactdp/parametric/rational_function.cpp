#include "exactdp/parametric/rational_function.hpp"

#include "exactdp/core/error.hpp"

#include <flint/fmpz_poly.h>
#include <flint/fmpz_poly_q.h>

#include <cctype>
#include <cstdlib>

namespace exactdp::parametric {

struct RationalFunction::Impl {
  fmpz_poly_q_t q;
  Impl() { fmpz_poly_q_init(q); }
  Impl(const Impl& other) {
    fmpz_poly_q_init(q);
    fmpz_poly_q_set(q, other.q);
  }
  Impl& operator=(const Impl&) = delete;
  ~Impl() { fmpz_poly_q_clear(q); }
};

namespace {

fmpz_poly_q_struct* raw(const RationalFunction& f) { return static_cast<fmpz_poly_q_struct*>(f.flint()); }

std::vector<Integer> coefficients(const fmpz_poly_t p) {
  std::vector<Integer> out(static_cast<std::size_t>(fmpz_poly_length(p)));
  for (std::size_t i = 0; i < out.size(); ++i) fmpz_poly_get_coeff_mpz(out[i].get_mpz_t(), p, static_cast<slong>(i));
  return out;
}

}  // namespace

RationalFunction::RationalFunction() : impl_(std::make_unique<Impl>()) {}

RationalFunction::RationalFunction(const Rational& c) : impl_(std::make_unique<Impl>()) {
  fmpz_poly_set_mpz(fmpz_poly_q_numref(impl_->q), c.get_num_mpz_t());
  fmpz_poly_set_mpz(fmpz_poly_q_denref(impl_->q), c.get_den_mpz_t());
  fmpz_poly_q_canonicalise(impl_->q);
}

RationalFunction RationalFunction::variable() {
  RationalFunction f;
  fmpz_poly_zero(fmpz_poly_q_numref(f.impl_->q));
  fmpz_poly_set_coeff_si(fmpz_poly_q_numref(f.impl_->q), 1, 1);
  fmpz_poly_one(fmpz_poly_q_denref(f.impl_->q));
  return f;
}

RationalFunction RationalFunction::polynomial(const std::vector<Rational>& coefficients) {
  RationalFunction f, x = variable(), power(Rational(1));
  for (const auto& c : coefficients) {
    f += RationalFunction(c) * power;
    power *= x;
  }
  return f;
}

RationalFunction::RationalFunction(const RationalFunction& other) : impl_(std::make_unique<Impl>(*other.impl_)) {}
RationalFunction::RationalFunction(RationalFunction&& other) noexcept : impl_(std::move(other.impl_)) {}
RationalFunction& RationalFunction::operator=(const RationalFunction& other) {
  if (this != &other) {
    if (!impl_) impl_ = std::make_unique<Impl>();
    fmpz_poly_q_set(impl_->q, other.impl_->q);
  }
  return *this;
}
RationalFunction& RationalFunction::operator=(RationalFunction&& other) noexcept {
  impl_.swap(other.impl_);
  return *this;
}
RationalFunction::~RationalFunction() = default;

void* RationalFunction::flint() const { return impl_->q; }

RationalFunction& RationalFunction::operator+=(const RationalFunction& o) {
  fmpz_poly_q_add(impl_->q, impl_->q, raw(o));
  return *this;
}
RationalFunction& RationalFunction::operator-=(const RationalFunction& o) {
  fmpz_poly_q_sub(impl_->q, impl_->q, raw(o));
  return *this;
}
RationalFunction& RationalFunction::operator*=(const RationalFunction& o) {
  fmpz_poly_q_mul(impl_->q, impl_->q, raw(o));
  return *this;
}
RationalFunction& RationalFunction::operator/=(const RationalFunction& o) {
  if (o.is_zero()) throw Error("", "", to_string(), "division by the zero function");
  fmpz_poly_q_div(impl_->q, impl_->q, raw(o));
  return *this;
}
RationalFunction RationalFunction::operator-() const {
  RationalFunction f(*this);
  fmpz_poly_q_neg(f.impl_->q, f.impl_->q);
  return f;
}

RationalFunction RationalFunction::pow(long k) const {
  if (k < 0) {
    if (is_zero()) throw Error("", "", to_string(), "a negative power of the zero function");
    RationalFunction inv;
    fmpz_poly_q_inv(inv.impl_->q, impl_->q);
    return inv.pow(-k);
  }
  RationalFunction f;
  fmpz_poly_q_pow(f.impl_->q, impl_->q, static_cast<ulong>(k));
  return f;
}

bool RationalFunction::is_zero() const { return fmpz_poly_q_is_zero(impl_->q) != 0; }
bool RationalFunction::is_constant() const {
  return fmpz_poly_degree(fmpz_poly_q_numref(impl_->q)) <= 0 && fmpz_poly_degree(fmpz_poly_q_denref(impl_->q)) == 0;
}
bool operator==(const RationalFunction& a, const RationalFunction& b) { return fmpz_poly_q_equal(raw(a), raw(b)) != 0; }

Rational RationalFunction::evaluate(const Rational& r) const {
  Rational out;
  if (fmpz_poly_q_evaluate(out.get_mpq_t(), impl_->q, r.get_mpq_t()) != 0)
    throw Error("", "", exactdp::to_string(r), "the denominator of " + to_string() + " vanishes at this value");
  return out;
}

std::vector<Integer> RationalFunction::numerator() const { return coefficients(fmpz_poly_q_numref(impl_->q)); }
std::vector<Integer> RationalFunction::denominator() const { return coefficients(fmpz_poly_q_denref(impl_->q)); }

namespace {

/// Σ c_i x^i written lowest degree first ("1-2*r+r^2"), the way probabilities are usually written.
std::string polynomial_text(const std::vector<Integer>& c, const std::string& x) {
  std::string out;
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (sgn(c[i]) == 0) continue;
    Integer a = abs(c[i]);
    const bool negative = sgn(c[i]) < 0;
    if (!out.empty()) out += negative ? "-" : "+";
    else if (negative) out += "-";
    std::string term;
    if (i == 0 || a != 1) term = a.get_str();
    if (i > 0) term += (term.empty() ? "" : "*") + x + (i > 1 ? "^" + std::to_string(i) : "");
    out += term;
  }
  return out.empty() ? "0" : out;
}

bool is_single_term(const std::vector<Integer>& c) {
  std::size_t nonzero = 0;
  for (const auto& a : c) nonzero += sgn(a) != 0;
  return nonzero <= 1;
}

}  // namespace

std::string RationalFunction::to_string(std::string_view variable) const {
  const std::string x(variable);
  std::vector<Integer> num = numerator(), den = denominator();
  // sign convention for reading: the denominator's lowest-degree coefficient is positive ("1-r", not "r-1")
  for (const auto& a : den)
    if (sgn(a) != 0) {
      if (sgn(a) < 0) {
        for (auto& b : num) b = -b;
        for (auto& b : den) b = -b;
      }
      break;
    }
  const std::string n = polynomial_text(num, x), d = polynomial_text(den, x);
  if (d == "1") return n;
  // "2*r/(1-r)" and "-r^2/(1+r)" read back as written (^ binds tighter than unary minus, * and /
  // associate to the left); a denominator needs parentheses unless it is one factor ("r^3", "7")
  const bool simple_num = is_single_term(num);
  const bool simple_den = is_single_term(den) && d.find('*') == std::string::npos && d[0] != '-';
  return (simple_num ? n : "(" + n + ")") + "/" + (simple_den ? d : "(" + d + ")");
}

std::string RationalFunction::key() const {
  char* s = fmpz_poly_q_get_str(impl_->q);
  std::string out(s);
  flint_free(s);
  return out;
}

namespace {

/// −1, 0, +1: a fixed order on integer polynomials (length, then coefficients from the top).
int compare_polynomials(const fmpz_poly_struct* a, const fmpz_poly_struct* b) {
  const slong la = fmpz_poly_length(a), lb = fmpz_poly_length(b);
  if (la != lb) return la < lb ? -1 : 1;
  for (slong i = la - 1; i >= 0; --i)
    if (const int c = fmpz_cmp(a->coeffs + i, b->coeffs + i); c != 0) return c < 0 ? -1 : 1;
  return 0;
}

std::size_t hash_polynomial(const fmpz_poly_struct* p, std::size_t h) {
  constexpr ulong prime = 2305843009213693951ULL;  // 2^61 − 1
  for (slong i = 0; i < fmpz_poly_length(p); ++i)
    h = h * 1000003u ^ static_cast<std::size_t>(fmpz_fdiv_ui(p->coeffs + i, prime));
  return h;
}

}  // namespace

std::size_t RationalFunction::hash() const {
  return hash_polynomial(fmpz_poly_q_denref(impl_->q), hash_polynomial(fmpz_poly_q_numref(impl_->q), 0x9e3779b97f4a7c15ULL));
}

bool canonical_less(const RationalFunction& a, const RationalFunction& b) {
  const int c = compare_polynomials(fmpz_poly_q_numref(raw(a)), fmpz_poly_q_numref(raw(b)));
  if (c != 0) return c < 0;
  return compare_polynomials(fmpz_poly_q_denref(raw(a)), fmpz_poly_q_denref(raw(b))) < 0;
}

// ---------------------------------------------------------------- the parser

namespace {

/// Recursive descent over the grammar of parse_rational_function; positions are 0-based inside,
/// reported 1-based.
class Parser {
public:
  Parser(std::string_view text, std::string_view variable, std::string_view field)
      : text_(text), variable_(variable), field_(field) {}

  RationalFunction parse() {
    skip();
    if (pos_ == text_.size()) fail("an empty expression");
    RationalFunction f = expr();
    skip();
    if (pos_ != text_.size()) fail("unexpected `" + std::string(1, text_[pos_]) + "` (an operator or the end was expected)");
    return f;
  }

private:
  [[noreturn]] void fail(const std::string& why) const { fail_at(pos_, why); }
  [[noreturn]] void fail_at(std::size_t at, const std::string& why) const {
    throw Error(std::string(field_), "", std::string(text_), "at position " + std::to_string(at + 1) + ": " + why);
  }
  void skip() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool eat(char c) {
    skip();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  RationalFunction expr() {
    RationalFunction f = term();
    for (;;) {
      if (eat('+')) f += term();
      else if (eat('-')) f -= term();
      else return f;
    }
  }
  RationalFunction term() {
    RationalFunction f = unary();
    for (;;) {
      if (eat('*')) {
        f *= unary();
      } else if (eat('/')) {
        skip();
        const std::size_t at = pos_;
        RationalFunction d = unary();
        if (d.is_zero()) fail_at(at, "division by zero (the divisor is the zero function)");
        f /= d;
      } else {
        return f;
      }
    }
  }
  RationalFunction unary() {
    if (eat('-')) {
      const Nested guard(*this);
      return -unary();
    }
    if (eat('+')) {
      const Nested guard(*this);
      return unary();
    }
    return power();
  }
  RationalFunction power() {
    RationalFunction base = primary();
    if (!eat('^')) return base;
    skip();
    const std::size_t at = pos_;
    const bool paren = eat('(');
    const bool negative = eat('-');
    skip();
    const std::size_t start = pos_;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    if (pos_ == start) fail("an integer exponent was expected after `^`");
    // the degree of the result, not the exponent, is what must stay bounded (a canonical form
    // prints r^k for a monomial of any degree k)
    if (pos_ - start > 6) fail_at(start, "the exponent is larger than " + std::to_string(max_expression_degree));
    long k = std::strtol(std::string(text_.substr(start, pos_ - start)).c_str(), nullptr, 10);
    const long base_degree = std::max<long>(static_cast<long>(base.numerator().size()), static_cast<long>(base.denominator().size())) - 1;
    if (k > max_expression_degree || base_degree * k > max_expression_degree)
      fail_at(start, "the power has degree " + std::to_string(base_degree * k) + ", more than " + std::to_string(max_expression_degree));
    if (paren && !eat(')')) fail("a closing parenthesis `)` was expected");
    if (negative) k = -k;
    if (k < 0 && base.is_zero()) fail_at(at, "a negative power of zero");
    return base.pow(k);
  }
  RationalFunction primary() {
    skip();
    if (pos_ == text_.size()) fail("an operand was expected at the end");
    const char c = text_[pos_];
    if (c == '(') {
      const std::size_t open = pos_++;
      const Nested guard(*this);
      RationalFunction f = expr();
      if (!eat(')')) fail_at(open, "this parenthesis is not closed");
      return f;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return number();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      const std::size_t start = pos_;
      while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) ++pos_;
      const std::string_view name = text_.substr(start, pos_ - start);
      if (name != variable_)
        fail_at(start, "unknown name `" + std::string(name) + "` (the parameter is `" + std::string(variable_) + "`)");
      return RationalFunction::variable();
    }
    fail("unexpected `" + std::string(1, c) + "` (a number, `" + std::string(variable_) + "` or `(` was expected)");
  }
  RationalFunction number() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      const std::size_t frac = pos_;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
      if (pos_ == frac) fail_at(start, "a digit was expected after the decimal point");
    }
    if (pos_ - start > max_number_digits) fail_at(start, "a number longer than " + std::to_string(max_number_digits) + " digits");
    return RationalFunction(parse_rational(text_.substr(start, pos_ - start), field_));
  }

  /// One more level of parentheses or signs for the scope of the guard; refuses more than
  /// max_expression_nesting levels (the parser recurses once per level: a bounded stack).
  struct Nested {
    explicit Nested(Parser& p) : parser(p) {
      if (++parser.depth_ > max_expression_nesting)
        parser.fail("more than " + std::to_string(max_expression_nesting) + " nested parentheses or signs");
    }
    ~Nested() { --parser.depth_; }
    Parser& parser;
  };

  std::string_view text_, variable_, field_;
  std::size_t pos_ = 0;
  std::size_t depth_ = 0;
};

}  // namespace

RationalFunction parse_rational_function(std::string_view text, std::string_view variable, std::string_view field) {
  if (text.size() > max_expression_length)
    throw Error(std::string(field), "", std::string(text.substr(0, 60)) + "…",
                "an expression of " + std::to_string(text.size()) + " characters; at most " + std::to_string(max_expression_length) +
                    " are read");
  return Parser(text, variable, field).parse();
}

}  // namespace exactdp::parametric
