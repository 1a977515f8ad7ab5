"""The tensor side of ``transforms.functional`` (torchvision's ``_functional_tensor``).

Everything is written with compat tensor operations (slicing, ``index_select``,
arithmetic), so a transform of a tensor that requires grad is differentiable, as
in torchvision. Images are ``(..., C, H, W)``; resizing also takes ``(..., H, W)``.
"""

from __future__ import annotations

import math

import numpy as np

from ... import creation, dtypes
from ...tensor import Tensor
from ._functional_pil import check_pad_args, padding_ltrb


def _assert_image(img):
    if not isinstance(img, Tensor) or img.dim() < 2:
        raise TypeError(f"Tensor is not a torch image: expected a (..., H, W) Tensor, got "
                        f"{getattr(img, 'shape', type(img))}")


def get_dimensions(img):
    """[channels, height, width] (channels is 1 for a 2-d tensor)."""
    _assert_image(img)
    channels = 1 if img.dim() == 2 else int(img.shape[-3])
    return [channels, int(img.shape[-2]), int(img.shape[-1])]


def _assert_channels(img, permitted):
    c = get_dimensions(img)[0]
    if c not in permitted:
        raise TypeError(f"Input image tensor permitted channel values are {permitted}, but found {c}")


def hflip(img):
    _assert_image(img)
    return img.flip(-1)


def vflip(img):
    _assert_image(img)
    return img.flip(-2)


def _on_device(n, like):
    """Host indices (or weights) as a tensor on ``like``'s device."""
    return creation.tensor(np.asarray(n), device=like.device)


def pad(img, padding, fill=0, padding_mode="constant"):
    """Negative padding crops; ``edge``/``reflect``/``symmetric`` gather rows and columns as numpy.pad does."""
    _assert_image(img)
    check_pad_args(padding, fill, padding_mode, fill_types=(int, float))
    left, top, right, bottom = padding_ltrb(padding)
    h, w = img.shape[-2], img.shape[-1]
    img = img[..., max(-top, 0):h - max(-bottom, 0), max(-left, 0):w - max(-right, 0)]
    left, top, right, bottom = max(left, 0), max(top, 0), max(right, 0), max(bottom, 0)
    if (left, top, right, bottom) == (0, 0, 0, 0):
        return img
    if padding_mode == "constant":
        from ...nn import functional as F  # noqa: PLC0415

        return F.pad(img, (left, right, top, bottom), value=0 if fill is None else fill)
    rows = np.pad(np.arange(img.shape[-2]), (top, bottom), padding_mode)  # which input row each output row is
    cols = np.pad(np.arange(img.shape[-1]), (left, right), padding_mode)
    return img.index_select(-2, _on_device(rows, img)).index_select(-1, _on_device(cols, img))


def crop(img, top, left, height, width):
    """Areas outside the image are zero-padded, as in torchvision."""
    _assert_image(img)
    _, h, w = get_dimensions(img)
    right, bottom = left + width, top + height
    if left < 0 or top < 0 or right > w or bottom > h:
        ltrb = [max(-left + min(0, right), 0), max(-top + min(0, bottom), 0), max(right - w, 0), max(bottom - h, 0)]
        return pad(img[..., max(top, 0):bottom, max(left, 0):right], ltrb, fill=0)
    return img[..., top:bottom, left:right]


# --- resizing -----------------------------------------------------------------------------
def _triangle(x):
    x = np.abs(x)
    return np.where(x < 1.0, 1.0 - x, 0.0)


def _cubic(x, a):
    x = np.abs(x)
    near = ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0
    far = ((a * x - 5.0 * a) * x + 8.0 * a) * x - 4.0 * a
    return np.where(x < 1.0, near, np.where(x < 2.0, far, 0.0))


def _antialiased_taps(n_in, n_out, kernel, support):
    """Pillow's (and PyTorch's ``antialias=True``) separable filter: for each output pixel,
    input pixels whose centres lie within ``support * max(scale, 1)`` of its centre, with
    normalized weights. Returns (indices, weights), both (n_out, taps)."""
    scale = n_in / n_out
    stretch = max(scale, 1.0)
    reach = support * stretch
    centers = (np.arange(n_out) + 0.5) * scale
    lo = np.maximum((centers - reach + 0.5).astype(np.int64), 0)
    hi = np.minimum((centers + reach + 0.5).astype(np.int64), n_in)
    taps = int((hi - lo).max())
    idx = lo[:, None] + np.arange(taps)[None, :]
    w = np.where(idx < hi[:, None], kernel((idx - centers[:, None] + 0.5) / stretch), 0.0)
    total = w.sum(axis=1, keepdims=True)
    w = np.divide(w, total, out=np.zeros_like(w), where=total != 0)
    return np.minimum(idx, n_in - 1), w


def _interpolation_taps(n_in, n_out, mode):
    """PyTorch's ``interpolate(..., align_corners=False)`` without antialiasing."""
    scale = n_in / n_out
    src = (np.arange(n_out) + 0.5) * scale - 0.5
    if mode == "bilinear":
        src = np.maximum(src, 0.0)
        i0 = np.floor(src).astype(np.int64)
        frac = src - i0
        idx = np.stack([i0, np.minimum(i0 + 1, n_in - 1)], axis=1)
        return idx, np.stack([1.0 - frac, frac], axis=1)
    i0 = np.floor(src).astype(np.int64)
    t = src - i0
    offsets = np.arange(-1, 3)
    idx = np.clip(i0[:, None] + offsets[None, :], 0, n_in - 1)
    return idx, _cubic(t[:, None] - offsets[None, :], -0.75)


def _nearest_index(n_in, n_out, exact):
    scale = np.float32(n_in / n_out)
    pos = np.arange(n_out, dtype=np.float32)
    if exact:
        pos = pos + np.float32(0.5)
    return np.minimum(np.floor(pos * scale).astype(np.int64), n_in - 1)


def _resample(img, axis, n_out, interpolation, antialias):
    n_in = img.shape[axis]
    if n_in == n_out:
        return img
    if interpolation in ("nearest", "nearest-exact"):
        src = _nearest_index(n_in, n_out, interpolation == "nearest-exact")
        return img.index_select(axis, _on_device(src, img))
    if antialias:
        kernel, support = (_triangle, 1.0) if interpolation == "bilinear" else (lambda x: _cubic(x, -0.5), 2.0)
        idx, w = _antialiased_taps(n_in, n_out, kernel, support)
    else:
        idx, w = _interpolation_taps(n_in, n_out, interpolation)
    shape = [1] * img.dim()
    shape[axis] = n_out
    out = None
    for k in range(idx.shape[1]):
        weight = _on_device(w[:, k].astype(img.dtype.dtype).reshape(shape), img)
        term = img.index_select(axis, _on_device(idx[:, k], img)) * weight
        out = term if out is None else out + term
    return out


def resize(img, size, interpolation="bilinear", antialias=True):
    """``size`` is ``[h, w]``; ``interpolation`` one of nearest, nearest-exact, bilinear, bicubic.

    Integer images are resized in float32 and rounded (half to even) back, as torchvision does."""
    _assert_image(img)
    if interpolation not in ("nearest", "nearest-exact", "bilinear", "bicubic"):
        raise ValueError(f"This interpolation mode ({interpolation}) is unsupported with Tensor input; "
                         "use nearest, nearest-exact, bilinear or bicubic (or a PIL image)")
    antialias = bool(antialias) and interpolation in ("bilinear", "bicubic")
    out_dtype = img.dtype
    cast = not out_dtype.is_floating_point and interpolation not in ("nearest", "nearest-exact")
    x = img.to(dtypes.float32) if cast else img
    x = _resample(_resample(x, -2, int(size[0]), interpolation, antialias), -1, int(size[1]), interpolation,
                  antialias)
    if cast:
        if out_dtype == dtypes.uint8 and interpolation == "bicubic":
            x = x.clamp(0, 255)
        x = x.round().to(out_dtype)
    return x


def rgb_to_grayscale(img, num_output_channels=1):
    """0.2989 R + 0.587 G + 0.114 B, cast back to the image's dtype (integers truncate, as torchvision)."""
    if not isinstance(img, Tensor) or img.dim() < 3:
        raise TypeError(f"Input image tensor should have at least 3 dimensions, but found "
                        f"{img.dim() if isinstance(img, Tensor) else type(img)}")
    _assert_channels(img, [1, 3])
    if num_output_channels not in (1, 3):
        raise ValueError("num_output_channels should be either 1 or 3")
    if img.shape[-3] == 3:
        r, g, b = img.unbind(dim=-3)
        gray = (0.2989 * r + 0.587 * g + 0.114 * b).to(img.dtype).unsqueeze(dim=-3)
    else:
        gray = img.clone()
    return gray.expand(img.shape) if num_output_channels == 3 else gray


def _max_value(dtype):
    if dtype == dtypes.bool:
        return 1
    return int(np.iinfo(dtype.dtype).max)


def convert_image_dtype(image, dtype=dtypes.float32):
    """Rescale between integer ranges ([0, max]) and floats ([0, 1]), exactly as torchvision."""
    if not isinstance(image, Tensor):
        raise TypeError("Input img should be Tensor Image")
    dtype = dtypes.as_dtype(dtype)
    if image.dtype == dtype:
        return image
    if image.is_floating_point():
        if dtype.is_floating_point:
            return image.to(dtype)
        if (image.dtype == dtypes.float32 and dtype in (dtypes.int32, dtypes.int64)) or \
                (image.dtype == dtypes.float64 and dtype == dtypes.int64):
            raise RuntimeError(f"The cast from {image.dtype} to {dtype} cannot be performed safely.")
        eps = 1e-3
        return image.mul(float(_max_value(dtype)) + 1.0 - eps).to(dtype)
    input_max = _max_value(image.dtype)
    if dtype.is_floating_point:
        return image.to(dtype) / float(input_max)
    output_max = _max_value(dtype)
    if input_max > output_max:
        factor = (input_max + 1) // (output_max + 1)
        return image.div(factor, rounding_mode="floor").to(dtype)
    factor = (output_max + 1) // (input_max + 1)
    return image.to(dtype) * factor


def normalize(tensor, mean, std, inplace=False):
    """``(tensor - mean) / std`` per channel of a float ``(..., C, H, W)`` tensor."""
    if not isinstance(tensor, Tensor):
        raise TypeError(f"img should be Tensor Image. Got {type(tensor)}")
    if not tensor.is_floating_point():
        raise TypeError(f"Input tensor should be a float tensor. Got {tensor.dtype}.")
    if tensor.dim() < 3:
        raise ValueError("Expected tensor to be a tensor image of size (..., C, H, W). Got tensor.size() = "
                         f"{tensor.size()}")
    mean_t = _per_channel(mean, "mean", tensor)
    std_t = _per_channel(std, "std", tensor)
    if not inplace:
        return (tensor - mean_t) / std_t
    return tensor.sub_(mean_t).div_(std_t)


def _per_channel(v, name, tensor):
    """``mean`` / ``std`` as a tensor of ``tensor``'s dtype and device, shaped (C, 1, 1) when 1-d; checked on
    the host (one value or one per channel; no zero std)."""
    if isinstance(v, Tensor):
        v = v.to(dtype=tensor.dtype, device=tensor.device)
        host = v.detach().cpu().numpy()
    else:
        host = np.asarray(v, dtype=tensor.dtype.dtype)
    channels = tensor.shape[-3]
    if host.ndim > 1 or (host.ndim == 1 and host.shape[0] not in (1, channels)):
        raise RuntimeError(f"Normalize: {name} has {host.shape[0] if host.ndim == 1 else host.shape} values but the "
                           f"image has {channels} channels (shape {tuple(tensor.shape)}); give one value per channel "
                           "(or a single value for all)")
    if name == "std" and (host == 0).any():
        raise ValueError(f"std evaluated to zero after conversion to {tensor.dtype}, leading to division by zero.")
    if isinstance(v, Tensor):
        return v.view(-1, 1, 1) if v.dim() == 1 else v
    return creation.as_tensor(host.reshape(-1, 1, 1) if host.ndim == 1 else host, device=tensor.device)


def resized_output_size(image_hw, size, max_size=None):
    """torchvision's ``_compute_resized_output_size``: ``size`` is [short edge] or [h, w]; returns [h, w]."""
    h, w = image_hw
    short, long = (w, h) if w <= h else (h, w)
    if len(size) == 1:
        requested = size[0]
        new_short, new_long = requested, int(requested * long / short)
        if max_size is not None:
            if max_size <= requested:
                raise ValueError(f"max_size = {max_size} must be strictly greater than the requested size for the "
                                 f"smaller edge size = {size}")
            if new_long > max_size:
                new_short, new_long = int(max_size * new_short / new_long), max_size
        new_w, new_h = (new_short, new_long) if w <= h else (new_long, new_short)
    else:
        new_h, new_w = size[0], size[1]
    if new_h <= 0 or new_w <= 0 or not math.isfinite(new_h + new_w):
        raise ValueError(f"resize: the output size {[new_h, new_w]} for an image of size {[h, w]} must be positive")
    return [int(new_h), int(new_w)]


def _gaussian_matrix(n, ksize, sigma):
    """(n, n) matrix applying torchvision's 1-d Gaussian kernel with reflect padding along an axis of size n."""
    half = (ksize - 1) * 0.5
    x = np.linspace(-half, half, ksize)
    pdf = np.exp(-0.5 * (x / sigma) ** 2)
    kernel = pdf / pdf.sum()
    r = ksize // 2
    src = np.pad(np.arange(n), (r, r), "reflect")  # padded position -> input index
    m = np.zeros((n, n))
    for k in range(ksize):
        np.add.at(m, (src[k:k + n], np.arange(n)), kernel[k])
    return m


def gaussian_blur(img, kernel_size, sigma):
    """Separable Gaussian blur (``kernel_size`` = [kx, ky], ``sigma`` = [sx, sy]) with reflect padding, as
    torchvision's; integer images are blurred in float32 and rounded back."""
    _assert_image(img)
    h, w = int(img.shape[-2]), int(img.shape[-1])
    if kernel_size[0] // 2 >= w or kernel_size[1] // 2 >= h:
        raise ValueError(f"gaussian_blur: kernel_size {list(kernel_size)} needs padding larger than the image "
                         f"(height {h}, width {w}); reflect padding must be smaller than the image")
    cast = not img.is_floating_point()
    x = img.to(dtypes.float32) if cast else img
    npd = x.dtype.dtype
    mx = creation.tensor(_gaussian_matrix(w, kernel_size[0], sigma[0]).astype(npd), device=x.device)
    my = creation.tensor(_gaussian_matrix(h, kernel_size[1], sigma[1]).T.astype(npd), device=x.device)
    out = my @ (x @ mx)
    return out.round().to(img.dtype) if cast else out
