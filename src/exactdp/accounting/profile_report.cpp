#include "exactdp/accounting/profile_report.hpp"

#include "exactdp/divergence/direction.hpp"
#include "exactdp/divergence/hockey_stick.hpp"
#include "exactdp/divergence/renyi.hpp"

namespace exactdp {
namespace {

LogOfLambda log_of(const ExtendedRational& l, Precision precision) {
  LogOfLambda out;
  if (l.is_infinite()) out.infinite = true;
  else if (l.value() == 1) out.zero = true;
  else out.value = log(Interval(l.value(), precision));
  return out;
}

ProfileReport::RenyiEntry renyi_entry(const PrivacyLoss& loss, const Rational& alpha, Precision prec) {
  ProfileReport::RenyiEntry e;
  e.alpha = alpha;
  const PrivacyLoss back = loss.swapped();
  if (alpha.get_den() == 1 && alpha >= 2) {
    const auto a = alpha.get_num().get_ui();
    const ExtendedRational m = std::max(renyi_moment(loss, a), renyi_moment(back, a));
    e.exact_moment = m;
    if (m.is_infinite()) e.infinite = true;
    else e.epsilon = log(Interval(m.value(), prec)) / Interval(Rational(alpha - 1), prec);
    return e;
  }
  const Interval m = max(renyi_moment(loss, alpha, prec), renyi_moment(back, alpha, prec));
  if (!m.upper_is_finite() && !m.lower_is_finite()) {
    e.infinite = true;
    return e;
  }
  e.moment = m;
  e.epsilon = max(renyi_divergence(loss, alpha, prec), renyi_divergence(back, alpha, prec));
  return e;
}

}  // namespace

ProfileReport profile_report(const PrivacyLoss& loss, const ProfileRequest& req) {
  const Precision prec = req.precision;
  ProfileReport r;
  const PrivacyProfile profile(loss);
  r.atoms = loss.size();
  r.pure = std::max(max_ratio(loss), max_ratio(loss.swapped()));
  r.pure_epsilon = log_of(r.pure, prec);
  r.direction = req.direction;
  using D = NeighbourDirection;
  for (const auto& l : req.lambdas)
    r.at_lambda.push_back({l, delta(profile, l, req.direction), delta(profile, l, D::remove), delta(profile, l, D::add)});
  for (const auto& e : req.epsilons) {
    // δ is non-increasing in λ, so δ over an enclosure of e^ε encloses δ(e^ε) (THEOREMS.md B.15);
    // the curves cover every λ > 0, so ε < 0 needs nothing more
    const Interval lambda = sgn(e) == 0 ? Interval(Rational(1), prec) : exp(Interval(e, prec));
    r.at_epsilon.push_back({e, delta(profile, lambda, req.direction), delta(profile, lambda, D::remove),
                            delta(profile, lambda, D::add)});
  }
  auto least_one = [&](const Rational& d, D direction) {
    const ExtendedRational l = least_lambda(profile, d, direction);
    return ProfileReport::LeastOne{l, log_of(l, prec)};
  };
  for (const auto& d : req.deltas) {
    const ProfileReport::LeastOne asked = least_one(d, req.direction);
    r.least.push_back({d, asked.lambda, asked.epsilon, least_one(d, D::remove), least_one(d, D::add)});
  }
  for (const auto& a : req.alphas) r.renyi.push_back(renyi_entry(loss, a, prec));
  if (req.tradeoff) r.tradeoff = TradeOff::of(loss).vertices();
  return r;
}

}  // namespace exactdp
