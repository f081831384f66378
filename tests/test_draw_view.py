"""The typed table view in the draw games and at a mixed table (protocol/views.py,
server/views.py): each seat's draws so far, the stub, the pending draw prompt, the rotation.

A draw's count is public (the players see how many each draws, RP-25-D): both views carry every
seat's ``draws``. The cards a draw throws and deals are the staff's: the staff view holds the
hand as the dealer entered it, the public view never a card of a hand not yet tabled — at every
step of hands whose deal and draws were all entered, also through the ``snapshot`` frame as a
display decodes it. A view taken mid-draw carries the ``draw_prompt`` the live stations were
sent (the seat, the draw, the most it may throw, the stub), so a station reloaded then knows
whose draw it is.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from protocol import decode_scenario
from protocol.events import DrawPrompt
from protocol.views import PublicTableView, TableView
from protocol.wire import Snapshot, server_decoder
from server.engine import TableState, apply, new_table
from server.views import public_view, snapshot_message, staff_view
from tests.test_rule_rp_25_draw import (
    THREE,
    _checked_to_the_showdown,
    draw,
    start,
    state_after,
    swap,
    table,
)
from tests.test_seed_common import act

KNOWN = _checked_to_the_showdown(
    [swap(2, "8h 8d", "2d 3d"), swap(3, "Ah Kh Qh Jh", "8c 6d 4s 3s"), draw(1)],
    [swap(2, "Js", "4d"), draw(3), draw(1)],
    [swap(2, "Ts", "6h"), swap(3, "9h", "2h"), draw(1)],
)
"""Three hands entered at the deal, every draw entered with its cards, to the showdown."""
LIMPED = [start(THREE), act(1, "call"), act(2, "call"), act(3, "check")]


def states(config: dict[str, Any], commands: list[dict[str, Any]]) -> list[TableState]:
    """The table after each command."""
    scenario = decode_scenario(msgspec.json.encode({"config": config, "commands": commands}))
    state = new_table(scenario.config)
    out = [state]
    for command in scenario.commands:
        state, _ = apply(state, command)
        out.append(state)
    return out


def entered(config: dict[str, Any], commands: list[dict[str, Any]]) -> set[str]:
    """Every card the dealer entered: the hands dealt, each draw's discards and new cards."""
    cards: set[str] = set()
    for command in commands:
        for hand in (
            (command.get("cards") or {}).values() if command["type"] == "start_hand" else []
        ):
            cards.update(hand)
        if command["type"] == "draw":
            cards.update(command.get("thrown", []), command.get("cards", []))
    return cards - {"??"}


def decoded(view: TableView | PublicTableView) -> dict[str, Any]:
    """The view as a display's wire decoder reads it from a snapshot frame."""
    frame = msgspec.json.encode(Snapshot("main", "1", 1, view))
    message = server_decoder.decode(frame)
    assert isinstance(message, Snapshot)
    return msgspec.to_builtins(message.state)  # type: ignore[no-any-return]


def test_the_public_view_carries_every_draw_count_and_never_a_drawn_card() -> None:
    config = table()
    hidden = entered(config, KNOWN)
    assert {"2d", "3d", "8c", "6d", "4s", "3s", "4d", "6h", "2h"} <= hidden
    draws_seen = set()
    for state in states(config, KNOWN):
        shown = {s.number for s in state.seats if s.shown or (state.exposed and s.live)}
        staff, public = staff_view(state), public_view(state)
        # The counts are public, the same in both views.
        assert [s.draws for s in public.seats] == [list(s.draws) for s in state.seats]
        assert [s.draws for s in public.seats] == [s.draws for s in staff.seats]
        draws_seen.add(tuple(tuple(s.draws) for s in public.seats))
        for seat in decoded(public)["seats"]:
            if seat["seat"] not in shown:
                assert seat["cards"] == [] and seat["face_up"] == []
        # Nothing a display decodes names a card of a hand not tabled.
        text = msgspec.json.encode(decoded(public)).decode()
        unseen = hidden - {c for s in state.seats if s.number in shown for c in s.cards}
        assert not [c for c in unseen if f'"{c}"' in text], state.phase
    # Every step of the three draws was seen: pat, one card, two, four.
    assert ((0, 0, 0), (2, 1, 1), (4, 0, 1)) in draws_seen
    # The staff view holds the hand as the draws left it.
    last = next(s for s in states(config, KNOWN) if s.street == "third_draw")
    assert sorted(staff_view(last).seats[1].cards) == sorted(["9s", "2d", "3d", "4d", "6h"])
    assert public_view(last).seats[1].cards == []


def test_a_view_mid_draw_names_the_seat_to_draw_as_its_prompt_did() -> None:
    config = table()
    commands = [*LIMPED, swap(2, "8h 8d", "2d 3d")]
    state = state_after(config, commands)
    for view in (staff_view(state), public_view(state)):
        assert view.phase == "draw" and view.to_act == 3
        assert view.draw_prompt == DrawPrompt(
            seat=3,
            street="first_draw",
            most=5,
            stub=34,
            text="Seat 3 to draw (first draw): stand pat or throw 1 to 5; 34 cards in the stub",
        )
        assert view.stub == 34
        assert view.prompt is None
        assert [s.draws for s in view.seats] == [[], [2], []]
    # The prompt is the event the live stations were sent.
    events = [e for e in _events(config, commands) if isinstance(e, DrawPrompt)]
    assert events[-1] == staff_view(state).draw_prompt
    # Through the snapshot frame a display decodes: the prompt, no card.
    frame = snapshot_message("main", "1", 9, state, public=True)
    state_json = msgspec.json.decode(frame)["state"]
    assert state_json["draw_prompt"]["seat"] == 3 and state_json["stub"] == 34
    assert all(s["cards"] == [] for s in state_json["seats"])


def test_no_draw_prompt_while_betting_and_no_stub_outside_the_draw_games() -> None:
    betting = state_after(table(), [*LIMPED, draw(2), draw(3), draw(1)])
    view = staff_view(betting)
    assert view.phase == "betting" and view.draw_prompt is None and view.prompt is not None
    assert view.stub == 37 and [s.draws for s in view.seats] == [[0], [0], [0]]
    holdem = state_after({**table(), "game": "NLHE"}, [{"type": "start_hand"}])
    flop = staff_view(holdem)
    assert flop.stub == 0 and flop.draw_prompt is None
    assert all(s.draws == [] for s in flop.seats)


def test_a_hand_s_draws_are_cleared_when_it_ends() -> None:
    shows = [{"type": "show", "seat": n} for n in (2, 3, 1)]
    state = states(table(), [*KNOWN, *shows])[-1]
    assert state.phase == "idle" and state.hand == 1
    assert all(s.draws == [] for s in public_view(state).seats)


@pytest.mark.parametrize("game", ["27TD", "27SD", "BADUGI"])
def test_the_stub_counts_the_deal_and_each_draw(game: str) -> None:
    hand = 4 if game == "BADUGI" else 5
    state = state_after(table(game), [*LIMPED_NO_CARDS, draw(2, 2)])
    # 52 less the hands dealt, a burn and the two cards drawn.
    assert public_view(state).stub == 52 - 3 * hand - 1 - 2
    assert public_view(state).draw_prompt is not None
    assert public_view(state).draw_prompt.most == hand  # type: ignore[union-attr]


LIMPED_NO_CARDS = [start(), act(1, "call"), act(2, "call"), act(3, "check")]

ROTATION = {
    **table("RAZZ", blinds=(0, 0)),
    "ante": 10,
    "bring_in": 20,
    "min_bet": 50,
    "rotation": [
        {"game": "RAZZ", "blinds": [0, 0], "ante": 10, "bring_in": 20, "min_bet": 50},
        {"game": "27TD", "blinds": [25, 50]},
    ],
    "orbit": 1,
}


def test_a_table_by_orbit_says_its_rotation_and_where_it_is() -> None:
    commands = [
        {"type": "start_hand", "up": {"1": ["Kd"], "2": ["2c"], "3": ["3h"]}},
        act(1, "bring_in"),
        act(2, "fold"),
        act(3, "fold"),
    ]
    state = state_after(ROTATION, commands)
    view = public_view(state)
    assert view.rotation == ["RAZZ", "27TD"]
    assert (view.game, view.turn, view.orbit, view.played) == ("RAZZ", 0, 1, 1)
    later = public_view(state_after(ROTATION, [*commands, {"type": "start_hand"}]))
    assert (later.game, later.turn, later.orbit, later.played) == ("27TD", 1, 1, 1)
    assert later.street == "predraw"


def test_a_level_that_changes_the_game_names_it_in_the_next_level() -> None:
    state = state_after(
        {**table(), "game": "NLHE"},
        [{"type": "level", "blinds": [0, 0], "ante": 10, "bring_in": 20, "min_bet": 50,
          "game": "7S"}],
    )  # fmt: skip
    nxt = staff_view(state).next_level
    assert nxt is not None and nxt.game == "7S" and nxt.bring_in == 20
    plain = state_after(table(), [{"type": "level", "blinds": [50, 100]}])
    assert staff_view(plain).next_level.game == ""  # type: ignore[union-attr]


def _events(config: dict[str, Any], commands: list[dict[str, Any]]) -> list[Any]:
    scenario = decode_scenario(msgspec.json.encode({"config": config, "commands": commands}))
    state = new_table(scenario.config)
    out: list[Any] = []
    for command in scenario.commands:
        state, events = apply(state, command)
        out += events
    return out
