"""The Tensor: mutable storage plus autograd metadata, a tracer of the compat trace.

A Tensor's ``_value`` is a writeable backend buffer (a numpy array on the CPU).
Views (``view``, slicing, ``t()``, ``detach()``, ``from_numpy``) are buffers
sharing memory with their base and share its version counter ``_vc`` (a
one-element list).  Autograd metadata: ``_req`` (a leaf's requires_grad flag),
``grad_fn``/``_output_nr`` (the node that produced a non-leaf), ``_grad``, the
hooks and retain_grad flags live on the grad_fn (non-leaves) or the tensor
(leaves).  Attributes have class-level defaults so making a result costs one
object and one attribute set.

Operators and methods are attached by the ops modules (this one holds the
state and the autograd entry points).
"""

from __future__ import annotations

import numpy as np

from .. import backend
from ..backend import standin as _standin
from ..backend import is_float_dtype, kind_of
from ..core import Tracer
from . import _validate, dtypes

__all__ = ["Tensor", "TENSOR_TYPES", "wrap", "Size"]

TENSOR_TYPES: set = set()


class Size(tuple):
    """torch.Size: a tuple of ints."""

    def __repr__(self):
        return f"torch.Size([{', '.join(map(str, self))}])"

    def numel(self):
        return int(np.prod(self, dtype=np.int64))

    def __getitem__(self, i):
        r = tuple.__getitem__(self, i)
        return Size(r) if isinstance(i, slice) else r

    # a Size combined with a tuple is a Size, on either side (as PyTorch's)
    def __add__(self, other):
        if not isinstance(other, tuple):
            raise TypeError(f"can only concatenate tuple (not {type(other).__name__}) to torch.Size")
        return Size(tuple.__add__(self, other))

    def __radd__(self, other):
        if not isinstance(other, tuple):
            raise TypeError(f"can only concatenate tuple (not {type(other).__name__}) to torch.Size")
        return Size(tuple.__add__(other, self))

    def __mul__(self, n):
        return Size(tuple.__mul__(self, n))

    __rmul__ = __mul__


class Tensor(Tracer):
    """A PyTorch-style tensor (``import funcgrad.compat as torch``)."""

    # class-level defaults (a fresh result sets only _value and, if recorded, grad_fn)
    _trace = None  # set to the compat trace by graph.py
    grad_fn = None
    _output_nr = 0
    _req = False
    _grad = None
    _vc = None
    _base = None
    _hooks = None
    _retain = False
    _accum = None
    _name = None
    _is_param = False
    __array_priority__ = 1000

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        TENSOR_TYPES.add(cls)

    def __new__(cls, *args, device=None, dtype=None):
        from .creation import legacy_new  # noqa: PLC0415

        t = legacy_new(dtype or dtypes.get_default_dtype(), args, device)
        if cls is not Tensor:
            r = object.__new__(cls)
            r.__dict__.update(t.__dict__)
            return r
        return t

    def __init__(self, *args, **kwargs):
        pass

    # --- metadata -------------------------------------------------------------
    @property
    def shape(self):
        return Size(self._value.shape)

    @property
    def size(self):
        """``x.size()`` / ``x.size(dim)`` as PyTorch; also the element count as an int (``x.size``),
        as a funcgrad tracer, so funcgrad.nn.functional's code runs on Tensors."""
        return _SizeOf(self._value)

    @property
    def dtype(self):
        return dtypes.dtype._BY_NP[self._value.dtype]

    @property
    def device(self):
        from .device import device  # noqa: PLC0415

        return device._of(self._value)

    @property
    def is_cuda(self):
        return self.device.type == "cuda"

    @property
    def ndim(self):
        return self._value.ndim

    def dim(self):
        return self._value.ndim

    ndimension = dim

    def numel(self):
        return int(self._value.size)

    nelement = numel

    def element_size(self):
        return self._value.dtype.itemsize

    def stride(self, dim=None):
        isz = self._value.dtype.itemsize
        st = tuple(s // isz for s in self._value.strides)
        return st if dim is None else st[_dim(dim, self._value.ndim)]

    def storage_offset(self):
        return (_addr(self._value) - _lowest(root(self._value))) // self._value.dtype.itemsize

    def _concrete(self):
        return self._value

    def data_ptr(self):
        return _addr(self._value)

    def is_contiguous(self, memory_format=None):
        return bool(self._value.flags.c_contiguous)

    def is_floating_point(self):
        return kind_of(self._value.dtype) == "f"

    def is_complex(self):
        return self._value.dtype.kind == "c"

    @property
    def layout(self):
        return "torch.strided"

    @property
    def _version(self):
        return 0 if self._vc is None else self._vc[0]

    def _bump(self):
        vc = self._vc
        if vc is None:
            self._vc = [1]
        else:
            vc[0] += 1

    # --- autograd metadata -----------------------------------------------------
    @property
    def requires_grad(self):
        return self._req or self.grad_fn is not None

    @requires_grad.setter
    def requires_grad(self, flag):
        self.requires_grad_(flag)

    def requires_grad_(self, requires_grad=True):
        if self.grad_fn is not None:
            msg = "you can only change requires_grad flags of leaf variables."
            if not requires_grad:
                msg += (" If you want to use a computed variable in a subgraph that doesn't require "
                        "differentiation use var_no_grad = var.detach().")
            raise RuntimeError(msg)
        if requires_grad and not is_float_dtype(self._value.dtype):
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        self._req = bool(requires_grad)
        return self

    @property
    def volatile(self):
        """Removed in PyTorch 0.4: always False (with a warning)."""
        import warnings  # noqa: PLC0415

        warnings.warn("volatile was removed (Variable.volatile is always False)", UserWarning, stacklevel=2)
        return False

    @volatile.setter
    def volatile(self, value):
        import warnings  # noqa: PLC0415

        warnings.warn("volatile was removed and now has no effect. Use `with torch.no_grad():` instead.",
                      UserWarning, stacklevel=2)

    @property
    def is_leaf(self):
        return self.grad_fn is None

    @property
    def grad(self):
        if self.grad_fn is not None and not self._retain_flag():
            import warnings  # noqa: PLC0415

            warnings.warn(
                "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
                "attribute won't be populated during autograd.backward(). If you indeed want the .grad "
                "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor.",
                UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value):
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(f"assigned grad expected to be a Tensor or None but got grad of type {type(value).__name__}")
            if tuple(value.shape) != tuple(self.shape):
                raise RuntimeError(f"assigned grad has data of a different size: {tuple(value.shape)} vs {tuple(self.shape)}")
            if value._value.dtype != self._value.dtype:
                raise RuntimeError(f"assigned grad has data of a different type: {value.dtype} vs {self.dtype}")
        self._grad = value

    def _retain_flag(self):
        fn = self.grad_fn
        return fn is not None and fn.retains is not None and self._output_nr in fn.retains

    @property
    def retains_grad(self):
        return self._retain_flag()

    def retain_grad(self):
        fn = self.grad_fn
        if fn is None:
            if not self._req:
                raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
            return
        import weakref  # noqa: PLC0415

        if fn.retains is None:
            fn.retains = {}
        fn.retains[self._output_nr] = weakref.ref(self)
        fn.plain = False

    def register_hook(self, hook):
        """``hook(grad)`` runs when this tensor's gradient is computed; a returned tensor replaces it."""
        from .utils.hooks import RemovableHandle  # noqa: PLC0415

        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        fn = self.grad_fn
        if fn is None:
            if self._hooks is None:
                self._hooks = []
            return RemovableHandle(self._hooks, hook)
        if fn.pre_hooks is None:
            fn.pre_hooks = {}
        fn.plain = False
        return RemovableHandle(fn.pre_hooks.setdefault(self._output_nr, []), hook)

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None, **kwargs):
        from .autograd.engine import backward  # noqa: PLC0415

        backward([self], None if gradient is None else [gradient], retain_graph, create_graph,
                 inputs=inputs, **kwargs)

    def detach(self):
        """A tensor sharing storage and version counter, out of the graph."""
        r = wrap(self._value)
        vc = self._vc
        if vc is None:
            vc = self._vc = [0]
        r._vc = vc
        return r

    def detach_(self):
        if self._base is not None and self._base.requires_grad:
            raise RuntimeError("Can't detach views in-place. Use detach() instead.")
        self.grad_fn = None
        self._output_nr = 0
        self._req = False
        return self

    @property
    def data(self):
        """Same storage, a separate version counter: writes here escape autograd's checks."""
        return wrap(self._value)

    @data.setter
    def data(self, value):
        if not isinstance(value, Tensor):
            raise TypeError(f"data must be a Tensor, got {type(value).__name__}")
        self._value = value._value
        self._base = value._base if value._base is not None else value

    # --- conversion -----------------------------------------------------------------
    def numpy(self, *, force=False):
        if self.requires_grad and not force:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
        if self.device.type != "cpu" and not force:
            raise TypeError(f"can't convert {self.device} device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first.")
        return backend.to_numpy(self._value) if not isinstance(self._value, np.ndarray) else self._value

    def __array__(self, dtype=None, copy=None):
        host = self.numpy()
        if dtype is not None and np.dtype(dtype) != host.dtype:
            if copy is False:
                raise ValueError(f"Unable to avoid copy while creating an array as requested: "
                                 f"the tensor is {host.dtype}, not {np.dtype(dtype)}")
            return host.astype(dtype)
        return host.copy() if copy else host

    def tolist(self):
        return backend.to_numpy(self._value).tolist()

    def item(self):
        if self._value.size != 1:
            raise RuntimeError(f"a Tensor with {self._value.size} elements cannot be converted to Scalar")
        return self._value.item()

    def __len__(self):
        if self._value.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._value.shape[0]

    def __iter__(self):
        if self._value.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(self._value.shape[0]))

    def __bool__(self):
        if self._value.size != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self._value.item())

    def __float__(self):
        return float(self.item())

    def __int__(self):
        return int(self.item())

    def __complex__(self):
        return complex(self.item())

    def __index__(self):
        if self._value.dtype.kind not in "iub" or self._value.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    def __format__(self, spec):
        if self._value.ndim == 0:
            return format(self.item(), spec)
        return format(repr(self), spec)

    __hash__ = object.__hash__

    def __repr__(self):
        from .printing import tensor_repr  # noqa: PLC0415

        return tensor_repr(self)

    __str__ = __repr__

    def __reduce_ex__(self, proto):
        dev = None if type(self._value) is np.ndarray else str(backend.device_of(self._value))
        return (_rebuild, (np.array(backend.to_numpy(self._value)), self._req, dev))

    def __deepcopy__(self, memo):
        if self.grad_fn is not None:
            raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol at the moment.")
        r = wrap(self._value.copy())
        r._req = self._req
        if self._grad is not None:
            r._grad = wrap(self._grad._value.copy())
        memo[id(self)] = r
        return r


TENSOR_TYPES.add(Tensor)


class _SizeOf(int):
    """The element count (an int) that, called, gives PyTorch's ``size()`` / ``size(dim)``."""

    def __new__(cls, buf):
        r = int.__new__(cls, buf.size)
        r._shape = buf.shape
        return r

    def __call__(self, dim=None):
        if dim is None:
            return Size(self._shape)
        return self._shape[_dim(dim, len(self._shape))]


_new = object.__new__


def wrap(buf, requires_grad=False):
    t = _new(Tensor)
    t._value = buf
    if requires_grad:
        t._req = True
    return t


def _rebuild(host, req, dev=None):
    t = wrap(host if dev is None else backend.put_buffer(host, dev))
    t._req = req
    return t


_dim = _validate.dim  # a dim checked and wrapped (compat's one validation module)


def _host_mem(buf):
    """The stand-in device's memory is host memory: its numpy array has the addresses."""
    return buf._a if type(buf) is _standin.StandinArray else buf


def _addr(buf):
    """Address of a buffer's first element (numpy, stand-in, or cupy's device pointer)."""
    buf = _host_mem(buf)
    return buf.__array_interface__["data"][0] if isinstance(buf, np.ndarray) else buf.data.ptr


def root(buf):
    """The buffer owning the memory ``buf`` views (``buf`` itself if it owns it)."""
    if type(buf) is _standin.StandinArray:
        return _standin.StandinArray(_np_root(buf._a))
    if isinstance(buf, np.ndarray):
        return _np_root(buf)
    while isinstance(getattr(buf, "base", None), type(buf)):
        buf = buf.base
    return buf


def _np_root(a):
    while True:
        b = a.base
        if isinstance(b, np.ndarray):
            a = b
        elif isinstance(getattr(b, "base", None), np.ndarray):  # through as_strided's wrapper object
            a = b.base
        else:
            return a


def _lowest(buf):
    a = _addr(buf)
    for n, s in zip(buf.shape, buf.strides):
        if s < 0 and n > 0:
            a += (n - 1) * s
    return a
