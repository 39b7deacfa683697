"""Voice: what is said about updates, and espeak-ng speaking without blocking."""

from __future__ import annotations

import random
import shutil
import threading
from pathlib import Path

import pytest
from devkit import two_player_setup

from device.demo import demo_setup
from device.hardware.capture import GLARE_HIDES, STACK_PAST_VIEW, glare_message, past_view_message
from device.hardware.voice import Announcer, Voice, sentences
from device.service import Update
from engine.events import DrawFromDeck, Face, Roll
from engine.game import Game
from engine.state import Change, Player, Trigger, evolve


def base_state():  # type: ignore[no-untyped-def]
    return Game(two_player_setup(), rng=random.Random(1)).state


def test_a_roll_is_announced_with_the_roller() -> None:
    state = evolve(base_state(), changes=(Change("roll", player=1, card="fleet"),))
    update = Update(3, "event", state, (DrawFromDeck(), Roll(Face.FLEET)))
    assert sentences(update, None) == ["Bo rolled Fleet."]


def test_au_tomas_steps_are_read_out() -> None:
    game = Game(demo_setup("Ann", random.Random(5)), rng=random.Random(5))
    while game.state.pending is None or not game.state.players[
            game.state.pending.player or 0].automa:
        before = game.state
        game.play(game.legal_actions()[0])
    said = sentences(Update(2, "event", game.state), before)
    card = game.state.automa.current
    assert said[-2] == f"Au Toma plays her card {card}."
    assert said[-1].startswith("Au Toma: Deploy the deck's top card to ")
    assert sentences(Update(3, "camera", game.state), game.state) == []  # said once
    step = game.state
    game.play(step.pending.options[0])
    assert sentences(Update(4, "event", game.state), step)[-1].startswith(
        "Au Toma: Gain the top card of ")


def test_au_tomas_turn_run_at_once_is_read_out() -> None:
    state = base_state()
    her = evolve(state, players=(state.players[0], Player("Au Toma", automa=True)))
    turn = (Change("turn", player=1), Change("place", card="darrow", target="luna"),
            Change("gain", player=1, card="sevro", source="mars"))
    assert sentences(Update(2, "event", evolve(her, changes=turn)), None) == [
        "Au Toma deploys Darrow to Luna.", "Au Toma gains Sevro from Mars."]


def test_end_game_alerts_fire_once() -> None:
    before = base_state()
    triggered = evolve(before, trigger=Trigger(0, 5, ("helium", "fleet")))
    first = sentences(Update(5, "event", triggered), before)
    assert len(first) == 1 and first[0].startswith("The end of the game is triggered.")
    assert sentences(Update(6, "event", triggered), triggered) == []


def test_notices_and_button_errors_are_spoken_other_errors_not() -> None:
    state = base_state()
    assert sentences(Update(1, "camera-lost", state), None) == [
        "Camera lost. The game is safe."]
    assert sentences(Update(1, "error", state, message="DIE: waiting for Ann",
                            source="button"), None) == ["waiting for Ann"]
    assert sentences(Update(1, "error", state, message="bad", source="web"), None) == []
    past = past_view_message("luna")
    assert sentences(Update(1, STACK_PAST_VIEW, state, message=past), None) == [past]
    glare = glare_message("mars")
    assert sentences(Update(1, GLARE_HIDES, state, message=glare), None) == [glare]


def test_voice_is_cleanly_off_without_its_program() -> None:
    voice = Voice(["no-such-speech-program-xyz"])
    assert not voice.enabled
    assert not voice.say("hello")
    voice.close()


def test_a_failing_speaker_is_reported_once_not_raised() -> None:
    false = shutil.which("false")
    if false is None:
        pytest.skip("no `false` program")
    failed = threading.Event()
    messages: list[str] = []

    def on_error(message: str) -> None:
        messages.append(message)
        failed.set()

    voice = Voice([false], on_error=on_error)
    assert voice.say("anything")
    assert voice.say("and more")
    assert failed.wait(5)
    voice.close()  # speaks what is queued first
    assert len(messages) == 1 and messages[0].startswith("voice failed")


def test_espeak_ng_speaks_queued_sentences(tmp_path: Path) -> None:
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed (apt install espeak-ng)")
    wav = tmp_path / "said.wav"
    spoken: list[str] = []
    done = threading.Event()

    def on_spoken(text: str) -> None:
        spoken.append(text)
        if len(spoken) == 2:
            done.set()

    # -w writes the speech to a file instead of a sound card (none in CI)
    voice = Voice(["espeak-ng", "-w", str(wav)], on_spoken=on_spoken)
    announcer = Announcer(voice)
    state = evolve(base_state(), changes=(Change("roll", player=0, card="helium"),))
    announcer(Update(1, "event", state, (Roll(Face.HELIUM),)))  # returns at once
    voice.say("Camera back.")
    assert done.wait(20)
    voice.close()
    assert spoken == ["Ann rolled Helium.", "Camera back."]
    assert wav.read_bytes()[:4] == b"RIFF" and wav.stat().st_size > 1000
