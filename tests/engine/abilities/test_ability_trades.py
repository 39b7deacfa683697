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
    turn_of,
    values,
)

from engine.abilities.primitives import trade_used, use_trade
from engine.decisions import Kind
from engine.draft import Draft
from engine.events import Choose, Decline, DrawFromDeck, GainFrom, Lead
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

