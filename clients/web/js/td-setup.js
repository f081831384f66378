// Creating a tournament at the TD station: from a structure file (the structure JSON of the
// README, or a whole tournament scenario with a `structure` key), or from a form — the game, the
// levels and breaks (each level may name its own game: a mixed event), the starting stack, the
// buy-in and fee, late registration and re-entry, the table size and the payouts. The server
// checks the structure and names a bad field (`$.structure.levels[2].blinds`); the station only
// builds it, and marks the field the server named.
//
// A stud level (7S, 7S8, razz) has no button and no blinds: an ante, a bring-in and the small bet
// (RP-10), sent as `blinds: [0, 0], ante, bring_in, min_bet`. Every other game takes blinds (in
// limit the big blind is the small bet). One deck deals eight stud hands (RP-10-H), so a stud
// event's tables default to eight seats; draw games to six, as they are spread.

import { fmt, gameName } from "./format.js";
import { h } from "./ui.js";

/** The games a table deals, in the order of the README and the floor's sheets. */
export const GAMES = ["NLHE", "PLHE", "LHE", "NLO", "PLO", "PLO8", "LO8", "7S", "7S8", "RAZZ", "27TD", "27SD", "BADUGI"];
export const STUD = new Set(["7S", "7S8", "RAZZ", "STUD", "STUD8"]);
const DRAW = new Set(["27TD", "27SD", "BADUGI"]);
const OLD_NAMES = { STUD: "7S", STUD8: "7S8" };

/** Seats a table of these games defaults to: 8 with stud (one deck, RP-10-H), 6 with a draw
 * game, else 9. */
export function defaultTableSize(games) {
  let size = 9;
  for (const game of games) {
    if (STUD.has(game)) size = Math.min(size, 8);
    if (DRAW.has(game)) size = Math.min(size, 6);
  }
  return size;
}

/** A stud level's ante, bring-in and small bet, from a hold'em level's big blind when the TD
 * turns it to stud: the small bet is the big blind, a quarter of it the bring-in, an eighth the
 * ante (the TD types the real ones). */
function studFrom(level) {
  const bet = level.blinds?.[1] || 200;
  return { ante: Math.round(bet / 8), bring_in: Math.round(bet / 4), min_bet: bet };
}

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

/** The games a structure deals, in the order its levels first deal them: the structure's
 * `game` (NLHE when not named) where a level names none; `STUD` is `7S`. */
export function structureGames(s) {
  const games = [];
  for (const l of s.levels || []) {
    if (l.break) continue;
    const game = OLD_NAMES[l.game] || l.game || OLD_NAMES[s.game] || s.game || "NLHE";
    if (!games.includes(game)) games.push(game);
  }
  return games;
}

/** What the TD reads back before creating: "6 levels, 1 break · 20,000 chips · ..."; a game
 * other than no-limit hold'em is named, and a mixed event lists its games ("games: LHE, LO8,
 * RAZZ, 7S, 7S8"). */
export function structureSummary(s) {
  const levels = (s.levels || []).filter((l) => !l.break).length;
  const breaks = (s.levels || []).length - levels;
  const parts = [`${levels} level${levels === 1 ? "" : "s"}${breaks ? `, ${breaks} break${breaks === 1 ? "" : "s"}` : ""}`];
  const games = structureGames(s);
  if (games.length > 1) parts.push(`games: ${games.join(", ")}`);
  else if (games.length === 1 && games[0] !== "NLHE") parts.push(gameName(games[0]));
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
      game: "NLHE",
      starting_stack: "20000",
      buy_in: "100",
      fee: "10",
      late_registration_until: "3",
      reentry_until: "0",
      table_size: "9",
      payouts: "standard",
      percents: "50, 30, 20",
    };
    this.sizeTyped = false; // the TD typed the seats: the games no longer change them
    this.invalid = ""; // the field the server refused, after `$.structure.`
    this.sentFrom = ""; // what made the structure last sent: the "form" or a "file"
    this.levels = DEFAULT_LEVELS.map((l) => ({ ...l, game: "" }));
    this.root = null;
  }

  build() {
    this.root = h("div", { class: "setup-parts" }, h("div", { class: "setup-col" }, this.fileGroup(), this.formGroup()), this.levelGroup());
    return this.root;
  }

  /** Draw the form again, the keyboard focus kept on the control it was on. */
  redraw() {
    if (!this.root) return;
    const key = document.activeElement?.dataset?.key;
    const old = this.root;
    old.replaceWith(this.build());
    if (key) this.root.querySelector(`[data-key="${CSS.escape(key)}"]`)?.focus();
  }

  /** The server refused the structure, naming `field` (`$.structure.table_size`): mark it in
   * the form, when the form made it. */
  refused(field) {
    const named = this.sentFrom === "form" && String(field || "").startsWith("$.structure.");
    this.invalid = named ? field.slice("$.structure.".length) : "";
    this.redraw();
    if (this.invalid) this.root?.querySelector('[aria-invalid="true"]')?.focus();
  }

  /** The attributes of a control the server named (`levels[2].bring_in` names a level's). */
  marked(path) {
    const bad = this.invalid && (this.invalid === path || this.invalid.startsWith(`${path}.`) || this.invalid.startsWith(`${path}[`));
    return bad ? { "aria-invalid": "true", "aria-describedby": "alert" } : {};
  }

  /** The game of level `l`: its own, or the structure's. */
  gameOf(l) {
    return l.game || this.form.game;
  }

  /** Every game the form's levels deal, in order. */
  games() {
    return [...new Set(this.levels.filter((l) => !l.break).map((l) => this.gameOf(l)))];
  }

  /** A game was chosen (or a level added or removed): the seats follow the games unless the
   * TD typed them. A level turned to stud gets its ante, bring-in and small bet as drawn. */
  gamesChanged() {
    if (!this.sizeTyped) this.form.table_size = String(defaultTableSize(this.games()));
    this.redraw();
  }

  fileGroup() {
    const input = h("input", { type: "file", id: "structure-file", accept: ".json,application/json", "aria-describedby": "file-note", dataset: { key: "file" } });
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
      h("button", { type: "button", id: "create-from-file", class: "primary", disabled: !this.fromFile, onclick: () => this.send(this.fromFile, "file") }, "Create from the file"),
    );
  }

  formGroup() {
    const f = this.form;
    const field = (key, label, attrs = {}) =>
      h("label", { class: "field" }, label, h("input", { value: f[key], dataset: { field: key, key }, oninput: (e) => (f[key] = e.target.value), ...this.marked(key), ...attrs }));
    const numeric = { type: "number", min: 0, step: 1, inputmode: "numeric" };
    const payouts = h("select", { dataset: { field: "payouts", key: "payouts" }, "aria-label": "Payouts", onchange: (e) => { f.payouts = e.target.value; this.redraw(); } },
      h("option", { value: "standard", selected: f.payouts === "standard" }, "Standard (by entries)"),
      h("option", { value: "percent", selected: f.payouts === "percent" }, "Percent by place"),
    );
    const seats = field("table_size", "Seats per table", { ...numeric, min: 2, max: 10, id: "setup-seats" });
    seats.querySelector("input").addEventListener("input", () => (this.sizeTyped = true));
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
        seats,
        h("label", { class: "field" }, "Payouts", payouts),
        f.payouts === "percent" ? field("percents", "Percent: 1st, 2nd, ...", { type: "text", id: "setup-percents" }) : h("span", { class: "field" }),
      ),
      h("button", { type: "button", id: "create-from-form", class: "primary", dataset: { key: "create" }, onclick: () => this.sendForm() }, "Create the tournament"),
    );
  }

  /** The structure's game, over the levels: each deals it unless it names its own. */
  gameRow() {
    const f = this.form;
    const game = h("select", { id: "setup-game", "aria-label": "Game", "aria-describedby": "game-note", dataset: { field: "game", key: "game" }, ...this.marked("game"), onchange: (e) => { f.game = e.target.value; this.gamesChanged(); } },
      GAMES.map((g) => h("option", { value: g, selected: f.game === g }, `${gameName(g)} (${g})`)),
    );
    return h(
      "div",
      { class: "game-row" },
      h("label", { class: "inline" }, "Game", game),
      h("p", { id: "game-note", class: "note" }, "Every level deals it, or a game of its own (a mixed event)."),
    );
  }

  levelGroup() {
    return h(
      "fieldset",
      { class: "levels-group" },
      h("legend", {}, "Levels and breaks (the form's)"),
      this.gameRow(),
      h("div", { class: "levels-scroll" }, this.levelTable()),
      h(
        "div",
        { class: "buttons" },
        h("button", { type: "button", dataset: { key: "add-level" }, onclick: () => this.addRow(false) }, "Add a level"),
        h("button", { type: "button", dataset: { key: "add-break" }, onclick: () => this.addRow(true) }, "Add a break"),
      ),
    );
  }

  /** The levels, a row each. A hold'em (or Omaha, or draw) row asks the blinds, the ante and
   * whether the big blind posts it; a stud row asks the bring-in, the small bet and the ante in
   * the same columns, which a mixed event's headings name both ways. */
  levelTable() {
    let number = 0;
    const playing = this.levels.filter((l) => !l.break);
    const studRows = playing.filter((l) => STUD.has(this.gameOf(l))).length;
    const kinds = studRows === 0 ? "blinds" : studRows === playing.length ? "stud" : "mixed";
    const rows = this.levels.map((l, i) => {
      const name = l.break ? "Break" : `Level ${number + 1}`;
      const path = `levels[${i}]`;
      const cell = (key, label, value, field) =>
        h("td", {}, h("input", { type: "number", min: 0, step: 1, inputmode: "numeric", class: key === "minutes" || key === "break" ? "short" : null, value, "aria-label": `${name}: ${label}`, dataset: { key: `${i}-${key}` }, ...this.marked(`${path}.${field}`), oninput: (e) => this.setCell(i, key, e.target.value) }));
      const remove = h("td", {}, h("button", { type: "button", class: "remove", "aria-label": `Remove ${l.break ? "this break" : `level ${number + 1}`}`, dataset: { key: `${i}-remove` }, onclick: () => this.removeRow(i) }, "✕"));
      if (l.break) return h("tr", { class: "break-row" }, h("th", { scope: "row" }, "Break"), h("td", { colspan: kinds === "stud" ? 4 : 5, class: "break-note" }, "no new hands"), cell("break", "minutes", l.break, "break"), remove);
      number += 1;
      const game = this.gameOf(l);
      const stud = STUD.has(game) && (l.stud ??= studFrom(l));
      const choose = h(
        "select",
        { class: "level-game", "aria-label": `${name}: game`, dataset: { key: `${i}-game` }, ...this.marked(`${path}.game`), onchange: (e) => { l.game = e.target.value; this.gamesChanged(); } },
        h("option", { value: "", selected: !l.game }, "As the structure"),
        GAMES.map((g) => h("option", { value: g, selected: l.game === g, title: gameName(g) }, g)),
      );
      const head = h("th", { scope: "row" }, `${number}`);
      const playingCells = stud
        ? [
            cell("bring_in", "bring-in", stud.bring_in, "bring_in"),
            cell("min_bet", "small bet", stud.min_bet, "min_bet"),
            cell("stud_ante", "ante", stud.ante, "ante"),
            kinds === "mixed" ? h("td", { class: "check" }) : null,
          ]
        : [
            cell("sb", "small blind", l.blinds[0], "blinds"),
            cell("bb", "big blind", l.blinds[1], "blinds"),
            cell("ante", "ante", l.ante, "ante"),
            h("td", { class: "check" }, h("input", { type: "checkbox", checked: l.bba, "aria-label": `${name}: big-blind ante`, dataset: { key: `${i}-bba` }, ...this.marked(`${path}.bba`), onchange: (e) => this.setCell(i, "bba", e.target.checked) })),
          ];
      return h("tr", { class: stud ? "stud-row" : "", dataset: { game } }, head, h("td", {}, choose), ...playingCells, cell("minutes", "minutes", l.minutes, "minutes"), remove);
    });
    const HEADS = {
      blinds: ["Small blind", "Big blind", "Ante", ["BB", "ante"]],
      stud: ["Bring-in", "Small bet", "Ante"],
      mixed: [["Small blind", "or bring-in"], ["Big blind", "or small bet"], "Ante", ["BB", "ante"]],
    };
    const heading = (t) => h("th", { scope: "col" }, Array.isArray(t) ? [t[0], h("br"), t[1]] : t);
    return h(
      "table",
      { class: "levels", "aria-label": "Levels and breaks", dataset: { kinds } },
      h("thead", {}, h("tr", {}, ...["Level", "Game", ...HEADS[kinds], "Minutes", ""].map(heading))),
      h("tbody", {}, rows),
    );
  }

  setCell(i, key, value) {
    const l = this.levels[i];
    if (key === "sb") l.blinds = [number(value), l.blinds[1]];
    else if (key === "bb") l.blinds = [l.blinds[0], number(value)];
    else if (key === "bba") l.bba = Boolean(value);
    else if (key === "bring_in" || key === "min_bet") l.stud[key] = number(value);
    else if (key === "stud_ante") l.stud.ante = number(value);
    else l[key] = number(value);
  }

  addRow(isBreak) {
    const last = [...this.levels].reverse().find((l) => !l.break) || { blinds: [100, 200], ante: 0, bba: false, minutes: 20, game: "" };
    const double = (stud) => stud && { ante: stud.ante * 2, bring_in: stud.bring_in * 2, min_bet: stud.min_bet * 2 };
    this.levels.push(isBreak ? { break: 10 } : { blinds: [last.blinds[0] * 2, last.blinds[1] * 2], ante: last.ante * 2, bba: last.bba, minutes: last.minutes, game: last.game, stud: double(last.stud) });
    this.gamesChanged();
  }

  removeRow(i) {
    this.levels.splice(i, 1);
    this.gamesChanged();
  }

  /** The step a level of the form sends: a stud level its ante, bring-in and small bet; any
   * other its blinds, ante and big-blind ante. A level names its game when it is not the
   * structure's, and every level does in a mixed event — the server compares a level's blinds
   * with the last hold'em level's unless the level names a stud game. */
  step(l, mixed) {
    const game = this.gameOf(l);
    const stud = STUD.has(game) && (l.stud ??= studFrom(l));
    const step = stud
      ? { blinds: [0, 0], ante: stud.ante, bring_in: stud.bring_in, min_bet: stud.min_bet, minutes: l.minutes }
      : { blinds: [...l.blinds], ante: l.ante, bba: l.bba, minutes: l.minutes };
    if (mixed || game !== this.form.game) step.game = game;
    return step;
  }

  /** The structure the form describes. */
  structure() {
    const f = this.form;
    const mixed = this.games().length > 1;
    const structure = {
      game: f.game,
      starting_stack: number(f.starting_stack),
      buy_in: number(f.buy_in),
      fee: number(f.fee),
      late_registration_until: number(f.late_registration_until),
      reentry_until: number(f.reentry_until),
      table_size: number(f.table_size) || defaultTableSize(this.games()),
      levels: this.levels.map((l) => (l.break ? { break: l.break } : this.step(l, mixed))),
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
    this.send(structure, "form");
  }

  /** Send `structure`, made by the "form" or read from a "file". */
  send(structure, from) {
    if (!structure) return;
    this.sentFrom = from;
    if (this.invalid) {
      this.invalid = "";
      this.redraw();
    }
    const name = this.form.name.trim() || structure.name || "";
    if (!this.create(name, structure)) this.note("Offline: not sent. Reconnecting — create it again once online.");
  }
}
