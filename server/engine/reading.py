"""Reading what a seat did: words, chips and which came first (rules 42-48, 53, 56-57, 59, 63).

The dealer records what really happened; this module says what it means under the TDA. The
result is a :class:`Reading` — the action it became, the seat's total on the street, the chips
that go back and the rules applied — a :class:`FloorNeeded` where the TDA leaves the answer to
the floor, or a :class:`Limited` where what the seat said or did is not an action but binds its
options (57, 48-B) and it is still to act.

``front`` below is every chip now in front of the seat: for ``prior="left"`` the chips already
there plus the ones pushed; for ``pulled`` and ``partly_pulled`` the chips listed (rule 48).
Whatever of ``front`` the ruling does not take goes back to the seat.
"""

from __future__ import annotations

import msgspec

from protocol.commands import Act
from protocol.events import ActionLimited, FloorCall
from server.engine import betting, stud, words
from server.engine.errors import Illegal
from server.engine.games import POT_LIMIT
from server.engine.state import Seat, TableState

FLOOR_42A = ("raise_min", "call")
"""The floor's options on a declared raise with chips short of the call (42-A)."""


class Reading(msgspec.Struct):
    """What an action means. This and the other readings are structs rather than dataclasses:
    one is made for every action, and a struct is made in half the time."""

    action: str
    """fold, check, call or raise (a raise with no bet to face is announced as a bet)."""
    total: int
    returned: int = 0
    rules: list[str] = []
    why: list[str] = []


class FloorNeeded(msgspec.Struct):
    rule: str
    options: list[str]
    pushed: int
    forfeit: int
    why: str

    def event(self, t: TableState, seat: int, note: str = "") -> FloorCall:
        """The floor call that puts this decision to the floor."""
        return FloorCall(
            seat=seat,
            rule=self.rule,
            options=list(self.options),
            call=t.calls + 1,
            forfeit=self.forfeit,
            pushed=self.pushed,
            text=f"Floor, seat {seat}: {self.why}{note} ({self.rule})",
        )


class Limited(msgspec.Struct):
    """Words or chips that are no action but bind the seat's options for this action."""

    rule: str
    options: list[str]
    why: str

    def event(self, seat: int) -> ActionLimited:
        return ActionLimited(
            seat=seat,
            options=list(self.options),
            rules=[self.rule],
            text=f"Seat {seat}: {self.why}; {' or '.join(self.options)} only ({self.rule})",
        )


def read(t: TableState, s: Seat, act: Act) -> Reading | FloorNeeded | Limited:
    """Interpret one recorded action of the seat to act."""
    if stud.bringing_in(t):
        if act.declare == "fold" and s.number != stud.bring_in_seat(t):
            # RP-10-E: left of a bring-in all-in on its ante, a seat may fold rather than bet.
            return Reading("fold", s.bet, sum(act.chips), ["RP-10-E"])
        if stud.brings_in(t, s, act):
            total = min(t.level.bring_in, betting.all_in_to(s))
            in_front = s.bet + sum(act.chips) if act.chips else total
            return Reading("bring_in", total, max(0, in_front - total), ["RP-10"])
    if act.declare == "bring_in":
        raise Illegal("RP-10", "the bring-in is owed only at the start of third street in stud")
    declare, amount, chips = act.declare, act.amount, act.chips
    rules: list[str] = []
    if chips and (declare is not None or amount is not None):
        # 42-A: when words and chips both come, the first decides; at once, clear words win.
        rules.append("42-A")
        if act.first == "chips":
            declare, amount = None, None
    base = s.bet if act.prior == "left" else 0
    if act.prior != "left":
        rules.append("48-C")
    front = base + sum(chips) if chips else None
    if declare is not None:
        return _declared(t, s, act, declare, amount, front, rules)
    if amount is not None and not chips:
        # 42-C: a bare amount is the same as pushing that many chips silently.
        rules.append("42-C")
        why: list[str] = []
        amount = _unclear(t, s, amount, act.spoken, rules, why)
        reading = _silent(t, s, s.bet + amount, None, amount, act, rules)
        if isinstance(reading, Reading):
            reading.why = [*why, *reading.why]
        return reading
    return _silent(t, s, front or 0, min(chips), len(chips), act, rules)


def _declared(
    t: TableState,
    s: Seat,
    act: Act,
    declare: str,
    amount: int | None,
    front: int | None,
    rules: list[str],
) -> Reading | FloorNeeded | Limited:
    facing = t.current_bet > s.bet
    top = betting.all_in_to(s)
    if declare == "fold":
        return _fold(t, s, act, front, rules)
    if declare == "check":
        if facing:
            return Limited(
                "57", ["fold", "call"], f"said 'check' facing {t.current_bet:,}, which is no action"
            )
        return _ruled("check", s.bet, front, rules, [])
    if declare == "call":
        if not facing:
            return _ruled(
                "check", s.bet, front, [*rules, "57-A"], ["'call' with no bet to face is a check"]
            )
        why = []
        if front is not None and front < t.current_bet and front < top:
            rules.append("53-A")
            why.append("'call' binds the full amount")
        return _ruled("call", min(t.current_bet, top), front, rules, why)
    if declare == "all_in":
        return _to_total(t, s, top, front, rules, [])
    _check_may_raise(t, s)
    low, high = betting.raise_bounds(t, s)
    if declare == "pot" and t.game in POT_LIMIT:
        return _to_total(t, s, high, front, [*rules, "56"], ["a pot-sized raise"])
    # 56-D: in no-limit "pot" is not an amount; it binds a valid bet or raise, as "raise" does.
    no_limit_pot = declare == "pot" and not betting.is_limit(t)
    if no_limit_pot:
        rules.append("56-D")
    elif declare in ("complete", "pot") or betting.is_limit(t):
        return _to_total(t, s, low, front, rules, [])
    short = "57-B" if declare == "raise" and not facing else None
    if amount is not None:
        read_as: list[str] = []
        amount = _unclear(t, s, amount, act.spoken, rules, read_as)
        if amount > t.current_bet:
            if declare == "raise" and facing:
                rules.append("45-B")
            return _to_total(t, s, amount, front, rules, read_as, short)
        # An amount that cannot be a total is the size of the raise (59: reasonable reading).
        return _to_total(t, s, t.current_bet + amount, front, [*rules, "59"], read_as, short)
    if front is None:
        if no_limit_pot:
            raise Illegal(
                "56-D",
                f"seat {s.number} said 'pot', which is not an amount in no-limit: it must make"
                f" a valid bet (at least {low:,}); record its chips or amount",
            )
        raise Illegal(
            "52-B", f"seat {s.number} declared '{declare}' but the amount is not yet clear"
        )
    if front <= t.current_bet:
        return _raise_not_in_chips(t, s, act, declare, front, low, rules)
    why = []
    if len(act.chips) == 1 and facing:
        rules.append("46")
        why.append("'raise' before a single chip: the most that chip allows")
    return _to_total(t, s, front, front, rules, why, short)


def _fold(
    t: TableState, s: Seat, act: Act, front: int | None, rules: list[str]
) -> Reading | Limited:
    """A fold, except where the seat's chips already bind it to play on (48-B)."""
    if s.number in t.no_fold:
        raise Illegal(
            "48-B",
            f"seat {s.number} pulled back its chips facing a raise: it must call or raise",
        )
    if t.current_bet <= s.bet:
        return _ruled(
            "fold", s.bet, front, [*rules, "60"], ["a fold with no bet to face is binding"]
        )
    if act.prior != "left" and s.bet > 0 and t.current_bet > t.open_bet:
        options = ["call", "raise"] if betting.can_raise(t, s) else ["call"]
        return Limited(
            "48-B",
            options,
            f"pulled back its {s.bet:,} facing a raise to {t.current_bet:,} and may not fold",
        )
    return _ruled("fold", s.bet, front, rules, [])


def _raise_not_in_chips(
    t: TableState, s: Seat, act: Act, declare: str, front: int, low: int, rules: list[str]
) -> Reading | FloorNeeded:
    """42-A, 53-A: a declared raise whose chips are no more than the call.

    The declaration binds a raise, made up to the minimum. Only chips short of even the call,
    pushed as the word was said, contradict the words: then the floor decides (42-A).
    """
    word = "raise" if t.current_bet else "bet"
    if front < t.current_bet and act.first == "together":
        return FloorNeeded(
            "42-A",
            list(FLOOR_42A),
            max(0, front - s.bet),
            0,
            f"said '{declare}' with {front:,} in front against {t.current_bet:,}: the chips"
            f" contradict the words; a {word} to {low:,} or a call",
        )
    why = f"'{declare}' binds a {word}: made up to the minimum {low:,}"
    return _ruled("raise", low, front, [*rules, "53-A"], [why])


def floor_ruled_raise(t: TableState, s: Seat, option: str) -> Reading:
    """42-A: the floor's ruling on a declared raise with chips short of the call."""
    if option == "raise_min":
        low, _ = betting.raise_bounds(t, s)
        return Reading("raise", low, 0, ["42-A"], [f"the floor ruled a raise to {low:,}"])
    total = min(t.current_bet, betting.all_in_to(s))
    return Reading("call", total, 0, ["42-A"], ["the floor ruled a call"])


def _check_may_raise(t: TableState, s: Seat) -> None:
    if betting.can_raise(t, s):
        return
    if s.number in t.no_raise:
        rule = t.no_raise[s.number]
        raise Illegal(rule, f"seat {s.number} may only call or fold on this street ({rule})")
    if betting.cap_reached(t):
        raise Illegal(
            "50", f"the betting is capped at {t.cap} bets: seat {s.number} may call or fold"
        )
    if betting.all_in_to(s) <= t.current_bet:
        raise Illegal(
            "45-A", f"seat {s.number} has {betting.all_in_to(s):,} in all: it may call or fold"
        )
    if not betting.raise_can_be_called(t, s):
        raise Illegal("45-A", f"no one left to raise against: seat {s.number} may call or fold")
    raise Illegal(
        "49-A",
        f"seat {s.number} has acted and faces less than a full raise: betting is not re-opened;"
        " it may call or fold",
    )


def _silent(
    t: TableState,
    s: Seat,
    front: int,
    smallest: int | None,
    count: int,
    act: Act,
    rules: list[str],
) -> Reading | FloorNeeded:
    """Chips (or a bare amount) with no declaration: rules 46, 47, 48, 45-A, 53-B, 63."""
    top = betting.all_in_to(s)
    facing = t.current_bet > s.bet
    total = min(front, top)
    if not facing:
        if count == 1 and smallest is not None:
            rules.append("46")
        return _to_total(t, s, total, front, rules, [])
    needed_all = (
        smallest is not None
        and count > 1
        and act.prior != "partly_pulled"
        and front - smallest < t.current_bet
    )
    if total < t.current_bet and total < top:
        return _under_call(t, s, front, rules)
    if needed_all:
        return _called(t, s, front, [*rules, "47-A"], "every chip was needed to call")
    if count == 1 and smallest is not None and act.prior != "partly_pulled":
        return _called(t, s, front, [*rules, "46"], "a single oversized chip is a call")
    if front >= top:
        why = ["the last chips: all-in"]
        return _to_total(t, s, top, front, [*rules, "47-B"] if smallest is not None else rules, why)
    if smallest is not None:
        rules.append("47-B")
    return _fifty_percent(t, s, total, front, rules)


def _fifty_percent(t: TableState, s: Seat, total: int, front: int, rules: list[str]) -> Reading:
    """45-A: half a raise or more must be made a full raise; less is a call."""
    if not betting.can_raise(t, s):
        return _called(t, s, front, [*rules, "49-A"], "betting is not re-opened for this seat")
    increment = total - t.current_bet
    unit = betting.bet_unit(t) if betting.is_limit(t) else t.last_full
    if increment * 2 < unit:
        return _called(t, s, front, [*rules, "45-A"], "less than half a raise is a call")
    low, _ = betting.raise_bounds(t, s)
    if total < low:
        if "47-B" in rules:
            # 63: chips pushed silently in the hope of change are all at risk as the bet.
            rules.append("63")
        return _to_total(
            t, s, low, front, [*rules, "45-A"], ["half a raise or more must be a full raise"]
        )
    return _to_total(t, s, total, front, [*rules, "45-A"], [])


def _under_call(t: TableState, s: Seat, front: int, rules: list[str]) -> Reading | FloorNeeded:
    """53-B: an under-call must become a full call heads-up or against the opening bet."""
    top = betting.all_in_to(s)
    if s.number in t.told:
        why = ["the count was asked and its amount pushed: the full amount is owed"]
        return _ruled("call", min(t.current_bet, top), front, [*rules, "51"], why)
    if len(t.live()) == 2:
        return _called(t, s, front, [*rules, "53-B"], "heads-up an under-call is a full call")
    if t.current_bet == t.open_bet:
        return _called(
            t, s, front, [*rules, "53-B"], "an under-call of the opening bet is a full call"
        )
    pushed = front - s.bet
    forfeit = min(pushed, max(0, t.open_bet - s.bet))
    return FloorNeeded(
        "53-B",
        ["call", "fold"],
        pushed,
        forfeit,
        f"under-call of {t.current_bet:,}: a full call, or a fold forfeiting {forfeit:,}",
    )


def _called(t: TableState, s: Seat, front: int | None, rules: list[str], why: str) -> Reading:
    """A call of the bet (all-in when the seat has less)."""
    return _ruled("call", min(t.current_bet, betting.all_in_to(s)), front, rules, [why])


def _ruled(action: str, total: int, front: int | None, rules: list[str], why: list[str]) -> Reading:
    returned = max(0, front - total) if front is not None else 0
    return Reading(action, total, returned, rules, why)


def _to_total(
    t: TableState,
    s: Seat,
    total: int,
    front: int | None,
    rules: list[str],
    why: list[str],
    short: str | None = None,
) -> Reading:
    """Turn a wanted total into the legal bet, raise or call nearest to it.

    A total short of the minimum is made up to it: an under-bet (54-A), a raise short of a full
    raise (45-A), or ``short`` ("raise" said with no bet to face, 57-B).
    """
    top = betting.all_in_to(s)
    total = min(total, top)
    if total <= t.current_bet:
        return _ruled("call", total if total == top else t.current_bet, front, rules, why)
    if not betting.can_raise(t, s):
        return _ruled(
            "call",
            t.current_bet,
            front,
            [*rules, "49-A"],
            [*why, "betting is not re-opened for this seat"],
        )
    low, high = betting.raise_bounds(t, s)
    if total < low:
        rule = short or ("54-A" if t.current_bet == 0 else "45-A")
        rules, why, total = [*rules, rule], [*why, f"made up to the minimum {low:,}"], low
    if total > high:
        rule = "56" if t.game in POT_LIMIT else "50"
        rules, why, total = [*rules, rule], [*why, f"reduced to the maximum {high:,}"], high
    return _ruled("raise", total, front, rules, why)


def _unclear(
    t: TableState, s: Seat, amount: int, spoken: str | None, rules: list[str], why: list[str]
) -> int:
    """59: an amount that can mean several things is the largest reasonable one up to the pot.

    "Bet 5" at 200-400 is 500 with less than 5,000 in the pot, and 5,000 with more. Only an
    amount said without its unit (``spoken``), or smaller than any chip in play, is unclear;
    one said with its unit is the amount, and short of the minimum an under-bet (54-A).
    """
    if spoken is None and amount >= min(t.chips):
        return amount
    smallest_legal = max(t.level.min_bet, t.current_bet - s.bet)
    pot = t.pot_total()
    reading, candidate = amount, amount
    while candidate * 10 <= pot:
        candidate *= 10
        if candidate >= smallest_legal:
            reading = candidate
    if reading == amount:
        return amount
    rules.append("59")
    said = f"'{spoken}'" if spoken is not None else words.chips(amount)
    why.append(f"{said} read as {words.chips(reading)}, the largest reasonable amount")
    return reading
