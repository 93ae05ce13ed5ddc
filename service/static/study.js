// The study page: look a word up, list the two-tile words, drill anagrams.
// Everything comes from the /v1 API; the drill's progress stays in this browser's localStorage.
import { api, edition, el, errorText, onEditionChange, segment, t } from "./common.js";

const $ = (id) => document.getElementById(id);

// -- tile values, from the edition's tile table (one request per edition) -----------------------

const tileTables = new Map();

/** The edition's tiles: label → value (null where unverified), and whether every count is known. */
async function tileTable(name) {
  if (!tileTables.has(name)) {
    const result = await api(`editions/${segment(name)}`);
    const tiles = result.body?.tiles ?? [];
    const table = {
      values: new Map(tiles.map((tile) => [tile.label, tile.value])),
      countsKnown: result.ok && tiles.every((tile) => Number.isInteger(tile.count)),
    };
    if (!result.ok) return table; // not kept: a later call may succeed
    tileTables.set(name, table);
  }
  return tileTables.get(name);
}

async function tileValues(name) {
  return (await tileTable(name)).values;
}

/** Tiles drawn as tiles: the label, and the value in the corner (a "?" when unverified). */
function tileRow(tiles, values, className = "tiles") {
  const label = `${t("tiles_label")}: ${tiles.map((tile) => `${tile} ${values.get(tile) ?? "?"}`).join(", ")}`;
  return el(
    "ul",
    // One image-like group read as its label ("Tiles: C 3, A 1, …") rather than a list of fragments.
    { class: className, role: "img", "aria-label": label },
    ...tiles.map((tile) =>
      el("li", { class: "tile", "aria-hidden": "true" }, tile, el("span", { class: "value" }, String(values.get(tile) ?? "?"))),
    ),
  );
}

// -- look up a word -------------------------------------------------------------------------------

$("lookup").addEventListener("submit", async (event) => {
  event.preventDefault();
  const out = $("lookup-result");
  const word = $("lookup-word").value.trim();
  if (!word) return;
  const { name } = edition();
  const [result, values] = await Promise.all([api(`${segment(name)}/words/${segment(word)}`), tileValues(name)]);
  out.replaceChildren();
  if (!result.ok) {
    // 422: the edition cannot spell it (KILO in es-fise); the reason is the point of looking it up.
    const reason = result.body?.error?.message;
    out.append(el("p", { class: "invalid" }, result.status === 422 && reason ? t("lookup_cannot", { reason }) : errorText(result)));
    return;
  }
  const info = result.body;
  const hookList = (labels, makeWord) =>
    labels.length ? labels.map((label) => `${label} (${makeWord(label)})`).join(", ") : t("lookup_none");
  // Why it is not valid (the rule and the source form), or which sources list it.
  const why = [];
  if (!info.valid && info.reason) why.push(el("p", { class: "reason" }, t("lookup_why", { reason: info.reason })));
  if (info.valid && info.sources?.length) {
    why.push(el("p", { class: "provenance" }, t("lookup_sources", { sources: info.sources.join(", ") })));
  }
  out.append(
    el(
      "p",
      { class: `verdict-line ${info.valid ? "valid" : "invalid"}`, "data-valid": String(info.valid) },
      el("strong", {}, info.word),
      ` — ${t(info.valid ? "lookup_valid" : "lookup_invalid")} (${name})`,
    ),
    ...why,
    tileRow(info.tiles, values),
    el("p", {}, info.score === null ? t("lookup_score_unknown") : t("lookup_score", { score: info.score })),
    el("p", {}, `${t("lookup_front")}: ${hookList(info.hooks.front, (h) => h + info.word)}`),
    el("p", {}, `${t("lookup_back")}: ${hookList(info.hooks.back, (h) => info.word + h)}`),
  );
});

// -- the two-tile words -----------------------------------------------------------------------------

$("two-show").addEventListener("click", async () => {
  const out = $("two-result");
  const { name } = edition();
  const result = await api(`${segment(name)}/two-tile-words`);
  out.replaceChildren();
  if (!result.ok) {
    out.append(el("p", { class: "invalid" }, errorText(result)));
    return;
  }
  const { words, count } = result.body;
  out.append(
    el("p", {}, t("two_count", { edition: name, count })),
    // CHA is two tiles, CH·A: the title says so where the spelling alone would not.
    el("ul", { class: "wordgrid" }, ...words.map((w) => el("li", { title: w.tiles.join("·") }, w.word))),
  );
});

// -- the anagram drill ------------------------------------------------------------------------------
//
// Racks are the alphagrams of the chosen length, likeliest first: the page reads words of that
// length from /search in probability order (alphabetical where the edition's tile counts are
// unverified) and keeps each new alphagram in the order it first appears. The answers of a rack
// come from /anagrams, so they are complete even when its words span two pages of the search.

const STORE = "lextools.drill.v1";
const lengthSelect = $("drill-length");
let racks = newRackList();
let round = null; // {number, tiles, answers: Set, found: Set, done}

function newRackList() {
  return { order: "probability", list: [], seen: new Set(), cursor: undefined, more: true };
}

function progressKey() {
  return `${edition().name}:${lengthSelect.value}`;
}

function readStore() {
  try {
    return JSON.parse(localStorage.getItem(STORE)) ?? {};
  } catch {
    return {}; // storage disabled or garbled: start afresh rather than break the drill
  }
}

function loadProgress() {
  return { next: 0, rounds: 0, solved: 0, words: 0, found: 0, ...readStore()[progressKey()] };
}

function saveProgress(progress) {
  const all = readStore();
  all[progressKey()] = progress;
  try {
    localStorage.setItem(STORE, JSON.stringify(all));
  } catch {
    /* private mode or full: the drill still works, it just forgets */
  }
}

function showScore() {
  const p = loadProgress();
  $("drill-score").textContent = p.rounds ? t("drill_score", p) : "";
}

/** The rack at this index of the list, fetching pages of the search until it is there (or none is). */
async function rackAt(index) {
  // This edition's and length's list, even if the player switches while a page is on its way.
  const own = racks;
  const { name, lang } = edition();
  const length = lengthSelect.value;
  const collator = new Intl.Collator(lang);
  // Probability needs every tile's count; where they are unverified, ask for alphabetical order.
  if (own.cursor === undefined && !(await tileTable(name)).countsKnown) own.order = "alpha";
  while (own.list.length <= index && own.more) {
    const query = new URLSearchParams({ length, order: own.order, limit: "1000" });
    if (own.cursor) query.set("cursor", own.cursor);
    const result = await api(`${segment(name)}/search?${query}`);
    if (!result.ok && result.status === 400 && own.order === "probability" && !own.cursor) {
      own.order = "alpha"; // a server that knows better than the tile table: no probability order
      continue;
    }
    if (!result.ok) throw new Error(errorText(result));
    for (const word of result.body.words) {
      const tiles = [...word.tiles].sort(collator.compare);
      const key = tiles.join("|");
      if (!own.seen.has(key)) {
        own.seen.add(key);
        own.list.push(tiles);
      }
    }
    own.cursor = result.body.next_cursor;
    own.more = Boolean(own.cursor);
  }
  $("drill-order").textContent = t(own.order === "probability" ? "drill_order_probability" : "drill_order_alpha");
  return own.list[index] ?? null;
}

async function startRound() {
  const { name } = edition();
  const progress = loadProgress();
  $("drill-missed").textContent = "";
  $("drill-marks").replaceChildren();
  let tiles;
  try {
    tiles = await rackAt(progress.next);
  } catch (error) {
    $("drill-order").textContent = error.message;
    return;
  }
  if (!tiles) {
    $("drill-round").hidden = true;
    $("drill-order").textContent = t(progress.next ? "drill_finished" : "drill_none");
    return;
  }
  // Every tile bracketed: in es-fise a C next to an H would otherwise read as the CH tile.
  const rack = tiles.map((tile) => `[${tile}]`).join("");
  const [result, values] = await Promise.all([api(`${segment(name)}/anagrams/${segment(rack)}`), tileValues(name)]);
  if (edition().name !== name) return; // the player picked another edition meanwhile
  if (!result.ok) {
    $("drill-order").textContent = errorText(result);
    return;
  }
  round = {
    number: progress.next + 1,
    tiles,
    answers: new Set(result.body.words.map((w) => w.word)),
    found: new Set(),
    done: false,
  };
  $("drill-rack-label").textContent = t("drill_rack", { number: round.number });
  const rackEl = $("drill-rack");
  rackEl.dataset.alphagram = tiles.join(" "); // tile labels, spaced: C H and CH must not look alike
  rackEl.replaceChildren(...tileRow(tiles, values, "tiles big-tiles").children);
  rackEl.setAttribute("aria-label", `${t("drill_rack", { number: round.number })}: ${tiles.join(" ")}`);
  $("drill-to-find").textContent = t("drill_to_find", { count: round.answers.size });
  $("drill-round").hidden = false;
  $("drill-next").hidden = true;
  const input = $("drill-answer");
  input.disabled = false;
  input.value = "";
  input.focus();
}

function mark(text, ok) {
  $("drill-marks").append(el("li", { class: ok ? "right" : "wrong" }, `${ok ? "✓" : "✗"} ${text}`));
}

async function answer(typed) {
  if (!round || round.done) return;
  if (!typed) {
    endRound();
    return;
  }
  const { name } = edition();
  // The server spells the answer (accents, notations, digraphs), so it matches what /anagrams returned.
  const result = await api(`${segment(name)}/words/${segment(typed)}`);
  if (round.done) return; // the round ended while the answer was on its way
  const word = result.ok ? result.body.word : typed.toUpperCase();
  if (result.ok && round.answers.has(word)) {
    const again = round.found.has(word);
    round.found.add(word);
    mark(t(again ? "drill_again" : "drill_right", { word }), true);
  } else if (result.ok && result.body.valid) {
    mark(t("drill_not_anagram", { word }), false);
  } else if (result.ok || result.status === 422) {
    mark(t("drill_wrong", { word }), false);
  } else {
    mark(errorText(result), false);
  }
  if (round.found.size === round.answers.size) endRound();
}

function endRound() {
  if (!round || round.done) return;
  round.done = true;
  const missed = [...round.answers].filter((w) => !round.found.has(w));
  $("drill-missed").textContent = missed.length ? t("drill_missed", { words: missed.join(", ") }) : t("drill_all_found");
  const p = loadProgress();
  saveProgress({
    next: p.next + 1,
    rounds: p.rounds + 1,
    solved: p.solved + (missed.length === 0 ? 1 : 0),
    words: p.words + round.answers.size,
    found: p.found + round.found.size,
  });
  showScore();
  $("drill-answer").disabled = true;
  const next = $("drill-next");
  next.hidden = false;
  next.focus(); // Enter goes straight on to the next rack
}

$("drill-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = $("drill-answer");
  const typed = input.value.trim();
  input.value = "";
  answer(typed);
});
$("drill-start").addEventListener("click", startRound);
$("drill-next").addEventListener("click", startRound);
$("drill-reveal").addEventListener("click", endRound);
$("drill-reset").addEventListener("click", () => {
  const all = readStore();
  delete all[progressKey()];
  try {
    localStorage.setItem(STORE, JSON.stringify(all));
  } catch {
    /* nothing kept, nothing to reset */
  }
  showScore();
  $("drill-round").hidden = true;
  round = null;
});

function resetDrill() {
  racks = newRackList();
  round = null;
  $("drill-round").hidden = true;
  $("drill-order").textContent = "";
  showScore();
}

lengthSelect.addEventListener("change", resetDrill);
onEditionChange(() => {
  for (const id of ["lookup-result", "two-result"]) $(id).replaceChildren();
  resetDrill();
});

showScore();
