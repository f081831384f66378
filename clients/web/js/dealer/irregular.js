// The irregularities menu: the deal's and the floor's. A misdeal and a fouled deck ask for
// their reason in one tap (they cannot be undone); a four-card flop is its own control, with
// the four cards from the picker (41-A).

import { readCards } from "../format.js";
import { h } from "../ui.js";
import { $, send, station } from "./context.js";
import { confirmWith } from "./confirm.js";
import { pickCards } from "./picker.js";
import { isStud } from "../stud.js";
import { startStudHand } from "./stud.js";

const NEXT_STREET = { preflop: "flop", flop: "turn", turn: "river" };
const REASONS = {
  misdeal: [["A card exposed in the deal", "card exposed"], ["Wrong number of cards dealt", "wrong number of cards"], ["Button in the wrong place", "button misplaced"], ["Dealt to an empty seat", "dealt to an empty seat"]],
  fouled_deck: [["Duplicate card", "duplicate card"], ["A card with another back", "card with another back"], ["The deck is short", "deck short"]],
};

function open() {
  const v = station.model?.view;
  if (!v) return;
  $("irr-seat").replaceChildren(
    h("option", { value: "" }, v.to_act != null ? `Seat to act (${v.to_act})` : "No seat"),
    ...v.seats.map((s) => h("option", { value: s.seat }, `Seat ${s.seat}${s.name ? ` · ${s.name}` : ""}`)),
  );
  const next = v.phase === "deal" ? v.next_street : NEXT_STREET[v.street];
  document.querySelector('[data-irr="early"]').textContent = next ? `Cards dealt early (the ${next})` : "Cards dealt early";
  $("irr-note").textContent = "";
  $("irregular").showModal();
}

function done(command) {
  if (!send(command, { after: false })) return;
  $("irr-cards").value = "";
  $("irregular").close();
}

function final(kind) {
  const title = kind === "misdeal" ? "Misdeal?" : "Fouled deck?";
  const text = kind === "misdeal" ? "The hand is dealt again (37). Why?" : "Play stops and every bet goes back: the hand is void (37-E). Why?";
  $("irregular").close();
  // Stud's re-deal needs every hand's up-card again, as at the start of a hand (RP-10, 37).
  const redeal = kind === "misdeal" && isStud(station.model.view);
  confirmWith({ title, text, reasons: REASONS[kind], onChoose: (reason) => (redeal ? startStudHand(0, { misdeal: reason }) : done({ type: kind, reason })) });
}

function irregular(kind) {
  const v = station.model.view;
  const seat = $("irr-seat").value ? Number($("irr-seat").value) : v.to_act;
  const cards = readCards($("irr-cards").value);
  const note = (text) => ($("irr-note").textContent = text);
  if (cards === null) return note("Cards are written like Ah Kd 7c");
  switch (kind) {
    case "misdeal":
    case "fouled_deck":
      return final(kind);
    case "four_flop":
      $("irregular").close();
      return pickCards({ title: "Four-card flop (41-A)", count: 4, okLabel: () => "Four cards turned: call the floor", onPick: (four) => send({ type: "deal", street: "flop", cards: four }, { after: false }) });
    case "no_burn":
      $("irregular").close();
      return pickCards({ title: "Flop not burned (41-B)", count: 3, okLabel: () => "Flop dealt without a burn", onPick: (three) => send({ type: "deal", street: "flop", cards: three, burned: false }, { after: false }) });
    case "early": {
      const street = v.phase === "deal" ? v.next_street : NEXT_STREET[v.street];
      if (!street) return note("There is no street to deal");
      return done({ type: "deal", street, cards });
    }
    case "clock":
      return done({ type: "clock", at: Date.now(), ...($("irr-seat").value ? { seat } : {}) });
    default:
      if (seat == null) return note("Choose the seat");
      return done({ type: "irregularity", kind, seat, ...(cards.length ? { cards } : {}) });
  }
}

export function setUpIrregularities() {
  $("irregular-open").addEventListener("click", open);
  // "Floor!": a floor person to the table, for whatever no other control names (1).
  $("floor-call").addEventListener("click", () => send({ type: "call_floor", reason: "the dealer calls the floor" }, { after: false }));
  for (const button of document.querySelectorAll("[data-irr]")) {
    button.addEventListener("click", () => irregular(button.dataset.irr));
  }
}
