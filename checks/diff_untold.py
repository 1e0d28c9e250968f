"""Catalogue differences no decision tells apart: a key of a rule or a card that reads differently in the two versions
(as the catalogue writes it, ``unknown`` and ``prose`` steps included) while neither the solver-backed diff nor the
rule comparison (``diff_rules``) claims it — the difference lies beside an ``unknown``, in a ``prose`` step or under an
``unknown`` condition, so what it changes in play cannot be said. Such a difference is never a pass: the gate names the
rule, the key and both values as an inconclusive finding (UNR002, the unread-code family: the extractor read the line,
but not its meaning).

Not a difference: the same value (locations left out), and a value that only became readable or unreadable — one
side's value is the other's with an ``unknown`` replaced (the reconciliation's *newly* / *no longer understood*)."""
from __future__ import annotations

import dataclasses
import hashlib
import re
from dataclasses import dataclass

from skillproof.model import expr as E
from skillproof.model.catalogue import Catalogue, Loc
from skillproof.model.effects_words import op_key
from skillproof.model.events import dispatched
from skillproof.model.extract.understood import refines

from .diff_meaning import same_key

#: what an entry says about itself rather than about play, and what the loader derives
_NOT_COMPARED = frozenset({"id", "name", "loc", "key_locs", "closure", "aliases", "text", "origin", "together"})
#: keys whose difference a rule comparison or a decision can claim only by naming the key itself (``diff_rules``)
KEYED = frozenset({"on", "requires", "do", "limit", "flips", "deck"})


@dataclass(frozen=True)
class Untold:
    id: str            # the rule or card (NEW's id)
    key: str           # the catalogue key that differs
    old: str           # its value in OLD, as the catalogue writes it ("" when absent)
    new: str
    side: str          # "new" / "old": where the key is located (old when NEW no longer has it)
    is_card: bool = False

    @property
    def ident(self) -> str:
        return hashlib.sha1(f"{self.id}|{self.key}|{self.old}|{self.new}".encode("utf-8")).hexdigest()[:10]


def untold(old: Catalogue, new: Catalogue, claimed_keys: set, claimed_ids: set, renamed: dict | None = None,
           same_name=None) -> list:
    """The differences of rules and cards present in both versions that nothing claims, in id and key order.

    ``claimed_keys``: (id, key) a rule comparison names; ``claimed_ids``: ids a changed decision, a situation possible
    in one version or a new finding names (they claim every key but those of ``KEYED``); ``same_name(old, new)``:
    whether a name of OLD is one of NEW renamed throughout the code base (a prose note naming a renamed method)."""
    renamed = renamed or {}
    out = []
    pairs = [(rid, old.skills.get(renamed.get(rid, rid)), r, False) for rid, r in sorted(new.skills.items())]
    pairs += [(cid, old.cards.get(cid), c, True) for cid, c in sorted(new.cards.items())]
    for rid, o, n, is_card in pairs:
        if o is None:
            continue
        for f in dataclasses.fields(n):
            k = f.name
            if k in _NOT_COMPARED or (rid, k) in claimed_keys or (k not in KEYED and rid in claimed_ids):
                continue
            a, b = getattr(o, k, None), getattr(n, k, None)
            ta, tb = text(a), text(b)
            if ta == tb or _refines(a, b) or _refines(b, a) or (same_name and _renamed(ta, tb, same_name)):
                continue
            if k in ("on", "requires") and same_key(k, a, b, _asked_alive(o, n)):
                continue                                # the same guards in meaning (``diff_meaning``)
            if k == "do" and isinstance(a, tuple) and isinstance(b, tuple) and \
                    text(events_last(a)) == text(events_last(b)):
                continue                                # an event raised before or after a card moved
            out.append(Untold(rid, k, ta, tb, "new" if _present(b) else "old", is_card))
    return out


#: effects that move cards or turn a face and resolve nothing: an event queued beside one of them (under the same
#: condition: one block of the server's code) is dealt at the same moment, after both
_QUIET_OPS = frozenset({"draw", "discard", "give", "take", "show", "put_message", "remove_message", "flip"})


def events_last(ops: tuple) -> tuple:
    """``ops`` with each ``raise`` moved after the card movements that follow it under the same condition: the event
    queue is read only when the listeners are dealt, after the effect, so the order of the two is no rule. The events
    keep their order among themselves."""
    out = list(ops)
    moved = True
    while moved:
        moved = False
        for i in range(len(out) - 1):
            x, y = out[i], out[i + 1]
            if getattr(x, "op", "") == "raise" and getattr(y, "op", "") in _QUIET_OPS and \
                    text(getattr(x, "cond", None)) == text(getattr(y, "cond", None)):
                out[i], out[i + 1] = y, x
                moved = True
    return tuple(out)


def _asked_alive(*rules) -> bool:
    """Whether skills are asked only while their holder lives (initial skills but BeforeDieSkills, on both sides:
    ``model.events.dispatched``)."""
    return all(hasattr(r, "has") and hasattr(r, "initial") for r in rules) and not any(
        dispatched(False, r.has("BeforeDieSkill"), r.initial) for r in rules)


def _canon(n):
    """An expression in one of its equal spellings: ``if not c then a else b`` is ``if c then b else a`` and ``not not
    x`` is ``x`` (the same value for every state: a rewrite between them is no difference)."""
    if isinstance(n, E.Lambda) or not isinstance(n, E.Node) or not dataclasses.is_dataclass(n):
        return dataclasses.replace(n, body=_canon(n.body)) if isinstance(n, E.Lambda) and hasattr(n, "body") else n
    if isinstance(n, E.Unary) and n.op == "not" and isinstance(n.arg, E.Unary) and n.arg.op == "not":
        return _canon(n.arg.arg)
    if isinstance(n, E.If) and isinstance(n.cond, E.Unary) and n.cond.op == "not":
        return dataclasses.replace(n, cond=_canon(n.cond.arg), then=_canon(n.other), other=_canon(n.then))
    changes = {}
    for f in dataclasses.fields(n):
        x = getattr(n, f.name)
        if isinstance(x, (E.Node, E.Lambda)):
            y = _canon(x)
            if y is not x:
                changes[f.name] = y
        elif isinstance(x, list) and any(isinstance(i, E.Node) for i in x):
            ys = [_canon(i) for i in x]
            if any(a is not b for a, b in zip(ys, x)):
                changes[f.name] = ys
    return dataclasses.replace(n, **changes) if changes else n


def _renamed(a: str, b: str, same_name) -> bool:
    """Whether two texts differ only by names ``same_name`` pairs."""
    ta, tb = re.split(r"([A-Za-z_]\w*)", a), re.split(r"([A-Za-z_]\w*)", b)
    if len(ta) != len(tb) or ta[0::2] != tb[0::2]:
        return False
    return all(x == y or same_name(x, y) for x, y in zip(ta[1::2], tb[1::2]))


def _present(v) -> bool:
    return v not in (None, (), [], {}, "")


def text(v) -> str:
    """A value as the catalogue writes it, locations left out (``do``: its steps, ``prose`` with its note)."""
    if v is None:
        return ""
    if isinstance(v, (E.Node, E.Lambda)):
        return E.to_text(_canon(v))
    if isinstance(v, Loc):
        return ""
    if dataclasses.is_dataclass(v) and hasattr(v, "op") and hasattr(v, "args"):        # an effect step
        return op_key(v) + (f" ({v.note})" if v.op == "prose" and v.note else "")
    if dataclasses.is_dataclass(v):
        parts = [f"{f.name}={text(getattr(v, f.name))}" for f in dataclasses.fields(v)
                 if f.name not in _NOT_COMPARED and text(getattr(v, f.name)) != ""]
        return "{" + ", ".join(parts) + "}"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}={text(x)}" for k, x in sorted(v.items(), key=lambda kv: str(kv[0]))) + "}"
    if isinstance(v, (list, tuple, frozenset, set)):
        items = [text(x) for x in v]
        if isinstance(v, (frozenset, set)):
            items.sort()
        return "[" + ", ".join(items) + "]"
    if isinstance(v, bool):
        return str(v).lower()
    return str(v)


def _refines(p, c) -> bool:
    """Whether ``c`` is ``p`` with some ``unknown`` of ``p`` replaced (``p`` holds one; locations left out)."""
    return has_unknown(p) and refines(p, c)


def has_unknown(v) -> bool:
    """Whether a catalogue value holds an ``unknown`` anywhere (an expression or a lambda, or lists, dicts and
    dataclasses of them; locations and the keys no comparison reads left out)."""
    if isinstance(v, E.Unknown):
        return True
    if isinstance(v, (E.Node, E.Lambda)):
        return any(isinstance(n, E.Unknown) for n in E.walk(v))
    if isinstance(v, (list, tuple)):
        return any(has_unknown(x) for x in v)
    if isinstance(v, dict):
        return any(has_unknown(x) for x in v.values())
    if dataclasses.is_dataclass(v) and not isinstance(v, Loc):
        return any(has_unknown(getattr(v, f.name)) for f in dataclasses.fields(v) if f.name not in _NOT_COMPARED)
    return False


