"""Generate sources/vendor/verbecc-es/verbs.txt.gz: the simple conjugation of the Spanish verbs RLA-ES lacks.

Usage (from the repository, once per new verbecc release; the output is vendored with its checksum)::

    pip download --no-deps verbecc==2.0.3 -d /tmp/verbecc
    .venv/bin/python scripts/conjugate-verbecc-es.py /tmp/verbecc/verbecc-2.0.3-py3-none-any.whl

verbecc (code LGPL-3.0) ships Verbiste's Spanish verb list with a conjugation template per verb
(``data/xml/verbs/verbs-es.xml``: ``<i>abalanzar</i><t>ca:zar</t>``) and the templates' endings
(``data/xml/conjugations/conjugations-es.xml``), both GPL-2.0-or-later (Pierre Sarrazin, Sekou Diao).
The templates were assigned by machine learning and some are wrong (ABOL:IR conjugates ABOLIRRÁ), and
the list has OCR misreadings (GOBEMAR for GOBERNAR), so the script takes only what it can check:

1. a template is used only when it agrees with RLA-ES: of the forms it makes for the verbs RLA-ES also
   conjugates, at least ``MIN_AGREEMENT`` are RLA-ES forms (over at least ``MIN_VERBS`` verbs);
2. only verbs whose infinitive RLA-ES does not generate (not a headword, nor a prefixed form of one:
   RELLENAR is RE + LLENAR there) are conjugated, and none of ``MISREAD`` (read by hand); a verb built
   on one RLA-ES conjugates (REASENTAR on ASENTAR) only when its template makes that verb's RLA-ES
   forms (the list gives REASENTAR the regular template: REASENTO for REASIENTO);
3. the forms are made by lextools' own model-based conjugator (:mod:`lextools.builder.conjugate`, the
   conjugator of builds from FISE's lists, so both builds conjugate a verb alike): each template is
   mapped to the conjugation model whose forms agree with it on the template's verbs (at least
   ``MIN_MODEL_AGREEMENT`` of the template's forms, none of ours outside them but voseo), and a verb
   whose template maps to no model is left out and reported;
4. the forms follow the FISE lexicon rules: every simple tense, no enclitic (the templates have none);
   voseo only in the present indicative and the imperative (CONTÁS, CONTÁ, made from the infinitive);
   the past participle in the masculine singular only, since nothing here says whether a verb has a
   transitive sense (the rules give the four forms only to those); a pronominal entry (ABESTIARSE) is
   conjugated without its pronoun, and its infinitive in -RSE is not written (the list's -RSE does not
   tell the dictionary's pronominal headwords: it has JACTARSE); a verb whose template writes the
   third persons only (NEVAR, GRANIZAR: ``IMPERSONAL_GAPS``) gets the impersonal forms only
   (infinitive, gerund, participle, third person singular), FISE's rule for impersonal verbs;
5. a verb is taken only when another source confirms it as a verb (``CONFIRMED_BY``: COES, spaCy's
   table or wspanish lists its infinitive and ``CONFIRMING_FORMS`` more of its forms), as the build
   asks a COES headword to be confirmed: verbecc alone is not evidence enough (most of the verbs only
   it had were obsolete, regional or not in the lexicon at all). Obsolete or regional verbs
   (infinitive only in FISE) cannot be told, so a confirmed verb is conjugated whole.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import re
import sys
import unicodedata
import xml.etree.ElementTree as ET
import zipfile
from collections import Counter
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from lextools.builder.conjugate import conjugate, conjugation_of, models  # noqa: E402
from lextools.builder.fise_forms import IMPERSONAL  # noqa: E402
from lextools.builder.hunspell_source import plain_word  # noqa: E402
from lextools.builder.read import read_source  # noqa: E402
from lextools.core.sources import load_source  # noqa: E402

OUT = ROOT / "sources" / "vendor" / "verbecc-es" / "verbs.txt.gz"
VERBS = "verbecc/data/xml/verbs/verbs-es.xml"
TEMPLATES = "verbecc/data/xml/conjugations/conjugations-es.xml"
MIN_AGREEMENT = 0.9
MIN_VERBS = 3
#: Of a template's forms (its verbs', plain), the share a model must make to be the template's model.
MIN_MODEL_AGREEMENT = 0.95
#: The template's verbs a model is tried on.
MODEL_SAMPLE = 8
#: The sources that may confirm a verb as a verb (``CONFIRMED_BY``): each lists the infinitive and at least
#: ``CONFIRMING_FORMS`` more of its forms. COES is read whole (its own confirmed_by left aside): it is
#: one more source, and what the build asks is that two sources agree.
CONFIRMED_BY = ("coes", "spacy-es", "wspanish")
CONFIRMING_FORMS = 2
#: A template that leaves at least this many of its 67 cells empty writes the third persons only: the
#: verbs of weather (NEVAR, GRANIZAR, APEDREAR), impersonal in FISE's rules too.
IMPERSONAL_GAPS = 50
#: OCR misreadings in the verb list (rn read as m, l as i or ie), read by hand among the verbs RLA-ES lacks.
MISREAD = [
    "apestúlarse",
    "boriarse",
    "conilorar",
    "desfortaiecer",
    "desmeienar",
    "despampanifiar",
    "embarcínar",
    "enseivar",
    "eronometrar",
    "escierosar",
    "esmaitar",
    "etemizar",
    "exomar",
    "extomar",
    "fomicar",
    "fratemizar",
    "gaviar",
    "gobemar",
    "goiosmear",
    "guamecer",
    "guamicionar",
    "guamir",
    "hemiarse",
    "hibemar",
    "infemar",
    "ingietear",
    "intemacionalizar",
    "intemar",
    "invemar",
    "jemiquear",
    "juiepear",
    "mannear",
    "mercantitizar",
    "milticopiar",
    "querrillear",
    "trascloblar",
]


def accented(vowel: str) -> str:
    return {"a": "á", "e": "é", "i": "í"}[vowel]


def template_forms(stem: str, template: ET.Element) -> list[str]:
    """Every simple form a template makes for a stem, none with a pronoun attached.

    The templates of pronominal verbs (``alandr:earse``) write the infinitive, the gerund and the
    affirmative imperative with their pronoun (ALANDREARSE, ALANDREÁNDOSE, ALANDRÉATE, ALANDREAOS):
    those are written without it (ALANDREAR, ALANDREANDO; the imperative of TÚ is the third person of
    the present, that of VOSOTROS the infinitive with D for R; the others are subjunctive forms).
    """
    pronominal = template.get("name", "").endswith("se")
    forms = []
    for mood in template:
        for tense in mood:
            if pronominal and tense.tag == "afirmativo":
                continue
            for person in tense:
                for i in person:
                    if not i.text:
                        continue
                    form = stem + i.text
                    if pronominal and form.endswith(("rse", "ndose")):
                        form = form[:-2].replace("ándo", "ando").replace("iéndo", "iendo").replace("yéndo", "yendo")
                    forms.append(form)
    if pronominal:
        present = template.find("Indicativo/presente")
        infinitive = template.find("Infinitivo/infinitivo")
        if present is not None and len(present) > 2 and infinitive is not None:
            forms += [stem + (i.text or "") for i in present[2] if i.text]
            forms += [(stem + (i.text or ""))[:-3] + "d" for i in infinitive[0] if i.text]
    return forms


def model_forms(verb: str, code: str, impersonal: bool = False) -> list[str]:
    """Our conjugator's forms of a verb under the FISE lexicon rules of this list: no voseo but the
    present and imperative (ours has no other), the participle in the masculine singular only; of an
    impersonal verb (its template writes the third persons only) the impersonal forms only."""
    return [f for cell, made in conjugate(verb, code).items() if not impersonal or cell in IMPERSONAL for f in made]


def empty_cells(template: ET.Element) -> int:
    """How many of a template's person cells write no form (its verbs are defective there)."""
    return sum(1 for mood in template for tense in mood for person in tense if not any(i.text for i in person))


def confirmers() -> dict[str, set[str]]:
    """Every form (plain) of each source of ``CONFIRMED_BY``."""
    out = {}
    for name in CONFIRMED_BY:
        source = load_source(name)
        source = replace(source, options={k: v for k, v in source.options.items() if k != "confirmed_by"})
        out[name] = {plain_word(w.raw) for w in read_source(source)}
    return out


def confirmed_by(verb: str, forms: list[str], sources: dict[str, set[str]]) -> str | None:
    """The first source that lists the infinitive and ``CONFIRMING_FORMS`` more of its forms, or None."""
    plain = {plain_word(f) for f in forms} - {plain_word(verb)}
    for name, words in sources.items():
        if plain_word(verb) in words and len(plain & words) >= CONFIRMING_FORMS:
            return name
    return None


def template_model(name: str, template: ET.Element, verbs: list[str]) -> str | None:
    """The model (code) whose forms agree with a template's on its verbs (an impersonal template's on
    the impersonal forms), or None."""
    impersonal = empty_cells(template) >= IMPERSONAL_GAPS
    ending = name.split(":", 1)[1]
    sample = [v for v in verbs if v.endswith(ending)][:MODEL_SAMPLE]
    stems = {v: v[: -len(ending)] for v in sample}
    written = {v: {unicodedata.normalize("NFC", f) for f in template_forms(stems[v], template)} for v in sample}
    theirs = {v: {plain_word(f) for f in fs} for v, fs in written.items()}
    best, best_score = None, (0.0, 0.0)
    for conj, code in models():
        scores = []
        for verb in sample:
            bare = verb.removesuffix("se") if verb.endswith("rse") else verb
            if conjugation_of(bare) != conj:
                break
            try:
                made = conjugate(bare, code)
                ours = {plain_word(f) for cell, fs in made.items() if cell not in ("vp2", "vm2") for f in fs}
            except Exception:  # a model whose own forms do not fit the verb (SER's on HACER)
                break
            if impersonal:
                ours = {plain_word(f) for f in model_forms(bare, code, impersonal=True)}
            if ours - theirs[verb]:
                break
            accented = {f for cell, fs in made.items() if cell not in ("vp2", "vm2") for f in fs} & written[verb]
            scores.append((len(ours & theirs[verb]) / max(1, len(theirs[verb])), len(accented) / max(1, len(ours))))
        else:
            # the letters first; of models alike in letters, the one that writes the accents as the template
            # does (ENVÍO, not ENVIO: the model of ENVIAR, not the regular one)
            score = (min(s[0] for s in scores), min(s[1] for s in scores)) if scores else (0.0, 0.0)
            if score > best_score:
                best, best_score = code, score
    return best if best_score[0] >= MIN_MODEL_AGREEMENT else None


def voseo(infinitive: str) -> list[str]:
    """CONTÁS, CONTÁ; COMÉS, COMÉ; VIVÍS, VIVÍ: the vos present and imperative, from the infinitive."""
    base, vowel = infinitive[:-2], infinitive[-2]
    if vowel not in "aei":
        return []
    return [base + accented(vowel) + "s", base + accented(vowel)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("wheel", type=Path, help="verbecc-2.0.3-py3-none-any.whl")
    args = parser.parse_args()
    wheel_sha = hashlib.sha256(args.wheel.read_bytes()).hexdigest()
    with zipfile.ZipFile(args.wheel) as z:
        verb_xml, template_xml = z.read(VERBS), z.read(TEMPLATES)
    verbs = dict(re.findall(r"<i>(.*?)</i>\s*<t>(.*?)</t>", verb_xml.decode("utf-8")))
    templates = {t.get("name"): t for t in ET.fromstring(template_xml)}

    rla = load_source("rla-es")
    rla_forms = {plain_word(w.raw) for w in read_source(rla) if "enclitic" not in w.tags}

    def stem_of(verb: str, name: str) -> str | None:
        ending = name.split(":", 1)[1]
        return verb[: -len(ending)] if verb.endswith(ending) else None

    # 1. Templates checked against RLA-ES on the verbs both conjugate (participle: masculine only).
    found, made, used = Counter(), Counter(), Counter()
    for verb, name in verbs.items():
        bare = verb[:-2] if verb.endswith("se") else verb
        stem = stem_of(verb, name)
        if name not in templates or stem is None or plain_word(bare) not in rla_forms:
            continue
        forms = {plain_word(f) for f in template_forms(stem, templates[name])}
        made[name] += len(forms)
        found[name] += len(forms & rla_forms)
        used[name] += 1
    good = {n for n in made if used[n] >= MIN_VERBS and found[n] / made[n] >= MIN_AGREEMENT}

    # A verb built on one RLA-ES has (REASENTAR on ASENTAR) must conjugate like it: the template given
    # to the new verb, applied to the known one, has to make RLA-ES's forms.
    known = sorted((v for v in verbs if not v.endswith("se") and plain_word(v) in rla_forms), key=len, reverse=True)

    def agrees_with_base(verb: str, name: str) -> bool:
        base = next((k for k in known if len(k) >= 4 and verb.endswith(k) and verb != k), None)
        stem = stem_of(base, name) if base else None
        if base is None or stem is None:
            return True
        forms = {plain_word(f) for f in template_forms(stem, templates[name])}
        return len(forms & rla_forms) >= MIN_AGREEMENT * len(forms)

    # 3. Each confirmed template's model in our conjugator.
    by_template: dict[str, list[str]] = {}
    for verb, name in verbs.items():
        by_template.setdefault(name, []).append(verb)
    model_of = {n: template_model(n, templates[n], by_template.get(n, [])) for n in sorted(good)}
    unmapped = sorted(n for n, m in model_of.items() if m is None)

    # 2. The verbs RLA-ES lacks, 4. conjugated under the FISE rules.
    sources = confirmers()
    by_source: Counter[str] = Counter()
    out: set[str] = set()
    counts = Counter()
    for verb, name in sorted(verbs.items()):
        bare = verb[:-2] if verb.endswith("se") else verb
        if plain_word(bare) in rla_forms:
            counts["known to RLA-ES"] += 1
            continue
        if verb in MISREAD:
            counts["misread"] += 1
            continue
        stem = stem_of(verb, name)
        if name not in good or stem is None:
            counts["template not confirmed"] += 1
            continue
        if not agrees_with_base(verb.removesuffix("se"), name):
            counts["template unlike the verb it is built on"] += 1
            print("unlike its base:", verb, name, file=sys.stderr)
            continue
        if model_of[name] is None:
            counts["template mapped to no model"] += 1
            print("no model:", verb, name, file=sys.stderr)
            continue
        impersonal = empty_cells(templates[name]) >= IMPERSONAL_GAPS
        forms = model_forms(bare, model_of[name], impersonal)
        confirming = confirmed_by(bare, forms, sources)
        if confirming is None:
            counts["not confirmed as a verb by another source"] += 1
            continue
        out.update(unicodedata.normalize("NFC", f) for f in forms)
        counts["conjugated"] += 1
        by_source[confirming] += 1
        counts["impersonal"] += impersonal

    header = [
        "# Simple conjugation of the Spanish verbs RLA-ES lacks, from verbecc 2.0.3's Verbiste data",
        "# (GPL-2.0-or-later), conjugated by lextools.builder.conjugate (each template's model),",
        f"# made by scripts/conjugate-verbecc-es.py from the wheel with sha256 {wheel_sha};",
        f"# templates confirmed by RLA-ES: {len(good)} of {len(templates)}; verbs: "
        + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())),
    ]
    text = "\n".join(header + sorted(out)) + "\n"
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with open(OUT, "wb") as f, gzip.GzipFile(fileobj=f, mode="wb", mtime=0, compresslevel=9) as g:
        g.write(text.encode("utf-8"))
    print(*header[1:], f"{len(out)} forms -> {OUT}", sep="\n")
    print("confirmed as verbs by:", dict(by_source))
    for n in sorted(made, key=lambda n: -used[n])[:12]:
        verdict = "" if n in good else "(rejected)"
        print(f"  {n}: {used[n]} verbs, {found[n] / made[n]:.1%} of its forms in RLA-ES", verdict)
    mapped = Counter(f"{conjugation_of(n.replace(':', '').removesuffix('se'))}{m}" for n, m in model_of.items() if m)
    print(f"templates mapped to a model: {len(model_of) - len(unmapped)} of {len(model_of)}: {dict(mapped)}")
    print("templates mapped to none:", ", ".join(unmapped) or "none")


if __name__ == "__main__":
    main()
