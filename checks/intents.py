"""The catalogue's ``[[intent]]`` tables as questions, and what they say about generic findings.

An intent is a promise of the rule book written as a yes/no question of the ask language (``checks/ask``):
``never anyone use 诱敌深入 in another player's turn``. The loader (model layer) reads its keys; this module
parses its claim with the ask parser — a claim that does not parse is a catalogue error at the claim's line,
with the parser's column message — and applies ``intends``: a generic finding an intent documents as designed
behaviour is linked to it (``details["intended_by"]``) and reported as a note.
"""
from __future__ import annotations

import dataclasses

from skillproof.model.loader import CatalogueError
from skillproof.model.msg import Msg

from .ask import Names, QueryError, parse
from .ask.errors import at_word
from .ask.syntax import Query
from .registry import RUN_CODES, all_codes

#: the codes of the intent family itself: never marked as designed behaviour
OWN_CODES = ("IN001", "IN002")


def parse_claim(cat, intent, names: Names | None = None) -> Query:
    """The intent's claim as a Query (a located QueryError if it is not a yes/no question)."""
    q = parse(cat, intent.claim, names)
    if q.mode == "which":
        raise QueryError(Msg("意图是一个是非问题（'can' / 'always' / 'never' …）：'which' 问题列出的是答案",
                             "an intent is a yes/no question (can / always / never …): a 'which' question lists "
                             "answers instead"), 0, max(1, len(intent.claim.split()[0]) if intent.claim.split() else 1))
    return q


def claim_error(intent, e: QueryError) -> CatalogueError:
    """``file:line: [claim] column N: message (at 'word')`` — the claim's line in the catalogue file (in both
    languages: ``str()`` renders it in the run's language)."""
    loc = intent.at("claim")
    word = Msg("", "")
    if 0 <= e.col < len(intent.claim):
        word = at_word(intent.claim[e.col:e.end].strip() or intent.claim[e.col])
    return CatalogueError(loc.file, loc.line, "claim", Msg("第 {col} 列：{m}{w}", "column {col}: {m}{w}", col=e.col + 1,
                                                           m=e.text, w=word))


#: the last catalogue's claims, parsed once per catalogue and language: `check` reads them before its lanes fork
#: (cli/common.load_or_report: a claim that does not parse stops the run) and the intent family, in its lane,
#: asks them — a lane is a fork, so it finds them here instead of parsing every claim again
_LAST_CLAIMS: list = []


def claims(cat) -> tuple[dict, list[str]]:
    """({intent id: Query}, located problems) for every intent of the catalogue."""
    from skillproof.model.lang import current
    key = (current(), tuple((it.id, it.claim) for it in cat.intents))
    if _LAST_CLAIMS and _LAST_CLAIMS[0] is cat and _LAST_CLAIMS[1] == key:
        out, bad = _LAST_CLAIMS[2]
        return dict(out), list(bad)
    names = Names(cat) if cat.intents else None
    out, bad = {}, []
    for it in cat.intents:
        if not it.claim:
            continue                      # a citation: nothing to prove
        try:
            out[it.id] = parse_claim(cat, it, names)
        except QueryError as e:
            bad.append(claim_error(it, e))
    _LAST_CLAIMS[:] = [cat, key, (out, bad)]
    return dict(out), list(bad)


def problems(cat) -> list[CatalogueError]:
    """Located errors of the intents: claims that are not questions, ``intends`` naming unknown checks
    (messages in both languages, each ``file:line: [key] message``)."""
    if not cat.intents:
        return []
    from skillproof.model.names import did_you_mean, nearest
    _, bad = claims(cat)
    codes = set(all_codes())
    for it in cat.intents:
        loc = it.at("intends")
        for x in it.intends:
            if x.check in RUN_CODES or x.check in OWN_CODES:
                bad.append(CatalogueError(loc.file, loc.line, "intends", Msg(
                               "'{x}'：意图不能把{zw}写成设计如此", "'{x}': an intent cannot document {ew} as designed", x=str(x),
                               zw="无法判定的问题" if x.check in RUN_CODES else "被违反的意图",
                               ew="an undecided question" if x.check in RUN_CODES else "a broken intent")))
            elif x.check not in codes:
                hint = nearest(x.check, codes)
                bad.append(CatalogueError(loc.file, loc.line, "intends", Msg(
                    "未知的检查 '{c}'{dym}", "unknown check '{c}'{dym}", c=x.check,
                    dym=did_you_mean(f"'{hint}'") if hint else "")))
    return bad


def intended_by(cat, finding):
    """The first intent (in id order) that documents ``finding`` as designed behaviour, or None."""
    if finding.inconclusive or finding.check in OWN_CODES:
        return None
    rules = {r.id for r in finding.rules}
    for it in cat.intents:
        if any(x.matches(finding.check, finding.id, rules) for x in it.intends):
            return it
    return None


def link_intended(cat, findings) -> list:
    """Findings with every one an intent documents as designed turned into a note linked to that intent
    (``details["intended_by"]``: its id, source, text and file:line). Ids do not change (a baseline still
    matches them)."""
    out = []
    for f in findings:
        it = intended_by(cat, f)
        if it is None:
            out.append(f)
            continue
        d = dict(f.details)
        d["intended_by"] = intended_dict(it)
        if f.severity != "note":
            d["severity_without_intent"] = f.severity
        out.append(dataclasses.replace(f, severity="note", details=d))
    return out


def intended_dict(it) -> dict:
    return {"intent": it.id, "source": it.source, "text": it.text, "file": it.loc.file, "line": it.loc.line}


def is_intended(f) -> bool:
    """A finding some intent documents as designed (a Finding or its dict form)."""
    details = f.get("details") if isinstance(f, dict) else f.details
    return bool(details and details.get("intended_by"))
