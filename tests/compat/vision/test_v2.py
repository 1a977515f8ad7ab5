"""transforms.v2 over nested samples, tv_tensors.Image, ToImage / ToDtype / ToPureTensor."""

import numpy as np
import pytest
from PIL import Image

import funcgrad.compat as torch
from funcgrad.compat.vision import transforms as T
from funcgrad.compat.vision import tv_tensors
from funcgrad.compat.vision.transforms import v2
from funcgrad.compat.vision.transforms.v2 import functional as F2


def rgb(h=12, w=14, seed=0):
    return np.random.default_rng(seed).integers(0, 256, (h, w, 3), dtype=np.uint8)


def image(a):
    return tv_tensors.Image(a.transpose(2, 0, 1).copy())


def test_single_images_behave_as_v1():
    a = rgb()
    pairs = ((T.RandomResizedCrop(6), v2.RandomResizedCrop(6)), (T.ColorJitter(0.5, 0.5), v2.ColorJitter(0.5, 0.5)),
             (T.RandomRotation(20), v2.RandomRotation(20)))
    for v1, new in pairs:
        torch.manual_seed(3)
        ref = np.asarray(v1(Image.fromarray(a)))
        torch.manual_seed(3)
        np.testing.assert_array_equal(np.asarray(new(Image.fromarray(a))), ref)
        assert repr(new) == repr(v1) and isinstance(new, type(v1))


def test_samples_pass_non_images_through_and_keep_image_types():
    a = rgb()
    flip = v2.RandomHorizontalFlip(p=1.0)
    out, label = flip(image(a), 7)
    assert type(out) is tv_tensors.Image and label == 7
    np.testing.assert_array_equal(out.numpy(), a[:, ::-1].transpose(2, 0, 1))
    d = flip({"image": Image.fromarray(a), "label": torch.tensor(3), "name": "x"})
    np.testing.assert_array_equal(np.asarray(d["image"]), a[:, ::-1])
    assert int(d["label"]) == 3 and d["name"] == "x"
    # without an Image or PIL image, only the first plain tensor is an image
    img_t, lab_t = flip(torch.from_numpy(a.transpose(2, 0, 1).copy()), torch.arange(3))
    assert lab_t.tolist() == [0, 1, 2] and np.array_equal(img_t.numpy(), a[:, ::-1].transpose(2, 0, 1))
    # with an Image present, plain tensors are passed through
    _, mask = flip(image(a), torch.from_numpy(a[:, :, 0].copy()))
    np.testing.assert_array_equal(mask.numpy(), a[:, :, 0])


def test_several_images_share_the_random_parameters():
    a, b = rgb(seed=1), rgb(seed=2)
    crop = v2.RandomCrop((5, 6))
    for _ in range(5):
        x, y = crop(image(a), image(b))
        xs, ys = x.numpy(), y.numpy()
        matches = [(i, j) for i in range(8) for j in range(9)
                   if np.array_equal(xs, a[i:i + 5, j:j + 6].transpose(2, 0, 1))]
        (i, j), = matches
        np.testing.assert_array_equal(ys, b[i:i + 5, j:j + 6].transpose(2, 0, 1))


def test_compose_with_several_inputs_and_the_usual_pipeline():
    tf = v2.Compose([v2.ToImage(), v2.ToDtype(torch.uint8, scale=True), v2.RandomResizedCrop(size=(8, 8)),
                     v2.RandomHorizontalFlip(), v2.ToDtype(torch.float32, scale=True),
                     v2.Normalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225])])
    out, label = tf(Image.fromarray(rgb()), 4)
    assert type(out) is tv_tensors.Image and out.dtype == torch.float32 and tuple(out.shape) == (3, 8, 8)
    assert label == 4
    assert type(v2.ToPureTensor()(out)) is torch.Tensor
    lam = v2.Lambda(lambda x: x + 1, int)
    assert lam(1, "a") == (2, "a")


def test_to_image_and_to_dtype():
    a = rgb()
    for src in (a, Image.fromarray(a), torch.from_numpy(a.transpose(2, 0, 1).copy())):
        im = v2.ToImage()(src)
        assert type(im) is tv_tensors.Image and im.dtype == torch.uint8
        np.testing.assert_array_equal(im.numpy(), a.transpose(2, 0, 1))
    assert tuple(F2.to_image(a[:, :, 0]).shape) == (1, 12, 14)
    u8 = torch.tensor([[[0, 128, 255]]], dtype=torch.uint8)
    np.testing.assert_array_equal(F2.to_dtype(u8, torch.float32, scale=True).numpy(),
                                  np.float32([[[0, 128, 255]]]) * np.float32(1 / 255))
    np.testing.assert_array_equal(F2.to_dtype(u8, torch.float32).numpy(), [[[0, 128, 255]]])
    f = torch.tensor([[[0.0, 0.5, 1.0]]])
    np.testing.assert_array_equal(F2.to_dtype(f, torch.uint8, scale=True).numpy(), [[[0, 127, 255]]])
    np.testing.assert_array_equal(F2.to_dtype(u8, torch.int16, scale=True).numpy(), [[[0, 128 << 7, 255 << 7]]])
    np.testing.assert_array_equal(F2.to_dtype(torch.tensor([[[32767]]], dtype=torch.int16), torch.uint8,
                                              scale=True).numpy(), [[[255]]])
    by_type = v2.ToDtype({tv_tensors.Image: torch.float32, "others": None}, scale=True)
    out, other = by_type(image(a), torch.zeros(2, dtype=torch.uint8))
    assert out.dtype == torch.float32 and other.dtype == torch.uint8
    assert F2.get_size(image(a)) == [12, 14] and F2.get_num_channels(image(a)) == 3
    with pytest.raises(RuntimeError, match="cannot be performed safely"):
        F2.to_dtype(f, torch.int64, scale=True)


def test_image_type_and_deprecated_to_tensor():
    im = tv_tensors.Image(np.zeros((2, 3), np.uint8))
    assert tuple(im.shape) == (1, 2, 3) and repr(im).startswith("Image(")
    assert type(im + 1) is torch.Tensor  # operations give plain tensors, as torchvision
    with pytest.raises(ValueError, match="at least 2 dimensions"):
        tv_tensors.Image([1, 2])
    with pytest.warns(UserWarning, match="`ToTensor\\(\\)` is deprecated"):
        tt = v2.ToTensor()
    assert tt(rgb()).dtype == torch.float32


def test_convert_image_dtype_is_todtype_with_scale():
    img = torch.tensor(np.array([[[0, 128, 255]]], dtype=np.uint8))
    out = v2.ConvertImageDtype(torch.float32)(img)
    assert out.dtype == torch.float32
    np.testing.assert_allclose(out.numpy(), np.array([[[0, 128, 255]]]) / 255.0, rtol=1e-6)
    assert v2.ConvertImageDtype()(img).dtype == torch.float32
    back = v2.ConvertImageDtype(torch.uint8)(out)
    np.testing.assert_array_equal(back.numpy(), [[[0, 128, 255]]])
    assert repr(v2.ConvertImageDtype(torch.float64)) == "ConvertImageDtype(dtype=torch.float64)"
