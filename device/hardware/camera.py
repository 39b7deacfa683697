"""Camera sources behind one small protocol: ``read() -> BGR frame`` and ``close()``.

* :class:`PiCamera`: the Raspberry Pi camera through Picamera2 (imported only when one
  is opened: picamera2 loads libcamera at import time). Vision reads the low-resolution
  stream; one thread (the capture loop) owns the camera.
* :class:`OpenCVCamera`: ``cv2.VideoCapture`` on a USB camera index or a video file.
* :class:`ReplayCamera`: a folder of saved frames, in name order.
* :class:`SyntheticCamera`: the table rendered by :mod:`vision.synth.scene` from a layout
  that a scripted game keeps changing (the demo's camera).

A source that cannot deliver a frame raises :class:`CameraError`; the capture loop
then closes it and opens a new one with backoff.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from vision.synth import scene
from vision.synth.cards import FACE_DOWN

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp")


class CameraError(RuntimeError):
    """The camera cannot deliver a frame: missing, unplugged, failed or at its end."""


class Camera(Protocol):
    """A source of BGR frames (``uint8``, height × width × 3)."""

    def read(self) -> np.ndarray: ...

    def close(self) -> None: ...


def to_bgr(array: np.ndarray, fmt: str) -> np.ndarray:
    """A Picamera2 buffer in ``fmt`` as an OpenCV BGR image.

    libcamera names formats by their little-endian word, so its "RGB888" lies in
    memory as B, G, R: already OpenCV's order. "BGR888" is the one to swap.
    """
    if fmt == "RGB888":
        return array
    if fmt == "BGR888":
        return cv2.cvtColor(array, cv2.COLOR_RGB2BGR)
    if fmt == "XRGB8888":
        return np.ascontiguousarray(array[..., :3])
    if fmt == "XBGR8888":
        return cv2.cvtColor(np.ascontiguousarray(array[..., :3]), cv2.COLOR_RGB2BGR)
    if fmt == "YUV420":  # planar I420: height * 3/2 rows
        return cv2.cvtColor(array, cv2.COLOR_YUV2BGR_I420)
    raise ValueError(f"unsupported camera format {fmt!r}")


class PiCamera:
    """The Raspberry Pi camera; vision reads its low-resolution ("lores") stream."""

    # Pi 4 and earlier can only give the lores stream as YUV420; Pi 5 could do RGB.
    LORES_FORMAT = "YUV420"

    def __init__(self, size: tuple[int, int] = (1280, 960), *, fps: float = 10.0,
                 camera_num: int = 0) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError as exc:
            raise CameraError("picamera2 is not installed (sudo apt install python3-picamera2"
                              "; the venv needs --system-site-packages)") from exc
        self.size = size
        try:
            self._camera = Picamera2(camera_num)
        except (IndexError, RuntimeError) as exc:
            raise CameraError(f"no Raspberry Pi camera {camera_num}: {exc}") from exc
        self._start(fps)

    def _start(self, fps: float) -> None:
        width, height = self.size
        config = self._camera.create_video_configuration(
            main={"size": (width * 3 // 2 // 2 * 2, height * 3 // 2 // 2 * 2),
                  "format": "RGB888"},
            lores={"size": self.size, "format": self.LORES_FORMAT},
            buffer_count=3,  # each main buffer is ~8 MB; a Pi Zero 2 W has 512 MB in all
            controls={"FrameRate": fps},
        )
        try:
            self._camera.configure(config)
            self._camera.start()
        except RuntimeError as exc:
            self._camera.close()
            raise CameraError(f"the Raspberry Pi camera would not start: {exc}") from exc

    def read(self) -> np.ndarray:
        """The next low-resolution frame."""
        try:
            request = self._camera.capture_request()
        except RuntimeError as exc:
            raise CameraError(f"the Raspberry Pi camera stopped: {exc}") from exc
        try:
            array = request.make_array("lores")
        finally:
            request.release()  # the buffer goes back to libcamera at once
        width, height = self.size
        return to_bgr(array[: height * 3 // 2, :width], self.LORES_FORMAT)

    def close(self) -> None:
        self._camera.close()


def parse_device(device: str | int) -> str | int:
    """A camera index ("0" → 0) or a path (a video file, ``/dev/video2``)."""
    if isinstance(device, int):
        return device
    return int(device) if device.strip().isdigit() else device


class OpenCVCamera:
    """A USB camera (by index) or a video file, through ``cv2.VideoCapture``."""

    def __init__(self, device: str | int, *, size: tuple[int, int] | None = None,
                 loop: bool = True) -> None:
        self.device = parse_device(device)
        self.is_file = isinstance(self.device, str) and Path(self.device).is_file()
        if isinstance(self.device, str) and not self.is_file \
                and not self.device.startswith("/dev/"):
            raise CameraError(f"no video file {self.device}")
        self.loop = loop
        self._capture = cv2.VideoCapture(self.device)
        if not self._capture.isOpened():
            self._capture.release()
            raise CameraError(f"cannot open camera {self.device}")
        if size is not None and not self.is_file:
            self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])

    def read(self) -> np.ndarray:
        """The next frame; a video file starts again at its end when ``loop`` is set."""
        ok, frame = self._capture.read()
        if not ok and self.is_file and self.loop:
            self._capture.set(cv2.CAP_PROP_POS_FRAMES, 0)
            ok, frame = self._capture.read()
        if not ok or frame is None:
            what = "the video ended" if self.is_file else "the camera stopped sending frames"
            raise CameraError(f"{self.device}: {what}")
        return frame

    def close(self) -> None:
        self._capture.release()


class ReplayCamera:
    """Saved frames (a folder of images, or a list of paths), in name order."""

    def __init__(self, frames: str | Path | Sequence[str | Path], *, loop: bool = True) -> None:
        if isinstance(frames, str | Path):
            folder = Path(frames)
            if not folder.is_dir():
                raise CameraError(f"no frame folder {folder}")
            paths = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        else:
            paths = [Path(p) for p in frames]
        if not paths:
            raise CameraError(f"no frames to replay in {frames}")
        self.paths = paths
        self.loop = loop
        self._next = 0

    def read(self) -> np.ndarray:
        if self._next >= len(self.paths):
            if not self.loop:
                raise CameraError("the replay ended")
            self._next = 0
        path = self.paths[self._next]
        self._next += 1
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if frame is None:
            raise CameraError(f"cannot read frame {path}")
        return frame

    def close(self) -> None:
        self._next = len(self.paths)


Layout = Mapping[str, Sequence[str | None]]


class SyntheticCamera:
    """The table drawn from ``layout()`` (location → card ids, oldest first).

    A frame is rendered only when the layout changes (rendering costs far more than
    scanning) and repeated until the next change, as a still table looks to a camera.
    """

    def __init__(self, layout: Callable[[], Layout], *, size: tuple[int, int] = (1280, 960),
                 seed: int = 0, tilt_deg: float = 12.0) -> None:
        self._scene = scene
        self._layout = layout
        self._options = scene.SceneOptions(size=size, tilt_deg=tilt_deg, glare=0.0)
        self._seed = seed
        self._key: tuple[tuple[str, tuple[str, ...]], ...] | None = None
        self._frame: np.ndarray | None = None
        self.renders = 0

    def read(self) -> np.ndarray:
        key = _layout_key(self._layout())
        if key != self._key or self._frame is None:
            self._frame, _ = self._scene.render({name: list(cards) for name, cards in key},
                                                random.Random(self._seed),
                                                self._options)
            self._key = key
            self.renders += 1
        return self._frame

    def close(self) -> None:
        self._frame = None


def _layout_key(layout: Layout) -> tuple[tuple[str, tuple[str, ...]], ...]:
    return tuple((str(loc), tuple(card or FACE_DOWN for card in stack))
                 for loc, stack in layout.items())


def open_camera(camera: Mapping[str, Any], layout: Callable[[], Layout] | None = None) -> Camera:
    """The source the ``[camera]`` settings name.

    :raises CameraError: when it cannot be opened (the capture loop retries).
    """
    size = (int(camera["width"]), int(camera["height"]))
    source = camera["source"]
    if source == "picamera":
        return PiCamera(size, fps=float(camera["fps"]))
    if source == "opencv":
        return OpenCVCamera(camera["device"], size=size)
    if source == "replay":
        return ReplayCamera(camera["device"])
    if layout is None:
        raise CameraError("the synthetic camera needs a game to draw")
    return SyntheticCamera(layout, size=size)
