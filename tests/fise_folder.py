"""A folder of lemma lists laid out as FISE sends it, written at test time from our own content.

The five lists in FISE's published format (Latin-1, CRLF, a header in prose whose table of
contents has every section title, the annexes' indented notes, a trailer after the closing ``#``),
file names in Latin-1 bytes, ``.TXT`` and ``.txt``, the regulation as a ``.docx`` beside them. The
words are invented (``zabornar``, ``zumbrel``), as are the file names: no list of the federation's
is shipped or reproduced. Every line shape of the format occurs at least once.
"""

from __future__ import annotations

import os
from pathlib import Path

SIN_RELEVANCIA = "(Sin relevancia para el estudio de actualización)"

#: A recipe naming the fise-lists source with every FISE rule and no open source as plural evidence
#: (a word no rule of the regulation decides takes a plural): no dictionary is read, a build is quick.
RECIPE = """edition = "es-fise"
sources = ["fise-lists"]
rules = ["one-tile", "fise-infinitive-only", "fise-participle", "fise-impersonal", "fise-imperative",
  "fise-se-infinitive", "fise-no-plural", "fise-defective"]
plural_evidence = []
undecided_plurals = "plural"
"""

#: The defective texts of the verb total that name kinds of forms (the others list the forms themselves).
DEFECTIVE_TEXTS = (
    "infinitivo, gerundio, participio y terceras personas",
    "solo las formas cuya desinencia empieza por -i",
    "infinitivo y terceras personas",
    "infinitivo, participio y terceras personas",
    "no conjugado en formas con zeta",
)

#: One note of each family the verb revision writes (invented verbs, the models' verbs named by real ones).
VERB_NOTES = [
    'conjugado como "contar"',
    'conjugado como "contar", regular con acentos',
    'conjugado ahora como "contar"',
    'conjugado ahora también como "contar"',
    'conjugado ahora solo como "contar"',
    "conjugado ahora también como regular",
    "conjugado ahora solo como regular",
    "conjugado ahora en todas las formas",
    "no usable por su longitud",
    "no usable por tener k",
    "transitivo",
    'transitivo, conjugado como "contar"',
    "impersonal, queda sin formas plurales",
    "tiene una entrada intransitiva y otra pronominal",
    "desusado",
    "también con entrada como desusado",
    "regional español, usado solo en infinitivo",
    "la posmarca alude al uso desusado",
    'sin "se" por acepción regional española',
    'sin "se" por acepción regional española, cuya posmarca alude al uso',
    'sin "se" por acepción desusada',
    '"zaborné" es desusado',
    "zagüir con diéresis es desusado",
    "zaguir sin diéresis es regional español",
    "añade zaborno, zabornas",
    "añade participio irregular, zaborto, zaborta",
    "queda sin participio irregular, zaborto/a/os/as que tiene entrada propia",
    "queda sin participio irregular zaborto/sa/os/as que tiene entrada propia",
    "queda sin participio irregular, teniendo entrada propia zaborto con plural zabortos",
    'queda sin la forma "zaborno" por acepción desusada',
    "queda sin las formas del verbo zabornar",
    'se retira la forma "zaborno"',
    "usado ahora solo en infinitivo y terceras personas",
    "usado ahora en infinitivo, gerundio y participio",
    "conjugado solo en las formas cuya desinencia empieza por -i",
    'conjugado ahora en las formas cuya desinencia empieza por "i"',
    "conjugado ahora en todas las formas como zabornar, salvo zaborno, zabornas y zaborna en presente de indicativo",
    'conjugado ahora también en más formas de indicativo e imperativo iguales que las de "contar"',
    'añade las formas con "zabor" además de con "zaber" en futuro y condicional',
    "añade zaborno, zabornas, esta última por locuciones",
    'en infinitivo, indicativo salvo presente, y segundas personas del imperativo, la "u" puede ser también "o"',
]

VERBS_TITLE = "LEXICÓN FISE 2: TOTAL DE VERBOS CLASIFICADOS"
NONVERBS_TITLE = "LEXICÓN FISE 2: TOTAL DE NO VERBOS SIN PLURALES"
VERB_UPDATE_TITLE = "LEXICÓN FISE 2: ACTUALIZACIÓN DE VERBOS"
NONVERB_UPDATE_TITLE = "LEXICÓN FISE 2: ACTUALIZACIÓN DE NO VERBOS"
SHORT_TITLE = "LEXICÓN FISE 2: ACTUALIZACIÓN Y TOTAL DE DOS Y TRES FICHAS"

VERB_SECTIONS = ["1. PRIMERA CONJUGACIÓN", "2. SEGUNDA CONJUGACIÓN", "3. TERCERA CONJUGACIÓN"]
NONVERB_UPDATE_SECTIONS = [
    "1. ALTAS VARIABLES EN NÚMERO",
    "2. ALTAS INVARIABLES EN NÚMERO",
    "3. ALTAS EN PLURAL PERO NO EN SINGULAR",
    "4. BAJAS VARIABLES E INVARIABLES EN NÚMERO",
    "5. BAJAS EN PLURAL PERO NO EN SINGULAR",
    "6. ANEXO I: ALTAS YA VÁLIDAS POR OTRA ENTRADA",
    "7. ANEXO II: BAJAS AÚN VÁLIDAS POR OTRA ENTRADA",
]
VERB_UPDATE_SECTIONS = [
    "1. NUEVOS",
    "2. SUPRIMIDOS",
    "3. REGIONALES ESPAÑOLES",
    "4. DE USADO A DESUSADO",
    "5. DE DESUSADO A USADO",
    "6. DE TRANSITIVO A INTRANSITIVO",
    "7. DE INTRANSITIVO A TRANSITIVO",
    "8. DE TRANSITIVO A PRONOMINAL",
    "9. DE PRONOMINAL A TRANSITIVO",
    "10. DE INTRANSITIVO A PRONOMINAL",
    "11. DE PRONOMINAL A INTRANSITIVO",
    "12. CAMBIOS EN FORMAS",
]
SHORT_SECTIONS = [
    "1. ACTUALIZACIÓN DE PALABRAS DE DOS FICHAS",
    "2. ACTUALIZACIÓN DE PALABRAS DE TRES FICHAS",
    "3. TOTAL DE PALABRAS DE DOS FICHAS",
    "4. TOTAL DE PALABRAS DE TRES FICHAS",
]

#: The verb total's body: every shape of its table (and classes 0–5, models 88/99, -rse lines).
VERB_BODY = [
    "1. PRIMERA CONJUGACIÓN",
    "",
    "00-1-.-zabornar",
    "00-1-.-zabornar 2",
    "00-1-P-zabagar(zabagado zabago)",
    "01-1-R-zacostar",
    "01-1-R-zacontar 2",
    "00-2-I-zabrisar",
    "00-2-I-zanevar 1",
    "00-3-.-zajactarse",
    "00-4-.-zacurrucar",
    "00-5-.-zaclarear",
    "88-0-.-zacacharse",
    "99-0-.-zabaldonar",
    "00-0-.-zabarrar   ",
    "00-3-D-zabarse(zabarse zabar)",
    "",
    "2. SEGUNDA CONJUGACIÓN",
    "",
    "00-1-.-zabeber",
    "20-1-P-zaver 1(zavisto)",
    "00-2-D-zatañer 1(infinitivo, gerundio, participio y terceras personas)",
    "00-2-D-zacaer(infinitivo y terceras personas)",
    "",
    "3. TERCERA CONJUGACIÓN",
    "",
    "00-1-.-zabrir",
    "00-1-P-zafreír(zafreído zafrito)",
    "00-1-D-zabolir(solo las formas cuya desinencia empieza por -i)",
    "00-1-D-zadir(zadir)",
]
#: The non-verb total's body: ``word`` (also with î, è), ``masculine feminine``, either with a superscript.
NONVERB_BODY = [
    "zumbrel",
    "zasa",
    "zaño",
    "zumbîte",
    "crèzal",
    "zaperro zaperra",
    "zabote 4",
    "zabote 5",
    "zagato zagata 2",
    "zalunes",
    # the masculine fits the 15-square board, the feminine does not (16 tiles): the masculine is kept,
    # and its plural when it fits (ZABORNIFICALDES), the feminine is reported; ZABORNTILLADORA fits (LL)
    "zaborntificador zaborntificadora",
    "zabornificalde zabornificaldesa",
    "zaborntillador zaborntilladora",
]
#: The non-verb revision's body: every section, ``word (note)`` of each family, the annexes' lines.
NONVERB_UPDATE_BODY = [
    "1. ALTAS VARIABLES EN NÚMERO",
    "zumbrel",
    'zarzal (plural "zarzales")',
    'zacrín (plurales "zacrines" y "zacrínes")',
    'zaflor (plural "zaflores)',
    "2. ALTAS INVARIABLES EN NÚMERO",
    "zalunes",
    "3. ALTAS EN PLURAL PERO NO EN SINGULAR",
    "zaenseres",
    "4. BAJAS VARIABLES E INVARIABLES EN NÚMERO",
    "zatiesta",
    "5. BAJAS EN PLURAL PERO NO EN SINGULAR",
    "zabalís",
    "6. ANEXO I: ALTAS YA VÁLIDAS POR OTRA ENTRADA",
    "",
    "(Sin relevancia para el estudio de actualización)",
    'zaperros ("zaperros" es plural de "zaperro")',
    'zamos ("zamos" es forma conjugada del verbo "zamar")',
    "7. ANEXO II: BAJAS AÚN VÁLIDAS POR OTRA ENTRADA",
    "",
    "(Sin relevancia para el estudio de actualización)",
    'zacasa ("zacasa" tiene entrada propia)',
]
#: The verb revision's body: every section, sub-headings, ``ningún verbo``, stand-alone parentheses,
#: ``infinitive`` and ``infinitive (note)`` of each family of notes, full verb lines.
VERB_UPDATE_BODY = [
    "1. NUEVOS",
    "(Con uso actual y no regional español)",
    "Primera conjugación",
    "Transitivos",
    "zabornar",
    'zatuitear (conjugado como "zabornar")',
    "Intransitivos",
    "ningún verbo",
    "Pronominales",
    "zajactarse",
    "Segunda conjugación",
    "Transitivos",
    "00-1-.-zabeber",
    "2. SUPRIMIDOS",
    "Primera conjugación",
    "zabaldonar 2",
    "zakayakear (no usable por tener k)",
    "3. REGIONALES ESPAÑOLES",
    "Primera conjugación",
    "zacachar (regional español, usado solo en infinitivo)",
    "4. DE USADO A DESUSADO",
    "Primera conjugación",
    "zabornar (la posmarca alude al uso desusado)",
    "5. DE DESUSADO A USADO",
    "Primera conjugación",
    "zabarrar",
    "6. DE TRANSITIVO A INTRANSITIVO",
    "Tercera conjugación",
    "ningún verbo",
    "7. DE INTRANSITIVO A TRANSITIVO",
    "Primera conjugación",
    "zabrisar (transitivo)",
    "8. DE TRANSITIVO A PRONOMINAL",
    "Primera conjugación",
    'zacurrucar (sin "se" por acepción regional española)',
    "9. DE PRONOMINAL A TRANSITIVO",
    "Primera conjugación",
    "zaclarear (tiene una entrada intransitiva y otra pronominal)",
    "10. DE INTRANSITIVO A PRONOMINAL",
    "Segunda conjugación",
    "ningún verbo",
    "11. DE PRONOMINAL A INTRANSITIVO",
    "Segunda conjugación",
    "ningún verbo",
    "12. CAMBIOS EN FORMAS",
    "(Se exceptúan cambios respecto a acentos)",
    "Segunda conjugación",
    'zabeber (añade las formas con "zabebr" además de con "zabeber" en futuro y condicional)',
    "Tercera conjugación",
    "zabrir (añade zabierto, zabiertas)",
    "zafreír (queda sin participio irregular, zafrito/a/os/as que tiene entrada propia)",
]
#: The two- and three-tile file: its four sections, ``Altas:``/``Bajas:``, digits for CH, LL, RR.
SHORT_BODY = [
    "1. ACTUALIZACIÓN DE PALABRAS DE DOS FICHAS",
    "Altas:",
    "1e",
    "Bajas:",
    "zu",
    "2. ACTUALIZACIÓN DE PALABRAS DE TRES FICHAS",
    "Altas:",
    "za3",
    "Bajas:",
    "3. TOTAL DE PALABRAS DE DOS FICHAS",
    "1e",
    "4. TOTAL DE PALABRAS DE TRES FICHAS",
    "zaño",
    "za3",
]


def list_text(title: str, contents: list[str], body: list[str], *, notes: str = "", trailer: bool = True) -> str:
    """One list as FISE writes it: header (title, author, ``Contenido:``, ``Notas:``, ``#``), body, trailer."""
    header = [title, "", "Por la comisión de prueba en diciembre de 2026", "", "Contenido:", ""]
    for line in contents:
        header.append(f"   {line}")
        if "ANEXO" in line:
            header.append(f"      {SIN_RELEVANCIA}")
    header += ["", "Notas:", "1. Esta nota en prosa empieza como un título y no lo es.", notes, "#", ""]
    end = ["", "#", "Comisión de prueba", "Diciembre de 2026", ""] if trailer else [""]
    return "\n".join(header + body + end)


def write_list(path: Path, text: str, eol: str = "\r\n") -> Path:
    path.write_bytes(text.replace("\n", eol).encode("latin-1"))
    return path


def name(raw: bytes) -> str:
    """A file name given as bytes (Latin-1 names are not UTF-8), as Python holds it (os.fsdecode)."""
    return os.fsdecode(raw)


#: The files of the folder: file name (bytes, as FISE's are Latin-1), title, table of contents, body.
FILES: list[tuple[bytes, str, list[str], list[str]]] = [
    (b"fixture TOTAL V.TXT", VERBS_TITLE, VERB_SECTIONS, VERB_BODY),
    (b"fixture TOTAL NV.txt", NONVERBS_TITLE, ["Total de no verbos sin plurales."], NONVERB_BODY),
    (b"ACTUALIZACI\xd3N fixture V.TXT", VERB_UPDATE_TITLE, VERB_UPDATE_SECTIONS, VERB_UPDATE_BODY),
    (b"ACTUALIZACI\xd3N fixture NV.TXT", NONVERB_UPDATE_TITLE, NONVERB_UPDATE_SECTIONS, NONVERB_UPDATE_BODY),
    (b"fixture 2 y 3.txt", SHORT_TITLE, SHORT_SECTIONS, SHORT_BODY),
]
#: Lines of the verb total no reader understands (reported, skipped: the build goes on); the last one
#: holds an ESC byte, which a report must show escaped.
NOT_UNDERSTOOD = ["00-1-.-zaborn@r", "zabornar sin código", "00-1-.-za\x1b[2Jbornar"]


def fise_folder(folder: Path, *, not_understood: bool = True) -> Path:
    """Write the folder: the five lists, the regulation as ``.docx`` and a note beside them."""
    folder.mkdir(parents=True, exist_ok=True)
    for raw, title, contents, body in FILES:
        if not_understood and title == VERBS_TITLE:
            body = [*body[:4], *NOT_UNDERSTOOD, *body[4:]]
        write_list(folder / name(raw), list_text(title, contents, body, notes="Leyenda: MM-T-P-infinitivo."))
    # the regulation, a zip like any .docx (bytes of our own), and a note: neither is a list
    (folder / name(b"Reglamento de l\xe9xico fixture.docx")).write_bytes(b"PK\x03\x04\x14\x00\x06\x00" + bytes(64))
    (folder / "notas.txt").write_bytes("Notas de la carpeta de prueba.\r\n".encode("latin-1"))
    return folder
