"""Tensor creation: tensor(), legacy Tensor(...) constructors, factories, random numbers."""

from __future__ import annotations

import functools

import numpy as np

from ..backend import kind_of
from .. import backend
from . import dtypes
from .device import default_for, device as _device, to_device
from .tensor import Size, Tensor, wrap

__all__ = [
    "tensor", "as_tensor", "from_numpy", "zeros", "ones", "full", "empty", "arange", "range",
    "linspace", "logspace", "eye", "rand", "randn", "randint", "randperm", "normal",
    "zeros_like", "ones_like", "full_like", "empty_like", "rand_like", "randn_like",
    "randint_like", "manual_seed", "seed", "initial_seed", "Generator", "get_rng_state",
    "set_rng_state", "default_generator", "scalar_tensor", "empty_strided",
]

_builtin_range = range


class Generator:
    """A random stream (numpy's PCG64); ``manual_seed`` makes it reproducible."""

    def __init__(self, device="cpu"):
        self.device = _device(device)
        self._seed = 67280421310721
        self.rng = np.random.default_rng(self._seed)

    def manual_seed(self, s):
        self._seed = int(s)
        self.rng = np.random.default_rng(self._seed)
        return self

    def seed(self):
        s = int(np.random.SeedSequence().entropy % (2**63))
        self.manual_seed(s)
        return s

    def initial_seed(self):
        return self._seed

    def get_state(self):
        return wrap(np.frombuffer(repr(self.rng.bit_generator.state).encode(), dtype=np.uint8).copy())

    def set_state(self, state):
        import ast  # noqa: PLC0415

        self.rng.bit_generator.state = ast.literal_eval(bytes(state._value).decode())


default_generator = Generator()


def manual_seed(s):
    return default_generator.manual_seed(s)


def seed():
    return default_generator.seed()


def initial_seed():
    return default_generator.initial_seed()


def get_rng_state():
    return default_generator.get_state()


def set_rng_state(state):
    default_generator.set_state(state)


_NO_RANDOM = []  # while torch.compile traces: the exception class a random draw raises (it cannot be traced)


# torch.func.vmap calls in progress, innermost last: (randomness, the vmap's BatchTrace, batch size)
_VMAP_RANDOM = []
_RANDOM_ERROR_MODE = ("vmap: called random operation while in randomness error mode. Please either use the 'same' "
                      "or 'different' randomness flags on vmap or perform the randomness operation out of vmap")


def _rng(generator, batched_draw=False):
    """The generator to draw from.  Under torch.func.vmap: randomness='error' raises PyTorch's error;
    'same' draws once for the batch; 'different' is for the factories that draw through
    :func:`_random_tensor` (``batched_draw``): other draws raise, they are not vectorized."""
    if _NO_RANDOM:
        raise _NO_RANDOM[-1]("random numbers are drawn here (torch.rand/randn/bernoulli, dropout in training): "
                             "a traced graph would replay the same numbers on every call")
    if _VMAP_RANDOM:
        modes = {m for m, _, _ in _VMAP_RANDOM}
        if "error" in modes:
            raise RuntimeError(_RANDOM_ERROR_MODE)
        if "different" in modes and not batched_draw:
            raise RuntimeError("vmap(randomness='different'): funcgrad.compat vectorizes the random factories "
                               "(rand, randn, randint, rand_like, randn_like, randint_like, dropout) but not "
                               "this random operation; draw with those, or use randomness='same'")
    return (generator or default_generator).rng


def _random_tensor(make, shape):
    """``make(shape)`` -> a Tensor of random draws; under torch.func.vmap(randomness='different') one
    independent draw per example: ``make`` draws the batch sizes in front, and the Tensor becomes a
    batched value of each such vmap (randomness='same' levels share the draw)."""
    levels = [(trace, n) for m, trace, n in _VMAP_RANDOM if m == "different"]
    if not levels:
        return make(tuple(shape))
    v = make(tuple(n for _, n in levels) + tuple(shape))
    for trace, _ in levels:  # outermost first: each level's batch axis is 0 one level down
        v = trace.new_tracer(v, 0)
    from .autograd.graph import _traced  # noqa: PLC0415

    return _traced(v)


def _finish(buf, dtype=None, device=None, requires_grad=False):
    if dtype is not None:
        npd = dtypes.as_dtype(dtype).dtype
        if buf.dtype != npd:
            buf = buf.astype(npd)
    buf = to_device(buf, default_for(device))
    t = wrap(buf)
    if requires_grad:
        t.requires_grad_(True)
    return t


def _host_data(data, exact=False):
    """Nested lists/tuples/scalars/tensors -> numpy array (PyTorch's inference: floats -> default dtype).

    ``exact``: keep Python floats as float64 (the caller casts to an explicit dtype; no float32 rounding).
    """
    if isinstance(data, Tensor):
        return backend.to_numpy(data._value)
    if isinstance(data, (list, tuple)) and any(isinstance(d, Tensor) for d in _flat(data)):
        data = _tolist(data)
    host = np.array(data)
    if host.dtype == object:
        bad = next((d for d in _flat(data) if not isinstance(d, (bool, int, float, complex, np.generic))), data) \
            if isinstance(data, (list, tuple)) else data
        raise RuntimeError(f"Could not infer dtype of {type(bad).__name__}")
    if kind_of(host.dtype) == "f" and host.dtype != np.float16:
        if not isinstance(data, np.ndarray) and not exact:
            host = host.astype(dtypes.get_default_dtype().dtype)
    elif host.dtype.kind == "c" and not isinstance(data, np.ndarray) and not exact:
        host = host.astype(np.complex64 if dtypes.get_default_dtype() is dtypes.float32 else np.complex128)
    elif host.dtype.kind in "iu" and not isinstance(data, np.ndarray):
        host = host.astype(np.int64)
    elif host.dtype.kind in "US":
        raise TypeError(f"new(): invalid data type '{host.dtype.name}'")
    if isinstance(data, np.ndarray) and any(s < 0 for s in data.strides):
        raise ValueError(_NEG_STRIDE)
    return host


_NEG_STRIDE = ("At least one stride in the given numpy array is negative, and tensors with negative "
               "strides are not currently supported. (You can probably work around this by making a "
               "copy of your array with array.copy().)")


def _flat(data):
    for d in data:
        if isinstance(d, (list, tuple)):
            yield from _flat(d)
        else:
            yield d


def _tolist(data):
    if isinstance(data, Tensor):
        return data.tolist()
    if isinstance(data, (list, tuple)):
        return [_tolist(d) for d in data]
    return data


def tensor(data, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """Always copies ``data`` (lists, numbers, numpy arrays, tensors)."""
    if isinstance(data, Tensor):
        import warnings  # noqa: PLC0415

        warnings.warn("To copy construct from a tensor, it is recommended to use sourceTensor.clone().detach() "
                      "or sourceTensor.clone().detach().requires_grad_(True), rather than torch.tensor(sourceTensor).",
                      UserWarning, stacklevel=2)
    if isinstance(dtype, str):
        raise TypeError("tensor(): argument 'dtype' must be torch.dtype, not str")
    host = _host_data(data, exact=dtype is not None)
    if host.dtype == np.float64 and dtype is not None and dtypes.as_dtype(dtype) is dtypes.uint64 \
            and not isinstance(data, np.ndarray):  # numpy infers float64 for ints past int64 mixed with others
        host = np.array(data, dtype=np.uint64)
    buf = np.array(host, copy=True)
    if device is None and isinstance(data, Tensor):
        device = data.device
    return _finish(buf, dtype, device, requires_grad)


def scalar_tensor(s, dtype=None, device=None, requires_grad=False):
    return tensor(s, dtype=dtype or dtypes.get_default_dtype(), device=device, requires_grad=requires_grad)


def as_tensor(data, dtype=None, device=None):
    """Shares memory with a numpy array or tensor when dtype and device allow."""
    if isinstance(data, Tensor):
        if (dtype is None or dtypes.as_dtype(dtype) == data.dtype) and (device is None or _device(device) == data.device):
            return data
        return data.to(dtype=dtype, device=device)
    if isinstance(data, np.ndarray):
        t = from_numpy(data)
        if dtype is not None or device is not None:
            return t.to(dtype=dtype, device=device)
        return t
    return tensor(data, dtype=dtype, device=device)


def from_numpy(a):
    """A tensor sharing memory with numpy array ``a`` (writes go both ways)."""
    if not isinstance(a, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(a).__name__})")
    if any(s < 0 for s in a.strides):
        raise ValueError(_NEG_STRIDE)
    dtypes.from_numpy_dtype(a.dtype)
    if not a.flags.writeable:
        import warnings  # noqa: PLC0415

        warnings.warn("The given NumPy array is not writable, and PyTorch does not support non-writable tensors.",
                      UserWarning, stacklevel=2)
    return wrap(a)


def _shape(size):
    if len(size) == 1 and isinstance(size[0], (tuple, list, Size)):
        size = tuple(size[0])
    out = []
    for s in size:
        if isinstance(s, Tensor):
            s = int(s)
        if not isinstance(s, (int, np.integer)) or isinstance(s, bool):
            raise TypeError(f"expected a sequence of integers for the size, got {type(s).__name__}")
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: {list(size)}")
        if s > _INT64_MAX:
            raise TypeError(f"argument 'size' failed to unpack the object at pos {len(out) + 1} with error "
                            "\"Overflow when unpacking long long\"")
        out.append(int(s))
    total = 1
    for s in out:
        total *= s
    if total * 8 > _INT64_MAX:
        raise RuntimeError(f"Storage size calculation overflowed with sizes={out}")
    return tuple(out)


_INT64_MAX = 2 ** 63 - 1


def _allocates(fn):
    """A factory function whose buffer cannot be allocated raises PyTorch's RuntimeError (numpy: MemoryError,
    or ValueError for sizes past its limits), naming what was asked for."""
    @functools.wraps(fn)
    def factory(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except MemoryError as e:
            raise RuntimeError(f"{fn.__name__}(): DefaultCPUAllocator: can't allocate memory: {e}") from None
        except ValueError as e:
            if "array is too big" in str(e) or "Maximum allowed dimension" in str(e):
                raise RuntimeError(f"{fn.__name__}(): can't allocate memory: {e}") from None
            raise
    return factory


def _sizes(fname, dims, size):
    """The size of a factory function, given as ``f(2, 3)``, ``f((2, 3))`` or ``f(size=(2, 3))``."""
    if size is None:
        return _shape(dims)
    if dims:
        raise TypeError(f"{fname}() got multiple values for argument 'size'")
    return _shape((size,))


def _dt(dtype, default=None):
    return dtypes.as_dtype(dtype).dtype if dtype is not None else (default or dtypes.get_default_dtype().dtype)


def _alloc(name, shape, npd, device, *args):
    """``xp.<name>(shape, *args, dtype)`` made directly on the target device (no host copy)."""
    dev = default_for(device)
    if dev is None:
        return getattr(np, name)(shape, *args, dtype=npd)
    bd = _device(dev)._backend_device()
    be = backend.get_backend(bd)
    if be.kind == "cuda":
        with be.xp.cuda.Device(bd.index):
            return getattr(be.xp, name)(shape, *args, dtype=npd)
    return getattr(be.xp, name)(shape, *args, dtype=npd)


@_allocates
def zeros(*dims, size=None, out=None, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False):
    return _finish(_alloc("zeros", _sizes("zeros", dims, size), _dt(dtype), device), None, device, requires_grad)


@_allocates
def ones(*dims, size=None, out=None, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False):
    return _finish(_alloc("ones", _sizes("ones", dims, size), _dt(dtype), device), None, device, requires_grad)


@_allocates
def empty(*dims, size=None, out=None, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False,
          memory_format=None):
    r = _finish(_alloc("empty", _sizes("empty", dims, size), _dt(dtype), device), None, device, requires_grad)
    if memory_format is not None:
        from .memory_format import check_format, preserve_format, relayout  # noqa: PLC0415

        if check_format(memory_format, "empty") is preserve_format:
            raise RuntimeError("unsupported memory format Preserve")
        r._value = relayout(r._value, memory_format)
    return r


def empty_strided(size, stride, *, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False):
    t = empty(tuple(size), dtype=dtype, device=device, requires_grad=requires_grad)
    return t


@_allocates
def full(size, fill_value, *, out=None, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False):
    if not isinstance(fill_value, (bool, int, float, complex, np.generic, Tensor)):
        raise TypeError(f"full(): argument 'fill_value' (position 2) must be Number, not {type(fill_value).__name__}")
    if dtype is None:
        dtype = dtypes.result_type(fill_value)
    if isinstance(fill_value, Tensor):
        fill_value = fill_value.item()
    return _finish(_alloc("full", _shape((size,)), _dt(dtype), device, fill_value), None, device, requires_grad)


@_allocates
def arange(start, end=None, step=1, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    if end is None:
        start, end = 0, start
    vals = [v.item() if isinstance(v, Tensor) else v for v in (start, end, step)]
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (vals[1] - vals[0]) * vals[2] < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if dtype is None:
        dtype = dtypes.get_default_dtype() if any(isinstance(v, float) for v in vals) else dtypes.int64
    npd = _dt(dtype)
    buf = np.arange(*vals, dtype=np.float64 if kind_of(npd) == "f" else None).astype(npd)
    return _finish(buf, None, device, requires_grad)


def range(start=0, end=None, step=1, *, dtype=None, device=None, requires_grad=False):  # noqa: A001
    import warnings  # noqa: PLC0415

    warnings.warn("torch.range is deprecated and will be removed in a future release because its behavior "
                  "is inconsistent with Python's range builtin. Instead, use torch.arange, which produces "
                  "values in [start, end).", UserWarning, stacklevel=2)
    if end is None:
        start, end = 0, start
    n = int(np.floor((end - start) / step)) + 1
    buf = (start + step * np.arange(n)).astype(_dt(dtype))
    return _finish(buf, None, device, requires_grad)


def _steps(steps):
    if int(steps) < 0:
        raise RuntimeError("number of steps must be non-negative")
    return int(steps)


@_allocates
def linspace(start, end, steps, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    return _finish(np.linspace(start, end, _steps(steps)).astype(_dt(dtype)), None, device, requires_grad)


@_allocates
def logspace(start, end, steps, base=10.0, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    return _finish(np.logspace(start, end, _steps(steps), base=base).astype(_dt(dtype)), None, device, requires_grad)


@_allocates
def eye(n, m=None, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    for name, v in (("n", n), ("m", m)):
        if v is not None and v < 0:
            raise RuntimeError(f"{name} must be greater or equal to 0, got {v}")
    return _finish(np.eye(n, m, dtype=_dt(dtype)), None, device, requires_grad)


def _floating_samples(draw, shape, npd, kernel, complex_scale=1.0):
    """Samples of a floating or complex dtype as PyTorch draws them: a complex dtype gets independent
    real and imaginary parts, each scaled by ``complex_scale`` (randn: sqrt(1/2), each of variance 1/2);
    integer and bool dtypes are PyTorch's NotImplementedError naming ``kernel``."""
    if npd.kind in "biu":
        from ._validate import scalar_name  # noqa: PLC0415

        raise NotImplementedError(f'"{kernel}" not implemented for \'{scalar_name(npd)}\'')
    if npd.kind == "c":
        return ((draw(shape) + 1j * draw(shape)) * complex_scale).astype(npd)
    return draw(shape).astype(npd)


@_allocates
def rand(*dims, size=None, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
         pin_memory=False):
    rng = _rng(generator, batched_draw=True)
    return _random_tensor(lambda shape: _finish(_floating_samples(rng.random, shape, _dt(dtype), "check_uniform_bounds"),
                                                None, device, requires_grad), _sizes("rand", dims, size))


@_allocates
def randn(*dims, size=None, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
          pin_memory=False):
    rng = _rng(generator, batched_draw=True)
    return _random_tensor(lambda shape: _finish(_floating_samples(rng.standard_normal, shape, _dt(dtype),
                                                                  "normal_kernel_cpu", complex_scale=np.sqrt(0.5)),
                                                None, device, requires_grad), _sizes("randn", dims, size))


@_allocates
def randint(low=0, high=None, size=None, *, generator=None, out=None, dtype=None, layout=None, device=None,
            requires_grad=False):
    if size is None and isinstance(high, (tuple, list)):  # the randint(high, size) overload
        low, high, size = 0, low, high
    if high is None:
        low, high = 0, low
    if size is None:
        raise TypeError("randint() missing required argument 'size'")
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    rng = _rng(generator, batched_draw=True)
    return _random_tensor(lambda shape: _finish(rng.integers(low, high, shape).astype(_dt(dtype, np.dtype(np.int64))),
                                                None, device, requires_grad), _shape((size,)))


@_allocates
def randperm(n, *, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    if int(n) < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {int(n)}: [{int(n)}]")
    return _finish(_rng(generator).permutation(int(n)).astype(_dt(dtype, np.dtype(np.int64))), None, device,
                   requires_grad)


@_allocates
def normal(mean=0.0, std=1.0, size=None, *, generator=None, out=None, dtype=None, device=None, requires_grad=False):
    m = backend.to_numpy(mean._value) if isinstance(mean, Tensor) else mean
    s = backend.to_numpy(std._value) if isinstance(std, Tensor) else std
    if bool(np.any(np.asarray(s) < 0)):
        raise RuntimeError("normal expects all elements of std >= 0.0" if isinstance(std, Tensor) else
                           f"normal expects std >= 0.0, but found std {std}")
    shape = _shape((size,)) if size is not None else np.broadcast_shapes(np.shape(m), np.shape(s))
    like = mean if isinstance(mean, Tensor) else std if isinstance(std, Tensor) else None
    npd = _dt(dtype, like._value.dtype if like is not None else None)
    # real samples are drawn in float64 (then shifted, scaled and cast); complex ones in their dtype
    z = _floating_samples(_rng(generator).standard_normal, shape, np.dtype(np.float64) if kind_of(npd) == "f" else npd,
                          "normal_kernel_cpu", complex_scale=np.sqrt(0.5))
    buf = (m + s * z).astype(npd)
    if device is None and like is not None:
        device = like.device  # samples go where the given mean/std live
    return _finish(buf, None, device, requires_grad)


def _like(fn, t, dtype, device, requires_grad, *args, memory_format=None, **kw):
    if not isinstance(t, Tensor):
        raise TypeError(f"{fn.__name__}_like(): argument 'input' (position 1) must be Tensor, not {type(t).__name__}")
    dtype = t.dtype if dtype is None else dtype
    device = t.device if device is None else device
    return _laid_like(fn(*args, tuple(t.shape), dtype=dtype, device=device, requires_grad=requires_grad, **kw),
                      t, memory_format)


def _laid_like(r, t, memory_format):
    """``r`` (fresh, C-ordered) in ``memory_format``; preserve_format (the default) takes ``t``'s layout."""
    from .memory_format import laid_out_like  # noqa: PLC0415

    r._value = laid_out_like(r._value, t._value, memory_format)
    return r


def zeros_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    return _like(zeros, input, dtype, device, requires_grad, memory_format=memory_format)


def ones_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    return _like(ones, input, dtype, device, requires_grad, memory_format=memory_format)


def empty_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    return _like(empty, input, dtype, device, requires_grad, memory_format=memory_format)


def full_like(input, fill_value, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    dtype = input.dtype if dtype is None else dtype
    return _laid_like(full(tuple(input.shape), fill_value, dtype=dtype, device=device or input.device,
                           requires_grad=requires_grad), input, memory_format)


def rand_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    return _like(rand, input, dtype, device, requires_grad, memory_format=memory_format)


def randn_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    return _like(randn, input, dtype, device, requires_grad, memory_format=memory_format)


def randint_like(input, low=0, high=None, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    if high is None:
        low, high = 0, low
    return _laid_like(randint(low, high, tuple(input.shape), dtype=dtype or input.dtype, device=device or input.device),
                      input, memory_format)


def legacy_new(dtype, args, device=None):
    """``Tensor(2, 3)`` (uninitialised, that shape), ``Tensor([[1, 2]])`` / ``Tensor((2, 3))`` (data),
    ``Tensor(np_array)`` (shares memory when no conversion is needed), ``Tensor(size)``."""
    dt = dtypes.as_dtype(dtype)
    if not args:
        return _finish(np.empty((0,), dt.dtype), None, device)
    if len(args) == 1:
        a = args[0]
        if isinstance(a, Size):
            return _finish(np.empty(tuple(a), dt.dtype), None, device)
        if isinstance(a, Tensor):
            if a._value.dtype == dt.dtype:
                return a.detach() if a.grad_fn is None and not a._req else wrap(a._value)
            raise TypeError(f"expected {dt} (got {a.dtype})")
        if isinstance(a, np.ndarray):
            if a.dtype == dt.dtype:
                if any(s < 0 for s in a.strides):
                    raise ValueError(_NEG_STRIDE)
                return wrap(a)
            return _finish(np.array(_host_data(a, exact=True), dtype=dt.dtype), None, device)
        if isinstance(a, (list, tuple)) or (hasattr(a, "__len__") and not isinstance(a, (int, np.integer))):
            return _finish(np.array(_host_data(a, exact=True), dtype=dt.dtype), None, device)
    if all(isinstance(a, (int, np.integer)) and not isinstance(a, bool) for a in args):
        return _finish(np.empty(_shape(args), dt.dtype), None, device)
    raise TypeError(f"new(): invalid arguments {args!r}: expected a size (ints) or data (sequence, ndarray)")


class LegacyTensorType:
    """``torch.FloatTensor`` etc.: constructors with a fixed dtype (and ``x.type(torch.FloatTensor)``)."""

    def __init__(self, d):
        self._compat_dtype = d
        self.__name__ = d.legacy

    def __call__(self, *args, device=None):
        return legacy_new(self._compat_dtype, args, device)

    def __instancecheck__(self, obj):
        return isinstance(obj, Tensor) and obj.dtype is self._compat_dtype

    def __repr__(self):
        return f"<class 'torch.{self.__name__}'>"

    def __str__(self):
        return f"torch.{self.__name__}"


LEGACY = {d.legacy: LegacyTensorType(d) for d in dtypes.dtype._BY_NP.values()}
