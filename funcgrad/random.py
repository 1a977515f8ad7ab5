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
"""

from __future__ import annotations

import math

import numpy as np

from . import backend
from .core import Array, Tracer
from . import numpy as fnp

__all__ = [
    "key", "PRNGKey", "split", "fold_in", "bits", "uniform", "normal", "truncated_normal",
    "bernoulli", "randint", "permutation", "categorical", "choice", "gumbel", "exponential",
]

_ROT = ((13, 15, 26, 6), (17, 29, 16, 24))
_PARITY = 0x1BD11BDA


def _buf(k, fname):
    if isinstance(k, Tracer):
        raise TypeError(f"random.{fname}: the key must be a concrete key, not a traced value")
    if not isinstance(k, Array) or k.dtype != np.uint32 or k.shape != (2,):
        desc = f"{k.dtype}{list(k.shape)}" if hasattr(k, "shape") else type(k).__name__
        raise TypeError(
            f"random.{fname}: expected a key (uint32 array of shape (2,), made by "
            f"funcgrad.random.key(seed)), got {desc}"
        )
    return k._value


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


# --- keys ----------------------------------------------------------------------------

def key(seed, *, device=None) -> Array:
    """A new key from an integer seed (any Python int; taken modulo 2**64)."""
    if isinstance(seed, (Array, np.integer)):
        seed = int(seed)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"random.key: seed must be an int, got {type(seed).__name__}")
    seed %= 2**64
    host = np.array([seed >> 32, seed & 0xFFFFFFFF], dtype=np.uint32)
    return Array(host, device=device)


PRNGKey = key


def split(k, num=2) -> Array:
    """``num`` new independent keys, as a uint32 array of shape (num, 2) (iterable)."""
    kb = _buf(k, "split")
    num = int(num)
    if num < 0:
        raise ValueError(f"random.split: num must be >= 0, got {num}")
    words = _bits32(kb, 2 * num)
    return Array._from_buffer(words.reshape(num, 2))


def fold_in(k, data) -> Array:
    """A new key derived from ``k`` and the integer ``data`` (e.g. a step counter)."""
    kb = _buf(k, "fold_in")
    data = int(data) % 2**32
    xp = backend.namespace_of(kb)
    # a counter domain split never uses (its counters start at 0 in the first word)
    x0 = xp.full((1,), data, dtype=np.uint32)
    x1 = xp.full((1,), 0xFFFFFFFF, dtype=np.uint32)
    y0, y1 = _threefry(xp, kb[0], kb[1], x0, x1)
    return Array._from_buffer(xp.concatenate([y0, y1]))


def bits(k, shape=(), dtype=np.uint32) -> Array:
    """Uniform random bits: uint32 or uint64 words of the given shape."""
    kb = _buf(k, "bits")
    shape = _shape(shape, "bits")
    return Array._from_buffer(_bits(kb, shape, np.dtype(dtype)))


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

def uniform(k, shape=(), dtype=None, minval=0.0, maxval=1.0) -> Array:
    """Uniform on [minval, maxval) (float64 by default, as numpy)."""
    kb = _buf(k, "uniform")
    dt = _float_dtype(dtype, "uniform")
    u = _unit(kb, _shape(shape, "uniform"), dt)
    lo, hi = dt.type(minval), dt.type(maxval)
    if not lo <= hi:
        raise ValueError(f"random.uniform: need minval <= maxval, got {minval} and {maxval}")
    out = u * (hi - lo) + lo
    xp = backend.namespace_of(kb)
    return Array._from_buffer(xp.minimum(out, xp.nextafter(hi, lo)) if hi > lo else out)


def normal(k, shape=(), dtype=None, loc=0.0, scale=1.0) -> Array:
    """Normal(loc, scale**2) samples (Box-Muller on two uniform streams)."""
    kb = _buf(k, "normal")
    dt = _float_dtype(dtype, "normal")
    shape = _shape(shape, "normal")
    return Array._from_buffer(_normal(kb, shape, dt) * dt.type(scale) + dt.type(loc))


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
    kb = _buf(k, "truncated_normal")
    dt = _float_dtype(dtype, "truncated_normal")
    shape = _shape(shape, "truncated_normal")
    lower, upper = float(lower), float(upper)
    if not lower < upper:
        raise ValueError(f"random.truncated_normal: need lower < upper, got {lower} and {upper}")
    xp = backend.namespace_of(kb)
    n = math.prod(shape)
    lo, hi = max(lower, -40.0), min(upper, 40.0)
    use_normal = lo <= -1.5 and hi >= 1.5
    c = 0.0 if lo <= 0 <= hi else (lo if lo > 0 else hi)
    got, count = [], 0
    keys = split(Array._from_buffer(kb), 64)._value
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
            return Array._from_buffer(xp.concatenate(got)[:n].astype(dt).reshape(shape))
    raise RuntimeError("random.truncated_normal: could not draw enough samples by rejection")


def bernoulli(k, p=0.5, shape=None) -> Array:
    """Boolean samples, True with probability ``p`` (shape defaults to p's shape)."""
    kb = _buf(k, "bernoulli")
    p_buf = p._value if isinstance(p, Array) and not isinstance(p, Tracer) else p
    if shape is None:
        shape = getattr(p_buf, "shape", ())
    u = _unit(kb, _shape(shape, "bernoulli"), np.dtype(np.float64))
    return Array._from_buffer(u < p_buf)


def randint(k, shape, minval, maxval, dtype=np.int64) -> Array:
    """Integers uniform on [minval, maxval) (64 random bits per draw, so bias < 2**-32)."""
    kb = _buf(k, "randint")
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
    w = _bits(kb, shape, np.dtype(np.uint64))
    off = w % np.uint64(hi - lo)
    return Array._from_buffer((off.astype(np.int64) + lo).astype(dt) if hi - lo < 2**63 else
                              (off + np.uint64(lo % 2**64)).astype(dt))


def permutation(k, x, axis=0) -> Array:
    """A random permutation of ``range(x)`` (int x) or of x's entries along ``axis``."""
    kb = _buf(k, "permutation")
    if isinstance(x, (int, np.integer)):
        n = int(x)
        if n < 0:
            raise ValueError(f"random.permutation: n must be >= 0, got {n}")
        return Array._from_buffer(_perm(kb, n))
    x = fnp.asarray(x)
    if x.ndim == 0:
        raise ValueError("random.permutation: x must be an int or an array with at least one axis")
    idx = Array._from_buffer(_perm(kb, x.shape[axis]))
    return fnp.moveaxis(fnp.moveaxis(x, axis, 0)[idx], 0, axis)


def _perm(kb, n):
    xp = backend.namespace_of(kb)
    return xp.argsort(_bits(kb, (n,), np.dtype(np.uint64)), kind="stable").astype(np.int64)


def gumbel(k, shape=(), dtype=None) -> Array:
    """Standard Gumbel samples, -log(-log(u))."""
    kb = _buf(k, "gumbel")
    dt = _float_dtype(dtype, "gumbel")
    return Array._from_buffer(_gumbel(kb, _shape(shape, "gumbel"), dt))


def _gumbel(kb, shape, dt):
    xp = backend.namespace_of(kb)
    u = _unit(kb, shape, dt)
    tiny = np.finfo(dt).tiny
    return -xp.log(-xp.log(xp.maximum(u, dt.type(tiny))))


def exponential(k, shape=(), dtype=None) -> Array:
    """Standard exponential samples, -log(1 - u)."""
    kb = _buf(k, "exponential")
    dt = _float_dtype(dtype, "exponential")
    xp = backend.namespace_of(kb)
    return Array._from_buffer(-xp.log1p(-_unit(kb, _shape(shape, "exponential"), dt)))


def categorical(k, logits, axis=-1, shape=None) -> Array:
    """Indices drawn with probabilities softmax(logits) along ``axis`` (Gumbel-max).

    ``shape`` (default: logits' shape without ``axis``) must end with that shape.
    """
    kb = _buf(k, "categorical")
    logits = fnp.asarray(logits)
    if isinstance(logits, Tracer):
        raise TypeError("random.categorical: logits must be concrete (wrap them in stop_gradient)")
    axis = axis % logits.ndim
    batch = logits.shape[:axis] + logits.shape[axis + 1:]
    shape = batch if shape is None else _shape(shape, "categorical")
    if shape[len(shape) - len(batch):] != batch:
        raise ValueError(f"random.categorical: shape {shape} must end with the batch shape {batch}")
    lg = backend.namespace_of(logits._value).moveaxis(logits._value, axis, -1)
    g = _gumbel(kb, shape + (lg.shape[-1],), np.dtype(logits.dtype if logits.dtype.kind == "f" else float))
    return Array._from_buffer((g + lg).argmax(axis=-1))


def choice(k, a, shape=(), replace=True, p=None, axis=0) -> Array:
    """Random entries of ``a`` (or of ``range(a)`` for an int), optionally weighted by ``p``."""
    kb = _buf(k, "choice")
    shape = _shape(shape, "choice")
    n = int(a) if isinstance(a, (int, np.integer)) else fnp.asarray(a).shape[axis]
    m = math.prod(shape)
    if not replace and m > n:
        raise ValueError(f"random.choice: cannot take {m} samples from {n} without replacement")
    xp = backend.namespace_of(kb)
    if p is None:
        idx = _bits(kb, (m,), np.dtype(np.uint64)) % np.uint64(max(n, 1)) if replace else _perm(kb, n)[:m]
    else:
        pb = fnp.asarray(p)._value
        if pb.shape != (n,):
            raise ValueError(f"random.choice: p must have shape ({n},), got {tuple(pb.shape)}")
        logp = xp.log(pb)
        if replace:
            idx = (_gumbel(kb, (m, n), np.dtype(pb.dtype if pb.dtype.kind == "f" else float)) + logp).argmax(axis=-1)
        else:  # Gumbel top-k: sampling without replacement proportional to p
            g = _gumbel(kb, (n,), np.dtype(float)) + logp
            idx = xp.argsort(-g, kind="stable")[:m]
    idx = Array._from_buffer(idx.astype(np.int64).reshape(shape))
    if isinstance(a, (int, np.integer)):
        return idx
    a = fnp.asarray(a)
    return fnp.moveaxis(fnp.moveaxis(a, axis, 0)[idx], 0, axis) if a.ndim > 1 or axis else a[idx]
