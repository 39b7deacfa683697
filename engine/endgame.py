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

from engine.board import House
from engine.draft import Draft
from engine.errors import IllegalActionError
from engine.state import GameState, Phase, Player
from engine.steps import Step
from engine.table import AutomaInfo, Seat, StackCard, Table


def finish_turn(draft: Draft, player: int) -> None:
    """Count the turn just played; fix the final turn count once the end is triggered."""
    turn = draft.turn
    if turn is None or turn.kind != "out-of-order":
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
        draft.push(Step("turn", apollo, data=("apollo-last",)))
        return
    draft.phase = Phase.FINALE
    draft.note("finale")


def finish(draft: Draft) -> None:
    """Leave the end-of-game flow once its decisions are all answered."""
    draft.phase = Phase.OVER
    draft.note("over")


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

    :raises IllegalActionError: while a hand still holds cards nobody has seen (in a
        tracked game, players lay their hands out for the camera first).
    """
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
    automa = getattr(state, "automa", None)
    if automa is None:
        return AutomaInfo()
    return AutomaInfo(level=int(automa.level), parity=str(automa.parity))
