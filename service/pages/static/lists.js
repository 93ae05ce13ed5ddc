// The lists of the study page: stems, words with a high-value tile, words new in this lexicon, the
// player's own list, and a list handed over by the search page (sessionStorage "lextools:list",
// opened with /study?list=session). Each list can be quizzed and added to the cardbox (quiz.js).
import { api, edition, el, errorText, onEditionChange, segment, t } from "./common.js";
import { listWords } from "./cardbox.js";
import { addToCardbox, maxAnswers, quizOn } from "./quiz.js";
import { wordList } from "./tiles.js";

const $ = (id) => document.getElementById(id);
const SETTINGS = JSON.parse($("quiz-settings").textContent).list_settings;
const HANDED_OVER = "lextools:list";

/** The list shown: {edition, title, words: [text], racks: [text], next: fetch of the next page or null}. */
let shown = null;

function fitKind() {
  const kind = $("lists-kind").value;
  $("lists-stem-field").hidden = kind !== "stems";
  $("lists-tile-field").hidden = kind !== "high-value";
  $("lists-against-field").hidden = kind !== "new";
  $("lists-length-field").hidden = !["high-value", "new"].includes(kind);
  $("lists-file-field").hidden = kind !== "upload";
}

/** "Frente a": another edition of the same language by default (es-fise → es-na103), never the edition itself. */
function fitEdition() {
  const { name } = edition();
  const tiles = SETTINGS.high_value[name] ?? [];
  $("lists-tile").replaceChildren(...tiles.map((tile) => el("option", { value: tile }, tile)));
  const against = $("lists-against");
  for (const option of against.options) option.disabled = option.value === name;
  const preferred = SETTINGS.against?.[name];
  const usable = [...against.options].filter((o) => !o.disabled);
  against.value = (usable.find((o) => o.value === preferred) ?? usable[0])?.value ?? "";
}

function say(text) {
  $("lists-message").textContent = text;
}

const number = (n) => new Intl.NumberFormat(edition().lang).format(n);

function show(list, items, total, from = 1) {
  shown = list;
  const out = $("lists-result");
  const count = list.words.length + list.racks.length;
  const all = number(total ?? count);
  const head = from > 1 && count
    ? t("lists_range", { title: list.title, first: number(from), last: number(from + count - 1), total: all })
    : t("lists_count", { title: list.title, count: number(count), total: all });
  out.replaceChildren(el("p", { class: "lists-count" }, head), ...items);
  $("lists-actions").hidden = count === 0;
  $("lists-more").hidden = !list.next;
  if (!count) say(t("lists_empty"));
}

/** The request being answered: a newer one (another list, another edition) makes an older one's
 * answers, and its polling while the list is made, stop. */
let asking = 0;

/** The list's buttons while a page is asked for: disabled until it is shown or has failed. */
function busy(on) {
  for (const id of ["lists-show", "lists-more"]) $(id).disabled = on;
  $("lists-form").setAttribute("aria-busy", String(on));
}

const pause = (seconds) => new Promise((done) => setTimeout(done, seconds * 1000));

/** A page of a server list (stems, high-value, new); ``from`` the first item. While the server is
 * still making the list it answers ready: false with its progress: that is shown, and the page asked
 * again after Retry-After, until it is ready, it fails, or the player asks for something else. */
async function fetchPage(from) {
  const mine = ++asking;
  busy(true);
  try {
    await askPage(from, mine);
  } finally {
    if (mine === asking) busy(false);
  }
}

async function askPage(from, mine) {
  const { name } = edition();
  const kind = $("lists-kind").value;
  const query = new URLSearchParams({ from: String(from) });
  const length = $("lists-length").value;
  if (kind === "stems") query.set("length", $("lists-stem").value);
  if (kind === "high-value") query.set("tile", $("lists-tile").value);
  if (kind === "new") query.set("against", $("lists-against").value);
  if (kind !== "stems") {
    query.set("count", String(SETTINGS.max_page));
    if (length) query.set("length", length);
  }
  let result;
  for (;;) {
    result = await api(`${segment(name)}/lists/${kind}?${query}`);
    if (mine !== asking) return;
    if (!result.ok || result.body.ready !== false) break;
    say(t("lists_making", { percent: Math.floor(100 * (result.body.progress ?? 0)) }));
    await pause(Number(result.headers?.get?.("Retry-After")) || 1);
    if (mine !== asking) return;
  }
  if (!result.ok) {
    say(errorText(result));
    return;
  }
  say("");
  const answer = result.body;
  const title = $("lists-kind").selectedOptions[0].textContent.trim();
  const next = answer.from + answer.count <= answer.total ? () => fetchPage(answer.from + answer.count) : null;
  if (kind === "stems") {
    const items = answer.stems.map((stem) =>
      el(
        "div",
        { class: "stem", "data-stem": stem.stem },
        el("p", {}, el("strong", {}, `#${stem.rank} ${stem.stem}`), ` — ${t("lists_stem_line", { takes: stem.takes.length })}: ${stem.takes.join(" ")}`),
        wordList(stem.words),
      ),
    );
    show({ edition: name, title, words: [], racks: answer.stems.map((stem) => stem.rack), next }, items, answer.total, answer.from);
  } else {
    show({ edition: name, title, words: answer.words.map((w) => w.word), racks: [], next }, [wordList(answer.words)], answer.total, answer.from);
  }
}

/** A list the player brings: a file of words, checked by the server when quizzed. */
async function fromFile() {
  const file = $("lists-file").files[0];
  if (!file) return;
  const words = listWords(await file.text()).slice(0, SETTINGS.max_lines);
  showWords({ edition: edition().name, title: file.name, words });
}

function showWords(list) {
  show(
    { edition: list.edition, title: list.title, words: list.words, racks: [], next: null },
    [el("ul", { class: "wordflow" }, ...list.words.map((word) => el("li", {}, word)))],
  );
}

$("lists-kind").addEventListener("change", () => {
  fitKind();
  if ($("lists-show").disabled) {
    asking++; // the list being waited for is not the one chosen now
    busy(false);
    say("");
  }
});
$("lists-form").addEventListener("submit", (event) => {
  event.preventDefault();
  say("");
  if ($("lists-kind").value === "upload") fromFile();
  else fetchPage(1);
});
$("lists-more").addEventListener("click", () => shown?.next?.());

/** The shown list's anagram questions (at most what one request takes); refused words are reported. */
async function questions() {
  if (!shown) return null;
  const body = { words: shown.words.slice(0, SETTINGS.max_quiz_items), racks: shown.racks.slice(0, SETTINGS.max_quiz_items) };
  const result = await api(`${segment(shown.edition)}/lists/quiz?max_answers=${maxAnswers()}`, { json: body });
  if (!result.ok) {
    say(errorText(result));
    return null;
  }
  const { refused } = result.body;
  say(refused.length ? t("lists_refused", { count: refused.length, items: refused.slice(0, 5).map((r) => r.reason).join("; ") }) : "");
  return Object.assign(result.body.questions, { over: result.body.over_max });
}

$("lists-quiz").addEventListener("click", async () => {
  const found = await questions();
  if (found) quizOn(shown.edition, found, null, found.over);
});
$("lists-add").addEventListener("click", async () => {
  const found = await questions();
  if (found) say(t("lists_added", { count: await addToCardbox(shown.edition, found) }));
});

/** The search page's hand-over ("quiz on these"): /study?list=session opens the list it left in
 * sessionStorage and starts a quiz on it; the list stays shown, to add it to the cardbox. */
async function handedOver() {
  if (new URLSearchParams(location.search).get("list") !== "session") return;
  let list;
  try {
    list = JSON.parse(sessionStorage.getItem(HANDED_OVER) ?? "null");
  } catch {
    list = null;
  }
  if (!list || !Array.isArray(list.words)) return;
  const select = $("edition");
  if (list.edition && select.value !== list.edition && [...(select.options ?? [])].some((o) => o.value === list.edition)) {
    select.value = list.edition;
    select.dispatchEvent(new Event("change"));
  }
  const words = list.words.filter((w) => typeof w === "string").slice(0, SETTINGS.max_lines);
  const title = String(list.title ?? t("lists_session"));
  showWords({ edition: edition().name, title, words });
  const found = await questions();
  if (found) quizOn(shown.edition, found, title, found.over);
}

onEditionChange(() => {
  asking++; // a list still being made for the other edition is no longer waited for
  busy(false);
  fitEdition();
  shown = null;
  $("lists-result").replaceChildren();
  $("lists-actions").hidden = true;
  say("");
});

fitKind();
fitEdition();
handedOver();
