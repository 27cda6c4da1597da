// The registry: assembly in catalogue order, the runner, and the generated pages.
#include "proofs_checks/registry.hpp"

#include "exactdp/core/error.hpp"
#include "exactdp/game/engine.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <set>

namespace exactdp::proofs {

unsigned Budget::random_count() const {
  if (random != 0) return random;
  switch (level) {
    case BudgetLevel::small: return 6;
    case BudgetLevel::standard: return 40;
    case BudgetLevel::extended: return 400;
  }
  return 6;
}

unsigned Budget::horizon_cap() const {
  if (max_horizon != 0) return max_horizon;
  switch (level) {
    case BudgetLevel::small: return 3;
    case BudgetLevel::standard: return 4;
    case BudgetLevel::extended: return 6;
  }
  return 3;
}

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::confirmed: return "confirmed";
    case Verdict::violated: return "VIOLATED";
    case Verdict::reproduced: return "reproduced";
    case Verdict::not_reproduced: return "NOT REPRODUCED";
    case Verdict::not_checked: return "not yet checked";
    case Verdict::documented: return "documented only";
    case Verdict::refused: return "REFUSED (too large)";
  }
  return "?";
}

const char* to_string(Kind k) {
  switch (k) {
    case Kind::positive: return "POSITIVE";
    case Kind::negative: return "NEGATIVE";
    case Kind::reduction: return "REDUCTION";
    case Kind::note: return "NOTE";
  }
  return "?";
}

const char* to_string(Status s) {
  switch (s) {
    case Status::as_stated: return "as stated";
    case Status::corrected: return "corrected";
    case Status::claim: return "claim to machine-check (doubtful)";
  }
  return "?";
}

long Rng::range(long lo, long hi) {
  // Rejection sampling on the raw 64-bit output: exact uniformity, platform-independent.
  const std::uint64_t span = static_cast<std::uint64_t>(hi - lo) + 1;
  const std::uint64_t limit = UINT64_MAX - UINT64_MAX % span;
  std::uint64_t x;
  do x = engine_(); while (x >= limit);
  return lo + static_cast<long>(x % span);
}

namespace {
std::uint64_t mix(std::uint64_t seed, const std::string& id) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a of the id, then combined with the seed
  for (unsigned char c : id) h = (h ^ c) * 1099511628211ull;
  return seed ^ (h + 0x9e3779b97f4a7c15ull + (seed << 6) + (seed >> 2));
}
}  // namespace

CheckContext::CheckContext(const Budget& budget, const std::string& id) : budget_(budget), rng_(mix(budget.seed, id)) {}

void CheckContext::instance(const std::string& name, const std::string& outcome, bool ok, unsigned horizon) {
  instances_.push_back({name, outcome, ok});
  if (!ok) ++failures_;
  horizon_ = std::max(horizon_, horizon);
}

void CheckContext::random_instance(bool ok, const std::string& description_if_failed, unsigned horizon) {
  ++random_;
  horizon_ = std::max(horizon_, horizon);
  if (!ok) {
    ++failures_;
    counterexamples_.push_back(description_if_failed);
  }
}

void CheckContext::counterexample(const std::string& text) {
  ++failures_;
  counterexamples_.push_back(text);
}

const std::vector<Theorem>& registry() {
  static const std::vector<Theorem> all = [] {
    std::vector<Theorem> r;
    families::background(r);
    families::vadhan_wang(r);
    families::lyu_s4_1_approximate(r);
    families::lyu_s4_2_renyi(r);
    families::lyu_appb_guess_and_check(r);
    families::hstvvxz23_s1_s2_composition(r);
    families::hstvvxz23_s3_fdp_filters(r);
    families::hstvvxz23_s4_renyi(r);
    families::hstvvxz23_filter_background(r);
    families::hsv_s1_s3_model(r);
    families::hsv_s4_concurrent(r);
    families::hsv_s5_parallel(r);
    families::hsv_s6_complex(r);
    families::hsv_s7_s9_applications(r);
    families::hsv_s10_simulation(r);
    families::hsv_s11_coupling(r);
    families::hsv_s12_s14_filters_renyi_fdp(r);
    families::facts(r);
    std::set<std::string> seen;
    for (const auto& t : r)
      if (!seen.insert(t.id).second) throw Error("proofs_checks", "id", t.id, "registered twice");
    return r;
  }();
  return all;
}

const Theorem* find_theorem(const std::string& id) {
  for (const auto& t : registry())
    if (t.id == id) return &t;
  return nullptr;
}

CheckResult run_check(const Theorem& theorem, const Budget& budget) {
  CheckResult r;
  r.theorem = &theorem;
  if (!theorem.check) {
    // A NOTE without a check is not pending work: it states something that finite instances
    // cannot test (a limit, an open problem); anything else without a check is still to be written.
    const bool note = theorem.kind == Kind::note;
    r.verdict = note ? Verdict::documented : Verdict::not_checked;
    r.summary = (note ? "documented only: " : "not yet checked: ") + theorem.not_checked_reason;
    return r;
  }
  CheckContext ctx(budget, theorem.id);
  const auto start = std::chrono::steady_clock::now();
  try {
    theorem.check(ctx);
  } catch (const GameTooLarge& e) {
    // A resource refusal is neither a confirmation nor a counterexample.
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    r.verdict = Verdict::refused;
    r.summary = std::string("refused: ") + e.what();
    return r;
  } catch (const std::exception& e) {
    ctx.counterexample(std::string("the check stopped with an error: ") + e.what());
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.named_instances = static_cast<unsigned>(ctx.instances().size());
  r.random_instances = ctx.random_instances();
  r.largest_horizon = ctx.largest_horizon();
  r.instances = ctx.instances();
  r.counterexamples = ctx.counterexamples();
  r.notes = ctx.notes();
  const unsigned n = r.named_instances + r.random_instances;
  const bool ok = ctx.failures() == 0 && n > 0;
  if (theorem.kind == Kind::negative) {
    r.verdict = ok ? Verdict::reproduced : Verdict::not_reproduced;
    r.summary = ok ? "counterexample reproduced exactly on " + std::to_string(n) + " instance(s)"
                   : "the counterexample was not reproduced";
  } else {
    r.verdict = ok ? Verdict::confirmed : Verdict::violated;
    if (ok)
      r.summary = "holds on all " + std::to_string(n) + " instances" +
                  (r.largest_horizon ? " up to horizon " + std::to_string(r.largest_horizon) : "");
    else if (n == 0)
      r.summary = "the check ran no instance";
    else
      r.summary = "refuted by " + std::to_string(ctx.failures()) + " instance(s); see the counterexample";
  }
  return r;
}

// ------------------------------------------------------------------------------------ pages

namespace {

std::string section(const std::string& title, const std::string& body) {
  if (body.empty()) return "";
  return "## " + title + "\n\n" + body + "\n\n";
}

std::string bullet_list(const std::vector<std::string>& items) {
  std::string s;
  for (const auto& i : items) s += "- " + i + "\n";
  return s;
}

}  // namespace

std::string theorem_page(const Theorem& t, const CheckResult& r) {
  std::string s = "<!-- Generated by `exactdp theorems docs` from " + t.source +
                  "; edit the registry entry, not this page. -->\n\n";
  s += "# " + t.id + " — " + t.title + "\n\n";
  s += "| | |\n|---|---|\n";
  s += "| Source | " + t.citation + " |\n";
  s += "| Kind | " + std::string(to_string(t.kind)) + " |\n";
  s += "| Status | " + std::string(to_string(t.status)) + " |\n";
  s += "| Check | `" + t.source + "` |\n";
  s += "| Result (small budget, default seed) | " + std::string(to_string(r.verdict)) + " |\n\n";
  s += section("Statement", t.statement);
  s += section("Assumptions and reading", t.assumptions);
  s += section("How it is checked", t.check                 ? t.method
                                    : t.kind == Kind::note ? "Nothing to check on finite instances: " + t.not_checked_reason
                                                           : "Not yet checked: " + t.not_checked_reason +
                                                             (t.method.empty() ? "" : "\n\nPlanned check: " + t.method));
  s += section("Instances", t.instances);
  if (t.check) {
    std::string out;
    if (!r.instances.empty()) {
      out += "| instance | exact outcome | verified |\n|---|---|---|\n";
      for (const auto& i : r.instances) out += "| " + i.name + " | " + i.outcome + " | " + (i.ok ? "yes" : "**NO**") + " |\n";
      out += "\n";
    }
    out += "Random instances at the small budget (seed 20261122): " + std::to_string(r.random_instances) + ".\n";
    out += "Summary: " + r.summary + ".\n";
    if (!r.notes.empty()) out += "\n" + bullet_list(r.notes);
    if (!r.counterexamples.empty()) {
      out += "\nCounterexamples:\n\n";
      for (const auto& c : r.counterexamples) out += "```\n" + c + "\n```\n";
    }
    s += section("Outcomes", out);
  }
  s += section("Explanation", t.explanation);
  if (!t.exercises.empty()) s += section("Library functions exercised", bullet_list(t.exercises));
  return s;
}

std::string theorem_index(const std::vector<CheckResult>& results) {
  std::string s = "<!-- Generated by `exactdp theorems docs`; do not edit. -->\n\n# spec/theorems/\n\n";
  s += "One page per entry of the theorem registry (`proofs_checks/`), generated from it by\n"
       "`exactdp theorems docs --out spec/theorems`; the tests `TheoremRegistry/EveryTheorem.*` (a page\n"
       "each) and `TheoremPages.UpToDate` (this index) fail when a page differs from what the registry\n"
       "generates. Identifiers are those of THEOREMS.md part C.\n"
       "Outcomes are those of the small budget with the default seed; run `exactdp theorems check`\n"
       "for the default budget.\n\n";
  s += "| id | title | kind | status | result |\n|---|---|---|---|---|\n";
  for (const auto& r : results)
    s += "| [" + r.theorem->id + "](" + r.theorem->id + ".md) | " + r.theorem->title + " | " +
         to_string(r.theorem->kind) + " | " + to_string(r.theorem->status) + " | " + to_string(r.verdict) + " |\n";
  return s;
}

namespace {
// Doxygen treats some characters specially in Markdown pages; the registry's texts are plain, so
// only backslashes and at-signs need escaping, and '<' which could open an HTML tag.
std::string doxygen_escape(const std::string& in) {
  std::string out;
  for (char c : in) {
    if (c == '\\' || c == '@' || c == '<' || c == '>' || c == '#' || c == '%' || c == '&' || c == '$') out += '\\';
    out += c;
  }
  return out;
}
}  // namespace

std::string doxygen_index(const std::vector<CheckResult>& results) {
  std::string s = "# Theorem index {#theorem_index}\n\n";
  s += "Generated by `exactdp theorems docs`; do not edit. Each theorem of the registry\n"
       "(`proofs_checks/`) with the source file of its check and the library functions the check\n"
       "exercises. The full page of each theorem is `spec/theorems/ID.md`.\n\n";
  s += "| id | kind | result (small budget) | check | library functions |\n|---|---|---|---|---|\n";
  for (const auto& r : results) {
    std::string fns;
    for (const auto& f : r.theorem->exercises) fns += (fns.empty() ? "" : ", ") + f;
    s += "| " + doxygen_escape(r.theorem->id) + " | " + to_string(r.theorem->kind) + " | " + to_string(r.verdict) +
         " | " + doxygen_escape(r.theorem->source) + " | " + fns + " |\n";
  }
  return s;
}

}  // namespace exactdp::proofs
