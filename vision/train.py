"""Train the card embedder and write the default classifier and its model card.

``python -m vision.train`` (extra ``train``: torch 2.13.0 CPU; ``--quiet`` hides the
progress). Seeded: the same command gives the same model. Classes: the printed-card
photos, the catalogue drawn in the ``classic`` style, many invented cards in that style
(so the embedder learns to tell card designs apart in general), and the card back.
Hands, bare table, foreign cards and other objects are pushed towards no class (outlier
exposure). The ``modern`` style is never used here: it measures how well enrolment
handles a design the embedder never saw.
"""

from __future__ import annotations

import argparse
import random
import resource
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import onnx
from onnx import helper
from onnxruntime.quantization import (
    CalibrationDataReader,
    CalibrationMethod,
    QuantFormat,
    QuantType,
    quantize_static,
)

from engine.cards import ALL_IDS
from vision.classifier import (
    MODEL_NAME,
    CardClassifier,
    default_model_path,
    embedder_session,
    preprocess,
)
from vision.enroll import back_check, second_look_metadata
from vision.head import attach_head, save, strip_head
from vision.model_card import write_thresholds, write_training
from vision.progress import Progress
from vision.synth import cards as synth_cards
from vision.synth.crops import NEGATIVE_KINDS, capture, capture_views, null_crops
from vision.thresholds import choose_thresholds, scene_crops

NEGATIVE = -1
NEGATIVE_SHARE = 0.12
VIEWS = 4  # crops cut from each simulated capture
CALIBRATION_SCENES = 150  # generated scenes per style whose crops set the thresholds
CALIBRATION_SEED = 700_000  # apart from the benchmark's held-out scenes (900 000 on)
MAX_FALSE = 0.001  # open-set thresholds: at most this share of calibration crops misnamed


@dataclass(frozen=True)
class Identity:
    """One training class: a name for the log and the face it shows."""

    key: str
    face: np.ndarray
    weight: float


def identities(photo_dir: Path, fakes: int, seed: int) -> list[Identity]:
    """All training classes: photos, classic catalogue cards, invented cards, the back."""
    out = [
        Identity(f"photo:{cid}", synth_cards.card_face(cid, "photo", photo_dir), 3.0)
        for cid in ALL_IDS
    ]
    out += [
        Identity(f"classic:{cid}", synth_cards.card_face(cid, "classic"), 1.0) for cid in ALL_IDS
    ]
    rng = random.Random(seed)
    for i in range(fakes):
        name, color, value = synth_cards.fake_identity(rng)
        # Half the invented cards in the classic design, half each in a design of its own.
        face = (
            synth_cards.draw_classic(name, color, value)
            if i % 2
            else synth_cards.draw_varied(name, color, value, i)
        )
        out.append(Identity(f"fake:{i}:{name}", face, 0.5))
    out.append(Identity("back", synth_cards.card_back(), 1.0))
    return out


def make_batch(
    classes: list[Identity], size: int, seed: int, index: int
) -> tuple[np.ndarray, np.ndarray]:
    """One reproducible training batch: crops (N, 88, 64, 3) and labels (-1 = negative)."""
    rng = random.Random(seed * 1_000_003 + index)
    weights = [c.weight for c in classes]
    crops, labels = [], []
    for _ in range(size // VIEWS):
        label = rng.choices(range(len(classes)), weights)[0]
        negative = rng.choice(NEGATIVE_KINDS) if rng.random() < NEGATIVE_SHARE else None
        crops += capture_views(classes[label].face, rng, negative, views=VIEWS)
        labels += [NEGATIVE if negative else label] * VIEWS
    return preprocess(crops), np.array(labels, np.int64)


def _loader(classes: list[Identity], steps: int, batch: int, seed: int, workers: int):  # type: ignore[no-untyped-def]
    import torch  # the optional `train` extra: only while training

    class Batches(torch.utils.data.IterableDataset):
        def __iter__(self):  # type: ignore[no-untyped-def]
            info = torch.utils.data.get_worker_info()
            start, step = (info.id, info.num_workers) if info else (0, 1)
            for i in range(start, steps, step):
                x, y = make_batch(classes, batch, seed, i)
                yield torch.from_numpy(x), torch.from_numpy(y)

    return torch.utils.data.DataLoader(
        Batches(), batch_size=None, num_workers=workers, persistent_workers=False
    )


def train(classes: list[Identity], steps: int, batch: int, seed: int, workers: int,  # type: ignore[no-untyped-def]
          progress: Progress | None = None):
    """Train the embedder; returns it in eval mode."""
    import torch  # the optional `train` extra: only while training

    from vision.embedder import CosineHead, Embedder  # imports torch

    torch.manual_seed(seed)
    net, head = Embedder(), CosineHead(len(classes))
    params = list(net.parameters()) + list(head.parameters())
    opt = torch.optim.AdamW(params, lr=3e-3, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps, pct_start=0.1)
    net.train()
    shown = progress or Progress("train", quiet=True)
    for x, y in shown.track(_loader(classes, steps, batch, seed, workers), "steps", total=steps):
        loss = _loss(head, net(x.contiguous(memory_format=torch.channels_last)), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        shown.note(f"loss {loss.item():.3f}")
    return net.eval()


def _loss(head, emb, y):  # type: ignore[no-untyped-def]
    import torch  # the optional `train` extra: only while training

    pos = y != NEGATIVE
    loss = torch.nn.functional.cross_entropy(head(emb[pos], y[pos]), y[pos])
    if (~pos).any():
        # Outlier exposure: non-cards should match every class equally badly.
        logp = torch.log_softmax(head(emb[~pos]), dim=1)
        loss = loss - 0.5 * logp.mean()
    return loss


def export_embedder(net, path: Path) -> None:  # type: ignore[no-untyped-def]
    """The embedder alone as ONNX: input ``image`` (N, 3, 88, 64), output ``embedding``."""
    import torch  # the optional `train` extra: only while training

    dummy = torch.zeros(1, 3, 88, 64)
    torch.onnx.export(
        net,
        (dummy,),
        str(path),
        input_names=["image"],
        output_names=["embedding"],
        dynamic_axes={"image": {0: "batch"}, "embedding": {0: "batch"}},
        opset_version=17,
        dynamo=False,
    )


def _embed(session, crops: list[np.ndarray]) -> np.ndarray:  # type: ignore[no-untyped-def]
    parts = [
        session.run(["embedding"], {"image": preprocess(crops[i : i + 64])})[0]
        for i in range(0, len(crops), 64)
    ]
    return np.concatenate(parts)


QUANT_CROPS = 384  # simulated captures that set the int8 activation ranges


def quant_crops(photo_dir: Path, seed: int, count: int = QUANT_CROPS) -> list[np.ndarray]:
    """Simulated captures of the catalogue (photos, classic drawings), of invented cards
    in varied designs (so a style the embedder never saw stays within range) and of
    negatives: the activations int8 ranges are measured on."""
    rng = random.Random(seed + 31)
    crops = []
    for k in range(count):
        if k % 3 == 2:
            name, color, value = synth_cards.fake_identity(rng)
            face = synth_cards.draw_varied(name, color, value, k)
        else:
            style = ("photo", "classic")[k % 3]
            face = synth_cards.card_face(ALL_IDS[k % len(ALL_IDS)], style, photo_dir)
        kind = NEGATIVE_KINDS[k % len(NEGATIVE_KINDS)] if k % 8 == 7 else None
        crops.append(capture(face, rng, kind) if kind else capture(face, rng))
    return crops


def quantize(embedder_path: Path, photo_dir: Path, seed: int) -> None:
    """Rewrite the embedder with int8 convolutions (QDQ, weights per channel).

    On one core the convolutions are most of a frame's classifying, and int8 nearly
    halves them (x86 VNNI, Arm dot-product). Only the convolutions: the projection and
    the unit normalisation stay float, or every embedding's length drifts by up to 10%
    and with it every score (embeddings then keep a cosine of 0.9995 with the float
    model's, on the unseen ``modern`` style too). Ranges are the 99.999th percentile of
    each activation over :func:`quant_crops`."""

    crops = quant_crops(photo_dir, seed)

    class Reader(CalibrationDataReader):
        def __init__(self) -> None:
            batches = [preprocess(crops[i : i + 32]) for i in range(0, len(crops), 32)]
            self.feeds = iter([{"image": b} for b in batches])

        def get_next(self) -> dict[str, np.ndarray] | None:
            return next(self.feeds, None)

    float_path = embedder_path.with_suffix(".float.onnx")
    embedder_path.rename(float_path)
    quantize_static(
        str(float_path),
        str(embedder_path),
        Reader(),
        quant_format=QuantFormat.QDQ,
        op_types_to_quantize=["Conv"],
        per_channel=True,
        activation_type=QuantType.QUInt8,
        weight_type=QuantType.QInt8,
        calibrate_method=CalibrationMethod.Percentile,
    )
    float_path.unlink()


PROTOTYPE_VIEWS = {"photo": 8, "classic": 4}  # simulated captures kept per card and style


def default_prototypes(session, photo_dir: Path, seed: int) -> list[np.ndarray]:  # type: ignore[no-untyped-def]
    """Per catalogue card: the clean photo and ``classic`` drawing, and simulated captures
    of each (light, blur, glare, a slightly wrong outline), every one a prototype."""
    rng = random.Random(seed + 17)
    per_card = sum(1 + n for n in PROTOTYPE_VIEWS.values())
    crops = []
    for cid in ALL_IDS:
        for style, views in PROTOTYPE_VIEWS.items():
            face = synth_cards.card_face(cid, style, photo_dir)
            crops.append(capture(face, rng, clean=True))
            crops += [capture(face, rng) for _ in range(views)]
    emb = _embed(session, crops)
    return [emb[per_card * i : per_card * (i + 1)] for i in range(len(ALL_IDS))]


def calibration_set(
    photo_dir: Path, seed: int, per_card: int = 6
) -> tuple[list[np.ndarray], list[int]]:
    """Held-out crops for threshold calibration: cards (label index) and negatives (-1)."""
    rng = random.Random(seed + 1_000_003)
    crops, truth = [], []
    for i, cid in enumerate(ALL_IDS):
        for k in range(per_card):
            style = "classic" if k % 3 == 2 else "photo"
            crops.append(capture(synth_cards.card_face(cid, style, photo_dir), rng))
            truth.append(i)
    for k in range(len(ALL_IDS) * per_card // 2):
        # Negatives cover or replace catalogue cards: a hand over a card may leave it
        # recognisable (naming that card is right), naming any other card is wrong.
        label = rng.randrange(len(ALL_IDS))
        face = synth_cards.card_face(ALL_IDS[label], rng.choice(("photo", "classic")), photo_dir)
        kind = NEGATIVE_KINDS[k % len(NEGATIVE_KINDS)]
        crops.append(capture(face, rng, kind))
        truth.append(label if kind == "hand" else NEGATIVE)
    return crops, truth


def back_bar(session, emb: np.ndarray, back: np.ndarray, truth: np.ndarray, seed: int) -> float:  # type: ignore[no-untyped-def]
    """The card-back bar: just above the best back score of any non-card crop (another
    game's card, an object, bare table), unless that would refuse most real backs."""
    rng = random.Random(seed + 99)
    backs = _embed(session, [capture(synth_cards.card_back(), rng) for _ in range(60)])
    nonback = float((emb[truth == NEGATIVE] @ back.T).max())
    real = np.sort((backs @ back.T).max(axis=1))
    return round(min(nonback + 0.02, float(real[len(real) // 10])), 2)


def build_default(embedder_path: Path, photo_dir: Path, seed: int, out: Path,
                  progress: Progress | None = None) -> dict[str, float]:
    """Attach the default head, calibrate its thresholds on held-out crops, save it."""
    shown = progress or Progress("train", quiet=True)
    shown.stage("head: prototypes", None)
    session = embedder_session(embedder_path, threads=0)
    protos = default_prototypes(session, photo_dir, seed)
    rng = random.Random(seed)
    back_face = synth_cards.card_back()
    back = _embed(
        session, [capture(back_face, rng, clean=True)] + [capture(back_face, rng) for _ in range(8)]
    )
    nulls = _embed(session, null_crops(seed + 23))
    crops, truth = calibration_set(photo_dir, seed)
    shown.stage("head: scenes", 2 * CALIBRATION_SCENES)
    for k, style in enumerate(("photo", "classic")):
        faces = {cid: synth_cards.card_face(cid, style, photo_dir) for cid in ALL_IDS}
        more, more_truth = scene_crops(
            faces, CALIBRATION_SCENES, CALIBRATION_SEED + 10_000 * k, (64, 88), shown.tick
        )
        crops += more
        truth += more_truth
    emb = _embed(session, crops)
    scores = np.stack([(emb @ p.T).max(axis=1) for p in protos], axis=1)
    null = (emb @ (nulls / np.linalg.norm(nulls, axis=1, keepdims=True)).T).max(axis=1)
    # Card backs are handled by the ``special`` output; calibrate on card faces only.
    chosen = choose_thresholds(scores, np.array(truth), max_false=MAX_FALSE, null=null)
    chosen["min_back"] = back_bar(session, emb, back, np.array(truth), seed)
    meta = {
        "min_score": str(chosen["min_score"]),
        "min_margin": str(chosen["min_margin"]),
        "min_back": str(chosen["min_back"]),
        "calibration_accepted": f"{chosen['accepted']:.4f}",
        "calibration_false": f"{chosen['false']:.5f}",
        "embedder": MODEL_NAME,
        "head": "default: printed-card photos + classic drawings",
        **back_check([capture(back_face, random.Random(seed), clean=True)]),
    }
    model = attach_head(onnx.load(str(embedder_path)), ALL_IDS, protos, back, meta, nulls)
    save(model, out)
    CardClassifier(out)  # fails loudly if labels and outputs disagree
    add_second_look(out, photo_dir, shown)
    return chosen


def add_second_look(path: Path, photo_dir: Path, progress: Progress | None = None) -> None:
    """Store the second look's references (the printed-card photos) and bars in the model
    at ``path``; nothing else in it changes."""

    classifier = CardClassifier(path)
    images = {cid: synth_cards.card_face(cid, "photo", photo_dir) for cid in ALL_IDS}

    def rank(crops: list[np.ndarray]) -> np.ndarray:
        return classifier.run(crops, ("scores",))["scores"]

    extra = second_look_metadata(classifier, images, rank, progress=progress)
    model = onnx.load(str(path))
    meta = {p.key: p.value for p in model.metadata_props}
    del model.metadata_props[:]
    helper.set_model_props(model, {**meta, **extra})
    save(model, path)


def _cpu_minutes() -> float:
    """CPU time of this process and its finished children (the batch makers), minutes."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime) / 60


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.train", description=__doc__)
    parser.add_argument("--steps", type=int, default=700)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--fakes", type=int, default=400, help="invented cards to train on")
    parser.add_argument("--workers", type=int, default=1, help="batch-making processes")
    parser.add_argument("--threads", type=int, default=2, help="torch threads")
    parser.add_argument("--photos", type=Path, default=synth_cards.default_photo_dir())
    parser.add_argument("--out", type=Path, default=default_model_path())
    parser.add_argument(
        "--int8",
        action="store_true",
        help="quantize the embedder's convolutions to int8 before building its head",
    )
    parser.add_argument(
        "--second-look-only",
        action="store_true",
        help="keep the model in --out as it is; (re)store its second look's data and bars",
    )
    parser.add_argument(
        "--calibrate-only",
        action="store_true",
        help="keep the trained embedder in --out; rebuild its head and thresholds",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = parser.parse_args(argv)
    if not (args.photos / f"{ALL_IDS[0]}.jpg").is_file():
        parser.error(f"printed-card photos not found in {args.photos} (use --photos)")
    return run(args)


def recalibrate(args: argparse.Namespace) -> int:
    """Rebuild the default head and its thresholds on the embedder already in ``--out``."""

    bare = args.out.with_suffix(".embedder.onnx")
    onnx.save(strip_head(onnx.load(str(args.out))), str(bare))
    if args.int8 and not _is_quantized(bare):
        quantize(bare, args.photos, args.seed)
    with Progress("train", quiet=args.quiet) as progress:
        chosen = build_default(bare, args.photos, args.seed, args.out, progress)
    bare.unlink()
    write_thresholds(args.out)
    print(f"rebuilt the head of {args.out}; thresholds {chosen}")
    return 0


def _is_quantized(path: Path) -> bool:
    return any(n.op_type == "QuantizeLinear" for n in onnx.load(str(path)).graph.node)


def run(args: argparse.Namespace) -> int:
    """Train, export, attach the default head and write the model card."""
    if args.second_look_only:  # no torch needed
        with Progress("train", quiet=args.quiet) as progress:
            add_second_look(args.out, args.photos, progress)
        print(f"stored the second look in {args.out} ({args.out.stat().st_size / 1e6:.2f} MB)")
        return 0
    import torch  # the optional `train` extra: only while training

    if args.calibrate_only:
        return recalibrate(args)

    torch.set_num_threads(args.threads)
    start = time.time()
    with Progress("train", quiet=args.quiet) as progress:
        progress.stage("identities", None)
        classes = identities(args.photos, args.fakes, args.seed)
        net = train(classes, args.steps, args.batch, args.seed, args.workers, progress)
        args.out.parent.mkdir(parents=True, exist_ok=True)
        bare = args.out.with_suffix(".embedder.onnx")
        progress.stage("export", None)
        export_embedder(net, bare)
        if args.int8:
            progress.stage("int8", None)
            quantize(bare, args.photos, args.seed)
        chosen = build_default(bare, args.photos, args.seed, args.out, progress)
    bare.unlink()
    minutes = (time.time() - start) / 60

    write_training(args, len(classes), chosen, minutes, _cpu_minutes())
    print(
        f"wrote {args.out} ({args.out.stat().st_size / 1e6:.2f} MB) in {minutes:.1f} min; "
        f"thresholds {chosen}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
