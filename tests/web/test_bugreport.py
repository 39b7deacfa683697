"""The page's "save this game for a bug report": the recorded folder, behind the PIN."""

from __future__ import annotations

import contextlib
import io
import zipfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from flask.testing import FlaskClient
from pagekit import Table, make_app

from device.recorder import GameRecorder
from device.recording import GameFolder
from device.service import Press, Service


@pytest.fixture
def recorder(service: Service, tmp_path: Path) -> Iterator[GameRecorder]:
    """The device's recorder on the running game, with one frame and one button in it."""
    rec = GameRecorder(tmp_path / "games")
    rec.install(service)  # the game under way gets a folder of its own
    rec.taken(np.full((48, 64, 3), 90, np.uint8), 0.0)
    rec.scanned()
    with contextlib.suppress(ValueError):  # NEXT means nothing yet: refused, and kept
        service.call(Press("next"))
    yield rec
    rec.close()


@pytest.fixture
def recording(service: Service, recorder: GameRecorder) -> FlaskClient:
    return make_app(service, recording=recorder).test_client()


def test_it_needs_the_pin(recording: FlaskClient) -> None:
    for path in ("/api/bug-report", "/api/bug-report.zip"):
        reply = recording.get(path)
        assert reply.status_code == 401 and "PIN" in reply.json["error"]


def test_it_says_where_the_folder_lies_and_downloads_it(recording: FlaskClient,
                                                       recorder: GameRecorder,
                                                       tmp_path: Path) -> None:
    Table(recording)
    about = recording.get("/api/bug-report").json
    assert about["folder"] == str(recorder.folder) and about["frames"] == 1
    assert about["name"] == f"{recorder.folder.name}.zip" and about["bytes"] > 0  # type: ignore[union-attr]
    reply = recording.get(about["download"])
    assert reply.status_code == 200 and reply.mimetype == "application/zip"
    assert reply.headers["Content-Disposition"] == f'attachment; filename="{about["name"]}"'
    with zipfile.ZipFile(io.BytesIO(reply.data)) as pack:
        pack.extractall(tmp_path / "unpacked")
    folder = GameFolder.read(tmp_path / "unpacked" / recorder.folder.name)  # type: ignore[union-attr]
    assert [k for item in folder.items for k in item if k != "t"] == ["frame", "button"]


def test_with_recording_off_it_says_how_to_turn_it_on(table: Table) -> None:
    reply = table.client.get("/api/bug-report")
    assert reply.status_code == 409 and "--record DIR" in reply.json["error"]
