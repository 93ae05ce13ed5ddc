"""The HTML pages through Flask's test client: they render, their inputs are labelled, they load
nothing from another origin, and their language follows the edition. (tests/test_browser.py runs
them in a real browser.)"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from lextools.core.edition import edition_names, load_edition
from service import create_app
from service.http.limits import MAX_PLAY_CHARS, MAX_WORD_CHARS
from tests.conftest import build_small

SERVICE = Path(__file__).parent.parent / "service"
STATIC = SERVICE / "pages" / "static"
#: The pages' templates and the director's (service/judge/templates).
TEMPLATES = [*SERVICE.glob("*/templates/*.html")]
STRINGS = json.loads((STATIC / "strings.json").read_text(encoding="utf-8"))

PAGES = ["/", "/judge", "/study"]


class Page(HTMLParser):
    """The parts of a page these tests look at."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.html = html
        self.elements: list[tuple[str, dict[str, str]]] = []
        self.labels: dict[str, str] = {}  # for= → label text
        self.text_of: dict[str, str] = {}  # id (or tag name, the last one) → its text
        self._open: list[tuple[str, str | None, list[str]]] = []  # (tag, id or label target, text)
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        self.elements.append((tag, a))
        if tag in {"label", "button", "h1", "p", "option", "title", "script"} or "id" in a:
            self._open.append((tag, a.get("for") if tag == "label" else a.get("id") or tag, []))

    def handle_data(self, data: str) -> None:
        for _, _, text in self._open:
            text.append(data)

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self._open) - 1, -1, -1):
            if self._open[i][0] == tag:
                _, key, text = self._open.pop(i)
                if tag == "label" and key:
                    self.labels[key] = " ".join("".join(text).split())
                elif key:
                    self.text_of[key] = "".join(text)
                break

    def all(self, tag: str) -> list[dict[str, str]]:
        return [a for t, a in self.elements if t == tag]

    @property
    def lang(self) -> str:
        return self.all("html")[0]["lang"]


def get_page(client: FlaskClient, url: str) -> Page:
    r = client.get(url)
    assert r.status_code == 200, url
    assert r.content_type.startswith("text/html")
    return Page(r.get_data(as_text=True))


@pytest.mark.parametrize("url", PAGES)
def test_pages_render_for_a_phone_with_labelled_inputs(client: FlaskClient, url: str) -> None:
    page = get_page(client, url)
    assert {"name": "viewport", "content": "width=device-width, initial-scale=1"} in page.all("meta")
    fields = [a for t, a in page.elements if t in {"input", "select", "textarea"}]
    assert fields, "every page has at least the edition selector"
    for field in fields:
        assert field.get("id") in page.labels and page.labels[field["id"]], f"{field} has no <label for=…>"
    assert len(page.labels) == len(set(page.labels))
    ids = [a["id"] for _, a in page.elements if "id" in a]
    assert len(ids) == len(set(ids)), "ids are unique"
    for button in page.all("button"):
        assert button.get("type") in {"submit", "button"}


def test_the_judge_page(client: FlaskClient) -> None:
    page = get_page(client, "/judge?edition=es-fise")
    form = next(a for a in page.all("form") if a.get("id") == "judge")
    assert form["data-clear-ms"] == "10000" and form["data-max-words"] == "8"
    # The page refuses what the challenge route refuses, no less: a word of more than 60 characters,
    # a field of more than 8 such words (a word of 16 tiles or more is sent, and judged).
    assert form["data-max-word-chars"] == str(MAX_WORD_CHARS) == "60"
    count = next(a for a in page.all("input") if a["id"] == "count")
    words = next(a for a in page.all("input") if a["id"] == "words")
    assert count["maxlength"] == "1" and "autofocus" in count and words["maxlength"] == str(MAX_PLAY_CHARS)
    # Focus order follows the page: edition, count, words, the Judge button; nothing reorders it. The
    # verdict's buttons (next play, receipt) and the receipt's (print, close) come after, hidden with them.
    assert not any("tabindex" in a and a["tabindex"] not in {"-1", "0"} for _, a in page.elements)
    order = [a.get("id") or t for t, a in page.elements if t in {"select", "input", "button"}]
    assert order == ["edition", "count", "words", "button", "verdict-next", "show-receipt", "receipt-print",
                     "receipt-close"]  # fmt: skip
    sheet = next(a for a in page.all("section") if a.get("id") == "receipt")
    assert "hidden" in sheet and sheet["role"] == "dialog"
    # The verdict and the messages are announced to screen readers.
    verdict = next(a for a in page.all("div") if a.get("id") == "verdict")
    assert verdict["aria-live"] == "assertive" and verdict["data-verdict"] == "" and "hidden" in verdict
    message = next(a for a in page.all("p") if a.get("id") == "message")
    assert message["aria-live"] == "polite"


def test_the_verdict_stays_up_as_long_as_the_server_says(lexicon_home: Path, tmp_path: Path) -> None:
    """--judge-clear (JUDGE_CLEAR_SECONDS) sets it; the page's URL does not."""
    app = create_app({"LEXICONS": lexicon_home, "RECORD": tmp_path / "r.sqlite3", "JUDGE_CLEAR_SECONDS": 2.5})
    page = get_page(app.test_client(), "/judge?clear_ms=500")
    assert next(a for a in page.all("form") if a.get("id") == "judge")["data-clear-ms"] == "2500"


def test_the_study_page_announces_its_results(client: FlaskClient) -> None:
    page = get_page(client, "/study?edition=es-fise")
    live = {a["id"] for _, a in page.elements if "aria-live" in a and "id" in a}
    assert {"lookup-result", "two-result", "quiz-marks", "quiz-outcome", "quiz-score", "cardbox-message"} <= live
    lengths = page.html.split('<select id="quiz-length">')[1].split("</select>")[0]
    assert re.findall(r'<option value="(\d+)"', lengths) == [str(n) for n in range(2, 16)]


@pytest.mark.parametrize("edition", edition_names())
def test_the_interface_language_follows_the_edition(client: FlaskClient, edition: str) -> None:
    language = load_edition(edition).language
    for url in PAGES:
        page = get_page(client, f"{url}?edition={edition}")
        assert page.lang == language
        selected = [a["value"] for a in page.all("option") if "selected" in a and not a["value"].isdigit()]
        assert selected == [edition]
    judge = get_page(client, f"/judge?edition={edition}")
    assert judge.labels["count"] == STRINGS[language]["count_label"]
    assert judge.text_of["title"].startswith(STRINGS[language]["judge_title"])


def test_spanish_french_and_english_wording(client: FlaskClient) -> None:
    assert "¿Cuántas palabras forma la jugada?" in get_page(client, "/judge?edition=es-na103").html
    assert "Combien de mots" in get_page(client, "/judge?edition=fr").html
    assert "How many words" in get_page(client, "/judge?edition=en").html
    assert get_page(client, "/judge").lang == "es"  # es-fise when the URL names no edition
    assert STRINGS["es"]["verdict_bad"] == "NO ACEPTABLE" and STRINGS["en"]["verdict_bad"] == "NOT ACCEPTABLE"
    # Each option carries the language the page switches to when it is picked.
    options = {a["value"]: a["data-lang"] for a in get_page(client, "/study").all("option") if "data-lang" in a}
    assert options == {name: load_edition(name).language for name in edition_names()}


@pytest.mark.parametrize("url", ["/judge?edition=nope", "/study?edition=nope", "/?edition=xx"])
def test_an_unknown_edition_in_a_page_url_is_a_page(client: FlaskClient, url: str) -> None:
    r = client.get(url, headers={"Accept-Language": "fr-FR,fr;q=0.9"})
    assert r.status_code == 404 and r.mimetype == "text/html"
    page = Page(r.get_data(as_text=True))
    assert page.lang == "fr" and "pas de liste de mots pour" in r.get_data(as_text=True)
    assert url.split("=")[1] in r.get_data(as_text=True)
    links = [a["href"] for a in page.all("a")]
    assert f"{url.split('?')[0]}?edition=es-fise" in links


def test_the_judge_offers_only_editions_it_has_a_list_for(tmp_path: Path) -> None:
    build_small(tmp_path, "es-fise")
    build_small(tmp_path, "fr")
    client = create_app({"LEXICONS": tmp_path}).test_client()
    options = [a["value"] for a in get_page(client, "/judge").all("option")]
    assert options == ["es-fise", "fr"]
    r = client.get("/judge?edition=en")  # a known edition without a list here
    assert r.status_code == 404 and r.mimetype == "text/html"
    assert "no tiene lista de palabras para la edición en" in r.get_data(as_text=True)
    assert get_page(client, "/judge?edition=fr").lang == "fr"


def test_one_string_table_with_every_key_in_every_language() -> None:
    assert set(STRINGS) == {"es", "en", "fr"}
    keys = set(STRINGS["en"])
    assert all(set(table) == keys for table in STRINGS.values())
    assert all(text.strip() for table in STRINGS.values() for text in table.values())
    used = set()
    for path in TEMPLATES:
        used |= set(re.findall(r'data-i18n="(\w+)"', path.read_text(encoding="utf-8")))
        used |= set(re.findall(r"\bt\.(\w+)", path.read_text(encoding="utf-8")))
    for path in STATIC.glob("*.js"):
        # t("key") calls, and the keys picked by a condition: t(ok ? "verdict_ok" : "verdict_bad")
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r'\bt(?:In\(\w+, )?\("(\w+)"', text))
        used |= {
            k
            for k in re.findall(r'"([a-z]+_[a-z_]+)"', text)
            if k.split("_")[0] in {"verdict", "lookup", "quiz", "cardbox", "msg"}
        }
    assert used and used <= keys, f"used but not in strings.json: {used - keys}"


# -- no external assets ----------------------------------------------------------------------------


def test_nothing_is_loaded_from_another_origin(client: FlaskClient) -> None:
    files = [*STATIC.rglob("*"), *TEMPLATES]
    for path in files:
        if path.is_file():
            text = path.read_text(encoding="utf-8")
            if path.parent.name == "vendor":  # a published build kept byte for byte: links in its comments
                text = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith(("*", "//")))
            assert not re.search(r"https?://|//[a-z0-9.-]+\.[a-z]{2,}/", text, re.IGNORECASE), path
    for url in PAGES:
        r = client.get(url)
        html = r.get_data(as_text=True)
        assert "http://" not in html and "https://" not in html
        page = Page(html)
        assets = [a["src"] for a in page.all("script") if "src" in a] + [a["href"] for a in page.all("link")]
        for asset in assets:
            assert asset.startswith("/static/") or asset == "data:,", asset
            if asset.startswith("/static/"):
                served = client.get(asset)
                assert served.status_code == 200, asset
                assert "http://" not in served.get_data(as_text=True)
        # The browser enforces it too: every page says where it may load from.
        csp = r.headers["Content-Security-Policy"]
        assert "default-src 'self'" in csp and "script-src 'self'" in csp and "connect-src 'self'" in csp


def test_scripts_are_modules_served_as_javascript(client: FlaskClient) -> None:
    for name in ("judge.js", "study.js", "home.js", "common.js"):
        r = client.get(f"/static/{name}")
        assert r.status_code == 200 and r.mimetype in {"text/javascript", "application/javascript"}
    imports = re.findall(r'from "(\./[\w.]+)"', (STATIC / "judge.js").read_text(encoding="utf-8"))
    assert imports == ["./common.js"]


def test_the_judge_asks_blind_challenges_only() -> None:
    """The browser must never receive which word failed: reveal is always false, and only /challenge is used."""
    judge = (STATIC / "judge.js").read_text(encoding="utf-8")
    assert "reveal: false" in judge and "reveal: true" not in judge
    assert re.findall(r"api\(`([^`]*)`", judge) == ["${encodeURIComponent(edition().name)}/challenge"]
    assert "/words/" not in judge and "/check" not in judge
    # Server error messages may quote the input; the judge shows only its own generic ones.
    assert "error?.message" not in judge and "errorText" not in judge
