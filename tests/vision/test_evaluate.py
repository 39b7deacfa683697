"""The benchmarks' scoring of a still game: a card misread is wrong; the card settled
before, held while the camera reads something else (nothing, or the new card not
settled yet), is stale, and counted apart."""

from __future__ import annotations

from types import SimpleNamespace

from vision.calibrate import Calibration
from vision.evaluate import Settled
from vision.scanner import LocationReading, Sight, TableReading
from vision.synth.scene import LocationTruth, SceneTruth

CORNERS = ((0.0, 0.0), (100.0, 0.0), (100.0, 80.0), (0.0, 80.0))


def test_a_stale_card_is_not_counted_as_a_misread() -> None:
    truth = SceneTruth(Calibration(CORNERS), {
        "jupiter": LocationTruth("card", "eo", 2), "mars": LocationTruth("card", "aja", 1),
        "luna": LocationTruth("empty", None, 0), "institute": LocationTruth("empty", None, 0)})
    stable = {"jupiter": SimpleNamespace(state=Sight.CARD, top="sevro", depth=1),  # held
              "mars": SimpleNamespace(state=Sight.CARD, top="darrow", depth=1),  # misread
              "luna": SimpleNamespace(state=Sight.CARD, top="cassius", depth=1),  # lags
              "institute": SimpleNamespace(state=Sight.EMPTY, top=None, depth=0)}
    last = TableReading({"jupiter": LocationReading(Sight.OCCLUDED, reason="glare"),
                         "mars": LocationReading(Sight.CARD, "darrow", 0.9, 1),
                         "luna": LocationReading(Sight.EMPTY),
                         "institute": LocationReading(Sight.EMPTY)})
    tally = Settled()
    tally.add(truth, stable, last)
    assert (tally.counts["wrong"], tally.counts["stale"], tally.counts["top"]) == (1, 2, 1)


def test_a_lamp_pair_is_one_scene_with_and_without_a_card_at_the_empty_place() -> None:
    from vision.evaluate import lamp_beside_empty

    for pair in lamp_beside_empty(1, seed=7, style="classic"):
        (empty, before), (laid, after) = pair.empty, pair.laid
        assert before.calibration == after.calibration  # the same camera
        assert before.locations[pair.location].state == "empty"
        assert after.locations[pair.location].depth == 1
        others = [n for n in before.locations if n != pair.location]
        assert all(before.locations[n].top == after.locations[n].top for n in others)
        assert empty.shape == laid.shape and (empty != laid).any()
