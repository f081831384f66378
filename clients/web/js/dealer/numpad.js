// The on-screen number pad for amounts: digits, 000 for thousands, M for millions, a
// backspace, and one button that uses the amount (its label says what it records).

import { fmt } from "../format.js";
import { h } from "../ui.js";
import { $ } from "./context.js";

const KEYS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "000", "0", "M", "⌫"];
const LABELS = { "⌫": "Delete a digit", M: "Million" };

/** Open the pad: `okLabel(amount)` names the OK button, `onOk(amount)` uses the amount. */
export function askAmount({ title, value = 0, okLabel, onOk }) {
  const dialog = $("numpad");
  let digits = value ? String(value) : "";
  const shown = h("output", { id: "numpad-value", class: "numpad-value", "aria-live": "polite" });
  const ok = h("button", { type: "button", class: "big primary", id: "numpad-ok" });
  const update = () => {
    const amount = Number(digits || 0);
    shown.textContent = amount ? fmt(amount) : "0";
    ok.textContent = okLabel(amount);
    ok.disabled = !amount;
  };
  const press = (key) => {
    if (key === "⌫") digits = digits.slice(0, -1);
    else if (digits.length < 12 && (digits || /^[1-9]$/.test(key))) digits += key === "M" ? "000000" : key;
    update();
  };
  ok.addEventListener("click", () => {
    dialog.close();
    onOk(Number(digits));
  });
  $("numpad-title").textContent = title;
  $("numpad-body").replaceChildren(
    shown,
    h("div", { class: "keys", role: "group", "aria-label": "Number pad" },
      KEYS.map((key) => h("button", { type: "button", class: "key", "aria-label": LABELS[key] || key, onclick: () => press(key) }, key))),
    ok,
  );
  update();
  dialog.showModal();
}
