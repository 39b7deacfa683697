"""The narration: every event, change and question in words, with printed card names."""

from __future__ import annotations

import random
import re

from engine import narration
from engine.abilities.primitives import Moved
from engine.automa import AUTOMA_NAME, BANISH, GAINS, STEP_BY_STEP, TOKENS, new_solo_game
from engine.board import Bonus, Location
from engine.cards import CARDS
from engine.decisions import Decision, Kind
from engine.events import (
    EVENT_TYPES,
    Block,
    Choose,
    DrawUnknown,
    Face,
    GainFrom,
    Identify,
    Lead,
    Place,
    Resolve,
    RevealCard,
    Roll,
    SeatSpec,
    SetHandCount,
    SetLocation,
    SetSovereign,
    SetTokens,
)
from engine.game import Game
from engine.setup import tracked_game
from engine.state import Change, evolve
from engine.steps import Step

# Any catalogue id (lower case, as ids are): "colonel-valentin", "darrow"…
SLUG = re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, CARDS), key=len, reverse=True))
                  + r")\b")


def tracked() -> Game:
    seats = (SeatSpec("Ann"), SeatSpec("Bo"))
    return Game(tracked_game(seats, (("darrow", "sevro"), ("mustang", "colonel-valentin"),
                                     ("lorn",), ("victra",)), first=0))


def test_every_event_type_has_words_without_an_id() -> None:
    samples = [Lead("colonel-valentin", Location.MARS), Lead(None, None), GainFrom(Location.LUNA),
               Place(Location.JUPITER, "the-jackal"), Place(Location.JUPITER), Roll(Face.BANISH),
               Choose("the-jackal"), Choose("mars", Location.MARS),
               Choose("colonel-valentin", Location.MARS, 1), Block("pax-au-telemanus"),
               Resolve(0), Identify(Location.MARS, 0, "colonel-valentin"), DrawUnknown(0, 2),
               SetHandCount(1, 3), SetLocation(Location.LUNA, ("the-jackal", None)),
               SetTokens(0, 1, 2, 3), SetSovereign(None), RevealCard(1, "the-jackal"),
               GAINS[Location.MARS], TOKENS[Bonus.FLEET], BANISH,
               Moved(Location.MARS, Location.LUNA, "the-jackal", under=True)]
    assert {type(e).__name__ for e in samples} >= set(EVENT_TYPES) - {"Setup", "Scout",
                                                                       "DrawFromDeck",
                                                                       "Decline", "RevealHand"}
    for event in samples:
        text = narration.event_text(event)
        assert text and not SLUG.search(text), text
    assert narration.event_text(Choose("colonel-valentin", Location.MARS, 1)) == (
        "Colonel Valentin on Mars (2nd from the bottom)")
    assert narration.event_text(Moved(Location.MARS, Location.LUNA, "the-jackal", True)) == (
        "Done: The Jackal moved from Mars to Luna (under the top card)")


def test_a_log_line_says_who_did_what() -> None:
    game = tracked()
    before = game.state
    game.play(Lead("the-jackal", Location.LUNA))
    assert narration.line(game.log[-1], before, game.state) == "Ann: Deploy The Jackal to Luna"


def test_a_roll_is_said_with_who_rolled_it() -> None:
    state = tracked().state
    rolled = evolve(state, changes=(Change("roll", 1, "sovereign"),))
    roll = Decision(Kind.ROLL, None, "Roll the Rising die", (Roll(Face.SOVEREIGN),), Step("x", 1))
    line = narration.line(Roll(Face.SOVEREIGN), evolve(state, pending=roll), rolled)
    assert line == "Bo rolled the Sovereign" == narration.roll_text("sovereign", "Bo")


def test_a_prompt_names_the_cards_its_decision_carries() -> None:
    state = tracked().state
    asking = Decision(Kind.TARGET, 0, "Ann: move which card under colonel-valentin?",
                      (Choose("darrow", Location.JUPITER, 0),),
                      Step("pull-under", 0, card="colonel-valentin"))
    assert narration.prompt_text(asking, state) == "Ann: move which card under Colonel Valentin?"
    hidden = narration.prompt_text(asking, state, lambda card: "a hidden card")
    assert hidden == "Ann: move which card under a hidden card?"


def test_au_tomas_turn_lists_her_steps_done_now_and_next() -> None:
    setup = new_solo_game("Ann", random.Random(5))
    game = Game(evolve_variants(setup), rng=random.Random(5))
    while narration.automa_turn(game.states) is None:
        game.play(game.legal_actions()[0])
    turn = narration.automa_turn(game.states)
    assert turn is not None and turn.card == game.state.automa.current
    assert [s.status for s in turn.steps][:1] == [narration.StepStatus.NOW]
    assert turn.steps[0].text().startswith("Deploy the deck's top card to ")
    now = turn.now
    assert now is not None and narration.automa_waits_for(now.event).startswith("The camera")
    game.play(now.event)
    later = narration.automa_turn(game.states)
    assert later is not None and later.steps[0].status is narration.StepStatus.DONE
    assert later.steps[0].event == now.event


def evolve_variants(setup: object) -> object:
    from dataclasses import replace

    return replace(setup, variants=(STEP_BY_STEP,))  # type: ignore[type-var]


def test_every_question_kind_has_words() -> None:
    state = tracked().state
    for kind in narration.Ask:
        q = narration.Phrasing(kind, location=Location.LUNA, again=True)
        assert narration.question_text(q).endswith(("?", ":"))
    readings = (narration.Reading((GainFrom(Location.MARS),)),
                narration.Reading((), narration.Answer.IGNORE),
                narration.Reading((SetTokens(0, 1, 0, 0),), narration.Answer.CORRECT),
                narration.Reading(()))
    texts = [narration.reading_text(r, state) for r in readings]
    assert texts == [f"Ann: gained {CARDS['colonel-valentin'].name} from Mars",
                     "The camera is wrong: ignore it",
                     "The table is as the camera sees it: correct it", "Nothing happened"]


def test_the_automa_player_name_is_not_doubled() -> None:
    setup = new_solo_game("Ann", random.Random(1))
    assert narration.event_text(setup).startswith("New game: ")
    assert f"{AUTOMA_NAME} (Au Toma)" not in narration.event_text(setup)
