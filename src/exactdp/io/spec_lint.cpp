#include "exactdp/io/spec_lint.hpp"

#include "exactdp/io/parametric_spec.hpp"

#include "exactdp/game/structure.hpp"
#include "exactdp/io/json_reader.hpp"
#include "exactdp/io/spec_file.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace exactdp {
namespace {

using Severity = LintDiagnostic::Severity;

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

/// The warnings of one table (see the file comment of spec_lint.hpp).
void table_warnings(const SpecTable& t, std::vector<LintDiagnostic>& out) {
  const TableMechanism& m = *t.mechanism;
  const MechanismStructure st = analyse_structure(m, m.state_count(), t.initial);
  auto state_pointer = [&](StateId s) { return t.pointer + "/states/" + io::pointer_segment(m.state_name(s)); };
  for (StateId s : st.unreachable)
    out.push_back({Severity::warning, "unreachable-state", state_pointer(s), m.state_name(s),
                   "no sequence of messages reaches this state from either world's initial state (it changes no verdict; "
                   "is a next state misspelt elsewhere, or an initial state wrong?)"});
  if (!st.complete)
    out.push_back({Severity::note, "analysis-skipped", t.pointer + "/states", std::to_string(m.state_count()) + " states",
                   "the table is too deep for the bisimulation's work budget: bisimilar states and indistinguishable answers "
                   "were not checked (the errors and the other warnings were)"});
  for (const auto& cls : st.bisimilar) {
    if (std::all_of(cls.begin(), cls.end(), [&](StateId s) { return st.halted[s]; })) continue;  // halted states alike are expected
    std::vector<std::string> names;
    for (StateId s : cls) names.push_back(m.state_name(s));
    out.push_back({Severity::warning, "bisimilar-states", state_pointer(cls.front()), joined(names),
                   "these reachable states behave identically (bisimilar: every message gives every answer the same "
                   "probability, with next states that behave identically in turn); merging them changes no verdict. If "
                   "they were meant to differ, a row is wrong"});
  }
  for (const auto& group : st.indistinguishable) {
    std::vector<std::string> names;
    for (AnswerId a : group) names.push_back(m.answer_name(a));
    out.push_back({Severity::warning, "indistinguishable-answers", t.pointer + "/states", joined(names),
                   "no event and no adversary can tell these answers apart (under every message, in every reachable state, "
                   "their probabilities are in one fixed ratio with next states that behave identically); merging them "
                   "changes no verdict. Is one of them a misspelling of the other?"});
  }
}

std::string json_text(const std::string& s) { return io::Json(s).dump(); }

}  // namespace

std::size_t LintReport::errors() const {
  return static_cast<std::size_t>(std::count_if(diagnostics.begin(), diagnostics.end(), [](const auto& d) { return d.severity == Severity::error; }));
}

std::size_t LintReport::warnings() const {
  return static_cast<std::size_t>(std::count_if(diagnostics.begin(), diagnostics.end(), [](const auto& d) { return d.severity == Severity::warning; }));
}

std::size_t LintReport::notes() const { return diagnostics.size() - errors() - warnings(); }

int LintReport::exit_code() const { return errors() ? 2 : warnings() ? 1 : 0; }

LintReport lint_spec(std::string_view text, const std::string& source) {
  // a spec with a parameter (docs/parametric.md): its validation for every value, then the table
  // checks on the spec instantiated at one value (the structure does not depend on the value)
  if (is_parametric_spec_text(text)) {
    try {
      const ParametricSpec spec = parse_parametric_spec(text, source);
      return lint_spec(spec.instantiate_text(spec.reference_value), source);
    } catch (const Error& e) {
      LintReport report;
      report.file = source;
      report.diagnostics.push_back({Severity::error, "invalid", e.field().empty() ? "/" : e.field(), e.value(), e.why()});
      return report;
    }
  }
  LintReport report;
  report.file = source;
  const SpecReading reading = read_spec(text, source);
  for (std::size_t i = 0; i < reading.errors.size(); ++i) {
    const Error& e = reading.errors[i];
    report.diagnostics.push_back({Severity::error, i < reading.error_codes.size() ? reading.error_codes[i] : "invalid",
                                  e.field().empty() ? "/" : e.field(), e.value(), e.why()});
  }
  if (!reading.game) return report;  // warnings need a spec that loads
  for (const auto& n : reading.notes) report.diagnostics.push_back({Severity::warning, n.code, n.pointer, n.value, n.message});
  for (const auto& t : reading.tables) table_warnings(t, report.diagnostics);
  return report;
}

LintReport lint_spec_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    LintReport r;
    r.file = file.string();
    r.diagnostics.push_back({Severity::error, "invalid", "/", "", "cannot open the spec file"});
    return r;
  }
  std::ostringstream buf;
  buf << in.rdbuf();
  return lint_spec(buf.str(), file.string());
}

std::string lint_report_json(const std::vector<LintReport>& reports) {
  io::Json out{{"format", "exactdp-lint/1"}, {"files", io::Json::array()}};
  std::size_t errors = 0, warnings = 0;
  int exit_code = 0;
  for (const auto& r : reports) {
    io::Json list = io::Json::array();
    for (const auto& d : r.diagnostics)
      list.push_back({{"severity", d.severity == Severity::error ? "error" : d.severity == Severity::warning ? "warning" : "note"}, {"code", d.code}, {"pointer", d.pointer},
                      {"value", d.value}, {"message", d.message}});
    out["files"].push_back({{"file", r.file}, {"errors", r.errors()}, {"warnings", r.warnings()}, {"diagnostics", std::move(list)}});
    errors += r.errors();
    warnings += r.warnings();
    exit_code = std::max(exit_code, r.exit_code());
  }
  out["errors"] = errors;
  out["warnings"] = warnings;
  out["exit_code"] = exit_code;
  return out.dump(2);
}

std::string lint_report_text(const std::vector<LintReport>& reports) {
  std::ostringstream os;
  std::size_t errors = 0, warnings = 0, clean = 0;
  for (const auto& r : reports) {
    for (const auto& d : r.diagnostics) {
      os << r.file << ": " << (d.severity == Severity::error ? "error" : d.severity == Severity::warning ? "warning" : "note") << " ["
         << d.code << "] at " << json_text(d.pointer);
      if (!d.value.empty()) os << ": value " << json_text(d.value);
      os << ": " << d.message << "\n";
    }
    errors += r.errors();
    warnings += r.warnings();
    if (r.errors() + r.warnings() == 0) ++clean;
  }
  os << "exactdp lint: " << reports.size() << " file" << (reports.size() == 1 ? "" : "s") << ", " << errors << " error"
     << (errors == 1 ? "" : "s") << ", " << warnings << " warning" << (warnings == 1 ? "" : "s") << " (" << clean << " clean)\n";
  return os.str();
}

}  // namespace exactdp
