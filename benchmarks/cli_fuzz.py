"""Fuzz every ``companion`` command that reads a file: no tracebacks, no wrong statuses.

Each command gets ``--count`` random inputs from the generators the property tests use
(``tests/device/fuzzkit.py``): random JSON, valid documents with parts replaced,
deleted or added, nesting up to 100,000 levels, huge numbers, NaN and Infinity, lone
surrogates, binary and non-UTF-8 bytes; random, truncated and bomb-header bytes for
the image commands. ``main(argv)`` runs in this process. A reply is right when it is a
success (status 0, nothing on stderr) or a refusal (status 2, exactly one line on
stderr, nothing on stdout). Prints per command: count, answered, refused, tracebacks,
wrong statuses; exits 1 if any traceback or wrong status was seen.

    nice -n 10 .venv/bin/python benchmarks/cli_fuzz.py --count 1000
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "device"))

from fuzzkit import (  # noqa: E402
    DECK,
    GAME,
    STATE,
    Reply,
    documents,
    image_bytes,
    run,
    settings_files,
    write,
)
from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@dataclass
class Tally:
    command: str
    count: int = 0
    answered: int = 0
    refused: int = 0
    tracebacks: int = 0
    wrong: int = 0
    examples: list[str] = field(default_factory=list)

    def add(self, reply: Reply, argv: list[str]) -> None:
        self.count += 1
        if reply.status is None:
            self.tracebacks += 1
            self.examples.append(f"traceback {reply.error} for {argv}")
        elif reply.is_success:
            self.answered += 1
        elif reply.is_refusal:
            self.refused += 1
        else:
            self.wrong += 1
            self.examples.append(f"status {reply.status}, stderr {reply.err[:200]!r}")


def fuzz(name: str, strategy: st.SearchStrategy[Any],
         argv_for: Callable[[Any], list[str]], count: int) -> Tally:
    tally = Tally(name)

    @settings(max_examples=count, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(value=strategy)
    def one(value: Any) -> None:
        argv = argv_for(value)
        tally.add(run(argv), argv)

    one()
    return tally


def plans(folder: Path) -> dict[str, tuple[st.SearchStrategy[Any], Callable[[Any], list[str]]]]:
    """Per command: what to generate, and the command line for one generated input."""
    import cv2
    import numpy as np

    image = np.full((120, 90, 3), 200, np.uint8)
    cv2.rectangle(image, (10, 10), (80, 110), (20, 40, 160), -1)
    jpeg = bytes(cv2.imencode(".jpg", image)[1])
    enroll = folder / "enroll"
    enroll.mkdir()

    def file(name: str) -> Callable[[Any], str]:
        return lambda content: str(write(folder / name, content))

    game, state, deck = file("game.json"), file("state.json"), file("deck.json")
    toml, picture = file("settings.toml"), file("image.jpg")
    return {
        "score": (documents(GAME), lambda d: ["score", game(d), "--json"]),
        "score --resolve": (documents(GAME), lambda d: ["score", game(d), "--resolve"]),
        "automa resolve": (st.tuples(documents(STATE), st.sampled_from(["1", "9", "22", "0"])),
                           lambda d: ["automa", "resolve", "--state", state(d[0]),
                                      "--card", d[1]]),
        "automa deck": (documents(DECK), lambda d: ["automa", "deck", "--deck", deck(d)]),
        "config show": (settings_files(), lambda d: ["config", "show", "--config", toml(d)]),
        "cards identify": (image_bytes(jpeg), lambda d: ["cards", "identify", picture(d)]),
        "table scan": (image_bytes(jpeg), lambda d: ["table", "scan", picture(d), "--json"]),
        "cards enroll": (image_bytes(jpeg),
                         lambda d: ["cards", "enroll", "--images",
                                    str(write(enroll / "virga.jpg", d).parent),
                                    "--out", str(folder / "mine.onnx")]),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000, help="inputs per command")
    parser.add_argument("--only", help="one command, e.g. 'score'")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="companion-cli-fuzz-") as tmp:
        folder = Path(tmp)
        os.environ["XDG_CONFIG_HOME"] = str(folder / "xdg")  # this machine's settings out
        import device.config

        device.config.SYSTEM_PATH = folder / "no-system.toml"
        failed = False
        print(f"{'command':<16}{'count':>7}{'answered':>10}{'refused':>9}{'tracebacks':>12}"
              f"{'wrong status':>14}{'seconds':>9}")
        for name, (strategy, argv_for) in plans(folder).items():
            if args.only and name != args.only:
                continue
            start = time.perf_counter()
            t = fuzz(name, strategy, argv_for, args.count)
            print(f"{name:<16}{t.count:>7}{t.answered:>10}{t.refused:>9}{t.tracebacks:>12}"
                  f"{t.wrong:>14}{time.perf_counter() - start:>9.1f}", flush=True)
            for example in t.examples[:3]:
                print(f"    {example}")
            failed |= bool(t.tracebacks or t.wrong)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
