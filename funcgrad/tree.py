"""Pytrees: nested tuples, lists, dicts, None, namedtuples and registered classes.

Built on optree (a maintained C++ pytree library, the one PyTorch's own
``torch.utils._pytree`` can delegate to): flattening is in C, and we keep our
registrations in a private namespace so they never clash with other libraries.
``None`` is an empty subtree (as in JAX); arrays, scalars and every
unregistered object are leaves.  Dict keys are flattened in sorted order.
"""

from __future__ import annotations

import dataclasses

import optree

__all__ = [
    "tree_flatten", "tree_unflatten", "tree_map", "tree_leaves", "tree_structure",
    "tree_flatten_with_path", "tree_map_with_path", "register_pytree_node",
    "register_dataclass", "keystr", "TreeDef", "structure_mismatch", "check_same_structure",
    "tree_all", "tree_reduce",
]

NAMESPACE = "funcgrad"
TreeDef = optree.PyTreeSpec


def tree_flatten(tree, is_leaf=None):
    """tree -> (leaves, treedef)."""
    return optree.tree_flatten(tree, is_leaf=is_leaf, none_is_leaf=False, namespace=NAMESPACE)


def tree_unflatten(treedef, leaves):
    return optree.tree_unflatten(treedef, leaves)


def tree_leaves(tree, is_leaf=None):
    return optree.tree_leaves(tree, is_leaf=is_leaf, none_is_leaf=False, namespace=NAMESPACE)


def tree_structure(tree, is_leaf=None):
    return optree.tree_structure(tree, is_leaf=is_leaf, none_is_leaf=False, namespace=NAMESPACE)


def tree_map(f, tree, *rest, is_leaf=None):
    """Apply f leaf-wise; ``rest`` trees must have tree's structure (error shows the path)."""
    if rest:
        for i, r in enumerate(rest):
            check_same_structure(tree, r, what=f"tree_map: tree {i + 1}", is_leaf=is_leaf)
    return optree.tree_map(f, tree, *rest, is_leaf=is_leaf, none_is_leaf=False, namespace=NAMESPACE)


def tree_all(tree):
    return all(tree_leaves(tree))


def tree_reduce(f, tree, *initial):
    """Fold f over the leaves (left to right), optionally from an initial value."""
    leaves = tree_leaves(tree)
    if len(initial) > 1:
        raise TypeError("tree_reduce takes at most one initial value")
    if not leaves and not initial:
        raise ValueError("tree_reduce of a tree with no leaves needs an initial value")
    acc, rest = (initial[0], leaves) if initial else (leaves[0], leaves[1:])
    for leaf in rest:
        acc = f(acc, leaf)
    return acc


def tree_flatten_with_path(tree, is_leaf=None):
    """tree -> (list of (path, leaf), treedef); a path is a tuple of keys/indices."""
    paths, leaves, treedef = optree.tree_flatten_with_path(
        tree, is_leaf=is_leaf, none_is_leaf=False, namespace=NAMESPACE
    )
    return list(zip(paths, leaves)), treedef


def tree_map_with_path(f, tree, *rest, is_leaf=None):
    return optree.tree_map_with_path(f, tree, *rest, is_leaf=is_leaf, none_is_leaf=False, namespace=NAMESPACE)


def keystr(path) -> str:
    """('params', 0, 'w') -> "['params'][0]['w']"; attribute keys print as .name."""
    out = []
    for k in path:
        if isinstance(k, _Attr):
            out.append(f".{k}")
        else:
            out.append(f"[{k!r}]")
    return "".join(out) or "<root>"


class _Attr(str):
    """A path key that is an attribute name (dataclass fields)."""


def register_pytree_node(cls, flatten, unflatten):
    """``flatten(obj) -> (children, aux)``; ``unflatten(aux, children) -> obj``."""
    optree.register_pytree_node(
        cls,
        lambda obj: tuple(flatten(obj)),
        lambda aux, children: unflatten(aux, children),
        namespace=NAMESPACE,
    )
    return cls


def register_dataclass(cls=None, *, data_fields=None, meta_fields=None):
    """Register a dataclass as a pytree node.

    Data fields are children; meta (static) fields are part of the tree
    structure: by default the fields whose ``metadata`` has ``static=True``.
    Usable as a decorator, with or without arguments.
    """
    def register(cls):
        if not dataclasses.is_dataclass(cls):
            raise TypeError(f"register_dataclass: {cls.__name__} is not a dataclass")
        fields = [f for f in dataclasses.fields(cls) if f.init]
        if data_fields is None:
            meta = set(meta_fields or ()) | {f.name for f in fields if f.metadata.get("static", False)}
            data = [f.name for f in fields if f.name not in meta]
        else:
            data = list(data_fields)
            meta = set(meta_fields or ())
        meta_names = [f.name for f in fields if f.name in meta]

        def flatten(obj):
            return (
                [getattr(obj, n) for n in data],
                tuple(getattr(obj, n) for n in meta_names),
                tuple(_Attr(n) for n in data),
            )

        def unflatten(aux, children):
            obj = object.__new__(cls)
            for n, v in zip(data, children):
                object.__setattr__(obj, n, v)
            for n, v in zip(meta_names, aux):
                object.__setattr__(obj, n, v)
            return obj

        optree.register_pytree_node(cls, flatten, unflatten, namespace=NAMESPACE)
        return cls

    return register if cls is None else register(cls)


def structure_mismatch(a, b, is_leaf=None):
    """A message locating the first difference between two trees' structures, or None."""
    sa, sb = tree_structure(a, is_leaf), tree_structure(b, is_leaf)
    if sa == sb:
        return None
    return _first_difference(a, b, (), is_leaf)


def _first_difference(a, b, path, is_leaf):
    la = optree.treespec_is_leaf(tree_structure(a, is_leaf), strict=True)
    lb = optree.treespec_is_leaf(tree_structure(b, is_leaf), strict=True)
    where = keystr(path)
    if la and lb:
        return None
    if la != lb:
        return f"at {where}: one is a leaf ({_describe(a if la else b)}), the other a {_describe(b if la else a)}"
    ca, ma, ka = _one_level(a, is_leaf)
    cb, mb, kb = _one_level(b, is_leaf)
    if type(a) is not type(b):
        return f"at {where}: node types differ ({type(a).__name__} vs {type(b).__name__})"
    if ka != kb:
        if len(ka) != len(kb) and all(isinstance(k, int) for k in ka + kb):
            return f"at {where}: {type(a).__name__} lengths differ ({len(ka)} vs {len(kb)})"
        return f"at {where}: keys differ ({list(ka)} vs {list(kb)})"
    if ma != mb:
        return f"at {where}: static (metadata) fields differ ({ma!r} vs {mb!r})"
    for k, x, y in zip(ka, ca, cb):
        d = _first_difference(x, y, path + (k,), is_leaf)
        if d:
            return d
    return f"at {where}: structures differ"


def _one_level(x, is_leaf):
    children, meta, entries = optree.tree_flatten_one_level(
        x, is_leaf=is_leaf, none_is_leaf=False, namespace=NAMESPACE
    )[:3]
    return list(children), meta, tuple(entries)


def _describe(x):
    if x is None:
        return "None"
    if hasattr(x, "shape") and hasattr(x, "dtype"):
        return f"{type(x).__name__} {x.dtype}{list(x.shape)}"
    return type(x).__name__


def check_same_structure(a, b, what="trees", is_leaf=None):
    msg = structure_mismatch(a, b, is_leaf)
    if msg:
        raise ValueError(
            f"{what} does not match the expected tree structure {msg}.\n"
            f"  expected: {tree_structure(a, is_leaf)}\n  got:      {tree_structure(b, is_leaf)}"
        )
