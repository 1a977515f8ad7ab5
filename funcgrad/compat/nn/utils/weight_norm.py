"""The hook-based (deprecated) ``weight_norm`` / ``remove_weight_norm`` and ``spectral_norm`` /
``remove_spectral_norm`` of torch.nn.utils: the weight is recomputed before each forward from
trained tensors (``weight_g``, ``weight_v``; ``weight_orig`` with buffers ``weight_u``/``weight_v``)."""

from __future__ import annotations

import warnings

from ...autograd.grad_mode import no_grad
from ..parameter import Parameter

__all__ = ["weight_norm", "remove_weight_norm", "spectral_norm", "remove_spectral_norm"]


def _norm_except(v, dim):
    from ... import norm_except_dim  # noqa: PLC0415

    return norm_except_dim(v, 2, -1 if dim is None else dim)


class _WeightNormHook:
    def __init__(self, name, dim):
        self.name, self.dim = name, dim

    def compute(self, module):
        g, v = getattr(module, self.name + "_g"), getattr(module, self.name + "_v")
        return v * (g / _norm_except(v, self.dim))

    def __call__(self, module, inputs):
        object.__setattr__(module, self.name, self.compute(module))


def weight_norm(module, name="weight", dim=0):
    warnings.warn("`torch.nn.utils.weight_norm` is deprecated in favor of "
                  "`torch.nn.utils.parametrizations.weight_norm`.", FutureWarning, stacklevel=2)
    for h in module._forward_pre_hooks:
        if isinstance(h, _WeightNormHook) and h.name == name:
            raise RuntimeError(f"Cannot register two weight_norm hooks on the same parameter {name}")
    hook = _WeightNormHook(name, dim)
    weight = getattr(module, name)
    del module._parameters[name]
    module.register_parameter(name + "_g", Parameter(_norm_except(weight, dim).detach().clone()))
    module.register_parameter(name + "_v", Parameter(weight.detach().clone()))
    hook(module, None)
    handle = module.register_forward_pre_hook(hook)
    hook.handle = handle
    return module


def remove_weight_norm(module, name="weight"):
    for h in list(module._forward_pre_hooks):
        if isinstance(h, _WeightNormHook) and h.name == name:
            with no_grad():
                w = h.compute(module).detach().clone()
            h.handle.remove()
            del module._parameters[name + "_g"], module._parameters[name + "_v"]
            module.__dict__.pop(name, None)
            module.register_parameter(name, Parameter(w))
            return module
    raise ValueError(f"weight_norm of '{name}' not found in {module}")


class _SpectralNormHook:
    def __init__(self, name, n_power_iterations, dim, eps):
        self.name, self.n, self.dim, self.eps = name, n_power_iterations, dim, eps

    def matrix(self, w):
        return (w.movedim(self.dim, 0) if self.dim else w).flatten(1)

    def compute(self, module, do_power_iteration):
        w = getattr(module, self.name + "_orig")
        u, v = getattr(module, self.name + "_u"), getattr(module, self.name + "_v")
        mat = self.matrix(w)
        if do_power_iteration:
            with no_grad():
                for _ in range(self.n):
                    v.copy_(_normalize(mat.detach().mT @ u, self.eps))
                    u.copy_(_normalize(mat.detach() @ v, self.eps))
        u, v = u.clone(), v.clone()
        return w / (u * (mat @ v)).sum()

    def __call__(self, module, inputs):
        object.__setattr__(module, self.name, self.compute(module, module.training))


def _normalize(x, eps):
    return x / x.norm().clamp_min(eps)


def spectral_norm(module, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    from ... import randn  # noqa: PLC0415

    if dim is None:
        dim = 1 if type(module).__name__.startswith("ConvTranspose") else 0
    hook = _SpectralNormHook(name, n_power_iterations, dim, eps)
    weight = getattr(module, name)
    mat = hook.matrix(weight.detach())
    h, w = mat.shape
    del module._parameters[name]
    module.register_parameter(name + "_orig", Parameter(weight.detach().clone()))
    module.register_buffer(name + "_u", _normalize(randn(h, dtype=weight.dtype), eps))
    module.register_buffer(name + "_v", _normalize(randn(w, dtype=weight.dtype), eps))
    object.__setattr__(module, name, weight.detach().clone())
    hook.handle = module.register_forward_pre_hook(hook)
    return module


def remove_spectral_norm(module, name="weight"):
    for h in list(module._forward_pre_hooks):
        if isinstance(h, _SpectralNormHook) and h.name == name:
            with no_grad():
                w = h.compute(module, False).detach().clone()
            h.handle.remove()
            del module._parameters[name + "_orig"], module._buffers[name + "_u"], module._buffers[name + "_v"]
            module.__dict__.pop(name, None)
            module.register_parameter(name, Parameter(w))
            return module
    raise ValueError(f"spectral_norm of '{name}' not found in {module}")
