"""device_put as a primitive: moving data between devices is differentiable."""

from __future__ import annotations

from .. import backend
from ..core import Primitive, ShapedArray
from ._batching import passthrough_rule


def _device_put_impl(x, device, src):
    return backend.put_buffer(x, device)


device_put_p = Primitive(
    "device_put", _device_put_impl, lambda x, device, src: ShapedArray(x.shape, x.dtype),
)
# the cotangent goes back to where the input came from
device_put_p.defvjp(lambda g, ans, x, device, src: device_put_p.bind(g, device=src, src=device),
                    unsaved_args=(0,), saves_out=False)
device_put_p.defjvp(lambda t, ans, x, device, src: device_put_p.bind(t, device=device, src=src))
device_put_p.batch = passthrough_rule(device_put_p)
