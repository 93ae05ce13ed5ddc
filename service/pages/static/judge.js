// The Word Judge: number of words, then the words, Enter; the verdict is for the whole play only.
//
// It calls POST /v1/{edition}/challenge with reveal: false, so the reply says only whether the play
// is acceptable: nothing on this page, in its memory or in the network reply, can tell which word
// failed. Every play it sends gets a verdict: a word longer than the board or one the edition cannot
// spell is NOT ACCEPTABLE; only a server fault says to call the director. Like a tournament judge box
// it refuses input no board could hold (as the server would) and swallows every key while it
// judges and while the verdict shows, so a stray key cannot start the next challenge early. The
// verdict stays for the server's --judge-clear seconds (the form's data-clear-ms), or until Esc or
// the "next play" button (a touch kiosk has no Esc). Its "receipt" button opens the whole signed
// receipt — the JSON `lextools receipt verify` reads, and its fields — to show the players or print
// (alone: style.css's print rules); the verdict then waits until the receipt is closed.
import { api, edition, onEditionChange, t, tIn } from "./common.js";

const form = document.getElementById("judge");
const count = document.getElementById("count");
const words = document.getElementById("words");
const message = document.getElementById("message");
const verdict = document.getElementById("verdict");
const [verdictMain, verdictSub, verdictRuling, verdictReceipt] = verdict.querySelectorAll("p");
const nextButton = document.getElementById("verdict-next");
const receiptButton = document.getElementById("show-receipt");
const receiptSheet = document.getElementById("receipt");
const receiptJson = document.getElementById("receipt-json");

const MAX_WORDS = Number(form.dataset.maxWords);
// A word of more characters than this is no word of any board in any notation (service/http/limits.py):
// the server would refuse it (400), so the page says so itself. Up to it, a word goes to the judge,
// however many tiles it has: one longer than the board (ANTICONSTITUCIONAL, 18 tiles) is NOT
// ACCEPTABLE, a verdict signed and recorded like any other, never a refusal.
const MAX_WORD_CHARS = Number(form.dataset.maxWordChars);
const MAX_CHARS = words.maxLength;
const KIOSK = "kiosk" in form.dataset;
// The lists this server judges with, by edition (shown above the form, swapped with the edition).
const WORD_LISTS = JSON.parse(document.getElementById("word-lists").textContent);

// "input": typing a play; "busy": waiting for the server; "verdict": showing it until it clears;
// "receipt": showing the verdict's receipt until it is closed.
let state = "input";
let clearTimer = null;
// The receipt of the verdict on screen (no word of the play: the receipt carries none).
let receipt = null;

// Capture phase, on window: runs before any field sees the key, so nothing typed now lands anywhere.
// Esc is the one key a verdict listens to: it dismisses it (the arbiter is done reading).
window.addEventListener(
  "keydown",
  (event) => {
    if (state === "input") {
      if (KIOSK && event.key === "Tab") keepFocusInTheForm(event);
      return;
    }
    if (state === "receipt") {
      // The form is inert: keys work the receipt's buttons, Esc closes it (and the verdict).
      if (event.key === "Escape") {
        event.preventDefault();
        clearVerdict();
      }
      return;
    }
    event.preventDefault();
    event.stopImmediatePropagation();
    if (state === "verdict" && event.key === "Escape") clearVerdict();
  },
  true,
);

// A kiosk page has nothing but the form: Tab goes round its fields, never out to the browser.

// A play sent with no answer (the network failed) may have been judged all the same: sent again
// unchanged, it carries the same Idempotency-Key, and the server answers with the receipt it made
// instead of recording the play twice. A proxy retrying the request on another replica does the same.
let unanswered = null;

function keyFor(play) {
  if (unanswered && unanswered.play === JSON.stringify(play)) return unanswered.key;
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

function keepFocusInTheForm(event) {
  const fields = [count, words, form.querySelector("button")];
  const at = fields.indexOf(document.activeElement);
  const next = event.shiftKey ? (at <= 0 ? fields.length - 1 : at - 1) : (at + 1) % fields.length;
  event.preventDefault();
  fields[next].focus();
}

function say(text) {
  message.textContent = text;
}

// Coming back to the count selects it, so the one digit typed replaces it (the field holds one).
count.addEventListener("focus", () => count.select());

// The count is one digit; a valid one moves straight on to the words, as on a judge box.
count.addEventListener("input", () => {
  const digit = count.value.trim().slice(-1);
  if (/^[1-9]$/.test(digit) && Number(digit) <= MAX_WORDS) {
    count.value = digit;
    say("");
    words.focus();
  } else {
    count.value = "";
    say(t("msg_count"));
  }
});

/** The words of a play as typed: separated by spaces or commas. */
function splitPlay(text) {
  return text.split(/[\s,]+/).filter(Boolean);
}

/** Why this play cannot be sent as it is (and which field to fix), or null when it can. */
function refusal(announced, text) {
  if (!/^[1-9]$/.test(announced) || Number(announced) > MAX_WORDS) return [t("msg_count"), count];
  const play = splitPlay(text);
  if (play.length === 0) return [t("msg_words"), words];
  if (text.length > MAX_CHARS) return [t("msg_too_long", { max: MAX_CHARS }), words];
  if (play.length > MAX_WORDS) return [t("msg_too_many", { max: MAX_WORDS }), words];
  // Counted in characters (code points, not UTF-16 units), as the server counts them.
  if (play.some((word) => [...word].length > MAX_WORD_CHARS)) {
    return [t("msg_word_too_long", { max: MAX_WORD_CHARS }), words];
  }
  // A mismatch is the arbiter's typing slip or a miscount: say so and send nothing.
  if (play.length !== Number(announced)) return [t("msg_mismatch", { count: announced, typed: play.length }), words];
  return null;
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  if (state !== "input") return;
  const problem = refusal(count.value.trim(), words.value.trim());
  if (problem) {
    const [text, field] = problem;
    say(text);
    field.focus();
    return;
  }
  state = "busy";
  say(t("judging"));
  const play = splitPlay(words.value.trim());
  const key = keyFor(play);
  const result = await api(`${encodeURIComponent(edition().name)}/challenge`, {
    json: { words: play, reveal: false },
    headers: { "Idempotency-Key": key },
  });
  unanswered = result.status === 0 ? { play: JSON.stringify(play), key } : null;
  if (!result.ok || typeof result.body?.acceptable !== "boolean") {
    // Only a generic message: a server's error text could quote the input.
    state = "input";
    if (result.status === 503) say(t("msg_no_lexicon"));
    else if (result.status === 429) say(t("msg_busy"));
    else if (result.status === 0) say(t("msg_offline"));
    else say(t("msg_error", { status: result.status }));
    return;
  }
  showVerdict(result.body);
});

function showVerdict(reply) {
  state = "verdict";
  // Clear the play first: the verdict screen shows nothing of what was typed.
  count.value = "";
  words.value = "";
  say("");
  form.inert = true;
  document.activeElement?.blur();

  const { lang } = edition();
  const key = reply.acceptable ? "verdict_ok" : "verdict_bad";
  verdict.dataset.verdict = reply.acceptable ? "acceptable" : "not-acceptable";
  verdict.hidden = false;
  verdictMain.textContent = t(key);
  // Tournament screens are read by players of any language: the English verdict under any other.
  verdictSub.textContent = lang === "en" ? "" : tIn("en", key);
  // The edition's ruling for the outcome, in the page's language when the edition gives it.
  const ruling = reply.ruling ?? {};
  verdictRuling.textContent = ruling[`outcome_${lang}`] ?? (lang === "en" ? ruling.outcome ?? "" : "");
  // The start of the receipt's id: what the director looks up in the record if the ruling is disputed.
  verdictReceipt.textContent = reply.receipt ? t("verdict_receipt", { id: reply.receipt.id.slice(0, 8) }) : "";
  receipt = reply.receipt ?? null;
  receiptButton.hidden = receipt === null;

  // Read at each verdict, so a test (or a club) can change the attribute on a page already open.
  const clearMs = Number(form.dataset.clearMs) || 10000;
  clearTimer = setTimeout(clearVerdict, clearMs);
}

function clearVerdict() {
  clearTimeout(clearTimer);
  verdict.hidden = true;
  verdict.dataset.verdict = "";
  for (const p of [verdictMain, verdictSub, verdictRuling, verdictReceipt]) p.textContent = "";
  receiptSheet.hidden = true;
  receiptJson.textContent = "";
  for (const dd of receiptSheet.querySelectorAll("[data-receipt]")) dd.textContent = "";
  receipt = null;
  form.inert = false;
  state = "input";
  count.focus();
}

/** The whole receipt, over the verdict, until it is closed: the verdict no longer clears by itself. */
function showReceipt() {
  if (state !== "verdict" || receipt === null) return;
  clearTimeout(clearTimer);
  state = "receipt";
  const fields = {
    ...receipt,
    short: receipt.id.slice(0, 8),
    verdict: t(receipt.acceptable ? "verdict_ok" : "verdict_bad"),
  };
  for (const dd of receiptSheet.querySelectorAll("[data-receipt]")) dd.textContent = String(fields[dd.dataset.receipt]);
  receiptJson.textContent = JSON.stringify(receipt); // one line, as the server wrote it: what verify reads
  receiptSheet.hidden = false;
  receiptSheet.scrollTop = 0; // its title and the verdict first, the buttons below
  document.getElementById("receipt-print").focus({ preventScroll: true });
}

// Buttons for touch screens: the next play (as Esc), the receipt, printing it and closing it.
nextButton.addEventListener("click", () => {
  if (state === "verdict") clearVerdict();
});
receiptButton.addEventListener("click", showReceipt);
document.getElementById("receipt-print").addEventListener("click", () => window.print());
document.getElementById("receipt-close").addEventListener("click", clearVerdict);

function showWordList({ name }) {
  const list = WORD_LISTS[name] ?? {};
  for (const dd of document.querySelectorAll("[data-list]")) dd.textContent = list[dd.dataset.list] ?? "";
}

onEditionChange((chosen) => {
  say("");
  showWordList(chosen);
});
