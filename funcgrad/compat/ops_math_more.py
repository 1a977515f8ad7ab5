"""More element-wise math: copysign, bitwise shifts, igamma/igammac, rsub, fill, cumulative_trapezoid.

Thin wrappers over funcgrad.numpy and the compat ops (gradients come from the core's
rules) with PyTorch's dtype rules applied first.
"""

from __future__ import annotations

from ..backend import kind_of
from .. import numpy as fnp
from ._dispatch import FUNCS, as_t, float_input, name_grad, op, promote
from .device import xp_of
from .ops_math_extra import _kernel_name
from .tensor import Tensor, _dim, wrap

__all__ = ["copysign", "bitwise_left_shift", "bitwise_right_shift", "igamma", "igammac", "rsub", "fill",
           "cumulative_trapezoid"]


@op("copysign")
def copysign(input, other, *, out=None):
    """|input| with other's sign (of -0.0 too); integer and bool results are in the default float dtype."""
    if not isinstance(input, Tensor):
        raise TypeError(f"copysign(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    (a, b), npd = promote(as_t(input), as_t(other))
    if npd.kind in "biu":
        a, b = (float_input(v) if isinstance(v, Tensor) else float(v) for v in (a, b))
    if not isinstance(a, Tensor):
        a = _full_like(b, a)
    return name_grad(fnp.copysign(a, b), "CopysignBackward0")


def _shift(name, left):
    def f(input, other, *, out=None):
        if not isinstance(input, Tensor) and not isinstance(other, Tensor):
            raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
        (a, b), npd = promote(as_t(input), as_t(other))
        if npd.kind not in "iu":
            raise NotImplementedError(_kernel_name("lshift" if left else "rshift", npd))
        ref = a if isinstance(a, Tensor) else b
        xp = xp_of(ref._value)
        av = a._value if isinstance(a, Tensor) else npd.type(a)
        bv = b._value if isinstance(b, Tensor) else npd.type(b)
        return wrap(xp.asarray((xp.left_shift if left else xp.right_shift)(av, bv)).astype(npd, copy=False))
    f.__name__ = name
    return op(name)(f)


bitwise_left_shift = _shift("bitwise_left_shift", True)
bitwise_right_shift = _shift("bitwise_right_shift", False)


@op("igamma")
def igamma(input, other, *, out=None):
    """The regularized lower incomplete gamma function P(input, other) (torch.special.gammainc)."""
    from .special import gammainc  # noqa: PLC0415

    return gammainc(input, other)


@op("igammac")
def igammac(input, other, *, out=None):
    """The regularized upper incomplete gamma function Q(input, other) (torch.special.gammaincc)."""
    from .special import gammaincc  # noqa: PLC0415

    return gammaincc(input, other)


@op("rsub")
def rsub(input, other, *, alpha=1):
    """other - alpha * input."""
    return FUNCS["sub"](other, input, alpha=alpha) if isinstance(other, Tensor) else \
        FUNCS["add"](FUNCS["mul"](input, -alpha), other)


@op("fill", method=False)
def fill(input, value):
    """A new tensor of input's shape and dtype, every element ``value`` (differentiable in a tensor value)."""
    if isinstance(value, Tensor):
        if value.dim() != 0:
            raise RuntimeError(f"fill only supports 0-dimension value tensor but got tensor with {value.dim()} "
                               "dimensions.")
        return value.to(input.dtype).expand(tuple(input.shape)).clone()
    return _full_like(input, value)


@op("cumulative_trapezoid", method=False)
def cumulative_trapezoid(y, x=None, *, dx=None, dim=-1):
    """Cumulative trapezoidal rule along ``dim``: one fewer element than y there."""
    y = float_input(as_t(y))
    d = _dim(dim, y.dim())
    n = y.shape[d]
    lo, hi = FUNCS["narrow"](y, d, 0, max(n - 1, 0)), FUNCS["narrow"](y, d, min(1, n), max(n - 1, 0))
    avg = FUNCS["mul"](FUNCS["add"](lo, hi), 0.5)
    if x is not None:
        x = as_t(x)
        if x.dim() == 1:
            shape = [1] * y.dim()
            shape[d] = x.shape[0]
            x = x.reshape(shape)
        xd = _dim(dim, x.dim())
        step = FUNCS["diff"](x, dim=xd)
    else:
        step = 1.0 if dx is None else dx
    return FUNCS["cumsum"](FUNCS["mul"](avg, step), d)


def _full_like(t, v):
    from .creation import full_like  # noqa: PLC0415

    return full_like(t, v)


_HISTDD = None


@op("histogramdd", method=False)
def histogramdd(input, bins=10, *, range=None, weight=None, density=False, out=None):  # noqa: A002
    """(hist, bin_edges) of the rows of (..., D) input (numpy.histogramdd; not differentiable)."""
    global _HISTDD
    from collections import namedtuple  # noqa: PLC0415

    import numpy as np  # noqa: PLC0415

    if _HISTDD is None:
        _HISTDD = namedtuple("histogramdd", ["hist", "bin_edges"])
    x = input.detach().cpu().numpy()
    if kind_of(x.dtype) != "f":
        raise RuntimeError(f"torch.histogramdd: input tensor and bins tensors should have the same dtype, but got "
                           f"input {input.dtype}")
    d = x.shape[-1]
    pts = x.reshape(-1, d)
    if isinstance(bins, Tensor):
        bins = bins.tolist()
    if isinstance(bins, (list, tuple)) and bins and isinstance(bins[0], Tensor):
        bins = [b.detach().cpu().numpy() for b in bins]
    rng = None if range is None else [(range[2 * i], range[2 * i + 1]) for i in _irange(d)]
    w = None if weight is None else weight.detach().cpu().numpy().reshape(-1)
    hist, edges = np.histogramdd(pts, bins=bins, range=rng, weights=w, density=density)
    from .creation import tensor  # noqa: PLC0415

    return _HISTDD(tensor(hist.astype(x.dtype)), [tensor(e.astype(x.dtype)) for e in edges])


def _irange(n):
    import builtins  # noqa: PLC0415

    return builtins.range(n)
