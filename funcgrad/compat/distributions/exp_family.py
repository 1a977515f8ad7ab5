"""torch.distributions.exp_family: ``ExponentialFamily``, densities ``exp(<t(x), theta> - F(theta) + k(x))``.

A subclass that gives its natural parameters, log normalizer F and mean carrier measure gets
``entropy`` as the Bregman divergence of F, differentiated with the compat autograd (the same
construction PyTorch uses to check its closed forms)."""

from __future__ import annotations

from .distribution import Distribution

__all__ = ["ExponentialFamily"]


class ExponentialFamily(Distribution):
    """Base of the exponential-family distributions."""

    @property
    def _natural_params(self):
        raise NotImplementedError(f"{type(self).__name__} does not define _natural_params")

    def _log_normalizer(self, *natural_params):
        raise NotImplementedError(f"{type(self).__name__} does not define _log_normalizer")

    @property
    def _mean_carrier_measure(self):
        raise NotImplementedError(f"{type(self).__name__} does not define _mean_carrier_measure")

    def entropy(self):
        """H = F(theta) - <theta, grad F(theta)> - E[k(x)]."""
        from ..autograd import grad  # noqa: PLC0415

        result = -self._mean_carrier_measure
        params = [p.detach().requires_grad_() for p in self._natural_params]
        log_norm = self._log_normalizer(*params)
        grads = grad(log_norm.sum(), params, create_graph=True)
        result = result + log_norm
        for p, g in zip(params, grads):
            result = result - (p * g).reshape(*self._batch_shape, -1).sum(-1)
        return result
