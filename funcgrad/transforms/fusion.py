"""Kernel fusion for ``fg.jit`` on the CPU: runs of elementwise equations become one numba loop.

After the graph passes of :mod:`funcgrad.transforms.compile` (so after differentiation: the
backward pass fuses too), :func:`fuse` looks for runs of consecutive elementwise equations of
one output shape and a floating dtype (float32/float64) whose operands are arrays of that shape,
0-d values or Python numbers.  Each run of at least :data:`MIN_RUN` equations becomes one
kernel: a loop over the elements that computes every equation of the run per element and
stores the values used after the run.  Intermediate arrays, and numpy's per-call overhead for
each of them, are gone.

Whether to fuse is decided by a cost model measured on this kind of machine (2-core x86-64,
numpy 2.4 SIMD ufuncs vs numba 0.68 scalar loops, each timed on 10^5 float64 elements while this
module was written; the effect shows in ``benchmarks/op_overhead.py`` and ``train_step.py``): each
numpy call costs about 1 µs plus its per-element cost, a kernel call about 2.5 µs plus the sum
of the run's per-element costs in numba.  numba's scalar ``exp``/``log``/``tanh`` are 5-10x slower
per element than numpy's vectorized ones (``sin``/``cos`` and arithmetic are not), so a run of
``tanh`` on a million elements stays unfused while the same run on a hundred elements, or any
arithmetic run, fuses.

On CuPy buffers every run (of any size: a kernel launch per operation is what a GPU pays) becomes
one ``cupy.ElementwiseKernel`` whose CUDA source is generated from the same run
(:func:`cuda_source`; NaN handling as numpy's); cupy compiles it on first use and caches it.  No
GPU has run this path yet: it is golden-tested on its generated source, and a kernel that fails to
compile runs unfused.

CPU kernels are written to ``$FUNCGRAD_CACHE_DIR`` (default ``~/.cache/funcgrad/kernels``) as
Python files named by a hash of their source, and compiled by numba with ``cache=True``, so a
second process loads the machine code instead of compiling again.  Without numba (the ``jit``
extra), or with ``FUNCGRAD_JIT_FUSE=0``, jit runs unfused.  A kernel that numba cannot compile
falls back to the unfused equations (logged on the ``funcgrad.jit`` logger).

Results can differ from numpy's in the last bits (numba's ``sin`` is not numpy's SIMD ``sin``).
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import os
import pathlib
import sys

import numpy as np

from .graph import Eqn, Var

__all__ = ["fuse", "available", "cuda_source", "MIN_RUN"]

log = logging.getLogger("funcgrad.jit")

MIN_RUN = 2

_BINARY_OPS = {"add": "+", "subtract": "-", "multiply": "*", "divide": "/"}
_UNARY_OPS = {"negative": "-"}
_ARITHMETIC = {"add", "subtract", "multiply", "divide", "negative", "absolute", "square", "maximum", "minimum",
               "sign", "reciprocal", "floor", "ceil"}
_FUNCS = {  # primitive name -> numba-supported scalar function (the same numpy name)
    name: name for name in (
        "absolute", "square", "sqrt", "exp", "expm1", "log", "log1p", "log2", "log10", "sin", "cos", "tan", "tanh",
        "sinh", "cosh", "arcsin", "arccos", "arctan", "arcsinh", "arccosh", "arctanh", "maximum", "minimum",
        "power", "reciprocal", "floor", "ceil", "arctan2", "hypot", "sign",
    )
}
_FUSABLE = set(_BINARY_OPS) | set(_UNARY_OPS) | set(_FUNCS)


def _switched_on():
    return os.environ.get("FUNCGRAD_JIT_FUSE", "1").lower() not in ("0", "false", "no")


def available():
    """Whether CPU fusion runs: numba importable and fusion not switched off."""
    return _switched_on() and importlib.util.find_spec("numba") is not None


def _is_var(a):
    return type(a) is Var


def _is_cupy(t):
    return t is not None and t.__module__.startswith("cupy")


def _eligible(e, types):
    if e.prim.name not in _FUSABLE or e.params or e.prim.multiple_results:
        return False
    if types is not np.ndarray and not _is_cupy(types):
        return False
    out = e.outputs[0].aval
    if np.dtype(out.dtype) not in (np.float32, np.float64) or not out.shape:
        return False
    for a in e.inputs:
        if _is_var(a):
            if a.aval.dtype != out.dtype or a.aval.shape not in (out.shape, ()):
                return False
        elif type(a.value) not in (int, float):
            return False
    return True


def _run_from(eqns, types, i):
    """The run starting at eligible equation ``i``: ``(run, hoisted)`` index lists.  Equations in between
    that read nothing the run produces (a reshape of an incoming cotangent, say) are hoisted before the
    run instead of ending it."""
    aval, t = eqns[i].outputs[0].aval, types[i]
    run, hoisted, produced = [], [], set()
    for j in range(i, len(eqns)):
        e = eqns[j]
        if _eligible(e, types[j]) and e.outputs[0].aval == aval and types[j] is t:
            run.append(j)
            produced.update(id(v) for v in e.outputs)
        elif not any(_is_var(a) and id(a) in produced for a in e.inputs):
            hoisted.append(j)
        else:
            break
    return run, [h for h in hoisted if h < run[-1]]


# the cost model: nanoseconds per element of each operation as one numpy call and inside a numba loop,
# and the fixed cost of a numpy call and of a kernel call.  Per-element costs were measured on a 2-core
# x86-64 (numpy 2.4, numba 0.68, float64, 10^5 elements: numpy's ufunc on the array, and a one-operation
# numba loop over it), where arithmetic is bound by memory traffic and by the fresh output's allocation.
# Arrays that fit in the L2 cache (CACHE_BYTES) make arithmetic ten times cheaper per element
# (_ARITH_NS_CACHED).  The fixed costs are those of jit's replay, measured again on 2026-12-03 with
# jitted chains of 2 to 6 operations on 16 to 10^4 elements (quiet machine): a numpy call about
# 0.35 µs, a kernel call (numba's type dispatch, the flat views, the outputs' allocation) about 2 µs;
# the same chains measured in the same run decide where the model switches (a run of three additions
# fuses from about 10^4 elements, of six from about 10^3; tanh runs stay unfused).
NUMPY_CALL_NS = 350.0
KERNEL_CALL_NS = 2000.0
CACHE_BYTES = 256 * 1024
_COST_NS = {  # name: (numpy ns/element, numba ns/element)
    "sin": (29.0, 28.0), "cos": (29.0, 28.0), "tan": (35.0, 35.0), "exp": (3.0, 22.0), "expm1": (10.0, 25.0),
    "log": (5.0, 30.0), "log1p": (10.0, 30.0), "log2": (6.0, 30.0), "log10": (6.0, 30.0), "tanh": (6.6, 67.0),
    "sinh": (15.0, 40.0), "cosh": (15.0, 40.0), "sqrt": (2.5, 3.3), "power": (15.0, 40.0),
    "arctan2": (25.0, 40.0), "hypot": (5.0, 10.0),
}
_ARITH_NS = (2.5, 1.0)
_ARITH_NS_CACHED = (0.3, 0.15)
_OTHER_NS = (20.0, 40.0)  # the remaining transcendental functions


def _worth_it(run_eqns):
    """Whether the fused loop is expected to be faster than one numpy call per equation."""
    aval = run_eqns[0].outputs[0].aval
    n = float(np.prod(aval.shape))
    arith = _ARITH_NS_CACHED if n * np.dtype(aval.dtype).itemsize <= CACHE_BYTES else _ARITH_NS
    numpy_ns = NUMPY_CALL_NS * len(run_eqns)
    fused_ns = KERNEL_CALL_NS
    for e in run_eqns:
        c_np, c_nb = _COST_NS.get(e.prim.name, arith if e.prim.name in _ARITHMETIC else _OTHER_NS)
        numpy_ns += n * c_np
        fused_ns += n * c_nb
    return fused_ns < numpy_ns


def _expr(e, operand):
    name = e.prim.name
    args = [operand(a) for a in e.inputs]
    if name in _BINARY_OPS:
        return f"({args[0]} {_BINARY_OPS[name]} {args[1]})"
    if name in _UNARY_OPS:
        return f"({_UNARY_OPS[name]}{args[0]})"
    return f"np.{_FUNCS[name]}({', '.join(args)})"


class FusedRun:
    """One fused run: its inputs (vars, in order), its outputs, the kernel source and the callable."""

    def __init__(self, eqns, later_uses, gpu=False):
        self.eqns = eqns
        self.gpu = gpu
        aval = eqns[0].outputs[0].aval
        self.shape, self.dtype = aval.shape, np.dtype(aval.dtype)
        produced = {id(v) for e in eqns for v in e.outputs}
        self.inputs, seen = [], set()
        for e in eqns:
            for a in e.inputs:
                if _is_var(a) and id(a) not in produced and id(a) not in seen:
                    seen.add(id(a))
                    self.inputs.append(a)
        self.outputs = [v for e in eqns for v in e.outputs if id(v) in later_uses]
        self.source = self._kernel_source() if not gpu else None
        self.cuda = cuda_source(self) if gpu else None
        self.kernel = None

    def _kernel_source(self):
        names = {}
        lines = []
        params = []
        for k, v in enumerate(self.inputs):
            if v.aval.shape:
                params.append(f"i{k}")
                names[id(v)] = f"v{k}"
                lines.append(f"        v{k} = i{k}[j]")
            else:
                params.append(f"s{k}")
                names[id(v)] = f"s{k}"
        ctype = "np.float32" if self.dtype == np.float32 else "np.float64"

        def operand(a):
            if _is_var(a):
                return names[id(a)]
            return f"{ctype}({float(a.value)!r})"

        for n, e in enumerate(self.eqns):
            names[id(e.outputs[0])] = f"t{n}"
            lines.append(f"        t{n} = {_expr(e, operand)}")
        for k, v in enumerate(self.outputs):
            params.append(f"o{k}")
            lines.append(f"        o{k}[j] = {names[id(v)]}")
        first = next(p for p in params if p.startswith(("i", "o")))
        return ("import numpy as np\nfrom numba import njit\n\n\n"
                "@njit(cache=True, error_model='numpy', nogil=True)\n"
                f"def kernel({', '.join(params)}):\n"
                f"    for j in range({first}.shape[0]):\n" + "\n".join(lines) + "\n")

    def load(self):
        """Import the kernel from the on-disk cache (written if new)."""
        digest = hashlib.sha256(self.source.encode()).hexdigest()[:24]
        folder = pathlib.Path(os.environ.get("FUNCGRAD_CACHE_DIR", pathlib.Path.home() / ".cache" / "funcgrad"))
        folder = folder / "kernels"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"k_{digest}.py"
        if not path.exists():
            tmp = folder / f".k_{digest}.{os.getpid()}.tmp"
            tmp.write_text(self.source)
            os.replace(tmp, path)
        name = f"funcgrad_kernel_{digest}"
        mod = sys.modules.get(name)
        if mod is None:
            spec = importlib.util.spec_from_file_location(name, path)
            mod = importlib.util.module_from_spec(spec)
            sys.modules[name] = mod  # numba's cache finds the module of a cached function by its name
            spec.loader.exec_module(mod)
        self.kernel = mod.kernel
        return self.kernel


def _later_uses(eqns, outvars, run):
    last = run[-1]
    used = {id(a) for i, e in enumerate(eqns) if i > last for a in e.inputs if _is_var(a)}
    used |= {id(a) for a in outvars if _is_var(a)}
    return used


def fuse(eqns, outvars, types):
    """Replace fusable runs by :class:`FusedRun` pseudo-equations (``Eqn(None, {"run": r}, ...)``)."""
    if not _switched_on():
        return eqns, types
    cpu = available()
    out, out_types, i, n = [], [], 0, len(eqns)
    done = set()
    while i < n:
        if i in done:
            i += 1
            continue
        if _eligible(eqns[i], types[i]):
            run, hoisted = _run_from(eqns, types, i)
            run_eqns = [eqns[k] for k in run]
            if len(run) >= MIN_RUN and (_is_cupy(types[i]) or (cpu and _worth_it(run_eqns))):
                for h in hoisted:
                    out.append(eqns[h])
                    out_types.append(types[h])
                fr = FusedRun(run_eqns, _later_uses(eqns, outvars, run), gpu=_is_cupy(types[i]))
                out.append(Eqn(None, {"run": fr}, list(fr.inputs), fr.outputs))
                out_types.append(types[i])
                done.update(run)
                done.update(hoisted)
                i += 1
                continue
        out.append(eqns[i])
        out_types.append(types[i])
        i += 1
    return out, out_types


def _first_call(fr, args, outs):
    """Load (or compile) the kernel and run it; a cache entry numba cannot load is compiled afresh."""
    kernel = fr.kernel or fr.load()
    try:
        kernel(*args, *outs)
    except ImportError:  # a stale on-disk entry (written by another layout of the cache): compile in memory
        from numba import njit  # noqa: PLC0415

        kernel = fr.kernel = njit(error_model="numpy", nogil=True)(kernel.py_func)
        kernel(*args, *outs)
    return kernel


# primitive name -> CUDA C++ expression (``{0}``, ``{1}``: the operands; ``T``: the element type).
# maximum/minimum propagate NaN and sign keeps it, as numpy's do (CUDA's fmax/fmin and a bare
# comparison would not)
_CUDA = {
    "add": "({0} + {1})", "subtract": "({0} - {1})", "multiply": "({0} * {1})", "divide": "({0} / {1})",
    "negative": "(-{0})", "absolute": "fabs({0})", "square": "({0} * {0})", "reciprocal": "((T)1 / {0})",
    "maximum": "(({0} > {1} || {0} != {0}) ? {0} : {1})", "minimum": "(({0} < {1} || {0} != {0}) ? {0} : {1})",
    "sign": "({0} != {0} ? {0} : (T)(({0} > (T)0) - ({0} < (T)0)))", "power": "pow({0}, {1})",
    "arctan2": "atan2({0}, {1})", "hypot": "hypot({0}, {1})", "arcsin": "asin({0})", "arccos": "acos({0})",
    "arctan": "atan({0})", "arcsinh": "asinh({0})", "arccosh": "acosh({0})", "arctanh": "atanh({0})",
}
for _name in ("sqrt", "exp", "expm1", "log", "log1p", "log2", "log10", "sin", "cos", "tan", "tanh", "sinh", "cosh",
              "floor", "ceil"):
    _CUDA[_name] = _name + "({0})"


def cuda_source(fr):
    """``(in_params, out_params, operation, name)`` of the ``cupy.ElementwiseKernel`` computing the run."""
    names, ins, body = {}, [], []
    for k, v in enumerate(fr.inputs):
        names[id(v)] = f"i{k}"
        ins.append(f"T i{k}")

    def operand(a):
        return names[id(a)] if _is_var(a) else f"(T){float(a.value)!r}"

    for n, e in enumerate(fr.eqns):
        names[id(e.outputs[0])] = f"t{n}"
        body.append(f"T t{n} = {_CUDA[e.prim.name].format(*[operand(a) for a in e.inputs])};")
    outs = [f"T o{k}" for k in range(len(fr.outputs))]
    body += [f"o{k} = {names[id(v)]};" for k, v in enumerate(fr.outputs)]
    digest = hashlib.sha256("\n".join(body).encode()).hexdigest()[:16]
    return ", ".join(ins), ", ".join(outs), "\n".join(body), f"funcgrad_fused_{digest}"


def _cuda_caller(fr, fallback):
    """A fused run on cupy: one ElementwiseKernel (compiled by cupy on first use, cached by cupy on disk)."""
    state = {}

    def call(*ins):
        kernel = state.get("kernel")
        if kernel is None:
            try:
                import cupy  # noqa: PLC0415 - only reached with cupy buffers

                kernel = state["kernel"] = cupy.ElementwiseKernel(*fr.cuda)
                outs = kernel(*ins)
                return list(outs) if isinstance(outs, tuple) else [outs]
            except Exception as e:  # noqa: BLE001 - nvrtc errors: run unfused
                log.info("fusion: cupy could not compile a kernel of %d equations (%s: %s); running them unfused",
                         len(fr.eqns), type(e).__name__, str(e).splitlines()[0] if str(e) else "")
                state["kernel"] = kernel = False
        if kernel is False:
            return fallback(*ins)
        outs = kernel(*ins)
        return list(outs) if isinstance(outs, tuple) else [outs]

    call.run = fr
    return call


def make_caller(fr, fallback):
    """The function the replay calls for a fused run: allocate the outputs, run the kernel on flat views.
    ``fallback(*inputs)`` computes the same outputs unfused (used if numba cannot compile the kernel)."""
    if fr.gpu:
        return _cuda_caller(fr, fallback)
    shape, dtype, n_out = fr.shape, fr.dtype, len(fr.outputs)
    flat = [bool(v.aval.shape) for v in fr.inputs]
    state = {}

    def call(*ins):
        kernel = state.get("kernel")
        args = [x.reshape(-1) if f else x if type(x) is float else x[()] for x, f in zip(ins, flat)]  # (float: jit's weak input)
        outs = [np.empty(shape, dtype) for _ in range(n_out)]
        if kernel is None:
            try:
                kernel = state["kernel"] = _first_call(fr, args, [o.reshape(-1) for o in outs])
                return outs
            except Exception as e:  # noqa: BLE001 - numba's typing/lowering errors vary by version
                log.info("fusion: numba could not compile a kernel of %d equations (%s: %s); running them unfused",
                         len(fr.eqns), type(e).__name__, str(e).splitlines()[0] if str(e) else "")
                state["kernel"] = kernel = False
        if kernel is False:
            return fallback(*ins)
        kernel(*args, *[o.reshape(-1) for o in outs])
        return outs

    call.run = fr  # what the replay's line computes (for inspection)
    return call
