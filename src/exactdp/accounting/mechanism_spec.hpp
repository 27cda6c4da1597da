/// @file
/// Mechanism SPEC strings — the way the command line names a standard noninteractive mechanism —
/// and the privacy queries a parsed spec answers, exactly where the mechanism has rational tables
/// and certified otherwise.
///
/// Grammar (`family:key=value,key=value,…`; numbers are exact, read by exactdp::parse_rational,
/// so "0.5" is exactly 1/2 and "1e-5" exactly 1/100000; defaults delta = 0, sensitivity = 1):
///
/// | spec | mechanism | tables |
/// |---|---|---|
/// | `rr:lambda=L[,delta=D]` | RR_{ln L, D} (THEOREMS.md A.2) | exact |
/// | `rr:epsilon=E[,delta=D]` | RR_{E, D}, λ = e^E | certified (exact when E = 0) |
/// | `krr:k=K,lambda=L` / `krr:k=K,epsilon=E` | k-ary RR, substitution neighbours (A.2) | exact / certified |
/// | `dlaplace:r=R[,sensitivity=S]` | clamp(v + DLap(R)), integer sensitivity S (D.3) | exact |
/// | `dlaplace:a=A[,sensitivity=S]` | the same with R = e^{−A} (dp-accounting's parameter a; (A·S)-DP) | certified |
/// | `dlaplace:epsilon=E[,sensitivity=1]` | the same with R = e^{−E} (E-DP); refused with S ≠ 1 | certified |
/// | `dgauss:sigma2=V[,sensitivity=S]` | discrete Gaussian N_ℤ(0, V), integer S (D.4) | certified, single use |
/// | `dgauss:sigma2=V,truncation=T[,sensitivity=S]` | N_ℤ(0, V) restricted to [−T, T] and renormalised, integer T ≥ 0 (dp-accounting's DiscreteGaussianPrivacyLoss with σ = √V, truncation_bound T) | certified, any number of uses |
/// | `laplace:b=B[,sensitivity=S]` | continuous Laplace, scale B (B.11) | certified, single use |
/// | `gauss:sigma=V[,sensitivity=S]` | continuous Gaussian, standard deviation V (B.11) | certified |
///
/// Sensitivities of the discrete mechanisms are positive integers; those of `laplace` and `gauss`
/// positive rationals. `dlaplace:epsilon=E` with a sensitivity S ≠ 1 is refused as ambiguous (it
/// meant r = e^{−E/S}, so E = a·S, which dp-accounting's a is not; the message gives both
/// spellings with `a=`). `dlaplace:a` and `dlaplace:epsilon` are accepted although r is irrational: the
/// worst-case pair clamped to [0, S] has the exact likelihood ratios e^{(S−2k)E/S}, so its
/// privacy-loss distribution is certified exactly (certified_noninteractive.hpp); for exact tables
/// give `r=` (e.g. `dlaplace:r=1/2`, which is (S·ln 2)-DP).
///
/// A spec answers accounting questions from the mechanism's tables (mechanism/) and, for the
/// continuous mechanisms, from the closed forms of bounds/, so it sits in the accounting layer,
/// above both (docs/architecture.md).
#pragma once

#include "exactdp/core/limits.hpp"
#include "exactdp/divergence/direction.hpp"
#include "exactdp/divergence/privacy_loss.hpp"
#include "exactdp/numeric/interval.hpp"
#include "exactdp/numeric/privacy_parameter.hpp"
#include "exactdp/numeric/rational.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace exactdp {

/// The mechanism families a spec can name.
enum class MechanismFamily {
  randomized_response,        ///< `rr`
  k_ary_randomized_response,  ///< `krr`
  discrete_laplace,           ///< `dlaplace`
  discrete_gaussian,          ///< `dgauss`
  laplace,                    ///< `laplace` (continuous)
  gaussian                    ///< `gauss` (continuous)
};

/// The spec name of a family: "rr", "krr", "dlaplace", "dgauss", "laplace", "gauss".
std::string to_string(MechanismFamily family);

/// Parameters that make a mechanism's pair degenerate (issue 20): the exact pairs they are.
enum class DegeneratePair {
  none,       ///< a proper mechanism
  identical,  ///< sensitivity 0, or k-ary RR with one bucket: P = Q, δ(ε) = 0 for ε ≥ 0
  disjoint    ///< no noise (σ = 0, b = 0, σ² = 0, r = 0) and sensitivity > 0: δ(ε) = 1 at every ε
};

/// One parameter of a spec, with its exact value.
struct SpecParameter {
  std::string key;
  Rational value;
  friend bool operator==(const SpecParameter&, const SpecParameter&) = default;
};

/// An (ε, δ)-DP guarantee that characterises a mechanism exactly: RR_{ε,δ} is (ε, δ)-DP and
/// nothing better in the sense of f_{ε,δ}; the pure mechanisms (k-ary RR, discrete and continuous
/// Laplace) are ε-DP with ε = their max log-likelihood ratio, δ = 0.
struct DpGuarantee {
  PrivacyParameter epsilon;  ///< λ = e^ε, exact or in epsilon form
  Rational delta;
};

/// What the tables of one use of a spec are estimated to take, from its parameters alone (nothing
/// is built): the refusal of parse_mechanism_spec() compares `bytes` with the caller's budget.
struct SpecTableSize {
  /// Outcomes of the one-use pair (atoms of its PLD); 0 exactly when the spec has neither exact_loss()
  /// nor certified_loss() (closed forms: untruncated dgauss, laplace, gauss), so it tells finiteness.
  Integer outcomes = 0;
  /// The largest number of bits of one outcome's exact masses (numerator and denominator; e.g.
  /// ≈ S·log₂(p·q) + O(1) for dlaplace:r=p/q with sensitivity S), or of its certified enclosures.
  Integer bits_per_outcome = 0;
  /// Estimated peak bytes while the tables are built and queried (both laws, the privacy-loss
  /// distribution and the conversions of one query, calibrated on measured peaks: see
  /// MechanismSpec::table_size()).
  Integer bytes = 0;
};

/// A parsed mechanism spec: which mechanism, its parameters (exact rationals, as given), and its
/// privacy answers for `times`-fold composition with itself. A regular value type.
///
/// Every query concerns the worst-case neighbouring pair of one use (documented with each table
/// constructor); "times" composes that pair with itself (nonadaptive = adaptive for a fixed pair).
class MechanismSpec {
public:
  MechanismFamily family() const { return family_; }
  /// The parameters in canonical order with defaults filled in (e.g. rr: lambda or epsilon, then
  /// delta; dlaplace: r or epsilon, then sensitivity).
  const std::vector<SpecParameter>& parameters() const { return parameters_; }
  /// The value of @p key, if the spec has it (after defaults).
  std::optional<Rational> parameter(std::string_view key) const;

  /// Whether the parameters are degenerate (DegeneratePair). A degenerate spec has exact tables:
  /// exact_loss() is the one-point pair (identical) or the two disjoint points (1, 0), (0, 1), and
  /// every query answers from it exactly, any number of uses.
  DegeneratePair degenerate() const;

  /// The canonical spec text, e.g. "rr:lambda=3,delta=1/10"; it parses back to an equal spec.
  std::string to_string() const;
  /// One line for reports, e.g. "randomized response RR with lambda = 3, delta = 1/10 (exact tables)".
  std::string describe() const;

  /// The estimated size of one use's tables (SpecTableSize), computed from the parameters without
  /// building anything: exact tables (dlaplace:r) hold r^k for k ≤ S, so their bits grow as
  /// S²·log₂ of r's numerator and denominator; certified tables (dlaplace by a or epsilon,
  /// truncated dgauss) hold a fixed number of enclosures per outcome at the default precision.
  SpecTableSize table_size() const;

  /// The exact privacy-loss distribution of one use (rr with rational λ, krr with λ, dlaplace
  /// with r), or std::nullopt when the masses are irrational.
  std::optional<PrivacyLoss> exact_loss() const;
  /// The privacy-loss distribution of one use with exact ratios and certified masses, for every
  /// finite mechanism (exact ones converted, rr/krr/dlaplace given by epsilon natively);
  /// std::nullopt for dgauss without truncation, laplace and gauss (infinite support). Use it to compose different
  /// mechanisms: exactdp::compose(CertifiedLoss, CertifiedLoss).
  std::optional<CertifiedLoss> certified_loss(Precision precision = default_precision) const;
  /// The (ε, δ) guarantee that characterises one use (see DpGuarantee), or std::nullopt for the
  /// Gaussian mechanisms (no finite pure ε).
  std::optional<DpGuarantee> dp_guarantee() const;

  /// Whether delta_at_epsilon()/epsilon_at_delta() answer for this many uses: always for the
  /// finite mechanisms (truncated dgauss included) and gauss (GDP composes exactly), only times = 1 for
  /// dgauss without truncation and laplace.
  bool supports_composition(unsigned long times) const;

  /// δ(ε) of the `times`-fold composition, certified: contains the exact profile
  /// max(H_{e^ε}(P‖Q), H_{e^ε}(Q‖P)) for every ε in the enclosure. Exact mechanisms: the exact
  /// profile of loss.self_compose(times) at the enclosure of e^ε; rr by epsilon: the KOV15
  /// binomial sum; krr/dlaplace by epsilon: the certified PLD; dgauss (times = 1): CKS20's formula;
  /// laplace (times = 1): 1 − e^{(ε−ε₀)/2}; gauss: the GDP profile with μ = √times·Δ/σ (DRS22).
  /// Exact mechanisms compose along the planner's route (composition_plan.hpp): exactly when the
  /// composed PLD fits the default memory budget, else certified (e.g. 10⁸ uses of RR).
  ///
  /// ε < 0 (λ < 1) is answered through δ(ε) = 1 − e^ε + e^ε·δ(−ε) (divergence/direction.hpp).
  ///
  /// Preconditions: times ≥ 1, ε finite, supports_composition(times) (exactdp::Error naming
  /// "times" or "epsilon" otherwise).
  Interval delta_at_epsilon(const Interval& epsilon, unsigned long times = 1) const;
  /// The same in one direction (divergence/direction.hpp). Every family's worst-case pair is
  /// symmetric (the PLD of (Q, P) equals that of (P, Q): reflect the output about the pair's
  /// centre), so remove, add and both have one value; the parameter is there so that callers ask
  /// every route the same question.
  Interval delta_at_epsilon(const Interval& epsilon, unsigned long times, NeighbourDirection direction) const;

  /// The least ε ≥ 0 such that the `times`-fold composition is (ε, δ)-DP, certified (PrivLoss of
  /// THEOREMS.md A.1/B.6): contains it; the point +∞ when no finite ε exists (δ below the
  /// catastrophic mass, or δ = 0 for the Gaussians); an interval with upper end +∞ when that cannot
  /// be decided at this precision. For exact mechanisms the least λ is an exact rational and only
  /// its logarithm is enclosed.
  ///
  /// @p precision is the working precision of the enclosures; for the continuous Gaussian it also
  /// sets the width the bisection reaches (2^(−precision/2)), so a caller raising the precision
  /// gets a narrower enclosure.
  ///
  /// Preconditions: times ≥ 1, 0 ≤ δ ≤ 1, supports_composition(times).
  Interval epsilon_at_delta(const Rational& delta, unsigned long times = 1, Precision precision = default_precision) const;
  /// The same in one direction: the value of epsilon_at_delta (the pair is symmetric, above).
  Interval epsilon_at_delta(const Rational& delta, unsigned long times, Precision precision,
                            NeighbourDirection direction) const;

  /// The Rényi divergence of order α > 1 of one use, max over both directions, certified (+∞ as
  /// the point +∞, e.g. RR with δ > 0). Composition adds it: `times` uses have times·renyi(α).
  /// Preconditions: α > 1 (exactdp::Error naming "alpha").
  Interval renyi(const Rational& alpha, Precision precision = default_precision) const;

  /// The zCDP level ρ = Δ²/(2σ²) of one use for dgauss (untruncated) and gauss (CKS20; BS16), exact;
  /// std::nullopt for the other families.
  std::optional<Rational> zcdp() const;

  friend bool operator==(const MechanismSpec&, const MechanismSpec&) = default;

private:
  friend MechanismSpec parse_mechanism_spec(std::string_view text, std::uint64_t table_budget);
  MechanismSpec() = default;
  const Rational& get(std::string_view key) const;
  bool has(std::string_view key) const { return parameter(key).has_value(); }
  unsigned long integer(std::string_view key) const;
  void require_times(unsigned long times) const;

  MechanismFamily family_ = MechanismFamily::randomized_response;
  std::vector<SpecParameter> parameters_;
};

/// Parses a mechanism spec (grammar in the file comment).
///
/// Errors are exactdp::Error with an empty `where` (the caller anchors them with Error::in, e.g.
/// "--mechanism"), a field naming the key as "family:key" and the offending text as value:
///  - unknown family: field "mechanism", value the family name;
///  - malformed item (no '=', empty item): field the family, value the item;
///  - unknown or duplicate key: field "family:key", value the item "key=value";
///  - missing required key: field "family:key" (the first alternative, e.g. "rr:lambda"), value "";
///  - both alternatives given (lambda and epsilon; two of r, a, epsilon): field of the second, its text;
///  - `dlaplace:epsilon` with a sensitivity other than 1: field "dlaplace:epsilon", value both items;
///  - unparsable number: field "family:key", value the text (from parse_rational);
///  - out of range, value the text as written: λ < 1 ("lambda = e^epsilon must be at least 1"),
///    ε < 0 (ε ≤ 0 and a ≤ 0 for dlaplace), δ ∉ [0, 1], r ∉ [0, 1), k not an integer ≥ 1, a discrete
///    sensitivity not a non-negative integer (or above max_table_outcomes), a continuous
///    sensitivity, b, σ or σ² negative, a truncation not an integer in [0, max_table_outcomes].
///
///  - tables too large: a spec whose one-use tables are estimated (MechanismSpec::table_size()) above
///    @p table_budget bytes is refused before anything is built, field the key that makes them
///    large ("dlaplace:sensitivity", "dgauss:truncation"), value its text, the message giving the
///    estimate, the budget and the option that raises it (`--max-memory`, Python `max_memory`).
///
/// Degenerate values are accepted as the exact pairs they are (MechanismSpec::degenerate()):
/// σ = 0, b = 0, σ² = 0 or r = 0 (no noise: disjoint laws, δ = 1), sensitivity 0 or krr with k = 1
/// (identical laws, δ = 0 for ε ≥ 0).
MechanismSpec parse_mechanism_spec(std::string_view text,
                                   std::uint64_t table_budget = limits::default_spec_table_budget);

/// Parses a sampling spec "poisson:q=R" (Poisson subsampling at rate R, 0 ≤ R ≤ 1, an exact number
/// as parse_rational reads it) and returns R. The one reader behind `exactdp compose --sampling`
/// and the claims' "sampling" field.
///
/// Errors are exactdp::Error with an empty `where` (the caller anchors them with Error::in), the
/// whole text as value, and field "" for a text not of the form poisson:q=…, else field "q" (an
/// unparsable number: parse_rational's reason; a rate outside [0, 1]). q = 0 is the degenerate rate:
/// the record is never sampled, both laws are identical (poisson_subsampled()).
Rational parse_sampling_rate(std::string_view text);

}  // namespace exactdp
