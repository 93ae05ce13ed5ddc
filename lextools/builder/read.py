"""Reading a source's words, by its format: word lists here, hunspell dictionaries
(:mod:`lextools.builder.hunspell_source`), reviews (:mod:`lextools.builder.review`), lemma tables
(:mod:`lextools.builder.lemma_table`) and FISE's lemma lists (:mod:`lextools.builder.fise_source`). The
descriptors are :mod:`lextools.core.sources`."""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Iterator
from fnmatch import fnmatch
from pathlib import Path

from lextools.builder.filters import SourceWord, words_of
from lextools.builder.fise_source import FORMAT as FISE_FORMAT
from lextools.builder.fise_source import read_fise
from lextools.builder.hunspell_source import dictionary_headwords, plain_words, read_hunspell
from lextools.builder.lemma_table import lemmas, read_lemma_table
from lextools.builder.review import review_words
from lextools.core.errors import SourceError
from lextools.core.inputs import read_input
from lextools.core.sources import Source, load_source, verify
from lextools.core.wordlist import read_words


def read_source(source: Source) -> Iterator[SourceWord]:
    """The source's words with their provenance; the files are verified first."""
    verify(source)
    if source.format == "wordlist":
        # A list that writes common words in lower case (SCOWL's "words" categories) marks OK and pH
        # as acronyms by their capitals; a list in capitals (a user's) cannot.
        tags = frozenset({"lowercase-source"}) if source.options.get("lowercase_source") else frozenset()
        for path in _list_files(source):
            file_tags = tags | _list_tags(source, path.name)
            yield from words_of(read_words(path), source.name, file_tags)
    elif source.format == "hunspell":
        yield from read_hunspell(source, headwords_of)
    elif source.format == "reviewed":
        yield from review_words(source)
    elif source.format == "lemma-table":
        yield from read_lemma_table(source, headwords_of)
    elif source.format == FISE_FORMAT:
        yield from read_fise(source)
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
    than the word itself, and expanding a dictionary only to confirm would double a build's reading.

    Read once per build for the same files (:func:`headwords_kept`; verified each time, kept by
    their checksums): a Spanish recipe asks RLA-ES's headwords twice and wspanish's twice. The set
    is then shared: not to be changed.
    """
    if not _KEPT or source.format not in _KEPT_FORMATS:
        return _read_headwords(source)
    kept = _KEPT[-1]
    key = json.dumps([source.format, source.files, source.sha256, source.options], sort_keys=True, default=str)
    words = kept.get(key)
    if words is None:
        words = kept[key] = _read_headwords(source)
    else:
        verify(source)  # the files are still those read
    return words


@contextlib.contextmanager
def headwords_kept() -> Iterator[None]:
    """Keep what :func:`headwords` reads until the block ends (a build reading its sources), then
    let it go: the headwords of four Spanish sources are tens of MB."""
    _KEPT.append({})
    try:
        yield
    finally:
        _KEPT.pop()


#: The formats whose headwords the files, their checksums and the descriptor's options decide.
_KEPT_FORMATS = frozenset({"hunspell", "lemma-table", "wordlist"})
#: :func:`headwords` read in the blocks of :func:`headwords_kept`, by the source's format, files,
#: checksums and options (the innermost block last).
_KEPT: list[dict[str, set[str]]] = []


def _read_headwords(source: Source) -> set[str]:
    """:func:`headwords` read from the files."""
    if source.format == "hunspell":
        verify(source)
        return dictionary_headwords(source)
    if source.format == "lemma-table":
        verify(source)
        return lemmas(source)
    return set(plain_words([w.raw for w in read_source(source)]))  # read_source verifies the files


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
    for line in read_input(source.files["manifest"], gz=False).decode("utf-8").splitlines():
        parts = line.split()
        if len(parts) < 2 or line.startswith("#") or not (folder / parts[1]).is_file():
            continue
        path = folder / parts[1]
        if hashlib.sha256(read_input(path, gz=False)).hexdigest() != parts[0]:
            raise SourceError(f"source {source.name}: {path} does not match its manifest checksum")
        paths.append(path)
    if not paths:
        raise SourceError(f"source {source.name}: the manifest names no list present in {folder}")
    return paths
