"""What a whole tournament played through the service must show, read back from Redis: the
tournament's log and every table's log, put in one order and replayed through the pure engines.

Every step the service commits — a tournament command with the tables it touches, or a table's
hand end with the tournament's part of it — writes all its logs in one script, each entry with
the step's commit time (``a``). So the entries of a table log whose time is that of a step of
the tournament log belong to that step: the logs line up at those steps (and each table's own
order must agree with the tournament's: checked). Between them a table's own commands (the
dealer's) come in its order. :func:`replay` walks the steps in the tournament's order, each
table caught up to its part of the step, and rebuilds both sides — every table through the
table engine's ``evolve`` (``server.engine``), the tournament through its own
(``server.tournament``) — checking after each step:

- the tables and the tournament agree on every seat, and every entry still in sits at exactly
  one seat of one table (none at two, none at none), none that is out sits anywhere;
- at every hand boundary the stacks of every table — each as of its last hand end, with the
  players seated or moved since — add up to the chips in play: the entries' starting stacks
  less exactly what the color-ups' races took out without compensation (26-C), recomputed
  from the races (``chip_race``: each seat's odd chips, less the chips the race gave back);
- a newcomer to a table (a late entry, a re-entry, a player from a broken table) is not dealt
  in between the button and the small blind (9-A, 11-A);
- every hand a table ends is counted by the tournament in the same step (``hand_counted``):
  else :class:`UncountedHandEnd`.

From the tables' ``hand_start`` events it records each player's hands, in order, with the role
in each (big blind, small blind, button, another seat; heads-up apart) and where the tournament
moved the player: :func:`big_blinds` checks each balancing move against 12-A — the player
moved was the next to be the big blind (he did not post it in his last hand before the move)
and at the new table his first blind is the big blind (neither the small blind nor the button
before it), a seat posting a single big blind (the small blind dead) allowed the big blind
twice in a row.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import msgspec

from protocol import Event, HandEnd, HandStart, PlayerAdded, PlayerRemoved, TableConfig
from protocol.tournament import Structure, TournamentEvent
from server import engine
from server.engine import TableState
from server.keys import TOURNAMENT_LOG, log_key, state_key
from server.tournament import TournamentState, chips_in_play, new_tournament
from server.tournament import evolve as evolve_tournament


class UncountedHandEnd(AssertionError):
    """A table's hand ended and the tournament did not count it in the same step."""


@dataclass(frozen=True)
class Entry:
    seq: int
    at: str
    """The commit time of the step that wrote it: the same in every log of that step."""
    typed: Any
    """The event: a table's ``Event`` or a ``TournamentEvent``."""
    event: dict[str, Any]
    """The event as the wire has it (a tournament's; empty for a table's)."""


_table_event = msgspec.json.Decoder(Event)
_tournament_event = msgspec.json.Decoder(TournamentEvent)


async def read_log(aredis: Any, tournament: str, table: str) -> list[Entry]:
    """A whole log, checked complete: numbered from 1 without a gap (not trimmed)."""
    raw = await aredis.xrange(log_key(tournament, table))
    decode = _table_event.decode if table != TOURNAMENT_LOG else _tournament_event.decode
    plain = table == TOURNAMENT_LOG
    entries = [
        Entry(
            int(key.split(b"-")[0]),
            fields[b"a"].decode(),
            decode(fields[b"e"]),
            msgspec.json.decode(fields[b"e"]) if plain else {},
        )
        for key, fields in raw
    ]
    assert [e.seq for e in entries] == list(range(1, len(entries) + 1)), f"log {table!r} trimmed"
    return entries


@dataclass
class Logs:
    structure: Structure
    tournament: list[Entry]
    tables: dict[str, list[Entry]]
    configs: dict[str, TableConfig]


async def read_logs(aredis: Any, tournament: str, structure: Structure) -> Logs:
    log = await read_log(aredis, tournament, TOURNAMENT_LOG)
    names = [e.event["table"] for e in log if e.event["type"] == "table_opened"]
    tables = {name: await read_log(aredis, tournament, name) for name in names}
    configs = {
        name: msgspec.json.decode(
            await aredis.hget(state_key(tournament, name), "config"), type=TableConfig
        )
        for name in names
    }
    return Logs(structure, log, tables, configs)


def _steps(entries: list[Entry]) -> list[list[Entry]]:
    """Consecutive entries of one commit."""
    steps: list[list[Entry]] = []
    for entry in entries:
        if steps and steps[-1][0].at == entry.at:
            steps[-1].append(entry)
        else:
            steps.append([entry])
    return steps


# --- each player's hands ----------------------------------------------------------------------


@dataclass(frozen=True)
class Hand:
    """One of a player's hands: at ``table``, hand ``hand``, in ``role``: ``bb``, ``sb``,
    ``button``, ``hand`` (another seat) or ``heads_up``; ``single``: the big blind was posted
    with the small blind dead (a single big blind)."""

    table: str
    hand: int
    role: str
    single: bool = False


@dataclass(frozen=True)
class Arrival:
    """The tournament put the player at ``table``/``seat``: ``kind`` ``seated`` (an entry),
    ``balance`` (12-A), ``break`` (11-B), ``final`` (RP-9) or ``floor`` (a ``move``);
    ``free`` seats the table had just before (other arrivals of the same step included)."""

    kind: str
    table: str
    seat: int
    from_table: str = ""
    free: int = 0
    proposal: int = 0


Item = Hand | Arrival


@dataclass
class Replayed:
    """What the replay found: each player's hands and arrivals in order, and the counts."""

    players: dict[str, list[Item]] = field(default_factory=dict)
    """By player id (the name each table knows the player by is the id's name)."""
    boundaries: int = 0
    """Hand boundaries at which the chips were counted."""
    steps: int = 0
    counted: Counter[str] = field(default_factory=Counter)
    """Tournament events by type."""
    unseated: dict[str, str] = field(default_factory=dict)
    """Entries still in that sat at no seat, and the step where that was first seen."""
    dealt_late: list[str] = field(default_factory=list)
    """Newcomers dealt in between the button and the small blind (11-A): none expected."""
    race_removed: int = 0
    """Chips the races took out of play (26-C), less those they gave players who would have
    been raced out (26-A)."""
    left: Counter[str] = field(default_factory=Counter)
    """Balancing moves seen from the table left: ``next`` where its next hand's big blind
    went to the player after the one moved (he was the next big blind: nobody skipped it),
    ``unjudged`` where other seats changed there first."""
    left_failures: list[str] = field(default_factory=list)
    state: TournamentState | None = None
    tables: dict[str, TableState] = field(default_factory=dict)


def _role(e: HandStart, seat: int) -> str:
    if len(e.dealt) == 2:
        return "heads_up"
    if seat == e.big_blind:
        return "bb"
    if seat == e.small_blind:
        return "sb"
    if seat == e.button:
        return "button"
    return "hand"


def _positions(e: HandStart | None) -> str:
    if e is None:
        return "none"
    return (
        f"hand {e.hand} button {e.button} small blind {e.small_blind} big blind "
        f"{e.big_blind} dealt {sorted(e.dealt)}"
    )


def _between(seat: int, start: int, end: int) -> bool:
    """``seat`` strictly clockwise-between ``start`` and ``end``."""
    if start < end:
        return start < seat < end
    return seat > start or seat < end


def _seats(table: TableState) -> dict[int, str]:
    return {s.number: s.name for s in [*table.seats, *table.arrived]}


def replay(logs: Logs, names: dict[str, str]) -> Replayed:
    """Walk every log in one order, checking the seats and the chips after each step of the
    tournament. ``names``: the name each player id registered with (tables know names)."""
    ids = {name: player for player, name in names.items()}
    assert len(ids) == len(names), "names must be unique to follow players across tables"
    out = Replayed()
    tournament_steps = _steps(logs.tournament)
    index = {step[0].at: i for i, step in enumerate(tournament_steps)}
    assert len(index) == len(tournament_steps), "two steps of the tournament share a time"
    tables = {name: engine.new_table(config) for name, config in logs.configs.items()}
    table_steps = {name: _steps(entries) for name, entries in logs.tables.items()}
    synced: dict[int, dict[str, int]] = {}
    """Tournament step -> each table's step of it (by position in that table's steps)."""
    for name, steps in table_steps.items():
        last = -1
        for k, step in enumerate(steps):
            i = index.get(step[0].at)
            if i is None:
                continue
            assert i > last, f"table {name}'s log and the tournament's disagree on the order"
            last = i
            synced.setdefault(i, {})[name] = k
    done = dict.fromkeys(tables, 0)
    boundary: dict[str, dict[int, int]] = {name: {} for name in tables}
    newcomers: dict[str, set[int]] = {name: set() for name in tables}
    state = new_tournament(logs.structure, "sim")
    seated_entries = 0
    removed = 0

    def note(player: str, item: Item) -> None:
        out.players.setdefault(player, []).append(item)

    def table_step(name: str, step: list[Entry], in_tournament: bool) -> list[str]:
        """The table's events of one step; the hands they end, as ``table:hand``."""
        table = tables[name]
        ended: list[str] = []
        for entry in step:
            event: Event = entry.typed
            if isinstance(event, HandEnd) and not event.void:
                ended.append(f"{name}:{event.hand}")
            if isinstance(event, PlayerAdded | PlayerRemoved):
                changes[name] += 1
                if name in leaving:
                    del leaving[name]
                    out.left["unjudged"] += 1
            if isinstance(event, HandStart) and name in leaving:
                _next_big_blind(name, event, *leaving.pop(name))
            if isinstance(event, HandStart):
                last_start[name] = event
                at = _seats(table)
                for seat in event.dealt:
                    player = ids[at[seat]]
                    single = seat == event.big_blind and event.small_blind is None
                    note(player, Hand(name, event.hand, _role(event, seat), single))
                    # Heads-up the button is the small blind (36-C): no seat lies between.
                    sb = event.small_blind
                    late = seat in newcomers[name] and sb is not None and sb != event.button
                    if late and _between(seat, event.button, sb or 0):
                        out.dealt_late.append(f"table {name} hand {event.hand} seat {seat}")
                newcomers[name] = set()
            if isinstance(event, PlayerAdded | PlayerRemoved):
                assert in_tournament, f"table {name}: a seat changed outside a tournament step"
            engine.evolve(table, event)
            if table.phase == "idle":
                boundary[name] = {s.number: s.stack for s in [*table.seats, *table.arrived]}
            elif isinstance(event, PlayerAdded):
                boundary[name][event.seat] = event.stack
            elif isinstance(event, PlayerRemoved):
                boundary[name].pop(event.seat, None)
            if isinstance(event, PlayerAdded):
                newcomers[name].add(event.seat)
        return ended

    def _next_big_blind(name: str, event: HandStart, player: str, seat: int, seen: str) -> None:
        """12-A at the table left: the player moved from ``seat`` was the next big blind, so
        the big blind goes on to the first player dealt after him. ``seen``: the table's last
        hand start and the tournament's view of the table when he moved, for the message."""
        if len(event.dealt) <= 2:
            out.left["unjudged"] += 1
            return
        dealt = sorted(event.dealt)
        after = next((s for s in dealt if s > seat), dealt[0])
        if event.big_blind == after:
            out.left["next"] += 1
        else:
            out.left_failures.append(
                f"{player} moved from table {name} seat {seat}: its next hand {event.hand} had "
                f"the big blind on seat {event.big_blind}, not on seat {after} after him (the "
                f"player moved was not the next big blind); dealt {dealt}; {seen}"
            )

    def catch_up(name: str, until: int) -> None:
        """The table's own steps before its step ``until``."""
        while done[name] < until:
            ended = table_step(name, table_steps[name][done[name]], False)
            if ended:
                raise UncountedHandEnd(f"hand {ended[0]} ended in a step the tournament missed")
            done[name] += 1

    last_start: dict[str, HandStart] = {}
    leaving: dict[str, tuple[str, int, str]] = {}
    """Tables a balancing move left in one step alone: who left and from where."""
    changes: Counter[str] = Counter()
    for i, step in enumerate(tournament_steps):
        parts = synced.get(i, {})
        changes.clear()
        free_before = {}
        ended: list[str] = []
        for name, k in sorted(parts.items()):
            catch_up(name, k)
            tab = state.tables.get(name)
            free_before[name] = (tab.seats - len(tab.occupied)) if tab is not None else 0
            ended += table_step(name, table_steps[name][k], True)
            done[name] = k + 1
        counts = {
            f"{e.event['table']}:{e.event['hand']}"
            for e in step
            if e.event["type"] == "hand_counted"
        }
        if missed := [hand for hand in ended if hand not in counts]:
            kinds = [e.event["type"] for e in step]
            raise UncountedHandEnd(
                f"step {i} {kinds}: hand {missed[0]} ended at its table and the tournament did "
                "not count it (no hand_counted): its busted players stay seated, what waits "
                "for that hand (hand-for-hand, moves, breaks) waits for ever"
            )
        counted = False
        for entry in step:
            event: TournamentEvent = entry.typed
            kind = entry.event["type"]
            out.counted[kind] += 1
            evolve_tournament(state, event)
            e = entry.event
            if kind == "seated":
                seated_entries += 1
                note(e["player"], Arrival("seated", e["table"], e["seat"]))
            elif kind == "moved":
                how = e.get("kind") or "floor"
                free = free_before.get(e["table"], 0)
                free_before[e["table"]] = free - 1
                arrival = Arrival(
                    how, e["table"], e["seat"], e["from_table"], free, e.get("proposal", 0)
                )
                note(e["player"], arrival)
                if how == "balance" and changes[e["from_table"]] == 1:
                    before = last_start.get(e["from_table"])
                    seen = (
                        f"when he moved, the table's last hand start: {_positions(before)}; the "
                        f"tournament's table: {state.tables[e['from_table']]!r}"
                    )
                    leaving[e["from_table"]] = (e["player"], e["from_seat"], seen)
                elif how == "balance":
                    out.left["unjudged"] += 1
            elif kind == "final_table":
                for player, seat in e["seats"].items():
                    note(player, Arrival("final", e["table"], seat, e["came_from"][player][0]))
            elif kind == "chips_removed" or kind == "disqualified":
                removed += e["chips"]
            elif kind == "chip_race":
                # 26-C: the remainder below one chip leaves play; 26-A: a player who would be
                # raced out gets one chip (it comes into play).
                taken = sum(e["removed"].values()) - sum(e["won"].values())
                rescued = e["unit"] * len(e["rescued"])
                assert taken == e["remainder"] - rescued, (
                    f"the race took {taken}: not {e['remainder']} (26-C) less {rescued} (26-A)"
                )
                assert 0 <= e["remainder"] < e["unit"], "26-C: a remainder is below one chip"
                removed += taken
                out.race_removed += taken
            elif kind == "hand_counted":
                counted = True
            assert kind != "chips_miscounted", e.get("text")
        out.steps += 1
        where = f"step {i} ({step[0].event['type']})"
        _check_seats(state, tables, ids, where)
        for p in state.players.values():
            if p.status == "registered" and p.player not in out.unseated:
                # In the tournament and at no seat: every entry of the service is drawn its
                # seat in the step it registers (8, 9-A).
                out.unseated[p.player] = where
        if counted:
            out.boundaries += 1
            on_tables = sum(sum(stacks.values()) for stacks in boundary.values())
            expected = seated_entries * logs.structure.starting_stack - removed
            assert on_tables == expected == chips_in_play(state), (
                f"step {i}: the tables hold {on_tables}, chips in play are {expected} "
                f"(the tournament counts {chips_in_play(state)})"
            )
    for name in tables:
        catch_up(name, len(table_steps[name]))
    out.state, out.tables = state, tables
    return out


def _check_seats(
    state: TournamentState, tables: dict[str, TableState], ids: dict[str, str], where: str
) -> None:
    at_tables: dict[tuple[str, int], str] = {
        (name, seat): ids[who]
        for name, table in tables.items()
        for seat, who in _seats(table).items()
    }
    held = {
        (name, seat): who
        for name, tab in state.tables.items()
        for seat, who in tab.occupied.items()
    }
    if at_tables != held:
        only_tables = sorted(set(at_tables.items()) - set(held.items()))
        only_tournament = sorted(set(held.items()) - set(at_tables.items()))
        raise AssertionError(
            f"{where}: the tables and the tournament disagree on the seats: at the tables only "
            f"{only_tables}, in the tournament only {only_tournament}"
        )
    seats = Counter(at_tables.values())
    for p in state.players.values():
        if p.status == "seated":
            assert seats[p.player] == 1 and held.get((p.table or "", p.seat or 0)) == p.player, (
                f"{where}: {p.player} is in and sits at {seats[p.player]} seats"
            )
        else:
            assert seats[p.player] == 0, f"{where}: {p.player} is {p.status} but sits at a table"


# --- 12-A -------------------------------------------------------------------------------------


@dataclass
class BigBlinds:
    """The balancing moves checked against 12-A, and those a check cannot judge."""

    checked: int = 0
    at_once: int = 0
    """Moved players who posted the big blind in the new table's very next hand."""
    button_first: int = 0
    """Moved players on a first hand's button who posted the big blind in the next hand."""
    single_twice: int = 0
    """Moved players who posted a single big blind right after a big blind (allowed, 12-A)."""
    last_seat: int = 0
    """Moves to a table's last free seat: no position to choose, not judged."""
    heads_up: int = 0
    """Moves into heads-up play (the button is the small blind, 36-C), not judged."""
    unplayed: int = 0
    """Moved players who played no blind at the new table (out first, or moved on)."""
    failures: list[str] = field(default_factory=list)


def big_blinds(replayed: Replayed) -> BigBlinds:
    """12-A for every balancing move of every player: the next big blind moved (he did not
    post the big blind in his last hand at the table he left), to the worst position (his first
    blind at the new table is the big blind: neither the small blind nor the button before it),
    never missing one and never posting two in a row — unless the second is a single big blind
    (the small blind dead: the single big blind's seat counts, 12-A)."""
    found = BigBlinds()
    for player, items in replayed.players.items():
        for i, item in enumerate(items):
            if not isinstance(item, Arrival) or item.kind != "balance":
                continue
            before: list[Hand] = []
            for earlier in reversed(items[:i]):
                if isinstance(earlier, Arrival):
                    break
                before.append(earlier)
            after: list[Hand] = []
            for later in items[i + 1 :]:
                if isinstance(later, Arrival):
                    break
                after.append(later)
            story = f"{player} moved from table {item.from_table} to {item.table} seat {item.seat}"
            if item.free <= 1:
                found.last_seat += 1
                continue
            if (before and before[0].role == "heads_up") or (after and after[0].role == "heads_up"):
                found.heads_up += 1
                continue
            blinds = [h for h in after if h.role in ("bb", "sb", "button", "heads_up")]
            if not blinds or blinds[0].role == "heads_up":
                found.unplayed += 1
                continue
            found.checked += 1
            first = blinds[0]
            then = after[after.index(first) + 1 :]
            if first.role == "button" and then and then[0].role == "bb":
                # A table's first hand deals from its button: the seat there posts the big
                # blind in the second hand, the soonest a newcomer can without the small blind.
                found.button_first += 1
                first = then[0]
            if first.role != "bb":
                found.failures.append(
                    f"{story}: {first.role} at hand {first.hand} before the big blind "
                    f"(missed a big blind); there: {[h.role for h in after[:6]]}"
                )
                continue
            if after[0] is first:
                found.at_once += 1
            if before and before[0].role == "bb":
                if first.single and after[0] is first:
                    found.single_twice += 1
                else:
                    found.failures.append(
                        f"{story}: posted the big blind in his last hand at table "
                        f"{item.from_table} (hand {before[0].hand}) and again at table "
                        f"{item.table} hand {first.hand} (doubled a big blind)"
                    )
    return found


# --- places and prizes ------------------------------------------------------------------------


def places_and_prizes(logs: Logs) -> tuple[int, int, dict[tuple[str, int], int]]:
    """Every entry placed exactly once (the winner first), and the prizes paid are the pool:
    (entries, pool, place by (player, entry))."""
    log = [e.event for e in logs.tournament]
    closed = [e for e in log if e["type"] == "registration_closed"]
    assert len(closed) == 1, "registration closed once"
    entries = sum(1 for e in log if e["type"] == "registered")
    assert closed[0]["entries"] == entries
    places: dict[tuple[str, int], int] = {}
    prizes: dict[tuple[str, int], int] = {}
    for e in log:
        if "player" not in e:
            continue
        key = (e["player"], e.get("entry", 1))
        if e["type"] in ("eliminated", "placed") and e.get("place"):
            assert key not in places, f"{key} placed twice"
            places[key] = e["place"]
            prizes[key] = e.get("prize", 0)
        elif e["type"] == "winner":
            assert key not in places
            places[key], prizes[key] = 1, e["prize"]
    winners = [e for e in log if e["type"] == "winner"]
    assert len(winners) == 1, "one winner"
    assert len(places) == entries, f"{len(places)} entries placed of {entries}"
    assert set(places.values()) <= set(range(1, entries + 1))
    # Places count down from the last entry out to 1; entries sharing a place (the same hand:
    # 22; one hand-for-hand hand, RP-8-A) take the best of the places they finish in.
    shares = Counter(places.values())
    for place, count in shares.items():
        assert place + count - 1 <= entries
        for other in range(place + 1, place + count):
            assert other not in shares, f"place {other} given beside {count} sharing {place}"
    assert sum(prizes.values()) == closed[0]["pool"], (
        f"prizes {sum(prizes.values())} paid of a pool of {closed[0]['pool']}"
    )
    return entries, closed[0]["pool"], places
