"""Hand values at showdown, from well-kept evaluator libraries (cards speak, rule 13).

High hands use phevaluator's perfect-hash tables (lower rank is better); the 8-or-better low
uses PokerKit's evaluator, the one maintained library that reads Omaha lows.
"""

from __future__ import annotations

from phevaluator import evaluate_cards, evaluate_omaha_cards
from pokerkit import EightOrBetterLowHand, OmahaEightOrBetterLowHand

OMAHA_GAMES = frozenset({"NLO", "PLO", "PLO8", "LO8"})
HI_LO_GAMES = frozenset({"PLO8", "LO8"})


def hole_count(game: str) -> int:
    """The hole cards a tabled hand shows: all of them (14-A), four in Omaha, two in hold'em."""
    return 4 if game in OMAHA_GAMES else 2


def high_rank(game: str, hole: list[str], board: list[str]) -> int:
    """Smaller is stronger."""
    if game in OMAHA_GAMES:
        return int(evaluate_omaha_cards(*board, *hole))
    return int(evaluate_cards(*hole, *board))


def low_hand(game: str, hole: list[str], board: list[str]) -> object | None:
    """The qualifying 8-or-better low, or None; larger compares as stronger."""
    kind = OmahaEightOrBetterLowHand if game in OMAHA_GAMES else EightOrBetterLowHand
    try:
        return kind.from_game("".join(hole), "".join(board))
    except ValueError:
        return None


def best_high(game: str, hands: dict[int, list[str]], board: list[str]) -> list[int]:
    ranks = {seat: high_rank(game, cards, board) for seat, cards in hands.items()}
    best = min(ranks.values())
    return [seat for seat, r in ranks.items() if r == best]


def best_low(game: str, hands: dict[int, list[str]], board: list[str]) -> list[int]:
    lows = {seat: low_hand(game, cards, board) for seat, cards in hands.items()}
    qualified = {seat: h for seat, h in lows.items() if h is not None}
    if not qualified:
        return []
    best = max(qualified.values())  # type: ignore[type-var]
    return [seat for seat, h in qualified.items() if h == best]
