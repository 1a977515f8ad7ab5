"""Special functions of the log/exp kind: expit, logit, log_expit, entr, rel_entr,
and logsumexp (a reduction).

These have fallbacks written with array-namespace ops, so they work without
scipy (and on any backend); logsumexp is always computed that way (scipy's is
Python over numpy too).  logsumexp's derivative is the softmax weight
``b exp(a - lse)``, finite for entries of -inf, and 0 (not NaN) when every
entry is -inf.
"""

from __future__ import annotations

import numpy as np

from ..backend import XP_OF_TYPE
from ..core import Primitive, ShapedArray
from ._batching import batch_size, to_front
from .elementwise import defderiv, exp, isnan, log, safe_mul, sign, where
from .reduce import reduce_sum, reduced_shape
from .shape import broadcast_to, reshape
from .special import special_dtype, special_primitive

__all__ = ["expit", "logit", "log_expit", "entr", "rel_entr", "logsumexp"]


def _expit_fallback(xp, x):
    e = xp.exp(-xp.abs(x))
    return xp.where(x >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


expit_p = special_primitive("expit", fallback=_expit_fallback)
defderiv(expit_p, lambda ans, x: ans * (1.0 - ans), unsaved_args=(0,))
expit = expit_p.bind


def _logit_fallback(xp, x):
    return xp.log(x) - xp.log1p(-x)


logit_p = special_primitive("logit", fallback=_logit_fallback)
defderiv(logit_p, lambda ans, x: 1.0 / (x * (1.0 - x)), safe=True, saves_out=False)
logit = logit_p.bind


def _log_expit_fallback(xp, x):
    # log(1 / (1 + exp(-x))) = -log1p(exp(-|x|)) + min(x, 0)
    return xp.minimum(x, 0.0) - xp.log1p(xp.exp(-xp.abs(x)))


log_expit_p = special_primitive("log_expit", fallback=_log_expit_fallback)
defderiv(log_expit_p, lambda ans, x: expit(-x), saves_out=False)
log_expit = log_expit_p.bind


def _entr_fallback(xp, x):
    pos = x > 0
    val = -x * xp.log(xp.where(pos, x, 1.0))
    return xp.where(pos, val, xp.where(x == 0, 0.0, -np.inf).astype(x.dtype))


entr_p = special_primitive("entr", fallback=_entr_fallback)
defderiv(entr_p, lambda ans, x: -(log(x) + 1.0), safe=True, saves_out=False)
entr = entr_p.bind


def _rel_entr_fallback(xp, x, y):
    ok = (x > 0) & (y > 0)
    val = x * xp.log(xp.where(ok, x, 1.0) / xp.where(ok, y, 1.0))
    edge = xp.where((x == 0) & (y >= 0), 0.0, np.inf).astype(val.dtype)
    return xp.where(ok, val, edge)


rel_entr_p = special_primitive("rel_entr", fallback=_rel_entr_fallback)
rel_entr_p.defvjp(lambda g, ans, x, y: safe_mul(g, log(x / y) + 1.0),
                  lambda g, ans, x, y: safe_mul(g, -x / y), saves_out=False)
rel_entr_p.defjvp(lambda t, ans, x, y: safe_mul(t, log(x / y) + 1.0),
                  lambda t, ans, x, y: safe_mul(t, -x / y))
rel_entr = rel_entr_p.bind


# --- logsumexp ----------------------------------------------------------------------------

def _lse_impl(a, b, axes, keepdims):
    """log|sum(b exp(a))| over axes; ``b`` is 1.0 or an array of a's shape."""
    xp = XP_OF_TYPE.get(type(a), np)
    dt = special_dtype(a, b)
    a = a.astype(dt) if a.dtype != dt else a
    if any(a.shape[ax] == 0 for ax in axes):
        m = xp.full(reduced_shape(a.shape, axes, True), -np.inf, dtype=dt)
    else:
        m = xp.max(a, axis=axes, keepdims=True)
    m = xp.where(xp.isfinite(m), m, xp.zeros((), dt))  # all -inf (or inf, nan): shift by 0
    e = xp.exp(a - m)
    if type(b) is not float:
        e = b * e
    s = xp.sum(e, axis=axes, keepdims=True)
    with np.errstate(divide="ignore"):
        out = xp.log(xp.abs(s)) + m
    if not keepdims:
        out = xp.reshape(out, reduced_shape(a.shape, axes, False))
    return out.astype(dt) if out.dtype != dt else out


def _lse_abstract(a, b, axes, keepdims):
    return ShapedArray(reduced_shape(a.shape, axes, keepdims), special_dtype(a, b))


def _lse_unit_weight(ans, a, b, axes, keepdims):
    """exp(a - lse) (with the sign of the sum when b has negative entries): the softmax
    weights; 0 where undefined (an all -inf slice)."""
    kd = reduced_shape(a.shape, axes, True)
    d = a - reshape(ans, kd)
    # an all -inf slice gives -inf - -inf = nan: weight 0, through exp(-inf) so that the
    # rule's own derivatives are 0 there too (a select after exp would pass nan * 0 back)
    w = exp(where(isnan(d), -np.inf, d))
    if type(b) is not float:
        w = w * sign(reduce_sum(b * w, axes, keepdims=True))
    return w


def _lse_vjp_a(g, ans, a, b, axes, keepdims):
    w = _lse_unit_weight(ans, a, b, axes, keepdims)
    gk = broadcast_to(reshape(g, reduced_shape(a.shape, axes, True)), a.shape)
    return gk * (w if type(b) is float else b * w)


def _lse_vjp_b(g, ans, a, b, axes, keepdims):
    w = _lse_unit_weight(ans, a, b, axes, keepdims)
    return broadcast_to(reshape(g, reduced_shape(a.shape, axes, True)), a.shape) * w


def _lse_jvp_a(t, ans, a, b, axes, keepdims):
    w = _lse_unit_weight(ans, a, b, axes, keepdims)
    return reduce_sum(t * (w if type(b) is float else b * w), axes, keepdims)


def _lse_jvp_b(t, ans, a, b, axes, keepdims):
    return reduce_sum(t * _lse_unit_weight(ans, a, b, axes, keepdims), axes, keepdims)


logsumexp_p = Primitive("logsumexp", _lse_impl, _lse_abstract)
logsumexp_p.defvjp(_lse_vjp_a, _lse_vjp_b)
logsumexp_p.defjvp(_lse_jvp_a, _lse_jvp_b)


def _lse_batch(args, dims, *, axes, keepdims):
    """vmap: batch axes to the front (b, when an array, has a's per-example shape)."""
    n = batch_size(args, dims)

    def front(x, d):
        return to_front(x, d) if d is not None else broadcast_to(x, (n,) + tuple(x.shape))

    a, b = args
    a = front(a, dims[0])
    if type(b) is not float:
        b = front(b, dims[1])
    return logsumexp(a, b, tuple(ax + 1 for ax in axes), keepdims), 0


logsumexp_p.batch = _lse_batch


def logsumexp(a, b=1.0, axes=(), keepdims=False):
    """log|sum(b * exp(a))| over ``axes`` (normalised ints); ``b`` of a's shape or 1.0."""
    return logsumexp_p.bind(a, b, axes=tuple(axes), keepdims=bool(keepdims))
