"""Timing helpers: interleaved rounds, median of per-round ratios."""

from __future__ import annotations

import statistics
import time


def time_once(fn, repeat):
    t = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - t) / repeat


def compare(reference, candidates, rounds=20, repeat=10, warmup=2):
    """Median over rounds of time(candidate)/time(reference); also median seconds.

    ``candidates`` maps names to zero-argument callables; each round times the
    reference and then every candidate, so drift on a shared machine cancels.
    """
    for _ in range(warmup):
        reference()
        for fn in candidates.values():
            fn()
    ratios = {k: [] for k in candidates}
    ref_times, cand_times = [], {k: [] for k in candidates}
    for _ in range(rounds):
        tr = time_once(reference, repeat)
        ref_times.append(tr)
        for name, fn in candidates.items():
            tc = time_once(fn, repeat)
            cand_times[name].append(tc)
            ratios[name].append(tc / tr)
    return {
        "reference_s": statistics.median(ref_times),
        "ratio": {k: statistics.median(v) for k, v in ratios.items()},
        "seconds": {k: statistics.median(v) for k, v in cand_times.items()},
    }


def optional(module):
    """Import an optional comparison library, or None."""
    try:
        return __import__(module, fromlist=["_"])
    except Exception:
        return None


def print_table(title, rows, headers):
    print(f"\n{title}")
    widths = [max(len(str(h)), *(len(str(r[i])) for r in rows)) for i, h in enumerate(headers)]
    print("  ".join(str(h).ljust(w) for h, w in zip(headers, widths)))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(r, widths)))


def print_ratios(title, res, reference_label, scale, unit, ratio_fmt="{:.2f}x", time_fmt="{:.2f}"):
    """Print ``compare``'s result as a table: the reference row, then each candidate's time (seconds
    times ``scale``, in ``unit``) and its ratio to the reference."""
    rows = [(reference_label, time_fmt.format(res["reference_s"] * scale), ratio_fmt.format(1.0))]
    for name, ratio in res["ratio"].items():
        rows.append((name, time_fmt.format(res["seconds"][name] * scale), ratio_fmt.format(ratio)))
    print_table(title, rows, ["", unit, "vs reference"])
