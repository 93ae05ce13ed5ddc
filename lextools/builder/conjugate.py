"""A model-based Spanish conjugator: every simple form of a verb, from the model it is conjugated like.

The models are data (``conjugation_models.json``, read with :mod:`importlib.resources`), numbered per
conjugation as the FISE lemma lists number them: ``00`` the regular model, ``01``–``15`` (first),
``01``–``27`` (second), ``01``–``28`` (third) the irregular ones, each named by its model verb
(``contar``, ``agradecer``, ``pedir``…). A model says only how it differs from the regular
conjugation:

``stem``
    ``[cells, pattern, replacement]`` rules applied in order to the stem (the infinitive without
    -ar, -er, -ir) of the cells named: CONTAR → CUENT- in the stressed-stem cells. ``{C}`` in a
    pattern is one consonant (``gu`` and ``qu`` count as one). Cells are named below; ``boot``,
    ``yo``, ``weak``, ``third`` and ``pret`` name groups of them.
``pret``, ``pret_endings``
    a strong preterite: the pattern and replacement that make its stem (TENER → TUV-), and its
    endings (``strong``: -e, -iste, -o…; ``j``: -e, -iste, -o…, -eron).
``future``
    the pattern and replacement that make the future and conditional stem from the infinitive
    (TENER → TENDR-).
``forms``, ``alt``
    forms of the model verb itself that no rule makes (ESTOY, QUEPO), or made besides (YAZGO): a
    verb of the model takes them with its own beginning in place of the model verb's (CONTENER:
    CONTUVE, CONTÉN). A verb need not end like the model verb (``tail``): DESFACER is conjugated
    like HACER with DESF- for H- (DESFAGO, DESFECHO, DESFAZ), CONTRAHACER like REHACER with CONTRA-
    for RE- (CONTRAHÍCE) — the model's pattern, whatever the infinitive's ending.
``infinitives``
    ``[pattern, replacement]`` rules that make a verb's other infinitives from its own: PUDRIR also
    PODRIR, and PODRIR also PUDRIR (a verb listed as PODRIR is conjugated on PUDR-: PUDRO, PUDRÍA, its
    participle PODRIDO by a ``part`` rule of ``stem``).
``own``
    forms the model verb alone has, not the verbs conjugated like it (PLUGO, PLEGUE of PLACER, not
    of COMPLACER).
``only``
    the cells a defective model has (EMBAÍR: the forms whose ending starts with -i).
``plain``
    cells whose stem keeps its letters before any ending (AGRADEZC-O: no spelling adjustment).

Every other form follows the regular endings and the spelling rules (SACAR → SAQUE, VENCER → VENZO,
LEER → LEYÓ, LEÍMOS); the imperfect and future subjunctive come from the preterite (TUVIERON →
TUVIERA, TUVIESE, TUVIERE), the imperative of TÚ from the present (CUENTA). Voseo is the present and
the imperative only (CONTÁS, CONTÁ); no form carries a pronoun.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from dataclasses import dataclass
from importlib import resources
from typing import Any

from lextools.core.errors import SourceError

PERSONS = (1, 2, 3, 4, 5, 6)
#: The tenses of six persons: indicative present, imperfect, preterite, future, conditional;
#: subjunctive present, imperfect in -ra and -se, future.
TENSES = ("ip", "ii", "is", "if", "ic", "sp", "sr", "ss", "sf")
#: Every cell, in paradigm order: infinitive, gerund, participle (masculine singular), the tenses,
#: the imperative of TÚ and VOSOTROS, the voseo present and imperative.
CELLS = ("inf", "ger", "part", *(f"{t}{p}" for t in TENSES for p in PERSONS), "m2", "m5", "vp2", "vm2")
GROUPS = {
    "boot": ("ip1", "ip2", "ip3", "ip6", "sp1", "sp2", "sp3", "sp6"),  # the stem is stressed
    "yo": ("ip1", *(f"sp{p}" for p in PERSONS)),  # CAIGO, CAIGA…
    "weak": ("sp4", "sp5", "is3", "is6", "ger"),  # -ir verbs: PIDAMOS, PIDIÓ, PIDIERON, PIDIENDO
    "third": tuple(f"{t}{p}" for t in TENSES for p in (3, 6)),
    "pret": tuple(f"is{p}" for p in PERSONS),
    "sp": tuple(f"sp{p}" for p in PERSONS),
    "ip": tuple(f"ip{p}" for p in PERSONS),
}
GROUPS["every"] = tuple(c for c in CELLS if c != "inf")  # every form made on the stem (PODRIR: PUDRO… PODRIDO)
CONJUGATIONS = ("ar", "er", "ir")

_ENDINGS = {
    "ar": {
        "ip": "o as a amos áis an", "ii": "aba abas aba ábamos abais aban", "is": "é aste ó amos asteis aron",
        "sp": "e es e emos éis en", "ger": "ando", "part": "ado",
    },
    "er": {
        "ip": "o es e emos éis en", "ii": "ía ías ía íamos íais ían", "is": "í iste ió imos isteis ieron",
        "sp": "a as a amos áis an", "ger": "iendo", "part": "ido",
    },
    "ir": {
        "ip": "o es e imos ís en", "ii": "ía ías ía íamos íais ían", "is": "í iste ió imos isteis ieron",
        "sp": "a as a amos áis an", "ger": "iendo", "part": "ido",
    },
}  # fmt: skip
_PRET = {"strong": "e iste o imos isteis ieron", "j": "e iste o imos isteis eron"}
_FUTURE = "é ás á emos éis án"
_CONDITIONAL = "ía ías ía íamos íais ían"
_SUBJ = {"sr": "ra ras ra ramos rais ran", "ss": "se ses se semos seis sen", "sf": "re res re remos reis ren"}
_CONSONANT = "(?:gu|qu|[^aeiouáéíóúü])"
_ACUTE = str.maketrans("aeiou", "áéíóú")
_PLAIN = str.maketrans("áéíóú", "aeiou")
_STRONG = set("aeoáéó")
_VOWELS = set("aeiouáéíóúü")


@dataclass(frozen=True)
class Model:
    conjugation: str  # ar, er, ir
    code: str  # 00, 01…
    verb: str  # the model verb: amar, contar…
    data: dict[str, Any]

    @property
    def tail(self) -> str:
        return str(self.data.get("tail", self.verb))


@functools.cache
def models() -> dict[tuple[str, str], Model]:
    """Every model by (conjugation, code): ("ar", "01") is CONTAR."""
    raw = json.loads(resources.files("lextools.builder").joinpath("conjugation_models.json").read_text("utf-8"))
    return {
        (conj, code): Model(conj, code, entry["verb"], entry)
        for conj, by_code in raw.items()
        if conj in CONJUGATIONS
        for code, entry in by_code.items()
    }


def conjugation_of(infinitive: str) -> str:
    """ar, er or ir: the ending of the infinitive (OÍR, REÍR are -ir verbs)."""
    ending = infinitive[-2:].translate(_PLAIN)
    if ending not in CONJUGATIONS:
        raise SourceError(f"{infinitive!r} is not an infinitive (no -ar, -er, -ir)")
    return ending


def model_of(infinitive: str, code: str) -> Model:
    conj = conjugation_of(infinitive)
    found = models().get((conj, code))
    if found is None:
        raise SourceError(f"no conjugation model {code} for -{conj} verbs")
    return found


def conjugate(infinitive: str, code: str = "00", *, whole: bool = False) -> dict[str, list[str]]:
    """Every simple form of a verb by cell (:data:`CELLS`), under the model numbered ``code``; ``whole``:
    the cells a defective model lacks too (EMBAYA of EMBAÍR), for a caller that says why they do not count.

    >>> conjugate("contar", "01")["ip1"], conjugate("tener", "17")["is1"], conjugate("venir", "21")["m2"]
    (['cuento'], ['tuve'], ['ven'])
    """
    model = model_of(infinitive, code)
    return _Conjugation(infinitive, model).cells(whole=whole)


def model_cells(conjugation: str, code: str) -> frozenset[str]:
    """The cells a model has: every cell, or those of a defective model's ``only`` (EMBAÍR)."""
    found = models().get((conjugation, code))
    only = found.data.get("only") if found else None
    if only is None:
        return frozenset(CELLS)
    return frozenset(cell for name in only for cell in GROUPS.get(name, (name,)))


def forms(infinitive: str, code: str = "00") -> list[str]:
    """Every distinct form of :func:`conjugate`, in paradigm order."""
    return list(dict.fromkeys(f for cell in conjugate(infinitive, code).values() for f in cell))


class _Conjugation:
    def __init__(self, infinitive: str, model: Model) -> None:
        self.inf, self.model, self.data = infinitive, model, model.data
        self.conj = model.conjugation
        self.stem = infinitive[:-2]
        self.prefix = self._prefix()
        self.plain = self._cells_named(self.data.get("plain", []))
        self.rules = [
            (self._cells_named(c), re.compile(p.replace("{C}", _CONSONANT)), r) for c, p, r in self.data.get("stem", [])
        ]

    def _prefix(self) -> tuple[str, str] | None:
        """The model verb's beginning and the verb's own in its place: ("", "CON") for CONTENER
        (TENER), ("H", "DESF") for DESFACER (HACER), ("RE", "CONTRA") for CONTRAHACER (REHACER); None
        when they share no more than the conjugation's ending (COMER and SER)."""
        tail = self.model.tail
        if self.inf.endswith(tail):
            return "", self.inf[: -len(tail)]
        common = 0
        while common < min(len(tail), len(self.inf)) and tail[-1 - common] == self.inf[-1 - common]:
            common += 1
        return (tail[:-common], self.inf[:-common]) if common > 2 else None

    def _cells_named(self, names: list[str] | str) -> set[str]:
        names = names.split() if isinstance(names, str) else names
        return {cell for name in names for cell in GROUPS.get(name, (name,))}

    def stem_of(self, cell: str) -> str:
        stem = self.stem
        for cells, pattern, replacement in self.rules:
            if cell in cells:
                stem = pattern.sub(replacement, stem, count=1)
        return stem

    def regular(self, cell: str, ending: str) -> str:
        return join(self.stem_of(cell), ending, self.conj, spell=cell not in self.plain)

    def cells(self, *, whole: bool = False) -> dict[str, list[str]]:
        endings = _ENDINGS[self.conj]
        rules = self.data.get("infinitives", [])  # PUDRIR also PODRIR
        others = [re.sub(p, r, self.inf, count=1) for p, r in rules if re.search(p, self.inf)]
        out: dict[str, list[str]] = {"inf": list(dict.fromkeys([self.inf, *others]))}
        for tense in ("ip", "ii", "sp"):
            for p, ending in zip(PERSONS, endings[tense].split(), strict=True):
                out[f"{tense}{p}"] = [self.regular(f"{tense}{p}", ending)]
        self._preterite(out)
        self._override(out, ("ger", "part", *GROUPS["ip"], *GROUPS["sp"], *GROUPS["pret"]))
        out["ger"] = out.get("ger") or [self.regular("ger", endings["ger"])]
        out["part"] = out.get("part") or [self.regular("part", endings["part"])]
        for tense, ends in _SUBJ.items():  # from the preterite: TUVIERON → TUVIERA, TUVIESE, TUVIERE
            for p, ending in zip(PERSONS, ends.split(), strict=True):
                out[f"{tense}{p}"] = [_subjunctive(f[:-3], ending, p) for f in out["is6"]]
        futures = self._futures()
        for tense, ends in (("if", _FUTURE), ("ic", _CONDITIONAL)):
            for p, ending in zip(PERSONS, ends.split(), strict=True):
                out[f"{tense}{p}"] = [future + ending for future in futures]
        out["m2"] = list(out["ip3"])
        vowel = self.inf[-2]  # the stem as its rules make it (PODRIR: PUDRID, PUDRÍS)
        out["m5"] = [self.stem_of("m5") + vowel + "d"]
        vos = _unstress_monosyllable(self.stem_of("vp2") + vowel.translate(_ACUTE))
        out["vp2"], out["vm2"] = [vos + "s"], [vos]
        self._override(out, CELLS)
        if self.prefix == ("", ""):  # the model verb itself
            for cell, given in self.data.get("own", {}).items():
                out[cell] = list(dict.fromkeys(out.get(cell, []) + given))
        return {cell: out[cell] for cell in CELLS} if whole else self._defective(out)

    def _preterite(self, out: dict[str, list[str]]) -> None:
        strong = self.data.get("pret")
        if strong:
            stem = re.sub(strong[0], strong[1], self.stem, count=1)
            ends = _PRET[self.data.get("pret_endings", "strong")].split()
            for p, ending in zip(PERSONS, ends, strict=True):
                out[f"is{p}"] = [join(stem, ending, self.conj)]
            return
        for p, ending in zip(PERSONS, _ENDINGS[self.conj]["is"].split(), strict=True):
            out[f"is{p}"] = [self.regular(f"is{p}", ending)]

    def _futures(self) -> list[str]:
        """The future and conditional stems: the infinitive (OIR-), or as the model's rules make them
        (TENDR-; PREDECIR has two, PREDIR- and PREDECIR-)."""
        plain_inf = self.inf.translate(_PLAIN)
        rules = self.data.get("future") or [["$", ""]]
        return list(dict.fromkeys(re.sub(p, r, plain_inf, count=1) for p, r in rules))

    def _override(self, out: dict[str, list[str]], cells: tuple[str, ...]) -> None:
        """The model's own forms (``forms``, ``alt``) for these cells, with the verb's beginning."""
        for key, replace in (("forms", True), ("alt", False)):
            for cell, given in self.data.get(key, {}).items():
                if cell not in cells:
                    continue
                made = [self._own_beginning(f) for f in ([given] if isinstance(given, str) else given)]
                out[cell] = made if replace else list(dict.fromkeys(out.get(cell, []) + made))

    def _own_beginning(self, form: str) -> str:
        """A form of the model verb with this verb's beginning: HECHO → DESFECHO, PON → COMPÓN."""
        if self.prefix is None or not form.startswith(self.prefix[0]):  # SOY for COMER
            raise SourceError(
                f"{self.inf!r} does not end like {self.model.tail!r}, the model {self.model.code} "
                f"({self.model.verb}) of its irregular form {form!r}"
            )
        model_head, head = self.prefix
        return _prefixed(head, form[len(model_head) :])

    def _defective(self, out: dict[str, list[str]]) -> dict[str, list[str]]:
        only = self.data.get("only")
        keep = set(CELLS) if only is None else self._cells_named(only)
        return {cell: out[cell] for cell in CELLS if cell in keep}  # in paradigm order


def join(stem: str, ending: str, conj: str, *, spell: bool = True) -> str:
    """Stem + ending with the spelling rules of Spanish: SAC+E → SAQUE, VENC+O → VENZO, LE+IÓ → LEYÓ,
    LE+IMOS → LEÍMOS, CIÑ+IÓ → CIÑÓ, RI+IÓ → RIO."""
    if spell and ending:
        stem = _keep_sound(stem, ending[0], conj)
    if ending.startswith("i") and stem:
        last = stem[-1]
        silent_u = stem.endswith(("gu", "qu"))
        if last in "ñi" or stem.endswith("ll"):
            if len(ending) > 1 and ending[1] in _VOWELS:
                ending = ending[1:]  # CIÑÓ, MULLERON, RIENDO
        elif last in _VOWELS and not silent_u:
            if len(ending) > 1 and ending[1] in _VOWELS:
                ending = "y" + ending[1:]  # LEYÓ, CONSTRUYERON, OYENDO
            elif last in _STRONG:
                ending = "í" + ending[1:]  # LEÍMOS, LEÍDO, OÍD
    return _unstress_monosyllable((stem + ending).replace("üy", "uy"))


def _keep_sound(stem: str, vowel: str, conj: str) -> str:
    front = vowel in "eé"
    if conj == "ar":
        if not front:
            return stem
        for old, new in (("gu", "gü"), ("c", "qu"), ("g", "gu"), ("z", "c")):
            if stem.endswith(old):
                return stem[: -len(old)] + new
        return stem
    if vowel not in "aoáó":
        return stem
    for old, new in (("gu", "g"), ("qu", "c"), ("c", "z"), ("g", "j")):
        if stem.endswith(old):
            return stem[: -len(old)] + new
    return stem


def _subjunctive(root: str, ending: str, person: int) -> str:
    """TUVIE + RA; the first person plural stressed on the root's last vowel (TUVIÉRAMOS)."""
    if person == 4:
        for i in range(len(root) - 1, -1, -1):
            if root[i] in "aeiou":
                root = root[:i] + root[i].translate(_ACUTE) + root[i + 1 :]
                break
    return root + ending


def syllables(word: str) -> int:
    """Vowel groups of a word: strong vowels side by side, or an accented weak one, are two syllables."""
    return len(nuclei(word))


def nuclei(word: str) -> list[tuple[int, int]]:
    """The vowel groups of a word (start, end): one per syllable (:func:`syllables`)."""
    groups: list[tuple[int, int]] = []
    previous = ""
    for i, ch in enumerate(word):
        if ch not in _VOWELS:
            previous = ""
            continue
        hiatus = previous and (
            (ch in _STRONG and previous in _STRONG)
            or (ch in "íú" and previous in _STRONG)
            or (previous in "íú" and ch in _STRONG)
        )
        if previous and not hiatus:
            groups[-1] = (groups[-1][0], i + 1)
        else:
            groups.append((i, i + 1))
        previous = ch
    return groups


def _unstress_monosyllable(word: str) -> str:
    """A word of one syllable has no written accent (RIO, FIE, HUI; the model forms DÉ, SÉ keep theirs)."""
    if word != word.translate(_PLAIN) and syllables(word) == 1:
        return word.translate(_PLAIN)
    return word


def _prefixed(prefix: str, form: str) -> str:
    """A model verb's form with a verb's beginning: PON → COMPÓN, VES → PREVÉS (stress on a last syllable
    ending in a vowel, N or S is written)."""
    if not prefix or syllables(form) != 1 or form != form.translate(_PLAIN) or form[-1] not in "aeiouns":
        return prefix + form
    letters = list(form)
    vowels = [i for i, ch in enumerate(letters) if ch in "aeiou"]
    strong = [i for i in vowels if letters[i] in "aeo"]
    i = strong[-1] if strong else vowels[-1]
    letters[i] = letters[i].translate(_ACUTE)
    return prefix + "".join(letters)


def fold(word: str) -> str:
    """Without accents or diaeresis, Ñ kept: the letters a form is played with."""
    decomposed = unicodedata.normalize("NFD", word)
    return unicodedata.normalize("NFC", re.sub("[\u0301\u0308]", "", decomposed))
