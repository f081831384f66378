// The TD station's lists: the players found by name while registering (with what the TD may do
// for each: show the seat, re-enter a busted player, unregister one who has not played) and
// every player of the tournament — table, seat, stack at the last hand end, status, place.

import { fmt } from "./format.js";
import { ordinal } from "./tournament.js";
import { h } from "./ui.js";

const STATUS = {
  registered: "Registered, no seat yet",
  alternate: "Alternate",
  seated: "Playing",
  eliminated: "Out",
  disqualified: "Disqualified",
};

export function statusText(p) {
  const text = STATUS[p.status] || p.status;
  return p.absent && p.status === "seated" ? `${text}, away` : text;
}

export function whereText(p) {
  return p.table != null ? `Table ${p.table}, seat ${p.seat}` : "";
}

export function placeText(p) {
  if (!p.place) return "";
  return `${ordinal(p.place)}${p.prize ? ` · ${fmt(p.prize)}` : ""}`;
}

/** The players found by name, each with its actions. */
export function matchRows(found, { online, show, reenter, unregister }) {
  return found.map((p) => {
    const out = p.status === "eliminated";
    const alive = p.status === "seated" || p.status === "registered";
    return h(
      "li",
      { class: `match ${p.status}`, dataset: { player: p.player } },
      h("span", { class: "match-name" }, p.name || p.player),
      h("span", { class: "match-where" }, [whereText(p) || statusText(p), p.entry > 1 ? `entry ${p.entry}` : "", placeText(p)].filter(Boolean).join(" · ")),
      h(
        "span",
        { class: "match-actions" },
        p.status === "seated" ? h("button", { type: "button", dataset: { key: `show-${p.player}` }, onclick: () => show(p), "aria-label": `Show ${p.name}'s seat` }, "Show seat") : null,
        out ? h("button", { type: "button", class: "primary", disabled: !online, dataset: { key: `reenter-${p.player}` }, onclick: () => reenter(p), "aria-label": `Re-enter ${p.name}` }, "Re-enter") : null,
        alive ? h("button", { type: "button", class: "danger", disabled: !online, dataset: { key: `unregister-${p.player}` }, onclick: () => unregister(p), "aria-label": `Unregister ${p.name}` }, "Unregister") : null,
      ),
    );
  });
}

const ORDER = {
  seat: (a, b) => tableKey(a).localeCompare(tableKey(b), undefined, { numeric: true }) || a.name.localeCompare(b.name),
  name: (a, b) => a.name.localeCompare(b.name),
  stack: (a, b) => b.stack - a.stack || a.name.localeCompare(b.name),
  place: (a, b) => (a.place || 1e9) - (b.place || 1e9) || b.stack - a.stack,
};

function tableKey(p) {
  if (p.table == null) return `~${p.status}`;
  return `${p.table} ${String(p.seat).padStart(2, "0")}`;
}

/** Every player as a row of the players table. */
export function playerRows(players, order = "seat") {
  const sorted = [...players].sort(ORDER[order] || ORDER.seat);
  if (!sorted.length) return h("tr", {}, h("td", { colspan: 7, class: "none" }, "No players yet."));
  return sorted.map((p) =>
    h(
      "tr",
      { class: p.status, dataset: { player: p.player } },
      h("th", { scope: "row", class: "name" }, p.name || p.player),
      h("td", { class: "num" }, String(p.entry || "")),
      h("td", { class: "col-table" }, p.table ?? "—"),
      h("td", { class: "col-seat" }, p.seat != null ? String(p.seat) : "—"),
      h("td", { class: "num" }, p.status === "seated" || p.status === "registered" ? fmt(p.stack) : ""),
      h("td", { class: "col-status" }, statusText(p)),
      h("td", { class: "col-place" }, placeText(p)),
    ),
  );
}
