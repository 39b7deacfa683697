"""The product end to end on this machine: `companion demo`'s appliance for several turns."""

from __future__ import annotations

import io
import random
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from device import config as settings
from device.appliance import Appliance
from device.demo import demo_setup, layout_of
from device.service import Notice, Press, Update
from engine.game import Game
from engine.state import GameState, Phase, Slot, evolve


def demo_config(fps: float = 20.0) -> settings.Config:
    cfg = settings.load(system=None, user=None)
    cfg = cfg.replace("camera", source="synthetic", fps=fps, width=640, height=480)
    cfg = cfg.replace("web", host="127.0.0.1", port=0)
    return cfg.replace("voice", enabled=False)


@pytest.fixture
def demo(request: pytest.FixtureRequest) -> Iterator[Appliance]:
    interval = getattr(request, "param", 0.05)
    appliance = Appliance(demo_config(), demo=True, out=io.StringIO(), seed=3,
                          demo_interval=interval)
    appliance.start()
    try:
        yield appliance
    finally:
        appliance.stop()


def turns(state: GameState) -> int:
    return sum(player.turns for player in state.players)


def wait_for(appliance: Appliance, done: object, timeout: float = 60) -> list[Update]:
    """Updates until ``done(update)`` holds (or fail after ``timeout`` seconds)."""
    sub = appliance.service.subscribe()
    seen: list[Update] = []
    try:
        while True:
            update = sub.get(timeout=timeout)
            assert update is not None, f"nothing happened for {timeout} s"
            seen.append(update)
            if done(update):  # type: ignore[operator]
                return seen
    finally:
        appliance.service.unsubscribe(sub)


def test_the_demo_plays_several_turns_with_camera_page_and_journal(demo: Appliance) -> None:
    start = turns(demo.service.snapshot().state)
    capture = demo.capture
    assert capture is not None
    # several turns, with the camera running through them (its first frame takes a moment)
    seen = wait_for(demo, lambda u: turns(u.state) >= start + 6 and capture.frames >= 3)
    assert {u.source for u in seen if u.kind == "event"} == {"demo"}
    # Au Toma is in the game and takes her turns
    state = demo.service.snapshot().state
    assert any(p.automa and p.turns >= 2 for p in state.players)
    # the page is served
    with urllib.request.urlopen(demo.url + "/", timeout=5) as reply:
        assert reply.status == 200
    # the synthetic camera draws the table
    frame = demo.service.camera_frame()
    assert frame is not None and frame.shape == (480, 640, 3)
    assert demo.latest_jpeg()[:2] == b"\xff\xd8"  # type: ignore[index]
    # every event is in the journal, once the script is held still and the engine thread
    # has finished what it was given (it journals each event after applying it)
    demo.player.stop()  # type: ignore[union-attr]
    demo.service.call(Notice("test", "in step"))
    journal = demo.service.journal
    assert journal is not None and journal.events() == demo.service.game.log


def test_keyboard_and_page_presses_share_the_scripted_game(demo: Appliance) -> None:
    demo.player.stop()  # type: ignore[union-attr]  # hold the script still
    before = len(demo.service.game.log)
    update = demo.service.call(Press("undo", source="keyboard"))
    assert update.kind == "undo" and len(demo.service.game.log) < before


def test_sigterm_path_stops_every_thread(tmp_path: Path) -> None:
    appliance = Appliance(demo_config(), demo=True, out=io.StringIO(), seed=4,
                          demo_interval=0.05)
    appliance.start()
    appliance.request_stop()  # what the SIGTERM handler does
    appliance.wait()
    appliance.stop()
    names = {t.name for t in threading.enumerate()}
    assert not names & {"engine", "capture", "demo", "watchdog", "keyboard", "waitress"}


def test_layout_of_shows_face_down_cards_as_unknown() -> None:
    state = Game(demo_setup("You", random.Random(1))).state
    assert state.phase is Phase.PLAYING and any(p.automa for p in state.players)
    jupiter = state.locations[0]
    hidden = (Slot(jupiter[0].card, face_down=True), *jupiter[1:])
    layout = layout_of(evolve(state, locations=(hidden, *state.locations[1:])))
    assert list(layout) == ["jupiter", "mars", "luna", "institute"]
    assert layout["jupiter"] == [None, jupiter[1].card]
    assert layout["mars"] == [slot.card for slot in state.locations[1]]


def model_missing() -> str:
    from vision.classifier import default_model_path

    path = default_model_path()
    return "" if path.is_file() else f"no trained model yet at {path}"


@pytest.mark.parametrize("demo", [1.2], indirect=True)
def test_the_camera_sees_the_top_cards_the_game_shows(demo: Appliance) -> None:
    if model_missing():
        pytest.skip(model_missing())

    def sees_a_top_card(update: Update) -> bool:
        if update.kind != "camera":
            return False
        tops = {slot.card for stack in update.state.locations if stack
                for slot in stack[-1:]}
        return any(card and card in update.message for card in tops)

    seen = wait_for(demo, sees_a_top_card, timeout=30)
    assert seen[-1].source == "camera"
    view = demo.service.camera_reading
    assert view is not None and set(view) == {"jupiter", "mars", "luna", "institute"}


def test_manual_corners_become_the_scanners_calibration() -> None:
    from device.appliance import manual_calibration
    from vision.calibrate import CalibrationError

    assert manual_calibration([]) is None
    corners = [[212, 140], [1090, 150], [1075, 730], [220, 720]]
    calibration = manual_calibration(corners)
    assert calibration.source == "manual"
    assert calibration.corners == tuple((float(x), float(y)) for x, y in corners)
    with pytest.raises(CalibrationError, match="convex"):
        manual_calibration([corners[0], corners[2], corners[1], corners[3]])


def test_a_taken_port_is_one_clear_line_and_status_1(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    import socket

    from device.cli import main

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        status = main(["demo", "--quiet", "--port", str(port)])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 1
    assert err[-1].startswith(f"companion: cannot serve on 127.0.0.1:{port}")
    assert "try --port" in err[-1]
    assert not {t.name for t in threading.enumerate()} & {"engine", "capture", "demo"}
