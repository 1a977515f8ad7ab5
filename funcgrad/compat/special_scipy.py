"""torch.special functions evaluated with scipy.special on the host: erfcx, zeta, spherical_bessel_j0, modified_bessel_k0/k1 (and scaled),
airy_ai, and the orthogonal polynomials (Chebyshev T/U/V/W and their shifted forms, Hermite H/He,
Laguerre L, Legendre P).

Values come from scipy.special on the host buffers (cupy tensors are copied to the host and
back).  ``erfcx`` is differentiable (as PyTorch's), and so is ``spherical_bessel_j0`` (composed of sin and a division; PyTorch's has no derivative); the
polynomials, zeta, the K Bessel functions and airy_ai are not (PyTorch has no derivative for them
either): their results do not require grad.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.special as _sp

from ._dispatch import FUNCS, as_t, float_input, promote
from .device import like
from .autograd.function import Function
from .tensor import Tensor, wrap

__all__ = ["erfcx", "zeta", "spherical_bessel_j0", "modified_bessel_k0", "modified_bessel_k1",
           "scaled_modified_bessel_k0", "scaled_modified_bessel_k1", "airy_ai", "chebyshev_polynomial_t",
           "chebyshev_polynomial_u", "chebyshev_polynomial_v", "chebyshev_polynomial_w",
           "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
           "shifted_chebyshev_polynomial_w", "hermite_polynomial_h", "hermite_polynomial_he",
           "laguerre_polynomial_l", "legendre_polynomial_p"]


def _host(t):
    v = t.detach()._value
    return v.get() if hasattr(v, "get") else np.asarray(v)


def _apply(fn, *tensors):
    """fn on the host values of float tensors, the result in the first tensor's dtype and device."""
    ref = next(t for t in tensors if isinstance(t, Tensor))
    args = [_host(t) if isinstance(t, Tensor) else t for t in tensors]
    with np.errstate(all="ignore"):
        r = np.asarray(fn(*args)).astype(ref._value.dtype, copy=False)
    return wrap(like(r, ref._value))


def _unary(name, fn):
    def f(input, *, out=None):
        return _apply(fn, float_input(as_t(input)))
    f.__name__ = name
    return f


modified_bessel_k0 = _unary("modified_bessel_k0", _sp.k0)
modified_bessel_k1 = _unary("modified_bessel_k1", _sp.k1)
scaled_modified_bessel_k0 = _unary("scaled_modified_bessel_k0", _sp.k0e)
scaled_modified_bessel_k1 = _unary("scaled_modified_bessel_k1", _sp.k1e)
airy_ai = _unary("airy_ai", lambda x: _sp.airy(x)[0])


class _Erfcx(Function):
    @staticmethod
    def forward(ctx, x):
        y = _apply(_sp.erfcx, x)
        ctx.save_for_backward(x, y)
        return y

    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        return g * (2.0 * x * y - 2.0 / math.sqrt(math.pi))


def erfcx(input, *, out=None):
    """exp(x**2) * erfc(x), computed without overflow; d/dx = 2 x erfcx(x) - 2 / sqrt(pi)."""
    return _Erfcx.apply(float_input(as_t(input)))


def spherical_bessel_j0(input, *, out=None):
    """sin(x) / x (1 at 0), differentiable."""
    x = float_input(as_t(input))
    zero = x == 0
    safe = FUNCS["where"](zero, 1.0, x)
    return FUNCS["where"](zero, 1.0, FUNCS["sin"](safe) / safe)


def _pair(input, other):
    (a, b), _ = promote(as_t(input), as_t(other))
    a = float_input(a) if isinstance(a, Tensor) else float(a)
    b = float_input(b) if isinstance(b, Tensor) else float(b)
    if not isinstance(a, Tensor):
        from .creation import full_like  # noqa: PLC0415

        a = full_like(b, a)
    return a, b


def zeta(input, other, *, out=None):
    """The Hurwitz zeta function sum_k (k + other) ** -input."""
    x, q = _pair(input, other)
    return _apply(_sp.zeta, x, q)


def _poly(name, fn):
    def f(input, n, *, out=None):
        x, nn = _pair(input, n)
        if isinstance(nn, Tensor):
            nn = nn.to(x.dtype)
        return _apply(lambda xv, nv: np.where(nv < 0, 0.0, fn(np.maximum(nv, 0).astype(np.int64), xv)), x, nn)
    f.__name__ = name
    f.__doc__ = f"torch.special.{name}(input, n): the degree-n polynomial at input (0 for negative n)."
    return f


def _cheb_v(n, x):
    return _sp.eval_chebyu(n, x) - np.where(n > 0, _sp.eval_chebyu(np.maximum(n - 1, 0), x), 0.0)


def _cheb_w(n, x):
    return _sp.eval_chebyu(n, x) + np.where(n > 0, _sp.eval_chebyu(np.maximum(n - 1, 0), x), 0.0)


chebyshev_polynomial_t = _poly("chebyshev_polynomial_t", _sp.eval_chebyt)
chebyshev_polynomial_u = _poly("chebyshev_polynomial_u", _sp.eval_chebyu)
chebyshev_polynomial_v = _poly("chebyshev_polynomial_v", _cheb_v)
chebyshev_polynomial_w = _poly("chebyshev_polynomial_w", _cheb_w)
shifted_chebyshev_polynomial_t = _poly("shifted_chebyshev_polynomial_t", lambda n, x: _sp.eval_chebyt(n, 2 * x - 1))
shifted_chebyshev_polynomial_u = _poly("shifted_chebyshev_polynomial_u", lambda n, x: _sp.eval_chebyu(n, 2 * x - 1))
shifted_chebyshev_polynomial_v = _poly("shifted_chebyshev_polynomial_v", lambda n, x: _cheb_v(n, 2 * x - 1))
shifted_chebyshev_polynomial_w = _poly("shifted_chebyshev_polynomial_w", lambda n, x: _cheb_w(n, 2 * x - 1))
hermite_polynomial_h = _poly("hermite_polynomial_h", _sp.eval_hermite)
hermite_polynomial_he = _poly("hermite_polynomial_he", _sp.eval_hermitenorm)
laguerre_polynomial_l = _poly("laguerre_polynomial_l", _sp.eval_laguerre)
legendre_polynomial_p = _poly("legendre_polynomial_p", _sp.eval_legendre)
