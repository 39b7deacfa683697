"""A live game recorded by the real appliance, replayed from its folder: the same events.

The appliance runs as `companion run --record DIR` would (service, tracker, vision
pipeline, recorder, journal, page), with no GPIO and no camera of its own: the test
hands the capture handler the frames a camera over a scripted table would take, presses
the buttons through the service as GPIO does, and plays the people at the table
(:class:`engine.tracking.script.Oracle`) on the phone. The folder it recorded is then
replayed by ``device.recording.replay`` with no oracle: only what was recorded.
"""

from __future__ import annotations

import io
import json
import time
from dataclasses import replace
from pathlib import Path

import pytest

from device import config as settings
from device.appliance import Appliance
from device.journal import Journal
from device.perception import ScriptedCamera
from device.recording import GameFolder, Outcome, answer_for_table, replay
from device.service import NewGame, Notice, Press, Service
from engine.game import Game
from engine.tracking.replay import horizons
from engine.tracking.script import Oracle, Script, write_script
from engine.tracking.view import Button
from vision.classifier import default_model_path
from vision.scanner import TableScanner
from vision.stabilize import Stabilizer

SEED = 9  # a solo game whose player takes the deck (the die rolls) in the 3rd change
MOMENTS = 12


def recording_config(tmp: Path) -> settings.Config:
    """`companion run --record` with no camera, GPIO, LED or voice, on a free port."""
    cfg = settings.load(system=None, user=None)
    cfg = cfg.replace("camera", source="replay", device=str(tmp / "no-frames"))
    cfg = cfg.replace("web", host="127.0.0.1", port=0)
    cfg = cfg.replace("buttons", enabled=False).replace("led", enabled=False)
    cfg = cfg.replace("voice", enabled=False)
    cfg = cfg.replace("journal", path=str(tmp / "journal.sqlite3"))
    return cfg.replace("record", enabled=True, folder=str(tmp / "games"), still_fps=2.0)


def play(appliance: Appliance, script: Script) -> None:
    """The scripted table in front of the appliance: frames, buttons, the phone."""
    svc = appliance.service
    svc.game.rng = script.companion_rng()  # the table's die is the script's
    svc.call(NewGame(script.tracked_setup))
    camera = ScriptedCamera(seed=SEED, hand_frames=1, still_frames=7, size=(640, 480))
    people, outcome = Oracle(script), Outcome(svc)
    start = time.monotonic()  # the capture loop stamps frames with this clock
    upcoming = horizons(script)
    people.advance(script.moments[0].truth_len)
    for k, moment in enumerate(script.moments):
        if moment.button is not None:
            svc.submit(Press(moment.button.value, source="button"))
        if moment.layout is not None:
            hands = tuple(loc.value for loc in moment.hands_over)
            for frame, t in camera.frames(moment.layout, hands):
                appliance._frame(frame, start + t)  # the capture loop's handler
        svc.call(Notice("test", "the table waits"))  # every queued command has run
        if upcoming[k] != moment.truth_len or k + 1 == len(script.moments):
            people.advance(upcoming[k])
            answer_for_table(people, svc, svc.follower, outcome)  # type: ignore[arg-type]
    assert outcome.refused == []


@pytest.mark.slow
@pytest.mark.skipif(not default_model_path().exists(), reason="no classifier in models/")
def test_a_recorded_live_game_replays_to_the_same_events(tmp_path: Path) -> None:
    script = write_script(seed=SEED, automa_level=2)
    end = script.moments[MOMENTS - 1].truth_len
    script = replace(script, moments=script.moments[:MOMENTS], truth=script.truth[:end])
    assert any(m.button is Button.DIE for m in script.moments)
    appliance = Appliance(recording_config(tmp_path), out=io.StringIO())
    appliance.start()
    try:
        play(appliance, script)
        live = list(appliance.service.game.log)
    finally:
        appliance.stop()
    (recorded,) = (tmp_path / "games").iterdir()
    folder = GameFolder.read(recorded)
    assert folder.format == 2 and folder.notes() == [] and folder.script is None
    lines = [json.loads(line) for line in (recorded / "timeline.jsonl").read_text().splitlines()]
    assert {"button": "die"} in [{k: v for k, v in i.items() if k != "t"} for i in lines]
    assert any("question" in item or "answer" in item for item in lines)
    assert len(list((recorded / "frames").iterdir())) < sum("frame" in i for i in lines)

    journal = tmp_path / "replayed.sqlite3"
    service = Service(Game(rng=folder.companion_rng()), journal=Journal(journal))
    done = replay(folder, TableScanner(default_model_path(), None), Stabilizer(),
                  service=service)
    assert done.refused == [] and len(live) > 15
    for k, (mine, theirs) in enumerate(zip(done.service.game.log, live, strict=True)):
        assert mine == theirs, f"event {k}: replayed {mine}, live {theirs}"
    assert Journal(journal).events() == Journal(tmp_path / "journal.sqlite3").events() == live


def test_run_record_turns_recording_on_into_that_folder(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from device.cli import build_parser, main
    from device.commands.demo import run_config

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    cfg = run_config(build_parser().parse_args(["run", "--record", str(tmp_path / "games")]))
    assert cfg.record.enabled and settings.record_path(cfg) == tmp_path / "games"
    assert not run_config(build_parser().parse_args(["run"])).record.enabled
    assert main(["run", "--record", " "]) == 2  # one clear line, nothing started
