// Formatting shared by every station: chip amounts, cards, rule numbers, event texts.

export function fmt(n) {
  return Number(n ?? 0).toLocaleString("en-US");
}

const SUITS = {
  h: { symbol: "♥", name: "hearts", color: "red" },
  d: { symbol: "♦", name: "diamonds", color: "red" },
  c: { symbol: "♣", name: "clubs", color: "black" },
  s: { symbol: "♠", name: "spades", color: "black" },
};
const RANKS = {
  A: "Ace", K: "King", Q: "Queen", J: "Jack", T: "Ten", "10": "Ten",
  9: "Nine", 8: "Eight", 7: "Seven", 6: "Six", 5: "Five", 4: "Four", 3: "Three", 2: "Two",
};

/** "Ah" -> {rank: "A", suit: {...}, label: "Ace of hearts"} (null when unreadable). */
export function parseCard(code) {
  if (typeof code !== "string" || code.length < 2) return null;
  const suit = SUITS[code.slice(-1).toLowerCase()];
  const rank = code.slice(0, -1).toUpperCase();
  if (!suit || !RANKS[rank]) return null;
  return { rank: rank === "T" ? "10" : rank, suit, label: `${RANKS[rank]} of ${suit.name}` };
}

/** Cards typed by the dealer: "Ah Kd 7c", "ah,kd,7c" or "AhKd7c" -> ["Ah", "Kd", "7c"]. */
export function readCards(text) {
  const compact = String(text || "").replace(/[\s,;]+/g, "");
  const found = compact.match(/(10|[2-9TJQKA])[hdcs]/gi) || [];
  if (found.join("").length !== compact.length) return null;
  return found.map((c) => c.slice(0, -1).toUpperCase().replace("10", "T") + c.slice(-1).toLowerCase());
}

export function cardsLabel(cards) {
  return cards.map((c) => parseCard(c)?.label ?? c).join(", ");
}

export function words(option) {
  return String(option).replaceAll("_", " ");
}

export function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

export function rulesOf(event) {
  if (Array.isArray(event.rules)) return event.rules.filter(Boolean);
  if (event.rule) return [event.rule];
  return [];
}

const STREET_NAMES = {
  preflop: "Pre-flop", flop: "Flop", turn: "Turn", river: "River", showdown: "Showdown",
  // Stud (RP-10)
  third: "Third street", fourth: "Fourth street", fifth: "Fifth street", sixth: "Sixth street", seventh: "Seventh street",
  // The draw games' betting rounds (RP-25): a street is the betting after its draw.
  predraw: "Before the draw", first_draw: "After the first draw", second_draw: "After the second draw",
  third_draw: "After the third draw", draw: "After the draw",
};
const DRAW_STREETS = new Set(["first_draw", "second_draw", "third_draw", "draw"]);
export function streetName(street) {
  return STREET_NAMES[street] ?? capital(street || "");
}

/** What the log shows for an event: a line of text (null: not logged) and its rule numbers. */
export function describe(event) {
  const t = event.type;
  const rules = rulesOf(event);
  let text = event.text || "";
  switch (t) {
    case "prompt":
    case "draw_prompt":
    case "recorded":
      return null;
    case "dealt":
      text = dealtText(event);
      break;
    case "shown":
      text = event.mucked
        ? `Seat ${event.seat} mucks`
        : `Seat ${event.seat} shows${event.cards?.length ? " " + event.cards.join(" ") : ""}`;
      break;
    case "award":
      text = `${capital(potName(event.pot))} of ${fmt(event.amount)} to ${seatsText(event.winners)}`;
      break;
    case "hand_end":
      text = event.void
        ? `Hand ${event.hand} void: every bet goes back`
        : `Hand ${event.hand} over${text ? ": " + text : ""}`;
      break;
    case "player_added":
      text = `Seat ${event.seat}: ${event.name || "a player"} sits down with ${fmt(event.stack)}${event.text ? ` (${event.text})` : ""}`;
      break;
    case "player_removed":
      text = `Seat ${event.seat} leaves the table`;
      break;
    case "level":
      text = "Next hand: " + [
        event.game ? gameName(event.game) : "",
        event.blinds[1] ? `blinds ${fmt(event.blinds[0])}/${fmt(event.blinds[1])}` : "",
        event.ante ? `${event.bba ? "big-blind ante" : "ante"} ${fmt(event.ante)}` : "",
        event.bring_in ? `bring-in ${fmt(event.bring_in)}, small bet ${fmt(event.min_bet)}` : "",
      ].filter(Boolean).join(", ");
      break;
    case "penalty_end":
      text = text || `Seat ${event.seat}: penalty served`;
      break;
    case "out_of_turn_released":
      text = text || `Seat ${event.seat}: out-of-turn action not binding`;
      break;
    case "error":
      text = `Refused: ${event.message}`;
      break;
    case "answer":
      text = text || `Seat ${event.seat}: ${event.answer}`;
      break;
    default:
      if (!text) text = capital(words(t));
  }
  return { text: plain(text), rules };
}

/** A street dealt: the board's cards; in stud each hand's up-card ("Fourth street: Kh to seat
 * 1, 9s to seat 3") or seventh street face down, never a down-card; a short stub's community
 * card with the procedure (RP-10-H). */
function dealtText(event) {
  // A draw complete: the engine's words count each seat's draw and the stub, never a card.
  if (DRAW_STREETS.has(event.street) && event.text) return event.text;
  const name = streetName(event.street);
  const up = Object.entries(event.up || {});
  if (up.length) return `${name}: ${up.map(([seat, cards]) => `${cards.join(" ")} to seat ${seat}`).join(", ")}`;
  if (event.street === "seventh") {
    const why = event.text ? `. ${capital(event.text.replace(/^Seventh street: /, ""))}` : "";
    const card = event.cards?.filter((c) => c !== "??").join(" ");
    if (event.cards?.length) return `${name}: community card ${card || "(not entered)"}${why}`;
    return `${name} dealt face down${why}`;
  }
  return `${name} dealt${event.cards?.length ? ": " + event.cards.join(" ") : ""}`;
}

const GAME_NAMES = {
  NLHE: "No-limit Hold'em", PLHE: "Pot-limit Hold'em", LHE: "Limit Hold'em", NLO: "No-limit Omaha",
  PLO: "Pot-limit Omaha", PLO8: "Pot-limit Omaha Hi-Lo", LO8: "Limit Omaha Hi-Lo", "7S": "Seven-card stud",
  "7S8": "Stud hi-lo", RAZZ: "Razz", "27TD": "2-7 Triple Draw", "27SD": "No-limit 2-7 Single Draw", BADUGI: "Badugi",
};
/** A game's name as the stations show it: "2-7 Triple Draw" for 27TD, "Seven-card stud" for
 * 7S (the code itself for a game this station does not know). */
export function gameName(game) {
  return GAME_NAMES[game] || game || "";
}

/** "the main pot" for pot 0, then "side pot 1", "side pot 2" ... */
export function potName(pot) {
  return pot ? `side pot ${pot}` : "the main pot";
}

/** "seat 2", "seats 2 and 5", "seats 1, 2 and 5"; "the table" for seat 0. */
export function seatsText(seats) {
  const list = [...seats].filter((s) => s !== 0);
  if (!list.length) return "the table";
  if (list.length === 1) return `seat ${list[0]}`;
  return `seats ${list.slice(0, -1).join(", ")} and ${list[list.length - 1]}`;
}

/** Chips pushed, largest first: [1000, 100, 100] -> "1,000 + 2 × 100 = 1,200". */
export function chipsText(chips) {
  const counts = new Map();
  for (const c of [...chips].sort((a, b) => b - a)) counts.set(c, (counts.get(c) || 0) + 1);
  const parts = [...counts].map(([c, n]) => (n > 1 ? `${n} × ${fmt(c)}` : fmt(c)));
  const total = chips.reduce((sum, c) => sum + c, 0);
  return parts.length > 1 || chips.length > 1 ? `${parts.join(" + ")} = ${fmt(total)}` : fmt(total);
}

/**
 * An engine text as a station shows it: chip lists ("[1,000, 100]") as sums, no "seat 0"
 * (the table), no "forfeiting 0", and a seat's share said as "seat 1 gets 1,000".
 */
export function plain(text) {
  return String(text)
    .replace(/\[((?:\d{1,3}(?:,\d{3})*)(?:, \d{1,3}(?:,\d{3})*)*)\]/g, (_, list) => chipsText(list.split(", ").map((n) => Number(n.replaceAll(",", "")))))
    .replace(/, or a fold forfeiting 0\b/g, ", or a fold")
    .replace(/\bseat 0\b/gi, (m) => (m[0] === "S" ? "The table" : "the table"))
    .replace(/\b(seat \d+) (\d)/gi, "$1 gets $2");
}

/** What the dealer recorded, in words: "Seat 4 said raise 1,200 and pushed 1,000 + 2 × 100 = 1,200". */
export function recordedText(command) {
  const who = command.seat ? `Seat ${command.seat}` : "The dealer";
  switch (command.type) {
    case "act": {
      const said = [command.declare && words(command.declare), command.amount != null && fmt(command.amount)].filter(Boolean).join(" ");
      const pushed = command.chips?.length ? `pushed ${chipsText(command.chips)}` : "";
      if (said && pushed) return `${who} said ${said} and ${pushed}${command.first === "together" ? "" : `, ${command.first === "chips" ? "chips" : "words"} first`}`;
      if (said) return `${who} said ${said}`;
      return pushed ? `${who} ${pushed} without a word` : `${who} acted`;
    }
    case "deal":
      return `${capital(command.street)} dealt`;
    case "show":
      return `Seat ${command.seat} shows`;
    case "muck":
      return `Seat ${command.seat} mucks`;
    case "award":
      return `${capital(potName(command.pot))} to ${seatsText(command.winners || [])}`;
    case "ruling":
      return `Floor ruling on call ${command.call}: ${words(command.option)}`;
    case "irregularity":
      return `${capital(words(command.kind))}${command.seat ? `, seat ${command.seat}` : ""}`;
    case "clock":
      return command.seat ? `Clock called on seat ${command.seat}` : "Clock called on the seat to act";
    case "time":
      return "Time checked";
    default:
      return capital(words(command.type));
  }
}

/** The lines a floor call shows besides its text: who, their stack and chips in front, what
 * the call is about in chips. `seat` is the seat's view ({name, stack, bet}) or null; `facing`
 * the bet to call, when the call is about chips pushed. */
export function callContext(call, seat, facing = 0) {
  const lines = [];
  if (call.seat) {
    const parts = [`Seat ${call.seat}`];
    if (seat?.name) parts.push(seat.name);
    if (seat) parts.push(`stack ${fmt(seat.stack)}`);
    if (seat?.bet) parts.push(`${fmt(seat.bet)} in front`);
    lines.push(parts.join(" · "));
  } else lines.push("The whole table");
  const chips = [call.pushed && facing ? `facing ${fmt(facing)}` : "", call.pushed ? `pushed ${fmt(call.pushed)}` : "", call.forfeit ? `a fold forfeits ${fmt(call.forfeit)}` : ""].filter(Boolean);
  if (chips.length) lines.push(capital(chips.join(" · ")));
  return lines;
}

/** How long a floor call has waited: "waiting 0:07", "waiting 12:30". */
export function waitedText(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `waiting ${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The kind of entry, for styling: rulings stand out from plain actions. */
export function entryKind(event) {
  switch (event.type) {
    case "floor_call":
      return "floor";
    case "ruling":
    case "irregularity":
    case "misdeal":
    case "penalty":
    case "correction":
    case "out_of_turn":
    case "clock":
      return "ruling";
    case "error":
      return "error";
    case "hand_start":
    case "hand_end":
      return "hand";
    default:
      return (event.rules || []).length ? "ruling" : "plain";
  }
}
