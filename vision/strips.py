"""Covered cards read from their strips: which card each strip of a stack belongs to.

A stack cascades downward and shows of each older card only its top strip (name, caste
colour, core value). Naming 112 cards from an 8 mm strip with a model would be a
guess; but the camera never moves during a game, and every card in a stack lay on top
of it once, seen whole. So :class:`Strips` keeps the top band of each card this camera
has seen on top (and of the table's card back), cut from the frame itself, and names a
strip by matching it against those bands: the same camera, light and printing, so any
card style and any table work alike, and a strip like none of them is left unnamed.

The tracker uses the names only to settle what the views leave open (which covered card
a player took; whether a count is right): see :func:`engine.tracking.view.strips_agree`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import overload

import cv2
import numpy as np

from engine.board import Location
from engine.tracking import BACK
from vision.calibrate import Calibration
from vision.count import CARD_H_MM
from vision.locate import CARD_W_MM, Column, Found
from vision.scanner import Sight, TableReading, TableScanner
from vision.stabilize import LocationState

STACKED = (Sight.CARD, Sight.FACE_DOWN)  # settled states with a stack to read

PX_PER_MM = 3.0  # a strip's band is read at this scale (frames give 2-4 px per mm)
BAND_TOP_MM = 0.5  # a band starts this far below a card's top edge
BAND_MM = (5.0, 11.0)  # and reaches as far as the strip shows, within these (the name
#                       lies 3-10 mm below the edge; cascades show 8-17 mm of a card)
INSET_MM = 6.0  # the band leaves this much of each side out (a neighbour's edge, a corner)
SLIDE_MM = (10.0, 2.5)  # a covered card lies this far off the top card's line: across, down
TURNS = np.radians([-6.0, -3.0, 0.0, 3.0, 6.0])  # and turned up to ±5° from it
# A strip is named when its best band matches this well (normalised correlation of the
# detail) and leads every other card's band by LEAD. Chosen on the project's own filmed
# games (benchmarks/tracking.py --camera, seeds 0 and 1 and seed 4 on gingham: 1,289
# strips matched in full): where the strip's own card had been seen on top it scored
# 0.70 or more in 95 % of them; where it had not, the best other card reached 0.70 at
# most, and no other card ever scored 0.72 while leading by 0.15.
MATCH = 0.72
LEAD = 0.15
FIRST_EDGE_MM = 30.0  # a stack starts ~20 mm below the play area's top: a first strip
#                       lower than this may have one above it the count missed
GAP_SPREAD = 1.6  # strips this many times the narrowest apart may hide one between


Under = tuple[str | None, ...]  # a stack's covered cards, oldest first (None: unnamed)
Look = tuple[str, int]  # a card's band as learnt the n-th time


class Strips:
    """The top bands of the cards seen on top, and covered strips named by them."""

    def __init__(self) -> None:
        self.bands: dict[str, np.ndarray] = {}
        # Each place's settled stack (state, top, count) and its strips as read then: a
        # stack unchanged is not read again (the strips cost nothing on a still table).
        self._read: dict[str, tuple[tuple[object, ...], Under | None]] = {}
        # Each place's strips as last read (region at its turn, the turn, name): a strip
        # that still looks the same keeps its name, so a change costs a full match only
        # for new strips.
        self._last: dict[str, list[Seen]] = {}
        self._coarse: dict[tuple[str, int], tuple[np.ndarray, np.ndarray]] = {}
        self._looks: dict[str, int] = {}  # how many times each band was learnt

    def table(self, frame: np.ndarray, scanner: TableScanner, reading: TableReading,
              settled: Mapping[str, LocationState]) -> dict[str, Under]:
        """The covered cards of each settled stack, by location name, where ``frame``
        (read as ``reading`` by ``scanner``) shows the stack as settled; each top card's
        band is learnt first. A stack unchanged since the last call keeps its strips."""
        # A scanner that keeps no columns (a test's stand-in) reads no strips.
        calibration = getattr(scanner, "calibration", None)
        columns: list[Column] = getattr(scanner, "columns", [])
        if calibration is None or len(columns) != len(Location):
            return {}
        out: dict[str, Under] = {}
        for loc, column in zip(Location, columns, strict=True):
            state, now = settled.get(loc.value), reading[loc.value]
            if state is None or state.state not in STACKED or column.quad_mm is None:
                continue
            key = (state.state, state.top, state.depth)
            known = self._read.get(loc.value, ((), None))[0] == key
            shows = (now.state, now.depth, now.top) == (state.state, state.depth, state.top)
            # Read when the stack's top or count changed, or when its strips no longer
            # look as they did (an ability reordered the cards under the top), on a
            # frame that shows the stack as settled (not a hand over it).
            if shows and not (known and self._unchanged(frame, calibration, column,
                                                         loc.value)):
                top = BACK if state.state is Sight.FACE_DOWN else state.top
                if top is not None and not known:
                    self.learn(frame, calibration, column.quad_mm, top)
                self._read[loc.value] = (key, self.read(frame, calibration, column, top,
                                                        loc.value))
            elif not known:
                continue  # this frame does not show what settled: no band, no strips
            under = self._read[loc.value][1]
            if under is not None:
                out[loc.value] = under
        return out

    def _unchanged(self, frame: np.ndarray, calibration: Calibration, column: Column,
                   place: str) -> bool:
        """Does each strip of ``column`` still look as when it was last read?"""
        last = self._last.get(place, [])
        if column.quad_mm is None or len(last) != len(column.older_mm):
            return False
        for (quad, shown), seen in zip(_strips(column), last, strict=True):
            now = _strip_regions(frame, calibration, quad, shown, turns=(TURNS[seen.turn],))[0]
            if _like(now, seen.region) < STILL_SAME:
                return False
        return True

    def learn(self, frame: np.ndarray, calibration: Calibration, quad_mm: np.ndarray,
              name: str) -> None:
        """Keep the top band of the card ``name`` (an id, or BACK) outlined by ``quad_mm``:
        the latest look replaces an older one (the light drifts). Every card seen on top
        anywhere is a candidate everywhere: abilities move cards between stacks."""
        self.bands[name] = _cut(frame, calibration, quad_mm, INSET_MM,
                                (BAND_TOP_MM, BAND_TOP_MM + BAND_MM[1]))
        self._looks[name] = self._looks.get(name, 0) + 1

    def read(self, frame: np.ndarray, calibration: Calibration, column: Column,
             top: str | None, place: str = "") -> Under | None:
        """The covered cards of ``column``'s stack, oldest first (None for a strip like no
        known band); None when the strips cannot be read card for card (a count the
        edges do not bear out, or a single card: no strip to show the count right)."""
        edges = column.older_mm
        if (column.state is not Found.STACK or column.quad_mm is None or not edges
                or len(edges) != column.depth - 1 or not _evenly_spaced(column)):
            return None
        names: list[str | None] = []
        last, kept = self._last.get(place, []), []
        candidates = frozenset((name, self._looks[name]) for name in self.bands if name != top)
        shift: int | None = None  # how many turns the top card turned since the last read
        for index, (quad, shown) in enumerate(_strips(column)):
            regions = _strip_regions(frame, calibration, quad, shown)
            seen = _same_as(regions, last, index, shift)
            if seen is not None:
                name, turn, shift = seen
            else:
                name, turn = self._name(regions, round(shown * PX_PER_MM), candidates,
                                        NOT_TRIED)
            if isinstance(name, Unnamed) and not candidates <= name.tried:
                # Like none of the bands it was tried against: only those learnt (or
                # learnt again) since, unless one came near (a frame's noise decides).
                near = name.best >= MATCH - NEAR_MATCH
                name, turn = self._name(regions, round(shown * PX_PER_MM),
                                        candidates if near else candidates - name.tried,
                                        NOT_TRIED if near else name)
            kept.append(Seen(regions[turn], turn, name))
            names.append(None if isinstance(name, Unnamed) else name)
        self._last[place] = kept
        return tuple(names)

    def _name(self, regions: Sequence[np.ndarray], rows: int, looks: frozenset[Look],
              before: Unnamed) -> tuple[str | Unnamed, int]:
        """The card of the band among ``looks`` that matches the strip well and leads
        every other (those ``before`` was already tried against too), else Unnamed; and
        the turn of ``regions`` it matched best at (the middle one for Unnamed)."""
        scores = self.scores(regions, rows, frozenset(name for name, _n in looks))
        best = scores[0][0] if scores else -1.0
        rival = max([before.best, *(score for score, _name, _turn in scores[1:2])])
        if best >= MATCH and best - rival >= LEAD:
            return scores[0][1], scores[0][2]
        return Unnamed(before.tried | looks, max(best, before.best)), len(regions) // 2

    def scores(self, regions: Sequence[np.ndarray], rows: int,
               names: frozenset[str]) -> list[tuple[float, str, int]]:
        """How well the bands of ``names`` (their first ``rows``) match a strip, best
        first, each with the turn of ``regions`` it matched best at: the few most alike
        at a quarter of the pixels in grey, then in full."""
        # The coarse look tries the middle turns only (a strip lies within ±5°, and the
        # one beside the best is tried in full anyway).
        first = (len(regions) - COARSE_TURNS) // 2
        small = [_coarse(region) for region in regions[first:first + COARSE_TURNS]]
        rough = []
        for name in names:
            band = self._coarse_band(name, rows)
            fits = [_match(region, band) for region in small]
            rough.append((max(fits), name, first + int(np.argmax(fits))))
        rough.sort(key=lambda r: r[0], reverse=True)
        # In full only at the turn the first look liked best and the turns beside it.
        full = []
        for _score, name, turn in rough[:SHORTLIST]:
            near = range(max(0, turn - 1), min(len(regions), turn + 2))
            score, at = max((_match(regions[i], self.bands[name][:rows]), i) for i in near)
            full.append((score, name, at))
        return sorted(full, reverse=True)

    def _coarse_band(self, name: str, rows: int) -> np.ndarray:
        """The first ``rows`` of ``name``'s band for the coarse look, kept while the band
        is: every strip of a read is looked at against every band."""
        band = self.bands[name]
        key = (name, rows)
        kept = self._coarse.get(key)
        if kept is None or kept[0] is not band:
            kept = (band, _coarse(band[:rows]))
            self._coarse[key] = kept
        return kept[1]


SHORTLIST = 4  # bands matched in full, of the most alike in the coarse look
COARSE_TURNS = 3  # of the TURNS, the middle ones the coarse look tries


def _coarse(image: np.ndarray) -> np.ndarray:
    """A quarter of the pixels, in grey: a first look that costs a twelfth."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    out: np.ndarray = cv2.resize(grey, (grey.shape[1] // 2, grey.shape[0] // 2),
                                 interpolation=cv2.INTER_AREA)
    return out


NEAR_MATCH = 0.1  # an unnamed strip whose best band came this near MATCH is tried in full
# A strip whose region matches, at one of the turns, the region a strip was named in
# last time this well is that card. Measured on the project's own films (benchmarks/
# games.py, 6 players seed 5 and 4 players seed 7: 1,633 strips found again, 2,363
# strips of other cards beside or at the same place): the same card matched 0.89 at the
# median and 0.77 or more in 90 %; another card never more than 0.65.
SAME = 0.8
STILL_SAME = 0.7  # a strip's region matching its last look this well shows the same card


def _like(region: np.ndarray, old: np.ndarray) -> float:
    """How well ``region`` shows what the earlier region ``old`` did, wherever within
    the slide (``old`` without its slide margins, matched in ``region``)."""
    sy, sx = (round(v * PX_PER_MM) for v in SLIDE_MM[::-1])
    return _match(region, old[sy:-sy, sx:-sx])


@dataclass(frozen=True)
class Unnamed:
    """A strip like none of the bands ``tried`` (the best of them matched it ``best``):
    a strip that looks as it did is matched again only against bands learnt since, not
    against every band again, read after read."""

    tried: frozenset[Look]
    best: float


NOT_TRIED = Unnamed(frozenset(), -1.0)


def _same_as(regions: Sequence[np.ndarray], last: Sequence[Seen], index: int,
             shift: int | None) -> tuple[str | Unnamed, int, int] | None:
    """The name (or :class:`Unnamed`) of the strip last read here that ``regions`` (the
    ``index``-th strip, at each turn) still shows, the turn it shows it at, and how many
    turns that is from the turn it was last seen at; None: none.

    The regions are cut along the top card, and each card lies turned its own way: a new
    top card turns every strip's region alike, so once one strip is found again at a
    ``shift``, the others are looked for there first. Only the strips last read at this
    index and beside it are tried (a card put under or taken from under moves the
    others by one)."""
    middle = len(regions) // 2
    for j in (index, index - 1, index + 1):
        if not 0 <= j < len(last):
            continue
        old = last[j]
        first = middle if shift is None else old.turn + shift
        order = sorted(range(len(regions)), key=lambda t: (t != first, abs(t - first)))
        for turn in order:
            if _like(regions[turn], old.region) >= SAME:
                return old.name, turn, turn - old.turn
    return None


@dataclass(frozen=True)
class Seen:
    """A strip as last read: its region at the turn it fits best (as far as known), that
    turn (an index of :data:`TURNS`), and its name or :class:`Unnamed`."""

    region: np.ndarray
    turn: int
    name: str | Unnamed


def _evenly_spaced(column: Column) -> bool:
    """Do the strips' edges look like every card's (none missed between or above)?"""
    ys = [*column.older_mm, _top_edge(column)]
    gaps = np.diff(ys)
    return ys[0] <= FIRST_EDGE_MM and bool(gaps.min() > 0) and \
        float(gaps.max()) <= GAP_SPREAD * float(gaps.min())


def _top_edge(column: Column) -> float:
    """Where the top card's own top edge lies (y mm)."""
    assert column.quad_mm is not None
    return float(column.quad_mm[:2, 1].mean())


def _strips(column: Column) -> list[tuple[np.ndarray, float]]:
    """Each covered card's outline (the top card's, moved up to its top edge) and how
    much of it shows (mm, within BAND_MM): what the next card down leaves of it."""
    assert column.quad_mm is not None
    edges, top = list(column.older_mm), _top_edge(column)
    below = [*edges[1:], top] if edges else []  # a single card: no strips
    return [(column.quad_mm + np.array((0.0, y - top), np.float32),
             float(np.clip(b - y - 1.5, *BAND_MM))) for y, b in zip(edges, below, strict=True)]


def _strip_regions(frame: np.ndarray, calibration: Calibration, quad_mm: np.ndarray,
                   shown: float, turns: Sequence[float] = tuple(TURNS)) -> Regions:
    """Where a covered card's band may lie, straightened at each of ``turns``: its
    outline ``quad_mm`` (the top card's, moved up to its edge), widened by
    :data:`SLIDE_MM`, as far down as ``shown`` mm of it show."""
    band = (BAND_TOP_MM - SLIDE_MM[1], BAND_TOP_MM + shown + SLIDE_MM[1])
    return Regions([partial(_cut, frame, calibration, _turned(quad_mm, a),
                            INSET_MM - SLIDE_MM[0], band) for a in turns])


class Regions(Sequence[np.ndarray]):
    """A strip's region at each turn, each cut when first asked for: a strip found
    again where it was usually needs one turn of the five."""

    def __init__(self, cuts: list[Callable[[], np.ndarray]]) -> None:
        self._cuts = cuts
        self._made: dict[int, np.ndarray] = {}

    def __len__(self) -> int:
        return len(self._cuts)

    @overload
    def __getitem__(self, index: int) -> np.ndarray: ...
    @overload
    def __getitem__(self, index: slice) -> list[np.ndarray]: ...
    def __getitem__(self, index: int | slice) -> np.ndarray | list[np.ndarray]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if index not in self._made:
            self._made[index] = self._cuts[index]()
        return self._made[index]


def _turned(quad_mm: np.ndarray, angle: float) -> np.ndarray:
    """``quad_mm`` turned ``angle`` radians about the middle of its top edge."""
    pivot = quad_mm[:2].mean(axis=0)
    c, s = np.cos(angle), np.sin(angle)
    out: np.ndarray = ((quad_mm - pivot) @ np.array([[c, s], [-s, c]], np.float32) + pivot)
    return out.astype(np.float32)


def _cut(frame: np.ndarray, calibration: Calibration, quad_mm: np.ndarray, inset: float,
         band: tuple[float, float]) -> np.ndarray:
    """The part of the card outlined by ``quad_mm`` from ``inset`` mm in from each side
    and ``band`` mm below its top edge, straightened at :data:`PX_PER_MM`."""
    corners = _on_card(quad_mm, [(inset, band[0]), (CARD_W_MM - inset, band[0]),
                                 (CARD_W_MM - inset, band[1]), (inset, band[1])])
    w = round((CARD_W_MM - 2 * inset) * PX_PER_MM)
    h = round((band[1] - band[0]) * PX_PER_MM)
    src = calibration.to_pixels(corners).astype(np.float32)
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    cut = cv2.warpPerspective(frame, cv2.getPerspectiveTransform(src, dst), (w, h),
                              flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    return _detail(cut)


DETAIL_MM = 1.5  # what changes within this distance: the name's strokes, not the colour


def _detail(image: np.ndarray) -> np.ndarray:
    """The image less its blur: strips of one caste share their colour and layout, and
    only the name's letters and the value's digits tell them apart."""
    flat = image.astype(np.float32)
    out: np.ndarray = flat - cv2.GaussianBlur(flat, (0, 0), DETAIL_MM * PX_PER_MM)
    return out


def _on_card(quad_mm: np.ndarray, points: Sequence[tuple[float, float]]) -> np.ndarray:
    """Points given across and down a card (mm from its top-left corner) → play-area mm."""
    tl, tr, _br, bl = np.asarray(quad_mm, np.float64)
    across, down = (tr - tl) / CARD_W_MM, (bl - tl) / CARD_H_MM
    return np.array([tl + u * across + v * down for u, v in points], np.float32)


def _match(region: np.ndarray, band: np.ndarray) -> float:
    """The best normalised correlation of ``band`` anywhere within ``region``."""
    if band.shape[0] > region.shape[0] or band.shape[1] > region.shape[1]:
        return -1.0
    return float(cv2.matchTemplate(region, band, cv2.TM_CCOEFF_NORMED).max())
