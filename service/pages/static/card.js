// The word card: any word shown as a button with data-card-word (every word list of the pages, the
// look-up) opens it, in a modal dialog read from GET /v1/{edition}/card/{word}: tiles and score,
// alphagram, probability rank within its length, hooks with the inner-hook dots (·ALA·), anagrams
// (each opens its own card), and the sources of a valid word or the reason an invalid one is not.
// Keyboard: Enter on a word opens it, Esc closes it, and the focus goes back to the word.
import { api, edition, el, errorText, segment, t } from "./common.js";

let dialog = null;
let opener = null;

function theDialog() {
  if (dialog) return dialog;
  dialog = el(
    "dialog",
    { id: "word-card", class: "word-card", "aria-labelledby": "word-card-title" },
    el("div", { class: "word-card-body" }),
    el("button", { type: "button", class: "secondary", id: "word-card-close" }, t("card_close")),
  );
  dialog.querySelector("#word-card-close").addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => opener?.focus?.());
  document.body.append(dialog);
  return dialog;
}

function tileRow(tiles, values) {
  const label = `${t("tiles_label")}: ${tiles.map((tile, i) => `${tile} ${values?.[i] ?? "?"}`).join(", ")}`;
  return el(
    "ul",
    { class: "tiles", role: "img", "aria-label": label, "data-tiles": tiles.join(" ") },
    ...tiles.map((tile, i) =>
      el("li", { class: "tile", "aria-hidden": "true" }, tile, el("span", { class: "value" }, String(values?.[i] ?? "?"))),
    ),
  );
}

/** A word that opens its card: the buttons of every word list, and the card's own anagrams. */
export function cardButton(word, content = word, name = null) {
  return el(
    "button",
    { type: "button", class: "word-link", "data-card-word": word, "data-card-edition": name ?? undefined },
    content,
  );
}

/** The hooks around the word (·ALA· marks inner hooks); a word with none says so, not the word alone. */
function hooksLine(hooks) {
  const about = { class: "card-hooks", "data-front": hooks.front.join(" "), "data-back": hooks.back.join(" "), "data-hooked": hooks.hooked };
  if (!hooks.front.length && !hooks.back.length) return el("p", { ...about, "data-none": "true" }, `${t("card_hooks")}: ${t("card_none")}`);
  return el(
    "p",
    about,
    `${t("card_hooks")}: `,
    el("span", { class: "hook-tiles front" }, hooks.front.join(" ")),
    " ",
    el("strong", { class: "hooked" }, hooks.hooked),
    " ",
    el("span", { class: "hook-tiles back" }, hooks.back.join(" ")),
  );
}

function render(card, name) {
  const body = [
    el(
      "h2",
      { id: "word-card-title", class: card.valid ? "valid" : "invalid", "data-valid": String(card.valid) },
      `${card.word} — ${t(card.valid ? "lookup_valid" : "lookup_invalid")} (${name})`,
    ),
    tileRow(card.tiles, card.values),
    el("p", { class: "card-score" }, card.score === null ? t("lookup_score_unknown") : t("lookup_score", { score: card.score })),
    el("p", { class: "card-alphagram", "data-alphagram": card.alphagram }, t("card_alphagram", { alphagram: card.alphagram_tiles.join("·") })),
  ];
  if (card.rank) {
    const key = card.rank.order === "probability" ? "card_rank" : "card_rank_alpha";
    body.push(
      el("p", { class: "card-rank", "data-rank": String(card.rank.rank), "data-of": String(card.rank.of) },
        t(key, { rank: card.rank.rank, of: card.rank.of, length: card.tiles.length })),
    );
  }
  body.push(hooksLine(card.hooks));
  const anagrams = card.anagrams.length
    ? el("ul", { class: "wordflow card-anagrams" }, ...card.anagrams.map((a) => el("li", {}, cardButton(a.word, a.word, name))))
    : el("span", {}, t("card_none"));
  body.push(el("div", { class: "card-anagrams-line" }, el("p", {}, `${t("card_anagrams")}:`), anagrams));
  if (!card.valid && card.reason) body.push(el("p", { class: "reason" }, t("lookup_why", { reason: card.reason })));
  if (card.valid && card.sources?.length) body.push(el("p", { class: "provenance" }, t("lookup_sources", { sources: card.sources.join(", ") })));
  return body;
}

/** Open the card of a word (any notation) of an edition (the page's by default). */
export async function openCard(word, name = edition().name) {
  if (!dialog?.open) opener = document.activeElement;
  const box = theDialog();
  const body = box.querySelector(".word-card-body");
  box.querySelector("#word-card-close").textContent = t("card_close");
  body.replaceChildren(el("p", { role: "status" }, t("search_working")));
  delete box.dataset.word;
  if (!box.open) box.showModal();
  const result = await api(`${segment(name)}/card/${segment(word)}`);
  if (!result.ok) {
    body.replaceChildren(el("p", { class: "invalid" }, errorText(result)));
  } else {
    body.replaceChildren(...render(result.body, name));
    box.dataset.word = result.body.word;
  }
  box.querySelector("#word-card-close").focus();
}

document.addEventListener("click", (event) => {
  const target = event.target.closest?.("[data-card-word]");
  if (!target) return;
  event.preventDefault();
  openCard(target.dataset.cardWord, target.dataset.cardEdition || edition().name);
});
