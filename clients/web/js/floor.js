// The floor monitor: every table of the tournament as a tile, open floor calls answered with
// one button per option, and for the selected table its log, the clock, penalties and
// corrections.

import { capital, fmt, streetName, words } from "./format.js";
import { Feed, pageParams } from "./feed.js";
import { callText } from "./table.js";
import { clockLeft, h, renderInto, renderLog, showAlert, showStatus } from "./ui.js";

const params = pageParams();
const $ = (id) => document.getElementById(id);
let selected = params.table;
let frame = 0;
const answering = new Set(); // "table:call" rulings sent, waiting for their answer
const form = { seat: "", kind: "warning", count: "1", chips: "", reason: "", fixCount: "1", fixReason: "" };

const feed = new Feed({
  station: "floor",
  ...params,
  table: null,
  onChange: schedule,
  onStatus: (status, detail) => {
    showStatus($("status"), status, detail);
    schedule();
  },
  onReply: (reply) => {
    if (reply.command?.type === "ruling") answering.delete(`${reply.table}:${reply.command.call}`);
    if (!reply.ok) showAlert($("alert"), `${reply.table ? `Table ${reply.table}: ` : ""}${reply.message}`, reply.rule);
    else showAlert($("alert"), "");
    schedule();
  },
});

function schedule() {
  if (!frame) frame = requestAnimationFrame(render);
}

function tables() {
  return [...feed.models.values()].filter((m) => m.seq != null).sort((a, b) => a.table.localeCompare(b.table, undefined, { numeric: true }));
}

function send(table, command) {
  const id = feed.send(table, command);
  if (!id) showAlert($("alert"), "Offline: not sent. Reconnecting — send it again once online.");
  else showAlert($("alert"), "");
  return id;
}

function render() {
  frame = 0;
  const all = tables();
  if (!selected || !feed.models.has(selected)) selected = (all.find((m) => m.view.floor.length) || all[0])?.table ?? null;
  $("tournament-name").textContent = params.tournament;
  const open = all.reduce((n, m) => n + m.view.floor.length, 0);
  $("summary").textContent = `${all.length} table${all.length === 1 ? "" : "s"} · ${open ? `${open} floor call${open === 1 ? "" : "s"} open` : "no floor calls open"}`;
  document.title = `${open ? `(${open}) ` : ""}Floor · Tablewire`;
  renderCalls(all);
  renderTiles(all);
  renderDetail(feed.models.get(selected));
}

// --- floor calls -------------------------------------------------------------------------

function renderCalls(all) {
  const calls = all.flatMap((m) => m.view.floor.map((c) => ({ m, c })));
  const sig = JSON.stringify([calls.map(({ m, c }) => [m.table, c, answering.has(`${m.table}:${c.call}`)]), feed.online]);
  renderInto($("calls"), sig, () => {
    if (!calls.length) return h("li", { class: "none" }, "No floor calls open.");
    return calls.map(({ m, c }) => {
      const busy = answering.has(`${m.table}:${c.call}`);
      return h(
        "li",
        { class: `call ${c.blocking ? "blocking" : "notice"}`, dataset: { table: m.table, call: c.call } },
        h("span", { class: "icon", "aria-hidden": "true" }, c.blocking ? "⚠" : "ℹ"),
        h(
          "div",
          { class: "call-body" },
          h("p", { class: "call-head" }, `Table ${m.table} · ${c.seat ? `Seat ${c.seat}` : "The table"} · Rule ${c.rule}${c.blocking ? " · the hand waits" : " · to consider"}`),
          h("p", { class: "call-text" }, callText(c)),
          h(
            "div",
            { class: "options", role: "group", "aria-label": `Ruling for table ${m.table}, call ${c.call}` },
            c.options.map((option) =>
              h("button", {
                type: "button",
                class: "option",
                disabled: busy || !feed.online,
                dataset: { key: `rule-${m.table}-${c.call}-${option}` },
                "aria-label": `Rule ${words(option)} on table ${m.table}, seat ${c.seat}`,
                onclick: () => {
                  if (send(m.table, { type: "ruling", call: c.call, option })) {
                    answering.add(`${m.table}:${c.call}`);
                    schedule();
                  }
                },
              }, capital(words(option))),
            ),
          ),
        ),
      );
    });
  });
}

// --- tiles -------------------------------------------------------------------------------

function tileFacts(m) {
  const v = m.view;
  const toAct = v.seats.find((s) => s.seat === v.to_act);
  const penalties = v.seats.filter((s) => s.penalty).map((s) => `Seat ${s.seat}: ${s.penalty} hand${s.penalty === 1 ? "" : "s"}`);
  return {
    hand: v.hand ? `Hand ${v.hand} · ${streetName(v.street)}` : "No hand yet",
    pot: `Pot ${fmt(m.potWithBets)}`,
    act: v.to_act != null ? `Seat ${v.to_act}${toAct?.name ? ` (${toAct.name})` : ""} to act` : m.waitingOn,
    clock: v.clock ? clockLeft(v.clock) : "",
    penalties,
    calls: v.floor.length,
    level: m.levelText(),
  };
}

function renderTiles(all) {
  const sig = JSON.stringify([all.map((m) => [m.table, m.syncedSeq, tileFacts(m)]), selected]);
  renderInto($("tiles"), sig, () => {
    if (!all.length) return h("p", { class: "none" }, "Waiting for the tables' first events…");
    return all.map((m) => {
      const f = tileFacts(m);
      const label = [`Table ${m.table}`, f.hand, f.pot, f.act, f.clock, ...f.penalties.map((p) => `penalty ${p}`), f.calls ? `${f.calls} floor call${f.calls === 1 ? "" : "s"} open` : ""].filter(Boolean).join(", ");
      return h(
        "button",
        {
          type: "button",
          class: `tile${f.calls ? " has-call" : ""}${m.table === selected ? " selected" : ""}`,
          "aria-pressed": m.table === selected ? "true" : "false",
          "aria-label": label,
          dataset: { key: `tile-${m.table}`, table: m.table, seq: m.syncedSeq ?? "" },
          onclick: () => {
            selected = m.table;
            schedule();
          },
        },
        h("span", { class: "tile-head" }, h("span", { class: "tile-name" }, `Table ${m.table}`), f.calls ? h("span", { class: "flag" }, h("span", { "aria-hidden": "true" }, "⚠ "), `Floor call${f.calls > 1 ? `s ${f.calls}` : ""}`) : null),
        h("span", { class: "tile-line" }, f.hand),
        h("span", { class: "tile-pot" }, f.pot),
        h("span", { class: "tile-line act" }, f.act),
        f.clock ? h("span", { class: "tile-line clock", dataset: { clock: m.table } }, f.clock) : null,
        f.penalties.length ? h("span", { class: "tile-line penalties" }, `Penalty: ${f.penalties.join("; ")}`) : null,
        h("span", { class: "tile-line level" }, f.level),
      );
    });
  });
}

// --- the selected table ------------------------------------------------------------------

function renderDetail(m) {
  if (!m) {
    $("detail-title").textContent = "No table selected";
    $("tools").replaceChildren();
    $("log").replaceChildren();
    $("log").dataset.sig = "";
    return;
  }
  const v = m.view;
  $("detail-title").textContent = `Table ${m.table}`;
  $("detail-summary").textContent = [v.hand ? `Hand ${v.hand} · ${streetName(v.street)}` : "", m.levelText(), m.waitingOn].filter(Boolean).join(" · ");
  const seats = v.seats.map((s) => [s.seat, s.name]);
  const sig = JSON.stringify([m.table, seats, v.to_act, v.clock, v.hand, feed.online]);
  renderInto($("tools"), sig, () => tools(m));
  if ($("log").dataset.table !== m.table) {
    $("log").replaceChildren();
    $("log").dataset.sig = "";
    $("log").dataset.table = m.table;
  }
  renderLog($("log"), m.log, 150);
}

function field(label, control, name) {
  control.setAttribute("aria-label", name);
  return h("label", { class: "field" }, h("span", { "aria-hidden": "true" }, label), control);
}

function input(key, attrs) {
  const el = h("input", { ...attrs, value: form[key], dataset: { key: `form-${key}` } });
  el.addEventListener("input", () => (form[key] = el.value));
  return el;
}

function select(key, options) {
  const el = h("select", { dataset: { key: `form-${key}` } }, options.map(([value, text]) => h("option", { value }, text)));
  el.value = form[key];
  el.addEventListener("change", () => (form[key] = el.value));
  return el;
}

function tools(m) {
  const v = m.view;
  const clock = h("button", {
    type: "button",
    class: "primary",
    disabled: v.to_act == null,
    dataset: { key: "clock" },
    onclick: () => send(m.table, { type: "clock", at: Date.now() }),
  }, v.to_act != null ? `Call the clock on seat ${v.to_act}` : "Call the clock (no seat to act)");
  if (!form.seat || !v.seats.some((s) => String(s.seat) === form.seat)) form.seat = v.seats[0] ? String(v.seats[0].seat) : "";
  const penalty = h(
    "fieldset",
    { class: "penalty" },
    h("legend", {}, "Penalty"),
    field("Seat", select("seat", v.seats.map((s) => [String(s.seat), `Seat ${s.seat}${s.name ? ` · ${s.name}` : ""}`])), "Penalty: seat"),
    field("Kind", select("kind", [["warning", "Warning"], ["hands", "Hands"], ["rounds", "Rounds"], ["chips", "Chips"], ["disqualify", "Disqualify"]]), "Penalty: kind"),
    field("Count", input("count", { type: "number", min: 0, step: 1, inputmode: "numeric" }), "Penalty: hands or rounds"),
    field("Chips", input("chips", { type: "number", min: 0, step: 1, inputmode: "numeric" }), "Penalty: chips out of play"),
    field("Reason", input("reason", { type: "text", autocomplete: "off" }), "Penalty: reason"),
    h("button", {
      type: "button",
      dataset: { key: "give-penalty" },
      onclick: () => {
        if (!form.seat) return showAlert($("alert"), "Choose the seat");
        const command = { type: "penalty", seat: Number(form.seat), kind: form.kind, reason: form.reason.trim() };
        if (["hands", "rounds"].includes(form.kind)) command.count = Math.max(1, Number(form.count) || 1);
        if (form.kind === "chips") command.chips = Number(form.chips) || 0;
        if (send(m.table, command)) form.reason = "";
      },
    }, "Give the penalty"),
  );
  const correction = h(
    "fieldset",
    { class: "correction" },
    h("legend", {}, "Correction"),
    field("Actions to void", input("fixCount", { type: "number", min: 1, step: 1, inputmode: "numeric" }), "Correction: actions to void"),
    field("Reason", input("fixReason", { type: "text", autocomplete: "off", placeholder: "required" }), "Correction: reason"),
    h("button", {
      type: "button",
      dataset: { key: "correct" },
      onclick: () => {
        const reason = form.fixReason.trim();
        if (!reason) return showAlert($("alert"), "A correction needs a reason");
        const count = Math.max(1, Number(form.fixCount) || 1);
        if (send(m.table, { type: "correction", count, reason })) form.fixReason = "";
      },
    }, "Correct the last action"),
  );
  return [h("div", { class: "clock-row" }, clock), penalty, correction];
}

setInterval(() => {
  for (const el of document.querySelectorAll("[data-clock]")) {
    const clock = feed.models.get(el.dataset.clock)?.view.clock;
    if (clock) el.textContent = clockLeft(clock);
  }
}, 500);

feed.start();
