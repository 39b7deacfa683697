"""Every command refuses malformed input of any shape with one line and status 2.

Property tests run ``main(argv)`` in this process over random documents and bytes;
one subprocess per command checks what a user sees: one line, status 2, no traceback.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest
from fuzzkit import (
    DECK,
    GAME,
    STATE,
    Reply,
    deep,
    documents,
    image_bytes,
    png,
    run,
    settings_files,
    write,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
# Examples: the Hypothesis profile (tests/conftest.py): 40 in the suite, 400 thorough.
FUZZ = settings(deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.fixture(scope="module")
def folder() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="companion-fuzz-") as tmp:
        yield Path(tmp)


def assert_right(reply: Reply, argv: list[str]) -> None:
    assert reply.status is not None, f"{argv}: traceback {reply.error}"
    assert reply.is_right, f"{argv}: {reply.status}, err {reply.err!r}, out {reply.out[:200]!r}"


def _card_jpeg() -> bytes:
    image = np.full((120, 90, 3), 200, np.uint8)
    cv2.rectangle(image, (10, 10), (80, 110), (20, 40, 160), -1)
    return bytes(cv2.imencode(".jpg", image)[1])


VALID_JPEG = _card_jpeg()


# ---- JSON documents ------------------------------------------------------------------

@FUZZ
@given(doc=documents(GAME), as_json=st.booleans())
def test_score_answers_or_refuses_any_document(folder: Path, doc: str | bytes,
                                               as_json: bool) -> None:
    argv = ["score", str(write(folder / "game.json", doc)), *(["--json"] if as_json else [])]
    assert_right(run(argv), argv)


@FUZZ
@given(doc=documents(GAME))
def test_score_resolve_answers_or_refuses_any_document(folder: Path, doc: str | bytes) -> None:
    argv = ["score", str(write(folder / "game.json", doc)), "--resolve", "--json"]
    assert_right(run(argv), argv)


@FUZZ
@given(doc=documents(STATE), card=st.sampled_from(["1", "9", "22", "0", "23", "x", "٣", "²"]))
def test_automa_resolve_answers_or_refuses_any_state(folder: Path, doc: str | bytes,
                                                    card: str) -> None:
    argv = ["automa", "resolve", "--state", str(write(folder / "state.json", doc)),
            "--card", card]
    reply = run(argv)
    assert_right(reply, argv)
    if card in ("0", "23", "x", "٣", "²"):
        assert reply.is_refusal


@FUZZ
@given(doc=documents(DECK))
def test_automa_deck_accepts_or_refuses_any_deck_file(folder: Path, doc: str | bytes) -> None:
    argv = ["automa", "deck", "--deck", str(write(folder / "deck.json", doc))]
    assert_right(run(argv), argv)


@FUZZ
@given(doc=settings_files())
def test_config_show_accepts_or_refuses_any_settings_file(
        folder: Path, doc: str | bytes, monkeypatch_module: None) -> None:
    argv = ["config", "show", "--config", str(write(folder / "settings.toml", doc))]
    assert_right(run(argv), argv)


@pytest.fixture(scope="module")
def monkeypatch_module(folder: Path) -> Iterator[None]:
    """No system or user settings file of this machine gets in the way."""
    mp = pytest.MonkeyPatch()
    mp.setenv("XDG_CONFIG_HOME", str(folder / "xdg"))
    mp.setattr("device.config.SYSTEM_PATH", folder / "no-system.toml")
    yield
    mp.undo()


@pytest.mark.parametrize("command", ["score", "automa resolve"])
def test_a_document_nested_100000_levels_is_one_line(folder: Path, command: str) -> None:
    for opener in ("[", "{\"a\": "):
        path = write(folder / "deep.json", deep(100_000, opener))
        argv = ["score", str(path)] if command == "score" else \
            ["automa", "resolve", "--state", str(path), "--card", "1"]
        reply = run(argv)
        assert reply.is_refusal and "nested too deeply" in reply.err, reply


# ---- image commands -----------------------------------------------------------------

def image_argv(command: str, image: Path, folder: Path) -> list[str]:
    if command == "identify":
        return ["cards", "identify", str(image), "--json"]
    if command == "scan":
        return ["table", "scan", str(image), "--json"]
    return ["cards", "enroll", "--images", str(image.parent), "--out", str(folder / "m.onnx")]


@pytest.mark.parametrize("command", ["identify", "scan", "enroll"])
def test_image_commands_refuse_random_and_broken_bytes(folder: Path, command: str) -> None:
    enroll = folder / "enroll"
    enroll.mkdir(exist_ok=True)

    @settings(deadline=None, database=None)  # examples: the profile
    @given(data=image_bytes(VALID_JPEG))
    def check(data: bytes) -> None:
        image = write(enroll / "virga.jpg", data)
        argv = image_argv(command, image, folder)
        reply = run(argv)
        assert reply.status is not None, reply.error
        assert reply.is_refusal, f"{argv}: {reply}"
        assert not (folder / "m.onnx").exists()  # a refused enrolment writes nothing

    check()


def special_inputs(folder: Path) -> dict[str, Path]:
    """Files no command can use: missing, a folder, empty, a device, a pipe, huge, binary."""
    made = folder / "special"
    made.mkdir(exist_ok=True)
    huge = made / "huge.jpg"
    with open(huge, "wb") as file:
        file.truncate(3 << 30)  # 3 GB, sparse: refused by its size, never read
    pipe = made / "pipe.json"
    if not pipe.exists():
        os.mkfifo(pipe)
    (made / "folder.json").mkdir(exist_ok=True)
    return {"missing": made / "absent.json", "folder": made / "folder.json",
            "empty": write(made / "empty.json", b""), "device": Path("/dev/zero"),
            "pipe": pipe, "huge": huge,
            "binary": write(made / "binary.json", bytes(range(256)) * 4),
            "not UTF-8": write(made / "latin1.json", '{"name": "Zoë"}'.encode("latin-1")),
            "bomb": write(made / "bomb.png", png(100_000, 100_000))}


COMMANDS = {
    "score": lambda p: ["score", str(p)],
    "automa resolve": lambda p: ["automa", "resolve", "--state", str(p), "--card", "1"],
    "automa deck": lambda p: ["automa", "deck", "--deck", str(p)],
    "config": lambda p: ["config", "show", "--config", str(p)],
    "identify": lambda p: ["cards", "identify", str(p)],
    "scan": lambda p: ["table", "scan", str(p)],
    "scan calibration": lambda p: ["table", "scan", "--calibration", str(p), "x.jpg"],
    "identify model": lambda p: ["cards", "identify", "--model", str(p), "x.jpg"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_refuses_files_it_cannot_use(folder: Path, command: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(folder)
    write(folder / "x.jpg", VALID_JPEG)
    for kind, path in special_inputs(folder).items():
        if kind == "empty" and command == "config":
            continue  # an empty settings file is valid TOML: it changes nothing
        argv = COMMANDS[command](path)
        reply = run(argv)
        assert reply.is_refusal, f"{kind}: {argv}: {reply}"


def test_enroll_refuses_an_image_folder_it_cannot_use(folder: Path) -> None:
    for images, out in [(folder / "absent", folder / "m.onnx"),
                        (Path("/dev/zero"), folder / "m.onnx"),
                        (folder, folder),  # --out is a folder
                        (folder, folder / "no-such-folder" / "m.onnx")]:
        reply = run(["cards", "enroll", "--images", str(images), "--out", str(out)])
        assert reply.is_refusal, reply


def test_corners_must_be_finite(folder: Path) -> None:
    write(folder / "x.jpg", VALID_JPEG)
    for corners in ("nan,1 2,3 4,5 6,7", "inf,1 2,3 4,5 6,7", "1e999,1 2,3 4,5 6,7"):
        reply = run(["table", "scan", str(folder / "x.jpg"), "--corners", corners])
        assert reply.is_refusal and "finite" in reply.err, reply
    write(folder / "calib.json", json.dumps({"corners": [["nan", 1], [2, 3], [4, 5], [6, 7]]}))
    reply = run(["table", "scan", str(folder / "x.jpg"), "--calibration",
                 str(folder / "calib.json")])
    assert reply.is_refusal, reply


def test_odd_but_whole_images_are_answered_or_refused(folder: Path) -> None:
    odd = {"1x1": np.zeros((1, 1, 3), np.uint8), "1x4000": np.zeros((1, 4000, 3), np.uint8),
           "gray16": np.full((60, 40), 40000, np.uint16)}
    for name, image in odd.items():
        path = folder / f"{name}.png"
        cv2.imwrite(str(path), image)
        argv = ["cards", "identify", str(path), "--json"]
        assert_right(run(argv), argv)


# ---- what a user sees ---------------------------------------------------------------

SUBPROCESS = {
    "score": ["score", "{deep}"],
    "automa resolve": ["automa", "resolve", "--state", "{deep}", "--card", "1"],
    "automa deck": ["automa", "deck", "--deck", "{binary}"],
    "config": ["config", "show", "--config", "{deep_toml}"],
    "identify": ["cards", "identify", "{random}"],
    "scan": ["table", "scan", "{broken}"],
    "enroll": ["cards", "enroll", "--images", "{enroll}", "--out", "{out}"],
}


@pytest.mark.parametrize("command", sorted(SUBPROCESS))
def test_a_user_sees_one_line_and_status_2(folder: Path, command: str) -> None:
    enroll = folder / "sub-enroll"
    enroll.mkdir(exist_ok=True)
    names = {"deep": write(folder / "deep.json", deep(100_000)),
             "binary": write(folder / "bin.json", bytes(range(256))),
             "deep_toml": write(folder / "deep.toml", "a = " + "[" * 100_000),
             "random": write(folder / "random.jpg", os.urandom(3000)),
             "broken": write(folder / "broken.jpg", VALID_JPEG[:len(VALID_JPEG) // 2]),
             "enroll": enroll, "out": folder / "out.onnx"}
    write(enroll / "virga.jpg", b"\x89PNG\r\n\x1a\n" + os.urandom(500))
    argv = [arg.format(**names) for arg in SUBPROCESS[command]]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_CONFIG_HOME": str(folder / "xdg")}
    done = subprocess.run([sys.executable, "-m", "device.cli", *argv], capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=120, check=False)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr, done.stderr
