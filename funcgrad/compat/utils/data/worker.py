"""DataLoader worker processes: the worker loop, worker info, and re-raising a worker's exception."""

from __future__ import annotations

import itertools
import random
import traceback

__all__ = ["WorkerInfo", "get_worker_info", "ExceptionWrapper", "Exhausted"]

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


class Exhausted:
    """Sent by a worker whose replica of an IterableDataset has no more batches."""

    def __init__(self, worker_id):
        self.worker_id = worker_id


def _next_iterable_batch(it, collate_fn, auto_collation, batch_size, drop_last):
    if not auto_collation:
        return collate_fn(next(it))
    batch = list(itertools.islice(it, batch_size))
    if not batch or (drop_last and len(batch) < batch_size):
        raise StopIteration
    return collate_fn(batch)


def worker_loop(dataset, index_queue, result_queue, collate_fn, auto_collation, seed, worker_id, num_workers,
                init_fn, iterable_batching=None):
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
    it = None
    while True:
        task = index_queue.get()
        if task is None:
            return
        idx, indices = task
        try:
            if iterable_batching is not None:
                if it is None:
                    it = iter(dataset)
                try:
                    data = _next_iterable_batch(it, collate_fn, auto_collation, *iterable_batching)
                except StopIteration:
                    data = Exhausted(worker_id)
            elif auto_collation:
                data = collate_fn([dataset[i] for i in indices])
            else:
                data = collate_fn(dataset[indices])
        except Exception as e:
            data = ExceptionWrapper(e, f"in DataLoader worker process {worker_id}")
        result_queue.put((idx, data))
