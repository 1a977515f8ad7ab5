"""``python -m funcgrad.compat SCRIPT.py [args]``: run a PyTorch script with ``torch`` resolved to funcgrad.compat.

An uncaught exception in the script prints its traceback and exits 1 (as
``python SCRIPT.py`` does); ``sys.exit(n)`` in the script exits ``n``.
"""

import sys

from .launcher import main

sys.exit(main())
