"""Exports for other engines through the CLI and the service: KWG, GADDAG, KAD, DAWG and text files,
their manifests, `lextools verify`, and building a lexicon from a KWG (round trips for every edition)."""

from __future__ import annotations

import hashlib
import json
import struct
import time
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from typer.testing import CliRunner

from lextools.cli.main import app, main
from lextools.core import kwg
from lextools.core.edition import edition_names
from lextools.core.lexicon import load_lexicon
from lextools.features.export import export_bytes
from service.app import create_app
from tests.conftest import SMALL_LISTS, build_small

FILE_FORMATS = {"kwg": ["--format", "kwg"], "kwg-gaddag": ["--format", "kwg", "--gaddag"], "kad": ["--format", "kad"]}
FILE_FORMATS |= {"dawg": ["--format", "dawg"], "txt": ["--format", "txt", "--notation", "digits"]}


def run(*args: str | Path):
    return CliRunner().invoke(app, [str(a) for a in args], catch_exceptions=False)


def run_main(monkeypatch: pytest.MonkeyPatch, *args: str | Path) -> int:
    """Through ``main``, which turns library errors into exit code 2."""
    monkeypatch.setattr("sys.argv", ["lextools", *map(str, args)])
    with pytest.raises(SystemExit) as e:
        main()
    return int(e.value.code or 0)


def export(home: Path, edition: str, fmt: str, path: Path) -> Path:
    result = run("export", edition, *FILE_FORMATS[fmt], "--output", path, "--lexicons", home)
    assert result.exit_code == 0, result.output
    return path


@pytest.mark.parametrize("edition", edition_names())
def test_every_format_verifies_and_kwg_round_trips(edition: str, lexicon_home: Path, tmp_path: Path) -> None:
    for fmt in FILE_FORMATS:
        path = export(lexicon_home, edition, fmt, tmp_path / f"out.{fmt}")
        result = run("verify", path, "--edition", edition, "--lexicons", lexicon_home, "--json")
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["format"] == fmt
    # import the KWG into another directory, export it again: the same bytes
    other = tmp_path / "other"
    result = run("build", edition, "--source", tmp_path / "out.kwg", "--lexicons", other)
    assert result.exit_code == 0, result.output
    assert len(load_lexicon(edition, other)) == len(load_lexicon(edition, lexicon_home))
    for fmt in ("kwg", "kwg-gaddag", "kad"):
        again = export(other, edition, fmt, tmp_path / f"again.{fmt}")
        assert again.read_bytes() == (tmp_path / f"out.{fmt}").read_bytes()


def test_spanish_kwg_uses_digraph_tiles(lexicon_home: Path, tmp_path: Path) -> None:
    path = export(lexicon_home, "es-fise", "kwg", tmp_path / "es.kwg")
    graph = kwg.read_kwg(path.read_bytes())
    words = {tuple(map(ord, w)) for w in graph.words(graph.dawg_root)}
    assert (4, 10, 19, 24, 10, 13, 17) in words  # CH·I·Q·U·I·LL·O, 7 tiles
    assert (3, 1, 21, 17) in words  # C·A·RR·O
    assert (16, 1, 15, 5, 24) in words  # Ñ·A·N·D·U


def test_the_manifest_is_enough_to_load_the_file(lexicon_home: Path, tmp_path: Path) -> None:
    path = export(lexicon_home, "es-fise", "kwg-gaddag", tmp_path / "es.kwg")
    manifest = json.loads((tmp_path / "es.kwg.manifest.json").read_text("utf-8"))
    data = path.read_bytes()
    assert manifest["format"] == "kwg-gaddag" and manifest["edition"] == "es-fise"
    assert manifest["files"][0]["bytes"] == len(data) and manifest["layout"]["nodes"] == len(data) // 4
    import hashlib

    assert manifest["files"][0]["sha256"] == hashlib.sha256(data).hexdigest()
    lex = load_lexicon("es-fise", lexicon_home)
    assert manifest["lexicon"]["checksum"] == lex.checksum and manifest["words"] == len(lex)
    tiles = {t["tile"]: t for t in manifest["alphabet"]["tiles"]}
    assert tiles[4] == {"tile": 4, "label": "CH", "aliases": ["1", "[CH]"], "blank": False, "count": 1, "score": 5}
    assert tiles[0]["blank"] and tiles[0]["count"] == 2
    # A reader that knows only the manifest: decode the DAWG half with its alphabet and layout.
    nodes = struct.unpack(f"<{len(data) // 4}I", data)
    words: set[str] = set()

    def walk(arc: int, prefix: str) -> None:
        while arc:
            v = nodes[arc]
            word = prefix + tiles[v >> 24]["label"]
            if v & 0x800000:
                words.add(word)
            walk(v & 0x3FFFFF, word)
            arc = 0 if v & 0x400000 else arc + 1

    walk(nodes[0] & 0x3FFFFF, "")
    assert words == {lex.edition.spelling(k) for k in lex}
    assert all("path" not in s for s in manifest["lexicon"]["sources"])  # no local paths shipped


def gaddag_paths_wolges_style(nodes: tuple[int, ...]) -> list[tuple[int, ...]]:
    """What a move generator that knows only the format reads as the GADDAG: the list at node 1's arc
    (wolges' ``kwg[1].arc_index()``), every accepted path through it and through separators."""
    found: list[tuple[int, ...]] = []
    stack = [(nodes[1] & 0x3FFFFF, ())]
    while stack:
        arc, path = stack.pop()
        while arc:
            v = nodes[arc]
            here = (*path, v >> 24)
            if v & 0x800000:
                found.append(here)
            stack.append((v & 0x3FFFFF, here))
            arc = 0 if v & 0x400000 else arc + 1
    return found


@pytest.mark.parametrize("edition", ["es-fise", "en"])
def test_a_dawg_only_kwg_holds_an_empty_gaddag_at_node_1(edition: str, lexicon_home: Path, tmp_path: Path) -> None:
    data = export(lexicon_home, edition, "kwg", tmp_path / "dawg.kwg").read_bytes()
    nodes = struct.unpack(f"<{len(data) // 4}I", data)
    assert nodes[1] == 0x400000  # tile 0, last of its list, not accepting, arc 0: an empty GADDAG
    assert gaddag_paths_wolges_style(nodes) == []  # no plays, rather than reversed "words"
    assert nodes[0] & 0x3FFFFF > 1 and len(list(kwg.read_kwg(data).words(nodes[0] & 0x3FFFFF))) == len(
        load_lexicon(edition, lexicon_home)
    )
    # The combined file's node 1 is a GADDAG root that leads somewhere.
    both = export(lexicon_home, edition, "kwg-gaddag", tmp_path / "both.kwg").read_bytes()
    both_nodes = struct.unpack(f"<{len(both) // 4}I", both)
    assert both_nodes[1] >> 24 == 0 and both_nodes[1] & 0x3FFFFF > 1
    manifest = json.loads((tmp_path / "dawg.kwg.manifest.json").read_text("utf-8"))
    assert manifest["layout"]["gaddag_root"] == "node 1, empty (arc 0)"
    assert manifest["layout"]["nodes"] == len(nodes)


def test_an_older_dawg_only_kwg_still_reads(lexicon_home: Path, tmp_path: Path) -> None:
    """A DAWG-only file with a DAWG node at node 1 (earlier lextools versions wrote these) verifies."""
    lex = load_lexicon("en", lexicon_home)
    data = kwg.encode(list(lex.keys()), lex.edition)
    nodes = list(struct.unpack(f"<{len(data) // 4}I", data))
    old = [nodes[0] - 1] + [n - 1 if n & 0x3FFFFF else n for n in nodes[2:]]  # node 1 removed, arcs moved
    path = tmp_path / "old.kwg"
    path.write_bytes(struct.pack(f"<{len(old)}I", *old))
    result = run("verify", path, "--edition", "en", "--lexicons", lexicon_home, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["format"] == "kwg"


def test_verify_reports_differences_with_examples(lexicon_home: Path, tmp_path: Path) -> None:
    smaller = tmp_path / "smaller"
    build_small(smaller, "es-fise", ["casa", "casas", "chiquillo", "zzz"])
    for fmt in FILE_FORMATS:
        path = export(smaller, "es-fise", fmt, tmp_path / f"small.{fmt}")
        result = run("verify", path, "--edition", "es-fise", "--lexicons", lexicon_home, "--json")
        assert result.exit_code == 1, (fmt, result.output)
        parts = json.loads(result.stdout)["parts"]
        assert any(p["missing"] > 0 for p in parts)
        if fmt != "kad":
            assert any("ZZZ" in p["extra_examples"] for p in parts)


def test_verify_checks_the_gaddag_half(lexicon_home: Path, tmp_path: Path) -> None:
    path = export(lexicon_home, "es-fise", "kwg-gaddag", tmp_path / "es.kwg")
    data = bytearray(path.read_bytes())
    graph = kwg.read_kwg(bytes(data))
    # Drop the accepts flag of one node reached only through the GADDAG root: a reversed word is lost.
    first = graph.gaddag_root
    reversed_words_before = sum(1 for _ in graph.words(first, separator=True))
    for i in range(first, len(graph.nodes)):
        if graph.nodes[i] & kwg.ACCEPTS and i > first:
            struct.pack_into("<I", data, 4 * i, graph.nodes[i] & ~kwg.ACCEPTS)
            broken = kwg.read_kwg(bytes(data))
            if sum(1 for _ in broken.words(broken.dawg_root)) == len(load_lexicon("es-fise", lexicon_home)):
                break  # the DAWG half is intact: only the GADDAG changed
            struct.pack_into("<I", data, 4 * i, graph.nodes[i])
    assert sum(1 for _ in kwg.read_kwg(bytes(data)).words(first, separator=True)) < reversed_words_before
    path.write_bytes(bytes(data))
    result = run("verify", path, "--edition", "es-fise", "--lexicons", lexicon_home, "--json")
    assert result.exit_code == 1, result.output
    parts = {p["name"]: p for p in json.loads(result.stdout)["parts"]}
    assert parts["words (DAWG)"]["identical"]
    assert not (parts["reversed words (GADDAG)"]["identical"] and parts["split points (GADDAG)"]["identical"])


def test_verify_exits_2_when_the_file_is_not_of_its_format(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lexicon_home: Path, tmp_path: Path
) -> None:
    path = export(lexicon_home, "es-fise", "kwg", tmp_path / "es.kwg")
    cut = tmp_path / "cut.kwg"
    cut.write_bytes(path.read_bytes()[:-6])
    text = export(lexicon_home, "es-fise", "txt", tmp_path / "es.txt")
    for args in (
        [cut],
        [text, "--format", "kwg"],
        [path, "--format", "kwg-gaddag"],  # a DAWG-only file has no GADDAG half
        [path, "--format", "dawg"],
        [tmp_path / "missing.kwg"],
    ):
        assert run_main(monkeypatch, "verify", *args, "--edition", "es-fise", "--lexicons", lexicon_home) == 2
    assert "is not a kwg file" in capsys.readouterr().err


def test_a_kwg_of_another_alphabet_is_refused_naming_the_tile(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    source = tmp_path / "k.kwg"
    source.write_bytes(struct.pack("<3I", 0x400001, 29 << 24 | 0x400000 | 2, 1 << 24 | 0xC00000))  # K·A: K is 29
    args = ["build", "es-fise", "--source", source, "--lexicons", tmp_path / "D"]
    assert run_main(monkeypatch, *args) == 2
    assert "tile number 29 is not in the es-fise KWG alphabet" in capsys.readouterr().err
    assert not (tmp_path / "D" / "es-fise.json").exists()
    assert run_main(monkeypatch, "build", "es-na103", "--source", source, "--lexicons", tmp_path / "D") == 0
    assert "KA" in load_lexicon("es-na103", tmp_path / "D")


def test_export_to_stdout(lexicon_home: Path, tmp_path: Path) -> None:
    path = export(lexicon_home, "en", "kwg", tmp_path / "en.kwg")
    result = CliRunner().invoke(app, ["export", "en", "--format", "kwg", "-o", "-", "--lexicons", str(lexicon_home)])
    assert result.exit_code == 0 and result.stdout_bytes == path.read_bytes()
    assert not (tmp_path / "-.manifest.json").exists()


def test_export_refuses_bad_options(monkeypatch: pytest.MonkeyPatch, lexicon_home: Path) -> None:
    for args in (
        ["--format", "kwg"],
        ["--format", "txt", "--gaddag"],
        ["--format", "zip", "-o", "x"],
        ["--format", "kwg", "-o", "/nonexistent/dir/x.kwg"],
    ):
        assert run_main(monkeypatch, "export", "en", *args, "--lexicons", lexicon_home) == 2


# -- the service ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["kwg", "kwg-gaddag", "kad"])
def test_service_serves_kwg_files_with_the_checksum_etag(
    client: FlaskClient, lexicon_home: Path, tmp_path: Path, fmt: str
) -> None:
    cli = export(lexicon_home, "es-fise", fmt, tmp_path / "es.bin")
    r = client.get(f"/v1/es-fise/export?format={fmt}")
    checksum = load_lexicon("es-fise", lexicon_home).checksum
    assert r.status_code == 200 and r.data == cli.read_bytes()
    assert r.headers["ETag"] == f'"{checksum}"' and r.mimetype == "application/octet-stream"
    assert ".kwg" in r.headers["Content-Disposition"] or ".kad" in r.headers["Content-Disposition"]
    assert client.get(f"/v1/es-fise/export?format={fmt}", headers={"If-None-Match": f'"{checksum}"'}).status_code == 304
    manifest = client.get(f"/v1/es-fise/manifest?format={fmt}").get_json()
    on_disk = json.loads((tmp_path / "es.bin.manifest.json").read_text("utf-8"))
    assert manifest["files"][0]["sha256"] == on_disk["files"][0]["sha256"]
    assert manifest["alphabet"] == on_disk["alphabet"] and manifest["format"] == fmt


def test_service_manifest_errors(client: FlaskClient) -> None:
    assert client.get("/v1/es-fise/manifest?format=zip").status_code == 400
    assert client.get("/v1/es-xx/manifest").status_code == 404
    assert client.get("/v1/es-fise/manifest").get_json()["format"] == "kwg"


def test_small_lists_cover_every_edition() -> None:
    assert set(SMALL_LISTS) == set(edition_names())


@pytest.mark.parametrize("edition", edition_names())
def test_the_lexicon_dawg_and_the_word_list_give_the_same_file(edition: str, lexicon_home: Path) -> None:
    from lextools.features.export import export_bytes

    lex = load_lexicon(edition, lexicon_home)
    for gaddag in (False, True):
        fmt = "kwg-gaddag" if gaddag else "kwg"
        assert export_bytes(lex, fmt, home=lexicon_home) == kwg.encode(list(lex.keys()), lex.edition, gaddag)
    alphagrams = ("".join(sorted(w)) for w in kwg.tile_words(lex.keys(), lex.edition))
    assert export_bytes(lex, "kad", home=lexicon_home) == kwg.encode_kad(alphagrams)


def test_verify_reads_a_gaddag_laid_out_otherwise(tmp_path: Path) -> None:
    """A file from another writer need not share the DAWG's lists after the separator."""
    from lextools.features.verify import verify

    build_small(tmp_path, "en", ["ab"])
    acc, end = kwg.ACCEPTS, kwg.IS_END
    a, b = 1 << 24, 2 << 24
    nodes = [
        end | 2,  # DAWG root
        end | 3,  # GADDAG root
        a | end | 5,  # DAWG: A → {B}
        a | 6,  # GADDAG: A → {·}
        b | end | 7,  # GADDAG: B → {A}
        b | acc | end,  # DAWG: AB
        end | 8,  # A· → a copy of {B}, not the DAWG's list at 5
        a | acc | end,  # BA
        b | acc | end,  # A·B
    ]
    path = tmp_path / "other.kwg"
    path.write_bytes(struct.pack(f"<{len(nodes)}I", *nodes))
    verdict = verify(path, load_lexicon("en", tmp_path))
    assert verdict.format == "kwg-gaddag" and verdict.identical, verdict.as_dict()
    nodes[8] = 3 << 24 | acc | end  # A·C instead of A·B
    path.write_bytes(struct.pack(f"<{len(nodes)}I", *nodes))
    parts = {p.name: p for p in verify(path, load_lexicon("en", tmp_path)).parts}
    assert parts["split points (GADDAG)"].missing_examples == ["A·B"]
    assert parts["split points (GADDAG)"].extra_examples == ["A·C"]


def test_verify_checks_the_gaddag_lists_it_walks(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lexicon_home: Path, tmp_path: Path
) -> None:
    """verify checks a GADDAG KWG's DAWG half when it reads it, and the GADDAG half's lists as it walks
    them: a cycle there (a list of no word that leads to itself) is refused as reading the whole file
    refuses it, and lists of no word below a word (2**30 paths) leave the file identical."""
    path = export(lexicon_home, "en", "kwg-gaddag", tmp_path / "en.kwg")
    nodes = list(struct.unpack(f"<{len(path.read_bytes()) // 4}I", path.read_bytes()))

    def reached(arc: int) -> set[int]:
        seen, stack = set(), [arc]
        while stack:
            i = stack.pop()
            if i and i not in seen:
                seen.add(i)
                stack += [nodes[i] & kwg.ARC_MASK] + ([] if nodes[i] & kwg.IS_END else [i + 1])
        return seen

    gaddag_only = reached(nodes[1] & kwg.ARC_MASK) - reached(nodes[0] & kwg.ARC_MASK)
    leaf = min(i for i in gaddag_only if nodes[i] >> 24 and not nodes[i] & kwg.ARC_MASK)  # a reversed word ends
    cyclic = tmp_path / "cyclic.kwg"
    loop = [*nodes[:leaf], nodes[leaf] | len(nodes), *nodes[leaf + 1 :], 1 << 24 | kwg.IS_END | len(nodes)]
    cyclic.write_bytes(struct.pack(f"<{len(loop)}I", *loop))
    with pytest.raises(kwg.ExportFormatError) as refused:
        kwg.read_kwg(cyclic.read_bytes())
    args = ["--format", "kwg-gaddag", "--edition", "en", "--lexicons", lexicon_home]
    assert run_main(monkeypatch, "verify", cyclic, *args) == 2
    assert f"cyclic.kwg is not a kwg-gaddag file: {refused.value}" in capsys.readouterr().err
    maze = [
        node
        for k in range(30)
        for node in (1 << 24 | len(nodes) + 2 * k + 2, 2 << 24 | kwg.IS_END | len(nodes) + 2 * k + 2)
    ]
    maze[-2:] = [1 << 24, 2 << 24 | kwg.IS_END]
    nodes[leaf] |= len(nodes)
    path.write_bytes(struct.pack(f"<{len(nodes) + len(maze)}I", *nodes, *maze))
    result = run("verify", path, "--edition", "en", "--lexicons", lexicon_home, "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["identical"], result.output


def test_the_service_sends_kwg_and_kad_made_once_into_its_cache(lexicon_home: Path, tmp_path: Path) -> None:
    """Issue 23: made once per lexicon and format (KWG and KAD ignore the notation) by a process of
    its own, sent from a file byte for byte as the library makes them; a request that cannot wait
    for it is 503 busy with Retry-After while it is being made."""
    cache = tmp_path / "cache"
    hurried = create_app({"LEXICONS": lexicon_home, "TESTING": True, "EXPORT_CACHE": cache, "EXPORT_WAIT_MS": 0})
    r = hurried.test_client().get("/v1/fr/export?format=kwg-gaddag")
    assert r.status_code == 503 and r.json["error"]["code"] == "busy" and r.headers["Retry-After"]
    for _ in range(600):  # the export goes on without the request: its manifest is written last
        if list(cache.rglob("fr-gaddag.kwg.manifest.json")):
            break
        time.sleep(0.05)
    client = create_app({"LEXICONS": lexicon_home, "TESTING": True, "EXPORT_CACHE": cache}).test_client()
    lex = load_lexicon("fr", lexicon_home)
    for fmt, notation in (("kwg-gaddag", "plain"), ("kad", "digits"), ("txt", "brackets")):
        r = client.get(f"/v1/fr/export?format={fmt}&notation={notation}")
        assert r.status_code == 200, r.data[:200]
        assert r.data == export_bytes(lex, fmt, notation, lexicon_home)  # type: ignore[arg-type]
        info = client.get(f"/v1/fr/manifest?format={fmt}&notation={notation}").json
        assert info["files"][0]["sha256"] == hashlib.sha256(r.data).hexdigest()
    made = sorted(p.name for p in cache.rglob("*") if p.is_file() and not p.name.startswith("."))
    assert made == ["fr-brackets.txt", "fr-brackets.txt.manifest.json", "fr-gaddag.kwg", "fr-gaddag.kwg.manifest.json",
                    "fr.kad", "fr.kad.manifest.json"]  # fmt: skip
    r = client.get("/v1/fr/export?format=kad&notation=plain")  # the same file: KAD takes no notation
    assert r.data == export_bytes(lex, "kad", home=lexicon_home) and len(list(cache.rglob("*.kad"))) == 1


def test_a_kwg_with_a_cycle_is_refused_by_verify_and_build(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lexicon_home: Path, tmp_path: Path
) -> None:
    from tests.test_kwg import point_back

    path = export(lexicon_home, "es-fise", "kwg", tmp_path / "es.kwg")
    cyclic = tmp_path / "cyclic.kwg"
    cyclic.write_bytes(point_back(path.read_bytes())[0])
    assert run_main(monkeypatch, "verify", cyclic, "--edition", "es-fise", "--lexicons", lexicon_home) == 2
    assert "cyclic.kwg is not a kwg file: the graph has a cycle" in capsys.readouterr().err
    assert run_main(monkeypatch, "build", "es-fise", "--source", cyclic, "--lexicons", tmp_path / "D") == 2
    assert "cyclic.kwg is not a KWG file: the graph has a cycle" in capsys.readouterr().err
    assert not (tmp_path / "D" / "es-fise.json").exists()


# -- bundles for game engines (export --for ENGINE -o DIR) --------------------------------------------

#: The files of each engine's bundle of es-fise, by path in the directory (README.md and bundle.json too).
BUNDLE_FILES = {
    "magpie": {
        "data/lexica/FRA_LEXTOOLS_ES_FISE.kwg",
        "data/lexica/FRA_LEXTOOLS_ES_FISE.klv2",
        "data/letterdistributions/french_lextools_es_fise.csv",
        "data/layouts/standard15.txt",
    },
    "macondo": {
        "lexica/gaddag/FILE_LEXTOOLS_ES_FISE.kwg",
        "lexica/gaddag/FILE_LEXTOOLS_ES_FISE.klv2",
        "letterdistributions/lextools_es_fise",
    },
    "wolges": {"es-fise.kwg", "es-fise.klv2", "es-fise.alphabet.txt"},
    "quackle": {"lextools_es_fise.txt", "lextools_es_fise.quackle_alphabet"},
    "zyzzyva": {"lextools-es-fise.txt"},
}


def bundle_of(home: Path, edition: str, engine: str, out: Path) -> Path:
    result = run("export", edition, "--for", engine, "-o", out, "--lexicons", home)
    assert result.exit_code == 0, result.output
    assert "README.md" in result.stderr
    return out


def editions_json() -> dict[str, dict]:
    result = run("editions", "--json")
    return {e["name"]: e for e in json.loads(result.stdout)}


@pytest.mark.parametrize("engine", sorted(BUNDLE_FILES))
def test_a_bundle_holds_what_its_engine_loads_named_as_it_looks(
    engine: str, lexicon_home: Path, tmp_path: Path
) -> None:
    out = bundle_of(lexicon_home, "es-fise", engine, tmp_path / engine)
    files = {str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()}
    assert files == BUNDLE_FILES[engine] | {"README.md", "bundle.json"}
    info = json.loads((out / "bundle.json").read_text("utf-8"))
    assert info["engine"] == engine and info["edition"] == "es-fise"
    for f in info["files"]:
        assert hashlib.sha256((out / f["name"]).read_bytes()).hexdigest() == f["sha256"]
    readme = (out / "README.md").read_text("utf-8")
    for name in BUNDLE_FILES[engine]:
        assert f"`{name}`" in readme  # the README says what each file is
    if info["letter_distribution"] and engine in ("magpie", "macondo"):
        assert info["lexicon_name"] in readme and info["letter_distribution"] in readme


def test_the_magpie_readme_gives_the_command_with_its_settings(lexicon_home: Path, tmp_path: Path) -> None:
    out = bundle_of(lexicon_home, "es-fise", "magpie", tmp_path / "m")
    readme = (out / "README.md").read_text("utf-8")
    settings = "set -lex FRA_LEXTOOLS_ES_FISE -ld french_lextools_es_fise -wmp false -savesettings false"
    assert f"printf '{settings}\\nr AEILNRS\\ng\\n' | MAGPIE/bin/magpie set -mode sync" in readme
    assert "convert dawg2wordmap FRA_LEXTOOLS_ES_FISE french_lextools_es_fise" in readme  # the word map
    assert "createdata klv FRA_LEXTOOLS_ES_FISE french_lextools_es_fise" in readme  # every leave, zero
    assert "(error" in readme  # MAGPIE exits 0 after an error


@pytest.mark.parametrize("edition", ["es-fise", "es-na103", "en", "fr"])
def test_the_magpie_distribution_is_the_editions_in_kwg_numbering(
    edition: str, lexicon_home: Path, tmp_path: Path
) -> None:
    """Row n is tile n of the KWG; counts and scores as `lextools editions` lists them; an unused
    number is a row of no tile; the blank first."""
    out = bundle_of(lexicon_home, edition, "magpie", tmp_path / edition)
    info = json.loads((out / "bundle.json").read_text("utf-8"))
    csv_rows = (out / "data" / "letterdistributions" / f"{info['letter_distribution']}.csv").read_text("utf-8")
    rows = [line.split(",") for line in csv_rows.splitlines()]
    ed = editions_json()[edition]
    labels = kwg.kwg_alphabet(load_lexicon(edition, lexicon_home).edition).labels
    assert len(rows) == len(labels)
    assert rows[0] == ["?", "?", str(ed["blanks"]), "0", "0"]
    tiles = {t["label"]: t for t in ed["tiles"]}
    for number, (row, label) in enumerate(zip(rows[1:], labels[1:], strict=True), start=1):
        if label is None:
            assert row[:4] == [f"_{number}", f"_{number}", "0", "0"]
        else:
            assert row == [
                label,
                label.lower(),
                str(tiles[label]["count"]),
                str(tiles[label]["value"]),
                str(int(label in "AEIOU")),
            ]
    assert sorted(r[0] for r in rows if not r[0].startswith("_")) == sorted([*tiles, "?"])


@pytest.mark.parametrize("engine", ["magpie", "macondo", "wolges"])
def test_the_bundles_kwg_is_the_gaddag_export_and_the_leaves_are_empty(
    engine: str, lexicon_home: Path, tmp_path: Path
) -> None:
    out = bundle_of(lexicon_home, "es-na103", engine, tmp_path / engine)
    exported = export(lexicon_home, "es-na103", "kwg-gaddag", tmp_path / "g.kwg").read_bytes()
    (kwg_file,) = out.rglob("*.kwg")
    (klv_file,) = out.rglob("*.klv2")
    assert kwg_file.read_bytes() == exported
    assert kwg_file.stem == klv_file.stem  # the engines look for the leaves under the lexicon's name
    count, node, leaves = struct.unpack("<III", klv_file.read_bytes())
    assert (count, node, leaves) == (1, kwg.IS_END, 0)  # a KWG of one empty node, no leave value
    result = run("verify", kwg_file, "--edition", "es-na103", "--format", "kwg-gaddag", "--lexicons", lexicon_home)
    assert result.exit_code == 0, result.output


def test_the_board_layout_is_the_standard_board(lexicon_home: Path, tmp_path: Path) -> None:
    out = bundle_of(lexicon_home, "en", "magpie", tmp_path / "m")
    start, *board = (out / "data" / "layouts" / "standard15.txt").read_text("ascii").splitlines()
    assert start == "7,7" and len(board) == 15 and all(len(row) == 15 for row in board)
    assert board == board[::-1] and all(row == row[::-1] for row in board)  # symmetric
    assert [row[i] for i, row in enumerate(board)] == list("=----\"'-'\"----=")  # the diagonal
    assert sum(row.count("=") for row in board) == 8 and sum(row.count("'") for row in board) == 24


def test_wolges_quackle_and_zyzzyva_get_their_alphabets_and_notations(lexicon_home: Path, tmp_path: Path) -> None:
    ed = editions_json()["es-fise"]
    wolges = bundle_of(lexicon_home, "es-fise", "wolges", tmp_path / "w")
    rows = [line.split("\t") for line in (wolges / "es-fise.alphabet.txt").read_text("utf-8").splitlines()]
    assert rows[0] == ["?", "?", "2", "0", "0", "0", "0"]
    assert rows[4] == ["[CH]", "[ch]", "1", "5", "0", "1 1", "0"]  # tile 4, its digit an alias, as wolges' Spanish
    quackle = bundle_of(lexicon_home, "es-fise", "quackle", tmp_path / "q")
    lines = (quackle / "lextools_es_fise.quackle_alphabet").read_text("utf-8").splitlines()
    letters = {f[0]: (int(f[2]), int(f[3])) for f in (line.split("\t") for line in lines[1:-1])}
    assert letters == {
        (f"[{t['label']}]" if len(t["label"]) > 1 else t["label"]): (t["value"], t["count"]) for t in ed["tiles"]
    }
    assert lines[-1] == "blank\t0\t2"
    words = (quackle / "lextools_es_fise.txt").read_text("utf-8").split()
    assert any("[CH]" in w for w in words) and not any(w.startswith("1") for w in words)
    zyzzyva = bundle_of(lexicon_home, "es-fise", "zyzzyva", tmp_path / "z")
    text = (zyzzyva / "lextools-es-fise.txt").read_text("utf-8")
    assert "[" not in text and any(w.startswith("1") for w in text.split())  # CH as 1
    assert "1 = CH" in (zyzzyva / "README.md").read_text("utf-8")


def test_an_edition_without_counts_has_no_bundle_that_needs_them(
    lexicon_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code = run_main(
        monkeypatch, "export", "es-mattel2021", "--for", "magpie", "-o", tmp_path / "m", "--lexicons", lexicon_home
    )
    assert code == 2 and not (tmp_path / "m").exists()
    bundle_of(lexicon_home, "es-mattel2021", "zyzzyva", tmp_path / "z")


@pytest.mark.parametrize(
    "args",
    [
        ["--for", "magpie"],  # no directory
        ["--for", "magpie", "-o", "-"],
        ["--for", "magpie", "--format", "kwg", "-o", "DIR"],  # --for chooses the formats
        ["--for", "scrabble3d", "-o", "DIR"],
    ],
)
def test_export_for_refuses(
    args: list[str], lexicon_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    args = [str(tmp_path / "d") if a == "DIR" else a for a in args]
    assert run_main(monkeypatch, "export", "es-fise", *args, "--lexicons", lexicon_home) == 2
    assert not (tmp_path / "d").exists()


def test_a_dawg_only_kwg_warns_that_move_generators_need_the_gaddag(lexicon_home: Path, tmp_path: Path) -> None:
    result = run("export", "en", "--format", "kwg", "-o", tmp_path / "en.kwg", "--lexicons", lexicon_home)
    assert result.exit_code == 0 and "need the GADDAG" in result.stderr and "--gaddag" in result.stderr
    result = run("export", "en", "--format", "kwg", "--gaddag", "-o", tmp_path / "g.kwg", "--lexicons", lexicon_home)
    assert result.exit_code == 0 and "warning" not in result.stderr
    help_text = " ".join(run("export", "--help").stdout.split())
    assert "which move generators need" in help_text and "--for" in help_text
