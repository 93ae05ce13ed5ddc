// Shared by the pages: the interface strings, the edition selector and calls to the /v1 API.
// Plain ES module, no dependencies: the pages are served as they are, with no build step.

const STRINGS = JSON.parse(document.getElementById("strings").textContent);
const editionSelect = document.getElementById("edition");

// Listeners told when the player picks another edition (after the page is relabelled).
const editionListeners = [];

/** The selected edition's name and interface language (a kiosk page names its one edition on a hidden input). */
export function edition() {
  const option = editionSelect.selectedOptions?.[0] ?? editionSelect;
  return { name: option.value, lang: option.dataset.lang, title: (option.dataset.title ?? option.textContent).trim() };
}

/** An interface string in the current language, with {placeholders} filled in; {count|card|cards}
 * is the singular or plural form by the number values.count (the language's rule, Intl.PluralRules). */
export function t(key, values = {}) {
  const lang = STRINGS[edition().lang]?.[key] === undefined ? "en" : edition().lang;
  const text = STRINGS[lang]?.[key] ?? key;
  const rules = new Intl.PluralRules(lang);
  return text
    .replace(/\{(\w+)\|([^{}|]*)\|([^{}|]*)\}/g, (_, name, one, other) =>
      rules.select(Number(values[name])) === "one" ? one : other)
    .replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ""));
}

/** A string in a given language (the judge shows the English verdict under any other). */
export function tIn(lang, key) {
  return STRINGS[lang]?.[key] ?? STRINGS.en[key] ?? key;
}

/** Relabel everything marked data-i18n (text) or data-i18n-attr ("attr:key") in the current language. */
function relabel() {
  const { lang } = edition();
  document.documentElement.lang = lang;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of document.querySelectorAll("[data-i18n-attr]")) {
    const [attr, key] = el.dataset.i18nAttr.split(":");
    el.setAttribute(attr, t(key));
  }
  document.title = `${t(document.body.dataset.titleKey)} · lextools`;
}

/** Keep the URL and the links to the other pages on the chosen edition, so a reload keeps it. */
function rememberEdition() {
  const { name } = edition();
  const url = new URL(location.href);
  url.searchParams.set("edition", name);
  history.replaceState(null, "", url);
  for (const link of document.querySelectorAll("[data-edition-link]")) {
    const target = new URL(link.href);
    target.searchParams.set("edition", name);
    link.href = target.pathname + target.search;
  }
}

/** Call fn() whenever the player picks another edition. */
export function onEditionChange(fn) {
  editionListeners.push(fn);
}

editionSelect.addEventListener("change", () => {
  const title = document.getElementById("edition-title");
  if (title) title.textContent = edition().title;
  relabel();
  rememberEdition();
  for (const fn of editionListeners) fn(edition());
});

/**
 * Call the JSON API. Resolves to {ok, status, body, headers}; a network failure gives status 0 and body null,
 * so callers handle every outcome in one place instead of a try/catch each.
 */
export async function api(path, options = {}) {
  // Reasons and errors come back in the page's language, whatever the browser's own settings.
  const given = options.headers ?? {};
  const init = { ...options, headers: { Accept: "application/json", "Accept-Language": edition().lang, ...given } };
  if (options.json !== undefined) {
    init.method = init.method ?? "POST";
    init.headers = { ...init.headers, "Content-Type": "application/json" };
    init.body = JSON.stringify(options.json);
    delete init.json;
  }
  try {
    const response = await fetch(`/v1/${path}`, init);
    const body = await response.json().catch(() => null);
    return { ok: response.ok, status: response.status, body, headers: response.headers };
  } catch {
    return { ok: false, status: 0, body: null, headers: new Headers() };
  }
}

/** The path segment for a word or rack: every character escaped (a "?" or "/" is not a URL's). */
export function segment(text) {
  return encodeURIComponent(text);
}

/** The error message of a failed API call, for the study page (the judge shows none of them). */
export function errorText(result) {
  const message = result.body?.error?.message ?? (result.status ? `HTTP ${result.status}` : "offline");
  return t("error_generic", { message });
}

/** Build an element: el("li", {class: "x"}, "text", child). Text is always set as text, never HTML. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null && value !== false) node.setAttribute(name, value === true ? "" : value);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}
