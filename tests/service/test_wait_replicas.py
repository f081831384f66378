"""``--wait-replicas``: both sides of the line where a primary has no replica.

``auto`` (the default) acknowledges on a primary without replicas (the service tests all run so);
an explicit count refuses to: the command runs on the primary, but its ``WAIT`` falls short, and
the dealer is told the outcome is unknown (sent again by its id) — never ``ok``.
"""

from __future__ import annotations

import pytest

from clients.python import CommandRefused
from protocol.commands import StartHand
from tests.service.bots import deep_config, setup_tables
from tests.service.conftest import token
from tests.service.test_abuse import metric

T = "main"
SHORTFALLS = "tablewire_replica_shortfalls_total"


async def test_an_explicit_replica_count_acknowledges_nothing_without_the_replicas(
    start_server, connect
) -> None:  # type: ignore[no-untyped-def]
    auto = start_server()
    await setup_tables(auto.url, token("admin"), T, ["1", "2"], deep_config())
    strict = start_server(TABLEWIRE_WAIT_REPLICAS="1", TABLEWIRE_WAIT_TIMEOUT="0.2")

    dealer = await connect(strict, "dealer", table="1")
    with pytest.raises(CommandRefused) as refused:
        await dealer.command(T, "1", StartHand(), patience=1.0)
    assert refused.value.error.code == "unknown_outcome"
    assert await metric(strict.port, SHORTFALLS) >= 1
    assert dealer.resent >= 1  # sent again by its id, refused again

    # The same kind of command on the instance with the default is acknowledged at once.
    other = await connect(auto, "dealer", table="2")
    ack = await other.command(T, "2", StartHand(), patience=1.0)
    assert ack.seq > 0
    assert await metric(auto.port, SHORTFALLS) == 0
