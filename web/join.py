"""Joining the table: ``/join``'s QR code, and the join code that unlocks a phone.

Anyone on the Wi-Fi may follow the game; the controls need the table. A phone that is
already unlocked shows, on ``/join``, a QR code of ``/unlock/<join code>``: the phone
that scans it opens that address and is unlocked in one step, with nothing typed (as a
Chromecast's guest code or Home Assistant's onboarding QR code let in whoever is in the
room). A locked phone's ``/join`` shows the page's address only. ``companion run``
prints the same code at start. The code is long and random (:func:`web.auth.new_token`),
so guessing it is hopeless; wrong ones count against the client like wrong PINs.
``POST /api/join`` draws a new one, voiding the old QR code (phones already unlocked
stay so).
"""

from __future__ import annotations

import hmac

import segno
from flask import Blueprint, current_app, jsonify, redirect, render_template, url_for
from markupsafe import Markup
from werkzeug.wrappers import Response

from web import auth
from web.pages import LAN_HINT, local_only, public_url
from web.validate import request_body

bp = Blueprint("join", __name__)


def unlock_url() -> str:
    """The address the join code's QR code carries."""
    return f"{public_url().rstrip('/')}/unlock/{current_app.config['JOIN_TOKEN']}"


def qr_svg(url: str, title: str) -> Markup:
    """A QR code of ``url`` as inline SVG."""
    qr = segno.make(url, error="m")
    return Markup(qr.svg_inline(scale=8, dark="#000", light="#fff", omitsize=True, title=title))


@bp.get("/join")
def join() -> str:
    """A QR code for the other phones: it unlocks them when this phone is unlocked."""
    url = public_url()
    unlocking = auth.is_table()
    qr = qr_svg(unlock_url(), "Unlocks the phone that scans it") if unlocking \
        else qr_svg(url, "Address of this page")
    hint = LAN_HINT if local_only() and not current_app.config.get("PUBLIC_URL") else ""
    return render_template("join.html", url=url, qr=qr, hint=hint, unlocking=unlocking)


@bp.get("/unlock/<token>")
def unlock(token: str) -> Response | tuple[str, int]:
    """The join code's address: the right code unlocks this phone and opens the table."""
    auth.check_brake()
    if not hmac.compare_digest(token.encode(), str(current_app.config["JOIN_TOKEN"]).encode()):
        auth.brake().fail(auth.client())
        page = render_template("join.html", url=public_url(), qr=qr_svg(public_url(),
                               "Address of this page"), hint="", unlocking=False,
                               stale=True)
        return page, 403
    auth.open_session()
    return redirect(url_for("pages.index"), code=303)


@bp.post("/api/join")
@auth.require_table
def rotate() -> Response:
    """Draw a new join code (the old QR code stops working) and return its address."""
    request_body(optional=True).done()
    current_app.config["JOIN_TOKEN"] = auth.new_token()
    return jsonify(url=unlock_url())
