// Library mechanisms in spec files (`"type": "library"`, library/library_registry.hpp): the
// bundled examples give the reference values of THEOREMS.md E.10, a spec gives the same game as
// the C++ factory, and every error names the file, the JSON path and the value.
#include "exactdp/game/engine.hpp"
#include "exactdp/io/spec_file.hpp"
#include "exactdp/library/library.hpp"
#include "exactdp/library/library_registry.hpp"
#include "support/exact.hpp"
#include "support/paths.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

namespace exactdp {
namespace {

using testing::q;

using testing::spec_dir;

Error spec_error(const std::string& text) {
  try {
    parse_spec(text, "lib.json");
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "no error for " << text;
  return Error("none");
}

std::string library_spec(const std::string& mechanism, const std::string& extra = "") {
  return R"({"format": "exactdp/1", )" + extra + R"("mechanism": )" + mechanism + "}";
}

TEST(LibrarySpec, BundledExamplesGiveTheReferenceValues) {
  // E.10 H12: worst ratio 2216/629 at horizon 3
  auto svt = load_spec_file(spec_dir() / "above-threshold.json");
  EXPECT_EQ(svt.horizon, 3u);
  EXPECT_EQ(worst_case_ratio(svt).max(), ExtendedRational(q(2216, 629)));
  // E.10 H13: δ(λ) = 13/27, 2/9, 4/27, 0 at λ = 1, 2, 4, 8 (default horizon T = 4)
  auto tree = load_spec_file(spec_dir() / "tree-counter.json");
  EXPECT_EQ(tree.horizon, 4u);
  auto prof = worst_case_profile(tree).profile;
  EXPECT_EQ(prof.delta(1), q(13, 27));
  EXPECT_EQ(prof.delta(2), q(2, 9));
  EXPECT_EQ(prof.delta(4), q(4, 27));
  EXPECT_EQ(prof.delta(8), q(0));
  // E.10 H4
  auto md = load_spec_file(spec_dir() / "m-delta.json");
  EXPECT_EQ(worst_case_hockey_stick(md, 100).delta(), q(1, 10));
}

TEST(LibrarySpec, FactoriesEqualTheHandWrittenTables) {
  // mir-half.json and sticky-rr.json are tables written by hand from THEOREMS.md D.13 and D.16,
  // independently of the library: the library's Mir_{1/2} and sticky RR₃ (two answers) must have
  // the same worst-case profiles and Rényi moments
  for (const auto& [file, game] : {std::pair{"mir-half.json", library::mirror(q(1, 2))},
                                   std::pair{"sticky-rr.json", library::sticky_randomized_response(3, 2)}}) {
    auto table = load_spec_file(spec_dir() / file);
    auto a = worst_case_profile(table).profile, b = worst_case_profile(game).profile;
    EXPECT_EQ(a.forward(), b.forward()) << file;
    EXPECT_EQ(a.backward(), b.backward()) << file;
    EXPECT_EQ(worst_case_renyi_moment(table, 2).max(), worst_case_renyi_moment(game, 2).max()) << file;
  }
}

TEST(LibrarySpec, SpecEqualsFactoryAndHorizonOverrides) {
  auto g = parse_spec(library_spec(R"({"type": "library", "name": "irr", "params": {"lambda": 2, "delta": "0.1"}})", R"("horizon": 3, )"),
                      "irr.json");
  EXPECT_EQ(g.horizon, 3u);
  auto a = worst_case_profile(g).profile, b = worst_case_profile(library::interactive_randomized_response(2, q(1, 10))).profile;
  EXPECT_EQ(a.forward(), b.forward());
  EXPECT_EQ(a.backward(), b.backward());
  auto r = parse_spec(library_spec(R"({"type": "library", "name": "renyi-gadget", "params": {"alpha": 2, "lambda": "3/2", "q": "3/4"}})"), "r.json");
  EXPECT_EQ(worst_case_renyi_moment(r, 2).max(), ExtendedRational(q(3, 2)));
  auto lot = parse_spec(library_spec(R"({"type": "library", "name": "lottery", "params": {"delta": "1/3"}})"), "l.json");
  EXPECT_EQ(lot.mechanism->messages().size(), 3u);
  auto coin = parse_spec(library_spec(R"({"type": "library", "name": "coin", "params": {"pmf": ["1/2", "1/2"], "horizon": 2}})"), "c.json");
  EXPECT_EQ(coin.horizon, 2u);
}

TEST(LibrarySpec, ErrorsNameFileJsonPathAndValue) {
  auto e = spec_error(library_spec(R"({"type": "library", "name": "svt"})"));
  EXPECT_EQ(e.where(), "lib.json");
  EXPECT_EQ(e.field(), "/mechanism/name");
  EXPECT_EQ(e.value(), "svt");
  EXPECT_NE(e.why().find("above-threshold"), std::string::npos);  // lists the known names
  EXPECT_NE(e.why().find("tree-counter"), std::string::npos);

  e = spec_error(library_spec(R"({"type": "library", "name": "above-threshold", "params": {"r_threshold": "1/4", "r_query": "3/2"}})"));
  EXPECT_EQ(e.field(), "/mechanism/params/r_query");
  EXPECT_EQ(e.value(), "3/2");

  e = spec_error(library_spec(R"({"type": "library", "name": "rr", "params": {"lambda": 0.5}})"));
  EXPECT_EQ(e.field(), "/mechanism/params/lambda");
  EXPECT_EQ(e.value(), "0.5");

  e = spec_error(library_spec(R"({"type": "library", "name": "rr", "params": {"lambda": 2, "eps": 1}})"));
  EXPECT_EQ(e.field(), "/mechanism/params/eps");
  EXPECT_NE(e.why().find("lambda"), std::string::npos);

  e = spec_error(library_spec(R"({"type": "library", "name": "rr"})"));
  EXPECT_EQ(e.field(), "/mechanism/params");
  EXPECT_NE(e.why().find("lambda"), std::string::npos);

  e = spec_error(library_spec(R"({"type": "library", "name": "svt-counter", "params": {"r_threshold": "1/4", "r_query": "1/2", "thresholds": [0, "x"]}})"));
  EXPECT_EQ(e.field(), "/mechanism/params/thresholds/1");
  EXPECT_EQ(e.value(), "x");

  e = spec_error(library_spec(R"({"type": "library", "name": "tree-counter", "params": {"height": 9, "r": "1/2"}})"));
  EXPECT_EQ(e.field(), "/mechanism/params/height");
  EXPECT_EQ(e.value(), "9");

  e = spec_error(library_spec(R"({"type": "library", "name": "m-delta", "params": {"delta": "1/10"}})",
                              R"("neighbours": {"type": "static", "worlds": ["a", "b"]}, )"));
  EXPECT_EQ(e.field(), "/neighbours");

  e = spec_error(library_spec(R"({"type": "library", "name": "m-delta", "params": {"delta": "1/10"}})", R"("horizon": 0, )"));
  EXPECT_EQ(e.field(), "/horizon");
}

TEST(LibrarySpec, EveryRegisteredNameIsDocumented) {
  // spec/mechanisms/README.md documents each library name (a table row starting with `name`)
  std::ifstream in(spec_dir() / "README.md");
  std::string readme((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(library::library_entries().empty());
  for (const auto& e : library::library_entries()) EXPECT_NE(readme.find("| `" + e.name + "` |"), std::string::npos) << e.name;
}

}  // namespace
}  // namespace exactdp
