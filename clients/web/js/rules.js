// The rules glossary: one line per rule number the engine cites, in our own words (a reminder
// of what the 2026 Poker TDA rule says, not its text). Stations show a line when a rule number
// is tapped (ui.js `ruleButton`).

const LINES = {
  "1": "The floor decides in the best interest of the game and fairness; its decision is final.",
  "9": "Players take seats and join the table between hands, with chips in front of them.",
  "11-A": "A new player is dealt in at once, except between the small blind and the button: there they wait for the button to pass.",
  "13": "Cards speak: the cards on the table decide the winner, not what a player says.",
  "14-A": "A hand is tabled only when all its hole cards are face up; only tabled hands win a pot.",
  "14-B": "A player who shows part of a hand and then gives it up loses any claim to the pot.",
  "14-C": "A tabled hand cannot be mucked: the dealer reads it.",
  "16-A": "A hand shown in part is not tabled: the dealer asks for the rest of the cards.",
  "17": "When a player is all-in and no more betting can happen, every live hand is turned face up.",
  "18": "At showdown the last player to bet or raise on the final street shows first.",
  "18-B": "With no bet on the final street, the first live hand left of the button shows first.",
  "20": "A hand shown in part is not read until every card of it is face up.",
  "21": "Split pots are shared in whole units of the smallest chip in play.",
  "21-A": "The odd chip of a split pot goes to the first winner left of the button.",
  "21-C": "A chip colored up and no longer in play does not count as the smallest chip.",
  "23": "Side pots are awarded one by one, each to the best hand that can win it.",
  "24": "The floor may void actions recorded in error; the hand is played on from before them.",
  "25": "A new level applies from the next hand dealt.",
  "26-A": "Chips no longer needed are colored up; the smallest chip in play changes with them.",
  "26-C": "After the chip race, leftover chips worth less than the smallest chip in play come off without compensation.",
  "29": "A rebuy announced before a hand plays that hand: the chips are added before the deal.",
  "31": "Clock on a player: 25 seconds to act, then a 5-second count; no action by then and the hand is dead.",
  "34": "The button may be dead and the small blind missing, but the big blind is always posted.",
  "36-A": "A button in the wrong place is moved before substantial action; after it the hand is played as dealt.",
  "36-B": "The button and blinds move so that every player posts each blind in turn.",
  "36-C": "Heads-up the button posts the small blind and acts first before the flop.",
  "37": "A misdeal: the cards are gathered and the hand is dealt again.",
  "37-A": "A misdeal is called for a dealing error such as an exposed card or a seat dealt wrongly.",
  "37-A-5": "A seat dealt the wrong number of cards before substantial action is a misdeal.",
  "37-C": "After a misdeal the hand is dealt again exactly as before: same button, same players.",
  "37-D": "Once substantial action has happened there is no misdeal: the hand goes on.",
  "37-E": "A fouled deck voids the hand: every bet goes back to its player.",
  "38": "Substantial action: two actions in turn with at least one putting chips in, or any three actions.",
  "39": "The button dealt a card short gets the next card, as long as it has not acted.",
  "40": "After substantial action a hand with the wrong number of cards is dead.",
  "41": "Each street is burned and then dealt with exactly its number of cards.",
  "41-A": "A flop of four cards goes to the floor, who removes one of them at random.",
  "41-B": "A flop dealt without a burn goes to the floor, who decides how to put it right.",
  "42-A": "Words and chips together: what came first decides, and clear words in turn bind.",
  "42-C": "An amount said without a word is the same as pushing that many chips.",
  "45-A": "A raise is at least the last full bet or raise; half of that or more is made a full raise.",
  "45-B": "A raise is said as the total (\"raise to\"), not the amount added.",
  "46": "A single chip pushed with the word raise is a raise of the most that chip allows.",
  "47-A": "One oversized chip pushed without a word is a call.",
  "47-B": "Several chips without a word: a raise if taking one chip away still leaves more than the call, else a call.",
  "48-B": "Chips pulled back from a bet in front do not fold the hand facing a raise: call or raise.",
  "48-C": "Chips already in front count with the new ones only if they stayed there.",
  "49-A": "An all-in short of a full raise does not reopen the betting for players who have acted.",
  "50": "Limit games allow a set number of bets and raises per street, without a cap heads-up.",
  "51": "A player who asked for a count and pushed the amount told is held to the real amount.",
  "52-B": "A declared bet or raise is not complete until its amount is clear.",
  "53-A": "The word raise with no more than the call in chips is made up to the minimum raise.",
  "53-B": "An under-call is a full call heads-up or against the opening bet; otherwise the floor decides.",
  "53-C": "With more than one under-call, the floor rules on the first one first.",
  "54": "A bet found wrong after the fact is corrected as far as the hand allows.",
  "54-A": "A bet or raise under the minimum is made up to the minimum.",
  "54-B": "A miscounted pot is corrected to its true amount; action taken on the wrong count stands.",
  "55": "Action out of turn is held back until the action reaches that seat.",
  "55-A-1": "Action out of turn binds if the action to that seat has not changed.",
  "55-A-2": "The seats skipped by an action out of turn: the floor decides how the hand goes on.",
  "55-B": "If the action changed before it, the out-of-turn action is not binding: all options are back.",
  "56": "Pot limit: the largest raise is the size of the pot after the call.",
  "56-B": "In pot limit only the blinds count toward the pot when the betting opens.",
  "56-D": "In no-limit the word pot is not an amount: it binds the player to a valid bet or raise.",
  "57": "Saying check facing a bet binds the player to call or fold.",
  "57-A": "The word call with no bet to face is a check.",
  "57-B": "The word raise with no bet to face is read as a bet.",
  "59": "An amount said without its unit is read from the size of the pot.",
  "60": "Folding with no bet to face is binding, and the floor may consider a penalty.",
  "61-A": "Statements about future action are not binding, and the floor may consider a penalty.",
  "61-B": "Calling before the bet's amount is known goes to the floor.",
  "62": "A player facing an all-in may ask for its amount; the dealer counts it.",
  "63": "Chips pushed in the hope of change are all at risk as the bet.",
  "74": "Penalties are warnings, hands or rounds sat out, chips removed, or disqualification.",
  "74-A": "A penalty of hands or rounds is served away from the table, the hand dealt and its blinds posted.",
  "74-C": "A player away on a penalty has the hand dealt and folded at the first action.",
  "74-D": "A disqualified player's chips are removed from play, between hands.",
  "RP-5": "Dealing the next street before the betting is complete is a dealer irregularity.",
  "RP-5-A": "A flop dealt before the betting is complete goes back and is dealt again.",
  "RP-5-B": "A turn dealt before the betting is complete is set aside and replaced.",
  "RP-5-C": "A river dealt before the betting is complete is put back and the stub reshuffled.",
  "RP-11": "Big-blind ante: the big blind is posted first, then the ante from what is left.",
  "RP-24": "A player may ask the amount to call or whether they may raise; the dealer answers.",
  "RP-26": "The floor gives penalties as the recommended procedures set out.",
};

/** The rule numbers the glossary covers. */
export const RULE_NUMBERS = Object.freeze(Object.keys(LINES));

/** One line for a rule number (its nearest parent when the number itself has none), or "". */
export function ruleLine(number) {
  const parts = String(number ?? "").trim().split("-");
  while (parts.length) {
    const line = LINES[parts.join("-")];
    if (line) return line;
    parts.pop();
  }
  return "";
}
