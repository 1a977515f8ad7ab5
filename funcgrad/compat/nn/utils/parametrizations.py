"""torch.nn.utils.parametrizations: ``weight_norm`` and ``spectral_norm`` as parametrizations.

(``orthogonal`` is not provided.)"""

from __future__ import annotations

from ...autograd.grad_mode import no_grad
from ..module import Module
from . import parametrize

__all__ = ["weight_norm", "spectral_norm"]


def _norm_except(v, dim):
    from ... import norm_except_dim  # noqa: PLC0415

    return norm_except_dim(v, 2, -1 if dim is None else dim)


class _WeightNorm(Module):
    def __init__(self, dim=0):
        super().__init__()
        self.dim = -1 if dim is None else dim

    def forward(self, weight_g, weight_v):
        return weight_v * (weight_g / _norm_except(weight_v, self.dim))

    def right_inverse(self, weight):
        return _norm_except(weight, self.dim), weight


def weight_norm(module, name="weight", dim=0):
    """``weight = g * v / ||v||`` with g (original0) and v (original1) the trained tensors."""
    parametrize.register_parametrization(module, name, _WeightNorm(dim), unsafe=True)
    return module


def _normalize(x, eps):
    return x / x.norm().clamp_min(eps)


class _SpectralNorm(Module):
    def __init__(self, weight, n_power_iterations=1, dim=0, eps=1e-12):
        super().__init__()
        from ... import randn  # noqa: PLC0415

        nd = weight.dim()
        self.dim = dim if dim >= 0 else dim + nd
        self.eps = eps
        self.n_power_iterations = n_power_iterations
        if nd > 1:
            w = self._reshape(weight)
            h, wd = w.shape
            self.register_buffer("_u", _normalize(randn(h, dtype=weight.dtype), eps))
            self.register_buffer("_v", _normalize(randn(wd, dtype=weight.dtype), eps))
            self._power_method(w, 15)

    def _reshape(self, weight):
        if self.dim != 0:
            weight = weight.movedim(self.dim, 0)
        return weight.flatten(1)

    def _power_method(self, w, n):
        with no_grad():
            for _ in range(n):
                self._u.copy_(_normalize(w @ self._v, self.eps))
                self._v.copy_(_normalize(w.mH @ self._u, self.eps))

    def forward(self, weight):
        if weight.dim() == 1:
            return _normalize(weight, self.eps)
        w = self._reshape(weight)
        if self.training:
            self._power_method(w.detach(), self.n_power_iterations)
        u, v = self._u.clone(), self._v.clone()
        sigma = (u.conj() * (w @ v)).sum()
        return weight / sigma

    def right_inverse(self, value):
        return value


def spectral_norm(module, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    """``weight / sigma(weight)``, sigma estimated by power iteration (one step per training forward)."""
    weight = getattr(module, name)
    if dim is None:
        dim = 1 if type(module).__name__.startswith("ConvTranspose") else 0
    parametrize.register_parametrization(module, name, _SpectralNorm(weight, n_power_iterations, dim, eps))
    return module
