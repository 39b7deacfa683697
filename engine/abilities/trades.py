"""Abilities that trade one of your resources for another, and Loan Shark's borrowed turn.

A trading ability fires at most once per turn, even when chained deploys would fire
it again (the rulebook says so of Sponsor, Stock Broker and the like), recorded in
``TurnContext.trades_used``. The trades are the abilities where you give up something
of yours (Fleet, Helium, Influence, a hand card) to get something else.
"""

from __future__ import annotations

from engine.abilities.primitives import (
    COLOR,
    DECLINE,
    asks_as_tracked,
    banish_self,
    card_options,
    chosen_card,
    chosen_seat,
    decide,
    deck_bottom,
    gain_revealed,
    gainable,
    hand_cards,
    is_color,
    may,
    picked,
    seat_choice,
    to_deck,
    trade_used,
    unseen,
    use_trade,
    with_data,
)
from engine.abilities.registry import deploy
from engine.cards import Color
from engine.decisions import Kind
from engine.draft import Draft
from engine.events import Choose, Event
from engine.handlers import answer, step
from engine.state import ChangeKind, TurnKind
from engine.steps import Step

TRADES = frozenset({"ceo", "sponsor", "stock-broker", "banker", "surgeon", "mickey-the-carver"})
REGRESS, PAY, RETURN, BORROW = Choose("regress"), Choose("pay"), Choose("return"), Choose("turn")


def _can_trade(draft: Draft, s: Step) -> bool:
    return not trade_used(draft, str(s.card))


def _trade(draft: Draft, s: Step) -> None:
    use_trade(draft, str(s.card))


@deploy("ceo")
def ceo(draft: Draft, s: Step) -> None:
    """You may move back 1 on the Fleet; if you do, gain 2 Helium."""
    if _can_trade(draft, s) and draft.players[s.player].fleet > 0:
        may(draft, s, "move back 1 on the Fleet to gain 2 Helium?", REGRESS, s.then("ceo-yes"))


@answer("ceo-yes")
def _ceo_yes(draft: Draft, s: Step, event: Event) -> None:
    if event == REGRESS:
        _trade(draft, s)
        draft.regress(s.player)
        draft.add_helium(s.player, 2)


@deploy("sponsor")
def sponsor(draft: Draft, s: Step) -> None:
    """You may pay 1 Helium to place 2 Influence."""
    if _can_trade(draft, s) and draft.players[s.player].helium >= 1:
        may(draft, s, "pay 1 Helium to place 2 Influence?", PAY, s.then("sponsor-yes"))


@answer("sponsor-yes")
def _sponsor_yes(draft: Draft, s: Step, event: Event) -> None:
    if event == PAY:
        _trade(draft, s)
        draft.lose_helium(s.player)
        draft.place_influence(s.player, 2)


@deploy("stock-broker")
def stock_broker(draft: Draft, s: Step) -> None:
    """You may take back 1 of your Influence from the Institute to gain 2 Helium."""
    if _can_trade(draft, s) and draft.players[s.player].influence >= 1:
        may(draft, s, "take back 1 Influence to gain 2 Helium?", RETURN,
            s.then("stock-broker-yes"))


@answer("stock-broker-yes")
def _stock_broker_yes(draft: Draft, s: Step, event: Event) -> None:
    if event == RETURN:
        _trade(draft, s)
        draft.remove_influence(s.player)
        draft.add_helium(s.player, 2)


@deploy("banker")
def banker(draft: Draft, s: Step) -> None:
    """You may pay 3 Helium to gain any card at this location; if you do, banish Banker."""
    if not _can_trade(draft, s) or draft.players[s.player].helium < 3:
        return
    assert s.location is not None
    options = card_options(draft, (s.location,), lambda slot: gainable(draft, slot), s.card)
    if options:
        options.append(DECLINE)
        name = draft.players[s.player].name
        draft.ask(s.player, Kind.TARGET, f"{name}: pay 3 Helium to gain a card here?", options,
                  s.then("banker-card"))


@answer("banker-card")
def _banker_card(draft: Draft, s: Step, event: Event) -> None:
    if isinstance(event, Choose):
        loc, index, _ = picked(draft, event)
        _trade(draft, s)
        draft.lose_helium(s.player, 3)
        draft.gain_from(s.player, loc, index)
        banish_self(draft, s)


@deploy("surgeon")
def surgeon(draft: Draft, s: Step) -> None:
    """You may banish a non-Gold from your hand to gain a banished Gold."""
    golds = [c for c in draft.banished if is_color(c, Color.GOLD)]
    held = hand_cards(draft, s.player, lambda c: COLOR[c] is not Color.GOLD)
    if _can_trade(draft, s) and golds and held:
        options: list[Event] = [Choose(c) for c in held]
        options.append(DECLINE)
        name = draft.players[s.player].name
        draft.ask(s.player, Kind.CHOOSE, f"{name}: banish a non-Gold to gain a banished Gold?",
                  options, s.then("surgeon-card"))


@answer("surgeon-card")
def _surgeon_card(draft: Draft, s: Step, event: Event) -> None:
    card = chosen_card(event) if isinstance(event, Choose) else None
    if card is None:
        return
    golds = [Choose(c) for c in draft.banished if is_color(c, Color.GOLD)]
    _trade(draft, s)
    draft.banish_from_hand(s.player, card)
    decide(draft, s.player, Kind.CHOOSE, "Surgeon: gain which banished Gold?", golds,
           s.then("surgeon-gold"))


@answer("surgeon-gold")
def _surgeon_gold(draft: Draft, s: Step, event: Event) -> None:
    draft.take_banished(s.player, str(chosen_card(event)))


# --- Mickey the Carver -------------------------------------------------------------------


@deploy("mickey-the-carver")
def mickey_the_carver(draft: Draft, s: Step) -> None:
    """You may banish a Red from hand to reveal deck cards until a Gold: gain it; the rest under."""
    reds = hand_cards(draft, s.player, lambda c: COLOR[c] is Color.RED)
    if _can_trade(draft, s) and reds and draft.deck_count > 0:
        options: list[Event] = [Choose(c) for c in reds]
        options.append(DECLINE)
        name = draft.players[s.player].name
        draft.ask(s.player, Kind.CHOOSE, f"{name}: banish a Red to dig for a Gold?", options,
                  s.then("mickey-red"))


@answer("mickey-red")
def _mickey_red(draft: Draft, s: Step, event: Event) -> None:
    card = chosen_card(event) if isinstance(event, Choose) else None
    if card is None:
        return
    _trade(draft, s)
    draft.banish_from_hand(s.player, card)
    if draft.hidden:
        options: list[Event] = [Choose(c) for c in unseen(draft, _gold)]
        options.append(DECLINE)
    elif asks_as_tracked(draft):
        gold = next((c for c in draft.deck or () if _gold(c)), None)
        options = [DECLINE if gold is None else Choose(gold)]
    else:
        _dig(draft, s)
        return
    draft.ask(s.player, Kind.CONFIRM, "Mickey: which Gold turned up? (decline: none)",
              options, s.then("mickey-found"))


def _gold(card: str) -> bool:
    return COLOR[card] is Color.GOLD


def _dig(draft: Draft, s: Step) -> None:
    """Turn cards over until a Gold (simulation: the deck's order is known)."""
    passed: list[str] = []
    while draft.deck_count > 0:
        card = draft.reveal_from_deck()
        assert card is not None
        if _gold(card):
            gain_revealed(draft, s.player, card)
            break
        passed.append(card)
    draft.push(with_data(s, "mickey-bottom", *passed))


@answer("mickey-found")
def _mickey_found(draft: Draft, s: Step, event: Event) -> None:
    """Tracking: only the Gold leaves the deck; the others go back under it unseen."""
    if not draft.hidden:
        _dig(draft, s)  # the question was asked as a tracked game asks it
        return
    card = chosen_card(event) if isinstance(event, Choose) else None
    if card is not None:
        deck_bottom(draft)  # one card fewer in the deck: its order is unknown anyway
        draft.add_to_hand(s.player, card)
        draft.note(ChangeKind.GAIN, player=s.player, card=card, source="deck")


@step("mickey-bottom")
def _mickey_bottom(draft: Draft, s: Step) -> None:
    """The player puts the passed cards under the deck, one at a time, in any order."""
    if s.data:
        decide(draft, s.player, Kind.CHOOSE, "Mickey: put which card under the deck next?",
               [Choose(c) for c in s.data], s.then("mickey-under"))


@answer("mickey-under")
def _mickey_under(draft: Draft, s: Step, event: Event) -> None:
    card = str(chosen_card(event))
    draft.revealed.remove(card)
    to_deck(draft, card, bottom=True)
    rest = list(s.data)
    rest.remove(card)
    draft.push(with_data(s, "mickey-bottom", *rest))


# --- Loan Shark ----------------------------------------------------------------------------


@deploy("loan-shark")
def loan_shark(draft: Draft, s: Step) -> None:
    """An opponent you pick either pays you 2 Helium to take a turn right away, or pays 1."""
    seat_choice(draft, s, "who owes you?", draft.opponents(s.player), s.then("loan-shark-seat"))


@answer("loan-shark-seat")
def _loan_shark_seat(draft: Draft, s: Step, event: Event) -> None:
    q = chosen_seat(event)
    if draft.players[q].automa or draft.players[q].helium < 2:
        _pay(draft, s.player, q, 1)
        return
    name = draft.players[q].name
    draft.ask(q, Kind.CHOOSE, f"{name}: pay 2 Helium to take a turn now (else pay 1)?",
              (BORROW, DECLINE), with_data(s, "loan-shark-offer", q))


def _pay(draft: Draft, payee: int, payer: int, amount: int) -> None:
    draft.add_helium(payee, draft.lose_helium(payer, amount))


@answer("loan-shark-offer")
def _loan_shark_offer(draft: Draft, s: Step, event: Event) -> None:
    q = s.data[0]
    if event != BORROW:
        _pay(draft, s.player, q, 1)
        return
    _pay(draft, s.player, q, 2)
    # The borrowed turn is not counted (engine.endgame) and may not gain Loan Shark
    # (engine.rules' gain step); then the lender's turn resumes as it was.
    saved = (draft.turn, draft.current, draft.final_turns)
    draft.push(Step("turn", q, data=(TurnKind.OUT_OF_ORDER,)),
               with_data(s, "loan-shark-resume", *saved))


@step("loan-shark-resume")
def _loan_shark_resume(draft: Draft, s: Step) -> None:
    """Back to the lender's turn: its context, and no final round fixed in the middle."""
    draft.turn, draft.current, draft.final_turns = s.data

