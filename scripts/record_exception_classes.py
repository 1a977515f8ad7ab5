"""Record the exception class each case of tests/compat/_exception_cases.py raises.
Run: /work/venvs/torch/bin/python scripts/record_exception_classes.py torch   (or `compat` under funcgrad)."""
import sys, json, warnings
import numpy as np
sys.path.insert(0, "tests/compat")
from _exception_cases import CASES
which = sys.argv[1]
if which == "torch":
    import torch
else:
    import funcgrad.compat as torch
warnings.simplefilter("ignore")
res = {}
for fam, cid, code in CASES:
    torch.manual_seed(0)
    try:
        exec(code, {"torch": torch, "np": np})
        res[cid] = [None, ""]
    except BaseException as e:
        res[cid] = [type(e).__name__, [c.__name__ for c in type(e).__mro__], str(e)[:150]]
json.dump(res, open(f"tests/compat/_exception_classes_{which}.json", "w"), indent=0)
