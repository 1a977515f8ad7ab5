"""AutoAugment / RandAugment / TrivialAugmentWide: their operations, policy tables, magnitudes and draws."""

import numpy as np
import pytest
from PIL import Image

import funcgrad.compat as torch
from funcgrad.compat.vision import transforms as T
from funcgrad.compat.vision.transforms import autoaugment as A
from funcgrad.compat.vision.transforms import functional as TF


def rgb(h=8, w=10, seed=0):
    return np.random.default_rng(seed).integers(0, 256, (h, w, 3), dtype=np.uint8)


def chw(a):
    return torch.from_numpy(a.transpose(2, 0, 1).copy())


def test_geometric_operations():
    a = rgb()
    for img, out in ((chw(a), lambda r: r.numpy().transpose(1, 2, 0)), (Image.fromarray(a), np.asarray)):
        shifted = out(A._OPS["TranslateX"](img, 3.7, T.InterpolationMode.NEAREST, [9.0] * 3 if isinstance(
            img, torch.Tensor) else 9))  # int(3.7) = 3 columns to the right, the gap filled
        assert (shifted[:, :3] == 9).all() and np.array_equal(shifted[:, 3:], a[:, :-3])
        down = out(A._OPS["TranslateY"](img, -2.0, T.InterpolationMode.NEAREST, None))
        assert (down[-2:] == 0).all() and np.array_equal(down[:-2], a[2:])
        assert np.array_equal(out(A._OPS["ShearX"](img, 0.0, T.InterpolationMode.NEAREST, None)), a)
    square = rgb(8, 8)
    np.testing.assert_array_equal(A._OPS["Rotate"](chw(square), 90.0, T.InterpolationMode.NEAREST, None).numpy(),
                                  np.rot90(square).transpose(2, 0, 1))
    sheared = A._OPS["ShearY"](chw(square), 0.5, T.InterpolationMode.NEAREST, None).numpy()
    np.testing.assert_array_equal(sheared[:, :, 0], square.transpose(2, 0, 1)[:, :, 0])  # x = 0 is the pivot


@pytest.mark.parametrize("name, fn", [("Brightness", TF.adjust_brightness), ("Color", TF.adjust_saturation),
                                      ("Contrast", TF.adjust_contrast), ("Sharpness", TF.adjust_sharpness)])
def test_enhancements_use_one_plus_magnitude(name, fn):
    t = chw(rgb())
    np.testing.assert_array_equal(A._OPS[name](t, -0.3, None, None).numpy(), fn(t, 0.7).numpy())


def test_policies_and_magnitude_bins():
    for policy in T.AutoAugmentPolicy:
        subs = T.AutoAugment(policy).policies
        assert len(subs) == 25 and all(len(s) == 2 for s in subs)
        for name, p, bin_id in (step for s in subs for step in s):
            assert name in A._OPS and 0.0 <= p <= 1.0 and (bin_id is None or 0 <= bin_id < 10)
    assert T.AutoAugment().policies[0] == (("Posterize", 0.4, 8), ("Rotate", 0.6, 9))
    last = T.AutoAugment(T.AutoAugmentPolicy.CIFAR10).policies[-1]
    assert last == (("TranslateY", 0.7, 9), ("AutoContrast", 0.9, None))
    space = {n: (m, s) for n, m, s in A._space(31, 331, 331)}
    assert "Invert" not in space and "Identity" in space
    np.testing.assert_allclose(space["TranslateX"][0][-1], 150.0)
    np.testing.assert_array_equal(space["Posterize"][0][[0, 7, 8, 30]], [8, 7, 7, 4])  # 8 - round(i / 7.5)
    wide = {n: (m, s) for n, m, s in A._space(31, 0, 0, wide=True)}
    assert wide["Rotate"][0][-1] == 135.0 and wide["Posterize"][0][-1] == 2 and wide["Solarize"][0][0] == 255.0
    auto = {n for n, _, _ in A._space(10, 5, 5, identity=False, invert=True)}
    assert "Invert" in auto and "Identity" not in auto
    with pytest.raises(ValueError, match="policy .* is not recognized"):
        T.AutoAugment("imagenet")


@pytest.mark.parametrize("make", [lambda: T.AutoAugment(), lambda: T.AutoAugment(T.AutoAugmentPolicy.SVHN, fill=7),
                                  lambda: T.RandAugment(num_ops=3, magnitude=20), lambda: T.TrivialAugmentWide()])
def test_policies_run_reproducibly_on_pil_and_tensors(make):
    tf = make()
    img, t = Image.fromarray(rgb(12, 12, 1)), chw(rgb(12, 12, 1))
    torch.manual_seed(11)
    first = [(np.asarray(tf(img)), tf(t).numpy()) for _ in range(20)]
    torch.manual_seed(11)
    again = [(np.asarray(tf(img)), tf(t).numpy()) for _ in range(20)]
    assert all(np.array_equal(x[0], y[0]) and np.array_equal(x[1], y[1]) for x, y in zip(first, again))
    assert all(p.shape == (12, 12, 3) and q.shape == (3, 12, 12) and q.dtype == np.uint8 for p, q in first)
    assert len({q.tobytes() for _, q in first}) > 3  # different operations and magnitudes were drawn


def test_reprs():
    assert repr(T.AutoAugment()) == "AutoAugment(policy=AutoAugmentPolicy.IMAGENET, fill=None)"
    assert repr(T.RandAugment()) == ("RandAugment(num_ops=2, magnitude=9, num_magnitude_bins=31, "
                                     "interpolation=InterpolationMode.NEAREST, fill=None)")
    assert repr(T.TrivialAugmentWide(fill=0)) == ("TrivialAugmentWide(num_magnitude_bins=31, "
                                                  "interpolation=InterpolationMode.NEAREST, fill=0)")
