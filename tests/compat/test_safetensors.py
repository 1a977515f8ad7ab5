"""torch.save / torch.load of .safetensors state_dicts (through the safetensors package)."""

import builtins

import numpy as np
import pytest

import funcgrad.compat as torch
from funcgrad.compat import nn

pytest.importorskip("safetensors")


def test_state_dict_roundtrip_through_safetensors(tmp_path):
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 2))
    path = tmp_path / "model.safetensors"
    torch.save(net.state_dict(), path)
    raw = path.read_bytes()
    header = int.from_bytes(raw[:8], "little")
    assert raw[8:9] == b"{" and b'"0.weight"' in raw[8:8 + header]  # the safetensors layout
    other = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 2))
    other.load_state_dict(torch.load(path))
    for (k, a), (_, b) in zip(net.state_dict().items(), other.state_dict().items()):
        assert a.dtype == b.dtype and np.array_equal(a.numpy(), b.numpy()), k
    assert not list(tmp_path.glob(".tmp-*"))


def test_only_state_dicts_of_tensors(tmp_path):
    with pytest.raises(ValueError, match="state_dict"):
        torch.save([torch.ones(2)], tmp_path / "x.safetensors")
    with pytest.raises(ValueError, match="'step'"):
        torch.save({"w": torch.ones(2), "step": 3}, tmp_path / "x.safetensors")
    assert not (tmp_path / "x.safetensors").exists()


def test_missing_package_is_a_clear_error(tmp_path, monkeypatch):
    real_import = builtins.__import__

    def no_safetensors(name, *args, **kwargs):
        if name.startswith("safetensors"):
            raise ImportError("no module named safetensors")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_safetensors)
    with pytest.raises(ImportError, match="pip install safetensors"):
        torch.save({"w": torch.ones(2)}, tmp_path / "x.safetensors")


def test_bfloat16_float8_and_unsigned_roundtrip(tmp_path):
    """BF16 / F8 entries (Hugging Face checkpoints are bfloat16) load as ml_dtypes' dtypes, bits intact."""
    d = {"b": torch.tensor([1.1, -2.2, 3e38], dtype=torch.bfloat16), "e4m3": torch.tensor([1.5, 400.0]).to(torch.float8_e4m3fn),
         "e5m2": torch.tensor([-0.25]).to(torch.float8_e5m2), "u32": torch.tensor([2 ** 32 - 1], dtype=torch.uint32),
         "scalar": torch.tensor(2.0)}
    path = tmp_path / "m.safetensors"
    torch.save(d, path)
    assert b'"BF16"' in path.read_bytes()[:400]
    back = torch.load(path)
    for k, t in d.items():
        assert back[k].dtype == t.dtype and back[k].shape == t.shape, k
        np.testing.assert_array_equal(back[k].numpy().reshape(-1).view(np.uint8), t.numpy().reshape(-1).view(np.uint8))


def test_truncated_bfloat16_data_is_a_clear_error(tmp_path):
    path = tmp_path / "bad.safetensors"
    torch.save({"b": torch.ones(4, dtype=torch.bfloat16)}, path)
    raw = bytearray(path.read_bytes())
    path.write_bytes(bytes(raw[:-3]))
    with pytest.raises(RuntimeError, match="bad.safetensors"):
        torch.load(path)
