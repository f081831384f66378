"""Fixtures for the browser tests: a real redis-server and ``tablewire serve`` (the service
tests' fixtures), Debian's Chromium driven by Playwright, and an admin websocket client that
creates the tournament and its tables.

The tests skip when Chromium (``/usr/bin/chromium``) or Playwright is not installed.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from clients.python import Client
from protocol import TableConfig
from protocol.commands import Command
from tests.service.conftest import (  # noqa: F401 - fixtures re-used by the browser tests
    ROOT,
    ServerProcess,
    redis_server,
    start_server,
    token,
)

CHROMIUM = Path(os.environ.get("TABLEWIRE_CHROMIUM", "/usr/bin/chromium"))
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    reason = None
    if not CHROMIUM.exists():
        reason = f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            reason = "Playwright for Python is not installed (pip install playwright)"
    if reason is None:
        return
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium for one test module: Playwright's sync API keeps an event loop running while
    it is open, which the asyncio tests of other modules must not inherit."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


def run_admin(server: ServerProcess, work: Callable[[Client], Any]) -> Any:
    """Run ``await work(client)`` with a signed-in admin client, then close it."""

    async def main() -> Any:
        client = Client(server.url, token("admin"), reconnect=False)
        await client.connect()
        reader = asyncio.get_running_loop().create_task(client.run())
        try:
            return await work(client)
        finally:
            await client.close()
            reader.cancel()

    # Playwright's sync API keeps an event loop in this thread: the client gets its own.
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, main()).result(timeout=30)


def create_table(server: ServerProcess, config: TableConfig, table: str = "1") -> None:
    async def work(client: Client) -> None:
        await client.create_tournament("main", "Main Event")
        await client.create_table("main", table, config)

    run_admin(server, work)


def send_commands(server: ServerProcess, table: str, *commands: Command) -> int:
    """Send commands to a table as the admin; returns the last event number."""

    async def work(client: Client) -> int:
        seq = 0
        for command in commands:
            seq = (await client.command("main", table, command)).seq
        return seq

    return int(run_admin(server, work))


class Stations:
    """Opens station pages, each in its own browser context (its own sessionStorage)."""

    def __init__(self, browser: Any, server: ServerProcess) -> None:
        self.browser = browser
        self.server = server
        self.contexts: list[Any] = []

    def url(self, page: str, role: str, table: str | None = "1", extra: str = "") -> str:
        """The page's address as a station is given it: the token in the fragment, which the
        browser sends to no server."""
        tok = token(role, "main", table if role == "dealer" else None)  # type: ignore[arg-type]
        query = "tournament=main" + (f"&table={table}" if table else "") + extra
        return f"http://127.0.0.1:{self.server.port}/{page}.html?{query}#token={tok}"

    def open(
        self,
        page: str,
        role: str,
        table: str | None = "1",
        viewport: tuple[int, int] = (1024, 768),
        extra: str = "",
        before: Callable[[Any], None] | None = None,
    ) -> Any:
        """The station's page; ``before`` is called with the page before it is loaded (to
        route its websocket, say)."""
        context = self.browser.new_context(
            viewport={"width": viewport[0], "height": viewport[1]}, has_touch=page == "dealer"
        )
        self.contexts.append(context)
        tab = context.new_page()
        tab.set_default_timeout(10_000)
        errors: list[str] = []
        tab.on("pageerror", lambda exc: errors.append(str(exc)))
        tab.page_errors = errors  # type: ignore[attr-defined]
        if before is not None:
            before(tab)
        tab.goto(self.url(page, role, table, extra))
        return tab

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def stations(
    browser: Any,
    start_server: Callable[..., ServerProcess],  # noqa: F811 - the service tests' fixture
) -> Iterator[Stations]:
    server = start_server()
    opened = Stations(browser, server)
    yield opened
    opened.close()
