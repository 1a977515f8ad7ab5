"""torch.autograd.forward_ad: dual_level, make_dual, unpack_dual (forward-mode AD on compat Tensors).

``make_dual(primal, tangent)`` returns a differentiable handle on ``primal`` (a new leaf, or an alias node
of it when it already requires grad) and remembers ``tangent`` for the current level. Ops then run
as usual, recording compat's graph. ``unpack_dual(y)`` returns ``y``'s tangent ``J_y(duals) @ tangents``,
computed exactly by the double-vjp identity ``jvp = d/du <vjp(u), t>`` on compat's engine (the rules of
the core's primitives, nothing hand-written), so every op with a reverse rule has a forward derivative.

Differences from PyTorch: the graph must be recorded, so tangents need grad mode on (not ``no_grad``) and
a dual requires grad; each ``unpack_dual`` of a non-dual tensor runs two backward passes over its graph.
"""

from __future__ import annotations

from typing import NamedTuple

from ...backend import kind_of
from ..tensor import Tensor

__all__ = ["UnpackedDualTensor", "enter_dual_level", "exit_dual_level", "make_dual", "unpack_dual", "dual_level"]

_LEVELS: list = []  # per open level: list of (dual tensor, tangent)


class UnpackedDualTensor(NamedTuple):
    """What ``unpack_dual`` returns: the primal and its tangent (None when it has none at that level)."""

    primal: Tensor
    tangent: Tensor | None


def enter_dual_level():
    """Open a forward-AD level and return its index (one level at a time, as in PyTorch)."""
    if _LEVELS:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    _LEVELS.append([])
    return len(_LEVELS) - 1


def exit_dual_level(*, level=None):
    """Close ``level`` (the innermost by default): its duals lose their tangents."""
    level = len(_LEVELS) - 1 if level is None else level
    if level != len(_LEVELS) - 1 or level < 0:
        raise RuntimeError("Trying to exit a forward AD level that was not the last one that was created. This "
                           "is not supported.")
    _LEVELS.pop()


def _level(level, what):
    if not _LEVELS:
        raise RuntimeError(f"Trying to {what} for forward AD but no level exists, make sure to "
                           "enter_dual_level() first.")
    level = len(_LEVELS) - 1 if level is None else level
    if not 0 <= level < len(_LEVELS):
        raise RuntimeError(f"Invalid forward AD level {level}")
    return _LEVELS[level]


def make_dual(tensor, tangent, *, level=None):
    """A tensor with ``tensor``'s values whose forward derivative is ``tangent`` at ``level``."""
    duals = _level(level, "create a dual Tensor")
    if not isinstance(tensor, Tensor) or not isinstance(tangent, Tensor):
        raise TypeError("make_dual(): expected tensor and tangent to be Tensors, got "
                        f"{type(tensor).__name__} and {type(tangent).__name__}")
    if kind_of(tensor._value.dtype) not in "fc":
        raise ValueError(f"Expected primal to be floating point or complex, but got: {tensor.dtype}")
    if kind_of(tangent._value.dtype) not in "fc":
        raise ValueError(f"Expected tangent to be floating point or complex, but got: {tangent.dtype}")
    if tuple(tangent.shape) != tuple(tensor.shape):
        raise RuntimeError("Trying to set a forward gradient that has a different size than that of the original "
                           f"Tensor, this is not supported. Tensor is of size {list(tensor.shape)} while the given "
                           f"forward gradient is of size {list(tangent.shape)}.")
    dual = tensor.view_as(tensor) if tensor.requires_grad else tensor.detach().requires_grad_(True)
    duals.append((dual, tangent.detach().to(tensor.dtype)))
    return dual


def _tangent(t, duals):
    from .. import creation  # noqa: PLC0415
    from .engine import grad as _grad  # noqa: PLC0415

    for d, tan in duals:
        if d is t:
            return tan
    if not t.requires_grad or not duals:
        return None
    u = creation.zeros_like(t).requires_grad_(True)
    gs = _grad([t], [d for d, _ in duals], [u], retain_graph=True, create_graph=True, allow_unused=True)
    pairs = [(g, tan) for g, (_, tan) in zip(gs, duals) if g is not None]
    if not pairs:
        return None
    live = [(g, tan) for g, tan in pairs if g.requires_grad]
    if not live:  # t depends on the duals with a zero derivative
        return creation.zeros_like(t)
    (jv,) = _grad([g for g, _ in live], [u], [tan for _, tan in live], allow_unused=True)
    return creation.zeros_like(t) if jv is None else jv.detach()


def unpack_dual(tensor, *, level=None):
    """``(primal, tangent)`` of ``tensor`` at ``level``; tangent None for a tensor no dual reaches."""
    if not _LEVELS:
        return UnpackedDualTensor(tensor, None)
    duals = _level(level, "unpack a dual Tensor")
    if not isinstance(tensor, Tensor):
        raise TypeError(f"unpack_dual(): expected a Tensor, got {type(tensor).__name__}")
    return UnpackedDualTensor(tensor, _tangent(tensor, duals))


class dual_level:
    """``with dual_level():`` a forward-AD level for make_dual/unpack_dual; leaving it drops the tangents."""

    def __enter__(self):
        return enter_dual_level()

    def __exit__(self, *exc):
        exit_dual_level()
