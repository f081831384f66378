// The floor monitor's open floor calls: each with its context (who, stack, what was said and
// pushed), how long it has waited — louder (colour, a chime) once it waited `loudAfter`
// seconds — one button per ruling option, and a button that opens its table.

import { callContext, capital, plain, recordedText, waitedText, words } from "./format.js";
import { callText } from "./table.js";
import { h, renderInto, ruleButton, ruleText } from "./ui.js";

const params = new URLSearchParams(location.search);
/** Seconds a floor call waits before it turns loud (`?loud_after=`, default 60). */
export const LOUD_AFTER = Math.max(5, Number(params.get("loud_after")) || 60);

let audio = null;
const chimed = new Map(); // "table:call" -> "played" or "muted" (the page was never touched)
addEventListener("pointerdown", unlockAudio, { once: true });
addEventListener("keydown", unlockAudio, { once: true });

/** Browsers let a page make a sound only after the user touched it once. */
function unlockAudio() {
  try {
    audio ||= new AudioContext();
    audio.resume();
  } catch {
    audio = null;
  }
}

/** A short two-tone chime; true when it could be played. */
function chime() {
  if (!audio || audio.state !== "running") return false;
  const at = audio.currentTime;
  for (const [i, pitch] of [880, 660].entries()) {
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = pitch;
    gain.gain.setValueAtTime(0.25, at + i * 0.18);
    gain.gain.exponentialRampToValueAtTime(0.001, at + i * 0.18 + 0.16);
    tone.connect(gain).connect(audio.destination);
    tone.start(at + i * 0.18);
    tone.stop(at + i * 0.18 + 0.17);
  }
  return true;
}

/**
 * Render the open calls of every table. `answering` holds the "table:call" rulings sent and
 * not yet answered; `onRule(table, call, option)` sends a ruling, `onOpen(table)` opens a table.
 */
export function renderCalls(container, feed, all, { answering, onRule, onOpen }) {
  const now = Date.now();
  const calls = all.flatMap((m) => m.view.floor.map((c) => ({ m, c })));
  feed.closeCalls(new Set(calls.map(({ m, c }) => `${m.table}:${c.call}`)));
  const rows = calls.map(({ m, c }) => {
    const seat = m.view.seats.find((s) => s.seat === c.seat) || null;
    const said = feed.context(m.table).said.get(c.call);
    return { m, c, seat, said, since: feed.openSince(m.table, c.call, now), busy: answering.has(`${m.table}:${c.call}`) };
  });
  const sig = JSON.stringify([rows.map(({ m, c, seat, said, since, busy }) => [m.table, c, seat, said, since, busy]), feed.online]);
  renderInto(container, sig, () => {
    if (!rows.length) return h("li", { class: "none" }, "No floor calls open.");
    return rows.map((row) => callCard(row, feed.online, onRule, onOpen));
  });
  tickCalls(container);
}

function callCard({ m, c, seat, said, since, busy }, online, onRule, onOpen) {
  const where = c.seat ? `Seat ${c.seat}` : "The table";
  return h(
    "li",
    {
      class: `call ${c.blocking ? "blocking" : "notice"}`,
      dataset: { table: m.table, call: c.call, since },
      onclick: (event) => {
        if (!event.target.closest("button")) onOpen(m.table);
      },
    },
    h("span", { class: "icon", "aria-hidden": "true" }, c.blocking ? "⚠" : "ℹ"),
    h(
      "div",
      { class: "call-body" },
      h("p", { class: "call-head" }, h("span", {}, `Table ${m.table} · ${where} · Rule `), ruleButton(c.rule), h("span", {}, c.blocking ? " · the hand waits" : " · to consider")),
      h("p", { class: "call-text" }, ...ruleText(plain(callText(c)), [c.rule])),
      h("ul", { class: "call-context" }, [
        ...callContext(c, seat, m.view.current_bet).map((line) => h("li", {}, line)),
        said ? h("li", { class: "said" }, recordedText(said)) : null,
      ]),
      h(
        "div",
        { class: "options", role: "group", "aria-label": `Ruling for table ${m.table}, call ${c.call}` },
        c.options.map((option) =>
          h("button", {
            type: "button",
            class: "option",
            disabled: busy || !online,
            dataset: { key: `rule-${m.table}-${c.call}-${option}` },
            "aria-label": `Rule ${words(option)} on table ${m.table}, ${c.seat ? `seat ${c.seat}` : "the table"}`,
            onclick: () => onRule(m.table, c.call, option),
          }, capital(words(option))),
        ),
        h("button", {
          type: "button",
          class: "open-table",
          dataset: { key: `open-${m.table}-${c.call}` },
          onclick: () => onOpen(m.table),
        }, `Open table ${m.table}`),
      ),
    ),
    h("p", { class: "waited", role: "timer", "aria-label": "Time this call has waited" }, waitedText(Date.now() - since)),
  );
}

/** Update every call's waiting time; a call past LOUD_AFTER turns loud and chimes once. */
export function tickCalls(container) {
  const now = Date.now();
  for (const li of container.querySelectorAll(".call[data-since]")) {
    const waited = now - Number(li.dataset.since);
    li.querySelector(".waited").textContent = waitedText(waited);
    const loud = waited >= LOUD_AFTER * 1000;
    li.classList.toggle("loud", loud);
    const key = `${li.dataset.table}:${li.dataset.call}`;
    if (loud && !chimed.has(key)) chimed.set(key, chime() ? "played" : "muted");
    if (chimed.has(key)) li.dataset.chimed = chimed.get(key);
  }
}
