// The dealer station: the table as it is (oval.js), the prompt as large buttons (betting.js),
// chip entry (chips.js), the deal and the showdown (hand.js), irregularities (irregular.js),
// what the tournament asks of the table — hand-for-hand, holds, seat changes (across.js) —
// the dealer's undo of its last action, and the ruling log.

import { fmt } from "./format.js";
import { streetNow } from "./draw.js";
import { Feed, pageParams } from "./feed.js";
import { h, renderInto, renderLog, showStatus, tickClock } from "./ui.js";
import { bettingPanel } from "./dealer/betting.js";
import { renderChipEntry } from "./dealer/chips.js";
import { $, actAnswered, alert, entry, liveSeats, OFFLINE, send, station } from "./dealer/context.js";
import { dealPanel, floorPanel, idlePanel, showdownPanel } from "./dealer/hand.js";
import { drawPanel } from "./dealer/draw.js";
import { setUpIrregularities } from "./dealer/irregular.js";
import { renderOval } from "./dealer/oval.js";
import { renderLevelStrip } from "./dealer/level.js";
import { renderAcross } from "./dealer/across.js";
import { withClock } from "./tournament-feed.js";

const params = pageParams();
let frame = 0;
station.schedule = () => {
  if (!frame) frame = requestAnimationFrame(() => {
    frame = 0;
    render();
  });
};

station.feed = new (withClock(Feed))({
  station: "dealer",
  onClock: () => station.schedule(),
  ...params,
  table: params.table || "1",
  onChange: (m) => {
    station.model = m;
    station.schedule();
  },
  onStatus: (status, detail) => {
    showStatus($("status"), status, detail);
    const online = status === "online";
    $("controls-set").disabled = !online;
    $("irregular-open").disabled = !online;
    $("floor-call").disabled = !online;
    if (online && $("alert").textContent.includes(OFFLINE)) alert("");
    station.schedule();
  },
  onReply: (reply) => {
    if (reply.command?.type === "act") actAnswered(reply);
    if (reply.ok) return;
    const why = reply.code === "stale" ? "The table moved on before this arrived; check the table and record again." : reply.message;
    alert(why, reply.rule);
    station.schedule();
  },
});

function render() {
  const model = station.model;
  if (!model) return;
  const v = model.view;
  document.body.dataset.seq = model.syncedSeq ?? "";
  $("table-name").textContent = `Table ${model.table}`;
  document.title = `Dealer · Table ${model.table} · Tablewire`;
  // A tournament's table has the level (and the clock) in the strip under the header.
  const level = station.feed.clock.view ? "" : model.levelText(true);
  const summary = [v.hand ? `Hand ${v.hand}` : "", v.hand ? streetNow(v) : "", level, model.waitingOn].filter(Boolean);
  $("summary").textContent = summary.join(" · ");
  if (entry.from != null && (v.phase !== "betting" || entry.from === v.to_act || !liveSeats().some((s) => s.seat === entry.from))) entry.from = null;
  renderOval($("table"), tapSeat);
  renderAcross();
  renderAction();
  renderChipEntry();
  renderUndo();
  renderLog($("log"), model.log);
  renderLevelStrip();
  keepTime();
}

function tapSeat(n) {
  entry.from = n === station.model.view.to_act ? null : n;
  $("action").dataset.sig = "";
  station.schedule();
}

function renderAction() {
  const { model, feed } = station;
  const v = model.view;
  const p = model.prompt;
  if (entry.hand !== v.hand) Object.assign(entry, { hand: v.hand, winners: {} });
  const sig = JSON.stringify([v.phase, p, v.to_act, entry.from, v.next_street, v.street, v.pots, v.awards, v.exposed, v.floor, liveSeats().map((s) => [s.seat, s.shown, s.cards, s.up, s.bet, s.draws]), v.hand, feed.online, model.lastPush?.hand, v.holds, v.cards_held, v.game, v.seventh, v.draw_prompt, v.draw_note, v.next_level, entry.absent, entry.exposed]);
  renderInto($("action"), sig, () => {
    // RP-8-F: the hand-for-hand all-in waits for the floor; nothing is dealt or shown.
    if (v.cards_held) return h("div", { class: "floor-wait" }, h("h2", {}, "Waiting for the floor"), h("p", { class: "call-text" }, "The all-in stays face down and nothing is dealt until the floor releases it."));
    switch (v.phase) {
      case "betting":
        return bettingPanel();
      case "draw":
        return drawPanel();
      case "deal":
        return [dealPanel(), v.exposed ? showdownPanel(false) : null];
      case "showdown":
        return showdownPanel(true);
      case "floor":
        return floorPanel();
      case "over":
        return h("p", { class: "waiting" }, "The hand is over.");
      default:
        return idlePanel();
    }
  });
}

/** Undo: the last action recorded, while nothing has been recorded since (24, 1). */
function renderUndo() {
  const last = station.model.lastRecorded;
  const can = last?.type === "act" && station.model.view.phase !== "idle";
  const what = can ? `seat ${last.seat} ${last.declare ? last.declare.replace("_", "-") : "chips"}${last.amount ? ` ${fmt(last.amount)}` : ""}` : "";
  const online = station.feed.online;
  renderInto($("undo-bar"), JSON.stringify([what, online]), () =>
    can ? h("button", { type: "button", id: "undo", class: "undo", disabled: !online, dataset: { key: "undo" }, "aria-label": `Undo the last action: ${what}`, onclick: () => send({ type: "correction", count: 1, by: "dealer", reason: "dealer's mis-tap" }, { after: false }) }, `↶ Undo ${what}`) : []);
}

// --- the clock ---------------------------------------------------------------------------

let timed = "";
let timer = 0;
function keepTime() {
  // The station's timer tells the server when a running clock expires (31).
  const clock = station.model?.view.clock;
  const key = clock ? `${clock.seat}:${clock.expires}` : "";
  if (key === timed) return;
  timed = key;
  clearTimeout(timer);
  if (!clock) return;
  timer = setTimeout(() => send({ type: "time", at: Date.now() }, { after: false }), Math.max(0, clock.expires - Date.now() + 100));
}

setUpIrregularities();
tickClock(() => station.model?.view);
station.feed.start();
