"""torch.utils.checkpoint: ``checkpoint`` and ``checkpoint_sequential`` (recompute in backward).

Two paths, one per kind of differentiation watching the call:

- Under a funcgrad transformation (the arguments are torch.func's TracedTensors or fg tracers:
  ``torch.func.grad``/``vmap``/``jvp``, ``fg.grad`` over compat code), ``checkpoint`` is
  ``fg.checkpoint``: the transformation's own rule recomputes ``fn`` in its backward pass (with
  the random state of the first run when ``preserve_rng_state``).
- Under compat's stateful autograd (Tensors that require grad, ``.backward()`` in a training loop),
  it cannot be: ``fg.checkpoint`` is a rule of funcgrad's reverse-mode trace, and ``.backward()``
  walks compat's recorded graph, which no trace is recording.  So the call records one node in
  that graph (``CheckpointFunctionBackward``) and its backward reuses compat's engine (``execute``,
  the one rule driver underneath) over the recomputed graph -- no second derivative mechanism.

The compat path runs ``fn`` once to find where its graph meets the rest of the graph (its
inputs, and every parameter or outside tensor it uses), keeps only the inputs and those meeting
points, and drops the intermediate values.  Its outputs get the node, whose edges are those
meeting points; when the backward pass reaches it, the node re-runs ``fn`` under grad mode on the
saved inputs (with the random state of the first run when ``preserve_rng_state``, so dropout draws
the same mask) and runs the engine over the recomputed graph, capturing the gradients at the
meeting points.  So ``backward()``, ``autograd.grad`` and ``create_graph`` all work (both
``use_reentrant`` variants behave as PyTorch's non-reentrant one, except for the reentrant
variant's "None of the inputs have requires_grad=True" case, reproduced as PyTorch has it).

The first run records fn's graph and frees it at once, so peak memory holds one checkpointed
segment's intermediates at a time (PyTorch's first run records nothing).
"""

from __future__ import annotations

import warnings

import numpy as np
import optree

from ...backend import kind_of
from .. import creation
from ..autograd.grad_mode import STATE
from ...array import Tracer
from ..autograd.graph import _SEQ, AccumulateGrad, Node, TracedTensor, _Aval, edge_of
from ..tensor import Tensor, wrap

__all__ = ["checkpoint", "checkpoint_sequential", "CheckpointNode"]

_NOT_EXPLICIT = (
    "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. Starting in PyTorch 2.9, "
    "calling checkpoint without use_reentrant will raise an exception. use_reentrant=False is recommended, but if "
    "you need to preserve the current default behavior, you can pass use_reentrant=True. Refer to docs for more "
    "details on the differences between the two variants.")
_NOT_EXPLICIT_SEQ = (
    "torch.utils.checkpoint.checkpoint_sequential: the use_reentrant parameter should be passed explicitly. In "
    "version 2.9 we will raise an exception if use_reentrant is not passed. use_reentrant=False is recommended, "
    "but if you need to preserve the current default behavior, you can pass use_reentrant=True. Refer to docs for "
    "more details on the differences between the two variants.")


def get_rng():
    """The default generator's state (a dict: cheaper than get_rng_state's serialised tensor)."""
    return creation.default_generator.rng.bit_generator.state


def set_rng(state):
    creation.default_generator.rng.bit_generator.state = state


def _leaf_inputs(args):
    """Detached copies of the tensor arguments (same storage), requiring grad where the originals do."""
    out = []
    for a in args:
        if isinstance(a, Tensor):
            d = a.detach()
            if a.requires_grad:
                d.requires_grad_(True)
            out.append(d)
        else:
            out.append(a)
    return out


def _boundary(outs, start, leaves):
    """The edges where the graph recorded since seq ``start`` meets older nodes and leaves, in a stable order.

    The detached input ``leaves`` are named ``("input", i)``; other edges are the edge itself.
    """
    leaf_edges = {}
    for i, t in enumerate(leaves):
        e = edge_of(t) if isinstance(t, Tensor) else None
        if e is not None:
            leaf_edges.setdefault(e, i)
    found = {}
    seen = set()
    stack = []

    def visit(e):
        n = e[0]
        if type(n) is AccumulateGrad or n.seq < start:
            found.setdefault(("input", leaf_edges[e]) if e in leaf_edges else e, e)
        elif n not in seen:
            seen.add(n)
            stack.append(n)

    for o in outs:
        e = edge_of(o) if isinstance(o, Tensor) else None
        if e is not None:
            visit(e)
    while stack:
        for e in stack.pop().edges:
            if e is not None:
                visit(e)
    return found


def _run(fn, args, kwargs, rng_state, detach=True, ctx=None):
    """fn on (detached leaves of) args, under grad mode, ``ctx`` and (if given) the saved random state."""
    leaves = _leaf_inputs(args) if detach else list(args)
    saved = None
    if rng_state is not None:
        saved = get_rng()
        set_rng(rng_state)
    prev = STATE.enabled
    STATE.enabled = True
    start = next(_SEQ)
    try:
        if ctx is None:
            out = fn(*leaves, **kwargs)
        else:
            with ctx:
                out = fn(*leaves, **kwargs)
    finally:
        STATE.enabled = prev
        if saved is not None:
            set_rng(saved)
    outs = optree.tree_leaves(out)  # tensors anywhere in tuples, lists, dicts
    return out, outs, _boundary(outs, start, leaves)


class CheckpointNode(Node):
    """The grad_fn of a checkpointed function's outputs: recomputes it, then backpropagates through it."""

    prim = None
    args = ()

    def name(self):
        return "CheckpointFunctionBackward"

    def out_meta(self, nr):
        return self.out_metas[nr]

    def run(self, grads, create_graph, release):
        from ..autograd.engine import SECOND_TIME, execute  # noqa: PLC0415

        if self.inputs is None:
            raise RuntimeError(SECOND_TIME)
        for i, (t, v) in enumerate(self.versions):
            if t._version != v:
                raise RuntimeError(
                    "one of the variables needed for gradient computation has been modified by an inplace "
                    f"operation: [torch.{t.dtype.legacy} {list(t.shape)}] (input {i} of checkpoint) is at version "
                    f"{t._version}; expected version {v} instead.")
        _, outs, bound = _run(self.fn, self.inputs, self.kwargs, self.rng_state, detach=not create_graph,
                                ctx=self.recompute_ctx)
        if release:
            self.inputs = self.kwargs = self.rng_state = self.recompute_ctx = None
        extra = [k for k in bound if k not in self.keys]
        if extra:
            raise RuntimeError("torch.utils.checkpoint: the recomputed function used tensors requiring grad that "
                               "the first run did not (its graph must not depend on values that change between the "
                               "runs)")
        roots, seeds = [], []
        for o, g in zip(outs, grads):
            e = edge_of(o) if isinstance(o, Tensor) else None
            if e is not None and g is not None:
                roots.append(e)
                seeds.append(g if create_graph or not isinstance(g, Tensor) else _arr(g._value))
        if not roots:
            return [None] * len(self.edges)
        capture = {bound[k]: k for k in bound}
        got = execute(roots, seeds, retain_graph=False, create_graph=create_graph, capture=set(capture),
                      accumulate=False, stop={e[0] for e in capture})
        by_key = {capture[e]: g for e, g in got.items()}
        return [by_key.get(k) for k in self.keys]


def _arr(buf):
    from ..autograd.engine import _arr as arr  # noqa: PLC0415

    return arr(buf)


def checkpoint(function, *args, use_reentrant=None, context_fn=None, determinism_check="default", debug=False,
               preserve_rng_state=True, early_stop=True, **kwargs):
    """Run ``function(*args, **kwargs)`` keeping only its inputs; recompute it when the backward pass needs it."""
    if use_reentrant is None:
        warnings.warn(_NOT_EXPLICIT, UserWarning, stacklevel=2)
        use_reentrant = True
    if use_reentrant and kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
    if use_reentrant and context_fn is not None:
        raise ValueError("Passing `context_fn` or `debug` is only supported when use_reentrant=False.")
    if _traced_call(args, kwargs):
        return _functional_checkpoint(function, args, kwargs, preserve_rng_state)
    if not STATE.enabled:
        return function(*args, **kwargs)
    if use_reentrant and not any(isinstance(a, Tensor) and a.requires_grad for a in args):
        warnings.warn("None of the inputs have requires_grad=True. Gradients will be None", UserWarning,
                      stacklevel=2)
        prev = STATE.enabled
        STATE.enabled = False
        try:
            return function(*args, **kwargs)
        finally:
            STATE.enabled = prev
    rng = get_rng() if preserve_rng_state else None
    forward_ctx, recompute_ctx = context_fn() if context_fn is not None else (None, None)
    out, outs, bound = _run(function, args, kwargs, None, ctx=forward_ctx)
    if not bound:  # nothing inside requires grad: nothing to recompute
        return out
    node = object.__new__(CheckpointNode)
    node.seq = next(_SEQ)
    node.fn = function
    node.inputs = tuple(args)
    node.kwargs = kwargs
    node.versions = tuple((a, a._version) for a in args if isinstance(a, Tensor))
    node.rng_state = rng
    node.recompute_ctx = recompute_ctx
    node.keys = list(bound)
    node.edges = [edge_of(args[k[1]]) if isinstance(k[0], str) else bound[k] for k in node.keys]
    node.saved_any = True
    res = []
    metas = []
    for k, o in enumerate(outs):
        if isinstance(o, Tensor):
            d = wrap(o._value)
            if o.requires_grad and kind_of(o._value.dtype) in "fc":
                d.grad_fn = node
                d._output_nr = k
            o = d
            metas.append((tuple(o.shape), o._value.dtype))
        else:
            metas.append(((), np.dtype(float)))
        res.append(o)
    node.out_metas = metas
    node.shape, node.dtype = metas[0]
    node.outs = [_Aval(*m) for m in metas] if len(outs) > 1 else None
    return optree.tree_unflatten(optree.tree_structure(out), res)


def _traced_call(args, kwargs):
    """Whether a funcgrad transformation watches the call: a TracedTensor or an fg tracer among the arguments."""
    for x in optree.tree_leaves((args, kwargs)):
        if type(x) is TracedTensor or (isinstance(x, Tracer) and not isinstance(x, Tensor)):
            return True
    return False


def _functional_checkpoint(function, args, kwargs, preserve_rng_state):
    """``fg.checkpoint`` over ``function`` (Tensors in and out); each recomputation draws random numbers
    from the state the first run started with."""
    from ...transforms.checkpoint import checkpoint as fg_checkpoint  # noqa: PLC0415
    from .._func_values import _torch_fn, _tree_to_fg, _tree_to_torch  # noqa: PLC0415

    inner = _torch_fn(lambda *a: function(*a, **kwargs))
    first = []

    def run(*xs):
        if not preserve_rng_state:
            return inner(*xs)
        if not first:
            first.append(get_rng())
            return inner(*xs)
        saved = get_rng()
        set_rng(first[0])
        try:
            return inner(*xs)
        finally:
            set_rng(saved)

    run.__name__ = getattr(function, "__name__", "function")
    return _tree_to_torch(fg_checkpoint(run)(*_tree_to_fg(args)))


def checkpoint_sequential(functions, segments, input, use_reentrant=None, **kwargs):
    """Run ``functions`` (a list or nn.Sequential) in ``segments`` checkpointed chunks; the last runs as is."""
    if use_reentrant is None:
        warnings.warn(_NOT_EXPLICIT_SEQ, UserWarning, stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
    from ..nn import Sequential  # noqa: PLC0415

    if isinstance(functions, Sequential):
        functions = list(functions.children())
    functions = list(functions)

    def run_function(start, end):
        def forward(x):
            for j in range(start, end + 1):
                x = functions[j](x)
            return x
        return forward

    size = len(functions) // segments
    end = -1
    for start in range(0, size * (segments - 1), size):
        end = start + size - 1
        input = checkpoint(run_function(start, end), input, use_reentrant=use_reentrant,  # noqa: A001
                           preserve_rng_state=preserve)
    return run_function(end + 1, len(functions) - 1)(input)
