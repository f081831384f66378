// A station of the whole tournament (the clock display, the TD station): the connection, the
// tournament's own log and its clock, and the tournament commands it sends.
//
// Signing in subscribes to the whole tournament with `tournament_since` = the last tournament
// event applied (-1 the first time: a `tournament_snapshot`), then applies the
// `tournament_events` after it (tournament.js). The tables of the tournament come along with
// such a subscription; this station only keeps their last event numbers, so that asking for a
// fresh tournament snapshot (what the payout table is before registration closes depends on
// the structure, which only the server holds) does not send the tables' history again.
//
// `withClock(Feed)` gives a table station (the dealer, the floor) the tournament's `clock`.

import { Connection } from "./connection.js";
import { ClockModel, TournamentModel } from "./tournament.js";

const REFRESH_AFTER = 250;

export class TournamentFeed {
  /**
   * @param {object} o
   * @param {string} o.station keeps command ids of stations apart
   * @param {string} o.token
   * @param {string} o.tournament
   * @param {() => void} o.onChange the tournament or its clock changed
   * @param {(status: string, detail: string) => void} o.onStatus
   * @param {(reply: object) => void} [o.onReply] {ok, ...ack or error, message: the one sent}
   */
  constructor({ station, token, tournament, onChange, onStatus, onReply }) {
    this.station = station;
    this.tournament = tournament;
    this.onChange = onChange;
    this.onReply = onReply;
    this.model = new TournamentModel(tournament);
    this.clock = new ClockModel();
    this.tableSeqs = {}; // table -> last event number seen (not applied: not needed here)
    this.pending = new Map(); // id -> the message, until answered
    this.prefix = `${station}-${Math.random().toString(36).slice(2, 10)}`;
    this.counter = 0;
    this.refreshTimer = 0;
    this.subscribedAt = 0;
    this.connection = new Connection({
      token,
      onWelcome: (welcome) => this.welcomed(welcome),
      onMessage: (message) => this.received(message),
      onStatus: (status, detail) => {
        onStatus?.(status, detail);
        this.onChange?.();
      },
    });
  }

  start() {
    this.connection.start();
  }

  get online() {
    return this.connection.online;
  }

  get role() {
    return this.connection.welcome?.role || "";
  }

  welcomed() {
    this.subscribe(this.model.known && !this.model.stale ? this.model.seq : -1);
    // Sent but not answered before the connection dropped: the same id again gets the first
    // answer if the server had applied it.
    for (const message of this.pending.values()) this.connection.send(message);
  }

  subscribe(since = -1) {
    this.subscribedAt = Date.now();
    this.connection.send({
      type: "subscribe",
      tournament: this.tournament,
      snapshot: true,
      tables_since: { ...this.tableSeqs },
      tournament_since: since,
    });
  }

  /** A fresh tournament snapshot, soon (several changes in a row ask once). */
  refresh() {
    if (this.refreshTimer) return;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = 0;
      if (this.online) this.subscribe(-1);
    }, REFRESH_AFTER);
  }

  received(message) {
    switch (message.type) {
      case "tournament_snapshot":
        if (message.tournament !== this.tournament) return;
        this.model.loadSnapshot(message.state, message.seq);
        if (!this.clock.view && message.state.clock) this.clock.update(message.state.clock);
        break;
      case "tournament_events":
        if (message.tournament !== this.tournament) return;
        if (this.model.applyEvents(message.events || [], message.seq) === "gap") {
          this.subscribe(this.model.known ? this.model.seq : -1);
          return;
        }
        if (this.model.stale) this.refresh();
        break;
      case "clock":
        if (message.clock?.tournament && message.clock.tournament !== this.tournament) return;
        this.clock.update(message.clock);
        break;
      case "snapshot":
        this.tableSeqs[message.table] = message.seq;
        return;
      case "events":
        this.tableSeqs[message.table] = Math.max(this.tableSeqs[message.table] ?? 0, message.seq + (message.events?.length || 1) - 1);
        return;
      case "ack":
        this.replied(message.id, { ok: true, ...message });
        break;
      case "error":
        if (message.id && this.pending.has(message.id)) this.replied(message.id, { ok: false, ...message });
        else this.onReply?.({ ok: false, ...message });
        break;
      default:
        return;
    }
    this.onChange?.();
  }

  nextId() {
    this.counter += 1;
    return `${this.prefix}-${this.counter}`;
  }

  /** Send a tournament command; its id, or null when offline (nothing is sent or queued). */
  command(command) {
    return this.sendMessage({ type: "tournament_command", id: this.nextId(), tournament: this.tournament, command });
  }

  /** Create this tournament with a structure (admin). */
  create(name, structure) {
    return this.sendMessage({ type: "create_tournament", id: this.nextId(), tournament: this.tournament, name, structure });
  }

  sendMessage(message) {
    if (!this.connection.send(message)) return null;
    this.pending.set(message.id, message);
    return message.id;
  }

  replied(id, reply) {
    const message = this.pending.get(id);
    this.pending.delete(id);
    if (reply.ok && message?.type === "create_tournament") this.subscribe(-1);
    this.onReply?.({ ...reply, sent: message, command: message?.command });
  }
}

/**
 * A table station's feed with the tournament's clock: `feed.clock` (a ClockModel) follows the
 * `clock` messages every station of a tournament with a structure is sent; `onClock` is told.
 */
export function withClock(Base) {
  return class extends Base {
    constructor(options) {
      super(options);
      this.clock = new ClockModel();
      this.onClock = options.onClock;
    }

    received(message) {
      if (message.type === "clock") {
        if (message.clock?.tournament && message.clock.tournament !== this.tournament) return;
        this.clock.update(message.clock);
        this.onClock?.(this.clock);
        return;
      }
      if (message.type === "tournament_snapshot" || message.type === "tournament_events") return;
      super.received(message);
    }
  };
}

/**
 * A station of every table that also follows the tournament's own log (the floor monitor):
 * `options.board` (a TournamentModel, or one extending it) takes the `tournament_snapshot` the
 * whole-tournament subscription starts with and the `tournament_events` after it; `onTournament`
 * is told. `tournamentCommand(command)` sends a tournament command (its id, or null offline);
 * its answer comes to `onReply` like a table command's.
 */
export function withTournament(Base) {
  return class extends Base {
    constructor(options) {
      super(options);
      this.board = options.board;
      this.onTournament = options.onTournament;
    }

    received(message) {
      if (message.type !== "tournament_snapshot" && message.type !== "tournament_events") {
        super.received(message);
        return;
      }
      if (message.tournament !== this.tournament) return;
      if (message.type === "tournament_snapshot") this.board.loadSnapshot(message.state, message.seq);
      else if (this.board.applyEvents(message.events || [], message.seq) === "gap") {
        this.resubscribe();
        return;
      }
      this.onTournament?.();
    }

    /** The whole tournament again from the last tournament event applied (a gap). */
    resubscribe() {
      const since = {};
      for (const m of this.models.values()) if (m.seq != null && !m.awaiting) since[m.table] = m.seq;
      this.connection.send({ type: "subscribe", tournament: this.tournament, tables_since: since, tournament_since: this.board.known ? this.board.seq : -1 });
    }

    tournamentCommand(command) {
      this.counter += 1;
      const message = { type: "tournament_command", id: `${this.prefix}-${this.counter}`, tournament: this.tournament, command };
      if (!this.connection.send(message)) return null;
      this.pending.set(message.id, message);
      return message.id;
    }
  };
}
