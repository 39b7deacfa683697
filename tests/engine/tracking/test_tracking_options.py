"""The option filling (engine/tracking/options.py): a pending decision's options, made
concrete by what the camera reads, and kept only where the table changed to fit them."""

from __future__ import annotations

from engine.abilities.primitives import Moved
from engine.board import Location
from engine.decisions import Decision, Kind
from engine.events import Choose, Decline, Event, Lead, Scout
from engine.state import GameState, Slot
from engine.steps import Step
from engine.tracking import Seen, TableView, Unread, view_of
from engine.tracking.options import (
    candidates,
    covered_by_its_ability,
    is_blind,
    names_needed,
    waits_for_table,
)

J, M, L = Location.JUPITER, Location.MARS, Location.LUNA
EMPTY = Seen(0)


def table(*stacks: list[str], options: tuple[Event, ...] = (), kind: Kind = Kind.CHOOSE,
          player: int | None = 0) -> GameState:
    """The engine's four stacks, oldest card first, waiting on a choice among ``options``
    (``player`` None: chance)."""
    pending = Decision(kind, player, "", options, Step("test", 0)) if options else None
    return GameState(locations=tuple(tuple(Slot(c) for c in stack) for stack in stacks),
                     pending=pending)


def view(*seen: Seen | Unread) -> TableView:
    return (seen[0], seen[1], seen[2], seen[3])


# --- covered_by_its_ability ---


def test_a_deploy_covered_at_once_by_a_card_from_elsewhere_only_where_unseen() -> None:
    """Masseuse deployed at Mars unseen, Jupiter's top moved onto her: Mars grew by two
    under darrow, whom the engine holds on Jupiter."""
    state = table(["aja", "darrow"], ["eo"], [], [])
    now = view(Seen(1, "aja"), Seen(3, "darrow"), EMPTY, EMPTY)
    nobody = Lead(None, M)
    assert covered_by_its_ability(nobody, state, now, frozenset({M}))
    assert not covered_by_its_ability(nobody, state, now, frozenset({J}))  # seen growing
    assert not covered_by_its_ability(Lead("masseuse", M), state, now, frozenset({M}))
    grown_by_one = table(["aja", "darrow"], ["eo", "nero"], [], [])
    assert not covered_by_its_ability(nobody, grown_by_one, now, frozenset({M}))


# --- a card an ability moves, named by the camera where it lands face up on top ---


def test_a_moved_card_landing_on_top_is_named_by_the_camera_and_no_other_is() -> None:
    now = view(Seen(1, "aja"), Seen(2, "eo"), Seen(1), EMPTY)
    named = [Moved(J, M), Moved(J, M, "darrow"), Moved(J, M, under=True), Moved(J, None),
             Moved(J, L)]
    state = table(["aja", "darrow"], ["nero"], ["x"], [], options=tuple(named))
    assert candidates(state, now) == [
        Moved(J, M, "eo"),  # the camera names what landed face up on top
        Moved(J, M, "darrow"),  # already known: kept
        Moved(J, M, under=True),  # slid under the top: the camera cannot name it
        Moved(J, None),  # to a hand: off the table
        Moved(J, L),  # Luna's top not named
    ]


# --- a choice of a card on the table ---


def test_a_card_put_down_on_top_is_named_by_the_camera_and_one_in_a_stack_is_not() -> None:
    options = (Choose(None, M), Choose(None, M, 0), Choose(None, L), Choose("red"))
    state = table(["aja"], ["eo"], ["x"], [], options=options)
    now = view(Seen(1, "aja"), Seen(2, "nero"), Seen(1, "x"), EMPTY)
    assert candidates(state, now) == [
        Choose("nero", M),  # put down on top where the table changed: named
        Choose(None, M, 0),  # already in the stack: the camera cannot name it now
        Choose("red"),  # Luna did not change; a choice off the table is always tried
    ]


# --- waits_for_table ---


def test_the_table_is_waited_on_only_for_a_choice_no_camera_answers() -> None:
    now = view(EMPTY, EMPTY, EMPTY, EMPTY)
    blind = (Choose("red"), Choose("blue"))
    assert waits_for_table(table([], [], [], [], options=blind), now)
    assert not waits_for_table(table([], [], [], [], options=(Lead(None, J),)), now)
    assert not waits_for_table(table([], [], [], []), now)  # nothing pending
    assert not waits_for_table(table([], [], [], [], options=blind, player=None), now)
    assert not waits_for_table(table([], [], [], [], options=(Decline(),), kind=Kind.BLOCK),
                               now)  # a block window


# --- is_blind ---


def test_a_blind_choice_has_several_answers_and_none_of_them_on_the_table() -> None:
    def asked(options: tuple[Event, ...], kind: Kind = Kind.CHOOSE,
              player: int | None = 0) -> Decision | None:
        return table([], [], [], [], options=options, kind=kind, player=player).pending

    blind = (Choose("red"), Choose("blue"))
    assert is_blind(asked(blind))
    assert not is_blind(None)
    assert not is_blind(asked(blind[:1]))  # no choice at all
    assert not is_blind(asked(blind, player=None))  # chance
    assert not is_blind(asked((Decline(), Decline()), Kind.BLOCK))
    assert not is_blind(asked((Choose(None, J, 0), Choose(None, M, 0))))  # on the table
    assert not is_blind(asked((Scout(), Decline())))  # the camera sees a card turned over


# --- names_needed ---


def test_a_covered_card_seen_taken_needs_naming_by_the_table() -> None:
    taken = (Choose(None, M, 0), Choose(None, L, 0))
    state = table([], ["eo", "nero"], ["x"], [], options=taken)
    shrunk = view(EMPTY, Seen(1, "nero"), Seen(1, "x"), EMPTY)  # Mars's covered card gone
    assert names_needed(state, shrunk)
    assert not names_needed(state, view_of(state))  # nothing taken yet
    assert not names_needed(table([], ["eo", "nero"], ["x"], [], options=taken, player=None),
                            shrunk)  # chance
    assert not names_needed(table([], ["eo", "nero"], ["x"], []), shrunk)  # nothing pending
