"""The page on phones, in every state of a game: it fits, it is readable, it hides ids.

Five states (no game yet, a turn in play, a question from the camera, Au Toma's turn,
game over), each served by its own app, are opened in one chromium at 360, 390 and 412
px, locked and unlocked. In each: nothing scrolls sideways, the tokens table and the
step in progress are on the first screen, axe-core finds nothing serious or critical,
and no card id reaches the text. Screenshots go to ``tests/artifacts/`` (git-ignored).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from pagekit import (
    CHROMIUM,
    HEIGHT,
    PIN,
    Rolls,
    make_app,
    phone_browser,
    play_demo_until,
    running,
    tracked_setup,
)

from device.journal import Journal
from device.service import Service
from engine import narration
from engine.board import Location
from engine.cards import CARDS
from engine.events import GainFrom
from engine.game import Game
from engine.state import Phase
from web import Server

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
WIDTHS = (360, 390, 412)
STATES = ("setup", "playing", "question", "automa", "over")
SLUGS = re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, CARDS), key=len, reverse=True))
                   + r")\b")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.xdist_group("phone"),  # one worker builds the games and the browser once
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="needs Debian's chromium at /usr/bin/chromium"),
]


def _question(service: Service) -> None:
    """The camera asks which covered card left Mars (a structured question)."""
    ask = narration.Phrasing(narration.Ask.COVERED_CARD, (
        narration.Reading((GainFrom(Location.MARS),)),
        narration.Reading((), narration.Answer.IGNORE)), player=0, location=Location.MARS)
    service.question = SimpleNamespace(ask=ask, prompt="(the tracker's own words)",
                                       readings=(), kind=ask.kind.value)


def _services(stack: ExitStack) -> dict[str, Service]:
    out = {
        "setup": stack.enter_context(running(Game())),
        "playing": stack.enter_context(running(Game(tracked_setup(), rng=Rolls()))),
        "question": stack.enter_context(running(Game(tracked_setup(), rng=Rolls()))),
    }
    _question(out["question"])
    automa = stack.enter_context(running(Game()))
    play_demo_until(automa, _her_second_step)
    out["automa"] = automa
    over = Service(rng=random.Random(3), journal=Journal(":memory:"))  # finished games
    over.start()
    stack.callback(over.stop)
    play_demo_until(over, lambda s: s.phase is Phase.OVER)
    out["over"] = over
    return out


def _her_second_step(state: Any) -> bool:
    """Her card is out and her deploy is done: steps done, in progress and to come."""
    turn = narration.automa_turn([state])
    pending = state.pending
    return (turn is not None and pending is not None and pending.player == turn.seat
            and type(pending.options[0]).__name__ == "AutomaGain")


@pytest.fixture(scope="module")
def servers() -> Iterator[dict[str, Server]]:
    with ExitStack() as stack:
        services = _services(stack)
        yield {name: stack.enter_context(Server(make_app(service)))
               for name, service in services.items()}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with phone_browser() as context:
        yield context


def _open(browser: Any, server: Server) -> tuple[Any, list[str]]:
    browser.clear_cookies()
    page = browser.new_page()
    missing: list[str] = []
    page.on("response", lambda r: missing.append(r.url) if r.status >= 400 else None)
    page.goto(server.url + "/")
    page.wait_for_selector("#live.on", timeout=5000)
    page.wait_for_selector("#locations .location", timeout=5000)
    return page, missing


def _unlock(page: Any) -> None:
    page.click("#lock")
    page.fill("#pin", PIN)
    page.click("#pin-form button[type=submit]")
    page.wait_for_selector("#new-game:not([hidden])", timeout=3000)


def _check_widths(page: Any, name: str, locked: str) -> list[str]:
    problems = []
    ARTIFACTS.mkdir(exist_ok=True)
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": HEIGHT})
        scroll = page.evaluate("document.scrollingElement.scrollWidth")
        if scroll > width:
            problems.append(f"{name} {locked} at {width}: {scroll} px wide")
        page.screenshot(path=str(ARTIFACTS / f"phone-{name}-{locked}-{width}.png"),
                        full_page=True)
    page.set_viewport_size({"width": 390, "height": HEIGHT})
    return problems


def _audit(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [f"{v['id']} ({v['impact']}): {v['help']} — {v['nodes'][0]['target']}"
            for v in found if v["impact"] in ("serious", "critical")]


def _bottom(page: Any, selector: str) -> float:
    return float(page.evaluate(f"document.querySelector('{selector}')"
                               ".getBoundingClientRect().bottom"))


@pytest.mark.parametrize("name", STATES)
def test_every_state_fits_reads_and_hides_ids(browser: Any, servers: dict[str, Server],
                                              name: str) -> None:
    page, missing = _open(browser, servers[name])
    try:
        problems = _check_widths(page, name, "locked")
        problems += _audit(page)
        text = page.inner_text("body")
        _unlock(page)
        problems += _check_widths(page, name, "unlocked")
        problems += _audit(page)
        text += page.inner_text("body")
        assert not problems, problems
        assert not SLUGS.findall(text), sorted(set(SLUGS.findall(text)))
        assert not missing, missing  # no 404 (the favicon) or refused request
        if name != "setup":
            assert _bottom(page, "#players") <= HEIGHT  # every player's tokens, first screen
            assert page.locator("#step").is_visible()
            assert page.inner_text("#step").strip()  # the step in progress, in the header
    finally:
        page.close()


def test_au_tomas_turn_is_a_card_of_its_own(browser: Any, servers: dict[str, Server]) -> None:
    page, _ = _open(browser, servers["automa"])
    try:
        card = page.locator("#automa-turn")
        assert card.is_visible() and _bottom(page, "#automa-waiting") <= HEIGHT
        assert re.fullmatch(r"Au Toma plays her card \d+", page.inner_text("#automa-title"))
        steps = card.locator("#automa-steps li")
        assert steps.nth(0).get_attribute("class") == "done"
        assert steps.nth(1).get_attribute("class") == "now"
        assert steps.nth(1).text_content().startswith("Now: Gain the top card of")
        assert page.inner_text("#automa-waiting").startswith("The camera waits for")
        assert page.inner_text("#step") == page.inner_text("#automa-waiting")
        assert page.locator("#decision").is_hidden()  # her step is answered from her card
    finally:
        page.close()


def test_game_over_puts_the_winner_and_scorepad_first(browser: Any,
                                                      servers: dict[str, Server]) -> None:
    page, _ = _open(browser, servers["over"])
    try:
        assert page.inner_text("#turn") == "Game over"
        assert re.match(r"Winners?: ", page.inner_text("#winners"))
        assert _bottom(page, "#winners") <= HEIGHT
        row = page.locator("#scorepad-table tbody tr").first
        reasons = page.locator("#scorepad-table tr.why").first
        assert reasons.is_hidden()
        row.get_by_role("button").click()
        assert reasons.is_visible() and row.get_by_role("button").get_attribute(
            "aria-expanded") == "true"
        games = page.locator("#finished-list li")
        assert games.count() == 1 and " won" in games.first.inner_text()
        # The game just kept: log it in BG Stats, or open its plots and log in /games.
        bgstats = page.get_by_role("link", name="Log in BG Stats").get_attribute("href")
        assert bgstats.startswith("bgstats://app.bgstatsapp.com/createPlay.html?data=")
        opened = page.get_by_role("link", name="How the game went").get_attribute("href")
        assert opened == games.first.locator("a").get_attribute("href")
        assert re.fullmatch(r"/games#game-\d+", opened)
    finally:
        page.close()


def test_the_question_is_worded_by_the_narration(browser: Any,
                                                 servers: dict[str, Server]) -> None:
    page, _ = _open(browser, servers["question"])
    try:
        assert page.inner_text("#question-prompt") == "Which card was taken from Mars?"
        labels = page.locator("#question-options button").all_inner_texts()
        assert labels == ["Ann: gained Cassius from Mars", "The camera is wrong: ignore it"]
        assert page.inner_text("#step") == "Camera: Which card was taken from Mars?"
    finally:
        page.close()
