// The dealer station: the table as it is, the prompt as large buttons, chip entry, the deal,
// the showdown, irregularities and the ruling log.

import { capital, fmt, readCards, streetName, words } from "./format.js";
import { Feed, pageParams } from "./feed.js";
import { callText } from "./table.js";
import { h, renderInto, renderLog, renderTable, showAlert, showStatus, tickClock } from "./ui.js";

const params = pageParams();
const $ = (id) => document.getElementById(id);
const NEXT_STREET = { preflop: "flop", flop: "turn", turn: "river" };
const DECLARATIONS = ["fold", "check", "call", "bet", "raise", "all_in", "complete", "pot"];

// What the dealer is entering, kept across re-renders.
const entry = {
  chips: [],
  declare: "",
  amount: "",
  first: "together",
  prior: "left",
  from: "", // "" = the seat to act; else the seat an out-of-turn action came from
  raiseTo: null,
  promptKey: "",
  dealCards: "",
  showCards: {},
  winners: {},
};

let model = null;
const feed = new Feed({
  station: "dealer",
  ...params,
  table: params.table || "1",
  onChange: (m) => {
    model = m;
    schedule();
  },
  onStatus: (status, detail) => {
    showStatus($("status"), status, detail);
    schedule();
  },
  onReply: replied,
});

let frame = 0;
function schedule() {
  if (!frame) frame = requestAnimationFrame(() => {
    frame = 0;
    render();
  });
}

// --- sending -----------------------------------------------------------------------------

function send(command, { after = true } = {}) {
  if (!model) return null;
  const id = feed.send(model.table, command, { after });
  if (!id) showAlert($("alert"), "Offline: not recorded. Reconnecting — record it again once online.");
  else showAlert($("alert"), "");
  return id;
}

function replied(reply) {
  if (reply.ok) {
    if (reply.command?.type === "act") resetEntry();
    return;
  }
  const why = reply.code === "stale" ? "The table moved on before this arrived; check the table and record again." : reply.message;
  showAlert($("alert"), why, reply.rule);
  schedule();
}

function resetEntry() {
  Object.assign(entry, { chips: [], declare: "", amount: "", first: "together", prior: "left", from: "" });
  $("chip-entry").dataset.sig = "";
  $("action").dataset.sig = "";
  schedule();
}

function act(seat, fields) {
  const command = { type: "act", seat, ...fields };
  const clock = model.view.clock;
  if (clock && clock.seat === seat) command.at = Date.now();
  send(command);
}

// --- render ------------------------------------------------------------------------------

function render() {
  if (!model) return;
  const v = model.view;
  document.body.dataset.seq = model.syncedSeq ?? "";
  $("table-name").textContent = `Table ${model.table}`;
  document.title = `Dealer · Table ${model.table} · Tablewire`;
  const summary = [v.hand ? `Hand ${v.hand}` : "", v.hand ? streetName(v.street) : "", model.levelText(), model.waitingOn].filter(Boolean);
  $("summary").textContent = summary.join(" · ");
  renderTable($("table"), model);
  renderAction();
  renderChipEntry();
  renderLog($("log"), model.log);
  keepTime();
}

function liveSeats() {
  return model.view.seats.filter((s) => s.in_hand);
}

function renderAction() {
  const v = model.view;
  const p = model.prompt;
  if (entry.hand !== v.hand) Object.assign(entry, { hand: v.hand, winners: {}, showCards: {}, dealCards: "" });
  const sig = JSON.stringify([v.phase, p, v.to_act, entry.from, v.next_street, v.street, v.pots, v.awards, v.exposed, v.floor, liveSeats().map((s) => [s.seat, s.shown, s.cards]), v.hand, feed.online]);
  renderInto($("action"), sig, () => {
    switch (v.phase) {
      case "betting":
        return bettingPanel();
      case "deal":
        return [dealPanel(), v.exposed ? showdownPanel(false) : null];
      case "showdown":
        return showdownPanel(true);
      case "floor":
        return floorPanel();
      case "over":
        return h("p", { class: "waiting" }, "The hand is over.");
      default:
        return idlePanel();
    }
  });
}

function bettingPanel() {
  const v = model.view;
  const p = model.prompt;
  const toAct = v.to_act;
  const from = entry.from ? Number(entry.from) : toAct;
  const outOfTurn = entry.from && Number(entry.from) !== toAct;
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
      if (option === "fold") buttons.push(big("Fold", "fold", () => act(from, { declare: "fold" })));
      else if (option === "check") buttons.push(big("Check", "check", () => act(from, { declare: "check" })));
      else if (option === "call") {
        const label = outOfTurn ? "Call" : `Call ${fmt(p.to_call)}`;
        buttons.push(big(label, "call", () => act(from, { declare: "call" })));
      } else if (option === "bet" || option === "raise") buttons.push(raiseControl(option, from, outOfTurn ? null : p));
      else buttons.push(big(capital(words(option)), option, () => act(from, { declare: option })));
    }
    const allIn = outOfTurn ? null : p.all_in_to;
    if (outOfTurn || allIn) {
      buttons.push(big(outOfTurn ? "All-in" : `All-in ${fmt(allIn)}`, "all_in", () => act(from, { declare: "all_in" }), "all-in"));
    }
  }
  return [
    head,
    h("div", { class: "prompt-buttons", id: "prompt", role: "group", "aria-labelledby": "to-act" }, buttons),
    outOfTurnControl(),
  ];
}

function big(label, key, onclick, extra = "") {
  return h("button", { type: "button", class: `big ${key} ${extra}`, dataset: { key: `act-${key}` }, onclick }, label);
}

function raiseControl(option, seat, p) {
  const word = option === "bet" ? "Bet" : "Raise to";
  const low = p?.min_raise_to ?? null;
  const high = p?.max_raise_to ?? null;
  const input = h("input", {
    type: "number",
    id: "raise-to",
    inputmode: "numeric",
    min: low ?? 1,
    max: high ?? undefined,
    step: "any",
    value: entry.raiseTo ?? "",
    "aria-label": `${word} amount${low != null ? `, from ${fmt(low)} to ${fmt(high)}` : ""}`,
    dataset: { key: "raise-amount" },
  });
  const label = () => `${word} ${entry.raiseTo ? fmt(entry.raiseTo) : "…"}`;
  const button = h("button", { type: "button", class: "big raise", dataset: { key: "act-raise" } }, label());
  const note = low != null ? null : h("span", { class: "bounds" }, "the amount is the total");
  input.addEventListener("input", () => {
    entry.raiseTo = input.value === "" ? null : Number(input.value);
    button.textContent = label();
    input.setCustomValidity("");
  });
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter") button.click();
  });
  button.addEventListener("click", () => {
    const amount = entry.raiseTo;
    if (!amount || (low != null && amount < low) || (high != null && amount > high)) {
      const why = low != null ? `Enter a total from ${fmt(low)} to ${fmt(high)}` : "Enter the total";
      input.setCustomValidity(why);
      input.reportValidity();
      showAlert($("alert"), why);
      return;
    }
    act(seat, { declare: option, amount });
  });
  return h("div", { class: "raise-control" }, input, button, note);
}

function outOfTurnControl() {
  const v = model.view;
  const select = h(
    "select",
    { id: "acting-seat", dataset: { key: "acting-seat" } },
    h("option", { value: "" }, v.to_act != null ? `Seat to act (${v.to_act})` : "Seat to act"),
    liveSeats()
      .filter((s) => s.seat !== v.to_act && !s.all_in)
      .map((s) => h("option", { value: s.seat }, `Out of turn: seat ${s.seat}${s.name ? ` (${s.name})` : ""}`)),
  );
  select.value = entry.from;
  select.addEventListener("change", () => {
    entry.from = select.value;
    $("action").dataset.sig = "";
    $("chip-entry").dataset.sig = "";
    schedule();
  });
  return h("label", { class: "oot" }, "Action from ", select);
}

function dealPanel() {
  const street = model.view.next_street;
  const input = cardsInput("deal-cards", "e.g. Ah Kd 7c", entry.dealCards, (value) => (entry.dealCards = value));
  const go = () => {
    const cards = readCards(entry.dealCards);
    if (cards === null) return showAlert($("alert"), "Cards are written like Ah Kd 7c");
    if (send({ type: "deal", street, cards })) entry.dealCards = "";
  };
  return h(
    "div",
    { class: "deal" },
    h("h2", {}, `Deal the ${street}`),
    h("label", { class: "field" }, `${capital(street)} cards (optional)`, input),
    h("button", { type: "button", class: "big primary", dataset: { key: "deal" }, onclick: go }, `Deal the ${street}`),
  );
}

function cardsInput(key, label, value, set) {
  const input = h("input", { type: "text", autocomplete: "off", spellcheck: "false", placeholder: label || "cards", value, dataset: { key } });
  input.addEventListener("input", () => set(input.value));
  return input;
}

function showdownPanel(award) {
  const v = model.view;
  const rows = liveSeats().map((s) => {
    const typed = entry.showCards[s.seat] || "";
    const input = cardsInput(`show-${s.seat}`, "", typed, (value) => (entry.showCards[s.seat] = value));
    input.setAttribute("aria-label", `Seat ${s.seat} cards (optional)`);
    const show = () => {
      const cards = readCards(entry.showCards[s.seat] || "");
      if (cards === null) return showAlert($("alert"), "Cards are written like Ah Kd");
      send({ type: "show", seat: s.seat, cards });
    };
    return h(
      "li",
      { class: "show-row" },
      h("span", { class: "who" }, `Seat ${s.seat}${s.name ? ` · ${s.name}` : ""}`),
      s.shown ? h("span", { class: "shown" }, s.cards.length ? `Shows ${s.cards.join(" ")}` : "Shown") : [
        input,
        h("button", { type: "button", dataset: { key: `show-${s.seat}-btn` }, onclick: show, "aria-label": `Show seat ${s.seat}` }, "Show"),
        award ? h("button", { type: "button", dataset: { key: `muck-${s.seat}` }, onclick: () => send({ type: "muck", seat: s.seat }), "aria-label": `Muck seat ${s.seat}` }, "Muck") : null,
      ],
    );
  });
  const pots = (v.pots.length ? v.pots : [model.potWithBets]).map((amount, i) => {
    if (v.awards[i]) return h("li", { class: "pot-row done" }, `${i ? `Side pot ${i}` : "Main pot"} ${fmt(amount)}: awarded to seat ${v.awards[i].join(", ")}`);
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
      if (!chosen.size) return showAlert($("alert"), "Choose the winner(s) of the pot first");
      send({ type: "award", pot: i, winners: [...chosen].sort((a, b) => a - b) });
    };
    return h(
      "li",
      { class: "pot-row" },
      h("span", { class: "who" }, `${i ? `Side pot ${i}` : "Main pot"} ${fmt(amount)}`),
      h("span", { class: "toggles", role: "group", "aria-label": "Winners" }, toggles),
      h("button", { type: "button", class: "primary", dataset: { key: `award-${i}` }, onclick: go }, "Award"),
    );
  });
  return h(
    "div",
    { class: "showdown" },
    h("h2", {}, award ? "Showdown" : "Hands face up"),
    h("ul", { class: "show-rows" }, rows),
    award ? [h("h3", {}, "Award the pots"), h("ul", { class: "pot-rows" }, pots)] : null,
  );
}

function floorPanel() {
  const call = model.view.floor.find((c) => c.blocking) || model.view.floor[0];
  return h(
    "div",
    { class: "floor-wait" },
    h("h2", {}, h("span", { "aria-hidden": "true" }, "⚠ "), "Waiting for the floor"),
    call ? h("p", { class: "call-text" }, callText(call)) : null,
    call ? h("p", { class: "note" }, `Options: ${call.options.map(words).join(", ")}. The floor rules from the floor station.`) : null,
  );
}

function idlePanel() {
  const v = model.view;
  const next = v.next_level;
  return h(
    "div",
    { class: "idle" },
    h("h2", {}, v.hand ? `Hand ${v.hand} is over` : "Ready"),
    next ? h("p", { class: "note" }, `Next level: blinds ${fmt(next.blinds[0])}/${fmt(next.blinds[1])}${next.ante ? `, ante ${fmt(next.ante)}` : ""}`) : null,
    h("button", { type: "button", class: "big primary", dataset: { key: "start" }, onclick: () => send({ type: "start_hand" }) }, v.hand ? `Start hand ${v.hand + 1}` : "Start the first hand"),
  );
}

// --- chip entry --------------------------------------------------------------------------

function renderChipEntry() {
  const v = model.view;
  const panel = $("chip-entry");
  const open = v.phase === "betting" && (v.to_act != null || entry.from);
  const set = model.chipSet;
  const sig = JSON.stringify([open, set, entry.chips, entry.declare, entry.first, entry.prior, entry.from, v.to_act]);
  panel.hidden = !open;
  renderInto(panel, sig, () => {
    if (!open) return [];
    const seat = entry.from ? Number(entry.from) : v.to_act;
    const total = entry.chips.reduce((a, b) => a + b, 0);
    const denominations = set.map((d) =>
      h("button", {
        type: "button",
        class: `chip d${d}`,
        dataset: { key: `chip-${d}` },
        "aria-label": `Add a ${fmt(d)} chip`,
        onclick: () => {
          entry.chips = [...entry.chips, d];
          renderChipEntry();
        },
      }, fmt(d)),
    );
    const counts = new Map();
    for (const c of entry.chips) counts.set(c, (counts.get(c) || 0) + 1);
    const pushed = [...counts.entries()].sort((a, b) => b[0] - a[0]).map(([d, n]) => `${n} × ${fmt(d)}`).join(" + ");
    const declare = h(
      "select",
      { id: "declare", dataset: { key: "declare" } },
      h("option", { value: "" }, "No declaration"),
      DECLARATIONS.map((d) => h("option", { value: d }, `Said “${words(d)}”`)),
    );
    declare.value = entry.declare;
    declare.addEventListener("change", () => {
      entry.declare = declare.value;
      renderChipEntry();
    });
    const amount = h("input", { type: "number", id: "spoken", min: 1, step: "any", inputmode: "numeric", placeholder: "Amount", value: entry.amount, dataset: { key: "spoken" }, "aria-label": "Spoken amount (optional)" });
    amount.addEventListener("input", () => (entry.amount = amount.value));
    const first = h(
      "div",
      { class: "segmented", role: "radiogroup", "aria-label": "Which came first" },
      [["together", "Together"], ["verbal", "Words first"], ["chips", "Chips first"]].map(([value, text]) =>
        h("label", {}, h("input", {
          type: "radio", name: "first", value, checked: entry.first === value, dataset: { key: `first-${value}` },
          onchange: () => {
            entry.first = value;
            renderChipEntry();
          },
        }), h("span", {}, text)),
      ),
    );
    const prior = h(
      "select",
      { id: "prior", dataset: { key: "prior" }, "aria-label": "Chips already in front (rule 48)" },
      h("option", { value: "left" }, "Earlier chips left in front"),
      h("option", { value: "pulled" }, "Earlier chips pulled back"),
      h("option", { value: "partly_pulled" }, "Earlier chips partly pulled"),
    );
    prior.value = entry.prior;
    prior.addEventListener("change", () => (entry.prior = prior.value));
    const bet = v.seats.find((s) => s.seat === seat)?.bet || 0;
    const canRecord = entry.chips.length > 0 || entry.declare || entry.amount;
    const record = () => {
      if (seat == null) return;
      const fields = { first: entry.first };
      if (entry.chips.length) fields.chips = [...entry.chips];
      if (entry.declare) fields.declare = entry.declare;
      const spoken = Number(entry.amount);
      if (entry.amount !== "" && spoken > 0) fields.amount = spoken;
      if (bet && entry.prior !== "left") fields.prior = entry.prior;
      if (!fields.chips && !fields.declare && !fields.amount) return showAlert($("alert"), "Tap the chips pushed, or choose what was said");
      act(seat, fields);
    };
    return [
      h("h2", { id: "chips-title" }, `Chips pushed by seat ${seat ?? "–"}`),
      h("div", { class: "denominations", role: "group", "aria-labelledby": "chips-title" }, denominations),
      h(
        "div",
        { class: "push" },
        h("span", { id: "push-total", class: "total", "aria-live": "polite" }, entry.chips.length ? `${pushed} = ${fmt(total)}` : "No chips yet"),
        h("button", { type: "button", class: "small", dataset: { key: "undo" }, disabled: !entry.chips.length, "aria-label": "Undo the last chip", onclick: () => { entry.chips = entry.chips.slice(0, -1); renderChipEntry(); } }, "Undo"),
        h("button", { type: "button", class: "small", dataset: { key: "clear" }, disabled: !entry.chips.length, "aria-label": "Clear the chips", onclick: () => { entry.chips = []; renderChipEntry(); } }, "Clear"),
      ),
      h("div", { class: "said" }, h("label", { class: "sr-only", for: "declare" }, "Verbal declaration"), declare, amount),
      first,
      bet ? prior : null,
      h("button", { type: "button", class: "big record primary", id: "record", dataset: { key: "record" }, disabled: !canRecord, onclick: record }, entry.chips.length ? `Record ${fmt(total)}` : "Record"),
    ];
  });
}

// --- irregularities ----------------------------------------------------------------------

function openIrregular() {
  const v = model?.view;
  if (!v) return;
  const select = $("irr-seat");
  select.replaceChildren(
    h("option", { value: "" }, v.to_act != null ? `Seat to act (${v.to_act})` : "No seat"),
    ...v.seats.map((s) => h("option", { value: s.seat }, `Seat ${s.seat}${s.name ? ` · ${s.name}` : ""}`)),
  );
  const next = v.phase === "deal" ? v.next_street : NEXT_STREET[v.street];
  const early = document.querySelector('[data-irr="early"]');
  early.textContent = next ? `Cards dealt early (the ${next})` : "Cards dealt early";
  $("irr-note").textContent = "";
  $("irregular").showModal();
}

function irregular(kind) {
  const v = model.view;
  const seat = $("irr-seat").value ? Number($("irr-seat").value) : v.to_act;
  const cards = readCards($("irr-cards").value);
  const reason = $("irr-reason").value.trim();
  const note = (text) => ($("irr-note").textContent = text);
  if (cards === null) return note("Cards are written like Ah Kd 7c");
  let command = null;
  switch (kind) {
    case "misdeal":
      command = { type: "misdeal", reason };
      break;
    case "fouled_deck":
      command = { type: "fouled_deck", reason };
      break;
    case "early": {
      const street = v.phase === "deal" ? v.next_street : NEXT_STREET[v.street];
      if (!street) return note("There is no street to deal");
      command = { type: "deal", street, cards };
      break;
    }
    case "four_flop":
      if (cards.length !== 4) return note("Enter the four cards turned on the flop");
      command = { type: "deal", street: "flop", cards };
      break;
    case "no_burn":
      if (cards.length !== 3) return note("Enter the three flop cards");
      command = { type: "deal", street: "flop", cards, burned: false };
      break;
    case "clock":
      command = { type: "clock", at: Date.now() };
      if ($("irr-seat").value) command.seat = seat;
      break;
    case "wrong_card_count":
    case "short_card":
    case "premature_call":
    case "conditional":
      if (seat == null) return note("Choose the seat");
      command = { type: "irregularity", kind, seat };
      if (cards.length) command.cards = cards;
      break;
    default:
      return;
  }
  if (send(command, { after: false })) {
    $("irr-cards").value = "";
    $("irr-reason").value = "";
    $("irregular").close();
  }
}

$("irregular-open").addEventListener("click", openIrregular);
for (const button of document.querySelectorAll("[data-irr]")) {
  button.addEventListener("click", () => irregular(button.dataset.irr));
}

// --- the clock ---------------------------------------------------------------------------

let timed = "";
let timer = 0;
function keepTime() {
  // The station's timer tells the server when a running clock expires (31).
  const clock = model?.view.clock;
  const key = clock ? `${clock.seat}:${clock.expires}` : "";
  if (key === timed) return;
  timed = key;
  clearTimeout(timer);
  if (!clock) return;
  timer = setTimeout(() => send({ type: "time", at: Date.now() }, { after: false }), Math.max(0, clock.expires - Date.now() + 100));
}

tickClock(() => model?.view);

feed.start();
