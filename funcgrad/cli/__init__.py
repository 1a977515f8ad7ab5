"""The ``funcgrad`` command: ``funcgrad demo | info | bench`` (also ``python -m funcgrad``).

Mistakes on the command line (a bad option value, a missing data folder, an
unavailable device) print one line saying what to do and exit with status 2,
never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys

__all__ = ["main", "build_parser"]

EXIT_USAGE = 2


class UsageError(Exception):
    """An error in what the user asked for: printed as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    """argparse, but an error is one line (no usage block) and raises UsageError."""

    def error(self, message):
        raise UsageError(f"{message} (see {self.prog} --help)")


def _positive_int(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def _positive_float(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive finite number, got {text!r}")
    return value


def build_parser():
    from ..demo import APIS  # noqa: PLC0415
    from ..demo.models import MODELS  # noqa: PLC0415

    parser = _Parser(prog="funcgrad", description="funcgrad: functional autodiff on NumPy and CuPy.")
    sub = parser.add_subparsers(dest="command", metavar="{demo,info,bench}")

    demo = sub.add_parser(
        "demo", help="train a small network on real data (default: the embedded 8x8 digits)",
        description="Train a classifier with funcgrad, show a progress bar, print the test accuracy "
        "and write a loss/accuracy plot.",
    )
    demo.add_argument("--api", choices=APIS, default="functional",
                      help="functional (fg.grad) or compat (import funcgrad.compat as torch)")
    demo.add_argument("--model", choices=MODELS, default="lenet",
                      help="lenet (LeNet-5's shape, adapted to the image size) or mlp (two hidden layers)")
    demo.add_argument("--epochs", type=_positive_int, help="passes over the training set (default: lenet 15, mlp 10)")
    demo.add_argument("--batch-size", type=_positive_int, help="images per step (default 32)")
    demo.add_argument("--lr", type=_positive_float,
                      help="Adam's initial learning rate, decayed to 0 along a cosine (default 0.003)")
    demo.add_argument("--device", default="cpu", help="cpu, cuda or cuda:N (default cpu)")
    demo.add_argument("--data", metavar="FOLDER",
                      help="train on MNIST IDX files or CIFAR-10 python batches in FOLDER instead")
    demo.add_argument("--save", metavar="PATH", help="write the trained parameters to PATH (numpy .npz)")
    demo.add_argument("--plot", metavar="PATH", default="funcgrad-demo.png",
                      help="where to write the loss/accuracy PNG (default ./funcgrad-demo.png)")
    demo.add_argument("--no-plot", action="store_true", help="do not write the plot")
    demo.add_argument("--threads", type=_positive_int, default=1,
                      help="BLAS threads for numpy while training (default 1: the demo's matrices are small)")
    demo.add_argument("--seed", type=int, default=0, help="initialization and shuffling seed (default 0)")
    demo.add_argument("-q", "--quiet", action="store_true", help="no progress bar; print only the results")

    sub.add_parser("info", help="version, backends, BLAS, GPUs, defaults, dataset location",
                   description="Print what funcgrad found on this machine.")

    bench = sub.add_parser("bench", help="run the benchmarks (source checkout only)",
                           description="Run benchmarks/ and print each table: ratios to a hand-written "
                           "numpy reference timed in the same run (and to torch/jax/autograd when installed).")
    bench.add_argument("names", nargs="*", help="benchmarks to run (default: all)")
    bench.add_argument("--list", action="store_true", help="list the benchmarks and exit")
    return parser


def _demo(args):
    from ..datasets import DatasetError  # noqa: PLC0415
    from ..demo import DemoError, run  # noqa: PLC0415

    try:
        run(
            api=args.api, model=args.model, epochs=args.epochs, batch_size=args.batch_size, lr=args.lr,
            device=args.device, data=args.data, save=args.save, plot=None if args.no_plot else args.plot,
            quiet=args.quiet, seed=args.seed, threads=args.threads,
        )
    except (DemoError, DatasetError) as e:
        raise UsageError(str(e)) from None
    except FloatingPointError as e:
        print(f"funcgrad demo: {e}", file=sys.stderr)
        return 1
    return 0


def _info(args):
    from .info import report  # noqa: PLC0415

    for line in report():
        print(line)
    return 0


def _bench(args):
    from .bench import BenchUnavailable, run_benchmarks  # noqa: PLC0415

    try:
        return run_benchmarks(args.names, list_only=args.list)
    except BenchUnavailable as e:
        raise UsageError(str(e)) from None


COMMANDS = {"demo": _demo, "info": _info, "bench": _bench}


def main(argv=None) -> int:
    """Entry point of the ``funcgrad`` console script; returns the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    command = argv[0] if argv and argv[0] in COMMANDS else None
    prog = f"funcgrad {command}" if command else "funcgrad"
    try:
        args, extra = build_parser().parse_known_args(argv)
        if extra:
            raise UsageError(f"unrecognized arguments: {' '.join(extra)} (see {prog} --help)")
        if args.command is None:
            raise UsageError("choose a command: demo, info or bench (see funcgrad --help)")
        return COMMANDS[args.command](args)
    except UsageError as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `funcgrad info | head`: the reader left; say nothing more
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
