"""``F.scaled_dot_product_attention`` (PyTorch's math backend), shared with MultiheadAttention."""

from __future__ import annotations

import math

from ...nn._activations import check_dropout_p
from .. import creation as _c

__all__ = ["scaled_dot_product_attention"]


def attend(q, k, v, bias=None, dropout_p=0.0, scale=None, safe=True):
    """softmax(q k^T * scale + bias) v and the weights; (..., L, E), (..., S, E), (..., S, Ev).

    ``bias`` is additive (``-inf`` excludes a key). ``safe``: a row whose keys are all excluded
    gets zero weights (PyTorch's SDPA) instead of NaN (MultiheadAttention), gradient zero too.
    """
    from . import functional as F  # noqa: PLC0415

    scale = 1.0 / math.sqrt(q.shape[-1]) if scale is None else scale
    scores = q.matmul(k.transpose(-2, -1)) * scale
    if bias is not None:
        scores = scores + bias
    if safe and bias is not None:
        dead = (scores == float("-inf")).all(dim=-1, keepdim=True)
        weights = F.softmax(scores.masked_fill(dead, 0.0), dim=-1).masked_fill(dead, 0.0)
    else:
        weights = F.softmax(scores, dim=-1)
    if dropout_p > 0.0:
        weights = F.dropout(weights, dropout_p, True)
    return weights.matmul(v), weights


def _bool_dtype():
    from ..dtypes import bool as _b  # noqa: PLC0415

    return _b


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
                                 enable_gqa=False):
    """softmax(Q K^T * scale + mask) V over the last two dims, batch dims broadcast.

    ``attn_mask``: bool (True = may attend) or float (added), broadcastable to (..., L, S);
    ``is_causal``: key j allowed for query i when j <= i (top-left aligned, also when L != S),
    not together with ``attn_mask`` (RuntimeError, as PyTorch documents); a query with no allowed key gives zeros;
    ``scale`` defaults to 1/sqrt(E); ``enable_gqa``: key/value heads (dim -3) are repeated to
    match the query's. Dropout (compat generator) only when ``dropout_p > 0``.
    """
    if query.dtype != key.dtype or query.dtype != value.dtype:
        raise RuntimeError(f"Expected query, key, and value to have the same dtype, but got query.dtype: "
                           f"{query.dtype} key.dtype: {key.dtype} and value.dtype: {value.dtype} instead.")
    if min(query.dim(), key.dim(), value.dim()) < 2:
        raise RuntimeError(f"scaled_dot_product_attention: query, key and value must have at least 2 dims, got "
                           f"{tuple(query.shape)}, {tuple(key.shape)}, {tuple(value.shape)}")
    if query.shape[-1] != key.shape[-1] or key.shape[-2] != value.shape[-2]:
        raise RuntimeError(f"scaled_dot_product_attention: query (..., L, E) {tuple(query.shape)}, key (..., S, E) "
                           f"{tuple(key.shape)} and value (..., S, Ev) {tuple(value.shape)} do not fit")
    check_dropout_p(dropout_p)
    if enable_gqa and min(query.dim(), key.dim(), value.dim()) >= 3:
        hq, hk, hv = query.shape[-3], key.shape[-3], value.shape[-3]
        if hq % hk or hq % hv:
            raise RuntimeError(f"Number of heads in key and value must divide the number of heads in query "
                               f"(query {hq}, key {hk}, value {hv})")
        key = _repeat_heads(key, hq // hk)
        value = _repeat_heads(value, hq // hv)
    if is_causal and attn_mask is not None:
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True")
    L, S = query.shape[-2], key.shape[-2]
    bias = None
    if attn_mask is not None:
        if attn_mask.dtype == _bool_dtype():
            bias = _c.zeros(tuple(attn_mask.shape), dtype=query.dtype, device=query.device).masked_fill(
                attn_mask.logical_not(), float("-inf"))
        elif attn_mask.dtype.is_floating_point:
            bias = attn_mask.to(query.dtype)
        else:
            raise RuntimeError(f"Expected attn_mask dtype to be bool or float or to match query dtype, got "
                               f"{attn_mask.dtype}")
    if is_causal:
        allowed = _c.ones(L, S, dtype=_bool_dtype(), device=query.device).tril()
        bias = _c.zeros(L, S, dtype=query.dtype, device=query.device).masked_fill(allowed.logical_not(),
                                                                                    float("-inf"))
    return attend(query, key, value, bias, dropout_p, scale)[0]


def _repeat_heads(x, r):
    """(..., H, S, E) -> (..., H r, S, E), each head repeated r times in a row (repeat_interleave)."""
    if r == 1:
        return x
    *lead, h, s, e = x.shape
    return x.unsqueeze(-3).expand(*lead, h, r, s, e).reshape(*lead, h * r, s, e)
