"""Abilities that deploy a second card: its ability fires, and the gain step comes once."""

from __future__ import annotations

import pytest
from abilities_support import (
    I,
    J,
    L,
    M,
    at,
    banish_from_deck,
    gain_is_next,
    hand,
    lead,
    play,
    stack,
    table,
    tokens,
    tracked,
)

from engine.abilities.primitives import STEP_BY_STEP
from engine.board import Location
from engine.decisions import Kind
from engine.errors import IllegalActionError
from engine.events import Choose, DrawFromDeck, GainFrom, Place, SetLocation
from engine.game import Game
from engine.narration import change_text
from engine.state import ChangeKind


def _gains(game: Game) -> set[Location]:
    """The locations the pending gain step offers."""
    return {o.location for o in game.legal_actions() if isinstance(o, GainFrom)}


def test_orion_deploys_another_blue_from_here_onto_jupiter() -> None:
    game = table([["orion"], ["judge"]], [["lorn"], ["pelus", "deanna"], ["eo"], ["aja"]])
    lead(game, "orion", M)  # Pelus is the only other Blue: taken at once
    assert stack(game, J) == ["lorn", "pelus"] and stack(game, M) == ["deanna", "orion"]
    assert tokens(game) == (0, 0, 2) and tokens(game, 1) == (0, 0, 1)  # Pelus' ability fired
    assert gain_is_next(game) and _gains(game) == {L, I}  # neither Mars nor Jupiter
    on_jupiter = table([["orion"], ["judge"]], [["pelus"], [], [], []])
    lead(on_jupiter, "orion", J)
    assert stack(on_jupiter, J) == ["pelus", "orion"] and tokens(on_jupiter) == (0, 0, 0)


def test_modjob_deploys_the_red_or_brown_below_elsewhere() -> None:
    game = table([["modjob"], ["judge"]], [["lorn", "uncle-narol"], [], [], []])
    lead(game, "modjob", J)
    play(game, at(I))
    assert stack(game, I) == ["uncle-narol"] and stack(game, J) == ["lorn", "modjob"]
    assert tokens(game) == (2, 0, 0)  # Uncle Narol's ability fired
    assert gain_is_next(game) and I not in _gains(game)
    gold = table([["modjob"], ["judge"]], [["lorn"], [], [], []])
    lead(gold, "modjob", J)
    assert stack(gold, J) == ["lorn", "modjob"] and gain_is_next(gold)


def test_calliope_deploys_the_deck_top_elsewhere_and_its_ability_fires() -> None:
    game = table([["calliope"], ["judge"]], [["eo"], [], [], []], deck=["lysander", "lorn"])
    lead(game, "calliope", M)
    play(game, at(L))  # Lysander on Luna: he draws and stays
    assert stack(game, L) == ["lysander"] and hand(game) == ("lorn",)
    assert _gains(game) == {J} and DrawFromDeck() in game.legal_actions()
    empty = table([["calliope"], ["judge"]])
    empty.states[-1] = banish_from_deck(empty.state, *empty.state.deck)
    lead(empty, "calliope", M)
    assert stack(empty, M) == ["calliope"] and empty.state.deck_count == 0


def test_a_chained_card_can_chain_again() -> None:
    game = table([["calliope"], ["judge"]], [[], ["deanna"], [], []], deck=["modjob"])
    lead(game, "calliope", J)
    play(game, at(M), at(I))  # Modjob lands on Deanna (a Red) and deploys her to the Institute
    assert stack(game, I) == ["deanna"] and tokens(game) == (1, 0, 0)
    assert gain_is_next(game) and _gains(game) == set()  # J, M and I were all deployed to


def test_orion_asks_which_blue_and_each_deploy_is_in_the_turn_summary() -> None:
    """Orion: deploy one other Blue from this location onto Jupiter. With two Blues the
    player picks one; the second deploy is told as a deploy, naming card and place."""
    game = table([["orion"], ["judge"]], [["lorn"], ["pelus", "virga"], ["eo"], ["aja"]])
    lead(game, "orion", M)
    assert game.pending is not None and game.pending.kind is Kind.TARGET
    assert game.pending.prompt == "P1: deploy which Blue onto Jupiter?"
    play(game, Choose("virga", M, 1))
    said = [change_text(c, game.state) for c in game.state.changes
            if c.kind == ChangeKind.DEPLOY]
    assert said == ["P1 deployed Virga to Jupiter"]


def test_orion_cannot_deploy_a_blue_turned_face_down_while_it_was_asked() -> None:
    """Orion moves "one other Blue"; a face-down card has no color, so a Blue the table
    corrects to face down while the question is open no longer qualifies."""
    game = tracked([["lorn"], ["pelus"], ["eo"], ["aja"]])
    lead(game, "orion", M)
    assert game.pending is not None and Choose("pelus", M, 0) in game.legal_actions()
    game.push(SetLocation(M, ("pelus", "orion"), face_down=(True, False)))
    with pytest.raises(IllegalActionError, match=r"^pelus does not qualify \[ability\]$"):
        game.play(Choose("pelus", M, 0))


def test_modjob_redeploys_a_brown_below_too_but_only_to_another_location() -> None:
    """Modjob: deployed directly on a Red or Brown, deploy that card on top of another
    location. Mess Hall Cook is a Brown; Modjob's own location is not offered."""
    game = table([["modjob"], ["judge"]], [["lorn", "mess-hall-cook"], [], [], []])
    lead(game, "modjob", J)
    assert game.pending is not None
    assert game.pending.prompt == "P1: deploy the card below onto which location?"
    assert {o.location for o in game.legal_actions()} == {M, L, I}
    play(game, at(L))
    assert stack(game, L) == ["mess-hall-cook"] and stack(game, J) == ["lorn", "modjob"]


def test_calliope_turns_over_the_decks_last_card_and_offers_only_other_locations() -> None:
    """Calliope: reveal the deck's top card (the last one too) and deploy it face up on
    another location; the prompt names it."""
    game = table([["calliope"], ["judge"]], [["eo"], [], [], []])
    rest = game.state.deck or ()
    game.push(SetLocation(J, ("eo", *rest[1:])))  # one card left in the deck
    lead(game, "calliope", M)
    last = rest[0]
    assert game.pending is not None
    assert game.pending.prompt == f"P1: deploy {last} onto which location?"
    assert {o.location for o in game.legal_actions()} == {J, L, I}


def test_step_by_step_calliope_names_the_revealed_card_where_it_may_land() -> None:
    """Filmed step by step, the revealed card is placed as the table does it: each option
    names it, on every location but Calliope's own."""
    game = table([["calliope"], ["judge"]], [["eo"], [], [], []], deck=["lysander", "lorn"],
                 variants=[STEP_BY_STEP])
    lead(game, "calliope", M)
    assert game.pending is not None and game.pending.kind is Kind.PLACE
    assert game.pending.prompt == "P1: deploy the revealed card onto which location?"
    assert set(game.legal_actions()) == {Place(loc, "lysander") for loc in (J, L, I)}


def test_tracked_calliope_needs_the_deployed_card_named() -> None:
    """While tracking nobody has seen the revealed card: the table must say what landed."""
    game = tracked([["pelus"], ["virga"], ["orion"], ["the-pax"]])
    lead(game, "calliope", M)
    assert game.pending is not None and game.pending.player == 0
    with pytest.raises(IllegalActionError,
                       match=r"^name the card that was deployed \[deploy\]$"):
        game.play(Place(J, None))
