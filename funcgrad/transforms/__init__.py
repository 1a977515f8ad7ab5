"""Transformations: grad, value_and_grad, vjp, jvp, vmap, Jacobians and Hessians, stop_gradient."""

from .api import grad, jvp, stop_gradient, value_and_grad, vjp
from .batching import vmap
from .jacobians import hessian, jacfwd, jacobian, jacrev

__all__ = ["grad", "value_and_grad", "vjp", "jvp", "vmap", "jacrev", "jacfwd", "jacobian", "hessian",
           "stop_gradient"]
