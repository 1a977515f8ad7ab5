"""Strong-Wolfe line search for ``LBFGS(line_search_fn='strong_wolfe')``.

Nocedal & Wright, Numerical Optimization (2nd ed.), Algorithms 3.5 (bracketing) and 3.6 (zoom), with
cubic interpolation for the trial steps, in the control flow PyTorch's ``torch.optim.lbfgs`` uses (itself
a port of torch7's ``lswolfe.lua``), so that the steps, the accepted points and the number of evaluations
are PyTorch's.  It works on flat tensors: ``evaluate(t)`` returns ``(loss, flat_grad)`` at ``x + t * d``.
Losses are Python floats; directional derivatives are numpy scalars of the tensors' dtype, so (as with
PyTorch's 0-d tensors) the arithmetic on them is float32 for float32 parameters.
"""

from __future__ import annotations

import numpy as np

__all__ = ["cubic_interpolate", "strong_wolfe", "scalar"]


def scalar(t):
    """A 0-d tensor's value as a numpy scalar of its dtype (float32 stays float32)."""
    return t._value.dtype.type(t.item())


def cubic_interpolate(x1, f1, g1, x2, f2, g2, bounds=None):
    """The minimiser of the cubic through ``(x1, f1)`` and ``(x2, f2)`` with slopes ``g1`` and ``g2``,
    clamped to ``bounds`` (default: the interval between ``x1`` and ``x2``).

    When the cubic has no local minimum (negative discriminant), the middle of the bounds.
    """
    lo, hi = bounds if bounds is not None else (min(x1, x2), max(x1, x2))
    if x1 == x2:  # no interval to interpolate over
        return min(max(x1, lo), hi)
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    disc = d1 * d1 - g1 * g2
    if disc < 0:
        return (lo + hi) / 2.0
    d2 = np.sqrt(disc)
    if x1 <= x2:
        x = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
    else:
        x = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
    return min(max(x, lo), hi)


class _Point:
    """A step along the line with its loss, flat gradient and directional derivative."""

    __slots__ = ("t", "f", "g", "gtd")

    def __init__(self, t, f, g, gtd):
        self.t, self.f, self.g, self.gtd = t, f, g, gtd


def strong_wolfe(evaluate, t, d, f, g, gtd, c1=1e-4, c2=0.9, tolerance_change=1e-9, max_ls=25):
    """Search along ``d`` from the point with loss ``f``, gradient ``g`` and slope ``gtd = g.d < 0``.

    Returns ``(f_new, g_new, t, evaluations)``: a step satisfying the strong Wolfe conditions
    ``f(t) <= f + c1 t gtd`` and ``|g(t).d| <= -c2 gtd`` when one was found within ``max_ls``
    evaluations, otherwise the lowest point seen in the final bracket.
    """
    d_norm = scalar(d.abs().max())
    g = g.clone()

    def at(step):
        f_step, g_step = evaluate(step)
        return _Point(step, f_step, g_step, scalar(g_step.dot(d)))

    def armijo_fails(p):
        return p.f > f + c1 * p.t * gtd

    def curvature_holds(p):
        return abs(p.gtd) <= -c2 * gtd

    new = at(t)
    evals, ls_iter = 1, 0
    prev = _Point(0, f, g, gtd)
    bracket, done = None, False
    # bracketing (Alg. 3.5): grow the step until the interval [prev, new] contains an acceptable point
    while ls_iter < max_ls:
        if armijo_fails(new) or (ls_iter > 1 and new.f >= prev.f):
            bracket = [prev, new]
            break
        if curvature_holds(new):
            bracket, done = [new], True
            break
        if new.gtd >= 0:
            bracket = [prev, new]
            break
        step = cubic_interpolate(prev.t, prev.f, prev.gtd, new.t, new.f, new.gtd,
                                 bounds=(new.t + 0.01 * (new.t - prev.t), new.t * 10))
        prev, new = new, at(step)
        evals += 1
        ls_iter += 1
    if ls_iter == max_ls:  # out of evaluations: the bracket is [0, last step]
        bracket = [_Point(0, f, g, gtd), new]

    # zoom (Alg. 3.6): shrink the bracket, keeping [low] the lowest acceptable-by-Armijo point
    low, high = (0, 1) if bracket[0].f <= bracket[-1].f else (1, 0)
    insufficient = False
    while not done and ls_iter < max_ls:
        a, b = bracket
        if abs(b.t - a.t) * d_norm < tolerance_change:
            break
        step = cubic_interpolate(a.t, a.f, a.gtd, b.t, b.f, b.gtd)
        # a step too close to an end of the bracket makes little progress: after two such steps in a row
        # (or one outside it), move it to 10% of the bracket's length from the nearer end
        lo, hi = min(a.t, b.t), max(a.t, b.t)
        eps = 0.1 * (hi - lo)
        if min(hi - step, step - lo) < eps:
            if insufficient or step >= hi or step <= lo:
                step = hi - eps if abs(step - hi) < abs(step - lo) else lo + eps
                insufficient = False
            else:
                insufficient = True
        else:
            insufficient = False
        new = at(step)
        evals += 1
        ls_iter += 1
        if armijo_fails(new) or new.f >= bracket[low].f:
            bracket[high] = new
            low, high = (0, 1) if bracket[0].f <= bracket[1].f else (1, 0)
        else:
            if curvature_holds(new):
                done = True
            elif new.gtd * (bracket[high].t - bracket[low].t) >= 0:
                bracket[high] = bracket[low]
            bracket[low] = new
    best = bracket[low]
    return best.f, best.g, best.t, evals
