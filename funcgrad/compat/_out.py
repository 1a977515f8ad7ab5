"""``out=``, as PyTorch applies it, for every compat function that declares the keyword.

A function declares ``out=None`` in its signature; ``install(namespace)`` (run once per public
namespace: torch, torch.linalg, torch.special, torch.fft) replaces it by a wrapper that calls it
without ``out`` and writes the result into ``out``:

- one result: ``out`` is a Tensor, resized to the result's shape when it differs, and the result's
  dtype must cast to out's (PyTorch's rule: not float into int, not complex into real);
- several results (``max(dim)``, ``linalg.eig``, ``lu``, ...): ``out`` is a tuple of Tensors of the
  same length, each of exactly the result's dtype; the result type (a named tuple) is kept;
- factory functions (those with a ``dtype`` parameter and no tensor input: zeros, arange, rand...)
  create their result in out's dtype and device unless ``dtype=``/``device=`` are given, and a given
  dtype that differs from out's is a RuntimeError;
- autograd does not flow through out=: a result that requires grad is a RuntimeError (as PyTorch).

Functions PyTorch gives ``out=`` whose compat definitions take no ``out`` parameter (they are
written once for torch.<name> and Tensor.<name>, and methods take no out=) are named in
``ACCEPTS_OUT``, from PyTorch 2.13's documented signatures; they are wrapped the same way.

A function that writes ``out`` itself (the fast unary path of ops_elementwise) sets
``fn.writes_out = True`` and is left as it is.
"""

from __future__ import annotations

import functools
import inspect

from ._validate import scalar_name as _scalar_type
from .tensor import Tensor

__all__ = ["write_out", "install", "declares_out", "ACCEPTS_OUT"]

ACCEPTS_OUT = frozenset("""
    addcdiv addcmul all amax amin aminmax angle any argsort bitwise_not cholesky clamp_max
    clamp_min column_stack complex conj_physical cross cummax cummin cumprod cumsum diag diff
    dstack empty_like empty_permuted empty_strided float_power frac frexp gcd ger hamming_window
    heaviside histc hstack i0 index_select inverse isin isneginf isposinf kron kthvalue lcm
    ldexp lerp linalg.cholesky linalg.cross linalg.det linalg.eigh linalg.eigvalsh linalg.inv
    linalg.matmul linalg.matrix_power linalg.multi_dot linalg.qr linalg.slogdet linalg.solve
    linalg.svd linalg.svdvals linalg.vector_norm logaddexp logcumsumexp logical_not logit
    logsumexp masked_select matmul matrix_power mean median mm mode msort mvlgamma nanmean
    nanmedian narrow_copy nonzero norm ones_like outer polar polygamma prod qr rand_like
    randn_like range renorm scatter sgn signbit sinc sort special.i0 special.logit
    special.logsumexp special.multigammaln special.polygamma special.sinc special.xlogy
    squeeze_copy std std_mean sum svd take_along_dim topk tril triu var var_mean view_copy
    vstack where xlogy zeros_like
""".split())


def _check_grad(fname, results, outs):
    from .autograd.grad_mode import is_grad_enabled  # noqa: PLC0415

    if is_grad_enabled() and any(getattr(t, "requires_grad", False) for t in (*results, *outs)):
        raise RuntimeError(f"{fname}(): functions with out=... arguments don't support automatic differentiation, "
                           "but one of the arguments requires grad.")


def _write(out, result):
    if tuple(out.shape) != tuple(result.shape):
        out.resize_(*result.shape)
    out.copy_(result)
    return out


def write_out(out, result, fname):
    """``result`` written into ``out`` with PyTorch's rules (module docstring); returns out (or the
    tuple of outs, as the result's tuple type)."""
    from .dtypes import can_cast  # noqa: PLC0415

    if isinstance(result, Tensor):
        if not isinstance(out, Tensor):
            raise TypeError(f"{fname}(): argument 'out' must be Tensor, not {type(out).__name__}")
        _check_grad(fname, (result,), (out,))
        if not can_cast(result.dtype, out.dtype):
            raise RuntimeError(f"result type {_scalar_type(result.dtype)} can't be cast to the desired output type "
                               f"{_scalar_type(out.dtype)}")
        return _write(out, result)
    if not isinstance(result, tuple):
        raise TypeError(f"{fname}(): out= is not supported: the function returns {type(result).__name__}, "
                        "not tensors")
    if not isinstance(out, (tuple, list)) or not all(isinstance(o, Tensor) for o in out):
        raise TypeError(f"{fname}(): argument 'out' must be tuple of Tensors, not {type(out).__name__}")
    if len(out) != len(result):
        raise RuntimeError(f"{fname}(): expected out= to be a tuple of {len(result)} tensors, got {len(out)}")
    _check_grad(fname, result, out)
    for o, r in zip(out, result):
        if o.dtype != r.dtype:
            raise RuntimeError(f"Expected out tensor to have dtype {_scalar_type(r.dtype)}, but got "
                               f"{_scalar_type(o.dtype)} instead")
    written = [_write(o, r) for o, r in zip(out, result)]
    return type(result)(*written) if hasattr(result, "_fields") else tuple(written)


def declares_out(fn):
    """Whether a Python function takes an ``out`` keyword."""
    code = getattr(fn, "__code__", None)
    if code is None:
        return False
    names = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
    return "out" in names


def _factory(fn):
    """Whether fn makes a tensor from sizes/values (its dtype then defaults to out's)."""
    params = inspect.signature(inspect.unwrap(fn)).parameters
    first = next(iter(params), None)
    return "dtype" in params and first not in ("input", "A", "self", "tensors", "tensor")


def _wrap(fn, fname):
    factory = _factory(fn)

    @functools.wraps(fn)
    def with_out(*args, out=None, **kwargs):
        if out is None:
            return fn(*args, **kwargs)
        if factory and isinstance(out, Tensor):
            dtype = kwargs.get("dtype")
            if dtype is None:
                kwargs["dtype"] = out.dtype
            elif dtype != out.dtype:
                raise RuntimeError(f"dtype {_scalar_type(dtype)} does not match dtype of out parameter "
                                   f"({_scalar_type(out.dtype)})")
            if kwargs.get("device") is None:
                kwargs["device"] = out.device
        return write_out(out, fn(*args, **kwargs), fname)

    with_out.honours_out = True
    sig = inspect.signature(fn)
    if "out" not in sig.parameters:  # show out= in help() and inspect.signature
        params = list(sig.parameters.values())
        at = next((i for i, p in enumerate(params) if p.kind is p.VAR_KEYWORD), len(params))
        params.insert(at, inspect.Parameter("out", inspect.Parameter.KEYWORD_ONLY, default=None))
        with_out.__signature__ = sig.replace(parameters=params)
    return with_out


def install(namespace, prefix=""):
    """Replace every public function of ``namespace`` (a module's globals) that declares ``out``
    by its out-writing wrapper; idempotent."""
    for name, fn in list(namespace.items()):
        if name.startswith("_") or not inspect.isfunction(fn):
            continue
        if not declares_out(inspect.unwrap(fn)) and prefix + name not in ACCEPTS_OUT:
            continue
        if getattr(fn, "writes_out", False) or getattr(fn, "honours_out", False):
            continue
        namespace[name] = _wrap(fn, prefix + name)
