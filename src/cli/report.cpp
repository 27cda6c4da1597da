#include "report.hpp"

#include "exactdp/accounting/profile_report.hpp"

#include <sstream>

namespace exactdp::cli {
namespace {

using json = nlohmann::json;

json exact(const ExtendedRational& x) { return to_string(x); }

/// ε = ln λ: exactly "0" when λ = 1, "inf" when λ = ∞, else certified.
json epsilon_json(const LogOfLambda& e, const Requests& req) {
  if (e.infinite) return "inf";
  if (e.zero) return "0";
  return certified(*e.value, req.digits);
}

std::string fmt_value(const json& v, int width = 0) {
  std::string s;
  if (v.is_string()) s = v.get<std::string>();
  else if (v.is_object() && v.contains("lo")) {
    s = v["lo"].get<std::string>() == v["hi"].get<std::string>() ? v["lo"].get<std::string>()
                                                                  : "[" + v["lo"].get<std::string>() + ", " + v["hi"].get<std::string>() + "]";
  } else s = v.dump();
  if (static_cast<int>(s.size()) < width) s += std::string(static_cast<std::size_t>(width - static_cast<int>(s.size())), ' ');
  return s;
}

/// q rounded to @p digits significant decimal digits (nearest, computed exactly), for display.
std::string decimal(const Rational& q, int digits) {
  if (sgn(q) == 0) return "0";
  Rational a = abs(q);
  // a = m · 10^e with 10^(digits−1) ≤ m < 10^digits
  long e = static_cast<long>(mpz_sizeinbase(a.get_num_mpz_t(), 10)) - static_cast<long>(mpz_sizeinbase(a.get_den_mpz_t(), 10)) - digits + 1;
  auto scaled = [&](long ex) {
    Integer p;
    mpz_ui_pow_ui(p.get_mpz_t(), 10, static_cast<unsigned long>(ex < 0 ? -ex : ex));
    return ex < 0 ? Rational(a * p) : Rational(a / p);
  };
  Integer lim;
  mpz_ui_pow_ui(lim.get_mpz_t(), 10, static_cast<unsigned long>(digits));
  while (scaled(e) >= lim) ++e;
  while (scaled(e) < lim / 10) --e;
  Rational m = scaled(e) + Rational(1, 2);
  Integer r = m.get_num() / m.get_den();  // floor(x + 1/2)
  if (r == lim) r /= 10, ++e;
  std::string s = r.get_str();
  while (s.size() > 1 && s.back() == '0') s.pop_back(), ++e;
  long point = static_cast<long>(s.size()) + e;  // digits before the decimal point
  std::string out;
  if (point > 21 || point < -6) {
    out = s.substr(0, 1) + (s.size() > 1 ? "." + s.substr(1) : "") + "e" + std::to_string(point - 1);
  } else if (point <= 0) {
    out = "0." + std::string(static_cast<std::size_t>(-point), '0') + s;
  } else if (point >= static_cast<long>(s.size())) {
    out = s + std::string(static_cast<std::size_t>(point) - s.size(), '0');
  } else {
    out = s.substr(0, static_cast<std::size_t>(point)) + "." + s.substr(static_cast<std::size_t>(point));
  }
  return (sgn(q) < 0 ? "-" : "") + out;
}

/// An exact value, shown as a fraction when short and with its rounded decimal beside it.
std::string fmt_exact(const json& v, int digits) {
  if (!v.is_string()) return fmt_value(v);
  std::string s = v.get<std::string>();
  if (s == "inf" || s.find('/') == std::string::npos) return s;
  std::string dec = decimal(parse_rational(s), digits);
  if (s.size() > 30) return "≈ " + dec + " (exact fraction of " + std::to_string(s.size()) + " characters in --json)";
  return s + "  (≈ " + dec + ")";
}

}  // namespace

json certified(const Interval& x, int digits) {
  return json{{"lo", x.lower_string(digits)}, {"hi", x.upper_string(digits)}};
}

json exact_analysis(const PrivacyLoss& loss, const Requests& req) {
  ProfileRequest request{req.lambdas, req.epsilons, req.deltas, req.alphas, req.tradeoff, req.precision(), req.direction};
  const ProfileReport report = profile_report(loss, request);
  json out;
  out["direction"] = to_string(report.direction);
  out["atoms"] = report.atoms;
  out["pure"] = {{"lambda", exact(report.pure)}, {"epsilon", epsilon_json(report.pure_epsilon, req)}};
  out["at"] = json::array();
  for (const auto& e : report.at_lambda)
    out["at"].push_back({{"lambda", to_string(e.lambda)},
                         {"delta", to_string(e.delta)},
                         {"remove", {{"delta", to_string(e.remove)}}},
                         {"add", {{"delta", to_string(e.add)}}}});
  auto delta_json = [&](const Interval& d) {
    return d.lower() == d.upper() ? json(to_string(d.lower())) : certified(d, req.digits);
  };
  for (const auto& e : report.at_epsilon)
    out["at"].push_back({{"epsilon", to_string(e.epsilon)},
                         {"delta", delta_json(e.delta)},
                         {"remove", {{"delta", delta_json(e.remove)}}},
                         {"add", {{"delta", delta_json(e.add)}}}});
  out["least"] = json::array();
  auto least_json = [&](const ProfileReport::LeastOne& l) {
    return json{{"lambda", exact(l.lambda)}, {"epsilon", epsilon_json(l.epsilon, req)}};
  };
  for (const auto& e : report.least)
    out["least"].push_back({{"delta", to_string(e.delta)},
                            {"lambda", exact(e.lambda)},
                            {"epsilon", epsilon_json(e.epsilon, req)},
                            {"remove", least_json(e.remove)},
                            {"add", least_json(e.add)}});
  out["renyi"] = json::array();
  for (const auto& e : report.renyi) {
    json entry{{"alpha", to_string(e.alpha)}};
    if (e.exact_moment) entry["moment"] = exact(*e.exact_moment);
    else if (e.moment) entry["moment"] = certified(*e.moment, req.digits);
    else entry["moment"] = "inf";
    entry["epsilon"] = e.infinite ? json("inf") : certified(*e.epsilon, req.digits);
    out["renyi"].push_back(entry);
  }
  if (req.tradeoff) {
    out["tradeoff"] = json::array();
    for (const auto& v : report.tradeoff) out["tradeoff"].push_back({{"alpha", to_string(v.alpha)}, {"beta", to_string(v.beta)}});
  }
  return out;
}

std::string render_text(const json& r) {
  std::ostringstream os;
  const int digits = r.value("digits", 10);
  if (r.contains("title")) os << r["title"].get<std::string>() << "\n";
  if (r.contains("components")) {
    os << "\nComponents\n";
    for (const auto& c : r["components"])
      os << "  " << c["times"].get<unsigned long>() << " × " << c["description"].get<std::string>() << "\n";
  }
  if (r.contains("method")) os << "\nMethod: " << r["method"].get<std::string>() << "\n";
  if (r.contains("atoms")) os << "Distinct likelihood ratios in the composed pair: " << r["atoms"] << "\n";
  if (r.contains("pure"))
    os << "Pure DP: λ = " << fmt_exact(r["pure"]["lambda"], digits) << ", ε = " << fmt_value(r["pure"]["epsilon"]) << "\n";
  const std::string direction = r.value("direction", "both");
  // the other directions' values, when they differ from the one shown
  auto others = [&](const json& e, const char* key) {
    std::string out;
    for (const char* d : {"remove", "add"})
      if (direction != d && e.contains(d) && e[d][key] != e[key]) out += std::string(out.empty() ? "" : ",") + " " + d + " " + fmt_value(e[d][key]);
    return out.empty() ? out : "   (" + out.substr(1) + ")";
  };
  if (r.contains("at") && !r["at"].empty()) {
    if (direction == "remove") os << "\nPrivacy profile δ(ε) = H_λ(P‖Q) (remove direction), λ = e^ε\n";
    else if (direction == "add") os << "\nPrivacy profile δ(ε) = H_λ(Q‖P) (add direction), λ = e^ε\n";
    else if (direction == "replace") os << "\nPrivacy profile δ(ε) of the replace-one pairs (both directions coincide), λ = e^ε\n";
    else os << "\nPrivacy profile δ(ε) = max(H_λ(P‖Q), H_λ(Q‖P)), λ = e^ε\n";
    for (const auto& e : r["at"]) {
      if (e.contains("lambda")) os << "  λ = " << fmt_value(e["lambda"], 12) << " δ = " << fmt_exact(e["delta"], digits);
      else os << "  ε = " << fmt_value(e["epsilon"], 12) << " δ ∈ " << fmt_value(e["delta"]);
      os << others(e, "delta") << "\n";
    }
  }
  if (r.contains("least") && !r["least"].empty()) {
    os << "\nLeast ε for a target δ" << (r.value("exact", false) ? " (exact λ = e^ε, certified ε)" : " (certified)")
       << (direction == "both" ? "" : ", " + direction + " direction") << "\n";
    for (const auto& e : r["least"]) {
      os << "  δ = " << fmt_value(e["delta"], 12);
      if (e.contains("lambda")) os << " λ = " << fmt_exact(e["lambda"], digits) << "\n  " << std::string(16, ' ');
      os << " ε ∈ " << fmt_value(e["epsilon"]) << others(e, "epsilon") << "\n";
    }
  }
  if (r.contains("renyi") && !r["renyi"].empty()) {
    os << "\nRényi divergence (max of both directions)\n";
    for (const auto& e : r["renyi"]) {
      os << "  α = " << fmt_value(e["alpha"], 6);
      if (e.contains("moment")) os << " moment = " << fmt_exact(e["moment"], digits) << "\n  " << std::string(10, ' ');
      os << " D_α ∈ " << fmt_value(e["epsilon"]) << "\n";
    }
  }
  if (r.contains("tradeoff")) {
    const auto& t = r["tradeoff"];
    os << "\nTrade-off function T(P, Q): " << t.size() << " vertices (α, β)\n";
    std::size_t shown = 0;
    for (const auto& v : t) {
      if (++shown > 12) {
        os << "  … (" << t.size() - 12 << " more; all in --json)\n";
        break;
      }
      os << "  (" << v["alpha"].get<std::string>() << ", " << v["beta"].get<std::string>() << ")\n";
    }
  }
  if (r.contains("certified")) {
    os << "\nCertified results\n";
    for (const auto& [k, v] : r["certified"].items()) os << "  " << k << ": " << fmt_value(v) << "\n";
  }
  if (r.contains("bounds")) {
    os << "\nClosed-form bounds" << (r.value("exact", false) ? " beside the exact value" : "") << "\n";
    for (const auto& b : r["bounds"]) {
      os << "  " << fmt_value(b["name"], 34);
      if (b.contains("epsilon")) os << " ε ≤ " << fmt_value(b["epsilon"]);
      if (b.contains("delta")) os << "  δ = " << fmt_value(b["delta"]);
      if (b.contains("note")) os << "  (" << b["note"].get<std::string>() << ")";
      os << "\n";
    }
  }
  if (r.contains("notes"))
    for (const auto& n : r["notes"]) os << "\nNote: " << n.get<std::string>() << "\n";
  return os.str();
}

}  // namespace exactdp::cli
