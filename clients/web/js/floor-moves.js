// The floor monitor's panel for play across the tables (floor-board.js): each balancing move
// proposed, with who, from where to where and why, and Confirm / Dismiss (12-A); each table
// stopped short, with why and a waiver (12-D); hand-for-hand — the tables still in their hand,
// those waiting for the others, the release of the next hand (RP-8); the next table to break,
// for the floor's eyes only (12-C); and the latest of these the tournament did.

import { tokenName } from "./floor-context.js";
import { h, renderInto, ruleButton, textWithRules } from "./ui.js";

const tableList = (tables) => tables.map((t) => `Table ${t}`).join(", ");

export class FloorMoves {
  /** `send(command)` sends a tournament command and returns its id, or null when offline;
   * `tables()` the table models (a hand-for-hand all-in waits at a table, RP-8-F). */
  constructor({ board, send, online, tables }) {
    Object.assign(this, { board, send, online, tables });
    this.busy = new Map(); // command id -> the button's key, until answered
  }

  /** A reply to a command this panel sent: its buttons come back. */
  replied(reply) {
    return this.busy.delete(reply.id);
  }

  command(key, command) {
    const id = this.send(command);
    if (id) this.busy.set(id, key);
  }

  render(section, container) {
    const b = this.board;
    const shown = b.known && (b.moves.size || b.stopped.size || b.h4h || b.breakNext || b.playingTables.length >= 2);
    section.hidden = !shown;
    if (!shown) return;
    const busy = new Set(this.busy.values());
    this.held = this.tables().filter((m) => m.view.cards_held).map((m) => m.table);
    const sig = JSON.stringify([this.held, [...b.moves.values()], [...b.stopped], b.h4h, b.breakNext, b.latest.map((l) => l.seq), b.playingTables, [...busy], this.online(), b.view.players.length]);
    renderInto(container, sig, () => [
      ...[...b.moves.values()].map((m) => this.moveCard(m, busy)),
      ...[...b.stopped].map(([table, s]) => this.stopCard(table, s, busy)),
      this.handForHand(busy),
      b.breakNext ? this.breakCard(b.breakNext, busy) : null,
      b.latest.length ? this.latestCard() : null,
    ]);
  }

  button(key, text, attrs, command, busy) {
    return h("button", { type: "button", disabled: busy.has(key) || !this.online(), dataset: { key }, ...attrs, onclick: () => this.command(key, command) }, text);
  }

  moveCard(m, busy) {
    const who = this.board.nameOf(m.player);
    const n = m.proposal;
    const where = `table ${m.table} seat ${m.seat}`;
    const state = m.confirmed
      ? m.waiting.length
        ? `Confirmed: made when ${tableList(m.waiting).toLowerCase()} finish${m.waiting.length === 1 ? "es its hand" : " their hands"}; no new hand there until then.`
        : "Confirmed: being made now."
      : "Proposed: confirm it, or dismiss it.";
    return h(
      "li",
      { class: `across-card move${m.confirmed ? " confirmed" : ""}`, dataset: { proposal: n } },
      h("p", { class: "across-head" }, h("span", {}, `Balancing move ${n}${m.revised ? " (revised)" : ""} · Rule `), ...m.rules.map(ruleButton)),
      h("p", { class: "move-who" }, `${who}: table ${m.from_table}${m.from_seat ? ` seat ${m.from_seat}` : ""} → ${where}`),
      h("p", { class: "move-why" }, `Why: ${m.reason || "the tables are unbalanced"}.`),
      h("p", { class: "move-how" }, `The next big blind at table ${m.from_table} goes to the seat that takes the big blind soonest, never the small blind.`),
      h("p", { class: "move-state" }, state),
      h(
        "div",
        { class: "across-buttons", role: "group", "aria-label": `Move ${n}` },
        m.confirmed
          ? null
          : this.button(`confirm-${n}`, `Confirm move ${n}`, { class: "primary", "aria-label": `Confirm move ${n}: ${who} to ${where}` }, { type: "confirm_move", proposal: n }, busy),
        this.button(`dismiss-${n}`, m.confirmed ? `Take back move ${n}` : `Dismiss move ${n}`, { class: "secondary" }, { type: "dismiss_move", proposal: n, reason: m.confirmed ? "taken back by the floor" : "dismissed by the floor" }, busy),
      ),
    );
  }

  stopCard(table, s, busy) {
    const why = s.reason || "too short of the fullest table, its blinds affected";
    return h(
      "li",
      { class: `across-card stop${s.waived ? " waived" : ""}`, dataset: { stopped: table } },
      h("p", { class: "across-head" }, h("span", {}, s.waived ? `Table ${table}: stoppage waived · Rule ` : `Table ${table} stopped · Rule `), ruleButton("12-D")),
      h("p", { class: "stop-why" }, s.waived ? `It plays on short${s.by ? ` (waived by ${s.by})` : ""} until players come.` : `Why: ${why}.`),
      s.waived ? null : h("p", { class: "stop-how" }, "No new hand there until players come, or you waive it; a waiver is not a misdeal."),
      s.waived ? null : h("div", { class: "across-buttons" }, this.button(`waive-${table}`, `Waive the stoppage at table ${table}`, {}, { type: "waive_stoppage", table, by: tokenName(), reason: "waived by the floor" }, busy)),
    );
  }

  handForHand(busy) {
    const b = this.board;
    const h4h = b.h4h;
    if (!h4h) {
      if (b.playingTables.length < 2) return null;
      return h(
        "li",
        { class: "across-card h4h off" },
        h("p", { class: "across-head" }, h("span", {}, "Hand-for-hand is off · Rule "), ruleButton("RP-8")),
        h("div", { class: "across-buttons" }, this.button("h4h-on", "Announce hand-for-hand", { "aria-label": "Announce hand-for-hand: every table finishes its hand, then waits for the others" }, { type: "hand_for_hand", on: true }, busy)),
      );
    }
    const done = b.playingTables.filter((t) => !h4h.waiting.includes(t));
    return h(
      "li",
      { class: "across-card h4h on", dataset: { hand: h4h.hand } },
      h("p", { class: "across-head" }, h("span", {}, `Hand-for-hand · hand ${h4h.hand} · Rule `), ruleButton("RP-8")),
      h4h.waiting.length
        ? h("p", { class: "h4h-playing", id: "h4h-playing" }, `Still in their hand: ${tableList(h4h.waiting)}`)
        : h("p", { class: "h4h-playing", id: "h4h-playing" }, `Every table has finished hand ${h4h.hand}.`),
      done.length ? h("p", { class: "h4h-done", id: "h4h-done" }, `Waiting for the other tables: ${tableList(done)}`) : null,
      this.held.map((t) =>
        h(
          "div",
          { class: "all-in-held", dataset: { table: t } },
          h("p", { class: "with-rules" }, h("span", { class: "text" }, `Table ${t}: all-in and call, the cards face down until you release them.`), ruleButton("RP-8-F")),
          this.button(`release-${t}`, `Release the all-in at table ${t}`, { class: "primary" }, { type: "release_cards", table: t }, busy),
        ),
      ),
      h(
        "div",
        { class: "across-buttons" },
        h4h.ready ? this.button("h4h-release", "Start the next hand at every table", { class: "primary" }, { type: "release_hands" }, busy) : null,
        this.button("h4h-off", "End hand-for-hand", { class: "secondary" }, { type: "hand_for_hand", on: false }, busy),
      ),
    );
  }

  breakCard(next, busy) {
    return h(
      "li",
      { class: "across-card break", dataset: { breaks: next.table } },
      h("p", { class: "across-head" }, h("span", {}, "Floor only: the break order · Rule "), ruleButton("12-C")),
      h("p", { class: "break-next" }, `Table ${next.table} is next to break${next.reason ? `: ${next.reason}` : next.players ? `: ${next.free} free seats elsewhere take its ${next.players} players` : ""}. The order is never announced.`),
      h("div", { class: "across-buttons" }, this.button(`break-${next.table}`, `Break table ${next.table}`, { "aria-label": `Break table ${next.table}: its players drawn to new seats (11-B)` }, { type: "break_table", table: next.table, shuffle: 0, deal: 0, staff: tokenName() }, busy)),
    );
  }

  latestCard() {
    return h(
      "li",
      { class: "across-card latest" },
      h("p", { class: "across-head" }, "Latest across the tables"),
      h("ol", { class: "latest-lines" }, this.board.latest.slice(0, 2).map((l) => h("li", { dataset: { seq: l.seq } }, textWithRules(l.text, l.rules)))),
    );
  }
}
