"""Write docs/scipy-coverage.md: funcgrad.scipy.special and funcgrad.scipy.stats against scipy.

Everything on the page is derived from the code of both, so it cannot drift:
- every public name of ``scipy.special`` (its ``__all__``), with its status in
  ``funcgrad.scipy.special``: implemented (in its ``__all__``), not applicable (a rule
  below says why: classes and error-state functions, integer-only or complex-valued
  functions, constant tables of nodes and zeros, polynomial objects), or missing;
- for every distribution of ``funcgrad.scipy.stats``, each of scipy's evaluation methods
  (pdf/logpdf or pmf/logpmf, cdf, logcdf, sf, logsf, ppf, isf, entropy) the scipy
  distribution has, with its status.

Usage: ``python scripts/gen_scipy_coverage.py`` (writes the page) or ``--check`` (exit
status 1 if the committed page is out of date).
"""

from __future__ import annotations

import sys
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "scipy-coverage.md"
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
import scipy  # noqa: E402
import scipy.special as ss  # noqa: E402
import scipy.stats as sst  # noqa: E402
from scipy.stats._distn_infrastructure import rv_discrete  # noqa: E402

import funcgrad.scipy.special as fsp  # noqa: E402
import funcgrad.scipy.stats as fst  # noqa: E402

# Names a rule on the object cannot classify: each with the reason it is not applicable.
INTEGER_ONLY = {
    "bernoulli": "Bernoulli numbers B_0..B_n for an integer n",
    "euler": "Euler numbers E_0..E_n for an integer n",
    "factorial2": "double factorial of integers",
    "factorialk": "multifactorial of integers",
    "stirling2": "Stirling numbers of the second kind of integers",
}
POLYNOMIAL_OBJECTS = ("chebyc", "chebys", "chebyt", "chebyu", "gegenbauer", "genlaguerre", "hermite",
                      "hermitenorm", "jacobi", "laguerre", "legendre", "sh_chebyt", "sh_chebyu",
                      "sh_jacobi", "sh_legendre")
# functions (not ufuncs, so no loop table to read) whose results are complex for real input
COMPLEX_RESULTS = {
    "h1vp": "derivatives of the Hankel function H1 (complex)",
    "h2vp": "derivatives of the Hankel function H2 (complex)",
    "lambertw": "returns complex values (also on the real branch)",
    "sph_harm_y": "complex spherical harmonics",
    "sph_harm_y_all": "complex spherical harmonics",
}
ERROR_STATE = ("geterr", "seterr", "errstate", "SpecialFunctionError", "SpecialFunctionWarning")

MISSING_REASONS = {
    ("multivariate_normal", "cdf"): "scipy integrates it numerically (Genz's quasi-Monte Carlo method); no "
                                    "differentiable closed form",
    ("multivariate_normal", "logcdf"): "as cdf",
}


def _real_loops(uf):
    """Loops of a ufunc whose inputs and outputs are all real (float or integer)."""
    out = []
    for t in uf.types:
        ins, outs = t.split("->")
        if not any(c in "FDG" for c in ins + outs):
            out.append((ins, outs))
    return out


def special_status(name):
    """(status, note) of scipy.special.<name> in funcgrad.scipy.special."""
    if name in fsp.__all__:
        return "implemented", ""
    obj = getattr(ss, name)
    if name in ERROR_STATE:
        return "not applicable", "scipy's error-reporting state; funcgrad's functions follow scipy's default " \
                                 "(return NaN/inf, no warning)"
    if isinstance(obj, types.ModuleType):
        return "not applicable", "a module, not a function"
    if name in INTEGER_ONLY:
        return "not applicable", INTEGER_ONLY[name] + ": integer arguments only, nothing to differentiate"
    if name in COMPLEX_RESULTS:
        return "not applicable", COMPLEX_RESULTS[name] + ": funcgrad.scipy.special takes and returns real arrays"
    if name in POLYNOMIAL_OBJECTS:
        return "not applicable", "returns a numpy.poly1d object of integer degree; for values use eval_" + name
    if "roots" in name or name.endswith("zeros") or name.endswith("_seq") or name in ("lqmn", "lqn"):
        return "not applicable", "tables for integer orders (quadrature nodes and weights, zeros, " \
                                 "coefficient sequences), computed once outside differentiated code: use scipy's"
    if isinstance(obj, np.ufunc):
        if not _real_loops(obj):
            return "not applicable", "complex-valued (no real loop in scipy): funcgrad.scipy.special takes " \
                                     "and returns real arrays"
        return "missing", _signature_note(obj)
    return "missing", ""


def _signature_note(uf):
    loops = _real_loops(uf)
    nout = len(loops[0][1])
    return f"{uf.nin} arguments, {nout} results" if nout > 1 else ""


def _methods_of(name, sdist):
    discrete = isinstance(sdist, rv_discrete)
    dens = ("pmf", "logpmf") if discrete else ("pdf", "logpdf")
    cands = dens + ("cdf", "logcdf", "sf", "logsf", "ppf", "isf", "entropy")
    return [m for m in cands if callable(getattr(sdist, m, None))]


def distribution_rows():
    rows = []
    for name in fst.__all__:
        fdist, sdist = getattr(fst, name), getattr(sst, name)
        for m in _methods_of(name, sdist):
            if callable(getattr(fdist, m, None)):
                rows.append((name, m, "implemented", ""))
            else:
                rows.append((name, m, "missing", MISSING_REASONS.get((name, m), "")))
    return rows


def _count(statuses):
    return {s: sum(1 for x in statuses if x == s) for s in ("implemented", "missing", "not applicable")}


def render():
    names = sorted(ss.__all__, key=str.lower)
    special = [(n, *special_status(n)) for n in names]
    dists = distribution_rows()
    cs, cd = _count([s for _, s, _ in special]), _count([s for _, _, s, _ in dists])
    lines = [
        "# funcgrad.scipy coverage",
        "",
        "Generated by `python scripts/gen_scipy_coverage.py` from the code of funcgrad.scipy and of",
        f"scipy {scipy.__version__} (`scipy.special.__all__`, and each distribution's methods);",
        "`tests/test_scipy_coverage_page.py` fails when this page is out of date. Do not edit it by hand.",
        "",
        "Every implemented function is differentiable to any order (written with funcgrad's operations,",
        "or a primitive whose rules are); which arguments carry a derivative is in its docstring",
        "and in [scipy.md](scipy.md). Orders, counts and shape parameters of incomplete",
        "functions are not differentiated (MissingRuleError).",
        "",
        "## Summary",
        "",
        "| | implemented | missing | not applicable |",
        "| --- | --- | --- | --- |",
        f"| `scipy.special` ({len(special)} names) | {cs['implemented']} | {cs['missing']} | {cs['not applicable']} |",
        f"| `scipy.stats` methods of funcgrad's {len(fst.__all__)} distributions ({len(dists)}) | "
        f"{cd['implemented']} | {cd['missing']} | {cd['not applicable']} |",
        "",
        "## `scipy.stats`: the distributions funcgrad.scipy.stats has",
        "",
        "The evaluation methods scipy has for each (pdf/logpdf, or pmf/logpmf for discrete ones, cdf,",
        "logcdf, sf, logsf, ppf, isf, entropy); fitting, moments and sampling (`fit`, `mean`, `var`,",
        "`moment`, `stats`, `interval`, `expect`, `rvs`) are not compared.",
        "",
        "| distribution | method | status | note |",
        "| --- | --- | --- | --- |",
    ]
    lines += [f"| `{d}` | `{m}` | {s} | {note} |" for d, m, s, note in dists]
    lines += ["", "## `scipy.special`", "", "| name | status | note |", "| --- | --- | --- |"]
    lines += [f"| `{n}` | {'**missing**' if s == 'missing' else s} | {note} |" for n, s, note in special]
    extra = sorted(set(fsp.__all__) - set(ss.__all__))
    lines += ["", f"funcgrad.scipy.special names that scipy.special does not have ({len(extra)}): "
              + (", ".join(f"`{n}`" for n in extra) or "(none)"), ""]
    return "\n".join(lines)


def main(argv):
    text = render()
    if "--check" in argv:
        current = PAGE.read_text() if PAGE.exists() else ""
        if current != text:
            print(f"{PAGE.relative_to(ROOT)} is out of date: run python scripts/gen_scipy_coverage.py")
            return 1
        return 0
    PAGE.write_text(text)
    print(f"wrote {PAGE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
