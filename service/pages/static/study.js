// The study page: look a word up, list the two-tile words (the quizzes are in quiz.js).
// Everything comes from the /v1 API.
import { api, edition, el, errorText, onEditionChange, segment, t } from "./common.js";
import { cardButton } from "./card.js";
import { wordList } from "./tiles.js";

const $ = (id) => document.getElementById(id);

// -- tile values, from the edition's tile table (one request per edition) -----------------------

const tileTables = new Map();

/** The edition's tile values: label → value (null where unverified). */
async function tileValues(name) {
  if (!tileTables.has(name)) {
    const result = await api(`editions/${segment(name)}`);
    const values = new Map((result.body?.tiles ?? []).map((tile) => [tile.label, tile.value]));
    if (!result.ok) return values; // not kept: a later call may succeed
    tileTables.set(name, values);
  }
  return tileTables.get(name);
}

/** Tiles drawn as tiles: the label, and the value in the corner (a "?" when unverified). */
function tileRow(tiles, values) {
  const label = `${t("tiles_label")}: ${tiles.map((tile) => `${tile} ${values.get(tile) ?? "?"}`).join(", ")}`;
  return el(
    "ul",
    // One image-like group read as its label ("Tiles: C 3, A 1, …") rather than a list of fragments.
    { class: "tiles", role: "img", "aria-label": label },
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
      ` — ${t(info.valid ? "lookup_valid" : "lookup_invalid")} (${name}) `,
    ),
    cardButton(info.word, t("card_open"), name),
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
    // CHA is two tiles, CH·A: drawn as tiles, where the spelling alone would not say so.
    wordList(words),
  );
});

onEditionChange(() => {
  for (const id of ["lookup-result", "two-result"]) $(id).replaceChildren();
});

// -- a list handed over by the search page (/study?list=session, shown by lists.js) -----------------

/** The list selector names the list shown: "List from the search page", not the first kind of list
 * the server makes. Picking another kind drops that choice; the form cannot fetch it from the server. */
function nameHandedOverList() {
  const kind = $("lists-kind");
  if (!kind || new URLSearchParams(location.search).get("list") !== "session") return;
  const option = el("option", { value: "session", "data-i18n": "lists_session" }, t("lists_session"));
  kind.prepend(option);
  kind.value = "session";
  kind.addEventListener("change", () => option.remove(), { once: true });
  // Capture: before the lists' own handler, which would ask the server for a list named "session".
  $("lists-form").addEventListener("submit", (event) => {
    if (kind.value !== "session") return;
    event.preventDefault();
    event.stopImmediatePropagation();
  }, { capture: true });
}

nameHandedOverList();
