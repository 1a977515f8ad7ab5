"""The autograd graph: the level-0 eager trace, grad_fn nodes, saved tensors.

Every Tensor is a tracer of ONE persistent trace, :data:`TRACE` (level 0, below
every functional transformation).  ``bind`` hands it each primitive applied to
a Tensor; it runs the primitive's impl on the buffers and, when grad mode is on
and an input requires grad, records a :class:`Node` (the output's ``grad_fn``)
that will apply the primitive's own vjp rules.  A node keeps only what those
rules read (the primitive's ``unsaved_args``/``saves_out``), with the version of
each saved tensor, so modifying one in place is caught at backward.
"""

from __future__ import annotations

import itertools

import numpy as np

from ... import backend
from ...array import AvalProps
from ...backend import XP_OF_TYPE
from ...core import ALL_ARGS, Array, Trace
from ...core import _impl_error as _core_impl_error
from ...transforms.reverse import CallRule
from ..dtypes_limited import LIMITED, check as _check_limited

# _record and the fast path test a dtype's kind and itemsize before the (slower) set lookup: every
# limited dtype must pass that test
if not all(d.kind in "uV" or d.itemsize == 1 for d in LIMITED):
    raise ImportError("funcgrad.compat.autograd.graph: a limited dtype escapes the kind/itemsize pre-test")
from .grad_mode import STATE
from ..tensor import Tensor, TENSOR_TYPES, wrap

__all__ = ["TRACE", "Node", "AccumulateGrad"]

_new = object.__new__
_SEQ = itertools.count(1)
_ACC_SEQ = itertools.count(1)

# primitive name -> PyTorch's grad_fn name
NAMES = {
    "add": "AddBackward0", "subtract": "SubBackward0", "multiply": "MulBackward0",
    "divide": "DivBackward0", "power": "PowBackward0", "negative": "NegBackward0",
    "exp": "ExpBackward0", "log": "LogBackward0", "sin": "SinBackward0", "cos": "CosBackward0",
    "tanh": "TanhBackward0", "sqrt": "SqrtBackward0", "absolute": "AbsBackward0",
    "square": "PowBackward0", "sign": "SignBackward0", "log1p": "Log1PBackward0",
    "expm1": "Expm1Backward0", "maximum": "MaximumBackward0", "minimum": "MinimumBackward0",
    "reduce_sum": "SumBackward1", "reduce_max": "MaxBackward1", "reduce_min": "MinBackward1",
    "matmul": "MmBackward0", "reshape": "ViewBackward0", "transpose": "PermuteBackward0",
    "getitem": "IndexBackward0", "broadcast_to": "ExpandBackward0", "where": "WhereBackward0",
    "concatenate": "CatBackward0", "convert_element_type": "ToCopyBackward0",
    "scatter_set": "IndexPutBackward0", "scatter_add": "IndexPutBackward0",
    "arcsin": "AsinBackward0", "arccos": "AcosBackward0", "arctan": "AtanBackward0",
    "arctan2": "Atan2Backward0", "arcsinh": "AsinhBackward0", "arccosh": "AcoshBackward0",
    "arctanh": "AtanhBackward0", "rint": "RoundBackward0", "reduce_prod": "ProdBackward0",
    "expit": "SigmoidBackward0", "log_expit": "LogSigmoidBackward0", "gammaln": "LgammaBackward0",
    "erfinv": "ErfinvBackward0", "xlogy": "XlogyBackward0",
    "logaddexp": "LogaddexpBackward0", "device_put": "ToCopyBackward0", "safe_mul": "MulBackward0",
}


class OpError(RuntimeError, ValueError):
    """An operation's failure on its arguments (shapes that do not broadcast, an axis out of range, an
    integer division by zero): PyTorch raises RuntimeError there, numpy ValueError; this is both."""


def _impl_error(prim, vals, params, err):
    """The core's impl error (naming the primitive and the shapes), of PyTorch's class: RuntimeError."""
    new = _core_impl_error(prim, vals, params, err)
    if type(new) in (ValueError, ZeroDivisionError):
        return OpError(str(new))
    return new


class _Aval(AvalProps):
    __slots__ = ("shape", "dtype")

    def __init__(self, shape, dtype):
        self.shape = shape
        self.dtype = dtype


class Node(AvalProps):
    """A ``grad_fn``: one recorded operation, applying its primitive's vjp rules.

    ``edges[i]`` is ``(node, output_nr)`` for argument i when it requires grad
    (the argument's grad_fn, or the AccumulateGrad of a leaf), else None.
    ``shape``/``dtype`` describe output 0 (a node is the aval-like stand-in of
    an unsaved argument, as in the core's reverse mode).  ``seq`` orders nodes
    by creation: the engine runs them in decreasing ``seq``, a reverse
    topological order.  Rarely-set attributes have class-level defaults.
    """

    name_ = None
    pre_hooks = None
    retains = None
    hooks = None
    anomaly = None
    metadata_ = None
    outs = None
    vers = None
    out = None
    saved_any = False
    # True for a node recorded by the compat trace's hot path (one output, vjp rules, no hooks): the
    # engine applies its rules inline; registering a hook or retaining a gradient clears it
    plain = False
    parents = None  # the rule driver's parents (an aval-like per edge), when recorded with the edges

    def name(self):
        if self.name_ is not None:
            return self.name_
        return NAMES.get(self.prim.name, "".join(p.title() for p in self.prim.name.split("_")) + "Backward0")

    @property
    def metadata(self):
        if self.metadata_ is None:
            self.metadata_ = {}
        return self.metadata_

    @property
    def next_functions(self):
        return tuple((e[0], e[1]) if e is not None else (None, 0) for e in self.edges)

    def register_hook(self, fn):
        """``fn(grad_inputs, grad_outputs)`` runs after this node; may return new grad_inputs."""
        from ..utils.hooks import RemovableHandle  # noqa: PLC0415

        if self.hooks is None:
            self.hooks = []
        self.plain = False
        return RemovableHandle(self.hooks, fn)

    def register_prehook(self, fn):
        from ..utils.hooks import RemovableHandle  # noqa: PLC0415

        if self.pre_hooks is None:
            self.pre_hooks = {}
        self.plain = False
        return RemovableHandle(self.pre_hooks.setdefault(0, []), lambda g: fn((g,)))

    def out_meta(self, nr):
        if nr == 0:
            return self.shape, self.dtype
        o = self.outs[nr]
        return o.shape, o.dtype

    def apply(self, *grads):
        """Run this node's rules on ``grads`` (PyTorch's ``grad_fn.apply``/``grad_fn(...)``)."""
        from .engine import call_node  # noqa: PLC0415

        gs = [g._value if isinstance(g, Tensor) else np.asarray(g) for g in grads]
        gl = [wrap(g) for g in gs]
        res = call_node(self, gl[0] if self.outs is None else gl, False, True)
        out = tuple(None if r is None else wrap(_owned(_buf(r))) for r in res)
        return out[0] if len(out) == 1 else out

    __call__ = apply

    def __repr__(self):
        return f"<{self.name()} object at {hex(id(self))}>"


def _buf(x):
    return x._value if isinstance(x, (Tensor, Array)) else x


def _owned(buf):
    return np.array(buf) if isinstance(buf, np.generic) else buf


class AccumulateGrad(Node):
    """The grad_fn-like sink of a leaf that requires grad: adds into ``.grad``."""

    def __init__(self, variable):
        self.seq = -next(_ACC_SEQ)  # leaves run after every node that feeds them
        self.variable = variable
        self.prim = None
        self.edges = ()
        self.args = None
        self.outs = None
        self.saved_any = False
        self.shape = variable._value.shape
        self.dtype = variable._value.dtype

    def name(self):
        return "AccumulateGrad"




def _accumulator(t):
    acc = t._accum
    if acc is not None:
        acc = acc()
        if acc is not None:
            return acc
    import weakref  # noqa: PLC0415

    acc = AccumulateGrad(t)
    t._accum = weakref.ref(acc)
    return acc


def edge_of(t):
    fn = t.grad_fn
    if fn is not None:
        return (fn, t._output_nr)
    if t._req:
        return (_accumulator(t), 0)
    return None


class _CompatTrace(Trace):
    """The level-0 trace whose tracers are Tensors: ``bind`` hands it every primitive
    applied to a Tensor (and to nothing of a higher level).

    Level 0 is the bottom of the trace stack, so the primal computation is the impl
    itself (as bind's eager branch, with the impl error bind gives).  A result that is a
    writeable view of a Tensor argument's storage (reshape, transpose, basic indexing...)
    is a view as PyTorch's: it shares that Tensor's base and version counter.
    """

    __slots__ = ()
    kind = "compat"

    def describe(self):
        return "funcgrad.compat's eager autograd (level 0)"

    def process_primitive(self, prim, args, params):
        """Run ``prim`` on the buffers of ``args``; record a grad_fn if autograd needs one.

        Inline here: one Tensor argument (and a Python number after it), the hot path of
        element-wise chains; ``_record`` takes every other case."""
        a = args[0]
        n = len(args)
        if type(a) is TracedTensor:  # torch.compile is tracing: bind on the traced values
            return _apply_traced(prim, args, params)
        if n == 1:
            if type(a) not in TENSOR_TYPES or prim.multiple_results:
                return _record(self, prim, args, params)
        elif n != 2 or type(a) not in TENSOR_TYPES or type(args[1]) not in _PY_SCALARS or prim.multiple_results:
            return _record(self, prim, args, params)
        v = a._value
        if (v.dtype.kind in "uV" or v.dtype.itemsize == 1) and v.dtype in LIMITED:  # uint16/32/64, float8: no kernel
            _check_limited(prim, (v,))
        try:
            if n == 1:
                out = (prim.fast.get(type(v)) or prim.impl)(v, **params)
            else:
                out = (prim.fast.get(type(v)) or prim.impl)(v, args[1], **params)
        except Exception as e:
            raise _impl_error(prim, [v] if n == 1 else [v, args[1]], params, e) from e
        view = False
        if type(out) is not np.ndarray or out.base is not None or out is v:
            view = _is_view_of(out, v)
            if not view:
                out = _own(out, (v,))
        r = _new(Tensor)
        r._value = out
        if view:  # a view of the input's storage (reshape, transpose, unfold...): as PyTorch's views
            link_view(r, a)
        fn = a.grad_fn
        if fn is not None:
            nr = a._output_nr
            e = (fn, nr)
            p0 = fn if nr == 0 else _Aval(v.shape, v.dtype)  # the argument's aval-like stand-in
        elif a._req:
            p0 = _accumulator(a)
            e = (p0, 0)
        else:
            return r
        if not STATE.enabled or not (prim.differentiable or prim.zero_derivative) or \
                (out.dtype.kind not in "fc" and out.dtype not in backend.ML_FLOATS):
            return r
        node = _new(Node)  # (_new_node inline, and no saved tensors to look for: _set_output)
        node.seq = next(_SEQ)
        if STATE.anomaly:
            node.anomaly = _anomaly_trace()
        node.prim = prim
        node.params = params
        if n == 1:
            node.edges = [e]
            node.parents = [p0]
            saved = [None]
        else:
            node.edges = [e, None]
            node.parents = [p0, None]
            saved = [None, args[1]]  # a Python number is its own aval
        unsaved = prim.unsaved
        reads = prim.reads
        if (unsaved and (unsaved is ALL_ARGS or 0 in unsaved)) or (reads is not None and 0 not in reads[0]):
            saved[0] = p0
        else:
            vc = a._vc
            if vc is None:
                vc = a._vc = [0]
            saved[0] = _arr(v)
            node.vers = [(0, a, vc[0])]
            node.saved_any = True
        node.args = saved
        if not prim.zero_derivative:
            node.plain = True
        _set_output(node, prim, out, r)
        return r


TRACE = _CompatTrace(level=0)
Tensor._trace = TRACE
_PY_SCALARS = frozenset((int, float, bool, complex))


def _record(trace, prim, args, params):
    """The compat trace's general case: any number of arguments (Tensors, Arrays, numbers)."""
    if any(type(a) is TracedTensor for a in args):
        return _apply_traced(prim, args, params)
    vals = []
    edges = []
    req = maybe_limited = False
    for a in args:
        if type(a) in TENSOR_TYPES:
            v = a._value
            vals.append(v)
            if v.dtype.kind in "uV" or v.dtype.itemsize == 1:  # maybe uint16/32/64 or float8 (limited dtypes)
                maybe_limited = True
            fn = a.grad_fn
            if fn is not None:
                edges.append((fn, a._output_nr))
                req = True
            elif a._req:
                edges.append((_accumulator(a), 0))
                req = True
            else:
                edges.append(None)
        else:
            vals.append(a._value if type(a) is Array else a)
            edges.append(None)
            maybe_limited = maybe_limited or type(a) is Array
    if maybe_limited and any(getattr(v, "dtype", None) in LIMITED for v in vals):
        _check_limited(prim, vals)
    if req and prim.vjp_residuals is not None and STATE.enabled:
        return _record_residuals(prim, vals, params, edges)
    v0 = vals[0]
    try:
        out = (prim.fast.get(type(v0)) or prim.impl)(*vals, **params)
    except Exception as e:
        # PyTorch's device rule: 0-d cpu tensors and constants follow the tensors' device
        return trace.process_primitive(prim, _on_one_device(prim, args, vals, e), params)
    if prim.multiple_results:
        outs = [_own(o, vals) for o in out]
        res = [wrap(o) for o in outs]
        if not req or not STATE.enabled or not (prim.differentiable or prim.zero_derivative) or \
                not any(backend.is_float_dtype(o.dtype) for o in outs):
            return tuple(res)
        return _record_multi(prim, args, params, edges, outs, res)
    view_of = None
    if type(out) is not np.ndarray or out.base is not None or out is v0:
        view_of = next((a for a, v in zip(args, vals) if type(a) in TENSOR_TYPES and _is_view_of(out, v)), None)
        if view_of is None:
            out = _own(out, vals)
    r = _new(Tensor)
    r._value = out
    if view_of is not None:
        link_view(r, view_of)
    if not req or not STATE.enabled or not (prim.differentiable or prim.zero_derivative) or \
            (out.dtype.kind not in "fc" and out.dtype not in backend.ML_FLOATS):
        return r
    node = _new_node(prim, params, edges, _saved_args(prim, args, edges))
    _finish_node(node, prim, out, r)
    return r


class TracedTensor(Tensor):
    """A Tensor whose value is a tracer of a funcgrad transformation: torch.compile traces module code
    with these (jit tracers), torch.func hands them to the transformed function (grad, jvp, vmap
    tracers).  Tensor methods work, and each operation binds on the traced values, so the
    transformation records it.  Autograd is the enclosing transformation's business: nothing is
    recorded here.

    ``bind`` finds a TracedTensor's trace through ``_trace`` (a :class:`_TracedTrace` just above its
    value's trace), so mixing it with the raw tracers of other transformations picks the innermost
    one, as for any tracer: no perturbation confusion across the front doors."""

    __slots__ = ()

    @property
    def _trace(self):
        inner = getattr(self._value, "_trace", None)
        return TRACE if inner is None else _TracedTrace(inner)

    def detach(self):
        """Out of every differentiation watching the value (PyTorch's detach inside torch.func)."""
        from ...transforms.api import stop_gradient  # noqa: PLC0415

        return _traced(stop_gradient(self._value))

    @property
    def data(self):
        return self.detach()

    def __repr__(self):
        v = self._value
        return f"TracedTensor(shape={list(v.shape)}, dtype={v.dtype}, traced by {v._trace.describe()})"

    __str__ = __repr__


class _TracedTrace(Trace):
    """The trace ``bind`` finds for a TracedTensor: half a level above its value's trace, so the value's
    own trace (or a higher one) processes the primitive; it unwraps TracedTensors and binds again.
    Under ``torch.no_grad`` the values are bound through ``stop_gradient`` (PyTorch's torch.func
    respects a no_grad inside the transformed function)."""

    __slots__ = ("inner",)
    kind = "compat-traced"

    def __init__(self, inner):
        self.inner = inner
        self.level = inner.level + 0.5

    @property
    def alive(self):
        return self.inner.alive

    def describe(self):
        return self.inner.describe()

    def process_primitive(self, prim, args, params):
        return _apply_traced(prim, args, params)


def _apply_traced(prim, args, params):
    vals = [_traced_operand(a) for a in args]
    if not STATE.enabled and prim.differentiable:
        from ...transforms.api import stop_gradient  # noqa: PLC0415

        vals = [stop_gradient(v) if type(a) is TracedTensor else v for a, v in zip(args, vals)]
    out = prim.bind(*vals, **params)
    if prim.multiple_results:
        return tuple(_traced(o) for o in out)
    return _traced(out)


def _traced_operand(a):
    """A TracedTensor -> its value; a Tensor that requires grad stays one (compat's trace below records
    it); other Tensors and Arrays -> their buffers (constants)."""
    t = type(a)
    if t is TracedTensor:
        return a._value
    if t in TENSOR_TYPES:
        return a if a._req or a.grad_fn is not None else a._value
    if t is Array:
        return a._value
    return a


def _traced(value):
    """A transformation's value as a Tensor: a TracedTensor for a tracer, a Tensor for a concrete value."""
    if isinstance(value, Tensor):
        return value
    if type(value) is Array:
        return wrap(value._value)
    t = _new(TracedTensor)
    t._value = value
    return t


def _new_node(prim, params, edges, saved):
    node = _new(Node)
    node.seq = next(_SEQ)
    if STATE.anomaly:
        node.anomaly = _anomaly_trace()
    node.prim = prim
    node.params = params
    node.edges = edges
    node.args = saved
    return node


def _saved_args(prim, args, edges):
    """The arguments a node keeps for the rules: avals in place of the unsaved ones."""
    n = len(args)
    unsaved = prim.unsaved if prim.reads is None else prim.unsaved_given([e is not None for e in edges])
    saved = list(args)
    if unsaved:
        for i in (range(n) if unsaved is ALL_ARGS else unsaved):
            if i < n:
                e = edges[i]
                a = args[i]
                if e is not None and e[1] == 0:
                    saved[i] = e[0]  # the node producing it is its aval-like stand-in
                elif type(a) in TENSOR_TYPES:
                    saved[i] = _Aval(a._value.shape, a._value.dtype)
                else:
                    saved[i] = _const_aval(a)
    return saved


def _finish_node(node, prim, out, r):
    """Saved tensors -> (Array for the rules, tensor + version for checks); output; grad_fn."""
    saved = node.args
    vers = node.vers
    for i in range(len(saved)):
        a = saved[i]
        if type(a) in TENSOR_TYPES:
            vc = a._vc
            if vc is None:
                vc = a._vc = [0]
            if vers is None:
                vers = node.vers = []
            vers.append((i, a, vc[0]))
            saved[i] = _arr(a._value)
    if vers is not None:
        node.saved_any = True
    _set_output(node, prim, out, r)


def _set_output(node, prim, out, r):
    """The node's output aval (and the output, with its version, if the rules read it); r's grad_fn."""
    node.shape = out.shape
    node.dtype = out.dtype
    if prim.saves_out:
        node.out = _arr(out)
        vc = r._vc
        if vc is None:
            vc = r._vc = [0]
        node.out_vc = vc
        node.out_ver = vc[0]
        node.saved_any = True
    r.grad_fn = node


def _record_multi(prim, args, params, edges, outs, res):
    node = _new_node(prim, params, edges, _saved_args(prim, args, edges))
    _finish_node(node, prim, outs[0], _new(Tensor))
    node.out = outs if prim.saves_out else None
    node.outs = [_Aval(o.shape, o.dtype) for o in outs]
    node.saved_any = bool(node.vers) or prim.saves_out
    return _attach_outputs(node, res)


def _attach_outputs(node, tensors):
    """Make ``tensors`` (None for none) the outputs of multi-output ``node``: their grad_fn, output
    number and the node's shared version counter."""
    node.out_vc = [0]
    node.out_ver = 0
    for k, t in enumerate(tensors):
        if t is not None:
            t.grad_fn = node
            t._output_nr = k
            t._vc = node.out_vc
    return tuple(tensors)


def _record_residuals(prim, vals, params, edges):
    """A primitive with a residual-saving vjp (a torch.compile'd module's graph): its forward part runs,
    and the grad_fn keeps the residuals it returns (internal values, not the user's tensors: nothing to
    version-check), as AOTAutograd's compiled forward does."""
    edges = [e if e is not None and backend.is_float_dtype(v.dtype) else None for e, v in zip(edges, vals)]
    if all(e is None for e in edges):
        fwd_params, n_out = params, None
    else:
        fwd_params, n_out, bwd = prim.vjp_residuals(vals, tuple(e is not None for e in edges), params)
    try:
        out = prim.impl(*vals, **fwd_params)
    except Exception as e:
        raise _impl_error(prim, vals, fwd_params, e) from e
    if n_out is None:
        return tuple(wrap(_own(o, vals)) for o in out)
    outs = [_own(o, vals) for o in out[:n_out]]
    res = [wrap(o) for o in outs]
    if not any(backend.is_float_dtype(o.dtype) for o in outs):
        return tuple(res)
    rule = CallRule(prim.name, bwd, residuals=True)
    node = _new_node(rule, {}, edges, [_arr(r) for r in out[n_out:]])
    node.name_ = "CompiledFunctionBackward"
    node.shape, node.dtype = outs[0].shape, outs[0].dtype
    node.outs = [_Aval(o.shape, o.dtype) for o in outs]
    node.out = node.outs  # the backward part reads residuals only
    node.saved_any = True
    return _attach_outputs(node, res)


DOUBLE_BACKWARD_COMPILED = "torch.compile with aot_autograd does not currently support double backward"


def _no_double_backward(g, ans, *args):
    raise RuntimeError(DOUBLE_BACKWARD_COMPILED)


def compiled_backward_results(node, res):
    """The gradients a compiled graph's backward gave under ``create_graph=True``: Tensors whose grad_fn
    raises PyTorch's error when a second backward reaches it (their dependence on the inputs through
    the residuals is not recorded, so differentiating them further would be silently wrong)."""
    got = [r for r in res if r is not None]
    if not got:
        return res
    barrier = _new_node(CallRule(node.prim.name, _no_double_backward, residuals=True), {}, node.edges, [])
    barrier.name_ = "CompiledFunctionBackward"
    barrier.shape, barrier.dtype = got[0]._value.shape, got[0]._value.dtype
    barrier.outs = barrier.out = [_Aval(r._value.shape, r._value.dtype) if r is not None else _Aval((), None)
                                  for r in res]
    return list(_attach_outputs(barrier, [None if r is None else wrap(r._value) for r in res]))


def _arr(buf):
    a = _new(Array)
    a._value = buf
    return a


def link_view(r, base):
    """Make ``r`` a view of ``base``: same storage base, shared version counter."""
    vc = base._vc
    if vc is None:
        vc = base._vc = [0]
    r._vc = vc
    r._base = base._base if base._base is not None else base


def _is_view_of(out, v):
    """Whether the impl returned a view into ``v``'s storage (not ``v`` itself): reshape, transpose,
    basic indexing, and also read-only ones (``expand``'s broadcast), which are views in PyTorch too."""
    t = type(out)
    if t is np.ndarray:
        return type(v) is np.ndarray and out is not v and out.base is not None and np.may_share_memory(out, v)
    return (t is type(v) and out is not v and t in XP_OF_TYPE and out.base is not None
            and XP_OF_TYPE[t].may_share_memory(out, v))


def _on_one_device(prim, args, vals, err):
    """PyTorch's device rule, checked when an impl failed: Tensors of one device, with 0-d cpu
    tensors and constants (Arrays, numpy arrays) moved to it; else PyTorch's RuntimeError.
    -> the arguments to retry with; raises the impl's error if devices were not the problem."""
    devs = {}
    for a, v in zip(args, vals):
        if type(a) in TENSOR_TYPES and (v.ndim or type(v) is not np.ndarray):
            devs.setdefault(str(backend.device_of(v)), v)
    if len(devs) > 1:
        from ..device import mixed_devices  # noqa: PLC0415

        raise mixed_devices(*list(devs)[:2]) from None
    target = next(iter(devs.values()), None)
    if target is None:  # only 0-d cpu tensors and constants: the constants' device (PyTorch: the cpu)
        target = next((v for v in vals if type(v) is not np.ndarray and type(v) in XP_OF_TYPE), None)
    moved = list(args)
    changed = False
    if target is not None:
        dev = backend.device_of(target)
        for i, (a, v) in enumerate(zip(args, vals)):
            if type(v) in XP_OF_TYPE and backend.device_of(v) != dev:
                if type(a) in TENSOR_TYPES:  # a 0-d cpu tensor: a recorded copy (its gradient goes back)
                    from ..ops_convert import _to_device  # noqa: PLC0415

                    moved[i] = _to_device(a, str(dev))
                else:
                    moved[i] = _arr(backend.put_buffer(v, dev))
                changed = True
    if not changed:
        raise _impl_error(prim, vals, {}, err) from err
    return moved



def _own(out, vals):
    """Results own fresh storage: copy views of (or aliases to) the inputs; 0-d scalars -> arrays."""
    t = type(out)
    if t is np.ndarray:
        if not out.flags.writeable:
            return out.copy()
        if out.base is not None:
            # a view: of an input (copy: results own their storage), or of a buffer the
            # impl just made (nothing else holds it: keep it, no copy)
            for v in vals:
                if type(v) is np.ndarray and np.may_share_memory(out, v):
                    return out.copy()
            return out
        for v in vals:
            if out is v:
                return out.copy()
        return out
    if isinstance(out, np.generic):
        return np.array(out)
    xp = XP_OF_TYPE.get(t)
    if xp is not None:  # a device buffer: copy aliases and views of the inputs
        for v in vals:
            if type(v) is t and (out is v or (out.base is not None and xp.may_share_memory(out, v))):
                return out.copy()
        return out
    if hasattr(out, "base") and getattr(out, "base", None) is not None:
        return out.copy()
    return out


def _const_aval(x):
    if isinstance(x, (int, float, complex, bool)):
        return x
    if hasattr(x, "shape"):
        return _Aval(tuple(x.shape), x.dtype)
    return x


def _anomaly_trace():
    import traceback  # noqa: PLC0415

    return "".join(traceback.format_stack()[:-3])
