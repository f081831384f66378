// Chip entry: the chips a seat pushed, tapped by denomination (x5 and x10 multiply the next
// tap), what was said, which came first, and rule 48's chips already in front.

import { fmt, words } from "../format.js";
import { h, renderInto } from "../ui.js";
import { $, act, actingSeat, alert, entry, station } from "./context.js";
import { askAmount } from "./numpad.js";

const DECLARATIONS = ["fold", "check", "call", "bet", "raise", "all_in", "complete", "pot"];
// Chip colours by denomination (the usual tournament set), and for any other denomination
// one of the spares by its place in the table's set.
const COLOURS = {
  25: ["#2f7d3a", "#cfe9d2"], 100: ["#222222", "#dddddd"], 500: ["#6b2f91", "#e6ccf7"],
  1000: ["#8a6408", "#fff1c4"], 5000: ["#b3261e", "#ffd6d2"], 25000: ["#1d5fa8", "#d4e7ff"],
  100000: ["#4a4a4a", "#f0f0f0"], 500000: ["#7a1f5c", "#ffd1ee"], 1000000: ["#0b6b6b", "#c8f5f5"],
  5000000: ["#5b3a1a", "#f3d9b8"], 25000000: ["#3a2f8f", "#dcd6ff"],
};
const SPARES = [["#8a3d00", "#ffd9b8"], ["#2d5d1f", "#d8f5c8"], ["#6d1f2b", "#ffd0d8"], ["#1f3f6d", "#cfe0ff"]];

function chipStyle(d, i) {
  const [bg, edge] = COLOURS[d] || SPARES[i % SPARES.length];
  return { background: bg, borderColor: edge, color: "#ffffff" };
}

function counted(chips) {
  const counts = new Map();
  for (const c of chips) counts.set(c, (counts.get(c) || 0) + 1);
  return [...counts.entries()].sort((a, b) => b[0] - a[0]).map(([d, n]) => `${n} × ${fmt(d)}`).join(" + ");
}

export function renderChipEntry() {
  const v = station.model.view;
  const panel = $("chip-entry");
  const seat = actingSeat();
  const open = v.phase === "betting" && seat != null;
  const set = station.model.chipSet;
  const sig = JSON.stringify([open, set, entry.chips, entry.times, entry.declare, entry.amount, entry.first, entry.prior, entry.from, v.to_act]);
  panel.hidden = !open;
  renderInto(panel, sig, () => (open ? chipForm(seat, set) : []));
}

function chipForm(seat, set) {
  const v = station.model.view;
  const total = entry.chips.reduce((a, b) => a + b, 0);
  const again = () => renderChipEntry();
  const denominations = set.map((d, i) =>
    h("button", {
      type: "button",
      class: "chip",
      style: chipStyle(d, i),
      dataset: { key: `chip-${d}` },
      "aria-label": entry.times > 1 ? `Add ${entry.times} ${fmt(d)} chips` : `Add a ${fmt(d)} chip`,
      onclick: () => {
        entry.chips = [...entry.chips, ...Array(entry.times).fill(d)];
        entry.times = 1;
        again();
      },
    }, fmt(d)),
  );
  const multipliers = [5, 10].map((n) =>
    h("button", {
      type: "button",
      class: "times",
      "aria-pressed": entry.times === n ? "true" : "false",
      "aria-label": `Times ${n}: the next chip tapped counts ${n} times`,
      onclick: () => {
        entry.times = entry.times === n ? 1 : n;
        again();
      },
    }, `×${n}`),
  );
  const declare = h(
    "select",
    { id: "declare", dataset: { key: "declare" }, "aria-label": "Verbal declaration" },
    h("option", { value: "" }, "Nothing said"),
    DECLARATIONS.map((d) => h("option", { value: d }, `Said “${words(d)}”`)),
  );
  declare.value = entry.declare;
  declare.addEventListener("change", () => {
    entry.declare = declare.value;
    again();
  });
  const amount = h("button", {
    type: "button",
    id: "spoken",
    class: "amount",
    dataset: { key: "spoken" },
    "aria-label": entry.amount ? `Spoken amount ${fmt(entry.amount)}` : "Spoken amount (optional)",
    onclick: () => askAmount({
      title: "Amount said",
      value: entry.amount,
      okLabel: (n) => `Said ${fmt(n)}`,
      onOk: (n) => {
        entry.amount = n;
        again();
      },
    }),
  }, entry.amount ? `Said ${fmt(entry.amount)}` : "Amount said…");
  const first = h(
    "div",
    { class: "segmented", role: "radiogroup", "aria-label": "Which came first" },
    [["together", "Together"], ["verbal", "Words first"], ["chips", "Chips first"]].map(([value, text]) =>
      h("label", {}, h("input", {
        type: "radio", name: "first", value, checked: entry.first === value, dataset: { key: `first-${value}` },
        onchange: () => {
          entry.first = value;
          again();
        },
      }), h("span", {}, text)),
    ),
  );
  const prior = h(
    "select",
    { id: "prior", dataset: { key: "prior" }, "aria-label": "Chips already in front (rule 48)" },
    h("option", { value: "left" }, "Earlier chips left in front"),
    h("option", { value: "pulled" }, "Earlier chips pulled back"),
    h("option", { value: "partly_pulled" }, "Earlier chips partly pulled"),
  );
  prior.value = entry.prior;
  prior.addEventListener("change", () => (entry.prior = prior.value));
  const bet = v.seats.find((s) => s.seat === seat)?.bet || 0;
  const canRecord = entry.chips.length > 0 || entry.declare || entry.amount;
  const record = () => {
    const fields = { first: entry.first };
    if (entry.chips.length) fields.chips = [...entry.chips];
    if (entry.declare) fields.declare = entry.declare;
    if (entry.amount) fields.amount = Number(entry.amount);
    if (bet && entry.prior !== "left") fields.prior = entry.prior;
    if (!fields.chips && !fields.declare && !fields.amount) return alert("Tap the chips pushed, or choose what was said");
    return act(seat, fields);
  };
  const clear = () => {
    Object.assign(entry, { chips: [], times: 1 });
    again();
  };
  return [
    h("h2", { id: "chips-title" }, `Chips pushed by seat ${seat}`),
    h("div", { class: "denominations", role: "group", "aria-labelledby": "chips-title" }, denominations, multipliers),
    h(
      "div",
      { class: "push" },
      h("span", { id: "push-total", class: "total", "aria-live": "polite" }, entry.chips.length ? `${counted(entry.chips)} = ${fmt(total)}` : "No chips yet"),
      h("button", { type: "button", dataset: { key: "undo-chip" }, disabled: !entry.chips.length, "aria-label": "Take back the last chip", onclick: () => { entry.chips = entry.chips.slice(0, -1); again(); } }, "⌫"),
      h("button", { type: "button", dataset: { key: "clear" }, disabled: !entry.chips.length, "aria-label": "Clear the chips", onclick: clear }, "Clear"),
    ),
    h("div", { class: "said" }, declare, amount),
    first,
    bet ? prior : null,
    h("button", { type: "button", class: "big record primary", id: "record", dataset: { key: "record" }, disabled: !canRecord, onclick: record }, entry.chips.length ? `Record ${fmt(total)}` : "Record"),
  ];
}
