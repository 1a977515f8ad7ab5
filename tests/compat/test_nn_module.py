"""compat nn.Module: registration, traversal order, state_dict, hooks, modes, repr, containers."""

from collections import OrderedDict

import numpy as np
import pytest

import funcgrad.compat as torch
from funcgrad.compat import nn


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.fc = nn.Linear(3, 2)
        self.scale = nn.Parameter(torch.ones(1))
        self.register_buffer("count", torch.zeros(1))

    def forward(self, x):
        return self.fc(x) * self.scale


def test_registration_and_named_parameters_order():
    net = Net()
    # own parameters first, then children's (not attribute order)
    assert [n for n, _ in net.named_parameters()] == ["scale", "fc.weight", "fc.bias"]
    assert [n for n, _ in net.named_buffers()] == ["count"]
    assert net.scale.requires_grad and isinstance(net.scale, nn.Parameter)
    assert [n for n, _ in net.named_children()] == ["fc"]
    assert [n for n, _ in net.named_modules()] == ["", "fc"]
    assert "fc" in net._modules and "scale" in net._parameters and "count" in net._buffers
    with pytest.raises(AttributeError, match="'Net' object has no attribute 'nope'"):
        net.nope
    with pytest.raises(TypeError, match="cannot assign 'Tensor' as parameter 'scale'"):
        net.scale = torch.ones(1)
    net.scale = None
    assert [n for n, _ in net.named_parameters()] == ["fc.weight", "fc.bias"]
    del net.fc
    assert list(net.children()) == []


def test_assign_before_init_and_bad_names():
    class Bad(nn.Module):
        def __init__(self):
            self.fc = nn.Linear(1, 1)

    with pytest.raises(AttributeError, match="before Module.__init__"):
        Bad()
    m = nn.Module()
    with pytest.raises(KeyError, match="contain"):
        m.register_buffer("a.b", torch.ones(1))
    with pytest.raises(TypeError, match="not a Module subclass"):
        m.add_module("x", 3)


def test_shared_layer_listed_once_in_parameters_and_under_every_name_in_state_dict():
    lin = nn.Linear(2, 2)
    seq = nn.Sequential(lin, nn.ReLU(), lin)
    assert len(list(seq.parameters())) == 2
    assert list(seq.state_dict()) == ["0.weight", "0.bias", "2.weight", "2.bias"]
    sd = seq.state_dict()
    sd["0.weight"][0, 0] = 123.0  # shares storage with the model
    assert lin.weight[0, 0].item() == 123.0
    assert not sd["0.weight"].requires_grad and seq.state_dict(keep_vars=True)["0.weight"] is lin.weight


def test_apply_visits_children_before_root_and_train_eval():
    seq = nn.Sequential(OrderedDict([("a", nn.Linear(1, 1)), ("b", nn.Sequential(nn.Dropout()))]))
    seen = []
    seq.apply(lambda m: seen.append(type(m).__name__))
    assert seen == ["Linear", "Dropout", "Sequential", "Sequential"]
    assert seq.training and seq.b[0].training
    assert seq.eval() is seq and not seq.b[0].training
    seq.train()
    assert seq.b[0].training


def test_load_state_dict_strict_errors_and_nonstrict_result():
    net = Net()
    sd = net.state_dict()
    sd["extra"] = torch.ones(1)
    del sd["fc.bias"]
    with pytest.raises(RuntimeError) as e:
        net.load_state_dict(sd)
    assert str(e.value) == ('Error(s) in loading state_dict for Net:\n\tMissing key(s) in state_dict: "fc.bias". '
                            '\n\tUnexpected key(s) in state_dict: "extra". ')
    r = net.load_state_dict(sd, strict=False)
    assert r.missing_keys == ["fc.bias"] and r.unexpected_keys == ["extra"]
    assert repr(net.load_state_dict(net.state_dict())) == "<All keys matched successfully>"
    bad = net.state_dict()
    bad["fc.weight"] = torch.ones(3, 3)
    with pytest.raises(RuntimeError, match=r"size mismatch for fc.weight: copying a param with shape "
                                           r"torch.Size\(\[3, 3\]\) from checkpoint, the shape in current model "
                                           r"is torch.Size\(\[2, 3\]\)"):
        net.load_state_dict(bad, strict=False)


def test_load_state_dict_copies_in_place():
    a, b = Net(), Net()
    w = b.fc.weight
    b.load_state_dict(a.state_dict())
    assert b.fc.weight is w
    np.testing.assert_array_equal(w.detach().numpy(), a.fc.weight.detach().numpy())


def test_zero_grad_requires_grad_and_dtype_moves():
    net = Net()
    net(torch.ones(1, 3)).sum().backward()
    assert net.fc.weight.grad is not None
    net.zero_grad()
    assert net.fc.weight.grad is None
    net.requires_grad_(False)
    assert not any(p.requires_grad for p in net.parameters())
    w = net.fc.weight
    assert net.double() is net and net.fc.weight is w and w.dtype == torch.float64
    assert net.count.dtype == torch.float64
    net.to(torch.float32)
    assert w.dtype == torch.float32
    assert net.cpu() is net
    with pytest.raises(TypeError, match="floating point"):
        net.to(torch.int64)


def test_forward_hooks_and_pre_hooks_with_handles():
    lin = nn.Linear(2, 2)
    calls = []
    h1 = lin.register_forward_pre_hook(lambda m, args: (args[0] * 0,))
    h2 = lin.register_forward_hook(lambda m, args, out: calls.append(out.shape) or out + 1)
    out = lin(torch.ones(1, 2))
    np.testing.assert_allclose(out.detach().numpy(), (lin.bias + 1).detach().numpy()[None])
    assert calls == [torch.Size([1, 2])]
    h1.remove()
    h2.remove()
    out = lin(torch.ones(1, 2))
    assert len(calls) == 1


def test_repr_matches_pytorch():
    net = nn.Sequential(OrderedDict([("conv1", nn.Conv2d(3, 3, 3)), ("bn1", nn.BatchNorm2d(3)),
                                     ("relu1", nn.ReLU()), ("pool", nn.MaxPool2d(2))]))
    assert repr(net) == (
        "Sequential(\n"
        "  (conv1): Conv2d(3, 3, kernel_size=(3, 3), stride=(1, 1))\n"
        "  (bn1): BatchNorm2d(3, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)\n"
        "  (relu1): ReLU()\n"
        "  (pool): MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)\n"
        ")")
    assert repr(nn.Conv2d(3, 32, 3, 1, 1)) == "Conv2d(3, 32, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1))"
    assert repr(nn.Linear(2, 3, bias=False)) == "Linear(in_features=2, out_features=3, bias=False)"
    assert repr(nn.Dropout(0.5)) == "Dropout(p=0.5, inplace=False)"
    assert repr(nn.ReLU(inplace=True)) == "ReLU(inplace=True)"
    assert repr(nn.CrossEntropyLoss()) == "CrossEntropyLoss()"
    assert repr(nn.Sequential(nn.Sequential(nn.Tanh()))) == \
        "Sequential(\n  (0): Sequential(\n    (0): Tanh()\n  )\n)"


def test_sequential_three_ways_and_indexing():
    net1 = nn.Sequential()
    net1.add_module("conv", nn.Conv2d(3, 3, 3))
    net1.add_module("batchnorm", nn.BatchNorm2d(3))
    net1.add_module("activation_layer", nn.ReLU())
    net2 = nn.Sequential(nn.Conv2d(3, 3, 3), nn.BatchNorm2d(3), nn.ReLU())
    net3 = nn.Sequential(OrderedDict([("conv1", nn.Conv2d(3, 3, 3)), ("bn1", nn.BatchNorm2d(3)),
                                      ("relu1", nn.ReLU())]))
    assert isinstance(net1.conv, nn.Conv2d) and isinstance(net2[0], nn.Conv2d) and isinstance(net3.conv1, nn.Conv2d)
    assert net2[-1] is net2[2] and isinstance(net2[1:], nn.Sequential) and len(net2[1:]) == 2
    assert net3["bn1"] is net3.bn1
    x = torch.randn(2, 3, 5, 5)
    for n in (net1, net2, net3):
        assert n(x).shape == (2, 3, 3, 3)
    with pytest.raises(IndexError):
        net2[3]


def test_module_list_dict_parameter_list_dict():
    ml = nn.ModuleList([nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)])
    x = torch.randn(1, 3)
    for m in ml:
        x = m(x)
    assert x.shape == (1, 2) and len(list(ml.parameters())) == 4
    with pytest.raises(NotImplementedError):
        ml(x)
    ml.append(nn.Tanh())
    assert len(ml) == 4 and isinstance(ml[-1], nn.Tanh)
    md = nn.ModuleDict({"a": nn.Linear(1, 1)})
    md["b"] = nn.ReLU()
    assert list(md.keys()) == ["a", "b"] and [n for n, _ in md.named_parameters()] == ["a.weight", "a.bias"]
    pl = nn.ParameterList([nn.Parameter(torch.ones(2)), torch.zeros(3)])
    assert [n for n, _ in pl.named_parameters()] == ["0", "1"] and isinstance(pl[1], nn.Parameter)
    pd = nn.ParameterDict({"w": torch.ones(2)})
    assert isinstance(pd["w"], nn.Parameter) and list(dict(pd.named_parameters())) == ["w"]


def test_custom_linear_from_the_seeds():
    class Linear(nn.Module):
        def __init__(self, in_features, out_features):
            super(Linear, self).__init__()
            self.w = nn.Parameter(torch.randn(in_features, out_features))
            self.b = nn.Parameter(torch.randn(out_features))

        def forward(self, x):
            x = x.mm(self.w)
            return x + self.b.expand_as(x)

    layer = Linear(4, 3)
    out = layer(torch.randn(2, 4))
    out.sum().backward()
    assert out.shape == (2, 3) and layer.w.grad.shape == (4, 3)
    assert [n for n, _ in layer.named_parameters()] == ["w", "b"]


def test_parameter_repr_and_sharing():
    t = torch.zeros(2)
    p = nn.Parameter(t)
    assert repr(p).startswith("Parameter containing:\ntensor([0., 0.], requires_grad=True)")
    with torch.no_grad():
        p[0] = 5
    assert t[0].item() == 5
    assert not nn.Parameter(torch.ones(1), requires_grad=False).requires_grad


def test_parameter_container_reprs():
    pl = nn.ParameterList([nn.Parameter(torch.ones(2))])
    assert repr(pl) == "ParameterList(  (0): Parameter containing: [torch.float32 of size 2])"
    pd = nn.ParameterDict({"a": nn.Parameter(torch.ones(2, 3))})
    assert repr(pd) == "ParameterDict(  (a): Parameter containing: [torch.float32 of size 2x3])"
    assert repr(nn.Embedding(5, 3, padding_idx=0)) == "Embedding(5, 3, padding_idx=0)"


def test_to_forms_deepcopy_and_dict_containers():
    import copy

    m = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))
    assert m.to("cpu") is m and m.to(torch.device("cpu")) is m
    m.to(torch.ones(1, dtype=torch.float64))
    assert m[0].weight.dtype == torch.float64 and m[1].num_batches_tracked.dtype == torch.int64
    m.float()
    m(torch.randn(4, 2)).sum().backward()
    c = copy.deepcopy(m)
    assert isinstance(c[0].weight, nn.Parameter) and c[0].weight is not m[0].weight
    assert torch.equal(c[0].weight, m[0].weight) and c[0].weight.grad is not None
    md = nn.ModuleDict({"a": nn.Linear(1, 1)})
    assert "a" in md and isinstance(md.pop("a"), nn.Linear) and len(md) == 0
    md.update([("b", nn.ReLU())])
    assert list(md) == ["b"]


def test_list_operations_renumber():
    seq = nn.Sequential(OrderedDict([("a", nn.ReLU()), ("b", nn.Tanh()), ("c", nn.Sigmoid())]))
    del seq[1]
    assert list(seq._modules) == ["0", "1"] and isinstance(seq[1], nn.Sigmoid)
    seq.insert(0, nn.Identity())
    seq.append(nn.ReLU())
    assert [type(m).__name__ for m in seq] == ["Identity", "ReLU", "Sigmoid", "ReLU"]
    ml = nn.ModuleList([nn.ReLU(), nn.Tanh(), nn.Sigmoid()])
    del ml[0:2]
    assert len(ml) == 1 and isinstance(ml[0], nn.Sigmoid)
    ml.insert(0, nn.Tanh())
    assert [n for n, _ in ml.named_children()] == ["0", "1"]
    with pytest.raises(IndexError):
        del ml[5]


def test_backward_hooks():
    lin = nn.Linear(3, 2)
    seen = []
    h1 = lin.register_full_backward_hook(
        lambda m, gi, go: seen.append(("full", [None if g is None else tuple(g.shape) for g in gi],
                                       [tuple(g.shape) for g in go])))
    h2 = lin.register_full_backward_pre_hook(lambda m, go: seen.append(("pre", tuple(go[0].shape))))
    x = torch.randn(4, 3, requires_grad=True)
    lin(x).sum().backward()
    assert seen == [("pre", (4, 2)), ("full", [(4, 3)], [(4, 2)])]
    np.testing.assert_allclose(x.grad.numpy(), np.tile(lin.weight.detach().numpy().sum(0), (4, 1)), rtol=1e-6)
    seen.clear()
    lin(torch.randn(4, 3)).sum().backward()  # no input needs grad: grad_input is all None
    assert seen == [("pre", (4, 2)), ("full", [None], [(4, 2)])]
    h1.remove()
    h2.remove()
    lin.register_full_backward_hook(lambda m, gi, go: (gi[0] * 0,))
    lin.register_full_backward_pre_hook(lambda m, go: (go[0] * 2,))
    x.grad = None
    lin.weight.grad = None
    lin(x).sum().backward()
    assert (x.grad == 0).all()
    np.testing.assert_allclose(lin.weight.grad.numpy(), np.tile(2 * x.detach().numpy().sum(0), (2, 1)), rtol=1e-5)
    with pytest.warns(FutureWarning, match="register_backward_hook is deprecated"):
        lin.register_backward_hook(lambda m, gi, go: None)
