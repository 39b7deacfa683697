"""A card put down where the camera cannot read, then covered at once: tracked or not.

In a living room a hand often hides a stack just as a card is put there (the die's
Reveal, a Scout, an ability's Place) and the next player deploys on it before the camera
reads the stack again: the first view to read it shows it two cards deeper under a card
nobody saw put down. This benchmark finds every such Place in scripted games (a Place
whose location next sees a deploy), hides that location for the Place's moment and the
one, two or three moments before it (a hand there since before the roll), and
replays each game through the tracker (`engine.tracking.replay.replay_script`: the
tracker `companion replay` runs, a perfect camera elsewhere, the truth answering for
the table).

Reported per kind (solo, Au Toma's variant, 2-6 players): cases tracked to the right
scores, cases where a turn ended wrong with no question before the next view (Drift), and
the questions beyond what the same game asks with nothing hidden.

    nice .venv/bin/python benchmarks/covered_places.py --games 4 --per-game 3
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from engine.events import Lead, Place
from engine.tracking.follow import Follow
from engine.tracking.replay import Drift, Report, hiding, perfect_camera, replay_script
from engine.tracking.script import Moment, Script, write_script

KINDS = ("solo", "variant", "2", "3", "4", "5", "6")
BACKS = (0, 1, 2, 3)  # moments hidden before the Place's own


def script_for(kind: str, seed: int) -> Script:
    if kind in ("solo", "variant"):
        return write_script(seed=seed, automa_level=2, automa_variant=kind == "variant")
    return write_script(int(kind), seed=seed)


def cases(script: Script, limit: int) -> list[tuple[Place, int]]:
    """Up to ``limit`` Places a deploy to the same location follows at once, with the
    moment that shows the Place (spread over the game: every n-th)."""
    found = []
    truth = script.truth
    for k, moment in enumerate(script.moments):
        i = moment.truth_len - 1
        place = truth[i]
        if moment.layout is None or k < 4 or not isinstance(place, Place):
            continue
        # the next event at that location, within a few (Au Toma's steps elsewhere, a
        # token, come between in a solo game): a deploy there
        nxt = next((e for e in truth[i + 1:i + 5]
                    if getattr(e, "location", None) is place.location), None)
        if isinstance(nxt, Lead):
            found.append((place, k))
    step = max(1, len(found) // limit) if limit else 1
    return found[::step][:limit]


def replay(script: Script, place: Place, k: int, back: int) -> tuple[Report, Drift]:
    drift, asked = Drift(script.truth_states()), [0]

    def watch(_k: int, _moment: Moment, view: object, follow: Follow) -> None:
        if view is not None:
            drift.view(follow.game.states, follow.questions > asked[0])
            asked[0] = follow.questions

    camera = hiding(perfect_camera, [(place.location, k - back, back + 1)])
    return replay_script(script, camera, watch=watch), drift


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4, help="games per kind")
    parser.add_argument("--per-game", type=int, default=3, help="Places tried per game")
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    parser.add_argument("--kinds", default=",".join(KINDS))
    args = parser.parse_args()
    started = time.process_time()
    totals: Counter[str] = Counter()
    for kind in args.kinds.split(","):
        tally: Counter[str] = Counter()
        for seed in range(args.seed, args.seed + args.games):
            script = script_for(kind, seed)
            plain = replay_script(script)
            if not plain.matches:
                tally["untracked with nothing hidden (skipped)"] += 1
                continue
            for place, k in cases(script, args.per_game):
                for back in BACKS:
                    report, drift = replay(script, place, k, back)
                    tally["cases"] += 1
                    tally["tracked"] += report.matches
                    tally["silent"] += drift.silent is not None
                    extra = Counter(report.question_kinds) - Counter(plain.question_kinds)
                    tally["extra questions"] += sum(extra.values())
        totals.update(tally)
        print(line(kind, tally), flush=True)
    print(line("all", totals))
    print(f"CPU {time.process_time() - started:.0f} s")


def line(kind: str, tally: Counter[str]) -> str:
    n = tally["cases"]
    skipped = tally["untracked with nothing hidden (skipped)"]
    per = tally["extra questions"] / n if n else 0.0
    return (f"{kind:>7}: tracked {tally['tracked']}/{n}, a wrong turn unasked in "
            f"{tally['silent']}, {per:.2f} extra questions a case"
            + (f"; {skipped} games skipped (not tracked with nothing hidden)" if skipped else ""))


if __name__ == "__main__":
    main()
