"""Specs: funcgrad.primitives.scipy_linalg, on well-conditioned matrices built from draws."""

import hypothesis.strategies as st
import numpy as np

import funcgrad.numpy as fnp
import funcgrad.scipy.linalg as fl

from ..spec import Spec, floats_of


@st.composite
def _matrices(draw, count=1, rhs=False):
    n = draw(st.integers(1, 4))
    mats = tuple(draw(floats_of((n, n), -1.0, 1.0)) for _ in range(count))
    if rhs:
        mats += (draw(floats_of((n, draw(st.integers(1, 3))), -2.0, 2.0)),)
    return mats, {}


@st.composite
def _triangular_args(draw):
    (a, b), _ = draw(_matrices(1, rhs=True))
    return (a, b), {"lower": draw(st.booleans()), "trans": draw(st.sampled_from([0, 1, "T"])),
                    "unit_diagonal": draw(st.booleans())}


@st.composite
def _permuted(draw):
    (a,), _ = draw(_matrices(1))
    return (a,), {"perm": np.asarray(draw(st.permutations(range(a.shape[0]))))}


def _spd(m):
    return m @ m.T + 2.0 * fnp.eye(m.shape[0])


def _dominant(m):
    """Strictly diagonally dominant by rows and columns (entries of m are in [-1, 1])."""
    return m + (m.shape[0] + 1.0) * fnp.eye(m.shape[0])


def _pivoted_lu(a, perm):
    """LU of a row-permuted diagonally dominant matrix: pivoting with clear winners."""
    return fl.lu_factor(_dominant(a)[perm])[0]


SPECS = [
    Spec("triangular_solve", ("triangular_solve",),
         lambda a, b, **kw: fl.solve_triangular(_dominant(a), b, **kw), _triangular_args()),
    Spec("scipy_cholesky", ("cholesky",), lambda a: fl.cholesky(_spd(a), lower=True), _matrices()),
    # (compositions: first order here, their primitives' own specs go to second order)
    Spec("cho_solve", ("cholesky", "triangular_solve"),
         lambda a, b: fl.cho_solve(fl.cho_factor(_spd(a)), b), _matrices(1, rhs=True), order=1),
    Spec("lu_factor", ("lu_factor", "lu_pivots"), _pivoted_lu, _permuted()),
    Spec("lu_solve", ("lu_factor", "lu_pivots", "lu_perm", "triangular_solve"),
         lambda a, b: fl.lu_solve(fl.lu_factor(_dominant(a)[::-1]), b), _matrices(1, rhs=True), order=1),
    Spec("expm", ("expm",), fl.expm, _matrices()),
    Spec("solve_sylvester", ("solve_sylvester",),
         lambda a, b, q: fl.solve_sylvester(_dominant(a), _dominant(b), q),
         _matrices(2).flatmap(lambda c: floats_of((c[0][0].shape[0], c[0][1].shape[0])).map(
             lambda q: (c[0] + (q,), {})))),
    Spec("sqrtm", ("sqrtm",), lambda a: fl.sqrtm(_spd(a)), _matrices()),
]
