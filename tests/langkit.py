"""Checks that a human-facing output is in one language (issue 13, item 5).

``english_leaks(text)`` — English prose words and Python reprs left in a Chinese (zh) output;
``cjk_leaks(text, cat)`` — CJK characters left in an English output once the catalogue's own names (characters,
skills, cards) and the intents' catalogue text (claims, texts, rule-book sources) are taken out.
"""
from __future__ import annotations

import re

#: labels and prose the zh output used to carry in English (before one language per run)
ENGLISH_LABELS = ["rules:", "witness:", "proved intents", "designed behaviour", "stale baseline", "changed decisions",
                  "resolved findings", " findings (", "failing at", "intended by", "the rule book", "can_play", "what happened", "seat ", "skills:", "question:", "fix:"]
REPRS = ["True", "False", "{'", "None"]

_CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")


def english_leaks(text: str, allowed=()) -> list[str]:
    out = [w for w in ENGLISH_LABELS if w in text and w not in allowed]
    out += [m.group(0) for m in re.finditer(r"(?m)^(error|warning|note) [A-Z]+\d+", text)]
    out += [w for w in REPRS if re.search(r"(?<![A-Za-z_])" + re.escape(w) + r"(?![A-Za-z_])", text)]
    return out


def catalogue_texts(cat) -> list[str]:
    """Every catalogue-written string an English output may quote, longest first."""
    names = [x.name for t in (cat.skills, cat.cards, cat.characters) for x in t.values()]
    for it in getattr(cat, "intents", []) or []:
        names += [getattr(it, "claim", "") or "", getattr(it, "text", "") or "", getattr(it, "source", "") or ""]
        names += [part.strip() for part in (getattr(it, "source", "") or "").replace(";", "›").split("›")]
    return sorted({n for n in names if n}, key=len, reverse=True)


def cjk_leaks(text: str, cat) -> list[str]:
    for n in catalogue_texts(cat):
        text = text.replace(n, "")
    return [line for line in text.splitlines() if _CJK.search(line)]
