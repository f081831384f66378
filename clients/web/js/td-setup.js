// Creating a tournament at the TD station: from a structure file (the structure JSON of the
// README, or a whole tournament scenario with a `structure` key), or from a form — the levels
// and breaks, the starting stack, the buy-in and fee, late registration and re-entry, the table
// size and the payouts. The server checks the structure and names a bad field
// (`$.structure.levels[2].blinds`); the station only builds it.

import { fmt } from "./format.js";
import { h } from "./ui.js";

const DEFAULT_LEVELS = [
  { blinds: [100, 200], ante: 0, bba: false, minutes: 20 },
  { blinds: [200, 400], ante: 400, bba: true, minutes: 20 },
  { blinds: [300, 600], ante: 600, bba: true, minutes: 20 },
  { break: 10 },
  { blinds: [400, 800], ante: 800, bba: true, minutes: 20 },
  { blinds: [500, 1000], ante: 1000, bba: true, minutes: 20 },
  { blinds: [600, 1200], ante: 1200, bba: true, minutes: 20 },
];

function number(value) {
  const n = Number(String(value).replaceAll(",", "").trim());
  return Number.isFinite(n) && n >= 0 ? Math.round(n) : 0;
}

/** "50, 30, 20" -> [{place: 1, percent: 50}, ...] */
export function percentPlaces(text) {
  const parts = String(text).split(/[\s,;]+/).filter(Boolean).map(Number);
  if (!parts.length || parts.some((p) => !Number.isFinite(p) || p <= 0)) return null;
  return parts.map((percent, i) => ({ place: i + 1, percent }));
}

/** What the TD reads back before creating: "7 steps (6 levels, 1 break) · 20,000 chips". */
export function structureSummary(s) {
  const levels = (s.levels || []).filter((l) => !l.break).length;
  const breaks = (s.levels || []).length - levels;
  const parts = [`${levels} level${levels === 1 ? "" : "s"}${breaks ? `, ${breaks} break${breaks === 1 ? "" : "s"}` : ""}`];
  if (s.starting_stack) parts.push(`${fmt(s.starting_stack)} chips`);
  if (s.buy_in != null) parts.push(`buy-in ${fmt(s.buy_in)}${s.fee ? ` + ${fmt(s.fee)}` : ""}`);
  parts.push(s.late_registration_until ? `late registration to level ${s.late_registration_until}` : "no late registration");
  return parts.join(" · ");
}

/** The structure in a file's text: the structure itself, or a scenario's `structure`. */
export function structureFromText(text) {
  const data = JSON.parse(text);
  const structure = data && typeof data === "object" && data.structure && typeof data.structure === "object" ? data.structure : data;
  if (!structure || typeof structure !== "object" || !Array.isArray(structure.levels)) {
    throw new Error("no `levels` in this file: it is not a structure");
  }
  return structure;
}

export class Setup {
  /** `create(name, structure)` sends it; returns false when offline. */
  constructor({ create, note }) {
    this.create = create;
    this.note = note;
    this.fromFile = null;
    this.form = {
      name: "",
      starting_stack: "20000",
      buy_in: "100",
      fee: "10",
      late_registration_until: "3",
      reentry_until: "0",
      table_size: "9",
      payouts: "standard",
      percents: "50, 30, 20",
    };
    this.levels = DEFAULT_LEVELS.map((l) => ({ ...l }));
    this.root = null;
  }

  build() {
    this.root = h("div", { class: "setup-parts" }, h("div", { class: "setup-col" }, this.fileGroup(), this.formGroup()), this.levelGroup());
    return this.root;
  }

  redraw() {
    if (this.root) this.root.replaceWith(this.build());
  }

  fileGroup() {
    const input = h("input", { type: "file", id: "structure-file", accept: ".json,application/json", "aria-describedby": "file-note" });
    const note = h("p", { id: "file-note", class: "note" }, this.fromFile ? structureSummary(this.fromFile) : "The structure JSON (README: levels, starting_stack, payouts, ...), or a tournament scenario file.");
    input.addEventListener("change", async () => {
      const file = input.files?.[0];
      if (!file) return;
      try {
        this.fromFile = structureFromText(await file.text());
        if (!this.form.name && this.fromFile.name) this.form.name = this.fromFile.name;
        note.textContent = structureSummary(this.fromFile);
        this.note("");
        this.redraw();
      } catch (error) {
        this.fromFile = null;
        this.note(`${file.name}: ${error.message}`);
      }
    });
    return h(
      "fieldset",
      { class: "from-file" },
      h("legend", {}, "From a structure file"),
      h("label", { class: "file-label", for: "structure-file" }, "Structure file"),
      input,
      note,
      h("button", { type: "button", id: "create-from-file", class: "primary", disabled: !this.fromFile, onclick: () => this.send(this.fromFile) }, "Create from the file"),
    );
  }

  formGroup() {
    const f = this.form;
    const field = (key, label, attrs = {}) => h("label", { class: "field" }, label, h("input", { value: f[key], dataset: { field: key }, oninput: (e) => (f[key] = e.target.value), ...attrs }));
    const numeric = { type: "number", min: 0, step: 1, inputmode: "numeric" };
    const payouts = h("select", { dataset: { field: "payouts" }, "aria-label": "Payouts", onchange: (e) => { f.payouts = e.target.value; this.redraw(); } },
      h("option", { value: "standard", selected: f.payouts === "standard" }, "Standard curve (by entries)"),
      h("option", { value: "percent", selected: f.payouts === "percent" }, "Percent by place"),
    );
    return h(
      "fieldset",
      { class: "from-form" },
      h("legend", {}, "Or fill in the structure"),
      h(
        "div",
        { class: "setup-fields" },
        field("name", "Tournament name", { type: "text", maxlength: 200, id: "setup-name" }),
        field("starting_stack", "Starting stack", { ...numeric, min: 1 }),
        field("buy_in", "Buy-in (prize pool)", numeric),
        field("fee", "Fee (house)", numeric),
        field("late_registration_until", "Late registration to level", numeric),
        field("reentry_until", "Re-entry to level (0: none)", numeric),
        field("table_size", "Seats per table", { ...numeric, min: 2, max: 10 }),
        h("label", { class: "field" }, "Payouts", payouts),
        f.payouts === "percent" ? field("percents", "Percent: 1st, 2nd, ...", { type: "text", id: "setup-percents" }) : h("span", { class: "field" }),
      ),
      h("button", { type: "button", id: "create-from-form", class: "primary", onclick: () => this.sendForm() }, "Create the tournament"),
    );
  }

  levelGroup() {
    return h(
      "fieldset",
      { class: "levels-group" },
      h("legend", {}, "Levels and breaks (the form's)"),
      h("div", { class: "levels-scroll" }, this.levelTable()),
      h(
        "div",
        { class: "buttons" },
        h("button", { type: "button", onclick: () => this.addRow(false) }, "Add a level"),
        h("button", { type: "button", onclick: () => this.addRow(true) }, "Add a break"),
      ),
    );
  }

  levelTable() {
    let number = 0;
    const rows = this.levels.map((l, i) => {
      const cell = (key, attrs = {}) => h("td", {}, h("input", { type: "number", min: 0, step: 1, inputmode: "numeric", value: key === "sb" ? l.blinds[0] : key === "bb" ? l.blinds[1] : l[key], "aria-label": `${l.break ? "Break" : `Level ${number}`}: ${attrs.label}`, oninput: (e) => this.setCell(i, key, e.target.value) }));
      const remove = h("td", {}, h("button", { type: "button", class: "remove", "aria-label": `Remove ${l.break ? "this break" : `level ${number}`}`, onclick: () => this.removeRow(i) }, "✕"));
      if (l.break) return h("tr", { class: "break-row" }, h("th", { scope: "row" }, "Break"), h("td", { colspan: 4, class: "break-note" }, "no new hands"), cell("break", { label: "minutes" }), remove);
      number += 1;
      return h(
        "tr",
        {},
        h("th", { scope: "row" }, `${number}`),
        cell("sb", { label: "small blind" }),
        cell("bb", { label: "big blind" }),
        cell("ante", { label: "ante" }),
        h("td", { class: "check" }, h("input", { type: "checkbox", checked: l.bba, "aria-label": `Level ${number}: big-blind ante`, onchange: (e) => this.setCell(i, "bba", e.target.checked) })),
        cell("minutes", { label: "minutes" }),
        remove,
      );
    });
    return h(
      "table",
      { class: "levels", "aria-label": "Levels and breaks" },
      h("thead", {}, h("tr", {}, ...["Level", "Small blind", "Big blind", "Ante", "BB ante", "Minutes", ""].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, rows),
    );
  }

  setCell(i, key, value) {
    const l = this.levels[i];
    if (key === "sb") l.blinds = [number(value), l.blinds[1]];
    else if (key === "bb") l.blinds = [l.blinds[0], number(value)];
    else if (key === "bba") l.bba = Boolean(value);
    else l[key] = number(value);
  }

  addRow(isBreak) {
    const last = [...this.levels].reverse().find((l) => !l.break) || { blinds: [100, 200], ante: 0, bba: false, minutes: 20 };
    this.levels.push(isBreak ? { break: 10 } : { blinds: [last.blinds[0] * 2, last.blinds[1] * 2], ante: last.ante * 2, bba: last.bba, minutes: last.minutes });
    this.redraw();
  }

  removeRow(i) {
    this.levels.splice(i, 1);
    this.redraw();
  }

  /** The structure the form describes. */
  structure() {
    const f = this.form;
    const structure = {
      starting_stack: number(f.starting_stack),
      buy_in: number(f.buy_in),
      fee: number(f.fee),
      late_registration_until: number(f.late_registration_until),
      reentry_until: number(f.reentry_until),
      table_size: number(f.table_size) || 9,
      levels: this.levels.map((l) => (l.break ? { break: l.break } : { blinds: [...l.blinds], ante: l.ante, bba: l.bba, minutes: l.minutes })),
      payouts: { curve: "standard" },
    };
    if (f.name.trim()) structure.name = f.name.trim();
    if (f.payouts === "percent") {
      const places = percentPlaces(f.percents);
      if (!places) return null;
      structure.payouts = { places };
    }
    return structure;
  }

  sendForm() {
    const structure = this.structure();
    if (!structure) {
      this.note("Payouts: give the percent of each place, e.g. 50, 30, 20");
      return;
    }
    this.send(structure);
  }

  send(structure) {
    if (!structure) return;
    const name = this.form.name.trim() || structure.name || "";
    if (!this.create(name, structure)) this.note("Offline: not sent. Reconnecting — create it again once online.");
  }
}
