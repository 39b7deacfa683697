"""The option filling (engine/tracking/options.py): a pending decision's options, made
concrete by what the camera reads, and kept only where the table changed to fit them."""

from __future__ import annotations

from engine.abilities.primitives import Moved
from engine.automa import AutomaGain
from engine.board import Location
from engine.decisions import Decision, Kind
from engine.events import Choose, Decline, Event, GainFrom, Lead, Place, Resolve, Scout
from engine.state import GameState, Slot
from engine.steps import Step
from engine.tracking import UNREAD, Seen, TableView, Unread, view_of
from engine.tracking.options import (
    MAX_BLIND_OPTIONS,
    candidates,
    covered_by_its_ability,
    is_blind,
    names_needed,
    waits_for_table,
)
from engine.tracking.view import DEEP_STACK

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


# --- candidates: a deploy ---


def test_a_deploy_is_named_by_the_new_top_unless_that_card_was_already_on_the_table() -> None:
    state = table(["aja", "darrow"], ["eo"], [], [], options=(Lead(None, M),))
    assert candidates(state, view(Seen(2, "darrow"), Seen(2, "sevro"), EMPTY, EMPTY)) == [
        Lead("sevro", M)]
    # darrow left Jupiter for Mars: moved there, not deployed.
    assert candidates(state, view(Seen(1, "aja"), Seen(2, "darrow"), EMPTY, EMPTY)) == []
    # Grown by two: a card nobody saw deployed may lie under sevro, still to be named.
    assert candidates(state, view(Seen(2, "darrow"), Seen(3, "sevro"), EMPTY, EMPTY)) == [
        Lead("sevro", M), Lead(None, M)]


def test_an_empty_hand_skipping_its_deploy_is_tried_only_once_a_card_was_taken() -> None:
    """The skip itself is invisible; the gain that follows shows as a stack that shrank."""
    state = table(["aja"], ["eo", "nero"], [], [], options=(Lead(None, None),))
    assert candidates(state, view_of(state)) == []
    assert candidates(state, view(Seen(1, "aja"), Seen(1, "eo"), EMPTY, EMPTY)) == [
        Lead(None, None)]
    # The count reads two, but the covered eo on top means nero was taken.
    assert candidates(state, view(Seen(1, "aja"), Seen(2, "eo"), EMPTY, EMPTY)) == [
        Lead(None, None)]


def test_a_deploy_where_the_camera_could_not_read_may_have_moved_its_card_elsewhere() -> None:
    """A Musician deployed on Mars unseen, moved to Jupiter by her ability: Mars reads as
    before. A card already on the table new on top elsewhere (darrow, from Luna to the
    Institute) was only moved."""
    state = table(["aja"], ["eo"], ["darrow"], [], options=(Lead(None, M),))
    now = view(Seen(2, "musician"), Seen(1, "eo"), EMPTY, Seen(1, "darrow"))
    assert candidates(state, now, unseen=frozenset({M})) == [
        Lead(None, M),  # or gone by her own ability: only the table can name her
        Lead("musician", M),
    ]


# --- candidates: a card placed ---


def test_the_dies_card_carried_off_at_once_is_named_where_a_stack_grew_by_three() -> None:
    """Placed on Mars, then Mars's two cards and it moved onto Jupiter (The Telemanuses):
    one card more than a deploy and a count one off make."""
    state = table(["aja"], ["eo", "nero"], [], [], options=(Place(M),))
    carried = view(Seen(4, "sevro"), EMPTY, EMPTY, EMPTY)
    assert candidates(state, carried) == [Place(M), Place(M, "sevro")]
    assert candidates(state, view(Seen(3, "sevro"), EMPTY, EMPTY, EMPTY)) == [Place(M)]


def test_a_placed_card_covered_at_once_unseen_is_tried_only_when_asked_for() -> None:
    """The last resort (Tracker._covered_places): by default the top names the card."""
    state = table([], ["eo"], [], [], options=(Place(M),))
    now = view(EMPTY, Seen(3, "sevro"), EMPTY, EMPTY)
    unseen = frozenset({M})
    assert candidates(state, now, unseen=unseen) == [Place(M, "sevro")]
    assert candidates(state, now, unseen=unseen, covered=True) == [Place(M, "sevro"), Place(M)]


# --- candidates: what the camera cannot read or see ---


def test_a_move_only_where_the_camera_cannot_read_is_never_inferred() -> None:
    now = view(UNREAD, UNREAD, Seen(1, "x"), EMPTY)  # Jupiter and Mars unread
    moves = (Moved(J, None), Moved(None, M), Moved(J, M), Moved(J, L), Moved(None, L))
    state = table(["aja"], ["eo"], [], [], options=moves)
    assert candidates(state, now) == [Moved(J, L, "x"), Moved(None, L, "x")]
    gains = table(["aja"], ["eo"], ["x"], [], options=(AutomaGain(J), AutomaGain(L)))
    assert candidates(gains, now) == [AutomaGain(L)]


def test_where_the_camera_cannot_read_a_move_is_tried_only_when_made_wild() -> None:
    """A wild location may have had cards taken as well as put."""
    state = table(["aja"], ["eo"], ["x"], [], options=(GainFrom(M), GainFrom(L)))
    now = view(Seen(1, "aja"), UNREAD, Seen(1, "x"), EMPTY)
    assert candidates(state, now) == []
    assert candidates(state, now, wild=frozenset({M})) == [GainFrom(M)]


def test_a_forced_step_is_tried_even_where_the_table_shows_nothing_of_it_yet() -> None:
    """What the table shows next tells whether it has happened."""
    state = table([], ["eo", "nero"], [], [], options=(Choose(None, M, 0),))
    assert candidates(state, view_of(state)) == [Choose(None, M, 0)]
    two = table([], ["eo", "nero"], [], [], options=(Choose(None, M, 0), Choose(None, M, 1)))
    assert candidates(two, view_of(two)) == []  # a real choice: only a change shows it


def test_a_forced_step_is_kept_where_the_camera_could_not_read() -> None:
    """Au Toma's step, made perhaps while the camera could not read there and undone
    since: later views check it."""
    automa = table(["aja"], ["eo"], [], [], options=(AutomaGain(M),))
    assert candidates(automa, view(Seen(1, "aja"), UNREAD, EMPTY, EMPTY)) == [AutomaGain(M)]
    gain = table(["aja"], ["eo"], [], [], options=(GainFrom(M),))
    assert candidates(gain, view_of(gain)) == []
    assert candidates(gain, view_of(gain), unseen=frozenset({M})) == [GainFrom(M)]


def test_a_choice_nobody_sees_is_tried_only_with_few_options() -> None:
    colours = tuple(Choose(f"colour {i}") for i in range(MAX_BLIND_OPTIONS + 1))
    answers = tuple(Resolve(i) for i in range(MAX_BLIND_OPTIONS + 1))  # the finale's
    for options in (colours, answers):
        few = table([], [], [], [], options=options[:-1])
        assert candidates(few, view_of(few)) == list(options[:-1])
        many = table([], [], [], [], options=options)
        assert candidates(many, view_of(many)) == []


def test_a_card_new_on_a_deep_stack_was_put_there_whatever_the_count_reads() -> None:
    """A stack of DEEP_STACK cards or more may read short: a card new on its top at the
    same count may be a card more (turned over and placed there, say)."""
    deep = [f"c{i}" for i in range(DEEP_STACK)]
    state = table(deep, [], [], [], options=(Scout(), Lead(None, J)), kind=Kind.TURN)
    assert candidates(state, view(Seen(DEEP_STACK, "sevro"), EMPTY, EMPTY, EMPTY)) == [
        Scout(), Lead("sevro", J)]
    shallower = table(deep[1:], [], [], [], options=(Scout(), Lead(None, J)), kind=Kind.TURN)
    now = view(Seen(DEEP_STACK - 1, "sevro"), EMPTY, EMPTY, EMPTY)
    assert candidates(shallower, now) == [Lead("sevro", J)]  # another top, not a card more


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
