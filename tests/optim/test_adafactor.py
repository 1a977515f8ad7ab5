"""funcgrad.optim.adafactor against a direct numpy transcription of torch.optim.Adafactor's rule."""

import numpy as np
import pytest

import funcgrad as fg
from funcgrad import optim


def _np_step(p, g, st, t, lr=1e-2, beta2_decay=-0.8, eps1=None, eps2=1e-3, d=1.0, wd=0.0):
    eps1 = np.finfo(p.dtype).eps if eps1 is None else eps1
    b = t ** beta2_decay
    alpha = max(eps2, np.sqrt((p * p).mean())) * min(lr, 1 / np.sqrt(t))
    p = p * (1 - lr * wd)
    if g.ndim > 1:
        st["row"] += b * ((g * g).mean(-1, keepdims=True) - st["row"])
        st["col"] += b * ((g * g).mean(-2, keepdims=True) - st["col"])
        est = st["row"] @ st["col"] / np.maximum(st["row"].mean(-2, keepdims=True), eps1)
    else:
        st["var"] += b * (g * g - st["var"])
        est = st["var"]
    u = g / np.sqrt(np.maximum(est, eps1 ** 2))
    return p - alpha / max(1.0, np.sqrt((u * u).mean()) / d) * u


@pytest.mark.parametrize("kw", [dict(), dict(lr=0.1, weight_decay=0.05, d=2.0, beta2_decay=-0.5)])
def test_matches_numpy_transcription(kw):
    rng = np.random.default_rng(0)
    params = {"w": rng.standard_normal((3, 4)), "b": rng.standard_normal(5), "k": rng.standard_normal((2, 3, 4))}
    opt = optim.adafactor(kw.get("lr", 1e-2), kw.get("beta2_decay", -0.8), (None, 1e-3), kw.get("d", 1.0),
                          kw.get("weight_decay", 0.0))
    state = opt.init(params)
    assert state.variance["w"] is None and state.row_var["b"] is None
    assert state.row_var["k"].shape == (2, 3, 1) and state.col_var["k"].shape == (2, 1, 4)
    ref = {k: v.copy() for k, v in params.items()}
    ref_st = {k: ({"row": np.zeros(v.shape[:-1] + (1,)), "col": np.zeros(v.shape[:-2] + (1, v.shape[-1]))}
                  if v.ndim > 1 else {"var": np.zeros_like(v)}) for k, v in params.items()}
    p = {k: fg.numpy.asarray(v) for k, v in params.items()}
    for t in range(1, 5):
        grads = {k: fg.numpy.asarray(np.cos(np.asarray(v)) * (t + 1)) for k, v in p.items()}
        updates, state = opt.update(grads, state, p)
        p = optim.apply_updates(p, updates)
        for k in ref:
            ref[k] = _np_step(ref[k], np.cos(ref[k]) * (t + 1), ref_st[k], t, kw.get("lr", 1e-2),
                              kw.get("beta2_decay", -0.8), None, 1e-3, kw.get("d", 1.0), kw.get("weight_decay", 0.0))
    for k in ref:
        np.testing.assert_allclose(np.asarray(p[k]), ref[k], rtol=1e-12, atol=1e-14)


def test_solves_a_quadratic():
    target = np.arange(6.0).reshape(2, 3)
    opt = optim.adafactor(lr=0.5)
    x = fg.numpy.zeros((2, 3))
    state = opt.init(x)
    loss = lambda x: fg.numpy.sum((x - target) ** 2)  # noqa: E731
    for _ in range(300):
        updates, state = opt.update(fg.grad(loss)(x), state, x)
        x = optim.apply_updates(x, updates)
    assert float(loss(x)) < 1e-2


def test_errors():
    with pytest.raises(ValueError, match="beta2_decay should be <= 0"):
        optim.adafactor(beta2_decay=0.5)
    with pytest.raises(ValueError, match="clipping threshold d should be >= 1"):
        optim.adafactor(d=0.5)
    opt = optim.adafactor()
    with pytest.raises(ValueError, match="needs params"):
        opt.update(np.ones(3), opt.init(np.ones(3)))
