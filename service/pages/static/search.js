// The search page: anagrams, builds and patterns with the conditions a player combines, from
// GET /v1/{edition}/anagrams/{rack} and GET /v1/{edition}/search. Results are drawn as tiles,
// grouped by length in tiles, a page at a time (the API's next_cursor); each word opens its card
// (card.js). The results can be quizzed (handed to the study page), added to the cardbox as anagram
// cards, or downloaded as a plain list.
import * as cardbox from "./cardbox.js";
import { api, edition, el, errorText, onEditionChange, segment, t } from "./common.js";
import { anagramQuestions } from "./questions.js";
import { wordList } from "./tiles.js";

const $ = (id) => document.getElementById(id);
/** Empty pages in a row (the server still working, a cursor to ask again) before giving up. */
const MAX_EMPTY_PAGES = 100;

let state = null; // {edition, mode, path, params, words, cursor, title}

function message(text) {
  $("search-message").textContent = text;
}

function newSearch() {
  const { name } = edition();
  const mode = $("search-mode").value;
  const text = $("search-query").value.trim();
  const params = new URLSearchParams({ order: $("search-order").value });
  // One input per search condition (the page's form is made from the conditions' table).
  for (const input of document.querySelectorAll("#search-form [data-condition]")) {
    const value = input.value.trim();
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
  return { edition: name, mode, path, params, words: [], cursor: null, title: t("search_list_title", { query: text }) };
}

/** The next page with words in it (a page may come back empty while the server is still working). */
async function fetchPage(search) {
  for (let tries = 0; tries < MAX_EMPTY_PAGES; tries += 1) {
    const params = new URLSearchParams(search.params);
    if (search.cursor) params.set("cursor", search.cursor);
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

$("search-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const search = newSearch();
  state = search;
  $("search-action-message").textContent = "";
  message(t("search_working"));
  const failed = await fetchPage(search);
  if (state !== search) return; // another search started meanwhile
  message(failed);
  show(search);
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

$("search-quiz").addEventListener("click", () => {
  if (!state?.words.length) return;
  const list = { edition: state.edition, title: state.title, words: state.words.map((w) => w.word) };
  sessionStorage.setItem("lextools:list", JSON.stringify(list));
  location.href = `/study?list=session&edition=${encodeURIComponent(state.edition)}`;
});

$("search-cardbox").addEventListener("click", async () => {
  if (!state?.words.length) return;
  const out = $("search-action-message");
  out.textContent = t("search_working");
  const questions = await anagramQuestions(state.edition, state.words);
  const added = await cardbox.addCards(state.edition, "anagram", questions);
  out.textContent = t("search_added", { count: added });
  out.dataset.added = String(added);
});

$("search-download").addEventListener("click", () => {
  if (!state?.words.length) return;
  const text = `${state.words.map((w) => w.word).join("\n")}\n`;
  const url = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" }));
  const link = el("a", { href: url, download: `lextools-${state.edition}-search.txt` });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
});

onEditionChange(() => {
  state = null;
  $("search-results").replaceChildren();
  $("search-actions").hidden = true;
  message("");
});
