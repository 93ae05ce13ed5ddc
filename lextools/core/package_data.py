"""The files shipped inside the package (editions, messages), read through :mod:`importlib.resources`.

Imported when first read, not with the library: ``importlib.resources`` brings ``tempfile``,
``zipfile`` and more with it, about a fifth of what importing the look-up path used to cost, and
only a process that reads package data needs it (issue 37).
"""

from __future__ import annotations

#: The package whose folder holds the data files.
PACKAGE = "lextools.core"


def read_text(*parts: str) -> str:
    """The UTF-8 text of the package file at ``parts`` (``"editions", "es-fise.json"``)."""
    from importlib import resources  # noqa: PLC0415  (package data: loaded when first read, see above)

    path = resources.files(PACKAGE)
    for part in parts:
        path = path / part
    return path.read_text(encoding="utf-8")


def names_in(folder: str, suffix: str) -> list[str]:
    """The names of the package files in ``folder`` that end with ``suffix``, the suffix removed, sorted."""
    from importlib import resources  # noqa: PLC0415  (package data: loaded when first read, see above)

    found = resources.files(PACKAGE) / folder
    return sorted(p.name.removesuffix(suffix) for p in found.iterdir() if p.name.endswith(suffix))
