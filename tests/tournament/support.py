"""Tournament test harness: a scenario through the same path as ``tablewire replay``.

A test reads like the floor's log: the structure, the tables, what happened in order; then the
lines the replay prints (tournament events as they are, table events as ``{"table", "event"}``).
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

from protocol.tournament import Entry, decode_tournament_scenario
from server.engine.pots import layered
from server.tournament import chips_in_play, pool
from server.tournament_replay import TournamentReplay, check_entries


def _plain(value: Any) -> Any:
    """A line as the wire has it (arrays are lists), seat keys kept as numbers."""

    def walk(v: Any) -> Any:
        if isinstance(v, tuple | list):
            return [walk(x) for x in v]
        if isinstance(v, dict):
            return {k: walk(x) for k, x in v.items()}
        return v

    return walk(msgspec.to_builtins(value))


def structure(**changes: Any) -> dict[str, Any]:
    """A small structure: 10-minute levels 50/100, 100/200, 200/400 with a break, 10,000 chips.

    Entries are drawn from every free seat (``seating: any``): the rule tests seat players
    where their example needs them (uneven tables to balance, a short table to stop)."""
    base: dict[str, Any] = {
        "name": "Test event",
        "seating": "any",
        "starting_stack": 10_000,
        "buy_in": 100,
        "fee": 10,
        "table_size": 9,
        "late_registration_until": 2,
        "levels": [
            {"blinds": [50, 100], "minutes": 10},
            {"blinds": [100, 200], "minutes": 10},
            {"break": 5},
            {"blinds": [200, 400], "ante": 400, "bba": True, "minutes": 10},
        ],
        "payouts": {"places": [{"place": 1, "percent": 60}, {"place": 2, "percent": 40}]},
    }
    base.update(changes)
    return base


def scenario(
    struct: dict[str, Any], tables: list[dict[str, Any]], commands: list[dict[str, Any]]
) -> dict[str, Any]:
    return {"structure": struct, "tables": tables, "commands": commands}


def run(data: dict[str, Any]) -> tuple[list[dict[str, Any]], TournamentReplay]:
    """Decode as the replay tool does, run, and return the lines as dicts and the replay."""
    decoded = decode_tournament_scenario(json.dumps(data))
    check_entries(decoded)
    replay = TournamentReplay(decoded)
    lines = [_plain(line) for line in replay.run()]
    return lines, replay


def t(command: dict[str, Any], at: int | None = None) -> dict[str, Any]:
    """A tournament command entry."""
    entry: dict[str, Any] = {"tournament": command}
    if at is not None:
        entry["at"] = at
    return entry


def table(tid: str, command: dict[str, Any], at: int | None = None) -> dict[str, Any]:
    """A table command entry."""
    entry: dict[str, Any] = {"table": tid, "command": command}
    if at is not None:
        entry["at"] = at
    return entry


def events(lines: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    """The tournament events of type ``kind``."""
    return [line for line in lines if line.get("type") == kind]


def table_events(lines: list[dict[str, Any]], tid: str, kind: str) -> list[dict[str, Any]]:
    return [
        line["event"]
        for line in lines
        if "event" in line and line["table"] == tid and line["event"]["type"] == kind
    ]


def stacks_on_tables(replay: TournamentReplay) -> int:
    return sum(s.stack for state in replay.tables.values() for s in state.seats)


def conserved(replay: TournamentReplay) -> bool:
    """Chips in play, as the tournament counts them, are the chips on the tables."""
    return chips_in_play(replay.state) == stacks_on_tables(replay)


def seat_of(lines: list[dict[str, Any]], player: str) -> tuple[str, int]:
    seated = [e for e in events(lines, "seated") if e["player"] == player][-1]
    return seated["table"], seated["seat"]


class Session:
    """A tournament replayed entry by entry, for tests that play hands by the table's prompts.

    Every entry goes through the replay format's decoder and the replay driver, as a file's do.
    """

    def __init__(self, struct: dict[str, Any], tables: list[dict[str, Any]]) -> None:
        decoded = decode_tournament_scenario(json.dumps(scenario(struct, tables, [])))
        self.replay = TournamentReplay(decoded)
        self.lines: list[dict[str, Any]] = [_plain(x) for x in self.replay.lines]
        self.now = 0

    def do(self, entry: dict[str, Any]) -> list[dict[str, Any]]:
        if "at" in entry:
            self.now = entry["at"]
        check_entries(decode_tournament_scenario(json.dumps(scenario({**STRUCT}, [], [entry]))))
        before = len(self.replay.lines)
        self.replay.entry(msgspec.json.decode(json.dumps(entry), type=Entry))
        new = [_plain(x) for x in self.replay.lines[before:]]
        self.lines += new
        return new

    def many(self, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [line for entry in entries for line in self.do(entry)]

    def hand(
        self,
        tid: str,
        plan: dict[int, str],
        order: list[int],
        cards: dict[int, list[str]] | None = None,
    ) -> list[dict[str, Any]]:
        """Start a hand at ``tid`` and play it out: each seat does what ``plan`` says when it
        is to act (``check`` or ``call`` when absent); each pot goes to the first seat of
        ``order`` (best hand first) that is in it."""
        out = self.do(table(tid, {"type": "start_hand", "cards": cards or {}}, at=self.now + 1))
        if any(x.get("event", {}).get("type") == "error" for x in out):
            return out
        return out + self.play_on(tid, plan, order)

    def play_on(
        self, tid: str, plan: dict[int, str] | None = None, order: list[int] | None = None
    ) -> list[dict[str, Any]]:
        """Play the hand in progress at ``tid`` on, as :meth:`hand` does; it stops at an error
        (a hand-for-hand all-in waiting for the floor, RP-8-F)."""
        plan, order, out = plan or {}, order or [], []
        for _ in range(200):
            state = self.replay.tables[tid]
            if state.phase == "idle" or any(x.get("event", {}).get("type") == "error" for x in out):
                return out
            if state.phase == "betting" and state.to_act is not None:
                seat = state.to_act
                how = plan.get(seat) or (
                    "check" if state.current_bet == _bet(state, seat) else "call"
                )
                out += self.do(table(tid, {"type": "act", "seat": seat, "declare": how}))
            elif state.phase == "deal":
                out += self.do(table(tid, {"type": "deal", "street": state.next_street}))
            elif state.phase == "showdown":
                pot = len(state.awards)
                eligible = layered(state)[pot].eligible
                best = next(n for n in [*order, *sorted(eligible)] if n in eligible)
                seat = next(x for x in state.seats if x.number == best)
                if not (seat.shown or state.exposed):
                    out += self.do(table(tid, {"type": "show", "seat": best}))
                    for other in state.seats:
                        if other.live and other.number != best:
                            out += self.do(table(tid, {"type": "muck", "seat": other.number}))
                    continue
                award = {"type": "award", "pot": pot, "winners": [best]}
                out += self.do(table(tid, award))
            else:
                raise AssertionError(f"table {tid} is in {state.phase}")
        raise AssertionError("the hand did not end")


def _bet(state: Any, seat: int) -> int:
    return next(s.bet for s in state.seats if s.number == seat)


def place(s: Session, player: str, tid: str, seat: int, name: str = "") -> list[dict[str, Any]]:
    """Register ``player`` and seat them at ``tid``/``seat``: the draw that picks that seat."""
    out = s.do(t({"type": "register", "player": player, "name": name or player.upper()}))
    draw = pool(s.replay.state).index((tid, seat))
    return out + s.do(t({"type": "seat", "player": player, "draw": draw}))


STRUCT = structure()
