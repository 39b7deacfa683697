"""Scoring step 1: the end-of-game abilities, then House Ceres' banish from hand.

The first player resolves all of their end-of-game abilities (in any order they
like), then each next player clockwise; a card gained on the way brings its own
ability along. After everyone, the Ceres player banishes one card from hand (FAQ).
Orange names and Gray castes are not decisions here: scoring optimises them.

Each ability becomes a :class:`Decision` whose :class:`Option` values are ranked best
first by the score they lead to. Abilities that read the deck (Hacker, Hypnotist,
Online Gambler) take the revealed cards from ``table.deck`` when the deck is known;
otherwise their options carry ``revealed=None`` and whoever sees the physical cards
fills them in (:meth:`Option.with_revealed`). Psychologist's random card comes from
an injected ``random.Random`` or an explicit outcome.

>>> from engine.table import Seat, Table
>>> t = Table(seats=(Seat("Ann", ("auctioneer",), fleet=9), Seat("Bob", ())))
>>> f = begin(t)
>>> d = decision(f)
>>> d.seat, d.ability, d.options[0].label
(0, 'auctioneer', 'Auctioneer: advance on the Fleet Track')
>>> f = resolve(f, d.options[0])
>>> f.table.seats[0].fleet, decision(f) is None
(10, True)
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import combinations

from engine.board import FLEET_MAX, INFLUENCE_TOKENS, Bonus, House, Location
from engine.cards import CARDS, Color
from engine.frozen import evolve_slots
from engine.rulings import Rulings
from engine.scoring import SeatScorer
from engine.table import Seat, Table

CERES = "ceres"  # the ability key of House Ceres' end-of-game banish
BANKER_PRICE = 3
GAMBLER_REVEALS = 7
ABILITIES = ("auctioneer", "banker", "dr-virany", "hacker", "hypnotist", "investor",
             "justice", "martyr", "online-gambler", "psychologist", "surgeon")
DECK_READERS = frozenset({"hacker", "hypnotist", "online-gambler"})
VIRANY_NAMES = frozenset({"victra", "sevro", "fitchner"})


class FinaleError(ValueError):
    """An option that does not fit the table, or that still needs an observed card."""


@dataclass(frozen=True, slots=True)
class Option:
    """One way to resolve one end-of-game ability: a label and what applying it does."""

    seat: int
    ability: str  # the card id, or "ceres"
    label: str
    gain: tuple[str, ...] = ()  # cards taken into the hand (not deck cards: see revealed)
    banish: tuple[str, ...] = ()  # cards banished from the hand
    source: Location | None = None  # the location ``gain`` comes from (else the pile)
    bonus: Bonus | None = None  # Auctioneer's choice
    color: Color | None = None  # Investor's / Online Gambler's named caste
    helium: int = 0  # Helium gained (Investor) or paid (Banker, negative)
    revealed: tuple[str, ...] | None = ()  # deck cards this option reads; None: not yet seen
    random_pick: bool = False  # Psychologist: one banished card drawn at random on apply
    value: float | None = None  # the seat's total after this option (estimated if unseen)

    def with_revealed(self, cards: Sequence[str]) -> Option:
        """This option with the deck cards the table revealed (top card first)."""
        return replace(self, revealed=tuple(cards))

    @property
    def needs_reveal(self) -> bool:
        return self.revealed is None

    def text(self) -> str:
        """The label, with the cards revealed or drawn at random once they are known."""
        seen = [CARDS[c].name for c in self.revealed or ()]
        if self.random_pick and self.gain:
            seen = [CARDS[self.gain[0]].name]
        return f"{self.label} ({', '.join(seen)})" if seen else self.label


@dataclass(frozen=True, slots=True)
class Decision:
    """A pending end-of-game ability: whose, which, and the options (best first)."""

    seat: int
    ability: str
    prompt: str
    options: tuple[Option, ...]


@dataclass(frozen=True, slots=True)
class Finale:
    """Progress through scoring step 1."""

    table: Table
    done: frozenset[tuple[int, str]] = frozenset()  # (seat, ability) resolved
    ceres_done: bool = False
    start_deck: tuple[str, ...] | None = None  # the deck when step 1 began (ruling 10)
    log: tuple[Option, ...] = ()

    @property
    def is_over(self) -> bool:
        return not pending(self)


def begin(table: Table) -> Finale:
    """Start step 1; remembers the banished pile and the deck as they are (rulings 2, 10)."""
    return Finale(replace(table, banished_before_finale=table.banished), start_deck=table.deck)


def pending(f: Finale) -> list[tuple[int, str]]:
    """The abilities waiting now, all the current player's (hand order), or Ceres'."""
    for i in f.table.clockwise():
        waiting = _waiting(f, i)
        if waiting:
            return [(i, a) for a in waiting]
    ceres = _ceres_seat(f.table)
    if ceres is not None and not f.ceres_done:
        return [(ceres, CERES)]
    return []


def _waiting(f: Finale, i: int) -> list[str]:
    seat = f.table.seats[i]
    if seat.automa is not None:
        return []
    seen: list[str] = []
    for cid in seat.hand:
        if cid in ABILITIES and (i, cid) not in f.done and cid not in seen:
            seen.append(cid)
    return seen


def _ceres_seat(table: Table) -> int | None:
    return next((i for i, s in enumerate(table.seats) if s.house is House.CERES), None)


def decision(f: Finale, rulings: Rulings | None = None,
             ability: str | None = None) -> Decision | None:
    """The next decision (or the one for ``ability`` among the current player's).

    :raises FinaleError: if ``ability`` is not waiting now.
    """
    waiting = pending(f)
    if not waiting:
        return None
    seat, key = waiting[0]
    if ability is not None:
        if (seat, ability) not in waiting:
            raise FinaleError(f"{ability} is not waiting to be resolved now")
        key = ability
    options = _ranked(f, list(_options(f, seat, key, rulings or Rulings())), rulings)
    name = f.table.seats[seat].name
    title = "House Ceres' banish" if key == CERES else CARDS[key].name
    return Decision(seat, key, f"{name}: {title}", tuple(options))


def resolve(f: Finale, option: Option, rng: random.Random | None = None) -> Finale:
    """Apply an option of the waiting decision.

    :raises FinaleError: if the option is not for a waiting ability, needs revealed
        cards, or does not fit the table (the finale is then unchanged).
    """
    if (option.seat, option.ability) not in pending(f):
        raise FinaleError(f"{option.ability} of seat {option.seat} is not waiting now")
    if option.random_pick and not option.gain:
        option = replace(option, gain=(_random_banished(f.table, option, rng),))
    table = apply(f.table, option, rng)
    if option.ability == CERES:
        return replace(f, table=table, ceres_done=True, log=(*f.log, option))
    done = f.done | {(option.seat, option.ability)}
    return replace(f, table=table, done=done, log=(*f.log, option))


def resolve_all(table: Table, rulings: Rulings | None = None,
                rng: random.Random | None = None) -> tuple[Table, tuple[Option, ...]]:
    """Resolve every ability with its best option; returns the table and what was done.

    :raises FinaleError: when a deck-reading ability meets an unknown deck.
    """
    f = begin(table)
    while (d := decision(f, rulings)) is not None:
        best = d.options[0]
        if best.needs_reveal:
            raise FinaleError(f"{CARDS[d.ability].name} reads the deck, which is unknown: "
                              "give the deck (top card first) to resolve it")
        f = resolve(f, best, rng)
    return f.table, f.log


# ---- options ----------------------------------------------------------------------------

def _options(f: Finale, i: int, key: str, rulings: Rulings) -> Iterator[Option]:
    table, seat = f.table, f.table.seats[i]
    if key == CERES:
        yield from _ceres(i, seat)
    elif key == "auctioneer":
        yield from _auctioneer(i, seat)
    elif key == "banker":
        yield from _banker(i, table)
    elif key == "dr-virany":
        yield from _virany(i, table)
    elif key in ("justice", "martyr"):
        yield from _from_location(i, key, table)
    elif key == "investor":
        yield from _investor(i, table)
    elif key == "psychologist":
        yield from _psychologist(i, table)
    elif key == "surgeon":
        yield from _surgeon(i, table)
    else:
        yield from _deck_options(f, i, key, rulings)


def _nothing(i: int, key: str, why: str) -> Option:
    return Option(i, key, f"{_title(key)}: no effect ({why})")


def _title(key: str) -> str:
    return "House Ceres" if key == CERES else CARDS[key].name


def _ceres(i: int, seat: Seat) -> Iterator[Option]:
    if not seat.hand:
        yield _nothing(i, CERES, "empty hand")
    for cid in dict.fromkeys(seat.hand):
        yield Option(i, CERES, f"House Ceres: banish {CARDS[cid].name}", banish=(cid,))


def _auctioneer(i: int, seat: Seat) -> Iterator[Option]:
    yield Option(i, "auctioneer", "Auctioneer: gain 1 Helium", bonus=Bonus.HELIUM)
    if seat.fleet < FLEET_MAX:
        yield Option(i, "auctioneer", "Auctioneer: advance on the Fleet Track",
                     bonus=Bonus.FLEET)
    if seat.influence < INFLUENCE_TOKENS:
        yield Option(i, "auctioneer", "Auctioneer: place 1 Influence on the Institute",
                     bonus=Bonus.INFLUENCE)


def _banker(i: int, table: Table) -> Iterator[Option]:
    yield Option(i, "banker", "Banker: pay nothing")
    if table.seats[i].helium < BANKER_PRICE:
        return
    for loc in Location:
        stack = table.stack(loc)
        if stack and stack[-1].card is not None:
            cid = stack[-1].card
            yield Option(i, "banker", f"Banker: pay 3 Helium for {CARDS[cid].name} "
                         f"(top of {loc.label})", gain=(cid,), source=loc, helium=-BANKER_PRICE)


def _virany(i: int, table: Table) -> Iterator[Option]:
    wanted = sorted({c for c in table.banished
                     if c in VIRANY_NAMES or CARDS[c].color is Color.RED})
    for r in range(len(wanted) + 1):
        for combo in combinations(wanted, r):
            what = ", ".join(CARDS[c].name for c in combo) or "nothing"
            yield Option(i, "dr-virany", f"Dr. Virany: gain {what}", gain=combo)


def _from_location(i: int, key: str, table: Table) -> Iterator[Option]:
    loc = Location.LUNA if key == "justice" else Location.MARS
    if not table.seats[i].sovereign:
        yield _nothing(i, key, "no Sovereign token")
        return
    cards = [sc.card for sc in table.stack(loc) if sc.card is not None]
    if not cards:
        yield _nothing(i, key, f"no card on {loc.label}")
    for cid in dict.fromkeys(cards):
        yield Option(i, key, f"{_title(key)}: gain {CARDS[cid].name} from {loc.label}",
                     gain=(cid,), source=loc)


def _investor(i: int, table: Table) -> Iterator[Option]:
    counts: dict[Color, int] = {}
    for sc in table.stack(Location.MARS):
        if sc.card is not None and not sc.face_down and CARDS[sc.card].color is not Color.SILVER:
            counts[CARDS[sc.card].color] = counts.get(CARDS[sc.card].color, 0) + 1
    if not counts:
        yield _nothing(i, "investor", "no card of a color other than Silver on Mars")
    for color, n in counts.items():
        yield Option(i, "investor", f"Investor: name {color.value}, gain {n} Helium",
                     color=color, helium=n)


def psychologist_size(seat: Seat) -> int:
    """Hand size in Psychologist's comparison; Au Toma counts a third (the solo variant's
    Psychologist rule: her cards divided by 3, rounded down)."""
    return len(seat.hand) // 3 if seat.automa is not None else len(seat.hand)


def _psychologist(i: int, table: Table) -> Iterator[Option]:
    mine = psychologist_size(table.seats[i])
    if any(psychologist_size(s) < mine for s in table.seats):
        yield _nothing(i, "psychologist", "another player holds fewer cards")
    elif not table.banished:
        yield _nothing(i, "psychologist", "no banished card")
    else:
        yield Option(i, "psychologist", "Psychologist: gain a random banished card",
                     random_pick=True)


def _surgeon(i: int, table: Table) -> Iterator[Option]:
    golds = [c for c in table.banished if CARDS[c].color is Color.GOLD]
    if not golds:
        yield _nothing(i, "surgeon", "no banished Gold")
    for cid in golds:
        yield Option(i, "surgeon", f"Surgeon: gain {CARDS[cid].name}", gain=(cid,))


def _deck_options(f: Finale, i: int, key: str, rulings: Rulings) -> Iterator[Option]:
    deck = f.table.deck
    if key == "hacker" and not rulings.hacker_sees_deck_as_left and f.start_deck is not None:
        deck = f.start_deck
    if key == "hacker":
        yield _hacker(f, i, deck, rulings)
    elif key == "hypnotist":
        yield from _hypnotist(i, f.table, deck)
    else:
        shown = deck[:GAMBLER_REVEALS] if deck is not None else None
        for color in Color:
            if color is not Color.GOLD:
                yield Option(i, key, f"Online Gambler: name {color.value}", color=color,
                             revealed=shown)


def _hacker(f: Finale, i: int, deck: tuple[str, ...] | None, rulings: Rulings) -> Option:
    """Hacker's one option; its label says when ruling 10 decided which card it sees."""
    shown = deck[:1] if deck is not None else None
    label = "Hacker: reveal the top card of the deck"
    left = rulings.hacker_sees_deck_as_left
    other = f.start_deck if left else f.table.deck
    if shown is not None and other is not None and other[:1] != shown:
        label += f" [setting hacker_sees_deck_as_left={left} decided it]"
    return Option(i, "hacker", label, revealed=shown)


def _hypnotist(i: int, table: Table, deck: tuple[str, ...] | None) -> Iterator[Option]:
    others = [c for c in dict.fromkeys(table.seats[i].hand) if c != "hypnotist"]
    if not others:
        yield _nothing(i, "hypnotist", "no other card to banish")
    shown = deck[:1] if deck is not None else None
    for cid in others:
        yield Option(i, "hypnotist", f"Hypnotist: banish {CARDS[cid].name}, gain the deck's "
                     "top card", banish=(cid,), revealed=shown)


# ---- applying ---------------------------------------------------------------------------

def apply(table: Table, option: Option, rng: random.Random | None = None) -> Table:
    """The table after an option (trusts that the option was offered for this table).

    :raises FinaleError: if the option still needs revealed cards or a random source,
        or its cards are no longer where it expects them.
    """
    if option.needs_reveal:
        raise FinaleError(f"{option.label}: the revealed deck card(s) are needed first")
    seat = table.seats[option.seat]
    for cid in option.banish:
        if cid not in seat.hand:
            raise FinaleError(f"{option.label}: {cid} is not in {seat.name}'s hand")
    hand = [c for c in seat.hand if c not in option.banish]
    if option.banish:  # most options banish nothing: no copy of the table then
        table = evolve_slots(table, banished=table.banished + option.banish)
    table, gained = _take(table, option, rng)
    seat = evolve_slots(seat, hand=(*hand, *gained), helium=seat.helium + option.helium)
    seat = _token_bonus(seat, option.bonus)
    if option.ability == "hacker" and option.revealed:
        seat = evolve_slots(seat, extra_points=seat.extra_points + CARDS[option.revealed[0]].core)
    return table.with_seat(option.seat, seat)


def _token_bonus(seat: Seat, bonus: Bonus | None) -> Seat:
    if bonus is Bonus.HELIUM:
        return evolve_slots(seat, helium=seat.helium + 1)
    if bonus is Bonus.FLEET:
        return evolve_slots(seat, fleet=min(FLEET_MAX, seat.fleet + 1))
    if bonus is Bonus.INFLUENCE:
        return evolve_slots(seat, influence=min(INFLUENCE_TOKENS, seat.influence + 1))
    return seat


def _take(table: Table, option: Option,
          rng: random.Random | None) -> tuple[Table, tuple[str, ...]]:
    """Move the gained cards out of their place; returns the table and the cards."""
    if option.random_pick:
        return _take_from_pile(table, (_random_banished(table, option, rng),), option)
    if option.ability in ("hypnotist", "online-gambler"):
        return _take_from_deck(table, option, rng)
    if option.source is not None:
        return _take_from_stack(table, option), option.gain
    return _take_from_pile(table, option.gain, option)


def _random_banished(table: Table, option: Option, rng: random.Random | None) -> str:
    if option.gain:
        return option.gain[0]  # an outcome observed at the table
    if rng is None:
        raise FinaleError(f"{option.label}: needs a random source or the card drawn")
    return rng.choice(sorted(table.banished))


def _take_from_pile(table: Table, cards: Sequence[str],
                    option: Option) -> tuple[Table, tuple[str, ...]]:
    if not cards:
        return table, ()
    pile = list(table.banished)
    for cid in cards:
        if cid not in pile:
            raise FinaleError(f"{option.label}: {cid} is not banished")
        pile.remove(cid)
    return evolve_slots(table, banished=tuple(pile)), tuple(cards)


def _take_from_stack(table: Table, option: Option) -> Table:
    assert option.source is not None
    stack = list(table.stack(option.source))
    for cid in option.gain:
        at = next((k for k, sc in enumerate(stack) if sc.card == cid), None)
        if at is None:
            raise FinaleError(f"{option.label}: {cid} is not on {option.source.label}")
        del stack[at]
    return table.with_stack(option.source, tuple(stack))


def _take_from_deck(table: Table, option: Option,
                    rng: random.Random | None) -> tuple[Table, tuple[str, ...]]:
    shown = option.revealed or ()
    if option.ability == "hypnotist":
        gained = shown[:1]
        rest: tuple[str, ...] = ()
    else:
        gained = tuple(c for c in shown if CARDS[c].color is option.color)
        rest_list = [c for c in shown if c not in gained]
        if rng is not None:
            rng.shuffle(rest_list)  # the card says to shuffle the others back on top
        rest = tuple(rest_list)
    if table.deck is not None:
        deck = rest + table.deck[len(shown):]
        table = evolve_slots(table, deck=deck)
    return table, gained


# ---- ranking ----------------------------------------------------------------------------

def _ranked(f: Finale, options: list[Option], rulings: Rulings | None) -> list[Option]:
    """Options with their resulting totals, best first (ties keep the offered order)."""
    scorer = SeatScorer(rulings)
    valued = [evolve_slots(o, value=_value(f, o, scorer)) for o in options]
    return sorted(valued, key=lambda o: -(o.value or 0.0))


def _value(f: Finale, option: Option, scorer: SeatScorer) -> float:
    """The seat's total after the option; unseen deck cards are averaged over the unseen."""
    if option.random_pick:
        return _mean_over(f.table, option, [evolve_slots(option, random_pick=False, gain=(c,))
                                            for c in sorted(f.table.banished)], scorer)
    if option.needs_reveal:
        return _unseen_value(f.table, option, scorer)
    return scorer.total(apply(f.table, option), option.seat)


def _mean_over(table: Table, option: Option, outcomes: list[Option],
               scorer: SeatScorer) -> float:
    if not outcomes:
        return float(scorer.total(table, option.seat))
    values = [scorer.total(apply(table, o), o.seat) for o in outcomes]
    return sum(values) / len(values)


def unseen(table: Table) -> list[str]:
    """Cards the table has not seen: the deck's possible contents when it is unknown."""
    seen = {cid for cid, _ in table.places()}
    return [cid for cid in CARDS if cid not in seen]


def _unseen_value(table: Table, option: Option, scorer: SeatScorer) -> float:
    """Expected total when the deck is unknown, card by card over the unseen cards.

    Hacker and Hypnotist: the mean over each unseen card being the revealed one.
    Online Gambler: the current total plus, for each unseen card of the named caste,
    its chance of being among the 7 times what gaining it alone is worth.
    """
    pool = unseen(table)
    base = evolve_slots(option, revealed=())
    if option.ability != "online-gambler" or not pool:
        return _mean_over(table, base, [evolve_slots(option, revealed=(c,)) for c in pool], scorer)
    now = scorer.total(table, option.seat)
    share = min(1.0, GAMBLER_REVEALS / len(pool))
    gains = [scorer.total(apply(table, evolve_slots(option, revealed=(c,))), option.seat) - now
             for c in pool if CARDS[c].color is option.color]
    return now + share * sum(gains)

