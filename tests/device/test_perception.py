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


def test_the_scripted_cameras_blown_lamp_stays_clipped_as_the_light_dims() -> None:
    """A reflection the sensor clips is drawn over the room's light: flat white in every
    frame, also when the light's drift darkens the rest (its gain at 0.8 here)."""
    import numpy as np

    from device.perception import ScriptedCamera

    layout = ((), (), (("eo", False),), ())
    camera = ScriptedCamera(seed=0, lamp=(205.0, 90.0, 30.0), lamp_strength=1.6,
                            drift_period_s=4.0, still_frames=31)  # t = 3 s: gain 0.8
    frames = [frame for frame, _t in camera.frames(layout)]
    first, last = frames[0], frames[-1]  # the light's gain about 1.03, then 0.80
    assert camera._lamp_px is not None
    (x, y), _radius = camera._lamp_px
    spot = last[round(y) - 2 : round(y) + 3, round(x) - 2 : round(x) + 3]
    assert np.median(spot.min(axis=2)) >= 245
    corner = (slice(0, 100), slice(0, 100))  # bare table far from the lamp: it did dim
    assert last[corner].mean() < 0.85 * first[corner].mean()
