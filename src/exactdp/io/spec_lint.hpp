/// @file
/// `exactdp lint SPEC…` (issue 15 item 2): every error of the strict loader (io/spec_file.hpp) —
/// all of them, not only the first — plus warnings that never change a verdict but usually point
/// at a slip in a hand-written table (docs/json-output.md, "lint"):
///
/// | code | severity | meaning |
/// |---|---|---|
/// | `unknown-state`, `missing-rule`, `unknown-message`, `no-alphabet`, `repeated-key`, `invalid` | error | the spec does not load (spec/mechanisms/README.md) |
/// | `unreachable-state` | warning | no sequence of messages reaches the state from either world's initial law |
/// | `bisimilar-states` | warning | reachable states that behave identically (game/structure.hpp); classes made only of halted states are not reported |
/// | `indistinguishable-answers` | warning | answers no event and no adversary can tell apart (game/structure.hpp) |
/// | `repeated-row` | warning | two rows of one rule with the same answer and next state (they are merged) |
/// | `analysis-skipped` | note | the bisimulation of a large table went beyond its work budget: bisimilar states and indistinguishable answers were not checked |
///
/// The table checks apply to every `"type": "table"` mechanism of the spec (top level, components,
/// menu entries, the inner mechanism of a post-processing); library mechanisms are only loaded.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace exactdp {

/// One finding of lint.
struct LintDiagnostic {
  /// A note (e.g. `analysis-skipped`) informs and does not change the exit code.
  enum class Severity { error, warning, note };
  Severity severity = Severity::error;
  std::string code;     ///< see the table in the file comment
  std::string pointer;  ///< JSON Pointer into the file ("/" for the whole file)
  std::string value;    ///< the offending value, as written (may be empty)
  std::string message;  ///< one sentence
};

/// The findings on one file, errors first (in file order), then warnings.
struct LintReport {
  std::string file;
  std::vector<LintDiagnostic> diagnostics;
  std::size_t errors() const;
  std::size_t warnings() const;
  std::size_t notes() const;
  /// 0 clean, 1 warnings only, 2 errors.
  int exit_code() const;
};

/// Lints spec text; @p source names it. Never throws for problems of the text.
LintReport lint_spec(std::string_view text, const std::string& source);

/// Lints a spec file (an unreadable file is one error).
LintReport lint_spec_file(const std::filesystem::path& file);

/// The reports as the JSON text of `exactdp lint --json` (docs/json-output.md):
/// `{"format": "exactdp-lint/1", "files": [{"file", "errors", "warnings", "diagnostics": [{"severity",
/// "code", "pointer", "value", "message"}]}], "errors": n, "warnings": n, "exit_code": 0|1|2}`.
std::string lint_report_json(const std::vector<LintReport>& reports);

/// The reports as text: one line per diagnostic, `FILE: error|warning [code] at POINTER: value "V": MESSAGE`,
/// and a summary line.
std::string lint_report_text(const std::vector<LintReport>& reports);

}  // namespace exactdp
