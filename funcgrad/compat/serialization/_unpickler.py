"""The weights-only unpickler and its allowlist (``add_safe_globals``, ``safe_globals``, ...).

``torch.load(..., weights_only=True)`` (the default) reads the payload with
:class:`WeightsOnlyUnpickler`, a subclass of Python's own pickle machine in which
every opcode that can reach code is checked before it runs, as PyTorch's
``_weights_only_unpickler`` does:

- ``GLOBAL``/``STACK_GLOBAL``/``EXT*``: only allowlisted names (plain containers,
  ``Size``, dtypes, devices, and what the user allowlisted) resolve;
- ``REDUCE`` calls, ``NEWOBJ``/``NEWOBJ_EX``/``OBJ``/``INST`` instantiations: only
  allowlisted callables and classes;
- ``BUILD`` (``__setstate__``/``__dict__`` update): only on OrderedDicts and instances
  of allowlisted classes; never on a tensor, so a file cannot rewrite a tensor's
  internal state;
- ``APPEND``/``SETITEM``/``ADDITEMS``: only into lists, dicts and sets.

numpy's pickled arrays and scalars are not allowlisted by default (as in PyTorch);
``add_safe_globals([np._core.multiarray._reconstruct, np.ndarray, np.dtype, ...])``
admits them, and numpy itself refuses object arrays built from raw bytes.
"""

from __future__ import annotations

import functools
import importlib
import io
import pickle
import pickletools

__all__ = ["add_safe_globals", "clear_safe_globals", "get_safe_globals", "get_unsafe_globals_in_checkpoint",
           "safe_globals", "WeightsOnlyUnpickler", "weights_only_message"]

_BUILTIN_SAFE = {
    ("collections", "OrderedDict"), ("collections", "Counter"), ("builtins", "set"), ("builtins", "frozenset"),
    ("builtins", "slice"), ("builtins", "complex"), ("builtins", "bytearray"), ("builtins", "range"),
    ("_codecs", "encode"),  # how protocol 2 pickles bytes
    ("funcgrad.compat.tensor", "Size"), ("funcgrad.compat.dtypes", "as_dtype"), ("funcgrad.compat.device", "device"),
}
_marked: list = []  # what add_safe_globals / safe_globals added: callables or (callable, "module.name")

_UNSAFE_MESSAGE = (
    "In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` from `False` "
    "to `True`. Re-running `torch.load` with `weights_only` set to `False` will likely succeed, but it can "
    "result in arbitrary code execution. Do it only if you got the file from a trusted source.")


def weights_only_message(error):
    """PyTorch's wording around a weights-only refusal."""
    if "was not an allowed global" in str(error):
        return ("Weights only load failed. This file can still be loaded, to do so you have two options, do "
                f"those steps only if you trust the source of the checkpoint.\n\t(1) {_UNSAFE_MESSAGE}\n\t(2) "
                "Alternatively, to load with `weights_only=True` please check the recommended steps in the "
                f"following error message.\n\tWeightsUnpickler error: {error}")
    return f"Weights only load failed. {_UNSAFE_MESSAGE}\n\nWeightsUnpickler error: {error}"


def _check_entry(g):
    if isinstance(g, tuple):
        if len(g) != 2:
            raise ValueError(f"Expected tuple of length 2 (global, str of callable full path), but got tuple of "
                             f"length: {len(g)}")
        if type(g[1]) is not str:
            raise TypeError(f"Expected second item in tuple to be str of callable full path, but got: {type(g[1])}")
    elif not callable(g):
        raise TypeError(f"add_safe_globals expects classes or functions (or (obj, 'module.name') tuples), "
                        f"got {type(g).__name__}")
    return g


def add_safe_globals(safe_globals):
    """Allow these classes/functions (or ``(obj, "module.name")`` pairs) in weights-only loads."""
    for g in safe_globals:
        if _check_entry(g) not in _marked:
            _marked.append(g)


def get_safe_globals():
    """What :func:`add_safe_globals` allowed, in the order it was added."""
    return list(_marked)


def clear_safe_globals():
    """Forget everything :func:`add_safe_globals` allowed."""
    _marked.clear()


class safe_globals:  # noqa: N801 - PyTorch's name
    """``with torch.serialization.safe_globals([Cls]):`` allows ``Cls`` for the loads inside the block."""

    def __init__(self, safe_globals):
        self.safe_globals = [_check_entry(g) for g in safe_globals]
        self._added = []

    def __enter__(self):
        self._added = [g for g in self.safe_globals if g not in _marked]
        _marked.extend(self._added)
        return self

    def __exit__(self, *exc):
        for g in self._added:
            if g in _marked:
                _marked.remove(g)
        return False


def _user_allowed():
    out = {}
    for g in _marked:
        if isinstance(g, tuple):
            out[g[1]] = g[0]
        else:
            out[f"{g.__module__}.{g.__qualname__}"] = g
    return out


def _resolve(module, name):
    """The object a weights-only payload may refer to as ``module.name``, or UnpicklingError."""
    full = f"{module}.{name}"
    user = _user_allowed()
    if full in user:
        return user[full]
    if (module, name) in _BUILTIN_SAFE:
        return getattr(importlib.import_module(module), name)
    shown = name if module == "builtins" else full
    raise pickle.UnpicklingError(
        f"Unsupported global: GLOBAL {shown} was not an allowed global by default. Please use "
        f"`torch.serialization.add_safe_globals([{shown}])` or the `torch.serialization.safe_globals([{shown}])` "
        "context manager to allowlist this global if you trust this class/function.")


@functools.lru_cache(maxsize=1)
def _builtin_allowed():
    return tuple(getattr(importlib.import_module(m), n) for m, n in _BUILTIN_SAFE)


def _allowed_callables():
    """The builtin allowlist (resolved once) and what the user allowlisted now."""
    return list(_builtin_allowed()) + list(_user_allowed().values())


def _is_allowed(obj, allowed):
    return any(obj is a for a in allowed)


_P = pickle._Unpickler  # the pure-Python machine: its opcodes can be overridden one by one


class WeightsOnlyUnpickler(_P):
    """Python's unpickler with every code-reaching opcode checked against the allowlist."""

    dispatch = dict(_P.dispatch)

    def find_class(self, module, name):
        return _resolve(module, name)

    def _require(self, obj, what):
        if not _is_allowed(obj, _allowed_callables()):
            raise pickle.UnpicklingError(
                f"Trying to {what} {obj!r:.80}, which is not an allowed global; use "
                "torch.serialization.add_safe_globals to allow it if you trust the file")
        return obj

    def load_reduce(self):
        args = self.stack.pop()
        func = self._require(self.stack[-1], "call reduce for unrecognized function")
        self.stack[-1] = func(*args)
    dispatch[pickle.REDUCE[0]] = load_reduce

    def load_newobj(self):
        args = self.stack.pop()
        cls = self._require(self.stack.pop(), "create a new object of")
        self.append(cls.__new__(cls, *args))
    dispatch[pickle.NEWOBJ[0]] = load_newobj

    def load_newobj_ex(self):
        kwargs = self.stack.pop()
        args = self.stack.pop()
        cls = self._require(self.stack.pop(), "create a new object of")
        self.append(cls.__new__(cls, *args, **kwargs))
    dispatch[pickle.NEWOBJ_EX[0]] = load_newobj_ex

    def load_obj(self):
        args = self.pop_mark()
        cls = self._require(args.pop(0), "instantiate")
        self._instantiate(cls, args)
    dispatch[pickle.OBJ[0]] = load_obj

    def load_build(self):
        state = self.stack[-1]
        inst = self.stack[-2]
        kind = type(inst)
        if not _is_allowed(kind, _allowed_callables()):
            raise pickle.UnpicklingError(
                "Can only build OrderedDict, Size, device or types allowlisted via `add_safe_globals`, but got "
                f"{kind.__module__}.{kind.__qualname__} (a file cannot set the state of a tensor)")
        _P.load_build(self)
    dispatch[pickle.BUILD[0]] = load_build

    def _target(self, allowed, op):
        target = self.stack[-1]
        if not isinstance(target, allowed):
            raise pickle.UnpicklingError(f"{op} into a {type(target).__name__} (only into "
                                         f"{'/'.join(t.__name__ for t in allowed)})")

    def load_append(self):
        obj = self.stack[-2]
        if type(obj) is not list:
            raise pickle.UnpicklingError(f"Can only append to lists, but got {type(obj).__name__}")
        _P.load_append(self)
    dispatch[pickle.APPEND[0]] = load_append

    def load_appends(self):
        items = self.pop_mark()
        if type(self.stack[-1]) is not list:
            raise pickle.UnpicklingError(f"Can only extend lists, but got {type(self.stack[-1]).__name__}")
        self.stack[-1].extend(items)
    dispatch[pickle.APPENDS[0]] = load_appends

    def load_setitem(self):
        if not isinstance(self.stack[-3], dict):
            raise pickle.UnpicklingError(f"Can only set items of dicts, but got {type(self.stack[-3]).__name__}")
        _P.load_setitem(self)
    dispatch[pickle.SETITEM[0]] = load_setitem

    def load_setitems(self):
        items = self.pop_mark()
        self._target((dict,), "SETITEMS")
        d = self.stack[-1]
        for i in range(0, len(items), 2):
            d[items[i]] = items[i + 1]
    dispatch[pickle.SETITEMS[0]] = load_setitems

    def load_additems(self):
        items = self.pop_mark()
        self._target((set,), "ADDITEMS")
        self.stack[-1].update(items)
    dispatch[pickle.ADDITEMS[0]] = load_additems


_STRING_OPS = {"SHORT_BINUNICODE", "BINUNICODE", "BINUNICODE8", "UNICODE", "SHORT_BINSTRING", "BINSTRING", "STRING"}
_PUT_OPS = {"BINPUT", "LONG_BINPUT", "PUT"}
_GET_OPS = {"BINGET", "LONG_BINGET", "GET"}
_NO_PUSH = {"FRAME", "PROTO", "STOP", "MARK", "POP", "POP_MARK"}


def _globals_in(data):
    """Every ``module.name`` a pickle refers to (GLOBAL, and STACK_GLOBAL of strings pushed directly or
    through the memo), read with pickletools without running anything."""
    found, pushed, memo = [], [], {}
    for op, arg, _ in pickletools.genops(io.BytesIO(data)):
        name = op.name
        if name == "GLOBAL":
            found.append(arg.replace(" ", ".", 1))
        elif name == "STACK_GLOBAL" and len(pushed) >= 2 and all(isinstance(x, str) for x in pushed[-2:]):
            found.append(f"{pushed[-2]}.{pushed[-1]}")
        if name in _STRING_OPS:
            pushed.append(arg)
        elif name == "MEMOIZE":
            memo[len(memo)] = pushed[-1] if pushed else None
        elif name in _PUT_OPS:
            memo[arg] = pushed[-1] if pushed else None
        elif name in _GET_OPS:
            pushed.append(memo.get(arg))
        elif name not in _NO_PUSH:
            pushed.append(None)
    return found


def get_unsafe_globals_in_checkpoint(f):
    """The ``module.name`` globals a checkpoint refers to that a weights-only load would refuse
    (read without running anything)."""
    from . import read_payload  # noqa: PLC0415

    payload = read_payload(f)
    allowed = {f"{m}.{n}" for m, n in _BUILTIN_SAFE} | set(_user_allowed())
    return sorted({g for g in _globals_in(payload) if g not in allowed})
