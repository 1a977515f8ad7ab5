"""``torch.layout`` and its values ``torch.strided`` / ``torch.sparse_coo`` / ``torch.sparse_csr``.

A layout is a ``str`` subclass, so code that compared layouts with their names
(``t.layout == "torch.strided"``) keeps working, while ``isinstance(t.layout, torch.layout)`` holds.
"""

from __future__ import annotations


class layout(str):
    """``torch.layout``: how a tensor's elements are stored (strided, or a sparse format)."""

    __slots__ = ()

    def __repr__(self):
        return str.__str__(self)

    def __reduce__(self):
        return (_by_name, (str.__str__(self),))


def _by_name(name):
    return _LAYOUTS[name]


strided = layout("torch.strided")
sparse_coo = layout("torch.sparse_coo")
sparse_csr = layout("torch.sparse_csr")
_LAYOUTS = {str.__str__(v): v for v in (strided, sparse_coo, sparse_csr)}
