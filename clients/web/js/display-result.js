// The showdown hold: when a hand ends the table display keeps its hands, the winner of each
// pot with the hand's name, and who is out on screen — between hands, and for at least
// `hold` seconds after the hand ended even when the next hand starts at once.

import { h } from "./ui.js";
import { outText, potText } from "./display-words.js";

export const DEFAULT_HOLD_S = 8;

/** The seconds a result is held: the page's `hold` parameter, else the default. */
export function holdSeconds(search = location.search) {
  const value = Number(new URLSearchParams(search).get("hold"));
  return Number.isFinite(value) && value > 0 ? value : DEFAULT_HOLD_S;
}

/** The ended hand to show now, or null; `wake(ms)` is called when a held result runs out. */
export function heldResult(model, holdMs, now, wake) {
  const last = model.lastHand;
  if (!last) return null;
  const v = model.view;
  if (v.phase === "idle" && v.hand === last.hand) return last;
  const left = last.ended + holdMs - now;
  if (left <= 0) return null;
  wake(left);
  return last;
}

/** The lines of the result: each pot (side pots first, as they are awarded) and who is out. */
export function resultLines(last) {
  const names = new Map(last.seats.map((s) => [s.seat, s.name]));
  return [
    ...last.pots.map((p) => h("p", { class: "won" }, potText(p))),
    ...last.busted.map((n) => h("p", { class: "out-line" }, outText(n, names.get(n)))),
  ];
}

/** The seats that won a pot of the ended hand. */
export function winnersOf(last) {
  return new Set(last.pots.flatMap((p) => p.winners));
}
