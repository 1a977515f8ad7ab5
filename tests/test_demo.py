"""funcgrad demo: it learns, writes its plot and checkpoint, and its pieces are right."""

import math
import os
import pathlib
import re
import subprocess
import sys

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.datasets import Dataset
from funcgrad.demo import DemoError, models, outputs, run, train

ROOT = pathlib.Path(__file__).resolve().parent.parent
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def test_demo_one_epoch_learns_and_writes_plot_and_checkpoint(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, "-m", "funcgrad", "demo", "--epochs", "1", "--quiet", "--save", "ck.npz"],
        capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""  # --quiet: no progress bar
    m = re.search(r"test accuracy (\d+\.\d)% \((\d+)/360\)", proc.stdout)
    assert m, proc.stdout
    assert float(m.group(1)) > 70.0  # chance is 10%; one epoch of the default model reaches ~90%+
    png = tmp_path / "funcgrad-demo.png"
    assert str(png) in proc.stdout
    assert png.read_bytes()[:8] == PNG_SIGNATURE and png.stat().st_size > 10_000
    # the checkpoint holds the trained parameters: they reproduce the printed accuracy
    params, meta = outputs.load_checkpoint(tmp_path / "ck.npz")
    assert meta["dataset"] == "digits" and meta["epochs"] == 1
    from funcgrad.datasets import load_digits

    d = load_digits()
    _, x_test = train.standardize(d, np.float32)
    acc, _ = train.evaluate(meta["model"], fg.tree.tree_map(fnp.asarray, params), x_test, d.y_test, 10)
    assert round(acc * 360) == int(m.group(2))
    assert not list(tmp_path.glob(".*.tmp"))  # atomic writes leave no temporary files


def tiny_dataset(n_train=96, n_test=48, seed=0):
    """Two classes that differ in which half of a 1 x 4 x 4 image is bright: learnable in a few steps."""
    rng = np.random.default_rng(seed)

    def make(n):
        y = rng.integers(0, 2, n)
        x = rng.uniform(0, 0.3, (n, 1, 4, 4)).astype(np.float32)
        x[y == 0, :, :2] += 0.7
        x[y == 1, :, 2:] += 0.7
        return x, y.astype(np.int64)

    (xt, yt), (xs, ys) = make(n_train), make(n_test)
    return Dataset("tiny", xt, yt, xs, ys, ("top", "bottom"))


@pytest.mark.parametrize("device", ["cpu", "standin"])
def test_train_learns_on_every_backend(device):
    params, hist = train.train("mlp", tiny_dataset(), epochs=3, batch_size=16, lr=3e-3, device=device,
                               quiet=True)
    assert hist.steps == 18 and len(hist.step_loss) == 18 and len(hist.test_acc) == 3
    assert hist.test_acc[-1] >= 0.95
    assert all(str(leaf.device).startswith(device) for leaf in fg.tree.tree_leaves(params))
    assert all(leaf.dtype == np.float32 for leaf in fg.tree.tree_leaves(params))


def test_cross_entropy_matches_numpy():
    rng = np.random.default_rng(0)
    logits = rng.standard_normal((5, 4)) * 30  # large values: the max shift keeps it finite
    labels = rng.integers(0, 4, 5)
    onehot = np.eye(4)[labels]
    z = logits - logits.max(axis=1, keepdims=True)
    expected = -np.mean(z[np.arange(5), labels] - np.log(np.exp(z).sum(axis=1)))
    got = train.cross_entropy(fnp.asarray(logits), fnp.asarray(onehot))
    np.testing.assert_allclose(float(got), expected, rtol=1e-12)
    # its gradient is (softmax - onehot) / N; the stop_gradient on the shift does not change it
    g = fg.grad(train.cross_entropy)(fnp.asarray(logits), fnp.asarray(onehot))
    softmax = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(np.asarray(g), (softmax - onehot) / 5, rtol=1e-10, atol=1e-15)


def test_adam_matches_the_reference_formula():
    init, update = train.adam(0.1)
    params = {"w": fnp.asarray([1.0, -2.0]), "b": fnp.asarray(0.5)}
    state = init(params)
    m = v = np.zeros(3)
    p = np.array([1.0, -2.0, 0.5])
    for t in range(1, 4):
        g = np.array([0.3, -1.0, 2.0]) * t
        updates, state = update({"w": fnp.asarray(g[:2]), "b": fnp.asarray(g[2])}, state, params)
        params = train.apply_updates(params, updates)
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        p = p - 0.1 * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
    got = np.concatenate([np.asarray(params["w"]), [float(params["b"])]])
    np.testing.assert_allclose(got, p, rtol=1e-6)  # eps placement differs from the reference by ~1e-8


def test_checkpoint_round_trip_and_atomicity(tmp_path):
    params = {"fc1": {"w": fnp.ones((2, 3), dtype=np.float32), "b": fnp.zeros(3)}, "fc2": {"w": fnp.eye(3)}}
    path = tmp_path / "model.ckpt"  # any name: numpy.savez must not append ".npz"
    outputs.save_checkpoint(path, params, model="mlp", test_accuracy=0.5)
    loaded, meta = outputs.load_checkpoint(path)
    assert meta == {"model": "mlp", "test_accuracy": 0.5}
    assert loaded["fc1"]["w"].dtype == np.float32 and np.array_equal(loaded["fc2"]["w"], np.eye(3))
    before = path.read_bytes()

    class Boom(Exception):
        pass

    with pytest.raises(Boom), outputs.atomic_write(path) as f:
        f.write(b"half a file")
        raise Boom
    assert path.read_bytes() == before and not list(tmp_path.glob(".*.tmp"))


def test_plot_is_a_png(tmp_path):
    hist = train.History(step_loss=list(np.linspace(2, 0.1, 120)), train_acc=[0.5, 0.8, 0.9],
                         test_acc=[0.6, 0.8, 0.85], test_loss=[1.0, 0.5, 0.4], seconds=1.0, steps=120)
    outputs.plot_history(tmp_path / "c.png", hist, "title")
    assert (tmp_path / "c.png").read_bytes()[:8] == PNG_SIGNATURE


def test_run_on_an_mnist_folder(tmp_path):
    from tests.test_datasets import make_mnist

    make_mnist(tmp_path / "mnist", n_train=64, n_test=16, size=5)
    lines = []
    res = run(data=tmp_path / "mnist", epochs=1, batch_size=16, plot=tmp_path / "p.png", quiet=True,
              echo=lines.append)
    assert res.dataset == "mnist" and res.model in models.MODELS and 0 <= res.test_accuracy <= 1
    assert len(res.history.step_loss) == 4 and all(math.isfinite(v) for v in res.history.step_loss)
    assert any(str(tmp_path / "p.png") in line for line in lines)


def test_run_validates_before_training(tmp_path):
    with pytest.raises(DemoError, match="--epochs must be a positive integer"):
        run(epochs=1.5, plot=None)
    with pytest.raises(DemoError, match="unknown model"):
        run(model="resnet", plot=None)
    with pytest.raises(DemoError, match="unknown api"):
        run(api="jax", plot=None)


def test_lenet_geometry():
    assert models._lenet_geometry((1, 8, 8)) == (3, 1, 16 * 2 * 2)
    assert models._lenet_geometry((1, 28, 28)) == (5, 0, 16 * 4 * 4)
    assert models._lenet_geometry((3, 32, 32)) == (5, 0, 16 * 5 * 5)
    with pytest.raises(ValueError, match="too small"):
        models._lenet_geometry((1, 2, 2))


class FakeConvOps:
    """conv2d / max_pool2d written with funcgrad.numpy (im2col by slicing): a stand-in for
    funcgrad.nn.functional, to check the LeNet wiring before the real layers exist."""

    @staticmethod
    def conv2d(x, w, b=None, stride=1, padding=0):
        n, c, h, wd = x.shape
        o, _, k, _ = w.shape
        if padding:
            zr = fnp.zeros((n, c, padding, wd), dtype=x.dtype)
            x = fnp.concatenate([zr, x, zr], axis=2)
            zc = fnp.zeros((n, c, h + 2 * padding, padding), dtype=x.dtype)
            x = fnp.concatenate([zc, x, zc], axis=3)
        ho, wo = x.shape[2] - k + 1, x.shape[3] - k + 1
        cols = fnp.stack([x[:, :, i:i + ho, j:j + wo] for i in range(k) for j in range(k)], axis=2)
        cols = fnp.reshape(cols, (n, c * k * k, ho * wo))  # (c, i, j) order = w's layout
        out = fnp.reshape(w, (o, c * k * k)) @ cols
        out = fnp.reshape(out, (n, o, ho, wo))
        return out if b is None else out + fnp.reshape(b, (1, o, 1, 1))

    @staticmethod
    def max_pool2d(x, k):
        n, c, h, w = x.shape
        x = fnp.reshape(x[:, :, : h // k * k, : w // k * k], (n, c, h // k, k, w // k, k))
        return fnp.max(fnp.max(x, axis=5), axis=3)


def test_fake_conv_matches_a_direct_loop():
    rng = np.random.default_rng(0)
    x, w, b = rng.standard_normal((2, 3, 5, 5)), rng.standard_normal((4, 3, 3, 3)), rng.standard_normal(4)
    got = np.asarray(FakeConvOps.conv2d(fnp.asarray(x), fnp.asarray(w), fnp.asarray(b), padding=1))
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    ref = np.empty((2, 4, 5, 5))
    for i in range(5):
        for j in range(5):
            ref[:, :, i, j] = np.einsum("ncij,ocij->no", xp[:, :, i:i + 3, j:j + 3], w) + b
    np.testing.assert_allclose(got, ref, rtol=1e-12)


@pytest.mark.parametrize("image_shape", [(1, 8, 8), (1, 28, 28)])
def test_lenet_wiring_with_conv_ops(monkeypatch, image_shape):
    monkeypatch.setattr(models, "_conv_ops", lambda: FakeConvOps)
    assert models.conv_available()
    params = models.init_model("lenet", image_shape, 10)
    assert params["conv1"]["w"].shape[1:] == (image_shape[0],) + params["conv1"]["w"].shape[2:]
    x = fnp.asarray(np.random.default_rng(0).standard_normal((3, *image_shape)), dtype=np.float32)
    logits = models.apply_model("lenet", params, x)
    assert logits.shape == (3, 10) and logits.dtype == np.float32
    g = fg.grad(lambda p: fnp.sum(models.apply_model("lenet", p, x) ** 2))(params)
    assert all(np.any(np.asarray(leaf) != 0) for leaf in fg.tree.tree_leaves(g))


def test_lenet_learns_with_conv_ops(monkeypatch):
    monkeypatch.setattr(models, "_conv_ops", lambda: FakeConvOps)
    data = tiny_dataset()
    data = Dataset("tiny8", np.kron(data.x_train, np.ones((2, 2), np.float32)), data.y_train,
                   np.kron(data.x_test, np.ones((2, 2), np.float32)), data.y_test, data.classes)
    _, hist = train.train("lenet", data, epochs=3, batch_size=16, lr=3e-3, quiet=True)
    assert hist.test_acc[-1] >= 0.9


def test_training_runs_with_the_requested_blas_threads(monkeypatch):
    threadpoolctl = pytest.importorskip("threadpoolctl")
    seen = []

    def fake_train(model, data, **options):
        seen.append({i["num_threads"] for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas"})
        raise KeyboardInterrupt  # stop before any real work

    monkeypatch.setattr(train, "train", fake_train)
    with pytest.raises(KeyboardInterrupt):
        run(epochs=1, plot=None, quiet=True, threads=1)
    assert seen == [{1}] or seen == [set()]  # set(): no BLAS library visible to threadpoolctl
    with pytest.raises(DemoError, match="--threads"):
        run(epochs=1, plot=None, threads=0)
