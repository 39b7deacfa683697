"""The join code away from the page: a QR code on the console, and where doctor finds it.

``companion run`` prints the join code's address as a QR code in text at start (it lands
in ``journalctl -u companion`` too), so a phone at the table is unlocked by scanning the
Pi's screen or a laptop showing the journal. It also keeps the address in a file beside
the journal, readable by the companion's own user only, from which ``companion doctor
--join`` prints the QR code again. The code itself is the page's (:mod:`web.join`).
"""

from __future__ import annotations

import io
import os
import socket
from pathlib import Path

import segno

FILE_NAME = "join"  # beside the journal: the address of the running companion's code


def unlock_url(host: str, port: int, token: str) -> str | None:
    """The address a phone at the table opens to be unlocked, or None when no phone can
    reach the page (it listens on this machine only)."""
    if host in ("0.0.0.0", "", "::"):
        host = f"{socket.gethostname().split('.')[0] or 'raspberrypi'}.local"
    elif host.startswith("127.") or host in ("localhost", "::1"):
        return None
    return f"http://{host}:{port}/unlock/{token}"


def qr_text(url: str) -> str:
    """``url`` as a QR code drawn in text (half blocks: two rows of modules a line)."""
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue().rstrip("\n")


def keep(folder: Path, url: str) -> Path:
    """Write ``url`` to the join file in ``folder``, readable by this user only."""
    path = folder / FILE_NAME
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(url + "\n")
    os.chmod(path, 0o600)  # an older file keeps its mode through O_CREAT
    return path


def forget(folder: Path) -> None:
    """Remove the join file: a stopped companion's code unlocks nothing."""
    (folder / FILE_NAME).unlink(missing_ok=True)


def read(folder: Path) -> str:
    """The running companion's join address, kept in ``folder``.

    :raises OSError: when there is none, or this user may not read it.
    """
    return (folder / FILE_NAME).read_text(encoding="utf-8").strip()


SERVICE_STATE = Path("/var/lib/companion")  # companion.service's StateDirectory


def shown(folder: Path) -> str:
    """The running companion's join code for ``companion doctor --join``: its address and
    QR code, or why it cannot be shown (looked for in ``folder``, then in the service's
    state folder)."""
    denied = None
    for place in dict.fromkeys((folder, SERVICE_STATE)):
        try:
            url = read(place)
        except PermissionError:
            denied = place / FILE_NAME
            continue
        except OSError:
            continue
        return f"join: scan to follow the game with the controls unlocked: {url}\n{qr_text(url)}"
    if denied is not None:
        return f"join: {denied} is the companion's own: run `sudo companion doctor --join`"
    return "join: no companion is running here (its start-up lines show its code)"
