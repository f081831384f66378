// The tournament director's station (admin token): create the tournament from a structure
// file or a form (td-setup.js), open its tables, register players — name search, late
// registration, re-entry — and show (and print) the seat each new entry drew, table and seat in
// large type; every player's table, seat, stack at the last hand end, status and place
// (td-players.js); start, pause and resume the clock; close registration.

import { fmt } from "./format.js";
import { pageParams } from "./feed.js";
import { h, renderInto, showAlert, showStatus } from "./ui.js";
import { anteText, blindsText, levelLine, timeText, untilNextChange } from "./tournament.js";
import { TournamentFeed } from "./tournament-feed.js";
import { Setup } from "./td-setup.js";
import { matchRows, playerRows, statusText } from "./td-players.js";

const params = pageParams();
const $ = (id) => document.getElementById(id);
const LOOK_FOR = 1500; // ms to wait for the tournament before offering to create it
let frame = 0;
let timer = 0;
let ticketFor = null; // the player whose seat the ticket shows
const intents = new Map(); // command id -> what it was for

const feed = new TournamentFeed({
  station: "td",
  token: params.token,
  tournament: params.tournament,
  onChange: schedule,
  onStatus: (status, detail) => {
    showStatus($("status"), status, detail);
    if (status === "online") setTimeout(schedule, LOOK_FOR + 50);
  },
  onReply: replied,
});

const setup = new Setup({
  create: (name, structure) => {
    const id = feed.create(name, structure);
    if (id) intents.set(id, { kind: "create" });
    return Boolean(id);
  },
  note: (text) => alert(text),
});

function schedule() {
  if (!frame) frame = requestAnimationFrame(render);
}

function alert(text, rule) {
  showAlert($("alert"), text, rule);
}

/** Send a tournament command; false (and said) when offline. */
function send(command, intent = {}) {
  const id = feed.command(command);
  if (!id) {
    alert("Offline: not sent. Reconnecting — send it again once online.");
    return false;
  }
  intents.set(id, { ...intent, command });
  alert("");
  schedule();
  return true;
}

/** A refusal's reason without the path the server appends to it (" - at `$.structure.table_size`"),
 * which the alert shows once, as the field. */
function reasonOf(reply) {
  return String(reply.message || "").replace(/ - at `[^`]*`$/, "");
}

function replied(reply) {
  const intent = intents.get(reply.id) || {};
  intents.delete(reply.id);
  if (!reply.ok) {
    const what = intent.kind === "create" ? "Not created" : intent.command ? `Refused (${intent.command.type.replaceAll("_", " ")})` : "Refused";
    const field = reply.field ? ` (${reply.field})` : "";
    alert(`${what}: ${reasonOf(reply)}${field}`, reply.rule);
    if (intent.kind === "create") setup.refused(reply.field || ""); // the form marks the field named
    if (intent.kind === "register" && ticketFor === intent.player) ticketFor = null;
  } else if (intent.kind === "create") {
    alert("");
  }
  schedule();
}

// --- the clock -----------------------------------------------------------------------------

function renderClock() {
  const face = feed.clock.face();
  const v = feed.model.view;
  const panel = $("clock-face");
  if (!face) {
    panel.replaceChildren(h("p", { class: "note" }, v ? "Waiting for the clock…" : "No tournament yet."));
    $("clock-buttons").replaceChildren();
    return null;
  }
  const level = face.level;
  const time = face.timed ? face.time : face.hands ? `${face.hands} hands left` : face.state === "finished" ? "Finished" : "—";
  const lines = [
    h("p", { class: "td-level" }, face.onBreak ? "Break" : levelLine(level)),
    h("p", { class: "td-time", id: "td-time", role: "timer", dataset: { state: face.state } }, time),
    h("p", { class: "td-state" }, h("span", { class: "state", dataset: { state: face.state } }, face.stateText),
      face.onBreak && face.next ? ` Next: level ${face.next.level} · ${blindsText(face.next)}` : face.next ? ` Next: ${face.nextIsBreak ? "a break, then " : ""}${blindsText(face.next)}${anteText(face.next) ? ` · ${anteText(face.next)}` : ""}` : ""),
  ];
  panel.replaceChildren(...lines);
  const online = feed.online;
  const started = face.state !== "not_started";
  const open = v?.registration_open ?? true;
  const buttons = [
    !started ? h("button", { type: "button", id: "start-clock", class: "primary", disabled: !online, dataset: { key: "start" }, onclick: () => send({ type: "start_clock" }) }, "Start the clock") : null,
    face.state === "running" || face.state === "break" ? h("button", { type: "button", id: "pause-clock", disabled: !online, dataset: { key: "pause" }, onclick: () => send({ type: "pause" }) }, "Pause") : null,
    face.state === "paused" ? h("button", { type: "button", id: "resume-clock", class: "primary", disabled: !online, dataset: { key: "resume" }, onclick: () => send({ type: "resume" }) }, "Resume") : null,
    open && v ? h("button", { type: "button", id: "close-registration", class: "danger", disabled: !online, dataset: { key: "close" }, onclick: () => {
      if (confirm("Close registration? The payout table is fixed from the entries now.")) send({ type: "close_registration" });
    } }, "Close registration") : null,
  ];
  renderInto($("clock-buttons"), JSON.stringify([face.state, started, open, Boolean(v), online]), () => buttons);
  return face;
}

// --- registration --------------------------------------------------------------------------

function newPlayerId() {
  const random = crypto.getRandomValues(new Uint32Array(2));
  return `p-${random[0].toString(36)}${random[1].toString(36)}`.slice(0, 14);
}

$("register-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = $("player-name");
  const name = input.value.trim().replace(/\s+/g, " ");
  if (!name) {
    $("register-note").textContent = "Type the player's name first.";
    return;
  }
  const player = newPlayerId();
  if (send({ type: "register", player, name }, { kind: "register", player })) {
    ticketFor = player;
    input.value = "";
    $("register-note").textContent = "";
    input.focus();
  }
});

$("player-name").addEventListener("input", schedule);
$("filter").addEventListener("input", schedule);
$("order").addEventListener("change", schedule);

function renderRegister() {
  const model = feed.model;
  const v = model.view;
  const typed = $("player-name").value;
  const found = v ? model.search(typed).slice(0, 6) : [];
  $("register").disabled = !v || !feed.online || !v.registration_open;
  const late = v && feed.clock.view && feed.clock.view.state !== "not_started";
  if (!typed) {
    $("register-note").textContent = !v ? "" : !v.registration_open ? "Registration is closed." : late ? `Late registration (to level ${v.late_registration_until}): a full stack, a random seat.` : "A full stack, a random seat.";
  } else if (found.length) {
    $("register-note").textContent = `${found.length} player${found.length === 1 ? "" : "s"} with that name already: re-enter or show a seat below, or register a new player.`;
  } else {
    $("register-note").textContent = `No player “${typed.trim()}” yet: Register adds one.`;
  }
  renderInto($("matches"), JSON.stringify([found, feed.online]), () =>
    matchRows(found, {
      online: feed.online,
      show: (p) => {
        ticketFor = p.player;
        schedule();
      },
      reenter: (p) => {
        if (send({ type: "reenter", player: p.player }, { kind: "register", player: p.player })) ticketFor = p.player;
      },
      unregister: (p) => {
        if (confirm(`Unregister ${p.name}? The buy-in is refunded and the seat returns to the draw.`)) send({ type: "unregister", player: p.player });
      },
    }),
  );
  renderTicket();
}

function renderTicket() {
  const ticket = $("ticket");
  const p = ticketFor && feed.model.view ? feed.model.find(ticketFor) : null;
  const waiting = ticketFor && !p;
  const sig = JSON.stringify([ticketFor, p, waiting]);
  if (ticket.dataset.sig === sig) return;
  ticket.dataset.sig = sig;
  ticket.hidden = !ticketFor;
  if (!ticketFor) return ticket.replaceChildren();
  if (waiting) return ticket.replaceChildren(h("p", { class: "ticket-wait" }, "Registering…"));
  const seated = p.status === "seated" && p.table != null;
  const tournamentName = feed.model.view.name || params.tournament;
  ticket.dataset.player = p.player;
  ticket.replaceChildren(
    h("p", { class: "ticket-event" }, tournamentName),
    h("p", { class: "ticket-name", id: "ticket-name" }, p.name || p.player),
    seated
      ? h("div", { class: "ticket-seat", role: "group", "aria-label": `Table ${p.table}, seat ${p.seat}` },
          h("div", { class: "ticket-box" }, h("span", { class: "ticket-label" }, "Table"), h("span", { class: "ticket-big", id: "ticket-table" }, p.table)),
          h("div", { class: "ticket-box" }, h("span", { class: "ticket-label" }, "Seat"), h("span", { class: "ticket-big", id: "ticket-seat" }, String(p.seat))))
      : h("p", { class: "ticket-none" }, p.status === "registered" ? "Registered: no free seat yet — open a table" : statusText(p)),
    h("p", { class: "ticket-meta" }, [`Entry ${p.entry}`, seated ? `${fmt(p.stack)} chips` : "", entryKind(p)].filter(Boolean).join(" · ")),
    h("div", { class: "buttons no-print" },
      seated ? h("button", { type: "button", id: "print-seat", class: "primary", onclick: () => print() }, "Print the seat") : null,
      h("button", { type: "button", onclick: () => { ticketFor = null; schedule(); } }, "Done")),
  );
}

function entryKind(p) {
  const entry = feed.model.entryOf.get(p.player);
  if (p.entry > 1) return "Re-entry";
  return entry?.late ? "Late registration" : "";
}

// --- the players and the tables ------------------------------------------------------------

function renderPlayers() {
  const model = feed.model;
  const v = model.view;
  if (!v) return;
  const filter = $("filter").value;
  const list = filter.trim() ? model.search(filter) : v.players;
  const order = $("order").value;
  renderInto($("players"), JSON.stringify([list, order]), () => playerRows(list, order));
  const seated = v.players.filter((p) => p.status === "seated").length;
  $("field-line").textContent = [
    `${fmt(v.players_left)} left of ${fmt(v.entries)} entries`,
    `${fmt(seated)} seated`,
    `average ${fmt(v.average_stack)}`,
    `prize pool ${fmt(v.prize_pool)}`,
    v.payouts.length ? `${v.payouts.length} paid (1st ${fmt(v.payouts[0])})` : "",
    v.registration_open ? `registration open${v.late_registration_until ? ` (late to level ${v.late_registration_until})` : ""}` : "registration closed",
  ].filter(Boolean).join(" · ");
  const seats = $("open-seats");
  if (v.table_size && !seats.dataset.typed) seats.value = String(v.table_size); // the structure's, until the TD types
  const tables = v.tables.map((t) => `${t.table}: ${t.players}/${t.seats}`);
  $("tables").textContent = tables.length ? `Tables ${tables.join(" · ")}` : "No tables open: open the first ones to seat players.";
  $("open-tables-button").disabled = !feed.online;
}

$("open-seats").addEventListener("input", () => {
  $("open-seats").dataset.typed = "true";
});

$("open-tables").addEventListener("submit", (event) => {
  event.preventDefault();
  const v = feed.model.view;
  if (!v) return;
  const count = Math.max(1, Math.min(50, Number($("open-count").value) || 1));
  const seats = Math.max(2, Math.min(10, Number($("open-seats").value) || 9));
  let next = Math.max(0, ...v.tables.map((t) => Number(t.table)).filter(Number.isFinite)) + 1;
  for (let i = 0; i < count; i += 1) {
    while (v.tables.some((t) => t.table === String(next))) next += 1;
    if (!send({ type: "open_table", table: String(next), seats })) break;
    next += 1;
  }
});

// --- the page ------------------------------------------------------------------------------

function renderSetup() {
  const known = feed.model.known;
  const looked = feed.online && Date.now() - feed.subscribedAt > LOOK_FOR;
  const show = !known && looked;
  $("setup").hidden = !show;
  $("left").hidden = !known;
  $("players-panel").hidden = !known;
  if (show && !$("setup-body").firstChild) $("setup-body").append(setup.build());
  if (show) $("setup-note").textContent = feed.role && feed.role !== "admin" ? `This ${feed.role} token cannot create tournaments: sign in with an admin token.` : `There is no tournament “${params.tournament}” with a structure yet. Create it:`;
}

function render() {
  frame = 0;
  const v = feed.model.view;
  $("tournament-name").textContent = v?.name || params.tournament;
  document.body.dataset.seq = feed.model.seq ?? "";
  renderSetup();
  const face = renderClock();
  renderRegister();
  renderPlayers();
  $("summary").textContent = face ? [face.onBreak ? "Break" : levelLine(face.level), face.timed ? timeText(face.remaining) : "", face.stateText].filter(Boolean).join(" · ") : "";
  document.title = `TD · ${v?.name || params.tournament} · Tablewire`;
  clearTimeout(timer);
  timer = setTimeout(schedule, untilNextChange(face));
}

feed.start();
schedule();
