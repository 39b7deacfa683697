"""The HTML pages: the table view and its icon; where other devices find the page."""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from flask import Blueprint, Response, current_app, render_template, request

bp = Blueprint("pages", __name__)

LAN_HINT = "Phones cannot reach this page yet: the companion listens on this machine only." \
           " Start it with --host 0.0.0.0 to let the table's phones in."


@bp.get("/")
def index() -> str:
    """The table view (rendered in the browser from the event stream)."""
    return render_template("index.html")


@bp.get("/favicon.ico")
def favicon() -> Response:
    """Browsers ask for this whatever the page links: the same icon, never a 404."""
    response = current_app.send_static_file("icon.svg")
    response.mimetype = "image/svg+xml"
    return response


def public_url() -> str:
    """The address other devices should open.

    ``PUBLIC_URL`` when configured; otherwise the address this request came in on,
    unless that is the Pi's own loopback, which no phone can reach: then the Pi's
    mDNS name, ``<hostname>.local`` — when the server listens beyond loopback
    (``LISTEN_HOST``); listening on loopback only, the loopback address is all there is.
    """
    configured = current_app.config.get("PUBLIC_URL")
    if configured:
        return str(configured)
    parts = urlsplit(request.host_url)
    host = parts.hostname or "localhost"
    if is_loopback(host) and not local_only():
        port = f":{parts.port}" if parts.port else ""
        return f"{parts.scheme}://{mdns_name()}{port}/"
    return request.host_url


def local_only() -> bool:
    """True when the server listens on a loopback address only (``LISTEN_HOST``)."""
    listen = current_app.config.get("LISTEN_HOST")
    return listen is not None and is_loopback(str(listen))


def mdns_name() -> str:
    """This machine's name on the local network (Avahi answers for ``<hostname>.local``)."""
    name = socket.gethostname().split(".")[0] or "raspberrypi"
    return f"{name}.local"


def is_loopback(host: str) -> bool:
    """``localhost``, ``127.0.0.1``, ``::1``…"""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
