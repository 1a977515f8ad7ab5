"""torch.random (seeds, state, fork_rng) and torch.multiprocessing (re-export, spawn, hogwild-style script)."""

import os
import subprocess
import sys
import textwrap

import pytest

import funcgrad.compat as torch
import funcgrad.compat.multiprocessing as mp

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_random_seed_state_and_fork_rng():
    torch.random.manual_seed(5)
    assert torch.random.initial_seed() == 5
    state = torch.random.get_rng_state()
    a = torch.rand(3)
    torch.random.set_rng_state(state)
    assert torch.equal(a, torch.rand(3))
    before = torch.random.get_rng_state()
    with torch.random.fork_rng():
        torch.rand(10)
    assert torch.equal(torch.random.get_rng_state(), before)
    with pytest.raises(KeyError), torch.random.fork_rng(devices=[]):
        torch.rand(2)
        raise KeyError("restored even on error")
    assert torch.equal(torch.random.get_rng_state(), before)
    with torch.random.fork_rng(enabled=False):
        torch.rand(1)
    assert not torch.equal(torch.random.get_rng_state(), before)
    s = torch.random.seed()
    assert torch.random.initial_seed() == s


def test_multiprocessing_reexports_and_share_memory():
    import multiprocessing

    assert mp.Process is multiprocessing.Process and mp.get_context("spawn").get_start_method() == "spawn"
    assert mp.Queue is not None and mp.set_start_method is not None and mp.cpu_count() >= 1
    assert mp.get_sharing_strategy() in mp.get_all_sharing_strategies()
    with pytest.raises(RuntimeError, match="not supported"):
        mp.set_sharing_strategy("bogus")
    t = torch.ones(2)
    assert not t.is_shared() and t.share_memory_() is t and t.is_shared()
    m = torch.nn.Linear(2, 2)
    assert m.share_memory() is m


HOGWILD = """
import torch
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F


def train(rank, model, queue):
    torch.manual_seed(rank)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.randn(32, 4)
    y = x.sum(1, keepdim=True)
    first = None
    for _ in range(30):
        opt.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        first = first if first is not None else loss.item()
    queue.put((rank, first, loss.item()))


def fails(rank):
    raise ValueError(f"child {rank} failed")


if __name__ == "__main__":
    mp.set_start_method("spawn", force=True)
    model = nn.Linear(4, 1)
    model.share_memory()
    queue = mp.Queue()
    procs = [mp.Process(target=train, args=(rank, model, queue)) for rank in range(2)]
    for p in procs:
        p.start()
    results = sorted(queue.get() for _ in procs)
    for p in procs:
        p.join()
    for rank, first, last in results:
        print(f"rank {rank} {first:.4f} {last:.4f}")
    try:
        mp.spawn(fails, nprocs=1)
    except mp.ProcessRaisedException as e:
        print("raised", "child 0 failed" in str(e))
"""


def test_hogwild_style_script_through_launcher(tmp_path):
    script = tmp_path / "hogwild.py"
    script.write_text(textwrap.dedent(HOGWILD))
    env = dict(os.environ, PYTHONPATH=ROOT)
    r = subprocess.run([sys.executable, "-m", "funcgrad.compat", str(script)], capture_output=True, text=True,
                       cwd=tmp_path, env=env, timeout=180)
    assert r.returncode == 0, r.stderr
    lines = [ln.split() for ln in r.stdout.splitlines() if ln.startswith("rank")]
    assert [ln[1] for ln in lines] == ["0", "1"]
    assert all(float(last) < 0.5 * float(first) for _, _, first, last in lines), r.stdout
    assert "raised True" in r.stdout
