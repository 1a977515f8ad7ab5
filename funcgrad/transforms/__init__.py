"""Transformations: grad, value_and_grad, vjp, jvp, vmap, stop_gradient (more in later modules)."""

from .api import grad, jvp, stop_gradient, value_and_grad, vjp
from .batching import vmap

__all__ = ["grad", "value_and_grad", "vjp", "jvp", "vmap", "stop_gradient"]
