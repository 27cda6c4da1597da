// `exactdp run SPEC --world x`: a live session of a spec file's mechanism (issue 7, docs/run.md).
// Reads one JSON string per line (the message) and writes one JSON object per line with the answer.
#include "commands.hpp"

#include "exactdp/core/error.hpp"
#include "exactdp/core/limits.hpp"
#include "exactdp/io/json_reader.hpp"
#include "exactdp/io/spec_file.hpp"
#include "exactdp/sample/random_source.hpp"
#include "exactdp/sample/session.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

namespace exactdp::cli {
namespace {

using json = nlohmann::json;

/// A line as shown in an error message (shortened).
std::string shown(const std::string& line) { return line.size() > 60 ? line.substr(0, 57) + "..." : line; }

/// The message of one input line, or an exactdp::Error naming the line number and the value.
std::string read_message(const std::string& line, std::size_t number) {
  const std::string where = "stdin line " + std::to_string(number);
  if (line.size() > limits::max_session_line_bytes)
    throw Error(where, "", shown(line), "line longer than " + std::to_string(limits::max_session_line_bytes) + " bytes");
  json v;
  try {
    v = json::parse(line);
  } catch (const json::exception&) {
    throw Error(where, "", shown(line), "not valid JSON (each line must be a JSON string such as \"q\")");
  }
  if (!v.is_string()) throw Error(where, "", shown(line), "expected a JSON string (the message), such as \"q\"");
  return v.get<std::string>();
}

bool blank(const std::string& line) { return line.find_first_not_of(" \t\r") == std::string::npos; }

/// Reads one line, keeping at most limits::max_session_line_bytes + 1 characters of it (the rest is
/// discarded), so that a line without end cannot exhaust memory. False at end of input.
bool read_bounded_line(std::istream& in, std::string& line) {
  line.clear();
  int c;
  bool any = false;
  while ((c = in.get()) != EOF) {
    any = true;
    if (c == '\n') return true;
    if (line.size() <= limits::max_session_line_bytes) line.push_back(static_cast<char>(c));
  }
  return any;
}

}  // namespace

std::function<int()> add_run(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "run",
      "Run a spec file's mechanism live: each line of standard input is a JSON string (a message),\n"
      "each line of standard output a JSON object {\"step\": n, \"answer\": a}. Answers are drawn\n"
      "exactly from the spec's tables (integer arithmetic on random bits from the OS CSPRNG, or from\n"
      "a deterministic stream with --seed). The state persists across messages and is secret: it is\n"
      "printed only with --show-state. A bad line (not a JSON string, or a message outside the spec's\n"
      "alphabet) stops the session with exit code 2 (naming the line), unless --keep-going, which\n"
      "answers it {\"step\": n, \"error\": ...} and carries on.\n"
      "Blank lines are ignored.\n\n"
      "Examples:\n"
      "  printf '\"q\"\\n\"q\"\\n' | exactdp run spec/mechanisms/two-round-example.json --world x\n"
      "  exactdp run spec/mechanisms/sticky-rr.json --world x --seed 42 --transcript t.jsonl");
  struct Options {
    std::string file, world, state, seed, transcript;
    bool show_state = false, keep_going = false;
  };
  auto o = std::make_shared<Options>();
  cmd->add_option("SPEC", o->file, "A mechanism spec file (format exactdp/1)")->required();
  auto* w = cmd->add_option("--world", o->world, "Start in this world of the spec (its initial law is sampled)");
  auto* s = cmd->add_option("--state", o->state, "Start in this state of the spec's table");
  w->excludes(s);
  cmd->add_option("--seed", o->seed,
                  "Use the deterministic stream of this seed instead of the OS CSPRNG (replayable, NOT secret)");
  cmd->add_option("--transcript", o->transcript, "Also write the session (messages and answers) to this JSON-lines file");
  cmd->add_flag("--show-state", o->show_state, "Add the secret state to every output line (debugging only)");
  cmd->add_flag("--keep-going", o->keep_going, "Answer a bad line with an error object and continue");
  return [=]() -> int {
    if (o->world.empty() == o->state.empty())
      throw Error("run", "--world/--state", "", "give the world (--world x) or the state (--state S) to start in");
    Game game = load_spec_file(o->file);
    std::shared_ptr<BitSource> source;
    if (!o->seed.empty()) {
      source = std::make_shared<SeededSource>(o->seed);
      std::cerr << "exactdp run: deterministic randomness from --seed \"" << o->seed
                << "\": the session is replayable by anyone who knows the seed; do not use it on real data\n";
    } else {
      source = std::make_shared<SystemSource>();
    }
    if (o->show_state) std::cerr << "exactdp run: --show-state prints the secret state of the mechanism\n";
    SessionStart start;
    if (!o->world.empty()) start.world = o->world;
    else start.state = o->state;
    Session session = start_session(game, start, source);

    std::ofstream transcript;
    if (!o->transcript.empty()) {
      transcript.open(o->transcript);
      if (!transcript) throw Error("--transcript", "", o->transcript, "cannot open the transcript file for writing");
      json head = {{"format", "exactdp-transcript/1"}, {"spec", o->file}, {"mechanism", game.name},
                   {"randomness", o->seed.empty() ? "os" : "seeded"}};
      if (!o->seed.empty()) head["seed"] = o->seed;
      if (!o->world.empty()) head["world"] = o->world;
      else head["state"] = o->state;
      if (o->show_state) head["initial_state"] = session.state_name();
      transcript << head.dump() << "\n" << std::flush;
    }
    auto emit = [&](json out, const std::string* message) {
      std::cout << out.dump() << "\n" << std::flush;
      if (transcript.is_open()) {
        if (message) out["message"] = *message;
        transcript << out.dump() << "\n" << std::flush;
      }
    };

    std::string line;
    std::size_t number = 0;
    bool warned_horizon = false;
    while (read_bounded_line(std::cin, line)) {
      ++number;
      if (blank(line)) continue;
      try {
        const std::string message = read_message(line, number);
        // an unknown message is refused here, by name, whatever the mechanism would answer
        if (!game.mechanism->message_id(message)) {
          const auto& alphabet = game.mechanism->messages();
          std::string known;
          for (const auto& m : alphabet) known += (known.empty() ? "" : ", ") + m;
          throw Error("stdin line " + std::to_string(number), "", shown(message),
                      "not in the message alphabet {" + known + "}" + io::did_you_mean(io::nearest_names(message, alphabet)));
        }
        SessionReply reply;
        try {
          reply = session.send(message);
        } catch (const Error& e) {
          throw Error("stdin line " + std::to_string(number), "", shown(message), e.why());
        }
        json out = {{"step", reply.step}, {"answer", reply.answer}};
        if (o->show_state) out["state"] = session.state_name();
        emit(out, &message);
        if (reply.step > game.horizon && !warned_horizon) {
          warned_horizon = true;
          std::cerr << "exactdp run: message " << reply.step << " exceeds the spec's horizon " << game.horizon
                    << ": the privacy analysis of the spec covers " << game.horizon << " rounds\n";
        }
      } catch (const Error& e) {
        if (!o->keep_going) throw;
        std::cerr << "exactdp: " << e.what() << "\n";
        emit(json{{"step", session.steps() + 1}, {"error", e.what()}}, nullptr);
      }
    }
    return 0;
  };
}

}  // namespace exactdp::cli
