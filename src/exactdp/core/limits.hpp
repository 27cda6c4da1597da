/// @file
/// Limits on what an input may ask for, in one place (issue 7, hardened input path). Every reader
/// of user input (spec files, claims files, live-session lines) checks these *before* doing the
/// work they would cause and refuses with an exactdp::Error naming the field, the value and the
/// limit. They bound memory and time on hostile input; legitimate models are far below them.
#pragma once

#include <cstddef>
#include <cstdint>

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
/// Largest memory budget a front end accepts (`--max-memory`, the game engine's and the composition
/// planner's alike), in MiB: 2^30 MiB = 1 PiB, so MiB → bytes cannot overflow.
inline constexpr std::uint64_t max_memory_budget_mib = std::uint64_t{1} << 30;

}  // namespace exactdp::limits
