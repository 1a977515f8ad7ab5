"""Write docs/numpy-coverage.md: what funcgrad.numpy covers, and how well.

Everything on the page is derived from the code, so it cannot drift:
- the names are every public name of numpy's ``numpy``, ``numpy.linalg`` and ``numpy.fft``
  (``dir``), plus funcgrad's own public functions there; each is implemented (present in
  ``funcgrad.numpy``, ``funcgrad.numpy.linalg``, ``funcgrad.numpy.fft``), not applicable
  (``NOT_APPLICABLE`` below gives the reason, by category), or missing;
- the primitives a function may bind are found by following the names its code
  (and the code of the helpers it calls, transitively) refers to, down to
  ``Primitive`` objects and their ``bind``; error paths are included, so the
  set is an over-approximation;
- a primitive's support comes from ``funcgrad.core.REGISTRY``: reverse mode
  (a vjp rule), forward mode (a jvp rule), vmap (a ``batch`` rule, else the
  per-example loop fallback), and GPU (its impl uses the namespace of its
  inputs, which is what the stand-in backend test in
  tests/primitives/test_registry.py proves for every primitive a spec covers).

Usage: ``python scripts/gen_numpy_coverage.py`` (writes the page) or
``--check`` (exit status 1 if the committed page is out of date).
"""

from __future__ import annotations

import dis
import functools
import importlib
import importlib.util
import sys
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "numpy-coverage.md"
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

import funcgrad.numpy as fnp  # noqa: E402
from funcgrad.core import REGISTRY, Primitive  # noqa: E402

NAMESPACES = [("funcgrad.numpy", fnp, np), ("funcgrad.numpy.linalg", fnp.linalg, np.linalg),
              ("funcgrad.numpy.fft", fnp.fft, np.fft), ("funcgrad.numpy.emath", fnp.emath, np.emath),
              ("funcgrad.numpy.polynomial", fnp.polynomial, np.polynomial),
              ("funcgrad.numpy.polynomial.polynomial", fnp.polynomial.polynomial, np.polynomial.polynomial)]


def _stand_in_tested():
    """Primitives a spec exercises: test_registry runs each of those on the stand-in backend."""
    from tests.primitives.spec import ALL_SPECS  # noqa: PLC0415

    return {p for s in ALL_SPECS for p in s.prims}


def _prims_of(obj, seen=None):
    """Primitives that calling ``obj`` may bind (following the names its code refers to)."""
    seen = set() if seen is None else seen
    found = set()
    if id(obj) in seen:
        return found
    seen.add(id(obj))
    if isinstance(obj, Primitive):
        return {obj.name}
    if isinstance(obj, functools.partial):
        for a in (obj.func,) + obj.args:
            found |= _prims_of(a, seen)
        return found
    if isinstance(obj, types.MethodType):
        return _prims_of(obj.__func__, seen)
    if not isinstance(obj, types.FunctionType) or not obj.__module__.startswith("funcgrad"):
        return found
    glb = obj.__globals__
    closure = [c.cell_contents for c in (obj.__closure__ or ()) if _cell_ok(c)]
    for code in _codes(obj.__code__):
        for value in _referenced(code, glb):
            found |= _prims_of(value, seen)
    for value in closure:
        found |= _prims_of(value, seen)
    return found


def _referenced(code, glb):
    """Globals a code object loads, attributes it reads from modules among them, and the
    names it imports locally (``from .module import name`` inside a function)."""
    pending = None
    consts = []
    imported = None
    for ins in dis.get_instructions(code):
        op = ins.opname
        if op == "IMPORT_NAME":
            level = consts[-2] if len(consts) >= 2 and isinstance(consts[-2], int) else 0
            try:
                name = importlib.util.resolve_name("." * level + ins.argval, glb.get("__package__"))
                imported = importlib.import_module(name)
            except (ImportError, ValueError):
                imported = None
        elif op == "IMPORT_FROM" and imported is not None:
            value = getattr(imported, ins.argval, None)
            if value is not None and not isinstance(value, types.ModuleType):
                yield value
        if op == "LOAD_CONST":
            consts.append(ins.argval)
        if op in ("LOAD_GLOBAL", "LOAD_NAME"):
            value = glb.get(ins.argval, None)
            pending = value if isinstance(value, types.ModuleType) else None
            if value is not None and pending is None:
                yield value
        elif op in ("LOAD_ATTR", "LOAD_METHOD") and pending is not None:
            value = getattr(pending, ins.argval, None)
            pending = value if isinstance(value, types.ModuleType) else None
            if value is not None and pending is None:
                yield value
        else:
            pending = None


def _cell_ok(cell):
    try:
        cell.cell_contents  # noqa: B018
        return True
    except ValueError:
        return False


def _codes(code):
    yield code
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            yield from _codes(c)


def _public_functions(module):
    names = getattr(module, "__all__", None) or [n for n in dir(module) if not n.startswith("_")]
    out = {}
    for name in names:
        obj = getattr(module, name)
        if isinstance(obj, types.FunctionType) and obj.__module__.startswith("funcgrad"):
            out[name] = obj
    return out


def _mark(flag):
    return "yes" if flag else "**no**"


def _prim_row(p, tested):
    diff = p.differentiable
    rev = "n/a" if not diff else _mark(p.vjps is not None or p.vjp_all is not None)
    fwd = "n/a" if not diff else _mark(p.jvps is not None or p.jvp_all is not None)
    vmap = "rule" if p.batch is not None else "loop fallback"
    gpu = "?" if tested is None else _mark(p.name in tested)
    family = getattr(p.impl, "__module__", "") or ""
    family = family.rsplit(".", 1)[-1]
    kind = "yes" if diff else ("zero" if p.zero_derivative else "no (int/bool or constant)")
    return f"| `{p.name}` | {family} | {kind} | {fwd} | {rev} | {vmap} | {gpu} |"


def _summary(prims, tested):
    """(forward, reverse, vmap, gpu) for a function binding ``prims``."""
    if not prims:
        return "n/a", "n/a", "n/a", "n/a (binds no primitive)"
    ps = [REGISTRY[n] for n in sorted(prims)]
    diff = [p for p in ps if p.differentiable]
    if not diff:
        fwd = rev = "n/a (no derivative)"
    else:
        fwd = _mark(all(p.jvps is not None or p.jvp_all is not None for p in diff))
        rev = _mark(all(p.vjps is not None or p.vjp_all is not None for p in diff))
    with_rule = [p for p in ps if p.batch is not None]
    vmap = "rules" if len(with_rule) == len(ps) else "loop fallback" if not with_rule else \
        "loop fallback for " + ", ".join(f"`{p.name}`" for p in ps if p.batch is None)
    gpu = "?" if tested is None else _mark(all(p.name in tested for p in ps))
    return fwd, rev, vmap, gpu


# --- every public numpy name: implemented, not applicable (with the reason), or missing ----------

# Names funcgrad does not provide on purpose, by category: (reason, names).  A name listed here
# that funcgrad.numpy does provide is an error (the page would be wrong), checked by render().
NOT_APPLICABLE = {
    "I/O": ("files, buffers and text parsing make host data, not values to differentiate: "
            "read with numpy, then `fnp.asarray`",
            "load save savez savez_compressed savetxt loadtxt genfromtxt fromfile frombuffer "
            "fromregex fromstring memmap"),
    "printing": ("printing and formatting give strings; numpy's apply to `np.asarray(x)`",
                 "array2string array_repr array_str format_float_positional format_float_scientific "
                 "printoptions set_printoptions get_printoptions base_repr binary_repr typename"),
    "bit packing": ("integer-only bit packing, no derivative (the elementwise `bitwise_*` are "
                    "implemented)", "packbits unpackbits"),
    "datetimes": ("datetimes and business days: funcgrad arrays hold numbers only",
                  "datetime64 timedelta64 busdaycalendar busday_count busday_offset is_busday "
                  "datetime_as_string datetime_data isnat"),
    "non-numeric dtypes": ("strings, bytes, objects and structured records: funcgrad arrays hold "
                           "bool, integer, float and complex values only",
                           "bytes_ str_ character flexible object_ void record recarray rec char "
                           "strings"),
    "in-place writes": ("writes into its argument; funcgrad arrays are immutable: use "
                        "`where(mask, src, dst)` or `x.at[idx].set(v)` (`fill_diagonal`, `put`, `place`, "
                        "`putmask` exist as functional updates with `inplace=False`)", "copyto"),
    "memory layout": ("buffer layout, sharing and iteration objects: funcgrad arrays are immutable "
                      "values without a memory layout of their own (use `broadcast_shapes`, "
                      "`broadcast_arrays`, `ndindex`, `ndenumerate`)",
                      "may_share_memory shares_memory isfortran flatiter nditer nested_iters "
                      "broadcast getbufsize setbufsize"),
    "error state": ("numpy's floating-point error state; it governs funcgrad's CPU computations, "
                    "so use numpy's own", "errstate seterr geterr seterrcall geterrcall"),
    "Python objects": ("object arrays, ufunc objects and the legacy matrix/poly1d classes "
                       "(funcgrad functions are plain functions; use the `poly*` functions and 2-d "
                       "arrays)", "frompyfunc ufunc matrix asmatrix bmat poly1d"),
    "masked arrays": ("a container class (`numpy.ma`): use `where` and the `nan*` reductions", "ma"),
    "random": ("numpy's global-state generator: funcgrad.random has explicit keys", "random"),
    "numpy itself": ("build, configuration, testing and typing of numpy itself",
                     "show_config show_runtime get_include info test testing typing f2py ctypeslib "
                     "core lib"),
}


def _na_reasons():
    out = {}
    for category, (reason, names) in NOT_APPLICABLE.items():
        for name in names.split():
            out[name] = category
    return out


def _kind(obj):
    """What a non-function name funcgrad provides is (numpy's dtypes and constants are numpy's own)."""
    if isinstance(obj, types.ModuleType):
        return "module"
    if isinstance(obj, type):
        return "dtype" if issubclass(obj, np.generic) else "class"
    if obj is None or isinstance(obj, (np.generic, int, float, complex, str, tuple, dict)):
        return "constant"
    if callable(obj):
        return "numpy's own (inspects dtypes, shapes or types)" if \
            getattr(obj, "__module__", "").startswith("numpy") else "callable object"
    return "index helper"


def _imported_module(ref, name):
    """A module a namespace merely imports (``np`` and ``pu`` in numpy.polynomial.polynomial)."""
    obj = getattr(ref, name)
    return isinstance(obj, types.ModuleType) and not obj.__name__.startswith(ref.__name__.split(".")[0] + ".") \
        or isinstance(obj, types.ModuleType) and "." in ref.__name__ and not obj.__name__.startswith(ref.__name__ + ".")


def _namespace_rows(title, mod, ref, tested, na):
    funcs = _public_functions(mod)
    names = sorted(set(n for n in dir(ref) if not n.startswith("_") and not _imported_module(ref, n)) | set(funcs))
    rows, counts = [], {"implemented": 0, "n/a": 0, "missing": 0}
    for name in names:
        if name in funcs:
            ps = _prims_of(funcs[name])
            fwd, rev, vmap, gpu = _summary(ps, tested)
            plist = ", ".join(f"`{p}`" for p in sorted(ps)) or "-"
            status = "yes" if hasattr(ref, name) else "yes (funcgrad only)"
            rows.append(f"| `{name}` | {status} | {fwd} | {rev} | {vmap} | {gpu} | {plist} |")
        elif hasattr(mod, name):
            rows.append(f"| `{name}` | yes ({_kind(getattr(mod, name))}) | - | - | - | - | - |")
        elif name in na:
            rows.append(f"| `{name}` | n/a: {na[name]} | - | - | - | - | - |")
        else:
            rows.append(f"| `{name}` | **missing** | - | - | - | - | - |")
        if hasattr(ref, name):
            counts["implemented" if hasattr(mod, name) else "n/a" if name in na else "missing"] += 1
    missing = [n for n in names if hasattr(ref, n) and not hasattr(mod, n) and n not in na]
    counted = [n for n in names if hasattr(ref, n)]
    n_numpy = len(counted)
    lines = [f"## `{title}` (numpy's `{ref.__name__}`: {n_numpy} "
             f"public names: {counts['implemented']} implemented, {counts['n/a']} not applicable, "
             f"{counts['missing']} missing)", "",
             "| name | status | forward | reverse | vmap | GPU | primitives |",
             "| --- | --- | --- | --- | --- | --- | --- |"] + rows
    lines += ["", f"Missing from `{title}` ({len(missing)}): "
              + (", ".join(f"`{n}`" for n in missing) if missing else "none") + ".", ""]
    return lines, counts


def render():
    tested = _stand_in_tested()
    na = _na_reasons()
    provided = sorted(n for n in na if any(hasattr(m, n) for _, m, _ in NAMESPACES))
    if provided:
        raise SystemExit(f"NOT_APPLICABLE lists names funcgrad provides: {provided}")
    prims = [p for _, p in sorted(REGISTRY.items()) if (getattr(p.impl, "__module__", "") or "").startswith("funcgrad")]
    body, totals = [], {"implemented": 0, "n/a": 0, "missing": 0}
    for title, mod, ref in NAMESPACES:
        lines, counts = _namespace_rows(title, mod, ref, tested, na)
        body += lines
        for k, v in counts.items():
            totals[k] += v
    lines = [
        "# funcgrad.numpy coverage",
        "",
        "Generated by `python scripts/gen_numpy_coverage.py` from the code (the primitive registry",
        "and the funcgrad namespaces), compared with every public name of numpy "
        f"{np.__version__}'s " + ", ".join(f"`{ref.__name__}`" for _, _, ref in NAMESPACES[:-1])
        + f" and `{NAMESPACES[-1][2].__name__}`",
        "(`dir()`, less the modules a namespace merely imports); `tests/test_coverage_page.py` fails when",
        "this page is out of date. Do not edit it by hand.",
        "",
        f"numpy's public names: **{totals['implemented']} implemented, {totals['n/a']} not applicable, "
        f"{totals['missing']} missing**.",
        "",
        "**status**: `yes` (a funcgrad function; `yes (dtype)`, `(constant)`, `(module)` ... for",
        "numpy's own objects re-exported), `n/a: category` (not applicable, for the reason in the",
        "table below), or **missing**. Columns for functions: **forward** / **reverse**: every",
        "differentiable primitive the function may bind has a jvp / vjp rule (rules are written with",
        "funcgrad operations, so every order works); **vmap**: batching rules, or the per-example",
        "loop fallback; **GPU**: every primitive's impl uses the namespace of its inputs, proved by",
        "the stand-in backend test (tests/primitives/test_registry.py). The primitives a function may",
        "bind are found by following the names its code refers to, so error paths are included.",
        "",
        "## Not applicable: the reasons", "",
        "| category | reason | numpy names |", "| --- | --- | --- |",
    ]
    for category, (reason, names) in NOT_APPLICABLE.items():
        lines.append(f"| {category} | {reason} | " + ", ".join(f"`{n}`" for n in names.split()) + " |")
    lines += [""] + body
    lines += [f"## Primitives ({len(prims)})", "",
              "| primitive | family | differentiable | forward | reverse | vmap | GPU (stand-in tested) |",
              "| --- | --- | --- | --- | --- | --- | --- |"]
    lines += [_prim_row(p, tested) for p in prims]
    return "\n".join(lines) + "\n"


def main(argv):
    text = render()
    if "--check" in argv:
        current = PAGE.read_text() if PAGE.exists() else ""
        if current != text:
            print(f"{PAGE.relative_to(ROOT)} is out of date: run python scripts/gen_numpy_coverage.py")
            return 1
        return 0
    PAGE.write_text(text)
    print(f"wrote {PAGE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
