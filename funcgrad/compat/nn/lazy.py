"""Lazy modules: UninitializedParameter / UninitializedBuffer, LazyModuleMixin, and the lazy forms of
Conv, ConvTranspose, BatchNorm and InstanceNorm (LazyLinear is in linear.py).

A lazy module is built without its input size; its parameters are placeholders whose shape is unknown.
The first call reads the size off the input (``in_channels = input.shape[1]``, or ``shape[0]`` for an
unbatched convolution input), materializes every placeholder with its real shape, runs
``reset_parameters`` and turns the module into its ``cls_to_become`` (``LazyConv2d`` -> ``Conv2d``),
as PyTorch does. Build the optimizer after that first call: the placeholders are not the parameters
that train.
"""

from __future__ import annotations

from .. import creation as _c
from ..tensor import Tensor
from .conv import Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from .module import Module
from .normalization import (BatchNorm1d, BatchNorm2d, BatchNorm3d, InstanceNorm1d, InstanceNorm2d,
                            InstanceNorm3d)
from .parameter import Parameter

__all__ = ["UninitializedParameter", "UninitializedBuffer", "LazyModuleMixin",
           "LazyConv1d", "LazyConv2d", "LazyConv3d", "LazyConvTranspose1d", "LazyConvTranspose2d",
           "LazyConvTranspose3d", "LazyBatchNorm1d", "LazyBatchNorm2d", "LazyBatchNorm3d",
           "LazyInstanceNorm1d", "LazyInstanceNorm2d", "LazyInstanceNorm3d"]

_UNKNOWN = ("Can't access the shape of an uninitialized parameter or buffer. This error usually happens in "
            "`load_state_dict` when trying to load an uninitialized parameter into an initialized one. Call "
            "`forward` to initialize the parameters before accessing their attributes.")


class UninitializedTensorMixin:
    """A placeholder whose shape is not known yet: ``materialize(shape)`` gives it storage and its real class.

    Its members are copied onto UninitializedParameter / UninitializedBuffer (``_placeholder``) rather than
    inherited, so those keep Parameter's / Tensor's object layout and can become them (``__class__``)."""

    _uninitialized = True
    cls_to_become = Tensor

    def materialize(self, shape, device=None, dtype=None):
        """Allocate ``shape`` (uninitialized values, like ``torch.empty``) and become ``cls_to_become``."""
        buf = self.__dict__.get("_value")
        device = self.device if device is None else device
        dtype = self.dtype if dtype is None else dtype
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        self._value = _c.empty(shape, device=device, dtype=dtype)._value
        self.__class__ = self.cls_to_become
        del buf

    @property
    def shape(self):
        raise RuntimeError(_UNKNOWN)

    def size(self, dim=None):
        raise RuntimeError(_UNKNOWN)

    def numel(self):
        raise RuntimeError(_UNKNOWN)

    def dim(self):
        raise RuntimeError(_UNKNOWN)

    def share_memory_(self):
        raise RuntimeError("Can't share memory on an uninitialized parameter or buffer. Call `forward` to "
                           "initialize the parameters before calling `module.share_memory()`.")

    def __repr__(self):
        return f"<{type(self).__name__}>"

    __str__ = __repr__

    def __reduce_ex__(self, proto):
        return (type(self), (self.requires_grad,))


def _placeholder(cls):
    for k, v in vars(UninitializedTensorMixin).items():
        if k not in ("__dict__", "__weakref__", "__doc__", "__module__", "cls_to_become"):
            setattr(cls, k, v)
    return cls


@_placeholder
class UninitializedParameter(Parameter):
    """``nn.UninitializedParameter(requires_grad=True, device=None, dtype=None)``: a lazy module's parameter
    before its first call; ``materialize`` turns it into a ``Parameter``."""

    cls_to_become = Parameter

    def __new__(cls, requires_grad=True, device=None, dtype=None):
        return Parameter.__new__(cls, _c.empty(0, device=device, dtype=dtype), requires_grad)


@_placeholder
class UninitializedBuffer(Tensor):
    """``nn.UninitializedBuffer(requires_grad=False, device=None, dtype=None)``: a lazy module's buffer before
    its first call; ``materialize`` turns it into a plain ``Tensor``."""

    cls_to_become = Tensor

    def __new__(cls, requires_grad=False, device=None, dtype=None):
        t = _c.empty(0, device=device, dtype=dtype, requires_grad=requires_grad)
        t.__class__ = cls
        return t

    def __init__(self, requires_grad=False, device=None, dtype=None):
        pass


def is_lazy(t):
    return getattr(type(t), "_uninitialized", False)


class LazyModuleMixin:
    """What every lazy module shares: on the first call, ``initialize_parameters(*args)`` infers the shapes,
    then the module becomes ``cls_to_become``. A state_dict with real tensors materializes it too."""

    cls_to_become = None

    def has_uninitialized_params(self):
        tensors = list(self._parameters.values()) + list(self._buffers.values())
        return any(is_lazy(t) for t in tensors)

    def initialize_parameters(self, *args, **kwargs):
        raise NotImplementedError(f"{type(self).__name__} must implement initialize_parameters")

    def _infer_parameters(self, *args, **kwargs):
        self.initialize_parameters(*args, **kwargs)
        if self.has_uninitialized_params():
            raise RuntimeError(f"module {self._get_name()} has not been fully initialized")
        if self.cls_to_become is not None:
            self.__class__ = self.cls_to_become

    def __call__(self, *args, **kwargs):
        if self.cls_to_become is not None and type(self) is not self.cls_to_become:  # still lazy: first call
            self._infer_parameters(*args, **kwargs)
        return Module.__call__(self, *args, **kwargs)

    def _sizes_from_parameters(self):
        """Set the inferred size attributes from materialized parameters (after a lazy load)."""

    def _materialize_from(self, state_dict, prefix):
        """Give each placeholder the shape of its entry in ``state_dict`` (PyTorch's lazy load)."""
        for store in (self._parameters, self._buffers):
            for name, t in store.items():
                key = prefix + name
                if is_lazy(t) and key in state_dict and not is_lazy(state_dict[key]):
                    t.materialize(tuple(state_dict[key].shape))


def materialize_for_load(module, state_dict):
    """Before load_state_dict copies values: materialize every lazy submodule's placeholders."""
    for prefix, m in module.named_modules():
        if isinstance(m, LazyModuleMixin) and m.has_uninitialized_params():
            m._materialize_from(state_dict, prefix + "." if prefix else "")
            if not m.has_uninitialized_params():
                m._sizes_from_parameters()
                if m.cls_to_become is not None:
                    m.__class__ = m.cls_to_become


class _LazyConvMixin(LazyModuleMixin):
    _transposed = False

    def _make_lazy(self, out_channels, bias, device, dtype):
        self.out_channels = out_channels
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.in_channels != 0:
            super().reset_parameters()

    def _sizes_from_parameters(self):
        w = self.weight._value.shape
        self.in_channels = w[0] if self._transposed else w[1] * self.groups

    def _get_in_channels(self, input):
        n = self._nd
        if input.dim() not in (n + 1, n + 2):
            raise RuntimeError(f"Expected {n + 1}D (unbatched) or {n + 2}D (batched) input to {self._get_name()}, "
                               f"but got input of size: {list(input.shape)}")
        return int(input.shape[1] if input.dim() == n + 2 else input.shape[0])

    def initialize_parameters(self, input, *args, **kwargs):
        if not self.has_uninitialized_params():
            return
        self.in_channels = self._get_in_channels(input)
        if self.in_channels % self.groups:
            raise ValueError("in_channels must be divisible by groups")
        first, second = ((self.in_channels, self.out_channels // self.groups) if self._transposed else
                         (self.out_channels, self.in_channels // self.groups))
        self.weight.materialize((first, second) + tuple(self.kernel_size))
        if self.bias is not None:
            self.bias.materialize((self.out_channels,))
        self.reset_parameters()


def _lazy_conv(base, transposed):
    def __init__(self, out_channels, kernel_size, stride=1, padding=0, *rest, device=None, dtype=None, **kw):
        if transposed:  # (output_padding, groups, bias, dilation, padding_mode) as ConvTranspose takes them
            names = ("output_padding", "groups", "bias", "dilation", "padding_mode")
            defaults = dict(output_padding=0, groups=1, bias=True, dilation=1, padding_mode="zeros")
        else:
            names = ("dilation", "groups", "bias", "padding_mode")
            defaults = dict(dilation=1, groups=1, bias=True, padding_mode="zeros")
        if len(rest) > len(names):
            raise TypeError(f"{type(self).__name__}() takes at most {4 + len(names)} positional arguments")
        defaults.update(zip(names, rest))
        for k, v in kw.items():
            if k not in defaults:
                raise TypeError(f"{type(self).__name__}.__init__() got an unexpected keyword argument '{k}'")
            defaults[k] = v
        bias = defaults.pop("bias")
        # in_channels 0 (and no bias) for now, as PyTorch's lazy convolutions do
        base.__init__(self, 0, 0, kernel_size, stride, padding, bias=False, device=device, dtype=dtype, **defaults)
        self._make_lazy(out_channels, bias, device, dtype)

    name = "Lazy" + base.__name__
    doc = (f"``{base.__name__}`` whose ``in_channels`` is inferred from the first input "
           f"(``input.shape[1]``, or ``shape[0]`` unbatched); it then becomes a ``{base.__name__}``.")
    return type(name, (_LazyConvMixin, base), {"__init__": __init__, "cls_to_become": base,
                                               "_transposed": transposed, "__doc__": doc, "__module__": __name__})


LazyConv1d = _lazy_conv(Conv1d, False)
LazyConv2d = _lazy_conv(Conv2d, False)
LazyConv3d = _lazy_conv(Conv3d, False)
LazyConvTranspose1d = _lazy_conv(ConvTranspose1d, True)
LazyConvTranspose2d = _lazy_conv(ConvTranspose2d, True)
LazyConvTranspose3d = _lazy_conv(ConvTranspose3d, True)


class _LazyNormMixin(LazyModuleMixin):
    def _sizes_from_parameters(self):
        t = next((t for t in (self.weight, self.running_mean) if t is not None), None)
        if t is not None:
            self.num_features = t._value.shape[0]

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.num_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input, *args, **kwargs):
        if self.num_features != 0 and not self.has_uninitialized_params():
            return
        if input.dim() < 2:
            raise ValueError(f"expected at least 2D input to {self._get_name()} (got {input.dim()}D input)")
        self.num_features = int(input.shape[1] if input.dim() > self._unbatched_dim else input.shape[0])
        for name in ("weight", "bias", "running_mean", "running_var"):
            t = getattr(self, name)
            if t is not None:
                t.materialize((self.num_features,))
        self.reset_parameters()


def _lazy_norm(base, default_affine, default_track, unbatched_dim):
    def __init__(self, eps=1e-5, momentum=0.1, affine=default_affine, track_running_stats=default_track,
                 device=None, dtype=None):
        base.__init__(self, 0, eps, momentum, False, False, device=device, dtype=dtype)
        self.affine, self.track_running_stats = affine, track_running_stats
        if affine:
            self.weight = UninitializedParameter(device=device, dtype=dtype)
            self.bias = UninitializedParameter(device=device, dtype=dtype)
        if track_running_stats:
            self.running_mean = UninitializedBuffer(device=device, dtype=dtype)
            self.running_var = UninitializedBuffer(device=device, dtype=dtype)
            from ..dtypes import int64  # noqa: PLC0415

            self.num_batches_tracked = _c.tensor(0, dtype=int64, device=device)

    bases = (_LazyNormMixin, base)
    doc = (f"``{base.__name__}`` whose ``num_features`` is inferred from the first input's channel dimension; "
           f"it then becomes a ``{base.__name__}``.")
    return type("Lazy" + base.__name__, bases, {"__init__": __init__, "cls_to_become": base, "__doc__": doc,
                                                "_unbatched_dim": unbatched_dim, "__module__": __name__})


LazyBatchNorm1d = _lazy_norm(BatchNorm1d, True, True, 1)
LazyBatchNorm2d = _lazy_norm(BatchNorm2d, True, True, 1)
LazyBatchNorm3d = _lazy_norm(BatchNorm3d, True, True, 1)
LazyInstanceNorm1d = _lazy_norm(InstanceNorm1d, False, False, 2)
LazyInstanceNorm2d = _lazy_norm(InstanceNorm2d, False, False, 3)
LazyInstanceNorm3d = _lazy_norm(InstanceNorm3d, False, False, 4)
