"""Bad input: a typed error naming the field or the rule, and nothing changes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner

from protocol import ProtocolError
from protocol.tournament import (
    NextLevel,
    PauseClock,
    Reenter,
    Register,
    SeatPlayer,
    StartClock,
    Structure,
    TournamentCommand,
    Unregister,
    decode_structure,
    decode_tournament_scenario,
)
from server.cli import main
from server.tournament import TournamentState, apply, new_tournament
from server.tournament_replay import check_entries
from tests.tournament.support import scenario, structure


def _decode_error(struct: dict[str, Any]) -> str:
    with pytest.raises(ProtocolError) as caught:
        decode_tournament_scenario(json.dumps(scenario(struct, [], [])))
    return str(caught.value)


def test_a_structure_with_no_levels_is_refused() -> None:
    assert _decode_error(structure(levels=[])).endswith("at `$.structure.levels`")


def test_negative_blinds_are_refused_naming_the_field() -> None:
    bad = structure(levels=[{"blinds": [-50, 100], "minutes": 10}])
    assert _decode_error(bad).endswith("at `$.structure.levels[0].blinds[0]`")


def test_decreasing_blinds_are_refused_naming_the_level() -> None:
    levels = [{"blinds": [100, 200], "minutes": 10}, {"blinds": [50, 100], "minutes": 10}]
    message = _decode_error(structure(levels=levels, late_registration_until=1))
    assert "must not go down" in message
    assert message.endswith("at `$.structure.levels[1].blinds`")


def test_a_level_without_a_length_is_refused() -> None:
    bad = structure(levels=[{"blinds": [50, 100]}], late_registration_until=0)
    assert _decode_error(bad).endswith("at `$.structure.levels[0].minutes`")


STUD_LEVEL = {"blinds": [0, 0], "ante": 25, "bring_in": 25, "min_bet": 100, "minutes": 10}
HOLDEM_LEVEL = {"blinds": [50, 100], "minutes": 10}
DRAW_LEVEL = {"blinds": [50, 100], "minutes": 10, "game": "27TD"}


@pytest.mark.parametrize(
    ("changes", "field", "game", "most"),
    [
        ({"game": "7S", "levels": [STUD_LEVEL], "late_registration_until": 1}, "table_size",
         "7S", 8),
        ({"levels": [HOLDEM_LEVEL, {**STUD_LEVEL, "game": "STUD"}]}, "table_size", "7S", 8),
        ({"levels": [HOLDEM_LEVEL, {**STUD_LEVEL, "game": "RAZZ"}]}, "table_size", "RAZZ", 8),
        ({"levels": [HOLDEM_LEVEL, DRAW_LEVEL], "table_size": 10}, "table_size", "27TD", 9),
        (
            {"levels": [HOLDEM_LEVEL, {**STUD_LEVEL, "game": "7S8"}], "table_size": 8,
             "final_table": 9},
            "final_table",
            "7S8",
            8,
        ),
    ],
)  # fmt: skip
def test_a_table_seats_no_more_hands_than_a_deck_deals_in_the_structures_games(
    changes: dict[str, Any], field: str, game: str, most: int
) -> None:
    """Stud deals at most eight hands (RP-10-H), 2-7 draw nine (RP-25): a structure whose
    tables or final table seat more would stop dealing when that game comes round."""
    message = _decode_error(structure(**changes))
    assert f"{game} deals at most {most} hands" in message
    assert message.endswith(f"at `$.structure.{field}`")


def test_a_structure_stored_before_the_table_size_check_still_reads() -> None:
    """The check is made when a structure is given (a tournament created, a file read), not
    whenever one is decoded: a tournament stored with a nine-handed stud structure loads, its
    final table capped at eight."""
    levels = [HOLDEM_LEVEL, {**STUD_LEVEL, "game": "7S"}]
    stored = msgspec.msgpack.encode(structure(levels=levels, table_size=9))
    loaded = msgspec.msgpack.decode(stored, type=Structure)
    assert (loaded.table_size, loaded.final_size) == (9, 8)
    with pytest.raises(ProtocolError, match="7S deals at most 8 hands"):
        decode_structure(msgspec.json.encode(structure(levels=levels, table_size=9)))


def test_a_stud_structure_has_eight_handed_tables_and_final_table() -> None:
    """Both sides of the line: eight-handed stud is dealt, its final table eight by default
    (RP-9's nine from 8-handed tables is more than a deck deals in stud); 2-7 at nine; hold'em
    and badugi at ten."""
    stud = decode_structure(
        json.dumps(structure(levels=[HOLDEM_LEVEL, {**STUD_LEVEL, "game": "7S"}], table_size=8))
    )
    assert (stud.table_size, stud.final_size) == (8, 8)
    draw = decode_structure(json.dumps(structure(levels=[HOLDEM_LEVEL, DRAW_LEVEL])))
    assert (draw.table_size, draw.final_size) == (9, 9)
    badugi = {**DRAW_LEVEL, "game": "BADUGI", "min_bet": 100}
    ten = decode_structure(json.dumps(structure(levels=[HOLDEM_LEVEL, badugi], table_size=10)))
    assert (ten.table_size, ten.final_size) == (10, 10)


def test_payouts_that_do_not_add_up_to_100_percent_are_refused() -> None:
    bad = structure(payouts={"places": [{"place": 1, "percent": 60}, {"place": 2, "percent": 30}]})
    message = _decode_error(bad)
    assert "add up to 90, not 100" in message
    assert message.endswith("at `$.structure.payouts.places`")


def test_a_structure_file_decodes_from_toml_too() -> None:
    toml = b"""
starting_stack = 20000
late_registration_until = 1
[payouts]
curve = "standard"
[[levels]]
blinds = [100, 200]
minutes = 20
[[levels]]
break = 10
color_up = [25]
[[levels]]
blinds = [200, 400]
ante = 400
bba = true
minutes = 20
"""
    parsed = decode_structure(toml, toml=True)
    assert parsed.level_count == 2 and parsed.levels[1].color_up == [25]
    with pytest.raises(ProtocolError, match=r"\$\.levels\[1\]\.color_up"):
        decode_structure(toml.replace(b"[25]", b"[30]"), toml=True)


def _refused(state: TournamentState, command: TournamentCommand) -> dict[str, Any]:
    before = msgspec.to_builtins(state)
    after, events = apply(state, command)
    assert after is state and msgspec.to_builtins(state) == before, "nothing changes"
    assert len(events) == 1
    error: dict[str, Any] = msgspec.to_builtins(events[0])
    assert error["type"] == "tournament_error"
    return error


def _tournament(**changes: Any) -> TournamentState:
    struct = decode_tournament_scenario(json.dumps(scenario(structure(**changes), [], [])))
    return new_tournament(struct.structure)


def _then(state: TournamentState, *commands: TournamentCommand) -> TournamentState:
    for command in commands:
        state, events = apply(state, command)
        assert all(msgspec.to_builtins(e)["type"] != "tournament_error" for e in events), events
    return state


def test_a_player_registered_twice_is_refused() -> None:
    state = _then(_tournament(), Register(player="a"))
    error = _refused(state, Register(player="a"))
    assert (error["code"], error["field"], error["rule"]) == ("registered", "$.player", "9-A")


def test_a_re_entry_after_the_re_entry_period_is_refused() -> None:
    state = _tournament(reentry_until=1)
    state = _then(state, Register(player="a"), StartClock(at=0), NextLevel(at=1000))
    error = _refused(state, Reenter(player="a", at=2000))
    assert (error["code"], error["rule"]) == ("reentry_closed", "9-A")


def test_a_seat_draw_with_no_free_seat_is_refused() -> None:
    state = _then(_tournament(), Register(player="a"))
    error = _refused(state, SeatPlayer(player="a", draw=3))
    assert (error["code"], error["rule"]) == ("no_seat", "8")


def test_a_level_command_while_paused_is_refused() -> None:
    state = _then(_tournament(), StartClock(at=0), PauseClock(at=1000))
    error = _refused(state, NextLevel(at=2000))
    assert (error["code"], error["rule"]) == ("clock_paused", "25-A")


def test_a_command_for_another_tournament_is_refused() -> None:
    error = _refused(_tournament(), Register(player="a", tournament="other"))
    assert (error["code"], error["field"]) == ("unknown_tournament", "$.tournament")


def test_a_command_for_an_unknown_player_is_refused() -> None:
    error = _refused(_tournament(), Unregister(player="nobody"))
    assert (error["code"], error["field"]) == ("unknown_player", "$.player")


def test_a_table_command_only_the_tournament_orders_is_refused_in_a_scenario() -> None:
    data = scenario(
        structure(),
        [{"id": "1"}],
        [{"table": "1", "command": {"type": "add_player", "seat": 1, "stack": 5}}],
    )
    with pytest.raises(ProtocolError, match=r"\$\.commands\[0\]\.command"):
        check_entries(decode_tournament_scenario(json.dumps(data)))


def test_tablewire_replay_exits_2_with_the_field_path(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    levels = [{"blinds": [100, 200], "minutes": 10}, {"blinds": [50, 100], "minutes": 10}]
    bad.write_text(
        json.dumps(scenario(structure(levels=levels, late_registration_until=1), [], []))
    )
    result = CliRunner().invoke(main, ["replay", str(bad)])
    assert result.exit_code == 2
    assert "`$.structure.levels[1].blinds`" in result.output


def test_tablewire_replay_prints_a_tournament_one_event_per_line(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    commands = [
        {"tournament": {"type": "register", "player": "a"}},
        {"tournament": {"type": "seat", "player": "a", "draw": 0}},
        {"at": 5, "table": "1", "command": {"type": "start_hand"}},
    ]
    good.write_text(json.dumps(scenario(structure(), [{"id": "1", "seats": 6}], commands)))
    result = CliRunner().invoke(main, ["replay", str(good)])
    assert result.exit_code == 0
    lines = [json.loads(line) for line in result.output.splitlines()]
    assert [line.get("type") for line in lines[:3]] == ["table_opened", "registered", "seated"]
    assert lines[3] == {"table": "1", "event": lines[3]["event"]}
    assert lines[-1]["event"]["code"] == "not_started"
