"""funcgrad.compat.vision.models: torchvision's architectures (parameter counts, state_dict
names and shapes, repr, initialisation, forward shapes, training, BatchNorm modes).

The parameter counts are torchvision's published figures (its weights' ``num_params``).
VGG and AlexNet have 60-140 million parameters: the structural tests build them with
the big random fills replaced by zeros (``_skip_big_fills``), which leaves shapes and names intact.
"""

import math
from contextlib import contextmanager

import numpy as np
import pytest

import funcgrad.compat as torch
import funcgrad.compat.vision as torchvision
from funcgrad.compat import nn
from funcgrad.compat.nn import init
from funcgrad.compat.vision.models import resnet

models = torchvision.models
BIG = 1 << 22  # fills of more elements are skipped in the structural tests of VGG/AlexNet


@contextmanager
def _skip_big_fills(record=None):
    """Random fills of more than BIG elements fill zeros instead (``record`` gets their (name, shape, args))."""
    original = {name: getattr(init, name) for name in ("uniform_", "normal_")}

    def patched(name):
        def fill(tensor, *args, **kwargs):
            if tensor.numel() > BIG:
                if record is not None:
                    record.append((name, tuple(tensor.shape), args))
                return init.zeros_(tensor)
            return original[name](tensor, *args, **kwargs)
        return fill

    with pytest.MonkeyPatch.context() as mp:
        for name in original:
            mp.setattr(init, name, patched(name))
        yield


def _count(model):
    return sum(p.numel() for p in model.parameters())


def _input(*shape, seed=0):
    return torch.tensor(np.random.default_rng(seed).standard_normal(shape).astype(np.float32))


@pytest.fixture(scope="module")
def r18():
    torch.manual_seed(0)
    return models.resnet18()


# --- parameter counts, names, shapes ---------------------------------------------------------

@pytest.mark.parametrize("name, expected", [
    ("resnet18", 11_689_512), ("resnet34", 21_797_672), ("resnet50", 25_557_032), ("mobilenet_v2", 3_504_872),
])
def test_parameter_counts(name, expected):
    model = getattr(models, name)()
    assert _count(model) == expected == models.get_model_weights(name).DEFAULT.meta["num_params"]


@pytest.mark.parametrize("name, expected, keys", [
    ("vgg11", 132_863_336, {"features.18.weight": (512, 512, 3, 3), "classifier.6.weight": (1000, 4096)}),
    ("vgg16", 138_357_544, {"features.28.weight": (512, 512, 3, 3), "features.0.bias": (64,),
                            "classifier.0.weight": (4096, 25088), "classifier.6.weight": (1000, 4096)}),
    ("vgg11_bn", 132_868_840, {"features.1.running_var": (64,), "features.25.weight": (512, 512, 3, 3)}),
    ("alexnet", 61_100_840, {"features.0.weight": (64, 3, 11, 11), "features.10.weight": (256, 256, 3, 3),
                             "classifier.1.weight": (4096, 9216), "classifier.6.bias": (1000,)}),
])
def test_big_models_counts_keys_and_forward(name, expected, keys):
    with _skip_big_fills():
        model = getattr(models, name)()
    assert _count(model) == expected
    sd = model.state_dict()
    for key, shape in keys.items():
        assert tuple(sd[key].shape) == shape, key
    model.eval()
    size = 64 if name == "alexnet" else 32  # AlexNet needs at least 63x63
    with torch.no_grad():
        out = model(_input(1, 3, size, size))
    assert tuple(out.shape) == (1, 1000) and np.isfinite(out.numpy()).all()


def test_resnet18_state_dict_names_and_shapes(r18):
    sd = r18.state_dict()
    assert len(sd) == 122  # 62 parameters, 20 BatchNorms x 3 buffers
    assert list(sd)[:7] == ["conv1.weight", "bn1.weight", "bn1.bias", "bn1.running_mean", "bn1.running_var",
                            "bn1.num_batches_tracked", "layer1.0.conv1.weight"]
    expected = {"conv1.weight": (64, 3, 7, 7), "layer1.0.conv1.weight": (64, 64, 3, 3),
                "layer2.0.downsample.0.weight": (128, 64, 1, 1), "layer2.0.downsample.1.running_mean": (128,),
                "layer4.1.bn2.running_var": (512,), "fc.weight": (1000, 512), "fc.bias": (1000,)}
    for key, shape in expected.items():
        assert tuple(sd[key].shape) == shape, key
    assert sd["layer4.1.bn2.num_batches_tracked"].dtype == torch.int64
    assert "layer1.0.downsample.0.weight" not in sd


def test_resnet50_and_mobilenet_v2_names_and_shapes():
    sd = models.resnet50().state_dict()
    assert tuple(sd["layer1.0.conv3.weight"].shape) == (256, 64, 1, 1)
    assert tuple(sd["layer1.0.downsample.0.weight"].shape) == (256, 64, 1, 1)
    assert tuple(sd["layer4.2.bn3.running_mean"].shape) == (2048,)
    assert tuple(sd["fc.weight"].shape) == (1000, 2048)
    sd = models.mobilenet_v2().state_dict()
    expected = {"features.0.0.weight": (32, 3, 3, 3), "features.0.1.running_var": (32,),
                "features.1.conv.0.0.weight": (32, 1, 3, 3),  # depthwise, no expansion in block 1
                "features.1.conv.1.weight": (16, 32, 1, 1), "features.2.conv.0.0.weight": (96, 16, 1, 1),
                "features.2.conv.1.0.weight": (96, 1, 3, 3), "features.18.0.weight": (1280, 320, 1, 1),
                "classifier.1.weight": (1000, 1280)}
    for key, shape in expected.items():
        assert tuple(sd[key].shape) == shape, key


def test_repr_matches_torchvision(r18):
    lines = repr(r18).split("\n")
    assert lines[:8] == [
        "ResNet(",
        "  (conv1): Conv2d(3, 64, kernel_size=(7, 7), stride=(2, 2), padding=(3, 3), bias=False)",
        "  (bn1): BatchNorm2d(64, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)",
        "  (relu): ReLU(inplace=True)",
        "  (maxpool): MaxPool2d(kernel_size=3, stride=2, padding=1, dilation=1, ceil_mode=False)",
        "  (layer1): Sequential(",
        "    (0): BasicBlock(",
        "      (conv1): Conv2d(64, 64, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1), bias=False)",
    ]
    assert lines[-3:] == ["  (avgpool): AdaptiveAvgPool2d(output_size=(1, 1))",
                          "  (fc): Linear(in_features=512, out_features=1000, bias=True)", ")"]
    text = repr(models.mobilenet_v2(num_classes=10))
    assert ("  (features): Sequential(\n    (0): Conv2dNormActivation(\n"
            "      (0): Conv2d(3, 32, kernel_size=(3, 3), stride=(2, 2), padding=(1, 1), bias=False)\n") in text
    assert "(0): Conv2d(32, 32, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1), groups=32, bias=False)" in text
    assert "(2): ReLU6(inplace=True)" in text
    assert text.endswith("  (classifier): Sequential(\n    (0): Dropout(p=0.2, inplace=False)\n"
                         "    (1): Linear(in_features=1280, out_features=10, bias=True)\n  )\n)")


# --- initialisation --------------------------------------------------------------------------

def _std_ok(t, std, rel=0.1):
    assert abs(float(t.std()) - std) < rel * std and abs(float(t.mean())) < 4 * std / math.sqrt(t.numel())


def test_resnet_init(r18):
    _std_ok(r18.conv1.weight, math.sqrt(2 / (64 * 49)))  # kaiming_normal_, fan_out, relu
    _std_ok(r18.layer3[0].conv1.weight, math.sqrt(2 / (256 * 9)))
    for m in r18.modules():
        if isinstance(m, nn.BatchNorm2d):
            assert (m.weight.detach().numpy() == 1).all() and (m.bias.detach().numpy() == 0).all()
    bound = 1 / math.sqrt(512)  # fc keeps nn.Linear's default U(-1/sqrt(in), 1/sqrt(in))
    w = r18.fc.weight.detach().numpy()
    assert abs(w).max() <= bound and abs(w).max() > 0.95 * bound and abs(r18.fc.bias.detach().numpy()).max() <= bound


def test_mobilenet_v2_init():
    torch.manual_seed(1)
    model = models.mobilenet_v2()
    _std_ok(model.features[0][0].weight, math.sqrt(2 / (32 * 9)))  # kaiming_normal_ fan_out
    _std_ok(model.features[18][0].weight, math.sqrt(2 / 1280))
    _std_ok(model.classifier[1].weight, 0.01)
    assert (model.classifier[1].bias.detach().numpy() == 0).all()
    assert all((m.weight.detach().numpy() == 1).all() for m in model.modules() if isinstance(m, nn.BatchNorm2d))


def test_vgg_init():
    record = []
    torch.manual_seed(2)
    with _skip_big_fills(record):
        model = models.vgg11_bn(num_classes=10)
    convs = [m for m in model.features if isinstance(m, nn.Conv2d)]
    _std_ok(convs[0].weight, math.sqrt(2 / (64 * 9)))
    _std_ok(convs[4].weight, math.sqrt(2 / (512 * 9)))
    assert all((c.bias.detach().numpy() == 0).all() for c in convs)
    # the two big linears: nn.Linear's default fill, then VGG's normal_(0, 0.01)
    assert [r for r in record if r[0] == "normal_"] == [("normal_", (4096, 25088), (0, 0.01)),
                                                        ("normal_", (4096, 4096), (0, 0.01))]
    _std_ok(model.classifier[6].weight, 0.01)
    assert all((m.bias.detach().numpy() == 0).all() for m in model.classifier if isinstance(m, nn.Linear))


def test_zero_init_residual():
    torch.manual_seed(3)
    model = models.resnet18(zero_init_residual=True).eval()
    assert all((b.bn2.weight.detach().numpy() == 0).all() for b in model.modules() if isinstance(b, resnet.BasicBlock))
    block, x = model.layer1[0], torch.relu(_input(2, 64, 8, 8))
    with torch.no_grad():
        np.testing.assert_allclose(block(x).numpy(), x.numpy())  # a zeroed residual branch: relu(0 + x)
    big = models.resnet50(zero_init_residual=True)
    assert all((b.bn3.weight.detach().numpy() == 0).all() for b in big.modules() if isinstance(b, resnet.Bottleneck))
    assert (big.layer1[0].bn2.weight.detach().numpy() == 1).all()


# --- forward, training, modes ------------------------------------------------------------------

@pytest.mark.parametrize("build, size", [
    (lambda: models.resnet18(num_classes=10), 32), (lambda: models.resnet50(num_classes=10), 32),
    (lambda: models.mobilenet_v2(num_classes=10), 32), (lambda: models.mobilenet_v2(width_mult=0.5), 64),
    (lambda: models.resnext50_32x4d(num_classes=7), 32),
])
def test_forward_shapes(build, size):
    model = build()
    with torch.no_grad():
        out = model.eval()(_input(2, 3, size, size))
    assert tuple(out.shape) == (2, model.fc.out_features if hasattr(model, "fc") else
                                model.classifier[-1].out_features)
    assert out.dtype == torch.float32 and out.is_contiguous()


def test_resnet18_training_step():
    torch.manual_seed(4)
    model = models.resnet18(num_classes=4)
    x, y = _input(4, 3, 16, 16, seed=4), torch.tensor([0, 1, 2, 3])
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    loss = nn.CrossEntropyLoss()(model(x), y)
    loss.backward()
    for name, p in model.named_parameters():
        assert p.grad is not None and tuple(p.grad.shape) == tuple(p.shape), name
        assert np.isfinite(p.grad.numpy()).all() and np.abs(p.grad.numpy()).max() > 0, name
    opt.step()
    assert float(nn.CrossEntropyLoss()(model(x), y)) < float(loss)
    assert int(model.bn1.num_batches_tracked) == 2


def test_batchnorm_train_vs_eval():
    torch.manual_seed(5)
    model = models.resnet18(num_classes=5)
    x = _input(4, 3, 16, 16, seed=5)
    before = model.bn1.running_mean.clone()
    with torch.no_grad():
        train_out = model(x)
        train_first = model(x[:2])
    assert not np.allclose(model.bn1.running_mean.numpy(), before.numpy())  # batch statistics were recorded
    assert int(model.layer4[1].bn2.num_batches_tracked) == 2
    # in training, a sample's output depends on the rest of its batch
    assert not np.allclose(train_out[:2].numpy(), train_first.numpy(), atol=1e-4)
    model.eval()
    stats = model.bn1.running_mean.clone()
    with torch.no_grad():
        out, first = model(x), model(x[:2])
    np.testing.assert_allclose(out[:2].numpy(), first.numpy(), rtol=1e-4, atol=1e-5)  # running statistics
    np.testing.assert_array_equal(model.bn1.running_mean.numpy(), stats.numpy())
    assert int(model.bn1.num_batches_tracked) == 2


def test_dropout_only_in_training():
    torch.manual_seed(6)
    model = models.mobilenet_v2(num_classes=3, dropout=0.5)
    assert model.classifier[0].p == 0.5
    x = _input(2, 3, 32, 32, seed=6)
    with torch.no_grad():
        assert not np.allclose(model(x).numpy(), model(x).numpy())
        model.eval()
        np.testing.assert_array_equal(model(x).numpy(), model(x).numpy())


def test_vgg_small_input_pools_up_to_7x7():
    with _skip_big_fills():
        model = models.vgg11(num_classes=3)
    with torch.no_grad():
        feats = model.features(_input(1, 3, 32, 32))
        pooled = model.avgpool(feats)
    assert tuple(feats.shape) == (1, 512, 1, 1) and tuple(pooled.shape) == (1, 512, 7, 7)
    np.testing.assert_allclose(pooled.numpy(), np.broadcast_to(feats.numpy(), (1, 512, 7, 7)), rtol=1e-6)


def test_double_precision():
    model = models.mobilenet_v2(num_classes=4).double().eval()
    with torch.no_grad():
        out = model(_input(1, 3, 32, 32).double())
    assert out.dtype == torch.float64
