// The tournament across its tables as the floor sees it, without the DOM: the balancing moves
// proposed and confirmed (12-A), the tables stopped short (12-D), hand-for-hand and the tables
// still in their hand (RP-8), and the break order (12-C: staff only — the service sends it to
// the floor's stream alone, a display gets a `withheld` placeholder in its place).
//
// A `tournament_snapshot` carries the moves, the stoppages and hand-for-hand (never the break
// order); the `tournament_events` after it are applied as server/tournament/evolve.py does.

import { TournamentModel } from "./tournament.js";

/** Tournament events the floor's "latest" lines show: what was done across the tables. */
const ACROSS = new Set([
  "moved", "move_dismissed", "move_confirmed", "play_stopped", "stoppage_waived", "stoppage_ended",
  "hand_for_hand", "hand_for_hand_hand", "hand_for_hand_ended", "table_broken", "break_announced",
  "final_table", "final_table_announced", "all_in_released", "button_frozen", "button_unfrozen",
]);

export class FloorBoard extends TournamentModel {
  constructor(tournament) {
    super(tournament);
    this.reset();
  }

  reset() {
    this.moves = new Map(); // proposal -> {proposal, player, from_table, from_seat, table, seat, reason, confirmed, waiting, rules}
    this.stopped = new Map(); // table -> {reason, waived, by}
    this.h4h = null; // {hand, waiting: [tables still in the hand], ready}
    this.breakNext = null; // {table, players, free, reason, rules}: staff only (12-C)
    this.latest = []; // {seq, text, rules}, newest first
  }

  loadSnapshot(state, seq) {
    super.loadSnapshot(state, seq);
    const breakNext = this.breakNext;
    this.reset();
    // The floor's snapshot names the table next to break (12-C; a display's never does); the
    // counts come with the break_proposed event, when this station saw it.
    const next = state.next_break || "";
    this.breakNext = !next ? null : breakNext?.table === next ? breakNext : { table: next, players: 0, free: 0, reason: "", rules: ["12-C"] };
    for (const m of state.moves || []) this.moves.set(m.proposal, { rules: ["12-A"], ...m, waiting: [...(m.waiting || [])] });
    for (const t of state.tables || []) {
      if (t.stopped || t.waived) this.stopped.set(t.table, { reason: "", waived: Boolean(t.waived), by: "" });
    }
    const h = state.hand_for_hand;
    this.h4h = h ? { hand: h.hand, waiting: [...(h.waiting || [])], ready: Boolean(h.ready) } : null;
  }

  apply(e, seq) {
    super.apply(e, seq);
    if (ACROSS.has(e.type) && e.text) {
      this.latest.unshift({ seq, type: e.type, text: e.text, rules: e.rules || [] });
      this.latest.length = Math.min(this.latest.length, 4);
    }
    this.across(e);
  }

  across(e) {
    switch (e.type) {
      case "move_proposed": {
        const old = this.moves.get(e.proposal);
        this.moves.set(e.proposal, { confirmed: false, waiting: [], ...old, ...pickMove(e) });
        break;
      }
      case "move_confirmed": {
        const m = this.moves.get(e.proposal);
        if (!m) break;
        Object.assign(m, { confirmed: true, waiting: [...(e.waiting || [])] });
        if (e.player) m.player = e.player;
        if (e.seat) m.seat = e.seat;
        break;
      }
      case "move_dismissed":
        this.moves.delete(e.proposal);
        break;
      case "moved":
        if (e.proposal) this.moves.delete(e.proposal);
        break;
      case "hand_counted":
        for (const m of this.moves.values()) m.waiting = m.waiting.filter((t) => t !== e.table);
        this.notWaiting(e.table);
        break;
      case "play_stopped":
        this.stopped.set(e.table, { reason: e.reason || "", waived: false, by: "", players: e.players, fullest: e.fullest, short: e.short });
        break;
      case "stoppage_waived":
        this.stopped.set(e.table, { ...this.stopped.get(e.table), waived: true, by: e.by || "" });
        break;
      case "stoppage_ended":
        this.stopped.delete(e.table);
        break;
      case "break_proposed":
        this.breakNext = { table: e.table, players: e.players, free: e.free, reason: e.reason || "", rules: e.rules || ["12-C"] };
        break;
      case "break_announced":
      case "table_broken":
        if (this.breakNext?.table === e.table) this.breakNext = null;
        if (e.type === "table_broken") this.notWaiting(e.table);
        break;
      case "final_table":
        this.breakNext = null;
        break;
      case "hand_for_hand":
        this.h4h = { hand: 1, waiting: [...(e.waiting?.length ? e.waiting : e.tables || [])], ready: false };
        break;
      case "hand_for_hand_hand":
        if (this.h4h) this.h4h = { hand: e.hand + 1, waiting: e.released ? [...(e.tables || [])] : [], ready: !e.released };
        break;
      case "tables_released":
        if (e.hold === "h4h" && this.h4h?.ready) this.h4h = { ...this.h4h, waiting: [...e.tables], ready: false };
        break;
      case "hand_for_hand_ended":
        this.h4h = null;
        break;
      default:
        break;
    }
  }

  notWaiting(table) {
    if (this.h4h) this.h4h.waiting = this.h4h.waiting.filter((t) => t !== table);
  }

  /** A player's name, else the id. */
  nameOf(id) {
    return this.view?.players.find((p) => p.player === id)?.name || id;
  }

  /** The tables that play: open, with players. */
  get playingTables() {
    return this.known ? this.liveTables.map((t) => t.table) : [];
  }
}

function pickMove(e) {
  const { proposal, player, from_table, from_seat, table, seat, reason, revised } = e;
  return { proposal, player, from_table, from_seat, table, seat, reason, revised: Boolean(revised), rules: e.rules || ["12-A"] };
}
