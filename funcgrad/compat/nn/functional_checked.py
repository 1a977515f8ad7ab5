"""PyTorch's argument checks in front of funcgrad.nn.functional's layers, losses and index functions.

funcgrad.nn.functional promotes mixed dtypes, reads a zero stride as a division and leaves class and
probability ranges to the caller; PyTorch refuses them with RuntimeError.  Each function here runs
the checks of compat's validation module (:mod:`funcgrad.compat._validate`) on values it already
holds (dtypes, shapes, window parameters), reads the data only where PyTorch does (one_hot's
classes, embedding's indices, binary_cross_entropy's [0, 1] range, class-index targets), then calls
funcgrad's function.
"""

from __future__ import annotations

from ...backend import kind_of
from ...nn import functional as _F
from .. import _validate as check
from .._dispatch import tensor_arg
from ..dtypes import buf_of

FUNCTIONS = ["linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "avg_pool1d",
             "avg_pool2d", "one_hot", "huber_loss", "cross_entropy_checks", "nll_loss_checks",
             "binary_cross_entropy_checks", "pool_window", "embedding_checks", "softmax_of"]


def linear(input, weight, bias=None):
    a, w = buf_of(input), buf_of(weight)  # (the hot path: two reads and a dtype comparison or two)
    if a is None or w is None:
        tensor_arg(input, "linear", "input", 1)
        tensor_arg(weight, "linear", "weight", 2)
    if a.dtype != w.dtype:
        check.same_dtype(a.dtype, w.dtype, "linear: mat1 and mat2 must have the same dtype, but got {A} and {B}")
    if bias is not None and buf_of(bias).dtype != a.dtype:
        check.same_dtype(buf_of(bias).dtype, a.dtype, "linear: self and mat2 must have the same dtype, but got "
                         "{A} and {B}")
    return _F.linear(input, weight, bias)


def _conv_checks(fname, nd, input, weight, bias, stride, padding, dilation, groups, transposed=False):
    tensor_arg(input, fname, "input", 1)
    tensor_arg(weight, fname, "weight", 2)
    dt = buf_of(input).dtype
    check.same_dtype(dt, buf_of(weight).dtype, fname + ": expected scalar type {A} but found {B}")
    if bias is not None:
        check.same_dtype(dt, buf_of(bias).dtype, fname + ": Input type ({a}) and bias type ({b}) should be the same")
    if check.int_arg(groups, fname, "groups") <= 0:
        raise RuntimeError(f"{fname}: non-positive groups is not supported")
    if isinstance(padding, str):
        if padding not in ("same", "valid") or transposed:
            raise RuntimeError(f"{fname}: Invalid padding string: {padding!r}")
        pad = padding
    else:
        pad = check.tuple_arg(padding, nd, fname, "padding")
    kernel = tuple(buf_of(weight).shape[2:]) if buf_of(weight).ndim == nd + 2 else ()
    check.window(fname, kernel, check.tuple_arg(stride, nd, fname, "stride"), pad,
                 check.tuple_arg(dilation, nd, fname, "dilation"), pool=False)


def _conv(nd):
    fname = f"conv{nd}d"
    core = getattr(_F, fname)

    def conv(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
        _conv_checks(fname, nd, input, weight, bias, stride, padding, dilation, groups)
        return core(input, weight, bias, stride, padding, dilation, groups)
    conv.__name__ = conv.__qualname__ = fname
    conv.__doc__ = core.__doc__
    return conv


def _conv_transpose(nd):
    fname = f"conv_transpose{nd}d"
    core = getattr(_F, fname)

    def conv_transpose(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
        _conv_checks(fname, nd, input, weight, bias, stride, padding, dilation, groups, transposed=True)
        return core(input, weight, bias, stride, padding, output_padding, groups, dilation)
    conv_transpose.__name__ = conv_transpose.__qualname__ = fname
    conv_transpose.__doc__ = core.__doc__
    return conv_transpose


conv1d, conv2d, conv3d = _conv(1), _conv(2), _conv(3)
conv_transpose1d, conv_transpose2d = _conv_transpose(1), _conv_transpose(2)


def pool_window(fname, nd, kernel_size, stride, padding, dilation=1):
    """A pooling window's parameters as PyTorch checks them (stride None or empty: the kernel)."""
    kernel = check.tuple_arg(kernel_size, nd, fname, "kernel_size")
    stride = kernel if stride is None or stride == () or stride == [] else check.tuple_arg(stride, nd, fname,
                                                                                           "stride")
    check.window(fname, kernel, stride, check.tuple_arg(padding, nd, fname, "padding"),
                 check.tuple_arg(dilation, nd, fname, "dilation"), pool=True)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    pool_window("avg_pool1d", 1, kernel_size, stride, padding)
    return _F.avg_pool1d(input, kernel_size, stride, padding, ceil_mode, count_include_pad)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    pool_window("avg_pool2d", 2, kernel_size, stride, padding)
    return _F.avg_pool2d(input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)


def one_hot(tensor, num_classes=-1):
    tensor_arg(tensor, "one_hot", "tensor", 1)
    num_classes = check.int_arg(num_classes, "one_hot", "num_classes", 2)
    buf = buf_of(tensor)
    if str(buf.dtype) != "int64":
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    v = check.values(tensor)  # None under a funcgrad transformation (values not known)
    if buf.size == 0:
        if num_classes == -1:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
    elif v is not None:
        if int(v.min()) < 0:
            raise RuntimeError("Class values must be non-negative.")
        if num_classes != -1 and int(v.max()) >= num_classes:
            raise RuntimeError("Class values must be smaller than num_classes.")
    return _F.one_hot(tensor, num_classes)


def embedding_checks(input, weight):
    """embedding's index tensor: Long or Int, each index in [0, num_embeddings) (IndexError)."""
    buf = buf_of(input)
    if buf.dtype.kind not in "iu" or buf.dtype.itemsize not in (4, 8):
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                           f"Long, Int; but got torch.{check.scalar_name(buf)}Tensor instead (while checking "
                           "arguments for embedding)")
    v = check.values(input)
    if v is not None and v.size and (int(v.min()) < 0 or int(v.max()) >= buf_of(weight).shape[0]):
        raise IndexError("index out of range in self")


def _class_target_checks(fname, input, target, weight, ignore_index):
    """Class-index targets (nll_loss/cross_entropy): Long or Byte, in [0, C) or ignore_index; a weight of C."""
    c = buf_of(input).shape[1] if buf_of(input).ndim > 1 else buf_of(input).shape[0]
    if weight is not None and buf_of(weight).size != c:
        raise RuntimeError(f"{fname}: weight tensor should be defined either for all {c} classes or no classes but "
                           f"got weight tensor of shape: {list(buf_of(weight).shape)}")
    t = buf_of(target)
    if kind_of(t.dtype) in "fc":
        return  # class probabilities (cross_entropy)
    if str(t.dtype) not in ("int64", "uint8"):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {check.scalar_name(t)}")
    v = check.values(target)
    if v is not None and v.size:
        valid = v[v != ignore_index]
        if valid.size and (int(valid.min()) < 0 or int(valid.max()) >= c):
            bad = int(valid.min()) if int(valid.min()) < 0 else int(valid.max())
            raise IndexError(f"{fname}: Target {bad} is out of bounds.")


def cross_entropy_checks(input, target, weight, ignore_index):
    _class_target_checks("cross_entropy", input, target, weight, ignore_index)


def nll_loss_checks(input, target, weight, ignore_index):
    _class_target_checks("nll_loss", input, target, weight, ignore_index)


def binary_cross_entropy_checks(input, target):
    """PyTorch reads both: every input and target element in [0, 1] (NaN is outside)."""
    check.in_range(input, 0, 1, "binary_cross_entropy: all elements of input should be between 0 and 1")
    check.in_range(target, 0, 1, "binary_cross_entropy: all elements of target should be between 0 and 1")


def huber_loss(input, target, reduction="mean", delta=1.0):
    if not delta > 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    return _F.huber_loss(input, target, reduction, delta)


def softmax_of(core, fname, input, dim):
    """``core`` (funcgrad's softmax or log_softmax) along ``dim``, an int in range (TypeError/IndexError
    naming it); an empty input gives an empty result (funcgrad's max over no elements would fail)."""
    d = check.dim(dim, buf_of(input).ndim, fname)
    return input.exp() if buf_of(input).size == 0 else core(input, d)
