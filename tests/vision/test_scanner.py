"""The whole scan on small generated scenes: top cards, empties, hands, face-down cards."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable

import cv2
import numpy as np
import pytest

from engine.board import Location
from engine.tracking.view import Shown
from vision import calibrate, evaluate
from vision.calibrate import Calibration
from vision.scanner import LocationReading, Sight, TableScanner
from vision.synth.cards import FACE_DOWN
from vision.synth.scene import FOREIGN, SceneOptions, render


def test_a_reading_prints_its_state_as_the_contract_string() -> None:
    # ``table scan --json`` is a contract (docs/vision.md): the enum prints as its value.
    out = json.dumps(LocationReading(Sight.FACE_DOWN, None, 0.5, 2).to_dict())
    assert '"state": "face_down"' in out
    assert {s.value for s in Shown} <= {s.value for s in Sight}  # settled ones are Sights


@pytest.fixture(scope="module")
def scanner(classifier) -> TableScanner:
    return TableScanner(classifier=classifier, redetect_every=1)


def test_generated_scenes_read_right(scanner: TableScanner) -> None:
    tally = evaluate.Tally()
    # 24 scenes: random layouts leave a location empty rarely (1 in 11), and the empty
    # check below needs some.
    for i, (frame, truth) in enumerate(evaluate.scenes(24, "classic", seed=4242, hands=0.3)):
        # As on the device: a hand over a marker leaves the calibration of a clear view.
        clear = lambda i=i: evaluate.clear_view(i, "classic", seed=4242, hands=0.3)  # noqa: E731
        scanner.keep(evaluate.device_calibration(frame, clear))
        evaluate.score(scanner.scan(frame), truth, tally)
    assert tally.counts["card:n"] >= 15 and tally.counts["empty:n"] >= 3
    assert tally.rate("card", "right") >= 0.9
    assert tally.counts["card:wrong"] == 0
    assert tally.rate("empty", "right") >= 0.9
    assert tally.counts["occluded:wrong"] + tally.counts["unknown:wrong"] == 0


def test_reading_by_location_or_name(scanner: TableScanner) -> None:
    layout = {"jupiter": ["aja", "sevro"], "luna": ["eo"]}
    frame, _ = render(layout, random.Random(5), SceneOptions(capture=False))
    reading = scanner.scan(frame)
    assert reading[Location.LUNA] == reading["luna"]
    assert reading["mars"].state == "empty" and reading["mars"].top is None
    assert (reading["jupiter"].top, reading["jupiter"].depth) == ("sevro", 2)


def test_a_hand_over_the_top_card_is_never_a_guess(scanner: TableScanner) -> None:
    for seed in range(6):
        frame, _truth = render(
            {"mars": ["aja", "judge"], "luna": ["eo"]},
            random.Random(seed),
            SceneOptions(hands=("mars",)),
        )
        r = scanner.scan(frame)["mars"]
        assert r.state != "card" or r.top == "judge"


def test_face_down_and_foreign_tops(scanner: TableScanner) -> None:
    frame, _ = render(
        {"jupiter": ["aja", FACE_DOWN], "institute": [FOREIGN]},
        random.Random(8),
        SceneOptions(capture=False),
    )
    reading = scanner.scan(frame)
    assert reading["jupiter"].state == "face_down" and reading["jupiter"].top is None
    assert reading["institute"].state in ("unknown", "occluded")


def test_without_markers_everything_is_unknown(classifier) -> None:
    frame, _ = render({"mars": ["aja"]}, random.Random(2), SceneOptions(show_markers=False))
    reading = TableScanner(classifier=classifier).scan(frame)
    assert not reading.calibrated
    assert {r.state for r in reading.locations.values()} == {"unknown"}


def test_manual_calibration_needs_no_markers(classifier) -> None:
    frame, truth = render({"mars": ["aja"]}, random.Random(2), SceneOptions(show_markers=False))
    manual = Calibration(truth.calibration.corners, source="manual")
    reading = TableScanner(classifier=classifier, calibration=manual).scan(frame)
    assert reading["mars"].top == "aja"


def test_scan_is_pure_but_recovers_a_moved_camera(classifier) -> None:
    scanner = TableScanner(classifier=classifier, redetect_every=2)
    a, _ = render({"mars": ["aja"]}, random.Random(30), SceneOptions(capture=False))
    b, _ = render({"luna": ["eo"]}, random.Random(31), SceneOptions(capture=False))
    first = scanner.scan(a)
    assert scanner.scan(a) == first
    assert np.array_equal(
        a, render({"mars": ["aja"]}, random.Random(30), SceneOptions(capture=False))[0]
    )
    readings = [scanner.scan(b) for _ in range(3)]
    assert readings[-1]["luna"].top == "eo"


def test_a_hand_over_one_marker_keeps_the_calibration_from_four(classifier) -> None:
    scanner = TableScanner(classifier=classifier)
    frame, truth = render({"mars": ["aja"]}, random.Random(32), SceneOptions(capture=False))
    assert scanner.recalibrate(frame)
    held = scanner.calibration
    corner = tuple(int(v) for v in truth.calibration.corners[2])
    cv2.circle(frame, corner, 60, (128, 128, 128), -1)  # a hand over marker 2
    assert scanner.recalibrate(frame) and scanner.calibration is held


def test_learning_the_bare_table_then_reading_a_checked_cloth(classifier) -> None:
    """Calibration's "clear the play area": the bare table is learnt whole, and the
    stacks laid on it afterwards are read against it."""
    scanner = TableScanner(classifier=classifier)
    frames = evaluate.still_game(630_000, evaluate.CONDITIONS["gingham"], 3, clear_first=True)
    bare, _ = next(frames)
    assert scanner.learn_table(bare) == []
    assert scanner.reference is not None and scanner.reference.known.mean() > 0.6
    for frame, truth in frames:
        reading = scanner.scan(frame)
        for name, t in truth.locations.items():
            assert (reading[name].state, reading[name].depth) == (
                ("empty", 0) if t.state == "empty" else (t.state, t.depth)
            ), name


def test_learning_the_table_names_what_still_lies_there(classifier) -> None:
    frame, _ = render({"luna": ["eo"]}, random.Random(5), SceneOptions(capture=False))
    scanner = TableScanner(classifier=classifier)
    assert scanner.learn_table(frame) == ["luna"]
    with pytest.raises(ValueError, match="not calibrated"):
        TableScanner(classifier=classifier).learn_table(np.zeros((480, 640, 3), np.uint8))


def test_the_reference_survives_marker_jitter_but_not_a_moved_camera(classifier) -> None:
    frame, truth = render({}, random.Random(5), SceneOptions(capture=False))
    scanner = TableScanner(classifier=classifier, calibration=None)
    scanner.learn_table(frame)
    reference = scanner.reference
    jitter = Calibration(tuple((x + 0.4, y - 0.3) for x, y in truth.calibration.corners),
                         source="markers")
    scanner.keep(jitter)
    assert scanner.reference is reference
    moved = Calibration(tuple((x + 25, y) for x, y in truth.calibration.corners),
                        source="markers")
    scanner.keep(moved)
    assert scanner.reference is not reference and not scanner.reference.known.any()


def test_an_outline_a_few_millimetres_off_is_named_from_one_moved_back(
    classifier, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dataclasses import replace

    import vision.scanner as scanning

    layout = {"jupiter": ["aja", "sevro"], "luna": ["eo"]}
    frame, _ = render(layout, random.Random(5), SceneOptions(capture=False))
    read = scanning.read_stacks

    def off(seg, view):  # type: ignore[no-untyped-def]
        return [c if c.quad_mm is None else replace(c, quad_mm=c.quad_mm + np.array((7.0, -5.0)))
                for c in read(seg, view)]

    monkeypatch.setattr(scanning, "read_stacks", off)  # 7 mm right, 5 mm up: named by neither
    scanner = TableScanner(classifier=classifier)
    reading = scanner.scan(frame)
    assert (reading["jupiter"].top, reading["luna"].top) == ("sevro", "eo")


def knock(frame: np.ndarray, degrees: float, dx: float, dy: float) -> np.ndarray:
    """``frame`` as a camera turned ``degrees`` and shifted (``dx``, ``dy``) px sees it."""
    h, w = frame.shape[:2]
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    turn[:, 2] += np.array((dx, dy))
    return cv2.warpAffine(frame, turn, (w, h), borderMode=cv2.BORDER_REPLICATE)


LAYOUT = {"jupiter": ["aja", "sevro"], "mars": ["eo"], "luna": ["darrow"], "institute": ["lorn"]}


def arms_over(frame: np.ndarray, corners: Iterable[tuple[float, float]]) -> np.ndarray:
    """``frame`` with an arm's blob over each of the markers at ``corners`` (pixels)."""
    covered = frame.copy()
    for corner in corners:
        cv2.circle(covered, tuple(int(v) for v in corner), 70, (90, 120, 160), -1)
    return covered


def test_a_knocked_camera_is_recalibrated_at_the_next_frame(classifier) -> None:
    """The markers are looked for every 50 scans, but a knock moves them off their
    patches: the very next scan looks, finds them moved, and counts a move."""
    frame, _ = render(LAYOUT, random.Random(7), SceneOptions(capture=False))
    scanner = TableScanner(classifier=classifier)
    for _ in range(3):
        scanner.scan(frame)
    knocked = knock(frame, 2.0, 25, -15)
    reading = scanner.scan(knocked)
    expected = calibrate.detect(knocked)
    assert expected is not None and scanner.calibration == expected
    assert scanner.moves == 1
    assert {loc: reading[loc].top for loc in LAYOUT} == {k: v[-1] for k, v in LAYOUT.items()}
    for _ in range(3):  # still: the markers agree with their patches, no new move
        scanner.scan(knocked)
    assert scanner.moves == 1


def test_hands_over_the_markers_are_looked_past_every_few_scans(
        classifier, monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.scanner as scanning

    frame, truth = render(LAYOUT, random.Random(7), SceneOptions(capture=False))
    scanner = TableScanner(classifier=classifier)
    scanner.scan(frame)
    looks = []
    find = calibrate.find_markers
    monkeypatch.setattr(scanning.calibrate, "find_markers",
                        lambda f: looks.append(1) or find(f))  # type: ignore[func-returns-value]
    covered = arms_over(frame, truth.calibration.corners[2:])  # two arms over the near markers
    for i in range(9):
        scanner.scan(covered if i % 2 else covered + np.uint8(i % 3))  # no still frame
    assert 1 <= len(looks) <= 3 and scanner.moves == 0


def test_markers_hidden_a_while_are_looked_for_ever_more_seldom_yet_found_within_a_second(
        classifier, monkeypatch: pytest.MonkeyPatch) -> None:
    """A camera knocked while arms cover three markers: each look finds one, in vain
    (four passes, about 0.2 s each). The looks thin out, but the first frames that show
    the markers again are recalibrated within LOOK_MOST scans (under a second)."""
    import vision.scanner as scanning

    frame, truth = render(LAYOUT, random.Random(7), SceneOptions(capture=False))
    scanner = TableScanner(classifier=classifier)
    scanner.scan(frame)
    looks = []
    find = calibrate.find_markers
    monkeypatch.setattr(scanning.calibrate, "find_markers",
                        lambda f: looks.append(1) or find(f))  # type: ignore[func-returns-value]
    covered = arms_over(frame, truth.calibration.corners[1:])
    covered, knocked = knock(covered, 1.0, 20, 10), knock(frame, 1.0, 20, 10)

    def moving(picture: np.ndarray, i: int) -> np.ndarray:  # a hand over the middle
        out = picture.copy()
        cv2.circle(out, (500 + 40 * (i % 5), 480), 60, (90, 120, 160), -1)
        return out

    for i in range(20):
        scanner.scan(moving(covered, i))
    assert len(looks) == 4  # at scans 1, 4, 10 and 18 (one every third scan: 7)
    assert scanner.moves == 0
    for i in range(scanning.LOOK_MOST):
        scanner.scan(moving(knocked, i))
        if scanner.moves:
            break
    assert scanner.moves == 1 and scanner.calibration == calibrate.detect(knocked)


def test_a_camera_knocked_while_two_markers_are_hidden_moves_with_the_two_it_sees(
        classifier) -> None:
    """Long cascades (or arms) over the two near markers when the camera is knocked: the
    two far ones, moved as one, carry the calibration with them at the first knocked
    frame, and its cards are read; uncovered, the near markers lie where it puts them."""
    frame, truth = render(LAYOUT, random.Random(7), SceneOptions(capture=False))
    scanner = TableScanner(classifier=classifier)
    scanner.scan(frame)
    covered = arms_over(frame, truth.calibration.corners[2:])
    knocked = knock(frame, 2.0, 25, -15)
    reading = scanner.scan(knock(covered, 2.0, 25, -15))
    expected = calibrate.detect(knocked)
    assert scanner.moves == 1 and scanner.calibration is not None and expected is not None
    off = np.abs(np.subtract(scanner.calibration.corners, expected.corners)).max()
    assert off < 1.0  # px, at the hidden markers too
    assert {loc: reading[loc].top for loc in ("jupiter", "mars")} == {"jupiter": "sevro",
                                                                      "mars": "eo"}
    reading = scanner.scan(knocked)  # the near markers uncovered: in place, no new move
    assert scanner.moves == 1
    assert {loc: reading[loc].top for loc in LAYOUT} == {k: v[-1] for k, v in LAYOUT.items()}


def turned(frame: np.ndarray, axis: tuple[float, float, float], degrees: float) -> np.ndarray:
    """``frame`` as the camera sees it turned ``degrees`` about ``axis`` through its centre
    (a real knock: the view tilts, it does not only turn and shift)."""
    h, w = frame.shape[:2]
    k = np.array([[0.85 * w, 0, w / 2], [0, 0.85 * w, h / 2], [0, 0, 1]])
    turn, _ = cv2.Rodrigues(np.radians(degrees) * np.array(axis) / np.linalg.norm(axis))
    return cv2.warpPerspective(frame, k @ turn @ np.linalg.inv(k), (w, h),
                               borderMode=cv2.BORDER_REPLICATE)


def test_a_calibration_moved_with_two_markers_is_refined_once_three_show(classifier) -> None:
    """A camera tilted 2° while the near markers are covered: the two far ones give a
    calibration some pixels off at the hidden corners (a tilt is no pure turn and shift);
    the look that sees all four replaces it without counting another move."""
    frame, truth = render(LAYOUT, random.Random(7), SceneOptions(capture=False))
    scanner = TableScanner(classifier=classifier)
    scanner.scan(frame)
    covered = arms_over(frame, truth.calibration.corners[2:])
    axis = (1.0, 0.5, 0.3)
    scanner.scan(turned(covered, axis, 2.0))
    knocked = turned(frame, axis, 2.0)
    expected = calibrate.detect(knocked)
    assert scanner.moves == 1 and scanner.calibration is not None and expected is not None
    rough = np.abs(np.subtract(scanner.calibration.corners, expected.corners)).max()
    assert 1.0 < rough < 25.0  # px: near, not exact
    assert scanner.recalibrate(knocked)
    assert scanner.calibration == expected and scanner.moves == 1


def test_two_markers_seen_in_place_leave_a_later_knock_counted(classifier) -> None:
    """Arms over two markers of an unmoved camera: the two seen keep the calibration as it
    was. A knock seen later with all four is a move of its own."""
    frame, truth = render(LAYOUT, random.Random(7), SceneOptions(capture=False))
    scanner = TableScanner(classifier=classifier)
    scanner.scan(frame)
    held = scanner.calibration
    covered = arms_over(frame, truth.calibration.corners[2:])
    assert scanner.recalibrate(covered) and scanner.calibration == held
    assert scanner.recalibrate(knock(frame, 2.0, 25, -15)) and scanner.moves == 1


def test_stacks_where_the_calibration_allows_none_name_no_card(classifier) -> None:
    """The camera turned half a column's width while its markers were out of sight: read
    with the calibration it had, every stack lies across the gap between two columns."""
    seen, truth = render(LAYOUT, random.Random(7), SceneOptions(capture=False))
    hidden, _ = render(LAYOUT, random.Random(7), SceneOptions(capture=False,
                                                              show_markers=False))
    (x0, _y0), (x1, _y1) = truth.calibration.corners[:2]
    turned = knock(hidden, 0.5, (x1 - x0) / 8, 0)
    scanner = TableScanner(classifier=classifier)
    scanner.scan(seen)
    reading = scanner.scan(turned)
    assert not reading.calibrated
    assert {r.state for r in reading.locations.values()} == {Sight.UNKNOWN}
    assert scanner.scan(seen).calibrated  # the markers back in sight: read again
