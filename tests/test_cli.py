"""The funcgrad command: every bad input is one line on stderr, exit status 2, no traceback."""

import os
import re
import pathlib
import subprocess
import sys

import pytest

from funcgrad import cli
from funcgrad.cli import bench

ROOT = pathlib.Path(__file__).resolve().parent.parent


def run_cli(*args, cwd=None, timeout=120):
    env = dict(os.environ, PYTHONPATH=str(ROOT), MPLBACKEND="Agg")
    return subprocess.run(
        [sys.executable, "-m", "funcgrad", *args], capture_output=True, text=True, cwd=cwd, env=env,
        timeout=timeout,
    )


class Result:
    def __init__(self, returncode, stdout, stderr):
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


@pytest.fixture
def cli_main(capsys):
    """Run ``funcgrad ARGS`` in this process (an escaping exception fails the test)."""

    def call(*args):
        code = cli.main(list(args))
        out = capsys.readouterr()
        return Result(code, out.out, out.err)

    return call


def assert_usage_error(proc, *fragments):
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2, proc.stderr
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    assert lines[0].startswith("funcgrad"), lines[0]
    for frag in fragments:
        assert frag in lines[0], lines[0]


@pytest.mark.parametrize(
    "args, fragments",
    [
        ((), ["choose a command"]),
        (("demo", "--epochs", "0"), ["--epochs", "positive integer"]),
    ],
)
def test_bad_input_in_a_real_process(args, fragments):
    """A few cases end to end: the console entry point prints one line, no traceback."""
    assert_usage_error(run_cli(*args), *fragments)


@pytest.mark.parametrize(
    "args, fragments",
    [
        (("frobnicate",), ["invalid choice", "frobnicate"]),
        (("demo", "--epochs", "0"), ["--epochs", "positive integer"]),
        (("demo", "--epochs", "two"), ["--epochs", "'two'"]),
        (("demo", "--batch-size", "-4"), ["--batch-size"]),
        (("demo", "--lr", "nan"), ["--lr", "finite"]),
        (("demo", "--lr", "-0.1"), ["--lr"]),
        (("demo", "--api", "keras"), ["--api", "keras"]),
        (("demo", "--device", "tpu"), ["unknown device 'tpu'", "cpu, cuda"]),
        (("demo", "--device", "cuda:x"), ["unknown device"]),
        (("demo", "--bogus"), ["unrecognized arguments: --bogus", "funcgrad demo --help"]),
        (("bench", "no_such_benchmark"), ["unknown benchmark", "op_overhead"]),
    ],
)
def test_bad_options(cli_main, args, fragments):
    assert_usage_error(cli_main(*args), *fragments)


@pytest.mark.skipif(__import__("funcgrad").cuda_available(), reason="this machine has a usable GPU")
def test_cuda_without_cupy_or_gpu(cli_main):
    assert_usage_error(cli_main("demo", "--device", "cuda"), "--device cuda", "not available", "device='cpu'")


def test_missing_data_folder(cli_main, tmp_path):
    assert_usage_error(cli_main("demo", "--data", str(tmp_path / "nope")), "does not exist", "omit --data")


def test_data_folder_with_neither_format(cli_main, tmp_path):
    (tmp_path / "readme.txt").write_text("not a dataset")
    assert_usage_error(cli_main("demo", "--data", str(tmp_path)), "neither MNIST IDX files", "CIFAR-10")


def test_corrupt_data_folder(cli_main, tmp_path):
    for name in ("train-images-idx3-ubyte", "train-labels-idx1-ubyte", "t10k-images-idx3-ubyte",
                 "t10k-labels-idx1-ubyte"):
        (tmp_path / name).write_bytes(b"\x00\x00\x08\x03garbage")
    assert_usage_error(cli_main("demo", "--data", str(tmp_path)), "truncated")


def test_data_file_instead_of_folder(cli_main, tmp_path):
    (tmp_path / "f").write_text("x")
    assert_usage_error(cli_main("demo", "--data", str(tmp_path / "f")), "expects a folder")


def test_output_paths_checked_before_training(cli_main, tmp_path):
    assert_usage_error(cli_main("demo", "--save", str(tmp_path / "no" / "ck.npz")), "--save", "does not exist")
    assert_usage_error(cli_main("demo", "--plot", str(tmp_path)), "--plot", "is a folder")
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    if not os.access(locked, os.W_OK):  # (root can write anywhere)
        assert_usage_error(cli_main("demo", "--save", str(locked / "ck.npz")), "cannot write")


def test_help_and_info():
    proc = run_cli("demo", "--help")
    assert proc.returncode == 0 and "--data FOLDER" in proc.stdout and "--api" in proc.stdout
    proc = run_cli("info")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    for fragment in ("funcgrad 0.", "numpy ", "BLAS", "cupy", "default device: cpu", "default dtype: float64",
                     "digits.npz"):
        assert fragment in out, out


def test_bench_list_finds_the_repository_benchmarks():
    proc = run_cli("bench", "--list")
    assert proc.returncode == 0 and "op_overhead" in proc.stdout.split()


def test_bench_outside_a_source_checkout(monkeypatch, capsys):
    monkeypatch.setattr(bench, "benchmarks_dir", lambda: None)
    assert cli.main(["bench"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "only available from a source checkout" in err


# --- the README's promises ------------------------------------------------------------------------

def _readme_commands():
    text = (ROOT / "README.md").read_text()
    block = text.split("```bash\n", 1)[1].split("```", 1)[0]
    return [line for line in block.splitlines() if line and not line.startswith("#")]


def test_readme_commands_run_the_demo_and_mirror_ci():
    demo, tests = _readme_commands()
    assert demo.startswith("python3 -m venv .venv && . .venv/bin/activate && pip install -e . && ")
    assert demo.endswith("&& funcgrad demo")
    ci = (ROOT / ".ci" / "run").read_text().strip().splitlines()[-1]
    # .ci/run runs the README's test command (pip's -q only quiets the log)
    assert ci.replace("pip install -q ", "pip install ") == tests.split(" && ", 2)[2]
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["scripts"]["funcgrad"] == "funcgrad.cli:main"
    assert "digits.npz" in project["tool"]["setuptools"]["package-data"]["funcgrad.datasets"]


def test_readme_tour_runs():
    """The tour's python blocks, in one namespace (the compat block too)."""
    text = (ROOT / "README.md").read_text()
    runnable = [b.split("```", 1)[0] for b in text.split("```python\n")[1:]]
    assert len(runnable) >= 3
    namespace = {}
    for i, block in enumerate(runnable):
        code = "\n".join(line for line in block.splitlines() if '"cuda"' not in line)  # no GPU needed
        exec(compile(code, f"README.md block {i}", "exec"), namespace)
    assert namespace["y"] == pytest.approx(sum(__import__("math").tanh(v) ** 2 for v in (0.5, -1.0, 2.0)))
    assert namespace["model"].layers[0].weight.shape == (32, 64)


@pytest.mark.parametrize("page", ["docs/guide-functional.md", "docs/coming-from-jax.md", "docs/control-flow.md"])
def test_doc_examples_run(page, capsys):
    """Every python block of the page, in order, in one namespace (the page reads top to bottom)."""
    text = (ROOT / page).read_text()
    blocks = [b.split("```", 1)[0] for b in text.split("```python\n")[1:]]
    assert blocks
    namespace = {}
    threadpoolctl = pytest.importorskip("threadpoolctl")  # small matrices: one BLAS thread, as the demo
    with threadpoolctl.threadpool_limits(1, "blas"):
        for i, block in enumerate(blocks):
            # the LeNet loop at 4 of its 15 epochs: the suite's time budget (the demo test runs it all)
            block = block.replace("epochs, batch = 15, 32", "epochs, batch = 4, 32")
            exec(compile(block, f"{page} block {i}", "exec"), namespace)
    if page.endswith("guide-functional.md"):  # the training loop's promised accuracy
        out = capsys.readouterr().out
        assert re.search(r"^test accuracy 9[5-9]\.\d%", out, re.M) and re.search(r"LeNet test accuracy (9\d|8[5-9])", out)
