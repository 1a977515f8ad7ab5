"""Replay tests/compat/test_bad_input.py against real torch: every rule of its oracle table must
predict what torch 2.13 does (run where torch is installed; no test imports torch).
Run: PYTHONPATH=. /work/venvs/torch/bin/python scripts/check_bad_input_rules.py"""
import functools
import sys

import torch
from hypothesis import settings

sys.path.insert(0, ".")
from tests.compat import test_bad_input as cases  # noqa: E402

cases.check = functools.partial(cases.check, module=torch)
settings.register_profile("rules", max_examples=int(sys.argv[1]) if len(sys.argv) > 1 else 300, deadline=None)
settings.load_profile("rules")
failed = 0
for name in dir(cases):
    if name.startswith("test_") and name != "test_the_oracle_catches_a_value_where_torch_raises":
        try:
            getattr(cases, name)()
            print("ok  ", name)
        except Exception as e:  # noqa: BLE001
            failed += 1
            print("FAIL", name, str(e)[:2000])
sys.exit(1 if failed else 0)
