// What the table display says, in as few characters as a screen read from five metres
// needs: chip amounts (127.3M), stacks in big blinds, who won each pot with which hand, who
// is out; and names shortened to the width they have.

import { fmt } from "./format.js";

/** 36,200 below a million; 1.5M, 127.3M; 2.25B. */
export function shortChips(n) {
  const value = Number(n ?? 0);
  const unit = [[1e9, "B"], [1e6, "M"]].find(([size]) => Math.abs(value) >= size);
  if (!unit) return fmt(value);
  const [size, letter] = unit;
  const digits = value / size >= 100 ? 1 : 2;
  return `${Number((value / size).toFixed(digits)).toLocaleString("en-US")}${letter}`;
}

/** "64 BB", "8.5 BB"; "" without a big blind or without chips. */
export function inBigBlinds(stack, bigBlind) {
  if (!bigBlind || !stack) return "";
  const bb = stack / bigBlind;
  return `${Number(bb.toFixed(bb < 10 ? 1 : 0)).toLocaleString("en-US")} BB`;
}

function potName(index) {
  return index ? `side pot ${index}` : "the main pot";
}

function seatList(seats) {
  const named = seats.map(String);
  return named.length > 1 ? `${named.slice(0, -1).join(", ")} and ${named.at(-1)}` : named[0];
}

/** "Seat 3 wins the main pot, 36,200 — flush, ace high". */
export function potText(award) {
  const hands = award.hands || {};
  const names = award.winners.map((n) => hands[n] ?? hands[String(n)]).filter(Boolean);
  const amount = shortChips(award.amount);
  const head = award.winners.length > 1
    ? `Seats ${seatList(award.winners)} split ${potName(award.pot)}, ${amount}`
    : `Seat ${award.winners[0]} wins ${potName(award.pot)}, ${amount}`;
  if (!names.length) return head;
  const same = names.every((name) => name === names[0]) && names.length === award.winners.length;
  const hand = same
    ? names[0]
    : award.winners.filter((n) => hands[n] ?? hands[String(n)]).map((n) => `seat ${n} ${hands[n] ?? hands[String(n)]}`).join("; ");
  return `${head} — ${hand}`;
}

/** "Seat 2, Bruno, is out". */
export function outText(seat, name) {
  return `Seat ${seat}${name ? `, ${name},` : ""} is out`;
}

/**
 * Put `text` into `el`, shortened with "…" to what fits its width: the display never clips
 * a name with CSS. The full text stays in the element's title.
 */
export function fitText(el, text) {
  el.textContent = text;
  el.title = text;
  if (el.scrollWidth <= el.clientWidth) return;
  let low = 1;
  let high = text.length - 1;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    el.textContent = `${text.slice(0, mid).trimEnd()}…`;
    if (el.scrollWidth <= el.clientWidth) low = mid;
    else high = mid - 1;
  }
  el.textContent = `${text.slice(0, low).trimEnd()}…`;
}
