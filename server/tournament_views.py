"""The typed views of a tournament (:mod:`protocol.tournament.views`) from the engine's state.

Field by field, from a state the engine made, so building a view never raises on a valid
state; encoded once and sent to every station of the tournament.
"""

from __future__ import annotations

from protocol.tournament import Structure, table_game
from protocol.tournament.views import (
    ClockState,
    ClockView,
    HandForHandView,
    LevelView,
    MoveView,
    PlayerView,
    TableSeatsView,
    TournamentView,
)
from server import tournament
from server.tournament import TournamentState


def _level(structure: Structure, index: int, number: int) -> LevelView:
    step = structure.levels[index]
    level = step.level
    return LevelView(
        level=number,
        blinds=step.blinds,
        ante=step.ante,
        bba=step.bba,
        minutes=step.minutes,
        hands=step.hands,
        game=table_game(structure.game_at(index)),
        bring_in=level.bring_in,
        min_bet=level.min_bet,
    )


def clock_state(t: TournamentState) -> ClockState:
    c = t.clock
    if t.finished:
        return "finished"
    if not c.started:
        return "not_started"
    if not c.running:
        return "paused"
    return "break" if t.structure.levels[c.step].is_break else "running"


def clock_view(t: TournamentState, now: int = 0) -> ClockView:
    """The clock as of the state; ``now`` is the server's time when it is sent."""
    s, c = t.structure, t.clock
    steps = s.levels
    index = c.step
    level_index = index
    while steps[level_index].is_break:
        level_index -= 1
    current = steps[index]
    after = index + 1 if index + 1 < len(steps) else None
    next_level: LevelView | None = None
    for j in range(index + 1, len(steps)):
        if not steps[j].is_break:
            next_level = _level(s, j, s.level_number(j))
            break
    next_break_at = 0
    if c.running and c.ends_at:
        at = c.ends_at
        for j in range(index + 1, len(steps)):
            if steps[j].is_break:
                next_break_at = at
                break
            if not steps[j].minutes:
                break
            at += steps[j].length_ms
    return ClockView(
        tournament=t.id,
        state=clock_state(t),
        step=index,
        level=_level(s, level_index, s.level_number(level_index)),
        on_break=current.is_break,
        break_minutes=current.pause,
        ends_at=c.ends_at if c.running else 0,
        remaining=0 if c.running else c.remaining,
        hands_left=c.hands_left,
        next_level=next_level,
        next_is_break=after is not None and steps[after].is_break,
        next_break_at=next_break_at,
        now=now,
    )


def tournament_view(t: TournamentState, name: str, now: int, public: bool = True) -> TournamentView:
    """The tournament as a station sees it; a public one (a display) never gets the break
    order (12-C)."""
    alive = t.alive()
    seated = [p for p in alive if p.status == "seated"]
    chips = tournament.chips_in_play(t)
    pool = tournament.prize_pool(t)
    prizes = t.prizes or tournament.payout_table(t.structure, t.entries, pool)
    players = []
    for p in t.players.values():
        last = p.results[-1] if p.results and p.results[-1].entry == p.entry else None
        players.append(
            PlayerView(
                player=p.player,
                name=p.name,
                status=p.status,
                entry=p.entry,
                table=p.table,
                seat=p.seat,
                stack=p.stack,
                place=last.place if last else 0,
                prize=last.prize if last else 0,
                bounties=p.bounties,
                absent=p.absent,
            )
        )
    return TournamentView(
        tournament=t.id,
        name=name or t.structure.name,
        clock=clock_view(t, now),
        entries=t.entries,
        players_left=len(alive),
        average_stack=chips // len(seated) if seated else 0,
        chips_in_play=chips,
        prize_pool=pool,
        payouts=list(prizes),
        registration_open=not t.closed,
        late_registration_until=t.structure.late_registration_until,
        table_size=t.structure.table_size,
        players=players,
        tables=[
            TableSeatsView(
                table=name_,
                seats=tab.seats,
                players=len(tab.occupied),
                stopped=tab.stopped,
                waived=tab.waived,
            )
            for name_, tab in t.tables.items()
        ],
        finished=t.finished,
        moves=_moves(t),
        hand_for_hand=_hand_for_hand(t),
        next_break="" if public else t.break_proposed,
    )


def _hand_for_hand(t: TournamentState) -> HandForHandView | None:
    h = t.h4h
    return HandForHandView(hand=h.hand, waiting=list(h.waiting), ready=h.ready) if h else None


def _moves(t: TournamentState) -> list[MoveView]:
    """The balancing moves waiting for the floor or for a hand to end, with why (12-A)."""
    found = []
    for number, p in sorted(t.proposals.items()):
        src, dst = t.tables.get(p.from_table), t.tables.get(p.table)
        if src is None or dst is None:
            continue
        seat = next((s for s, who in src.occupied.items() if who == p.player), 0)
        reason = (
            f"table {p.from_table} has {len(src.occupied)} players and table {p.table} "
            f"{len(dst.occupied)}: more than {t.structure.balance} apart"
        )
        found.append(
            MoveView(
                proposal=number,
                from_table=p.from_table,
                from_seat=seat,
                player=p.player,
                table=p.table,
                seat=p.seat,
                confirmed=p.confirmed,
                waiting=list(p.waiting),
                reason=reason,
            )
        )
    return found
