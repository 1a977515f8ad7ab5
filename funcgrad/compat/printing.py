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


def _float_formatter(host):
    p = _OPTS["precision"]
    finite = host[np.isfinite(host)].astype(np.float64)
    nz = np.abs(finite[finite != 0])
    if finite.size == 0 or np.all(finite == np.round(finite)) and (nz.size == 0 or nz.max() < 1e8):
        if _OPTS["sci_mode"]:
            return lambda v: f"{v:.{p}e}"
        return lambda v: f"{v:.0f}." if np.isfinite(v) else str(v).replace("inf", "inf")
    sci = _OPTS["sci_mode"]
    if sci is None:
        sci = nz.size > 0 and (nz.max() / nz.min() > 1000.0 or nz.max() > 1e8 or nz.min() < 1e-4)
    if sci:
        return lambda v: f"{v:.{p}e}" if np.isfinite(v) else str(v)
    return lambda v: f"{v:.{p}f}" if np.isfinite(v) else str(v)


def _body(host, indent):
    if host.dtype.kind == "b":
        fmt = str
    elif host.dtype.kind in "iu":
        fmt = str
    elif host.dtype.kind == "c":
        p = _OPTS["precision"]
        fmt = lambda v: f"{v.real:.{p}f}{v.imag:+.{p}f}j"  # noqa: E731
    else:
        fmt = _float_formatter(host)
    summarize = host.size > _OPTS["threshold"]
    sample = host
    strs = [fmt(v) for v in (np.concatenate([host.ravel()[:1000]]) if not summarize else host.ravel()[:1000])]
    width = max((len(s) for s in strs), default=1)
    if summarize:
        width = max(width, max(len(fmt(v)) for v in host.ravel()[-1000:]))
    return np.array2string(
        sample, max_line_width=_OPTS["linewidth"], separator=", ", prefix=" " * indent,
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
