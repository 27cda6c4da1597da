#include "exactdp/testing/witness.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <sstream>
#include <vector>

namespace exactdp {
namespace {

/// One view of an adversary with both worlds' probabilities and its gain
/// P_b(v) − λ·P_{1−b}(v) in direction b.
struct ViewMass {
  View view;
  Rational p0, p1, gain;
};

std::vector<ViewMass> view_masses(const Game& game, const Adversary& adversary, unsigned rounds, unsigned direction,
                                  const Rational& lambda) {
  const auto pair = view_distributions(game, adversary, rounds);
  std::map<View, std::pair<Rational, Rational>> masses;
  for (const auto& [v, p] : pair.world0) masses[v].first = p;
  for (const auto& [v, p] : pair.world1) masses[v].second = p;
  std::vector<ViewMass> out;
  for (auto& [v, p] : masses) {
    const Rational gain = direction == 0 ? Rational(p.first - lambda * p.second) : Rational(p.second - lambda * p.first);
    out.push_back({v, p.first, p.second, gain});
  }
  return out;
}

/// sup_S P_b(S) − λ·P_{1−b}(S) for one adversary: the sum of the positive gains.
Rational best_event_value(const std::vector<ViewMass>& views) {
  Rational total = 0;
  for (const auto& v : views)
    if (sgn(v.gain) > 0) total += v.gain;
  return total;
}

/// The nodes that send, reachable from the root, in preorder; siblings in increasing order of
/// @p gain (the positive gains of the views below them), so that the least valuable branches are
/// tried first and the shrunk witness keeps the heaviest one.
std::vector<std::size_t> sending_nodes(const Adversary& a, const std::map<View, Rational>& gain) {
  std::vector<std::size_t> out;
  std::vector<std::pair<std::size_t, View>> stack{{0, View{}}};
  while (!stack.empty()) {
    auto [n, prefix] = std::move(stack.back());
    stack.pop_back();
    const auto& node = a.nodes().at(n);
    if (!node.send) continue;
    out.push_back(n);
    std::vector<std::tuple<Rational, AnswerId, std::size_t>> children;
    for (const auto& [answer, child] : node.next) {
      View v = prefix;
      v.push_back(answer);
      auto it = gain.find(v);
      children.emplace_back(it == gain.end() ? Rational(0) : it->second, answer, child);
    }
    std::sort(children.begin(), children.end());
    for (auto it = children.rbegin(); it != children.rend(); ++it) {
      View v = prefix;
      v.push_back(std::get<1>(*it));
      stack.push_back({std::get<2>(*it), std::move(v)});
    }
  }
  return out;
}

/// The positive gains of @p views summed over every prefix.
std::map<View, Rational> prefix_gains(const std::vector<ViewMass>& views) {
  std::map<View, Rational> out;
  for (const auto& v : views)
    if (sgn(v.gain) > 0)
      for (std::size_t k = 0; k <= v.view.size(); ++k) out[View(v.view.begin(), v.view.begin() + static_cast<long>(k))] += v.gain;
  return out;
}

/// A copy of the reachable part of @p a, without links to nodes that stop (equivalent: an answer
/// without a child stops), and with every node whose prefix is not in @p keep stopped.
void copy_tree(const Adversary& a, std::size_t from, Adversary& out, std::size_t to, View& prefix, const std::set<View>* keep) {
  const auto& node = a.nodes().at(from);
  out.set_send(to, node.send);
  for (const auto& [answer, child] : node.next) {
    prefix.push_back(answer);
    const auto& c = a.nodes().at(child);
    if (c.send && (!keep || keep->count(prefix))) {
      const std::size_t n = out.add_node(std::nullopt);
      out.set_child(to, answer, n);
      copy_tree(a, child, out, n, prefix, keep);
    }
    prefix.pop_back();
  }
}

Adversary compact(const Adversary& a, const std::set<View>* keep = nullptr) {
  Adversary out;
  View prefix;
  copy_tree(a, 0, out, 0, prefix, keep);
  return out;
}

std::size_t display_width(const std::string& s) {
  return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string show_view(const InteractiveMechanism& m, const View& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + quoted(m.answer_name(v[i]));
  return s + "]";
}

std::string show_pair(const Game& game, const MessagePair& p) {
  const auto& ms = game.mechanism->messages();
  if (p.identical()) return "send " + quoted(ms.at(p.world0));
  return "send " + quoted(ms.at(p.world0)) + " to " + game.world_names[0] + ", " + quoted(ms.at(p.world1)) + " to " + game.world_names[1];
}

void tree_lines(const Game& game, const Adversary& a, std::size_t node, const std::string& indent, const std::string& lead,
                std::vector<std::string>& lines) {
  const auto& n = a.nodes().at(node);
  if (!n.send) return;
  lines.push_back(indent + lead + show_pair(game, *n.send));
  for (const auto& [answer, child] : n.next)
    tree_lines(game, a, child, indent + "  ", "on " + quoted(game.mechanism->answer_name(answer)) + ": ", lines);
}

}  // namespace

Witness minimal_witness(const Game& game, const Witness& witness, const Rational& delta, const MinimalWitnessOptions& options) {
  const unsigned t = witness.rounds, b = witness.direction;
  const Rational& lambda = witness.lambda;
  if (b > 1) throw Error("minimal_witness", "direction", std::to_string(b), "direction must be 0 or 1");
  Adversary tree = witness.adversary;
  if (!(best_event_value(view_masses(game, tree, t, b, lambda)) > delta))
    throw Error("minimal_witness", "delta", to_string(delta), "the witness does not refute the claim at this delta");

  // 1. cut subtrees, root first, keeping a violation (one pass suffices: see the file comment)
  if (tree.nodes().size() <= options.max_tree_nodes) {
    const std::map<View, Rational> gains = prefix_gains(view_masses(game, tree, t, b, lambda));
    const std::map<View, Rational> none;
    for (std::size_t n : sending_nodes(tree, gains)) {
      const auto live = sending_nodes(tree, none);
      if (std::find(live.begin(), live.end(), n) == live.end()) continue;  // below an accepted cut
      Adversary cut = tree;
      cut.set_send(n, std::nullopt);
      if (best_event_value(view_masses(game, cut, t, b, lambda)) > delta) tree = std::move(cut);
    }
  }
  tree = compact(tree);

  // 2. the fewest views whose gains exceed δ: the largest gains first
  std::vector<ViewMass> views = view_masses(game, tree, t, b, lambda);
  std::stable_sort(views.begin(), views.end(), [](const ViewMass& x, const ViewMass& y) { return x.gain > y.gain; });
  Witness w;
  w.direction = b;
  w.lambda = lambda;
  w.rounds = t;
  Rational sum = 0;
  std::set<View> prefixes;
  for (const auto& v : views) {
    if (sum > delta || sgn(v.gain) <= 0) break;
    sum += v.gain;
    w.event.push_back(v.view);
    w.probability_world0 += v.p0;
    w.probability_world1 += v.p1;
    for (std::size_t k = 0; k <= v.view.size(); ++k) prefixes.insert(View(v.view.begin(), v.view.begin() + static_cast<long>(k)));
  }
  std::sort(w.event.begin(), w.event.end());

  // 3. stop every branch that leads to no view of S
  w.adversary = compact(tree, &prefixes);
  return w;
}

std::string describe_refutation(const Game& game, const Witness& w, const Rational& delta, const std::optional<Rational>& worst,
                                std::optional<unsigned> horizon, std::size_t max_lines) {
  const auto& m = *game.mechanism;
  const std::string& own = game.world_names[w.direction];
  const std::string& other = game.world_names[1 - w.direction];
  const std::string lam = to_string(w.lambda);
  const unsigned h = horizon.value_or(game.horizon);

  std::vector<std::pair<std::string, std::string>> rows;  // label, text ("" label: continuation)
  rows.push_back({"neighbours", game.world_names[0] + " and " + game.world_names[1] + " (" + game.verifier->describe() + ")"});
  rows.push_back({"rounds", w.rounds == 1 ? "fails with 1 round" : "fails from round " + std::to_string(w.rounds) + " (holds for " +
                                                                     std::to_string(w.rounds - 1) + ")"});
  std::vector<std::string> tree;
  tree_lines(game, w.adversary, 0, "", "", tree);
  if (tree.empty()) tree.push_back("stop");
  const bool deep = tree.size() > 1;
  if (tree.size() > max_lines) {
    const std::size_t hidden = tree.size() - max_lines;
    tree.resize(max_lines);
    tree.push_back("… " + std::to_string(hidden) + " more lines");
  }
  for (std::size_t i = 0; i < tree.size(); ++i) rows.push_back({i == 0 ? "adversary" : "", tree[i]});
  if (deep) rows.push_back({"", "(any other answer: stop)"});
  const std::size_t shown = std::min<std::size_t>(w.event.size(), 8);
  if (w.event.size() == 1) {
    rows.push_back({"event S", show_view(m, w.event.front())});
  } else {
    rows.push_back({"event S", std::to_string(w.event.size()) + " views (answer sequences):"});
    for (std::size_t i = 0; i < shown; ++i) rows.push_back({"", "  " + show_view(m, w.event[i])});
    if (shown < w.event.size()) rows.push_back({"", "  … " + std::to_string(w.event.size() - shown) + " more"});
  }
  rows.push_back({"P[" + game.world_names[0] + "](S)", "= " + to_string(w.probability_world0)});
  rows.push_back({"P[" + game.world_names[1] + "](S)", "= " + to_string(w.probability_world1)});

  std::size_t width = 0;
  for (const auto& [label, text] : rows) width = std::max(width, display_width(label));
  std::ostringstream os;
  os << "(ln λ, δ)-DP fails for " << quoted(game.name) << " at λ = " << lam << ", δ = " << to_string(delta) << ": ";
  if (worst) os << "worst δ(λ) = " << to_string(*worst) << " up to horizon " << h << "\n";
  else os << "refuted up to horizon " << h << "\n";
  for (const auto& [label, text] : rows) {
    const bool equation = text.rfind("= ", 0) == 0;
    os << "  " << label << std::string(width - display_width(label), ' ') << (equation ? " " : label.empty() ? "   " : " : ") << text
       << "\n";
  }
  os << "  P[" << own << "](S) - " << lam << " * P[" << other << "](S) = " << to_string(w.delta()) << " > δ = " << to_string(delta)
     << "\n";
  return os.str();
}

}  // namespace exactdp
