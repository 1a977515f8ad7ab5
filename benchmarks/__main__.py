"""python -m benchmarks [name ...]: run the named benchmarks (default: all)."""

import importlib
import sys

ALL = ["op_overhead"]


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
