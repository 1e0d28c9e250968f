"""The events a TriggeredSkill class answers (the catalogue's ``on``), read from its ``execute``: every
``findEvent<Kind>(this) { … }`` call in source order (``Game.findEvent``), and a read of the current state
(``fsm as? ReceivePhaseIdle``) for a skill that answers a phase rather than an event. Which player of the event the
holder is (``whose``) is read from the first statement of the guard lambda that only compares the asked player
with the event's players (``askWhom === event.sender``, ``askWhom === a || askWhom === b``, ``askWhom !== event.whoDie``);
any other statement of the guard is not translated: the entry's ``when`` is then ``unknown`` (free) and the report
says so."""
from __future__ import annotations

from .. import events as EV
from .classes import _Cls
from .syntax import _X, _conjuncts, _descendants, _ir, _kid, _lambda_parts, _t, _unparen

#: server class -> event kind; a state read -> kind
_BY_CLASS = {k.server: k for k in EV.EVENT_KINDS.values()}


def _field_roles(kind) -> dict:
    """The event's fields (Kotlin properties) -> role names."""
    return {r.server: r.name for r in kind.all_roles}


def _role_test(x: _X, asked: str, ev: str, fields: dict):
    """``asked === ev.F`` (or reversed) -> ('==', role); ``!==`` -> ('!=', role); else None."""
    x = _unparen(x)
    if x.k != "bin" or x.a[0] not in ("===", "!==", "==", "!="):
        return None
    sides = [_unparen(x.a[1]), _unparen(x.a[2])]
    for a, b in (sides, sides[::-1]):
        if a.k == "name" and a.a[0] == asked and b.k == "nav" and _unparen(b.a[0]).k == "name" \
                and _unparen(b.a[0]).a[0] == ev and b.a[1] in fields:
            return ("==" if x.a[0] in ("===", "==") else "!="), fields[b.a[1]]
    return None


def _says_whose(x: _X, asked: str, ev: str, kind, fields: dict):
    """``whose`` when ``x`` only compares the asked player with the event's players (a disjunction of ``===``, or
    one ``!==`` of the principal); None otherwise."""
    parts = [p for p in _conjuncts(x, "||") if p.n.type != "return_expression"]
    tests = [_role_test(p, asked, ev, fields) for p in parts]
    if not parts or any(t is None for t in tests):
        return None
    ops, roles = {t[0] for t in tests}, [t[1] for t in tests]
    if ops == {"=="} and len(set(roles)) == len(roles):
        return roles[0] if len(roles) == 1 else roles
    if ops == {"!="} and len(roles) == 1 and kind.principal == roles[0]:
        return "other"
    return None


def _whose(stmts, asked: str, ev: str, kind) -> tuple[list | str, bool]:
    """(whose, whether anything else remains in the guard) from the guard lambda's statements: the first statement
    that is such a test, or a conjunction (``&&``) one of whose parts is; a statement ``true`` tests nothing."""
    fields = _field_roles(kind)
    rest = [s for s in stmts if not (_ir(s).k == "lit" and _ir(s).a[0] is True)]
    for s in rest:
        conj = _conjuncts(_ir(s), "&&")
        for i, part in enumerate(conj):
            w = _says_whose(part, asked, ev, kind, fields)
            if w is not None:
                return w, len(conj) > 1 or len(rest) > 1
    return "any", bool(rest)


class TriggerEvents:
    """``_trigger_events`` reads the ``on`` entries of one TriggeredSkill class (needs ClassIndex's ``func``,
    ``note``)."""

    def _trigger_events(self, c: _Cls) -> list:
        owner, fd = self.func(c, "execute")
        if fd is None:
            self.note("trigger", c.name, c.at(), "no `execute` function: the events it answers are not known")
            return []
        params = [_t(_kid(p, "identifier")) for p in _descendants(_kid(fd, "function_value_parameters"), "parameter")] \
            if _kid(fd, "function_value_parameters") is not None else []
        asked = params[1] if len(params) > 1 else "askWhom"
        out = []
        for call in _descendants(fd, "call_expression"):
            kids = call.named_children
            if len(kids) != 2 or kids[0].type != "call_expression" or kids[1].type != "annotated_lambda":
                continue
            inner = kids[0].named_children
            nav = inner[0] if inner else None
            if nav is None or nav.type != "navigation_expression" or not _t(nav).endswith(".findEvent"):
                continue
            ta = _kid(kids[0], "type_arguments")
            cls = _t(ta).strip("<> ") if ta is not None else ""
            kind = _BY_CLASS.get(cls)
            where = (owner or c).src.at(call)
            if kind is None or not kind.is_event:
                self.note("trigger", c.name, where, f"findEvent<{cls}>: not an event class the catalogue knows")
                continue
            lam = _kid(kids[1], "lambda_literal")
            names, stmts = _lambda_parts(lam) if lam is not None else ([], [])
            whose, more = _whose(stmts, asked, names[0] if names else "it", kind)
            entry = {"event": kind.key}
            if whose != "any":
                entry["whose"] = whose
            if more:
                entry["when"] = "unknown"
                self.note("trigger", c.name, where, f"the guard of findEvent<{cls}> is not translated: when = unknown")
            out.append(entry)
        if not out and "as? ReceivePhaseIdle" in _t(fd):
            self.note("trigger", c.name, (owner or c).src.at(fd), "reads the receive phase (no event): when = unknown")
            out.append({"event": "receive_phase", "when": "unknown"})
        if not out:
            self.note("trigger", c.name, (owner or c).src.at(fd), "no findEvent call: the events it answers are not "
                      "known")
        return out
