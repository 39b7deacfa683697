"""Every bonus clause of the 112 cards: a case that scores and one that does not.

The cases are written from the printed cards (the laurel clauses at the bottom), not
from another implementation: "with X" looks at the other cards in the hand, "on all
locations" at the board, "banished" at the pile.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from engine.bonuses import CLAUSES, Facts, ScoredHand, clause_points
from engine.cards import CARDS, Color
from engine.rulings import Rulings

REFERENCE = Path(__file__).resolve().parents[2].parent / "shared" / "reference"
G, R, B, OR = Color.GOLD, Color.RED, Color.BLUE, Color.ORANGE


def case(*others: str, extra: Mapping[str, Color] | None = None,
         renamed: Mapping[str, str] | None = None, **facts: Any) -> dict[str, Any]:
    """A hand of the clause's card plus ``others``, with table facts."""
    return {"others": others, "extra": extra, "renamed": renamed, "facts": facts}


def points(card: str, k: int, spec: dict[str, Any], rulings: Rulings | None = None) -> int:
    """The points of clause ``k`` of ``card`` (first in hand) under ``spec``."""
    hand = ScoredHand.of((card, *spec["others"]), Facts(**spec["facts"]), rulings,
                   extra=spec["extra"], renamed=spec["renamed"])
    return CLAUSES[card][k].points(hand, 0)


SIX = ("eo", "judge", "aja", "pelus", "ragnar", "calliope")

# (card, clause index): (a case that scores, its points, a case that does not, its points)
CASES: dict[tuple[str, int], tuple[dict[str, Any], int, dict[str, Any], int]] = {
    ("4d-painter", 0): (case("judge", "eo"), 31, case("judge", "orator"), 0),
    ("administrator", 0): (case(influence=3, rival_influence=(3, 5)), 15,
                           case(influence=4, rival_influence=(3,)), 0),
    ("aegis-craftsman", 0): (case("aja"), 10, case("eo"), 0),
    ("aegis-craftsman", 1): (case("eo"), 10, case("ragnar"), 0),
    ("aja", 0): (case("octavia"), 15, case("nero"), 0),
    ("alfrun", 0): (case("nero"), 10, case("jopho"), 0),
    ("alfrun", 1): (case("jopho"), 10, case("nero"), 0),
    ("alia-snowsparrow", 0): (case("aja", "trigg", "ragnar"), 24, case("aja", "eo"), 0),
    ("antonia", 0): (case("the-jackal"), 15, case("aja"), 0),
    ("antonia", 1): (case("victra"), -10, case("aja"), 0),
    ("arlus", 0): (case("eo"), 25, case("aja"), 0),
    ("artificer", 0): (case("cyther", "aja"), 20, case("aja"), 0),
    ("artisan-chef", 0): (case("aja", "nero"), 10, case("eo"), 0),
    ("artisan-chef", 1): (case("octavia"), 30, case("sefi", "aja"), 0),
    ("ash-lord", 0): (case("pelus", "virga"), 10, case("eo"), 0),
    ("ash-lord", 1): (case(banished_colors={B: 2}), 10, case(banished_colors={R: 2}), 0),
    ("assassin", 0): (case("ragnar"), 10, case("eo"), 0),
    ("bondilus", 0): (case(sovereign=True), 5, case(), 0),
    ("bondilus", 1): (case("aja"), 5, case("eo"), 0),
    ("boneriders", 0): (case("trigg"), 15, case("eo"), 0),
    ("bridge", 0): (case(board={Color.PINK: 1, Color.VIOLET: 2}), 15, case(board={R: 3}), 0),
    ("calliope", 0): (case("the-jackal"), 20, case("darrow"), 0),
    ("cassius", 0): (case("mustang", "darrow"), 40, case("darrow"), 0),
    ("cassius", 1): (case("darrow"), -20, case("mustang", "darrow"), 0),
    ("ceo", 0): (case(helium=5), 18, case(helium=4), 0),
    ("codebreaker", 0): (case("aja", "darrow", "eo"), 22, case("cassius"), 0),
    ("colonel-valentin", 0): (case(board={G: 3}), 15, case(board={R: 3}), 0),
    ("conversationalist", 0): (case("judge"), 15, case("eo"), 0),
    ("cyther", 0): (case("pelus"), 16, case("eo"), 0),
    ("dancer", 0): (case("eo"), 11, case("trigg"), 0),
    ("dancer", 1): (case("eo"), 11, case("aja"), 0),
    ("danto", 0): (case(board={Color.COPPER: 1, Color.WHITE: 1}), 10, case(board={G: 4}), 0),
    ("darrow", 0): (case(*SIX), 30, case(*SIX[:5]), 0),
    ("dataport-specialist", 0): (case("pelus"), 26, case("eo"), 0),
    ("deanna", 0): (case("eo"), 26, case("aja"), 0),
    ("developer", 0): (case(top_values=(5, 20, 9)), 20, case(top_values=()), 0),
    ("diplomat", 0): (case(influence=4, rival_influence=(2, 4)), 19,
                      case(influence=4, rival_influence=(3, 5)), 0),
    ("eo", 0): (case("deanna", "arlus"), 20, case("aja"), 0),
    ("eo", 1): (case("trigg"), -10, case("bridge"), 0),
    ("evey", 0): (case("darrow"), 15, case("sevro"), 0),
    ("evey", 1): (case("mickey-the-carver"), -15, case("sevro"), 0),
    ("firewall-expert", 0): (case(open_location=True), 22, case(open_location=False), 0),
    ("fitchner", 0): (case("eo"), 10, case("aja"), 0),
    ("fitchner", 1): (case("sevro"), 10, case("eo"), 0),
    ("garden-trained-rose", 0): (case("ceo"), 14, case("eo"), 0),
    ("gardener", 0): (case("calliope", "zanzibar"), 10, case("eo"), 0),
    ("gravboot-cobbler", 0): (case("trigg"), 14, case("eo"), 0),
    ("group-counselor", 0): (case(banished=6), -6, case(banished=0), 0),
    ("harmony", 0): (case("eo", "calliope", "modjob", "ragnar"), 33, case("eo", "aja"), 0),
    ("helga", 0): (case("the-pax"), 16, case("orion"), 0),
    ("holiday", 0): (case(board={OR: 1, B: 2}), 15, case(board={R: 2}), 0),
    ("holo-designer", 0): (case("zanzibar"), 28, case("eo"), 0),
    ("holo-host", 0): (case(influence=5, rival_influence=(5, 2)), 18,
                       case(influence=4, rival_influence=(5,)), 0),
    ("invictus", 0): (case(fleet=6, rival_fleet=(6, 3)), 16, case(fleet=5, rival_fleet=(6,)), 0),
    ("invictus", 1): (case(fleet=5, rival_fleet=(6,)), -9, case(fleet=6, rival_fleet=(6,)), 0),
    # The rulebook's example: 2 Green, 0 Yellow, 1 Blue → 15.
    ("janitor", 0): (case("dataport-specialist", "developer", "pelus"), 15, case("eo"), 0),
    ("jopho", 0): (case("alfrun"), 10, case("nero"), 0),
    ("jopho", 1): (case("nero"), 10, case("alfrun"), 0),
    ("judge", 0): (case("eo", "aja", "ceo"), 12, case(), 3),  # the Judge counts itself
    ("karnus", 0): (case("cassius"), 30, case("nero"), 0),
    ("karnus", 1): (case("nero"), -15, case("cassius"), 0),
    ("lawyer", 0): (case("orator"), 12, case("judge"), 0),
    ("lawyer", 1): (case("judge"), 22, case("orator"), 0),
    ("loan-shark", 0): (case(*SIX), 7, case(*SIX[:5]), 0),
    ("lorn", 0): (case("eo"), 15, case("aja"), 0),
    ("lysander", 0): (case("cassius"), 20, case("eo"), 0),
    ("magistrate", 0): (case(helium=3, influence=3, fleet=3), 15,
                        case(helium=3, influence=3, fleet=2), 0),
    ("masseuse", 0): (case("timony"), 16, case("eo"), 0),
    ("matteo", 0): (case("calliope"), 17, case("eo"), 0),
    ("mess-hall-cook", 0): (case("trigg", "cyther"), 10, case("eo"), 0),
    ("mickey-the-carver", 0): (case(banished_colors={R: 1}), 10,
                               case(banished_colors={G: 3}), 0),
    ("mickey-the-carver", 1): (case("aja"), 10, case("eo"), 0),
    ("modjob", 0): (case("eo", "janitor"), 15, case(), 5),  # Modjob counts itself
    ("morning-star", 0): (case("eo"), -15, case("orion"), 0),
    ("musician", 0): (case("eo", "judge"), 32, case("sevro"), 0),
    ("mustang", 0): (case("eo", "judge"), 15, case(), 5),  # its own Gold is a color
    ("nanny", 0): (case("ceo", "judge", "timony"), 15, case("eo"), 0),
    ("nero", 0): (case(sovereign=True), 10, case(), 0),
    ("nero", 1): (case("cassius", "octavia"), -10, case("aja"), 0),
    ("octavia", 0): (case(), -30, case("lysander"), 0),
    ("orator", 0): (case(), 21, case(sovereign=True), 0),
    ("orion", 0): (case("the-pax"), 10, case("pelus"), 0),
    ("orion", 1): (case(fleet=7), 7, case(fleet=0), 0),
    ("pathologist", 0): (case(banished=5), 10, case(banished=10), 0),
    ("pathologist", 1): (case(banished=10), 25, case(banished=9), 0),
    ("pax-au-telemanus", 0): (case("ragnar"), 20, case("eo"), 0),
    ("pelus", 0): (case(fleet=5), 20, case(fleet=4), 0),
    ("pelus", 1): (case(fleet=8), 35, case(fleet=7), 0),
    ("politician", 0): (case(influence=6, rival_influence=(6,)), 15,
                        case(influence=6, rival_influence=(7,)), 0),
    ("priestess", 0): (case("sponsor", "nero"), 20, case("eo"), 0),
    ("pulse-armorer", 0): (case("trigg"), 17, case("eo"), 0),
    ("pulse-fist-engineer", 0): (case("ragnar"), 18, case("eo"), 0),
    ("quicksilver", 0): (case(helium=3, rival_helium=(4,)), -30,
                         case(helium=4, rival_helium=(4,)), 0),
    ("quietus", 0): (case(influence=5, rival_influence=(5,)), 16,
                     case(influence=5, rival_influence=(6,)), 0),
    ("ragnar", 0): (case("cyther"), 10, case("eo"), 0),
    ("ragnar", 1): (case("sefi"), 10, case("eo"), 0),
    ("razor-designer", 0): (case("aja"), 13, case("aja", "ragnar"), 0),
    ("reporter", 0): (case(helium=5, rival_helium=(5, 2)), 29,
                      case(helium=5, rival_helium=(6,)), 0),
    ("researcher", 0): (case(banished=4), 17, case(banished=5), 0),
    ("romulus", 0): (case(sovereign=True), 15, case(), 0),
    ("romulus", 1): (case("eo"), -25, case("pelus"), 0),
    ("roque", 0): (case("pelus", "virga"), 10, case("eo"), 0),
    ("seer", 0): (case(sovereign=True), 11, case(), 0),
    ("sefi", 0): (case("ragnar"), 20, case("eo"), 0),
    ("sefi", 1): (case("aja", "nero"), -10, case("eo"), 0),
    ("sevro", 0): (case("eo"), 20, case("aja"), 0),
    ("sponsor", 0): (case(influence=6), 12, case(influence=0), 0),
    ("stained", 0): (case("eo"), 15, case("ragnar"), 0),
    ("stock-broker", 0): (case(helium=3), 15, case(helium=0), 0),
    ("sun-hwa", 0): (case(board={Color.OBSIDIAN: 1, Color.GREEN: 1}), 10, case(board={G: 2}), 0),
    ("surgeon", 0): (case("aja", "nero"), 10, case("eo"), 0),
    ("tactus", 0): (case("calliope"), 20, case("eo"), 0),
    ("the-howlers", 0): (case("sevro"), 15, case("victra"), 0),
    ("the-jackal", 0): (case(sovereign=True), 30, case(), 0),
    ("the-jackal", 1): (case("darrow"), -30, case("sevro"), 0),
    ("the-pax", 0): (case("virga"), 15, case("the-jackal"), 0),
    ("the-telemanuses", 0): (case("pax-au-telemanus"), 15, case("sevro"), 0),
    ("theodora", 0): (case("aja"), 14, case("aja", "eo"), 0),
    ("timony", 0): (case(influence=5), 15, case(influence=0), 0),
    ("trigg", 0): (case(board={Color.GRAY: 1, Color.YELLOW: 2}), 15, case(board={R: 1}), 0),
    ("ugly-dan", 0): (case(board={R: 2, Color.BROWN: 1}), 15, case(board={G: 3}), 0),
    ("uncle-narol", 0): (case("eo", "judge"), 40, case("sevro"), 0),
    ("victra", 0): (case("the-howlers"), 10, case("sevro"), 0),
    ("victra", 1): (case("sevro"), 10, case("the-howlers"), 0),
    ("virga", 0): (case(fleet=6), 15, case(fleet=5), 0),
    ("virga", 1): (case(fleet=9), 30, case(fleet=8), 0),
    ("vlogger", 0): (case(fleet=4, rival_fleet=(4,)), 23, case(fleet=4, rival_fleet=(5,)), 0),
    ("zanzibar", 0): (case("sevro", "aja"), 31, case("eo"), 0),
}
KEYS = sorted(CASES)
IDS = [f"{card}-{k}" for card, k in KEYS]


@pytest.mark.parametrize("key", KEYS, ids=IDS)
def test_clause_scores(key: tuple[str, int]) -> None:
    spec, expected, _, _ = CASES[key]
    assert points(*key, spec) == expected


@pytest.mark.parametrize("key", KEYS, ids=IDS)
def test_clause_does_not_score(key: tuple[str, int]) -> None:
    _, scored, spec, expected = CASES[key]
    assert points(*key, spec) == expected != scored


def test_every_clause_of_every_card_has_cases() -> None:
    every = {(cid, k) for cid, clauses in CLAUSES.items() for k in range(len(clauses))}
    assert set(CASES) == every
    assert len(every) == 128


def test_ten_cards_have_no_bonus_clause() -> None:
    bare = {cid for cid, clauses in CLAUSES.items() if not clauses}
    assert bare == {"auctioneer", "banker", "dr-virany", "hacker", "hypnotist", "investor",
                    "justice", "martyr", "online-gambler", "psychologist"}


@pytest.mark.skipif(not (REFERENCE / "cards.json").exists(),
                    reason="../shared/reference/cards.json is absent")
def test_fixed_amounts_match_the_printed_laurels() -> None:
    """For "if …" clauses the scoring case earns exactly the printed amount."""
    reference = json.loads((REFERENCE / "cards.json").read_text())["cards"]
    checked = 0
    for card in reference:
        for k, printed in enumerate(card["bonuses"]):
            text = (printed["condition"] or "").lower()
            if printed["points"] is None or not text.startswith(("if", "unless")):
                continue
            assert CASES[(card["id"], k)][1] == printed["points"], (card["id"], k)
            checked += 1
    assert checked > 80


# ---- the words the clauses use ---------------------------------------------------------

def test_with_means_the_other_cards() -> None:
    assert points("matteo", 0, case("eo")) == 0  # Matteo is a Pink, but not "with" itself
    loose = Rulings(with_means_other_cards=False)
    assert points("matteo", 0, case("eo"), loose) == 17


def test_antonia_with_two_other_golds() -> None:
    assert points("antonia", 0, case("aja", "nero")) == 15


def test_lysander_with_the_sovereign_token_alone() -> None:
    assert points("lysander", 0, case(sovereign=True)) == 20


def test_romulus_with_roque_even_with_a_blue() -> None:
    assert points("romulus", 1, case("pelus", "roque")) == -25


def test_stock_broker_stops_at_25() -> None:
    assert points("stock-broker", 0, case(helium=9)) == 25


def test_nero_counts_each_named_card() -> None:
    assert points("nero", 1, case("cassius", "karnus", "octavia")) == -15


def test_an_orange_renamed_counts_under_its_new_name() -> None:
    spec = case("mustang", "cyther", renamed={"cyther": "darrow"})
    assert points("cassius", 0, spec) == 40


def test_a_gray_with_an_extra_color_counts_as_both() -> None:
    spec = case("trigg", extra={"trigg": B})
    assert points("cyther", 0, spec) == 16
    assert points("pulse-armorer", 0, spec) == 17


def test_clause_points_sums_a_cards_clauses() -> None:
    hand = ScoredHand.of(("victra", "the-howlers", "sevro"))
    assert clause_points(hand, 0) == 20


def test_every_card_is_in_the_registry() -> None:
    assert set(CLAUSES) == set(CARDS)
