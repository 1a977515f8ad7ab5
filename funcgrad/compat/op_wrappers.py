"""Wrapping named ops at every dispatch point: ``FUNCS`` (torch.<name>), ``METHODS`` (Tensor.<name>)
and ``torch.nn.functional``.  Used at import by the dtype rules that apply per PyTorch op rather
than per primitive (bfloat16_ops.py: float32 opmath; dtypes_limited.py: the ops PyTorch lacks for
uint16/32/64 and float8), before compat copies FUNCS and METHODS onto ``torch`` and ``Tensor``."""

from __future__ import annotations

from ._dispatch import FUNCS, METHODS

__all__ = ["install_wrappers"]


def install_wrappers(names, make, marker):
    """Replace each op in ``names`` by ``make(fn, name)`` wherever it is registered; an op already
    carrying the attribute ``marker`` is left alone (installing twice wraps nothing twice)."""
    from .nn import functional as F  # noqa: PLC0415

    done = {}
    for name in names:
        for table in (FUNCS, METHODS, F.__dict__):
            fn = table.get(name)
            if not callable(fn) or getattr(fn, marker, False):
                continue
            w = done.get((id(fn), name))
            if w is None:
                w = done[(id(fn), name)] = make(fn, name)
                setattr(w, marker, True)
                for attr in ("__name__", "__qualname__", "__doc__"):
                    setattr(w, attr, getattr(fn, attr, None) or name)
                w.__wrapped__ = fn
            if table is F.__dict__:
                setattr(F, name, w)
            else:
                table[name] = w
