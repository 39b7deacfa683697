"""The Rising die: six faces, each applied in full, with the same caps as bonuses.

A roll is a chance decision (no player): the driver answers it with a :class:`Roll`
drawn from an injected ``random.Random``, so the log records the face and a replay
needs no randomness.
"""

from __future__ import annotations

from engine.board import Bonus, Location
from engine.decisions import Kind
from engine.draft import Draft
from engine.events import ROLLS, Choose, Event, Face, Roll, choose
from engine.handlers import answer, step
from engine.reveals import reveal_and_place
from engine.state import ChangeKind
from engine.steps import Step

FACES: tuple[Face, ...] = tuple(Face)
_BONUS_FACES = {
    Face.HELIUM: Bonus.HELIUM,
    Face.FLEET: Bonus.FLEET,
    Face.INFLUENCE: Bonus.INFLUENCE,
    Face.SOVEREIGN: Bonus.SOVEREIGN,
}
MINERVA = "minerva"  # step data flag: Minerva picks another face instead of the Sovereign


@step("roll")
def roll(draft: Draft, s: Step) -> None:
    """Roll the die for ``s.player`` (a chance decision)."""
    draft.ask(None, Kind.ROLL, "Roll the Rising die", ROLLS, s.then("roll-answer"))


@answer("roll-answer")
def on_roll(draft: Draft, s: Step, event: Event) -> None:
    assert isinstance(event, Roll)
    draft.last_roll = event.face.value
    draft.note(ChangeKind.ROLL, player=s.player, card=event.face.value)
    if event.face is Face.SOVEREIGN and MINERVA in s.data:
        others = [Choose(face.value) for face in FACES if face is not Face.SOVEREIGN]
        name = draft.players[s.player].name
        draft.ask(s.player, Kind.FACE, f"{name} (Minerva): pick another face", others,
                  s.then("minerva-face"))
        return
    apply_face(draft, s, event.face)


@answer("minerva-face")
def on_minerva_face(draft: Draft, s: Step, event: Event) -> None:
    assert isinstance(event, Choose)
    apply_face(draft, s, Face(str(event.value)))


def apply_face(draft: Draft, s: Step, face: Face) -> None:
    """Give ``s.player`` what ``face`` shows."""
    if face in _BONUS_FACES:
        draft.gain_bonus(s.player, _BONUS_FACES[face])
    elif face is Face.REVEAL:
        reveal_and_place(draft, s, "Place the revealed card (no bonus)")
    else:
        banish_a_top_card(draft, s)


def banish_a_top_card(draft: Draft, s: Step) -> None:
    """The banish face: the top card of a location of the player's choice."""
    options = [
        choose(slot.card, loc, len(draft.stack_at(loc)) - 1)
        for loc in Location
        if (slot := draft.top(loc)) is not None
    ]
    if options:
        draft.ask(s.player, Kind.TARGET, "Banish the top card of a location", options,
                  s.then("banish-target"))


@answer("banish-target")
def on_banish_target(draft: Draft, s: Step, event: Event) -> None:
    """Banish the chosen stack card (the die's face, Ceres' house ability)."""
    assert isinstance(event, Choose) and event.location is not None and event.index is not None
    draft.identify(event.location, event.index, event.value)
    draft.banish_at(event.location, event.index)
