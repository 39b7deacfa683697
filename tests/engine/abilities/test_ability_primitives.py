"""The shared building blocks of abilities, through the cards that use them.

Each test names the printed card text it relies on (``../shared/reference/cards.json``),
in our own words.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
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
    play,
    solo,
    stack,
    table,
    tokens,
    tracked,
    turn_of,
)

from engine.abilities.primitives import MULTIPLAYER_VARIANT, STEP_BY_STEP
from engine.cards import CARDS, Color
from engine.decisions import Kind
from engine.errors import IllegalActionError
from engine.events import Choose, Decline, Pile, SetHandCount, SetLocation, SetTokens, place
from engine.game import Game
from engine.narration import change_text
from engine.state import ChangeKind

STACKS = [["pelus"], ["virga"], ["orion"], ["the-pax"]]


def _offered(game: Game) -> set[object]:
    assert game.pending is not None
    return {getattr(o, "value", None) for o in game.pending.options}


def _reds_unseen(game: Game, *but: str) -> set[object]:
    seen = {s.card for stack in game.state.locations for s in stack}
    return {c for c, card in CARDS.items() if card.color is Color.RED and c not in seen
            and c not in but and c != "dancer"}


def test_a_tracked_dancer_shows_two_reds_one_by_one_for_two_more_helium() -> None:
    """Dancer: gain 1 Helium, and 2 more by revealing 2 other Reds from hand. While
    tracking, the hand is unseen: the player shows each Red (any Red nobody has seen
    elsewhere) or declines, and the prompt counts the cards shown."""
    game = tracked(STACKS)
    lead(game, "dancer", M)
    assert game.pending is not None
    assert game.pending.prompt == "P1: reveal a red card (1 of 2), or decline"
    assert _offered(game) == _reds_unseen(game) | {None}  # None: the Decline
    first = sorted(_reds_unseen(game))[0]
    play(game, Choose(first))
    assert game.pending.prompt == "P1: reveal a red card (2 of 2), or decline"
    assert _offered(game) == _reds_unseen(game, first) | {None}
    second = sorted(_reds_unseen(game, first))[0]
    play(game, Choose(second))
    assert tokens(game) == (3, 0, 0)
    assert set(hand(game)) == {first, second}  # shown, so known to be held


def test_a_tracked_dancer_who_declines_keeps_only_the_first_helium() -> None:
    """Dancer's 2 more Helium need the 2 Reds shown: declining after one gets nothing more."""
    game = tracked(STACKS)
    lead(game, "dancer", M)
    play(game, Choose(sorted(_reds_unseen(game))[0]), Decline())
    assert tokens(game) == (1, 0, 0)


def test_step_by_step_the_simulated_dancer_shows_her_reds_one_at_a_time() -> None:
    """Filmed step by step, the simulated player shows the next Red of a known hand: the
    one true answer, one card a question."""
    game = table([["dancer", "deanna", "eo", "lorn"], ["judge"]], variants=[STEP_BY_STEP])
    lead(game, "dancer", M)
    assert game.pending is not None and game.pending.options == (Choose("deanna"),)
    play(game, Choose("deanna"))
    assert game.pending.options == (Choose("eo"),)
    play(game, Choose("eo"))
    assert tokens(game) == (3, 0, 0)


def test_the_multiplayer_variant_spares_au_toma_until_she_holds_more_than_her_two() -> None:
    """FAQ variant: an opponent may be picked only with more cards than they were dealt.
    Au Toma is dealt 2 (solo rules), so Aja's forced banish spares her at 2, not at 3."""
    for her, banished in ((["lorn", "deanna"], ("aja",)),
                          (["lorn", "deanna", "pelus"], ("lorn", "aja"))):
        game = solo(["aja"], her)
        game.states[-1] = replace(game.state, variants=frozenset({MULTIPLAYER_VARIANT}))
        lead(game, "aja", M)
        assert game.state.banished == banished


def _gambler_asks_for_the_turned_over_card() -> Game:
    """A tracked Online Gambler has named its three colors and turned the deck's top over."""
    game = tracked(STACKS)
    lead(game, "online-gambler", M)
    play(game, Choose("gold"), Choose("red"), Choose("blue"))
    assert game.pending is not None and game.pending.prompt == "Name the turned-over card"
    return game


def test_a_turned_over_card_cannot_be_named_as_one_seen_elsewhere_since() -> None:
    """There is one copy of each card: once Lorn is seen on Jupiter, the turned-over card
    cannot be Lorn, though it was a fair answer when the question was asked."""
    game = _gambler_asks_for_the_turned_over_card()
    game.push(SetLocation(J, ("pelus", "lorn")))
    with pytest.raises(IllegalActionError, match=r"^lorn is already somewhere else \[one-copy\]$"):
        game.play(Choose("lorn"))
    assert game.pending is not None and game.pending.prompt == "Name the turned-over card"


def test_a_missed_bet_banishes_the_turned_over_card_from_the_deck_in_words() -> None:
    """Online Gambler: a turned-over card of a named color is gained; one of none of them
    is banished. The turn's summary says which, naming the card."""
    game = _gambler_asks_for_the_turned_over_card()
    play(game, Choose("pax-au-telemanus"))  # a Gold: the bet is won
    won = [change_text(c, game.state) for c in game.state.changes if c.kind == ChangeKind.GAIN]
    assert won == ["P1 gained Pax au telemanus from the deck"]
    missed = _gambler_asks_for_the_turned_over_card()
    play(missed, Choose("banker"))  # a Silver: none of gold, red, blue
    said = [change_text(c, missed.state) for c in missed.state.changes
            if c.kind == ChangeKind.BANISH]
    assert said == ["Banker banished from the deck"]


def test_a_card_put_back_into_the_deck_is_said_so() -> None:
    """Group Counselor returns banished cards to the deck: the log names each one."""
    game = table([["group-counselor"], ["judge"]])
    game.states[-1] = banish_from_deck(game.state, "lorn")
    lead(game, "group-counselor", M)
    play(game, Choose("lorn"), Choose("bottom"))
    said = [change_text(c, game.state) for c in game.state.changes
            if c.kind == ChangeKind.TO_DECK]
    assert said == ["Lorn went back into the deck"]



def test_no_gold_can_turn_up_from_a_deck_emptied_meanwhile() -> None:
    """Empty deck: nothing can draw from it or reveal from it. A tracked Mickey the Carver
    asks which Gold turned up; told meanwhile that the other player holds every card the
    deck had left, the table cannot then name a Gold: the answer is refused."""
    game = tracked(STACKS)
    lead(game, "mickey-the-carver", M)
    play(game, Choose("deanna"))
    assert game.pending is not None
    assert game.pending.prompt == "Mickey: which Gold turned up? (decline: none)"
    game.push(SetHandCount(1, game.state.players[1].hand.size + game.state.deck_count))
    assert game.state.deck_count == 0
    with pytest.raises(IllegalActionError, match=r"^the deck is empty \[empty-deck\]$"):
        game.play(Choose("lorn"))
    assert hand(game) == () and game.state.deck_count == 0


def test_an_unseen_card_cannot_be_handed_over_from_a_hand_holding_none() -> None:
    """Tactus: steal 1 card from an opponent (they choose the card). While tracking, the
    opponent's unseen card changes hands unseen; told meanwhile that they hold no card,
    the table must name the card: an unseen one is refused and nothing changes hands."""
    game = tracked(STACKS)
    lead(game, "tactus", M)
    play(game, Choose("1"), Decline())  # P2 is asked first whether to block
    assert game.pending is not None
    assert game.pending.prompt == "P2: pick the card to hand over"
    game.push(SetHandCount(1, 0))
    before = game.state.players[0].hand
    with pytest.raises(IllegalActionError, match=r"^name the card \[hand\]$"):
        game.play(Choose(None))
    assert game.state.players[0].hand == before and game.state.players[1].hand.size == 0


def test_each_card_put_under_is_named_in_the_turn_summary() -> None:
    """Dr. Virany on Mars: reveal the top 2 cards of the deck and place them under this
    card in any order. The cards were revealed: the turn's summary names each one."""
    game = table([["dr-virany"], ["judge"]], deck=["lorn", "eo"])
    lead(game, "dr-virany", M)
    play(game, Choose("eo"))  # Eo directly under Dr. Virany, Lorn under Eo
    said = [change_text(c, game.state) for c in game.state.changes
            if c.kind == ChangeKind.PLACE_UNDER]
    assert said == ["Lorn put under a card on Mars", "Eo put under a card on Mars"]


def test_step_by_step_a_dancer_without_two_reds_is_asked_only_to_decline() -> None:
    """Dancer: 2 more Helium by revealing 2 other Reds from hand. Filmed step by step,
    her player, holding one other Red, is asked and can only decline: 1 Helium in all."""
    game = table([["dancer", "deanna", "judge"], ["lorn"]], variants=[STEP_BY_STEP])
    lead(game, "dancer", M)
    assert game.pending is not None and game.pending.player == 0
    assert game.pending.prompt == "P1: reveal a card, or decline"
    assert asks(game) is Kind.CHOOSE  # the player's choice, not the table's report
    assert game.pending.options == (Decline(),)
    play(game, Decline())
    assert tokens(game) == (1, 0, 0)


def test_politician_asks_whether_to_reveal_two_golds() -> None:
    """Politician: you may reveal 2 Golds from your hand to place 2 Influence. Holding
    them, the player is asked, in those words, to reveal or decline."""
    game = table([["politician", "lorn", "aja"], ["judge"]])
    lead(game, "politician", M)
    assert game.pending is not None
    assert game.pending.prompt == "P1: reveal 2 gold cards?"
    assert game.pending.options == (Choose("reveal"), Decline())


def test_a_turned_over_card_placed_on_a_location_is_named_with_it() -> None:
    """Hacker: reveal the deck's top card and place (not deploy) it on another location.
    The card was shown: the turn's summary names it and where it went."""
    game = table([["hacker"], ["judge"]], deck=["lorn"])
    lead(game, "hacker", M)
    play(game, place(L, "lorn"))
    said = [change_text(c, game.state) for c in game.state.changes
            if c.kind == ChangeKind.PLACE]
    assert said == ["Lorn placed on Luna"]


def test_each_card_put_face_down_is_said_with_its_location() -> None:
    """Firewall Expert: put one of the deck's top 3 face down on each other location. The
    cards are unseen, so the summary says only where each one went."""
    game = table([["firewall-expert"], ["judge"]], deck=["lorn", "eo", "nero"])
    lead(game, "firewall-expert", J)
    play(game, Choose("lorn", M), Choose("eo", L))  # Nero: the one place left, Institute
    said = [change_text(c, s) for s in game.states[-2:] for c in s.changes
            if c.kind == ChangeKind.PLACE_DOWN]
    assert said == ["A card placed face down on Mars", "A card placed face down on Luna",
                    "A card placed face down on The Institute"]
    assert stack(game, I) == ["nero"]


def test_a_banished_card_back_in_play_before_it_is_put_down_is_refused() -> None:
    """Researcher: put a random banished card at the bottom of this location. While
    tracking, the card named is put down as its own step; the table meanwhile seen to hold
    it (no longer banished), the move is refused, naming the card, and nothing changes."""
    game = tracked([["pelus"], ["virga"], ["orion"], ["the-pax"]])
    game.push(SetLocation(J, ("pelus", "lorn")))
    game.push(SetLocation(J, ("pelus",)))
    lead(game, "researcher", M)
    play(game, Choose("lorn"))
    assert game.pending is not None and game.pending.prompt == "P1: put lorn at the bottom of Mars"
    game.push(SetLocation(J, ("pelus", "lorn")))  # the camera sees Lorn on Jupiter after all
    with pytest.raises(IllegalActionError, match=r"^lorn is not banished \[banished\]$"):
        game.play(game.pending.options[0])
    assert stack(game, M) == ["virga", "researcher"]


def test_a_tracked_turned_over_card_may_be_any_card_nobody_has_seen() -> None:
    """Online Gambler turns the deck's top card over. While tracking, the deck is unseen:
    the table names the card, which may be any card not seen on the table."""
    game = _gambler_asks_for_the_turned_over_card()
    seen = {"pelus", "virga", "orion", "the-pax", "online-gambler"}
    assert _offered(game) == set(CARDS) - seen


def test_a_tracked_turned_over_card_cannot_be_placed_as_one_seen_elsewhere() -> None:
    """Hacker: reveal the deck's top card and place it on another location. While
    tracking, the camera names the card placed; there is one copy of each card, so Pelus,
    seen on Jupiter, is refused and the card still waits to be placed."""
    game = tracked(STACKS)
    lead(game, "hacker", M)
    with pytest.raises(IllegalActionError,
                       match=r"^pelus is already somewhere else \[one-copy\]$"):
        game.play(place(L, "pelus"))
    assert stack(game, L) == ["orion"] and game.state.revealed == (None,)
    play(game, place(L, "eo"))
    assert stack(game, L) == ["orion", "eo"] and game.state.revealed == ()


def test_a_tracked_cassius_has_an_unnamed_card_under_him_named_but_not_a_face_down_one() -> None:
    """Cassius: gain the card directly under this one; banish Cassius unless that card is
    a Gold. While tracking, a face-up card under him nobody has named decides whether he
    stays: it is named first. A face-down card has no color, so it is not asked about."""
    unread = tracked(STACKS)
    unread.push(SetLocation(J, ("pelus", None)))
    lead(unread, "cassius", J)
    assert unread.pending is not None and unread.pending.prompt == "Name the card at Jupiter (#2)"
    assert _offered(unread) == set(CARDS) - {"pelus", "virga", "orion", "the-pax", "cassius"}
    play(unread, Choose("lorn", J, 1))  # a Gold: Cassius takes it and stays
    assert unread.pending is not None and unread.pending.prompt == "P1: take lorn from Jupiter"
    play(unread, *unread.legal_actions())
    assert stack(unread, J) == ["pelus", "cassius"] and hand(unread) == ("lorn",)
    down = tracked(STACKS)
    down.push(SetLocation(J, ("pelus", None), face_down=(False, True)))
    lead(down, "cassius", J)
    assert down.pending is not None and down.pending.prompt == "P1: take the card from Jupiter"


def test_a_tracked_bondilus_has_an_unnamed_card_named_before_offering_the_non_golds() -> None:
    """Bondilus on Mars: banish 1 non-Gold from this location. While tracking, whether a
    face-up card nobody has named may be banished depends on its color: it is named first."""
    game = tracked(STACKS)
    game.push(SetLocation(M, ("virga", None)))
    lead(game, "bondilus", M)
    assert game.pending is not None and game.pending.prompt == "Name the card at Mars (#2)"
    play(game, Choose("lorn", M, 1))  # a Gold: not offered
    assert _offered(game) == {"virga", "bondilus"}


def test_reporter_handed_over_under_a_card_seen_meanwhile_is_still_the_card_given() -> None:
    """Reporter: with more Helium than the player to your right, give them the Reporter.
    While tracking, the camera confirms the hand-over; a card it sees land on Reporter
    meanwhile stays, and Reporter goes. The change is noted as given, not gained (the
    turn's summary and the voice tell what a player gains)."""
    game = tracked(STACKS)
    game.push(SetTokens(0, 1, 0, 0))
    lead(game, "reporter", J)
    assert game.pending is not None and game.pending.prompt == "P1: hand over reporter from Jupiter"
    game.push(SetLocation(J, ("pelus", "reporter", "eo")))
    play(game, *game.legal_actions())
    assert stack(game, J) == ["pelus", "eo"] and hand(game, 1) == ("reporter",)
    noted = [(c.kind, c.player) for c in game.state.changes if c.card == "reporter"]
    assert noted == [(ChangeKind.GIVE, 1)]


def test_tactus_seen_banished_before_its_banish_step_still_ends_the_turn() -> None:
    """Tactus: if you steal a card, banish Tactus and end your turn. While tracking, the
    camera may see Tactus banished before the engine asks for it: the turn still ends."""
    game = tracked(STACKS)
    lead(game, "tactus", M)
    play(game, Choose("1"), Decline())  # P2 is asked first whether to block
    assert game.pending is not None and game.pending.prompt == "P2: pick the card to hand over"
    game.push(SetLocation(M, ("virga",)))  # Tactus already gone to the banished pile
    play(game, Choose(None))
    assert not gain_is_next(game) and turn_of(game) == 1
    assert stack(game, M) == ["virga"] and "tactus" in game.state.banished


def test_a_card_to_name_gone_after_a_correction_is_refused_by_its_place() -> None:
    """Bondilus on Mars names an unread card first. The camera meanwhile finds it misread
    Mars, which holds only Bondilus: the answer naming the second card there is refused,
    saying so."""
    game = tracked(STACKS)
    game.push(SetLocation(M, ("virga", None)))
    lead(game, "bondilus", M)
    game.push(SetLocation(M, ("bondilus",), removed_to=Pile.DECK))
    with pytest.raises(IllegalActionError, match=r"^Mars has no card 2 \[location\]$"):
        game.play(Choose("lorn", M, 1))
    assert stack(game, M) == ["bondilus"]
