// The cardbox of the study page, kept in this browser's IndexedDB.
//
// Each quiz question is a card in a deck (one deck per edition and quiz type). A deck is scheduled
// by Leitner's boxes (the default) or by FSRS, as the player chooses per deck (a 7-tile anagram deck
// may want FSRS while the two-tile words stay in boxes; the choice is kept in this browser, and a
// deck with no choice here follows its newest card, so a synced deck keeps its scheduler).
// - Leitner: a right answer moves the card up one box, a miss sends it back to box 0; a card is due
//   again after its box's interval (box 0: at once). Sixteen boxes, as in Zyzzyva's cardbox.
// - FSRS: the player grades each answer Again / Hard / Good / Easy (a miss is Again, a right answer
//   Good until the player says otherwise) and ts-fsrs (vendor/ts-fsrs.js, FSRS-6, its default
//   parameters without fuzz) says when the card is due.
// The card keeps its whole question, so a due card is asked again exactly as it was, without the
// server. Every card says when it last changed (`changed`, ms); deleting one leaves a tombstone, so an
// import or a sync merges card by card and a card deleted on one device stays deleted (the format:
// version 2, read by the server too; version 1 files still import).
import { createEmptyCard, fsrs, generatorParameters, Rating } from "./vendor/ts-fsrs.js";

const DB_NAME = "lextools-study";
const STORE = "cards";
export const FORMAT = "lextools-cardbox";
export const FORMAT_VERSION = 2;
const DAY = 24 * 60 * 60 * 1000;
/** Days until a card in each box is due again (box 0: now). */
export const INTERVAL_DAYS = [0, 1, 2, 4, 7, 12, 20, 30, 45, 60, 90, 120, 180, 270, 365, 540];
export const TOP_BOX = INTERVAL_DAYS.length - 1;
export const SCHEDULERS = ["leitner", "fsrs"];
/** The four FSRS grades, as ts-fsrs rates them. */
export const GRADES = { again: Rating.Again, hard: Rating.Hard, good: Rating.Good, easy: Rating.Easy };
/** ts-fsrs's defaults (request retention 0.9, learning steps 1 and 10 minutes), without fuzz: the
 * same grades at the same times give the same due dates on every device. */
export const FSRS_PARAMETERS = generatorParameters({ enable_fuzz: false });
const FSRS_FIELDS = [
  "stability", "difficulty", "state", "reps", "lapses", "scheduled_days", "elapsed_days", "learning_steps",
];
const SCHEDULER_KEY = "lextools:schedulers";

let scheduler = null;
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

/** A card as version 2 reads it: a version 1 card (kept here before, or in an old file) is a Leitner
 * card that last changed when it was last answered. */
export function upgraded(item) {
  if (!item || item.deleted || item.scheduler) return item;
  return { ...item, scheduler: "leitner", changed: item.changed ?? item.last ?? 0 };
}

/** Every record of a deck (or of every deck), tombstones too: what an export and a sync carry. */
async function records(deck = null) {
  const found = await run("readonly", (store) => (deck ? store.index("deck").getAll(deck) : store.getAll()));
  const list = found ?? [...memory.values()].filter((item) => !deck || item.deck === deck);
  return list.map(upgraded);
}

/** Every live card of a deck (or of every deck). */
export async function cards(deck = null) {
  return (await records(deck)).filter((item) => !item.deleted);
}

/** The record kept under an id, a tombstone too, or null. */
async function stored(id) {
  return upgraded((await run("readonly", (store) => store.get(id))) ?? memory.get(id) ?? null);
}

/** The live card under an id, or null (none, or deleted). */
export async function card(id) {
  const found = await stored(id);
  return found && !found.deleted ? found : null;
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

/** When a change made at `now` says it happened: after the record it replaces, even on a device
 * whose clock is behind the one that wrote that record, so the change wins every merge. */
function changedAt(previous, now) {
  return Math.max(Math.round(now), (previous?.changed ?? -1) + 1);
}

// -- the scheduler of each deck ---------------------------------------------------------------------

function storedChoices() {
  try {
    const found = JSON.parse(localStorage.getItem(SCHEDULER_KEY) ?? "{}");
    return found && typeof found === "object" ? found : {};
  } catch {
    return {};
  }
}

const choices = storedChoices();

/** The scheduler of a deck: the player's choice in this browser, else its newest card's (a deck
 * taken from another device keeps its scheduler), else Leitner. */
export async function schedulerOf(deck) {
  const choice = { ...choices, ...storedChoices() }[deck]; // another tab may have chosen since
  if (SCHEDULERS.includes(choice)) return choice;
  let newest = null;
  for (const item of await cards(deck)) if (!newest || item.changed > newest.changed) newest = item;
  return newest?.scheduler ?? "leitner";
}

/** Schedule a deck by "leitner" or "fsrs" from now on; each card follows at its next answer. */
export function setScheduler(deck, name) {
  if (!SCHEDULERS.includes(name)) throw new Error(`unknown scheduler: ${name}`);
  choices[deck] = name;
  try {
    localStorage.setItem(SCHEDULER_KEY, JSON.stringify(choices));
  } catch {
    // private mode: the choice holds for this page only
  }
}

// -- answers ----------------------------------------------------------------------------------------

/** A card's FSRS state as ts-fsrs's Card; a card that is not (yet) an FSRS one starts as a new one. */
function fsrsCard(item, now) {
  if (item?.scheduler !== "fsrs") return createEmptyCard(new Date(now));
  const { last_review: last, ...state } = item.fsrs;
  return { ...state, due: new Date(item.due), last_review: last === null ? undefined : new Date(last) };
}

/** ts-fsrs's Card as the cardbox keeps it: numbers, and the last review in ms (or null). */
function fsrsFields(state) {
  const kept = Object.fromEntries(FSRS_FIELDS.map((name) => [name, state[name]]));
  return { ...kept, last_review: state.last_review ? new Date(state.last_review).getTime() : null };
}

/** The FSRS state after grading a card (null or a Leitner card: a new FSRS card) at `now`. */
export function fsrsNext(item, grade, now) {
  scheduler ??= fsrs(FSRS_PARAMETERS);
  const { card: next } = scheduler.next(fsrsCard(item, now), new Date(now), GRADES[grade]);
  return { fsrs: fsrsFields(next), due: next.due.getTime() };
}

/** The Leitner box of a card: its own, or for an FSRS card the highest box whose interval it has
 * reached (a deck switched back to Leitner keeps what its cards have learned). */
function boxOf(item) {
  if (!item) return 0;
  if (item.scheduler === "leitner") return item.box;
  return INTERVAL_DAYS.findLastIndex((days) => days <= item.fsrs.scheduled_days);
}

/** The card after an answer graded `grade` (again, hard, good, easy; under Leitner anything but
 * again is right) by the scheduler `name`; `before` is the card it was given to (null: none). */
export function answered(before, edition, type, question, grade, name, now) {
  const right = grade !== "again";
  const base = {
    id: cardId(edition, type, question),
    deck: deckOf(edition, type),
    edition,
    type,
    question,
    right: (before?.right ?? 0) + (right ? 1 : 0),
    wrong: (before?.wrong ?? 0) + (right ? 0 : 1),
    last: now,
    changed: changedAt(before, now),
    scheduler: name,
  };
  if (name === "fsrs") return { ...base, ...fsrsNext(before, grade, now) };
  const box = right ? Math.min(boxOf(before) + 1, TOP_BOX) : 0;
  return { ...base, box, due: now + INTERVAL_DAYS[box] * DAY };
}

/**
 * Record an answer by its deck's scheduler and resolve to the card as saved. `grade` is true/false
 * (right: Good, missed: Again) or a grade's name. `before` is the card the answer was given to, for a
 * grade changed after the answer (the player said Easy where a right answer counts as Good); by
 * default the card kept now.
 */
export async function record(edition, type, question, grade, now = Date.now(), before = undefined) {
  const name = typeof grade === "boolean" ? (grade ? "good" : "again") : grade;
  if (!Object.hasOwn(GRADES, name)) throw new Error(`unknown grade: ${grade}`);
  const old = before === undefined ? await card(cardId(edition, type, question)) : before;
  const replaced = await stored(cardId(edition, type, question));
  const updated = answered(old, edition, type, question, name, await schedulerOf(deckOf(edition, type)), now);
  updated.changed = changedAt(replaced, updated.changed); // after the record it replaces, a regrade too
  await save([updated]);
  return updated;
}

/** A new card (due now) of a deck scheduled by `name`. */
function newCard(edition, type, question, name, now, changed) {
  const base = { id: cardId(edition, type, question), deck: deckOf(edition, type), edition, type, question };
  const progress = { right: 0, wrong: 0, last: now, due: now, changed, scheduler: name };
  if (name === "fsrs") return { ...base, ...progress, fsrs: fsrsFields(createEmptyCard(new Date(now))) };
  return { ...base, ...progress, box: 0 };
}

/** New cards (due now) for questions not yet in the deck — a card already there keeps its
 * progress; a deleted one comes back new —; resolves to how many were added. */
export async function addCards(edition, type, questions, now = Date.now()) {
  const name = await schedulerOf(deckOf(edition, type));
  const fresh = new Map();
  for (const question of questions) {
    const id = cardId(edition, type, question);
    const here = await stored(id);
    if (fresh.has(id) || (here && !here.deleted)) continue;
    fresh.set(id, newCard(edition, type, question, name, now, changedAt(here, now)));
  }
  await save([...fresh.values()]);
  return fresh.size;
}

// -- deleting: tombstones ---------------------------------------------------------------------------

function tombstone(item, now) {
  return { id: item.id, deck: item.deck, changed: changedAt(item, now), deleted: true };
}

/** Delete cards by id; each leaves a tombstone, so a sync deletes it on the other devices too. */
export async function remove(ids, now = Date.now()) {
  const gone = [];
  for (const id of ids) {
    const here = await card(id);
    if (here) gone.push(tombstone(here, now));
  }
  await save(gone);
  return gone.length;
}

/** Reset a deck: every card of it deleted (tombstones); resolves to how many. */
export async function resetDeck(deck, now = Date.now()) {
  const gone = (await cards(deck)).map((item) => tombstone(item, now));
  await save(gone);
  return gone.length;
}

// -- merge, export, import --------------------------------------------------------------------------

/** A value's JSON text with its keys sorted: the same card is the same text on every device. */
export function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const keys = Object.keys(value).filter((key) => value[key] !== undefined).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The one merge rule (the cardbox format's): of two records of a card the one that changed later
 * wins; on a tie a tombstone, else the one whose JSON text sorts last. */
export function newer(a, b) {
  if (!a || !b) return a ?? b;
  if (a.changed !== b.changed) return a.changed > b.changed ? a : b;
  if (Boolean(a.deleted) !== Boolean(b.deleted)) return a.deleted ? a : b;
  return canonical(a) >= canonical(b) ? a : b;
}

/** The whole cardbox, tombstones too, as the format's object. */
export async function exportBox() {
  const all = await records();
  all.sort((a, b) => (a.id < b.id ? -1 : 1));
  return { format: FORMAT, version: FORMAT_VERSION, exported: new Date().toISOString(), cards: all };
}

/** The whole cardbox as the text of an export file. */
export async function exportText() {
  return JSON.stringify(await exportBox(), null, 1);
}

function validFsrs(state) {
  return (
    Boolean(state) &&
    typeof state === "object" &&
    FSRS_FIELDS.every((name) => Number.isFinite(state[name])) &&
    (state.last_review === null || Number.isFinite(state.last_review))
  );
}

function validCard(item) {
  if (!item || typeof item.id !== "string" || typeof item.deck !== "string" || !item.id.startsWith(`${item.deck}|`)) {
    return false;
  }
  if (!Number.isInteger(item.changed) || item.changed < 0) return false;
  if ("deleted" in item) return item.deleted === true;
  if (!Number.isFinite(item.due) || !item.question || typeof item.question.id !== "string") return false;
  if (item.scheduler === "leitner") return Number.isInteger(item.box) && item.box >= 0 && item.box <= TOP_BOX;
  return item.scheduler === "fsrs" && validFsrs(item.fsrs);
}

/** The cards of a cardbox (version 1 or 2), checked, v1 cards read as v2 and tombstones kept to
 * their four fields; throws when it is not a cardbox or a card is damaged. */
export function cardsOf(data) {
  if (data?.format !== FORMAT || ![1, 2].includes(data.version) || !Array.isArray(data.cards)) {
    throw new Error("not a cardbox export");
  }
  const list = data.cards.map((item) => (data.version === 1 && item && typeof item === "object" ? upgraded(item) : item));
  if (!list.every(validCard)) throw new Error("a card is damaged");
  return list.map((item) => (item.deleted ? { id: item.id, deck: item.deck, changed: item.changed, deleted: true } : item));
}

/**
 * Merge a cardbox from elsewhere (an export file, the server's copy) into this browser's, card by
 * card by the merge rule. Every card is checked before any is written, so a cardbox that is not one
 * (or is damaged) changes nothing. Resolves to how many live cards were taken (new here, or newer;
 * the deletions taken are not counted).
 */
export async function merge(data) {
  const incoming = cardsOf(data);
  const here = new Map((await records()).map((item) => [item.id, item]));
  const taken = new Map();
  for (const item of incoming) {
    const mine = here.get(item.id);
    const winner = newer(mine, item);
    here.set(item.id, winner);
    if (winner === item && canonical(mine) !== canonical(item)) taken.set(item.id, item);
  }
  await save([...taken.values()]);
  return [...taken.values()].filter((item) => !item.deleted).length;
}

/** Read an export file back (see merge); throws "not JSON" for text that is not JSON. */
export async function importText(text) {
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error("not JSON");
  }
  return merge(data);
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
