"""What one reading of the effect reader becomes in the catalogue (mixed into the extractor): ``do``, ``requires``,
``on.when`` and ``whose``, ``limit``, ``flips`` — each expression type-checked in its scope (what does not check is
``unknown``), with the Kotlin line of each key kept for the gate (``key_lines``)."""
from __future__ import annotations

import re

from .. import effects as X
from .. import events as EV
from .. import expr as E
from .. import vocab as V
from .conds import conj, normalise
from .effect_values import Reading

class EffectKeys:
    """Mixed into the extractor: a reading (``Reading``) turned into catalogue keys — ``do``, ``requires``, ``on.when``,
    ``limit``, ``flips`` — each expression type-checked in its scope (what does not check is ``unknown``, noted),
    with the Kotlin line of each key kept for the gate (``key_lines``)."""

    def _effect_keys(self, e: dict, rd: Reading, kind: str):
        """``kind``: skill | card. Sets the keys on the entry ``e`` and returns {key path: "file:line"}."""
        lines: dict = {}
        on = e.get("on") or []
        if rd.whens and on and len(rd.whens) == len(on):
            for i, (o, w) in enumerate(zip(on, rd.whens)):
                w = normalise(w)
                whose = _whose_of(w, EV.EVENT_KINDS[o["event"]])
                if whose is not None:                  # who the holder is, as the translated guard says it
                    if whose == "any":
                        o.pop("whose", None)
                    else:
                        o["whose"] = whose
                text = self._checked(_drop_whose(w, o.get("whose", "any")), "on", on=[o], params=e.get("params", {}))
                if text != "true":
                    o["when"] = text
                else:
                    o.pop("when", None)
                if i < len(rd.when_lines):
                    lines[("on", i)] = rd.when_lines[i]
        ons = [_On(o["event"]) for o in on]
        ops, op_lines = [], []
        gives = {g["grant"] for g in e.get("gives") or []}
        closure = e.get("closure", ())
        binds: dict = {}                              # the names ops give what they moved (``as``), in op order
        for op, line in zip(rd.ops, rd.lines):
            if kind == "skill" and "ActiveSkill" in closure and op.get("op") == "flip" and op.get("who") == "self" \
                    and op.get("face") == "up" and "if" not in op and not ops:
                e["flips"] = True                     # turning the role face up as it is used: ``flips``
                lines[("flips",)] = line
                continue
            op = self._checked_op(_public(op), ons, gives, e.get("params", {}), binds)
            if op is not None:
                if isinstance(op.get("as"), str) and op["op"] in X.BINDS:
                    binds[op["as"]] = X.BINDS[op["op"]]
                ops.append(op)
                op_lines.append(line)
        if ops:
            e["do"] = ops
            for i, ln in enumerate(op_lines):
                lines[("do", i)] = ln
        if rd.conds and (kind == "card" or "ActiveSkill" in closure):
            text = self._checked(normalise(conj(rd.conds)), "do", on=[])
            if text != "true":
                e["requires"] = text
                if rd.cond_lines:
                    lines[("requires",)] = rd.cond_lines[0]
                if kind == "card" and _reads_target(text):
                    # canUse tests its target argument: the card has a target (the loader refuses a requires that
                    # reads the target of a card with none); which one, its requires says
                    e["target"] = "any"
                    if rd.cond_lines:
                        lines[("target",)] = rd.cond_lines[0]
        if kind == "card" and rd.target_when:
            # canUse checks its target in some windows only: ``target.when``, window by window
            when = {w: self._checked(normalise(conj(cs)), "do", on=[]) for w, cs in sorted(rd.target_when.items())}
            e["target"] = {"who": "any", "when": when}
            lines[("target",)] = rd.target_lines[0]
        if kind == "skill" and e.get("consumed") and "ActiveSkill" in closure:
            e["limit"] = "game"
        elif kind == "skill" and rd.used and _tests_used(e):
            e["limit"] = "turn"
        e["reads"] = dict(rd.reads)
        return lines

    def _scope(self, context, on, params, binds=None):
        ons = tuple(_On(o["event"]) for o in on)
        if context == "on":
            k = ons[0].kind
            return E.Scope("on", self.universe, dict(params), ("self",) + k.role_names, k.word_types)
        return E.Scope("do", self.universe, dict(params), X.players_of(ons), {**X.words_of(ons), **(binds or {})})

    def _checked(self, text, context, on, params=None, want=V.BOOL, binds=None) -> str:
        try:
            node = E.parse(text)
            E.check(node, self._scope(context, on, params or {}, binds), want)
            return text
        except E.ExprError:
            return "unknown"
        except (KeyError, IndexError):                       # pragma: no cover - a scope without an event
            return "unknown"

    def _checked_op(self, op: dict, ons, gives: set, params, binds=None):
        """An op the loader reads: players of the moment, a grant the rule hands out, expressions that check."""
        spec = X.OPS.get(op.get("op"))
        if spec is None:
            return None
        players = X.players_of(tuple(ons)) + X.PLAYER_SETS
        out = {"op": op["op"]}
        on = [{"event": o.key} for o in ons]
        for a in spec.args:
            if a.name not in op:
                continue
            v = op[a.name]
            if a.type == X.PLAYER:
                if v not in players:
                    return {"op": "prose", "note": f"{spec.en}: a player the catalogue has no word for"}
            elif a.type == X.AMOUNT and isinstance(v, str):
                v = self._checked(v, "do", on, params, want=V.INT, binds=binds)
                if v == "unknown":
                    continue
            elif a.type == X.GRANT and v not in gives:
                return {"op": "prose", "note": f"hands out {v}"}
            elif a.type == X.OPTIONS:
                alts = []
                for alt in v:
                    got = [x for x in (self._checked_op(o, ons, gives, params, binds) for o in alt) if x is not None]
                    if got:
                        alts.append(got)
                if not alts:
                    return None
                v = alts
            out[a.name] = v
        if op["op"] == "choose" and len(out.get("of", [])) == 1:
            out["may"] = True
        if "if" in op:
            c = self._checked(normalise(op["if"]), "do", on, params, binds=binds)
            out["if"] = c
        if op.get("may"):
            out["may"] = True
        if op["op"] == "prose":
            out["note"] = op.get("note") or "not translated"
        for a in spec.args:
            if a.required and a.name not in out:
                return {"op": "prose", "note": f"{spec.en}: {a.name} not read"}
        return out


class _On:
    """An ``on`` entry as model.effects reads it (``.kind``)."""

    def __init__(self, key):
        self.key = key
        self.kind = EV.EVENT_KINDS[key]


def _public(op):
    """An op as written: the reader's own marks (keys starting with ``_``) left out, in its alternatives too."""
    if isinstance(op, list):
        return [_public(x) for x in op]
    if not isinstance(op, dict):
        return op
    return {k: _public(v) for k, v in op.items() if not k.startswith("_")}


def _drop_whose(when: str, whose) -> str:
    """The guard without the test of who the holder is (``whose`` says it): ``sender == self and …`` → ``…``."""
    roles = [whose] if isinstance(whose, str) else list(whose)
    if roles == ["other"]:                    # the principal is someone else: said by ``whose``
        from .conds import _split_and
        return conj([p for p in _split_and(when) if not re.fullmatch(r"\w+ != self", p)])
    if roles in (["any"], ["self"]):
        return when
    from .conds import _split_and
    parts = _split_and(when)
    drop = {f"{roles[0]} == self"} if len(roles) == 1 else {
        "(" + " or ".join(f"{r} == self" for r in roles) + ")"}
    kept = [p for p in parts if p not in drop]
    return conj(kept)


def _whose_of(when: str, kind):
    """``whose`` from a guard's conjuncts: ``R == self`` (one role), ``(A == self or B == self)`` (either), ``P != self``
    for the event's principal P (``other``); ``any`` when none; None when the guard is not read."""
    from .conds import _split_and
    if "unknown" in when and when.strip() == "unknown":
        return None
    roles = set(kind.role_names)
    parts = _split_and(when)
    for p in parts:
        m = re.fullmatch(r"(\w+) == self", p)
        if m and m.group(1) in roles:
            return m.group(1)
        m = re.fullmatch(r"\((\w+ == self(?: or \w+ == self)+)\)", p)
        if m:
            rs = re.findall(r"(\w+) == self", m.group(1))
            if all(r in roles for r in rs) and len(set(rs)) == len(rs):
                return rs
    for p in parts:
        m = re.fullmatch(r"(\w+) != self", p)
        if m and m.group(1) == kind.principal:
            return "other"
    return "any"


def _tests_used(e: dict) -> bool:
    texts = [e.get("requires", "")] + [o.get("when", "") for o in e.get("on") or []] + [
        str(e.get("fight", ""))] + [str(op.get("if", "")) for op in e.get("do") or []]
    return any(re.search(r"\bnot used\b", t or "") for t in texts)


def _reads_target(text: str) -> bool:
    """Does a condition text read the player ``target`` (or a neighbour of him)?"""
    try:
        node = E.parse(text)
    except E.ExprError:
        return False
    return any(isinstance(x, E.Var) and x.role in ("player", "") and (x.name == "target" or x.name.startswith("target_"))
               for x in E.walk(node))
