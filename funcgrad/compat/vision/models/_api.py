"""torchvision.models' weights API: ``Weights``/``WeightsEnum``, the model registry
(``get_model``, ``get_model_builder``, ``get_model_weights``, ``get_weight``, ``list_models``)
and the legacy ``pretrained=`` argument.

Nothing is ever downloaded: asking a builder for pretrained weights (a ``WeightsEnum``
member, its name, ``"DEFAULT"`` or ``pretrained=True``) raises a RuntimeError that says how
to load a state_dict file instead.
"""

from __future__ import annotations

import fnmatch
import functools
import os
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

__all__ = ["Weights", "WeightsEnum", "register_model", "get_model", "get_model_builder", "get_model_weights",
           "get_weight", "list_models", "handle_legacy_interface", "weights_enum", "register_builder",
           "check_no_weights"]


@dataclass
class Weights:
    """One set of pretrained weights: where torchvision downloads it from, its preprocessing
    preset (``None`` here: funcgrad.compat.vision has no presets) and its metadata."""

    url: str
    transforms: Callable | None = None
    meta: dict = field(default_factory=dict)


def no_download_error(weights):
    """The error a builder raises when asked for pretrained weights."""
    file = os.path.basename(weights.url) if weights.url else "checkpoint.pth"
    stem = file.split("-")[0].split(".")[0]
    return RuntimeError(
        f"funcgrad.compat.vision downloads nothing, so the pretrained weights {weights!r} ({weights.url}) cannot be "
        "loaded. Build the model with weights=None and load a state_dict file instead: "
        "model.load_state_dict(torch.load(path)). torch.load reads files written by funcgrad.compat's torch.save "
        "and .safetensors files; to convert torchvision's checkpoint, run where PyTorch is installed: "
        f"`from safetensors.torch import save_file; save_file(torch.load('{file}'), '{stem}.safetensors')`.")


class WeightsEnum(Enum):
    """Base of the per-architecture weight enums (``ResNet18_Weights.IMAGENET1K_V1``, ``.DEFAULT``)."""

    @classmethod
    def verify(cls, obj: Any) -> Any:
        """None, a member, or a member's name (``"IMAGENET1K_V1"``, ``"ResNet18_Weights.IMAGENET1K_V1"``)."""
        if obj is not None:
            if type(obj) is str:
                obj = cls[obj.replace(cls.__name__ + ".", "")]
            elif not isinstance(obj, cls):
                raise TypeError(f"Invalid Weight class provided; expected {cls.__name__} but received "
                                f"{obj.__class__.__name__}.")
        return obj

    def get_state_dict(self, *args: Any, **kwargs: Any):
        raise no_download_error(self)

    def __repr__(self):
        return f"{self.__class__.__name__}.{self._name_}"

    @property
    def url(self):
        return self.value.url

    @property
    def transforms(self):
        return self.value.transforms

    @property
    def meta(self):
        return self.value.meta


def check_no_weights(weights):
    """What every builder does with its verified ``weights``: None builds; anything else raises."""
    if weights is not None:
        raise no_download_error(weights)


# --- the legacy interface: positional arguments and pretrained= ------------------------------------------

_KEYWORD_ONLY = ("weights", "progress")


def _quoted(names):
    q = [f"'{n}'" for n in names]
    return q[0] if len(q) == 1 else ", ".join(q[:-1]) + " and " + q[-1]


def handle_legacy_interface(default_weights):
    """torchvision's builder decorator: ``builder(True)`` and ``builder(pretrained=...)`` map to
    ``weights=default_weights`` or ``weights=None`` with torchvision's deprecation warnings."""

    def outer(builder):
        @functools.wraps(builder)
        def inner(*args, **kwargs):
            if args:
                if len(args) > len(_KEYWORD_ONLY):
                    raise TypeError(f"{builder.__name__}() takes at most {len(_KEYWORD_ONLY)} positional "
                                    f"arguments ({len(args)} given)")
                names = _KEYWORD_ONLY[:len(args)]
                warnings.warn(f"Using {_quoted(names)} as positional parameter(s) is deprecated since 0.13 and may "
                              "be removed in the future. Please use keyword parameter(s) instead.", UserWarning,
                              stacklevel=2)
                for name, value in zip(names, args):
                    if name in kwargs:
                        raise TypeError(f"{builder.__name__}() got multiple values for argument '{name}'")
                    kwargs[name] = value
            sentinel = object()
            weights_arg = kwargs.get("weights", sentinel)
            if (("weights" in kwargs or "pretrained" in kwargs) and not isinstance(weights_arg, WeightsEnum)
                    and not (isinstance(weights_arg, str) and weights_arg != "legacy") and weights_arg is not None):
                positional = weights_arg is not sentinel
                pretrained = kwargs.pop("weights") if positional else kwargs["pretrained"]
                kwargs.pop("pretrained", None)
                new = default_weights if pretrained else None
                if not positional:
                    warnings.warn("The parameter 'pretrained' is deprecated since 0.13 and may be removed in the "
                                  "future, please use 'weights' instead.", UserWarning, stacklevel=2)
                msg = ("Arguments other than a weight enum or `None` for 'weights' are deprecated since 0.13 and may "
                       f"be removed in the future. The current behavior is equivalent to passing `weights={new}`.")
                if pretrained:
                    msg += (f" You can also use `weights={type(new).__name__}.DEFAULT` to get the most up-to-date "
                            "weights.")
                warnings.warn(msg, UserWarning, stacklevel=2)
                kwargs["weights"] = new
            return builder(**kwargs)

        inner.weights_enum = type(default_weights)
        return inner

    return outer


# --- the registry -------------------------------------------------------------------------------------

BUILTIN_MODELS: dict = {}


def register_model(name=None):
    """Decorator: registers a builder under ``name`` (default: its function name)."""

    def wrapper(fn):
        key = name if name is not None else fn.__name__
        if key in BUILTIN_MODELS:
            raise ValueError(f"An entry is already registered under the name '{key}'.")
        BUILTIN_MODELS[key] = fn
        return fn

    return wrapper


def _as_list(patterns):
    return [patterns] if isinstance(patterns, str) else list(patterns)


def list_models(module=None, include=None, exclude=None):
    """Sorted names of the registered builders (of ``module`` only, if given), filtered by
    fnmatch patterns: the union of ``include`` matches, minus every ``exclude`` match."""
    names = {k for k, fn in BUILTIN_MODELS.items()
             if module is None or fn.__module__.rsplit(".", 1)[0] == module.__name__}
    models = set()
    if include:
        for pattern in _as_list(include):
            models |= set(fnmatch.filter(names, pattern))
    else:
        models = names
    for pattern in _as_list(exclude or ()):
        models -= set(fnmatch.filter(names, pattern))
    return sorted(models)


def get_model_builder(name: str) -> Callable:
    """The builder registered as ``name`` (case-insensitive); ValueError if there is none."""
    name = name.lower()
    try:
        return BUILTIN_MODELS[name]
    except KeyError:
        raise ValueError(f"Unknown model {name}") from None


def get_model(name: str, **config: Any):
    """``get_model("resnet18", num_classes=10)``: the builder called with ``config``."""
    return get_model_builder(name)(**config)


def get_model_weights(name):
    """The weights enum of a builder (given by name or as the function)."""
    fn = get_model_builder(name) if isinstance(name, str) else name
    enum = getattr(fn, "weights_enum", None)
    if enum is None:
        raise ValueError(f"The weights enum for the specific method couldn't be retrieved: {fn!r}")
    return enum


def get_weight(name: str):
    """``get_weight("ResNet50_Weights.IMAGENET1K_V2")``: the enum member (nothing is loaded)."""
    try:
        enum_name, value_name = name.split(".")
    except ValueError:
        raise ValueError(f"Invalid weight name provided: '{name}'.") from None
    from .. import models  # noqa: PLC0415

    enum = getattr(models, enum_name, None)
    if not (isinstance(enum, type) and issubclass(enum, WeightsEnum)):
        raise ValueError(f"The weight enum '{enum_name}' for the specific method couldn't be retrieved.")
    return enum[value_name]


_URL = "https://download.pytorch.org/models/"


def weights_enum(name, module, entries, default, min_size=(1, 1)):
    """A ``WeightsEnum`` subclass ``name`` with one member per ``entries`` item
    (``member: (torchvision's file name, parameter count)``) and ``DEFAULT`` aliasing ``default``."""
    members = {m: Weights(url=_URL + f, meta={"num_params": n, "min_size": min_size})
               for m, (f, n) in entries.items()}
    members["DEFAULT"] = members[default]
    return WeightsEnum(name, members, module=module)


def register_builder(name, module, builder, doc, model_class):
    """Name a builder made by a factory, document it and register it as ``name``."""
    builder.__name__ = builder.__qualname__ = name
    builder.__module__ = module
    builder.__doc__ = (f"{doc}\n\n``weights``: None (random initialisation) only; pretrained weights raise "
                       f"(funcgrad downloads nothing). ``kwargs`` go to :class:`{model_class}`.")
    return register_model()(builder)
