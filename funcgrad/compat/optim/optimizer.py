"""torch.optim.Optimizer: a stateful shell over funcgrad.optim's update rules.

Each step gathers, per parameter group, the parameters that have a gradient,
runs the group's ``funcgrad.optim`` transformation (built from the group's
current options, so ``group['lr'] = ...`` takes effect) on them and their
per-parameter state, and adds the updates in place under ``no_grad``.  State
is kept per parameter under PyTorch's names (``momentum_buffer``, ``step``,
``exp_avg``, ...), so ``state_dict()`` has PyTorch's layout.
"""

from __future__ import annotations

import copy
from collections import defaultdict

import numpy as np

from ...array import Array
from ..autograd.grad_mode import enable_grad, no_grad
from ..tensor import Tensor, wrap

__all__ = ["Optimizer", "required"]


class _Required:
    def __repr__(self):
        return "<required parameter>"


required = _Required()


class Optimizer:
    """Base class: ``param_groups`` (dicts with ``params`` and options), ``state`` (per parameter)."""

    #: (funcgrad.optim state field, PyTorch state key) pairs; "count" is the step count
    _fields: tuple = ()
    _state_cls = None
    #: funcgrad.optim state fields that are one float per rule (like the count), kept per parameter as 0-d tensors
    _scalars: tuple = ()

    def __init__(self, params, defaults):
        self.defaults = defaults
        self.state = defaultdict(dict)
        self.param_groups = []
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of Tensors or dicts, "
                            f"but got {params.type()}")
        groups = list(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for g in groups:
            self.add_param_group(g)

    def __getstate__(self):
        return {"defaults": self.defaults, "state": self.state, "param_groups": self.param_groups}

    def __setstate__(self, state):
        self.__dict__.update(state)

    def __repr__(self):
        s = type(self).__name__ + " ("
        for i, g in enumerate(self.param_groups):
            s += f"\nParameter Group {i}"
            for k in sorted(g):
                if k != "params":
                    s += f"\n    {k}: {g[k]}"
        return s + "\n)"

    def add_param_group(self, param_group):
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group).__name__}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            params = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, but the ordering "
                            "of tensors in sets will change between runs. Please use a list instead.")
        else:
            params = list(params)
        names = None
        if params and all(isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], str) for p in params):
            names, params = [n for n, _ in params], [p for _, p in params]  # model.named_parameters()
        for p in params:
            if not isinstance(p, Tensor):
                raise TypeError(f"optimizer can only optimize Tensors, but one of the params is {type(p).__name__}")
            if not p.is_leaf:
                raise ValueError("can't optimize a non-leaf Tensor")
        group = dict(param_group, params=params)
        if names is not None:
            group["param_names"] = names
        for name, default in self.defaults.items():
            if default is required and name not in group:
                raise ValueError(f"parameter group didn't specify a value of required optimization parameter {name}")
            group.setdefault(name, default)
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        if len({id(p) for p in params}) != len(params):
            import warnings  # noqa: PLC0415

            warnings.warn("optimizer contains a parameter group with duplicate parameters; in future, this will "
                          "cause an error", UserWarning, stacklevel=3)
        if seen & {id(p) for p in params}:
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(group)

    def zero_grad(self, set_to_none=True):
        for g in self.param_groups:
            for p in g["params"]:
                if p.grad is not None:
                    if set_to_none:
                        p.grad = None
                    else:
                        p.grad = p.grad.detach()
                        p.grad.zero_()

    # --- the update -------------------------------------------------------------------
    def _rule(self, group):
        """The group's funcgrad.optim GradientTransformation (subclasses)."""
        raise NotImplementedError(f"{type(self).__name__} must define _rule(group)")

    def _count(self, st):
        return int(st["step"]) if "step" in st else 0

    def _pack(self, sts, params):
        """Per-parameter state dicts -> the rule's NamedTuple of lists (a fresh init where empty)."""
        cls = self._state_cls
        fields = dict(self._fields)
        values = []
        for f in cls._fields:
            if f == "count":
                values.append(self._count(sts[0]))
            elif f in self._scalars:
                values.append(float(sts[0][fields[f]]))
            else:
                vals = [st.get(fields[f]) for st in sts]
                values.append(None if all(v is None for v in vals) else [_arr(v) for v in vals])
        return cls(*values)

    def _unpack(self, new, sts):
        fields = dict(self._fields)
        for i, st in enumerate(sts):
            for f in new._fields:
                v = getattr(new, f)
                if f == "count":
                    if "count" in fields:
                        st[fields["count"]] = _step_tensor(v)
                elif f in self._scalars:
                    st[fields[f]] = _scalar_tensor(v)
                elif f in fields and v is not None and v[i] is not None:
                    st[fields[f]] = wrap(v[i]._value)

    @no_grad()
    def step(self, closure=None):
        """One update of every parameter that has a gradient; ``closure`` re-evaluates the loss."""
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        for group in self.param_groups:
            live = [p for p in group["params"] if p.grad is not None]
            if not live:
                continue
            if any(p.grad.is_sparse for p in live):
                raise RuntimeError(f"{type(self).__name__} does not support sparse gradients")
            rule = self._rule(group)
            buckets = {}
            for p in live:
                st = self.state[p]
                if not st:
                    self._init_state(rule, p, st)
                key = (self._count(st),) + tuple(float(st[k]) for f, k in self._fields if f in self._scalars)
                buckets.setdefault(key, []).append(p)
            for ps in buckets.values():
                sts = [self.state[p] for p in ps]
                # the rule runs on funcgrad Arrays over the same buffers (the functional path's cost)
                updates, new = rule.update([_arr(p.grad) for p in ps], self._pack(sts, ps), [_arr(p) for p in ps])
                self._unpack(new, sts)
                for p, u in zip(ps, updates):
                    p.add_(wrap(u._value))
        return loss

    def _init_state(self, rule, p, st):
        s0 = rule.init([_arr(p)])
        fields = dict(self._fields)
        for f in s0._fields:
            if f == "count":
                if "count" in fields:
                    st[fields["count"]] = _step_tensor(0)
            elif f in self._scalars:
                st[fields[f]] = _scalar_tensor(getattr(s0, f))
            elif f in fields and getattr(s0, f) is not None and getattr(s0, f)[0] is not None:
                st[fields[f]] = wrap(getattr(s0, f)[0]._value)

    # --- state_dict -------------------------------------------------------------------
    def state_dict(self):
        """``{'state': {index: {...}}, 'param_groups': [{options..., 'params': [indices]}]}`` (PyTorch's layout)."""
        index, groups, i = {}, [], 0
        for g in self.param_groups:
            ids = []
            for p in g["params"]:
                if id(p) not in index:
                    index[id(p)] = i
                    i += 1
                ids.append(index[id(p)])
            groups.append(dict({k: v for k, v in g.items() if k != "params"}, params=ids))
        state = {index[id(p)]: v for p, v in self.state.items() if id(p) in index}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict):
        state_dict = copy.deepcopy(state_dict)
        saved = state_dict["param_groups"]
        if len(saved) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        for g, s in zip(self.param_groups, saved):
            if len(g["params"]) != len(s["params"]):
                raise ValueError("loaded state dict contains a parameter group that doesn't match the size of "
                                 "optimizer's group")
        by_index = {i: p for g, s in zip(self.param_groups, saved) for i, p in zip(s["params"], g["params"])}
        self.state = defaultdict(dict)
        scalars = {"step"} | {k for f, k in self._fields if f in self._scalars}  # kept as saved
        for i, st in state_dict["state"].items():
            p = by_index.get(int(i))
            if p is None:
                continue
            self.state[p] = {k: v if k in scalars else _cast_state(v, p) for k, v in st.items()}
        for g, s in zip(self.param_groups, saved):
            g.update({k: v for k, v in s.items() if k != "params"})


def _step_tensor(count):
    """PyTorch's ``step`` state: a float32 0-d tensor."""
    return wrap(np.array(float(count), dtype=np.float32))


def _scalar_tensor(value):
    """A per-rule float state (NAdam's ``mu_product``): a 0-d float64 tensor (PyTorch keeps it in the default
    dtype, float32; float64 keeps the compat path equal to the functional one)."""
    return wrap(np.array(float(value), dtype=np.float64))


def _arr(t):
    """A funcgrad Array over a Tensor's buffer (no copy, outside the compat graph)."""
    return Array._from_buffer(t._value)


def _cast_state(value, param):
    if not isinstance(value, Tensor):
        return value
    if value.is_floating_point():
        return value.to(dtype=param.dtype, device=param.device)
    return value.to(device=param.device)
