"""How long the history's plots take to draw for a six-player game, in a real browser.

The browser path end to end: six-player games simulated into a journal (``companion
simulate --journal``), a Service and the Flask app behind waitress (web.Server), and
Debian's chromium opening ``/games#game-N`` at 360 px as a phone. The page draws each
plot itself (web/static/plots.js) and stamps the figure with its own time: building
the SVG and its table of numbers, and laying them out (the layout the page had pending
before is settled first, so it is not counted). Each game is opened ``--loads`` times in
a fresh tab: "first draw" is the plots as the page opens (cold: the script's first run);
then the page draws them again ``--redraws`` times (``window.Games.redraw()``, the same
code): "redraw". ``--throttle`` slows chromium's CPU by that factor (DevTools' CPU
throttling) for a slower phone's view. The figures are wall-clock times in a browser, so
a busy machine's stalls show in the tail: the load average is printed with them.

Target (issue 35): each plot under 50 ms for a six-player game.

Reproduce (from the repository root)::

    nice -n 10 .venv/bin/python benchmarks/history_plots.py --games 3 --loads 10
    nice -n 10 .venv/bin/python benchmarks/history_plots.py --games 3 --loads 10 --throttle 4
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from device.cli import main as companion
from device.journal import Journal
from device.service import Service
from web import Server, create_app

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PLOTS = ("Helium by round", "Influence by round", "Fleet by round", "Score split")
TARGET_MS = 50.0


Times = dict[str, dict[str, list[float]]]  # "first draw"/"redraw" -> plot -> ms


def draw_times(url: str, args: argparse.Namespace) -> Times:
    """Each plot's draw times (ms): as every game opens, ``loads`` times, and redrawn."""
    from playwright.sync_api import sync_playwright

    times: Times = {kind: {name: [] for name in PLOTS} for kind in ("first draw", "redraw")}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        context = browser.new_context(viewport={"width": 360, "height": 800},
                                      device_scale_factor=2, is_mobile=True, has_touch=True)
        for game in range(1, args.games + 1):
            for _ in range(args.loads):
                runs = _open(context, url, game, args)
                for kind, run in zip(("first draw", *["redraw"] * args.redraws), runs,
                                     strict=True):
                    for name, ms in zip(PLOTS, run, strict=True):
                        times[kind][name].append(ms)
        browser.close()
    return times


def _open(context: Any, url: str, game: int, args: argparse.Namespace) -> list[list[float]]:
    page = context.new_page()
    if args.throttle > 1:
        session = context.new_cdp_session(page)
        session.send("Emulation.setCPUThrottlingRate", {"rate": args.throttle})
    page.goto(f"{url}/games#game-{game}")
    page.wait_for_selector(f"body[data-ready='game-{game}']", timeout=30_000)
    runs = [page.evaluate(
        "[...document.querySelectorAll('figure.plot')].map((f) => Number(f.dataset.drawMs))")]
    runs += [page.evaluate("window.Games.redraw()") for _ in range(args.redraws)]
    page.close()
    return [[float(ms) for ms in run] for run in runs]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="six-player games to open")
    parser.add_argument("--loads", type=int, default=10, help="times each game is opened")
    parser.add_argument("--redraws", type=int, default=5,
                        help="times the plots are drawn again after each opening")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--throttle", type=float, default=1.0,
                        help="slow chromium's CPU by this factor (1: not at all)")
    args = parser.parse_args()
    if not CHROMIUM.exists():
        print(f"needs Debian's chromium at {CHROMIUM}", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="history-") as tmp:
        path = Path(tmp) / "games.sqlite3"
        with contextlib.redirect_stdout(io.StringIO()):  # simulate's statistics: not ours
            status = companion(["simulate", "--players", "6", "--games", str(args.games),
                                "--seed", str(args.seed), "--journal", str(path)])
        if status != 0:
            return 1
        service = Service(rng=random.Random(1), journal=Journal(path))
        service.start()
        try:
            with Server(create_app({"TABLE_PIN": "2468"}, service=service)) as server:
                times = draw_times(server.url, args)
        finally:
            service.stop()
    report(times, args)
    medians = [statistics.median(v) for kind in times.values() for v in kind.values()]
    return 0 if max(medians) < TARGET_MS else 1


def report(times: Times, args: argparse.Namespace) -> None:
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"six-player games: {args.games}, each opened {args.loads} times at 360 px and "
          f"redrawn {args.redraws} times; CPU throttle {args.throttle:g}x; "
          f"load average {load} on {os.cpu_count()} cores")
    print(f"{'':<11}{'plot':<20} {'median ms':>9} {'p95 ms':>7} {'max ms':>7}")
    for kind, plots in times.items():
        for name, values in plots.items():
            ordered = sorted(values)
            p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
            print(f"{kind:<11}{name:<20} {statistics.median(values):>9.1f} {p95:>7.1f} "
                  f"{max(values):>7.1f}")
    worst = max(statistics.median(v) for kind in times.values() for v in kind.values())
    print(f"slowest plot's median: {worst:.1f} ms (target < {TARGET_MS:.0f} ms): "
          f"{'met' if worst < TARGET_MS else 'NOT met'}")


if __name__ == "__main__":
    sys.exit(main())
