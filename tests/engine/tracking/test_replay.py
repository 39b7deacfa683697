"""Judging a tracked game against the truth: the comparison, and a wrong turn left
standing with no question (what the whole-game benchmark counts as a silent guess)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine.board import LOCATIONS, Location
from engine.events import Event, Lead
from engine.game import Game
from engine.state import GameState
from engine.tracking import COVERED_CARD, LOCATION, TableView, Tracker, Unread
from engine.tracking.follow import Follow
from engine.tracking.replay import (
    Drift,
    Report,
    _settle,
    agrees,
    compare,
    hiding,
    perfect_camera,
    random_stretches,
    replay_script,
    turn_rows,
)
from engine.tracking.script import Moment, Oracle, Script, TakeBack, write_script
from engine.wording import event_text


def _truth() -> list[GameState]:
    return write_script(2, seed=2).truth_states()


def _with_helium(state: GameState, seat: int, more: int) -> GameState:
    players = list(state.players)
    players[seat] = replace(players[seat], helium=players[seat].helium + more)
    return replace(state, players=tuple(players))


def _with_influence(state: GameState, seat: int, more: int) -> GameState:
    players = list(state.players)
    players[seat] = replace(players[seat], influence=players[seat].influence + more)
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


# --- replaying a scripted game -----------------------------------------------------------


def test_a_report_counts_the_games_turns_moves_and_questions() -> None:
    script = write_script(2, seed=2)
    follows: list[Follow] = []
    report = replay_script(script, watch=lambda k, moment, view, follow: follows.append(follow))
    follow = follows[-1]
    last = script.truth_states()[-1]  # this game's last event ends its last turn
    assert report.matches and report.turns == len(report.truth_turns) == sum(
        p.turns for p in last.players)
    # Moves are the events people played: the log less its setup and the die.
    assert report.moves == len(follow.game.log) - follow.count("setup") - follow.count("chance")
    assert report.asked >= 1 and report.table >= 1 and report.inferred > report.moves / 2
    assert report.questions == sum(report.question_kinds.values()) == 1


def test_the_tracker_given_follows_the_table_and_the_watch_sees_every_moment() -> None:
    script = write_script(2, seed=2)
    tracker = Tracker()
    seen: list[tuple[int, Moment, TableView | None, bool]] = []
    replay_script(script, tracker=tracker, watch=lambda k, moment, view, follow: seen.append(
        (k, moment, view, follow.tracker is tracker)))
    assert seen == [(k, moment, perfect_camera(moment), True)
                    for k, moment in enumerate(script.moments)]


def test_a_replay_is_timed_by_the_clock_given() -> None:
    ticks = iter([10.0, 12.5])
    assert replay_script(write_script(2, seed=2), clock=lambda: next(ticks)).seconds == 2.5


@pytest.mark.parametrize("moments", [0, 1])
def test_a_recording_cut_short_reports_a_game_that_did_not_end(moments: int) -> None:
    script = write_script(2, seed=2)
    report = replay_script(replace(script, moments=script.moments[:moments]))
    assert report.problems[0].startswith("the tracked game did not end")


def test_a_location_still_unread_when_the_moments_run_out_is_asked_about() -> None:
    """The table waits at the end: the location goes overdue and the table tells it."""
    script = write_script(2, seed=2)
    last = len(script.moments)
    report = replay_script(script, hiding(perfect_camera, [(Location.MARS, last - 2, 2)]))
    assert report.matches
    assert report.question_kinds == {COVERED_CARD: 1, LOCATION: 1}


def test_a_hidden_location_goes_overdue_from_its_overdue_after_th_view() -> None:
    moments = [m for m in write_script(2, seed=2).moments if m.layout is not None][:5]
    camera = hiding(perfect_camera, [(Location.LUNA, 1, 3)], overdue_after=2)
    views = [camera(moment) for moment in moments]
    assert [view[Location.LUNA.pos] for view in views if view][1:4] == [
        Unread(overdue=False), Unread(overdue=True), Unread(overdue=True)]
    assert views[0] == perfect_camera(moments[0]) and views[4] == perfect_camera(moments[4])


class _Insisting(Oracle):
    """A table that answers every decision with the same event."""

    def __init__(self, script: Script, event: Event) -> None:
        super().__init__(script)
        self.event = event

    def decide(self, game: Game, *, asked: bool = False) -> Event | None:
        return self.event


class _Answering(Oracle):
    """A table that gives these answers to whatever is decided next, then none."""

    def __init__(self, script: Script, *answers: Event | TakeBack) -> None:
        super().__init__(script)
        self.answers = iter(answers)

    def decide(self, game: Game, *, asked: bool = False) -> Event | TakeBack | None:
        return next(self.answers, None)


def test_a_deploy_the_table_takes_back_is_undone_and_the_table_goes_on_answering() -> None:
    # Four players, seed 9: P3 opens with Timony, read as Tactus; the table takes the
    # deploy back (UNDO), then deploys Timony as played.
    script = write_script(4, seed=9)
    follow = Follow(Game(script.tracked_setup, rng=script.companion_rng()))
    follow.on_event(Lead("tactus", Location.MARS))
    timony = Lead("timony", Location.JUPITER)
    report = Report()
    _settle(follow, _Answering(script, TakeBack(1), timony), report)
    assert list(follow.game.log[1:]) == [timony] and report.problems == []


def test_an_answer_the_tracked_game_refuses_is_reported_not_raised() -> None:
    script = write_script(2, seed=2)
    follow = Follow(Game(script.tracked_setup, rng=script.companion_rng()))
    decision = follow.game.state.pending
    assert decision is not None
    lead = decision.options[0]  # a Lead naming no card: the camera's to see, not the phone's
    report = Report()
    _settle(follow, _Insisting(script, lead), report)
    assert len(report.problems) == 1
    assert report.problems[0].startswith(f"the table's answer {event_text(lead)} was refused: ")


class _Draws(random.Random):
    """A random source whose ``random()`` draws are given (the rest stays seeded)."""

    def __init__(self, draws: list[float]) -> None:
        super().__init__(0)
        self.draws = iter(draws)

    def random(self) -> float:
        return next(self.draws)

    def getrandbits(self, k: int) -> int:  # so that randint and choice draw no floats
        return super().getrandbits(k)


def test_a_stretch_begins_at_a_moment_with_none_under_way_when_its_draw_is_under_the_rate(
) -> None:
    # Moments 0..7: no (0.9), begin (0.1; covers 1-2), no (exactly the rate), begin (4-5),
    # no, no; one draw a moment with no stretch under way, none past the last moment.
    draws = _Draws([0.9, 0.1, 0.5, 0.2, 0.9, 0.7])
    stretches = random_stretches(8, 0.5, draws, lengths=(2, 2))
    assert [(first, length) for _, first, length in stretches] == [(1, 2), (4, 2)]
    assert all(location in LOCATIONS for location, _, _ in stretches)
    assert next(draws.draws, None) is None


# --- judging a tracked game ----------------------------------------------------------------


def test_turn_rows_are_everyones_tokens_and_the_sovereign_after_each_turn() -> None:
    truth = _truth()
    rows = turn_rows(truth)
    assert len(rows) == sum(p.turns for p in truth[-1].players)
    first = next(s for s in truth if sum(p.turns for p in s.players) == 1)
    assert rows[0] == (tuple((p.helium, p.influence, p.fleet) for p in first.players),
                       first.sovereign)


def test_a_tracked_game_stopped_early_is_reported_unfinished_short_and_untriggered() -> None:
    truth = _truth()
    report = Report()
    compare(truth, truth[:60], report)
    done = len(turn_rows(truth[:60]))
    assert report.problems == [
        f"the tracked game did not end: {truth[59].fen()}",
        f"{done} turns tracked, truth {len(report.truth_turns)}",
        f"end triggered at None, truth {report.truth_trigger}"]


def test_the_trigger_is_read_from_the_last_state_tracked() -> None:
    truth = _truth()
    at = next(k for k, state in enumerate(truth) if state.trigger)
    report = Report()
    compare(truth, truth[:at + 1], report)
    assert report.tracked_trigger == report.truth_trigger is not None


def test_the_first_turn_with_other_tokens_is_named() -> None:
    truth = _truth()
    at = 30
    turn = sum(p.turns for p in truth[at - 1].players) + 1  # the first to end with it
    tracked = [*truth[:at], *(_with_influence(s, 0, 1) for s in truth[at:])]
    report = Report()
    compare(truth, tracked, report)
    mine, real = report.tracked_turns[turn - 1], report.truth_turns[turn - 1]
    assert mine != real and report.tracked_turns[:turn - 1] == report.truth_turns[:turn - 1]
    assert report.problems == [f"after turn {turn} the tokens are {mine}, truth {real}"]


def test_another_games_scores_are_reported() -> None:
    report = Report()
    compare(_truth(), write_script(2, seed=3).truth_states(), report)
    assert report.tracked_scores != report.truth_scores
    assert report.problems[-1] == f"scores {report.tracked_scores}, truth {report.truth_scores}"


def test_a_turn_the_truth_never_played_is_wrong() -> None:
    truth = _truth()
    drift = Drift(truth[:60])
    drift.view(truth, asking=False)
    played = len(turn_rows(truth[:60]))
    assert drift.wrong == list(range(played + 1, len(turn_rows(truth)) + 1))
