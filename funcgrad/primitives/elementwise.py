"""Elementwise primitives: arithmetic, transcendental functions, comparisons, where.

Each primitive is one block: declaration (impl + shape rule come from the
ufunc family helper), then its derivative rules.  Binary rules return
cotangents of the broadcast shape; the reverse driver sums them down to each
argument's shape.  Rules use funcgrad operations only (operators on arrays
are funcgrad's), so they can be differentiated again.
"""

from __future__ import annotations

import inspect

import numpy as np

from ..backend import ML_FLOATS, XP_OF_TYPE, NoDeviceImplementationError, backend_of
from ..core import Primitive, ShapedArray
from ._batching import elementwise_rule, passthrough_rule
from .complex import imag as _imag
from .complex import real as _real

__all__ = [
    "ufunc_primitive", "add", "subtract", "multiply", "divide", "negative", "power", "sqrt",
    "absolute", "exp", "log", "sin", "cos", "tanh", "maximum", "minimum", "less",
    "less_equal", "greater", "greater_equal", "equal", "not_equal", "where", "sign",
    "square", "convert", "safe_mul", "logical_not", "logical_and", "logical_or", "logical_xor",
    "bitwise_and", "bitwise_or", "bitwise_xor", "invert", "log1p", "expm1", "logaddexp",
    "isnan", "isinf", "isfinite",
]

_WEAK = {bool: np.dtype(bool), int: int, float: float, complex: complex}


def _aval_dtype(a):
    return a.dtype if isinstance(a, ShapedArray) else _WEAK.get(type(a), np.result_type(a))


def _ufunc_abstract(uf):
    def abstract(*args, **params):
        shapes = [a.shape for a in args if isinstance(a, ShapedArray)]
        dtypes = tuple(_aval_dtype(a) for a in args) + (None,) * uf.nout
        return ShapedArray(np.broadcast_shapes(*shapes), uf.resolve_dtypes(dtypes)[-1])

    return abstract


_OUT_DTYPE: dict = {}


def _numpy_out_dtype(uf, args):
    """numpy's result dtype of ``uf`` on these buffers; numpy's TypeError where it has no loop.

    Other backends' ufuncs have loops numpy lacks (cupy's sign of bools) and pick other
    result dtypes (cupy's sinc of bools is float16): funcgrad follows numpy on every backend.
    """
    key = (uf, tuple(a.dtype if hasattr(a, "dtype") else _WEAK.get(type(a), type(a)) for a in args))
    try:
        return _OUT_DTYPE[key]
    except KeyError:
        pass
    dt = uf.resolve_dtypes(key[1] + (None,) * uf.nout)[-1]
    _OUT_DTYPE[key] = dt
    return dt


def _ufunc_impl(name, nin):
    """impl calling the ufunc of the inputs' namespace (numpy's loops and result dtype on
    every backend); numpy without a lookup."""
    np_fn = getattr(np, name)
    get = XP_OF_TYPE.get

    def other(xp, args):
        dt = _numpy_out_dtype(np_fn, args)
        out = getattr(xp, name)(*args)
        return out if np_fn.nout != 1 or out.dtype == dt else out.astype(dt)

    if nin == 1:
        def impl(x):
            xp = get(type(x), np)
            return np_fn(x) if xp is np else other(xp, (x,))
    elif nin == 2:
        def impl(x, y):
            xp = get(type(x)) or get(type(y), np)
            return np_fn(x, y) if xp is np else other(xp, (x, y))
    else:
        def impl(*args):
            xp = next((get(type(a)) for a in args if get(type(a)) is not None), np)
            return np_fn(*args) if xp is np else other(xp, args)
    impl.__name__ = f"{name}_impl"
    return impl


def defderiv(prim, deriv, *, safe=False, unsaved_args=(), saves_out=True):
    """Unary elementwise: one derivative ``deriv(ans, x)`` gives both modes' rules.

    ``safe=True`` for derivatives that are infinite somewhere (sqrt at 0, log
    at 0): a zero incoming (co)tangent then yields exactly zero, so
    ``where(x > 0, sqrt(x), 0)`` has a finite gradient at 0.
    """
    takes_params = any(p.kind is p.VAR_KEYWORD or p.kind is p.KEYWORD_ONLY
                       for p in inspect.signature(deriv).parameters.values())
    if takes_params:
        if safe:
            def rule(g, ans, x, **params):
                return safe_mul(g, deriv(ans, x, **params))
        else:
            def rule(g, ans, x, **params):
                return g * deriv(ans, x, **params)
    elif safe:  # (no **params: an empty kwargs dict per call is measurable here)
        def rule(g, ans, x):
            return safe_mul(g, deriv(ans, x))
    else:
        def rule(g, ans, x):
            return g * deriv(ans, x)
    rule.__qualname__ = f"{prim.name}_deriv_rule"
    return prim.defvjp(rule, unsaved_args=unsaved_args, saves_out=saves_out).defjvp(rule)


def ufunc_primitive(name, np_name=None, *, nin=1, **kwargs) -> Primitive:
    """A primitive computing numpy's ufunc ``np_name`` (same dtype rules, broadcasting)."""
    np_name = np_name or name
    uf = getattr(np, np_name)
    prim = Primitive(name, _ufunc_impl(np_name, nin), _ufunc_abstract(uf), **kwargs)
    # a numpy buffer as first argument: call the ufunc directly (a foreign second
    # argument then fails inside numpy, and bind reports the device mismatch)
    prim.fast[np.ndarray] = uf
    prim.batch = elementwise_rule(prim)  # vmap: broadcast-align the operands' batch axes
    return prim


# --- arithmetic ----------------------------------------------------------------

add_p = ufunc_primitive("add", nin=2)
add_p.defvjp(lambda g, ans, x, y: g, lambda g, ans, x, y: g, unsaved_args=(0, 1), saves_out=False)
add_p.defjvp(lambda t, ans, x, y: t, lambda t, ans, x, y: t)
add = add_p.bind

subtract_p = ufunc_primitive("subtract", nin=2)
subtract_p.defvjp(lambda g, ans, x, y: g, lambda g, ans, x, y: -g, unsaved_args=(0, 1), saves_out=False)
subtract_p.defjvp(lambda t, ans, x, y: t, lambda t, ans, x, y: -t)
subtract = subtract_p.bind

multiply_p = ufunc_primitive("multiply", nin=2)
multiply_p.defvjp(lambda g, ans, x, y: g * y, lambda g, ans, x, y: g * x, saves_out=False, reads=((1,), (0,)))
multiply_p.defjvp(lambda t, ans, x, y: t * y, lambda t, ans, x, y: x * t)
multiply = multiply_p.bind

divide_p = ufunc_primitive("divide", nin=2)
# singular at y == 0: a zero (co)tangent must give exactly zero there
divide_p.defvjp(
    lambda g, ans, x, y: safe_mul(g, 1.0 / y),
    lambda g, ans, x, y: safe_mul(g, -ans / y),
    unsaved_args=(0,),
)
divide_p.defjvp(lambda t, ans, x, y: safe_mul(t, 1.0 / y), lambda t, ans, x, y: safe_mul(t, -ans / y))
divide = divide_p.bind

negative_p = ufunc_primitive("negative")
negative_p.defvjp(lambda g, ans, x: -g, unsaved_args=(0,), saves_out=False)
negative_p.defjvp(lambda t, ans, x: -t)
negative = negative_p.bind


def _pow_dx(ans, x, y):
    """d/dx x**y = y x**(y-1), with 0**(-1) avoided where y == 0 (the derivative is 0 there).

    Only the base is replaced (not the whole expression), so derivatives of this
    rule with respect to y stay right at y == 0.
    """
    if isinstance(y, (int, float)):  # x ** 2 and friends: no select needed
        if y == 2:  # exact (a GPU's pow(x, 1.0) may round)
            return 2 * x
        return y * power(x, y - 1) if y != 0 else 0.0 * x
    base = where(logical_and(equal(x, 0), equal(y, 0)), 1.0, x)
    return y * power(base, y - 1)


def _pow_dy(ans, x, y):
    # d/dy x**y = log(x) * x**y; taken as 0 where x == 0 (the limit along x > 0)
    safe_x = where(equal(x, 0), 1.0, x) if not isinstance(x, (int, float)) else (x or 1.0)
    return log(safe_x) * ans


power_p = ufunc_primitive("power", nin=2)
power_p.defvjp(
    lambda g, ans, x, y: safe_mul(g, _pow_dx(ans, x, y)),
    lambda g, ans, x, y: safe_mul(g, _pow_dy(ans, x, y)),
)
power_p.defjvp(
    lambda t, ans, x, y: safe_mul(t, _pow_dx(ans, x, y)),
    lambda t, ans, x, y: safe_mul(t, _pow_dy(ans, x, y)),
)
power = power_p.bind

# --- unary functions (one derivative serves both modes) -----------------------

sqrt_p = ufunc_primitive("sqrt")
defderiv(sqrt_p, lambda ans, x: 0.5 / ans, safe=True, unsaved_args=(0,))
sqrt = sqrt_p.bind

exp_p = ufunc_primitive("exp")
defderiv(exp_p, lambda ans, x: ans, unsaved_args=(0,))
exp = exp_p.bind

log_p = ufunc_primitive("log")
defderiv(log_p, lambda ans, x: 1.0 / x, safe=True, saves_out=False)
log = log_p.bind

sin_p = ufunc_primitive("sin")
defderiv(sin_p, lambda ans, x: cos(x), saves_out=False)
sin = sin_p.bind

cos_p = ufunc_primitive("cos")
defderiv(cos_p, lambda ans, x: -sin(x), saves_out=False)
cos = cos_p.bind

tanh_p = ufunc_primitive("tanh")
defderiv(tanh_p, lambda ans, x: 1.0 - ans * ans, unsaved_args=(0,))
tanh = tanh_p.bind

absolute_p = ufunc_primitive("absolute")


def _abs_deriv(ans, x):
    """sign(x), 0 at 0 as PyTorch; complex x: conj(x) / |x| (the convention of primitives/complex.py)."""
    if x.dtype.kind != "c":
        return sign(x)
    mag = absolute(x)  # (not ans: real inputs then need not keep the output)
    zero = equal(mag, 0)
    safe = where(zero, 1.0, mag)
    # conj(x) / |x|, part by part: numpy's complex / real division overflows at subnormal |x|
    return where(zero, 0.0, _real(x) / safe - 1j * (_imag(x) / safe))


defderiv(absolute_p, _abs_deriv, saves_out=False)
absolute = absolute_p.bind

square_p = ufunc_primitive("square")
defderiv(square_p, lambda ans, x: 2.0 * x, saves_out=False)
square = square_p.bind

sign_p = ufunc_primitive("sign", zero_derivative=True)


def sign(x):
    """numpy's sign; for complex x it is z / |z| (0 at 0), which is not locally constant, so it is
    computed from differentiable operations instead of the (zero-derivative) sign primitive."""
    dt = getattr(x, "dtype", None)
    if dt is None or dt.kind != "c":
        return sign_p.bind(x)
    mag = absolute(x)
    zero = equal(mag, 0)
    safe = where(zero, 1.0, mag)
    return where(zero, 0.0, _real(x) / safe + 1j * (_imag(x) / safe))


log1p_p = ufunc_primitive("log1p")
defderiv(log1p_p, lambda ans, x: 1.0 / (1.0 + x), safe=True, saves_out=False)
log1p = log1p_p.bind

expm1_p = ufunc_primitive("expm1")
defderiv(expm1_p, lambda ans, x: ans + 1.0, unsaved_args=(0,))
expm1 = expm1_p.bind


def _logaddexp_weight(ans, x):
    """d logaddexp / dx = exp(x - ans) <= 1: finite for any magnitude; 1/2 each at -inf, -inf."""
    w = exp(x - ans)
    return where(isnan(w), 0.5, w)


logaddexp_p = ufunc_primitive("logaddexp", nin=2)
logaddexp_p.defvjp(
    lambda g, ans, x, y: g * _logaddexp_weight(ans, x),
    lambda g, ans, x, y: g * _logaddexp_weight(ans, y),
)
logaddexp_p.defjvp(
    lambda t, ans, x, y: t * _logaddexp_weight(ans, x),
    lambda t, ans, x, y: t * _logaddexp_weight(ans, y),
)
logaddexp = logaddexp_p.bind


# --- maximum / minimum: ties split the (co)tangent evenly ---------------------

def _winner_weight(x, y):
    """1 where x wins, 0.5 on ties, 0 where y wins (as a select, keeping g's dtype)."""
    return where(greater(x, y), 1.0, where(equal(x, y), 0.5, 0.0))


maximum_p = ufunc_primitive("maximum", nin=2)
maximum_p.defvjp(
    lambda g, ans, x, y: g * _winner_weight(x, y),
    lambda g, ans, x, y: g * _winner_weight(y, x),
    saves_out=False,
)
maximum_p.defjvp(
    lambda t, ans, x, y: t * _winner_weight(x, y),
    lambda t, ans, x, y: t * _winner_weight(y, x),
)
maximum = maximum_p.bind

minimum_p = ufunc_primitive("minimum", nin=2)
minimum_p.defvjp(
    lambda g, ans, x, y: g * _winner_weight(y, x),
    lambda g, ans, x, y: g * _winner_weight(x, y),
    saves_out=False,
)
minimum_p.defjvp(
    lambda t, ans, x, y: t * _winner_weight(y, x),
    lambda t, ans, x, y: t * _winner_weight(x, y),
)
minimum = minimum_p.bind

# --- comparisons and logic: boolean outputs, no derivative --------------------

less = ufunc_primitive("less", nin=2, differentiable=False).bind
less_equal = ufunc_primitive("less_equal", nin=2, differentiable=False).bind
greater = ufunc_primitive("greater", nin=2, differentiable=False).bind
greater_equal = ufunc_primitive("greater_equal", nin=2, differentiable=False).bind
equal = ufunc_primitive("equal", nin=2, differentiable=False).bind
not_equal = ufunc_primitive("not_equal", nin=2, differentiable=False).bind
isnan = ufunc_primitive("isnan", differentiable=False).bind
isinf = ufunc_primitive("isinf", differentiable=False).bind
isfinite = ufunc_primitive("isfinite", differentiable=False).bind
logical_not = ufunc_primitive("logical_not", differentiable=False).bind
logical_and = ufunc_primitive("logical_and", nin=2, differentiable=False).bind
logical_or = ufunc_primitive("logical_or", nin=2, differentiable=False).bind
logical_xor = ufunc_primitive("logical_xor", nin=2, differentiable=False).bind
bitwise_and = ufunc_primitive("bitwise_and", nin=2, differentiable=False).bind
bitwise_or = ufunc_primitive("bitwise_or", nin=2, differentiable=False).bind
bitwise_xor = ufunc_primitive("bitwise_xor", nin=2, differentiable=False).bind
invert = ufunc_primitive("invert", differentiable=False).bind


# --- where (select) ------------------------------------------------------------

def _where_impl(c, x, y):
    get = XP_OF_TYPE.get
    xp = get(type(c)) or get(type(x)) or get(type(y), np)
    if xp is not np and isinstance(c, (bool, int, float)):
        c = xp.asarray(c)  # cupy.where calls condition.astype
    if getattr(x, "dtype", None) in ML_FLOATS or getattr(y, "dtype", None) in ML_FLOATS:
        # numpy's where(c, 1.0, bfloat16 array) is float32: the shape rule's dtype wins
        return xp.where(c, x, y).astype(_where_dtype(x, y), copy=False)
    return xp.where(c, x, y)


def _where_dtype(x, y):
    """numpy's result dtype of where's branches (avals or buffers); a weak Python number with a bfloat16
    (ml_dtypes) branch keeps bfloat16 (complex64 for a complex number), as in ufuncs."""
    dx, dy = getattr(x, "dtype", None), getattr(y, "dtype", None)
    ml = dx if dx in ML_FLOATS else dy if dy in ML_FLOATS else None
    if ml is not None and (dx is None or dy is None):
        return np.dtype(np.complex64) if isinstance(x if dx is None else y, complex) else np.dtype(ml)
    return np.result_type(*(_aval_dtype(a) for a in (x, y)))


def _where_abstract(c, x, y):
    shapes = [a.shape for a in (c, x, y) if isinstance(a, ShapedArray)]
    return ShapedArray(np.broadcast_shapes(*shapes), _where_dtype(x, y))


where_p = Primitive("where", _where_impl, _where_abstract)
where_p.defvjp(
    None,
    lambda g, ans, c, x, y: where(c, g, 0.0),
    lambda g, ans, c, x, y: where(c, 0.0, g),
    unsaved_args=(1, 2), saves_out=False,
)
where_p.defjvp(
    None,
    lambda t, ans, c, x, y: where(c, t, 0.0),
    lambda t, ans, c, x, y: where(c, 0.0, t),
)
where_p.batch = elementwise_rule(where_p)
where = where_p.bind


# --- safe_mul: the product that singular derivative rules use -------------------------

def _safe_mul_impl(g, d):
    get = XP_OF_TYPE.get
    xp = get(type(g)) or get(type(d), np)
    return xp.where(xp.equal(g, 0), xp.zeros((), xp.result_type(g, d)), xp.multiply(g, d))


safe_mul_p = Primitive("safe_mul", _safe_mul_impl, _ufunc_abstract(np.multiply))
# The rules are those of multiply (with the same convention): derivatives taken
# through safe_mul stay right at g == 0, where a select would have cut them off.
safe_mul_p.defvjp(lambda ct, ans, g, d: safe_mul(ct, d), lambda ct, ans, g, d: safe_mul(ct, g), saves_out=False,
                  reads=((1,), (0,)))
safe_mul_p.defjvp(lambda t, ans, g, d: safe_mul(t, d), lambda t, ans, g, d: safe_mul(g, t))
safe_mul_p.batch = elementwise_rule(safe_mul_p)


def safe_mul(g, d):
    """g * d, but exactly 0 where g == 0 even if d is inf or nan.

    Singular derivative rules (sqrt or log at 0, division by 0, ...) multiply
    the incoming (co)tangent by the derivative with it, so that a zero
    (co)tangent, e.g. from a branch masked off by ``where``, stays zero.
    """
    return safe_mul_p.bind(g, d)


# --- dtype conversion ------------------------------------------------------------

def _convert_impl(x, dtype):
    xp = XP_OF_TYPE.get(type(x), np)
    if xp is np:
        if not isinstance(x, (np.ndarray, np.generic)):
            return np.asarray(x, dtype=dtype)
    elif np.dtype(dtype) in ML_FLOATS:
        raise NoDeviceImplementationError(f"cannot cast to {np.dtype(dtype)} on the {backend_of(x).kind} device: "
                                          "cupy has no such dtype (it is ml_dtypes', for numpy); cast on the cpu")
    return x.astype(dtype)


convert_p = Primitive(
    "convert_element_type", _convert_impl,
    lambda x, dtype: ShapedArray(getattr(x, "shape", ()), dtype),
)
# the reverse driver casts cotangents to each argument's dtype, and the forward
# driver tangents to the output's: the rules are identities.
# (complex -> real keeps the real part: its vjp is the identity too, under the convention
# of primitives/complex.py)
convert_p.defvjp(lambda g, ans, x, dtype: g, unsaved_args=(0,), saves_out=False)
convert_p.defjvp(lambda t, ans, x, dtype: t)
convert_p.batch = passthrough_rule(convert_p)


def convert(x, dtype):
    return convert_p.bind(x, dtype=np.dtype(dtype))
