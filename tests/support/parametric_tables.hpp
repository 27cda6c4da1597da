// Random small parametric tables for the property tests of the parametric engine (δ(λ) and Φ_α
// for every r against the numeric engine at rational points): a RapidCheck generator of spec text.
#pragma once

#include <rapidcheck.h>

#include <sstream>
#include <string>
#include <vector>

namespace exactdp::testing {

/// Probabilities in [0, 1] for every r in (0, 1), as expressions (each row pair sums to 1).
inline const std::vector<std::string>& parametric_expressions() {
  static const std::vector<std::string> e = {"r", "r^2", "(1+r)/2", "r*(2-r)", "r/(1+r)", "(1-r)/(1+r)", "1/3", "r^3", "2*r/(1+r)^2"};
  return e;
}

/// A random table over states s0 … s{n−1}, messages a (and b), two or three answers per rule,
/// worlds x (starting in s0) and x' (starting in s1), horizon 1 … @p max_horizon, r ∈ (0, 1).
inline std::string random_parametric_table_spec(int max_horizon = 3) {
  const int states = *rc::gen::inRange(2, 4), messages = *rc::gen::inRange(1, 3), horizon = *rc::gen::inRange(1, max_horizon + 1);
  std::ostringstream os;
  os << R"({"format": "exactdp/1", "name": "random", "horizon": )" << horizon
     << R"(, "parameters": {"r": {"interval": ["0", "1"], "open": true}}, "neighbours": {"type": "static", "worlds": ["x", "x'"]},
  "mechanism": {"type": "table", "initial": {"x": "s0", "x'": "s1"}, "messages": [)";
  for (int m = 0; m < messages; ++m) os << (m ? ", " : "") << "\"" << static_cast<char>('a' + m) << "\"";
  os << R"(], "states": {)";
  for (int s = 0; s < states; ++s) {
    os << (s ? ", " : "") << "\"s" << s << "\": {";
    for (int m = 0; m < messages; ++m) {
      const auto& all = parametric_expressions();
      const std::string e = all[*rc::gen::inRange<std::size_t>(0, all.size())];
      auto next = [&] { return "\"s" + std::to_string(*rc::gen::inRange(0, states)) + "\""; };
      os << (m ? ", " : "") << "\"" << static_cast<char>('a' + m) << "\": [";
      auto row = [&](const std::string& prob, const std::string& answer) {
        return "{\"p\": \"" + prob + "\", \"answer\": \"" + answer + "\", \"next\": " + next() + "}";
      };
      if (*rc::gen::inRange(0, 2) == 0) {
        os << row(e, "0") << ", " << row("1-(" + e + ")", "1");
      } else {  // three answers: e/2, e/2, 1 − e
        os << row("(" + e + ")/2", "0") << ", " << row("(" + e + ")/2", "1") << ", " << row("1-(" + e + ")", "2");
      }
      os << "]";
    }
    os << "}";
  }
  os << "}}}";
  return os.str();
}

}  // namespace exactdp::testing
