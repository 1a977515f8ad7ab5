"""Element-wise ops, comparisons and operators (PyTorch promotion before binding)."""

from __future__ import annotations

import numpy as np

from .. import scipy as _fg_scipy  # noqa: F401  (registers the special-function primitives)
from ..backend import kind_of
from ..core import REGISTRY, Array, bind
from ..primitives import elementwise as ew
from . import _validate as check
from . import dtypes
from ._dispatch import (
    FUNCS,
    METHODS,
    apply,
    as_t,
    cast,
    float_input,
    name_grad,
    op,
    promote,
    tensor_arg,
    write_out,
)
from .device import check_same, like, xp_of
from .dtypes import buf_of
from .tensor import Tensor, wrap

_new = object.__new__
_P = {name: getattr(ew, name + "_p") for name in (
    "add", "subtract", "multiply", "divide", "power", "negative", "sqrt", "exp", "log", "sin", "cos",
    "tanh", "absolute", "square", "sign", "log1p", "expm1", "maximum", "minimum", "logaddexp", "where")}
_CMP = {n: ew.__dict__[n] for n in ("less", "less_equal", "greater", "greater_equal", "equal", "not_equal",
                                    "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or",
                                    "bitwise_xor")}


def _binary(prim, name, floats=False):
    """PyTorch's binary op: a fast path for same-dtype tensors and float scalars (numpy kind 'f': bfloat16,
    kind 'V' in numpy, takes the general path)."""
    def f(input, other, *, out=None):
        ti, to = type(input), type(other)
        if ti is Tensor:
            if to is float and buf_of(input).dtype.kind == "f":
                return bind(prim, input, other)
            if to is Tensor and input._value.dtype is other._value.dtype and input._value.ndim and other._value.ndim:
                return bind(prim, input, other)
        (a, b), npd = promote(as_t(input), as_t(other))
        return _finish(apply(prim, a, b), npd)
    f.__name__ = name
    return f


def _finish(r, npd):
    if dtypes.buf_of(r).dtype != npd:  # numpy's rule gave another dtype (python scalars): PyTorch's wins
        r = cast(r, npd)
    return r


add_ = _binary(_P["add"], "add")
sub_ = _binary(_P["subtract"], "sub")
mul_ = _binary(_P["multiply"], "mul")


@op("add")
def add(input, other, *, alpha=1, out=None):
    if alpha != 1:
        other = mul_(as_t(other), alpha)
    return add_(input, other)


@op("sub", "subtract")
def sub(input, other, *, alpha=1, out=None):
    if alpha != 1:
        other = mul_(as_t(other), alpha)
    return sub_(input, other)


op("mul", "multiply")(mul_)


@op("div", "divide", "true_divide")
def div(input, other, *, rounding_mode=None, out=None):
    input, other = as_t(input), as_t(other)
    npd = dtypes.result_np(input, other)
    if rounding_mode is None:
        if npd.kind in "biu":
            npd = dtypes.get_default_dtype().dtype
        a, b = cast(input, npd), cast(other, npd)
        if type(b) is int:
            b = float(b)
        return _finish(apply(_P["divide"], a, b), npd)
    from .ops_rounding import floor_divide, trunc  # noqa: PLC0415

    if rounding_mode == "floor":
        return floor_divide(input, other)
    if rounding_mode == "trunc":
        if npd.kind in "biu":
            from .ops_rounding import _int_zero_check  # noqa: PLC0415

            _int_zero_check(npd, other)
            return cast(trunc(div(input, other)), npd)
        return trunc(div(input, other))
    raise RuntimeError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{rounding_mode}'")


@op("pow")
def pow(input, exponent, *, out=None):  # noqa: A001
    if type(input) is Tensor and type(exponent) in (int, float) and input._value.dtype.kind == "f":
        if exponent == 2:
            return name_grad(bind(_P["square"], input), "PowBackward0")
        return bind(_P["power"], input, exponent)
    (a, b), npd = promote(as_t(input), as_t(exponent))
    if npd.kind in "iu" and isinstance(b, Tensor) and bool((b._value < 0).any()):
        return _int_pow_negative(a, b, npd)
    if npd.kind in "iu" and not isinstance(b, Tensor) and b < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    r = _finish(apply(_P["power"], a, b), npd)
    return name_grad(r, "PowBackward1" if isinstance(exponent, Tensor) and exponent.requires_grad else "PowBackward0")


def _int_pow_negative(a, b, npd):
    """Integer powers with negative tensor exponents, as PyTorch computes them: 1 and -1 keep their
    magnitude (-1 to an odd power is -1), every other base gives 0 (no gradient: integers)."""
    bv = b._value
    xp = xp_of(bv)
    av = a._value if isinstance(a, Tensor) else xp.asarray(a, npd)
    neg = bv < 0
    one = xp.where(av == -1, xp.where(bv % 2 == 0, 1, -1), xp.where(av == 1, 1, 0))
    return wrap(xp.where(neg, one, xp.power(av, xp.where(neg, 0, bv))).astype(npd))


def _unary(prim_name, torch_name, floats=True):
    prim = _P[prim_name]

    def f(input, *, out=None):
        if out is None and type(input) is Tensor and (not floats or input._value.dtype.kind == "f"):
            return bind(prim, input)
        x = tensor_arg(input, torch_name)
        r = apply(prim, float_input(x) if floats else x)
        return r if out is None else write_out(out, r, torch_name)
    f.__name__ = torch_name
    f.writes_out = True  # the fast path above: _out.install leaves it as it is
    return f


for _n, _t in (("exp", "exp"), ("log", "log"), ("sin", "sin"), ("cos", "cos"), ("tanh", "tanh"),
               ("sqrt", "sqrt"), ("log1p", "log1p"), ("expm1", "expm1")):
    op(_t)(_unary(_n, _t))
op("neg", "negative")(_unary("negative", "neg", floats=False))
op("abs", "absolute")(_unary("absolute", "abs", floats=False))
op("square")(_unary("square", "square", floats=False))
op("sign")(_unary("sign", "sign", floats=False))
exp, log, sqrt, neg, sin, cos, tanh, abs = (FUNCS[n] for n in ("exp", "log", "sqrt", "neg", "sin", "cos", "tanh", "abs"))  # noqa: A001
mul = mul_


def _composed(name, grad_name, fn):
    def f(input, *, out=None):
        return name_grad(fn(float_input(as_t(input))), grad_name)
    f.__name__ = name
    op(name)(f)
    return f


# unary float functions with their own core primitive (PyTorch name -> primitive name)
_UNARY_PRIMS = {
    "tan": "tan", "asin": "arcsin", "arcsin": "arcsin", "acos": "arccos", "arccos": "arccos",
    "atan": "arctan", "arctan": "arctan", "sinh": "sinh", "cosh": "cosh", "asinh": "arcsinh",
    "arcsinh": "arcsinh", "acosh": "arccosh", "arccosh": "arccosh", "atanh": "arctanh", "arctanh": "arctanh",
    "log2": "log2", "log10": "log10", "exp2": "exp2", "reciprocal": "reciprocal", "deg2rad": "deg2rad",
    "rad2deg": "rad2deg",
}
for _t, _p in _UNARY_PRIMS.items():
    _P[_p] = REGISTRY[_p]
    op(_t)(_unary(_p, _t))
for _t, _p in (("atan2", "arctan2"), ("arctan2", "arctan2"), ("hypot", "hypot")):
    _P[_p] = REGISTRY[_p]
    op(_t)(_binary(REGISTRY[_p], _t))
# special functions: funcgrad.scipy.special's primitives
_SPECIAL_PRIMS = {"sigmoid": "expit", "erf": "erf", "erfc": "erfc", "erfinv": "erfinv", "lgamma": "gammaln",
                  "digamma": "digamma", "logsigmoid": "log_expit"}
for _t, _p in _SPECIAL_PRIMS.items():
    _P[_p] = REGISTRY[_p]
    op(_t)(_unary(_p, _t))
_composed("rsqrt", "RsqrtBackward0", lambda x: div(1.0, sqrt(x)))
sigmoid = FUNCS["sigmoid"]


@op("xlogy")
def xlogy(input, other):
    (a, b), npd = promote(float_input(as_t(input)), as_t(other))
    return _finish(apply(REGISTRY["xlogy"], a, b), npd)


@op("softmax")
def softmax(input, dim, dtype=None):
    dim = check.int_arg(dim, "softmax", "dim", 1)
    x = float_input(as_t(input)) if dtype is None else cast(input, dtypes.as_dtype(dtype).dtype)
    if buf_of(x).size == 0:  # (no max to subtract) an empty result of the input's shape
        check.dim(dim, buf_of(x).ndim, "softmax")
        return exp(x)
    e = exp(sub(x, FUNCS["amax"](x, dim, True).detach()))
    return name_grad(div(e, FUNCS["sum"](e, dim, True)), "SoftmaxBackward0")


@op("log_softmax")
def log_softmax(input, dim, dtype=None):
    dim = check.int_arg(dim, "log_softmax", "dim", 1)
    x = float_input(as_t(input)) if dtype is None else cast(input, dtypes.as_dtype(dtype).dtype)
    return name_grad(sub(x, FUNCS["logsumexp"](x, dim, True)), "LogSoftmaxBackward0")


@op("relu")
def relu(input):
    x = as_t(input)
    return name_grad(where(gt(x, 0), x, 0), "ReluBackward0")


@op("maximum", "max_elementwise")
def maximum(input, other, *, out=None):
    (a, b), npd = promote(as_t(input), as_t(other))
    return apply(_P["maximum"], a, b)


@op("minimum")
def minimum(input, other, *, out=None):
    (a, b), npd = promote(as_t(input), as_t(other))
    return apply(_P["minimum"], a, b)


@op("logaddexp")
def logaddexp(input, other):
    (a, b), npd = promote(float_input(as_t(input)), as_t(other))
    return apply(_P["logaddexp"], a, b)


@op("where")
def where(condition, input=None, other=None):
    if input is None and other is None:
        from .ops_index import nonzero  # noqa: PLC0415

        return nonzero(condition, as_tuple=True)
    (a, b), npd = promote(as_t(input), as_t(other))
    c = as_t(condition)
    if isinstance(c, Tensor) and buf_of(c).dtype != np.bool_:
        if buf_of(c).dtype != np.uint8:
            raise RuntimeError(f"where expected condition to be a boolean tensor, but got a tensor with dtype "
                               f"{check.scalar_name(buf_of(c))}")
        c = wrap(c._value.astype(bool))
    if not isinstance(a, (Tensor, Array)) and not isinstance(b, (Tensor, Array)):  # (funcgrad tracers are Arrays)
        a = wrap(like(np.asarray(a, dtype=npd), c._value) if isinstance(c, Tensor) else np.asarray(a, dtype=npd))
    return _finish(apply(_P["where"], c, a, b), npd)


@op("clamp", "clip")
def clamp(input, min=None, max=None, *, out=None):  # noqa: A002
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    x = as_t(input)
    if min is not None:
        x = where(lt(x, min), min, x)
    if max is not None:
        x = where(gt(x, max), max, x)
    if buf_of(x).dtype != buf_of(input).dtype and not isinstance(min, Tensor) and not isinstance(max, Tensor):
        x = cast(x, dtypes.result_np(input, *(v for v in (min, max) if v is not None)))
    return name_grad(x, "ClampBackward1")


op("clamp_min")(lambda input, min: clamp(input, min=min))
op("clamp_max")(lambda input, max: clamp(input, max=max))


def _compare(name):
    fn = _CMP[name]

    def f(input, other, *, out=None):
        (a, b), npd = promote(as_t(input), as_t(other))
        if bitwise:
            check.integral(npd, name)
        return apply(prim, a, b)
    bitwise = name.startswith("bitwise")
    prim = fn.args[0]  # the primitive behind the bind partial
    f.__name__ = name
    return f


lt = _compare("less")
le = _compare("less_equal")
gt = _compare("greater")
ge = _compare("greater_equal")
eq = _compare("equal")
ne = _compare("not_equal")
for _names, _f in ((("lt", "less"), lt), (("le", "less_equal"), le), (("gt", "greater"), gt),
                   (("ge", "greater_equal"), ge), (("eq",), eq), (("ne", "not_equal"), ne)):
    op(*_names)(_f)
for _n in ("logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor"):
    op(_n)(_compare(_n))


@op("logical_not")
def logical_not(input):
    return wrap(xp_of(input._value).logical_not(input._value))


@op("bitwise_not")
def bitwise_not(input):
    check.integral(buf_of(input).dtype, "bitwise_not")
    return wrap(xp_of(input._value).invert(input._value))


def _invert(self):
    """``~x``: logical not of bool tensors, bitwise not of integer ones; floats are PyTorch's TypeError."""
    if self._value.dtype == np.bool_:
        return logical_not(self)
    if kind_of(self._value.dtype) in "fc":
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
    return bitwise_not(self)


@op("isnan")
def isnan(input):
    return wrap(xp_of(input._value).isnan(input._value))


@op("isinf")
def isinf(input):
    return wrap(xp_of(input._value).isinf(input._value))


@op("isfinite")
def isfinite(input):
    return wrap(xp_of(input._value).isfinite(input._value))


@op("equal")
def equal(input, other):
    check_same(input._value, other._value)
    return input.shape == other.shape and bool(xp_of(input._value).array_equal(input._value, other._value))


@op("allclose")
def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    o = other._value if isinstance(other, Tensor) else other
    if isinstance(other, Tensor):
        check_same(input._value, o)
    return bool(xp_of(input._value).allclose(input._value, o, rtol, atol, equal_nan))


@op("isclose")
def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    o = other._value if isinstance(other, Tensor) else other
    if isinstance(other, Tensor):
        check_same(input._value, o)
    return wrap(xp_of(input._value).isclose(input._value, o, rtol, atol, equal_nan))


@op("lerp")
def lerp(input, end, weight):
    return add(input, mul_(weight, sub(end, input)))


@op("addcmul")
def addcmul(input, tensor1, tensor2, *, value=1):
    return add(input, mul_(mul_(tensor1, tensor2), value))


@op("addcdiv")
def addcdiv(input, tensor1, tensor2, *, value=1):
    return add(input, mul_(div(tensor1, tensor2), value))


def _r(f):
    return lambda self, other: f(as_t(other), self)


OPERATORS = {
    "__add__": add_, "__radd__": _r(add_), "__sub__": sub_, "__rsub__": _r(sub_),
    "__mul__": mul_, "__rmul__": _r(mul_), "__truediv__": div, "__rtruediv__": _r(div),
    "__pow__": pow, "__rpow__": _r(pow), "__neg__": FUNCS["neg"], "__abs__": FUNCS["abs"],
    "__pos__": lambda self: self, "__matmul__": lambda self, other: FUNCS["matmul"](self, as_t(other)),
    "__rmatmul__": lambda self, other: FUNCS["matmul"](as_t(other), self), "__invert__": _invert,
    "__lt__": lt, "__le__": le, "__gt__": gt, "__ge__": ge, "__eq__": eq, "__ne__": ne,
    "__and__": FUNCS["bitwise_and"], "__or__": FUNCS["bitwise_or"], "__xor__": FUNCS["bitwise_xor"],
    "__rand__": _r(FUNCS["bitwise_and"]), "__ror__": _r(FUNCS["bitwise_or"]), "__rxor__": _r(FUNCS["bitwise_xor"]),
}
METHODS.update(OPERATORS)
METHODS["sigmoid"] = sigmoid
