"""Specs: the primitives funcgrad.scipy.special defines itself (funcgrad/scipy/_special_prims.py,
_special_cdfs.py, _special_polys.py).  Each draw stays inside the smooth domain of the
differentiated (last) argument; orders, counts and shape parameters are drawn as constants."""

import hypothesis.strategies as st

import funcgrad.scipy.special as fsp
from funcgrad.scipy import _special_prims as _px
from funcgrad.testing import strategies as fst

from ..spec import Spec, binary_broadcast, floats_of, unary


@st.composite
def _last(draw, low, high, consts):
    """One array (the differentiated argument) in [low, high], and constant leading arguments."""
    x = draw(floats_of(fst.shapes(), low, high))
    return (x,), {"pre": tuple(draw(c) for c in consts)}


def _spec(name, fn, low, high, *consts, prims=None, differentiable=True, **kw):
    f = getattr(fsp, fn) if isinstance(fn, str) else fn
    return Spec(name, prims or (name,), lambda x, pre: f(*pre, x), _last(low, high, consts),
                differentiable=differentiable, **kw)


_pos = st.floats(0.6, 3.0)
_deg = st.sampled_from([0, 1, 2, 4])
_count = st.sampled_from([1, 3])
_TOL = {"rtol": 1e-3, "atol": 1e-4}

SPECS = [
    _spec("ndtri", "ndtri", 0.05, 0.95),
    _spec("ndtri_exp", "ndtri_exp", -6.0, -0.2),
    _spec("gammaincinv", "gammaincinv", 0.1, 0.9, _pos),
    _spec("gammainccinv", "gammainccinv", 0.1, 0.9, _pos),
    _spec("betaincinv", "betaincinv", 0.1, 0.9, _pos, _pos),
    _spec("betainccinv", "betainccinv", 0.1, 0.9, _pos, _pos),
    _spec("betaincc", "betaincc", 0.1, 0.9, _pos, _pos),
    _spec("stdtr", "stdtr", -3.0, 3.0, _pos),
    _spec("stdtrit", "stdtrit", 0.1, 0.9, _pos),
    _spec("gammasgn", "gammasgn", -3.0, 3.0, differentiable=False),
    _spec("pdtrik", _px.pdtrik, 0.1, 0.9, _pos, differentiable=False),
    _spec("erfcx", "erfcx", -1.5, 3.0),
    _spec("erfi", "erfi", -1.5, 1.5),
    _spec("dawsn", "dawsn", -3.0, 3.0),
    _spec("exp1", "exp1", 0.3, 3.0),
    _spec("expi", "expi", 0.3, 3.0),
    _spec("expn", "expn", 0.3, 3.0, st.sampled_from([0, 1, 3])),
    _spec("spence", "spence", 0.2, 3.0),
    Spec("owens_t", ("owens_t",), fsp.owens_t, binary_broadcast(-2.0, 2.0, -2.0, 2.0)),
    _spec("k0", "k0", 0.3, 3.0),
    _spec("k1", "k1", 0.3, 3.0),
    _spec("k0e", "k0e", 0.3, 3.0),
    _spec("k1e", "k1e", 0.3, 3.0),
    _spec("kv", "kv", 0.3, 3.0, st.sampled_from([0.0, 0.5, 2.0])),
    _spec("kve", "kve", 0.3, 3.0, st.sampled_from([0.0, 1.5])),
    _spec("yv", "yv", 0.5, 4.0, st.sampled_from([0.0, 1.5])),
    Spec("poch", ("poch",), fsp.poch, binary_broadcast(0.5, 3.0, 0.2, 2.0)),
    Spec("binom", ("binom",), fsp.binom, binary_broadcast(3.0, 6.0, 0.5, 2.5)),
    # distribution functions (_special_cdfs.py)
    _spec("pdtr", "pdtr", 0.3, 5.0, _count),
    _spec("pdtrc", "pdtrc", 0.3, 5.0, _count),
    _spec("pdtri", "pdtri", 0.1, 0.9, _count),
    Spec("gdtr", ("gdtr",), lambda a, x: fsp.gdtr(a, 2.5, x), binary_broadcast(0.5, 2.0, 0.3, 3.0)),
    Spec("gdtrc", ("gdtrc",), lambda a, x: fsp.gdtrc(a, 2.5, x), binary_broadcast(0.5, 2.0, 0.3, 3.0)),
    Spec("gdtrix", ("gdtrix",), lambda a, p: fsp.gdtrix(a, 2.5, p), binary_broadcast(0.5, 2.0, 0.1, 0.9)),
    _spec("chdtr", "chdtr", 0.3, 5.0, _pos),
    _spec("chdtrc", "chdtrc", 0.3, 5.0, _pos),
    _spec("chdtri", "chdtri", 0.1, 0.9, _pos),
    _spec("bdtr", lambda k, p: fsp.bdtr(k, 6, p), 0.1, 0.9, _count, prims=("bdtr",)),
    _spec("bdtrc", lambda k, p: fsp.bdtrc(k, 6, p), 0.1, 0.9, _count, prims=("bdtrc",)),
    _spec("bdtri", lambda k, y: fsp.bdtri(k, 6, y), 0.1, 0.9, _count, prims=("bdtri",)),
    _spec("fdtr", "fdtr", 0.3, 3.0, _pos, _pos),
    _spec("fdtrc", "fdtrc", 0.3, 3.0, _pos, _pos),
    _spec("fdtri", "fdtri", 0.1, 0.9, st.sampled_from([2.0, 3.0]), st.sampled_from([3.0, 5.0])),
    _spec("nbdtr", "nbdtr", 0.1, 0.9, _count, st.sampled_from([1, 4])),
    _spec("nbdtrc", "nbdtrc", 0.1, 0.9, _count, st.sampled_from([1, 4])),
    _spec("nbdtri", "nbdtri", 0.1, 0.9, _count, st.sampled_from([1, 4])),
    # orthogonal polynomials, hypergeometric functions, ... (_special_polys.py)
    _spec("eval_chebyt", "eval_chebyt", -0.9, 0.9, _deg),
    _spec("eval_chebyu", "eval_chebyu", -0.9, 0.9, _deg),
    _spec("eval_chebyc", "eval_chebyc", -1.8, 1.8, _deg),
    _spec("eval_chebys", "eval_chebys", -1.8, 1.8, _deg),
    _spec("eval_sh_chebyt", "eval_sh_chebyt", 0.05, 0.95, _deg),
    _spec("eval_sh_chebyu", "eval_sh_chebyu", 0.05, 0.95, _deg),
    _spec("eval_gegenbauer", "eval_gegenbauer", -0.9, 0.9, _deg, _pos),
    _spec("eval_legendre", "eval_legendre", -0.9, 0.9, _deg),
    _spec("eval_sh_legendre", "eval_sh_legendre", 0.05, 0.95, _deg),
    _spec("eval_hermite", "eval_hermite", -1.5, 1.5, _deg),
    _spec("eval_hermitenorm", "eval_hermitenorm", -1.5, 1.5, _deg),
    _spec("eval_laguerre", "eval_laguerre", 0.1, 3.0, _deg),
    _spec("eval_genlaguerre", "eval_genlaguerre", 0.1, 3.0, _deg, _pos),
    _spec("eval_jacobi", "eval_jacobi", -0.9, 0.9, _deg, _pos, _pos),
    _spec("hyp0f1", "hyp0f1", -2.0, 2.0, _pos),
    _spec("hyp1f1", "hyp1f1", -2.0, 2.0, _pos, _pos),
    _spec("hyp2f1", "hyp2f1", -0.8, 0.6, _pos, _pos, _pos, tol=_TOL),
    # scipy's hyperu loses accuracy as b nears an integer (hyperu(1, 2 - 4e-16, 1) is 0.69, not 1):
    # b is drawn away from the integers
    _spec("hyperu", "hyperu", 0.5, 3.0, _pos, st.sampled_from([0.6, 1.4, 1.7, 2.5])),
    _spec("jve", "jve", 0.5, 4.0, st.sampled_from([0.0, 1.5])),
    _spec("yve", "yve", 0.5, 4.0, st.sampled_from([0.0, 1.5])),
    _spec("wrightomega", "wrightomega", -2.0, 3.0),
    _spec("zeta_riemann", "zeta", 1.5, 4.0, differentiable=False),
    _spec("zetac", "zetac", 1.5, 4.0, differentiable=False),
    Spec("zeta_hurwitz", ("zeta_hurwitz",), lambda q, x: fsp.zeta(x, q),
         _last(0.5, 3.0, (st.sampled_from([2.0, 3.5]),)).map(lambda d: (d[0], {"x": d[1]["pre"][0]}))),
]


def _result(name, fn, i, low, high, *consts, **kw):
    return _spec(name, lambda *a: fn(*a)[i], low, high, *consts, prims=(name,), **kw)


SPECS += [
    _result("sici_si", fsp.sici, 0, 0.3, 3.0), _result("sici_ci", fsp.sici, 1, 0.3, 3.0),
    _result("shichi_shi", fsp.shichi, 0, 0.3, 2.0), _result("shichi_chi", fsp.shichi, 1, 0.3, 2.0),
    _result("fresnel_s", fsp.fresnel, 0, -1.5, 1.5), _result("fresnel_c", fsp.fresnel, 1, -1.5, 1.5),
    _result("airy_ai", fsp.airy, 0, -2.0, 2.0), _result("airy_aip", fsp.airy, 1, -2.0, 2.0),
    _result("airy_bi", fsp.airy, 2, -2.0, 2.0), _result("airy_bip", fsp.airy, 3, -2.0, 2.0),
    Spec("ellipk", ("ellipk",), fsp.ellipk, unary(-0.8, 0.8)),
    Spec("ellipe", ("ellipe",), fsp.ellipe, unary(-0.8, 0.8)),
    Spec("ellipkm1", ("ellipkm1",), fsp.ellipkm1, unary(0.2, 0.9)),
    _spec("struve", "struve", 0.3, 3.0, st.sampled_from([0.0, 1.5])),
    _spec("modstruve", "modstruve", 0.3, 3.0, st.sampled_from([0.0, 1.5])),
]
for _i, _part in enumerate(("sn", "cn", "dn", "ph")):
    SPECS.append(Spec(f"ellipj_{_part}", (f"ellipj_{_part}",), lambda u, m, i=_i: fsp.ellipj(u, m)[i],
                      _last(-2.0, 2.0, (st.sampled_from([0.2, 0.7]),)).map(lambda d: (d[0], {"m": d[1]["pre"][0]}))))
for _kind in ("jn", "yn", "in", "kn"):
    _f = getattr(fsp, f"spherical_{_kind}")
    SPECS.append(_spec(f"spherical_{_kind}", lambda n, z, f=_f: f(n, z), 0.5, 3.0, st.sampled_from([0, 2]),
                       prims=(f"spherical_{_kind}",)))
    SPECS.append(_spec(f"spherical_{_kind}_prime", lambda n, z, f=_f: f(n, z, True), 0.5, 3.0,
                       st.sampled_from([0, 2]), prims=(f"spherical_{_kind}_prime",)))
del _i, _part, _kind, _f
SPECS += [
    Spec(name, (name,), lambda p, m, f=getattr(fsp, name): f(p, m),
         _last(-2.0, 2.0, (st.sampled_from([0.2, 0.7]),)).map(lambda d: (d[0], {"m": d[1]["pre"][0]})))
    for name in ("ellipkinc", "ellipeinc")
]


@st.composite
def _three(draw, ranges):
    shapes = draw(fst.mutually_broadcastable_shapes(3))
    return tuple(draw(floats_of(s, lo, hi)) for s, (lo, hi) in zip(shapes, ranges)), {}


SPECS += [
    Spec("nrdtrimn", ("nrdtrimn",), fsp.nrdtrimn, _three(((0.1, 0.9), (0.5, 2.0), (-1.0, 1.0)))),
    Spec("nrdtrisd", ("nrdtrisd",), fsp.nrdtrisd, _three(((-1.0, 1.0), (0.6, 0.9), (1.5, 3.0)))),
    Spec("gdtria", ("gdtria",), lambda p, x: fsp.gdtria(p, 2.5, x), binary_broadcast(0.1, 0.9, 0.5, 2.0)),
]
