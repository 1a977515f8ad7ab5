"""torch.backends: the flags scripts set (``cudnn.benchmark = True``) and the availability checks.

funcgrad has no cuDNN or MPS: ``is_available()`` is False and the flags are
plain settable attributes that change nothing.
"""

from . import cpu, cuda, cudnn, mps, opt_einsum  # noqa: F401
