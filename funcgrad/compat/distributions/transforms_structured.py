"""The vector and matrix transforms of torch.distributions.transforms: Softmax and StickBreaking
(onto the simplex), LowerCholesky, PositiveDefinite and CorrCholesky (onto matrix sets), and the
combinators Cat and Stack (a transform per slice along a dimension)."""

from __future__ import annotations

import math

from .. import creation as _c
from . import constraints
from .transforms import Transform
from .transforms_elementwise import _clipped_sigmoid, _softplus
from .utils import (
    _diag_embed,
    _finfo,
    _sum_rightmost,
    lazy_property,
    tril_matrix_to_vec,
    vec_to_tril_matrix,
)

__all__ = ["CatTransform", "CorrCholeskyTransform", "LowerCholeskyTransform", "PositiveDefiniteTransform",
           "SoftmaxTransform", "StackTransform", "StickBreakingTransform"]


def _pad_last(x, left, right, value):
    from ..nn.functional import pad  # noqa: PLC0415

    return pad(x, [left, right], value=value)


def _need_dims(shape, n):
    if len(shape) < n:
        raise ValueError("Too few dimensions on input")


class _Structured(Transform):
    def __eq__(self, other):
        return isinstance(other, type(self))

    __hash__ = object.__hash__


class SoftmaxTransform(_Structured):
    """exp then normalise onto the simplex (not bijective; the inverse is the log)."""

    domain, codomain = constraints.real_vector, constraints.simplex

    def _call(self, x):
        p = (x - x.max(-1, True)[0]).exp()
        return p / p.sum(-1, True)

    def _inverse(self, y):
        return y.log()

    def forward_shape(self, shape):
        _need_dims(shape, 1)
        return shape

    inverse_shape = forward_shape


def _offset(x, extra):
    return x.shape[-1] + extra - x.new_ones(x.shape[-1]).cumsum(-1)


class StickBreakingTransform(_Structured):
    """R^(K-1) onto the K-simplex by stick breaking (iterated sigmoids); bijective."""

    domain, codomain = constraints.real_vector, constraints.simplex
    bijective = True

    def _call(self, x):
        z = _clipped_sigmoid(x - _offset(x, 1).log())
        z_cumprod = (1 - z).cumprod(-1)
        return _pad_last(z, 0, 1, 1.0) * _pad_last(z_cumprod, 1, 0, 1.0)

    def _inverse(self, y):
        y_crop = y[..., :-1]
        offset = y.shape[-1] - y.new_ones(y_crop.shape[-1]).cumsum(-1)
        sf = (1 - y_crop.cumsum(-1)).clamp(min=_finfo(y.dtype).tiny)
        return y_crop.log() - sf.log() + offset.log()

    def log_abs_det_jacobian(self, x, y):
        from ..nn.functional import logsigmoid  # noqa: PLC0415

        x = x - _offset(x, 1).log()
        return (-x + logsigmoid(x) + y[..., :-1].log()).sum(-1)

    def forward_shape(self, shape):
        _need_dims(shape, 1)
        return type(shape)(tuple(shape[:-1]) + (shape[-1] + 1,))

    def inverse_shape(self, shape):
        _need_dims(shape, 1)
        return type(shape)(tuple(shape[:-1]) + (shape[-1] - 1,))


class LowerCholeskyTransform(_Structured):
    """Square matrices onto lower-triangular ones with a positive (exponentiated) diagonal."""

    domain, codomain = constraints.independent(constraints.real, 2), constraints.lower_cholesky

    def _call(self, x):
        return x.tril(-1) + _diag_embed(x.diagonal(0, -2, -1).exp())

    def _inverse(self, y):
        return y.tril(-1) + _diag_embed(y.diagonal(0, -2, -1).log())


class PositiveDefiniteTransform(_Structured):
    """Square matrices onto positive-definite ones: L L^T of LowerCholeskyTransform's L."""

    domain, codomain = constraints.independent(constraints.real, 2), constraints.positive_definite

    def _call(self, x):
        L = LowerCholeskyTransform()(x)
        return L @ L.mT

    def _inverse(self, y):
        from ..linalg import cholesky  # noqa: PLC0415

        return LowerCholeskyTransform().inv(cholesky(y))


class CorrCholeskyTransform(_Structured):
    """R^(D(D-1)/2) onto Cholesky factors of D x D correlation matrices (rows of unit norm):
    tanh, then a signed stick breaking along each row."""

    domain, codomain = constraints.real_vector, constraints.corr_cholesky
    bijective = True

    def _call(self, x):
        eps = _finfo(x.dtype).eps
        r = vec_to_tril_matrix(x.tanh().clamp(min=-1 + eps, max=1 - eps), diag=-1)
        z1m_cumprod_sqrt = (1 - r ** 2).sqrt().cumprod(-1)
        r = r + _c.eye(r.shape[-1], dtype=r.dtype, device=r.device)
        return r * _pad_last(z1m_cumprod_sqrt[..., :-1], 1, 0, 1.0)

    def _inverse(self, y):
        y_cumsum = 1 - (y * y).cumsum(-1)
        shifted = _pad_last(y_cumsum[..., :-1], 1, 0, 1.0)
        t = tril_matrix_to_vec(y, diag=-1) / tril_matrix_to_vec(shifted, diag=-1).sqrt()
        return (t.log1p() - (-t).log1p()) / 2

    def log_abs_det_jacobian(self, x, y, intermediates=None):
        y1m_cumsum = 1 - (y * y).cumsum(-1)
        stick = 0.5 * tril_matrix_to_vec(y1m_cumsum, diag=-2).log().sum(-1)
        tanh = -2 * (x + _softplus(-2 * x) - math.log(2.0)).sum(-1)
        return stick + tanh

    def forward_shape(self, shape):
        _need_dims(shape, 1)
        n = shape[-1]
        d = round((0.25 + 2 * n) ** 0.5 + 0.5)
        if d * (d - 1) // 2 != n:
            raise ValueError("Input is not a flattened lower-diagonal number")
        return type(shape)(tuple(shape[:-1]) + (d, d))

    def inverse_shape(self, shape):
        _need_dims(shape, 2)
        if shape[-2] != shape[-1]:
            raise ValueError("Input is not square")
        d = shape[-1]
        return type(shape)(tuple(shape[:-2]) + (d * (d - 1) // 2,))


def _check_dim(dim, t, what):
    if not -t.dim() <= dim < t.dim():
        raise AssertionError(f"dim {dim} out of range for {what} with {t.dim()} dimensions")


class CatTransform(Transform):
    """Transforms ``tseq`` applied to consecutive slices (of sizes ``lengths``) along ``dim``, as torch.cat."""

    def __init__(self, tseq, dim=0, lengths=None, cache_size=0):
        if not all(isinstance(t, Transform) for t in tseq):
            raise AssertionError("All elements of tseq must be Transform instances")
        if cache_size:
            tseq = [t.with_cache(cache_size) for t in tseq]
        super().__init__(cache_size=cache_size)
        self.transforms = list(tseq)
        self.lengths = [1] * len(self.transforms) if lengths is None else list(lengths)
        if len(self.lengths) != len(self.transforms):
            raise AssertionError(f"lengths ({len(self.lengths)}) must match transforms ({len(self.transforms)})")
        self.dim = dim

    @lazy_property
    def event_dim(self):
        return max(t.event_dim for t in self.transforms)

    @lazy_property
    def length(self):
        return sum(self.lengths)

    def with_cache(self, cache_size=1):
        return self if self._cache_size == cache_size else CatTransform(self.transforms, self.dim, self.lengths,
                                                                        cache_size)

    def _slices(self, t, what):
        _check_dim(self.dim, t, "tensor" if what in "xy" else what)
        if t.shape[self.dim] != self.length:
            raise AssertionError(f"{what}.size({self.dim}) = {t.shape[self.dim]} must equal length {self.length}")
        out, start = [], 0
        for length in self.lengths:
            out.append(t.narrow(self.dim, start, length))
            start += length
        return out

    def _call(self, x):
        from ..ops_shape import cat  # noqa: PLC0415

        return cat([t(s) for t, s in zip(self.transforms, self._slices(x, "x"))], self.dim)

    def _inverse(self, y):
        from ..ops_shape import cat  # noqa: PLC0415

        return cat([t.inv(s) for t, s in zip(self.transforms, self._slices(y, "y"))], self.dim)

    def log_abs_det_jacobian(self, x, y):
        from ..ops_shape import cat  # noqa: PLC0415

        terms = []
        for t, xs, ys in zip(self.transforms, self._slices(x, "x"), self._slices(y, "y")):
            term = t.log_abs_det_jacobian(xs, ys)
            if t.event_dim < self.event_dim:
                term = _sum_rightmost(term, self.event_dim - t.event_dim)
            terms.append(term)
        dim = (self.dim - x.dim() if self.dim >= 0 else self.dim) + self.event_dim
        return cat(terms, dim) if dim < 0 else sum(terms)

    bijective = property(lambda self: all(t.bijective for t in self.transforms))
    domain = constraints.dependent_property(
        lambda self: constraints.cat([t.domain for t in self.transforms], self.dim, self.lengths))
    codomain = constraints.dependent_property(
        lambda self: constraints.cat([t.codomain for t in self.transforms], self.dim, self.lengths))


class StackTransform(Transform):
    """Transforms ``tseq`` applied to the slices along ``dim``, as torch.stack."""

    def __init__(self, tseq, dim=0, cache_size=0):
        if not all(isinstance(t, Transform) for t in tseq):
            raise AssertionError("All elements of tseq must be Transform instances")
        if cache_size:
            tseq = [t.with_cache(cache_size) for t in tseq]
        super().__init__(cache_size=cache_size)
        self.transforms, self.dim = list(tseq), dim

    def with_cache(self, cache_size=1):
        return self if self._cache_size == cache_size else StackTransform(self.transforms, self.dim, cache_size)

    def _slices(self, z, what):
        _check_dim(self.dim, z, "tensor" if what in "xy" else what)
        if z.shape[self.dim] != len(self.transforms):
            raise AssertionError(f"{what}.size({self.dim}) = {z.shape[self.dim]} must equal len(transforms) "
                                 f"{len(self.transforms)}")
        return [z.select(self.dim, i) for i in range(z.shape[self.dim])]

    def _call(self, x):
        from ..ops_shape import stack  # noqa: PLC0415

        return stack([t(s) for s, t in zip(self._slices(x, "x"), self.transforms)], self.dim)

    def _inverse(self, y):
        from ..ops_shape import stack  # noqa: PLC0415

        return stack([t.inv(s) for s, t in zip(self._slices(y, "y"), self.transforms)], self.dim)

    def log_abs_det_jacobian(self, x, y):
        from ..ops_shape import stack  # noqa: PLC0415

        xs, ys = self._slices(x, "x"), self._slices(y, "y")
        return stack([t.log_abs_det_jacobian(a, b) for a, b, t in zip(xs, ys, self.transforms)], self.dim)

    bijective = property(lambda self: all(t.bijective for t in self.transforms))
    domain = constraints.dependent_property(lambda self: constraints.stack([t.domain for t in self.transforms],
                                                                           self.dim))
    codomain = constraints.dependent_property(lambda self: constraints.stack([t.codomain for t in self.transforms],
                                                                             self.dim))
