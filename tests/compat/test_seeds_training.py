"""The seed notes' nn/optim/data/save snippets, run as written under ``import funcgrad.compat as t``."""

import warnings
from collections import OrderedDict

import pytest

import funcgrad.compat as t
import funcgrad.compat.nn as nn
import funcgrad.compat.nn.functional as F
import funcgrad.compat.utils.data as Data
from funcgrad.compat import optim
from funcgrad.compat.nn import init


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), (2, 2))
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = x.view(x.size()[0], -1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x


def test_cifar10_style_training_loop_learns():
    t.manual_seed(0)
    n = 32
    labels = t.arange(n) % 2
    images = t.randn(n, 3, 32, 32) * 0.5
    images[:, 0] += (labels.float() * 2 - 1).view(n, 1, 1) * 2.0  # class shows in the red channel
    trainset = Data.TensorDataset(images, labels)
    trainloader = t.utils.data.DataLoader(trainset, batch_size=8, shuffle=True, num_workers=2)
    net = Net()
    criterion = nn.CrossEntropyLoss()
    optimizer = optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
    t.set_num_threads(8)
    losses = []
    for epoch in range(3):
        running_loss = 0.0
        for i, data in enumerate(trainloader, 0):
            inputs, labels_b = data
            optimizer.zero_grad()
            outputs = net(inputs)
            loss = criterion(outputs, labels_b)
            loss.backward()
            optimizer.step()
            running_loss += loss.item()
        losses.append(running_loss / len(trainloader))
    assert losses[-1] < 0.75 * losses[0], losses
    with t.no_grad():
        net.eval()
        acc = (net(images).max(1)[1] == labels).float().mean().item()
    assert acc > 0.8


def test_net_parameters_listing():
    net = Net()
    params = list(net.parameters())
    assert len(params) == 10
    names = [(name, tuple(p.size())) for name, p in net.named_parameters()]
    assert names[0] == ("conv1.weight", (6, 3, 5, 5)) and names[4] == ("fc1.weight", (120, 400))
    out = net(t.randn(1, 3, 32, 32))
    net.zero_grad()
    out.backward(t.ones(1, 10))
    assert all(p.grad is not None for p in params)
    learning_rate = 0.01
    before = params[0].detach().clone()
    for f in net.parameters():
        f.data.sub_(f.grad.data * learning_rate)
    assert t.allclose(params[0].detach(), before - learning_rate * params[0].grad)


def test_param_groups_finetune_pattern():
    class VGGish(nn.Module):
        def __init__(self):
            super().__init__()
            self.features = nn.Sequential(nn.Conv2d(3, 4, 3), nn.ReLU())
            self.classifier = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Dropout(), nn.Linear(8, 2))

        def forward(self, x):
            return self.classifier(self.features(x).mean((2, 3)))

    net = VGGish()
    optimizer = optim.SGD([{"params": net.features.parameters()},
                           {"params": net.classifier.parameters(), "lr": 1e-2}], lr=1e-5)
    assert [g["lr"] for g in optimizer.param_groups] == [1e-5, 1e-2]
    special_layers = nn.ModuleList([net.classifier[0], net.classifier[3]])
    special_layers_params = list(map(id, special_layers.parameters()))
    base_params = filter(lambda p: id(p) not in special_layers_params, net.parameters())
    optimizer = t.optim.SGD([{"params": base_params}, {"params": special_layers.parameters(), "lr": 0.01}],
                            lr=0.001)
    assert len(optimizer.param_groups[0]["params"]) == 2 and len(optimizer.param_groups[1]["params"]) == 4
    for param_group in optimizer.param_groups:
        param_group["lr"] *= 0.1
    assert optimizer.param_groups[1]["lr"] == pytest.approx(0.001)
    assert "Parameter Group 1" in repr(optimizer)
    net(t.randn(2, 3, 6, 6)).sum().backward()
    optimizer.step()


def test_forward_hook_feature_extraction():
    model = nn.Sequential(OrderedDict([("layer7", nn.Linear(3, 4)), ("layer8", nn.ReLU())]))
    features = t.Tensor()

    def hook(module, input, output):
        features.resize_(output.shape).copy_(output.data)

    handle = model.layer8.register_forward_hook(hook)
    inp = t.randn(2, 3)
    _ = model(inp)
    handle.remove()
    assert t.equal(features, F.relu(model.layer7(inp)).detach())


def test_layers_section_snippets():
    kernel = t.ones(3, 3) / -9.
    kernel[1][1] = 1
    conv = nn.Conv2d(1, 1, (3, 3), 1, bias=False)
    conv.weight.data = kernel.view(1, 1, 3, 3)
    out = conv(t.ones(1, 1, 5, 5))
    assert out.shape == (1, 1, 3, 3) and t.allclose(out, t.full((1, 1, 3, 3), 1 / 9), atol=1e-6)
    pool = nn.AvgPool2d(2, 2)
    assert pool(t.ones(1, 1, 4, 4)).shape == (1, 1, 2, 2)
    input = t.randn(2, 3)
    linear = nn.Linear(3, 4)
    h = linear(input)
    bn = nn.BatchNorm1d(4)
    bn.weight.data = t.ones(4) * 4
    bn.bias.data = t.zeros(4)
    bn_out = bn(h)
    assert t.allclose(bn_out.mean(0), t.zeros(4), atol=1e-5)
    dropout = nn.Dropout(0.5)
    o = dropout(bn_out)
    assert o.shape == (2, 4)
    relu = nn.ReLU(inplace=True)
    inp = t.randn(2, 3)
    output = relu(inp)
    assert output is inp and (inp >= 0).all()
    score = t.randn(3, 2)
    label = t.Tensor([1, 0, 1]).long()
    criterion = nn.CrossEntropyLoss()
    loss = criterion(score, label)
    assert loss.dim() == 0
    modellist = nn.ModuleList([nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)])
    x = t.randn(1, 3)
    for model in modellist:
        x = model(x)
    assert x.shape == (1, 2)
    linear = nn.Linear(3, 4)
    t.manual_seed(1)
    init.xavier_normal_(linear.weight)


def test_persistence_snippets(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    net1 = nn.Sequential(nn.Linear(1, 10), nn.ReLU(), nn.Linear(10, 1))
    t.save(net1, "net.pkl")
    t.save(net1.state_dict(), "net_params.pkl")
    with pytest.raises(Exception, match="weights_only"):
        t.load("net.pkl")  # PyTorch >= 2.6: whole modules need weights_only=False
    net2 = t.load("net.pkl", weights_only=False)
    net3 = t.nn.Sequential(t.nn.Linear(1, 10), t.nn.ReLU(), t.nn.Linear(10, 1))
    net3.load_state_dict(t.load("net_params.pkl"))
    x = t.randn(4, 1)
    assert t.equal(net2(x), net1(x)) and t.equal(net3(x), net1(x))
    a = t.randn(3)
    t.save(a, "a.pth")
    b = t.load("a.pth", map_location=lambda storage, loc: storage)
    assert t.equal(a, b)


def test_dataloader_snippet_with_old_keywords_and_dataiter_next():
    BATCH_SIZE = 5
    x = t.linspace(1, 10, 10)
    y = t.linspace(10, 1, 10)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        torch_dataset = Data.TensorDataset(data_tensor=x, target_tensor=y)
    loader = Data.DataLoader(dataset=torch_dataset, batch_size=BATCH_SIZE, shuffle=True, num_workers=2)
    seen = []
    for epoch in range(2):
        for step, (batch_x, batch_y) in enumerate(loader):
            assert batch_x.shape == (5,)
            seen += batch_x.tolist()
    assert sorted(seen) == sorted(x.tolist() * 2)
    dataiter = iter(loader)
    images, labels = dataiter.next()
    assert t.equal(images + labels, t.full((5,), 11.0))


def test_train_eval_no_grad_and_frozen_layers():
    model = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.5), nn.Linear(8, 2))
    model.train()
    with t.no_grad():
        model.eval()
        out = model(t.ones(2, 4))
    assert not out.requires_grad and t.equal(out, model(t.ones(2, 4)).detach())
    for p in model[0].parameters():
        p.requires_grad = False
    out = model(t.ones(2, 4))
    out.sum().backward()
    assert model[0].weight.grad is None and model[2].weight.grad is not None
