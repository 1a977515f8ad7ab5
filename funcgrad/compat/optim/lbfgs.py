"""torch.optim.LBFGS: PyTorch's L-BFGS (two-loop recursion on flat tensors), with a fixed step or the
strong-Wolfe line search of ``line_search.py``."""

from __future__ import annotations

import numpy as np

from ..autograd.grad_mode import enable_grad, no_grad
from ..tensor import Tensor, wrap
from .line_search import scalar, strong_wolfe
from .optimizer import Optimizer

__all__ = ["LBFGS"]

_LINE_SEARCHES = (None, "strong_wolfe")


class LBFGS(Optimizer):
    """L-BFGS over one parameter group; ``step(closure)`` runs up to ``max_iter`` iterations and
    ``max_eval`` closure evaluations.

    ``line_search_fn`` is None (steps of ``lr``; the first is ``min(1, 1/|g|_1) * lr``) or
    ``'strong_wolfe'`` (each step starts from that guess and is accepted when it satisfies the strong
    Wolfe conditions with ``c1=1e-4``, ``c2=0.9``).  The state (``func_evals``, ``n_iter``, the history
    ``old_dirs``/``old_stps``/``ro``, ``H_diag``, ``d``, ``t``, ``prev_flat_grad``, ``prev_loss``, ``al``) is
    kept under the first parameter, as in PyTorch.
    """

    def __init__(self, params, lr=1, max_iter=20, max_eval=None, tolerance_grad=1e-7, tolerance_change=1e-9,
                 history_size=100, line_search_fn=None):
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        _check_line_search(line_search_fn)
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        super().__init__(params, dict(lr=lr, max_iter=max_iter, max_eval=max_eval, tolerance_grad=tolerance_grad,
                                      tolerance_change=tolerance_change, history_size=history_size,
                                      line_search_fn=line_search_fn))
        if len(self.param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")

    # --- flat views of the parameters ---------------------------------------------------
    def _params(self):
        return self.param_groups[0]["params"]

    def _flat_grad(self):
        from .. import cat, zeros  # noqa: PLC0415

        return cat([p.grad.reshape(-1) if p.grad is not None else zeros(p.numel(), dtype=p.dtype, device=p.device)
                    for p in self._params()])

    def _add(self, t, d):
        i = 0
        for p in self._params():
            n = p.numel()
            p.add_(d[i:i + n].reshape(p.shape), alpha=t)
            i += n

    def _evaluate_along(self, closure, saved, t, d):
        """Loss and flat gradient at ``x + t d``; the parameters are restored to ``x`` (``saved``) afterwards."""
        self._add(t, d)
        with enable_grad():
            loss = float(closure())
        flat_grad = self._flat_grad()
        for p, x in zip(self._params(), saved):
            p.copy_(x)
        return loss, flat_grad

    def _direction(self, state, flat_grad, d, t, prev_grad, history):
        """The L-BFGS direction ``-H g``: update the memory with ``(s, y)``, then the two-loop recursion.

        Scalars are numpy scalars of the parameters' dtype (PyTorch's 0-d tensors); the state keeps them
        as 0-d tensors, as PyTorch's does."""
        old_dirs, old_stps, ro = state["old_dirs"], state["old_stps"], state["ro"]
        y = flat_grad - prev_grad
        s = d * t
        ys = scalar(y.dot(s))
        if ys > 1e-10:  # keep the pair only if it has positive curvature
            if len(old_dirs) == history:
                old_dirs.pop(0)
                old_stps.pop(0)
                ro.pop(0)
            old_dirs.append(y)
            old_stps.append(s)
            ro.append(_tensor(1.0 / ys))
            state["H_diag"] = _tensor(ys / scalar(y.dot(y)))
        rho = [_value(v) for v in ro]
        al = [None] * history
        q = -flat_grad
        for i in range(len(old_dirs) - 1, -1, -1):
            al[i] = scalar(old_stps[i].dot(q)) * rho[i]
            q = q - old_dirs[i] * al[i]
        r = q * _value(state["H_diag"])
        for i in range(len(old_dirs)):
            be = scalar(old_dirs[i].dot(r)) * rho[i]
            r = r + old_stps[i] * (al[i] - be)
        state["al"] = [_tensor(a) for a in al]
        return r

    @no_grad()
    def step(self, closure):
        """Up to ``max_iter`` L-BFGS iterations; returns the loss of the first closure evaluation."""
        if closure is None:
            raise RuntimeError("LBFGS.step() needs a closure that re-evaluates the model and returns the loss")
        g = self.param_groups[0]
        lr = float(g["lr"])
        max_iter, max_eval, history = g["max_iter"], g["max_eval"], g["history_size"]
        tol_grad, tol_change, line_search = g["tolerance_grad"], g["tolerance_change"], g["line_search_fn"]
        _check_line_search(line_search)
        state = self.state[self._params()[0]]
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)
        with enable_grad():
            orig_loss = closure()
        loss = float(orig_loss)
        evals = 1
        state["func_evals"] += 1
        flat_grad = self._flat_grad()
        if flat_grad.abs().max() <= tol_grad:
            return orig_loss
        d, t = state.get("d"), _value(state.get("t"))
        prev_grad, prev_loss = state.get("prev_flat_grad"), state.get("prev_loss")
        n_iter = 0
        while n_iter < max_iter:
            n_iter += 1
            state["n_iter"] += 1
            if state["n_iter"] == 1:
                d = -flat_grad
                state.update(old_dirs=[], old_stps=[], ro=[], H_diag=1)
            else:
                d = self._direction(state, flat_grad, d, t, prev_grad, history)
            prev_grad = flat_grad.clone()
            prev_loss = loss
            t = min(1.0, 1.0 / scalar(flat_grad.abs().sum())) * lr if state["n_iter"] == 1 else lr
            gtd = scalar(flat_grad.dot(d))
            if gtd > -tol_change:  # not a descent direction (any more)
                break
            ls_evals = 0
            if line_search is not None:
                x0 = [p.clone() for p in self._params()]
                loss, flat_grad, t, ls_evals = strong_wolfe(
                    lambda step: self._evaluate_along(closure, x0, step, d), t, d, loss, flat_grad, gtd,
                    max_ls=max_eval - evals)
                self._add(t, d)
                done = bool(flat_grad.abs().max() <= tol_grad)
            else:
                self._add(t, d)
                done = False
                if n_iter != max_iter:  # the last iteration's loss is left for the next step() to compute
                    with enable_grad():
                        loss = float(closure())
                    flat_grad = self._flat_grad()
                    done = bool(flat_grad.abs().max() <= tol_grad)
                    ls_evals = 1
            evals += ls_evals
            state["func_evals"] += ls_evals
            if n_iter == max_iter or evals >= max_eval or done:
                break
            if float((d * t).abs().max()) <= tol_change or abs(loss - prev_loss) < tol_change:
                break
        state.update(d=d, t=_tensor(t), prev_flat_grad=prev_grad, prev_loss=prev_loss)
        return orig_loss


def _tensor(v):
    """A numpy scalar as a 0-d tensor for the state (Python numbers stay as they are)."""
    return wrap(np.asarray(v)) if isinstance(v, np.generic) else v


def _value(v):
    """The scalar a state entry holds (the inverse of ``_tensor``)."""
    return scalar(v) if isinstance(v, Tensor) else v


def _check_line_search(fn):
    if fn not in _LINE_SEARCHES:
        raise ValueError(f"LBFGS: line_search_fn={fn!r} is not supported: only 'strong_wolfe' is supported "
                         "(or None for a fixed step)")
