"""torch.optim.LBFGS (fixed step, no line search): PyTorch's two-loop recursion, run on flat tensors."""

from __future__ import annotations

from ..grad_mode import enable_grad, no_grad
from .optimizer import Optimizer

__all__ = ["LBFGS"]


class LBFGS(Optimizer):
    """L-BFGS over one parameter group; ``step(closure)`` runs up to ``max_iter`` iterations.

    ``line_search_fn`` must be None (PyTorch's 'strong_wolfe' is not implemented: ValueError).
    """

    def __init__(self, params, lr=1, max_iter=20, max_eval=None, tolerance_grad=1e-7, tolerance_change=1e-9,
                 history_size=100, line_search_fn=None):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if line_search_fn is not None:
            raise ValueError(f"LBFGS: line_search_fn={line_search_fn!r} is not supported by funcgrad.compat "
                             "(use line_search_fn=None)")
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        super().__init__(params, dict(lr=lr, max_iter=max_iter, max_eval=max_eval, tolerance_grad=tolerance_grad,
                                      tolerance_change=tolerance_change, history_size=history_size,
                                      line_search_fn=line_search_fn))
        if len(self.param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")

    def _flat_grad(self):
        from .. import cat, zeros  # noqa: PLC0415

        ps = self.param_groups[0]["params"]
        return cat([p.grad.reshape(-1) if p.grad is not None else zeros(p.numel(), dtype=p.dtype) for p in ps])

    def _add(self, t, d):
        i = 0
        for p in self.param_groups[0]["params"]:
            n = p.numel()
            p.add_(d[i:i + n].view_as(p) * t)
            i += n

    @no_grad()
    def step(self, closure):
        if closure is None:
            raise RuntimeError("LBFGS.step() needs a closure that re-evaluates the model and returns the loss")
        g = self.param_groups[0]
        lr, max_iter, max_eval = g["lr"], g["max_iter"], g["max_eval"]
        tol_grad, tol_change, history = g["tolerance_grad"], g["tolerance_change"], g["history_size"]
        state = self.state[g["params"][0]]
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
        d, t = state.get("d"), state.get("t")
        old_dirs, old_stps, ro = state.get("old_dirs"), state.get("old_stps"), state.get("ro")
        h_diag, prev_grad, prev_loss = state.get("H_diag"), state.get("prev_flat_grad"), state.get("prev_loss")
        n_iter = 0
        while n_iter < max_iter:
            n_iter += 1
            state["n_iter"] += 1
            if state["n_iter"] == 1:
                d, old_dirs, old_stps, ro, h_diag = -flat_grad, [], [], [], 1
            else:
                y = flat_grad - prev_grad
                s = d * t
                ys = float(y.dot(s))
                if ys > 1e-10:
                    if len(old_dirs) == history:
                        old_dirs.pop(0)
                        old_stps.pop(0)
                        ro.pop(0)
                    old_dirs.append(y)
                    old_stps.append(s)
                    ro.append(1.0 / ys)
                    h_diag = ys / float(y.dot(y))
                al = [0.0] * len(old_dirs)
                q = -flat_grad
                for i in range(len(old_dirs) - 1, -1, -1):
                    al[i] = float(old_stps[i].dot(q)) * ro[i]
                    q = q - old_dirs[i] * al[i]
                r = q * h_diag
                for i in range(len(old_dirs)):
                    be = float(old_dirs[i].dot(r)) * ro[i]
                    r = r + old_stps[i] * (al[i] - be)
                d = r
            prev_grad = flat_grad.clone()
            prev_loss = loss
            t = min(1.0, 1.0 / float(flat_grad.abs().sum())) * lr if state["n_iter"] == 1 else lr
            if float(flat_grad.dot(d)) > -tol_change:
                break
            self._add(t, d)
            done = False
            if n_iter != max_iter:
                with enable_grad():
                    loss = float(closure())
                flat_grad = self._flat_grad()
                done = bool(flat_grad.abs().max() <= tol_grad)
                evals += 1
                state["func_evals"] += 1
            if n_iter == max_iter or evals >= max_eval or done:
                break
            if float((d * t).abs().max()) <= tol_change or abs(loss - prev_loss) < tol_change:
                break
        state.update(d=d, t=t, old_dirs=old_dirs, old_stps=old_stps, ro=ro, H_diag=h_diag, prev_flat_grad=prev_grad,
                     prev_loss=prev_loss)
        return orig_loss
