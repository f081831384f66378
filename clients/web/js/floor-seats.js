// The selected stud table's seats on the floor monitor (RP-10): each hand as it lies — the
// up-cards face up in the order they were dealt, the down-cards as backs until the hand is
// shown or turned up all-in — with who brings it in, who is to act and seventh street's
// community card (RP-10-H). The floor sees every card the dealer entered; like the dealer's
// tablet, this screen shows a down-card face up only once the rules exposed it.

import { cardsLabel, fmt } from "./format.js";
import { card, cardBack, h, renderInto, seatState, studCards } from "./ui.js";
import { isStud, owesBringIn } from "./stud.js";
import { drawsText, handSize, isDraw, streetNow } from "./draw.js";
import { fitText } from "./display-words.js";

/** The down-cards drawn face up: those of a hand shown (14-A) or turned up all-in (17). */
function exposedDown(v, s) {
  return s.shown || s.exposed || (v.exposed && s.in_hand) ? s.cards : [];
}

function seatRow(m, s) {
  const v = m.view;
  const owes = owesBringIn(m.prompt) === s.seat && v.to_act === s.seat;
  const flags = [];
  if (v.to_act === s.seat) flags.push(owes ? `To bring in ${fmt(m.prompt.bring_in)}` : v.phase === "draw" ? "To draw" : "To act");
  if (v.bring_in_seat === s.seat && v.street === "third") flags.push("Bring-in");
  const state = seatState(v, s);
  if (state) flags.push(state);
  if (isDraw(v)) return drawRow(m, s, flags);
  const live = v.phase !== "idle" && (s.in_hand || s.shown) && s.up.length;
  return h(
    "li",
    { class: `seat-row${v.to_act === s.seat ? " to-act" : ""}${s.in_hand || v.phase === "idle" ? "" : " out"}`, dataset: { seat: s.seat } },
    h("span", { class: "seat-head" }, h("span", { class: "seat-no" }, `${s.seat}`), h("span", { class: "name", dataset: { full: s.name || `Seat ${s.seat}` } })),
    h("span", { class: "seat-line" }, h("span", { class: "stack" }, fmt(s.stack)), h("span", { class: "seat-flags" }, flags.join(" · "))),
    live ? studCards(v, s, exposedDown(v, s), "small") : h("span", { class: "stud-hand" }),
  );
}

/** A draw game's seat: its hand as backs (five, badugi four) until shown or turned up, and
 * its draws this hand ("drew 2 · pat · drew 1"). */
function drawRow(m, s, flags) {
  const v = m.view;
  const live = v.phase !== "idle" && (s.in_hand || s.shown);
  const faces = exposedDown(v, s).filter((c) => c !== "??");
  const n = handSize(v.game);
  const hand = live
    ? h("span", { class: "stud-hand draw-hand", role: "img", "aria-label": faces.length ? cardsLabel(faces) : `${n} cards face down`, dataset: { cards: n } },
        faces.length ? faces.map((c) => card(c, "small")) : Array.from({ length: n }, () => cardBack("small")))
    : h("span", { class: "stud-hand draw-hand" });
  return h(
    "li",
    { class: `seat-row${v.to_act === s.seat ? " to-act" : ""}${s.in_hand || v.phase === "idle" ? "" : " out"}`, dataset: { seat: s.seat } },
    h("span", { class: "seat-head" }, h("span", { class: "seat-no" }, `${s.seat}`), h("span", { class: "name", dataset: { full: s.name || `Seat ${s.seat}` } })),
    h("span", { class: "seat-line" }, h("span", { class: "stack" }, fmt(s.stack)), h("span", { class: "seat-flags" }, flags.join(" · "))),
    h("span", { class: "hand-line" }, hand, live && s.draws?.length ? h("span", { class: "draws" }, drawsText(s.draws)) : null),
  );
}

/** Draw the stud or draw game seats of table model `m` into `container` (hidden for other
 * games). */
export function renderSeats(container, m) {
  const v = m?.view;
  const show = Boolean(v && (isStud(v) || isDraw(v)));
  container.hidden = !show;
  if (!show) {
    container.replaceChildren();
    container.dataset.sig = "";
    return;
  }
  const sig = JSON.stringify([m.table, v.game, v.hand, v.street, v.phase, v.to_act, v.bring_in_seat, v.exposed, v.board, v.draw_prompt, m.prompt?.seat, m.prompt?.bring_in, v.seats.map((s) => [s.seat, s.name, s.stack, s.up, s.cards, s.in_hand, s.shown, s.folded, s.all_in, s.draws])]);
  const drawn = renderInto(container, sig, () => [
    h("h2", { id: "seats-title" }, `Table ${m.table}`, h("span", { class: "hint" }, v.hand ? ` Hand ${v.hand} · ${streetNow(v)}` : " seats")),
    h("ol", { class: "seat-rows", "aria-label": `Table ${m.table}'s seats` }, v.seats.map((s) => seatRow(m, s))),
    v.board.length && v.phase !== "idle"
      ? h("p", { class: "community", role: "group", "aria-label": `Community card: ${cardsLabel(v.board)}` }, h("span", {}, "Community card "), v.board.map((c) => card(c, "small")))
      : null,
  ]);
  // Names are shortened to their box in the text itself (the whole name in its title).
  if (drawn) for (const el of container.querySelectorAll(".seat-row .name")) fitText(el, el.dataset.full);
}
