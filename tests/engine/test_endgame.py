"""The end-game trigger, the final round and Apollo's extra last turn."""

from __future__ import annotations

from dataclasses import replace

import pytest
from positions import I, J, L, M, position

from engine.board import House
from engine.decisions import Decision, Kind
from engine.draft import Draft
from engine.endgame import (
    _ask_random_pick,
    _next_unseen_hand,
    final_table,
    finale_step,
    hand_wanted,
    on_finale_answer,
    on_hand,
    turns_left,
)
from engine.errors import IllegalActionError
from engine.events import Choose, Event, GainFrom, Lead, Resolve, RevealHand, SetTokens
from engine.game import Game
from engine.rules import apply
from engine.scoring import score
from engine.state import GameState, Hand, Phase, Player, Slot
from engine.steps import Step
from engine.table import AutomaInfo, Seat, StackCard

HANDS = [
    ["pax-au-telemanus", "the-howlers", "eo"],
    ["justice", "lorn", "aja"],
    ["judge", "trigg", "holiday"],
    ["martyr", "pelus", "orion"],
]
STACKS = [["quietus", "invictus"], ["morning-star", "the-pax", "ragnar", "sefi"],
          ["helga", "stained"], ["lawyer", "politician", "timony", "diplomat"]]
HOUSES = [House.APOLLO, House.MARS, House.DIANA, House.JUPITER]


def lead_and_gain(game: Game, card: str, gain: object = M) -> None:
    game.play(Lead(card, J if gain is not J else L))
    game.play(GainFrom(gain))  # type: ignore[arg-type]


def rulebook_table() -> Game:
    """A (Apollo, first), B, C, D clockwise; B is one Helium short of two conditions."""
    game = position(HANDS, STACKS, houses=HOUSES)
    game.push(SetTokens(1, 6, 0, 7))
    return game


def test_rulebook_example_b_triggers_c_and_d_play_then_apollo_plays_last() -> None:
    game = rulebook_table()
    lead_and_gain(game, "pax-au-telemanus", I)  # A
    assert game.state.trigger is None
    lead_and_gain(game, "justice", M)  # B reaches 7 Helium with Fleet 7
    trigger = game.state.trigger
    assert trigger is not None and (trigger.player, trigger.turn) == (1, 1)
    assert trigger.conditions == ("fleet", "helium")
    assert turns_left(game.state) == {0: 1, 1: 0, 2: 1, 3: 1}
    lead_and_gain(game, "judge", I)  # C
    lead_and_gain(game, "martyr", I)  # D
    assert game.state.current == 0 and game.state.phase is Phase.PLAYING
    assert turns_left(game.state) == {0: 1, 1: 0, 2: 0, 3: 0}
    assert game.state.turn is not None and game.state.turn.kind == "apollo-last"
    lead_and_gain(game, "the-howlers", I)  # A's extra, last turn
    assert game.state.phase is Phase.OVER
    assert [p.turns for p in game.state.players] == [2, 1, 1, 1]
    assert [c.kind for c in game.state.changes][-1] == "over"


def test_turns_left_counts_the_triggering_turn_while_it_is_still_played() -> None:
    hands = [["deanna", "eo"], ["lorn"], ["judge"], ["martyr"]]
    apollo = position(hands, STACKS, houses=HOUSES, tokens={0: (6, 0, 7)})
    apollo.play(Lead("deanna", J))  # +1 Helium: A triggers before the gain step
    assert apollo.state.trigger is not None and apollo.state.final_turns is None
    assert turns_left(apollo.state) == {0: 2, 1: 1, 2: 1, 3: 1}  # and Apollo's extra one
    others = [House.MINERVA, House.MARS, House.DIANA, House.JUPITER]
    plain = position(hands, STACKS, houses=others, tokens={0: (6, 0, 7)})
    assert turns_left(plain.state) == {}
    plain.play(Lead("deanna", J))
    assert turns_left(plain.state) == {0: 1, 1: 1, 2: 1, 3: 1}  # no extra turn for anyone


def test_when_apollo_triggers_everyone_else_plays_once_more_then_apollo() -> None:
    game = position(HANDS, STACKS, houses=HOUSES)
    game.push(SetTokens(0, 6, 0, 7))
    lead_and_gain(game, "pax-au-telemanus", M)  # A triggers
    assert game.state.trigger.player == 0
    for card in ("justice", "judge", "martyr"):
        lead_and_gain(game, card, I)
    assert game.state.current == 0 and game.state.phase is Phase.PLAYING
    lead_and_gain(game, "the-howlers", I)
    assert game.state.phase is Phase.OVER
    assert [p.turns for p in game.state.players] == [2, 1, 1, 1]


def test_without_apollo_the_game_ends_when_turns_are_equal() -> None:
    game = position(HANDS, STACKS, houses=[House.MINERVA, House.MARS, House.DIANA,
                                           House.JUPITER])
    game.push(SetTokens(3, 6, 0, 7))
    for card in ("pax-au-telemanus", "justice", "judge"):
        lead_and_gain(game, card, I)
    lead_and_gain(game, "martyr", M)  # the last seat triggers: the round is complete
    assert game.state.phase is Phase.OVER
    assert [p.turns for p in game.state.players] == [1, 1, 1, 1]


def loan_shark_in_the_final_round(borrower: str) -> Game:
    """P1 has triggered and played its last turn; P2 lends to ``borrower``, who borrows."""
    game = position([["pax-au-telemanus", "the-howlers"], ["loan-shark", "lorn"],
                     ["martyr", "pelus"]], STACKS, tokens={0: (6, 0, 7), 2: (3, 0, 0)})
    lead_and_gain(game, "pax-au-telemanus", M)  # P1 triggers: one turn each is the target
    assert game.state.final_turns == 1
    game.play(Lead("loan-shark", J))
    game.play(Choose(borrower))
    game.play(Choose("turn"))  # pays 2 Helium for a turn right away
    assert game.state.current == int(borrower) and game.state.turn.kind == "out-of-order"
    return game


def test_a_turn_borrowed_from_loan_shark_in_the_final_round_is_not_one_of_the_turns() -> None:
    # Loan Shark: "take 1 turn out of order ... before you finish your turn"; the game goes
    # on "until every player has had the same number of turns" (rulebook, game end).
    early = loan_shark_in_the_final_round("0")  # P1 has had its turn already
    lead_and_gain(early, "the-howlers", I)  # borrowed, then P2's turn resumes at its gain
    early.play(GainFrom(M))
    assert early.state.current == 2 and early.state.pending.kind is Kind.TURN  # P3, not P1
    assert [p.turns for p in early.state.players] == [1, 1, 0]
    lead_and_gain(early, "martyr", I)
    assert early.state.phase is Phase.OVER  # "every turn is played" is narrated, then the end
    assert [c.kind for c in early.state.changes][-2:] == ["finale", "over"]
    assert early.state.turn is None  # no turn is in progress once every turn is played
    assert [p.turns for p in early.state.players] == [1, 1, 1]
    late = loan_shark_in_the_final_round("2")  # P3 borrows before its own turn
    lead_and_gain(late, "martyr", I)
    late.play(GainFrom(M))
    assert late.state.current == 2 and late.state.pending.kind is Kind.TURN  # its own turn still
    lead_and_gain(late, "pelus", I)
    assert late.state.phase is Phase.OVER
    assert [p.turns for p in late.state.players] == [1, 1, 1]


def test_three_conditions_across_players_trigger() -> None:
    game = position(HANDS, STACKS, houses=HOUSES)
    game.push(SetTokens(0, 7, 0, 0))
    game.push(SetTokens(2, 0, 0, 7))
    assert game.state.trigger is None
    game.push(SetTokens(3, 0, 6, 0))
    lead_and_gain(game, "pax-au-telemanus", I)  # A places D's... no: A's own 1st Influence
    assert game.state.trigger is None  # A has 1 Influence; D still 6
    lead_and_gain(game, "justice", I)
    assert game.state.trigger is None
    lead_and_gain(game, "judge", M)
    lead_and_gain(game, "martyr", I)  # D reaches 7 Influence: all three are met
    trigger = game.state.trigger
    assert trigger is not None and trigger.player == 3
    assert trigger.conditions == ("fleet", "helium", "influence")


def test_one_condition_each_by_two_players_does_not_trigger() -> None:
    game = position(HANDS, STACKS, houses=HOUSES)
    game.push(SetTokens(0, 9, 0, 0))
    game.push(SetTokens(1, 0, 0, 9))
    assert game.state.trigger is None


def test_the_neutral_house_never_meets_a_condition() -> None:
    game = position([["pax-au-telemanus"], ["justice"]], [["pelus"], ["martyr"], [], []])
    assert game.state.neutral_influence == 3
    game.push(SetTokens(0, 7, 0, 0))
    game.push(SetTokens(1, 0, 0, 7))
    assert game.state.trigger is None


def test_the_trigger_is_checked_after_every_change() -> None:
    game = position(HANDS, STACKS, houses=HOUSES)
    game.push(SetTokens(0, 7, 6, 0))
    game.play(Lead("pax-au-telemanus", J))
    game.play(GainFrom(I))
    assert game.state.trigger is not None and game.state.trigger.conditions == (
        "helium", "influence")


def finished_game(hands: list[list[str]], houses: list[House]) -> Game:
    """Two seats; P1 triggers at once and P2's turn ends the game."""
    game = position(hands, [["quietus"], ["morning-star", "the-pax"], ["helga"], ["lawyer"]],
                    houses=houses)
    game.push(SetTokens(0, 6, 0, 7))
    lead_and_gain(game, hands[0][0], M)
    lead_and_gain(game, hands[1][0], I)
    return game


def test_end_of_game_abilities_are_decisions_best_option_first() -> None:
    game = finished_game([["pax-au-telemanus", "auctioneer"], ["justice", "lorn"]],
                         [House.MARS, House.DIANA])
    state = game.state
    assert state.phase is Phase.FINALE
    decision = state.pending
    assert decision.player == 0 and "Auctioneer" in decision.prompt
    assert decision.options[0] == Resolve(0)
    game.play(decision.options[0])
    assert game.state.phase is Phase.OVER
    assert game.state.finale is not None and game.state.finale.log


def test_ceres_banishes_from_hand_after_every_other_ability() -> None:
    game = finished_game([["pax-au-telemanus", "eo", "the-howlers"], ["justice", "auctioneer"]],
                         [House.CERES, House.DIANA])
    assert "Auctioneer" in game.state.pending.prompt  # P2's ability comes first
    game.play(game.state.pending.options[0])
    assert "Ceres" in game.state.pending.prompt and game.state.pending.player == 0
    game.play(game.state.pending.options[0])
    assert game.state.phase is Phase.OVER
    table = final_table(game.state)
    assert len(table.seats[0].hand) == len(game.state.players[0].hand.known) - 1


def test_scores_come_from_the_table_the_finale_left() -> None:
    game = finished_game([["pax-au-telemanus", "auctioneer"], ["justice", "lorn"]],
                         [House.MARS, House.DIANA])
    before = game.state.players[0]
    game.play(game.legal_actions()[0])
    after = final_table(game.state).seats[0]
    gained = (after.helium - before.helium) + (after.influence - before.influence) + (
        after.fleet - before.fleet)
    assert gained == 1  # the Auctioneer's one bonus
    sheet = score(final_table(game.state))
    assert sheet.players[0].helium == 3 * after.helium



def test_final_table_carries_every_fact_scoring_reads() -> None:
    players = (Player("Ann", House.MARS, helium=3, influence=4, fleet=5, hand=Hand(("eo",))),
               Player("Bo", House.DIANA, helium=1, influence=2, fleet=6,
                      hand=Hand(("lorn", "judge"))),
               Player("Au Toma", None, helium=2, influence=1, fleet=3, automa=True,
                      hand=Hand(("aja",))))
    state = GameState(players=players, locations=(
        (Slot("sefi"), Slot("sevro", face_down=True)), (), (Slot("nero"),), ()),
        banished=("pelus",), sovereign=1, first_player=1, neutral_influence=3,
        deck=("virga",), deck_count=1)
    table = final_table(state)
    assert table.seats == (
        Seat("Ann", ("eo",), helium=3, influence=4, fleet=5, house=House.MARS),
        Seat("Bo", ("lorn", "judge"), helium=1, influence=2, fleet=6, sovereign=True,
             house=House.DIANA),
        Seat("Au Toma", ("aja",), helium=2, influence=1, fleet=3, automa=AutomaInfo()))
    assert table.locations == ((StackCard("sefi"), StackCard("sevro", face_down=True)), (),
                               (StackCard("nero"),), ())
    assert (table.banished, table.neutral_influence, table.first_player, table.deck) == (
        ("pelus",), 3, 1, ("virga",))


def test_scoring_waits_for_unseen_hands_first_player_first() -> None:
    ann, bo, cy = (Player(n, hand=Hand(unknown=k)) for n, k in (("Ann", 2), ("Bo", 0),
                                                                  ("Cy", 1)))
    state = GameState(players=(ann, bo, cy), first_player=1)
    with pytest.raises(IllegalActionError) as raised:
        final_table(state)
    assert str(raised.value) == "Ann's hand holds 2 unidentified cards [scoring-needs-hands]"
    assert raised.value.rule == "scoring-needs-hands"
    assert _next_unseen_hand(Draft(state)) == 2  # clockwise from Bo: Cy before Ann


def test_hand_wanted_names_the_seat_whose_hand_the_game_waits_for() -> None:
    def asking(*options: Event) -> GameState:
        return GameState(pending=Decision(Kind.CONFIRM, 2, "lay it out", options,
                                          Step("finale-hand", 2)))

    assert hand_wanted(asking(RevealHand(2))) == 2
    assert hand_wanted(asking(Resolve(0), RevealHand(2))) is None  # not a hand: another ask
    assert hand_wanted(asking()) is None and hand_wanted(GameState()) is None


def test_a_laid_out_hand_must_match_what_is_known_of_it() -> None:
    state = GameState(players=(Player("Ann", hand=Hand(("eo",), unknown=1)),),
                      phase=Phase.FINALE)
    with pytest.raises(IllegalActionError) as short:
        on_hand(Draft(state), Step("finale-hand", 0), RevealHand(0, ("eo",)))
    assert (str(short.value), short.value.rule) == (
        "Ann holds 2 cards, not 1 [reveal-hand]", "reveal-hand")
    with pytest.raises(IllegalActionError) as wrong:
        on_hand(Draft(state), Step("finale-hand", 0), RevealHand(0, ("lorn", "aja")))
    assert (str(wrong.value), wrong.value.rule) == (
        "eo is known to be in that hand [reveal-hand]", "reveal-hand")


def test_a_random_banished_card_is_chance_in_a_simulation_and_observed_at_a_table() -> None:
    for deck, asked in (((), None), (None, 1)):
        draft = Draft(GameState(players=(Player("Ann"), Player("Bo")), deck=deck))
        _ask_random_pick(draft, Step("finale-answer", 1), Resolve(0), ["lorn", "aja"])
        pending = draft.pending
        assert pending is not None and (pending.kind, pending.player) == (Kind.RANDOM, asked)
        assert pending.prompt == "Draw a random banished card"
        assert pending.options == (Resolve(0, picked="lorn"), Resolve(0, picked="aja"))


def test_a_tracked_finale_asks_for_hands_then_names_the_deck_cards_an_ability_turns() -> None:
    state = GameState(players=(Player("Ann", hand=Hand(("eo",), unknown=1)),
                               Player("Bo", hand=Hand(("hacker",)))),
                      phase=Phase.FINALE, deck=None, deck_count=4, total_cards=8,
                      banished=("pelus",))
    draft = Draft(state)
    finale_step(draft, Step("finale", 0))
    asked = draft.freeze()
    assert asked.pending == Decision(Kind.CONFIRM, 0, "Ann: lay your hand face up for the camera",
                                     (RevealHand(0),), Step("finale-hand", 0))
    laid = apply(asked, RevealHand(0, ("eo", "lorn")))
    assert laid.players[0].hand == Hand(("eo", "lorn"))
    assert (laid.pending.kind, laid.pending.player) == (Kind.CHOOSE, 1)  # Bo's Hacker
    with pytest.raises(IllegalActionError) as unnamed:
        apply(laid, Resolve(0))
    assert str(unnamed.value) == "name the cards turned over from the deck [end-of-game]"
    with pytest.raises(IllegalActionError) as elsewhere:
        apply(laid, Resolve(0, revealed=("eo",)))  # it lies in Ann's hand
    assert str(elsewhere.value) == "eo is not in the deck: the table shows it elsewhere [one-copy]"
    with pytest.raises(IllegalActionError) as banished:
        apply(laid, Resolve(0, revealed=("pelus",)))  # it lies on the banished pile
    assert str(banished.value) == (
        "pelus is not in the deck: the table shows it elsewhere [one-copy]")
    done = apply(laid, Resolve(0, revealed=("aja",)))
    assert done.phase is Phase.OVER
    assert [(c.kind, c.player, c.card) for c in done.changes] == [
        ("end-of-game", 1, "hacker"), ("over", None, None)]


def test_an_end_of_game_ability_answered_twice_is_refused_in_one_line() -> None:
    # Scoring step 1: each player resolves each end-of-game ability once; a second answer
    # to the same question (a stale page, a repeated button) must change nothing.
    game = finished_game([["pax-au-telemanus", "auctioneer"], ["justice", "lorn"]],
                         [House.MARS, House.DIANA])
    asked = game.state.pending
    done = game.play(asked.options[0])
    draft = Draft(done)
    with pytest.raises(IllegalActionError) as again:
        on_finale_answer(draft, asked.then, asked.options[0])
    assert (str(again.value), again.value.rule) == (
        "auctioneer of seat 0 is not waiting now [end-of-game]", "end-of-game")
    # The table the ability left, with no note of another use and nothing scheduled.
    assert draft.freeze() == replace(done, changes=())
