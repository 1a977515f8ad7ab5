"""torch.func's module helpers: functional_call, stack_module_state, replace_all_batch_norm_modules_.

``functional_call`` swaps the given tensors into the module's parameter and buffer dicts for one
call (they may be the TracedTensors of a torch.func transformation), and restores them after.
"""

from __future__ import annotations

__all__ = ["functional_call", "stack_module_state", "replace_all_batch_norm_modules_"]


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


def replace_all_batch_norm_modules_(root):
    """Stop every BatchNorm in ``root`` from tracking running statistics (in place), for vmap."""
    for m in root.modules():
        if hasattr(m, "track_running_stats") and hasattr(m, "running_mean"):
            m.running_mean = None
            m.running_var = None
            m.num_batches_tracked = None
            m.track_running_stats = False
    return root
