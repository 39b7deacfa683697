"""The table as it looks: what tells a card from the table it lies on.

The table's colour is learnt from places no card lies (the band above the stacks and the
gaps between columns); whatever differs from it is foreground.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.view import View


def table_points(view: View) -> np.ndarray:
    """:func:`background_points` of ``view``, built once."""
    if "table_points" not in view.memo:
        view.memo["table_points"] = background_points(view)
    return view.memo["table_points"]


def background_points(view: View) -> np.ndarray:
    """View pixels (x, y) where no card should lie: above the stacks, between and beside
    the columns, every 2 mm."""
    cal = view.calibration
    step = 2.0
    band = [(x, y) for x in np.arange(24, cal.width_mm - 24, step) for y in (4.0, 9.0)]
    bottom = view.height_mm + view.y0 - 3
    lines = [
        (x, y)
        for x in (-3.0, cal.width_mm / 4, cal.width_mm / 2, 3 * cal.width_mm / 4, cal.width_mm + 3)
        for y in np.arange(24 if 0 < x < cal.width_mm else 26, bottom, step)
        if 0 < x < cal.width_mm or y < cal.height_mm - 22
    ]
    pts = np.array(band + lines)
    return np.stack([view.px_array(pts[:, 0], 0), view.px_array(pts[:, 1], 1)], axis=1)


def _knots(view: View) -> list[float]:
    """x (mm) of the vertical table lines: beside the play area and between the columns."""
    w = view.calibration.width_mm
    return [-3.0, w / 4, w / 2, 3 * w / 4, w + 3.0]


def _line_colours(view: View, lab: np.ndarray) -> tuple[np.ndarray, float]:
    """Table colour down each vertical table line, per view row (uint8, (rows, lines, 3)),
    and the table's pixel noise (median absolute deviation along the lines)."""
    cal = view.calibration
    xs = np.concatenate([np.arange(view.px(x, 0) - 2, view.px(x, 0) + 3) for x in _knots(view)])
    strips = lab[:, np.clip(xs, 0, lab.shape[1] - 1)].reshape(lab.shape[0], -1, 5, 3)
    med = np.sort(strips, axis=2)[:, :, 2]  # median of five: (rows, lines, 3)
    inner = strips[view.px(30, 1) : view.px(200, 1), 1:-1].astype(np.int16)
    noise = float(np.median(np.abs(inner - med[view.px(30, 1) : view.px(200, 1), 1:-1, None])))
    # Markers lie at the ends of the outer lines: hold their colour past those ends.
    r0, r1 = view.px(20.0, 1), view.px(cal.height_mm - 20, 1)
    for i in (0, med.shape[1] - 1):
        med[:r0, i], med[r1:, i] = med[r0, i], med[r1 - 1, i]
    # A card corner or a stray finger touches a line for a few mm: a long median skips it.
    k = int(15 * view.scale) | 1
    return cv2.medianBlur(np.ascontiguousarray(med), k), noise


def background_field(view: View, lab: np.ndarray) -> tuple[np.ndarray, float]:
    """The table's colour everywhere (uint8): per row, linear between the table lines.

    Lamps, soft shadows and a tilted camera change the table's colour across the view;
    interpolating between lines that no card covers follows them. The lines are close to
    evenly spaced across the view, so a linear resize does the interpolation.
    """
    lines, noise = _line_colours(view, lab)
    field = cv2.resize(lines, (lab.shape[1], lab.shape[0]), interpolation=cv2.INTER_LINEAR)
    return field, noise


def bare_mask(view: View) -> np.ndarray:
    """View pixels (uint8 0/1) where no card lies in a game: a band above the stacks, a
    strip down each gap between columns and beside the play area (clear of the markers).
    Narrow on purpose: a card turned 5° and pushed 4 mm aside reaches within 2 mm of its
    column's edge."""
    if "bare" not in view.memo:
        view.memo["bare"] = (bare_segments(view) > 0).astype(np.uint8)
    return view.memo["bare"]


def bare_segments(view: View) -> np.ndarray:
    """:func:`bare_mask` cut into ten numbered stretches (uint8, 0 elsewhere): each half of
    the band, the upper and lower half of each gap, each side. A hand or an arm crosses
    one or two of them; the table's own colours show in most."""
    if "segments" in view.memo:
        return view.memo["segments"]
    cal = view.calibration
    mask = np.zeros(view.size[::-1], np.uint8)
    label = iter(range(1, 11))

    def box(x0: float, x1: float, y0: float, y1: float) -> None:
        rows = slice(max(view.px(y0, 1), 0), view.px(y1, 1))
        mask[rows, max(view.px(x0, 0), 0) : view.px(x1, 0)] = next(label)

    middle, bottom = cal.height_mm / 2, view.height_mm + view.y0
    box(22, cal.width_mm / 2, 1, 12)
    box(cal.width_mm / 2, cal.width_mm - 22, 1, 12)
    for k in (1, 2, 3):
        x = k * cal.width_mm / 4
        box(x - 1.5, x + 1.5, 12, middle)
        box(x - 1.5, x + 1.5, middle, bottom)
    for x in (-5.0, cal.width_mm + 2):
        box(x, x + 3, 26, cal.height_mm - 22)
    view.memo["segments"] = mask
    return mask


def foreground(
    view: View,
    lab: np.ndarray,
    edges: np.ndarray | None = None,
    reference: Reference | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """Masks of pixels unlike the table (or, given ``edges``, on much stronger edges than
    the table has: a dark card on a dark table still has its printing): holes in cards
    filled, and blobs wider than ~7 mm (hands, arms, objects); with each pixel's
    unlikeness to the table (0 outside the camera's view) and the bar it was held to.

    Where the fixed camera's ``reference`` knows the bare table, a pixel is table when it
    looks as the bare table did there. Elsewhere it is table when its colour is close to
    the table's colour interpolated across the view (a plain table under uneven light),
    or to one of the few colours the bare table shows (:class:`Palette`: a checked
    cloth, wood grain and seams, a printed mat).
    """
    dist = single_frame_unlikeness(view, lab)
    known = None
    if reference is not None and reference.known.any():
        known = reference.known
        dist = np.where(known, reference.unlikeness(view, lab), dist)
    dist[lab[:, :, 0] == 0] = 0  # outside the camera's view
    mask: np.ndarray = cv2.morphologyEx(
        (dist > UNLIKE_BAR).astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)
    )
    blobs = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((7, 7), np.uint8))
    if edges is not None:
        busy = _busy(view, edges)
        mask |= busy if known is None else busy & ~known
    closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    return fill_holes(closed, table_points(view)), blobs.astype(bool), dist, float(UNLIKE_BAR)


def single_frame_unlikeness(view: View, lab: np.ndarray) -> np.ndarray:
    """Per pixel, how unlike the table it is from this frame alone, scaled so that
    :data:`UNLIKE_BAR` is the bar (uint8): the nearer of the interpolated colour and the
    :class:`Palette` (learnt only when the interpolated colour leaves some of the bare
    table unexplained: a plain table needs none)."""
    field, noise = background_field(view, lab)
    dist = cv2.convertScaleAbs(
        colour_distance(cv2.absdiff(lab, field)), alpha=UNLIKE_BAR / max(10.0, 4.0 * noise)
    )
    bare = bare_mask(view).astype(bool) & (lab[:, :, 0] > 0)
    if float((dist[bare] > UNLIKE_BAR).mean() if bare.any() else 0.0) < PLAIN_SHARE:
        return dist
    flat = normalised(lab, bare_mask(view) > 0, view.scale)
    palette = Palette.learn(flat, bare_segments(view), lab[:, :, 0] > 0)
    return dist if palette is None else cv2.min(dist, palette.unlikeness(flat))


PLAIN_SHARE = 0.05  # a table whose bare places are this well explained is plain


UNLIKE_BAR = 16  # unlikeness is scaled so that this is the bar (uint8 images hold it)
PALETTE_SIZE = 5  # colours a table shows: a check's ground, stripe and crossing, seams
PALETTE_MIN_SHARE = 0.03  # a colour rarer than this on the bare table is a stray card corner
PALETTE_MIN_STRETCHES = 3  # ... or one found in fewer bare stretches (a hand, a sleeve)
PALETTE_SPREAD = 3.0  # a colour's reach: this many times its members' median distance
PALETTE_MIN_REACH = 9.0  # ... and never less (sensor noise and JPEG)
LIGHT_SIGMA_MM = 30.0  # the light varies slowly: its field is the bare table's lightness
#                        smoothed this much


class Palette:
    """The few colours the bare table shows, each with its reach, in light-normalised
    YCrCb (:func:`normalised`: a shadow does not make a new colour)."""

    def __init__(self, centres: np.ndarray, reaches: np.ndarray) -> None:
        self.centres, self.reaches = centres, reaches

    @classmethod
    def learn(cls, flat: np.ndarray, segments: np.ndarray, seen: np.ndarray) -> Palette | None:
        """The palette of the bare places (``segments`` > 0, where ``seen``) in ``flat``
        (a :func:`normalised` image); None when too few are in view. A colour must show in
        several of the numbered bare stretches (such as :func:`bare_segments`): a hand or
        a sleeve lying across one or two of them is not the table."""
        where = (segments > 0) & seen
        samples = flat[where][::2].astype(np.float32)
        if len(samples) < 200:
            return None
        k = PALETTE_SIZE
        criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_MAX_ITER, 10, 1.0)
        cv2.setRNGSeed(0)  # the same frame must give the same palette
        # OpenCV's stubs lack bestLabels=None, which kmeans accepts
        _, labels, centres = cv2.kmeans(  # type: ignore[call-overload]
            samples, k, None, criteria, 1, cv2.KMEANS_PP_CENTERS)
        labels = labels.ravel()
        stretch = segments[where][::2]
        keep, reaches = [], []
        for i in range(k):
            mine = labels == i
            if mine.sum() < PALETTE_MIN_SHARE * len(samples):
                continue
            found = np.bincount(stretch[mine], minlength=256)[1:]
            sizes = np.maximum(np.bincount(stretch, minlength=256)[1:], 1)
            if int((found >= PALETTE_MIN_SHARE * sizes).sum()) < PALETTE_MIN_STRETCHES:
                continue
            members = samples[mine]
            d = np.abs(members - centres[i]) @ np.array([0.5, 1.0, 1.0], np.float32)
            keep.append(i)
            reaches.append(max(PALETTE_MIN_REACH, PALETTE_SPREAD * float(np.median(d))))
        return cls(centres[keep], np.array(reaches, np.float32)) if keep else None

    def unlikeness(self, flat: np.ndarray) -> np.ndarray:
        """Per pixel of ``flat`` (:func:`normalised`), the distance to the nearest table
        colour in units of its reach, times :data:`UNLIKE_BAR` (uint8, saturating)."""
        best = None
        for centre, reach in zip(self.centres, self.reaches, strict=True):
            # OpenCV takes a scalar as a tuple; its stubs want an array
            d = colour_distance(cv2.absdiff(flat, (*map(float, centre), 0.0)))  # type: ignore[call-overload]
            d = cv2.convertScaleAbs(d, alpha=UNLIKE_BAR / float(reach))
            best = d if best is None else cv2.min(best, d)
        assert best is not None
        return best


def normalised(lab: np.ndarray, bare: np.ndarray, px_per_mm: float) -> np.ndarray:
    """``lab`` (YCrCb, uint8) with the light's slow variation divided out: lightness and
    chroma's distance from grey scaled by 128 over the bare table's lightness there
    (``bare``, bool, smoothed over :data:`LIGHT_SIGMA_MM`, on a coarse grid)."""
    bare = (bare & (lab[:, :, 0] > 0)).astype(np.float32)
    h, w = bare.shape
    cell = 8
    small = (max(2, w // cell), max(2, h // cell))
    weight = cv2.resize(bare, small, interpolation=cv2.INTER_AREA)
    light = cv2.resize(lab[:, :, 0] * bare, small, interpolation=cv2.INTER_AREA)
    sigma = LIGHT_SIGMA_MM * px_per_mm * small[0] / w
    weight = cv2.GaussianBlur(weight, (0, 0), sigma)
    light = cv2.GaussianBlur(light, (0, 0), sigma)
    typical = float(lab[:, :, 0][bare > 0].mean()) if bare.any() else 128.0
    light = np.where(weight > 1e-3, light / np.maximum(weight, 1e-3), typical)
    gain = cv2.resize((128.0 / np.maximum(light, 8.0)).astype(np.float32), (w, h))
    y, cr, cb = cv2.split(lab)

    def chroma(c: np.ndarray) -> np.ndarray:
        # OpenCV takes a scalar as a number; its stubs want an array
        offset = cv2.subtract(c, 128, dtype=cv2.CV_32F)  # type: ignore[call-overload]
        return cv2.convertScaleAbs(cv2.multiply(offset, gain), alpha=1, beta=128)

    return cv2.merge([cv2.multiply(y, gain, dtype=cv2.CV_8U), chroma(cr), chroma(cb)])


REFERENCE_BAR = 12.0  # colour distance past the bare table's envelope that counts as new
REFERENCE_RATE = 0.2  # each new sighting's share of a known pixel (about ten averaged)
DRIFT_SIGMA_MM = 40.0  # the light drifts smoothly across the table


class Reference:
    """The bare table as a fixed camera sees it (rectified YCrCb, float32), where it has
    been seen bare: learnt at calibration (:meth:`learn`, "clear the play area") and kept
    current from places the locator reads bare in later frames (:meth:`update`).

    Compared under the light of the moment: a smooth gain on lightness and an offset on
    each chroma channel, estimated from the places no card ever lies (:func:`bare_mask`),
    follow a cloud or a lamp switched on. A pixel's difference is measured from the
    envelope of the reference over its 3×3 neighbours (:func:`_envelope`), so a tremble
    of the camera or a JPEG ripple on a checked cloth is not a difference (the price: a
    white card's blank parts on the finest black-and-white checks fall inside it)."""

    def __init__(self, view: View) -> None:
        h, w = view.size[1], view.size[0]
        self.image = np.zeros((h, w, 3), np.float32)
        self.known = np.zeros((h, w), bool)
        self._anchors: np.ndarray | None = None
        self._spread: _Spread | None = None

    def update(
        self, view: View, lab: np.ndarray, bare: np.ndarray, reset: bool = False
    ) -> None:
        """Blend ``lab`` into the reference where ``bare`` (bool) says the table shows,
        brought to the reference's own light first (so the reference stays one picture
        under one light, whatever the light was when each part was seen); ``reset``
        replaces what was known there instead."""
        bare = bare & (lab[:, :, 0] > 0)
        if reset:
            self.known &= ~bare
        gain, offsets = self._light(view, lab)
        y, cr, cb = cv2.split(lab.astype(np.float32))
        seen = cv2.merge([y / gain, cr - float(offsets[0]), cb - float(offsets[1])])
        first = bare & ~self.known
        np.copyto(self.image, seen, where=first[:, :, None])
        again = (bare & self.known).view(np.uint8)
        cv2.accumulateWeighted(seen, self.image, REFERENCE_RATE, mask=again)
        if (bare & ~self.known).any():
            self._anchors = None  # more of the places no card lies may be known now
        self.known |= bare

    def unlikeness(self, view: View, lab: np.ndarray) -> np.ndarray:
        """Per pixel, how far ``lab`` lies outside the lit reference's 3×3 envelope,
        scaled so that :data:`UNLIKE_BAR` is the bar (uint8; meaningful where known)."""
        gain, offsets = self._light(view, lab)
        y, cr, cb = cv2.split(self.image)
        lit = cv2.merge([
            cv2.convertScaleAbs(cv2.multiply(y, gain)),
            cv2.convertScaleAbs(cr, beta=float(offsets[0])),
            cv2.convertScaleAbs(cb, beta=float(offsets[1])),
        ])
        high, low = _envelope(lit)
        # uint8 subtraction saturates at 0: each side keeps only how far it lies outside.
        over = cv2.add(cv2.subtract(lab, high), cv2.subtract(low, lab))
        return cv2.convertScaleAbs(colour_distance(over), alpha=UNLIKE_BAR / REFERENCE_BAR)

    def _light(self, view: View, lab: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The frame's light against the reference's: a smooth gain on lightness (per
        pixel) and an offset per chroma channel, from the known places no card lies
        (1 and 0 until enough of them are known)."""
        if self._anchors is None:  # the known places no card lies, as flat indices
            where = self.known & (bare_mask(view) > 0)
            self._anchors = np.flatnonzero(where)
            self._spread = _Spread(where, DRIFT_SIGMA_MM * view.scale)
        if self._anchors.size < 50 or self._spread is None:
            return np.ones(self.known.shape, np.float32), np.zeros(2, np.float32)
        cur = lab.reshape(-1, 3)[self._anchors].astype(np.float32)
        old = self.image.reshape(-1, 3)[self._anchors]
        gain = self._spread(cur[:, 0] / np.maximum(old[:, 0], 1.0), self._anchors)
        offsets = np.median(cur[:, 1:] - old[:, 1:], axis=0).astype(np.float32)
        return gain, offsets


class _Spread:
    """Values known at fixed places spread smoothly over the whole image: normalised
    convolution on a grid eight times coarser, the places' own weight computed once."""

    def __init__(self, where: np.ndarray, sigma_px: float) -> None:
        h, w = where.shape
        self.shape, self.small = (h, w), (max(2, w // 8), max(2, h // 8))
        self.sigma = sigma_px * self.small[0] / w
        coarse = cv2.resize(where.astype(np.float32), self.small, interpolation=cv2.INTER_AREA)
        self.weight = cv2.GaussianBlur(coarse, (0, 0), self.sigma)

    def __call__(self, values: np.ndarray, places: np.ndarray) -> np.ndarray:
        full = np.zeros(self.shape, np.float32)
        full.flat[places] = values
        coarse = cv2.resize(full, self.small, interpolation=cv2.INTER_AREA)
        total = cv2.GaussianBlur(coarse, (0, 0), self.sigma)
        typical = float(np.median(values))
        near = self.weight > 1e-3
        field = np.where(near, total / np.where(near, self.weight, 1.0), typical)
        return cv2.resize(field.astype(np.float32), self.shape[::-1],
                          interpolation=cv2.INTER_LINEAR)


def _envelope(img: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The highest and lowest of each pixel's 3×3 neighbourhood (uint8): what the pixel
    may read if the camera trembles, or JPEG ripples a checked cloth's edges."""
    kernel = np.ones((3, 3), np.uint8)
    return cv2.dilate(img, kernel), cv2.erode(img, kernel)


def _busy(view: View, edges: np.ndarray) -> np.ndarray:
    """Where edges are far denser than on the table (printing, card borders)."""
    density = cv2.blur(edges, (5, 5))
    xs = [view.px(x, 0) for x in _knots(view)[1:-1]]
    table = float(np.median(density[:, xs]))
    # A checked cloth or planks' seams have strong edges of their own, on a few rows.
    strongest = float(np.percentile(density[bare_mask(view) > 0], 95))
    busy = (density > max(12.0, 3.0 * table, 1.5 * strongest)).astype(np.uint8)
    # The blur and the gradient reach ~3 px past a card's edge: take that back.
    return cv2.erode(busy, np.ones((5, 5), np.uint8))


def fill_holes(mask: np.ndarray, table_points: np.ndarray) -> np.ndarray:
    """``mask`` plus every background region that touches none of ``table_points``
    (view pixels (x, y) where the table shows): holes inside cards and stacks."""
    table = (mask == 0).astype(np.uint8)
    count, labels = cv2.connectedComponents(table, connectivity=4)
    h, w = mask.shape
    pts = table_points[
        (table_points[:, 0] >= 0)
        & (table_points[:, 0] < w)
        & (table_points[:, 1] >= 0)
        & (table_points[:, 1] < h)
    ]
    keep = np.zeros(count, bool)
    keep[labels[pts[:, 1], pts[:, 0]]] = True
    keep[0] = False  # label 0 is the foreground itself
    return ~keep[labels]


def colour_distance(diff: np.ndarray) -> np.ndarray:
    """Half the lightness plus both chroma channels of a YCrCb difference (uint8,
    saturating). The same as ``cv2.transform`` with weights (0.5, 1, 1), a tenth of the
    time: that call takes a float path."""
    light, cr, cb = cv2.split(diff)
    return cv2.addWeighted(cv2.add(cr, cb), 1.0, light, 0.5, 0)
