"""Turn order and the end of the game.

The end is triggered when all three conditions (7+ Helium, 7+ Influence placed,
Fleet 7+) are met across the players, or one player alone meets two (checked after
every token change, see :meth:`engine.draft.Draft.check_trigger`). Play goes on until
everyone has taken the same number of turns; then House Apollo takes one extra, last
turn. The rulebook's example: A (Apollo, first), B, C, D; B triggers; C and D play;
A plays the last turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from engine import cards, finale
from engine.board import House
from engine.decisions import Kind
from engine.draft import Draft
from engine.errors import IllegalActionError
from engine.events import Event, Resolve, RevealHand
from engine.handlers import answer, step
from engine.state import ChangeKind, GameState, Phase, Player, TurnKind
from engine.steps import Step
from engine.table import AutomaInfo, Seat, StackCard, Table


def finish_turn(draft: Draft, player: int) -> None:
    """Count the turn just played; fix the final turn count once the end is triggered."""
    turn = draft.turn
    if turn is None or turn.kind is not TurnKind.OUT_OF_ORDER:
        draft.set_turns(player, draft.players[player].turns + 1)
    if draft.trigger is not None and draft.final_turns is None:
        draft.final_turns = max(p.turns for p in draft.players)
    draft.turn = None


def next_turn(draft: Draft) -> None:
    """Start the next player's turn, Apollo's extra last turn, or the end of the game."""
    n = len(draft.players)
    if draft.final_turns is None:
        draft.push(Step("turn", (draft.current + 1) % n))
        return
    for k in range(1, n + 1):
        seat = (draft.current + k) % n
        if draft.players[seat].turns < draft.final_turns:
            draft.push(Step("turn", seat))
            return
    apollo = apollo_seat(draft.players)
    if apollo is not None and draft.players[apollo].turns == draft.final_turns:
        draft.push(Step("turn", apollo, data=(TurnKind.APOLLO_LAST,)))
        return
    draft.phase = Phase.FINALE
    draft.note(ChangeKind.FINALE)
    draft.push(Step("finale", draft.first_player))


def finish(draft: Draft) -> None:
    """Leave the end-of-game flow once its decisions are all answered."""
    draft.phase = Phase.OVER
    draft.note(ChangeKind.OVER)


# --- scoring step 1: hands laid out, end-of-game abilities, Ceres' banish --------------


@step("finale")
def finale_step(draft: Draft, s: Step) -> None:
    """Ask for the next unseen hand, then each end-of-game ability in the scorepad's order."""
    unseen = _next_unseen_hand(draft)
    if unseen is not None:
        name = draft.players[unseen].name
        draft.ask(unseen, Kind.CONFIRM, f"{name}: lay your hand face up for the camera",
                  (RevealHand(unseen, None),), Step("finale-hand", unseen))
        return
    if draft.finale is None:
        draft.finale = finale.begin(final_table(draft.freeze()))
    decision = finale.decision(draft.finale)
    if decision is None:
        return  # the run loop ends the game
    # An ability that reads an unknown deck takes the cards the table turned over in
    # the answer's ``revealed`` (the option leaves it open); others ignore it.
    # The ranked options travel with the question: ranking them scores the table once
    # per option, so it is done once.
    options = [Resolve(i) for i in range(len(decision.options))]
    draft.ask(decision.seat, Kind.CHOOSE, decision.prompt, options,
              Step("finale-answer", decision.seat, data=decision.options))


def hand_wanted(state: GameState) -> int | None:
    """The seat whose hand the game waits to see laid face up, or None."""
    pending = state.pending
    if pending is None or not pending.options:
        return None
    option = pending.options[0]
    return option.player if isinstance(option, RevealHand) else None


def _next_unseen_hand(draft: Draft) -> int | None:
    n = len(draft.players)
    for k in range(n):
        seat = (draft.first_player + k) % n
        if draft.players[seat].hand.unknown:
            return seat
    return None


@answer("finale-hand")
def on_hand(draft: Draft, s: Step, event: Event) -> None:
    """Every card of the hand is now known (the camera saw them; the player confirmed)."""
    assert isinstance(event, RevealHand)
    hand = draft.players[s.player].hand
    shown = list(event.cards or ())
    if len(shown) != hand.size:
        raise IllegalActionError(
            f"{draft.players[s.player].name} holds {hand.size} cards, not {len(shown)}",
            rule="reveal-hand")
    for card in hand.known:
        if card not in shown:
            raise IllegalActionError(f"{card} is known to be in that hand", rule="reveal-hand")
        shown.remove(card)
    for card in shown:
        draft.take_from_hand(s.player, card)  # one unknown card becomes this one
        draft.add_to_hand(s.player, card)
    draft.push(Step("finale", s.player))


@answer("finale-answer")
def on_finale_answer(draft: Draft, s: Step, event: Event) -> None:
    assert isinstance(event, Resolve) and draft.finale is not None
    option: finale.Option = s.data[event.index]
    if option.needs_reveal:
        if event.revealed is None:
            raise IllegalActionError("name the cards turned over from the deck",
                                     rule="end-of-game")
        _check_revealed(draft.finale.table, event.revealed)
        option = option.with_revealed(event.revealed)
    if option.random_pick and not option.gain:
        if event.picked is None:
            _ask_random_pick(draft, s, event, sorted(draft.finale.table.banished))
            return
        option = replace(option, gain=(event.picked,))
    try:
        draft.finale = finale.resolve(draft.finale, option)
    except finale.FinaleError as exc:
        raise IllegalActionError(str(exc), rule="end-of-game") from exc
    draft.note(ChangeKind.END_OF_GAME, player=s.player, card=option.ability)
    draft.push(Step("finale", s.player))


def _check_revealed(table: Table, revealed: Sequence[str]) -> None:
    """Cards the table says came off the deck: real ones, and none seen anywhere else.

    :raises IllegalActionError: naming the first card that cannot have been in the deck.
    """
    seen = {c for seat in table.seats for c in seat.hand} | set(table.banished) | {
        sc.card for stack in table.locations for sc in stack}
    for card in revealed:
        if cards.check_id(card) in seen:
            raise IllegalActionError(f"{card} is not in the deck: the table shows it elsewhere",
                                     rule="one-copy")


def _ask_random_pick(draft: Draft, s: Step, event: Resolve, pile: list[str]) -> None:
    """A random banished card (Psychologist): chance in simulation, observed at a table."""
    options = [replace(event, picked=card) for card in pile]
    player = s.player if draft.hidden else None
    draft.ask(player, Kind.RANDOM, "Draw a random banished card", options, s)


def apollo_seat(players: Sequence[Player]) -> int | None:
    return next(
        (i for i, p in enumerate(players) if p.house is House.APOLLO), None
    )


def turns_left(state: GameState) -> dict[int, int]:
    """After the trigger: the turns each player still plays, counting one in progress.

    Apollo's extra last turn is included.

    >>> turns_left(GameState())
    {}
    """
    trigger = state.trigger
    if trigger is None:
        return {}
    target = state.final_turns
    if target is None:  # the triggering turn is still being played
        target = state.players[trigger.player].turns + 1
    left = {i: max(0, target - p.turns) for i, p in enumerate(state.players)}
    apollo = apollo_seat(state.players)
    if apollo is not None and state.players[apollo].turns <= target:
        left[apollo] += 1
    return left


def final_table(state: GameState) -> Table:
    """The table as scoring sees it: every hand must be fully identified.

    Once the end-of-game abilities have begun, it is the table they left behind.

    :raises IllegalActionError: while a hand still holds cards nobody has seen (in a
        tracked game, players lay their hands out for the camera first).
    """
    if state.finale is not None:
        return state.finale.table
    for player in state.players:
        if player.hand.unknown:
            raise IllegalActionError(
                f"{player.name}'s hand holds {player.hand.unknown} unidentified cards",
                rule="scoring-needs-hands")
    seats = tuple(
        Seat(
            name=p.name,
            hand=p.hand.known,
            helium=p.helium,
            influence=p.influence,
            fleet=p.fleet,
            sovereign=state.sovereign == i,
            house=p.house,
            automa=automa_info(state) if p.automa else None,
        )
        for i, p in enumerate(state.players)
    )
    return Table(
        seats=seats,
        locations=tuple(
            tuple(StackCard(slot.card, slot.face_down) for slot in stack)
            for stack in state.locations
        ),
        banished=state.banished,
        neutral_influence=state.neutral_influence,
        first_player=state.first_player,
        deck=state.deck,
    )


def automa_info(state: GameState) -> AutomaInfo:
    """Au Toma's level and odd/even card, for scoring."""
    if state.automa is None:
        return AutomaInfo()
    return AutomaInfo(level=state.automa.level, parity=state.automa.parity)
