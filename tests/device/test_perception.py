"""From the stabiliser's states to the tracker's views: a location that stays unreadable
no longer holds the view back; it is carried as unread, then overdue."""

from __future__ import annotations

from dataclasses import dataclass

from device.perception import view_from_stable
from engine.tracking import Seen, Unread


@dataclass
class Stable:
    """What vision.stabilize reports for a location."""

    state: str
    top: str | None = None
    depth: int = 0
    unread_for: float = 0.0


def states(luna: Stable) -> dict[str, Stable]:
    return {"jupiter": Stable("card", "aja", 2), "mars": Stable("empty"),
            "luna": luna, "institute": Stable("face_down", None, 3)}


def test_settled_locations_make_the_view() -> None:
    view = view_from_stable(states(Stable("card", "eo", 1)))
    assert view == (Seen(2, "aja"), Seen(0), Seen(1, "eo"), Seen(3, None, True))


def test_a_location_still_settling_holds_the_view_back() -> None:
    assert view_from_stable(states(Stable("unknown", unread_for=0.8))) is None
    assert view_from_stable(states(Stable("occluded", unread_for=1.9))) is None


def test_a_location_unread_past_unread_after_is_carried_as_unread_then_overdue() -> None:
    view = view_from_stable(states(Stable("unknown", unread_for=2.5)), 2.0, 5.0)
    assert view is not None and view[2] == Unread(overdue=False) and view[0] == Seen(2, "aja")
    late = view_from_stable(states(Stable("unknown", unread_for=5.0)), 2.0, 5.0)
    assert late is not None and late[2] == Unread(overdue=True)


def test_a_settled_location_read_no_more_goes_unread_too() -> None:
    """Its stable content is stale once glare has kept it unread a while."""
    view = view_from_stable(states(Stable("card", "eo", 1, unread_for=2.1)), 2.0, 5.0)
    assert view is not None and view[2] == Unread()


def test_nothing_readable_anywhere_is_no_view() -> None:
    dark = {name: Stable("unknown", unread_for=9.0)
            for name in ("jupiter", "mars", "luna", "institute")}
    assert view_from_stable(dark) is None
