"""Follow: what it keeps beside the game (where each event came from, the questions it
asked, the die) and what it asks the table about a location the camera cannot read."""

from __future__ import annotations

import pytest
from test_tracker import INST, START, J, L, M, seen, table, unread

from engine.board import House
from engine.decisions import Kind
from engine.events import Choose, DrawFromDeck, Face, GainFrom, Lead, Place, Roll, Scout, SeatSpec
from engine.game import Game
from engine.setup import tracked_game
from engine.state import Slot
from engine.tracking import (
    COVERED_CARD,
    LOCATION,
    UNEXPECTED,
    Button,
    Follow,
    Source,
    Tracker,
    location_answer,
)
from engine.tracking.question import location_question

# --- sources: "for every event in the log, where it came from" -------------------------


def test_events_a_button_press_explains_came_from_the_camera() -> None:
    follow = table()
    follow.on_view(seen(START[0], START[1], START[2], [*START[3], "quietus"]))
    follow.on_button(Button.NEXT)  # the card was a Scout's, not a Lead
    assert follow.game.log[1:] == [Scout(), Place(INST, "quietus")]
    assert follow.sources == [Source.SETUP, Source.CAMERA, Source.CAMERA]
    assert follow.count("camera") == 2


def test_events_an_answer_settled_came_from_the_question() -> None:
    follow = table()
    follow.on_view(seen(START[0], [*START[1], "morning-star"], START[2], START[3]))
    question = follow.on_view(seen(START[0], START[1], [*START[2], "morning-star"],
                                   START[3])).question
    assert question is not None
    luna = next(i for i, r in enumerate(question.readings)
                if r.events[:1] == (Lead("morning-star", L),))
    follow.on_answer(luna)
    assert follow.game.log[1:] == [Lead("morning-star", L)]
    assert follow.sources == [Source.SETUP, Source.ASKED]


def test_answers_on_the_phone_came_from_the_table_and_the_rest_from_the_camera() -> None:
    # A deploy at Mars nobody saw, named on the phone; what the latest view then shows
    # (Ann's gain from Jupiter) is explained again from the camera.
    follow = table()
    follow.on_view(unread(seen(*START), M))
    follow.on_view(seen(START[0][:1], *START[1:]))
    follow.on_event(Lead("antonia", M))
    follow.on_event(Choose("quietus"))
    log, sources = follow.game.log, follow.sources
    assert [e for e, s in zip(log, sources, strict=True) if s is Source.TABLE] == [
        Lead("antonia", M), Choose("quietus")]
    assert set(sources[1:]) == {Source.TABLE, Source.CAMERA}
    assert log[-1] == GainFrom(J) and sources[-1] is Source.CAMERA  # explained at last


def test_the_table_answering_what_lies_at_a_location_settles_events_as_asked() -> None:
    follow = table()
    follow.on_view(unread(seen(START[0][:1], *START[1:]), L, overdue=True))
    follow.on_tell(L, location_answer(follow.game.state, L, "quietus"))
    assert follow.sources == [Source.SETUP, Source.ASKED, Source.ASKED]
    assert follow.count("asked") == 2


def test_events_played_on_the_game_by_others_are_the_tables_and_their_rolls_chance() -> None:
    # "Account for events played on the game by others (the service's page, buttons)"
    follow = table()
    follow.game.play(Lead("morning-star", M))
    follow.game.play(DrawFromDeck())  # the companion's die answers the roll
    assert isinstance(follow.game.log[-1], Roll)
    follow.catch_up()
    assert follow.sources == [Source.SETUP, Source.TABLE, Source.TABLE, Source.CHANCE]
    follow.game.undo()
    follow.game.undo()  # "...or taken back by them"
    follow.catch_up()
    assert follow.sources == [Source.SETUP, Source.TABLE]


def test_every_event_an_answer_brings_has_a_source_the_roll_and_what_follows_it_too() -> None:
    # Which covered card left Mars is asked; DIE is pressed and Bo deploys to Luna before
    # the answer. The answer's reading ends with the roll; the latest view is then
    # explained again (Bo's deploy).
    follow = table()
    follow.on_view(seen(START[0], [*START[1], "stained"], START[2], START[3]))
    follow.on_view(seen(START[0], ["nero", "stained"], START[2], START[3]))
    follow.on_button(Button.DIE)
    follow.on_view(seen(START[0], ["nero", "stained"], [*START[2], "quietus"], START[3]))
    question = follow.tracker.question
    assert question is not None and question.kind == COVERED_CARD
    eo = next(i for i, r in enumerate(question.readings) if Choose("eo", M, 0) in r.events)
    follow.on_answer(eo)
    log, sources = follow.game.log, follow.sources
    assert log[-1] == Lead("quietus", L)  # explained after the roll, by the camera
    assert sources[-1] is Source.CAMERA
    assert sum(follow.count(s) for s in Source) == len(log)  # each event's source is known
    assert [s for e, s in zip(log, sources, strict=True)
            if e in (Choose("eo", M, 0), DrawFromDeck())] == [Source.ASKED, Source.ASKED]
    assert [s for e, s in zip(log, sources, strict=True) if isinstance(e, Roll)] == [
        Source.CHANCE]


# --- questions: "a question still open and refined by more views is one" ---------------


def test_a_question_still_open_when_a_button_is_pressed_is_counted_once() -> None:
    follow = table()
    follow.on_view(seen(START[0], [*START[1], "stained"], START[2], START[3]))
    follow.on_view(seen(START[0], ["nero", "stained"], START[2], START[3]))
    assert follow.questions == 1 and follow.kinds == [COVERED_CARD]
    verdict = follow.on_button(Button.DIE)  # the deck taken: still, which card left Mars?
    assert verdict.question is not None and verdict.question.kind == COVERED_CARD
    assert follow.questions == 1 and follow.kinds == [COVERED_CARD]


# --- a location the camera cannot read ------------------------------------------------


def test_telling_a_location_other_than_the_one_asked_about_is_refused() -> None:
    follow = table()
    follow.on_view(unread(seen(*START), L, overdue=True))
    question = follow.tracker.question
    assert question is not None and question.kind == LOCATION and question.location is L
    with pytest.raises(ValueError, match=r"^nobody asked what is on top of Mars \[tracker\]$"):
        follow.on_tell(M, location_answer(follow.game.state, M, "nero"))
    assert follow.tracker.question is question  # still open, still about Luna


def test_an_answer_nothing_explains_is_a_change_nobody_expected_not_asked_again() -> None:
    # "the answer is explained as a view of its own ... (so a wrong answer shows)":
    # Luna told empty while nobody moved anything.
    follow = table()
    follow.on_view(unread(seen(*START), L, overdue=True))
    verdict = follow.on_tell(L, location_answer(follow.game.state, L))
    assert verdict.question is not None and verdict.question.kind == UNEXPECTED
    assert follow.kinds == [LOCATION, UNEXPECTED] and follow.questions == 2


def test_an_answer_before_any_view_is_set_against_the_games_own_stacks() -> None:
    # A tracker handed over with its location question open, the camera not yet read.
    game = table().game
    follow = Follow(game, tracker=Tracker(question=location_question(L)))
    verdict = follow.on_tell(L, location_answer(game.state, L, "quietus"))
    assert verdict.play == (Lead("quietus", L),)
    assert game.state.top(L) == Slot("quietus")


def test_a_location_question_raised_again_after_a_move_elsewhere_is_still_one() -> None:
    # Explaining Ann's deploy at Mars clears the open question; Luna, still unread with
    # cards on it, is asked about again: the same question, counted once.
    follow = table()
    follow.on_view(unread(seen(*START), L, overdue=True))
    follow.on_view(unread(seen(START[0], [*START[1], "morning-star"], *START[2:]), L,
                          overdue=True))
    assert follow.game.log[-1] == Lead("morning-star", M)
    question = follow.tracker.question
    assert question is not None and question.kind == LOCATION and question.location is L
    assert follow.questions == 1 and follow.kinds == [LOCATION]


def test_once_the_camera_reads_a_location_again_its_answer_stands_in_no_longer() -> None:
    # Unread again later, with cards on it, Luna is asked about afresh (not "now?").
    follow = table()
    follow.on_view(unread(seen(*START), L, overdue=True))
    follow.on_tell(L, location_answer(follow.game.state, L, "darrow"))
    follow.on_view(seen(*START))  # the camera reads Luna again
    follow.on_view(unread(seen(START[0], [*START[1], "morning-star"], *START[2:]), L,
                          overdue=True))
    question = follow.tracker.question
    assert question is not None and question.kind == LOCATION and question.location is L
    assert question.prompt == "What is on top of Luna?"
    assert follow.questions == 2 and follow.kinds == [LOCATION, LOCATION]


def test_when_the_table_is_still_a_location_answered_before_is_asked_about_again() -> None:
    # "whatever the camera still cannot read is asked about (the last move may lie there)"
    follow = table()
    follow.on_view(unread(seen(*START), L, overdue=True))
    follow.on_tell(L, location_answer(follow.game.state, L, "darrow"))
    follow.on_view(unread(seen(START[0], [*START[1], "morning-star"], *START[2:]), L,
                          overdue=True))
    assert follow.tracker.question is None and follow.questions == 1  # answered: not by a view
    follow.on_idle()
    question = follow.tracker.question
    assert question is not None and question.kind == LOCATION and question.location is L
    assert question.prompt == "What is on top of Luna now?"
    assert follow.questions == 2 and follow.kinds == [LOCATION, LOCATION]


@pytest.mark.parametrize("more", [1, 2])
def test_a_location_waited_for_is_asked_early_once_a_count_elsewhere_is_more_than_one_off(
        more: int) -> None:
    # DIE pressed while Luna is unread and nothing readable changed: the move is awaited
    # at Luna. On Luna's second unread view Mars reads ``more`` cards deeper under the same
    # top: one is the camera's commonest slip and waits; two say the table moved on, and
    # Luna is asked about before a later move covers it.
    follow = table()
    follow.on_view(seen(*START))
    follow.on_view(unread(seen(*START), L))
    follow.on_button(Button.DIE)
    assert follow.tracker.blind == {L} and follow.kinds == []
    deeper = seen(START[0], ["eo"] * more + START[1], *START[2:])
    follow.on_view(unread(deeper, L))
    assert follow.kinds == ([LOCATION] if more == 2 else [])


# --- the die ----------------------------------------------------------------------------


def test_a_roll_taken_back_with_its_reading_is_not_rolled_again() -> None:
    # "The die is wound back too ... taking a reading back does not re-roll it."
    # Boneriders gains Ann (Minerva) the Sovereign, and her house rolls the die; NEXT
    # says it was a Scout, so the Lead goes back, and the roll with it. The next roll
    # (Bo's, for the deck) shows the face the table already heard. (With this seed a
    # die not wound back shows another face.)
    follow = table((House.MINERVA, House.DIANA))
    follow.on_view(seen(START[0], [*START[1], "boneriders"], START[2], START[3]))
    assert follow.game.log[1:2] == [Lead("boneriders", M)]
    heard = follow.game.state.last_roll
    assert heard is not None and follow.sources[-1] is Source.CHANCE
    follow.on_button(Button.NEXT)
    assert follow.game.log[1:] == [Scout(), Place(M, "boneriders")]
    assert follow.game.state.last_roll is None and follow.game.state.sovereign is None
    assert follow.sources == [Source.SETUP, Source.CAMERA, Source.CAMERA]
    follow.on_view(seen(START[0], [*START[1], "boneriders", "quietus"], START[2], START[3]))
    follow.on_button(Button.DIE)
    assert follow.game.log[-3:-1] == [Lead("quietus", M), DrawFromDeck()]
    assert follow.game.log[-1] == Roll(Face(heard))


def test_without_a_die_of_its_own_the_roll_is_left_to_the_table() -> None:
    setup = tracked_game([SeatSpec("Ann", House.MINERVA), SeatSpec("Bo", House.DIANA)],
                         START, first=0)
    follow = Follow(Game(setup))  # no rng: the table rolls its own die
    follow.on_view(seen(START[0], [*START[1], "boneriders"], START[2], START[3]))
    assert follow.game.log[1:] == [Lead("boneriders", M)]
    pending = follow.game.state.pending
    assert pending is not None and pending.kind is Kind.ROLL
    follow.on_event(Roll(Face.FLEET))
    assert follow.game.state.players[0].fleet == 1
    assert follow.sources == [Source.SETUP, Source.CAMERA, Source.TABLE]


def test_a_game_followed_from_the_start_counts_its_setup() -> None:
    follow = table()
    assert follow.sources == [Source.SETUP] * len(follow.game.log)
    assert follow.count("setup") == len(follow.game.log) and follow.count("camera") == 0



# Mutants of engine/tracking/follow.py no test kills, named with why (issue 33 item 4):
# * on_view 6, 9, 10 and _read_again 3, 6, 7 (``zip(LOCATIONS, view, strict=True)`` made
#   not strict): on_view runs both zips over the same view, one straight after the other.
#   A view of the wrong length makes the other zip raise the same ValueError, after
#   the same pairs were gone through (a strict zip raises only once one side runs out).
# * _read_again 10 and _maybe_ask 14 (``asking = ""`` for ``asking = None``): ``asking``
#   is only ever compared by identity with a Location, which "" matches no more than
#   None does, and nothing outside follow.py reads it.
# * _play 13, 15, 16 (the die's state also kept before an event that rolled nothing):
#   _undo_own takes events back last first, so by the time it reaches such an event,
#   every roll after it is wound back already and the die stands where that state was
#   kept: setting it again changes nothing. (It would differ only where a state kept
#   before a roll stays behind after others took that roll back, since catch_up trims
#   ``sources`` but not ``_dice``; no sequence of views found here lets the tracker take
#   back its own event at that index before it plays one again there.)
# * _maybe_ask 18 (``asking = ""`` once more), _needed_now 8, 10, 11 (``_unread_views``'
#   default other or none): a location in the tracker's blind and not told is unread in
#   the latest view, so it always has a count; _needed_now 16 (``not wanted or view is
#   None`` made ``and``): ``wanted`` fills only after two views, when ``view`` is set,
#   and an empty ``wanted`` is returned either way.
