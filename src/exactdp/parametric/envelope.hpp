/// @file
/// The upper envelope of finitely many rational functions of one parameter on a range: the range
/// split into pieces, each with a function that is the largest of all on it (issue 19 item 3, the
/// worst-case ratio of `profile --parametric`; docs/parametric.md, "The upper envelope").
///
/// Every comparison is certified — exact evaluation at rational points, Descartes' rule of signs on
/// rational intervals, certified real-root isolation (parametric/real_roots.hpp) — nothing is
/// sampled. upper_envelope() scales with the number of functions where comparing every pair does
/// not: on an interval, the function largest at its midpoint eliminates every function it exceeds
/// on the whole interval (one Descartes test each: no root of the difference inside, so the sign at
/// the midpoint is the sign everywhere); where several functions survive, the interval is halved,
/// and only a handful of survivors (or an interval halved many times, around a point where many
/// functions meet) is split at the roots of their pairwise differences. upper_envelope_pairwise()
/// compares every pair at once (quadratic in the number of functions): the reference it is tested
/// against.
#pragma once

#include "exactdp/parametric/rational_function.hpp"
#include "exactdp/parametric/real_roots.hpp"

#include <cstddef>
#include <string_view>
#include <vector>

namespace exactdp::parametric {

/// The upper envelope: `pieces` cover the range in increasing order (open intervals between
/// breakpoints, the breakpoints themselves as point pieces, a closed range end inside its
/// neighbouring interval), and on pieces[k] the function functions[best[k]] is at least every
/// other function at every point. Consecutive pieces have different best functions except across
/// a point piece, which takes its left neighbour's (equal there, by continuity); a breakpoint is a
/// point where the largest function changes.
struct Envelope {
  std::vector<Piece> pieces;
  std::vector<std::size_t> best;  ///< per piece: an index into the functions
  std::size_t comparisons = 0;    ///< certified comparisons made (statistics)
  std::size_t intervals = 0;      ///< rational sub-intervals examined (statistics)
  std::size_t distinct_factors = 0;  ///< irreducible factors isolated where pairwise splits were needed (statistics)
};

/// The upper envelope of @p functions on @p range by elimination and halving (see the file
/// comment). Every function must be continuous on the range: throws exactdp::Error (naming the
/// function and the root) when a denominator vanishes in the range. @p functions must be non-empty
/// and pairwise distinct (distinct functions agree at finitely many points only).
Envelope upper_envelope(const std::vector<RationalFunction>& functions, const ParameterRange& range, std::string_view variable = "r");

/// The same envelope from one sign partition of every pairwise difference (quadratic; the
/// reference of the tests). Equal results up to ties at isolated points: where two functions meet
/// at a breakpoint either may be named.
Envelope upper_envelope_pairwise(const std::vector<RationalFunction>& functions, const ParameterRange& range,
                                 std::string_view variable = "r");

}  // namespace exactdp::parametric
