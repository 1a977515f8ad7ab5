"""funcgrad.scipy: scipy's names and signatures, differentiable (like jax.scipy).

scipy is not a dependency of funcgrad: functions whose best implementation is
scipy's import it on first use (and say ``pip install scipy`` if it is
missing); on cupy arrays they use ``cupyx.scipy``.  Submodules: ``special``, ``stats``,
``linalg``, ``signal``, ``integrate`` (see docs/scipy.md).
"""

from . import integrate, linalg, signal, special, stats  # noqa: F401
