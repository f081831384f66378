"""The stub short on seventh street of a stud game (RP-10-H).

Eight players dealt seven cards each need 56: a stud deck can run short before seventh street.
Before seventh street the dealer needs one card for each hand still in, a burn and a last card
that is never dealt. The stub is the deck less three cards to every hand dealt on third street,
one to every hand still in on each of fourth to sixth street, and the burn before each of those
three streets. When it is short the rule gives three procedures:

- **A**: the stub and the three burns together are enough: mix them into a new stub, cut, burn
  and deal every hand its card;
- **B**: the stub has at least three cards but is short even with the burns: burn the top card
  and turn the next face up in the middle, a **community card** every hand plays;
- **C**: the stub has fewer than three: mix it with the three burns, cut, burn, and turn the
  community card.

With a community card the boards do not change, so the player first to act on sixth street acts
first on seventh (D). The stud streets' checks (:func:`server.engine.stud.check_street`) refuse
a community card the stub does not call for, and a card to each hand when it does.
"""

from __future__ import annotations

from dataclasses import dataclass

from server.engine import games
from server.engine.games import streets
from server.engine.state import TableState

BURNS = 3
"""The burns before fourth, fifth and sixth street."""


@dataclass(frozen=True)
class Seventh:
    """Seventh street's deal: the stub, the cards it needs and the procedure ("" when the stub
    is enough; "A", "B" or "C", RP-10-H)."""

    stub: int
    needed: int
    hands: int
    procedure: str

    @property
    def community(self) -> bool:
        return self.procedure in ("B", "C")

    def text(self) -> str:
        """What the dealer does, as the floor reads it."""
        short = (
            f"the stub has {self.stub} card{'' if self.stub == 1 else 's'} and seventh street "
            f"needs {self.needed} "
            f"({self.hands} hands, a burn and a last card)"
        )
        how = {
            "A": "mix it with the three burns, cut, burn and deal each hand its card",
            "B": "burn the top card and turn the next one up in the middle: a community card "
            "every hand plays",
            "C": "mix it with the three burns, cut, burn and turn one card up in the middle: a "
            "community card every hand plays",
        }[self.procedure]
        return f"{short}: {how} (RP-10-H {self.procedure})"


def seventh(t: TableState) -> Seventh:
    """How seventh street is dealt at this table, read from the cards its hands hold."""
    dealt = hands = 0
    for s in t.seats:
        if s.dealt:
            dealt += 2 + len(s.up)
            hands += not s.folded and not s.mucked
    rounds = streets(t.game)
    burns = min(BURNS, rounds.index(t.street)) if t.street in rounds else 0
    stub = games.DECK - dealt - burns
    needed = hands + 2
    if stub >= needed:
        procedure = ""
    elif stub + burns >= needed:
        procedure = "A"
    elif stub >= 3:
        procedure = "B"
    else:
        procedure = "C"
    return Seventh(stub, needed, hands, procedure)
