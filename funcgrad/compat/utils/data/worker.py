"""DataLoader worker processes: the worker loop, worker info, and re-raising a worker's exception."""

from __future__ import annotations

import random
import traceback

__all__ = ["WorkerInfo", "get_worker_info", "ExceptionWrapper"]

_INFO = None


class WorkerInfo:
    def __init__(self, id, num_workers, seed, dataset):
        self.id, self.num_workers, self.seed, self.dataset = id, num_workers, seed, dataset

    def __repr__(self):
        return f"WorkerInfo(id={self.id}, num_workers={self.num_workers}, seed={self.seed})"


def get_worker_info():
    """In a worker process: its WorkerInfo (id, num_workers, seed, dataset); in the main process: None."""
    return _INFO


class ExceptionWrapper:
    """An exception and its traceback text, sent from a worker and re-raised in the main process."""

    def __init__(self, exc, where):
        self.exc_type = type(exc)
        self.msg = f"Caught {type(exc).__name__} {where}.\nOriginal " + "".join(
            traceback.format_exception(type(exc), exc, exc.__traceback__))

    def reraise(self):
        try:
            exc = self.exc_type(self.msg)
        except Exception:
            exc = RuntimeError(self.msg)
        raise exc


def worker_loop(dataset, index_queue, result_queue, collate_fn, auto_collation, seed, worker_id, num_workers,
                init_fn):
    global _INFO
    from ... import creation  # noqa: PLC0415

    creation.manual_seed(seed)
    random.seed(seed)
    _INFO = WorkerInfo(worker_id, num_workers, seed, dataset)
    try:
        if init_fn is not None:
            init_fn(worker_id)
    except Exception as e:
        result_queue.put((None, ExceptionWrapper(e, f"in DataLoader worker process {worker_id}")))
        return
    while True:
        task = index_queue.get()
        if task is None:
            return
        idx, indices = task
        try:
            if auto_collation:
                data = collate_fn([dataset[i] for i in indices])
            else:
                data = collate_fn(dataset[indices])
        except Exception as e:
            data = ExceptionWrapper(e, f"in DataLoader worker process {worker_id}")
        result_queue.put((idx, data))
