// Small random objects for RapidCheck properties. Everything is generated from small integer
// weights, so shrinking ends at readable counterexamples (a pair of 1–2 atoms with weights ≤ 5).
#pragma once

#include "exactdp/divergence/privacy_loss.hpp"
#include "exactdp/numeric/rational.hpp"

#include <rapidcheck.h>

#include <utility>
#include <vector>

namespace exactdp::testing {

/// Integer weights (w_P, w_Q) per outcome; both columns have a positive sum.
inline rc::Gen<std::vector<std::pair<int, int>>> weight_table(int max_outcomes = 5, int max_weight = 5) {
  auto row = rc::gen::pair(rc::gen::inRange(0, max_weight + 1), rc::gen::inRange(0, max_weight + 1));
  return rc::gen::suchThat(
      rc::gen::mapcat(rc::gen::inRange(1, max_outcomes + 1),
                      [row](int n) { return rc::gen::container<std::vector<std::pair<int, int>>>(n, row); }),
      [](const std::vector<std::pair<int, int>>& t) {
        int sp = 0, sq = 0;
        for (auto [p, q] : t) sp += p, sq += q;
        return sp > 0 && sq > 0;
      });
}

/// Normalises a weight table into exact masses (P(y), Q(y)).
inline std::vector<std::pair<Rational, Rational>> masses_of(const std::vector<std::pair<int, int>>& t) {
  int sp = 0, sq = 0;
  for (auto [p, q] : t) sp += p, sq += q;
  std::vector<std::pair<Rational, Rational>> m;
  for (auto [p, q] : t) {
    Rational a(p, sp), b(q, sq);
    a.canonicalize();
    b.canonicalize();
    m.emplace_back(a, b);
  }
  return m;
}

inline PrivacyLoss loss_of(const std::vector<std::pair<int, int>>& t) { return PrivacyLoss::from_masses(masses_of(t)); }

/// A small rational in [0, max], as n/d with d ≤ 12.
inline rc::Gen<Rational> small_rational(int max = 4) {
  return rc::gen::apply(
      [](int n, int d) {
        Rational r(n, d);
        r.canonicalize();
        return r;
      },
      rc::gen::inRange(0, 12 * max + 1), rc::gen::inRange(1, 13));
}

/// A row-stochastic matrix with `rows` rows and 1–3 columns of small integer weights, exact.
inline rc::Gen<std::vector<std::vector<Rational>>> stochastic_matrix(int rows) {
  return rc::gen::mapcat(rc::gen::inRange(1, 4), [rows](int cols) {
    auto row = rc::gen::suchThat(rc::gen::container<std::vector<int>>(cols, rc::gen::inRange(0, 4)),
                                 [](const std::vector<int>& r) {
                                   int s = 0;
                                   for (int x : r) s += x;
                                   return s > 0;
                                 });
    return rc::gen::map(rc::gen::container<std::vector<std::vector<int>>>(rows, row), [](const auto& w) {
      std::vector<std::vector<Rational>> k;
      for (const auto& r : w) {
        int s = 0;
        for (int x : r) s += x;
        std::vector<Rational> kr;
        for (int x : r) {
          Rational v(x, s);
          v.canonicalize();
          kr.push_back(v);
        }
        k.push_back(kr);
      }
      return k;
    });
  });
}

/// The pair (PK, QK) for masses (P, Q) and a stochastic matrix K (post-processing).
inline PrivacyLoss post_process(const std::vector<std::pair<Rational, Rational>>& m,
                                const std::vector<std::vector<Rational>>& k) {
  std::vector<std::pair<Rational, Rational>> out(k.front().size());
  for (std::size_t y = 0; y < m.size(); ++y)
    for (std::size_t z = 0; z < out.size(); ++z) {
      out[z].first += m[y].first * k[y][z];
      out[z].second += m[y].second * k[y][z];
    }
  return PrivacyLoss::from_masses(out);
}

}  // namespace exactdp::testing
