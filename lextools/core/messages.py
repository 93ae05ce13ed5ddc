"""Messages people read — why a word cannot be played, what went wrong — in English, Spanish and French.

One catalogue, ``messages.json`` beside this module, keyed by message code: ``{"code": {"en": ...,
"es": ..., "fr": ...}}`` with ``{placeholders}``. The library's :class:`~lextools.core.errors.SpellingError`
carries a :class:`Message` (its English text is the ``reason`` the CLI prints); the service renders
the same message in the language the client asks for.

A placeholder's value may itself be a :class:`Message` ("a hyphen", "un guion"): it is rendered in
the same language.

Plurals: ``{count|word|words}`` is the singular or the plural form by the number ``count`` and the
rule of the language (French counts 0 and 1 as singular; English and Spanish only 1), so
``"{count} {count|word is|words are}"`` reads "1 word is", "2 words are". The pages' strings
(service/pages/static/strings.json) use the same notation.
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

from lextools.core.package_data import read_text

#: The languages every message is written in; the first is the fallback.
LANGUAGES = ("en", "es", "fr")

#: ``{name|singular|plural}``: a form chosen by the number ``name`` (see the module's docstring).
PLURAL = re.compile(r"\{(\w+)\|([^{}|]*)\|([^{}|]*)\}")


def singular(lang: str, n: Any) -> bool:
    """Whether ``n`` takes the singular in ``lang`` (CLDR's "one": French 0 and 1, else only 1)."""
    try:
        number = abs(int(n))
    except (TypeError, ValueError):
        return False
    return number in (0, 1) if lang == "fr" else number == 1


def plural_forms(template: str, values: dict[str, Any], lang: str) -> str:
    """``template`` with each ``{name|one|other}`` replaced by the form the number ``values[name]`` takes."""
    return PLURAL.sub(lambda m: m[2] if singular(lang, values.get(m[1])) else m[3], template)


@cache
def catalogue() -> dict[str, dict[str, str]]:
    table: dict[str, dict[str, str]] = json.loads(read_text("messages.json"))
    return table


class Message:
    """A message code and its values, rendered in a language on demand. Immutable, compared by value,
    as a frozen dataclass would be; written out because a dataclass takes a millisecond to make when
    its module is imported, and every look-up imports this one (issue 37)."""

    code: str
    values: dict[str, Any]

    def __init__(self, code: str, values: dict[str, Any] | None = None) -> None:
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "values", {} if values is None else values)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r} of a Message")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r} of a Message")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Message) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.code, self.values) == (other.code, other.values)

    __hash__ = None  # type: ignore[assignment]  # its values are a dict, as a frozen dataclass's would be

    def __repr__(self) -> str:
        return f"Message(code={self.code!r}, values={self.values!r})"

    def text(self, lang: str = "en") -> str:
        texts = catalogue()[self.code]
        language = lang if texts.get(lang) else LANGUAGES[0]
        template = plural_forms(texts[language], self.values, language)
        return template.format(**{k: v.text(lang) if isinstance(v, Message) else v for k, v in self.values.items()})

    def __str__(self) -> str:
        return self.text()


def message(code: str, **values: Any) -> Message:
    return Message(code, values)


def language_of_tag(tag: str) -> str | None:
    """The language of ours a language tag names by its primary subtag (BCP 47: ``es``, ``es-ES``,
    ``FR_ca``), else None (``xx``, ``esp``, ``frr``)."""
    base = tag.strip().lower().replace("_", "-").partition("-")[0]
    return base if base in LANGUAGES else None


def choose_language(asked: str | None, accept_language: str | None, default: str) -> str:
    """``lang`` when it is one of ours, else the first of ours in ``Accept-Language`` (RFC 9110 §12.5.4,
    by quality), else ``default`` (an edition's language), else English."""
    if asked and (ours := language_of_tag(asked)):
        return ours
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept_language or "").split(",")[:20]):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        base = language_of_tag(tag)
        if base and quality > 0:
            ranked.append((-quality, i, base))
    if ranked:
        return min(ranked)[2]
    return default if default in LANGUAGES else LANGUAGES[0]
