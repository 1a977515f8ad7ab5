"""torch.autograd.functional: jacobian, hessian, vjp, jvp, hvp, vhp (built on autograd.grad)."""

from __future__ import annotations

from ..device import xp_of
from ..engine import grad as _grad
from ..tensor import Tensor, wrap

__all__ = ["jacobian", "hessian", "vjp", "jvp", "hvp", "vhp"]


def _tup(x):
    return (x,) if isinstance(x, Tensor) else tuple(x)


def _prep(inputs, create_graph):
    out = []
    for x in _tup(inputs):
        t = x.detach() if not create_graph or not x.requires_grad else x
        if not t.requires_grad:
            t = wrap(t._value)
            t.requires_grad_(True)
        out.append(t)
    return tuple(out)


def _zeros(x):
    return wrap(xp_of(x._value).zeros(x._value.shape, x._value.dtype))


def _g(outputs, inputs, grad_outputs, create_graph):
    outs = [o for o in outputs]
    pairs = [(o, g) for o, g in zip(outs, grad_outputs) if o.requires_grad]
    if not pairs:
        return tuple(_zeros(x) for x in inputs)
    gs = _grad([p[0] for p in pairs], list(inputs), [p[1] for p in pairs], retain_graph=True,
               create_graph=create_graph, allow_unused=True)
    return tuple(_zeros(x) if g is None else g for g, x in zip(gs, inputs))


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    single_in = isinstance(inputs, Tensor)
    xs = _prep(inputs, create_graph)
    out = func(*xs)
    outs = _tup(out)
    if v is None:
        if any(o._value.size != 1 for o in outs):
            raise RuntimeError("The vector v can only be None if the user-provided function returns a single "
                               "Tensor with a single element.")
        v = tuple(wrap(xp_of(o._value).ones_like(o._value)) for o in outs)
    gs = _g(outs, xs, _tup(v), create_graph)
    res_out = out if create_graph else (out.detach() if isinstance(out, Tensor) else tuple(o.detach() for o in out))
    return res_out, (gs[0] if single_in else gs)


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """Forward-mode product by the double-vjp trick: d/du <vjp(u), v>."""
    xs = _prep(inputs, True)
    out = func(*xs)
    outs = _tup(out)
    if v is None:
        v = tuple(wrap(xp_of(x._value).ones_like(x._value)) for x in xs)
    us = tuple(wrap(xp_of(o._value).zeros_like(o._value), requires_grad=True) for o in outs)
    gs = _g(outs, xs, us, True)
    pairs = [(g, vv) for g, vv in zip(gs, _tup(v)) if g.requires_grad]
    if pairs:
        js = _grad([p[0] for p in pairs], list(us), [p[1] for p in pairs], create_graph=create_graph, allow_unused=True)
        js = tuple(_zeros(o) if j is None else j for j, o in zip(js, outs))
    else:
        js = tuple(_zeros(o) for o in outs)
    if not create_graph:
        js = tuple(j.detach() for j in js)
    res_out = tuple(o.detach() for o in outs)
    return (res_out[0] if isinstance(out, Tensor) else res_out), (js[0] if isinstance(out, Tensor) else js)


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    single_in = isinstance(inputs, Tensor)
    xs = _prep(inputs, create_graph)
    out = func(*xs)
    single_out = isinstance(out, Tensor)
    outs = _tup(out)
    from ..ops_shape import stack  # noqa: PLC0415

    result = []
    for o in outs:
        rows = []
        for k in range(o._value.size):
            g = xp_of(o._value).zeros(o._value.size, o._value.dtype)
            g[k] = 1
            rows.append(_g([o], xs, [wrap(g.reshape(o._value.shape))], create_graph))
        per_in = []
        for j, x in enumerate(xs):
            if rows:
                J = stack([r[j] for r in rows]).reshape(tuple(o.shape) + tuple(x.shape))
            else:
                J = wrap(xp_of(x._value).zeros(tuple(o.shape) + tuple(x.shape), x._value.dtype))
            per_in.append(J if create_graph else J.detach())
        result.append(per_in[0] if single_in else tuple(per_in))
    return result[0] if single_out else tuple(result)


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False, outer_jacobian_strategy="reverse-mode"):
    single_in = isinstance(inputs, Tensor)

    def grad_fn(*xs):
        out = func(*xs)
        if out._value.size != 1:
            raise RuntimeError("The function given to hessian should return a single Tensor with a single element")
        gs = _g([out], xs, [wrap(xp_of(out._value).ones_like(out._value))], True)
        return gs[0] if single_in else gs

    return jacobian(grad_fn, inputs, create_graph=create_graph)


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    single_in = isinstance(inputs, Tensor)
    xs = _prep(inputs, True)
    out = func(*xs)
    gs = _g([out], xs, [wrap(xp_of(out._value).ones_like(out._value))], True)
    vs = _tup(v) if v is not None else tuple(wrap(xp_of(x._value).ones_like(x._value)) for x in xs)
    pairs = [(g, vv) for g, vv in zip(gs, vs) if g.requires_grad]
    if pairs:
        hs = _g([p[0] for p in pairs], xs, [p[1] for p in pairs], create_graph)
    else:
        hs = tuple(_zeros(x) for x in xs)
    if not create_graph:
        hs = tuple(h.detach() for h in hs)
    return out.detach(), (hs[0] if single_in else hs)


vhp = hvp  # the Hessian of a scalar function is symmetric
