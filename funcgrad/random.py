"""Counter-based pseudo-random numbers with explicit keys (no global state).

    key = fg.random.key(0)
    k1, k2 = fg.random.split(key)
    x = fg.random.normal(k1, (3, 4))

A key is a ``uint32`` Array of shape ``(2,)``.  Every sampler is a pure
function of its key: the same key gives the same numbers, on every backend.
Bits come from Threefry-2x32 (20 rounds; Salmon et al., "Parallel random
numbers: as easy as 1, 2, 3", SC 2011), computed with uint32 operations of the
key's array namespace, so samples are drawn on the key's device (keys are
made on the default device).  Never reuse a key for two draws you want
independent: ``split`` it (or ``fold_in`` a counter) first.

Every draw is one application of the ``random`` primitive (``random_p``), so keys
are traced like any array: a key passed to a jitted function, split inside a
``lax.scan`` body, ``fold_in`` of a traced step counter, ``vmap`` over a batch of
keys (one draw per key, as JAX).  Draws have no derivative; bounds, ``loc`` and
``scale`` are static Python numbers (scale a standard draw for traced ones).
"""

from __future__ import annotations

import math

import numpy as np

from . import backend
from . import numpy as fnp
from .core import Array, Primitive, ShapedArray, Tracer
from .primitives._batching import moveaxis

__all__ = [
    "key", "PRNGKey", "split", "fold_in", "bits", "uniform", "normal", "truncated_normal",
    "bernoulli", "randint", "permutation", "categorical", "choice", "gumbel", "exponential", "random_p",
]

_ROT = ((13, 15, 26, 6), (17, 29, 16, 24))
_PARITY = 0x1BD11BDA


def _check_key(k, fname):
    """``k`` if it is a key: a uint32 Array (or a traced value) of shape (2,)."""
    if not isinstance(k, (Array, Tracer)) or np.dtype(k.dtype) != np.uint32 or tuple(k.shape) != (2,):
        desc = f"{np.dtype(k.dtype)}{list(k.shape)}" if hasattr(k, "shape") else type(k).__name__
        raise TypeError(
            f"random.{fname}: expected a key (uint32 array of shape (2,), made by "
            f"funcgrad.random.key(seed)), got {desc}"
        )
    return k


def _threefry(xp, k0, k1, x0, x1):
    """Threefry-2x32, 20 rounds: (key words, counter words) -> two uint32 arrays."""
    u32 = np.uint32
    k2 = xp.bitwise_xor(xp.bitwise_xor(k0, k1), u32(_PARITY))
    ks = (k0, k1, k2)
    x0 = xp.add(x0, k0)
    x1 = xp.add(x1, k1)
    for block in range(5):
        for r in _ROT[block % 2]:
            x0 = xp.add(x0, x1)
            x1 = xp.bitwise_or(xp.left_shift(x1, u32(r)), xp.right_shift(x1, u32(32 - r)))
            x1 = xp.bitwise_xor(x1, x0)
        x0 = xp.add(x0, ks[(block + 1) % 3])
        x1 = xp.add(xp.add(x1, ks[(block + 2) % 3]), u32(block + 1))
    return x0, x1


def _bits32(kbuf, n):
    """n uint32 words from the key (a backend buffer)."""
    xp = backend.namespace_of(kbuf)
    half = (n + 1) // 2
    ctr = xp.arange(2 * half, dtype=np.uint32)
    y0, y1 = _threefry(xp, kbuf[0], kbuf[1], ctr[:half], ctr[half:])
    return xp.concatenate([y0, y1])[:n]


def _shape(shape, fname):
    if shape is None:
        return ()
    if isinstance(shape, (int, np.integer)):
        shape = (shape,)
    try:
        shape = tuple(int(d) for d in shape)
    except TypeError:
        raise TypeError(f"random.{fname}: shape must be a tuple of ints, got {shape!r}") from None
    if any(d < 0 for d in shape):
        raise ValueError(f"random.{fname}: negative dimensions are not allowed, got shape {shape}")
    return shape


def _float_dtype(dtype, fname):
    dt = np.dtype(float if dtype is None else dtype)
    if dt not in (np.float32, np.float64):
        raise TypeError(f"random.{fname}: dtype must be float32 or float64, got {dt}")
    return dt


# --- the primitive ---------------------------------------------------------------------
#
# Every draw is one application of ``random_p``: operands the key (and, for some kinds, arrays the
# draw depends on: fold_in's data, bernoulli's p, categorical's logits, choice's weights), params
# the kind of draw and its static arguments (shape, dtype, bounds).  Its impl is the buffer code
# below, its abstract rule the output's shape and dtype, so keys can be traced: passed to a jitted
# function, split inside a ``scan`` body, vmapped over (the batching rule draws per key).  Draws
# have no derivative with respect to the key (it is an integer array).

def _impl(kb, *extra, kind, **static):
    return _KINDS[kind][0](kb, *extra, **static)


def _abstract(key_aval, *extra, kind, **static):
    shape, dtype = _KINDS[kind][1](*extra, **static)
    return ShapedArray(shape, dtype)


def _batch(args, dims, kind, **static):
    """Draw per example: a key batch of B keys gives B independent draws (stacked on axis 0)."""
    size = next(a.shape[d] for a, d in zip(args, dims) if d is not None)
    args = [a if d is None else moveaxis(a, d, 0) for a, d in zip(args, dims)]
    outs = [random_p.bind(*[a if d is None else a[i] for a, d in zip(args, dims)], kind=kind, **static)
            for i in range(size)]
    if outs:
        return fnp.stack(outs), 0
    one = _abstract(*[ShapedArray(tuple(a.shape)[d is not None:], a.dtype) for a, d in zip(args, dims)],
                    kind=kind, **static)  # an empty batch: no draw, the shape of one
    return fnp.zeros((0,) + tuple(one.shape), one.dtype), 0


random_p = Primitive("random", _impl, _abstract, differentiable=False)
random_p.batch = _batch


def _draw(k, fname, kind, *extra, **static):
    return random_p.bind(_check_key(k, fname), *extra, kind=kind, **static)


def _split_buf(kb, num):
    return _bits32(kb, 2 * num).reshape(num, 2)


def _fold_in_buf(kb, data):
    xp = backend.namespace_of(kb)
    # a counter domain split never uses (its counters start at 0 in the first word)
    x0 = xp.reshape(xp.asarray(data).astype(np.int64).astype(np.uint32), (1,))  # data modulo 2**32
    x1 = xp.full((1,), 0xFFFFFFFF, dtype=np.uint32)
    y0, y1 = _threefry(xp, kb[0], kb[1], x0, x1)
    return xp.concatenate([y0, y1])


def _uniform_buf(kb, shape, dtype, lo, hi):
    dt = np.dtype(dtype)
    out = _unit(kb, shape, dt) * (dt.type(hi) - dt.type(lo)) + dt.type(lo)
    xp = backend.namespace_of(kb)
    return xp.minimum(out, xp.nextafter(dt.type(hi), dt.type(lo))) if hi > lo else out


def _normal_buf(kb, shape, dtype, loc, scale):
    dt = np.dtype(dtype)
    return _normal(kb, shape, dt) * dt.type(scale) + dt.type(loc)


def _randint_buf(kb, shape, lo, hi, dtype):
    dt = np.dtype(dtype)
    w = _bits(kb, shape, np.dtype(np.uint64))
    off = w % np.uint64(hi - lo)
    return (off.astype(np.int64) + lo).astype(dt) if hi - lo < 2**63 else (off + np.uint64(lo % 2**64)).astype(dt)


def _exponential_buf(kb, shape, dtype):
    xp = backend.namespace_of(kb)
    return -xp.log1p(-_unit(kb, shape, np.dtype(dtype)))


def _categorical_buf(kb, logits, axis, shape):
    lg = backend.namespace_of(logits).moveaxis(logits, axis, -1)
    g = _gumbel(kb, shape + (lg.shape[-1],), np.dtype(logits.dtype if logits.dtype.kind == "f" else float))
    return (g + lg).argmax(axis=-1).astype(np.int64)


def _choice_buf(kb, *p, n, m, replace, shape):
    xp = backend.namespace_of(kb)
    if not p:
        idx = _bits(kb, (m,), np.dtype(np.uint64)) % np.uint64(max(n, 1)) if replace else _perm(kb, n)[:m]
    else:
        logp = xp.log(p[0])
        if replace:
            idx = (_gumbel(kb, (m, n), np.dtype(p[0].dtype if p[0].dtype.kind == "f" else float)) + logp).argmax(-1)
        else:  # Gumbel top-k: sampling without replacement proportional to p
            g = _gumbel(kb, (n,), np.dtype(float)) + logp
            idx = xp.argsort(-g, kind="stable")[:m]
    return idx.astype(np.int64).reshape(shape)


def _bernoulli_buf(kb, p, shape):
    return _unit(kb, shape, np.dtype(np.float64)) < p


_I64 = np.dtype(np.int64)
_KINDS = {  # kind: (impl on buffers, (extra avals, **static) -> (shape, dtype))
    "split": (lambda kb, num: _split_buf(kb, num), lambda num: ((num, 2), np.dtype(np.uint32))),
    "fold_in": (_fold_in_buf, lambda data: ((2,), np.dtype(np.uint32))),
    "bits": (lambda kb, shape, dtype: _bits(kb, shape, np.dtype(dtype)), lambda shape, dtype: (shape, dtype)),
    "uniform": (_uniform_buf, lambda shape, dtype, lo, hi: (shape, dtype)),
    "normal": (_normal_buf, lambda shape, dtype, loc, scale: (shape, dtype)),
    "truncated_normal": (lambda kb, shape, dtype, lower, upper: _truncated_buf(kb, shape, np.dtype(dtype), lower, upper),
                         lambda shape, dtype, lower, upper: (shape, dtype)),
    "bernoulli": (_bernoulli_buf, lambda p, shape: (shape, np.dtype(bool))),
    "randint": (_randint_buf, lambda shape, lo, hi, dtype: (shape, dtype)),
    "permutation": (lambda kb, n: _perm(kb, n), lambda n: ((n,), _I64)),
    "gumbel": (lambda kb, shape, dtype: _gumbel(kb, shape, np.dtype(dtype)), lambda shape, dtype: (shape, dtype)),
    "exponential": (_exponential_buf, lambda shape, dtype: (shape, dtype)),
    "categorical": (_categorical_buf, lambda logits, axis, shape: (shape, _I64)),
    "choice": (_choice_buf, lambda *p, n, m, replace, shape: (shape, _I64)),
}


# --- keys ----------------------------------------------------------------------------

def key(seed, *, device=None) -> Array:
    """A new key from an integer seed (any Python int; taken modulo 2**64)."""
    if isinstance(seed, (Array, np.integer)) and not isinstance(seed, Tracer):
        seed = int(seed)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"random.key: seed must be an int, got {type(seed).__name__}")
    seed %= 2**64
    host = np.array([seed >> 32, seed & 0xFFFFFFFF], dtype=np.uint32)
    return Array(host, device=device)


PRNGKey = key


def split(k, num=2) -> Array:
    """``num`` new independent keys, as a uint32 array of shape (num, 2) (iterable)."""
    num = int(num)
    if num < 0:
        raise ValueError(f"random.split: num must be >= 0, got {num}")
    return _draw(k, "split", "split", num=num)


def fold_in(k, data) -> Array:
    """A new key derived from ``k`` and the integer ``data`` (e.g. a step counter; may be traced)."""
    if isinstance(data, (Array, Tracer)):
        if np.dtype(data.dtype).kind not in "iub" or tuple(data.shape) != ():
            raise TypeError(f"random.fold_in: data must be an integer scalar, got {np.dtype(data.dtype)}"
                            f"{list(data.shape)}")
    else:
        data = fnp.asarray(int(data) % 2**32, dtype=np.int64)
    return _draw(k, "fold_in", "fold_in", data)


def bits(k, shape=(), dtype=np.uint32) -> Array:
    """Uniform random bits: uint32 or uint64 words of the given shape."""
    dtype = np.dtype(dtype)
    if dtype not in (np.uint32, np.uint64):
        raise TypeError(f"random.bits: dtype must be uint32 or uint64, got {dtype}")
    return _draw(k, "bits", "bits", shape=_shape(shape, "bits"), dtype=dtype)


def _bits(kb, shape, dtype):
    n = math.prod(shape)
    if dtype == np.uint32:
        return _bits32(kb, n).reshape(shape)
    if dtype != np.uint64:
        raise TypeError(f"random.bits: dtype must be uint32 or uint64, got {dtype}")
    xp = backend.namespace_of(kb)
    w = _bits32(kb, 2 * n).astype(np.uint64)
    return xp.bitwise_or(xp.left_shift(w[:n], np.uint64(32)), w[n:]).reshape(shape)


def _unit(kb, shape, dt):
    """Uniform floats in [0, 1) with the full mantissa of ``dt`` (a backend buffer)."""
    xp = backend.namespace_of(kb)
    if dt == np.float32:
        w = _bits(kb, shape, np.dtype(np.uint32))
        m = xp.bitwise_or(xp.right_shift(w, np.uint32(9)), np.uint32(0x3F800000))
        return m.view(np.float32) - np.float32(1.0)
    w = _bits(kb, shape, np.dtype(np.uint64))
    m = xp.bitwise_or(xp.right_shift(w, np.uint64(12)), np.uint64(0x3FF0000000000000))
    return m.view(np.float64) - 1.0


# --- samplers ------------------------------------------------------------------------

def _static_float(v, fname, what):
    if isinstance(v, Tracer):
        raise TypeError(f"random.{fname}: {what} must be a Python number (a static argument of the draw), "
                        "got a traced value; scale the standard draw instead (e.g. loc + scale * normal(k))")
    return float(v)


def uniform(k, shape=(), dtype=None, minval=0.0, maxval=1.0) -> Array:
    """Uniform on [minval, maxval) (float64 by default, as numpy)."""
    dt = _float_dtype(dtype, "uniform")
    lo, hi = (_static_float(v, "uniform", n) for v, n in ((minval, "minval"), (maxval, "maxval")))
    if not dt.type(lo) <= dt.type(hi):
        raise ValueError(f"random.uniform: need minval <= maxval, got {minval} and {maxval}")
    return _draw(k, "uniform", "uniform", shape=_shape(shape, "uniform"), dtype=dt, lo=lo, hi=hi)


def normal(k, shape=(), dtype=None, loc=0.0, scale=1.0) -> Array:
    """Normal(loc, scale**2) samples (Box-Muller on two uniform streams)."""
    dt = _float_dtype(dtype, "normal")
    loc, scale = _static_float(loc, "normal", "loc"), _static_float(scale, "normal", "scale")
    return _draw(k, "normal", "normal", shape=_shape(shape, "normal"), dtype=dt, loc=loc, scale=scale)


def _normal(kb, shape, dt):
    xp = backend.namespace_of(kb)
    n = math.prod(shape)
    u = _unit(kb, (2, n), dt)
    r = xp.sqrt(-2.0 * xp.log1p(-u[0]))  # 1 - u in (0, 1]: log is finite
    return (r * xp.cos((2 * np.pi) * u[1])).astype(dt).reshape(shape)


def truncated_normal(k, lower, upper, shape=(), dtype=None) -> Array:
    """Standard normal samples conditioned on ``lower <= x <= upper`` (exact rejection).

    Proposals are normal draws when the interval holds 0 and is wide, else uniform
    draws on the interval accepted with probability exp((c**2 - x**2) / 2), c the
    point of the interval nearest 0.
    """
    dt = _float_dtype(dtype, "truncated_normal")
    shape = _shape(shape, "truncated_normal")
    lower = _static_float(lower, "truncated_normal", "lower")
    upper = _static_float(upper, "truncated_normal", "upper")
    if not lower < upper:
        raise ValueError(f"random.truncated_normal: need lower < upper, got {lower} and {upper}")
    return _draw(k, "truncated_normal", "truncated_normal", shape=shape, dtype=dt, lower=lower, upper=upper)


def _truncated_buf(kb, shape, dt, lower, upper):
    xp = backend.namespace_of(kb)
    n = math.prod(shape)
    lo, hi = max(lower, -40.0), min(upper, 40.0)
    use_normal = lo <= -1.5 and hi >= 1.5
    c = 0.0 if lo <= 0 <= hi else (lo if lo > 0 else hi)
    got, count = [], 0
    keys = _split_buf(kb, 64)
    for i in range(64):
        k1, k2 = _bits32(keys[i], 4).reshape(2, 2)
        m = 4 * max(n, 1)
        if use_normal:
            cand = _normal(k1, (m,), dt)
            ok = (cand >= lo) & (cand <= hi)
        else:
            cand = _unit(k1, (m,), dt) * dt.type(hi - lo) + dt.type(lo)
            ok = _unit(k2, (m,), dt) < xp.exp((c * c - cand * cand) / 2)
        got.append(cand[ok])
        count += int(got[-1].shape[0])
        if count >= n:
            return xp.concatenate(got)[:n].astype(dt).reshape(shape)
    raise RuntimeError("random.truncated_normal: could not draw enough samples by rejection")


def bernoulli(k, p=0.5, shape=None) -> Array:
    """Boolean samples, True with probability ``p`` (shape defaults to p's shape; p may be traced)."""
    p = fnp.asarray(p) if not isinstance(p, (Array, Tracer)) else p
    shape = tuple(p.shape) if shape is None else _shape(shape, "bernoulli")
    return _draw(k, "bernoulli", "bernoulli", p, shape=shape)


def randint(k, shape, minval, maxval, dtype=np.int64) -> Array:
    """Integers uniform on [minval, maxval) (64 random bits per draw, so bias < 2**-32)."""
    shape = _shape(shape, "randint")
    lo, hi = int(minval), int(maxval)
    if hi <= lo:
        raise ValueError(f"random.randint: need minval < maxval, got {minval} and {maxval}")
    dt = np.dtype(dtype)
    if dt.kind not in "iu":
        raise TypeError(f"random.randint: dtype must be an integer dtype, got {dt}")
    info = np.iinfo(dt)
    if lo < info.min or hi - 1 > info.max:
        raise ValueError(f"random.randint: [{minval}, {maxval}) does not fit in {dt}")
    return _draw(k, "randint", "randint", shape=shape, lo=lo, hi=hi, dtype=dt)


def permutation(k, x, axis=0) -> Array:
    """A random permutation of ``range(x)`` (int x) or of x's entries along ``axis``."""
    if isinstance(x, (int, np.integer)):
        n = int(x)
        if n < 0:
            raise ValueError(f"random.permutation: n must be >= 0, got {n}")
        return _draw(k, "permutation", "permutation", n=n)
    x = fnp.asarray(x)
    if x.ndim == 0:
        raise ValueError("random.permutation: x must be an int or an array with at least one axis")
    idx = _draw(k, "permutation", "permutation", n=x.shape[axis])
    return fnp.moveaxis(fnp.moveaxis(x, axis, 0)[idx], 0, axis)


def _perm(kb, n):
    xp = backend.namespace_of(kb)
    return xp.argsort(_bits(kb, (n,), np.dtype(np.uint64)), kind="stable").astype(np.int64)


def gumbel(k, shape=(), dtype=None) -> Array:
    """Standard Gumbel samples, -log(-log(u))."""
    dt = _float_dtype(dtype, "gumbel")
    return _draw(k, "gumbel", "gumbel", shape=_shape(shape, "gumbel"), dtype=dt)


def _gumbel(kb, shape, dt):
    xp = backend.namespace_of(kb)
    u = _unit(kb, shape, dt)
    tiny = np.finfo(dt).tiny
    return -xp.log(-xp.log(xp.maximum(u, dt.type(tiny))))


def exponential(k, shape=(), dtype=None) -> Array:
    """Standard exponential samples, -log(1 - u)."""
    dt = _float_dtype(dtype, "exponential")
    return _draw(k, "exponential", "exponential", shape=_shape(shape, "exponential"), dtype=dt)


def categorical(k, logits, axis=-1, shape=None) -> Array:
    """Indices drawn with probabilities softmax(logits) along ``axis`` (Gumbel-max; logits may be traced,
    the indices have no derivative).

    ``shape`` (default: logits' shape without ``axis``) must end with that shape.
    """
    logits = fnp.asarray(logits)
    if logits.ndim == 0:
        raise ValueError("random.categorical: logits must have at least one axis")
    axis = axis % logits.ndim
    batch = tuple(logits.shape[:axis]) + tuple(logits.shape[axis + 1:])
    shape = batch if shape is None else _shape(shape, "categorical")
    if shape[len(shape) - len(batch):] != batch:
        raise ValueError(f"random.categorical: shape {shape} must end with the batch shape {batch}")
    return _draw(k, "categorical", "categorical", logits, axis=axis, shape=shape)


def choice(k, a, shape=(), replace=True, p=None, axis=0) -> Array:
    """Random entries of ``a`` (or of ``range(a)`` for an int), optionally weighted by ``p``."""
    shape = _shape(shape, "choice")
    n = int(a) if isinstance(a, (int, np.integer)) else fnp.asarray(a).shape[axis]
    m = math.prod(shape)
    if not replace and m > n:
        raise ValueError(f"random.choice: cannot take {m} samples from {n} without replacement")
    extra = ()
    if p is not None:
        p = fnp.asarray(p)
        if tuple(p.shape) != (n,):
            raise ValueError(f"random.choice: p must have shape ({n},), got {tuple(p.shape)}")
        extra = (p,)
    idx = _draw(k, "choice", "choice", *extra, n=n, m=m, replace=bool(replace), shape=shape)
    if isinstance(a, (int, np.integer)):
        return idx
    a = fnp.asarray(a)
    return fnp.moveaxis(fnp.moveaxis(a, axis, 0)[idx], 0, axis) if a.ndim > 1 or axis else a[idx]
