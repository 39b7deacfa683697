"""The rules of a turn, and :func:`apply`, the one function that folds an event in.

A turn is Lead (deploy a hand card → its deploy ability → gain a location's top card
and its bonus, or the deck's top card and a die roll) or Scout (turn over the deck's
top card, place it, take that location's bonus). Location bonuses come only from
these two; card effects, house abilities and die faces never give one.
"""

from __future__ import annotations

from functools import lru_cache

from engine import abilities, automa, cards, corrections, die, endgame, houses, setup  # noqa: F401
from engine.board import LOCATIONS, Location
from engine.decisions import Decision, Kind
from engine.draft import Draft
from engine.errors import IllegalActionError
from engine.events import (
    DRAW_FROM_DECK,
    GAIN_FROM,
    OBSERVATIONS,
    SCOUT,
    DrawFromDeck,
    Event,
    GainFrom,
    Lead,
    Place,
    Scout,
    Setup,
    leads,
)
from engine.events import lead as lead_event
from engine.handlers import ANSWERS, STEPS, answer, step
from engine.reveals import ask_place
from engine.state import ChangeKind, GameState, Phase, TurnContext, TurnKind
from engine.steps import Step
from engine.wording import event_text


def apply(state: GameState, event: Event) -> GameState:
    """The state after ``event``; the input state is never changed.

    :raises IllegalActionError: if the event breaks a rule (the state is unchanged).

    >>> from engine.setup import new_game
    >>> import random
    >>> s = apply(GameState(), new_game(["Ann", "Bo"], random.Random(1)))
    >>> s.phase.value, s.pending.kind.value, s.cards_in_play()
    ('playing', 'turn', 112)
    """
    draft = Draft(state)
    if isinstance(event, Setup):
        setup.start(draft, event)
    elif isinstance(event, OBSERVATIONS):
        corrections.observe(draft, event)
        _refresh(draft)
    else:
        _answer(draft, event)
    run(draft)
    return draft.freeze()


def _answer(draft: Draft, event: Event) -> None:
    pending = draft.pending
    # One of the engine's own option objects needs no checks: its card came from the table.
    if pending is None or not pending.offers(event):
        _check_answer(draft, pending, event)
    assert pending is not None
    draft.pending = None
    ANSWERS[pending.then.name](draft, pending.then, event)


def _check_answer(draft: Draft, pending: Decision | None, event: Event) -> None:
    """Raise unless ``event`` (from outside) names real cards and answers ``pending``."""
    card = getattr(event, "card", None)
    if card is not None:
        cards.check_id(card)
    if pending is None:
        raise IllegalActionError(f"{event_text(event)}: nothing is being asked", rule="no-decision")
    if not pending.accepts(event):
        raise IllegalActionError(_why_not(draft, event) or (
            f"{event_text(event)} is not a legal answer to: {pending.prompt}"
        ), rule=_rule_of(draft, event))


def _refresh(draft: Draft) -> None:
    """Re-ask an open question whose options a correction may have changed."""
    pending = draft.pending
    if pending is not None and pending.refresh is not None:
        draft.pending = None
        draft.push(pending.refresh)


def run(draft: Draft) -> None:
    """Run scheduled steps until a decision is pending or the game is over."""
    while draft.pending is None:
        if draft.stack:
            next_step = draft.stack.pop()
            STEPS[next_step.name](draft, next_step)
        elif draft.phase is Phase.PLAYING:
            endgame.next_turn(draft)
        elif draft.phase is Phase.FINALE:
            endgame.finish(draft)
        else:
            return


# --- the turn ----------------------------------------------------------------------


@step("turn")
def begin_turn(draft: Draft, s: Step) -> None:
    """Start a player's turn: Lead or Scout (Au Toma runs her own procedure)."""
    draft.current = s.player
    draft.turn = turn_context(s.player, None, s.data[0] if s.data else TurnKind.NORMAL)
    draft.note(ChangeKind.TURN, player=s.player)
    if draft.players[s.player].automa:
        draft.push(s.then("automa-turn"))
    else:
        ask_lead_or_scout(draft, s.then("turn-options"))


@step("turn-options")
def ask_lead_or_scout(draft: Draft, s: Step) -> None:
    """The TURN decision (also re-asked after a correction: it changes nothing else)."""
    name = draft.players[s.player].name
    draft.ask(s.player, Kind.TURN, f"{name}: Lead or Scout?", turn_options(draft, s.player),
              s.then("turn-answer"), refresh=s)


def turn_options(draft: Draft, player: int) -> list[Event]:
    """Every legal Lead (card × location) and Scout for the player."""
    hand = draft.hand(player)
    options: list[Event] = []
    if hand.size == 0:
        options.append(lead_event(None, None))  # an empty hand skips the deploy
    for card in dict.fromkeys(hand.known):
        options.extend(leads(card))
    if hand.unknown:
        options.extend(leads(None))  # the camera will name the card
    if draft.deck_count > 0:
        options.append(SCOUT)
    return options


@answer("turn-answer")
def on_turn(draft: Draft, s: Step, action: Event) -> None:
    if isinstance(action, Scout):
        draft.reveal_from_deck()
        ask_place(draft, s.then("scout-place"), "Scout: place the turned-over card")
    elif isinstance(action, Lead):
        lead(draft, s, action)


def lead(draft: Draft, s: Step, action: Lead) -> None:
    """Deploy (unless the hand is empty), then the ability, the gain step, the end."""
    p = s.player
    if action.location is not None and action.card is None:
        raise IllegalActionError("name the card that was deployed", rule="deploy")
    draft.push(Step("gain", p), Step("end-turn", p))
    if action.location is not None and action.card is not None:
        draft.deploy(p, action.card, action.location)
        assert draft.turn is not None
        draft.turn = turn_context(p, action.location, draft.turn.kind)
        draft.push(Step("deploy-ability", p, action.card, action.location))  # runs first


@lru_cache(maxsize=256)
def turn_context(player: int, deployed_to: Location | None, kind: TurnKind) -> TurnContext:
    """The shared context of a turn's start or of its deploy (nothing else set yet).

    Contexts are immutable values, like the events decisions offer, so one per seat,
    location and kind serves every turn instead of a new one twice a turn.
    """
    return TurnContext(player, deployed_to, kind=kind)


@answer("scout-place")
def on_scout_place(draft: Draft, s: Step, action: Event) -> None:
    assert isinstance(action, Place)
    draft.place_revealed(action.location, action.card)
    draft.push(Step("bonus", s.player, location=action.location), Step("end-turn", s.player))


@step("deploy-ability")
def deploy_ability(draft: Draft, s: Step) -> None:
    """Resolve the deployed card's ability, if it has one and it can be resolved."""
    ability = abilities.DEPLOY.get(s.card or "")
    if ability is not None:
        ability(draft, s)


@step("gain")
def gain(draft: Draft, s: Step) -> None:
    """Lead's gain step: a location not deployed to this turn, or the deck and a roll.

    Loan Shark's borrower may not gain Loan Shark during the borrowed turn.
    """
    turn = draft.turn
    if turn is None or turn.end_requested:
        return
    barred = abilities.LOAN_SHARK if turn.kind is TurnKind.OUT_OF_ORDER else None
    options: list[Event] = [
        GAIN_FROM[loc] for loc in LOCATIONS
        if loc is not turn.deployed_to and loc not in turn.also_deployed_to
        and (top := draft.top(loc)) is not None and (barred is None or top.card != barred)
    ]
    if draft.deck_count > 0:
        options.append(DRAW_FROM_DECK)
    if options:
        name = draft.players[s.player].name
        draft.ask(s.player, Kind.GAIN, f"{name}: gain a card", options, s.then("gain-answer"),
                  refresh=s)


@answer("gain-answer")
def on_gain(draft: Draft, s: Step, action: Event) -> None:
    if isinstance(action, GainFrom):
        draft.gain_from(s.player, action.location)
        draft.push(Step("bonus", s.player, location=action.location))
    else:
        draft.draw(s.player)
        draft.push(Step("roll", s.player))


@step("bonus")
def bonus(draft: Draft, s: Step) -> None:
    """Collect the bonus of ``s.location`` (only ever scheduled by Lead or Scout)."""
    assert s.location is not None
    draft.gain_bonus(s.player, s.location.bonus)


@step("end-turn")
def end_turn(draft: Draft, s: Step) -> None:
    endgame.finish_turn(draft, s.player)


# --- clear messages for the commonest illegal answers --------------------------------


def _why_not(draft: Draft, event: Event) -> str | None:
    turn = draft.turn
    if isinstance(event, GainFrom):
        if turn is not None and event.location is turn.deployed_to:
            return f"cannot gain from {event.location.label}: you deployed there this turn"
        if not draft.stack_at(event.location):
            return f"cannot gain from {event.location.label}: it has no cards"
    pending = draft.pending
    if isinstance(event, Lead) and event.card and pending and pending.kind is Kind.TURN:
        player = pending.player or 0
        if not draft.may_hold(player, event.card):
            return f"{draft.players[player].name} is known not to hold {event.card}"
    if isinstance(event, (Scout, DrawFromDeck)) and draft.deck_count == 0:
        return "the deck is empty"
    return None


def _rule_of(draft: Draft, event: Event) -> str:
    if isinstance(event, GainFrom):
        return "gain-from-other-location"
    if isinstance(event, Lead):
        return "deploy-from-hand"
    if isinstance(event, (Scout, DrawFromDeck)):
        return "empty-deck"
    return draft.pending.kind.value if draft.pending else "decision"

