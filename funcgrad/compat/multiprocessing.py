"""``torch.multiprocessing``: Python's :mod:`multiprocessing`, re-exported with PyTorch's extra names.

Compat Tensors cross process boundaries by pickling: a child receives a copy, not shared storage.
``Tensor.share_memory_()`` marks a tensor (``is_shared()`` then reports True) and returns it, and
``Module.share_memory()`` returns the module, so hogwild-style scripts (``mnist_hogwild``) run, but
parameter updates made in a child are not seen by the parent or by other children.
"""

from __future__ import annotations

import multiprocessing as _mp
from multiprocessing import *  # noqa: F401,F403

from ._dispatch import method

__all__ = [*_mp.__all__, "get_all_sharing_strategies", "get_sharing_strategy", "set_sharing_strategy", "spawn",
           "start_processes", "ProcessContext", "ProcessRaisedException", "ProcessExitedException"]



@method("share_memory_")
def share_memory_(self):
    """Marks the tensor shared (``is_shared()``) and returns it; processes still receive pickled copies."""
    self._shared = True
    return self


@method("is_shared")
def is_shared(self):
    return bool(getattr(self, "_shared", False))


_STRATEGIES = ("file_system",)
_strategy = "file_system"


def get_all_sharing_strategies():
    return set(_STRATEGIES)


def get_sharing_strategy():
    return _strategy


def set_sharing_strategy(new_strategy):
    global _strategy  # noqa: PLW0603
    if new_strategy not in _STRATEGIES:
        raise RuntimeError(f"sharing strategy {new_strategy!r} is not supported (supported: {list(_STRATEGIES)})")
    _strategy = new_strategy


class ProcessRaisedException(Exception):
    """A child process of ``spawn`` raised: the message carries its traceback."""

    def __init__(self, msg, error_index, error_pid):
        super().__init__(msg)
        self.error_index, self.pid = error_index, error_pid


class ProcessExitedException(Exception):
    """A child process of ``spawn`` exited with a non-zero code."""

    def __init__(self, msg, error_index, error_pid, exit_code, signal_name=None):
        super().__init__(msg)
        self.error_index, self.pid, self.exit_code, self.signal_name = error_index, error_pid, exit_code, signal_name


def _wrap(fn, i, args, queue):
    import traceback  # noqa: PLC0415

    try:
        fn(i, *args)
    except KeyboardInterrupt:
        pass
    except Exception:  # noqa: BLE001  (reported to the parent, as PyTorch's spawn does)
        queue.put(traceback.format_exc())
        raise SystemExit(1) from None


class ProcessContext:
    """The processes started by ``start_processes``; ``join()`` waits for them and re-raises a child's error."""

    def __init__(self, processes, error_queues):
        self.processes, self.error_queues = processes, error_queues

    def pids(self):
        return [p.pid for p in self.processes]

    def join(self, timeout=None):
        """True once every process has finished; raises ProcessRaisedException / ProcessExitedException."""
        for p in self.processes:
            p.join(timeout)
        for i, (p, q) in enumerate(zip(self.processes, self.error_queues)):
            if p.exitcode is None:
                return False
            if p.exitcode != 0:
                for other in self.processes:
                    if other.is_alive():
                        other.terminate()
                if not q.empty():
                    raise ProcessRaisedException(f"\n\n-- Process {i} terminated with the following error:\n"
                                                 f"{q.get()}", i, p.pid)
                raise ProcessExitedException(f"process {i} terminated with exit code {p.exitcode}", i, p.pid,
                                             p.exitcode)
        return True


def start_processes(fn, args=(), nprocs=1, join=True, daemon=False, start_method="spawn"):
    """Run ``fn(i, *args)`` in ``nprocs`` processes (``i`` = 0..nprocs-1)."""
    ctx = _mp.get_context(start_method)
    queues, procs = [], []
    for i in range(nprocs):
        q = ctx.SimpleQueue()
        p = ctx.Process(target=_wrap, args=(fn, i, args, q), daemon=daemon)
        p.start()
        queues.append(q)
        procs.append(p)
    context = ProcessContext(procs, queues)
    if not join:
        return context
    while not context.join():
        pass
    return None


def spawn(fn, args=(), nprocs=1, join=True, daemon=False, start_method="spawn"):
    """``torch.multiprocessing.spawn``: ``start_processes`` with the spawn start method."""
    return start_processes(fn, args, nprocs, join, daemon, start_method)
