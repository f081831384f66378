// The irregularities menu: the deal's and the floor's. A misdeal and a fouled deck ask for
// their reason in one tap (they cannot be undone); a four-card flop is its own control, with
// the four cards from the picker (41-A).

import { readCards } from "../format.js";
import { h } from "../ui.js";
import { $, entry, send, station } from "./context.js";
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
  $("irr-stud").hidden = !isStud(v);
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
    case "absent":
    case "exposed_down":
      return markAtTheDeal(kind === "absent" ? "absent" : "exposed", seat, note);
    case "seventh_exposed":
      return seventhExposed(seat, note);
    case "up_cards_taken":
      return upCardsTaken(seat, note);
    default:
      if (seat == null) return note("Choose the seat");
      return done({ type: "irregularity", kind, seat, ...(cards.length ? { cards } : {}) });
  }
}

/** A player away at the deal (32), or in stud a down-card the dealer exposed (RP-10-A): known
 * when the cards are out, entered before the hand is started; the next start sends them. */
function markAtTheDeal(kind, seat, note) {
  const v = station.model.view;
  if (v.phase !== "idle") return note("Only before the hand is started: mark the seat, then start the hand.");
  if (seat == null) return note("Choose the seat");
  if (!v.seats.some((s) => s.seat === seat)) return note(`Seat ${seat} is empty`);
  if (!entry[kind].includes(seat)) entry[kind] = [...entry[kind], seat];
  $("irregular").close();
  $("action").dataset.sig = "";
  station.schedule();
}

/** Stud: the seat's seventh-street card exposed by the dealer (RP-10-B), from the card picker
 * (the card entered for it, if any, chosen already). */
function seventhExposed(seat, note) {
  const v = station.model.view;
  if (seat == null) return note("Choose the seat");
  const s = v.seats.find((x) => x.seat === seat);
  const entered = s?.cards?.length === 3 && s.cards[2] !== "??" ? [s.cards[2]] : [];
  $("irregular").close();
  return pickCards({
    title: `Seat ${seat}'s seventh-street card, exposed (RP-10-B)`,
    count: 1,
    preset: entered,
    okLabel: (cards) => `Exposed${cards.length ? `: ${cards[0].replace("T", "10")}` : ""} — record it`,
    onPick: (cards) => send({ type: "irregularity", kind: "seventh_exposed", seat, cards }, { after: false }),
  });
}

/** Stud: the seat to act took up its up-cards — a dead hand (68), confirmed first. */
function upCardsTaken(seat, note) {
  if (seat == null) return note("Choose the seat");
  $("irregular").close();
  return confirmWith({
    title: `Seat ${seat} took up its up-cards?`,
    text: "Its hand is dead (68): a forced fold, and the action goes on.",
    reasons: [[`Seat ${seat}'s hand is dead (68)`, "dead"]],
    onChoose: () => send({ type: "irregularity", kind: "up_cards_taken", seat }, { after: false }),
  });
}

export function setUpIrregularities() {
  $("irregular-open").addEventListener("click", open);
  // "Floor!": a floor person to the table, for whatever no other control names (1).
  $("floor-call").addEventListener("click", () => send({ type: "call_floor", reason: "the dealer calls the floor" }, { after: false }));
  for (const button of document.querySelectorAll("[data-irr]")) {
    button.addEventListener("click", () => irregular(button.dataset.irr));
  }
}
