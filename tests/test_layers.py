"""funcgrad's layering, read from the source with ast (nothing is imported).

Every import of one of funcgrad's modules, at module level or inside a function, is an
edge between two of the package's parts (``funcgrad.numpy``, ``funcgrad.core``, ...).
Two rules, docs/architecture.md's layers:

- no part imports a part of a higher layer;
- the graph of parts has no cycle (parts of one layer may import each other, one way).

``python tests/test_layers.py`` prints the offending imports, and with ``--graph`` the
part-level graph (edges and the modules behind each).
"""

from __future__ import annotations

import ast
import pathlib
import sys

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parents[1] / "funcgrad"

# The layers, lowest first.  A part is funcgrad's top-level module or subpackage.
LAYERS = (
    ("errors", "backend", "tree", "_atomic_file"),
    ("array", "core"),
    ("primitives",),
    ("transforms", "numpy", "scipy", "random", "lax", "sparse"),
    ("nn", "optim", "testing", "datasets"),
    ("compat",),
    ("demo", "cli", "__main__", "__init__"),
)
LAYER_OF = {part: level for level, parts in enumerate(LAYERS) for part in parts}


def _module_name(path: pathlib.Path) -> tuple[str, bool]:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    is_package = parts[-1] == "__init__"
    if is_package:
        parts.pop()
    return ".".join(parts), is_package


def _targets(node, module: str, is_package: bool) -> list[str]:
    """The funcgrad modules an import statement names (``from a import b``: a.b when b may be a module)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[: len(base) - node.level + 1]
        source = ".".join(base + ([node.module] if node.module else []))
    else:
        source = node.module or ""
    return [f"{source}.{alias.name}" for alias in node.names]


def part_of(module: str) -> str | None:
    """``funcgrad.numpy._shape`` -> ``numpy``; ``funcgrad`` itself -> ``__init__``."""
    names = module.split(".")
    if names[0] != "funcgrad":
        return None
    if len(names) == 1:
        return "__init__"
    return names[1]


def _resolve_part(target: str) -> str | None:
    """The part an import target lands in; ``funcgrad.grad`` (a name of the root) is the root."""
    part = part_of(target)
    if part is None or part in LAYER_OF:
        return part
    return "__init__"  # ``from funcgrad import grad``: a name the root package defines


def imports():
    """(module, line, target module, source part, target part) for every import of funcgrad code."""
    rows = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module, is_package = _module_name(path)
        src = part_of(module)
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            for target in _targets(node, module, is_package):
                dst = _resolve_part(target)
                if dst is None or dst == src:
                    continue
                rows.append((module, node.lineno, target, src, dst))
    return rows


def upward_imports(rows):
    return [r for r in rows if LAYER_OF[r[4]] > LAYER_OF[r[3]]]


def part_graph(rows):
    graph: dict[str, dict[str, list]] = {}
    for row in rows:
        graph.setdefault(row[3], {}).setdefault(row[4], []).append(row)
    return graph


def cycles(graph):
    """Strongly connected components of more than one part (Tarjan), each sorted."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _describe(row) -> str:
    module, line, target, src, dst = row
    return f"{module} (line {line}) imports {target}: {src} (layer {LAYER_OF[src]}) -> {dst} (layer {LAYER_OF[dst]})"


def test_every_part_has_a_layer():
    parts = {part_of(_module_name(p)[0]) for p in PACKAGE.rglob("*.py")}
    missing = sorted(parts - set(LAYER_OF))
    assert not missing, f"funcgrad parts with no layer in tests/test_layers.py LAYERS: {missing}"


def test_no_import_from_a_lower_layer_to_a_higher_one():
    bad = upward_imports(imports())
    assert not bad, "imports that run up the layers:\n" + "\n".join(map(_describe, bad))


def test_parts_import_each_other_without_cycles():
    graph = part_graph(imports())
    found = cycles(graph)
    lines = []
    for comp in found:
        lines.append(f"cycle among {comp}:")
        for src in comp:
            for dst in comp:
                for row in graph.get(src, {}).get(dst, [])[:3]:
                    lines.append("  " + _describe(row))
    assert not found, "\n".join(lines)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from ..numpy import asarray\n", "funcgrad.numpy.asarray"),
        ("def f():\n    from .. import transforms\n", "funcgrad.transforms"),
        ("import funcgrad.compat as torch\n", "funcgrad.compat"),
    ],
)
def test_the_reader_sees_relative_absolute_and_function_level_imports(source, expected):
    node = next(n for n in ast.walk(ast.parse(source)) if isinstance(n, (ast.Import, ast.ImportFrom)))
    assert _targets(node, "funcgrad.primitives.shape", False) == [expected]


def test_a_cycle_between_parts_of_one_layer_is_found():
    graph = {"numpy": {"transforms": []}, "transforms": {"numpy": []}, "primitives": {"core": []}}
    assert cycles(graph) == [["numpy", "transforms"]]
    assert cycles({"numpy": {"primitives": []}, "primitives": {"core": []}}) == []


def main(argv):
    rows = imports()
    for row in upward_imports(rows):
        print("UP   ", _describe(row))
    graph = part_graph(rows)
    for comp in cycles(graph):
        print("CYCLE", comp)
        for src in comp:
            for dst in comp:
                for row in graph.get(src, {}).get(dst, []):
                    print("      ", _describe(row))
    if "--graph" in argv:
        for src in sorted(graph, key=lambda p: (LAYER_OF[p], p)):
            print(f"{src}: " + ", ".join(f"{d}({len(r)})" for d, r in sorted(graph[src].items())))


if __name__ == "__main__":
    main(sys.argv[1:])
