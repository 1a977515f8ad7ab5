"""funcgrad.compat.vision.io: image files to uint8 C x H x W tensors and back, against Pillow."""

import numpy as np
import pytest
from PIL import Image

import funcgrad.compat as torch
from funcgrad.compat.vision import io as tvio
from funcgrad.compat.vision.io import ImageReadMode


def rgb(h=5, w=6, seed=0):
    return np.random.default_rng(seed).integers(0, 256, (h, w, 3), dtype=np.uint8)


def test_read_image_modes(tmp_path):
    a = rgb()
    Image.fromarray(a).save(tmp_path / "x.png")
    t = tvio.read_image(str(tmp_path / "x.png"))
    assert t.dtype == torch.uint8 and tuple(t.shape) == (3, 5, 6)
    np.testing.assert_array_equal(t.numpy(), a.transpose(2, 0, 1))
    gray = tvio.read_image(tmp_path / "x.png", ImageReadMode.GRAY)
    np.testing.assert_array_equal(gray.numpy()[0], np.asarray(Image.fromarray(a).convert("L")))
    rgba = tvio.read_image(tmp_path / "x.png", "RGBA")
    assert tuple(rgba.shape) == (4, 5, 6) and (rgba.numpy()[3] == 255).all()
    assert tuple(tvio.read_image(tmp_path / "x.png", ImageReadMode.GRAY_ALPHA).shape) == (2, 5, 6)
    Image.fromarray(a).convert("P").save(tmp_path / "p.png")  # palette images expand to RGB
    pal = Image.open(tmp_path / "p.png")
    np.testing.assert_array_equal(tvio.read_image(tmp_path / "p.png").numpy(),
                                  np.asarray(pal.convert("RGB")).transpose(2, 0, 1))
    pal.close()
    Image.fromarray(a[:, :, 0]).save(tmp_path / "g.png")
    np.testing.assert_array_equal(tvio.read_image(tmp_path / "g.png").numpy(), a[None, :, :, 0])
    with pytest.raises(ValueError, match="Unknown image read mode"):
        tvio.read_image(tmp_path / "x.png", "CMYK")


def test_encode_decode_and_write(tmp_path):
    a = rgb()
    t = torch.from_numpy(a.transpose(2, 0, 1).copy())
    png = tvio.encode_png(t)
    assert png.dtype == torch.uint8 and png.dim() == 1 and bytes(png.numpy()[:4]) == b"\x89PNG"
    np.testing.assert_array_equal(tvio.decode_image(png).numpy(), t.numpy())  # lossless
    tvio.write_png(t, str(tmp_path / "w.png"))
    with Image.open(tmp_path / "w.png") as img:
        np.testing.assert_array_equal(np.asarray(img), a)
    tvio.write_jpeg(t, tmp_path / "w.jpg", quality=95)
    jpg = tvio.read_image(tmp_path / "w.jpg")
    with Image.open(tmp_path / "w.jpg") as img:
        np.testing.assert_array_equal(jpg.numpy(), np.asarray(img).transpose(2, 0, 1))  # Pillow's decoder
    assert tuple(tvio.decode_jpeg(tvio.encode_jpeg(t)).shape) == (3, 5, 6)
    raw = tvio.read_file(tmp_path / "w.png")
    assert bytes(raw.numpy()) == (tmp_path / "w.png").read_bytes()
    tvio.write_file(tmp_path / "copy.png", raw)
    assert (tmp_path / "copy.png").read_bytes() == (tmp_path / "w.png").read_bytes()


def test_io_errors(tmp_path):
    with pytest.raises(RuntimeError, match="not an image Pillow can decode"):
        tvio.decode_image(torch.tensor([1, 2, 3], dtype=torch.uint8))
    with pytest.raises(TypeError, match="1-d uint8 tensor"):
        tvio.decode_image(torch.zeros(2, 2))
    with pytest.raises(RuntimeError, match=r"encode_png: expected a uint8 tensor of shape \(1 or 3, H, W\)"):
        tvio.encode_png(torch.zeros(3, 4, 4))
    with pytest.raises(ValueError, match="between 1 and 100"):
        tvio.encode_jpeg(torch.zeros(3, 4, 4, dtype=torch.uint8), quality=0)
    with pytest.raises(FileNotFoundError):
        tvio.read_image(tmp_path / "missing.png")
