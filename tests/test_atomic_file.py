"""funcgrad._atomic_file.atomic_write, through its users (torch.save, the demo's checkpoints): file modes as
open() gives them, symlinks followed, a save killed midway leaves the old file and a leftover the next save removes."""

import os
import stat
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import funcgrad.compat as torch
from funcgrad._atomic_file import atomic_write, stale_temporaries
from funcgrad.demo import outputs

posix = pytest.mark.skipif(os.name != "posix", reason="file modes and kill -9 are POSIX")


def _mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


@posix
@pytest.mark.parametrize("umask, expected", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_new_files_get_the_umask(tmp_path, umask, expected):
    old = os.umask(umask)
    try:
        torch.save(torch.ones(2), tmp_path / "a.pth")
        outputs.save_checkpoint(tmp_path / "c.npz", {"w": np.ones(2)})
    finally:
        os.umask(old)
    assert _mode(tmp_path / "a.pth") == expected
    assert _mode(tmp_path / "c.npz") == expected


@posix
def test_an_existing_files_mode_is_kept(tmp_path):
    path = tmp_path / "a.pth"
    torch.save(torch.ones(2), path)
    os.chmod(path, 0o640)
    torch.save(torch.zeros(2), path)
    assert _mode(path) == 0o640 and torch.load(path).tolist() == [0.0, 0.0]


@posix
def test_a_symlink_is_followed_and_stays_a_link(tmp_path):
    real = tmp_path / "store" / "model.pth"
    real.parent.mkdir()
    torch.save(torch.ones(2), real)
    link = tmp_path / "latest.pth"
    link.symlink_to(real)
    torch.save(torch.full((2,), 3.0), link)
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert torch.load(real).tolist() == [3.0, 3.0]
    dangling = tmp_path / "next.pth"
    dangling.symlink_to(tmp_path / "store" / "new.pth")
    torch.save(torch.ones(1), dangling)  # as open(): the link's target is created
    assert dangling.is_symlink() and (tmp_path / "store" / "new.pth").is_file()
    assert sorted(os.listdir(tmp_path / "store")) == ["model.pth", "new.pth"]


def test_an_error_midway_removes_the_temporary(tmp_path):
    path = tmp_path / "x.bin"
    path.write_bytes(b"old")
    with pytest.raises(KeyboardInterrupt), atomic_write(path) as f:
        f.write(b"partial")
        raise KeyboardInterrupt
    assert path.read_bytes() == b"old" and os.listdir(tmp_path) == ["x.bin"]


@posix
def test_a_save_killed_midway_leaves_the_old_file_and_the_next_save_cleans_up(tmp_path):
    path = tmp_path / "model.pth"
    torch.save({"w": torch.ones(3)}, path)
    child = textwrap.dedent(f"""
        import os, sys, time
        import funcgrad.compat as torch
        real_fsync = os.fsync
        def stall(fd):
            print("writing", flush=True)
            time.sleep(60)
        os.fsync = stall
        torch.save({{"w": torch.zeros(100000)}}, {str(path)!r})
    """)
    p = subprocess.Popen([sys.executable, "-c", child], stdout=subprocess.PIPE, text=True)
    try:
        assert p.stdout.readline().strip() == "writing"
        p.kill()
    finally:
        p.wait(timeout=30)
    leftovers = [n for n in os.listdir(tmp_path) if n != "model.pth"]
    assert len(leftovers) == 1 and leftovers[0].startswith(".model.pth.") and leftovers[0].endswith(".tmp")
    assert torch.load(path)["w"].tolist() == [1.0, 1.0, 1.0]
    assert [os.path.basename(s) for s in stale_temporaries(path)] == leftovers
    torch.save({"w": torch.full((3,), 2.0)}, path)
    assert os.listdir(tmp_path) == ["model.pth"]
    assert torch.load(path)["w"].tolist() == [2.0, 2.0, 2.0]


def test_a_live_processes_temporary_is_not_removed(tmp_path):
    path = tmp_path / "m.pth"
    mine = tmp_path / f".m.pth.{os.getpid()}.0123abcd.tmp"
    mine.write_bytes(b"in progress")
    torch.save(torch.ones(1), path)
    assert mine.exists() and stale_temporaries(path) == []
