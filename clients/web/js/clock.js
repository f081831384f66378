// The tournament clock (a TV in the room, display token): the level, blinds and ante, the time
// left in huge digits, the next level and the next break, players left and entries, the
// average stack, the prize pool and the payouts, and the clock's state. The countdown runs
// from the server's clock (tournament.js ClockModel): every screen shows the same second.

import { fmt } from "./format.js";
import { pageParams } from "./feed.js";
import { h, showStatus } from "./ui.js";
import { anteText, blindsLabel, blindsText, levelGame, payoutLines, timeText, untilNextChange } from "./tournament.js";
import { TournamentFeed } from "./tournament-feed.js";

const params = pageParams();
const $ = (id) => document.getElementById(id);
let frame = 0;
let timer = 0;

const feed = new TournamentFeed({
  station: "clock",
  token: params.token,
  tournament: params.tournament,
  onChange: schedule,
  onStatus: (status, detail) => showStatus($("status"), status, detail),
});

function schedule() {
  if (!frame) frame = requestAnimationFrame(render);
}

function set(id, text) {
  const el = $(id);
  if (el.textContent === text) return;
  el.textContent = text;
  if (el.dataset.fit != null) fit(el);
}

/** Draw a line smaller when it is wider than its box (its stylesheet size otherwise). */
function fit(el) {
  el.style.fontSize = "";
  if (!el.textContent || el.scrollWidth <= el.clientWidth) return;
  const size = parseFloat(getComputedStyle(el).fontSize);
  el.style.fontSize = `${Math.floor(size * (el.clientWidth / el.scrollWidth) * 0.97)}px`;
}

function refit() {
  for (const el of document.querySelectorAll("[data-fit]")) fit(el);
}

function renderClock() {
  const clock = feed.clock;
  const face = clock.face();
  const body = document.body;
  if (!face) {
    set("time", "");
    set("level", feed.online ? "Waiting for the clock…" : "");
    return null;
  }
  body.dataset.state = face.state;
  body.dataset.step = String(face.step);
  body.dataset.confirmed = String(clock.view.step);
  body.dataset.predicted = face.predicted ? "true" : "false";
  const state = $("state");
  state.dataset.state = face.state;
  set("state", face.stateText);
  const level = face.level;
  const upcoming = face.onBreak ? face.next || clock.view.next_level : level;
  if (face.onBreak) {
    set("level", "Break");
    set("blinds", upcoming ? `Next: ${blindsText(upcoming)}` : "");
    set("ante", upcoming ? [`Level ${upcoming.level}`, levelGame(upcoming), anteText(upcoming)].filter(Boolean).join(" · ") : "");
  } else {
    set("level", level ? [`Level ${level.level}`, levelGame(level)].filter(Boolean).join(" · ") : "");
    set("blinds", level ? `${blindsLabel(level)} ${blindsText(level)}` : "");
    set("ante", anteText(level));
  }
  const time = $("time");
  let text = face.time;
  if (!face.timed) {
    if (face.state === "finished") text = "Finished";
    else if (face.hands) text = `${face.hands} hand${face.hands === 1 ? "" : "s"} left`;
    else if (face.onBreak) text = "Break";
    else if (face.state === "running") text = "Last level";
    else text = "";
  }
  if (time.classList.contains("words") === face.timed) {
    time.classList.toggle("words", !face.timed);
    time.textContent = "";
  }
  set("time", text);
  time.dataset.remaining = String(face.remaining);
  time.dataset.endsLocal = String(clock.endsLocal());
  time.setAttribute("aria-label", face.timed ? `${text} left${face.onBreak ? " in the break" : ` in level ${level?.level ?? ""}`}` : text);
  // What comes next: the level after this one (or after the break), the next break.
  if (face.onBreak) {
    set("next-label", "On a break");
    set("next", face.breakMinutes ? `${face.breakMinutes} minutes` : "Break");
    set("next-ante", "No new hands");
  } else {
    set("next-label", "Next level");
    const next = face.next;
    const game = next && next.game !== level?.game ? levelGame(next) : "";
    set("next", face.nextIsBreak ? "Break" : next ? [game, blindsText(next)].filter(Boolean).join(" ") : face.predicted ? "" : "Last level");
    set("next-ante", face.nextIsBreak ? (next ? `then ${blindsText(next)}` : "") : anteText(next));
  }
  set("to-break", face.onBreak ? "Now" : face.toBreak ? timeText(face.toBreak) : face.state === "paused" ? "Paused" : "—");
  set("break-note", face.onBreak || face.toBreak ? "" : face.state === "paused" ? "" : "None scheduled");
  document.title = `${face.timed ? `${text} · ` : ""}${level ? `Level ${level.level}` : "Clock"} · Tablewire`;
  return face;
}

function renderField() {
  const model = feed.model;
  const v = model.view;
  if (!v) return;
  set("name", v.name || params.tournament);
  set("players", `${fmt(v.players_left)} / ${fmt(v.entries)}`);
  set("average", v.average_stack ? fmt(v.average_stack) : "—");
  set("pool", fmt(v.prize_pool));
  const badges = $("badges");
  const final = badges.querySelector(".badge.final");
  if (model.finalTable && !final) badges.append(h("span", { class: "badge final" }, "Final table"));
  if (!model.finalTable && final) final.remove();
  renderPayouts(v);
}

function renderPayouts(v) {
  const list = $("payouts");
  const lines = payoutLines(v.payouts || []);
  const sig = JSON.stringify([lines, v.registration_open]);
  if (list.dataset.sig === sig && list.dataset.height === String(list.clientHeight)) return;
  list.dataset.sig = sig;
  list.dataset.height = String(list.clientHeight);
  if (!lines.length) {
    list.replaceChildren(h("li", { class: "none" }, v.registration_open ? "Shown as players register" : "No prizes"));
    return;
  }
  const items = lines.map(([place, prize]) => h("li", {}, h("span", { class: "place" }, place), h("span", { class: "prize" }, fmt(prize))));
  list.replaceChildren(...items);
  // As many places as fit, and how many more are paid.
  const more = h("li", { class: "more" });
  let shown = items.length;
  while (shown > 1 && list.scrollHeight > list.clientHeight + 1) {
    shown -= 1;
    items[shown].remove();
    const rest = v.payouts.length - lines.slice(0, shown).reduce((n, [place]) => n + placesIn(place), 0);
    more.textContent = `and ${rest} more place${rest === 1 ? "" : "s"} paid`;
    if (!more.isConnected) list.append(more);
  }
}

function placesIn(label) {
  const [from, to] = label.split("–").map((p) => parseInt(p, 10));
  return to ? to - from + 1 : 1;
}

function render() {
  frame = 0;
  const face = renderClock();
  renderField();
  document.body.dataset.seq = feed.model.seq ?? "";
  // The next redraw: when the shown second changes.
  clearTimeout(timer);
  timer = setTimeout(schedule, untilNextChange(face));
}

addEventListener("resize", () => {
  refit();
  schedule();
});
feed.start();
schedule();
