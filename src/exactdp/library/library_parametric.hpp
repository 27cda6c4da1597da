/// @file
/// Library mechanisms whose noise parameters are functions of one parameter r (issue 19 item 1;
/// docs/parametric.md, "Library mechanisms with a parameter"): the parametric games that
/// `exactdp check SPEC --for-all r` decides for every r at once.
///
/// Each builder runs the numeric mechanism's own step (library/svt_step.hpp, the counters' step)
/// over rational functions of r (parametric/parametric_field.hpp) and tabulates the states
/// reachable up to the horizon: the game's probabilities are exact rational functions of r, and
/// at every rational r of the range they are the numeric mechanism's probabilities — the numeric
/// engine on the mechanism built with that r is the parametric engine's oracle.
///
/// A noise parameter is a RationalFunction: a constant (a number, as in the numeric library) or a
/// function of r, typically r itself. It must lie strictly between 0 and 1 for every r of the
/// range, and the range must lie inside (0, 1); otherwise exactdp::Error naming the parameter, the
/// function and a rational point where it fails.
#pragma once

#include "exactdp/library/library_registry.hpp"
#include "exactdp/parametric/parametric_game.hpp"
#include "exactdp/parametric/rational_function.hpp"
#include "exactdp/parametric/real_roots.hpp"

#include <string>
#include <vector>

namespace exactdp::library {

/// SparseVectorParams with noise parameters that may depend on r.
struct ParametricSvtParams {
  parametric::RationalFunction r_threshold;  ///< τ ~ DLap(r_threshold(r)), in (0, 1) for every r of the range
  parametric::RationalFunction r_query;      ///< ν ~ DLap(r_query(r)), in (0, 1) for every r of the range
  unsigned queries = 3;                       ///< the default horizon, 1 … 1000
  unsigned cutoff = 1;                        ///< halt after c "above" answers
};

/// The svt-counter (library::svt_counter, THEOREMS.md D.5, E.10 H12) as a parametric game up to
/// @p horizon (0: params.queries), for every r of @p range. Unclamped DLap noise with a latent
/// threshold: every probability is a rational function of r by the closed forms of B.13.
parametric::ParametricGame svt_counter_for_all(const ParametricSvtParams& params, const std::vector<long>& thresholds,
                                               const parametric::ParameterRange& range, const std::string& parameter = "r",
                                               unsigned horizon = 0);

/// AboveThreshold on a static dataset (library::above_threshold, THEOREMS.md D.5): margins
/// @p min_margin … @p max_margin, sensitivity-1 pairs in every round, as a parametric game up to
/// @p horizon (0: params.queries) for every r of @p range. Unclamped DLap noise with a latent
/// threshold, as svt_counter_for_all.
parametric::ParametricGame above_threshold_for_all(const ParametricSvtParams& params, long min_margin, long max_margin,
                                                   const parametric::ParameterRange& range, const std::string& parameter = "r",
                                                   unsigned horizon = 0);

/// The binary-tree counter (library::binary_tree_counter, THEOREMS.md D.6) with DLap(@p r) per
/// node as a parametric game, for every value of the parameter in @p range, up to @p horizon rounds
/// (0: 2^height, the numeric counter's default). As for the numeric counter, a horizon below 2^height
/// stops the game early and a larger one adds rounds after the counter has halted; from 2^height on
/// the table is exact at every horizon (ParametricGame::max_horizon unset), below it up to @p horizon.
parametric::ParametricGame binary_tree_counter_for_all(unsigned height, const parametric::RationalFunction& r, long max_input, long clamp,
                                                       const parametric::ParameterRange& range, const std::string& parameter = "r",
                                                       unsigned horizon = 0);

/// The d-counter (library::d_counter, HSV Cor 7.5): d binary-tree counters of height @p height with
/// DLap(@p r) per node side by side, relation f_C (input vectors at L∞ distance ≤ 1, one differing
/// pair), as a parametric game for every value of the parameter in @p range, up to @p horizon rounds
/// (0: 2^height; the horizon as for binary_tree_counter_for_all). The limits are those of
/// library::d_counter (d ≤ 3, height ≤ 3, max_input ≤ 8, clamp ≤ 4).
parametric::ParametricGame d_counter_for_all(unsigned d, unsigned height, const parametric::RationalFunction& r, long max_input, long clamp,
                                             const parametric::ParameterRange& range, const std::string& parameter = "r",
                                             unsigned horizon = 0);

/// The noisy-increments counter (library::noisy_increments_counter, THEOREMS.md D.7) with the
/// increments' noise DLap(@p r) as a parametric game over @p steps rounds, for every value of the
/// parameter in @p range, up to @p horizon rounds (0: @p steps; the horizon as for
/// binary_tree_counter_for_all). Each
/// increment clamp(x + Z, −clamp, max_input + clamp) has the closed form of noise/dlap_closed_form.hpp.
parametric::ParametricGame noisy_increments_counter_for_all(unsigned steps, const parametric::RationalFunction& r, long max_input, long clamp,
                                                            const parametric::ParameterRange& range, const std::string& parameter = "r",
                                                            unsigned horizon = 0);

/// The toy two-round LDP protocol (library::ldp_threshold_protocol, HSV §8, THEOREMS.md D.10) with
/// the users' randomized response RR_λ for λ = @p lambda(r), as a parametric game for every value of
/// the parameter in @p range, up to @p horizon rounds (0: 1, the numeric protocol's default; the
/// table is exact at every horizon). The composite runs the numeric protocol's own S_P and user step
/// (written once over the field policy) through mechanism/composite.hpp's run_post_processor.
/// λ must be greater than 1 for every value of the range (any range: λ is not a DLap parameter);
/// users 1 … 3, k 1 … users, as the numeric protocol.
parametric::ParametricGame ldp_threshold_protocol_for_all(unsigned users, const parametric::RationalFunction& lambda, unsigned k,
                                                          const parametric::ParameterRange& range, const std::string& parameter = "r",
                                                          unsigned horizon = 0);

/// The core-decomposition protocol (library::core_decomposition, HSV §9, L9.1) on @p vertices
/// vertices and @p rounds rounds, each user's AboveThreshold with τ ~ DLap(@p r_threshold(r)) and
/// ν ~ DLap(@p r_query(r)), as a parametric game for every value of the parameter in @p range, up to
/// @p horizon rounds (0: 1, the numeric protocol's default; exact at every horizon). S_P and the
/// user's step are the numeric protocol's (the user's step over the field policy, B.13 by
/// noise::BasicLatentThreshold), run through run_post_processor. Noise parameters as
/// svt_counter_for_all; vertices 2 … 4, rounds 1 … 3.
parametric::ParametricGame core_decomposition_for_all(unsigned vertices, unsigned rounds, const parametric::RationalFunction& r_threshold,
                                                      const parametric::RationalFunction& r_query, const parametric::ParameterRange& range,
                                                      const std::string& parameter = "r", unsigned horizon = 0);

/// The library mechanisms that take a parameter, by name: "above-threshold" and "svt-counter"
/// (r_threshold, r_query), "tree-counter", "noisy-increments" and "d-counter" (r),
/// "ldp-threshold-protocol" (lambda), "core-decomposition" (r_threshold, r_query). Each noise parameter of @p args may be an expression in @p parameter
/// (parametric/rational_function.hpp's grammar; e.g. "r", "r^2", "1/4"); the other parameters are
/// read as by make_library_game. Throws exactdp::Error naming args.where(), the parameter's path and
/// its value: an unknown or non-parametric name, a malformed expression, a noise parameter outside
/// (0, 1) somewhere on the range.
/// @param name        the library name (one of parametric_library_entries())
/// @param args        its parameters as written
/// @param parameter   the declared parameter's name (e.g. "r")
/// @param range       the declared range of the parameter
/// @param horizon     the game's horizon (0: the mechanism's default)
/// @param name_field  the path of the name in the source, for the unknown-name error
parametric::ParametricGame make_parametric_library_game(const std::string& name, const LibraryArguments& args, const std::string& parameter,
                                                        const parametric::ParameterRange& range, unsigned horizon = 0,
                                                        const std::string& name_field = "name");

/// Refuses a noise parameter @p f that is not strictly between 0 and 1 for every value of @p range,
/// or a range not inside (0, 1): exactdp::Error(where, @p field, f, why naming a rational point
/// where it fails); the field is "range" for the range. A @p field named "lambda" is a
/// randomized-response parameter instead: it must be greater than 1 on the range (any range). The builders above call it; a front end may
/// call it first to report against the file.
void check_noise_parameter_for_all(const std::string& field, const parametric::RationalFunction& f, const parametric::ParameterRange& range,
                                   const std::string& parameter);

/// The names of the library mechanisms make_parametric_library_game accepts, and for each the
/// parameters that may be expressions in the declared parameter.
const std::vector<std::pair<std::string, std::vector<std::string>>>& parametric_library_entries();

}  // namespace exactdp::library
