"""The documentation says what the code does: every default, every link, every example.

Defaults live in one place each (``device/defaults.toml`` for the settings, ``web.DEFAULTS``
for the page server); these tests read the pages that document them and compare.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from device import config as settings

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
ROW = re.compile(r"^\|(.+)\|\s*$")


def table_rows(text: str) -> list[list[str]]:
    """The cells of every Markdown table row in ``text`` (header and rule rows dropped)."""
    rows = []
    for line in text.splitlines():
        m = ROW.match(line.strip())
        if m is None:
            continue
        cells = [c.strip() for c in m.group(1).split("|")]
        if set("".join(cells)) <= set("-: ") or cells[0] in ("key", "config key", "function"):
            continue
        rows.append(cells)
    return rows


def sections(text: str) -> dict[str, str]:
    """``## `[name]` `` headings → the text under each, up to the next heading."""
    parts = re.split(r"^## (.*)$", text, flags=re.MULTILINE)
    named = (re.fullmatch(r"`\[(\w+)\]`", h.strip()) for h in parts[1::2])
    return {m.group(1): body for m, body in zip(named, parts[2::2], strict=True) if m}


def documented_settings() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for table, body in sections((DOCS / "config.md").read_text(encoding="utf-8")).items():
        out[table] = {}
        for key, default, *_ in table_rows(body):
            name, literal = key.strip("`"), default.strip("`")
            out[table][name] = tomllib.loads(f"v = {literal}")["v"]
    return out


def test_the_config_page_gives_every_setting_with_its_default() -> None:
    assert documented_settings() == settings.defaults()


def test_config_show_prints_those_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    print(settings.load(system=None, user=None).to_toml())
    assert tomllib.loads(capsys.readouterr().out) == settings.defaults()


# --- web/README's table against web.DEFAULTS ----------------------------------------

UNITS = {"s": 1, "h": 3600, "KiB": 1024}


def parse_default(text: str) -> Any:
    """A documented default as a value: None, a bool, a number (with its unit) or text."""
    if text == "None" or text.startswith("random"):
        return None
    if text in ("true", "false"):
        return text == "true"
    m = re.fullmatch(r"([0-9.]+)\s*(s|h|KiB)?", text)
    if m is None:
        return text
    return float(m.group(1)) * UNITS.get(m.group(2) or "s", 1)


def web_table() -> dict[str, Any]:
    text = (ROOT / "web" / "README.md").read_text(encoding="utf-8")
    table = text[text.index("| config key |"):]
    out: dict[str, Any] = {}
    for keys, defaults, *_ in table_rows(table.split("\n\n")[0]):
        names = re.findall(r"`(\w+)`", keys)
        values = [d.strip() for d in re.sub(r"\s*\(.*", "", defaults).split(",")]
        assert len(names) == len(values), f"web/README row {keys}: {defaults}"
        out.update(zip(names, map(parse_default, values), strict=True))
    return out


def test_the_web_readme_gives_every_app_default() -> None:
    from web import DEFAULTS

    documented = web_table()
    random_each_start = {"SECRET_KEY"}  # create_app draws it; it has no fixed default
    assert set(documented) == set(DEFAULTS) | random_each_start
    for key, value in DEFAULTS.items():
        assert documented[key] == value, f"web/README says {key} = {documented[key]!r}"


def test_the_page_server_and_the_device_share_one_client_cap() -> None:
    from web import DEFAULTS

    assert DEFAULTS["SSE_MAX_CLIENTS"] == settings.defaults()["web"]["max_clients"]


# --- the README's wiring table and port --------------------------------------------------

def test_the_readme_wiring_table_uses_the_default_pins() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    wiring = {cells[0]: cells[1] for cells in table_rows(text) if cells[1].startswith("GPIO")}
    defaults = settings.defaults()
    names = {"DIE button": ("buttons", "die"), "AUTOMA button": ("buttons", "automa"),
             "NEXT button": ("buttons", "next"), "status LED": ("led", "pin")}
    for label, (table, key) in names.items():
        assert wiring[label] == f"GPIO{defaults[table][key]}", label
    undo = next(k for k in wiring if k.startswith("UNDO button"))
    assert wiring[undo] == f"GPIO{defaults['buttons']['undo']}"
    assert f"hold {defaults['buttons']['undo_hold']:g} s" in undo
    assert f"serves the page on port {defaults['web']['port']}" in text


# --- the README is a newcomer's first hour ------------------------------------------------

README_LINES = 200  # what it is, set-up, the box, a first game, the commands, where to read on


def test_the_readme_stays_short_and_holds_no_figures_table() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= README_LINES
    assert "## Measured" not in text, "figures live in benchmarks/README.md"
    assert "](benchmarks/README.md)" in text


def setup_commands() -> list[str]:
    """The README's set-up commands: the shell blocks of its fresh-machine section."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Set up on a fresh machine"):].split("\n## ")[0]
    return [block.strip() for block in re.findall(r"```sh\n(.*?)```", section, re.DOTALL)]


def test_a_fresh_machine_needs_two_commands_and_ci_runs_the_tests_one_verbatim() -> None:
    run, tests = setup_commands()
    assert run.endswith("companion demo") and "\n" not in run
    assert tests.endswith("python -m pytest") and "\n" not in tests
    assert tests in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()


def test_every_figure_row_names_its_command_and_machine() -> None:
    page = (ROOT / "benchmarks" / "README.md").read_text(encoding="utf-8")
    rows = [cells for cells in table_rows(page) if cells[0] != "what"]
    assert len(rows) >= 50
    for what, today, goal, command, machine in rows:
        assert today and goal and machine, what
        assert command.startswith(("`", "same", "the same")), what
    scripts = {m for m in re.findall(r"benchmarks/(\w+\.(?:py|sh))", page)}
    assert all((ROOT / "benchmarks" / s).is_file() for s in scripts), scripts


# --- links, citations and examples -----------------------------------------------------

PAGES = sorted(DOCS.glob("*.md"))
LINKED = [*PAGES, ROOT / "README.md", ROOT / "examples" / "README.md", ROOT / "web" / "README.md",
          ROOT / "benchmarks" / "README.md", *sorted((ROOT / "models").glob("*.md"))]


def test_the_docs_index_lists_every_page() -> None:
    index = (DOCS / "README.md").read_text(encoding="utf-8")
    for page in PAGES:
        if page.name != "README.md":
            assert f"]({page.name})" in index, page.name


@pytest.mark.parametrize("page", LINKED, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page: Path) -> None:
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8")):
        if "://" not in target:
            assert (page.parent / target).exists(), f"{page.name} links to {target}"


def test_nothing_cites_files_the_repository_does_not_hold() -> None:
    absent = ("DESIGN" + ".md", "RULES" + " §", "RULES" + ".md")
    found = []
    for path in ROOT.rglob("*"):
        if path.suffix not in (".py", ".md", ".toml", ".yaml", ".js", ".html", ".sh"):
            continue
        if ".venv" in path.parts or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        found += [f"{path.relative_to(ROOT)}: {a}" for a in absent if a in text]
    assert found == []


def json_blocks(page: str) -> list[Any]:
    text = (DOCS / page).read_text(encoding="utf-8")
    return [json.loads(b) for b in re.findall(r"```json\n(.*?)```", text, re.DOTALL)
            if "..." not in b]


def test_the_automa_page_shows_the_shipped_example_and_its_real_answer() -> None:
    from engine.automa import Situation, default_deck, outcome

    state, answer = json_blocks("automa.md")[:2]
    assert state == json.loads((ROOT / "examples" / "au-toma-state.json").read_text())
    assert outcome(Situation.from_json(state), default_deck()[answer["card"] - 1]).to_json() \
        == answer


def test_the_score_page_example_scores() -> None:
    from device.commands.score import parse_table, to_json
    from engine.scoring import score

    table, _ = parse_table(json_blocks("score.md")[0])
    out = to_json(score(table), None)
    assert [p["name"] for p in out["players"]] == ["Ann", "Au Toma"]
    assert set(out["players"][0]) == {"name", "cards_core", "cards_bonus", "fleet", "helium",
                                      "sovereignty", "influence", "excess_cards", "total",
                                      "choices"}
