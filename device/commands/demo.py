"""``companion run``, ``companion demo`` and ``companion doctor``.

    companion run [--config PATH] [--host 0.0.0.0] [--port 8080] [--record DIR]   # on a Pi
    companion demo [--host 127.0.0.1] [--port 8080] [--seed 1] [--interval 1.5] [--quiet]
    companion doctor [--config PATH] [--join]   # what `run` needs, how to fix what is missing
"""

from __future__ import annotations

import argparse
import logging
import sys
from typing import Any

from device import config as settings
from device.config import defaults

LOG_FORMAT = "%(levelname)s %(name)s: %(message)s"  # journald adds the time


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    port = defaults()["web"]["port"]
    run = sub.add_parser("run", help="the product on a Raspberry Pi (camera, GPIO, page)",
                         description="The product on a Raspberry Pi: camera, GPIO buttons "
                                     "and LED, voice, the page. Settings: docs/config.md.")
    _config_option(run)
    run.add_argument("--host", help="address to serve the page on (default: [web] host, "
                     f"{defaults()['web']['host']}: every network, so phones can reach it)")
    run.add_argument("--port", type=int,
                     help=f"serve the page on this port (default: [web] port, {port})")
    run.add_argument("--record", metavar="DIR",
                     help="record each game into a folder of its own under DIR, for "
                          "`companion replay` and bug reports (docs/game-folder.md; "
                          "default: [record] settings)")
    run.set_defaults(handler=run_command)

    demo = sub.add_parser("demo", help="the whole product on this machine, with a "
                          "synthetic table camera and a scripted game against Au Toma")
    _config_option(demo)
    demo.add_argument("--host", default="127.0.0.1",
                      help="address to serve on (default 127.0.0.1: this machine only; "
                           "0.0.0.0 lets phones on the network in)")
    demo.add_argument("--port", type=int, help=f"page port (default: [web] port, {port})")
    demo.add_argument("--seed", type=int, default=1, help="the scripted game's seed")
    demo.add_argument("--interval", type=float, default=1.5,
                      help="seconds between the script's moves")
    demo.add_argument("--quiet", action="store_true", help="no voice")
    demo.add_argument("--verbose", action="store_true", help="log every part's messages")
    demo.set_defaults(handler=demo_command)

    doctor = sub.add_parser("doctor", help="check camera, GPIO, model, voice, port and disk",
                            description="Check what `companion run` needs and say how to "
                                        "fix what is missing. Settings: docs/config.md.")
    _config_option(doctor)
    doctor.add_argument("--join", action="store_true",
                        help="also show the running companion's join code as a QR code")
    doctor.set_defaults(handler=doctor_command)


def _config_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="PATH",
                        help="a settings file read after the system and user ones")


def run_command(args: argparse.Namespace) -> int:
    from device.appliance import Appliance  # +0.47 s per start (import_costs.py)

    cfg = run_config(args)
    logging.basicConfig(level=logging.INFO, format=LOG_FORMAT)
    return _run(Appliance(cfg))


def run_config(args: argparse.Namespace) -> settings.Config:
    """`companion run`'s settings: the files, then its options."""
    cfg = settings.load(args.config)
    if args.port is not None:
        cfg = cfg.replace("web", port=args.port)
    if args.host is not None:
        cfg = cfg.replace("web", host=args.host)
    if args.record is not None:
        if not args.record.strip():
            raise ValueError("--record needs a folder")
        cfg = cfg.replace("record", enabled=True, folder=args.record)
    return cfg


def demo_command(args: argparse.Namespace) -> int:
    from device.appliance import Appliance  # +0.47 s per start (import_costs.py)

    if args.interval <= 0:
        raise ValueError("--interval must be more than 0 seconds")
    cfg = settings.load(args.config)
    cfg = cfg.replace("camera", source="synthetic")
    cfg = cfg.replace("web", host=args.host, **({} if args.port is None else {"port": args.port}))
    if args.quiet:
        cfg = cfg.replace("voice", enabled=False)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format=LOG_FORMAT)
    appliance = Appliance(cfg, demo=True, keyboard_fd=_stdin_fd(), seed=args.seed,
                          demo_interval=args.interval)
    return _run(appliance)


def _stdin_fd() -> int | None:
    try:
        return sys.stdin.fileno()
    except (OSError, ValueError):  # no real stdin (a test runner, a pipe closed)
        return None


def _run(appliance: Any) -> int:
    """Run until stopped; a part that cannot start is one line on stderr, status 1."""
    from device.appliance import StartError, run_until_stopped  # +0.47 s (import_costs.py)

    try:
        return run_until_stopped(appliance)
    except StartError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return 1


def doctor_command(args: argparse.Namespace) -> int:
    from device.doctor import FAIL, diagnose, report  # +0.37 s per start (import_costs.py)

    cfg = settings.load(args.config)
    checks = diagnose(cfg)
    print(report(checks))
    if args.join:
        from device.joining import shown

        print(shown(settings.journal_path(cfg).parent))
    return 1 if any(c.status == FAIL for c in checks) else 0
