"""The models the package ships: where their files lie, installed or in a checkout.

The project keeps its trained models in the top-level ``models/`` folder, beside their
design cards. A wheel carries them as ``vision/models/`` (``pyproject.toml`` maps the
folder in), found through :mod:`importlib.resources`; a checkout run in place, or whose
editable install does not map that package, reads the folder itself.
"""

from __future__ import annotations

import importlib.resources
from pathlib import Path

PACKAGE = "vision.models"
CHECKOUT = Path(__file__).resolve().parents[1] / "models"


def model_file(name: str) -> Path:
    """The shipped file ``name`` (a model or its labels), wherever this copy keeps it."""
    try:
        # A folder without __init__.py is a namespace package: files() answers with a
        # MultiplexedPath, whose joinpath is a real path on disk.
        found = Path(str(importlib.resources.files(PACKAGE).joinpath(name)))
    except ModuleNotFoundError:
        return CHECKOUT / name
    return found if found.is_file() or not (CHECKOUT / name).is_file() else CHECKOUT / name
