"""stop_gradient: the identity, with no derivative rules, so every differentiation treats
its result as a constant (the control primitive numpy, scipy and nn write their
straight-through and numerically guarded formulas with)."""

from __future__ import annotations

from .. import tree
from ..array import Array, Tracer
from ..core import Primitive
from ._batching import passthrough_rule

__all__ = ["stop_gradient", "stop_gradient_p"]


def _identity_impl(x):
    return x


stop_gradient_p = Primitive(
    "stop_gradient", _identity_impl, lambda x: x, differentiable=False,
)
stop_gradient_p.batch = passthrough_rule(stop_gradient_p)


def stop_gradient(x):
    """The value of x, treated as a constant by every differentiation (pytrees too)."""
    return tree.tree_map(lambda v: stop_gradient_p.bind(v) if isinstance(v, (Array, Tracer)) else v, x)
