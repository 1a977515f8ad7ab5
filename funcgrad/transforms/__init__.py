"""Transformations: grad, value_and_grad, vjp, jvp, vmap, Jacobians and Hessians, custom rules,
checkpointing, graph inspection, jit, stop_gradient."""

from .api import grad, jvp, stop_gradient, value_and_grad, vjp
from .batching import vmap
from .checkpoint import checkpoint, remat
from .custom import custom_jvp, custom_vjp
from .graph import Graph, linearize, make_graph
from .jacobians import hessian, jacfwd, jacobian, jacrev
from ..core import ConcretizationTypeError
from .jit import jit, make_jaxpr

__all__ = ["grad", "value_and_grad", "vjp", "jvp", "vmap", "jacrev", "jacfwd", "jacobian", "hessian",
           "custom_jvp", "custom_vjp", "checkpoint", "remat", "make_graph", "Graph", "linearize",
           "stop_gradient", "jit", "make_jaxpr", "ConcretizationTypeError"]
