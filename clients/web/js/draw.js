// The draw games at the stations (RP-17, RP-25), without the DOM: which games draw, how many
// cards a hand holds, the draws of a seat in words ("drew 2 · pat · drew 1"), the streets
// named as the players say them ("After the first draw"), the level in words ("Limit
// 100/200") and the short stub's procedures (RP-25 A-C).
//
// The draws are public (the players see how many each draws, RP-25-D); the cards thrown and
// dealt are the staff's alone: a display is never sent them (server/views.public_event).

import { streetName } from "./format.js";

export const DRAW_GAMES = new Set(["27TD", "27SD", "BADUGI"]);
/** The fixed-limit games whose small bet is the big blind: the level reads "Limit 100/200". */
const LIMIT_GAMES = new Set(["LHE", "LO8", "27TD", "BADUGI"]);

export function isDraw(v) {
  return DRAW_GAMES.has(v?.game);
}

export function isLimit(v) {
  return LIMIT_GAMES.has(v?.game);
}

/** The cards a hand holds: five, badugi four. */
export function handSize(game) {
  return game === "BADUGI" ? 4 : 5;
}

/** The draws of a hand: triple draw three, single draw one. */
export function drawsOf(game) {
  return game === "27TD" || game === "BADUGI" ? 3 : 1;
}

/** The first street of the hand: the betting before the draw. */
export const PREDRAW = "predraw";

const ORDINAL = { first_draw: "first draw", second_draw: "second draw", third_draw: "third draw", draw: "draw" };

/** How the players say a draw: "first draw", "draw" (single draw). */
export function drawName(street) {
  return ORDINAL[street] || String(street || "").replaceAll("_", " ");
}

/** A draw game's betting round by its street: "Before the draw", "After the first draw". */
export function roundName(street) {
  if (street === PREDRAW) return "Before the draw";
  if (ORDINAL[street]) return `After the ${ORDINAL[street]}`;
  return "";
}

/** What the table is doing in words: the draw under way ("First draw") while a seat draws,
 * else the betting round ("After the first draw"). */
export function drawStreet(v) {
  if (v.phase === "draw" && v.draw_prompt?.street) {
    const name = drawName(v.draw_prompt.street);
    return name[0].toUpperCase() + name.slice(1);
  }
  return roundName(v.street);
}

/** One draw in words: "pat" or "drew 2". */
export function drawWord(count) {
  return count ? `drew ${count}` : "pat";
}

/** "drew 2 · pat · drew 1": a seat's draws this hand ("" before its first). */
export function drawsText(draws) {
  return (draws || []).map(drawWord).join(" · ");
}

/** "Draws 2·pat·1": a seat's draws on a narrow seat (the dealer's oval). */
export function drawsShort(draws) {
  return draws?.length ? `Draws ${draws.map((k) => (k ? String(k) : "pat")).join("·")}` : "";
}

/** The level of a draw game (or any flop game) in words: "Limit 100/200" in the limit games,
 * else "Blinds 50/100", with the ante. `money` formats chips; `short` leaves out "Limit" and
 * "Blinds" (a narrow header). */
export function blindLevel(v, money, short = false) {
  const parts = [];
  const small = v.min_bet || v.blinds?.[1] || 0;
  if (isLimit(v) && small) parts.push(`${short ? "" : "Limit "}${money(small)}/${money(2 * small)}`);
  else if (v.blinds?.[1]) parts.push(`${short ? "" : "Blinds "}${money(v.blinds[0])}/${money(v.blinds[1])}`);
  if (v.ante) parts.push(`${v.bba ? "BB ante" : "Ante"} ${money(v.ante)}`);
  return parts.join(" · ");
}

/** The short stub's procedure a `drawn` event names (RP-25 A, B or C), or "". */
export function drawProcedure(event) {
  const rule = (event?.rules || []).find((r) => /^RP-25-[ABC]$/.test(r));
  return rule ? rule.slice(-1) : "";
}

/** What the dealer does for each procedure of a short stub (RP-25), in a line. */
export function drawProcedureText(procedure) {
  return {
    A: "Short stub (RP-25-A): the stub's last card completes the draw.",
    B: "Short stub (RP-25-B): mix the stub and the burns into a new stub; burn one unless every card is needed.",
    C: "Short stub (RP-25-C): shuffle the stub, the burns and the muck (not this seat's discards), burn one and deal.",
  }[procedure] || "";
}

/** The street in words at any station: a draw game's draw or betting round, else the
 * street's name ("Flop", "Third street"). */
export function streetNow(v) {
  return (isDraw(v) && drawStreet(v)) || streetName(v.street);
}
