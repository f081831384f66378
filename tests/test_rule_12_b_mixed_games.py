"""12-B and 25 at a mixed game's table, through the replay format: a level names the next game.

A mixed event (H.O.R.S.E., 8-game) changes game with the level: ``level.game`` announces the
game and its limits, and the next hand deals it (25). Going from a flop game to stud, the
button moves to where the next flop hand would have it and stays there while stud is dealt;
back to the flop game, the button starts from there (12-B). The draw games have a button and
blinds, so the button moves on through them as through hold'em. RP-18 asks nothing of the
table: stud and stud/8 may come in any order.
"""

from __future__ import annotations

from typing import Any

import msgspec

from tests.support import last, of_type, play

Cmd = dict[str, Any]
SEATS = {n: 10_000 for n in range(1, 7)}
HOLDEM = {"type": "level", "blinds": [50, 100], "game": "LHE"}
STUD = {"type": "level", "blinds": [0, 0], "ante": 25, "min_bet": 100, "bring_in": 25}
UP = {str(n): [card] for n, card in enumerate(["2c", "9d", "Th", "Js", "Qc", "Kd"], 1)}


def lhe() -> dict[str, Any]:
    return {"game": "LHE", "blinds": [50, 100], "seats": SEATS, "button": 1}


def folded_round(first: int) -> list[Cmd]:
    """Everyone folds to the big blind, starting with ``first``."""
    seats = [(first - 1 + i) % 6 + 1 for i in range(5)]
    return [{"type": "act", "seat": n, "declare": "fold"} for n in seats]


def holdem_hand(button: int) -> list[Cmd]:
    """A hold'em hand with the button on ``button``: all fold to the big blind."""
    return [{"type": "start_hand"}, *folded_round((button + 2) % 6 + 1)]


def stud_hand(bringer: int = 1) -> list[Cmd]:
    """A stud hand: ``bringer`` brings it in (seat 1's 2c in stud, seat 6's Kd in razz),
    everyone else folds to it."""
    others = [(bringer + i) % 6 + 1 for i in range(5)]
    return [
        {"type": "start_hand", "up": UP},
        {"type": "act", "seat": bringer, "declare": "bring_in"},
        *({"type": "act", "seat": n, "declare": "fold"} for n in others),
    ]


def starts(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return of_type(events, "hand_start")


def test_12_b_stud_freezes_the_button_where_the_next_flop_hand_has_it() -> None:
    """Two hold'em hands (buttons 1 and 2), then a stud level: the stud hands show the button
    on seat 3, where hand 3 of hold'em would have had it, hand after hand; hold'em again
    starts there: button 3, small blind 4, big blind 5 — the hand the stud level put off."""
    game = "7S"
    commands = [
        *holdem_hand(1),
        *holdem_hand(2),
        {**STUD, "game": game},
        *stud_hand(),
        *stud_hand(),
        HOLDEM,
        *holdem_hand(3),
    ]
    events = play(lhe(), commands)
    assert not of_type(events, "error"), of_type(events, "error")
    hands = starts(events)
    assert [h["button"] for h in hands] == [1, 2, 3, 3, 3]
    assert [h["game"] for h in hands] == ["", "", "7S", "", "LHE"]
    for stud in hands[2:4]:
        assert "12-B" in stud["rules"] and "the button stays on seat 3" in stud["text"]
        assert stud["big_blind"] == 0 and stud["posts"][0]["kind"] == "ante"
    back = hands[4]
    assert (back["small_blind"], back["big_blind"]) == (4, 5)
    assert "12-B" not in back["rules"]
    only_holdem = starts(play(lhe(), [*holdem_hand(1), *holdem_hand(2), *holdem_hand(3)]))
    assert {k: back[k] for k in ("button", "small_blind", "big_blind")} == {
        k: only_holdem[2][k] for k in ("button", "small_blind", "big_blind")
    }


def test_25_the_new_game_waits_for_the_next_hand() -> None:
    """A stud level announced during a hold'em hand: that hand plays on as hold'em, the next
    deals stud (a hand with up-cards); a hold'em start_hand then, without up-cards, is refused."""
    commands = [
        {"type": "start_hand"},
        {**STUD, "game": "RAZZ"},
        *folded_round(4),
        {"type": "start_hand"},
    ]
    events = play(lhe(), commands)
    assert last(events, "hand_end")["hand"] == 1
    assert last(events, "error")["code"] == "up_cards_needed"
    events = play(lhe(), [*commands[:-1], {"type": "start_hand", "up": UP}])
    razz = starts(events)[-1]
    assert razz["game"] == "RAZZ"
    # Razz: the highest up-card (Kd, seat 6) brings it in.
    assert last(events, "prompt")["seat"] == 6 and last(events, "prompt")["bring_in"] == 25


def test_rp_10_a_stud_level_has_a_bring_in_and_the_other_games_none() -> None:
    """The level must suit the game it announces: refused both ways, naming the game."""
    no_bring_in = {"type": "level", "blinds": [0, 0], "ante": 25, "min_bet": 100, "game": "7S8"}
    events = play(lhe(), [no_bring_in])
    assert last(events, "error")["rule"] == "RP-10"
    assert "7S8" in last(events, "error")["message"]
    events = play(lhe(), [{**STUD, "game": "7S"}, {**STUD, "game": "27TD"}])
    assert last(events, "error")["rule"] == "RP-10"
    events = play(lhe(), [{**STUD, "game": "7S"}, {**STUD}])  # the stud level stands
    assert not of_type(events, "error")


def test_rp_18_stud_and_stud_8_in_any_order_and_a_draw_game_moves_the_button() -> None:
    """Stud/8 straight after razz and stud after stud/8 (RP-18 does not require them to be
    consecutive or apart); a draw game after stud starts from the frozen button and moves it on
    hand by hand, as hold'em does."""
    commands = [
        *holdem_hand(1),
        {**STUD, "game": "RAZZ"},
        *stud_hand(bringer=6),
        {**STUD, "game": "7S8"},
        *stud_hand(),
        {"type": "level", "blinds": [50, 100], "game": "27TD"},
        *holdem_hand(2),
        *holdem_hand(3),
    ]
    events = play(lhe(), commands)
    hands = starts(events)
    assert [h["game"] for h in hands] == ["", "RAZZ", "7S8", "27TD", ""]
    assert [h["button"] for h in hands] == [1, 2, 2, 2, 3]


HORSE = [
    {"game": "LHE", "blinds": [50, 100]},
    {"game": "7S", "blinds": [0, 0], "ante": 10, "min_bet": 100, "bring_in": 25},
    {"game": "27TD", "blinds": [50, 100]},
]
THREE = {n: 10_000 for n in range(1, 4)}
STUD_UP = {"1": ["2c"], "2": ["9d"], "3": ["Kh"]}


def by_orbit(**changes: Any) -> dict[str, Any]:
    """Three players, limit hold'em, stud and triple draw in turn, an orbit each."""
    return {
        "game": "LHE",
        "blinds": [50, 100],
        "seats": THREE,
        "button": 1,
        "rotation": HORSE,
        **changes,
    }


def orbit_hand(game: str, button: int) -> list[Cmd]:
    """One hand at three players folded to the forced bet: stud's bring-in (seat 1, 2c), or the
    big blind of a button game."""
    if game == "7S":
        return [
            {"type": "start_hand", "up": STUD_UP},
            {"type": "act", "seat": 1, "declare": "bring_in"},
            {"type": "act", "seat": 2, "declare": "fold"},
            {"type": "act", "seat": 3, "declare": "fold"},
        ]
    # Three-handed the button acts first pre-flop, then the small blind.
    return [
        {"type": "start_hand"},
        {"type": "act", "seat": button, "declare": "fold"},
        {"type": "act", "seat": button % 3 + 1, "declare": "fold"},
    ]


def test_12_b_a_table_by_orbit_deals_each_game_for_an_orbit_in_turn() -> None:
    """Limit hold'em for an orbit (three hands at three players: buttons 1, 2, 3), stud for
    three hands with the button frozen on seat 1 (where the fourth hold'em hand has it), triple
    draw from there (1, 2, 3), then hold'em again: each game's first hand says so, with its
    limits; stud's antes and bring-in, the others' blinds."""
    games = ["LHE"] * 3 + ["7S"] * 3 + ["27TD"] * 3 + ["LHE"]
    buttons = [1, 2, 3, 1, 1, 1, 1, 2, 3, 1]
    commands = [c for g, b in zip(games, buttons, strict=True) for c in orbit_hand(g, b)]
    events = play(by_orbit(), commands)
    assert not of_type(events, "error"), of_type(events, "error")
    hands = starts(events)
    assert [h["button"] for h in hands] == buttons
    assert [(h["game"], h["turn"], h["orbit"]) for h in hands if h["orbit"]] == [
        ("", 0, 3),
        ("7S", 1, 3),
        ("27TD", 2, 3),
        ("LHE", 0, 3),
    ]
    assert "seven-card stud for 3 hands" in hands[3]["text"]
    assert (hands[3]["ante"], hands[3]["bring_in"], hands[3]["blinds"]) == (10, 25, [0, 0])
    assert (hands[6]["blinds"], hands[6]["small_blind"], hands[6]["big_blind"]) == ([50, 100], 2, 3)
    assert [h["hand"] for h in of_type(events, "hand_end")] == list(range(1, 11))


def test_12_b_an_orbit_of_a_set_number_of_hands() -> None:
    """``orbit: 2``: each game deals two hands, whatever the players."""
    games = ["LHE", "LHE", "7S", "7S", "27TD"]
    buttons = [1, 2, 3, 3, 3]
    commands = [c for g, b in zip(games, buttons, strict=True) for c in orbit_hand(g, b)]
    hands = starts(play(by_orbit(orbit=2), commands))
    assert [h["orbit"] for h in hands] == [2, 0, 2, 0, 2]
    assert [h["button"] for h in hands] == buttons


def test_25_a_new_level_at_a_table_by_orbit_gives_every_games_limits() -> None:
    """A level for one game is refused (25: the others' limits would be unsaid); one with the
    rotation's games in order applies from the next hand, the game in play going on at its new
    limits until its orbit ends."""
    single = {"type": "level", "blinds": [100, 200]}
    assert last(play(by_orbit(), [single]), "error")["rule"] == "25"
    shuffled = {**single, "rotation": [HORSE[1], HORSE[0], HORSE[2]]}
    assert last(play(by_orbit(), [shuffled]), "error")["rule"] == "25"
    higher = [
        {"game": "LHE", "blinds": [100, 200]},
        {"game": "7S", "blinds": [0, 0], "ante": 20, "min_bet": 200, "bring_in": 50},
        {"game": "27TD", "blinds": [100, 200]},
    ]
    commands = [
        *orbit_hand("LHE", 1),
        {"type": "level", "blinds": [100, 200], "rotation": higher},
        *orbit_hand("LHE", 2),
        *orbit_hand("LHE", 3),
        *orbit_hand("7S", 1),
    ]
    events = play(by_orbit(), commands)
    assert not of_type(events, "error")
    hands = starts(events)
    assert [h["blinds"] for h in hands[:3]] == [[50, 100], [100, 200], [100, 200]]
    assert (hands[3]["ante"], hands[3]["bring_in"], hands[3]["min_bet"]) == (20, 50, 200)


def test_the_rotation_is_checked_when_the_table_is_set() -> None:
    """The rotation's first game is the table's own; a stud game has its bring-in."""
    from protocol import ProtocolError, decode_scenario

    def refused(config: dict[str, Any]) -> str:
        try:
            decode_scenario(msgspec.json.encode({"config": config, "commands": []}))
        except ProtocolError as error:
            return str(error)
        raise AssertionError("accepted")

    assert "$.rotation" in refused(by_orbit(blinds=[100, 200]))
    no_bring_in = [HORSE[0], {**HORSE[1], "bring_in": 0}]
    assert "bring" in refused(by_orbit(rotation=no_bring_in))


def test_37_c_a_misdeal_on_a_games_first_hand_deals_the_same_game_again() -> None:
    """The first stud hand of the rotation is misdealt: the re-deal is stud again, and the
    orbit still counts three stud hands."""
    commands = [
        *orbit_hand("LHE", 1),
        *orbit_hand("LHE", 2),
        *orbit_hand("LHE", 3),
        {"type": "start_hand", "up": STUD_UP},
        {"type": "misdeal", "reason": "two cards exposed", "up": STUD_UP},
        {"type": "act", "seat": 1, "declare": "bring_in"},
        {"type": "act", "seat": 2, "declare": "fold"},
        {"type": "act", "seat": 3, "declare": "fold"},
        *orbit_hand("7S", 1),
        *orbit_hand("7S", 1),
        *orbit_hand("27TD", 1),
    ]
    events = play(by_orbit(), commands)
    assert not of_type(events, "error"), of_type(events, "error")
    hands = starts(events)
    assert [h["redeal"] for h in hands] == [False] * 4 + [True] + [False] * 3
    assert [h["game"] for h in hands][3:] == ["7S", "7S", "", "", "27TD"]


def test_37_c_a_misdeal_re_deals_the_hand_s_own_game_not_the_one_announced_during_it() -> None:
    """A level naming the next game is announced during a hold'em hand, which is then misdealt:
    the re-deal is the same hand (37-C) — hold'em, two cards, at the hand's level — and the
    announced game starts with the hand after it (25). Before the fix the re-deal dealt the
    announced game (stud: refused for want of up-cards; Omaha: refused two-card hands)."""
    plo = {"type": "level", "blinds": [50, 100], "game": "PLO"}
    for announced, game, next_hand in (
        ({**STUD, "game": "7S"}, "7S", {"type": "start_hand", "up": UP}),
        (plo, "PLO", {"type": "start_hand"}),
    ):
        events = play(
            lhe(),
            [
                {"type": "start_hand", "cards": {"3": ["As", "Kd"]}},
                announced,
                {"type": "misdeal", "cards": {"3": ["As", "Kd"]}},
                *folded_round(4),
                next_hand,
            ],
        )
        assert not of_type(events, "error"), of_type(events, "error")
        first, again, after = starts(events)
        assert again["redeal"] and again["game"] == "" and again["cards"] == {3: ["As", "Kd"]}
        assert again["blinds"] == first["blinds"] == [50, 100]
        assert after["game"] == game
