"""funcgrad.datasets: the embedded digits, and MNIST IDX / CIFAR-10 readers on files written here."""

import gzip
import os
import pickle
import struct

import numpy as np
import pytest

from funcgrad import datasets
from funcgrad.datasets import DatasetError, load, load_cifar10, load_digits, load_mnist, read_idx


# --- writers, independent of the readers: the formats as their specifications describe them ----

def write_idx(path, array, code=0x08):
    """IDX: 00 00 <type code> <ndim>, big-endian uint32 dims, big-endian values."""
    dt = {0x08: ">u1", 0x09: ">i1", 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}[code]
    body = struct.pack(">BBBB", 0, 0, code, array.ndim) + struct.pack(f">{array.ndim}I", *array.shape)
    body += np.ascontiguousarray(array, dtype=dt).tobytes()
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "wb") as f:
        f.write(body)


def make_mnist(folder, n_train=12, n_test=5, size=6, gz=False, dotted=False, seed=0):
    rng = np.random.default_rng(seed)
    arrays = {
        "train-images-idx3-ubyte": rng.integers(0, 256, (n_train, size, size), dtype=np.uint8),
        "train-labels-idx1-ubyte": rng.integers(0, 10, n_train, dtype=np.uint8),
        "t10k-images-idx3-ubyte": rng.integers(0, 256, (n_test, size, size), dtype=np.uint8),
        "t10k-labels-idx1-ubyte": rng.integers(0, 10, n_test, dtype=np.uint8),
    }
    folder.mkdir(parents=True, exist_ok=True)
    for name, a in arrays.items():
        if dotted:  # the spelling of some mirrors: train-images.idx3-ubyte
            name = name.replace("-idx", ".idx")
        write_idx(folder / (name + (".gz" if gz else "")), a)
    return arrays


def make_cifar(folder, n_batches=2, n=4, protocol=2, seed=0, meta=True):
    rng = np.random.default_rng(seed)
    folder.mkdir(parents=True, exist_ok=True)
    written = {}
    names = [f"data_batch_{i}" for i in range(1, n_batches + 1)] + ["test_batch"]
    for name in names:
        data = rng.integers(0, 256, (n, 3072), dtype=np.uint8)
        labels = [int(v) for v in rng.integers(0, 10, n)]
        (folder / name).write_bytes(pickle.dumps({b"data": data, b"labels": labels, b"batch_label": name.encode()},
                                                 protocol=protocol))
        written[name] = (data, labels)
    if meta:
        label_names = [f"class{i}".encode() for i in range(10)]
        (folder / "batches.meta").write_bytes(pickle.dumps({b"label_names": label_names}, protocol=protocol))
    return written


# --- the embedded digits ---------------------------------------------------------------------

def test_digits_shapes_values_and_fixed_split():
    d = load_digits()
    assert (len(d.x_train), len(d.x_test)) == (1437, 360)
    assert d.x_train.shape[1:] == (1, 8, 8) and d.image_shape == (1, 8, 8)
    assert d.x_train.dtype == np.float32 and d.y_train.dtype == np.int64
    assert 0.0 == min(d.x_train.min(), d.x_test.min()) and max(d.x_train.max(), d.x_test.max()) == 1.0
    assert d.num_classes == 10 and set(np.unique(d.y_test)) == set(range(10))
    # pixel values are the original 0..16 counts, divided by 16
    assert np.array_equal(d.x_train * 16, np.round(d.x_train * 16))
    again = load_digits()
    assert np.array_equal(d.x_test, again.x_test) and np.array_equal(d.y_train, again.y_train)


def test_digits_split_is_a_partition_of_the_stored_file():
    with np.load(datasets.DIGITS_PATH) as f:
        images, labels = f["images"], f["labels"]
    assert images.shape == (1797, 8, 8) and labels.shape == (1797,)
    d = load_digits()
    both = np.concatenate([d.x_train, d.x_test])[:, 0] * 16
    # the same multiset of (image, label) rows: sort both by their bytes
    key = lambda x, y: sorted(a.astype(np.uint8).tobytes() + bytes([b]) for a, b in zip(x, y))  # noqa: E731
    assert key(both, np.concatenate([d.y_train, d.y_test])) == key(images, labels)
    other = load_digits(test_size=100, seed=1)
    assert len(other.x_test) == 100 and not np.array_equal(other.y_train[:50], d.y_train[:50])


def test_digits_license_ships_next_to_the_data():
    text = (datasets.DIGITS_PATH.parent / "LICENSE-digits.txt").read_text()
    assert "CC BY 4.0" in text and "Alpaydin" in text and "Kaynak" in text


@pytest.mark.parametrize("bad", [0, 1797, -3])
def test_digits_bad_test_size(bad):
    with pytest.raises(ValueError, match="test_size"):
        load_digits(test_size=bad)


# --- IDX / MNIST ---------------------------------------------------------------------------------

@pytest.mark.parametrize("code", [0x08, 0x09, 0x0B, 0x0C, 0x0D, 0x0E])
def test_read_idx_every_type_code(tmp_path, code):
    a = (np.arange(24).reshape(2, 3, 4) - 5).astype(np.float64)
    if code == 0x08:
        a = np.abs(a)
    write_idx(tmp_path / "f", a, code)
    out = read_idx(tmp_path / "f")
    assert out.shape == (2, 3, 4) and out.dtype.isnative and np.array_equal(out, a)


def test_read_idx_gzip_and_empty_dimension(tmp_path):
    write_idx(tmp_path / "f.gz", np.zeros((0, 5), np.uint8))
    assert read_idx(tmp_path / "f.gz").shape == (0, 5)


@pytest.mark.parametrize(
    "raw, match",
    [
        (b"", "not an IDX file"),
        (b"\x01\x00\x08\x01" + struct.pack(">I", 1) + b"\x00", "not an IDX file"),
        (b"\x00\x00\x07\x01" + struct.pack(">I", 1) + b"\x00", "not an IDX file"),  # unknown type code
        (b"\x00\x00\x08\x02" + struct.pack(">I", 2), "truncated or empty header"),
        (b"\x00\x00\x08\x01" + struct.pack(">I", 5) + b"\x00\x01", "truncated or corrupt"),
        (b"\x00\x00\x08\x01" + struct.pack(">I", 1) + b"\x00\x01", "truncated or corrupt"),  # trailing bytes
    ],
)
def test_read_idx_rejects_corrupt_files(tmp_path, raw, match):
    (tmp_path / "f").write_bytes(raw)
    with pytest.raises(DatasetError, match=match):
        read_idx(tmp_path / "f")


def test_read_idx_broken_gzip(tmp_path):
    (tmp_path / "f.gz").write_bytes(b"\x1f\x8b\x08\x00garbage")
    with pytest.raises(DatasetError, match="cannot read IDX file"):
        read_idx(tmp_path / "f.gz")


@pytest.mark.parametrize("gz, dotted, nested", [(False, False, False), (True, False, True), (False, True, False)])
def test_load_mnist(tmp_path, gz, dotted, nested):
    folder = tmp_path / "MNIST" / "raw" if nested else tmp_path
    arrays = make_mnist(folder, gz=gz, dotted=dotted)
    d = load_mnist(tmp_path)
    assert d.x_train.shape == (12, 1, 6, 6) and d.x_test.shape == (5, 1, 6, 6)
    assert d.x_train.dtype == np.float32 and d.y_test.dtype == np.int64
    np.testing.assert_allclose(d.x_train[:, 0] * 255, arrays["train-images-idx3-ubyte"], atol=1e-4)
    assert np.array_equal(d.y_test, arrays["t10k-labels-idx1-ubyte"])
    assert load(tmp_path).x_test.shape == d.x_test.shape  # detected as MNIST


def test_load_mnist_missing_and_mismatched_files(tmp_path):
    make_mnist(tmp_path)
    (tmp_path / "t10k-labels-idx1-ubyte").unlink()
    with pytest.raises(DatasetError, match="lacks t10k-labels-idx1-ubyte"):
        load_mnist(tmp_path)
    write_idx(tmp_path / "t10k-labels-idx1-ubyte", np.zeros(4, np.uint8))  # 5 test images, 4 labels
    with pytest.raises(DatasetError, match="do not match"):
        load_mnist(tmp_path)


# --- CIFAR-10 --------------------------------------------------------------------------------------

@pytest.mark.parametrize("protocol", [2, 4, 5])
def test_load_cifar10(tmp_path, protocol):
    written = make_cifar(tmp_path / "cifar-10-batches-py", protocol=protocol)
    d = load_cifar10(tmp_path)
    assert d.x_train.shape == (8, 3, 32, 32) and d.x_test.shape == (4, 3, 32, 32)
    data, labels = written["data_batch_2"]
    # row layout: 1024 red values, then green, then blue, each a 32 x 32 image in row-major order
    img = d.x_train[4 + 1]
    np.testing.assert_allclose(img[1, 2, 3] * 255, data[1, 1024 + 2 * 32 + 3], atol=1e-4)
    assert list(d.y_train[4:]) == labels
    assert d.classes == tuple(f"class{i}" for i in range(10))
    assert load(tmp_path).name == "cifar10"


def test_cifar_batches_in_numeric_order_and_default_class_names(tmp_path):
    written = make_cifar(tmp_path, n_batches=10, n=1, meta=False)
    d = load_cifar10(tmp_path)
    expected = [written[f"data_batch_{i}"][1][0] for i in range(1, 11)]  # 10 after 9, not after 1
    assert list(d.y_train) == expected
    assert d.classes[0] == "airplane" and d.classes[-1] == "truck"


class _Evil:
    def __reduce__(self):
        return (os.system, ("touch PWNED",))


def test_cifar_refuses_code_in_pickles(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    make_cifar(tmp_path)
    (tmp_path / "test_batch").write_bytes(pickle.dumps({b"data": _Evil(), b"labels": []}))
    with pytest.raises(DatasetError, match="refusing to load the global"):
        load_cifar10(tmp_path)
    assert not (tmp_path / "PWNED").exists()


@pytest.mark.parametrize(
    "content, match",
    [
        (b"not a pickle", "is not a CIFAR-10 python batch"),
        (pickle.dumps([1, 2]), "holds a list"),
        (pickle.dumps({b"data": np.zeros((2, 3072), np.uint8)}), "expected 'data' and 'labels'"),
        (pickle.dumps({b"data": np.zeros((2, 100), np.uint8), b"labels": [0, 1]}), "expected N x 3072 uint8"),
        (pickle.dumps({b"data": np.zeros((2, 3072), np.uint8), b"labels": [0]}), "expected N x 3072 uint8"),
        (pickle.dumps({b"data": np.zeros((1, 3072), np.uint8), b"labels": [10]}), "labels outside 0..9"),
    ],
)
def test_cifar_rejects_malformed_batches(tmp_path, content, match):
    make_cifar(tmp_path)
    (tmp_path / "data_batch_1").write_bytes(content)
    with pytest.raises(DatasetError, match=match):
        load_cifar10(tmp_path)


def test_cifar_missing_test_batch(tmp_path):
    make_cifar(tmp_path)
    (tmp_path / "test_batch").unlink()
    with pytest.raises(DatasetError, match="lacks test_batch"):
        load_cifar10(tmp_path)


# --- detection ---------------------------------------------------------------------------------------

def test_load_rejects_missing_file_and_unknown_folders(tmp_path):
    with pytest.raises(DatasetError, match="does not exist"):
        load(tmp_path / "nope")
    (tmp_path / "f.txt").write_text("hello")
    with pytest.raises(DatasetError, match="expects a folder"):
        load(tmp_path / "f.txt")
    with pytest.raises(DatasetError, match="neither MNIST IDX files"):
        load(tmp_path)


def test_search_depth_is_bounded(tmp_path):
    make_mnist(tmp_path / "a" / "b" / "c")  # files 4 levels down: too deep to be meant
    with pytest.raises(DatasetError, match="neither MNIST IDX files"):
        load(tmp_path)
    assert load(tmp_path / "a").x_train.shape == (12, 1, 6, 6)


# --- hostile files: clear errors, bounded reads, no code -----------------------------------

def test_read_idx_header_claiming_a_huge_array(tmp_path):
    path = tmp_path / "huge-idx3-ubyte"
    path.write_bytes(struct.pack(">BBBB", 0, 0, 0x0D, 3) + struct.pack(">3I", 2 ** 32 - 1, 2 ** 32 - 1, 2 ** 31))
    with pytest.raises(DatasetError, match="more than the 16 GiB"):
        read_idx(path)


def test_read_idx_gzip_longer_than_its_header_is_not_read_whole(tmp_path):
    path = tmp_path / "bomb-idx1-ubyte.gz"
    with gzip.open(path, "wb") as f:
        f.write(struct.pack(">BBBBI", 0, 0, 0x08, 1, 4) + bytes(4))
        for _ in range(64):  # 64 MiB of trailing zeros, a ~64 KiB file
            f.write(bytes(1 << 20))
    with pytest.raises(DatasetError, match="is more than 12 bytes"):
        read_idx(path)


class _ObjectArray:
    """An ndarray whose state claims an object dtype over raw bytes (pointers from the file)."""

    def __reduce__(self):
        from numpy._core.multiarray import _reconstruct
        return (_reconstruct, (np.ndarray, (0,), b"b"), (1, (2,), np.dtype("O"), False, b"\x41" * 16))


class _ObjectFromBuffer:
    def __reduce__(self):
        from numpy._core.numeric import _frombuffer
        return (_frombuffer, (b"\x41" * 16, np.dtype("O"), (2,), "C"))


@pytest.mark.parametrize("payload", [_ObjectArray(), _ObjectFromBuffer()])
def test_cifar_object_arrays_from_raw_bytes_are_refused(tmp_path, payload):
    make_cifar(tmp_path)
    (tmp_path / "data_batch_1").write_bytes(pickle.dumps({b"data": payload, b"labels": [0, 1]}, protocol=2))
    with pytest.raises(DatasetError, match="is not a CIFAR-10 python batch"):
        load_cifar10(tmp_path)
