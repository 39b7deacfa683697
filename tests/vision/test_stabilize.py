"""The stabiliser: hands and flicker make no events; one deploy makes exactly one."""

from __future__ import annotations

import pytest

from vision.scanner import LocationReading, Sight, TableReading
from vision.stabilize import CLEAR_FRAMES, Stabilizer

FPS = 10


def table(**locs: LocationReading) -> TableReading:
    base = {name: LocationReading(Sight.EMPTY) for name in ("jupiter", "mars", "luna", "institute")}
    return TableReading({**base, **locs})


def card(top: str, depth: int = 1) -> LocationReading:
    return LocationReading(Sight.CARD, top, 0.9, depth)


HAND = LocationReading(Sight.OCCLUDED)


def feed(stab: Stabilizer, frames: list[TableReading], start: float = 0.0) -> list:
    events = []
    for i, frame in enumerate(frames):
        events += stab.update(frame, start + i / FPS)
    return events


def settled(stab: Stabilizer, frame: TableReading, seconds: float = 1.0) -> float:
    """Feed a still table for ``seconds``; returns the time reached."""
    feed(stab, [frame] * int(seconds * FPS))
    return seconds


def test_first_still_table_settles_to_added_events() -> None:
    stab = Stabilizer()
    events = feed(stab, [table(mars=card("aja"))] * 10)
    assert [(e.kind, e.location, e.new_top) for e in events] == [("added", "mars", "aja")]
    assert stab.state["mars"].top == "aja" and stab.state["jupiter"].state == "empty"


def test_hand_in_hand_out_makes_no_event() -> None:
    stab = Stabilizer()
    still = table(mars=card("aja"))
    t = settled(stab, still)
    frames = [table(mars=HAND, luna=HAND)] * 15 + [still] * 20
    assert feed(stab, frames, start=t) == []


def test_single_frame_flicker_makes_no_event() -> None:
    stab = Stabilizer()
    still = table(mars=card("aja"))
    t = settled(stab, still)
    frames = [still] * 5 + [table(mars=card("sevro"))] + [still] * 5
    frames += [table(mars=LocationReading(Sight.EMPTY))] * 2 + [still] * 10
    assert feed(stab, frames, start=t) == []


def test_unknown_frames_carry_no_information() -> None:
    stab = Stabilizer()
    still = table(mars=card("aja"))
    t = settled(stab, still)
    noisy = [table(mars=LocationReading(Sight.UNKNOWN, None, 0.2, 1)), still] * 10
    assert feed(stab, noisy, start=t) == []


def test_one_deploy_is_exactly_one_event_within_a_second() -> None:
    stab = Stabilizer()
    t = settled(stab, table(mars=card("aja")))
    deploy = [table(mars=HAND)] * 8 + [table(mars=card("sevro", 2))] * 30
    events = []
    for i, frame in enumerate(deploy):
        for event in stab.update(frame, t + i / FPS):
            events.append((event, i))
    assert len(events) == 1
    event, frame_index = events[0]
    assert (event.kind, event.old_top, event.new_top, event.depth) == ("added", "aja", "sevro", 2)
    still_from = 8
    assert (frame_index - still_from) / FPS <= 1.0


def test_removing_the_top_card_reveals_the_one_below() -> None:
    stab = Stabilizer()
    t = settled(stab, table(mars=card("aja")))
    t += settled(stab, table(mars=card("sevro", 2)))
    events = feed(stab, [table(mars=card("aja", 1))] * 10, start=t)
    assert [(e.kind, e.new_top) for e in events] == [("removed", "aja")]


def test_clearing_a_location() -> None:
    stab = Stabilizer()
    t = settled(stab, table(luna=card("eo")))
    events = feed(stab, [table()] * 10, start=t)
    assert [(e.kind, e.location, e.old_top) for e in events] == [("cleared", "luna", "eo")]


def test_replacing_at_the_same_depth() -> None:
    stab = Stabilizer()
    t = settled(stab, table(luna=card("eo", 2)))
    events = feed(stab, [table(luna=card("aja", 2))] * 10, start=t)
    assert [e.kind for e in events] == ["replaced"]


def test_a_long_cover_reports_occluded_once_and_nothing_when_it_lifts() -> None:
    stab = Stabilizer(occluded_after_s=2.0)
    still = table(institute=card("eo"))
    t = settled(stab, still)
    events = feed(stab, [table(institute=HAND)] * 40 + [still] * 20, start=t)
    assert [(e.kind, e.location) for e in events] == [("occluded", "institute")]


def test_an_occluded_change_carries_the_locators_reason() -> None:
    stab = Stabilizer(occluded_after_s=2.0)
    t = settled(stab, table(luna=card("eo", 11)))
    past = LocationReading(Sight.OCCLUDED, reason="something reaches off the play area")
    events = feed(stab, [table(luna=past)] * 30, start=t)
    assert [(e.kind, e.reason) for e in events] == [("occluded", past.reason)]


def test_face_down_card_on_top() -> None:
    stab = Stabilizer()
    t = settled(stab, table(jupiter=card("aja")))
    down = table(jupiter=LocationReading(Sight.FACE_DOWN, None, 0.8, 2))
    events = feed(stab, [down] * 10, start=t)
    assert [(e.kind, e.new_top, e.state) for e in events] == [("added", None, "face_down")]


def test_depth_jitter_alone_is_silent() -> None:
    stab = Stabilizer()
    t = settled(stab, table(mars=card("aja", 3)))
    frames = [table(mars=card("aja", d)) for d in (3, 4, 3, 2, 3, 4, 4, 3, 3, 3)] * 2
    assert feed(stab, frames, start=t) == []


def test_a_location_glare_keeps_unreadable_counts_its_unread_seconds() -> None:
    stab = Stabilizer()
    still = table(luna=card("eo"))
    t = settled(stab, still)
    glare = table(luna=LocationReading(Sight.UNKNOWN, None, 0.1, 3))
    feed(stab, [glare] * 30, start=t)  # three seconds of frames naming nothing there
    assert stab.state["luna"].unread_for == pytest.approx(2.9 + 0.1, abs=0.11)
    assert stab.state["luna"].top == "eo"  # the stable content stands meanwhile
    assert stab.state["mars"].unread_for == 0.0  # read in every frame
    feed(stab, [still], start=t + 3.0)
    assert stab.state["luna"].unread_for == 0.0  # read again


def test_a_location_that_never_settles_is_unread_from_the_first_frame() -> None:
    stab = Stabilizer()
    misread = table(institute=LocationReading(Sight.UNKNOWN, None, 0.2, 6))  # bare wood, say
    feed(stab, [misread] * 25)
    assert stab.state["institute"].state == "unknown"
    assert stab.state["institute"].unread_for == pytest.approx(2.4)
    assert stab.state["jupiter"].unread_for == 0.0


def test_a_hand_passing_leaves_a_location_unread_only_for_a_moment() -> None:
    stab = Stabilizer()
    t = settled(stab, table(mars=card("aja")))
    longest = 0.0
    frames = [table(mars=HAND)] * 8 + [table(mars=card("sevro", 2))] * 10
    for i, frame in enumerate(frames):
        stab.update(frame, t + i / FPS)
        longest = max(longest, stab.state["mars"].unread_for)
    assert longest < 1.5 and stab.state["mars"].unread_for == 0.0


def test_a_card_slid_under_an_unchanged_top_is_settling_until_its_count_settles() -> None:
    """Sun-Hwa keeps the card she moves under herself: only the count shows it, and the
    count settles over several frames. Until it has, the location says it is settling,
    so the view waits for it and the card taken elsewhere is not seen alone."""
    stab = Stabilizer()
    t = settled(stab, table(mars=card("sun-hwa", 4), luna=card("dancer", 1)))
    assert not stab.state["mars"].settling
    moved = table(mars=card("sun-hwa", 5))  # Luna emptied, Mars one card deeper
    waits = []
    for i in range(12):
        stab.update(moved, t + i / FPS)
        waits.append(stab.state["mars"].settling)
    assert waits[0] and not waits[-1]  # at first, then no more once the count settled
    assert stab.state["mars"].depth == 5 and stab.state["luna"].state == "empty"


def test_a_hand_over_a_location_is_counted_in_seconds_covered() -> None:
    stab = Stabilizer()
    t = settled(stab, table(mars=card("aja")))
    feed(stab, [table(mars=HAND)] * 6, start=t)
    assert stab.state["mars"].covered_for == pytest.approx(0.5)
    feed(stab, [table(mars=card("aja"))] * (CLEAR_FRAMES - 1), start=t + 0.6)
    assert stab.state["mars"].covered_for == 0.0  # read again: the view need not wait
    assert stab.state["mars"].covered_span > 0.5  # but one clear frame may be a misread hand
    feed(stab, [table(mars=card("aja"))], start=t + 0.6 + (CLEAR_FRAMES - 1) / FPS)
    assert stab.state["mars"].covered_span == 0.0


def test_a_place_read_now_empty_now_covered_is_one_long_cover() -> None:
    # An empty place on a busy cloth: the locator takes it for a hand three frames in
    # four. Each lone "empty" frame must not end the cover, or the view waits forever.
    stab = Stabilizer()
    t = settled(stab, table())
    flicker = [table(institute=HAND)] * 3 + [table()]
    feed(stab, flicker * 5, start=t)
    assert stab.state["institute"].covered_span >= 1.5
    assert stab.state["institute"].state == "empty"  # nothing it knew is forgotten


def test_a_lone_misread_frame_on_a_place_read_well_is_no_long_cover() -> None:
    # One frame in five taken for a hand on a card read well: each holds the view for
    # that frame only; the span never grows long enough to leave the place unread.
    stab = Stabilizer()
    t = settled(stab, table(mars=card("aja")))
    spans = []
    for k in range(30):
        stab.update(table(mars=HAND if k % 5 == 0 else card("aja")), t + k / FPS)
        spans.append(stab.state["mars"].covered_span)
    assert max(spans) < 0.5 and stab.state["mars"].covered_for == 0.0
