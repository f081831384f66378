"""What the stations say (issue 11): every event of every engine test hand, worded by the web
stations' own formatting code (``clients/web/js/format.js`` under Node), reads as plain words.

The corpus is every scenario the engine's tests play through ``tests.support.play`` (recorded
by ``tests.test_table_view.corpus``). Each event is worded by ``describe`` — the log line the
dealer, floor and display show — with the rule numbers the line does not cite itself after it,
as the stations draw them; each recorded command is worded by ``recordedText`` (what the floor
call and the correction preview say was pushed and said), and each floor call by
``callContext``. No line may contain "pot 0", "seat 0", "forfeiting 0", a raw list
(``[...]``), "undefined", "null", "NaN", or a word twice in a row; and every rule number any
event cites has a line in the glossary (``clients/web/js/rules.js``).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.support import play
from tests.test_seed_common import act, table
from tests.test_table_view import corpus

ROOT = Path(__file__).resolve().parents[1]
NODE = shutil.which("node")

WORDING = r"""
import { readFileSync } from "node:fs";
import { describe, recordedText, callContext } from "./format.js";
import { ruleLine } from "./rules.js";
const BAD = [
  [/\bpot 0\b/i, "pot 0"], [/\bseat 0\b/i, "seat 0"], [/forfeiting 0\b/i, "forfeiting 0"],
  [/\[[^\]]*\]/, "a raw list"], [/\bundefined\b/, "undefined"], [/\bnull\b/, "null"],
  [/\bNaN\b/, "NaN"], [/\b(\w+)\s+\1\b/i, "a word twice"], [/\[object /, "an object"],
];
const lines = new Map();
const missing = new Set();
const events = readFileSync(process.argv[2], "utf8").split("\n").filter(Boolean).map(JSON.parse);
for (const event of events) {
  const texts = [];
  const line = describe(event);
  if (line) texts.push([line.text, ...line.rules.filter((r) => !line.text.includes(r))].join(" "));
  if (event.type === "recorded") texts.push(recordedText(event.command));
  const seat = { name: "Ana", stack: 1200, bet: 200 };
  if (event.type === "floor_call") texts.push(...callContext(event, seat, 1200));
  for (const r of line?.rules ?? []) if (!ruleLine(r)) missing.add(r);
  for (const text of texts) if (!lines.has(text)) lines.set(text, event.type);
}
const bad = [];
for (const [text, type] of lines) {
  if (typeof text !== "string" || !text.trim()) {
    bad.push({ type, text, why: "empty" });
    continue;
  }
  for (const [pattern, why] of BAD) if (pattern.test(text)) bad.push({ type, text, why });
}
const found = { events: events.length, lines: lines.size, bad, missing: [...missing] };
console.log(JSON.stringify(found));
"""


FOUR = table({1: 20_000, 2: 20_000, 3: 20_000, 4: 20_000}, button=1, blinds=(100, 200))
WORST: list[tuple[dict[str, Any], list[dict[str, Any]]]] = [
    # The big blind under-calls a raise multi-way with only its blind at risk: the engine's
    # text offers "a fold forfeiting 0".
    (
        FOUR,
        [
            {"type": "start_hand"},
            act(4, "raise", 1_200),
            act(1, "call"),
            act(2, "fold"),
            act(3, chips=[500]),
        ],
    ),
    # A correction voids chips pushed: the engine lists them raw ("chips [1,000, 100, 100]").
    (
        FOUR,
        [
            {"type": "start_hand"},
            act(4, chips=[1000, 100, 100]),
            {"type": "correction", "count": 1, "reason": "wrong seat", "by": "floor"},
        ],
    ),
]
"""Hands that make the engine's own texts say what a station must not: they are in the walk."""


def corpus_events() -> list[dict[str, Any]]:
    seen: dict[str, dict[str, Any]] = {}
    for config, commands in [*corpus(), *WORST]:
        for event in play(config, commands):
            seen.setdefault(json.dumps(event, sort_keys=True), event)
    return list(seen.values())


@pytest.mark.skipif(NODE is None, reason="Node.js is not installed (apt-get install nodejs)")
def test_every_event_of_every_test_hand_reads_as_plain_words(tmp_path: Path) -> None:
    assert NODE is not None
    events = corpus_events()
    assert len(events) > 1_000
    kinds = {e["type"] for e in events}
    assert {"floor_call", "ruling", "award", "correction", "penalty", "error"} <= kinds
    raw = [e.get("text", "") for e in events]
    assert any("forfeiting 0" in t for t in raw) and any("[1,000, 100, 100]" in t for t in raw)
    assert any(e["type"] == "award" and e["pot"] == 0 for e in events)
    js = tmp_path / "js"
    shutil.copytree(ROOT / "clients" / "web" / "js", js)
    (js / "package.json").write_text('{"type": "module"}')
    (js / "wording.js").write_text(WORDING)
    feed = tmp_path / "events.jsonl"
    feed.write_text("\n".join(json.dumps(e) for e in events))
    done = subprocess.run(
        [NODE, str(js / "wording.js"), str(feed)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    print(f"\n{result['events']} events, {result['lines']} distinct lines worded")
    assert result["lines"] > 500
    assert result["missing"] == [], f"rule numbers without a glossary line: {result['missing']}"
    assert result["bad"] == [], "\n".join(f"{b['why']}: {b['text']!r}" for b in result["bad"][:40])
