"""python -m funcgrad.transforms [--update-docs]: the primitives vmap runs with the loop fallback.

``--update-docs`` rewrites that list in docs/transformations.md (run from the repository root).
"""

import sys

import funcgrad  # noqa: F401  (registers every primitive)
from funcgrad.transforms.batching import fallback_list_markdown, update_fallback_docs

if "--update-docs" in sys.argv:
    update_fallback_docs()
print(fallback_list_markdown(), end="")
