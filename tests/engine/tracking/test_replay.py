"""Judging a tracked game against the truth: the comparison, and a wrong turn left
standing with no question (what the whole-game benchmark counts as a silent guess)."""

from __future__ import annotations

from dataclasses import replace

from engine.state import GameState
from engine.tracking.replay import Drift, Report, agrees, compare
from engine.tracking.script import write_script


def _truth() -> list[GameState]:
    return write_script(2, seed=2).truth_states()


def _with_helium(state: GameState, seat: int, more: int) -> GameState:
    players = list(state.players)
    players[seat] = replace(players[seat], helium=players[seat].helium + more)
    return replace(state, players=tuple(players))


def test_the_truth_agrees_with_itself_and_is_no_problem() -> None:
    truth = _truth()
    report = Report()
    compare(truth, truth, report)
    assert report.problems == [] and report.truth_scores == report.tracked_scores
    assert all(agrees(state, state) for state in truth[1:])


def test_a_token_off_is_a_state_unlike_the_truths() -> None:
    state = _truth()[40]
    assert not agrees(_with_helium(state, 0, 1), state)


def _drifting(truth: list[GameState], at: int) -> list[GameState]:
    """The truth, but one player has a Helium too many from state ``at`` on."""
    return [*truth[:at], *(_with_helium(s, 0, 1) for s in truth[at:])]


def test_a_wrong_turn_with_no_question_for_two_views_is_silent() -> None:
    truth = _truth()
    tracked = _drifting(truth, 30)
    drift = Drift(truth)
    drift.view(tracked[:29], asking=False)
    assert drift.wrong == [] and drift.silent is None
    drift.view(tracked[:60], asking=False)  # the turns ended since are wrong
    assert drift.wrong and drift.silent is None  # not yet: the next view may ask
    drift.view(tracked[:61], asking=False)
    assert drift.silent == drift.wrong[0]


def test_a_wrong_turn_the_next_view_asks_about_is_not_silent() -> None:
    truth = _truth()
    tracked = _drifting(truth, 30)
    drift = Drift(truth)
    drift.view(tracked[:60], asking=False)
    drift.view(tracked[:61], asking=True)
    drift.view(tracked[:62], asking=False)
    assert drift.wrong and drift.silent is None
