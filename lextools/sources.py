"""Word sources: descriptors in ``sources/`` and the readers that turn them into source words.

One TOML file per source, e.g. ``sources/rla-es.toml``::

    name = "rla-es"
    title = "Spanish hunspell dictionary (RLA-ES), es_ES"
    language = "es"
    version = "2.8"
    licence = "GPL-3.0-or-later OR LGPL-3.0-or-later OR MPL-1.1"
    origin = "where it comes from"
    obtain = "how a fresh machine gets it: vendored in sources/vendor/..., or a package"
    why = "why we use it, and what it is weak at"
    format = "hunspell"                       # or "wordlist", "reviewed" (lextools.review), "lemma-table"
    [files]                                   # paths relative to sources/, or absolute
    dic = "vendor/rla-es/es_ES.dic.gz"
    aff = "vendor/rla-es/es_ES.aff"
    [sha256]                                  # checked before every build
    dic = "…"
    aff = "…"
    [options]                                 # format-specific facts the filters use
    enclitic_flags = ["…"]                    # (hunspell; see lextools.hunspell_source)
    list_tags = {rare-british = ["british-words.80.gz"]}   # (wordlist) tags for the words of some files

The descriptor is recorded (without ``options``) in each built lexicon's metadata, so a lexicon
says which files, under which licence, it was made from.
"""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from fnmatch import fnmatch
from importlib import resources
from pathlib import Path
from typing import Any

from lextools.errors import SourceError
from lextools.filters import SourceWord
from lextools.wordlist import read_words


def project_dir(name: str) -> Path:
    """``sources/`` or ``build/``: packaged in a wheel, else beside the package in a checkout."""
    packaged = resources.files("lextools") / "_project" / name
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parent.parent / name


@dataclass(frozen=True)
class Source:
    name: str
    format: str
    files: dict[str, Path]
    sha256: dict[str, str]
    info: dict[str, Any]  # licence, origin, version, ... as written in the descriptor
    options: dict[str, Any] = field(default_factory=dict)

    def describe(self) -> dict[str, Any]:
        """What a lexicon's metadata records about this source."""
        return {
            **self.info,
            "name": self.name,
            "format": self.format,
            "files": {k: p.name for k, p in self.files.items()},
            "sha256": dict(self.sha256),
        }


def source_names() -> list[str]:
    return sorted(p.stem for p in project_dir("sources").glob("*.toml"))


def read_toml(path: Path) -> dict[str, Any]:
    """A descriptor or recipe; a syntax error becomes a :class:`SourceError` naming the file."""
    try:
        return tomllib.loads(path.read_text("utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise SourceError(f"{path}: {e}") from None


def load_source(name: str) -> Source:
    path = project_dir("sources") / f"{name}.toml"
    if not path.is_file():
        raise SourceError(f"unknown source {name!r}; known: {', '.join(source_names()) or 'none'}")
    data = read_toml(path)
    for key in ("name", "format", "files", "sha256", "licence", "origin"):
        if key not in data:
            raise SourceError(f"{path}: missing {key!r}")
    base = path.parent
    files = {k: (base / v if not Path(v).is_absolute() else Path(v)) for k, v in data["files"].items()}
    info = {k: v for k, v in data.items() if k not in ("files", "sha256", "options", "format", "name")}
    return Source(data["name"], data["format"], files, dict(data["sha256"]), info, data.get("options", {}))


def verify(source: Source) -> None:
    """Check every file exists and matches its recorded sha256."""
    for part, path in source.files.items():
        if not path.is_file():
            raise SourceError(f"source {source.name}: {path} is missing ({source.info.get('obtain', '')})")
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if digest != source.sha256.get(part):
            raise SourceError(
                f"source {source.name}: {path.name} has sha256 {digest[:16]}…, the descriptor says "
                f"{str(source.sha256.get(part))[:16]}…; check the file, then update sources/{source.name}.toml"
            )


def read_source(source: Source) -> Iterator[SourceWord]:
    """The source's words with their provenance; the files are verified first."""
    verify(source)
    if source.format == "wordlist":
        # A list that writes common words in lower case (SCOWL's "words" categories) marks OK and pH
        # as acronyms by their capitals; a list in capitals (a user's) cannot.
        tags = frozenset({"lowercase-source"}) if source.options.get("lowercase_source") else frozenset()
        for path in _list_files(source):
            file_tags = tags | _list_tags(source, path.name)
            for w in read_words(path):
                yield SourceWord(w, source=source.name, tags=file_tags)
    elif source.format == "hunspell":
        from lextools.hunspell_source import read_hunspell

        yield from read_hunspell(source)
    elif source.format == "reviewed":
        from lextools.review import review_words

        yield from review_words(source)
    elif source.format == "lemma-table":
        from lextools.lemma_table import read_lemma_table

        yield from read_lemma_table(source)
    else:
        raise SourceError(f"source {source.name}: unknown format {source.format!r}")


def headwords_of(names: str | list[str] | None) -> set[str]:
    """The :func:`headwords` of the sources named (one name or a list), together."""
    words: set[str] = set()
    for name in [names] if isinstance(names, str) else names or []:
        words |= headwords(load_source(name))
    return words


def headwords(source: Source) -> set[str]:
    """What a source confirms as another's evidence (lower case, no accents): a dictionary's headwords,
    a table's lemmas, a list's words. Headwords, not forms: a plural two sources agree on says less
    than the word itself, and expanding a dictionary only to confirm would double a build's reading."""
    if source.format == "hunspell":
        from lextools.hunspell_source import dictionary_headwords

        verify(source)
        return dictionary_headwords(source)
    if source.format == "lemma-table":
        from lextools.lemma_table import lemmas

        verify(source)
        return lemmas(source)
    from lextools.hunspell_source import plain_word

    return {plain_word(w.raw) for w in read_source(source)}  # read_source verifies the files


def _list_tags(source: Source, name: str) -> frozenset[str]:
    """The tags ``options.list_tags`` gives the words of one list: ``{tag = ["glob", …]}`` on file names.

    SCOWL files its words by spelling and size (``british-words.80.gz``), so a tag says which lists a
    word came from and a rule of the recipe judges it; a word that another list also gives stays.
    """
    return frozenset(
        tag for tag, globs in source.options.get("list_tags", {}).items() if any(fnmatch(name, g) for g in globs)
    )


def _list_files(source: Source) -> list[Path]:
    """The lists of a ``wordlist`` source: its files, or those a checksummed manifest names.

    A manifest is a ``sha256sum`` file (``<sha256>  <name>`` per line, ``#`` comments); its own
    checksum is in the descriptor, and each list it names in ``options.list_dir`` is checked.
    """
    if "manifest" not in source.files:
        return list(source.files.values())
    folder = source.files["manifest"].parent / source.options.get("list_dir", ".")
    paths = []
    for line in source.files["manifest"].read_text("utf-8").splitlines():
        parts = line.split()
        if len(parts) < 2 or line.startswith("#") or not (folder / parts[1]).is_file():
            continue
        path = folder / parts[1]
        if hashlib.sha256(path.read_bytes()).hexdigest() != parts[0]:
            raise SourceError(f"source {source.name}: {path} does not match its manifest checksum")
        paths.append(path)
    if not paths:
        raise SourceError(f"source {source.name}: the manifest names no list present in {folder}")
    return paths
