"""Word sources: the descriptors in ``sources/`` (what a list is, its licence and its checksums).

The build reads a source's words (:mod:`lextools.builder.read`); explanations read a review file
the lexicon names (:mod:`lextools.core.reviewed`).

One TOML file per source, e.g. ``sources/rla-es.toml``::

    name = "rla-es"
    title = "Spanish hunspell dictionary (RLA-ES), es_ES"
    language = "es"
    version = "2.8"
    licence = "GPL-3.0-or-later OR LGPL-3.0-or-later OR MPL-1.1"
    origin = "where it comes from"
    obtain = "how a fresh machine gets it: vendored in sources/vendor/..., or a package"
    why = "why we use it, and what it is weak at"
    format = "hunspell"                       # or "wordlist", "reviewed" (lextools.builder.review), "lemma-table"
    [files]                                   # paths relative to sources/, or absolute
    dic = "vendor/rla-es/es_ES.dic.gz"
    aff = "vendor/rla-es/es_ES.aff"
    [sha256]                                  # checked before every build
    dic = "…"
    aff = "…"
    [options]                                 # format-specific facts the filters use
    enclitic_flags = ["…"]                    # (hunspell; see lextools.builder.hunspell_source)
    list_tags = {rare-british = ["british-words.80.gz"]}   # (wordlist) tags for the words of some files

The descriptor is recorded (without ``options``) in each built lexicon's metadata, so a lexicon
says which files, under which licence, it was made from.
"""

from __future__ import annotations

import hashlib
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from lextools.core.errors import SourceError, path_text
from lextools.core.inputs import read_input


def project_dir(name: str) -> Path:
    """``sources/`` or ``build/``: packaged in a wheel, else beside the package in a checkout."""
    packaged = resources.files("lextools") / "_project" / name
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parents[2] / name


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


#: The largest descriptor or recipe read (ours are a few KB).
MAX_TOML_BYTES = 2**20


def read_toml(path: Path) -> dict[str, Any]:
    """A descriptor or recipe; a syntax error becomes a :class:`SourceError` naming the file."""
    try:  # bounded: ``build --recipe FILE`` reads a file a person names
        return tomllib.loads(read_input(path, MAX_TOML_BYTES, gz=False).decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise SourceError(f"{path_text(path)}: {e}") from None


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
            raise SourceError(f"source {source.name}: {path_text(path)} is missing ({source.info.get('obtain', '')})")
        try:
            digest = hashlib.sha256(read_input(path, gz=False)).hexdigest()
        except OSError as e:
            raise SourceError(f"source {source.name}: cannot read {path_text(path)}: {e.strerror or e}") from None
        if digest != source.sha256.get(part):
            raise SourceError(
                f"source {source.name}: {path_text(path.name)} has sha256 {digest[:16]}…, the descriptor says "
                f"{str(source.sha256.get(part))[:16]}…; check the file, then update sources/{source.name}.toml"
            )
