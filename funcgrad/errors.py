"""Every exception class of funcgrad's functional API, in the package's bottom layer.

Each module that raises one imports it from here; the modules that have named them
publicly since before (``funcgrad``, ``funcgrad.backend``, ``funcgrad.core``,
``funcgrad.transforms``, ``funcgrad.scipy.integrate``, ``funcgrad.testing``, ...)
re-export them, so ``fg.MissingRuleError`` and ``funcgrad.backend.DeviceMismatchError``
stay the same classes.  (funcgrad.compat raises PyTorch's classes, defined there.)
"""

from __future__ import annotations

__all__ = [
    "DeviceMismatchError", "NoDeviceImplementationError", "ConcretizationTypeError", "BatchedValueError",
    "EscapedTracerError", "MissingRuleError", "ODEError", "GradientCheckError", "ShapeRuleError",
    "GradcheckError", "DatasetError",
]


# -- backends and devices ---------------------------------------------------------------

class DeviceMismatchError(ValueError):
    """Arrays on different devices were combined in one operation."""


class NoDeviceImplementationError(NotImplementedError):
    """A function has no implementation on the arrays' device (e.g. cupyx.scipy lacks it).

    Documented and expected (docs/backends.md lists these functions): the fix is to move
    the data to the cpu. funcgrad's pytest plugin reports a test failing with it as skipped
    (it is never raised on the cpu, where a missing scipy is an ImportError).
    """


# -- traced values ----------------------------------------------------------------------

class ConcretizationTypeError(TypeError):
    """A value traced by a transformation was converted to a Python value (``float(x)``,
    ``int(x)``, ``bool(x)``, ``x.item()``, ``x.tolist()``, use as an index).

    The transformation cannot see a Python number, so computing with it would silently
    drop the value's derivative (or, under vmap, its batch).  JAX raises its
    ``ConcretizationTypeError`` in the same places.
    """


class BatchedValueError(ConcretizationTypeError):
    """A batched value was converted to a concrete Python value (bool, float, int, numpy)."""


class EscapedTracerError(RuntimeError):
    """A value traced by a transformation was used after that transformation ended."""


class MissingRuleError(NotImplementedError):
    """A primitive has no rule for the transformation being applied to it."""


# -- solvers ----------------------------------------------------------------------------

class ODEError(RuntimeError):
    """The solver could not reach an output time (too many steps, or a non-finite state)."""


# -- checkers (funcgrad.testing) --------------------------------------------------------

class GradientCheckError(AssertionError):
    """A derivative disagreed with finite differences (or with the other mode)."""


class ShapeRuleError(AssertionError):
    """A primitive's abstract (shape/dtype) rule disagreed with its impl."""


class GradcheckError(RuntimeError):
    """The analytical and numerical Jacobians of a function disagree."""


# -- data -------------------------------------------------------------------------------

class DatasetError(ValueError):
    """A dataset folder or file is missing, incomplete or not in the expected format.

    The message names the file and what was expected, so the command line can
    show it as-is.
    """
