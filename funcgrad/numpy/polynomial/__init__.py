"""funcgrad.numpy.polynomial: numpy.polynomial's power-series functions.

Only the ``polynomial`` module's functions (coefficients lowest degree first: ``polyval``,
``polyfit``, ``polyder``, ``polyint``, ``polyroots``, ``polyvander``, ...) are here, written
with funcgrad operations, so they are differentiable; the convenience classes
(``Polynomial``, ``Chebyshev``, ...) and the other bases are not (docs/numpy-coverage.md
lists what is missing).
"""

from . import polynomial  # noqa: F401

__all__ = ["polynomial"]
