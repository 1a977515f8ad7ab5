"""Specs: bits.py primitives (integer shifts, gcd/lcm, bitwise_count, spacing, nextafter, frexp)."""

import numpy as np

import funcgrad.numpy as fnp

from ..spec import Spec, binary_broadcast, unary


def _ints(x, scale=8):
    return fnp.astype(fnp.floor(fnp.absolute(x) * scale), np.int64)


SPECS = [
    Spec("integer_bits", ("left_shift", "right_shift", "gcd", "lcm", "bitwise_count"),
         lambda x, y: [fnp.left_shift(_ints(x), _ints(y, 2)), fnp.right_shift(_ints(x, 64), _ints(y, 2)),
                       fnp.gcd(_ints(x), _ints(y)), fnp.lcm(_ints(x), _ints(y)), fnp.bitwise_count(_ints(x, 100))],
         binary_broadcast(), differentiable=False),
    Spec("nextafter", ("nextafter",), lambda x, y: fnp.nextafter(x, y), binary_broadcast(), differentiable=False),
    # zero-derivative primitives inside a differentiable function: x * spacing(x), frexp's mantissa
    Spec("spacing", ("spacing",), lambda x: x * fnp.spacing(x) * 1e15, unary(0.55, 3.0, avoid=(1.0, 2.0))),
    Spec("frexp", ("frexp_exponent",), lambda x: fnp.frexp(x)[0], unary(0.3, 1.9, avoid=(0.5, 1.0))),
]
