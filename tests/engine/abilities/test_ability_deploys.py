"""Abilities that deploy a second card: its ability fires, and the gain step comes once."""

from __future__ import annotations

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
)

from engine.board import Location
from engine.events import DrawFromDeck, GainFrom
from engine.game import Game


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
