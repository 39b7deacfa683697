"""The five block cards: hand blocks stay in hand; Sovereign blocks are banished."""

from __future__ import annotations

from abilities_support import (
    J,
    L,
    M,
    Picks,
    gain_is_next,
    hand,
    lead,
    play,
    seat,
    solo,
    table,
    tracked,
    values,
)

from engine.abilities.blocks import BLOCKS, Threat
from engine.cards import CARDS
from engine.decisions import Kind
from engine.events import Block, Choose, Decline


def test_every_block_card_has_a_block_function_with_its_summary() -> None:
    assert set(BLOCKS) == {c for c, card in CARDS.items() if card.is_block}
    for card, stops in BLOCKS.items():
        assert stops.__doc__ and stops.__doc__.strip()
        assert stops(Threat.SOVEREIGN) is (card in ("justice", "martyr"))


def test_judge_blocks_a_steal_and_stays_in_hand() -> None:
    game = table([["tactus"], ["judge", "lorn"]])
    lead(game, "tactus", M)
    play(game, seat(1))
    assert game.pending.kind is Kind.BLOCK and game.pending.player == 1
    play(game, Block("judge"))
    assert hand(game, 1) == ("judge", "lorn") and hand(game) == ()
    assert "tactus" not in game.state.banished and gain_is_next(game)  # nothing was stolen
    passed = table([["tactus"], ["judge", "lorn"]])
    lead(passed, "tactus", M)
    play(passed, seat(1), Decline(), Choose("lorn"))
    assert hand(passed) == ("lorn",)


def test_pax_au_telemanus_blocks_a_forced_banish() -> None:
    game = table([["aja"], ["pax-au-telemanus", "deanna"]])
    lead(game, "aja", M)
    assert values(game) == {"pax-au-telemanus", "decline"}
    play(game, Block("pax-au-telemanus"))
    assert hand(game, 1) == ("pax-au-telemanus", "deanna")
    assert game.state.banished == ("aja",)  # "then banish Aja" happens anyway
    passed = table([["aja"], ["pax-au-telemanus", "deanna"]])
    lead(passed, "aja", M)
    play(passed, Decline(), Choose("deanna"))
    assert passed.state.banished == ("deanna", "aja")


def test_the_howlers_block_the_banish_of_a_card_shown_to_arlus() -> None:
    game = table([["arlus"], ["the-howlers", "lorn"]], rng=Picks("lorn"))
    lead(game, "arlus", M)
    assert game.pending.kind is Kind.BLOCK
    play(game, Block("the-howlers"))
    assert hand(game, 1) == ("the-howlers", "lorn") and game.state.banished == ()
    passed = table([["arlus"], ["the-howlers", "lorn"]], rng=Picks("lorn"))
    lead(passed, "arlus", M)
    play(passed, Decline())
    assert passed.state.banished == ("lorn",)


def test_justice_keeps_the_sovereign_is_banished_and_draws() -> None:
    game = table([["boneriders"], ["justice"]], deck=["lorn"], sovereign=1)
    lead(game, "boneriders", J)
    assert values(game) == {"justice", "decline"}
    play(game, Block("justice"))
    assert game.state.sovereign == 1 and hand(game, 1) == ("lorn",)
    assert game.state.banished == ("justice",)
    passed = table([["the-jackal"], ["justice"]], sovereign=1)
    lead(passed, "the-jackal", L)
    play(passed, Decline())
    assert passed.state.sovereign == 0


def test_martyr_keeps_the_sovereign_against_a_card_that_takes_it() -> None:
    game = table([["the-jackal"], ["martyr"]], deck=["eo"], sovereign=1)
    lead(game, "the-jackal", M)
    play(game, Block("martyr"))
    assert game.state.sovereign == 1 and game.state.banished == ("martyr",)
    assert hand(game, 1) == ("eo",)
    own = table([["the-jackal", "martyr"], ["lorn"]], sovereign=0)
    lead(own, "the-jackal", M)  # nobody to block when you already hold it
    assert own.state.sovereign == 0 and gain_is_next(own)


def test_au_toma_never_blocks() -> None:
    game = solo(["tactus"], ["judge", "lorn"])
    lead(game, "tactus", M)
    play(game, seat(1))
    assert hand(game) == ("judge",)  # her bottom card, no block window


def test_a_victim_may_block_with_a_card_they_might_hold_while_tracking() -> None:
    game = tracked([["lorn"], ["eo"], ["deanna"], ["aja"]])
    lead(game, "tactus", M)
    play(game, seat(1))
    assert game.pending.kind is Kind.BLOCK
    assert {"judge", "pax-au-telemanus", "the-howlers"} <= values(game)
    play(game, Block("judge"))
    assert hand(game, 1) == ("judge",) and game.state.players[1].hand.unknown == 4
