"""`--plot FILE` of `exactdp profile` and `exactdp compose` (docs/plots.md).

Besides the file formats (PNG signature and header, SVG that parses), the pictures are checked
against numbers reached by another route: the trade-off curve drawn for a mechanism spec is the one
`profile --json` prints (the engine's envelope, THEOREMS.md B.7), mapped to pixels by the axes'
fixed geometry; the optimal-composition marker of k-fold randomized response lies on the exact
δ(ε) line (KOV15: randomized response attains the optimal composition bound, so the least ε of
the exact profile and the optimal bound agree — the text output prints both); the advanced
composition marker lies to the right of the line (it is a looser bound).
"""
import json
import struct
import xml.etree.ElementTree as ET
from pathlib import Path

from conftest import run

SPECS = Path(__file__).resolve().parents[2] / "spec" / "mechanisms"
SVG = "{http://www.w3.org/2000/svg}"
# the right panel's geometry in src/exactdp/io/plot.cpp: α, β in [0, 1] on a 340-pixel square
TRADEOFF_LEFT, TRADEOFF_BOTTOM, TRADEOFF_SIDE = 720.0, 400.0, 340.0


def points(d):
    """The vertices of an SVG path "M x y L x y ..."."""
    nums = d.replace("M", " ").replace("L", " ").replace("Z", " ").split()
    return [(float(nums[i]), float(nums[i + 1])) for i in range(0, len(nums), 2)]


def paths(root, cls):
    return [points(p.get("d")) for p in root.iter(SVG + "path") if p.get("class") == cls]


def texts(root):
    return [t.text for t in root.iter(SVG + "text")]


def test_png_has_the_signature_and_the_figure_size(tmp_path):
    out = tmp_path / "rr.png"
    run("profile", str(SPECS / "examples" / "rr-pair.json"), "--plot", str(out))
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    # IHDR: width and height big-endian after the chunk length and type
    width, height = struct.unpack(">II", data[16:24])
    assert width == 1100 and 450 <= height <= 700
    assert 10_000 < len(data) < 2_000_000


def test_certified_svg_has_the_band_and_the_axis_labels(tmp_path):
    out = tmp_path / "gauss.svg"
    run("compose", "-m", "gauss:sigma=1", "-k", "10", "--delta", "1e-5", "--plot", str(out))
    root = ET.parse(out).getroot()
    (band,) = paths(root, "band")
    (upper,) = paths(root, "band-upper")
    (lower,) = paths(root, "band-lower")
    assert len(band) == len(upper) + len(lower)  # upper ends out, lower ends back
    # SVG y grows downwards: each upper end is drawn at or above its lower end
    assert all(u[1] <= l[1] + 1e-9 for u, l in zip(upper, lower))
    labels = texts(root)
    assert "ε" in labels and "α (type I error)" in labels and "β (type II error)" in labels
    assert any(t.startswith("δ(ε), certified enclosure") for t in labels)
    assert not paths(root, "exact")  # certified values are never drawn as an exact line


def test_exact_composition_line_and_closed_form_markers(tmp_path):
    out = tmp_path / "rr100.svg"
    run("compose", "-m", "rr:lambda=3/2", "-k", "100", "--delta", "1e-5", "--plot", str(out))
    root = ET.parse(out).getroot()
    (line,) = paths(root, "exact")
    assert not paths(root, "band")
    markers = {}
    names = [t for t in texts(root) if " composition " in t]
    circles = [c for c in root.iter(SVG + "circle") if c.get("class") == "bound"]
    assert len(circles) == 3 and len(names) == 3  # basic, optimal, advanced (legend in the same order)
    for name, c in zip(names, circles):
        markers[name.split(" ")[0]] = (float(c.get("cx")), float(c.get("cy")))

    def line_x_at(y):  # the line falls left to right: the x where it crosses height y
        for (x0, y0), (x1, y1) in zip(line, line[1:]):
            if y0 <= y <= y1 and y1 > y0:
                return x0 + (x1 - x0) * (y - y0) / (y1 - y0)
        raise AssertionError(f"line never reaches y = {y}")

    ox, oy = markers["optimal"]
    assert abs(line_x_at(oy) - ox) < 3.0  # on the exact line (to a few pixels: the grid has 121 points)
    ax, ay = markers["advanced"]
    assert ax > line_x_at(ay) + 20  # clearly looser


def test_spec_tradeoff_is_the_engines_envelope(tmp_path):
    out = tmp_path / "mp.svg"
    run("profile", str(SPECS / "mp.json"), "--lambda", "2", "--plot", str(out))
    report = json.loads(run("profile", str(SPECS / "mp.json"), "--lambda", "2", "--json").stdout)
    from fractions import Fraction

    expected = [(TRADEOFF_LEFT + float(Fraction(a)) * TRADEOFF_SIDE, TRADEOFF_BOTTOM - float(Fraction(b)) * TRADEOFF_SIDE)
                for a, b in report["tradeoff"]["vertices"]]
    (drawn,) = paths(ET.parse(out).getroot(), "tradeoff")
    assert len(drawn) == len(expected)
    for (x, y), (ex, ey) in zip(drawn, expected):
        assert abs(x - ex) < 0.01 and abs(y - ey) < 0.01


def test_bad_extension_is_a_usage_error_naming_option_and_value(tmp_path):
    p = run("profile", str(SPECS / "examples" / "rr-pair.json"), "--plot", str(tmp_path / "figure.pdf"), expect=2)
    assert "--plot" in p.stderr and "figure.pdf" in p.stderr
    p = run("compose", "-m", "rr:lambda=2", "--plot", "noextension", expect=2)
    assert "--plot" in p.stderr and "noextension" in p.stderr
    assert not (tmp_path / "figure.pdf").exists()


def test_composition_without_a_profile_refuses_to_plot(tmp_path):
    # dgauss used several times has only Rényi composition here (no δ(ε) to draw)
    p = run("compose", "-m", "dgauss:sigma2=1", "-k", "3", "--alpha", "2", "--plot", str(tmp_path / "x.svg"), expect=2)
    assert "--plot" in p.stderr and "no certified profile" in p.stderr


def test_long_composition_shows_where_delta_falls(tmp_path):
    # 10^5 uses of the Gaussian (sigma = 1) are mu = sqrt(10^5) GDP: delta stays near 1 up to about
    # mu^2/2 = 50000, so the figure starts there rather than at 0; the least epsilon at 1e-5 that the
    # text prints must lie inside the drawn range
    out = tmp_path / "g.svg"
    p = run("compose", "-m", "gauss:sigma=1", "-k", "100000", "--delta", "1e-5", "--plot", str(out), "--json")
    eps = float(json.loads(p.stdout)["least"][0]["epsilon"]["lo"])
    root = ET.parse(out).getroot()
    (band,) = paths(root, "band-upper")
    # the ε ticks: the numbers under the left panel (x < 620; the trade-off panel starts at 720)
    ticks = [float(t.text) for t in root.iter(SVG + "text")
             if t.text.replace(".", "", 1).isdigit() and float(t.get("x")) < 620 and float(t.get("y")) > 400]
    assert min(ticks) > 10_000  # the axis does not start at 0
    xs = [x for x, _ in band]
    assert min(xs) < 80 + 520 * 0.5 < max(xs)
    assert min(ticks) < eps < max(ticks)  # ε(1e-5) is within the axis
