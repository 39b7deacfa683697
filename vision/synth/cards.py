"""Card faces drawn from the catalogue in several visual styles, plus the card back.

Styles: ``classic`` (dark frame, caste header) and ``modern`` (white frame, caste side
band, different fonts and art) are drawn by code; ``photo`` uses the printed-card photos
when a folder of them is given. ``modern`` is never used in training, so accuracy on it
measures domain shift instead of assuming it away. ``poster`` is held out too and is the
harder test: full-bleed, smooth, low-contrast art that looks alike from card to card
(as a painted or photographic printing does), one border colour per caste, and the
differences left to the name, the value and small print, so a 64 × 88 crop separates
its cards poorly and a second look at more pixels has to do the rest.
"""

from __future__ import annotations

import random
import zlib
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from engine.cards import CARDS, Color

PX_PER_MM = 4
CARD_W_MM, CARD_H_MM = 63, 88
FACE_W, FACE_H = CARD_W_MM * PX_PER_MM, CARD_H_MM * PX_PER_MM
STYLES = ("classic", "modern", "photo", "poster")
TRAIN_STYLES = ("classic", "photo")
FACE_DOWN = "face-down"  # layout entry for a card lying face down (Firewall Expert)

# BGR caste colours: close enough to the printed ones for the eye, not copied from them.
CASTE_BGR: dict[Color, tuple[int, int, int]] = {
    Color.GOLD: (40, 170, 225),
    Color.SILVER: (190, 185, 180),
    Color.WHITE: (235, 235, 230),
    Color.COPPER: (55, 105, 180),
    Color.BLUE: (190, 95, 35),
    Color.YELLOW: (45, 215, 240),
    Color.GREEN: (70, 150, 45),
    Color.VIOLET: (150, 50, 120),
    Color.ORANGE: (25, 120, 235),
    Color.RED: (45, 40, 195),
    Color.BROWN: (40, 70, 115),
    Color.GRAY: (125, 125, 125),
    Color.OBSIDIAN: (35, 30, 30),
    Color.PINK: (175, 130, 240),
}
_WORDS = (
    "deploy",
    "gain",
    "banish",
    "helium",
    "influence",
    "fleet",
    "sovereign",
    "location",
    "top",
    "card",
    "hand",
    "each",
    "other",
    "player",
    "may",
    "instead",
    "end",
    "of",
    "game",
    "points",
    "the",
    "a",
    "your",
    "from",
    "to",
    "if",
)
_SYLLABLES = (
    "ar",
    "ves",
    "ka",
    "tor",
    "li",
    "mo",
    "dra",
    "sen",
    "ul",
    "py",
    "rix",
    "ta",
    "no",
    "bel",
    "cas",
    "sio",
    "gar",
    "en",
    "ov",
    "thu",
    "mi",
    "zel",
    "quo",
    "ra",
)


def seeded(*parts: object) -> random.Random:
    """A generator seeded from text, stable across runs and processes (unlike ``hash``)."""
    return random.Random(zlib.crc32("|".join(map(str, parts)).encode()))


def fake_identity(rng: random.Random) -> tuple[str, Color, int]:
    """A card that is not in the catalogue: name, caste and value (training, open set)."""
    words = [
        "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 3))).capitalize()
        for _ in range(rng.randint(1, 2))
    ]
    return " ".join(words), rng.choice(list(Color)), rng.choice((3, 5, 7, 9, 10, 12, 15, 20))


def _fit_text(
    img: np.ndarray,
    text: str,
    box: tuple[int, int, int, int],
    font: int,
    color: tuple[int, int, int],
    thickness: int = 2,
) -> None:
    x, y, w, h = box
    scale = 1.0
    (tw, th), _ = cv2.getTextSize(text, font, scale, thickness)
    scale = min(w / max(tw, 1), h / max(th, 1))
    (tw, th), _ = cv2.getTextSize(text, font, scale, thickness)
    org = (x + (w - tw) // 2, y + (h + th) // 2)
    cv2.putText(img, text, org, font, scale, color, thickness, cv2.LINE_AA)


def _tint(color: tuple[int, int, int], factor: float) -> tuple[int, int, int]:
    return tuple(int(np.clip(c * factor, 0, 255)) for c in color)  # type: ignore[return-value]


def _gradient(h: int, w: int, top: tuple[int, ...], bottom: tuple[int, ...]) -> np.ndarray:
    t = np.linspace(0.0, 1.0, h, dtype=np.float32)[:, None, None]
    grad = np.array(top, np.float32) * (1 - t) + np.array(bottom, np.float32) * t
    return np.repeat(grad, w, axis=1).astype(np.uint8)


def _art(h: int, w: int, rng: random.Random, base: tuple[int, int, int], kind: str) -> np.ndarray:
    """Procedural art: blobs and polygons (classic) or rings and stripes (modern)."""
    img = _gradient(h, w, _tint(base, 0.5 + rng.random()), _tint(base, 0.2 + 0.6 * rng.random()))
    for _ in range(rng.randint(6, 11)):
        colour = tuple(rng.randrange(256) for _ in range(3))
        cx, cy = rng.randrange(w), rng.randrange(h)
        size = rng.randint(w // 10, w // 2)
        if kind == "classic":
            pick = rng.random()
            if pick < 0.4:
                cv2.circle(img, (cx, cy), size // 2, colour, -1, cv2.LINE_AA)
            elif pick < 0.8:
                pts = np.array(
                    [
                        (cx + rng.randint(-size, size), cy + rng.randint(-size, size))
                        for _ in range(rng.randint(3, 5))
                    ],
                    np.int32,
                )
                cv2.fillPoly(img, [pts], colour, cv2.LINE_AA)
            else:
                cv2.line(
                    img,
                    (cx, cy),
                    (rng.randrange(w), rng.randrange(h)),
                    colour,
                    rng.randint(3, 10),
                    cv2.LINE_AA,
                )
        else:
            for r in range(size, 4, -rng.randint(8, 16)):
                cv2.circle(img, (cx, cy), r, colour, rng.randint(2, 5), cv2.LINE_AA)
            if rng.random() < 0.5:
                x0 = rng.randrange(w)
                cv2.rectangle(img, (x0, 0), (x0 + rng.randint(4, 20), h), colour, -1)
    return img


def _text_lines(
    img: np.ndarray,
    box: tuple[int, int, int, int],
    rng: random.Random,
    colour: tuple[int, int, int],
) -> None:
    x, y, w, h = box
    for row in range(y + 8, y + h - 6, 14):
        length = rng.randint(w // 2, w - 10)
        cv2.line(img, (x + 6, row), (x + length, row), colour, 3)


def draw_classic(name: str, color: Color, value: int, role: str = "") -> np.ndarray:
    """The ``classic`` style: dark frame, caste header with name and value, art, text box."""
    rng = seeded("classic", name)
    caste = CASTE_BGR[color]
    img = np.full((FACE_H, FACE_W, 3), 28, np.uint8)
    img[48:260, 10:-10] = _art(212, FACE_W - 20, rng, caste, "classic")
    cv2.rectangle(img, (0, 0), (FACE_W, 50), caste, -1)
    cv2.rectangle(img, (0, 0), (FACE_W, 50), _tint(caste, 0.5), 3)
    cv2.circle(img, (28, 28), 22, (245, 245, 245), -1, cv2.LINE_AA)
    cv2.circle(img, (28, 28), 22, _tint(caste, 0.4), 3, cv2.LINE_AA)
    _fit_text(img, str(value), (12, 14, 32, 28), cv2.FONT_HERSHEY_DUPLEX, (20, 20, 20))
    text_colour = (20, 20, 20) if sum(caste) > 420 else (245, 245, 245)
    _fit_text(img, name.upper(), (58, 8, FACE_W - 66, 26), cv2.FONT_HERSHEY_DUPLEX, text_colour)
    _fit_text(
        img,
        f"{color.value} {role}".strip(),
        (110, 34, FACE_W - 120, 12),
        cv2.FONT_HERSHEY_SIMPLEX,
        text_colour,
        1,
    )
    cv2.rectangle(img, (10, 268), (FACE_W - 10, FACE_H - 10), (225, 225, 220), -1)
    _text_lines(img, (10, 268, FACE_W - 20, FACE_H - 278), rng, (70, 70, 70))
    return img


def draw_modern(name: str, color: Color, value: int, role: str = "") -> np.ndarray:
    """The ``modern`` style (held out of training): light frame, side band, ring art."""
    rng = seeded("modern", name)
    caste = CASTE_BGR[color]
    img = np.full((FACE_H, FACE_W, 3), (232, 236, 240), np.uint8)
    cv2.rectangle(img, (0, 0), (26, FACE_H), caste, -1)
    img[70:300, 36:-10] = _art(230, FACE_W - 46, rng, _tint(caste, 1.2), "modern")
    cv2.rectangle(img, (FACE_W - 52, 8), (FACE_W - 10, 58), (30, 30, 30), -1)
    _fit_text(img, str(value), (FACE_W - 48, 16, 34, 34), cv2.FONT_HERSHEY_TRIPLEX, (240, 240, 240))
    _fit_text(img, name, (34, 10, FACE_W - 94, 30), cv2.FONT_HERSHEY_TRIPLEX, (25, 25, 25))
    _fit_text(
        img,
        role or color.value,
        (34, 44, FACE_W - 94, 14),
        cv2.FONT_HERSHEY_COMPLEX_SMALL,
        _tint(caste, 0.7),
        1,
    )
    _text_lines(img, (36, 306, FACE_W - 46, FACE_H - 312), rng, _tint(caste, 0.6))
    return img


def _smooth_noise(h: int, w: int, rng: random.Random) -> np.ndarray:
    """Fractal value noise in 0..1: a few octaves of upsampled random grids, as soft as a
    photograph's out-of-focus background."""
    nrng = np.random.default_rng(rng.randrange(2**32))
    out = np.zeros((h, w), np.float32)
    for octave, weight in ((3, 1.0), (6, 0.5), (12, 0.25), (24, 0.12)):
        grid = nrng.random((octave + 1, octave + 1)).astype(np.float32)
        out += weight * cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)
    out -= out.min()
    return out / max(float(out.max()), 1e-6)


def _poster_art(h: int, w: int, rng: random.Random, caste: tuple[int, int, int]) -> np.ndarray:
    """Smooth noise between a dark and a light shade of the caste's colour, with a few
    soft translucent blobs: cards of one caste look alike from afar."""
    light = np.array(caste, np.float32) * 0.5 + 110
    t = _smooth_noise(h, w, rng)[:, :, None]
    img = np.array(_tint(caste, 0.35), np.float32) * (1 - t) + light * t
    for _ in range(rng.randint(3, 6)):
        layer = np.zeros((h, w), np.float32)
        centre = (rng.randrange(w), rng.randrange(h))
        axes = (rng.randint(w // 10, w // 3), rng.randint(h // 10, h // 3))
        cv2.ellipse(layer, centre, axes, rng.uniform(0, 180), 0, 360, 1.0, -1, cv2.LINE_AA)
        alpha = cv2.GaussianBlur(layer, (0, 0), rng.uniform(3, 9))[:, :, None] * 0.35
        colour = np.array([rng.randint(60, 200) for _ in range(3)], np.float32)
        img = img * (1 - alpha) + colour * alpha
    out: np.ndarray = np.clip(img, 0, 255).astype(np.uint8)
    return out


def _band(img: np.ndarray, y0: int, y1: int, shade: float) -> None:
    """Darken rows y0..y1 (a translucent band that text is printed on)."""
    img[y0:y1] = (img[y0:y1].astype(np.float32) * shade).astype(np.uint8)


def _small_print(img: np.ndarray, box: tuple[int, int, int, int], rng: random.Random) -> None:
    x, y, w, h = box
    for row in range(y + 12, y + h - 4, 13):
        words = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(4, 7)))
        cv2.putText(
            img, words, (x, row), cv2.FONT_HERSHEY_PLAIN, 0.8, (235, 235, 230), 1, cv2.LINE_AA
        )
    del w  # the text runs off the band's right end, as long rules text wraps there


def draw_poster(name: str, color: Color, value: int, role: str = "") -> np.ndarray:
    """The ``poster`` style (held out of training): full-bleed soft art, a caste border,
    the name on a translucent band at the top, the value in a white diamond, rules text
    on a band at the bottom."""
    rng = seeded("poster", name)
    caste = CASTE_BGR[color]
    img = _poster_art(FACE_H, FACE_W, rng, caste)
    _band(img, 0, 44, 0.45)
    _band(img, 262, FACE_H, 0.4)
    cv2.rectangle(img, (0, 0), (FACE_W - 1, FACE_H - 1), caste, 6)
    diamond = np.array([(FACE_W - 30, 4), (FACE_W - 8, 24), (FACE_W - 30, 44), (FACE_W - 52, 24)])
    cv2.fillConvexPoly(img, diamond, (240, 240, 240), cv2.LINE_AA)
    _fit_text(img, str(value), (FACE_W - 44, 14, 28, 20), cv2.FONT_HERSHEY_SIMPLEX, (20, 20, 20))
    _fit_text(img, name, (12, 8, FACE_W - 76, 22), cv2.FONT_HERSHEY_COMPLEX, (245, 245, 245))
    cv2.putText(
        img,
        (role or color.value).lower(),
        (14, 40),
        cv2.FONT_HERSHEY_PLAIN,
        0.9,
        _tint(caste, 1.3),
        1,
        cv2.LINE_AA,
    )
    _small_print(img, (12, 266, FACE_W - 24, FACE_H - 276), rng)
    return img


def draw_foreign(rng: random.Random) -> np.ndarray:
    """A card from another game (open-set negative): white face, big suit shape and letter."""
    img = np.full((FACE_H, FACE_W, 3), 245, np.uint8)
    colour = rng.choice(((30, 30, 200), (20, 20, 20), (160, 60, 20)))
    cv2.rectangle(img, (8, 8), (FACE_W - 8, FACE_H - 8), colour, 3)
    centre = (FACE_W // 2, FACE_H // 2)
    if rng.random() < 0.5:
        cv2.circle(img, centre, rng.randint(40, 80), colour, -1, cv2.LINE_AA)
    else:
        half = rng.randint(40, 80)
        pts = np.array(
            [
                (centre[0], centre[1] - half),
                (centre[0] + half, centre[1]),
                (centre[0], centre[1] + half),
                (centre[0] - half, centre[1]),
            ],
            np.int32,
        )
        cv2.fillPoly(img, [pts], colour, cv2.LINE_AA)
    letter = rng.choice("AKQJ2345678910")
    cv2.putText(img, letter, (16, 60), cv2.FONT_HERSHEY_SIMPLEX, 1.8, colour, 4, cv2.LINE_AA)
    return img


BACKS = ("classic", "lattice")  # card back designs; training draws only the first


@lru_cache(maxsize=len(BACKS))
def card_back(design: str = "classic") -> np.ndarray:
    """The back face-down cards show in synthetic scenes: ``classic`` (the one the
    classifier is trained with) or ``lattice``, a table's own backs it never saw.

    :raises ValueError: for an unknown design.
    """
    if design == "lattice":
        return _lattice_back()
    if design != "classic":
        raise ValueError(f"unknown card back {design!r}; choose one of {', '.join(BACKS)}")
    img = _gradient(FACE_H, FACE_W, (30, 25, 110), (15, 10, 60))
    cv2.rectangle(img, (10, 10), (FACE_W - 10, FACE_H - 10), (60, 150, 200), 3)
    centre = (FACE_W // 2, FACE_H // 2)
    cv2.circle(img, centre, 70, (60, 150, 200), 4, cv2.LINE_AA)
    pts = np.array(
        [
            (centre[0], centre[1] - 55),
            (centre[0] + 48, centre[1] + 28),
            (centre[0] - 48, centre[1] + 28),
        ],
        np.int32,
    )
    cv2.polylines(img, [pts], True, (60, 150, 200), 4, cv2.LINE_AA)
    return img


def _lattice_back() -> np.ndarray:
    """A sleeved back unlike the classic one: pale green, a diagonal lattice, a gold seal."""
    img = _gradient(FACE_H, FACE_W, (70, 120, 40), (40, 80, 20))
    for k in range(-FACE_H, FACE_W + FACE_H, 28):
        cv2.line(img, (k, 0), (k + FACE_H, FACE_H), (150, 200, 120), 3, cv2.LINE_AA)
        cv2.line(img, (k, FACE_H), (k + FACE_H, 0), (150, 200, 120), 3, cv2.LINE_AA)
    centre = (FACE_W // 2, FACE_H // 2)
    cv2.circle(img, centre, 62, (40, 170, 230), -1, cv2.LINE_AA)
    cv2.circle(img, centre, 62, (235, 235, 235), 6, cv2.LINE_AA)
    cv2.rectangle(img, (8, 8), (FACE_W - 8, FACE_H - 8), (235, 235, 235), 6)
    return img


def default_photo_dir() -> Path:
    """Where the printed-card photos lie beside the project checkout (never committed)."""
    return Path(__file__).resolve().parents[2].parent / "shared" / "reference" / "card-photos"


@lru_cache(maxsize=512)
def _photo(path: str) -> np.ndarray:
    img = cv2.imread(path, cv2.IMREAD_COLOR)
    if img is None:
        raise ValueError(f"cannot read card photo {path}")
    return cv2.resize(img, (FACE_W, FACE_H), interpolation=cv2.INTER_AREA)


@lru_cache(maxsize=1024)
def _face_cached(card: str, style: str, photo_dir: str) -> np.ndarray:
    if card == FACE_DOWN:
        return card_back()
    if style == "photo":
        return _photo(str(Path(photo_dir) / f"{card}.jpg"))
    info = CARDS[card]
    draw = {"classic": draw_classic, "modern": draw_modern, "poster": draw_poster}[style]
    return draw(info.name, info.color, info.core, info.role)


def card_face(card: str, style: str = "classic", photo_dir: Path | None = None) -> np.ndarray:
    """The face of catalogue card ``card`` (or the back for :data:`FACE_DOWN`), BGR, cached.

    :raises ValueError: for an unknown style or card id, or a missing photo.
    """
    if style not in STYLES:
        raise ValueError(f"unknown card style {style!r}; choose one of {', '.join(STYLES)}")
    if card != FACE_DOWN and card not in CARDS:
        raise ValueError(f"unknown card id {card!r}")
    folder = photo_dir or default_photo_dir()
    face = _face_cached(card, style, str(folder))
    face.flags.writeable = False
    return face


BAND_MM = 12.0  # a cascade step: how much of an older card's top shows above the next


def banded_face(face: np.ndarray, others: list[np.ndarray]) -> np.ndarray:
    """``face`` with art that reads like a cascade: the top bands of ``others``, one under
    another, from 13 % down the card (a hard case for counting a stack by its strips)."""
    out = face.copy()
    h, w = out.shape[:2]
    band = round(h * BAND_MM / 88.0)
    y = round(h * 0.13)
    for other in others:
        if y + band > h:
            break
        out[y : y + band] = cv2.resize(other, (w, h), interpolation=cv2.INTER_AREA)[:band]
        y += band
    return out


_FONTS = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_PLAIN,
)


def draw_varied(name: str, color: Color, value: int, seed: int = 0) -> np.ndarray:
    """A card in a randomly drawn design (training only): frame, header, badge, fonts and
    art vary, so the embedder learns to tell card designs apart in general.

    The held-out ``modern`` style's signatures (ring art, a full-height side band) are
    never drawn here, so accuracy on it still measures an unseen design.
    """
    rng = seeded("varied", name, seed)
    caste = CASTE_BGR[color]
    frame = tuple(rng.randint(0, 255) for _ in range(3))
    img = np.full((FACE_H, FACE_W, 3), frame, np.uint8)
    top = rng.randint(30, 70)
    art_bottom = rng.randint(230, 300)
    m = rng.randint(4, 16)
    img[top:art_bottom, m:-m] = _art(art_bottom - top, FACE_W - 2 * m, rng, caste, "classic")
    band = caste if rng.random() < 0.6 else tuple(rng.randint(0, 255) for _ in range(3))
    cv2.rectangle(img, (0, 0), (FACE_W, top), band, -1)
    ink = (20, 20, 20) if sum(band) > 400 else (240, 240, 240)
    badge_x = 8 if rng.random() < 0.5 else FACE_W - 8 - (top - 12)
    side = top - 12
    if rng.random() < 0.5:
        cv2.circle(img, (badge_x + side // 2, 6 + side // 2), side // 2, (240, 240, 235), -1)
    else:
        cv2.rectangle(img, (badge_x, 6), (badge_x + side, 6 + side), (30, 30, 30), -1)
    _fit_text(
        img,
        str(value),
        (badge_x + 4, 10, side - 8, side - 8),
        rng.choice(_FONTS),
        (20, 20, 20) if badge_x == 8 else (230, 230, 230),
    )
    text_x = side + 16 if badge_x == 8 else 10
    _fit_text(
        img,
        name if rng.random() < 0.5 else name.upper(),
        (text_x, 6, FACE_W - side - 28, top - 14),
        rng.choice(_FONTS),
        ink,
    )
    box = tuple(rng.randint(150, 250) for _ in range(3))
    cv2.rectangle(img, (m, art_bottom + 6), (FACE_W - m, FACE_H - m), box, -1)
    _text_lines(
        img,
        (m, art_bottom + 6, FACE_W - 2 * m, FACE_H - art_bottom - 6 - m),
        rng,
        _tint(caste, 0.6),
    )
    return img
