// Words and racks drawn as tiles: every list on the study page shows them, so that in es-fise CHA
// is visibly two tiles (CH·A) and a C next to an H is never mistaken for the CH tile.
import { cardButton } from "./card.js";
import { el, t } from "./common.js";

/** Which tiles of a word its blanks stand for (entry.blanks, an anagram's answer: their labels), as
 * Zyzzyva shows them: the last tiles of each label the blanks make, true at their index. */
function blankPlaces(entry) {
  const left = new Map();
  for (const tile of entry.blanks ?? []) left.set(tile, (left.get(tile) ?? 0) + 1);
  const places = entry.tiles.map(() => false);
  for (let i = entry.tiles.length - 1; i >= 0; i -= 1) {
    const n = left.get(entry.tiles[i]) ?? 0;
    if (n > 0) {
      places[i] = true;
      left.set(entry.tiles[i], n - 1);
    }
  }
  return places;
}

/** A word as a run of small tiles; its text is still the plain spelling (CHA), its title CH·A. A
 * tile a blank stands for is marked (class "blank", in lower case, "blank" in its title). */
export function wordTiles(entry) {
  const blanks = blankPlaces(entry);
  const title = entry.tiles.map((tile, i) => (blanks[i] ? `${tile.toLowerCase()} (${t("tiles_blank")})` : tile)).join("·");
  return el(
    "span",
    { class: "word-tiles", title, "data-tiles": entry.tiles.join(" "), "data-blanks": (entry.blanks ?? []).join(" ") || undefined },
    ...entry.tiles.map((tile, i) => el("span", { class: blanks[i] ? "t blank" : "t" }, blanks[i] ? tile.toLowerCase() : tile)),
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
