"""python -m benchmarks [name ...]: run the named benchmarks (default: all).

A benchmark is a module of this package (not starting with '_') with a
``run()`` function that prints its table and returns its figures.
"""

import importlib
import pkgutil
import sys

import benchmarks

ALL = sorted(m.name for m in pkgutil.iter_modules(benchmarks.__path__) if not m.name.startswith("_"))


def main(argv=None):
    names = (argv if argv is not None else sys.argv[1:]) or ALL
    unknown = [n for n in names if n not in ALL]
    if unknown:
        print(f"unknown benchmark(s) {unknown}; available: {', '.join(ALL)}", file=sys.stderr)
        return 2
    for name in names:
        importlib.import_module(f"benchmarks.{name}").run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
