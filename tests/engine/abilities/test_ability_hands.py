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
from engine.board import House
from engine.cards import ALL_IDS
from engine.decisions import Kind
from engine.events import Block, Choose, Decline

# Cards for filling hands: none of the five block cards, none named in these tests.
SPARE = [c for c in ALL_IDS if c not in ("aja", "hypnotist", "eo", "lorn", "judge", "justice",
                                        "martyr", "pax-au-telemanus", "the-howlers")]


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


def test_the_multiplayer_variant_spares_a_hand_of_exactly_the_starting_size() -> None:
    # FAQ: only an opponent whose hand is larger than their starting hand may be picked.
    five, six = SPARE[:5], SPARE[5:11]
    game = table([["aja"], five, six], variants=[MULTIPLAYER_VARIANT])
    lead(game, "aja", M)  # seat 1 holds exactly 5: seat 2 is the only pick, taken at once
    assert game.pending.player == 2 and values(game) == set(six)
    ceres = table([["aja"], six, SPARE[11:17]], houses=[None, House.CERES, None],
                  variants=[MULTIPLAYER_VARIANT])
    lead(ceres, "aja", M)  # Ceres was dealt 6: spared at 6, the other seat is not
    assert ceres.pending.player == 2
    seven = table([["aja"], SPARE[:7]], houses=[None, House.CERES],
                  variants=[MULTIPLAYER_VARIANT])
    lead(seven, "aja", M)
    assert seven.pending.player == 1 and len(values(seven)) == 7


def test_hypnotists_forced_banish_opens_the_block_window_for_opponents_only() -> None:
    # Judge: "when an opponent tries to ... banish any of your cards, reveal this to block".
    game = table([["hypnotist", "judge", "eo"], ["lorn", "pax-au-telemanus"]],
                 deck=["aja", "nero"])
    lead(game, "hypnotist", M)
    assert asks(game) is Kind.CHOOSE and game.pending.player == 0  # no window for oneself
    play(game, Choose("eo"))
    assert asks(game) is Kind.BLOCK and game.pending.player == 1
    assert values(game) == {"pax-au-telemanus", "decline"}
    play(game, Block("pax-au-telemanus"))  # blocked: no banish, so no card from the deck
    assert game.state.banished == ("eo",) and hand(game, 1) == ("lorn", "pax-au-telemanus")
    assert game.state.deck[0] == "nero" and gain_is_next(game)
    declined = table([["hypnotist", "eo"], ["lorn", "the-howlers"]], deck=["aja", "nero"])
    lead(declined, "hypnotist", M)
    assert asks(declined) is Kind.BLOCK
    play(declined, Decline(), Choose("lorn"))
    assert declined.state.banished == ("eo", "lorn")
    assert hand(declined, 1) == ("the-howlers", "nero")
