"""python -m funcgrad.transforms [--update-docs]: the primitives vmap runs with the loop fallback.

``--update-docs`` rewrites that list in docs/transformations.md (run from the repository root).
"""

import sys

import funcgrad  # noqa: F401  (registers the core's primitives)
import funcgrad.nn  # noqa: F401  (and the layers')
import funcgrad.scipy.special  # noqa: F401  (and the special functions', linalg helpers')
import funcgrad.scipy.linalg  # noqa: F401
import funcgrad.scipy.signal  # noqa: F401
import funcgrad.scipy.integrate  # noqa: F401
from funcgrad.transforms.batching import fallback_list_markdown, update_fallback_docs

if "--update-docs" in sys.argv:
    update_fallback_docs()
print(fallback_list_markdown(), end="")
