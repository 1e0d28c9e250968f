"""One language per run, checked on any human-facing output (issue 13, item 5) — a helper other tests reuse.

``english_prose(text, cat, allowed=())`` — what is left of English in a Chinese (zh) output: every run of three
or more ASCII letters once the things that are the same in both languages are taken out — file paths and
file:line locations, finding ids and check codes, the catalogue's own names, intent ids and grant parameters
without a name of their own (``lang.PARAMS``), command lines
(``skillproof replay``, ``--timeout``), units (``ms``) and the ``allowed`` strings (the designer's own words
the output quotes, e.g. an English question). Python reprs (``True``, ``None``, ``{'``) are caught as words.

``foreign_in_english(text, cat, allowed=())`` — what does not belong in an English (en) output: a line with
CJK characters outside the catalogue's names and intents' texts (``langkit.cjk_leaks``), an enum id of the
catalogue (``BianZeTong2``, ``Jie_Huo``, ``sp_li_ning_yu``) or a Python repr.

Both return a list of leaks (empty: the text is in one language); assert ``== []`` to see them on failure.
"""
from __future__ import annotations

import re

from langkit import catalogue_texts, cjk_leaks

_SPAN = re.compile(r"`[^`\n]*`")              # code spans: what the person types, as typed
_PATH = re.compile(r"[\w.\-~]*(?:/[\w.\-~›]*)+(?::\d+)?|[\w\-]+\.(?:toml|json|md|kt|py|txt)(?::\d+)?")
_FINDING = re.compile(r"\b(?:[A-Z]{2,3}\d{3}-[0-9a-f]{10}|[A-Z]{2,3}\d{3})\b")
_COMMAND = re.compile(r"\bskillproof(?: [a-z]+)?\b|--[a-z][\w-]*")
_UNITS = re.compile(r"(?<=\d) ?ms\b")
_WORD = re.compile(r"[A-Za-z]{3,}")
_REPRS = ("True", "False", "None", "{'", "':")


def names_of(cat) -> list[str]:
    """Everything the catalogue names in either language, longest first: catalogue_texts, aliases and ids of
    intents."""
    out = set(catalogue_texts(cat))
    for t in (cat.skills, cat.cards, cat.characters):
        for x in t.values():
            out.update(getattr(x, "aliases", ()) or ())
    for it in getattr(cat, "intents", []) or []:
        out.add(it.id)
    from skillproof.model.lang import PARAMS               # a grant's parameters: as the catalogue names them,
    for r in cat.skills.values():                          # unless they have a name in each language
        out.update(p for p in getattr(r, "params", {}) or {} if p not in PARAMS)
    return sorted((n for n in out if n), key=len, reverse=True)


def _strip(text: str, cat, allowed) -> str:
    for a in sorted(allowed, key=len, reverse=True):
        if a:
            text = text.replace(a, " ")
    text = _SPAN.sub(" ", text)
    text = _PATH.sub(" ", text)
    text = _FINDING.sub(" ", text)
    text = _COMMAND.sub(" ", text)
    text = _UNITS.sub(" ", text)
    if cat is not None:
        for n in names_of(cat):
            text = text.replace(n, " ")
    return text


def english_prose(text: str, cat=None, allowed=()) -> list[str]:
    """English words left in a zh output (see the module's text)."""
    rest = _strip(text, cat, allowed)
    out = [w for w in _REPRS if w in rest and not w.isalpha()]
    for line in rest.splitlines():
        words = _WORD.findall(line)
        if words:
            out.append(f"{' '.join(words)}   ← {line.strip()[:120]}")
    return out


def _ids(cat) -> set[str]:
    return {x for t in (cat.skills, cat.cards, cat.characters) for x in t}


def foreign_in_english(text: str, cat, allowed=()) -> list[str]:
    """CJK outside the catalogue's names, enum ids and reprs in an en output (see the module's text)."""
    for a in sorted(allowed, key=len, reverse=True):
        if a:
            text = text.replace(a, " ")
    out = cjk_leaks(_PATH.sub(" ", text), cat)
    ids = _ids(cat)
    for w in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", _PATH.sub(" ", text)):
        if w in ids:
            out.append(f"id {w}")
    out += [w for w in _REPRS if re.search(r"(?<![A-Za-z_])" + re.escape(w) + r"(?![A-Za-z_])", text)]
    return out
