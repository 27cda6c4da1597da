/// @file
/// RapidCheck generators of small mechanisms and exact privacy parameters (issue 15, item 5),
/// header-only: include it in a test that links RapidCheck and exactdp.
///
/// ```cpp
/// #include "exactdp/testing/rapidcheck.hpp"
///
/// RC_GTEST_PROP(Profile, NonIncreasingInLambda, ()) {
///   const exactdp::Mechanism m = *exactdp::testing::gen::small_mechanism();
///   const exactdp::Rational lambda = *exactdp::testing::gen::privacy_lambda();
///   RC_ASSERT(exactdp::worst_case_hockey_stick(m, lambda + 1).delta() <= exactdp::worst_case_hockey_stick(m, lambda).delta());
/// }
/// ```
///
/// A small mechanism is a random table: states 0 … n−1, messages "a", "b", …, answers "0", "1", …,
/// and for every (state, message) a law over (answer, next state) with small integer weights, so
/// that shrinking ends at a readable table (fewer states, messages, answers, smaller weights). A
/// failing case is printed as its spec file (io/spec_writer.hpp), ready for `exactdp check`.
#pragma once

#include "exactdp/game/authoring.hpp"
#include "exactdp/io/spec_writer.hpp"
#include "exactdp/numeric/rational.hpp"

#include <rapidcheck.h>

#include <ostream>
#include <string>
#include <vector>

namespace exactdp {

/// RapidCheck prints a Mechanism as its one-line spec file.
inline void showValue(const Mechanism& m, std::ostream& os) {
  SpecWriteOptions o;
  o.indent = 0;
  os << write_spec(m, o);
}

namespace testing {

/// A random table mechanism before it is explored: weights[s][q][a·states + s′] is the weight of
/// (answer a, next state s′) for message q in state s (each row has a positive sum).
struct SmallTable {
  int states = 1;
  int messages = 1;
  int answers = 1;
  std::vector<std::vector<std::vector<int>>> weights;
  int initial0 = 0, initial1 = 0;  ///< the worlds' initial states (static neighbours x, x′)
  unsigned horizon = 1;
};

/// The mechanism of a table: static neighbours "x", "x'", messages "a", "b", …, answers "0", "1", ….
inline Mechanism mechanism_of(const SmallTable& t) {
  std::vector<std::string> alphabet;
  for (int q = 0; q < t.messages; ++q) alphabet.push_back(std::string(1, static_cast<char>('a' + q)));
  auto step = [t](const int& s, const std::string& message) {
    const auto& row = t.weights.at(static_cast<std::size_t>(s)).at(static_cast<std::size_t>(message[0] - 'a'));
    int total = 0;
    for (int w : row) total += w;
    std::vector<Outcome<int>> out;
    for (int i = 0; i < static_cast<int>(row.size()); ++i)
      if (row[static_cast<std::size_t>(i)] > 0)
        out.push_back({Rational(row[static_cast<std::size_t>(i)], total), std::to_string(i / t.states), i % t.states});
    for (auto& o : out) o.probability.canonicalize();
    return out;
  };
  return Mechanism::from_step(step, InitialStates<int>::per_world(t.initial0, t.initial1), NeighbourRelation::static_worlds("x", "x'"),
                              alphabet, t.horizon, "random table");
}

namespace gen {

/// A random SmallTable with at most the given sizes (weights 0 … 3, every row with a positive sum).
inline rc::Gen<SmallTable> small_table(int max_states = 3, int max_messages = 2, int max_answers = 2, unsigned max_horizon = 3) {
  return rc::gen::mapcat(rc::gen::tuple(rc::gen::inRange(1, max_states + 1), rc::gen::inRange(1, max_messages + 1), rc::gen::inRange(1, max_answers + 1),
                                rc::gen::inRange(1u, max_horizon + 1)),
                     [](const std::tuple<int, int, int, unsigned>& shape) {
                       const auto [n, k, a, h] = shape;
                       auto row = rc::gen::suchThat(rc::gen::container<std::vector<int>>(static_cast<std::size_t>(n * a), rc::gen::inRange(0, 4)),
                                                [](const std::vector<int>& r) {
                                                  for (int w : r)
                                                    if (w > 0) return true;
                                                  return false;
                                                });
                       auto state = rc::gen::container<std::vector<std::vector<int>>>(static_cast<std::size_t>(k), row);
                       return rc::gen::map(rc::gen::tuple(rc::gen::container<std::vector<std::vector<std::vector<int>>>>(static_cast<std::size_t>(n), state),
                                                  rc::gen::inRange(0, n), rc::gen::inRange(0, n)),
                                       [n, k, a, h](const auto& parts) {
                                         SmallTable t;
                                         t.states = n, t.messages = k, t.answers = a, t.horizon = h;
                                         t.weights = std::get<0>(parts);
                                         t.initial0 = std::get<1>(parts);
                                         t.initial1 = std::get<2>(parts);
                                         return t;
                                       });
                     });
}

/// A random small mechanism (see the file comment).
inline rc::Gen<Mechanism> small_mechanism(int max_states = 3, int max_messages = 2, int max_answers = 2, unsigned max_horizon = 3) {
  return rc::gen::map(small_table(max_states, max_messages, max_answers, max_horizon), &mechanism_of);
}

/// λ = e^ε ≥ 1, exact: 1 + n/d with 0 ≤ n ≤ 12·max_excess, 1 ≤ d ≤ 12.
inline rc::Gen<Rational> privacy_lambda(int max_excess = 4) {
  return rc::gen::apply(
      [](int n, int d) {
        Rational r(n, d);
        r.canonicalize();
        return Rational(1 + r);
      },
      rc::gen::inRange(0, 12 * max_excess + 1), rc::gen::inRange(1, 13));
}

/// δ ∈ [0, 1], exact: n/d with 0 ≤ n ≤ d ≤ 12.
inline rc::Gen<Rational> privacy_delta() {
  return rc::gen::mapcat(rc::gen::inRange(1, 13), [](int d) {
    return rc::gen::map(rc::gen::inRange(0, d + 1), [d](int n) {
      Rational r(n, d);
      r.canonicalize();
      return r;
    });
  });
}

}  // namespace gen
}  // namespace testing
}  // namespace exactdp
