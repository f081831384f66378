"""Bounded field types: decoding refuses what no table could hold, before it reaches a rule.

Amounts fit comfortably in 53 bits (any tournament's chips, and JSON numbers stay exact),
seats are 1-10, cards are two characters like "As" or "Td".
"""

from __future__ import annotations

from typing import Annotated

import msgspec

MAX = 2**53

SeatNo = Annotated[int, msgspec.Meta(ge=1, le=10)]
Chips = Annotated[int, msgspec.Meta(ge=0, le=10**15)]
Quantity = Annotated[int, msgspec.Meta(ge=0, le=10**6)]
Millis = Annotated[int, msgspec.Meta(ge=0, le=MAX)]
Seq = Annotated[int, msgspec.Meta(ge=-1, le=MAX)]
Card = Annotated[str, msgspec.Meta(pattern="^([2-9TJQKA][cdhs]|\\?\\?)$")]
Cards = Annotated[list[Card], msgspec.Meta(max_length=7)]
"""At most a stud hand: seven cards."""
Text = Annotated[str, msgspec.Meta(max_length=200)]
Id = Annotated[str, msgspec.Meta(min_length=1, max_length=100)]
Nonce = Annotated[int, msgspec.Meta(ge=-(2**63), le=2**63 - 1)]
"""An opaque value a ping carries and its pong echoes."""
