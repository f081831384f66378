"""The structure and the clock (25): levels start when the clock reaches them and apply at each
table from its next hand; breaks stop new hands and end by the clock.

Time is an input: every clock command carries ``at`` (ms), and ``time`` brings the clock to a
moment, starting every level and break whose time has come on the way. A level starts at the
moment the previous step ended, not when someone noticed (25-A). A level counted in hands ends
when that many hands have ended. The last level plays on until the tournament ends.
"""

from __future__ import annotations

from protocol.config import Level
from protocol.tournament import (
    STUD_GAMES,
    AddTime,
    BreakStarted,
    ClockPaused,
    ClockResumed,
    ClockStarted,
    LevelStarted,
    NextLevel,
    PauseClock,
    PreviousLevel,
    RegistrationClosed,
    ResumeClock,
    StartClock,
    Tick,
    TimeChanged,
)
from server.tournament import balancing, payouts, words
from server.tournament.errors import TournamentIllegal
from server.tournament.moves import Emit
from server.tournament.places import champion, pending_places
from server.tournament.state import TournamentState


def level_in_force(t: TournamentState) -> Level:
    """The level each table's next hand uses: on a break, the level before it (25-A/B)."""
    steps = t.structure.levels
    index = t.clock.step
    while steps[index].is_break:
        index -= 1
    return steps[index].level


def may_start_hand(t: TournamentState, table: str, at: int) -> Level:
    """May table ``table`` start a hand at ``at``, and at which level? Bring the clock to ``at``
    (a ``time`` command) first: this reads the state, it does not move the clock."""
    if table not in t.tables:
        raise TournamentIllegal("", f"table {table} is not in the tournament", code="unknown_table")
    held = hold(t, at)
    if held is not None:
        raise held
    return level_in_force(t)


def hold(t: TournamentState, at: int) -> TournamentIllegal | None:
    """Why no table may start a hand at ``at`` (the clock not started, a break, the end), or
    None when every table may."""
    if t.finished:
        return TournamentIllegal("", "the tournament is over", code="finished")
    if not t.clock.started:
        return TournamentIllegal("25-A", "the clock has not started", code="not_started")
    step = t.structure.levels[t.clock.step]
    if step.is_break:
        until = words.clock_time(t.clock.ends_at if t.clock.running else at + t.clock.remaining)
        return TournamentIllegal(
            "25-A", f"the tournament is on a break until {until}: no new hand", code="on_break"
        )
    game = t.structure.game_at(t.clock.step)
    if game in STUD_GAMES and not level_in_force(t).bring_in:
        return TournamentIllegal(
            "RP-10",
            f"level {t.structure.level_number(t.clock.step)} is {game} without a bring-in: no"
            " stud hand can be dealt until the structure names one",
            code="game_not_dealt",
        )
    return None


def lose(t: TournamentState, at: int, ms: int, emit: Emit) -> None:
    """Hand-for-hand: the stopped clock loses ``ms`` for a hand (RP-8-B/C); a level whose time
    is used up gives way to the next, so the blinds go on rising (RP-8-D). A break reached so
    runs on the clock, in real time."""
    advance(t, at, emit)
    c = t.clock
    if c.running and c.ends_at:
        emit(ClockPaused(at=at, remaining=max(0, c.ends_at - at), text="Hand-for-hand: clock"))
    left = ms
    while left > 0 and not c.running and c.remaining:
        if c.remaining > left:
            remaining = c.remaining - left
            emit(
                TimeChanged(
                    at=at,
                    ms=-left,
                    ends_at=0,
                    remaining=remaining,
                    text=f"Hand-for-hand: {words.duration(left)} off the clock, "
                    f"{words.duration(remaining)} left (RP-8-B, RP-8-C)",
                )
            )
            return
        left -= c.remaining
        if c.step + 1 >= len(t.structure.levels):
            return
        _enter(t, c.step + 1, at, emit)
        step = t.structure.levels[c.step]
        if step.is_break:
            emit(ClockResumed(at=at, ends_at=at + step.length_ms, text="The break runs"))
            return
        emit(
            ClockPaused(
                at=at,
                remaining=step.length_ms,
                text="Hand-for-hand: the new level's clock waits for the hands (RP-8-D)",
            )
        )


def start(t: TournamentState, cmd: StartClock, emit: Emit) -> None:
    if t.clock.started:
        raise TournamentIllegal("25-A", "the clock has already started", code="clock_started")
    emit(ClockStarted(at=cmd.at, text=f"The clock starts: level 1 at {words.clock_time(cmd.at)}"))
    _enter(t, 0, cmd.at, emit)


def tick(t: TournamentState, cmd: Tick, emit: Emit) -> None:
    advance(t, cmd.at, emit)


def advance(t: TournamentState, at: int, emit: Emit) -> None:
    """Start every step whose time has come by ``at``, each when the one before it ended."""
    c = t.clock
    while c.running and c.ends_at and at >= c.ends_at and c.step + 1 < len(t.structure.levels):
        _enter(t, c.step + 1, c.ends_at, emit)


def end_of_hands_level(t: TournamentState, at: int, emit: Emit) -> None:
    """A level of N hands is over once N hands have ended (counted by ``hand_ended``)."""
    c = t.clock
    step = t.structure.levels[c.step]
    if c.started and step.hands and c.hands_left == 0 and c.step + 1 < len(t.structure.levels):
        _enter(t, c.step + 1, at, emit)


def pause(t: TournamentState, cmd: PauseClock, emit: Emit) -> None:
    _running(t, "pause it")
    advance(t, cmd.at, emit)
    remaining = max(0, t.clock.ends_at - cmd.at) if t.clock.ends_at else 0
    emit(
        ClockPaused(
            at=cmd.at,
            remaining=remaining,
            text=f"Clock paused with {words.duration(remaining)} left",
        )
    )


def resume(t: TournamentState, cmd: ResumeClock, emit: Emit) -> None:
    if not t.clock.started or t.clock.running:
        raise TournamentIllegal("", "the clock is not paused", code="not_paused")
    ends = cmd.at + t.clock.remaining if t.clock.remaining else 0
    emit(ClockResumed(at=cmd.at, ends_at=ends, text="Clock running again"))


def add_time(t: TournamentState, cmd: AddTime, emit: Emit) -> None:
    if not t.clock.started:
        raise TournamentIllegal("25-A", "the clock has not started", code="not_started")
    advance(t, cmd.at, emit)
    c = t.clock
    if not c.ends_at and not c.remaining:
        raise TournamentIllegal(
            "", "this level is not timed: it has no time to change", code="untimed", field="$.ms"
        )
    left = (c.ends_at - cmd.at) if c.running else c.remaining
    left = max(0, left + cmd.ms)
    verb = "added" if cmd.ms >= 0 else "taken off"
    emit(
        TimeChanged(
            at=cmd.at,
            ms=cmd.ms,
            ends_at=cmd.at + left if c.running else 0,
            remaining=0 if c.running else left,
            text=f"{words.duration(abs(cmd.ms))} {verb}: {words.duration(left)} left",
        )
    )
    advance(t, cmd.at, emit)


def next_level(t: TournamentState, cmd: NextLevel, emit: Emit) -> None:
    _running(t, "change the level")
    advance(t, cmd.at, emit)
    if t.clock.step + 1 >= len(t.structure.levels):
        raise TournamentIllegal("25-A", "this is the last level", code="last_level")
    _enter(t, t.clock.step + 1, cmd.at, emit)


def previous_level(t: TournamentState, cmd: PreviousLevel, emit: Emit) -> None:
    _running(t, "change the level")
    advance(t, cmd.at, emit)
    if t.clock.step == 0:
        raise TournamentIllegal("25-A", "this is the first level", code="first_level")
    _enter(t, t.clock.step - 1, cmd.at, emit)


def _running(t: TournamentState, what: str) -> None:
    if not t.clock.started:
        raise TournamentIllegal("25-A", "the clock has not started", code="not_started")
    if not t.clock.running:
        raise TournamentIllegal(
            "25-A", f"the clock is paused: resume it to {what}", code="clock_paused"
        )


def _enter(t: TournamentState, index: int, at: int, emit: Emit) -> None:
    """Step ``index`` starts at ``at``; the last level has no end."""
    s = t.structure
    step = s.levels[index]
    last = index + 1 >= len(s.levels)
    ends = 0 if last or step.hands else at + step.length_ms
    if step.is_break:
        race = f"; color up the {', '.join(map(str, step.color_up))}" if step.color_up else ""
        emit(
            BreakStarted(
                step=index,
                at=at,
                ends_at=ends,
                color_up=list(step.color_up),
                rules=["26-A", "26-C"] if step.color_up else [],
                text=f"Break: {step.pause} minutes, no new hands{race}",
            )
        )
        return
    number = s.level_number(index)
    level = step.level
    balancing.freeze(t, index, emit)
    emit(
        LevelStarted(
            level=number,
            step=index,
            blinds=level.blinds,
            ante=level.ante,
            bba=level.bba,
            min_bet=level.min_bet,
            bring_in=level.bring_in,
            at=at,
            ends_at=ends,
            hands=step.hands,
            text=f"Level {number}: {words.level(level)}"
            + (f" ({step.game})" if step.game else "")
            + " from each table's next hand (25-A, 25-B)",
            game=step.game or "",
        )
    )
    if not t.closed and number > s.late_registration_until:
        close_registration(t, at, emit)


def close_registration(t: TournamentState, at: int, emit: Emit) -> None:
    """The payout table is fixed from the entries; entries out so far get their places."""
    pool = payouts.prize_pool(t)
    prizes = payouts.payout_table(t.structure, t.entries, pool)
    placed = pending_places(t, prizes)
    paid = ", ".join(f"{i + 1}. {words.chips(p)}" for i, p in enumerate(prizes[:5]))
    emit(
        RegistrationClosed(
            at=at,
            entries=t.entries,
            pool=pool,
            guarantee=t.structure.guarantee,
            prizes=prizes,
            text=f"Registration closed: {t.entries} entries, prize pool {words.chips(pool)}"
            f" ({paid}{' ...' if len(prizes) > 5 else ''})",
        )
    )
    for event in placed:
        emit(event)
    if (won := champion(t)) is not None:
        emit(won)
