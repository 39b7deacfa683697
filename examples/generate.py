"""Regenerate the example files that are pictures or recordings, with the project's own
scene renderer and game recorder (never with photographs):

    .venv/bin/python examples/generate.py

* ``game/``: a game folder for ``companion replay``: the opening of a solo game against
  Au Toma (seed 1), played by a bot, filmed by :class:`device.perception.ScriptedCamera`
  at 640 × 480 and written by :func:`device.recording.write_scripted`;
* ``table.jpg``: a camera frame of a table for ``companion table scan``;
* ``cards/``: three card faces for ``companion cards identify`` and ``cards enroll``.

The game folder is kept small (about 1 MB): each still view of the table is one picture
that the timeline names once per frame (the stabiliser wants at least four frames over
half a second before it trusts a view), and the hands that cross the table while it
changes are left out. ``--moments N`` films a longer or shorter stretch.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import shutil
import sys
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2
import numpy as np

from device.perception import ScriptedCamera
from device.recording import write_scripted
from engine.tracking.script import Layout, write_script
from vision.synth.cards import card_face
from vision.synth.scene import SceneOptions, render

HERE = Path(__file__).resolve().parent
GAME_SEED = 1
TABLE = {"jupiter": ["pelus", "modjob"], "mars": ["ragnar", "eo"], "luna": ["sponsor"],
         "institute": []}
CARDS = ("aja", "eo", "judge")


@dataclass
class StillCamera(ScriptedCamera):
    """A scripted camera whose frames of one still table are one and the same picture."""

    def frames(self, layout: Layout, hands_over: tuple[str, ...] = ()) -> Iterator[
            tuple[np.ndarray, float]]:
        picture = None
        for frame, t in super().frames(layout, ()):
            picture = frame if picture is None else picture
            yield picture, t


def write_game(out: Path, moments: int) -> Path:
    """The first ``moments`` things the companion perceives in a solo game, filmed."""
    script = write_script(seed=GAME_SEED, automa_level=2)
    end = script.moments[moments - 1].truth_len  # the truth up to the last change filmed
    short = replace(script, moments=script.moments[:moments], truth=script.truth[:end])
    shutil.rmtree(out, ignore_errors=True)
    camera = StillCamera(seed=GAME_SEED, fps=8.0, hand_frames=0, still_frames=5,
                         size=(640, 480))
    write_scripted(short, out, camera)
    _store_each_picture_once(out)
    return out


def _store_each_picture_once(folder: Path) -> None:
    """Point every timeline line at the first file with the same bytes; drop the copies."""
    first: dict[str, str] = {}
    lines = []
    for line in (folder / "timeline.jsonl").read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        if "frame" in item:
            path = folder / item["frame"]
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            if digest in first:
                path.unlink()
            item["frame"] = first.setdefault(digest, item["frame"])
        lines.append(json.dumps(item))
    (folder / "timeline.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_table(path: Path) -> Path:
    """A camera frame of :data:`TABLE` (markers in view, the usual capture effects)."""
    frame, _ = render(TABLE, random.Random(7), SceneOptions(tilt_deg=8.0, glare=0.0))
    cv2.imwrite(str(path), frame, [cv2.IMWRITE_JPEG_QUALITY, 90])
    return path


def write_cards(folder: Path) -> Path:
    """Straight-on card faces named ``<card-id>.png``, as ``cards enroll`` wants them."""
    folder.mkdir(exist_ok=True)
    for card in CARDS:
        cv2.imwrite(str(folder / f"{card}.png"), card_face(card, "classic"))
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moments", type=int, default=14,
                        help="changes of the game to film (14: three turns)")
    args = parser.parse_args()
    for path in (write_game(HERE / "game", args.moments), write_table(HERE / "table.jpg"),
                 write_cards(HERE / "cards")):
        files = [path] if path.is_file() else [f for f in path.rglob("*") if f.is_file()]
        size = sum(f.stat().st_size for f in files)
        print(f"{path.relative_to(HERE)}: {len(files)} files, {size / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
