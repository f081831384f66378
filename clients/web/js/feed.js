// A station's feed: the connection, the tables it follows and the commands it sends.
//
// Each table is a TableModel holding the last event number it applied. Signing in (again)
// subscribes with `since` = that number, so the server sends only what was missed; events
// already seen are ignored. A station that knows nothing of a table yet asks for a snapshot
// (`snapshot: true`) and then for the recent history, which fills the ruling log. Models are kept in sessionStorage, so a reload resumes where the page was.

import { Connection, takeToken } from "./connection.js";
import { TableModel } from "./table.js";

const HISTORY = 200;

export function pageParams() {
  const q = new URLSearchParams(location.search);
  return {
    token: takeToken(),
    tournament: q.get("tournament") || "main",
    table: q.get("table") || null,
  };
}

export class Feed {
  /**
   * @param {object} o
   * @param {string} o.station "dealer", "floor" or "display" (keeps their stores apart)
   * @param {string} o.token
   * @param {string} o.tournament
   * @param {string|null} o.table one table, or null for the whole tournament
   * @param {(model: TableModel) => void} o.onChange a table changed
   * @param {(status: string, detail: string) => void} o.onStatus
   * @param {(reply: object) => void} [o.onReply] an ack or error for a command, or an error
   */
  constructor({ station, token, tournament, table, onChange, onStatus, onReply }) {
    this.station = station;
    this.tournament = tournament;
    this.table = table;
    this.onChange = onChange;
    this.onReply = onReply;
    this.models = new Map();
    this.pending = new Map(); // command id -> the message, until acked or refused
    this.prefix = `${station}-${Math.random().toString(36).slice(2, 10)}`;
    this.counter = 0;
    this.storageKey = `tablewire:${station}:${tournament}:${table ?? "*"}`;
    this.saveTimer = null;
    this.restore();
    this.connection = new Connection({
      token,
      onWelcome: (welcome) => this.welcomed(welcome),
      onMessage: (message) => this.received(message),
      onStatus,
    });
  }

  start() {
    for (const model of this.models.values()) this.onChange?.(model);
    this.connection.start();
  }

  get online() {
    return this.connection.online;
  }

  model(table) {
    let model = this.models.get(table);
    if (!model) {
      model = new TableModel(this.tournament, table);
      this.models.set(table, model);
    }
    return model;
  }

  // --- persistence -----------------------------------------------------------------------

  restore() {
    try {
      const saved = JSON.parse(sessionStorage.getItem(this.storageKey) || "null");
      for (const data of saved?.tables || []) {
        if (data.seq != null) this.models.set(data.table, TableModel.fromJSON(data));
      }
    } catch {
      sessionStorage.removeItem(this.storageKey);
    }
  }

  save() {
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => {
      const tables = [...this.models.values()].filter((m) => m.seq != null && !m.awaiting).map((m) => m.toJSON());
      try {
        sessionStorage.setItem(this.storageKey, JSON.stringify({ tables }));
      } catch {
        /* storage full: the page still works, a reload starts from a snapshot */
      }
    }, 50);
  }

  // --- subscriptions ---------------------------------------------------------------------

  welcomed() {
    const send = (m) => this.connection.send(m);
    if (this.table != null) {
      const model = this.model(this.table);
      if (model.seq == null || model.awaiting) this.askSnapshot(model);
      else if (model.promptFrom) this.askHistory(model);
      else send({ type: "subscribe", tournament: this.tournament, table: this.table, since: model.seq });
    } else {
      const since = {};
      for (const m of this.models.values()) if (m.seq != null && !m.awaiting) since[m.table] = m.seq;
      send({ type: "subscribe", tournament: this.tournament, tables_since: since });
      for (const m of this.models.values()) {
        if (m.seq == null || m.awaiting) this.askSnapshot(m);
        else if (m.promptFrom) this.askHistory(m);
      }
    }
    // Commands sent but not acknowledged before the connection dropped: the same id again
    // returns the first result if the server had applied it.
    for (const message of this.pending.values()) send(message);
  }

  askSnapshot(model) {
    model.awaiting = true;
    model.historyAsked = false;
    this.connection.send({ type: "subscribe", tournament: this.tournament, table: model.table, snapshot: true });
  }

  /** The recent events up to the snapshot (and any since): the log and what the snapshot
   * does not carry. Asked again after a reconnection until they arrived. */
  askHistory(model) {
    model.historyAsked = true;
    const since = Math.max(0, (model.promptFrom || model.seq) - HISTORY);
    this.connection.send({ type: "subscribe", tournament: this.tournament, table: model.table, since });
  }

  received(message) {
    switch (message.type) {
      case "events":
        if (message.tournament === this.tournament) this.events(message);
        break;
      case "snapshot":
        if (message.tournament === this.tournament) this.snapshot(message);
        break;
      case "ack":
        this.replied(message.id, { ok: true, ...message });
        break;
      case "error":
        if (message.id && this.pending.has(message.id)) this.replied(message.id, { ok: false, ...message });
        else this.onReply?.({ ok: false, ...message });
        break;
      default:
        break;
    }
  }

  snapshot(message) {
    const model = this.model(message.table);
    const askedHistory = model.historyAsked;
    model.loadSnapshot(message.state, message.seq);
    model.awaiting = false;
    // A history request answered by a snapshot means the log no longer reaches back: stop.
    if (!askedHistory && message.seq > 0) this.askHistory(model);
    else {
      model.historyAsked = false;
      model.promptFrom = 0;
    }
    this.changed(model);
  }

  events(message) {
    const known = this.models.get(message.table);
    if (!known || known.seq == null) {
      // A table this station knows nothing of: its snapshot first.
      const model = this.model(message.table);
      if (!model.awaiting) this.askSnapshot(model);
      return;
    }
    const model = known;
    if (model.awaiting) return; // a snapshot is on its way and covers these
    const list = message.events || [];
    for (let i = 0; i < list.length; i += 1) {
      const seq = message.seq + i;
      const event = list[i];
      if (seq <= model.seq) {
        model.remember(event, seq);
        continue;
      }
      if (seq !== model.seq + 1) {
        // A gap (should not happen): ask again from the last event applied.
        this.connection.send({ type: "subscribe", tournament: this.tournament, table: model.table, since: model.seq });
        break;
      }
      model.apply(event, seq);
      if (model.needsSnapshot) {
        for (let j = i + 1; j < list.length; j += 1) model.note(list[j], message.seq + j);
        this.askSnapshot(model);
        break;
      }
    }
    this.changed(model);
  }

  changed(model) {
    this.save();
    this.onChange?.(model);
  }

  // --- commands --------------------------------------------------------------------------

  /**
   * Send a command for a table. With `after`, the server applies it only if the table has not
   * moved on since the view the station acted on (else it is refused as stale).
   * Returns the command id, or null when offline (nothing is sent or queued).
   */
  send(table, command, { after = false } = {}) {
    this.counter += 1;
    const id = `${this.prefix}-${this.counter}`;
    const message = { type: "command", id, tournament: this.tournament, table, command };
    const model = this.models.get(table);
    if (after && model?.seq != null) message.after = model.seq;
    if (!this.connection.send(message)) return null;
    this.pending.set(id, message);
    this.showUnanswered();
    return id;
  }

  replied(id, reply) {
    const message = this.pending.get(id);
    this.pending.delete(id);
    this.onReply?.({ ...reply, command: message?.command, table: message?.table });
    this.showUnanswered();
  }

  /** How many commands wait for the server's answer, on the page (`data-unanswered`): a
   * station can say it is still sending, and a test knows when an answer was handled. */
  showUnanswered() {
    document.body.dataset.unanswered = String(this.pending.size);
  }
}
