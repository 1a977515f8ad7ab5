"""gradcheck / gradgradcheck with PyTorch's contract, for functions of funcgrad arrays.

``gradcheck(func, inputs)`` compares the Jacobian of ``func`` computed by
reverse mode with central finite differences, for every floating-point input
(integer and boolean inputs are constants), and returns True; on a mismatch it
raises :class:`GradcheckError` (a RuntimeError, as PyTorch's) or, with
``raise_exception=False``, returns False.  ``fast_mode=True`` compares random
projections ``u^T J v`` instead of whole Jacobians.  ``gradgradcheck`` runs
the same check on the function ``(inputs, grad_outputs) -> vjp``.
"""

from __future__ import annotations

import warnings

import numpy as np

from .. import tree
from ..array import Array, Tracer
from ..errors import GradcheckError
from ..transforms import vjp

__all__ = ["gradcheck", "gradgradcheck", "GradcheckError"]




def _host(x):
    return np.asarray(x)


def _as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _is_diff(x):
    return isinstance(x, (Array, Tracer, np.ndarray, float)) and np.dtype(_host(x).dtype).kind == "f"


def _device(x):
    return x.device if isinstance(x, Array) else None


def _with(inputs, i, value):
    out = list(inputs)
    out[i] = value
    return tuple(out)


def _outputs(func, inputs):
    return [_host(o).astype(np.float64) for o in _as_tuple(func(*inputs))]


def _numerical_jacobian(func, inputs, diff, eps):
    """J[o][i]: (out_o.size, in_i.size) by central differences."""
    base = _outputs(func, inputs)
    jac = [[np.zeros((o.size, _host(inputs[i]).size)) for i in diff] for o in base]
    for col, i in enumerate(diff):
        x = _host(inputs[i])
        for j in range(x.size):
            e = np.zeros(x.size, x.dtype)
            e[j] = eps
            e = e.reshape(x.shape)
            plus = _outputs(func, _with(inputs, i, Array(x + e, device=_device(inputs[i]))))
            minus = _outputs(func, _with(inputs, i, Array(x - e, device=_device(inputs[i]))))
            for o, (p, m) in enumerate(zip(plus, minus)):
                jac[o][col][:, j] = ((p - m) / (2 * eps)).ravel()
    return jac


def _analytical_jacobian(func, inputs, diff):
    """J[o][i] by one vjp per output element (reverse mode)."""
    def f_diff(*xs):
        return _as_tuple(func(*_merge(inputs, diff, xs)))

    outs, vjp_fn = vjp(f_diff, *[inputs[i] for i in diff])
    jac = [[np.zeros((_host(o).size, _host(inputs[i]).size)) for i in diff] for o in outs]
    for o, out in enumerate(outs):
        host = _host(out)
        for k in range(host.size):
            cts = []
            for q, other in enumerate(outs):
                h = np.zeros(_host(other).shape, _host(other).dtype)
                if q == o:
                    h.reshape(-1)[k] = 1
                cts.append(Array(h, device=_device(other)))
            grads = vjp_fn(tuple(cts))
            for col, g in enumerate(grads):
                jac[o][col][k, :] = _host(g).astype(np.float64).ravel()
    return jac


def _merge(inputs, diff, xs):
    full = list(inputs)
    for i, x in zip(diff, xs):
        full[i] = x
    return tuple(full)


def _fail(msg, raise_exception):
    if raise_exception:
        raise GradcheckError(msg)
    return False


def _prepare(inputs):
    inputs = tuple(Array(x) if isinstance(x, (np.ndarray, float, list)) else x for x in _as_tuple(inputs))
    leaves = [tree.tree_leaves(x) for x in inputs]
    if any(len(lv) != 1 or lv[0] is not x for lv, x in zip(leaves, inputs)):
        raise TypeError("gradcheck: inputs must be arrays (or a tuple of arrays), not nested pytrees")
    diff = [i for i, x in enumerate(inputs) if _is_diff(x)]
    for i in diff:
        if _host(inputs[i]).dtype != np.float64:
            warnings.warn(
                f"Input #{i} requires gradient and is not a double precision floating point. "
                "This check will likely fail if all the inputs are not of double precision floating point.",
                UserWarning, stacklevel=3,
            )
    return inputs, diff


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True,
              fast_mode=False, seed=0):
    """Check reverse-mode gradients of ``func`` at ``inputs`` against finite differences.

    Returns True if ``|analytical - numerical| <= atol + rtol * |numerical|``
    elementwise for every (output, floating-point input) pair.
    """
    inputs, diff = _prepare(inputs)
    if not diff:
        return _fail("gradcheck expects at least one floating-point input to differentiate", raise_exception)
    if fast_mode:
        return _fast_check(func, inputs, diff, eps, atol, rtol, raise_exception, seed)
    numerical = _numerical_jacobian(func, inputs, diff, eps)
    analytical = _analytical_jacobian(func, inputs, diff)
    for o, (num_row, ana_row) in enumerate(zip(numerical, analytical)):
        for col, (n, a) in enumerate(zip(num_row, ana_row)):
            if not np.allclose(a, n, rtol=rtol, atol=atol):
                return _fail(
                    f"Jacobian mismatch for output {o} with respect to input {diff[col]},\n"
                    f"numerical:{np.array2string(n, precision=6)}\nanalytical:{np.array2string(a, precision=6)}\n",
                    raise_exception,
                )
    return True


def _fast_check(func, inputs, diff, eps, atol, rtol, raise_exception, seed):
    rng = np.random.default_rng(seed)

    def f_diff(*xs):
        return _as_tuple(func(*_merge(inputs, diff, xs)))

    outs, vjp_fn = vjp(f_diff, *[inputs[i] for i in diff])
    us = [rng.standard_normal(_host(o).shape) for o in outs]
    vs = [rng.standard_normal(_host(inputs[i]).shape) for i in diff]
    cts = tuple(Array(u.astype(_host(o).dtype), device=_device(o)) for u, o in zip(us, outs))
    lhs = sum(float(np.vdot(_host(g).astype(np.float64), v)) for g, v in zip(vjp_fn(cts), vs))
    plus = _outputs(func, _merge(inputs, diff, [Array(_host(inputs[i]) + eps * v, device=_device(inputs[i])) for i, v in zip(diff, vs)]))
    minus = _outputs(func, _merge(inputs, diff, [Array(_host(inputs[i]) - eps * v, device=_device(inputs[i])) for i, v in zip(diff, vs)]))
    rhs = sum(float(np.vdot(u, (p - m) / (2 * eps))) for u, p, m in zip(us, plus, minus))
    if not abs(lhs - rhs) <= atol + rtol * abs(rhs):
        return _fail(
            f"Jacobian mismatch (fast mode): u^T J v is {lhs!r} by reverse mode but {rhs!r} by "
            f"finite differences (atol={atol}, rtol={rtol})",
            raise_exception,
        )
    return True


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  raise_exception=True, fast_mode=False, seed=0):
    """gradcheck of the map ``(inputs, grad_outputs) -> vjp(func, inputs)(grad_outputs)``.

    ``grad_outputs`` defaults to random normal cotangents (fixed by ``seed``).
    """
    inputs, diff = _prepare(inputs)
    outs = _as_tuple(func(*inputs))
    if grad_outputs is None:
        rng = np.random.default_rng(seed)
        grad_outputs = tuple(Array(rng.standard_normal(_host(o).shape).astype(_host(o).dtype), device=_device(o))
                             for o in outs)
    grad_outputs = _as_tuple(grad_outputs)
    if len(grad_outputs) != len(outs):
        raise ValueError(f"gradgradcheck: {len(outs)} outputs but {len(grad_outputs)} grad_outputs")
    n = len(inputs)

    def first_derivative(*args):
        xs, gos = args[:n], args[n:]

        def f_diff(*d):
            return _as_tuple(func(*_merge(xs, diff, d)))

        _, vjp_fn = vjp(f_diff, *[xs[i] for i in diff])
        return vjp_fn(tuple(gos))

    return gradcheck(first_derivative, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception, fast_mode=fast_mode, seed=seed)
