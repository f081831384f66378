// The prompt: one large button per option of the seat to act (or of the seat tapped on the
// table, out of turn), the bet or raise amount on the number pad, the information requests
// the engine answers (RP-24, 62), and a fold with chips in front confirmed first.

import { capital, fmt, words } from "../format.js";
import { h } from "../ui.js";
import { act, actingSeat, alert, entry, resetEntry, send, station } from "./context.js";
import { confirmWith } from "./confirm.js";
import { askAmount } from "./numpad.js";
import { isStud } from "../stud.js";
import { isDraw, isLimit } from "../draw.js";
import { bringInLabel } from "./stud.js";

function big(label, key, onclick, extra = "") {
  return h("button", { type: "button", class: `big ${key} ${extra}`, dataset: { key: `act-${key}` }, onclick }, label);
}

function fold(seat) {
  const s = station.model.view.seats.find((x) => x.seat === seat);
  if (!s?.bet) return act(seat, { declare: "fold" });
  return confirmWith({
    title: `Seat ${seat} folds?`,
    text: `The ${fmt(s.bet)} in front of seat ${seat} stays in the pot; a fold cannot be taken back.`,
    reasons: [[`Fold — ${fmt(s.bet)} stays in`, "fold"]],
    onChoose: () => act(seat, { declare: "fold" }),
  });
}

export function bettingPanel() {
  const v = station.model.view;
  const p = station.model.prompt;
  const toAct = v.to_act;
  const from = actingSeat();
  const outOfTurn = entry.from != null && entry.from !== toAct;
  const seat = v.seats.find((s) => s.seat === from);
  const key = p ? `${p.seat}:${p.to_call}:${p.min_raise_to}` : "";
  if (key !== entry.promptKey) {
    entry.promptKey = key;
    entry.raiseTo = p?.min_raise_to ?? null;
  }
  const head = h(
    "div",
    { class: "prompt-head" },
    h("h2", { id: "to-act" }, from != null ? `Seat ${from}${seat?.name ? ` · ${seat.name}` : ""}${outOfTurn ? " — out of turn" : " to act"}` : "Waiting for the prompt"),
    p && !outOfTurn ? h("p", { class: "prompt-text" }, p.text) : null,
  );
  const buttons = [];
  if (from != null && (p || outOfTurn)) {
    const facing = (seat?.bet ?? 0) < v.current_bet;
    const options = outOfTurn ? ["fold", facing ? "call" : "check", v.current_bet ? "raise" : "bet"] : p.options;
    for (const option of options) {
      if (option === "fold") buttons.push(big("Fold", "fold", () => fold(from)));
      else if (option === "check") buttons.push(big("Check", "check", () => act(from, { declare: "check" })));
      else if (option === "call") buttons.push(big(outOfTurn ? "Call" : `Call ${fmt(p.to_call)}`, "call", () => act(from, { declare: "call" })));
      else if (option === "bet" || option === "raise") buttons.push(raiseControl(option, from, outOfTurn ? null : p));
      else if (!outOfTurn && bringInLabel(option, p)) buttons.push(big(bringInLabel(option, p), option, () => act(from, { declare: option }), option === "complete" ? "raise" : "call"));
      else buttons.push(big(capital(words(option)), option, () => act(from, { declare: option })));
    }
    const allIn = outOfTurn ? null : p.all_in_to;
    if (outOfTurn || (allIn && !coversTheLimit(p, seat))) buttons.push(big(outOfTurn ? "All-in" : `All-in ${fmt(allIn)}`, "all_in", () => act(from, { declare: "all_in" }), "all-in"));
  }
  return [
    head,
    h("div", { class: "prompt-buttons", id: "prompt", role: "group", "aria-labelledby": "to-act" }, buttons),
    h("div", { class: "prompt-tools" },
      outOfTurn
        ? h("button", { type: "button", class: "tool", onclick: resetEntry }, `Back to seat ${toAct}`)
        : h("p", { class: "hint" }, "Out of turn? Tap the seat."),
      asks(from, outOfTurn)),
  ];
}

/** Stud, triple draw and badugi are fixed limit: a stack that covers the most the seat may put
 * in has no all-in of its own to record (the bring-in and completion, the call and raise are
 * the buttons). */
function coversTheLimit(p, seat) {
  const v = station.model.view;
  if (!isStud(v) && !(isDraw(v) && isLimit(v))) return false;
  const most = p.max_raise_to ?? (seat?.bet ?? 0) + p.to_call;
  return p.all_in_to > most;
}

function asks(seat, outOfTurn) {
  const v = station.model.view;
  if (seat == null || outOfTurn) return null;
  const allIn = v.seats.find((s) => s.all_in && s.seat !== seat);
  return [
    h("button", { type: "button", class: "tool", onclick: () => send({ type: "ask", seat, question: "call_amount" }, { after: false }), "aria-label": `Seat ${seat} asks how much to call (RP-24)` }, "Ask: to call"),
    allIn ? h("button", { type: "button", class: "tool", onclick: () => send({ type: "count", seat, of: allIn.seat }, { after: false }), "aria-label": `Seat ${seat} asks for a count of seat ${allIn.seat}'s all-in (62)` }, `Count seat ${allIn.seat}`) : null,
  ];
}

function raiseControl(option, seat, p) {
  const v = station.model.view;
  // Stud's third street: raising the bring-in to the small bet completes it (RP-10).
  const completes = isStud(v) && v.street === "third" && option === "raise" && v.current_bet < v.min_bet;
  const word = option === "bet" ? "Bet" : completes ? "Complete to" : "Raise to";
  const low = p?.min_raise_to ?? null;
  const high = p?.max_raise_to ?? null;
  const input = h("input", {
    type: "number",
    id: "raise-to",
    inputmode: "none",
    min: low ?? 1,
    max: high ?? undefined,
    step: "any",
    value: entry.raiseTo ?? "",
    "aria-label": `${word} amount${low != null ? `, from ${fmt(low)} to ${fmt(high)}` : ""}`,
    dataset: { key: "raise-amount" },
  });
  const label = () => `${word} ${entry.raiseTo ? fmt(entry.raiseTo) : "…"}`;
  const button = h("button", { type: "button", class: "big raise", dataset: { key: "act-raise" } }, label());
  const record = (amount) => {
    if (!amount || (low != null && amount < low) || (high != null && amount > high)) {
      const why = low != null ? `Enter a total from ${fmt(low)} to ${fmt(high)}` : "Enter the total";
      input.setCustomValidity(why);
      alert(why);
      return;
    }
    act(seat, { declare: option, amount });
  };
  input.addEventListener("input", () => {
    entry.raiseTo = input.value === "" ? null : Number(input.value);
    button.textContent = label();
    input.setCustomValidity("");
  });
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter") button.click();
  });
  input.addEventListener("pointerdown", (e) => {
    if (e.pointerType === "mouse") return;
    e.preventDefault();
    askAmount({ title: `Seat ${seat}: ${word.toLowerCase()}`, okLabel: (n) => `${word} ${fmt(n)}`, onOk: record });
  });
  button.addEventListener("click", () => record(entry.raiseTo));
  return h("div", { class: "raise-control" }, input, button);
}
