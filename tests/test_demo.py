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
    assert float(m.group(1)) > 30.0  # chance is 10%; one epoch of the default LeNet gives 47.5%
    png = tmp_path / "funcgrad-demo.png"
    assert str(png) in proc.stdout
    assert png.read_bytes()[:8] == PNG_SIGNATURE and png.stat().st_size > 10_000
    # the checkpoint holds the trained parameters: they reproduce the printed accuracy
    from funcgrad.datasets import load_digits

    _, meta = outputs.load_checkpoint(tmp_path / "ck.npz")
    assert meta == {"model": "lenet", "dataset": "digits", "epochs": 1, "test_accuracy": pytest.approx(
        int(m.group(2)) / 360)}
    model, _ = outputs.load_checkpoint(tmp_path / "ck.npz", like=models.build_model("lenet", (1, 8, 8), 10))
    d = load_digits()
    _, x_test = train.standardize(d, np.float32)
    acc, _ = train.evaluate(model, x_test, d.y_test)
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


@pytest.mark.parametrize("model", ["mlp", "lenet"])
@pytest.mark.parametrize("device", ["cpu", "standin"])
def test_train_learns_on_every_backend(device, model):
    trained, hist = train.train(model, tiny_dataset(), epochs=3, batch_size=16, lr=1e-2, device=device,
                                quiet=True)
    assert hist.steps == 18 and len(hist.step_loss) == 18 and len(hist.test_acc) == 3
    assert hist.test_acc[-1] >= 0.9
    assert all(str(leaf.device).startswith(device) for leaf in fg.tree.tree_leaves(trained))
    assert all(leaf.dtype == np.float32 for leaf in fg.tree.tree_leaves(trained))


def test_checkpoint_round_trip_and_atomicity(tmp_path):
    model = models.build_model("mlp", (1, 4, 4), 3, seed=1)
    path = tmp_path / "model.ckpt"  # any name: numpy.savez must not append ".npz"
    outputs.save_checkpoint(path, model, model="mlp", test_accuracy=0.5)
    raw, meta = outputs.load_checkpoint(path)
    assert meta == {"model": "mlp", "test_accuracy": 0.5}
    assert sorted(raw["layers"]) == ["1", "3", "5"] and raw["layers"]["1"]["weight"].shape == (256, 16)
    assert np.array_equal(raw["layers"]["5"]["bias"], np.asarray(model.layers[5].bias))
    restored, _ = outputs.load_checkpoint(path, like=models.build_model("mlp", (1, 4, 4), 3, seed=2))
    for a, b in zip(fg.tree.tree_leaves(restored), fg.tree.tree_leaves(model)):
        assert a.dtype == b.dtype and np.array_equal(np.asarray(a), np.asarray(b))
    with pytest.raises(ValueError, match="no parameter 'layers.1.weight' of shape"):
        outputs.load_checkpoint(path, like=models.build_model("mlp", (1, 5, 5), 3))
    before = path.read_bytes()

    class Boom(Exception):
        pass

    with pytest.raises(Boom), outputs.atomic_write(path) as f:
        f.write(b"half a file")
        raise Boom
    assert path.read_bytes() == before and not list(tmp_path.glob(".*.tmp"))


def test_a_diverging_loss_stops_training_with_advice():
    tracker = train.Tracker(1, 2, quiet=True, out=None)
    tracker.start_epoch()
    tracker.step(0.5, 1, 2)
    with pytest.raises(FloatingPointError, match="try a smaller --lr"):
        tracker.step(float("nan"), 0, 2)
    assert tracker.close().step_loss == [0.5]


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


def test_cli_demo_on_a_cifar_folder(tmp_path, capsys):
    from funcgrad import cli
    from tests.test_datasets import make_cifar

    make_cifar(tmp_path / "cifar-10-batches-py", n_batches=2, n=8)
    code = cli.main(["demo", "--data", str(tmp_path), "--epochs", "2", "--batch-size", "4", "--quiet",
                     "--no-plot", "--save", str(tmp_path / "c.npz")])
    out = capsys.readouterr().out
    assert code == 0 and re.search(r"test accuracy \d+\.\d% \(\d+/8\) after 2 epochs: 8 steps", out), out
    model, meta = outputs.load_checkpoint(tmp_path / "c.npz", like=models.build_model("lenet", (3, 32, 32), 10))
    assert meta["dataset"] == "cifar10" and model.layers[0].weight.shape == (6, 3, 5, 5)


def test_run_validates_before_training(tmp_path):
    with pytest.raises(DemoError, match="--epochs must be a positive integer"):
        run(epochs=1.5, plot=None)
    with pytest.raises(DemoError, match="unknown model"):
        run(model="resnet", plot=None)
    with pytest.raises(DemoError, match="--lr must be a positive finite number, got 0"):
        run(lr=0, plot=None)
    with pytest.raises(DemoError, match="--batch-size must be a positive integer, got 0"):
        run(batch_size=0, plot=None)
    with pytest.raises(DemoError, match="too small for two conv"):
        from tests.test_datasets import make_mnist

        make_mnist(tmp_path / "small", size=3)
        run(data=tmp_path / "small", plot=None)
    with pytest.raises(DemoError, match="unknown api"):
        run(api="jax", plot=None)


def test_architectures_fit_their_images():
    assert models.lenet_geometry((1, 8, 8)) == (3, 1, 16 * 2 * 2)
    assert models.lenet_geometry((1, 28, 28)) == (5, 0, 16 * 4 * 4)
    assert models.lenet_geometry((3, 32, 32)) == (5, 0, 16 * 5 * 5)
    with pytest.raises(ValueError, match="too small"):
        models.lenet_geometry((1, 2, 2))
    for shape in [(1, 8, 8), (1, 28, 28), (3, 32, 32)]:
        for name in models.MODELS:
            m = models.build_model(name, shape, 10)
            x = fnp.zeros((2, *shape), dtype=np.float32)
            assert m(x).shape == (2, 10), (name, shape)


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


@pytest.mark.parametrize("model", ["mlp", "lenet"])
def test_functional_and_compat_apis_give_the_same_losses(tmp_path, model):
    """The same model, initial parameters, data order and optimizer through fg.grad +
    funcgrad.optim and through funcgrad.compat nn/optim/DataLoader: the same losses."""
    from funcgrad import demo

    runs = {}
    for api in ("functional", "compat"):
        res = demo.run(api=api, model=model, epochs=1, quiet=True, plot=None, echo=lambda *a: None)
        runs[api] = np.asarray(res.history.step_loss[:8], dtype=np.float64)
    np.testing.assert_allclose(runs["compat"], runs["functional"], rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("content", [b"", b"PK\x03\x04garbage", b"\x93NUMPY", None])
def test_load_checkpoint_of_a_damaged_file_is_a_clear_error(tmp_path, content):
    path = tmp_path / "bad.npz"
    if content is None:
        np.save(tmp_path / "bad.npy", np.ones(2))
        path = tmp_path / "bad.npy"
    else:
        path.write_bytes(content)
    with pytest.raises(ValueError, match="is not a checkpoint written by save_checkpoint"):
        outputs.load_checkpoint(path)


def test_load_checkpoint_refuses_strings_and_conflicting_names(tmp_path):
    np.savez(tmp_path / "s.npz", w=np.array(["a", "b"]))
    with pytest.raises(ValueError, match="not numbers"):
        outputs.load_checkpoint(tmp_path / "s.npz")
    for order in (("a", "a.b"), ("a.b", "a")):
        np.savez(tmp_path / "c.npz", **{k: np.ones(1) for k in order})
        with pytest.raises(ValueError, match="both"):
            outputs.load_checkpoint(tmp_path / "c.npz")
