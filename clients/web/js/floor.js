// The floor monitor: every table of the tournament as a tile, the open floor calls with their
// context and one button per option (floor-calls.js), play across the tables — balancing
// moves, stoppages, hand-for-hand, the break order (floor-moves.js) — and for the selected
// table its log — entries a correction voided struck through — and the tools (floor-tools.js).

import { FloorFeed, tokenName } from "./floor-context.js";
import { renderCalls, tickCalls } from "./floor-calls.js";
import { FloorTools } from "./floor-tools.js";
import { fmt, gameName } from "./format.js";
import { streetNow } from "./draw.js";
import { pageParams } from "./feed.js";
import { clockLeft, h, renderInto, renderLog, showAlert, showStatus } from "./ui.js";
import { clockWords, levelUpText, nextSecond } from "./level-strip.js";
import { withClock, withTournament } from "./tournament-feed.js";
import { FloorBoard } from "./floor-board.js";
import { FloorMoves } from "./floor-moves.js";
import { renderSeats } from "./floor-seats.js";
import { owesBringIn } from "./stud.js";

const params = pageParams();
const $ = (id) => document.getElementById(id);
let selected = params.table;
let frame = 0;
const answering = new Set(); // "table:call" rulings sent, waiting for their answer

const board = new FloorBoard(params.tournament);
const feed = new (withTournament(withClock(FloorFeed)))({
  station: "floor",
  onClock: () => renderClock(),
  board,
  onTournament: schedule,
  ...params,
  table: null,
  onChange: schedule,
  onStatus: (status, detail) => {
    showStatus($("status"), status, detail);
    schedule();
  },
  onReply: (reply) => {
    if (reply.command?.type === "ruling") answering.delete(`${reply.table}:${reply.command.call}`);
    moves.replied(reply);
    if (!reply.ok) showAlert($("alert"), `${reply.table ? `Table ${reply.table}: ` : ""}${reply.message}`, reply.rule);
    else showAlert($("alert"), "");
    schedule();
  },
});
const moves = new FloorMoves({ board, send: (command) => sendTournament(command), online: () => feed.online, tables: () => tables() });
const tools = new FloorTools({ feed, send, alert: (text) => showAlert($("alert"), text), changed: () => schedule() });

function schedule() {
  if (!frame) frame = requestAnimationFrame(render);
}

function tables() {
  return [...feed.models.values()].filter((m) => m.seq != null).sort((a, b) => a.table.localeCompare(b.table, undefined, { numeric: true }));
}

function send(table, command) {
  const id = feed.send(table, command);
  if (!id) showAlert($("alert"), "Offline: not sent. Reconnecting — send it again once online.");
  else showAlert($("alert"), "");
  return id;
}

function sendTournament(command) {
  const id = feed.tournamentCommand(command);
  if (!id) showAlert($("alert"), "Offline: not sent. Reconnecting — send it again once online.");
  else showAlert($("alert"), "");
  schedule();
  return id;
}

function open(table) {
  selected = table;
  schedule();
  $("detail-title").focus({ preventScroll: true });
}

function render() {
  frame = 0;
  const all = tables();
  if (!selected || !feed.models.has(selected)) selected = (all.find((m) => m.view.floor.length) || all[0])?.table ?? null;
  $("tournament-name").textContent = params.tournament;
  const name = tokenName();
  $("signed-as").textContent = name ? `Rulings signed: ${name}` : "Rulings unsigned: this token has no name";
  const count = all.reduce((n, m) => n + m.view.floor.length, 0);
  $("summary").textContent = `${all.length} table${all.length === 1 ? "" : "s"} · ${count ? `${count} floor call${count === 1 ? "" : "s"} open` : "no floor calls open"}`;
  document.title = `${count ? `(${count}) ` : ""}Floor · Tablewire`;
  renderCalls($("calls"), feed, all, {
    answering,
    onOpen: open,
    onRule: (table, call, option) => {
      if (send(table, { type: "ruling", call, option })) {
        answering.add(`${table}:${call}`);
        schedule();
      }
    },
  });
  moves.render($("across-area"), $("across"));
  renderTiles(all);
  renderDetail(feed.models.get(selected));
}

// --- tiles -------------------------------------------------------------------------------

function waiting(m) {
  const call = m.view.floor.find((c) => c.blocking);
  if (m.view.phase === "floor" && call) return `Floor call ${call.call} · ${call.seat ? `seat ${call.seat}` : "the table"}`;
  return m.waitingOn;
}

function tileFacts(m) {
  const v = m.view;
  const toAct = v.seats.find((s) => s.seat === v.to_act);
  const penalties = v.seats.filter((s) => s.penalty).map((s) => `Seat ${s.seat}: ${s.penalty} hand${s.penalty === 1 ? "" : "s"}`);
  return {
    hand: v.hand ? `Hand ${v.hand} · ${streetNow(v)}` : "No hand yet",
    game: gameName(v.game),
    pot: `Pot ${fmt(m.potWithBets)}`,
    act: v.to_act != null ? `Seat ${v.to_act}${toAct?.name ? ` (${toAct.name})` : ""} to ${owesBringIn(m.prompt) === v.to_act ? "bring it in" : v.phase === "draw" ? "draw" : "act"}` : waiting(m),
    clock: v.clock ? clockLeft(v.clock) : "",
    penalties,
    calls: v.floor.length,
    level: m.levelText(),
    levelUp: levelUpText(v),
  };
}

function renderTiles(all) {
  const sig = JSON.stringify([all.map((m) => [m.table, m.syncedSeq, tileFacts(m)]), selected]);
  renderInto($("tiles"), sig, () => {
    if (!all.length) return h("p", { class: "none" }, "Waiting for the tables' first events…");
    return all.map((m) => {
      const f = tileFacts(m);
      const label = [`Table ${m.table}`, f.hand, f.game, f.pot, f.act, f.clock, ...f.penalties.map((p) => `penalty ${p}`), f.calls ? `${f.calls} floor call${f.calls === 1 ? "" : "s"} open` : "", f.levelUp].filter(Boolean).join(", ");
      return h(
        "button",
        {
          type: "button",
          class: `tile${f.calls ? " has-call" : ""}${m.table === selected ? " selected" : ""}`,
          "aria-pressed": m.table === selected ? "true" : "false",
          "aria-label": label,
          dataset: { key: `tile-${m.table}`, table: m.table, seq: m.syncedSeq ?? "" },
          onclick: () => open(m.table),
        },
        h("span", { class: "tile-head" }, h("span", { class: "tile-name" }, `Table ${m.table}`), f.calls ? h("span", { class: "flag" }, h("span", { "aria-hidden": "true" }, "⚠ "), `Floor call${f.calls > 1 ? `s ${f.calls}` : ""}`) : null),
        h("span", { class: "tile-line game" }, f.game),
        h("span", { class: "tile-line" }, f.hand),
        h("span", { class: "tile-pot" }, f.pot),
        h("span", { class: "tile-line act" }, f.act),
        f.clock ? h("span", { class: "tile-line clock", dataset: { clock: m.table } }, f.clock) : null,
        f.penalties.length ? h("span", { class: "tile-line penalties" }, `Penalty: ${f.penalties.join("; ")}`) : null,
        h("span", { class: "tile-line level" }, f.level),
        f.levelUp ? h("span", { class: `tile-line level-up${f.levelUp.startsWith("Level up") ? " in-play" : ""}` }, f.levelUp) : null,
      );
    });
  });
}

// --- the selected table ------------------------------------------------------------------

function renderDetail(m) {
  const log = $("log");
  renderSeats($("seats"), m);
  if (!m) {
    $("detail-title").textContent = "No table selected";
    $("tools").replaceChildren();
    log.replaceChildren();
    log.dataset.sig = "";
    return;
  }
  const v = m.view;
  $("detail").dataset.table = m.table;
  $("detail-title").textContent = `Table ${m.table}`;
  $("detail-summary").textContent = [gameName(v.game), v.hand ? `Hand ${v.hand} · ${streetNow(v)}` : "", m.levelText(), levelUpText(v), waiting(m)].filter(Boolean).join(" · ");
  if (!renderInto($("tools"), tools.signature(m), () => tools.build(m))) tools.refresh(m);
  if (log.dataset.table !== m.table) {
    log.replaceChildren();
    log.dataset.sig = "";
    log.dataset.table = m.table;
  }
  renderLog(log, m.log, 150);
  const context = feed.context(m.table);
  for (const li of log.children) {
    const voided = context.isVoided(Number(li.dataset.seq));
    if (voided === li.classList.contains("voided")) continue;
    li.classList.toggle("voided", voided);
    if (voided) li.prepend(h("span", { class: "void-tag" }, "Voided"));
    else li.querySelector(".void-tag")?.remove();
  }
}

// The tournament clock in the header: the level and the time left, drawn at each second.
let clockTimer = 0;
function renderClock() {
  clearTimeout(clockTimer);
  const line = $("clock");
  const words = clockWords(feed.clock);
  line.hidden = !words;
  if (!words) return;
  const text = [words.level, words.time, words.state].filter(Boolean).join(" · ");
  if (line.textContent !== text) line.textContent = text;
  line.dataset.state = words.face.state;
  clockTimer = setTimeout(renderClock, nextSecond(feed.clock));
}

setInterval(() => {
  for (const el of document.querySelectorAll("[data-clock]")) {
    const clock = feed.models.get(el.dataset.clock)?.view.clock;
    if (clock) el.textContent = clockLeft(clock);
  }
  tickCalls($("calls"));
}, 500);

feed.start();
