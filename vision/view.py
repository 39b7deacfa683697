"""The play area seen from above: the rectifying warp and millimetre ↔ pixel conversions.

Every frame is warped to a top-down view of the play area at :data:`WORK_PX_PER_MM`,
reaching :data:`MARGIN_MM` beyond its sides and top and :data:`BELOW_MM` below it.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.calibrate import Calibration

WORK_PX_PER_MM = 1.0
MARGIN_MM = 6.0  # rectified view reaches this far beyond the play area's sides
# A stack's newest card must end at most STACK_REACH_MM below the play area's bottom edge
# (the README asks people to push a long stack's cards closer together to keep it there);
# the view reaches a little further, for a turned card's corner and a careless hand.
STACK_REACH_MM = 32.0
BELOW_MM = STACK_REACH_MM + 8.0


class View:
    """The play area seen from above: pixel ↔ millimetre conversions and the warp."""

    def __init__(self, calibration: Calibration, px_per_mm: float = WORK_PX_PER_MM) -> None:
        self.calibration = calibration
        self.scale = px_per_mm
        self.x0, self.y0 = -MARGIN_MM, -MARGIN_MM
        self.width_mm = calibration.width_mm + 2 * MARGIN_MM
        self.height_mm = calibration.height_mm + MARGIN_MM + BELOW_MM
        self.size = (round(self.width_mm * px_per_mm), round(self.height_mm * px_per_mm))
        to_mm = np.array(
            [[1 / px_per_mm, 0, self.x0], [0, 1 / px_per_mm, self.y0], [0, 0, 1]], np.float64
        )
        self.frame_from_view = calibration.homography() @ to_mm
        # The warp is fixed while the calibration is: its pixel map is built once, and a
        # remap through fixed-point maps costs half a warpPerspective per frame.
        w, h = self.size
        grid = np.stack(np.meshgrid(np.arange(w), np.arange(h)), axis=-1).astype(np.float32)
        where = cv2.perspectiveTransform(grid.reshape(-1, 1, 2), self.frame_from_view)
        # OpenCV's stubs lack map2=None (one two-channel map), which convertMaps accepts
        self._maps = cv2.convertMaps(  # type: ignore[call-overload]
            where.reshape(h, w, 2), None, cv2.CV_16SC2)
        # Arrays other modules derive from the view alone (built once per calibration).
        self.memo: dict[str, np.ndarray] = {}

    def rectify(self, frame: np.ndarray) -> np.ndarray:
        """The top-down view (pixels outside the frame are black)."""
        out: np.ndarray = cv2.remap(  # type: ignore[call-overload]  # the maps, as above
            frame, *self._maps, interpolation=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT
        )
        return out

    def px(self, mm: float, axis: int) -> int:
        """Millimetres along x (axis 0) or y (axis 1) → view pixel index."""
        return round((mm - (self.x0, self.y0)[axis]) * self.scale)

    def px_array(self, mm: np.ndarray, axis: int) -> np.ndarray:
        """Millimetres along an axis → view pixel indices (int array)."""
        return np.round((np.asarray(mm) - (self.x0, self.y0)[axis]) * self.scale).astype(int)

    def mm(self, px: np.ndarray | float, axis: int) -> np.ndarray | float:
        """View pixel index → millimetres along x (axis 0) or y (axis 1)."""
        return np.asarray(px) / self.scale + (self.x0, self.y0)[axis]


def sample(img: np.ndarray, view: View, x_mm: np.ndarray, y_mm: np.ndarray) -> np.ndarray:
    """Nearest-pixel values of a view image at millimetre points (0 outside); a
    two-channel image gives a trailing axis of 2. One remap call: several times cheaper
    than numpy's rounding and fancy indexing."""
    mx = ((x_mm - view.x0) * view.scale).astype(np.float32)
    my = ((y_mm - view.y0) * view.scale).astype(np.float32)
    shape = mx.shape
    if my.shape != shape:
        mx, my = np.broadcast_arrays(mx, my)
        shape = mx.shape
    if img.dtype == bool:
        img = img.view(np.uint8)
    if mx.size == 0:
        return np.zeros((*shape, *img.shape[2:]), np.float32)
    n = mx.size
    cols = min(n, 4096)  # remap's maps must stay under 32767 a side
    rows = -(-n // cols)
    mx, my = mx.reshape(-1), my.reshape(-1)
    if rows * cols != n:
        mx, my = np.pad(mx, (0, rows * cols - n)), np.pad(my, (0, rows * cols - n))
    out = cv2.remap(
        img,
        mx.reshape(rows, cols),
        my.reshape(rows, cols),
        cv2.INTER_NEAREST,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=0,
    )
    out = out.reshape(rows * cols, *img.shape[2:])[:n]
    return out.reshape(*shape, *img.shape[2:]).astype(np.float32, copy=False)
