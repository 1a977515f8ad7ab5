"""torch.func: grad, grad_and_value, vjp, jvp, jacrev, jacfwd, hessian, vmap, functional_call, ...

Thin adapters over funcgrad.transforms: ``grad``/``vjp`` are ``fg.grad``/``fg.vjp`` (reverse
mode), ``jvp``/``jacfwd`` are ``fg.jvp``/``fg.jacfwd`` (true forward mode), ``jacrev`` is
``fg.jacrev`` (one vmapped vjp), ``vmap`` is ``fg.vmap`` (vectorized by the primitives' batching
rules: the function runs once for the whole batch).  What this module adds is PyTorch's surface:

- the function receives compat Tensors (so Tensor methods work): each traced value is handed
  over as a :class:`~funcgrad.compat.autograd.graph.TracedTensor` whose value is the transformation's
  tracer, and the results are unwrapped before the transformation sees them.  Nesting (to any
  order) and mixing with ``fg.grad``/``fg.vmap``/``fg.jvp`` are the core's trace levels, so no
  perturbation confusion; a TracedTensor's trace sits just above its value's (graph.py);
- results are Tensors; Tensors that require grad (an input, a closed-over parameter) are
  compat's level-0 tracers under the transformation, so compat's autograd records the whole
  computation (derivative rules included) and ``.backward()`` goes through the result, as
  PyTorch's torch.func composes with its autograd;
- PyTorch's argument checks and error messages; ``randomness`` of vmap (compat's random
  factories draw one sample per example under 'different', once under 'same', and raise under
  'error': creation._rng / _random_tensor); ``chunk_size`` of vmap (the batch in chunks);
- a ``torch.no_grad()`` inside the transformed function stops the gradient (graph.py's
  _TracedTrace binds through ``stop_gradient``), and ``x.detach()`` is ``stop_gradient``.

``jacrev``'s ``chunk_size`` is checked as PyTorch checks it; the Jacobian is always computed in
one vectorized call (the same values; only the peak memory differs from PyTorch's chunks).
"""

from __future__ import annotations

from .. import tree
from ..array import Array, Tracer
from ..backend import kind_of
from ..transforms import api as _api
from ..transforms import jacobians as _jac
from ..transforms.batching import BatchTracer
from ..transforms.forward import JVPTracer
from . import creation
from ._func_values import _handed_out, _to_fg, _to_torch, _tree_to_fg, _tree_to_torch, _torch_fn
from .func_modules import functional_call, replace_all_batch_norm_modules_, stack_module_state
from .func_vmap import _check_randomness, vmap
from .autograd.graph import TracedTensor
from .tensor import Tensor

__all__ = ["grad", "grad_and_value", "vjp", "jvp", "jacrev", "jacfwd", "hessian", "vmap", "functional_call",
           "stack_module_state", "linearize", "replace_all_batch_norm_modules_"]


def _argnums(argnums, n):
    single = isinstance(argnums, int)
    nums = (argnums,) if single else tuple(argnums)
    if not nums:
        raise RuntimeError("argnums must be non-empty")
    out = []
    for a in nums:
        if not isinstance(a, int):
            raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(a).__name__}")
        if not -n <= a < n:
            raise RuntimeError(f"Got argnums={a}, but only {n} positional inputs")
        out.append(a % n)
    return single, tuple(out)


def _check_diff_inputs(values):
    """PyTorch's checks of the values differentiated with respect to (pytrees of Tensors)."""
    for x in tree.tree_leaves(values):
        if not isinstance(x, (Tensor, Tracer, Array)):  # (fg's values count as Tensors: the front doors mix)
            raise ValueError(f"Thing passed to transform API must be Tensor, got {type(x)}")
        if kind_of(x._value.dtype if isinstance(x, Tensor) else x.dtype) not in "fc":
            raise RuntimeError("only Tensors of floating point dtype can require gradients")


def _split_aux(out, has_aux, fname):
    if not has_aux:
        return out, None
    if not (isinstance(out, tuple) and len(out) == 2):
        raise RuntimeError(f"{fname}(f, ...)(*args): output of function f should be a tuple: (output, aux) if "
                           "has_aux is True")
    return out


def _scalar_checked(func, has_aux):
    """func with PyTorch's check that grad's function returns a 0-d Tensor."""
    def checked(*args, **kwargs):
        value, aux = _split_aux(func(*args, **kwargs), has_aux, "grad_and_value")
        if not isinstance(value, Tensor):
            raise RuntimeError(f"grad_and_value(f)(*args): Expected f(*args) to return a Tensor, got {type(value)}")
        if value.dim() != 0:
            raise RuntimeError(f"grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got tensor "
                               f"with {value.dim()} dims. Maybe you wanted to use the vjp or jacrev APIs instead?")
        return (value, aux) if has_aux else value
    return checked


# --- reverse mode ---------------------------------------------------------------------------------

def grad_and_value(func, argnums=0, has_aux=False):
    """``f(*args) -> (gradient w.r.t. args[argnums], value)`` (``(grad, (value, aux))`` with has_aux)."""
    def wrapper(*args, **kwargs):
        single, nums = _argnums(argnums, len(args))
        _check_diff_inputs([args[i] for i in nums])
        vg = _api.value_and_grad(_torch_fn(_scalar_checked(func, has_aux)), nums, has_aux=has_aux)
        value, g = vg(*_tree_to_fg(args), **kwargs)
        g = _tree_to_torch(g[0] if single else g)
        if has_aux:
            value, aux = value
            return g, (_to_torch(value), _tree_to_torch(aux))
        return g, _to_torch(value)
    return wrapper


def grad(func, argnums=0, has_aux=False):
    """The gradient of a scalar function w.r.t. ``args[argnums]`` (an int or a tuple), with PyTorch's has_aux."""
    gv = grad_and_value(func, argnums, has_aux)

    def wrapper(*args, **kwargs):
        g, v = gv(*args, **kwargs)
        return (g, v[1]) if has_aux else g
    return wrapper


def vjp(func, *primals, has_aux=False):
    """``(func(*primals), vjp_fn[, aux])``; ``vjp_fn(cotangents)`` gives a tuple, one gradient per primal."""
    _check_diff_inputs(primals)

    def fn(*xs):
        out = func(*_handed_out(xs))
        return _tree_to_fg(_split_aux(out, has_aux, "vjp") if has_aux else out)

    res = _api.vjp(fn, *_tree_to_fg(primals), has_aux=has_aux)
    out, fg_vjp_fn = res[0], res[1]
    flat_out, out_def = tree.tree_flatten(out)

    def vjp_fn(cotangents, *, retain_graph=True, create_graph=None):
        flat_c, c_def = tree.tree_flatten(cotangents)
        if c_def != out_def:
            raise RuntimeError(f"Expected pytree structure of cotangents to be the same as pytree structure of "
                               f"outputs to the function. cotangents: {c_def}, primal output: {out_def}")
        cts = []
        for k, (o, c) in enumerate(zip(flat_out, flat_c)):
            o = _to_torch(o)
            if not isinstance(c, Tensor):
                raise RuntimeError(f"vjp_fn: Expected the cotangents to be Tensors, got {type(c).__name__}")
            if tuple(o.shape) != tuple(c.shape):
                raise RuntimeError(f"Mismatch in shape: grad_output[{k}] has a shape of {c.shape} and output[{k}] has "
                                   f"a shape of {o.shape}.")
            if c.dtype != o.dtype:  # PyTorch casts the cotangent to the output's dtype
                c = c.to(o.dtype)
            cts.append(_to_fg(c))
        return _tree_to_torch(fg_vjp_fn(tree.tree_unflatten(out_def, cts)))

    shown = _tree_to_torch(out)
    if has_aux:
        return shown, vjp_fn, _tree_to_torch(res[2])
    return shown, vjp_fn


def jacrev(func, argnums=0, *, has_aux=False, chunk_size=None, _preallocate_and_copy=False):
    """Jacobian of func w.r.t. ``args[argnums]`` by reverse mode (``fg.jacrev``: one vmapped vjp); shape
    ``out.shape + arg.shape`` per pair."""
    if chunk_size is not None and not (isinstance(chunk_size, int) and chunk_size > 0):
        raise ValueError("jacrev: `chunk_size` should be greater than 0.")
    return _jacobian(_jac.jacrev, func, argnums, has_aux)


def _jacobian(fg_jac, func, argnums, has_aux, fname="jacrev"):
    def wrapper(*args, **kwargs):
        single, nums = _argnums(argnums, len(args))
        _check_diff_inputs([args[i] for i in nums])

        def fn(*xs, **kw):
            out = func(*_handed_out(xs), **kw)
            return _tree_to_fg(_split_aux(out, has_aux, fname) if has_aux else out)

        res = fg_jac(fn, nums[0] if single else nums, has_aux=has_aux)(*_tree_to_fg(args), **kwargs)
        return (_tree_to_torch(res[0]), _tree_to_torch(res[1])) if has_aux else _tree_to_torch(res)
    return wrapper


# --- forward mode ---------------------------------------------------------------------------------

def jvp(func, primals, tangents, *, strict=False, has_aux=False):
    """``(func(*primals), J @ tangents)`` in forward mode (``fg.jvp``)."""
    if not isinstance(primals, (tuple, list)) or not isinstance(tangents, (tuple, list)):
        raise RuntimeError("jvp(f, primals, tangents): Expected primals and tangents to be tuples")
    if len(primals) != len(tangents):
        raise RuntimeError("jvp(f, primals, tangents): Expected primals and tangents to have the same python structure")
    if tree.tree_structure(tuple(primals)) != tree.tree_structure(tuple(tangents)):
        raise RuntimeError("jvp(f, primals, tangents): Expected primals and tangents to have the same python structure")
    _check_diff_inputs(primals)
    ts = []
    for p, t in zip(tree.tree_leaves(tuple(primals)), tree.tree_leaves(tuple(tangents))):
        if not isinstance(t, (Tensor, Tracer, Array)):
            raise ValueError(f"Thing passed to transform API must be Tensor, got {type(t)}")
        if tuple(p.shape) != tuple(t.shape):
            raise RuntimeError("Trying to set a forward gradient that has a different size than that of the original "
                               f"Tensor, this is not supported. Tensor is of size {list(p.shape)} while the given "
                               f"forward gradient is of size {list(t.shape)}.")
        if isinstance(t, Tensor) and isinstance(p, Tensor) and t.dtype != p.dtype:
            t = t.to(p.dtype)
        ts.append(_to_fg(t))
    t_in = tree.tree_unflatten(tree.tree_structure(tuple(tangents)), ts)

    def fn(*xs):
        out = func(*_handed_out(xs))
        return _tree_to_fg(_split_aux(out, has_aux, "jvp") if has_aux else out)

    res = _api.jvp(fn, tuple(_tree_to_fg(tuple(primals))), tuple(t_in), has_aux=has_aux)
    return tuple(_tree_to_torch(r) for r in res)


def jacfwd(func, argnums=0, has_aux=False, *, randomness="error"):
    """The Jacobian by forward mode (``fg.jacfwd``: one vmapped jvp over the input basis).  ``randomness``
    is that of the vmap over the basis, as PyTorch's: 'different' gives each column its own draws."""
    _check_randomness(randomness)
    if randomness == "same":
        return _jacobian(_jac.jacfwd, func, argnums, has_aux, "jacfwd")
    if randomness == "different":
        return _jacobian(_jac.jacfwd, _per_column_draws(func), argnums, has_aux, "jacfwd")
    inner = _jacobian(_jac.jacfwd, func, argnums, has_aux, "jacfwd")

    def wrapper(*args, **kwargs):
        creation._VMAP_RANDOM.append(("error", None, None))
        try:
            return inner(*args, **kwargs)
        finally:
            creation._VMAP_RANDOM.pop()
    return wrapper


def _per_column_draws(func):
    """func whose random draws differ per basis column of fg.jacfwd: the basis vmap is the trace of the
    tangents of the jvp tracers func receives."""
    def drawing(*args, **kwargs):
        traces = [x._value.tangent._trace for x in tree.tree_leaves(args)
                  if type(x) is TracedTensor and type(x._value) is JVPTracer and type(x._value.tangent) is BatchTracer]
        if not traces:
            return func(*args, **kwargs)
        trace = max(traces, key=lambda t: t.level)
        creation._VMAP_RANDOM.append(("different", trace, trace.axis_size))
        try:
            return func(*args, **kwargs)
        finally:
            creation._VMAP_RANDOM.pop()
    return drawing


def hessian(func, argnums=0):
    """The Hessian: jacfwd(jacrev(func, argnums), argnums) (forward over reverse)."""
    return jacfwd(jacrev(func, argnums), argnums)


def linearize(func, *primals):
    """(func(*primals), jvp_fn): ``jvp_fn(*tangents)`` is the Jacobian-vector product at primals
    (each call runs func in forward mode, which gives the same values as a stored linearisation)."""
    out = func(*primals)

    def jvp_fn(*tangents):
        if len(tangents) != len(primals):
            raise RuntimeError(f"linearize: expected {len(primals)} tangents, got {len(tangents)}")
        return jvp(func, tuple(primals), tuple(tangents))[1]
    return out, jvp_fn

