"""The FISE lexicon rules as data (``build/fise-rules.toml``): which forms of a listed lemma count.

The rules file restates the "Reglamento de léxico FISE 2016" (§17 verbs, §18 plurals) for
:mod:`lextools.builder.fise_forms`: what each class code of a verb line gives (both infinitives, the
participle's forms, the imperatives it lacks), the impersonal forms, the defective texts of the
lists, the verbs the regulation settles one by one, the notes of a verb revision by family, and the
plurals (the named exceptions, then the rule of each ending). Each rule carries its section, which
the build writes into each form's tag and :mod:`lextools.features.explain` cites.

The file is found like the recipes (``build/`` beside the package, or packaged in a wheel); a file
that does not say what is needed is a :class:`~lextools.core.errors.SourceError` naming it.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from lextools.builder.conjugate import CELLS, GROUPS, PERSONS, TENSES
from lextools.core.errors import SourceError
from lextools.core.sources import project_dir, read_toml

RULES_FILE = "fise-rules.toml"
#: The forms whose ending starts with -i (EMBAÍR): infinitive, gerund, participle, NOSOTROS and VOSOTROS
#: of the present, the imperfect, the preterite, the future, the conditional, the subjunctives in -ra,
#: -se and -re, the VOSOTROS imperative and the voseo.
I_ENDINGS = frozenset(
    {"inf", "ger", "part", "ip4", "ip5", "m5", "vp2", "vm2", *GROUPS["pret"]}
    | {f"{t}{p}" for t in ("ii", "if", "ic", "sr", "ss", "sf") for p in PERSONS}
)
#: Names of groups of cells a rule may use besides the cells themselves.
CELL_GROUPS: dict[str, frozenset[str]] = {
    "all": frozenset(CELLS),
    "third": frozenset(GROUPS["third"]),
    "third-singular": frozenset(f"{t}3" for t in TENSES),
    "third-plural": frozenset(f"{t}6" for t in TENSES),
    "i-endings": I_ENDINGS,
}
SE_INFINITIVE = ("always", "written", "never")
PLURAL_RULES = ("+s", "+es", "+s +es", "+es +s", "none", "oxytone +es", "n", "z")


@dataclass(frozen=True)
class VerbClass:
    """What a class code (T) of a verb line gives."""

    code: str
    name: str
    section: str
    infinitive_only: bool
    se_infinitive: str  # always, written (when the line writes -rse), never
    se_section: str
    four_participles: bool
    no_cells: frozenset[str]
    no_cells_section: str


@dataclass(frozen=True)
class Defective:
    cells: frozenset[str]
    drop: str = ""  # "z-stem": the forms whose stem is written with z


@dataclass(frozen=True)
class NoteRule:
    pattern: re.Pattern[str]
    action: str


@dataclass(frozen=True)
class Rules:
    regulation: str
    infinitive_only_models: frozenset[str]
    infinitive_only_section: str
    classes: dict[str, VerbClass]
    impersonal: frozenset[str]
    impersonal_section: str
    defective: dict[str, Defective]  # by the text in lower case, single spaces, no final stop
    settled_section: str
    not_counted: frozenset[str]
    settled_infinitive_only: frozenset[str]
    settled_cells: dict[str, frozenset[str]]
    settled_added: dict[str, tuple[str, ...]]
    settled_model: dict[str, str]
    notes: tuple[NoteRule, ...]
    #: word → (kind, plurals): kind is invariable, +s, +es, both, by-rule, special, y-es, y-is, y-both
    named: dict[str, tuple[str, tuple[str, ...]]]
    named_section: str
    endings: dict[str, str]
    endings_section: str

    def note_action(self, note: str) -> tuple[str, dict[str, str]] | None:
        """The action of a revision note and what it names (forms, a model verb…), or None if not understood."""
        text = " ".join(note.lower().split()).replace("“", '"').replace("”", '"').rstrip(".")
        for rule in self.notes:
            m = rule.pattern.search(text)
            if m:
                return rule.action, {k: v for k, v in m.groupdict().items() if v}
        return None


def defective_key(text: str) -> str:
    return " ".join(text.lower().split()).strip(" .;:").replace("sólo", "solo")


def cells_named(names: list[str], where: str) -> frozenset[str]:
    cells: set[str] = set()
    for name in names:
        if name in CELL_GROUPS:
            cells |= CELL_GROUPS[name]
        elif name in CELLS:
            cells.add(name)
        else:
            raise SourceError(f"{where}: unknown cell or group of cells {name!r}")
    return frozenset(cells)


@functools.cache
def rules() -> Rules:
    """The rules of ``build/fise-rules.toml``, read once."""
    path = project_dir("build") / RULES_FILE
    if not path.is_file():
        raise SourceError(f"{path}: the FISE lexicon rules file is missing")
    data = read_toml(path)
    try:
        return _rules(data, str(path))
    except (KeyError, TypeError, ValueError, re.error) as e:
        raise SourceError(f"{path}: not a rules file lextools can read ({type(e).__name__}: {e})") from None


def _rules(data: dict[str, Any], where: str) -> Rules:
    verbs, plurals = data["verbs"], data["plurals"]
    settled = verbs["settled"]
    return Rules(
        regulation=data["regulation"],
        infinitive_only_models=frozenset(verbs["infinitive_only_models"]),
        infinitive_only_section=verbs["infinitive_only_section"],
        classes={code: _verb_class(code, c, where) for code, c in verbs["classes"].items()},
        impersonal=cells_named(verbs["impersonal"]["cells"], where),
        impersonal_section=verbs["impersonal"]["section"],
        defective={
            defective_key(d["text"]): Defective(cells_named(d["cells"], where), d.get("drop", ""))
            for d in verbs["defective"]
        },
        settled_section=settled["section"],
        not_counted=frozenset(settled["forms_not_counted"]),
        settled_infinitive_only=frozenset(settled["infinitive_only"]),
        settled_cells={verb: cells_named(c, where) for verb, c in settled["cells"].items()},
        settled_added={verb: tuple(f) for verb, f in settled["added"].items()},
        settled_model=dict(settled["model"]),
        notes=tuple(NoteRule(re.compile(n["pattern"]), n["action"]) for n in verbs["notes"]),
        named=_named(plurals["named"]),
        named_section=plurals["named"]["section"],
        endings=_endings(plurals["endings"], where),
        endings_section=plurals["section"],
    )


def _verb_class(code: str, c: dict[str, Any], where: str) -> VerbClass:
    if c["se_infinitive"] not in SE_INFINITIVE:
        raise SourceError(f"{where}: class {code}: se_infinitive is one of {', '.join(SE_INFINITIVE)}")
    return VerbClass(
        code,
        c["name"],
        c["section"],
        bool(c.get("infinitive_only", False)),
        c["se_infinitive"],
        c.get("se_section", c["section"]),
        c["participle"] == "all",
        cells_named(c.get("no_cells", []), where),
        c.get("no_cells_section", c["section"]),
    )


def _named(named: dict[str, Any]) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Every named word's plural: the lists by kind, then the plurals written out (which win)."""
    out: dict[str, tuple[str, tuple[str, ...]]] = {}
    for kind, key in (("invariable", "invariable"), ("+s", "plus_s"), ("+es", "plus_es"), ("both", "both")):
        out.update((w, (kind, ())) for w in named[key])
    out.update((w, ("by-rule", ())) for w in named["by_rule"])
    out.update((w, ("y-es", ())) for w in named["y_es"]["words"])
    out.update((w, ("y-is", (p,))) for w, p in named["y_is"].items())
    out.update((w, ("y-both", (p,))) for w, p in named["y_both"].items())
    out.update((w, ("special", tuple(p))) for w, p in named["special"].items())
    return out


def _endings(endings: dict[str, str], where: str) -> dict[str, str]:
    for ending, rule in endings.items():
        if rule not in PLURAL_RULES:
            raise SourceError(f"{where}: plurals.endings.{ending}: unknown rule {rule!r}")
    return dict(endings)
