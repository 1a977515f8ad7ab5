"""torch.backends.cpu: the CPU capability numpy's kernels were built for."""

from __future__ import annotations

__all__ = ["get_cpu_capability"]


def get_cpu_capability():
    """"AVX512", "AVX2" or "DEFAULT": the best SIMD level numpy's compiled kernels use on this CPU."""
    try:
        from numpy._core._multiarray_umath import __cpu_features__ as feats  # noqa: PLC0415
    except ImportError:  # pragma: no cover - older numpy
        return "DEFAULT"
    if feats.get("AVX512F") and feats.get("AVX512_SKX"):
        return "AVX512"
    if feats.get("AVX2"):
        return "AVX2"
    return "DEFAULT"
