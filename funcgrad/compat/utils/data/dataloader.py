"""DataLoader: batches from a Dataset, in the main process or in worker processes."""

from __future__ import annotations

import itertools
import multiprocessing
import queue
import time

from .collate import default_collate, default_convert
from .dataset import IterableDataset
from .sampler import BatchSampler, RandomSampler, SequentialSampler
from .worker import ExceptionWrapper, Exhausted, worker_loop

__all__ = ["DataLoader"]

_POLL = 0.1


class DataLoader:
    """Iterate over ``dataset`` in batches (PyTorch's arguments).

    ``num_workers > 0`` loads batches in that many worker processes (each
    seeded ``base_seed + worker_id``, ``worker_init_fn(worker_id)`` run
    first); batches come back in order.  An exception in a worker is re-raised
    in the main process with the worker's traceback; a worker that dies raises
    RuntimeError instead of hanging.  ``pin_memory`` is accepted (no effect on
    the CPU).
    """

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None,
                 multiprocessing_context=None, generator=None, *, prefetch_factor=None, persistent_workers=False,
                 pin_memory_device=""):
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable "
                             "multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if num_workers == 0 and prefetch_factor is not None:
            raise ValueError("prefetch_factor option could only be specified in multiprocessing.let num_workers > 0 "
                             "to enable multiprocessing, otherwise set prefetch_factor to None.")
        self.dataset, self.num_workers, self.timeout = dataset, num_workers, timeout
        self.pin_memory, self.worker_init_fn, self.generator = pin_memory, worker_init_fn, generator
        self.prefetch_factor = 2 if prefetch_factor is None and num_workers > 0 else prefetch_factor
        self.persistent_workers = persistent_workers
        self.multiprocessing_context = multiprocessing_context
        self._iterable = isinstance(dataset, IterableDataset)
        if self._iterable:
            if shuffle:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified shuffle option, but got "
                                 f"shuffle={shuffle}")
            if sampler is not None or batch_sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified sampler/batch_sampler")
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, "
                                 "and drop_last")
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually exclusive with "
                             "drop_last")
        if sampler is None and not self._iterable:
            sampler = RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None and not self._iterable:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size, self.drop_last = batch_size, drop_last
        self.sampler, self.batch_sampler = sampler, batch_sampler
        self._auto_collation = batch_sampler is not None or (self._iterable and batch_size is not None)
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn

    def __len__(self):
        if self._iterable:
            n = len(self.dataset)
            if self.batch_size is None:
                return n
            return n // self.batch_size if self.drop_last else -(-n // self.batch_size)
        return len(self.batch_sampler if self._auto_collation else self.sampler)

    def _index_stream(self):
        return iter(self.batch_sampler if self._auto_collation else self.sampler)

    def __iter__(self):
        if self._iterable and self.num_workers == 0:
            return _Iter(self._iter_iterable(), len(self) if hasattr(self.dataset, "__len__") else None)
        if self.num_workers == 0:
            return _Iter(self._iter_single(), len(self))
        return _MultiProcessIter(self)

    def _iter_single(self):
        for indices in self._index_stream():
            if self._auto_collation:
                yield self.collate_fn([self.dataset[i] for i in indices])
            else:
                yield self.collate_fn(self.dataset[indices])

    def _iter_iterable(self):
        """IterableDataset in the main process, batched in order."""
        it = iter(self.dataset)
        if self.batch_size is None:
            for x in it:
                yield self.collate_fn(x)
            return
        batch = []
        for x in it:
            batch.append(x)
            if len(batch) == self.batch_size:
                yield self.collate_fn(batch)
                batch = []
        if batch and not self.drop_last:
            yield self.collate_fn(batch)


class _Iter:
    """An epoch's iterator (also ``.next()``, the spelling of old tutorials)."""

    def __init__(self, gen, n):
        self._gen, self._n = gen, n

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._gen)

    next = __next__

    def __len__(self):
        return self._n


class _MultiProcessIter:
    """Workers fed index batches round-robin; results reordered; errors and dead workers reported."""

    def __init__(self, loader):
        from ...creation import default_generator  # noqa: PLC0415

        self._loader = loader
        ctx = loader.multiprocessing_context
        if ctx is None:
            ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
        elif isinstance(ctx, str):
            ctx = multiprocessing.get_context(ctx)
        gen = loader.generator if loader.generator is not None else default_generator
        base_seed = int(gen.rng.integers(0, 2**62))
        n = loader.num_workers
        self._result_queue = ctx.Queue()
        self._index_queues, self._workers = [], []
        for wid in range(n):
            iq = ctx.Queue()
            w = ctx.Process(target=worker_loop, daemon=True,
                            args=(loader.dataset, iq, self._result_queue, loader.collate_fn,
                                  loader._auto_collation, base_seed + wid, wid, n, loader.worker_init_fn,
                                  (loader.batch_size, loader.drop_last) if loader._iterable else None))
            w.start()
            self._index_queues.append(iq)
            self._workers.append(w)
        self._indices = itertools.repeat(None) if loader._iterable else loader._index_stream()
        self._active = list(range(n))  # workers still producing (an IterableDataset's replicas run out)
        self._next_worker = 0
        self._send_idx = self._rcvd_idx = 0
        self._pending = {}
        self._done_sending = False
        self._shutdown = False
        for _ in range(loader.prefetch_factor * n):
            self._send()

    def __iter__(self):
        return self

    def __len__(self):
        return len(self._loader)

    def _send(self):
        if self._done_sending:
            return
        try:
            indices = next(self._indices)
        except StopIteration:
            self._done_sending = True
            return
        if not self._active:
            self._done_sending = True
            return
        wid = self._active[self._next_worker % len(self._active)]
        self._next_worker += 1
        self._index_queues[wid].put((self._send_idx, indices))
        self._send_idx += 1

    def _get(self):
        start = time.monotonic()
        while True:
            try:
                return self._result_queue.get(timeout=_POLL)
            except queue.Empty:
                dead = [w for w in self._workers if not w.is_alive()]
                if dead:
                    pids = ", ".join(str(w.pid) for w in dead)
                    codes = ", ".join(str(w.exitcode) for w in dead)
                    self._shutdown_workers()
                    raise RuntimeError(f"DataLoader worker (pid(s) {pids}) exited unexpectedly "
                                       f"(exit code(s) {codes})") from None
                if self._loader.timeout and time.monotonic() - start > self._loader.timeout:
                    self._shutdown_workers()
                    raise RuntimeError(f"DataLoader timed out after {self._loader.timeout} seconds") from None

    def __next__(self):
        if self._shutdown:
            raise StopIteration
        while self._rcvd_idx not in self._pending:
            if self._rcvd_idx >= self._send_idx:
                self._shutdown_workers()
                raise StopIteration
            idx, data = self._get()
            if idx is None and isinstance(data, ExceptionWrapper):
                self._shutdown_workers()
                data.reraise()
            self._pending[idx] = data
        data = self._pending.pop(self._rcvd_idx)
        self._rcvd_idx += 1
        if isinstance(data, Exhausted):
            if data.worker_id in self._active:
                self._active.remove(data.worker_id)
            self._send()
            return self.__next__()
        self._send()
        if isinstance(data, ExceptionWrapper):
            self._shutdown_workers()
            data.reraise()
        return data

    next = __next__  # ``dataiter.next()`` (Python 2 era spelling, used in old tutorials)

    def _shutdown_workers(self):
        if self._shutdown:
            return
        self._shutdown = True
        for q in self._index_queues:
            try:
                q.put(None)
            except (OSError, ValueError):
                pass
        for w in self._workers:
            w.join(timeout=1.0)
            if w.is_alive():
                w.terminate()
                w.join(timeout=1.0)
        for q in self._index_queues + [self._result_queue]:
            q.cancel_join_thread()
            q.close()

    def __del__(self):
        try:
            self._shutdown_workers()
        except Exception:
            pass
