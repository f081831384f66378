"""Rule 68: in stud a player who takes up the up-cards on the turn to act has a dead hand,
through the replay format. Both sides: on the turn the hand is folded and the action goes on;
off the turn (another seat to act, or before the hand's action) the report is refused and
nothing changes; in a flop game there are no up-cards to take."""

from __future__ import annotations

from tests.support import last, of_type, play
from tests.test_rule_rp_10_stud import THIRD, error, start, stud
from tests.test_seed_common import Cmd, act, actions_of, prompt_for, run, table


def _taken(seat: int) -> Cmd:
    return {"type": "irregularity", "kind": "up_cards_taken", "seat": seat}


def test_68_up_cards_taken_on_the_turn_to_act_kill_the_hand() -> None:
    events = run(stud(), [start(THIRD), act(2, "bring_in"), _taken(3)])
    dead = actions_of(events, 3)[-1]
    assert (dead["action"], dead["forced"], dead["rules"]) == ("fold", True, ["68"])
    assert "took up the up-cards on its turn" in dead["text"]
    assert prompt_for(events, 1)["to_call"] == 20, "the action goes on to seat 1"


def test_68_the_last_live_opponent_killed_ends_the_hand() -> None:
    events = run(stud(), [start(THIRD), act(2, "bring_in"), act(3, "fold"), _taken(1)])
    assert last(events, "hand_end")["pots"][0]["winners"] == [2]


def test_68_off_the_turn_the_report_is_refused_and_nothing_changes() -> None:
    commands = [start(THIRD), act(2, "bring_in")]
    events = play(stud(), [*commands, _taken(1)])
    refused = error(events)
    assert refused["rule"] == "68" and "not to act" in refused["message"]
    assert not [a for a in actions_of(events, 1) if a["action"] == "fold"]
    assert prompt_for(run(stud(), [*commands, act(3, "call")]), 1)


def test_68_a_flop_game_has_no_up_cards_to_take() -> None:
    holdem = table({1: 1_000, 2: 1_000, 3: 1_000}, button=1, blinds=(50, 100))
    events = play(holdem, [{"type": "start_hand"}, _taken(1)])
    assert error(events)["rule"] == "68"
    assert not of_type(events, "action")
