"""compat torch.save / torch.load: tensors, state_dicts, optimizer state, whole modules, safety."""

import io
import os
import pickle

import numpy as np
import pytest

import funcgrad.compat as torch
from funcgrad.compat import nn, optim


class Evil:
    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (open, (self.path, "w"))


def _net():
    return nn.Sequential(nn.Linear(1, 10), nn.ReLU(), nn.Linear(10, 1))


def test_tensor_round_trip_dtypes_and_requires_grad(tmp_path):
    f = tmp_path / "a.pth"
    objs = {"f": torch.randn(2, 3), "d": torch.arange(4, dtype=torch.float64), "i": torch.tensor([1, 2]),
            "b": torch.tensor([True, False]), "s": torch.tensor(3.5), "e": torch.empty(0, 2),
            "g": torch.ones(2, requires_grad=True), "n": [1, "x", (2.5, None)]}
    torch.save(objs, f)
    back = torch.load(f)
    for k in "fdibse":
        assert back[k].dtype == objs[k].dtype and torch.equal(back[k], objs[k])
    assert back["g"].requires_grad and back["g"].is_leaf and back["n"] == [1, "x", (2.5, None)]
    buf = io.BytesIO()
    torch.save(objs["f"], buf)
    buf.seek(0)
    assert torch.equal(torch.load(buf), objs["f"])


def test_views_saved_together_keep_sharing(tmp_path):
    x = torch.arange(12.0).view(3, 4)
    torch.save({"x": x, "row": x[1], "t": x.t(), "col": x[:, 2]}, tmp_path / "v.pth")
    back = torch.load(tmp_path / "v.pth")
    back["row"][0] = -1.0
    assert back["x"][1, 0].item() == -1.0 and back["t"][0, 1].item() == -1.0
    back["col"].fill_(7.0)
    assert back["x"][:, 2].tolist() == [7.0, 7.0, 7.0]
    assert back["t"].stride() == (1, 4)


def test_state_dict_and_whole_module(tmp_path):
    net1 = _net()
    torch.save(net1, tmp_path / "net.pkl")
    torch.save(net1.state_dict(), tmp_path / "net_params.pkl")
    with pytest.raises(pickle.UnpicklingError, match="weights_only.*(.|\n)*Unsupported global"):
        torch.load(tmp_path / "net.pkl")
    net2 = torch.load(tmp_path / "net.pkl", weights_only=False)
    assert isinstance(net2[0].weight, nn.Parameter) and net2[0].weight.requires_grad
    net3 = _net()
    net3.load_state_dict(torch.load(tmp_path / "net_params.pkl"))
    x = torch.randn(5, 1)
    with torch.no_grad():
        np.testing.assert_array_equal(net1(x).numpy(), net2(x).numpy())
        np.testing.assert_array_equal(net1(x).numpy(), net3(x).numpy())
    sd = torch.load(tmp_path / "net_params.pkl")
    assert list(sd) == ["0.weight", "0.bias", "2.weight", "2.bias"] and type(sd).__name__ == "OrderedDict"


def test_optimizer_state_round_trip(tmp_path):
    net = _net()
    opt = optim.Adam(net.parameters(), lr=0.01)
    net(torch.randn(4, 1)).sum().backward()
    opt.step()
    torch.save({"model": net.state_dict(), "opt": opt.state_dict(), "epoch": 3}, tmp_path / "ckpt.pth")
    ck = torch.load(tmp_path / "ckpt.pth")
    opt2 = optim.Adam(_net().parameters(), lr=0.5)
    opt2.load_state_dict(ck["opt"])
    assert ck["epoch"] == 3 and opt2.param_groups[0]["lr"] == 0.01
    st = opt2.state[opt2.param_groups[0]["params"][0]]
    assert st["step"].item() == 1
    np.testing.assert_array_equal(st["exp_avg"].numpy(), opt.state[net[0].weight]["exp_avg"].numpy())


def test_map_location_forms(tmp_path):
    torch.save(torch.ones(2), tmp_path / "a.pth")
    for ml in ("cpu", torch.device("cpu"), {"cuda:1": "cpu"}, lambda storage, loc: storage):
        t = torch.load(tmp_path / "a.pth", map_location=ml)
        assert t.device.type == "cpu" and t.tolist() == [1.0, 1.0]
    seen = []
    torch.load(tmp_path / "a.pth", map_location=lambda s, loc: seen.append(loc))
    assert seen == ["cpu"]


def test_malicious_pickle_executes_nothing(tmp_path):
    target = tmp_path / "pwned"
    raw = tmp_path / "evil.pkl"
    raw.write_bytes(pickle.dumps(Evil(str(target))))
    with pytest.raises(pickle.UnpicklingError, match="weights_only"):
        torch.load(raw)
    assert not target.exists()
    wrapped = tmp_path / "evil.pth"
    torch.save({"w": torch.ones(1), "x": Evil(str(target))}, wrapped)
    assert not target.exists()
    with pytest.raises(pickle.UnpicklingError, match="Unsupported global: GLOBAL io.open"):
        torch.load(wrapped)
    assert not target.exists()
    torch.load(wrapped, weights_only=False)  # the user's explicit choice: the pickle runs
    assert target.exists()


def test_add_safe_globals_and_corrupt_file(tmp_path):
    torch.save({"v": torch.Size([2, 3]), "dt": torch.float16, "dev": torch.device("cpu")}, tmp_path / "s.pth")
    back = torch.load(tmp_path / "s.pth")
    assert back["v"] == (2, 3) and back["dt"] is torch.float16 and back["dev"] == torch.device("cpu")

    class Config:
        pass

    Config.__module__, Config.__qualname__ = __name__, "Config"
    globals()["Config"] = Config
    cfg = Config()
    cfg.lr = 0.5
    torch.save(cfg, tmp_path / "c.pth")
    with pytest.raises(pickle.UnpicklingError, match="add_safe_globals"):
        torch.load(tmp_path / "c.pth")
    torch.serialization.add_safe_globals([Config])
    assert torch.load(tmp_path / "c.pth").lr == 0.5
    (tmp_path / "bad.pth").write_bytes(b"FUNCGRAD-COMPAT-SAVE 1\n" + b"garbage")
    with pytest.raises(pickle.UnpicklingError, match="corrupt"):
        torch.load(tmp_path / "bad.pth")


def test_save_is_atomic(tmp_path, monkeypatch):
    path = tmp_path / "m.pth"
    torch.save(torch.ones(3), path)

    class Boom:
        def __reduce__(self):
            raise RuntimeError("cannot pickle")

    with pytest.raises(RuntimeError, match="cannot pickle"):
        torch.save([torch.zeros(3), Boom()], path)
    assert torch.load(path).tolist() == [1.0, 1.0, 1.0]

    def failing_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(OSError, match="disk full"):
        torch.save(torch.zeros(3), path)
    monkeypatch.undo()
    assert torch.load(path).tolist() == [1.0, 1.0, 1.0]
    assert os.listdir(tmp_path) == ["m.pth"]
