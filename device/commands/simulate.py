"""``companion simulate``: whole games played by bots, with statistics.

    companion simulate --players 4 --games 100 --seed 1 [--bot random|greedy] [--json]
    companion simulate --automa 2 --games 50 --seed 1      # solo games against Au Toma
    companion simulate --games 1 --seed 7 --log game.jsonl  # the event log, one JSON per line
    companion simulate --players 3 --games 5 --seed 1 --journal games.sqlite3
                                    # kept as finished games (companion games, the page)
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from device.cli import UsageError
from vision.progress import Progress


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("simulate", help="play whole games with bots and print statistics")
    p.add_argument("--players", type=int, default=4, help="seats, 2–6 (default 4)")
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--bot", choices=("random", "greedy"), default="random")
    p.add_argument("--automa", type=int, metavar="LEVEL",
                   help="solo games: one bot against Au Toma at this level (1–6)")
    p.add_argument("--json", action="store_true", help="print the statistics as JSON")
    p.add_argument("--log", metavar="FILE", help="write every game's event log (JSON lines)")
    p.add_argument("--journal", metavar="FILE",
                   help="keep the games in this journal as finished games, as the companion "
                        "keeps the games it follows (see companion games)")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from engine.simulate import simulate, summary  # +0.16 s per start (import_costs.py)

    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if args.automa is None and not 2 <= args.players <= 6:
        raise UsageError("--players must be 2 to 6 (use --automa LEVEL for a solo game)")
    setup = _solo_setup(args.automa) if args.automa is not None else None
    with Progress("simulate", quiet=args.quiet) as progress:
        progress.stage("games", args.games)
        results = simulate(args.players, args.games, args.seed, args.bot, setup=setup,
                           on_game=progress.tick)
    stats = summary(results)
    if args.automa is not None:
        stats.update(_solo_stats(results, args.automa))
    if args.log:
        _write_log(args.log, results)
    if args.journal:
        _write_journal(args.journal, results)
    if args.json:
        print(json.dumps(stats, sort_keys=True))
    else:
        _print_human(stats)
        if args.journal:
            print(f"kept as finished games in {args.journal} (companion games list)")
    return 0


def _solo_setup(level: int) -> Any:
    if not 1 <= level <= 6:
        raise UsageError("--automa LEVEL must be 1 to 6")
    from engine.automa import new_solo_game  # +0.10 s per start (import_costs.py)

    return lambda rng: new_solo_game("You", rng, level=level)


def _solo_stats(results: list[Any], level: int) -> dict[str, Any]:
    """Au Toma's average score at this level, and the bot's win rate against her."""
    automa_scores = [r.totals[r.names.index("Au Toma")] for r in results]
    bot_wins = sum(1 for r in results if "You" in r.winners)
    return {
        "automa_level": level,
        "automa_score_mean": round(sum(automa_scores) / len(results), 2),
        "bot_win_rate": round(bot_wins / len(results), 3),
    }


def _write_log(path: str, results: list[Any]) -> None:
    from engine.events import to_dict  # +0.03 s per start (import_costs.py)

    with open(path, "w", encoding="utf-8") as out:
        for r in results:
            for event in r.log:
                out.write(json.dumps({"game": r.index, **to_dict(event)}, sort_keys=True))
                out.write("\n")


def _write_journal(path: str, results: list[Any]) -> None:
    """Each game as the companion archives a finished one: its log, end position, scores.

    :raises UsageError: when a companion holds the journal, or it has a game in play
        (the first simulated game would set it aside as abandoned).
    """
    from device.journal import Journal, JournalBusy, JournalLock
    from engine.history import archived_scores

    try:
        lock = JournalLock(path)
    except JournalBusy as exc:
        raise UsageError(str(exc)) from None
    try:
        journal = Journal(path)
        try:
            if any(game.status == "playing" for game in journal.archive()):
                raise UsageError(f"the journal {path} holds a game in play: finish it first, "
                                 "or name another file")
            for r in results:
                journal.begin(r.log, r.names)
                journal.sync(r.log, r.final, archived_scores(r.names, r.totals, r.winners))
        finally:
            journal.close()
    finally:
        lock.release()


def _print_human(stats: dict[str, Any]) -> None:
    out = sys.stdout
    out.write(f"games: {stats['games']}\n")
    out.write(f"turns per game: mean {stats['turns_mean']}, "
              f"min {stats['turns_min']}, max {stats['turns_max']}\n")
    out.write(f"events per game: mean {stats['events_mean']}\n")
    out.write("end triggered by: " + ", ".join(
        f"{k} ×{v}" for k, v in stats["trigger"].items()) + "\n")
    out.write("mean score by seat: " + ", ".join(map(str, stats["score_mean"])) + "\n")
    out.write(f"best score: {stats['score_max']}\n")
    out.write("wins: " + ", ".join(f"{k} {v}" for k, v in stats["wins"].items()) + "\n")
    if "automa_level" in stats:
        out.write(f"Au Toma level {stats['automa_level']}: mean score "
                  f"{stats['automa_score_mean']}; bot win rate {stats['bot_win_rate']}\n")
