/// @file
/// Internal helpers shared by the library's translation units (not part of the public API).
#pragma once

#include "exactdp/core/error.hpp"
#include "exactdp/game/game.hpp"
#include "exactdp/numeric/rational.hpp"

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace exactdp::library::detail {

/// Throws Error(@p where, @p field, to_string(@p value), @p why) unless @p ok.
inline void require(bool ok, const char* where, const char* field, const Rational& value, const char* why) {
  if (!ok) throw Error(where, field, to_string(value), why);
}

/// A hash of a vector of integers, for LambdaMechanism states written as small integer vectors.
struct VectorHash {
  std::size_t operator()(const std::vector<long>& v) const {
    std::size_t h = v.size();
    for (long x : v) h ^= std::hash<long>{}(x) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h;
  }
};

/// q^k for any integer k (q ≠ 0 when k < 0).
inline Rational power(const Rational& q, long k) {
  return k >= 0 ? pow(q, static_cast<unsigned long>(k)) : 1 / pow(q, static_cast<unsigned long>(-k));
}

/// A continual mechanism as a game: one initial state @p start shared by both worlds (the data
/// arrive as messages), the neighbouring relation given by @p verifier; validated.
inline Game continual_game(std::string name, std::shared_ptr<const InteractiveMechanism> mech, StateId start,
                           std::shared_ptr<const Verifier> verifier, unsigned horizon) {
  Game g;
  g.name = std::move(name);
  g.mechanism = std::move(mech);
  g.verifier = std::move(verifier);
  g.initial = {InitialLaw{{start, Rational(1)}}, InitialLaw{{start, Rational(1)}}};
  g.horizon = horizon;
  g.validate();
  return g;
}

}  // namespace exactdp::library::detail
