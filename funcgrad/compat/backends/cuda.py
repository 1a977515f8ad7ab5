"""torch.backends.cuda: the flags scripts set (``torch.backends.cuda.matmul.allow_tf32 = True``,
the scaled-dot-product-attention kernel switches).

funcgrad's GPU kernels are cupy's: these are settable flags reported back, changing no result
(cupy does not use TF32 unless CUPY_TF32 is set; compat's attention is one math kernel).
``is_built()`` is whether cupy (funcgrad's CUDA backend) is usable.
"""

from __future__ import annotations

import contextlib

__all__ = ["is_built", "matmul", "flash_sdp_enabled", "enable_flash_sdp", "mem_efficient_sdp_enabled",
           "enable_mem_efficient_sdp", "math_sdp_enabled", "enable_math_sdp", "cudnn_sdp_enabled", "enable_cudnn_sdp",
           "sdp_kernel", "is_flash_attention_available"]


def is_built():
    from ... import backend  # noqa: PLC0415

    return backend.cuda_available()


class _Matmul:
    def __init__(self):
        self.allow_tf32 = False
        self.allow_fp16_reduced_precision_reduction = True
        self.allow_bf16_reduced_precision_reduction = True
        self.fp32_precision = "none"


matmul = _Matmul()
_SDP = {"flash": True, "mem_efficient": True, "math": True, "cudnn": True}


def flash_sdp_enabled():
    return _SDP["flash"]


def enable_flash_sdp(enabled):
    _SDP["flash"] = bool(enabled)


def mem_efficient_sdp_enabled():
    return _SDP["mem_efficient"]


def enable_mem_efficient_sdp(enabled):
    _SDP["mem_efficient"] = bool(enabled)


def math_sdp_enabled():
    return _SDP["math"]


def enable_math_sdp(enabled):
    _SDP["math"] = bool(enabled)


def cudnn_sdp_enabled():
    return _SDP["cudnn"]


def enable_cudnn_sdp(enabled):
    _SDP["cudnn"] = bool(enabled)


def is_flash_attention_available():
    return False


@contextlib.contextmanager
def sdp_kernel(enable_flash=True, enable_math=True, enable_mem_efficient=True, enable_cudnn=True):
    """Deprecated context manager setting the attention kernel switches (restored on exit)."""
    import warnings  # noqa: PLC0415

    warnings.warn("`torch.backends.cuda.sdp_kernel()` is deprecated. In the future, this context manager will be "
                  "removed. Please see `torch.nn.attention.sdpa_kernel()` for the new context manager, with updated "
                  "signature.", FutureWarning, stacklevel=3)
    prev = dict(_SDP)
    _SDP.update(flash=enable_flash, math=enable_math, mem_efficient=enable_mem_efficient, cudnn=enable_cudnn)
    try:
        yield
    finally:
        _SDP.update(prev)
