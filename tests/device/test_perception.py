"""From the stabiliser's states to the tracker's views: a location that stays unreadable
no longer holds the view back; it is carried as unread, then overdue."""

from __future__ import annotations

from dataclasses import dataclass

from device.perception import ASK_AFTER_S, view_from_stable
from engine.tracking import Seen, Unread


@dataclass
class Stable:
    """What vision.stabilize reports for a location."""

    state: str
    top: str | None = None
    depth: int = 0
    unread_for: float = 0.0
    settling: bool = False
    covered_for: float = 0.0
    covered_span: float = 0.0


def states(luna: Stable) -> dict[str, Stable]:
    return {"jupiter": Stable("card", "aja", 2), "mars": Stable("empty"),
            "luna": luna, "institute": Stable("face_down", None, 3)}


def test_settled_locations_make_the_view() -> None:
    view = view_from_stable(states(Stable("card", "eo", 1)))
    assert view == (Seen(2, "aja"), Seen(0), Seen(1, "eo"), Seen(3, None, True))


def test_a_location_still_settling_holds_the_view_back() -> None:
    assert view_from_stable(states(Stable("unknown", unread_for=0.8))) is None
    assert view_from_stable(states(Stable("occluded", unread_for=1.9))) is None


def test_a_change_still_settling_somewhere_holds_the_whole_view_back() -> None:
    """Luna's card was moved under another top whose count has yet to settle: the view
    waits, so both halves of the move arrive together."""
    assert view_from_stable(states(Stable("card", "eo", 1, settling=True))) is None


def test_a_hand_over_a_location_holds_the_view_a_moment_then_leaves_it_unread() -> None:
    assert view_from_stable(states(Stable("card", "eo", 1, covered_for=0.4))) is None
    view = view_from_stable(states(Stable("card", "eo", 1, covered_for=1.2, covered_span=1.2)),
                            2.0, 5.0)
    assert view is not None and view[2] == Unread(overdue=False) and view[0] == Seen(2, "aja")


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


def test_a_living_room_draws_each_event_within_the_game_and_the_sizes_people_meet() -> None:
    import random

    from device.perception import Room

    for seed in range(20):
        room = Room.draw(random.Random(seed), 200.0)
        assert room.events() == ("nudge", "light", "gap", "rest")
        assert room.nudge is not None and room.light is not None
        assert room.gap is not None and room.rest is not None
        assert 30.0 <= room.nudge[0] <= 170.0 and 1.0 <= abs(room.nudge[1]) <= 3.0
        assert 10.0 <= (room.nudge[2] ** 2 + room.nudge[3] ** 2) ** 0.5 <= 35.0
        assert 0.6 <= room.light[1] <= 1.45 and room.light[2] > 0
        assert 1.0 <= room.gap[1] <= 2.0 and 2.0 <= room.rest[1] <= 4.0


def test_a_living_room_drops_frames_rests_a_hand_and_moves_the_picture() -> None:
    import numpy as np

    from device.perception import Room

    room = Room(nudge=(10.0, 2.0, 20.0, 0.0), light=(5.0, 1.2, 0.1), gap=(3.0, 1.5),
                rest=(7.0, 2.0, "luna"))
    assert [room.dropped(t) for t in (2.9, 3.0, 4.4, 4.5)] == [False, True, True, False]
    assert room.resting(8.0) == ("luna",) and room.resting(9.0) == ()
    frame = np.full((40, 60, 3), 100, np.uint8)
    frame[:, 30:] = 200
    assert (room.lit(frame, 1.0) == frame).all() and (room.seen(frame, 9.0) == frame).all()
    lit = room.lit(frame, 6.0)
    assert lit[0, 0, 2] > lit[0, 0, 1] > lit[0, 0, 0] > 100  # brighter, and warmer
    moved = room.seen(frame, 11.0)
    # Shifted 20 px to the right: the edge between dark and light, at x = 30, is at ~50.
    assert moved[20, 45, 1] < frame[20, 45, 1] and moved[20, 56, 1] == frame[20, 56, 1]


def test_a_place_the_cloth_makes_look_covered_now_and_then_leaves_other_views_flowing() -> None:
    # The terrazzo case: an empty Institute read as a hand three frames in four. A card
    # placed on Mars meanwhile must still reach the tracker, the Institute unread.
    from vision.scanner import LocationReading, Sight, TableReading
    from vision.stabilize import Stabilizer

    def frame(mars: LocationReading, institute: LocationReading) -> TableReading:
        empty = LocationReading(Sight.EMPTY)
        return TableReading({"jupiter": empty, "mars": mars, "luna": empty,
                             "institute": institute})

    stab, t, views = Stabilizer(), 0.0, []
    aja = LocationReading(Sight.CARD, "aja", 0.9, 1)
    hand, empty = LocationReading(Sight.OCCLUDED), LocationReading(Sight.EMPTY)
    for k in range(70):  # a second of the still table, the Institute settled empty
        mars = aja if k >= 40 else empty
        stab.update(frame(mars, hand if k >= 10 and k % 4 else empty), t)
        views.append(view_from_stable(stab.state))
        t += 0.1
    last = views[-1]
    assert last is not None and last[1] == Seen(1, "aja") and isinstance(last[3], Unread)


def test_a_place_covered_past_ask_after_is_overdue_though_now_and_then_read() -> None:
    # The cloth's lone "empty" frames keep unread_for short; covered this long, the
    # table is asked all the same (else a tracker waiting there would wait forever).
    held = states(Stable("empty", None, 0, unread_for=0.3, covered_for=0.1,
                         covered_span=ASK_AFTER_S))
    view = view_from_stable(held)
    assert view is not None and view[2] == Unread(overdue=True)
