"""docs/scipy-coverage.md is generated from the code: it must match the script's output, and
every funcgrad.scipy name and distribution method it lists as implemented must exist."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytest.importorskip("scipy")


def test_scipy_coverage_page_is_up_to_date():
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_scipy_coverage.py"), "--check"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_page_rows_agree_with_the_namespaces():
    import scipy.special as ss
    import scipy.stats as sst

    import funcgrad.scipy.special as fsp
    import funcgrad.scipy.stats as fst

    text = (ROOT / "docs" / "scipy-coverage.md").read_text()
    for name in ss.__all__:  # every scipy.special name has a row
        assert f"| `{name}` |" in text, name
    for name in fsp.__all__:
        assert callable(getattr(fsp, name)), name
        if name in ss.__all__:
            assert f"| `{name}` | implemented |" in text, name
    for dist in fst.__all__:  # the task's method set: every one scipy has exists in funcgrad
        for m in ("pdf", "logpdf", "pmf", "logpmf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf", "entropy"):
            if callable(getattr(getattr(sst, dist), m, None)) and callable(getattr(getattr(fst, dist), m, None)):
                assert f"| `{dist}` | `{m}` | implemented |" in text, (dist, m)


def test_only_the_documented_distribution_methods_are_missing():
    """Every evaluation method scipy has for funcgrad's distributions exists, except the
    multivariate normal's cdfs (numerical integration in scipy), which the page says."""
    text = (ROOT / "docs" / "scipy-coverage.md").read_text()
    missing = {tuple(c.strip(" `") for c in line.split("|")[1:3]) for line in text.splitlines()
               if line.startswith("| `") and line.count("|") == 5 and "| missing |" in line}
    assert missing == {("multivariate_normal", "cdf"), ("multivariate_normal", "logcdf")}
