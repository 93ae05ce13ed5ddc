// The search page: anagrams, builds and patterns with the conditions a player combines (each with its
// "not"), from GET /v1/{edition}/anagrams/{rack} and GET /v1/{edition}/search. Results are drawn as
// tiles, grouped by length in tiles, a page at a time (the API's next_cursor); each word opens its
// card (card.js). The actions — quiz (handed to the study page), cardbox, download — take the whole
// result: the pages left are fetched through the cursor, up to the form's data-whole-limit.
// The query lives in the address bar (?mode=&q=&order=&<condition>=…): a search is bookmarked,
// shared and reopened from its URL, and saved by name in localStorage.
import * as cardbox from "./cardbox.js";
import { api, edition, el, errorText, onEditionChange, segment, t } from "./common.js";
import { anagramQuestions } from "./questions.js";
import { wordList } from "./tiles.js";

const $ = (id) => document.getElementById(id);
/** Empty pages in a row (the server still working, a cursor to ask again) before giving up. */
const MAX_EMPTY_PAGES = 100;
/** The most words the actions gather (the app's SEARCH_WHOLE_LIMIT), and the most a page may ask. */
const WHOLE_LIMIT = Number($("search-form").dataset.wholeLimit);
const PAGE_LIMIT = Number($("search-form").dataset.pageLimit);
/** The saved searches: [{name, query}] in localStorage, query the address bar's text. */
const SAVED = "lextools:searches";

let state = null; // {edition, mode, path, params, words, cursor, title, query}

function message(text) {
  $("search-message").textContent = text;
}

function conditionInputs() {
  return document.querySelectorAll("#search-form [data-condition]");
}

/** The form as the address bar holds it: edition, mode, q, order and each condition given. */
function formQuery() {
  const query = new URLSearchParams({ edition: edition().name, mode: $("search-mode").value });
  query.set("q", $("search-query").value.trim());
  query.set("order", $("search-order").value);
  for (const input of conditionInputs()) {
    const value = input.type === "checkbox" ? (input.checked ? "true" : "") : input.value.trim();
    if (value) query.set(input.name, value);
  }
  return query;
}

/** The form filled from an address bar's query (what formQuery wrote). */
function fillForm(query) {
  const known = (select, value) => [...select.options].some((o) => o.value === value);
  if (known($("search-mode"), query.get("mode"))) $("search-mode").value = query.get("mode");
  if (known($("search-order"), query.get("order"))) $("search-order").value = query.get("order");
  $("search-query").value = query.get("q") ?? "";
  for (const input of conditionInputs()) {
    if (input.type === "checkbox") input.checked = query.get(input.name) === "true";
    else input.value = query.get(input.name) ?? "";
  }
}

/** A search of the API from a query of the address bar. */
function newSearch(query) {
  const name = query.get("edition") ?? edition().name;
  const mode = query.get("mode") ?? "anagram";
  const text = query.get("q") ?? "";
  const params = new URLSearchParams({ order: query.get("order") ?? "alpha" });
  for (const input of conditionInputs()) {
    const value = query.get(input.name);
    if (value) params.set(input.name, value);
  }
  let path;
  if (mode === "pattern") {
    params.set("pattern", text);
    path = `${segment(name)}/search`;
  } else {
    if (mode === "build") params.set("sub", "true");
    path = `${segment(name)}/anagrams/${segment(text)}`;
  }
  const title = t("search_list_title", { query: text });
  return { edition: name, mode, path, params, words: [], cursor: null, title, query: query.toString() };
}

/** The next page with words in it (a page may come back empty while the server is still working);
 * ``limit``: the words to ask for (the API's default when not given). */
async function fetchPage(search, limit = null) {
  for (let tries = 0; tries < MAX_EMPTY_PAGES; tries += 1) {
    const params = new URLSearchParams(search.params);
    if (search.cursor) params.set("cursor", search.cursor);
    if (limit) params.set("limit", String(limit));
    const result = await api(`${search.path}?${params}`);
    if (!result.ok) {
      search.cursor = null;
      return errorText(result);
    }
    search.words.push(...result.body.words);
    search.cursor = result.body.next_cursor;
    if (result.body.words.length || !search.cursor) return "";
  }
  return "";
}

/** The whole result, every page up to WHOLE_LIMIT words: {words, cut, failed}; cut when the
 * search holds more than the bound. Shown as it grows. */
async function whole(search, out) {
  while (search.cursor && search.words.length < WHOLE_LIMIT) {
    out.textContent = t("search_gathering", { count: search.words.length });
    const failed = await fetchPage(search, Math.min(PAGE_LIMIT, WHOLE_LIMIT - search.words.length));
    if (failed) return { words: [], cut: false, failed };
  }
  if (state === search) show(search);
  const cut = Boolean(search.cursor) || search.words.length > WHOLE_LIMIT;
  out.textContent = cut ? t("search_whole_cut", { count: WHOLE_LIMIT }) : "";
  return { words: search.words.slice(0, WHOLE_LIMIT), cut, failed: "" };
}

/** The words grouped by length in tiles: shortest first for patterns and in probability order (Zyzzyva's),
 * longest first for anagrams and builds in the alphabet. */
function groups(search) {
  const byLength = new Map();
  for (const entry of search.words) {
    const n = entry.tiles.length;
    if (!byLength.has(n)) byLength.set(n, []);
    byLength.get(n).push(entry);
  }
  const shortestFirst = search.mode === "pattern" || search.params.get("order") === "probability";
  const lengths = [...byLength.keys()].sort((a, b) => (shortestFirst ? a - b : b - a));
  return lengths.map((n) =>
    el(
      "section",
      { class: "length-group", "data-length": String(n) },
      el("h2", {}, t("search_group", { length: n })),
      wordList(byLength.get(n)),
    ),
  );
}

function show(search) {
  const out = $("search-results");
  const count = search.words.length;
  out.dataset.count = String(count);
  out.dataset.done = String(!search.cursor);
  const summary = count ? t(search.cursor ? "search_count" : "search_count_all", { count }) : t("search_none");
  out.replaceChildren(el("p", { id: "search-count" }, summary), ...groups(search));
  $("search-actions").hidden = !count;
  $("search-more").hidden = !search.cursor;
}

/** Run the search of an address bar's query; ``push``: a new entry in the browser's history. */
async function run(query, push) {
  const search = newSearch(query);
  state = search;
  const url = `${location.pathname}?${query}`;
  if (push && url !== location.pathname + location.search) history.pushState(null, "", url);
  else history.replaceState(null, "", url);
  $("search-action-message").textContent = "";
  $("search-save-name").value = query.get("q") ?? "";
  message(t("search_working"));
  const failed = await fetchPage(search);
  if (state !== search) return; // another search started meanwhile
  message(failed);
  show(search);
  // The results come into view, the conditions fold away (their summary opens them again).
  $("search-conditions").open = false;
  $("search-message").scrollIntoView({ block: "start" });
}

$("search-form").addEventListener("submit", (event) => {
  event.preventDefault();
  run(formQuery(), true);
});

$("search-more").addEventListener("click", async () => {
  const search = state;
  if (!search?.cursor) return;
  message(t("search_working"));
  const failed = await fetchPage(search);
  if (state !== search) return;
  message(failed);
  show(search);
  // The focus goes to the first new word (Enter on More then Tab reads on from there).
  const buttons = $("search-results").querySelectorAll("[data-card-word]");
  const first = [...buttons].find((b) => !b.dataset.seen);
  buttons.forEach((b) => { b.dataset.seen = "1"; });
  (search.cursor ? $("search-more") : first ?? $("search-quiz")).focus();
});

// -- the actions, on the whole result -------------------------------------------------------------

$("search-quiz").addEventListener("click", async () => {
  const search = state;
  if (!search?.words.length) return;
  const { words, cut, failed } = await whole(search, $("search-action-message"));
  if (failed || !words.length) return void ($("search-action-message").textContent = failed);
  const title = cut ? t("search_list_title_cut", { title: search.title, count: words.length }) : search.title;
  // The count handed over is the API's: every word of every page (up to the bound, said in the title).
  const list = { edition: search.edition, title, words: words.map((w) => w.word), total: words.length, cut };
  sessionStorage.setItem("lextools:list", JSON.stringify(list));
  location.href = `/study?list=session&edition=${encodeURIComponent(search.edition)}`;
});

$("search-cardbox").addEventListener("click", async () => {
  const search = state;
  if (!search?.words.length) return;
  const out = $("search-action-message");
  const { words, cut, failed } = await whole(search, out);
  if (failed) return void (out.textContent = failed);
  out.textContent = t("search_working");
  const questions = await anagramQuestions(search.edition, words);
  const added = await cardbox.addCards(search.edition, "anagram", questions);
  const said = t("search_added", { count: added });
  out.textContent = cut ? `${said} ${t("search_whole_cut", { count: WHOLE_LIMIT })}` : said;
  out.dataset.added = String(added);
});

$("search-download").addEventListener("click", async () => {
  const search = state;
  if (!search?.words.length) return;
  const { words, failed } = await whole(search, $("search-action-message"));
  if (failed) return void ($("search-action-message").textContent = failed);
  const text = `${words.map((w) => w.word).join("\n")}\n`;
  const url = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" }));
  const link = el("a", { href: url, download: `lextools-${search.edition}-search.txt` });
  document.body.append(link);
  link.click();
  link.remove();
  $("search-actions").dataset.downloaded = String(words.length);
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
});

// The actions are one toolbar: one Tab stop, the arrow keys (and Home, End) move between them.
$("search-actions").addEventListener("keydown", (event) => {
  const buttons = [...$("search-actions").querySelectorAll("button:not([hidden])")];
  const at = buttons.indexOf(document.activeElement);
  const moves = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1, Home: 0, End: -1 };
  if (at < 0 || !(event.key in moves)) return;
  event.preventDefault();
  const next = buttons.at(moves[event.key] % buttons.length);
  for (const button of buttons) button.tabIndex = button === next ? 0 : -1;
  next.focus();
});

// -- the list of a condition "in a word list": typed, or read from a file ------------------------

for (const picker of document.querySelectorAll("[data-list-file]")) {
  picker.addEventListener("change", async () => {
    const file = picker.files?.[0];
    if (file) $(picker.dataset.listFile).value = (await file.text()).trim();
  });
}

// -- saved searches ----------------------------------------------------------------------------------

function savedSearches() {
  try {
    const saved = JSON.parse(localStorage.getItem(SAVED) ?? "[]");
    return Array.isArray(saved) ? saved.filter((s) => typeof s?.name === "string" && typeof s?.query === "string") : [];
  } catch {
    return [];
  }
}

function showSaved() {
  const saved = savedSearches();
  $("search-saved-none").hidden = saved.length > 0;
  $("search-saved-list").replaceChildren(
    ...saved.map((s, i) => {
      const remove = el("button", { type: "button", class: "secondary", "data-remove": String(i) }, t("search_saved_remove"));
      remove.setAttribute("aria-label", `${t("search_saved_remove")}: ${s.name}`);
      return el("li", {}, el("a", { href: `/search?${s.query}`, "data-saved": s.name }, s.name), " ", remove);
    }),
  );
}

$("search-save-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const name = $("search-save-name").value.trim();
  if (!name) return;
  const query = (state?.query ?? formQuery().toString());
  const saved = savedSearches().filter((s) => s.name !== name);
  localStorage.setItem(SAVED, JSON.stringify([...saved, { name, query }]));
  showSaved();
});

$("search-saved-list").addEventListener("click", (event) => {
  const index = event.target.closest?.("[data-remove]")?.dataset.remove;
  if (index === undefined) return;
  const saved = savedSearches();
  saved.splice(Number(index), 1);
  localStorage.setItem(SAVED, JSON.stringify(saved));
  showSaved();
});

// -- the address bar: a search opened from its URL, and the browser's back and forward -------------

function fromAddress() {
  const query = new URLSearchParams(location.search);
  fillForm(query);
  if (query.get("q")) run(query, false);
}

window.addEventListener("popstate", fromAddress);

onEditionChange(() => {
  state = null;
  $("search-results").replaceChildren();
  $("search-actions").hidden = true;
  message("");
});

showSaved();
fromAddress();
