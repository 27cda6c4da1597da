// Uses the installed library: the profile of RR_2 composed twice at λ = 3/2 is 5/18 (THEOREMS.md E.3).
#include <exactdp/divergence/hockey_stick.hpp>

#include <iostream>

int main() {
  using exactdp::Rational;
  auto rr = exactdp::PrivacyLoss::from_masses({{Rational(2, 3), Rational(1, 3)}, {Rational(1, 3), Rational(2, 3)}});
  Rational d = exactdp::PrivacyProfile(rr.self_compose(2)).delta(Rational(3, 2));
  std::cout << d << "\n";
  return d == Rational(5, 18) ? 0 : 1;
}
