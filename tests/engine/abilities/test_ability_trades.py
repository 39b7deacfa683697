"""Trading abilities (once per turn) and Loan Shark's borrowed turn."""

from __future__ import annotations

from abilities_support import (
    I,
    J,
    L,
    M,
    asks,
    banish_from_deck,
    gain_is_next,
    hand,
    lead,
    pick,
    play,
    seat,
    table,
    tokens,
    tracked,
    turn_of,
    values,
)

from engine.abilities.primitives import STEP_BY_STEP, trade_used, use_trade
from engine.cards import CARDS, Color
from engine.decisions import Kind
from engine.draft import Draft
from engine.events import Choose, Decline, DrawFromDeck, GainFrom, Lead, SetLocation
from engine.game import Game
from engine.narration import change_text
from engine.state import TurnContext


def test_ceo_may_move_back_one_for_two_helium() -> None:
    game = table([["ceo"], ["judge"]], tokens={0: (0, 0, 3)})
    lead(game, "ceo", M)
    play(game, Choose("regress"))
    assert tokens(game) == (2, 0, 2)
    declined = table([["ceo"], ["judge"]], tokens={0: (0, 0, 3)})
    lead(declined, "ceo", M)
    play(declined, Decline())
    assert tokens(declined) == (0, 0, 3)
    at_start = table([["ceo"], ["judge"]])
    lead(at_start, "ceo", M)
    assert gain_is_next(at_start)  # nothing to trade: no question


def test_sponsor_may_pay_one_helium_for_two_influence() -> None:
    game = table([["sponsor"], ["judge"]], tokens={0: (1, 0, 0)})
    lead(game, "sponsor", M)
    play(game, Choose("pay"))
    assert tokens(game) == (0, 2, 0)
    broke = table([["sponsor"], ["judge"]])
    lead(broke, "sponsor", M)
    assert gain_is_next(broke)


def test_stock_broker_may_take_back_influence_for_two_helium() -> None:
    game = table([["stock-broker"], ["judge"]], tokens={0: (0, 2, 0)})
    lead(game, "stock-broker", M)
    play(game, Choose("return"))
    assert tokens(game) == (2, 1, 0)
    declined = table([["stock-broker"], ["judge"]], tokens={0: (0, 2, 0)})
    lead(declined, "stock-broker", M)
    play(declined, Decline())
    assert tokens(declined) == (0, 2, 0)


def test_banker_may_pay_three_helium_for_any_card_here_then_leaves() -> None:
    game = table([["banker"], ["judge"]], [["lorn", "eo"], [], [], []], tokens={0: (3, 0, 0)})
    lead(game, "banker", J)
    play(game, pick("lorn", J, 0))
    assert tokens(game)[0] == 0 and "lorn" in hand(game)
    assert "banker" in game.state.banished and [s.card for s in game.state.stack_at(J)] == ["eo"]
    poor = table([["banker"], ["judge"]], [["lorn"], [], [], []], tokens={0: (2, 0, 0)})
    lead(poor, "banker", J)
    assert gain_is_next(poor) and "banker" not in poor.state.banished


def test_surgeon_may_swap_a_non_gold_for_a_banished_gold() -> None:
    game = table([["surgeon", "deanna", "judge"], ["martyr"]], [["lorn"], [], [], []])
    lead(game, "surgeon", M)
    assert gain_is_next(game)  # no banished Gold yet
    banished = table([["surgeon", "deanna", "lorn"], ["martyr"]])
    banished.states[-1] = banish_from_deck(banished.state, "aja")
    lead(banished, "surgeon", M)
    assert "lorn" not in values(banished)  # only non-Golds go
    play(banished, Choose("deanna"))
    assert "aja" in hand(banished) and banished.state.banished == ("deanna",)


def test_mickey_banishes_a_red_and_digs_for_the_first_gold() -> None:
    deck = ["deanna", "judge", "lorn", "nero"]
    game = table([["mickey-the-carver", "eo"], ["martyr"]], deck=deck)
    lead(game, "mickey-the-carver", M)
    play(game, Choose("eo"))
    assert "lorn" in hand(game) and "eo" in game.state.banished
    assert asks(game) is Kind.CHOOSE  # the two passed cards go under the deck in any order
    play(game, Choose("judge"))
    state = game.state
    assert state.deck[0] == "nero" and state.deck[-2:] == ("judge", "deanna")
    declined = table([["mickey-the-carver", "eo"], ["martyr"]], deck=deck)
    lead(declined, "mickey-the-carver", M)
    play(declined, Decline())
    assert "eo" in hand(declined) and declined.state.deck[0] == "deanna"


def test_trades_fire_once_per_turn() -> None:
    game = table([["sponsor"], ["judge"]], tokens={0: (5, 0, 0)})
    draft = Draft(game.state)
    draft.turn = TurnContext(0)
    assert not trade_used(draft, "sponsor")
    use_trade(draft, "sponsor")
    assert trade_used(draft, "sponsor") and not trade_used(draft, "ceo")
    lead(game, "sponsor", M)
    state = game.state
    assert state.turn is not None and state.turn.trades_used == frozenset()  # not used yet
    play(game, Choose("pay"))
    assert game.state.turn.trades_used == frozenset({"sponsor"})


def test_loan_shark_borrower_pays_two_and_plays_a_turn_inside_yours() -> None:
    game = table([["loan-shark"], ["eo", "judge"], ["martyr"]], [["lorn"], ["nero"], [], []],
                 tokens={1: (3, 0, 0)})
    lead(game, "loan-shark", J)
    play(game, seat(1), Choose("turn"))
    assert tokens(game)[0] == 2 and tokens(game, 1)[0] == 1
    assert turn_of(game) == 1 and game.state.turn.kind == "out-of-order"
    play(game, Lead("eo", M))
    assert GainFrom(J) not in game.legal_actions()  # Loan Shark is on top there
    play(game, DrawFromDeck())
    assert gain_is_next(game, 0)  # the lender's turn resumes at its gain step
    assert game.state.current == 0 and game.state.turn.deployed_to is J
    assert [p.turns for p in game.state.players] == [0, 0, 0]  # the borrowed one not counted


def test_loan_shark_borrowed_turn_that_triggers_the_end_leaves_a_full_final_round() -> None:
    game = table([["loan-shark"], ["uncle-narol"], ["martyr"]], [["lorn"], ["eo"], [], []],
                 tokens={1: (8, 0, 6)})
    lead(game, "loan-shark", L)
    play(game, seat(1), Choose("turn"), Lead("uncle-narol", I), GainFrom(J))
    assert game.state.trigger is not None and game.state.trigger.player == 1
    assert game.state.final_turns is None  # not fixed inside the lender's turn
    play(game, GainFrom(M))  # the lender finishes: one turn each is now the target
    assert game.state.final_turns == 1 and turn_of(game) == 1


def test_loan_shark_otherwise_the_opponent_pays_one() -> None:
    game = table([["loan-shark"], ["judge"]], tokens={1: (3, 0, 0)})
    lead(game, "loan-shark", I)
    play(game, Decline())  # the only opponent needs no choosing
    assert tokens(game)[0] == 1 and tokens(game, 1)[0] == 2 and gain_is_next(game)
    poor = table([["loan-shark"], ["judge"]], tokens={1: (1, 0, 0)})
    lead(poor, "loan-shark", I)
    assert tokens(poor)[0] == 1 and gain_is_next(poor)  # cannot borrow: pays what it has



def _prompt(game: Game) -> str:
    assert game.pending is not None
    return game.pending.prompt


def _short_deck(game: Game, *left: str) -> None:
    """Every deck card but ``left`` (the deck's top cards) goes onto the Institute."""
    rest = game.state.deck or ()
    assert rest[:len(left)] == left
    game.push(SetLocation(I, rest[len(left):]))


def test_ceo_and_sponsor_ask_in_their_own_words_down_to_the_last_step() -> None:
    """CEO: you may regress once on the Fleet Track for 2 Helium (possible from 1).
    Sponsor: you may pay 1 Helium to place 2 Influence."""
    ceo = table([["ceo"], ["judge"]], tokens={0: (0, 0, 1)})
    lead(ceo, "ceo", M)
    assert _prompt(ceo) == "P1: move back 1 on the Fleet to gain 2 Helium?"
    play(ceo, Choose("regress"))
    assert tokens(ceo) == (2, 0, 0)
    sponsor = table([["sponsor"], ["judge"]], tokens={0: (1, 0, 0)})
    lead(sponsor, "sponsor", M)
    assert _prompt(sponsor) == "P1: pay 1 Helium to place 2 Influence?"


def test_banker_pays_exactly_three_for_another_card_here_or_declines() -> None:
    """Banker: you may pay 3 Helium to gain any card from this location (not Banker,
    which is then banished)."""
    game = table([["banker"], ["judge"]], [["lorn", "eo"], [], [], []], tokens={0: (5, 0, 0)})
    lead(game, "banker", J)
    assert _prompt(game) == "P1: pay 3 Helium to gain a card here?"
    assert values(game) == {"lorn", "eo", "decline"}
    play(game, pick("eo", J, 1))
    assert tokens(game)[0] == 2 and "eo" in hand(game)


def test_banker_in_a_borrowed_turn_may_not_gain_loan_shark() -> None:
    """Loan Shark: the borrower's out-of-order turn may not gain Loan Shark, not even
    with Banker."""
    game = table([["loan-shark"], ["banker", "judge"], ["martyr"]], [["lorn"], [], [], []],
                 tokens={1: (6, 0, 0)})
    lead(game, "loan-shark", J)
    play(game, seat(1), Choose("turn"), Lead("banker", J))
    assert values(game) == {"lorn", "decline"}


def test_surgeon_asks_which_non_gold_to_give_and_which_gold_to_take() -> None:
    """Surgeon: you may banish a non-Gold from hand to gain a banished Gold."""
    game = table([["surgeon", "deanna"], ["martyr"]])
    game.states[-1] = banish_from_deck(game.state, "aja", "lorn")
    lead(game, "surgeon", M)
    assert _prompt(game) == "P1: banish a non-Gold to gain a banished Gold?"
    assert values(game) == {"deanna", "decline"}
    play(game, Choose("deanna"))
    assert _prompt(game) == "Surgeon: gain which banished Gold?"
    assert values(game) == {"aja", "lorn"}


def test_mickey_digs_to_the_decks_last_card_and_passes_cards_back_under() -> None:
    """Mickey the Carver reveals deck cards until a Gold: the last card counts, and the
    cards passed go under the deck one at a time in the player's order."""
    game = table([["mickey-the-carver", "eo"], ["martyr"]], deck=["deanna", "judge", "lorn"])
    _short_deck(game, "deanna", "judge", "lorn")
    lead(game, "mickey-the-carver", M)
    play(game, Choose("eo"))
    assert "lorn" in hand(game)
    assert _prompt(game) == "Mickey: put which card under the deck next?"
    empty = table([["mickey-the-carver", "eo"], ["martyr"]], deck=["deanna", "judge"])
    _short_deck(empty, "deanna", "judge")
    lead(empty, "mickey-the-carver", M)
    play(empty, Choose("eo"))  # no Gold at all: every card is turned over, none gained
    assert hand(empty) == () and empty.state.deck_count == 0


def test_a_tracked_mickey_asks_which_gold_turned_up() -> None:
    """While tracking the deck is unseen: the table names the Gold (any Gold nobody has
    seen) or declines; only the Gold leaves the deck, into the hand."""
    game = tracked([["pelus"], ["virga"], ["orion"], ["the-pax"]])
    lead(game, "mickey-the-carver", M)
    play(game, Choose("deanna"))
    assert _prompt(game) == "Mickey: which Gold turned up? (decline: none)"
    assert asks(game) is Kind.CONFIRM  # the table's answer, as the camera's would be
    golds = {c for c, card in CARDS.items() if card.color is Color.GOLD}
    assert values(game) == golds | {"decline"}
    deck = game.state.deck_count
    play(game, Choose("lorn"))
    assert hand(game) == ("lorn",) and game.state.deck_count == deck - 1
    said = [change_text(c, game.state) for c in game.state.changes]
    assert said == ["P1 gained Lorn from the deck"]


def test_step_by_step_mickey_answers_with_the_decks_first_gold_or_none() -> None:
    """Filmed step by step, the simulated table names the first Gold in the deck, or
    declines when there is none."""
    game = table([["mickey-the-carver", "eo"], ["martyr"]], deck=["deanna", "lorn"],
                 variants=[STEP_BY_STEP])
    lead(game, "mickey-the-carver", M)
    play(game, Choose("eo"))
    assert game.pending is not None and game.pending.options == (Choose("lorn"),)
    none = table([["mickey-the-carver", "eo"], ["martyr"]], variants=[STEP_BY_STEP])
    golds = [c for c in none.state.deck or () if CARDS[c].color is Color.GOLD]
    none.states[-1] = banish_from_deck(none.state, *golds)
    lead(none, "mickey-the-carver", M)
    play(none, Choose("eo"))
    assert none.pending is not None and none.pending.options == (Decline(),)


def test_loan_shark_asks_whom_and_an_opponent_with_exactly_two_may_borrow() -> None:
    """Loan Shark: choose an opponent; they may give you 2 Helium for a turn now."""
    game = table([["loan-shark"], ["judge"], ["martyr"]], tokens={1: (2, 0, 0)})
    lead(game, "loan-shark", I)
    assert _prompt(game) == "P1: who owes you?"
    play(game, seat(1))
    assert game.pending is not None and game.pending.player == 1
    assert _prompt(game) == "P2: pay 2 Helium to take a turn now (else pay 1)?"


def test_stock_broker_needs_an_influence_to_take_back_and_says_so() -> None:
    """Stock Broker: you may take back 1 of your Influence from the Institute for 2 Helium."""
    game = table([["stock-broker"], ["judge"]], tokens={0: (0, 1, 0)})
    lead(game, "stock-broker", M)
    assert _prompt(game) == "P1: take back 1 Influence to gain 2 Helium?"
    none = table([["stock-broker"], ["judge"]])
    lead(none, "stock-broker", M)
    assert gain_is_next(none)


def test_mickey_offers_the_reds_in_hand_while_the_deck_holds_a_card() -> None:
    """Mickey the Carver: you may banish a Red from hand to dig the deck for a Gold; with
    one card left there is still a deck to dig, with none there is not."""
    game = table([["mickey-the-carver", "eo", "deanna", "lorn"], ["martyr"]], deck=["judge"])
    _short_deck(game, "judge")
    lead(game, "mickey-the-carver", M)
    assert _prompt(game) == "P1: banish a Red to dig for a Gold?"
    assert values(game) == {"eo", "deanna", "decline"}
    empty = table([["mickey-the-carver", "eo"], ["martyr"]])
    _short_deck(empty)
    lead(empty, "mickey-the-carver", M)
    assert gain_is_next(empty)
