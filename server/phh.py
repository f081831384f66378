"""PHH hand histories as replay scenarios.

PHH is the PokerKit group's TOML format for recorded hands (``.phh`` one hand, ``.phhs`` a
bundle of tables ``[1]``, ``[2]``, ...). Replaying the public PHH data set through the engine
checks our rulings against thousands of real hands, so the converter says what the dealer
saw and nothing more: no hole cards at ``start_hand`` (a live table has no card entry), the
cards only when a player tables them.

Where PHH and the engine model a hand differently the hand is refused with
:class:`UnsupportedHand` rather than bent to fit: a replay that passes must mean the engine
ruled like the table did.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterable, Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

from protocol.codec import Scenario
from protocol.commands import Act, Command, Deal, Draw, Muck, Show, StartHand, Street
from protocol.config import Game, LevelError, TableConfig

Hand = dict[str, Any]
"""One hand as TOML decoded it; amounts are ``int`` or exact ``Decimal``."""

GAMES: dict[str, Game] = {
    "NT": "NLHE",
    "PO": "PLO",
    "FT": "LHE",
    "FO/8": "LO8",
    "F7S": "7S",
    "F7S/8": "7S8",
    "FR": "RAZZ",
    "F2L3D": "27TD",
    "N2L1D": "27SD",
    "FB": "BADUGI",
}
"""The PHH variants the engine plays, by PHH variant code."""

_STUD = frozenset({"F7S", "F7S/8", "FR"})
_DRAW = frozenset({"F2L3D", "N2L1D", "FB"})
_LIMIT = frozenset({"FT", "FO/8", "F2L3D", "FB", *_STUD})
_STUD_STREETS: tuple[Street, ...] = ("fourth", "fifth", "sixth", "seventh")
_STREETS: tuple[Street, ...] = ("flop", "turn", "river")


class UnsupportedHand(ValueError):
    """A hand the engine does not play; the message says why (variant, straddle, ...)."""


def parse_phh(text: str) -> Hand:
    """One ``.phh`` hand. Floats are read as ``Decimal``: cash hands count cents exactly."""
    return tomllib.loads(text, parse_float=Decimal)


def parse_phhs(text: str) -> list[Hand]:
    """The hands of a ``.phhs`` bundle, in file order (each is one TOML table)."""
    return list(parse_phh(text).values())


def scenarios_from_file(path: Path) -> list[tuple[str, Scenario | UnsupportedHand]]:
    """Every hand of a ``.phh`` or ``.phhs`` file, labelled, converted or refused.

    A refusal is returned, not raised, so a bundle with one stud hand still replays the
    rest and the caller can say which hands it skipped and why. Bundle hands are labelled
    ``path#N``, N counting from 1 in file order (the data set names its tables that way).
    """
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".phhs":
        labelled = [(f"{path}#{i}", hand) for i, hand in enumerate(parse_phhs(text), 1)]
    else:
        labelled = [(str(path), parse_phh(text))]
    results: list[tuple[str, Scenario | UnsupportedHand]] = []
    for label, hand in labelled:
        try:
            results.append((label, to_scenario(hand)))
        except UnsupportedHand as refused:
            results.append((label, refused))
    return results


def unit(hand: Hand) -> int:
    """The number of engine chips per PHH unit: 1, or 100 when a cash hand counts cents.

    The table plays with ``chips: [1]`` so every amount must be a whole number; the
    smallest power of ten that makes the blinds, antes, stacks and bets whole does that.
    Finishing stacks are left out on purpose: the Pluribus hands split odd chips into
    halves (10387.5), which no table can do, and must not rescale the whole hand.
    """
    amounts = [
        *hand.get("antes", []),
        *hand.get("blinds_or_straddles", []),
        *hand["starting_stacks"],
        *(hand[k] for k in ("small_bet", "big_bet", "min_bet") if k in hand),
        *(Decimal(words[2]) for words in _words(hand) if len(words) == 3 and words[1] == "cbr"),
    ]
    places = 0
    for amount in amounts:
        value = Decimal(amount)
        if not value.is_finite():
            raise UnsupportedHand(f"amount {amount} is not a number of chips")
        places = max(places, -int(value.normalize().as_tuple().exponent))
    return int(10**places)  # int ** int is typed Any: it may be a float


def finishing_stacks(hand: Hand) -> dict[int, Decimal] | None:
    """The file's ``finishing_stacks`` by seat, in engine chips (not rounded: see unit)."""
    if "finishing_stacks" not in hand:
        return None
    scale = unit(hand)
    return {n: Decimal(s) * scale for n, s in enumerate(hand["finishing_stacks"], 1)}


def to_scenario(hand: Hand) -> Scenario:
    """The table and the dealer's commands for one PHH hand.

    Player ``pN`` sits in seat N. PHH lists players from the small blind, so the button is
    the last seat; heads-up PHH reverses the blinds (p1 posts the big one, p2 the small
    one, as PokerKit does), which is again the last seat on the button posting the small
    blind, as the engine rules heads-up. One posted blind and no blinds at all are read by
    :func:`_blinds`; an ante-only level bets the file's minimum bet (the small bet in limit).
    """
    variant = hand.get("variant")
    if variant not in GAMES:
        raise UnsupportedHand(f"variant {variant!r} is not played by the engine")
    scale = unit(hand)

    def chips(amount: int | Decimal | str) -> int:
        return int(Decimal(amount) * scale)

    if variant in _STUD:
        return _stud_scenario(hand, GAMES[variant], chips)
    stacks = [chips(s) for s in hand["starting_stacks"]]
    n = len(stacks)
    blinds = [chips(b) for b in hand["blinds_or_straddles"]]
    antes = [chips(a) for a in hand["antes"]]
    if len(blinds) != n or len(antes) != n or not 2 <= n <= 10:
        raise UnsupportedHand("antes, blinds and stacks must list the same 2 to 10 players")
    if any(blinds[2:]):
        raise UnsupportedHand("straddles are not played by the engine")
    sb, bb, dead_small_blind = _blinds(blinds[0], blinds[1], n)
    # The big blind's entry: PHH's second, heads-up too, unless the first is the only blind.
    big = 0 if dead_small_blind else 1
    ante, bba = _ante(antes, big)
    if variant in _LIMIT:
        small, large = chips(hand["small_bet"]), chips(hand["big_bet"])
        if large != 2 * small or (bb and small != bb):
            raise UnsupportedHand(
                f"limit bets {small}/{large}: the engine bets the big blind, then twice it"
            )
        min_bet = small
    else:
        min_bet = chips(hand["min_bet"])
        if bb and min_bet != bb:
            raise UnsupportedHand("the minimum bet is not the big blind")

    names = hand.get("players", [])
    try:
        config = TableConfig(
            game=GAMES[variant],
            blinds=(sb, bb),
            ante=ante,
            bba=bba,
            min_bet=min_bet,
            dead_small_blind=dead_small_blind,
            button=n,
            chips=(1,),
            seats={seat: stack for seat, stack in enumerate(stacks, 1)},
            names={seat: str(name) for seat, name in enumerate(names, 1)},
        )
    except LevelError as refused:
        raise UnsupportedHand(f"no table deals this level: {refused}") from None
    # Who posts, by PHH index: heads-up p1 is the big blind (as the reversal above says).
    posters = {0: bb} if dead_small_blind else {1: sb, 0: bb} if n == 2 else {0: sb, 1: bb}
    betting = _Betting(stacks, posters, ante, bba)
    if variant in _DRAW:
        return Scenario(config=config, commands=_draw_commands(hand, betting, chips))
    return Scenario(config=config, commands=_commands(hand, betting, chips))


def _stud_scenario(hand: Hand, game: Game, chips: Callable[[int | Decimal | str], int]) -> Scenario:
    """A stud hand: every player antes, the lowest up-card brings it in (RP-10), and the
    betting is the small bet, then the big bet from fifth street. No button: seat N is pN."""
    stacks = [chips(s) for s in hand["starting_stacks"]]
    antes = {chips(a) for a in hand["antes"]}
    if len(antes) != 1 or len(hand["antes"]) != len(stacks) or not 2 <= len(stacks) <= 10:
        raise UnsupportedHand("stud: every player antes the same, 2 to 10 players")
    small, large = chips(hand["small_bet"]), chips(hand["big_bet"])
    if large != 2 * small:
        raise UnsupportedHand(f"limit bets {small}/{large}: the big bet is twice the small")
    names = hand.get("players", [])
    try:
        config = TableConfig(
            game=game,
            blinds=(0, 0),
            ante=antes.pop(),
            min_bet=small,
            bring_in=chips(hand["bring_in"]),
            button=len(stacks),
            chips=(1,),
            seats={seat: stack for seat, stack in enumerate(stacks, 1)},
            names={seat: str(name) for seat, name in enumerate(names, 1)},
        )
    except LevelError as refused:
        raise UnsupportedHand(f"no table deals this level: {refused}") from None
    betting = _Betting(stacks, {}, config.ante, False)
    return Scenario(config=config, commands=_stud_commands(hand, betting, chips, config))


def _stud_commands(
    hand: Hand,
    betting: _Betting,
    chips: Callable[[int | Decimal | str], int],
    config: TableConfig,
) -> list[Command]:
    """The dealer's commands: each street's up-cards as one deal (the dealer enters what every
    station sees), down-cards only when a player tables them."""
    commands: list[Command] = []
    dealing: dict[int, list[str]] = {}
    streets = 0

    def deal_street() -> None:
        nonlocal streets
        if not commands:
            stand_ins = _stand_ins(hand, config.game)
            up = {
                n: cards if cards != ["??"] else [next(stand_ins)] for n, cards in dealing.items()
            }
            commands.append(StartHand(up=up))
        elif streets == len(_STUD_STREETS):
            raise UnsupportedHand("more than seven cards a player")
        else:
            name = _STUD_STREETS[streets]
            commands.append(Deal(street=name, up=dealing if name != "seventh" else {}))
            streets += 1
            betting.next_street()

    for words in _words(hand):
        if words[:2] == ["d", "dh"] and len(words) == 4:
            cards = [words[3][i : i + 2] for i in range(0, len(words[3]), 2)]
            if _seat(words[2]) in dealing:
                # A second card to the same hand: the next street (no betting between them).
                deal_street()
                dealing = {}
            dealing[_seat(words[2])] = cards[-1:]
            continue
        if dealing:
            deal_street()
            dealing = {}
        match words:
            case [player, "pb"]:
                seat = _seat(player)
                betting.raise_to(seat - 1, config.bring_in)
                commands.append(Act(seat=seat, declare="bring_in"))
            case _:
                commands.extend(_act(words, betting, chips))
    if dealing:
        deal_street()
    return commands


def _stand_ins(hand: Hand, game: Game) -> Iterator[str]:
    """Up-cards for players whose third-street card the file leaves out (a player who folded
    it unseen): cards the file does not name that cannot bring it in (RP-10), the highest
    first (razz, where the highest brings it in: the lowest, aces low). Only the table's order
    depends on them, and the replay test checks that order against the file's actions."""
    shown = [w[-1] for w in _words(hand) if w[:2] == ["d", "dh"] or w[1:2] == ["sm"]]
    named = {cards[i : i + 2] for cards in shown for i in range(0, len(cards), 2)}
    ranks = "A23456789TJQK" if game == "RAZZ" else "AKQJT98765432"
    suits = "cdhs" if game == "RAZZ" else "shdc"
    return (r + s for r in ranks for s in suits if r + s not in named)


def _blinds(first: int, second: int, players: int) -> tuple[int, int, bool]:
    """The level's ``(small, big)`` and whether the small blind is dead, from PHH's two blinds.

    ``[S, B]`` is a small and a big blind; ``[0, B]`` a small blind of nothing, and ``[0, 0]``
    no blinds (an ante-only level). ``[B, 0]`` is one posted blind left of the button with the
    next player first to act (PokerKit opens left of the largest blind): the big blind, the
    small blind dead (34) — as after a bust, or on the first flop hand after stud. Heads-up
    that blind would be the button's, and heads-up the button is the small blind (36-C).
    """
    if first <= second:
        return first, second, False
    if second == 0 and players > 2:
        return 0, first, True
    raise UnsupportedHand(
        f"blinds [{first}, {second}] heads-up: the button posts the small blind (36-C)"
    )


def _ante(antes: list[int], big: int) -> tuple[int, bool]:
    """The config's ``(ante, bba)``: everyone antes the same, or only the big blind does.

    ``big`` is the big blind's entry (PHH reverses antes with the blinds heads-up).
    """
    if len(set(antes)) == 1:
        return antes[0], False
    if antes[big] > 0 and not any(a for i, a in enumerate(antes) if i != big):
        return antes[big], True
    raise UnsupportedHand(f"antes {antes} are neither uniform nor a big blind ante")


class _Betting:
    """Chips behind and in front of each player (index N-1 is pN), to tell a check from a call.

    PHH's ``cc`` is "check or call"; the engine wants the word the player said, which is
    "check" only when nothing is owed on the street.
    """

    def __init__(self, stacks: list[int], posters: dict[int, int], ante: int, bba: bool) -> None:
        """``posters``: the blinds by PHH index, the small blind (if any) first."""
        self.stacks = list(stacks)
        self.bets = [0] * len(stacks)
        self.out: set[int] = set()
        """Players out of the hand: folded, or mucked at the showdown."""
        if not bba:
            # Antes are posted before the blinds (as the engine and PokerKit do).
            self.stacks = [s - min(ante, s) for s in self.stacks]
        for i, blind in posters.items():
            self._put(i, blind)
        if bba:
            # TDA RP-11: the big blind first, then the big blind ante from what is left.
            big = max(posters, key=posters.__getitem__)
            self.stacks[big] -= min(ante, self.stacks[big])

    def _put(self, i: int, amount: int) -> None:
        paid = min(amount, self.stacks[i])
        self.stacks[i] -= paid
        self.bets[i] += paid

    def call(self, i: int) -> bool:
        """Match the largest bet, all-in if short; whether chips went in (a call)."""
        owed = max(self.bets) - self.bets[i]
        self._put(i, owed)
        return owed > 0

    def raise_to(self, i: int, total: int) -> None:
        self._put(i, total - self.bets[i])

    def last_in(self, i: int) -> bool:
        """Everyone but player ``i`` folded or mucked: the hand has ended, ``i`` winning it."""
        return len(self.out) == len(self.stacks) - 1 and i not in self.out

    def next_street(self) -> None:
        self.bets = [0] * len(self.bets)


def _commands(
    hand: Hand, betting: _Betting, chips: Callable[[int | Decimal | str], int]
) -> list[Command]:
    """The dealer's commands; hole cards are kept aside until a player tables them."""
    commands: list[Command] = [StartHand()]
    dealt: dict[int, list[str]] = {}
    boards = 0
    for words in _words(hand):
        match words:
            case ["d", "dh", player, cards]:
                dealt[_seat(player)] = _cards(cards)
            case ["d", "db", cards]:
                if boards == len(_STREETS):
                    raise UnsupportedHand("more than three boards: run-outs are not played")
                commands.append(Deal(street=_STREETS[boards], cards=_cards(cards)))
                boards += 1
                betting.next_street()
            case _:
                commands.extend(_act(words, betting, chips, dealt))
    return commands


def _draw_commands(
    hand: Hand, betting: _Betting, chips: Callable[[int | Decimal | str], int]
) -> list[Command]:
    """A draw hand: each seat's draw as one ``draw`` command with the count the dealer saw
    (the discards and the new cards stay face down, as the hole cards do). PHH lists a
    round's discards (``sd``) before the cards dealt for them (``d dh``); the draws are
    recorded once the round's cards are out, in the file's order, which is the table's."""
    commands: list[Command] = [StartHand()]
    held: dict[int, list[str]] = {}
    drawing: list[tuple[int, str]] = []
    dealt: dict[int, str] = {}

    def draws_done() -> None:
        for seat, thrown in drawing:
            commands.append(Draw(seat=seat, count=len(thrown) // 2))
            kept = [c for c in held.get(seat, []) if c not in _cards(thrown)]
            held[seat] = kept + _cards(dealt.get(seat, "")) if held.get(seat) else []
        drawing.clear()
        dealt.clear()
        betting.next_street()

    for words in _words(hand):
        match words:
            case ["d", "dh", player, cards] if drawing:
                dealt[_seat(player)] = cards
            case ["d", "dh", player, cards]:
                held[_seat(player)] = _cards(cards)
            case [player, "sd", *thrown] if len(thrown) <= 1:
                drawing.append((_seat(player), thrown[0] if thrown else ""))
            case _:
                if drawing:
                    draws_done()
                commands.extend(_act(words, betting, chips, held))
    if drawing:
        draws_done()
    return commands


def _act(
    words: list[str],
    betting: _Betting,
    chips: Callable[[int | Decimal | str], int],
    dealt: dict[int, list[str]] | None = None,
) -> list[Command]:
    """A player's action or show: ``f``, ``cc`` (check or call), ``cbr`` (bet or raise to),
    ``sm`` (show or muck; ``-`` shows the cards dealt). The cards of a player left alone at
    the showdown (the others mucked) are history's, not the dealer's: its hand ended unseen."""
    match words:
        case [player, "f"]:
            betting.out.add(_seat(player) - 1)
            return [Act(seat=_seat(player), declare="fold")]
        case [player, "cc"]:
            seat = _seat(player)
            called = betting.call(seat - 1)
            return [Act(seat=seat, declare="call" if called else "check")]
        case [player, "cbr", amount]:
            seat = _seat(player)
            betting.raise_to(seat - 1, chips(amount))
            return [Act(seat=seat, declare="raise", amount=chips(amount))]
        case [player, "sm"]:
            betting.out.add(_seat(player) - 1)
            return [Muck(seat=_seat(player))]
        case [player, "sm", *_] if betting.last_in(_seat(player) - 1):
            return []
        case [player, "sm", "-"]:
            seat = _seat(player)
            return [Show(seat=seat, cards=(dealt or {}).get(seat, []))]
        case [player, "sm", cards]:
            return [Show(seat=_seat(player), cards=_cards(cards))]
    raise UnsupportedHand(f"action {' '.join(words)!r} is not an action the engine plays")


def _words(hand: Hand) -> Iterable[list[str]]:
    """The actions as words, commentary (``# ...``) and no-ops dropped."""
    for action in hand["actions"]:
        words = str(action).split("#", 1)[0].split()
        if words:
            yield words


def _seat(player: str) -> int:
    if not (player.startswith("p") and player[1:].isdigit()):
        raise UnsupportedHand(f"{player!r} is not a player")
    return int(player[1:])


def _cards(text: str) -> list[str]:
    """``"7s4s"`` -> ``["7s", "4s"]``; any unknown card (``??``) hides the whole hand."""
    cards = [text[i : i + 2] for i in range(0, len(text), 2)]
    if len(text) % 2 or any("?" in card for card in cards):
        return []
    return cards
