"""Structured control flow as differentiable primitives, with ``jax.lax``'s names and semantics.

``cond``, ``switch``, ``while_loop``, ``fori_loop``, ``scan`` and ``map`` trace their bodies once
(with ``fg.jit``'s tracer) and run as one primitive each: eagerly, under ``jit`` (one equation in
the graph), and under every transformation (their jvp, vjp and batching rules transform the
bodies).  ``associative_scan`` is composed of slicing, the combining function and concatenation
(O(log n) vectorized steps), so transformations go through it directly.  See docs/control-flow.md.
"""

from .associative_scan import associative_scan
from .cond import cond, cond_p, switch
from .loops import fori_loop, map, while_loop, while_p  # noqa: A004 - jax.lax.map
from .scan import scan, scan_p

__all__ = ["cond", "switch", "while_loop", "fori_loop", "scan", "map", "associative_scan", "cond_p", "scan_p",
           "while_p"]
