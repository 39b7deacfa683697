"""Scripted games: the truth played one card at a time, and what a camera perceives."""

from __future__ import annotations

from engine.board import Location
from engine.decisions import Kind
from engine.events import Choose, Decline, DrawFromDeck, Lead, Place
from engine.game import Game
from engine.narration import Phrasing, Reading
from engine.state import Phase
from engine.tracking import UNEXPECTED, Button, Question, TableView
from engine.tracking.follow import Follow
from engine.tracking.replay import Drift, hiding, perfect_camera, replay_script
from engine.tracking.script import Moment, Oracle, Script, TakeBack, layout_of, write_script


def test_every_layout_is_the_table_after_its_event_in_order() -> None:
    script = write_script(3, seed=4)
    states = script.truth_states()
    assert states[-1].phase is Phase.OVER
    lengths = [m.truth_len for m in script.moments]
    assert lengths == sorted(lengths)
    for moment in script.moments:
        if moment.layout is not None:
            assert moment.layout == layout_of(states[moment.truth_len])
            assert layout_of(states[moment.truth_len - 1]) != moment.layout


def test_buttons_follow_the_deck_taken_and_a_scouted_card_placed() -> None:
    script = write_script(seed=1, automa_level=2)
    states = script.truth_states()
    pressed = {(m.truth_len, m.button) for m in script.moments if m.button is not None}
    for i, event in enumerate(script.truth):
        asked = states[i].pending
        if isinstance(event, DrawFromDeck):
            assert (i + 1, Button.DIE) in pressed
        if isinstance(event, Place) and asked is not None and asked.then.name == "scout-place":
            assert (i + 1, Button.NEXT) in pressed
    her_turns = sum(1 for m in script.moments if m.button is Button.AUTOMA)
    assert her_turns == states[-1].players[1].turns


def test_the_oracle_leaves_what_the_camera_sees_to_the_camera() -> None:
    script = write_script(3, seed=0)
    game = Game(script.tracked_setup, rng=script.companion_rng())
    oracle = Oracle(script)
    oracle.advance(len(script.truth))
    assert game.state.pending is not None and oracle.decide(game) is None  # a Lead or Scout


def _opening() -> tuple[Script, Oracle, Game]:
    """Four players, seed 9, before P3's opening deploy (Timony): the truth, its table
    having decided that deploy, and the tracked game."""
    script = write_script(4, seed=9)
    oracle = Oracle(script)
    oracle.advance(3)
    return script, oracle, Game(script.tracked_setup, rng=script.companion_rng())


def test_the_oracle_takes_back_a_deploy_the_player_never_made_once() -> None:
    """Four players, seed 9: P3 opens with Timony. A tracked game that reads Tactus
    there instead waits on Tactus's steal; people do not decline a card nobody played,
    they take the deploy back (UNDO), and only once: what the tracker reads next is
    its own to explain."""
    script, oracle, game = _opening()
    assert script.truth[1] == Lead("timony", Location.JUPITER)
    game.play(Lead("tactus", Location.MARS))
    assert game.state.pending is not None and game.state.pending.then.card == "tactus"
    assert oracle.decide(game) == TakeBack(1)
    assert oracle.decide(game) == Decline()


def test_the_deploy_is_found_however_many_steps_its_ability_took_since() -> None:
    # Tactus read in Timony's stead, its steal carried through (a seat, the block
    # declined, the stolen card named): the deploy, four events back, is still the one
    # taken back.
    _, oracle, game = _opening()
    game.play(Lead("tactus", Location.MARS))
    assert game.state.pending is not None
    game.play(game.state.pending.options[0])
    game.play(Decline())
    game.play(Choose("quietus"))
    assert len(game.log) == 5 and game.state.pending is not None
    assert oracle.decide(game) == TakeBack(1)


def test_a_block_asked_of_the_others_leaves_the_deploy_to_be_taken_back_later() -> None:
    # Tactus's steal aimed at P4, who may block it: the block is declined (nobody holds
    # one), and the deploy nobody made is still there to take back afterwards.
    _, oracle, game = _opening()
    game.play(Lead("tactus", Location.MARS))
    assert game.state.pending is not None
    game.play(game.state.pending.options[0])
    assert game.state.pending is not None and game.state.pending.kind is Kind.BLOCK
    assert oracle.decide(game) == Decline()
    assert oracle.taken_back == set()


def test_the_oracle_stands_by_a_deploy_in_a_reading_it_picked() -> None:
    # The table picked "P3 deployed Tactus" among the readings of a question: what
    # Tactus then asks is theirs to answer, never taken back.
    _, oracle, game = _opening()
    tactus = Lead("tactus", Location.MARS)
    asked = Phrasing(UNEXPECTED, (Reading((tactus,)),), game.state.current)
    assert oracle.answer(game, Question(asked, game.state), game.state) == 0
    game.play(tactus)
    assert oracle.decide(game) == Decline()


def test_the_oracle_never_takes_back_the_deploy_the_player_made() -> None:
    script, oracle, game = _opening()
    game.play(script.truth[1])  # Timony, as played: the gain is the camera's to see
    assert oracle.decide(game) is None


def test_the_oracle_tells_which_card_was_deployed_where_two_readings_swap_them() -> None:
    """Three players, seed 9 (as filmed on terrazzo): Luna unread while Psychologist is
    turned up and put on The Institute and Quietus deployed to Luna. "Quietus turned up,
    Psychologist deployed" leaves the same table, tokens and hand sizes, so the tracker
    asks; people know which card came from a hand, and the oracle must answer so. It
    took the first reading and turn 61 ended wrong."""
    script = write_script(3, seed=9)
    placed = script.truth.index(Place(Location.INSTITUTE, "psychologist"))
    assert script.truth[placed + 1] == Lead("quietus", Location.LUNA)
    moment = next(k for k, m in enumerate(script.moments) if m.truth_len == placed)
    drift, asked = Drift(script.truth_states()), [0]

    def watch(k: int, moment: Moment, view: TableView | None, follow: Follow) -> None:
        if view is not None:
            drift.view(follow.game.states, follow.questions > asked[0])
            asked[0] = follow.questions

    report = replay_script(script, hiding(perfect_camera, [(Location.LUNA, moment, 2)]),
                           watch=watch)
    assert asked[0] >= 1  # the swap went to the table
    assert drift.wrong == []
    assert report.problems == []


def test_a_reading_that_puts_no_card_down_is_not_the_oracles_pick_for_that_reason() -> None:
    """Six players, seed 15, Mars unread for five changes: among the readings of an
    order question, the empty one leads back to an earlier table, which the oracle
    knows. Putting nothing down, it has no deploy or placed card that could be wrong,
    and the oracle took it over the reading nearest the truth; the game stalled."""
    script = write_script(6, seed=15)
    report = replay_script(script, hiding(perfect_camera, [(Location.MARS, 140, 5)]))
    assert report.problems == []
