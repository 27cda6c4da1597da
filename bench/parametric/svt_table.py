#!/usr/bin/env python3
"""Writes a parametric spec (docs/parametric.md) of AboveThreshold with *clamped* DLap(r) noise.

The threshold noise tau and the query noise nu are DLap(r), Pr[Z = k] = (1-r)/(1+r) r^|k|, each
clamped to [-c, c] (the tails r^c/(1+r) put on +-c). Clamping the hidden threshold is not
post-processing, so this is a different mechanism from the library's svt-counter (exact unclamped
noise, THEOREMS.md B.13); it is a finite table whose probabilities are rational functions of r,
which is what the parametric engine decides today. Static worlds x, x'; messages are queries
whose values differ by at most 1 between the worlds; answer "above" iff v + nu > tau, then halt
(cutoff 1); tau is drawn at the first query and kept in the hidden state.

Usage: svt_table.py [--clamp C] [--horizon T] > svt-clamped.json
"""
import argparse
import json

VALUES = {"x": {"a": 0, "b": 1, "c": 0}, "x'": {"a": 1, "b": 0, "c": 0}}


def pmf(k, c):
    if abs(k) < c:
        return "(1-r)/(1+r)" + (f"*r^{abs(k)}" if k else "")
    return f"r^{c}/(1+r)"


def tail_above(t, v, c):
    """Pr[v + nu > t] as a sum of pmf terms (empty: "0")."""
    terms = [pmf(k, c) for k in range(-c, c + 1) if v + k > t]
    return "+".join(terms) if terms else "0"


def tail_below(t, v, c):
    terms = [pmf(k, c) for k in range(-c, c + 1) if v + k <= t]
    return "+".join(terms) if terms else "0"


def spec(c, horizon):
    states = {}
    for w, values in VALUES.items():
        start = {}
        for m, v in values.items():
            rows = []
            for t in range(-c, c + 1):
                rows.append({"p": f"({pmf(t, c)})*({tail_above(t, v, c)})", "answer": "above", "next": "halt"})
                rows.append({"p": f"({pmf(t, c)})*({tail_below(t, v, c)})", "answer": "below", "next": f"{w}:{t}"})
            start[m] = rows
        states[f"{w}:start"] = start
        for t in range(-c, c + 1):
            states[f"{w}:{t}"] = {m: [{"p": tail_above(t, v, c), "answer": "above", "next": "halt"},
                                      {"p": tail_below(t, v, c), "answer": "below", "next": f"{w}:{t}"}]
                                  for m, v in values.items()}
    states["halt"] = {}
    return {"format": "exactdp/1", "name": f"AboveThreshold, DLap(r) noise clamped to [-{c}, {c}]", "horizon": horizon,
            "parameters": {"r": {"interval": ["0", "1"], "open": True}},
            "neighbours": {"type": "static", "worlds": ["x", "x'"]},
            "mechanism": {"type": "table", "initial": {"x": "x:start", "x'": "x':start"}, "messages": ["a", "b", "c"],
                          "states": states}}


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--clamp", type=int, default=1)
    ap.add_argument("--horizon", type=int, default=5)
    a = ap.parse_args()
    print(json.dumps(spec(a.clamp, a.horizon), indent=1))
