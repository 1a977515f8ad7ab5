"""``F.affine_grid`` and ``F.grid_sample`` (2-d, bilinear / nearest; zeros / border / reflection padding).

Composed of compat Tensor operations (a gather of the four taps), so ``grid_sample`` is differentiable
in both ``input`` and ``grid`` (through the bilinear weights and the unnormalization), to any order.
The nearest-neighbour mode has no gradient in ``grid`` (zero almost everywhere), as in PyTorch.
"""

from __future__ import annotations

from .. import creation as _c

FUNCTIONS = ["affine_grid", "grid_sample"]

GRID_SAMPLE_INTERPOLATION_MODES = {"bilinear": 0, "nearest": 1, "bicubic": 2}
GRID_SAMPLE_PADDING_MODES = {"zeros": 0, "border": 1, "reflection": 2}


def _base_coords(n, align_corners, like):
    if align_corners:
        return _c.linspace(-1.0, 1.0, n, dtype=like.dtype, device=like.device) if n > 1 else _c.zeros(
            1, dtype=like.dtype, device=like.device)
    return (_c.arange(n, dtype=like.dtype, device=like.device) * 2.0 + 1.0) / n - 1.0


def affine_grid(theta, size, align_corners=None):
    """Sampling grid (N, H, W, 2) [or (N, D, H, W, 3)] of ``theta`` (N, 2, 3) [(N, 3, 4)] applied to the
    normalized output coordinates of ``size`` (N, C, H, W) [(N, C, D, H, W)]; last axis (x, y[, z])."""
    align_corners = bool(align_corners)
    size = tuple(int(s) for s in size)
    if not theta.is_floating_point():
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    nd = len(size) - 2
    if nd not in (2, 3):
        raise NotImplementedError(f"affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
                                  f"respectively. Got size {list(size)}.")
    if theta.dim() != 3 or tuple(theta.shape[1:]) != (nd, nd + 1):
        raise ValueError(f"Expected a batch of {nd}D affine matrices of shape Nx{nd}x{nd + 1} for size "
                         f"{list(size)}. Got {list(theta.shape)}.")
    if theta.shape[0] != size[0]:
        raise ValueError(f"affine_grid: theta has batch {theta.shape[0]} but size has batch {size[0]}")
    if min(size[2:]) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {list(size)}")
    spatial = size[2:]  # (H, W) or (D, H, W); coordinates come in reverse order (x first)
    from ..ops_shape import stack  # noqa: PLC0415

    cols = []
    for k in reversed(range(nd)):  # x varies along the last spatial axis, y the one before, ...
        view = [1] * nd
        view[k] = spatial[k]
        cols.append(_base_coords(spatial[k], align_corners, theta).reshape(view).expand(spatial))
    cols.append(_c.ones(spatial, dtype=theta.dtype, device=theta.device))
    base = stack(cols, dim=-1)  # spatial + (nd + 1,): (x, y[, z], 1)
    flat = base.reshape(1, -1, nd + 1)
    grid = flat.matmul(theta.transpose(1, 2))  # (N, prod(spatial), nd)
    return grid.reshape((size[0],) + spatial + (nd,))


def _unnormalize(coord, size, align_corners):
    if align_corners:
        return (coord + 1.0) / 2.0 * (size - 1)
    return ((coord + 1.0) * size - 1.0) / 2.0


def _reflect(coord, twice_low, twice_high):
    if twice_low == twice_high:
        return coord * 0.0
    lo = twice_low / 2.0
    span = (twice_high - twice_low) / 2.0
    c = (coord - lo).abs()
    extra = c.fmod(span)
    flips = (c / span).floor().detach()
    even = (flips.fmod(2.0) == 0).to(coord.dtype)
    return even * (extra + lo) + (1.0 - even) * (span - extra + lo)


def _clip(c, size):
    """clamp to [0, size - 1] with PyTorch's gradient: zero on and beyond either bound."""
    inside = ((c > 0) & (c < size - 1)).to(c.dtype)
    return c * inside + (c.detach() >= size - 1).to(c.dtype) * (size - 1)


def _source_coord(coord, size, padding_mode, align_corners):
    c = _unnormalize(coord, size, align_corners)
    if padding_mode == "border":
        c = _clip(c, size)
    elif padding_mode == "reflection":
        c = _reflect(c, 0, 2 * (size - 1)) if align_corners else _reflect(c, -1, 2 * size - 1)
        c = _clip(c, size)
    return c


def _tap(flat_input, xi, yi, w, h):
    """input[n, :, yi, xi] for integer coordinate tensors (N, Ho, Wo), 0 where out of range -> (N, C, Ho, Wo)."""
    n, ch = flat_input.shape[:2]
    valid = ((xi >= 0) & (xi < w) & (yi >= 0) & (yi < h)).to(flat_input.dtype)
    idx = (yi.clamp(0, h - 1) * w + xi.clamp(0, w - 1)).reshape(n, 1, -1).expand(n, ch, -1)
    vals = flat_input.gather(2, idx).reshape((n, ch) + tuple(xi.shape[1:]))
    return vals, valid.unsqueeze(1)


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    """Sample ``input`` (N, C, H, W) at ``grid`` (N, Ho, Wo, 2) normalized (x, y) locations -> (N, C, Ho, Wo)."""
    if mode not in ("bilinear", "nearest"):
        raise ValueError(f"nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', "
                         f"but got: '{mode}' ('bicubic' is not supported by funcgrad.compat)")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError(f"nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
                         f"'reflection', but got: '{padding_mode}'")
    if input.dim() != 4:
        raise ValueError(f"grid_sample: funcgrad.compat supports 4-D (N, C, H, W) input, got {input.dim()}-D "
                         f"input of shape {list(input.shape)}")
    if grid.dim() != 4 or grid.shape[-1] != 2 or grid.shape[0] != input.shape[0]:
        raise RuntimeError(f"grid_sample(): expected grid of shape (N={input.shape[0]}, H_out, W_out, 2) for input "
                           f"{list(input.shape)}, but got grid with sizes {list(grid.shape)}")
    if input.dtype != grid.dtype:
        raise RuntimeError(f"grid_sample(): expected input and grid to have the same dtype, but input has "
                           f"{input.dtype} and grid has {grid.dtype}")
    align_corners = bool(align_corners)
    n, ch, h, w = (int(s) for s in input.shape)
    ix = _source_coord(grid[..., 0], w, padding_mode, align_corners)
    iy = _source_coord(grid[..., 1], h, padding_mode, align_corners)
    flat = input.reshape(n, ch, h * w)
    if mode == "nearest":
        vals, valid = _tap(flat, ix.detach().round().long(), iy.detach().round().long(), w, h)
        return vals * valid
    x0f, y0f = ix.detach().floor(), iy.detach().floor()
    x0, y0 = x0f.long(), y0f.long()
    wx1, wy1 = ix - x0f, iy - y0f
    wx0, wy0 = 1.0 - wx1, 1.0 - wy1
    out = 0
    for xi, yi, wt in ((x0, y0, wx0 * wy0), (x0 + 1, y0, wx1 * wy0), (x0, y0 + 1, wx0 * wy1),
                       (x0 + 1, y0 + 1, wx1 * wy1)):
        vals, valid = _tap(flat, xi, yi, w, h)
        out = out + vals * (valid * wt.unsqueeze(1))
    return out
