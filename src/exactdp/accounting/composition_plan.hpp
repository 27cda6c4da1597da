/// @file
/// The one composition planner: given the components of a composition (mechanism specs or exact
/// pairs, each used some number of times), choose how its privacy is computed, under one memory
/// budget, and compute it along that route. `exactdp compose`, `exactdp audit` and the Python
/// package all ask here; none of them estimates sizes or picks a route itself.
///
/// Routes, tried in this order (the first that applies and fits is taken):
///
/// | route | when | what it gives |
/// |---|---|---|
/// | exact | every component has rational tables, and the composed privacy-loss distribution is estimated to fit the budget | the exact PLD: exact δ(λ), least λ, trade-off |
/// | binomial closed form | one component, randomized response (any λ or ε, any δ) or the discrete Laplace with sensitivity 1 | certified δ(ε) and least ε in time about √k (BinomialComposition) |
/// | certified PLD | every component is finite (exact ratios, certified masses) and the composed PLD is estimated to fit | certified δ(ε), least ε |
/// | certified PLD, subsampled | one Poisson-subsampled spec with certified masses (dlaplace:a, rr/krr by epsilon, truncated dgauss), one use | certified δ(ε), least ε at working precision (amplification/subsampled_loss.hpp); several uses take the fast convolution with the rate |
/// | fast convolution | one finite component (exact pair, rr, krr, dlaplace, …, unsampled) whose certified PLD does not fit or has more than max_certified_atoms atoms | certified bracket of δ(ε) and least ε by quasi-linear convolution (compose/fast_convolution.hpp): exact grid for lattice losses (k-ary RR, discrete Laplace of any sensitivity) |
/// | closed form | one component whose family composes in closed form (gauss: GDP; dgauss, laplace: one use; one use of a Gaussian mixture or a Poisson-subsampled Gaussian, bounds/gaussian_mixture.hpp; one use of a Poisson-subsampled Laplace mechanism, bounds/subsampled_laplace.hpp) | certified δ(ε), least ε |
/// | closed form (GDP) | several unsampled gauss components, any σ and sensitivity each | certified δ(ε), least ε of μ-GDP with μ² = Σ times·(Δ/σ)² (DRS22 Cor 3.3) |
/// | grid bracket | (only when asked: the audit and `exactdp compose` ask) one Poisson-subsampled gauss or laplace, or a laplace used more than once; or several components, each a gauss or laplace (subsampled or not; heterogeneous Laplace mechanisms) | certified bracket (amplification/poisson.hpp) of δ(ε) and the least ε |
/// | Rényi conversion | otherwise | Rényi divergences add; an RDP upper bound on ε |
///
/// The exact route is skipped, not refused, when it does not fit: a 10⁸-fold randomized response
/// (whose exact PLD would take petabytes) is answered by the binomial closed form in well under a
/// second. Only when no route gives what was asked does the caller refuse, naming the budget.
#pragma once

#include "exactdp/accounting/binomial_composition.hpp"
#include "exactdp/accounting/mechanism_spec.hpp"
#include "exactdp/amplification/poisson.hpp"
#include "exactdp/bounds/gaussian_mixture.hpp"
#include "exactdp/bounds/subsampled_laplace.hpp"
#include "exactdp/amplification/subsampled_loss.hpp"
#include "exactdp/divergence/direction.hpp"
#include "exactdp/divergence/hockey_stick.hpp"
#include "exactdp/divergence/privacy_loss.hpp"
#include "exactdp/divergence/privacy_loss.hpp"
#include "exactdp/numeric/interval.hpp"
#include "exactdp/numeric/rational.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace exactdp {

/// The composition planner's memory budget, in bytes: 1 GiB. The one constant behind the planner
/// (compose, audit, Python's epsilon_at/delta_at/compose, the theorem checks); `--max-memory` (MiB)
/// of `exactdp compose` and `exactdp audit`, and `max_memory` (bytes) in Python, override it. It
/// bounds the estimated size of one composed privacy-loss distribution; a route above it is not
/// refused but replaced by a cheaper certified one, so the budget is small (an exact composition
/// estimated above it is also slow: its masses carry thousands of digits per atom). It is not the
/// game engine's memo budget (game/engine.hpp, default_engine_memory_budget, 8 GiB): the engine
/// has no cheaper route and refuses a game above its budget, so the two defaults differ.
inline constexpr std::uint64_t default_memory_budget = std::uint64_t{1} << 30;
/// The most uses of one component a front end accepts (`compose --times`, Python's `times`).
inline constexpr unsigned long max_composition_uses = 100000000;

/// One component of a composition: a library mechanism (spec) or an exact pair, used `times`
/// times. A Poisson-subsampled component with exact tables is carried as its subsampled pair;
/// a subsampled Gaussian keeps its spec and its rate (only a grid bracket answers it).
struct CompositionComponent {
  std::string source;                   ///< as written (spec text or file name)
  std::optional<MechanismSpec> spec;    ///< a library mechanism
  std::optional<PrivacyLoss> pair;      ///< an exact pair (file, or a subsampled table)
  unsigned long times = 1;
  std::optional<Rational> sampling_rate;  ///< Poisson subsampling kept symbolic (gauss only)
  /// A Gaussian mixture (gauss only, not subsampled): the record contributes c_i·Δ with probability
  /// w_i (Δ the spec's sensitivity; bounds/gaussian_mixture.hpp); empty: the plain mechanism.
  std::vector<MixtureComponent> mixture = {};

  /// The Gaussian mixture this component is, if any: a gauss spec with a mixture, or a gauss spec
  /// Poisson-subsampled at q, which is the mixture {(0, 1 − q), (Δ, q)}.
  std::optional<GaussianMixture> gaussian_mixture() const;

  /// The exact loss of one use, if the component has rational tables.
  std::optional<PrivacyLoss> exact_loss() const;
  /// The certified loss of one use, if the component is finite.
  std::optional<CertifiedLoss> certified_loss(Precision precision) const;
  /// One line for reports.
  std::string describe() const;
};

/// @p component Poisson-subsampled at rate @p rate (0 ≤ rate ≤ 1; 0 gives the identical pair) under add/remove neighbouring
/// (amplification/poisson.hpp): a component with exact tables becomes its subsampled pair (the
/// base pair must be symmetric; one orientation then suffices); a Gaussian keeps its spec and the
/// rate (only a grid bracket answers it) when @p keep_gaussian, and so does the continuous Laplace
/// mechanism; a spec with certified masses (dlaplace by a or epsilon, rr/krr by epsilon, truncated
/// dgauss) keeps its spec and the rate (SubsampledCertifiedLoss for one use, the fast convolution
/// for several); every other case is refused
/// with exactdp::Error(@p where, "", source, why).
CompositionComponent poisson_subsampled(CompositionComponent component, const Rational& rate, bool keep_gaussian,
                                        const std::string& where);

/// Parses a sensitivity mixture "mixture:C=W,C=W,…" (C ≥ 0 a multiple of the mechanism's
/// sensitivity, W > 0 its probability, exact numbers; the probabilities must sum to exactly 1, or
/// to less, the rest going to C = 0). The reader behind `exactdp compose --sampling mixture:…` and
/// Python's MixtureOfGaussiansDpEvent. Errors: exactdp::Error with an empty `where`, the whole text
/// as value, field "" (not of this form), "C" or "W" (an unparsable or out-of-range number),
/// "weights" (a sum above 1).
std::vector<MixtureComponent> parse_sensitivity_mixture(std::string_view text);

/// @p component (a gauss spec, not subsampled) with the record's contribution drawn from
/// @p mixture; otherwise exactdp::Error(@p where, "", source, why).
CompositionComponent sensitivity_mixture(CompositionComponent component, std::vector<MixtureComponent> mixture,
                                         const std::string& where);

/// How a composition is computed (see the table in the file comment).
enum class CompositionRoute { exact, binomial, certified_loss, fast_convolution, closed_form, grid_bracket, renyi };

/// "exact", "binomial", "certified_loss", "fast_convolution", "closed_form", "grid_bracket", "renyi".
std::string to_string(CompositionRoute route);

/// What the planner may use.
struct PlanOptions {
  /// The memory budget in bytes for a composed privacy-loss distribution (exact or certified).
  std::uint64_t memory_budget = default_memory_budget;
  /// Above this many atoms (PrivacyLoss::self_compose_size_bound) the exact route is not taken
  /// even when it fits in memory: composing that many exact atoms takes minutes. A time limit.
  std::size_t max_exact_atoms = 200000;
  /// Above this many atoms of the composed certified PLD a single component takes the fast
  /// convolution route instead (quasi-linear; the certified PLD's products grow quadratically).
  std::size_t max_certified_atoms = 20000;
  /// Take the exact route whenever the tables are rational, whatever the estimate (`--force`).
  bool force_exact = false;
  /// Whether the grid-bracket route may be chosen (the audit runs it; compose does not).
  bool grid_brackets = false;
  /// Grid points per standard deviation of the grid-bracket route (GridOptions::resolution):
  /// callers that refine intersect the brackets of rising resolutions.
  unsigned grid_resolution = 32;
  /// The least per-law point cap of the grid-bracket route (GridOptions::max_points; a larger law is
  /// re-gridded coarser): the route allows max(this, GridOptions' default, 64 × grid_resolution).
  /// The audit raises it with its point budget, so that a larger budget buys finer laws.
  std::size_t grid_max_points = 0;
};

/// The route chosen for a composition, with the estimates behind the choice.
struct CompositionPlan {
  CompositionRoute route = CompositionRoute::renyi;
  /// Estimated bytes of the exact composed PLD; absent when some component has no exact tables.
  std::optional<Integer> exact_bytes;
  /// Estimated atoms of the exact composed PLD (PrivacyLoss::self_compose_size_bound, saturating).
  std::optional<Integer> exact_atoms;
  /// The budget the choice was made under.
  std::uint64_t memory_budget = default_memory_budget;
  unsigned grid_resolution = 32;  ///< PlanOptions::grid_resolution
  /// fast_convolution off a lattice: 0 for the route's own schedule (FastCompositionOptions: the
  /// resolutions 64 … 1024 until its default width), else exactly this resolution
  /// (CompositionQuery's refinement).
  unsigned fast_resolution = 0;
  std::size_t grid_max_points = 0;  ///< PlanOptions::grid_max_points
  /// Why this route, in one line (e.g. why the exact route was skipped).
  std::string reason;

  /// Whether this route gives a privacy profile (δ(ε), least ε): all but Rényi (the grid bracket
  /// gives certified brackets of both, at the resolution of grid_options()).
  bool has_profile() const;
};

/// Chooses the route for @p components (at least one) under @p options.
CompositionPlan plan_composition(const std::vector<CompositionComponent>& components, const PlanOptions& options = {});

/// "12.3 GiB": a byte count for messages.
std::string human_bytes(const Integer& bytes);

/// The composed privacy along a plan's route (exact, binomial, certified PLD or closed form).
/// Queries concern δ(ε) = max(H_{e^ε}(P‖Q), H_{e^ε}(Q‖P)) of the composed pair, or one of the two
/// divergences when a NeighbourDirection is given (divergence/direction.hpp).
class ComposedPrivacy {
public:
  /// Builds the composed law; @p precision is the working precision of certified routes.
  /// Throws exactdp::Error when @p plan has no profile (grid bracket, Rényi).
  ComposedPrivacy(const std::vector<CompositionComponent>& components, const CompositionPlan& plan,
                  Precision precision = default_precision);

  const CompositionPlan& plan() const { return plan_; }
  /// The exact composed loss (exact route only, else nullptr).
  const PrivacyLoss* exact_loss() const { return exact_ ? &*exact_ : nullptr; }
  /// The exact profile of the composed loss (exact route only, else nullptr).
  const PrivacyProfile* exact_profile() const { return profile_ ? &*profile_ : nullptr; }

  /// δ at every ε in the enclosure (any sign since negative ε is answered), certified: the both
  /// direction.
  Interval delta_at_epsilon(const Interval& epsilon) const;
  /// δ at an exact λ = e^ε > 0, certified (exact routes: a point).
  Interval delta_at_lambda(const Rational& lambda) const;
  /// The least ε ≥ 0 at δ, certified: the point +∞ when no finite ε exists, an interval with
  /// upper end +∞ when that cannot be decided at this precision.
  Interval least_epsilon(const Rational& delta) const;
  /// How the numbers were computed, one line.
  std::string method() const;
  /// Whether this is the fast_convolution route on a grid (fast_composition_on_grid: losses on no
  /// lattice, too many uses to compose atom by atom), whose bracket a finer
  /// CompositionPlan::fast_resolution narrows.
  bool fast_on_grid() const;

  /// δ in @p direction (divergence/direction.hpp: remove H(P‖Q), add H(Q‖P), both the max) at
  /// every ε of any sign in the finite enclosure, certified. Routes that answer only ε ≥ 0 (fast
  /// convolution, binomial, closed forms) answer ε < 0 through H_λ(P‖Q) = 1 − λ + λ·H_{1/λ}(Q‖P);
  /// the exact and certified PLDs evaluate every λ = e^ε > 0 directly. With `both` and ε ≥ 0 this is
  /// delta_at_epsilon(epsilon).
  Interval delta_at_epsilon(const Interval& epsilon, NeighbourDirection direction) const;
  /// δ in @p direction at an exact λ > 0 (λ < 1 is ε < 0), certified (exact routes: a point).
  Interval delta_at_lambda(const Rational& lambda, NeighbourDirection direction) const;
  /// The least ε ≥ 0 at δ in @p direction, certified, as least_epsilon(delta).
  Interval least_epsilon(const Rational& delta, NeighbourDirection direction) const;
  /// Whether the two directions coincide: every component's pair has the same PLD as its reverse
  /// (exact pairs are compared; every spec family's pair is symmetric, amplification/poisson.hpp;
  /// a Poisson-subsampled component is not). Per-direction values then equal the both value.
  bool symmetric() const;

  /// Grid-bracket route only: δ in @p direction at the exact ε = @p epsilon (any sign), with the
  /// grid that bracketed it (step, coarsest step, points held; amplification/poisson.hpp). One
  /// bracket at the rational ε itself, where delta_at_epsilon(Interval) brackets both ends of an
  /// enclosure of a non-dyadic ε. Other routes: exactdp::Error naming the route.
  GridBracket grid_delta_at_epsilon_bracket(const Rational& epsilon, NeighbourDirection direction) const;
  /// Grid-bracket route only: the least ε ≥ 0 at δ in @p direction with its grid, as least_epsilon
  /// (δ = 0: the point +∞, both grid laws' losses being unbounded). Other routes: exactdp::Error.
  GridBracket grid_least_epsilon_bracket(const Rational& delta, NeighbourDirection direction) const;

private:
  /// δ in @p direction over an enclosure within [0, ∞), along the routes that answer only there.
  Interval nonnegative_delta(const Interval& epsilon, NeighbourDirection direction) const;

  CompositionPlan plan_;
  Precision precision_;
  std::vector<CompositionComponent> components_;
  std::optional<PrivacyLoss> exact_;
  std::optional<PrivacyProfile> profile_;
  std::optional<CertifiedLoss> certified_;
  std::optional<SubsampledCertifiedLoss> subsampled_;  ///< certified_loss: one use of a subsampled certified pair
  std::optional<BinomialComposition> binomial_;
  std::optional<PrivacyLoss> fast_exact_;          ///< fast_convolution: the one-use loss, if rational
  std::optional<CertifiedLoss> fast_certified_;    ///< fast_convolution: else the certified one
  std::vector<GridComponent> grid_;                 ///< grid_bracket: the pairs analysed, with their uses
  std::optional<GaussianMixture> mixture_;          ///< closed_form: one use of a Gaussian mixture
  std::optional<SubsampledLaplace> subsampled_laplace_;  ///< closed_form: one use of a subsampled Laplace mechanism
  /// The grid of the grid_bracket route: the plan's resolution, by default 32 points per standard
  /// deviation (relative widths about 10⁻³ for one use; the audit and Python refine further by
  /// intersecting resolutions). A law may hold 64 points per unit of resolution (the default cap
  /// at most): a one-use law spans about 24 deviations of its loss and a convolution of two such
  /// twice that, so a finer grid asked for is not re-gridded coarser at the cap (which made
  /// dp-accounting's five composed mixtures wider at resolution 8192 than at 4096).
  GridOptions grid_options() const {
    GridOptions o;
    o.resolution = plan_.grid_resolution;
    o.max_points = std::max({o.max_points, std::size_t{64} * plan_.grid_resolution, plan_.grid_max_points});
    return o;
  }
};

/// D_α of the composition in @p direction: Rényi divergences add under composition, per direction
/// (remove Σ times_i·D_α(P_i‖Q_i), add Σ times_i·D_α(Q_i‖P_i), both the larger sum), certified;
/// std::nullopt when it is +∞. Poisson-subsampled components are certified by
/// bounds/subsampled_renyi.hpp (the Gaussian: remove and both, the larger direction by MTZ19; the
/// Laplace mechanism: remove only); subsampled pairs with certified masses (dlaplace, rr/krr by ε,
/// truncated dgauss) by amplification/subsampled_loss.hpp (both directions, every order); a
/// component whose direction cannot be certified, or a Gaussian
/// mixture with several sensitivities, is refused with exactdp::Error naming "alpha" or
/// "direction" and the reason, never answered +∞. Precondition: α > 1.
std::optional<Interval> composed_renyi(const std::vector<CompositionComponent>& components, const Rational& alpha,
                                       Precision precision, NeighbourDirection direction = NeighbourDirection::both);

/// The Rényi divergence of order ∞ (max divergence, the pure-DP ε) of the composition:
/// max(Σ times_i·D_∞(P_i‖Q_i), Σ times_i·D_∞(Q_i‖P_i)) (the largest ratio of a product pair is the
/// product of the largest ratios), certified; std::nullopt when it is +∞ (an outcome of one world
/// only, e.g. RR with δ > 0, or a Gaussian). Finite components: the largest ln ratio over their atoms
/// in each direction; the Laplace mechanism: ε₀ = Δ/b both ways; Poisson-subsampled at q,
/// ln(1 + q(e^{ε₀} − 1)) and −ln(1 − q(1 − e^{−ε₀})) (Balle, Barthe & Gaboardi, NeurIPS 2018, Thm 8).
std::optional<Interval> composed_max_divergence(const std::vector<CompositionComponent>& components, Precision precision);

/// The continuous pair a grid bracket analyses (amplification/poisson.hpp) for @p spec under
/// Poisson subsampling at rate @p rate (1: none): the Gaussian at any rate, the Laplace mechanism
/// unsampled; std::nullopt for the other families. The planner chooses the grid route for a
/// subsampled Gaussian and a Laplace mechanism used more than once.
std::optional<ContinuousPair> continuous_pair(const MechanismSpec& spec, const Rational& rate);

/// A closed-form bound reported beside a composition's answer (an upper bound on the least ε, or a
/// guarantee (ε, δ) of the whole composition).
struct CompositionBound {
  std::string name;                ///< e.g. "basic composition (DKMMN06)"
  std::optional<Rational> delta;   ///< the δ of the bound
  std::optional<Interval> epsilon;  ///< certified ε; absent when not computed
  bool epsilon_infinite = false;   ///< no finite ε at this δ
  bool epsilon_zero = false;       ///< exactly 0
  std::string note;                ///< what the bound means, or why it was not computed
};

/// The closed forms for compositions of mechanisms with a known (λ, δ) guarantee given exactly
/// (randomized response, the pure mechanisms): basic composition (DKMMN06) for the whole
/// composition, and for each δ in @p deltas the optimal composition (KOV15/MV16) and, when every
/// use has the same guarantee, advanced composition (DRV10). Empty when some component has no such
/// guarantee, is subsampled, or the composition has more than 100 000 uses (the formulas take a
/// list of every use).
std::vector<CompositionBound> closed_form_bounds(const std::vector<CompositionComponent>& components,
                                                 const std::vector<Rational>& deltas, Precision precision);

/// For each δ > 0 in @p deltas, the RDP conversion of CKS20 Prop 12 over the Rényi orders @p alphas
/// (or a default grid 2…64 when empty) of the composition (Rényi divergences add): an upper bound
/// on the least ε, not the exact value.
std::vector<CompositionBound> renyi_conversion_bounds(const std::vector<CompositionComponent>& components,
                                                      const std::vector<Rational>& alphas, const std::vector<Rational>& deltas,
                                                      Precision precision);

/// The k-fold composition of a certified loss. A loss with two atoms of finite positive ratios
/// composes binomially in O(k) products (the atoms repeated squaring would build); others by
/// CertifiedLoss::self_compose.
///
/// Compositions whose certified PLD would not fit the budget are not built here: the planner sends
/// them to the fast-convolution route (CompositionRoute::fast_convolution, compose/fast_convolution.hpp),
/// which brackets δ(ε) and the least ε without materialising the atoms.
CertifiedLoss self_compose_certified(const CertifiedLoss& one, unsigned long k, Precision precision);

}  // namespace exactdp
