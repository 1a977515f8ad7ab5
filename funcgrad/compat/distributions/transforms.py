"""torch.distributions transforms (Exp, Affine, Sigmoid, Tanh, Softplus, Power, Abs, Compose,
identity) and TransformedDistribution.

A Transform maps ``x -> y`` with ``inv`` and ``log_abs_det_jacobian(x, y)``; every formula is a
compat op, so TransformedDistribution's ``rsample`` and ``log_prob`` are differentiable (SAC's
``TransformedDistribution(Normal(mu, sigma), [TanhTransform()])``).
"""

from __future__ import annotations

import math

from ..tensor import Size
from .distribution import Distribution, _t

__all__ = ["Transform", "ExpTransform", "AffineTransform", "SigmoidTransform", "TanhTransform", "SoftplusTransform",
           "PowerTransform", "AbsTransform", "ComposeTransform", "identity_transform", "TransformedDistribution"]


class Transform:
    """Base class: ``t(x)``, ``t.inv(y)``, ``t.log_abs_det_jacobian(x, y)`` (element-wise unless
    ``event_dim``)."""

    bijective = True
    sign = 1
    event_dim = 0

    def __call__(self, x):
        return self._call(x)

    @property
    def inv(self):
        return _InverseTransform(self)

    def _call(self, x):
        raise NotImplementedError(f"{type(self).__name__} does not define its forward map")

    def _inverse(self, y):
        raise NotImplementedError(f"{type(self).__name__} is not invertible")

    def log_abs_det_jacobian(self, x, y):
        raise NotImplementedError(f"{type(self).__name__} does not define log_abs_det_jacobian")

    def forward_shape(self, shape):
        return shape

    def inverse_shape(self, shape):
        return shape

    def __repr__(self):
        return type(self).__name__ + "()"


class _InverseTransform(Transform):
    def __init__(self, t):
        self._inv = t
        self.event_dim = t.event_dim
        self.sign = t.sign

    @property
    def inv(self):
        return self._inv

    def _call(self, x):
        return self._inv._inverse(x)

    def _inverse(self, y):
        return self._inv._call(y)

    def log_abs_det_jacobian(self, x, y):
        return -self._inv.log_abs_det_jacobian(y, x)


class _Identity(Transform):
    def _call(self, x):
        return x

    def _inverse(self, y):
        return y

    def log_abs_det_jacobian(self, x, y):
        return x * 0.0


identity_transform = _Identity()


class ExpTransform(Transform):
    def _call(self, x):
        return x.exp()

    def _inverse(self, y):
        return y.log()

    def log_abs_det_jacobian(self, x, y):
        return x


class SigmoidTransform(Transform):
    def _call(self, x):
        return x.sigmoid()

    def _inverse(self, y):
        return y.log() - (-y).log1p()

    def log_abs_det_jacobian(self, x, y):
        from ..nn.functional import softplus  # noqa: PLC0415

        return -softplus(-x) - softplus(x)


class TanhTransform(Transform):
    def _call(self, x):
        return x.tanh()

    def _inverse(self, y):
        return y.atanh()

    def log_abs_det_jacobian(self, x, y):
        from ..nn.functional import softplus  # noqa: PLC0415

        return 2.0 * (math.log(2.0) - x - softplus(-2.0 * x))


class SoftplusTransform(Transform):
    def _call(self, x):
        from ..nn.functional import softplus  # noqa: PLC0415

        return softplus(x)

    def _inverse(self, y):
        return (-y).expm1().neg().log() + y

    def log_abs_det_jacobian(self, x, y):
        from ..nn.functional import softplus  # noqa: PLC0415

        return -softplus(-x)


class AbsTransform(Transform):
    bijective = False

    def _call(self, x):
        return x.abs()

    def _inverse(self, y):
        return y


class PowerTransform(Transform):
    def __init__(self, exponent):
        self.exponent = _t(exponent)

    def _call(self, x):
        return x.pow(self.exponent)

    def _inverse(self, y):
        return y.pow(1 / self.exponent)

    def log_abs_det_jacobian(self, x, y):
        return (self.exponent * y / x).abs().log()


class AffineTransform(Transform):
    """``y = loc + scale * x`` (``event_dim`` trailing dims summed in the log-det)."""

    def __init__(self, loc, scale, event_dim=0):
        self.loc, self.scale, self.event_dim = loc, scale, event_dim

    @property
    def sign(self):
        return self.scale.sign() if hasattr(self.scale, "sign") else (1 if self.scale > 0 else -1)

    def _call(self, x):
        return self.loc + self.scale * x

    def _inverse(self, y):
        return (y - self.loc) / self.scale

    def log_abs_det_jacobian(self, x, y):
        scale = _t(self.scale, x)
        r = scale.abs().log().expand(*x.shape) if scale.dim() <= x.dim() else scale.abs().log()
        return r.sum(tuple(range(-self.event_dim, 0))) if self.event_dim else r


class ComposeTransform(Transform):
    def __init__(self, parts):
        self.parts = list(parts)
        self.event_dim = max((p.event_dim for p in self.parts), default=0)

    @property
    def inv(self):
        return ComposeTransform([p.inv for p in reversed(self.parts)])

    def _call(self, x):
        for p in self.parts:
            x = p(x)
        return x

    def _inverse(self, y):
        return self.inv(y)

    def log_abs_det_jacobian(self, x, y):
        if not self.parts:
            return x * 0.0
        total = 0.0
        for p in self.parts:
            y_ = p(x)
            term = p.log_abs_det_jacobian(x, y_)
            extra = self.event_dim - p.event_dim
            if extra:
                term = term.sum(tuple(range(-extra, 0)))
            total = total + term
            x = y_
        return total


class TransformedDistribution(Distribution):
    """``base_distribution`` pushed through ``transforms`` (a Transform or a list, applied in order)."""

    def __init__(self, base_distribution, transforms, validate_args=None):
        self.base_dist = base_distribution
        self.transforms = [transforms] if isinstance(transforms, Transform) else list(transforms)
        self.has_rsample = base_distribution.has_rsample
        self._params = ()
        ev = max([len(base_distribution.event_shape)] + [t.event_dim for t in self.transforms])
        shape = tuple(base_distribution.batch_shape) + tuple(base_distribution.event_shape)
        nb = len(shape) - ev
        super().__init__(Size(shape[:nb]), Size(shape[nb:]), validate_args)

    def sample(self, sample_shape=Size()):
        x = self.base_dist.sample(sample_shape)
        for t in self.transforms:
            x = t(x)
        return x

    def rsample(self, sample_shape=Size()):
        x = self.base_dist.rsample(sample_shape)
        for t in self.transforms:
            x = t(x)
        return x

    def log_prob(self, value):
        ev = len(self.event_shape)
        y = _t(value)
        lp = 0.0
        for t in reversed(self.transforms):
            x = t.inv(y)
            term = t.log_abs_det_jacobian(x, y)
            extra = ev - t.event_dim
            if extra:
                term = term.sum(tuple(range(-extra, 0)))
            lp = lp - term
            y = x
        base = self.base_dist.log_prob(y)
        extra = ev - len(self.base_dist.event_shape)
        if extra:
            base = base.sum(tuple(range(-extra, 0)))
        return base + lp

    def __repr__(self):
        return f"TransformedDistribution({self.base_dist!r}, {self.transforms!r})"
