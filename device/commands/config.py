"""``companion config show``: the merged settings, and the files they came from.

    companion config show [--config PATH]
"""

from __future__ import annotations

import argparse

from device import config as settings


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("config", help="show the settings in use",
                            description="The settings in use. Every key, its default and "
                                        "its meaning: docs/config.md.")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    show = actions.add_parser("show", help="print the merged settings as TOML")
    show.add_argument("--config", metavar="PATH",
                      help="a settings file read after the system and user ones")
    show.set_defaults(handler=show_command)


def show_command(args: argparse.Namespace) -> int:
    print(settings.load(args.config).to_toml(), end="")
    return 0
