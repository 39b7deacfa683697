"""One frame in, one reading per location out: calibrate → locate → identify.

:class:`TableScanner` keeps only the calibration (and the rectifying view derived from
it) between frames; every :meth:`~TableScanner.scan` result is pure. ArUco detection is
slow at 1280×960, so the markers are looked for every ``redetect_every`` scans (and on
every scan until they are first found); in between, each scan checks that they still
show where the calibration found them (:mod:`vision.watch`, under a millisecond) and
looks for them at once when they do not: a knocked camera is recalibrated at the first
frame that shows its markers again (three of them, or two that moved as one). Markers
found more than :data:`MOVED_MM` from where they were mean the camera moved
(:attr:`TableScanner.moves` counts it). A frame whose stacks lie where the calibration
allows none (a camera turned while its markers are out of sight) names no card. A
manual calibration is never replaced.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from pathlib import Path

import numpy as np

from engine.board import Location
from vision import calibrate
from vision.calibrate import Calibration
from vision.classifier import CardClassifier, Identification
from vision.crop import warp_card
from vision.locate import (
    RETRY_REASONS,
    STACK_START_MM,
    Column,
    Evidence,
    Found,
    View,
    bare_after,
    evidence,
    locate_column,
)
from vision.outlines import farther_outlines, outline_depth
from vision.segmenter import Segmenter, default_segmenter_path
from vision.stacks import read_column, read_stacks, unlit
from vision.still import Picture, StillTable, pixels_of
from vision.table import Reference
from vision.watch import MarkerWatch

FARTHER_SCORE, FARTHER_MARGIN = 0.8, 0.2  # the bar for a card on a second-guess outline
LOOK_AROUND_MM = [np.array((dx, dy), np.float32) for dx in (-4.0, 0.0, 4.0)
                  for dy in (-3.0, 0.0, 3.0) if (dx, dy) != (0.0, 0.0)]
MOVED_PX = 2.0  # markers found this far from the last look: a new view of the table
MOVED_MM = 3.0  # ... and this far (at any corner): the camera was moved, not just jittered
LOOK_EVERY = 3  # scans: while the markers cannot be found (hands over them), look for
#                 them at most this often (a look costs tens of milliseconds) ...
LOOK_MOST = 8  # ... and, after looks in vain in a row, twice as seldom each time up to
#                this (a look in vain costs about 0.2 s at 1280×960: four passes; a
#                camera moved while its markers are hidden is still recalibrated within
#                a second of them showing, at ten frames a second)
LEARN_EVERY = 3  # the reference learns from every third scan of a view (a still table at
#                  10 frames a second changes slowly), starting with the second


class Sight(StrEnum):
    """What one frame shows at a location (``state`` in ``table scan --json``).

    The settled ones are the engine's :class:`~engine.tracking.view.Shown`; a frame can
    also show a hand over the location or a card nobody can name."""

    EMPTY = "empty"
    CARD = "card"
    OCCLUDED = "occluded"
    FACE_DOWN = "face_down"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class LocationReading:
    """What one frame shows at one location."""

    state: Sight
    top: str | None = None  # card id when state is Sight.CARD
    confidence: float = 0.0
    depth: int = 0
    reason: str = ""  # why the locator read the location occluded (not in to_dict)

    def to_dict(self) -> dict[str, object]:
        return {
            "state": self.state,
            "top": self.top,
            "confidence": round(self.confidence, 4),
            "depth": self.depth,
        }


@dataclass(frozen=True)
class TableReading:
    """Per-location readings of one frame, in board order; index by Location or its name."""

    locations: dict[str, LocationReading] = field(default_factory=dict)
    calibrated: bool = True

    def __getitem__(self, location: Location | str) -> LocationReading:
        return self.locations[Location(str(location)).value]

    def to_dict(self) -> dict[str, dict[str, object]]:
        return {name: r.to_dict() for name, r in self.locations.items()}


def uncalibrated() -> TableReading:
    """The reading when the play area is unknown: nothing can be said anywhere."""
    return TableReading({loc.value: LocationReading(Sight.UNKNOWN) for loc in Location}, False)


def reading(column: Column, ident: Identification | None) -> LocationReading:
    """Combine the locator's column and the classifier's answer for its top card."""
    if column.state is Found.EMPTY:
        return LocationReading(Sight.EMPTY, None, 1.0, 0)
    if column.state is Found.OCCLUDED or ident is None:
        return LocationReading(Sight.OCCLUDED, None, 0.0, column.depth, column.reason)
    if ident.face_down:
        return LocationReading(Sight.FACE_DOWN, None, ident.confidence, column.depth)
    if ident.card is None:
        return LocationReading(Sight.UNKNOWN, None, ident.confidence, column.depth)
    return LocationReading(Sight.CARD, ident.card, ident.confidence, column.depth)


def reads_by_difference() -> bool:
    """Does the scanner need a picture of the bare table? Only without the committed
    table segmenter: its fallback, the colour model, tells cards from the table by
    difference from that picture; the segmenter learnt tables of every kind already."""
    return not default_segmenter_path().exists()


class TableScanner:
    """Scan table frames; the classifier and calibration are loaded once."""

    def __init__(
        self,
        model_path: Path | str | None = None,
        calibration: Calibration | None = None,
        *,
        redetect_every: int = 50,
        classifier: CardClassifier | None = None,
        learn: bool = True,
        segmenter: Segmenter | bool | None = True,
    ) -> None:
        self.classifier = classifier or CardClassifier(model_path)
        # The table segmenter finds the stacks (True: the committed one, False: the
        # colour model of the table and its reference instead).
        if segmenter is True:
            segmenter = Segmenter() if default_segmenter_path().exists() else None
        self.segmenter = segmenter or None
        self.redetect_every = max(1, redetect_every)
        self.learn = learn  # keep the reference of the bare table current while scanning
        self._fixed = calibration is not None and calibration.source == "manual"
        self._view: View | None = None
        self._reference: Reference | None = None
        self._scans = self._seen = 0
        self._watch: MarkerWatch | None = None  # the markers as the last look found them
        self._found: dict[int, np.ndarray] = {}  # ... and their corners (frame pixels)
        self._rough = False  # the calibration held came from two markers (moved_with)
        self._since_look = 0  # scans since the markers were last looked for
        self._wait = 0  # scans from there to the next look (0: the last one found them)
        self.moves = 0  # times the markers were found moved: the camera was knocked
        self.still = StillTable()  # a still table is not read again every frame
        # The columns the last reading was made from (a still table's too): where each
        # stack's cards lie, for reading the covered ones' strips (vision.strips).
        self.columns: list[Column] = []
        self._use(calibration)

    @property
    def calibration(self) -> Calibration | None:
        return self._view.calibration if self._view else None

    @property
    def view(self) -> View | None:
        """The rectified view of the play area the scanner reads (None until calibrated)."""
        return self._view

    @property
    def reference(self) -> Reference | None:
        """The bare table as the fixed camera sees it (None until calibrated)."""
        return self._reference

    def _use(self, calibration: Calibration | None, refined: bool = False) -> None:
        """Hold ``calibration``; a new view of the table starts a new reference, a look
        that finds the markers where they were keeps the old one. ``refined``: it
        replaces one from two markers (no new move of the camera)."""
        if calibration is None:
            self._view = self._reference = self._watch = None
            self._found, self._rough = {}, False
        elif self._view is None or _moved(self._view.calibration, calibration):
            if self._view is not None and not refined and _moved_mm(self._view.calibration,
                                                                    calibration):
                self.moves += 1
            self._view = View(calibration)
            self._reference = Reference(self._view)
            self._seen = 0  # scans of this view

    def recalibrate(self, frame: np.ndarray) -> bool:
        """Look for the markers now; True when found (the calibration is then replaced).
        Three markers where the held calibration puts them keep it: a hand hides the fourth.
        Two that moved as one since the last look found them move it with them: the camera
        was knocked while the others are hidden (:func:`~vision.calibrate.moved_with`)."""
        markers = calibrate.find_markers(frame)
        size = (frame.shape[1], frame.shape[0])
        held = self.calibration
        found = calibrate.from_markers(markers, size, held=held)
        two = False  # found from two markers
        if found is None and held is not None:
            found, two = calibrate.moved_with(held, self._found, markers), True
        # After a look in vain (hands over the markers) the next waits LOOK_EVERY scans,
        # twice as long after each further one in a row (up to LOOK_MOST); after one that
        # found them, the next frame that moves them is looked at at once.
        self._since_look = 0
        if found is None:
            self._wait = min(2 * self._wait, LOOK_MOST) if self._wait else LOOK_EVERY
            return False
        self._wait = 0
        view = self._view
        self._use(found, refined=self._rough and not two)
        # Two markers that moved the view leave it rough until three are seen (two seen
        # where they were, a hand over the others, leave it as it was).
        self._rough = two and (self._rough or self._view is not view)
        self._watch = MarkerWatch(frame, markers)
        self._found = markers
        self._scans = 1  # the next look is a full interval away
        return True

    def keep(self, calibration: Calibration | None) -> None:
        """Hold ``calibration`` as if the last look had found it (None: uncalibrated);
        the markers are not watched until a look finds them."""
        self._use(calibration)
        self._watch = None
        self._found, self._rough = {}, False
        self._scans = 1

    def learn_table(self, frame: np.ndarray) -> list[str]:
        """Take ``frame`` as the bare table ("clear the play area and press NEXT"): the
        reference is replaced wherever the frame shows the table. Returns the locations
        where a card is still named or a hand covers (left out of the reference: never a
        card learnt as table); an empty list when the play area was clear. Printing on a
        mat, even a card-sized frame, is table.

        :raises ValueError: when the play area is not calibrated (no markers seen yet).
        """
        self._maybe_recalibrate(frame)
        if self._view is None or self._reference is None:
            raise ValueError("the play area is not calibrated: "
                             "three of the four markers must be seen")
        self._reference = Reference(self._view)
        ev = evidence(frame, self._view)
        columns = [locate_column(ev, self._view, i) for i in range(len(Location))]
        named = _named(self._identify(frame, ev, columns))
        clear = bare_after(ev, self._view, columns, named, calibrating=True)
        assert ev.lab is not None  # evidence() keeps the rectified frame
        self._reference.update(self._view, ev.lab, clear, reset=True)
        return [
            loc.value
            for loc, c, n in zip(Location, columns, named, strict=True)
            if c.state is Found.OCCLUDED or (c.state is Found.STACK and n)
        ]

    def _maybe_recalibrate(self, frame: np.ndarray) -> None:
        due = self._scans % self.redetect_every == 0
        if not self._fixed and (self._view is None or due or self._doubted(frame)):
            self.recalibrate(frame)
        self._scans += 1
        self._since_look += 1

    def _doubted(self, frame: np.ndarray) -> bool:
        """Do the markers no longer show where the last look found them (and is another
        look due)? A hand over one leaves three in place; a knocked camera moves all."""
        if self._watch is None or self._since_look < self._wait:
            return False
        return not self._watch.agrees(frame)

    def scan(self, frame: np.ndarray | Picture) -> TableReading:
        """Readings for the four locations in ``frame`` (BGR, or a picture decoded only
        if a look is needed): the last ones while the table has not moved since
        (:mod:`vision.still`)."""
        kept: TableReading | None = self.still.known(frame, self._setup())
        if kept is not None:
            return kept
        reading = self._read(pixels_of(frame))
        if reading.calibrated:
            self.still.read(reading, _content(reading), self._setup())
        else:
            self.still.forget()  # keep looking for the markers
        return reading

    def _setup(self) -> tuple[object, ...]:
        """What a reading is made with: a new one reads even an unmoved table afresh."""
        return (self.classifier, self.segmenter, self._view, self._reference)

    def _read(self, frame: np.ndarray) -> TableReading:
        self._maybe_recalibrate(frame)
        if self._view is None:
            return uncalibrated()
        if self.segmenter is not None:
            segments = self.segmenter(self._view.rectify(frame))
            columns = read_stacks(segments, self._view)
            idents = self._name_tops(frame, columns)
            self._look_around(frame, columns, idents)
            self._second_look(frame, columns, idents)
            lit = [not unlit(segments, self._view, i) for i in range(len(columns))]
            if misplaced(columns, self._view, lit):
                return self._doubt()
            self.columns = columns
            return TableReading({
                loc.value: reading(c, ident)
                for loc, c, ident in zip(Location, columns, idents, strict=True)
            })
        ev = evidence(frame, self._view, self._reference)
        columns = [locate_column(ev, self._view, i) for i in range(len(Location))]
        idents = self._identify(frame, ev, columns)
        if misplaced(columns, self._view):
            return self._doubt()
        self.columns = columns
        self._learn(ev, columns, idents)
        out = {
            loc.value: reading(c, ident)
            for loc, c, ident in zip(Location, columns, idents, strict=True)
        }
        return TableReading(out)

    def _doubt(self) -> TableReading:
        """The reading of a frame that contradicts the calibration: nothing can be said
        anywhere, and the markers are looked for at the next scan."""
        self._scans = 0
        self.columns = []
        return uncalibrated()

    def _learn(
        self, ev: Evidence, columns: list[Column], idents: list[Identification | None]
    ) -> None:
        """Keep the reference current from what this scan read bare (a single look at a
        camera, as when scanning independent photos, teaches nothing and costs nothing)."""
        self._seen += 1
        if not self.learn or self._reference is None or ev.lab is None:
            return
        if self._seen < 2 or (self._seen - 2) % LEARN_EVERY:
            return
        assert self._view is not None
        bare = bare_after(ev, self._view, columns, _named(idents))
        self._reference.update(self._view, ev.lab, bare)

    def _identify(
        self, frame: np.ndarray, ev: Evidence, columns: list[Column]
    ) -> list[Identification | None]:
        """Name each stack's top card (``columns`` gets the depth of the outline kept)."""
        idents = self._name_tops(frame, columns)
        self._look_farther(frame, ev, columns, idents)
        self._second_look(frame, columns, idents)
        return idents

    def _name_tops(self, frame: np.ndarray, columns: list[Column]) -> list[Identification | None]:
        """Name each stack's top card from its outlines (``columns`` gets the depth of the
        outline kept)."""
        tries = [
            (i, column, depth)
            for i, c in enumerate(columns)
            if c.state is Found.STACK and c.quad_mm is not None  # a stack always has its outline
            for column, depth in ((c.quad_mm, c.depth), *c.alternatives)
        ]
        crops = [self.crop_quad(frame, quad) for _i, quad, _d in tries]
        idents: list[Identification | None] = [None] * len(columns)
        for (i, _quad, depth), ident in zip(tries, self.classifier.identify(crops), strict=True):
            # Among a column's outlines keep the one named with the widest margin (the
            # locator's first guess wins ties and stays when none is named).
            if idents[i] is None or _better(ident, idents[i]):
                idents[i] = ident
                columns[i] = replace(columns[i], depth=depth)
        return idents

    def _look_farther(
        self, frame: np.ndarray, ev: Evidence, columns: list[Column],
        idents: list[Identification | None]
    ) -> None:
        """Where no card was named (a stack's outline showed bare table or no card clearly,
        or the column's mask was misshapen by a striped or lit table, glare or a shadow),
        try the strongest straight edges farther up and down as the top card's bottom; a
        card named there must clear a stricter bar, as the outline is a second guess."""
        assert self._view is not None
        tries = [
            (i, quad)
            for i, (c, ident) in enumerate(zip(columns, idents, strict=True))
            if _worth_another_look(c, ident)
            for quad in farther_outlines(ev, self._view, i, c)
        ]
        for i, quad in self._second_guesses(frame, tries, idents).items():
            depth = outline_depth(ev, self._view, columns[i].top_mm, quad)
            columns[i] = Column(Found.STACK, depth, quad, "", (), columns[i].top_mm)

    def _look_around(
        self, frame: np.ndarray, columns: list[Column], idents: list[Identification | None]
    ) -> None:
        """Where a stack's top card is unnamed, its outline may sit a few millimetres off
        (the segmenter's grid is 2 mm): name it again from outlines moved a little each
        way. A card named there must clear the stricter bar of a second guess."""
        tries = [
            (i, c.quad_mm + shift)
            for i, (c, ident) in enumerate(zip(columns, idents, strict=True))
            if c.quad_mm is not None and ident is not None and ident.card is None
            and not ident.face_down
            for shift in LOOK_AROUND_MM
        ]
        for i, quad in self._second_guesses(frame, tries, idents).items():
            columns[i] = replace(columns[i], quad_mm=quad.astype(np.float32))

    def _second_guesses(
        self, frame: np.ndarray, tries: list[tuple[int, np.ndarray]],
        idents: list[Identification | None],
    ) -> dict[int, np.ndarray]:
        """Name the cards outlined by ``tries`` (column, outline in mm); where one clears
        the stricter bar of a second guess and beats the column's answer, it replaces it
        in ``idents``. Returns the outline kept per column that changed."""
        if not tries:
            return {}
        crops = [self.crop_quad(frame, quad) for _i, quad in tries]
        kept: dict[int, np.ndarray] = {}
        for (i, quad), ident in zip(tries, self.classifier.identify(crops), strict=True):
            strong = ident.confidence >= FARTHER_SCORE and ident.margin >= FARTHER_MARGIN
            if strong and _better(ident, idents[i]):
                idents[i], kept[i] = ident, quad
        return kept

    def _second_look(
        self, frame: np.ndarray, columns: list[Column], idents: list[Identification | None]
    ) -> None:
        """Where a stack's top card is still unnamed, the classifier looks again at more of
        the frame's pixels around the outline (local features, its shortlist only)."""
        assert self._view is not None
        for i, (column, ident) in enumerate(zip(columns, idents, strict=True)):
            if column.quad_mm is not None and ident is not None and ident.candidates:
                quad_px = self._view.calibration.to_pixels(column.quad_mm)
                idents[i] = self.classifier.second_look(frame, quad_px, ident)

    def top_card_image(self, frame: np.ndarray, location: Location) -> np.ndarray | None:
        """The top card at ``location`` in ``frame`` as the classifier sees cards (None:
        no card there, or the play area not calibrated): what a table's own card back is
        learnt from."""
        if self._view is None:
            return None
        if self.segmenter is not None:
            segments = self.segmenter(self._view.rectify(frame))
            column = read_column(segments, self._view, location.pos)
        else:
            column = locate_column(evidence(frame, self._view), self._view, location.pos)
        return None if column.quad_mm is None else self.crop(frame, column)

    def crop(self, frame: np.ndarray, column: Column) -> np.ndarray:
        """The canonical image of a column's top card, cut straight from the frame."""
        assert column.quad_mm is not None
        return self.crop_quad(frame, column.quad_mm)

    def crop_quad(self, frame: np.ndarray, quad_mm: np.ndarray) -> np.ndarray:
        """The canonical image of the card outlined by ``quad_mm`` (play-area mm)."""
        assert self._view is not None
        quad_px = self._view.calibration.to_pixels(quad_mm)
        return warp_card(frame, quad_px, self.classifier.input_size)


def _content(reading: TableReading) -> tuple[tuple[str, str | None, int, str], ...]:
    """What a reading says, without its confidences."""
    return tuple((r.state.value, r.top, r.depth, r.reason) for r in reading.locations.values())


def _named(idents: list[Identification | None]) -> list[bool]:
    """Per column, whether its top outline was named a card or a card's back."""
    return [i is not None and (i.card is not None or i.face_down) for i in idents]


def _moved_mm(old: Calibration, new: Calibration) -> bool:
    """True when a corner of the play area moved more than :data:`MOVED_MM` in the frame
    (millimetres of the old calibration's scale): the camera itself was moved."""
    shift = np.abs(np.asarray(old.corners) - np.asarray(new.corners)).max()
    return bool(shift > MOVED_MM * calibrate.px_per_mm(old))


def _moved(old: Calibration, new: Calibration) -> bool:
    """True when the play area's corners moved more than :data:`MOVED_PX` (or its size
    changed): marker detection's own jitter is well under that."""
    shift = np.abs(np.asarray(old.corners) - np.asarray(new.corners)).max()
    same_size = (old.width_mm, old.height_mm) == (new.width_mm, new.height_mm)
    return bool(shift > MOVED_PX) or not same_size or old.source != new.source


# Where the layout puts a stack (docs/table.md): each card in the middle of its column,
# laid by hand a few millimetres off (generated scenes: ±4 mm and ±5°, the fitted middle
# at most 6 mm off), the first card's top edge about STACK_START_MM down (scenes: 16-25
# mm). A top card's middle this far off, or a stack starting outside this window, lies
# across the gap between two columns or above the play area: the calibration no longer
# fits the table (a camera turned while its markers were out of sight).
OFF_MIDDLE_MM = 15.0
START_WINDOW_MM = (STACK_START_MM - 12.0, STACK_START_MM + 16.0)


def misplaced(columns: list[Column], view: View, lit: list[bool] | None = None) -> bool:
    """True when a stack lies where the layout allows none (:data:`OFF_MIDDLE_MM`,
    :data:`START_WINDOW_MM`). Where ``lit`` says a lamp's clipped white lies, it hides
    part of the stack and can misplace its outline: two such columns must agree."""
    width = view.calibration.width_mm / len(columns)
    lo, hi = START_WINDOW_MM
    out_lit = 0
    for i, column in enumerate(columns):
        if column.state is not Found.STACK or column.quad_mm is None:
            continue
        off = abs(float(column.quad_mm[:, 0].mean()) - (i + 0.5) * width)
        if off > OFF_MIDDLE_MM or not lo <= column.top_mm <= hi:
            if lit is None or not lit[i]:
                return True
            out_lit += 1
    return out_lit >= 2


def _worth_another_look(column: Column, ident: Identification | None) -> bool:
    """A stack whose outline named neither a card nor a back, or a column read occluded
    for its shape rather than found empty or too short for a card."""
    if column.state is Found.STACK:
        return ident is not None and ident.card is None and not ident.face_down
    return column.state is Found.OCCLUDED and column.reason in RETRY_REASONS


def _better(new: Identification, old: Identification | None) -> bool:
    """True when ``new`` names a card and ``old`` does not (or is missing), or both do
    and ``new`` by a wider margin."""
    if new.card is None:
        return False
    return old is None or old.card is None or new.margin > old.margin
