"""The reader of FISE's published lemma lists (lextools.builder.fise_lists), on lists of our own.

One test per line shape the format has (every row of its shape tables, every family of revision
notes), read at the parsing level: the right Verb, Word or Change fields. Then a folder laid out as
FISE sends it (tests/fise_folder.py: Latin-1 file names, .TXT and .txt, full tables of contents,
trailers, a .docx beside) built end to end, and folders the build must refuse in one line naming
the file and the line, leaving the lexicon directory byte-identical.
"""

from __future__ import annotations

import errno
import gzip
import hashlib
import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lextools.builder.fise_lists import Change, FiseFile, Verb, Word, read_file
from lextools.cli.main import app, main
from lextools.core import output_files as files_module
from lextools.core.errors import SourceError
from lextools.core.lexicon import load_lexicon
from lextools.core.sidecar import lemmas_path
from tests.fise_folder import (
    DEFECTIVE_TEXTS,
    FILES,
    NONVERB_UPDATE_SECTIONS,
    NONVERB_UPDATE_TITLE,
    NONVERBS_TITLE,
    NOT_UNDERSTOOD,
    RECIPE,
    SHORT_SECTIONS,
    SHORT_TITLE,
    VERB_BODY,
    VERB_NOTES,
    VERB_SECTIONS,
    VERB_UPDATE_SECTIONS,
    VERB_UPDATE_TITLE,
    VERBS_TITLE,
    fise_folder,
    list_text,
    name,
    write_list,
)


def read(tmp_path: Path, title: str, contents: list[str], body: list[str], eol: str = "\r\n") -> FiseFile:
    path = write_list(tmp_path / "lista.txt", list_text(title, contents, body), eol)
    parsed = read_file(path)
    assert parsed is not None
    return parsed


def only(parsed: FiseFile) -> Verb | Word | Change | str:
    assert not parsed.skipped, parsed.skipped
    (entry,) = [e for _, _, _, e in parsed.entries]
    return entry


# -- the verb total: one test per row of its table ------------------------------------------------


@pytest.mark.parametrize(
    ("line", "fields"),
    [
        ("00-1-.-zabornar", {"infinitive": "zabornar", "model": "00", "klass": "1", "prop": ".", "superscript": ""}),
        ("00-1-.-zabornar 2", {"infinitive": "zabornar", "superscript": "2", "detail": ""}),
        ("02-1-P-zaborcer(zaborto)", {"infinitive": "zaborcer", "model": "02", "prop": "P", "detail": "zaborto"}),
        ("00-1-P-zabagar(zabagado zabago)", {"infinitive": "zabagar", "detail": "zabagado zabago"}),
        ("20-1-P-zaver 1(zavisto)", {"infinitive": "zaver", "superscript": "1", "detail": "zavisto"}),
        ("01-1-R-zacostar", {"infinitive": "zacostar", "model": "01", "prop": "R", "superscript": ""}),
        ("01-1-R-zacostar 3", {"infinitive": "zacostar", "prop": "R", "superscript": "3"}),
        ("00-2-I-zabrisar", {"infinitive": "zabrisar", "klass": "2", "prop": "I"}),
        ("00-2-I-zabrisar 2", {"infinitive": "zabrisar", "prop": "I", "superscript": "2"}),
        ("01-2-D-zacaecer 1(infinitivo, gerundio, participio y terceras personas)", {"superscript": "1", "prop": "D"}),
        ("00-3-.-zajactarse", {"infinitive": "zajactar", "klass": "3", "written_se": True}),
        ("00-4-.-zacurrucar", {"infinitive": "zacurrucar", "klass": "4", "written_se": False}),
        ("00-5-.-zaclarear", {"infinitive": "zaclarear", "klass": "5", "prop": "."}),
        ("88-0-.-zacacharse", {"infinitive": "zacachar", "model": "88", "klass": "0", "written_se": True}),
        ("99-0-.-zabaldonarse", {"infinitive": "zabaldonar", "model": "99", "written_se": True}),
        ("99-2-.-zabaldonar 2", {"model": "99", "klass": "2", "superscript": "2", "written_se": False}),
        # a verb whose ending differs from its model verb's is the conjugator's affair, not the reader's
        ("24-1-P-zadesfacer(zadesfecho)", {"infinitive": "zadesfacer", "model": "24", "detail": "zadesfecho"}),
    ],
)
def test_verb_total_line_shapes(tmp_path: Path, line: str, fields: dict[str, object]) -> None:
    conj = {"ar": 0, "er": 1, "ir": 2}[line.split("-", 3)[3].split("(")[0].split()[0].removesuffix("se")[-2:]]
    verb = only(read(tmp_path, VERBS_TITLE, VERB_SECTIONS, [VERB_SECTIONS[conj], line]))
    assert isinstance(verb, Verb)
    assert {k: getattr(verb, k) for k in fields} == fields
    assert verb.where == "lista.txt: line 17"  # the list by its name, no local path


@pytest.mark.parametrize(
    "text",
    [
        *DEFECTIVE_TEXTS,
        "zabolir",  # the infinitive alone
        "zabolir zaboliendo",  # the infinitive and the gerund
        "zabolir zabolido zabolida zabolidos zabolidas",  # the infinitive and the participle in four forms
        "zabolirse zabolir",  # the pronominal infinitive with the plain one
    ],
)
def test_each_defective_text_is_the_verbs_detail(tmp_path: Path, text: str) -> None:
    verb = only(read(tmp_path, VERBS_TITLE, VERB_SECTIONS, ["3. TERCERA CONJUGACIÓN", f"00-1-D-zabolir({text})"]))
    assert isinstance(verb, Verb) and verb.prop == "D" and verb.detail == text


# -- the non-verb total -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "word", "feminine", "superscript"),
    [
        ("zumbrel", "zumbrel", None, ""),
        ("zumbîte", "zumbîte", None, ""),
        ("crèzal", "crèzal", None, ""),
        ("zaño", "zaño", None, ""),
        ("zaperro zaperra", "zaperro", "zaperra", ""),
        ("zagrís zagrís", "zagrís", "zagrís", ""),  # a pair whose two forms end alike (-s/-s)
        ("zabote 4", "zabote", None, "4"),
        ("zagato zagata 2", "zagato", "zagata", "2"),
    ],
)
def test_nonverb_total_line_shapes(
    tmp_path: Path, line: str, word: str, feminine: str | None, superscript: str
) -> None:
    entry = only(read(tmp_path, NONVERBS_TITLE, ["Total de no verbos sin plurales."], [line]))
    assert isinstance(entry, Word)
    assert (entry.word, entry.feminine, entry.superscript) == (word, feminine, superscript)


# -- the non-verb revision: sections, annexes, notes ------------------------------------------------


def test_nonverb_revision_sections_and_annexes(tmp_path: Path) -> None:
    body = []
    for i, title in enumerate(NONVERB_UPDATE_SECTIONS):
        body += [title, "", "(Sin relevancia para el estudio de actualización)"] if "ANEXO" in title else [title]
        body.append(f"zapalabra{'abcdefg'[i]}")
    parsed = read(tmp_path, NONVERB_UPDATE_TITLE, NONVERB_UPDATE_SECTIONS, body)
    assert not parsed.skipped
    assert [s for s, _, _, _ in parsed.entries] == [
        "add-variable", "add-invariable", "add-plural", "remove", "remove-plural", "annex", "annex",
    ]  # fmt: skip
    assert parsed.entries[-1][1] == {"qualifier": "Sin relevancia para el estudio de actualización"}
    assert parsed.titles == [t.split(". ", 1)[1] for t in NONVERB_UPDATE_SECTIONS]  # the indented notes are no titles


@pytest.mark.parametrize(
    ("line", "note", "plurals"),
    [
        ('zarzal (plural "zarzales")', 'plural "zarzales"', ("zarzales",)),
        ('zacrín (plurales "zacrines" y "zacrínes")', 'plurales "zacrines" y "zacrínes"', ("zacrines", "zacrínes")),
        ('zaflor (plural "zaflores)', 'plural "zaflores', ("zaflores",)),  # the published note missing its quote
        ('zaperros ("zaperros" es plural de "zaperro")', '"zaperros" es plural de "zaperro"', ()),
        ('zamos ("zamos" es forma conjugada del verbo "zamar")', '"zamos" es forma conjugada del verbo "zamar"', ()),
        ('zacasa ("zacasa" tiene entrada propia)', '"zacasa" tiene entrada propia', ()),
        ("zumbrel", "", ()),
    ],
)
def test_nonverb_revision_notes(tmp_path: Path, line: str, note: str, plurals: tuple[str, ...]) -> None:
    entry = only(read(tmp_path, NONVERB_UPDATE_TITLE, NONVERB_UPDATE_SECTIONS, [NONVERB_UPDATE_SECTIONS[0], line]))
    assert isinstance(entry, Word) and entry.word == line.split()[0]
    assert (entry.note, entry.plurals) == (note, plurals)


# -- the verb revision -----------------------------------------------------------------------------


def test_verb_revision_sections_subheadings_and_empty_lines(tmp_path: Path) -> None:
    body = [
        "1. NUEVOS",
        "(Con uso actual y no regional español)",
        "Primera conjugación",
        "Transitivos",
        "zabornar",
        "Intransitivos",
        "ningún verbo",
        "Pronominales",
        "zajactarse 2",
        "Segunda conjugación",
        "Transitivos",
        "00-1-.-zabeber",
        "12. CAMBIOS EN FORMAS",
        "(Se exceptúan cambios respecto a acentos)",
        "Tercera conjugación",
        "zabrir (añade zabre, zabres)",
    ]
    parsed = read(tmp_path, VERB_UPDATE_TITLE, VERB_UPDATE_SECTIONS, body)
    assert not parsed.skipped
    (s1, sub1, _, e1), (_, sub2, _, e2), (_, sub3, _, e3), (s4, sub4, _, e4) = parsed.entries
    qualifier = "Con uso actual y no regional español"
    assert s1 == "new" and sub1 == {"qualifier": qualifier, "conj": "ar", "class": "1"}
    assert isinstance(e1, Change) and (e1.infinitive, e1.note, e1.superscript) == ("zabornar", "", "")
    assert sub2["class"] == "3" and isinstance(e2, Change) and (e2.infinitive, e2.superscript) == ("zajactarse", "2")
    assert sub3 == {"qualifier": qualifier, "conj": "er", "class": "1"}
    assert isinstance(e3, Verb) and e3.infinitive == "zabeber"  # a full verb line in a revision stays a Verb
    assert s4 == "changed" and sub4 == {"qualifier": "Se exceptúan cambios respecto a acentos", "conj": "ir"}
    assert isinstance(e4, Change) and e4.note == "añade zabre, zabres"
    assert parsed.titles == [t.split(". ", 1)[1] for t in VERB_UPDATE_SECTIONS]


@pytest.mark.parametrize("note", VERB_NOTES)
def test_verb_revision_note_families(tmp_path: Path, note: str) -> None:
    body = ["12. CAMBIOS EN FORMAS", "Primera conjugación", f"zabornar ({note})"]
    change = only(read(tmp_path, VERB_UPDATE_TITLE, VERB_UPDATE_SECTIONS, body))
    assert isinstance(change, Change) and (change.infinitive, change.note) == ("zabornar", note)


# -- the two- and three-tile file ------------------------------------------------------------------


def test_two_and_three_tile_sections_subheadings_and_digits(tmp_path: Path) -> None:
    body = [SHORT_SECTIONS[0], "Altas:", "1e", "Bajas:", "zu", SHORT_SECTIONS[1], "Altas:", "za3", "Bajas:"]
    body += [SHORT_SECTIONS[2], "1e", SHORT_SECTIONS[3], "fu2", "za3"]
    parsed = read(tmp_path, SHORT_TITLE, SHORT_SECTIONS, body)
    assert not parsed.skipped
    assert [(s, sub.get("change"), e) for s, sub, _, e in parsed.entries] == [
        ("update-2", "altas", "che"),
        ("update-2", "bajas", "zu"),
        ("update-3", "altas", "zarr"),
        ("total-2", None, "che"),
        ("total-3", None, "full"),
        ("total-3", None, "zarr"),
    ]


# -- common to all files ---------------------------------------------------------------------------


@pytest.mark.parametrize("eol", ["\r\n", "\r", "\n"])
def test_line_ends_trailing_spaces_and_the_trailer(tmp_path: Path, eol: str) -> None:
    body = ["1. PRIMERA CONJUGACIÓN", "00-1-.-zabornar   ", "01-1-.-zacontar 2 "]
    path = write_list(tmp_path / "lista.txt", list_text(VERBS_TITLE, VERB_SECTIONS, body) + "00-1-.-zatrailer\n", eol)
    parsed = read_file(path)
    assert parsed is not None and not parsed.skipped
    verbs = [e for _, _, _, e in parsed.entries]
    assert [(v.infinitive, v.superscript) for v in verbs if isinstance(v, Verb)] == [
        ("zabornar", ""),
        ("zacontar", "2"),
    ]
    assert [n for _, _, n, _ in parsed.entries] == [17, 18]  # lines counted alike whatever ends them


def test_the_header_is_read_for_its_titles_only(tmp_path: Path) -> None:
    """Prose is never checked: a numbered line in the notes, a title the format has not, a legend."""
    text = list_text(
        VERBS_TITLE, [*VERB_SECTIONS, "4. CUARTA CONJUGACIÓN"], ["1. PRIMERA CONJUGACIÓN", "00-1-.-zabornar"]
    )
    text = text.replace("Notas:", "Notas:\n2. Otra nota numerada.\n   (una línea entre paréntesis)\nMM-T-P: código")
    parsed = read_file(write_list(tmp_path / "lista.txt", text))
    assert parsed is not None and not parsed.skipped and len(parsed.entries) == 1
    assert parsed.titles == [*(t.split(". ", 1)[1] for t in VERB_SECTIONS), "CUARTA CONJUGACIÓN"]


def test_a_line_not_understood_is_reported_and_skipped(tmp_path: Path) -> None:
    body = ["1. NUEVOS", "Primera conjugación", "zabornar", "zabornar y algo más", "7. CAPÍTULO NUEVO", "zabrisar"]
    body += ["2. SUPRIMIDOS", "Primera conjugación", "za\x1bbornar", "zabaldonar"]
    parsed = read(tmp_path, VERB_UPDATE_TITLE, VERB_UPDATE_SECTIONS, body)
    assert [(n, text) for n, text, _ in parsed.skipped] == [
        (28, "zabornar y algo más"),
        (29, "7. CAPÍTULO NUEVO"),
        (30, "zabrisar"),  # its section is not understood: neither is what it says of the verb
        (33, "za\x1bbornar"),
    ]
    assert parsed.skipped[2][2] == "under the section title not understood on line 29"
    assert [(s, e.infinitive) for s, _, _, e in parsed.entries if isinstance(e, Change)] == [
        ("new", "zabornar"),
        ("removed", "zabaldonar"),
    ]


# -- files refused, files passed over --------------------------------------------------------------


def _good() -> bytes:
    return (
        list_text(VERBS_TITLE, VERB_SECTIONS, ["1. PRIMERA CONJUGACIÓN", "00-1-.-zabornar"])
        .replace("\n", "\r\n")
        .encode("latin-1")
    )


@pytest.mark.parametrize(
    ("data", "error"),
    [
        ("LEXICÓN FISE 2: LISTA DE SUSTANTIVOS\r\n".encode("latin-1"), "line 1: a FISE list lextools does not know"),
        (_good().replace(b"zabornar", b"zabor\x00nar"), "line 17: a NUL byte, not Latin-1 text"),
        (_good().decode("latin-1").encode("utf-16"), "line 1: UTF-16, not Latin-1 text"),
        (_good().decode("latin-1").encode("utf-16-be"), "line 1: UTF-16, not Latin-1 text"),
        (_good().replace(b"zabornar", b"zab\x81rnar"), "line 17: byte 0x81, which Latin-1"),
        (_good().decode("latin-1").encode("utf-8"), "line 1: UTF-8, not Latin-1"),
        (_good()[: _good().index(b"#")], "line 12: the header ends without its '#' line"),
        (_good()[: _good().rindex(b"#")], "line 17: the list ends without the '#' line that closes its body"),
    ],
)
def test_a_file_that_is_not_one_of_the_lists_is_refused_by_line(tmp_path: Path, data: bytes, error: str) -> None:
    path = tmp_path / name(b"lista \xd3 \x1b.txt")
    path.write_bytes(data)
    with pytest.raises(SourceError) as refused:
        read_file(path)
    message = str(refused.value)
    assert message.startswith("lista \\udcd3 \\x1b.txt: ") or "/lista \\udcd3 \\x1b.txt: " in message, message
    assert error in message and "\n" not in message and "\x1b" not in message


@pytest.mark.parametrize(
    "data",
    [b"PK\x03\x04\x14\x00\x06\x00" + bytes(200), b"Notas de la carpeta.\r\nSin listas.\r\n", b"", b"\xff\xd8\xff\xe0"],
)
def test_other_files_are_passed_over(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "otro.docx"
    path.write_bytes(data)
    assert read_file(path) is None


# -- a folder as FISE sends it, built --------------------------------------------------------------


def build(tmp: Path, home: Path, lists: Path) -> tuple[int, str]:
    recipe = tmp / "fise.toml"
    recipe.write_text(RECIPE, "utf-8")
    args = ["build", "es-fise", "--recipe", str(recipe), "--fise-lists", str(lists), "--lexicons", str(home)]
    result = CliRunner().invoke(app, args)
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    tmp = tmp_path_factory.mktemp("fise-folder")
    folder = fise_folder(tmp / "lists")
    code, output = build(tmp, tmp / "home", folder)
    assert code == 0, output
    return folder, tmp / "home", output


def test_the_folder_as_fise_sends_it_builds(built: tuple[Path, Path, str]) -> None:
    folder, home, output = built
    text = " ".join(output.split())
    assert "es-fise: source fise-lists" in text and "words" in text  # the progress bar
    assert "3 lines not understood, skipped (fixture TOTAL V.TXT 3)" in text and "\x1b" not in output
    for n, line in enumerate(NOT_UNDERSTOOD, start=20):
        shown = line.replace("\x1b", "\\x1b")
        assert f"fixture TOTAL V.TXT:{n}: {shown} (not a verb line" in text
    assert "passed over (not one of FISE's lists): Reglamento de l\\udce9xico fixture.docx" in text
    meta = json.loads((home / "es-fise.json").read_bytes())
    (source,) = meta["sources"]
    fise = source["fise"]
    assert fise["not_understood"] == 3 and fise["not_understood_by_file"] == {"fixture TOTAL V.TXT": 3}
    assert set(fise["ignored_files"]) == {"Reglamento de l\\udce9xico fixture.docx", "notas.txt"}
    # the metadata keeps each file's name as it round-trips (and shows it escaped): its bytes, its checksum
    assert {os.fsencode(n) for n in source["files"].values()} == {raw for raw, *_ in FILES}
    for kind, stored in source["files"].items():
        data = (folder / stored).read_bytes()
        assert source["sha256"][kind] == hashlib.sha256(data).hexdigest()
    shown = fise["files_shown"]["nonverb-update-0"]
    assert shown == "ACTUALIZACI\\udcd3N fixture NV.TXT"


def test_feminines_longer_than_the_board_are_reported(built: tuple[Path, Path, str]) -> None:
    """A 15-tile masculine whose feminine has 16: the masculine stays (and its plural, when it fits), the
    feminine is dropped for its length and named in the build's report and the metadata."""
    _, home, output = built
    text = " ".join(output.split())
    assert (
        "2 feminines longer than the 15-square board, left out (their masculines kept): "
        "zaborntificadora, zabornificaldesa"
    ) in text
    (source,) = json.loads((home / "es-fise.json").read_bytes())["sources"]
    assert source["fise"]["feminines_too_long"] == ["zaborntificadora", "zabornificaldesa"]
    lex = load_lexicon("es-fise", home)
    kept = ["ZABORNTIFICADOR", "ZABORNIFICALDE", "ZABORNIFICALDES", "ZABORNTILLADOR", "ZABORNTILLADORA"]
    assert [w for w in kept if lex.lookup(w).valid] == kept
    out = CliRunner().invoke(app, ["explain", "es-fise", "zaborntificador", "--lang", "en", "--lexicons", str(home)])
    assert "ZABORNTIFICADOR: a word of FISE’s lists (ZABORNTIFICADOR) (fixture TOTAL NV.txt, line " in out.stdout


def test_a_lemma_cites_its_own_list_when_another_folder_has_one_of_that_name(tmp_path: Path) -> None:
    """FISE publishes each revision under the same file names: a later folder holding a list of the name of
    one of the totals' does not take over the lemmas' citations (the list's key, hence its file and line)."""
    folder = fise_folder(tmp_path / "lists", not_understood=False)
    later = tmp_path / "later"
    later.mkdir()
    body = ["1. PRIMERA CONJUGACIÓN", "00-1-.-zaotro", "00-1-.-zaotro 2", "00-1-.-zaotro 3"]  # other lines
    write_list(later / name(FILES[0][0]), list_text(VERBS_TITLE, VERB_SECTIONS, body))
    recipe = tmp_path / "fise.toml"
    recipe.write_text(RECIPE, "utf-8")
    home = tmp_path / "home"
    args = ["build", "es-fise", "--recipe", str(recipe), "--fise-lists", str(folder), "--fise-update", str(later)]
    result = CliRunner().invoke(app, [*args, "--lexicons", str(home)])
    assert result.exit_code == 0, result.output
    with gzip.open(lemmas_path(home, "es-fise"), "rt", encoding="utf-8") as f:
        (record,) = [line.rstrip("\n").split("\t") for line in f if line.startswith("ZABORNO\t")]
    # ZABORNO of the two homographs ZABORNAR (lines 18 and 19), each cited from the totals' list, not verbs-1
    assert [field for field in record if field.startswith("verbs")] == ["verbs:18", "verbs:19"], record
    (source,) = json.loads((home / "es-fise.json").read_bytes())["sources"]
    assert source["files"]["verbs"] == source["files"]["verbs-1"] == name(FILES[0][0])


def test_the_built_lexicon_answers_and_explains(built: tuple[Path, Path, str]) -> None:
    _, home, _ = built
    lex = load_lexicon("es-fise", home)
    assert [w for w in ("ZABORNAR", "ZABORNO", "ZAVISTO", "ZAÑO", "ZAPERRA") if lex.lookup(w).valid] == [
        "ZABORNAR", "ZABORNO", "ZAVISTO", "ZAÑO", "ZAPERRA",
    ]  # fmt: skip
    out = CliRunner().invoke(app, ["explain", "es-fise", "zaborno", "--lang", "en", "--lexicons", str(home)])
    assert out.exit_code == 0 and "ZABORNO: a form of ZABORNAR" in out.stdout
    # the section-12 notes of the totals' own revision: forms added, another future stem
    added = ["ZABIERTO", "ZABIERTAS", "ZABEBRÉ", "ZABEBRÍAMOS", "ZABEBERÉ"]
    assert [w for w in added if lex.lookup(w).valid] == added
    with gzip.open(lemmas_path(home, "es-fise"), "rt", encoding="utf-8") as f:
        assert any(line.startswith("ZABORNO\tzabornar\t") for line in f)


# -- folders refused: one line naming file and line; the lexicon directory byte-identical ----------


def listing(home: Path) -> list[tuple[str, int, str]]:
    return sorted((p.name, p.stat().st_size, hashlib.sha256(p.read_bytes()).hexdigest()) for p in home.iterdir())


def _cut_in_half(path: Path) -> str:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    return "the list ends without the '#' line that closes its body"


def _utf16(path: Path) -> str:
    path.write_bytes(path.read_bytes().decode("latin-1").encode("utf-16"))
    return "line 1: UTF-16, not Latin-1 text"


@pytest.mark.parametrize("spoil", [_cut_in_half, _utf16])
def test_a_spoilt_folder_is_refused_and_the_lexicon_is_left_as_it_was(
    tmp_path: Path, built: tuple[Path, Path, str], monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str], spoil: object,
) -> None:  # fmt: skip
    folder = fise_folder(tmp_path / "lists")
    path = folder / name(b"fixture TOTAL V.TXT")
    escaped = folder / name(b"fixture TOTAL \x1b[31m V.TXT")
    path.rename(escaped)  # an ESC byte in the name: shown escaped, never sent to the terminal
    assert callable(spoil)
    error = spoil(escaped)
    home = tmp_path / "home"
    home.mkdir()
    for p in built[1].iterdir():
        (home / p.name).write_bytes(p.read_bytes())
    before = listing(home)
    args = ["build", "es-fise", "--fise-lists", str(folder), "--lexicons", str(home)]
    monkeypatch.setattr("sys.argv", ["lextools", *args])
    with pytest.raises(SystemExit) as exit_:
        main()
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.strip().count("\n") == 0 and "\x1b" not in err, err
    line = " ".join(err.split())
    assert "fixture TOTAL \\x1b[31m V.TXT: line " in line and error in line, err
    assert listing(home) == before


def build_exits(
    tmp_path: Path, folder: Path, home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str]:
    """``lextools build es-fise --fise-lists folder -L home`` as a person runs it (``main``, its exit
    code and what it printed to standard error), for a build expected to fail."""
    (tmp_path / "fise.toml").write_text(RECIPE, "utf-8")
    args = ["build", "es-fise", "--recipe", str(tmp_path / "fise.toml"), "--fise-lists", str(folder), "-L", str(home)]
    monkeypatch.setattr("sys.argv", ["lextools", *args])
    with pytest.raises(SystemExit) as exit_:
        main()
    return int(exit_.value.code or 0), capsys.readouterr().err


def test_a_build_failing_as_it_writes_leaves_the_directory_as_it_was(
    tmp_path: Path, built: tuple[Path, Path, str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The disk fills as the metadata (the last file) is written: no new file, no temporary file left."""
    home_built = built[1]
    home = tmp_path / "home"
    home.mkdir()
    for p in home_built.iterdir():
        (home / p.name).write_bytes(p.read_bytes())
    before = listing(home)
    real = files_module.write_temporary

    def full_disk(path: Path, data: bytes) -> Path:
        if path.name == "es-fise.json":
            raise OSError(errno.ENOSPC, "No space left on device", os.fspath(path))
        return real(path, data)

    monkeypatch.setattr(files_module, "write_temporary", full_disk)
    other = fise_folder(tmp_path / "lists", not_understood=False)
    nonverbs = other / name(b"fixture TOTAL NV.txt")
    nonverbs.write_bytes(nonverbs.read_bytes().replace(b"zumbrel\r\n", b"zumbrel\r\nzanuevo\r\n"))  # new files
    code, err = build_exits(tmp_path, other, home, monkeypatch, capsys)
    assert code == 2 and "es-fise.json: No space left on device" in " ".join(err.split()), err
    assert listing(home) == before


def test_a_build_refused_for_its_losses_leaves_the_directory_as_it_was(
    tmp_path: Path, built: tuple[Path, Path, str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Refused under the build lock (it would lose most of the words): even the lock file is as it was."""
    home = tmp_path / "home"
    home.mkdir()
    for p in built[1].iterdir():
        (home / p.name).write_bytes(p.read_bytes())
    (home / "es-fise.lock").write_bytes(b"pid 1\n")  # the last build's, another process
    before = listing(home)
    folder = fise_folder(tmp_path / "lists")
    write_list(folder / name(FILES[0][0]), list_text(VERBS_TITLE, VERB_SECTIONS, VERB_BODY[:3]))  # one verb left
    code, err = build_exits(tmp_path, folder, home, monkeypatch, capsys)
    errors = [line for line in err.splitlines() if line.startswith("error:")]  # after the progress bar
    assert code == 2 and len(errors) == 1 and "more than 20% lost" in errors[0] and "Traceback" not in err
    assert listing(home) == before
