"""Whole scripted games through the real camera path, as `benchmarks/tracking.py --camera`
measures them: every change of the table drawn frame by frame by the scene generator
(hands over the changing locations, light drifting, sensor noise, JPEG), scanned with
the committed classifier, settled by the stabiliser, then tracked and compared with the
truth. Then a slip through the same camera: a card put down on the wrong stack first;
and something left lying over one location for a while. The slowest tests in the suite,
and the most telling.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from device.perception import Perception, ScriptedCamera, camera_perceiver
from engine.tracking import LOCATION, UNEXPECTED, TableView
from engine.tracking.replay import Perceive, Report, perfect_camera, replay_script
from engine.tracking.script import Moment, Script, write_script
from vision.scanner import TableScanner
from vision.stabilize import Stabilizer

# The slips these games replay are the engine's whole-game tests' own (their folder is
# on the path only once pytest collects it, which may be after this one).
sys.path.append(str(Path(__file__).resolve().parents[1] / "engine" / "tracking"))
_whole_games = importlib.import_module("test_whole_games")
_misplaced_first, _new_questions = _whole_games._misplaced_first, _whole_games._new_questions

pytestmark = pytest.mark.slow
SHARED = pytest.mark.xdist_group("three-player-camera")  # both use the module fixture
SEED = 1  # of the 3-player game; benchmarks/tracking.py --camera reports seeds 0-2


def through_the_camera(script: Script, seed: int) -> Report:
    perception = Perception(TableScanner(), Stabilizer())
    return replay_script(script, camera_perceiver(perception, ScriptedCamera(seed=seed)))


@pytest.fixture(scope="module")
def three_players() -> tuple[Script, Report]:
    script = write_script(3, seed=SEED)
    return script, through_the_camera(script, SEED)


@SHARED
def test_a_three_player_game_through_the_camera_matches_the_truth(
        three_players: tuple[Script, Report]) -> None:
    _, report = three_players
    assert report.matches, report.problems
    assert report.turns >= 25 and report.corrections == 0
    assert report.tracked_scores == report.truth_scores


def test_a_solo_game_through_the_camera_matches_the_truth() -> None:
    report = through_the_camera(write_script(seed=0, automa_level=2), seed=0)
    assert report.matches, report.problems
    assert report.corrections == 0
    assert report.tracked_trigger == report.truth_trigger


@SHARED
def test_a_card_put_down_on_the_wrong_stack_is_one_question_through_the_camera(
        three_players: tuple[Script, Report]) -> None:
    script, clean = three_players
    report = through_the_camera(_misplaced_first(script), SEED)  # then moved right
    assert _new_questions(clean, report) == {UNEXPECTED: 1}
    assert report.matches and report.corrections == 0


def test_something_left_over_a_location_is_one_question_through_the_camera() -> None:
    """An object lies over Luna for ten changes of the table (the locator reads nothing
    there), filmed through the whole camera path around it (perfect views elsewhere keep
    the test short): the game goes on, the table is asked once, and it ends as played."""
    script = write_script(3, seed=SEED)
    report = replay_script(script, _filmed_between(24, 44, covered=(28, 38), seed=SEED))
    assert _new_questions(replay_script(script), report) == {LOCATION: 1}
    assert report.matches, report.problems
    assert report.corrections == 0


def _filmed_between(first: int, last: int, covered: tuple[int, int], seed: int) -> Perceive:
    """Moments ``first``..``last`` through the camera, Luna covered in ``covered``."""
    k = -1

    def cover(_: int) -> tuple[str, ...]:
        return ("luna",) if covered[0] <= k < covered[1] else ()

    camera = camera_perceiver(Perception(TableScanner(), Stabilizer()),
                              ScriptedCamera(seed=seed), cover)

    def perceive(moment: Moment) -> TableView | None:
        nonlocal k
        k += 1
        return camera(moment) if first <= k < last else perfect_camera(moment)

    return perceive
