"""End to end in a real browser: Debian's chromium driven by Playwright, phone-sized.

The app runs behind waitress on a free loopback port; the browser opens the page at a
390×844 viewport and must show what the engine does through the API. Skipped when
/usr/bin/chromium is absent (CI installs it with apt).
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from pagekit import ARGS, CHROMIUM, PIN
from playwright.sync_api import expect, sync_playwright

from device.service import Service
from web import Server

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.xdist_group("browser"),  # one worker launches the module's chromium once
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="needs Debian's chromium at /usr/bin/chromium"),
]


@pytest.fixture
def server(app: Flask) -> Iterator[Server]:
    with Server(app) as running:
        yield running


@pytest.fixture(scope="module")
def browser_context() -> Iterator[Any]:
    """One chromium for the module, with a fresh profile directory."""
    with tempfile.TemporaryDirectory(prefix="chromium-") as profile, sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            profile, executable_path=str(CHROMIUM), args=ARGS, headless=True,
            viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
            has_touch=True)
        try:
            yield context
        finally:
            context.close()


@pytest.fixture
def page(browser_context: Any, server: Server) -> Iterator[Any]:
    """A new tab on a fresh app, holding no PIN."""
    browser_context.clear_cookies()
    page = browser_context.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#live.on", timeout=5000)
    # The feed opens before its first update arrives: wait for that first render too,
    # or a slow machine reads an empty page (CI did, once).
    page.wait_for_selector("#locations .location", timeout=5000)
    yield page
    page.close()


def test_the_page_loads_and_shows_four_locations(page: Any) -> None:
    locations = page.locator("#locations .location")
    assert locations.count() == 4
    names = [locations.nth(i).locator("h3").inner_text() for i in range(4)]
    assert [n.split("+")[0].strip() for n in names] == ["Jupiter", "Mars", "Luna",
                                                      "The Institute"]
    mars = page.locator('[data-location="mars"]')
    assert "Cassius" in mars.locator(".top-card").inner_text()
    assert "Gold" in mars.locator(".top-card .card-meta").inner_text()  # the caste in words
    assert page.locator("#turn").inner_text() == "Round 1 · Ann"
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390  # nothing forces sideways scrolling on a phone
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "web-phone-390x844.png"), full_page=True)
    assert (ARTIFACTS / "web-phone-390x844.png").stat().st_size > 10_000


def test_a_die_roll_made_through_the_api_appears_within_a_second(page: Any, server: Server
                                                                 ) -> None:
    login = page.request.post(server.url + "/api/login", data={"pin": PIN})
    csrf = login.json()["csrf"]
    headers = {"X-CSRF-Token": csrf}
    doc = page.request.get(server.url + "/api/state").json()
    luna = next(o for o in doc["pending"]["options"] if o["short"] == "Luna")
    deployed = page.request.post(server.url + "/api/answer", headers=headers,
                                 data={"index": luna["index"], "seq": doc["seq"],
                                       "card": "harmony"}).json()
    draw = next(o for o in deployed["pending"]["options"] if "Draw" in o["label"])
    assert page.locator("#roll").is_hidden()  # no roll this turn or the last
    rolled = page.request.post(server.url + "/api/answer", headers=headers,
                               data={"index": draw["index"], "seq": deployed["seq"]})
    assert rolled.ok and rolled.json()["last_roll"]["face"] == "helium"
    expect(page.locator("#roll")).to_have_attribute("data-face", "helium", timeout=1000)
    assert page.locator("#roll").inner_text() == "Ann rolled Helium"


def test_unsaved_moves_are_a_banner_until_they_are_written(browser_context: Any,
                                                           tmp_path: Path) -> None:
    import random

    from pagekit import make_app

    from device.journal import Journal
    from device.service import NewGame, Play
    from engine.setup import new_game

    journal = Journal(tmp_path / "journal.sqlite3")
    service = Service(rng=random.Random(2), journal=journal)
    service.start()

    def move() -> None:
        options = service.snapshot().state.pending.options  # type: ignore[union-attr]
        service.call(Play(options[0]))

    try:
        service.call(NewGame(new_game(["Ann", "Bo"], random.Random(2))))
        with Server(make_app(service)) as server:
            page = browser_context.new_page()
            page.goto(server.url + "/")
            page.wait_for_selector("#live.on", timeout=5000)
            assert page.locator("#unsaved").is_hidden()
            journal._db.execute("PRAGMA query_only = ON")  # SQLite refuses every write
            move()
            expect(page.locator("#unsaved")).to_have_text(re.compile(
                r"^the SD card is read-only: moves since \d\d:\d\d are not saved$"),
                timeout=3000)
            move()
            journal._db.execute("PRAGMA query_only = OFF")
            move()
            expect(page.locator("#unsaved")).to_be_hidden(timeout=3000)
            expect(page.locator("#notice")).to_contain_text("the journal is saved again")
            assert journal.events() == service.game.log
            page.close()
    finally:
        service.stop()


def test_a_correction_needs_the_pin(page: Any, server: Server, service: Service) -> None:
    assert page.locator("#corrections").is_hidden()  # read-only without the PIN
    refused = page.evaluate("""async () => {
        const r = await fetch('/api/corrections/tokens', {method: 'POST',
            headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({player: 1, helium: 5, influence: 0, fleet: 0})});
        return [r.status, (await r.json()).error];
    }""")
    assert refused[0] == 401 and "PIN" in refused[1]
    assert service.snapshot().state.players[1].helium == 0

    page.click("#lock")
    page.fill("#pin", "0000")
    page.click("#pin-form button[type=submit]")
    page.wait_for_selector("#pin-error:has-text('wrong PIN')", timeout=3000)
    page.fill("#pin", PIN)
    page.click("#pin-form button[type=submit]")
    page.wait_for_selector("#corrections:not([hidden])", timeout=3000)

    row = page.locator('.token-row[data-player="1"]')
    for _ in range(2):
        row.get_by_role("button", name="Bo: more Helium").click()
    row.get_by_role("button", name="Save Bo").click()
    helium = page.locator("#players tbody tr").nth(1).locator("td").first
    expect(helium).to_have_text("2", timeout=2000)
    assert service.snapshot().state.players[1].helium == 2
    entry = page.locator("#log > li").first.inner_text()
    assert entry.startswith("Correction") and "Bo has 2 Helium" in entry


def test_a_location_is_set_from_the_searchable_card_list(page: Any, service: Service) -> None:
    page.click("#lock")
    page.fill("#pin", PIN)
    page.click("#pin-form button[type=submit]")
    page.wait_for_selector("#corrections:not([hidden])", timeout=3000)
    page.locator("#edit-locations").get_by_role("button", name="Luna").click()
    page.get_by_role("button", name="Take Tactus off").click()
    page.fill("#card-search", "harm")
    page.click('#card-results [data-card="harmony"]')
    page.click("#save-stack")
    top = page.locator('[data-location="luna"] .top-card .card-name')
    expect(top).to_have_text("Harmony", timeout=2000)
    assert [s.card for s in service.snapshot().state.locations[2]] == ["lorn", "harmony"]


def test_answering_a_decision_from_its_buttons(page: Any, service: Service) -> None:
    page.click("#lock")
    page.fill("#pin", PIN)
    page.click("#pin-form button[type=submit]")
    page.wait_for_selector("#decision-options button:not([disabled])", timeout=3000)
    page.get_by_role("button", name="Scout: turn over the deck's top card").click()
    expect(page.locator("#decision-prompt")).to_have_text(re.compile("^Scout"), timeout=2000)
    page.get_by_role("button", name="Place the turned-over card on Mars").click()
    page.get_by_role("button", name="Not seen yet").click()
    expect(page.locator("#turn")).to_have_text("Round 1 · Bo", timeout=2000)
    assert service.snapshot().state.players[0].helium == 1  # Mars' bonus


def test_a_new_game_is_started_from_the_form(page: Any, service: Service) -> None:
    from engine.board import Location
    from vision.scanner import Sight
    from vision.stabilize import LocationState

    tops = ["quietus", "sefi", "tactus", "diplomat"]
    service.camera_reading = {loc.value: LocationState(Sight.CARD, top, 2)
                              for loc, top in zip(Location, tops, strict=True)}
    page.click("#lock")
    page.fill("#pin", PIN)
    page.click("#pin-form button[type=submit]")
    page.wait_for_selector("#new-game:not([hidden])", timeout=3000)
    page.fill("[aria-label='Player 1 name']", "Ada")
    page.fill("[aria-label='Player 2 name']", "Rex")
    page.select_option("[aria-label='Player 2 house']", "jupiter")
    page.select_option("#first-seat", "1")
    page.click("#start-game")
    names = page.locator("#players tbody tr")
    expect(names).to_have_count(2, timeout=3000)
    assert "Rex" in names.nth(1).inner_text()
    state = service.snapshot().state
    assert [p.name for p in state.players] == ["Ada", "Rex"] and state.current == 1
    assert state.stack_at(Location.LUNA)[-1].card == "tactus"


def test_a_hand_the_camera_read_is_completed_and_confirmed(browser_context: Any) -> None:
    from pagekit import at_the_end, make_app, running

    from device.service import HandSeen

    with running(at_the_end()) as service, Server(make_app(service)) as server:
        service.call(HandSeen(0, ("nero", "orion", "virga", "pelus"), unnamed=1))
        browser_context.clear_cookies()
        page = browser_context.new_page()
        page.goto(server.url + "/")
        page.wait_for_selector("#live.on", timeout=5000)
        page.wait_for_selector("#hand:not([hidden])", timeout=5000)
        expect(page.locator("#hand-cards li")).to_have_count(4)
        assert page.locator("#hand-confirm").is_disabled()  # locked, and one card short
        page.click("#lock")
        page.fill("#pin", PIN)
        page.click("#pin-form button[type=submit]")
        expect(page.locator("#hand-note")).to_contain_text("cannot name", timeout=3000)
        page.click("#hand-add")
        page.fill("#picker-search", "morning")
        page.click('#picker-results [data-card="morning-star"]')
        expect(page.locator("#hand-cards li")).to_have_count(5)
        page.click("#hand-confirm")
        expect(page.locator("#decision-title")).to_have_text("Bo to decide", timeout=3000)
        known = service.snapshot().state.players[0].hand.known
        assert sorted(known) == sorted(["nero", "orion", "virga", "pelus", "morning-star"])
        page.close()


def test_a_game_is_saved_for_a_bug_report(browser_context: Any, service: Service,
                                          tmp_path: Path) -> None:
    """Behind the PIN: where the recorded folder lies, and its zip downloaded."""
    import zipfile

    import numpy as np
    from pagekit import make_app

    from device.recorder import GameRecorder

    recorder = GameRecorder(tmp_path / "games")
    recorder.install(service)
    recorder.taken(np.full((48, 64, 3), 90, np.uint8), 0.0)
    recorder.scanned()
    try:
        with Server(make_app(service, recording=recorder)) as server:
            browser_context.clear_cookies()
            page = browser_context.new_page()
            page.goto(server.url + "/")
            page.wait_for_selector("#live.on", timeout=5000)
            page.click("#lock")
            page.fill("#pin", PIN)
            page.click("#pin-form button[type=submit]")
            page.wait_for_selector("#corrections:not([hidden])", timeout=3000)
            page.get_by_role("button", name="Save this game for a bug report").click()
            expect(page.locator("#bug-report-result")).to_contain_text(
                str(recorder.folder), timeout=3000)
            with page.expect_download(timeout=5000) as download:
                page.click("#bug-report-download")
            saved = Path(download.value.path())
            with zipfile.ZipFile(saved) as pack:
                names = pack.namelist()
            assert f"{recorder.folder.name}/game.json" in names  # type: ignore[union-attr]
            assert download.value.suggested_filename == f"{recorder.folder.name}.zip"  # type: ignore[union-attr]
            page.close()
    finally:
        recorder.close()
