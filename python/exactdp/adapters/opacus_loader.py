"""Loads Opacus's privacy accountants without importing torch.

``import opacus`` runs ``opacus/__init__.py``, which imports torch (a multi-gigabyte wheel); the
accountants themselves need only numpy and scipy. ``load_opacus_accountants()`` finds the installed
``opacus`` distribution's files (installed with ``pip install --no-deps opacus==1.6.0``) and loads
``opacus/accountants/{accountant,rdp,prv,gdp}.py`` and ``opacus/accountants/analysis/**`` — the very
files Opacus itself runs — under a private package name, ``_exactdp_opacus``, whose two package
levels (``_exactdp_opacus`` and ``_exactdp_opacus.accountants``) are stub modules: their
``__path__`` points at the installed folders, but their ``__init__.py`` (which import torch) are
never executed. Relative imports inside the files (``from .analysis import rdp``,
``from ...rdp import RDPAccountant``) resolve inside the private package as they do in Opacus.

``opacus/accountants/registry.py`` and ``utils.py`` (``get_noise_multiplier``) are loaded the same way;
``utils.py``'s absolute ``from opacus.accountants import create_accountant`` is answered by the
private ``accountants`` package, which holds the registry's ``create_accountant``.

One import is answered by a stub: ``accountant.py`` (the base class ``IAccountant``) does
``from opacus.optimizers import DPOptimizer``, used only in a type annotation and in
``get_optimizer_hook_fn``, which the audit never calls. That file is executed with an import hook
that returns a placeholder ``DPOptimizer`` class for this one name; every other import goes to
Python's own. The real ``opacus`` package is never touched: ``sys.modules["opacus"]`` is not set,
so a process that has torch can still ``import opacus`` and get the real package.

This module imports nothing but the standard library, so the audit's standalone reproducers copy
its source verbatim.
"""
import builtins
import importlib.machinery
import importlib.util
import os
import sys
import types

_ALIAS = "_exactdp_opacus"


def _opacus_dir():
    """The installed opacus package folder (found without importing it)."""
    spec = importlib.machinery.PathFinder.find_spec("opacus")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("opacus is not installed (pip install --no-deps opacus==1.6.0)")
    return list(spec.submodule_search_locations)[0]


def _stub_package(name, path):
    module = types.ModuleType(name)
    module.__path__ = [path]
    module.__package__ = name
    module.__file__ = None
    sys.modules[name] = module
    return module


def _load_file(name, path, stub_imports=None):
    """Executes the file at ``path`` as module ``name``; ``stub_imports`` maps absolute module names
    to placeholder modules returned by the import statements of this file only."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    if stub_imports:
        real_import = builtins.__import__

        def hooked(mod, globals=None, locals=None, fromlist=(), level=0):
            if level == 0 and mod in stub_imports:
                return stub_imports[mod]
            return real_import(mod, globals, locals, fromlist, level)

        module.__builtins__ = dict(vars(builtins), __import__=hooked)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def load_opacus_accountants():
    """The module namespace of Opacus's accountants, loaded without torch: an object with
    ``RDPAccountant``, ``PRVAccountant``, ``GaussianAccountant`` (the classes of
    ``opacus.accountants``) and ``analysis`` (``opacus.accountants.analysis``: ``rdp``, ``gdp``,
    ``prv``), ``create_accountant`` (``registry.py``) and ``get_noise_multiplier``
    (``opacus.accountants.utils``, the calibration DP-SGD users call). Loading twice returns the
    same modules."""
    if _ALIAS + ".accountants.utils" in sys.modules:
        acc = sys.modules[_ALIAS + ".accountants"]
        return acc
    root = _opacus_dir()
    accountants_dir = os.path.join(root, "accountants")
    _stub_package(_ALIAS, root)
    acc = _stub_package(_ALIAS + ".accountants", accountants_dir)
    optimizers = types.ModuleType("opacus.optimizers (placeholder of exactdp's loader)")

    class DPOptimizer:  # the annotation of IAccountant.get_optimizer_hook_fn; never instantiated
        pass

    optimizers.DPOptimizer = DPOptimizer
    base = _load_file(_ALIAS + ".accountants.accountant", os.path.join(accountants_dir, "accountant.py"),
                      {"opacus.optimizers": optimizers})
    rdp = _load_file(_ALIAS + ".accountants.rdp", os.path.join(accountants_dir, "rdp.py"))
    prv = _load_file(_ALIAS + ".accountants.prv", os.path.join(accountants_dir, "prv.py"))
    gdp = _load_file(_ALIAS + ".accountants.gdp", os.path.join(accountants_dir, "gdp.py"))
    acc.IAccountant = base.IAccountant
    acc.RDPAccountant = rdp.RDPAccountant
    acc.PRVAccountant = prv.PRVAccountant
    acc.GaussianAccountant = gdp.GaussianAccountant
    acc.analysis = sys.modules[_ALIAS + ".accountants.analysis"]
    acc.opacus_dir = root
    # the calibration helper opacus.accountants.utils.get_noise_multiplier does
    # "from opacus.accountants import create_accountant": answered by this stub package, which gets
    # create_accountant from the installed registry.py (relative imports only)
    registry = _load_file(_ALIAS + ".accountants.registry", os.path.join(accountants_dir, "registry.py"))
    acc.create_accountant = registry.create_accountant
    utils = _load_file(_ALIAS + ".accountants.utils", os.path.join(accountants_dir, "utils.py"),
                       {"opacus.accountants": acc})
    acc.get_noise_multiplier = utils.get_noise_multiplier
    return acc
