/// @file
/// Limits on what an input may ask for, in one place (issue 7, hardened input path). Every reader
/// of user input (spec files, claims files, live-session lines) checks these *before* doing the
/// work they would cause and refuses with an exactdp::Error naming the field, the value and the
/// limit. They bound memory and time on hostile input; legitimate models are far below them.
#pragma once

#include "exactdp/core/error.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace exactdp::limits {

/// Largest input text (spec file, claims file) read at all, in bytes.
inline constexpr std::size_t max_input_bytes = std::size_t{16} << 20;
/// Largest number of states of a table mechanism (listed plus implicitly halted ones).
inline constexpr std::size_t max_states = 100000;
/// Largest message alphabet of a table mechanism.
inline constexpr std::size_t max_messages = 10000;
/// Largest states × messages product: the transition table has one cell per pair.
inline constexpr std::size_t max_table_cells = std::size_t{1} << 22;
/// Largest total number of rows (probability, answer, next) in a spec's tables.
inline constexpr std::size_t max_rows = std::size_t{1} << 20;
/// Largest horizon (default number of rounds) a spec may give.
inline constexpr unsigned long max_horizon = 100000;
/// Largest size in bits of the numerator and of the denominator of any probability written in an
/// input (e.g. "1e-999999" has a 3.3-million-bit denominator and is refused). The test of a
/// rational against it, limits::rational_size_ok(), is in numeric/rational.hpp: core/ is the
/// bottom layer and knows no number type (docs/architecture.md).
inline constexpr std::size_t max_rational_bits = 4096;
/// Largest line accepted by a live session (`exactdp run`), in bytes.
inline constexpr std::size_t max_session_line_bytes = std::size_t{1} << 16;
/// Default budget, in bytes, for the estimated peak memory of one use's tables of a mechanism SPEC
/// (`dlaplace:r=1/2,sensitivity=S` has S + 1 outcomes whose masses carry r^k, so ~S²/2 bits per
/// law): a spec estimated above it is refused when it is read, before any table is built
/// (MechanismSpec::table_size(), accounting/mechanism_spec.hpp). 1 GiB, the composition planner's
/// default budget (default_memory_budget, accounting/composition_plan.hpp), because the same
/// option raises both: `--max-memory` (MiB) of compose and audit, `max_memory` (bytes) in
/// Python (calibrate reads its levels at this default).
inline constexpr std::uint64_t default_spec_table_budget = std::uint64_t{1} << 30;
/// Largest memory budget a front end accepts (`--max-memory`, the game engine's and the composition
/// planner's alike), in MiB: 2^30 MiB = 1 PiB, so MiB → bytes cannot overflow.
inline constexpr std::uint64_t max_memory_budget_mib = std::uint64_t{1} << 30;

// ---- options of the front ends (CLI flags and their Python keyword twins) ----------------------
// Each front end validates these options against the constants below (the CLI with CLI::Range,
// the Python module with check_range()), and Python reads them from exactdp._core.limits: one
// number, one place.

/// Fewest significant digits of a certified value printed (`--digits`): with one digit the outward
/// rounding of both ends of an interval could print a bracket ten times wider than it is.
inline constexpr int min_digits = 2;
/// Most significant digits printed (`--digits`): an exact value is printed as p/q whatever this
/// says, and a certified one is an interval whose ends differ within the first 40 digits at the
/// audit's first precision (128 bits); 200 digits leave room for the highest precisions tried
/// while keeping a report line bounded.
inline constexpr int max_digits = 200;

/// Lowest "highest resolution" of grid brackets (`--grid-resolution`, in grid points per standard
/// deviation of the privacy loss): the audit starts its refinement at 4 (AuditOptions::
/// grid_resolution_start), and a highest resolution below the first one tried would try none.
inline constexpr unsigned min_grid_resolution = 4;
/// Highest resolution of grid brackets (`--grid-resolution`): each doubling doubles the one-use
/// law's points; for DP-SGD at q = 1/100 the law exceeds the per-law cap
/// (AuditOptions::grid_max_points) long before (at 512) and is re-gridded coarser, so a finer request
/// costs time without narrowing there. Compositions of a few Gaussian mixtures narrow up to 8 192
/// (about 10 s of CPU per bracket; dp-accounting's five mixtures are decided to 10⁻¹² only there,
/// docs/composition.md).
inline constexpr unsigned max_grid_resolution = 8192;

/// Smallest grid budget (`--grid-points`): the audit stops doubling the resolution once a law holds
/// more than half the budget, and a law needs at least 16 points (GridOptions::max_points); 64 lets
/// the first resolution run and its successor be refused, not the first one.
inline constexpr std::size_t min_grid_point_budget = 64;
/// Largest grid budget (`--grid-points`, and the most a calibration's refinement raises it to): the
/// one-use discretisation evaluates certified Φ enclosures on every bin and dominates the time,
/// which grows about linearly with the points (measured on subsampled-Gaussian calibrations: 1.3 s
/// of CPU at 40 000 points, 4.9 s at 160 000, so about a minute per level at 2·10⁶; docs/calibration.md,
/// "Refinement"), the most a single judgement should cost.
inline constexpr std::size_t max_grid_point_budget = 2000000;

/// Least precision (bits) up to which an undecided claim may be refined (`exactdp check
/// --max-precision`): 64 bits is binary64's significand plus a margin; below it e^ε could not even
/// separate values that a double tells apart.
inline constexpr long min_claim_precision = 64;
/// Most precision (bits) up to which a claim is refined (`--max-precision`): 2^20 bits is a
/// 315 000-digit e^ε, whose MPFR evaluation takes seconds; a claim still undecided there is an
/// equality in all but name, and a larger cap would only spend time.
inline constexpr long max_claim_precision = 1L << 20;

/// Throws exactdp::Error(where, field, value, "must lie in [lo, hi]") unless lo ≤ value ≤ hi:
/// the range check of the front ends that have no option parser of their own (the Python module).
template <class T>
void check_range(const std::string& where, const std::string& field, T value, T lo, T hi) {
  if (value < lo || hi < value)
    throw Error(where, field, std::to_string(value),
                "must lie in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
}

}  // namespace exactdp::limits
