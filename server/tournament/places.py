"""Places (22): entries out in the same hand at one table are placed by their stack at the start
of the hand — after antes where the big blind ante is played — the larger stack higher; equal
stacks share the places and their prizes.

Places count the entries, so they are known once registration closes: entries out before then
are placed, group by group in the order they went out, when it does.
"""

from __future__ import annotations

from collections.abc import Sequence

from protocol.tournament import Placed, Winner
from server.tournament import payouts, words
from server.tournament.state import TournamentState, Unplaced


class Finish:
    """One entry of a group out in one hand: its place and prize, and who shares them."""

    def __init__(self, out: Unplaced, place: int, prize: int, tied: list[str]) -> None:
        self.out, self.place, self.prize, self.tied = out, place, prize, tied


def rank(group: Sequence[Unplaced], worst: int, prizes: list[int]) -> list[Finish]:
    """Places ``worst - len(group) + 1`` .. ``worst`` for one hand's group, best first (22)."""
    ordered = sorted(group, key=lambda u: -u.started)
    finishes: list[Finish] = []
    place = worst - len(group) + 1
    i = 0
    while i < len(ordered):
        tie = [u for u in ordered[i:] if u.started == ordered[i].started]
        split = payouts.shares(prizes, place, len(tie)) if prizes else [0] * len(tie)
        names = [u.player for u in tie] if len(tie) > 1 else []
        finishes += [Finish(u, place, split[k], names) for k, u in enumerate(tie)]
        place += len(tie)
        i += len(tie)
    return finishes


def pending_places(t: TournamentState, prizes: list[int]) -> list[Placed]:
    """The places of the entries out before registration closed, now that it does."""
    worst = len(t.alive()) + sum(len(g) for g in t.unplaced)
    placed: list[Placed] = []
    for group in t.unplaced:
        for f in rank(group, worst, prizes):
            placed.append(
                Placed(
                    player=f.out.player,
                    entry=f.out.entry,
                    place=f.place,
                    prize=f.prize,
                    tied=f.tied,
                    rules=["22"] if len(group) > 1 else [],
                    text=f"{t.players[f.out.player].name or f.out.player}"
                    f" (entry {f.out.entry}) finished {words.place(f.place)}"
                    + (f", {words.chips(f.prize)}" if f.prize else ""),
                )
            )
        worst -= len(group)
    return placed


def champion(t: TournamentState) -> Winner | None:
    """The last entry left once registration has closed: it has won first prize."""
    alive = t.alive()
    if not t.closed or t.finished or len(alive) != 1 or t.entries < 2:
        return None
    last = alive[0]
    first = t.prizes[0] if t.prizes else 0
    return Winner(
        player=last.player,
        entry=last.entry,
        prize=first,
        bounty=t.structure.bounty,
        text=f"{last.name or last.player} wins the tournament: {words.chips(first)}",
    )
