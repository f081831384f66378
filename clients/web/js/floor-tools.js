// The floor's tools for the selected table: the clock, a penalty (the form shows only the
// fields its kind uses and starts over when another table is opened) and a correction, which
// lists the log entries it will void before it is sent.

import { h } from "./ui.js";

const KINDS = [["warning", "Warning"], ["hands", "Hands"], ["rounds", "Rounds"], ["chips", "Chips"], ["disqualify", "Disqualify"]];
/** The fields each kind of penalty uses besides the seat, the kind and the reason (74). */
const KIND_FIELDS = { warning: [], hands: ["count"], rounds: ["count"], chips: ["chips"], disqualify: [] };

function fresh(table) {
  return { table, seat: "", kind: "warning", count: "1", chips: "", reason: "", fixCount: "1", fixReason: "" };
}

export class FloorTools {
  /** `send(table, command)` returns the command id, or null when offline; `alert(text)`. */
  constructor({ feed, send, alert, changed }) {
    Object.assign(this, { feed, send, alert, changed });
    this.form = fresh(null);
  }

  /** What the tools are drawn from: re-rendered when it changes. */
  signature(m) {
    this.forTable(m.table);
    const v = m.view;
    return JSON.stringify([m.table, v.seats.map((s) => [s.seat, s.name]), v.to_act, v.clock, v.hand, this.feed.online, this.form.kind]);
  }

  forTable(table) {
    if (this.form.table !== table) this.form = fresh(table);
  }

  build(m) {
    const v = m.view;
    const form = this.form;
    if (!form.seat || !v.seats.some((s) => String(s.seat) === form.seat)) form.seat = v.seats[0] ? String(v.seats[0].seat) : "";
    const clock = h("button", {
      type: "button",
      class: "primary",
      disabled: v.to_act == null,
      dataset: { key: "clock" },
      onclick: () => this.send(m.table, { type: "clock", at: Date.now() }),
    }, v.to_act != null ? `Call the clock on seat ${v.to_act}` : "Call the clock (no seat to act)");
    return [h("div", { class: "clock-row" }, clock), this.penalty(m), this.correction(m)];
  }

  penalty(m) {
    const form = this.form;
    const uses = KIND_FIELDS[form.kind] || [];
    const kind = this.select("kind", KINDS, "Penalty: kind");
    kind.addEventListener("change", () => this.changed());
    return h(
      "fieldset",
      { class: "penalty", dataset: { kind: form.kind } },
      h("legend", {}, "Penalty"),
      field("Seat", this.select("seat", m.view.seats.map((s) => [String(s.seat), `Seat ${s.seat}${s.name ? ` · ${s.name}` : ""}`]), "Penalty: seat"), "seat"),
      field("Kind", kind, "kind"),
      uses.includes("count") ? field(form.kind === "rounds" ? "Rounds" : "Hands", this.input("count", { type: "number", min: 1, step: 1, inputmode: "numeric" }, "Penalty: hands or rounds"), "count") : null,
      uses.includes("chips") ? field("Chips", this.input("chips", { type: "number", min: 0, step: 1, inputmode: "numeric" }, "Penalty: chips out of play"), "chips") : null,
      field("Reason", this.input("reason", { type: "text", autocomplete: "off" }, "Penalty: reason"), "reason"),
      h("button", { type: "button", dataset: { key: "give-penalty" }, onclick: () => this.givePenalty(m) }, "Give the penalty"),
    );
  }

  givePenalty(m) {
    const form = this.form;
    if (!form.seat) return this.alert("Choose the seat");
    const command = { type: "penalty", seat: Number(form.seat), kind: form.kind, reason: form.reason.trim() };
    const uses = KIND_FIELDS[form.kind] || [];
    if (uses.includes("count")) command.count = Math.max(1, Number(form.count) || 1);
    if (uses.includes("chips")) command.chips = Number(form.chips) || 0;
    if (this.send(m.table, command)) form.reason = "";
    return undefined;
  }

  correction(m) {
    const preview = h("div", { class: "fix-preview", id: "fix-preview", "aria-live": "polite" });
    const count = this.input("fixCount", { type: "number", min: 1, step: 1, inputmode: "numeric" }, "Correction: actions to void");
    count.addEventListener("input", () => this.preview(m, preview));
    const box = h(
      "fieldset",
      { class: "correction" },
      h("legend", {}, "Correction"),
      field("Actions to void", count, "fix-count"),
      field("Reason", this.input("fixReason", { type: "text", autocomplete: "off", placeholder: "required" }, "Correction: reason"), "fix-reason"),
      preview,
      h("button", {
        type: "button",
        dataset: { key: "correct" },
        onclick: () => {
          const reason = this.form.fixReason.trim();
          if (!reason) return this.alert("A correction needs a reason");
          const n = Math.max(1, Number(this.form.fixCount) || 1);
          if (this.send(m.table, { type: "correction", count: n, reason })) this.form.fixReason = "";
          return undefined;
        },
      }, "Correct the last action"),
    );
    this.preview(m, preview);
    return box;
  }

  /** The entries the correction would void, oldest first, as the log will strike them. */
  preview(m, el) {
    const n = Math.max(1, Number(this.form.fixCount) || 1);
    const button = el.parentElement?.querySelector('[data-key="correct"]');
    if (button) button.textContent = n === 1 ? "Correct the last action" : `Correct the last ${n} actions`;
    const from = this.feed.voidsFrom(m.table, n);
    if (from == null) {
      el.replaceChildren(h("p", { class: "note" }, m.view.hand ? `This hand has fewer than ${n} action${n === 1 ? "" : "s"} to void.` : "No hand in play to correct."));
      el.dataset.from = "";
      return;
    }
    const voided = this.feed.context(m.table);
    const entries = m.log.filter((e) => e.seq >= from && e.type !== "correction" && !voided.isVoided(e.seq)).reverse();
    el.dataset.from = String(from);
    el.replaceChildren(
      h("p", { class: "note" }, `Voids ${entries.length} entr${entries.length === 1 ? "y" : "ies"} of the log:`),
      h("ol", { class: "voids" }, entries.map((e) => h("li", { dataset: { seq: e.seq } }, e.text))),
    );
  }

  /** Keep the preview in step with the log while the tools stay as they are. */
  refresh(m) {
    const el = document.getElementById("fix-preview");
    if (el) this.preview(m, el);
  }

  input(key, attrs, name) {
    const el = h("input", { ...attrs, value: this.form[key], "aria-label": name, dataset: { key: `form-${key}` } });
    el.addEventListener("input", () => (this.form[key] = el.value));
    return el;
  }

  select(key, options, name) {
    const el = h("select", { "aria-label": name, dataset: { key: `form-${key}` } }, options.map(([value, text]) => h("option", { value }, text)));
    el.value = this.form[key];
    el.addEventListener("change", () => (this.form[key] = el.value));
    return el;
  }
}

function field(label, control, name) {
  return h("label", { class: `field field-${name}` }, h("span", { "aria-hidden": "true" }, label), control);
}
