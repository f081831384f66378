// Confirmation of what cannot be undone (misdeal, fouled deck, muck, a fold with chips in
// front): one tap on its reason from a short list, or Cancel.

import { h } from "../ui.js";
import { $ } from "./context.js";

/** Ask; `reasons` are [label, value] pairs, and `onChoose(value)` runs for the one tapped. */
export function confirmWith({ title, text, reasons, onChoose }) {
  const dialog = $("confirm");
  const choose = (value) => {
    dialog.close();
    onChoose(value);
  };
  $("confirm-title").textContent = title;
  $("confirm-text").textContent = text;
  $("confirm-reasons").replaceChildren(
    ...reasons.map(([label, value]) => h("button", { type: "button", class: "reason danger", onclick: () => choose(value) }, label)),
  );
  dialog.showModal();
}
