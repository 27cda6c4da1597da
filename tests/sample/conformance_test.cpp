// Statistical conformance: many seeded runs of every runnable mechanism against its exact (or
// certified) table, with the rigorous per-outcome Bernstein test of sample_support.hpp
// (false-alarm probability below 2·10^{−10} for the whole suite; fixed seeds make every run
// reproducible). The tables come from mechanism/ (computed without the samplers), from closed
// forms written out here, or, for spec files, from the product of the table rows along each path.
#include "exactdp/io/spec_file.hpp"
#include "exactdp/mechanism/discrete_gaussian.hpp"
#include "exactdp/mechanism/noninteractive.hpp"
#include "exactdp/numeric/interval.hpp"
#include "exactdp/sample/samplers.hpp"
#include "exactdp/sample/session.hpp"
#include "sample/sample_support.hpp"
#include "support/exact.hpp"
#include "support/paths.hpp"

#include <gtest/gtest.h>

#include <filesystem>

namespace exactdp {
namespace {

using testing::expect_conforms;
using testing::q;

constexpr long draws = 20000;

template <class T, class F>
std::map<T, long> counts(F draw, const std::string& seed, long n = draws) {
  SeededSource source(seed);
  std::map<T, long> c;
  for (long i = 0; i < n; ++i) ++c[draw(source)];
  return c;
}

template <class T>
std::map<T, Rational> table_of(const Dist<T>& d) {
  std::map<T, Rational> m;
  for (const auto& [t, p] : d) m[t] = p;
  return m;
}

TEST(SampleConformance, CountTestFlagsAWrongProbability) {
  // the test can fail: 20000 fair coins checked against p = 0.47 (a 3% error) are flagged
  auto c = counts<bool>([](BitSource& s) { return s.bit(); }, "flag");
  EXPECT_TRUE(testing::count_conforms(c[true], draws, q(1, 2), q(1, 2)));
  EXPECT_FALSE(testing::count_conforms(c[true], draws, q(47, 100), q(47, 100)));
}

TEST(SampleConformance, RandomizedResponse) {
  for (int b : {0, 1}) {
    auto c = counts<FlaggedBit>([&](BitSource& s) { return run_randomized_response(s, Rational(2), q(1, 10), b); },
                                "rr" + std::to_string(b));
    expect_conforms(c, draws, table_of(randomized_response(Rational(2), q(1, 10), b)));
  }
}

TEST(SampleConformance, KAryRandomizedResponse) {
  auto c = counts<long>([](BitSource& s) { return run_k_ary_randomized_response(s, 5, q(7, 3), 3); }, "krr");
  expect_conforms(c, draws, table_of(k_ary_randomized_response(5, q(7, 3), 3)));
}

TEST(SampleConformance, ClampedDiscreteLaplace) {
  auto c = counts<long>([](BitSource& s) { return run_discrete_laplace(s, q(2, 3), 1, -3, 4); }, "dlap");
  expect_conforms(c, draws, table_of(discrete_laplace(q(2, 3), 1, -3, 4)));
}

TEST(SampleConformance, DiscreteLaplaceOfExponentialScale) {
  // CKS20 Algorithm 2 with s = 2, t = 3: Pr[Z = z] = (1 − ρ)/(1 + ρ)·ρ^{|z|}, ρ = e^{−2/3}
  // (the DLap closed form of THEOREMS.md D.3 with r = ρ), certified; outcomes |z| ≥ 6 pooled
  const Interval rho = exp(-Interval(q(2, 3)));
  const Interval c0 = (Interval(Rational(1)) - rho) / (Interval(Rational(1)) + rho);
  std::map<long, Interval> table;
  Interval inner = Interval::zero(default_precision);
  for (long z = -5; z <= 5; ++z) {
    table.emplace(z, c0 * pow(rho, std::labs(z)));
    inner += table.at(z);
  }
  table.emplace(99, Interval(Rational(1)) - inner);  // the pooled tail |z| ≥ 6
  auto c = counts<long>(
      [](BitSource& s) {
        const long z = discrete_laplace_exp_noise(s, Integer(2), Integer(3)).get_si();
        return std::labs(z) >= 6 ? 99L : z;
      },
      "cks2");
  expect_conforms(c, draws, table);
}

TEST(SampleConformance, ClampedDiscreteGaussianAgainstTheCertifiedTable) {
  // σ² = 3/2 (t = 2) and σ² = 20 (t = 5): the certified table of mechanism/discrete_gaussian.hpp
  for (const Rational& sigma2 : {q(3, 2), Rational(20)}) {
    const long w = sigma2 < 2 ? 4 : 12;
    auto table_dist = discrete_gaussian(sigma2, 0, -w, w);
    std::map<long, Interval> table;
    for (const auto& [k, p] : table_dist) table.emplace(k, p);
    auto c = counts<long>([&](BitSource& s) { return run_discrete_gaussian(s, sigma2, 0, -w, w); }, "dg" + to_string(sigma2));
    expect_conforms(c, draws, table);
  }
}

/// The exact law of the answer sequences of a table mechanism started in @p initial under
/// @p messages: the product of the rows' probabilities along each path (recursion over the table).
std::map<std::string, Rational> answer_law(const InteractiveMechanism& m, StateId initial, const std::vector<std::string>& messages) {
  std::map<std::string, Rational> law;
  std::function<void(StateId, std::size_t, std::string, Rational)> go = [&](StateId s, std::size_t i, std::string seq, Rational p) {
    if (i == messages.size()) {
      law[seq] += p;
      return;
    }
    for (const auto& t : m.step(s, *m.message_id(messages[i])))
      go(t.next, i + 1, seq + "/" + m.answer_name(t.answer), p * t.probability);
  };
  go(initial, 0, "", Rational(1));
  return law;
}

using testing::spec_dir;

TEST(SampleConformance, SpecTableSessionsOverSeveralSteps) {
  // mp.json: two adaptive rounds with thirds; the session's answer sequences against the table
  for (const char* file : {"mp.json", "sticky-rr.json", "ma.json"}) {
    Game g = load_spec_file(spec_dir() / file);
    const auto& m = *g.mechanism;
    std::vector<std::string> script;
    for (unsigned i = 0; i < 3; ++i) script.push_back(m.messages()[i % m.messages().size()]);
    for (int b = 0; b < 2; ++b) {
      ASSERT_EQ(g.initial[b].size(), 1u);
      const StateId s0 = g.initial[b][0].first;
      const auto table = answer_law(m, s0, script);
      auto source = std::make_shared<SeededSource>(std::string(file) + std::to_string(b));
      std::map<std::string, long> c;
      for (long i = 0; i < draws / 4; ++i) {
        Session session(g.mechanism, s0, source);
        std::string seq;
        for (const auto& msg : script) seq += "/" + session.send(msg).answer;
        ++c[seq];
      }
      SCOPED_TRACE(std::string(file) + " world " + std::to_string(b));
      expect_conforms(c, draws / 4, table);
    }
  }
}

TEST(SampleConformance, LambdaMechanismSessionOverSeveralSteps) {
  // a LambdaMechanism (C++ step function): "inc" moves the count up with probability 2/3, at most
  // to 2; "read" answers the count. The exact law of the answers to inc, read, inc, read comes
  // from the recursion over its kernel (answer_law).
  auto m = std::make_shared<LambdaMechanism<int>>(
      "noisy counter", std::vector<std::string>{"inc", "read"}, [](const int& c, const std::string& msg) {
        std::vector<Outcome<int>> out;
        if (msg == "read") out.push_back({Rational(1), std::to_string(c), c});
        else if (c == 2) out.push_back({Rational(1), invalid_answer, c});
        else out = {{q(2, 3), "up", c + 1}, {q(1, 3), "same", c}};
        return out;
      });
  const StateId s0 = m->state_id(0);
  const std::vector<std::string> script{"inc", "read", "inc", "read", "inc"};
  const auto table = answer_law(*m, s0, script);
  auto source = std::make_shared<SeededSource>("lambda");
  std::map<std::string, long> c;
  for (long i = 0; i < draws / 4; ++i) {
    Session session(m, s0, source);
    std::string seq;
    for (const auto& msg : script) seq += "/" + session.send(msg).answer;
    ++c[seq];
  }
  // by hand: after a first "up", 3 answer paths (the third inc is invalid at 2); after "same", 4
  EXPECT_EQ(table.size(), 7u);
  expect_conforms(c, draws / 4, table);
}


TEST(SampleConformance, EveryLibraryMechanismSessionAgreesWithItsTable) {
  // Every mechanism of the library (library/library_registry.hpp), built from a spec file, run
  // as a live session from an initial state drawn from its world's initial law, against the exact
  // law of the answer sequence: the initial law mixed with answer_law (the recursion over the
  // mechanism's own kernel, computed without the samplers). The script cycles through the
  // mechanism's messages, at most three of them.
  const std::vector<std::pair<const char*, const char*>> library{
      {"rr", R"({"lambda": "3", "delta": "1/10"})"},
      {"sticky-rr", R"({"lambda": "3", "answers": 2})"},
      {"irr", R"({"lambda": "3", "delta": "1/10"})"},
      {"above-threshold", R"({"r_threshold": "1/4", "r_query": "1/2", "queries": 3})"},
      {"svt-counter", R"({"r_threshold": "1/4", "r_query": "1/2", "thresholds": [1], "queries": 3})"},
      {"tree-counter", R"({"height": 2, "r": "1/2"})"},
      {"noisy-increments", R"({"steps": 3, "r": "1/2"})"},
      {"m-delta", R"({"delta": "1/10"})"},
      {"m-delta-interactive", R"({"delta": "1/10"})"},
      {"renyi-gadget", R"({"q": "2/3", "p": "1/4"})"},
      {"mirror", R"({"p": "1/2"})"},
      {"lottery", R"({"n": 4})"},
      {"coin", R"({"pmf": ["1/3", "2/3"]})"},
  };
  for (const auto& [name, params] : library) {
    const std::string text = std::string(R"({"format": "exactdp/1", "mechanism": {"type": "library", "name": ")") + name +
                             R"(", "params": )" + params + "}}";
    Game g = parse_spec(text, std::string("library ") + name);
    const auto& m = *g.mechanism;
    ASSERT_FALSE(m.messages().empty()) << name;
    std::vector<std::string> script;
    for (unsigned i = 0; i < std::min(3u, g.horizon); ++i) script.push_back(m.messages()[i % m.messages().size()]);
    for (int b = 0; b < 2; ++b) {
      std::map<std::string, Rational> table;
      std::vector<std::pair<StateId, Rational>> initial_law;
      for (const auto& [s, p] : g.initial[b]) {
        initial_law.emplace_back(s, p);
        for (const auto& [seq, r] : answer_law(m, s, script)) table[seq] += p * r;
      }
      const Dist<StateId> start(initial_law);
      auto source = std::make_shared<SeededSource>(std::string("library ") + name + std::to_string(b));
      std::map<std::string, long> c;
      const long n = draws / 8;
      for (long i = 0; i < n; ++i) {
        Session session(g.mechanism, sample(*source, start), source);
        std::string seq;
        for (const auto& msg : script) seq += "/" + session.send(msg).answer;
        ++c[seq];
      }
      SCOPED_TRACE(std::string(name) + " world " + std::to_string(b));
      expect_conforms(c, n, table);
    }
  }
}

}  // namespace
}  // namespace exactdp
