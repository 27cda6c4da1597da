/// @file
/// GoogleTest assertions for privacy claims (issue 15, item 5), header-only: include it in a test
/// that links GoogleTest and exactdp; it is not compiled into the library.
///
/// ```cpp
/// #include "exactdp/testing/gtest.hpp"
///
/// TEST(MyMechanism, IsLn9DP) {
///   exactdp::Mechanism m = exactdp::Mechanism::from_step(step, initial, neighbours, {"q"}, 2, "mine");
///   EXACTDP_EXPECT_DP(m, 9, 0);          // (ln 9, 0)-DP against every adaptive adversary, 2 rounds
///   EXACTDP_ASSERT_DP(m.game(), "3/2", "1/10");
/// }
/// ```
///
/// The first argument is an exactdp::Mechanism or an exactdp::Game; λ = e^ε and δ are exact
/// (exactdp::Rational, an integer, or a string such as "3/2" or "0.1"). The claim is checked up to
/// the game's horizon by check_approximate_dp (game/engine.hpp). On failure the message is
/// describe_refutation of the minimal_witness (testing/witness.hpp): the neighbouring worlds, the
/// least failing horizon, the adversary's decision tree as deep as needed, the event and both
/// exact probabilities.
#pragma once

#include "exactdp/game/authoring.hpp"
#include "exactdp/game/engine.hpp"
#include "exactdp/game/game.hpp"
#include "exactdp/numeric/rational.hpp"
#include "exactdp/testing/witness.hpp"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <type_traits>

namespace exactdp::testing {

/// An exact number from a Rational, an integer or a string ("3/2", "0.1").
template <class T>
Rational exact_number(const T& x, std::string_view field) {
  if constexpr (std::is_convertible_v<T, std::string_view>) return parse_rational(std::string_view(x), field);
  else if constexpr (std::is_integral_v<T>) return Rational(static_cast<long>(x));
  else return Rational(x);
}

/// The predicate-formatter behind EXACTDP_EXPECT_DP: success when the game is (ln λ, δ)-DP up to
/// its horizon, otherwise a failure whose message is the shrunk witness.
inline ::testing::AssertionResult dp_holds(const char* game_text, const char* lambda_text, const char* delta_text, const Game& game,
                                           const Rational& lambda, const Rational& delta) {
  const ClaimCheck c = check_approximate_dp(game, lambda, delta);
  if (c.holds) return ::testing::AssertionSuccess();
  const Witness w = minimal_witness(game, *c.witness, delta);
  const Rational worst = c.delta_forward < c.delta_backward ? c.delta_backward : c.delta_forward;
  return ::testing::AssertionFailure() << "expected " << game_text << " to be (ε, δ)-DP with λ = e^ε = " << lambda_text << ", δ = " << delta_text
                                       << "; it is not:\n"
                                       << describe_refutation(game, w, delta, worst, c.horizon);
}

/// The same for any game-like first argument and number-like λ, δ.
template <class G, class L, class D>
::testing::AssertionResult dp_holds_any(const char* game_text, const char* lambda_text, const char* delta_text, const G& game,
                                        const L& lambda, const D& delta) {
  const Game& g = game;  // Mechanism converts to const Game&
  return dp_holds(game_text, lambda_text, delta_text, g, exact_number(lambda, "lambda"), exact_number(delta, "delta"));
}

}  // namespace exactdp::testing

/// Expects the mechanism or game to be (ln λ, δ)-DP against every adaptive adversary up to its
/// horizon; on failure prints the minimal witness and continues.
#define EXACTDP_EXPECT_DP(mechanism_or_game, lambda, delta) \
  EXPECT_PRED_FORMAT3(::exactdp::testing::dp_holds_any, mechanism_or_game, lambda, delta)

/// As EXACTDP_EXPECT_DP, but a failure ends the test.
#define EXACTDP_ASSERT_DP(mechanism_or_game, lambda, delta) \
  ASSERT_PRED_FORMAT3(::exactdp::testing::dp_holds_any, mechanism_or_game, lambda, delta)
