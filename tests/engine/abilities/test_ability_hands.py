"""Abilities aimed at hands: steals, forced banishes, random cards, and Au Toma's hand."""

from __future__ import annotations

from abilities_support import (
    M,
    Picks,
    asks,
    gain_is_next,
    hand,
    lead,
    play,
    seat,
    solo,
    stack,
    table,
    turn_of,
    values,
)

from engine.abilities.primitives import MULTIPLAYER_VARIANT
from engine.decisions import Kind
from engine.events import Choose, Decline


def test_aja_makes_an_opponent_banish_a_card_then_leaves() -> None:
    game = table([["aja"], ["deanna", "lorn"], ["eo"]])
    lead(game, "aja", M)
    play(game, seat(1))
    assert game.pending.player == 1 and values(game) == {"deanna", "lorn"}
    play(game, Choose("lorn"))
    assert game.state.banished == ("lorn", "aja") and hand(game, 1) == ("deanna",)
    variant = table([["aja"], ["deanna"]], variants=[MULTIPLAYER_VARIANT])
    lead(variant, "aja", M)  # no opponent holds more than dealt: only Aja goes
    assert variant.state.banished == ("aja",) and hand(variant, 1) == ("deanna",)


def test_antonia_against_au_toma_takes_her_bottom_card() -> None:
    game = solo(["antonia"], ["lorn", "judge", "deanna"])
    lead(game, "antonia", M)
    assert game.state.banished == ("lorn", "antonia")
    assert hand(game, 1)[:2] == ("judge", "deanna")
    nobody = table([["antonia"], []])
    lead(nobody, "antonia", M)
    assert nobody.state.banished == ("antonia",) and gain_is_next(nobody)


def test_arlus_neighbors_show_random_cards_golds_go_and_a_red_sends_arlus() -> None:
    game = table([["arlus"], ["lorn", "lawyer"], ["martyr"], ["deanna", "pelus"]],
                 rng=Picks("lorn", "deanna"))
    lead(game, "arlus", M)
    assert game.state.banished == ("lorn", "arlus")
    assert hand(game, 1) == ("lawyer",) and hand(game, 2) == ("martyr",)  # not a neighbor
    assert hand(game, 3) == ("deanna", "pelus")  # shown, and back in hand
    calm = table([["arlus"], ["judge"]], rng=Picks("judge"))
    lead(calm, "arlus", M)
    assert calm.state.banished == () and stack(calm, M) == ["arlus"]


def test_arlus_sees_au_tomas_bottom_card_and_the_variant_spares_small_hands() -> None:
    game = solo(["arlus"], ["aja", "deanna"])
    lead(game, "arlus", M)
    assert game.state.banished == ("aja",) and stack(game, M) == ["arlus"]
    spared = table([["arlus"], ["lorn"]], variants=[MULTIPLAYER_VARIANT])
    lead(spared, "arlus", M)
    assert spared.state.banished == () and hand(spared, 1) == ("lorn",)


def test_roque_names_a_card_and_a_random_hit_banishes_it_and_roque() -> None:
    game = table([["roque"], ["lorn", "deanna"]], rng=Picks("lorn"))
    lead(game, "roque", M)
    play(game, Choose("lorn"))
    assert game.state.banished == ("lorn", "roque") and hand(game, 1) == ("deanna",)
    miss = table([["roque"], ["lorn", "deanna"]], rng=Picks("deanna"))
    lead(miss, "roque", M)
    play(miss, Choose("lorn"))
    assert miss.state.banished == () and hand(miss, 1) == ("lorn", "deanna")


def test_roque_against_au_toma_looks_at_her_top_six_and_shuffles_them_back() -> None:
    her = ["lorn", "deanna", "aja", "nero", "helga", "pelus", "virga", "sefi"]
    rng = Picks("nero", "virga", "aja", "helga", "pelus", "deanna")
    game = solo(["roque"], her, variant=True, rng=rng)
    lead(game, "roque", M)
    assert values(game) == set(her[2:])  # the top six only
    play(game, Choose("nero"))
    assert game.state.banished == ("nero", "roque")
    assert hand(game, 1)[:7] == ("lorn", "deanna", "virga", "aja", "helga", "pelus", "sefi")


def test_tactus_may_steal_a_card_the_victim_picks_then_leaves_and_ends_the_turn() -> None:
    game = table([["tactus"], ["lorn", "deanna"], ["eo"]])
    lead(game, "tactus", M)
    play(game, seat(1))
    assert game.pending.player == 1
    play(game, Choose("deanna"))
    assert hand(game) == ("deanna",) and "tactus" in game.state.banished
    assert turn_of(game) == 1
    declined = table([["tactus"], ["lorn"]])
    lead(declined, "tactus", M)
    play(declined, Decline())
    assert hand(declined) == () and gain_is_next(declined)


def test_tactus_steals_au_tomas_bottom_card() -> None:
    game = solo(["tactus"], ["lorn", "deanna"])
    lead(game, "tactus", M)
    play(game, seat(1))
    assert hand(game) == ("lorn",) and hand(game, 1)[0] == "deanna"


def test_hypnotist_everyone_clockwise_banishes_a_card_and_draws() -> None:
    game = table([["hypnotist", "eo"], ["lorn"], ["deanna", "pelus"]],
                 deck=["aja", "nero", "helga"])
    lead(game, "hypnotist", M)  # single cards go at once: Eo, then Lorn
    assert game.pending.player == 2 and asks(game) is Kind.CHOOSE
    assert (hand(game), hand(game, 1)) == (("aja",), ("nero",))
    play(game, Choose("pelus"))
    assert game.state.banished == ("eo", "lorn", "pelus")
    assert hand(game, 2) == ("deanna", "helga") and gain_is_next(game)
    empty = table([["hypnotist"], []], deck=["aja"])
    lead(empty, "hypnotist", M)
    assert empty.state.banished == () and empty.state.deck[0] == "aja"
