"""What fg.jit adds around its replay: a cached call of a one-operation function (x + y on float64[3])
and of a pytree identity (20 leaves), against calling the generated replay on the buffers directly and
against the same numpy operation (budget: a cached call adds < 10 us over the replay)."""

from __future__ import annotations

import numpy as np

from ._harness import compare, print_table


def run(rounds=20):
    import funcgrad as fg
    import funcgrad.numpy as fnp

    x, y = fnp.ones(3), fnp.ones(3)
    add = fg.jit(lambda x, y: x + y)
    add(x, y)
    replay = add.lower(x, y).compiled.replay
    bx, by = np.ones(3), np.ones(3)
    tree = {"w": [fnp.ones(3) for _ in range(10)], "b": [fnp.ones(3) for _ in range(10)]}
    ident = fg.jit(lambda p: p)
    ident(tree)
    res = compare(lambda: np.add(bx, by), {
        "the generated replay, called directly": lambda: replay(bx, by),
        "fg.jit(x + y), cached call": lambda: add(x, y),
        "fg.jit(identity) of a 20-leaf pytree, cached call": lambda: ident(tree),
    }, rounds=rounds, repeat=2000)
    rows = [("numpy add (reference)", f"{res['reference_s'] * 1e6:.2f}", "1.0x")]
    for name, ratio in res["ratio"].items():
        rows.append((name, f"{res['seconds'][name] * 1e6:.2f}", f"{ratio:.1f}x"))
    over = (res["seconds"]["fg.jit(x + y), cached call"] - res["seconds"]["the generated replay, called directly"]) * 1e6
    rows.append(("overhead of a cached call over its replay", f"{over:.2f}", ""))
    print_table(f"jit_overhead (median of {rounds} rounds)", rows, ["", "us/call", "vs numpy"])
    return res
