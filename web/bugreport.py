"""The page's "Save this game for a bug report": the current game's recorded folder, zipped.

With recording on (``[record]``, docs/game-folder.md) the device writes each game into
a game folder that ``companion replay`` plays back; ``GET /api/bug-report`` says where
the current one lies on the device and how big it is, and ``GET /api/bug-report.zip``
downloads it as it stands, packed on the fly (nothing is copied on the device). Both
need the table PIN; neither changes anything, so neither needs the CSRF header (another
site can make a browser fetch them, but never read them).
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, stream_with_context

from web.auth import is_table
from web.errors import Conflict, Unauthorized
from web.service import BugReport, Recording

bp = Blueprint("bugreport", __name__, url_prefix="/api")
OFF = ("recording is off: start the companion with --record DIR, or set [record] "
       "enabled = true (docs/config.md), and this game's next moves are kept")


@bp.get("/bug-report")
def about() -> Response:
    """Where the current game's folder lies and how much the download holds."""
    report = _report()
    return jsonify(folder=str(report.folder), name=report.name, bytes=report.size,
                   frames=report.frames, download="/api/bug-report.zip")


@bp.get("/bug-report.zip")
def download() -> Response:
    """The current game's folder as a zip, as it stands now."""
    report = _report()
    return Response(stream_with_context(report.chunks()), mimetype="application/zip",
                    headers={"Content-Disposition": f'attachment; filename="{report.name}"',
                             "Cache-Control": "no-store"})


def _report() -> BugReport:
    if not is_table():
        raise Unauthorized("enter the table PIN to save a game")
    recording: Recording | None = current_app.extensions.get("companion_recording")
    if recording is None:
        raise Conflict(OFF)
    try:
        return recording.bug_report()
    except LookupError as exc:
        raise Conflict(str(exc)) from None
