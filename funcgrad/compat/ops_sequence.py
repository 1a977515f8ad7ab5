"""Ops along a dimension: nan_to_num, diff, logcumsumexp, cummax/cummin, searchsorted/bucketize, trapezoid,
aminmax, bernoulli, cdist.

All are compositions of compat ops already recorded by the core's primitives
(slices, cat, where, logaddexp, gathers), so their gradients (to any order)
come from those rules; indices (cummax, searchsorted) are computed on the
buffers with the tensors' own namespace.
"""

from __future__ import annotations

import numpy as np

from ..backend import kind_of
from ._dispatch import FUNCS, METHODS, as_t, cast, float_input, name_grad, op
from .device import like, xp_of
from .ops_reduce import _take, _vi, amax_, amin_
from .tensor import Tensor, _dim, wrap

__all__ = ["nan_to_num", "diff", "logcumsumexp", "cummax", "cummin", "searchsorted", "bucketize", "trapezoid",
           "aminmax", "bernoulli", "cdist", "gradient"]


def _along(x, d, start, stop):
    """x[..., start:stop, ...] on dimension d (a view: differentiable)."""
    return x[(slice(None),) * d + (slice(start, stop),)]


@op("nan_to_num")
def nan_to_num(input, nan=0.0, posinf=None, neginf=None, *, out=None):
    """NaN -> ``nan``, +inf -> ``posinf`` (default: the dtype's largest), -inf -> ``neginf`` (its lowest).

    The gradient passes where the input is finite and is zero at the replaced elements (PyTorch's).
    """
    x = input
    kind = x._value.dtype.kind
    if kind in "biu":
        return x.clone()
    xp = xp_of(x._value)
    info = np.finfo(x._value.dtype)
    buf = x._value
    rep = xp.where(xp.isnan(buf), nan, xp.where(buf > 0, info.max if posinf is None else posinf,
                                                 info.min if neginf is None else neginf))
    r = FUNCS["where"](wrap(xp.isfinite(buf)), x, wrap(rep.astype(buf.dtype)))
    return name_grad(r, "NanToNumBackward0")


@op("diff")
def diff(input, n=1, dim=-1, prepend=None, append=None):
    """n-th forward difference along ``dim`` (logical xor for bool), after joining ``prepend``/``append``."""
    if input._value.ndim == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    d = _dim(dim, input._value.ndim)
    if n == 0:  # a copy of the input, without prepend/append (PyTorch's and numpy's)
        return input.clone()
    parts = []
    for extra in (prepend, input, append):
        if extra is None:
            continue
        extra = as_t(extra)
        if not isinstance(extra, Tensor):
            from .creation import tensor  # noqa: PLC0415

            extra = tensor(extra, dtype=input.dtype, device=input.device)
        if extra._value.ndim == 0:  # a scalar: one slice of input's shape
            shape = list(input.shape)
            shape[d] = 1
            extra = extra.expand(*shape)
        parts.append(extra)
    x = FUNCS["cat"](parts, d) if len(parts) > 1 else input
    sub = FUNCS["logical_xor"] if x._value.dtype == np.bool_ else FUNCS["sub"]
    for _ in range(n):
        length = x._value.shape[d]
        if length == 0:
            break
        x = sub(_along(x, d, 1, None), _along(x, d, 0, length - 1))
    return x


def _gradient_1d(x, d, h, edge_order):
    """numpy.gradient's second-order central differences along ``d``; ``h`` a number or 1-D coordinates."""
    n = x._value.shape[d]
    left, mid, right = _along(x, d, None, -2), _along(x, d, 1, -1), _along(x, d, 2, None)
    first, last = _along(x, d, 0, 1), _along(x, d, n - 1, n)
    second, penult = _along(x, d, 1, 2), _along(x, d, n - 2, n - 1)
    if not isinstance(h, Tensor):  # uniform spacing
        inner = (right - left) / (2.0 * h)
        if edge_order == 1:
            lo, hi = (second - first) / h, (last - penult) / h
        else:
            third, antepenult = _along(x, d, 2, 3), _along(x, d, n - 3, n - 2)
            lo = (-1.5 * first + 2.0 * second - 0.5 * third) / h
            hi = (0.5 * antepenult - 2.0 * penult + 1.5 * last) / h
        return FUNCS["cat"]([lo, inner, hi], d)
    shape = [1] * x._value.ndim
    shape[d] = -1
    c = h.to(x.dtype).reshape(shape)
    dx = _along(c, d, 1, None) - _along(c, d, None, -1)  # n - 1 steps
    hs, hd = _along(dx, d, None, -1), _along(dx, d, 1, None)
    inner = (hs * hs * right + (hd * hd - hs * hs) * mid - hd * hd * left) / (hs * hd * (hd + hs))
    if edge_order == 1:
        lo, hi = (second - first) / _along(dx, d, 0, 1), (last - penult) / _along(dx, d, n - 2, n - 1)
    else:
        third, antepenult = _along(x, d, 2, 3), _along(x, d, n - 3, n - 2)
        a1, a2 = _along(dx, d, 0, 1), _along(dx, d, 1, 2)
        lo = (-(2.0 * a1 + a2) / (a1 * (a1 + a2)) * first + (a1 + a2) / (a1 * a2) * second
              - a1 / (a2 * (a1 + a2)) * third)
        b1, b2 = _along(dx, d, n - 3, n - 2), _along(dx, d, n - 2, n - 1)
        hi = (b2 / (b1 * (b1 + b2)) * antepenult - (b1 + b2) / (b1 * b2) * penult
              + (2.0 * b2 + b1) / (b2 * (b1 + b2)) * last)
    return FUNCS["cat"]([lo, inner, hi], d)


@op("gradient", method=False)
def gradient(input, *, spacing=1, dim=None, edge_order=1):
    """torch.gradient: one tensor of central differences per dimension in ``dim`` (all by default).

    ``spacing``: a number, a list of numbers (one per dimension) or a list of 1-D coordinate
    tensors; ``edge_order`` 1 or 2 (one-sided differences of that accuracy at the two ends).
    """
    if edge_order not in (1, 2):
        raise RuntimeError(f"torch.gradient only supports edge_order=1 and edge_order=2, but got {edge_order}")
    ndim = input._value.ndim
    given = dim is not None
    dims = [] if ndim == 0 and not given else list(range(ndim)) if not given else \
        [_dim(int(v), ndim) for v in (dim if isinstance(dim, (list, tuple)) else (dim,))]
    if isinstance(spacing, (list, tuple)):
        if len(spacing) != len(dims):
            where = "since dim argument was not given" if not given else "the length of dim"
            raise RuntimeError(
                f"torch.gradient expected spacing to be unspecified, a scalar, or a list of length equal to "
                f"'self.dim() = {ndim}', {where}, but got a list of length {len(spacing)}")
        hs = [as_t(h) if isinstance(h, Tensor) else float(h) for h in spacing]
    else:
        hs = [float(spacing.item() if isinstance(spacing, Tensor) else spacing)] * len(dims)
    x = float_input(input)
    out = []
    for d, h in zip(dims, hs):
        n = x._value.shape[d]
        if n < edge_order + 1:
            raise RuntimeError("torch.gradient expected each dimension size to be at least edge_order+1")
        if isinstance(h, Tensor) and (h._value.ndim != 1 or h._value.shape[0] != n):
            raise RuntimeError(f"torch.gradient expected each tensor in spacing to be 1-D with the size of "
                               f"dimension {d} ({n}), but got shape {tuple(h.shape)}")
        out.append(_gradient_1d(x, d, h, edge_order))
    return tuple(out)


@op("logcumsumexp")
def logcumsumexp(input, dim):
    """log(cumsum(exp(x))) along ``dim`` without overflow or underflow: a log-depth scan of logaddexp."""
    x = input
    if kind_of(x._value.dtype) not in "fc":
        raise NotImplementedError(f'"logcumsumexp_out_cpu" not implemented for \'{x.dtype.legacy_name}\'')
    if x._value.ndim == 0:
        return x.clone()
    d = _dim(dim, x._value.ndim)
    n = x._value.shape[d]
    if n <= 1:
        return x.clone()
    k = 1
    while k < n:  # Hillis-Steele: after the step for k, each entry holds logsumexp of its last 2k inputs
        head = _along(x, d, 0, k)
        x = FUNCS["cat"]([head, FUNCS["logaddexp"](_along(x, d, k, n), _along(x, d, 0, n - k))], d)
        k *= 2
    return name_grad(x, "LogcumsumexpBackward0")


def _cumext(name):
    def f(input, dim):
        x = input
        if x._value.ndim == 0:
            return _vi(name)(x.clone(), wrap(xp_of(x._value).zeros((), np.int64)))
        d = _dim(dim, x._value.ndim)
        buf = x._value
        xp = xp_of(buf)
        if buf.shape[d] == 0:
            return _vi(name)(x.clone(), wrap(xp.zeros(buf.shape, np.int64)))
        ufunc = xp.maximum if name == "cummax" else xp.minimum
        run = ufunc.accumulate(buf, axis=d)
        pos = xp.arange(buf.shape[d]).reshape((-1,) + (1,) * (buf.ndim - d - 1))
        if kind_of(buf.dtype) in "fc":
            hit = xp.isnan(buf) | ((buf == run) & ~xp.isnan(run))
        else:
            hit = buf == run
        idx = xp.maximum.accumulate(xp.where(hit, pos, 0), axis=d).astype(np.int64)
        return _vi(name)(name_grad(_take(x, idx, d), name.title() + "Backward0"), wrap(idx))
    f.__name__ = name
    return f


cummax = op("cummax")(_cumext("cummax"))
cummin = op("cummin")(_cumext("cummin"))


def _values_buf(v, ref):
    if isinstance(v, Tensor):
        return v._value
    return like(np.asarray(v), ref)


@op("searchsorted", method=False)
def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, sorter=None, out=None):
    """Insertion indices of ``input`` into the last dimension of ``sorted_sequence`` (row by row for N-D)."""
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but got {side}")
        if right and side == "left":
            raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, got side of left "
                               "while right was True")
        right = side == "right"
    seq = sorted_sequence._value
    xp = xp_of(seq)
    vals = _values_buf(input, seq)
    scalar = not isinstance(input, Tensor)
    srt = None if sorter is None else sorter._value
    how = "right" if right else "left"
    dt = np.int32 if out_int32 else np.int64
    if seq.ndim <= 1:
        s = seq.reshape(-1)
        res = xp.searchsorted(s, vals, side=how, sorter=None if srt is None else srt.reshape(-1))
        return wrap(xp.asarray(res).astype(dt))
    if scalar or vals.ndim != seq.ndim or vals.shape[:-1] != seq.shape[:-1]:
        raise RuntimeError(
            "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries "
            f"tensor and input value tensor must match, but we got boundaries tensor {list(seq.shape)} and input "
            f"value tensor {list(vals.shape)}")
    s2 = seq.reshape(-1, seq.shape[-1])
    v2 = vals.reshape(-1, vals.shape[-1])
    o2 = xp.empty(v2.shape, dt)
    for i in range(s2.shape[0]):
        o2[i] = xp.searchsorted(s2[i], v2[i], side=how, sorter=None if srt is None else srt.reshape(s2.shape)[i])
    return wrap(o2.reshape(vals.shape))


@op("bucketize")
def bucketize(input, boundaries, *, out_int32=False, right=False, out=None):
    """Bucket index of each element of ``input`` for the 1-D ``boundaries`` (PyTorch's ``right`` convention)."""
    if boundaries._value.ndim != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({boundaries._value.ndim})")
    return searchsorted(boundaries, input, out_int32=out_int32, right=right)


@op("trapezoid", "trapz", method=False)
def trapezoid(y, x=None, *, dx=None, dim=-1):
    """The trapezoidal rule along ``dim``: with sample points ``x`` (a tensor) or spacing ``dx`` (default 1)."""
    if isinstance(x, (int, float)) and dx is None:  # trapz(y, dx) positional spelling
        x, dx = None, x
    yf = float_input(y)
    if yf._value.ndim == 0:
        raise IndexError("Dimension out of range (expected to be in range of [-1, 0], but got -1)")
    d = _dim(dim, yf._value.ndim)
    n = yf._value.shape[d]
    if n == 0:
        return FUNCS["sum"](yf, d)
    pair = FUNCS["add"](_along(yf, d, 1, n), _along(yf, d, 0, n - 1))
    if x is not None:
        x = as_t(x)
        xd = diff(x, dim=dim if x._value.ndim == yf._value.ndim else -1)
        if xd._value.ndim == 1 and yf._value.ndim > 1:
            xd = xd.reshape((-1,) + (1,) * (yf._value.ndim - d - 1))
        return name_grad(FUNCS["sum"](FUNCS["mul"](pair, xd), d) / 2, "TrapezoidBackward0")
    step = 1.0 if dx is None else dx
    return FUNCS["mul"](FUNCS["sum"](pair, d), step / 2)


@op("aminmax")
def aminmax(input, *, dim=None, keepdim=False):
    """(min, max) over all elements or along ``dim`` (differentiable as amin/amax)."""
    if input._value.size == 0 and dim is None:
        raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the operation has no "
                           "identity.")
    axes = dim if dim is not None else tuple(range(input._value.ndim))
    if input._value.ndim == 0:
        return _vi_minmax()(input.clone(), input.clone())
    return _vi_minmax()(amin_(input, axes, keepdim), amax_(input, axes, keepdim))


def _vi_minmax():
    from .ops_reduce import _values_indices, _rt_repr  # noqa: PLC0415
    from collections import namedtuple  # noqa: PLC0415

    if "aminmax" not in _values_indices:
        base = namedtuple("aminmax", ["min", "max"])
        _values_indices["aminmax"] = type("aminmax", (base,), {"__slots__": (), "__repr__": _rt_repr})
    return _values_indices["aminmax"]


@op("bernoulli")
def bernoulli(input, p=None, *, generator=None, out=None):
    """0/1 draws: probability ``input`` (element-wise) or ``p`` (a float) for each element; zero gradient."""
    from .creation import _rng  # noqa: PLC0415

    buf = input._value
    if kind_of(buf.dtype) not in "fc":
        raise NotImplementedError(f'"bernoulli_tensor_cpu_p_" not implemented for \'{input.dtype.legacy_name}\'')
    prob = buf if p is None else p
    if p is None:
        xp = xp_of(buf)
        if buf.size and bool(xp.any((buf < 0) | (buf > 1) | xp.isnan(buf))):
            raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.")
    elif not 0 <= float(p) <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p}")
    u = like(_rng(generator).random(buf.shape), buf)
    draws = wrap((u < prob).astype(buf.dtype))
    if input.requires_grad and p is None:
        # PyTorch's BernoulliBackward0: the output belongs to the graph with a zero gradient
        never = wrap(xp_of(buf).zeros(buf.shape, np.bool_))
        return name_grad(FUNCS["where"](never, input, draws), "BernoulliBackward0")
    return draws


def bernoulli_(self, p=0.5, *, generator=None):
    """Fill self with 0/1 draws of probability ``p`` (a float or a tensor broadcast to self)."""
    from .inplace import inplace  # noqa: PLC0415

    if isinstance(p, Tensor):
        prob = cast(p, self._value.dtype) if kind_of(self._value.dtype) in "fc" else p
        probs = prob.expand(*self.shape) if tuple(prob.shape) != tuple(self.shape) else prob
        new = bernoulli(float_input(probs.detach()), generator=generator)
    else:
        ref = float_input(self.detach())
        new = bernoulli(ref, float(p), generator=generator)
    return inplace(self, lambda s, v: cast(v.detach(), s._value.dtype), new, name=None)


def _pdist(diff_, p):
    """(sum |d|^p)^(1/p) over the last dim with a zero gradient where the distance is 0 (PyTorch's cdist)."""
    where = FUNCS["where"]
    a = FUNCS["abs"](diff_)
    if p == 0:
        return FUNCS["sum"](cast(FUNCS["ne"](a, 0), a._value.dtype), -1)
    if p == float("inf"):
        return amax_(a, -1, False)
    if p == 1:
        return FUNCS["sum"](a, -1)
    s = FUNCS["sum"](FUNCS["pow"](a, float(p)) if p != 2 else FUNCS["mul"](a, a), -1)
    pos = FUNCS["gt"](s, 0)
    safe = where(pos, s, 1.0)
    return where(pos, FUNCS["pow"](safe, 1.0 / p) if p != 2 else FUNCS["sqrt"](safe), 0.0)


@op("cdist", method=False)
def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """Batched p-norm distances between the rows of x1 (..., P, M) and x2 (..., R, M) -> (..., P, R)."""
    if x1._value.ndim < 2 or x2._value.ndim < 2:
        raise RuntimeError(f"cdist only supports at least 2D tensors, X1 got: {x1._value.ndim}D")
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: {x1.shape[-1]} X2: {x2.shape[-1]}")
    if p < 0:
        raise RuntimeError(f"cdist only supports non-negative p values, got {p}")
    if kind_of(x1._value.dtype) not in "fc" or kind_of(x2._value.dtype) not in "fc":
        raise RuntimeError(f"cdist only supports floating-point dtypes, X1 got: {x1.dtype}")
    d = FUNCS["sub"](x1.unsqueeze(-2), x2.unsqueeze(-3))
    return name_grad(_pdist(d, p), "CdistBackward0")


METHODS["bernoulli_"] = bernoulli_
