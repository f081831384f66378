"""How events read to a floor supervisor: 'Seat 6: call 1,200 (47-A: every chip was needed
to call; 800 returned)'."""

from __future__ import annotations


def chips(n: int) -> str:
    return f"{n:,}"


def action_text(
    seat: int,
    action: str,
    total: int,
    all_in: bool,
    returned: int,
    rules: list[str],
    why: list[str],
) -> str:
    amount = "" if action in ("fold", "check") else f" {total:,}"  # chips(), inline: hot
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
    """The prompt in words; chips written as :func:`chips` does, inline (every prompt)."""
    first = f"{to_call:,} to call" if to_call else "check"
    if low is None or high is None:
        return f"Seat {seat}: {first}; no raise"
    span = f"{low:,}" if low == high else f"{low:,} - {high:,}"
    return f"Seat {seat}: {first}; {raise_word} to {span}"
