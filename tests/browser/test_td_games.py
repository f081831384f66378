"""The TD station's form makes stud, razz, draw and mixed structures (the README's
``game``, ``levels[].game`` and ``levels[].bring_in``), against a real service.

1. Seven-card stud from the form: the game chosen, the seats go to eight (RP-10-H: one deck
   deals eight stud hands), each level asks the bring-in, the small bet and the ante — no
   blinds, no big-blind ante. The structure the service stores has ``game: 7S``, eight seats
   and stud levels (``blinds [0, 0]``, ``ante``, ``bring_in``, ``min_bet``); a table opened
   from the station deals stud at them.
2. A mixed event, a game a level: limit hold'em, razz, seven-card stud. Each level names its
   game in what is stored; hold'em levels keep their blinds. A H.O.R.S.E. structure file is
   summed up with its games.
3. Nine seats forced with stud: the service refuses the message (its ``field`` is
   ``$.structure``, its text names ``$.table_size``, and it carries no id); the station shows
   "Not created: ... ($.structure.table_size)" and marks and focuses the seats field, then a
   bring-in over the small bet the same way (``$.structure.levels[0].bring_in``). A draw game
   defaults to six seats, and a size the TD typed stays when the game changes.

Each set-up form is measured from the DOM (tests/browser/measure.py) at the TD's widths
(1920 x 1080 and 1280 x 800): every touch target at least 44 px, every text at least 4.5:1 on
what is under it, nothing overlapping or clipped.

Screenshots: ``artifacts/screenshots/td-games-*.png``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from clients.demo_structures import structure as demo_structure
from protocol.tournament import Structure
from protocol.tournament.structure import Step
from server.keys import TOURNAMENT_LOG, state_key
from tests.browser.conftest import Stations
from tests.browser.measure import COLOURS_JS, contrast, layout_report, measure, small_targets
from tests.browser.tournaments import table_view
from tests.service.conftest import redis_client  # noqa: F401 - the service tests' fixture

expect = pytest.importorskip(
    "playwright.sync_api", reason="Playwright for Python is not installed (pip install playwright)"
).expect

DESK = (1920, 1080)
LAPTOP = (1280, 800)
NEW_CONTROLS = "#setup-game, .level-game, .stud-row input, #setup-seats"
"""The form's controls this feature added or changes (the stud rows' inputs)."""


def shot(page: Any, folder: Path, name: str) -> None:
    page.screenshot(path=str(folder / f"td-games-{name}.png"))


def checked(page: Any, name: str) -> None:
    """44 px targets, 4.5:1 contrast, no overlap, nothing clipped — the page, and the new
    controls by name (their smallest side and their text's contrast, printed)."""
    figures = measure(page)
    report = layout_report(name, figures)
    worst = contrast(page)
    low = worst[0]
    controls = page.locator(NEW_CONTROLS).evaluate_all(
        "(els) => {"
        + COLOURS_JS
        + """
          return els.filter((e) => e.getClientRects().length).map((e) => {
            const r = e.getBoundingClientRect(), s = getComputedStyle(e);
            return { name: e.getAttribute('aria-label') || e.id, w: r.width, h: r.height,
                     ratio: ratio(parse(s.color), parse(s.backgroundColor)) };
          });
        }"""
    )
    assert controls, NEW_CONTROLS
    lowest = min(controls, key=lambda c: c["h"])
    narrowest = min(controls, key=lambda c: c["w"])
    dimmest = min(controls, key=lambda c: c["ratio"])
    heads = [c["ratio"] for c in worst if c["el"] == "th" or c["el"].startswith("label")]
    print(
        f"\n{report}\n  lowest contrast {low['ratio']}:1 ({low['el']} {low['text']!r})"
        f"\n  new controls {len(controls)}: lowest {lowest['h']:g} px ({lowest['name']}),"
        f" narrowest {narrowest['w']:g} px ({narrowest['name']}), their text at least"
        f" {dimmest['ratio']}:1 ({dimmest['name']}); headings and labels at least {min(heads)}:1"
    )
    assert min(lowest["h"], narrowest["w"]) >= 44 and dimmest["ratio"] >= 4.5, controls
    assert small_targets(figures) == [], report
    assert figures["overlaps"] == figures["covered"] == figures["clipped"] == [], report
    assert [c for c in worst if c["ratio"] < 4.5] == [], worst[:5]
    assert figures["scroll"] == figures["viewport"], report  # the page itself never scrolls
    # The levels fit their panel's width: no column (the remove buttons) scrolled out of sight.
    table, room = page.locator(".levels-scroll").evaluate(
        "(e) => [e.firstElementChild.getBoundingClientRect().width, e.clientWidth]"
    )
    print(f"  levels table {table:.0f} px wide in {room} px")
    assert table <= room, (table, room)


def stored(redis: Any) -> Structure:
    """The structure the service holds for the tournament ``main``."""
    raw = redis.hget(state_key("main", TOURNAMENT_LOG), "structure")
    assert raw, "no structure stored"
    return msgspec.json.decode(raw, type=Structure)


def header(page: Any) -> list[str]:
    return [
        " ".join(t.split())
        for t in page.locator("table.levels thead th").evaluate_all(
            "(ths) => ths.map((th) => th.innerText)"
        )
    ]


def test_a_stud_tournament_from_the_form(
    stations: Stations,
    screenshots: Path,
    redis_client: Any,  # noqa: F811 - the fixture imported above
) -> None:
    td = stations.open("td", "admin", table=None, viewport=DESK)
    expect(td.locator("#setup")).to_be_visible()
    td.locator("#setup-name").fill("Stud Night")
    expect(td.locator("#setup-seats")).to_have_value("9")
    td.get_by_label("Game", exact=True).select_option(label="Seven-card stud (7S)")

    # Eight seats; each level asks the bring-in, the small bet and the ante.
    expect(td.locator("#setup-seats")).to_have_value("8")
    assert header(td) == ["Level", "Game", "Bring-in", "Small bet", "Ante", "Minutes", ""]
    for label in ("small blind", "big blind", "big-blind ante"):
        expect(td.get_by_label(f"Level 1: {label}", exact=True)).to_have_count(0)
    level1 = {
        k: td.get_by_label(f"Level 1: {k}", exact=True) for k in ("ante", "bring-in", "small bet")
    }
    expect(level1["small bet"]).to_have_value("200")  # the hold'em level's big blind
    level1["ante"].fill("25")
    level1["bring-in"].fill("50")
    level1["small bet"].fill("100")
    td.get_by_label("Level 2: bring-in", exact=True).fill("100")
    # A level added after the last doubles it, still stud.
    td.get_by_role("button", name="Add a level").click()
    expect(td.get_by_label("Level 7: small bet", exact=True)).to_have_value("2400")
    shot(td, screenshots, "stud-form")
    checked(td, "TD, stud form, 1920x1080")
    td.set_viewport_size({"width": LAPTOP[0], "height": LAPTOP[1]})
    shot(td, screenshots, "stud-form-1280x800")
    checked(td, "TD, stud form, 1280x800")

    td.locator("#create-from-form").click()
    expect(td.locator("#tournament-name")).to_have_text("Stud Night")
    held = stored(redis_client)
    assert held.game == "7S" and held.table_size == 8
    assert held.levels[0] == Step(blinds=(0, 0), ante=25, bring_in=50, min_bet=100, minutes=20)
    assert held.levels[1] == Step(blinds=(0, 0), ante=50, bring_in=100, min_bet=400, minutes=20)
    assert held.levels[3].is_break
    plays = [s for s in held.levels if not s.is_break]
    assert len(plays) == 7 and all(s.game is None and s.blinds == (0, 0) for s in plays)
    assert all(0 < s.bring_in <= s.min_bet and s.ante > 0 and not s.bba for s in plays)
    assert plays[-1] == Step(blinds=(0, 0), ante=300, bring_in=600, min_bet=2400, minutes=20)

    # The station opens tables of the structure's eight seats (no typing): they deal stud at
    # the first level's limits.
    expect(td.locator("#open-seats")).to_have_value("8")
    td.locator("#open-tables-button").click()
    expect(td.locator("#tables")).to_have_text("Tables 1: 0/8")
    table = table_view(stations.server, "1")
    assert (table.game, table.ante, table.bring_in, table.min_bet) == ("7S", 25, 50, 100)
    shot(td, screenshots, "stud-created")
    assert td.page_errors == []


def test_a_mixed_event_a_game_a_level(
    stations: Stations,
    screenshots: Path,
    tmp_path: Path,
    redis_client: Any,  # noqa: F811 - the fixture imported above
) -> None:
    td = stations.open("td", "admin", table=None, viewport=LAPTOP)
    expect(td.locator("#setup")).to_be_visible()

    # A H.O.R.S.E. sheet as a file: its games read back before anything is created.
    horse = tmp_path / "horse.json"
    horse.write_text(msgspec.json.encode(demo_structure("HORSE")).decode())
    td.locator("#structure-file").set_input_files(str(horse))
    expect(td.locator("#file-note")).to_have_text(
        "18 levels, 1 break · games: LHE, LO8, RAZZ, 7S, 7S8 · 5,000 chips"
        " · buy-in 100 + 10 · late registration to level 3"
    )

    # The form: limit hold'em, then razz, then stud, a level each.
    td.locator("#setup-name").fill("Mixed Monday")
    td.get_by_label("Game", exact=True).select_option("LHE")
    expect(td.locator("#setup-seats")).to_have_value("9")
    td.get_by_label("Level 2: game", exact=True).select_option("RAZZ")
    expect(td.locator("#setup-seats")).to_have_value("8")
    td.get_by_label("Level 3: game", exact=True).select_option("7S")
    for _ in range(2):  # levels 5 and 6 go: the event ends at hold'em's 400/800
        td.get_by_role("button", name="Remove level 5").click()
    td.get_by_label("Level 4: big-blind ante", exact=True).uncheck()
    td.get_by_label("Level 4: ante", exact=True).fill("0")
    expect(td.get_by_label("Level 1: game", exact=True)).to_have_value("")
    assert header(td) == [
        "Level",
        "Game",
        "Small blind or bring-in",
        "Big blind or small bet",
        "Ante",
        "BB ante",
        "Minutes",
        "",
    ]
    expect(td.get_by_label("Level 2: small bet", exact=True)).to_have_value("400")
    expect(td.get_by_label("Level 2: big blind", exact=True)).to_have_count(0)
    td.get_by_label("Level 2: ante", exact=True).fill("50")
    td.get_by_label("Level 2: bring-in", exact=True).fill("100")
    td.get_by_label("Level 3: ante", exact=True).fill("100")
    td.get_by_label("Level 3: bring-in", exact=True).fill("150")
    expect(td.get_by_label("Level 3: small bet", exact=True)).to_have_value("600")
    expect(td.get_by_label("Level 4: big blind", exact=True)).to_have_value("800")
    shot(td, screenshots, "mixed-form-1280x800")
    checked(td, "TD, mixed form, 1280x800")
    td.set_viewport_size({"width": DESK[0], "height": DESK[1]})
    checked(td, "TD, mixed form, 1920x1080")

    td.locator("#create-from-form").click()
    expect(td.locator("#tournament-name")).to_have_text("Mixed Monday")
    held = stored(redis_client)
    assert held.game == "LHE" and held.table_size == 8
    assert [s.game for s in held.levels] == ["LHE", "RAZZ", "7S", None, "LHE"]
    assert held.levels[0] == Step(blinds=(100, 200), minutes=20, game="LHE")
    assert held.levels[1] == Step(
        blinds=(0, 0), ante=50, bring_in=100, min_bet=400, minutes=20, game="RAZZ"
    )
    assert held.levels[2] == Step(
        blinds=(0, 0), ante=100, bring_in=150, min_bet=600, minutes=20, game="7S"
    )
    assert held.levels[4] == Step(blinds=(400, 800), minutes=20, game="LHE")
    assert held.games == {"LHE", "RAZZ", "7S"}
    assert td.page_errors == []


def test_nine_seats_with_stud_are_refused_naming_the_field(
    stations: Stations,
    screenshots: Path,
    redis_client: Any,  # noqa: F811 - the fixture imported above
) -> None:
    td = stations.open("td", "admin", table=None, viewport=LAPTOP)
    expect(td.locator("#setup")).to_be_visible()
    seats = td.locator("#setup-seats")
    assert header(td) == [
        "Level", "Game", "Small blind", "Big blind", "Ante", "BB ante", "Minutes", ""
    ]  # fmt: skip
    checked(td, "TD, hold'em form (as it opens), 1280x800")

    # The seats follow the game until the TD types them: six for a draw game, eight for stud.
    td.get_by_label("Game", exact=True).select_option("27TD")
    expect(seats).to_have_value("6")
    td.get_by_label("Game", exact=True).select_option("7S")
    expect(seats).to_have_value("8")
    seats.fill("9")
    game = td.get_by_label("Game", exact=True)
    game.focus()
    td.keyboard.press("ArrowDown")  # from the keyboard: stud hi-lo
    expect(game).to_have_value("7S8")
    expect(game).to_be_focused()  # kept through the redraw
    expect(seats).to_have_value("9")
    game.select_option("RAZZ")

    td.locator("#create-from-form").click()
    alert = td.locator("#alert")
    expect(alert).to_contain_text("Not created")
    expect(alert).to_contain_text("$.structure.table_size")
    expect(seats).to_have_attribute("aria-invalid", "true")
    expect(seats).to_be_focused()
    expect(td.locator("#setup")).to_be_visible()
    assert redis_client.hget(state_key("main", TOURNAMENT_LOG), "structure") is None
    print(f"\n  the station shows: {alert.inner_text()!r}")
    shot(td, screenshots, "refused-1280x800")
    checked(td, "TD, refused form, 1280x800")

    # Eight seats; a bring-in over the small bet is refused in turn, its field marked.
    seats.fill("8")
    bring_in = td.get_by_label("Level 1: bring-in", exact=True)
    bring_in.fill("500")
    td.locator("#create-from-form").click()
    expect(alert).to_contain_text("($.structure.levels[0].bring_in)")
    expect(bring_in).to_have_attribute("aria-invalid", "true")
    expect(bring_in).to_be_focused()
    expect(seats).not_to_have_attribute("aria-invalid", "true")

    # Fixed: created.
    bring_in.fill("50")
    td.locator("#create-from-form").click()
    expect(td.locator("#tournament-name")).to_have_text("main")
    expect(td.locator("#left")).to_be_visible()
    held = stored(redis_client)
    assert held.game == "RAZZ" and held.table_size == 8
    assert json.loads(msgspec.json.encode(held.levels[0]))["bring_in"] == 50
    assert td.page_errors == []
