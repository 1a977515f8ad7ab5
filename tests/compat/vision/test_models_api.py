"""funcgrad.compat.vision.models: the weights API (no downloads), the legacy ``pretrained=``
argument, the model registry, constructor options, and loading a state_dict file."""

import warnings

import numpy as np
import pytest

import funcgrad.compat as torch
import funcgrad.compat.vision as torchvision
from funcgrad.compat import nn
from funcgrad.compat.vision.models import WeightsEnum, mobilenetv2

models = torchvision.models


def _input(*shape, seed=0):
    return torch.tensor(np.random.default_rng(seed).standard_normal(shape).astype(np.float32))


# --- weights: nothing is downloaded --------------------------------------------------------------

@pytest.mark.parametrize("weights", ["DEFAULT", "IMAGENET1K_V1", "ResNet18_Weights.IMAGENET1K_V1",
                                     models.ResNet18_Weights.IMAGENET1K_V1, models.ResNet18_Weights.DEFAULT])
def test_pretrained_weights_raise_with_instructions(weights):
    with pytest.raises(RuntimeError, match="downloads nothing") as info:
        models.resnet18(weights=weights)
    msg = str(info.value)
    assert "model.load_state_dict(torch.load(path))" in msg and "weights=None" in msg
    assert "ResNet18_Weights.IMAGENET1K_V1" in msg and "resnet18-f37072fd.pth" in msg
    assert "save_file(torch.load('resnet18-f37072fd.pth'), 'resnet18.safetensors')" in msg


@pytest.mark.parametrize("builder", [models.vgg16, models.vgg11, models.alexnet, models.mobilenet_v2,
                                     models.resnet50, models.wide_resnet101_2])
def test_every_builder_refuses_before_building(builder):
    with pytest.raises(RuntimeError, match="downloads nothing"):
        builder(weights="DEFAULT")  # raises before allocating (VGG-16 would take seconds to build)


def test_pretrained_true_warns_then_raises():
    with pytest.warns(UserWarning) as rec, pytest.raises(RuntimeError, match="downloads nothing"):
        models.resnet34(pretrained=True)
    messages = [str(w.message) for w in rec]
    assert ("The parameter 'pretrained' is deprecated since 0.13 and may be removed in the future, please use "
            "'weights' instead.") in messages
    assert any("equivalent to passing `weights=ResNet34_Weights.IMAGENET1K_V1`. You can also use "
               "`weights=ResNet34_Weights.DEFAULT`" in m for m in messages)
    with pytest.warns(UserWarning) as rec, pytest.raises(RuntimeError):
        models.mobilenet_v2(True)
    assert [str(w.message)[:46] for w in rec] == ["Using 'weights' as positional parameter(s) is ",
                                                  "Arguments other than a weight enum or `None` f"]


def test_pretrained_false_warns_and_builds():
    with pytest.warns(UserWarning) as rec:
        model = models.resnet18(pretrained=False, num_classes=3)
    assert model.fc.out_features == 3
    assert any("equivalent to passing `weights=None`." in str(w.message) for w in rec)
    with pytest.warns(UserWarning) as rec:
        assert isinstance(models.mobilenet_v2(False), models.MobileNetV2)
    assert len(rec) == 2 and "Using 'weights' as positional parameter" in str(rec[0].message)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        models.mobilenet_v2(weights=None, progress=False)  # the current interface: no warning


def test_bad_weights_arguments():
    with pytest.raises(TypeError, match="expected ResNet18_Weights but received VGG11_Weights"):
        models.resnet18(weights=models.VGG11_Weights.IMAGENET1K_V1)
    with pytest.raises(KeyError):
        models.resnet18(weights="IMAGENET1K_V9")
    with pytest.warns(UserWarning), pytest.raises(TypeError, match="multiple values for argument 'weights'"):
        models.resnet18(None, weights=None)
    with pytest.raises(TypeError, match="unexpected"):
        models.resnet18(colour=True)


def test_weights_enums():
    w = models.ResNet50_Weights
    assert [m.name for m in w] == ["IMAGENET1K_V1", "IMAGENET1K_V2"]
    assert w.DEFAULT is w.IMAGENET1K_V2 and repr(w.DEFAULT) == "ResNet50_Weights.IMAGENET1K_V2"
    assert models.ResNet18_Weights.DEFAULT is models.ResNet18_Weights.IMAGENET1K_V1
    assert models.MobileNet_V2_Weights.DEFAULT is models.MobileNet_V2_Weights.IMAGENET1K_V2
    assert [m.name for m in models.VGG16_Weights] == ["IMAGENET1K_V1", "IMAGENET1K_FEATURES"]
    assert models.VGG16_Weights.DEFAULT is models.VGG16_Weights.IMAGENET1K_V1
    assert w.IMAGENET1K_V2.url == "https://download.pytorch.org/models/resnet50-11ad3fa6.pth"
    assert w.IMAGENET1K_V1.meta["num_params"] == 25_557_032
    assert models.AlexNet_Weights.DEFAULT.meta["min_size"] == (63, 63)
    assert isinstance(w.DEFAULT, WeightsEnum) and w.verify("IMAGENET1K_V1") is w.IMAGENET1K_V1
    assert w.verify(None) is None
    with pytest.raises(RuntimeError, match="downloads nothing"):
        w.DEFAULT.get_state_dict(progress=False)


# --- registry --------------------------------------------------------------------------------------

def test_list_and_get_models():
    names = models.list_models()
    for name in ("resnet18", "resnet152", "resnext50_32x4d", "wide_resnet50_2", "vgg11", "vgg19_bn", "alexnet",
                 "mobilenet_v2"):
        assert name in names
    assert names == sorted(names)
    assert models.list_models(models) == names
    assert models.list_models(include="vgg1[13]*") == ["vgg11", "vgg11_bn", "vgg13", "vgg13_bn"]
    assert models.list_models(include=["resnet*", "alexnet"], exclude="resnet1*") == ["alexnet", "resnet34",
                                                                                       "resnet50"]
    model = models.get_model("ResNet18", num_classes=5)
    assert isinstance(model, models.ResNet) and model.fc.out_features == 5
    assert models.get_model_builder("mobilenet_v2") is models.mobilenet_v2
    assert models.get_model_weights("resnet50") is models.ResNet50_Weights
    assert models.get_model_weights(models.vgg16_bn) is models.VGG16_BN_Weights
    assert models.get_weight("ResNet50_Weights.IMAGENET1K_V2") is models.ResNet50_Weights.IMAGENET1K_V2
    with pytest.raises(ValueError, match="Unknown model nope"):
        models.get_model("nope")
    with pytest.raises(ValueError, match="Invalid weight name"):
        models.get_weight("ResNet50_Weights")
    with pytest.raises(ValueError, match="couldn't be retrieved"):
        models.get_weight("Nope_Weights.IMAGENET1K_V1")
    with pytest.raises(RuntimeError, match="downloads nothing"):
        models.get_model("alexnet", weights="DEFAULT")


def test_builders_look_like_torchvision():
    assert models.resnet18.__name__ == "resnet18" and models.resnet18.__module__.endswith("models.resnet")
    assert "ResNet-18" in models.resnet18.__doc__
    assert models.vgg.VGG is models.VGG and models.resnet.BasicBlock is models.BasicBlock
    assert models.mobilenetv2.InvertedResidual is models.InvertedResidual


# --- constructor options ------------------------------------------------------------------------------

def test_resnet_options():
    with pytest.raises(ValueError, match="BasicBlock only supports groups=1 and base_width=64"):
        models.ResNet(models.BasicBlock, [1, 1, 1, 1], groups=2)
    with pytest.raises(ValueError, match="replace_stride_with_dilation should be None or a 3-element tuple"):
        models.resnet50(replace_stride_with_dilation=[True])
    with pytest.raises(ValueError, match="'groups' expected value 32 but got 8"):
        models.resnext50_32x4d(groups=8)
    model = models.ResNet(models.Bottleneck, [1, 1, 1, 2], num_classes=3, groups=4, width_per_group=8,
                          replace_stride_with_dilation=[False, True, True])
    assert tuple(model.layer1[0].conv2.weight.shape) == (32, 8, 3, 3)  # width 64*8/64*4 = 32, in 4 groups
    assert model.layer4[0].conv2.dilation == (2, 2) and model.layer4[1].conv2.dilation == (4, 4)
    feats = []
    model.layer4.register_forward_hook(lambda m, a, out: feats.append(out.shape))
    with torch.no_grad():
        assert tuple(model.eval()(_input(1, 3, 64, 64)).shape) == (1, 3)
    assert tuple(feats[0]) == (1, 2048, 8, 8)  # output stride 8 instead of 32


def test_custom_norm_layer():
    model = models.resnet18(num_classes=2, norm_layer=lambda c: nn.GroupNorm(8, c))
    sd = model.state_dict()
    assert "bn1.weight" in sd and not any("running" in k for k in sd)
    assert all((m.weight.detach().numpy() == 1).all() for m in model.modules() if isinstance(m, nn.GroupNorm))
    model.train()
    out = model(_input(1, 3, 32, 32))  # GroupNorm trains on a batch of one
    out.sum().backward()
    assert model.conv1.weight.grad is not None


def test_mobilenet_v2_options():
    half = models.mobilenet_v2(width_mult=0.5, num_classes=4)
    assert half.features[0][0].out_channels == 16 and half.last_channel == 1280
    wide = models.MobileNetV2(width_mult=1.4, round_nearest=8)
    assert wide.features[0][0].out_channels == 48 and wide.last_channel == 1792
    assert mobilenetv2._make_divisible(32 * 0.35, 8) == 16 and mobilenetv2._make_divisible(100, 8) == 104
    small = models.MobileNetV2(num_classes=2, inverted_residual_setting=[[1, 16, 1, 1], [6, 24, 2, 2]])
    assert len(small.features) == 5 and small.features[3].use_res_connect
    assert not small.features[2].use_res_connect and small.features[2]._is_cn
    with pytest.raises(ValueError, match="inverted_residual_setting should be non-empty"):
        models.MobileNetV2(inverted_residual_setting=[[1, 16, 1]])
    with pytest.raises(ValueError, match="stride should be 1 or 2 instead of 3"):
        models.InvertedResidual(8, 8, 3, 6)
    block = models.InvertedResidual(8, 8, 1, 1).eval()
    x = _input(1, 8, 5, 5)
    with torch.no_grad():
        np.testing.assert_allclose(block(x).numpy(), (x + block.conv(x)).numpy(), rtol=1e-6)


def test_dropout_options():
    assert models.mobilenet_v2(dropout=0.3).classifier[0].p == 0.3
    model = models.alexnet(num_classes=10, dropout=0.1)
    assert [m.p for m in model.classifier if isinstance(m, nn.Dropout)] == [0.1, 0.1]
    assert model.classifier[6].out_features == 10


# --- loading a state_dict file: the way to use trained weights ----------------------------------------

@pytest.mark.parametrize("suffix", [".pth", ".safetensors"])
def test_state_dict_file_roundtrip(tmp_path, suffix):
    if suffix == ".safetensors":
        pytest.importorskip("safetensors")
    torch.manual_seed(7)
    src = models.mobilenet_v2(num_classes=5)
    src(_input(2, 3, 32, 32))  # running statistics move away from their initial values
    path = tmp_path / ("mnv2" + suffix)
    torch.save(src.state_dict(), path)
    torch.manual_seed(8)
    dst = models.mobilenet_v2(num_classes=5)
    assert str(dst.load_state_dict(torch.load(path))) == "<All keys matched successfully>"
    x = _input(1, 3, 32, 32, seed=1)
    with torch.no_grad():
        np.testing.assert_array_equal(dst.eval()(x).numpy(), src.eval()(x).numpy())
    assert int(dst.features[0][1].num_batches_tracked) == 1
    with pytest.raises(RuntimeError, match="size mismatch for classifier.1.weight"):
        models.mobilenet_v2().load_state_dict(torch.load(path))
