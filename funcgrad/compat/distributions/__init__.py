"""torch.distributions over compat tensors.

Parameters are compat tensors, so ``log_prob``, ``entropy``, ``rsample`` and ``kl_divergence`` are
differentiable (REINFORCE, VAEs); ``sample`` draws from the compat generator (``torch.manual_seed``)
without gradient.  Parameters are checked against ``arg_constraints`` and ``log_prob`` values
against ``support`` (PyTorch's ValueError messages) unless ``validate_args=False``.

Modules by what they hold: distribution.py (the base class and shared helpers), exp_family.py,
constraints.py, constraint_registry.py (biject_to / transform_to), utils.py, gamma_sampling.py
(reparameterized gamma draws), continuous.py, continuous_positive.py (half-line laws),
continuous_bounded.py ([0, 1], the simplex, the circle), discrete.py, multivariate.py, matrix.py
(Wishart, LKJCholesky), mixture.py, relaxed.py (Gumbel-softmax / Concrete), kl.py,
transforms.py and transforms_structured.py, transformed_distribution.py.  PyTorch's one-module-
per-distribution names (``torch.distributions.normal`` ...) are registered as aliases of the
family module that holds the class.
"""

import sys as _sys

from . import (  # noqa: F401  # noqa: F401
    constraint_registry,
    constraints,
    distribution,
    exp_family,
    kl,
    transformed_distribution,
    transforms,
    utils,
)
from .constraint_registry import biject_to, transform_to  # noqa: F401
from .continuous import (  # noqa: F401
    Beta,
    Cauchy,
    Chi2,
    Exponential,
    Gamma,
    Gumbel,
    HalfNormal,
    Laplace,
    LogNormal,
    Normal,
    StudentT,
    Uniform,
)
from .continuous_bounded import (  # noqa: F401
    ContinuousBernoulli,
    Kumaraswamy,
    LogisticNormal,
    VonMises,
)
from .continuous_positive import (  # noqa: F401
    FisherSnedecor,
    GeneralizedPareto,
    HalfCauchy,
    InverseGamma,
    Pareto,
    Weibull,
)
from .discrete import (  # noqa: F401
    Bernoulli,
    Binomial,
    Categorical,
    Geometric,
    Multinomial,
    NegativeBinomial,
    OneHotCategorical,
    OneHotCategoricalStraightThrough,
    Poisson,
)
from .distribution import Distribution  # noqa: F401
from .exp_family import ExponentialFamily  # noqa: F401
from .kl import kl_divergence, register_kl  # noqa: F401
from .matrix import LKJCholesky, Wishart  # noqa: F401
from .mixture import MixtureSameFamily  # noqa: F401
from .multivariate import (  # noqa: F401
    Dirichlet,
    Independent,
    LowRankMultivariateNormal,
    MultivariateNormal,
)
from .relaxed import RelaxedBernoulli, RelaxedOneHotCategorical  # noqa: F401
from .transformed_distribution import TransformedDistribution  # noqa: F401
from .transforms import *  # noqa: F401,F403

# torch.distributions.<module> -> the family module here that holds its class
_ALIASES = {
    "bernoulli": "discrete", "binomial": "discrete", "categorical": "discrete", "geometric": "discrete",
    "multinomial": "discrete", "negative_binomial": "discrete", "one_hot_categorical": "discrete",
    "poisson": "discrete",
    "beta": "continuous", "cauchy": "continuous", "chi2": "continuous", "exponential": "continuous",
    "gamma": "continuous", "gumbel": "continuous", "half_normal": "continuous", "laplace": "continuous",
    "log_normal": "continuous", "normal": "continuous", "studentT": "continuous", "uniform": "continuous",
    "dirichlet": "multivariate", "independent": "multivariate", "lowrank_multivariate_normal": "multivariate",
    "multivariate_normal": "multivariate",
    "continuous_bernoulli": "continuous_bounded", "kumaraswamy": "continuous_bounded",
    "logistic_normal": "continuous_bounded", "von_mises": "continuous_bounded",
    "fishersnedecor": "continuous_positive", "generalized_pareto": "continuous_positive",
    "half_cauchy": "continuous_positive", "inverse_gamma": "continuous_positive", "pareto": "continuous_positive",
    "weibull": "continuous_positive",
    "relaxed_bernoulli": "relaxed", "relaxed_categorical": "relaxed",
    "lkj_cholesky": "matrix", "wishart": "matrix", "mixture_same_family": "mixture",
}


def _register_aliases():
    for alias, target in _ALIASES.items():
        module = _sys.modules[f"{__name__}.{target}"]
        _sys.modules[f"{__name__}.{alias}"] = module
        globals()[alias] = module


_register_aliases()
