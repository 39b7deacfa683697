"""Scoring step 1: end-of-game abilities in seat order, then House Ceres' banish."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine import finale
from engine.board import Bonus, House, Location
from engine.cards import CARDS, Color
from engine.finale import FinaleError, begin, decision, pending, resolve, resolve_all
from engine.rulings import Rulings
from engine.scoring import SeatScorer
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


def _only(table: Table, rulings: Rulings | None = None) -> finale.Decision:
    d = decision(begin(table), rulings)
    assert d is not None
    return d


def test_every_option_is_labelled_with_what_it_does() -> None:
    """Each end-of-game ability's options say, in words, what each one does (the page
    shows these labels), and when an ability can do nothing, why."""
    auction = _only(Table(seats=(Seat("A", ("auctioneer",), fleet=10),)))
    assert "Auctioneer: place 1 Influence on the Institute" in labels(auction)
    bank = _only(Table(seats=(Seat("A", ("banker",), helium=3),),
                       locations=stacks(mars=["eo", "quicksilver"])))
    assert "Banker: pay 3 Helium for Quicksilver (top of Mars)" in labels(bank)
    virany = _only(Table(seats=(Seat("A", ("dr-virany",)),), banished=("sevro", "eo")))
    assert set(labels(virany)) == {"Dr. Virany: gain nothing", "Dr. Virany: gain Eo",
                                   "Dr. Virany: gain Sevro", "Dr. Virany: gain Eo, Sevro"}
    justice = _only(Table(seats=(Seat("A", ("justice",), sovereign=True),),
                          locations=stacks(luna=["ceo"])))
    assert labels(justice) == ["Justice: gain Ceo from Luna"]
    martyr = _only(Table(seats=(Seat("A", ("martyr",), sovereign=True),)))
    assert labels(martyr) == ["Martyr: no effect (no card on Mars)"]
    investor = _only(Table(seats=(Seat("A", ("investor",)),),
                           locations=stacks(mars=["eo", "deanna"])))
    assert labels(investor) == ["Investor: name red, gain 2 Helium"]
    broke = _only(Table(seats=(Seat("A", ("investor",)),), locations=stacks(mars=["ceo"])))
    assert labels(broke) == ["Investor: no effect (no card of a color other than Silver on Mars)"]
    psych = _only(Table(seats=(Seat("A", ("psychologist",)), Seat("B", ("eo",))),
                        banished=("ceo",)))
    assert labels(psych) == ["Psychologist: gain a random banished card"]
    empty = _only(Table(seats=(Seat("A", ("psychologist",)), Seat("B", ("eo",)))))
    assert [(o.seat, o.ability, o.label) for o in empty.options] == [
        (0, "psychologist", "Psychologist: no effect (no banished card)")]
    surgeon = _only(Table(seats=(Seat("A", ("surgeon",)),), banished=("nero",)))
    assert labels(surgeon) == ["Surgeon: gain Nero"]
    no_gold = _only(Table(seats=(Seat("A", ("surgeon",)),)))
    assert labels(no_gold) == ["Surgeon: no effect (no banished Gold)"]
    gambler = _only(Table(seats=(Seat("A", ("online-gambler",)),), deck=("eo",)))
    assert "Online Gambler: name red" in labels(gambler)
    hypno = _only(Table(seats=(Seat("A", ("hypnotist", "octavia")),), deck=("eo",)))
    assert labels(hypno) == ["Hypnotist: banish Octavia, gain the deck's top card"]
    alone = _only(Table(seats=(Seat("A", ("hypnotist",)),), deck=("eo",)))
    assert labels(alone) == ["Hypnotist: no effect (no other card to banish)"]
    ceres = begin(Table(seats=(Seat("A", (), house=House.CERES),)))
    assert labels(decision(ceres)) == ["House Ceres: no effect (empty hand)"]


def test_an_option_text_adds_the_cards_seen_only_when_there_are_some() -> None:
    """An option's text is its label, plus the deck cards revealed or the card drawn at
    random once known (several revealed cards listed with commas)."""
    surgeon = _only(Table(seats=(Seat("A", ("surgeon",)),), banished=("nero",))).options[0]
    assert surgeon.text() == "Surgeon: gain Nero"
    gambler = next(o for o in _only(Table(seats=(Seat("A", ("online-gambler",)),))).options
                   if o.color is Color.RED)
    assert gambler.with_revealed(["eo", "aja"]).text() == "Online Gambler: name red (Eo, Aja)"
    psych = _only(Table(seats=(Seat("A", ("psychologist",)), Seat("B", ("eo",))),
                        banished=("ceo", "nero"))).options[0]
    assert replace(psych, gain=("nero",)).text() == (
        "Psychologist: gain a random banished card (Nero)")


def test_hypnotist_never_banishes_itself_and_gains_only_the_top_card() -> None:
    """Hypnotist: banish another card from your hand and gain the deck's top card."""
    d = _only(Table(seats=(Seat("A", ("hypnotist", "octavia", "judge")),)))
    assert {o.banish for o in d.options} == {("octavia",), ("judge",)}
    f = resolve(begin(Table(seats=(Seat("A", ("hypnotist", "octavia", "judge")),))),
                d.options[0].with_revealed(["aja", "eo"]))
    assert f.table.seats[0].hand == ("hypnotist", "judge", "aja")


def test_resolving_everything_draws_random_cards_from_the_source_given() -> None:
    """Psychologist's card is random: resolve_all passes its random source on."""
    table = Table(seats=(Seat("A", ("psychologist",)), Seat("B", ("eo",))),
                  banished=("ceo", "nero"))
    after, _ = resolve_all(table, rng=random.Random(3))
    assert after.seats[0].hand[1] in ("ceo", "nero")
    with pytest.raises(FinaleError, match=r"^Psychologist: gain a random banished card: "
                                          r"needs a random source or the card drawn$"):
        resolve_all(table)


def test_resolving_everything_with_an_unknown_deck_says_what_it_needs() -> None:
    """A deck-reading ability cannot be resolved blind: the error says what to give."""
    with pytest.raises(FinaleError, match=r"^Hacker reads the deck, which is unknown: give the "
                                          r"deck \(top card first\) to resolve it$"):
        resolve_all(Table(seats=(Seat("A", ("hacker",)),)))


def test_a_gain_from_a_location_fails_once_the_card_has_left() -> None:
    """An option names its card and place: applied to a table where the card is gone, it
    is refused with both named."""
    table = Table(seats=(Seat("A", ("justice",), sovereign=True),), locations=stacks(luna=["ceo"]))
    option = _only(table).options[0]
    moved = Table(seats=table.seats, locations=stacks(mars=["ceo"]))
    with pytest.raises(FinaleError, match=r"^Justice: gain Ceo from Luna: ceo is not on Luna$"):
        finale.apply(moved, option)


def test_the_hacker_label_says_when_the_deck_setting_decided_the_card() -> None:
    """Ruling 10: Hacker sees the deck as the earlier players left it, or (setting off) as
    it was when the game ended; when the two differ, the label names the setting."""
    table = Table(seats=(Seat("A", ("hypnotist", "hacker", "judge")),), deck=("ceo", "eo"))
    for left, seen in ((True, "eo"), (False, "ceo")):
        rulings = Rulings(hacker_sees_deck_as_left=left)
        f = begin(table)
        hypnotist = decision(f, rulings, ability="hypnotist")
        assert hypnotist is not None
        f = resolve(f, next(o for o in hypnotist.options if o.banish == ("judge",)))
        hacker = decision(f, rulings)
        assert hacker is not None and hacker.options[0].revealed == (seen,)
        assert hacker.options[0].label == (
            f"Hacker: reveal the top card of the deck [setting hacker_sees_deck_as_left={left}"
            " decided it]")


def test_the_unseen_cards_are_those_nowhere_on_the_table() -> None:
    """With the deck unknown, it may hold any card not seen anywhere else."""
    table = Table(seats=(Seat("A", ("hacker", "eo")),), banished=("aja",),
                  locations=stacks(mars=["ceo"]))
    assert set(finale.unseen(table)) == set(CARDS) - {"hacker", "eo", "aja", "ceo"}


def test_an_unknown_deck_is_valued_over_every_card_it_may_hold() -> None:
    """Options that read an unknown deck are ranked by their expected total: Hacker's and
    Hypnotist's the mean over each unseen card being the one revealed; Online Gambler's
    the current total plus, for each unseen card of the named color, its chance of being
    among the 7 turned over times what gaining it alone adds. With nothing unseen the
    value is the total as it stands."""
    scorer = SeatScorer()
    table = Table(seats=(Seat("A", ("hacker", "online-gambler", "eo")),),
                  banished=tuple(c for c in CARDS if c not in ("hacker", "online-gambler",
                                                               "eo", "aja", "nero", "deanna")))
    pool = finale.unseen(table)
    assert sorted(pool) == ["aja", "deanna", "nero"]
    f = begin(table)
    hacker = decision(f, ability="hacker")
    assert hacker is not None
    option = hacker.options[0]
    expected = [scorer.total(finale.apply(table, option.with_revealed([c])), 0) for c in pool]
    assert option.value == sum(expected) / len(expected)
    gambler = decision(f, ability="online-gambler")
    assert gambler is not None
    gold = next(o for o in gambler.options if o.color is Color.RED)
    now = scorer.total(table, 0)
    share = min(1.0, 7 / len(pool))
    gains = sum(scorer.total(finale.apply(table, gold.with_revealed([c])), 0) - now
                for c in pool if CARDS[c].color is Color.RED)
    assert gold.value == now + share * gains
    everything = Table(seats=(Seat("A", ("hacker",)),),
                       banished=tuple(c for c in CARDS if c != "hacker"))
    blind = _only(everything).options[0]
    assert blind.value == scorer.total(everything, 0)


def test_psychologist_loses_to_a_third_of_au_tomas_hand() -> None:
    """Solo variant, Psychologist: in the "fewest cards" comparison Au Toma's hand size is
    floor(cards ÷ 3), so 3 cards against her 6 (counted as 2) is not the fewest."""
    automa = Seat("Au Toma", ("aja", "nero", "ceo", "eo", "judge", "sevro"),
                  automa=AutomaInfo())
    table = Table(seats=(Seat("A", ("psychologist", "pelus", "virga")), automa),
                  banished=("arlus",))
    assert labels(decision(begin(table))) == [
        "Psychologist: no effect (another player holds fewer cards)"]


def test_the_log_names_the_card_psychologist_drew_at_random() -> None:
    """Psychologist: gain 1 random banished card. Once drawn, the card is known: what was
    done (the log) names it."""
    table = Table(seats=(Seat("A", ("psychologist",)), Seat("B", ("eo",))),
                  banished=("ceo", "nero"))
    f = begin(table)
    d = decision(f)
    assert d is not None
    f = resolve(f, d.options[0], random.Random(3))
    gained = f.table.seats[0].hand[1]
    assert f.log[-1].gain == (gained,)
    assert f.log[-1].text() == f"Psychologist: gain a random banished card ({CARDS[gained].name})"


def test_online_gambler_shuffles_the_other_cards_back_with_the_source_given() -> None:
    """Online Gambler: "Shuffle and return the other cards to the top of the deck." With
    a random source the order they go back in is left to it, not kept as revealed."""
    deck = ("eo", "aja", "deanna", "ceo", "nero", "judge", "arlus", "pelus", "virga")
    table = Table(seats=(Seat("A", ("online-gambler",)),), deck=deck)
    orders = set()
    for seed in range(12):
        f = begin(table)
        d = decision(f)
        assert d is not None
        red = next(o for o in d.options if o.color is Color.RED)
        orders.add(resolve(f, red, random.Random(seed)).table.deck[:4])
    assert len(orders) > 1 and all(sorted(o) == ["aja", "ceo", "judge", "nero"] for o in orders)


def test_online_gambler_blind_counts_the_chance_of_each_card_among_seven() -> None:
    """Online Gambler reveals 7 cards: with 14 cards unseen, each has an even chance of
    being among them, so the named color's gains count half."""
    scorer = SeatScorer()
    keep = ("arlus", "dancer", "darrow", "deanna", "eo", "harmony", "uncle-narol",
            "aja", "nero", "ceo", "judge", "pelus", "virga", "sevro")
    table = Table(seats=(Seat("A", ("online-gambler",)),),
                  banished=tuple(c for c in CARDS if c not in (*keep, "online-gambler")))
    assert sorted(finale.unseen(table)) == sorted(keep)
    red = next(o for o in _only(table).options if o.color is Color.RED)
    now = scorer.total(table, 0)
    gains = sum(scorer.total(finale.apply(table, red.with_revealed([c])), 0) - now
                for c in keep if CARDS[c].color is Color.RED)
    assert gains > 0 and red.value == now + 0.5 * gains


def test_asking_for_an_ability_that_is_not_waiting_says_which() -> None:
    """A player picks the order of their own abilities only: asking for another is
    refused, and the refusal names the ability asked for."""
    f = begin(Table(seats=(Seat("A", ("auctioneer",)), Seat("B", ("banker",)))))
    with pytest.raises(FinaleError, match=r"^banker is not waiting to be resolved now$"):
        decision(f, ability="banker")


def test_the_prompt_names_the_player_and_the_ability() -> None:
    """The question the players see says whose ability it is and which: the card's
    name, or House Ceres' banish after every ability."""
    f = begin(Table(seats=(Seat("Ann", ("auctioneer",), house=House.CERES),)))
    d = decision(f)
    assert d is not None and d.prompt == "Ann: Auctioneer"
    d = decision(resolve(f, d.options[0]))
    assert d is not None and d.prompt == "Ann: House Ceres' banish"


def test_ceres_offers_to_banish_each_card_in_hand_by_name() -> None:
    """House Ceres banishes 1 card from hand: one option per card (once per name),
    each naming the card."""
    d = decision(begin(Table(seats=(Seat("A", ("eo", "judge", "eo"), house=House.CERES),))))
    assert sorted(labels(d)) == ["House Ceres: banish Eo", "House Ceres: banish Judge"]


def test_options_are_ranked_by_the_settings_given() -> None:
    """The options are ranked by the totals scoring gives under the table's settings.
    Pathologist scores 25 with 10 banished cards and 10 with 9: Dr. Virany taking Eo
    back loses 15 for Eo's 10 if the pile is counted after the end-of-game abilities,
    and nothing if it is counted as it was when they began (ruling 2)."""
    pile = ("eo", "aja", "nero", "ceo", "judge", "quicksilver", "octavia", "pelus",
            "virga", "matteo")
    table = Table(seats=(Seat("A", ("dr-virany", "pathologist")),), banished=pile)
    assert labels(decision(begin(table)))[0] == "Dr. Virany: gain nothing"
    before = Rulings(banished_counted_after_finale=False)
    assert labels(decision(begin(table), before))[0] == "Dr. Virany: gain Eo"


def test_an_option_worth_a_fraction_of_a_point_ranks_above_one_worth_nothing() -> None:
    """Best first also when an option leads to a total of exactly 0. Online Gambler's
    hand scores 0 (7, The Jackal 10 − 30 with Octavia, Octavia 30 − 30, Matteo 13); no
    White is left unseen, so naming White is worth 0, while the one Blue unseen, Pelus
    (5), has a 7-in-95 chance of being turned over."""
    hand = ("online-gambler", "the-jackal", "octavia", "matteo")
    gone = tuple(c for c in CARDS if CARDS[c].color is Color.WHITE
                 or (CARDS[c].color is Color.BLUE and c != "pelus"))
    d = _only(Table(seats=(Seat("A", hand),), banished=gone))
    value = {o.color: o.value for o in d.options}
    assert value[Color.WHITE] == 0 and value[Color.BLUE] == pytest.approx(5 * 7 / 95)
    colors = [o.color for o in d.options]
    assert colors.index(Color.BLUE) < colors.index(Color.WHITE)


def test_an_option_still_waiting_for_the_deck_card_is_refused_with_its_label() -> None:
    """Hacker with an unknown deck cannot be applied until the table says which card
    was turned over; the refusal names the option and what it needs."""
    table = Table(seats=(Seat("A", ("hacker",)),))
    blind = _only(table).options[0]
    with pytest.raises(FinaleError, match=r"^Hacker: reveal the top card of the deck: the "
                                          r"revealed deck card\(s\) are needed first$"):
        resolve(begin(table), blind)


def test_a_banish_from_hand_fails_once_the_card_has_left_the_hand() -> None:
    """An option that banishes a card from hand, applied to a table where the hand no
    longer holds it, is refused with the card and the player named."""
    table = Table(seats=(Seat("A", ("hypnotist", "octavia")),), deck=("eo",))
    option = _only(table).options[0]
    gone = table.with_seat(0, Seat("A", ("hypnotist",)))
    with pytest.raises(FinaleError, match=r"^Hypnotist: banish Octavia, gain the deck's top "
                                          r"card: octavia is not in A's hand$"):
        finale.apply(gone, option)


def test_a_gain_from_the_banished_pile_fails_once_the_card_has_left_it() -> None:
    """Surgeon's option names a banished Gold: applied to a table whose pile no longer
    holds it, it is refused with the card named."""
    table = Table(seats=(Seat("A", ("surgeon",)),), banished=("nero",))
    option = _only(table).options[0]
    with pytest.raises(FinaleError, match=r"^Surgeon: gain Nero: nero is not banished$"):
        finale.apply(replace(table, banished=()), option)


def test_psychologist_refuses_a_drawn_card_that_is_not_banished() -> None:
    """The card drawn at random, as the table reports it, must come from the banished
    pile; another is refused with the card named."""
    table = Table(seats=(Seat("A", ("psychologist",)), Seat("B", ("eo",))),
                  banished=("ceo", "nero"))
    option = _only(table).options[0]
    with pytest.raises(FinaleError, match=r"^Psychologist: gain a random banished card: "
                                          r"aja is not banished$"):
        resolve(begin(table), replace(option, gain=("aja",)))


def test_applying_psychologist_draws_from_the_random_source_given() -> None:
    """Applying Psychologist's option straight to a table draws the card from the
    random source given, as resolving it does."""
    table = Table(seats=(Seat("A", ("psychologist",)), Seat("B", ("eo",))),
                  banished=("ceo", "nero"))
    option = _only(table).options[0]
    after = finale.apply(table, option, random.Random(3))
    resolved = resolve(begin(table), option, random.Random(3)).table
    assert after.seats[0].hand == resolved.seats[0].hand
    drawn = after.seats[0].hand[1]
    assert drawn in ("ceo", "nero") and after.banished == tuple(
        c for c in ("ceo", "nero") if c != drawn)


def test_only_hacker_scores_the_revealed_card_as_points() -> None:
    """Hacker gains points equal to the revealed card's core value; Hypnotist and Online
    Gambler gain the cards they turn over into the hand instead, which score as cards,
    with no end-of-game points besides."""
    table = Table(seats=(Seat("A", ("hypnotist", "octavia")), Seat("B", ("online-gambler",))),
                  deck=("ceo", "eo", "aja"))
    after, _ = resolve_all(table, rng=random.Random(0))
    assert "ceo" in after.seats[0].hand and "eo" in after.seats[1].hand
    assert [s.extra_points for s in after.seats] == [0, 0]


def test_psychologist_is_valued_as_the_mean_over_the_banished_cards() -> None:
    """Psychologist's card is random: the option's value is the mean of the totals
    after gaining each banished card (Ceo 12 and Nero 25 on top of the 20 of
    Psychologist)."""
    table = Table(seats=(Seat("A", ("psychologist",)), Seat("B", ("eo",))),
                  banished=("ceo", "nero"))
    assert _only(table).options[0].value == (32 + 45) / 2
