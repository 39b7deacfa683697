"""Draft.freeze: a state holds exactly its fields, whatever the rules touched."""

from __future__ import annotations

import random
from dataclasses import fields

from engine.game import Game
from engine.setup import new_game
from engine.state import GameState


def test_frozen_states_hold_exactly_the_state_fields() -> None:
    rng = random.Random(4)
    game = Game(new_game(["Ann", "Bo", "Cy"], rng), rng=rng)
    names = {f.name for f in fields(GameState)}
    for _ in range(120):
        if game.is_over:
            break
        game.play(rng.choice(game.legal_actions()))
        assert set(vars(game.state)) == names
    assert all(isinstance(vars(s)["players"], tuple) for s in game.states)



def test_known_cards_are_exactly_the_cards_known_elsewhere() -> None:
    # Naming an unseen card gathers the known cards once (known_cards); it must agree,
    # card by card, with is_known_elsewhere: in a simulated game (the deck known) and in
    # a tracked one (hands and deck unknown, only the table seen).
    from engine.cards import ALL_IDS
    from engine.draft import Draft
    from engine.tracking.script import write_script

    rng = random.Random(7)
    game = Game(new_game(["Ann", "Bo", "Cy"], rng), rng=rng)
    for _ in range(80):
        if game.is_over:
            break
        game.play(rng.choice(game.legal_actions()))
    tracked = Game()
    tracked.play(write_script(3, seed=2).tracked_setup)
    for state in (*game.states[::10], tracked.state):
        draft = Draft(state)
        assert draft.known_cards() == {c for c in ALL_IDS if draft.is_known_elsewhere(c)}
    assert len(Draft(tracked.state).known_cards()) == 8  # the eight cards laid out
