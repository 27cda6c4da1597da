"""`exactdp compose` through the library's entry point (accounting/composition_query.hpp): the
refinement of `--relative-width` (the same that Python's relative_width asks) and the assembly of
`--sampling`. Expected values: the unrefined bracket of the same run (a refined bracket must lie
inside it and be narrower), ε = 1 of rr:epsilon=1 at δ = 0 (its definition), the GDP closed form
of the unsampled Gaussian (rate 1 is no subsampling)."""
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


def test_sampling_is_never_silently_dropped_or_overwritten():
    # before the library assembled components, a Poisson rate after a mixture was ignored and a second
    # rate replaced the first for a Gaussian: both gave numbers for another mechanism
    p = compose("-m", "gauss:sigma=1", "--sampling", "mixture:1=1/2", "--sampling", "poisson:q=1/2", "--epsilon", "1",
                expect=2)
    assert "--sampling" in p.stderr and "Poisson-sampled again" in p.stderr
    p = compose("-m", "gauss:sigma=1", "--sampling", "poisson:q=1/2", "--sampling", "poisson:q=1/2", "--epsilon", "1",
                expect=2)
    assert "--sampling" in p.stderr
    # rate 1 is the unsampled mechanism: the GDP closed form, as without --sampling
    one = compose("-m", "gauss:sigma=1", "--sampling", "poisson:q=1", "-k", "2", "--epsilon", "1")
    plain = compose("-m", "gauss:sigma=1", "-k", "2", "--epsilon", "1")
    assert one["plan"]["route"] == plain["plan"]["route"] == "closed_form"
    assert one["at"][0]["delta"] == plain["at"][0]["delta"]


def test_the_width_refines_the_asked_direction_only():
    # the add direction of a Poisson-subsampled truncated discrete Gaussian has δ(1) with lower end 0
    # (its true value is below 10⁻¹⁵), never within a relative width; asking the remove direction
    # must not be refused for it. Expected: the asked value refined inside the unrefined one.
    args = ("-m", "dgauss:sigma2=4,truncation=60", "--sampling", "poisson:q=1/10", "-k", "4", "--epsilon", "1",
            "--direction", "remove", "--digits", "12")
    plain = compose(*args)
    fine = compose(*args, "--relative-width", "1/1000")
    lo, hi = bracket(plain["at"][0], "delta")
    flo, fhi = bracket(fine["at"][0], "delta")
    assert lo <= flo <= fhi <= hi and fhi - flo <= Fraction(1, 1000) * fhi
    assert bracket(fine["at"][0]["remove"], "delta") == (flo, fhi)
    assert Fraction(fine["at"][0]["add"]["delta"]["lo"]) == 0  # reported unrefined, not refused
