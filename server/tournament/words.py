"""The wording a tournament director reads: chips, levels, times and places."""

from __future__ import annotations

from protocol.config import Level


def chips(amount: int) -> str:
    return f"{amount:,}"


def level(lv: Level) -> str:
    """'100/200, ante 200 (big blind ante)'."""
    text = f"{chips(lv.blinds[0])}/{chips(lv.blinds[1])}" if lv.blinds[1] else "no blinds"
    if lv.ante:
        text += f", ante {chips(lv.ante)}" + (" (big blind ante)" if lv.bba else "")
    return text


def duration(ms: int) -> str:
    """'12:05' (minutes:seconds), '1:02:03' past an hour."""
    seconds = ms // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


def clock_time(ms: int) -> str:
    """The time of day (UTC) of a moment in ms: '20:15:00'."""
    seconds = (ms // 1000) % 86_400
    return f"{seconds // 3600:02}:{seconds % 3600 // 60:02}:{seconds % 60:02}"


def place(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
