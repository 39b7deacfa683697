"""Abilities aimed at hands: steals, forced banishes, random cards shown from a hand.

Blocks are not handled here: :mod:`engine.abilities.blocks` opens the window inside
``steal``, ``force_banish`` and ``banish_from_hand``. With the official multiplayer
variant, Aja, Antonia, Arlus, Roque and Tactus (and Karnus, in banishes) may only target
a player holding more cards than they were dealt.
"""

from __future__ import annotations

from dataclasses import replace

from engine.abilities.blocks import banish_from_hand, force_banish, steal
from engine.abilities.primitives import (
    COLOR,
    DECLINE,
    SEAT,
    asks_as_tracked,
    banish_self,
    bottom_of_hand,
    chosen_card,
    chosen_seat,
    decide,
    hand_cards,
    seat_choice,
    show,
    targets,
    with_data,
)
from engine.abilities.registry import deploy
from engine.cards import Color
from engine.decisions import Kind
from engine.draft import Draft
from engine.events import Choose, Event, choose
from engine.handlers import answer, step
from engine.state import Hand
from engine.steps import Step

ROQUE_LOOKS = 6  # against Au Toma: the top 6 cards of her hand (the solo variant's Roque)


# --- Aja, Antonia ------------------------------------------------------------------------


def _opponent_banishes(draft: Draft, s: Step) -> None:
    seats = targets(draft, s.player, variant_card=True)
    if seats:
        seat_choice(draft, s, "who banishes a card?", seats, s.then("opponent-banishes"))
    else:
        banish_self(draft, s)


@answer("opponent-banishes")
def _on_opponent(draft: Draft, s: Step, event: Event) -> None:
    after = with_data(s, "ability-banish-self")
    force_banish(draft, chosen_seat(event), after, after)  # "then banish" happens anyway


@deploy("aja")
def aja(draft: Draft, s: Step) -> None:
    """An opponent you pick banishes one card from their hand; then banish Aja."""
    _opponent_banishes(draft, s)


@deploy("antonia")
def antonia(draft: Draft, s: Step) -> None:
    """An opponent you pick banishes one card from their hand; then banish Antonia."""
    _opponent_banishes(draft, s)


# --- Tactus -------------------------------------------------------------------------------


@deploy("tactus")
def tactus(draft: Draft, s: Step) -> None:
    """You may steal a card from an opponent (they pick which); if you do, banish Tactus and
    end your turn."""
    seats = targets(draft, s.player, variant_card=True)
    if seats:
        options: list[Event] = [SEAT[q] for q in seats]
        options.append(DECLINE)
        name = draft.players[s.player].name
        draft.ask(s.player, Kind.CHOOSE, f"{name}: steal a card from whom?", options,
                  s.then("tactus-seat"))


@answer("tactus-seat")
def _tactus_seat(draft: Draft, s: Step, event: Event) -> None:
    if isinstance(event, Choose):
        steal(draft, s.player, chosen_seat(event), with_data(s, "tactus-stolen"))


@step("tactus-stolen")
def _tactus_stolen(draft: Draft, s: Step) -> None:
    banish_self(draft, s, with_data(s, "ability-end-turn"))


# --- Arlus --------------------------------------------------------------------------------


@deploy("arlus")
def arlus(draft: Draft, s: Step) -> None:
    """Each neighbor shows a random card from hand: banish it if Gold; if any shown card is
    Red, banish Arlus."""
    n = len(draft.players)
    neighbors = dict.fromkeys(((s.player + 1) % n, (s.player - 1) % n))
    eligible = set(targets(draft, s.player, variant_card=True))
    draft.push(with_data(s, "arlus-next", False, *(q for q in neighbors if q in eligible)))


@step("arlus-next")
def _arlus_next(draft: Draft, s: Step) -> None:
    red, seats = s.data[0], s.data[1:]
    if not seats:
        if red:
            banish_self(draft, s)
        return
    q = seats[0]
    then = with_data(s, "arlus-card", red, *seats)
    card = bottom_of_hand(draft, q) if draft.players[q].automa else None
    if card is not None and asks_as_tracked(draft):
        draft.ask(s.player, Kind.CONFIRM, f"Arlus: which card did {draft.players[q].name} "
                  "show?", [Choose(card)], then)
    elif card is not None:  # Au Toma gives up her bottom card: the solo rules say so
        _arlus_shown(draft, then, card)
    elif draft.hidden:
        draft.ask(s.player, Kind.CONFIRM, f"Arlus: which card did {draft.players[q].name} show?",
                  [Choose(c) for c in hand_cards(draft, q)], then)
    else:
        draft.ask(None, Kind.RANDOM, f"Arlus: a random card from {draft.players[q].name}",
                  [choose(c) for c in draft.hand(q).known], then)


@answer("arlus-card")
def _on_arlus_card(draft: Draft, s: Step, event: Event) -> None:
    _arlus_shown(draft, s, str(chosen_card(event)))


def _arlus_shown(draft: Draft, s: Step, card: str) -> None:
    red, seats = s.data[0], s.data[1:]
    q = seats[0]
    if not draft.players[q].automa:
        show(draft, q, card)
    after = with_data(s, "arlus-next", red or COLOR[card] is Color.RED, *seats[1:])
    if COLOR[card] is Color.GOLD:
        banish_from_hand(draft, q, card, after, after)
    else:
        draft.push(after)


# --- Roque --------------------------------------------------------------------------------


@deploy("roque")
def roque(draft: Draft, s: Step) -> None:
    """See an opponent's hand and name a card, then pick one of theirs at random: if it is the
    named one, banish it and Roque."""
    seats = targets(draft, s.player, variant_card=True)
    if seats:
        seat_choice(draft, s, "look at whose hand?", seats, s.then("roque-seat"))


@answer("roque-seat")
def _roque_seat(draft: Draft, s: Step, event: Event) -> None:
    q = chosen_seat(event)
    hand = draft.hand(q)
    if draft.hidden:  # tracking: the table does it and reports the outcome
        options: list[Event] = [Choose(c) for c in hand_cards(draft, q)]
        options.append(DECLINE)
        draft.ask(s.player, Kind.CONFIRM, "Roque: which named card was picked? (decline: "
                  "no match)", options, with_data(s, "roque-hit", q))
        return
    looked = hand.known[-ROQUE_LOOKS:] if draft.players[q].automa else hand.known
    decide(draft, s.player, Kind.CHOOSE, "Roque: name a card", [Choose(c) for c in looked],
           with_data(s, "roque-named", q))


@answer("roque-named")
def _roque_named(draft: Draft, s: Step, event: Event) -> None:
    q = s.data[0]
    hand = draft.hand(q).known
    looked = hand[-ROQUE_LOOKS:] if draft.players[q].automa else hand
    draft.ask(None, Kind.RANDOM, "Roque: a random card", [Choose(c) for c in looked],
              with_data(s, "roque-picked", q, chosen_card(event)))


@answer("roque-picked")
def _roque_picked(draft: Draft, s: Step, event: Event) -> None:
    q, named = s.data
    hit = chosen_card(event) == named
    if asks_as_tracked(draft):  # the outcome, as a tracked game asks the table for it
        draft.ask(s.player, Kind.CONFIRM, "Roque: which named card was picked? (decline: "
                  "no match)", (Choose(named) if hit else DECLINE,),
                  with_data(s, "roque-hit", q, named))
        return
    _roque_outcome(draft, s, q, named, hit)


def _roque_outcome(draft: Draft, s: Step, q: int, named: str, hit: bool) -> None:
    if draft.players[q].automa:
        _roque_automa(draft, s, q, named if hit else None)
    elif hit:
        done = with_data(s, "ability-banish-self")
        banish_from_hand(draft, q, named, done)


@answer("roque-hit")
def _roque_hit(draft: Draft, s: Step, event: Event) -> None:
    card = chosen_card(event) if isinstance(event, Choose) else None
    if not draft.hidden:
        _roque_outcome(draft, s, s.data[0], s.data[1], card is not None)
        return
    if card is not None:
        banish_from_hand(draft, s.data[0], card, with_data(s, "ability-banish-self"))


def _roque_automa(draft: Draft, s: Step, q: int, hit: str | None) -> None:
    """Au Toma: banish on a hit, then shuffle the looked-at cards back on top (§13.10)."""
    if hit is not None:
        draft.banish_from_hand(q, hit)
    known = draft.hand(q).known
    looked = known[max(0, len(known) - ROQUE_LOOKS + (hit is not None)):]
    shuffle = with_data(s, "roque-shuffle", q, looked, ())
    if hit is not None:
        banish_self(draft, s, shuffle)
    else:
        draft.push(shuffle)


@step("roque-shuffle")
def _roque_shuffle(draft: Draft, s: Step) -> None:
    """Pick the looked-at cards' new order one at a time (chance); they stay in her hand."""
    q, left, order = s.data
    if len(left) > 1:
        draft.ask(None, Kind.RANDOM, "Roque: shuffle Au Toma's cards back",
                  [Choose(c) for c in left], s.then("roque-back"))
        return
    known = draft.hand(q).known
    bottom = known[:len(known) - len(order) - len(left)]
    _set_hand(draft, q, [*bottom, *order, *left])


@answer("roque-back")
def _roque_back(draft: Draft, s: Step, event: Event) -> None:
    q, left, order = s.data
    card = str(chosen_card(event))
    draft.push(with_data(s, "roque-shuffle", q, tuple(c for c in left if c != card),
                         (*order, card)))


def _set_hand(draft: Draft, q: int, known: list[str]) -> None:
    draft.players[q] = replace(draft.players[q], hand=Hand(tuple(known), 0))


# --- Hypnotist ----------------------------------------------------------------------------


@deploy("hypnotist")
def hypnotist(draft: Draft, s: Step) -> None:
    """Clockwise from you, each player banishes a card from hand and gains the deck's top card."""
    n = len(draft.players)
    draft.push(with_data(s, "hypnotist-next", *((s.player + k) % n for k in range(n))))


@step("hypnotist-next")
def _hypnotist_next(draft: Draft, s: Step) -> None:
    if not s.data:
        return
    q, rest = s.data[0], s.data[1:]
    after = with_data(s, "hypnotist-next", *rest)
    if draft.hand(q).size == 0:
        draft.push(after)  # nothing to banish, so no swap
    elif q == s.player:
        decide(draft, q, Kind.CHOOSE, f"{draft.players[q].name}: banish one of your cards",
               [Choose(c) for c in hand_cards(draft, q)], with_data(s, "hypnotist-own", *rest))
    else:
        force_banish(draft, q, with_data(s, "hypnotist-draw", q, *rest), after)


@answer("hypnotist-own")
def _hypnotist_own(draft: Draft, s: Step, event: Event) -> None:
    draft.banish_from_hand(s.player, str(chosen_card(event)))
    draft.push(with_data(s, "hypnotist-draw", s.player, *s.data))


@step("hypnotist-draw")
def _hypnotist_draw(draft: Draft, s: Step) -> None:
    q, rest = s.data[0], s.data[1:]
    if draft.deck_count > 0:
        draft.draw(q)  # Au Toma's gain goes on top of her hand
    draft.push(with_data(s, "hypnotist-next", *rest))

