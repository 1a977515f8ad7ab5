"""The backward engine: backward() and autograd.grad() over grad_fn nodes.

Nodes run in dependency order (a node runs once every consumer of its outputs
has sent its gradient).  A node applies its primitive's own vjp rules through
:func:`funcgrad.transforms.reverse.apply_vjp_rules`, the rule driver of the
core's reverse mode too (missing-rule errors, undoing broadcasting, casting to
the input's dtype).  Without ``create_graph`` the rules run on plain Arrays
(nothing records); with it, on Tensors in grad mode, so the backward pass is
itself recorded and can be differentiated again.
"""

from __future__ import annotations

import heapq
import re

import numpy as np

from ...backend import is_float_dtype
from ...core import Array, Zero
from ...primitives.elementwise import add
from ...transforms.reverse import CallRule, apply_vjp_rules
from .grad_mode import STATE
from ..device import xp_of
from .graph import AccumulateGrad, _Aval, compiled_backward_results, edge_of
from ..tensor import Tensor, wrap

__all__ = ["backward", "grad", "call_node"]

_new = object.__new__

SECOND_TIME = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
    "graph a second time or if you need to access saved tensors after calling backward."
)


def _arr(buf):
    a = _new(Array)
    a._value = buf
    return a


def _first_buf(grads):
    """A buffer of the gradient(s) flowing into a node (their device is the node's)."""
    for g in (grads if isinstance(grads, (list, tuple)) else [grads]):
        if g is not None and not isinstance(g, Zero):
            return g._value
    return None


def _saved_out(node, buf, k, create_graph):
    if not create_graph:
        return _arr(buf)
    t = wrap(buf)
    t.grad_fn = node
    t._output_nr = k
    t._vc = node.out_vc
    return t


def _modified(node, t, v, i):
    owner = t.grad_fn.name() if isinstance(t, Tensor) and t.grad_fn is not None else None
    if owner:
        owner = re.sub(r"Backward\d*$", "", owner)
    what = f", which is output {t._output_nr} of {owner}," if owner else ""
    return (
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: [torch.{t.dtype.legacy} {list(t.shape)}]{what} is at version {t._version}; "
        f"expected version {v} instead. Hint: the backtrace further above can point to the operation "
        "that failed to compute its gradient (enable torch.autograd.set_detect_anomaly(True)). "
        f"The variable in question was changed in there or anywhere later (saved by {node.name()})."
    )


def _checked_saved(node):
    """The node's saved arguments, after the checks that they are still there (not released by an earlier
    backward) and unmodified (their version counters)."""
    args = node.args
    if args is None:
        raise RuntimeError(SECOND_TIME)
    if node.vers is not None:
        for i, t, v in node.vers:
            if t._vc[0] != v:
                raise RuntimeError(_modified(node, t, v, i))
    return args


def call_node(node, grads, create_graph, release):
    """Gradients (Arrays or Tensors, None for none) for each of the node's edges.

    ``grads``: the gradient of the output (single-output nodes) or a list with
    one entry per output (None where no gradient arrived).
    """
    prim = node.prim
    if prim is None:  # a custom Function (or another Python-level node)
        return node.run(grads if node.outs else [grads], create_graph, release)
    args = _checked_saved(node)
    if node.vers is not None and create_graph:  # the rules see the saved tensors themselves: their use is recorded
        args = list(args)
        for i, t, _ in node.vers:
            args[i] = t
    if not prim.saves_out:
        ans = node
    elif prim.multiple_results and type(prim) is CallRule and prim.residuals:
        ans = node.out
        if create_graph:  # the backward graph of a compiled graph is not differentiable (as AOTAutograd's)
            grads = [g if g is None or type(g) is Zero else _arr(g._value) for g in grads]
            return compiled_backward_results(node, call_node(node, grads, False, release))
    elif not create_graph and node.outs is None and node.out_vc[0] == node.out_ver:
        ans = node.out
    else:
        ans = _saved_output(node, create_graph)
    if prim.multiple_results:
        grads = tuple(Zero(o) if x is None else x for x, o in zip(grads, node.outs))
    parents = node.parents
    if parents is None:  # the producing node stands in for its output 0's aval
        parents = [None if e is None else e[0] if e[1] == 0 else _Aval(*e[0].out_meta(e[1])) for e in node.edges]
    res = apply_vjp_rules(prim, grads, ans, args, node.params, parents, "funcgrad.compat backward")
    if prim.zero_derivative:
        for i, c in enumerate(res):
            if type(c) is Zero:  # PyTorch's gradient is zeros, not none
                z = xp_of(_first_buf(grads)).zeros(c.shape, c.dtype)
                res[i] = wrap(z) if create_graph else _arr(z)
    if release and node.saved_any:
        node.args = node.out = node.vers = None
    return res


_WHAT = "funcgrad.compat backward"


def _plain_rules(node, g, release):
    """call_node for a ``plain`` node (one output, per-argument or joint vjp rules, no hooks) when the
    backward pass is not recorded: the saved-version checks, then the rule driver."""
    args = _checked_saved(node)
    prim = node.prim
    if prim.saves_out:
        if node.out_vc[0] != node.out_ver:
            _saved_output(node, False)  # raises: the output was modified in place
        ans = node.out
    else:
        ans = node
    res = apply_vjp_rules(prim, g, ans, args, node.params, node.parents, _WHAT)
    if release and node.saved_any:
        node.args = node.out = node.vers = None
    return res


def _saved_output(node, create_graph):
    if node.out_vc[0] != node.out_ver:
        t = wrap(node.out._value) if not node.outs else wrap(node.out[0])
        t.grad_fn, t._vc = node, node.out_vc
        raise RuntimeError(_modified(node, t, node.out_ver, "output"))
    out = node.out
    if node.prim.multiple_results:
        return tuple(_saved_out(node, o, k, create_graph) for k, o in enumerate(out))
    if not create_graph:
        return out
    return _saved_out(node, out._value, 0, True)


def _as_grad(x, create_graph):
    """Engine-internal gradient value -> a Tensor for hooks and .grad."""
    if isinstance(x, Tensor):
        return x if create_graph else wrap(x._value)
    return wrap(x._value)


def _internal(t, create_graph):
    """A Tensor a hook returned -> the engine's representation."""
    if create_graph:
        return t
    return _arr(t._value)


def _run_hooks(hooks, g, create_graph):
    for h in list(hooks):
        new = h(_as_grad(g, create_graph))
        if new is not None:
            if not isinstance(new, Tensor):
                raise TypeError(f"a tensor hook must return a Tensor or None, got {type(new).__name__}")
            _check_hook_result(h, g, new)
            g = _internal(new, create_graph)
    return g


def _check_hook_result(hook, g, new):
    """PyTorch's checks of a gradient a hook returned: same size, same type as the one it received."""
    name = getattr(hook, "__name__", type(hook).__name__)
    if tuple(new.shape) != tuple(g.shape):
        raise RuntimeError(f"hook '{name}' has changed the size of value")
    got = g._value.dtype if isinstance(g, Tensor) else g.dtype  # (a Tensor under create_graph)
    if new._value.dtype != got:
        from .._validate import scalar_name as _scalar_type  # noqa: PLC0415

        raise RuntimeError(f"hook '{name}' has changed the type of value (was torch.{_scalar_type(got)}Tensor "
                           f"got torch.{_scalar_type(new._value.dtype)}Tensor)")


def _needed(roots, targets):
    """Nodes from which a target node can be reached (the ones worth running)."""
    memo = {}
    order = []
    stack = list(roots)
    while stack:  # iterative DFS: post-order list of reachable nodes
        n = stack.pop()
        if n in memo:
            continue
        memo[n] = False
        order.append(n)
        for e in n.edges:
            if e is not None and e[0] not in memo:
                stack.append(e[0])
    for n in sorted(order, key=lambda m: m.seq):  # inputs before consumers
        memo[n] = n in targets or any(e is not None and memo.get(e[0]) for e in n.edges)
    return {n for n, v in memo.items() if v}


def execute(roots, seeds, retain_graph, create_graph, capture=None, accumulate=True, stop=None):
    """Run the graph from ``roots`` (list of (node, nr)) seeded with ``seeds``.

    Nodes run in decreasing creation order (``seq``), a reverse topological
    order, from a heap of the nodes that received a gradient.  ``capture``:
    {(node, nr)} whose gradients are returned instead of accumulated
    (autograd.grad); AccumulateGrad nodes add into ``.grad`` when ``accumulate``.
    ``stop``: nodes whose gradients are captured but which do not run (a checkpoint's boundary).
    """
    grads = {}
    heap = []
    for (n, nr), s in zip(roots, seeds):
        _send(grads, heap, n, nr, s)
    needed = None
    if capture is not None:
        needed = _needed(list(dict.fromkeys(n for n, _ in roots)), {k[0] for k in capture})
    captured = {}
    prev_mode = STATE.enabled
    STATE.enabled = create_graph
    release = not retain_graph
    anomaly = STATE.anomaly
    pop = heapq.heappop
    push = heapq.heappush
    plain_ok = capture is None and not create_graph
    try:
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            while heap:
                node = pop(heap)[1]
                gs = grads.pop(node)
                if node.plain and plain_ok:  # call_node's common case, inline (_plain_rules: saved values)
                    prim = node.prim
                    if node.vers is None and not prim.saves_out and node.args is not None:  # nothing saved to check
                        outs = apply_vjp_rules(prim, gs, node, node.args, node.params, node.parents, _WHAT)
                    else:
                        outs = _plain_rules(node, gs, release)
                else:
                    if node.pre_hooks or node.retains or capture is not None or type(node) is AccumulateGrad:
                        gs = _pre(node, gs, create_graph, capture, captured)
                        if type(node) is AccumulateGrad:
                            if gs is not None and accumulate and capture is None:
                                _accumulate(node.variable, gs, create_graph)
                            continue
                        if needed is not None and node not in needed or stop is not None and node in stop:
                            continue
                    outs = call_node(node, gs, create_graph, release)
                if anomaly:
                    _check_nan(node, outs)
                if node.hooks:  # (never on a plain node)
                    outs = _node_hooks(node, outs, gs, create_graph)
                for e, c in zip(node.edges, outs):
                    if c is not None:
                        m = e[0]
                        if m.outs is None:
                            prev = grads.get(m)
                            if prev is None:
                                grads[m] = c
                                push(heap, (-m.seq, m))
                            else:
                                grads[m] = add(prev, c)
                        else:
                            _send(grads, heap, m, e[1], c)
    finally:
        STATE.enabled = prev_mode
    return captured


def _send(grads, heap, m, nr, c):
    """Add gradient ``c`` for output ``nr`` of node ``m``; schedule m when it first receives one."""
    if m.outs is None:
        prev = grads.get(m)
        if prev is None:
            grads[m] = c
            heapq.heappush(heap, (-m.seq, m))
        else:
            grads[m] = add(prev, c)
        return
    lst = grads.get(m)
    if lst is None:
        lst = grads[m] = [None] * len(m.outs)
        heapq.heappush(heap, (-m.seq, m))
    lst[nr] = c if lst[nr] is None else add(lst[nr], c)


def _node_hooks(node, outs, gs, create_graph):
    gl = gs if node.outs else [gs]
    for h in node.hooks:
        r = h(tuple(None if o is None else _as_grad(o, create_graph) for o in outs),
              tuple(None if g is None else _as_grad(g, create_graph) for g in gl))
        if r is not None:
            r = (r,) if isinstance(r, Tensor) else r
            outs = [None if o is None else _internal(o, create_graph) for o in r]
    return outs


def _pre(node, gs, create_graph, capture, captured):
    """Tensor hooks, retain_grad and captures on a node's incoming gradient(s)."""
    single = node.outs is None
    gl = [gs] if single else gs
    if type(node) is AccumulateGrad:
        v = node.variable
        if v._hooks and gl[0] is not None:
            gl[0] = _run_hooks(v._hooks, gl[0], create_graph)
    else:
        if node.pre_hooks:
            for nr, hooks in node.pre_hooks.items():
                if gl[nr] is not None and hooks:
                    gl[nr] = _run_hooks(hooks, gl[nr], create_graph)
        if node.retains:
            for nr, ref in node.retains.items():
                t = ref()
                if t is not None and gl[nr] is not None and capture is None:
                    g = _as_grad(gl[nr], create_graph)
                    t._grad = g if t._grad is None else _sum_grad(t._grad, g, create_graph)
    if capture is not None:
        for nr in range(len(gl)):
            k = (node, nr)
            if k in capture and gl[nr] is not None:
                captured[k] = gl[nr]
    return gl[0] if single else gl


def _sum_grad(old, new, create_graph):
    if create_graph or old.grad_fn is not None or new.grad_fn is not None:
        return old + new
    return wrap(old._value + new._value)


def _accumulate(v, g, create_graph):
    g = _as_grad(g, create_graph)
    old = v._grad
    if old is None:
        if not create_graph:  # a private buffer: the flowing one may be the user's gradient or a hook's
            g = wrap(g._value.copy())
        v._grad = g
    elif create_graph or old.grad_fn is not None or g.grad_fn is not None:
        v._grad = old + g
    else:
        xp_of(old._value).add(old._value, g._value, out=old._value, casting="unsafe")
        old._bump()


def _check_nan(node, outs):
    for i, o in enumerate(outs):
        if o is not None:
            buf = o._value
            if bool(xp_of(buf).isnan(buf).any()):
                where = f"\nThe forward operation was created at:\n{node.anomaly}" if node.anomaly else ""
                raise RuntimeError(f"Function '{node.name()}' returned nan values in its {i}th output.{where}")


def _seed(t, g, create_graph):
    if g is None:
        if t._value.size != 1:
            raise RuntimeError("grad can be implicitly created only for scalar outputs")
        if not is_float_dtype(t._value.dtype):
            raise RuntimeError(f"grad can be implicitly created only for real scalar outputs but got {t.dtype}")
        buf = xp_of(t._value).ones_like(t._value)  # on the output's device
        return wrap(buf) if create_graph else _arr(buf)
    if not isinstance(g, Tensor):
        from ..creation import tensor as _tensor  # noqa: PLC0415

        g = _tensor(g, dtype=t.dtype, device=t.device)
    if g.device != t.device:
        raise RuntimeError(f"invalid gradient at index 0 - expected device {t.device} but got {g.device}")
    if tuple(g.shape) != tuple(t.shape):
        raise RuntimeError(f"Mismatch in shape: grad_output[0] has a shape of {g.shape} and output[0] has a shape of {t.shape}.")
    return g if create_graph else _arr(g._value)


def _roots(tensors):
    out = []
    for i, t in enumerate(tensors):
        e = edge_of(t)
        if e is None:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
        out.append(e)
    return out


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None,
             retain_variables=None, grad_variables=None):
    if retain_variables is not None:
        import warnings  # noqa: PLC0415

        warnings.warn("'retain_variables' is deprecated: use 'retain_graph' instead", DeprecationWarning, stacklevel=3)
        if retain_graph is None:
            retain_graph = retain_variables
    if grad_variables is not None:
        import warnings  # noqa: PLC0415

        warnings.warn("'grad_variables' is deprecated: use 'grad_tensors' instead", DeprecationWarning, stacklevel=3)
        grad_tensors = grad_variables
    if isinstance(tensors, Tensor):
        tensors = [tensors]
    tensors = list(tensors)
    if grad_tensors is None or isinstance(grad_tensors, Tensor):
        grad_tensors = [grad_tensors] * len(tensors) if grad_tensors is None else [grad_tensors]
    if retain_graph is None:
        retain_graph = create_graph
    roots = _roots(tensors)
    seeds = [_seed(t, g, create_graph) for t, g in zip(tensors, grad_tensors)]
    if inputs is not None:
        inputs = [inputs] if isinstance(inputs, Tensor) else list(inputs)
        if not inputs:
            raise RuntimeError("'inputs' argument to backward() cannot be empty.")
        keys = {_input_key(t, i): t for i, t in enumerate(inputs)}
        got = execute(roots, seeds, retain_graph, create_graph, capture=keys)
        for k, t in keys.items():
            g = got.get(k)
            if g is not None:
                if t.grad_fn is None:
                    _accumulate(t, g, create_graph)
                else:
                    g = _as_grad(g, create_graph)
                    t._grad = g if t._grad is None else _sum_grad(t._grad, g, create_graph)
        return
    execute(roots, seeds, retain_graph, create_graph)


def _input_key(t, i):
    if not isinstance(t, Tensor):
        raise TypeError(f"inputs[{i}] must be a Tensor, got {type(t).__name__}")
    e = edge_of(t)
    if e is None:
        raise RuntimeError("One of the differentiated Tensors does not require grad")
    return e


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         only_inputs=True, allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """Gradients of ``outputs`` with respect to ``inputs`` (a tuple), leaving ``.grad`` alone."""
    single = isinstance(outputs, Tensor)
    outputs = [outputs] if single else list(outputs)
    one_input = isinstance(inputs, Tensor)
    inputs = [inputs] if one_input else list(inputs)
    if grad_outputs is None or isinstance(grad_outputs, Tensor):
        grad_outputs = [grad_outputs] * len(outputs) if grad_outputs is None else [grad_outputs]
    if retain_graph is None:
        retain_graph = create_graph
    if allow_unused is None:
        allow_unused = materialize_grads
    roots = _roots(outputs)
    seeds = [_seed(t, g, create_graph) for t, g in zip(outputs, grad_outputs)]
    keys = [_input_key(t, i) for i, t in enumerate(inputs)]
    got = execute(roots, seeds, retain_graph, create_graph, capture=set(keys), accumulate=False)
    res = []
    for i, (k, t) in enumerate(zip(keys, inputs)):
        g = got.get(k)
        if g is None:
            if materialize_grads:
                res.append(wrap(xp_of(t._value).zeros_like(t._value)))
                continue
            if not allow_unused:
                raise RuntimeError(
                    f"The differentiated Tensor at index {i} appears to not have been used in the graph. "
                    "Set allow_unused=True if this is the desired behavior.")
            res.append(None)
        else:
            res.append(_as_grad(g, create_graph))
    return tuple(res)
