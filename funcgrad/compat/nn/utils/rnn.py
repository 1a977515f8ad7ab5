"""torch.nn.utils.rnn: ``pad_sequence`` and packed sequences (``PackedSequence``, ``pack_padded_sequence``,
``pad_packed_sequence``, ``pack_sequence``), which the recurrent layers accept.

A PackedSequence stores the time steps of a batch of sequences sorted longest first, one
after the other: step t holds the ``batch_sizes[t]`` sequences that are that long. Packing
and unpacking are differentiable (slices, ``cat`` and ``stack``).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ...tensor import Tensor

__all__ = ["PackedSequence", "pad_sequence", "pack_padded_sequence", "pad_packed_sequence", "pack_sequence"]


def _ops():
    from ... import cat, full, stack, tensor  # noqa: PLC0415

    return cat, full, stack, tensor


class PackedSequence(namedtuple("PackedSequence_", ["data", "batch_sizes", "sorted_indices", "unsorted_indices"])):
    """``(data, batch_sizes, sorted_indices, unsorted_indices)``: build it with the functions below."""

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None and sorted_indices is not None:
            unsorted_indices = sorted_indices.argsort()
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args, **kwargs):
        """The data moved/converted with ``Tensor.to``; indices moved to the data's device."""
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        move = (lambda t: None if t is None else t.to(data.device))
        return type(self)(data, self.batch_sizes, move(self.sorted_indices), move(self.unsorted_indices))

    def cpu(self):
        return self.to("cpu")

    def cuda(self, device=None):
        return self.to("cuda" if device is None else device)

    @property
    def is_cuda(self):
        return self.data.is_cuda


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """Stack tensors of shapes ``(L_i, *)`` into ``(max L, B, *)`` (``(B, max L, *)`` if ``batch_first``).

    Shorter sequences are filled with ``padding_value`` after their end (before it with
    ``padding_side='left'``); gradients flow back into every sequence.
    """
    cat, full, stack, _ = _ops()
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


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    """Pack a padded ``(T, B, *)`` batch (``(B, T, *)`` if ``batch_first``) of sequences of ``lengths``.

    With ``enforce_sorted`` the lengths must be decreasing; otherwise the batch is sorted
    (``sorted_indices``) and the layers' outputs come back in the caller's order.
    """
    cat, _, _, tensor = _ops()
    lengths = np.asarray(lengths.tolist() if isinstance(lengths, Tensor) else lengths, dtype=np.int64).reshape(-1)
    if enforce_sorted:
        if np.any(np.diff(lengths) > 0):
            raise RuntimeError("`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. "
                               "You can pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to "
                               "sidestep this requirement if you do not need ONNX exportability.")
        sorted_indices = None
    else:
        order = np.argsort(-lengths, kind="stable")
        lengths = lengths[order]
        sorted_indices = tensor(order, device=input.device)
        input = input.index_select(0 if batch_first else 1, sorted_indices)
    if batch_first:
        input = input.transpose(0, 1)
    if lengths.size != input.shape[1]:
        raise RuntimeError(f"Expected `len(lengths)` to be equal to batch_size, but got {lengths.size} "
                           f"(batch_size={input.shape[1]})")
    if lengths.size == 0 or lengths[-1] <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an element in 'lengths' "
                           "that is <= 0")
    if lengths[0] > input.shape[0]:
        raise RuntimeError(f"Expected sequence length to be smaller than or equal to {input.shape[0]}, "
                           f"got a length of {lengths[0]}")
    batch_sizes = [int((lengths > t).sum()) for t in range(int(lengths[0]))]
    data = cat([input[t, :n] for t, n in enumerate(batch_sizes)], 0)
    return PackedSequence(data, tensor(batch_sizes), sorted_indices)


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    """Undo ``pack_padded_sequence``: ``(padded batch, lengths)``, in the order the batch was packed from."""
    cat, full, stack, tensor = _ops()
    data, batch_sizes = sequence.data, [int(n) for n in sequence.batch_sizes.tolist()]
    steps, batch = len(batch_sizes), batch_sizes[0]
    if total_length is not None:
        if total_length < steps:
            raise ValueError("Expected total_length to be at least the length of the longest sequence in input, "
                             f"but got total_length={total_length} and max sequence length being {steps}")
        steps = total_length
    rows, start = [], 0
    for n in batch_sizes:
        step = data[start:start + n]
        start += n
        if n < batch:
            step = cat([step, full((batch - n, *data.shape[1:]), padding_value, dtype=data.dtype, device=data.device)])
        rows.append(step)
    rows += [full((batch, *data.shape[1:]), padding_value, dtype=data.dtype, device=data.device)] * (steps - len(rows))
    padded = stack(rows, 0)
    lengths = tensor([sum(1 for n in batch_sizes if n > b) for b in range(batch)])
    if sequence.unsorted_indices is not None:
        padded = padded.index_select(1, sequence.unsorted_indices)
        lengths = lengths[sequence.unsorted_indices.cpu()]
    return (padded.transpose(0, 1) if batch_first else padded), lengths


def pack_sequence(sequences, enforce_sorted=True):
    """Pack a list of ``(L_i, *)`` tensors (longest first, unless ``enforce_sorted=False``)."""
    lengths = [s.shape[0] for s in sequences]
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)
