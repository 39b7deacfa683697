"""The five block cards: hand blocks stay in hand; Sovereign blocks are banished."""

from __future__ import annotations

import random
from dataclasses import replace

from abilities_support import (
    I,
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
from engine.abilities.primitives import STEP_BY_STEP
from engine.automa import automa_setup, tracked_solo_game
from engine.board import House
from engine.cards import CARDS
from engine.decisions import Kind
from engine.events import Block, Choose, Decline
from engine.game import Game
from engine.narration import change_text
from engine.state import Change, ChangeKind, Hand


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


def _tracked_solo(variants: tuple[str, ...] = ()) -> Game:
    """Tracking a solo game: you (seat 0, first) and Au Toma, whose hand nobody has seen."""
    her = automa_setup(random.Random(0), priorities=(M, L, J, I))
    return Game(tracked_solo_game("Ann", House.DIANA, (("pelus",), ("virga",), ("orion",),
                                                        ("darrow",)), first=0, automa=her,
                                  variants=variants))


def test_a_tracked_tactus_has_the_thief_name_au_tomas_bottom_card() -> None:
    """Tactus steals a card the victim chooses; Au Toma hands over her bottom card. While
    tracking her hand is unseen, so the thief names the card handed over: any card
    nobody has seen elsewhere. The turn's summary says what was taken."""
    game = _tracked_solo()
    lead(game, "tactus", M)
    play(game, seat(1))
    pending = game.pending
    assert pending is not None and (pending.kind, pending.player) == (Kind.CONFIRM, 0)
    assert pending.prompt == "Name Au Toma's bottom card, now handed over"
    assert Choose("lorn") in pending.options and Choose("pelus") not in pending.options
    play(game, Choose("lorn"))
    assert hand(game) == ("lorn",) and game.state.players[1].hand.size == 1
    said = [change_text(c, game.state) for c in game.state.changes
            if c.kind == ChangeKind.STEAL]
    assert said == ["Ann took Lorn from another hand"]


def test_a_tracked_tactus_takes_au_tomas_bottom_card_at_once_when_her_hand_is_known() -> None:
    """Once her whole hand is known, so is her bottom card: nothing to ask."""
    game = _tracked_solo()
    state = game.state
    her = replace(state.players[1], hand=Hand(("lorn", "deanna")))
    game.states[-1] = replace(state, players=(state.players[0], her))
    lead(game, "tactus", M)
    play(game, seat(1))
    assert hand(game) == ("lorn",) and hand(game, 1) == ("deanna",)


def test_step_by_step_tactus_asks_for_au_tomas_bottom_card_with_its_one_true_name() -> None:
    """Filmed step by step, a simulated game asks what a tracked one must ask, with the
    one true answer: her bottom card."""
    game = solo(["tactus"], ["lorn", "deanna"])
    game.states[-1] = replace(game.state, variants=frozenset({STEP_BY_STEP}))
    lead(game, "tactus", M)
    play(game, seat(1))
    assert game.pending is not None
    assert game.pending.prompt == "Name Au Toma's bottom card, now handed over"
    assert game.pending.options == (Choose("lorn"),)
    play(game, Choose("lorn"))
    assert hand(game) == ("lorn",) and hand(game, 1) == ("deanna",)


def test_step_by_step_au_toma_banishes_her_bottom_card_named_by_the_table() -> None:
    """Aja: the chosen opponent banishes one of their cards; Au Toma banishes her bottom
    one. Step by step the table names it, with its one true name the only answer."""
    game = solo(["aja"], ["lorn", "deanna"])
    game.states[-1] = replace(game.state, variants=frozenset({STEP_BY_STEP}))
    lead(game, "aja", M)
    play(game, seat(1))  # step by step, even a lone opponent is asked for
    assert game.pending is not None
    assert game.pending.prompt == "Name Au Toma's bottom card, now banished"
    assert game.pending.options == (Choose("lorn"),)
    play(game, Choose("lorn"))
    assert hand(game, 1) == ("deanna",) and "lorn" in game.state.banished


def test_the_victim_of_a_forced_banish_is_asked_by_name() -> None:
    """Aja: the chosen opponent banishes 1 of their cards, of their own choosing."""
    game = table([["aja"], ["lorn", "deanna"], ["eo"]])
    lead(game, "aja", M)
    play(game, seat(1))
    assert game.pending is not None and game.pending.player == 1
    assert game.pending.prompt == "P2: banish one of your cards"


def test_the_victim_picks_the_card_to_hand_over() -> None:
    """Tactus: the opponent chooses which card is stolen; they are asked by name."""
    game = table([["tactus"], ["lorn", "deanna"]])
    lead(game, "tactus", M)
    play(game, seat(1))
    assert game.pending is not None and game.pending.player == 1
    assert game.pending.prompt == "P2: pick the card to hand over"


def test_a_block_is_in_the_turn_summary() -> None:
    """Judge: revealed to block; the turn's summary names who blocked and with what."""
    game = table([["tactus"], ["judge", "lorn"]])
    lead(game, "tactus", M)
    play(game, seat(1))
    assert game.pending is not None
    assert game.pending.prompt == "P2: block the steal of a card from your hand?"
    play(game, Block("judge"))
    said = [change_text(c, game.state) for c in game.state.changes
            if c.kind == ChangeKind.BLOCK]
    assert said == ["P2 blocked with Judge"]


def test_arlus_goes_on_to_the_other_neighbor_after_a_blocked_banish() -> None:
    """Arlus: each neighbor shows a random card; a Gold is banished (Judge may block
    that), and any Red shown banishes Arlus. A block stops only its own banish."""
    game = table([["arlus"], ["lorn", "judge"], ["martyr"], ["deanna", "pelus"]],
                 rng=Picks("lorn", "deanna"))
    lead(game, "arlus", M)
    play(game, Block("judge"))
    assert hand(game, 1) == ("lorn", "judge")
    assert game.state.banished == ("arlus",)  # P4 showed Deanna, a Red


def test_a_steal_is_noted_with_whose_hand_the_card_came_from() -> None:
    """Tactus: steal 1 card from an opponent (they choose the card). With three players
    the log, the voice and the tracker are told which opponent's hand it left: P3's."""
    game = table([["tactus"], ["eo"], ["lorn", "deanna"]])
    lead(game, "tactus", M)
    play(game, seat(2), Choose("deanna"))
    assert hand(game) == ("deanna",) and hand(game, 2) == ("lorn",)
    stolen = [c for c in game.state.changes if c.kind == ChangeKind.STEAL]
    assert stolen == [Change(ChangeKind.STEAL, player=0, card="deanna", source="2")]
