"""Au Toma in play: solo setup, her turn, the reshuffle, tracking a physical game with
confirmations, whole seeded games, scoring, replay."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from test_automa import HER, I, J, L, M, her_turn, run_card, solo

from engine import rules
from engine.automa import (
    AUTOMA_NAME,
    VARIANT,
    AutomaBanish,
    AutomaGain,
    AutomaToken,
    Instruction,
    automa_setup,
    bottom_card,
    eo_reveals_red,
    instructions,
    new_solo_game,
    psychologist_hand_size,
    removed_cards,
    solo_card_ids,
    top_of_hand,
    tracked_solo_game,
)
from engine.automa_state import ASIDE
from engine.board import SOLO_REMOVED, Bonus, House
from engine.decisions import Kind
from engine.endgame import final_table
from engine.errors import IllegalActionError
from engine.events import Choose, Event, Place, from_dict, to_dict
from engine.game import Game
from engine.scoring import score
from engine.state import Hand, evolve

# --- setup ----------------------------------------------------------------------------


def test_solo_setup_removes_five_cards_and_deals_two_to_her() -> None:
    event = new_solo_game("Ann", random.Random(4), level=5, house=House.MARS)
    state = Game(event).state
    assert state.total_cards == 107 == state.cards_in_play()
    everywhere = {c for s in event.locations for c in s} | set(event.deck or ())
    everywhere |= {c for h in event.hands for c in h}
    assert not everywhere & set(SOLO_REMOVED)
    ann, her = state.players
    assert (ann.house, ann.hand.size, her.automa, her.house, her.hand.size) == (
        House.MARS, 5, True, None, 2)
    assert state.neutral_influence == 3
    automa = state.automa
    assert automa is not None
    assert (automa.seat, automa.level, len(automa.deck), len(automa.aside)) == (1, 5, 18, ASIDE)
    assert sorted(automa.deck + automa.aside) == list(range(1, 23))
    assert sorted(automa.priorities) == sorted([J, M, L, I])


def test_variant_keeps_all_but_loan_shark() -> None:
    event = new_solo_game("Ann", random.Random(4), variant=True)
    state = Game(event).state
    assert state.total_cards == 111 == len(solo_card_ids(variant=True))
    assert VARIANT in state.variants and state.automa is not None and state.automa.variant
    assert "loan-shark" not in set(event.deck or ())


def test_given_priorities_are_used_and_random_ones_vary() -> None:
    given = {"A": "luna", "B": "mars", "C": "institute", "D": "jupiter"}
    event = new_solo_game("Ann", random.Random(1), priorities=given)
    assert event.automa is not None and event.automa.priorities == (L, M, I, J)
    seen = {new_solo_game("Ann", random.Random(s)).automa.priorities  # type: ignore[union-attr]
            for s in range(30)}
    assert len(seen) > 10


def test_apollo_goes_first_in_a_solo_game() -> None:
    event = new_solo_game("Ann", random.Random(2), house=House.APOLLO)
    assert event.first_player == 0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"level": 7}, "level is 1 to 6"),
        ({"level": 0}, "level is 1 to 6"),
        ({"her_hand": ("dancer",)}, "starts with 2 cards"),
    ],
)
def test_bad_solo_setups_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(IllegalActionError, match=message):
        Game(solo(**kwargs))  # type: ignore[arg-type]


def test_removed_cards_may_not_appear() -> None:
    event = solo(hand=("eo", "judge"))
    with pytest.raises(IllegalActionError):
        Game(event)


def test_setup_event_survives_the_journal() -> None:
    event = new_solo_game("Ann", random.Random(8), level=4)
    again = from_dict(to_dict(event))
    assert again == event
    assert Game(again).state == Game(event).state


# --- her turn -------------------------------------------------------------------------


def test_her_turn_plays_two_cards_then_passes_to_you() -> None:
    game = Game(solo(cards=(14, 15), first=HER))
    state = game.state
    automa = state.automa
    assert automa is not None
    assert automa.discards == (14, 15) and automa.deck[:1] == (1,)
    assert state.players[HER].turns == 1
    assert state.pending is not None and state.pending.player == 0
    assert state.pending.kind is Kind.TURN
    kinds = [c.kind for c in state.changes]
    assert kinds.count("automa-card") == 2


def test_reshuffle_after_nine_turns_sets_four_aside_again() -> None:
    rng = random.Random(11)
    game = Game(new_solo_game("Ann", random.Random(11), level=2), rng=rng)
    first_aside = game.state.automa.aside  # type: ignore[union-attr]
    while game.state.players[HER].turns < 10:
        game.play(rng.choice(game.legal_actions()))
        automa = game.state.automa
        assert automa is not None
        if game.state.players[HER].turns == 9:
            assert (automa.deck, len(automa.discards), automa.aside) == ((), 18, first_aside)
    automa = game.state.automa
    assert automa is not None
    picks = [e for e, before in zip(game.log, game.states, strict=False)
             if before.pending is not None and before.pending.kind is Kind.RANDOM]
    assert len(picks) == 18  # the new order, one logged chance pick per card
    assert all(isinstance(p, Choose) for p in picks)
    assert [int(str(p.value)) for p in picks][:2] == list(automa.discards)
    assert len(automa.deck) == 16 and len(automa.aside) == ASIDE
    assert Counter(automa.deck + automa.aside + automa.discards) == Counter(range(1, 23))


def test_reshuffle_shuffles_everything_including_the_set_aside_cards() -> None:
    state = Game(solo(first=0)).state
    automa = state.automa
    assert automa is not None
    empty = evolve(state, automa=evolve(automa, deck=(), discards=automa.deck))
    asked = run_card(empty)
    assert asked.pending is not None and asked.pending.kind is Kind.RANDOM
    assert asked.pending.player is None
    assert {int(str(o.value)) for o in asked.pending.options} == set(range(1, 23))  # type: ignore[attr-defined]


# --- the instructions -----------------------------------------------------------------


def test_instructions_for_a_card() -> None:
    state = Game(solo()).state  # docs/automa.md's example board; nobody holds the Sovereign
    steps = instructions(state, 2)
    assert [s.text for s in steps] == [
        "Au Toma plays card 2",
        "Au Toma: put the top card of the deck on Jupiter",
        "Au Toma: take the top card of Luna, face down on top of her hand",
        "Au Toma: give her the Sovereign token",
        "Au Toma: move her ship 1 space up the Fleet Track",
    ]
    assert [s.expect for s in steps][1:] == [
        Place(J, None), AutomaGain(L), AutomaToken(Bonus.SOVEREIGN), AutomaToken(Bonus.FLEET)]
    assert [s.camera for s in steps] == [False, True, True, False, False]


def test_instructions_when_she_holds_the_sovereign_and_banishes() -> None:
    from engine.events import SetSovereign

    state = rules.apply(Game(solo()).state, SetSovereign(HER))
    assert instructions(state, 4)[3] == Instruction("Au Toma keeps the Sovereign token")
    assert instructions(state, 3)[-1] == Instruction(
        "Au Toma: banish the top card of the deck", AutomaBanish())


# --- tracking a physical game ---------------------------------------------------------

SETUP_CARDS = (("pelus", "virga"), (), ("orion", "the-pax", "sevro"), ("darrow",))


def tracked(*cards: int, parity: str | None = None) -> Game:
    """A tracked solo game where she goes first with her cards in this order."""
    her = automa_setup(random.Random(0), priorities=(M, L, J, I), parity=parity)
    order = [*cards, *(c for c in her.deck if c not in cards)][: len(her.deck)]
    aside = tuple(c for c in range(1, 23) if c not in order)
    her = type(her)(her.level, her.priorities, tuple(order), aside, her.cards, parity=parity)
    return Game(tracked_solo_game("Ann", House.DIANA, SETUP_CARDS, first=HER, automa=her))


def confirm(game: Game, answer: Event, prompt: str) -> None:
    pending = game.pending
    assert pending is not None
    assert (pending.kind, pending.player, pending.prompt) == (Kind.CONFIRM, HER, prompt)
    game.play(answer)


def test_tracking_waits_for_each_step_to_be_confirmed() -> None:
    game = tracked(2, 3)
    state = game.state
    assert state.hidden and state.automa is not None
    texts = [s.text for s in instructions(state, 2) if s.expect is not None]
    confirm(game, Place(J, "judge"), texts[0])  # the camera names the deployed card
    assert game.state.top(J) is not None and game.state.top(J).card == "judge"  # type: ignore[union-attr]
    confirm(game, AutomaGain(L), texts[1])
    assert game.state.players[HER].hand.known == ("sevro",)
    assert game.state.sovereign == HER  # the token moved in the engine: the table follows
    confirm(game, AutomaToken(Bonus.SOVEREIGN), texts[2])
    confirm(game, AutomaToken(Bonus.FLEET), texts[3])
    assert game.state.players[HER].fleet == 1
    # Card 3: deploy A = Mars, gain Mars (the card just deployed), banish the deck's top.
    confirm(game, Place(M, "nero"), "Au Toma: put the top card of the deck on Mars")
    confirm(game, AutomaGain(M), "Au Toma: take the top card of Mars, face down on top "
                                 "of her hand")
    deck = game.state.deck_count
    with pytest.raises(IllegalActionError, match="name the card"):
        game.play(AutomaBanish())
    with pytest.raises(IllegalActionError, match="somewhere else"):
        game.play(AutomaBanish("nero"))
    confirm(game, AutomaBanish("lorn"), "Au Toma: banish the top card of the deck")
    state = game.state
    assert state.banished == ("lorn",) and state.deck_count == deck - 1
    assert state.pending is not None and state.pending.kind is Kind.TURN
    assert state.players[HER].hand == Hand(("sevro", "nero"), 2)


def test_tracking_refuses_the_wrong_observation() -> None:
    game = tracked(2)
    with pytest.raises(IllegalActionError):
        game.play(Place(M, "judge"))  # she deploys to Jupiter
    game.play(Place(J, None))  # the camera could not read the card: fine, named later
    with pytest.raises(IllegalActionError):
        game.play(AutomaGain(J))  # she gains from Luna


def test_tracking_needs_the_parity_when_setup_cards_are_unknown() -> None:
    her = automa_setup(random.Random(0))
    cards = (("pelus", None), (), (), ())
    with pytest.raises(IllegalActionError, match="odd/even"):
        Game(tracked_solo_game("Ann", None, cards, first=0, automa=her))
    her = automa_setup(random.Random(0), parity="odd")
    state = Game(tracked_solo_game("Ann", None, cards, first=0, automa=her)).state
    assert state.automa is not None and state.automa.parity == "odd"


def test_tracked_game_replays_from_its_journal() -> None:
    game = tracked(2, 3)
    for answer in (Place(J, "judge"), AutomaGain(L), AutomaToken(Bonus.SOVEREIGN),
                   AutomaToken(Bonus.FLEET), Place(M, None)):
        game.play(answer)
    again = Game.replay(from_dict(to_dict(e)) for e in game.log)
    assert again.state == game.state


# --- whole games ----------------------------------------------------------------------


def play_solo(seed: int, level: int = 2) -> Game:
    rng = random.Random(seed)
    game = Game(new_solo_game("Ann", rng, level=level), rng=rng)
    while not game.is_over:
        assert len(game.log) < 5000
        game.play(rng.choice(game.legal_actions()))
    return game


def test_a_whole_solo_game_from_a_seed_is_deterministic() -> None:
    one, two = play_solo(21), play_solo(21)
    assert [to_dict(e) for e in one.log] == [to_dict(e) for e in two.log]
    assert one.state == two.state
    assert one.state.fen() == two.state.fen()
    assert one.state.trigger is not None
    automa = one.state.automa
    assert automa is not None and automa.current is None
    assert len(automa.deck) + len(automa.aside) + len(automa.discards) == 22
    assert one.state.cards_in_play() == 107
    assert Game.replay(one.log).state == one.state


def test_a_finished_solo_game_scores_her_by_her_level() -> None:
    game = play_solo(5, level=4)
    state = game.state
    automa = state.automa
    assert automa is not None
    table = final_table(state)
    assert table.seats[HER].automa is not None
    assert (table.seats[HER].automa.level, table.seats[HER].automa.parity) == (
        4, automa.parity)
    sheet = score(table)
    her = sheet.players[HER]
    assert her.name == AUTOMA_NAME and her.cards_core == 70
    hand = state.players[HER].hand.known
    want = 0 if automa.parity == "even" else 1
    from engine.cards import CARDS

    matching = sum(1 for c in hand if CARDS[c].core % 2 == want)
    kept_other = min(len(hand), 20) - min(matching, 20)
    assert her.cards_bonus == 10 * min(matching, 20) + 5 * kept_other


def test_levels_change_only_her_score() -> None:
    low, high = play_solo(9, level=1).state, play_solo(9, level=6).state
    assert low.players == high.players and low.locations == high.locations
    ann_low, her_low = score(final_table(low)).players
    ann_high, her_high = score(final_table(high)).players
    assert ann_low.total == ann_high.total
    assert her_low.cards_core == her_high.cards_core == 70
    # Level 1 pays 5/2 per card, level 6 14/7: her hand of n cards is worth more.
    assert her_high.cards_bonus > her_low.cards_bonus > 0


# --- abilities against her (helpers for the abilities) ---------------------------------


def test_her_hand_is_a_stack_with_the_bottom_first() -> None:
    assert bottom_card(Hand(("eo", "sevro", "nero"))) == "eo"
    assert bottom_card(Hand(("nero",), unknown=2)) is None  # her face-down setup cards
    assert bottom_card(Hand()) is None
    hand = Hand(tuple(f"c{i}" for i in range(8)))
    assert top_of_hand(hand) == ("c2", "c3", "c4", "c5", "c6", "c7")
    assert top_of_hand(hand, 0) == () and top_of_hand(hand, 2) == ("c6", "c7")


def test_without_the_variant_the_five_solo_cards_stay_out() -> None:
    assert removed_cards() == ("auctioneer", "eo", "loan-shark", "psychologist", "roque")
    assert removed_cards(variant=True) == ("loan-shark",)
    assert len(solo_card_ids()) == 107 and len(solo_card_ids(variant=True)) == 111


def test_variant_helpers() -> None:
    reds = Hand(("dancer", "nero", "lorn", "sevro", "judge", "virga", "mustang"))
    assert not eo_reveals_red(reds)  # the Red (Dancer) is 7th from the top
    assert eo_reveals_red(Hand(("nero", "dancer")))
    assert [psychologist_hand_size(n) for n in (0, 2, 3, 22, 30)] == [0, 0, 1, 7, 10]


def test_her_turn_from_any_state_with_no_decision_for_her() -> None:
    state = Game(solo(cards=(1, 2))).state
    after = her_turn(state)
    assert after.pending is not None and after.pending.player == 0
    assert after.players[HER].turns == 1
