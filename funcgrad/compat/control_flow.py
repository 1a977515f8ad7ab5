"""torch.cond and torch.while_loop, eagerly (as PyTorch runs them outside torch.compile), and
the RNN cell functions torch.rnn_tanh_cell / rnn_relu_cell / gru_cell / lstm_cell.

compat code runs eagerly, so a branch or loop body is simply called; gradients flow through
whatever ran.  (Inside funcgrad's jit, use funcgrad.lax.cond / while_loop, which trace both.)
"""

from __future__ import annotations

from ._dispatch import FUNCS
from .tensor import Tensor

__all__ = ["cond", "while_loop", "rnn_tanh_cell", "rnn_relu_cell", "gru_cell", "lstm_cell"]


def _pred(pred):
    if isinstance(pred, Tensor):
        if pred.numel() != 1:
            raise RuntimeError(f"Expected pred to be bool or single-element tensor, but got {tuple(pred.shape)}")
        return bool(pred.item())
    if not isinstance(pred, (bool, int)):
        raise RuntimeError(f"Expected pred to be bool or tensor, but got {type(pred).__name__}")
    return bool(pred)


def cond(pred, true_fn, false_fn, operands=()):
    """``true_fn(*operands)`` if pred else ``false_fn(*operands)``."""
    if not isinstance(operands, (tuple, list)):
        raise RuntimeError(f"Expect operands to be a tuple of possibly nested dict/list/tuple, got {type(operands)}")
    return (true_fn if _pred(pred) else false_fn)(*operands)


def while_loop(cond_fn, body_fn, carried_inputs):
    """Run ``body_fn(*carried)`` while ``cond_fn(*carried)``; the body returns the new carried values."""
    if not isinstance(carried_inputs, (tuple, list)):
        raise RuntimeError(f"carried_inputs must be a tuple or list, got {type(carried_inputs)}")
    carried = tuple(carried_inputs)
    while _pred(cond_fn(*carried)):
        out = body_fn(*carried)
        out = tuple(out) if isinstance(out, (tuple, list)) else (out,)
        if len(out) != len(carried):
            raise RuntimeError(f"body_fn should return {len(carried)} values (as many as carried_inputs), got "
                               f"{len(out)}")
        carried = out
    return carried


def _lin(x, w, b):
    y = FUNCS["matmul"](x, w.t())
    return y if b is None else y + b


def rnn_tanh_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    return FUNCS["tanh"](_lin(input, w_ih, b_ih) + _lin(hx, w_hh, b_hh))


def rnn_relu_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    return FUNCS["relu"](_lin(input, w_ih, b_ih) + _lin(hx, w_hh, b_hh))


def gru_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """PyTorch's GRU cell (gates r, z, n in that order; n = tanh(W_in x + b_in + r * (W_hn h + b_hn)))."""
    gi = _lin(input, w_ih, b_ih).chunk(3, -1)
    gh = _lin(hx, w_hh, b_hh).chunk(3, -1)
    r = FUNCS["sigmoid"](gi[0] + gh[0])
    z = FUNCS["sigmoid"](gi[1] + gh[1])
    n = FUNCS["tanh"](gi[2] + r * gh[2])
    return (1 - z) * n + z * hx


def lstm_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """PyTorch's LSTM cell: hx = (h, c); gates i, f, g, o; returns (h', c')."""
    h, c = hx
    gates = (_lin(input, w_ih, b_ih) + _lin(h, w_hh, b_hh)).chunk(4, -1)
    i, f, o = (FUNCS["sigmoid"](g) for g in (gates[0], gates[1], gates[3]))
    g = FUNCS["tanh"](gates[2])
    c2 = f * c + i * g
    return o * FUNCS["tanh"](c2), c2
