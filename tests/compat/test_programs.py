"""PyTorch programs written as PyTorch users write them, run with ``python -m funcgrad.compat PROGRAM.py``.

Each program under tests/compat/programs/ is a standalone script (plain ``import torch``,
argparse, ``if __name__ == '__main__':``, ``.to(device)``, ``torch.save``): user-style
ones under user/, and ones that follow the structure of the official pytorch/examples
programs in folders named after them. Each test runs one in a subprocess on data written
into tmp_path (tests/compat/_program_data.py) and checks from its printed output or the
files it writes that it trained: the loss fell by a clear margin, or the accuracy beat
chance by a clear margin.
"""

import json
import math
import os
import re
import subprocess
import sys

import numpy as np
import pytest

from tests.compat._program_data import write_bsds, write_cifar10, write_corpus, write_mnist

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PROGRAMS = os.path.join(HERE, "programs")


# numpy's BLAS on one thread: these programs' small matrices gain nothing from more, and on a busy
# 2-core machine two threads per program (two at a time under xdist) made MNIST 6x slower (38 s vs 6 s)
ONE_THREAD = {k: "1" for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")}


# A Python with the real torch (and torchvision): set it to run the same programs, with the same data
# and the same checks, under PyTorch instead of the launcher (a comparison; never needed by the suite)
REFERENCE_PYTHON = os.environ.get("FUNCGRAD_PROGRAMS_REFERENCE_PYTHON")


def run(program, *args, cwd, timeout=180):
    """Run programs/PROGRAM through the launcher in ``cwd``; its stdout (the test fails on a non-zero exit)."""
    os.makedirs(cwd, exist_ok=True)
    env = {**ONE_THREAD, **os.environ, "PYTHONPATH": ROOT}
    launcher = [REFERENCE_PYTHON] if REFERENCE_PYTHON else [sys.executable, "-m", "funcgrad.compat"]
    r = subprocess.run([*launcher, os.path.join(PROGRAMS, program), *map(str, args)],
                       capture_output=True, text=True, cwd=cwd, env=env, timeout=timeout)
    assert r.returncode == 0, f"{program} exited {r.returncode}\n--- stdout\n{r.stdout}\n--- stderr\n{r.stderr}"
    print(f"$ {program} {' '.join(map(str, args))}\n{r.stdout}")  # shown with pytest -s or on failure
    return r.stdout


def numbers(pattern, text):
    """Every float captured by ``pattern``'s group in ``text``."""
    return [float(v) for v in re.findall(pattern, text)]


# ---- user-style programs ---------------------------------------------------------------------------------------

def test_char_lstm_language_model(tmp_path):
    out = run("user/char_lstm.py", "--epochs", 2, "--steps", 20, cwd=tmp_path)
    start = numbers(r"vocab \d+ val loss (\S+)", out)[0]
    val = numbers(r"epoch \d+ train loss \S+ val loss (\S+)", out)
    assert len(val) == 2 and val[-1] < 0.5 * start, out
    assert numbers(r"restored val loss (\S+)", out) == val[-1:]  # state_dict round trip
    assert re.search(r"sample: anna .{60}", out) and (tmp_path / "char_lstm.pt").is_file()


@pytest.mark.parametrize("model", ["transformer", "lstm"])
def test_sequence_classifier(tmp_path, model):
    out = run("user/sequence_classifier.py", "--model", model, "--train-size", 256, "--epochs", 2, "--lr", 1e-2,
              cwd=tmp_path)
    metrics = json.loads((tmp_path / "metrics.json").read_text())
    assert metrics["accuracy_before"] < 0.45 and metrics["accuracy"] > 0.8, out
    losses = numbers(r"epoch \d+ loss (\S+)", out)
    assert len(losses) == 2 and losses[1] < 0.5 * losses[0]


def test_gan_learns_a_gaussian(tmp_path):
    out = run("user/gan.py", "--steps", 300, "--mean", 3.0, "--std", 0.5, cwd=tmp_path)
    before = numbers(r"before: fake mean (\S+)", out)[0]
    after, after_std = map(float, re.search(r"after: fake mean (\S+) fake std (\S+)", out).groups())
    assert abs(before - 3.0) > 2.0 and abs(after - 3.0) < 0.5 and 0.15 < after_std < 1.0, out
    assert (tmp_path / "gan.pt").is_file()


def test_mini_gpt_trains_resumes_and_samples(tmp_path):
    out = run("user/mini_gpt.py", "--max-iters", 120, "--eval-interval", 40, cwd=tmp_path)
    val = numbers(r"val loss (\S+)", out)
    assert len(val) == 4 and val[-1] < 0.4 * val[0], out
    assert re.search(r"sample: .{41}", out)
    out = run("user/mini_gpt.py", "--max-iters", 10, "--eval-interval", 10, cwd=tmp_path)  # resumes ckpt.pt
    assert "resumed from iteration 120" in out
    assert numbers(r"val loss (\S+)", out)[-1] < 0.5 * val[0], out


@pytest.mark.slow
@pytest.mark.parametrize("upsample", ["bilinear", "transpose"])
def test_unet_segmentation(tmp_path, upsample):
    out = run("user/unet_segmentation.py", "--epochs", 3, "--train-size", 128, "--upsample", upsample, cwd=tmp_path)
    metrics = json.loads((tmp_path / "unet.json").read_text())
    losses = numbers(r"epoch \d+ loss (\S+)", out)
    assert len(losses) == 3 and losses[-1] < losses[0], out
    assert metrics["iou"] > metrics["iou_before"] + 0.3, (metrics, out)


def test_reinforce_with_categorical(tmp_path):
    out = run("user/reinforce.py", "--episodes", 120, "--log-interval", 40, cwd=tmp_path)
    averages = numbers(r"Average reward: (\S+)", out)
    p_right = numbers(r"(\d\.\d\d)", out.split("P(right) per cell:")[1])
    assert len(averages) == 4 and averages[-1] > 0.6, out  # a random policy averages about 0
    assert len(p_right) == 7 and min(p_right) > 0.6, out


def test_gcn_on_a_sparse_adjacency(tmp_path):
    out = run("user/gcn.py", "--epochs", 100, cwd=tmp_path)
    assert "layout torch.sparse_coo, is_sparse True" in out, out
    features_only = numbers(r"features alone: (\S+)\)", out)[0]
    after = numbers(r"after: test accuracy (\S+)", out)[0]
    assert after > 0.75 and after > features_only + 0.15, out  # the graph convolution uses the edges


def test_cifar10_blitz_tutorial(tmp_path):
    write_cifar10(tmp_path / "data")
    out = run("user/cifar10_tutorial.py", "--epochs", 2, "--lr", 0.01, cwd=tmp_path)
    losses = numbers(r"\] loss: (\S+)", out)
    accuracy = int(re.search(r"Accuracy of the network on the 200 test images: (\d+) %", out).group(1))
    assert len(losses) == 10 and losses[-1] < 0.7 * losses[0] and accuracy > 35, out  # chance: 10 %
    assert len(re.findall(r"Accuracy for class: \w+\s* is \d+\.\d %", out)) == 10
    assert (tmp_path / "batch.png").is_file() and (tmp_path / "cifar_net.pth").is_file()


# ---- official-example style programs ---------------------------------------------------------------------------

def test_regression(tmp_path):
    out = run("regression/main.py", "--max-batches", 400, cwd=tmp_path)
    first = numbers(r"first loss (\S+)", out)[0]
    final, batches = re.search(r"final loss (\S+) after (\d+) batches", out).groups()
    assert float(final) < 1e-3 < first and int(batches) < 400, out


@pytest.mark.parametrize("line_search", [[], ["--line-search", "strong_wolfe"]], ids=["fixed-step", "strong-wolfe"])
def test_time_sequence_prediction_lbfgs(tmp_path, line_search):
    run("time_sequence_prediction/generate_sine_wave.py", "--waves", 10, "--length", 60, cwd=tmp_path)
    out = run("time_sequence_prediction/train.py", "--steps", 3, "--hidden", 16, "--future", 30, "--max-iter", 6,
              *line_search, cwd=tmp_path)
    train = numbers(r"(?m)^loss: (\S+)", out)
    test = numbers(r"test loss: (\S+)", out)
    assert len(test) == 3 and train[-1] < 0.1 * train[0] and test[-1] < 0.1 * test[0], out
    pred = np.load(tmp_path / "predict2.npy")
    assert pred.shape == (3, 59 + 30) and pred.dtype == np.float64 and np.isfinite(pred).all()


@pytest.mark.parametrize("model, extra", [("LSTM", ["--tied"]),
                                          ("Transformer", ["--lr", 1, "--nhid", 64])])
def test_word_language_model_then_generate(tmp_path, model, extra):
    write_corpus(tmp_path / "data")
    out = run("word_language_model/main.py", "--data", "data", "--model", model, "--emsize", 32, "--nhid", 32,
              "--nlayers", 1, "--epochs", 3, "--bptt", 20, "--batch_size", 10, "--dropout", 0.1, "--clip", 1,
              "--save", "lm.pt", *extra, cwd=tmp_path)
    vocab = int(re.search(r"vocabulary (\d+)", out).group(1))
    start = numbers(r"start \| valid loss\s+(\S+)", out)[0]
    valid = numbers(r"end of epoch.*valid loss\s+(\S+)", out)
    test_ppl = numbers(r"End of training \| test loss\s+\S+ \| test ppl\s+(\S+)", out)[0]
    assert abs(start - math.log(vocab)) < 0.3 and valid[-1] < 0.6 * start and test_ppl < vocab / 5, out
    gen = run("word_language_model/generate.py", "--data", "data", "--checkpoint", "lm.pt", "--words", 40,
              cwd=tmp_path)
    assert "| Generated 0/40 words" in gen
    words = (tmp_path / "generated.txt").read_text().split()
    known = set((tmp_path / "data" / "train.txt").read_text().split()) | {"<eos>"}
    assert len(words) == 40 and set(words) <= known


# ---- programs on MNIST (torchvision.datasets.MNIST over IDX files written into tmp_path/data) ----------------

@pytest.fixture
def mnist_cwd(tmp_path):
    """A working folder whose ``../data`` (and ``./data``) hold MNIST in torchvision's raw IDX layout."""
    write_mnist(tmp_path / "data", n_train=256, n_test=128)
    work = tmp_path / "work"
    work.mkdir()
    (work / "data").symlink_to(tmp_path / "data")  # mnist_forward_forward reads ./data
    return work


@pytest.mark.slow
def test_mnist_cnn_adadelta_steplr(mnist_cwd):
    out = run("mnist/main.py", "--epochs", 1, "--batch-size", 8, "--log-interval", 8, "--save-model", cwd=mnist_cwd)
    losses = numbers(r"Loss: (\S+)", out)
    loss, correct, total = re.search(r"Average loss: (\S+), Accuracy: (\d+)/(\d+)", out).groups()
    assert int(total) == 128 and int(correct) / 128 > 0.3 and float(loss) < 0.8 * math.log(10), out
    assert len(losses) == 4 and losses[-1] < losses[0]
    assert (mnist_cwd / "mnist_cnn.pt").is_file()


def test_mnist_rnn(mnist_cwd):
    out = run("mnist_rnn/main.py", "--epochs", 2, "--batch-size", 16, "--lr", 1.0, "--log-interval", 8,
              "--save-model", cwd=mnist_cwd)
    results = re.findall(r"Average loss: (\S+), Accuracy: (\d+)/128", out)
    (loss1, _), (loss2, correct) = results
    assert float(loss2) < float(loss1) < math.log(10) + 0.1 and int(correct) / 128 > 0.3, out
    assert (mnist_cwd / "mnist_rnn.pt").is_file()


def test_vae_reconstructs_and_samples(mnist_cwd):
    from PIL import Image  # noqa: PLC0415

    out = run("vae/main.py", "--epochs", 2, "--batch-size", 32, cwd=mnist_cwd)
    test_losses = numbers(r"Test set loss: (\S+)", out)
    assert len(test_losses) == 3 and test_losses[-1] < 0.7 * test_losses[0], out  # before training, 2 epochs
    results = mnist_cwd / "results"
    with Image.open(results / "reconstruction_2.png") as im:
        assert im.size == (8 * 30 + 2, 2 * 30 + 2)  # 8 originals over 8 reconstructions, 2-pixel padding
    with Image.open(results / "sample_2.png") as im:
        assert im.size == (8 * 30 + 2, 8 * 30 + 2)


@pytest.mark.slow
def test_mnist_forward_forward(mnist_cwd):
    out = run("mnist_forward_forward/main.py", "--epochs", 100, "--train_size", 64, "--test_size", 100, "--lr", 0.1,
              "--log-interval", 25, cwd=mnist_cwd)
    before = numbers(r"train error before training: (\S+)", out)[0]
    after = numbers(r"train error: (\S+)", out)[0]
    layer_losses = numbers(r"Loss:\s+(\S+)", out)
    assert len(layer_losses) == 8 and layer_losses[3] < 0.75 * layer_losses[0], out
    assert before > 0.7 and after < before - 0.15, out


@pytest.mark.slow
def test_dcgan_fake_data_dry_run_and_resume(tmp_path):
    args = ["--dataset", "fake", "--dry-run", "--batchSize", 8, "--ngf", 8, "--ndf", 8, "--nz", 16, "--manualSeed", 1,
            "--outf", "out"]
    out = run("dcgan/main.py", *args, cwd=tmp_path)
    step = re.search(r"\[0/1\]\[0/125\] Loss_D: (\S+) Loss_G: (\S+) D\(x\): (\S+) D\(G\(z\)\): (\S+) / (\S+)", out)
    assert step, out
    loss_d, loss_g, d_x, d_g_z1, d_g_z2 = map(float, step.groups())
    assert d_g_z2 < d_g_z1 and abs(loss_d - (-math.log(d_x) - math.log(1 - d_g_z1))) < 0.3, out  # D's step helped
    for name in ("real_samples.png", "fake_samples_epoch_000.png", "netG_epoch_0.pth", "netD_epoch_0.pth"):
        assert (tmp_path / "out" / name).is_file(), name
    out = run("dcgan/main.py", *args, "--workers", 0, "--netG", "out/netG_epoch_0.pth", "--netD", "out/netD_epoch_0.pth",
              cwd=tmp_path)  # resumed, loading in the main process this time
    assert "Loss_D" in out and "ConvTranspose2d(16, 64, kernel_size=(4, 4), stride=(1, 1), bias=False)" in out


@pytest.mark.slow
def test_siamese_network_on_resnet18(tmp_path):
    write_mnist(tmp_path / "data", n_train=64, n_test=32)
    out = run("siamese_network/main.py", "--epochs", 1, "--batch-size", 8, "--dry-run", "--save-model",
              cwd=tmp_path / "work")
    loss = numbers(r"Loss: (\S+)", out)
    # one step from a random start: BCE of the sigmoid head; seeds 1-6 gave 0.67-1.30 under PyTorch and 0.67-1.23 here
    assert len(loss) == 1 and 0.3 < loss[0] < 2.5, out
    assert re.search(r"Accuracy: \d+/32", out)
    assert (tmp_path / "work" / "siamese_network.pt").is_file()


def test_super_resolution_then_super_resolve(tmp_path):
    from PIL import Image  # noqa: PLC0415

    write_bsds(tmp_path / "dataset")
    out = run("super_resolution/main.py", "--upscale_factor", 3, "--crop_size", 48, "--batchSize", 8, "--nEpochs", 3,
              "--lr", 0.003, "--threads", 0, cwd=tmp_path)
    psnr = numbers(r"Avg. PSNR: (\S+) dB", out)
    assert len(psnr) == 4 and psnr[-1] > psnr[0] + 6, out  # before training, then after each epoch
    out = run("super_resolution/super_resolve.py", "--input_image", "dataset/BSDS300/images/test/000.jpg",
              "--model", "model_epoch_3.pth", "--output_filename", "out.png", cwd=tmp_path)
    with Image.open(tmp_path / "out.png") as im:
        assert im.size == (192, 192) and im.mode == "RGB"
