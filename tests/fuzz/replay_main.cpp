// A deterministic stand-in for libFuzzer, linked with one fuzz target (fuzz_spec_file.cpp or
// fuzz_claims.cpp) into the ordinary test build (ctest `fuzz_replay_*`), so that every run of the
// suite, under the sanitizers of that build, feeds the parsers their seed corpus and a fixed number
// of mutants of it. It has no coverage guidance — the libFuzzer run of tests/fuzz/run.sh (ctest
// `fuzz_smoke`, -DEXACTDP_BUILD_FUZZ=ON) remains the real fuzzer — but it costs no second build of
// the library, and it is reproducible: the mutants depend only on the corpus and the seed.
//
// Usage: fuzz_replay_TARGET CORPUS_DIR [MUTANTS_PER_INPUT] [SEED]
// Exit status 0 when every input returned; a crash, a sanitizer report or an exception other than
// exactdp::Error (the targets catch only that) ends the process with a failure. Each input is
// written to fuzz_replay-last-input in the working directory before it runs, so after a failure
// that file is the reproducer (run it through the libFuzzer target, or this program's directory).
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <random>
#include <string>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

/// Fragments that tend to matter to a JSON reader of exact numbers and state tables: structure,
/// number shapes the readers must refuse or read exactly, and names that resemble real ones.
constexpr std::array<std::string_view, 24> kFragments = {
    "{", "}", "[", "]", "\"", ",", ":", "null", "true", "-1", "0", "1/0", "0.5", "1e400",
    "-0", "99999999999999999999999999999999", "\"1/3\"", "\"next\"", "{}", "[]",
    "\"missing_rules\"", "\"*\"", "\\u0000", "\"max_horizon\""};

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// One to four random edits of `s`: flip a byte, delete a range, duplicate a range, insert a
/// fragment, or splice in a piece of another corpus input.
std::string mutate(std::string s, const std::vector<std::string>& corpus, std::mt19937_64& rng) {
  auto below = [&](std::size_t n) { return n == 0 ? std::size_t{0} : static_cast<std::size_t>(rng() % n); };
  const std::size_t edits = 1 + below(4);
  for (std::size_t e = 0; e < edits; ++e) {
    const std::size_t at = below(s.size() + 1);
    switch (below(5)) {
      case 0:
        if (!s.empty()) s[below(s.size())] ^= static_cast<char>(1u << below(8));
        break;
      case 1:
        s.erase(at, 1 + below(16));
        break;
      case 2:
        if (at < s.size()) s.insert(at, s.substr(at, 1 + below(32)));
        break;
      case 3:
        s.insert(at, kFragments[below(kFragments.size())]);
        break;
      default: {
        const std::string& other = corpus[below(corpus.size())];
        const std::size_t from = below(other.size() + 1);
        s.insert(at, other.substr(from, 1 + below(64)));
        break;
      }
    }
  }
  return s;
}

void run_one(const std::string& input) {
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 4) {
    std::cerr << "usage: " << argv[0] << " CORPUS_DIR [MUTANTS_PER_INPUT] [SEED]\n";
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  const unsigned long mutants = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 300;
  const unsigned long long seed = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 20261128;

  std::vector<std::filesystem::path> paths;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.is_regular_file()) paths.push_back(entry.path());
  std::sort(paths.begin(), paths.end());  // the directory order is not portable; the run must be
  if (paths.empty()) {
    std::cerr << "fuzz_replay: no inputs in " << dir << '\n';
    return 2;
  }
  std::vector<std::string> corpus;
  for (const auto& p : paths) corpus.push_back(read_file(p));

  std::mt19937_64 rng(seed);
  std::size_t runs = 0;
  for (std::size_t i = 0; i < corpus.size(); ++i) {
    std::cerr << "fuzz_replay: " << paths[i].filename().string() << " and " << mutants << " mutants\n";
    run_one(corpus[i]);
    ++runs;
    for (unsigned long m = 0; m < mutants; ++m) {
      const std::string input = mutate(corpus[i], corpus, rng);
      std::ofstream("fuzz_replay-last-input", std::ios::binary | std::ios::trunc) << input;
      run_one(input);
      ++runs;
    }
  }
  std::cout << "fuzz_replay: " << runs << " inputs, none crashed (seed " << seed << ")\n";
  return 0;
}
