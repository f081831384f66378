// The deal (cards from the picker), the showdown (show, muck confirmed, award), the floor
// wait, and between hands the push list of the last hand with its bust-outs.

import { fmt, gameName, words } from "../format.js";
import { callText, nextGame } from "../table.js";
import { h } from "../ui.js";
import { $, alert, atTheDeal, entry, liveSeats, send, station } from "./context.js";
import { heldWhy } from "./across.js";
import { confirmWith } from "./confirm.js";
import { pickCards } from "./picker.js";
import { isStud, STUD_GAMES } from "../stud.js";
import { showStud, startStudHand, studDealPanel } from "./stud.js";
import { handSize, isDraw } from "../draw.js";
import { drawWaitPanel } from "./draw.js";

const STREET_CARDS = { flop: 3, turn: 1, river: 1 };
const HOLE_CARDS = { NLHE: 2, PLHE: 2, LHE: 2 };
const MUCK_REASONS = [["Player threw the hand away", "threw it away"], ["Player conceded the pot", "conceded"]];

const potName = (i) => (i ? `Side pot ${i}` : "Main pot");

export function dealPanel() {
  if (isStud(station.model.view)) return studDealPanel();
  if (isDraw(station.model.view)) return drawWaitPanel();
  const street = station.model.view.next_street;
  const count = STREET_CARDS[street] || 1;
  const pick = () => pickCards({
    title: `The ${street}`,
    count,
    okLabel: (cards) => `Deal the ${street}${cards.length ? `: ${cards.map((c) => c.replace("T", "10")).join(" ")}` : ""}`,
    onPick: (cards) => send({ type: "deal", street, cards }),
  });
  return h(
    "div",
    { class: "deal" },
    h("h2", {}, `Deal the ${street}`),
    h("button", { type: "button", class: "big primary", dataset: { key: "pick" }, onclick: pick }, `Choose the ${street} card${count > 1 ? "s" : ""}`),
    h("button", { type: "button", dataset: { key: "deal" }, onclick: () => send({ type: "deal", street }) }, `Deal the ${street} without entering cards`),
  );
}

function show(s) {
  const v = station.model.view;
  if (isStud(v)) return showStud(s);
  // A draw game's hand is known when it was entered and every draw with its cards.
  if (s.cards.length && !s.cards.includes("??")) return send({ type: "show", seat: s.seat, cards: s.cards });
  return pickCards({
    title: `Seat ${s.seat} shows`,
    count: isDraw(v) ? handSize(v.game) : HOLE_CARDS[v.game] ?? 4,
    okLabel: () => `Show seat ${s.seat}`,
    onPick: (cards) => send({ type: "show", seat: s.seat, cards }),
  });
}

function muck(s) {
  confirmWith({
    title: `Muck seat ${s.seat}'s hand?`,
    text: "A mucked hand is dead and cannot win the pot. Why is it mucked?",
    reasons: MUCK_REASONS,
    onChoose: () => send({ type: "muck", seat: s.seat }),
  });
}

export function showdownPanel(award) {
  const v = station.model.view;
  const rows = liveSeats().map((s) =>
    h(
      "li",
      { class: "show-row" },
      h("span", { class: "who" }, `Seat ${s.seat}${s.name ? ` · ${s.name}` : ""}`),
      s.shown ? h("span", { class: "shown" }, s.cards.length ? `Shows ${s.cards.join(" ")}` : "Shown") : [
        h("button", { type: "button", dataset: { key: `show-${s.seat}-btn` }, onclick: () => show(s), "aria-label": `Show seat ${s.seat}` }, "Show"),
        award ? h("button", { type: "button", class: "danger", dataset: { key: `muck-${s.seat}` }, onclick: () => muck(s), "aria-label": `Muck seat ${s.seat}` }, "Muck") : null,
      ],
    ),
  );
  const pots = (v.pots.length ? v.pots : [station.model.potWithBets]).map((amount, i) => {
    if (v.awards[i]) return h("li", { class: "pot-row done" }, `${potName(i)} ${fmt(amount)}: awarded to seat ${v.awards[i].join(", ")}`);
    const chosen = (entry.winners[i] ||= new Set());
    const toggles = liveSeats().map((s) =>
      h("button", {
        type: "button",
        class: "toggle",
        "aria-pressed": chosen.has(s.seat) ? "true" : "false",
        dataset: { key: `win-${i}-${s.seat}` },
        "aria-label": `Seat ${s.seat} wins ${i ? `side pot ${i}` : "the main pot"}`,
        onclick: (e) => {
          if (chosen.has(s.seat)) chosen.delete(s.seat);
          else chosen.add(s.seat);
          e.currentTarget.setAttribute("aria-pressed", chosen.has(s.seat) ? "true" : "false");
        },
      }, `${s.seat}`),
    );
    const go = () => {
      if (!chosen.size) return alert("Choose the winner(s) of the pot first");
      return send({ type: "award", pot: i, winners: [...chosen].sort((a, b) => a - b) });
    };
    return h(
      "li",
      { class: "pot-row" },
      h("span", { class: "who" }, `${potName(i)} ${fmt(amount)}`),
      h("span", { class: "toggles", role: "group", "aria-label": "Winners" }, toggles),
      h("button", { type: "button", class: "primary", dataset: { key: `award-${i}` }, onclick: go }, "Award"),
    );
  });
  return h(
    "div",
    { class: "showdown" },
    h("h2", {}, award ? "Showdown" : "Hands face up"),
    h("ul", { class: "show-rows" }, rows),
    award ? [h("h3", {}, "Award the pots"), h("ul", { class: "pot-rows" }, pots.reverse())] : null,
  );
}

export function floorPanel() {
  const v = station.model.view;
  const call = v.floor.find((c) => c.blocking) || v.floor[0];
  return h(
    "div",
    { class: "floor-wait" },
    h("h2", {}, h("span", { "aria-hidden": "true" }, "⚠ "), "Waiting for the floor"),
    call ? h("p", { class: "call-text" }, callText(call)) : null,
    call ? h("p", { class: "note" }, `Options: ${call.options.map(words).join(", ")}. The floor rules from the floor station.`) : null,
  );
}

/** Who gets what, side pots first (as the dealer pushes them), and who is out. */
function pushList(push) {
  const pots = [...push.pots].sort((a, b) => b.pot - a.pot).map((p) => {
    const shares = Object.entries(p.shares || {});
    const who = shares.length > 1
      ? shares.map(([seat, n]) => `seat ${seat} ${fmt(n)}`).join(", ")
      : `seat ${p.winners.join(", ")}`;
    return h("li", {}, `${potName(p.pot)} ${fmt(p.amount)}: ${who}`);
  });
  const out = push.busted.map((b) => h("li", { class: "busted" }, `Out: seat ${b.seat}${b.name ? ` · ${b.name}` : ""}`));
  return h("div", { class: "push-list" }, h("h3", {}, `Push, hand ${push.hand}`), h("ol", { id: "push-list" }, pots, out));
}

/** "Seven-card stud, ante 1,000, bring-in 2,000, limit 5,000/10,000" or "blinds 100/200". */
function nextLevelWords(next) {
  const stud = next.bring_in > 0;
  return [
    next.game ? gameName(next.game) : "",
    stud ? "" : next.blinds?.[1] ? `blinds ${fmt(next.blinds[0])}/${fmt(next.blinds[1])}` : "",
    next.ante ? `ante ${fmt(next.ante)}` : "",
    stud ? `bring-in ${fmt(next.bring_in)}, limit ${fmt(next.min_bet)}/${fmt(2 * next.min_bet)}` : "",
  ].filter(Boolean).join(", ");
}

/** The seats marked away (32) or with a down-card exposed (RP-10-A) for the next deal. */
function marksAtTheDeal() {
  const marks = [
    ...entry.absent.map((n) => [n, "absent", `Seat ${n} away at the deal (32)`]),
    ...entry.exposed.map((n) => [n, "exposed", `Seat ${n}: down-card exposed (RP-10-A)`]),
  ];
  if (!marks.length) return null;
  return h("ul", { class: "deal-marks", id: "deal-marks", "aria-label": "Marked for the next deal" },
    marks.map(([n, kind, text]) => h("li", {},
      h("span", {}, text),
      h("button", {
        type: "button",
        class: "tool",
        "aria-label": `Clear: ${text}`,
        onclick: () => {
          entry[kind] = entry[kind].filter((x) => x !== n);
          $("action").dataset.sig = "";
          station.schedule();
        },
      }, "Clear"))));
}

export function idlePanel() {
  const v = station.model.view;
  const next = v.next_level;
  const push = station.model.lastPush;
  const held = heldWhy();
  // A mixed table deals its next game from the next hand: stud's start takes the up-cards.
  const game = nextGame(v);
  const stud = STUD_GAMES.has(game);
  return h(
    "div",
    { class: "idle" },
    h("h2", {}, v.hand ? `Hand ${v.hand} is over` : "Ready"),
    push && push.hand === v.hand ? pushList(push) : null,
    next ? h("p", { class: "note", id: "next-level" }, `Next level: ${nextLevelWords(next)}`) : null,
    held ? h("p", { class: "held-why" }, `${held}: no new hand yet.`) : null,
    marksAtTheDeal(),
    game !== v.game && !next?.game ? h("p", { class: "note", id: "next-game" }, `Next hand: ${gameName(game)}`) : null,
    stud ? h("p", { class: "note" }, "Then tap each hand's third-street up-card, seat by seat: the lowest brings it in (RP-10).") : null,
    h("button", { type: "button", class: "big primary", disabled: Boolean(held), dataset: { key: "start" }, onclick: () => (stud ? startStudHand(v.hand + 1) : send({ type: "start_hand", ...atTheDeal() })) }, v.hand ? `Start hand ${v.hand + 1}` : "Start the first hand"),
  );
}
