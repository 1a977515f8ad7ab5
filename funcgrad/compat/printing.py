"""repr as PyTorch prints it, and set_printoptions."""

from __future__ import annotations

import numpy as np

from .. import backend
from . import dtypes

__all__ = ["set_printoptions", "tensor_repr"]

_OPTS = {"precision": 4, "threshold": 1000, "edgeitems": 3, "linewidth": 80, "sci_mode": None}
_PROFILES = {
    "default": dict(precision=4, threshold=1000, edgeitems=3, linewidth=80),
    "short": dict(precision=2, threshold=1000, edgeitems=2, linewidth=80),
    "full": dict(precision=4, threshold=float("inf"), edgeitems=3, linewidth=80),
}


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None, sci_mode=None):
    if profile is not None:
        _OPTS.update(_PROFILES[profile])
    for k, v in dict(precision=precision, threshold=threshold, edgeitems=edgeitems, linewidth=linewidth).items():
        if v is not None:
            _OPTS[k] = v
    _OPTS["sci_mode"] = sci_mode


def _summarized(host):
    """The elements PyTorch shows (edge items only, for large tensors)."""
    if host.size <= _OPTS["threshold"] or host.ndim == 0:
        return host
    e = _OPTS["edgeitems"]
    for d in range(host.ndim):
        if host.shape[d] > 2 * e:
            host = np.concatenate([np.take(host, range(e), d), np.take(host, range(host.shape[d] - e, host.shape[d]), d)], d)
    return host


def _float_formatter(shown):
    p = _OPTS["precision"]
    vals = shown.astype(np.float64).ravel()
    nzf = vals[np.isfinite(vals) & (vals != 0)]
    int_mode = bool(np.all(nzf == np.ceil(nzf)))
    sci = _OPTS["sci_mode"]
    if nzf.size:
        big, small = np.abs(nzf).max(), np.abs(nzf).min()
        if sci is None:
            sci = big / small > 1000.0 or big > 1e8 or (not int_mode and small < 1e-4)
    if sci:
        fmt = lambda v: f"{v:.{p}e}" if np.isfinite(v) else _special(v)  # noqa: E731
    elif int_mode:
        fmt = lambda v: f"{v:.0f}." if np.isfinite(v) else _special(v)  # noqa: E731
    else:
        fmt = lambda v: f"{v:.{p}f}" if np.isfinite(v) else _special(v)  # noqa: E731
    width = max((len(fmt(v)) for v in nzf), default=1)
    return fmt, width


def _special(v):
    return "nan" if np.isnan(v) else ("inf" if v > 0 else "-inf")


def _body(host, indent):
    shown = _summarized(host)
    if host.dtype.kind in "biu":
        fmt = str
        width = max((len(str(v)) for v in shown.ravel()), default=1)
    elif host.dtype.kind == "c":
        p = _OPTS["precision"]
        fmt = lambda v: f"{v.real:.{p}f}{v.imag:+.{p}f}j"  # noqa: E731
        width = max((len(fmt(v)) for v in shown.ravel()), default=1)
    else:
        fmt, width = _float_formatter(shown)
    return np.array2string(
        host, max_line_width=_OPTS["linewidth"], separator=", ", prefix=" " * indent,
        formatter={"all": lambda v: fmt(v).rjust(width)},
        threshold=_OPTS["threshold"] if np.isfinite(_OPTS["threshold"]) else np.inf,
        edgeitems=_OPTS["edgeitems"])


def tensor_repr(t, prefix="tensor("):
    host = backend.to_numpy(t._value)
    extras = []
    if host.size == 0:
        body = "[]"
        if host.shape != (0,):
            extras.append(f"size={tuple(host.shape)}")
    else:
        body = _body(host, len(prefix))
    if t.device.type != "cpu":
        extras.append(f"device='{t.device}'")
    dt = t.dtype
    if dt not in (dtypes.get_default_dtype(), dtypes.int64, dtypes.bool) or (host.size == 0 and dt is not dtypes.get_default_dtype()):
        extras.append(f"dtype={dt}")
    if t.grad_fn is not None:
        extras.append(f"grad_fn=<{t.grad_fn.name()}>")
    elif t._req:
        extras.append("requires_grad=True")
    return prefix + body + "".join(", " + e for e in extras) + ")"
