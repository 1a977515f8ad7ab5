"""``torch.testing``: ``assert_close`` (PyTorch's tolerances and mismatch messages) and ``make_tensor``.

``assert_close(actual, expected)`` compares Tensors, numpy arrays and Python
numbers, recursing into sequences and mappings; values match when
``|actual - expected| <= atol + rtol * |expected|`` (NaNs match only with
``equal_nan=True``; infinities must be equal).  Omitted tolerances default per
dtype as in PyTorch (the looser of the two inputs' dtypes).  Layout, stride and
memory-format checks are accepted and have nothing to check here.
"""

from __future__ import annotations

import collections.abc as _abc
import numbers

import numpy as np

from ..backend import kind_of
from .. import backend
from . import dtypes
from .creation import _finish, _rng
from .tensor import Tensor

__all__ = ["assert_close", "make_tensor", "assert_allclose"]

# dtype name -> (rtol, atol), PyTorch's defaults (torch/testing/_comparison.py)
_TOLERANCES = {
    "float16": (1e-3, 1e-5), "bfloat16": (1.6e-2, 1e-5), "float32": (1.3e-6, 1e-5), "float64": (1e-7, 1e-7),
    "complex32": (1e-3, 1e-5), "complex64": (1.3e-6, 1e-5), "complex128": (1e-7, 1e-7),
}


def _name(d):
    return str(d).replace("torch.", "")


def _default_tol(*dts):
    tols = [_TOLERANCES.get(_name(d), (0.0, 0.0)) for d in dts]
    return max(t[0] for t in tols), max(t[1] for t in tols)


def _tolerances(dts, rtol, atol):
    if (rtol is None) != (atol is None):
        missing = "atol" if atol is None else "rtol"
        raise ValueError(f"Both 'rtol' and 'atol' must be either specified or omitted, but got no {missing}.")
    if rtol is None:
        return _default_tol(*dts)
    return rtol, atol


class _Fail(AssertionError):
    def __init__(self, message, path=(), exc_type=AssertionError):
        super().__init__(message)
        self.message, self.path, self.exc_type = message, path, exc_type


def _diff_line(kind, diff, idx, tol, equality):
    line = f"{kind.title()} difference: {diff}" if idx is None else f"Greatest {kind} difference: {diff} at index {idx}"
    return line + ("" if equality else f" (up to {tol} allowed)") + "\n"


def _mismatch_msg(default_id, extra, abs_diff, abs_idx, rel_diff, rel_idx, rtol, atol):
    equality = rtol == 0 and atol == 0
    msg = f"{default_id} are not {'equal' if equality else 'close'}!\n\n{extra.strip()}\n"
    msg += _diff_line("absolute", abs_diff, abs_idx, atol, equality)
    msg += _diff_line("relative", rel_diff, rel_idx, rtol, equality)
    return msg.strip()


def _isclose(a, e, rtol, atol, equal_nan):
    with np.errstate(invalid="ignore", over="ignore"):
        if a.dtype.kind in "biu" and e.dtype.kind in "biu":
            return a == e if rtol == 0 and atol == 0 else np.isclose(a, e, rtol=rtol, atol=atol)
        return np.isclose(a, e, rtol=rtol, atol=atol, equal_nan=equal_nan)


def _compare_arrays(a, e, a_dt, e_dt, rtol, atol, equal_nan, check_dtype):
    if a.shape != e.shape:
        raise _Fail(f"The values for attribute 'shape' do not match: torch.Size({list(a.shape)}) != "
                    f"torch.Size({list(e.shape)}).")
    if check_dtype and _name(a_dt) != _name(e_dt):
        raise _Fail(f"The values for attribute 'dtype' do not match: torch.{_name(a_dt)} != torch.{_name(e_dt)}.")
    rtol, atol = _tolerances((a_dt, e_dt), rtol, atol)
    if a.dtype != e.dtype:  # check_dtype=False: compare in the promoted dtype, as PyTorch does
        common = np.promote_types(a.dtype, e.dtype)
        a, e = a.astype(common), e.astype(common)
    matches = _isclose(a, e, rtol, atol, equal_nan)
    if bool(np.all(matches)):
        return
    if a.ndim == 0:  # 0-d tensors report as scalars (their ``.item()``), as PyTorch does
        x, y = a.item(), e.item()
        abs_diff = abs(x - y)
        rel_diff = abs_diff / abs(y) if y != 0 else float("inf") if abs_diff != 0 else float("nan")
        raise _Fail(_mismatch_msg("Scalars", f"Expected {y} but got {x}.", abs_diff, None, rel_diff, None,
                                  rtol, atol))
    n = matches.size
    bad = n - int(np.count_nonzero(matches))
    extra = f"Mismatched elements: {bad} / {n} ({bad / n:.1%})"
    af, ef, mf = a.reshape(-1), e.reshape(-1), matches.reshape(-1)
    if af.dtype.kind in "biu":
        af, ef = af.astype(np.int64), ef.astype(np.int64)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        abs_diff = np.abs(af - ef)
        abs_diff[mf] = 0
        rel_dtype = dtypes.get_default_dtype().dtype if abs_diff.dtype.kind in "iu" else None
        rel_diff = np.true_divide(abs_diff, np.abs(ef), dtype=rel_dtype)
        rel_diff[mf] = 0
    ai, ri = int(np.argmax(abs_diff)), int(np.argmax(rel_diff))
    shape = a.shape

    def unravel(i):
        return tuple(int(k) for k in np.unravel_index(i, shape)) if shape else ()

    raise _Fail(_mismatch_msg("Tensor-likes", extra, abs_diff[ai].item(), unravel(ai), rel_diff[ri].item(),
                              unravel(ri), rtol, atol))


def _compare_numbers(a, e, rtol, atol, equal_nan, check_dtype):
    if check_dtype and type(a) is not type(e):
        raise _Fail(f"The (d)types do not match: {type(a)} != {type(e)}.")
    kind = lambda x: "bool" if isinstance(x, bool) else "int64" if isinstance(x, int) else (  # noqa: E731
        "complex128" if isinstance(x, complex) else "float64")
    rtol, atol = _tolerances((kind(a), kind(e)), rtol, atol)
    if a == e or (equal_nan and _isnan(a) and _isnan(e)):
        return
    if not (_isnan(a) or _isnan(e)) and not (_isinf(a) or _isinf(e)) and abs(a - e) <= atol + rtol * abs(e):
        return
    abs_diff = abs(a - e)
    if isinstance(abs_diff, bool):
        abs_diff = int(abs_diff)
    rel_diff = abs_diff / abs(e) if e != 0 else float("inf")
    raise _Fail(_mismatch_msg("Scalars", f"Expected {e} but got {a}.", abs_diff, None, rel_diff, None, rtol, atol))


def _isnan(x):
    return x != x


def _isinf(x):
    return isinstance(x, (float, complex)) and abs(x) == float("inf")


def _array_of(x):
    """(host array, dtype) of a Tensor or ndarray; None for other values."""
    if isinstance(x, Tensor):
        return backend.to_numpy(x.detach()._value), x.dtype
    if isinstance(x, np.ndarray):
        return x, dtypes.as_dtype(x.dtype) if x.dtype.kind != "V" else x.dtype
    return None


def _is_number(x):
    return isinstance(x, numbers.Number) and not isinstance(x, np.ndarray)


def _compare(a, e, path, opts):
    aa, ea = _array_of(a), _array_of(e)
    if aa is not None and ea is not None:
        if opts["check_device"] and isinstance(a, Tensor) and isinstance(e, Tensor) and a.device != e.device:
            raise _Fail(f"The values for attribute 'device' do not match: {a.device} != {e.device}.", path)
        try:
            _compare_arrays(aa[0], ea[0], aa[1], ea[1], opts["rtol"], opts["atol"], opts["equal_nan"],
                            opts["check_dtype"])
        except _Fail as f:
            f.path = path
            raise
        return
    if _is_number(a) and _is_number(e) and aa is None and ea is None:
        try:
            _compare_numbers(a, e, opts["rtol"], opts["atol"], opts["equal_nan"], opts["check_dtype"])
        except _Fail as f:
            f.path = path
            raise
        return
    if aa is None and ea is None:
        seq = lambda x: isinstance(x, _abc.Sequence) and not isinstance(x, (str, bytes))  # noqa: E731
        if seq(a) and seq(e):
            if len(a) != len(e):
                raise _Fail(f"The length of the sequences mismatch: {len(a)} != {len(e)}", path)
            for i, (x, y) in enumerate(zip(a, e)):
                _compare(x, y, path + (i,), opts)
            return
        if isinstance(a, _abc.Mapping) and isinstance(e, _abc.Mapping):
            ak, ek = set(a.keys()), set(e.keys())
            if ak != ek:
                missing = sorted(ek - ak, key=repr)
                extra = sorted(ak - ek, key=repr)
                raise _Fail(f"The keys of the mappings do not match:\nMissing keys in the actual mapping: {missing}\n"
                            f"Additional keys in the actual mapping: {extra}", path)
            for k in e:
                _compare(a[k], e[k], path + (k,), opts)
            return
        if a is None and e is None:
            return
    raise _Fail(f"No comparison pair was able to handle inputs of type {type(a)} and {type(e)}.", path, TypeError)


def assert_close(actual, expected, *, allow_subclasses=True, rtol=None, atol=None, equal_nan=False,
                 check_device=True, check_dtype=True, check_layout=True, check_stride=False, msg=None):
    """Raise AssertionError (PyTorch's message) unless ``actual`` and ``expected`` are close.

    ``msg``: a string replacing the message, or a callable taking the generated message.
    """
    opts = {"rtol": rtol, "atol": atol, "equal_nan": equal_nan, "check_device": check_device,
            "check_dtype": check_dtype}
    if (rtol is None) != (atol is None):
        _tolerances((), rtol, atol)
    try:
        _compare(actual, expected, (), opts)
    except _Fail as f:
        text = f.message
        if f.path and f.exc_type is AssertionError:
            text += f"\n\nThe failure occurred for item {''.join(str([k]) for k in f.path)}"
        if msg is not None and f.exc_type is AssertionError:
            text = msg(text) if callable(msg) else msg
        raise f.exc_type(text) from None


def assert_allclose(actual, expected, rtol=None, atol=None, equal_nan=True, msg=""):
    """Deprecated PyTorch alias: ``assert_close`` without dtype checks, NaNs equal by default."""
    assert_close(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan, check_dtype=False,
                 check_device=False, msg=msg or None)


def make_tensor(*shape, dtype, device=None, low=None, high=None, requires_grad=False, noncontiguous=False,
                exclude_zero=False, memory_format=None):
    """A random tensor of ``shape`` and ``dtype`` with values in ``[low, high)`` (PyTorch's defaults and clamps).

    Floats/complex default to ``[-9, 9)``, signed ints to ``[-9, 10)``, unsigned to ``[0, 10)``, bool to
    {False, True}; ``exclude_zero`` replaces zeros with the dtype's smallest positive step (1 for ints,
    ``eps`` for floats).
    """
    if len(shape) == 1 and isinstance(shape[0], (list, tuple)):
        shape = tuple(shape[0])
    shape = tuple(int(s) for s in shape)
    dt = dtypes.as_dtype(dtype)
    npd = dt.dtype
    rng = _rng(None)
    if requires_grad and kind_of(npd) not in "fc":
        raise ValueError(f"make_tensor: requires_grad=True is not supported for dtype {dt}")
    if low is not None and high is not None and low > high:
        raise ValueError(f"make_tensor: low must be less than or equal to high, got low={low} and high={high}")
    if npd.kind == "b":
        buf = rng.integers(0, 2, size=shape).astype(bool)
    elif npd.kind in "iu":
        info = np.iinfo(npd)
        lo = (0 if npd.kind == "u" else -9) if low is None else max(int(np.ceil(low)), int(info.min))
        hi = 10 if high is None else min(int(np.ceil(high)), int(info.max))
        buf = rng.integers(lo, max(hi, lo + 1), size=shape).astype(npd)
        if exclude_zero:
            buf[buf == 0] = 1
    else:
        lo = -9.0 if low is None else float(low)
        hi = 9.0 if high is None else float(high)
        real = npd if kind_of(npd) == "f" else np.finfo(npd).dtype
        draw = lambda: rng.uniform(lo, hi, size=shape) if hi > lo else np.full(shape, lo)  # noqa: E731
        buf = draw().astype(real)
        if npd.kind == "c":
            buf = (buf + 1j * draw().astype(real)).astype(npd)
        if exclude_zero:
            buf[buf == 0] = np.finfo(real).eps
    t = _finish(np.ascontiguousarray(buf), dtype=dt, device=device)
    if noncontiguous and t.numel() > 1:
        from . import cat  # noqa: PLC0415

        t = cat([t.reshape(-1, 1), t.reshape(-1, 1)], 1)[:, 0].reshape(shape)
    if requires_grad:
        t.requires_grad_(True)
    return t
