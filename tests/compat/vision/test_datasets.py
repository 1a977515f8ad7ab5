"""funcgrad.compat.vision.datasets over small files written here in the datasets' own formats."""

import gzip
import os
import pickle
import struct
import tarfile

import numpy as np
import pytest
from PIL import Image

import funcgrad.compat as torch
from funcgrad.compat.utils.data import DataLoader
from funcgrad.compat.vision import datasets
from funcgrad.compat.vision import transforms as T
from funcgrad.compat.vision.datasets.folder import IMG_EXTENSIONS, find_classes


def idx_bytes(array):
    header = struct.pack(">BBBB", 0, 0, 0x08, array.ndim) + struct.pack(f">{array.ndim}I", *array.shape)
    return header + array.astype(">u1").tobytes()


def write_mnist(root, name="MNIST", split="train", n=5, gz=False, seed=0):
    rng = np.random.default_rng(seed)
    images = rng.integers(0, 256, (n, 28, 28), dtype=np.uint8)
    labels = rng.integers(0, 10, n).astype(np.uint8)
    raw = root / name / "raw"
    raw.mkdir(parents=True, exist_ok=True)
    prefix = "train" if split == "train" else "t10k"
    for stem, arr in ((f"{prefix}-images-idx3-ubyte", images), (f"{prefix}-labels-idx1-ubyte", labels)):
        data = idx_bytes(arr)
        if gz:
            (raw / (stem + ".gz")).write_bytes(gzip.compress(data))
        else:
            (raw / stem).write_bytes(data)
    return images, labels


@pytest.mark.parametrize("gz", [False, True])
def test_mnist_reads_idx_files(tmp_path, gz, no_network):
    images, labels = write_mnist(tmp_path, gz=gz)
    timages, _ = write_mnist(tmp_path, split="test", n=3, gz=gz, seed=1)
    ds = datasets.MNIST(str(tmp_path), train=True, download=True)
    assert len(ds) == 5 and ds.train and ds.data.dtype == torch.uint8 and tuple(ds.data.shape) == (5, 28, 28)
    np.testing.assert_array_equal(ds.data.numpy(), images)
    assert ds.targets.dtype == torch.int64 and ds.targets.tolist() == labels.tolist()
    img, target = ds[2]
    assert isinstance(img, Image.Image) and img.mode == "L" and type(target) is int and target == labels[2]
    np.testing.assert_array_equal(np.asarray(img), images[2])
    test = datasets.MNIST(tmp_path, train=False)
    np.testing.assert_array_equal(test.data.numpy(), timages)
    assert len(test) == 3 and test.class_to_idx["3 - three"] == 3
    assert repr(test).splitlines()[:4] == ["Dataset MNIST", "    Number of datapoints: 3",
                                           f"    Root location: {tmp_path}", "    Split: Test"]


def test_mnist_transforms_and_dataloader(tmp_path):
    images, labels = write_mnist(tmp_path, n=5)
    tf = T.Compose([T.ToTensor(), T.Normalize((0.1307,), (0.3081,))])
    ds = datasets.MNIST(tmp_path, transform=tf, target_transform=lambda y: y + 100)
    x, y = ds[4]
    assert tuple(x.shape) == (1, 28, 28) and y == labels[4] + 100
    np.testing.assert_allclose(x.numpy()[0], (images[4] / np.float32(255) - 0.1307) / 0.3081, rtol=1e-5, atol=1e-6)
    batches = list(DataLoader(ds, batch_size=2))
    assert [tuple(b[0].shape) for b in batches] == [(2, 1, 28, 28), (2, 1, 28, 28), (1, 1, 28, 28)]
    assert batches[0][1].dtype == torch.int64 and torch.cat([b[1] for b in batches]).tolist() == (labels + 100).tolist()
    assert "Transform: Compose(" in repr(ds) and "Target transform: " in repr(ds)
    with pytest.warns(UserWarning, match="train_labels has been renamed targets"):
        assert ds.train_labels is ds.targets
    ds.data, ds.targets = ds.data[3:], [7, 8]  # scripts subset or relabel the data in place
    assert len(ds) == 2 and ds[1][1] == 108
    np.testing.assert_allclose(ds[0][0].numpy()[0], (images[3] / np.float32(255) - 0.1307) / 0.3081, rtol=1e-5,
                               atol=1e-6)


def test_fashion_and_kmnist_use_their_own_folders(tmp_path):
    write_mnist(tmp_path, name="FashionMNIST", gz=True)
    ds = datasets.FashionMNIST(tmp_path)
    assert ds.classes[9] == "Ankle boot" and ds.class_to_idx["Trouser"] == 1 and len(ds) == 5
    assert ds.raw_folder == os.path.join(tmp_path, "FashionMNIST", "raw")
    with pytest.raises(RuntimeError, match="KMNIST/raw"):
        datasets.KMNIST(tmp_path)


@pytest.mark.parametrize("download", [False, True])
def test_mnist_missing_files_say_what_to_put_where(tmp_path, download, no_network):
    write_mnist(tmp_path, split="test")
    with pytest.raises(RuntimeError) as e:
        datasets.MNIST(tmp_path, train=True, download=download)
    msg = str(e.value)
    assert msg.startswith("Dataset not found.") and os.path.join(str(tmp_path), "MNIST", "raw") in msg
    assert "train-images-idx3-ubyte" in msg and "train-labels-idx1-ubyte" in msg and "never downloads" in msg
    assert "https://ossci-datasets.s3.amazonaws.com/mnist/" in msg
    assert ("download=True was given" in msg) == download


def test_mnist_mismatched_files(tmp_path):
    write_mnist(tmp_path, n=5)
    raw = tmp_path / "MNIST" / "raw"
    (raw / "train-labels-idx1-ubyte").write_bytes(idx_bytes(np.zeros(4, np.uint8)))
    with pytest.raises(RuntimeError, match=r"do not hold N x H x W uint8 images and N labels"):
        datasets.MNIST(tmp_path)
    (raw / "train-labels-idx1-ubyte").write_bytes(b"\x00\x00\x08\x01\x00\x00\x00\x09\x01")  # truncated
    with pytest.raises(RuntimeError, match="Dataset corrupted: .*train-labels-idx1-ubyte.* is 9 bytes"):
        datasets.MNIST(tmp_path)


def cifar_batch(n, seed, key="labels", classes=10):
    rng = np.random.default_rng(seed)
    return {"data": rng.integers(0, 256, (n, 3072), dtype=np.uint8), key: rng.integers(0, classes, n).tolist(),
            "batch_label": "training batch"}


def write_cifar10(root, n=2, meta=True):
    folder = root / "cifar-10-batches-py"
    folder.mkdir(parents=True)
    batches = {}
    for i, name in enumerate([f"data_batch_{k}" for k in range(1, 6)] + ["test_batch"]):
        batches[name] = b = cifar_batch(n, i)
        as_py2 = {k.encode(): v for k, v in b.items()}  # Python 2 pickles' str keys load as bytes
        (folder / name).write_bytes(pickle.dumps(b if i % 2 else as_py2, protocol=2))
    if meta:
        names = [f"class{k}" for k in range(10)]
        (folder / "batches.meta").write_bytes(pickle.dumps({b"label_names": [s.encode() for s in names]}))
    return batches


def test_cifar10_reads_python_batches(tmp_path, no_network):
    batches = write_cifar10(tmp_path)
    ds = datasets.CIFAR10(str(tmp_path), train=True, download=True)
    assert len(ds) == 10 and isinstance(ds.data, np.ndarray) and ds.data.shape == (10, 32, 32, 3)
    assert ds.data.dtype == np.uint8
    raw = np.concatenate([b["data"] for k, b in batches.items() if k != "test_batch"])
    np.testing.assert_array_equal(ds.data, raw.reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1))
    expected = [y for k, b in batches.items() if k != "test_batch" for y in b["labels"]]
    assert ds.targets == expected and all(type(t) is int for t in ds.targets)
    assert ds.classes == [f"class{k}" for k in range(10)] and ds.class_to_idx["class3"] == 3
    img, target = ds[3]
    assert isinstance(img, Image.Image) and img.mode == "RGB" and target == expected[3]
    np.testing.assert_array_equal(np.asarray(img), raw[3].reshape(3, 32, 32).transpose(1, 2, 0))
    test = datasets.CIFAR10(tmp_path, train=False, transform=T.ToTensor())
    x, _ = test[1]
    np.testing.assert_allclose(x.numpy(), batches["test_batch"]["data"][1].reshape(3, 32, 32) / np.float32(255))
    xb, yb = next(iter(DataLoader(test, batch_size=2)))
    assert tuple(xb.shape) == (2, 3, 32, 32) and yb.tolist() == batches["test_batch"]["labels"]
    assert "Split: Test" in repr(test)


def test_cifar10_without_meta_uses_standard_names(tmp_path):
    write_cifar10(tmp_path, meta=False)
    assert datasets.CIFAR10(tmp_path).classes[:2] == ["airplane", "automobile"]


@pytest.mark.parametrize("download", [False, True])
def test_cifar10_missing_files(tmp_path, download, no_network):
    write_cifar10(tmp_path)
    os.remove(tmp_path / "cifar-10-batches-py" / "data_batch_4")
    assert len(datasets.CIFAR10(tmp_path, train=False, download=download)) == 2
    with pytest.raises(RuntimeError) as e:
        datasets.CIFAR10(tmp_path, train=True, download=download)
    msg = str(e.value)
    assert msg.startswith("Dataset not found.") and "missing: data_batch_4." in msg
    assert os.path.join(str(tmp_path), "cifar-10-batches-py") in msg
    assert "https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz" in msg


def test_cifar10_download_extracts_a_local_archive(tmp_path, no_network):
    src = tmp_path / "src"
    batches = write_cifar10(src)
    root = tmp_path / "root"
    root.mkdir()
    with tarfile.open(root / "cifar-10-python.tar.gz", "w:gz") as tar:
        tar.add(src / "cifar-10-batches-py", arcname="cifar-10-batches-py")
    with pytest.raises(RuntimeError, match="Dataset not found"):
        datasets.CIFAR10(root)  # without download=True the archive is left alone, as torchvision
    ds = datasets.CIFAR10(root, train=False, download=True)
    assert ds.targets == batches["test_batch"]["labels"]


def test_cifar_refuses_code_in_pickles(tmp_path, monkeypatch):
    class Evil:
        def __reduce__(self):
            return (os.system, ("touch PWNED",))

    monkeypatch.chdir(tmp_path)
    write_cifar10(tmp_path)
    (tmp_path / "cifar-10-batches-py" / "test_batch").write_bytes(pickle.dumps({"data": Evil(), "labels": []}))
    with pytest.raises(RuntimeError, match="refusing to load the global"):
        datasets.CIFAR10(tmp_path, train=False)
    assert not (tmp_path / "PWNED").exists()


def test_cifar100_fine_labels(tmp_path):
    folder = tmp_path / "cifar-100-python"
    folder.mkdir()
    train = cifar_batch(3, 0, key="fine_labels", classes=100)
    train["coarse_labels"] = [0, 1, 2]
    (folder / "train").write_bytes(pickle.dumps(train))
    (folder / "meta").write_bytes(pickle.dumps({"fine_label_names": [f"f{k}" for k in range(100)]}))
    ds = datasets.CIFAR100(tmp_path)
    assert ds.targets == train["fine_labels"] and ds.classes[42] == "f42" and ds.data.shape == (3, 32, 32, 3)
    with pytest.raises(RuntimeError, match=r"missing: test\."):
        datasets.CIFAR100(tmp_path, train=False)


def write_png(path, color, size=(4, 3), mode="RGB"):
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new(mode, size, color).save(path)


def test_image_folder(tmp_path):
    write_png(tmp_path / "dog" / "b.png", (0, 0, 255))
    write_png(tmp_path / "cat" / "a.png", (255, 0, 0))
    write_png(tmp_path / "dog" / "sub" / "c.PNG", 128, mode="L")  # nested, upper-case extension, grayscale
    (tmp_path / "dog" / "notes.txt").write_text("not an image")
    ds = datasets.ImageFolder(str(tmp_path), transform=T.ToTensor())
    assert ds.classes == ["cat", "dog"] and ds.class_to_idx == {"cat": 0, "dog": 1}
    assert ds.samples == [(str(tmp_path / "cat" / "a.png"), 0), (str(tmp_path / "dog" / "b.png"), 1),
                          (str(tmp_path / "dog" / "sub" / "c.PNG"), 1)]
    assert ds.targets == [0, 1, 1] and ds.imgs is ds.samples and len(ds) == 3
    x, y = ds[2]
    assert tuple(x.shape) == (3, 3, 4) and y == 1 and np.allclose(x.numpy(), 128 / 255)  # loaded as RGB
    np.testing.assert_array_equal(ds[0][0].numpy()[:, 0, 0], [1, 0, 0])
    xb, yb = next(iter(DataLoader(ds, batch_size=3)))
    assert tuple(xb.shape) == (3, 3, 3, 4) and yb.tolist() == [0, 1, 1]
    assert find_classes(tmp_path) == (["cat", "dog"], {"cat": 0, "dog": 1}) and ".png" in IMG_EXTENSIONS


def test_image_folder_errors_and_dataset_folder(tmp_path):
    (tmp_path / "empty").mkdir()
    write_png(tmp_path / "full" / "a.png", (1, 2, 3))
    with pytest.raises(FileNotFoundError, match="Found no valid file for the classes empty"):
        datasets.ImageFolder(tmp_path)
    assert len(datasets.ImageFolder(tmp_path, allow_empty=True)) == 1
    with pytest.raises(FileNotFoundError, match="Couldn't find any class folder"):
        datasets.ImageFolder(tmp_path / "full")
    (tmp_path / "full" / "x.npy").write_bytes(b"")
    ds = datasets.DatasetFolder(tmp_path, loader=lambda p: os.path.basename(p), extensions=(".npy",),
                                allow_empty=True)
    assert ds.samples == [(str(tmp_path / "full" / "x.npy"), 1)] and ds[0] == ("x.npy", 1)
    only_a = datasets.ImageFolder(tmp_path, is_valid_file=lambda p: p.endswith("a.png"), allow_empty=True)
    assert [os.path.basename(p) for p, _ in only_a.samples] == ["a.png"]


def test_fake_data_is_deterministic_per_index():
    ds = datasets.FakeData(size=6, image_size=(3, 5, 4), num_classes=3, transform=T.ToTensor())
    torch.manual_seed(7)
    before = torch.rand(3)
    torch.manual_seed(7)
    items = [ds[i] for i in (4, 1, 4)]
    assert np.array_equal(torch.rand(3).numpy(), before.numpy())  # the global stream is untouched
    assert np.array_equal(items[0][0].numpy(), items[2][0].numpy()) and items[0][1] == items[2][1]
    assert not np.array_equal(items[0][0].numpy(), items[1][0].numpy())
    assert tuple(items[0][0].shape) == (3, 5, 4) and all(type(y) is int and 0 <= y < 3 for _, y in items)
    shifted = datasets.FakeData(size=6, image_size=(3, 5, 4), num_classes=3, transform=T.ToTensor(), random_offset=3)
    assert np.array_equal(shifted[1][0].numpy(), ds[4][0].numpy())
    assert isinstance(datasets.FakeData(size=2, image_size=(1, 3, 3))[0][0], Image.Image)
    torch.manual_seed(4)  # item i holds what torch.manual_seed(i + random_offset) then randn / randint give
    img = torch.randn(3, 5, 4)
    assert items[0][1] == int(torch.randint(0, 3, (1,))[0])
    np.testing.assert_array_equal(items[0][0].numpy(), img.mul(255).byte().numpy() / np.float32(255))
    assert len(ds) == 6 and np.array_equal(ds[-1][0].numpy(), ds[5][0].numpy())
    with pytest.raises(IndexError, match="FakeData index out of range"):
        ds[6]
    assert len(list(DataLoader(ds, batch_size=4))) == 2
