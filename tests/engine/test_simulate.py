"""Simulated games: deterministic from a seed, statistics that add up."""

from __future__ import annotations

import json

from engine.events import to_dict
from engine.simulate import simulate, summary


def log_text(seed: int) -> str:
    results = simulate(players=4, games=2, seed=seed)
    return "\n".join(json.dumps(to_dict(e), sort_keys=True) for r in results for e in r.log)


def test_same_seed_gives_a_byte_identical_event_log() -> None:
    assert log_text(11) == log_text(11)
    assert log_text(11) != log_text(12)


def test_every_game_ends_with_a_trigger_and_scores() -> None:
    results = simulate(players=3, games=5, seed=3)
    for r in results:
        assert r.trigger_player is not None and len(r.trigger_conditions) >= 2
        assert len(r.totals) == 3 and r.winners
        assert max(r.totals) == r.totals[r.names.index(r.winners[0])]


def test_summary_counts_games_and_triggers() -> None:
    results = simulate(players=2, games=4, seed=8, bot="greedy")
    stats = summary(results)
    assert stats["games"] == 4
    assert sum(stats["trigger"].values()) == 4
    assert stats["turns_min"] <= stats["turns_mean"] <= stats["turns_max"]
