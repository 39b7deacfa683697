"""The camera's contract (engine/tracking/view.py): how a view compares with the engine's
stacks, the corrections it implies, the table's answer to a location question, and which
views of a change lie on the way from its start to its end."""

from __future__ import annotations

import random

import pytest

from engine.board import House, Location
from engine.errors import IllegalActionError
from engine.events import Pile, SeatSpec, SetLocation
from engine.game import Game
from engine.setup import tracked_game
from engine.state import GameState, Slot
from engine.tracking import (
    BACK,
    MAX_TOLD_DEPTH,
    UNEXPECTED,
    UNREAD,
    Button,
    Follow,
    Seen,
    TableView,
    Unread,
    location_answer,
    mismatch,
    view_of,
)
from engine.tracking.view import (
    ahead,
    as_evidence,
    corrections_for,
    count_off,
    halfway,
    replaced_later,
    strips_agree,
    top_named,
    unread_at,
    unsure_at,
    unsure_in,
    with_seen,
    without_halfway_views,
)

J, M, L, INST = Location.JUPITER, Location.MARS, Location.LUNA, Location.INSTITUTE


def table(*stacks: list[str | None]) -> GameState:
    """The engine's four stacks, oldest card first; ``"x*"`` lies face down."""
    return GameState(locations=tuple(
        tuple(Slot(c[:-1], True) if c and c.endswith("*") else Slot(c) for c in stack)
        for stack in stacks))


def deep(n: int) -> list[str | None]:
    """A stack of ``n`` cards topped by ``"top"``."""
    return [*(f"c{i}" for i in range(n - 1)), "top"]


def view(*seen: Seen | Unread) -> TableView:
    return (seen[0], seen[1], seen[2], seen[3])


EMPTY = Seen(0)

# --- view_of and mismatch: a perfect camera, and how far a view is from the engine ---


def test_a_perfect_camera_names_face_up_tops_and_counts_every_stack() -> None:
    state = table(["aja", "darrow"], [], ["eo", "nero*"], [None])
    assert view_of(state) == (Seen(2, "darrow"), EMPTY, Seen(2, None, True), Seen(1))


def test_mismatch_adds_each_stack_count_off_and_each_wrong_top() -> None:
    state = table(["aja", "darrow"], ["eo"], ["nero*"], ["lorn", "sevro"])
    assert mismatch(state, view_of(state)) == 0
    # Jupiter three short, Mars one long, Luna a face-up card where one lies face down,
    # The Institute another top: 3 + 1 + 1 + 1.
    wrong = view(EMPTY, Seen(2, "eo"), Seen(1, "nero"), Seen(2, "mustang"))
    assert mismatch(state, view(Seen(5, "darrow"), *wrong[1:])) == 6


def test_mismatch_ignores_every_unread_location_and_still_reads_those_after_it() -> None:
    state = table(["aja"], ["eo"], ["nero"], ["lorn"])
    assert mismatch(state, view(UNREAD, UNREAD, Seen(1, "nero"), Seen(3, "lorn"))) == 2


def test_an_unnamed_top_on_either_side_agrees_with_any_card() -> None:
    state = table(["aja"], [None], [], [])
    assert mismatch(state, view(Seen(1), Seen(1, "eo"), EMPTY, EMPTY)) == 0
    assert mismatch(state, view(Seen(1, None, True), Seen(1, "eo", True), EMPTY, EMPTY)) == 2


def test_with_slack_a_count_off_is_no_disagreement_while_the_top_is_the_engines() -> None:
    state = table(["aja", "darrow", "sevro"], ["eo", "nero*"], [], [])
    for depth in (2, 4):
        assert mismatch(state, view(Seen(depth, "sevro"), Seen(2, None, True), EMPTY, EMPTY),
                        1) == 0
    assert mismatch(state, view(Seen(2, "sevro"), Seen(2, None, True), EMPTY, EMPTY)) == 1
    assert mismatch(state, view(Seen(3, "sevro"), Seen(1, None, True), EMPTY, EMPTY), 1) == 0
    assert mismatch(state, view(Seen(1, "sevro"), *view_of(state)[1:]), 1) == 2  # two off
    assert mismatch(state, view(Seen(1, "sevro"), *view_of(state)[1:]), 2) == 0


def test_slack_never_excuses_a_count_off_without_the_engines_top() -> None:
    state = table(["aja", "darrow"], ["eo", "nero*"], [], [])
    assert mismatch(state, view(Seen(3, "quietus"), *view_of(state)[1:]), 1) == 1
    assert mismatch(state, view(Seen(3), *view_of(state)[1:]), 1) == 1  # top not named
    assert mismatch(state, view(Seen(3, "darrow", True), *view_of(state)[1:]), 1) == 1
    # A face-down top read as a named card: the count off is not excused, and costs 1.
    assert mismatch(state, view(view_of(state)[0], Seen(3, "nero"), EMPTY, EMPTY), 1) == 1
    assert mismatch(state, view(*view_of(state)[:2], Seen(1, "aja"), EMPTY), 1) == 1  # empty
    told = Seen(3, "darrow", told=True)  # the table's count is no camera's misreading
    assert mismatch(state, view(told, *view_of(state)[1:]), 1) == 1
    # Two off with another top named: the count is off, not only the top.
    assert mismatch(state, view(Seen(4, "quietus"), *view_of(state)[1:]), 2) == 2


def test_slack_needs_a_card_named_on_the_engines_own_named_top() -> None:
    state = table(["aja", None], [], [], [])  # nobody has identified Jupiter's top
    for seen in (Seen(3, "eo"), Seen(3)):
        assert mismatch(state, view(seen, EMPTY, EMPTY, EMPTY), 1) == 1
        assert mismatch(state, view(Seen(2, seen.top), EMPTY, EMPTY, EMPTY), 1) == 0


def test_the_tracker_takes_a_count_two_off_under_the_engines_top_as_no_change() -> None:
    # Jupiter holds lorn under sevro; the camera names sevro on top (see DEPTH_SLACK).
    start = [["lorn", "sevro"], ["eo", "nero"], ["aja", "darrow"], ["trigg", "mustang"]]
    seats = [SeatSpec("Ann", House.MARS), SeatSpec("Bo", House.DIANA)]
    for depth, asked in ((4, None), (5, UNEXPECTED)):
        follow = Follow(Game(tracked_game(seats, start, first=0), rng=random.Random(4)))
        verdict = follow.on_view(with_seen(view_of(follow.game.state), J, Seen(depth, "sevro")))
        assert verdict.play == ()
        assert (verdict.question and verdict.question.kind) == asked, depth


def test_a_deep_stack_may_read_short_by_one_more_card_every_two_past_fourteen() -> None:
    for cards, short, off in ((18, 3, 0), (18, 4, 4), (17, 2, 0), (17, 3, 3), (16, 2, 0),
                              (16, 3, 3), (15, 1, 0), (15, 2, 2), (5, 1, 0), (5, 2, 2)):
        state = table(deep(cards), [], [], [])
        assert mismatch(state, view(Seen(cards - short, "top"), EMPTY, EMPTY, EMPTY), 1) == off
    state = table(deep(18), [], [], [])
    assert mismatch(state, view(Seen(15, "top"), EMPTY, EMPTY, EMPTY)) == 3  # no slack
    assert mismatch(state, view(Seen(20, "top"), EMPTY, EMPTY, EMPTY), 1) == 2  # long: no


# --- count_off: the counts, a deep stack read short excepted ---


def test_count_off_adds_how_far_each_read_count_is_from_the_engines() -> None:
    state = table(["aja", "darrow"], ["eo"], ["nero"], [])
    assert count_off(state, view(Seen(4), Seen(0), UNREAD, Seen(1, "x"))) == 4
    assert count_off(state, view_of(state)) == 0


def test_count_off_takes_a_deep_stack_read_as_short_as_such_stacks_read_as_right() -> None:
    for cards, read, off in ((15, 14, 0), (15, 13, 2), (14, 13, 1), (16, 14, 0), (16, 13, 3),
                             (17, 15, 0), (17, 14, 3), (18, 15, 0), (18, 14, 4), (18, 19, 1)):
        state = table(deep(cards), [], [], [])
        assert count_off(state, view(Seen(read), EMPTY, EMPTY, EMPTY)) == off, (cards, read)


def test_a_count_at_the_cameras_reach_does_not_rule_out_a_whole_location_more() -> None:
    """A stack read as 16 cards or more may hold a whole location's cards more (a
    28-card Institute read as 17); a few cards more is still a count off, and so is
    any stack read short of the reach."""
    for cards, read, off in ((28, 17, 0), (20, 16, 0), (19, 16, 3), (19, 15, 4), (24, 15, 9)):
        state = table(deep(cards), [], [], [])
        assert mismatch(state, view(Seen(read, "top"), EMPTY, EMPTY, EMPTY)) == off, (
            cards, read)
    for cards, read, off in ((28, 17, 0), (27, 16, 0), (24, 15, 9), (23, 15, 8)):
        state = table(deep(cards), [], [], [])
        assert count_off(state, view(Seen(read, "top"), EMPTY, EMPTY, EMPTY)) == off, (
            cards, read)
    state = table(deep(28), [], [], [])
    assert mismatch(state, view(Seen(17, "other"), EMPTY, EMPTY, EMPTY)) > 0  # its top
    assert count_off(state, view(Seen(17, "top", told=True), EMPTY, EMPTY, EMPTY)) == 11


# --- strips_agree ---


def test_a_strip_nobody_could_name_does_not_excuse_a_wrong_strip_above_it() -> None:
    state = table([], [], ["aja", "darrow", "eo", "nero"], [])
    seen = Seen(4, "nero", under=(None, "darrow", "sevro"))
    assert not strips_agree(state, view(EMPTY, EMPTY, seen, EMPTY))
    assert strips_agree(state, view(EMPTY, EMPTY, Seen(4, "nero", under=(None, "darrow", "eo")),
                                    EMPTY))
    assert not strips_agree(state, view(EMPTY, EMPTY, Seen(4, "nero", under=(None, BACK, "eo")),
                                        EMPTY))


def test_strips_are_read_at_every_location_and_an_unread_one_says_nothing() -> None:
    state = table(["lorn", "sevro"], [], [], ["trigg", "mustang"])
    good = Seen(2, "sevro", under=("lorn",))
    assert strips_agree(state, view(good, UNREAD, Seen(3, "x"), Seen(2, "mustang")))
    assert not strips_agree(state, view(good, UNREAD, EMPTY, Seen(2, "mustang", under=("x",))))


# --- location_answer: the table's answer, as the camera would have seen it ---


def test_the_table_naming_a_card_face_down_is_refused_with_the_printed_rule() -> None:
    with pytest.raises(IllegalActionError) as refused:
        location_answer(table([], [], [], []), L, "aja", face_down=True)
    assert str(refused.value) == "a card cannot be named and face down at once [tracker]"
    assert refused.value.rule == "tracker"


def test_an_empty_location_is_a_count_of_nothing_and_any_other_count_is_refused() -> None:
    state = table([], [], ["aja"], [])
    assert location_answer(state, L, depth=0) == EMPTY
    with pytest.raises(IllegalActionError) as refused:
        location_answer(state, L, depth=1)
    assert str(refused.value) == "an empty location holds no cards, not 1 [tracker]"
    assert refused.value.rule == "tracker"


@pytest.mark.parametrize("depth", [0, MAX_TOLD_DEPTH + 1])
def test_a_count_out_of_reach_is_refused_with_the_printed_rule(depth: int) -> None:
    with pytest.raises(IllegalActionError) as refused:
        location_answer(table([], [], [], []), L, "aja", depth=depth)
    assert str(refused.value) == (f"a count of {depth} cards is not possible here "
                                  f"(1 to 40) [tracker]")
    assert refused.value.rule == "tracker"


def test_a_count_up_to_forty_is_taken_as_told() -> None:
    state = table([], [], [], [])
    assert location_answer(state, L, "aja", depth=40) == Seen(40, "aja")
    assert location_answer(state, L, face_down=True, depth=1) == Seen(1, None, True)


def test_face_down_on_a_face_down_top_is_that_card_and_on_anything_else_one_more() -> None:
    state = table(["aja", "darrow", "eo*"], ["aja*", "darrow"], [], ["aja*", "darrow*"])
    assert location_answer(state, J, face_down=True) == Seen(3, None, True)
    assert location_answer(state, M, face_down=True) == Seen(3, None, True)
    assert location_answer(state, L, face_down=True) == Seen(1, None, True)
    assert location_answer(state, INST, face_down=True) == Seen(2, None, True)


def test_a_card_named_is_where_it_lies_in_the_stack_or_one_more_on_top() -> None:
    state = table(["aja", "darrow", "eo"], [], [], [])
    assert location_answer(state, J, "aja") == Seen(1, "aja")
    assert location_answer(state, J, "eo") == Seen(3, "eo")
    assert location_answer(state, J, "nero") == Seen(4, "nero")
    assert location_answer(state, J, "nero", depth=2) == Seen(2, "nero")


# --- corrections_for ---


def test_corrections_set_each_stack_read_otherwise_and_skip_the_unread() -> None:
    state = table(["aja", "darrow"], ["eo"], [], ["lorn", "sevro"])
    fixes = corrections_for(state, view(UNREAD, Seen(1, "eo"), EMPTY, Seen(2, "mustang")))
    assert fixes == (SetLocation(INST, ("lorn", "mustang"), (False, False),
                                 removed_to=Pile.BANISHED),)


def test_an_unnamed_top_keeps_the_engines_card_and_a_count_adds_unknown_cards() -> None:
    state = table(["aja", "darrow"], [], [], [])
    assert corrections_for(state, view(Seen(2), EMPTY, EMPTY, EMPTY)) == ()
    assert corrections_for(state, view(Seen(4, None, True), EMPTY, EMPTY, EMPTY)) == (
        SetLocation(J, ("aja", "darrow", None, None), (False, False, False, True)),)
    assert corrections_for(state, view(Seen(1, "eo"), EMPTY, EMPTY, EMPTY)) == (
        SetLocation(J, ("eo",), (False,)),)


def test_a_stack_read_empty_is_cleared_without_flags() -> None:
    state = table(["aja", "darrow"], [], [], [])
    fixes = corrections_for(state, view(EMPTY, EMPTY, EMPTY, EMPTY))
    assert fixes == (SetLocation(J, (), ()),)


# --- small views ---


def test_top_named_unread_at_and_unsure_at() -> None:
    told = Seen(2, "eo", told=True)
    now = view(Seen(1, "aja"), UNREAD, told, Unread(overdue=True))
    assert [top_named(s) for s in now] == ["aja", None, "eo", None]
    assert unread_at(now) == {M, INST}
    assert unsure_at(now) == {M, L, INST}
    assert unread_at(view(EMPTY, EMPTY, EMPTY, EMPTY)) == frozenset()


def test_unsure_in_is_every_location_some_view_did_not_read() -> None:
    a = view(UNREAD, EMPTY, EMPTY, EMPTY)
    b = view(EMPTY, EMPTY, Seen(1, "eo", told=True), EMPTY)
    assert unsure_in((a, Button.NEXT, b)) == {J, L}
    assert unsure_in((Button.DIE,)) == frozenset()


def test_as_evidence_forgets_how_long_a_location_was_unread() -> None:
    now = view(Unread(overdue=True), Seen(1, "aja"), UNREAD, EMPTY)
    assert as_evidence(now) == (Unread(), Seen(1, "aja"), Unread(), EMPTY)
    assert as_evidence(now)[0] == Unread(overdue=False)


def test_with_seen_replaces_one_location() -> None:
    now = view(EMPTY, EMPTY, EMPTY, EMPTY)
    assert with_seen(now, L, UNREAD) == (EMPTY, EMPTY, UNREAD, EMPTY)


# --- ahead: an unread location taken from the next view that shows it ---


def test_ahead_takes_the_next_view_naming_a_top_or_an_empty_location() -> None:
    now = view(UNREAD, Seen(1, "aja"), UNREAD, UNREAD)
    later = (view(UNREAD, EMPTY, UNREAD, UNREAD), Button.NEXT,
             view(Seen(2, "eo"), EMPTY, EMPTY, UNREAD),
             view(Seen(3, "nero"), EMPTY, Seen(1, "x"), Seen(4, "y")))
    assert ahead(now, later) == (Seen(2, "eo"), Seen(1, "aja"), EMPTY, Seen(4, "y"))


def test_ahead_takes_what_the_table_told_but_not_a_bare_count() -> None:
    now = view(UNREAD, UNREAD, UNREAD, EMPTY)
    told = Seen(3, None, True, told=True)
    later = (view(Seen(3, None, True), Seen(2), told, EMPTY),
             view(Seen(2, "eo"), Seen(2, "aja"), Seen(1, "x"), EMPTY))
    # Jupiter and Mars: the next view that reads them shows no top, so they stay unread.
    assert ahead(now, later) == (UNREAD, UNREAD, told, EMPTY)
    assert ahead(now, ()) == now


def test_replaced_later_another_top_at_the_same_count_where_the_view_was_blind() -> None:
    now = view(Seen(2, "aja"), Seen(1, "eo"), EMPTY, EMPTY)
    blind = view(UNREAD, Seen(1, "eo"), EMPTY, EMPTY)
    assert replaced_later(now, blind, view(Seen(2, "darrow"), *now[1:]))
    assert replaced_later(now, blind, view(Seen(2, None, True), *now[1:]))
    assert not replaced_later(now, blind, view(Seen(3, "darrow"), *now[1:]))  # put on it
    assert not replaced_later(now, blind, now)
    assert not replaced_later(now, now, view(Seen(2, "darrow"), *now[1:]))  # it was read
    assert not replaced_later(now, blind, view(UNREAD, *now[1:]))


# --- halfway and without_halfway_views ---

A = view(Seen(2, "aja"), Seen(1, "eo"), EMPTY, EMPTY)
B = view(Seen(4, "nero"), Seen(1, "eo"), EMPTY, EMPTY)


def at_jupiter(seen: Seen | Unread, rest: TableView = A) -> TableView:
    return with_seen(rest, J, seen)


def test_a_view_between_the_counts_with_a_top_of_either_end_is_on_the_way() -> None:
    for seen in (Seen(2, "aja"), Seen(4, "nero"), Seen(2), UNREAD):
        assert halfway(at_jupiter(seen), A, B)
    assert halfway(A, at_jupiter(UNREAD), B)
    assert halfway(A, A, at_jupiter(UNREAD))


def test_a_count_outside_both_ends_is_off_the_way() -> None:
    assert not halfway(at_jupiter(Seen(5, "nero")), A, B)
    assert not halfway(at_jupiter(Seen(1, "aja")), A, B)
    assert not halfway(at_jupiter(Seen(1, "aja")), B, A)


def test_while_growing_by_two_any_top_may_lie_in_between_but_not_at_either_end() -> None:
    for seen in (Seen(3, "quietus"), Seen(3, None, True)):
        assert halfway(at_jupiter(seen), A, B)
        assert not halfway(at_jupiter(seen), B, A)  # shrinking: no card put down
    assert not halfway(at_jupiter(Seen(2, "quietus")), A, B)
    assert not halfway(at_jupiter(Seen(4, "quietus")), A, B)
    assert not halfway(at_jupiter(Seen(2, None, True)), A, B)
    # Covered on the way at Jupiter, but Mars is off the way.
    assert not halfway(with_seen(at_jupiter(Seen(3, "quietus")), M, Seen(3, "x")), A, B)


def test_a_face_down_card_is_on_the_way_only_where_one_end_has_one() -> None:
    down = at_jupiter(Seen(4, None, True))
    assert halfway(down, A, down)
    assert halfway(down, down, A)
    assert not halfway(at_jupiter(Seen(4, None, True)), A, B)


def test_with_slack_a_named_top_may_be_counted_one_off_the_ends() -> None:
    for depth in (1, 2, 4, 5):
        assert halfway(at_jupiter(Seen(depth, "nero")), A, B, 1), depth
    for depth in (0, 6):
        assert not halfway(at_jupiter(Seen(depth, "nero")), A, B, 1), depth
    assert not halfway(at_jupiter(Seen(5, "nero")), A, B)  # no slack unless given
    assert not halfway(at_jupiter(Seen(5)), A, B, 1)  # an unnamed top: no slack
    assert not halfway(at_jupiter(Seen(5, None, True)), A, at_jupiter(Seen(4, None, True)), 1)


def test_uncovering_a_stack_may_show_it_one_card_lower_than_both_ends() -> None:
    turned = at_jupiter(Seen(2, "nero"))
    lower = at_jupiter(Seen(1, "lorn"))
    assert halfway(lower, A, turned, uncovering=True)
    assert not halfway(lower, A, turned)  # only when asked
    assert not halfway(lower, A, A, uncovering=True)  # the top did not change
    assert not halfway(at_jupiter(Seen(0)), A, turned, uncovering=True)  # two lower
    # Uncovered at Jupiter, but Mars is off the way.
    assert not halfway(with_seen(lower, M, Seen(3, "x")), A, turned, uncovering=True)


START = table(["lorn", "aja"], ["eo"], [], [])  # its view is A


def test_a_view_on_the_way_to_the_last_is_dropped_and_one_off_it_stays() -> None:
    middle, stray = at_jupiter(Seen(3, "aja")), at_jupiter(Seen(3, "quietus"), A)
    last = at_jupiter(Seen(3, "nero"))
    assert without_halfway_views(START, (middle, last)) == (last,)
    assert without_halfway_views(START, (stray, middle, last)) == (stray, last)
    assert without_halfway_views(START, (last,)) == (last,)


def test_views_before_the_last_press_stay_as_evidence() -> None:
    middle, later = at_jupiter(Seen(3, "aja")), at_jupiter(Seen(3, "aja"))
    last = at_jupiter(Seen(3, "nero"))
    evidence = (middle, Button.DIE, later, last)
    assert without_halfway_views(START, evidence) == (middle, Button.DIE, last)
    assert without_halfway_views(START, (Button.NEXT, middle)) == (Button.NEXT, middle)


def test_without_halfway_views_lends_its_slack_to_halfway() -> None:
    counted_long = at_jupiter(Seen(4, "nero"))
    last = at_jupiter(Seen(3, "nero"))
    assert without_halfway_views(START, (counted_long, last), 1) == (last,)
    assert without_halfway_views(START, (counted_long, last)) == (counted_long, last)
