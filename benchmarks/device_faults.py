"""Faults the journal must survive: SIGKILLs, a second companion, damaged files.

1. ``--kills`` times: a journaled service (``tests/device/crash_child.py``) plays a seeded
   game; it is SIGKILLed after a random acknowledged event plus a random 0-3 ms; a new
   process rebuilds the game from the journal. Identical means: nothing acknowledged
   lost, the journal ends on a command boundary, and position and log equal the same
   seeded game played in this process.
2. Two real ``companion run`` processes on one journal: the second must be refused with
   one line naming the first; after the first is SIGKILLed a third must start.
3. ``--damaged`` damaged journals (empty, not SQLite, truncated, random bytes at random
   offsets; ``tests/device/journalkit.py``): a real ``companion run`` must start on each,
   and every row on a page the damage left untouched ("readable") must be in the
   journal afterwards ("kept"; rows read from damaged pages are a bonus, and must equal
   what was written, else they count as "wrong").
4. ``--big`` games: a journal that many finished games long (copies of one), the time
   the start-up integrity check adds to opening it, and the time a salvage of the whole
   file takes (the work a damaged journal of that size costs at start).
5. ``--full`` seconds of a full disk: ``companion demo``'s appliance plays its scripted
   game (a move every ``--gap`` seconds) with its journal on a 32 MB tmpfs of its own
   (``tests/device/storage_child.py``, in a mount namespace: needs root or user
   namespaces); the tmpfs is filled to the last byte for that long, then freed. Counted:
   what the page, the voice and the LED were told, the tracebacks and lines in the log,
   and the events acknowledged against the events in the journal afterwards.
   ``--code DIR`` runs the same child against another copy of the code (an export of an
   older commit) to measure it before a change.

    nice -n 10 .venv/bin/python benchmarks/device_faults.py --kills 100 --damaged 20
    nice -n 10 .venv/bin/python benchmarks/device_faults.py --kills 0 --damaged 0 --big 500
    nice -n 10 .venv/bin/python benchmarks/device_faults.py --kills 0 --damaged 0 --full 60
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "device"))

from devkit import policy, two_player_setup  # noqa: E402
from journalkit import build, damage, readable, rows, standard_damages  # noqa: E402
from runkit import companion_run, read_until, stop  # noqa: E402

from device.journal import Journal  # noqa: E402
from engine.game import Game  # noqa: E402

CHILD = ROOT / "tests" / "device" / "crash_child.py"
SEED = 11


# ---- 1. SIGKILL at random points ------------------------------------------------------

def seeded_game() -> Game:
    game = Game(rng=random.Random(SEED))
    game.play(two_player_setup())
    while not game.is_over:
        game.play(policy(game))  # type: ignore[arg-type]
    return game


def child(journal: Path, mode: str) -> subprocess.Popen[str]:
    import os

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, str(CHILD), str(journal), str(SEED), mode],
                            stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT)


def one_kill(folder: Path, kill_after: int, delay: float, whole: Game) -> tuple[bool, str]:
    journal = folder / "journal.sqlite3"
    playing = child(journal, "play")
    assert playing.stdout is not None
    acknowledged = 0
    for line in playing.stdout:
        if line.startswith("event "):
            acknowledged = int(line.split()[1])
            if acknowledged >= kill_after:
                break
    time.sleep(delay)  # lands the kill anywhere in the next command
    playing.send_signal(signal.SIGKILL)
    playing.wait(10)
    playing.stdout.close()
    restarted = child(journal, "check")
    out, _ = restarted.communicate(timeout=120)
    _, length, fen = out.splitlines()[0].split(" ", 2)
    rebuilt = int(length)
    expected = Game(rng=random.Random(SEED))
    for event in whole.log[:rebuilt]:
        expected.push(event)
    reader = Journal(journal)
    stored = reader.events()
    reader.close()
    same = (rebuilt >= acknowledged and fen == expected.state.fen()
            and stored == list(whole.log[:rebuilt]))
    return same, f"acknowledged {acknowledged}, rebuilt {rebuilt}"


def kills(count: int, seed: int) -> None:
    whole = seeded_game()
    rng = random.Random(seed)
    identical, start = 0, time.perf_counter()
    for n in range(count):
        with tempfile.TemporaryDirectory(prefix="companion-kill-") as tmp:
            kill_after = rng.randrange(1, len(whole.log) - 1)
            same, detail = one_kill(Path(tmp), kill_after, rng.uniform(0, 0.003), whole)
        identical += same
        if not same:
            print(f"  kill {n + 1} after event {kill_after}: NOT identical ({detail})")
    print(f"SIGKILL at random points: {identical}/{count} restarts identical "
          f"(game of {len(whole.log)} events; {time.perf_counter() - start:.0f} s)")


# ---- 2. two companions on one journal ---------------------------------------------------

def two_instances() -> None:
    with tempfile.TemporaryDirectory(prefix="companion-two-") as tmp:
        folder = Path(tmp)
        journal = folder / "journal.sqlite3"
        first = companion_run(folder, journal)
        try:
            read_until(first, "page on")
            second = companion_run(folder, journal)
            _, err = second.communicate(timeout=120)
        finally:
            stop(first, signal.SIGKILL)
        third = companion_run(folder, journal)
        try:
            read_until(third, "page on")
            started = True
        finally:
            stop(third)
    refused = second.returncode != 0 and len(err.splitlines()) == 1 and \
        f"PID {first.pid}" in err
    print(f"two companions on one journal: the second {'refused' if refused else 'NOT refused'}"
          f" (status {second.returncode}): {err.strip()}")
    print(f"  after the first was SIGKILLed a third {'started' if started else 'did NOT start'}")


# ---- 3. damaged journals ----------------------------------------------------------------

def damaged(count: int, seed: int) -> None:
    with tempfile.TemporaryDirectory(prefix="companion-damaged-") as tmp:
        folder = Path(tmp)
        pristine = folder / "pristine.sqlite3"
        build(pristine, games=4, last=60)
        truth = rows(pristine)
        print(f"damaged journals (copies of one journal of {len(truth[0])} games and "
              f"{len(truth[1])} events; games g, events e):")
        print(f"  {'damage':<38}{'started':>8}{'readable':>14}{'kept':>14}{'lost':>6}"
              f"{'wrong':>7}")
        started_all = lost_all = wrong_all = 0
        for n, how in enumerate(standard_damages(count, seed)):
            case = folder / f"case{n}"
            case.mkdir()
            journal = case / "journal.sqlite3"
            shutil.copyfile(pristine, journal)
            before = damage(journal, how)
            want = readable(before, journal.read_bytes(), truth)
            started = _starts(case, journal)
            got = rows(journal)
            lost = sum(got[1].get(k) != v for k, v in want[1].items()) + \
                sum(k not in got[0] for k in want[0])
            recovered = _recovered(case)
            wrong = sum(truth[1].get(k) != v for k, v in got[1].items()
                        if k in want[1] or recovered)
            wrong += sum(_facts(truth[0][k]) != _facts(row) for k, row in got[0].items()
                         if k in truth[0] and row[1] != "" and (k in want[0] or recovered))
            started_all += started
            lost_all += lost
            wrong_all += wrong
            kept = len(got[0].keys() & truth[0].keys())  # not the fresh game a start adds
            print(f"  {how.name:<38}{'yes' if started else 'NO':>8}"
                  f"{len(want[0]):>5} g {len(want[1]):>4} e{kept:>5} g {len(got[1]):>4} e"
                  f"{lost:>6}{wrong:>7}{'' if recovered else '  (SQLite saw no damage)'}")
        print(f"  the appliance started {started_all}/{count} times; readable rows lost: "
              f"{lost_all}; recovered rows that differ from what was written: {wrong_all}")


def _starts(folder: Path, journal: Path) -> bool:
    process = companion_run(folder, journal)
    try:
        read_until(process, "page on")
        return True
    except AssertionError:
        return False
    finally:
        stop(process)


def _facts(row: tuple[object, ...]) -> tuple[object, ...]:
    """A game row without its status and end time (a recovery may set a game aside);
    a row whose start is "" stands in for one that was lost (its events were read)."""
    return (row[0], row[1], *row[4:])


def _recovered(folder: Path) -> bool:
    return any(folder.glob("journal.sqlite3.damaged-*"))


# ---- 4. a long journal -------------------------------------------------------------------

def big(games: int) -> None:
    from device import journal as journal_module
    from device.salvage import salvage

    with tempfile.TemporaryDirectory(prefix="companion-big-") as tmp:
        path = Path(tmp) / "journal.sqlite3"
        build(path, games=2, last=0)
        _copy_games(path, games)
        opened = _best_of(3, lambda: Journal(path).close())
        check = journal_module.check
        journal_module.check = lambda _: None  # the same open without the check
        try:
            unchecked = _best_of(3, lambda: Journal(path).close())
        finally:
            journal_module.check = check
        start = time.perf_counter()
        found = salvage(path)
        took = time.perf_counter() - start
        print(f"a journal of {len(found.games)} games, {len(found.events)} events, "
              f"{path.stat().st_size / 1e6:.1f} MB: opening it takes {opened * 1000:.0f} ms "
              f"with the integrity check, {unchecked * 1000:.0f} ms without; salvaging "
              f"every row of it takes {took:.2f} s")


def _copy_games(path: Path, games: int) -> None:
    """Fill the journal with copies of its first (finished) game."""
    import sqlite3

    db = sqlite3.connect(path)
    row = db.execute("SELECT started, finished, status, players, final, scores FROM games "
                     "WHERE id = 1").fetchone()
    log = db.execute("SELECT seq, event FROM events WHERE game = 1").fetchall()
    with db:
        for game in range(3, games + 1):
            db.execute("INSERT INTO games (id, started, finished, status, players, final, "
                       "scores) VALUES (?, ?, ?, ?, ?, ?, ?)", (game, *row))
            db.executemany("INSERT INTO events VALUES (?, ?, ?)",
                           [(game, seq, text) for seq, text in log])
    db.close()


def _best_of(runs: int, work: object) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        work()  # type: ignore[operator]
        best = min(best, time.perf_counter() - start)
    return best


# ---- 5. a full disk ----------------------------------------------------------------------

def full_disk(seconds: float, gap: float, code: Path) -> None:
    from test_storage import in_small_filesystem, mountable

    with tempfile.TemporaryDirectory(prefix="companion-full-") as tmp:
        folder = Path(tmp)
        why = mountable(folder)
        if why:
            print(f"a full disk: not measured, cannot mount a small filesystem here: {why}")
            return
        child = ROOT / "tests" / "device" / "storage_child.py"
        env = {**os.environ, "PYTHONPATH": str(code)}
        done = subprocess.run(in_small_filesystem(folder, "32m", sys.executable, str(child),
                                                  str(folder), "demo", str(seconds), str(gap)),
                              capture_output=True, text=True, timeout=seconds + 300,
                              check=False, env=env, cwd=code)
    if done.returncode != 0:
        print(f"a full disk: the child failed (status {done.returncode}):\n{done.stderr}")
        return
    found = json.loads(done.stdout.splitlines()[-1])
    log = done.stderr.splitlines()
    tracebacks = done.stderr.count("Traceback (most recent call last)")
    print(f"a full disk for {seconds:.0f} s of `companion demo` (a move every {gap} s), then "
          f"freed ({'' if code == ROOT else f'code in {code}; '}{found['games']} game(s)):")
    print(f"  told: {len(found['failed'])} failure notice(s), {len(found['saved'])} "
          f"saved-again notice(s); page banner(s): {len(found['page_banners'])}, page "
          f"notices: {len(found['page_notices'])}; spoken: {len(found['spoken'])}; LED "
          f"to fast blink: {found['led_errors']} time(s)")
    for text in found["failed"] + found["saved"]:
        print(f"    \"{text}\"")
    print(f"  log: {len(log)} line(s), {tracebacks} traceback(s)")
    for line in log[:4]:
        print(f"    {line[:150]}")
    print(f"  events: {found['moves_played']} acknowledged by the time it was freed; "
          f"{found['acknowledged']} acknowledged in all, {found['in_journal']} in the journal "
          f"afterwards ({found['acknowledged'] - found['in_journal']} missing); backlog "
          f"written {'' if found['backlog_saved'] else 'NOT '}within 30 s of freeing "
          f"({found['saved_after']} s)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--damaged", type=int, default=20)
    parser.add_argument("--big", type=int, default=0, help="games in a long journal")
    parser.add_argument("--full", type=float, default=0, help="seconds of a full disk")
    parser.add_argument("--gap", type=float, default=0.25,
                        help="seconds between the demo's moves (--full)")
    parser.add_argument("--code", type=Path, default=ROOT,
                        help="the code the --full child runs (default: this checkout)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.kills:
        kills(args.kills, args.seed)
    if args.kills or args.damaged:
        two_instances()
    if args.damaged:
        damaged(args.damaged, args.seed)
    if args.big:
        big(args.big)
    if args.full:
        full_disk(args.full, args.gap, args.code.resolve())
    return 0


if __name__ == "__main__":
    sys.exit(main())
