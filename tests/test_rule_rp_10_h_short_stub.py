"""RP-10-H: the stub short on seventh street of a stud hand, through the replay format.

Before seventh street the dealer needs one card for each hand still in, a burn and a last card
never dealt; the stub is 52 less three cards to every hand dealt, one to each hand still in on
fourth to sixth street and the three burns. Eight hands dealt with nobody out leave one card
(C); folds on earlier streets leave more. Each line the rule draws is tested from both sides:
enough (a card each) / short but enough with the burns (A: mix them in, a card each) / at
least three left (B: burn, a community card) / fewer than three (C: mix in the burns, burn, a
community card); and with a community card the boards are unchanged, so the first to act on
sixth street acts first on seventh (D), and every hand plays the community card.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from server.views import public_events
from tests.support import last, of_type, play
from tests.test_rule_rp_10_stud import _typed, error, street, stud
from tests.test_seed_common import Cmd, Event

DECK = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]
STACKS = {n: 1_000 for n in range(1, 9)}


def _cards(seats: list[int]) -> dict[int, list[str]]:
    """Each seat's cards to sixth street, all different: two down, four up. Seat 1 holds
    2c 2d / 2h 2s 3c 3d (its two of hearts is the lowest up-card: it brings it in), seat 8
    Qh Qs / Kc Kd Kh Ks (four kings showing: the best board); with eight dealt the four aces
    are what is left."""
    deck = iter(DECK)
    return {n: [next(deck) for _ in range(6)] for n in seats}


def _respond(prompt: Event, folds: dict[str, set[int]], street_name: str) -> Cmd:
    seat, folding = prompt["seat"], folds.get(street_name, set())
    if seat in folding and "fold" in prompt["options"]:
        return {"type": "act", "seat": seat, "declare": "fold"}
    if folding and seat not in folding and "bet" in prompt["options"]:
        return {"type": "act", "seat": seat, "declare": "bet"}  # a bet the folds face
    for option in ("bring_in", "check", "call"):
        if option in prompt["options"]:
            return {"type": "act", "seat": seat, "declare": option}
    raise AssertionError(prompt)


def to_seventh(
    folds: dict[str, set[int]] | None = None, players: int = 8, entered: bool = False
) -> tuple[dict[str, Any], list[Cmd], dict[int, list[str]]]:
    """A stud hand of ``players`` played to seventh street: the bring-in, every other seat
    calling or checking, the seats in ``folds`` folding on the street named; down-cards
    entered when ``entered``. Returns the config, the commands and each seat's cards."""
    folds = folds or {}
    config = stud({n: STACKS[n] for n in range(1, players + 1)}, ante=5)
    cards = _cards(list(range(1, players + 1)))
    start: Cmd = {"type": "start_hand", "up": {str(n): [c[2]] for n, c in cards.items()}}
    if entered:
        start["cards"] = {str(n): c[:2] for n, c in cards.items()}
    commands: list[Cmd] = [start]
    for index, name in ((None, "third"), (3, "fourth"), (4, "fifth"), (5, "sixth")):
        events = play(config, commands)
        if index is not None:
            live = _live(events, players)
            commands.append(street(name, {n: cards[n][index] for n in live}))
        while True:
            events = play(config, commands)
            assert not of_type(events, "error"), of_type(events, "error")
            if events[-1]["type"] != "prompt":
                break
            commands.append(_respond(events[-1], folds, name))
    return config, commands, cards


def _live(events: list[Event], players: int) -> list[int]:
    folded = {e["seat"] for e in of_type(events, "action") if e["action"] == "fold"}
    return [n for n in range(1, players + 1) if n not in folded]


def _seventh_down(events: list[Event], players: int) -> Cmd:
    """Seventh street face down, each live hand a card nobody has been seen to hold."""
    seen = {c for e in of_type(events, "hand_start") for cards in e["up"].values() for c in cards}
    seen |= {
        c for e in of_type(events, "hand_start") for cards in e["cards"].values() for c in cards
    }
    seen |= {c for e in of_type(events, "dealt") for cards in e["up"].values() for c in cards}
    unseen = iter(c for c in DECK if c not in seen)
    return street("seventh", down={n: next(unseen) for n in _live(events, players)})


def _round_end(events: list[Event]) -> Event:
    return last(events, "round_end")


# --- which procedure: the lines the rule draws ---------------------------------------------


@pytest.mark.parametrize(
    ("players", "folds", "stub", "needed", "procedure"),
    [
        # 8 dealt, nobody out: 52 - 48 - 3 = 1 card; 10 needed, fewer than three left: C
        (8, {}, 1, 10, "C"),
        # a fold on fifth street: sixth went to 7 hands, 2 left, 9 needed: still C
        (8, {"fifth": {5}}, 2, 9, "C"),
        # a fold on fourth street: 3 left, 9 needed, 6 with the burns: B
        (8, {"fourth": {5}}, 3, 9, "B"),
        # a fold on third street: 4 left, 9 needed, 7 with the burns: B
        (8, {"third": {5}}, 4, 9, "B"),
        # a fold on fourth and one on fifth: 4 left, 8 needed, 7 with the burns: B
        (8, {"fourth": {5}, "fifth": {6}}, 4, 8, "B"),
        # two folds on fourth street: 5 left, 8 needed, exactly 8 with the burns: A
        (8, {"fourth": {5, 6}}, 5, 8, "A"),
        # a fold on third and one on fourth: 6 left, 8 needed, 9 with the burns: A
        (8, {"third": {5}, "fourth": {6}}, 6, 8, "A"),
        # 7 dealt, nobody out: 7 left, 9 needed, 10 with the burns: A
        (7, {}, 7, 9, "A"),
        # 7 dealt, a fold on sixth street: 7 left, 8 needed: A
        (7, {"sixth": {5}}, 7, 8, "A"),
        # 7 dealt, a fold on fifth street: 8 left, 8 needed: enough
        (7, {"fifth": {5}}, 8, 8, ""),
        # 8 dealt, three folds on third street: 10 left, 7 needed: enough
        (8, {"third": {5, 6, 7}}, 10, 7, ""),
    ],
)
def test_rp_10_h_the_stub_before_seventh_street_decides_the_procedure(
    players: int, folds: dict[str, set[int]], stub: int, needed: int, procedure: str
) -> None:
    config, commands, _ = to_seventh(folds, players)
    events = play(config, commands)
    end = _round_end(events)
    assert end["street"] == "sixth" and end["next"] == "seventh"
    if not procedure:
        assert end["rules"] == [] and "stub" not in end["text"]
        community = error(play(config, [*commands, {**street("seventh"), "cards": ["As"]}]))
        assert community["rule"] == "RP-10-H"
        assert f"the stub has {stub} cards for {needed - 2} hands" in community["message"]
        dealt = last(run_ok(config, [*commands, _seventh_down(events, players)]), "dealt")
        assert dealt["rules"] == [] and dealt["text"] == ""
        return
    assert end["rules"] == ["RP-10-H"]
    said = f"the stub has {stub} card{'' if stub == 1 else 's'} and seventh street needs {needed}"
    assert said in end["text"] and f"(RP-10-H {procedure})" in end["text"]
    if procedure == "A":
        assert "mix it with the three burns, cut, burn and deal each hand its card" in end["text"]
        refused = error(play(config, [*commands, {**street("seventh"), "cards": ["As"]}]))
        assert refused["rule"] == "RP-10-H" and "no community card" in refused["message"]
        dealt = last(run_ok(config, [*commands, _seventh_down(events, players)]), "dealt")
        assert dealt["rules"] == ["RP-10-H"] and "(RP-10-H A)" in dealt["text"]
        assert dealt["board"] == []
        return
    mix = "mix it with the three burns, cut, burn and turn one card up in the middle"
    assert (mix in end["text"]) == (procedure == "C")
    assert ("burn the top card and turn the next one up" in end["text"]) == (procedure == "B")
    refused = error(play(config, [*commands, _seventh_down(events, players)]))
    assert (refused["rule"], refused["code"]) == ("RP-10-H", "community")
    refused = error(play(config, [*commands, {**street("seventh"), "cards": ["As", "Ks"]}]))
    assert refused["code"] == "community"
    dealt = last(run_ok(config, [*commands, {**street("seventh"), "cards": ["As"]}]), "dealt")
    assert dealt["rules"] == ["RP-10-H"] and dealt["board"] == ["As"]
    assert "(RP-10-H D)" in dealt["text"]


def run_ok(config: dict[str, Any], commands: list[Cmd]) -> list[Event]:
    events = play(config, commands)
    assert not of_type(events, "error"), of_type(events, "error")
    return events


# --- D: the community card, who acts first, what every hand plays --------------------------


def _first_on(events: list[Event], name: str) -> int:
    at = max(i for i, e in enumerate(events) if e["type"] == "dealt" and e["street"] == name)
    return next(e["seat"] for e in events[at:] if e["type"] == "prompt")


def test_rp_10_h_d_with_a_community_card_the_first_to_act_on_sixth_acts_first_on_seventh() -> None:
    config, commands, _ = to_seventh()
    # Seat 8's board (four kings) is best on sixth street: it acts first. The community ace
    # of spades changes no board: seat 8 acts first again.
    assert _first_on(play(config, commands), "sixth") == 8
    events = run_ok(config, [*commands, {**street("seventh"), "cards": ["As"]}])
    assert _first_on(events, "seventh") == 8


def _checked_down(
    config: dict[str, Any], commands: list[Cmd], community: str
) -> tuple[list[Event], list[Cmd]]:
    commands = [*commands, {**street("seventh"), "cards": [community]}]
    while (events := run_ok(config, commands))[-1]["type"] == "prompt":
        commands.append({"type": "act", "seat": events[-1]["seat"], "declare": "check"})
    for seat in _live(events, 8):
        commands.append({"type": "show", "seat": seat})
    return run_ok(config, commands), commands


def test_rp_10_h_every_hand_plays_the_community_card_at_the_showdown() -> None:
    """Seat 8's four kings play the community ace of spades as their fifth card, seat 1's four
    deuces too: seat 8 wins, and its hand is named from the seven cards with the community
    one."""
    config, commands, _ = to_seventh(entered=True)
    events, _ = _checked_down(config, commands, "As")
    end = last(events, "hand_end")
    pot = end["pots"][0]
    assert pot["winners"] == [8]
    assert pot["hands"][8].startswith("four of a kind, kings")


def test_rp_10_h_a_community_card_not_entered_leaves_the_award_to_the_dealer() -> None:
    """``??``: a community card turned but not entered. The hands cannot be read: the dealer
    awards the pot, as with any hand whose cards are not all known."""
    config, commands, _ = to_seventh(entered=True)
    events = run_ok(config, [*commands, {**street("seventh"), "cards": ["??"]}])
    assert last(events, "dealt")["board"] == ["??"]
    events, commands = _checked_down(config, commands, "??")
    assert not of_type(events, "hand_end")
    events = run_ok(config, [*commands, {"type": "award", "pot": 0, "winners": [8]}])
    assert last(events, "hand_end")["pots"][0]["winners"] == [8]


def test_rp_10_h_the_community_card_is_public_and_a_duplicate_is_refused() -> None:
    config, commands, cards = to_seventh(entered=True)
    taken = error(play(config, [*commands, {**street("seventh"), "cards": [cards[3][0]]}]))
    assert taken["rule"] == "37-E"
    played = [*commands, {**street("seventh"), "cards": ["As"]}]
    sent = msgspec.json.encode(
        public_events([msgspec.json.encode(e) for e in _typed(config, played)])
    )
    assert b'"board":["As"]' in sent
    for down in (c for seat in cards.values() for c in seat[:2]):
        assert f'"{down}"'.encode() not in sent, down


# --- how many hands stud deals ----------------------------------------------------------------


@pytest.mark.parametrize(("players", "refused"), [(8, False), (9, True)])
def test_stud_deals_at_most_eight_hands(players: int, refused: bool) -> None:
    config = stud({n: 1_000 for n in range(1, players + 1)}, ante=5)
    up = {str(n): [DECK[n * 4]] for n in range(1, players + 1)}
    events = play(config, [{"type": "start_hand", "up": up}])
    assert bool(of_type(events, "error")) == refused
    if refused:
        assert error(events)["code"] == "too_many_hands" and "RP-10-H" in error(events)["message"]
