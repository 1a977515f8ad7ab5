"""torch.distributions over compat tensors.

Parameters are compat tensors, so ``log_prob``, ``entropy``, ``rsample`` (where a location-scale
transform reparameterizes the distribution) and ``kl_divergence`` are differentiable (REINFORCE,
VAEs); ``sample`` draws from the compat generator (``torch.manual_seed``) without gradient.
Invalid parameters raise PyTorch's ValueError ("... to satisfy the constraint ...") unless
``validate_args=False``.

Modules by what they hold: distribution.py (the base class and shared helpers), continuous.py,
discrete.py, multivariate.py, kl.py (``torch.distributions.kl``), transforms.py
(``torch.distributions.transforms`` and ``TransformedDistribution``).
"""

from . import kl, transforms  # noqa: F401  (torch.distributions.kl, torch.distributions.transforms)
from .continuous import (  # noqa: F401
    Beta, Cauchy, Chi2, Exponential, Gamma, Gumbel, HalfNormal, Laplace, LogNormal, Normal, StudentT, Uniform,
)
from .discrete import Bernoulli, Binomial, Categorical, Geometric, OneHotCategorical, Poisson  # noqa: F401
from .distribution import Distribution, ExponentialFamily  # noqa: F401
from .kl import kl_divergence, register_kl  # noqa: F401
from .multivariate import Dirichlet, Independent, MultivariateNormal  # noqa: F401
from .transforms import *  # noqa: F401,F403
