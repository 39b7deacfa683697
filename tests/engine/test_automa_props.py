"""Properties: the engine's step-by-step turn does exactly what :func:`outcome` and
:func:`instructions` announce, in simulation and while tracking."""

from __future__ import annotations

from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_automa import HER, run_card, solo, with_tokens
from test_automa_game import tracked

from engine.automa import AutomaBanish, Situation, instructions, outcome, solo_card_ids
from engine.board import LOCATIONS, Bonus, Location
from engine.decisions import Kind
from engine.events import Event, Place
from engine.game import Game
from engine.state import Slot

POOL = [c for c in solo_card_ids() if c not in ("judge", "dancer", "harmony")]


@settings(max_examples=150, deadline=None)
@given(
    card=st.integers(1, 22),
    priorities=st.sampled_from(list(permutations(LOCATIONS))),
    counts=st.tuples(*[st.integers(0, 3)] * 4),
    tokens=st.tuples(st.integers(0, 12), st.integers(0, 10), st.integers(0, 10)),
)
def test_engine_does_what_outcome_says(card: int, priorities: tuple[Location, ...],
                                       counts: tuple[int, ...],
                                       tokens: tuple[int, int, int]) -> None:
    cards = iter(POOL)
    stacks = [[next(cards) for _ in range(n)] for n in counts]
    setup = solo(hand=("judge",), stacks=stacks, cards=(card,), priorities=priorities)
    before = with_tokens(Game(setup).state, *tokens)
    done = outcome(Situation.of(before), before.automa.card(card))  # type: ignore[union-attr]
    after = run_card(before)
    her, was = after.players[HER], before.players[HER]
    assert done.deploy is not None and before.deck is not None
    expected = [list(s) for s in before.locations]
    expected[done.deploy.pos].append(Slot(before.deck[0]))
    assert done.gain is not None
    taken = expected[done.gain.pos].pop()
    assert [list(s) for s in after.locations] == expected
    assert her.hand.known == (*was.hand.known, taken.card)
    gains = {Bonus.HELIUM: her.helium - was.helium, Bonus.FLEET: her.fleet - was.fleet,
             Bonus.INFLUENCE: her.influence - was.influence}
    assert gains == {b: done.bonus.count(b) for b in gains}
    assert (after.sovereign == HER) is (Bonus.SOVEREIGN in done.bonus)
    assert after.banished == ((before.deck[1],) if done.banish else ())


@pytest.mark.parametrize("card", range(1, 23))
def test_tracking_prompts_are_the_instructions(card: int) -> None:
    game = tracked(card)
    announced = [s for s in instructions(game.state, card) if s.expect is not None]
    names = iter(("judge", "nero", "lorn", "cassius"))
    prompts = []
    while game.pending is not None and game.pending.kind is Kind.CONFIRM:
        assert game.pending.player == HER
        prompts.append(game.pending.prompt)
        (option,) = game.pending.options
        answer: Event = option
        if isinstance(option, Place):
            answer = Place(option.location, next(names))  # the camera names the card
        elif isinstance(option, AutomaBanish):
            answer = AutomaBanish(next(names))
        game.play(answer)
        if len(prompts) == len(announced):
            break
    assert prompts == [s.text for s in announced]
    assert game.state.automa is not None and game.state.automa.discards == (card,)

