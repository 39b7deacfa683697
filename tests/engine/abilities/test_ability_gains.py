"""Abilities that take cards into a hand, and the three that hand themselves over."""

from __future__ import annotations

import pytest
from abilities_support import (
    I,
    J,
    L,
    M,
    banish_from_deck,
    gain_is_next,
    hand,
    lead,
    pick,
    play,
    seat,
    solo,
    stack,
    table,
    tracked,
    turn_of,
    values,
    with_bottom,
)

from engine.decisions import Kind
from engine.errors import IllegalActionError
from engine.events import Choose, Decline, Lead, SetLocation, SetSovereign
from engine.game import Game
from engine.rulings import SELF_BANISH_ALONE
from engine.state import Change, ChangeKind


def _may_gain(card: str, here: list[str], take: str) -> None:
    """Main path: take ``take`` from here and end the turn; a decline keeps the turn going."""
    game = table([[card], ["judge"]], [here, [], [], []])
    lead(game, card, J)
    play(game, pick(take, J, here.index(take)))
    assert take in hand(game) and turn_of(game) == 1  # the turn ended: no gain step
    declined = table([[card], ["judge"]], [here, [], [], []])
    lead(declined, card, J)
    play(declined, Decline())
    assert hand(declined) == () and gain_is_next(declined)


def _nothing_to_gain(card: str, here: list[str]) -> None:
    game = table([[card], ["judge"]], [here, [], [], []])
    lead(game, card, J)
    assert gain_is_next(game)


def test_aegis_craftsman_may_gain_a_gold_here() -> None:
    _may_gain("aegis-craftsman", ["deanna", "lorn"], "lorn")
    _nothing_to_gain("aegis-craftsman", ["deanna"])


def test_razor_designer_may_gain_a_gold_here() -> None:
    _may_gain("razor-designer", ["lorn", "deanna"], "lorn")
    _nothing_to_gain("razor-designer", ["deanna"])


def test_artificer_may_gain_a_gold_or_another_orange() -> None:
    _may_gain("artificer", ["cyther", "deanna"], "cyther")
    game = table([["artificer"], ["judge"]], [["lorn", "cyther", "deanna"], [], [], []])
    lead(game, "artificer", J)
    assert values(game) == {"lorn", "cyther", "decline"}  # not itself, not the Red


def test_cyther_may_gain_a_blue_here() -> None:
    _may_gain("cyther", ["pelus", "lorn"], "pelus")
    _nothing_to_gain("cyther", ["lorn"])


def test_gravboot_cobbler_may_gain_a_gold_or_gray() -> None:
    _may_gain("gravboot-cobbler", ["trigg", "deanna"], "trigg")
    _nothing_to_gain("gravboot-cobbler", ["deanna"])


def test_pulse_armorer_may_gain_a_gray() -> None:
    _may_gain("pulse-armorer", ["trigg", "lorn"], "trigg")
    _nothing_to_gain("pulse-armorer", ["lorn"])


def test_pulse_fist_engineer_may_gain_an_obsidian() -> None:
    _may_gain("pulse-fist-engineer", ["helga", "lorn"], "helga")
    _nothing_to_gain("pulse-fist-engineer", ["lorn"])


def test_developer_may_gain_any_other_card() -> None:
    _may_gain("developer", ["deanna", "lorn"], "deanna")
    _nothing_to_gain("developer", [])


@pytest.mark.parametrize(("card", "partner"), [("alfrun", "jopho"), ("jopho", "alfrun")])
def test_alfrun_and_jopho_gain_a_partner_and_come_back_to_hand(card: str, partner: str) -> None:
    game = table([[card], ["judge"]], [["nero", partner, "lorn"], [], [], []])
    lead(game, card, J)
    assert values(game) == {"nero", partner, "decline"}
    play(game, pick(partner, J, 1))
    assert set(hand(game)) == {card, partner} and stack(game, J) == ["nero", "lorn"]
    assert turn_of(game) == 1
    _nothing_to_gain(card, ["lorn"])


def test_darrow_gains_a_non_gold_and_stays_only_on_a_gold() -> None:
    game = table([["darrow"], ["judge"]], [["deanna", "lorn"], [], [], []])
    lead(game, "darrow", J)  # on Lorn, a Gold: Deanna is the only non-Gold, taken at once
    assert "deanna" in hand(game) and stack(game, J) == ["lorn", "darrow"]
    plain = table([["darrow"], ["judge"]], [["lorn", "deanna"], [], [], []])
    lead(plain, "darrow", J)
    assert "deanna" in hand(plain) and "darrow" in plain.state.banished
    _nothing_to_gain("darrow", ["lorn"])  # nothing to gain: Darrow stays


def test_romulus_gains_a_blue_and_stays_only_directly_on_a_gold() -> None:
    game = table([["romulus"], ["judge"]], [["pelus", "lorn"], [], [], []])
    lead(game, "romulus", J)
    assert "pelus" in hand(game) and stack(game, J) == ["lorn", "romulus"]
    plain = table([["romulus"], ["judge"]], [["lorn", "pelus"], [], [], []])
    lead(plain, "romulus", J)
    assert "romulus" in plain.state.banished
    _nothing_to_gain("romulus", ["lorn"])


def test_sefi_gains_another_obsidian() -> None:
    game = table([["sefi"], ["judge"]], [["helga", "ragnar", "lorn"], [], [], []])
    lead(game, "sefi", J)
    play(game, pick("ragnar", J, 1))
    assert hand(game) == ("ragnar",) and gain_is_next(game)
    _nothing_to_gain("sefi", ["lorn"])


def test_victra_gains_the_bottom_card_and_stays_only_on_a_gold() -> None:
    game = table([["victra"], ["judge"]], [["deanna", "lorn"], [], [], []])
    lead(game, "victra", J)
    assert hand(game) == ("deanna",) and stack(game, J) == ["lorn", "victra"]
    plain = table([["victra"], ["judge"]], [["lorn", "deanna"], [], [], []])
    lead(plain, "victra", J)
    assert hand(plain) == ("lorn",) and "victra" in plain.state.banished
    alone = table([["victra"], ["judge"]])
    lead(alone, "victra", J)
    assert stack(alone, J) == ["victra"]  # the bottom card is Victra herself


def test_cassius_gains_the_card_under_and_stays_if_it_was_a_gold() -> None:
    game = table([["cassius"], ["judge"]], [["deanna", "lorn"], [], [], []])
    lead(game, "cassius", J)
    assert hand(game) == ("lorn",) and stack(game, J) == ["deanna", "cassius"]
    plain = table([["cassius"], ["judge"]], [["lorn", "deanna"], [], [], []])
    lead(plain, "cassius", J)
    assert hand(plain) == ("deanna",) and "cassius" in plain.state.banished
    alone = table([["cassius"], ["judge"]])
    lead(alone, "cassius", J)
    assert stack(alone, J) == ["cassius"]


def test_octavia_with_the_sovereign_gains_lunas_bottom_card() -> None:
    game = table([["octavia"], ["judge"]], [[], [], ["lorn", "deanna"], []], sovereign=0)
    lead(game, "octavia", M)
    assert hand(game) == ("lorn",) and stack(game, M) == ["octavia"]
    red = table([["octavia"], ["judge"]], [[], [], ["deanna"], []], sovereign=0)
    lead(red, "octavia", M)
    assert hand(red) == ("deanna",) and "octavia" in red.state.banished
    without = table([["octavia"], ["judge"]], [[], [], ["lorn"], []])
    lead(without, "octavia", M)
    assert hand(without) == () and stack(without, L) == ["lorn"]


def test_mustang_gains_a_banished_card_and_leaves_unless_it_was_gold() -> None:
    game = table([["mustang"], ["judge"]])
    game.states[-1] = banish_from_deck(game.state, "lorn", "deanna")
    lead(game, "mustang", M)
    play(game, Choose("lorn"))
    assert hand(game) == ("lorn",) and stack(game, M) == ["mustang"]
    red = table([["mustang"], ["judge"]])
    red.states[-1] = banish_from_deck(red.state, "deanna")
    lead(red, "mustang", M)
    assert hand(red) == ("deanna",) and red.state.banished == ("mustang",)
    empty = table([["mustang"], ["judge"]])
    lead(empty, "mustang", M)
    assert stack(empty, M) == ["mustang"] and gain_is_next(empty)


def test_lysander_draws_and_leaves_unless_deployed_on_luna() -> None:
    game = table([["lysander"], ["judge"]], deck=["lorn"])
    lead(game, "lysander", L)
    assert hand(game) == ("lorn",) and stack(game, L) == ["lysander"]
    elsewhere = table([["lysander"], ["judge"]], deck=["lorn"])
    lead(elsewhere, "lysander", M)
    assert hand(elsewhere) == ("lorn",) and "lysander" in elsewhere.state.banished


def test_codebreaker_gains_the_deck_bottom_unless_gold_or_silver() -> None:
    game = table([["codebreaker"], ["judge"]], [["lorn"], [], [], []])
    bottom = game.state.deck[-1]
    lead(game, "codebreaker", J)  # on a Gold: Codebreaker stays
    assert hand(game) == (bottom,) and stack(game, J) == ["lorn", "codebreaker"]
    silver_bottom = table([["codebreaker"], ["judge"]])
    silver_bottom.states[-1] = with_bottom(silver_bottom.state, "banker")
    lead(silver_bottom, "codebreaker", M)
    assert hand(silver_bottom) == () and silver_bottom.state.deck[-1] == "banker"
    assert "codebreaker" in silver_bottom.state.banished


def test_online_gambler_names_three_colors_and_bets_on_the_top_card() -> None:
    game = table([["online-gambler"], ["judge"]], deck=["lorn"])
    lead(game, "online-gambler", M)
    play(game, Choose("gold"), Choose("red"), Choose("blue"))
    assert hand(game) == ("lorn",) and "online-gambler" in game.state.banished
    miss = table([["online-gambler"], ["judge"]], deck=["lorn"])
    lead(miss, "online-gambler", M)
    assert "gold" in values(miss)
    play(miss, Choose("red"), Choose("blue"), Choose("pink"))
    assert hand(miss) == () and miss.state.banished == ("lorn",)


def test_holo_host_with_more_influence_goes_right_and_draws_two() -> None:
    game = table([["holo-host"], ["judge"], ["martyr"]], deck=["lorn", "eo"],
                 tokens={0: (0, 2, 0), 2: (0, 1, 0)})
    lead(game, "holo-host", I)
    assert hand(game) == ("lorn", "eo") and hand(game, 2) == ("martyr", "holo-host")
    assert turn_of(game) == 1
    equal = table([["holo-host"], ["judge"]], tokens={0: (0, 1, 0), 1: (0, 1, 0)})
    lead(equal, "holo-host", I)
    assert stack(equal, I) == ["holo-host"] and gain_is_next(equal)


def test_reporter_with_more_helium_goes_right_and_draws_two() -> None:
    game = solo(["reporter"], ["lorn", "judge"], deck=["aja", "nero"], tokens={0: (2, 0, 0)})
    lead(game, "reporter", M)
    # It went on top of her hand (she has gained more cards since, in her own turn).
    assert hand(game) == ("aja", "nero") and hand(game, 1)[:3] == ("lorn", "judge", "reporter")
    poorer = table([["reporter"], ["judge"]], tokens={1: (1, 0, 0)})
    lead(poorer, "reporter", M)
    assert stack(poorer, M) == ["reporter"] and gain_is_next(poorer)


def test_vlogger_further_on_the_fleet_goes_right_and_draws_two() -> None:
    game = table([["vlogger"], ["judge"]], deck=["lorn", "eo"], tokens={0: (0, 0, 3)})
    lead(game, "vlogger", J)
    assert hand(game) == ("lorn", "eo") and hand(game, 1) == ("judge", "vlogger")
    behind = table([["vlogger"], ["judge"]])
    lead(behind, "vlogger", J)
    assert stack(behind, J) == ["vlogger"] and gain_is_next(behind)


def _asked(game: Game) -> tuple[Kind, int | None, str]:
    assert game.pending is not None
    return game.pending.kind, game.pending.player, game.pending.prompt


def _short_deck(game: Game, left: int) -> tuple[str, ...]:
    """Leave only the deck's top ``left`` cards (the rest go onto the Institute)."""
    rest = game.state.deck or ()
    game.push(SetLocation(I, rest[left:]))
    return rest[:left]


def _borrowed_turn(borrower_hand: list[str], jupiter: list[str]) -> Game:
    """P1 deploys Loan Shark on Jupiter and P2 borrows a turn (2 Helium)."""
    game = table([["loan-shark"], [*borrower_hand, "judge"], ["martyr"]],
                 [jupiter, [], [], []], tokens={1: (6, 0, 0)})
    lead(game, "loan-shark", J)
    play(game, seat(1), Choose("turn"))
    return game


def _rulings(game: Game) -> list[str | None]:
    return [c.target for c in game.state.changes if c.kind == ChangeKind.RULING]


def test_alfrun_offers_only_its_partners_and_asks_in_its_own_words() -> None:
    """Alfrun: you may gain Nero or Jopho from here (and end your turn); no other card."""
    game = table([["alfrun"], ["judge"]], [["lorn", "nero", "deanna"], [], [], []])
    lead(game, "alfrun", J)
    assert _asked(game) == (Kind.TARGET, 0, "P1: gain a card here and end your turn?")
    assert values(game) == {"nero", "decline"}


def test_a_tracked_alfrun_has_an_unread_card_named_but_not_a_face_down_one() -> None:
    """While tracking, a face-up card nobody has named may be Nero or Jopho: it is named
    first. A face-down card cannot be gained by name, so it is not asked about."""
    down = tracked([["nero"], [], [], []])
    down.push(SetLocation(J, ("nero", None), face_down=(False, True)))
    lead(down, "alfrun", J)
    assert _asked(down) == (Kind.TARGET, 0, "P1: gain a card here and end your turn?")
    assert values(down) == {"nero", "decline"}
    unread = tracked([["nero"], [], [], []])
    unread.push(SetLocation(J, ("nero", None)))
    lead(unread, "alfrun", J)
    assert _asked(unread) == (Kind.CONFIRM, 0, "Name the card at Jupiter (#2)")


def test_in_a_borrowed_turn_no_ability_gains_loan_shark() -> None:
    """Loan Shark: the borrowed turn may not gain Loan Shark, by any ability. Cassius on
    Loan Shark has nothing to gain (a Silver: he would not stay for it either)."""
    developer = _borrowed_turn(["developer"], ["lorn"])
    play(developer, Lead("developer", J))
    assert values(developer) == {"lorn", "decline"}
    cassius = _borrowed_turn(["cassius"], [])
    play(cassius, Lead("cassius", J))
    assert stack(cassius, J) == ["loan-shark", "cassius"] and _rulings(cassius) == ["stay"]


def test_a_must_gain_waits_for_unread_cards_before_deciding_there_is_nothing() -> None:
    """Darrow gains a non-Gold here: while a card here has no name, whether there is one
    to gain is not known yet, so nothing is decided (no ruling) until it is named."""
    game = tracked([["pelus"], [], [], []])
    game.push(SetLocation(J, (None, "deanna")))
    lead(game, "darrow", J)
    assert _asked(game) == (Kind.CONFIRM, 0, "Name the card at Jupiter (#1)")
    assert _rulings(game) == []


def test_sefi_asks_which_obsidian_by_its_own_name() -> None:
    """Sefi: gain another Obsidian from this location (the player picks one)."""
    game = table([["sefi"], ["judge"]], [["helga", "ragnar", "lorn"], [], [], []])
    lead(game, "sefi", J)
    assert _asked(game) == (Kind.TARGET, 0, "sefi: gain which card?")


def test_a_card_turned_face_down_while_asked_no_longer_has_the_color_wanted() -> None:
    """Romulus gains a Blue, Sefi an Obsidian, Aegis Craftsman may gain a Gold: a
    face-down card has no color, so one the table turned face down while the question
    was open no longer qualifies."""
    for card, wanted, other in (("romulus", "pelus", "virga"), ("sefi", "helga", "ragnar"),
                                ("aegis-craftsman", "lorn", "aja")):
        game = tracked([[wanted, other, "deanna"], [], [], []])
        lead(game, card, J)
        game.push(SetLocation(J, (wanted, other, "deanna", card),
                              face_down=(True, False, False, False)))
        with pytest.raises(IllegalActionError, match=rf"^{wanted} does not qualify"):
            game.play(pick(wanted, J, 0))


def test_a_tracked_octavia_has_an_unread_luna_bottom_named_first() -> None:
    """Octavia, holding the Sovereign, gains Luna's bottom card: unread, it is named first
    (whether it is a Gold decides whether she stays)."""
    game = tracked([[], [], [None], []])
    game.push(SetSovereign(0))
    lead(game, "octavia", M)
    assert _asked(game) == (Kind.CONFIRM, 0, "Name the card at Luna (#1)")


def test_mustang_asks_which_banished_card() -> None:
    """Mustang: gain one banished card of your choice."""
    game = table([["mustang"], ["judge"]])
    game.states[-1] = banish_from_deck(game.state, "lorn", "deanna")
    lead(game, "mustang", M)
    assert _asked(game) == (Kind.CHOOSE, 0, "Mustang: gain which banished card?")


def test_lysander_and_codebreaker_take_the_decks_last_card() -> None:
    """Lysander gains the deck's top card, Codebreaker reveals its bottom card: with one
    card left, that card."""
    lysander = table([["lysander"], ["judge"]])
    (last,) = _short_deck(lysander, 1)
    lead(lysander, "lysander", L)
    assert hand(lysander) == (last,)
    codebreaker = table([["codebreaker"], ["judge"]], [["lorn"], [], [], []], deck=["deanna"])
    _short_deck(codebreaker, 1)
    lead(codebreaker, "codebreaker", J)
    assert hand(codebreaker) == ("deanna",)


def test_codebreaker_leaves_a_gold_at_the_bottom_of_the_deck() -> None:
    """Codebreaker: gain the revealed bottom card unless it is a Gold or a Silver."""
    game = table([["codebreaker"], ["judge"]], [["lorn"], [], [], []])
    game.states[-1] = with_bottom(game.state, "aja")
    lead(game, "codebreaker", J)
    assert hand(game) == () and game.state.deck[-1] == "aja"


def test_online_gambler_bets_on_the_decks_last_card_and_counts_the_colors_named() -> None:
    """Online Gambler: name 3 colors, then reveal the deck's top card (the last one too;
    with none, nothing happens)."""
    game = table([["online-gambler"], ["judge"]], deck=["lorn"])
    _short_deck(game, 1)
    lead(game, "online-gambler", M)
    assert _asked(game) == (Kind.CHOOSE, 0, "P1: name a color (1 of 3)")
    play(game, Choose("gold"))
    assert _asked(game) == (Kind.CHOOSE, 0, "P1: name a color (2 of 3)")
    play(game, Choose("red"), Choose("blue"))
    assert hand(game) == ("lorn",)
    empty = table([["online-gambler"], ["judge"]])
    _short_deck(empty, 0)
    lead(empty, "online-gambler", M)
    assert gain_is_next(empty)


def test_a_tracked_darrow_refuses_a_card_turned_face_up_as_a_gold() -> None:
    """Darrow gains any other non-Gold here. A face-down card has no color, so it is
    offered (§1); the table then says it lies face up, and naming it as a Gold (Aja) is
    refused."""
    game = tracked([[], [], [], []])
    game.push(SetLocation(J, (None, "deanna"), face_down=(True, False)))
    lead(game, "darrow", J)
    assert values(game) == {None, "deanna"}
    game.push(SetLocation(J, (None, "deanna", "darrow")))  # it lies face up after all
    with pytest.raises(IllegalActionError, match=r"^aja does not qualify \[ability\]$"):
        game.play(pick("aja", J, 0))


def test_victra_deployed_on_a_gold_stays_though_the_bottom_card_is_loan_shark() -> None:
    """Victra: banish her unless deployed on a Gold. In a borrowed turn Loan Shark, at the
    bottom, cannot be gained; deployed on a Gold she stays under either reading of an
    impossible gain, and no ruling is noted."""
    game = table([["loan-shark"], ["victra", "judge"], ["martyr"]], tokens={1: (6, 0, 0)},
                 variants=[SELF_BANISH_ALONE])
    lead(game, "loan-shark", J)
    play(game, seat(1), Choose("turn"))
    game.push(SetLocation(J, ("loan-shark", "lorn")))
    play(game, Lead("victra", J))
    assert stack(game, J) == ["loan-shark", "lorn", "victra"] and _rulings(game) == []


def test_an_impossible_gain_notes_the_ruling_for_the_player_whose_card_it_is() -> None:
    """Darrow alone at Jupiter has nothing to gain: the log notes that P1's
    Darrow stays by the rulebook's reading."""
    game = table([["darrow"], ["judge"]])
    lead(game, "darrow", J)
    ruling = Change(ChangeKind.RULING, 0, "darrow", "self_banish_needs_gain", "stay")
    assert ruling in game.state.changes


def test_codebreaker_notes_the_card_turned_over_from_the_decks_bottom() -> None:
    """Codebreaker reveals the deck's bottom card: the log names it, from the bottom."""
    game = table([["codebreaker"], ["judge"]], [["lorn"], [], [], []])
    bottom = game.state.deck[-1]
    lead(game, "codebreaker", J)
    seen = Change(ChangeKind.REVEAL, card=bottom, source="deck-bottom")
    assert seen in game.state.changes
