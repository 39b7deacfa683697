"""The HTML pages: the table view, and ``/join`` with a QR code of the page's address."""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

import segno
from flask import Blueprint, current_app, render_template, request
from markupsafe import Markup

bp = Blueprint("pages", __name__)


@bp.get("/")
def index() -> str:
    """The table view (rendered in the browser from the event stream)."""
    return render_template("index.html")


@bp.get("/join")
def join() -> str:
    """A QR code of the page's address, for the other phones at the table."""
    url = public_url()
    qr = segno.make(url, error="m")
    svg = qr.svg_inline(scale=8, dark="#000", light="#fff", omitsize=True,
                        title="Address of this page")
    return render_template("join.html", url=url, qr=Markup(svg))


def public_url() -> str:
    """The address other devices should open.

    ``PUBLIC_URL`` when configured; otherwise the address this request came in on,
    unless that is the Pi's own loopback, which no phone can reach: then the Pi's
    mDNS name, ``<hostname>.local``.
    """
    configured = current_app.config.get("PUBLIC_URL")
    if configured:
        return str(configured)
    parts = urlsplit(request.host_url)
    host = parts.hostname or "localhost"
    if _is_loopback(host):
        port = f":{parts.port}" if parts.port else ""
        return f"{parts.scheme}://{mdns_name()}{port}/"
    return request.host_url


def mdns_name() -> str:
    """This machine's name on the local network (Avahi answers for ``<hostname>.local``)."""
    name = socket.gethostname().split(".")[0] or "raspberrypi"
    return f"{name}.local"


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
