"""`exactdp compose` with a Gaussian mixture (`--sampling mixture:…`), heterogeneous Laplace
mechanisms and Rényi divergences of subsampled mechanisms (issue 20 item 3).

Expected values: closed forms evaluated with Python's math module at double precision and compared
with a tolerance far above that precision (each test says which)."""
import json
import math
import os
import subprocess

EXE = os.environ.get("EXACTDP_BIN", "exactdp")


def run(*args, expect=0):
    p = subprocess.run([EXE, *args], capture_output=True, text=True, timeout=300)
    assert p.returncode == expect, f"exit {p.returncode}\nstdout:\n{p.stdout}\nstderr:\n{p.stderr}"
    return p


def compose(*args):
    return json.loads(run("compose", *args, "--json").stdout)


def bounds(entry):
    return float(entry["lo"]), float(entry["hi"])


def test_one_component_mixture_is_the_gaussian_mechanism():
    # GDP closed form with mu = 2 at epsilon = 1/2 (DRS22): Phi(-e/mu + mu/2) - e^e Phi(-e/mu - mu/2)
    phi = lambda x: 0.5 * math.erfc(-x / math.sqrt(2))
    truth = phi(-0.25 + 1) - math.exp(0.5) * phi(-0.25 - 1)
    r = compose("-m", "gauss:sigma=1", "--sampling", "mixture:2=1", "--epsilon", "1/2")
    lo, hi = bounds(r["at"][0]["delta"])
    assert r["plan"]["route"] == "closed_form"
    assert abs(lo - truth) < 1e-9 and abs(hi - truth) < 1e-9  # printed to 10 digits


def test_mixture_refuses_a_second_sampling():
    p = run("compose", "-m", "gauss:sigma=1", "--sampling", "poisson:q=1/2", "--sampling", "mixture:1=1/2", expect=2)
    assert "mixture" in p.stderr


def test_subsampled_gaussian_renyi_order_two():
    # alpha = 2: ln(1 + q^2 (e^(mu^2) - 1)) per use (binomial sum by hand), 100 uses add
    r = compose("-m", "gauss:sigma=1", "--sampling", "poisson:q=1/10", "-k", "100", "--alpha", "2")
    truth = 100 * math.log1p(0.01 * (math.e - 1))
    lo, hi = bounds(r["renyi"][0]["epsilon"])
    assert abs(lo - truth) < 1e-9 and abs(hi - truth) < 1e-9


def test_subsampled_laplace_renyi_needs_the_remove_direction():
    p = run("compose", "-m", "laplace:b=1", "--sampling", "poisson:q=1/2", "--alpha", "2", expect=2)
    assert "remove" in p.stderr
    r = compose("-m", "laplace:b=1", "--sampling", "poisson:q=1/2", "--alpha", "2", "--direction", "remove")
    m2 = 2 / 3 * math.e + math.exp(-2) / 3  # M17's moment of order 2, then 1 + q^2 (M2 - 1)
    lo, hi = bounds(r["renyi"][0]["epsilon"])
    assert abs(lo - math.log(1 + (m2 - 1) / 4)) < 1e-9


def test_heterogeneous_laplace_is_answered_by_the_grid():
    # Lap(1) x3 and Lap(2) x2: pure at epsilon = 3 + 1 = 4, so delta(4) = 0 and delta just below is positive
    r = compose("-m", "laplace:b=1", "-k", "3", "-m", "laplace:b=2", "-k", "2", "--epsilon", "4", "--epsilon", "39/10")
    assert r["plan"]["route"] == "grid_bracket"
    at4, below = r["at"][0]["delta"], r["at"][1]["delta"]
    assert bounds(at4)[1] < 1e-20
    assert bounds(below)[0] > 0.09 / 32


def test_subsampled_discrete_laplace_renyi_both_directions():
    # dlaplace:a=1/2, sensitivity 2, q = 1/5: the subsampled pair A = qP + (1-q)Q, B = Q over the
    # integers (P = DLap(e^-1/2) at 0, Q at 2), summed here in double precision (|x| <= 200)
    r_, q = math.exp(-0.5), 0.2
    c = (1 - r_) / (1 + r_)
    xs = range(-200, 201)
    P = [c * r_ ** abs(x) for x in xs]
    Q = [c * r_ ** abs(x - 2) for x in xs]
    A = [q * p + (1 - q) * b for p, b in zip(P, Q)]
    remove = math.log(sum(a ** 3 * b ** -2 for a, b in zip(A, Q))) / 2
    add = math.log(sum(b ** 3 * a ** -2 for a, b in zip(A, Q))) / 2
    for direction, truth in (("remove", remove), ("add", add), ("both", max(remove, add))):
        r = compose("-m", "dlaplace:a=1/2,sensitivity=2", "--sampling", "poisson:q=1/5", "-k", "4", "--alpha", "3",
                    "--direction", direction)
        lo, hi = bounds(r["renyi"][0]["epsilon"])
        assert abs(lo - 4 * truth) < 1e-9 and abs(hi - 4 * truth) < 1e-9, (direction, lo, 4 * truth)
    # RR with delta > 0: its delta-atom has no mass in the other law, so the remove direction is +inf
    r = compose("-m", "rr:epsilon=1,delta=1/10", "--sampling", "poisson:q=1/2", "--alpha", "2", "--direction", "remove")
    assert r["renyi"][0]["epsilon"] == "inf"
