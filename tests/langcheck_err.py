"""Is an error message in one language? (issue 13, item 5: one language per run, errors included.)

``english_prose(line, typed)`` — the English words left in a Chinese error line: what remains after the
location (``file:line: [key]``, ``query:1:COL:``), quoted text ('…', "…", `…`, “…”, 「…」), table headers
([[skill]]), file names, command-line flags, code points (U+200B) and the words the user typed (``typed``:
ids, names, keys, values of the input) are taken out — any run of three or more ASCII letters but the
names in ``PROPER`` (TOML, JSON, UTF-8, GBK, BOM, skillproof).

``cjk_prose(line, typed)`` — the CJK characters left in an English error line once the location, quoted
text and the names the user typed (or the catalogue holds) are taken out.

Both return [] for a line in one language. ``typed_words(text)`` collects what a TOML or JSON input holds
(string values, keys, table names); ``catalogue_words(cat)`` the names a loaded catalogue holds.
"""
from __future__ import annotations

import re

_PREFIX = re.compile(r"^(?:error: |错误：)")
_KEY = r"\[(?:[^\[\]]|\[[^\[\]]*\])*\]"
#: file:line: [key]  /  query:1:COL:  /  file:line: (no key)
_LOCATION = re.compile(r"^\S+?:\d+:(?:\d+:)?(?: " + _KEY + r")?\s?")
_QUOTED = [re.compile(p) for p in (r"'[^'\n]*'", r'"[^"\n]*"', r"`[^`\n]*`", r"“[^”\n]*”", r"「[^」\n]*」")]
_OTHER = [re.compile(p) for p in (
    r"\[\[?[\w.…]+\]\]?",                                   # table headers: [[skill]], [rules], [[…gives]]
    r"[\w./<>-]+\.(?:toml|json|md|py|sarif)(?::\d+)?",      # file names, file:line
    r"(?<![\w-])--?[a-z][a-z-]*(?:=\S+)?",                   # command-line flags
    r"U\+[0-9A-F]{4,6}",                                    # code points
    r"\\u[0-9a-fA-F]{4}|\\U[0-9a-fA-F]{8}|\\[nrt]",         # escapes
)]
_ENGLISH = re.compile(r"[A-Za-z]{3,}")
#: names, not prose: formats, encodings and the tool itself
PROPER = {"TOML", "JSON", "UTF", "GBK", "BOM", "skillproof"}
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def _strip(line: str, typed=()) -> str:
    line = _PREFIX.sub("", line.strip())
    line = _LOCATION.sub("", line, count=1)
    for rx in _QUOTED:
        line = rx.sub(" ", line)
    for rx in _OTHER:
        line = rx.sub(" ", line)
    for w in sorted({t for t in typed if t and t.strip()}, key=len, reverse=True):
        line = re.sub(r"(?<![A-Za-z0-9_])" + re.escape(w) + r"(?![A-Za-z0-9_])", " ", line)
    return line


def english_prose(line: str, typed=()) -> list[str]:
    """English words in a Chinese error line (see the module's docstring); [] when there is none."""
    return [w for w in _ENGLISH.findall(_strip(line, typed)) if w not in PROPER]


def cjk_prose(line: str, typed=()) -> list[str]:
    """CJK characters in an English error line outside quotes and the user's own names; [] when none."""
    return _CJK.findall(_strip(line, typed))


_TOML_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"|\'([^\'\n]*)\'')
_TOML_KEY = re.compile(r"^\s*\[*\s*([A-Za-z0-9_.\-\" ]+?)\s*\]*\s*(?:=|$)", re.M)


def typed_words(text: str) -> set[str]:
    """The strings, keys and table names of a TOML or JSON text: what its author typed."""
    out: set[str] = set()
    for m in _TOML_STRING.finditer(text):
        out.add(m.group(1) if m.group(1) is not None else m.group(2))
    for m in _TOML_KEY.finditer(text):
        for part in m.group(1).replace('"', "").split("."):
            out.add(part.strip())
    # the words of a value without spaces (an id, a name): never the words of a sentence or a condition
    out.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", " ".join(x for x in out if " " not in x)))
    return {w for w in out if w}


def catalogue_words(cat) -> set[str]:
    """Every id, name and alias of a catalogue's cards, characters and rules."""
    out: set[str] = set()
    for table in (cat.cards, cat.characters, cat.skills):
        for x in table.values():
            out.update((x.id, x.name, *getattr(x, "aliases", ())))
    return out
