"""`exactdp compose --relative-width`: the library's refinement (accounting/composition_query.hpp), the
same that Python's relative_width asks. Expected values: the unrefined bracket of the same run (a
refined bracket must lie inside it and be narrower), and ε = 1 of rr:epsilon=1 at δ = 0 (its
definition)."""
import json
from fractions import Fraction

from conftest import run


def compose(*args, expect=0):
    p = run("compose", *args, "--json", expect=expect)
    return json.loads(p.stdout) if expect == 0 else p


def bracket(entry, key):
    return Fraction(entry[key]["lo"]), Fraction(entry[key]["hi"])


def test_a_grid_bracket_is_refined_inside_the_unrefined_one():
    # two uses of the Laplace mechanism take the grid bracket (resolution 32 unrefined)
    plain = compose("-m", "laplace:b=1", "-k", "2", "--epsilon", "1/2", "--digits", "15")
    fine = compose("-m", "laplace:b=1", "-k", "2", "--epsilon", "1/2", "--digits", "15", "--relative-width", "1/1000000")
    assert plain["plan"]["route"] == fine["plan"]["route"] == "grid_bracket"
    lo, hi = bracket(plain["at"][0], "delta")
    flo, fhi = bracket(fine["at"][0], "delta")
    assert lo <= flo <= fhi <= hi and fhi - flo < hi - lo


def test_a_width_no_precision_reaches_is_refused_naming_the_option():
    p = compose("-m", "rr:epsilon=1", "--delta", "0", "--relative-width", "1e-1000", expect=2)
    assert "--relative-width" in p.stderr and "wider than" in p.stderr
    # within reach: more working precision, and the bracket still holds ε = 1
    r = compose("-m", "rr:epsilon=1", "--delta", "0", "--relative-width", "1e-100", "--digits", "120")
    lo, hi = bracket(r["least"][0], "epsilon")
    assert lo <= 1 <= hi and hi - lo <= 2 * hi / 10**100  # printed outward at 120 digits
    p = compose("-m", "rr:epsilon=1", "--delta", "0", "--relative-width", "2", expect=2)
    assert "--relative-width" in p.stderr
