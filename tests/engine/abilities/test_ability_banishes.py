"""Abilities that banish cards from the locations."""

from __future__ import annotations

import pytest
from abilities_support import (
    J,
    M,
    gain_is_next,
    hand,
    lead,
    pick,
    play,
    seat,
    stack,
    table,
    tokens,
    tracked,
    values,
)

from engine.abilities.primitives import MULTIPLAYER_VARIANT, Moved
from engine.decisions import Kind
from engine.errors import IllegalActionError
from engine.events import Choose, Decline, SetLocation
from engine.game import Game


def test_assassin_banishes_the_card_under_and_a_gold_earns_influence() -> None:
    game = table([["assassin"], ["judge"]], [["deanna", "lorn"], [], [], []])
    lead(game, "assassin", J)
    assert game.state.banished == ("lorn",) and tokens(game) == (0, 1, 0)
    red = table([["assassin"], ["judge"]], [["deanna"], [], [], []])
    lead(red, "assassin", J)
    assert red.state.banished == ("deanna",) and tokens(red) == (0, 0, 0)
    alone = table([["assassin"], ["judge"]])
    lead(alone, "assassin", J)
    assert alone.state.banished == () and gain_is_next(alone)


def test_helga_banishes_the_card_under_and_gains_helium_if_it_was_alone() -> None:
    game = table([["helga"], ["judge"]], [["lorn"], [], [], []])
    lead(game, "helga", J)
    assert game.state.banished == ("lorn",) and tokens(game) == (1, 0, 0)
    crowded = table([["helga"], ["judge"]], [["deanna", "lorn"], [], [], []])
    lead(crowded, "helga", J)
    assert crowded.state.banished == ("lorn",) and tokens(crowded) == (0, 0, 0)


def test_lorn_banishes_the_card_under_only_if_it_is_a_gold() -> None:
    game = table([["lorn"], ["judge"]], [["deanna", "aja"], [], [], []])
    lead(game, "lorn", J)
    assert game.state.banished == ("aja",)
    red = table([["lorn"], ["judge"]], [["aja", "deanna"], [], [], []])
    lead(red, "lorn", J)
    assert red.state.banished == ()


def test_pathologist_banishes_the_bottom_card_unless_it_is_itself() -> None:
    game = table([["pathologist"], ["judge"]], [["lorn", "deanna"], [], [], []])
    lead(game, "pathologist", J)
    assert game.state.banished == ("lorn",) and stack(game, J) == ["deanna", "pathologist"]
    alone = table([["pathologist"], ["judge"]])
    lead(alone, "pathologist", J)
    assert alone.state.banished == ()


def test_bondilus_on_mars_banishes_a_non_gold_here() -> None:
    game = table([["bondilus"], ["judge"]], [[], ["deanna", "lorn"], [], []])
    lead(game, "bondilus", M)
    assert values(game) == {"deanna", "bondilus"}  # itself too: it is a non-Gold here
    play(game, pick("deanna", M, 0))
    assert game.state.banished == ("deanna",)
    elsewhere = table([["bondilus"], ["judge"]], [["deanna"], [], [], []])
    lead(elsewhere, "bondilus", J)
    assert elsewhere.state.banished == () and gain_is_next(elsewhere)


def test_stained_banishes_another_card_here_and_an_obsidian_earns_influence() -> None:
    game = table([["stained"], ["judge"]], [["helga", "lorn"], [], [], []])
    lead(game, "stained", J)
    play(game, pick("helga", J, 0))
    assert game.state.banished == ("helga",) and tokens(game) == (0, 1, 0)
    alone = table([["stained"], ["judge"]])
    lead(alone, "stained", J)
    assert alone.state.banished == () and gain_is_next(alone)


def test_ragnar_banishes_another_locations_top_card() -> None:
    game = table([["ragnar"], ["judge"]], [["deanna"], ["eo", "trigg"], [], []])
    lead(game, "ragnar", J)  # the only other top card is taken at once
    assert game.state.banished == ("trigg",) and tokens(game) == (0, 1, 0)  # a Gray
    red = table([["ragnar"], ["judge"]], [[], [], ["eo"], []])
    lead(red, "ragnar", J)
    assert red.state.banished == ("eo",) and tokens(red) == (0, 0, 0)
    empty = table([["ragnar"], ["judge"]], [["eo"], [], [], []])
    lead(empty, "ragnar", J)
    assert empty.state.banished == ()


def test_alia_snowsparrow_banishes_the_highest_non_gold_elsewhere() -> None:
    game = table([["alia-snowsparrow"], ["judge"]],
                 [[], ["deanna", "lorn"], ["trigg"], ["aja"]])
    lead(game, "alia-snowsparrow", J)
    assert values(game) == {"deanna", "trigg"}  # below Lorn; the Institute holds only Gold
    play(game, pick("deanna", M, 0))
    assert game.state.banished == ("deanna",) and tokens(game) == (1, 0, 0)
    gray = table([["alia-snowsparrow"], ["judge"]], [[], ["trigg"], [], []])
    lead(gray, "alia-snowsparrow", J)
    assert gray.state.banished == ("trigg",) and tokens(gray) == (0, 0, 0)
    golds = table([["alia-snowsparrow"], ["judge"]], [[], ["lorn"], [], []])
    lead(golds, "alia-snowsparrow", J)
    assert golds.state.banished == ()


def test_evey_banishes_herself_and_her_location_with_influence_per_gold() -> None:
    game = table([["evey"], ["judge"]], [["lorn", "aja", "deanna", "nero", "victra"], [], [], []])
    lead(game, "evey", J)
    assert stack(game, J) == [] and len(game.state.banished) == 6
    assert tokens(game) == (0, 3, 0)  # four Golds, at most three Influence
    alone = table([["evey"], ["judge"]])
    lead(alone, "evey", J)
    assert alone.state.banished == ("evey",) and tokens(alone) == (0, 0, 0)


def test_ash_lord_banishes_the_blues_here_and_comes_back_for_two() -> None:
    game = table([["ash-lord"], ["judge"]], [["pelus", "lorn", "virga"], [], [], []])
    lead(game, "ash-lord", J)
    assert set(game.state.banished) == {"pelus", "virga"} and hand(game) == ("ash-lord",)
    one = table([["ash-lord"], ["judge"]], [["pelus", "lorn"], [], [], []])
    lead(one, "ash-lord", J)
    assert one.state.banished == ("pelus",) and stack(one, J) == ["lorn", "ash-lord"]


def test_sevro_banishes_the_card_under_or_reveals_the_howlers_to_gain_it() -> None:
    game = table([["sevro", "the-howlers"], ["judge"]], [["lorn"], [], [], []])
    lead(game, "sevro", J)
    play(game, Choose("reveal"))
    assert set(hand(game)) == {"the-howlers", "lorn"} and game.state.banished == ()
    declined = table([["sevro", "the-howlers"], ["judge"]], [["lorn"], [], [], []])
    lead(declined, "sevro", J)
    play(declined, Decline())
    assert declined.state.banished == ("lorn",)
    without = table([["sevro"], ["judge"]], [["lorn"], [], [], []])
    lead(without, "sevro", J)
    assert without.state.banished == ("lorn",)


def test_karnus_banishes_under_and_after_mustang_jackal_or_nero_may_strike_a_hand() -> None:
    game = table([["karnus"], ["deanna", "eo"], ["lorn"]], [["nero"], [], [], []])
    lead(game, "karnus", J)
    assert values(game) == {"1", "2", "decline"}
    play(game, seat(1))
    assert game.pending.player == 1
    play(game, Choose("eo"))
    assert game.state.banished == ("nero", "eo") and hand(game, 1) == ("deanna",)
    plain = table([["karnus"], ["deanna"]], [["lorn"], [], [], []])
    lead(plain, "karnus", J)
    assert plain.state.banished == ("lorn",) and gain_is_next(plain)


def test_karnus_with_the_multiplayer_variant_spares_small_hands() -> None:
    big = ["deanna", "eo", "aja", "pelus", "virga", "trigg"]
    game = table([["karnus"], ["lorn"], big], [["nero"], [], [], []],
                 variants=[MULTIPLAYER_VARIANT])
    lead(game, "karnus", J)
    assert values(game) == {"2", "decline"}  # only the hand bigger than it was dealt
    small = table([["karnus"], ["lorn"]], [["the-jackal"], [], [], []],
                  variants=[MULTIPLAYER_VARIANT])
    lead(small, "karnus", J)
    assert small.state.banished == ("the-jackal",) and gain_is_next(small)


def _asked(game: Game) -> tuple[Kind, str]:
    assert game.pending is not None
    return game.pending.kind, game.pending.prompt


def test_ragnar_places_influence_for_a_gold_too_and_asks_which_top() -> None:
    """Ragnar: banish the top card of another location; a Gold or a Gray earns 1
    Influence. With two tops to choose from the player is asked."""
    game = table([["ragnar"], ["judge"]], [["deanna"], ["lorn"], ["eo"], []])
    lead(game, "ragnar", J)
    assert _asked(game) == (Kind.TARGET, "P1: banish the top card of which location?")
    play(game, pick("lorn", M, 0))
    assert game.state.banished == ("lorn",) and tokens(game) == (0, 1, 0)


def test_alia_snowsparrow_gains_nothing_for_an_obsidian_and_asks_which() -> None:
    """Alia Snowsparrow: banish the top non-Gold of another location; no Helium if it
    was a Gray or an Obsidian."""
    game = table([["alia-snowsparrow"], ["judge"]], [[], ["helga"], ["deanna"], []])
    lead(game, "alia-snowsparrow", J)
    assert _asked(game) == (Kind.TARGET, "P1: banish the top non-Gold of which location?")
    play(game, pick("helga", M, 0))
    assert game.state.banished == ("helga",) and tokens(game) == (0, 0, 0)


def test_a_tracked_alia_snowsparrow_refuses_an_unnamed_top_card_named_as_a_gold() -> None:
    """Alia Snowsparrow banishes a non-Gold: a top card nobody has named is offered, and
    the table naming it as a Gold is refused."""
    game = tracked([["pelus"], [], [], []])
    game.push(SetLocation(J, ("pelus", None)))  # the camera could not read the new top
    lead(game, "alia-snowsparrow", M)
    with pytest.raises(IllegalActionError, match=r"^aja does not qualify \[ability\]$"):
        game.play(pick("aja", J, 1))


def test_karnus_strikes_a_hand_after_mustang_or_the_jackal_too() -> None:
    """Karnus: if the banished card is Mustang, The Jackal or Nero, you may have an
    opponent banish a card from hand."""
    for card in ("mustang", "the-jackal"):
        game = table([["karnus"], ["deanna", "eo"]], [[card], [], [], []])
        lead(game, "karnus", J)
        assert _asked(game) == (Kind.CHOOSE, "P1: make an opponent banish a card?")
        assert values(game) == {"1", "decline"}


def test_bondilus_stained_and_sevro_ask_in_their_own_words() -> None:
    """Bondilus banishes a non-Gold here (on Mars); Stained another card here; Sevro
    may reveal The Howlers to gain the card under instead."""
    bondilus = table([["bondilus"], ["judge"]], [[], ["deanna", "lorn"], [], []])
    lead(bondilus, "bondilus", M)
    assert _asked(bondilus) == (Kind.TARGET, "P1: banish which non-Gold here?")
    stained = table([["stained"], ["judge"]], [["helga", "lorn"], [], [], []])
    lead(stained, "stained", J)
    assert _asked(stained) == (Kind.TARGET, "P1: banish which other card here?")
    sevro = table([["sevro", "the-howlers"], ["judge"]], [["lorn"], [], [], []])
    lead(sevro, "sevro", J)
    assert _asked(sevro) == (Kind.CHOOSE, "P1: reveal The Howlers to gain the card below?")


def test_a_tracked_pathologist_has_an_unnamed_bottom_card_named_first() -> None:
    """Pathologist banishes the bottom card unless it is Pathologist: while tracking, an
    unread bottom card is named before anything moves."""
    game = tracked([[], [], [], []])
    game.push(SetLocation(J, (None, "lorn")))
    lead(game, "pathologist", J)
    assert _asked(game) == (Kind.CONFIRM, "Name the card at Jupiter (#1)")
    play(game, pick("deanna", J, 0))
    assert _asked(game) == (Kind.CONFIRM, "P1: banish deanna from Jupiter")


def test_a_tracked_evey_waits_for_the_table_to_clear_her_location() -> None:
    """Evey banishes herself and every card at her location: while tracking, one step the
    camera sees, the cards leaving her location."""
    game = tracked([["lorn", "aja"], [], [], []])
    lead(game, "evey", J)
    assert _asked(game) == (Kind.CONFIRM, "P1: banish every card at Jupiter")
    assert tuple(game.legal_actions()) == (Moved(source=J, card="evey"),)
    play(game, Moved(source=J, card="evey"))
    assert stack(game, J) == [] and tokens(game) == (0, 2, 0)


def test_a_tracked_ash_lord_has_an_unnamed_card_named_before_counting_blues() -> None:
    """Ash Lord banishes every Blue here and comes back for 2 or more: a card here nobody
    has named must be named first, since it may be a Blue."""
    game = tracked([["pelus"], [], [], []])
    game.push(SetLocation(J, ("pelus", None)))
    lead(game, "ash-lord", J)
    assert _asked(game) == (Kind.CONFIRM, "Name the card at Jupiter (#2)")


def test_a_tracked_bondilus_refuses_a_card_turned_face_up_as_a_gold() -> None:
    """Bondilus banishes a non-Gold at Mars. A face-down card has no colour, so it is
    offered as a non-Gold (§1); the table then says it lies face up, and naming it as a
    Gold (Aja) is refused, while still face down it goes."""
    game = tracked([[], ["lorn"], [], []])
    game.push(SetLocation(M, (None, "lorn"), face_down=(True, False)))
    lead(game, "bondilus", M)
    assert values(game) == {None, "bondilus"}
    game.push(SetLocation(M, (None, "lorn", "bondilus")))  # it lies face up after all
    with pytest.raises(IllegalActionError, match=r"^aja does not qualify \[ability\]$"):
        game.play(pick("aja", M, 0))
    down = tracked([[], ["lorn"], [], []])
    down.push(SetLocation(M, (None, "lorn"), face_down=(True, False)))
    lead(down, "bondilus", M)
    play(down, pick("aja", M, 0))
    assert down.state.banished == ("aja",)


def test_a_tracked_ragnar_banishes_the_top_card_named_though_one_was_laid_on_it() -> None:
    """Ragnar banishes the top card of another location; a Gold earns 1 Influence. The
    table names Lorn, Jupiter's top, and a correction while the question waits lays
    Deanna on it: Lorn, the card named, goes, and earns the Influence."""
    game = tracked([["lorn"], [], [], []])
    lead(game, "ragnar", M)
    game.push(SetLocation(J, ("lorn", "deanna")))
    play(game, pick("lorn", J, 0))
    assert game.state.banished == ("lorn",) and stack(game, J) == ["deanna"]
    assert tokens(game) == (0, 1, 0)
