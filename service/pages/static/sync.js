// The study page's cardbox sync: keep the cardbox on this server under a sync code (POST
// /v1/cardbox), send it again (PUT) or take it back on another device (GET), no account needed.
// The code is remembered in this browser; export and import of files stay as they were.
import * as cardbox from "./cardbox.js";
import { api, errorText, segment, t } from "./common.js";

const $ = (id) => document.getElementById(id);
const KEY = "lextools:sync-code";

function say(text) {
  $("sync-message").textContent = text;
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

async function kept() {
  return JSON.parse(await cardbox.exportText());
}

$("sync-create").addEventListener("click", async () => {
  const box = await kept();
  const result = await api("cardbox", { json: { cardbox: box } });
  if (!result.ok) return say(errorText(result));
  remember(result.body.shown);
  $("sync-code").dataset.code = result.body.shown;
  say(t("sync_created", { code: result.body.shown }));
});

$("sync-push").addEventListener("click", async () => {
  const code = $("sync-input").value.trim();
  if (!code) return say(t("sync_no_code"));
  const box = await kept();
  const result = await api(`cardbox/${segment(code)}`, { method: "PUT", json: { cardbox: box } });
  if (!result.ok) return say(errorText(result));
  remember(result.body.shown);
  say(t("sync_pushed", { count: box.cards.length }));
});

$("sync-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const code = $("sync-input").value.trim();
  if (!code) return say(t("sync_no_code"));
  const result = await api(`cardbox/${segment(code)}`);
  if (!result.ok) return say(errorText(result));
  try {
    const count = await cardbox.importText(JSON.stringify(result.body.cardbox));
    remember(result.body.shown);
    say(t("sync_fetched", { count }));
  } catch {
    say(t("cardbox_bad_file"));
  }
  changed();
});

try {
  $("sync-input").value = localStorage.getItem(KEY) ?? "";
} catch {
  // no storage: nothing remembered
}
