// The quizzes of the study page: anagram, build, hooks, word-or-phony and word lists, with a cardbox.
//
// Questions come from GET /v1/{edition}/quiz with a fresh seed per session; the cards due in the
// cardbox (cardbox.js) are asked first, then the new questions. A missed question goes back into
// the session a few questions later, and to box 0 of the cardbox. Answers are typed in any notation:
// the server spells them (GET /v1/{edition}/words/…), so CH, 1 and [CH] are the same tile.
import * as cardbox from "./cardbox.js";
import { api, edition, el, errorText, onEditionChange, segment, t } from "./common.js";
import { cardButton } from "./card.js";
import { gradeButtons, recordAnswer, verdictOf } from "./decks.js";
import { rackTiles, wordList, wordTiles } from "./tiles.js";

const $ = (id) => document.getElementById(id);
const SETTINGS = JSON.parse($("quiz-settings").textContent);
/** A missed question is asked again after this many others (or last, near the end). */
const AGAIN_AFTER = 2;

let session = null; // {edition, type, queue: [{question, box}], index, asked, right, current, timer}

const typeKey = (type) => type.replaceAll("-", "_");
const chosenType = () => $("quiz-type").value;

// -- the form ---------------------------------------------------------------------------------------

function listLabel(name) {
  return name.startsWith("with-") ? t("quiz_list_with", { tile: name.slice(5) }) : t(`quiz_list_${typeKey(name)}`);
}

/** The edition's named lists, and probability order only where its tile counts are known. */
function fitEdition() {
  const { name } = edition();
  const select = $("quiz-list");
  const kept = select.value;
  const names = SETTINGS.lists[name] ?? [];
  select.replaceChildren(...names.map((list) => el("option", { value: list }, listLabel(list))));
  if (names.includes(kept)) select.value = kept;
  const order = $("quiz-order");
  const probability = order.querySelector('option[value="probability"]');
  const wasForced = probability.disabled;
  probability.disabled = !SETTINGS.probability[name];
  if (probability.disabled) order.value = "alphabetical";
  else if (wasForced) order.value = "probability"; // back from an edition without tile counts
  fitLength();
}

/** A two-tile or three-tile list says its length; every other quiz lets the player choose. */
function fitLength() {
  const fixed = chosenType() === "list" ? SETTINGS.fixed_list_length[$("quiz-list").value] : undefined;
  const length = $("quiz-length");
  length.disabled = Boolean(fixed);
  if (fixed) length.value = String(fixed);
}

$("quiz-type").addEventListener("change", () => {
  const type = chosenType();
  $("quiz-list-field").hidden = type !== "list";
  $("quiz-min-field").hidden = type !== "build";
  $("quiz-length").value = String(SETTINGS.default_length[type]);
  fitLength();
  showCardbox();
});
$("quiz-list").addEventListener("change", fitLength);

function message(text) {
  $("quiz-message").textContent = text;
}

/** The most answers a question may have, as the player set it (the API's max_answers; default 20). */
export function maxAnswers() {
  const asked = Number.parseInt($("quiz-max").value, 10);
  return String(Number.isInteger(asked) && asked >= 1 ? Math.min(asked, SETTINGS.max_answers_limit) : SETTINGS.max_answers);
}

/** What a quiz left out: its questions with more answers than the player's bound. */
function sayOverMax(over) {
  if (over) message(`${$("quiz-message").textContent} ${t("quiz_over_max", { count: over, max: maxAnswers() })}`.trim());
}

function queryOf(type) {
  const query = new URLSearchParams({
    type,
    blanks: $("quiz-blanks").value,
    order: $("quiz-order").value,
    from: $("quiz-from").value || "1",
    count: $("quiz-count").value || "10",
    max_answers: maxAnswers(),
  });
  if (!$("quiz-length").disabled) query.set("length", $("quiz-length").value);
  if ($("quiz-to").value) query.set("to", $("quiz-to").value);
  if (type === "build" && $("quiz-min").value) query.set("min_length", $("quiz-min").value);
  if (type === "list") query.set("list", $("quiz-list").value);
  else query.set("seed", String(Math.floor(Math.random() * SETTINGS.max_seed)));
  return query;
}

async function start(event) {
  event?.preventDefault();
  stopTimer();
  const { name } = edition();
  const type = chosenType();
  const query = queryOf(type);
  message("");
  $("quiz-list-result").replaceChildren();
  const result = await api(`${segment(name)}/quiz?${query}`);
  if (!result.ok) {
    message(errorText(result));
    return;
  }
  const quiz = result.body;
  if (type === "list") {
    showList(quiz);
    return;
  }
  // The settings travel with each question into the cardbox, so a due card is asked as it was.
  const asked = (q) => ({ ...q, length: quiz.length, blanks: quiz.blanks, min_length: quiz.min_length });
  const now = Date.now();
  const due = (await cardbox.cards(cardbox.deckOf(name, type)))
    .filter((card) => card.due <= now && card.question.length === quiz.length && card.question.blanks === quiz.blanks)
    .sort((a, b) => a.due - b.due)
    .slice(0, SETTINGS.max_count);
  const dueIds = new Set(due.map((card) => card.question.id));
  const fresh = quiz.questions.filter((q) => !dueIds.has(q.id)).map((q) => ({ question: asked(q), box: null }));
  const queue = [...due.map((card) => ({ question: card.question, box: card.box ?? "FSRS" })), ...fresh];
  if (!queue.length) {
    message(t("quiz_empty"));
    sayOverMax(quiz.over_max);
    return;
  }
  begin(name, type, queue, query.get("seed"));
  sayOverMax(quiz.over_max);
}

function begin(name, type, queue, seed) {
  session = { edition: name, type, seed, queue, index: 0, asked: 0, right: 0, current: null, timer: null };
  $("quiz-round").dataset.seed = seed ?? "";
  showScore();
  ask();
}

/** The settings of a rack question (its tiles and blanks), kept with its card. */
function rackSettings(q) {
  const blanks = q.rack.filter((tile) => tile === "?").length;
  return { ...q, length: q.rack.length, blanks, min_length: null };
}

/** Quiz on a list's anagram questions (POST /v1/{edition}/lists/quiz, asked with maxAnswers()): every
 * question is new; ``over`` the alphagrams the server left out for having more answers. */
export function quizOn(name, questions, title = null, over = 0) {
  stopTimer();
  message("");
  $("quiz-list-result").replaceChildren();
  $("quiz-type").value = "anagram";
  $("quiz-list-field").hidden = true;
  $("quiz-min-field").hidden = true;
  if (!questions.length) {
    message(t("quiz_empty"));
    return;
  }
  begin(name, "anagram", questions.map((q) => ({ question: rackSettings(q), box: null })), null);
  if (title !== null) message(t("list_quiz", { title, count: questions.length }));
  sayOverMax(over);
  $("quiz-heading").scrollIntoView();
}

/** Add a list's questions to the cardbox as new cards; resolves to how many were new. */
export async function addToCardbox(name, questions) {
  const added = await cardbox.addCards(name, "anagram", questions.map(rackSettings));
  showCardbox();
  return added;
}

$("quiz-setup").addEventListener("submit", start);

// -- one question -----------------------------------------------------------------------------------

/** The words a question wants typed, as {word, tiles}: anagrams, or the words its hooks make (with
 * the hook tile, which may be typed alone). */
function expectedEntries(type, q) {
  if (type === "hooks") {
    return [
      ...q.front.map((tile) => ({ word: tile + q.word, tiles: [tile, ...q.tiles], hook: tile })),
      ...q.back.map((tile) => ({ word: q.word + tile, tiles: [...q.tiles, tile], hook: tile })),
    ];
  }
  return q.answers ?? [];
}

/** In a hooks question a hook tile typed alone (S, or CH in any notation: the service spells it)
 * stands for the word it makes: S for SALA. A tile that hooks both ends stands for the front word
 * first, then, typed again, for the back one. Null when the answer is not one tile of a hook. */
function hookedWord(current, tiles) {
  if (session.type !== "hooks" || tiles?.length !== 1) return null;
  const made = current.entries.filter((e) => e.hook === tiles[0]).map((e) => e.word);
  return made.find((word) => !current.found.has(word)) ?? made[0] ?? null;
}

function ask() {
  const s = session;
  if (s.index >= s.queue.length) {
    endSession();
    return;
  }
  const { question: q, box } = s.queue[s.index];
  const entries = expectedEntries(s.type, q);
  s.current = { question: q, entries, expected: new Set(entries.map((e) => e.word)), found: new Set(), wrong: 0, wrongWords: [], done: false };
  const phony = s.type === "word-or-phony";
  $("quiz-status").textContent = `${t("quiz_question", { number: s.index + 1, total: s.queue.length })} · ${
    box === null ? t("quiz_new") : t(box === "FSRS" ? "quiz_due_fsrs" : "quiz_due", { box })
  }`;
  $("quiz-prompt").textContent = t(`quiz_prompt_${typeKey(s.type)}`, { min: q.min_length ?? "" });
  const help = s.type === "hooks" ? "quiz_answer_help_hooks" : "quiz_answer_help";
  $("quiz-help").dataset.i18n = help;
  $("quiz-help").textContent = t(help);
  const rack = $("quiz-rack");
  rack.dataset.question = q.id;
  rackTiles(rack, q.rack ?? q.tiles);
  showFound();
  $("quiz-form").hidden = phony;
  $("quiz-help").hidden = phony;
  $("quiz-judge").hidden = !phony;
  for (const id of ["quiz-valid", "quiz-phony"]) $(id).disabled = false;
  $("quiz-marks").replaceChildren();
  $("quiz-outcome").replaceChildren();
  delete $("quiz-outcome").dataset.right;
  $("quiz-next").hidden = true;
  $("quiz-round").hidden = false;
  const input = $("quiz-answer");
  input.disabled = false;
  input.value = "";
  (phony ? $("quiz-valid") : input).focus();
  startTimer();
}

/** "12 of 20 found", as the player goes. */
function showFound() {
  const current = session?.current;
  const shown = $("quiz-to-find");
  if (!current || session.type === "word-or-phony") {
    shown.textContent = "";
    return;
  }
  shown.dataset.found = String(current.found.size);
  shown.dataset.total = String(current.expected.size);
  shown.textContent = t("quiz_found", { found: current.found.size, total: current.expected.size });
}

function mark(text, ok) {
  $("quiz-marks").append(el("li", { class: ok ? "right" : "wrong" }, `${ok ? "✓" : "✗"} ${text}`));
}

async function answer(typed) {
  const current = session?.current;
  if (!current || current.done) return;
  if (!typed) {
    finish();
    return;
  }
  const result = await api(`${segment(session.edition)}/words/${segment(typed)}`);
  if (current.done) return; // the question ended (timer, reveal) while the answer was on its way
  const word = result.ok ? (hookedWord(current, result.body.tiles) ?? result.body.word) : typed.toUpperCase();
  if (result.ok && current.expected.has(word)) {
    mark(t(current.found.has(word) ? "quiz_again" : "quiz_right", { word }), true);
    current.found.add(word);
    showFound();
  } else if (result.ok || result.status === 422) {
    current.wrong += 1;
    if (!current.wrongWords.includes(word)) current.wrongWords.push(word);
    mark(t("quiz_wrong", { word }), false);
  } else {
    mark(errorText(result), false);
  }
  if (current.found.size === current.expected.size) finish();
}

$("quiz-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = $("quiz-answer");
  const typed = input.value.trim();
  input.value = "";
  answer(typed);
});
$("quiz-reveal").addEventListener("click", () => finish());
$("quiz-valid").addEventListener("click", () => judge(true));
$("quiz-phony").addEventListener("click", () => judge(false));

function judge(saidValid) {
  const current = session?.current;
  if (!current || current.done) return;
  current.judged = saidValid;
  finish();
}

async function finish(timeUp = false) {
  const s = session;
  const current = s?.current;
  if (!current || current.done) return;
  current.done = true;
  stopTimer();
  const q = current.question;
  // Time running out is a miss, even on a question whose answer is "none" (a word without hooks).
  const right =
    !timeUp &&
    (s.type === "word-or-phony"
      ? current.judged === q.valid
      : current.found.size === current.expected.size && current.wrong === 0);
  s.asked += 1;
  const saved = await recordAnswer(s.edition, s.type, q, right);
  if (right) s.right += 1;
  else s.queue.splice(Math.min(s.index + 1 + AGAIN_AFTER, s.queue.length), 0, { question: q, box: saved.box ?? "FSRS" });

  const outcome = $("quiz-outcome");
  outcome.dataset.right = String(right);
  const verdict = verdictOf(saved, right);
  outcome.replaceChildren(
    el("p", { class: right ? "valid" : "invalid" }, timeUp ? `${t("quiz_time_up")} ${verdict}` : verdict),
  );
  if (s.type === "word-or-phony") {
    outcome.append(el("p", {}, t(q.valid ? "quiz_was_valid" : "quiz_was_phony", { word: q.word, from: q.from ?? "" })));
  } else {
    outcome.append(
      el("p", {}, `${t("quiz_answers")} ${current.entries.length ? "" : t("quiz_none")}`),
      solutionList(current),
    );
    if (current.wrongWords.length) {
      outcome.append(
        el("p", {}, t("quiz_wrong_answers")),
        el("ul", { class: "solutions" }, ...current.wrongWords.map((word) => markedItem("wrong", word))),
      );
    }
  }
  outcome.append(...gradeButtons());
  showScore();
  showCardbox();
  $("quiz-answer").disabled = true;
  for (const id of ["quiz-valid", "quiz-phony"]) $(id).disabled = true;
  const next = $("quiz-next");
  next.hidden = false;
  next.focus(); // Enter goes straight on
}

/** An answer of the solution list marked found, missed or wrong: a class and a text mark in the
 * page's language, never the colour alone. */
function markedItem(kind, ...content) {
  return el("li", { class: kind, "data-mark": kind }, el("span", { class: "mark" }, t(`quiz_mark_${kind}`)), " ", ...content);
}

/** The answers, each marked found or missed (the words are buttons that open their cards). */
function solutionList(current) {
  return el(
    "ul",
    { class: "solutions wordflow" },
    ...current.entries.map((entry) =>
      markedItem(current.found.has(entry.word) ? "found" : "missed", cardButton(entry.word, wordTiles(entry))),
    ),
  );
}

$("quiz-next").addEventListener("click", () => {
  if (!session) return;
  session.index += 1;
  ask();
});

function endSession() {
  stopTimer();
  $("quiz-round").hidden = true;
  message(t("quiz_done"));
  $("quiz-start").focus();
}

// -- the timer --------------------------------------------------------------------------------------

function startTimer() {
  const seconds = Number($("quiz-timer").value);
  const shown = $("quiz-timer-left");
  shown.textContent = "";
  if (!seconds) return;
  let left = seconds;
  shown.textContent = t("quiz_time_left", { seconds: left });
  session.timer = setInterval(() => {
    left -= 1;
    shown.textContent = t("quiz_time_left", { seconds: left });
    if (left <= 0) finish(true);
  }, 1000);
}

function stopTimer() {
  if (session?.timer) clearInterval(session.timer);
  if (session) session.timer = null;
}

// -- word lists -------------------------------------------------------------------------------------

function showList(quiz) {
  $("quiz-round").hidden = true;
  const out = $("quiz-list-result");
  const ranks = quiz.questions.map((q) => q.rank);
  out.replaceChildren(
    el("p", {}, t("quiz_list_count", { count: quiz.count, from: Math.min(...ranks), to: Math.max(...ranks) })),
    wordList(quiz.questions),
  );
  if (quiz.from + quiz.count <= quiz.to) {
    const more = el("button", { type: "button", class: "secondary", id: "quiz-more" }, t("quiz_more"));
    more.addEventListener("click", () => {
      $("quiz-from").value = String(quiz.from + quiz.count);
      start().then(() => $("quiz-more")?.focus());
    });
    out.append(more);
  }
}

/** A word list as new cards: the server spells and checks each word, and says why it left one out. */
async function importList(text) {
  const { name } = edition();
  const words = cardbox.listWords(text).slice(0, SETTINGS.list_settings.max_lines);
  if (!words.length) return t("cardbox_bad_file");
  let added = 0;
  const refused = [];
  for (let at = 0; at < words.length; at += SETTINGS.list_settings.max_quiz_items) {
    const chunk = words.slice(at, at + SETTINGS.list_settings.max_quiz_items);
    const result = await api(`${segment(name)}/lists/quiz?max_answers=${maxAnswers()}`, { json: { words: chunk } });
    if (!result.ok) return errorText(result);
    added += await cardbox.addCards(name, "anagram", result.body.questions.map(rackSettings));
    refused.push(...result.body.refused);
  }
  const examples = refused.slice(0, 5).map((item) => item.reason).join("; ");
  return t("cardbox_list_imported", { count: added, refused: refused.length, examples: examples ? ` — ${examples}` : "" });
}

// -- score and cardbox ------------------------------------------------------------------------------

function showScore() {
  $("quiz-score").textContent = session?.asked ? t("quiz_score", { right: session.right, asked: session.asked }) : "";
}

async function showCardbox() {
  const { name } = edition();
  const type = chosenType();
  const list = await cardbox.cards(cardbox.deckOf(name, type));
  const now = Date.now();
  const due = list.filter((card) => card.due <= now).length;
  const byBox = {};
  for (const card of list) byBox[card.box ?? "FSRS"] = (byBox[card.box ?? "FSRS"] ?? 0) + 1;
  const summary = $("cardbox-summary");
  summary.dataset.cards = String(list.length);
  summary.dataset.due = String(due);
  summary.textContent = list.length
    ? t("cardbox_summary", { edition: name, type: t(`quiz_type_${typeKey(type)}`), cards: list.length, due })
    : t("cardbox_empty");
  const boxes = $("cardbox-boxes");
  boxes.dataset.boxes = JSON.stringify(byBox);
  boxes.textContent = list.length
    ? t("cardbox_boxes", { boxes: Object.entries(byBox).map(([box, n]) => `${box}: ${n}`).join(" · ") })
    : "";
}

$("cardbox-export").addEventListener("click", async () => {
  const text = await cardbox.exportText();
  const count = JSON.parse(text).cards.length;
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const link = el("a", { href: url, download: `lextools-cardbox-${new Date().toISOString().slice(0, 10)}.json` });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  $("cardbox-message").textContent = t("cardbox_exported", { count });
});

$("cardbox-import").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (!file) return;
  const out = $("cardbox-message");
  const text = await file.text();
  try {
    out.textContent = t("cardbox_imported", { count: await cardbox.importText(text) });
  } catch (error) {
    // Not JSON: a plain word list (one per line, any notation) or a Zyzzyva export, read as new cards.
    out.textContent = error.message === "not JSON" ? await importList(text) : t("cardbox_bad_file");
  }
  event.target.value = "";
  showCardbox();
});

onEditionChange(() => {
  stopTimer();
  session = null;
  $("quiz-round").hidden = true;
  $("quiz-list-result").replaceChildren();
  message("");
  showScore();
  fitEdition();
  showCardbox();
});

document.addEventListener("lextools:cardbox", () => showCardbox()); // sync.js took cards from the server

fitEdition();
showCardbox();
