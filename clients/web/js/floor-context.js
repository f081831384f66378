// What the floor monitor knows of a table beyond its view: the commands the dealer recorded
// this hand (what a floor call's seat said and pushed, what a correction would void), the
// log entries a correction voided, and since when each floor call has been open.
//
// FloorFeed is the station's feed: it keeps the few events this needs (`recorded`,
// `hand_start`, `floor_call`, `correction`) by number as they arrive, the history sent after
// a snapshot included, and works the context out from them when asked.

import { Feed } from "./feed.js";

const KEPT = new Set(["recorded", "hand_start", "floor_call", "correction"]);
const KEEP_AT_MOST = 600;
const SEEN_KEY = "tablewire:floor:seen";

export class FloorFeed extends Feed {
  constructor(options) {
    super(options);
    this.kept = new Map(); // table -> Map(seq -> event)
    this.seen = readSeen();
  }

  /** Tables restored from the tab's storage resume from their last event: their recent
   * history is asked for as well, which this context is worked out from. */
  welcomed(welcome) {
    super.welcomed(welcome);
    for (const m of this.models.values()) {
      if (m.seq > 0 && !m.awaiting && !m.historyAsked && !this.kept.has(m.table)) this.askHistory(m);
    }
  }

  events(message) {
    let kept = this.kept.get(message.table);
    if (!kept) this.kept.set(message.table, (kept = new Map()));
    (message.events || []).forEach((event, i) => {
      if (KEPT.has(event.type)) kept.set(message.seq + i, event);
    });
    if (kept.size > KEEP_AT_MOST) {
      const old = [...kept.keys()].sort((a, b) => a - b).slice(0, kept.size - KEEP_AT_MOST);
      for (const seq of old) kept.delete(seq);
    }
    super.events(message);
  }

  /** The table's hand so far: its recorded commands [{seq, command}], what the seat of each
   * floor call did just before it (call id -> command), and the voided event numbers. */
  context(table) {
    const hand = { recorded: [], said: new Map(), voided: new Set() };
    const kept = this.kept.get(table) || new Map();
    const voids = [];
    for (const seq of [...kept.keys()].sort((a, b) => a - b)) {
      const event = kept.get(seq);
      if (event.type === "hand_start") hand.recorded = [];
      else if (event.type === "recorded") hand.recorded.push({ seq, command: event.command });
      else if (event.type === "floor_call") {
        const last = hand.recorded[hand.recorded.length - 1]?.command;
        if (last?.type === "act" && last.seat === event.seat) hand.said.set(event.call, last);
      } else if (event.type === "correction") {
        // history[0] is the hand's start, which has no `recorded` event.
        const first = hand.recorded[event.keep - 1];
        if (first) voids.push([first.seq, seq]);
        hand.recorded = hand.recorded.slice(0, Math.max(0, event.keep - 1));
      }
    }
    hand.isVoided = (seq) => voids.some(([from, to]) => seq >= from && seq < to);
    return hand;
  }

  /** The first event number a correction of the last `count` actions would void, or null
   * when this station does not know the hand that far back. */
  voidsFrom(table, count) {
    const acts = this.context(table).recorded.filter((r) => r.command.type === "act");
    return count >= 1 && count <= acts.length ? acts[acts.length - count].seq : null;
  }

  /** When this station first saw floor call `call` of `table` open (ms); kept for the tab. */
  openSince(table, call, now) {
    const key = `${table}:${call}`;
    if (!this.seen[key]) {
      this.seen[key] = now;
      writeSeen(this.seen);
    }
    return this.seen[key];
  }

  /** Forget the calls no longer open. */
  closeCalls(open) {
    const keys = Object.keys(this.seen).filter((key) => !open.has(key));
    for (const key of keys) delete this.seen[key];
    if (keys.length) writeSeen(this.seen);
  }
}

function readSeen() {
  try {
    return JSON.parse(sessionStorage.getItem(SEEN_KEY) || "{}") || {};
  } catch {
    return {};
  }
}

function writeSeen(seen) {
  try {
    sessionStorage.setItem(SEEN_KEY, JSON.stringify(seen));
  } catch {
    /* storage full: the waiting times start over after a reload */
  }
}

/** The name in the station's token (`tablewire token --name`): rulings are recorded as ruled
 * by it. The claims are the token's first part, base64url JSON; "" when it has none. */
export function tokenName() {
  try {
    const body = (sessionStorage.getItem("tablewire:token") || "").split(".")[0];
    const json = atob(body.replaceAll("-", "+").replaceAll("_", "/"));
    const text = new TextDecoder().decode(Uint8Array.from(json, (c) => c.charCodeAt(0)));
    return String(JSON.parse(text).name || "");
  } catch {
    return "";
  }
}
