// THEOREMS.md C.5, HSV §6–9 — complex continual mechanisms built from sub-mechanisms: the
// privacy of P∘*ExtConComp (Thm 6.1, Claims 6.3/6.4, Cor 6.6), the Henzinger–Sricharan–Steiner
// histogram (§7), the local-DP multi-round framework (§8) and the core-decomposition protocol (§9).
// Kept apart from hsv.cpp because these checks build their own toy mechanisms (issue 5).
#include "proofs_checks/support.hpp"

namespace exactdp::proofs {

void families::hsv_complex(std::vector<Theorem>& out) {
  const std::string src = "proofs_checks/hsv_complex.cpp";
  const std::string lib = "needs continual mechanisms of mechanism/library (";
  const std::string not_on_main = ") check not written yet";
  auto later = [&](std::string id, std::string title, std::string cite, Kind k, Status s, std::string statement,
                   std::string method, std::string instances, std::string why) {
    out.push_back({std::move(id), std::move(title), std::move(cite), k, s, std::move(statement), "", std::move(method),
                   std::move(instances), "", {}, src, {}, std::move(why)});
  };
  later("HSV-T6.1", "privacy of P∘*ExtConComp", "HSV Thm 6.1", Kind::positive, Status::as_stated,
        "A deterministic P with the destination, response and f → f′ properties preserves (ε,δ)-DP.",
        "B.17 property check, then engine comparison.", "", "needs compose/ and the B.17 property checker, check not written yet");
  later("HSV-CL6.3", "the two identities in the proof of Thm 6.1", "HSV Claims 6.3, 6.4", Kind::reduction, Status::as_stated,
        "I(b)∘*P∘*ExtConComp ≡ P²∘*I(b)∘*ExtConComp; V[f]∘P²∘I(b)∘ExtConComp ≡ V[f]∘P²∘V[f′]∘I(b)∘ExtConComp.",
        "Compare likelihood tables of both sides.", "", "needs compose/, check not written yet");
  later("HSV-C6.6", "pseudocode form of Thm 6.1", "HSV Cor 6.6", Kind::positive, Status::as_stated,
        "Every CM whose pseudocode satisfies D6.5 is (ε,δ)-DP w.r.t. f if the f′-concurrent composition is.",
        "Taint tracker of B.17 on the pseudocode.", "", "needs the B.17 property checker, not written yet");
  later("HSV-S7.2-HIST", "the HSS histogram is private", "HSV §7.2 (unnumbered theorem)", Kind::positive, Status::as_stated,
        "HSS's Hist is ε-DP w.r.t. f_H against adaptive adversaries.", "B.17 property check; exact privacy on toy sizes.", "",
        lib + "HSS histogram) and B.17" + not_on_main);
  later("HSV-C7.5", "d-counter", "HSV Cor 7.5", Kind::positive, Status::as_stated,
        "d counters each ε/d-DP form an ε-DP mechanism w.r.t. f_C.", "Binary-tree counters with DLap: exact profile.",
        "H13.", lib + "tree counter" + not_on_main);
  later("HSV-C8.8", "multi-round LDP via parallel composition", "HSV Cor 8.8 (= Thm 1.9)", Kind::positive, Status::as_stated,
        "Identical user procedures whose CMs are (ε′,δ′)-DP give an (ε,δ)-LDP protocol when Comp of k RR_{ε′,δ′} is.",
        "Engine on the toy LDP protocol.", "H14.", lib + "local protocols) and compose/" + not_on_main);
  later("HSV-T8.7", "local protocols", "HSV Claims 8.2, 8.4, 8.6, Thm 8.7", Kind::positive, Status::as_stated,
        "If every user CM is (ε_i,δ_i)-DP w.r.t. f_{∼_i,prop_i} and the f_{P,∼}-concurrent composition is (ε,δ)-DP, P is (ε,δ)-LDP.",
        "B.17 on S_P; engine on toy protocols.", "", lib + "local protocols) and compose/" + not_on_main);
  later("HSV-L9.1", "core decomposition is private", "HSV Lemma 9.1", Kind::positive, Status::as_stated,
        "If every user SVT is (ε/2, 0)-DP the protocol is ε-edge-LDP.", "Worst likelihood ratio on the toy.", "H15.",
        lib + "SVT" + not_on_main);
}

}  // namespace exactdp::proofs
