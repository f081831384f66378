// The level and the tournament clock on a table station (the dealer, the floor): the level in
// force and the time left from the tournament's `clock`, and "Level up after this hand" when
// the table was told of a level (its `next_level`, the level announced for the next hand)
// while a hand is in play (25-B: the hand in play finishes at its level).

import { anteText, blindsText, clockFace, levelLine, timeText } from "./tournament.js";
import { gameName } from "./format.js";

/** "200/400 · BB ante 400" for a table's level ({blinds, ante, bba}); a mixed event's next game
 * first, a stud level its limits ("Seven-card stud · 4,000/8,000 · Ante 1,000 · Bring-in 2,000"). */
export function levelWords(level) {
  const stud = level?.bring_in > 0;
  return [
    level?.game ? gameName(level.game) : "",
    (stud ? level.min_bet : level?.blinds?.[1]) ? blindsText(level) : "",
    anteText(level),
  ].filter(Boolean).join(" · ");
}

/** What the table's next hand changes to: "Level up after this hand: …" while a hand is in
 * play, "Next hand: …" between hands, or "" when the table knows of no new level. */
export function levelUpText(view) {
  const next = view?.next_level;
  if (!next) return "";
  const inPlay = view.hand && view.phase !== "idle";
  return `${inPlay ? "Level up after this hand" : "Next hand"}: ${levelWords(next)}`;
}

/** The clock in words: {level: "Level 3 · 100/200 · Ante 200" or "Break", time: "12:34" or
 * "", state: "Paused" ...} at this machine's time `now`; null without a clock. */
export function clockWords(clock, now = Date.now()) {
  if (!clock?.view) return null;
  const face = clockFace(clock.view, clock.serverNow(now));
  const time = face.timed ? timeText(face.remaining) : face.hands ? `${face.hands} hands left` : "";
  const state = face.state === "running" ? "" : face.stateText;
  return { face, level: face.onBreak ? "Break" : levelLine(face.level), time, state };
}

/** Milliseconds to the next second of the clock (when to draw it again). */
export function nextSecond(clock, now = Date.now()) {
  const words = clockWords(clock, now);
  if (!words?.face.endsAt) return 1000;
  const part = words.face.remaining % 1000;
  return (part || 1000) + 5;
}
