"""torch.version: what scripts print about the build (``torch.version.cuda`` is None: no CUDA toolkit is
compiled in; funcgrad reaches GPUs through cupy, see ``torch.cuda.is_available()``)."""

__version__ = "2.13.0+funcgrad"
cuda = None
hip = None
debug = False
git_version = "funcgrad"
