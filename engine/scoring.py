"""Final scoring, step by step as on the paper scorepad.

Rows per player: end-of-game abilities (points they scored directly, e.g. Hacker),
character cards (core values, then every bonus clause), Fleet, Helium, Sovereign,
Influence, excess cards. Orange names and Gray castes that the table did not declare
are chosen to maximise the player's total (an exact search over the names and castes
the hand's clauses can use) and reported. Au Toma scores 70 plus her hand by parity.

>>> from engine.table import Seat, Table
>>> sheet = score(Table(seats=(
...     Seat("Ann", ("janitor", "dataport-specialist", "cyther", "holiday"),
...          helium=2, influence=10, fleet=3, sovereign=True),
...     Seat("Bob", ("eo", "deanna"), influence=5),
... ), neutral_influence=3))
>>> [(p.name, p.cards_core, p.cards_bonus, p.influence, p.total) for p in sheet.players]
[('Ann', 48, 52, 40, 162), ('Bob', 19, 36, 10, 65)]
>>> sheet.players[0].choices_json()
{'cyther': {'name': 'cyther'}, 'holiday': {'color': 'blue'}}
>>> sheet.winners
('Ann',)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from functools import lru_cache
from itertools import combinations, combinations_with_replacement
from types import MappingProxyType

from engine.automa_state import Parity
from engine.board import Location
from engine.bonuses import CLAUSES, INITIALS, PRINTED, Clause, Facts, ScoredHand, initial
from engine.cards import CARDS, Color
from engine.rulings import Rulings, summary
from engine.table import Choice, Seat, Table

FLEET_POINTS = (0, 1, 3, 6, 10, 15, 21, 28, 34, 39, 43)
HELIUM_POINTS = 3
SOVEREIGN_POINTS = 10
INFLUENCE_RATES = (4, 2, 1)  # per token: top distinct value, next, all lower ones
HAND_LIMIT = 7
EXCESS_PENALTY = 10
AUTOMA_BASE = 70
AUTOMA_HAND_LIMIT = 20
# Au Toma's points per matching / non-matching card by difficulty level 1-6 (the solo
# rules' difficulty table; her base of 70 stays the same at every level).
AUTOMA_RATES = {1: (5, 2), 2: (6, 3), 3: (8, 4), 4: (10, 5), 5: (12, 6), 6: (14, 7)}


class ScoreStep(StrEnum):
    """The scorepad's rows, in order; the values are the ``--json`` keys."""

    END_OF_GAME = "end_of_game"
    CARDS_CORE = "cards_core"
    CARDS_BONUS = "cards_bonus"
    FLEET = "fleet"
    HELIUM = "helium"
    SOVEREIGNTY = "sovereignty"
    INFLUENCE = "influence"
    EXCESS_CARDS = "excess_cards"


@dataclass(frozen=True, slots=True)
class Row:
    """One scorepad step for one player, with the lines that explain it."""

    step: ScoreStep
    points: int
    lines: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RulingNote:
    """A setting that decided part of a player's score."""

    setting: str
    value: object
    alternative: object
    difference: int  # the player's total under ``value`` minus under ``alternative``

    def text(self) -> str:
        sign = "+" if self.difference > 0 else ""
        return (f"{self.setting}={self.value} ({summary(self.setting)}): {sign}"
                f"{self.difference} points compared with {self.setting}={self.alternative}")


@dataclass(frozen=True, slots=True)
class PlayerScore:
    """A player's column of the scorepad."""

    name: str
    rows: tuple[Row, ...]
    choices: tuple[Choice, ...] = ()  # every Orange's name and Gray's caste used
    picked: frozenset[str] = frozenset()  # cards whose choice the engine made
    rulings: tuple[RulingNote, ...] = ()

    def points(self, step: ScoreStep) -> int:
        return next((r.points for r in self.rows if r.step is step), 0)

    @property
    def end_of_game(self) -> int:
        return self.points(ScoreStep.END_OF_GAME)

    @property
    def cards_core(self) -> int:
        return self.points(ScoreStep.CARDS_CORE)

    @property
    def cards_bonus(self) -> int:
        return self.points(ScoreStep.CARDS_BONUS)

    @property
    def fleet(self) -> int:
        return self.points(ScoreStep.FLEET)

    @property
    def helium(self) -> int:
        return self.points(ScoreStep.HELIUM)

    @property
    def sovereignty(self) -> int:
        return self.points(ScoreStep.SOVEREIGNTY)

    @property
    def influence(self) -> int:
        return self.points(ScoreStep.INFLUENCE)

    @property
    def excess_cards(self) -> int:
        return self.points(ScoreStep.EXCESS_CARDS)

    @property
    def total(self) -> int:
        return sum(r.points for r in self.rows)

    def choices_json(self) -> dict[str, dict[str, str | None]]:
        """Choices as in the input file: ``{card: {"name": id}}`` / ``{card: {"color": c}}``."""
        out: dict[str, dict[str, str | None]] = {}
        for ch in self.choices:
            if CARDS[ch.card].color is Color.ORANGE:
                out[ch.card] = {"name": ch.name or ch.card}
            else:
                out[ch.card] = {"color": ch.color.value if ch.color else None}
        return out


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """The finished scorepad: a column per player, the winners."""

    players: tuple[PlayerScore, ...]
    winners: tuple[str, ...]
    by_sovereign: bool = False  # the lead was tied and the Sovereign broke the tie

    def player(self, name: str) -> PlayerScore:
        return next(p for p in self.players if p.name == name)

    def to_json(self) -> dict[str, object]:
        """The ``companion score --json`` object (contract keys)."""
        players = []
        for p in self.players:
            entry: dict[str, object] = {"name": p.name}
            entry.update({s.value: p.points(s) for s in ScoreStep
                          if s is not ScoreStep.END_OF_GAME})
            entry["total"] = p.total
            entry["choices"] = p.choices_json()
            players.append(entry)
        return {"players": players, "winners": list(self.winners)}


# ---- facts the clauses read -----------------------------------------------------------

@dataclass(frozen=True, slots=True)
class _Board:
    """The board and pile facts every seat shares under one set of rulings."""

    colors: MappingProxyType[Color, int]
    open_location: bool
    top_values: tuple[int, ...]
    banished: int
    banished_colors: MappingProxyType[Color, int]


def _board(table: Table, rulings: Rulings) -> _Board:
    return _Board(*_stack_facts(table, rulings), *_pile_facts(_pile(table, rulings)))


# The _Board fields read from the stacks, and those read from the pile.
_StackFacts = tuple[MappingProxyType[Color, int], bool, tuple[int, ...]]
_PileFacts = tuple[int, MappingProxyType[Color, int]]


def _stack_facts(table: Table, rulings: Rulings) -> _StackFacts:
    colors: dict[Color, int] = {}
    for stack in table.locations:
        for sc in stack:
            if sc.card is not None and not sc.face_down:
                color = CARDS[sc.card].color
                colors[color] = colors.get(color, 0) + 1
    tops = [stack[-1] for stack in table.locations if stack]
    open_location = len(tops) < len(Location) or any(sc.face_down for sc in tops)
    values = tuple(CARDS[sc.card].core for sc in tops if sc.card is not None
                   and (not sc.face_down or rulings.developer_face_down))
    return MappingProxyType(colors), open_location, values


def _pile_facts(pile: tuple[str, ...]) -> _PileFacts:
    banished_colors: dict[Color, int] = {}
    for cid in pile:
        banished_colors[CARDS[cid].color] = banished_colors.get(CARDS[cid].color, 0) + 1
    return len(pile), MappingProxyType(banished_colors)


def _pile(table: Table, rulings: Rulings) -> tuple[str, ...]:
    """The banished pile the clauses count (ruling 2)."""
    if not rulings.banished_counted_after_finale and table.banished_before_finale is not None:
        return table.banished_before_finale
    return table.banished


def seat_facts(table: Table, index: int, rulings: Rulings, board: _Board | None = None) -> Facts:
    """What seat ``index``'s clauses read besides its hand."""
    board = board or _board(table, rulings)
    seat = table.seats[index]
    rivals = [s for j, s in enumerate(table.seats) if j != index]
    influence = tuple(s.influence for s in rivals)
    if rulings.neutral_influence_in_conditions and table.neutral_influence:
        influence += (table.neutral_influence,)
    return Facts(
        helium=seat.helium, influence=seat.influence, fleet=seat.fleet,
        sovereign=seat.sovereign, rival_helium=tuple(s.helium for s in rivals),
        rival_fleet=tuple(s.fleet for s in rivals), rival_influence=influence,
        board=board.colors, open_location=board.open_location, top_values=board.top_values,
        banished=board.banished, banished_colors=board.banished_colors,
    )


# ---- the Orange / Gray search ---------------------------------------------------------

_CHOOSABLE = tuple(c for c in Color if c is not Color.GRAY)
_GRAY_AND: dict[Color, frozenset[Color]] = {c: frozenset({Color.GRAY, c}) for c in _CHOOSABLE}


@dataclass(frozen=True, slots=True)
class _Search:
    """What may vary in one hand: free Oranges and Grays, and what to try for them."""

    oranges: tuple[int, ...]
    grays: tuple[int, ...]
    names: tuple[str, ...]
    colors: tuple[Color, ...]
    symmetric: bool  # free Oranges are interchangeable (their own names matter to nobody)


@dataclass(frozen=True, slots=True)
class _Reads:
    """What one card's clauses, together, can use or read (precomputed per card)."""

    colors_up: frozenset[Color]
    colors_read: frozenset[Color]
    names_up: frozenset[str]
    names_read: frozenset[str]
    any_color: bool
    letters: bool


def _reads(cid: str) -> _Reads:
    cls = CLAUSES[cid]
    return _Reads(
        frozenset().union(*(cl.colors_up for cl in cls)),
        frozenset().union(*(cl.colors_up | cl.colors_down for cl in cls)),
        frozenset().union(*(cl.names_up for cl in cls)),
        frozenset().union(*(cl.names_up | cl.names_down for cl in cls)),
        any(cl.any_color for cl in cls), any(cl.letters for cl in cls))


_READS = {cid: _reads(cid) for cid in CARDS}


def _free(ids: tuple[str, ...], fixed: dict[str, Choice]) -> tuple[tuple[int, ...],
                                                                   tuple[int, ...]]:
    """Indexes of the Oranges and Grays whose choice is left to scoring."""
    oranges = tuple(j for j, c in enumerate(ids) if c in _ORANGES and c not in fixed)
    grays = tuple(j for j, c in enumerate(ids) if c in _GRAYS and c not in fixed)
    return oranges, grays


_ORANGES = frozenset(cid for cid, card in CARDS.items() if card.color is Color.ORANGE)
_GRAYS = frozenset(cid for cid, card in CARDS.items() if card.color is Color.GRAY)


def _search(ids: tuple[str, ...], names: list[str], oranges: tuple[int, ...],
            grays: tuple[int, ...], rulings: Rulings) -> _Search:
    reads = [_READS[c] for c in ids]
    letters = any(r.letters for r in reads)
    # Each half of the search is prepared only when its cards are free.
    names_tried: tuple[str, ...] = ()
    symmetric = not letters
    if oranges:
        names_tried, symmetric = _names_to_try(ids, names, oranges, reads, letters, rulings)
    castes = _castes_to_try(ids, grays, reads) if grays else ()
    return _Search(oranges, grays, names_tried, castes, symmetric)


def _names_to_try(ids: tuple[str, ...], names: list[str], oranges: tuple[int, ...],
                  reads: list[_Reads], letters: bool,
                  rulings: Rulings) -> tuple[tuple[str, ...], bool]:
    """The names worth giving the free Oranges, and whether those are interchangeable."""
    read: set[str] = set().union(*(r.names_read for r in reads))
    chosen: set[str] = set().union(*(r.names_up for r in reads))
    # A name a fixed card already bears adds nothing to "with" tests and only repeats
    # a first letter for Codebreaker (no card's clauses read its own name).
    chosen -= {n for j, n in enumerate(names) if j not in oranges}
    if letters:
        used = {initial(n, rulings) for j, n in enumerate(names) if j not in oranges}
        chosen |= _letter_stand_ins(read, used, rulings)
    symmetric = not letters and not any(ids[j] in read for j in oranges)
    # Letters before digits, so a stand-in name reads naturally when any will do.
    return tuple(sorted(chosen, key=lambda n: (not n[0].isalpha(), n))), symmetric


def _castes_to_try(ids: tuple[str, ...], grays: tuple[int, ...],
                   reads: list[_Reads]) -> tuple[Color, ...]:
    """The extra castes worth giving the free Grays, in caste order."""
    colors: set[Color] = set().union(*(r.colors_up for r in reads))
    if any(r.any_color for r in reads):
        read_colors = set().union(*(r.colors_read for r in reads))
        colors |= _caste_stand_ins(ids, read_colors, len(grays))
    return tuple(c for c in _CHOOSABLE if c in colors)


def _caste_stand_ins(ids: tuple[str, ...], read: set[Color], k: int) -> set[Color]:
    """Up to ``k`` castes that only Mustang cares about (new to the hand, read by nobody).

    They are interchangeable, so ``k`` of them (one per free Gray) are enough.
    """
    printed = {CARDS[c].color for c in ids}
    spare = [c for c in _CHOOSABLE if c not in printed and c not in read]
    return set(spare[:k])


def _letter_stand_ins(read: set[str], used: set[str], rulings: Rulings) -> set[str]:
    """One name per first character no fixed card uses and no clause reads (Codebreaker).

    Names that no clause reads differ only by their first character, so one of each is
    enough; a character a fixed card already uses can only break Codebreaker.
    """
    chosen: dict[str, str] = {}
    for cid in sorted(INITIALS):
        first = initial(cid, rulings)
        if cid not in read and first not in used:
            chosen.setdefault(first, cid)
    return set(chosen.values())


def _name_options(s: _Search) -> Iterator[tuple[str | None, ...]]:
    """Names for the free Oranges (None: keep its own), fewest renamings first.

    Two Oranges never take the same name (it adds nothing), and the renamed Oranges
    are interchangeable (only their new names count), so for each set of renamed
    Oranges the names are combinations, not permutations. When no clause reads an
    Orange's own name either, any one set of each size stands for all of them.
    """
    k = len(s.oranges)
    for renamed in range(min(k, len(s.names)) + 1):
        who_sets = [tuple(range(renamed))] if s.symmetric else combinations(range(k), renamed)
        for who in who_sets:
            for combo in combinations(s.names, renamed):
                pick: list[str | None] = [None] * k
                for i, name in zip(who, combo, strict=True):
                    pick[i] = name
                yield tuple(pick)


def _color_options(s: _Search) -> Iterator[tuple[Color | None, ...]]:
    """Castes for the free Grays; Grays are interchangeable, so multisets suffice."""
    yield from combinations_with_replacement((None, *s.colors), len(s.grays))


Plan = Sequence[tuple[Clause, int]]


class _Trials:
    """One hand whose free Oranges' names and Grays' castes are tried in place.

    A trial sets names/castes on the hand, is scored by difference (only clauses that
    read a changed name or caste are rerun against their current points), and is undone.
    """

    def __init__(self, ids: tuple[str, ...], names: list[str], colors: list[frozenset[Color]],
                 facts: Facts, rulings: Rulings, plan: Plan) -> None:
        self.ids, self.plan = ids, plan
        self.by_color: dict[Color, list[int]] = {}
        self.by_name: dict[str, list[int]] = {}
        for p, (cl, _) in enumerate(plan):
            for c in cl.colors_read:
                self.by_color.setdefault(c, []).append(p)
            for n in cl.names_read:
                self.by_name.setdefault(n, []).append(p)
        self.all_colors = [p for p, (cl, _) in enumerate(plan) if cl.all_colors]
        self.letters = [p for p, (cl, _) in enumerate(plan) if cl.letters]
        self.hand = ScoredHand(ids, colors, names, facts, rulings)
        self.settle()

    def settle(self, names: set[str] | None = None, colors: set[Color] | None = None) -> None:
        """Take the hand as it now stands as the reference for differences (after a change
        of these names and castes, or from scratch)."""
        hand, plan = self.hand, self.plan
        if names is None and colors is None:
            self.values = [cl.points(hand, j) for cl, j in plan]
        else:
            for p in self._touched(names or set(), colors or set()):
                self.values[p] = plan[p][0].points(hand, plan[p][1])
        self.total = sum(self.values)

    def _touched(self, names: set[str], colors: set[Color]) -> Iterable[int]:
        """The clauses that read any of these names or castes."""
        lists = [self.by_name[n] for n in names if n in self.by_name]
        lists += [self.by_color[c] for c in colors if c in self.by_color]
        if names and self.letters:
            lists.append(self.letters)
        if colors and self.all_colors:
            lists.append(self.all_colors)
        if len(lists) == 1:
            return lists[0]
        return set().union(*lists)

    def rename(self, oranges: tuple[int, ...], pick: Sequence[str | None],
               undo: bool = False) -> set[str]:
        """Give the Oranges these names (or take them back); the names that changed."""
        names, held = self.hand.names, self.hand.held
        changed: set[str] = set()
        for j, n in zip(oranges, pick, strict=True):
            if n is not None:
                old, new = (n, self.ids[j]) if undo else (self.ids[j], n)
                held[old] -= 1
                names[j] = new
                held[new] = held.get(new, 0) + 1
                changed.update((old, new))
        return changed

    def recolor(self, grays: tuple[int, ...], pick: Sequence[Color | None],
                undo: bool = False) -> set[Color]:
        """Give the Grays these extra castes (or take them back); the castes that changed."""
        colors, count = self.hand.colors, self.hand.count
        changed: set[Color] = set()
        for j, c in zip(grays, pick, strict=True):
            if c is not None:
                colors[j] = PRINTED[self.ids[j]] if undo else _GRAY_AND[c]
                count[c] = count.get(c, 0) + (-1 if undo else 1)
                changed.add(c)
        return changed

    def points(self, names: set[str], colors: set[Color]) -> int:
        """The total of the hand as it stands, given what changed since :meth:`settle`."""
        plan, values, hand = self.plan, self.values, self.hand
        return self.total + sum(plan[p][0].points(hand, plan[p][1]) - values[p]
                                for p in self._touched(names, colors))


def _best_names(t: _Trials, s: _Search) -> None:
    best: tuple[int, tuple[str | None, ...]] | None = None
    for pick in _name_options(s):
        points = t.points(t.rename(s.oranges, pick), set())
        t.rename(s.oranges, pick, undo=True)
        if best is None or points > best[0]:
            best = (points, pick)
    assert best is not None
    changed = t.rename(s.oranges, best[1])
    if changed:
        t.settle(changed, set())


def _best_colors(t: _Trials, s: _Search) -> None:
    best: tuple[int, tuple[Color | None, ...]] | None = None
    for pick in _color_options(s):
        points = t.points(set(), t.recolor(s.grays, pick))
        t.recolor(s.grays, pick, undo=True)
        if best is None or points > best[0]:
            best = (points, pick)
    assert best is not None
    changed = t.recolor(s.grays, best[1])
    if changed:
        t.settle(set(), changed)


def _best_jointly(t: _Trials, s: _Search) -> None:
    """Names and castes together, for hands where one clause reads both."""
    best: tuple[int, tuple[str | None, ...], tuple[Color | None, ...]] | None = None
    for names in _name_options(s):
        renamed = t.rename(s.oranges, names)
        for colors in _color_options(s):
            points = t.points(renamed, t.recolor(s.grays, colors))
            t.recolor(s.grays, colors, undo=True)
            if best is None or points > best[0]:
                best = (points, names, colors)
        t.rename(s.oranges, names, undo=True)
    assert best is not None
    t.settle(t.rename(s.oranges, best[1]), t.recolor(s.grays, best[2]))


def best_hand(seat: Seat, facts: Facts,
              rulings: Rulings) -> tuple[ScoredHand, list[int], frozenset[str]]:
    """The hand with the best Orange names and Gray castes, the points of each of its
    clauses (cards in hand order, clauses in printed order), and the cards picked.

    Declared choices (``seat.choices``) are kept. Names and castes are searched one
    after the other (their points simply add up) unless both kinds are free and some
    clause in the hand reads both, when they are searched together.
    """
    ids = seat.hand
    fixed = {c.card: c for c in seat.choices}
    if fixed:
        colors = [PRINTED[c] | _fixed_color(fixed.get(c)) for c in ids]
        names = [_fixed_name(fixed.get(c)) or c for c in ids]
    else:  # the usual case (nothing declared), without a lookup per card
        colors = [PRINTED[c] for c in ids]
        names = list(ids)
    oranges, grays = _free(ids, fixed)
    plan = [(cl, j) for j, c in enumerate(ids) for cl in CLAUSES[c]]
    if not oranges and not grays:
        hand = ScoredHand(ids, colors, names, facts, rulings)
        return hand, [cl.points(hand, j) for cl, j in plan], frozenset()
    s = _search(ids, names, oranges, grays, rulings)
    t = _Trials(ids, names, colors, facts, rulings, plan)
    if s.oranges and s.grays and any(cl.reads_colors and cl.reads_names for cl, _ in plan):
        _best_jointly(t, s)
    else:
        if s.oranges:
            _best_names(t, s)
        if s.grays:
            _best_colors(t, s)
    return t.hand, t.values, frozenset(ids[j] for j in oranges + grays)


def _fixed_color(choice: Choice | None) -> frozenset[Color]:
    return frozenset({choice.color}) if choice and choice.color else frozenset()


def _fixed_name(choice: Choice | None) -> str | None:
    return choice.name if choice else None


def _choices(hand: ScoredHand) -> tuple[Choice, ...]:
    """The names and castes a hand uses, for every Orange and Gray in it."""
    out = []
    for cid, castes, name in zip(hand.ids, hand.colors, hand.names, strict=True):
        printed = CARDS[cid].color
        if printed is Color.ORANGE:
            out.append(Choice(cid, name=name))
        elif printed is Color.GRAY:
            extra = next(iter(castes - {Color.GRAY}), None)
            out.append(Choice(cid, color=extra))
    return tuple(out)


# ---- rows -----------------------------------------------------------------------------

# Per card: its core-value text and, per clause, the text around the points.
_CORE_TEXT = {cid: f"{card.name} {card.core}" for cid, card in CARDS.items()}
_CLAUSE_TEXT = {cid: tuple((f"{CARDS[cid].name}: ", f" ({cl.text.rstrip('.')})")
                           for cl in clauses) for cid, clauses in CLAUSES.items()}


def _core(ids: Sequence[str]) -> int:
    return sum(CARDS[c].core for c in ids)


def _card_rows(hand: ScoredHand, values: Sequence[int]) -> tuple[Row, Row]:
    core = _core(hand.ids)
    core_line = ", ".join(_CORE_TEXT[c] for c in hand.ids)
    texts = [t for cid in hand.ids for t in _CLAUSE_TEXT[cid]]
    lines = tuple(f"{head}{pts:+d}{tail}" for (head, tail), pts in zip(texts, values,
                                                                        strict=True))
    return (Row(ScoreStep.CARDS_CORE, core, (core_line,) if core_line else ()),
            Row(ScoreStep.CARDS_BONUS, sum(values), lines))


def _automa_rows(seat: Seat) -> tuple[Row, Row]:
    assert seat.automa is not None
    want = 0 if seat.automa.parity == Parity.EVEN else 1
    matching = sum(1 for c in seat.hand if CARDS[c].core % 2 == want)
    other = len(seat.hand) - matching
    cut = max(0, len(seat.hand) - AUTOMA_HAND_LIMIT)
    drop_other = min(cut, other)  # her rules discard non-matching cards first
    kept_match, kept_other = matching - (cut - drop_other), other - drop_other
    rate_match, rate_other = AUTOMA_RATES[seat.automa.level]
    lines = [f"{kept_match} matching ({seat.automa.parity}) × {rate_match}, "
             f"{kept_other} non-matching × {rate_other}"]
    if cut:
        lines.append(f"hand cut from {len(seat.hand)} to {AUTOMA_HAND_LIMIT} cards first")
    return (Row(ScoreStep.CARDS_CORE, AUTOMA_BASE, ("Au Toma's base",)),
            Row(ScoreStep.CARDS_BONUS, kept_match * rate_match + kept_other * rate_other,
                tuple(lines)))


def influence_points(values: Sequence[int], neutral: int = 0) -> tuple[int, ...]:
    """4 / 2 / 1 per token by distinct rank; the neutral house ranks but never scores.

    >>> influence_points([10, 10, 5, 2])
    (40, 40, 10, 2)
    >>> influence_points([4, 2], neutral=3)
    (16, 2)
    """
    ranked = sorted(set(values) | ({neutral} if neutral else set()), reverse=True)
    last = len(INFLUENCE_RATES) - 1
    return tuple(v * INFLUENCE_RATES[min(ranked.index(v), last)] for v in values)


@lru_cache(maxsize=1024)
def _influence_points(values: tuple[int, ...], neutral: int) -> tuple[int, ...]:
    """:func:`influence_points`, remembered: ranking end-of-game options asks it about
    the same few token counts again and again (a pure function of small ints)."""
    return influence_points(values, neutral)


def _token_points(seat: Seat, influence: int) -> tuple[int, int, int, int, int]:
    """Fleet, Helium, Sovereignty, Influence and excess-card points, in scorepad order."""
    excess = 0 if seat.automa is not None else max(0, len(seat.hand) - HAND_LIMIT)
    return (FLEET_POINTS[seat.fleet], HELIUM_POINTS * seat.helium,
            SOVEREIGN_POINTS if seat.sovereign else 0, influence, -EXCESS_PENALTY * excess)


def _token_rows(seat: Seat, influence: int, rank_line: str) -> list[Row]:
    fleet, helium, sovereignty, influence, excess = _token_points(seat, influence)
    rows = [
        Row(ScoreStep.FLEET, fleet, (f"position {seat.fleet}",)),
        Row(ScoreStep.HELIUM, helium, (f"{seat.helium} Helium × 3",)),
        Row(ScoreStep.SOVEREIGNTY, sovereignty,
            ("holds the Sovereign token",) if seat.sovereign else ()),
        Row(ScoreStep.INFLUENCE, influence, (rank_line,)),
    ]
    if seat.automa is None:
        count = max(0, len(seat.hand) - HAND_LIMIT)
        line = (f"{count} card(s) past the 7th",) if count else ()
        rows.append(Row(ScoreStep.EXCESS_CARDS, excess, line))
    else:
        rows.append(Row(ScoreStep.EXCESS_CARDS, excess, ("Au Toma has no excess-card penalty",)))
    return rows


def _rank_line(value: int, points: int) -> str:
    rate = points // value if value else 0
    return f"{value} token(s) × {rate}" if value else "no tokens"


def _end_row(seat: Seat) -> Row:
    lines = (f"{seat.extra_points} from end-of-game abilities",) if seat.extra_points else ()
    return Row(ScoreStep.END_OF_GAME, seat.extra_points, lines)


# ---- the whole table ------------------------------------------------------------------

def _cards(table: Table, i: int, rulings: Rulings,
           board: _Board) -> tuple[Row, Row, tuple[Choice, ...], frozenset[str]]:
    seat = table.seats[i]
    if seat.automa is not None:
        core, bonus = _automa_rows(seat)
        return core, bonus, (), frozenset()
    hand, values, picked = best_hand(seat, seat_facts(table, i, rulings, board), rulings)
    core, bonus = _card_rows(hand, values)
    return core, bonus, _choices(hand), picked


def _bonus_only(table: Table, rulings: Rulings) -> tuple[int, ...]:
    """Every seat's card bonus under some rulings (for the ruling notes)."""
    board = _board(table, rulings)
    return tuple(_cards(table, i, rulings, board)[1].points for i in range(len(table.seats)))


def _holds(table: Table, *cards: str) -> bool:
    return any(c in cards for seat in table.seats if seat.automa is None for c in seat.hand)


def _has_gray(table: Table) -> bool:
    return any(CARDS[c].color is Color.GRAY for s in table.seats if s.automa is None
               for c in s.hand)


_INFLUENCE_READERS = ("administrator", "holo-host", "politician", "quietus", "diplomat")
_PILE_READERS = ("pathologist", "researcher", "group-counselor", "ash-lord",
                 "mickey-the-carver")

# The settings scoring reads, each with a test for "could it change a score here?" (a
# cheap superset: the notes then re-score only for settings that pass it).
_SCORING_RULINGS: dict[str, Callable[[Table], bool]] = {
    "neutral_influence_in_conditions": lambda t: t.neutral_influence > 0
    and _holds(t, *_INFLUENCE_READERS),
    "banished_counted_after_finale": lambda t: t.banished_before_finale is not None
    and _holds(t, *_PILE_READERS),
    "artisan_chef_per_clause": lambda t: _holds(t, "artisan-chef"),
    "artisan_chef_covers_sefi": lambda t: _holds(t, "artisan-chef") and _holds(t, "sefi"),
    "gray_double_count": _has_gray,
    "only_with_accepts_gray_extra": lambda t: _has_gray(t)
    and _holds(t, "harmony", "alia-snowsparrow"),
    "painter_printed_colors": lambda t: _has_gray(t) and _holds(t, "4d-painter"),
    "codebreaker_literal_first_character": lambda t: _holds(t, "codebreaker"),
    "developer_face_down": lambda t: _holds(t, "developer")
    and any(sc.face_down for stack in t.locations for sc in stack[-1:]),
    "with_means_other_cards": lambda t: True,
}


def _ruling_notes(table: Table, rulings: Rulings,
                  bonus: tuple[int, ...]) -> list[list[RulingNote]]:
    """For each seat, the settings whose other value would change its score."""
    notes: list[list[RulingNote]] = [[] for _ in table.seats]
    names = {f.name for f in fields(Rulings)}
    for setting, may_matter in _SCORING_RULINGS.items():
        if setting not in names or not may_matter(table):
            continue
        value = getattr(rulings, setting)
        other = replace(rulings, **{setting: not value})
        for i, alt in enumerate(_bonus_only(table, other)):
            if alt != bonus[i]:
                notes[i].append(RulingNote(setting, value, not value, bonus[i] - alt))
    return notes


def winners(totals: Sequence[tuple[str, int, bool]]) -> tuple[tuple[str, ...], bool]:
    """Names of the winners from (name, total, holds Sovereign); True if the token decided.

    >>> winners([("Ann", 90, False), ("Bob", 90, True), ("Cy", 80, False)])
    (('Bob',), True)
    >>> winners([("Ann", 90, False), ("Bob", 90, False)])
    (('Ann', 'Bob'), False)
    """
    top = max(t for _, t, _ in totals)
    tied = [(n, s) for n, t, s in totals if t == top]
    holder = [n for n, s in tied if s]
    if len(tied) > 1 and holder:
        return tuple(holder), True
    return tuple(n for n, _ in tied), False


def score(table: Table, rulings: Rulings | None = None, *, notes: bool = True) -> ScoreSheet:
    """Score a table whose end-of-game abilities are resolved.

    ``notes`` adds, per player, the settings that decided part of the score (it
    re-scores the cards once per setting). The table is trusted: call
    :meth:`Table.validate` on input from outside.
    """
    rulings = rulings or Rulings()
    board = _board(table, rulings)
    ranked = influence_points([s.influence for s in table.seats], table.neutral_influence)
    columns = []
    for i, seat in enumerate(table.seats):
        core, bonus, chosen, picked = _cards(table, i, rulings, board)
        rows = (_end_row(seat), core, bonus,
                *_token_rows(seat, ranked[i], _rank_line(seat.influence, ranked[i])))
        columns.append(PlayerScore(seat.name, rows, chosen, picked))
    if notes:
        found = _ruling_notes(table, rulings, tuple(p.cards_bonus for p in columns))
        columns = [replace(p, rulings=tuple(n)) for p, n in zip(columns, found, strict=True)]
    won, by_token = winners([(p.name, p.total, s.sovereign)
                             for p, s in zip(columns, table.seats, strict=True)])
    return ScoreSheet(tuple(columns), won, by_token)


def seat_total(table: Table, index: int, rulings: Rulings | None = None, *,
               board: _Board | None = None) -> int:
    """One seat's total (used to rank end-of-game options); only that seat is scored.

    ``board`` is the table's board facts when the caller already has them
    (:class:`SeatScorer`).

    >>> t = Table(seats=(Seat("Ann", ("eo", "deanna"), helium=2), Seat("Bob", ())))
    >>> seat_total(t, 0) == score(t).players[0].total
    True
    """
    rulings = rulings or Rulings()
    seat = table.seats[index]
    ranked = _influence_points(tuple(s.influence for s in table.seats), table.neutral_influence)
    # The rows' points without their explanatory text (ranking options scores many tables).
    if seat.automa is not None:
        core, bonus = _automa_rows(seat)
        cards = core.points + bonus.points
    else:
        hand, values, _ = best_hand(seat, seat_facts(table, index, rulings, board), rulings)
        cards = _core(hand.ids) + sum(values)
    return seat.extra_points + cards + sum(_token_points(seat, ranked[index]))


class SeatScorer:
    """:func:`seat_total` for a run of tables that mostly share their stacks and pile.

    Ranking end-of-game options scores one table per option, and most options change
    one seat only. The board facts (a walk over every stack card) are therefore kept
    while the stacks and the counted pile are the very same tuples as last time: both
    are immutable, and the scorer holds them, so an identity match means equal facts.
    """

    def __init__(self, rulings: Rulings | None = None) -> None:
        self.rulings = rulings or Rulings()
        # The last stacks and pile read, with their facts (a Ceres banish or a Surgeon
        # changes the pile only, a Justice the stacks only), and the board they made.
        self._stacks: tuple[object, _StackFacts] | None = None
        self._pile: tuple[object, _PileFacts] | None = None
        self._last: _Board | None = None

    def total(self, table: Table, index: int) -> int:
        return seat_total(table, index, self.rulings, board=self._board(table))

    def _board(self, table: Table) -> _Board:
        stacks, pile = self._stacks, self._pile
        counted = _pile(table, self.rulings)
        if self._last is not None and stacks is not None and pile is not None and (
                stacks[0] is table.locations and pile[0] is counted):
            return self._last
        if stacks is None or stacks[0] is not table.locations:
            stacks = self._stacks = (table.locations, _stack_facts(table, self.rulings))
        if pile is None or pile[0] is not counted:
            pile = self._pile = (counted, _pile_facts(counted))
        self._last = _Board(*stacks[1], *pile[1])
        return self._last
