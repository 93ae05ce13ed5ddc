// The study page's decks: which scheduler each deck follows (Leitner's boxes, the default, or FSRS),
// resetting a deck, and the four FSRS grades after an answer (Again / Hard / Good / Easy, as
// WordVault asks). The choice is per deck, not global: a player may keep the two-tile words in
// boxes and give a deck of 8-tile anagrams to FSRS. The scheduling itself is in cardbox.js.
import * as cardbox from "./cardbox.js";
import { edition, el, onEditionChange, t } from "./common.js";

const $ = (id) => document.getElementById(id);
const GRADE_NAMES = Object.keys(cardbox.GRADES);

/** The deck the cardbox section shows: the page's edition and the quiz type chosen. */
function shownDeck() {
  return cardbox.deckOf(edition().name, $("quiz-type").value);
}

function say(text) {
  $("cardbox-message").textContent = text;
}

function changed() {
  document.dispatchEvent(new Event("lextools:cardbox"));
}

let choices = 0; // the player's choices so far: a scheduler read before the last one is stale

async function showScheduler() {
  const asked = choices;
  const name = await cardbox.schedulerOf(shownDeck());
  if (asked === choices) $("cardbox-scheduler").value = name;
  disarm();
}

$("cardbox-scheduler").addEventListener("change", () => {
  choices += 1;
  const name = $("cardbox-scheduler").value;
  cardbox.setScheduler(shownDeck(), name);
  say(t(`cardbox_scheduler_set_${name}`));
});

// -- reset: a second press confirms ------------------------------------------------------------------

let armed = null;

function disarm() {
  armed = null;
  const button = $("cardbox-reset");
  button.dataset.i18n = "cardbox_reset";
  button.textContent = t("cardbox_reset");
}

$("cardbox-reset").addEventListener("click", async () => {
  const deck = shownDeck();
  const count = (await cardbox.cards(deck)).length;
  if (!count) return say(t("cardbox_empty"));
  const button = $("cardbox-reset");
  if (armed !== deck) {
    armed = deck;
    delete button.dataset.i18n;
    button.textContent = t("cardbox_reset_confirm", { count });
    return;
  }
  disarm();
  say(t("cardbox_reset_done", { count: await cardbox.resetDeck(deck) }));
  changed();
});

// -- an answer, and its grade ------------------------------------------------------------------------

let last = null; // the last answer: {edition, type, question, before, saved}

/** Record an answer by its deck's scheduler (cardbox.record), keeping the card it was given to so
 * the player may grade it otherwise; resolves to the card as saved. */
export async function recordAnswer(name, type, question, right) {
  const before = await cardbox.card(cardbox.cardId(name, type, question));
  const saved = await cardbox.record(name, type, question, right, Date.now(), before);
  last = { edition: name, type, question, before, saved };
  return saved;
}

/** When a card is due again, in words: "in 10 minutes", "in 3 days". */
export function dueIn(card, now = card.last) {
  const minutes = Math.max(0, Math.round((card.due - now) / 60000));
  const format = new Intl.RelativeTimeFormat(edition().lang, { numeric: "always" });
  if (minutes < 60) return format.format(minutes, "minute");
  if (minutes < 48 * 60) return format.format(Math.round(minutes / 60), "hour");
  return format.format(Math.round(minutes / 1440), "day");
}

/** What an answer did to its card: up a box (or back to 0), or when FSRS asks it again. */
export function verdictOf(card, right) {
  if (card.scheduler !== "fsrs") return right ? t("quiz_correct", { box: card.box }) : t("quiz_missed");
  return t(right ? "quiz_correct_fsrs" : "quiz_missed_fsrs", { when: dueIn(card) });
}

/** The four grades after an answer in an FSRS deck (none in a Leitner deck): the one the answer
 * counts as is pressed; pressing one grades the answer so and goes on to the next question. */
export function gradeButtons() {
  if (last?.saved.scheduler !== "fsrs") return [];
  const answer = last;
  const pressed = answer.saved.wrong > (answer.before?.wrong ?? 0) ? "again" : "good";
  const buttons = GRADE_NAMES.map((grade) =>
    el(
      "button",
      {
        type: "button",
        class: grade === pressed ? undefined : "secondary",
        "data-grade": grade,
        "aria-pressed": String(grade === pressed),
      },
      t(`grade_${grade}`),
    ),
  );
  for (const button of buttons) {
    button.addEventListener("click", async () => {
      for (const each of buttons) each.disabled = true; // one grade per answer, one step on
      const { edition: name, type, question, before, saved } = answer;
      const graded = await cardbox.record(name, type, question, button.dataset.grade, saved.last, before);
      answer.saved = graded;
      for (const other of buttons) other.setAttribute("aria-pressed", String(other === button));
      $("quiz-grades").dataset.due = String(graded.due);
      changed();
      $("quiz-next").click();
    });
  }
  const group = { id: "quiz-grades", class: "row", role: "group", "aria-label": t("grade_label") };
  return [el("div", { ...group, "data-due": String(answer.saved.due) }, ...buttons)];
}

$("quiz-type").addEventListener("change", showScheduler);
onEditionChange(showScheduler);
document.addEventListener("lextools:cardbox", showScheduler);
showScheduler();
