"""Abilities that give or take Helium, Influence, Fleet steps and the Sovereign."""

from __future__ import annotations

from abilities_support import (
    I,
    J,
    L,
    M,
    Picks,
    asks,
    gain_is_next,
    lead,
    play,
    seat,
    solo,
    table,
    tokens,
    turn_of,
    values,
)

from engine.board import House
from engine.decisions import Kind
from engine.events import Choose, Decline, Roll


def test_deanna_gains_one_helium_and_the_turn_goes_on() -> None:
    game = table([["deanna"], ["judge"]], [["eo"], [], [], []])
    lead(game, "deanna", J)
    assert tokens(game) == (1, 0, 0) and gain_is_next(game)


def test_uncle_narol_gains_two_helium() -> None:
    game = table([["uncle-narol"], ["judge"]])
    lead(game, "uncle-narol", M)
    assert tokens(game) == (2, 0, 0)


def test_lawyer_places_influence_unless_none_is_left() -> None:
    game = table([["lawyer"], ["judge"]])
    lead(game, "lawyer", I)
    assert tokens(game) == (0, 1, 0)
    full = table([["lawyer"], ["judge"]], tokens={0: (0, 10, 0)})
    lead(full, "lawyer", I)
    assert tokens(full) == (0, 10, 0)  # a placement with no token left is lost


def test_boneriders_takes_the_sovereign_and_the_house_ability_fires() -> None:
    game = table([["boneriders"], ["judge"]], houses=[House.MARS, House.DIANA], sovereign=1)
    lead(game, "boneriders", J)
    assert game.state.sovereign == 0 and tokens(game) == (1, 0, 0)
    again = table([["boneriders"], ["judge"]], houses=[House.MARS, House.DIANA], sovereign=0)
    lead(again, "boneriders", J)
    assert again.state.sovereign == 0 and tokens(again) == (1, 0, 0)  # fires even if held


def test_the_jackal_takes_the_sovereign() -> None:
    game = table([["the-jackal"], ["judge"]], houses=[House.JUPITER, House.DIANA])
    lead(game, "the-jackal", L)
    assert game.state.sovereign == 0 and tokens(game) == (0, 0, 1)


def test_pelus_advances_two_and_everyone_else_one_up_to_ten() -> None:
    game = table([["pelus"], ["judge"], ["martyr"]], tokens={0: (0, 0, 9), 2: (0, 0, 3)})
    lead(game, "pelus", J)
    assert [tokens(game, p)[2] for p in range(3)] == [10, 1, 4]


def test_virga_advances_two_and_everyone_else_one() -> None:
    game = solo(["virga"], ["lorn", "judge"])
    lead(game, "virga", M)
    assert (tokens(game)[2], tokens(game, 1)[2]) == (2, 1)  # Au Toma takes the free step


def test_fitchner_places_influence_only_on_the_institute() -> None:
    game = table([["fitchner"], ["judge"]])
    lead(game, "fitchner", I)
    assert tokens(game) == (0, 1, 0)
    elsewhere = table([["fitchner"], ["judge"]])
    lead(elsewhere, "fitchner", M)
    assert tokens(elsewhere) == (0, 0, 0)


def test_invictus_advances_only_on_mars() -> None:
    game = table([["invictus"], ["judge"]])
    lead(game, "invictus", M)
    assert tokens(game) == (0, 0, 1)
    elsewhere = table([["invictus"], ["judge"]])
    lead(elsewhere, "invictus", J)
    assert tokens(elsewhere) == (0, 0, 0)


def test_morning_star_advances_only_on_jupiter() -> None:
    game = table([["morning-star"], ["judge"]])
    lead(game, "morning-star", J)
    assert tokens(game) == (0, 0, 1)
    elsewhere = table([["morning-star"], ["judge"]])
    lead(elsewhere, "morning-star", L)
    assert tokens(elsewhere) == (0, 0, 0)


def test_quietus_advances_only_on_the_institute() -> None:
    game = table([["quietus"], ["judge"]])
    lead(game, "quietus", I)
    assert tokens(game) == (0, 0, 1)
    elsewhere = table([["quietus"], ["judge"]])
    lead(elsewhere, "quietus", M)
    assert tokens(elsewhere) == (0, 0, 0)


def test_the_pax_advances_only_on_luna() -> None:
    game = table([["the-pax"], ["judge"]])
    lead(game, "the-pax", L)
    assert tokens(game) == (0, 0, 1)
    elsewhere = table([["the-pax"], ["judge"]])
    lead(elsewhere, "the-pax", J)
    assert tokens(elsewhere) == (0, 0, 0)


def test_magistrate_gains_helium_only_with_the_sovereign() -> None:
    game = table([["magistrate"], ["judge"]], sovereign=0)
    lead(game, "magistrate", M)
    assert tokens(game) == (1, 0, 0)
    without = table([["magistrate"], ["judge"]], sovereign=1)
    lead(without, "magistrate", M)
    assert tokens(without) == (0, 0, 0)


def test_orator_places_influence_only_with_the_sovereign() -> None:
    game = table([["orator"], ["judge"]], sovereign=0)
    lead(game, "orator", M)
    assert tokens(game) == (0, 1, 0)
    without = table([["orator"], ["judge"]])
    lead(without, "orator", M)
    assert tokens(without) == (0, 0, 0)


def test_priestess_advances_only_with_the_sovereign() -> None:
    game = table([["priestess"], ["judge"]], sovereign=0)
    lead(game, "priestess", M)
    assert tokens(game) == (0, 0, 1)
    without = table([["priestess"], ["judge"]])
    lead(without, "priestess", M)
    assert tokens(without) == (0, 0, 0)


def test_nero_gains_one_helium_per_red_at_his_location() -> None:
    game = table([["nero"], ["judge"]], [[], ["dancer", "lorn", "deanna"], [], []])
    lead(game, "nero", M)
    assert tokens(game) == (2, 0, 0)
    no_reds = table([["nero"], ["judge"]], [["lorn"], [], [], []])
    lead(no_reds, "nero", J)
    assert tokens(no_reds) == (0, 0, 0)


def test_timony_places_influence_per_gold_at_the_institute() -> None:
    game = table([["timony"], ["judge"]], [[], [], [], ["lorn", "lawyer", "aja"]])
    lead(game, "timony", J)  # counts the Institute wherever Timony goes
    assert tokens(game) == (0, 2, 0)
    none = table([["timony"], ["judge"]], [[], [], [], ["lawyer"]])
    lead(none, "timony", I)
    assert tokens(none) == (0, 0, 0)


def test_investor_counts_the_named_color_here() -> None:
    game = table([["investor"], ["judge"]], [["deanna", "dancer", "lorn"], [], [], []])
    lead(game, "investor", J)
    assert "silver" not in values(game)
    play(game, Choose("red"))
    assert tokens(game) == (2, 0, 0)
    miss = table([["investor"], ["judge"]], [["deanna"], [], [], []])
    lead(miss, "investor", J)
    play(miss, Choose("gold"))
    assert tokens(miss) == (0, 0, 0)


def test_dancer_gains_two_more_by_revealing_two_other_reds() -> None:
    game = table([["dancer", "deanna", "eo", "lorn"], ["judge"]])
    lead(game, "dancer", M)
    assert tokens(game) == (3, 0, 0)
    assert {c.card for c in game.state.changes if c.kind == "reveal"} == {"deanna", "eo"}
    one_red = table([["dancer", "deanna"], ["judge"]])
    lead(one_red, "dancer", M)
    assert tokens(one_red) == (1, 0, 0)


def test_politician_may_reveal_two_golds_for_two_influence() -> None:
    game = table([["politician", "lorn", "aja"], ["judge"]])
    lead(game, "politician", M)
    play(game, Choose("reveal"))
    assert tokens(game) == (0, 2, 0)
    declined = table([["politician", "lorn", "aja"], ["judge"]])
    lead(declined, "politician", M)
    play(declined, Decline())
    assert tokens(declined) == (0, 0, 0)
    one_gold = table([["politician", "lorn"], ["judge"]])
    lead(one_gold, "politician", M)
    assert gain_is_next(one_gold)  # nothing to ask


def test_eo_makes_opponents_without_a_red_lose_helium() -> None:
    game = table([["eo"], ["deanna"], ["lorn"]], tokens={1: (2, 0, 0), 2: (2, 0, 0)})
    lead(game, "eo", M)
    assert (tokens(game, 1)[0], tokens(game, 2)[0]) == (2, 1)
    broke = table([["eo"], ["lorn"]])
    lead(broke, "eo", M)
    assert tokens(broke, 1) == (0, 0, 0)  # nothing to lose


def test_eo_against_au_toma_looks_at_the_top_six_of_her_hand() -> None:
    bottom_red = ["deanna", "lorn", "aja", "nero", "sevro", "cassius", "victra"]
    game = solo(["eo"], bottom_red, tokens={1: (3, 0, 0)}, variant=True)
    lead(game, "eo", M)
    assert tokens(game, 1)[0] == 2  # her only Red lies below the top six
    top_red = solo(["eo"], ["lorn", "deanna"], tokens={1: (3, 0, 0)}, variant=True)
    lead(top_red, "eo", M)
    assert tokens(top_red, 1)[0] == 3


def test_harmony_makes_the_chosen_opponent_lose_helium() -> None:
    game = table([["harmony"], ["judge"], ["martyr"]], tokens={1: (2, 0, 0), 2: (1, 0, 0)})
    lead(game, "harmony", M)
    assert values(game) == {"1", "2"}
    play(game, seat(2))
    assert (tokens(game, 1)[0], tokens(game, 2)[0]) == (2, 0)
    nobody = table([["harmony"], ["judge"]])
    lead(nobody, "harmony", M)
    assert gain_is_next(nobody)


def test_quicksilver_takes_from_the_richest_opponent_and_breaks_ties() -> None:
    game = table([["quicksilver"], ["judge"], ["martyr"], ["lorn"]],
                 tokens={1: (3, 0, 0), 2: (3, 0, 0), 3: (1, 0, 0)})
    lead(game, "quicksilver", M)
    assert values(game) == {"1", "2"}
    play(game, seat(2))
    assert tokens(game)[0] == 1 and tokens(game, 2)[0] == 2
    poor = table([["quicksilver"], ["judge"]])
    lead(poor, "quicksilver", M)
    assert tokens(poor) == (0, 0, 0) and gain_is_next(poor)


def test_diplomat_both_may_place_influence() -> None:
    game = table([["diplomat"], ["judge"], ["martyr"]])
    lead(game, "diplomat", M)
    play(game, Choose("place"), seat(2))
    assert game.pending.player == 2
    play(game, Choose("place"))
    assert (tokens(game)[1], tokens(game, 1)[1], tokens(game, 2)[1]) == (1, 0, 1)
    declined = table([["diplomat"], ["judge"]])
    lead(declined, "diplomat", M)
    play(declined, Decline(), Decline())
    assert tokens(declined) == tokens(declined, 1) == (0, 0, 0)


def test_diplomat_offer_is_always_accepted_by_au_toma() -> None:
    game = solo(["diplomat"], ["lorn", "judge"])
    lead(game, "diplomat", M)
    play(game, Decline())
    assert tokens(game, 1)[1] == 1 and gain_is_next(game)


def test_auctioneer_opponent_picks_one_bonus_and_you_take_the_other_two() -> None:
    game = table([["auctioneer"], ["judge"], ["martyr"]])
    lead(game, "auctioneer", M)
    play(game, seat(1))
    assert game.pending.player == 1 and asks(game) is Kind.CHOOSE
    play(game, Choose("fleet"))
    assert tokens(game, 1) == (0, 0, 1) and tokens(game) == (1, 1, 0)
    capped = table([["auctioneer"], ["judge"]], tokens={1: (0, 0, 10)})
    lead(capped, "auctioneer", M)
    play(capped, Choose("fleet"))  # a capped pick is lost, the other two still come
    assert tokens(capped, 1) == (0, 0, 10) and tokens(capped) == (1, 1, 0)


def test_auctioneer_against_au_toma_rolls_until_she_can_take_it() -> None:
    rolls = Picks("sovereign", "fleet", "reveal", "helium")
    game = solo(["auctioneer"], ["lorn", "judge"], tokens={1: (0, 0, 10)}, rng=rolls,
                variant=True)
    lead(game, "auctioneer", M)
    assert [e for e in game.log if isinstance(e, Roll)][-1].face.value == "helium"
    assert tokens(game, 1) == (1, 0, 10) and tokens(game) == (0, 1, 1)
    assert turn_of(game) is None and gain_is_next(game)


def test_auctioneer_re_rolls_helium_for_au_toma_at_ten_helium() -> None:
    # Au Toma treats 10 Helium as a cap (her rules cap it), so the variant's roll goes again.
    game = solo(["auctioneer"], ["lorn", "judge"], tokens={1: (10, 0, 0)},
                rng=Picks("helium", "influence"), variant=True)
    lead(game, "auctioneer", M)
    assert [e.face.value for e in game.log if isinstance(e, Roll)] == ["helium", "influence"]
    assert tokens(game, 1) == (10, 1, 0) and tokens(game) == (1, 0, 1)
    below = solo(["auctioneer"], ["lorn", "judge"], tokens={1: (9, 0, 0)},
                 rng=Picks("helium"), variant=True)
    lead(below, "auctioneer", M)  # at 9 she can still take it
    assert tokens(below, 1) == (10, 0, 0) and tokens(below) == (0, 1, 1)


def test_auctioneer_re_rolls_influence_for_au_toma_with_none_left_to_place() -> None:
    game = solo(["auctioneer"], ["lorn", "judge"], tokens={1: (0, 10, 9)},
                rng=Picks("influence", "fleet"), variant=True)
    lead(game, "auctioneer", M)
    assert tokens(game, 1) == (0, 10, 10) and tokens(game) == (1, 1, 0)
    room = solo(["auctioneer"], ["lorn", "judge"], tokens={1: (0, 9, 0)},
                rng=Picks("influence"), variant=True)
    lead(room, "auctioneer", M)
    assert tokens(room, 1) == (0, 10, 0)
