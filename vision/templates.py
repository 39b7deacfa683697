"""Whole-card templates: the dense half of the second look (see :mod:`vision.verify`).

At :data:`PX_PER_MM` a blurred or glared frame still holds each card's name, value and
art. The mean of all the references is what every card shows alike (its frame, boxes,
layout): it finds the card around the locator's outline (template search over a few
scales), and it is taken away from both sides (and so is what lies along it), so only
each card's own content is compared: a card with little of its own must not match bare
table, which also differs from the mean by about minus the mean. The comparison is made
per tile and the worse tiles are dropped (:data:`KEEP`): a glare spot, a finger or a
shadow spoils a few tiles, not the card.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import cv2
import numpy as np

CARD_MM = (63.0, 88.0)
PX_PER_MM = 1.5
SIZE = (round(CARD_MM[0] * PX_PER_MM), round(CARD_MM[1] * PX_PER_MM))  # (W, H)
BLUR = 1.0  # template pixels: evens out a camera's focus and a photo's sharpness
HIGH_PASS = 3.0  # template pixels (2 mm): coarser than this is light, not the card
MARGIN_MM = (6.0, 16.0)  # where the card is looked for around the outline: sides, ends
SCALES = (0.95, 1.0, 1.05)  # the locator's outline is up to 5 % too large or small
OUTLINE_SCALES = (0.95, 1.0, 1.05, 1.1, 1.15)  # a photo's edge outline: more often too small
PHOTO_WIDTHS = (0.5, 1.0)  # a loose photo's card is this share of its shorter side wide
PHOTO_STEPS = 9  # widths tried in that range
PHOTO_PLACES = 3  # places in a photo the second look searches
GRID = (4, 6)  # tiles across and down (about 16 × 22 mm each)
KEEP = 0.75  # share of a card's telling tiles whose correlations are averaged, best first
TELLING = 0.25  # a tile tells cards apart with at least this share of the median energy


def corners(w: float, h: float) -> np.ndarray:
    """TL, TR, BR, BL of a w × h rectangle at the origin."""
    return np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)


def warp_around(
    frame: np.ndarray,
    quad_px: np.ndarray,
    margin_mm: tuple[float, float],
    px_per_mm: float,
) -> tuple[np.ndarray, np.ndarray]:
    """The card outlined by ``quad_px`` (TL, TR, BR, BL in ``frame``) with ``margin_mm`` of
    its surroundings, warped upright at ``px_per_mm``; and the outline's corners there."""
    mx, my = margin_mm
    size = (round((CARD_MM[0] + 2 * mx) * px_per_mm), round((CARD_MM[1] + 2 * my) * px_per_mm))
    img = cv2.warpPerspective(
        frame,
        around_map(quad_px, margin_mm, px_per_mm),
        size,
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return img, (corners(*CARD_MM) + np.array([mx, my], np.float32)) * px_per_mm


def around_map(
    quad_px: np.ndarray, margin_mm: tuple[float, float], px_per_mm: float
) -> np.ndarray:
    """The 3 × 3 map from the pixels of :func:`warp_around`'s picture to the frame's."""
    mx, my = margin_mm
    to_frame = cv2.getPerspectiveTransform(corners(*CARD_MM), np.asarray(quad_px, np.float32))
    from_out = np.array([[1 / px_per_mm, 0, -mx], [0, 1 / px_per_mm, -my], [0, 0, 1]])
    out: np.ndarray = to_frame @ from_out
    return out


def _seen_around(frame: np.ndarray, quad_px: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The card outlined by ``quad_px`` and :data:`MARGIN_MM` around it, upright at
    :data:`PX_PER_MM` and band-passed; and the 3 × 3 map from its pixels to ``frame``'s."""
    big, _ = warp_around(frame, quad_px, MARGIN_MM, 2 * PX_PER_MM)
    half = (big.shape[1] // 2, big.shape[0] // 2)  # area-averaged: no aliasing
    seen = _standard(cv2.resize(gray(big), half, interpolation=cv2.INTER_AREA))
    return seen, around_map(quad_px, MARGIN_MM, PX_PER_MM)


def gray(img: np.ndarray) -> np.ndarray:
    """BGR → gray; gray stays."""
    return cv2.cvtColor(img, cv2.COLOR_BGR2GRAY) if img.ndim == 3 else img


def template_image(image: np.ndarray) -> np.ndarray:
    """A card image (any size, BGR or gray, cut to the card) as stored: gray uint8 SIZE."""
    return cv2.resize(gray(image), SIZE, interpolation=cv2.INTER_AREA)


def _standard(img: np.ndarray) -> np.ndarray:
    """Band-passed and standardised: detail between :data:`BLUR` and :data:`HIGH_PASS`,
    without the light's gradients, a shadow's edge or a glare spot's broad swell."""
    out: np.ndarray = cv2.GaussianBlur(img.astype(np.float32), (0, 0), BLUR)
    out -= cv2.GaussianBlur(out, (0, 0), HIGH_PASS)
    standard: np.ndarray = (out - out.mean()) / (out.std() + 1e-6)
    return standard


def _tiles(img: np.ndarray) -> np.ndarray:
    """(..., H, W) → (..., tiles, pixels), each tile centred (zero mean)."""
    gx, gy = GRID
    th, tw = SIZE[1] // gy, SIZE[0] // gx
    cut = img[..., : th * gy, : tw * gx]
    lead = cut.shape[:-2]
    t = cut.reshape(*lead, gy, th, gx, tw)
    t = np.moveaxis(t, -2, -3).reshape(*lead, gy * gx, th * tw)
    out: np.ndarray = t - t.mean(axis=-1, keepdims=True)
    return out


class Templates:
    """Every card's own picture; :meth:`look` correlates them all with a seen card."""

    def __init__(self, images: Mapping[str, np.ndarray]) -> None:
        if not images:
            raise ValueError("no template images")
        self.labels = tuple(images)
        refs = np.stack([_standard(images[k]) for k in self.labels])
        # With one card there is nothing shared to take away: its picture aligns itself.
        self.mean = refs.mean(axis=0) if len(refs) > 1 else np.zeros_like(refs[0])
        self._align = self.mean if len(refs) > 1 else refs[0]
        m = _tiles(self.mean)
        self._mean_tiles = m / (np.linalg.norm(m, axis=1, keepdims=True) + 1e-6)
        own = self._without_mean(_tiles(refs - self.mean))
        energy = np.linalg.norm(own, axis=2)
        self._telling = energy >= TELLING * np.median(energy)
        self._own = (own / (energy[:, :, None] + 1e-6)).astype(np.float32)
        self._keep = np.maximum(1, np.round(KEEP * self._telling.sum(axis=1))).astype(int)

    def look(self, frame: np.ndarray, quad_px: np.ndarray, refine: bool = False) -> np.ndarray:
        """Each label's score (about −1…1) for the card outlined by ``quad_px``; with
        ``refine`` the card is also turned and sheared into place (twice the cost: for
        an outline the locator bent a little)."""
        seen, _to_frame = _seen_around(frame, quad_px)
        return self._scores_at(seen, self._placement(seen, SCALES, refine))

    def outline(self, frame: np.ndarray, quad_px: np.ndarray) -> np.ndarray:
        """The card's corners (TL, TR, BR, BL, ``frame`` pixels) where the cards' common
        layout lies best around ``quad_px``, scaled, turned and sheared into place as
        :meth:`look` places it with ``refine``. An outline that stopped at a frame printed
        inside the card, or took in a strip above it, comes back to the card's edges."""
        seen, to_frame = _seen_around(frame, quad_px)
        warp = self._placement(seen, OUTLINE_SCALES, refine=True)
        grid = corners(*SIZE) @ warp[:, :2].T + warp[:, 2]
        out: np.ndarray = cv2.perspectiveTransform(grid.reshape(-1, 1, 2), to_frame)
        return out.reshape(-1, 2).astype(np.float32)

    def places(self, photo: np.ndarray, count: int = PHOTO_PLACES) -> list[np.ndarray]:
        """Where a loose photo's card may lie, best first: the ``count`` places the mean
        card's layout matches best, at widths from :data:`PHOTO_WIDTHS` of the photo's
        shorter side (corners TL, TR, BR, BL, photo pixels)."""
        scale = SIZE[0] / (0.75 * min(photo.shape[:2]))  # a typical card at template size
        small = cv2.resize(gray(photo), None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        widths = np.geomspace(*PHOTO_WIDTHS, PHOTO_STEPS) / 0.75
        grid = corners(*SIZE).reshape(-1, 1, 2)
        return [
            cv2.transform(grid, warp).reshape(-1, 2) / scale
            for warp in self._places(_standard(small), widths)[:count]
        ]

    def _places(self, seen: np.ndarray, scales: np.ndarray) -> list[np.ndarray]:
        """Affine maps (templates' grid → ``seen``) where the mean card matches best: the
        best three places per scale, apart by a quarter card, all scales together."""
        w, h = SIZE
        found = []
        for s in scales:
            size = (round(w * s), round(h * s))
            if size[0] > seen.shape[1] or size[1] > seen.shape[0]:
                continue
            tpl = cv2.resize(self._align, size, interpolation=cv2.INTER_LINEAR)
            ncc = cv2.matchTemplate(seen, tpl, cv2.TM_CCOEFF_NORMED)
            for _ in range(3):
                _, score, _, (x, y) = cv2.minMaxLoc(ncc)
                found.append((score, np.array([[s, 0, x], [0, s, y]], np.float32)))
                cv2.rectangle(
                    ncc,
                    (x - size[0] // 4, y - size[1] // 4),
                    (x + size[0] // 4, y + size[1] // 4),
                    -1.0,
                    -1,
                )
        found.sort(key=lambda f: -f[0])
        return [warp for _score, warp in found]

    def _scores_at(self, seen: np.ndarray, warp: np.ndarray) -> np.ndarray:
        card = cv2.warpAffine(
            seen,
            warp,
            SIZE,
            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_REPLICATE,
        )
        card = (card - card.mean()) / (card.std() + 1e-6)
        return self.scores(card - self.mean)

    def scores(self, diff: np.ndarray) -> np.ndarray:
        """Per label, the mean of its best :data:`KEEP` tile correlations with ``diff``
        (an aligned card minus the mean), over the tiles that tell it apart."""
        q = self._without_mean(_tiles(diff))
        q = q / (np.linalg.norm(q, axis=1, keepdims=True) + 1e-6)
        rho = np.einsum("ltp,tp->lt", self._own, q.astype(np.float32))
        rho = np.where(self._telling, rho, -np.inf)
        best = -np.sort(-rho, axis=1)
        best[~np.isfinite(best)] = 0.0
        total = np.cumsum(best, axis=1)[np.arange(len(best)), self._keep - 1]
        out: np.ndarray = total / self._keep
        return out

    def _without_mean(self, tiles: np.ndarray) -> np.ndarray:
        """Tiles less their part along the mean card's: a card with little of its own
        differs from the mean by minus the mean, as bare table does, and must not match
        it."""
        along = (tiles * self._mean_tiles).sum(axis=-1, keepdims=True)
        out: np.ndarray = tiles - along * self._mean_tiles
        return out

    def _placement(self, seen: np.ndarray, scales: tuple[float, ...], refine: bool) -> np.ndarray:
        """The affine map from the templates' grid into ``seen``: the best scale and
        shift, then with ``refine`` also rotation and shear (ECC)."""
        w, h = SIZE
        best: tuple[float, float, Sequence[int]] = (-2.0, 1.0, (0, 0))
        for s in scales:
            size = (round(w * s), round(h * s))
            if size[0] > seen.shape[1] or size[1] > seen.shape[0]:
                continue
            tpl = cv2.resize(self._align, size, interpolation=cv2.INTER_LINEAR)
            _, score, _, at = cv2.minMaxLoc(cv2.matchTemplate(seen, tpl, cv2.TM_CCOEFF_NORMED))
            if score > best[0]:
                best = (score, s, at)
        _, s, (x, y) = best
        warp = np.array([[s, 0, x], [0, s, y]], np.float32)
        return _refined(self._align, seen, warp) if refine else warp


ECC_ITERATIONS = 20


def _refined(template: np.ndarray, seen: np.ndarray, warp: np.ndarray) -> np.ndarray:
    """``warp`` refined by ECC (affine) on the band-passed pictures; kept as it was when
    ECC does not converge (a hand, a glare spot)."""
    criteria = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, ECC_ITERATIONS, 1e-4)
    try:
        _, out = cv2.findTransformECC(  # type: ignore[call-overload]  # stubs lack mask=None
            template, seen, warp.copy(), cv2.MOTION_AFFINE, criteria, None, 1
        )
    except cv2.error:
        return warp
    return np.asarray(out)
