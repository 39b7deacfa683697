"""Train the table segmenter: which parts of the rectified play area are table, a card's
strip, a stack's top card or a hand, and where cards' top edges run.

``python -m vision.train_segmenter`` (extra ``train``: torch 2.13.0 CPU). Seeded: the
same command gives the same model. Every example is a scene from the project's own
renderer (:mod:`vision.synth.scene`), drawn wider than any benchmark draws them: the
camera anywhere round the table, every table kind the renderer has but the one kept
unseen, printed cards, drawn ones and invented designs, sleeves, hands, objects, lamps
and glare. The labels come from the scene's truth (:mod:`vision.synth.labels`). The
frames in ``../shared/vision-dev`` are never read here.
"""

from __future__ import annotations

import argparse
import random
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import onnx
from onnx import numpy_helper

from engine.cards import ALL_IDS
from vision.calibrate import Calibration
from vision.progress import Progress
from vision.synth import cards as synth_cards
from vision.synth import tables
from vision.synth.cards import FACE_DOWN
from vision.synth.crops import _sleeve
from vision.synth.labels import Part, label_maps, spread_labels
from vision.synth.scene import FOREIGN, SceneOptions, render, render_spread
from vision.view import View

STRIDE = 2  # output pixels are 2 × 2 view pixels (2 mm)
TRAIN_SEED = 500_000  # scenes for training start here (the benchmarks' start at 900 000)
DEPTHS = (0, 0, 1, 1, 2, 2, 3, 3, 4, 5, 6, 7, 8, 10, 12, 14, 17)
TABLE_KINDS = (None, None, None, *tables.TRAINING)  # None: the renderer's wood, felt, paint


def _faces(
    rng: random.Random, photo_dir: Path, cards: list[str]
) -> tuple[str, dict[str, np.ndarray]]:
    """A scene's card style and, for invented or sleeved cards, the faces to draw."""
    style = rng.choices(("photo", "classic", "invented"), (0.55, 0.2, 0.25))[0]
    sleeve = rng.random() < 0.25
    faces: dict[str, np.ndarray] = {}
    for i, card in enumerate(cards):
        if card in (FACE_DOWN, FOREIGN):
            continue
        if style == "invented":
            name, colour, value = synth_cards.fake_identity(rng)
            face = synth_cards.draw_varied(name, colour, value, rng.randrange(1 << 20) + i)
        elif sleeve:
            face = synth_cards.card_face(card, style, photo_dir)
        else:
            continue
        faces[card] = _sleeve(face, rng) if sleeve else face
    return ("photo" if style == "invented" else style), faces


@dataclass(frozen=True)
class Mix:
    """Shares of the scenes drawn unlike the rest: hands laid out for scoring, and stacks
    whose top cards' art is other cards' top bands (art that looks like a cascade); and
    whether the tables include :data:`vision.synth.tables.MORE`. By default nothing is
    drawn for them, so the scenes stay the ones the committed model learnt from."""

    spreads: float = 0.0
    banded: float = 0.0
    more_tables: bool = False


def scene(
    index: int, photo_dir: Path, mix: Mix = Mix()
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Training example ``index``: the rectified view (BGR), its parts and its top edges.
    Stacks at the four locations, or a hand laid out for scoring (see :class:`Mix`)."""
    rng = random.Random(TRAIN_SEED + index)
    if mix.spreads and rng.random() < mix.spreads:
        return _spread(rng, photo_dir)
    deck = rng.sample(ALL_IDS, len(ALL_IDS))
    layout: dict[str, list[str]] = {}
    for loc in ("jupiter", "mars", "luna", "institute"):
        stack = [deck.pop() for _ in range(rng.choice(DEPTHS))]
        if stack and rng.random() < 0.06:
            stack[-1] = FACE_DOWN
        elif stack and rng.random() < 0.04:
            stack[-1] = FOREIGN
        layout[loc] = stack
    style, faces = _faces(rng, photo_dir, [c for s in layout.values() for c in s])
    if mix.banded and rng.random() < mix.banded:
        _band_tops(rng, layout, style, faces, photo_dir)
    names = list(layout)
    hands = tuple(rng.sample(names, rng.choices((0, 1, 2), (0.55, 0.35, 0.1))[0]))
    spare = [n for n in names if n not in hands]
    objects = tuple(rng.sample(spare, 1)) if rng.random() < 0.08 else ()
    options = _options(rng, style, faces, photo_dir, mix.more_tables, hands=hands,
                       objects=objects)
    frame, truth = render(layout, rng, options)
    view = View(_jitter(truth.calibration, rng))
    parts, edges = label_maps(truth, view, STRIDE)
    return view.rectify(frame), parts, edges


def _band_tops(rng: random.Random, layout: dict[str, list[str]], style: str,
               faces: dict[str, np.ndarray], photo_dir: Path) -> None:
    """Give every stack's top card art made of three other cards' top bands."""
    for stack in layout.values():
        if stack and stack[-1] not in (FACE_DOWN, FOREIGN):
            top = stack[-1]
            face = faces.get(top)
            if face is None:
                face = synth_cards.card_face(top, style, photo_dir)
            others = [synth_cards.card_face(k, "photo", photo_dir) for k in rng.sample(ALL_IDS, 3)]
            faces[top] = synth_cards.banded_face(face, others)


def _spread(rng: random.Random, photo_dir: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Hands laid face up for scoring: apart in rows, in a cascade or a fan."""
    cards = rng.sample(ALL_IDS, rng.randint(3, 8))
    style, faces = _faces(rng, photo_dir, cards)
    arrangement = rng.choice(("row", "row", "cascade", "fan"))
    frame, calibration, placed = render_spread(
        cards, rng, arrangement, _options(rng, style, faces, photo_dir))
    view = View(_jitter(calibration, rng))
    parts, edges = spread_labels(placed, view, STRIDE)
    return view.rectify(frame), parts, edges


def _options(
    rng: random.Random, style: str, faces: dict[str, np.ndarray], photo_dir: Path,
    more_tables: bool = False, **covers: tuple[str, ...],
) -> SceneOptions:
    """A scene's table, camera, lamp, shadows and glare, drawn wide."""
    lamp = ((rng.uniform(0, 328), rng.uniform(0, 230), rng.uniform(15, 45))
            if rng.random() < 0.15 else None)
    kinds = TABLE_KINDS + tables.MORE if more_tables else TABLE_KINDS
    return SceneOptions(
        style=style, photo_dir=photo_dir, glare=0.6, faces=faces or None,
        table=rng.choice(kinds), wide=rng.random() < 0.12, lamp=lamp,
        any_pose=rng.random() < 0.85, soft_shadows=rng.random() < 0.7,
        glares=rng.choice((1, 1, 2, 3)), **covers,  # type: ignore[arg-type]
    )


def _jitter(calibration: Calibration, rng: random.Random) -> Calibration:
    """The calibration as markers found in the frame give it: each corner a pixel or so off."""
    corners = tuple(
        (x + max(-2.5, min(2.5, rng.gauss(0, 1.0))), y + max(-2.5, min(2.5, rng.gauss(0, 1.0))))
        for x, y in calibration.corners
    )
    return Calibration(corners, calibration.width_mm, calibration.height_mm, "markers")


def _chunk(args: tuple[int, int, str, Mix]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    start, count, photo_dir, mix = args
    views, parts, edges = zip(
        *(scene(i, Path(photo_dir), mix) for i in range(start, start + count)), strict=True)
    return np.stack(views), np.stack(parts), np.stack(edges)


def dataset(
    count: int, photo_dir: Path, cache: Path, workers: int = 2, mix: Mix = Mix(),
    progress: Progress | None = None,
) -> dict[str, np.ndarray]:
    """``count`` examples, drawn once and kept in ``cache`` (an ``.npz``; name a new one
    when ``mix`` changes: the cache does not record it)."""
    if cache.exists():
        with np.load(cache) as data:
            if len(data["views"]) >= count:
                return {k: data[k][:count] for k in data.files}
    step = 50
    jobs = [(s, min(step, count - s), str(photo_dir), mix) for s in range(0, count, step)]
    shown = progress or Progress("train_segmenter", quiet=True)
    shown.stage("scenes", count)
    done = []
    with ProcessPoolExecutor(workers) as pool:
        for (_start, size, _dir, _mix), chunk in zip(jobs, pool.map(_chunk, jobs),
                                                           strict=True):
            done.append(chunk)
            shown.advance(size)
    names = ("views", "parts", "edges")
    out = {k: np.concatenate([d[i] for d in done]) for i, k in enumerate(names)}
    cache.parent.mkdir(parents=True, exist_ok=True)
    np.savez(cache, views=out["views"], parts=out["parts"], edges=out["edges"])
    return out


def network():  # type: ignore[no-untyped-def]
    """A small encoder-decoder: separable convolutions at 1/2, 1/4 and 1/8 of the view,
    dilated at 1/8 so one output pixel sees about a card's size, and back up to 1/2."""
    import torch
    from torch import nn

    def sep(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
        return nn.Sequential(
            nn.Conv2d(cin, cin, 3, stride, dilation, dilation, groups=cin, bias=False),
            nn.BatchNorm2d(cin), nn.ReLU(inplace=True),
            nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
        )

    class Segmenter(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.stem = nn.Sequential(
                nn.Conv2d(3, 16, 3, 2, 1, bias=False), nn.BatchNorm2d(16), nn.ReLU(inplace=True)
            )
            self.at2 = sep(16, 16)
            self.at4 = nn.Sequential(sep(16, 32, 2), sep(32, 32))
            self.at8 = nn.Sequential(sep(32, 64, 2), sep(64, 64, dilation=2),
                                        sep(64, 64, dilation=4), sep(64, 64, dilation=8))
            self.up8 = nn.Sequential(nn.Conv2d(64, 32, 1, bias=False), nn.BatchNorm2d(32))
            self.mix4 = sep(32, 32)
            self.up4 = nn.Sequential(nn.Conv2d(32, 16, 1, bias=False), nn.BatchNorm2d(16))
            self.mix2 = sep(16, 16)
            self.head = nn.Conv2d(16, len(Part) + 1, 1)

        def forward(self, x):  # type: ignore[no-untyped-def]
            x = x * (1 / 255.0) - 0.5
            half = self.at2(self.stem(x))
            quarter = self.at4(half)
            eighth = self.at8(quarter)
            up = nn.functional.interpolate(self.up8(eighth), size=quarter.shape[2:],
                                           mode="bilinear", align_corners=False)
            quarter = self.mix4(torch.relu(up + quarter))
            up = nn.functional.interpolate(self.up4(quarter), size=half.shape[2:],
                                           mode="bilinear", align_corners=False)
            return self.head(self.mix2(torch.relu(up + half)))

    return Segmenter()


def start_from(net, path: Path) -> None:  # type: ignore[no-untyped-def]
    """Load an exported segmenter's weights into ``net`` to train it further.

    The export folded every batch norm into the convolution before it, so the folded
    weights go into the convolutions and each batch norm is set to pass its input
    through; :func:`train` keeps them that way (frozen statistics) when it starts from a
    model. The initialisers are in the network's own order, the head's named.
    """
    import torch

    graph = onnx.load(str(path)).graph
    named = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    folded = sorted((k for k in named
                     if k.startswith("onnx::Conv_") and k.rsplit("_", 1)[1].isdigit()),
                    key=lambda k: int(k.rsplit("_", 1)[1]))
    convs = [m for m in net.modules() if isinstance(m, torch.nn.Conv2d)][:-1]
    if len(folded) != 2 * len(convs) or "inner.head.weight" not in named:
        raise ValueError(f"{path} does not hold this network's weights")
    norms = [m for m in net.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    with torch.no_grad():
        for conv, norm, w, b in zip(convs, norms, folded[::2], folded[1::2], strict=True):
            if tuple(conv.weight.shape) != named[w].shape:
                raise ValueError(f"{path} does not hold this network's weights")
            conv.weight.copy_(torch.tensor(named[w]))
            norm.weight.fill_(1.0)
            norm.bias.copy_(torch.tensor(named[b]))
            norm.reset_running_stats()  # mean 0, variance 1: with no epsilon, the identity
            norm.eps = 0.0
        net.head.weight.copy_(torch.tensor(named["inner.head.weight"]))
        net.head.bias.copy_(torch.tensor(named["inner.head.bias"]))


def train(data: dict[str, np.ndarray], steps: int, batch: int, seed: int,  # type: ignore[no-untyped-def]
          progress: Progress | None = None, init: Path | None = None,
          rate: float | None = None):
    """Train from scratch, or from the model at ``init`` (by default at a third of the
    rate)."""
    import torch
    from torch import nn

    torch.manual_seed(seed)
    rng = random.Random(seed)
    net = network()
    if init is not None:
        start_from(net, init)
    if rate is None:
        rate = 3e-3 if init is None else 1e-3
    views = torch.from_numpy(data["views"]).permute(0, 3, 1, 2).contiguous()
    parts = torch.from_numpy(data["parts"]).long()
    edges = torch.from_numpy(data["edges"]).float()
    freq = torch.bincount(parts.flatten(), minlength=len(Part)).float()
    weights = (freq.sum() / freq.clamp(min=1)) ** 0.5
    weights = weights / weights.mean()
    ce = nn.CrossEntropyLoss(weight=weights)
    bce = nn.BCEWithLogitsLoss(pos_weight=torch.tensor(8.0))
    opt = torch.optim.AdamW(net.parameters(), lr=rate, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=rate, total_steps=steps)
    net.train()
    if init is not None:  # the folded norms keep passing their input through
        for norm in (m for m in net.modules() if isinstance(m, nn.BatchNorm2d)):
            norm.eval()
    shown = progress or Progress("train_segmenter", quiet=True)
    for _step in shown.track(range(steps), "steps"):
        idx = torch.tensor(rng.sample(range(len(views)), batch))
        x = views[idx].float()
        flip = rng.random() < 0.5
        if flip:
            x = x.flip(3)
        x = (x * torch.empty(batch, 3, 1, 1).uniform_(0.75, 1.25)
             + torch.empty(batch, 3, 1, 1).uniform_(-25, 25)).clamp(0, 255)
        y, e = parts[idx], edges[idx]
        if flip:
            y, e = y.flip(2), e.flip(2)
        out = net(x)
        loss = ce(out[:, : len(Part)], y) + bce(out[:, len(Part)], e)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        shown.note(f"loss {loss.item():.4f}")
    return net.eval()


def export(net, path: Path, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    """Write ONNX: input ``view`` (1, 3, H, W) float BGR 0-255; outputs ``parts`` (1, 4,
    H/2, W/2) probabilities and ``edges`` (1, H/2, W/2) probabilities."""
    import torch

    class Probabilities(torch.nn.Module):
        def __init__(self, inner) -> None:  # type: ignore[no-untyped-def]
            super().__init__()
            self.inner = inner

        def forward(self, x):  # type: ignore[no-untyped-def]
            out = self.inner(x)
            return torch.softmax(out[:, : len(Part)], 1), torch.sigmoid(out[:, len(Part)])

    w, h = size
    torch.onnx.export(
        Probabilities(net), (torch.zeros(1, 3, h, w),), str(path), input_names=["view"],
        output_names=["parts", "edges"], opset_version=17, dynamo=False,
        dynamic_axes={"view": {2: "h", 3: "w"}, "parts": {2: "h2", 3: "w2"},
                      "edges": {1: "h2", 2: "w2"}},
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=8000)
    parser.add_argument("--steps", type=int, default=4000)
    parser.add_argument("--spreads", type=float, default=0.0,
                        help="share of scenes that are hands laid out for scoring")
    parser.add_argument("--banded", type=float, default=0.0,
                        help="share of scenes whose top cards' art is other cards' top bands")
    parser.add_argument("--more-tables", action="store_true",
                        help="draw the tables of vision.synth.tables.MORE too")
    parser.add_argument("--rate", type=float, default=None,
                        help="the one-cycle's peak rate (default 3e-3, 1e-3 with --init)")
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--photos", type=Path, default=synth_cards.default_photo_dir())
    parser.add_argument("--cache", type=Path, default=Path("build/segmenter/scenes.npz"))
    parser.add_argument("--out", type=Path, default=Path("build/segmenter/segmenter.onnx"))
    parser.add_argument("--init", type=Path, default=None,
                        help="an exported segmenter (.onnx) to train further, not from scratch")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = parser.parse_args(argv)
    import torch

    torch.set_num_threads(args.workers)
    with Progress("train_segmenter", quiet=args.quiet) as progress:
        data = dataset(args.scenes, args.photos, args.cache, args.workers,
                       Mix(args.spreads, args.banded, args.more_tables), progress)
        net = train(data, args.steps, args.batch, args.seed, progress, args.init, args.rate)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    h, w = data["views"].shape[1:3]
    export(net, args.out, (w, h))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
