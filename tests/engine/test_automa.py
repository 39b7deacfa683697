"""Au Toma's choices: each of her 22 cards worked out by hand, empty-location skipping,
the Luna bonus card, the 10-cap substitution, the odd/even card.

The helpers here (a solo position, running one of her cards) are shared by the other
``test_automa_*`` modules.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from engine import rules
from engine.automa import (
    AUTOMA_NAME,
    AutomaInputError,
    Situation,
    bonus_plan,
    capped,
    default_deck,
    gain_source,
    luna_icon,
    outcome,
    parity_of,
    parse_priorities,
    solo_card_ids,
)
from engine.automa_state import ASIDE, AutomaSetup
from engine.board import Bonus, House, Location
from engine.draft import Draft
from engine.events import Block, SeatSpec, SetSovereign, SetTokens, Setup
from engine.game import Game
from engine.handlers import STEPS
from engine.state import GameState, Slot, evolve
from engine.steps import Step

J, M, L, I = Location.JUPITER, Location.MARS, Location.LUNA, Location.INSTITUTE  # noqa: E741
HELIUM, FLEET, INFLUENCE, SOVEREIGN = Bonus.HELIUM, Bonus.FLEET, Bonus.INFLUENCE, Bonus.SOVEREIGN
HER = 1  # her seat in the positions below
PRIORITIES = (M, L, J, I)  # A on Mars, B on Luna, C on Jupiter, D on The Institute
# docs/automa.md's example: Jupiter 2 cards, Mars none, Luna 3, The Institute 1.
STACKS = (("pelus", "virga"), (), ("orion", "the-pax", "sevro"), ("darrow",))


# --- helpers shared with the other test_automa modules -------------------------------


def her_deck(*first: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Her deck starting with ``first`` (the rest in id order) and the last 4 aside."""
    order = [*first, *(i for i in range(1, 23) if i not in first)]
    return tuple(order[: 22 - ASIDE]), tuple(order[22 - ASIDE :])


def solo(
    hand: Sequence[str] = ("judge", "nero", "lorn", "cassius", "mustang"),
    her_hand: Sequence[str] = ("dancer", "harmony"),
    stacks: Sequence[Sequence[str]] = STACKS,
    *,
    cards: Sequence[int] = (),
    deck: Sequence[str] = (),
    first: int = 0,
    priorities: Sequence[Location] = PRIORITIES,
    level: int = 2,
    house: House | None = None,
    variant: bool = False,
) -> Setup:
    """A simulated solo game set up exactly as given; her deck starts with ``cards``."""
    placed = {*hand, *her_hand, *deck, *(c for s in stacks for c in s)}
    rest = [c for c in solo_card_ids(variant) if c not in placed]
    full = (*deck, *rest)
    order, aside = her_deck(*cards)
    her = AutomaSetup(level, tuple(priorities), order, aside, default_deck(), variant)
    return Setup(
        seats=(SeatSpec("Ann", house), SeatSpec(AUTOMA_NAME, None, automa=True)),
        locations=tuple(tuple(s) for s in stacks),
        hands=(tuple(hand), tuple(her_hand)),
        unknown=(0, 0),
        deck=full,
        deck_count=len(full),
        first_player=first,
        neutral_influence=3,
        total_cards=len(solo_card_ids(variant)),
        automa=her,
    )


def with_tokens(state: GameState, helium: int, influence: int, fleet: int) -> GameState:
    """Her tokens set by a correction event (as the table would fix them)."""
    return rules.apply(state, SetTokens(HER, helium, influence, fleet))


def run_steps(state: GameState, *steps: Step) -> GameState:
    """Run exactly these steps (and what they schedule) on a state; stop at a decision."""
    draft = Draft(state)
    draft.pending = None
    draft.stack = []
    draft.push(*steps)
    while draft.stack and draft.pending is None:
        s = draft.stack.pop()
        STEPS[s.name](draft, s)
    return draft.freeze()


def run_card(state: GameState) -> GameState:
    """She turns over and resolves her next card, and nothing else happens."""
    return run_steps(state, Step("automa-card", HER))


def her_turn(state: GameState) -> GameState:
    """Her whole turn from a state where another decision is pending (a test shortcut)."""
    draft = Draft(state)
    draft.pending = None
    draft.push(Step("turn", HER))
    rules.run(draft)
    return draft.freeze()


def scenario(card: int, helium: int = 3, influence: int = 10, fleet: int = 4) -> GameState:
    """docs/automa.md's example position with her next card ``card``; Ann's turn is pending."""
    state = Game(solo(cards=(card,))).state
    return with_tokens(state, helium, influence, fleet)


# --- every card, by hand --------------------------------------------------------------

# Priorities A Mars, B Luna, C Jupiter, D Institute, so the Luna card shows Jupiter
# (Luna holds B, which pairs with C). Stacks J 2, M 0, L 3, I 1. She has 3 Helium,
# all 10 Influence placed (capped) and Fleet 4. Her deploy lands before her gain, so a
# deploy to empty Mars makes Mars a place to gain from.
HAND_WORKED = {
    # card: (deploy, gain, bonuses, banish)
    1: (M, M, (HELIUM,), False),  # gain A = Mars, just filled by her deploy
    2: (J, L, (SOVEREIGN, FLEET), False),  # A = Mars is empty: right to Luna; Luna card
    3: (M, M, (), True),
    4: (L, L, (SOVEREIGN, FLEET), False),  # Mars empty, right to Luna
    5: (L, L, (SOVEREIGN, FLEET), False),
    6: (L, L, (SOVEREIGN, FLEET), False),
    7: (J, L, (SOVEREIGN, FLEET), False),
    8: (L, L, (SOVEREIGN, FLEET), False),
    9: (J, L, (), True),
    10: (L, L, (SOVEREIGN, FLEET), False),
    11: (I, J, (FLEET,), False),
    12: (M, L, (), True),
    13: (M, I, (SOVEREIGN, FLEET), False),  # Influence capped: left to Luna, + Luna card
    14: (M, M, (), False),
    15: (M, J, (), False),
    16: (L, I, (), False),
    17: (J, J, (FLEET,), False),  # Mars empty, left to Jupiter
    18: (M, J, (FLEET,), False),
    19: (L, J, (FLEET,), False),
    20: (I, I, (FLEET,), False),  # Influence capped: right, wrapping to Jupiter
    21: (J, I, (), False),
    22: (I, J, (), False),
}


def test_the_scenario_is_designs_example() -> None:
    where = Situation.of(scenario(1))
    assert where == Situation(PRIORITIES, (2, 0, 3, 1), 3, 10, 4, where.deck_count)
    assert luna_icon(PRIORITIES) is J


@pytest.mark.parametrize("card", sorted(HAND_WORKED))
def test_each_card_by_hand(card: int) -> None:
    deploy, gain, bonus, banish = HAND_WORKED[card]
    done = outcome(Situation(PRIORITIES, (2, 0, 3, 1), 3, 10, 4), default_deck()[card - 1])
    assert (done.card, done.deploy, done.gain, done.bonus, done.banish) == (
        card, deploy, gain, bonus, banish)


@pytest.mark.parametrize("card", sorted(HAND_WORKED))
def test_each_card_played_by_the_engine(card: int) -> None:
    deploy, gain, bonus, banish = HAND_WORKED[card]
    before = scenario(card)
    assert before.deck is not None
    top, second = before.deck[0], before.deck[1]
    after = run_card(before)
    her = after.players[HER]
    stacks = [list(s) for s in before.locations]
    stacks[deploy.pos].append(Slot(top))
    gained = stacks[gain.pos].pop()
    assert [list(s) for s in after.locations] == stacks
    assert her.hand.known == ("dancer", "harmony", gained.card)
    assert (her.helium - 3, her.fleet - 4) == (bonus.count(HELIUM), bonus.count(FLEET))
    assert after.sovereign == (HER if SOVEREIGN in bonus else None)
    assert after.banished == ((second,) if banish else ())
    assert after.automa is not None
    assert (after.automa.discards, after.automa.current) == ((card,), None)
    assert after.cards_in_play() == before.cards_in_play()


def test_she_may_take_back_the_card_she_just_deployed() -> None:
    before = scenario(14)  # deploy A = Mars (empty), gain Mars
    assert before.deck is not None
    after = run_card(before)
    assert after.players[HER].hand.known[-1] == before.deck[0]
    assert after.stack_at(M) == ()


# --- empty locations ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("start", "arrow", "counts", "found"),
    [
        (M, -1, (1, 0, 0, 0), J),  # left, one step
        (M, +1, (0, 0, 0, 1), I),  # right, skipping Luna
        (J, -1, (0, 0, 1, 0), L),  # left from Jupiter wraps to The Institute, then Luna
        (J, -1, (0, 0, 0, 2), I),
        (I, +1, (0, 3, 0, 0), M),  # right from The Institute wraps to Jupiter, then Mars
        (L, +1, (0, 0, 0, 0), None),  # nothing anywhere
        (L, -1, (0, 0, 4, 0), L),  # a location with cards is taken as it is
    ],
)
def test_empty_locations_are_skipped_along_the_arrow(
        start: Location, arrow: int, counts: tuple[int, ...], found: Location | None) -> None:
    assert gain_source(start, arrow, counts) is found


def test_engine_wraps_left_from_an_empty_jupiter() -> None:
    # Card 15: deploy A, gain Jupiter, arrow left, no extras. A is on The Institute and
    # every stack is empty: she deploys there, finds Jupiter empty, wraps left to The
    # Institute and takes back the card she deployed.
    state = Game(solo(stacks=((), (), (), ()), cards=(15,), priorities=(I, M, L, J))).state
    assert state.deck is not None
    after = run_card(state)
    assert after.players[HER].hand.known[-1] == state.deck[0]
    assert all(not s for s in after.locations)


def test_engine_wraps_right_from_the_institute() -> None:
    # Card 20: deploy D, gain The Institute, arrow right. D on Jupiter, only Mars has cards
    # besides: she deploys to Jupiter, skips The Institute, wraps to Jupiter and takes it.
    state = Game(solo(stacks=((), ("darrow",), (), ()), cards=(20,), priorities=(I, M, L, J),
                      hand=("judge",), her_hand=("nero", "lorn"))).state
    assert state.deck is not None
    after = run_card(state)
    assert after.players[HER].hand.known[-1] == state.deck[0]
    assert after.players[HER].fleet == 1  # Jupiter's bonus
    assert [len(s) for s in after.locations] == [0, 1, 0, 0]


# --- the Luna bonus card ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("priorities", "shown"),
    [
        ((L, M, J, I), I),  # Luna has A: the icon of D's location
        ((M, L, J, I), J),  # Luna has B: C's
        ((M, J, L, I), J),  # Luna has C: B's
        ((M, J, I, L), M),  # Luna has D: A's
    ],
)
def test_luna_card_pairing(priorities: tuple[Location, ...], shown: Location) -> None:
    assert luna_icon(priorities) is shown
    state = Game(solo(priorities=priorities)).state
    assert state.automa is not None and state.automa.luna_icon is shown
    assert bonus_plan(L, 1, shown, frozenset()) == (SOVEREIGN, shown.bonus)


@pytest.mark.parametrize(
    ("priorities", "fleet", "helium"),
    [((L, M, J, I), 0, 0), ((M, L, J, I), 1, 0), ((M, J, I, L), 0, 1)],
)
def test_engine_gives_the_luna_card_bonus(
        priorities: tuple[Location, ...], fleet: int, helium: int) -> None:
    # Card 5: deploy B, gain Luna, bonus. Luna's bonus = the Sovereign + the Luna card's.
    state = Game(solo(cards=(5,), priorities=priorities)).state
    after = run_card(state)
    her = after.players[HER]
    assert after.sovereign == HER
    assert (her.fleet, her.helium, her.influence) == (fleet, helium,
                                                      1 - fleet - helium)


def test_luna_card_bonus_comes_even_when_the_sovereign_is_blocked() -> None:
    # Ann holds the Sovereign and Justice: she blocks, keeps the token, and Au Toma still
    # takes the Luna card's bonus (Jupiter: Fleet).
    state = Game(solo(cards=(5,), hand=("justice", "nero"))).state
    state = rules.apply(state, SetSovereign(0))
    asked = her_turn(state)
    assert asked.pending is not None and asked.pending.player == 0
    after = rules.apply(asked, Block("justice"))
    assert after.sovereign == 0 and "justice" in after.banished
    # Card 5's Luna card bonus (Fleet), then card 1 (Mars: Helium) finished her turn.
    assert (after.players[HER].fleet, after.players[HER].helium) == (1, 1)
    assert after.pending is not None and after.pending.player == 0


# --- the 10-cap substitution -----------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "arrow", "full", "luna_card", "plan"),
    [
        # Helium (she counts 10 Helium as a cap): Mars → Jupiter or → Luna.
        (M, -1, {HELIUM}, I, (FLEET,)),
        (M, +1, {HELIUM}, I, (SOVEREIGN, INFLUENCE)),
        # Fleet: Jupiter → Mars, or left wrapping to The Institute.
        (J, +1, {FLEET}, M, (HELIUM,)),
        (J, -1, {FLEET}, M, (INFLUENCE,)),
        # Influence: The Institute → Luna, or right wrapping to Jupiter.
        (I, -1, {INFLUENCE}, M, (SOVEREIGN, HELIUM)),
        (I, +1, {INFLUENCE}, M, (FLEET,)),
        # Two caps in a row: Jupiter → Mars (capped) → Luna.
        (J, +1, {FLEET, HELIUM}, I, (SOVEREIGN, INFLUENCE)),
        # Through the Luna card: she keeps the Sovereign and takes the substitute.
        (L, -1, {HELIUM}, M, (SOVEREIGN, FLEET)),
        (L, +1, {FLEET}, J, (SOVEREIGN, HELIUM)),
        (L, -1, {INFLUENCE}, I, (SOVEREIGN,)),  # Institute → Luna again: the token only
        (L, +1, {INFLUENCE}, I, (SOVEREIGN, FLEET)),
        # Everything capped: every road leads to Luna, and the token is all she gets.
        (M, +1, {HELIUM, FLEET, INFLUENCE}, J, (SOVEREIGN,)),
        (L, -1, {HELIUM, FLEET, INFLUENCE}, J, (SOVEREIGN,)),
    ],
)
def test_ten_cap_substitution(source: Location, arrow: int, full: set[Bonus],
                              luna_card: Location, plan: tuple[Bonus, ...]) -> None:
    assert bonus_plan(source, arrow, luna_card, frozenset(full)) == plan


def test_caps_are_ten_of_each() -> None:
    assert capped(9, 9, 9) == frozenset()
    assert capped(10, 10, 10) == {HELIUM, INFLUENCE, FLEET}
    assert capped(14, 3, 10) == {HELIUM, FLEET}


@pytest.mark.parametrize(
    ("card", "tokens", "after"),
    [
        # Card 1 (gain A = Mars, left): 10 Helium → Jupiter's Fleet instead.
        (1, (10, 0, 0), (10, 0, 1)),
        # Card 11 (gain C = Jupiter, left): Fleet 10 → left wraps to The Institute.
        (11, (0, 0, 10), (0, 1, 10)),
        # Card 20 (gain The Institute, right): 10 Influence → wraps to Jupiter.
        (20, (0, 10, 0), (0, 10, 1)),
        # Card 5 (gain Luna): the Luna card shows Jupiter; Fleet 10 → right to Mars, and
        # she keeps the Sovereign too.
        (5, (0, 0, 10), (1, 0, 10)),
    ],
)
def test_engine_substitutes_capped_bonuses(card: int, tokens: tuple[int, int, int],
                                           after: tuple[int, int, int]) -> None:
    state = with_tokens(Game(solo(cards=(card,))).state, *tokens)
    done = run_card(state)
    her = done.players[HER]
    assert (her.helium, her.influence, her.fleet) == after
    assert (done.sovereign == HER) is (card == 5)


# --- the odd/even card -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cores", "parity"),
    [
        ([1, 3, 5, 7, 2, 4, 6, 8], "even"),  # a 4–4 tie shows EVEN
        ([1, 3, 5, 7, 9, 4, 6, 8], "odd"),
        ([0, 0, 0, 1, 1, 1, 1, 2], "even"),  # 0 is even: 4–4
        ([0, 1, 1, 1, 1, 1, 2, 2], "odd"),
        ([], "even"),
    ],
)
def test_parity_majority_and_ties(cores: list[int], parity: str) -> None:
    assert parity_of(cores) == parity


def test_parity_is_read_from_the_eight_setup_cards() -> None:
    # Cores: surgeon 0, harmony 7, nero 25, quietus 14, cassius 25, mustang 20, pelus 5,
    # virga 10: four odd, four even (0 among them), a tie, so EVEN.
    stacks = (("surgeon", "harmony"), ("nero", "quietus"), ("cassius", "mustang"),
              ("pelus", "virga"))
    state = Game(solo(hand=("judge",), her_hand=("dancer", "lorn"), stacks=stacks)).state
    assert state.automa is not None and state.automa.parity == "even"
    odd = (*stacks[:3], ("pelus", "sevro"))  # sevro 15: five odd
    state = Game(solo(hand=("judge",), her_hand=("dancer", "lorn"), stacks=odd)).state
    assert state.automa is not None and state.automa.parity == "odd"


# --- input checks ---------------------------------------------------------------------


def test_priorities_from_letters_or_a_list() -> None:
    assert parse_priorities({"A": "mars", "B": "luna", "C": "jupiter", "D": "institute"}) == (
        M, L, J, I)
    assert parse_priorities(["luna", "mars", "jupiter", "institute"]) == (L, M, J, I)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"A": "mars", "B": "luna", "C": "jupiter"}, "exactly A, B, C and D"),
        ({"A": "mars", "B": "mars", "C": "jupiter", "D": "luna"}, "exactly one priority"),
        ({"A": "mercury", "B": "mars", "C": "jupiter", "D": "luna"}, "'mercury' is not a loc"),
        (["mars", "luna"], "four locations"),
    ],
)
def test_bad_priorities_are_refused(value: object, message: str) -> None:
    with pytest.raises(AutomaInputError, match=message):
        parse_priorities(value)  # type: ignore[arg-type]


def test_with_the_deck_empty_she_skips_deploy_and_banish() -> None:
    # The solo rules do not settle an empty deck: the step she cannot do is skipped and
    # her gain still happens.
    where = Situation(PRIORITIES, (2, 0, 3, 1), deck_count=0)
    done = outcome(where, default_deck()[2])  # card 3: deploy A, gain A, banish
    assert (done.deploy, done.gain, done.banish) == (None, J, False)  # Mars empty: left
    empty = evolve(scenario(3), deck=(), deck_count=0)
    after = run_card(empty)
    assert [len(s) for s in after.locations] == [1, 0, 3, 1]
    assert after.banished == () and after.players[HER].hand.known[-1] == "virga"


def test_with_every_location_empty_she_gains_nothing() -> None:
    where = Situation(PRIORITIES, (0, 0, 0, 0), deck_count=0)
    done = outcome(where, default_deck()[0])
    assert (done.deploy, done.gain, done.bonus) == (None, None, ())
    state = evolve(Game(solo(stacks=((), (), (), ()), cards=(1,))).state, deck=(),
                   deck_count=0)
    after = run_card(state)
    assert after.players[HER].hand.known == ("dancer", "harmony")
    assert after.automa is not None and after.automa.discards == (1,)
