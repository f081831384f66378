// The dealer station in seven-card stud, stud/8 and razz (RP-10): the street picker that takes
// one card a hand and moves on to the next seat by itself — the third street's up-cards (and,
// when the dealer has them, each seat's two down-cards), fourth to sixth street's up-cards of
// the hands still in, seventh street's down-cards — the seventh street of a short stub (a card
// each face down, or one community card, RP-10-H), the bring-in prompt's words and a stud
// hand shown at the showdown.
//
// Down-cards are entered like the flop games' hole cards are kept: never written face up on
// the tablet. A slot shows a card back for each one entered; on the card grid it is taken like
// every card in play.

import { fmt } from "../format.js";
import { card, cardBack, h } from "../ui.js";
import { communityCard, dealtNext, downCount, procedureText } from "../stud.js";
import { $, atTheDeal, entry, send, station } from "./context.js";
import { cardGrid, cardsInPlay, NAMES, pickCards, SUITS } from "./picker.js";

const label = (code) => code.replace("T", "10");

/**
 * The street picker. `seats`: the hands dealt to, in the order they are dealt (seat 1 first);
 * `up`: each takes an up-card; `down`: the down-cards each takes (0, 1 or 2); `downOptional`:
 * the dealer may switch the down-cards on and off (third street). A card tapped goes to the
 * seat the picker is on, which then moves to the next card still to enter; a seat tapped is
 * entered again. `fresh`: a new deck (a misdeal's re-deal), no card in play. `onPick({up,
 * down})` gets {seat: [cards]}.
 */
export function studPicker({ title, seats, up = true, down = 0, downOptional = false, fresh = false, okLabel, onPick }) {
  const dialog = $("picker");
  const inPlay = fresh ? new Set() : cardsInPlay();
  let downs = downOptional ? 0 : down;
  const slots = seats.map((seat) => ({ seat, up: null, down: [] }));
  let at = 0; // the slot the next card goes to
  const buttons = new Map();
  const strip = h("div", { class: "stud-slots", role: "group", "aria-label": "Seats" });
  const note = h("p", { class: "picked", id: "picked", "aria-live": "polite" });
  const ok = h("button", { type: "button", class: "big primary", id: "picker-ok" });
  const toggle = downOptional
    ? h("button", { type: "button", class: "toggle downs", id: "picker-downs", "aria-pressed": "false" }, "Down-cards too")
    : null;

  const needs = (slot) => (up && !slot.up ? 1 : 0) + Math.max(0, downs - slot.down.length);
  const missing = () => slots.reduce((n, slot) => n + needs(slot), 0);
  const owner = (code) => slots.find((slot) => slot.up === code || slot.down.includes(code));
  const next = () => {
    // The first slot from the current one (round the table) that still needs a card.
    for (let k = 0; k < slots.length; k += 1) {
      const i = (at + k) % slots.length;
      if (needs(slots[i])) return i;
    }
    return at;
  };

  const place = (code) => {
    const slot = slots[at];
    if (up && !slot.up) slot.up = code;
    else if (slot.down.length < downs) slot.down.push(code);
    else return;
    at = next();
  };
  const take = (slot, code) => {
    if (slot.up === code) slot.up = null;
    else slot.down = slot.down.filter((c) => c !== code);
    at = slots.indexOf(slot);
  };

  const update = () => {
    strip.replaceChildren(
      ...slots.map((slot, i) => {
        const words = [
          up ? (slot.up ? `up-card ${NAMES[slot.up[0]]} of ${SUITS.find(([s]) => s === slot.up[1])[2]}` : "up-card to enter") : "",
          downs ? `${slot.down.length} of ${downs} down-card${downs > 1 ? "s" : ""} entered` : "",
        ].filter(Boolean).join(", ");
        return h(
          "button",
          {
            type: "button",
            class: `slot${i === at && missing() ? " current" : ""}${needs(slot) ? "" : " done"}`,
            "aria-current": i === at && missing() ? "true" : "false",
            "aria-label": `Seat ${slot.seat}: ${words}. Tap to enter again`,
            dataset: { slot: slot.seat },
            onclick: () => {
              Object.assign(slot, { up: null, down: [] });
              at = i;
              update();
            },
          },
          h("span", { class: "slot-seat" }, `Seat ${slot.seat}`),
          h(
            "span",
            { class: "slot-cards" },
            up ? (slot.up ? card(slot.up, "small") : h("span", { class: "card small empty-card" }, "?")) : null,
            Array.from({ length: downs }, (_, k) => (slot.down[k] ? cardBack("small") : h("span", { class: "card small empty-card down" }, "?"))),
          ),
        );
      }),
    );
    for (const [code, button] of buttons) {
      const mine = owner(code);
      const asDown = Boolean(mine && mine.up !== code);
      button.setAttribute("aria-pressed", mine ? "true" : "false");
      button.classList.toggle("taken-down", asDown);
      button.disabled = !mine && (inPlay.has(code) || !missing());
      const where = mine ? (asDown ? ", entered as a down-card" : `, seat ${mine.seat}'s up-card`) : inPlay.has(code) ? ", in play" : "";
      button.setAttribute("aria-label", `${NAMES[code[0]]} of ${SUITS.find(([s]) => s === code[1])[2]}${where}`);
    }
    const left = missing();
    const slot = slots[at];
    const part = up && !slot.up ? "up-card" : "down-card";
    note.textContent = left ? `Seat ${slot.seat}: tap its ${part} · ${left} card${left > 1 ? "s" : ""} to go` : "Every card entered";
    ok.textContent = okLabel(slots);
    ok.disabled = left > 0;
    toggle?.setAttribute("aria-pressed", downs ? "true" : "false");
  };

  const rows = cardGrid(buttons, (code) => {
    const mine = owner(code);
    if (mine) take(mine, code);
    else place(code);
    update();
  });
  toggle?.addEventListener("click", () => {
    downs = downs ? 0 : down;
    if (!downs) for (const slot of slots) slot.down = [];
    at = next();
    update();
  });
  ok.addEventListener("click", () => {
    dialog.close();
    const given = (pick) => Object.fromEntries(slots.filter((slot) => pick(slot).length).map((slot) => [slot.seat, pick(slot)]));
    onPick({ up: up ? given((slot) => [slot.up]) : {}, down: given((slot) => slot.down) });
  });
  $("picker-title").textContent = title;
  $("picker-body").replaceChildren(strip, note, h("div", { class: "pick-grid" }, rows), h("div", { class: "picker-foot" }, toggle, ok));
  update();
  dialog.showModal();
}

/** Start a stud hand: the third street's up-cards, and the down-cards if the dealer has them. */
export function startStudHand(hand, { misdeal = null } = {}) {
  const v = station.model.view;
  // A down-card exposed at the deal is that seat's up-card (RP-10-A): the picker says so.
  const exposed = misdeal ? [] : entry.exposed;
  studPicker({
    title: misdeal ? "Misdeal: the re-deal's third street" : `Hand ${hand}: third street${exposed.length ? ` (seat ${exposed.join(", ")}: the exposed card is the up-card, RP-10-A)` : ""}`,
    // A re-deal deals the hand's seats again (37-C), whatever their antes left them.
    seats: misdeal ? v.seats.filter((s) => s.dealt).map((s) => s.seat) : dealtNext(v),
    down: 2,
    downOptional: true,
    fresh: Boolean(misdeal),
    okLabel: () => (misdeal ? "Re-deal third street" : "Deal third street"),
    onPick: ({ up, down }) => {
      const command = misdeal ? { type: "misdeal", reason: misdeal, up } : { type: "start_hand", up, ...atTheDeal() };
      if (Object.keys(down).length) command.cards = down;
      send(command, misdeal ? { after: false } : undefined);
    },
  });
}

/** The hands still in, in the order they are dealt. */
function live() {
  return station.model.view.seats.filter((s) => s.in_hand).map((s) => s.seat);
}

function streetPicker(street) {
  studPicker({
    title: `${capitalised(street)} street: one up-card a hand`,
    seats: live(),
    okLabel: () => `Deal ${street} street`,
    onPick: ({ up }) => send({ type: "deal", street, up }),
  });
}

function capitalised(word) {
  return word[0].toUpperCase() + word.slice(1);
}

/** Deal the next stud street: fourth to sixth by their up-cards, seventh face down (or the
 * community card of a short stub, RP-10-H). */
export function studDealPanel() {
  const v = station.model.view;
  const street = v.next_street;
  if (street !== "seventh") {
    return h(
      "div",
      { class: "deal" },
      h("h2", {}, `Deal ${street} street`),
      h("p", { class: "note" }, `One up-card to each hand still in: seat${live().length > 1 ? "s" : ""} ${live().join(", ")}. The best board acts first (RP-10-D).`),
      h("button", { type: "button", class: "big primary", dataset: { key: "pick" }, onclick: () => streetPicker(street) }, `Choose the ${street} street up-cards`),
    );
  }
  if (communityCard(v)) {
    return h(
      "div",
      { class: "deal" },
      h("h2", {}, "Seventh street: one community card"),
      h("p", { class: "stub-note" }, procedureText(v.seventh)),
      h("button", {
        type: "button",
        class: "big primary",
        dataset: { key: "pick" },
        onclick: () => pickCards({
          title: "Seventh street: the community card",
          count: 1,
          okLabel: (cards) => `Turn the community card${cards.length ? `: ${label(cards[0])}` : ""}`,
          onPick: (cards) => send({ type: "deal", street: "seventh", cards }),
        }),
      }, "Choose the community card"),
      h("button", { type: "button", dataset: { key: "deal" }, onclick: () => send({ type: "deal", street: "seventh", cards: ["??"] }) }, "Turn it without entering the card"),
    );
  }
  return h(
    "div",
    { class: "deal" },
    h("h2", {}, "Deal seventh street"),
    v.seventh ? h("p", { class: "stub-note" }, procedureText(v.seventh)) : h("p", { class: "note" }, "One card face down to each hand still in."),
    h("button", { type: "button", class: "big primary", dataset: { key: "deal" }, onclick: () => send({ type: "deal", street: "seventh" }) }, "Deal seventh street face down"),
    h("button", {
      type: "button",
      dataset: { key: "pick" },
      onclick: () => studPicker({
        title: "Seventh street: the down-cards",
        seats: live(),
        up: false,
        down: 1,
        okLabel: () => "Deal seventh street with these down-cards",
        onPick: ({ down }) => send({ type: "deal", street: "seventh", down }),
      }),
    }, "Enter the down-cards…"),
  );
}

/** A stud hand tabled: as dealt when every down-card was entered, else its down-cards from the
 * picker (those entered already chosen). */
export function showStud(s) {
  const v = station.model.view;
  const known = (s.cards || []).filter((c) => c !== "??");
  const held = downCount(v, s);
  if (known.length >= held) return send({ type: "show", seat: s.seat });
  return pickCards({
    title: `Seat ${s.seat} shows: its ${held} down-cards`,
    count: held,
    preset: known,
    okLabel: () => `Show seat ${s.seat}`,
    onPick: (cards) => send({ type: "show", seat: s.seat, cards }),
  });
}

/** The words of the bring-in prompt's buttons. */
export function bringInLabel(option, p) {
  if (option === "bring_in") return `Bring in ${fmt(p.bring_in)}`;
  if (option === "complete") return `Complete to ${fmt(p.min_raise_to)}`;
  return "";
}
