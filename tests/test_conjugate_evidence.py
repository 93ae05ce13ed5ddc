"""The conjugator's model paradigms against independent evidence: the open Spanish default.

tests/data/conjugation-models.txt writes each model verb's paradigm as the RAE's tables give it, and
tests/test_conjugate.py checks the conjugator against it. That file and the conjugator were written
by the same hand, so here every form of it is also looked up in the es-fise default, which comes from
dictionaries conjugated by others (RLA-ES, COES): 4,382 of its 4,472 forms are there. The rest are
listed below, each a form the RAE's tables give and those dictionaries lack (or a defective verb's
form they do not write); a form missing that is not listed, or a listed one that turns up, fails.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lextools.core.lexicon import load_lexicon
from tests.test_conjugate import EXPECTED

pytestmark = pytest.mark.slow

#: Forms of the model verbs the open dictionaries lack, by verb.
NOT_IN_THE_OPEN_DICTIONARIES = {
    "andar": "andéis",
    "jugar": "jugás",  # voseo
    "descafeinar": "descafeinaríamos",
    "haber": "habed habé",
    "oler": "olamos oláis",
    "roer": "royamos",
    "yacer": "yaz",
    "empecer": "empeciendo empecido empecerá",  # defective: the dictionaries write its third persons only
    "evanescer": "evanesco evanesca evanescas evanescamos evanescáis evanescan",  # FISE's model 23 keeps -sc- too
    "placer": "plugo pluguieron pluguiera pluguieran pluguiese pluguiesen pluguiere pluguieren",  # third persons
    "raer": "raí",
    "ceñir": "ciñeres",
    "predecir": "predeciré predecirás predecirá predeciremos predeciréis predecirán predeciría predecirías"
    " predeciríamos predeciríais predecirían",  # the RAE admits both futures, PREDIRÉ and PREDECIRÉ
    "oír": "oíd",
    "reír": "reíd",
    "embaír": "embayendo embayó embayeron embayera embayeras embayéramos embayerais embayeran embayese"
    " embayeses embayésemos embayeseis embayesen embayere embayeres embayéremos embayereis embayeren",
    "desvaír": "desvaír desvayendo desvayó desvayeron desvayera desvayeras desvayéramos desvayerais desvayeran"
    " desvayese desvayeses desvayésemos desvayeseis desvayesen desvayere desvayeres desvayéremos"
    " desvayereis desvayeren desvayo desvayes desvaye desvayen desvaya desvayas desvayamos desvayáis desvayan",
}


def test_the_model_paradigms_are_the_open_dictionaries_forms(default_home: Path) -> None:
    fise = load_lexicon("es-fise", default_home)
    missing: dict[str, set[str]] = {}
    for (_, _, verb), cells in EXPECTED.items():
        for form in {f for forms in cells.values() for f in forms}:
            if not fise.lookup(form).valid:
                missing.setdefault(verb, set()).add(form)
    assert missing == {verb: set(forms.split()) for verb, forms in NOT_IN_THE_OPEN_DICTIONARIES.items()}
