"""``companion score GAME.json [--json]``: final scoring of a table, as on the scorepad.

    companion score game.json                # the scorepad as a table, with explanations
    companion score game.json --json         # {"players": [...], "winners": [...]}
    companion score game.json --json --details   # plus explanations and settings
    companion score game.json --resolve      # resolve end-of-game abilities first
    companion score game.json --ruling gray_double_count=true

GAME.json (the contract; docs/score.md describes every field)::

    {"players": [{"name": "Ann", "house": "mars", "helium": 6, "influence": 9,
                  "fleet": 0, "sovereign": true, "hand": ["judge", "holiday"],
                  "choices": {"holiday": {"color": "blue"}}},
                 {"name": "Au Toma", "automa": {"level": 2, "parity": "even"},
                  "helium": 4, "influence": 4, "fleet": 10, "sovereign": false,
                  "hand": ["eo", "sevro"]}],
     "neutral_influence": 3,
     "locations": {"jupiter": ["diplomat", "modjob"], "mars": [], "luna": [],
                   "institute": []},
     "banished": ["virga"]}

The table is taken as it stands *after* the end-of-game abilities and House Ceres'
banish. Optional extensions (the plain contract input works unchanged without them):

* a location entry may be ``{"card": "sevro", "face_down": true}`` (Firewall Expert);
  ``{"card": null, "face_down": true}`` is a face-down card nobody identified;
* ``"hacker": "card-id"`` on a player: the card Hacker revealed; its core value scores
  in the end-of-game row (with ``--resolve`` it is the card Hacker reveals);
* ``"first_player": "Ann"`` (default: the first player listed) and ``"deck"``: the deck
  top card first; both are read by ``--resolve``.

``--resolve`` resolves the end-of-game abilities still in hand (first player first,
then clockwise, then House Ceres' banish), each with the option that scores best for
its owner, and prints what it did. Hypnotist and Online Gambler need ``"deck"``, and
Hacker needs ``"deck"`` or ``"hacker"``; Psychologist's random card and Online
Gambler's reshuffle use ``--seed``.

Exit status 2, with one line naming the problem, for bad input: malformed JSON, a
missing field, an unknown card id, house or setting, a setting read only during play
(``self_banish_needs_gain``: it cannot change a final score), a card in two places, negative
tokens, Fleet or Influence above 10, or a choice that does not fit the card.
"""

from __future__ import annotations

import argparse
import json
import random
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from device.cli import UsageError
from device.inputs import brief, clip, read_json, show
from engine.board import House, Location
from engine.cards import CARDS, Color, check_id
from engine.rulings import PLAY_SETTINGS, Rulings, setting_names, summary
from engine.schema import Boolean, Integer, SchemaError, Spec
from engine.table import AutomaInfo, Choice, Seat, StackCard, Table, _check_choice_fits

# engine.scoring and engine.finale load the rules: +0.04 s of CPU on every command's
# start (`companion --help` 0.10 s; benchmarks/import_costs.py), so only `score` pays.
if TYPE_CHECKING:
    from engine.scoring import ScoreSheet

_PLAYER_KEYS = {"name", "house", "helium", "influence", "fleet", "sovereign", "hand",
                "choices", "automa", "hacker"}
_REQUIRED = ("name", "helium", "influence", "fleet", "sovereign", "hand")
_TOP_KEYS = {"players", "neutral_influence", "locations", "banished", "deck", "first_player"}


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("score", help="final scoring of a table described in a JSON file",
                       description="Final scoring, step by step as on the paper scorepad.",
                       epilog=_epilog(), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", metavar="GAME.json", help="the table at the end of the game")
    p.add_argument("--json", action="store_true", help="print the scores as JSON")
    p.add_argument("--details", action="store_true",
                   help="with --json: add each row's explanation and the settings that "
                        "decided a score")
    p.add_argument("--resolve", action="store_true",
                   help="resolve end-of-game abilities in hand first, with the best options "
                        "(deck-reading ones need \"deck\" in GAME.json)")
    p.add_argument("--seed", type=int, default=0,
                   help="random seed for --resolve (Psychologist, Online Gambler)")
    p.add_argument("--ruling", action="append", default=[], metavar="NAME=true|false",
                   help="change a judgement-call setting (listed below)")
    p.set_defaults(handler=run)


def _epilog() -> str:
    settings = "\n".join(f"  {n}={str(getattr(Rulings(), n)).lower()}: {summary(n)}"
                         for n in _score_settings())
    return ("GAME.json and the --json output are described in docs/score.md; optional "
            "extensions:\nlocation entries {\"card\": id, \"face_down\": true}, \"hacker\": "
            "id on a player,\n\"first_player\" and \"deck\" (for --resolve). Example: "
            "examples/two-player.json.\nSettings (--ruling), with their defaults:\n"
            f"{settings}")


def run(args: argparse.Namespace) -> int:
    from engine.scoring import score

    data = load(args.game)
    rulings = parse_rulings(args.ruling)
    try:
        table, hacker = parse_table(data, resolving=args.resolve)
    except ValueError as exc:  # the engine's own checks quote the input: one short line
        raise UsageError(clip(str(exc))) from None
    resolved: list[str] = []
    if args.resolve:
        table, resolved = _resolve(table, hacker, rulings, args.seed)
    sheet = score(table, rulings)
    if args.json:
        print(json.dumps(to_json(sheet, resolved if args.resolve else None, args.details)))
    else:
        print(render(sheet, table, resolved if args.resolve else None))
    return 0


# ---- input -----------------------------------------------------------------------------

def load(path: str) -> dict[str, Any]:
    """Read GAME.json; a file that is not a sensible JSON object is a usage error."""
    data = read_json(path, "game file")
    if not isinstance(data, dict):
        raise UsageError(f"{show(path)} must hold a JSON object with a \"players\" list")
    return data


def parse_rulings(items: list[str]) -> Rulings:
    """``NAME=true|false`` settings over the defaults."""
    rulings = Rulings()
    for item in items:
        name, _, value = item.partition("=")
        if name not in setting_names():
            raise UsageError(f"unknown ruling {name!r} (known: {', '.join(_score_settings())})")
        if name in PLAY_SETTINGS:  # accepting it would print a score it did not touch
            raise UsageError(f"ruling {name} is read during play and cannot change a final "
                             f"score (score takes: {', '.join(_score_settings())})")
        if value.lower() not in ("true", "false"):
            raise UsageError(f"ruling {name} needs =true or =false, not {value!r}")
        rulings = replace(rulings, **{name: value.lower() == "true"})
    return rulings


def _score_settings() -> tuple[str, ...]:
    """The settings that can change a final score: all but those read during play."""
    return tuple(n for n in setting_names() if n not in PLAY_SETTINGS)


def parse_table(data: dict[str, Any], *, resolving: bool = False) -> tuple[Table, dict[int, str]]:
    """The table of a GAME.json object, validated; and each seat's Hacker card (if given).

    :raises ValueError: naming the first problem.
    """
    _no_unknown_keys(data, _TOP_KEYS, "the game")
    players = data.get("players")
    if not isinstance(players, list) or not players:
        raise UsageError("\"players\" must be a non-empty list")
    seats, hacker = [], {}
    for k, raw in enumerate(players):
        seat, card = _seat(raw, k, resolving)
        seats.append(seat)
        if card is not None:
            hacker[k] = card
    neutral = _opt(data, "neutral_influence")
    table = Table(
        seats=tuple(seats),
        locations=_locations(_opt(data, "locations")),
        banished=tuple(_card_list(_opt(data, "banished") or [], "banished")),
        neutral_influence=(3 if len(seats) == 2 else 0) if neutral is None
        else _count(neutral, "neutral_influence"),
        first_player=_first_player(_opt(data, "first_player"), seats),
        deck=None if _opt(data, "deck") is None else tuple(_card_list(data["deck"], "deck")),
    )
    table.validate()
    _check_hacker(table, hacker)
    return table, hacker


def _opt(obj: dict[str, Any], key: str) -> Any:
    return obj.get(key)


def _no_unknown_keys(obj: dict[str, Any], known: set[str], what: str) -> None:
    extra = sorted(set(obj) - known)
    if extra:
        raise UsageError(f"unknown field {brief(extra[0])} in {what}")


def _seat(raw: Any, k: int, resolving: bool) -> tuple[Seat, str | None]:
    if not isinstance(raw, dict):
        raise UsageError(f"player {k + 1} must be a JSON object")
    for key in _REQUIRED:
        if raw.get(key) is None:
            raise UsageError(f"player {k + 1} is missing the required field {key!r}")
    name = raw["name"]
    if not isinstance(name, str) or not name.strip():
        raise UsageError(f"player {k + 1}'s name must be a non-empty string")
    who = f"player {brief(name)}"
    _no_unknown_keys(raw, _PLAYER_KEYS, who)
    _checked(Boolean(), raw["sovereign"], f"{who}'s sovereign")
    hacker = _opt(raw, "hacker")
    if hacker is not None:
        hacker = _card_list([hacker], f"{who}'s \"hacker\"")[0]
    seat = Seat(
        name=name, hand=tuple(_card_list(raw["hand"], f"{who}'s hand")),
        helium=_count(raw["helium"], f"{who}'s helium"),
        influence=_count(raw["influence"], f"{who}'s influence"),
        fleet=_count(raw["fleet"], f"{who}'s fleet"), sovereign=raw["sovereign"],
        house=_house(_opt(raw, "house"), who),
        automa=_automa(_opt(raw, "automa"), who, AutomaInfo),
        choices=_choices(_opt(raw, "choices"), who, raw["hand"]),
        extra_points=CARDS[hacker].core if hacker is not None and not resolving else 0,
    )
    return seat, hacker


def _count(value: Any, what: str) -> int:
    return int(_checked(Integer(0), value, what))


def _checked(spec: Spec, value: Any, what: str) -> Any:
    """``value`` if it fits ``spec`` (engine.schema), else one line naming ``what``."""
    try:
        return spec.check(value, what)
    except SchemaError as exc:
        raise UsageError(str(exc)) from None


def _card_list(value: Any, what: str) -> list[str]:
    if not isinstance(value, list):
        raise UsageError(f"{what} must be a list of card ids")
    for cid in value:
        if not isinstance(cid, str) or cid not in CARDS:
            raise UsageError(f"unknown card id {brief(cid, as_json=True)} in {what}")
    return list(value)


def _house(value: Any, who: str) -> House | None:
    if value is None:
        return None
    try:
        return House(value)
    except ValueError:
        known = ", ".join(h.value for h in House)
        raise UsageError(f"{who} has unknown house {brief(value)} (known: {known})") from None


def _automa(value: Any, who: str, info: Any) -> Any:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise UsageError(f"{who}: \"automa\" must be an object like "
                         "{\"level\": 2, \"parity\": \"even\"}")
    _no_unknown_keys(value, {"level", "parity"}, f"{who}'s automa")
    level = _checked(Integer(), value.get("level", 2), f"{who}'s Au Toma level")
    return info(level=level, parity=value.get("parity", "even"))


def _choices(value: Any, who: str, hand: list[str]) -> tuple[Choice, ...]:
    """Declared choices; one for a card not in hand is checked, then left out (the
    contract's own example declares one)."""
    if value is None:
        return ()
    if not isinstance(value, dict):
        raise UsageError(f"{who}: \"choices\" must map card ids to {{\"name\"|\"color\": ...}}")
    out = []
    for cid, choice in value.items():
        check_id(cid)
        if not isinstance(choice, dict) or len(choice) != 1 or \
                not set(choice) <= {"name", "color"}:
            raise UsageError(f"{who}: the choice for {cid} must be {{\"name\": id}} "
                             "(Orange) or {\"color\": caste} (Gray)")
        if "name" in choice:
            made = Choice(cid, name=check_id(choice["name"]))
        else:
            try:
                made = Choice(cid, color=Color(choice["color"]))
            except ValueError:
                raise UsageError(f"{who}: unknown color {brief(choice['color'])} for "
                                 f"{cid}") from None
        _check_choice_fits(made)
        if cid in hand:
            out.append(made)
    return tuple(out)


def _locations(value: Any) -> tuple[tuple[StackCard, ...], ...]:
    if value is None:
        return ((), (), (), ())
    if not isinstance(value, dict):
        raise UsageError("\"locations\" must map jupiter, mars, luna, institute to lists")
    names = [loc.value for loc in Location]
    extra = sorted(set(value) - set(names))
    if extra:
        raise UsageError(f"unknown location {brief(extra[0])} (known: {', '.join(names)})")
    return tuple(_stack(value.get(name) or [], name) for name in names)


def _stack(value: Any, name: str) -> tuple[StackCard, ...]:
    if not isinstance(value, list):
        raise UsageError(f"location {name} must be a list of card ids, oldest first")
    out = []
    for entry in value:
        if isinstance(entry, dict):
            _no_unknown_keys(entry, {"card", "face_down"}, f"a card on {name}")
            cid = entry.get("card")
            face_down = entry.get("face_down", False)
            if not isinstance(face_down, bool) or (cid is None and not face_down):
                raise UsageError(f"a card on {name} needs \"card\" (or null with "
                                 "\"face_down\": true)")
            out.append(StackCard(None if cid is None else check_id(cid), face_down))
        else:
            out.append(StackCard(check_id(entry)))
    return tuple(out)


def _first_player(value: Any, seats: list[Seat]) -> int:
    if value is None:
        return 0
    names = [s.name for s in seats]
    if value not in names:
        raise UsageError(f"first_player {brief(value)} is not one of the players")
    return names.index(value)


def _check_hacker(table: Table, hacker: dict[int, str]) -> None:
    for i, cid in hacker.items():
        seat = table.seats[i]
        if "hacker" not in seat.hand:
            raise UsageError(f"{seat.name} gives a \"hacker\" card but holds no Hacker")
        where = table.where_is(cid)
        if where is not None and where != "the deck":
            raise UsageError(f"Hacker's revealed card {cid} is also in {where}")


# ---- --resolve -------------------------------------------------------------------------

def _resolve(table: Table, hacker: dict[int, str], rulings: Rulings,
             seed: int) -> tuple[Table, list[str]]:
    from engine.finale import begin, decision, resolve

    rng = random.Random(seed)
    f = begin(table)
    while (d := decision(f, rulings)) is not None:
        best = d.options[0]
        if best.needs_reveal:
            best = _observed(best, hacker, d.ability)
        f = resolve(f, best, rng)
    return f.table, [o.text() for o in f.log]


def _observed(option: Any, hacker: dict[int, str], ability: str) -> Any:
    if ability == "hacker" and option.seat in hacker:
        return option.with_revealed([hacker[option.seat]])
    name = CARDS[ability].name
    extra = " or \"hacker\" on the player" if ability == "hacker" else ""
    raise UsageError(f"--resolve: {name} reads the deck; add \"deck\" (top card first)"
                     f"{extra} to the game file")


# ---- output ----------------------------------------------------------------------------

def to_json(sheet: ScoreSheet, resolved: list[str] | None,
            details: bool = False) -> dict[str, Any]:
    """The contract JSON. Extra keys appear only when asked for: ``end_of_game`` when an
    extension (``hacker``, ``--resolve``) scored in that row, ``resolved`` with
    ``--resolve``, and with ``--details`` every row's explanation and the settings that
    decided a score."""
    out = sheet.to_json()
    players: list[dict[str, Any]] = out["players"]  # type: ignore[assignment]
    for entry, p in zip(players, sheet.players, strict=True):
        if details or any(q.end_of_game for q in sheet.players):
            entry["end_of_game"] = p.end_of_game
        if details:
            entry["lines"] = {row.step.value: list(row.lines) for row in p.rows}
            entry["rulings"] = [{"setting": n.setting, "value": n.value,
                                 "difference": n.difference} for n in p.rulings]
    if resolved is not None:
        out["resolved"] = resolved
    return out


_ROWS = (("end_of_game", "End-of-game abilities"), ("cards_core", "Character cards: core"),
         ("cards_bonus", "Character cards: bonuses"), ("fleet", "Fleet"),
         ("helium", "Helium"), ("sovereignty", "Sovereign"), ("influence", "Influence"),
         ("excess_cards", "Excess cards"))


_DETAIL = {"end_of_game": "end of game", "cards_core": "core", "cards_bonus": "bonus",
           "fleet": "fleet", "helium": "helium", "sovereignty": "sovereign",
           "influence": "influence", "excess_cards": "excess"}


def render(sheet: ScoreSheet, table: Table, resolved: list[str] | None) -> str:
    """The scorepad as text: the table of rows, winners, choices, settings, details."""
    lines = _grid(sheet)
    lines += ["", _winner_line(sheet)]
    if resolved is not None:
        lines += ["", "End-of-game abilities resolved:"]
        lines += [f"  {label}" for label in resolved] or ["  (none in hand)"]
    elif _abilities_in_hand(table):
        lines += ["", "Note: end-of-game abilities in hand are taken as already resolved "
                  "(--resolve lets the companion resolve them)."]
    lines += _choice_lines(sheet)
    lines += _ruling_lines(sheet)
    lines += ["", "Details:"]
    for p in sheet.players:
        lines.append(f"  {p.name}")
        for row in p.rows:
            for text in row.lines:
                lines.append(f"    {_DETAIL[row.step.value]}: {text}")
    return "\n".join(lines)


def _grid(sheet: ScoreSheet) -> list[str]:
    width = max(10, *(len(p.name) + 2 for p in sheet.players))
    head = "Scorepad".ljust(26) + "".join(p.name.rjust(width) for p in sheet.players)
    rows = [head, "-" * len(head)]
    for key, label in _ROWS:
        rows.append(label.ljust(26) + "".join(
            str(getattr(p, key)).rjust(width) for p in sheet.players))
    rows.append("-" * len(head))
    rows.append("Total".ljust(26) + "".join(str(p.total).rjust(width) for p in sheet.players))
    return rows


def _winner_line(sheet: ScoreSheet) -> str:
    if len(sheet.winners) > 1:
        return "Winners (shared victory): " + ", ".join(sheet.winners)
    why = " (tie broken by the Sovereign token)" if sheet.by_sovereign else ""
    return f"Winner: {sheet.winners[0]}{why}"


def _abilities_in_hand(table: Table) -> bool:
    from engine.finale import ABILITIES

    return any(c in ABILITIES for s in table.seats if s.automa is None for c in s.hand)


def _choice_lines(sheet: ScoreSheet) -> list[str]:
    out = []
    for p in sheet.players:
        parts = []
        for ch in p.choices:
            how = "picked" if ch.card in p.picked else "declared"
            card = CARDS[ch.card].name
            if ch.name is not None:
                what = ("keeps its own name" if ch.name == ch.card
                        else f"takes the name {CARDS[ch.name].name}")
            else:
                what = f"also counts as {ch.color.value}" if ch.color else "no extra color"
            parts.append(f"{card} {what} ({how})")
        if parts:
            out.append(f"  {p.name}: " + "; ".join(parts))
    return ["", "Orange names and Gray colors:", *out] if out else []


def _ruling_lines(sheet: ScoreSheet) -> list[str]:
    out = [f"  {p.name}: {n.text()}" for p in sheet.players for n in p.rulings]
    return ["", "Settings that decided a score:", *out] if out else []
