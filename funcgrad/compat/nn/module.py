"""nn.Module: PyTorch's stateful module (registration, traversal, state_dict, hooks, repr)."""

from __future__ import annotations

from collections import OrderedDict, namedtuple

from ..autograd.grad_mode import is_grad_enabled, no_grad
from ..autograd.graph import OpError as _op_error
from ..utils.hooks import RemovableHandle
from ..tensor import Tensor
from .parameter import Buffer, Parameter

__all__ = ["Module"]


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _addindent(s, n):
    lines = s.split("\n")
    if len(lines) == 1:
        return s
    return lines[0] + "\n" + "\n".join(" " * n + line for line in lines[1:])


class Module:
    """Base class of every layer: assign Parameters and Modules as attributes; define ``forward``."""

    training: bool
    _version = 1

    def __init__(self, *args, **kwargs):
        if args or kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() got unexpected arguments {args} {kwargs}")
        d = self.__dict__
        d["training"] = True
        d["_parameters"] = OrderedDict()
        d["_buffers"] = OrderedDict()
        d["_non_persistent_buffers_set"] = set()
        d["_modules"] = OrderedDict()
        d["_forward_hooks"] = []
        d["_forward_pre_hooks"] = []
        d["_backward_hooks"] = []
        d["_backward_pre_hooks"] = []

    def forward(self, *input):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')

    # --- attribute registration ------------------------------------------------------
    def _check_init(self):
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign module before Module.__init__() call")

    def __setattr__(self, name, value):
        d = self.__dict__
        params = d.get("_parameters")
        if isinstance(value, Parameter):
            self._check_init()
            self._remove_from(name, d, d["_buffers"], d["_modules"])
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{type(value).__name__}' as parameter '{name}' "
                                "(torch.nn.Parameter or None expected)")
            params[name] = None
        elif isinstance(value, Buffer):
            self._check_init()
            self._remove_from(name, d, params, d["_modules"])
            d["_buffers"].pop(name, None)
            self.register_buffer(name, value, persistent=value.persistent)
        elif isinstance(value, Module):
            self._check_init()
            self._remove_from(name, d, params, d["_buffers"])
            d["_modules"][name] = value
        elif d.get("_modules") is not None and name in d["_modules"]:
            if value is not None:
                raise TypeError(f"cannot assign '{type(value).__name__}' as child module '{name}' "
                                "(torch.nn.Module or None expected)")
            d["_modules"][name] = None
        elif d.get("_buffers") is not None and name in d["_buffers"]:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"cannot assign '{type(value).__name__}' as buffer '{name}' "
                                "(torch.Tensor or None expected)")
            d["_buffers"][name] = value
        else:
            object.__setattr__(self, name, value)

    @staticmethod
    def _remove_from(name, *dicts):
        for dd in dicts:
            if name in dd:
                del dd[name]

    def __getattr__(self, name):
        d = self.__dict__
        for key in ("_parameters", "_buffers", "_modules"):
            sub = d.get(key)
            if sub is not None and name in sub:
                return sub[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name):
        d = self.__dict__
        for key in ("_parameters", "_buffers", "_modules"):
            if name in d.get(key, ()):
                del d[key][name]
                d["_non_persistent_buffers_set"].discard(name)
                return
        object.__delattr__(self, name)

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._parameters) | set(self._buffers) | set(self._modules))

    def _check_name(self, name, kind):
        if not isinstance(name, str):
            raise TypeError(f"{kind} name should be a string. Got {type(name).__name__}")
        if "." in name:
            raise KeyError(f'{kind} name can\'t contain "."')
        if name == "":
            raise KeyError(f'{kind} name can\'t be empty string ""')

    def register_parameter(self, name, param):
        self._check_init()
        self._check_name(name, "parameter")
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"attribute '{name}' already exists")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{type(param).__name__}' object to parameter '{name}' "
                            "(torch.nn.Parameter or None required)")
        if param is not None and param.grad_fn is not None:
            raise ValueError(f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must be "
                             f"created explicitly. To express '{name}' as a function of another Tensor, compute "
                             "the value in the forward() method.")
        self._parameters[name] = param

    def register_buffer(self, name, tensor, persistent=True):
        self._check_init()
        self._check_name(name, "buffer")
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{type(tensor).__name__}' object to buffer '{name}' "
                            "(torch Tensor or None required)")
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name, module):
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{type(module).__name__} is not a Module subclass")
        self._check_name(name, "module")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        self._modules[name] = module

    register_module = add_module

    def get_submodule(self, target):
        mod = self
        for item in target.split(".") if target else ():
            if item not in mod._modules:
                raise AttributeError(f"{type(mod).__name__} has no attribute `{item}`")
            mod = mod._modules[item]
        return mod

    def get_parameter(self, target):
        mod_path, _, name = target.rpartition(".")
        mod = self.get_submodule(mod_path)
        if name not in mod._parameters:
            raise AttributeError(f"`{name}` is not an nn.Parameter")
        return mod._parameters[name]

    # --- traversal -------------------------------------------------------------------
    def _named_members(self, get, prefix="", recurse=True, remove_duplicate=True):
        memo = set()
        mods = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) if recurse else [(prefix, self)]
        for mprefix, m in mods:
            for k, v in get(m):
                if v is None or (remove_duplicate and id(v) in memo):
                    continue
                if remove_duplicate:
                    memo.add(id(v))
                yield (mprefix + "." if mprefix else "") + k, v

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        return self._named_members(lambda m: m._parameters.items(), prefix, recurse, remove_duplicate)

    def parameters(self, recurse=True):
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        return self._named_members(lambda m: m._buffers.items(), prefix, recurse, remove_duplicate)

    def buffers(self, recurse=True):
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    def named_children(self):
        memo = set()
        for name, m in self._modules.items():
            if m is not None and id(m) not in memo:
                memo.add(id(m))
                yield name, m

    def children(self):
        for _, m in self.named_children():
            yield m

    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        if memo is None:
            memo = set()
        if id(self) in memo:
            return
        if remove_duplicate:
            memo.add(id(self))
        yield prefix, self
        for name, m in self._modules.items():
            if m is None:
                continue
            yield from m.named_modules(memo, prefix + ("." if prefix else "") + name, remove_duplicate)

    def modules(self):
        for _, m in self.named_modules():
            yield m

    def apply(self, fn):
        """Call ``fn`` on every submodule (children first, then self); returns self."""
        for m in self.children():
            m.apply(fn)
        fn(self)
        return self

    # --- modes and gradients ------------------------------------------------------------
    def train(self, mode=True):
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for m in self.children():
            m.train(mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        for p in self.parameters():
            if p.grad is None:
                continue
            if set_to_none:
                p.grad = None
            else:
                p.grad = p.grad.detach()
                p.grad.zero_()

    # --- device and dtype ---------------------------------------------------------------------
    def _apply(self, fn):
        for m in self.children():
            m._apply(fn)
        with no_grad():
            for p in self._parameters.values():
                if p is None:
                    continue
                new = fn(p)
                if new is not p:
                    p.data = new
                    p.__dict__.pop("_base", None)
                if p._grad is not None:
                    p._grad = fn(p._grad)
            for k, b in self._buffers.items():
                if b is not None:
                    self._buffers[k] = fn(b)
        return self

    def to(self, *args, **kwargs):
        """``to(device)``, ``to(dtype)``, ``to(tensor)``, ``to(device, dtype)``; only floating tensors change dtype."""
        device, dtype = kwargs.pop("device", None), kwargs.pop("dtype", None)
        kwargs.pop("non_blocking", None)
        memory_format = kwargs.pop("memory_format", None)
        if kwargs:
            raise TypeError(f"to() got unexpected keyword arguments {sorted(kwargs)}")
        from ..dtypes import dtype as _dtype  # noqa: PLC0415

        for a in args:
            if isinstance(a, Tensor):
                device, dtype = a.device, a.dtype
            elif isinstance(a, _dtype):
                dtype = a
            else:
                device = a
        if dtype is not None and not (dtype.is_floating_point or dtype.is_complex):
            raise TypeError("nn.Module.to only accepts floating point or complex dtypes, but got desired "
                            f"dtype={dtype}")

        def convert(t):
            fmt = memory_format if t._value.ndim in (4, 5) else None  # PyTorch re-lays out 4-d and 5-d tensors only
            if t.is_floating_point() or t.is_complex():
                return t.to(device=device, dtype=dtype, memory_format=fmt)
            return t.to(device=device, memory_format=fmt) if device is not None or fmt is not None else t

        return self._apply(convert)

    def cpu(self):
        return self._apply(lambda t: t.cpu())

    def cuda(self, device=None):
        return self._apply(lambda t: t.cuda(device))

    def _cast(self, dt):
        return self._apply(lambda t: t.to(dt) if t.is_floating_point() else t)

    def float(self):
        from .. import float32  # noqa: PLC0415

        return self._cast(float32)

    def double(self):
        from .. import float64  # noqa: PLC0415

        return self._cast(float64)

    def half(self):
        from .. import float16  # noqa: PLC0415

        return self._cast(float16)

    def bfloat16(self):
        from .. import bfloat16  # noqa: PLC0415

        return self._cast(bfloat16)

    def type(self, dst_type):
        return self._apply(lambda t: t.type(dst_type))

    def share_memory(self):
        return self

    # --- calling -----------------------------------------------------------------------
    def register_forward_pre_hook(self, hook):
        """``hook(module, args)``; a non-None return replaces the input (a single value is wrapped)."""
        return RemovableHandle(self._forward_pre_hooks, hook)

    def register_forward_hook(self, hook):
        """``hook(module, args, output)``; a non-None return replaces the output."""
        return RemovableHandle(self._forward_hooks, hook)

    def register_full_backward_hook(self, hook):
        """``hook(module, grad_input, grad_output)`` when the inputs' gradients are computed."""
        return RemovableHandle(self._backward_hooks, hook)

    def register_full_backward_pre_hook(self, hook):
        """``hook(module, grad_output)`` when the outputs' gradients are computed."""
        return RemovableHandle(self._backward_pre_hooks, hook)

    def register_backward_hook(self, hook):
        import warnings  # noqa: PLC0415

        warnings.warn("register_backward_hook is deprecated: it is run as register_full_backward_hook "
                      "(grad_input is the gradient of the module's inputs)", FutureWarning, stacklevel=2)
        return self.register_full_backward_hook(hook)

    def __call__(self, *args, **kwargs):
        for hook in tuple(self._forward_pre_hooks):
            r = hook(self, args)
            if r is not None:
                args = r if isinstance(r, tuple) else (r,)
        bw = None
        if (self._backward_hooks or self._backward_pre_hooks) and is_grad_enabled():
            from .backward_hooks import BackwardHookState  # noqa: PLC0415

            bw = BackwardHookState(self)
            args = bw.setup_inputs(args)
        try:
            out = self.forward(*args, **kwargs)
        except ValueError as e:
            if type(e) is not ValueError:
                raise
            # funcgrad.nn's checks raise numpy's class; PyTorch's layers raise RuntimeError (OpError is both)
            raise _op_error(str(e)) from e
        for hook in tuple(self._forward_hooks):
            r = hook(self, args, out)
            if r is not None:
                out = r
        return out if bw is None else bw.setup_outputs(out)

    # --- state_dict -----------------------------------------------------------------------
    def state_dict(self, *args, destination=None, prefix="", keep_vars=False):
        """Parameters and persistent buffers by dotted name (a shared layer under every name);
        the tensors share storage with the model (detached unless ``keep_vars``)."""
        if args:
            destination = args[0]
            if len(args) > 1:
                prefix = args[1]
        if destination is None:
            destination = OrderedDict()
        for name, p in self._parameters.items():
            if p is not None:
                destination[prefix + name] = p if keep_vars else p.detach()
        for name, b in self._buffers.items():
            if b is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = b if keep_vars else b.detach()
        for name, m in self._modules.items():
            if m is not None:
                m.state_dict(destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars)
        return destination

    def _load_own(self, state_dict, prefix, assign, missing, errors):
        local = [(n, p) for n, p in self._parameters.items() if p is not None]
        local += [(n, b) for n, b in self._buffers.items()
                  if b is not None and n not in self._non_persistent_buffers_set]
        for name, cur in local:
            key = prefix + name
            if key not in state_dict:
                missing.append(key)
                continue
            src = state_dict[key]
            if not isinstance(src, Tensor):
                errors.append(f'While copying the parameter named "{key}", expected torch.Tensor or Tensor-like '
                              f"object from checkpoint but received {type(src)}")
                continue
            if tuple(src.shape) != tuple(cur.shape):
                errors.append(f"size mismatch for {key}: copying a param with shape {src.shape} from checkpoint, "
                              f"the shape in current model is {cur.shape}.")
                continue
            with no_grad():
                if assign:
                    if name in self._parameters:
                        self._parameters[name] = src if isinstance(src, Parameter) else \
                            Parameter(src, cur.requires_grad)
                    else:
                        self._buffers[name] = src
                else:
                    cur.copy_(src)

    def load_state_dict(self, state_dict, strict=True, assign=False):
        """Copy tensors from ``state_dict`` into the parameters and buffers (in place).

        ``strict``: missing or unexpected keys raise RuntimeError (PyTorch's message); size
        mismatches always raise.  Returns ``(missing_keys, unexpected_keys)``."""
        if not isinstance(state_dict, dict):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        from .lazy import materialize_for_load  # noqa: PLC0415

        materialize_for_load(self, state_dict)  # lazy modules take their shapes from the state_dict
        missing, errors, expected = [], [], set()
        for prefix_name, m in self.named_modules(remove_duplicate=False):
            prefix = prefix_name + "." if prefix_name else ""
            m._load_own(state_dict, prefix, assign, missing, errors)
            expected.update(prefix + n for n, p in m._parameters.items() if p is not None)
            expected.update(prefix + n for n, b in m._buffers.items()
                            if b is not None and n not in m._non_persistent_buffers_set)
        unexpected = [k for k in state_dict if k not in expected]
        if strict:
            if unexpected:
                keys = ", ".join(f'"{k}"' for k in unexpected)
                errors.insert(0, f"Unexpected key(s) in state_dict: {keys}. ")
            if missing:
                keys = ", ".join(f'"{k}"' for k in missing)
                errors.insert(0, f"Missing key(s) in state_dict: {keys}. ")
        if errors:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                type(self).__name__, "\n\t".join(errors)))
        return _IncompatibleKeys(missing, unexpected)

    # --- printing ---------------------------------------------------------------------------
    def extra_repr(self):
        return ""

    def _get_name(self):
        return type(self).__name__

    def __repr__(self):
        extra = self.extra_repr()
        lines = extra.split("\n") if extra else []
        for name, m in self._modules.items():
            lines.append("(" + name + "): " + _addindent(repr(m), 2))
        main = self._get_name() + "("
        if lines:
            if len(lines) == 1 and not self._modules:
                main += lines[0]
            else:
                main += "\n  " + "\n  ".join(lines) + "\n"
        return main + ")"

    def __setstate__(self, state):
        self.__dict__.update(state)
