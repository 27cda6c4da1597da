/// @file
/// The theorem registry (ARCHITECTURE.md, proofs_checks/): every theorem, lemma or corollary of the
/// catalogue (THEOREMS.md part C) is registered once — stable id, citation, statement, kind,
/// status, instances and check function — and the same registry drives `exactdp theorems`, the
/// test suite (tests/proofs_checks/) and the generated pages spec/theorems/<ID>.md.
///
/// A check never "passes" without computing: an entry whose check cannot be written yet has no
/// check function and carries the reason (its result is "not yet checked").
#pragma once

#include <cstdint>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace exactdp::proofs {

/// THEOREMS.md 0.2.
enum class Kind { positive, negative, reduction, note };
/// THEOREMS.md 0.2: "as stated", "corrected", "CLAIM TO MACHINE-CHECK" (doubtful).
enum class Status { as_stated, corrected, claim };

/// How much work a check may do.
enum class BudgetLevel { small, standard, extended };

/// The limits passed to a check (never global).
struct Budget {
  BudgetLevel level = BudgetLevel::standard;
  unsigned random = 0;        ///< random instances per check (0: the level's default)
  std::uint64_t seed = 20261122;
  unsigned max_horizon = 0;   ///< 0: the level's default
  /// The number of random instances to run.
  unsigned random_count() const;
  /// The largest horizon (rounds, or number of components) a check may use.
  unsigned horizon_cap() const;
};

/// The result of a check (the "result" column).
enum class Verdict {
  confirmed,       ///< POSITIVE/REDUCTION: holds on every instance checked
  violated,        ///< POSITIVE/REDUCTION: a counterexample was found (a serious finding)
  reproduced,      ///< NEGATIVE: the paper's counterexample was rebuilt and the violation verified
  not_reproduced,  ///< NEGATIVE: the violation could not be verified
  not_checked,     ///< no check function yet (the entry states why)
  documented,      ///< a NOTE with nothing to check on finite instances (the entry states why)
  refused          ///< the budget asked for a game larger than the engine's limit (exactdp::GameTooLarge)
};

/// "confirmed", "VIOLATED", …
const char* to_string(Verdict v);
/// "POSITIVE", …
const char* to_string(Kind k);
/// "as stated", "corrected", "claim to machine-check (doubtful)".
const char* to_string(Status s);

/// A deterministic random source for the random instances of a check. Draws are computed from
/// the raw 64-bit output of std::mt19937_64 (whose sequence is fixed by the standard), so a seed
/// gives the same instances on every platform.
class Rng {
public:
  /// @param seed  the run's seed combined with the theorem id
  explicit Rng(std::uint64_t seed) : engine_(seed) {}
  /// A uniform integer in [lo, hi] (lo ≤ hi).
  long range(long lo, long hi);
  /// True with probability 1/2.
  bool coin() { return range(0, 1) == 1; }

private:
  std::mt19937_64 engine_;
};

/// What a check writes while it runs.
class CheckContext {
public:
  /// @param budget  the run's limits
  /// @param id      the theorem id (mixed into the seed so that checks draw independently)
  CheckContext(const Budget& budget, const std::string& id);
  const Budget& budget() const { return budget_; }
  Rng& rng() { return rng_; }
  /// Records one named instance with its exact outcome; @p ok = false records a failure.
  void instance(const std::string& name, const std::string& outcome, bool ok, unsigned horizon = 0);
  /// Records one random instance (only failures are kept in full).
  void random_instance(bool ok, const std::string& description_if_failed, unsigned horizon = 0);
  /// Records a counterexample in full (fails the check).
  void counterexample(const std::string& text);
  /// A note printed with the result (e.g. which instances await later work).
  void note(const std::string& text) { notes_.push_back(text); }

  struct Instance {
    std::string name, outcome;
    bool ok = true;
  };
  const std::vector<Instance>& instances() const { return instances_; }
  unsigned random_instances() const { return random_; }
  unsigned failures() const { return failures_; }
  unsigned largest_horizon() const { return horizon_; }
  const std::vector<std::string>& counterexamples() const { return counterexamples_; }
  const std::vector<std::string>& notes() const { return notes_; }

private:
  Budget budget_;
  Rng rng_;
  std::vector<Instance> instances_;
  std::vector<std::string> counterexamples_, notes_;
  unsigned random_ = 0, failures_ = 0, horizon_ = 0;
};

/// One registry entry.
struct Theorem {
  std::string id;          ///< THEOREMS.md identifier, e.g. "BG-KOV15-OPT"
  std::string title;       ///< a few words
  std::string citation;    ///< sources and aliases
  Kind kind = Kind::positive;
  Status status = Status::as_stated;
  std::string statement;   ///< plain text, Unicode math
  std::string assumptions; ///< hypotheses and the reading adopted (may be empty)
  std::string method;      ///< how it is checked
  std::string instances;   ///< the named instances (THEOREMS.md parts D/E)
  std::string explanation; ///< optional hand-written explanation for the page
  std::vector<std::string> exercises;  ///< library functions the check exercises
  std::string source;      ///< the proofs_checks/ file holding the check
  /// The check: records instances into the context. Empty when not yet checkable.
  std::function<void(CheckContext&)> check;
  std::string not_checked_reason;  ///< why there is no check (when check is empty; for a NOTE, why nothing is checkable)
};

/// The outcome of running one entry.
struct CheckResult {
  const Theorem* theorem = nullptr;
  Verdict verdict = Verdict::not_checked;
  unsigned named_instances = 0, random_instances = 0, largest_horizon = 0;
  std::vector<CheckContext::Instance> instances;
  std::vector<std::string> counterexamples, notes;
  std::string summary;  ///< one line: "holds on all N instances up to horizon T", "refuted by …"
  double seconds = 0;   ///< wall time (reported, never asserted on)
  /// True when the result is a failure of the run (exit code 1).
  bool failed() const { return verdict == Verdict::violated || verdict == Verdict::not_reproduced; }
};

/// The registry in catalogue order (built once).
const std::vector<Theorem>& registry();
/// The entry with @p id, or nullptr.
const Theorem* find_theorem(const std::string& id);
/// Runs one entry's check (an exception inside a check is a failure with its message).
CheckResult run_check(const Theorem& theorem, const Budget& budget);

/// The Markdown page spec/theorems/<ID>.md of one entry, with the outcomes of @p result (run at
/// the small budget with the default seed by the docs generator, so that pages are reproducible).
std::string theorem_page(const Theorem& theorem, const CheckResult& result);
/// The index spec/theorems/README.md.
std::string theorem_index(const std::vector<CheckResult>& results);
/// The Doxygen page docs/theorems.md indexing each theorem to its check and library functions.
std::string doxygen_index(const std::vector<CheckResult>& results);

/// The registration functions, one per source file (one theorem group each), called in this order:
/// the papers in the order of the catalogue (docs/THEOREMS.md part C), each in the order of its sections.
namespace families {
void background(std::vector<Theorem>& out);
void vadhan_wang(std::vector<Theorem>& out);
void lyu_s4_1_approximate(std::vector<Theorem>& out);
void lyu_s4_2_renyi(std::vector<Theorem>& out);
void lyu_appb_guess_and_check(std::vector<Theorem>& out);
void hstvvxz23_s1_s2_composition(std::vector<Theorem>& out);
void hstvvxz23_s3_fdp_filters(std::vector<Theorem>& out);
void hstvvxz23_s4_renyi(std::vector<Theorem>& out);
void hstvvxz23_filter_background(std::vector<Theorem>& out);
void hsv_s1_s3_model(std::vector<Theorem>& out);
void hsv_s4_concurrent(std::vector<Theorem>& out);
void hsv_s5_parallel(std::vector<Theorem>& out);
void hsv_s6_complex(std::vector<Theorem>& out);
void hsv_s7_s9_applications(std::vector<Theorem>& out);
void hsv_s10_simulation(std::vector<Theorem>& out);
void hsv_s11_coupling(std::vector<Theorem>& out);
void hsv_s12_s14_filters_renyi_fdp(std::vector<Theorem>& out);
void facts(std::vector<Theorem>& out);
}  // namespace families

}  // namespace exactdp::proofs
