"""Rule numbers explain themselves (issue 11): on every station — the dealer's tablet, the
floor monitor and the table display — each rule number a ruling cites is a button; a tap shows
one line of what the rule says, in our own words, with its number (``clients/web/js/rules.js``),
and a second tap (or Escape) hides it. The glossary has a line for every rule number the
engine cites.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from protocol.commands import Act
from tests.browser.conftest import Stations, create_table, send_commands
from tests.browser.measure import screenshot
from tests.browser.test_stations import FOUR, online, open_stations

expect = pytest.importorskip(
    "playwright.sync_api", reason="Playwright for Python is not installed (pip install playwright)"
).expect
ROOT = Path(__file__).resolve().parents[2]
RULE = r"(?:RP-)?\d{1,3}(?:-[A-Z](?:-\d)?)?"


def glossary() -> dict[str, str]:
    text = (ROOT / "clients" / "web" / "js" / "rules.js").read_text()
    return dict(re.findall(rf'^  "({RULE})": "((?:[^"\\]|\\.)*)",$', text, re.M))


def engine_rules() -> set[str]:
    """Rule numbers in the engine's source: every quoted number with a letter part ("47-B",
    "RP-11"), and bare numbers ("13") where a rule is named: a refusal, a rules list, a floor
    call or penalty to consider."""
    named = r"(?:Illegal\(\s*|rules\.append\(|rules=\[|\[\*rules, |consider\([^)]*?, )\"(\d+)\""
    found: set[str] = set()
    for path in (ROOT / "server" / "engine").glob("*.py"):
        source = path.read_text()
        found |= {n for n in re.findall(rf"[\"']({RULE})[\"']", source) if not n.isdigit()}
        found |= set(re.findall(named, source))
    return found


def test_the_glossary_has_one_line_for_every_rule_number_the_engine_cites() -> None:
    lines = glossary()
    cited = engine_rules()
    assert len(cited) > 60
    assert sorted(cited - set(lines), key=str) == []
    for number, line in lines.items():
        assert line.endswith(".") and "\n" not in line and len(line) <= 120, (number, line)


def tap_shows_the_line(page: Any, button: Any, number: str, line: str) -> None:
    button.click()
    shown = page.locator("#rule-line")
    expect(shown).to_be_visible()
    expect(shown).to_have_text(f"Rule {number}: {line.replace(chr(92), '')}")
    expect(button).to_have_attribute("aria-expanded", "true")
    box = button.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44, box
    button.click()
    expect(shown).to_be_hidden()
    expect(button).to_have_attribute("aria-expanded", "false")
    button.click()
    expect(shown).to_be_visible()
    page.keyboard.press("Escape")
    expect(shown).to_be_hidden()


def test_every_station_shows_a_rules_line_when_its_number_is_tapped(stations: Stations) -> None:
    create_table(stations.server, FOUR)
    dealer, display, floor = open_stations(stations)
    online(dealer, display, floor)
    dealer.get_by_role("button", name="Start the first hand").click()
    # Seat 4 silently pushes a 1,000 and two 100s: a raise (47-B, 45-A).
    send_commands(stations.server, "1", Act(seat=4, chips=[1000, 100, 100]))
    lines = glossary()
    where = {
        "dealer": (dealer, dealer.get_by_role("log")),
        "display": (display, display.locator("#ruling")),
        "floor": (floor, floor.get_by_role("log")),
    }
    for name, (page, area) in where.items():
        for number in ("47-B", "45-A"):
            button = area.get_by_role("button", name=f"Rule {number}: what it says").first
            expect(button).to_be_visible()
            tap_shows_the_line(page, button, number, lines[number])
        button = area.get_by_role("button", name="Rule 47-B: what it says").first
        button.click()
        screenshot(page, f"rule-line-{name}")
        page.keyboard.press("Escape")
        assert page.page_errors == []
