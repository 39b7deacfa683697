"""Camera sources (a real video file through OpenCV, saved frames, the synthetic table)
and the capture loop's loss and recovery."""

from __future__ import annotations

import threading
from pathlib import Path

import cv2
import numpy as np
import pytest

from device.config import load
from device.hardware.camera import (
    CameraError,
    OpenCVCamera,
    PiCamera,
    ReplayCamera,
    SyntheticCamera,
    open_camera,
    parse_device,
    to_bgr,
)
from device.hardware.capture import (
    CAMERA_MOVED,
    GLARE_HIDES,
    STACK_PAST_VIEW,
    Backoff,
    CaptureLoop,
    VisionPipeline,
    glare_message,
    moved_message,
    past_view_message,
)

# Frame colours in BGR: blue, green, red, white, black.
COLOURS = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255), (0, 0, 0)]


def write_video(path: Path, colours: list[tuple[int, int, int]] = COLOURS) -> Path:
    """A short MJPG video, one flat colour per frame."""
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    assert writer.isOpened(), "OpenCV cannot write MJPG here"
    for colour in colours:
        writer.write(np.full((48, 64, 3), colour, np.uint8))
    writer.release()
    return path


def mean_colour(frame: np.ndarray) -> tuple[int, ...]:
    return tuple(round(float(v) / 255.0) * 255 for v in frame.reshape(-1, 3).mean(axis=0))


# --- Picamera2 buffers ---------------------------------------------------------------------


def test_rgb888_from_picamera2_is_already_bgr() -> None:
    # libcamera's "RGB888" stores each pixel as B, G, R: OpenCV's order, no swap.
    buffer = np.zeros((2, 2, 3), np.uint8)
    buffer[..., 0] = 255  # first byte of every pixel
    frame = to_bgr(buffer, "RGB888")
    assert frame is buffer
    hue = cv2.cvtColor(frame, cv2.COLOR_BGR2HSV)[0, 0, 0]
    assert hue == 120  # OpenCV reads it as blue


def test_bgr888_and_xbgr_are_swapped_xrgb_drops_padding() -> None:
    buffer = np.zeros((2, 2, 4), np.uint8)
    buffer[..., 0] = 255
    assert tuple(to_bgr(buffer[..., :3].copy(), "BGR888")[0, 0]) == (0, 0, 255)
    assert tuple(to_bgr(buffer, "XBGR8888")[0, 0]) == (0, 0, 255)
    assert tuple(to_bgr(buffer, "XRGB8888")[0, 0]) == (255, 0, 0)
    with pytest.raises(ValueError, match="unsupported camera format"):
        to_bgr(buffer, "NV12")


def test_yuv420_lores_frames_convert_to_bgr() -> None:
    original = np.zeros((48, 64, 3), np.uint8)
    original[:, :32] = (255, 0, 0)
    original[:, 32:] = (0, 0, 255)
    i420 = cv2.cvtColor(original, cv2.COLOR_BGR2YUV_I420)  # what the lores stream gives
    frame = to_bgr(i420, "YUV420")
    assert frame.shape == original.shape
    assert np.abs(frame.astype(int) - original.astype(int)).mean() < 12


def test_picamera_on_a_pi() -> None:
    pytest.importorskip("picamera2", reason="needs a Raspberry Pi with python3-picamera2")
    try:
        camera = PiCamera((640, 480))
    except CameraError as exc:
        pytest.skip(f"no Raspberry Pi camera attached: {exc}")
    try:
        assert camera.read().shape == (480, 640, 3)
    finally:
        camera.close()


def test_picamera_without_picamera2_is_a_camera_error() -> None:
    try:
        import picamera2  # noqa: F401
    except ImportError:
        with pytest.raises(CameraError, match="picamera2 is not installed"):
            PiCamera()
    else:
        pytest.skip("picamera2 is installed here")


# --- OpenCV: a real video file ---------------------------------------------------------------


def test_a_video_file_plays_its_frames_in_order_and_loops(tmp_path: Path) -> None:
    camera = OpenCVCamera(str(write_video(tmp_path / "table.avi")))
    seen = [mean_colour(camera.read()) for _ in range(len(COLOURS) + 2)]
    camera.close()
    assert seen == [*COLOURS, *COLOURS[:2]]


def test_a_video_file_without_loop_ends_with_a_camera_error(tmp_path: Path) -> None:
    camera = OpenCVCamera(str(write_video(tmp_path / "table.avi")), loop=False)
    for _ in COLOURS:
        camera.read()
    with pytest.raises(CameraError, match="the video ended"):
        camera.read()


def test_missing_cameras_are_camera_errors(tmp_path: Path) -> None:
    with pytest.raises(CameraError, match="no video file"):
        OpenCVCamera(str(tmp_path / "nothing.avi"))
    with pytest.raises(CameraError, match="cannot open camera"):
        OpenCVCamera("/dev/video97")
    assert parse_device("3") == 3 and parse_device("/dev/video2") == "/dev/video2"


# --- replays and the synthetic table ---------------------------------------------------------


def test_a_replay_reads_saved_frames_in_name_order(tmp_path: Path) -> None:
    for i, colour in enumerate(COLOURS[:3]):
        cv2.imwrite(str(tmp_path / f"frame{i:03d}.png"), np.full((8, 8, 3), colour, np.uint8))
    camera = ReplayCamera(tmp_path)
    assert [mean_colour(camera.read()) for _ in range(4)] == [*COLOURS[:3], COLOURS[0]]
    once = ReplayCamera(tmp_path, loop=False)
    for _ in range(3):
        once.read()
    with pytest.raises(CameraError, match="replay ended"):
        once.read()
    with pytest.raises(CameraError, match="no frames"):
        ReplayCamera([])
    with pytest.raises(CameraError, match="no frame folder"):
        ReplayCamera(tmp_path / "absent")


def test_the_synthetic_table_renders_only_when_the_layout_changes() -> None:
    layout = {"jupiter": ["darrow"], "mars": [], "luna": ["sevro", "mustang"], "institute": []}
    camera = SyntheticCamera(lambda: layout, size=(320, 240))
    first = camera.read()
    assert first.shape == (240, 320, 3) and first.dtype == np.uint8
    assert camera.read() is first and camera.renders == 1
    layout["mars"] = ["eo"]
    assert camera.read() is not first and camera.renders == 2


def test_open_camera_follows_the_settings(tmp_path: Path) -> None:
    cfg = load(system=None, user=None)
    video = write_video(tmp_path / "t.avi")
    assert isinstance(open_camera(cfg.replace("camera", source="opencv", device=str(video))
                                  .camera), OpenCVCamera)
    with pytest.raises(CameraError, match="needs a game"):
        open_camera(cfg.replace("camera", source="synthetic").camera)


# --- the capture loop ------------------------------------------------------------------------


def test_backoff_doubles_to_its_ceiling_and_resets() -> None:
    backoff = Backoff(0.5, 3.0)
    assert [backoff.next() for _ in range(5)] == [0.5, 1.0, 2.0, 3.0, 3.0]
    backoff.reset()
    assert backoff.next() == 0.5


def test_the_loop_survives_a_camera_that_disappears_and_comes_back(tmp_path: Path) -> None:
    video = tmp_path / "usb.avi"  # not there yet: the "camera" is unplugged
    reports: list[tuple[str, str]] = []
    lost, back, frames = threading.Event(), threading.Event(), threading.Event()

    def report(kind: str, message: str) -> None:
        reports.append((kind, message))
        (back if kind == "camera-back" else lost).set()

    def on_frame(frame: np.ndarray, t: float) -> None:
        frames.set()

    loop = CaptureLoop(lambda: OpenCVCamera(str(video)), on_frame, fps=50,
                       retry=(0.01, 0.05), report=report)
    loop.start()
    try:
        assert lost.wait(5)
        write_video(tmp_path / "staging.avi").rename(video)  # plugged in
        assert back.wait(5) and frames.wait(5)
        assert loop.is_healthy(stale_after=5)
    finally:
        loop.stop()
    assert reports[0][0] == "camera-lost" and "no video file" in reports[0][1]
    assert [kind for kind, _ in reports] == ["camera-lost", "camera-back"]  # once each
    assert not loop.is_alive and not loop.is_healthy(stale_after=5)


def test_a_failing_frame_handler_does_not_stop_the_camera(tmp_path: Path) -> None:
    calls: list[int] = []
    enough = threading.Event()

    def on_frame(frame: np.ndarray, t: float) -> None:
        calls.append(1)
        if len(calls) >= 3:
            enough.set()
        raise RuntimeError("vision bug")

    loop = CaptureLoop(lambda: OpenCVCamera(str(write_video(tmp_path / "v.avi"))), on_frame,
                       fps=100)
    loop.start()
    try:
        assert enough.wait(5)
    finally:
        loop.stop()


def test_the_pipeline_reports_a_missing_scanner_once_and_keeps_frames() -> None:
    errors: list[str] = []

    def load_scanner() -> object:
        raise FileNotFoundError("no model file x.onnx")

    pipeline = VisionPipeline(load_scanner, None, lambda changes, reading, strips: None,
                              on_error=errors.append)
    frame = np.zeros((4, 4, 3), np.uint8)
    pipeline(frame, 0.0)
    pipeline(frame, 0.1)
    assert errors == ["vision unavailable: no model file x.onnx"]
    assert pipeline.frame is frame and pipeline.scans == 0


@pytest.mark.parametrize(("reason", "kind", "message", "advice"), [
    ("something reaches off the play area", STACK_PAST_VIEW, past_view_message,
     "push its cards closer together"),
    ("a lamp's reflection hides the location", GLARE_HIDES, glare_message,
     "Move or tilt the lamp"),
])
def test_what_the_table_can_fix_is_told_to_it_once(reason, kind, message, advice) -> None:
    from vision.locate import REACHES_OFF
    from vision.scanner import LocationReading, Sight, TableReading
    from vision.stabilize import Stabilizer
    from vision.stacks import GLARE

    assert reason in (REACHES_OFF, GLARE)  # the scanner's own words

    def reading(luna: LocationReading) -> TableReading:
        empty = LocationReading(Sight.EMPTY, None, 1.0)
        return TableReading({"jupiter": empty, "mars": empty, "luna": luna, "institute": empty})

    frames = [reading(LocationReading(Sight.CARD, "eo", 0.9, 11))] * 10
    frames += [reading(LocationReading(Sight.OCCLUDED, reason=reason))] * 80  # 8 s at 10 fps
    scanner = iter(frames)

    class Scanner:
        def scan(self, frame: np.ndarray) -> TableReading:
            return next(scanner)

    notices: list[tuple[str, str]] = []
    pipeline = VisionPipeline(Scanner, Stabilizer(), lambda changes, reading, strips: None,
                              on_notice=lambda kind, message: notices.append((kind, message)))
    for i in range(len(frames)):
        pipeline(np.zeros((4, 4, 3), np.uint8), i / 10)
    assert notices == [(kind, message("luna"))]
    assert advice in notices[0][1]


def test_the_capture_loop_sends_the_strips_it_read_with_each_change() -> None:
    """Cards put down on Luna one by one, filmed: with each change the loop hands the
    service the covered cards it named from their strips."""
    import random

    from vision.scanner import TableScanner
    from vision.stabilize import Stabilizer
    from vision.synth.scene import SceneOptions, render

    cards = ["aja", "darrow", "the-jackal", "sevro"]
    sent: list[dict[str, tuple[str | None, ...]]] = []
    pipeline = VisionPipeline(lambda: TableScanner(learn=False), Stabilizer(),
                              lambda changes, reading, strips: sent.append(dict(strips)))
    options = SceneOptions(capture=False, steady=True, tilt_deg=12.0, glare=0.0)
    t = 0.0
    for n in range(1, len(cards) + 1):
        frame, _truth = render({"luna": cards[:n]}, random.Random(1), options)
        for _ in range(8):  # 0.8 s of a still table: the stabiliser settles
            pipeline(frame, t)
            t += 0.1
    assert sent[-1] == {"luna": tuple(cards[:-1])}


def test_a_knocked_camera_is_said_and_logged_once_and_the_tracker_sees_a_pause(
        caplog: pytest.LogCaptureFixture) -> None:
    """A still table, then the camera knocked (turned 2°, shifted 25 px): the next frame
    recalibrates from the markers, the page is told once, and the view the tracker was
    handed stands (the same table, newly placed in the frame, is no change)."""
    import logging
    import random

    from device.perception import knocked
    from vision.scanner import TableScanner
    from vision.stabilize import Stabilizer
    from vision.synth.scene import SceneOptions, render

    frame, _ = render({"mars": ["aja"], "luna": ["eo", "sevro"]}, random.Random(4),
                      SceneOptions(capture=False))
    sent: list[object] = []
    notices: list[tuple[str, str]] = []
    pipeline = VisionPipeline(lambda: TableScanner(learn=False), Stabilizer(),
                              lambda changes, reading, strips: sent.append(reading),
                              on_notice=lambda kind, message: notices.append((kind, message)))
    t = 0.0
    for still in (frame, knocked(frame, 2.0, 25, -15)):
        for _ in range(10):
            with caplog.at_level(logging.WARNING, logger="companion.capture"):
                pipeline(still, t)
            t += 0.1
        if not notices:
            handed = len(sent)
            assert handed >= 1 and pipeline.view is not None
    assert notices == [(CAMERA_MOVED, moved_message())]
    assert [r.message for r in caplog.records if "camera moved" in r.message]
    assert len(sent) == handed  # nothing new for the tracker
