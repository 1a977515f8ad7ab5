"""Transformations: grad, value_and_grad, vjp, jvp, stop_gradient (more in later modules)."""

from .api import grad, jvp, stop_gradient, value_and_grad, vjp

__all__ = ["grad", "value_and_grad", "vjp", "jvp", "stop_gradient"]
