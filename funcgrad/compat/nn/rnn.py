"""Recurrent layers: RNN, LSTM, GRU and their cells, with PyTorch's parameter names and layouts.

The cell math is written with compat tensor operations (so autograd, hooks and
``create_graph`` work through it as through any other op); the gate order and
the parameter shapes are PyTorch's (``weight_ih_l{k}[_reverse]`` of shape
``(gates * hidden_size, input_size)``, ...), so state_dicts interchange.
"""

from __future__ import annotations

import math

from .. import creation as _c
from ..ops_shape import cat as _cat
from ..ops_shape import stack as _stack
from . import functional as F
from . import init
from .module import Module
from .parameter import Parameter
from .utils.rnn import PackedSequence, pad_packed_sequence

__all__ = ["RNNCellBase", "RNNCell", "LSTMCell", "GRUCell", "RNNBase", "RNN", "LSTM", "GRU"]

_GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


def _rnn_step(x, h, w_ih, w_hh, b_ih, b_hh, nonlinearity):
    pre = F.linear(x, w_ih, b_ih) + F.linear(h, w_hh, b_hh)
    return pre.tanh() if nonlinearity == "tanh" else pre.relu()


def _lstm_step(x, h, c, w_ih, w_hh, b_ih, b_hh):
    i, f, g, o = (F.linear(x, w_ih, b_ih) + F.linear(h, w_hh, b_hh)).chunk(4, dim=-1)
    c = f.sigmoid() * c + i.sigmoid() * g.tanh()
    return o.sigmoid() * c.tanh(), c


def _gru_step(x, h, w_ih, w_hh, b_ih, b_hh):
    xr, xz, xn = F.linear(x, w_ih, b_ih).chunk(3, dim=-1)
    hr, hz, hn = F.linear(h, w_hh, b_hh).chunk(3, dim=-1)
    r = (xr + hr).sigmoid()
    z = (xz + hz).sigmoid()
    n = (xn + r * hn).tanh()
    return (1 - z) * n + z * h


class _CellBase(Module):
    _mode = "RNN_TANH"

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__()
        self.input_size, self.hidden_size, self.bias = input_size, hidden_size, bias
        g = _GATES[self._mode] * hidden_size
        kw = {"device": device, "dtype": dtype}
        self.weight_ih = Parameter(_c.empty(g, input_size, **kw))
        self.weight_hh = Parameter(_c.empty(g, hidden_size, **kw))
        if bias:
            self.bias_ih = Parameter(_c.empty(g, **kw))
            self.bias_hh = Parameter(_c.empty(g, **kw))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def reset_parameters(self):
        bound = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0.0
        for p in self.parameters():
            init.uniform_(p, -bound, bound)

    def _check(self, input, hx):
        if input.dim() not in (1, 2):
            raise ValueError(f"{type(self).__name__}: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if input.shape[-1] != self.input_size:
            raise RuntimeError(f"input has inconsistent input_size: got {input.shape[-1]} expected {self.input_size}")
        batched = input.dim() == 2
        x = input if batched else input.unsqueeze(0)
        if hx is None:
            hx = _c.zeros(x.shape[0], self.hidden_size, dtype=x.dtype, device=x.device)
        elif not batched:
            hx = hx.unsqueeze(0)
        return x, hx, batched

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if not self.bias:
            s += ", bias=False"
        if getattr(self, "nonlinearity", "tanh") != "tanh":
            s += f", nonlinearity={self.nonlinearity}"
        return s


class RNNCellBase(_CellBase):
    """``nn.RNNCellBase(input_size, hidden_size, bias, num_chunks)``: the weights of a cell with ``num_chunks``
    gates (1: RNNCell, 3: GRUCell, 4: LSTMCell); the subclasses define ``forward``."""

    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        modes = {1: "RNN_TANH", 3: "GRU", 4: "LSTM"}
        if type(self) is RNNCellBase or "_mode" not in type(self).__dict__:
            if num_chunks not in modes:
                raise ValueError(f"RNNCellBase: num_chunks must be 1, 3 or 4, got {num_chunks}")
            self._mode = modes[num_chunks]
        _CellBase.__init__(self, input_size, hidden_size, bias, device, dtype)


class RNNCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None, dtype=None):
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity: {nonlinearity}")
        self._mode = "RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU"
        _CellBase.__init__(self, input_size, hidden_size, bias, device, dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        x, h, batched = self._check(input, hx)
        h = _rnn_step(x, h, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh, self.nonlinearity)
        return h if batched else h.squeeze(0)


class LSTMCell(RNNCellBase):
    __init__ = _CellBase.__init__
    _mode = "LSTM"

    def forward(self, input, hx=None):
        if hx is None:
            x, h, batched = self._check(input, None)
            c = h
        else:
            x, h, batched = self._check(input, hx[0])
            c = hx[1] if batched else hx[1].unsqueeze(0)
        h, c = _lstm_step(x, h, c, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        return (h, c) if batched else (h.squeeze(0), c.squeeze(0))


class GRUCell(RNNCellBase):
    __init__ = _CellBase.__init__
    _mode = "GRU"

    def forward(self, input, hx=None):
        x, h, batched = self._check(input, hx)
        h = _gru_step(x, h, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        return h if batched else h.squeeze(0)


class _RNNBase(Module):
    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, device=None, dtype=None, nonlinearity="tanh"):
        super().__init__()
        if not 0 <= dropout <= 1:
            raise ValueError("dropout should be a number in range [0, 1] representing the probability of an "
                             "element being zeroed")
        if num_layers < 1:
            raise ValueError(f"num_layers must be greater than or equal to 1, got {num_layers}")
        self.mode, self.input_size, self.hidden_size, self.num_layers = mode, input_size, hidden_size, num_layers
        self.bias, self.batch_first, self.dropout, self.bidirectional = bias, batch_first, float(dropout), bidirectional
        self.nonlinearity = nonlinearity
        g = _GATES[mode] * hidden_size
        kw = {"device": device, "dtype": dtype}
        dirs = 2 if bidirectional else 1
        self._flat_weights_names = []
        for layer in range(num_layers):
            for d in range(dirs):
                suffix = f"_l{layer}" + ("_reverse" if d else "")
                in_size = input_size if layer == 0 else hidden_size * dirs
                names = [f"weight_ih{suffix}", f"weight_hh{suffix}"] + ([f"bias_ih{suffix}", f"bias_hh{suffix}"] if bias else [])
                shapes = [(g, in_size), (g, hidden_size), (g,), (g,)]
                for name, shape in zip(names, shapes):
                    setattr(self, name, Parameter(_c.empty(*shape, **kw)))
                self._flat_weights_names += names
        self.reset_parameters()

    def reset_parameters(self):
        bound = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0.0
        for p in self.parameters():
            init.uniform_(p, -bound, bound)

    def flatten_parameters(self):
        """No-op: PyTorch packs the weights into one cuDNN buffer; here each is its own array already."""

    @property
    def all_weights(self):
        """Per layer and direction, its parameters in ``_flat_weights_names`` order (PyTorch's list of lists)."""
        per = 4 if self.bias else 2
        names = self._flat_weights_names
        return [[getattr(self, n) for n in names[i:i + per]] for i in range(0, len(names), per)]

    def _weights(self, layer, d):
        suffix = f"_l{layer}" + ("_reverse" if d else "")
        get = lambda n: getattr(self, n, None)  # noqa: E731
        return (get(f"weight_ih{suffix}"), get(f"weight_hh{suffix}"), get(f"bias_ih{suffix}"), get(f"bias_hh{suffix}"))

    def forward(self, input, hx=None):
        if isinstance(input, PackedSequence):
            return self._forward_packed(input, hx)
        if input.dim() not in (2, 3):
            raise ValueError(f"{type(self).__name__}: Expected input to be 2D or 3D, got {input.dim()}D instead")
        batched = input.dim() == 3
        x = input if batched else input.unsqueeze(1 if not self.batch_first else 0)
        if self.batch_first:
            x = x.transpose(0, 1)
        self._check_input(x)
        h0, c0 = self._initial_state(hx, x.shape[1], 2 if self.bidirectional else 1, batched, x)
        out, h_n, c_n = self._run(x, h0, c0)
        if self.batch_first:
            out = out.transpose(0, 1)
        if not batched:
            out = out.squeeze(0 if self.batch_first else 1)
            h_n = h_n.squeeze(1)
        if self.mode == "LSTM":
            return out, (h_n, c_n if batched else c_n.squeeze(1))
        return out, h_n

    def _check_input(self, x):
        if x.shape[-1] != self.input_size:
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected {self.input_size}, got {x.shape[-1]}")

    def _forward_packed(self, packed, hx):
        """A PackedSequence in, a PackedSequence out: at step t only the first ``batch_sizes[t]`` rows
        (the sequences still running, longest first) are updated; the others keep their state."""
        x, _ = pad_packed_sequence(PackedSequence(packed.data, packed.batch_sizes))  # (T, B, *), sorted order
        self._check_input(x)
        sizes = [int(n) for n in packed.batch_sizes.tolist()]
        order, unorder = packed.sorted_indices, packed.unsorted_indices
        if hx is not None and order is not None:  # the caller's batch order -> longest-first
            hx = tuple(h.index_select(1, order) for h in hx) if self.mode == "LSTM" else hx.index_select(1, order)
        h0, c0 = self._initial_state(hx, sizes[0], 2 if self.bidirectional else 1, True, x)
        out, h_n, c_n = self._run(x, h0, c0, sizes)
        data = _cat([out[t, :n] for t, n in enumerate(sizes)], 0)
        if unorder is not None:
            h_n = h_n.index_select(1, unorder)
            c_n = c_n.index_select(1, unorder) if c_n is not None else None
        out = PackedSequence(data, packed.batch_sizes, order, unorder)
        return (out, (h_n, c_n)) if self.mode == "LSTM" else (out, h_n)

    def _run(self, x, h0, c0, sizes=None):
        """The layers over (T, B, input_size) ``x``: (output, h_n, c_n or None). With ``sizes``
        (decreasing active batch sizes per step) rows past their sequence's end keep their state."""
        steps, batch = x.shape[0], x.shape[1]
        dirs = 2 if self.bidirectional else 1
        lstm = self.mode == "LSTM"
        layer_input = x
        h_n, c_n = [], []
        for layer in range(self.num_layers):
            outs = []
            for d in range(dirs):
                k = layer * dirs + d
                h, c = h0[k], (c0[k] if lstm else None)
                w = self._weights(layer, d)
                order = range(steps - 1, -1, -1) if d else range(steps)
                seq = [None] * steps
                for t in order:
                    n = batch if sizes is None else sizes[t]
                    xt, ht, ct = layer_input[t], h, c
                    if n < batch:  # running backwards, rows join at their last step, still holding h0
                        xt, ht, ct = xt[:n], h[:n], (c[:n] if lstm else None)
                    if lstm:
                        ht, ct = _lstm_step(xt, ht, ct, *w)
                    elif self.mode == "GRU":
                        ht = _gru_step(xt, ht, *w)
                    else:
                        ht = _rnn_step(xt, ht, *w, self.nonlinearity)
                    if n < batch:
                        ht = _cat([ht, h[n:]], 0)
                        ct = _cat([ct, c[n:]], 0) if lstm else None
                    h, c = ht, ct
                    seq[t] = h
                outs.append(_stack(seq, 0) if steps else _c.zeros(0, batch, self.hidden_size, dtype=x.dtype))
                h_n.append(h)
                if lstm:
                    c_n.append(c)
            layer_input = outs[0] if dirs == 1 else _cat(outs, -1)
            if self.dropout and self.training and layer < self.num_layers - 1:
                layer_input = F.dropout(layer_input, self.dropout, True)
        return layer_input, _stack(h_n, 0), (_stack(c_n, 0) if lstm else None)

    def _initial_state(self, hx, batch, dirs, batched, x):
        shape = (self.num_layers * dirs, batch, self.hidden_size)

        def fix(t, what):
            if t is None:
                return _c.zeros(*shape, dtype=x.dtype, device=x.device)
            t = t if batched else t.unsqueeze(1)
            if tuple(t.shape) != shape:
                raise RuntimeError(f"Expected {what} size {shape}, got {tuple(t.shape)}")
            return t

        if self.mode == "LSTM":
            h, c = (None, None) if hx is None else hx
            return fix(h, "hidden[0]"), fix(c, "hidden[1]")
        return fix(hx, "hidden"), None

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if not self.bias:
            s += ", bias=False"
        if self.batch_first:
            s += ", batch_first=True"
        if self.dropout:
            s += f", dropout={self.dropout}"
        if self.bidirectional:
            s += ", bidirectional=True"
        return s


class RNNBase(_RNNBase):
    """``nn.RNNBase(mode, input_size, hidden_size, ...)`` with mode 'RNN_TANH', 'RNN_RELU', 'LSTM' or 'GRU':
    the base of RNN, LSTM and GRU (PyTorch's signature)."""

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        if mode not in ("RNN_TANH", "RNN_RELU", "LSTM", "GRU"):
            raise ValueError(f"Unrecognized RNN mode: {mode}")
        if proj_size:
            raise ValueError("RNNBase(proj_size > 0) is not supported by funcgrad.compat")
        _RNNBase.__init__(self, mode, input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional,
                          device, dtype, "relu" if mode == "RNN_RELU" else "tanh")


class RNN(RNNBase):
    def __init__(self, input_size, hidden_size, num_layers=1, nonlinearity="tanh", bias=True, batch_first=False,
                 dropout=0.0, bidirectional=False, device=None, dtype=None):
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or 'relu'.")
        _RNNBase.__init__(self, "RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", input_size, hidden_size, num_layers,
                         bias, batch_first, dropout, bidirectional, device, dtype, nonlinearity)


class LSTM(RNNBase):
    def __init__(self, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        if proj_size:
            raise ValueError("LSTM(proj_size > 0) is not supported by funcgrad.compat")
        _RNNBase.__init__(self, "LSTM", input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional,
                         device, dtype)


class GRU(RNNBase):
    def __init__(self, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, device=None, dtype=None):
        _RNNBase.__init__(self, "GRU", input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional,
                         device, dtype)
