"""Recurrent layers: RNN, LSTM and GRU cells, and sequence layers whose time loop is one ``lax.scan``.

PyTorch's gate order, parameter shapes (``weight_ih`` of shape ``(gates * hidden, input)``,
``weight_hh`` ``(gates * hidden, hidden)``, two biases) and default initialisation
(``U(-1/sqrt(hidden), 1/sqrt(hidden))`` for every parameter).  A cell maps ``(x, state)`` to the
new state; a sequence layer runs its cell over the leading (time) axis of ``xs`` (``(T, input)``
or ``(T, batch, input)``; ``batch_first=True`` takes ``(batch, T, input)``) with
:func:`funcgrad.lax.scan`, so under ``jit`` the step is compiled once whatever the length, and
``grad`` records one primitive instead of every step's operations.
"""

from __future__ import annotations

import math
from typing import Any

from .. import lax
from .. import numpy as fnp
from .. import random as _random
from ..core import Array
from ._activations import linear, relu, sigmoid
from . import init
from .module import Module, static_field

__all__ = ["RNNCell", "LSTMCell", "GRUCell", "RNN", "LSTM", "GRU"]


class _Cell(Module):
    weight_ih: Array
    weight_hh: Array
    bias_ih: Any
    bias_hh: Any
    input_size: int = static_field()
    hidden_size: int = static_field()

    _gates = 1

    def __init__(self, input_size, hidden_size, bias=True, *, key=None, dtype=None):
        if key is None:
            raise TypeError(f"{type(self).__name__}: pass key=fg.random.key(seed) to initialise the parameters")
        self.input_size, self.hidden_size = int(input_size), int(hidden_size)
        g = self._gates * self.hidden_size
        bound = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0.0
        k = _random.split(key, 4)
        self.weight_ih = init.uniform(k[0], (g, self.input_size), dtype, -bound, bound)
        self.weight_hh = init.uniform(k[1], (g, self.hidden_size), dtype, -bound, bound)
        self.bias_ih = init.uniform(k[2], (g,), dtype, -bound, bound) if bias else None
        self.bias_hh = init.uniform(k[3], (g,), dtype, -bound, bound) if bias else None

    def initial_state(self, batch_shape=(), dtype=None):
        """Zeros of the hidden state for input steps of shape ``batch_shape + (input,)``."""
        return fnp.zeros(tuple(batch_shape) + (self.hidden_size,), dtype=self.weight_hh.dtype if dtype is None
                         else dtype)

    def _pre(self, x, h):
        return linear(x, self.weight_ih, self.bias_ih), linear(h, self.weight_hh, self.bias_hh)


class RNNCell(_Cell):
    """h' = tanh(W_ih x + b_ih + W_hh h + b_hh) (or relu)."""

    nonlinearity: str = static_field()

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", *, key=None, dtype=None):
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"RNNCell: nonlinearity must be 'tanh' or 'relu', got {nonlinearity!r}")
        super().__init__(input_size, hidden_size, bias, key=key, dtype=dtype)
        self.nonlinearity = nonlinearity

    def __call__(self, x, h):
        a, b = self._pre(x, h)
        return fnp.tanh(a + b) if self.nonlinearity == "tanh" else relu(a + b)


class LSTMCell(_Cell):
    """PyTorch's LSTM cell (gates i, f, g, o); the state is ``(h, c)``."""

    _gates = 4

    def initial_state(self, batch_shape=(), dtype=None):
        h = super().initial_state(batch_shape, dtype)
        return h, h

    def __call__(self, x, state):
        h, c = state
        a, b = self._pre(x, h)
        i, f, g, o = fnp.split(a + b, 4, axis=-1)
        c = sigmoid(f) * c + sigmoid(i) * fnp.tanh(g)
        return sigmoid(o) * fnp.tanh(c), c


class GRUCell(_Cell):
    """PyTorch's GRU cell (gates r, z, n): n = tanh(W_in x + b_in + r * (W_hn h + b_hn))."""

    _gates = 3

    def __call__(self, x, h):
        a, b = self._pre(x, h)
        xr, xz, xn = fnp.split(a, 3, axis=-1)
        hr, hz, hn = fnp.split(b, 3, axis=-1)
        r, z = sigmoid(xr + hr), sigmoid(xz + hz)
        n = fnp.tanh(xn + r * hn)
        return (1 - z) * n + z * h


class _Sequence(Module):
    cell: Any
    batch_first: bool = static_field()

    _cell_type = None

    def __init__(self, input_size, hidden_size, bias=True, batch_first=False, *, key=None, dtype=None, **kw):
        self.cell = self._cell_type(input_size, hidden_size, bias, key=key, dtype=dtype, **kw)
        self.batch_first = bool(batch_first)

    def __call__(self, xs, state=None):
        """-> ``(outputs, final state)``: outputs stack the hidden state after every step."""
        if xs.ndim not in (2, 3):
            raise ValueError(f"{type(self).__name__}: expected xs of shape (T, input) or (T, batch, input) "
                             f"(batch_first: (batch, T, input)), got {tuple(xs.shape)}")
        if self.batch_first and xs.ndim == 3:
            xs = fnp.swapaxes(xs, 0, 1)
        if state is None:
            state = self.cell.initial_state(tuple(xs.shape[1:-1]), xs.dtype)
        cell = self.cell

        def step(s, x):
            s = cell(x, s)
            return s, (s[0] if isinstance(s, tuple) else s)

        state, out = lax.scan(step, state, xs)
        if self.batch_first and out.ndim == 3:
            out = fnp.swapaxes(out, 0, 1)
        return out, state


class RNN(_Sequence):
    """An RNNCell over time (one layer); ``nonlinearity="relu"`` as in PyTorch."""

    _cell_type = RNNCell


class LSTM(_Sequence):
    """An LSTMCell over time (one layer); the state is ``(h, c)``."""

    _cell_type = LSTMCell


class GRU(_Sequence):
    """A GRUCell over time (one layer)."""

    _cell_type = GRUCell
