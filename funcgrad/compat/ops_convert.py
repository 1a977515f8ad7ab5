"""Type and device conversions: to/cpu/cuda/float/double/.../type/type_as, in-place variants."""

from __future__ import annotations

import numpy as np

from ..backend import to_numpy
from ..primitives.transfer import device_put_p
from . import dtypes
from ._dispatch import FUNCS, METHODS, cast, method, name_grad
from .device import device as _device, like, same_device, xp_of
from .inplace import inplace, write
from .tensor import Tensor, wrap


def _convert(x, d):
    npd = dtypes.as_dtype(d).dtype
    if x._value.dtype == npd:
        return x
    return name_grad(cast(x, npd), "ToCopyBackward0")


def _to_device(x, dev):
    d = _device(dev)
    if same_device(x._value, d):
        return x
    from .. import backend  # noqa: PLC0415

    if x.requires_grad:
        from ._dispatch import apply  # noqa: PLC0415

        return name_grad(apply(device_put_p, x, device=d._backend_device(), src=backend.device_of(x._value)),
                         "ToCopyBackward0")
    return wrap(backend.put_buffer(x._value, d._backend_device()))


@method("to")
def to(self, *args, dtype=None, device=None, non_blocking=False, copy=False, memory_format=None):
    for a in args:
        if isinstance(a, Tensor):
            dtype, device = a.dtype, a.device
        elif isinstance(a, (dtypes.dtype, type)) or (isinstance(a, str) and a.startswith("torch.")):
            dtype = a
        elif isinstance(a, (str, _device, int)):
            device = a
        else:
            raise TypeError(f"to() received an invalid combination of arguments: {a!r}")
    r = self
    if device is not None:
        r = _to_device(r, device)
    if dtype is not None:
        r = _convert(r, dtype)
    if memory_format is not None:
        from .memory_format import contiguous_as, preserve_format  # noqa: PLC0415

        if memory_format is not preserve_format:
            r2 = contiguous_as(r, memory_format, "to")
            r = r2 if r2 is r else name_grad(r2, "ToCopyBackward0")
    if copy and r is self:
        from .ops_shape import clone  # noqa: PLC0415

        r = clone(self)
    return r


METHODS["cpu"] = lambda self, memory_format=None: _to_device(self, "cpu")


@method("pin_memory")
def pin_memory(self, device=None):
    """Accepted for compatibility: host buffers are numpy's (pageable); transfers work from them."""
    return self


@method("is_pinned")
def is_pinned(self, device=None):
    return False


@method("cuda")
def cuda(self, device=None, non_blocking=False, memory_format=None):
    if isinstance(device, int) or device is None:
        device = _device("cuda", device or 0)
    return _to_device(self, device)


for _name, _dt in (("float", dtypes.float32), ("double", dtypes.float64), ("half", dtypes.float16),
                   ("long", dtypes.int64), ("int", dtypes.int32), ("short", dtypes.int16),
                   ("char", dtypes.int8), ("byte", dtypes.uint8), ("bool", dtypes.bool),
                   ("bfloat16", dtypes.bfloat16), ("cfloat", dtypes.complex64), ("cdouble", dtypes.complex128)):
    METHODS[_name] = (lambda d: lambda self, memory_format=None: _convert(self, d))(_dt)


@method("type")
def type_(self, dtype=None, non_blocking=False, **kw):
    if dtype is None:
        return "torch." + self.dtype.legacy
    return _convert(self, dtype)


@method("type_as")
def type_as(self, other):
    return _convert(self, other.dtype)


@method("zero_")
def zero_(self):
    return fill_(self, 0)


@method("fill_")
def fill_(self, value):
    from .ops_elementwise import where  # noqa: PLC0415

    def fill(s, v):
        xp = xp_of(s._value)
        if isinstance(v, Tensor) and v.requires_grad:
            return cast(where(wrap(xp.zeros(s._value.shape, bool)), s, v), s._value.dtype)
        vv = v._value if isinstance(v, Tensor) else v
        if isinstance(vv, np.ndarray) or type(vv) is type(s._value):
            vv = vv.item()  # a 0-d tensor's value (of any device: PyTorch allows a cpu one)
        if s.requires_grad:
            return where(wrap(xp.zeros(s._value.shape, bool)), s, wrap(xp.full((), vv, s._value.dtype)))
        return wrap(xp.full(s._value.shape, vv, s._value.dtype))

    if isinstance(value, Tensor) and value._value.ndim:
        raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with {value._value.ndim} dimensions.")
    return inplace(self, fill, value, name="FillBackward0")


@method("copy_")
def copy_(self, src, non_blocking=False):
    from .ops_shape import expand  # noqa: PLC0415

    def cp(s, v):
        v = v if isinstance(v, Tensor) else wrap(like(v, s._value))
        if v._value.shape != s._value.shape:
            v = expand(v, s._value.shape)
        if not same_device(v._value, s.device):
            v = _to_device(v, s.device)
        if v.requires_grad:
            return cast(v, s._value.dtype).contiguous() if v._value.dtype != s._value.dtype else v
        return wrap(v._value.astype(s._value.dtype))  # on v's device (now s's)

    return inplace(self, cp, src, name="CopyBackwards")


def _random_(sample):
    def f(self, *args, generator=None, **kw):
        from .creation import _rng  # noqa: PLC0415

        host = np.asarray(sample(_rng(generator), self._value.shape, *args, **kw)).astype(self._value.dtype)
        buf = like(host, self._value)  # drawn on the host (one stream for every device), then moved
        return inplace(self, lambda s: wrap(buf))
    return f


METHODS["normal_"] = _random_(lambda r, shape, mean=0.0, std=1.0: mean + std * r.standard_normal(shape))
METHODS["uniform_"] = _random_(lambda r, shape, a=0.0, b=1.0, **kw: r.uniform(kw.get("from", a), kw.get("to", b), shape))
def _random_ints(r, shape, a=None, b=None, **kw):
    """random_(): [0, 2**24) by default, random_(to): [0, to), random_(from, to): [from, to)."""
    low, high = (0, 2**24) if a is None else ((0, a) if b is None else (a, b))
    return r.integers(low, high, shape)


METHODS["random_"] = _random_(_random_ints)
METHODS["exponential_"] = _random_(lambda r, shape, lambd=1.0: r.exponential(1.0 / lambd, shape))
METHODS["bernoulli_"] = _random_(lambda r, shape, p=0.5: r.random(shape) < (to_numpy(p._value) if isinstance(p, Tensor) else p))
METHODS["geometric_"] = _random_(lambda r, shape, p: r.geometric(p, shape))
METHODS["log_normal_"] = _random_(lambda r, shape, mean=1.0, std=2.0: r.lognormal(mean, std, shape))
METHODS["cauchy_"] = _random_(lambda r, shape, median=0.0, sigma=1.0: median + sigma * r.standard_cauchy(shape))


@method("resize_")
def resize_(self, *sizes):
    """New shape; keeps the first elements (in order) and fills new ones with zeros."""
    from ._dispatch import ints  # noqa: PLC0415

    shape = ints(sizes)
    if self.requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    n = int(np.prod(shape, dtype=np.int64))
    flat = self._value.reshape(-1)
    if n <= flat.size and self._value.flags.c_contiguous:
        self._value = flat[:n].reshape(shape)
    else:
        new = xp_of(self._value).zeros(n, self._value.dtype)
        new[:min(n, flat.size)] = flat[:min(n, flat.size)]
        self._value = new.reshape(shape)
    self._bump()
    return self


@method("resize_as_")
def resize_as_(self, other):
    return resize_(self, tuple(other.shape))


@method("set_")
def set_(self, source=None):
    self._value = source._value if source is not None else xp_of(self._value).empty((0,), self._value.dtype)
    self._bump()
    return self


METHODS["requires_grad_"] = Tensor.requires_grad_


@method("new_tensor")
def new_tensor(self, data, dtype=None, device=None, requires_grad=False):
    from .creation import tensor  # noqa: PLC0415

    return tensor(data, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)


def _new_factory(name):
    def f(self, *size, dtype=None, device=None, requires_grad=False, **kw):
        fn = FUNCS[name]
        return fn(*size, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad, **kw)
    return f


for _n in ("zeros", "ones", "empty"):
    METHODS["new_" + _n] = _new_factory(_n)


@method("new_full")
def new_full(self, size, fill_value, dtype=None, device=None, requires_grad=False):
    return FUNCS["full"](size, fill_value, dtype=dtype or self.dtype, device=device or self.device,
                         requires_grad=requires_grad)


@method("new")
def new(self, *args):
    from .creation import legacy_new  # noqa: PLC0415

    return legacy_new(self.dtype, args, self.device)


__all__ = ["to", "write"]
