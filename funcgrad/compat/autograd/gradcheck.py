"""gradcheck / gradgradcheck: analytic gradients (the engine) against central differences."""

from __future__ import annotations

import warnings

import numpy as np

from ...backend import to_numpy
from ..device import like
from .engine import grad as _grad
from ..tensor import Tensor, wrap

__all__ = ["gradcheck", "gradgradcheck", "GradcheckError"]


class GradcheckError(RuntimeError):
    """A gradient check failed."""


def _outputs(fn, inputs):
    out = fn(*inputs)
    return (out,) if isinstance(out, Tensor) else tuple(o for o in out if isinstance(o, Tensor))


def _host64(t):
    """A tensor's values as a flat float64 host array (a copy)."""
    return to_numpy(t._value).astype(np.float64).ravel()


def _numeric(fn, inputs, i, eps):
    x = inputs[i]
    outs = _outputs(fn, inputs)
    cols = []
    flat = x._value.reshape(-1) if x._value.flags.c_contiguous else None
    if flat is None:
        raise GradcheckError("gradcheck expects contiguous inputs")
    for k in range(flat.size):
        orig = flat[k]
        # the buffer is perturbed directly (no version bump): fn may use autograd itself
        flat[k] = orig + eps
        plus = [_host64(o) for o in _outputs(fn, inputs)]
        flat[k] = orig - eps
        minus = [_host64(o) for o in _outputs(fn, inputs)]
        flat[k] = orig
        cols.append(np.concatenate([(p - m) / (2 * eps) for p, m in zip(plus, minus)]) if plus else np.zeros(0))
    rows = sum(o._value.size for o in outs)
    return np.stack(cols, axis=1) if cols else np.zeros((rows, 0))


def _analytic(fn, inputs, idx):
    outs = [o for o in _outputs(fn, inputs)]
    rows = []
    for o in outs:
        for k in range(o._value.size):
            if not o.requires_grad:
                rows.append([np.zeros(inputs[i]._value.size) for i in idx])
                continue
            g = np.zeros(o._value.size, o._value.dtype)
            g[k] = 1
            gs = _grad([o], [inputs[i] for i in idx], [wrap(like(g.reshape(o._value.shape), o._value))], retain_graph=True,
                       allow_unused=True)
            rows.append([np.zeros(inputs[i]._value.size) if r is None else _host64(r)
                         for r, i in zip(gs, idx)])
    return [np.array([r[j] for r in rows]).reshape(len(rows), -1) for j in range(len(idx))]


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True, nondet_tol=0.0,
              check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
              check_batched_forward_grad=False, check_forward_ad=False, check_backward_ad=True,
              fast_mode=False, masked=None):
    """True if ``func``'s gradients match finite differences for every input that requires grad."""
    inputs = (inputs,) if isinstance(inputs, Tensor) else tuple(inputs)
    idx = [i for i, x in enumerate(inputs) if isinstance(x, Tensor) and x.requires_grad]
    if not idx:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but none of the them "
                         "have requires_grad=True.")
    for i in idx:
        if inputs[i]._value.dtype != np.float64:
            warnings.warn(f"Input #{i} requires gradient and is not a double precision floating point. This "
                          "check will likely fail if all the inputs are not of double precision floating point. ",
                          UserWarning, stacklevel=2)
    analytic = _analytic(func, inputs, idx)
    for j, i in enumerate(idx):
        num = _numeric(func, inputs, i, eps)
        if not np.allclose(analytic[j], num, rtol=rtol, atol=atol):
            msg = (f"Jacobian mismatch for output 0 with respect to input {i},\nnumerical:{wrap(num)!r}\n"
                   f"analytical:{wrap(analytic[j])!r}\n")
            if raise_exception:
                raise GradcheckError(msg)
            return False
    return True


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3, gen_non_contig_grad_outputs=False,
                  raise_exception=True, nondet_tol=0.0, check_undefined_grad=True, check_grad_dtypes=False,
                  check_batched_grad=False, check_fwd_over_rev=False, check_rev_over_rev=True, fast_mode=False,
                  masked=False):
    """gradcheck of the first derivative: the vjp of ``func`` with random (or given) grad_outputs."""
    inputs = (inputs,) if isinstance(inputs, Tensor) else tuple(inputs)
    outs = _outputs(func, inputs)
    if grad_outputs is None:
        rng = np.random.default_rng(0)
        grad_outputs = tuple(wrap(like(rng.standard_normal(o._value.shape).astype(o._value.dtype), o._value), requires_grad=True)
                             for o in outs)
    else:
        grad_outputs = (grad_outputs,) if isinstance(grad_outputs, Tensor) else tuple(grad_outputs)
    n = len(inputs)
    idx = [i for i, x in enumerate(inputs) if isinstance(x, Tensor) and x.requires_grad]

    def first_derivative(*args):
        xs, gos = args[:n], args[n:]
        os = [o for o in _outputs(func, xs) if o.requires_grad]
        gs = _grad(os, [xs[i] for i in idx], list(gos[:len(os)]), create_graph=True, allow_unused=True)
        return tuple(g for g in gs if g is not None)

    return gradcheck(first_derivative, inputs + tuple(grad_outputs), eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception)
