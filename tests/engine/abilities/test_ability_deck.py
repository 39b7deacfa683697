"""Abilities that turn deck cards over and place them, or bring banished cards back."""

from __future__ import annotations

from abilities_support import (
    I,
    J,
    L,
    M,
    Picks,
    banish_from_deck,
    gain_is_next,
    lead,
    play,
    stack,
    table,
    values,
)

from engine.board import Location
from engine.events import Choose, Decline, Place


def _two_under(card: str, where: Location, elsewhere: Location) -> None:
    """Deployed on its location: the deck's top two go under it, in the player's order."""
    game = table([[card], ["judge"]], [[], [], [], []], deck=["lorn", "eo", "nero"])
    lead(game, card, where)
    assert values(game) == {"lorn", "eo"}
    play(game, Choose("lorn"))  # Lorn directly under the card
    assert stack(game, where) == ["eo", "lorn", card]
    assert game.state.deck[0] == "nero"
    assert not any(c.kind == "deploy" and c.card != card for c in game.state.changes)
    other = table([[card], ["judge"]], deck=["lorn", "eo"])
    lead(other, card, elsewhere)
    assert stack(other, elsewhere) == [card] and other.state.deck[0] == "lorn"


def test_administrator_on_the_institute_puts_two_deck_cards_under_itself() -> None:
    _two_under("administrator", I, M)


def test_dataport_specialist_on_jupiter_puts_two_deck_cards_under_itself() -> None:
    _two_under("dataport-specialist", J, L)


def test_dr_virany_on_mars_puts_two_deck_cards_under_herself() -> None:
    _two_under("dr-virany", M, J)


def test_holo_designer_on_luna_puts_two_deck_cards_under_itself() -> None:
    game = table([["holo-designer"], ["judge"]], [[], [], ["pelus"], []], deck=["lorn", "eo"])
    lead(game, "holo-designer", L)
    play(game, Choose("eo"))
    assert stack(game, L) == ["pelus", "lorn", "eo", "holo-designer"]
    _two_under("holo-designer", L, I)


def test_firewall_expert_puts_one_card_face_down_on_each_other_location() -> None:
    game = table([["firewall-expert"], ["judge"]], deck=["lorn", "eo", "nero", "aja"])
    lead(game, "firewall-expert", J)
    assert {(o.value, o.location) for o in game.legal_actions()} == {
        (c, loc) for c in ("lorn", "eo", "nero") for loc in (M, L, I)}
    play(game, Choose("lorn", M), Choose("nero", I))  # the last pair is forced
    state = game.state
    assert [(s.card, s.face_down) for s in state.stack_at(L)] == [("eo", True)]
    assert stack(game, M) == ["lorn"] and stack(game, I) == ["nero"]
    assert stack(game, J) == ["firewall-expert"] and state.deck[0] == "aja"
    assert sum(c.kind == "place-down" for c in state.changes) == 2  # Nero, then Eo at once


def test_firewall_expert_with_a_short_deck_places_what_there_is() -> None:
    game = table([["firewall-expert"], ["judge", "martyr"]])
    deck = game.state.deck
    game.states[-1] = banish_from_deck(game.state, *deck[1:])
    lead(game, "firewall-expert", M)
    assert values(game) == {deck[0]}
    play(game, Choose(deck[0], J))
    assert game.state.deck_count == 0 and game.state.stack_at(J)[0].face_down


def test_hacker_banishes_or_places_the_deck_top_elsewhere() -> None:
    game = table([["hacker"], ["judge"]], deck=["lorn"])
    lead(game, "hacker", J)
    assert Place(J, "lorn") not in game.legal_actions()
    play(game, Place(L, "lorn"))
    assert stack(game, L) == ["lorn"] and game.state.players[0].influence == 0
    banished = table([["hacker"], ["judge"]], deck=["lorn"])
    lead(banished, "hacker", J)
    play(banished, Choose("banish"))
    assert banished.state.banished == ("lorn",)


def test_seer_with_the_sovereign_places_the_deck_top_elsewhere() -> None:
    game = table([["seer"], ["judge"]], deck=["lorn"], sovereign=0)
    lead(game, "seer", M)
    assert {o.location for o in game.legal_actions()} == {J, L, I}
    play(game, Place(I, "lorn"))
    assert stack(game, I) == ["lorn"] and game.state.players[0].influence == 0  # no bonus
    without = table([["seer"], ["judge"]], deck=["lorn"])
    lead(without, "seer", M)
    assert without.state.deck[0] == "lorn" and gain_is_next(without)


def test_researcher_puts_a_random_banished_card_at_the_bottom_here() -> None:
    game = table([["researcher"], ["judge"]], [[], ["eo"], [], []], rng=Picks("lorn"))
    game.states[-1] = banish_from_deck(game.state, "deanna", "lorn")
    lead(game, "researcher", M)
    assert stack(game, M) == ["lorn", "eo", "researcher"] and game.state.banished == ("deanna",)
    none = table([["researcher"], ["judge"]])
    lead(none, "researcher", M)
    assert stack(none, M) == ["researcher"] and gain_is_next(none)


def test_psychologist_may_place_one_or_two_banished_cards_on_one_location() -> None:
    game = table([["psychologist"], ["judge"]])
    game.states[-1] = banish_from_deck(game.state, "deanna", "lorn", "eo")
    lead(game, "psychologist", M)
    play(game, Choose("lorn"), Choose("luna", L), Choose("eo"))
    assert stack(game, L) == ["lorn", "eo"] and game.state.banished == ("deanna",)
    one = table([["psychologist"], ["judge"]])
    one.states[-1] = banish_from_deck(one.state, "lorn", "eo")
    lead(one, "psychologist", M)
    play(one, Choose("lorn"), Choose("mars", M), Decline())
    assert stack(one, M) == ["psychologist", "lorn"] and one.state.banished == ("eo",)
    declined = table([["psychologist"], ["judge"]])
    declined.states[-1] = banish_from_deck(declined.state, "lorn")
    lead(declined, "psychologist", M)
    play(declined, Decline())
    assert declined.state.banished == ("lorn",)


def test_group_counselor_returns_up_to_three_banished_cards_to_the_deck() -> None:
    game = table([["group-counselor"], ["judge"]], deck=["nero"])
    game.states[-1] = banish_from_deck(game.state, "deanna", "lorn", "eo", "aja")
    lead(game, "group-counselor", M)
    play(game, Choose("lorn"), Choose("top"), Choose("eo"), Choose("bottom"),
         Choose("aja"), Choose("top"))
    state = game.state
    assert state.deck[:3] == ("aja", "lorn", "nero") and state.deck[-1] == "eo"
    assert state.banished == ("deanna",) and gain_is_next(game)
    stopped = table([["group-counselor"], ["judge"]])
    stopped.states[-1] = banish_from_deck(stopped.state, "lorn")
    lead(stopped, "group-counselor", M)
    play(stopped, Decline())
    assert stopped.state.banished == ("lorn",)
