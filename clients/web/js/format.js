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

const STREET_NAMES = { preflop: "Pre-flop", flop: "Flop", turn: "Turn", river: "River", showdown: "Showdown" };
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
    case "recorded":
      return null;
    case "dealt":
      text = `${streetName(event.street)} dealt${event.cards?.length ? ": " + event.cards.join(" ") : ""}`;
      break;
    case "shown":
      text = event.mucked
        ? `Seat ${event.seat} mucks`
        : `Seat ${event.seat} shows${event.cards?.length ? " " + event.cards.join(" ") : ""}`;
      break;
    case "award":
      text = `Pot ${event.pot} (${fmt(event.amount)}) to seat ${event.winners.join(", ")}`;
      break;
    case "hand_end":
      text = event.void
        ? `Hand ${event.hand} void: every bet goes back`
        : `Hand ${event.hand} over${text ? ": " + text : ""}`;
      break;
    case "player_added":
      text = `Seat ${event.seat}: ${event.name || "a player"} sits down with ${fmt(event.stack)}`;
      break;
    case "player_removed":
      text = `Seat ${event.seat} leaves the table`;
      break;
    case "level":
      text = `Next hand: blinds ${fmt(event.blinds[0])}/${fmt(event.blinds[1])}` +
        (event.ante ? `, ${event.bba ? "big-blind ante" : "ante"} ${fmt(event.ante)}` : "");
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
  return { text, rules };
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
