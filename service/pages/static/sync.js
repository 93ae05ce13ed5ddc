// The study page's cardbox sync: keep the cardbox on this server under a sync code (POST
// /v1/cardbox), no account needed, and one "Sync" button that is safe in any order on any device:
// GET the server's copy (its ETag) → merge it card by card with this browser's (cardbox.js: the card
// that changed last wins, a deleted card stays deleted) → save the merge here → PUT it back with
// If-Match, so a copy another device wrote in between is never overwritten: on 412 start again (at
// most three times). The code is remembered in this browser; export and import of files stay.
import * as cardbox from "./cardbox.js";
import { api, errorText, t } from "./common.js";

const $ = (id) => document.getElementById(id);
const KEY = "lextools:sync-code";
/** A sync code: 20 characters of Crockford's base32 (the server's alphabet). */
const CODE = /^[0-9A-HJKMNP-TV-Z]{20}$/;
const ATTEMPTS = 3;

function say(text, outcome = "") {
  const out = $("sync-message");
  out.textContent = text;
  out.dataset.outcome = outcome;
}

function remember(code) {
  try {
    localStorage.setItem(KEY, code);
  } catch {
    // private mode: the player keeps the code written down
  }
  $("sync-input").value = code;
}

function changed() {
  document.dispatchEvent(new Event("lextools:cardbox"));
}

/**
 * The code typed, as the server reads it (any case, dashes and spaces ignored; as Crockford's
 * base32 reads them, O is 0 and I, L are 1), or null when it cannot be a sync code at all.
 */
export function codeOf(text) {
  const code = text.replace(/[\s-]/g, "").toUpperCase().replace(/O/g, "0").replace(/[IL]/g, "1");
  return CODE.test(code) ? code : null;
}

/** The message of a refused sync: a code that cannot be one, one that is kept nowhere, or other. */
function refusal(result) {
  if (result.status === 400) return [t("sync_malformed"), "malformed"];
  if (result.status === 404 && result.body?.error?.code === "unknown_sync_code") return [t("sync_unknown_code"), "unknown"];
  if (result.status === 412) return [t("sync_conflict"), "conflict"];
  return [errorText(result), "error"];
}

/** One round: GET → merge → save here → PUT If-Match. Resolves to {result, taken, count}. */
async function round(code) {
  const got = await api(`cardbox/${code}`);
  if (!got.ok) return { result: got };
  let taken;
  try {
    taken = await cardbox.merge(got.body.cardbox);
  } catch {
    return { result: { ok: false, status: 0, body: null }, damaged: true };
  }
  const box = await cardbox.exportBox();
  const etag = got.headers?.get("ETag");
  const headers = etag ? { "If-Match": etag } : {};
  const put = await api(`cardbox/${code}`, { method: "PUT", json: { cardbox: box }, headers });
  return { result: put, taken, count: box.cards.filter((item) => !item.deleted).length };
}

async function sync() {
  if (!$("sync-input").value.trim()) return say(t("sync_no_code"), "no_code");
  const code = codeOf($("sync-input").value);
  if (!code) return say(t("sync_malformed"), "malformed");
  let outcome;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
    outcome = await round(code);
    if (outcome.result.status !== 412) break;
  }
  changed();
  if (outcome.damaged) return say(t("sync_damaged"), "damaged");
  if (!outcome.result.ok) return say(...refusal(outcome.result));
  remember(outcome.result.body.shown);
  say(t("sync_done", { taken: outcome.taken, count: outcome.count }), "synced");
}

$("sync-create").addEventListener("click", async () => {
  const box = await cardbox.exportBox();
  const result = await api("cardbox", { json: { cardbox: box } });
  if (!result.ok) return say(errorText(result), "error");
  remember(result.body.shown);
  $("sync-code").dataset.code = result.body.shown;
  say(t("sync_created", { code: result.body.shown }), "created");
});

$("sync-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const button = $("sync-run");
  button.disabled = true;
  try {
    await sync();
  } finally {
    button.disabled = false;
  }
});

try {
  $("sync-input").value = localStorage.getItem(KEY) ?? "";
} catch {
  // no storage: nothing remembered
}
