"""Errors the API answers with: a status code and one clear message, as JSON.

Each is a ``ValueError`` (the request was bad); nothing has changed when one is raised.
Engine errors (:class:`engine.errors.IllegalActionError`) become 422 with the rule's
message; Flask's own HTTP errors under ``/api`` and ``/events`` become JSON too.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException


class ApiError(ValueError):
    """A request the API refuses; ``status`` is the HTTP status code."""

    status = 400

    def __init__(self, message: str, *, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.headers = headers or {}


class BadInput(ApiError):
    """The body or a parameter is malformed (wrong type, missing field, unknown field)."""


class Unauthorized(ApiError):
    """The table PIN is needed (no session, or a wrong PIN)."""

    status = 401


class Forbidden(ApiError):
    """A state-changing request without the session's CSRF token."""

    status = 403


class NotFound(ApiError):
    """The request names something the companion does not have (a game not in the journal)."""

    status = 404


class Conflict(ApiError):
    """The request was made against a game that has moved on."""

    status = 409


class Rejected(ApiError):
    """Well-formed, but the game's rules refuse it."""

    status = 422


class TooManyAttempts(ApiError):
    """Too many wrong PINs from this client: wait ``retry_after`` seconds."""

    status = 429


class Unavailable(ApiError):
    """The server is busy (every live-update slot taken, the engine not answering)."""

    status = 503


def error_response(message: str, status: int, headers: dict[str, str] | None = None,
                   **extra: Any) -> Response:
    """The API's error body: ``{"error": message}``."""
    response = jsonify({"error": message, **extra})
    response.status_code = status
    response.headers.update(headers or {})
    return response


def register(app: Flask) -> None:
    """Answer API errors, engine rule errors and HTTP errors with JSON bodies."""

    @app.errorhandler(ApiError)
    def on_api_error(exc: ApiError) -> Response:
        return error_response(str(exc), exc.status, exc.headers)

    @app.errorhandler(HTTPException)
    def on_http_error(exc: HTTPException) -> Response | HTTPException:
        if not request.path.startswith(("/api", "/events")):
            return exc
        return error_response(exc.description or exc.name, exc.code or 500)
