"""The examples in examples/ run and do what their docstrings say (small settings where they train)."""

import importlib.util
from pathlib import Path

import numpy as np

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _load(name):
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_char_rnn_learns_the_text_under_jit_and_scan():
    ex = _load("char_rnn")
    losses, text = ex.main(steps=80, seq_len=16, batch=8, hidden=32, lr=2e-2, verbose=False)
    vocab = len(set(ex.TEXT))
    assert abs(losses[0] - np.log(vocab)) < 0.3  # starts near uniform
    assert np.mean(losses[-10:]) < 0.5 * losses[0]
    assert len(text) == 80 and set(text) <= set(ex.TEXT)


def test_ode_rk4_fits_the_damping():
    assert abs(_load("ode_rk4").main() - 0.3) < 1e-3
