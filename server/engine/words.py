"""How events read to a floor supervisor: 'Seat 6: call 1,200 (47-A: every chip was needed
to call; 800 returned)'."""

from __future__ import annotations


def chips(n: int) -> str:
    """With a thousands separator. An amount under 1,000 has none to write, and ``str`` writes
    it in half the time the ``,`` format takes: every action and prompt writes one or more."""
    return str(n) if -1000 < n < 1000 else f"{n:,}"


def action_text(
    seat: int,
    action: str,
    total: int,
    all_in: bool,
    returned: int,
    rules: list[str],
    why: list[str],
) -> str:
    amount = "" if action in ("fold", "check") else " " + chips(total)
    head = f"Seat {seat}: {action.replace('_', '-')}{amount}{' all-in' if all_in else ''}"
    if not rules and not why and not returned:
        return head  # most actions
    notes = list(why)
    if returned:
        notes.append(f"{chips(returned)} returned")
    inside = "; ".join(notes)
    if rules:
        inside = f"{', '.join(rules)}: {inside}" if inside else ", ".join(rules)
    return f"{head} ({inside})"


def prompt_text(seat: int, to_call: int, low: int | None, high: int | None, raise_word: str) -> str:
    """The prompt in words."""
    first = chips(to_call) + " to call" if to_call else "check"
    if low is None or high is None:
        return f"Seat {seat}: {first}; no raise"
    span = chips(low) if low == high else f"{chips(low)} - {chips(high)}"
    return f"Seat {seat}: {first}; {raise_word} to {span}"
