"""default_collate / default_convert: samples -> a batch, as PyTorch stacks them."""

from __future__ import annotations

import collections.abc

import numpy as np

from ...tensor import Tensor

__all__ = ["default_collate", "default_convert"]


def default_collate(batch):
    """Tensors and numpy arrays are stacked; Python floats become a float64 tensor, ints int64, bools bool;
    dicts collate per key, namedtuples per field, other sequences (tuples too) into a *list* per position."""
    from ... import creation, stack  # noqa: PLC0415
    from ...dtypes import float64, int64  # noqa: PLC0415

    elem = batch[0]
    if isinstance(elem, Tensor):
        return stack(list(batch), 0)
    if isinstance(elem, np.ndarray):
        if elem.dtype.kind in "SaUO":
            raise TypeError(f"default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; "
                            f"found {elem.dtype}")
        return stack([creation.as_tensor(b) for b in batch], 0)
    if isinstance(elem, np.generic):
        return creation.as_tensor(np.array(batch))
    if isinstance(elem, bool):
        return creation.tensor(list(batch))
    if isinstance(elem, float):
        return creation.tensor(list(batch), dtype=float64)
    if isinstance(elem, int):
        return creation.tensor(list(batch), dtype=int64)
    if isinstance(elem, (str, bytes)):
        return list(batch)
    if isinstance(elem, collections.abc.Mapping):
        return type(elem)({k: default_collate([d[k] for d in batch]) for k in elem}) \
            if not hasattr(elem, "default_factory") else {k: default_collate([d[k] for d in batch]) for k in elem}
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):
        return type(elem)(*(default_collate(list(s)) for s in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        n = len(elem)
        if any(len(e) != n for e in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        return [default_collate(list(s)) for s in zip(*batch)]
    raise TypeError(f"default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; "
                    f"found {type(elem)}")


def default_convert(data):
    """Used when batching is off: numpy arrays become tensors, containers are converted recursively."""
    from ... import creation  # noqa: PLC0415

    if isinstance(data, np.ndarray) and data.dtype.kind not in "SaUO":
        return creation.as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        return {k: default_convert(v) for k, v in data.items()}
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, (list, tuple)):
        return type(data)(default_convert(d) for d in data)
    return data
