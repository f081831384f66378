// The table as the overhead display draws it: ten places on the rail of a wide oval (four
// along the top, four along the bottom, one at each end; the dealer's place bottom centre),
// each seat with its number, name, stack (127.3M and in big blinds), D/SB/BB, the seat's
// state, and its cards: face up when the rules exposed them, else card backs for a live hand.
// Bets sit between the seats and the middle, where the pot and the board are.
//
// Stud (RP-10): eight places (four along the top, four along the bottom), each hand as it lies
// — the down-cards as backs, the up-cards face up in the order they were dealt — the seat that
// brings it in, and seventh street's community card in the middle when the stub ran short
// (RP-10-H). A down-card is drawn face up only when the display was sent it: shown at the
// showdown or turned up all-in.

import { cardsLabel, gameName } from "./format.js";
import { card, clockLeft, h, seatLabel, seatState, studCards } from "./ui.js";
import { fitText, inBigBlinds, shortChips } from "./display-words.js";
import { resultLines, winnersOf } from "./display-result.js";
import { eightPlaces, isStud, owesBringIn, studPlace } from "./stud.js";
import { drawsText, handSize, isDraw } from "./draw.js";

// Where each seat and its bet sit, in percent of the table area.
const PLACES = {
  1: [39, 87], 2: [16, 87], 3: [10, 50], 4: [16, 13], 5: [39, 13],
  6: [61, 13], 7: [84, 13], 8: [90, 50], 9: [84, 87], 10: [61, 87],
};
const BETS = {
  1: [39, 69], 2: [16, 69], 3: [27, 50], 4: [16, 31], 5: [39, 31],
  6: [61, 31], 7: [84, 31], 8: [73, 50], 9: [84, 69], 10: [61, 69],
};
// A stud table's eight places (stud.js studPlace): four along the top, four along the bottom,
// wider seats for seven cards a hand.
const STUD_PLACES = Object.fromEntries([1, 2, 3, 4, 5, 6, 7, 8].map((n) => [n, Object.values(studPlace(n, 14, 86))]));
const STUD_BETS = Object.fromEntries([1, 2, 3, 4, 5, 6, 7, 8].map((n) => [n, Object.values(studPlace(n, 33, 67))]));

// A draw game's hand is a row taller (its draws under its backs): the top row hangs from the
// top edge and the bottom row stands on the bottom edge, so a seat grows towards the middle;
// the bets sit nearer the middle (DRAW_BETS).
const TOP_ROW = new Set([4, 5, 6, 7]);
const BOTTOM_ROW = new Set([1, 2, 9, 10]);
const DRAW_PLACES = Object.fromEntries(Object.entries(PLACES).map(([n, [x, y]]) => [n, [x, TOP_ROW.has(Number(n)) ? 1 : BOTTOM_ROW.has(Number(n)) ? 99 : y]]));
const DRAW_BETS = {
  1: [39, 66], 2: [24, 66], 3: [27, 50], 4: [24, 34], 5: [39, 34],
  6: [61, 34], 7: [76, 34], 8: [73, 50], 9: [76, 66], 10: [61, 66],
};
// A draw table of up to eight seats takes the eight wide places of a stud table (three draws
// in words need the width), its rows on the edges, the bets nearer the middle.
const DRAW8_PLACES = Object.fromEntries([1, 2, 3, 4, 5, 6, 7, 8].map((n) => [n, Object.values(studPlace(n, 1, 99))]));
const DRAW8_BETS = Object.fromEntries([1, 2, 3, 4, 5, 6, 7, 8].map((n) => [n, Object.values(studPlace(n, 40, 60))]));

function rowOf(n, eight) {
  if (eight) return n >= 3 && n <= 6 ? "top" : "bottom";
  return TOP_ROW.has(n) ? "top" : BOTTOM_ROW.has(n) ? "bottom" : "side";
}

// Games dealing four hole cards (the card backs drawn for a live hand).
const FOUR_CARD_GAMES = new Set(["NLO", "PLO", "PLO8", "LO8"]);

const at = ([x, y]) => ({ left: `${x}%`, top: `${y}%` });

function markers(v, n) {
  const out = [];
  if (isStud(v)) {
    // No button and no blinds in stud; the seat that brought it in, on third street.
    if (v.bring_in_seat === n && v.street === "third") out.push(h("span", { class: "marker bring-in", "aria-hidden": "true" }, "Bring-in"));
    return out;
  }
  if (v.button === n) out.push(h("span", { class: "marker button", "aria-hidden": "true" }, "D"));
  if (v.small_blind === n) out.push(h("span", { class: "marker sb", "aria-hidden": "true" }, "SB"));
  if (v.big_blind === n) out.push(h("span", { class: "marker bb", "aria-hidden": "true" }, "BB"));
  return out;
}

function holeCards(v, s) {
  if (isStud(v)) {
    if (!(s.in_hand || s.shown || s.result) || (v.phase === "idle" && !s.result) || !(s.up?.length || s.cards?.length)) return [];
    return [studCards(v, s, s.cards || [], "small")];
  }
  if (s.cards?.length) return s.cards.map((c) => card(c, "small"));
  if (!s.in_hand || v.phase === "idle") return [];
  // Draw games: five backs (badugi four); the display is never sent a drawn card (RP-25-D).
  const n = isDraw(v) ? handSize(v.game) : FOUR_CARD_GAMES.has(v.game) ? 4 : 2;
  return [h("span", { class: "backs", role: "img", "aria-label": `${n} cards face down` },
    Array.from({ length: n }, () => h("span", { class: "card small back" })))];
}

/** The flag of the seat to act: its clock, or in stud the bring-in it owes. */
function actFlag(v, model, n, clocked) {
  if (clocked) return clockLeft(v.clock);
  if (isStud(v) && owesBringIn(model.prompt) === n) return `Bring in ${shortChips(model.prompt.bring_in)}`;
  return v.phase === "draw" ? "To draw" : "To act";
}

function seatBox(v, s, { live, won, model, places, result }) {
  const n = s.seat;
  const classes = ["seat"];
  if (live && v.to_act === n) classes.push("to-act");
  if (s.folded || s.mucked || (live && v.hand && v.phase !== "idle" && !s.in_hand)) classes.push("out");
  if (live && s.all_in) classes.push("all-in");
  if (won) classes.push("winner");
  const clocked = live && v.clock?.seat === n;
  const state = won ? "Winner" : seatState(v, s);
  const flag = live && v.to_act === n ? h("span", { class: "act-flag" }, actFlag(v, model, n, clocked)) : null;
  const name = h("span", { class: "name", dataset: { full: s.name || `Seat ${n}` } });
  const cards = holeCards(result ? { ...v, street: result.street, board: result.board } : v, s);
  // Draw games: each draw of the hand in play, public ("drew 2 · pat · drew 1").
  const draws = live && isDraw(v) && v.phase !== "idle" && s.draws?.length
    ? h("div", { class: "draws" }, s.draws.flatMap((count, i) => [i ? " " : null, h("span", {}, `${i ? "· " : ""}${drawsText([count])}`)]))
    : null;
  return h(
    "div",
    { class: classes.join(" "), style: at(places[n]), role: "group", "aria-label": seatLabel(v, s, clocked ? "on the clock" : ""), dataset: { seat: n, row: rowOf(n, places === DRAW8_PLACES) } },
    h("div", { class: "seat-head" }, h("span", { class: "seat-no" }, `${n}`), name),
    h("div", { class: "stack-line" }, h("span", { class: "stack" }, shortChips(s.stack)), h("span", { class: "in-bb" }, inBigBlinds(s.stack, v.blinds?.[1]))),
    h("div", { class: "seat-foot" }, live ? markers(v, n) : [], flag || (state ? h("span", { class: "state" }, state) : null)),
    cards.length ? h("div", { class: "hole" }, cards) : null,
    draws,
  );
}

/** The place of a player who went out in the hand held up: name, "Out" and the hand. */
function goneBox(v, result, n, places) {
  const name = result.names?.[n] || `Seat ${n}`;
  const stud = isStud(v) && (result.up?.[n]?.length || result.cards[n]?.length);
  const hole = stud
    ? [studCards({ ...v, street: result.street, board: result.board }, { up: result.up?.[n] || [] }, result.cards[n] || [], "small")]
    : (result.cards[n] || []).map((c) => card(c, "small"));
  return h(
    "div",
    { class: "seat out gone", style: at(places[n]), role: "group", "aria-label": `Seat ${n}, ${name}, out`, dataset: { place: n, row: rowOf(n, places === DRAW8_PLACES) } },
    h("div", { class: "seat-head" }, h("span", { class: "seat-no" }, `${n}`), h("span", { class: "name", dataset: { full: name } })),
    h("div", { class: "seat-foot" }, h("span", { class: "state" }, "Out")),
    hole.length ? h("div", { class: "hole" }, hole) : null,
  );
}

function centre(v, model, result) {
  const board = result ? result.board : v.board;
  const playing = v.hand && v.phase !== "idle";
  const top = result
    ? h("div", { class: "result", "aria-live": "polite" }, resultLines(result))
    : [
        playing ? h("div", { class: "pot" }, h("span", { class: "pot-label" }, "Pot "), h("span", { id: "pot" }, shortChips(model.potWithBets))) : null,
        playing && v.pots.length > 1 ? h("div", { class: "pots" }, v.pots.map((p, i) => h("span", {}, `${i ? `Side pot ${i}` : "Main"} ${shortChips(p)}`))) : null,
      ];
  // Stud's one community card (RP-10-H) is named as such.
  const community = isStud(v) && board.length;
  return h(
    "div",
    { class: result ? "centre held" : "centre" },
    // The game in play, named on every table (a mixed event changes it between hands).
    v.game ? h("div", { class: "game-name", id: "game" }, gameName(v.game)) : null,
    top,
    community ? h("div", { class: "community-label" }, "Community card") : null,
    h("div", { class: "board", id: "board", role: "group", "aria-label": board.length ? `${community ? "Community card" : "Board"}: ${cardsLabel(board)}` : "Board: no cards" }, board.map((c) => card(c))),
  );
}

/** Draw the table into `container`: the live view, with the ended hand `result` (its cards,
 * winners, the players out and the result lines) while it is held between hands. */
export function renderDisplayTable(container, model, result) {
  const v = model.view;
  const won = result ? winnersOf(result) : new Set();
  const eight = eightPlaces(v);
  const draw = isDraw(v);
  const drawEight = draw && v.seats.every((s) => s.seat <= 8);
  const places = eight ? STUD_PLACES : drawEight ? DRAW8_PLACES : draw ? DRAW_PLACES : PLACES;
  const bets = eight ? STUD_BETS : drawEight ? DRAW8_BETS : draw ? DRAW_BETS : BETS;
  container.classList.toggle("stud", isStud(v));
  container.classList.toggle("draw", draw);
  container.classList.toggle("eight", eight || drawEight);
  container.dataset.rows = drawEight ? "eight" : "ten";
  const nodes = [h("div", { class: "felt", "aria-hidden": "true" })];
  for (const live of v.seats) {
    const s = result ? { ...live, cards: result.cards[live.seat] || [], up: result.up?.[live.seat] || [], result: Boolean(result.up?.[live.seat] || result.cards[live.seat]) } : live;
    nodes.push(seatBox(v, s, { live: !result, won: won.has(s.seat), model, places, result }));
    // A draw game's bets are pulled into the pot before the draw (the pot counts them).
    if (s.bet && v.phase !== "draw") nodes.push(h("div", { class: "bet", style: at(bets[s.seat]), dataset: { seat: s.seat }, "aria-hidden": "true" }, shortChips(s.bet)));
  }
  for (const n of result?.busted || []) if (places[n]) nodes.push(goneBox(v, result, n, places));
  // A dead button (34) sits on an empty seat's place; stud has no button.
  if (!result && !isStud(v) && v.hand && v.button && !v.seats.some((s) => s.seat === v.button)) {
    nodes.push(h("div", { class: "dead-button", style: at((drawEight ? STUD_PLACES : PLACES)[v.button]), role: "img", "aria-label": `Dead button on seat ${v.button}` }, h("span", { class: "marker button" }, "D"), " Dead button"));
  }
  nodes.push(centre(v, model, result));
  container.replaceChildren(...nodes);
  for (const el of container.querySelectorAll(".seat .name")) fitText(el, el.dataset.full);
}
