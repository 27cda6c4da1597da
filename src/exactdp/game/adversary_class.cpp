#include "exactdp/game/adversary_class.hpp"

#include "exactdp/core/error.hpp"

namespace exactdp {

std::string to_string(AdversaryClass c) {
  switch (c) {
    case AdversaryClass::adaptive: return "adaptive";
    case AdversaryClass::oblivious: return "oblivious";
    case AdversaryClass::sequential: return "sequential";
  }
  return "?";
}

AdversaryClass parse_adversary_class(const std::string& text, const std::string& field) {
  if (text == "adaptive") return AdversaryClass::adaptive;
  if (text == "oblivious") return AdversaryClass::oblivious;
  if (text == "sequential") return AdversaryClass::sequential;
  throw Error(field, "", text, "unknown adversary class (expected adaptive, oblivious or sequential)");
}

}  // namespace exactdp
