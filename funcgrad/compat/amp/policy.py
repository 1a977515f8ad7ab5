"""Autocast's cast policy: which ops run in the lower precision, which in float32.

PyTorch keys its autocast policy by op name; so does this table.  While some
thread is inside an enabled ``autocast`` region, :func:`install` replaces each
named op at its dispatch points (``torch.<name>``, ``Tensor.<name>``, the
``FUNCS`` table behind ``@``, ``torch.nn.functional.<name>``) by a wrapper that
casts the op's floating tensor arguments, and :func:`uninstall` puts the
originals back when the last region exits: outside autocast nothing is wrapped,
so the per-op path costs exactly what it did.  Each wrapper reads the calling
thread's autocast state (autocast is thread-local, as in PyTorch) and runs the
op itself with autocast off, as PyTorch's autocast kernels do, so an op's
inner ops are not cast again.

The table is PyTorch's CUDA policy (the CPU policy keeps softmax, exp, sum,
layer_norm... in the lower precision; numpy's float16 arithmetic is safer with
the CUDA one): docs/compat.md, "Mixed precision".
"""

from __future__ import annotations

import threading

import numpy as np

from ...backend import kind_of
from .._dispatch import cast
from ..autograd.grad_mode import STATE
from ..tensor import TENSOR_TYPES, Tensor

__all__ = ["LOWER", "FP32", "KEEP", "BANNED", "install", "uninstall", "LOCAL"]

# ops run in the autocast dtype (torch.<name>/Tensor.<name>, and F.<name>)
LOWER = ("matmul", "mm", "bmm", "mv", "addmm", "addmv", "addr", "addbmm", "baddbmm", "einsum", "chain_matmul",
         "prelu", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
         "linear", "scaled_dot_product_attention")
# ops run in float32
FP32 = ("acos", "arccos", "asin", "arcsin", "cosh", "erfinv", "exp", "expm1", "log", "log10", "log2", "log1p",
        "reciprocal", "rsqrt", "sinh", "tan", "pow", "__pow__", "__rpow__", "softplus", "layer_norm", "group_norm",
        "norm", "dist", "cdist", "pdist", "renorm", "logsumexp", "cosine_similarity", "softmax", "log_softmax",
        "softmin", "cumprod", "cumsum", "sum", "prod", "poisson_nll_loss", "cosine_embedding_loss", "nll_loss",
        "hinge_embedding_loss", "kl_div", "l1_loss", "smooth_l1_loss", "huber_loss", "mse_loss",
        "margin_ranking_loss", "multilabel_margin_loss", "soft_margin_loss", "triplet_margin_loss",
        "multi_margin_loss", "binary_cross_entropy_with_logits", "cross_entropy")
# ops computed in float32 whose result has the input's dtype (cudnn's batch norm: float32 statistics and
# affine, an input-typed output)
KEEP = ("batch_norm",)
# float32 on the cpu; an error under CUDA autocast, as in PyTorch
BANNED = ("binary_cross_entropy",)

_BCE_MSG = ("torch.nn.functional.binary_cross_entropy and torch.nn.BCELoss are unsafe to autocast.\n"
            "Many models use a sigmoid layer right before the binary cross entropy layer.\n"
            "In this case, combine the two layers using torch.nn.functional.binary_cross_entropy_with_logits\n"
            "or torch.nn.BCEWithLogitsLoss.  binary_cross_entropy_with_logits and BCEWithLogits are\n"
            "safe to autocast.")

LOCAL = threading.local()  # .active: {device type: numpy dtype} of the enabled regions; .cache: casts of weights
_LOCK = threading.Lock()
_REGIONS = [0]  # enabled regions open (all threads); the wrappers are in place while it is > 0
_TABLE = []  # [(namespace, name, original, wrapper)], made at the first install
_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)


def _device_type(t):
    return "cpu" if type(t._value) is np.ndarray else t.device.type


def _cast_tensor(t, kind, active):
    npd = t._value.dtype
    if kind_of(npd) != "f" or npd == _F64:  # PyTorch leaves doubles and non-floating tensors alone
        return t
    dev = _device_type(t)
    lowp = active.get(dev)
    if lowp is None:
        return t
    target = lowp if kind == "lower" else _F32
    if npd == target:
        return t
    cache = getattr(LOCAL, "cache", None)
    if kind == "lower" and cache is not None and LOCAL.cache_enabled and t.grad_fn is None and t._req and STATE.enabled:
        hit = cache.get(id(t))  # a weight cast once per region (PyTorch's autocast cache)
        if hit is None or hit[0] is not t:
            hit = cache[id(t)] = (t, cast(t, target))
        return hit[1]
    return cast(t, target)


def _cast_arg(a, kind, active):
    t = type(a)
    if t in TENSOR_TYPES:
        return _cast_tensor(a, kind, active)
    if t is list or t is tuple:
        return t(_cast_arg(x, kind, active) for x in a)
    return a


def _cast_args(args, kwargs, kind, active):
    return (tuple(_cast_arg(a, kind, active) for a in args),
            {k: _cast_arg(v, kind, active) for k, v in kwargs.items()} if kwargs else kwargs)


def _wrap(fn, kind):
    """``fn`` with the policy ``kind`` applied when this thread is in an enabled region."""
    if kind in ("lower", "fp32"):
        def autocast_op(*args, **kwargs):
            active = getattr(LOCAL, "active", None)
            if not active:
                return fn(*args, **kwargs)
            args, kwargs = _cast_args(args, kwargs, kind, active)
            LOCAL.active = None  # the op's own inner ops run without autocast, as PyTorch's autocast kernels
            try:
                return fn(*args, **kwargs)
            finally:
                LOCAL.active = active
    elif kind == "keep":
        def autocast_op(*args, **kwargs):
            active = getattr(LOCAL, "active", None)
            if not active:
                return fn(*args, **kwargs)
            first = args[0] if args else kwargs.get("input")
            args, kwargs = _cast_args(args, kwargs, "fp32", active)  # statistics in float32
            LOCAL.active = None
            try:
                out = fn(*args, **kwargs)
            finally:
                LOCAL.active = active
            if type(out) in TENSOR_TYPES and type(first) in TENSOR_TYPES and out._value.dtype != first._value.dtype:
                out = cast(out, first._value.dtype)
            return out
    else:  # "banned": float32 on the cpu, an error under CUDA autocast
        fp32 = _wrap(fn, "fp32")

        def autocast_op(*args, **kwargs):
            active = getattr(LOCAL, "active", None)
            if active and "cuda" in active and any(type(a) in TENSOR_TYPES and _device_type(a) == "cuda"
                                                   for a in args):
                raise RuntimeError(_BCE_MSG)
            return fp32(*args, **kwargs)

    autocast_op.__name__ = getattr(fn, "__name__", "autocast_op")
    autocast_op.__qualname__ = getattr(fn, "__qualname__", autocast_op.__name__)
    autocast_op.__doc__ = getattr(fn, "__doc__", None)
    autocast_op.__wrapped__ = fn
    return autocast_op


def _targets():
    """(namespace, name, kind) for every dispatch point of every op in the table that compat has."""
    from .. import _dispatch  # noqa: PLC0415
    from ..nn import functional as F  # noqa: PLC0415
    import funcgrad.compat as torch  # noqa: PLC0415

    kinds = {**{n: "lower" for n in LOWER}, **{n: "fp32" for n in FP32}, **{n: "keep" for n in KEEP},
             **{n: "banned" for n in BANNED}}
    out = []
    for name, kind in kinds.items():
        if name in _dispatch.FUNCS:
            out.append((_dispatch.FUNCS, name, kind))
        for ns in (torch, Tensor, F):
            if callable(ns.__dict__.get(name)):
                out.append((ns, name, kind))
    return out


def _get(ns, name):
    return ns[name] if type(ns) is dict else ns.__dict__[name]


def _set(ns, name, value):
    if type(ns) is dict:
        ns[name] = value
    else:
        setattr(ns, name, value)


def install():
    """Enter one enabled region (any thread): the first one puts the wrappers in place."""
    with _LOCK:
        _REGIONS[0] += 1
        if _REGIONS[0] == 1:
            if not _TABLE:
                wrappers = {}
                for ns, name, kind in _targets():
                    fn = _get(ns, name)
                    w = wrappers.get(id(fn))
                    if w is None:
                        w = wrappers[id(fn)] = _wrap(fn, kind)
                    _TABLE.append((ns, name, fn, w))
            for ns, name, _, w in _TABLE:
                _set(ns, name, w)


def uninstall():
    """Leave one enabled region: the last one restores the original ops."""
    with _LOCK:
        _REGIONS[0] -= 1
        if _REGIONS[0] == 0:
            for ns, name, fn, _ in _TABLE:
                _set(ns, name, fn)


def installed():
    return _REGIONS[0] > 0
