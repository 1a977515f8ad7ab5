"""Run an unmodified PyTorch script on funcgrad.compat: ``python -m funcgrad.compat SCRIPT.py [args]``.

:class:`TorchAliasFinder` (first on ``sys.meta_path``) resolves ``torch`` to
``funcgrad.compat`` and every ``torch.X.Y`` to ``funcgrad.compat.X.Y``, so
``import torch.nn as nn`` and ``from torch.utils.data import DataLoader`` get
the compat modules themselves (one module object under both names); likewise
``torchvision`` and ``torchvision.*`` resolve to ``funcgrad.compat.vision``. A
``torch.*`` module funcgrad.compat does not provide raises ModuleNotFoundError
naming it; so do ``torchaudio`` and ``torchtext``, which would otherwise load
against the wrong ``torch``.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import os
import runpy
import sys

TARGET = "funcgrad.compat"
ALIASES = {"torch": TARGET, "torchvision": TARGET + ".vision"}  # top-level name -> the module it resolves to
DOCS = {"torch": "docs/compat-nn.md, 'Running PyTorch scripts'", "torchvision": "docs/compat-vision.md"}
NOT_PROVIDED = ("torchaudio", "torchtext")
NAMESPACES = ("torch.cuda", "torch.cuda.amp", "torch.cpu", "torch.cpu.amp")


class _AliasLoader(importlib.abc.Loader):
    def __init__(self, module):
        self.module = module

    def create_module(self, spec):
        return self.module

    def exec_module(self, module):
        pass


class TorchAliasFinder(importlib.abc.MetaPathFinder):
    """Maps ``torch`` / ``torch.*`` onto ``funcgrad.compat`` / ``funcgrad.compat.*`` (and ``torchvision``
    onto ``funcgrad.compat.vision``)."""

    def find_spec(self, fullname, path=None, target=None):
        top = fullname.partition(".")[0]
        if top in NOT_PROVIDED:
            raise ModuleNotFoundError(f"No module named {fullname!r}: funcgrad.compat provides torch, "
                                      f"not {top}", name=fullname)
        if top not in ALIASES:
            return None
        real = ALIASES[top] + fullname[len(top):]
        if fullname in NAMESPACES:  # an object in funcgrad.compat, a module in PyTorch
            module = importlib.import_module(TARGET)
            for part in fullname.split(".")[1:]:
                module = getattr(module, part)
            return importlib.util.spec_from_loader(fullname, _AliasLoader(module))
        try:
            module = importlib.import_module(real)
        except ModuleNotFoundError as e:
            if e.name != real:
                raise
            raise ModuleNotFoundError(f"No module named {fullname!r}: funcgrad.compat does not provide it "
                                      f"(see {DOCS[top]})", name=fullname) from None
        return importlib.util.spec_from_loader(fullname, _AliasLoader(module),
                                               is_package=hasattr(module, "__path__"))


def install():
    """Put the ``torch`` alias finder first on ``sys.meta_path`` (idempotent); returns it."""
    for finder in sys.meta_path:
        if isinstance(finder, TorchAliasFinder):
            return finder
    stale = [m for m in sys.modules if m.partition(".")[0] in ALIASES]
    if stale:
        raise RuntimeError(f"the real torch is already imported ({', '.join(sorted(stale)[:3])}, ...); "
                           "install the funcgrad.compat alias before anything imports torch")
    finder = TorchAliasFinder()
    sys.meta_path.insert(0, finder)
    return finder


def _spawn_children_install_alias():
    """Make spawn/forkserver children (DataLoader workers, ...) re-run the script through ``_spawn_main``."""
    from multiprocessing import spawn  # noqa: PLC0415

    original = spawn.get_preparation_data
    if getattr(original, "_funcgrad_compat", False):
        return

    def get_preparation_data(name):
        data = original(name)
        if "init_main_from_path" in data:
            del data["init_main_from_path"]
            data["init_main_from_name"] = "funcgrad.compat._spawn_main"
        return data

    get_preparation_data._funcgrad_compat = True
    spawn.get_preparation_data = get_preparation_data


def run(script, args=()):
    """Run ``script`` as ``__main__`` with ``sys.argv = [script, *args]``, its folder first on ``sys.path``."""
    install()
    _spawn_children_install_alias()
    os.environ["FUNCGRAD_COMPAT_SCRIPT"] = os.path.abspath(script)
    sys.argv = [script, *args]
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    runpy.run_path(script, run_name="__main__")


USAGE = "usage: python -m funcgrad.compat SCRIPT.py [args ...]"


def main(argv=None):
    """Command line entry: the exit code (2 for usage errors, 1 after an uncaught exception in the script)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(USAGE, file=sys.stderr if not argv else sys.stdout)
        return 2 if not argv else 0
    script, args = argv[0], argv[1:]
    if not os.path.isfile(script):
        print(f"python -m funcgrad.compat: can't open file {script!r}: [Errno 2] No such file or directory",
              file=sys.stderr)
        return 2
    try:
        run(script, args)
    except Exception as e:  # reported as `python SCRIPT.py` does: from the script's first frame, through excepthook
        tb, path = e.__traceback__, os.path.abspath(script)
        while tb is not None and os.path.abspath(tb.tb_frame.f_code.co_filename) != path:
            tb = tb.tb_next
        tb = tb or e.__traceback__
        sys.excepthook(type(e), e.with_traceback(tb), tb)
        return 1
    return 0
