"""torch.onnx: importable; exporting raises RuntimeError naming the function (funcgrad has no ONNX exporter)."""

from __future__ import annotations


def _unsupported(name):
    def fn(*args, **kwargs):
        raise RuntimeError(f"torch.onnx.{name} is not supported by funcgrad.compat (it has no ONNX exporter)")
    fn.__name__ = fn.__qualname__ = name
    return fn


export = _unsupported("export")
dynamo_export = _unsupported("dynamo_export")


def is_in_onnx_export():
    return False


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise AttributeError(f"torch.onnx.{name} is not supported by funcgrad.compat (it has no ONNX exporter)")
