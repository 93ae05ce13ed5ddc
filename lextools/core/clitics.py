"""Spanish enclitic pronouns (DAME = DA + ME): which verb form a word is, with pronouns attached.

The build tags such forms (:mod:`lextools.builder.hunspell_source`), and explanations name the form
and the pronouns (:mod:`lextools.features.explain`); the FISE rules do not admit them as words.
"""

from __future__ import annotations

from collections.abc import Callable

#: Object and reflexive pronouns that attach to Spanish verbs, longest combinations first.
CLITICS = sorted(
    {a + b for a in ("", "me", "te", "se", "nos", "os") for b in ("lo", "la", "los", "las", "le", "les")}
    | {"me", "te", "se", "nos", "os", "lo", "la", "los", "las", "le", "les"},
    key=len,
    reverse=True,
)


def clitic_split(plain: str, host: Callable[[str], bool], is_form: Callable[[str], bool]) -> tuple[str, str] | None:
    """(verb form, clitics) when ``plain`` (lower case, no accents) is a form ``host`` accepts plus clitics.

    The spelling rules of the FISE examples: AMAOS is AMAD + OS (the D drops) and IROS is IR + OS;
    AMÉMONOS is AMEMOS + NOS (the S drops); no other host ends in S (AMASTE is a preterite, ABOLIDOS
    a participle); and -SE after a stem that also makes -RA is the imperfect subjunctive (FUESE).
    """
    for clitic in CLITICS:
        if not (plain.endswith(clitic) and len(plain) > len(clitic) + 1):
            continue
        stem = plain[: -len(clitic)]
        if clitic == "se" and is_form(stem + "ra"):
            continue
        if clitic == "os":
            bases: tuple[str, ...] = (stem + "d",) + ((stem,) if stem.endswith("r") else ())
        elif clitic.startswith("nos"):
            bases = (stem + "s",) + (() if stem.endswith("s") else (stem,))
        else:
            bases = () if stem.endswith("s") else (stem,)
        for base in bases:
            if host(base):
                return base, clitic
    return None
