"""Real hands, replayed: the engine's stacks at the end of every hand must be the table's.

The hands are the PHH sample in ``../shared/phh`` (Pluribus, WSOP, HandHQ and a few famous
hands; see its MANIFEST.md). Each hand of a variant the engine plays goes through
``server.phh`` and the replay path, and its ``hand_end`` stacks are compared with the file's
``finishing_stacks``. The few hands without them are compared with PokerKit's result (the
PHH format's reference implementation) when the file says enough to settle the pot.
"""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from collections import Counter
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import cast

import msgspec
import pytest
from pokerkit import HandHistory

from protocol import (
    Act,
    Draw,
    DrawPrompt,
    ErrorEvent,
    Event,
    HandEnd,
    HandStart,
    Prompt,
    Scenario,
    Show,
    StartHand,
)
from server import phh
from server.engine import apply, new_table
from server.replay import run_scenario

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO.parent / "shared" / "phh"
DATA = SAMPLE / "data"

if not DATA.is_dir():
    pytest.skip(f"no PHH sample at {SAMPLE} (a sibling of the repo)", allow_module_level=True)

KNOWN_INCONSISTENT = {
    "pluribus/32/23.phh": (
        "the file splits a 1-chip odd chip in halves (10387.5 each); a table gives it whole "
        "to the first winner left of the button (see test_odd_chip_...)"
    ),
    "pluribus/41b/204.phh": (
        "the file splits a 1-chip odd chip in halves (10162.5 each); a table gives it whole "
        "to the first winner left of the button (see test_odd_chip_...)"
    ),
    "wsop/2019/42/3/00-01-07.phh": (
        "the file leaves out the button's (p8) pre-flop fold: after p7 raises, p1 acts while "
        "p8 is still to act (PokerKit repairs it by folding p8; so folded, the engine matches)"
    ),
}
"""Hands whose file cannot be matched by any table, by label, with the reason."""


def _labelled_hands() -> dict[str, phh.Hand]:
    """Every hand of the sample by label: its path under data/, ``#N`` for a bundle's Nth."""
    hands: dict[str, phh.Hand] = {}
    for path in sorted(DATA.rglob("*.phh*")):
        label = path.relative_to(DATA).as_posix()
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".phhs":
            for i, hand in enumerate(phh.parse_phhs(text), 1):
                hands[f"{label}#{i}"] = hand
        else:
            hands[label] = phh.parse_phh(text)
    return hands


def _convert(hands: dict[str, phh.Hand]) -> tuple[dict[str, Scenario], dict[str, str]]:
    """The scenarios of the hands the engine plays, and why it does not play the others."""
    supported: dict[str, Scenario] = {}
    unsupported: dict[str, str] = {}
    for label, hand in hands.items():
        try:
            supported[label] = phh.to_scenario(hand)
        except phh.UnsupportedHand as refused:
            unsupported[label] = str(refused)
    return supported, unsupported


HANDS = _labelled_hands()
SUPPORTED, UNSUPPORTED = _convert(HANDS)


def _hand_end(events: list[Event]) -> HandEnd:
    errors = [e for e in events if isinstance(e, ErrorEvent)]
    assert not errors, f"the engine refused a recorded command: {errors[0]}"
    ends = [e for e in events if isinstance(e, HandEnd)]
    assert len(ends) == 1, f"expected one hand_end, got {len(ends)}"
    return ends[0]


def _hidden_showdown(scenario: Scenario) -> bool:
    """A player tabled cards the file hides (``????``): nobody can tell who won."""
    return any(isinstance(c, Show) and not c.cards for c in scenario.commands)


def _pokerkit_stacks(label: str) -> dict[int, Decimal]:
    """PokerKit's finishing stacks for a hand of the sample, in engine chips."""
    path, _, index = label.partition("#")
    return _pokerkit_result((DATA / path).read_text(encoding="utf-8"), int(index or 0))


def _pokerkit_result(text: str, index: int = 0) -> dict[int, Decimal]:
    """PokerKit's finishing stacks for a hand (``index``: the Nth of a bundle), in engine chips."""
    # Exact cents: PokerKit computes with any number type, though it annotates int.
    exact = cast(Callable[[str], int], Decimal)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PokerKit warns about the data set's metadata fields
        if index:
            history = list(HandHistory.loads_all(text, parse_value=exact))[index - 1]
            hand = phh.parse_phhs(text)[index - 1]
        else:
            history = HandHistory.loads(text, parse_value=exact)
            hand = phh.parse_phh(text)
        *_, state = history
    scale = phh.unit(hand)
    return {seat: Decimal(stack) * scale for seat, stack in enumerate(state.stacks, 1)}


def _params() -> list[object]:
    return [
        pytest.param(label, marks=pytest.mark.xfail(strict=True, reason=KNOWN_INCONSISTENT[label]))
        if label in KNOWN_INCONSISTENT
        else label
        for label in SUPPORTED
    ]


@pytest.mark.parametrize("label", _params())
def test_replay_ends_with_the_tables_stacks(label: str) -> None:
    scenario = SUPPORTED[label]
    hand = HANDS[label]
    events = run_scenario(scenario)
    if _hidden_showdown(scenario) and "finishing_stacks" not in hand:
        assert not any(isinstance(e, ErrorEvent) for e in events)
        pytest.skip(f"{label}: replayed up to a showdown the file does not settle (cards hidden)")
    end = _hand_end(events)
    expected = phh.finishing_stacks(hand) or _pokerkit_stacks(label)
    assert end.stacks == expected
    if "winnings" in hand:
        won = {seat for seat, amount in enumerate(hand["winnings"], 1) if amount > 0}
        assert {seat for pot in end.pots for seat in pot.winners} == won


@pytest.mark.parametrize("label", ["pluribus/32/23.phh", "pluribus/41b/204.phh"])
def test_odd_chip_goes_to_the_first_winner_left_of_the_button(label: str) -> None:
    """Where the file halves an odd chip, the engine must give it whole, left of the button.

    PHH seats the button last, so seat order is clockwise from the button.
    """
    expected = phh.finishing_stacks(HANDS[label])
    assert expected is not None
    first, *others = [seat for seat, stack in expected.items() if stack % 1]
    expected[first] += Decimal("0.5")
    for seat in others:
        expected[seat] -= Decimal("0.5")
    assert _hand_end(run_scenario(SUPPORTED[label])).stacks == expected


def test_most_of_the_sample_is_replayed() -> None:
    by_variant = Counter(HANDS[label]["variant"] for label in SUPPORTED)
    skipped = Counter(UNSUPPORTED.values())
    print(f"replayed by variant: {dict(by_variant)}; total {sum(by_variant.values())}")
    print(f"unsupported: {dict(skipped)}; total {len(UNSUPPORTED)}")
    assert set(by_variant) == set(phh.GAMES)
    assert sum(by_variant.values()) >= 2000


def test_unsupported_hands_are_refused_for_a_reason() -> None:
    results = dict(phh.scenarios_from_file(DATA / "phua-xuan-2019.phh"))
    [refused] = results.values()
    assert isinstance(refused, phh.UnsupportedHand)
    assert "'NS'" in str(refused)


def test_bundle_hands_are_labelled_in_file_order() -> None:
    [bundle] = DATA.rglob("*.phhs")
    results = phh.scenarios_from_file(bundle)
    assert [label for label, _ in results] == [f"{bundle}#{i}" for i in range(1, 22)]
    assert all(isinstance(item, Scenario) for _, item in results)


def test_cli_replays_a_phh_file() -> None:
    """``tablewire replay`` (the console script runs ``server.cli:main``) on a real hand."""
    label = "wsop/2023/43/5/68.phh"  # big blind ante, all-in pre-flop, shown before the board
    run = subprocess.run(
        [sys.executable, "-c", "from server.cli import main; main()", "replay", DATA / label],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    events = [json.loads(line) for line in run.stdout.splitlines()]
    assert events[-1]["type"] == "hand_end"
    expected = phh.finishing_stacks(HANDS[label])
    assert expected is not None
    assert events[-1]["stacks"] == {str(seat): int(stack) for seat, stack in expected.items()}


def test_notation_the_sample_does_not_use() -> None:
    """Cents, commentary, ``sm -`` (show the cards dealt) and a heads-up button."""
    hand = phh.parse_phh(
        """
        variant = 'NT'
        ante_trimming_status = true
        antes = [0, 0]
        blinds_or_straddles = [0.25, 0.50]
        min_bet = 0.50
        starting_stacks = [50, 41.30]
        actions = ['d dh p1 AsKd', 'd dh p2 7h7c # a pair', 'p2 cbr 1.50', 'p1 cc',
                   'd db 7d2c9s', 'p1 cc', 'p2 cc', 'd db Qh', '# nothing happens',
                   'p1 cbr 2', 'p2 cc', 'd db 3s', 'p1 cc', 'p2 cc', 'p1 sm -', 'p2 sm']
        """
    )
    scenario = phh.to_scenario(hand)
    assert (scenario.config.button, scenario.config.blinds) == (2, (25, 50))
    assert scenario.config.seats == {1: 5000, 2: 4130}
    commands = [msgspec.to_builtins(c) for c in scenario.commands]
    acts = [(c["seat"], c["declare"], c.get("amount")) for c in commands if c["type"] == "act"]
    assert acts == [
        (2, "raise", 150), (1, "call", None),
        (1, "check", None), (2, "check", None),
        (1, "raise", 200), (2, "call", None),
        (1, "check", None), (2, "check", None),
    ]  # fmt: skip
    assert commands[-2:] == [
        {"type": "show", "seat": 1, "cards": ["As", "Kd"]},
        {"type": "muck", "seat": 2},
    ]
    assert _hand_end(run_scenario(scenario)).stacks == {1: 5350, 2: 3780}


# --- One posted blind, and no blinds at all ---------------------------------------------------


def test_every_hand_with_one_or_no_blind_is_replayed() -> None:
    """No hand of the sample is refused for its blinds (34: one posted blind; ante-only)."""
    assert not [label for label, why in UNSUPPORTED.items() if "blind" in why]


def test_34_one_posted_blind_is_the_big_blind_with_the_small_blind_dead() -> None:
    """``[250000, 0, 0, 0]``: p1 posts the only blind and p2 acts first, so p1 is the big blind
    and nobody posts the small blind (34). The next hand of the file (77) has p1 on the small
    blind and p4 still on the button, as the engine deals it."""
    label = "wsop/2023/43/5/76.phh"
    scenario = SUPPORTED[label]
    config = scenario.config
    assert (config.blinds, config.dead_small_blind, config.button) == ((0, 250000), True, 4)
    events = run_scenario(scenario)
    [start] = [e for e in events if isinstance(e, HandStart)]
    assert (start.small_blind, start.big_blind) == (None, 1)
    assert [(p.seat, p.kind, p.amount) for p in start.posts] == [(1, "big_blind", 250000)]
    assert next(e for e in events if isinstance(e, Prompt)).seat == 2
    assert _hand_end(events).stacks == phh.finishing_stacks(HANDS[label])
    commands = [*scenario.commands, StartHand()]
    state = new_table(config)
    for command in commands:
        state, _ = apply(state, command)
    after = HANDS["wsop/2023/43/5/77.phh"]
    assert after["players"] == HANDS[label]["players"]  # the same order: the button stayed
    assert (state.button, state.small_blind, state.big_blind) == (4, 1, 2)


def _one_blind_hand(blinds: str, stacks: str, actions: str) -> str:
    """An NT hand with these blinds and no antes; the hole cards are dealt unseen."""
    n = len(blinds.split(","))
    dealt = ", ".join(f"'d dh p{i} ????'" for i in range(1, n + 1))
    return f"""
        variant = 'NT'
        ante_trimming_status = true
        antes = [{", ".join("0" for _ in range(n))}]
        blinds_or_straddles = [{blinds}]
        min_bet = 200
        starting_stacks = [{stacks}]
        actions = [{dealt}, {actions}]
        """


def test_a_small_blind_of_nothing_is_posted_by_nobody_left_of_the_button() -> None:
    """``[0, 200, 0]``: p1 sits on the small blind and posts nothing, p2 the big blind."""
    text = _one_blind_hand(
        "0, 200, 0",
        "5000, 5000, 5000",
        "'p3 cc', 'p1 cc', 'p2 cbr 600', 'p3 f', 'p1 cc', 'd db 7d2h9s', 'p1 cc', "
        "'p2 cbr 800', 'p1 f'",
    )
    scenario = phh.to_scenario(phh.parse_phh(text))
    assert (scenario.config.blinds, scenario.config.dead_small_blind) == ((0, 200), False)
    stacks = _hand_end(run_scenario(scenario)).stacks
    assert stacks == _pokerkit_result(text) == {1: 4400, 2: 5800, 3: 4800}


def test_heads_up_a_small_blind_of_nothing_is_the_buttons() -> None:
    """Heads-up PHH reverses the blinds: ``[0, 200]`` is p1's big blind and the button's (p2)
    small blind of nothing; the button acts first pre-flop (36-C)."""
    text = _one_blind_hand(
        "0, 200", "5000, 5000", "'p2 cc', 'p1 cc', 'd db 7d2h9s', 'p1 cbr 200', 'p2 f'"
    )
    stacks = _hand_end(run_scenario(phh.to_scenario(phh.parse_phh(text)))).stacks
    assert stacks == _pokerkit_result(text) == {1: 5200, 2: 4800}


def test_36_c_heads_up_one_blind_on_the_button_is_refused() -> None:
    """Heads-up ``[200, 0]`` puts the only blind, a big one, on the button: heads-up the
    button is the small blind (36-C)."""
    hand = phh.parse_phh(_one_blind_hand("200, 0", "5000, 5000", "'p1 f'"))
    with pytest.raises(phh.UnsupportedHand, match="36-C"):
        phh.to_scenario(hand)


ANTE_ONLY_NT = """
    variant = 'NT'
    ante_trimming_status = true
    antes = [100, 100, 100]
    blinds_or_straddles = [0, 0, 0]
    min_bet = 200
    starting_stacks = [5000, 3000, 5000]
    actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p1 cc', 'p2 cbr 300', 'p3 f',
               'p1 cbr 900', 'p2 cc', 'd db 7d2h9s', 'p1 cbr 500', 'p2 f']
    """

ANTE_ONLY_FT = """
    variant = 'FT'
    ante_trimming_status = true
    antes = [50, 50, 50]
    blinds_or_straddles = [0, 0, 0]
    small_bet = 200
    big_bet = 400
    starting_stacks = [5000, 5000, 5000]
    actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p1 cbr 200', 'p2 cbr 400',
               'p3 cbr 600', 'p1 cbr 800', 'p2 cc', 'p3 cc', 'd db 7d2h9s', 'p1 cc', 'p2 cc',
               'p3 cbr 200', 'p1 f', 'p2 f']
    """


@pytest.mark.parametrize(
    ("text", "min_bet", "expected"),
    [
        (ANTE_ONLY_NT, 200, {1: 6100, 2: 2000, 3: 4900}),
        (ANTE_ONLY_FT, 200, {1: 4150, 2: 4150, 3: 6700}),
    ],
    ids=["NT", "FT"],
)
def test_an_ante_only_hand_opens_left_of_the_button_at_the_minimum_bet(
    text: str, min_bet: int, expected: dict[int, int]
) -> None:
    """No blinds: p1 (left of the button) acts first; the minimum bet is the file's ``min_bet``
    (the small bet in limit), and in limit the cap counts the opening bet (50)."""
    scenario = phh.to_scenario(phh.parse_phh(text))
    assert (scenario.config.blinds, scenario.config.level.min_bet) == ((0, 0), min_bet)
    events = run_scenario(scenario)
    assert next(e for e in events if isinstance(e, Prompt)).seat == 1
    assert _hand_end(events).stacks == _pokerkit_result(text) == expected


STUD_COUNTS = {"F7S": 13, "F7S/8": 7, "FR": 10}
"""The WSOP 2023 Players' Championship hands of seven-card stud, stud/8 and razz."""


@pytest.mark.parametrize(("variant", "count"), sorted(STUD_COUNTS.items()))
def test_rp_10_every_wsop_stud_hand_is_brought_in_and_acted_in_the_tables_order(
    variant: str, count: int
) -> None:
    """Every seven-card stud, stud/8 and razz hand of the 2023 Players' Championship: the
    engine names the same seat to bring it in (razz: the highest up-card) and to act first on
    each street (RP-10, RP-10-D: razz's lowest board) as the table did, so no recorded action
    is out of turn, and each ends with the file's stacks (stud/8's split pots, 21-B, 21-C)."""
    labels = sorted(label for label in SUPPORTED if HANDS[label]["variant"] == variant)
    assert len(labels) == count, [k for k in UNSUPPORTED if HANDS[k]["variant"] == variant]
    for label in labels:
        scenario = SUPPORTED[label]
        state = new_table(scenario.config)
        prompted: int | None = None
        for command in scenario.commands:
            state, events = apply(state, command)
            if isinstance(command, Act):
                assert command.seat == prompted, f"{label}: {command} but seat {prompted} acts"
            assert not any(isinstance(e, ErrorEvent) for e in events), (label, events)
            prompts = [e for e in events if isinstance(e, Prompt)]
            prompted = prompts[-1].seat if prompts else prompted
        assert _hand_end(run_scenario(scenario)).stacks == phh.finishing_stacks(HANDS[label])


DRAW_COUNTS = {"F2L3D": 8, "N2L1D": 7, "FB": 1}
"""The draw hands of the sample: 2-7 triple draw (seven of the WSOP 2023 Players'
Championship and a 2019 hand), 2-7 single draw (seven of 2023), the Wikipedia badugi hand."""


@pytest.mark.parametrize(("variant", "count"), sorted(DRAW_COUNTS.items()))
def test_rp_25_every_draw_hand_draws_and_acts_in_the_tables_order(variant: str, count: int) -> None:
    """Every 2-7 triple draw, 2-7 single draw and badugi hand of the sample: the engine asks
    the same seat to draw (the first live hand left of the button first, RP-25-D) and to act
    as the table did, so no recorded draw or action is out of turn, and each ends with the
    file's stacks (or PokerKit's where the file gives none)."""
    labels = sorted(label for label in SUPPORTED if HANDS[label]["variant"] == variant)
    assert len(labels) == count, [k for k in UNSUPPORTED if HANDS[k]["variant"] == variant]
    draws = 0
    for label in labels:
        scenario = SUPPORTED[label]
        state = new_table(scenario.config)
        prompted: int | None = None
        for command in scenario.commands:
            state, events = apply(state, command)
            if isinstance(command, Act | Draw):
                assert command.seat == prompted, f"{label}: {command} but seat {prompted} is next"
            draws += isinstance(command, Draw)
            assert not any(isinstance(e, ErrorEvent) for e in events), (label, events)
            prompts = [e for e in events if isinstance(e, Prompt | DrawPrompt)]
            prompted = prompts[-1].seat if prompts else prompted
        expected = phh.finishing_stacks(HANDS[label]) or _pokerkit_stacks(label)
        assert _hand_end(run_scenario(scenario)).stacks == expected
    assert draws >= 2, f"{variant}: {draws} draws in {count} hands"
