"""torch.func: grad, grad_and_value, vjp, jvp, jacrev, jacfwd, hessian, vmap, functional_call.

Built on compat's own autograd engine: ``fn`` receives Tensors and may call any
Tensor method, which funcgrad's tracers lack, although compat ops themselves
accept those tracers (fg.grad / fg.vmap / fg.jvp see through compat code).  Each call differentiates with
respect to fresh inputs: a tensor that does not require grad becomes a new
leaf; one that does (an outer transform's input) becomes a new alias node of
it, so ``grad(lambda x: grad(lambda y: x * y)(x))`` is 1 (no perturbation
confusion).  The backward pass records itself (``create_graph``) when the
result must stay differentiable: inside another transform, or when the
function read tensors that require grad (an input or a closed-over parameter);
otherwise results are plain tensors.

``jacfwd`` (and so ``hessian``) computes its Jacobian with reverse-mode rows,
like ``jacrev``, and ``vmap`` runs the function once per batch element and
stacks the results (gradients flow through it, random draws follow
``randomness``): same values as PyTorch, not vectorized.
"""

from __future__ import annotations

import threading

import optree

from ..backend import kind_of
from . import creation
from .grad_mode import STATE
from .graph import _SEQ
from .tensor import Tensor

__all__ = ["grad", "grad_and_value", "vjp", "jvp", "jacrev", "jacfwd", "hessian", "vmap", "functional_call",
           "stack_module_state"]

_LEVEL = threading.local()


def _level():
    return getattr(_LEVEL, "n", 0)


class _Nested:
    def __enter__(self):
        _LEVEL.n = _level() + 1
        self.prev = STATE.enabled
        STATE.enabled = True

    def __exit__(self, *exc):
        _LEVEL.n -= 1
        STATE.enabled = self.prev


def _leaves(tree):
    return optree.tree_flatten(tree, none_is_leaf=False)


def _fresh(x):
    """A new differentiable handle on x: an alias node if x requires grad, else a new leaf."""
    if not isinstance(x, Tensor):
        raise TypeError(f"torch.func: expected the differentiated arguments to be Tensors, got {type(x).__name__}")
    if kind_of(x._value.dtype) not in "fc":
        raise RuntimeError("only Tensors of floating point dtype can require gradients")
    if x.requires_grad:
        return x.view_as(x)
    return x.detach().requires_grad_(True)


def _argnums(argnums, n):
    single = isinstance(argnums, int)
    nums = (argnums,) if single else tuple(argnums)
    if not nums:
        raise RuntimeError("argnums must be non-empty")
    out = []
    for a in nums:
        if not -n <= a < n:
            raise RuntimeError(f"Got argnums={a}, but only {n} positional inputs")
        out.append(a % n)
    return single, tuple(out)


def _keeps_graph(outs, start, fresh):
    """Whether the recorded graph of ``outs`` reaches a tensor requiring grad other than the fresh leaves."""
    from .utils.checkpoint import _boundary  # noqa: PLC0415

    fresh_ids = {id(f) for f in fresh}
    for e in _boundary(outs, start, []).values():
        n = e[0]
        if not (hasattr(n, "variable") and id(n.variable) in fresh_ids):
            return True
    return False


def _finish(t, keep):
    if isinstance(t, Tensor) and not keep:
        return t.detach()
    return t


def _differentiate(outs, inputs, cotangents, keep):
    from .engine import grad as _engine_grad  # noqa: PLC0415

    pairs = [(o, c) for o, c in zip(outs, cotangents) if o.requires_grad]
    if not pairs:
        return [creation.zeros_like(x) for x in inputs]
    gs = _engine_grad([p[0] for p in pairs], list(inputs), [p[1] for p in pairs], retain_graph=True,
                      create_graph=keep, allow_unused=True)
    return [creation.zeros_like(x) if g is None else g for g, x in zip(gs, inputs)]


def _call_fresh(func, args, kwargs, nums):
    """Run func with fresh handles on the args at ``nums``; return (out, the handles' trees, start seq)."""
    start = next(_SEQ)
    args = list(args)
    handles = []
    for i in nums:
        handles.append(optree.tree_map(_fresh, args[i], none_is_leaf=False))
        args[i] = handles[-1]
    out = func(*args, **kwargs)
    return out, handles, start


def grad_and_value(func, argnums=0, has_aux=False):
    """``f(*args) -> (gradient w.r.t. args[argnums], value)`` (``(grad, (value, aux))`` with has_aux)."""
    def wrapper(*args, **kwargs):
        single, nums = _argnums(argnums, len(args))
        nested, outer = _level() > 0, STATE.enabled
        with _Nested():
            out, handles, start = _call_fresh(func, args, kwargs, nums)
            value, aux = _split_aux(out, has_aux, "grad_and_value")
            if not isinstance(value, Tensor) or value._value.size != 1:
                raise RuntimeError("grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got "
                                   + (f"tensor with {value.dim()} dims" if isinstance(value, Tensor)
                                      else type(value).__name__))
            flat = [_leaves(h)[0] for h in handles]
            allx = [x for f in flat for x in f]
            keep = nested or (outer and _keeps_graph([value], start, allx))
            gs = _differentiate([value], allx, [creation.ones_like(value)], keep=keep)
        k = 0
        trees = []
        for h, f in zip(handles, flat):
            treedef = _leaves(h)[1]
            trees.append(optree.tree_unflatten(treedef, [_finish(g, keep) for g in gs[k:k + len(f)]]))
            k += len(f)
        g = trees[0] if single else tuple(trees)
        value = _finish(value, keep)
        if has_aux:
            aux = optree.tree_map(lambda t: _finish(t, keep), aux)
            return g, (value, aux)
        return g, value
    return wrapper


def _split_aux(out, has_aux, fname):
    if not has_aux:
        return out, None
    if not (isinstance(out, tuple) and len(out) == 2):
        raise RuntimeError(f"{fname}(f, ...)(*args): output of function f should be a tuple: (output, aux) if "
                           "has_aux is True")
    return out


def grad(func, argnums=0, has_aux=False):
    """The gradient of a scalar function w.r.t. ``args[argnums]`` (an int or a tuple), with PyTorch's has_aux."""
    gv = grad_and_value(func, argnums, has_aux)

    def wrapper(*args, **kwargs):
        g, v = gv(*args, **kwargs)
        return (g, v[1]) if has_aux else g
    return wrapper


def vjp(func, *primals, has_aux=False):
    """``(func(*primals), vjp_fn[, aux])``; ``vjp_fn(cotangents)`` gives a tuple, one gradient per primal."""
    with _Nested():
        out, handles, start = _call_fresh(func, primals, {}, tuple(range(len(primals))))
        value, aux = _split_aux(out, has_aux, "vjp")
    flat_out, out_def = _leaves(value)
    flat_in = [_leaves(h) for h in handles]
    allx = [x for f, _ in flat_in for x in f]
    keep = _level() > 0 or (STATE.enabled and _keeps_graph(flat_out, start, allx))

    def vjp_fn(cotangents, *, retain_graph=True, create_graph=None):
        flat_c, c_def = _leaves(cotangents)
        if c_def != out_def:
            raise RuntimeError(f"Expected pytree structure of cotangents to be the same as pytree structure of "
                               f"outputs to the function. cotangents: {c_def}, primal output: {out_def}")
        for o, c in zip(flat_out, flat_c):
            if tuple(o.shape) != tuple(c.shape):
                raise RuntimeError(f"Mismatch in shape: grad_output[0] has a shape of {c.shape} and output[0] has a "
                                   f"shape of {o.shape}.")
        k2 = keep or _level() > 0 or bool(create_graph)
        with _Nested():
            gs = _differentiate(flat_out, allx, flat_c, keep=k2)
        res, k = [], 0
        for f, d in flat_in:
            res.append(optree.tree_unflatten(d, [_finish(g, k2) for g in gs[k:k + len(f)]]))
            k += len(f)
        return tuple(res)

    shown = optree.tree_unflatten(out_def, [_finish(o, keep) for o in flat_out])
    if has_aux:
        return shown, vjp_fn, optree.tree_map(lambda t: _finish(t, keep), aux)
    return shown, vjp_fn


def jvp(func, primals, tangents, *, strict=False, has_aux=False):
    """``(func(*primals), J @ tangents)``: forward-mode product by the double-vjp trick."""
    if not isinstance(primals, (tuple, list)) or not isinstance(tangents, (tuple, list)):
        raise RuntimeError("jvp(f, primals, tangents): Expected primals and tangents to be tuples")
    if len(primals) != len(tangents):
        raise RuntimeError("jvp(f, primals, tangents): Expected primals and tangents to have the same python structure")
    nested = _level() > 0
    with _Nested():
        res = vjp(func, *primals, has_aux=has_aux)
        out, fn = res[0], res[1]
        flat_out, out_def = _leaves(out)
        us = [creation.zeros_like(o).requires_grad_(True) for o in flat_out]
        gs = fn(optree.tree_unflatten(out_def, us), create_graph=True)
        gflat = [x for g in gs for x in _leaves(g)[0]]
        tflat = [x for t in tangents for x in _leaves(t)[0]]
        jv = _differentiate(gflat, us, tflat, keep=nested)
    jv = optree.tree_unflatten(out_def, [_finish(j, nested) for j in jv])
    out = optree.tree_unflatten(out_def, [_finish(o, nested) for o in flat_out])
    return (out, jv, res[2]) if has_aux else (out, jv)


def jacrev(func, argnums=0, *, has_aux=False, chunk_size=None, _preallocate_and_copy=False):
    """Jacobian of func w.r.t. ``args[argnums]`` by reverse mode: shape ``out.shape + arg.shape`` per pair."""
    def wrapper(*args, **kwargs):
        single, nums = _argnums(argnums, len(args))

        def part(*xs):
            full = list(args)
            for i, x in zip(nums, xs):
                full[i] = x
            return func(*full, **kwargs)
        res = vjp(part, *[args[i] for i in nums], has_aux=has_aux)
        out, fn = res[0], res[1]
        flat_out, out_def = _leaves(out)
        ins = [x for i in nums for x in _leaves(args[i])[0]]
        jac = []
        for k, o in enumerate(flat_out):
            rows = []
            for j in range(o.numel()):
                basis = [creation.zeros_like(p) for p in flat_out]
                basis[k].view(-1)[j] = 1.0
                gs = fn(optree.tree_unflatten(out_def, basis))
                rows.append([x for g in gs for x in _leaves(g)[0]])
            per_in = []
            for m, x in enumerate(ins):
                from ._dispatch import FUNCS  # noqa: PLC0415

                col = FUNCS["stack"]([r[m] for r in rows]) if rows else creation.zeros(0, *x.shape, dtype=x.dtype)
                per_in.append(col.reshape(*o.shape, *x.shape))
            jac.append(per_in)
        arg_trees = []
        for k in range(len(flat_out)):
            trees, m = [], 0
            for i in nums:
                f, d = _leaves(args[i])
                trees.append(optree.tree_unflatten(d, jac[k][m:m + len(f)]))
                m += len(f)
            arg_trees.append(trees[0] if single else tuple(trees))
        result = optree.tree_unflatten(out_def, arg_trees)
        return (result, res[2]) if has_aux else result
    return wrapper


def jacfwd(func, argnums=0, has_aux=False, *, randomness="error"):
    """The same Jacobian as jacrev (computed here by reverse-mode rows)."""
    return jacrev(func, argnums, has_aux=has_aux)


def hessian(func, argnums=0):
    """The Hessian: jacfwd(jacrev(func, argnums), argnums)."""
    return jacfwd(jacrev(func, argnums), argnums)


def _bdim(d, nd, what):
    if d is None:
        return None
    if not -nd <= d < nd:
        raise ValueError(f"vmap: {what} has dimension {d} but the tensor has only {nd} dims")
    return d % nd


def vmap(func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
    """Map func over a dimension of its inputs (``in_dims``: an int, None or a per-argument tree)."""
    if randomness not in ("error", "different", "same"):
        raise RuntimeError(f"Only allowed values for randomness are 'error', 'different', or 'same'. Got {randomness}")

    def wrapper(*args, **kwargs):
        dims = in_dims if isinstance(in_dims, (tuple, list)) else (in_dims,) * len(args)
        if len(dims) != len(args):
            raise ValueError(f"vmap(in_dims={in_dims}, ...)(<inputs>): in_dims is not compatible with the structure "
                             f"of inputs: expected {len(args)} entries, got {len(dims)}")
        specs = []  # per argument: (leaves, treedef, dims per leaf)
        size = None
        for a, d in zip(args, dims):
            leaves, td = _leaves(a)
            dl = [d] * len(leaves) if not isinstance(d, (tuple, list, dict)) else _leaves(d)[0]
            dl = [_bdim(x, t.dim(), "in_dim") if isinstance(t, Tensor) else None for x, t in zip(dl, leaves)]
            for x, t in zip(dl, leaves):
                if x is not None:
                    if size is not None and t.shape[x] != size:
                        raise ValueError(f"vmap: Expected all tensors to have the same size in the mapped dimension, "
                                         f"got sizes {size} and {t.shape[x]} for the mapped dimension")
                    size = t.shape[x]
            specs.append((leaves, td, dl))
        if size is None:
            raise ValueError("vmap: at least one input must be a Tensor mapped over a dimension (in_dims all None)")
        from .utils.checkpoint import get_rng, set_rng  # noqa: PLC0415

        state = get_rng()
        results = []
        for b in range(size):
            if randomness == "same":
                set_rng(state)
            call = [optree.tree_unflatten(td, [t.select(d, b) if d is not None else t for t, d in zip(lv, dl)])
                    for lv, td, dl in specs]
            before = get_rng() if randomness == "error" else None
            results.append(func(*call, **kwargs))
            if before is not None and before != get_rng():
                raise RuntimeError("vmap: called random operation while in randomness error mode. Please either use "
                                   "the 'same' or 'different' randomness flags on vmap or perform the randomness "
                                   "operation out of vmap")
        from ._dispatch import FUNCS  # noqa: PLC0415

        flat0, od = _leaves(results[0])
        outs = [_leaves(r)[0] for r in results]
        ods = out_dims if isinstance(out_dims, (tuple, list)) else (out_dims,) * len(flat0)
        stacked = []
        for k in range(len(flat0)):
            od_k = ods[k] if k < len(ods) else ods[-1]
            col = [o[k] for o in outs]
            if not isinstance(col[0], Tensor):
                col = [creation.tensor(c) for c in col]
            if od_k is None:
                stacked.append(col[0])
            else:
                stacked.append(FUNCS["stack"](col, _bdim(od_k, col[0].dim() + 1, "out_dim")))
        return optree.tree_unflatten(od, stacked)
    return wrapper


def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *, tie_weights=True, strict=False):
    """Call ``module(*args, **kwargs)`` with its parameters/buffers replaced by the given tensors (by dotted name)."""
    dicts = parameter_and_buffer_dicts
    if isinstance(dicts, (tuple, list)):
        merged = {}
        for d in dicts:
            for k in d:
                if k in merged:
                    raise ValueError(f"{k} appeared in multiple dictionaries; behavior of functional call is "
                                     "ambiguous")
            merged.update(d)
        dicts = merged
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    kwargs = kwargs or {}
    names = dict(module.named_parameters(remove_duplicate=False))
    names.update(dict(module.named_buffers(remove_duplicate=False)))
    if strict:
        missing = sorted(set(names) - set(dicts))
        unexpected = sorted(set(dicts) - set(names))
        if missing or unexpected:
            raise RuntimeError(f"Error(s) in reparametrizing for {type(module).__name__}:\n\tUnexpected key(s): "
                               f"{', '.join(map(repr, unexpected))}.\n\tMissing key(s): {', '.join(map(repr, missing))}.")
    if tie_weights:  # a tensor registered under several names: replacing one name replaces them all
        by_id = {}
        for n, t in names.items():
            by_id.setdefault(id(t), []).append(n)
        tied = {}
        for name, value in dicts.items():
            for other in by_id.get(id(names.get(name)), ()):
                if other != name and other not in dicts:
                    tied[other] = value
        dicts = {**dicts, **tied}
    saved = []
    try:
        for name, value in dicts.items():
            *path, leaf = name.split(".")
            mod = module
            for p in path:
                mod = getattr(mod, p)
            d = mod.__dict__
            for key in ("_parameters", "_buffers"):
                if leaf in d.get(key, {}):
                    saved.append((d[key], leaf, d[key][leaf]))
                    d[key][leaf] = value
                    break
            else:
                saved.append((d, leaf, d.get(leaf, _MISSING)))
                d[leaf] = value
        return module(*args, **kwargs)
    finally:
        for store, leaf, old in reversed(saved):
            if old is _MISSING:
                store.pop(leaf, None)
            else:
                store[leaf] = old


_MISSING = object()


def stack_module_state(models):
    """``(params, buffers)``: each named parameter/buffer of same-structured modules stacked on a new dim 0.

    The stacked parameters are new leaves requiring grad (as PyTorch's), for ``vmap(functional_call)`` ensembles.
    """
    from ._dispatch import FUNCS  # noqa: PLC0415

    models = list(models)
    if not models:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if not (all(m.training for m in models) or all(not m.training for m in models)):
        raise RuntimeError("stack_module_state: Expected all models to have the same training/eval mode.")
    ref = type(models[0])
    if any(type(m) is not ref for m in models):
        raise RuntimeError("stack_module_state: Expected all models to be of the same class.")
    params = {k: FUNCS["stack"]([dict(m.named_parameters())[k].detach() for m in models]).requires_grad_(True)
              for k, _ in models[0].named_parameters()}
    buffers = {k: FUNCS["stack"]([dict(m.named_buffers())[k] for m in models]) for k, _ in models[0].named_buffers()}
    return params, buffers



def linearize(func, *primals):
    """(func(*primals), jvp_fn): ``jvp_fn(*tangents)`` is the Jacobian-vector product at primals
    (each call re-runs func forward-mode, which gives the same values as a stored linearisation)."""
    out = func(*primals)

    def jvp_fn(*tangents):
        if len(tangents) != len(primals):
            raise RuntimeError(f"linearize: expected {len(primals)} tangents, got {len(tangents)}")
        return jvp(func, tuple(primals), tuple(tangents))[1]
    return out, jvp_fn


def replace_all_batch_norm_modules_(root):
    """Stop every BatchNorm in ``root`` from tracking running statistics (in place), for vmap."""
    for m in root.modules():
        if hasattr(m, "track_running_stats") and hasattr(m, "running_mean"):
            m.running_mean = None
            m.running_var = None
            m.num_batches_tracked = None
            m.track_running_stats = False
    return root
