// Seven-card stud, stud/8 and razz at the stations (RP-10), without the DOM: which games are
// stud, the cards a seat holds in the order they lie in front of it (two down, the up-cards,
// seventh street down), who brings it in, the level in words and the short stub's procedure
// on seventh street (RP-10-H). The table model (table.js) and every station read it.
//
// A seat's `up` are its up-cards, public from the deal; its `cards` are its down-cards — every
// one the dealer entered in the staff view, in a display's only those the rules exposed (shown
// at the showdown, 14-A, or turned up all-in, 17).

export const STUD_GAMES = new Set(["7S", "7S8", "RAZZ"]);
export const STUD_STREETS = ["third", "fourth", "fifth", "sixth", "seventh"];
/** Stud deals at most eight hands (the engine's `too_many_hands`). */
export const MOST_HANDS = 8;

export function isStud(v) {
  return STUD_GAMES.has(v?.game);
}

/** The eight places of a stud table, in percent of the table area: seats 1 and 2 along the
 * bottom on the dealer's left, 3 to 6 along the top, 7 and 8 along the bottom on the right
 * (the dealer's place is bottom centre). `top` and `bottom` are the rows' heights. */
const STUD_COLUMNS = { 1: 37.5, 2: 12.5, 3: 12.5, 4: 37.5, 5: 62.5, 6: 87.5, 7: 87.5, 8: 62.5 };
export function studPlace(n, top, bottom) {
  return { x: STUD_COLUMNS[n], y: n >= 3 && n <= 6 ? top : bottom };
}

/** A stud table whose seats all fit the eight places of a stud table's layout. */
export function eightPlaces(v) {
  return isStud(v) && v.seats.every((s) => s.seat <= MOST_HANDS);
}

/** The down-cards the seat holds: two from third street, and seventh street's own unless it
 * came as one community card (RP-10-H B, C) or the seat was no longer in on seventh. */
export function downCount(v, s) {
  const seventh = v.street === "seventh" && !v.board.length && (s.up || []).length >= 4;
  return 2 + (seventh ? 1 : 0);
}

/**
 * The seat's cards in the order they lie in front of it: the two down-cards, the up-cards,
 * seventh street's down-card. `down` are the down-cards to draw face up (shown, exposed, or
 * held to see by the dealer), in the order they were dealt; any other down-card is a back
 * (`code` null). Each card is {code, up}.
 */
export function studHand(v, s, down = []) {
  const face = (i) => (down[i] && down[i] !== "??" ? down[i] : null);
  const cards = [{ code: face(0), up: false }, { code: face(1), up: false }];
  for (const code of s.up || []) cards.push({ code, up: true });
  if (downCount(v, s) > 2) cards.push({ code: face(2), up: false });
  return cards;
}

/** The seat owing the bring-in now (third street, nothing in yet), from the prompt. */
export function owesBringIn(prompt) {
  return prompt && prompt.bring_in > 0 && (prompt.options || []).includes("bring_in") ? prompt.seat : null;
}

/** "Ante 10 · Bring-in 20 · Limit 50/100": a stud level in words (`money` formats chips;
 * `short` leaves out the word "Limit"). */
export function studLevel(v, money, short = false) {
  const small = v.min_bet || 0;
  return [
    v.ante ? `Ante ${money(v.ante)}` : "",
    v.bring_in ? `Bring-in ${money(v.bring_in)}` : "",
    small ? `${short ? "" : "Limit "}${money(small)}/${money(2 * small)}` : "",
  ].filter(Boolean).join(" · ");
}

/** The short stub's procedure for seventh street as sixth street's `round_end` says it
 * ("… (RP-10-H B)"): "A", "B", "C", or "" when the stub is enough. */
export function procedureOf(event) {
  if (!(event.rules || []).includes("RP-10-H")) return "";
  const found = /\(RP-10-H ([ABC])\)/.exec(event.text || "");
  return found ? found[1] : "";
}

/** Seventh street is one community card every hand plays (RP-10-H B and C). */
export function communityCard(v) {
  return v.seventh === "B" || v.seventh === "C";
}

/** The seats the next stud hand deals in: every seat with chips (the engine's rule). */
export function dealtNext(v) {
  return v.seats.filter((s) => s.stack > 0 && !s.waiting).map((s) => s.seat);
}

/** What the dealer does on seventh street from a short stub, in a line (RP-10-H). */
export function procedureText(procedure) {
  return {
    A: "Short stub (RP-10-H A): mix the burns into the stub, cut, burn and deal each hand its card.",
    B: "Short stub (RP-10-H B): burn and turn one community card that every hand plays.",
    C: "Short stub (RP-10-H C): mix the burns into the stub, cut, burn and turn one community card.",
  }[procedure] || "";
}
