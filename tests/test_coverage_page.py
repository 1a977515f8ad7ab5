"""docs/numpy-coverage.md is generated from the code: it must match the script's output."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_coverage_page_is_up_to_date():
    # a fresh interpreter: the page is about funcgrad's own primitives, not those tests define
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_numpy_coverage.py"), "--check"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_page_lists_every_namespace_function():
    text = (ROOT / "docs" / "numpy-coverage.md").read_text()
    import funcgrad.numpy as fnp

    for mod in (fnp.linalg, fnp.fft):
        for name in mod.__all__:
            if callable(getattr(mod, name)) and not isinstance(getattr(mod, name), type):
                assert f"| `{name}` |" in text, name
