"""Replaying games through the companion: scripted ones, and recorded game folders.

:func:`replay_script` feeds a :class:`~engine.tracking.script.Script` (a whole game the bots
played) through the tracker and the engine, as a camera and the buttons would perceive
it, with an :class:`~engine.tracking.script.Oracle` standing in for the people at the table, and
checks the result against the truth: the tokens after every turn, the turn the end was
triggered, the final scores. ``perceive`` turns each layout into a camera view: the
default is a perfect camera; the vision pipeline plugs in here (frames rendered by the
scene generator, scanned and stabilised), and :func:`hiding` makes any camera blind at
a location for stretches of the game (a lamp's reflection, say).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from engine.board import LOCATIONS, Location
from engine.endgame import final_table
from engine.errors import IllegalActionError
from engine.game import Game
from engine.scoring import score
from engine.state import GameState, Phase
from engine.tracking.follow import Follow
from engine.tracking.question import LOCATION
from engine.tracking.script import (
    Layout,
    Moment,
    Oracle,
    Script,
    TakeBack,
    layout_of,
    same_knowledge,
    same_layout,
    view_of_layout,
)
from engine.tracking.tracker import Tracker
from engine.tracking.view import Seen, TableView, Unread
from engine.wording import event_text

Perceive = Callable[[Moment], "TableView | None"]
Clock = Callable[[], float]
# Called after each moment is perceived and the table has answered: its number, the
# moment, the view the camera handed on (None: none) and the game as tracked.
Watch = Callable[[int, Moment, "TableView | None", Follow], None]
TokenRow = tuple[tuple[int, int, int], ...]  # per player: helium, influence, fleet


def _no_clock() -> float:
    return 0.0


@dataclass
class Report:
    """How the companion did on one game, compared with the truth."""

    truth_turns: list[tuple[TokenRow, int | None]] = field(default_factory=list)
    tracked_turns: list[tuple[TokenRow, int | None]] = field(default_factory=list)
    truth_trigger: tuple[int, int] | None = None
    tracked_trigger: tuple[int, int] | None = None
    truth_scores: tuple[int, ...] = ()
    tracked_scores: tuple[int, ...] = ()
    turns: int = 0
    moves: int = 0  # events played by people's actions (not setup, not chance)
    inferred: int = 0  # of those, inferred from the camera without a question
    asked: int = 0  # settled by answering a tracker question
    table: int = 0  # answered on the phone or by a button
    questions: int = 0
    question_kinds: dict[str, int] = field(default_factory=dict)  # Question.kind → count
    corrections: int = 0  # answers that corrected the table (must be 0 for a clean game)
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)

    @property
    def matches(self) -> bool:
        return not self.problems

    @property
    def inferred_share(self) -> float:
        return self.inferred / self.moves if self.moves else 1.0


def perfect_camera(moment: Moment) -> TableView | None:
    """A camera that sees every layout exactly."""
    return view_of_layout(moment.layout) if moment.layout is not None else None


def strip_camera(moment: Moment) -> TableView | None:
    """A perfect camera that also names every face-up covered card by its strip."""
    return view_of_layout(moment.layout, strips=True) if moment.layout is not None else None


def miscounting(rate: float, rng: random.Random, camera: Perceive = perfect_camera) -> Perceive:
    """``camera``, reading one stack's count one card off (deeper or shallower) in
    ``rate`` of its views: a stack whose top it names and that holds more than one card,
    the camera path's usual misreading."""

    def perceive_miscounting(moment: Moment) -> TableView | None:
        view = camera(moment)
        if view is None:
            return None
        named = [(i, s) for i, s in enumerate(view)
                 if isinstance(s, Seen) and s.top and s.depth > 1]
        if not named or rng.random() >= rate:
            return view
        (i, there), off = rng.choice(named), rng.choice((-1, 1))
        seen = list(view)
        seen[i] = replace(there, depth=there.depth + off)
        return (seen[0], seen[1], seen[2], seen[3])

    return perceive_miscounting


def replay_script(script: Script, perceive: Perceive = perfect_camera,
                  clock: Clock = _no_clock, watch: Watch | None = None,
                  tracker: Tracker | None = None) -> Report:
    """Run a scripted game through tracker and engine; compare with the truth.

    ``clock`` times it (the engine reads no clock itself: pass ``time.perf_counter``);
    ``watch`` sees every moment as it is tracked (to log where a game goes astray);
    ``tracker`` follows the table (a default one if not given).
    """
    started = clock()
    follow = Follow(Game(script.tracked_setup, rng=script.companion_rng()),
                    tracker=tracker or Tracker())
    oracle = Oracle(script)
    report = Report()
    moments = script.moments
    upcoming = horizons(script)
    if moments:
        oracle.advance(moments[0].truth_len)
        _settle(follow, oracle, report)
    table: Layout | None = None  # the table as it lies now
    for k, moment in enumerate(moments):
        if moment.button is not None:
            follow.on_button(moment.button)
        table = moment.layout or table
        view = perceive(moment)
        if view is not None:
            follow.on_view(view)
        # People answer the phone between physical actions, not in the middle of one
        # (a button pressed as part of the action just seen, NEXT once a scouted card
        # lies, comes first): whatever they decide before the table's next visible change.
        if upcoming[k] != moment.truth_len or k + 1 == len(moments):
            oracle.advance(upcoming[k])
            _settle(follow, oracle, report, table)
        if watch is not None:
            watch(k, moment, view, follow)
    if _still_unread(follow):  # the table waits at the end: time passes, the page asks
        _settle(follow, oracle, report, table)
    report.seconds = clock() - started
    _compare(script, follow, oracle, report)
    return report


def horizons(script: Script) -> list[int]:
    """For each moment, the truth's length at the next change a camera could see (a card
    moved within its own stack changes nothing a camera sees) or a button press."""
    visible = []
    last = None
    for moment in script.moments:
        view = view_of_layout(moment.layout) if moment.layout is not None else None
        visible.append(moment.button is not None or (view is not None and view != last))
        last = view or last
    out = []
    upcoming = len(script.truth)
    for moment, seen in zip(reversed(script.moments), reversed(visible), strict=True):
        out.append(upcoming)
        if seen:
            upcoming = moment.truth_len
    return out[::-1]


def _still_unread(follow: Follow) -> bool:
    """Make the locations still unread when the moments run out overdue; any?"""
    view = follow.last_view
    if view is None or not any(isinstance(seen, Unread) for seen in view):
        return False
    follow.on_view(tuple(Unread(overdue=True) if isinstance(seen, Unread) else seen
                         for seen in view))  # type: ignore[arg-type]
    follow.on_idle()
    return True


def _settle(follow: Follow, oracle: Oracle, report: Report, table: Layout | None = None,
            ) -> None:
    """Let the table answer open questions and decisions only it can answer."""
    for _ in range(200):
        question = follow.tracker.question
        if question is not None and question.kind is LOCATION:
            assert question.location is not None
            follow.on_tell(question.location, oracle.tell(question.location, table))
            continue
        if question is not None:
            anchor = follow.game.states[follow.tracker.anchor]
            index = oracle.answer(follow.game, question, anchor)
            if not question.readings[index].from_anchor and question.readings[index].events:
                report.corrections += 1
            follow.on_answer(index)
            continue
        event = oracle.decide(follow.game, asked=follow.tracker.waits_for_table(follow.game))
        if event is None:
            return
        if isinstance(event, TakeBack):
            follow.take_back(event.length)
            continue
        try:
            follow.on_event(event)
        except IllegalActionError as exc:  # the tracked game went astray; report it
            report.problems.append(f"the table's answer {event_text(event)} was refused: {exc}")
            return
    report.problems.append(f"the table kept answering: {follow.game.state.fen()}")


# A location stays unread for this many of a camera's views before the table is asked
# (the scripted camera takes about 1.3 s per change, so a few seconds).
OVERDUE_VIEWS = 3


def hiding(perceive: Perceive, stretches: Sequence[tuple[Location, int, int]],
           overdue_after: int = OVERDUE_VIEWS) -> Perceive:
    """``perceive``, blind at a location for stretches of the game.

    ``stretches``: (location, first moment, moments). While one lasts, the location
    reads :class:`~engine.tracking.Unread`, overdue from its ``overdue_after``-th view.
    """
    moments = 0
    views: Counter[int] = Counter()  # views seen so far in each stretch

    def perceive_hiding(moment: Moment) -> TableView | None:
        nonlocal moments
        k, moments = moments, moments + 1
        view = perceive(moment)
        if view is None:
            return None
        seen = list(view)
        for n, (loc, first, length) in enumerate(stretches):
            if first <= k < first + length:
                views[n] += 1
                seen[loc.pos] = Unread(overdue=views[n] >= overdue_after)
        return (seen[0], seen[1], seen[2], seen[3])

    return perceive_hiding


def random_stretches(moments: int, rate: float, rng: random.Random,
                     lengths: tuple[int, int] = (5, 15)) -> list[tuple[Location, int, int]]:
    """Stretches for :func:`hiding`: at each moment with none under way, one begins with
    probability ``rate``, at a random location, lasting ``lengths`` moments (inclusive)."""
    out: list[tuple[Location, int, int]] = []
    k = 0
    while k < moments:
        if rng.random() < rate:
            length = rng.randint(*lengths)
            out.append((rng.choice(LOCATIONS), k, length))
            k += length
        else:
            k += 1
    return out


def _compare(script: Script, follow: Follow, oracle: Oracle, report: Report) -> None:
    truth = oracle.states[-1]
    report.turns = sum(p.turns for p in truth.players)
    report.questions = follow.questions
    report.question_kinds = dict(Counter(follow.kinds))
    report.inferred = follow.count("camera")
    report.asked = follow.count("asked")
    report.table = follow.count("table")
    report.moves = report.inferred + report.asked + report.table
    compare(oracle.states, follow.game.states, report)
    if report.corrections:
        report.problems.append(f"{report.corrections} corrections were needed")


def compare(truth: Sequence[GameState], tracked: Sequence[GameState],
            report: Report) -> None:
    """Fill ``report`` with how the tracked game's states compare with the truth's: the
    tokens and the Sovereign after every turn, the end's trigger, the final scores;
    each difference becomes one of its problems."""
    report.truth_turns = turn_rows(list(truth))
    report.tracked_turns = turn_rows(list(tracked))
    report.truth_trigger = _trigger(truth[-1])
    report.tracked_trigger = _trigger(tracked[-1])
    if tracked[-1].phase is not Phase.OVER:
        report.problems.append(f"the tracked game did not end: {tracked[-1].fen()}")
    else:
        report.truth_scores = _totals(truth[-1])
        report.tracked_scores = _totals(tracked[-1])
    if report.truth_turns != report.tracked_turns:
        report.problems.append(_first_difference(report))
    if report.truth_trigger != report.tracked_trigger:
        report.problems.append(
            f"end triggered at {report.tracked_trigger}, truth {report.truth_trigger}")
    if report.truth_scores != report.tracked_scores:
        report.problems.append(
            f"scores {report.tracked_scores}, truth {report.truth_scores}")


def turn_rows(states: list[GameState]) -> list[tuple[TokenRow, int | None]]:
    """Everyone's tokens and the Sovereign's holder after every completed turn."""
    rows = []
    done = 0
    for state in states:
        turns = sum(p.turns for p in state.players)
        if turns > done:
            done = turns
            rows.append((tuple((p.helium, p.influence, p.fleet) for p in state.players),
                         state.sovereign))
    return rows


def _trigger(state: GameState) -> tuple[int, int] | None:
    return (state.trigger.player, state.trigger.turn) if state.trigger else None


def _totals(state: GameState) -> tuple[int, ...]:
    return tuple(p.total for p in score(final_table(state)).players)


def _first_difference(report: Report) -> str:
    for i, (mine, real) in enumerate(zip(report.tracked_turns, report.truth_turns,
                                         strict=False)):
        if mine != real:
            return f"after turn {i + 1} the tokens are {mine}, truth {real}"
    return (f"{len(report.tracked_turns)} turns tracked, "
            f"truth {len(report.truth_turns)}")


# --- does the tracked game stray from the truth unasked? ---------------------------------


def agrees(tracked: GameState, truth: GameState) -> bool:
    """Could the table in ``truth`` be the one ``tracked`` holds? The stacks (cards the
    tracked game has not named match any) and what people know: tokens, hands, the
    banished pile, the Sovereign."""
    return len(tracked.players) == len(truth.players) and same_layout(
        layout_of(tracked), layout_of(truth)) and same_knowledge(tracked, truth)


@dataclass
class Drift:
    """Watches a tracked game against the truth, view by view, for a wrong move standing
    unasked: as each turn ends, the table, the tokens and the hands it left are compared
    with the truth's at the end of the same turn (the tracked game may lag behind the
    table, waiting for the die or an answer, but a turn it has ended must be the
    truth's). A turn ended wrong is *silent* when neither the view that ended it nor
    the next one comes with a question open."""

    truth: Sequence[GameState]
    ended: int = 0  # turns compared so far
    wrong: list[int] = field(default_factory=list)  # turns that ended unlike the truth's
    silent: int | None = None  # the first wrong turn no question followed
    _unasked: int | None = None  # the first wrong turn since the last question
    _views: int = 0  # views since then
    _ends: dict[int, GameState] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._ends = _turn_ends(self.truth)

    def view(self, tracked: Sequence[GameState], asking: bool) -> None:
        """After a view (``tracked``: the game's states so far; ``asking``: a question
        is open)."""
        turns = _turn_ends(tracked)
        while self.ended < max(turns, default=0):
            self.ended += 1
            mine, real = turns.get(self.ended), self._ends.get(self.ended)
            if mine is None or real is None or not agrees(mine, real):
                self.wrong.append(self.ended)
                if self._unasked is None:
                    self._unasked, self._views = self.ended, 0
        if asking:
            self._unasked = None
        elif self._unasked is not None:
            self._views += 1
            if self._views > 1 and self.silent is None:
                self.silent = self._unasked


def _turn_ends(states: Sequence[GameState]) -> dict[int, GameState]:
    """Each turn count → the first state in which that many turns were over."""
    out: dict[int, GameState] = {}
    for state in states:
        turns = sum(p.turns for p in state.players)
        if turns and turns not in out:
            out[turns] = state
    return out
