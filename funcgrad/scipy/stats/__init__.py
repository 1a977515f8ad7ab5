"""funcgrad.scipy.stats: scipy.stats distributions' functions, differentiable.

Each distribution is a namespace of functions with scipy's names and
loc/scale conventions: ``norm.logpdf(x, loc=0, scale=1)``, ``gamma.cdf(x, a,
loc=0, scale=1)``, ``poisson.logpmf(k, mu, loc=0)``,
``multivariate_normal.logpdf(x, mean, cov)``.  Densities are differentiable
in the variate and every parameter; see each distribution for its cdfs.
"""

from ._continuous import cauchy, expon, laplace, logistic, norm, t, uniform  # noqa: F401
from ._gamma_beta import beta, chi2, dirichlet, gamma, poisson  # noqa: F401
from ._multivariate import multivariate_normal  # noqa: F401

__all__ = ["norm", "t", "gamma", "beta", "chi2", "poisson", "dirichlet", "expon", "laplace",
           "cauchy", "logistic", "uniform", "multivariate_normal"]
