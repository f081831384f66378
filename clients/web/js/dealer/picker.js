// The card picker: every card by rank and suit, those already in play disabled; it takes
// exactly the number of cards asked for, never one more (a four-card flop is its own control).

import { h } from "../ui.js";
import { $, station } from "./context.js";

const RANKS = ["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"];
const SUITS = [["s", "♠", "spades", "black"], ["h", "♥", "hearts", "red"], ["d", "♦", "diamonds", "red"], ["c", "♣", "clubs", "black"]];
const NAMES = { A: "Ace", K: "King", Q: "Queen", J: "Jack", T: "Ten", 9: "Nine", 8: "Eight", 7: "Seven", 6: "Six", 5: "Five", 4: "Four", 3: "Three", 2: "Two" };

/** The cards the station knows are out: the board, every hole card entered and stud's
 * up-cards (a folded hand's too: they are dead), and the draw games' discards entered (in the
 * muck until RP-25-C shuffles it back, 37-E). */
export function cardsInPlay() {
  const v = station.model.view;
  return new Set([...v.board, ...(v.muck || []), ...v.seats.flatMap((s) => [...(s.cards || []), ...(s.up || [])])]);
}

export { NAMES, RANKS, SUITS };

/**
 * The 52 cards as four rows of buttons, one row a suit: ``onTap(code)`` on a tap, ``label(code,
 * suit)`` (optional) a card's accessible name; each button is kept in ``buttons`` by its code,
 * for the caller to mark chosen, taken or in play. Every picker of the dealer station uses it.
 */
export function cardGrid(buttons, onTap, label = null) {
  return SUITS.map(([suit, symbol, name, colour]) =>
    h("div", { class: "pick-row", role: "group", "aria-label": name },
      RANKS.map((rank) => {
        const code = rank + suit;
        const button = h("button", {
          type: "button",
          class: `pick ${colour}`,
          dataset: { card: code },
          ...(label ? { "aria-label": label(code, name) } : {}),
          onclick: () => onTap(code),
        }, rank === "T" ? "10" : rank, h("span", { class: "suit", "aria-hidden": "true" }, symbol));
        buttons.set(code, button);
        return button;
      })),
  );
}

/** Pick `count` cards; `okLabel(cards)` names the button that sends them to `onPick`.
 * `preset`: cards already known to be among them (chosen from the start, though in play). */
export function pickCards({ title, count, okLabel, onPick, preset = [] }) {
  const dialog = $("picker");
  const inPlay = cardsInPlay();
  const chosen = [...preset];
  const ok = h("button", { type: "button", class: "big primary", id: "picker-ok" });
  const list = h("p", { class: "picked", id: "picked", "aria-live": "polite" });
  const buttons = new Map();
  const update = () => {
    list.textContent = chosen.length ? `Chosen: ${chosen.map((c) => c.replace("T", "10")).join(" ")}` : `Tap ${count} card${count > 1 ? "s" : ""}`;
    for (const [code, button] of buttons) {
      const picked = chosen.includes(code);
      button.setAttribute("aria-pressed", picked ? "true" : "false");
      button.disabled = (inPlay.has(code) && !preset.includes(code)) || (!picked && chosen.length >= count);
    }
    ok.textContent = okLabel(chosen);
    ok.disabled = chosen.length !== count;
  };
  const rows = cardGrid(buttons, (code) => {
    const at = chosen.indexOf(code);
    if (at >= 0) chosen.splice(at, 1);
    else if (chosen.length < count) chosen.push(code);
    update();
  }, (code, suit) => `${NAMES[code[0]]} of ${suit}${inPlay.has(code) ? ", in play" : ""}`);
  ok.addEventListener("click", () => {
    dialog.close();
    onPick([...chosen]);
  });
  $("picker-title").textContent = title;
  $("picker-body").replaceChildren(list, h("div", { class: "pick-grid" }, rows), ok);
  update();
  dialog.showModal();
}
