"""The draw games' draws (2026 TDA RP-25, 37-E), through the replay format.

2-7 triple draw (``27TD``), no-limit 2-7 single draw (``27SD``) and badugi (``BADUGI``) are dealt
like hold'em with no board; every betting round after the first opens with a draw. Each line
the rules draw is tested from both sides:

- the order (RP-25-D): the first live seat left of the button draws first, all-in hands too,
  folded hands not; a draw out of turn is refused and changes nothing; a ``draw`` with no draw
  open, a ``deal``, more cards than the hand, a throw of cards the hand does not hold and a card
  already in play (37-E) are refused;
- the hand: a pat hand keeps its cards and burns nothing; a draw entered with the discards and
  the new cards keeps the hand known for the showdown, one entered without them leaves it to
  be tabled with its cards.

The stub running short (RP-25 A-C) is in ``tests/test_rule_rp_25_short_stub.py``, the betting
(RP-17, 50, 17) in ``tests/test_rule_rp_17_draw_betting.py``, the showdown (13, 18-A, 21-A) in
``tests/test_rule_18_21_draw_showdown.py`` and the display in ``tests/test_draw_display.py``;
they share this file's helpers.

The table: button on seat 1, blinds 25-50 (the small bet 50, the big bet 100 in limit).
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from protocol import ProtocolError, decode_scenario
from server.engine import TableState, apply, new_table
from server.replay import run_scenario
from tests.support import last, of_type, play
from tests.test_seed_common import Cmd, Event, act, run

DECK = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]


def table(
    game: str = "27TD",
    stacks: dict[int, int] | None = None,
    *,
    button: int = 1,
    blinds: tuple[int, int] = (25, 50),
    **extra: Any,
) -> dict[str, Any]:
    seats = stacks or {1: 1_000, 2: 1_000, 3: 1_000}
    return {
        "game": game,
        "blinds": list(blinds),
        "ante": 0,
        "button": button,
        "chips": [25],
        "seats": {str(n): s for n, s in seats.items()},
        **extra,
    }


def start(cards: dict[int, str] | None = None) -> Cmd:
    """The deal; each seat's hand, when entered, as one string: ``"2c 3c 4c 5c 7d"``."""
    command: Cmd = {"type": "start_hand"}
    if cards:
        command["cards"] = {str(n): hand.split() for n, hand in cards.items()}
    return command


def draw(seat: int, count: int = 0, thrown: str = "", cards: str = "") -> Cmd:
    """A seat's draw; the discards and the new cards, when entered, as strings."""
    command: Cmd = {"type": "draw", "seat": seat, "count": count}
    if thrown:
        command["thrown"] = thrown.split()
    if cards:
        command["cards"] = cards.split()
    return command


def swap(seat: int, thrown: str, cards: str) -> Cmd:
    """A draw entered in full: the discards and the cards dealt for them."""
    return draw(seat, len(thrown.split()), thrown, cards)


def error(events: list[Event]) -> Event:
    return last(events, "error")


def draw_prompts(events: list[Event]) -> list[int]:
    return [e["seat"] for e in of_type(events, "draw_prompt")]


def drawn(events: list[Event]) -> list[Event]:
    return of_type(events, "drawn")


def without_error(events: list[Event]) -> list[Event]:
    return [e for e in events if e["type"] != "error"]


def typed(config: dict[str, Any], commands: list[Cmd]) -> list[Any]:
    """The typed events of a scenario, as the service stores them."""
    scenario = decode_scenario(msgspec.json.encode({"config": config, "commands": commands}))
    return list(run_scenario(scenario))


def command_of(config: dict[str, Any], command: Cmd) -> Any:
    """One command decoded as the replay tool decodes it."""
    scenario = decode_scenario(msgspec.json.encode({"config": config, "commands": [command]}))
    return scenario.commands[0]


def state_after(config: dict[str, Any], commands: list[Cmd]) -> TableState:
    scenario = decode_scenario(msgspec.json.encode({"config": config, "commands": commands}))
    state = new_table(scenario.config)
    for command in scenario.commands:
        state, _ = apply(state, command)
    return state


THREE = {
    1: "2c 3c 4c 5c 7d",  # the button: seven-five low
    2: "8h 8d 9s Ts Js",  # the small blind: a pair of eights
    3: "Ah Kh Qh Jh 9h",  # the big blind: a flush
}
LIMPED = [start(THREE), act(1, "call"), act(2, "call"), act(3, "check")]
"""Three-handed, every seat in for the big blind: the first draw is open, seat 2 to draw."""


def checks(*seats: int) -> list[Cmd]:
    return [act(n, "check") for n in seats]


# --- RP-25-D: the order of the draw --------------------------------------------------------


def test_rp_25_d_the_first_live_seat_left_of_the_button_draws_first_the_button_last() -> None:
    events = run(table(), [*LIMPED, draw(2, 1), draw(3, 2), draw(1)])
    assert draw_prompts(events) == [2, 3, 1]
    assert [(e["seat"], e["count"]) for e in drawn(events)] == [(2, 1), (3, 2), (1, 0)]
    assert last(events, "draw_prompt")["street"] == "first_draw"
    opened = last(events, "dealt")
    assert opened["street"] == "first_draw" and opened["cards"] == []
    assert "seat 1 stood pat, seat 2 drew 1, seat 3 drew 2" in opened["text"]
    # the betting after the draw opens left of the button as well
    assert last(events, "prompt")["seat"] == 2


@pytest.mark.parametrize(
    ("button", "order"), [(1, [2, 3, 4, 1]), (3, [4, 1, 2, 3]), (4, [1, 2, 3, 4])]
)
def test_rp_25_d_the_order_turns_with_the_button(button: int, order: list[int]) -> None:
    config = table(stacks={n: 1_000 for n in range(1, 5)}, button=button)
    sb, bb = order[0], order[1]
    commands = [start(), *(act(n, "call") for n in (*order[2:], sb)), act(bb, "check")]
    events = run(config, [*commands, *(draw(n) for n in order)])
    assert draw_prompts(events) == order


def test_rp_25_d_heads_up_the_big_blind_draws_first_and_the_button_last() -> None:
    config = table(stacks={1: 1_000, 2: 1_000})  # the button posts the small blind (36-C)
    events = run(config, [start(), act(1, "call"), act(2, "check"), draw(2, 3), draw(1, 1)])
    assert draw_prompts(events) == [2, 1]


def test_rp_25_d_a_folded_hand_does_not_draw_an_all_in_hand_does() -> None:
    """Seat 2 (the small blind) folds; seat 4 is all-in for the big blind's call: it is still
    asked to draw in its turn, and it keeps drawing on every draw while the others bet."""
    config = table(stacks={1: 1_000, 2: 1_000, 3: 1_000, 4: 50})
    commands = [start(), act(4, "call"), act(1, "call"), act(2, "fold"), act(3, "check")]
    events = run(config, commands)
    assert last(events, "action")["seat"] == 3 and of_type(events, "action")[0]["all_in"]
    events = run(config, [*commands, draw(3, 2), draw(4, 3), draw(1)])
    assert draw_prompts(events) == [3, 4, 1]
    commands += [draw(3, 2), draw(4, 3), draw(1), *checks(3, 1)]
    events = run(config, [*commands, draw(3, 1), draw(4, 1), draw(1, 1)])
    assert draw_prompts(events)[3:] == [3, 4, 1]
    assert not of_type(events, "expose_all")


def test_rp_25_d_a_seat_that_folds_after_a_draw_is_skipped_on_the_next_one() -> None:
    commands = [*LIMPED, draw(2, 1), draw(3, 2), draw(1), act(2, "bet"), act(3, "fold")]
    events = run(table(), [*commands, act(1, "call"), draw(2, 1), draw(1, 2)])
    assert draw_prompts(events) == [2, 3, 1, 2, 1]
    assert last(events, "draw_prompt")["street"] == "second_draw"


def test_rp_25_d_a_draw_out_of_turn_is_refused_and_changes_nothing() -> None:
    after = [draw(2, 1), draw(3, 2), draw(1)]
    for early in (draw(3, 2), draw(1), draw(1, 5)):
        events = play(table(), [*LIMPED, early, *after])
        refused = [e for e in events if e["type"] == "error"]
        assert len(refused) == 1, refused
        assert refused[0]["code"] == "out_of_turn" and refused[0]["rule"] == "RP-25-D"
        assert "seat 2 draws before" in refused[0]["message"]
        # everything after the refusal is as if the early draw had never been said
        assert without_error(events) == run(table(), [*LIMPED, *after])
    state = state_after(table(), LIMPED)
    before = msgspec.json.encode(state)
    again, said = apply(state, command_of(table(), draw(3, 2)))
    assert again is state and msgspec.json.encode(state) == before
    assert [type(e).__name__ for e in said] == ["ErrorEvent"]


def test_rp_25_d_the_seat_in_turn_may_draw_any_count_up_to_its_hand() -> None:
    for count in range(6):
        assert drawn(run(table(), [*LIMPED, draw(2, count)]))[0]["count"] == count


# --- what a draw command may say -----------------------------------------------------------


@pytest.mark.parametrize(
    "when",
    [
        [],  # before the first hand
        [start()],  # the betting before the draw
        [*LIMPED, draw(2, 1), draw(3, 2), draw(1)],  # the betting after the first draw
    ],
)
def test_a_draw_with_no_draw_open_is_refused_no_draw(when: list[Cmd]) -> None:
    events = play(table(), [*when, draw(2, 1)])
    assert events[-1]["type"] == "error" and events[-1]["code"] == "no_draw"
    assert events[:-1] == play(table(), when)  # nothing recorded


def test_a_draw_after_the_showdown_begins_is_refused_no_draw() -> None:
    commands = [*LIMPED, draw(2), draw(3), draw(1), *checks(2, 3, 1)]
    commands += [draw(2), draw(3), draw(1), *checks(2, 3, 1), draw(2), draw(3), draw(1)]
    commands += checks(2, 3, 1)
    events = run(table(), commands)
    assert last(events, "showdown")["order"] == [2, 3, 1]
    assert error(play(table(), [*commands, draw(2, 1)]))["code"] == "no_draw"


@pytest.mark.parametrize("street", ["flop", "turn", "river"])
def test_a_deal_is_refused_in_a_draw_game(street: str) -> None:
    for at in (LIMPED, [start()], [*LIMPED, draw(2, 1), draw(3, 2), draw(1)]):
        refused = error(play(table(), [*at, {"type": "deal", "street": street}]))
        assert refused["code"] == "not_due"


def test_a_draw_game_deals_every_seat_its_whole_hand() -> None:
    short = error(play(table(), [start({1: "2c 3c 4c 5c", 2: "8h 8d 9s Ts Js"})]))
    assert "27TD deals 5 cards, not 4" in short["message"]
    badugi = error(play(table("BADUGI"), [start({1: "2c 3c 4c 5c 7d"})]))
    assert "BADUGI deals 4 cards, not 5" in badugi["message"]
    run(table("BADUGI"), [start({1: "As 2d 3h 4c", 2: "Ks Kd Qh Jc", 3: "5s 6s 7s 8s"})])


def test_badugi_a_draw_of_more_cards_than_the_hand_holds_is_refused() -> None:
    limped = [start(), act(1, "call"), act(2, "call"), act(3, "check")]
    refused = error(play(table("BADUGI"), [*limped, draw(2, 5)]))
    assert "at most 4" in refused["message"]
    assert drawn(run(table("BADUGI"), [*limped, draw(2, 4)]))[0]["count"] == 4
    assert last(run(table("BADUGI"), limped), "draw_prompt")["most"] == 4


def test_2_7_a_draw_of_six_cards_is_not_a_command() -> None:
    assert last(run(table(), LIMPED), "draw_prompt")["most"] == 5
    with pytest.raises(ProtocolError):
        play(table(), [*LIMPED, draw(2, 6)])


@pytest.mark.parametrize(
    ("command", "says"),
    [
        (draw(2, 2, "8h 8d", "2d"), "cards names 1 cards for a draw of 2"),
        (draw(2, 1, "8h 8d"), "thrown names 2 cards for a draw of 1"),
    ],
)
def test_the_cards_named_must_match_the_count(command: Cmd, says: str) -> None:
    with pytest.raises(ProtocolError) as refused:
        play(table(), [*LIMPED, command])
    assert says in str(refused.value)


def test_a_known_hand_throws_only_cards_it_holds() -> None:
    refused = error(play(table(), [*LIMPED, swap(2, "8h 2c", "2d 3d")]))
    assert "seat 2 holds 8h 8d 9s Ts Js: it cannot throw 8h 2c" in refused["message"]
    assert drawn(run(table(), [*LIMPED, swap(2, "8h 8d", "2d 3d")]))[0]["thrown"] == ["8h", "8d"]


def test_an_unknown_hand_throws_whatever_the_dealer_enters() -> None:
    """No hand entered at the deal: the engine cannot say what seat 2 holds."""
    commands = [start(), act(1, "call"), act(2, "call"), act(3, "check")]
    first = drawn(run(table(), [*commands, swap(2, "Kh 2c", "2d 3d")]))[0]
    assert (first["thrown"], first["cards"]) == (["Kh", "2c"], ["2d", "3d"])


def test_a_card_thrown_twice_is_refused() -> None:
    refused = error(play(table(), [*LIMPED, swap(2, "8h 8h", "2d 3d")]))
    assert "thrown twice" in refused["message"]


@pytest.mark.parametrize(
    ("cards", "duplicate"),
    [
        ("2c 6d", "2c"),  # in seat 1's hand
        ("Ah 6d", "Ah"),  # in seat 3's hand
        ("6d 9s", "9s"),  # seat 2's own card, kept
        ("8h 6d", "8h"),  # seat 2's own discard: the dealer takes it as the new cards go out
        ("6d 6d", "6d"),  # the same card twice
    ],
)
def test_37_e_a_new_card_already_in_play_is_a_fouled_deck(cards: str, duplicate: str) -> None:
    refused = error(play(table(), [*LIMPED, swap(2, "8h 8d", cards)]))
    assert refused["rule"] == "37-E" and duplicate in refused["message"]
    assert drawn(run(table(), [*LIMPED, swap(2, "8h 8d", "6d 6h")]))[0]["cards"] == ["6d", "6h"]


def test_37_e_a_card_dealt_earlier_in_the_draw_is_in_play() -> None:
    commands = [*LIMPED, swap(2, "8h 8d", "2d 3d")]
    refused = error(play(table(), [*commands, swap(3, "Ah Kh", "3d 4d")]))
    assert refused["rule"] == "37-E" and "3d" in refused["message"]


def test_37_e_a_discard_dealt_again_before_any_reshuffle_is_a_fouled_deck() -> None:
    """Seat 2 throws 8h 8d (entered); seat 3 is then dealt the 8h in the same draw. Nothing has
    been shuffled: the 8h lies in the muck, so a second 8h is a duplicate card (37-E)."""
    commands = [*LIMPED, swap(2, "8h 8d", "2d 3d")]
    refused = error(play(table(), [*commands, swap(3, "Ah Kh", "8h 4d")]))
    assert refused["rule"] == "37-E" and "8h" in refused["message"]


# --- the hand after a draw -----------------------------------------------------------------


def test_a_pat_hand_keeps_its_cards_and_takes_no_card_from_the_stub() -> None:
    events = run(table(), [*LIMPED, draw(2)])
    pat = drawn(events)[0]
    assert (pat["count"], pat["thrown"], pat["cards"]) == (0, [], [])
    assert (pat["stub"], pat["burns"], pat["rules"]) == (37, 0, [])  # 52 - 15; no burn yet
    assert pat["text"] == "Seat 2 stands pat (first draw)"
    assert draw_prompts(events) == [2, 3]


def _checked_to_the_showdown(first: list[Cmd], second: list[Cmd], third: list[Cmd]) -> list[Cmd]:
    """The three-handed hand limped, each draw's commands given, every round checked."""
    return [*LIMPED, *first, *checks(2, 3, 1), *second, *checks(2, 3, 1), *third, *checks(2, 3, 1)]


PAT = [draw(2), draw(3), draw(1)]


def test_a_hand_known_after_its_draws_is_read_at_the_showdown() -> None:
    """Seat 2 draws to 9-6-4-3-2 and seat 3 breaks its flush for 8-6-4-3-2, every draw entered
    in full: each hand, tabled without naming cards, is the one its draws made, and seat 1's
    pat 7-5-4-3-2 wins."""
    first = [swap(2, "8h 8d", "2d 3d"), swap(3, "Ah Kh Qh Jh", "8c 6d 4s 3s"), draw(1)]
    second = [swap(2, "Js", "4d"), draw(3), draw(1)]
    third = [swap(2, "Ts", "6h"), swap(3, "9h", "2h"), draw(1)]
    commands = _checked_to_the_showdown(first, second, third)
    events = run(table(), [*commands, *({"type": "show", "seat": n} for n in (2, 3, 1))])
    shown = {e["seat"]: e["cards"] for e in of_type(events, "shown")}
    assert shown == {
        2: ["9s", "2d", "3d", "4d", "6h"],
        3: ["8c", "6d", "4s", "3s", "2h"],
        1: ["2c", "3c", "4c", "5c", "7d"],
    }
    pot = last(events, "hand_end")["pots"][0]
    assert pot["winners"] == [1] and pot["hands"] == {1: "seven-five low"}
    assert last(events, "hand_end")["stacks"] == {1: 1_100, 2: 950, 3: 950}


def test_a_draw_without_its_cards_leaves_the_hand_to_be_tabled_with_its_cards() -> None:
    """Seat 3 throws its five hearts, nothing entered: its hand is unknown. Tabled without
    cards, it cannot be read; tabled as 7-6-4-3-2, it is read: it loses to seat 1's 7-5-4-3-2,
    and wins when seat 1 mucks."""
    commands = _checked_to_the_showdown([draw(2), draw(3, 5), draw(1)], PAT, PAT)
    events = run(table(), [*commands, {"type": "show", "seat": 3}])
    assert last(events, "shown")["cards"] == [] and "not entered" in last(events, "shown")["text"]
    events = run(table(), [*commands, {"type": "show", "seat": 1}, {"type": "show", "seat": 3}])
    assert not of_type(events, "hand_end")  # seat 3's hand is not known: no award yet
    hand = ["7h", "6d", "4s", "3s", "2h"]
    table_3 = {"type": "show", "seat": 3, "cards": hand}
    muck_2 = {"type": "muck", "seat": 2}
    events = run(table(), [*commands, table_3, {"type": "show", "seat": 1}, muck_2])
    assert of_type(events, "shown")[0]["cards"] == hand
    assert of_type(events, "shown")[0]["text"] == "Seat 3 tables 7h 6d 4s 3s 2h"
    pot = last(events, "hand_end")["pots"][0]
    assert pot["winners"] == [1] and pot["hands"] == {1: "seven-five low"}
    commands += [{"type": "show", "seat": 2}, table_3, {"type": "muck", "seat": 1}]
    pot = last(run(table(), commands), "hand_end")["pots"][0]
    assert pot["winners"] == [3] and pot["hands"] == {3: "seven-six low"}


def test_a_draw_with_the_new_cards_but_not_the_discards_leaves_the_hand_unknown() -> None:
    commands = _checked_to_the_showdown([draw(2), draw(3), draw(1, 0)], PAT, PAT)
    known = run(table(), [*commands, {"type": "show", "seat": 2}])
    assert last(known, "shown")["cards"] == THREE[2].split()
    commands = _checked_to_the_showdown([draw(2, 1, cards="6d"), draw(3), draw(1)], PAT, PAT)
    events = run(table(), [*commands, {"type": "show", "seat": 2}])
    assert last(events, "shown")["cards"] == []
