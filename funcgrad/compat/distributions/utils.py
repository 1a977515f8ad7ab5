"""torch.distributions.utils: broadcasting parameters, probabilities <-> logits, lazy properties and
the lower-triangle <-> vector maps the Cholesky transforms use."""

from __future__ import annotations

import functools
from numbers import Number

from .. import creation as _c
from ..autograd.grad_mode import enable_grad
from ..ops_linalg import diag_embed
from ..tensor import Tensor

__all__ = ["broadcast_all", "clamp_probs", "euler_constant", "lazy_property", "logits_to_probs", "probs_to_logits",
           "tril_matrix_to_vec", "vec_to_tril_matrix"]

euler_constant = 0.57721566490153286060  # Euler-Mascheroni constant


def is_tensor_like(x):
    return isinstance(x, Tensor)


def broadcast_all(*values):
    """Tensors broadcast together; Python numbers become tensors of the first tensor's dtype and device
    (the default dtype when there is none)."""
    if not all(isinstance(v, (Tensor, Number)) for v in values):
        raise ValueError("Input arguments must all be instances of Number, torch.Tensor or objects implementing "
                         "__torch_function__.")
    like = next((v for v in values if isinstance(v, Tensor)), None)
    if like is None:
        from ..dtypes import get_default_dtype  # noqa: PLC0415

        opts = {"dtype": get_default_dtype()}
    else:
        opts = {"dtype": like.dtype, "device": like.device}
    vals = [v if isinstance(v, Tensor) else _c.tensor(v, **opts) for v in values]
    from ..ops_shape_extra import broadcast_tensors  # noqa: PLC0415

    return tuple(broadcast_tensors(*vals))


def _sum_rightmost(value, dim):
    """Sum the ``dim`` rightmost dimensions of ``value``."""
    if dim == 0:
        return value
    return value.flatten(value.dim() - dim).sum(-1)


def _finfo(dtype):
    from ..ops_math_extra import finfo  # noqa: PLC0415

    return finfo(dtype)


def logits_to_probs(logits, is_binary=False):
    """sigmoid(logits) (binary) or softmax over the last dimension."""
    return logits.sigmoid() if is_binary else logits.softmax(-1)


def clamp_probs(probs):
    """probs clamped to [eps, 1 - eps], eps the machine epsilon of probs' dtype."""
    eps = _finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs, is_binary=False):
    """log-odds (binary) or log-probabilities of clamped probabilities."""
    p = clamp_probs(probs)
    return p.log() - (-p).log1p() if is_binary else p.log()


class lazy_property:
    """A property computed on first access (with grad enabled) and then stored on the instance."""

    def __init__(self, wrapped):
        self.wrapped = wrapped
        functools.update_wrapper(self, wrapped)

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        with enable_grad():
            value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value


def _diag_embed(v):
    """Square matrices with v on the diagonal and zeros elsewhere (inf stays on the diagonal): torch.diag_embed."""
    return diag_embed(v)


def _tril_mask(n, diag, device):
    r = _c.arange(n, device=device)
    return r < r.view(-1, 1) + (diag + 1)


def tril_matrix_to_vec(mat, diag=0):
    """The lower-triangular entries (below diagonal ``diag``) of a (batched) square matrix, row by row."""
    n = mat.shape[-1]
    if diag < -n or diag >= n:
        raise ValueError(f"diag ({diag}) provided is outside [{-n}, {n - 1}].")
    return mat[..., _tril_mask(n, diag, mat.device)]


def vec_to_tril_matrix(vec, diag=0):
    """The inverse of tril_matrix_to_vec: a (batched) lower-triangular D x D matrix from its entries."""
    m = vec.shape[-1]
    n = (-(1 + 2 * diag) + ((1 + 2 * diag) ** 2 + 8 * m + 4 * abs(diag) * (diag + 1)) ** 0.5) / 2
    if abs(round(n) - n) > 1e-6:
        raise ValueError(f"The size of last dimension is {m} which cannot be expressed as the lower triangular "
                         "part of a square D x D matrix.")
    n = round(n)
    mask = _tril_mask(n, diag, vec.device)
    idx = mask.reshape(-1).nonzero().squeeze(-1)
    flat = vec.new_zeros(*vec.shape[:-1], n * n)
    flat = flat.scatter(-1, idx.expand(*vec.shape), vec)  # differentiable in vec
    return flat.reshape(*vec.shape[:-1], n, n)
