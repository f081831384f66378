// The showdown hold: when a hand ends the table display keeps its hands, the winner of each
// pot with the hand's name, and who is out on screen until the next hand starts; then, for
// the rest of `hold` seconds after the hand ended, the same lines stay in a strip above the
// next hand's table. Between hands a freshly loaded page shows what a following one shows
// (the model recalls the ended hand from the history).

import { h } from "./ui.js";
import { outText, potText } from "./display-words.js";

export const DEFAULT_HOLD_S = 8;

/** The seconds a result is held into the next hand: the page's `hold`, else the default. */
export function holdSeconds(search = location.search) {
  const value = Number(new URLSearchParams(search).get("hold"));
  return Number.isFinite(value) && value > 0 ? value : DEFAULT_HOLD_S;
}

/**
 * The ended hand to show now: {last, table: true} between hands (drawn on the table),
 * {last, table: false} early in the next hand (the strip), or null; `wake(ms)` is called
 * when the strip's time runs out.
 */
export function heldResult(model, holdMs, now, wake) {
  const last = model.lastHand;
  if (!last) return null;
  const v = model.view;
  if (v.phase === "idle" && v.hand === last.hand) return { last, table: true };
  const left = last.ended + holdMs - now;
  if (left <= 0 || v.hand !== last.hand + 1) return null;
  wake(left);
  return { last, table: false };
}

/** The lines of the result: each pot (side pots first, as they are awarded) and who is out. */
export function resultLines(last, tag = "p") {
  return [
    ...last.pots.map((p) => h(tag, { class: "won" }, potText(p))),
    ...last.busted.map((n) => h(tag, { class: "out-line" }, outText(n, last.names?.[n]))),
  ];
}

/** The seats that won a pot of the ended hand. */
export function winnersOf(last) {
  return new Set(last.pots.flatMap((p) => p.winners));
}
