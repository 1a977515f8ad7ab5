"""torch.autograd.functional: jacobian, hessian, vjp, jvp, hvp, vhp, over funcgrad.transforms.

Each is a thin adapter over torch.func's (funcgrad/compat/func.py), themselves over ``fg.vjp``,
``fg.jvp``, ``fg.jacrev``, ``fg.jacfwd``: ``jvp`` and ``strategy='forward-mode'`` are true
forward mode, Jacobians are one vectorized call (``vectorize`` changes nothing but PyTorch's
checks), ``hvp`` is forward-over-reverse and ``vhp`` reverse-over-reverse.  What is PyTorch's
here: inputs and ``v`` as a Tensor or a tuple of Tensors, their checks and messages, and
``create_graph``: with it, inputs that require grad stay compat's level-0 tracers under the
transformation, so compat's autograd records the computation and the results are differentiable;
without it the inputs and results are detached.  ``strict`` finds outputs independent of an input
from the structure of the computation (one reverse-mode trace per input, strict mode only).
"""

from __future__ import annotations

from ...transforms.reverse import VJPTracer
from ...transforms.api import vjp as _fg_vjp
from .. import creation
from .. import func as _func
from .._func_values import _handed_out, _tree_to_fg
from ..tensor import Tensor

__all__ = ["jacobian", "hessian", "vjp", "jvp", "hvp", "vhp"]


def _tup(x, arg_name, fname):
    """-> (was a tuple, tuple of Tensors), with PyTorch's TypeError for anything else."""
    is_tuple = isinstance(x, (tuple, list))
    xs = tuple(x) if is_tuple else (x,)
    for e in xs:
        if not isinstance(e, Tensor):
            what = "a tuple of Tensors" if is_tuple else "a Tensor or a tuple of Tensors"
            raise TypeError(f"The {arg_name} given to {fname} must be either {what} but the given {arg_name} has "
                            f"type {type(x if not is_tuple else e)}.")
    return is_tuple, xs


def _prep(xs, create_graph):
    return tuple(x if create_graph else x.detach() for x in xs)


def _post(t, create_graph):
    """Results as PyTorch returns them: detached unless ``create_graph``; a tuple's structure kept."""
    if isinstance(t, tuple):
        return tuple(_post(e, create_graph) for e in t)
    return t if create_graph or not isinstance(t, Tensor) else t.detach()


def _outputs(out, fname):
    is_tuple, outs = _tup(out, "outputs of the user-provided function", fname)
    return is_tuple, outs


def _check_v(v, like, fname, what="output"):
    _, vs = _tup(v, "v", fname)
    if len(vs) != len(like):
        raise RuntimeError(f"v is a tuple of invalid length: should be {len(like)} but got {len(vs)}.")
    for a, b in zip(vs, like):
        if tuple(a.shape) != tuple(b.shape):
            raise RuntimeError(f"v has invalid size: should be {b.shape} but got {a.shape}.")
    return vs


def _single_element(outs, fname):
    if len(outs) != 1 or outs[0].numel() != 1:
        raise RuntimeError(f"The vector v can only be None if the user-provided function returns a single Tensor "
                           f"with a single element.")


def _dependence(func, xs):
    """dep[i][j]: whether output i of func depends on input j (one reverse-mode trace per input)."""
    cols = []
    for j in range(len(xs)):
        seen = []

        def part(xj, j=j):
            args = list(xs)
            args[j] = xj
            outs = _tree_to_fg(func(*_handed_out(tuple(args))))
            flat = outs if isinstance(outs, tuple) else (outs,)
            seen.append([isinstance(o, VJPTracer) and o._trace is xj._trace for o in flat])
            return outs

        _fg_vjp(lambda xj: part(xj), _tree_to_fg(xs[j]))
        cols.append(seen[0])
    return [[cols[j][i] for j in range(len(xs))] for i in range(len(cols[0]) if cols else 0)]


def _strict(func, xs, per_pair):
    dep = _dependence(func, xs)
    for i, row in enumerate(dep):
        if not any(row):
            raise RuntimeError(f"Output {i} of the user-provided function does not require gradients. The outputs "
                               "must be computed in a differentiable manner from the input when running in strict "
                               "mode.")
    for j in range(len(xs)):
        for i, row in enumerate(dep):
            if per_pair and not row[j]:
                raise RuntimeError(f"Output {i} of the user-provided function is independent of input {j}. This is "
                                   "not allowed in strict mode.")
        if not per_pair and not any(row[j] for row in dep):
            raise RuntimeError(f"The output of the user-provided function is independent of input {j}. This is not "
                               "allowed in strict mode.")


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), v^T J)`` by reverse mode (``fg.vjp``)."""
    is_tuple, xs = _tup(inputs, "inputs", "vjp")
    xs = _prep(xs, create_graph)
    if strict:
        _strict(func, xs, per_pair=False)
    out, fn = _func.vjp(func, *xs)
    out_tuple, outs = _outputs(out, "vjp")
    if v is None:
        _single_element(outs, "vjp")
        vs = tuple(creation.ones_like(o) for o in outs)
    else:
        vs = _check_v(v, outs, "vjp")
    gs = fn(vs if out_tuple else vs[0])
    return _post(out, create_graph), _post(gs if is_tuple else gs[0], create_graph)


def _input_vs(v, xs, fname):
    """The vectors against the inputs: ``v`` checked, or ones for a single one-element input."""
    if v is None:
        if len(xs) != 1 or xs[0].numel() != 1:
            raise RuntimeError("The vector v can only be None if the input to the user-provided function is a "
                               "single Tensor with a single element.")
        return (creation.ones_like(xs[0]),)
    return _check_v(v, xs, fname)


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), J v)`` in forward mode (``fg.jvp``)."""
    is_tuple, xs = _tup(inputs, "inputs", "jvp")
    xs = _prep(xs, create_graph)
    vs = _input_vs(v, xs, "jvp")
    if strict:
        _strict(func, xs, per_pair=False)
    out, jv = _func.jvp(func, xs, vs)
    _outputs(out, "jvp")
    return _post(out, create_graph), _post(jv, create_graph)


_STRATEGY = ('Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your function has more '
             'outputs than inputs, "forward-mode" tends to be more performant. Otherwise, prefer to use '
             '"reverse-mode".')


def _check_strategy(strategy, vectorize, strict, fname):
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError(_STRATEGY)
    if strategy == "forward-mode" and not vectorize:
        raise NotImplementedError("Computing Jacobian using forward-AD or forward-over-reverse Hessian is"
                                  "only implemented for `vectorize=True`.")
    if strict and vectorize:
        raise RuntimeError(f"torch.autograd.functional.{fname}: `strict=True` and `vectorized=True` are not supported "
                           "together. Please either set `strict=False` or `vectorize=False`.")


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    """The Jacobian (``fg.jacrev``, or ``fg.jacfwd`` for strategy='forward-mode'): per output, per input,
    a Tensor of shape ``out.shape + in.shape``."""
    _check_strategy(strategy, vectorize, strict, "jacobian")
    is_tuple, xs = _tup(inputs, "inputs", "jacobian")
    xs = _prep(xs, create_graph)
    if strict:
        _strict(func, xs, per_pair=True)
    nums = tuple(range(len(xs))) if is_tuple else 0
    jac = _func.jacfwd(func, nums) if strategy == "forward-mode" else _func.jacrev(func, nums)
    return _post(jac(*xs), create_graph)


def _scalar(func, fname):
    def f(*xs):
        out = func(*xs)
        if not isinstance(out, Tensor):
            raise RuntimeError(f"The function given to {fname} should return a single Tensor")
        if out.numel() != 1:
            raise RuntimeError(f"The Tensor returned by the function given to {fname} should contain a single element")
        return out.reshape(())
    return f


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False, outer_jacobian_strategy="reverse-mode"):
    """The Hessian of a scalar function: the Jacobian of its gradient (forward over reverse: torch.func.hessian)."""
    _check_strategy(outer_jacobian_strategy, vectorize, strict, "hessian")
    is_tuple, xs = _tup(inputs, "inputs", "hessian")
    xs = _prep(xs, create_graph)
    f = _scalar(func, "hessian")
    if strict:
        _strict(f, xs, per_pair=True)
    nums = tuple(range(len(xs))) if is_tuple else 0
    return _post(_func.hessian(f, nums)(*xs), create_graph)


def _hv(func, inputs, v, create_graph, strict, fname):
    is_tuple, xs = _tup(inputs, "inputs", fname)
    xs = _prep(xs, create_graph)
    vs = _input_vs(v, xs, fname)
    f = _scalar(func, fname)
    if strict:
        _strict(f, xs, per_pair=False)
    g = _func.grad(f, tuple(range(len(xs))))
    return is_tuple, xs, vs, f, g


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), H v)``: forward over reverse (jvp of grad)."""
    is_tuple, xs, vs, f, g = _hv(func, inputs, v, create_graph, strict, "hvp")
    out = f(*xs)
    _, hv = _func.jvp(g, xs, vs)
    return _post(out, create_graph), _post(hv if is_tuple else hv[0], create_graph)


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), v^T H)``: reverse over reverse (vjp of grad)."""
    is_tuple, xs, vs, f, g = _hv(func, inputs, v, create_graph, strict, "vhp")
    out = f(*xs)
    _, fn = _func.vjp(g, *xs)
    vh = fn(vs)
    return _post(out, create_graph), _post(vh if is_tuple else vh[0], create_graph)
