// The overhead table display: read from five metres. Pot, seats, bets, the seat to act, the
// board, all-ins, hands the rules expose, blinds and level, and the latest ruling; after a
// hand, its result for a few seconds (display-result.js); the seats that just changed hands (a
// player moved away or here) and hand-for-hand. It draws only the cards it received: the
// server strips hole cards for display tokens.

import { gameName } from "./format.js";
import { blindLevel, isDraw, streetNow } from "./draw.js";
import { Feed, pageParams } from "./feed.js";
import { h, ruleText, showStatus, tickClock } from "./ui.js";
import { heldResult, holdSeconds, resultLines } from "./display-result.js";
import { renderDisplayTable } from "./display-table.js";
import { shortChips } from "./display-words.js";
import { holdsOf, seatChangeText } from "./table-holds.js";
import { isStud, studLevel } from "./stud.js";
import { nextGame } from "./table.js";

const params = pageParams();
const $ = (id) => document.getElementById(id);
const holdMs = holdSeconds() * 1000;
let model = null;
let frame = 0;
let timer = 0;

const feed = new Feed({
  station: "display",
  ...params,
  table: params.table || "1",
  onChange: (m) => {
    model = m;
    schedule();
  },
  onStatus: (status, detail) => showStatus($("status"), status, detail),
  onReply: (reply) => {
    // A display sends no commands: an error here is about its token or its table.
    if (reply.ok) return;
    const line = $("ruling");
    line.dataset.sig = "";
    line.replaceChildren(h("span", { class: "icon", "aria-hidden": "true" }, "⚠ "), reply.message);
  },
});

function schedule() {
  if (!frame) frame = requestAnimationFrame(render);
}

/** Draw again when a held result runs out. */
function wake(ms) {
  clearTimeout(timer);
  timer = setTimeout(schedule, ms + 50);
}

function levelText(v) {
  if (isStud(v)) return studLevel(v, shortChips);
  if (isDraw(v)) return blindLevel(v, shortChips);
  if (!v.blinds?.[1]) return "";
  const ante = v.ante ? ` · ${v.bba ? "BB ante" : "Ante"} ${shortChips(v.ante)}` : "";
  return `Blinds ${shortChips(v.blinds[0])}/${shortChips(v.blinds[1])}${ante}`;
}

function nextText(v, next) {
  // A mixed event's next game is named first ("Next: Seven-card stud · Ante 1M ...").
  if (next.game && next.game !== v.game) {
    const level = next.bring_in ? studLevel(next, shortChips, true) : blindLevel({ ...next }, shortChips);
    return [gameName(next.game), level].filter(Boolean).join(" · ");
  }
  if (isStud(v)) return studLevel({ ...next, bring_in: next.bring_in || v.bring_in, min_bet: next.min_bet || v.min_bet }, shortChips);
  if (isDraw(v)) return blindLevel({ ...next, game: v.game }, shortChips);
  return `${shortChips(next.blinds[0])}/${shortChips(next.blinds[1])}${next.ante ? ` ante ${shortChips(next.ante)}` : ""}`;
}

function renderHeader(v) {
  $("title").textContent = `Table ${model.table}${v.hand ? ` · Hand ${v.hand} · ${streetNow(v)}` : ""}`;
  const next = v.next_level;
  // A table by orbit says the rotation's next game once the game in play deals its last hand.
  const coming = next ? nextText(v, next) : nextGame(v) !== v.game ? gameName(nextGame(v)) : "";
  $("level").replaceChildren(
    levelText(v),
    coming ? h("span", { class: "next" }, ` · Next: ${coming}`) : "",
  );
}

function renderRuling() {
  const last = model.lastRuling;
  const line = $("ruling");
  const sig = last ? String(last.seq) : "";
  if (line.dataset.sig === sig) return;
  line.dataset.sig = sig;
  line.replaceChildren(
    ...(last
      ? [
          last.kind === "floor" ? h("span", { class: "icon", "aria-hidden": "true" }, "⚠ ") : "",
          ...ruleText(last.text, last.rules),
        ]
      : []),
  );
}

/** "Seat 7: Ann Lee joins the table with 20,000 · Hand-for-hand: waiting for the other tables" */
function renderNews(v) {
  const parts = (v.seat_changes || []).slice(-2).map((c) => seatChangeText(c, shortChips));
  if (v.hand_for_hand) parts.push(v.phase === "idle" && holdsOf(v).h4h ? "Hand-for-hand: waiting for the other tables" : "Hand-for-hand");
  const line = $("table-news");
  const text = parts.join(" · ");
  line.hidden = !text;
  if (line.textContent !== text) line.textContent = text;
}

function render() {
  frame = 0;
  if (!model) return;
  const v = model.view;
  document.body.dataset.seq = model.syncedSeq ?? "";
  const held = heldResult(model, holdMs, Date.now(), wake);
  document.body.dataset.result = held ? `${held.last.hand}${held.table ? "" : " strip"}` : "";
  renderHeader(v);
  // "All hands face up" (17) holds for the hand in play only.
  $("exposed").hidden = !(v.exposed && v.phase !== "idle");
  const strip = $("last-result");
  strip.hidden = !held || held.table;
  strip.replaceChildren(...(held && !held.table ? [h("span", { class: "last-hand" }, `Hand ${held.last.hand}:`), ...resultLines(held.last, "span")] : []));
  renderNews(v);
  renderDisplayTable($("table"), model, held?.table ? held.last : null);
  renderRuling();
}

tickClock(() => model?.view);

feed.start();
