// The tournament as a screen shows it, without the DOM: the clock face (what the clock says at
// a moment, from the server's `clock` view), and the tournament model (a `tournament_snapshot`
// with the `tournament_events` after it applied, as server/tournament/evolve.py applies them).
//
// The clock. A `clock` message carries the ClockView with `now`, the server's time when it was
// sent. `ClockModel.update` keeps the offset between that and this machine's clock, measured
// when the message arrived; every screen then counts down from `ends_at` in the server's time,
// so two screens agree to the second whatever their own clocks say. When a running step's
// `ends_at` passes, the face shows what comes next at once (the next level starts the moment
// the step ended, 25-A) and says so (`predicted`) until the server's clock confirms it.

import { fmt, gameName } from "./format.js";

export const ALIVE = new Set(["registered", "seated"]);

/** "12:34", "1:02:03", "0:00": whole seconds, rounded up (0:01 shows until the last second ends). */
export function timeText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

/** "100/200": the blinds, or a stud level's limits (its small bet and twice it, RP-10); the
 * ante: "Ante 200", "BB ante 200", a stud level's "Ante 25 · Bring-in 50", or "". */
export function blindsText(level) {
  if (!level) return "";
  if (level.bring_in) return `${fmt(level.min_bet)}/${fmt(2 * level.min_bet)}`;
  return `${fmt(level.blinds[0])}/${fmt(level.blinds[1])}`;
}

export function anteText(level) {
  const bringIn = level?.bring_in ? `Bring-in ${fmt(level.bring_in)}` : "";
  if (!level?.ante) return bringIn;
  return [`${level.bba ? "BB ante" : "Ante"} ${fmt(level.ante)}`, bringIn].filter(Boolean).join(" · ");
}

/** "Blinds" or, for a stud level, "Limits". */
export function blindsLabel(level) {
  return level?.bring_in ? "Limits" : "Blinds";
}

/** The level's game when it is not no-limit hold'em ("Razz"), else "". */
export function levelGame(level) {
  return level?.game && level.game !== "NLHE" ? gameName(level.game) : "";
}

/** "Level 3 · 100/200 · BB ante 200"; "Level 5 · Seven-card stud · 200/400 · Ante 50 · Bring-in 50" */
export function levelLine(level) {
  if (!level) return "";
  return [`Level ${level.level}`, levelGame(level), blindsText(level), anteText(level)].filter(Boolean).join(" · ");
}

const STATE_WORDS = {
  not_started: "Not started",
  running: "Running",
  paused: "Paused",
  break: "Break",
  finished: "Finished",
};

/**
 * What the clock shows at `serverNow` (ms, the server's time): the step, the level, the time
 * left, what comes next. A running step whose end has passed is shown as the step after it
 * (`predicted: true`) until the server's clock says so itself.
 */
export function clockFace(clock, serverNow) {
  if (!clock) return null;
  let state = clock.state;
  let level = clock.level;
  let onBreak = Boolean(clock.on_break);
  let endsAt = clock.ends_at || 0;
  let next = clock.next_level;
  let nextIsBreak = Boolean(clock.next_is_break);
  let step = clock.step || 0;
  let predicted = false;
  const runs = state === "running" || state === "break";
  if (runs && endsAt && serverNow >= endsAt) {
    if (onBreak ? next : next || nextIsBreak) {
      predicted = true;
      step += 1;
      if (!onBreak && nextIsBreak) {
        // A break: how long it lasts comes with the server's clock, a moment later.
        onBreak = true;
        state = "break";
        endsAt = 0;
      } else {
        level = next;
        onBreak = false;
        state = "running";
        endsAt = next.minutes ? endsAt + next.minutes * 60_000 : 0;
        next = null;
        nextIsBreak = false;
      }
    }
  }
  let remaining = 0;
  if (state === "paused") remaining = clock.remaining || 0;
  else if (state === "not_started") remaining = (level?.minutes || 0) * 60_000;
  else if (state !== "finished" && endsAt) remaining = Math.max(0, endsAt - serverNow);
  // A level counted in hands, the last level (it plays on) and a break whose length the
  // server has not said yet have no countdown.
  const timed = state === "paused" || state === "not_started" ? remaining > 0 : state !== "finished" && endsAt > 0;
  const breakAt = !predicted || (clock.next_break_at && clock.next_break_at > serverNow) ? clock.next_break_at || 0 : 0;
  return {
    state,
    stateText: STATE_WORDS[state] || state,
    onBreak,
    step,
    predicted,
    level,
    next: predicted ? null : next,
    nextIsBreak: predicted ? false : nextIsBreak,
    timed,
    hands: !timed && level?.hands ? (predicted ? level.hands : clock.hands_left) : 0,
    remaining,
    time: timed ? timeText(remaining) : "",
    endsAt: state === "running" || state === "break" ? endsAt : 0,
    toBreak: breakAt && state === "running" ? Math.max(0, breakAt - serverNow) : 0,
    breakMinutes: onBreak && !predicted ? clock.break_minutes : 0,
  };
}

/** Milliseconds until what `face` shows changes next (the next second of its countdown). */
export function untilNextChange(face) {
  if (!face || !face.endsAt) return 1000;
  const left = face.remaining % 1000;
  return (left === 0 ? 1000 : left) + 5;
}

export class ClockModel {
  constructor() {
    this.view = null;
    this.offset = 0; // this machine's time minus the server's, when the last clock arrived
    this.receivedAt = 0;
  }

  /** A clock view from the server (a `clock` message, or a snapshot's `clock`). */
  update(view, localNow = Date.now()) {
    if (!view) return;
    this.view = view;
    if (view.now) this.offset = localNow - view.now;
    this.receivedAt = localNow;
  }

  serverNow(localNow = Date.now()) {
    return localNow - this.offset;
  }

  face(localNow = Date.now()) {
    return clockFace(this.view, this.serverNow(localNow));
  }

  /** When (this machine's ms) the step on the face ends; 0 when it is not counting down. */
  endsLocal(localNow = Date.now()) {
    const face = this.face(localNow);
    return face?.endsAt ? face.endsAt + this.offset : 0;
  }
}

// --- the tournament --------------------------------------------------------------------------

function copy(value) {
  return value == null ? value : JSON.parse(JSON.stringify(value));
}

function player(p) {
  return {
    player: p.player,
    name: p.name || "",
    status: p.status,
    entry: p.entry || 0,
    table: p.table ?? null,
    seat: p.seat ?? null,
    stack: p.stack || 0,
    place: p.place || 0,
    prize: p.prize || 0,
    bounties: p.bounties || 0,
    absent: Boolean(p.absent),
  };
}

/** Events that change the prize pool or the payout table the way only the structure tells
 * (the payout table before registration closes, a guarantee): a fresh snapshot says it. */
const MONEY = new Set(["registered", "unregistered", "chips_added"]);

export class TournamentModel {
  constructor(tournament) {
    this.tournament = tournament;
    this.seq = null;
    this.view = null;
    this.guarantee = 0;
    this.lastSeated = null; // the latest `seated` event
    this.entryOf = new Map(); // player -> the `registered` event of the entry seen last
    this.log = []; // {seq, type, text}, newest first
    this.stale = false; // a fresh snapshot would say more than the events (the payouts)
  }

  get known() {
    return this.view != null && this.seq != null;
  }

  loadSnapshot(state, seq) {
    const v = copy(state);
    v.players = (v.players || []).map(player);
    v.tables = v.tables || [];
    v.payouts = v.payouts || [];
    this.view = v;
    this.seq = seq;
    this.stale = false;
  }

  /** Apply the events numbered `seq`, `seq + 1`, ...: "gap" when some are missing (ask again
   * from `this.seq`), else "ok"; events already applied are skipped. */
  applyEvents(events, seq) {
    if (!this.known) return "gap";
    for (let i = 0; i < events.length; i += 1) {
      const n = seq + i;
      if (n <= this.seq) continue;
      if (n !== this.seq + 1) return "gap";
      this.apply(events[i], n);
      this.seq = n;
    }
    return "ok";
  }

  find(id) {
    return this.view.players.find((p) => p.player === id);
  }

  apply(e, seq) {
    const v = this.view;
    if (e.text) {
      this.log.unshift({ seq, type: e.type, text: e.text, rules: e.rules || [] });
      this.log.length = Math.min(this.log.length, 200);
    }
    if (MONEY.has(e.type) && v.registration_open) this.stale = true;
    switch (e.type) {
      case "table_opened":
        v.tables = [...v.tables.filter((t) => t.table !== e.table), { table: e.table, seats: e.seats, players: 0 }];
        break;
      case "table_closed":
        v.tables = v.tables.filter((t) => t.table !== e.table);
        break;
      case "registered": {
        const old = this.find(e.player);
        const fresh = player({ player: e.player, name: e.name, status: "registered", entry: e.entry, bounties: old?.bounties });
        v.players = [...v.players.filter((p) => p.player !== e.player), fresh];
        v.entries += 1;
        this.entryOf.set(e.player, e);
        if (e.pool != null) v.prize_pool = Math.max(e.pool, this.guarantee);
        break;
      }
      case "alternate_listed":
        v.players = [...v.players.filter((p) => p.player !== e.player), player({ player: e.player, name: e.name, status: "alternate" })];
        break;
      case "unregistered": {
        const p = this.find(e.player);
        if (!p) break;
        if (p.status === "alternate") {
          v.players = v.players.filter((x) => x.player !== e.player);
          break;
        }
        if (p.status === "seated") v.chips_in_play -= p.stack;
        this.unseat(p);
        v.entries -= 1;
        if (e.pool != null) v.prize_pool = Math.max(e.pool, this.guarantee);
        if (p.entry > 1) Object.assign(p, { entry: p.entry - 1, status: "eliminated", stack: 0 });
        else v.players = v.players.filter((x) => x.player !== e.player);
        break;
      }
      case "seated": {
        const p = this.find(e.player);
        if (!p) break;
        this.seat(p, e.table, e.seat);
        p.stack = e.stack;
        v.chips_in_play += e.stack;
        this.lastSeated = { ...e, seq };
        break;
      }
      case "moved": {
        const p = this.find(e.player);
        if (!p) break;
        this.unseat(p);
        this.seat(p, e.table, e.seat);
        break;
      }
      case "hand_counted":
        for (const [seat, stack] of Object.entries(e.stacks || {})) {
          const p = v.players.find((x) => x.table === e.table && x.seat === Number(seat) && x.status === "seated");
          if (p) p.stack = stack;
        }
        break;
      case "eliminated": {
        const p = this.find(e.player);
        if (!p) break;
        this.unseat(p);
        Object.assign(p, { status: "eliminated", stack: 0, place: e.place || 0, prize: e.prize || 0 });
        break;
      }
      case "placed": {
        const p = this.find(e.player);
        if (p && p.entry === e.entry) Object.assign(p, { place: e.place, prize: e.prize || 0 });
        break;
      }
      case "bounty": {
        const each = Math.floor(e.amount / e.to.length);
        e.to.forEach((who, i) => {
          const p = this.find(who);
          if (p) p.bounties += each + (i === 0 ? e.amount % e.to.length : 0);
        });
        break;
      }
      case "winner": {
        const p = this.find(e.player);
        if (p) Object.assign(p, { place: 1, prize: e.prize, bounties: p.bounties + (e.bounty || 0) });
        v.finished = true;
        break;
      }
      case "registration_closed":
        v.registration_open = false;
        v.payouts = [...(e.prizes || [])];
        this.guarantee = e.guarantee || 0;
        v.prize_pool = e.pool;
        this.stale = false;
        break;
      case "chips_added": {
        const p = this.find(e.player);
        if (p) p.stack += e.chips;
        v.chips_in_play += e.chips;
        if (e.pool) v.prize_pool = Math.max(e.pool, this.guarantee);
        break;
      }
      case "chips_removed": {
        const p = this.find(e.player);
        v.chips_in_play -= e.chips;
        if (!p) break;
        p.stack -= e.chips;
        if (e.kind === "forfeit") {
          this.unseat(p);
          p.status = "eliminated";
        }
        break;
      }
      case "disqualified": {
        const p = this.find(e.player);
        v.chips_in_play -= e.chips;
        if (!p) break;
        this.unseat(p);
        Object.assign(p, { status: "disqualified", stack: 0, place: 0, prize: 0 });
        break;
      }
      case "absence": {
        const p = this.find(e.player);
        if (p) p.absent = e.absent;
        break;
      }
      default:
        break;
    }
    this.settle();
  }

  seat(p, table, seat) {
    Object.assign(p, { table, seat, status: "seated" });
    const t = this.view.tables.find((x) => x.table === table);
    if (t) t.players += 1;
  }

  unseat(p) {
    if (p.table != null) {
      const t = this.view.tables.find((x) => x.table === p.table);
      if (t) t.players = Math.max(0, t.players - 1);
    }
    p.table = null;
    p.seat = null;
  }

  /** The figures the players make (as server/tournament_views.py counts them). */
  settle() {
    const v = this.view;
    const alive = v.players.filter((p) => ALIVE.has(p.status));
    const seated = alive.filter((p) => p.status === "seated").length;
    v.players_left = alive.length;
    v.average_stack = seated ? Math.floor(v.chips_in_play / seated) : 0;
  }

  /** Players whose name (or id) contains every word typed, best first. */
  search(text) {
    const words = String(text || "").toLowerCase().split(/\s+/).filter(Boolean);
    if (!words.length || !this.view) return [];
    const hits = this.view.players.filter((p) => words.every((w) => `${p.name} ${p.player}`.toLowerCase().includes(w)));
    const starts = (p) => (p.name.toLowerCase().startsWith(words[0]) ? 0 : 1);
    return hits.sort((a, b) => starts(a) - starts(b) || a.name.localeCompare(b.name));
  }

  /** The tables holding players, in table order. */
  get liveTables() {
    return this.view.tables.filter((t) => t.players > 0);
  }

  /** One table left with players, registration closed, more than one player: the final table. */
  get finalTable() {
    const v = this.view;
    return Boolean(v && !v.finished && !v.registration_open && v.players_left > 1 && this.liveTables.length === 1);
  }
}

/** "1st", "2nd", "3rd", "11th" ... */
export function ordinal(n) {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
  return `${n}${suffix}`;
}

/** The payout table as lines, places sharing a prize grouped: [["1st", 3900], ["4th–6th", 500]]. */
export function payoutLines(payouts) {
  const lines = [];
  let i = 0;
  while (i < payouts.length) {
    let j = i;
    while (j + 1 < payouts.length && payouts[j + 1] === payouts[i]) j += 1;
    lines.push([i === j ? ordinal(i + 1) : `${ordinal(i + 1)}–${ordinal(j + 1)}`, payouts[i]]);
    i = j + 1;
  }
  return lines;
}
