"""funcgrad.compat: PyTorch's Tensor and autograd on funcgrad's functional core.

``import funcgrad.compat as torch``.  A :class:`Tensor` owns mutable storage
(numpy on the CPU) and autograd metadata, and is a tracer of one persistent
eager trace at level 0: every funcgrad.numpy function and every primitive's
vjp rule accepts Tensors, so gradients (to any order, with
``create_graph=True``) come from the core's rules.  See docs/compat.md.
"""

from __future__ import annotations

import builtins as _builtins
import math as _math

from . import dtypes as _dtypes
from .autograd import graph as _graph  # noqa: F401  (installs the compat trace)
from ._dispatch import FUNCS as _FUNCS, METHODS as _METHODS
from ._out import install as _install_out
from ..backend import kind_of as _kind_of
from . import ops_elementwise, ops_shape, ops_index, ops_convert, ops_reduce, ops_linalg, ops_rounding  # noqa: F401
from . import ops_sequence, ops_build, ops_complex  # noqa: F401,E402
from . import ops_math_extra, ops_shape_extra, ops_stats  # noqa: F401,E402
from . import ops_math_more, tensor_info  # noqa: F401,E402
from . import inplace_methods as _inplace_methods  # noqa: F401
from . import spectral as _spectral  # noqa: F401  (stft, istft)
from .creation import *  # noqa: F401,F403
from .creation import LEGACY as _LEGACY
from .creation import manual_seed as _creation_manual_seed
from .device import device, get_default_device, set_default_device  # noqa: F401
from .dtypes import (  # noqa: F401
    bfloat16, bool, cdouble, cfloat, complex64, complex128, double, dtype, float, float16, float32, float64,
    get_default_dtype, half, int, int8, int16, int32, int64, long, short, uint8, promote_types, can_cast,
    uint16, uint32, uint64, float8_e4m3fn, float8_e5m2,
)
from .autograd.grad_mode import (  # noqa: F401
    enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled, no_grad, set_grad_enabled,
)
from .printing import set_printoptions  # noqa: F401
from .tensor import Size, Tensor  # noqa: F401
from . import autograd  # noqa: E402,F401
from . import linalg  # noqa: E402,F401
from . import nn, optim, utils  # noqa: E402,F401
from . import ops_nn_aliases  # noqa: E402,F401  (torch.conv2d, torch.dropout, ...: ATen signatures)
from . import ops_view_copy  # noqa: E402,F401
from .creation_more import *  # noqa: E402,F401,F403
from .runtime_switches import *  # noqa: E402,F401,F403
from .control_flow import *  # noqa: E402,F401,F403
from . import fft, func, special  # noqa: E402,F401
from .serialization import load, save  # noqa: E402,F401
from .sampling import multinomial  # noqa: E402,F401
from . import _layout, backends, distributions, jit, onnx, version  # noqa: E402,F401  (torch.nn.modules.*, torch.backends, ...)
from .compile import compile  # noqa: E402,F401
from .func import vmap  # noqa: E402,F401
from .amp import GradScaler  # noqa: E402,F401
from . import amp, multiprocessing, random, testing  # noqa: E402,F401
from . import accelerator  # noqa: E402,F401
from .device_module import get_device_module  # noqa: E402,F401
from . import signal  # noqa: E402,F401  (torch.signal.windows)
from .memory_format import (  # noqa: E402,F401
    channels_last, channels_last_3d, contiguous_format, legacy_contiguous_format, memory_format, preserve_format)
from .amp import (  # noqa: E402,F401
    autocast, clear_autocast_cache, get_autocast_cpu_dtype, get_autocast_dtype, get_autocast_gpu_dtype,
    is_autocast_available, is_autocast_cache_enabled, is_autocast_cpu_enabled, is_autocast_enabled,
    set_autocast_cache_enabled, set_autocast_dtype,
)
from .amp.legacy import cpu  # noqa: E402,F401  (torch.cpu, with torch.cpu.amp)
from .settings import (  # noqa: E402,F401
    are_deterministic_algorithms_enabled, get_float32_matmul_precision, is_deterministic_algorithms_warn_only_enabled,
    set_float32_matmul_precision, use_deterministic_algorithms,
)

from . import sparse  # noqa: E402  (torch.sparse; routes sparse operands of mm/matmul: before the loops below)
from .sparse import sparse_coo, sparse_coo_tensor, sparse_csr, sparse_csr_tensor, spmm  # noqa: E402,F401

# dtype rules per PyTorch op (op_wrappers.py), installed once every op is registered and before they are
# copied onto torch and Tensor: bfloat16 ops compute in float32 like PyTorch's kernels; the ops PyTorch
# lacks for uint16/32/64 and float8 raise its errors
from . import bfloat16_ops as _bfloat16_ops, dtypes_limited as _dtypes_limited  # noqa: E402

_bfloat16_ops.install()
_dtypes_limited.install()

for _name, _fn in _METHODS.items():
    setattr(Tensor, _name, _fn)
Tensor.multinomial = multinomial
# the builtin range: this module's own ``range`` is torch.range
Tensor.T = property(lambda self: self.permute(*reversed(_builtins.range(self.dim()))))
Tensor.mT = property(lambda self: self.transpose(-2, -1))
Tensor.H = Tensor.mH = property(lambda self: self.transpose(-2, -1) if self.dim() == 2 else self)
Tensor.is_sparse = False
Tensor.is_quantized = False
Tensor.is_meta = False
globals().update({k: v for k, v in _FUNCS.items() if k not in ("float", "int", "bool", "long", "double", "half")})
globals().update(_LEGACY)
for _name in ("zeros", "ones", "empty", "full"):
    _FUNCS.setdefault(_name, globals()[_name])
_install_out(globals())  # out= on every torch.<name> that declares it (see _out.py)

pi = _math.pi
e = _math.e
inf = _math.inf
nan = _math.nan
from .layouts import layout, strided  # noqa: E402
Tensor.layout = property(lambda self: strided)
__version__ = version.__version__


def set_default_dtype(d):
    _dtypes.set_default_dtype(d)


def set_default_tensor_type(t):
    """``set_default_tensor_type('torch.DoubleTensor')`` (deprecated in PyTorch: prefer set_default_dtype)."""
    import warnings

    warnings.warn("torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use "
                  "torch.set_default_dtype() and torch.set_default_device() as alternatives.",
                  UserWarning, stacklevel=2)
    name = t if isinstance(t, str) else "torch." + t.__name__
    d = _dtypes.as_dtype(name[6:] if name.startswith("torch.") else name)
    if _kind_of(d.dtype) != "f":  # bfloat16 (an ml_dtypes type, numpy kind 'V') is floating too
        raise TypeError("only floating-point types are supported as the default type")
    _dtypes.set_default_dtype(d)


def is_tensor(obj):
    return isinstance(obj, Tensor)


def is_floating_point(input):
    return input.is_floating_point()


def is_complex(input):
    return input.is_complex()


def numel(input):
    return input.numel()


def typename(obj):
    return obj.type() if isinstance(obj, Tensor) else type(obj).__name__


def set_num_threads(n):
    """Accepted for compatibility (numpy's BLAS decides its threads)."""


def get_num_threads():
    return 1


def result_type(tensor1, tensor2):
    return _dtypes.result_type(tensor1, tensor2)


class _Cuda:
    """torch.cuda: availability and device count from funcgrad's backend (cupy)."""

    @staticmethod
    def is_available():
        from .. import backend

        return backend.cuda_available()

    @staticmethod
    def device_count():
        from .. import backend

        return len(backend.devices("cuda")) if backend.cuda_available() else 0

    @staticmethod
    def manual_seed(s):
        _creation_manual_seed(s)

    manual_seed_all = manual_seed

    @staticmethod
    def synchronize(device=None):  # noqa: F811
        pass

    @staticmethod
    def _pool():
        from .. import backend

        return backend._cupy().xp.get_default_memory_pool() if backend.cuda_available() else None

    @staticmethod
    def empty_cache():
        """Return cupy's cached, unused GPU blocks to the driver (nothing to do without a GPU)."""
        pool = _Cuda._pool()
        if pool is not None:
            pool.free_all_blocks()

    @staticmethod
    def memory_allocated(device=None):
        """Bytes of GPU memory held by arrays (cupy's memory pool); 0 without a GPU, as PyTorch's CPU build."""
        pool = _Cuda._pool()
        return 0 if pool is None else int(pool.used_bytes())

    @staticmethod
    def memory_reserved(device=None):
        """Bytes of GPU memory the pool holds, used or cached; 0 without a GPU."""
        pool = _Cuda._pool()
        return 0 if pool is None else int(pool.total_bytes())


cuda = _Cuda()
cuda.amp = amp.cuda_amp  # torch.cuda.amp (deprecated aliases of torch.amp)
cuda.__path__ = []  # ``from torch.cuda.amp import ...`` under the launcher: torch.cuda is a package there
