"""torch.load on hostile and damaged files: nothing runs, nothing crashes, every failure is a clear error.

Each hostile file is built here, opcode by opcode where the attack needs it, in the
container layout torch.save writes (funcgrad.compat.serialization._records).
"""

import io
import os
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import funcgrad.compat as torch
from funcgrad.compat.serialization import _records


class Evil:
    """A pickle that creates a file when it is unpickled."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (open, (self.path, "w"))


def _ops(obj):
    """The opcodes that push ``obj`` (a protocol-2 pickle without its PROTO header and STOP)."""
    return pickle.dumps(obj, protocol=2)[2:-1]


def _record(dtype="<f4", shape=(4,), strides=(4,), offset=0, req=False, kind="tensor", key=0):
    return (kind, key, dtype, shape, strides, offset, req, "cpu")


def _file(path, payload_ops, storage=None):
    """A save file whose payload is ``payload_ops`` and whose storage 0 holds ``storage``."""
    storage = np.arange(4, dtype=np.float32) if storage is None else storage
    with open(path, "wb") as f:
        _records.write_container(f, {0: storage}, b"\x80\x02" + payload_ops + b".")
    return path


def _tensor_ops(**record):
    return _ops(_record(**record)) + b"Q"  # BINPERSID


def test_crafted_file_is_loadable_when_well_formed(tmp_path):
    t = torch.load(_file(tmp_path / "ok.pth", _tensor_ops()))
    assert t.tolist() == [0.0, 1.0, 2.0, 3.0]


@pytest.mark.parametrize("dtype", ["|O", "<U2", "|S4", "|V8", "|V2", "<V2", "<M8", "O", "<f4,<i4", "float32", 7,
                                   "float8_e4m3fnuz", "BFLOAT16", "bfloat16 "])
def test_non_numeric_storage_dtypes_are_refused(tmp_path, dtype):
    path = _file(tmp_path / "d.pth", _tensor_ops(dtype=dtype, shape=(2,), strides=(8,)),
                 storage=np.full(4, 0x41414141, np.int32))
    with pytest.raises(pickle.UnpicklingError, match="dtype"):
        torch.load(path)
    with pytest.raises(pickle.UnpicklingError, match="dtype"):
        torch.load(path, weights_only=False)  # the record check is not a weights_only feature


@pytest.mark.parametrize("name, itemsize", [("bfloat16", 2), ("float8_e4m3fn", 1), ("float8_e5m2", 1)])
def test_ml_dtypes_floats_load_by_name(tmp_path, name, itemsize):
    """bfloat16 / float8 records name their dtype (their numpy strings are void's, which stay refused)."""
    path = _file(tmp_path / "b.pth", _tensor_ops(dtype=name, shape=(3,), strides=(itemsize,)),
                 storage=np.array([0x3F80, 0x4000, 0xC040, 0], np.uint16).view(np.uint8))
    t = torch.load(path)
    assert str(t.dtype) == f"torch.{name}" and t.shape == (3,)
    if name == "bfloat16":
        assert t.tolist() == [1.0, 2.0, -3.0]


def test_object_dtype_file_does_not_crash_the_interpreter(tmp_path):
    """The attack of the issue: object pointers from the file, then printing. Run in a child: a crash is visible."""
    path = _file(tmp_path / "o.pth", _tensor_ops(dtype="|O", shape=(2,), strides=(8,)),
                 storage=np.full(4, 0x41414141, np.int32))
    code = textwrap.dedent(f"""
        import pickle, funcgrad.compat as torch
        try:
            print(torch.load({str(path)!r}))
        except pickle.UnpicklingError as e:
            print("refused:", e)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("refused:") and "object" in out.stdout


@pytest.mark.parametrize("record, match", [
    (dict(shape=(5,), strides=(4,)), "outside"),
    (dict(shape=(2,), strides=(-4,)), "outside"),
    (dict(offset=4), "outside"),
    (dict(offset=-4), "offset"),
    (dict(shape=(-1,), strides=(4,)), "shape"),
    (dict(shape=(2.0,), strides=(4,)), "shape"),
    (dict(shape=(2, 2), strides=(4,)), "shape"),
    (dict(key=7), "missing storage"),
    (dict(key="0"), "missing storage"),
    (dict(kind="module"), "persistent id"),
    (dict(req="yes"), "requires_grad"),
    (dict(dtype="<i4", req=True), "requires_grad"),
])
def test_malformed_tensor_records(tmp_path, record, match):
    with pytest.raises(pickle.UnpicklingError, match=match):
        torch.load(_file(tmp_path / "r.pth", _tensor_ops(**record)))


def test_build_cannot_set_a_tensors_state(tmp_path):
    state = _ops({"_value": 0, "requires_grad": True})
    path = _file(tmp_path / "b.pth", _tensor_ops() + state + b"b")  # BUILD on the loaded tensor
    with pytest.raises(pickle.UnpicklingError, match="Can only build"):
        torch.load(path)


def test_setitem_into_a_tensor_is_refused(tmp_path):
    path = _file(tmp_path / "s.pth", _tensor_ops() + _ops(0) + _ops(99.0) + b"s")  # SETITEM t[0] = 99
    with pytest.raises(pickle.UnpicklingError, match="set items of dicts"):
        torch.load(path)
    path = _file(tmp_path / "a.pth", _tensor_ops() + _ops(1) + b"a")  # APPEND
    with pytest.raises(pickle.UnpicklingError, match="append to lists"):
        torch.load(path)


def test_reduce_of_an_allowed_object_that_is_not_callable_is_refused(tmp_path):
    # REDUCE with a loaded tensor as the "function"
    path = _file(tmp_path / "c.pth", _tensor_ops() + _ops(()) + b"R")
    with pytest.raises(pickle.UnpicklingError, match="reduce"):
        torch.load(path)


@pytest.mark.parametrize("weights_only", [None, True])
def test_default_and_none_execute_nothing(tmp_path, weights_only):
    target = tmp_path / "pwned"
    raw = tmp_path / "evil.pkl"
    raw.write_bytes(pickle.dumps(Evil(str(target))))
    with pytest.raises(pickle.UnpicklingError, match="Unsupported global"):
        torch.load(raw, weights_only=weights_only)
    wrapped = tmp_path / "evil.pth"
    torch.save({"w": torch.ones(1), "x": Evil(str(target))}, wrapped)
    with pytest.raises(pickle.UnpicklingError, match="GLOBAL io.open"):
        torch.load(wrapped, weights_only=weights_only)
    assert not target.exists()


def test_environment_switches_and_pickle_module(tmp_path, monkeypatch):
    target = tmp_path / "pwned"
    path = tmp_path / "evil.pth"
    torch.save(Evil(str(target)), path)
    monkeypatch.setenv("TORCH_FORCE_WEIGHTS_ONLY_LOAD", "1")
    with pytest.raises(pickle.UnpicklingError):
        torch.load(path, weights_only=False)
    monkeypatch.setenv("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", "true")
    with pytest.raises(RuntimeError, match="Only one of"):
        torch.load(path)
    monkeypatch.delenv("TORCH_FORCE_WEIGHTS_ONLY_LOAD")
    with pytest.raises(pickle.UnpicklingError):
        torch.load(path, weights_only=True)  # an explicit True is kept
    assert not target.exists()
    with pytest.warns(UserWarning, match="TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD"):
        torch.load(path)  # not passed: the variable turns the default off, and the pickle runs
    assert target.exists()
    monkeypatch.delenv("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD")
    with pytest.raises(RuntimeError, match="explicit pickle_module"):
        torch.load(path, weights_only=True, pickle_module=pickle)
    target.unlink()
    torch.load(path, pickle_module=pickle)  # as in PyTorch: a pickle_module means weights_only=False
    assert target.exists()


@pytest.mark.parametrize("content", [b"", b"\x00" * 3, os.urandom(200), _records.MAGIC,
                                     _records.MAGIC + (10 ** 12).to_bytes(8, "little"),
                                     _records.MAGIC_V1 + b"garbage"])
def test_empty_truncated_and_random_files(tmp_path, content):
    path = tmp_path / "x.pth"
    path.write_bytes(content)
    with pytest.raises(pickle.UnpicklingError):
        torch.load(path)


def test_truncated_save_files(tmp_path):
    path = tmp_path / "t.pth"
    torch.save({"w": torch.randn(50, 50), "b": torch.zeros(3)}, path)
    whole = path.read_bytes()
    for cut in (len(whole) // 3, len(whole) // 2, len(whole) - 1):
        path.write_bytes(whole[:cut])
        with pytest.raises(pickle.UnpicklingError):
            torch.load(path)


def test_header_that_refers_to_a_global_is_refused(tmp_path):
    header = pickle.dumps(Evil(str(tmp_path / "pwned")), protocol=4)
    (tmp_path / "h.pth").write_bytes(_records.MAGIC + len(header).to_bytes(8, "little") + header)
    with pytest.raises(pickle.UnpicklingError, match="header"):
        torch.load(tmp_path / "h.pth", weights_only=False)
    assert not (tmp_path / "pwned").exists()


def test_safe_globals_context_and_registry(tmp_path):
    torch.save({"a": np.arange(3), "s": np.float64(1.5)}, tmp_path / "n.pth")
    with pytest.raises(pickle.UnpicklingError, match="add_safe_globals"):
        torch.load(tmp_path / "n.pth")
    unsafe = torch.serialization.get_unsafe_globals_in_checkpoint(tmp_path / "n.pth")
    assert {"numpy.ndarray", "numpy.dtype"} <= set(unsafe) and any("_reconstruct" in g for g in unsafe)
    allowed = [np._core.multiarray._reconstruct, np.ndarray, np.dtype, np._core.multiarray.scalar,
               type(np.dtype(np.int64)), type(np.dtype(np.float64))]
    before = torch.serialization.get_safe_globals()
    with torch.serialization.safe_globals(allowed):
        back = torch.load(tmp_path / "n.pth")
    assert back["a"].tolist() == [0, 1, 2] and back["s"] == 1.5
    assert torch.serialization.get_safe_globals() == before
    with pytest.raises(pickle.UnpicklingError):
        torch.load(tmp_path / "n.pth")
    torch.serialization.add_safe_globals([(np.ndarray, "numpy.ndarray")])
    assert (np.ndarray, "numpy.ndarray") in torch.serialization.get_safe_globals()
    torch.serialization.clear_safe_globals()
    assert torch.serialization.get_safe_globals() == []
    with pytest.raises(ValueError, match="length"):
        torch.serialization.add_safe_globals([(np.ndarray,)])
    torch.serialization.add_safe_globals(before)


def test_numpy_object_arrays_hold_only_what_the_allowlist_admits(tmp_path):
    """With numpy allowlisted, an object array's items still go through the weights-only unpickler."""
    allowed = [np._core.multiarray._reconstruct, np.ndarray, np.dtype, type(np.dtype(object))]
    torch.save(np.array([1, "x"], dtype=object), tmp_path / "o.pth")
    with torch.serialization.safe_globals(allowed):
        assert torch.load(tmp_path / "o.pth").tolist() == [1, "x"]
    target = tmp_path / "pwned"
    torch.save(np.array([Evil(str(target)), 2], dtype=object), tmp_path / "e.pth")
    with torch.serialization.safe_globals(allowed), pytest.raises(pickle.UnpicklingError, match="io.open"):
        torch.load(tmp_path / "e.pth")
    assert not target.exists()


def test_mmap_loads_copy_on_write(tmp_path):
    path = tmp_path / "m.pth"
    x = torch.arange(12.0).view(3, 4)
    torch.save({"x": x, "row": x[1]}, path)
    before = path.read_bytes()
    back = torch.load(path, mmap=True)
    assert torch.equal(back["x"], x) and back["row"].tolist() == [4.0, 5.0, 6.0, 7.0]
    back["row"][0] = -1.0
    assert back["x"][1, 0].item() == -1.0  # still views of one storage
    assert path.read_bytes() == before  # copy-on-write: the file is untouched
    with pytest.raises(ValueError, match="file path"):
        torch.load(io.BytesIO(before), mmap=True)
    (tmp_path / "plain.pkl").write_bytes(pickle.dumps([1, 2]))
    with pytest.raises(RuntimeError, match="mmap"):
        torch.load(tmp_path / "plain.pkl", mmap=True)


def test_version_1_files_still_load(tmp_path):
    storage = np.arange(3, dtype=np.float64)
    payload = b"\x80\x02" + _ops(_record("<f8", (3,), (8,))) + b"Q."
    body = pickle.dumps(({0: storage.tobytes()}, payload), protocol=4)
    (tmp_path / "v1.pth").write_bytes(_records.MAGIC_V1 + body)
    assert torch.load(tmp_path / "v1.pth").tolist() == [0.0, 1.0, 2.0]


def test_garbage_safetensors_is_a_clear_error(tmp_path):
    pytest.importorskip("safetensors")
    for content in (b"", b"\xff" * 16, (10 ** 9).to_bytes(8, "little") + b"{}"):
        (tmp_path / "g.safetensors").write_bytes(content)
        with pytest.raises(RuntimeError, match="not a readable .safetensors"):
            torch.load(tmp_path / "g.safetensors")
