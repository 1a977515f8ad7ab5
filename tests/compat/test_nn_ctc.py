"""F.ctc_loss / nn.CTCLoss against a brute-force sum over every alignment path."""

import itertools

import numpy as np
import pytest

import funcgrad.compat as torch
import funcgrad.compat.nn.functional as F
from funcgrad.compat import nn

RNG = np.random.default_rng(2)


def _t(a, grad=False):
    return torch.tensor(np.asarray(a), requires_grad=grad)


def _collapse(path, blank):
    out = [k for k, _ in itertools.groupby(path)]
    return [k for k in out if k != blank]


def _brute_nll(lp, target, blank):
    """-log sum over all paths of length T that collapse to ``target`` of prod p."""
    T, C = lp.shape
    total = 0.0
    for path in itertools.product(range(C), repeat=T):
        if _collapse(path, blank) == list(target):
            total += np.exp(sum(lp[t, k] for t, k in enumerate(path)))
    return -np.log(total) if total > 0 else np.inf


def _log_probs(T, N, C):
    x = RNG.standard_normal((T, N, C))
    return x - np.log(np.exp(x).sum(-1, keepdims=True))


@pytest.mark.parametrize("blank", [0, 2])
def test_ctc_matches_the_sum_over_alignments(blank):
    lp = _log_probs(5, 3, 3)
    labels = [l for l in range(3) if l != blank]
    targets = np.array([[labels[0], labels[1], labels[1]], [labels[1], labels[0], 0], [labels[0], 0, 0]])
    in_len, tg_len = np.array([5, 4, 3]), np.array([3, 2, 1])
    ref = np.array([_brute_nll(lp[:in_len[i], i], targets[i, :tg_len[i]], blank) for i in range(3)])
    out = F.ctc_loss(_t(lp), _t(targets), _t(in_len), _t(tg_len), blank, reduction="none")
    np.testing.assert_allclose(out.numpy(), ref, rtol=1e-10)
    mean = nn.CTCLoss(blank)(_t(lp), _t(targets), _t(in_len), _t(tg_len))
    np.testing.assert_allclose(float(mean), (ref / tg_len).mean(), rtol=1e-10)
    flat = np.concatenate([targets[i, :tg_len[i]] for i in range(3)])  # concatenated targets, tuple lengths
    out = F.ctc_loss(_t(lp), _t(flat), tuple(in_len), tuple(tg_len), blank, reduction="sum")
    np.testing.assert_allclose(float(out), ref.sum(), rtol=1e-10)


def test_ctc_impossible_targets_zero_infinity_and_unbatched():
    lp = _log_probs(4, 2, 3)
    targets, in_len, tg_len = np.array([[1, 1, 2], [2, 1, 0]]), np.array([2, 4]), np.array([3, 2])
    out = F.ctc_loss(_t(lp), _t(targets), _t(in_len), _t(tg_len), reduction="none").numpy()
    assert out[0] == np.inf and np.isfinite(out[1])
    x = _t(lp, True)
    loss = F.ctc_loss(x, _t(targets), _t(in_len), _t(tg_len), reduction="sum", zero_infinity=True)
    np.testing.assert_allclose(float(loss), out[1], rtol=1e-12)
    loss.backward()
    assert np.all(x.grad.numpy()[:, 0] == 0) and np.all(np.isfinite(x.grad.numpy()))
    one = F.ctc_loss(_t(lp[:, 1]), _t(targets[1]), (4,), (2,), reduction="none")
    np.testing.assert_allclose(one.numpy(), out[1], rtol=1e-12)


def test_ctc_gradient_and_errors():
    lp = _log_probs(4, 2, 3)
    targets = _t(np.array([[1, 2], [2, 2]]))
    assert torch.autograd.gradcheck(lambda a: F.ctc_loss(a, targets, (4, 3), (2, 2)), (_t(lp, True),))
    with pytest.raises(RuntimeError, match="at most 4"):
        F.ctc_loss(_t(lp), targets, (5, 3), (2, 2))
    with pytest.raises(RuntimeError, match="label"):
        F.ctc_loss(_t(lp), _t(np.array([[1, 3], [2, 2]])), (4, 3), (2, 2))
    with pytest.raises(ValueError, match="not a valid value"):
        F.ctc_loss(_t(lp), targets, (4, 3), (2, 2), reduction="avg")
