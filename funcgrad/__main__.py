"""``python -m funcgrad demo | info | bench``: the same as the ``funcgrad`` command."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
