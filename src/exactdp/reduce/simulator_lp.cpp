#include "exactdp/reduce/simulator_lp.hpp"

#include "exactdp/game/engine.hpp"

#include <algorithm>
#include <array>
#include <variant>
#include <memory>
#include <mutex>

// cddlib's exact build: with GMPRATIONAL defined (by the CDD::CDDGMP target) its number type
// `mytype` is mpq_t and dd_LPSolve runs the dual simplex in rational arithmetic.
#include <setoper.h>
#include <cdd.h>

namespace exactdp {

// ------------------------------------------------------------------ one step (KOV)

std::variant<KovPostProcessor, SimulatorRefusal> kov_post_processor(const std::vector<std::pair<Rational, Rational>>& masses,
                                                                    const Rational& lambda, const Rational& delta) {
  if (lambda < 1) throw Error("kov_post_processor", "lambda", to_string(lambda), "lambda = e^epsilon must be at least 1");
  if (sgn(delta) < 0 || delta > 1) throw Error("kov_post_processor", "delta", to_string(delta), "delta must lie in [0, 1]");
  const std::size_t n = masses.size();
  std::array<std::vector<Rational>, 2> p;
  for (const auto& [p0, p1] : masses) {
    if (sgn(p0) < 0 || sgn(p1) < 0) throw Error("kov_post_processor", "masses", to_string(sgn(p0) < 0 ? p0 : p1), "masses must be non-negative");
    p[0].push_back(p0);
    p[1].push_back(p1);
  }
  for (int b = 0; b < 2; ++b) {
    Rational total = 0;
    for (const auto& x : p[b]) total += x;
    if (total != 1) throw Error("kov_post_processor", "masses", to_string(total), "each column must sum to exactly 1");
  }
  KovPostProcessor k;
  std::array<Rational, 2> excess;
  for (int b = 0; b < 2; ++b) {
    Rational total = 0;
    for (std::size_t y = 0; y < n; ++y) {
      k.no_leak_mass[b].push_back(std::min(p[b][y], Rational(lambda * p[1 - b][y])));
      total += k.no_leak_mass[b].back();
    }
    excess[b] = total - (1 - delta);  // = δ − H_λ(P_b‖P_{1−b})
    if (sgn(excess[b]) < 0)
      return SimulatorRefusal{"H_λ(P" + std::to_string(b) + "‖P" + std::to_string(1 - b) + ") = " + to_string(Rational(1 - total)) +
                                  " > δ = " + to_string(delta) + ": the pair is not (ln " + to_string(lambda) + ", " + to_string(delta) +
                                  ")-indistinguishable, so no post-processor of RR exists",
                              std::nullopt};
  }
  // remove the excess; the new values stay within the ratio constraints because each is the
  // largest of (old − excess) and 1/λ times the other's *lowest possible* new value
  auto& u = k.no_leak_mass;
  for (std::size_t y = 0; y < n; ++y) {
    const Rational u0 = std::max({Rational(u[0][y] - excess[0]), Rational((u[1][y] - excess[1]) / lambda), Rational(0)});
    const Rational u1 = std::max({Rational(u[1][y] - excess[1]), Rational((u[0][y] - excess[0]) / lambda), Rational(0)});
    excess[0] -= u[0][y] - u0;
    excess[1] -= u[1][y] - u1;
    u[0][y] = u0;
    u[1][y] = u1;
  }
  if (sgn(excess[0]) != 0 || sgn(excess[1]) != 0)
    return SimulatorRefusal{"the excess no-leak mass could not be removed (left over " + to_string(excess[0]) + ", " + to_string(excess[1]) +
                                "): this contradicts B.10 and is a bug",
                            std::nullopt};
  for (int b = 0; b < 2; ++b)
    for (std::size_t y = 0; y < n; ++y) {
      k.leak[b].push_back(sgn(delta) == 0 ? p[b][y] : Rational((p[b][y] - u[b][y]) / delta));
      if (delta == 1) k.no_leak[b].push_back(p[b][y]);
      else if (lambda == 1) k.no_leak[b].push_back(u[b][y] / (1 - delta));
      else k.no_leak[b].push_back((lambda * u[b][y] - u[1 - b][y]) / ((1 - delta) * (lambda - 1)));
    }
  return k;
}

// ------------------------------------------------------------------ multi-step LP

std::vector<std::size_t> identical_law_nodes(const LikelihoodTree& tree) {
  std::vector<char> tied(tree.nodes.size(), 0);
  tied[0] = 1;
  std::vector<std::size_t> out;
  for (std::size_t n = 0; n < tree.nodes.size(); ++n) {
    if (!tied[n]) continue;
    for (const auto& br : tree.nodes[n].branches) {
      const bool same = std::all_of(br.children.begin(), br.children.end(), [&](const auto& k) {
        return tree.nodes[k.node].likelihood[0] == tree.nodes[k.node].likelihood[1];
      });
      if (!same) continue;
      for (const auto& k : br.children) tied[k.node] = 1, out.push_back(k.node);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

namespace {

void init_cdd() {
  static std::once_flag once;
  std::call_once(once, [] { dd_set_global_constants(); });
}

/// A row of the LP in cddlib's form b + a·x ≥ 0 (or = 0 in the linearity set).
struct Row {
  Rational constant;
  std::vector<std::pair<std::size_t, Rational>> terms;  ///< (variable, coefficient)
  bool equality = false;
};

/// Owns cddlib objects.
struct MatrixDeleter {
  void operator()(dd_MatrixType* m) const { dd_FreeMatrix(m); }
};
struct LpDeleter {
  void operator()(dd_LPType* lp) const { dd_FreeLPData(lp); }
};

enum class LpStatus { feasible, infeasible };

LpStatus solve_rows(std::size_t variables, const std::vector<Row>& rows, std::vector<Rational>& solution);

/// A Farkas certificate of infeasibility for the rows, checked here in exact arithmetic. With the
/// sign rows x_j ≥ 0 kept apart: weights y_i on the other rows (≥ 0 on inequalities, free on
/// equalities) with Σ_i y_i·b_i = −1 and c_j = Σ_i y_i·a_ij ≤ 0 for every variable with a sign row
/// (= 0 for the others). Then Σ_i y_i·(b_i + a_i·x) = −1 + Σ_j c_j·x_j < 0 for every x ≥ 0, while a
/// solution would make every term ≥ 0 — so none exists. The certificate is found by a second exact
/// LP (cddlib) but *verified* by the products computed below, so the verdict does not rest on the
/// solver's status flag alone. Returns the number of rows with a non-zero weight, or std::nullopt.
std::optional<std::size_t> farkas_certificate(std::size_t variables, const std::vector<Row>& rows) {
  auto is_sign_row = [](const Row& r) {
    return !r.equality && sgn(r.constant) == 0 && r.terms.size() == 1 && sgn(r.terms[0].second) > 0;
  };
  std::vector<char> signed_variable(variables, 0);
  std::vector<std::size_t> kept;  // the rows that get a weight y
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (is_sign_row(rows[i])) signed_variable[rows[i].terms[0].first] = 1;
    else kept.push_back(i);
  }
  // unknowns y_k for the kept rows (cddlib variables are free)
  std::vector<Row> dual;
  for (std::size_t k = 0; k < kept.size(); ++k)
    if (!rows[kept[k]].equality) dual.push_back({Rational(0), {{k, Rational(1)}}, false});
  std::vector<Row> columns(variables, Row{Rational(0), {}, true});
  for (std::size_t j = 0; j < variables; ++j) columns[j].equality = !signed_variable[j];  // −c_j ≥ 0 or c_j = 0
  Row normal{Rational(1), {}, true};  // 1 + Σ y_k b_k = 0
  for (std::size_t k = 0; k < kept.size(); ++k) {
    const Row& r = rows[kept[k]];
    for (const auto& [j, a] : r.terms) columns[j].terms.push_back({k, Rational(-a)});
    if (sgn(r.constant) != 0) normal.terms.push_back({k, r.constant});
  }
  for (auto& c : columns) dual.push_back(std::move(c));
  dual.push_back(std::move(normal));
  std::vector<Rational> y;
  if (solve_rows(kept.size(), dual, y) != LpStatus::feasible) return std::nullopt;
  // exact check of the certificate, independent of the solver
  std::vector<Rational> combination(variables, Rational(0));
  Rational constant = 0;
  std::size_t support = 0;
  for (std::size_t k = 0; k < kept.size(); ++k) {
    const Row& r = rows[kept[k]];
    if (sgn(y[k]) == 0) continue;
    if (!r.equality && sgn(y[k]) < 0) return std::nullopt;
    ++support;
    constant += y[k] * r.constant;
    for (const auto& [j, a] : r.terms) combination[j] += y[k] * a;
  }
  if (constant != -1) return std::nullopt;
  for (std::size_t j = 0; j < variables; ++j)
    if (signed_variable[j] ? sgn(combination[j]) > 0 : sgn(combination[j]) != 0) return std::nullopt;
  return support;
}

/// Solves "find x with the rows" exactly (objective 0); returns the status and a solution.
LpStatus solve_rows(std::size_t variables, const std::vector<Row>& rows, std::vector<Rational>& solution) {
  init_cdd();
  std::unique_ptr<dd_MatrixType, MatrixDeleter> m(
      dd_CreateMatrix(static_cast<dd_rowrange>(rows.size()), static_cast<dd_colrange>(variables + 1)));
  m->representation = dd_Inequality;
  m->numbtype = dd_Rational;
  m->objective = dd_LPmax;  // rowvec stays 0: a pure feasibility problem
  for (std::size_t i = 0; i < rows.size(); ++i) {
    mpq_set(m->matrix[i][0], rows[i].constant.get_mpq_t());
    for (const auto& [j, a] : rows[i].terms) mpq_set(m->matrix[i][j + 1], a.get_mpq_t());
    if (rows[i].equality) set_addelem(m->linset, static_cast<long>(i + 1));
  }
  dd_ErrorType err = dd_NoError;
  std::unique_ptr<dd_LPType, LpDeleter> lp(dd_Matrix2LP(m.get(), &err));
  if (err != dd_NoError || !lp) throw Error("lp_simulator", "cddlib", std::to_string(static_cast<int>(err)), "dd_Matrix2LP failed");
  dd_LPSolve(lp.get(), dd_DualSimplex, &err);
  if (err != dd_NoError) throw Error("lp_simulator", "cddlib", std::to_string(static_cast<int>(err)), "dd_LPSolve failed");
  switch (lp->LPS) {
    case dd_Optimal:
      solution.assign(variables, Rational(0));
      for (std::size_t j = 0; j < variables; ++j) mpq_set(solution[j].get_mpq_t(), lp->sol[j + 1]);
      return LpStatus::feasible;
    case dd_Inconsistent:
    case dd_StrucInconsistent:
      return LpStatus::infeasible;
    default:
      throw Error("lp_simulator", "cddlib", std::to_string(static_cast<int>(lp->LPS)), "unexpected LP status");
  }
}

}  // namespace

std::uint64_t lp_memory_estimate(const LikelihoodTree& tree, const Rational& delta, bool irr_constraints) {
  // the reduced LP of lp_simulator: 2 unknowns per node; rows: their signs, the root, one system
  // equation per branch and per b, one leaf row per full history and b, and the (S3) rows
  const std::uint64_t n = tree.nodes.size();
  std::uint64_t branches = 0;
  for (const auto& node : tree.nodes) branches += node.branches.size();
  const std::uint64_t rows = 2 * n + 2 + 2 * branches + 2 * tree.full_histories().size() + (irr_constraints ? n : 0);
  const std::uint64_t cols = 2 * n + 1;
  (void)delta;
  // cddlib keeps the constraint matrix and the LP's tableau (rows + 1) × cols, and a cols × cols
  // basis inverse, all as dense mpq_t entries: 32 bytes of header and two limb allocations
  // (about 48 bytes with malloc's overhead) per entry at least
  const std::uint64_t entries = 2 * rows * cols + cols * cols;
  return entries * 80;
}

namespace {

/// The values of the four systems (φ⁰, φ¹, ψ⁰, ψ¹) at every node, or a refusal.
using LpValues = std::array<std::vector<Rational>, 4>;
using LpOutcome = std::variant<LpValues, SimulatorRefusal>;

/// φ^b(h) = (M^b(h) − c(λψ^b(h) + ψ^{1−b}(h)))/δ at every node from ψ (φ^b = M^b when δ = 0: never used).
void leak_from_no_leak(const LikelihoodTree& tree, const Rational& lambda, const Rational& delta, LpValues& values) {
  const Rational c = (1 - delta) / (1 + lambda);
  for (std::size_t n = 0; n < tree.nodes.size(); ++n)
    for (int b = 0; b < 2; ++b) {
      const Rational& m = tree.nodes[n].likelihood[b];
      values[b][n] = sgn(delta) == 0 ? m : Rational((m - c * (lambda * values[2 + b][n] + values[3 - b][n])) / delta);
    }
}

LpOutcome dense_lp(const LikelihoodTree& tree, const Rational& lambda, const Rational& delta, const SimulatorLpOptions& options) {
  const std::size_t N = tree.nodes.size();
  const std::uint64_t memory = lp_memory_estimate(tree, delta, options.irr_constraints);
  if (memory > options.max_memory_bytes) {
    auto gib = [](std::uint64_t bytes) {
      return std::to_string(bytes >> 30) + "." + std::to_string(((bytes & ((std::uint64_t{1} << 30) - 1)) * 10) >> 30) + " GiB";
    };
    throw Error("lp_simulator", "memory", std::to_string(memory) + " bytes",
                "the dense exact LP (cddlib) on " + std::to_string(N) + " histories is estimated to need " + gib(memory) +
                    ", above the limit of " + gib(options.max_memory_bytes) + "; use the subtree solver or a smaller horizon");
  }
  // values[i][n]: the likelihood at node n of system i (φ⁰, φ¹, ψ⁰, ψ¹)
  LpValues values;
  for (auto& v : values) v.assign(N, Rational(0));
  std::vector<Rational> x;
  std::vector<Row> rows;
  const std::size_t unknowns = 2 * N;
  if (delta == 1) {
    // RR_{ε,1} always leaks: φ^b = M^b, and the no-leak systems are never run (take ψ^b = M^b)
    for (std::size_t n = 0; n < N; ++n)
      for (int b = 0; b < 2; ++b) values[b][n] = values[2 + b][n] = tree.nodes[n].likelihood[b];
  } else {
    // Reduced form of (S0)–(S3): with c = (1−δ)/(1+λ), (S2) says δφ^b(h) = M^b(h) − c(λψ^b(h) + ψ^{1−b}(h))
    // at full histories. For δ > 0 this *defines* φ^b there, and φ^b is then a system with φ^b(∅) = 1
    // automatically (M^b is a system, ψ^b are systems with ψ^b(∅) = 1, and c(λ + 1) = 1 − δ), so only
    // φ^b ≥ 0 remains: c(λψ^b + ψ^{1−b}) ≤ M^b. For δ = 0 the leak systems carry no weight and (S2) is
    // the equality c(λψ^b + ψ^{1−b}) = M^b. Unknowns: ψ^b(h) ≥ 0 at every node (index 2n + b).
    auto var = [](int b, std::size_t n) { return 2 * n + static_cast<std::size_t>(b); };
    const Rational c = (1 - delta) / (1 + lambda);
    for (std::size_t j = 0; j < unknowns; ++j) rows.push_back({Rational(0), {{j, Rational(1)}}, false});  // ψ ≥ 0
    for (int b = 0; b < 2; ++b) rows.push_back({Rational(-1), {{var(b, 0), Rational(1)}}, true});  // (S0)
    for (std::size_t n = 0; n < N; ++n)
      for (const auto& br : tree.nodes[n].branches)
        for (int b = 0; b < 2; ++b) {  // (S1)
          Row r{Rational(0), {{var(b, n), Rational(-1)}}, true};
          for (const auto& k : br.children) r.terms.push_back({var(b, k.node), Rational(1)});
          rows.push_back(std::move(r));
        }
    for (std::size_t n : tree.full_histories())
      for (int b = 0; b < 2; ++b)  // (S2): M^b − c(λψ^b + ψ^{1−b}) ≥ 0 (= 0 when δ = 0)
        rows.push_back({tree.nodes[n].likelihood[b], {{var(b, n), Rational(-c * lambda)}, {var(1 - b, n), Rational(-c)}}, sgn(delta) == 0});
    if (options.irr_constraints)
      // (S3) at a node reached through identical-law steps only: there M⁰(h) = M¹(h), so φ⁰(h) = φ¹(h)
      // follows from ψ⁰(h) = ψ¹(h) (for δ > 0 by the formula above; for δ = 0 φ carries no weight)
      for (std::size_t n : identical_law_nodes(tree)) rows.push_back({Rational(0), {{var(0, n), Rational(1)}, {var(1, n), Rational(-1)}}, true});
    if (solve_rows(unknowns, rows, x) == LpStatus::infeasible) {
      const auto support = farkas_certificate(unknowns, rows);
      if (!support)
        throw Error("lp_simulator", "cddlib", "infeasible", "the solver reported infeasibility but no Farkas certificate could be verified");
      return SimulatorRefusal{std::string("the exact LP of HSV Lemma 4.7") + (options.irr_constraints ? " with the IRR constraints (S3) of HSV Lemma 5.6(2)" : "") +
                                  " is infeasible at λ = " + to_string(lambda) + ", δ = " + to_string(delta) + " (cddlib, exact rational dual simplex; " +
                                  std::to_string(unknowns) + " unknowns ψ^b(h) after eliminating φ^b, " + std::to_string(rows.size()) +
                                  " constraints; a Farkas certificate combining " + std::to_string(*support) +
                                  " of them with ψ ≥ 0 into a contradiction was verified exactly)",
                              std::nullopt};
    }
    for (std::size_t n = 0; n < N; ++n)
      for (int b = 0; b < 2; ++b) values[2 + b][n] = x[var(b, n)];
    leak_from_no_leak(tree, lambda, delta, values);
  }
  return values;
}

// ---------------------------------------------------------------- the subtree (polygon) solver
//
// The reduced LP couples a node's unknowns p(h) = (ψ⁰(h), ψ¹(h)) with its children only, so its
// feasible set factorises over subtrees: F_h, the set of values p(h) for which the subtree at h can
// meet all its constraints, is a convex polygon in [0, 1]² (every ψ value lies below the root's 1),
//   F_leaf = {p ≥ 0 : c(λu + v) ≤ M⁰(h), c(λv + u) ≤ M¹(h)}           (equalities when δ = 0),
//   F_h    = [0, 1]² ∩ ⋂_{branches q} (F_{h∘(q,a₁)} ⊕ … ⊕ F_{h∘(q,a_m)})  (Minkowski sums),
// intersected with the diagonal u = v at the nodes (S3) ties. The LP is feasible iff (1, 1) ∈ F_∅,
// and a solution is read off top-down by splitting each node's value among the children of each
// branch (p_k ∈ F_{a_k} ∩ (rest − F_{a_{k+1}} ⊕ …)). All of it is exact 2-D geometry over ℚ.

struct Point {
  Rational x, y;
  friend bool operator==(const Point&, const Point&) = default;
};

bool lex_less(const Point& a, const Point& b) { return a.x < b.x || (a.x == b.x && a.y < b.y); }

Rational cross(const Point& o, const Point& a, const Point& b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); }

/// A convex polygon: its vertices counter-clockwise without repeats or collinear points; 0 vertices
/// = empty, 1 = a point, 2 = a segment.
using Polygon = std::vector<Point>;

Polygon hull(std::vector<Point> pts) {
  std::sort(pts.begin(), pts.end(), lex_less);
  pts.erase(std::unique(pts.begin(), pts.end()), pts.end());
  if (pts.size() <= 1) return pts;
  std::vector<Point> h(2 * pts.size());
  std::size_t k = 0;
  for (const auto& p : pts) {  // lower chain
    while (k >= 2 && sgn(cross(h[k - 2], h[k - 1], p)) <= 0) --k;
    h[k++] = p;
  }
  for (std::size_t i = pts.size() - 1, t = k + 1; i-- > 0;) {  // upper chain
    while (k >= t && sgn(cross(h[k - 2], h[k - 1], pts[i])) <= 0) --k;
    h[k++] = pts[i];
  }
  h.resize(k - 1);
  return h;
}

/// a·x + b·y ≤ c
struct HalfPlane {
  Rational a, b, c;
};

Polygon clip(const Polygon& poly, const HalfPlane& hp) {
  if (poly.empty()) return poly;
  auto side = [&](const Point& p) -> Rational { return hp.a * p.x + hp.b * p.y - hp.c; };  // ≤ 0 inside
  if (poly.size() == 1) return sgn(side(poly[0])) <= 0 ? poly : Polygon{};
  std::vector<Point> out;
  for (std::size_t i = 0; i < poly.size(); ++i) {
    const Point& p = poly[i];
    const Point& q = poly[(i + 1) % poly.size()];
    const Rational sp = side(p), sq = side(q);
    if (sgn(sp) <= 0) out.push_back(p);
    if ((sgn(sp) < 0 && sgn(sq) > 0) || (sgn(sp) > 0 && sgn(sq) < 0)) {
      const Rational t = sp / (sp - sq);
      out.push_back({p.x + t * (q.x - p.x), p.y + t * (q.y - p.y)});
    }
  }
  return hull(std::move(out));
}

std::vector<HalfPlane> half_planes(const Polygon& poly) {
  std::vector<HalfPlane> out;
  if (poly.size() == 1) {
    const Point& p = poly[0];
    return {{1, 0, p.x}, {-1, 0, -p.x}, {0, 1, p.y}, {0, -1, -p.y}};
  }
  if (poly.size() == 2) {
    const Point &p = poly[0], &q = poly[1];
    const Rational nx = q.y - p.y, ny = p.x - q.x, dx = q.x - p.x, dy = q.y - p.y;
    return {{nx, ny, nx * p.x + ny * p.y}, {-nx, -ny, -(nx * p.x + ny * p.y)}, {dx, dy, dx * q.x + dy * q.y}, {-dx, -dy, -(dx * p.x + dy * p.y)}};
  }
  for (std::size_t i = 0; i < poly.size(); ++i) {
    const Point& p = poly[i];
    const Point& q = poly[(i + 1) % poly.size()];
    const Rational a = q.y - p.y, b = p.x - q.x;  // interior on the left of p → q
    out.push_back({a, b, a * p.x + b * p.y});
  }
  return out;
}

Polygon intersect(Polygon a, const Polygon& b) {
  if (b.empty()) return {};
  for (const auto& hp : half_planes(b)) a = clip(a, hp);
  return a;
}

Polygon minkowski(const Polygon& a, const Polygon& b) {
  if (a.empty() || b.empty()) return {};
  std::vector<Point> pts;
  pts.reserve(a.size() * b.size());
  for (const auto& p : a)
    for (const auto& q : b) pts.push_back({p.x + q.x, p.y + q.y});
  return hull(std::move(pts));
}

Polygon negate_shift(const Polygon& a, const Point& shift) {  // shift − a
  std::vector<Point> pts;
  for (const auto& p : a) pts.push_back({shift.x - p.x, shift.y - p.y});
  return hull(std::move(pts));
}

Point representative(const Polygon& poly) {  // the average of the vertices: inside, canonical
  Point s{Rational(0), Rational(0)};
  for (const auto& p : poly) s.x += p.x, s.y += p.y;
  const Rational n(static_cast<long>(poly.size()));
  return {s.x / n, s.y / n};
}

std::string describe(const Polygon& poly) {
  std::string out;
  for (const auto& p : poly) out += (out.empty() ? "" : ", ") + std::string("(") + to_string(p.x) + ", " + to_string(p.y) + ")";
  return "{" + out + "}";
}

LpOutcome subtree_lp(const LikelihoodTree& tree, const Rational& lambda, const Rational& delta, const SimulatorLpOptions& options) {
  const std::size_t N = tree.nodes.size();
  LpValues values;
  for (auto& v : values) v.assign(N, Rational(0));
  if (delta == 1) {  // as in dense_lp: φ^b = ψ^b = M^b
    for (std::size_t n = 0; n < N; ++n)
      for (int b = 0; b < 2; ++b) values[b][n] = values[2 + b][n] = tree.nodes[n].likelihood[b];
    return values;
  }
  const Rational c = (1 - delta) / (1 + lambda);
  const Polygon box = hull({{0, 0}, {1, 0}, {1, 1}, {0, 1}});
  std::vector<char> tied(N, 0);
  if (options.irr_constraints)
    for (std::size_t n : identical_law_nodes(tree)) tied[n] = 1;
  const HalfPlane below_diagonal{1, -1, 0}, above_diagonal{-1, 1, 0};
  std::vector<Polygon> F(N);
  for (std::size_t n = N; n-- > 0;) {  // children follow their parents, so this is bottom-up
    const auto& node = tree.nodes[n];
    Polygon f = box;
    if (tree.is_full(n)) {
      const Rational &m0 = node.likelihood[0], &m1 = node.likelihood[1];
      f = clip(f, {c * lambda, c, m0});  // φ⁰ ≥ 0
      f = clip(f, {c, c * lambda, m1});  // φ¹ ≥ 0
      if (sgn(delta) == 0) f = clip(clip(f, {-c * lambda, -c, -m0}), {-c, -c * lambda, -m1});  // equalities
    }
    for (const auto& br : node.branches) {
      Polygon sum = {{Rational(0), Rational(0)}};
      for (const auto& k : br.children) sum = minkowski(sum, F[k.node]);
      f = intersect(f, sum);
      if (f.empty()) break;
    }
    if (tied[n]) f = clip(clip(f, below_diagonal), above_diagonal);
    F[n] = std::move(f);
  }
  const Point one{Rational(1), Rational(1)};
  if (intersect(Polygon{one}, F[0]).empty())
    return SimulatorRefusal{std::string("the exact LP of HSV Lemma 4.7") + (options.irr_constraints ? " with the IRR constraints (S3) of HSV Lemma 5.6(2)" : "") +
                                " is infeasible at λ = " + to_string(lambda) + ", δ = " + to_string(delta) +
                                ": propagating the feasible sets of (ψ⁰, ψ¹) up the " + std::to_string(N) +
                                " histories exactly (2-D polygons over the rationals) leaves the root set " + describe(F[0]) + ", which misses (1, 1)",
                            std::nullopt};
  // top-down: split each node's value among the children of every branch
  std::vector<Point> p(N);
  p[0] = one;
  for (std::size_t n = 0; n < N; ++n) {
    for (const auto& br : tree.nodes[n].branches) {
      const std::size_t m = br.children.size();
      std::vector<Polygon> suffix(m + 1, Polygon{{Rational(0), Rational(0)}});
      for (std::size_t k = m; k-- > 0;) suffix[k] = minkowski(F[br.children[k].node], suffix[k + 1]);
      Point rest = p[n];
      for (std::size_t k = 0; k < m; ++k) {
        const Polygon choice = intersect(F[br.children[k].node], negate_shift(suffix[k + 1], rest));
        if (choice.empty()) throw Error("lp_simulator", "subtree", tree.describe(n), "a value of the feasible set could not be split among the answers: this is a bug");
        const Point pick = k + 1 == m ? rest : representative(choice);
        p[br.children[k].node] = pick;
        rest = {rest.x - pick.x, rest.y - pick.y};
      }
    }
  }
  for (std::size_t n = 0; n < N; ++n) values[2][n] = p[n].x, values[3][n] = p[n].y;
  leak_from_no_leak(tree, lambda, delta, values);
  return values;
}

}  // namespace

SimulatorBuild lp_simulator(const LikelihoodTree& tree, const Rational& lambda, const Rational& delta,
                            const SimulatorLpOptions& options) {
  if (lambda < 1) throw Error("lp_simulator", "lambda", to_string(lambda), "lambda = e^epsilon must be at least 1");
  if (sgn(delta) < 0 || delta > 1) throw Error("lp_simulator", "delta", to_string(delta), "delta must lie in [0, 1]");
  const std::size_t N = tree.nodes.size();
  if (N > options.max_nodes) throw GameTooLarge("lp_simulator", N, options.max_nodes, "history nodes for the exact LP");
  LpOutcome outcome;
  if (options.solver == LpSolver::dense) {
    outcome = dense_lp(tree, lambda, delta, options);
  } else {
    outcome = subtree_lp(tree, lambda, delta, options);
    // an infeasible verdict is confirmed by the dense LP and its checked Farkas certificate while that is cheap
    if (std::holds_alternative<SimulatorRefusal>(outcome) && N <= options.dense_confirmation_nodes &&
        lp_memory_estimate(tree, delta, options.irr_constraints) <= options.max_memory_bytes) {
      auto dense = dense_lp(tree, lambda, delta, options);
      if (!std::holds_alternative<SimulatorRefusal>(dense))
        throw Error("lp_simulator", "solvers", "disagree", "the subtree polygons found no solution but the dense LP did: this is a bug");
      auto& r = std::get<SimulatorRefusal>(outcome);
      r.reason = std::get<SimulatorRefusal>(dense).reason + "; the subtree polygons agree (root set " + r.reason.substr(r.reason.rfind("root set ") + 9);
      r.reason += ")";
    }
  }
  if (auto* r = std::get_if<SimulatorRefusal>(&outcome)) return *r;
  const LpValues& values = std::get<LpValues>(outcome);
  Simulator sim;
  sim.method = options.irr_constraints ? "lp+irr" : "lp";
  sim.lambda = lambda;
  sim.delta = delta;
  const auto outputs = rr_outputs(lambda, delta);
  const char* names[4] = {"φ^0", "φ^1", "ψ^0", "ψ^1"};
  for (int i = 0; i < 4; ++i) {
    SimulatorSystem s{names[i], outputs[i], {}};
    s.conditional.resize(N);
    for (std::size_t n = 0; n < N; ++n) {
      const Rational& den = values[i][n];
      for (const auto& br : tree.nodes[n].branches) {
        std::vector<Rational> law;
        for (const auto& k : br.children)
          law.push_back(sgn(den) == 0 ? Rational(1, static_cast<unsigned long>(br.children.size())) : Rational(values[i][k.node] / den));
        s.conditional[n].push_back(std::move(law));
      }
    }
    sim.systems.push_back(std::move(s));
  }
  return sim;
}

}  // namespace exactdp
