// DOM helpers and the pieces every station renders: the connection banner, cards, the oval
// table with its seats, and the ruling log.

import { cardsLabel, fmt, gameName, parseCard } from "./format.js";
import { ruleLine } from "./rules.js";
import { downCount, eightPlaces, isStud, MOST_HANDS, studHand, studPlace } from "./stud.js";
import { drawsShort, drawsText, isDraw, streetNow } from "./draw.js";

/** h("button", {class: "x", onclick}, "text", child...) */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value == null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "value") el.value = value;
    else if (key === "checked") el.checked = Boolean(value);
    else if (key === "style" && typeof value === "object") Object.assign(el.style, value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child == null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : String(child));
  }
}

/**
 * Re-render `container` only when `signature` changed, keeping the keyboard focus on the
 * element with the same `data-key` (so a button the user tabbed to stays focused).
 */
export function renderInto(container, signature, build) {
  if (container.dataset.sig === signature) return false;
  const active = document.activeElement;
  const key = active && container.contains(active) ? active.dataset.key : null;
  container.replaceChildren(...[build()].flat().filter(Boolean));
  container.dataset.sig = signature;
  if (key) {
    // The same control again, else the first one of the new content: focus stays in place.
    const same = container.querySelector(`[data-key="${CSS.escape(key)}"]`);
    const first = container.querySelector("button:not(:disabled), input, select");
    (same || first)?.focus();
  }
  return true;
}

// --- connection banner ------------------------------------------------------------------

export function showStatus(el, status, detail) {
  const text = {
    connecting: "Connecting…",
    online: "Online",
    offline: "Offline — reconnecting…",
    refused: detail || "Not signed in",
  }[status];
  el.textContent = text;
  el.dataset.status = status;
  el.dataset.detail = detail || "";
  document.body.dataset.connection = status;
}

/** A small alert line for errors and refusals; replaced by the next one. */
export function showAlert(el, message, rule) {
  el.replaceChildren();
  if (!message) return;
  el.append(h("span", { class: "alert-icon", "aria-hidden": "true" }, "⚠"), " ", message);
  if (rule) el.append(" Rule ", ruleButton(rule));
}

// --- cards ------------------------------------------------------------------------------

export function card(code, size = "") {
  const c = parseCard(code);
  if (!c) return h("span", { class: `card ${size}`, "aria-label": code }, code);
  return h(
    "span",
    { class: `card ${c.suit.color} ${size}`, role: "img", "aria-label": c.label },
    h("span", { class: "rank" }, c.rank),
    h("span", { class: "suit" }, c.suit.symbol),
  );
}

export function cardList(cards, size = "") {
  return cards.map((c) => card(c, size));
}

/** A card face down: its back, nothing written on it. */
export function cardBack(size = "") {
  return h("span", { class: `card ${size} back`, "aria-hidden": "true" });
}

/** A stud hand as it lies in front of the seat (stud.js studHand): the down-cards as backs
 * unless `down` gives them face up, the up-cards face up, in the order they were dealt. */
export function studCards(v, s, down = [], size = "small") {
  const cards = studHand(v, s, down);
  const backs = cards.filter((c) => !c.code).length;
  const label = [
    s.up?.length ? `showing ${cardsLabel(s.up)}` : "",
    backs ? `${backs} card${backs > 1 ? "s" : ""} face down` : "",
  ].filter(Boolean).join("; ");
  return h(
    "span",
    { class: "stud-hand", role: "img", "aria-label": label || "no cards", dataset: { cards: cards.length } },
    cards.map((c) => {
      if (!c.code) return cardBack(size);
      const el = card(c.code, size);
      el.removeAttribute("role");
      el.setAttribute("aria-hidden", "true");
      if (!c.up) el.classList.add("down");
      return el;
    }),
  );
}

/** A stud hand in two rows, for a seat too narrow for seven cards in a line: the up-cards in
 * the order they were dealt, then the down-cards (backs unless `down` gives them). */
function studRows(v, s, down) {
  const downs = Array.from({ length: downCount(v, s) }, (_, i) => (down[i] && down[i] !== "??" ? card(down[i], "small") : cardBack("small")));
  return [
    s.up?.length ? h("div", { class: "hole up-row", role: "img", "aria-label": `showing ${cardsLabel(s.up)}` }, cardList(s.up, "small")) : null,
    h("div", { class: "hole down-row", dataset: { down: downs.length } }, downs),
  ];
}

/** What a screen reader says of a seat's cards: stud's up-cards and down-cards apart. */
function cardsWords(v, s, cards) {
  if (!isStud(v)) return cards?.length ? `cards ${cardsLabel(cards)}` : "";
  const parts = [];
  if (s.up?.length) parts.push(`showing ${cardsLabel(s.up)}`);
  if (cards?.length) parts.push(`down ${cardsLabel(cards)}`);
  return parts.join(", ");
}

// --- the oval table ---------------------------------------------------------------------

/** Where seat `n` (1-10) sits around the oval, in percent of the table area. Seat 1 is on
 * the dealer's left; the dealer's place is at the bottom centre. */
export function seatPosition(n, stretch = { x: 39, y: 40 }, places = 10) {
  const angle = ((90 + (360 / (places + 1)) * n) * Math.PI) / 180;
  return { x: 50 + stretch.x * Math.cos(angle), y: 50 + stretch.y * Math.sin(angle) };
}

function markers(v, n) {
  const out = [];
  if (!v.hand) return out;
  // Stud has no button and no blinds: the seat that brought it in is marked on third street.
  if (isStud(v)) {
    if (v.bring_in_seat === n && v.street === "third" && v.phase !== "idle") out.push(["Bring-in", "bring-in", "brought it in"]);
    return out;
  }
  if (v.button === n) out.push(["D", "button", "dealer button"]);
  if (v.small_blind === n) out.push(["SB", "sb", "small blind"]);
  if (v.big_blind === n) out.push(["BB", "bb", "big blind"]);
  return out;
}

export function seatState(v, s) {
  if (s.all_in) return "All-in";
  if (s.folded) return "Folded";
  if (s.mucked) return "Mucked";
  if (s.waiting) return "Waiting for the button";
  if (s.penalty) return `Penalty: ${s.penalty} hand${s.penalty === 1 ? "" : "s"}`;
  if (v.phase !== "idle" && v.hand && !s.in_hand) return "Not in the hand";
  return "";
}

/** The words a screen reader says for a seat; `cards` are the cards drawn face up for it (by
 * default all it holds, as a display has them). */
export function seatLabel(v, s, clockText = "", cards = s.cards) {
  const parts = [`Seat ${s.seat}${s.name ? `, ${s.name}` : ""}`, `stack ${fmt(s.stack)}`];
  if (s.bet) parts.push(`bet ${fmt(s.bet)}`);
  for (const [, , words] of markers(v, s.seat)) parts.push(words);
  const state = seatState(v, s);
  if (state) parts.push(state.toLowerCase());
  const held = cardsWords(v, s, cards);
  if (held) parts.push(held);
  // Draw games: how many each drew is public (RP-25-D).
  if (isDraw(v) && s.draws?.length) parts.push(drawsText(s.draws).replaceAll(" · ", ", "));
  if (v.to_act === s.seat) parts.push("to act");
  if (clockText) parts.push(clockText);
  return parts.join(", ");
}

/** Count the clock down on the seat it is on, twice a second (31: 25 s, then 5). */
export function tickClock(view) {
  setInterval(() => {
    const clock = view()?.clock;
    if (!clock) return;
    const flag = document.querySelector(`.seat[data-seat="${clock.seat}"] .act-flag`);
    if (flag) flag.textContent = clockLeft(clock);
  }, 500);
}

export function clockLeft(clock, now = Date.now()) {
  if (!clock) return "";
  const toDeadline = Math.ceil((clock.deadline - now) / 1000);
  if (toDeadline > 0) return `Clock: ${toDeadline} s`;
  const toExpiry = Math.ceil((clock.expires - now) / 1000);
  return toExpiry > 0 ? `Clock: countdown ${toExpiry}` : "Clock: time";
}

/**
 * The oval table: 10 seat places (empty ones faint), bets in front of the seats, and in the
 * middle the pot and the board. `cards(s)` says which cards of a seat to draw face up (stud:
 * which of its down-cards; its up-cards always are). A stud table takes eight places, four
 * along the top and four along the bottom at the heights `studRowsAt` (percent); `rows` draws
 * a stud hand's up-cards in a row and its down-cards under them.
 */
export function renderTable(container, model, { cards = (s) => s.cards, empties = true, size = "", stretch, rows = false, studRowsAt = [11, 89] } = {}) {
  const v = model.view;
  const stud = isStud(v);
  const eight = eightPlaces(v);
  // A draw table of six seats or fewer (triple draw's usual most) spreads them round the oval.
  const six = !eight && isDraw(v) && v.seats.every((s) => s.seat <= 6);
  const places = eight ? MOST_HANDS : six ? 6 : 10;
  // Where seat n sits (scale 1) and where its bet goes (0.55: nearer the middle).
  const placeOf = (n, scale = 1) => {
    if (eight) return studPlace(n, 50 - (50 - studRowsAt[0]) * scale, 50 + (studRowsAt[1] - 50) * scale);
    return seatPosition(n, scale === 1 ? stretch : { x: (stretch?.x ?? 39) * 0.6, y: (stretch?.y ?? 40) * 0.55 }, places);
  };
  container.classList.toggle("eight", eight);
  container.classList.toggle("stud", stud);
  container.classList.toggle("draw", isDraw(v));
  container.dataset.places = places;
  const bySeat = new Map(v.seats.map((s) => [s.seat, s]));
  const nodes = [h("div", { class: "felt", "aria-hidden": "true" })];
  for (let n = 1; n <= places; n += 1) {
    const s = bySeat.get(n);
    const at = placeOf(n);
    const style = { left: `${at.x}%`, top: `${at.y}%` };
    if (!s) {
      // A dead button (the button on an empty seat) is drawn there all the same.
      const dead = v.hand && v.button === n;
      if (empties || dead) nodes.push(h("div", { class: `seat empty${dead ? " dead-button" : ""}`, style, role: "group", "aria-label": `Seat ${n}, empty${dead ? ", dead button" : ""}`, dataset: { seat: n } }, h("span", { class: "seat-no" }, `Seat ${n}`), dead ? h("span", { class: "markers" }, h("span", { class: "marker button" }, "D")) : null));
      continue;
    }
    const clocked = v.clock && v.clock.seat === n;
    const clock = clocked ? clockLeft(v.clock) : "";
    const classes = ["seat"];
    if (v.to_act === n) classes.push("to-act");
    if (s.folded || s.mucked || (v.hand && v.phase !== "idle" && !s.in_hand)) classes.push("out");
    if (s.all_in) classes.push("all-in");
    const shown = cards(s) || [];
    const state = seatState(v, s);
    // Stud: the hand as it lies, up-cards face up and down-cards as backs, while it is live.
    const studRow = stud && v.phase !== "idle" && (s.in_hand || s.shown) && (s.up?.length || shown.length);
    const hole = studRow ? (rows ? studRows(v, s, shown) : h("div", { class: "hole" }, studCards(v, s, shown))) : shown.length ? h("div", { class: "hole" }, cardList(shown, "small")) : null;
    // Draw games: the seat's draws this hand ("Draws 2·pat"), public; in words in its label.
    const draws = isDraw(v) && v.phase !== "idle" && s.in_hand && s.draws?.length ? h("div", { class: "draws" }, drawsShort(s.draws)) : null;
    nodes.push(
      h(
        "div",
        { class: classes.join(" "), style, role: "group", "aria-label": seatLabel(v, s, clocked ? "on the clock" : "", shown), dataset: { seat: n } },
        h(
          "div",
          { class: "seat-head" },
          h("span", { class: "seat-no" }, `${n}`),
          h("span", { class: "name" }, s.name || `Seat ${n}`),
        ),
        markers(v, n).length ? h("span", { class: "markers" }, markers(v, n).map(([text, cls]) => h("span", { class: `marker ${cls}` }, text))) : null,
        h("div", { class: "stack" }, fmt(s.stack)),
        state ? h("div", { class: "state" }, state) : null,
        hole,
        draws,
        v.to_act === n ? h("div", { class: "act-flag" }, clock || (v.phase === "draw" ? "To draw" : "To act")) : null,
      ),
    );
    // A draw game's bets are pulled into the pot before the draw (the pot counts them).
    if (s.bet && v.phase !== "draw") {
      const b = placeOf(n, 0.55);
      nodes.push(h("div", { class: "bet", style: { left: `${b.x}%`, top: `${b.y}%` }, dataset: { seat: n }, "aria-hidden": "true" }, fmt(s.bet)));
    }
  }
  const board = v.board.length
    ? cardList(v.board, size)
    : [h("span", { class: "no-board" }, v.hand ? "" : "")];
  nodes.push(
    h(
      "div",
      { class: "centre" },
      // The game in play (a mixed event changes it between hands).
      v.game ? h("div", { class: "game-name", id: "game" }, gameName(v.game)) : null,
      h("div", { class: "street", id: "street" }, v.hand ? `Hand ${v.hand} · ${streetNow(v)}` : "No hand yet"),
      h("div", { class: "pot" }, h("span", { class: "pot-label" }, "Pot "), h("span", { id: "pot" }, fmt(model.potWithBets))),
      v.pots.length > 1 ? h("div", { class: "pots" }, v.pots.map((p, i) => h("span", {}, `${i ? `Side pot ${i}` : "Main"} ${fmt(p)}`))) : null,
      stud && v.board.length ? h("div", { class: "community-label" }, "Community card") : null,
      h("div", { class: "board", id: "board", role: "group", "aria-label": v.board.length ? `${stud ? "Community card" : "Board"}: ${cardsLabel(v.board)}` : "Board: no cards" }, board),
    ),
  );
  container.replaceChildren(...nodes);
}

// --- the ruling log ---------------------------------------------------------------------

export function logEntry(entry, prefix = "") {
  return h(
    "li",
    { class: `entry ${entry.kind}`, dataset: { seq: entry.seq, type: entry.type } },
    entry.kind === "floor" ? h("span", { class: "icon", "aria-hidden": "true" }, "⚠ ") : null,
    prefix ? h("span", { class: "where" }, prefix) : null,
    ...ruleText(entry.text, entry.rules),
  );
}

/** The log, newest first; only new entries are added so screen readers announce just those. */
export function renderLog(list, entries, limit = 80) {
  const shown = entries.slice(0, limit);
  const sig = shown.map((e) => e.seq).join(",");
  if (list.dataset.sig === sig) return;
  // Existing entries stay where they are (a screen reader announces only the new ones).
  const have = new Map([...list.children].map((li) => [li.dataset.seq, li]));
  const want = shown.map((e) => have.get(String(e.seq)) || logEntry(e));
  const keep = new Set(want);
  for (const li of [...list.children]) if (!keep.has(li)) li.remove();
  let ref = list.firstChild;
  for (const node of want) {
    if (node === ref) ref = ref.nextSibling;
    else list.insertBefore(node, ref);
  }
  list.dataset.sig = sig;
}

/** Re-run `fn` every `ms` while the page is open (clock countdowns). */
export function every(ms, fn) {
  fn();
  return setInterval(fn, ms);
}

// --- rule numbers: tap one for a line of what the rule says (rules.js) ------------------

/** A rule number as a button; tapping it shows the rule's line under it (once more: hides). */
export function ruleButton(number) {
  listenForRules();
  return h("button", {
    type: "button",
    class: "rule",
    dataset: { rule: number },
    "aria-expanded": "false",
    "aria-controls": "rule-line",
    "aria-label": `Rule ${number}: what it says`,
  }, number);
}

const CITED = /\(((?:RP-)?\d{1,2}(?:-[A-Z](?:-\d)?)?(?:, (?:RP-)?\d{1,2}(?:-[A-Z](?:-\d)?)?)*)(?=[:;)])/g;

/**
 * A ruling's text with the rule numbers it cites in parentheses ("(47-B, 45-A: ...)") as rule
 * buttons, followed by a button for each of `rules` the text does not cite. Every run of
 * text is its own span, side by side with the buttons (nothing drawn over anything).
 */
export function ruleText(text, rules = []) {
  const parts = [];
  const cited = new Set();
  let at = 0;
  for (const m of text.matchAll(CITED)) {
    const numbers = m[1].split(", ");
    if (!numbers.every((n) => rules.includes(n) || ruleLine(n))) continue;
    parts.push(text.slice(at, m.index));
    const cite = [h("span", {}, "(")];
    numbers.forEach((n, i) => {
      if (i) cite.push(h("span", {}, ", "));
      cite.push(ruleButton(n));
      cited.add(n);
    });
    parts.push(h("span", { class: "cite" }, cite));
    at = m.index + 1 + m[1].length;
  }
  parts.push(text.slice(at));
  const rest = rules.filter((r) => !cited.has(r));
  const label = `Rule${rest.length > 1 ? "s" : ""} ${rest.join(", ")}`;
  const spans = [h("span", { class: "text ruled" }, parts.filter(Boolean).map((p) => (typeof p === "string" ? h("span", {}, p) : p)))];
  if (rest.length) spans.push(h("span", { class: "rules", role: "group", "aria-label": label }, rest.map(ruleButton)));
  return spans;
}

const CITATION = /\s?\(((?:RP-)?\d{1,2}(?:-[A-Z](?:-\d)?)?(?:, (?:RP-)?\d{1,2}(?:-[A-Z](?:-\d)?)?)*)\)/g;

/**
 * A text with its rules after it as buttons: the citations of `rules` in parentheses are taken
 * out of the text (they are the buttons), any other number in parentheses — "the fullest table
 * (8)" — stays words. For texts whose numbers are not all rules (the tournament's).
 */
export function textWithRules(text, rules = []) {
  const plain = text.replace(CITATION, (whole, inner) => (inner.split(", ").every((n) => rules.includes(n)) ? "" : whole));
  const group = rules.length ? h("span", { class: "rules", role: "group", "aria-label": `Rule${rules.length > 1 ? "s" : ""} ${rules.join(", ")}` }, rules.map(ruleButton)) : null;
  return h("span", { class: "with-rules" }, h("span", { class: "text" }, plain), group);
}

let ruleListener = false;

function listenForRules() {
  if (ruleListener) return;
  ruleListener = true;
  document.addEventListener("click", (event) => {
    const button = event.target.closest?.("button.rule[data-rule]");
    if (button) showRuleLine(button);
    else if (!event.target.closest?.("#rule-line")) hideRuleLine();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") hideRuleLine();
  });
}

function showRuleLine(button) {
  let line = document.getElementById("rule-line");
  const open = button.getAttribute("aria-expanded") === "true";
  hideRuleLine();
  if (open) return;
  if (!line) {
    line = h("p", { id: "rule-line", class: "rule-line", role: "status", hidden: true });
    document.body.append(line);
  }
  const number = button.dataset.rule;
  line.textContent = `Rule ${number}: ${ruleLine(number) || "see the rulebook"}`;
  line.style.fontSize = getComputedStyle(button).fontSize; // as large as the text it explains
  line.hidden = false;
  button.setAttribute("aria-expanded", "true");
  const at = button.getBoundingClientRect();
  const box = line.getBoundingClientRect();
  const below = at.bottom + 6 + box.height <= innerHeight;
  line.style.top = `${Math.max(4, below ? at.bottom + 6 : at.top - 6 - box.height)}px`;
  line.style.left = `${Math.max(4, Math.min(at.left, innerWidth - box.width - 4))}px`;
}

function hideRuleLine() {
  const line = document.getElementById("rule-line");
  if (line) line.hidden = true;
  for (const b of document.querySelectorAll('button.rule[aria-expanded="true"]')) b.setAttribute("aria-expanded", "false");
}
