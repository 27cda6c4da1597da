"""exactdp: exact (rational) and certified (interval) privacy accounting.

Exact values are ``fractions.Fraction``; certified values are ``(lo, hi)`` tuples of ``Fraction``
that enclose the truth; ``math.inf`` stands for +inf. Inputs are ``Fraction``, ``int`` or exact
strings (``"0.1"`` is 1/10); Python floats are refused.

>>> import exactdp
>>> rr = exactdp.parse_mechanism_spec("rr:lambda=11/10").exact_loss()
>>> exactdp.PrivacyProfile(rr.self_compose(10)).least_lambda("1/1000")
Fraction(81684104240933, 40000000000000)
"""
from ._core import (Error, MechanismSpec, PrivacyLoss, PrivacyProfile, TradeOff, compose, max_ratio,
                    parse_mechanism_spec, renyi_moment)
from ._core import Session
from .audit import audit, grid_bracket
from .calibration import calibrate
from .composition import delta_at, epsilon_at, renyi_at
from .game import check, profile
from .mechanism import Mechanism, canonical_name
from .parametric import Expression, Parameter, library_spec, symbol
from . import noise, plot, testing

__all__ = ["Error", "Mechanism", "MechanismSpec", "PrivacyLoss", "PrivacyProfile", "TradeOff", "audit", "canonical_name",
           "check", "compose", "delta_at", "epsilon_at", "grid_bracket", "max_ratio", "noise", "parse_mechanism_spec", "profile", "plot", "renyi_moment",
           "Session", "testing"]
__all__ += ["calibrate", "renyi_at"]
__all__ += ["Expression", "Parameter", "library_spec", "symbol"]
