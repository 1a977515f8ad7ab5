"""torch.finfo/iinfo and extra element-wise math: nansum, nanmean, logit, sgn, sinc, isin, isneginf,
isposinf, isreal, signbit, positive, logaddexp2, float_power, fmax, fmin, heaviside, i0, polygamma,
mvlgamma, gcd, lcm, ldexp, frexp, nextafter, renorm, is_nonzero.

Thin wrappers over funcgrad.numpy / funcgrad.scipy.special (which accept Tensors, so gradients
come from the core's rules) with PyTorch's dtype rules applied first.  Quantiles, cov, corrcoef
and histogram are in ops_stats.py.
"""

from __future__ import annotations

import math
from collections import namedtuple

import ml_dtypes
import numpy as np

from .. import numpy as fnp
from ..backend import kind_of
from ..scipy import special as ss
from . import dtypes
from ._dispatch import FUNCS, METHODS, as_t, cast, float_input, name_grad, op, promote
from .device import like, xp_of
from .ops_reduce import _rt_repr
from .tensor import Tensor, _dim, wrap

__all__ = ["finfo", "iinfo"]


def _info_dtype(type):  # noqa: A002
    return (dtypes.get_default_dtype() if type is None else dtypes.as_dtype(type)).dtype


class finfo:  # noqa: N801  (PyTorch's name)
    """Machine limits of a floating (or complex: of its real part) dtype, as ``torch.finfo``."""

    def __init__(self, type=None):  # noqa: A002
        npd = _info_dtype(type)
        if kind_of(npd) not in "fc":
            raise TypeError("torch.finfo() requires a floating point input type. Use torch.iinfo to handle "
                            "'torch.finfo'")
        info = ml_dtypes.finfo(npd)  # numpy's finfo, extended to bfloat16 and float8
        self.bits = int(info.bits)
        self.eps = float(info.eps)
        self.max = float(info.max)
        self.min = float(info.min)
        self.tiny = self.smallest_normal = float(info.smallest_normal)
        self.resolution = float(10.0 ** -math.floor(-math.log10(float(info.eps))))  # 1 for float8, as PyTorch's
        self.dtype = str(info.dtype)

    def __repr__(self):
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, eps={self.eps:g}, "
                f"smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, dtype={self.dtype})")


class iinfo:  # noqa: N801
    """Limits of an integer dtype, as ``torch.iinfo``."""

    def __init__(self, type):  # noqa: A002
        npd = _info_dtype(type)
        if npd.kind == "b":
            raise TypeError("torch.bool is not supported by torch.iinfo")
        if npd.kind not in "iu":
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to handle 'torch.iinfo'")
        info = np.iinfo(npd)
        self.bits, self.max, self.min, self.dtype = int(info.bits), int(info.max), int(info.min), str(npd)

    def __repr__(self):
        return f"iinfo(min={float(self.min):g}, max={float(self.max):g}, dtype={self.dtype})"


FUNCS["finfo"], FUNCS["iinfo"] = finfo, iinfo


def _kind_name(npd):
    """PyTorch's scalar-type name (Float, Double, Long, ...)."""
    return dtypes.from_numpy_dtype(npd).legacy[:-len("Tensor")]


def _float_only(x, name):
    if kind_of(x._value.dtype) not in "fc":
        raise RuntimeError(f"{name}(): expected input to have floating point or complex dtype but got "
                           f"{_kind_name(x._value.dtype)}")


def _scalar_dim(x, dim, keepdim):
    """A 0-d tensor reduced over dim 0 / -1 (checked) is itself (as PyTorch)."""
    if x._value.ndim == 0 and dim is not None:
        for d in (dim if isinstance(dim, (list, tuple)) else (dim,)):
            _dim(d, 1)
        return None, False
    return dim, keepdim


@op("nansum")
def nansum(input, dim=None, keepdim=False, *, dtype=None):
    x = as_t(input)
    dim, keepdim = _scalar_dim(x, dim, keepdim)
    if dtype is not None:
        x = cast(x, dtypes.as_dtype(dtype).dtype)
    if kind_of(x._value.dtype) in "fc":
        x = FUNCS["where"](FUNCS["isnan"](x), 0, x)
    return name_grad(FUNCS["sum"](x, dim, keepdim), "NansumBackward0")


@op("nanmean")
def nanmean(input, dim=None, keepdim=False, *, dtype=None):
    x = as_t(input) if dtype is None else cast(as_t(input), dtypes.as_dtype(dtype).dtype)
    _float_only(x, "nanmean")
    dim, keepdim = _scalar_dim(x, dim, keepdim)
    count = FUNCS["sum"](FUNCS["logical_not"](FUNCS["isnan"](x)), dim, keepdim)
    return FUNCS["div"](nansum(x, dim, keepdim), count)


@op("logit")
def logit(input, eps=None):
    x = float_input(as_t(input))
    if eps is None:
        return name_grad(ss.logit(x), "LogitBackward0")
    x = FUNCS["clamp"](x, float(eps), 1.0 - float(eps))
    return name_grad(FUNCS["log"](FUNCS["div"](x, FUNCS["sub"](1.0, x))), "LogitBackward0")


@op("sgn")
def sgn(input):
    x = as_t(input)
    if x._value.dtype.kind == "b":
        return wrap(x._value.copy())
    if x._value.dtype.kind != "c":
        s = FUNCS["sign"](x)
        return FUNCS["where"](FUNCS["isnan"](s), 0, s) if kind_of(x._value.dtype) == "f" else s  # sgn(nan) = 0
    a = FUNCS["abs"](x)
    zero = FUNCS["eq"](a, 0)
    return name_grad(FUNCS["where"](zero, 0, FUNCS["div"](x, FUNCS["where"](zero, 1.0, a))), "SgnBackward0")


@op("sinc")
def sinc(input):
    return name_grad(fnp.sinc(float_input(as_t(input))), "SincBackward0")


@op("i0")
def i0(input):
    return name_grad(ss.i0(float_input(as_t(input))), "I0Backward0")


@op("polygamma", method=False)
def polygamma(n, input):
    if int(n) != n or n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    return name_grad(ss.polygamma(int(n), float_input(as_t(input))), "PolygammaBackward0")


def _polygamma_method(self, n):
    return polygamma(n, self)


METHODS["polygamma"] = _polygamma_method


@op("mvlgamma")
def mvlgamma(input, p):
    """sum_{i<p} lgamma(x - i/2) + p(p-1)/4 log(pi) (no domain check: PyTorch gives inf/nan there)."""
    x = as_t(input)
    if x._value.dtype.kind == "b":
        raise RuntimeError("The input tensor may not be a boolean tensor.")
    if int(p) < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    x, p = float_input(x), int(p)
    r = FUNCS["lgamma"](x)
    for i in range(1, p):
        r = FUNCS["add"](r, FUNCS["lgamma"](FUNCS["sub"](x, i / 2)))
    return name_grad(FUNCS["add"](r, p * (p - 1) / 4 * math.log(math.pi)), "MvlgammaBackward0")


def _bool_fn(name, fn):
    def f(input):
        x = as_t(input)
        if not isinstance(x, Tensor):
            raise TypeError(f"{name}(): argument 'input' must be Tensor, not {type(input).__name__}")
        return wrap(fn(xp_of(x._value), x._value))
    f.__name__ = name
    op(name)(f)
    return f


def _real_only(name, fn):
    def g(xp, v):
        if v.dtype.kind == "c":
            raise RuntimeError(f"{name} is not implemented for complex tensors.")
        return fn(xp, v)
    return g


isneginf = _bool_fn("isneginf", _real_only("isneginf", lambda xp, v: xp.isneginf(v) if kind_of(v.dtype) == "f"
                                           else xp.zeros(v.shape, bool)))
isposinf = _bool_fn("isposinf", _real_only("isposinf", lambda xp, v: xp.isposinf(v) if kind_of(v.dtype) == "f"
                                           else xp.zeros(v.shape, bool)))
isreal = _bool_fn("isreal", lambda xp, v: v.imag == 0 if v.dtype.kind == "c" else xp.ones(v.shape, bool))
signbit = _bool_fn("signbit", _real_only("signbit", lambda xp, v: xp.signbit(v) if v.dtype.kind != "b"
                                         else xp.zeros(v.shape, bool)))


@op("isin", method=False)
def isin(elements, test_elements, *, assume_unique=False, invert=False):
    if not isinstance(elements, Tensor) and not isinstance(test_elements, Tensor):
        raise TypeError("isin() expected at least one of 'elements' and 'test_elements' to be a Tensor")
    ref = elements if isinstance(elements, Tensor) else test_elements
    for v in (elements, test_elements):
        if isinstance(v, Tensor) and v._value.dtype.kind in "bc":
            raise RuntimeError(f"Unsupported input type encountered for isin(): {_kind_name(v._value.dtype)}")
    e = elements._value if isinstance(elements, Tensor) else like(np.asarray(elements), ref._value)
    t = test_elements._value if isinstance(test_elements, Tensor) else like(np.asarray(test_elements), ref._value)
    r = xp_of(ref._value).isin(e, t, assume_unique=assume_unique, invert=invert)
    return wrap(r)


@op("positive")
def positive(input):
    if input._value.dtype.kind == "b":
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return input


@op("is_nonzero")
def is_nonzero(input):
    n = input._value.size
    if n == 0:
        raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
    if n > 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    return bool(input._value.reshape(()) != 0)


def _kernel_name(name, npd):
    return f'"{name}_cpu" not implemented for \'{_kind_name(npd)}\''


def _tensors(name, input, other, other_name="other"):
    """PyTorch's Tensor-only binary ops: a number argument is a TypeError."""
    for pos, (arg, v) in enumerate((("input", input), (other_name, other)), 1):
        if not isinstance(v, Tensor):
            raise TypeError(f"{name}(): argument '{arg}' (position {pos}) must be Tensor, not {type(v).__name__}")


def _binary_float(name, fn, grad_name, ints_ok=False):
    """A binary op that PyTorch only defines for floats (or, ``ints_ok``, also computes on ints)."""
    def f(input, other, *, out=None):
        _tensors(name, input, other)
        (a, b), npd = promote(input, other)
        if npd.kind in "biu" and not ints_ok:
            raise NotImplementedError(_kernel_name(name, npd))
        return name_grad(fn(a, b), grad_name)
    f.__name__ = name
    op(name)(f)
    return f


logaddexp2 = _binary_float("logaddexp2", fnp.logaddexp2, "Logaddexp2Backward0")
fmax = _binary_float("fmax", fnp.fmax, "FmaxBackward0", ints_ok=True)
fmin = _binary_float("fmin", fnp.fmin, "FminBackward0", ints_ok=True)
nextafter = _binary_float("nextafter", lambda a, b: wrap(xp_of(a._value).nextafter(a._value, b._value if isinstance(
    b, Tensor) else b)), "NextafterBackward0")


@op("heaviside")
def heaviside(input, values):
    _tensors("heaviside", input, values, "values")
    if input._value.dtype != values._value.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")
    if input._value.dtype.kind == "c":
        raise RuntimeError("heaviside is not yet implemented for complex tensors.")
    v = input._value
    xp = xp_of(v)
    r = xp.where(v == 0, values._value, v > 0)  # NaN input -> 0, as PyTorch
    return wrap(xp.asarray(r).astype(v.dtype, copy=False))


@op("float_power")
def float_power(input, exponent):
    cplx = any(v._value.dtype.kind == "c" if isinstance(v, Tensor) else isinstance(v, complex) for v in (input, exponent))
    npd = np.dtype(np.complex128 if cplx else np.float64)
    a = cast(as_t(input), npd) if isinstance(input, Tensor) else input
    b = cast(as_t(exponent), npd) if isinstance(exponent, Tensor) else exponent
    if not isinstance(a, Tensor):
        from .creation import tensor  # noqa: PLC0415

        a = tensor(a, dtype=dtypes.from_numpy_dtype(npd), device=exponent.device)
    return name_grad(FUNCS["pow"](a, b), "PowBackward1" if isinstance(exponent, Tensor) else "PowBackward0")


def _int_binary(name, fn):
    def f(input, other):
        _tensors(name, input, other)
        (a, b), npd = promote(input, other)
        if npd.kind not in "iu":
            raise NotImplementedError(_kernel_name(name, npd))
        av = a._value if isinstance(a, Tensor) else a
        bv = b._value if isinstance(b, Tensor) else b
        xp = xp_of(av if isinstance(a, Tensor) else bv)
        return wrap(xp.asarray(fn(xp, av, bv)).astype(npd, copy=False))
    f.__name__ = name
    op(name)(f)
    return f


gcd = _int_binary("gcd", lambda xp, a, b: xp.gcd(a, b))
lcm = _int_binary("lcm", lambda xp, a, b: xp.lcm(a, b))


@op("ldexp")
def ldexp(input, other):
    """input * 2**other (PyTorch's definition: differentiable in both)."""
    _tensors("ldexp", input, other)
    x = float_input(as_t(input))
    e = as_t(other)
    if isinstance(e, Tensor) and e._value.dtype.kind in "biu":
        e = cast(e, x._value.dtype if isinstance(x, Tensor) else dtypes.get_default_dtype().dtype)
    return FUNCS["mul"](x, FUNCS["pow"](2.0, e))


_frexp_t = namedtuple("frexp", ["mantissa", "exponent"])
_frexp_t = type("frexp", (_frexp_t,), {"__slots__": (), "__repr__": _rt_repr})


@op("frexp")
def frexp(input):
    x = as_t(input)
    if kind_of(x._value.dtype) != "f":
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    _, ex = xp_of(x._value).frexp(x._value)
    ex = ex.astype(np.int32)
    # mantissa = x / 2**exponent: exact, and differentiable in x (as PyTorch's)
    scale = wrap(xp_of(x._value).ldexp(xp_of(x._value).ones_like(x._value), -ex))
    return _frexp_t(name_grad(FUNCS["mul"](x, scale), "FrexpBackward0"), wrap(ex))


@op("renorm")
def renorm(input, p, dim, maxnorm):
    x = as_t(input)
    if kind_of(x._value.dtype) not in "fc":
        raise RuntimeError(f"renorm: expected a floating point or complex tensor as input, got {x.dtype}")
    if p <= 0:
        raise RuntimeError(f"renorm: non-positive-norm not supported, got p={p}")
    if maxnorm < 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {maxnorm}")
    nd = x._value.ndim
    if nd <= 1:
        raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {nd} dimensions")
    d = _dim(dim, nd)
    others = tuple(i for i in range(nd) if i != d)
    norm = _vector_norm(x, p, others)
    factor = FUNCS["where"](FUNCS["gt"](norm, maxnorm), FUNCS["div"](float(maxnorm), FUNCS["add"](norm, 1e-7)), 1.0)
    return name_grad(FUNCS["mul"](x, factor), "RenormBackward0")


def _vector_norm(x, p, dims):
    from .linalg import vector_norm  # noqa: PLC0415

    return vector_norm(x, p, dim=dims, keepdim=True)
