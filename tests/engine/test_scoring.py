"""Final scoring: the scorepad's steps, Au Toma, winners, whole games scored by hand,
and the Orange/Gray search checked against brute force."""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

from engine.bonuses import CLAUSES, Facts, ScoredHand
from engine.cards import ALL_IDS, CARDS, Color
from engine.rulings import Rulings
from engine.scoring import (
    FLEET_POINTS,
    ScoreStep,
    best_hand,
    influence_points,
    score,
    seat_facts,
    winners,
)
from engine.table import AutomaInfo, Choice, Seat, StackCard, Table

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def table_of(*seats: Seat, **kw: object) -> Table:
    return Table(seats=seats, **kw)  # type: ignore[arg-type]


def example(name: str) -> Table:
    from device.commands.score import parse_table

    return parse_table(json.loads((EXAMPLES / name).read_text()))[0]


# ---- the rulebook's examples -----------------------------------------------------------

def test_rulebook_influence_example() -> None:
    # Jamey 10 and Megan 10 share the top value (×4), Biddy 5 is next (×2), Walter 2 (×1).
    assert influence_points([10, 10, 5, 2]) == (40, 40, 10, 2)
    sheet = score(table_of(*(Seat(n, (), influence=v) for n, v in
                             (("Jamey", 10), ("Megan", 10), ("Biddy", 5), ("Walter", 2)))))
    assert [p.influence for p in sheet.players] == [40, 40, 10, 2]


def test_rulebook_janitor_example() -> None:
    # "5 for each Green, Yellow and Blue": 2 Green, 0 Yellow, 1 Blue → 15.
    seat = Seat("A", ("janitor", "dataport-specialist", "hacker", "pelus"))
    bonus = score(table_of(seat)).players[0].rows[2]
    assert bonus.step is ScoreStep.CARDS_BONUS
    assert "Janitor: +15" in bonus.lines[0]


def test_influence_five_distinct_values_score_one_below_second() -> None:
    assert influence_points([10, 8, 6, 4, 2, 1]) == (40, 16, 6, 4, 2, 1)


def test_neutral_house_ranks_but_never_scores() -> None:
    # Neutral 3 takes the top rank: 2 is the second value (×2), 1 the third (×1).
    assert influence_points([2, 1], neutral=3) == (4, 1)
    sheet = score(table_of(Seat("A", (), influence=2), Seat("B", (), influence=1),
                           neutral_influence=3))
    assert [p.influence for p in sheet.players] == [4, 1]


def test_fleet_track_points() -> None:
    assert FLEET_POINTS == (0, 1, 3, 6, 10, 15, 21, 28, 34, 39, 43)
    totals = [score(table_of(Seat("A", (), fleet=f))).players[0].fleet for f in range(11)]
    assert totals == list(FLEET_POINTS)


def test_helium_sovereign_and_excess_cards() -> None:
    hand = ("eo", "judge", "aja", "pelus", "ragnar", "calliope", "ceo", "sevro", "darrow")
    p = score(table_of(Seat("A", hand, helium=4, sovereign=True))).players[0]
    assert (p.helium, p.sovereignty, p.excess_cards) == (12, 10, -20)
    assert "Darrow: +30" in " ".join(p.rows[2].lines)  # excess cards still score


# ---- Au Toma ---------------------------------------------------------------------------

@pytest.mark.parametrize("level", range(1, 7))  # her rules' rates, not the table tested
def test_au_toma_rates_by_level(level: int) -> None:
    # Even parity: Eo (10) and Judge (10) match; Sevro (15) does not.
    seat = Seat("Au Toma", ("eo", "judge", "sevro"), automa=AutomaInfo(level, "even"))
    p = score(table_of(seat)).players[0]
    match, other = {1: (5, 2), 2: (6, 3), 3: (8, 4), 4: (10, 5), 5: (12, 6), 6: (14, 7)}[level]
    assert (p.cards_core, p.cards_bonus) == (70, 2 * match + other)


def test_au_toma_cut_to_twenty_drops_non_matching_first_and_no_excess() -> None:
    odd = [c for c in ALL_IDS if CARDS[c].core % 2][:15]
    even = [c for c in ALL_IDS if CARDS[c].core % 2 == 0][:8]
    seat = Seat("Au Toma", tuple(odd + even), automa=AutomaInfo(2, "odd"), fleet=3,
                helium=2, influence=5)
    p = score(table_of(seat, Seat("You", ()))).players[0]
    # 23 cards, 3 too many: 3 of the 8 even (non-matching) go; 15×6 + 5×3 = 105.
    assert p.cards_bonus == 105
    assert p.excess_cards == 0
    assert (p.fleet, p.helium, p.influence) == (6, 6, 20)
    assert p.total == 70 + 105 + 6 + 6 + 20


def test_au_toma_cut_keeps_matching_when_non_matching_run_out() -> None:
    odd = [c for c in ALL_IDS if CARDS[c].core % 2][:22]
    seat = Seat("Au Toma", tuple(odd), automa=AutomaInfo(1, "odd"))
    assert score(table_of(seat)).players[0].cards_bonus == 20 * 5


# ---- winners ---------------------------------------------------------------------------

def test_a_tie_goes_to_the_sovereign_holder() -> None:
    # A: Helium 7 (21) + Fleet 4 (10) = 31; B: Sovereign 10 + Helium 2 (6) + Fleet 5 (15) = 31.
    sheet = score(table_of(Seat("A", (), helium=7, fleet=4),
                           Seat("B", (), helium=2, fleet=5, sovereign=True)))
    assert [p.total for p in sheet.players] == [31, 31]
    assert (sheet.winners, sheet.by_sovereign) == (("B",), True)
    assert winners([("A", 30, False), ("B", 30, True), ("C", 20, False)]) == (("B",), True)


def test_a_tie_without_the_sovereign_is_shared() -> None:
    sheet = score(table_of(Seat("A", (), helium=4), Seat("B", (), helium=4),
                           Seat("C", (), sovereign=True)))
    assert [p.total for p in sheet.players] == [12, 12, 10]
    assert sheet.winners == ("A", "B")
    assert not sheet.by_sovereign


# ---- three complete games, scored by hand -----------------------------------------------

def test_two_player_example_scored_by_hand() -> None:
    """examples/two-player.json (neutral 3 by default for two players).

    Ann: core 20+10+25+15+20+20+17+15 = 142.
      Mustang: Gold, Red, Orange, Gray = 4 castes → 20 (Trigg shows one caste: ruling 4)
      Darrow 8 cards → 30; Cassius with Mustang & Darrow → 40 (no −20)
      Sevro with Victra → 20; The Howlers with Sevro → 15; Victra 0 + 10 (Sevro)
      Razor Designer: a Gold, no Obsidian → 13; Trigg: no Gray/Yellow on the board → 0
      bonus 158; Fleet 6 → 21; Helium 5 → 15; Sovereign 10; Influence 7 (tied top) → 28;
      8 cards → −10. Total 142+158+21+15+10+28−10 = 364.
    Bob: core 7+9+10+10+10+10+13 = 69.
      Harmony: others all Red/Pink/Brown → 33; Deanna another Red → 26
      Eo: 4 other Reds → 40; Modjob: 5 Reds + itself → 30; Arlus no Gold → 25
      Uncle Narol: Matteo is 13 → 0; Matteo: no other Pink → 0
      bonus 154; Fleet 3 → 6; Helium 8 → 24; Influence 7 → 28. Total 281.
    """
    sheet = score(example("two-player.json"))
    ann, bob = sheet.players
    assert (ann.cards_core, ann.cards_bonus, ann.fleet, ann.helium, ann.sovereignty,
            ann.influence, ann.excess_cards, ann.total) == (142, 158, 21, 15, 10, 28, -10, 364)
    assert (bob.cards_core, bob.cards_bonus, bob.fleet, bob.helium, bob.influence,
            bob.total) == (69, 154, 6, 24, 28, 281)
    assert sheet.winners == ("Ann",)
    assert [(n.setting, n.difference) for n in bob.rulings] == [("with_means_other_cards", -17)]


def test_solo_example_scored_by_hand() -> None:
    """examples/solo-au-toma.json: Au Toma level 3 (8/4), "odd" showing.

    You: core 14+15+12+15+16+20+10 = 102; Influence 4, Au Toma 4, neutral 3.
      Quietus 16, Politician 15, Holo Host 18 (tied most); Administrator 15 (tied least,
      the neutral house does not count: ruling 1); Diplomat 19 (Au Toma also has 4);
      Sponsor 2×4 = 8; Timony 3×4 = 12 → bonus 103.
      Fleet 5 → 15; Helium 3 → 9; Sovereign 10; Influence tied top → 16. Total 255.
    Au Toma: 22 cards, 11 odd (matching) and 11 even; cut to 20 drops 2 even.
      11×8 + 9×4 = 124; base 70; Fleet 9 → 39; Helium 6 → 18; Influence 16. Total 267.
    """
    sheet = score(example("solo-au-toma.json"))
    you, automa = sheet.players
    assert (you.cards_core, you.cards_bonus, you.total) == (102, 103, 255)
    assert (automa.cards_core, automa.cards_bonus, automa.fleet, automa.helium,
            automa.influence, automa.excess_cards, automa.total) == (70, 124, 39, 18, 16, 0, 267)
    assert sheet.winners == ("Au Toma",)
    assert [(n.setting, n.difference) for n in you.rulings] == [
        ("neutral_influence_in_conditions", 15)]


def test_four_player_example_scored_by_hand() -> None:
    """examples/four-player.json (no neutral house).

    Ann: core 25+20+16+20+15+20 = 116. Gravboot Cobbler takes the name Darrow, so
      Cassius has Mustang and "Darrow" → 40; Mustang: Gold, Orange, Copper → 15;
      Gravboot with a Gold → 14; Victra 0 + 10; Sevro 20; Bondilus 0 + 5 → 104.
      Fleet 7 → 28; Helium 4 → 12; Influence 6 (second) → 12. Total 272.
    Bob: core 15+20+10+9+14+15 = 83. Holiday also counts as Blue, Ugly Dan as Green
      (declared). Holiday: Artificer + Pelus on the board → 10; Ugly Dan: Eo, Deanna,
      Modjob → 15; Janitor: Dataport + Ugly Dan (Green), Holiday (Blue) → 15;
      Dataport 26; Cyther 16; Conversationalist 0 → 82.
      Fleet 2 → 3; Helium 2 → 6; Sovereign 10; Influence 9 (top) → 36. Total 220.
    Cy: core 10+30+10+25+15+15 = 105. Chef: 5 Golds → 25; Octavia −30, The Jackal
      0 − 30, Nero 0 − 10, Karnus 0 − 15, Aja +15; the Chef gives back 30+30+10+15 = 85
      → 40. Fleet 4 → 10; Helium 9 → 27; Influence 3 (fourth value) → 3. Total 185.
    Dee: core 8+13+12+15+8+15+7 = 78. Two "P" Oranges: one takes another name so
      Codebreaker scores 22; Pulse Armorer with Bridge → 17; Pulse Fist with Stained →
      18; Bridge: no Pink/Violet on the board → 0; Dancer 0 (Bridge) + 11; Stained 15;
      Bridge counts as Violet → Holo Designer 28 → 111.
      Fleet 10 → 43; Influence 5 (third) → 5. Total 237.
    """
    sheet = score(example("four-player.json"))
    assert [p.total for p in sheet.players] == [272, 220, 185, 237]
    assert [p.cards_bonus for p in sheet.players] == [104, 82, 40, 111]
    assert [p.influence for p in sheet.players] == [12, 36, 3, 5]
    assert sheet.winners == ("Ann",)
    ann, bob, _, dee = sheet.players
    assert ann.choices_json()["gravboot-cobbler"] == {"name": "darrow"}
    assert bob.choices_json()["holiday"] == {"color": "blue"}
    assert bob.choices_json()["ugly-dan"] == {"color": "green"}
    assert "ugly-dan" not in bob.picked and "holiday" in bob.picked
    assert dee.choices_json()["bridge"] == {"color": "violet"}
    renamed = [c for c in ("pulse-armorer", "pulse-fist-engineer")
               if dee.choices_json()[c]["name"] != c]
    assert len(renamed) == 1


# ---- choices ---------------------------------------------------------------------------

def test_declared_choices_are_kept_even_when_worse() -> None:
    seat = Seat("A", ("holiday", "cyther", "dataport-specialist"),
                choices=(Choice("holiday", color=Color.WHITE),))
    p = score(table_of(seat)).players[0]
    assert p.cards_bonus == 0
    assert p.choices_json()["holiday"] == {"color": "white"}
    free = score(table_of(replace(seat, choices=()))).players[0]
    assert free.cards_bonus == 16 + 26


def test_two_oranges_with_the_same_name_earn_nothing_extra() -> None:
    seat = Seat("A", ("nero", "cyther", "artificer"),
                choices=(Choice("cyther", name="cassius"), Choice("artificer", name="cassius")))
    p = score(table_of(seat)).players[0]
    assert "Nero: -5" in " ".join(p.rows[2].lines)


def test_no_choice_when_nothing_in_hand_cares() -> None:
    p = score(table_of(Seat("A", ("pulse-armorer", "trigg", "judge")))).players[0]
    assert p.choices_json() == {"pulse-armorer": {"name": "pulse-armorer"},
                                "trigg": {"color": None}}


def test_end_of_game_points_have_their_own_row() -> None:
    p = score(table_of(Seat("A", ("hacker",), extra_points=18))).players[0]
    assert (p.end_of_game, p.total) == (18, 18 + 15)


def test_json_has_the_contract_keys() -> None:
    out = score(example("two-player.json")).to_json()
    assert set(out) == {"players", "winners"}
    assert set(out["players"][0]) == {  # type: ignore[index]
        "name", "cards_core", "cards_bonus", "fleet", "helium", "sovereignty", "influence",
        "excess_cards", "total", "choices"}


def test_face_down_top_card_and_developer() -> None:
    stacks = ((StackCard("ceo"),), (StackCard("nero", face_down=True),),
              (StackCard("eo"),), (StackCard("aja"),))
    table = table_of(Seat("A", ("developer", "firewall-expert")), locations=stacks)
    p = score(table).players[0]
    assert p.cards_bonus == 25 + 22  # Nero's 25 (ruling 8) and a face-down top card
    strict = score(table, Rulings(developer_face_down=False)).players[0]
    assert strict.cards_bonus == 15 + 22


def test_banished_count_before_the_finale_under_the_other_ruling() -> None:
    table = table_of(Seat("A", ("researcher",)), banished=("eo", "aja", "ceo", "nero", "sevro"),
                     banished_before_finale=("eo", "aja", "ceo"))
    assert score(table).players[0].cards_bonus == 0
    early = Rulings(banished_counted_after_finale=False)
    assert score(table, early).players[0].cards_bonus == 17
    notes = score(table).players[0].rulings
    assert [(n.setting, n.difference) for n in notes] == [("banished_counted_after_finale", -17)]


def test_score_does_not_change_the_table() -> None:
    table = example("four-player.json")
    before = repr(table)
    score(table)
    assert repr(table) == before


# ---- the Orange / Gray search against brute force ---------------------------------------

ORANGES = [c for c in ALL_IDS if CARDS[c].color is Color.ORANGE]
GRAYS = [c for c in ALL_IDS if CARDS[c].color is Color.GRAY]
READERS = [c for c in ALL_IDS if CARDS[c].color not in (Color.ORANGE, Color.GRAY)
           and any(cl.reads_names or cl.reads_colors for cl in CLAUSES[c])]
EXTRAS = [c for c in Color if c is not Color.GRAY]
# (free Oranges, free Grays); brute force tries 113 names per Orange and 14 per Gray.
SHAPES = [(1, 0), (0, 1), (1, 1), (0, 2), (2, 0), (0, 3), (1, 2), (1, 1)]


def _bonus(ids: tuple[str, ...], facts: Facts, rulings: Rulings,
           extra: dict[str, Color], renamed: dict[str, str]) -> int:
    hand = ScoredHand.of(ids, facts, rulings, extra=extra, renamed=renamed)
    return sum(cl.points(hand, j) for j, c in enumerate(ids) for cl in CLAUSES[c])


def _random_case(rng: random.Random, shape: tuple[int, int]) -> tuple[Seat, Table, Rulings]:
    free = rng.sample(ORANGES, shape[0]) + rng.sample(GRAYS, shape[1])
    size = rng.randint(len(free) + 1, 10)
    pool = READERS if rng.random() < 0.8 else [c for c in ALL_IDS if c not in free]
    others = rng.sample([c for c in pool if c not in free], size - len(free))
    hand = tuple(rng.sample(free + others, size))
    seat = Seat("A", hand, helium=rng.randint(0, 8), influence=rng.randint(0, 10),
                fleet=rng.randint(0, 10), sovereign=rng.random() < 0.5)
    rival = Seat("B", (), helium=rng.randint(0, 8), influence=rng.randint(0, 10),
                 fleet=rng.randint(0, 10))
    rulings = Rulings(gray_double_count=rng.random() < 0.3,
                      with_means_other_cards=rng.random() < 0.8,
                      codebreaker_literal_first_character=rng.random() < 0.7,
                      only_with_accepts_gray_extra=rng.random() < 0.8,
                      painter_printed_colors=rng.random() < 0.7)
    return seat, table_of(seat, rival), rulings


@pytest.mark.parametrize("n", range(16))
def test_chosen_assignment_beats_every_other(n: int) -> None:
    rng = random.Random(n)
    seat, table, rulings = _random_case(rng, SHAPES[n % len(SHAPES)])
    facts = seat_facts(table, 0, rulings)
    hand, values, _ = best_hand(seat, facts, rulings)
    oranges = [c for c in seat.hand if c in ORANGES]
    grays = [c for c in seat.hand if c in GRAYS]
    chosen_extra = {c: next(iter(k - {Color.GRAY})) for c, k in zip(hand.ids, hand.colors,
                                                                     strict=True) if len(k) > 1}
    chosen_names = dict(zip(hand.ids, hand.names, strict=True))
    assert sum(values) == _bonus(seat.hand, facts, rulings, chosen_extra, chosen_names)
    best = max(
        _bonus(seat.hand, facts, rulings,
               {g: c for g, c in zip(grays, colors, strict=True) if c is not None},
               {o: name for o, name in zip(oranges, names, strict=True)})
        for names in itertools.product(*([o, *ALL_IDS] for o in oranges))
        for colors in itertools.product(*([None, *EXTRAS] for _ in grays))
    )
    assert sum(values) == best


def test_brute_force_where_one_clause_reads_names_and_castes() -> None:
    # Sevro, Tactus, Boneriders and Matteo each read a name *or* a caste: searched jointly.
    seat = Seat("A", ("sevro", "tactus", "cyther", "trigg", "boneriders", "matteo", "romulus"))
    facts = seat_facts(table_of(seat), 0, Rulings())
    _, values, _ = best_hand(seat, facts, Rulings())
    best = max(_bonus(seat.hand, facts, Rulings(), {"trigg": c} if c else {}, {"cyther": n})
               for n in ["cyther", *ALL_IDS] for c in [None, *EXTRAS])
    assert sum(values) == best


def test_artisan_chef_give_back_never_makes_a_penalty_worth_choosing() -> None:
    # The Chef's give-back rises with Gold penalties exactly as much as they cost.
    seat = Seat("A", ("artisan-chef", "karnus", "antonia", "the-jackal", "cyther"))
    facts = seat_facts(table_of(seat), 0, Rulings())
    plain = _bonus(seat.hand, facts, Rulings(), {}, {})
    for name in ("mustang", "nero", "victra", "sevro", "darrow", "octavia"):
        assert _bonus(seat.hand, facts, Rulings(), {}, {"cyther": name}) == plain


# Oranges differ only by name and Grays not at all as the other cards see them, so one of
# each, in three different hands, covers every clause.
@pytest.mark.parametrize(("card", "seed"), [(c, k) for c in ("cyther", "trigg") for k in range(3)])
def test_search_metadata_matches_what_each_clause_reads(card: str, seed: int) -> None:
    """Renaming an Orange / recoloring a Gray changes only clauses that list the name or
    caste, and one outside a clause's "up" list never raises it. The search relies on it."""
    rng = random.Random(seed)
    for cid, clauses in CLAUSES.items():
        if cid == card:
            continue
        others = rng.sample([c for c in ALL_IDS if c not in (cid, card)], 3)
        ids = (cid, card, *others)
        base_hand = ScoredHand.of(ids)
        for cl in clauses:
            base = cl.points(base_hand, 0)
            if card in ORANGES:
                _check_names(cl, ids, card, base)
            else:
                _check_colors(cl, ids, card, base)


def _check_names(cl: object, ids: tuple[str, ...], card: str, base: int) -> None:
    from engine.bonuses import Clause

    assert isinstance(cl, Clause)
    for name in ALL_IDS:
        got = cl.points(ScoredHand.of(ids, renamed={card: name}), 0)
        read = cl.names_up | cl.names_down
        if not cl.letters and name not in read and card not in read:
            assert got == base, (cl.card, name)
        elif not cl.letters and not cl.offsets and name not in cl.names_up:
            assert got <= base, (cl.card, name)


def _check_colors(cl: object, ids: tuple[str, ...], card: str, base: int) -> None:
    from engine.bonuses import Clause

    assert isinstance(cl, Clause)
    for color in EXTRAS:
        got = cl.points(ScoredHand.of(ids, extra={card: color}), 0)
        if not cl.all_colors and color not in cl.colors_up | cl.colors_down:
            assert got == base, (cl.card, color)
        elif not cl.any_color and not cl.offsets and color not in cl.colors_up:
            assert got <= base, (cl.card, color)


@pytest.mark.parametrize("module", ["engine.scoring", "engine.bonuses", "engine.finale",
                                    "engine.rulings", "engine.table"])
def test_doctests(module: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0 and result.attempted > 0


def test_the_scorepad_explains_each_token_row_and_au_tomas_rows() -> None:
    hand = ("eo", "judge", "aja", "pelus", "ragnar", "calliope", "ceo", "sevro", "darrow")
    odd = [c for c in ALL_IDS if CARDS[c].core % 2][:15]
    even = [c for c in ALL_IDS if CARDS[c].core % 2 == 0 and c not in hand][:8]
    sheet = score(table_of(
        Seat("Ann", hand, helium=4, influence=5, fleet=3, sovereign=True),
        Seat("Bo", ("lorn",), influence=2),
        Seat("Au Toma", tuple(odd + even), automa=AutomaInfo(2, "odd"), influence=5)))
    ann, bo, her = ([(r.step.value, r.points, r.lines) for r in p.rows[3:]]
                    for p in sheet.players)
    assert ann == [("fleet", 6, ("position 3",)), ("helium", 12, ("4 Helium × 3",)),
                   ("sovereignty", 10, ("holds the Sovereign token",)),
                   ("influence", 20, ("5 token(s) × 4",)),
                   ("excess_cards", -20, ("2 card(s) past the 7th",))]
    assert bo[2:] == [("sovereignty", 0, ()), ("influence", 4, ("2 token(s) × 2",)),
                      ("excess_cards", 0, ())]
    assert her[4] == ("excess_cards", 0, ("Au Toma has no excess-card penalty",))
    core, bonus = sheet.players[2].rows[1:3]
    assert (core.step, core.points, core.lines) == (ScoreStep.CARDS_CORE, 70, ("Au Toma's base",))
    assert (bonus.step, bonus.points, bonus.lines) == (ScoreStep.CARDS_BONUS, 105, (
        "15 matching (odd) × 6, 5 non-matching × 3", "hand cut from 23 to 20 cards first"))


def test_the_scorepad_explains_end_of_game_points_and_an_empty_influence_row() -> None:
    sheet = score(table_of(Seat("A", (), extra_points=7), Seat("B", (), influence=1)))
    first, second = sheet.players
    assert first.rows[0].lines == ("7 from end-of-game abilities",) and first.end_of_game == 7
    assert second.rows[0].lines == () and first.rows[6].lines == ("no tokens",)


def test_a_lone_leader_with_the_sovereign_wins_outright_not_by_the_token() -> None:
    assert winners([("A", 31, True), ("B", 30, False)]) == (("A",), False)
    assert winners([("A", 31, False), ("B", 30, True)]) == (("A",), False)
