"""funcgrad's performance measurements: ``python -m benchmarks [names...]``.

Each benchmark reports ratios against a hand-written numpy reference timed
in the same run (and against torch / jax / autograd when installed).  The
machines these run on are shared and noisy: every figure is the median of
per-round ratios, each round timing the reference and the candidates back
to back.  Timing never goes in the test suite.
"""
