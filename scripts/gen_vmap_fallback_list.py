"""python scripts/gen_vmap_fallback_list.py [--update-docs]: the primitives vmap runs with the loop fallback.

``--update-docs`` rewrites that list in docs/transformations.md (run from the repository root).
It imports every family that registers primitives, so it sits above the package (it was
``python -m funcgrad.transforms``, an import of nn and scipy from inside transforms).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import funcgrad  # noqa: F401,E402  (registers the core's primitives)
import funcgrad.nn  # noqa: F401,E402  (and the layers')
import funcgrad.scipy.special  # noqa: F401,E402  (and the special functions', linalg helpers')
import funcgrad.scipy.linalg  # noqa: F401,E402
import funcgrad.scipy.signal  # noqa: F401,E402
import funcgrad.scipy.integrate  # noqa: F401,E402
from funcgrad.transforms.batching import fallback_list_markdown, update_fallback_docs  # noqa: E402

if "--update-docs" in sys.argv:
    update_fallback_docs()
print(fallback_list_markdown(), end="")
