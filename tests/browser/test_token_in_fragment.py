"""The station's token in Chromium: taken from the address's fragment into session storage and
out of the address; a sign-in form without one; "sign in again" when it expires while
connected, without reconnecting with the dead token. Real server, real Redis, the pages under
their Content-Security-Policy."""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import expect

from protocol import TableConfig
from tests.browser.conftest import Stations, create_table
from tests.service.conftest import token

CONFIG = TableConfig(game="NLHE", blinds=(100, 200), seats={1: 20_000, 2: 20_000, 3: 20_000},
                     button=1)


def watch(tab: Any) -> tuple[list[str], list[str]]:
    """The websockets the page opens, and the console's CSP complaints."""
    sockets: list[str] = []
    csp: list[str] = []
    tab.on("websocket", lambda ws: sockets.append(ws.url))
    tab.on("console", lambda m: csp.append(m.text) if "Content Security Policy" in m.text else None)
    return sockets, csp


def new_tab(stations: Stations) -> Any:
    context = stations.browser.new_context()
    stations.contexts.append(context)
    tab = context.new_page()
    tab.set_default_timeout(10_000)
    return tab


def test_the_token_goes_from_the_fragment_into_session_storage_and_out_of_the_address(
    stations: Stations,
) -> None:
    create_table(stations.server, CONFIG)
    tab = new_tab(stations)
    sockets, csp = watch(tab)
    requested: list[str] = []
    tab.on("request", lambda r: requested.append(r.url))
    tab.goto(stations.url("dealer", "dealer"))
    expect(tab.locator("#status")).to_have_attribute("data-status", "online")
    assert "token" not in tab.url, tab.url
    stored = tab.evaluate("sessionStorage.getItem('tablewire:token')")
    assert stored and stored.count(".") == 1
    assert not [url for url in requested if "token" in url], requested
    tab.reload()
    expect(tab.locator("#status")).to_have_attribute("data-status", "online")
    assert len(sockets) == 2 and not csp, (sockets, csp)
    tab.go_back()  # the entry before is the blank tab: the one with the token was replaced
    assert "token" not in tab.url, tab.url


def test_without_a_token_the_page_asks_for_one(stations: Stations) -> None:
    create_table(stations.server, CONFIG)
    tab = new_tab(stations)
    sockets, csp = watch(tab)
    tab.goto(f"http://127.0.0.1:{stations.server.port}/display.html?tournament=main&table=1")
    form = tab.get_by_role("form", name="Sign in")
    expect(form).to_be_visible()
    expect(tab.locator("#status")).to_have_attribute("data-status", "refused")
    assert sockets == []
    form.get_by_label("Station token").fill(token("display", table="1"))
    form.get_by_role("button", name="Sign in").click()
    expect(tab.locator("#status")).to_have_attribute("data-status", "online")
    expect(form).to_be_hidden()
    assert not csp, csp


def test_a_token_that_expires_while_connected_asks_to_sign_in_again(stations: Stations) -> None:
    create_table(stations.server, CONFIG)
    tab = new_tab(stations)
    sockets, _ = watch(tab)
    short = token("floor", ttl=2)
    tab.goto(f"http://127.0.0.1:{stations.server.port}/floor.html?tournament=main#token={short}")
    expect(tab.locator("#status")).to_have_attribute("data-status", "online")
    expect(tab.locator("#status")).to_have_attribute("data-status", "refused", timeout=8_000)
    expect(tab.locator("#status")).to_contain_text("sign in again")
    expect(tab.get_by_role("form", name="Sign in")).to_be_visible()
    assert tab.evaluate("sessionStorage.getItem('tablewire:token')") is None
    # Not a wait for something to happen: a window in which a reconnect loop (0.25 s, 0.5 s,
    # 1 s ...) would have opened sockets with the dead token.
    deadline = time.monotonic() + 2.0
    while time.monotonic() < deadline:
        tab.wait_for_timeout(200)
        assert len(sockets) == 1, sockets
