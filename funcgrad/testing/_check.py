"""check_grads: derivatives against central finite differences, to any order.

For a function ``f`` and arguments ``args`` (pytrees of float or complex arrays):

- forward mode: ``jvp(f, args, v)`` equals the central difference
  ``(f(args + eps v) - f(args - eps v)) / (2 eps)`` for a random direction v;
- reverse mode: ``<vjp(u), v>`` equals ``<u, numeric jvp(v)>`` for random u, v;
- both modes: the two analytic maps are transposes, ``<u, jvp(v)> == <vjp(u), v>``;
- order > 1: the same checks, recursively, on the derivative functions
  ``x -> jvp(f, x, v)`` and ``(x, u) -> vjp(f, x)(u)``.

Complex arguments are perturbed in both real directions at once (a random
direction has random real and imaginary parts), and values pair as in the
derivative convention (docs/transformations.md): ``<c, v> = Re(sum(c * v))``,
so a complex input's vjp is checked as the conjugate-convention gradient
``d/dx - i d/dy``.

A failure raises AssertionError naming the mode, the order, the output
path, the worst element with both values, and the direction used.
"""

from __future__ import annotations

import numpy as np

from .. import tree
from ..core import Array, Tracer, asarray
from ..errors import GradientCheckError
from ..transforms import jvp, vjp

__all__ = ["check_grads", "check_jvp", "check_vjp", "default_tolerances", "GradientCheckError"]




_TOLS = {  # dtype -> (eps, rtol, atol)
    np.dtype(np.float64): (1e-5, 1e-4, 1e-5),
    np.dtype(np.float32): (2e-3, 3e-2, 3e-2),
    np.dtype(np.float16): (2e-1, 2e-1, 2e-1),
}


def default_tolerances(dtype):
    """(eps, rtol, atol) for finite differences at ``dtype`` precision."""
    return _TOLS.get(np.dtype(dtype), _TOLS[np.dtype(np.float64)])


def _host(x):
    return np.asarray(x)


def _leaves(t):
    return tree.tree_leaves(t)


def _random_like(t, rng):
    def one(x):
        a = _host(x)
        r = rng.standard_normal(a.shape)
        if a.dtype.kind == "c":
            r = r + 1j * rng.standard_normal(a.shape)
        return Array(r.astype(a.dtype), device=_device(x))

    return tree.tree_map(one, t)


def _device(x):
    return x.device if isinstance(x, Array) and not isinstance(x, Tracer) else None


def _axpy(a, x, y):
    """y + a * x, leafwise (host arithmetic; result on y's device)."""
    return tree.tree_map(lambda xi, yi: Array(_host(yi) + a * _host(xi), device=_device(yi)), x, y)


def _wide(a):
    """Host copy in float64 (complex128 for complex data)."""
    a = np.asarray(a)
    return a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)


def _vdot(x, y):
    """The real pairing of (co)tangents: Re(sum(x * y)), no conjugation (JAX's convention)."""
    xs, ys = _leaves(x), _leaves(y)
    return float(sum(np.real(np.sum(_wide(_host(a)) * _wide(_host(b)))) for a, b in zip(xs, ys)))


def _as_args(args):
    if not isinstance(args, (tuple, list)):
        args = (args,)
    return tuple(tree.tree_map(lambda x: asarray(x) if not isinstance(x, Array) else x, a) for a in args)


def _worst_dtype(args):
    dts = [np.dtype(_host(x).real.dtype) for x in _leaves(args)]
    order = [np.float16, np.float32, np.float64]
    for dt in order:
        if np.dtype(dt) in dts:
            return np.dtype(dt)
    return np.dtype(np.float64)


def _tols(args, eps, rtol, atol):
    d_eps, d_rtol, d_atol = default_tolerances(_worst_dtype(args))
    return (eps or d_eps, rtol or d_rtol, atol or d_atol)


def _numeric_jvp(f, args, v, eps):
    plus = f(*_axpy(eps, v, args))
    minus = f(*_axpy(-eps, v, args))
    return tree.tree_map(lambda p, m: (_wide(_host(p)) - _wide(_host(m))) / (2 * eps), plus, minus)


def _compare(analytic, numeric, rtol, atol, what, direction):
    a_items, _ = tree.tree_flatten_with_path(analytic)
    n_leaves = _leaves(numeric)
    if len(a_items) != len(n_leaves):
        raise GradientCheckError(f"{what}: analytic result has {len(a_items)} leaves, finite differences {len(n_leaves)}")
    for (path, a), n in zip(a_items, n_leaves):
        a, n = _wide(_host(a)), _wide(n)
        if a.shape != n.shape:
            raise GradientCheckError(f"{what}: at output {tree.keystr(path)} analytic shape {a.shape} != numeric shape {n.shape}")
        err = np.abs(a - n) - (atol + rtol * np.abs(n))
        bad = ~(err <= 0)  # catches NaN
        if np.any(bad):
            flat = int(np.nanargmax(np.where(np.isnan(err), np.inf, err)))
            idx = np.unravel_index(flat, a.shape) if a.shape else ()
            raise GradientCheckError(
                f"{what} disagrees with central finite differences at output {tree.keystr(path)}, "
                f"element {tuple(int(i) for i in idx)}: analytic {a[idx].item()!r}, numeric {n[idx].item()!r} "
                f"(rtol={rtol}, atol={atol}; {int(bad.sum())} of {a.size} elements off).\n"
                f"  direction: {direction}"
            )


def _describe_direction(v):
    leaves = [_host(x) for x in _leaves(v)]
    parts = [f"{x.dtype}{list(x.shape)} {np.array2string(x.ravel()[:4], precision=3)}{'...' if x.size > 4 else ''}" for x in leaves]
    return "; ".join(parts)


def check_jvp(f, args, *, eps=None, rtol=None, atol=None, order_label="order 1", rng=None):
    """Forward mode of f at args against central differences along a random direction."""
    args = _as_args(args)
    eps, rtol, atol = _tols(args, eps, rtol, atol)
    rng = rng or np.random.default_rng(0)
    v = _random_like(args, rng)
    _, analytic = jvp(f, args, v)
    numeric = _numeric_jvp(f, args, v, eps)
    _compare(analytic, numeric, rtol, atol, f"forward mode (jvp), {order_label}", _describe_direction(v))


def check_vjp(f, args, *, eps=None, rtol=None, atol=None, order_label="order 1", rng=None,
              check_transpose=True):
    """Reverse mode of f at args: <vjp(u), v> against <u, numeric jvp(v)> (and analytic jvp)."""
    args = _as_args(args)
    eps, rtol, atol = _tols(args, eps, rtol, atol)
    rng = rng or np.random.default_rng(1)
    v = _random_like(args, rng)
    out, vjp_fn = vjp(f, *args)
    u = _random_like(out, rng)
    vjp_u = vjp_fn(u)
    lhs = _vdot(vjp_u, v)
    numeric = _numeric_jvp(f, args, v, eps)
    rhs = _vdot(u, numeric)
    scale = sum(float(np.sum(np.abs(_host(a)))) for a in _leaves(u)) or 1.0
    if not abs(lhs - rhs) <= atol * scale + rtol * abs(rhs):
        detail = _elementwise_vjp_diagnosis(f, args, u, vjp_u, eps, rtol, atol)
        raise GradientCheckError(
            f"reverse mode (vjp), {order_label}: <vjp(u), v> = {lhs!r} but <u, numeric jvp(v)> = {rhs!r} "
            f"(rtol={rtol}, atol={atol}).{detail}\n  direction v: {_describe_direction(v)}\n"
            f"  cotangent u: {_describe_direction(u)}"
        )
    if check_transpose:
        _, jv = jvp(f, args, v)
        rhs2 = _vdot(u, jv)
        if not abs(lhs - rhs2) <= 1e-3 * atol * scale + 1e-3 * rtol * max(abs(rhs2), abs(lhs)) + 1e-12:
            raise GradientCheckError(
                f"vjp and jvp are not transposes ({order_label}): <vjp(u), v> = {lhs!r} but "
                f"<u, jvp(v)> = {rhs2!r}.\n  direction v: {_describe_direction(v)}"
            )


def _elementwise_vjp_diagnosis(f, args, u, vjp_u, eps, rtol, atol, limit=256):
    """For small inputs, the worst element of the vjp against a numeric gradient of <u, f>."""
    leaves, treedef = tree.tree_flatten(args)
    if sum(_host(x).size for x in leaves) > limit:
        return ""
    got_leaves = _leaves(vjp_u)
    for k, (x, got) in enumerate(zip(leaves, got_leaves)):
        base = _host(x)
        num = np.zeros(base.shape, _wide(base).dtype)
        units = (1, 1j) if base.dtype.kind == "c" else (1,)
        for idx in np.ndindex(base.shape):
            for unit in units:  # d/dx, then d/dy: the gradient is d/dx - i d/dy
                e = np.zeros_like(base)
                e[idx] = unit
                dirs = [Array(e, device=_device(x)) if j == k else Array(np.zeros_like(_host(y)), device=_device(y))
                        for j, y in enumerate(leaves)]
                d = tree.tree_unflatten(treedef, dirs)
                num[idx] += np.conj(unit) * _vdot(u, _numeric_jvp(f, args, d, eps))
        got_h = _wide(_host(got))
        err = np.abs(got_h - num) - (atol + rtol * np.abs(num))
        if np.any(~(err <= 0)):
            flat = int(np.nanargmax(np.where(np.isnan(err), np.inf, err)))
            idx = np.unravel_index(flat, base.shape) if base.shape else ()
            return (f"\n  worst element: input leaf {k}, index {tuple(int(i) for i in idx)}: "
                    f"analytic {got_h[idx].item()!r}, numeric {num[idx].item()!r}")
    return ""


def check_grads(f, args, order=2, modes=("fwd", "rev"), eps=None, rtol=None, atol=None, seed=0):
    """Check f's derivatives at ``args`` (a tuple of pytrees) in ``modes`` up to ``order``.

    Raises GradientCheckError on the first disagreement; returns None when
    every check passes.  Default tolerances depend on the inputs' dtype.
    """
    modes = (modes,) if isinstance(modes, str) else tuple(modes)
    unknown = set(modes) - {"fwd", "rev"}
    if unknown:
        raise ValueError(f"check_grads: unknown modes {sorted(unknown)}; use 'fwd' and/or 'rev'")
    if order < 1:
        raise ValueError(f"check_grads: order must be >= 1, got {order}")
    rng = np.random.default_rng(seed)
    _check(f, _as_args(args), order, modes, eps, rtol, atol, rng, 1)


def _check(f, args, order, modes, eps, rtol, atol, rng, level):
    label = f"order {level}"
    if "fwd" in modes:
        check_jvp(f, args, eps=eps, rtol=rtol, atol=atol, order_label=label, rng=rng)
        if order > 1:
            v = _random_like(args, rng)

            def f_jvp(*a):
                return jvp(f, a, v)[1]

            _check(f_jvp, args, order - 1, modes, eps, rtol, atol, rng, level + 1)
    if "rev" in modes:
        check_vjp(f, args, eps=eps, rtol=rtol, atol=atol, order_label=label, rng=rng,
                  check_transpose="fwd" in modes)
        if order > 1:
            u = _random_like(f(*args), rng)
            n = len(args)

            def f_vjp(*a):
                return vjp(f, *a[:n])[1](a[n])

            _check(f_vjp, args + (u,), order - 1, modes, eps, rtol, atol, rng, level + 1)
