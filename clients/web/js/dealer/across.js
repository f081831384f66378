// What the tournament asks of this table, over the dealer's controls: hand-for-hand ("waiting
// for the other tables" once this table's hand is over, RP-8), the all-in it keeps face down
// (RP-8-F), any other hold with its reason and rule (a move or a break between hands, 12-A,
// 11-B; a table stopped short, 12-D), and the seats that just changed hands — the player who
// left (a move away) and the one who joined (a move here) — until a hand has been played.

import { fmt } from "../format.js";
import { holdsOf, seatChangeText } from "../table-holds.js";
import { h, renderInto, textWithRules } from "../ui.js";
import { $, station } from "./context.js";

function holdText(x) {
  const reason = x.rules?.length ? x.reason.replace(` (${x.rules[0]})`, "") : x.reason;
  if (reason.startsWith("play stopped: ")) return `Play stopped: ${reason.slice(14)}. The floor may waive it.`;
  return `No new hand: ${reason}.`;
}

export function renderAcross() {
  const v = station.model.view;
  const { h4h, others } = holdsOf(v);
  const idle = v.phase === "idle";
  const lines = [];
  if (v.hand_for_hand || h4h) {
    let text = "Hand-for-hand: finish this hand, then wait for the other tables.";
    if (idle && h4h) text = "Hand-for-hand: waiting for the other tables. The next hand starts when every table has finished.";
    else if (idle) text = "Hand-for-hand: deal the next hand now; then wait for the other tables.";
    if (v.cards_held) text = "Hand-for-hand: all-in and call. Keep the cards face down and deal nothing until the floor releases them.";
    lines.push({ kind: "h4h", text, rules: [v.cards_held ? "RP-8-F" : "RP-8"] });
  }
  for (const x of others) lines.push({ kind: x.reason.startsWith("play stopped") ? "stop" : "hold", text: holdText(x), rules: x.rules || [] });
  for (const c of v.seat_changes || []) lines.push({ kind: `seat-${c.kind}`, text: seatChangeText(c, fmt), rules: [], seat: c.seat });
  const panel = $("across-note");
  panel.hidden = !lines.length;
  renderInto(panel, JSON.stringify(lines), () =>
    lines.map((l) => h("p", { class: `across-line ${l.kind}`, dataset: l.seat ? { seat: l.seat, change: l.kind } : {} }, textWithRules(l.text, l.rules))),
  );
}

/** Why the next hand may not start yet ("" when it may). */
export function heldWhy() {
  const v = station.model.view;
  const { h4h, others } = holdsOf(v);
  if (h4h) return "Waiting for the other tables (hand-for-hand)";
  return others.length ? "Held by the tournament" : "";
}
