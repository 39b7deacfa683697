"""Progress of long work: a bar in a terminal, a plain line every few seconds elsewhere,
nothing when quiet, and nothing at all for work shorter than those few seconds."""

from __future__ import annotations

import io

import pytest

from vision.progress import Progress


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_pipe_gets_a_plain_line_every_few_seconds_with_the_count_and_time_left() -> None:
    clock, out = Clock(), io.StringIO()
    with Progress("cards enroll", stream=out, every=5.0, clock=clock) as progress:
        progress.stage("photos", 112)
        for _ in range(40):
            clock.now += 0.25  # 40 photos in 10 s: 72 left take 18 s more
            progress.advance()
    lines = out.getvalue().splitlines()
    assert lines[0] == "cards enroll: photos 20/112 (17 %), about 23 s left"
    assert lines[1] == "cards enroll: photos 40/112 (35 %), about 18 s left"
    assert lines[-1] == "cards enroll: done in 10 s"
    assert len(lines) == 3


def test_quick_work_prints_nothing_in_a_pipe() -> None:
    clock, out = Clock(), io.StringIO()
    with Progress("simulate", stream=out, clock=clock) as progress:
        for _ in progress.track(range(50), "games"):
            clock.now += 0.01
    assert out.getvalue() == ""


def test_quiet_prints_nothing_however_long_it_takes() -> None:
    clock, out = Clock(), Terminal()
    with Progress("train", stream=out, clock=clock, quiet=True) as progress:
        for _ in progress.track(range(10), "steps"):
            clock.now += 60
        progress.note("loss 0.1")
    assert out.getvalue() == ""


def test_a_terminal_gets_a_bar_with_the_stage_and_count_then_it_is_cleared() -> None:
    out = Terminal()
    with Progress("replay", stream=out) as progress:
        seen = list(progress.track(["a", "b", "c"], "frames"))
        drawn = out.getvalue()
    assert seen == ["a", "b", "c"]
    assert "replay: frames" in drawn and "0/3" in drawn
    last = out.getvalue().rsplit("\r", 2)[-2]
    assert last.strip() == "", "the finished bar is wiped, leaving the line to the output"


def test_a_note_and_a_stage_without_a_count_read_plainly() -> None:
    clock, out = Clock(), io.StringIO()
    progress = Progress("train", stream=out, every=1.0, clock=clock)
    progress.stage("steps", 700)
    progress.note("loss 0.412")
    clock.now += 2
    progress.advance(70)
    progress.stage("export")
    clock.now += 2
    progress.advance()
    assert out.getvalue().splitlines() == [
        "train: steps 70/700 (10 %), about 18 s left; loss 0.412", "train: export 1"]


def test_an_error_ends_the_progress_without_a_done_line() -> None:
    clock, out = Clock(), io.StringIO()
    with pytest.raises(ValueError), Progress("cards enroll", stream=out, every=1.0,
                                             clock=clock) as progress:
        progress.stage("photos", 3)
        clock.now += 2
        progress.advance()
        raise ValueError("no card can be cut out of x.jpg")
    assert out.getvalue().splitlines() == ["cards enroll: photos 1/3 (33 %), about 4 s left"]


def test_a_callback_step_counts_whatever_it_is_handed() -> None:
    progress = Progress("simulate", quiet=True)
    progress.stage("games", 3)
    for index in range(3):
        progress.tick(index)
    assert progress.done == 3
