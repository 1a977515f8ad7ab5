"""make_grid / save_image against a grid laid out here with numpy."""

import numpy as np
import pytest
from PIL import Image

import funcgrad.compat as torch
from funcgrad.compat.vision.utils import make_grid, save_image


def expected_grid(batch, nrow, padding, pad_value):
    """torchvision's layout: min(nrow, n) columns, ceil(n / columns) rows, ``padding`` around every cell."""
    n, c, h, w = batch.shape
    if c == 1:
        batch = np.repeat(batch, 3, axis=1)
    cols = min(nrow, n)
    rows = -(-n // cols)
    grid = np.full((batch.shape[1], rows * (h + padding) + padding, cols * (w + padding) + padding), pad_value,
                   batch.dtype)
    for k in range(n):
        top, left = (k // cols) * (h + padding) + padding, (k % cols) * (w + padding) + padding
        grid[:, top:top + h, left:left + w] = batch[k]
    return grid


@pytest.mark.parametrize("n, c, nrow, padding, pad_value", [
    (5, 1, 2, 1, 0.5), (7, 3, 8, 2, 0.0), (6, 3, 3, 0, 1.0), (4, 1, 1, 3, 0.25), (9, 4, 4, 2, 0.0)])
def test_make_grid_layout(n, c, nrow, padding, pad_value):
    batch = np.random.default_rng(n).random((n, c, 4, 3)).astype(np.float32)
    out = make_grid(torch.from_numpy(batch), nrow=nrow, padding=padding, pad_value=pad_value)
    ref = expected_grid(batch, nrow, padding, pad_value)
    assert tuple(out.shape) == ref.shape and out.dtype == torch.float32
    np.testing.assert_array_equal(out.numpy(), ref)


def test_make_grid_lists_single_images_and_errors():
    imgs = [torch.rand(1, 3, 2) for _ in range(3)]
    ref = expected_grid(np.stack([t.numpy() for t in imgs]), 8, 2, 0.0)
    np.testing.assert_array_equal(make_grid(imgs).numpy(), ref)
    one = torch.rand(1, 4, 5)  # a single image: 3 channels, no padding
    np.testing.assert_array_equal(make_grid(one).numpy(), np.repeat(one.numpy(), 3, axis=0))
    assert tuple(make_grid(torch.rand(4, 5)).shape) == (3, 4, 5)
    assert tuple(make_grid(torch.rand(1, 3, 4, 5)).shape) == (3, 4, 5)
    with pytest.raises(TypeError, match="tensor or list of tensors expected"):
        make_grid(np.zeros((2, 3, 4, 4)))
    with pytest.raises(TypeError, match="a list containing"):
        make_grid([torch.rand(3, 2, 2), np.zeros((3, 2, 2))])
    with pytest.raises(TypeError, match="value_range has to be a tuple"):
        make_grid(torch.rand(2, 3, 2, 2), normalize=True, value_range=[0, 1])


def test_make_grid_normalize():
    batch = np.random.default_rng(0).normal(size=(3, 3, 2, 2)).astype(np.float32) * 4
    x = torch.from_numpy(batch.copy())
    whole = make_grid(x, normalize=True, padding=0, nrow=3)
    scaled = (batch - batch.min()) / (batch.max() - batch.min())
    np.testing.assert_allclose(whole.numpy(), expected_grid(scaled, 3, 0, 0.0), rtol=1e-5, atol=1e-6)
    each = make_grid(x, normalize=True, scale_each=True, padding=0, nrow=3)
    per = np.stack([(b - b.min()) / (b.max() - b.min()) for b in batch])
    np.testing.assert_allclose(each.numpy(), expected_grid(per, 3, 0, 0.0), rtol=1e-5, atol=1e-6)
    fixed = make_grid(x, normalize=True, value_range=(-1.0, 1.0), padding=0, nrow=3)
    np.testing.assert_allclose(fixed.numpy(), expected_grid((np.clip(batch, -1, 1) + 1) / 2, 3, 0, 0.0), atol=1e-6)
    np.testing.assert_array_equal(x.numpy(), batch)  # the input is left alone


def test_make_grid_does_not_record_gradients():
    x = torch.rand(2, 3, 2, 2, requires_grad=True)
    assert not make_grid(x).requires_grad


def test_save_image_png_pixels(tmp_path):
    batch = np.random.default_rng(3).random((5, 1, 3, 4)).astype(np.float32) * 1.2 - 0.1  # some out of [0, 1]
    path = tmp_path / "grid.png"
    save_image(torch.from_numpy(batch), str(path), nrow=3, padding=1, pad_value=0.75)
    with Image.open(path) as img:
        img.load()
    assert img.format == "PNG" and img.mode == "RGB"
    grid = expected_grid(batch, 3, 1, 0.75)
    ref = np.floor(np.clip(grid * np.float32(255) + np.float32(0.5), 0, 255)).astype(np.uint8).transpose(1, 2, 0)
    assert img.size == (ref.shape[1], ref.shape[0]) == (3 * 5 + 1, 2 * 4 + 1)
    np.testing.assert_array_equal(np.asarray(img), ref)
    with open(tmp_path / "g.bin", "wb") as f:  # a file object needs format=
        save_image(torch.from_numpy(batch), f, format="png")
    with Image.open(tmp_path / "g.bin") as again:
        assert again.format == "PNG"
