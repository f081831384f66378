// The table on the dealer's tablet, which the players can see: hole cards stay face down
// unless the rules expose them or the dealer presses and holds a seat's "Hold to see"; a
// tap on a live seat records an action out of turn from it; pending out-of-turn actions
// and the dead button are drawn.

import { words } from "../format.js";
import { h, renderTable, seatPosition } from "../ui.js";
import { isStud } from "../stud.js";
import { handSize, isDraw } from "../draw.js";
import { entry, station } from "./context.js";

const HOLD_MS = 600;
let revealed = null; // the seat whose cards are shown while the dealer holds it
let holding = 0;
let held = false; // the press was a hold: the click that ends it is not a tap

function faceUp(v, s) {
  return s.shown || s.exposed || v.exposed;
}

function hide() {
  clearTimeout(holding);
  if (revealed == null) return;
  revealed = null;
  station.schedule();
}
window.addEventListener("pointerup", hide);
window.addEventListener("pointercancel", hide);
window.addEventListener("blur", hide);

function hold(n) {
  clearTimeout(holding);
  held = false;
  holding = setTimeout(() => {
    held = true;
    revealed = n;
    station.schedule();
  }, HOLD_MS);
}

/** The name as the tablet shows it: the first name, the whole one is in the seat's label. */
function shortName(name) {
  const first = name.split(/\s+/)[0] || "";
  return first.length > 9 ? `${first.slice(0, 8)}.` : first;
}

export function renderOval(container, onSeat) {
  const model = station.model;
  const v = model.view;
  // Stud: the up-cards in a row, the down-cards in the row under them, face down.
  renderTable(container, model, { cards: (s) => (faceUp(v, s) || revealed === s.seat ? s.cards : []), rows: true });
  // Bets sit nearer the middle than the shared table puts them: clear of the seats' markers.
  const places = Number(container.dataset.places) || 10;
  for (const bet of container.classList.contains("eight") ? [] : container.querySelectorAll(".bet[data-seat]")) {
    const at = seatPosition(Number(bet.dataset.seat), { x: 23, y: 25 }, places);
    Object.assign(bet.style, { left: `${at.x}%`, top: `${at.y}%` });
  }
  const pending = new Map((v.out_of_turn || []).map((p) => [p.seat, p]));
  for (const el of container.querySelectorAll(".seat[data-seat]:not(.empty)")) {
    const n = Number(el.dataset.seat);
    const s = v.seats.find((x) => x.seat === n);
    if (!s) continue;
    const name = el.querySelector(".name");
    if (name && s.name) name.textContent = shortName(s.name);
    const hidden = s.in_hand && s.cards.length && !faceUp(v, s) && revealed !== n;
    // Stud's down-cards are already drawn face down among its up-cards (ui.js studCards).
    if (hidden && isStud(v)) {
      if (s.cards.some((c) => c !== "??")) el.querySelector(".down-row")?.append(h("span", { class: "hold-hint", "aria-hidden": "true" }, "hold to see"));
    } else if (hidden && isDraw(v)) {
      // A draw game's hand entered: five backs (badugi four), press and hold to see.
      const backs = h("div", { class: "hole backs", "aria-hidden": "true" }, Array.from({ length: handSize(v.game) }, () => h("span", { class: "back" })));
      const draws = el.querySelector(".draws");
      if (draws) draws.before(backs);
      else el.append(backs);
    } else if (hidden) el.append(h("div", { class: "hole backs", "aria-hidden": "true" }, s.cards.map(() => h("span", { class: "back" })), "hold to see"));
    if (revealed === n) el.classList.add("revealed");
    const oot = pending.get(n);
    if (oot) {
      el.classList.add("pending-oot");
      el.append(h("div", { class: "oot-flag" }, `Out of turn: ${words(oot.act?.declare || "chips")}`));
    }
    if (entry.from === n) el.classList.add("chosen");
    const tappable = v.phase === "betting" && s.in_hand && !s.all_in;
    if (!tappable && !hidden) continue;
    el.tabIndex = 0;
    const does = [hidden ? "press and hold to see the cards" : "", tappable && n !== v.to_act ? "tap to record an action out of turn" : ""].filter(Boolean);
    if (does.length) el.setAttribute("aria-description", does.join("; "));
    el.classList.toggle("tappable", tappable);
    el.addEventListener("pointerdown", () => s.cards.length && hold(n));
    el.addEventListener("contextmenu", (e) => e.preventDefault());
    el.addEventListener("click", () => {
      clearTimeout(holding);
      if (!held && tappable) onSeat(n);
      held = false;
    });
    el.addEventListener("keydown", (e) => {
      if (e.target !== el || e.repeat) return;
      if (e.key === " " && s.cards.length) {
        e.preventDefault();
        hold(n);
      } else if (e.key === "Enter" && tappable) {
        onSeat(n);
      }
    });
    el.addEventListener("keyup", (e) => e.key === " " && hide());
  }
}
