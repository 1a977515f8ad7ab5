"""The ``__mp_main__`` of spawn/forkserver children of a script run by ``python -m funcgrad.compat``.

multiprocessing re-runs the parent's main script in each child before
unpickling its work; without the ``torch`` alias the child's ``import torch``
would load the real PyTorch. :func:`funcgrad.compat.launcher.run` points the
child here (``init_main_from_name``); this installs the alias and runs the
script (``FUNCGRAD_COMPAT_SCRIPT``, set by ``run`` in the parent's
environment) as ``__mp_main__``, so classes pickled as ``__main__.X`` resolve as in the parent.
"""

import os
import runpy
import sys

if __name__ == "__mp_main__":
    from funcgrad.compat.launcher import install

    install()
    sys.argv[0] = os.environ["FUNCGRAD_COMPAT_SCRIPT"]
    globals().update(runpy.run_path(sys.argv[0], run_name="__mp_main__"))
