"""Every name docs/compat-coverage.md calls present exists in funcgrad.compat (no torch needed).

The page and tests/compat/data/compat_coverage.json are written together by
scripts/gen_compat_coverage.py (run where torch is installed)."""

import json
import re
import warnings
from pathlib import Path

import pytest

import funcgrad.compat as torch

ROOT = Path(__file__).resolve().parents[2]
DATA = json.loads((ROOT / "tests" / "compat" / "data" / "compat_coverage.json").read_text())
PAGE = (ROOT / "docs" / "compat-coverage.md").read_text()


def _namespace(ns):
    obj = torch
    for part in ns.split(".")[1:]:
        obj = getattr(obj, part)
    return obj


@pytest.mark.parametrize("ns", sorted(DATA))
def test_every_present_name_exists(ns):
    if not DATA[ns]:
        return
    obj = _namespace(ns)
    instance = torch.tensor([1.0]) if ns == "torch.Tensor" else None
    absent = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in DATA[ns]:
            if not (hasattr(obj, name) or (instance is not None and hasattr(instance, name))):
                absent.append(name)
    assert not absent, f"{ns}: the coverage page calls these present but compat lacks them: {absent}"


def test_page_and_data_agree():
    # the page's present list of each namespace is exactly the data file's
    for ns, names in DATA.items():
        m = re.search(rf"^## {re.escape(ns)}\n.*?^\*\*Present\*\* \((\d+)\): ([^\n]*)$", PAGE, re.M | re.S)
        assert m is not None, ns
        assert int(m.group(1)) == len(names), ns
        listed = re.findall(r"`([^`]+)`", m.group(2))
        assert listed == names, ns

