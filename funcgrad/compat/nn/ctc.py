"""``F.ctc_loss`` / ``nn.CTCLoss``: the CTC forward algorithm in log space (Graves et al. 2006),
vectorised over the batch and the extended label sequence; the gradient is autograd's."""

from __future__ import annotations

import numpy as np

from .. import creation as _c
from ..ops_shape import stack as _stack
from .loss import _Loss

__all__ = ["CTCLoss"]

# "log 0": finite, so that logsumexp over unreachable states keeps finite values and gradients
_NEG = -1e30


def _host_ints(x, name):
    if isinstance(x, (list, tuple)):
        return np.asarray(x, dtype=np.int64)
    return np.asarray(x.detach().cpu().numpy(), dtype=np.int64).reshape(-1)


def _lse3(a, b, c):
    m = a.maximum(b).maximum(c)
    return m + ((a - m).exp() + (b - m).exp() + (c - m).exp()).log()


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean", zero_infinity=False):
    """Negative log-likelihood of each target under CTC alignments of ``log_probs`` (T, N, C) (or (T, C)).

    ``targets`` is (N, S) padded, or the concatenation of all targets (1-d); an impossible alignment
    (target longer than its input allows) gives ``inf`` (0 with ``zero_infinity``, gradient 0);
    ``'mean'`` divides each loss by its target length (at least 1), then averages over the batch.
    """
    batched = log_probs.dim() == 3
    lp = log_probs if batched else log_probs.unsqueeze(1)
    T, N, C = lp.shape
    in_len, tg_len = _host_ints(input_lengths, "input_lengths"), _host_ints(target_lengths, "target_lengths")
    if in_len.shape != (N,) or tg_len.shape != (N,):
        raise RuntimeError(f"ctc_loss: input_lengths and target_lengths must have {N} entries, got "
                           f"{in_len.shape[0]} and {tg_len.shape[0]}")
    if np.any(in_len > T) or np.any(in_len < 0):
        bad = int(in_len[(in_len > T) | (in_len < 0)][0])
        raise RuntimeError(f"Expected input_lengths to have value at most {T}, but got value {bad}")
    if not 0 <= blank < C:
        raise RuntimeError(f"ctc_loss: blank must be in label range [0, {C}), got {blank}")
    tg = _host_ints(targets, "targets")  # unbatched: one padded target; batched 1-d: concatenated targets
    tg = tg.reshape(N, -1) if not batched or getattr(targets, "dim", lambda: 1)() == 2 else tg
    if tg.ndim == 1:  # concatenated
        if tg.shape[0] != tg_len.sum():
            raise RuntimeError(f"ctc_loss: 1-d targets have {tg.shape[0]} entries, target_lengths sum to "
                               f"{tg_len.sum()}")
        ends = np.cumsum(tg_len)
        seqs = [tg[e - n:e] for e, n in zip(ends, tg_len)]
    else:
        if np.any(tg_len > tg.shape[1]):
            raise RuntimeError(f"ctc_loss: target_lengths {tg_len.tolist()} exceed the targets' length {tg.shape[1]}")
        seqs = [tg[i, :n] for i, n in enumerate(tg_len)]
    L = 2 * int(tg_len.max(initial=0)) + 1
    ext = np.full((N, L), blank, dtype=np.int64)  # blank, l1, blank, l2, ..., blank
    skip = np.zeros((N, L), dtype=bool)  # may come from s - 2 (a label differing from the one before)
    for i, seq in enumerate(seqs):
        ext[i, 1:2 * len(seq):2] = seq
        skip[i, 3:2 * len(seq):2] = seq[1:] != seq[:-1]
    if np.any((ext < 0) | (ext >= C)):
        raise RuntimeError(f"ctc_loss: target labels must be in [0, {C})")
    dev, dt = lp.device, lp.dtype
    emit = lp.gather(2, _c.tensor(ext, device=dev).unsqueeze(0).expand(T, N, L))  # (T, N, L)
    neg_col = _c.full((N, 1), _NEG, dtype=dt, device=dev)
    no_skip = _c.tensor(~skip, device=dev)
    start = np.full((N, L), _NEG)
    start[:, 0] = 0.0
    start[tg_len > 0, 1] = 0.0
    alpha = emit[0] + _c.tensor(start, dtype=dt, device=dev)
    alphas = [alpha]
    for t in range(1, int(in_len.max(initial=1))):
        from1 = _shift(alpha, 1, neg_col)
        from2 = _shift(alpha, 2, neg_col).masked_fill(no_skip, _NEG)
        alpha = _lse3(alpha, from1, from2) + emit[t]
        alphas.append(alpha)
    every = _stack(alphas)  # (T', N, L)
    rows = np.arange(N)
    last_t = _c.tensor(np.maximum(in_len - 1, 0), device=dev)
    final = every[last_t, _c.tensor(rows, device=dev)]  # (N, L)
    end_blank = final.gather(1, _c.tensor(2 * tg_len, device=dev).unsqueeze(1)).squeeze(1)
    end_label = final.gather(1, _c.tensor(np.maximum(2 * tg_len - 1, 0), device=dev).unsqueeze(1)).squeeze(1)
    end_label = end_label.masked_fill(_c.tensor(tg_len == 0, device=dev), _NEG)
    m = end_blank.maximum(end_label)
    loss = -(m + ((end_blank - m).exp() + (end_label - m).exp()).log())
    impossible = _c.tensor((loss.detach() > -_NEG / 2).cpu().numpy() | (in_len == 0) & (tg_len > 0), device=dev)
    loss = loss.masked_fill(impossible, 0.0 if zero_infinity else float("inf"))
    loss = loss.masked_fill(_c.tensor((in_len == 0) & (tg_len == 0), device=dev), 0.0)  # empty on empty: p = 1
    if reduction == "mean":
        loss = (loss / _c.tensor(np.maximum(tg_len, 1), dtype=dt, device=dev)).mean()
    elif reduction == "sum":
        loss = loss.sum()
    elif reduction != "none":
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return loss if batched or reduction != "none" else loss.squeeze(0)


def _shift(alpha, k, neg_col):
    """alpha moved k states to the right along the last dim, "log 0" coming in."""
    from ..ops_shape import cat  # noqa: PLC0415

    n, length = alpha.shape
    if k >= length:
        return neg_col.expand(n, length)
    return cat([neg_col.expand(n, k), alpha[:, :length - k]], 1)


class CTCLoss(_Loss):
    def __init__(self, blank=0, reduction="mean", zero_infinity=False):
        super().__init__(reduction=reduction)
        self.blank, self.zero_infinity = blank, zero_infinity

    def forward(self, log_probs, targets, input_lengths, target_lengths):
        return ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank, self.reduction,
                        self.zero_infinity)
