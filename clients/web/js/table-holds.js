// What the tournament tells one table about play across the tables, kept on the table's view
// (and saved with it): the holds — no new hand until each is released: hand-for-hand (RP-8),
// a balancing move or a break between hands (12-A, 11-B), a table stopped short (12-D) —,
// hand-for-hand itself and the all-in it keeps face down (RP-8-F), and the seats that just
// changed hands (a player moved away or sat down: a move, a break, a registration).
//
// A snapshot carries none of it but `waiting_on`, which reads "held: REASON (RULE)" for the first
// hold between hands: what a station knew from the events is kept, else read back from that.

/** The view's fields this module keeps. */
export function emptyHolds() {
  return { holds: [], hand_for_hand: false, cards_held: false, seat_changes: [] };
}

const HELD = "held: ";
const RULE_AT_END = /\(((?:RP-)?\d+(?:-[A-Z])?)\)$/;

/** The fields after a snapshot `state`, from what `previous` (the view before it) knew. */
export function holdsFromSnapshot(state, previous) {
  const kept = { ...emptyHolds(), ...pick(previous) };
  const waiting = String(state.waiting_on || "");
  kept.cards_held = waiting.startsWith("floor: release the all-in");
  if (waiting.startsWith(HELD)) {
    // "held: REASON (RULE)": the rule comes off the reason, as a hold event has them.
    const said = waiting.slice(HELD.length);
    const rules = ruleOf(said);
    const reason = rules.length ? said.replace(RULE_AT_END, "").trimEnd() : said;
    if (!kept.holds.some((x) => x.reason === reason)) kept.holds = [{ hold: "", reason, rules }, ...kept.holds];
    if (reason.startsWith("hand-for-hand")) kept.hand_for_hand = true;
  } else if (state.phase === "idle") {
    kept.holds = [];
  }
  if (kept.cards_held) kept.hand_for_hand = true;
  return kept;
}

function pick(view) {
  if (!view) return {};
  const { holds = [], hand_for_hand = false, cards_held = false, seat_changes = [] } = view;
  return { holds, hand_for_hand, cards_held, seat_changes };
}

function ruleOf(reason) {
  const m = RULE_AT_END.exec(reason);
  return m ? [m[1]] : [];
}

/**
 * Apply one table event to the view's hold fields; `nameAt(seat)` is the seat's name before
 * the event. True when the event was one of these (the caller applies the rest itself).
 */
export function applyHoldEvent(v, e, nameAt) {
  switch (e.type) {
    case "hands_held":
      v.holds = [...(v.holds || []).filter((x) => x.hold !== e.hold), { hold: e.hold, reason: e.reason || "", rules: e.rules || [] }];
      if (e.hold === "h4h") v.hand_for_hand = true;
      return true;
    case "hands_released":
      // A hold read back from a snapshot has no name: any release may be it.
      v.holds = (v.holds || []).filter((x) => x.hold !== e.hold && x.hold !== "");
      return true;
    case "hand_for_hand":
      v.hand_for_hand = Boolean(e.on);
      if (!e.on) v.cards_held = false;
      return true;
    case "cards_held":
      v.cards_held = true;
      return true;
    case "cards_released":
      v.cards_held = false;
      return true;
    case "player_removed":
      changed(v, { kind: "left", seat: e.seat, name: nameAt(e.seat), stack: e.stack || 0 });
      return false;
    case "player_added":
      changed(v, { kind: "joined", seat: e.seat, name: e.name || "", stack: e.stack || 0 });
      return false;
    case "hand_end":
      // The seats that changed before this hand have been seen through a whole hand.
      v.seat_changes = (v.seat_changes || []).filter((c) => c.hand >= e.hand);
      v.cards_held = false;
      return false;
    default:
      return false;
  }
}

function changed(v, change) {
  const list = (v.seat_changes || []).filter((c) => c.seat !== change.seat || c.kind !== change.kind);
  v.seat_changes = [...list, { ...change, hand: v.hand || 0 }].slice(-6);
}

/** The fields a misdeal or a correction keeps when the table goes back to before the hand. */
export function carryHolds(from, to) {
  Object.assign(to, pick(from));
  to.cards_held = false;
}

/** "Seat 4: Ann Lee leaves the table with 20,000" — `fmt` formats the chips. */
export function seatChangeText(c, fmt) {
  const who = c.name || "the player";
  return c.kind === "left"
    ? `Seat ${c.seat}: ${who} leaves the table${c.stack ? ` with ${fmt(c.stack)}` : ""}`
    : `Seat ${c.seat}: ${who} joins the table${c.stack ? ` with ${fmt(c.stack)}` : ""}`;
}

/** The hand-for-hand hold, and the others, of a view. */
export function holdsOf(v) {
  const holds = v.holds || [];
  return { h4h: holds.find((x) => x.hold === "h4h" || x.reason.startsWith("hand-for-hand")), others: holds.filter((x) => x.hold !== "h4h" && !x.reason.startsWith("hand-for-hand")) };
}
