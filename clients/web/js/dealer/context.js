// What the dealer station's modules share: the feed and table model, what the dealer is
// entering (kept across re-renders), sending a command and the alert line.

import { showAlert } from "../ui.js";

export const $ = (id) => document.getElementById(id);

export const station = { model: null, feed: null, schedule: () => {} };

export const entry = {
  chips: [],
  times: 1, // the chip multiplier: the next chip tapped counts this many times
  declare: "",
  amount: "",
  first: "together",
  prior: "left",
  from: null, // null = the seat to act; else the seat an out-of-turn action came from
  raiseTo: null,
  promptKey: "",
  hand: null,
  winners: {},
  // Irregularities at the deal, marked before the hand is started: the seats away (32) and,
  // in stud, those whose down-card the dealer exposed (RP-10-A). The next start sends them.
  absent: [],
  exposed: [],
};

/** The fields of the next `start_hand` for the seats marked at the deal; the marks are spent. */
export function atTheDeal() {
  const fields = {};
  if (entry.absent.length) fields.absent = [...entry.absent].sort((a, b) => a - b);
  if (entry.exposed.length) fields.exposed = [...entry.exposed].sort((a, b) => a - b);
  entry.absent = [];
  entry.exposed = [];
  return fields;
}

export const OFFLINE = "Offline: not recorded. Reconnecting — record it again once online.";

export function alert(message, rule) {
  showAlert($("alert"), message, rule);
}

export function send(command, { after = true } = {}) {
  const { model, feed } = station;
  if (!model) return null;
  const id = feed.send(model.table, command, { after });
  alert(id ? "" : OFFLINE);
  return id;
}

const FRESH = { chips: [], times: 1, declare: "", amount: "", first: "together", prior: "left", from: null };
// The entry the last action was recorded from, until the server answers it.
let consumed = null;

/** Record an action. The entry it was made from is spent at once: the events can move the
 * table to the next seat before the acknowledgement comes, and the dealer starts entering that
 * seat's chips — clearing the entry on the acknowledgement threw those away. */
export function act(seat, fields) {
  const command = { type: "act", seat, ...fields };
  const clock = station.model.view.clock;
  if (clock && clock.seat === seat) command.at = Date.now();
  const spent = { ...entry, chips: [...entry.chips] };
  const id = send(command);
  if (id) {  // offline, nothing was sent: the entry stays for the dealer to send again
    consumed = spent;
    resetEntry();
  }
  return id;
}

/** The server answered an action: a refused one gives its entry back to correct and send
 * again, unless the dealer has started another since. */
export function actAnswered(reply) {
  const spent = consumed;
  consumed = null;
  if (reply.ok || !spent || !untouched()) return;
  Object.assign(entry, spent);
  $("chip-entry").dataset.sig = "";
  station.schedule();
}

function untouched() {
  return Object.entries(FRESH).every(([k, v]) => (Array.isArray(v) ? entry[k].length === 0 : entry[k] === v));
}

export function resetEntry() {
  Object.assign(entry, { ...FRESH, chips: [] });
  $("chip-entry").dataset.sig = "";
  // The action panel redraws by itself when the prompt or the acting seat changes; redrawing it
  // on every acknowledgement would throw away an amount the dealer is typing for the next seat.
  station.schedule();
}

/** The seat the dealer records for: the one tapped on the table, else the seat to act. */
export function actingSeat() {
  return entry.from ?? station.model.view.to_act;
}

export function liveSeats() {
  return station.model.view.seats.filter((s) => s.in_hand);
}
