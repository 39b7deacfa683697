"""Abilities aimed at hands: steals, forced banishes, random cards, and Au Toma's hand."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from abilities_support import (
    J,
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
    tracked,
    turn_of,
    values,
)

from engine.abilities.primitives import MULTIPLAYER_VARIANT, STEP_BY_STEP, Moved
from engine.board import House
from engine.cards import ALL_IDS
from engine.decisions import Kind
from engine.events import Block, Choose, Decline, SetLocation
from engine.game import Game
from engine.narration import line

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


def _asked(game: Game) -> tuple[Kind, int | None, str]:
    assert game.pending is not None
    return game.pending.kind, game.pending.player, game.pending.prompt


def _log(game: Game) -> list[str]:
    return [line(e, game.states[i], game.states[i + 1]) for i, e in enumerate(game.log)]


def test_tactus_and_roque_with_the_multiplayer_variant_spare_small_hands() -> None:
    """FAQ variant: Tactus and Roque, like Aja, may pick only an opponent holding more
    cards than they were dealt; the card is still deployed, its targeting does nothing."""
    for card in ("tactus", "roque"):
        game = table([[card], SPARE[:5], SPARE[5:11]], variants=[MULTIPLAYER_VARIANT])
        lead(game, card, M)
        assert values(game) == {"2", "decline"} if card == "tactus" else {"2"}
        spared = table([[card], SPARE[:5]], variants=[MULTIPLAYER_VARIANT])
        lead(spared, card, M)
        assert gain_is_next(spared) and stack(spared, M) == [card]


def test_tactus_and_roque_ask_whom_in_their_own_words() -> None:
    """Tactus: steal 1 card from an opponent. Roque: look at an opponent's hand."""
    tactus = table([["tactus"], ["lorn"], ["eo"]])
    lead(tactus, "tactus", M)
    assert _asked(tactus) == (Kind.CHOOSE, 0, "P1: steal a card from whom?")
    roque = table([["roque"], ["lorn"], ["eo"]])
    lead(roque, "roque", M)
    assert _asked(roque) == (Kind.CHOOSE, 0, "P1: look at whose hand?")
    aja = table([["aja"], ["lorn"], ["eo"]])
    lead(aja, "aja", M)
    assert _asked(aja) == (Kind.CHOOSE, 0, "P1: who banishes a card?")


def test_arlus_remembers_a_red_from_the_first_neighbor() -> None:
    """Arlus: if any card shown is a Red, banish Arlus, even when the other is not."""
    game = table([["arlus"], ["deanna"], ["martyr"], ["lawyer"]], rng=Picks("deanna", "lawyer"))
    lead(game, "arlus", M)
    assert game.state.banished == ("arlus",)
    assert _log(game)[-2:] == ["A card drawn at random", "A card drawn at random"]


def test_a_tracked_arlus_asks_which_card_each_neighbor_showed() -> None:
    """While tracking, the table says which card each neighbor showed (any card they may
    hold); it is then known to be in their hand."""
    game = tracked([["pelus"], ["virga"], ["orion"], ["the-pax"]])
    lead(game, "arlus", M)
    assert _asked(game) == (Kind.CONFIRM, 0, "Arlus: which card did P2 show?")
    assert Choose("deanna") in game.legal_actions() and Choose("pelus") not in game.legal_actions()
    play(game, Choose("deanna"))
    assert hand(game, 1) == ("deanna",)


def test_step_by_step_arlus_asks_for_au_tomas_bottom_card_with_its_true_name() -> None:
    """Solo rules: Au Toma shows her bottom card. Filmed step by step, the table is asked
    for it with its one true name."""
    game = solo(["arlus"], ["aja", "deanna"])
    game.states[-1] = replace(game.state, variants=frozenset({STEP_BY_STEP}))
    lead(game, "arlus", M)
    assert _asked(game) == (Kind.CONFIRM, 0, "Arlus: which card did Au Toma show?")
    assert game.pending is not None and game.pending.options == (Choose("aja"),)
    play(game, Choose("aja"))
    assert game.state.banished == ("aja",)


def test_roque_sees_the_whole_hand_of_a_player_with_more_than_six() -> None:
    """Only Au Toma's hand is cut to its top 6 (solo rules); a player's is seen whole."""
    seven = SPARE[:7]
    game = table([["roque"], seven], rng=Picks(seven[0]))
    lead(game, "roque", M)
    assert _asked(game) == (Kind.CHOOSE, 0, "Roque: name a card")
    assert values(game) == set(seven)
    play(game, Choose(seven[0]))
    assert game.state.banished == (seven[0], "roque")
    assert _log(game)[-1] == "A card drawn at random"


def test_roque_missing_au_toma_banishes_nothing_and_shuffles_all_the_cards_seen() -> None:
    """Solo rules: on a miss nothing is banished, and the looked-at cards (all of them,
    with 6 or fewer) are shuffled back on top, each new place drawn at random."""
    game = solo(["roque"], ["lorn", "deanna", "aja"], variant=True,
                rng=Picks("deanna", "aja", "deanna"))
    lead(game, "roque", M)
    play(game, Choose("lorn"))  # the random card is Deanna: a miss
    assert game.state.banished == () and stack(game, M) == ["roque"]
    assert hand(game, 1) == ("aja", "deanna", "lorn")


def test_a_tracked_roque_asks_which_named_card_was_picked_and_a_hit_banishes_both() -> None:
    """While tracking the table does it all and reports the outcome: the named card if
    it was picked (then it and Roque are banished), or no match."""
    game = tracked([["pelus"], ["virga"], ["orion"], ["the-pax"]])
    lead(game, "roque", M)
    assert _asked(game) == (
        Kind.CONFIRM, 0, "Roque: which named card was picked? (decline: no match)")
    assert Choose("lorn") in game.legal_actions() and Decline() in game.legal_actions()
    play(game, Choose("lorn"), Decline())  # P2 does not block
    assert "lorn" in game.state.banished
    play(game, Moved(source=M, card="roque"))
    assert game.state.banished[-1] == "roque"


def test_step_by_step_roque_reports_a_hit_as_the_table_would() -> None:
    """Filmed step by step, the outcome is asked with its one true answer: the named card
    when the random pick hit it, no match otherwise."""
    game = table([["roque"], ["lorn", "deanna"]], variants=[STEP_BY_STEP], rng=Picks("lorn"))
    lead(game, "roque", M)
    play(game, seat(1), Choose("lorn"))
    assert _asked(game) == (
        Kind.CONFIRM, 0, "Roque: which named card was picked? (decline: no match)")
    assert game.pending is not None and game.pending.options == (Choose("lorn"),)
    play(game, Choose("lorn"))
    assert game.state.banished == ("lorn",) and hand(game, 1) == ("deanna",)
    miss = table([["roque"], ["lorn", "deanna"]], variants=[STEP_BY_STEP], rng=Picks("deanna"))
    lead(miss, "roque", M)
    play(miss, seat(1), Choose("lorn"))
    assert miss.pending is not None and miss.pending.options == (Decline(),)


def test_hypnotist_goes_on_round_the_table_after_a_block() -> None:
    """Hypnotist: each player in turn banishes a card and gains the deck's top card; an
    opponent who blocks skips only their own swap."""
    game = table([["hypnotist", "eo"], ["lorn", "judge"], ["deanna"]], deck=["aja", "nero"])
    lead(game, "hypnotist", M)
    play(game, Block("judge"))
    assert game.state.banished == ("eo", "deanna")
    assert hand(game, 2) == ("nero",)


class _Seen(Picks):
    """Picks that also keeps what each random pick chose from."""

    def __init__(self, *answers: str) -> None:
        super().__init__(*answers)
        self.offered: list[set[object]] = []

    def choice(self, seq: Sequence[object]) -> object:  # type: ignore[override]
        self.offered.append({getattr(o, "value", None) for o in seq})
        return super().choice(seq)


def test_roques_random_pick_from_au_toma_is_one_of_her_top_six() -> None:
    """Solo rules: Roque looks at the top 6 of Au Toma's hand and picks one of those at
    random; the shuffle back is drawn at random too."""
    her = ["lorn", "deanna", "aja", "nero", "helga", "pelus", "virga", "sefi"]
    rng = _Seen("nero", "virga", "aja", "helga", "pelus", "deanna")
    game = solo(["roque"], her, variant=True, rng=rng)
    lead(game, "roque", M)
    play(game, Choose("nero"))
    assert rng.offered[0] == set(her[2:])
    assert _log(game)[-5:] == ["A card drawn at random"] * 5


def test_hypnotist_asks_its_player_and_hands_out_the_decks_last_card() -> None:
    """Hypnotist: each player banishes a card of their choice and gains the deck's top
    card, while the deck holds one."""
    game = table([["hypnotist", "eo", "lorn"], ["deanna"]])
    rest = game.state.deck or ()
    game.push(SetLocation(J, rest[1:]))  # one card left in the deck
    lead(game, "hypnotist", M)
    assert _asked(game) == (Kind.CHOOSE, 0, "P1: banish one of your cards")
    play(game, Choose("eo"))
    assert set(hand(game)) == {"lorn", rest[0]} and game.state.deck_count == 0
    assert game.state.banished == ("eo", "deanna")  # P2 still banishes, with nothing to gain


def _chances(game: Game) -> list[tuple[int | None, str]]:
    """Who was asked, and what, at each random pick of the game so far."""
    return [(s.pending.player, s.pending.prompt) for s in game.states
            if s.pending is not None and s.pending.kind is Kind.RANDOM]


def test_the_random_picks_are_chance_asked_in_each_cards_own_words() -> None:
    """Arlus: each neighbor reveals a random card from hand. Roque: randomly select a card
    from their hand; against Au Toma the looked-at cards go back shuffled (solo rules).
    Each draw is chance, nobody's choice, asked in the card's words."""
    arlus = table([["arlus"], ["judge"]], rng=Picks("judge"))
    lead(arlus, "arlus", M)
    assert _chances(arlus) == [(None, "Arlus: a random card from P2")]
    rng = Picks("nero", "virga", "aja", "helga", "pelus", "deanna")
    roque = solo(["roque"], ["lorn", "deanna", "aja", "nero", "helga", "pelus", "virga", "sefi"],
                 variant=True, rng=rng)
    lead(roque, "roque", M)
    play(roque, Choose("nero"))
    assert _chances(roque) == [(None, "Roque: a random card")] + [
        (None, "Roque: shuffle Au Toma's cards back")] * 4
