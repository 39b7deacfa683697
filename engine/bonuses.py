"""Every character card's bonus clauses (the laurels at the bottom), one function each.

A clause is a function ``(hand, me) -> points``: ``hand`` is a :class:`ScoredHand`, one
assignment of Orange names and Gray castes laid over a player's cards plus the table
facts the clauses read (:class:`Facts`); ``me`` is the index of the clause's own card.
Each function's docstring is the project's own summary of the printed clause.

Words as the rulebook's scoring section uses them, with the readings of
:mod:`engine.rulings` (``with_means_other_cards``, ``gray_double_count``,
``only_with_accepts_gray_extra``) at their defaults:

* "with X" looks at the *other* cards in hand (a card that says it counts itself, or
  "your cards", includes itself);
* a card has its printed caste plus, for a Gray, the extra caste chosen for it; a name
  is the printed one or, for an Orange, the name it borrowed;
* "on all locations" counts the face-up cards on the four stacks, "banished" the pile.

The ``up`` metadata of each clause lists the castes and names whose presence among the
other cards can *raise* its points; scoring tries only those for Grays and Oranges.

>>> hand = ScoredHand.of(("janitor", "dataport-specialist", "holo-designer", "cyther"))
>>> clause_points(hand, 0)  # two Greens with the Janitor; Cyther is an Orange
10
>>> clause_points(ScoredHand.of(("cassius", "mustang", "cyther"), renamed={"cyther": "darrow"}), 0)
40
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TypeVar

from engine.cards import CARDS, Color
from engine.rulings import Rulings

C = Color
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Facts:
    """What a player's clauses read besides the hand: their tokens, rivals, board, pile."""

    helium: int = 0
    influence: int = 0
    fleet: int = 0
    sovereign: bool = False
    rival_helium: tuple[int, ...] = ()
    rival_fleet: tuple[int, ...] = ()
    rival_influence: tuple[int, ...] = ()  # opponents (and the neutral house, ruling 1)
    board: Mapping[Color, int] = field(default_factory=lambda: MappingProxyType({}))
    open_location: bool = False  # a location is empty or its top card lies face down
    top_values: tuple[int, ...] = ()  # core values Developer may take
    banished: int = 0
    banished_colors: Mapping[Color, int] = field(default_factory=lambda: MappingProxyType({}))


def tally(groups: Iterable[Iterable[T]]) -> dict[T, int]:
    """How many groups hold each item."""
    out: dict[T, int] = {}
    for group in groups:
        for item in group:
            out[item] = out.get(item, 0) + 1
    return out


def _count(items: Iterable[T]) -> dict[T, int]:
    """How many times each item occurs (``tally`` of one-item groups, without the groups:
    scoring builds a hand per end-of-game option)."""
    out: dict[T, int] = {}
    for item in items:
        out[item] = out.get(item, 0) + 1
    return out


class ScoredHand:
    """One player's cards under one assignment of Orange names and Gray castes."""

    __slots__ = ("colors", "count", "facts", "held", "ids", "names", "own", "rulings")

    def __init__(self, ids: tuple[str, ...], colors: list[frozenset[Color]],
                 names: list[str], facts: Facts, rulings: Rulings, *,
                 count: dict[Color, int] | None = None,
                 held: dict[str, int] | None = None) -> None:
        """``count``/``held`` may be passed when the caller already tallied them."""
        self.ids = ids
        self.colors = colors
        self.names = names
        self.facts = facts
        self.rulings = rulings
        # A card's own caste/name is discounted from "with" tests (ruling 9).
        self.own = 1 if rulings.with_means_other_cards else 0
        self.count = tally(colors) if count is None else count
        self.held = _count(names) if held is None else held

    @classmethod
    def of(cls, ids: Iterable[str], facts: Facts | None = None, rulings: Rulings | None = None,
           *, extra: Mapping[str, Color] | None = None,
           renamed: Mapping[str, str] | None = None) -> ScoredHand:
        """A hand from card ids, with optional Gray castes and Orange names (for tests)."""
        ids = tuple(ids)
        extra, renamed = extra or {}, renamed or {}
        colors = [PRINTED[i] | ({extra[i]} if i in extra else frozenset()) for i in ids]
        names = [renamed.get(i, i) for i in ids]
        return cls(ids, colors, names, facts or Facts(), rulings or Rulings())

    # -- castes ----------------------------------------------------------------------
    def others(self, me: int, color: Color) -> int:
        """How many other cards have this caste."""
        return self.count.get(color, 0) - (self.own if color in self.colors[me] else 0)

    def has(self, me: int, *colors: Color) -> bool:
        """With at least one other card of any of these castes."""
        return any(self.others(me, c) > 0 for c in colors)

    def other_cards(self, me: int) -> Iterable[int]:
        """Indexes of the cards "with" looks at."""
        return (j for j in range(len(self.ids)) if j != me or not self.own)

    def each(self, me: int, colors: frozenset[Color], *, itself: bool = False) -> int:
        """The count for "for each X and Y": a two-caste Gray counts once (ruling 4)."""
        skip = -1 if itself or not self.own else me
        if self.rulings.gray_double_count:
            return sum(len(cs & colors) for j, cs in enumerate(self.colors) if j != skip)
        return sum(1 for j, cs in enumerate(self.colors) if j != skip and cs & colors)

    def only(self, me: int, allowed: frozenset[Color]) -> bool:
        """Every other card is of an allowed caste (a Gray through its extra, ruling 5)."""
        via_extra = self.rulings.only_with_accepts_gray_extra
        for j in self.other_cards(me):
            castes = self.colors[j] if via_extra else PRINTED[self.ids[j]]
            if not castes & allowed:
                return False
        return True

    # -- names -----------------------------------------------------------------------
    def named(self, me: int, name: str) -> bool:
        """With another card of this name (an Orange may have borrowed it)."""
        return self.held.get(name, 0) - (self.own if self.names[me] == name else 0) > 0

    def any_named(self, me: int, *names: str) -> bool:
        return any(self.named(me, n) for n in names)

    def cores(self, me: int) -> Iterable[int]:
        """The core values of the cards "with" looks at."""
        return (CARDS[self.ids[j]].core for j in self.other_cards(me))


Points = Callable[[ScoredHand, int], int]


@dataclass(frozen=True, slots=True)
class Clause:
    """One printed bonus clause of one card."""

    card: str
    text: str
    points: Points
    colors_up: frozenset[Color] = frozenset()
    names_up: frozenset[str] = frozenset()
    names_down: frozenset[str] = frozenset()  # names it reads that can only lower it
    colors_down: frozenset[Color] = frozenset()  # castes it reads that can only lower it
    any_color: bool = False  # every caste can raise it (Mustang)
    all_colors: bool = False  # it reads every caste (Mustang, 4D Painter)
    letters: bool = False  # reads the first letters of names (Codebreaker)
    penalty: bool = False  # printed as lost points (Artisan Chef ignores these on Golds)
    # It only gives back points other clauses lose (Artisan Chef), so what it reads can
    # raise it but never the hand's total: nothing it reads is worth choosing for it.
    offsets: bool = False

    # Derived once: every caste / name listed, and whether a choice can change it at all.
    colors_read: frozenset[Color] = field(init=False)
    names_read: frozenset[str] = field(init=False)
    reads_colors: bool = field(init=False)
    reads_names: bool = field(init=False)

    def __post_init__(self) -> None:
        derived = {
            "colors_read": self.colors_up | self.colors_down,
            "names_read": self.names_up | self.names_down,
            "reads_colors": bool(self.colors_up or self.colors_down or self.all_colors),
            "reads_names": bool(self.names_up or self.names_down or self.letters),
        }
        for name, value in derived.items():
            object.__setattr__(self, name, value)  # a frozen dataclass sets fields this way


PRINTED: dict[str, frozenset[Color]] = {cid: frozenset({c.color}) for cid, c in CARDS.items()}
_REGISTRY: dict[str, list[Clause]] = {cid: [] for cid in CARDS}


def _clause(card: str, *, up: Iterable[Color] = (), down: Iterable[Color] = (),
            names: Iterable[str] = (), not_names: Iterable[str] = (),
            any_color: bool = False, all_colors: bool = False, letters: bool = False,
            penalty: bool = False) -> Callable[[Points], Points]:
    """Register the decorated function as the card's next printed clause.

    ``up``/``names``: castes/names on other cards that can raise it; ``down``/
    ``not_names``: ones it reads that can only lower it.
    """
    def register(fn: Points) -> Points:
        text = (fn.__doc__ or "").strip()
        _REGISTRY[card].append(Clause(
            card, text, fn, colors_up=frozenset(up), names_up=frozenset(names),
            names_down=frozenset(not_names), colors_down=frozenset(down),
            any_color=any_color, all_colors=all_colors or any_color, letters=letters,
            penalty=penalty))
        return fn
    return register


def _set(*colors: Color) -> frozenset[Color]:
    return frozenset(colors)


# ---- the cards, alphabetically -------------------------------------------------------

@_clause("4d-painter", all_colors=True)
def _painter(h: ScoredHand, me: int) -> int:
    """31 if no two of your cards share a caste (printed castes, ruling 6)."""
    if h.rulings.painter_printed_colors:
        return 31 if len({CARDS[i].color for i in h.ids}) == len(h.ids) else 0
    return 31 if sum(len(cs) for cs in h.colors) == len(h.count) else 0


@_clause("administrator")
def _administrator(h: ScoredHand, me: int) -> int:
    """15 if nobody has less Influence on the Institute than you."""
    return 15 if all(h.facts.influence <= v for v in h.facts.rival_influence) else 0


@_clause("aegis-craftsman", up=[C.GOLD])
def _aegis_gold(h: ScoredHand, me: int) -> int:
    """10 with a Gold."""
    return 10 if h.has(me, C.GOLD) else 0


@_clause("aegis-craftsman", down=[C.OBSIDIAN])
def _aegis_no_obsidian(h: ScoredHand, me: int) -> int:
    """10 with no Obsidian."""
    return 0 if h.has(me, C.OBSIDIAN) else 10


@_clause("aja", names=["octavia"])
def _aja(h: ScoredHand, me: int) -> int:
    """15 with Octavia."""
    return 15 if h.named(me, "octavia") else 0


@_clause("alfrun", names=["nero"])
def _alfrun_nero(h: ScoredHand, me: int) -> int:
    """10 with Nero."""
    return 10 if h.named(me, "nero") else 0


@_clause("alfrun", names=["jopho"])
def _alfrun_jopho(h: ScoredHand, me: int) -> int:
    """10 with Jopho."""
    return 10 if h.named(me, "jopho") else 0


_ALIA = _set(C.GOLD, C.GRAY, C.OBSIDIAN)


@_clause("alia-snowsparrow", up=_ALIA)
def _alia(h: ScoredHand, me: int) -> int:
    """24 if every other card is a Gold, Gray or Obsidian."""
    return 24 if h.only(me, _ALIA) else 0


@_clause("antonia", up=[C.GOLD], names=["the-jackal"])
def _antonia(h: ScoredHand, me: int) -> int:
    """15 with The Jackal, or with two other Golds."""
    return 15 if h.named(me, "the-jackal") or _other_golds(h, me) >= 2 else 0


def _other_golds(h: ScoredHand, me: int) -> int:
    """Golds other than this card, whatever the "with" ruling says ("other Golds")."""
    return h.count.get(C.GOLD, 0) - (C.GOLD in h.colors[me])


@_clause("antonia", not_names=["victra", "sevro"], penalty=True)
def _antonia_penalty(h: ScoredHand, me: int) -> int:
    """−10 with Victra or Sevro."""
    return -10 if h.any_named(me, "victra", "sevro") else 0


@_clause("arlus", down=[C.GOLD])
def _arlus(h: ScoredHand, me: int) -> int:
    """25 with no Gold."""
    return 0 if h.has(me, C.GOLD) else 25


@_clause("artificer", up=[C.ORANGE, C.GOLD])
def _artificer(h: ScoredHand, me: int) -> int:
    """20 with another Orange and a Gold."""
    others_orange = h.count.get(C.ORANGE, 0) - (C.ORANGE in h.colors[me])
    return 20 if others_orange > 0 and h.has(me, C.GOLD) else 0


@_clause("artisan-chef", up=[C.GOLD])
def _chef_golds(h: ScoredHand, me: int) -> int:
    """5 for each Gold."""
    return 5 * h.each(me, _set(C.GOLD))


@_clause("artisan-chef")  # what it reads is filled in by _chef_reads below
def _chef_ignores(h: ScoredHand, me: int) -> int:
    """Every point lost to a penalty clause printed on a Gold in the hand, given back."""
    back = 0
    for j, cid in enumerate(h.ids):
        if j == me:
            continue
        if CARDS[cid].color is C.GOLD or (cid == "sefi" and h.rulings.artisan_chef_covers_sefi):
            back += _ignored(h, j, cid)
    return back


def _ignored(h: ScoredHand, j: int, cid: str) -> int:
    """The points Artisan Chef gives back for one card's penalties (ruling 3)."""
    clauses = CLAUSES[cid]
    if h.rulings.artisan_chef_per_clause or cid == "sefi":
        return -sum(min(0, cl.points(h, j)) for cl in clauses if cl.penalty)
    return max(0, -sum(cl.points(h, j) for cl in clauses))


@_clause("ash-lord", up=[C.BLUE])
def _ash_lord_blue(h: ScoredHand, me: int) -> int:
    """5 for each Blue."""
    return 5 * h.each(me, _set(C.BLUE))


@_clause("ash-lord")
def _ash_lord_banished(h: ScoredHand, me: int) -> int:
    """5 for each banished Blue."""
    return 5 * h.facts.banished_colors.get(C.BLUE, 0)


@_clause("assassin", up=[C.OBSIDIAN])
def _assassin(h: ScoredHand, me: int) -> int:
    """10 for each Obsidian."""
    return 10 * h.each(me, _set(C.OBSIDIAN))


@_clause("bondilus")
def _bondilus_sovereign(h: ScoredHand, me: int) -> int:
    """5 if you hold the Sovereign token."""
    return 5 if h.facts.sovereign else 0


@_clause("bondilus", up=[C.GOLD])
def _bondilus_gold(h: ScoredHand, me: int) -> int:
    """5 with a Gold."""
    return 5 if h.has(me, C.GOLD) else 0


@_clause("boneriders", up=[C.GRAY], names=["the-jackal"])
def _boneriders(h: ScoredHand, me: int) -> int:
    """15 with The Jackal or a Gray."""
    return 15 if h.named(me, "the-jackal") or h.has(me, C.GRAY) else 0


def _board(h: ScoredHand, *colors: Color) -> int:
    """Face-up cards of these castes on the four locations."""
    return sum(h.facts.board.get(c, 0) for c in colors)


@_clause("bridge")
def _bridge(h: ScoredHand, me: int) -> int:
    """5 for each Pink and each Violet on the locations."""
    return 5 * _board(h, C.PINK, C.VIOLET)


@_clause("calliope", names=["the-jackal"])
def _calliope(h: ScoredHand, me: int) -> int:
    """20 with The Jackal."""
    return 20 if h.named(me, "the-jackal") else 0


@_clause("cassius", names=["mustang", "darrow"])
def _cassius_both(h: ScoredHand, me: int) -> int:
    """40 with both Mustang and Darrow."""
    return 40 if h.named(me, "mustang") and h.named(me, "darrow") else 0


@_clause("cassius", names=["mustang"], not_names=["darrow"], penalty=True)
def _cassius_penalty(h: ScoredHand, me: int) -> int:
    """−20 with Darrow but without Mustang."""
    return -20 if h.named(me, "darrow") and not h.named(me, "mustang") else 0


@_clause("ceo")
def _ceo(h: ScoredHand, me: int) -> int:
    """18 with 5 or more Helium."""
    return 18 if h.facts.helium >= 5 else 0


INITIALS: dict[str, tuple[str, str]] = {}  # id → (literal first character, first letter)


def _initials(name: str) -> tuple[str, str]:
    lowered = name.lower()
    stripped = lowered[4:] if lowered.startswith("the ") else lowered
    letter = next((ch for ch in stripped if ch.isalpha()), stripped[:1])
    return lowered[:1], letter


INITIALS.update({cid: _initials(card.name) for cid, card in CARDS.items()})


def initial(cid: str, rulings: Rulings) -> str:
    """The character Codebreaker reads for a name (ruling 7)."""
    return INITIALS[cid][0 if rulings.codebreaker_literal_first_character else 1]


@_clause("codebreaker", letters=True)
def _codebreaker(h: ScoredHand, me: int) -> int:
    """22 if the names of your cards all start with different characters."""
    k = 0 if h.rulings.codebreaker_literal_first_character else 1
    firsts = {INITIALS[n][k] for n in h.names}
    return 22 if len(firsts) == len(h.names) else 0


@_clause("colonel-valentin")
def _valentin(h: ScoredHand, me: int) -> int:
    """5 for each Gold on the locations."""
    return 5 * _board(h, C.GOLD)


@_clause("conversationalist", up=[C.WHITE])
def _conversationalist(h: ScoredHand, me: int) -> int:
    """15 with a White."""
    return 15 if h.has(me, C.WHITE) else 0


@_clause("cyther", up=[C.BLUE])
def _cyther(h: ScoredHand, me: int) -> int:
    """16 with a Blue."""
    return 16 if h.has(me, C.BLUE) else 0


@_clause("dancer", down=[C.GRAY])
def _dancer_no_gray(h: ScoredHand, me: int) -> int:
    """11 with no Gray."""
    return 0 if h.has(me, C.GRAY) else 11


@_clause("dancer", down=[C.GOLD])
def _dancer_no_gold(h: ScoredHand, me: int) -> int:
    """11 with no Gold."""
    return 0 if h.has(me, C.GOLD) else 11


@_clause("danto")
def _danto(h: ScoredHand, me: int) -> int:
    """5 for each Copper and each White on the locations."""
    return 5 * _board(h, C.COPPER, C.WHITE)


@_clause("darrow")
def _darrow(h: ScoredHand, me: int) -> int:
    """30 if you hold 7 or more cards, Darrow included."""
    return 30 if len(h.ids) >= 7 else 0


@_clause("dataport-specialist", up=[C.BLUE])
def _dataport(h: ScoredHand, me: int) -> int:
    """26 with a Blue."""
    return 26 if h.has(me, C.BLUE) else 0


@_clause("deanna", up=[C.RED])
def _deanna(h: ScoredHand, me: int) -> int:
    """26 with another Red."""
    return 26 if h.count.get(C.RED, 0) - (C.RED in h.colors[me]) > 0 else 0


@_clause("developer")
def _developer(h: ScoredHand, me: int) -> int:
    """The core value of the top card of the location you pick (the best one)."""
    return max(h.facts.top_values, default=0)


@_clause("diplomat")
def _diplomat(h: ScoredHand, me: int) -> int:
    """19 if an opponent has exactly as much Influence on the Institute as you."""
    return 19 if h.facts.influence in h.facts.rival_influence else 0


@_clause("eo", up=[C.RED])
def _eo_reds(h: ScoredHand, me: int) -> int:
    """10 for each other Red."""
    return 10 * (h.count.get(C.RED, 0) - (C.RED in h.colors[me]))


@_clause("eo", penalty=True)
def _eo_gray(h: ScoredHand, me: int) -> int:
    """−10 with a Gray other than the real Bridge."""
    hit = any(C.GRAY in PRINTED[h.ids[j]] and h.ids[j] != "bridge" for j in h.other_cards(me))
    return -10 if hit else 0


@_clause("evey", names=["darrow"])
def _evey_darrow(h: ScoredHand, me: int) -> int:
    """15 with Darrow."""
    return 15 if h.named(me, "darrow") else 0


@_clause("evey", not_names=["mickey-the-carver"], penalty=True)
def _evey_mickey(h: ScoredHand, me: int) -> int:
    """−15 with Mickey the Carver."""
    return -15 if h.named(me, "mickey-the-carver") else 0


@_clause("firewall-expert")
def _firewall(h: ScoredHand, me: int) -> int:
    """22 if a location is empty or has a face-down top card."""
    return 22 if h.facts.open_location else 0


@_clause("fitchner", up=[C.RED])
def _fitchner_red(h: ScoredHand, me: int) -> int:
    """10 with a Red."""
    return 10 if h.has(me, C.RED) else 0


@_clause("fitchner", names=["sevro"])
def _fitchner_sevro(h: ScoredHand, me: int) -> int:
    """10 with Sevro."""
    return 10 if h.named(me, "sevro") else 0


@_clause("garden-trained-rose", up=[C.SILVER])
def _rose(h: ScoredHand, me: int) -> int:
    """14 with a Silver."""
    return 14 if h.has(me, C.SILVER) else 0


@_clause("gardener", up=[C.VIOLET, C.PINK])
def _gardener(h: ScoredHand, me: int) -> int:
    """5 for each Violet and each Pink."""
    return 5 * h.each(me, _set(C.VIOLET, C.PINK))


@_clause("gravboot-cobbler", up=[C.GOLD, C.GRAY])
def _gravboot(h: ScoredHand, me: int) -> int:
    """14 with a Gold or a Gray."""
    return 14 if h.has(me, C.GOLD, C.GRAY) else 0


@_clause("group-counselor", penalty=True)
def _counselor(h: ScoredHand, me: int) -> int:
    """−1 for each banished card."""
    return -h.facts.banished


_HARMONY = _set(C.RED, C.PINK, C.BROWN, C.OBSIDIAN)


@_clause("harmony", up=_HARMONY)
def _harmony(h: ScoredHand, me: int) -> int:
    """33 if every other card is a Red, Pink, Brown or Obsidian."""
    return 33 if h.only(me, _HARMONY) else 0


_PAXES = ("pax-au-telemanus", "the-pax")


@_clause("helga", names=_PAXES)
def _helga(h: ScoredHand, me: int) -> int:
    """16 with Pax au Telemanus or The Pax."""
    return 16 if h.any_named(me, *_PAXES) else 0


@_clause("holiday")
def _holiday(h: ScoredHand, me: int) -> int:
    """5 for each Orange and each Blue on the locations."""
    return 5 * _board(h, C.ORANGE, C.BLUE)


@_clause("holo-designer", up=[C.VIOLET])
def _holo_designer(h: ScoredHand, me: int) -> int:
    """28 with a Violet."""
    return 28 if h.has(me, C.VIOLET) else 0


def _most_influence(h: ScoredHand) -> bool:
    return all(h.facts.influence >= v for v in h.facts.rival_influence)


@_clause("holo-host")
def _holo_host(h: ScoredHand, me: int) -> int:
    """18 if nobody has more Influence on the Institute than you."""
    return 18 if _most_influence(h) else 0


@_clause("invictus")
def _invictus_most(h: ScoredHand, me: int) -> int:
    """16 if nobody is further on the Fleet Track than you."""
    return 16 if all(h.facts.fleet >= v for v in h.facts.rival_fleet) else 0


@_clause("invictus", penalty=True)
def _invictus_behind(h: ScoredHand, me: int) -> int:
    """−9 if an opponent is further on the Fleet Track than you."""
    return -9 if any(v > h.facts.fleet for v in h.facts.rival_fleet) else 0


_JANITOR = _set(C.GREEN, C.YELLOW, C.BLUE)


@_clause("janitor", up=_JANITOR)
def _janitor(h: ScoredHand, me: int) -> int:
    """5 for each Green, Yellow and Blue."""
    return 5 * h.each(me, _JANITOR)


@_clause("jopho", names=["alfrun"])
def _jopho_alfrun(h: ScoredHand, me: int) -> int:
    """10 with Alfrun."""
    return 10 if h.named(me, "alfrun") else 0


@_clause("jopho", names=["nero"])
def _jopho_nero(h: ScoredHand, me: int) -> int:
    """10 with Nero."""
    return 10 if h.named(me, "nero") else 0


@_clause("judge")
def _judge(h: ScoredHand, me: int) -> int:
    """3 for each card in your hand, the Judge included."""
    return 3 * len(h.ids)


@_clause("karnus", names=["cassius"])
def _karnus_cassius(h: ScoredHand, me: int) -> int:
    """30 with Cassius."""
    return 30 if h.named(me, "cassius") else 0


@_clause("karnus", not_names=["mustang", "the-jackal", "nero"], penalty=True)
def _karnus_penalty(h: ScoredHand, me: int) -> int:
    """−15 with Mustang, The Jackal or Nero."""
    return -15 if h.any_named(me, "mustang", "the-jackal", "nero") else 0


@_clause("lawyer", up=[C.WHITE])
def _lawyer_white(h: ScoredHand, me: int) -> int:
    """12 with a White other than the Judge."""
    hit = any(C.WHITE in h.colors[j] and h.ids[j] != "judge" for j in h.other_cards(me))
    return 12 if hit else 0


@_clause("lawyer", names=["judge"])
def _lawyer_judge(h: ScoredHand, me: int) -> int:
    """22 with the Judge."""
    return 22 if h.named(me, "judge") else 0


@_clause("loan-shark")
def _loan_shark(h: ScoredHand, me: int) -> int:
    """7 if you hold 7 or more cards."""
    return 7 if len(h.ids) >= 7 else 0


@_clause("lorn", down=[C.GOLD])
def _lorn(h: ScoredHand, me: int) -> int:
    """15 with no other Gold."""
    return 0 if _other_golds(h, me) else 15


@_clause("lysander", names=["octavia", "cassius"])
def _lysander(h: ScoredHand, me: int) -> int:
    """20 if you hold the Sovereign token, Octavia or Cassius."""
    return 20 if h.facts.sovereign or h.any_named(me, "octavia", "cassius") else 0


@_clause("magistrate")
def _magistrate(h: ScoredHand, me: int) -> int:
    """15 with at least 3 Helium, 3 Influence on the Institute and Fleet position 3."""
    f = h.facts
    return 15 if f.helium >= 3 and f.influence >= 3 and f.fleet >= 3 else 0


@_clause("masseuse", up=[C.COPPER])
def _masseuse(h: ScoredHand, me: int) -> int:
    """16 with a Copper."""
    return 16 if h.has(me, C.COPPER) else 0


@_clause("matteo", up=[C.PINK], names=["quicksilver"])
def _matteo(h: ScoredHand, me: int) -> int:
    """17 with another Pink or Quicksilver."""
    return 17 if h.has(me, C.PINK) or h.named(me, "quicksilver") else 0


_COOK = _set(C.GRAY, C.ORANGE)


@_clause("mess-hall-cook", up=_COOK)
def _cook(h: ScoredHand, me: int) -> int:
    """5 for each Gray and Orange."""
    return 5 * h.each(me, _COOK)


@_clause("mickey-the-carver")
def _mickey_banished(h: ScoredHand, me: int) -> int:
    """10 if a Red is banished."""
    return 10 if h.facts.banished_colors.get(C.RED, 0) else 0


@_clause("mickey-the-carver", up=[C.GOLD])
def _mickey_gold(h: ScoredHand, me: int) -> int:
    """10 with a Gold."""
    return 10 if h.has(me, C.GOLD) else 0


_MODJOB = _set(C.RED, C.BROWN)


@_clause("modjob", up=_MODJOB)
def _modjob(h: ScoredHand, me: int) -> int:
    """5 for each Red and Brown, Modjob included."""
    return 5 * h.each(me, _MODJOB, itself=True)


@_clause("morning-star", names=["orion", "virga", "pelus"], penalty=True)
def _morning_star(h: ScoredHand, me: int) -> int:
    """−15 unless with Orion, Virga or Pelus."""
    return 0 if h.any_named(me, "orion", "virga", "pelus") else -15


@_clause("musician")
def _musician(h: ScoredHand, me: int) -> int:
    """32 if every card in your hand has an even core value."""
    return 32 if all(CARDS[i].core % 2 == 0 for i in h.ids) else 0


@_clause("mustang", any_color=True)
def _mustang(h: ScoredHand, me: int) -> int:
    """5 for each different caste in your hand, Mustang's own included."""
    if h.rulings.gray_double_count:
        return 5 * len(h.count)
    return 5 * distinct_castes(h)


def distinct_castes(h: ScoredHand) -> int:
    """Castes in hand when each card shows one of its castes (best case, ruling 4)."""
    printed = {CARDS[i].color for i in h.ids if CARDS[i].color is not C.GRAY}
    grays = [cs for i, cs in zip(h.ids, h.colors, strict=True) if CARDS[i].color is C.GRAY]
    spare = set().union(*grays) - printed if grays else set()
    # Each Gray can show Gray or its extra caste; all Grays share Gray, so as many
    # Grays as there are spare castes can each show a different one.
    return len(printed) + min(len(grays), len(spare))


_NANNY = _set(C.SILVER, C.WHITE, C.COPPER)


@_clause("nanny", up=_NANNY)
def _nanny(h: ScoredHand, me: int) -> int:
    """5 for each Silver, White and Copper."""
    return 5 * h.each(me, _NANNY)


@_clause("nero")
def _nero_sovereign(h: ScoredHand, me: int) -> int:
    """10 if you hold the Sovereign token."""
    return 10 if h.facts.sovereign else 0


@_clause("nero", not_names=["cassius", "karnus", "octavia"], penalty=True)
def _nero_penalty(h: ScoredHand, me: int) -> int:
    """−5 for each of Cassius, Karnus and Octavia you hold."""
    return -5 * sum(h.named(me, n) for n in ("cassius", "karnus", "octavia"))


@_clause("octavia", names=["lysander"], penalty=True)
def _octavia(h: ScoredHand, me: int) -> int:
    """−30 unless you hold the Sovereign token or Lysander."""
    return 0 if h.facts.sovereign or h.named(me, "lysander") else -30


@_clause("orator")
def _orator(h: ScoredHand, me: int) -> int:
    """21 if you do not hold the Sovereign token."""
    return 0 if h.facts.sovereign else 21


@_clause("orion", names=_PAXES)
def _orion_pax(h: ScoredHand, me: int) -> int:
    """10 with Pax au Telemanus or The Pax."""
    return 10 if h.any_named(me, *_PAXES) else 0


@_clause("orion")
def _orion_fleet(h: ScoredHand, me: int) -> int:
    """Your Fleet Track position (0–10) in points."""
    return h.facts.fleet


@_clause("pathologist")
def _pathologist_some(h: ScoredHand, me: int) -> int:
    """10 if 5 to 9 cards are banished."""
    return 10 if 5 <= h.facts.banished <= 9 else 0


@_clause("pathologist")
def _pathologist_many(h: ScoredHand, me: int) -> int:
    """25 if 10 or more cards are banished."""
    return 25 if h.facts.banished >= 10 else 0


@_clause("pax-au-telemanus", up=[C.OBSIDIAN], names=["mustang"])
def _pax(h: ScoredHand, me: int) -> int:
    """20 with an Obsidian or Mustang."""
    return 20 if h.has(me, C.OBSIDIAN) or h.named(me, "mustang") else 0


@_clause("pelus")
def _pelus_mid(h: ScoredHand, me: int) -> int:
    """20 at Fleet position 5 to 7."""
    return 20 if 5 <= h.facts.fleet <= 7 else 0


@_clause("pelus")
def _pelus_far(h: ScoredHand, me: int) -> int:
    """35 at Fleet position 8 to 10."""
    return 35 if h.facts.fleet >= 8 else 0


@_clause("politician")
def _politician(h: ScoredHand, me: int) -> int:
    """15 if nobody has more Influence on the Institute than you."""
    return 15 if _most_influence(h) else 0


@_clause("priestess")
def _priestess(h: ScoredHand, me: int) -> int:
    """20 if every other card has a core value of 20 or more."""
    return 20 if all(v >= 20 for v in h.cores(me)) else 0


@_clause("pulse-armorer", up=[C.GRAY])
def _pulse_armorer(h: ScoredHand, me: int) -> int:
    """17 with a Gray."""
    return 17 if h.has(me, C.GRAY) else 0


@_clause("pulse-fist-engineer", up=[C.OBSIDIAN])
def _pulse_fist(h: ScoredHand, me: int) -> int:
    """18 with an Obsidian."""
    return 18 if h.has(me, C.OBSIDIAN) else 0


@_clause("quicksilver", penalty=True)
def _quicksilver(h: ScoredHand, me: int) -> int:
    """−30 if an opponent has more Helium than you."""
    return -30 if any(v > h.facts.helium for v in h.facts.rival_helium) else 0


@_clause("quietus")
def _quietus(h: ScoredHand, me: int) -> int:
    """16 if nobody has more Influence on the Institute than you."""
    return 16 if _most_influence(h) else 0


@_clause("ragnar", up=[C.ORANGE])
def _ragnar_orange(h: ScoredHand, me: int) -> int:
    """10 with an Orange."""
    return 10 if h.has(me, C.ORANGE) else 0


@_clause("ragnar", names=["sefi"])
def _ragnar_sefi(h: ScoredHand, me: int) -> int:
    """10 with Sefi."""
    return 10 if h.named(me, "sefi") else 0


@_clause("razor-designer", up=[C.GOLD], down=[C.OBSIDIAN])
def _razor(h: ScoredHand, me: int) -> int:
    """13 with a Gold and no Obsidian."""
    return 13 if h.has(me, C.GOLD) and not h.has(me, C.OBSIDIAN) else 0


@_clause("reporter")
def _reporter(h: ScoredHand, me: int) -> int:
    """29 if nobody has more Helium than you."""
    return 29 if all(h.facts.helium >= v for v in h.facts.rival_helium) else 0


@_clause("researcher")
def _researcher(h: ScoredHand, me: int) -> int:
    """17 if 4 or fewer cards are banished."""
    return 17 if h.facts.banished <= 4 else 0


@_clause("romulus")
def _romulus_sovereign(h: ScoredHand, me: int) -> int:
    """15 if you hold the Sovereign token."""
    return 15 if h.facts.sovereign else 0


@_clause("romulus", up=[C.BLUE], not_names=["roque", "octavia"], penalty=True)
def _romulus_penalty(h: ScoredHand, me: int) -> int:
    """−25 with Roque or Octavia, or without a Blue."""
    hit = h.any_named(me, "roque", "octavia") or not h.has(me, C.BLUE)
    return -25 if hit else 0


@_clause("roque", up=[C.BLUE])
def _roque(h: ScoredHand, me: int) -> int:
    """5 for each Blue."""
    return 5 * h.each(me, _set(C.BLUE))


@_clause("seer")
def _seer(h: ScoredHand, me: int) -> int:
    """11 if you hold the Sovereign token."""
    return 11 if h.facts.sovereign else 0


@_clause("sefi", names=["ragnar"])
def _sefi_ragnar(h: ScoredHand, me: int) -> int:
    """20 with Ragnar."""
    return 20 if h.named(me, "ragnar") else 0


@_clause("sefi", down=[C.GOLD], penalty=True)
def _sefi_golds(h: ScoredHand, me: int) -> int:
    """−5 for each Gold."""
    return -5 * h.each(me, _set(C.GOLD))


@_clause("sevro", up=[C.RED], names=["victra", "the-howlers"])
def _sevro(h: ScoredHand, me: int) -> int:
    """20 with Victra, The Howlers or a Red."""
    return 20 if h.any_named(me, "victra", "the-howlers") or h.has(me, C.RED) else 0


@_clause("sponsor")
def _sponsor(h: ScoredHand, me: int) -> int:
    """2 for each of your Influence tokens on the Institute."""
    return 2 * h.facts.influence


@_clause("stained", down=[C.OBSIDIAN])
def _stained(h: ScoredHand, me: int) -> int:
    """15 if no other card in your hand is an Obsidian."""
    return 0 if h.count.get(C.OBSIDIAN, 0) - (C.OBSIDIAN in h.colors[me]) else 15


@_clause("stock-broker")
def _stock_broker(h: ScoredHand, me: int) -> int:
    """5 for each Helium, at most 25."""
    return min(25, 5 * h.facts.helium)


@_clause("sun-hwa")
def _sun_hwa(h: ScoredHand, me: int) -> int:
    """5 for each Obsidian and each Green on the locations."""
    return 5 * _board(h, C.OBSIDIAN, C.GREEN)


@_clause("surgeon", up=[C.GOLD])
def _surgeon(h: ScoredHand, me: int) -> int:
    """5 for each Gold."""
    return 5 * h.each(me, _set(C.GOLD))


@_clause("tactus", up=[C.PINK], names=["octavia", "darrow"])
def _tactus(h: ScoredHand, me: int) -> int:
    """20 with Octavia, Darrow or a Pink."""
    return 20 if h.any_named(me, "octavia", "darrow") or h.has(me, C.PINK) else 0


@_clause("the-howlers", names=["sevro"])
def _howlers(h: ScoredHand, me: int) -> int:
    """15 with Sevro."""
    return 15 if h.named(me, "sevro") else 0


@_clause("the-jackal")
def _jackal_sovereign(h: ScoredHand, me: int) -> int:
    """30 if you hold the Sovereign token."""
    return 30 if h.facts.sovereign else 0


@_clause("the-jackal", not_names=["darrow", "octavia"], penalty=True)
def _jackal_penalty(h: ScoredHand, me: int) -> int:
    """−30 with Darrow or Octavia."""
    return -30 if h.any_named(me, "darrow", "octavia") else 0


_PAX_FRIENDS = ("darrow", "sevro", "orion", "virga", "pelus")


@_clause("the-pax", names=_PAX_FRIENDS)
def _the_pax(h: ScoredHand, me: int) -> int:
    """15 with Darrow, Sevro, Orion, Virga or Pelus."""
    return 15 if h.any_named(me, *_PAX_FRIENDS) else 0


@_clause("the-telemanuses", names=_PAXES)
def _telemanuses(h: ScoredHand, me: int) -> int:
    """15 with Pax au Telemanus or The Pax."""
    return 15 if h.any_named(me, *_PAXES) else 0


@_clause("theodora", up=[C.GOLD, C.RED])
def _theodora(h: ScoredHand, me: int) -> int:
    """14 with a Gold or a Red, but not with both."""
    return 14 if h.has(me, C.GOLD) != h.has(me, C.RED) else 0


@_clause("timony")
def _timony(h: ScoredHand, me: int) -> int:
    """3 for each of your Influence tokens on the Institute."""
    return 3 * h.facts.influence


@_clause("trigg")
def _trigg(h: ScoredHand, me: int) -> int:
    """5 for each Gray and each Yellow on the locations."""
    return 5 * _board(h, C.GRAY, C.YELLOW)


@_clause("ugly-dan")
def _ugly_dan(h: ScoredHand, me: int) -> int:
    """5 for each Red and each Brown on the locations."""
    return 5 * _board(h, C.RED, C.BROWN)


@_clause("uncle-narol")
def _narol(h: ScoredHand, me: int) -> int:
    """40 if every other card has a core value of 10 or less."""
    return 40 if all(v <= 10 for v in h.cores(me)) else 0


@_clause("victra", names=["the-howlers"])
def _victra_howlers(h: ScoredHand, me: int) -> int:
    """10 with The Howlers."""
    return 10 if h.named(me, "the-howlers") else 0


@_clause("victra", names=["sevro", "darrow"])
def _victra_sevro(h: ScoredHand, me: int) -> int:
    """10 with Sevro or Darrow."""
    return 10 if h.any_named(me, "sevro", "darrow") else 0


@_clause("virga")
def _virga_mid(h: ScoredHand, me: int) -> int:
    """15 at Fleet position 6 to 8."""
    return 15 if 6 <= h.facts.fleet <= 8 else 0


@_clause("virga")
def _virga_far(h: ScoredHand, me: int) -> int:
    """30 at Fleet position 9 or 10."""
    return 30 if h.facts.fleet >= 9 else 0


@_clause("vlogger")
def _vlogger(h: ScoredHand, me: int) -> int:
    """23 if nobody is further on the Fleet Track than you."""
    return 23 if all(h.facts.fleet >= v for v in h.facts.rival_fleet) else 0


@_clause("zanzibar")
def _zanzibar(h: ScoredHand, me: int) -> int:
    """31 if every card in your hand has an odd core value."""
    return 31 if all(CARDS[i].core % 2 == 1 for i in h.ids) else 0


def _chef_reads() -> None:
    """Artisan Chef's give-back reads whatever the Golds' (and Sefi's) clauses read."""
    read = [cl for cid, cls in _REGISTRY.items() for cl in cls
            if CARDS[cid].color is C.GOLD or cid == "sefi"]
    names = frozenset().union(*(cl.names_up | cl.names_down for cl in read))
    colors = frozenset().union(*(cl.colors_up | cl.colors_down for cl in read))
    chef = _REGISTRY["artisan-chef"]
    chef[1] = replace(chef[1], names_down=names, colors_down=colors, offsets=True)


_chef_reads()
CLAUSES: dict[str, tuple[Clause, ...]] = {cid: tuple(cl) for cid, cl in _REGISTRY.items()}
"""Card id → its printed bonus clauses, in printed order (empty for ten cards)."""


def clause_points(hand: ScoredHand, me: int) -> int:
    """The bonus points of the card at index ``me``: the sum of its clauses."""
    return sum(cl.points(hand, me) for cl in CLAUSES[hand.ids[me]])
