"""Abilities that banish cards from the locations."""

from __future__ import annotations

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
    values,
)

from engine.abilities.primitives import MULTIPLAYER_VARIANT
from engine.events import Choose, Decline


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
