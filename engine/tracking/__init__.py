"""Following a physical game: what the table shows becomes the engine's events.

Pure, like the rest of the engine (standard library only; no I/O, clock or threads).
The camera fills a :data:`~engine.tracking.view.TableView` of the four stacks; buttons
add evidence (:class:`~engine.tracking.view.Button`). The
:class:`~engine.tracking.tracker.Tracker` searches the engine's own legal answers for
the shortest explanation (:mod:`~engine.tracking.search`, with the camera filling in
what only it can name: :mod:`~engine.tracking.options`), plays it, or asks the table a
:class:`~engine.tracking.question.Question`. :class:`~engine.tracking.follow.Follow`
keeps a game in step with the table; :mod:`~engine.tracking.script` plays scripted games
(bots as the table, an oracle as its people) and :mod:`~engine.tracking.replay` runs
them through the tracker and checks the result against the truth.

Modules: ``view`` (the contract the camera fills), ``question`` (questions and
verdicts), ``options`` (option filling), ``search`` (the breadth-first search),
``tracker``, ``follow``, ``script``, ``replay``.
"""

from engine.tracking.follow import Follow, Source
from engine.tracking.question import (
    COVERED_CARD,
    LOCATION,
    ORDER,
    UNEXPECTED,
    Question,
    Then,
    Verdict,
    location_question,
)
from engine.tracking.tracker import Tracker
from engine.tracking.view import (
    BACK,
    MAX_TOLD_DEPTH,
    UNREAD,
    Button,
    Seen,
    Shown,
    TableView,
    Unread,
    location_answer,
    mismatch,
    view_of,
)

__all__ = [
    "BACK", "COVERED_CARD", "LOCATION", "MAX_TOLD_DEPTH", "ORDER", "UNEXPECTED", "UNREAD", "Button",
    "Follow", "Question", "Seen", "Shown", "Source", "TableView", "Then", "Tracker",
    "Unread", "Verdict", "location_answer", "location_question", "mismatch", "view_of",
]
