"""In-place methods and functions: ``x.op_(...)``, the in-place variant of every element-wise op
(through :func:`inplace`: version counter, history rebase, leaf checks); the in-place view ops
(``squeeze_``, ``unsqueeze_``, ``t_``, ``transpose_``, ``swapaxes_``, ``swapdims_``); and the
``torch.op_(x, ...)`` functions PyTorch exposes at top level (each is ``x.op_(...)``)."""

from __future__ import annotations

from ._dispatch import FUNCS, METHODS
from .autograd.grad_mode import STATE
from .inplace import _check_leaf, inplace
from .tensor import Tensor

_NAMES = (
    "add", "sub", "subtract", "mul", "multiply", "div", "divide", "true_divide", "pow", "neg", "negative",
    "abs", "absolute", "sqrt", "rsqrt", "exp", "expm1", "log", "log1p", "log2", "log10", "sin", "cos", "tan",
    "tanh", "sinh", "cosh", "sigmoid", "relu", "clamp", "clip", "clamp_min", "clamp_max", "reciprocal",
    "square", "sign", "floor", "ceil", "round", "trunc", "frac", "fmod", "remainder", "lerp", "addcmul",
    "addcdiv", "asin", "acos", "atan", "atan2", "arcsin", "arccos", "arctan", "floor_divide", "exp2",
    "logical_not", "logical_and", "logical_or", "bitwise_and", "bitwise_or", "eq", "ne", "lt", "le", "gt",
    "ge", "maximum", "minimum", "addmm", "addmv", "addr", "baddbmm", "addbmm", "tril", "triu", "masked_fill",
    "where", "hypot", "logaddexp", "nan_to_num", "sgn",
    "acosh", "arccosh", "asinh", "arcsinh", "atanh", "arctanh", "arctan2", "bitwise_not", "bitwise_xor",
    "logical_xor", "deg2rad", "rad2deg", "digamma", "erf", "erfc", "erfinv", "fix", "gcd", "lcm", "greater",
    "greater_equal", "less", "less_equal", "not_equal", "heaviside", "i0", "lgamma", "logit", "nextafter", "sinc",
    "xlogy", "ldexp", "copysign", "bitwise_left_shift", "bitwise_right_shift", "igamma", "igammac", "mvlgamma",
    "renorm", "cumsum", "cumprod", "conj_physical",
)


def _make(fn, name):
    def f(self, *args, **kwargs):
        return inplace(self, lambda s, *a: fn(s, *a, **kwargs), *args, name=None)
    f.__name__ = name + "_"
    return f


def add_inplace_methods(names):
    """``x.op_()`` for each op in ``names`` that compat has and that has no in-place method yet."""
    for n in names:
        if n in FUNCS and n + "_" not in METHODS:
            METHODS[n + "_"] = _make(FUNCS[n], n)


add_inplace_methods(_NAMES)


def _idiv(self, other):
    if self._value.dtype.kind in "biu":
        raise RuntimeError(f"result type Float can't be cast to the desired output type {self.dtype.legacy_name}")
    return METHODS["div_"](self, other)


METHODS.update({
    "__iadd__": METHODS["add_"], "__isub__": METHODS["sub_"], "__imul__": METHODS["mul_"],
    "__itruediv__": _idiv, "__ipow__": METHODS["pow_"],
    "__iand__": METHODS.get("bitwise_and_"), "__ior__": METHODS.get("bitwise_or_"),
})


def _polygamma_(self, n):
    return inplace(self, lambda s: FUNCS["polygamma"](n, s), name=None)


def _float_power_(self, exponent):
    want = "complex128" if self._value.dtype.kind == "c" or isinstance(exponent, complex) or (
        isinstance(exponent, Tensor) and exponent._value.dtype.kind == "c") else "float64"
    if str(self._value.dtype) != want:
        have = {"float32": "Float", "float16": "Half", "complex64": "ComplexFloat"}.get(str(self._value.dtype),
                                                                                       str(self.dtype))
        raise RuntimeError(f"the base given to float_power_ has dtype {have} but the operation's result requires "
                           f"dtype {'ComplexDouble' if want == 'complex128' else 'Double'}")
    return inplace(self, lambda s, e: FUNCS["float_power"](s, e), exponent, name=None)


METHODS.setdefault("polygamma_", _polygamma_)
METHODS.setdefault("float_power_", _float_power_)


def _view_inplace(name):
    """``x.squeeze_()`` and friends: x takes the view's shape and strides (same storage) and, under
    grad mode, the view's history; a leaf that requires grad refuses, as PyTorch."""
    fn = FUNCS.get(name) or METHODS[name]

    def f(self, *args, **kwargs):
        if STATE.enabled:
            _check_leaf(self)
        out = fn(self, *args, **kwargs)
        self._value = out._value
        if STATE.enabled and out.grad_fn is not None:
            self.grad_fn = out.grad_fn
            self._output_nr = out._output_nr
        self._bump()
        return self
    f.__name__ = name + "_"
    return f


for _n in ("squeeze", "unsqueeze", "t", "transpose", "swapaxes", "swapdims"):
    METHODS.setdefault(_n + "_", _view_inplace(_n))

# torch.<op>_(input, ...): PyTorch's top-level in-place functions
_TOP_LEVEL = (
    "abs", "acos", "acosh", "addmv", "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctanh", "asin",
    "asinh", "atan", "atanh", "ceil", "clamp", "clamp_max", "clamp_min", "clip", "conj_physical", "cos", "cosh",
    "deg2rad", "erf", "erfc", "exp", "exp2", "expm1", "fix", "floor", "frac", "gcd", "i0", "lcm", "ldexp", "log",
    "log10", "log1p", "log2", "logit", "nan_to_num", "neg", "negative", "rad2deg", "reciprocal", "relu", "round",
    "rsqrt", "sigmoid", "sin", "sinc", "sinh", "sqrt", "square", "tan", "tanh", "trunc", "xlogy", "fill", "zero",
    "detach", "index_put", "as_strided", "resize_as",
)


def _top(method_name):
    def f(input, *args, **kwargs):
        return METHODS[method_name](input, *args, **kwargs)
    f.__name__ = method_name
    return f


for _n in _TOP_LEVEL:
    if _n + "_" in METHODS and _n + "_" not in FUNCS:
        FUNCS[_n + "_"] = _top(_n + "_")
