// The overhead table display: read from five metres. Pot, seats, bets, the seat to act, the
// board, all-ins, hands the rules expose, blinds and level, and the latest ruling. It draws only
// the cards it received: the server strips hole cards for display tokens.

import { fmt, streetName } from "./format.js";
import { Feed, pageParams } from "./feed.js";
import { h, renderTable, showStatus, tickClock } from "./ui.js";

const params = pageParams();
const $ = (id) => document.getElementById(id);
let model = null;
let frame = 0;

const feed = new Feed({
  station: "display",
  ...params,
  table: params.table || "1",
  onChange: (m) => {
    model = m;
    if (!frame) frame = requestAnimationFrame(render);
  },
  onStatus: (status, detail) => showStatus($("status"), status, detail),
  onReply: (reply) => {
    // A display sends no commands: an error here is about its token or its table.
    if (reply.ok) return;
    const line = $("ruling");
    line.dataset.sig = "";
    line.replaceChildren(h("span", { class: "icon", "aria-hidden": "true" }, "⚠ "), reply.message);
  },
});

function render() {
  frame = 0;
  if (!model) return;
  const v = model.view;
  document.body.dataset.seq = model.syncedSeq ?? "";
  $("title").textContent = `Table ${model.table}${v.hand ? ` · Hand ${v.hand} · ${streetName(v.street)}` : ""}`;
  const next = v.next_level;
  $("level").replaceChildren(
    model.levelText() || "",
    next ? h("span", { class: "next" }, ` · Next: ${fmt(next.blinds[0])}/${fmt(next.blinds[1])}${next.ante ? ` ante ${fmt(next.ante)}` : ""}`) : "",
  );
  renderTable($("table"), model, { empties: false, size: "large", stretch: { x: 39, y: 39 } });
  $("exposed").hidden = !v.exposed;
  const last = model.lastRuling;
  const line = $("ruling");
  const sig = last ? String(last.seq) : "";
  if (line.dataset.sig !== sig) {
    line.dataset.sig = sig;
    line.replaceChildren(
      ...(last
        ? [
            last.kind === "floor" ? h("span", { class: "icon", "aria-hidden": "true" }, "⚠ ") : "",
            h("span", { class: "text" }, last.text),
            ...last.rules.filter((r) => !last.text.includes(r)).map((r) => h("span", { class: "rule" }, r)),
          ]
        : []),
    );
  }
}

tickClock(() => model?.view);

feed.start();
