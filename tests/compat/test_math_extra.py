"""torch.finfo/iinfo and the extra element-wise math of funcgrad.compat (ops_math_extra.py) against
numpy/scipy references; gradients by gradcheck in float64."""

import math
import warnings

import numpy as np
import pytest
import scipy.special as sps

import funcgrad.compat as torch
from funcgrad.compat.autograd import gradcheck

nan, inf = float("nan"), float("inf")
rng = np.random.default_rng(0)


def _np(t):
    return t.detach().numpy()


def _t(a, grad=False):
    return torch.tensor(np.asarray(a, np.float64), requires_grad=grad)


def test_finfo():
    for dt, npd in ((torch.float32, np.float32), (torch.float64, np.float64), (torch.float16, np.float16)):
        fi, ref = torch.finfo(dt), np.finfo(npd)
        assert (fi.eps, fi.max, fi.min, fi.tiny, fi.smallest_normal, fi.bits) == (
            float(ref.eps), float(ref.max), float(ref.min), float(ref.smallest_normal), float(ref.smallest_normal),
            ref.bits)
        assert fi.resolution == 10.0 ** -ref.precision and fi.dtype == np.dtype(npd).name
    assert torch.finfo().eps == float(np.finfo(np.float32).eps)  # the default dtype
    assert torch.finfo(torch.complex128).eps == float(np.finfo(np.float64).eps)
    assert repr(torch.finfo(torch.float32)) == (
        "finfo(resolution=1e-06, min=-3.40282e+38, max=3.40282e+38, eps=1.19209e-07, smallest_normal=1.17549e-38, "
        "tiny=1.17549e-38, dtype=float32)")
    with pytest.raises(TypeError, match="requires a floating point input type"):
        torch.finfo(torch.int32)


def test_iinfo():
    for dt, npd in ((torch.uint8, np.uint8), (torch.int8, np.int8), (torch.int16, np.int16),
                    (torch.int32, np.int32), (torch.int64, np.int64)):
        ii, ref = torch.iinfo(dt), np.iinfo(npd)
        assert (ii.min, ii.max, ii.bits, ii.dtype) == (ref.min, ref.max, ref.bits, np.dtype(npd).name)
    assert repr(torch.iinfo(torch.uint8)) == "iinfo(min=0, max=255, dtype=uint8)"
    with pytest.raises(TypeError, match="requires an integer input type"):
        torch.iinfo(torch.float32)
    with pytest.raises(TypeError, match="bool is not supported"):
        torch.iinfo(torch.bool)


def test_nansum_nanmean():
    a = np.array([[1.0, nan, 2.0], [nan, nan, nan]], np.float32)
    x = torch.tensor(a)
    for dim in (None, 0, -1, (0, 1)):
        np.testing.assert_allclose(_np(torch.nansum(x, dim)), np.nansum(a, axis=dim))
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # numpy: "Mean of empty slice"
            ref = np.nanmean(a, axis=dim, keepdims=True)
        np.testing.assert_allclose(_np(x.nanmean(dim, keepdim=True)), ref)
    assert torch.nansum(x).dtype == torch.float32
    assert torch.nansum(torch.tensor([True, True])).dtype == torch.int64
    assert torch.nansum(torch.tensor([1, 2]), dtype=torch.float64).dtype == torch.float64
    assert _np(torch.nansum(torch.tensor(2.0), 0)) == 2.0  # 0-d, dim 0
    assert torch.nansum(torch.zeros(0, 3), 0).shape == (3,)
    with pytest.raises(RuntimeError, match="floating point or complex dtype but got Long"):
        torch.nanmean(torch.tensor([1, 2]))
    g = _t([[1.0, nan, 2.0], [3.0, 4.0, nan]], True)
    torch.nanmean(g, 1).sum().backward()
    np.testing.assert_allclose(_np(g.grad), [[0.5, 0, 0.5], [0.5, 0.5, 0]])


def test_logit_sgn_sinc_i0():
    p = np.array([0.05, 0.3, 0.7, 0.95])
    np.testing.assert_allclose(_np(torch.logit(_t(p))), sps.logit(p))
    np.testing.assert_allclose(_np(_t(p).logit(0.2)), sps.logit(np.clip(p, 0.2, 0.8)))
    assert torch.logit(torch.tensor([1, 0])).dtype == torch.float32  # int -> default float
    assert gradcheck(lambda v: torch.logit(v), (_t([0.2, 0.6], True),))
    assert gradcheck(lambda v: torch.logit(v, 0.25), (_t([0.1, 0.6, 0.9], True),))
    z = np.array([3 + 4j, 0j, -1j], np.complex64)
    np.testing.assert_allclose(_np(torch.sgn(torch.tensor(z))), [0.6 + 0.8j, 0, -1j], rtol=1e-6)
    np.testing.assert_array_equal(_np(torch.sgn(torch.tensor([-2.0, 0.0, nan, 3.0]))), [-1, 0, 0, 1])
    assert torch.sgn(torch.tensor([-2, 0, 3])).dtype == torch.int64
    x = np.array([0.0, 0.3, -1.2, 2.0])
    np.testing.assert_allclose(_np(torch.sinc(_t(x))), np.sinc(x), atol=1e-15)
    np.testing.assert_allclose(_np(torch.i0(_t(x))), sps.i0(x))
    assert torch.i0(torch.tensor([1])).dtype == torch.float32
    for f in (torch.sinc, torch.i0):
        assert gradcheck(f, (_t([0.3, -1.2, 2.5], True),))


def test_predicates():
    a = np.array([-inf, -1.5, -0.0, 0.0, 2.0, inf, nan], np.float32)
    x = torch.tensor(a)
    np.testing.assert_array_equal(_np(torch.isneginf(x)), np.isneginf(a))
    np.testing.assert_array_equal(_np(x.isposinf()), np.isposinf(a))
    np.testing.assert_array_equal(_np(torch.signbit(x)), np.signbit(a))
    np.testing.assert_array_equal(_np(torch.signbit(torch.tensor([-1, 2]))), [True, False])
    np.testing.assert_array_equal(_np(torch.isneginf(torch.tensor([-1, 2]))), [False, False])
    np.testing.assert_array_equal(_np(torch.isreal(torch.tensor([1 + 0j, 1j]))), [True, False])
    assert bool(torch.isreal(torch.tensor(2.0)))
    np.testing.assert_array_equal(_np(torch.isin(torch.tensor([[1, 2], [3, 4]]), torch.tensor([2, 4]))),
                                  [[False, True], [False, True]])
    np.testing.assert_array_equal(_np(torch.isin(torch.tensor([1, 2]), 2, invert=True)), [True, False])
    np.testing.assert_array_equal(_np(torch.isin(2, torch.tensor([1, 2]))), True)
    with pytest.raises(RuntimeError, match="isin"):
        torch.isin(torch.tensor([True]), torch.tensor([True]))
    t = torch.tensor([1.0])
    assert torch.positive(t) is t
    with pytest.raises(RuntimeError, match="bool tensor"):
        torch.positive(torch.tensor([True]))
    assert torch.is_nonzero(torch.tensor([1.5])) and not torch.tensor(0).is_nonzero()
    for bad, msg in ((torch.tensor([]), "no values"), (torch.tensor([1, 2]), "more than one value")):
        with pytest.raises(RuntimeError, match=msg):
            torch.is_nonzero(bad)


def test_binary_float_ops():
    a, b = rng.standard_normal((3, 1)), rng.standard_normal(4)
    b[1] = nan
    ta, tb = _t(a), _t(b)
    np.testing.assert_allclose(_np(torch.logaddexp2(ta, tb)), np.logaddexp2(a, b))
    np.testing.assert_allclose(_np(torch.fmax(ta, tb)), np.fmax(a, b))
    np.testing.assert_allclose(_np(ta.fmin(tb)), np.fmin(a, b))
    np.testing.assert_allclose(_np(torch.nextafter(ta, tb)), np.nextafter(a, b))
    assert torch.fmax(torch.tensor([1]), torch.tensor([2.0])).dtype == torch.float32
    assert torch.fmax(torch.tensor([1]), torch.tensor([2])).dtype == torch.int64
    with pytest.raises(NotImplementedError, match="'Long'"):
        torch.logaddexp2(torch.tensor([1]), torch.tensor([2]))
    with pytest.raises(TypeError, match="must be Tensor, not float"):
        torch.fmax(torch.tensor([1.0]), 2.0)
    for f in (torch.logaddexp2, torch.fmax, torch.fmin):
        assert gradcheck(f, (_t([0.3, -1.0, 2.0], True), _t([0.5, -2.0, 1.0], True)))


def test_float_power_heaviside_ldexp_frexp():
    r = torch.float_power(torch.tensor([2, 3]), 2)
    assert r.dtype == torch.float64 and _np(r).tolist() == [4.0, 9.0]
    assert torch.float_power(torch.tensor([1 + 1j]), 2).dtype == torch.complex128
    np.testing.assert_allclose(_np(torch.float_power(2, torch.tensor([0.5], dtype=torch.float32))), [2 ** 0.5])
    assert gradcheck(torch.float_power, (_t([0.5, 1.5], True), _t([1.2, -0.7], True)))
    x = torch.tensor([-1.0, 0.0, 2.0, nan])
    np.testing.assert_array_equal(_np(torch.heaviside(x, torch.tensor([0.5]))), [0, 0.5, 1, 0])
    with pytest.raises(RuntimeError, match="different dtypes"):
        torch.heaviside(x, torch.tensor([0.5], dtype=torch.float64))
    r = torch.ldexp(torch.tensor([1, 3]), torch.tensor([2, -1]))
    assert r.dtype == torch.float32 and _np(r).tolist() == [4.0, 1.5]
    assert gradcheck(torch.ldexp, (_t([0.5, -1.5], True), _t([1.0, -2.0], True)))
    a = np.array([8.0, 0.3, -5.0, 0.0])
    m, e = torch.frexp(_t(a))
    rm, re_ = np.frexp(a)
    np.testing.assert_array_equal(_np(m), rm)
    np.testing.assert_array_equal(_np(e), re_)
    assert e.dtype == torch.int32
    assert gradcheck(lambda v: torch.frexp(v).mantissa, (_t([7.0, 0.3, -5.0], True),))  # off powers of 2
    with pytest.raises(RuntimeError, match="floating-point"):
        torch.frexp(torch.tensor([1]))


def test_gcd_lcm():
    a, b = np.array([[4, 6, 0, -12]]), np.array([[6], [9]])
    np.testing.assert_array_equal(_np(torch.gcd(torch.tensor(a), torch.tensor(b))), np.gcd(a, b))
    np.testing.assert_array_equal(_np(torch.tensor(a).lcm(torch.tensor(b))), np.lcm(a, b))
    assert torch.gcd(torch.tensor([4], dtype=torch.int32), torch.tensor([6], dtype=torch.int32)).dtype == torch.int32
    with pytest.raises(NotImplementedError, match="'Float'"):
        torch.gcd(torch.tensor([1.0]), torch.tensor([2.0]))


def test_polygamma_mvlgamma():
    x = np.array([0.7, 1.5, 3.0])
    for n in (0, 1, 3):
        np.testing.assert_allclose(_np(torch.polygamma(n, _t(x))), sps.polygamma(n, x))
    np.testing.assert_allclose(_np(_t(x).polygamma(1)), sps.polygamma(1, x))
    assert gradcheck(lambda v: torch.polygamma(1, v), (_t(x, True),))
    y = x + 2
    np.testing.assert_allclose(_np(torch.mvlgamma(_t(y), 3)), sps.multigammaln(y, 3))
    np.testing.assert_allclose(_np(_t(y).mvlgamma(p=1)), sps.gammaln(y))
    assert gradcheck(lambda v: torch.mvlgamma(v, 2), (_t(y, True),))
    with pytest.raises(RuntimeError, match="boolean"):
        torch.mvlgamma(torch.tensor([True]), 2)


def test_renorm():
    a = rng.standard_normal((3, 4))
    for p, dim, maxnorm in ((2, 0, 1.0), (1, -1, 0.5), (3, 1, 10.0)):
        axes = tuple(i for i in range(2) if i != dim % 2)
        n = np.sum(np.abs(a) ** p, axis=axes, keepdims=True) ** (1 / p)
        ref = a * np.where(n > maxnorm, maxnorm / (n + 1e-7), 1.0)
        np.testing.assert_allclose(_np(torch.renorm(_t(a), p, dim, maxnorm)), ref)
        assert gradcheck(lambda v, p=p, dim=dim, m=maxnorm: v.renorm(p, dim, m), (_t(a, True),))
    with pytest.raises(RuntimeError, match="at least 2 dimensions"):
        torch.renorm(torch.ones(3), 2, 0, 1.0)


def test_special_module():
    import funcgrad.compat.special as sp

    assert torch.special is sp
    x = np.array([0.1, 0.5, 0.9])
    cases = {"expit": sps.expit, "logit": sps.logit, "erf": sps.erf, "erfc": sps.erfc, "erfinv": sps.erfinv,
             "gammaln": sps.gammaln, "digamma": sps.digamma, "i0": sps.i0, "i0e": sps.i0e, "i1": sps.i1,
             "i1e": sps.i1e, "ndtr": sps.ndtr, "ndtri": sps.ndtri, "log_ndtr": sps.log_ndtr, "entr": sps.entr,
             "sinc": np.sinc, "bessel_j0": sps.j0, "bessel_j1": sps.j1, "bessel_y0": sps.y0, "bessel_y1": sps.y1,
             "expm1": np.expm1, "exp2": np.exp2, "log1p": np.log1p}
    for name, ref in cases.items():
        np.testing.assert_allclose(_np(getattr(sp, name)(_t(x))), ref(x), rtol=1e-10, atol=1e-12, err_msg=name)
    np.testing.assert_allclose(_np(sp.xlog1py(_t(x), _t(x))), sps.xlog1py(x, x))
    np.testing.assert_allclose(_np(sp.xlogy(_t(x), _t(x))), sps.xlogy(x, x))
    np.testing.assert_allclose(_np(sp.gammainc(_t(x), _t(x + 1))), sps.gammainc(x, x + 1))
    np.testing.assert_allclose(_np(sp.polygamma(2, _t(x))), sps.polygamma(2, x))
    np.testing.assert_allclose(_np(sp.multigammaln(_t(x + 2), 2)), sps.multigammaln(x + 2, 2))
    np.testing.assert_allclose(_np(sp.logsumexp(_t(x), 0)), sps.logsumexp(x))
    np.testing.assert_allclose(_np(sp.softmax(_t(x), 0)), sps.softmax(x))
    np.testing.assert_allclose(_np(sp.log_softmax(_t(x), 0)), sps.log_softmax(x))
    assert sp.ndtr(torch.tensor([0, 1])).dtype == torch.float32
    for name in ("ndtri", "log_ndtr", "i1e", "entr", "erfinv"):
        assert gradcheck(getattr(sp, name), (_t([0.2, 0.6], True),)), name
    assert gradcheck(sp.xlog1py, (_t([0.2, 0.6], True), _t([0.5, 1.5], True)))
    assert math.isclose(float(sp.ndtri(torch.tensor(0.975))), 1.959964, rel_tol=1e-6)


def test_standin_device():
    """Nothing here computes with numpy on tensor data: the strict stand-in device refuses it."""
    d = torch.device("standin:0")
    x = torch.tensor([[1.0, nan, 3.0, 0.5], [2.0, 4.0, 1.0, 3.0]], device=d, requires_grad=True)
    outs = [torch.nansum(x), torch.nanmean(x, 1), torch.sgn(x), torch.sinc(x), torch.isneginf(x), torch.isposinf(x),
            torch.isreal(x), torch.signbit(x), torch.i0(x), torch.frexp(x).mantissa, torch.logit(x.sigmoid(), 0.1),
            torch.heaviside(x, torch.tensor([0.5], device=d)), torch.nextafter(x, x), torch.renorm(x, 2, 0, 1.0),
            torch.ldexp(x, torch.tensor([1.0], device=d)), torch.float_power(x, 2), torch.float_power(2, x),
            torch.mvlgamma(x.abs() + 2, 2), torch.special.ndtri(x.sigmoid()), torch.sgn(torch.tensor([1j], device=d)),
            torch.isin(torch.tensor([1, 2], device=d), 2), torch.isin(2, torch.tensor([1, 2], device=d)),
            torch.gcd(torch.tensor([4], device=d), torch.tensor([6], device=d)), torch.fmax(x, x)]
    assert all(o.device == d for o in outs)
    assert torch.is_nonzero(torch.tensor([1.0], device=d))
    torch.nansum(torch.renorm(x, 2, 0, 1.0)).backward()
    assert x.grad.device == d


def test_import_torch_special_under_the_launcher(tmp_path):
    from tests.compat.test_launcher import launch

    r = launch(tmp_path, """
        import torch
        import torch.special
        from torch.special import ndtri
        print(float(ndtri(torch.tensor(0.5))), torch.special.expit(torch.tensor([0.0])).tolist(),
              torch.finfo(torch.float64).eps == 2.0 ** -52)
    """)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["0.0", "[0.5]", "True"]


@pytest.mark.parametrize("shape", [(3,), (2, 3), (2, 4, 3), (0, 3), (2, 0)])
@pytest.mark.parametrize("offset", [0, 2, -1])
def test_diag_embed_places_the_diagonal_in_dim1_dim2(shape, offset):
    x = np.random.default_rng(0).standard_normal(shape)
    out = torch.diag_embed(torch.tensor(x), offset).numpy()
    n = shape[-1] + abs(offset)
    assert out.shape == shape[:-1] + (n, n)
    batch = int(np.prod(shape[:-1]))
    flat = out.reshape(batch, n, n)
    for b, row in enumerate(x.reshape(batch, shape[-1])):
        np.testing.assert_array_equal(flat[b], np.diag(row, offset))
    if len(shape) >= 2:  # the matrices in other dims: rows in dim 0, columns in dim 2
        moved = torch.diag_embed(torch.tensor(x), offset, 0, 2).numpy()
        np.testing.assert_array_equal(moved, np.moveaxis(out, (-2, -1), (0, 2)))


def test_diag_embed_gradient_and_errors():
    v = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
    (torch.diag_embed(v, -1) * 2).sum().backward()
    np.testing.assert_array_equal(v.grad.numpy(), np.full((3, 4), 2.0))
    with pytest.raises(RuntimeError, match="diagonal dimensions cannot be identical"):
        torch.diag_embed(v, 0, 1, 1)
    with pytest.raises(IndexError, match="Dimension out of range"):
        torch.diag_embed(v, 0, 3, 1)
