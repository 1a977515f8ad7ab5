"""The stand-in's copies of cupy's differences from numpy (funcgrad/backend/standin.py documents them).

Installed into ``funcgrad.backend.standin.namespace`` when that module is imported: creation
``*_like`` functions, ``where``, ``matmul``, 1-d ``convolve``/``correlate``, quiet
``linalg`` with ``errstate``, and the scipy namespaces with cupyx's gaps.
"""

from __future__ import annotations

import contextlib

import numpy as _np

from .standin import _Namespace, _unwrap, _wrap, namespace

__all__ = ["errstate", "scipy_namespace", "CUPYX_LACKS"]

def _like(name):
    f = getattr(_np, name)

    def like(a, *args, shape=None, **kwargs):
        # cupy: `shape = shape if shape else a.shape`, so shape=() keeps a's shape
        return _wrap(f(_unwrap(a), *_unwrap(args), shape=shape if shape else None, **_unwrap(kwargs)))

    like.__name__ = name
    return like


for _n in ("zeros_like", "ones_like", "empty_like", "full_like"):
    setattr(namespace, _n, _like(_n))


def _where(condition, *args):
    if args and not hasattr(condition, "astype"):  # cupy.where calls condition.astype('?')
        raise AttributeError(f"'{type(condition).__name__}' object has no attribute 'astype'")
    return _wrap(_np.where(_unwrap(condition), *_unwrap(args)))


def _one_d_only(name):
    f = getattr(_np, name)

    def conv(a, v, mode="full"):
        if _unwrap(a).ndim != 1 or _unwrap(v).ndim != 1:
            raise NotImplementedError("Only 1d inputs are supported currently")
        return _wrap(f(_unwrap(a), _unwrap(v), mode=mode))

    conv.__name__ = name
    return conv


def _matmul(a, b, **kwargs):
    x, y = _unwrap(a), _unwrap(b)
    if getattr(x, "ndim", 0) and getattr(y, "ndim", 0) and x.shape[-1] != y.shape[max(y.ndim - 2, 0)]:
        raise ValueError("Axis dimension mismatch")  # cupy's wording
    return _wrap(_np.matmul(x, y, **_unwrap(kwargs)))


def _sign(x):
    a = _unwrap(x)
    if getattr(a, "dtype", None) == _np.bool_:  # cupy has a bool loop (numpy: TypeError)
        return _wrap(a.copy())
    return _wrap(_np.sign(a))


def _sinc(x):
    a = _unwrap(x)
    out = _np.sinc(a)
    if a.dtype.kind not in "fc":  # cupy's loops e, f, d: the first one a casts to safely
        out = out.astype(next(t for t in "efd" if _np.can_cast(a.dtype, t)))
    return _wrap(out)


namespace.where = _where
namespace.sign = _sign
namespace.sinc = _sinc
namespace.matmul = _matmul
namespace.convolve = _one_d_only("convolve")
namespace.correlate = _one_d_only("correlate")

# linalg: no LinAlgError unless errstate(linalg="raise") (cupyx.errstate's default is "ignore")
_LINALG_CONFIG = ["ignore"]


@contextlib.contextmanager
def errstate(*, linalg=None):
    """cupyx.errstate(linalg=...) for the stand-in: 'raise' makes linalg failures raise."""
    prev = _LINALG_CONFIG[0]
    if linalg is not None:
        _LINALG_CONFIG[0] = linalg
    try:
        yield
    finally:
        _LINALG_CONFIG[0] = prev


def _quiet_linalg(name):
    f = getattr(_np.linalg, name)

    def g(*args, **kwargs):
        host = _unwrap(args)
        try:
            return _wrap(f(*host, **_unwrap(kwargs)))
        except _np.linalg.LinAlgError:
            if _LINALG_CONFIG[0] == "raise":
                raise
            # what cupy returns without a check: garbage (NaN here), of the right shape
            like = [_np.broadcast_to(_np.eye(h.shape[-1]), h.shape) if i == 0 else h for i, h in enumerate(host)]
            return _wrap(_np.full_like(f(*like), _np.nan))

    g.__name__ = name
    return g


for _n in ("inv", "solve", "cholesky"):
    setattr(namespace.linalg, _n, _quiet_linalg(_n))
del _n

# what cupyx.scipy lacks (cupy 14): funcgrad raises its "no implementation on device" error there
CUPYX_LACKS = {"special": frozenset({"iv", "ive", "jv"}), "linalg": frozenset({"sqrtm"})}


def scipy_namespace(sub, module):
    """scipy.<sub> (``module``) as the stand-in's cupyx.scipy.<sub>: stand-in arrays in and out."""
    ns = _Namespace(f"funcgrad.standin.scipy.{sub}", module, hidden=CUPYX_LACKS.get(sub, ()))
    if sub == "special":
        def polygamma(n, x):
            if not hasattr(n, "astype"):  # cupyx: cupy.where(n == 0, ...) with a Python bool
                raise AttributeError("'bool' object has no attribute 'astype'")
            return _wrap(module.polygamma(_unwrap(n), _unwrap(x)))

        ns.polygamma = polygamma
    if sub == "signal":
        def auto_1d_only(name):
            f = getattr(module, name)

            def g(in1, in2, mode="full", method="auto"):
                a, b = _unwrap(in1), _unwrap(in2)
                if method == "auto" and (a.ndim != 1 or b.ndim != 1):  # cupy's _choose_conv_method
                    raise NotImplementedError("Only 1d inputs are supported currently")
                return _wrap(f(a, b, mode=mode, method=method))

            g.__name__ = name
            return g

        ns.convolve, ns.correlate = auto_1d_only("convolve"), auto_1d_only("correlate")
    if sub == "sparse":
        ns.coo_matrix = _coo_matrix(module)
    return ns


def _coo_matrix(module):
    """cupyx.scipy.sparse.coo_matrix((data, (row, col)), shape): stand-in arrays in, a matrix whose
    ``@`` takes and returns stand-in arrays; like cupyx, only bool/float/complex values."""
    class StandinCoo:
        def __init__(self, arg, shape):
            data, (row, col) = arg
            data = _unwrap(data)
            if data.dtype.char not in "?fdFD":  # cupyx's check
                raise ValueError("Only bool, float32, float64, complex64 and complex128 are supported")
            self._m = module.coo_matrix((data, (_unwrap(row), _unwrap(col))), shape=shape)

        def __matmul__(self, other):
            return _wrap(self._m @ _unwrap(other))

    return StandinCoo
