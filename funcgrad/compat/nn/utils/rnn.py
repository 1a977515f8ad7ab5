"""torch.nn.utils.rnn: ``pad_sequence`` (differentiable padding of variable-length sequences)."""

from __future__ import annotations

from ...tensor import Tensor

__all__ = ["pad_sequence"]


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """Stack tensors of shapes ``(L_i, *)`` into ``(max L, B, *)`` (``(B, max L, *)`` if ``batch_first``).

    Shorter sequences are filled with ``padding_value`` after their end (before it with
    ``padding_side='left'``); gradients flow back into every sequence.
    """
    from ... import cat, full, stack  # noqa: PLC0415

    if padding_side not in ("left", "right"):
        raise ValueError(f"Expected padding_side to be one of left or right, but got {padding_side}.")
    if isinstance(sequences, Tensor):
        sequences = sequences.unbind(0)
    sequences = list(sequences)
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    for s in sequences:
        if not isinstance(s, Tensor):
            raise TypeError(f"pad_sequence: expected a sequence of Tensors, got {type(s).__name__}")
        if s.dim() == 0 or tuple(s.shape[1:]) != tuple(sequences[0].shape[1:]):
            raise RuntimeError("pad_sequence: every sequence needs shape (L, *) with the same trailing "
                               f"dimensions; got {[tuple(t.shape) for t in sequences]}")
    longest = max(s.shape[0] for s in sequences)
    padded = []
    for s in sequences:
        fill = full((longest - s.shape[0], *s.shape[1:]), padding_value, dtype=s.dtype, device=s.device)
        padded.append(cat([s, fill] if padding_side == "right" else [fill, s], 0))
    return stack(padded, 0 if batch_first else 1)
