"""Table tops drawn on the table's own plane: checked cloth, planks, a printed playmat.

:func:`vision.synth.effects.table_texture` paints the older kinds (wood grain, felt,
paint) straight into the frame. A real cloth's checks or a floor of planks shrink with
distance under a tilted camera, and their lines converge: these kinds are drawn in
millimetres on the table and projected through the camera's homography, so perspective
acts on them as on the cards.

``KINDS`` are the kinds tuning and tests use; ``TRAINING`` adds kinds only the table
segmenter trains on (a fine weave and a striped cloth), so the network meets more
patterns than the figures are measured on; ``MORE`` are kinds a segmenter may be trained
on besides (veined marble, tiles, speckled granite, a printed tablecloth: see
``models/SEGMENTER_CARD.md`` for what they did); ``UNSEEN`` is kept out of everything that
trains or tunes (a pattern and colours none of the others has), so a figure measured on
it says how the pipeline meets a table it never saw.
"""

from __future__ import annotations

import math
import random

import cv2
import numpy as np

KINDS = ("gingham", "planks", "playmat")
TRAINING = (*KINDS, "weave", "stripes")
MORE = ("marble", "tiles", "granite", "tablecloth")
UNSEEN = "terrazzo"
PX_PER_MM = 2.0  # the texture's resolution on the table (a frame shows ~3 px/mm)
REACH_MM = ((-400.0, 730.0), (-300.0, 620.0))  # the most of the plane a frame may show


def draw(kind: str, hom: np.ndarray, size: tuple[int, int], rng: random.Random) -> np.ndarray:
    """The table top of ``kind`` as the camera (play-area mm → pixels ``hom``) sees it.

    :raises ValueError: for an unknown kind.
    """
    painters = {"gingham": gingham, "planks": planks, "playmat": playmat, "weave": weave,
                "stripes": stripes, "marble": marble, "tiles": tiles, "granite": granite,
                "tablecloth": tablecloth, UNSEEN: terrazzo}
    if kind not in painters:
        raise ValueError(f"unknown table kind {kind!r}: one of {', '.join(painters)}")
    (x0, x1), (y0, y1) = _seen(hom, size)
    shape = (round((y1 - y0) * PX_PER_MM), round((x1 - x0) * PX_PER_MM))
    plane = painters[kind](shape, (x0, y0), rng)
    to_mm = np.array([[1 / PX_PER_MM, 0, x0], [0, 1 / PX_PER_MM, y0], [0, 0, 1]])
    return cv2.warpPerspective(plane, hom @ to_mm, size, flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REFLECT)


def _seen(hom: np.ndarray, size: tuple[int, int]) -> tuple[tuple[float, float], ...]:
    """The rectangle of the table plane (mm) the frame shows, within :data:`REACH_MM`."""
    w, h = size
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32).reshape(-1, 1, 2)
    mm = cv2.perspectiveTransform(corners, np.linalg.inv(hom)).reshape(-1, 2)
    (ax, bx), (ay, by) = REACH_MM
    x = (max(ax, float(mm[:, 0].min()) - 10), min(bx, float(mm[:, 0].max()) + 10))
    y = (max(ay, float(mm[:, 1].min()) - 10), min(by, float(mm[:, 1].max()) + 10))
    return x, y


def _coords(shape: tuple[int, int], origin: tuple[float, float], angle: float
            ) -> tuple[np.ndarray, np.ndarray]:
    """Millimetre coordinates (u across, v along) of every texture pixel, turned ``angle``."""
    ys, xs = np.mgrid[0 : shape[0], 0 : shape[1]].astype(np.float32) / PX_PER_MM
    xs += origin[0]
    ys += origin[1]
    c, s = math.cos(angle), math.sin(angle)
    return xs * c + ys * s, -xs * s + ys * c


def _smooth_noise(shape: tuple[int, int], scale_px: float, nrng: np.random.Generator) -> np.ndarray:
    """Unit-ish smooth noise with features about ``scale_px`` texture pixels across."""
    small = (max(2, int(shape[0] / scale_px) + 2), max(2, int(shape[1] / scale_px) + 2))
    field = nrng.normal(0, 1, small).astype(np.float32)
    return cv2.resize(field, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)


def _bands(t: np.ndarray, period: float) -> np.ndarray:
    """0/1 stripes of half ``period`` along ``t``, edges softened over half a millimetre."""
    phase = (t / period) % 1.0
    edge = 0.5 / period
    up = np.clip(phase / edge, 0, 1)
    down = np.clip((0.5 - phase) / edge + 1, 0, 1)
    return np.minimum(up, down)


def gingham(shape: tuple[int, int], origin: tuple[float, float], rng: random.Random) -> np.ndarray:
    """A woven check: a colour's stripes both ways over a light ground; where they cross
    the colour is full, where one passes it is half."""
    nrng = np.random.default_rng(rng.randrange(1 << 30))
    colours = ((40, 40, 190), (120, 50, 20), (50, 120, 40), (35, 35, 35), (30, 110, 210),
               (110, 40, 110), (150, 120, 40))
    ink = np.array(rng.choice(colours), np.float32) * rng.uniform(0.8, 1.1)
    ground = np.array([rng.uniform(215, 245)] * 3, np.float32) - (0, rng.uniform(0, 12), 0)
    period = rng.uniform(6.0, 30.0)
    u, v = _coords(shape, origin, math.radians(rng.uniform(-10, 10)))
    share = (_bands(u, period) + _bands(v, period)) / 2
    img = ground + (ink - ground) * share[:, :, None]
    # Threads and a few soft wrinkles in the cloth.
    img *= (1 + 0.06 * _smooth_noise(shape, 80 * PX_PER_MM, nrng))[:, :, None]
    img += nrng.normal(0, 5, (*shape, 1)).astype(np.float32)
    out: np.ndarray = np.clip(img, 0, 255).astype(np.uint8)
    return out


def planks(shape: tuple[int, int], origin: tuple[float, float], rng: random.Random) -> np.ndarray:
    """Boards side by side, each its own shade and grain, dark seams between them and a
    butt joint now and then."""
    nrng = np.random.default_rng(rng.randrange(1 << 30))
    angle = math.radians(rng.choice((0.0, 90.0)) + rng.uniform(-3, 3))
    u, v = _coords(shape, origin, angle)
    width = rng.uniform(70, 160)
    board = np.floor(u / width).astype(np.int32)
    boards = int(board.max() - board.min()) + 1
    base = np.array((40 + rng.randint(0, 70), 75 + rng.randint(0, 70), 115 + rng.randint(0, 80)),
                    np.float32)
    shades = 1 + nrng.normal(0, 0.12, boards).astype(np.float32)
    phase = nrng.uniform(0, 100, boards).astype(np.float32)
    k = board - board.min()
    # Grain: stripes along the board that wander, from a 1D noise read at (u, slow v).
    grain = np.sin((u + phase[k]) * rng.uniform(0.6, 1.4) + 2 * np.sin(v / 90 + phase[k]))
    fine = _smooth_noise(shape, 3 * PX_PER_MM, nrng)
    img = base * shades[k][:, :, None] * (1 + 0.07 * grain + 0.03 * fine)[:, :, None]
    seam_w = rng.uniform(1.0, 3.0)
    across = np.minimum(u % width, width - u % width)
    joint_len = rng.uniform(400, 1200)
    along = (v + phase[k] * joint_len / 100) % joint_len
    seam = (across < seam_w / 2) | (np.minimum(along, joint_len - along) < seam_w / 2)
    img[seam] *= rng.uniform(0.25, 0.5)
    img += nrng.normal(0, 3, (*shape, 1)).astype(np.float32)
    out: np.ndarray = np.clip(img, 0, 255).astype(np.uint8)
    return out


def playmat(shape: tuple[int, int], origin: tuple[float, float], rng: random.Random) -> np.ndarray:
    """A printed mat: a dark ground under large soft washes of colour, thin printed
    outlines (frames, circles, a grid of slots) and rows of small print."""
    nrng = np.random.default_rng(rng.randrange(1 << 30))
    ground = np.array([rng.randint(15, 90) for _ in range(3)], np.float32)
    img = np.empty((*shape, 3), np.float32)
    img[:] = ground
    for _ in range(rng.randint(3, 6)):
        wash = np.array([rng.randint(0, 255) for _ in range(3)], np.float32)
        blob = np.clip(_smooth_noise(shape, rng.uniform(120, 300) * PX_PER_MM, nrng), 0, None)
        img += (wash - ground) * (0.35 * blob / max(float(blob.max()), 1e-6))[:, :, None]
    ink = tuple(rng.randint(150, 255) for _ in range(3))
    for _ in range(rng.randint(6, 14)):
        _printed_shape(img, shape, rng, ink)
    img += nrng.normal(0, 2, (*shape, 1)).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def _printed_shape(img: np.ndarray, shape: tuple[int, int], rng: random.Random,
                   ink: tuple[int, ...]) -> None:
    """One printed outline or block of small print, anywhere on the mat."""
    h, w = shape
    x, y = rng.uniform(0, w), rng.uniform(0, h)
    px = PX_PER_MM
    thick = max(1, round(rng.uniform(0.6, 2.0) * px))
    kind = rng.choice(("frame", "circle", "print"))
    if kind == "frame":
        rw, rh = rng.uniform(40, 200) * px, rng.uniform(40, 200) * px
        cv2.rectangle(img, (int(x), int(y)), (int(x + rw), int(y + rh)), ink, thick, cv2.LINE_AA)
    elif kind == "circle":
        cv2.circle(img, (int(x), int(y)), int(rng.uniform(15, 80) * px), ink, thick, cv2.LINE_AA)
    else:
        for row in range(rng.randint(2, 6)):
            yy = int(y + row * 5 * px)
            xx = int(x)
            for _ in range(rng.randint(3, 10)):
                word = int(rng.uniform(4, 14) * px)
                cv2.rectangle(img, (xx, yy), (xx + word, yy + int(2.2 * px)), ink, -1)
                xx += word + int(2 * px)


def terrazzo(shape: tuple[int, int], origin: tuple[float, float], rng: random.Random) -> np.ndarray:
    """Speckled stone: a pale ground strewn with chips of several colours, 2-9 mm."""
    nrng = np.random.default_rng(rng.randrange(1 << 30))
    ground = np.array([rng.randint(170, 215)] * 3, np.float32) + nrng.uniform(-12, 12, 3)
    img = np.empty((*shape, 3), np.float32)
    img[:] = ground.astype(np.float32)
    palette = [np.array([rng.randint(20, 240) for _ in range(3)], np.float32) for _ in range(4)]
    area = shape[0] * shape[1] / PX_PER_MM**2
    for _ in range(int(area / 60)):
        colour = tuple(float(c) for c in palette[rng.randrange(len(palette))])
        centre = np.array((rng.uniform(0, shape[1]), rng.uniform(0, shape[0])))
        r = rng.uniform(1.0, 4.5) * PX_PER_MM
        pts = [centre + r * rng.uniform(0.5, 1.0) * np.array((math.cos(a), math.sin(a)))
               for a in np.sort(nrng.uniform(0, 2 * math.pi, rng.randint(4, 7)))]
        cv2.fillConvexPoly(img, np.round(np.array(pts)).astype(np.int32), colour, cv2.LINE_AA)
    img *= (1 + 0.04 * _smooth_noise(shape, 150 * PX_PER_MM, nrng))[:, :, None]
    return np.clip(img, 0, 255).astype(np.uint8)


def weave(shape: tuple[int, int], origin: tuple[float, float], rng: random.Random) -> np.ndarray:
    """A plain-woven cloth (linen, canvas): one colour, fine threads both ways whose
    thickness wanders, a slub now and then, and soft folds."""
    nrng = np.random.default_rng(rng.randrange(1 << 30))
    ground = np.array([rng.randint(60, 235) for _ in range(3)], np.float32)
    ground = ground * 0.5 + ground.mean() * 0.5  # cloths are muted
    u, v = _coords(shape, origin, math.radians(rng.uniform(-8, 8)))
    pitch = rng.uniform(1.2, 3.0)  # finer threads only blur to the cloth's colour
    warp = np.cos(2 * math.pi * u / pitch + 3 * _smooth_noise(shape, 40 * PX_PER_MM, nrng))
    weft = np.cos(2 * math.pi * v / pitch + 3 * _smooth_noise(shape, 40 * PX_PER_MM, nrng))
    slubs = _smooth_noise(shape, 2 * PX_PER_MM, nrng) * _smooth_noise(shape, 25 * PX_PER_MM, nrng)
    depth = rng.uniform(0.03, 0.12)
    img = ground * (1 + depth * (warp + weft) / 2 + 0.05 * slubs)[:, :, None]
    img *= (1 + 0.07 * _smooth_noise(shape, 90 * PX_PER_MM, nrng))[:, :, None]
    img += nrng.normal(0, 3, (*shape, 1)).astype(np.float32)
    out: np.ndarray = np.clip(img, 0, 255).astype(np.uint8)
    return out


def stripes(shape: tuple[int, int], origin: tuple[float, float], rng: random.Random) -> np.ndarray:
    """A striped cloth: bands of two to four colours one way, of several widths."""
    nrng = np.random.default_rng(rng.randrange(1 << 30))
    colours = [np.array([rng.randint(20, 245) for _ in range(3)], np.float32)
               for _ in range(rng.randint(2, 4))]
    widths = [rng.uniform(2, 40) for _ in colours]
    u, _v = _coords(shape, origin, math.radians(rng.choice((0.0, 90.0)) + rng.uniform(-12, 12)))
    phase = u % sum(widths)
    img = np.empty((*shape, 3), np.float32)
    edge = 0.0
    for colour, width in zip(colours, widths, strict=True):
        img[(phase >= edge) & (phase < edge + width)] = colour
        edge += width
    img *= (1 + 0.06 * _smooth_noise(shape, 80 * PX_PER_MM, nrng))[:, :, None]
    img += nrng.normal(0, 4, (*shape, 1)).astype(np.float32)
    return np.clip(cv2.GaussianBlur(img, (0, 0), 0.6), 0, 255).astype(np.uint8)


def marble(shape: tuple[int, int], origin: tuple[float, float], rng: random.Random) -> np.ndarray:
    """Veined stone: a pale or dark ground crossed by thin wandering veins, some faint."""
    nrng = np.random.default_rng(rng.randrange(1 << 30))
    dark = rng.random() < 0.3
    ground = np.array([rng.randint(25, 70) if dark else rng.randint(190, 240)] * 3, np.float32)
    ground += nrng.uniform(-10, 10, 3).astype(np.float32)
    vein = np.array([rng.randint(150, 230) if dark else rng.randint(60, 150)] * 3, np.float32)
    vein += nrng.uniform(-20, 20, 3).astype(np.float32)
    u, _v = _coords(shape, origin, math.radians(rng.uniform(0, 180)))
    share = np.zeros(shape, np.float32)
    for _ in range(rng.randint(2, 4)):
        # A vein is where a turbulent phase crosses a whole number: thin, forked, wandering.
        turb = (_smooth_noise(shape, rng.uniform(60, 160) * PX_PER_MM, nrng) * rng.uniform(0.6, 1.6)
                + _smooth_noise(shape, rng.uniform(8, 20) * PX_PER_MM, nrng) * 0.15)
        phase = u / rng.uniform(120, 300) + turb
        width = rng.uniform(0.02, 0.08)
        line = np.clip(1 - np.abs(phase - np.round(phase)) / width, 0, 1)
        share = np.maximum(share, line * rng.uniform(0.4, 1.0))
    img = ground + (vein - ground) * share[:, :, None]
    img *= (1 + 0.05 * _smooth_noise(shape, 30 * PX_PER_MM, nrng))[:, :, None]
    img += nrng.normal(0, 2, (*shape, 1)).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def tiles(shape: tuple[int, int], origin: tuple[float, float], rng: random.Random) -> np.ndarray:
    """Square glazed tiles, each a little its own shade, set in lines of grout."""
    nrng = np.random.default_rng(rng.randrange(1 << 30))
    u, v = _coords(shape, origin, math.radians(rng.uniform(-5, 5)))
    size = rng.uniform(50, 200)
    cu, cv = np.floor(u / size).astype(np.int32), np.floor(v / size).astype(np.int32)
    base = np.array([rng.randint(40, 235) for _ in range(3)], np.float32)
    shade = (1 + 0.06 * np.sin(cu * 12.9898 + cv * 78.233) * rng.uniform(0.5, 1.5))
    img = base * shade[:, :, None].astype(np.float32)
    img *= (1 + 0.03 * _smooth_noise(shape, 20 * PX_PER_MM, nrng))[:, :, None]
    grout = np.array([rng.randint(90, 220)] * 3, np.float32)
    gw = rng.uniform(1.5, 5.0)
    edge = np.minimum(np.minimum(u % size, size - u % size), np.minimum(v % size, size - v % size))
    img[edge < gw / 2] = grout
    img += nrng.normal(0, 3, (*shape, 1)).astype(np.float32)
    return np.clip(cv2.GaussianBlur(img, (0, 0), 0.6), 0, 255).astype(np.uint8)


def granite(shape: tuple[int, int], origin: tuple[float, float], rng: random.Random) -> np.ndarray:
    """Polished granite: a fine grain of dark, light and coloured crystals, 0.5-2 mm."""
    nrng = np.random.default_rng(rng.randrange(1 << 30))
    tones = [np.array([rng.randint(10, 250) for _ in range(3)], np.float32)
             for _ in range(rng.randint(2, 4))]
    weights = nrng.dirichlet(np.ones(len(tones)))
    # Crystals: a coarse random field at about a millimetre, thresholded into grains.
    coarse = nrng.random((max(2, shape[0] // 2), max(2, shape[1] // 2))).astype(np.float32)
    field = cv2.resize(coarse, (shape[1], shape[0]), interpolation=cv2.INTER_NEAREST)
    edges = np.cumsum(weights)
    grains = np.empty((*shape, 3), np.float32)
    low = 0.0
    for tone, high in zip(tones, edges, strict=True):
        grains[(field >= low) & (field <= high + 1e-6)] = tone
        low = float(high)
    img: np.ndarray = cv2.GaussianBlur(grains, (0, 0), rng.uniform(0.5, 1.2))
    img *= (1 + 0.05 * _smooth_noise(shape, 60 * PX_PER_MM, nrng))[:, :, None]
    out: np.ndarray = np.clip(img, 0, 255).astype(np.uint8)
    return out


def tablecloth(shape: tuple[int, int], origin: tuple[float, float], rng: random.Random
               ) -> np.ndarray:
    """A printed tablecloth: a repeated motif (a flower of round petals, a leaf, a dot)
    in two or three colours over a plain ground, set on a loose grid."""
    nrng = np.random.default_rng(rng.randrange(1 << 30))
    ground = np.array([rng.randint(120, 245) for _ in range(3)], np.float32)
    img = np.empty((*shape, 3), np.float32)
    img[:] = ground
    inks = [tuple(float(c) for c in (rng.randint(10, 230) for _ in range(3)))
            for _ in range(rng.randint(2, 3))]
    pitch = rng.uniform(25, 70) * PX_PER_MM
    size = pitch * rng.uniform(0.15, 0.35)
    for gy in np.arange(-pitch, shape[0] + pitch, pitch):
        for gx in np.arange(-pitch, shape[1] + pitch, pitch):
            cx = gx + (pitch / 2 if int(gy / pitch) % 2 else 0) + rng.uniform(-0.1, 0.1) * pitch
            cy = gy + rng.uniform(-0.1, 0.1) * pitch
            _motif(img, (cx, cy), size, inks, rng)
    img *= (1 + 0.06 * _smooth_noise(shape, 80 * PX_PER_MM, nrng))[:, :, None]
    img += nrng.normal(0, 4, (*shape, 1)).astype(np.float32)
    return np.clip(cv2.GaussianBlur(img, (0, 0), 0.7), 0, 255).astype(np.uint8)


def _motif(img: np.ndarray, centre: tuple[float, float], size: float,
           inks: list[tuple[float, ...]], rng: random.Random) -> None:
    """One printed flower (petals round a heart) or a leaf, at ``centre``."""
    cx, cy = centre
    if rng.random() < 0.7:
        petals = rng.randint(4, 7)
        turn = rng.uniform(0, 2 * math.pi)
        for k in range(petals):
            a = turn + 2 * math.pi * k / petals
            petal = (int(cx + size * 0.6 * math.cos(a)), int(cy + size * 0.6 * math.sin(a)))
            cv2.circle(img, petal, max(1, int(size * 0.45)), inks[0], -1, cv2.LINE_AA)
        cv2.circle(img, (int(cx), int(cy)), max(1, int(size * 0.35)), inks[1], -1, cv2.LINE_AA)
    else:
        axes = (max(1, int(size)), max(1, int(size * 0.4)))
        cv2.ellipse(img, (int(cx), int(cy)), axes, rng.uniform(0, 180), 0, 360, inks[-1], -1,
                    cv2.LINE_AA)
