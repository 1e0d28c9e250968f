"""Two extractions of the same server, before and after a change: what became readable, what stopped being
readable, and which engine rules changed.

Code that becomes readable to the extractor (a refactor that turns a condition it could not translate into one
it can, a marker it now knows) changes the extracted catalogue without changing the game. ``reconcile`` finds
every such place — a field ``unknown`` (or written by default because it was not decided) in BASE and decided
in HEAD, where HEAD's value is what BASE's pattern allows — and gives BASE the value HEAD reads, so a
comparison of the two catalogues sees only real changes; each place is listed as *newly understood*. The
reverse (decided in BASE, unknown in HEAD) is listed as *no longer understood* and left alone: ``unknown`` is
free, so a comparison reports what it might change.

Engine rules are compared here too: a ``[rules]`` key or a named engine rule whose value differs is an engine
change; one read in HEAD only is newly understood; one read in BASE only is an engine change (the gate can no
longer vouch for it) and HEAD's catalogue keeps BASE's value for the comparison of decisions.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .. import expr as E
from ..catalogue import Catalogue
from .engine import show_value


@dataclass(frozen=True)
class Understood:
    id: str             # rule id, [rules] key or engine rule name
    field: str          # fight, dying, draw, receive.must, receive.cannot, send, initial, convert, ban, args, engine
    change: str         # "newly understood" | "no longer understood"
    base: str           # the value in BASE, as text
    head: str           # the value in HEAD, as text
    where: str = ""     # file:line in the sources where HEAD (or BASE, when no longer understood) has it

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class EngineChange:
    name: str           # [rules] key or engine rule name
    key: bool           # a [rules] key (modelled) or a named engine rule (not modelled)
    base: object        # None when BASE's code was not read
    head: object        # None when HEAD's code is not read
    where: str          # file:line in HEAD's sources ('' when HEAD has no such code)
    how: str            # what HEAD's code says (or why it is not read)

    def message(self) -> str:
        kind = "[rules] " if self.key else "engine rule "
        if self.base is None:
            return f"{kind}{self.name}: new in HEAD (BASE has no such code): {show_value(self.head)} ({self.how})"
        if self.head is None:
            return (f"{kind}{self.name}: no longer read from the server's code (was {show_value(self.base)}); "
                    f"{self.how}")
        if isinstance(self.base, tuple) and isinstance(self.head, tuple) and max(len(self.base), len(self.head)) > 3:
            gone = [str(x) for x in self.base if x not in self.head]
            came = [str(x) for x in self.head if x not in self.base]
            parts = ([f"no longer: {'; '.join(gone)}"] if gone else []) + ([f"now: {'; '.join(came)}"] if came else [])
            return f"{kind}{self.name}: " + (". ".join(parts) or "the same clauses in another order") + f" ({self.how})"
        return f"{kind}{self.name}: {show_value(self.base)} → {show_value(self.head)} ({self.how})"


@dataclass
class Reconciled:
    base: Catalogue                 # BASE's catalogue, with what HEAD newly understands taken from HEAD
    head: Catalogue                 # HEAD's catalogue, with [rules] keys it no longer reads taken from BASE
    understood: list                # of Understood
    engine: list                    # of EngineChange


_EXPR_FIELDS = ("fight", "dying", "draw")


def reconcile(base_ex, head_ex) -> Reconciled:
    """``base_ex`` and ``head_ex`` are Extractions (with loaded catalogues) of two revisions."""
    bcat, hcat = base_ex.catalogue, head_ex.catalogue
    items: list[Understood] = []
    b_und = _undecided(base_ex)
    h_und = _undecided(head_ex)
    new_skills = dict(bcat.skills)
    for rid, b in bcat.skills.items():
        h = hcat.skills.get(rid)
        if h is None or h.is_grant != b.is_grant:
            continue
        where = head_ex.locations.get(rid, "")
        repl = {}
        for f in _EXPR_FIELDS:
            v = _expr_change(rid, f, getattr(b, f), getattr(h, f), where, items)
            if v is not None:
                repl[f] = v
        if b.receive is not None and h.receive is not None:
            parts = {}
            for f in ("must", "cannot"):
                v = _expr_change(rid, f"receive.{f}", getattr(b.receive, f), getattr(h.receive, f), where, items)
                if v is not None:
                    parts[f] = v
            if parts:
                repl["receive"] = dataclasses.replace(b.receive, **parts)
        if b.send is not None and h.send is not None:
            v = _expr_change(rid, "send", b.send.rule, h.send.rule, where, items)
            if v is not None:
                repl["send"] = dataclasses.replace(b.send, rule=v)
        for f, attrs in (("initial", ("initial",)), ("convert", ("convert",)), ("ban", ("ban", "params"))):
            if (f, rid) in b_und and (f, rid) not in h_und:
                if any(_meaning(getattr(b, a)) != _meaning(getattr(h, a)) for a in attrs):
                    items.append(Understood(rid, f, "newly understood", _show(getattr(b, attrs[0])),
                                            _show(getattr(h, attrs[0])), where))
                    repl.update({a: getattr(h, a) for a in attrs})
            elif (f, rid) in h_und and (f, rid) not in b_und and \
                    any(_meaning(getattr(b, a)) != _meaning(getattr(h, a)) for a in attrs):
                items.append(Understood(rid, f, "no longer understood", _show(getattr(b, attrs[0])),
                                        _show(getattr(h, attrs[0])), head_ex.locations.get(rid, "")))
        gives = _gives_change(rid, b, h, b_und, h_und, where, items)
        if gives is not None:
            repl["gives"] = gives
        if repl:
            new_skills[rid] = dataclasses.replace(b, **repl)
    new_cards = dict(bcat.cards)
    for cid, b in bcat.cards.items():
        h = hcat.cards.get(cid)
        if h is not None:
            gives = _gives_change(cid, b, h, b_und, h_und, head_ex.locations.get(cid, ""), items)
            if gives is not None:
                new_cards[cid] = dataclasses.replace(b, gives=gives)
    # engine rules
    engine, b_rules, h_rules = [], {}, {}
    for name in sorted(set(base_ex.engine) | set(head_ex.engine)):
        b, h = base_ex.engine.get(name), head_ex.engine.get(name)
        bv = b.value if b is not None else None
        hv = h.value if h is not None else None
        key = (b or h).key
        if bv == hv:
            continue
        if bv is None:
            if b is None and not key:
                continue                              # a send path that did not exist: not a change
            if b is not None and b.absent:            # the engine gained the construct: a real change
                engine.append(EngineChange(name, key, None, hv, h.where, h.how))
            else:
                items.append(Understood(name, "engine", "newly understood", "unknown", show_value(hv), h.where))
            if key:
                b_rules[name] = _loaded(hcat, name, hv)
            continue
        if hv is None and not key and h is None:
            continue                                  # a named path that is gone (renamed or removed)
        engine.append(EngineChange(name, key, bv, hv, h.where if h else "", h.how if h else "no such code"))
        if hv is None and key:
            h_rules[name] = _loaded(bcat, name, bv)
    base = _rebuild(bcat, new_skills, new_cards, b_rules)
    head = _rebuild(hcat, dict(hcat.skills), dict(hcat.cards), h_rules)
    return Reconciled(base, head, items, engine)


def _loaded(cat: Catalogue, key: str, value):
    """The ``[rules]`` value ``key`` as the catalogue ``cat`` loaded it (an expression key — ``send_dir``,
    ``send_lock`` — is read as text by the extractor and parsed by the loader: the side that read it carries its
    parsed value, never the text, into the side that did not)."""
    loaded = getattr(cat.rules, key, value)
    return loaded if isinstance(value, str) and isinstance(loaded, E.Node) else value


def _undecided(ex) -> set:
    """(kind, rule id) of the undecided items of an extraction that concern one rule's table."""
    return {(i.kind, i.subject) for i in ex.report if i.undecided}


def _has_unknown(node) -> bool:
    return node is not None and any(isinstance(n, E.Unknown) for n in E.walk(node))


def refines(p, c) -> bool:
    """Whether ``c`` is ``p`` with each ``unknown`` of ``p`` replaced by something (locations ignored): an
    expression, or any catalogue value made of lists, dicts and dataclasses (checks/diff_untold.py reads it too)."""
    if isinstance(p, E.Unknown):
        return True
    if type(p) is not type(c):
        return False
    if isinstance(p, (list, tuple)):
        return len(p) == len(c) and all(refines(a, b) for a, b in zip(p, c))
    if isinstance(p, dict):
        return p.keys() == c.keys() and all(refines(p[k], c[k]) for k in p)
    if dataclasses.is_dataclass(p):
        return all(refines(getattr(p, f.name), getattr(c, f.name)) for f in dataclasses.fields(p)
                   if f.name not in ("col", "type", "key", "loc", "key_locs"))
    return p == c


def _expr_change(rid, field, b, h, where, items):
    """HEAD's expression when it refines BASE's (newly understood); None otherwise."""
    if b is None or h is None or E.to_text(b) == E.to_text(h):
        return None
    if _has_unknown(b) and not _has_unknown(h) and refines(b, h):
        items.append(Understood(rid, field, "newly understood", E.to_text(b), E.to_text(h), where))
        return h
    if _has_unknown(h) and not _has_unknown(b) and refines(h, b):
        items.append(Understood(rid, field, "no longer understood", E.to_text(b), E.to_text(h), where))
    return None


def _meaning(v):
    return repr(_strip(v))


def _strip(v):
    if isinstance(v, (E.Node, E.Lambda)):
        return E.to_text(v)
    if dataclasses.is_dataclass(v):
        return tuple((f.name, _strip(getattr(v, f.name))) for f in dataclasses.fields(v) if f.name != "loc")
    if isinstance(v, dict):
        return tuple(sorted((k, _strip(x)) for k, x in v.items()))
    if isinstance(v, (list, tuple)):
        return tuple(_strip(x) for x in v)
    return v


def _show(v) -> str:
    if v is None:
        return "none"
    if isinstance(v, bool):
        return str(v).lower()
    if hasattr(v, "source"):                          # a conversion
        return f"{v.source} → [{', '.join(str(t) for t in v.targets)}]{' (must)' if v.must else ''}"
    if hasattr(v, "cards") and hasattr(v, "all"):     # a ban
        cards = str(v.cards) if not isinstance(v.cards, tuple) else "[" + ", ".join(str(c) for c in v.cards) + "]"
        return f"cards {cards}, all {v.all if not isinstance(v.all, bool) else str(v.all).lower()}"
    return str(v)


def _gives_change(gid, b, h, b_und, h_und, where, items):
    """BASE's grant sites with arguments BASE left free (undecided) and HEAD decides taken from HEAD."""
    if ("args", gid) not in b_und or not b.gives:
        return None
    out, changed = [], False
    for g in b.gives:
        hg = next((x for x in h.gives if x.grant == g.grant and x.to == g.to), None)
        if hg is not None:
            extra = {k: v for k, v in hg.args.items() if k not in g.args}
            if extra and all(g.args.get(k) == v for k, v in hg.args.items() if k in g.args):
                items.append(Understood(gid, "args", "newly understood", _args(g.args), _args(hg.args), where))
                g = dataclasses.replace(g, args=dict(hg.args))
                changed = True
        out.append(g)
    return out if changed else None


def _args(a: dict) -> str:
    return "{" + ", ".join(f"{k} = {show_value(tuple(v) if isinstance(v, list) else v)}" for k, v in sorted(a.items())) \
        + "}"


def _rebuild(cat: Catalogue, skills: dict, cards: dict, rules: dict) -> Catalogue:
    r = cat.rules
    if rules:
        r = dataclasses.replace(r, **{k: (tuple(v) if isinstance(v, (list, tuple)) else v) for k, v in rules.items()})
    if skills == cat.skills and cards == cat.cards and r is cat.rules:
        return cat
    return Catalogue(rules=r, cards=cards, characters=cat.characters, skills=skills, files=cat.files)
