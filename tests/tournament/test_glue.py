"""The glue's contract with the service: ``touched`` names every table an event's orders read or
change (the service loads exactly those before ordering), and ``stamp`` gives the commands that
wait for tables between hands the tables in a hand. Checked over every rule test of this issue:
each order the replay applies is wrapped, and the tables its lines name must be ``touched``."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import pytest

from protocol.tournament import ConfirmMove, TableOpened, TournamentEvent
from server import tournament_glue
from server.engine import TableState
from server.tournament import TournamentState
from server.tournament_glue import TableLine
from tests.tournament import test_rules_balancing, test_rules_breaks, test_rules_hand_for_hand
from tests.tournament.support import events, table
from tests.tournament.test_rules_balancing import _two_tables


def _rule_tests() -> list[Callable[[], None]]:
    found = []
    for module in (test_rules_balancing, test_rules_breaks, test_rules_hand_for_hand):
        for name, fn in sorted(vars(module).items()):
            if name.startswith("test_rule") and inspect.isfunction(fn):
                found.append(fn)
    return found


@pytest.mark.parametrize("rule_test", _rule_tests(), ids=lambda fn: fn.__name__)
def test_every_order_names_only_the_tables_touched_says(
    rule_test: Callable[[], None], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = tournament_glue.order
    orders = []

    def checked(
        state: TournamentState, tables: dict[str, TableState], event: TournamentEvent, *a: Any
    ) -> list[TableLine]:
        lines = real(state, tables, event, *a)
        named = {line.table for line in lines}
        allowed = tournament_glue.touched(state, [event])
        if isinstance(event, TableOpened):
            allowed.add(event.table)
        assert named <= allowed, f"{type(event).__name__} orders {named - allowed} untouched"
        orders.append(event)
        return lines

    monkeypatch.setattr(tournament_glue, "order", checked)
    rule_test()
    assert orders


def test_stamp_fills_playing_from_the_tables_and_needs_names_them() -> None:
    s = _two_tables([1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 3, 5, 7, 8])
    s.hand("2", {}, [1])
    proposal = events(s.hand("1", {}, [1]), "move_proposed")[-1]["proposal"]
    s.do(table("2", {"type": "start_hand"}))
    command = ConfirmMove(proposal=proposal, playing=["1"])
    assert tournament_glue.needs(s.replay.state, command) == {"1", "2"}
    stamped = tournament_glue.stamp(command, s.replay.tables)
    assert isinstance(stamped, ConfirmMove) and stamped.playing == ["2"]
