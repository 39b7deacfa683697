"""Scoring step 1: end-of-game abilities in seat order, then House Ceres' banish."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine import finale
from engine.board import Bonus, House, Location
from engine.cards import Color
from engine.finale import FinaleError, begin, decision, pending, resolve, resolve_all
from engine.table import AutomaInfo, Seat, StackCard, Table


def stacks(**cards: list[str]) -> tuple[tuple[StackCard, ...], ...]:
    return tuple(tuple(StackCard(c) for c in cards.get(loc.value, [])) for loc in Location)


def labels(d: finale.Decision | None) -> list[str]:
    assert d is not None
    return [o.label for o in d.options]


def test_order_is_first_player_then_clockwise_then_ceres() -> None:
    table = Table(seats=(Seat("A", ("auctioneer",), house=House.CERES),
                         Seat("B", ("investor",)), Seat("C", ("banker",), helium=1)),
                  first_player=1)
    f = begin(table)
    seen = []
    while (d := decision(f)) is not None:
        seen.append((d.seat, d.ability))
        f = resolve(f, d.options[0])
    assert seen == [(1, "investor"), (2, "banker"), (0, "auctioneer"), (0, finale.CERES)]
    assert f.is_over


def test_a_player_may_pick_the_order_of_their_abilities() -> None:
    f = begin(Table(seats=(Seat("A", ("auctioneer", "investor")),)))
    assert pending(f) == [(0, "auctioneer"), (0, "investor")]
    d = decision(f, ability="investor")
    assert d is not None and d.ability == "investor"
    with pytest.raises(FinaleError):
        decision(f, ability="banker")


def test_begin_remembers_the_banished_pile() -> None:
    f = begin(Table(seats=(Seat("A", ()),), banished=("eo",)))
    assert f.table.banished_before_finale == ("eo",)


def test_auctioneer_offers_only_what_is_not_capped() -> None:
    d = decision(begin(Table(seats=(Seat("A", ("auctioneer",), fleet=10, influence=10),))))
    assert labels(d) == ["Auctioneer: gain 1 Helium"]
    d = decision(begin(Table(seats=(Seat("A", ("auctioneer",), fleet=9),))))
    assert d is not None and {o.bonus for o in d.options} == {
        Bonus.HELIUM, Bonus.FLEET, Bonus.INFLUENCE}


def test_best_option_first() -> None:
    # Auctioneer 12 + Fleet 5 (15) = 27 now. Fleet 6 is worth 21 (+6); the first Influence
    # token scores 4 (alone on top); a Helium 3.
    d = decision(begin(Table(seats=(Seat("A", ("auctioneer",), fleet=5),))))
    assert d is not None
    assert [o.bonus for o in d.options] == [Bonus.FLEET, Bonus.INFLUENCE, Bonus.HELIUM]
    assert [o.value for o in d.options] == [33, 31, 30]


def test_banker_pays_three_helium_for_a_top_card_or_declines() -> None:
    table = Table(seats=(Seat("A", ("banker",), helium=3),),
                  locations=stacks(mars=["eo", "quicksilver"], luna=["judge"]))
    d = decision(begin(table))
    assert d is not None
    best = d.options[0]
    assert (best.gain, best.source, best.helium) == (("quicksilver",), Location.MARS, -3)
    assert "Banker: pay nothing" in labels(d)
    after = resolve(begin(table), best).table
    assert after.seats[0].hand == ("banker", "quicksilver") and after.seats[0].helium == 0
    assert [s.card for s in after.stack(Location.MARS)] == ["eo"]


def test_banker_without_three_helium_can_only_decline() -> None:
    table = Table(seats=(Seat("A", ("banker",), helium=2),), locations=stacks(mars=["eo"]))
    assert labels(decision(begin(table))) == ["Banker: pay nothing"]


def test_dr_virany_may_gain_any_of_the_named_and_red_banished_cards() -> None:
    table = Table(seats=(Seat("A", ("dr-virany",)),),
                  banished=("sevro", "eo", "aja", "victra"))
    d = decision(begin(table))
    assert d is not None
    gains = {o.gain for o in d.options}
    assert ("eo", "sevro", "victra") in gains and () in gains
    assert all("aja" not in g for g in gains)
    assert len(d.options) == 8


def test_justice_and_martyr_need_the_sovereign_token() -> None:
    table = Table(seats=(Seat("A", ("justice", "martyr"), sovereign=True),),
                  locations=stacks(mars=["quicksilver", "eo"], luna=["ceo", "judge"]))
    f = begin(table)
    d = decision(f)
    assert d is not None and d.ability == "justice"
    assert {o.gain for o in d.options} == {("ceo",), ("judge",)}  # any card on Luna
    f = resolve(f, d.options[0])
    d = decision(f)
    assert d is not None and d.options[0].gain == ("quicksilver",)
    no_token = Table(seats=(Seat("A", ("justice",)),), locations=table.locations)
    assert labels(decision(begin(no_token))) == ["Justice: no effect (no Sovereign token)"]


def test_investor_gains_helium_per_card_of_a_color_on_mars() -> None:
    table = Table(seats=(Seat("A", ("investor",)),),
                  locations=stacks(mars=["eo", "deanna", "ceo", "aja"]))
    d = decision(begin(table))
    assert d is not None
    assert (d.options[0].color, d.options[0].helium) == (Color.RED, 2)
    assert Color.SILVER not in {o.color for o in d.options}


def test_surgeon_gains_a_banished_gold() -> None:
    table = Table(seats=(Seat("A", ("surgeon",)),), banished=("aja", "quicksilver", "nero"))
    d = decision(begin(table))
    assert d is not None
    assert {o.gain for o in d.options} == {("aja",), ("nero",)}
    assert d.options[0].gain == ("nero",)  # 25 core beats 15


def test_psychologist_with_fewest_cards_gains_a_random_banished_card() -> None:
    table = Table(seats=(Seat("A", ("psychologist",)), Seat("B", ("eo", "aja"))),
                  banished=("ceo", "nero"))
    d = decision(begin(table))
    assert d is not None and d.options[0].random_pick
    with pytest.raises(FinaleError):
        resolve(begin(table), d.options[0])  # neither a random source nor the outcome
    f = resolve(begin(table), d.options[0], random.Random(3))
    gained = f.table.seats[0].hand[1]
    assert gained in ("ceo", "nero") and gained not in f.table.banished
    seen = resolve(begin(table), replace(d.options[0], gain=("nero",)))  # observed at the table
    assert seen.table.seats[0].hand == ("psychologist", "nero")


def test_psychologist_not_fewest_does_nothing() -> None:
    table = Table(seats=(Seat("A", ("psychologist", "eo")), Seat("B", ("aja",))),
                  banished=("ceo",))
    assert labels(decision(begin(table))) == [
        "Psychologist: no effect (another player holds fewer cards)"]


def test_psychologist_counts_a_third_of_au_tomas_hand() -> None:
    automa = Seat("Au Toma", ("aja", "nero", "ceo", "eo", "judge", "sevro"),
                  automa=AutomaInfo())
    table = Table(seats=(Seat("A", ("psychologist", "pelus")), automa), banished=("virga",))
    d = decision(begin(table))
    assert d is not None and d.options[0].random_pick  # 2 cards against 6 // 3 = 2


def test_hacker_scores_the_top_card_of_a_known_deck() -> None:
    table = Table(seats=(Seat("A", ("hacker",)),), deck=("quicksilver", "eo"))
    after, log = resolve_all(table)
    assert after.seats[0].extra_points == 40
    assert after.deck == ("quicksilver", "eo")
    assert log[0].text() == "Hacker: reveal the top card of the deck (Quicksilver)"


def test_hacker_with_an_unknown_deck_waits_for_the_revealed_card() -> None:
    table = Table(seats=(Seat("A", ("hacker",)),))
    d = decision(begin(table))
    assert d is not None and d.options[0].needs_reveal
    with pytest.raises(FinaleError):
        resolve(begin(table), d.options[0])
    f = resolve(begin(table), d.options[0].with_revealed(["ceo"]))
    assert f.table.seats[0].extra_points == 12
    with pytest.raises(FinaleError, match="deck"):
        resolve_all(table)


def test_hypnotist_banishes_another_card_and_draws() -> None:
    table = Table(seats=(Seat("A", ("hypnotist", "octavia", "judge")),), deck=("ceo", "eo"))
    after, _ = resolve_all(table)
    # Octavia scores −30 without the Sovereign: banishing her is best.
    assert after.seats[0].hand == ("hypnotist", "judge", "ceo")
    assert after.banished == ("octavia",) and after.deck == ("eo",)


def test_hypnotist_unknown_deck_ranks_banishes_and_waits_for_the_card() -> None:
    table = Table(seats=(Seat("A", ("hypnotist", "octavia", "judge")),))
    d = decision(begin(table))
    assert d is not None and d.options[0].banish == ("octavia",)
    assert d.options[0].needs_reveal
    f = resolve(begin(table), d.options[0].with_revealed(["aja"]))
    assert f.table.seats[0].hand == ("hypnotist", "judge", "aja")


def test_online_gambler_gains_the_named_color_from_seven_cards() -> None:
    deck = ("eo", "aja", "deanna", "ceo", "nero", "judge", "arlus", "pelus", "virga")
    table = Table(seats=(Seat("A", ("online-gambler",)),), deck=deck)
    f = begin(table)
    d = decision(f)
    assert d is not None and Color.GOLD not in {o.color for o in d.options}
    red = next(o for o in d.options if o.color is Color.RED)
    after = resolve(f, red, random.Random(0)).table
    assert after.seats[0].hand == ("online-gambler", "eo", "deanna", "arlus")
    assert sorted(after.deck[:4]) == sorted(["aja", "ceo", "nero", "judge"])  # shuffled back
    assert after.deck[4:] == ("pelus", "virga")


def test_online_gambler_unknown_deck_estimates_each_color() -> None:
    table = Table(seats=(Seat("A", ("online-gambler",)),))
    d = decision(begin(table))
    assert d is not None and all(o.needs_reveal for o in d.options)
    values = [o.value for o in d.options]
    assert values == sorted(values, reverse=True) and values[0] > values[-1]  # type: ignore


def test_a_gained_card_brings_its_own_ability() -> None:
    table = Table(seats=(Seat("A", ("justice",), sovereign=True), Seat("B", ())),
                  locations=stacks(luna=["auctioneer"]))
    f = begin(table)
    f = resolve(f, decision(f).options[0])  # type: ignore[union-attr]
    assert pending(f) == [(0, "auctioneer")]


def test_a_banished_ability_card_no_longer_resolves() -> None:
    table = Table(seats=(Seat("A", ("hypnotist", "banker")),), deck=("eo",))
    f = begin(table)
    d = decision(f)
    assert d is not None and d.ability == "hypnotist"
    f = resolve(f, d.options[0])
    assert f.table.seats[0].hand == ("hypnotist", "eo") and f.is_over


def test_ceres_banishes_the_card_that_costs_least() -> None:
    # Octavia's 30 are cancelled by her −30 (no Sovereign): losing her costs only the
    # Judge's 3, where Pelus would cost 5 + 3.
    hand = ("eo", "judge", "sevro", "pelus", "ragnar", "calliope", "ceo", "octavia")
    table = Table(seats=(Seat("A", hand, house=House.CERES),))
    after, log = resolve_all(table)
    assert log[-1].banish == ("octavia",)
    assert "octavia" in after.banished and len(after.seats[0].hand) == 7


def test_au_toma_has_no_end_of_game_abilities() -> None:
    table = Table(seats=(Seat("Au Toma", ("hacker", "banker"), automa=AutomaInfo()),))
    assert begin(table).is_over


def test_only_a_waiting_option_is_accepted() -> None:
    table = Table(seats=(Seat("A", ("auctioneer",)), Seat("B", ("investor",))))
    f = begin(table)
    wrong = finale.Option(1, "investor", "Investor: name red", color=Color.RED)
    with pytest.raises(FinaleError):
        resolve(f, wrong)
    assert f == begin(table)


def test_oranges_and_grays_are_not_finale_decisions() -> None:
    assert begin(Table(seats=(Seat("A", ("cyther", "trigg")),))).is_over
