"""The ``companion`` command.

Each command group lives in its own module under :mod:`device.commands` and exposes
``register(subparsers)``. Heavy imports (OpenCV, onnxruntime, Flask) happen inside
the handlers, so ``companion score`` starts in a fraction of a second: ``companion --help``
costs 0.10 s of CPU, and the figure beside each such import is what it would add to
every command's start (``benchmarks/import_costs.py``).

Exit status: 0 on success, 2 for bad input (one clear line on stderr), 1 otherwise.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# Order here is the order ``companion --help`` lists the groups.
COMMAND_MODULES = (
    "device.commands.demo",
    "device.commands.score",
    "device.commands.automa",
    "device.commands.simulate",
    "device.commands.games",
    "device.commands.cards",
    "device.commands.table",
    "device.commands.replay",
    "device.commands.config",
)


class UsageError(ValueError):
    """Bad input from the command line or an input file: exit status 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion", description="Red Rising table companion.",
        epilog="File formats and settings: docs/README.md; an input for every command: "
               "examples/README.md.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except ValueError as exc:  # UsageError and the engine's IllegalActionError included
        print(f"companion {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
