"""Pictures of exactdp results with matplotlib (imported only when a function here is called).

    import exactdp, exactdp.plot
    exactdp.plot.plot_profile("gauss:sigma=1", times=10, file="gauss.png")
    exactdp.plot.plot_tradeoff(exactdp.parse_mechanism_spec("rr:lambda=3").exact_loss(), file="rr.svg")
    exactdp.plot.plot_audit(exactdp.audit("claims.json"), file="audit.png")

The same figures as ``exactdp profile/compose --plot`` (docs/plots.md): exact values as a line,
certified enclosures ``(lo, hi)`` as a shaded band between the lower and the upper ends. Values are
computed by exactdp (exact Fractions or certified brackets) and converted to float only to be drawn:
a figure decides nothing.

Each function takes ``ax`` (draw into these matplotlib axes) and ``file`` (save the figure there;
the format follows the extension, as matplotlib's ``savefig``) and returns the axes.
"""
import math
from fractions import Fraction

__all__ = ["plot_profile", "plot_tradeoff", "plot_audit", "profile_points"]

_BAND = "#4682b4"
_EXACT = "#14338c"
_TRADEOFF = "#8c1a73"


def _pyplot():
    try:
        import matplotlib
    except ImportError as e:
        raise ImportError("exactdp.plot needs matplotlib: pip install matplotlib") from e
    import matplotlib.pyplot as plt

    return plt


def _float(x):
    if x == math.inf:
        return math.inf
    try:
        return float(x)
    except OverflowError:
        return math.inf if x > 0 else -math.inf


def _source(what, times):
    """(kind, object): "loss" for an exact PrivacyLoss, "profile", "spec" for a certified
    MechanismSpec (times-fold), "game" for an exactdp.profile report, "points" for a list."""
    from . import _core

    if isinstance(what, str):
        what = _core.parse_mechanism_spec(what)
    if isinstance(what, _core.MechanismSpec):
        loss = what.exact_loss()
        if loss is None or times > 1000:  # long compositions: the spec's certified route (the planner's)
            return "spec", what
        what = loss.self_compose(times) if times != 1 else loss
    elif times != 1:
        if isinstance(what, _core.PrivacyLoss):
            what = what.self_compose(times)
        else:
            raise ValueError("times: only a mechanism string, a MechanismSpec or a PrivacyLoss can be composed here")
    if isinstance(what, _core.PrivacyLoss):
        return "loss", what
    if isinstance(what, _core.PrivacyProfile):
        return "profile", what
    if isinstance(what, dict) and "at" in what:
        return "game", what
    if isinstance(what, (list, tuple)):
        return "points", list(what)
    raise TypeError("plot: pass a mechanism string, a MechanismSpec, a PrivacyLoss, a PrivacyProfile, an exactdp.profile() "
                    f"report or a list of (epsilon, delta) points, not {type(what).__name__}")


def _delta_sampler(kind, obj, times):
    """A function epsilon (Fraction) -> (epsilon used as float, (lo, hi) of delta, exact?)."""
    from . import _core

    if kind in ("loss", "profile"):
        profile = _core.PrivacyProfile(obj) if kind == "loss" else obj

        def exact(eps):
            # delta exact at a rational lambda close to e^eps; the x drawn is ln(lambda)
            lam = max(Fraction(1), Fraction(math.exp(float(eps)))) if eps > 0 else Fraction(1)
            d = profile.delta(lam)
            return math.log(lam), (d, d)

        return exact, True

    def certified(eps):
        return float(eps), obj.delta_at_epsilon(eps, times)

    return certified, False


def profile_points(what, times=1, epsilons=None, points=120):
    """The points drawn by plot_profile: ``(epsilons, lows, highs, exact)`` as floats (lows == highs
    when exact). Without ``epsilons`` (exact values: Fractions, ints or strings), the range runs from
    0 to where the upper end of delta falls below 1e-10 (no further than the pure epsilon)."""
    kind, obj = _source(what, times)
    if kind == "game":
        at = [e for e in obj["at"] if "lambda" in e]
        at.sort(key=lambda e: e["lambda"])
        xs = [math.log(e["lambda"]) if e["lambda"] > 0 else -math.inf for e in at]
        ds = [_float(e["delta"]) for e in at]
        return xs, ds, ds, True
    if kind == "points":
        xs, lo, hi = [], [], []
        exact = True
        for eps, d in obj:
            xs.append(_float(eps))
            if isinstance(d, tuple):
                lo.append(_float(d[0]))
                hi.append(_float(d[1]))
                exact = exact and d[0] == d[1]
            else:
                lo.append(_float(d))
                hi.append(_float(d))
        return xs, lo, hi, exact
    sample, exact = _delta_sampler(kind, obj, times)
    if epsilons is None:
        cap = 1e12 if kind == "spec" else 700.0  # exact: lambda = e^eps must stay a finite float
        if kind == "loss":
            from . import _core

            pure = max(_core.max_ratio(obj), _core.max_ratio(obj.swapped()))
            if pure != math.inf:
                cap = min(cap, max(0.05, 1.05 * math.log(pure)))
        # double until delta's upper end is below 1e-10 or stops falling (a floor such as RR's delta)
        end, previous = 0.25, math.inf
        while end < cap:
            d = _float(sample(Fraction(end))[1][1])
            if d < 1e-10 or (d >= previous * (1 - 1e-9) and d < 0.999):  # near 1: not falling yet
                break
            previous, end = d, end * 2
        end = min(end * 1.1, cap)
        stop = Fraction(math.ceil(end * 1000), 1000)
        epsilons = [stop * i / points for i in range(points + 1)]
    else:
        epsilons = [Fraction(e) if not isinstance(e, float) else _refuse_float("epsilons") for e in epsilons]
    xs, lo, hi = [], [], []
    for e in epsilons:
        x, (a, b) = sample(e)
        xs.append(x)
        lo.append(_float(a))
        hi.append(_float(b))
    return xs, lo, hi, exact


def _refuse_float(field):
    raise TypeError(f"{field}: pass Fractions, ints or strings such as '0.1', not floats")


def _finish(fig, ax, file):
    if file is not None:
        fig.tight_layout()
        fig.savefig(file, dpi=110)
        _pyplot().close(fig)
    return ax


def _axes(ax, size=(6, 4.2)):
    plt = _pyplot()
    if ax is None:
        fig, ax = plt.subplots(figsize=size)
        return fig, ax
    return ax.figure, ax


def plot_profile(what, ax=None, file=None, times=1, epsilons=None, bounds=(), label=None):
    """The privacy profile delta(epsilon) on a logarithmic delta axis.

    ``what``: a mechanism string ("gauss:sigma=1", composed ``times`` times), a MechanismSpec, a
    PrivacyLoss (a pair), a PrivacyProfile, a report of ``exactdp.profile(spec, lambdas=...)`` (its
    "at" entries) or a list of ``(epsilon, delta)`` with delta exact or a ``(lo, hi)`` bracket.
    ``bounds``: closed-form ``(name, epsilon, delta)`` guarantees drawn as labelled markers.
    """
    xs, lo, hi, exact = profile_points(what, times, epsilons)
    fig, ax = _axes(ax)
    floor = min([v for v in lo + hi if v > 0] + [1e-16])
    clip = lambda v: max(v, floor)  # noqa: E731 - a delta of 0 sits on the axis
    if exact:
        ax.plot(xs, [clip(v) for v in hi], color=_EXACT, lw=2, label=label or "δ(ε), exact")
    else:
        ax.fill_between(xs, [clip(v) for v in lo], [clip(v) for v in hi], color=_BAND, alpha=0.35, lw=0,
                        label=label or "δ(ε), certified enclosure [lo, hi]")
        ax.plot(xs, [clip(v) for v in hi], color=_BAND, lw=0.8)
        ax.plot(xs, [clip(v) for v in lo], color=_BAND, lw=0.8)
    for name, eps, delta in bounds:
        e = _float(eps[1]) if isinstance(eps, tuple) else _float(eps)
        ax.plot([e], [clip(_float(delta))], "o", mec="black", label=f"{name}: ε ≤ {e:.6g} at δ = {_float(delta):.3g}")
    ax.set_yscale("log")
    ax.set_ylim(floor, 1.5)
    ax.set_xlabel("ε")
    ax.set_ylabel("δ(ε)")
    ax.set_title("privacy profile δ(ε)")
    ax.grid(True, color="0.88")
    ax.legend(fontsize=8)
    return _finish(fig, ax, file)


def _tradeoff_vertices(kind, obj):
    from . import _core

    if kind == "loss":
        return [("T(P, Q)", _core.TradeOff.of(obj).vertices), ("T(Q, P)", _core.TradeOff.of(obj.swapped()).vertices)]
    if kind == "game" and "tradeoff" in obj:
        return [("worst-case trade-off (symmetrised)", obj["tradeoff"]["vertices"])]
    return None


def plot_tradeoff(what, ax=None, file=None, times=1, epsilons=None):
    """The trade-off curve beta(alpha) (type II error against type I error).

    Exact for a pair (both T(P, Q) and T(Q, P)), a TradeOff, or an ``exactdp.profile()`` report;
    for a certified mechanism (no exact pair), the lower bound that the certified delta(epsilon)
    upper ends imply: beta >= max(0, 1 - delta - e^eps alpha, e^-eps (1 - delta - alpha)).
    """
    from . import _core

    fig, ax = _axes(ax, size=(4.6, 4.4))
    ax.plot([0, 1], [1, 0], ls="--", color="0.5", lw=1, label="β = 1 − α (perfect privacy)")
    if isinstance(what, _core.TradeOff):
        curves = [("T", what.vertices)]
    else:
        kind, obj = _source(what, times)
        curves = _tradeoff_vertices(kind, obj)
    if curves:
        for (name, vs), style in zip(curves, ("-", ":")):
            ax.plot([_float(a) for a, _ in vs], [_float(b) for _, b in vs], style, color=_TRADEOFF, lw=2, label=f"{name}, exact")
    else:
        xs, _, hi, _ = profile_points(what, times, epsilons)
        alphas = [i / 400 for i in range(401)]
        betas = []
        for a in alphas:
            best = 0.0
            for e, d in zip(xs, hi):
                if math.isfinite(e) and math.isfinite(d):
                    best = max(best, 1 - d - math.exp(e) * a, math.exp(-e) * (1 - d - a))
            betas.append(min(best, 1.0))
        ax.plot(alphas, betas, color=_TRADEOFF, lw=2, label="lower bound implied by the δ(ε) upper ends")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.set_xlabel("α (type I error)")
    ax.set_ylabel("β (type II error)")
    ax.set_title("trade-off curve")
    ax.grid(True, color="0.88")
    ax.legend(fontsize=8)
    return _finish(fig, ax, file)


def _bracket(v):
    """A truth as (lo, hi) Fractions (an exact value is its own bracket); None when unusable."""
    if v is None:
        return None
    if isinstance(v, tuple):
        return v
    return (v, v)


def _relative(claimed, truth):
    """(claimed - truth)/truth exactly when both are Fractions, as a float (display only)."""
    if truth in (0, math.inf) or claimed == math.inf:
        return None
    if isinstance(claimed, (int, Fraction)) and isinstance(truth, (int, Fraction)):
        return _float(Fraction(claimed - truth) / truth)
    return (_float(claimed) - _float(truth)) / _float(truth)


def plot_audit(report, ax=None, file=None, title=None):
    """An audit's epsilon claims against the certified truth.

    ``report``: the results of ``exactdp.audit(...)`` (``claimed_epsilon``, ``true_epsilon``,
    ``verdict``) or the rows of ``exactdp.audit_all`` (``kind``, ``claimed``, ``truth``, ``verdict``).
    One point per claim: x the true epsilon, y the relative slack (claimed - truth)/truth on a
    symmetric-log axis (below 0: the claim is smaller than the truth), with a vertical bar from the
    slack against the bracket's upper end to the slack against its lower end. Unsound claims are red
    crosses; claims documented as estimates (``"guarantee": "estimate"``, or audit_all's verdict
    "estimate") are grey and never drawn as unsound. Marker fills tell API paths (``"path"``) apart. Returns the axes, or None when no claim has a finite positive true epsilon.
    """
    rows = []
    for r in report:
        if "claimed_epsilon" in r:
            claimed, truth = r["claimed_epsilon"], r.get("true_epsilon")
        elif r.get("kind") == "epsilon":
            claimed, truth = r.get("claimed"), r.get("truth")
        else:
            continue
        b = _bracket(truth)
        if b is None or claimed is None or b[1] == math.inf or not b[0] > 0:
            continue
        lo_slack, hi_slack = _relative(claimed, b[1]), _relative(claimed, b[0])
        if lo_slack is None or hi_slack is None or not (math.isfinite(lo_slack) and math.isfinite(hi_slack)):
            continue
        verdict = "estimate" if r.get("guarantee") == "estimate" else r.get("verdict", "")
        # one marker shape per API path (class.method, audit_all's records), else per id prefix
        mode = ".".join(r["path"].split("(")[0].split(".")[-2:]) if r.get("path") else str(r.get("id", "")).split("/")[0]
        rows.append((_float((b[0] + b[1]) / 2), lo_slack, hi_slack, verdict, mode))
    if not rows:
        return None
    fig, ax = _axes(ax, size=(7, 4.8))
    styles = {"sound": ("tab:green", "o"), "undecided": ("tab:orange", "s"), "estimate": ("0.55", "^"),
              "unsound": ("tab:red", "x")}
    modes = sorted({r[4] for r in rows})
    fills = ["full", "none", "left", "bottom", "right", "top"]
    for verdict, (colour, marker) in styles.items():
        for mi, mode in enumerate(modes):
            sel = [r for r in rows if r[3] == verdict and r[4] == mode]
            if not sel:
                continue
            mid = [(r[1] + r[2]) / 2 for r in sel]
            ax.errorbar([r[0] for r in sel], mid, yerr=[[m - r[1] for m, r in zip(mid, sel)], [r[2] - m for m, r in zip(mid, sel)]],
                        fmt=marker, ms=5 if verdict != "unsound" else 7, color=colour, fillstyle=fills[mi % len(fills)],
                        elinewidth=0.8, label=f"{verdict} ({mode})" if len(modes) > 1 and mode else verdict)
    ax.axhline(0.0, color="black", lw=0.8)
    ax.set_xscale("log")
    ax.set_yscale("symlog", linthresh=1e-9)
    ax.margins(x=0.08, y=0.08)
    ax.set_xlabel("true ε (exact, or the midpoint of its certified bracket)")
    ax.set_ylabel("relative slack (claimed − true) / true")
    ax.set_title(title or "claimed against true ε (below 0: unsound)")
    ax.legend(fontsize=7)
    return _finish(fig, ax, file)
