"""Gamma draws with PyTorch's implicit reparameterization gradient (``torch._standard_gamma``).

A draw x ~ Gamma(alpha, 1) is a function of alpha through its CDF: P(alpha, x) = u holds for the
uniform u behind the draw, so dx/dalpha = -(dP/dalpha) / p(x; alpha), p the density.  dP/dalpha
has no closed form; it is taken by a Richardson-extrapolated central difference of scipy's
regularized incomplete gamma in float64, on whichever tail (P or Q = 1 - P) is smaller so that
the relative accuracy holds far in the tails.  Gamma, Chi2, Beta, Dirichlet, StudentT and what is
built on them (InverseGamma, FisherSnedecor, Wishart) get a differentiable ``rsample`` from it.
"""

from __future__ import annotations

import numpy as np
from scipy import special as _sp

from .. import creation as _c
from ..autograd.function import Function

__all__ = ["standard_gamma"]


def _dP_dalpha(alpha, x):
    """dP(alpha, x)/dalpha (float64 arrays), by a 4th-order Richardson central difference."""
    lower = x < alpha  # P is the smaller tail there
    h = 1e-3 * np.maximum(alpha, 1e-2)
    h = np.minimum(h, 0.5 * alpha)

    def f(a):
        return np.where(lower, _sp.gammainc(a, x), -_sp.gammaincc(a, x))

    d1 = (f(alpha + h) - f(alpha - h)) / (2 * h)
    d2 = (f(alpha + h / 2) - f(alpha - h / 2)) / h
    return (4 * d2 - d1) / 3


def _dx_dalpha(alpha, x):
    alpha, x = np.asarray(alpha, np.float64), np.asarray(x, np.float64)
    x = np.maximum(x, np.finfo(np.float64).tiny)
    log_pdf = (alpha - 1) * np.log(x) - x - _sp.gammaln(alpha)
    with np.errstate(over="ignore", invalid="ignore"):
        out = -_dP_dalpha(alpha, x) / np.exp(log_pdf)
    return np.where(np.isfinite(out), out, 0.0)


def _host(t):
    v = t.detach()._value
    return np.asarray(v.get() if hasattr(v, "get") else v)


class _StandardGamma(Function):
    @staticmethod
    def forward(ctx, alpha):
        a = _host(alpha).astype(np.float64)
        x = _c._rng(None).standard_gamma(a)
        out = _c.tensor(np.asarray(x), dtype=alpha.dtype, device=alpha.device)
        ctx.save_for_backward(alpha, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        alpha, x = ctx.saved_tensors
        d = _c.tensor(_dx_dalpha(_host(alpha), _host(x)), dtype=alpha.dtype, device=alpha.device)
        return grad * d


def standard_gamma(concentration):
    """Gamma(concentration, 1) draws of concentration's shape, differentiable in concentration."""
    if not concentration.is_floating_point():
        raise TypeError(f"standard_gamma expects a floating-point concentration, got {concentration.dtype}")
    return _StandardGamma.apply(concentration)
