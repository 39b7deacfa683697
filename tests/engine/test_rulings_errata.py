"""The errata's traps (mistakes found in public card lists and engines), one test each,
and every judgement call as a named setting with its default and its alternative."""

from __future__ import annotations

from typing import Any

from engine import finale
from engine.bonuses import CLAUSES, Facts, ScoredHand, clause_points
from engine.cards import CARDS, Color
from engine.rulings import Rulings, setting_names
from engine.scoring import influence_points, score
from engine.table import Choice, Seat, StackCard, Table


def bonus(*ids: str, rulings: Rulings | None = None, extra: dict[str, Color] | None = None,
          renamed: dict[str, str] | None = None, **facts: Any) -> int:
    """The first card's bonus points in a hand of ``ids``."""
    return clause_points(ScoredHand.of(ids, Facts(**facts), rulings, extra=extra,
                                 renamed=renamed), 0)


# ---- the traps -------------------------------------------------------------------------

def test_invictus_is_named_invictus_for_codebreaker() -> None:
    assert (CARDS["invictus"].name, CARDS["invictus"].color, CARDS["invictus"].core) == (
        "Invictus", Color.BLUE, 19)
    # C, I, A: all different ("Administrator" would clash with the Administrator).
    assert bonus("codebreaker", "invictus", "administrator") == 22


def test_administrator_wants_the_least_influence_or_tied() -> None:
    assert bonus("administrator", influence=2, rival_influence=(2, 6)) == 15
    assert bonus("administrator", influence=6, rival_influence=(2, 6)) == 0


def test_cyther_scores_16_with_a_blue() -> None:
    assert bonus("cyther", "pelus") == 16


def test_gravboot_cobbler_scores_14_with_a_gold_or_gray() -> None:
    assert bonus("gravboot-cobbler", "aja") == 14
    assert bonus("gravboot-cobbler", "trigg") == 14


def test_the_pax_counts_sevro() -> None:
    assert bonus("the-pax", "sevro") == 15


def test_stained_needs_no_other_obsidian() -> None:
    assert bonus("stained", "eo") == 15
    assert bonus("stained", "ragnar") == 0


def test_matteo_needs_another_pink_or_quicksilver() -> None:
    assert bonus("matteo", "eo") == 0
    assert bonus("matteo", "evey") == 17
    assert bonus("matteo", "quicksilver") == 17


def test_theodora_is_gold_or_red_but_not_both() -> None:
    assert bonus("theodora", "aja") == 14
    assert bonus("theodora", "eo") == 14
    assert bonus("theodora", "aja", "eo") == 0


def test_evey_penalty_names_mickey_the_carver() -> None:
    assert bonus("evey", "mickey-the-carver") == -15
    assert bonus("evey", "cyther", renamed={"cyther": "mickey-the-carver"}) == -15


def test_lawyer_clauses_are_independent() -> None:
    assert bonus("lawyer", "judge", "orator") == 12 + 22
    assert bonus("lawyer", "judge") == 22
    assert bonus("lawyer", "orator") == 12


def test_artisan_chef_ignores_gold_penalties() -> None:
    hand = ("artisan-chef", "octavia", "the-jackal")
    p = score(Table(seats=(Seat("A", hand),))).players[0]
    # Chef 2 Golds → 10; Octavia −30 and The Jackal −30 (with Octavia) are given back.
    assert p.cards_bonus == 10


def test_developer_takes_the_best_top_card() -> None:
    stacks = ((StackCard("eo"), StackCard("ceo")), (StackCard("quicksilver"),), (), ())
    p = score(Table(seats=(Seat("A", ("developer",)),), locations=stacks)).players[0]
    assert p.cards_bonus == 40


def test_firewall_expert_reads_empty_or_face_down_locations() -> None:
    full = tuple((StackCard(c),) for c in ("eo", "ceo", "aja", "nero"))
    assert score(Table(seats=(Seat("A", ("firewall-expert",)),),
                       locations=full)).players[0].cards_bonus == 0
    down = (*full[:3], (StackCard("nero", face_down=True),))
    assert score(Table(seats=(Seat("A", ("firewall-expert",)),),
                       locations=down)).players[0].cards_bonus == 22
    assert score(Table(seats=(Seat("A", ("firewall-expert",)),),
                       locations=(*full[:3], ()))).players[0].cards_bonus == 22


def test_banker_and_psychologist_have_no_bonus_points() -> None:
    assert CLAUSES["banker"] == () and CLAUSES["psychologist"] == ()
    assert {"banker", "psychologist"} <= set(finale.ABILITIES)


def test_alia_and_harmony_accept_a_gray_through_its_extra_color() -> None:
    assert bonus("harmony", "eo", "trigg", extra={"trigg": Color.RED}) == 33
    assert bonus("harmony", "eo", "trigg") == 0
    assert bonus("alia-snowsparrow", "trigg", "aja", extra={"trigg": Color.BLUE}) == 24


def test_eo_excludes_only_the_real_bridge() -> None:
    assert bonus("eo", "bridge") == 0
    assert bonus("eo", "trigg", "cyther", renamed={"cyther": "bridge"}) == -10


def test_influence_ranks_distinct_values_and_neutral_never_scores() -> None:
    assert influence_points([10, 9, 8, 7, 6, 5]) == (40, 18, 8, 7, 6, 5)
    # A ties the neutral house's 3 on top (×4); B's 1 is the next distinct value (×2).
    sheet = score(Table(seats=(Seat("A", (), influence=3), Seat("B", (), influence=1)),
                        neutral_influence=3))
    assert [p.influence for p in sheet.players] == [12, 2]


def test_mustang_and_danto_act_on_that_card() -> None:
    assert "this card" not in (CARDS["mustang"].deploy or "").lower()
    assert "that card" in (CARDS["danto"].deploy or "").lower()


def test_sun_hwa_is_hyphenated_and_moves_cards_under_itself() -> None:
    assert CARDS["sun-hwa"].name == "Sun-Hwa"
    assert "under this card" in (CARDS["sun-hwa"].deploy or "").lower()


def test_twenty_five_cards_have_an_end_of_game_ability() -> None:
    with_ability = {c for c, card in CARDS.items() if card.end_of_game}
    choosers = {c for c, card in CARDS.items() if card.color in (Color.ORANGE, Color.GRAY)}
    assert with_ability == set(finale.ABILITIES) | choosers
    assert len(with_ability) == 25


# ---- the judgement calls ---------------------------------------------------------------

def test_every_judgement_call_is_a_setting_with_the_errata_default() -> None:
    r = Rulings()
    assert (r.neutral_influence_in_conditions, r.banished_counted_after_finale,
            r.artisan_chef_per_clause, r.artisan_chef_covers_sefi, r.gray_double_count,
            r.only_with_accepts_gray_extra, r.painter_printed_colors,
            r.codebreaker_literal_first_character, r.developer_face_down,
            r.with_means_other_cards, r.hacker_sees_deck_as_left) == (
        False, True, True, False, False, True, True, True, True, True, True)
    assert len(setting_names()) >= 11


def test_ruling_1_neutral_influence_in_conditions() -> None:
    table = Table(seats=(Seat("A", ("holo-host",), influence=2), Seat("B", (), influence=1)),
                  neutral_influence=3)
    assert score(table).players[0].cards_bonus == 18
    assert score(table, Rulings(neutral_influence_in_conditions=True)).players[0].cards_bonus == 0


def test_ruling_2_banished_counted_after_the_finale() -> None:
    table = Table(seats=(Seat("A", ("pathologist",)),), banished=("eo", "aja", "ceo", "nero",
                                                                  "sevro"),
                  banished_before_finale=("eo",))
    assert score(table).players[0].cards_bonus == 10
    early = Rulings(banished_counted_after_finale=False)
    assert score(table, early).players[0].cards_bonus == 0


def test_ruling_3_artisan_chef_per_clause_and_not_sefi() -> None:
    # Antonia: +15 (two other Golds: Nero, Aja) and −10 (Sevro, a Gold too).
    hand = ("antonia", "artisan-chef", "nero", "sevro", "sefi")
    facts = Facts(sovereign=True)
    chef = 1
    h = ScoredHand.of(hand, facts)
    assert CLAUSES["artisan-chef"][1].points(h, chef) == 10  # Antonia's −10 only
    net = ScoredHand.of(hand, facts, Rulings(artisan_chef_per_clause=False))
    assert CLAUSES["artisan-chef"][1].points(net, chef) == 0  # Antonia nets +5
    sefi = ScoredHand.of(hand, facts, Rulings(artisan_chef_covers_sefi=True))
    assert CLAUSES["artisan-chef"][1].points(sefi, chef) == 10 + 15  # and Sefi's 3 Golds


def test_ruling_4_a_gray_scores_once_per_clause_unless_double_counting() -> None:
    spec: dict[str, Any] = {"extra": {"trigg": Color.ORANGE}}
    assert bonus("mess-hall-cook", "trigg", **spec) == 5
    assert bonus("mess-hall-cook", "trigg", rulings=Rulings(gray_double_count=True),
                 **spec) == 10
    spec = {"extra": {"trigg": Color.BLUE}}
    assert bonus("mustang", "trigg", **spec) == 10  # Gold + one of Gray/Blue
    assert bonus("mustang", "trigg", rulings=Rulings(gray_double_count=True), **spec) == 15


def test_ruling_5_only_with_and_a_grays_extra_color() -> None:
    spec: dict[str, Any] = {"extra": {"trigg": Color.PINK}}
    assert bonus("harmony", "trigg", **spec) == 33
    assert bonus("harmony", "trigg", rulings=Rulings(only_with_accepts_gray_extra=False),
                 **spec) == 0


def test_ruling_6_painter_compares_printed_colors() -> None:
    spec: dict[str, Any] = {"extra": {"trigg": Color.RED}}
    assert bonus("4d-painter", "trigg", "eo", **spec) == 31
    assert bonus("4d-painter", "trigg", "eo", rulings=Rulings(painter_printed_colors=False),
                 **spec) == 0


def test_ruling_7_codebreaker_reads_the_literal_first_character() -> None:
    # "The Jackal" starts with T, like Tactus; J otherwise, like Jopho.
    assert bonus("codebreaker", "the-jackal", "jopho") == 22
    assert bonus("codebreaker", "the-jackal", "tactus") == 0
    loose = Rulings(codebreaker_literal_first_character=False)
    assert bonus("codebreaker", "the-jackal", "jopho", rulings=loose) == 0
    assert bonus("codebreaker", "the-jackal", "tactus", rulings=loose) == 22


def test_ruling_8_developer_may_take_a_face_down_card() -> None:
    stacks = ((StackCard("quicksilver", face_down=True),), (StackCard("eo"),), (), ())
    table = Table(seats=(Seat("A", ("developer",)),), locations=stacks)
    assert score(table).players[0].cards_bonus == 40
    assert score(table, Rulings(developer_face_down=False)).players[0].cards_bonus == 10


def test_ruling_9_with_means_the_other_cards() -> None:
    assert bonus("conversationalist", "eo") == 0
    assert bonus("matteo") == 0
    assert bonus("matteo", rulings=Rulings(with_means_other_cards=False)) == 17


def test_ruling_10_hacker_sees_the_deck_as_earlier_players_left_it() -> None:
    table = Table(seats=(Seat("A", ("hypnotist", "eo")), Seat("B", ("hacker",))),
                  deck=("quicksilver", "dancer"))
    left, log = finale.resolve_all(table)
    assert left.seats[1].extra_points == 8  # Dancer: A's Hypnotist took Quicksilver
    assert "hacker_sees_deck_as_left=True decided it" in log[-1].label
    start, _ = finale.resolve_all(table, Rulings(hacker_sees_deck_as_left=False))
    assert start.seats[1].extra_points == 40


def test_the_output_names_the_setting_that_decided_a_score() -> None:
    p = score(Table(seats=(Seat("A", ("matteo",)),))).players[0]
    assert [(n.setting, n.value, n.difference) for n in p.rulings] == [
        ("with_means_other_cards", True, -17)]
    assert "with_means_other_cards=True" in p.rulings[0].text()


def test_declared_choice_is_kept_under_every_ruling() -> None:
    seat = Seat("A", ("trigg", "mess-hall-cook"), choices=(Choice("trigg", color=Color.RED),))
    p = score(Table(seats=(seat,)), Rulings(gray_double_count=True)).players[0]
    assert p.choices_json() == {"trigg": {"color": "red"}}


def test_notes_list_exactly_the_settings_that_change_a_total() -> None:
    """Scoring skips settings that cannot matter; flipping each one by hand agrees."""
    import random
    from dataclasses import replace

    from engine.cards import ALL_IDS

    rng = random.Random(5)
    special = ["matteo", "harmony", "trigg", "holiday", "artisan-chef", "sefi", "octavia",
               "antonia", "codebreaker", "the-jackal", "tactus", "developer", "researcher",
               "administrator", "mustang", "mess-hall-cook", "4d-painter", "eo"]
    for _ in range(12):
        pool = [c for c in ALL_IDS if c not in special]
        rng.shuffle(pool)
        picks = rng.sample(special, 8)
        seats = (Seat("A", tuple(picks[:4] + pool[:3]), influence=rng.randint(0, 5)),
                 Seat("B", tuple(picks[4:] + pool[3:6]), influence=rng.randint(0, 5)))
        stacks = ((StackCard(pool[6], face_down=True),), (StackCard(pool[7]),), (), ())
        table = Table(seats=seats, locations=stacks, neutral_influence=3,
                      banished=tuple(pool[8:14]), banished_before_finale=tuple(pool[8:10]))
        sheet = score(table)
        for i, player in enumerate(sheet.players):
            expected = []
            for name in setting_names():
                if name == "hacker_sees_deck_as_left":
                    continue
                flipped = replace(Rulings(), **{name: not getattr(Rulings(), name)})
                alt = score(table, flipped, notes=False).players[i].total
                if alt != player.total:
                    expected.append((name, player.total - alt))
            assert [(n.setting, n.difference) for n in player.rulings] == expected
