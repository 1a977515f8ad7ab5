"""ColorJitter / RandomRotation / RandomAffine / RandomErasing and their functional forms, against numpy,
colorsys and Pillow references."""

import colorsys

import numpy as np
import pytest
from PIL import Image, ImageEnhance

import funcgrad.compat as torch
from funcgrad.compat.vision import transforms as T
from funcgrad.compat.vision.transforms import functional as TF

IM = T.InterpolationMode


def rgb(h=6, w=7, seed=0):
    return np.random.default_rng(seed).integers(0, 256, (h, w, 3), dtype=np.uint8)


def chw(a):
    return torch.from_numpy(a.transpose(2, 0, 1).copy())


def gray(x):
    return 0.2989 * x[0] + 0.587 * x[1] + 0.114 * x[2]


def test_adjustments_on_float_tensors_match_the_formulas():
    x = torch.rand(3, 4, 5)
    a = x.numpy()
    np.testing.assert_allclose(TF.adjust_brightness(x, 1.7).numpy(), np.clip(1.7 * a, 0, 1), rtol=1e-6)
    mean = gray(a).mean()
    np.testing.assert_allclose(TF.adjust_contrast(x, 0.4).numpy(), np.clip(0.4 * a + 0.6 * mean, 0, 1), rtol=1e-5)
    np.testing.assert_allclose(TF.adjust_saturation(x, 1.5).numpy(), np.clip(1.5 * a - 0.5 * gray(a), 0, 1),
                               rtol=1e-5, atol=1e-6)
    hue = TF.adjust_hue(x, -0.3).numpy()
    ref = np.empty_like(a)
    for i in range(4):
        for j in range(5):
            h, s, v = colorsys.rgb_to_hsv(*a[:, i, j])
            ref[:, i, j] = colorsys.hsv_to_rgb((h - 0.3) % 1.0, s, v)
    np.testing.assert_allclose(hue, ref, atol=1e-5)
    one = torch.rand(1, 3, 3)
    assert TF.adjust_hue(one, 0.2) is one and TF.adjust_saturation(one, 0.2) is one
    with pytest.raises(ValueError, match=r"hue_factor \(0.7\) is not in \[-0.5, 0.5\]"):
        TF.adjust_hue(x, 0.7)
    with pytest.raises(ValueError, match="brightness_factor .* is not non-negative"):
        TF.adjust_brightness(x, -1)


def test_adjustments_on_pil_images_and_uint8_tensors():
    a = rgb()
    img = Image.fromarray(a)
    for fn, enhancer in ((TF.adjust_brightness, ImageEnhance.Brightness), (TF.adjust_contrast, ImageEnhance.Contrast),
                         (TF.adjust_saturation, ImageEnhance.Color)):
        np.testing.assert_array_equal(np.asarray(fn(img, 1.3)), np.asarray(enhancer(img).enhance(1.3)))
    # uint8 tensors: blended in float, clamped to 255 and truncated back, as torchvision
    out = TF.adjust_brightness(chw(a), 1.3)
    assert out.dtype == torch.uint8
    np.testing.assert_array_equal(out.numpy(), np.clip(np.float32(1.3) * a.transpose(2, 0, 1), 0, 255).astype(np.uint8))
    hsv = np.asarray(Image.fromarray(a).convert("HSV")).copy()
    hsv[:, :, 0] += np.uint8(int(0.25 * 255))
    ref = np.asarray(Image.fromarray(hsv, mode="HSV").convert("RGB"))
    np.testing.assert_array_equal(np.asarray(TF.adjust_hue(img, 0.25)), ref)
    # uint8 tensors: through float32 HSV, back with convert_image_dtype (x 255.999, truncated)
    f = a.astype(np.float64) / 255
    hue = np.array([[colorsys.hsv_to_rgb((colorsys.rgb_to_hsv(*f[i, j])[0] + 0.25) % 1.0,
                                         *colorsys.rgb_to_hsv(*f[i, j])[1:]) for j in range(7)] for i in range(6)])
    expected = np.floor(hue * 255.999).astype(int).transpose(2, 0, 1)
    assert np.abs(TF.adjust_hue(chw(a), 0.25).numpy().astype(int) - expected).max() <= 1


@pytest.mark.parametrize("mode", ["nearest", "bilinear"])
def test_rotate_quarter_turn_is_exact(mode):
    a = rgb(5, 5)
    np.testing.assert_array_equal(TF.rotate(chw(a), 90, IM(mode)).numpy(), np.rot90(a, 1).transpose(2, 0, 1))
    np.testing.assert_array_equal(np.asarray(TF.rotate(Image.fromarray(a), 90, IM(mode))), np.rot90(a, 1))
    np.testing.assert_array_equal(TF.rotate(chw(a), -180, IM(mode)).numpy(), np.rot90(a, 2).transpose(2, 0, 1))


def test_rotate_fill_expand_and_gradient():
    a = np.ones((1, 8, 8), np.float32)
    out = TF.rotate(torch.from_numpy(a), 45, fill=[0.25]).numpy()[0]
    assert out[0, 0] == out[-1, -1] == 0.25 and out[4, 4] == 1.0  # corners came from outside the image
    t = TF.rotate(chw(rgb(6, 10)), 30, expand=True)
    assert tuple(t.shape[1:])[::-1] == TF.rotate(Image.fromarray(rgb(6, 10)), 30, expand=True).size
    x = torch.rand(1, 6, 6, requires_grad=True)
    TF.rotate(x, 90, IM.BILINEAR).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.ones((1, 6, 6)), atol=1e-6)  # a permutation of the pixels
    with pytest.raises(ValueError, match="unsupported with Tensor input"):
        TF.rotate(x, 10, IM.BICUBIC)


def test_affine_translate_and_identity():
    a = rgb(5, 6)
    t = chw(a)
    np.testing.assert_array_equal(TF.affine(t, 0.0, [0, 0], 1.0, 0.0).numpy(), t.numpy())
    shifted = TF.affine(t, 0.0, [2, 1], 1.0, 0.0, fill=[9.0, 9.0, 9.0]).numpy()
    ref = np.full_like(a.transpose(2, 0, 1), 9)
    ref[:, 1:, 2:] = a.transpose(2, 0, 1)[:, :-1, :-2]
    np.testing.assert_array_equal(shifted, ref)
    pil = np.asarray(TF.affine(Image.fromarray(a), 0.0, [2, 1], 1.0, 0.0, fill=9))
    np.testing.assert_array_equal(pil, ref.transpose(1, 2, 0))


def test_random_rotation_and_affine_are_seeded_by_manual_seed():
    img = Image.fromarray(rgb(9, 9))
    for tf in (T.RandomRotation(30, IM.BILINEAR), T.RandomAffine(20, translate=(0.2, 0.1), scale=(0.8, 1.2), shear=10,
                                                                 interpolation=IM.BILINEAR)):
        torch.manual_seed(5)
        first = [np.asarray(tf(img)) for _ in range(3)]
        torch.manual_seed(5)
        assert all(np.array_equal(np.asarray(tf(img)), f) for f in first)
        assert len({f.tobytes() for f in first}) == 3
    assert tuple(T.RandomRotation((10, 20), fill=1)(torch.rand(3, 5, 5)).shape) == (3, 5, 5)
    assert repr(T.RandomRotation(10)) == ("RandomRotation(degrees=[-10.0, 10.0], interpolation=nearest, expand=False, "
                                          "fill=0)")
    assert repr(T.RandomAffine(10, translate=(0.1, 0.1))) == "RandomAffine(degrees=[-10.0, 10.0], translate=(0.1, 0.1))"
    with pytest.raises(ValueError, match="If degrees is a single number, it must be positive"):
        T.RandomRotation(-3)
    with pytest.raises(ValueError, match="translation values should be between 0 and 1"):
        T.RandomAffine(0, translate=(2, 0))


def test_color_jitter():
    t = torch.rand(3, 4, 4)
    assert T.ColorJitter()(t) is t
    cj = T.ColorJitter(brightness=0.5, contrast=0.5, saturation=0.5, hue=0.1)
    torch.manual_seed(2)
    first = cj(t).numpy()
    torch.manual_seed(2)
    np.testing.assert_array_equal(cj(t).numpy(), first)
    assert not np.allclose(first, t.numpy())
    assert np.asarray(cj(Image.fromarray(rgb()))).shape == (6, 7, 3)
    only_b = T.ColorJitter(brightness=(2.0, 2.0))  # a fixed factor: exactly adjust_brightness
    np.testing.assert_allclose(only_b(t).numpy(), np.clip(2 * t.numpy(), 0, 1), rtol=1e-6)
    assert repr(cj) == "ColorJitter(brightness=(0.5, 1.5), contrast=(0.5, 1.5), saturation=(0.5, 1.5), hue=(-0.1, 0.1))"
    with pytest.raises(ValueError, match=r"hue values should be between \(-0.5, 0.5\)"):
        T.ColorJitter(hue=0.8)


def test_random_erasing():
    x = torch.rand(3, 8, 10)
    torch.manual_seed(0)
    out = T.RandomErasing(p=1.0, value=(0.1, 0.2, 0.3))(x).numpy()
    changed = np.any(out != x.numpy(), axis=0)
    rows, cols = np.nonzero(changed)
    box = (slice(rows.min(), rows.max() + 1), slice(cols.min(), cols.max() + 1))
    assert changed[box].all() and changed.sum() == changed[box].size  # one rectangle
    np.testing.assert_allclose(out[:, box[0], box[1]], np.broadcast_to(np.float32([0.1, 0.2, 0.3])[:, None, None],
                                                                       out[:, box[0], box[1]].shape))
    assert T.RandomErasing(p=0.0)(x) is x
    assert tuple(T.RandomErasing(p=1.0, value="random")(x).shape) == (3, 8, 10)
    y = x.clone()
    assert T.RandomErasing(p=1.0, inplace=True)(y) is y
    with pytest.raises(ValueError, match="either a single value or 3"):
        T.RandomErasing(p=1.0, value=(1, 2))(x)
    with pytest.raises(TypeError, match="img should be Tensor Image"):
        TF.erase(Image.fromarray(rgb()), 0, 0, 1, 1, 0)


def blur_reference(a, kx, ky, sx, sy):
    """Direct 2-d correlation with the outer-product kernel over a reflect-padded image."""
    def k1(k, s):
        x = np.linspace(-(k - 1) / 2, (k - 1) / 2, k)
        p = np.exp(-0.5 * (x / s) ** 2)
        return p / p.sum()

    kernel = np.outer(k1(ky, sy), k1(kx, sx))
    padded = np.pad(a.astype(np.float64), ((0, 0), (ky // 2, ky // 2), (kx // 2, kx // 2)), "reflect")
    out = np.zeros(a.shape)
    for i in range(ky):
        for j in range(kx):
            out += kernel[i, j] * padded[:, i:i + a.shape[1], j:j + a.shape[2]]
    return out


def test_gaussian_blur_matches_a_direct_convolution():
    a = np.random.default_rng(4).random((2, 9, 11)).astype(np.float32)
    out = TF.gaussian_blur(torch.from_numpy(a), [5, 3], [1.5, 0.6])
    np.testing.assert_allclose(out.numpy(), blur_reference(a, 5, 3, 1.5, 0.6), atol=1e-6)
    default = TF.gaussian_blur(torch.from_numpy(a), 3)  # sigma = 0.15 * 3 + 0.35
    np.testing.assert_allclose(default.numpy(), blur_reference(a, 3, 3, 0.8, 0.8), atol=1e-6)
    u8 = rgb(8, 9)
    pil = np.asarray(TF.gaussian_blur(Image.fromarray(u8), 3, 1.0))  # through a uint8 tensor, rounded
    ref = np.round(blur_reference(u8.transpose(2, 0, 1), 3, 3, 1.0, 1.0)).astype(np.uint8).transpose(1, 2, 0)
    assert np.abs(pil.astype(int) - ref).max() <= 1 and (pil == ref).mean() > 0.95
    x = torch.rand(1, 6, 6, requires_grad=True)
    TF.gaussian_blur(x, 3, 1.0).sum().backward()
    assert x.grad is not None and abs(float(x.grad.sum()) - 36) < 1e-4
    with pytest.raises(ValueError, match="odd and positive"):
        TF.gaussian_blur(x, 4)
    torch.manual_seed(0)
    blurred = T.GaussianBlur(3, sigma=(0.5, 1.5))(torch.from_numpy(a))
    assert tuple(blurred.shape) == a.shape
    assert repr(T.GaussianBlur(3)) == "GaussianBlur(kernel_size=(3, 3), sigma=(0.1, 2.0))"


def test_five_and_ten_crop_and_random_grayscale():
    a = rgb(7, 9)
    crops = [np.asarray(c) for c in T.FiveCrop((3, 4))(Image.fromarray(a))]
    expected = [a[:3, :4], a[:3, 5:], a[4:, :4], a[4:, 5:], a[2:5, 2:6]]
    assert all(np.array_equal(c, e) for c, e in zip(crops, expected))
    ten = T.TenCrop((3, 4))(chw(a))
    flipped = a[:, ::-1]
    assert len(ten) == 10 and np.array_equal(ten[5].numpy(), flipped[:3, :4].transpose(2, 0, 1))
    assert np.array_equal(T.TenCrop(3, vertical_flip=True)(chw(a))[5].numpy(), a[::-1][:3, :3].transpose(2, 0, 1))
    with pytest.raises(ValueError, match="bigger than input size"):
        TF.five_crop(chw(a), 8)
    g = T.RandomGrayscale(p=1.0)(Image.fromarray(a))
    assert g.mode == "RGB" and np.array_equal(np.asarray(g)[:, :, 0], np.asarray(Image.fromarray(a).convert("L")))
    t = chw(a)
    assert T.RandomGrayscale(p=0.0)(t) is t


@pytest.mark.parametrize("name, args", [("invert", ()), ("posterize", (3,)), ("solarize", (128,)), ("equalize", ()),
                                        ("adjust_sharpness", (2.0,)), ("adjust_sharpness", (0.3,)),
                                        ("adjust_gamma", (0.5,)), ("adjust_gamma", (2.2, 0.9))])
@pytest.mark.parametrize("seed", [0, 1])
def test_photometric_uint8_tensors_match_pillow(name, args, seed):
    a = rgb(9, 11, seed) // (1 + seed * 3)  # the second image uses only part of the range
    a[:, :, 2] = 77  # a constant channel (autocontrast and equalize leave it alone)
    ours = getattr(TF, name)(chw(a), *args).numpy()
    pil = np.asarray(getattr(TF, name)(Image.fromarray(a), *args)).transpose(2, 0, 1)
    np.testing.assert_array_equal(ours, pil)


def test_autocontrast_uint8_truncates_in_float32_as_torchvision():
    a = rgb(9, 11, 1) // 4
    a[:, :, 2] = 77
    lo = a.min(axis=(0, 1)).astype(np.float32)
    hi = a.max(axis=(0, 1)).astype(np.float32)
    scale = np.where(hi > lo, np.float32(255) / np.where(hi > lo, hi - lo, 1), np.float32(1))
    ref = np.clip((a - np.where(hi > lo, lo, 0)) * scale, 0, 255).astype(np.uint8)  # truncation, not rounding
    out = TF.autocontrast(chw(a)).numpy()
    np.testing.assert_array_equal(out, ref.transpose(2, 0, 1))
    pil = np.asarray(TF.autocontrast(Image.fromarray(a))).transpose(2, 0, 1)  # Pillow rounds its table
    assert np.abs(out.astype(int) - pil).max() <= 1


def test_photometric_float_tensors_and_errors():
    x = torch.rand(3, 4, 5)
    a = x.numpy()
    np.testing.assert_allclose(TF.invert(x).numpy(), 1 - a, rtol=1e-6)
    np.testing.assert_allclose(TF.adjust_gamma(x, 2.0, 0.8).numpy(), np.clip(0.8 * a ** 2, 0, 1), rtol=1e-5)
    np.testing.assert_allclose(TF.solarize(x, 0.5).numpy(), np.where(a >= 0.5, 1 - a, a), rtol=1e-6)
    lo, hi = a.min(axis=(1, 2), keepdims=True), a.max(axis=(1, 2), keepdims=True)
    np.testing.assert_allclose(TF.autocontrast(x).numpy(), (a - lo) / (hi - lo), rtol=1e-5, atol=1e-6)
    with pytest.raises(TypeError, match="Only torch.uint8 image tensors are supported"):
        TF.posterize(x, 2)
    with pytest.raises(TypeError, match="Only torch.uint8 image tensors are supported"):
        TF.equalize(x)
    with pytest.raises(ValueError, match="Gamma should be a non-negative real number"):
        TF.adjust_gamma(x, -1)
    with pytest.raises(TypeError, match="Threshold should be less than bound of img"):
        TF.solarize(x, 2.0)
    t = chw(rgb())
    assert T.RandomInvert(p=0.0)(t) is t
    np.testing.assert_array_equal(T.RandomInvert(p=1.0)(t).numpy(), 255 - t.numpy())
    np.testing.assert_array_equal(T.RandomPosterize(2, p=1.0)(t).numpy(), t.numpy() & 0xC0)
    assert repr(T.RandomPosterize(4)) == "RandomPosterize(bits=4,p=0.5)"
    assert repr(T.RandomSolarize(100, p=0.2)) == "RandomSolarize(threshold=100,p=0.2)"
    assert repr(T.RandomEqualize()) == "RandomEqualize(p=0.5)"
    assert tuple(T.RandomAdjustSharpness(2, p=1.0)(x).shape) == (3, 4, 5)
    assert tuple(T.RandomAutocontrast(p=1.0)(x).shape) == (3, 4, 5)
