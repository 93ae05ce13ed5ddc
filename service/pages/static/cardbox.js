// The Leitner cardbox of the study page, kept in this browser's IndexedDB.
//
// Each quiz question is a card in a deck (one deck per edition and quiz type). A right answer moves
// the card up one box, a miss sends it back to box 0; a card is due again after its box's interval,
// so the cards a player misses come back soonest (box 0 is due at once: within the same session).
// Sixteen boxes, as in Zyzzyva's cardbox. The card keeps its whole question, so a due card is asked
// again exactly as it was, without the server. The export is a JSON file that import reads back.

const DB_NAME = "lextools-study";
const STORE = "cards";
export const FORMAT = "lextools-cardbox";
export const FORMAT_VERSION = 1;
const DAY = 24 * 60 * 60 * 1000;
/** Days until a card in each box is due again (box 0: now). */
export const INTERVAL_DAYS = [0, 1, 2, 4, 7, 12, 20, 30, 45, 60, 90, 120, 180, 270, 365, 540];
export const TOP_BOX = INTERVAL_DAYS.length - 1;

let opening = null;
const memory = new Map(); // where IndexedDB is unavailable (some private modes): kept for this page only

function database() {
  if (!opening) {
    opening = new Promise((resolve) => {
      let request;
      try {
        request = indexedDB.open(DB_NAME, 1);
      } catch {
        resolve(null);
        return;
      }
      request.onupgradeneeded = () => {
        const store = request.result.createObjectStore(STORE, { keyPath: "id" });
        store.createIndex("deck", "deck");
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => resolve(null);
      request.onblocked = () => resolve(null);
    });
  }
  return opening;
}

/** Run one request on the store and resolve to its result. */
async function run(mode, makeRequest) {
  const db = await database();
  if (!db) return null;
  return new Promise((resolve, reject) => {
    const tx = db.transaction(STORE, mode);
    const request = makeRequest(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(request.result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

export function deckOf(edition, type) {
  return `${edition}|${type}`;
}

export function cardId(edition, type, question) {
  return `${deckOf(edition, type)}|${question.id}`;
}

/** Every card of a deck (or of every deck). */
export async function cards(deck = null) {
  const found = await run("readonly", (store) => (deck ? store.index("deck").getAll(deck) : store.getAll()));
  if (found) return found;
  return [...memory.values()].filter((card) => !deck || card.deck === deck);
}

export async function card(id) {
  return (await run("readonly", (store) => store.get(id))) ?? memory.get(id) ?? null;
}

async function save(list) {
  const db = await database();
  if (!db) {
    for (const item of list) memory.set(item.id, item);
    return;
  }
  await new Promise((resolve, reject) => {
    const tx = db.transaction(STORE, "readwrite");
    const store = tx.objectStore(STORE);
    for (const item of list) store.put(item);
    tx.oncomplete = resolve;
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

/** Record an answer: up one box when right, back to box 0 when missed; returns the card as saved. */
export async function record(edition, type, question, right, now = Date.now()) {
  const id = cardId(edition, type, question);
  const old = (await card(id)) ?? { box: 0, right: 0, wrong: 0 };
  const box = right ? Math.min(old.box + 1, TOP_BOX) : 0;
  const updated = {
    id,
    deck: deckOf(edition, type),
    edition,
    type,
    question,
    box,
    due: now + INTERVAL_DAYS[box] * DAY,
    right: old.right + (right ? 1 : 0),
    wrong: old.wrong + (right ? 0 : 1),
    last: now,
  };
  await save([updated]);
  return updated;
}

/** The whole cardbox as the text of an export file. */
export async function exportText() {
  const all = await cards();
  all.sort((a, b) => (a.id < b.id ? -1 : 1));
  return JSON.stringify({ format: FORMAT, version: FORMAT_VERSION, exported: new Date().toISOString(), cards: all }, null, 1);
}

function validCard(item) {
  return (
    item &&
    typeof item.id === "string" &&
    typeof item.deck === "string" &&
    item.id.startsWith(`${item.deck}|`) &&
    Number.isInteger(item.box) &&
    item.box >= 0 &&
    item.box <= TOP_BOX &&
    Number.isFinite(item.due) &&
    item.question &&
    typeof item.question.id === "string"
  );
}

/**
 * Read an export back. Every card is checked before any is written, so a file that is not an
 * export (or is damaged) changes nothing. A card already here is replaced only by a newer one.
 * Resolves to the number of cards taken; throws when the file is refused.
 */
export async function importText(text) {
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error("not JSON");
  }
  if (data?.format !== FORMAT || data.version !== FORMAT_VERSION || !Array.isArray(data.cards)) {
    throw new Error("not a cardbox export");
  }
  if (!data.cards.every(validCard)) throw new Error("a card is damaged");
  const taken = [];
  for (const item of data.cards) {
    const here = await card(item.id);
    if (!here || (item.last ?? 0) >= (here.last ?? 0)) taken.push(item);
  }
  await save(taken);
  return taken.length;
}

/** New cards (box 0, due now) for questions not yet in the deck — a card already there keeps its
 * progress —; resolves to how many were added. */
export async function addCards(edition, type, questions, now = Date.now()) {
  const fresh = [];
  for (const question of questions) {
    const id = cardId(edition, type, question);
    if (fresh.some((item) => item.id === id) || (await card(id))) continue;
    fresh.push({ id, deck: deckOf(edition, type), edition, type, question, box: 0, due: now, right: 0, wrong: 0, last: now });
  }
  await save(fresh);
  return fresh.length;
}

/** The words of a plain word list: the first column of each line (Zyzzyva's exports put the word
 * first), without blank lines and comments. */
export function listWords(text) {
  return text
    .replace(/^\uFEFF/, "")
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line && !/^(#|\/\/|;)/.test(line))
    .map((line) => line.split(/[\s,;]+/)[0]);
}
