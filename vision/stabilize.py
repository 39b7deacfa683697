"""Noisy per-frame readings → stable location states and change events.

A new content (state and top card) must be read in at least ``min_frames`` frames over
``settle_s`` seconds, with no frame of the location occluded in between, before it
becomes the stable state. ``unknown`` frames carry no information and are skipped. A
hand that comes and goes changes nothing; a location covered for ``occluded_after_s``
seconds emits one ``occluded`` change. Depth is noisier than the top card, so a depth
change alone updates the state silently; while the latest frame reads another content
or count than the stable one, the state says it is ``settling`` (a card slid under an
unchanged top settles after the card taken from elsewhere), and ``covered_for`` says
how long a hand or something else has been over it.
Each state also says how long the location has gone unread (``unread_for``: no frame
confirmed its stable content, or nothing ever settled there), so a reflection or a
misread texture that keeps one location unreadable can be told from a hand passing
over it. Pure logic: time is passed in.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from statistics import median

from engine.board import Location
from vision.scanner import LocationReading, Sight, TableReading


class Shift(StrEnum):
    """What a stable change did to a location (a string, as the journal and logs print it)."""

    ADDED = "added"
    REMOVED = "removed"
    REPLACED = "replaced"
    OCCLUDED = "occluded"
    CLEARED = "cleared"


@dataclass(frozen=True, slots=True)
class StableChange:
    """A stable change at one location (the engine's ``state.Change`` is a game's)."""

    kind: Shift
    location: str
    old_top: str | None
    new_top: str | None
    depth: int
    old_depth: int
    t: float
    state: Sight = Sight.CARD  # the location's new state
    reason: str = ""  # for "occluded": the locator's reason (a hand, a stack past the view)


@dataclass(frozen=True, slots=True)
class LocationState:
    """A location's stable state. ``state`` unknown until something settles."""

    state: Sight = Sight.UNKNOWN
    top: str | None = None
    depth: int = 0
    since: float = 0.0
    history: tuple[str | None, ...] = ()  # tops seen here, oldest first
    # Seconds, as of the latest frame, since a frame last read this state here (since the
    # first frame while nothing has settled): a hand makes it grow for a moment, glare
    # for as long as it lasts.
    unread_for: float = 0.0
    # The latest frame read something else here (another top, or the same top at another
    # count: a card slid under it): a change is under way that has not settled yet.
    settling: bool = False
    # Seconds the latest frames have shown a hand or something else over it (0: the
    # latest frame read the table there).
    covered_for: float = 0.0
    # Seconds since something first covered it, a frame read through it now and then
    # included: it ends once CLEAR_FRAMES frames in a row read the table there.
    covered_span: float = 0.0


@dataclass
class _Candidate:
    key: tuple[Sight, str | None]
    since: float
    depths: list[int] = field(default_factory=list)


class Stabilizer:
    """Hysteresis over :class:`~vision.scanner.TableReading` frames."""

    def __init__(
        self, settle_s: float = 0.5, min_frames: int = 4, occluded_after_s: float = 5.0
    ) -> None:
        self.settle_s, self.min_frames, self.occluded_after_s = (
            settle_s,
            min_frames,
            occluded_after_s,
        )
        self._stable = {loc.value: LocationState() for loc in Location}
        self._candidate: dict[str, _Candidate | None] = dict.fromkeys(self._stable)
        self._covered: dict[str, float | None] = dict.fromkeys(self._stable)
        self._reported: dict[str, bool] = dict.fromkeys(self._stable, False)
        self._clear: dict[str, int] = dict.fromkeys(self._stable, 0)  # readable in a row
        self._hand: dict[str, float | None] = dict.fromkeys(self._stable)  # this cover's start
        self._read_at: dict[str, float | None] = dict.fromkeys(self._stable)  # last confirmed
        self._first: float | None = None  # the first frame's time
        self._last: float | None = None  # the latest frame's time
        # Seconds the camera delivered no frame before the latest one, when that is a gap
        # (GAP_S or more): the table may have changed and changed back unseen meanwhile.
        self.gap = 0.0

    @property
    def state(self) -> dict[str, LocationState]:
        """The stable state of every location (a copy)."""
        return dict(self._stable)

    def update(self, reading: TableReading, t: float) -> list[StableChange]:
        """Feed one frame's reading taken at ``t`` seconds; returns the changes it settles."""
        changes = []
        if self._first is None:
            self._first = t
        since = 0.0 if self._last is None else t - self._last
        self.gap, self._last = (since if since >= GAP_S else 0.0), t
        for loc in Location:
            r = reading.locations.get(loc.value)
            change = self._update_one(loc.value, r, t)
            if change is not None:
                changes.append(change)
            self._note_read(loc.value, r, t)
        return changes

    def _note_read(self, name: str, r: LocationReading | None, t: float) -> None:
        """Keep ``unread_for`` (this frame read the stable content, or it did not) and
        ``settling`` (it read another content or count, not yet settled)."""
        stable = self._stable[name]
        same = r is not None and (r.state, r.top) == (stable.state, stable.top)
        if same and stable.state is not Sight.UNKNOWN:
            self._read_at[name] = t
        read_at = self._read_at[name]
        assert self._first is not None
        unread = round(t - (self._first if read_at is None else read_at), 6)
        settling = stable.settling
        if r is not None and r.state in _READ:
            settling = not same or (r.state is not Sight.EMPTY and r.depth != stable.depth)
        hand, since = self._hand[name], self._covered[name]
        covered = 0.0 if hand is None else round(t - hand, 6)
        span = 0.0 if since is None else round(t - since, 6)
        if (unread, settling, covered, span) != (stable.unread_for, stable.settling,
                                                 stable.covered_for, stable.covered_span):
            self._stable[name] = replace(stable, unread_for=unread, settling=settling,
                                         covered_for=covered, covered_span=span)

    def _update_one(self, name: str, r: LocationReading | None, t: float) -> StableChange | None:
        if r is None or r.state is Sight.UNKNOWN:
            return None
        if r.state is Sight.OCCLUDED:
            return self._occluded(name, t, r.reason)
        self._clear[name] += 1
        self._hand[name] = None
        if self._clear[name] >= CLEAR_FRAMES:
            self._covered[name], self._reported[name] = None, False
        key = (r.state, r.top)
        cand = self._candidate[name]
        if cand is None or cand.key != key:
            cand = self._candidate[name] = _Candidate(key, t)
        cand.depths.append(r.depth)
        if len(cand.depths) >= self.min_frames and t - cand.since >= self.settle_s:
            return self._commit(name, cand, t)
        return None

    def _occluded(self, name: str, t: float, reason: str = "") -> StableChange | None:
        self._candidate[name] = None  # the table is not still: start settling afresh
        self._clear[name] = 0
        if self._hand[name] is None:
            self._hand[name] = t
        since = self._covered[name]
        if since is None:
            self._covered[name] = t
            return None
        old = self._stable[name]
        if self._reported[name] or t - since < self.occluded_after_s:
            return None
        self._reported[name] = True
        return StableChange(
            Shift.OCCLUDED, name, old.top, old.top, old.depth, old.depth, t, Sight.OCCLUDED, reason
        )

    def _commit(self, name: str, cand: _Candidate, t: float) -> StableChange | None:
        old = self._stable[name]
        state, top = cand.key
        depth = int(median(cand.depths[-self.min_frames * 3 :]))
        if (state, top) == (old.state, old.top):
            self._stable[name] = replace(old, depth=depth)  # depth drift alone: no event
            return None
        if old.state is Sight.UNKNOWN and state is Sight.EMPTY:
            self._stable[name] = LocationState(state, top, depth, t)  # nothing was there
            return None
        kind = _kind(old, state, top, depth)
        history = _history(old.history, kind, top)
        self._stable[name] = LocationState(state, top, depth, t, history)
        return StableChange(kind, name, old.top, top, depth, old.depth, t, state)


_READ = (Sight.EMPTY, Sight.CARD, Sight.FACE_DOWN)  # readings that say what lies there
# A cover's span ends once this many frames in a row read the table there. A patterned
# cloth the locator now and then takes for a hand (terrazzo under an empty place: mostly
# "occluded", one frame in four "empty") is then one long cover, left unread after
# perception's COVERED_S, rather than a string of short ones that each hold the view;
# a lone misread frame on a place read well holds the view for that frame only.
CLEAR_FRAMES = 3
# Frames come 5-10 a second; this long without one is a gap (a busy Pi, a loose cable),
# not the camera's rhythm.
GAP_S = 0.75


def _kind(old: LocationState, state: Sight, top: str | None, depth: int) -> Shift:
    """Name the change from ``old`` to the newly settled (state, top, depth)."""
    if state is Sight.EMPTY:
        return Shift.CLEARED
    if old.state in (Sight.UNKNOWN, Sight.EMPTY):
        return Shift.ADDED
    if (len(old.history) >= 2 and old.history[-2] == top) or depth < old.depth:
        return Shift.REMOVED
    return Shift.ADDED if depth > old.depth else Shift.REPLACED


def _history(
    history: tuple[str | None, ...], kind: Shift, top: str | None
) -> tuple[str | None, ...]:
    if kind is Shift.CLEARED:
        return ()
    if kind is Shift.REMOVED:
        return (*history[:-1],) if history[-2:-1] == (top,) else (*history[:-1], top)
    if kind is Shift.REPLACED:
        return (*history[:-1], top)
    return (*history, top)
