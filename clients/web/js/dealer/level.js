// The level strip under the dealer station's header (a tournament's table only, so nothing
// moves once it is there): the level and the time left on the tournament clock, and "Level up
// after this hand: …" while the table holds a new level for its next hand (level-strip.js).

import { clockWords, levelUpText, nextSecond } from "../level-strip.js";
import { h } from "../ui.js";
import { $, station } from "./context.js";

let timer = 0;

export function renderLevelStrip() {
  clearTimeout(timer);
  const strip = $("level-strip");
  const clock = station.feed?.clock;
  const words = clockWords(clock);
  strip.hidden = !words;
  document.body.classList.toggle("with-clock", Boolean(words));
  if (!words) return;
  const up = levelUpText(station.model?.view);
  const sig = JSON.stringify([words.level, words.time, words.state, up]);
  if (strip.dataset.sig !== sig) {
    strip.dataset.sig = sig;
    strip.replaceChildren(
      h(
        "span",
        { class: "strip-row" },
        h("span", { class: "strip-level", id: "strip-level" }, words.level),
        words.state ? h("span", { class: "strip-state" }, words.state) : null,
        h("span", { class: "strip-time", id: "strip-time", role: "timer" }, words.time),
      ),
      h("span", { class: "strip-row" }, h("span", { class: `strip-next${up.startsWith("Level up") ? " level-up" : ""}`, id: "level-up" }, up)),
    );
  }
  timer = setTimeout(renderLevelStrip, nextSecond(clock));
}
