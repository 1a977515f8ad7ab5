"""Testing tools for derivatives.

- :func:`check_grads`: forward and reverse mode against central finite
  differences, recursively to any order, over pytrees.
- :func:`gradcheck` / :func:`gradgradcheck`: PyTorch's contract (Jacobians by
  reverse mode against finite differences; True, or GradcheckError).
- :func:`check_shape_rules`: primitives' shape/dtype rules against their impls.
- :mod:`funcgrad.testing.strategies`: Hypothesis strategies (needs hypothesis).
"""

from ._check import GradientCheckError, check_grads, check_jvp, check_vjp, default_tolerances
from ._gradcheck import GradcheckError, gradcheck, gradgradcheck
from ._shapes import ShapeRuleError, check_shape_rules

__all__ = [
    "check_grads", "check_jvp", "check_vjp", "default_tolerances", "GradientCheckError",
    "check_shape_rules", "ShapeRuleError", "gradcheck", "gradgradcheck", "GradcheckError",
]
