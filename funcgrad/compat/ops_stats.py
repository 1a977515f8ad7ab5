"""torch.quantile/nanquantile/nanmedian/cov/corrcoef/histogram.

Quantiles sort along the dim (compat sort: differentiable) and gather the two
neighbouring order statistics, so the gradient goes to them with the
interpolation weights, as PyTorch's.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ..backend import kind_of
from . import dtypes
from ._dispatch import FUNCS, as_t, cast, name_grad, op
from .device import like, xp_of
from .ops_math_extra import _kind_name
from .ops_reduce import _rt_repr, _select_reduce, _take
from .tensor import Tensor, _dim, wrap

_MODES = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile(input, q, dim, keepdim, interpolation, ignore_nan):
    name = "quantile"  # PyTorch's messages say quantile() for nanquantile too
    x = as_t(input)
    if x._value.size == 0:
        raise RuntimeError(f"{name}() input tensor must be non-empty")
    if x._value.dtype not in (np.float32, np.float64):
        raise RuntimeError(f"{name}() input tensor must be either float or double dtype")
    if isinstance(q, Tensor):
        if q._value.dtype != x._value.dtype:
            raise RuntimeError(f"{name}() q tensor must be same dtype as the input tensor")
        if q._value.ndim > 1:
            raise RuntimeError(f"{name}() q must be a scalar or 1D tensor")
        qv = np.asarray(q.detach().cpu().numpy(), np.float64)
    else:
        qv = np.asarray(float(q), np.float64)
    if ((qv < 0) | (qv > 1)).any():
        bad = qv[(qv < 0) | (qv > 1)][0]
        raise RuntimeError(f"{name}() q must be in the range [0, 1] but got {bad:g}" if qv.ndim == 0 else
                           f"{name}() q values must be in the range [0, 1]")
    if interpolation not in _MODES:
        raise RuntimeError(f"{name}() interpolation must be one of linear, lower, higher, midpoint or nearest, "
                           f"but got {interpolation}")
    nd0 = x._value.ndim
    if dim is None:
        x = x.reshape(-1)
        d = 0
    else:
        d = _dim(dim, max(nd0, 1))
        if nd0 == 0:
            x = x.reshape(1)
    xs = FUNCS["sort"](x, d).values.movedim(d, -1)  # NaNs sort last
    vals = xs._value
    xp = xp_of(vals)
    n = vals.shape[-1]
    nans = xp.isnan(vals)
    cnt = (n - nans.sum(-1, keepdims=True)) if ignore_nan else xp.full(vals.shape[:-1] + (1,), n)
    pos = like(qv.reshape(-1), vals) * (cnt - 1)  # (..., Q)
    last = (cnt == 0) if ignore_nan else nans.any(-1, keepdims=True)
    pos = xp.where(last, n - 1, pos)  # a NaN result: the last sorted value is NaN
    if interpolation == "nearest":
        pos = xp.round(pos)
    lo = xp.floor(pos).astype(np.int64)
    hi = xp.ceil(pos).astype(np.int64)
    nd = vals.ndim
    if interpolation == "lower":
        r = _take(xs, lo, nd - 1)
    elif interpolation in ("higher", "nearest"):
        r = _take(xs, hi if interpolation == "higher" else lo, nd - 1)
    else:
        v_lo, v_hi = _take(xs, lo, nd - 1), _take(xs, hi, nd - 1)
        w = xp.where(hi > lo, 0.5, 0.0) if interpolation == "midpoint" else pos - lo
        w = wrap(w.astype(vals.dtype))
        r = FUNCS["add"](v_lo, FUNCS["mul"](w, FUNCS["sub"](v_hi, v_lo)))
    r = r.movedim(-1, 0)  # (Q, ...)
    if keepdim and nd0:
        r = r.unsqueeze(d + 1) if dim is not None else r.reshape((r.shape[0],) + (1,) * nd0)
    if qv.ndim == 0:
        r = r.squeeze(0)
    return name_grad(r, "QuantileBackward0" if not ignore_nan else "NanquantileBackward0")


@op("quantile")
def quantile(input, q, dim=None, keepdim=False, *, interpolation="linear", out=None):
    return _quantile(input, q, dim, keepdim, interpolation, False)


@op("nanquantile")
def nanquantile(input, q, dim=None, keepdim=False, *, interpolation="linear", out=None):
    return _quantile(input, q, dim, keepdim, interpolation, True)


def _nan_lower_median(b, d):
    xp = xp_of(b)
    order = xp.argsort(b, axis=d, kind="stable")
    cnt = b.shape[d] - xp.isnan(b).sum(d, keepdims=True)
    k = xp.maximum((cnt - 1) // 2, 0)
    return xp.take_along_axis(order, k, d)


@op("nanmedian")
def nanmedian(input, dim=None, keepdim=False):
    """The lower median of the non-NaN values (NaN where a slice is all NaN), as PyTorch."""
    if input._value.dtype.kind == "b":
        raise NotImplementedError("\"median_cpu\" not implemented for 'Bool'")
    if dim is None:
        flat = input.reshape(-1)
        if flat._value.size == 0:
            return wrap(xp_of(input._value).full((), np.nan, input._value.dtype))
        return name_grad(_select_reduce("nanmedian", flat, 0, False, _nan_lower_median).values, "NanmedianBackward0")
    return _select_reduce("nanmedian", input, dim, keepdim, _nan_lower_median)


def _weights(w, name, kinds, kind_name, nobs):
    """cov's ``fweights``/``aweights``, checked as PyTorch checks them."""
    if w is None:
        return None
    v = w._value
    if v.dtype.kind not in kinds:
        raise RuntimeError(f"cov(): expected {name} to have {kind_name} dtype but got {name} with "
                           f"{_kind_name(v.dtype)} dtype")
    if v.ndim > 1 or v.size != nobs:
        raise RuntimeError(f"cov(): expected {name} to have one dimension and {nobs} elements")
    if bool((v < 0).any()):
        raise RuntimeError(f"cov(): {name} cannot be negative")
    return w


@op("cov")
def cov(input, *, correction=1, fweights=None, aweights=None):
    x = as_t(input)
    if x._value.ndim > 2:
        raise RuntimeError(f"cov(): expected input to have two or fewer dimensions but got an input with "
                         f"{x._value.ndim} dimensions")
    if x._value.dtype.kind in "biu":
        x = cast(x, dtypes.get_default_dtype().dtype)
    if x._value.ndim < 2:
        x = x.reshape(1, -1)
    nobs = x._value.shape[1]
    w = _weights(fweights, "fweights", "iu", "integral", nobs)
    aw = _weights(aweights, "aweights", "f", "floating point", nobs)
    if aw is not None:
        w = aw if w is None else FUNCS["mul"](w, aw)
    sub, mul, div, sum_ = (FUNCS[k] for k in ("sub", "mul", "div", "sum"))
    if w is None:
        w_sum = float(nobs)
        avg = FUNCS["mean"](x, 1, True)
        norm = w_sum - correction
    else:
        w = cast(w, x._value.dtype)
        w_sum = sum_(w)
        avg = div(sum_(mul(x, w), 1, True), w_sum)
        norm = sub(w_sum, div(mul(sum_(mul(w, aweights)), correction), w_sum)) if (
            aweights is not None and correction) else sub(w_sum, correction)
    if isinstance(norm, Tensor):
        norm = FUNCS["where"](FUNCS["le"](norm, 0), 0.0, norm)
    else:
        norm = float(max(norm, 0))  # <= 0: inf/nan results, as PyTorch
    xm = sub(x, avg)
    xw = xm if w is None else mul(xm, w)
    c = div(FUNCS["matmul"](xw, xm.transpose(0, 1).conj()), norm)
    return name_grad(c.reshape(()) if c._value.size == 1 else c, "CovBackward0")  # squeezed, as PyTorch


@op("corrcoef")
def corrcoef(input):
    c = cov(input)
    if c._value.ndim == 0:
        return FUNCS["div"](c, c)
    sd = FUNCS["sqrt"](FUNCS["diagonal"](c).real if c._value.dtype.kind == "c" else FUNCS["diagonal"](c))
    c = FUNCS["div"](FUNCS["div"](c, sd.unsqueeze(1)), sd.unsqueeze(0))
    if c._value.dtype.kind == "c":
        return c
    return FUNCS["clamp"](c, -1, 1)


_hist_t = namedtuple("histogram", ["hist", "bin_edges"])
_hist_t = type("histogram", (_hist_t,), {"__slots__": (), "__repr__": _rt_repr})


@op("histogram")
def histogram(input, bins=100, *, range=None, weight=None, density=False, out=None):  # noqa: A002
    """Counts (or weighted sums / densities) of ``input`` in ``bins``: not differentiable, as PyTorch."""
    x = as_t(input)
    npd = x._value.dtype
    if kind_of(npd) != "f":
        raise NotImplementedError(f"\"histogramdd\" not implemented for '{_kind_name(npd)}'")
    v = x._value
    xp = xp_of(v)
    b = bins._value if isinstance(bins, Tensor) else int(bins)
    if isinstance(b, int) and b <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {b} for dimension 0")
    wv = None
    if weight is not None:
        if weight.shape != x.shape:
            raise RuntimeError(f"torch.histogram(): if weight tensor is provided it should have the same shape as "
                               f"the input tensor; got {tuple(weight.shape)} and {tuple(x.shape)}")
        wv = weight._value.reshape(-1)
    if range is not None and range[0] > range[1]:
        raise RuntimeError(f"torch.histogram(): min should not exceed max, but got min {range[0]} max {range[1]}")
    if range is None and v.size:
        lo, hi = float(v.min()), float(v.max())
        if not (np.isfinite(lo) and np.isfinite(hi)):
            raise RuntimeError(f"torch.histogramdd: dimension 0's range [{lo:g}, {hi:g}] is not finite")
    h, edges = xp.histogram(v.reshape(-1), bins=b, range=range, weights=wv, density=bool(density))
    return _hist_t(wrap(h.astype(npd)), wrap(edges.astype(npd)))
