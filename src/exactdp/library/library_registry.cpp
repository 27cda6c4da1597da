// The library's mechanisms by name (spec files' "type": "library").
#include "exactdp/library/library_registry.hpp"

#include "exactdp/core/error.hpp"
#include "exactdp/library/library.hpp"
#include "exactdp/library/library_hsv.hpp"

#include <algorithm>
#include <functional>

namespace exactdp::library {

LibraryArguments::LibraryArguments(std::string where, std::string path, std::map<std::string, LibraryArgument> args)
    : where_(std::move(where)), path_(std::move(path)), args_(std::move(args)) {}

void LibraryArguments::fail(const std::string& key, const std::string& value, const std::string& why) const {
  throw Error(where_, path_ + "/" + key, value, why);
}

const LibraryArgument& LibraryArguments::scalar(const std::string& key) const {
  auto it = args_.find(key);
  if (it == args_.end()) throw Error(where_, path_, "", "missing required parameter \"" + key + "\"");
  used_.insert(key);
  if (it->second.is_list) fail(key, it->second.text, "expected a single value, not a list");
  return it->second;
}

Rational LibraryArguments::rational(const std::string& key) const {
  const auto& a = scalar(key);
  try {
    return parse_rational(a.text, key);
  } catch (const Error& e) {
    fail(key, a.text, e.why());
  }
}

Rational LibraryArguments::rational(const std::string& key, const Rational& fallback) const {
  return has(key) ? rational(key) : fallback;
}

namespace {
/// An integer in [lo, hi] from its text, or std::nullopt.
std::optional<long> integer_of(const std::string& text, long lo, long hi) {
  Rational q;
  try {
    q = parse_rational(text, "value");
  } catch (const Error&) {
    return std::nullopt;
  }
  if (q.get_den() != 1 || q < lo || q > hi) return std::nullopt;
  return q.get_num().get_si();
}
}  // namespace

long LibraryArguments::integer(const std::string& key, long fallback, long lo, long hi) const {
  if (!has(key)) return fallback;
  const auto& a = scalar(key);
  auto v = integer_of(a.text, lo, hi);
  if (!v) fail(key, a.text, "expected an integer between " + std::to_string(lo) + " and " + std::to_string(hi));
  return *v;
}

std::vector<Rational> LibraryArguments::rationals(const std::string& key) const {
  auto it = args_.find(key);
  if (it == args_.end()) throw Error(where_, path_, "", "missing required parameter \"" + key + "\"");
  used_.insert(key);
  if (!it->second.is_list) fail(key, it->second.text, "expected a list");
  std::vector<Rational> out;
  for (std::size_t i = 0; i < it->second.items.size(); ++i) {
    try {
      out.push_back(parse_rational(it->second.items[i], key));
    } catch (const Error& e) {
      fail(key + "/" + std::to_string(i), it->second.items[i], e.why());
    }
  }
  return out;
}

std::vector<long> LibraryArguments::integers(const std::string& key, long lo, long hi) const {
  auto it = args_.find(key);
  if (it == args_.end()) throw Error(where_, path_, "", "missing required parameter \"" + key + "\"");
  used_.insert(key);
  if (!it->second.is_list) fail(key, it->second.text, "expected a list");
  std::vector<long> out;
  for (std::size_t i = 0; i < it->second.items.size(); ++i) {
    auto v = integer_of(it->second.items[i], lo, hi);
    if (!v) fail(key + "/" + std::to_string(i), it->second.items[i], "expected an integer between " + std::to_string(lo) + " and " + std::to_string(hi));
    out.push_back(*v);
  }
  return out;
}

void LibraryArguments::finish(const std::string& known) const {
  for (const auto& [k, v] : args_)
    if (!used_.count(k)) fail(k, v.text, "unknown parameter for this mechanism (it takes: " + known + ")");
}

namespace {

using Maker = std::function<Game(const LibraryArguments&)>;

struct Registered {
  LibraryEntry entry;
  Maker make;
};

SparseVectorParams svt_params(const LibraryArguments& a) {
  SparseVectorParams p;
  p.r_threshold = a.rational("r_threshold");
  p.r_query = a.rational("r_query");
  p.queries = static_cast<unsigned>(a.integer("queries", 3, 1, 1000));
  p.cutoff = static_cast<unsigned>(a.integer("cutoff", 1, 1, 1000));
  return p;
}

HistogramParams histogram_params(const LibraryArguments& a) {
  HistogramParams p;
  p.d = static_cast<unsigned>(a.integer("d", 1, 1, 2));
  p.steps = static_cast<unsigned>(a.integer("steps", 2, 1, 3));
  p.r_threshold = a.rational("r_threshold", p.r_threshold);
  p.r_query = a.rational("r_query", p.r_query);
  p.r_laplace = a.rational("r_laplace", p.r_laplace);
  p.r_node = a.rational("r_node", p.r_node);
  p.gamma = a.integer("gamma", 1, 1, 3);
  p.xi = a.integer("xi", 0, 0, 3);
  return p;
}

HistogramVariant histogram_variant(const LibraryArguments& a) {
  switch (a.integer("leak", 0, 0, 2)) {
    case 1: return HistogramVariant::raw_branch;
    case 2: return HistogramVariant::raw_release;
    default: return HistogramVariant::faithful;
  }
}

CoreDecompositionParams core_params(const LibraryArguments& a) {
  CoreDecompositionParams p;
  p.vertices = static_cast<unsigned>(a.integer("vertices", 3, 2, 4));
  p.rounds = static_cast<unsigned>(a.integer("rounds", 2, 1, 3));
  p.r_threshold = a.rational("r_threshold", p.r_threshold);
  p.r_query = a.rational("r_query", p.r_query);
  return p;
}

CompositeModel hss_histogram_model(const LibraryArguments& a) { return hss_histogram(histogram_params(a), histogram_variant(a)); }

CompositeModel ldp_threshold_model(const LibraryArguments& a) {
  const auto n = static_cast<unsigned>(a.integer("users", 3, 1, 3));
  return ldp_threshold_protocol(n, a.rational("lambda", Rational(2)), static_cast<unsigned>(a.integer("k", std::min(2L, static_cast<long>(n)), 1, 3)));
}

CompositeModel core_decomposition_model(const LibraryArguments& a) { return core_decomposition(core_params(a)); }

/// The registry's composites (HSV §7–9) by name; their games are registered below.
const std::vector<std::pair<std::string, CompositeModel (*)(const LibraryArguments&)>>& composites() {
  static const std::vector<std::pair<std::string, CompositeModel (*)(const LibraryArguments&)>> c{
      {"hss-histogram", hss_histogram_model}, {"ldp-threshold-protocol", ldp_threshold_model}, {"core-decomposition", core_decomposition_model}};
  return c;
}

/// Runs a factory on @p args, anchoring a factory's own refusal (whose field is a parameter name)
/// in the source, then refuses unknown parameters (@p params lists the known ones).
template <typename F>
auto anchored(const LibraryArguments& args, const std::string& params, F&& make) {
  try {
    auto made = make(args);
    args.finish(params);
    return made;
  } catch (const Error& e) {
    if (e.where() == args.where()) throw;  // already anchored in the source
    throw Error(args.where(), args.path() + (e.field().empty() ? "" : "/" + e.field()), e.value(), e.why());
  }
}

const std::vector<Registered>& registry() {
  static const std::vector<Registered> r{
      {{"rr", "lambda, delta = 0", "one-shot randomized response RR_{lambda,delta} (THEOREMS.md D.1)"},
       [](const LibraryArguments& a) { return randomized_response(a.rational("lambda"), a.rational("delta", Rational(0))); }},
      {{"sticky-rr", "lambda, answers = 2", "sticky randomized response: one RR_lambda bit repeated (D.16)"},
       [](const LibraryArguments& a) {
         return sticky_randomized_response(a.rational("lambda"), static_cast<unsigned>(a.integer("answers", 2, 1, 1000)));
       }},
      {{"irr", "lambda, delta", "interactive randomized response IRR_{eps,delta} (HSV D2.9, D.2)"},
       [](const LibraryArguments& a) { return interactive_randomized_response(a.rational("lambda"), a.rational("delta")); }},
      {{"above-threshold", "r_threshold, r_query, queries = 3, cutoff = 1, min_margin = -1, max_margin = 1",
        "AboveThreshold / sparse vector on a static dataset, discrete Laplace noise, exact by B.13 (D.5)"},
       [](const LibraryArguments& a) {
         const auto p = svt_params(a);
         const long lo = a.integer("min_margin", -1, -1000, 1000), hi = a.integer("max_margin", 1, -1000, 1000);
         return above_threshold(p, lo, hi);
       }},
      {{"svt-counter", "r_threshold, r_query, thresholds, queries = 3, cutoff = 1",
        "SVT on a continual counter (HSV Alg. 3, d = 1), event-level f_S, exact by B.13 (D.5, E.10 H12)"},
       [](const LibraryArguments& a) {
         const auto p = svt_params(a);
         return svt_counter(p, a.integers("thresholds", -1000, 1000));
       }},
      {{"tree-counter", "height, r, max_input = 1, clamp = 0",
        "binary-tree counter, T = 2^height, DLap(r) per node, clamped noisy nodes (D.6, E.10 H13)"},
       [](const LibraryArguments& a) {
         const auto h = a.integer("height", 0, 0, 6);
         if (!a.has("height")) a.fail("height", "", "missing required parameter \"height\"");
         return binary_tree_counter(static_cast<unsigned>(h), a.rational("r"), a.integer("max_input", 1, 1, 16), a.integer("clamp", 0, 0, 64));
       }},
      {{"noisy-increments", "steps, r, max_input = 1, clamp = 0", "noisy-increments counter, DLap(r) per step (D.7)"},
       [](const LibraryArguments& a) {
         if (!a.has("steps")) a.fail("steps", "", "missing required parameter \"steps\"");
         const auto t = a.integer("steps", 1, 1, 64);
         return noisy_increments_counter(static_cast<unsigned>(t), a.rational("r"), a.integer("max_input", 1, 1, 16),
                                         a.integer("clamp", 0, 0, 64));
       }},
      {{"m-delta", "delta", "M_delta, the parallel-composition counterexample (HSV T5.2, D.11, E.10 H4)"},
       [](const LibraryArguments& a) { return m_delta(a.rational("delta")); }},
      {{"m-delta-interactive", "delta", "M_delta in interactive form: the secret bit first, then identical queries (D.11, E.10 H6)"},
       [](const LibraryArguments& a) { return m_delta_interactive(a.rational("delta")); }},
      {{"renyi-gadget", "q, and p or (alpha, lambda)",
        "the Renyi gadget with corrected parameters (HSV T13.5, D.12, E.10 H9)"},
       [](const LibraryArguments& a) {
         const Rational q = a.rational("q");
         if (a.has("p")) {
           if (a.has("alpha") || a.has("lambda")) a.fail("p", to_string(a.rational("p")), "give either p or (alpha, lambda), not both");
           return renyi_gadget(a.rational("p"), q);
         }
         if (!a.has("alpha") || !a.has("lambda")) throw Error(a.where(), a.path(), "", "the Renyi gadget needs p, or alpha and lambda");
         const auto alpha = static_cast<unsigned>(a.integer("alpha", 2, 2, 64));
         return renyi_gadget(renyi_gadget_p(alpha, a.rational("lambda"), q), q);
       }},
      {{"mirror", "p", "Mir_p, the counterexample to HSV L5.6(2) (D.13, E.10 H7)"},
       [](const LibraryArguments& a) { return mirror(a.rational("p")); }},
      {{"lottery", "n, or delta (n = ceil(1/delta))", "the footnote-1 lottery, adaptive vs oblivious (HSV fn. 1, D.14)"},
       [](const LibraryArguments& a) {
         if (a.has("n") == a.has("delta")) throw Error(a.where(), a.path(), "", "the lottery needs exactly one of n and delta");
         const unsigned long n = a.has("n") ? static_cast<unsigned long>(a.integer("n", 1, 1, 1000)) : lottery_size(a.rational("delta"));
         return lottery(n);
       }},
      {{"coin", "pmf, horizon = 1", "the 0-DP coin source (HSV Remark 8.3, D.15)"},
       [](const LibraryArguments& a) {
         return coin_source(a.rationals("pmf"), static_cast<unsigned>(a.integer("horizon", 1, 1, 1000)));
       }},
      // HSV §7–9 composites (library/library_hsv.hpp)
      {{"d-counter", "d, height, r, max_input = 1, clamp = 0",
        "d binary-tree counters side by side, relation f_C (HSV C7.5, D.8)"},
       [](const LibraryArguments& a) {
         if (!a.has("d")) a.fail("d", "", "missing required parameter \"d\"");
         if (!a.has("height")) a.fail("height", "", "missing required parameter \"height\"");
         return d_counter(static_cast<unsigned>(a.integer("d", 1, 1, 3)), static_cast<unsigned>(a.integer("height", 0, 0, 3)), a.rational("r"),
                          a.integer("max_input", 1, 1, 8), a.integer("clamp", 0, 0, 4));
       }},
      {{"hss-histogram", "d = 1, steps = 2, r_threshold = 1/4, r_query = 1/2, r_laplace = 1/16, r_node = 1/4, gamma = 1, xi = 0, leak = 0",
        "the HSS continual histogram built from SVT, Laplace and d-counter instances, relation f_H (HSV Alg 4, D.9); "
        "leak = 1 or 2 selects a leaky post-processor"},
       [](const LibraryArguments& a) { return hss_histogram_model(a).game; }},
      {{"ldp-threshold-protocol", "users = 3, lambda = 2, k = 2",
        "the two-round threshold LDP protocol as a continual mechanism, neighbours ~_{k,~*} (HSV §8, D.10, E.10 H14)"},
       [](const LibraryArguments& a) { return ldp_threshold_model(a).game; }},
      {{"core-decomposition", "vertices = 3, rounds = 2, r_threshold = 1/4, r_query = 1/2",
        "the core-decomposition protocol (users = AboveThreshold on neighbour sets, d_r = r), edge neighbours (HSV §9, E.10 H15)"},
       [](const LibraryArguments& a) { return core_decomposition_model(a).game; }},
  };
  return r;
}

}  // namespace

const std::vector<LibraryEntry>& library_entries() {
  static const std::vector<LibraryEntry> entries = [] {
    std::vector<LibraryEntry> out;
    for (const auto& r : registry()) out.push_back(r.entry);
    return out;
  }();
  return entries;
}

Game make_library_game(const std::string& name, const LibraryArguments& args, const std::string& name_field) {
  for (const auto& r : registry())
    if (r.entry.name == name) return anchored(args, r.entry.params, r.make);
  std::string known;
  for (const auto& r : registry()) known += (known.empty() ? "" : ", ") + r.entry.name;
  throw Error(args.where(), name_field, name, "unknown library mechanism (known: " + known + ")");
}

CompositeModel make_library_composite(const std::string& name, const LibraryArguments& args, const std::string& name_field) {
  for (const auto& [composite, make] : composites())
    if (composite == name)
      for (const auto& r : registry())
        if (r.entry.name == name) return anchored(args, r.entry.params, make);
  std::string known;
  for (const auto& c : composites()) known += (known.empty() ? "" : ", ") + c.first;
  throw Error(args.where(), name_field, name, "unknown library composite (known: " + known + ")");
}

}  // namespace exactdp::library
