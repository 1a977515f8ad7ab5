"""Transformations: grad, value_and_grad, vjp, jvp, vmap, Jacobians and Hessians, custom rules,
checkpointing, stop_gradient."""

from .api import grad, jvp, stop_gradient, value_and_grad, vjp
from .batching import vmap
from .checkpoint import checkpoint, remat
from .custom import custom_jvp, custom_vjp
from .jacobians import hessian, jacfwd, jacobian, jacrev

__all__ = ["grad", "value_and_grad", "vjp", "jvp", "vmap", "jacrev", "jacfwd", "jacobian", "hessian",
           "custom_jvp", "custom_vjp", "checkpoint", "remat", "stop_gradient"]
