"""funcgrad.compat.vision.transforms against numpy / Pillow references computed here."""

import numpy as np
import pytest
from PIL import Image

import funcgrad.compat as torch
from funcgrad.compat.vision import transforms as T
from funcgrad.compat.vision.transforms import functional as TF


def rgb(h=6, w=9, seed=0):
    return np.random.default_rng(seed).integers(0, 256, (h, w, 3), dtype=np.uint8)


def test_to_tensor_pil_and_numpy():
    a = rgb()
    for pic in (Image.fromarray(a), a):
        t = T.ToTensor()(pic)
        assert t.dtype == torch.float32 and tuple(t.shape) == (3, 6, 9)
        np.testing.assert_array_equal(t.numpy(), a.transpose(2, 0, 1).astype(np.float32) / np.float32(255))
    gray = a[:, :, 0]
    assert tuple(T.ToTensor()(Image.fromarray(gray)).shape) == (1, 6, 9)
    f64 = np.linspace(-1, 3, 12).reshape(3, 4)  # other dtypes keep their values (no scaling)
    t = TF.to_tensor(f64)
    assert t.dtype == torch.float64 and tuple(t.shape) == (1, 3, 4)
    np.testing.assert_array_equal(t.numpy()[0], f64)
    i32 = Image.fromarray(np.arange(12, dtype=np.int32).reshape(3, 4) * 1000)
    assert TF.to_tensor(i32).dtype == torch.int32 and TF.to_tensor(i32).numpy().max() == 11000
    bits = Image.fromarray(a[:, :, 0] > 128)  # mode "1" -> 0 / 1.0
    np.testing.assert_array_equal(TF.to_tensor(bits).numpy()[0], (a[:, :, 0] > 128).astype(np.float32))
    with pytest.raises(TypeError, match="pic should be PIL Image or ndarray"):
        TF.to_tensor([1, 2])
    with pytest.raises(ValueError, match="2/3 dimensional"):
        TF.to_tensor(np.zeros((1, 2, 3, 4), np.uint8))


def test_pil_to_tensor_and_to_pil_image_round_trip():
    a = rgb()
    t = T.PILToTensor()(Image.fromarray(a))
    assert t.dtype == torch.uint8
    np.testing.assert_array_equal(t.numpy(), a.transpose(2, 0, 1))
    deep = TF.pil_to_tensor(Image.fromarray(np.array([[1, 65535]], np.uint16)))  # mode I;16
    assert deep.dtype == torch.uint16 and deep.tolist() == [[[1, 65535]]]
    np.testing.assert_array_equal(np.asarray(T.ToPILImage()(t)), a)
    f = torch.from_numpy(np.array([[[0.0, 0.5, 0.999, 1.0]]], np.float32))
    img = TF.to_pil_image(f)  # float: mul(255) then truncation to uint8
    assert img.mode == "L"
    np.testing.assert_array_equal(np.asarray(img), [[0, 127, 254, 255]])
    assert TF.to_pil_image(f, mode="F").mode == "F"
    for c, mode in ((2, "LA"), (3, "RGB"), (4, "RGBA")):
        assert TF.to_pil_image(np.zeros((2, 3, c), np.uint8)).mode == mode
    hsv = TF.to_pil_image(a, mode="HSV")
    assert hsv.mode == "HSV" and np.array_equal(np.asarray(hsv), a)
    with pytest.raises(ValueError, match="Only modes"):
        TF.to_pil_image(a, mode="RGBA")
    with pytest.raises(ValueError, match="Incorrect mode"):
        TF.to_pil_image(a[:, :, :1], mode="F")
    with pytest.raises(ValueError, match="> 4 channels"):
        TF.to_pil_image(torch.zeros(5, 2, 2))
    assert repr(T.ToPILImage()) == "ToPILImage()" and repr(T.ToPILImage("RGB")) == "ToPILImage(mode=RGB)"


def test_normalize_values_inplace_and_errors():
    x = torch.rand(2, 3, 4, 5)
    mean, std = (0.1, 0.2, 0.3), (0.5, 0.25, 2.0)
    ref = (x.numpy() - np.float32(mean)[:, None, None]) / np.float32(std)[:, None, None]
    out = T.Normalize(mean, std)(x)
    np.testing.assert_allclose(out.numpy(), ref, rtol=1e-6)
    assert not np.allclose(x.numpy(), ref)  # not in place by default
    y = x.clone()
    assert T.Normalize(mean, std, inplace=True)(y) is y
    np.testing.assert_allclose(y.numpy(), ref, rtol=1e-6)
    np.testing.assert_allclose(TF.normalize(x, (0.5,), (0.5,)).numpy(), (x.numpy() - 0.5) / 0.5, rtol=1e-6)
    with pytest.raises(RuntimeError, match=r"mean has 3 values but the image has 1 channels \(shape \(1, 4, 5\)\)"):
        T.Normalize(mean, std)(torch.rand(1, 4, 5))
    with pytest.raises(TypeError, match="float tensor"):
        TF.normalize(torch.zeros(3, 2, 2, dtype=torch.uint8), mean, std)
    with pytest.raises(ValueError, match="std evaluated to zero"):
        TF.normalize(torch.rand(3, 2, 2), mean, (1.0, 0.0, 1.0))
    with pytest.raises(ValueError, match=r"\(..., C, H, W\)"):
        TF.normalize(torch.rand(4, 5), (0.5,), (0.5,))
    w = torch.rand(3, 2, 2, requires_grad=True)
    T.Normalize(mean, std)(w).sum().backward()  # differentiable, as torchvision's
    np.testing.assert_allclose(w.grad.numpy(), np.broadcast_to(1 / np.float32(std)[:, None, None], (3, 2, 2)))
    m = torch.tensor([0.1, 0.2, 0.3], requires_grad=True)  # tensor statistics: differentiable too
    TF.normalize(x, m, torch.tensor(std)).sum().backward()
    np.testing.assert_allclose(m.grad.numpy(), -2 * 4 * 5 / np.float32(std), rtol=1e-6)
    assert repr(T.Normalize((0.5,), (0.5,))) == "Normalize(mean=(0.5,), std=(0.5,))"


def test_resize_pil_matches_pillow_and_output_sizes():
    img = Image.fromarray(rgb(20, 30))
    out = T.Resize(16)(img)  # smaller edge -> 16, the other int(16 * 30 / 20)
    assert out.size == (24, 16)
    np.testing.assert_array_equal(np.asarray(out), np.asarray(img.resize((24, 16), Image.Resampling.BILINEAR)))
    assert T.Resize((7, 11))(img).size == (11, 7)
    tall = Image.fromarray(rgb(30, 20))
    assert T.Resize([10])(tall).size == (10, 15)
    assert T.Resize(10, max_size=12)(tall).size == (8, 12)
    for interp in (T.InterpolationMode.NEAREST, 0):
        np.testing.assert_array_equal(np.asarray(T.Resize((5, 7), interpolation=interp)(img)),
                                      np.asarray(img.resize((7, 5), Image.Resampling.NEAREST)))
    bicubic = T.Resize((9, 13), interpolation=T.InterpolationMode.BICUBIC)(img)
    np.testing.assert_array_equal(np.asarray(bicubic), np.asarray(img.resize((13, 9), Image.Resampling.BICUBIC)))
    assert T.Resize(20)(img) is img  # already the right size
    assert repr(T.Resize(16)) == "Resize(size=16, interpolation=bilinear, max_size=None, antialias=True)"
    with pytest.raises(ValueError, match="max_size = 10 must be strictly greater"):
        T.Resize(10, max_size=10)(img)
    with pytest.raises(TypeError, match="interpolation should be a InterpolationMode"):
        T.Resize(10, interpolation=object())


@pytest.mark.parametrize("mode, pil", [("bilinear", Image.Resampling.BILINEAR), ("bicubic", Image.Resampling.BICUBIC)])
@pytest.mark.parametrize("size", [(7, 11), (13, 4), (31, 40)])
def test_resize_tensor_antialias_matches_pillow_float_images(mode, pil, size):
    """PyTorch's antialiased interpolation is Pillow's filter: compare with Pillow on mode 'F' images."""
    a = np.random.default_rng(1).random((2, 17, 23)).astype(np.float32)
    out = TF.resize(torch.from_numpy(a), list(size), T.InterpolationMode(mode))
    ref = np.stack([np.asarray(Image.fromarray(c, mode="F").resize(size[::-1], pil)) for c in a])
    assert tuple(out.shape) == (2, *size) and out.dtype == torch.float32
    np.testing.assert_allclose(out.numpy(), ref, atol=2e-6)


def test_resize_tensor_without_antialias_nearest_and_uint8():
    a = np.random.default_rng(2).random((1, 4, 5)).astype(np.float32)
    up = TF.resize(torch.from_numpy(a), [8, 10], antialias=False)  # x2: src = (i + 0.5) / 2 - 0.5
    src = np.maximum((np.arange(8) + 0.5) / 2 - 0.5, 0)
    i0 = np.floor(src).astype(int)
    i1 = np.minimum(i0 + 1, 3)
    rows = a[0][i0] * (1 - (src - i0))[:, None] + a[0][i1] * (src - i0)[:, None]
    srcw = np.maximum((np.arange(10) + 0.5) / 2 - 0.5, 0)
    j0 = np.floor(srcw).astype(int)
    j1 = np.minimum(j0 + 1, 4)
    ref = rows[:, j0] * (1 - (srcw - j0)) + rows[:, j1] * (srcw - j0)
    np.testing.assert_allclose(up.numpy()[0], ref, atol=1e-6)
    near = TF.resize(torch.from_numpy(a), [3, 7], T.InterpolationMode.NEAREST)
    np.testing.assert_array_equal(near.numpy()[0], a[0][np.floor(np.arange(3) * 4 / 3).astype(int)][
        :, np.minimum(np.floor(np.arange(7) * 5 / 7).astype(int), 4)])
    u8 = rgb(20, 30).transpose(2, 0, 1).copy()
    out = T.Resize((9, 14))(torch.from_numpy(u8))
    assert out.dtype == torch.uint8
    pil = np.asarray(Image.fromarray(u8.transpose(1, 2, 0)).resize((14, 9), Image.Resampling.BILINEAR))
    assert np.abs(out.numpy().transpose(1, 2, 0).astype(int) - pil).max() <= 1  # Pillow rounds in fixed point
    with pytest.raises(ValueError, match="unsupported with Tensor input"):
        TF.resize(torch.rand(1, 4, 4), [2, 2], T.InterpolationMode.LANCZOS)


def test_resize_tensor_is_differentiable():
    x = torch.rand(3, 10, 12, requires_grad=True)
    y = T.Resize((4, 5))(x)
    y.sum().backward()
    # every output pixel is a normalized weighted mean: the gradient of the sum totals the output size
    assert tuple(x.grad.shape) == (3, 10, 12)
    np.testing.assert_allclose(float(x.grad.sum()), 3 * 4 * 5, rtol=1e-5)


def test_center_crop_and_crop_outside():
    a = rgb(7, 10)
    out = T.CenterCrop((3, 4))(Image.fromarray(a))  # top = round(4 / 2) = 2, left = round(6 / 2) = 3
    np.testing.assert_array_equal(np.asarray(out), a[2:5, 3:7])
    t = torch.from_numpy(a.transpose(2, 0, 1).copy())
    np.testing.assert_array_equal(T.CenterCrop(4)(t).numpy(), a.transpose(2, 0, 1)[:, 2:6, 3:7])
    big = T.CenterCrop((9, 13))(t)  # larger than the image: zero padding around it
    ref = np.pad(a.transpose(2, 0, 1), ((0, 0), (1, 1), (1, 2)))
    np.testing.assert_array_equal(big.numpy(), ref)
    np.testing.assert_array_equal(np.asarray(T.CenterCrop((9, 13))(Image.fromarray(a))), ref.transpose(1, 2, 0))
    outside = np.pad(a.transpose(2, 0, 1), ((0, 0), (1, 0), (0, 2)))  # crop reaching above and right of it
    np.testing.assert_array_equal(TF.crop(t, -1, 8, 3, 4).numpy(), outside[:, 0:3, 8:12])
    assert repr(T.CenterCrop(4)) == "CenterCrop(size=(4, 4))"


@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "symmetric"])
def test_pad_modes_match_numpy(mode):
    a = rgb(5, 6)
    kw = {"constant_values": 7} if mode == "constant" else {}
    for padding, widths in ((2, ((2, 2), (2, 2))), ((1, 3), ((3, 3), (1, 1))), ((1, 2, 3, 4), ((2, 4), (1, 3)))):
        ref = np.pad(a, widths + ((0, 0),), mode, **kw)
        np.testing.assert_array_equal(np.asarray(T.Pad(padding, fill=7, padding_mode=mode)(Image.fromarray(a))), ref)
        t = torch.from_numpy(a.transpose(2, 0, 1).copy())
        np.testing.assert_array_equal(TF.pad(t, padding, 7, mode).numpy(), ref.transpose(2, 0, 1))
    cropped = TF.pad(torch.from_numpy(a[:, :, 0].copy()), [-1, 0, 2, -2], 0, mode)  # negative values crop
    np.testing.assert_array_equal(cropped.numpy(), np.pad(a[:3, 1:, 0], ((0, 0), (0, 2)), mode))


def test_pad_fill_per_channel_and_errors():
    out = np.asarray(T.Pad(1, fill=(1, 2, 3))(Image.fromarray(rgb(2, 2))))
    np.testing.assert_array_equal(out[0, 0], [1, 2, 3])
    with pytest.raises(ValueError, match=r"does not match the number of channels of the image \(2 != 3\)"):
        T.Pad(1, fill=(1, 2))(Image.fromarray(rgb(2, 2)))
    with pytest.raises(ValueError, match="1, 2, or 4 element tuple"):
        T.Pad((1, 2, 3))
    with pytest.raises(ValueError, match="constant, edge, reflect or symmetric"):
        T.Pad(1, padding_mode="wrap")
    with pytest.raises(TypeError, match="inappropriate fill"):
        TF.pad(torch.zeros(3, 2, 2), 1, fill=(1, 2, 3))
    assert repr(T.Pad(2)) == "Pad(padding=2, fill=0, padding_mode=constant)"


def windows(padded, h, w):
    return [padded[i:i + h, j:j + w] for i in range(padded.shape[0] - h + 1) for j in range(padded.shape[1] - w + 1)]


def test_random_crop_padding_reproducible_and_a_window():
    a = rgb(8, 8)
    rc = T.RandomCrop(8, padding=2, padding_mode="reflect")
    torch.manual_seed(3)
    first = [np.asarray(rc(Image.fromarray(a))) for _ in range(6)]
    torch.manual_seed(3)
    again = [np.asarray(rc(Image.fromarray(a))) for _ in range(6)]
    assert all(np.array_equal(x, y) for x, y in zip(first, again))
    padded = np.pad(a, ((2, 2), (2, 2), (0, 0)), "reflect")
    cands = windows(padded, 8, 8)
    assert all(any(np.array_equal(x, c) for c in cands) for x in first)
    assert len({x.tobytes() for x in first}) > 1
    t = rc(torch.from_numpy(a.transpose(2, 0, 1).copy()))
    assert any(np.array_equal(t.numpy().transpose(1, 2, 0), c) for c in cands)
    small = T.RandomCrop((6, 7), pad_if_needed=True, fill=9)(Image.fromarray(rgb(4, 5)))
    assert small.size == (7, 6)
    with pytest.raises(ValueError, match=r"Required crop size \(9, 9\) is larger than input image size \(8, 8\)"):
        T.RandomCrop(9)(Image.fromarray(a))
    assert repr(T.RandomCrop(32, padding=4)) == "RandomCrop(size=(32, 32), padding=4)"


def test_random_horizontal_flip_uses_the_compat_generator():
    a = rgb()
    t = torch.from_numpy(a.transpose(2, 0, 1).copy())
    np.testing.assert_array_equal(np.asarray(T.RandomHorizontalFlip(1.0)(Image.fromarray(a))), a[:, ::-1])
    np.testing.assert_array_equal(T.RandomHorizontalFlip(p=1)(t).numpy(), a.transpose(2, 0, 1)[:, :, ::-1])
    np.testing.assert_array_equal(T.RandomVerticalFlip(p=1)(t).numpy(), a.transpose(2, 0, 1)[:, ::-1])
    assert T.RandomHorizontalFlip(0.0)(t) is t
    flip = T.RandomHorizontalFlip()
    torch.manual_seed(0)
    draws = torch.rand(200).numpy() < 0.5  # the same stream the transform draws from, one value per call
    torch.manual_seed(0)
    flipped = [not np.array_equal(flip(t).numpy(), t.numpy()) for _ in range(200)]
    assert flipped == draws.tolist()
    assert repr(flip) == "RandomHorizontalFlip(p=0.5)"


def test_random_resized_crop():
    a = rgb(20, 30)
    rrc = T.RandomResizedCrop((8, 6))
    torch.manual_seed(1)
    x = np.asarray(rrc(Image.fromarray(a)))
    torch.manual_seed(1)
    assert np.array_equal(np.asarray(rrc(Image.fromarray(a))), x) and x.shape == (8, 6, 3)
    whole = T.RandomResizedCrop(10, scale=(1.0, 1.0), ratio=(1.5, 1.5))  # the whole 20 x 30 image
    np.testing.assert_array_equal(np.asarray(whole(Image.fromarray(a))),
                                  np.asarray(Image.fromarray(a).resize((10, 10), Image.Resampling.BILINEAR)))
    i, j, h, w = T.RandomResizedCrop.get_params(torch.zeros(3, 20, 30), (0.08, 1.0), (3 / 4, 4 / 3))
    assert 0 <= i and i + h <= 20 and 0 <= j and j + w <= 30
    assert tuple(rrc(torch.rand(3, 20, 30)).shape) == (3, 8, 6)
    assert repr(T.RandomResizedCrop(4)) == ("RandomResizedCrop(size=(4, 4), scale=(0.08, 1.0), ratio=(0.75, 1.3333), "
                                            "interpolation=bilinear, antialias=True)")


def test_grayscale_pil_and_tensor():
    a = rgb()
    g = T.Grayscale()(Image.fromarray(a))
    np.testing.assert_array_equal(np.asarray(g), np.asarray(Image.fromarray(a).convert("L")))
    g3 = np.asarray(T.Grayscale(3)(Image.fromarray(a)))
    assert g3.shape == (6, 9, 3) and (g3 == np.asarray(g)[:, :, None]).all()
    f = torch.rand(3, 4, 5)
    r, gg, b = f.numpy()
    np.testing.assert_allclose(T.Grayscale()(f).numpy()[0], 0.2989 * r + 0.587 * gg + 0.114 * b, rtol=1e-6)
    assert tuple(T.Grayscale(3)(f).shape) == (3, 4, 5)
    with pytest.raises(TypeError, match="permitted channel values are \\[1, 3\\], but found 2"):
        TF.rgb_to_grayscale(torch.rand(2, 4, 5))


def test_convert_image_dtype():
    u8 = torch.tensor([[[0, 128, 255]]], dtype=torch.uint8)
    np.testing.assert_allclose(T.ConvertImageDtype(torch.float32)(u8).numpy(), [[[0, 128 / 255, 1]]], rtol=1e-6)
    f = torch.tensor([[[0.0, 0.5, 0.999, 1.0]]])
    np.testing.assert_array_equal(TF.convert_image_dtype(f, torch.uint8).numpy(), [[[0, 127, 255, 255]]])
    np.testing.assert_array_equal(TF.convert_image_dtype(u8, torch.int16).numpy(), [[[0, 128 * 128, 255 * 128]]])
    np.testing.assert_array_equal(TF.convert_image_dtype(torch.tensor([[[32767]]], dtype=torch.int16),
                                                         torch.uint8).numpy(), [[[255]]])
    with pytest.raises(RuntimeError, match="cannot be performed safely"):
        TF.convert_image_dtype(f, torch.int32)
    assert TF.convert_image_dtype(f, torch.float32) is f


def test_compose_lambda_and_repr():
    tf = T.Compose([T.Resize(4), T.CenterCrop(4), T.ToTensor(), T.Lambda(lambda x: x * 2),
                    T.Normalize((0.5,), (0.5,))])
    out = tf(Image.fromarray(rgb(8, 8)))
    assert tuple(out.shape) == (3, 4, 4) and float(out.max()) <= 3.0
    assert repr(tf) == ("Compose(\n    Resize(size=4, interpolation=bilinear, max_size=None, antialias=True)\n"
                        "    CenterCrop(size=(4, 4))\n    ToTensor()\n    Lambda()\n"
                        "    Normalize(mean=(0.5,), std=(0.5,))\n)")
    with pytest.raises(TypeError, match="Argument lambd should be callable, got 'int'"):
        T.Lambda(3)
    assert isinstance(T.Normalize((0.5,), (0.5,)), torch.nn.Module)  # usable inside nn.Sequential


def test_random_apply_choice_order():
    t = torch.rand(1, 3, 3)
    assert T.RandomApply([T.RandomHorizontalFlip(1.0)], p=0.0)(t) is t
    np.testing.assert_array_equal(T.RandomApply([T.RandomHorizontalFlip(1.0)], p=1.0)(t).numpy(),
                                  t.numpy()[:, :, ::-1])
    assert T.RandomChoice([T.Lambda(lambda x: 1)], p=[1.0])(t) == 1
    assert T.RandomOrder([T.Lambda(lambda x: x + 1), T.Lambda(lambda x: x * 2)])(1) in (3, 4)
