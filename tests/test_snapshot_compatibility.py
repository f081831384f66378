"""A table's snapshot in Redis is the engine state as a msgpack array: a field added to the
state goes last, so the snapshots an earlier version stored still decode after an upgrade."""

from __future__ import annotations

import msgspec

from protocol import StartHand, TableConfig
from server.engine import TableState, apply, new_table


def test_a_snapshot_stored_without_the_newest_fields_still_decodes() -> None:
    config = TableConfig(game="NLHE", blinds=(50, 100), seats={1: 5_000, 2: 5_000}, button=1)
    state, _ = apply(new_table(config), StartHand())
    fields = msgspec.to_builtins(state)
    for newest in range(1, 3):
        older = msgspec.msgpack.encode(fields[:-newest])
        decoded = msgspec.msgpack.decode(older, type=TableState)
        assert decoded.seats == state.seats and decoded.hand == state.hand
        assert decoded.arrived == []
