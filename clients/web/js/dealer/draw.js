// The dealer station in the draw games (2-7 triple draw, 2-7 single draw, badugi; RP-25): the
// seat to draw with one large button per count — "Pat", "1" ... "5" (badugi "4") — each a
// `draw` in one tap; the stub counted, and the short stub's procedure said when the engine
// names it (RP-25 A, B or C); and, optional, "Enter cards…": the discards tapped from the
// hand (when it was entered) and the cards dealt from the card grid.
//
// The cards thrown and dealt are the staff's alone (a display never receives them): on the
// tablet they are seen only while the dealer enters them, in the dialog.

import { capital } from "../format.js";
import { card, h } from "../ui.js";
import { drawName, drawProcedureText, handSize } from "../draw.js";
import { $, send, station } from "./context.js";
import { cardGrid, cardsInPlay, NAMES, SUITS } from "./picker.js";

const label = (code) => code.replace("T", "10");
const spoken = (code) => `${NAMES[code[0]]} of ${SUITS.find(([s]) => s === code[1])[2]}`;

/** The hand of the seat, when every card of it is known (entered at the deal, or drawn with
 * its cards entered). */
function knownHand(v, s) {
  const cards = s?.cards || [];
  return cards.length === handSize(v.game) && !cards.includes("??") ? cards : null;
}

/** The stub less the burn this draw still needs (none once a seat has drawn a card in it): a
 * draw of that many or more is served by RP-25 (A: the stub's last card, B, C). */
function servable(v, s, p) {
  const index = (s?.draws || []).length;
  const burnt = v.seats.some((x) => (x.draws || [])[index] > 0);
  return p.stub - (burnt ? 0 : 1);
}

function record(seat, count, thrown = [], cards = []) {
  const command = { type: "draw", seat, count };
  if (thrown.length) command.thrown = thrown;
  if (cards.length) command.cards = cards;
  return send(command);
}

/** The panel while a seat draws: its counts in one tap each, the stub, "Enter cards…". */
export function drawPanel() {
  const v = station.model.view;
  const p = v.draw_prompt;
  const s = v.seats.find((x) => x.seat === v.to_act);
  if (!p || !s) return h("p", { class: "waiting" }, "Waiting for the draw");
  const most = p.most || handSize(v.game);
  const left = servable(v, s, p);
  const note = v.draw_note;
  const counts = Array.from({ length: most + 1 }, (_, k) =>
    h("button", {
      type: "button",
      class: `big draw-count${k ? "" : " pat"}`,
      dataset: { key: `draw-${k}` },
      "aria-label": k ? `Seat ${s.seat} draws ${k}` : `Seat ${s.seat} stands pat`,
      onclick: () => record(s.seat, k),
    }, k ? String(k) : "Pat"),
  );
  return [
    h(
      "div",
      { class: "prompt-head" },
      h("h2", { id: "to-act" }, `Seat ${s.seat}${s.name ? ` · ${s.name}` : ""} to draw`),
      h("p", { class: "prompt-text" }, `${capital(drawName(p.street))}: stand pat or draw 1 to ${most}`),
    ),
    h("p", { class: "stub-count", id: "stub" }, `Stub: ${p.stub} card${p.stub === 1 ? "" : "s"}`,
      left <= most ? h("span", { class: "stub-warn" }, left > 1 ? ` · a draw of ${left} or more follows RP-25` : " · any draw follows RP-25") : null),
    note ? h("p", { class: "stub-note", id: "draw-note" }, `Seat ${note.seat}: ${drawProcedureText(note.procedure)}`) : null,
    h("div", { class: "prompt-buttons draw-buttons", id: "prompt", role: "group", "aria-labelledby": "to-act" }, counts),
    h("div", { class: "prompt-tools" },
      h("p", { class: "hint" }, "Cards are optional: the count is the draw."),
      h("button", { type: "button", class: "tool", dataset: { key: "draw-cards" }, onclick: () => enterDraw(s, p) }, "Enter cards…")),
  ];
}

/**
 * The draw with its cards: the discards tapped from the hand (when the hand is known), the
 * cards dealt tapped on the grid (as many as the discards; without a known hand, one to
 * `most`). Either may be left out: the count is what the engine needs.
 */
export function enterDraw(s, p) {
  const v = station.model.view;
  const dialog = $("picker");
  const hand = knownHand(v, s);
  const most = p.most || handSize(v.game);
  const inPlay = cardsInPlay();
  const thrown = [];
  const dealt = [];
  const grid = new Map();
  const handButtons = new Map();
  const note = h("p", { class: "picked", id: "picked", "aria-live": "polite" });
  const ok = h("button", { type: "button", class: "big primary", id: "picker-ok" });

  const wanted = () => (hand ? thrown.length : most);
  const count = () => (hand ? thrown.length : dealt.length);
  const valid = () => count() > 0 && (hand ? dealt.length === 0 || dealt.length === thrown.length : true);
  const update = () => {
    for (const [code, button] of handButtons) button.setAttribute("aria-pressed", thrown.includes(code) ? "true" : "false");
    for (const [code, button] of grid) {
      const picked = dealt.includes(code);
      button.setAttribute("aria-pressed", picked ? "true" : "false");
      button.disabled = !picked && (inPlay.has(code) || dealt.length >= wanted());
    }
    const parts = [
      hand ? (thrown.length ? `Thrown: ${thrown.map(label).join(" ")}` : "Tap the discards in the hand") : "",
      dealt.length ? `Dealt: ${dealt.map(label).join(" ")}` : hand && !thrown.length ? "" : "Tap the cards dealt",
    ].filter(Boolean);
    note.textContent = parts.join(" · ");
    ok.textContent = count() ? `Seat ${s.seat} draws ${count()}` : `Seat ${s.seat}: choose the cards`;
    ok.disabled = !valid();
  };
  const handRow = hand
    ? h("div", { class: "draw-hand", role: "group", "aria-label": `Seat ${s.seat}'s hand: tap the discards` },
        h("span", { class: "draw-hand-label" }, "The hand"),
        hand.map((code) => {
          const button = h("button", {
            type: "button",
            class: `pick ${"hd".includes(code[1]) ? "red" : "black"}`,
            dataset: { thrown: code },
            "aria-label": `Throw the ${spoken(code)}`,
            onclick: () => {
              const at = thrown.indexOf(code);
              if (at >= 0) thrown.splice(at, 1);
              else thrown.push(code);
              dealt.length = Math.min(dealt.length, thrown.length);
              update();
            },
          }, card(code));
          handButtons.set(code, button);
          return button;
        }))
    : h("p", { class: "note" }, `Seat ${s.seat}'s hand was not entered: tap the cards dealt (1 to ${most}).`);
  const rows = cardGrid(grid, (code) => {
    const at = dealt.indexOf(code);
    if (at >= 0) dealt.splice(at, 1);
    else if (dealt.length < wanted()) dealt.push(code);
    update();
  }, (code) => `${spoken(code)}${inPlay.has(code) ? ", in play" : ""}`);
  ok.addEventListener("click", () => {
    dialog.close();
    record(s.seat, count(), thrown, dealt);
  });
  $("picker-title").textContent = `Seat ${s.seat}'s ${drawName(p.street)}: the cards`;
  $("picker-body").replaceChildren(handRow, note, h("div", { class: "pick-grid" }, rows), ok);
  update();
  dialog.showModal();
}

/** Between the draws' betting rounds the dealer has nothing to deal: the engine opens the draw
 * itself when a round ends. */
export function drawWaitPanel() {
  return h("p", { class: "waiting" }, "The draw opens when the round's betting ends.");
}
