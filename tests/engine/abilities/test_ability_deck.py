"""Abilities that turn deck cards over and place them, or bring banished cards back."""

from __future__ import annotations

import pytest
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
    tracked,
    values,
)

from engine.abilities.primitives import STEP_BY_STEP, Moved
from engine.board import Location
from engine.decisions import Kind
from engine.errors import IllegalActionError
from engine.events import Choose, Decline, Place, SetLocation
from engine.game import Game
from engine.narration import change_text, line
from engine.state import Change, ChangeKind


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


def _asked(game: Game) -> tuple[Kind, int | None, str]:
    assert game.pending is not None
    return game.pending.kind, game.pending.player, game.pending.prompt


def _short_deck(game: Game, left: int) -> tuple[str, ...]:
    """Leave only the deck's top ``left`` cards (the rest go onto the Institute)."""
    rest = game.state.deck or ()
    game.push(SetLocation(I, rest[left:]))
    return rest[:left]


def _said(game: Game) -> list[str]:
    return [change_text(c, game.state) for c in game.state.changes]


def test_two_under_with_one_card_left_slides_just_that_one_under() -> None:
    """Dr. Virany on Mars: reveal the deck's top 2 and put them under this card; with one
    card left in the deck, that one goes under, with no order to choose."""
    game = table([["dr-virany"], ["judge"]])
    (last,) = _short_deck(game, 1)
    lead(game, "dr-virany", M)
    assert stack(game, M) == [last, "dr-virany"] and gain_is_next(game)


def test_two_under_asks_which_card_goes_directly_under_and_films_each() -> None:
    """The player orders the two cards; step by step each slide under is its own step."""
    game = table([["dr-virany"], ["judge"]], deck=["lorn", "eo"], variants=[STEP_BY_STEP])
    lead(game, "dr-virany", M)
    play(game, Choose("lorn"), Choose("eo"))  # the table names both as they are shown
    assert _asked(game) == (Kind.CHOOSE, 0, "P1: which card goes directly under dr-virany?")
    play(game, Choose("lorn"))
    assert _asked(game) == (Kind.CONFIRM, 0, "P1: put a turned-over card directly under "
                                             "dr-virany")


def test_hacker_and_seer_turn_over_the_decks_last_card_but_not_from_an_empty_deck() -> None:
    """Hacker: reveal the deck's top card, banish it or place it on another location.
    Seer (holding the Sovereign): reveal it and place it on another location. The last
    card counts; an empty deck gives nothing to reveal."""
    hacker = table([["hacker"], ["judge"]])
    (last,) = _short_deck(hacker, 1)
    lead(hacker, "hacker", J)
    assert _asked(hacker) == (Kind.PLACE, 0, f"P1: banish {last}, or place it on another "
                                             "location?")
    seer = table([["seer"], ["judge"]], sovereign=0)
    (last,) = _short_deck(seer, 1)
    lead(seer, "seer", J)
    assert _asked(seer) == (Kind.PLACE, 0, "P1: place the revealed card on another location")
    empty = table([["hacker"], ["judge"]])
    _short_deck(empty, 0)
    lead(empty, "hacker", J)
    assert gain_is_next(empty)


def test_a_tracked_hacker_names_the_unseen_card_and_its_banish_is_asked_of_the_player() -> None:
    """While tracking the turned-over card has no name until the table gives one; the
    banished card is named by the player whose ability it is."""
    game = tracked([["pelus"], ["virga"], ["orion"], ["the-pax"]])
    lead(game, "hacker", M)
    assert _asked(game) == (Kind.PLACE, 0, "P1: banish the card, or place it on another "
                                           "location?")
    play(game, Choose("banish"))
    assert _asked(game) == (Kind.CONFIRM, 0, "Name the turned-over card")


def test_a_tracked_researcher_asks_which_banished_card_was_drawn_and_films_it() -> None:
    """Researcher puts a random banished card at the bottom of its location: while
    tracking the table draws it and says which; the camera sees it slide under."""
    game = tracked([["pelus"], ["virga"], ["orion"], ["the-pax"]])
    game.push(SetLocation(J, ("pelus", "lorn")))
    game.push(SetLocation(J, ("pelus",)))  # Lorn went to the banished pile
    lead(game, "researcher", M)
    assert _asked(game) == (Kind.CONFIRM, 0, "Researcher: which banished card was drawn?")
    play(game, Choose("lorn"))
    assert _asked(game) == (Kind.CONFIRM, 0, "P1: put lorn at the bottom of Mars")
    assert tuple(game.legal_actions()) == (Moved(target=M, card="lorn", under=True),)
    play(game, Moved(target=M, card="lorn", under=True))
    assert _said(game) == ["Lorn put under a card on Mars"]


def test_psychologist_asks_where_and_for_a_second_card_and_says_what_was_placed() -> None:
    """Psychologist: you may place 1 or 2 banished cards on top of one location; while
    tracking the second is a step the camera sees."""
    game = tracked([["pelus"], ["virga"], ["orion"], ["the-pax"]])
    game.push(SetLocation(J, ("pelus", "lorn", "eo")))
    game.push(SetLocation(J, ("pelus",)))
    lead(game, "psychologist", M)
    assert _asked(game) == (Kind.CHOOSE, 0, "P1: place a banished card?")
    play(game, Choose("lorn"))
    assert _asked(game) == (Kind.CHOOSE, 0, "P1: place lorn on which location?")
    play(game, Choose("luna", L))
    assert _said(game) == ["Lorn placed on Luna"]
    assert _asked(game) == (Kind.CHOOSE, 0, "Psychologist: place a second card on Luna?")
    play(game, Choose("eo"))
    assert _asked(game) == (Kind.CONFIRM, 0, "P1: place eo on Luna")
    assert tuple(game.legal_actions()) == (Moved(target=L, card="eo"),)


def test_group_counselor_asks_which_card_and_which_end_of_the_deck() -> None:
    """Group Counselor: up to 3 banished cards, each on the top or the bottom of the deck."""
    game = table([["group-counselor"], ["judge"]])
    game.states[-1] = banish_from_deck(game.state, "lorn")
    lead(game, "group-counselor", M)
    assert _asked(game) == (Kind.CHOOSE, 0, "P1: return a banished card to the deck?")
    play(game, Choose("lorn"))
    assert _asked(game) == (Kind.CHOOSE, 0, "Put lorn on the top or the bottom of the deck?")


def test_researchers_pick_is_logged_as_drawn_at_random() -> None:
    """Researcher's banished card is random: the log says so rather than who chose it."""
    game = table([["researcher"], ["judge"]], rng=Picks("lorn"))
    game.states[-1] = banish_from_deck(game.state, "deanna", "lorn")
    lead(game, "researcher", M)
    assert line(game.log[-1], game.states[-2], game.states[-1]) == "A card drawn at random"


def test_firewall_expert_asks_which_card_goes_face_down_where() -> None:
    """Firewall Expert: look at the deck's top 3 and put one face down on each other
    location; the player pairs cards and locations."""
    game = table([["firewall-expert"], ["judge"]], deck=["lorn", "eo", "nero"])
    lead(game, "firewall-expert", J)
    assert _asked(game) == (Kind.CHOOSE, 0, "P1: put which card face down where?")


def test_a_researcher_card_back_on_the_table_since_the_question_is_refused() -> None:
    """Researcher takes a banished card: one the table has since put back into play is
    no longer banished, and naming it is refused."""
    game = tracked([["pelus"], ["virga"], ["orion"], ["the-pax"]])
    game.push(SetLocation(J, ("pelus", "lorn")))
    game.push(SetLocation(J, ("pelus",)))
    lead(game, "researcher", M)
    game.push(SetLocation(J, ("pelus", "lorn")))  # the camera sees Lorn on Jupiter after all
    with pytest.raises(IllegalActionError, match=r"^lorn is not banished \[banished\]$"):
        game.play(Choose("lorn"))


def test_researcher_draws_at_random_for_nobody_and_notes_the_card_from_the_banished_pile() -> None:
    """Researcher: put a random banished card at the bottom of this location. The draw is
    chance, nobody's choice, asked in Researcher's words; the log, the voice and the
    tracker are told the card came from the banished pile, to Mars."""
    game = table([["researcher"], ["judge"]], [[], ["eo"], [], []], rng=Picks("lorn"))
    game.states[-1] = banish_from_deck(game.state, "deanna", "lorn")
    lead(game, "researcher", M)
    drawn = game.states[-2].pending
    assert drawn is not None and (drawn.kind, drawn.player) == (Kind.RANDOM, None)
    assert drawn.prompt == "Researcher: a random banished card"
    assert game.state.changes == (
        Change(ChangeKind.PLACE_UNDER, card="lorn", source="banished", target="mars"),)


def test_psychologist_notes_the_card_placed_as_from_the_banished_pile() -> None:
    """Psychologist: place (not deploy) a banished card on top of one location; the
    change says it came from the banished pile, to Luna."""
    game = table([["psychologist"], ["judge"]])
    game.states[-1] = banish_from_deck(game.state, "deanna", "lorn", "eo")
    lead(game, "psychologist", M)
    play(game, Choose("lorn"), Choose("luna", L))
    assert game.state.changes == (
        Change(ChangeKind.PLACE, card="lorn", source="banished", target="luna"),)
