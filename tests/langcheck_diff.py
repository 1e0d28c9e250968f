"""Is a human-facing output in one language? (issue 13, item 5; used by tests/test_lang_diff.py)

``english_words(text, cats)`` — the English left in a Chinese (zh) output: every run of three or more ASCII
letters that remains once what is not prose is taken out — file paths (``model/catalogue/…:12``, ``REV:path``),
finding and change ids (``CV002-0123456789``, ``possible-new-…``), check codes (``INC001``), command-line flags and
code spans (``--timeout``, ```skillproof check```), units, the catalogue's own texts (names, intents' claims and
sources) and the keys of the catalogue format (``model/schema.json``: ``where``, ``draw_base``, …), which the
designer writes and looks for as they are. Python reprs (``True``, ``None``, ``{'``) are never allowed.

``cjk_lines(text, cats)`` — the lines of an English (en) output that still hold CJK characters once the
catalogues' own texts are taken out.

HTML is read as its visible text and attributes people read (``title``, ``placeholder``, ``aria-label``).
"""
from __future__ import annotations

import html
import json
import re
from pathlib import Path

_CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")
#: not prose: program and format names, version-control words a command line shows
PROPER = {"skillproof", "git", "Kotlin", "JSON", "SARIF", "JUnit", "HTML", "TOML", "GitHub", "GitLab",
          }
REPRS = re.compile(r"(?<![A-Za-z_])(?:True|False)(?![A-Za-z_])|(?<=[=:(\[{,] )None\b|(?<=[=:(\[{,])None\b"
                   r"|\{'|\['|\(\)")

_PATTERNS = [
    re.compile(r"`[^`\n]*`"),                                        # code spans
    re.compile(r"(?:[\w.~+-]+:)?(?:[\w.~+-]+/)+[\w.~+-]*(?::\d+)?"),   # paths (a git REV: in front, :line after)
    re.compile(r"[\w.~+-]+\.(?:toml|kt|json|md|sarif|xml|html|py)(?::\d+)?\b"),   # bare file names
    re.compile(r"\b[A-Z]{2,3}\d{3}(?:-[0-9a-f]{10})?\b"),            # check codes and finding ids
    re.compile(r"\b(?:possible-(?:new|old)|decision|engine)-[\w.-]+"),   # change ids
    re.compile(r"(?<![\w-])--?[a-z][a-z-]*(?:=[\w.]+)?"),            # command-line flags
    re.compile(r"\b\d+(?:\.\d+)?\s?(?:ms|s)\b"),                     # units
    re.compile(r"\b[0-9a-f]{12,40}\b"),                              # commits
    re.compile(r"\bskillproof(?: [a-z]+)?"),                          # the program and its commands
]


def schema_keys() -> set[str]:
    """Every key of the catalogue format (the property names of model/schema.json)."""
    from skillproof.model import schema as S
    path = Path(S.__file__).with_name("schema.json")
    keys: set = set()

    def walk(o):
        if isinstance(o, dict):
            for k, v in o.items():
                if k == "properties" and isinstance(v, dict):
                    keys.update(v)
                walk(v)
        elif isinstance(o, list):
            for x in o:
                walk(x)
    walk(json.loads(path.read_text(encoding="utf-8")))
    return keys


def catalogue_texts(cats) -> list[str]:
    """Every catalogue-written string an output may quote (names, intents' ids, claims, texts, sources), longest
    first."""
    out: set = set()
    for cat in cats:
        out.update(x.name for t in (cat.skills, cat.cards, cat.characters) for x in t.values())
        for it in getattr(cat, "intents", []) or []:
            for v in (it.id, it.claim, it.text, it.source):
                if v:
                    out.add(v)
                    out.update(p.strip() for p in re.split(r"[;›]", v) if p.strip())
    return sorted(out, key=len, reverse=True)


def visible(text: str) -> str:
    """A report as people read it: HTML (a page, or the tags markdown uses) as its text plus the attributes shown
    as tips, markdown escapes undone, GitHub workflow commands (``::warning file=…::``) without their syntax."""
    text = re.sub(r"<(script|style)\b.*?</\1>", " ", text, flags=re.S)
    attrs = re.findall(r'\b(?:title|placeholder|aria-label|data-fmt)="([^"]*)"', text)
    text = re.sub(r"<[^>]+>", " ", text)
    text = re.sub(r"(?m)^::\w+[^:]*::", "", text).replace("%0A", "\n")
    text = re.sub(r"\\([\\`*_{}\[\]()#+\-.!|<>])", r"\1", text)
    return html.unescape(text + "\n" + "\n".join(attrs))


def _strip(text: str, cats) -> str:
    """What is left of a (visible) text once paths, ids, codes, flags, units and the catalogues' texts are out."""
    for n in catalogue_texts(cats):
        text = text.replace(n, " ")
    for p in _PATTERNS:
        text = p.sub(" ", text)
    return text


_KEY_AFTER = re.compile(r"(?:引擎规则|\[rules\]|engine rule) ([a-z_.]+)")
_KEY_IN_PARENS = re.compile(r"[（(]\s*([a-z_]+)\s*(?:=[^）)]*)?[）)]")
_IDENT = re.compile(r"\b[a-z]+(?:[_.-][a-z]+)+\b")    # snake_case, dotted, kebab-case: catalogue keys, engine
                                                        # rule names, check names (conversion-vetoed)


def english_words(text: str, cats=(), allowed=()) -> list[str]:
    """Runs of 3+ ASCII letters and Python reprs left in a zh output once what is not prose is taken out."""
    text = visible(text)
    reprs = [m.group(0) for m in REPRS.finditer(text)]
    keys = schema_keys()
    rest = _strip(text, cats)
    rest = _KEY_AFTER.sub(" ", rest)
    rest = _KEY_IN_PARENS.sub(lambda m: " " if m.group(1) in keys else m.group(0), rest)
    rest = _IDENT.sub(" ", rest)
    # a key of the format or a TOML literal standing alone among Chinese words (把 initial 改为 true) is a code;
    # English prose comes in phrases of several words
    rest = re.sub(r"[A-Za-z_]+(?:[ ]+[A-Za-z_]+)*",
                  lambda m: " " if m.group(0) in keys | {"true", "false"} else m.group(0), rest)
    keep = set(allowed) | PROPER
    return reprs + [w for w in re.findall(r"[A-Za-z]{3,}", rest) if w not in keep]


def internal_ids(text: str, cats=()) -> list[str]:
    """Ids of the catalogues (characters, skills, grants, cards; gives sites ``giver#k``) shown to people, where
    their names should be: any language."""
    text = visible(text)
    for p in _PATTERNS:
        text = p.sub(" ", text)
    ids = {i for cat in cats for t in (cat.skills, cat.cards, cat.characters) for i, x in t.items() if x.name != i}
    found = [m.group(0) for m in re.finditer(r"[A-Za-z][\w]*#\d+", text)]
    return found + sorted(i for i in ids if re.search(r"(?<![\w#])" + re.escape(i) + r"(?![\w#])", text))


def python_reprs(text: str) -> list[str]:
    return [m.group(0) for m in REPRS.finditer(visible(text))]


def cjk_lines(text: str, cats=()) -> list[str]:
    """Lines of an en output that hold CJK characters besides the catalogues' own texts."""
    text = visible(text)
    for n in catalogue_texts(cats):
        text = text.replace(n, "")
    return [line for line in text.splitlines() if _CJK.search(line)]
