// A table as a station sees it, built by applying the table's events one by one (the same
// bookkeeping as server/engine/evolve.py) or taken whole from a `snapshot` (the typed view of
// protocol/views.py, built by server/views.py). The view has the fields of that snapshot; the
// model adds the current prompt, the open floor calls with their texts, and the event log.

import { describe, entryKind, fmt, words } from "./format.js";
import { applyHoldEvent, carryHolds, emptyHolds, holdsFromSnapshot, holdsOf } from "./table-holds.js";
import { isStud, procedureOf, studLevel } from "./stud.js";
import { blindLevel, drawProcedure, handSize, isDraw, PREDRAW } from "./draw.js";
import { shortChips } from "./display-words.js";

const LOG_KEEP = 300;
export const DEFAULT_CHIPS = [25, 100, 500, 1000, 5000, 25000, 100000];

function clone(value) {
  return value == null ? value : JSON.parse(JSON.stringify(value));
}

export function emptyView() {
  return {
    game: "",
    hand: 0,
    phase: "idle",
    street: "preflop",
    blinds: [0, 0],
    ante: 0,
    bba: false,
    button: 0,
    small_blind: null,
    big_blind: 0,
    board: [],
    to_act: null,
    current_bet: 0,
    pots: [],
    pot_total: 0,
    seats: [],
    floor: [],
    substantial_action: false,
    clock: null,
    exposed: false,
    next_street: "",
    next_level: null,
    awards: {},
    chips: null,
    out_of_turn: [],
    // Stud (RP-10): the level's bring-in and small bet, the seat that brought it in this hand,
    // and seventh street's procedure from a short stub (RP-10-H).
    bring_in: 0,
    min_bet: 0,
    bring_in_seat: null,
    seventh: "",
    // Draw games (RP-25): the stub, the draw waiting on a seat (its `draw_prompt`) and the
    // short stub's procedure of the draw under way, as its `drawn` event said it.
    stub: 0,
    draw_prompt: null,
    draw_note: null,
    muck: [], // the discards entered since the muck was last shuffled in (staff; 37-E)
    // A mixed table by orbit: its games, the one in play, the hands it deals and has dealt.
    rotation: [],
    turn: 0,
    orbit: 0,
    played: 0,
    ...emptyHolds(),
  };
}

function seatFrom(s) {
  const seat = {
    seat: s.seat,
    name: s.name || "",
    stack: s.stack || 0,
    bet: s.bet || 0,
    dealt: s.dealt ?? Boolean(s.in_hand || s.folded),
    folded: Boolean(s.folded),
    mucked: Boolean(s.mucked),
    shown: Boolean(s.shown),
    waiting: Boolean(s.waiting),
    cards: Array.isArray(s.cards) ? [...s.cards] : [],
    up: Array.isArray(s.up) ? [...s.up] : [],
    draws: Array.isArray(s.draws) ? [...s.draws] : [],
    penalty: s.penalty || 0,
  };
  return settle(seat);
}

/** The derived flags of a seat, as the snapshot's seat view (server/views.py) computes them. */
function settle(seat) {
  seat.in_hand = seat.dealt && !seat.folded && !seat.mucked;
  seat.all_in = seat.in_hand && seat.stack === 0;
  return seat;
}

/** A floor call: from a `floor_call` event or a snapshot's {call, seat, rule, options, pushed,
 * forfeit, blocking}, or an older server's positional [call, seat, rule, options, pushed, forfeit]. */
function callFrom(c) {
  if (Array.isArray(c)) {
    const [call, seat, rule, options, pushed, forfeit] = c;
    return { call, seat, rule, options: options || [], pushed: pushed || 0, forfeit: forfeit || 0, blocking: !NOTICE_RULES.has(rule), text: "" };
  }
  return {
    call: c.call,
    seat: c.seat,
    rule: c.rule,
    options: [...(c.options || [])],
    pushed: c.pushed || 0,
    forfeit: c.forfeit || 0,
    blocking: c.blocking !== false,
    text: c.text || "",
  };
}
// Floor calls the hand does not wait on (a penalty to consider): 60 and 61-A.
const NOTICE_RULES = new Set(["60", "61-A"]);

export function callText(call) {
  if (call.text) return call.text;
  const who = call.seat ? `seat ${call.seat}` : "the table";
  return `Floor, ${who}: ${call.options.map(words).join(" or ")} (${call.rule})`;
}

/** A stud level's bring-in and small bet, kept with the next level (RP-10); a mixed event's
 * next game (`level.game`). */
function studNext(level) {
  return {
    ...(level?.bring_in ? { bring_in: level.bring_in, min_bet: level.min_bet || 0 } : {}),
    ...(level?.game ? { game: level.game, min_bet: level.min_bet || 0 } : {}),
  };
}

/** A draw's procedure from a short stub (RP-25), kept while the draw goes on. */
function drawNote(e) {
  return drawProcedure(e) ? { seat: e.seat, street: e.street, procedure: drawProcedure(e), text: e.text || "", rules: [...(e.rules || [])] } : null;
}

function clockFrom(c) {
  if (!c) return null;
  if (Array.isArray(c)) return { seat: c[0], expires: c[1], deadline: c[1] - 5000 };
  return { seat: c.seat, expires: c.expires, deadline: c.deadline ?? c.expires - 5000 };
}

/** A hand as it ended: its board and seats (the cards shown), the pots with their winners
 * and the winners' hands in words, who is out, and when (ms) it ended. */
function heldHand(v, e) {
  const cards = Object.fromEntries(v.seats.filter((s) => s.cards.length).map((s) => [s.seat, [...s.cards]]));
  // Stud: the up-cards of the hands still in at the end, shown with them.
  const up = Object.fromEntries(v.seats.filter((s) => s.up?.length && (s.in_hand || s.shown)).map((s) => [s.seat, [...s.up]]));
  const busted = [...(e.busted || [])];
  const names = Object.fromEntries(v.seats.filter((s) => busted.includes(s.seat)).map((s) => [s.seat, s.name]));
  return { hand: e.hand, street: v.street, board: [...v.board], cards, up, names, pots: clone(e.pots || []), busted, ended: Date.now() };
}

/** After a snapshot, the history tells the hand that ended: its board, the cards shown, the
 * pots and who is out (heldHand; the names of those out are not in the snapshot). */
function recallHand(r, e) {
  const held = (r.held ||= { board: [], cards: {}, up: {}, folded: [], street: "", ended: null });
  if (e.type === "hand_start" || e.type === "misdeal") Object.assign(held, { board: [], cards: {}, up: clone(e.up || {}), folded: [], street: "", ended: null });
  if (e.type === "dealt") {
    held.board = [...(e.board || [])];
    held.street = e.street;
    for (const [seat, cards] of Object.entries(e.up || {})) held.up[seat] = [...(held.up[seat] || []), ...cards];
  }
  if (e.type === "action" && e.action === "fold") held.folded.push(e.seat);
  if (e.type === "shown" && !e.mucked && e.cards?.length) held.cards[e.seat] = [...e.cards];
  if (e.type === "expose_all") Object.assign(held.cards, clone(e.cards || {}));
  if (e.type === "hand_end" && !e.void) held.ended = e;
}

/** The game the next hand deals: a rotation's next game once the game in play has dealt its
 * orbit, the game a level announced, else the game in play (12-B, 25, RP-18). */
export function nextGame(v) {
  const rotation = v.rotation || [];
  if (rotation.length) {
    if (v.played && v.played < v.orbit) return v.game;
    return v.played ? rotation[(v.turn + 1) % rotation.length] : rotation[0];
  }
  return v.next_level?.game || v.game;
}

export class TableModel {
  constructor(tournament, table) {
    this.tournament = tournament;
    this.table = table;
    this.seq = null; // last event number applied; null until the first snapshot
    this.view = emptyView();
    this.prompt = null;
    this.log = []; // newest first: {seq, type, text, rules, kind, seat}
    this.base = null; // the view before the hand started: a misdeal or void hand goes back to it
    this.needsSnapshot = false; // an event the station could not apply itself
    this.promptFrom = 0; // after a snapshot: recover the prompt etc. from the history up to here
    this.recall = null;
    this.lastRuling = null;
    this.lastHand = null; // the hand just ended, as the table display holds it up (heldHand)
    this.lastRecorded = null; // the hand's last recorded command: a dealer may undo an `act`
    this.updated = 0;
  }

  // --- persistence (sessionStorage) ------------------------------------------------------

  toJSON() {
    return {
      tournament: this.tournament,
      table: this.table,
      seq: this.seq,
      view: this.view,
      prompt: this.prompt,
      log: this.log.slice(0, 100),
      base: this.base,
      lastRuling: this.lastRuling,
      promptFrom: this.promptFrom,
      lastRecorded: this.lastRecorded,
      lastHand: this.lastHand,
    };
  }

  static fromJSON(data) {
    const model = new TableModel(data.tournament, data.table);
    Object.assign(model, {
      seq: data.seq,
      view: { ...emptyView(), ...data.view },
      prompt: data.prompt,
      log: data.log || [],
      base: data.base,
      lastRuling: data.lastRuling || null,
      promptFrom: data.promptFrom || 0,
      lastRecorded: data.lastRecorded || null,
      lastHand: data.lastHand || null,
    });
    return model;
  }

  // --- a snapshot replaces the view --------------------------------------------------------

  loadSnapshot(state, seq) {
    const previous = this.view;
    const view = { ...emptyView(), ...state };
    view.seats = (state.seats || []).map(seatFrom);
    view.floor = (state.floor || []).map(callFrom);
    // Keep the texts and kinds of floor calls already known from their events.
    for (const call of view.floor) {
      const known = previous.floor.find((c) => c.call === call.call);
      if (known) Object.assign(call, { text: known.text, blocking: known.blocking });
    }
    view.clock = clockFrom(state.clock);
    view.awards = {};
    const next = state.next_level;
    view.next_level = next ? { blinds: [...next.blinds], ante: next.ante || 0, bba: Boolean(next.bba), ...studNext(next) } : null;
    view.chips = state.chips ?? previous.chips ?? null;
    Object.assign(view, holdsFromSnapshot(state, previous));
    this.view = view;
    this.seq = seq;
    this.base = null;
    this.needsSnapshot = false;
    this.prompt = state.prompt ?? null;
    // What the snapshot does not carry (who showed or mucked before, the pots already
    // awarded, floor call texts): the history up to `seq` tells it.
    this.promptFrom = seq;
    this.recall = null;
    this.lastRecorded = null;
    this.updated += 1;
  }

  // --- events ----------------------------------------------------------------------------

  /**
   * An event numbered at or before `seq` (the history): logged, and after a snapshot used to
   * recover what the snapshot does not carry — the current prompt, who showed or mucked,
   * the pots already awarded, the level announced for the next hand, floor call texts.
   */
  remember(event, seq) {
    this.note(event, seq);
    if (!this.promptFrom || seq > this.promptFrom) return;
    const r = (this.recall ||= { prompt: null, shown: [], mucked: [], awards: {}, level: null, hand: null });
    recallHand(r, event);
    switch (event.type) {
      case "prompt":
        r.prompt = event;
        break;
      case "hand_start":
        Object.assign(r, { prompt: null, shown: [], mucked: [], awards: {}, hand: event.hand, recorded: null, bringIn: null, drawNote: null });
        if (!event.redeal) r.level = null;
        break;
      case "hand_end":
      case "misdeal":
        Object.assign(r, { prompt: null, shown: [], mucked: [], awards: {}, recorded: null });
        break;
      case "round_end":
        r.prompt = null;
        break;
      case "recorded":
        r.recorded = event.command;
        break;
      case "shown":
        (event.mucked ? r.mucked : r.shown).push(event.seat);
        break;
      case "award":
        r.awards[event.pot] = [...event.winners];
        break;
      case "action":
        if (event.action === "bring_in") r.bringIn = event.seat;
        break;
      case "drawn":
        r.drawNote = drawNote(event) || r.drawNote || null;
        break;
      case "dealt":
        r.drawNote = null;
        break;
      case "level":
        r.level = { blinds: [...event.blinds], ante: event.ante || 0, bba: Boolean(event.bba), ...studNext(event) };
        break;
      default:
        break;
    }
    if (seq === this.promptFrom) this.recalled(r);
  }

  recalled(r) {
    const v = this.view;
    const ended = r.held?.ended;
    if (v.phase === "idle" && ended?.hand === v.hand) {
      const up = Object.fromEntries(Object.entries(r.held.up).filter(([seat]) => !r.held.folded.includes(Number(seat))));
      this.lastHand = { ...heldHand({ seats: [], board: r.held.board, street: r.held.street }, ended), cards: r.held.cards, up };
    }
    if (!this.prompt && r.prompt && v.phase === "betting" && v.to_act === r.prompt.seat) this.prompt = r.prompt;
    if (v.phase !== "idle" && (r.hand == null || r.hand === v.hand)) {
      for (const s of v.seats) {
        if (r.shown.includes(s.seat)) s.shown = true;
        if (r.mucked.includes(s.seat)) s.mucked = s.dealt = true;
        settle(s);
      }
      v.awards = { ...r.awards, ...v.awards };
      this.lastRecorded = r.recorded ?? null;
      if (r.bringIn != null) v.bring_in_seat = r.bringIn;
      if (v.phase === "draw" && r.drawNote) v.draw_note = r.drawNote;
    }
    if (!v.next_level && r.level) v.next_level = r.level;
    for (const call of v.floor) {
      const known = this.log.find((e) => e.type === "floor_call" && e.call === call.call);
      if (known) Object.assign(call, { text: known.text, blocking: known.blocking });
    }
    this.promptFrom = 0;
    this.recall = null;
    this.updated += 1;
  }

  /** Add an event to the log (once per number), newest first. */
  note(event, seq) {
    const line = describe(event);
    if (!line) return;
    if (this.log.some((e) => e.seq === seq)) return;
    const entry = {
      seq,
      type: event.type,
      text: line.text,
      rules: line.rules,
      kind: entryKind(event),
      seat: event.seat ?? null,
    };
    if (event.type === "floor_call") Object.assign(entry, { call: event.call, blocking: event.blocking !== false });
    let i = 0;
    while (i < this.log.length && this.log[i].seq > seq) i += 1;
    this.log.splice(i, 0, entry);
    if (this.log.length > LOG_KEEP) this.log.length = LOG_KEEP;
    if (["action", "ruling", "floor_call", "irregularity", "misdeal", "penalty", "correction", "clock", "out_of_turn", "round_end", "hand_end", "expose_all", "showdown", "shown", "award", "answer"].includes(event.type) || (event.type === "drawn" && line.rules.length)) {
      if (!this.lastRuling || this.lastRuling.seq < seq) this.lastRuling = entry;
    }
  }

  /** Apply event number `seq` (the next one). */
  apply(event, seq) {
    this.note(event, seq);
    this.seq = seq;
    this.updated += 1;
    try {
      this.evolve(event);
    } catch (error) {
      console.warn("cannot apply", event, error);
      this.needsSnapshot = true;
    }
  }

  seat(number) {
    const s = this.view.seats.find((x) => x.seat === number);
    if (!s) throw new Error(`no seat ${number}`);
    return s;
  }

  evolve(e) {
    const v = this.view;
    if (applyHoldEvent(v, e, (n) => v.seats.find((s) => s.seat === n)?.name || "")) return;
    switch (e.type) {
      case "prompt":
        v.to_act = e.seat;
        v.phase = "betting";
        this.prompt = e;
        break;
      case "recorded":
        this.lastRecorded = e.command;
        break;
      case "out_of_turn":
        if (e.act && e.action !== "fold") v.out_of_turn = [...(v.out_of_turn || []), { seat: e.seat, act: e.act, rule: e.rules?.[0] || "55" }];
        break;
      case "out_of_turn_released":
        v.out_of_turn = (v.out_of_turn || []).filter((p) => p.seat !== e.seat);
        break;
      case "action":
        this.action(e);
        break;
      case "hand_start":
        this.handStart(e);
        break;
      case "round_end":
        for (const [seat, amount] of Object.entries(e.returned || {})) {
          const s = this.seat(Number(seat));
          s.stack += amount;
          s.bet -= amount;
          settle(s);
        }
        v.to_act = null;
        this.prompt = null;
        v.clock = null;
        v.next_street = e.next;
        v.seventh = procedureOf(e);
        v.pots = [...(e.pots || [])];
        v.phase = e.next === "showdown" ? "showdown" : e.next === "" ? "over" : "deal";
        break;
      case "draw_prompt":
        // Draw games: the seat to draw (RP-25-D); no betting prompt meanwhile.
        v.to_act = e.seat;
        v.phase = "draw";
        v.draw_prompt = clone(e);
        v.stub = e.stub ?? v.stub;
        this.prompt = null;
        break;
      case "drawn":
        this.drawn(e);
        break;
      case "dealt":
        v.draw_prompt = null;
        v.draw_note = null;
        for (const s of v.seats) {
          v.pot_total += s.bet;
          s.bet = 0;
        }
        // Stud: each hand's up-card, and seventh street's down-cards where the station sees
        // them (staff; a display is never sent them).
        for (const [seat, cards] of Object.entries(e.up || {})) {
          const s = v.seats.find((x) => x.seat === Number(seat));
          if (s) s.up = [...(s.up || []), ...cards];
        }
        for (const [seat, cards] of Object.entries(e.down || {})) {
          const s = v.seats.find((x) => x.seat === Number(seat));
          if (s) s.cards = [...s.cards, ...cards];
        }
        v.seventh = "";
        v.board = [...(e.board || [])];
        v.street = e.street;
        v.current_bet = 0;
        v.next_street = "";
        v.phase = "betting";
        break;
      case "shown": {
        const s = this.seat(e.seat);
        if (e.mucked) s.mucked = true;
        else {
          s.shown = true;
          if (e.cards?.length) s.cards = [...e.cards];
        }
        settle(s);
        break;
      }
      case "expose_all":
        v.exposed = true;
        // Should the server send the exposed hands with the event, they are public now.
        for (const [seat, cards] of Object.entries(e.cards || {})) {
          const s = v.seats.find((x) => x.seat === Number(seat));
          if (s && cards?.length) s.cards = [...cards];
        }
        break;
      case "substantial_action":
        v.substantial_action = true;
        break;
      case "floor_call": {
        const call = callFrom(e);
        v.floor = [...v.floor.filter((c) => c.call !== call.call), call];
        if (call.blocking) {
          v.phase = "floor";
          v.to_act = null;
          this.prompt = null;
        }
        break;
      }
      case "ruling": {
        const call = v.floor.find((c) => c.call === e.call);
        v.floor = v.floor.filter((c) => c.call !== e.call);
        if (call && !call.blocking) break;
        v.phase = v.floor.some((c) => c.blocking) ? "floor" : "betting";
        break;
      }
      case "clock":
        v.clock = { seat: e.seat, at: e.at, deadline: e.deadline, expires: e.expires };
        break;
      case "irregularity":
        if (e.kind === "flop_not_burned" && e.burn) {
          v.board = [...e.board];
          v.phase = "deal";
          v.next_street = "flop";
          v.street = "preflop";
        }
        break;
      case "award":
        v.awards = { ...v.awards, [e.pot]: [...e.winners] };
        break;
      case "hand_end":
        if (e.void) this.restore();
        else this.handEnd(e);
        break;
      case "misdeal":
        this.restore();
        break;
      case "correction":
        // The event carries the re-derived hand: back to the table before the hand, then its
        // events. An old correction without them needs a fresh snapshot.
        if (!e.events) {
          this.needsSnapshot = true;
          this.prompt = null;
          break;
        }
        this.restore();
        for (const redone of e.events) this.evolve(redone);
        break;
      case "penalty": {
        const s = this.seat(e.seat);
        if (e.hands_left) s.penalty = e.hands_left;
        if (e.removed) {
          s.stack -= e.removed;
          settle(s);
        }
        if (e.kind === "disqualify") v.seats = v.seats.filter((x) => x.seat !== e.seat);
        break;
      }
      case "penalty_end": {
        const s = v.seats.find((x) => x.seat === e.seat);
        if (s) s.penalty = 0;
        break;
      }
      case "player_added":
        v.seats = [...v.seats.filter((s) => s.seat !== e.seat), seatFrom({ seat: e.seat, stack: e.stack, name: e.name, waiting: e.waits ?? true })]
          .sort((a, b) => a.seat - b.seat);
        break;
      case "player_removed":
        v.seats = v.seats.filter((s) => s.seat !== e.seat);
        break;
      case "level":
        v.next_level = { blinds: [...e.blinds], ante: e.ante || 0, bba: Boolean(e.bba), ...studNext(e) };
        break;
      default:
        break;
    }
  }

  action(e) {
    const v = this.view;
    const s = this.seat(e.seat);
    s.stack -= e.total - s.bet;
    s.bet = e.total;
    if (!e.forced) {
      v.to_act = null;
      this.prompt = null;
    }
    if (v.clock && v.clock.seat === e.seat) v.clock = null;
    v.out_of_turn = (v.out_of_turn || []).filter((p) => p.seat !== e.seat);
    if (e.action === "fold") s.folded = true;
    settle(s);
    if (e.action === "bring_in") {
      // Stud: the bring-in opens third street, forced too (an absent seat's, 32).
      v.bring_in_seat = e.seat;
      v.current_bet = Math.max(v.current_bet, e.total);
    }
    if (e.action === "fold" || e.forced) return;
    if (e.total > v.current_bet) v.current_bet = e.total;
  }

  /** A seat drew: its count (public), the stub left and, where the station sees them (staff),
   * the new cards in place of the discards; a hand drawn without them is unknown until it is
   * tabled (as the engine keeps it). */
  drawn(e) {
    const v = this.view;
    const s = this.seat(e.seat);
    s.draws = [...(s.draws || []), e.count];
    if (e.count && s.cards.length) {
      const thrown = e.thrown || [];
      const cards = e.cards || [];
      const kept = s.cards.filter((c) => !thrown.includes(c));
      const known = thrown.length && cards.length && ![...thrown, ...cards].includes("??");
      s.cards = known && kept.length + e.count === s.cards.length ? [...kept, ...cards] : [];
    }
    // RP-25-C shuffles the muck (folded hands and discards) into the stub: none of it is out.
    if ((e.rules || []).includes("RP-25-C")) {
      v.muck = [];
      for (const x of v.seats) if (x.dealt && !x.in_hand) x.cards = [];
    }
    v.muck = [...(v.muck || []), ...(e.thrown || []).filter((c) => c !== "??")];
    v.stub = e.stub ?? v.stub;
    v.to_act = null;
    v.draw_prompt = null;
    v.draw_note = drawNote(e) || v.draw_note;
  }

  handStart(e) {
    const v = this.view;
    this.base = clone({ ...v, floor: v.floor.filter((c) => !c.blocking) });
    v.hand = e.hand;
    v.button = e.button;
    v.small_blind = e.small_blind;
    v.big_blind = e.big_blind;
    const level = { blinds: [...e.blinds], ante: e.ante || 0, bba: Boolean(e.bba) };
    const next = v.next_level;
    if (!e.redeal || (next && JSON.stringify(next) === JSON.stringify({ ...level, ...studNext(next) }))) v.next_level = null;
    v.blinds = level.blinds;
    v.ante = level.ante;
    v.bba = level.bba;
    const dealt = new Set(e.dealt || []);
    const cards = e.cards || {};
    const up = e.up || {};
    // A mixed event changes the game between hands: the hand says its game when it changed;
    // a rotation's game says its place and how many hands it deals when it starts.
    if (e.game) v.game = e.game;
    if (e.orbit) Object.assign(v, { turn: e.turn || 0, orbit: e.orbit, played: e.redeal ? v.played : 1 });
    else if (v.rotation?.length && !e.redeal) v.played = (v.played || 0) + 1;
    const stud = isStud(v) || Object.keys(up).length > 0;
    if (stud) Object.assign(v, { bring_in: e.bring_in ?? v.bring_in, min_bet: e.min_bet || v.min_bet, bring_in_seat: null, seventh: "" });
    else Object.assign(v, { bring_in: 0, min_bet: e.min_bet || v.min_bet });
    const draw = isDraw(v);
    for (const s of v.seats) {
      s.bet = 0;
      s.dealt = dealt.has(s.seat);
      s.folded = s.shown = s.mucked = false;
      s.cards = [...(cards[s.seat] || cards[String(s.seat)] || [])];
      s.up = [...(up[s.seat] || up[String(s.seat)] || [])];
      s.draws = [];
      if (s.dealt) s.waiting = false;
      if (s.penalty && s.dealt) s.penalty -= 1;
    }
    let middle = 0;
    for (const p of e.posts || []) {
      const s = this.seat(p.seat);
      s.stack -= p.amount;
      if (p.kind === "ante") middle += p.amount;
      else s.bet += p.amount;
    }
    v.seats.forEach(settle);
    v.pot_total = middle;
    v.pots = [];
    v.street = stud ? "third" : draw ? PREDRAW : "preflop";
    // Draw games: the stub is what the deal left (52 less the hands, RP-25).
    v.stub = draw ? 52 - handSize(v.game) * dealt.size : 0;
    v.draw_prompt = null;
    v.draw_note = null;
    v.muck = [];
    v.board = [];
    v.next_street = "";
    v.current_bet = stud ? 0 : e.blinds[1];
    v.phase = "betting";
    v.to_act = null;
    this.prompt = null;
    v.exposed = false;
    v.floor = v.floor.filter((c) => !c.blocking);
    v.awards = {};
    v.clock = null;
    v.substantial_action = false;
    v.out_of_turn = [];
    this.lastRecorded = null;
  }

  handEnd(e) {
    const v = this.view;
    this.lastHand = heldHand(v, e);
    const names = new Map(v.seats.map((s) => [s.seat, s.name]));
    this.lastPush = { hand: e.hand, pots: e.pots || [], busted: (e.busted || []).map((n) => ({ seat: n, name: names.get(n) || "" })) };
    const busted = new Set(e.busted || []);
    for (const s of v.seats) {
      const stack = e.stacks?.[s.seat] ?? e.stacks?.[String(s.seat)];
      if (stack != null) s.stack = stack;
      s.bet = 0;
      s.dealt = s.folded = s.shown = s.mucked = false;
      s.cards = [];
      s.up = [];
      s.draws = [];
      settle(s);
    }
    v.seats = v.seats.filter((s) => !busted.has(s.seat));
    v.phase = "idle";
    v.to_act = null;
    this.prompt = null;
    v.floor = v.floor.filter((c) => !c.blocking);
    v.pot_total = 0;
    v.pots = [];
    v.current_bet = 0;
    v.awards = {};
    v.clock = null;
    v.out_of_turn = [];
    v.bring_in_seat = null;
    v.seventh = "";
    v.draw_prompt = null;
    v.draw_note = null;
    this.base = null;
    this.lastRecorded = null;
  }

  restore() {
    if (!this.base) throw new Error("the table before this hand is not known here");
    const announced = this.view.next_level;
    const chips = this.view.chips;
    const now = this.view;
    this.view = { ...clone(this.base), chips };
    carryHolds(now, this.view);
    this.view.next_level = announced || this.view.next_level;
    this.prompt = null;
    this.base = null;
    this.lastRecorded = null;
  }

  // --- what the stations show ------------------------------------------------------------

  /** The last event number the view is complete for (null while a snapshot or the history
   * after it is on its way): stations expose it as `data-seq` for tests and tools. */
  get syncedSeq() {
    return this.seq != null && !this.awaiting && !this.promptFrom ? this.seq : null;
  }

  /** Chips in the middle and in front of the seats. */
  get potWithBets() {
    return this.view.pot_total + this.view.seats.reduce((sum, s) => sum + s.bet, 0);
  }

  get openCalls() {
    return this.view.floor;
  }

  get chipSet() {
    const url = new URLSearchParams(location.search).get("chips");
    const fromUrl = url ? url.split(",").map(Number).filter((n) => n > 0) : null;
    return this.view.chips || fromUrl || DEFAULT_CHIPS;
  }

  /** Whom the table waits on, in words. */
  get waitingOn() {
    const v = this.view;
    const call = v.floor.find((c) => c.blocking);
    if (v.phase === "floor" && call) return `Floor: call ${call.call}${call.seat ? `, seat ${call.seat}` : ""} (${call.rule})`;
    if (v.phase === "betting" && v.to_act != null) return `Seat ${v.to_act} to act`;
    if (v.phase === "draw" && v.to_act != null) return `Seat ${v.to_act} to draw`;
    if (v.phase === "deal") return `Dealer: deal the ${v.next_street}`;
    if (v.phase === "showdown") return "Dealer: show, muck or award";
    if (v.cards_held) return "Floor: release the all-in (hand-for-hand, RP-8-F)";
    if (v.phase === "idle" && v.holds?.length) {
      const { h4h, others } = holdsOf(v);
      const rule = others[0]?.rules?.[0];
      return h4h ? "Hand-for-hand: waiting" : `Held by the tournament${rule ? ` (${rule})` : ""}`;
    }
    if (v.phase === "idle") return v.hand ? "Between hands" : "Waiting for the first hand";
    return "";
  }

  /** The level in words; `short`: chips as 1.5M and no "Limit" (a narrow header). */
  levelText(short = false) {
    const v = this.view;
    if (isStud(v)) return short ? studLevel(v, shortChips, true) : studLevel(v, fmt);
    if (isDraw(v)) return short ? blindLevel(v, shortChips, true) : blindLevel(v, fmt);
    const parts = [];
    if (v.blinds?.[1]) parts.push(`Blinds ${fmt(v.blinds[0])}/${fmt(v.blinds[1])}`);
    if (v.ante) parts.push(`${v.bba ? "BB ante" : "Ante"} ${fmt(v.ante)}`);
    if (v.bring_in) parts.push(`Bring-in ${fmt(v.bring_in)}`);
    return parts.join(" · ");
  }
}
