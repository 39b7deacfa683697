"""seat_total (the finale's ranking) adds the points without the scorepad's text."""

from __future__ import annotations

import random

from engine.automa import new_solo_game
from engine.endgame import final_table
from engine.game import Game
from engine.scoring import score, seat_total
from engine.simulate import simulate


def test_seat_total_matches_the_full_sheet_on_simulated_tables() -> None:
    games = simulate(players=4, games=6, seed=3) + simulate(
        players=2, games=4, seed=8, setup=lambda rng: new_solo_game("You", rng, level=4))
    assert len(games) == 10
    for result in games:
        table = final_table(Game.replay(result.log, rng=random.Random(0)).state)
        sheet = score(table, notes=False)
        for i, player in enumerate(sheet.players):
            assert seat_total(table, i) == player.total
