"""The tracker: camera views and buttons in, game events (or questions) out."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine.abilities.primitives import Moved
from engine.board import House, Location
from engine.decisions import Kind
from engine.errors import IllegalActionError
from engine.events import (
    Block,
    Choose,
    DrawFromDeck,
    GainFrom,
    Lead,
    Place,
    Scout,
    SeatSpec,
    SetLocation,
)
from engine.game import Game
from engine.setup import tracked_game
from engine.state import Slot
from engine.tracking import (
    BACK,
    COVERED_CARD,
    LOCATION,
    Button,
    Follow,
    Seen,
    TableView,
    Then,
    Tracker,
    Unread,
    Verdict,
    location_answer,
    mismatch,
    view_of,
)
from engine.tracking.question import location_question
from engine.tracking.tracker import REFUTED_KEPT
from engine.tracking.view import strips_agree

J, M, L, INST = Location.JUPITER, Location.MARS, Location.LUNA, Location.INSTITUTE
# Cards whose deploy abilities do nothing where these tests put them.
QUIET = ("morning-star", "quietus", "the-pax", "morning-star", "fitchner", "judge")
START = [["lorn", "sevro"], ["eo", "nero"], ["aja", "darrow"], ["trigg", "mustang"]]


def table(houses: tuple[House, House] = (House.MARS, House.DIANA)) -> Follow:
    seats = [SeatSpec("Ann", houses[0]), SeatSpec("Bo", houses[1])]
    return Follow(Game(tracked_game(seats, START, first=0), rng=random.Random(4)))


def seen(*stacks: list[str]) -> TableView:
    """A view from each location's cards, oldest first (only depth and top matter)."""
    views = [Seen(len(s), s[-1] if s else None) for s in stacks]
    return (views[0], views[1], views[2], views[3])


def test_a_deploy_then_a_gain_become_lead_and_gain_from() -> None:
    follow = table()
    verdict = follow.on_view(seen(START[0], START[1] + ["morning-star"], START[2], START[3]))
    assert verdict.play == (Lead("morning-star", M),)
    verdict = follow.on_view(seen(START[0][:1], START[1] + ["morning-star"], START[2], START[3]))
    assert verdict.play == (GainFrom(J),)
    ann = follow.game.state.players[0]
    assert ann.fleet == 1 and ann.hand.known == ("sevro",)
    assert follow.game.state.current == 1


def test_a_deploy_and_a_gain_seen_at_once_are_both_inferred() -> None:
    follow = table()
    verdict = follow.on_view(seen(START[0][:1], START[1] + ["morning-star"], START[2], START[3]))
    assert verdict.play == (Lead("morning-star", M), GainFrom(J))
    assert verdict.question is None
    assert verdict.text == "Ann: deployed Morning Star to Mars; gained Sevro from Jupiter"


def test_next_after_a_card_appears_turns_the_reading_into_a_scout() -> None:
    follow = table()
    first = follow.on_view(seen(START[0], START[1], START[2], START[3] + ["quietus"]))
    assert first.play == (Lead("quietus", INST),)
    verdict = follow.on_button(Button.NEXT)
    assert verdict.undo == 1 and verdict.play == (Scout(), Place(INST, "quietus"))
    state = follow.game.state
    assert state.players[0].influence == 1 and state.players[0].hand.size == 5
    assert state.current == 1


def test_die_means_the_deck_was_taken_and_the_die_rolls() -> None:
    follow = table()
    follow.on_view(seen(START[0], START[1] + ["morning-star"], START[2], START[3]))
    verdict = follow.on_button(Button.DIE)
    assert verdict.play == (DrawFromDeck(),)
    assert follow.game.state.last_roll is not None
    assert follow.game.state.players[0].hand.size == 5


def test_two_moves_seen_at_once_in_an_unclear_order_become_a_question() -> None:
    follow = table()
    follow.on_view(seen(START[0], START[1] + ["morning-star"], START[2], START[3]))
    follow.on_view(seen(START[0][:1], START[1] + ["morning-star"], START[2], START[3]))
    # Bo deploys to Luna and gains from The Institute; both stacks change at once, and
    # "Mustang left The Institute" could be a gain by Bo after either deploy.
    verdict = follow.on_view(seen(START[0][:1], START[1] + ["morning-star"], START[2] + ["quietus"],
                                  START[3][:1]))
    assert verdict.question is None
    assert verdict.play == (Lead("quietus", L), GainFrom(INST))


def test_a_change_nobody_expected_is_a_question_never_a_guess() -> None:
    follow = table()
    before = follow.game.state
    verdict = follow.on_view(seen(START[0], START[1][:1], START[2], START[3]))
    question = verdict.question
    assert question is not None and "nobody expected" in question.prompt
    assert follow.game.state is before
    texts = question.texts()
    assert any("ignore" in t for t in texts) and any("correct" in t for t in texts)


def test_answering_ignore_keeps_the_game_and_correct_fixes_it() -> None:
    follow = table()
    follow.on_view(seen(START[0], START[1][:1], START[2], START[3]))
    question = follow.tracker.question
    assert question is not None
    ignore = next(i for i, t in enumerate(question.texts()) if "ignore" in t)
    before = follow.game.state
    follow.on_answer(ignore)
    assert follow.game.state == before and follow.tracker.question is None
    follow.on_view(seen(START[0], START[1][:1], START[2], START[3]))
    question = follow.tracker.question
    assert question is not None
    fix = next(i for i, t in enumerate(question.texts()) if "correct" in t)
    follow.on_answer(fix)
    assert isinstance(follow.game.log[-1], SetLocation)
    assert [s.card for s in follow.game.state.stack_at(M)] == ["eo"]
    assert "nero" in follow.game.state.banished


def test_a_change_nobody_expected_later_on_is_put_to_the_player_whose_turn_it_is() -> None:
    # Ann's turn is done (deploy, gain); Luna's top card then goes with nothing to explain
    # it. The question is Bo's, told with its prompt, and "correct it" sets Luna alone
    # (the fixes come from the game as it stands, Ann's gain included).
    follow = table()
    follow.on_view(seen(START[0], START[1] + ["morning-star"], START[2], START[3]))
    follow.on_view(seen(START[0][:1], START[1] + ["morning-star"], START[2], START[3]))
    verdict = follow.on_view(seen(START[0][:1], START[1] + ["morning-star"], START[2][:1],
                                  START[3]))
    question = verdict.question
    assert question is not None and question.kind == "unexpected"
    assert question.ask.player == 1 == follow.game.state.current
    assert verdict.text == question.prompt
    fix = next(r for r in question.readings if r.answer.name == "CORRECT")
    assert fix.events == (SetLocation(L, ("aja",), (False,)),)


def test_a_misplaced_card_that_is_moved_is_asked_about_with_the_true_move_offered() -> None:
    follow = table()
    follow.on_view(seen(START[0], START[1] + ["morning-star"], START[2], START[3]))  # oops, Mars
    verdict = follow.on_view(seen(START[0], START[1], START[2] + ["morning-star"], START[3]))
    question = verdict.question
    assert question is not None
    luna = next(i for i, r in enumerate(question.readings)
                if r.events[:1] == (Lead("morning-star", L),))
    follow.on_answer(luna)
    assert follow.game.state.top(L).card == "morning-star"
    assert [s.card for s in follow.game.state.stack_at(M)] == ["eo", "nero"]
    assert follow.game.state.pending.kind is Kind.GAIN


def test_a_silent_block_window_is_passed_when_the_table_moves_on() -> None:
    follow = table()
    mars = [*START[1], "morning-star"]
    follow.on_view(seen(START[0], mars, START[2], START[3]))
    follow.on_view(seen(START[0], mars, START[2][:1], START[3]))  # Ann takes Luna
    assert follow.game.state.sovereign == 0
    follow.on_view(seen(START[0], mars, [], [*START[3], "the-pax"]))  # Bo takes it from her
    assert follow.game.state.pending.kind is Kind.BLOCK  # Ann might hold Justice
    follow.on_view(seen(START[0], [*mars, "fitchner"], [], [*START[3], "the-pax"]))  # Ann
    state = follow.game.state
    assert state.sovereign == 1  # she did not block: the table moved on
    assert state.players[1].influence == 1  # Diana's house ability fired for Bo
    assert state.top(M).card == "fitchner" and state.pending.kind is Kind.GAIN


def test_a_block_the_player_surely_holds_is_left_to_the_table_when_play_moves_on() -> None:
    """Justice: "You may reveal this whenever an opponent tries to take the Sovereign
    token from you." Ann is known to hold it, so blocking is her real choice: the next
    card put down a moment after the phone offered the block says nothing of it (she may
    still be reaching for the phone), so the block waits for the table's answer."""
    setup = tracked_game([SeatSpec("Ann", House.MARS), SeatSpec("Bo", House.DIANA)],
                         START, first=0)
    setup = replace(setup, hands=(("justice",), ()),
                    unknown=(setup.unknown[0] - 1, setup.unknown[1]))
    follow = Follow(Game(setup, rng=random.Random(4)))
    mars = [*START[1], "morning-star"]
    follow.on_view(seen(START[0], mars, START[2], START[3]))
    follow.on_view(seen(START[0], mars, START[2][:1], START[3]))  # Ann takes Luna
    follow.on_view(seen(START[0], mars, [], [*START[3], "the-pax"]))  # Bo takes it from her
    assert follow.game.state.pending.kind is Kind.BLOCK
    verdict = follow.on_view(seen(START[0], [*mars, "fitchner"], [], [*START[3], "the-pax"]))
    assert verdict.then is Then.WAIT and follow.game.state.pending.kind is Kind.BLOCK
    assert follow.game.state.sovereign == 0  # nothing settled without her
    follow.on_event(Block("justice"))  # Ann blocks after all: the Sovereign stays hers
    state = follow.game.state
    assert state.sovereign == 0 and "justice" in state.banished
    assert state.top(M).card == "fitchner" and state.pending.kind is Kind.GAIN


def test_a_block_window_inside_a_change_never_seen_is_offered_not_passed() -> None:
    """Bo's deploy and his taking Luna (the Sovereign from Ann) never seen on their own:
    the block window came and went between two views, so the table never had the
    chance; Ann's next card does not say she let it pass, so the table is asked."""
    follow = table()
    mars = [*START[1], "morning-star"]
    follow.on_view(seen(START[0], mars, START[2], START[3]))
    follow.on_view(seen(START[0], mars, START[2][:1], START[3]))  # Ann takes Luna
    verdict = follow.on_view(seen(START[0], [*mars, "fitchner"], [], [*START[3], "the-pax"]))
    assert verdict.then is Then.WAIT and follow.game.state.pending.kind is Kind.BLOCK
    assert follow.tracker.waits_for_table(follow.game)
    follow.on_event(Block("justice"))  # Ann blocks: the Sovereign stays hers
    state = follow.game.state
    assert state.sovereign == 0 and "justice" in state.banished
    assert state.top(M).card == "fitchner" and state.pending.kind is Kind.GAIN


def test_a_view_caught_half_way_through_a_turn_need_not_be_explained_on_its_own() -> None:
    # Ann takes Jupiter's top card a moment before her card lands on Mars, and the camera
    # settles on that moment: no order of legal moves passes through it (the gain comes
    # after the deploy), so it is asked about. The next view shows the turn done: the
    # view half-way between the two is dropped, and the deploy and gain are played.
    follow = table()
    early = follow.on_view(seen(START[0][:1], START[1], START[2], START[3]))
    assert early.question is not None and early.question.kind == "unexpected"
    verdict = follow.on_view(seen(START[0][:1], START[1] + ["morning-star"], START[2], START[3]))
    assert verdict.play == (Lead("morning-star", M), GainFrom(J))
    assert verdict.question is None and follow.tracker.question is None


def test_a_view_dropped_as_half_way_must_still_be_shown_by_the_reading() -> None:
    # Mars seen with Aja on top (Aja lies on Luna: no move puts her there), two cards
    # later Morning Star and Quietus. The first view lies "on the way" by its counts, but
    # a reading that drops it must still have had Aja on Mars somewhere: none does, so
    # nothing is played and the table is asked.
    follow = table()
    follow.on_view(seen(START[0], START[1] + ["aja"], START[2], START[3]))
    before = len(follow.game.log)
    verdict = follow.on_view(seen(START[0][:1], START[1] + ["morning-star", "quietus"],
                                  START[2], START[3]))
    assert verdict.play == () and len(follow.game.log) == before
    assert verdict.question is not None and verdict.question.kind == "unexpected"


def _covered_card_question() -> tuple[Follow, Verdict]:
    """Stained on Mars, then Mars a card less: which covered card left is asked."""
    follow = table()
    follow.on_view(seen(START[0], [*START[1], "stained"], START[2], START[3]))
    return follow, follow.on_view(seen(START[0], ["nero", "stained"], START[2], START[3]))


def test_a_question_says_where_and_whose_and_the_verdict_carries_its_prompt() -> None:
    _follow, verdict = _covered_card_question()
    question = verdict.question
    assert question is not None and question.kind == COVERED_CARD
    assert question.location is M and question.ask.player == 0  # Ann's Stained, on Mars
    assert verdict.text == question.prompt != ""


def test_an_answer_past_the_readings_is_refused_and_the_question_stays_open() -> None:
    follow, verdict = _covered_card_question()
    question = verdict.question
    assert question is not None
    log = list(follow.game.log)
    with pytest.raises(IllegalActionError) as refused:
        follow.tracker.answer(follow.game, len(question.readings))
    assert str(refused.value) == "no such answer to the open question [tracker]"
    assert refused.value.rule == "tracker"
    assert follow.tracker.question is question and list(follow.game.log) == log


def test_an_answer_is_told_in_the_words_of_the_reading_picked() -> None:
    follow, verdict = _covered_card_question()
    question = verdict.question
    assert question is not None
    eo = next(i for i, r in enumerate(question.readings) if r.events[-1].value == "eo")
    picked = follow.tracker.answer(follow.game, eo)
    assert picked.text == question.texts()[eo] and follow.tracker.question is None
    # "The camera is wrong: ignore it" is told too, and plays nothing.
    follow = table()
    asked = follow.on_view(seen(START[0], START[1][:1], START[2], START[3])).question
    assert asked is not None
    ignore = next(i for i, t in enumerate(asked.texts()) if "ignore" in t)
    told = follow.tracker.answer(follow.game, ignore)
    assert told == Verdict(play=(), text=asked.texts()[ignore])
    assert follow.tracker.question is None


def test_a_choice_nobody_sees_is_left_to_the_table_though_declining_it_fits() -> None:
    # Dancer: "If you have 2 or more other Reds, reveal them to gain 2 more Helium." Ann's
    # hand is unknown: declining explains the view (Dancer on Mars, then her gain) as
    # well as revealing, and the shortest way is no evidence of which. The tracker plays
    # the deploy and waits for the table at the reveal.
    follow = table()
    verdict = follow.on_view(seen(START[0][:1], START[1] + ["dancer"], START[2], START[3]))
    assert verdict.play == (Lead("dancer", M),) and verdict.then is Then.WAIT
    pending = follow.game.state.pending
    assert pending is not None and pending.then.card == "dancer"
    assert follow.tracker.waits_for_table(follow.game)


def test_a_choice_nobody_sees_before_the_die_is_left_to_the_table_too() -> None:
    # Dancer on Mars, then DIE: nothing was gained, the deck was taken. The evidence
    # ends with a press, not a view: the reveal is still the table's to answer.
    follow = table()
    follow.on_view(seen(START[0], START[1] + ["dancer"], START[2], START[3]))
    verdict = follow.on_button(Button.DIE)
    assert verdict.then is Then.WAIT and list(follow.game.log[1:]) == [Lead("dancer", M)]
    pending = follow.game.state.pending
    assert pending is not None and pending.then.card == "dancer"


def test_the_same_view_again_asks_nothing_more() -> None:
    follow = table()
    view = seen(START[0], START[1][:1], START[2], START[3])
    question = follow.on_view(view).question
    assert follow.on_view(view) == Verdict() and follow.questions == 1
    assert follow.tracker.question is question


def test_a_verdict_that_only_takes_back_says_nothing() -> None:
    tracker = Tracker(played=[Lead("morning-star", M), GainFrom(J)])
    verdict = tracker._verdict_for(table().game.state, (Lead("morning-star", M),))
    assert verdict == Verdict(undo=1, play=(), text="")


def test_a_gold_pulled_and_taken_by_colonel_valentin_is_read_whole_without_asking() -> None:
    # Colonel Valentin: "Move a Gold from any location to directly under this card. You
    # may gain that card; if you do, end your turn." Sevro gone from Jupiter and Mars no
    # deeper than Valentin: only Sevro pulled and taken fits (left under Valentin, Mars
    # would read a card deeper), so the whole turn is played and nobody is asked.
    follow = table()
    verdict = follow.on_view(seen(START[0][:1], START[1] + ["colonel-valentin"], START[2],
                                  START[3]))
    assert verdict.play == (Lead("colonel-valentin", M), Choose("sevro", J, 1),
                            Choose("gain"), Moved(source=M, card="sevro"))
    assert verdict.question is None and follow.questions == 0
    assert follow.game.state.current == 1 and "sevro" in follow.game.state.players[0].hand.known


def test_views_that_match_the_game_change_nothing() -> None:
    follow = table()
    verdict = follow.on_view(view_of(follow.game.state))
    assert verdict.play == () and verdict.question is None


def test_mismatch_counts_depth_and_top_differences() -> None:
    game = table().game
    assert mismatch(game.state, view_of(game.state)) == 0
    assert mismatch(game.state, seen(START[0], START[1][:1], START[2], START[3])) == 1
    assert mismatch(game.state, seen(START[0], ["eo", "darrow"], START[2], START[3])) == 1


def test_answering_with_no_open_question_is_refused() -> None:
    with pytest.raises(ValueError, match="no such answer"):
        Tracker().answer(table().game, 0)


def test_each_card_an_ability_moves_is_a_step_the_camera_confirms() -> None:
    follow = table()
    institute = [*START[3], "administrator"]
    follow.on_view(seen(START[0], START[1], START[2], institute))
    assert follow.game.state.pending.kind is Kind.CONFIRM  # the table names the two cards
    follow.on_event(Choose("deanna"))
    follow.on_event(Choose("lawyer"))
    follow.on_event(Choose("lawyer"))  # directly under Administrator
    assert follow.game.state.stack_at(INST)[-1].card == "administrator"  # not yet under
    verdict = follow.on_view(seen(START[0], START[1], START[2], [*START[3], "x", "administrator"]))
    assert verdict.play == (Moved(target=INST, card="deanna", under=True),)
    follow.on_view(seen(START[0], START[1], START[2], [*START[3], "x", "y", "administrator"]))
    cards = [s.card for s in follow.game.state.stack_at(INST)]
    assert cards == [*START[3], "deanna", "lawyer", "administrator"]
    assert follow.game.state.pending.kind is Kind.GAIN


def test_which_covered_card_left_a_stack_is_asked_and_the_answer_is_final() -> None:
    follow = table()
    mars = [*START[1], "stained"]
    follow.on_view(seen(START[0], mars, START[2], START[3]))
    verdict = follow.on_view(seen(START[0], ["nero", "stained"], START[2], START[3]))
    question = verdict.question
    assert question is not None and question.kind == COVERED_CARD
    eo = next(i for i, r in enumerate(question.readings) if r.events[-1].value == "eo")
    follow.on_answer(eo)
    assert follow.game.state.banished == ("eo",)
    verdict = follow.on_view(seen(START[0][:1], ["nero", "stained"], START[2], START[3]))
    assert verdict.play == (GainFrom(J),) and verdict.question is None  # not asked again


def test_the_die_pressed_before_the_camera_saw_the_deploy_waits_for_the_view() -> None:
    follow = table()
    verdict = follow.on_button(Button.DIE)
    assert verdict.play == () and verdict.question is None
    verdict = follow.on_view(seen(START[0], [*START[1], "morning-star"], START[2], START[3]))
    assert verdict.play == (Lead("morning-star", M), DrawFromDeck())
    assert follow.game.state.last_roll is not None  # the companion rolled the die


def test_next_after_a_turn_the_camera_already_saw_end_is_nothing_new() -> None:
    follow = table()
    follow.on_view(seen(START[0], [*START[1], "morning-star"], START[2], START[3]))
    follow.on_view(seen(START[0][:1], [*START[1], "morning-star"], START[2], START[3]))
    before = len(follow.game.log)
    verdict = follow.on_button(Button.NEXT)  # Ann's habit, though she led
    assert verdict == Verdict() and len(follow.game.log) == before


def test_a_card_uncovered_is_named_from_the_camera() -> None:
    follow = table()
    follow.game.play(SetLocation(J, (None, "sevro")))  # a card nobody read, under Sevro
    follow.tracker.settle(len(follow.game.log))
    follow.on_view(seen(["?", "sevro"], [*START[1], "morning-star"], START[2], START[3]))
    follow.on_view(seen(["quietus"], [*START[1], "morning-star"], START[2], START[3]))
    assert follow.game.state.top(J) == Slot("quietus")  # uncovered, the camera reads it


def with_strips(view: TableView, location: Location,
                under: tuple[str | None, ...]) -> TableView:
    """``view`` with the camera reading ``under`` from ``location``'s strips."""
    out = list(view)
    seen_there = out[location.pos]
    assert isinstance(seen_there, Seen)
    out[location.pos] = replace(seen_there, under=under)
    return (out[0], out[1], out[2], out[3])


def test_the_strips_name_which_covered_card_left_a_stack_and_nobody_is_asked() -> None:
    follow = table()
    mars = [*START[1], "stained"]
    follow.on_view(seen(START[0], mars, START[2], START[3]))
    left = with_strips(seen(START[0], ["nero", "stained"], START[2], START[3]), M, ("nero",))
    verdict = follow.on_view(left)
    assert verdict.question is None
    assert follow.game.state.banished == ("eo",)
    assert [s.card for s in follow.game.state.stack_at(M)] == ["nero", "stained"]


def test_every_strip_read_says_the_count_is_right_not_one_short() -> None:
    # The same view without strips asks (next test): read, they show Eo gone.
    follow = table()
    follow.on_view(seen(START[0], [*START[1], "stained"], START[2], START[3]))
    left = with_strips(seen(START[0], ["eo", "stained"], START[2], START[3]), M, ("eo",))
    verdict = follow.on_view(left)
    assert verdict.question is None and follow.game.state.banished == ("nero",)


def test_a_strip_it_could_not_name_leaves_the_question_to_the_table() -> None:
    follow = table()
    follow.game.play(SetLocation(M, ("eo", "nero", "judge")))
    follow.on_view(seen(START[0], ["eo", "nero", "judge", "stained"], START[2], START[3]))
    left = with_strips(seen(START[0], ["nero", "judge", "stained"], START[2], START[3]), M,
                       (None, "judge"))
    verdict = follow.on_view(left)
    assert verdict.question is not None and verdict.question.kind == COVERED_CARD
    assert follow.game.state.banished == ()


def test_strips_named_wrong_never_hide_the_truth_from_the_question() -> None:
    # A strip misread as a card that is nowhere in the stack agrees with no reading:
    # the table is asked, with the true one among the answers.
    follow = table()
    follow.on_view(seen(START[0], [*START[1], "stained"], START[2], START[3]))
    left = with_strips(seen(START[0], ["nero", "stained"], START[2], START[3]), M, ("lorn",))
    question = follow.on_view(left).question
    assert question is not None and question.kind == COVERED_CARD
    assert any(r.events[-1] == Choose("eo", M, 0) for r in question.readings)


def test_strips_agree_card_for_card_and_a_back_only_with_a_face_down_card() -> None:
    game = table().game
    game.play(SetLocation(L, ("aja", "darrow", None, "eo"), (False, False, True, False)))
    state = game.state
    view = view_of(state)
    assert strips_agree(state, with_strips(view, L, ("aja", "darrow", BACK)))
    assert strips_agree(state, with_strips(view, L, ("aja", None, None)))
    assert not strips_agree(state, with_strips(view, L, ("darrow", "aja", BACK)))
    assert not strips_agree(state, with_strips(view, L, ("aja", "darrow", "eo")))
    assert not strips_agree(state, with_strips(view, L, ("aja", BACK, BACK)))
    assert not strips_agree(state, with_strips(view, L, ("aja", "darrow")))  # a count off
    assert not strips_agree(state, with_strips(view, L, (None, None)))  # though unnamed


def test_a_stack_one_card_short_under_its_top_asks_rather_than_guesses() -> None:
    # Stained may banish a card under it; a camera that counts Mars one short reads
    # just like one banished. The count alone never decides: the table does.
    follow = table()
    mars = [*START[1], "stained"]
    follow.on_view(seen(START[0], mars, START[2], START[3]))
    verdict = follow.on_view(seen(START[0], ["nero", "stained"], START[2], START[3]))
    question = verdict.question
    assert question is not None and question.kind == COVERED_CARD
    nothing = [i for i, r in enumerate(question.readings) if r.events == (Lead("stained", M),)]
    assert len(nothing) == 1 and question.texts()[nothing[0]] == "Nothing happened"
    follow.on_answer(nothing[0])
    assert follow.game.state.banished == ()
    assert [s.card for s in follow.game.state.stack_at(M)] == mars


def _stained_over_a_card_nobody_named(under: tuple[str | None, ...]) -> Follow:
    """Mars holds Eo and, on it, a card put face down that nobody has named; Ann deploys
    Stained there, and the camera then sees Mars a card less, reading ``under`` from the
    strip left under Stained."""
    follow = table()
    follow.game.play(SetLocation(M, ("eo", None), (False, True)))
    follow.tracker.settle(len(follow.game.log))
    follow.on_view(seen(START[0], ["eo", "?", "stained"], START[2], START[3]))
    follow.on_view(with_strips(seen(START[0], ["?", "stained"], START[2], START[3]), M, under))
    return follow


def test_a_card_nobody_named_may_be_the_one_banished_so_the_table_says_which() -> None:
    # Stained banishes "any other card from this location" (Eo or the face-down card):
    # either leaves Mars a card less. The search can only play a card it can name, so
    # it found Eo alone; a strip it could not name tells them apart no better.
    follow = _stained_over_a_card_nobody_named((None,))
    pending = follow.game.state.pending
    assert pending is not None and pending.kind is Kind.TARGET
    assert {o.value for o in pending.options} == {"eo", None}  # the page asks which
    assert follow.game.state.banished == ("nero",)  # (SetLocation took Nero off Mars)


def test_a_card_back_left_under_stained_says_the_named_card_went() -> None:
    follow = _stained_over_a_card_nobody_named((BACK,))
    assert "eo" in follow.game.state.banished
    assert follow.game.state.pending is not None and follow.game.state.pending.kind is Kind.GAIN


# --- a location the camera cannot read ---------------------------------------------------


def unread(view: TableView, location: Location, overdue: bool = False) -> TableView:
    """``view`` with ``location`` unreadable (glare, a misread table)."""
    out = list(view)
    out[location.pos] = Unread(overdue=overdue)
    return (out[0], out[1], out[2], out[3])


def test_an_unread_location_does_not_hold_up_the_other_three() -> None:
    follow = table()
    dark = unread(seen(START[0][:1], START[1] + ["morning-star"], START[2], START[3]), L)
    verdict = follow.on_view(dark)
    assert verdict.play == (Lead("morning-star", M), GainFrom(J))
    assert follow.tracker.question is None  # Luna holds nothing up: nobody is asked


def test_no_move_is_inferred_where_the_camera_cannot_read() -> None:
    follow = table()
    # Ann deployed to Luna, unseen, and gained Jupiter's top card: only a Lead to Luna
    # explains the gain, and nothing says it happened, so nothing is played yet.
    before = len(follow.game.log)
    verdict = follow.on_view(unread(seen(START[0][:1], *START[1:]), L))
    assert verdict.play == () and len(follow.game.log) == before
    assert follow.tracker.blind == {L}
    assert follow.tracker.question is None  # not overdue yet: a hand may be lifting


def test_once_overdue_the_table_is_asked_what_lies_there_and_the_answer_explains_it() -> None:
    follow = table()
    follow.on_view(unread(seen(START[0][:1], *START[1:]), L))
    follow.on_view(unread(seen(START[0][:1], *START[1:]), L, overdue=True))
    question = follow.tracker.question
    assert question is not None and question.kind == LOCATION and question.location is L
    assert question.prompt == "What is on top of Luna?" and follow.questions == 1
    told = location_answer(follow.game.state, L, "quietus")
    assert told == Seen(3, "quietus")  # one card more than the two the game knew
    verdict = follow.on_tell(L, told)
    assert verdict.play == (Lead("quietus", L), GainFrom(J))
    assert follow.tracker.question is None and follow.questions == 1


def test_a_location_unread_with_cards_on_it_is_asked_about_once() -> None:
    follow = table()
    for _ in range(3):  # nothing happens; Luna stays unreadable
        follow.on_view(unread(seen(*START), L, overdue=True))
    assert follow.tracker.question is not None and follow.questions == 1
    follow.on_tell(L, location_answer(follow.game.state, L, "darrow"))
    follow.on_view(unread(seen(START[0], START[1] + ["morning-star"], *START[2:]), L,
                          overdue=True))
    assert follow.tracker.question is None and follow.questions == 1  # not asked again


def test_a_turn_held_back_at_an_unread_location_waits_there_until_it_is_read() -> None:
    # Luna unread, and DIE pressed with nothing seen played: Ann's move was likely made
    # at Luna. A view with Jupiter hidden too still waits at Luna alone (Jupiter's
    # change, if any, comes later); once Luna is read (Jupiter still hidden), her card
    # there and the draw are played.
    follow = table()
    follow.on_view(unread(seen(*START), L))
    follow.on_button(Button.DIE)
    verdict = follow.on_view(unread(unread(seen(*START), L), J))
    assert verdict == Verdict() and follow.tracker.blind == {L}
    verdict = follow.on_view(unread(seen(START[0], START[1], START[2] + ["quietus"], START[3]),
                                    J))
    assert verdict.play == (Lead("quietus", L), DrawFromDeck())
    assert follow.tracker.blind == frozenset()


def test_a_card_deployed_unseen_that_left_by_its_own_ability_is_named_by_the_table() -> None:
    # A hand over Mars while Ann deploys Antonia there ("...Then, banish Antonia"):
    # read again, Mars is as it was, and Ann has gained Jupiter's top card. No move the camera can
    # name explains the gain; a deploy at Mars nobody saw does, once the table names it.
    follow = table()
    follow.on_view(unread(seen(*START), M))
    verdict = follow.on_view(seen(START[0][:1], *START[1:]))
    assert verdict.question is None and verdict.then is Then.WAIT and follow.questions == 0
    pending = follow.game.state.pending
    assert pending is not None and Lead(None, M) in pending.options  # the page's picker
    follow.on_event(Lead("antonia", M))  # named on the phone
    follow.on_event(Choose("quietus"))  # Bo (the only opponent) banishes one of his
    assert follow.game.state.banished == ("quietus", "antonia")
    assert follow.game.log[-1] == GainFrom(J)  # the camera's gain, explained at last
    assert follow.game.state.current == 1 and follow.questions == 0


def test_the_reading_when_the_camera_sees_again_is_checked_against_the_answer() -> None:
    follow = table()
    follow.on_view(unread(seen(*START), L, overdue=True))
    follow.on_tell(L, location_answer(follow.game.state, L, "darrow"))  # as it was
    # The camera reads Luna again, and it is not what the table said: nothing explains it.
    verdict = follow.on_view(seen(START[0], START[1], ["aja"], START[3]))
    assert verdict.question is not None and verdict.question.kind == "unexpected"


def test_answering_a_location_nobody_asked_about_is_refused() -> None:
    follow = table()
    with pytest.raises(ValueError, match="nobody asked what is on top of Mars"):
        follow.on_tell(M, Seen(2, "nero"))


@pytest.mark.parametrize(("top", "face_down", "depth", "says"), [
    ("quietus", True, None, "named and face down"),
    (None, False, 2, "an empty location holds no cards"),
    ("quietus", False, 0, "a count of 0 cards"),
    ("quietus", False, 41, "a count of 41 cards"),
])
def test_an_impossible_answer_is_refused(top: str | None, face_down: bool, depth: int | None,
                                         says: str) -> None:
    with pytest.raises(ValueError, match=says):
        location_answer(table().game.state, L, top, face_down=face_down, depth=depth)


def test_the_count_follows_from_the_game_when_the_table_gives_none() -> None:
    state = table().game.state
    assert location_answer(state, L, "aja") == Seen(1, "aja")  # darrow was taken off it
    assert location_answer(state, L, face_down=True) == Seen(3, None, True)
    assert location_answer(state, L) == Seen(0)


# --- counts one off while the top card is right (the camera path's usual misreading) ---


def test_a_face_down_top_gone_is_a_change_though_the_count_stays() -> None:
    # Luna's top card lies face down; Ann gains it. The camera names the card under it
    # but counts Luna as before (one too many): the face-down top turned into a named
    # one is the change, and the rules decide the move without a question.
    follow = table()
    follow.game.play(SetLocation(L, ("aja", "darrow", None), (False, False, True)))
    follow.tracker.settle(len(follow.game.log))
    luna = Seen(3, "darrow")  # truly two cards: the count is one off, the top right
    view = seen(START[0], [*START[1], "morning-star"], START[2], START[3])
    verdict = follow.on_view((view[0], view[1], luna, view[3]))
    assert verdict.play == (Lead("morning-star", M), GainFrom(L))
    assert follow.tracker.question is None and follow.questions == 0
    assert [s.card for s in follow.game.state.stack_at(L)] == ["aja", "darrow"]


def test_one_stack_miscounted_never_hides_a_card_taken_from_under_another() -> None:
    # Jupiter reads a card too many (its top right) while Stained goes onto Mars; then a
    # card leaves from under Stained, seen only as Mars one card shorter. Taking
    # Jupiter's count as off must not let Mars's change pass as a miscount too: the
    # table is asked which covered card left, as with every count exact.
    follow = table()
    mars = [*START[1], "stained"]
    deep = Seen(3, "sevro")  # Jupiter holds two
    first = seen(START[0], mars, START[2], START[3])
    follow.on_view((deep, *first[1:]))  # type: ignore[arg-type]
    verdict = follow.on_view(seen(START[0], ["nero", "stained"], START[2], START[3]))
    question = verdict.question
    assert question is not None and question.kind == COVERED_CARD
    assert "Nothing happened" in question.texts() and follow.questions == 1


def test_a_face_down_stack_read_a_card_deep_after_it_was_unread_invents_no_move() -> None:
    # Luna's top lies face down and the camera cannot read Luna while Ann deploys to Mars
    # and gains Jupiter's top; then it reads Luna one card too deep. Nothing names a card
    # put there unseen: the count is off, the face-down top is right, and nothing is
    # inferred at Luna (no Scout nobody saw, no question).
    follow = table()
    follow.game.play(SetLocation(L, ("aja", "darrow", None), (False, False, True)))
    follow.tracker.settle(len(follow.game.log))
    view = seen(START[0][:1], [*START[1], "morning-star"], START[2], START[3])
    follow.on_view(unread(view, L))
    verdict = follow.on_view((view[0], view[1], Seen(4, None, face_down=True), view[3]))
    played = [e for e in follow.game.log[-2:]]
    assert played == [Lead("morning-star", M), GainFrom(J)] and verdict.question is None
    assert follow.questions == 0 and len(follow.game.state.stack_at(L)) == 3


def test_an_undo_at_the_table_past_the_settled_point_explains_the_view_again() -> None:
    # The table takes back Ann's gain (settled: her turn ended) with UNDO on the page.
    # The next view crashed the tracker (its settled point lay past the log's end); now
    # the table as it lies is explained again from where the undo left the game.
    follow = table()
    follow.on_view(seen(START[0], START[1] + ["morning-star"], START[2], START[3]))
    after = seen(START[0][:1], START[1] + ["morning-star"], START[2], START[3])
    follow.on_view(after)
    assert follow.game.log[-1] == GainFrom(J)
    follow.game.undo()
    verdict = follow.on_view(after)
    assert verdict.play == (GainFrom(J),)
    assert follow.game.state.current == 1


def test_a_move_the_table_takes_back_is_never_read_again_from_where_it_was_played() -> None:
    # Ann's card on Mars was read as her deploy; the table took it back (UNDO: "that is
    # not what happened"). Explained again, the same view gives the next reading (a Scout
    # that placed it), not the deploy again.
    follow = table()
    view = seen(START[0], START[1] + ["morning-star"], START[2], START[3])
    follow.on_view(view)
    before = len(follow.game.log) - 1
    assert follow.game.log[-1] == Lead("morning-star", M)
    verdict = follow.take_back(before)
    assert verdict.play == (Scout(), Place(M, "morning-star"))
    assert follow.tracker.refuted == [(follow.game.states[before], Lead("morning-star", M))]


def test_a_take_back_keeps_the_settled_point_and_the_views_and_withdraws_the_question(
) -> None:
    # What the tracker read is taken back, not what it saw: the views since the settled
    # point are explained again from there (a frame gap among them still counts), and a
    # question it had open about them is withdrawn.
    follow = table()
    view = seen(START[0], START[1] + ["morning-star"], START[2], START[3])
    follow.on_view(view)
    tracker = follow.tracker
    anchor = tracker.anchor
    tracker.question = location_question(L)
    follow.game.undo()  # the table's UNDO, before anything explains the view again
    assert tracker._taken_back(follow.game)
    assert (tracker.anchor, tracker.evidence, tracker.played) == (anchor, [view], [])
    assert tracker.question is None


def test_only_the_latest_refuted_moves_are_kept() -> None:
    follow = table()
    follow.on_view(seen(START[0], START[1] + ["morning-star"], START[2], START[3]))
    old = [(follow.game.states[0], Lead(f"card-{k}", M)) for k in range(REFUTED_KEPT)]
    follow.tracker.refuted = list(old)
    before = len(follow.game.log) - 1
    follow.take_back(before)
    assert follow.tracker.refuted == [*old[1:],
                                      (follow.game.states[before], Lead("morning-star", M))]


def test_a_take_back_to_no_game_or_past_the_log_is_refused_and_changes_nothing() -> None:
    follow = table()
    follow.on_view(seen(START[0], START[1] + ["morning-star"], START[2], START[3]))
    log = list(follow.game.log)
    for length in (0, len(log) + 1):
        with pytest.raises(IllegalActionError, match="cannot take the game back"):
            follow.take_back(length)
        assert list(follow.game.log) == log


def test_an_undo_of_the_tables_own_answer_refutes_nothing() -> None:
    # Only the tracker's own readings are refuted by an undo: an answer the table gave
    # (here a gain answered on the phone) is simply taken back, as UNDO always did.
    follow = table()
    follow.on_view(seen(START[0], START[1] + ["morning-star"], START[2], START[3]))
    follow.on_event(GainFrom(L))
    follow.take_back(len(follow.game.log) - 1)
    assert follow.tracker.refuted == []


def test_a_view_whose_work_runs_out_with_a_location_unread_waits_to_ask_there() -> None:
    # Two deploys and a gain seen at once with Luna unread: a tracker allowed only 30
    # engine applications runs out having found part-way readings. Offered as "a change
    # nobody expected", they were guesses (as filmed on terrazzo, where empty places
    # read unread, they sent 5-player seed 4 astray); a move where the camera cannot read
    # may be what the search could not reach, so the table is asked there instead.
    seats = [SeatSpec("Ann", House.MARS), SeatSpec("Bo", House.DIANA)]
    follow = Follow(Game(tracked_game(seats, START, first=0), rng=random.Random(4)),
                    tracker=Tracker(work=30))
    view = seen(START[0][:1], START[1] + ["morning-star", "quietus"], START[2], START[3])
    verdict = follow.on_view(unread(view, L))
    assert verdict.question is None and verdict.play == ()
    assert follow.tracker.blind == {L}


@pytest.mark.parametrize(("evidence", "left"), [
    # DIE pressed before the camera saw the deploy: that press is the roll's; the next
    # player's card and their own DIE are left for after it.
    (("die", "deploy", "next", "die"), ("next", "die")),
    # The views first, the roll's press after the next player's card (a hand lifted
    # late): the first DIE is the roll's all the same, the second the next player's.
    (("deploy", "next", "die", "die"), ("next", "die")),
    (("deploy", "next", "die"), ("next",)),
])
def test_what_a_roll_leaves_unexplained_keeps_every_press_but_the_rolls_own(
        evidence: tuple[str, ...], left: tuple[str, ...]) -> None:
    follow = table()
    items = {"die": Button.DIE,
             "deploy": seen(START[0], START[1] + ["morning-star"], START[2], START[3]),
             "next": seen(START[0], START[1] + ["morning-star"], START[2] + ["quietus"],
                          START[3])}
    tracker = Tracker(evidence=[items[e] for e in evidence])
    rest = tracker._beyond(follow.game.state, (Lead("morning-star", M), DrawFromDeck()))
    assert rest == [items[e] for e in left]
