// Words and racks drawn as tiles: every list on the study page shows them, so that in es-fise CHA
// is visibly two tiles (CH·A) and a C next to an H is never mistaken for the CH tile.
import { cardButton } from "./card.js";
import { el, t } from "./common.js";

/** A word as a run of small tiles; its text is still the plain spelling (CHA), its title CH·A. */
export function wordTiles(entry) {
  return el(
    "span",
    { class: "word-tiles", title: entry.tiles.join("·"), "data-tiles": entry.tiles.join(" ") },
    ...entry.tiles.map((tile) => el("span", { class: "t" }, tile)),
  );
}

/** Rack tiles, big; "?" is a blank. Read out as one label ("Tiles: A, CH, ?"). */
export function rackTiles(list, labels) {
  list.replaceChildren(
    ...labels.map((label) => el("li", { class: label === "?" ? "tile blank" : "tile", "aria-hidden": "true" }, label)),
  );
  list.setAttribute("aria-label", `${t("tiles_label")}: ${labels.join(", ")}`);
}

/** Words with their tiles, in the order given (the server sends them in the edition's alphabet);
 * each word is a button that opens its card (card.js). */
export function wordList(entries) {
  return el("ul", { class: "wordflow" }, ...entries.map((entry) => el("li", {}, cardButton(entry.word, wordTiles(entry)))));
}
