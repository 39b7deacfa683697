"""Tull Au Toma, the solo opponent: her setup, her turn step by step, and what she
would do with any one of her cards.

Her deck file
-------------
Her 22 cards are data, in ``engine/automa_deck.json``: one row per card,
``[id, deploy, gain, tiebreaker, extra]``. The rows come from a single public
transcription that nothing else confirms (cards 5 and 6 read alike, and card 5 is the
likeliest mistake), so check them against your own cards:

1. ``companion automa deck`` prints the 22 rows.
2. For each physical card, find the row with its ID. *deploy* and *gain* are the
   location icon (jupiter, mars, luna, institute) or the letter A–D printed in those
   sections; *tiebreaker* is the way the arrow points (left = towards Jupiter, right =
   towards The Institute); *extra* is ``none`` for a blank Extras section, ``bonus``
   for the bonus icon and ``banish`` for the banish icon.
3. If a row differs, copy the file, fix the row and check the copy with
   ``companion automa deck --deck MY_DECK.json``: a bad file is refused with a message
   naming the card and the field.
4. Use the copy by setting ``COMPANION_AUTOMA_DECK=/path/to/MY_DECK.json`` (read by the
   device and the ``companion`` commands) or per command with ``--deck``.

The engine reads neither files nor the environment: give the parsed cards
(:func:`engine.automa_state.parse_deck`) to :func:`new_solo_game` as ``deck=``. The
Setup event carries them, so a journal replays with the deck its game was played with.

Her turn
--------
Two cards, the first resolved fully before the second is turned over (her turn in the
solo rules): *deploy* the character
deck's top card (no ability) to the section's location; *gain* the top card of the
gain location, skipping empty locations along the arrow; then the *extras*: the bonus
of the location she gained from (:func:`bonus_plan`: the Luna bonus card and the
10-cap substitution), or banish the character deck's top card. Her deck is shuffled
at setup with 4 cards set aside; when it runs out, all 22 are shuffled again (one
chance decision per card, so the log holds the order) and 4 set aside again.

Tracking a physical game
------------------------
While tracking (``state.hidden``), every physical step is a ``Kind.CONFIRM`` decision
addressed to her seat. Its prompt is the instruction to speak and show; its single
option is the observation that confirms it: ``Place(location, None)`` for the deploy
(the camera names the card), :class:`AutomaGain` for her gain, :class:`AutomaToken`
for a token and :class:`AutomaBanish` (naming the card) for a banish.
:func:`instructions` lists a card's steps in advance for the voice and the phone.

>>> from engine.board import Location as L
>>> where = Situation((L.MARS, L.LUNA, L.JUPITER, L.INSTITUTE), (2, 0, 3, 1))
>>> outcome(where, default_deck()[0]).to_json()
{'card': 1, 'deploy': 'mars', 'gain': 'mars', 'bonus': ['helium'], 'banish_top_of_deck': False}
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, NamedTuple

from engine import cards, events
from engine.automa_state import (
    ASIDE,
    DECK_FILE,
    DECK_SIZE,
    LETTERS,
    LEVELS,
    PARITIES,
    AutomaCard,
    AutomaSetup,
    AutomaState,
    Extra,
    Parity,
    check_deck,
    parse_deck,
)
from engine.board import (
    FACE_UP_PER_LOCATION,
    FLEET_MAX,
    INFLUENCE_TOKENS,
    LOCATIONS,
    NEUTRAL_INFLUENCE,
    SOLO_REMOVED,
    Bonus,
    House,
    Location,
    starting_hand_size,
)
from engine.cards import Color
from engine.decisions import Kind
from engine.draft import Draft
from engine.errors import IllegalActionError
from engine.events import Choose, Event, Place, SeatSpec, Setup
from engine.events import place as place_event
from engine.handlers import answer, step
from engine.schema import Boolean, Field, Integer, Record, SchemaError
from engine.seats import first_player, seat_specs
from engine.state import ChangeKind, GameState, Hand, evolve
from engine.steps import Step

AUTOMA_NAME = "Au Toma"
DECK_ENV = "COMPANION_AUTOMA_DECK"  # the device reads a corrected deck file from here
HAND_SIZE = 2
CAP = 10  # Helium, Fleet and placed Influence: at 10 she takes another bonus (§13.7)
VARIANT = "automa-variant"  # in state.variants when the optional variant is played
VARIANT_REMOVED = ("loan-shark",)
LOOK = 6  # Eo and Roque (variant) look at the top 6 cards of her hand
_PARTNER = {"A": "D", "D": "A", "B": "C", "C": "B"}  # Luna bonus card pairing (§13.2)


class AutomaInputError(ValueError):
    """A priority layout or a ``companion automa resolve`` state that cannot be used."""


@cache
def default_deck() -> tuple[AutomaCard, ...]:
    """The 22 cards in the package's ``automa_deck.json``."""
    text = resources.files("engine").joinpath(DECK_FILE).read_text(encoding="utf-8")
    return parse_deck(text)


# --- setup ---------------------------------------------------------------------------


def removed_cards(variant: bool = False) -> tuple[str, ...]:
    """Character cards left out of a solo game (the variant keeps all but Loan Shark)."""
    return VARIANT_REMOVED if variant else SOLO_REMOVED


def solo_card_ids(variant: bool = False) -> tuple[str, ...]:
    """The character deck of a solo game: 107 cards, or 111 with the variant."""
    out = set(removed_cards(variant))
    return tuple(c for c in cards.ALL_IDS if c not in out)


def luna_icon(priorities: Sequence[Location]) -> Location:
    """The icon showing on the Luna bonus card: A pairs with D, B with C.

    >>> luna_icon((Location.LUNA, Location.MARS, Location.JUPITER, Location.INSTITUTE))
    <Location.INSTITUTE: 'institute'>
    """
    letter = LETTERS[priorities.index(Location.LUNA)]
    return priorities[LETTERS.index(_PARTNER[letter])]


def parity_of(cores: Iterable[int]) -> Parity:
    """The odd/even card: the majority parity of the core values; a tie shows EVEN.

    >>> parity_of([1, 3, 0, 5]).value, parity_of([1, 3, 0, 4]).value
    ('odd', 'even')
    """
    values = list(cores)
    odd = sum(v % 2 for v in values)
    return Parity.ODD if odd > len(values) - odd else Parity.EVEN


def parse_priorities(value: Mapping[str, Any] | Sequence[Any]) -> tuple[Location, ...]:
    """Priority cards as the locations holding A, B, C, D.

    Takes ``{"A": "mars", ...}`` or four locations in letter order.

    :raises AutomaInputError: unless each letter sits on its own location.
    """
    if isinstance(value, Mapping):
        letters = sorted(map(str, value))
        if letters != list(LETTERS):
            raise AutomaInputError(f"priorities: give exactly A, B, C and D, not {letters}")
        value = [value[ch] for ch in LETTERS]
    if isinstance(value, str) or len(value) != len(LETTERS):
        raise AutomaInputError("priorities: give four locations, for A, B, C and D")
    found = tuple(_location(v, f"priorities.{ch}") for ch, v in zip(LETTERS, value, strict=True))
    if len(set(found)) != len(LETTERS):
        raise AutomaInputError("priorities: each location holds exactly one priority card")
    return found


def _location(value: Any, where: str) -> Location:
    try:
        return Location(value)
    except ValueError:
        names = ", ".join(loc.value for loc in LOCATIONS)
        raise AutomaInputError(f"{where}: {value!r} is not a location ({names})") from None


def automa_setup(
    rng: random.Random,
    *,
    level: int = 2,
    priorities: Mapping[str, Any] | Sequence[Any] | None = None,
    variant: bool = False,
    deck: Sequence[AutomaCard] | None = None,
    parity: Parity | None = None,
) -> AutomaSetup:
    """Her setup: shuffle her deck and set 4 aside; priorities given or shuffled."""
    defs = check_deck(deck) if deck is not None else default_deck()
    order = [c.id for c in defs]
    rng.shuffle(order)
    where = parse_priorities(priorities) if priorities is not None else tuple(
        rng.sample(LOCATIONS, len(LOCATIONS)))
    found = AutomaSetup(level, where, tuple(order[ASIDE:]), tuple(order[:ASIDE]), defs,
                        variant, parity)
    _check_setup(found)
    return found


def new_solo_game(
    name: str,
    rng: random.Random,
    *,
    level: int = 2,
    house: House | None = None,
    priorities: Mapping[str, Any] | Sequence[Any] | None = None,
    variant: bool = False,
    deck: Sequence[AutomaCard] | None = None,
) -> Setup:
    """Deal a simulated solo game, you against Au Toma; all chance comes from ``rng``.

    >>> event = new_solo_game("Ann", random.Random(1), level=3)
    >>> event.total_cards, len(event.hands[1]), len(event.automa.deck), event.automa.level
    (107, 2, 18, 3)
    """
    her = automa_setup(rng, level=level, priorities=priorities, variant=variant, deck=deck)
    seats = (seat_specs([name], rng, [house])[0], SeatSpec(AUTOMA_NAME, None, automa=True))
    pool = list(solo_card_ids(variant))
    total = len(pool)
    rng.shuffle(pool)
    locations = tuple(tuple(pool.pop() for _ in range(FACE_UP_PER_LOCATION)) for _ in LOCATIONS)
    hands = (tuple(pool.pop() for _ in range(starting_hand_size(seats[0].house))),
             tuple(pool.pop() for _ in range(HAND_SIZE)))
    return Setup(seats=seats, locations=locations, hands=hands, unknown=(0, 0),
                 deck=tuple(reversed(pool)), deck_count=len(pool),
                 first_player=first_player(seats, rng), neutral_influence=NEUTRAL_INFLUENCE,
                 total_cards=total, automa=her)


def tracked_solo_game(
    name: str,
    house: House | None,
    locations: Sequence[Sequence[str | None]],
    *,
    first: int,
    automa: AutomaSetup,
    variants: Sequence[str] = (),
) -> Setup:
    """Start tracking a physical solo game; her deck comes from :func:`automa_setup`.

    Give ``automa.parity`` when the eight setup cards are not all identified yet;
    ``variants`` are further game options (:data:`engine.rulings.SELF_BANISH_ALONE`).
    """
    unknown = (starting_hand_size(house), HAND_SIZE)
    total = len(solo_card_ids(automa.variant))
    on_table = sum(len(stack) for stack in locations)
    return Setup(seats=(SeatSpec(name, house), SeatSpec(AUTOMA_NAME, None, automa=True)),
                 locations=tuple(tuple(s) for s in locations), hands=((), ()), unknown=unknown,
                 deck=None, deck_count=total - on_table - sum(unknown), first_player=first,
                 neutral_influence=NEUTRAL_INFLUENCE, total_cards=total, automa=automa,
                 variants=tuple(variants))


def setup_solo(draft: Draft, event: Setup) -> None:
    """Apply Au Toma's part of a Setup event (nothing for a game without her).

    :raises IllegalActionError: for a solo setup that breaks her rules.
    """
    seats = [i for i, seat in enumerate(event.seats) if seat.automa]
    her = event.automa
    if her is None and not seats:
        return
    if her is None or len(seats) != 1 or len(event.seats) != 2:
        raise _bad("a solo game is one player and one Au Toma seat, with her setup")
    _check_setup(her)
    _check_solo_deal(event, seats[0], her.variant)
    parity = her.parity or _setup_parity(event.locations)
    _put(draft, AutomaState(seats[0], her.level, parity, her.priorities,
                            luna_icon(her.priorities), check_deck(her.cards), her.deck,
                            her.aside, variant=her.variant))
    if her.variant:
        draft.variants = draft.variants | {VARIANT}


def _bad(message: str) -> IllegalActionError:
    return IllegalActionError(message, rule="solo-setup")


def _check_setup(her: AutomaSetup) -> None:
    if her.level not in LEVELS:
        raise _bad(f"Au Toma's level is 1 to 6, not {her.level}")
    if sorted(her.priorities) != sorted(LOCATIONS) or len(her.priorities) != len(LETTERS):
        raise _bad("the priority cards A–D go one on each location")
    if her.parity is not None and her.parity not in PARITIES:
        raise _bad(f"the odd/even card shows 'odd' or 'even', not {her.parity!r}")
    ids = sorted(c.id for c in her.cards)
    if sorted(her.deck + her.aside) != ids or len(her.aside) != ASIDE:
        raise _bad(f"her deck and the {ASIDE} cards set aside must be her cards, once each")


def _check_solo_deal(event: Setup, seat: int, variant: bool) -> None:
    if len(event.hands[seat]) + event.unknown[seat] != HAND_SIZE:
        raise _bad(f"Au Toma starts with {HAND_SIZE} cards")
    total = len(solo_card_ids(variant))
    if event.total_cards != total:
        raise _bad(f"a solo game uses {total} character cards, not {event.total_cards}")
    seen = {c for stack in event.locations for c in stack}
    seen |= {c for hand in event.hands for c in hand} | set(event.deck or ())
    out = [c for c in removed_cards(variant) if c in seen]
    if out:
        raise _bad(f"{out[0]} is left out of a solo game")


def _setup_parity(locations: Sequence[Sequence[str | None]]) -> Parity:
    found = [c for stack in locations for c in stack]
    if any(c is None for c in found):
        raise _bad("name the setup cards on the locations, or give the odd/even card")
    return parity_of(cards.CARDS[c].core for c in found if c is not None)


def state_of(draft: Draft | GameState) -> AutomaState:
    """Au Toma's state in a draft or a state.

    :raises IllegalActionError: in a game without her.
    """
    found: AutomaState | None = draft.__dict__.get("automa")
    if found is None:
        raise IllegalActionError("this game has no Au Toma", rule="automa")
    return found


def _put(draft: Draft, value: AutomaState) -> None:
    # Draft copies every GameState field into its __dict__ and freezes them back.
    draft.__dict__["automa"] = value


# --- what she does with a card ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Situation:
    """What her choices depend on: priorities, stack sizes, her tokens, the deck."""

    priorities: tuple[Location, ...]  # A, B, C, D
    counts: tuple[int, ...]  # cards on each location, board order
    helium: int = 0
    influence: int = 0
    fleet: int = 0
    deck_count: int | None = None  # None: not known, taken to hold enough cards

    @classmethod
    def of(cls, state: GameState) -> Situation:
        """The situation in a game with Au Toma."""
        her = state_of(state)
        p = state.players[her.seat]
        return cls(her.priorities, tuple(len(s) for s in state.locations), p.helium,
                   p.influence, p.fleet, state.deck_count)

    @classmethod
    def from_json(cls, data: Any) -> Situation:
        """Read ``companion automa resolve``'s STATE.json (a contract: docs/automa.md).

        :raises AutomaInputError: naming the field at fault.
        """
        try:
            STATE_FILE.check(data)
        except SchemaError as exc:
            raise AutomaInputError(str(exc) if exc.path else f"the state {exc.problem}") from None
        her = data["automa"]
        return cls(parse_priorities(data["priorities"]),
                   tuple(data["locations"][loc.value] for loc in LOCATIONS),
                   her["helium"], her["influence"], her["fleet"])


# ``companion automa resolve``'s STATE.json (docs/automa.md); other fields are let through.
STATE_FILE = Record({
    "priorities": Field(Record(open=True)),  # its letters: parse_priorities
    "locations": Field(Record({loc.value: Field(Integer(0)) for loc in LOCATIONS}, open=True)),
    "automa": Field(Record({
        "helium": Field(Integer(0)),
        "influence": Field(Integer(0, INFLUENCE_TOKENS)),
        "fleet": Field(Integer(0, FLEET_MAX)),
        "sovereign": Field(Boolean(), required=False),
    }, open=True)),
}, open=True)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What she does with one card."""

    card: int
    deploy: Location | None  # None: the character deck is empty
    gain: Location | None  # None: every location is empty
    bonus: tuple[Bonus, ...]
    banish: bool  # the character deck's top card is banished

    def to_json(self) -> dict[str, Any]:
        """The ``companion automa resolve --json`` object (a contract)."""
        return {
            "card": self.card,
            "deploy": self.deploy.value if self.deploy else None,
            "gain": self.gain.value if self.gain else None,
            "bonus": [b.value for b in self.bonus],
            "banish_top_of_deck": self.banish,
        }


def place_of(section: str, priorities: Sequence[Location]) -> Location:
    """The location a card section names: an icon, or a letter's priority card."""
    if section in LETTERS:
        return priorities[LETTERS.index(section)]
    return Location(section)


def gain_source(start: Location, arrow: int, counts: Sequence[int]) -> Location | None:
    """Where she gains from: ``start``, or the next location along the arrow that has
    cards, wrapping round (the solo rules never let her gain from an empty location);
    None when every location is empty.

    >>> gain_source(Location.JUPITER, -1, (0, 1, 0, 0))
    <Location.MARS: 'mars'>
    """
    loc = start
    for _ in LOCATIONS:
        if counts[loc.pos]:
            return loc
        loc = loc.step(arrow)
    return None


def capped(helium: int, influence: int, fleet: int) -> frozenset[Bonus]:
    """The bonuses she already has 10 of (Helium counts for her, §13.7)."""
    found = set()
    if helium >= CAP:
        found.add(Bonus.HELIUM)
    if influence >= INFLUENCE_TOKENS:
        found.add(Bonus.INFLUENCE)
    if fleet >= FLEET_MAX:
        found.add(Bonus.FLEET)
    return frozenset(found)


def bonus_plan(source: Location, arrow: int, luna_card: Location,
               full: frozenset[Bonus]) -> tuple[Bonus, ...]:
    """The bonuses she collects for ``source``'s bonus, in order.

    Luna gives the Sovereign plus the Luna bonus card's location bonus (§13.6). A bonus
    she has 10 of is replaced by the next location's along the arrow (§13.7); Luna is
    never capped, so that always ends. A Luna card bonus whose substitute is Luna
    again gives nothing more: she has already taken the Sovereign.

    >>> bonus_plan(Location.LUNA, 1, Location.JUPITER, frozenset({Bonus.FLEET}))
    (<Bonus.SOVEREIGN: 'sovereign'>, <Bonus.HELIUM: 'helium'>)
    """
    first = _uncapped(source, arrow, full)
    if first is not Location.LUNA:
        return (first.bonus,)
    second = _uncapped(luna_card, arrow, full)
    return (Bonus.SOVEREIGN,) if second is Location.LUNA else (Bonus.SOVEREIGN, second.bonus)


def _uncapped(loc: Location, arrow: int, full: frozenset[Bonus]) -> Location:
    while loc.bonus in full:
        loc = loc.step(arrow)
    return loc


def outcome(where: Situation, card: AutomaCard) -> Outcome:
    """Everything she does with ``card`` in ``where``, without changing anything."""
    deck = where.deck_count
    deploy = None if deck == 0 else place_of(card.deploy, where.priorities)
    counts = list(where.counts)
    if deploy is not None:
        counts[deploy.pos] += 1
        deck = None if deck is None else deck - 1
    gain = gain_source(place_of(card.gain, where.priorities), card.arrow, counts)
    bonus: tuple[Bonus, ...] = ()
    if card.extra == Extra.BONUS and gain is not None:
        full = capped(where.helium, where.influence, where.fleet)
        bonus = bonus_plan(gain, card.arrow, luna_icon(where.priorities), full)
    banish = card.extra == Extra.BANISH and deck != 0
    return Outcome(card.id, deploy, gain, bonus, banish)


# --- what the table is told ----------------------------------------------------------


class Instruction(NamedTuple):
    """One step for the people at the table, and the observation that confirms it."""

    text: str
    expect: Event | None = None  # None: nothing physical changes

    @property
    def camera(self) -> bool:
        """True when the camera can see this step happen (a card moves on the table)."""
        return isinstance(self.expect, (Place, AutomaGain))


_TOKEN_TEXT = {
    Bonus.HELIUM: "give her 1 Helium",
    Bonus.FLEET: "move her ship 1 space up the Fleet Track",
    Bonus.INFLUENCE: "put 1 of her Influence on the Institute",
    Bonus.SOVEREIGN: "give her the Sovereign token",
}


def deploy_text(name: str, location: Location) -> str:
    """The deploy instruction."""
    return f"{name}: put the top card of the deck on {location.label}"


def gain_text(name: str, location: Location) -> str:
    """The gain instruction."""
    return f"{name}: take the top card of {location.label}, face down on top of her hand"


def token_text(name: str, bonus: Bonus) -> str:
    """The instruction for one bonus token (or a step on the Fleet Track)."""
    return f"{name}: {_TOKEN_TEXT[bonus]}"


def banish_text(name: str) -> str:
    """The banish instruction."""
    return f"{name}: banish the top card of the deck"


def outcome_steps(done: Outcome, name: str = AUTOMA_NAME, *,
             has_sovereign: bool = False) -> list[Instruction]:
    """The steps of an outcome as instructions, in order."""
    out = [Instruction(f"{name} plays card {done.card}")]
    if done.deploy is None:
        out.append(Instruction(f"{name} cannot deploy: the deck is empty"))
    else:
        out.append(Instruction(deploy_text(name, done.deploy), place_event(done.deploy, None)))
    if done.gain is None:
        out.append(Instruction(f"{name} gains nothing: every location is empty"))
    else:
        out.append(Instruction(gain_text(name, done.gain), GAINS[done.gain]))
    for bonus in done.bonus:
        if bonus is Bonus.SOVEREIGN and has_sovereign:
            out.append(Instruction(f"{name} keeps the Sovereign token"))
        else:
            out.append(Instruction(token_text(name, bonus), TOKENS[bonus]))
    if done.banish:
        out.append(Instruction(banish_text(name), BANISH))
    return out


def instructions(state: GameState, card: int) -> list[Instruction]:
    """What the table must do, step by step, when she resolves ``card`` now."""
    her = state_of(state)
    done = outcome(Situation.of(state), her.card(card))
    name = state.players[her.seat].name
    return outcome_steps(done, name, has_sovereign=state.sovereign == her.seat)


# --- confirmations while tracking (registered events) --------------------------------


@dataclass(frozen=True, slots=True)
class AutomaGain(Event):
    """The table put the top card of ``location`` on top of Au Toma's hand."""

    location: Location


@dataclass(frozen=True, slots=True)
class AutomaToken(Event):
    """The table gave Au Toma this bonus's token (or moved her ship)."""

    bonus: Bonus


@dataclass(frozen=True, slots=True)
class AutomaBanish(Event):
    """The table banished the deck's top card for Au Toma; ``card`` names it."""

    card: str | None = None


for _cls in (AutomaGain, AutomaToken, AutomaBanish):
    events.register(_cls)

GAINS = {loc: AutomaGain(loc) for loc in LOCATIONS}
TOKENS = {bonus: AutomaToken(bonus) for bonus in Bonus}
BANISH = AutomaBanish()
_PICKS = {i: Choose(str(i)) for i in range(1, DECK_SIZE + 1)}


# --- her turn --------------------------------------------------------------------------

STEP_BY_STEP = "automa-step-by-step"  # variant: confirm her steps in a simulated game too


def confirms_steps(draft: Draft) -> bool:
    """Does each of her physical steps wait for the table to confirm it?

    Always while tracking a physical game; in a simulation only with the
    ``STEP_BY_STEP`` variant (the demo and scripted games, which show each step).
    """
    return draft.hidden or STEP_BY_STEP in draft.variants



@step("automa-turn")
def automa_turn(draft: Draft, s: Step) -> None:
    """Her turn: two cards, one after the other, then the turn ends."""
    p = s.player
    draft.push(Step("automa-card", p), Step("automa-card", p), Step("end-turn", p))


@step("automa-card")
def turn_over(draft: Draft, s: Step) -> None:
    """Turn over her next card (shuffling first when her deck is empty) and resolve it."""
    her = state_of(draft)
    if not her.deck:
        draft.push(Step("automa-shuffle", s.player, data=((),)), s)
        return
    card = her.deck[0]
    _put(draft, evolve(her, deck=her.deck[1:], current=card))
    draft.note(ChangeKind.AUTOMA_CARD, player=s.player, card=str(card))
    p, data = s.player, (card,)
    draft.push(Step("automa-deploy", p, data=data), Step("automa-gain", p, data=data),
               Step("automa-discard", p, data=data))


@step("automa-shuffle")
def shuffle(draft: Draft, s: Step) -> None:
    """Shuffle all her cards as chance picks of the new order; the rest go aside."""
    her = state_of(draft)
    picked: tuple[int, ...] = s.data[0]
    left = [c.id for c in her.cards if c.id not in picked]
    if len(left) == ASIDE:
        _put(draft, evolve(her, deck=picked, aside=tuple(left), discards=()))
        draft.note(ChangeKind.AUTOMA_SHUFFLE, player=s.player)
        return
    size = len(her.cards) - ASIDE
    draft.ask(None, Kind.RANDOM, f"Shuffle Au Toma's deck: card {len(picked) + 1} of {size}",
              [_PICKS[i] for i in left], s.then("automa-shuffle-pick"))


@answer("automa-shuffle-pick")
def on_shuffle_pick(draft: Draft, s: Step, event: Event) -> None:
    assert isinstance(event, Choose) and event.value is not None
    draft.push(s.then("automa-shuffle", (*s.data[0], int(event.value))))


def _card(draft: Draft, s: Step) -> tuple[AutomaState, AutomaCard, str]:
    her = state_of(draft)
    return her, her.card(int(s.data[0])), draft.players[s.player].name


@step("automa-deploy")
def deploy(draft: Draft, s: Step) -> None:
    """Deploy: the character deck's top card to the section's location (no ability)."""
    her, card, name = _card(draft, s)
    if draft.deck_count == 0:
        draft.note(ChangeKind.AUTOMA_SKIP, player=s.player, source="deck")  # the solo rules do not
        # cover an empty deck: she skips the deploy, and her gain still happens
        return
    where = place_of(card.deploy, her.priorities)
    draft.reveal_from_deck()
    if confirms_steps(draft):
        draft.ask(s.player, Kind.CONFIRM, deploy_text(name, where), (place_event(where, None),),
                  s.then("automa-placed"))
        return
    draft.place_revealed(where)


@answer("automa-placed")
def on_placed(draft: Draft, s: Step, event: Event) -> None:
    assert isinstance(event, Place)
    draft.place_revealed(event.location, event.card)


@step("automa-gain")
def gain(draft: Draft, s: Step) -> None:
    """Gain: the top card of the gain location, or the next one along the arrow."""
    her, card, name = _card(draft, s)
    counts = [len(draft.stack_at(loc)) for loc in LOCATIONS]
    source = gain_source(place_of(card.gain, her.priorities), card.arrow, counts)
    then = s.then("automa-extra", card.id, source)
    if source is None:
        draft.push(then)
    elif confirms_steps(draft):
        draft.ask(s.player, Kind.CONFIRM, gain_text(name, source), (GAINS[source],),
                  s.then("automa-gained", card.id, source))
    else:
        draft.gain_from(s.player, source)
        draft.push(then)


@answer("automa-gained")
def on_gained(draft: Draft, s: Step, event: Event) -> None:
    assert isinstance(event, AutomaGain)
    draft.gain_from(s.player, event.location)
    draft.push(s.then("automa-extra"))


@step("automa-extra")
def extra(draft: Draft, s: Step) -> None:
    """Extras: the bonus of the location she gained from, or banish the deck's top card."""
    her, card, _ = _card(draft, s)
    source: Location | None = s.data[1]
    if card.extra == Extra.BANISH:
        _ask_banish(draft, s)
    elif card.extra == Extra.BONUS and source is not None:
        p = draft.players[s.player]
        full = capped(p.helium, p.influence, p.fleet)
        plan = bonus_plan(source, card.arrow, her.luna_icon, full)
        draft.push(*(s.then("automa-bonus", bonus) for bonus in plan))


@step("automa-bonus")
def collect(draft: Draft, s: Step) -> None:
    """One bonus: the Sovereign (the holder may block), or a token."""
    bonus: Bonus = s.data[0]
    p = s.player
    if bonus is Bonus.SOVEREIGN:
        held = draft.sovereign == p
        if confirms_steps(draft) and not held:
            draft.push(Step("sovereign", p), s.then("automa-sovereign-seen"))
        else:
            draft.push(Step("sovereign", p))
    elif confirms_steps(draft):
        name = draft.players[p].name
        draft.ask(p, Kind.CONFIRM, token_text(name, bonus), (TOKENS[bonus],),
                  s.then("automa-token"))
    else:
        draft.gain_bonus(p, bonus)


@answer("automa-token")
def on_token(draft: Draft, s: Step, event: Event) -> None:
    draft.gain_bonus(s.player, s.data[0])


@step("automa-sovereign-seen")
def sovereign_seen(draft: Draft, s: Step) -> None:
    """While tracking: once no block stopped her, the table hands her the token."""
    if draft.sovereign == s.player:
        name = draft.players[s.player].name
        draft.ask(s.player, Kind.CONFIRM, token_text(name, Bonus.SOVEREIGN),
                  (TOKENS[Bonus.SOVEREIGN],), s.then("automa-confirmed"))


@answer("automa-confirmed")
def on_confirmed(draft: Draft, s: Step, event: Event) -> None:
    """The engine already made the change; the table has now made it too."""


def _ask_banish(draft: Draft, s: Step) -> None:
    if draft.deck_count == 0:
        draft.note(ChangeKind.AUTOMA_SKIP, player=s.player, source="deck")
    elif confirms_steps(draft):
        name = draft.players[s.player].name
        draft.ask(s.player, Kind.CONFIRM, banish_text(name), (BANISH,), s.then("automa-banish"))
    else:
        banish_top_of_deck(draft)


@answer("automa-banish")
def on_banish(draft: Draft, s: Step, event: Event) -> None:
    assert isinstance(event, AutomaBanish)
    banish_top_of_deck(draft, event.card)


def banish_top_of_deck(draft: Draft, named: str | None = None) -> str:
    """Banish the character deck's top card; while tracking, ``named`` says which it was.

    :raises IllegalActionError: for a tracked card that is unnamed or already elsewhere.
    """
    top = draft.reveal_from_deck()
    draft.revealed.pop()
    card = top if top is not None else named
    if card is None:
        raise IllegalActionError("name the card Au Toma banished from the deck", rule="banish")
    if top is None and draft.is_known_elsewhere(cards.check_id(card)):
        raise IllegalActionError(f"{card} is already somewhere else", rule="one-copy")
    draft.banished.append(card)
    draft.note(ChangeKind.BANISH, card=card, source="deck")
    return card


@step("automa-discard")
def discard(draft: Draft, s: Step) -> None:
    """Her resolved card goes face up on her discard pile."""
    her = state_of(draft)
    _put(draft, evolve(her, discards=(*her.discards, int(s.data[0])), current=None))


# --- player abilities against her --------------------------------------------------------


def bottom_card(hand: Hand) -> str | None:
    """The card a steal or forced banish takes: the bottom of her stack (§13.3).

    None while the bottom card is one nobody has seen (tracking: her two setup cards).
    """
    if hand.unknown or not hand.known:
        return None
    return hand.known[0]


def top_of_hand(hand: Hand, count: int = LOOK) -> tuple[str, ...]:
    """The top ``count`` known cards of her stack, bottom first (Eo, Roque: variant)."""
    return hand.known[-count:] if count else ()


def eo_reveals_red(hand: Hand) -> bool:
    """Eo (variant): she "has" a Red if one is among the top 6 of her stack."""
    return any(cards.CARDS[c].color is Color.RED for c in top_of_hand(hand))


def psychologist_hand_size(cards_held: int) -> int:
    """Psychologist (variant): her hand counts as a third of its cards, rounded down,
    in the "fewest cards" comparison, worked out before the cut to 20.

    >>> psychologist_hand_size(20)
    6
    """
    return cards_held // 3
