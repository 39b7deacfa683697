"""``companion automa``: Tull Au Toma, the solo opponent, from the command line.

    companion automa resolve --state STATE.json --card N [--json]   # what she would do
    companion automa deck [--deck FILE] [--json]                    # her 22 cards, checked

STATE.json (the contract; docs/automa.md describes every field, and
examples/au-toma-state.json is one)::

    {"priorities": {"A": "mars", "B": "luna", "C": "jupiter", "D": "institute"},
     "locations": {"jupiter": 2, "mars": 0, "luna": 3, "institute": 1},
     "automa": {"helium": 3, "influence": 10, "fleet": 4, "sovereign": false}}

``locations`` gives each stack's card count; the character deck is taken to hold
cards. ``--json`` prints ``{"card", "deploy", "gain", "bonus", "banish_top_of_deck"}``;
without it, the steps as the companion would say them.

Her deck comes from ``--deck FILE``, else the file named by ``COMPANION_AUTOMA_DECK``,
else the one shipped with the engine. ``companion automa deck`` prints it row by row,
to compare with the physical cards (see :mod:`engine.automa` for how).

Exit status 2, with one line naming the problem, for a bad state file, card number or
deck file.
"""

from __future__ import annotations

import argparse
import json
import os
import re
from typing import TYPE_CHECKING, Any

from device.cli import UsageError
from device.inputs import brief, clip, parse_json, read_json, read_text, show

if TYPE_CHECKING:
    from engine.automa_state import AutomaCard

DECK_HELP = "her deck file (default: $COMPANION_AUTOMA_DECK, else the shipped deck)"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("automa", help="Au Toma, the solo opponent: what she does with a card")
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    r = actions.add_parser(
        "resolve", help="what Au Toma does with her card N in a state",
        description="What Au Toma does with her card N in the situation STATE.json "
                    "describes. STATE.json and the --json output: docs/automa.md; an "
                    "example: examples/au-toma-state.json.")
    r.add_argument("--state", required=True, metavar="STATE.json",
                   help="priorities, stack sizes and her tokens (docs/automa.md)")
    r.add_argument("--card", required=True, metavar="N", help="her card's ID, 1 to 22")
    r.add_argument("--json", action="store_true", help="print the outcome as JSON")
    r.add_argument("--deck", metavar="FILE", help=DECK_HELP)
    r.set_defaults(handler=resolve)
    d = actions.add_parser("deck", help="print and check her 22 cards",
                           description="Print and check her 22 cards; the deck file's "
                                       "format: docs/automa.md.")
    d.add_argument("--deck", metavar="FILE", help=DECK_HELP)
    d.add_argument("--json", action="store_true", help="print the rows as JSON")
    d.set_defaults(handler=show_deck)


def load_deck(path: str | None = None) -> tuple[AutomaCard, ...]:
    """Her cards from ``path``, else ``$COMPANION_AUTOMA_DECK``, else the shipped file.

    :raises UsageError: for a file that cannot be read; AutomaDeckError for a bad one.
    """
    from engine.automa import DECK_ENV, default_deck  # +0.10 s per start (import_costs.py)
    from engine.automa_state import parse_deck

    path = path or os.environ.get(DECK_ENV) or None
    if path is None:
        return default_deck()
    text = read_text(path, "deck file")
    parse_json(text, f"deck file {show(path)}")  # depth, NaN, size: before the engine reads it
    try:
        return parse_deck(text, show(path))
    except ValueError as exc:  # its messages quote the rows: one short line
        raise UsageError(clip(str(exc))) from None


def _card_number(text: str) -> int:
    if re.fullmatch(r"[0-9]{1,2}", text) is None or not 1 <= int(text) <= 22:
        raise UsageError(f"--card must be a card ID from 1 to 22, not {brief(text)}")
    return int(text)


def resolve(args: argparse.Namespace) -> int:
    from engine.automa import (  # +0.10 s (import_costs.py)
        AUTOMA_NAME,
        Situation,
        outcome,
        outcome_steps,
    )

    card = _card_number(args.card)
    deck = load_deck(args.deck)
    data: Any = read_json(args.state, "state file")
    try:
        where = Situation.from_json(data)
    except ValueError as exc:  # its messages quote the state: one short line
        raise UsageError(clip(str(exc))) from None
    done = outcome(where, deck[card - 1])
    if args.json:
        print(json.dumps(done.to_json()))
        return 0
    sovereign = bool(data["automa"].get("sovereign", False))
    for step in outcome_steps(done, AUTOMA_NAME, has_sovereign=sovereign):
        print(step.text)
    return 0


def show_deck(args: argparse.Namespace) -> int:
    from engine.automa_state import COLUMNS, to_rows  # loaded by load_deck anyway

    rows = to_rows(load_deck(args.deck))
    if args.json:
        print(json.dumps({"columns": list(COLUMNS), "cards": rows}))
        return 0
    print(f"{'id':>3}  {'deploy':<10}{'gain':<10}{'tiebreaker':<12}extra")
    for row in rows:
        print(f"{row[0]:>3}  {row[1]:<10}{row[2]:<10}{row[3]:<12}{row[4]}")
    return 0
