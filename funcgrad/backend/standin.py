"""A CPU stand-in for CuPy: its own array type and namespace, strict like CuPy.

Purpose: prove that no code path in funcgrad hard-codes numpy.  Running the
test suite with ``FUNCGRAD_TEST_BACKEND=standin`` puts every array on this
backend; any primitive that calls ``numpy.xxx`` on data (instead of the
namespace of its inputs), or mixes a host ``numpy.ndarray`` into device work,
fails there exactly as it would on a GPU.

Behaviours copied from CuPy (each one a difference from numpy that once broke
funcgrad on a GPU; see docs/architecture.md, "Backends and devices"):
- ``StandinArray`` refuses implicit conversion to numpy (``__array__`` raises
  TypeError; numpy ufuncs and functions refuse it);
- functions of the namespace refuse ``numpy.ndarray`` arguments;
- reductions and indexing return 0-d arrays, never numpy scalars;
- ``asnumpy`` / ``.get()`` are the explicit ways back to the host;
- integer-array indices out of bounds wrap around instead of raising (reading,
  writing and ``ufunc.at``); an out-of-bounds int raises cupy's ``Index ... is
  out of bounds`` (capital I);
- assigning through integer-array indices with a repeated position keeps the
  first write (cupy: unspecified; numpy: the last);
- ``ufunc.at`` exists for add and subtract only, plus maximum/minimum computed
  in float32 (cupy's float64 atomicMax/atomicMin go through fmaxf/fminf, which
  also ignore NaN); any other ufunc raises NotImplementedError;
- ``zeros_like/ones_like/empty_like/full_like(a, shape=())`` give ``a.shape``
  (cupy reads an empty shape as "not given");
- ``where(cond, x, y)`` needs an array (or numpy scalar) ``cond``: a Python bool
  raises AttributeError, as ``cupy.where`` does;
- ``convolve``/``correlate`` take 1-d inputs only, and ``scipy.signal``'s
  ``method="auto"`` refuses n-d inputs (cupy's ``choose_conv_method``);
- ``sign`` of bools works (numpy: TypeError) and ``sinc`` of bools is float16
  (numpy: float64), as cupy's ufunc loops;
- ``matmul`` of mismatched shapes says only "Axis dimension mismatch";
- ``linalg.inv/solve/cholesky`` do not raise on singular or non positive definite
  matrices (the result is NaN) unless ``errstate(linalg="raise")`` is active,
  as under ``cupyx.errstate``;
- the scipy namespaces lack what ``cupyx.scipy`` lacks (``special.iv/ive/jv``,
  ``linalg.sqrtm``), and ``special.polygamma`` needs an array order ``n``.
"""

from __future__ import annotations

import types

import numpy as _np

__all__ = ["StandinArray", "namespace", "asnumpy"]


class StandinArray:
    """An n-d array living on the stand-in 'device' (a wrapped numpy array)."""

    __slots__ = ("_a",)
    __array_ufunc__ = None  # numpy ufuncs and ndarray operators refuse us

    def __init__(self, a):
        if not isinstance(a, _np.ndarray):
            raise TypeError(f"StandinArray wraps a numpy.ndarray, got {type(a).__name__}")
        self._a = a

    # --- strictness, as CuPy -------------------------------------------------
    def __array__(self, dtype=None, copy=None):
        raise TypeError(
            "Implicit conversion to a NumPy array is not allowed on the stand-in "
            "device. Please use `.get()` or `asnumpy()` to construct a NumPy array explicitly."
        )

    def __array_function__(self, func, types, args, kwargs):
        raise TypeError(
            f"numpy.{func.__name__} was called on a stand-in device array: use the "
            "array's own namespace (funcgrad.backend.namespace_of) instead"
        )

    def get(self):
        return self._a.copy()

    # --- metadata ---------------------------------------------------------------
    shape = property(lambda self: self._a.shape)
    dtype = property(lambda self: self._a.dtype)
    ndim = property(lambda self: self._a.ndim)
    size = property(lambda self: self._a.size)
    strides = property(lambda self: self._a.strides)
    itemsize = property(lambda self: self._a.itemsize)
    nbytes = property(lambda self: self._a.nbytes)
    flags = property(lambda self: self._a.flags)
    T = property(lambda self: StandinArray(self._a.T))
    real = property(lambda self: _wrap(self._a.real))
    imag = property(lambda self: _wrap(self._a.imag))
    base = property(lambda self: None if self._a.base is None else StandinArray(_base_array(self._a)))

    def __len__(self):
        return len(self._a)

    def __repr__(self):
        return "standin." + repr(self._a)

    def __str__(self):
        return str(self._a)

    def __bool__(self):
        return bool(self._a)

    def __float__(self):
        return float(self._a)

    def __int__(self):
        return int(self._a)

    def __complex__(self):
        return complex(self._a)

    def __index__(self):
        return self._a.__index__()

    def item(self, *args):
        return self._a.item(*args)

    def tolist(self):
        return self._a.tolist()

    def __iter__(self):
        for i in range(len(self._a)):
            yield _wrap(self._a[i])

    def __getitem__(self, idx):
        return _wrap(self._a[_cupy_index(self._a.shape, _unwrap_index(idx))])

    def __setitem__(self, idx, value):
        idx = _cupy_index(self._a.shape, _unwrap_index(idx))
        value = _unwrap(value)
        items = idx if type(idx) is tuple else (idx,)
        if any(isinstance(i, _np.ndarray) and i.dtype.kind in "iu" for i in items):
            # cupy: which of several writes to one position lands is unspecified; here the
            # first one does (numpy: the last), so code relying on either is caught
            pos = _np.arange(self._a.size).reshape(self._a.shape)[idx]
            vals = _np.broadcast_to(_np.asarray(value, dtype=self._a.dtype), pos.shape)
            self._a[_np.unravel_index(pos.reshape(-1)[::-1], self._a.shape)] = vals.reshape(-1)[::-1]
            return
        self._a[idx] = value

    def __dlpack__(self, *args, **kwargs):
        return self._a.__dlpack__(*args, **kwargs)

    def __dlpack_device__(self):
        return self._a.__dlpack_device__()

    # --- methods (those CuPy arrays have and funcgrad's impls may call) -------
    def _method(name):
        def m(self, *args, **kwargs):
            return _wrap(getattr(self._a, name)(*_unwrap(args), **_unwrap(kwargs)))

        m.__name__ = name
        return m

    for _n in (
        "astype", "reshape", "transpose", "ravel", "flatten", "copy", "sum", "prod", "mean",
        "var", "std", "max", "min", "argmax", "argmin", "cumsum", "cumprod", "squeeze",
        "swapaxes", "conj", "clip", "round", "fill", "view", "dot", "nonzero", "all", "any",
        "repeat", "take", "diagonal", "trace", "sort", "argsort",
    ):
        locals()[_n] = _method(_n)
    del _n, _method

    def __copy__(self):
        return StandinArray(self._a.copy())

    def __deepcopy__(self, memo):
        return StandinArray(self._a.copy())

    def __reduce__(self):
        return (StandinArray, (self._a,))


def _base_array(a):
    while isinstance(a.base, _np.ndarray):
        a = a.base
    return a


def _wrap(x):
    if isinstance(x, _np.ndarray):
        return StandinArray(x)
    if isinstance(x, _np.generic):  # CuPy never returns numpy scalars
        return StandinArray(_np.asarray(x))
    if isinstance(x, tuple):  # namedtuples too (numpy.linalg's results): plain tuples, as CuPy
        return tuple(_wrap(v) for v in x)
    if type(x) is list:
        return [_wrap(v) for v in x]
    return x


def _refuse_host(x):
    raise TypeError(
        f"Unsupported type {type(x)}: a host numpy.ndarray was passed to the stand-in "
        "device namespace (move it with funcgrad.device_put first)"
    )


def _unwrap(x):
    t = type(x)
    if t is StandinArray:
        return x._a
    if t is _np.ndarray:
        _refuse_host(x)
    if t is tuple or t is list:
        return t(_unwrap(v) for v in x)
    if t is dict:
        return {k: _unwrap(v) for k, v in x.items()}
    return x


def _unwrap_index(idx):
    if type(idx) is tuple:
        return tuple(_unwrap(i) for i in idx)
    return _unwrap(idx)


def _cupy_index(shape, idx):
    """An (unwrapped) index as cupy reads it: integer arrays wrap around, ints are checked."""
    items = idx if type(idx) is tuple else (idx,)

    def width(i):
        if i is None or i is Ellipsis:
            return 0
        if isinstance(i, _np.ndarray) and i.dtype == _np.bool_:
            return i.ndim
        return 1

    rest = len(shape) - sum(width(i) for i in items)
    out, axis = [], 0
    for i in items:
        if i is Ellipsis:
            axis += max(rest, 0)
        elif axis < len(shape):
            n = shape[axis]
            if isinstance(i, _np.ndarray) and i.dtype.kind in "iu" and n:
                i = _np.mod(i, n)
            elif isinstance(i, (int, _np.integer)) and not isinstance(i, (bool, _np.bool_)) and not -n <= i < n:
                raise IndexError(f"Index {i} is out of bounds for axis {axis} with size {n}")
        out.append(i)
        axis += width(i)
    return tuple(out) if type(idx) is tuple else out[0]


for _name, _fn in (
    ("add", "add"), ("sub", "subtract"), ("mul", "multiply"), ("truediv", "true_divide"),
    ("floordiv", "floor_divide"), ("mod", "remainder"), ("pow", "power"), ("matmul", "matmul"),
    ("and", "logical_and"), ("or", "logical_or"), ("xor", "logical_xor"),
):
    def _binop(fname):
        f = getattr(_np, fname)
        fwd = lambda self, other: _wrap(f(self._a, _unwrap(other)))  # noqa: E731
        rev = lambda self, other: _wrap(f(_unwrap(other), self._a))  # noqa: E731
        return fwd, rev

    _f, _r = _binop(_fn)
    if _name in ("and", "or", "xor"):  # bitwise on ints, logical on bools: use numpy's operator
        _op = getattr(_np.ndarray, f"__{_name}__")
        _f = lambda self, other, _op=_op: _wrap(_op(self._a, _unwrap(other)))  # noqa: E731
        _r = lambda self, other, _op=_op: _wrap(_op(_unwrap(other), self._a))  # noqa: E731
    setattr(StandinArray, f"__{_name}__", _f)
    setattr(StandinArray, f"__r{_name}__", _r)

for _name in ("lt", "le", "gt", "ge", "eq", "ne"):
    _op = getattr(_np.ndarray, f"__{_name}__")
    setattr(StandinArray, f"__{_name}__", lambda self, other, _op=_op: _wrap(_op(self._a, _unwrap(other))))
for _name in ("neg", "pos", "abs", "invert"):
    _op = getattr(_np.ndarray, f"__{_name}__")
    setattr(StandinArray, f"__{_name}__", lambda self, _op=_op: _wrap(_op(self._a)))
StandinArray.__hash__ = None


class _Ufunc:
    """A numpy ufunc seen through the stand-in namespace (call, .at, .reduce, ...)."""

    __slots__ = ("_u",)

    def __init__(self, u):
        self._u = u

    def __call__(self, *args, **kwargs):
        return _wrap(self._u(*_unwrap(args), **_unwrap(kwargs)))

    def at(self, a, indices, b=None):
        """cupy's ufunc.at: add/subtract; maximum/minimum through float32; no others."""
        name = self._u.__name__
        if name not in ("add", "subtract", "maximum", "minimum"):
            raise NotImplementedError(f"`cupy_{name}.at` is not supported yet")
        buf = _unwrap(a)
        idx = _cupy_index(buf.shape, _unwrap_index(indices))
        vals = _unwrap(b)
        if name in ("maximum", "minimum") and buf.dtype.kind == "f":
            f32 = buf.astype(_np.float32)  # fmaxf/fminf: float32 precision, NaN ignored
            (_np.fmax if name == "maximum" else _np.fmin).at(f32, idx, _np.asarray(vals, _np.float32))
            buf[...] = f32
        else:
            self._u.at(buf, idx, vals)

    def __getattr__(self, name):
        attr = getattr(self._u, name)
        if callable(attr):
            return lambda *a, **k: _wrap(attr(*_unwrap(a), **_unwrap(k)))
        return attr

    def __repr__(self):
        return f"<standin ufunc {self._u.__name__}>"


class _Namespace(types.ModuleType):
    """numpy's functions, taking and returning StandinArray."""

    def __init__(self, name, src, hidden=()):
        super().__init__(name)
        self._src = src
        self._hidden = frozenset(hidden)

    def __getattr__(self, name):
        if name in self._hidden:
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
        attr = getattr(self._src, name)
        if isinstance(attr, _np.ufunc):
            out = _Ufunc(attr)
        elif isinstance(attr, types.ModuleType):
            out = _Namespace(f"{self.__name__}.{name}", attr)
        elif isinstance(attr, type) or not callable(attr):
            out = attr  # dtypes, classes, constants
        else:
            def out(*args, _f=attr, **kwargs):
                return _wrap(_f(*_unwrap(args), **_unwrap(kwargs)))

            out.__name__ = name
        setattr(self, name, out)  # cache
        return out


namespace = _Namespace("funcgrad.standin", _np)
namespace.ndarray = StandinArray


def asarray(obj, dtype=None):
    """Host data (lists, scalars, numpy arrays) -> a new stand-in array."""
    if type(obj) is StandinArray:
        return obj if dtype is None or obj.dtype == dtype else obj.astype(dtype)
    return StandinArray(_np.array(obj, dtype=dtype, copy=True))


def asnumpy(a):
    if type(a) is StandinArray:
        return a._a.copy()
    return _np.asarray(a)


namespace.asarray = asarray
namespace.array = asarray
namespace.asnumpy = asnumpy

