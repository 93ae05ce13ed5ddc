// The director's page keeps itself up to date: every few seconds (the body's data-poll-ms) it asks
// the feed (data-feed: today's rows, newest first, as service/judge/director.py renders them) and
// adds the challenges it has not shown at the top of the table, with the cells the server renders.
// Nothing is reloaded: the rows already there stay where they are, with the director's selection,
// and when the director has scrolled down the page keeps the same rows in view. A row the record
// holds otherwise now (an edited record) is redrawn, its signature check with it; rows of another
// day go. Every text is set as
// text (textContent): a word a client sent is never read as HTML.
const body = document.body;
const table = document.getElementById("challenges");
const rows = table.tBodies[0];
const none = document.getElementById("none");
const status = document.getElementById("live-status");
const POLL_MS = Number(body.dataset.pollMs) || 3000;
// The column headers, which label each cell where the table is stacked (a phone).
const LABELS = [...table.tHead.rows[0].cells].map((th) => th.textContent);

function cell(label, text, className = "") {
  const td = document.createElement("td");
  td.dataset.label = label;
  if (className) td.className = className;
  td.textContent = text;
  return td;
}

/** A row of the table for one challenge of the feed: the template's cells, in its order. */
function rowOf(c) {
  const tr = document.createElement("tr");
  tr.className = c.acceptable ? "ok" : "bad";
  tr.dataset.id = c.id;
  const [time, edition, words, verdict, signature, receipt] = LABELS;
  const verdictCell = cell(verdict, ` ${c.verdict}`, "verdict-cell");
  const mark = document.createElement("span");
  mark.className = "mark";
  mark.setAttribute("aria-hidden", "true");
  mark.textContent = c.acceptable ? "✓" : "✗";
  verdictCell.prepend(mark);
  const receiptCell = cell(receipt, "", "receipt");
  const code = document.createElement("code");
  code.title = c.id;
  const short = document.createElement("b");
  short.textContent = c.short;
  code.append(short, c.rest);
  receiptCell.append(code);
  tr.append(
    cell(time, c.time),
    cell(edition, c.edition),
    cell(words, c.words, "words"),
    verdictCell,
    cell(signature, c.signature_text, `sig sig-${c.signature}`),
    receiptCell,
  );
  return tr;
}

/** What a row shows, to tell whether the feed changed it (the record edited since it was shown). */
function shownAs(tr) {
  return [...tr.cells].map((td) => `${td.className}|${td.textContent}`).join("\n");
}

/** Bring the table to the feed's rows (newest first), touching only what changed. */
function show(challenges) {
  const shown = new Map([...rows.rows].map((tr) => [tr.dataset.id, tr]));
  const wanted = new Set(challenges.map((c) => c.id));
  for (const [id, tr] of shown) if (!wanted.has(id)) tr.remove();
  const height = document.documentElement.scrollHeight;
  let added = false;
  let at = rows.firstElementChild;
  for (const c of challenges) {
    let tr = shown.get(c.id);
    if (tr === undefined) {
      tr = rowOf(c);
      tr.classList.add("new");
      added = true;
    } else {
      const fresh = rowOf(c);
      if (shownAs(fresh) !== shownAs(tr) || fresh.className !== tr.className.replace(" new", "")) {
        tr.replaceWith(fresh); // an edited row: shown as the record now holds it, its signature check with it
        if (at === tr) at = fresh;
        tr = fresh;
      }
    }
    if (tr !== at) rows.insertBefore(tr, at);
    at = tr.nextElementSibling;
  }
  table.hidden = challenges.length === 0;
  none.hidden = challenges.length > 0;
  // Scrolled down, the director keeps reading the same rows: the page moves by what was added above.
  if (added && window.scrollY > 0) window.scrollBy(0, document.documentElement.scrollHeight - height);
}

async function refresh() {
  try {
    // From the origin, not the page's URL: one opened as http://user:token@host/ makes fetch refuse
    // a URL relative to it (credentials in a URL); the browser sends the token it was given.
    const response = await fetch(new URL(body.dataset.feed, window.location.origin), {
      cache: "no-store",
      credentials: "same-origin",
      headers: { Accept: "application/json" },
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const reply = await response.json();
    show(reply.challenges);
    status.textContent = "";
  } catch {
    status.textContent = status.dataset.offline; // the table stays as it was: say it may be stale
  } finally {
    setTimeout(refresh, POLL_MS);
  }
}

setTimeout(refresh, POLL_MS);
