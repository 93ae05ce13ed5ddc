// Word lists made into quiz questions: each alphagram of the list is an anagram question whose
// answers are every word of those tiles (GET /v1/{edition}/anagrams/…), the question the anagram
// quiz asks and the cardbox keeps (quiz.js, cardbox.js).
import { api, segment } from "./common.js";

const orders = new Map();

/** The edition's tiles in its alphabet (es-fise: … C CH D … N Ñ O …): label → place; an alphagram is
 * its tiles in that order, as the anagram quiz's questions are. */
async function tileOrder(name) {
  if (!orders.has(name)) {
    const result = await api(`editions/${segment(name)}`);
    const alphabet = result.body?.alphabet?.length ? result.body.alphabet : (result.body?.tiles ?? []).map((tile) => tile.label).sort();
    const order = new Map(alphabet.map((label, i) => [label, i]));
    if (!result.ok) return order;
    orders.set(name, order);
  }
  return orders.get(name);
}

/** A rack in the notation every route reads: digraph tiles bracketed (A[CH]E). */
export function rackText(labels) {
  return labels.map((label) => (label.length > 1 ? `[${label}]` : label)).join("");
}

/** One anagram question per alphagram of the entries, in the order they first come. */
export async function anagramQuestions(name, entries) {
  const order = await tileOrder(name);
  const racks = new Map();
  for (const entry of entries) {
    const rack = [...entry.tiles].sort((a, b) => (order.get(a) ?? 99) - (order.get(b) ?? 99));
    const id = rackText(rack);
    if (!racks.has(id)) racks.set(id, rack);
  }
  const questions = [];
  for (const [id, rack] of racks) {
    const result = await api(`${segment(name)}/anagrams/${segment(id)}?limit=1000`);
    if (!result.ok) continue;
    questions.push({ id, rack, answers: result.body.words, length: rack.length, blanks: 0, min_length: rack.length });
  }
  return questions;
}
