"""What a rule or a card now does differently: the keys the checks do not reason about yet but that say what happens in
play — ``do`` (the effect ops), ``on`` (the events a triggered skill answers and their guards), ``requires`` (what is
checked before a use), ``receive`` (who must or cannot take the message), ``limit`` and ``flips`` — compared between two catalogue versions, each difference one change
with one sentence in each language ("欲擒故纵 now: the holder draws 2 card(s) (before: … 1 card(s))").

The solver-backed diff (``checks.diff``) sees a rule's effect on the decisions it models; these keys are compared as
written: two versions that say the same thing in the condition language are equal, and a ``prose`` op (what is not
translated) is left out of the comparison — a change there is the unread-code check's (UNR001) to name."""
from __future__ import annotations

import difflib
import re
import hashlib
from dataclasses import dataclass, field

from skillproof.model import expr as E
from skillproof.model.catalogue import Catalogue, deck_counts
from skillproof.model.effects_words import op_key, op_words, read_ops
from skillproof.model.events import dispatched
from skillproof.model.expr_words import words
from skillproof.model.lang import pick

from .diff_meaning import same_condition
from .diff_text import both

#: the keys compared, in report order
KEYS = ("on", "requires", "target", "do", "receive", "limit", "flips", "deck")
LIMIT = {"none": ("不限次数", "no limit"), "turn": ("每回合限一次", "once a turn"), "game": ("每局限一次", "once a game")}


@dataclass
class RuleChange:
    id: str                   # the rule or card id (NEW's)
    key: str                  # on | requires | do | limit | flips
    path: tuple               # where in the entry: ("do", 2), ("on", 0), ("requires",) …
    side: str                 # "new" / "old": the version whose line shows it (old: it is gone)
    old: str                  # the old value as the catalogue writes it ("" when absent)
    new: str
    zh: str
    en: str
    loc: tuple = ("", 0)      # (file, line) in the version of ``side``
    is_card: bool = False
    extra: dict = field(default_factory=dict)

    @property
    def ident(self) -> str:
        h = hashlib.sha1(f"{self.key}|{self.old}|{self.new}".encode("utf-8")).hexdigest()[:10]
        return f"rule-{self.id}-{self.key}-{h}"


def rule_changes(old: Catalogue, new: Catalogue, renamed: dict | None = None) -> list[RuleChange]:
    """Every compared key that differs, for the rules and cards of both versions (``renamed``: NEW id -> OLD id)."""
    renamed = renamed or {}
    out: list[RuleChange] = []
    for rid, r in new.skills.items():
        o = old.skills.get(renamed.get(rid, rid))
        if o is not None:
            out += _rule(old, new, o, r)
    for cid, c in new.cards.items():
        o = old.cards.get(cid)
        if o is not None:
            out += _effects(old, new, o, c, cid, (), (), True)
            out += _target(old, new, o, c, cid)
            out += _deck(old, new, o, c, cid)
    return out


def _target_key(t) -> str:
    """A card's target as compared: whom, and the condition of each window (in one spelling)."""
    if t is None:
        return ""
    when = "; ".join(f"{w}: {_cond_key(t.when[w])}" for w in sorted(t.when))
    return f"{t.who}" + (f" when {when}" if when else "")


def _target(old, new, o, c, cid) -> list:
    """A card's target (``target``: whom, and per window the condition it meets) that changed where both versions read
    it (a condition holding ``unknown`` on either side is the unread checks' to name)."""
    a, b = getattr(o, "target", None), getattr(c, "target", None)
    if a is None or b is None:
        return []
    for t in (a, b):
        if any("unknown" in E.to_text(x) for x in t.when.values()):
            return []
    ka, kb = _target_key(a), _target_key(b)
    if ka == kb:
        return []
    name = new.name_of(cid)

    def one(cat, t):
        if not t.when:
            return {"any": pick("任一存活角色", "any living player"), "other": pick("另一名存活角色", "another living player"),
                    "none": pick("无目标", "no target")}.get(t.who, t.who)
        return "; ".join(f"{w}: {words(t.when[w], cat)}" for w in sorted(t.when))
    zh, en = both(lambda: pick(f"{name}的目标现在须满足：{one(new, b)}（原为：{one(old, a)}）",
                               f"{name}'s target must now meet: {one(new, b)} (before: {one(old, a)})"))
    loc = getattr(c, "key_locs", {}).get("target") or b.loc or c.loc
    return [RuleChange(cid, "target", ("target",), "new", ka, kb, zh, en, (loc.file, loc.line), True)]


def _deck(old, new, o, c, cid) -> list:
    """A card's printed copies that changed (only where both versions say its deck: one side without it says
    nothing)."""
    if not o.deck or not c.deck:
        return []
    a, b = deck_counts(o.deck), deck_counts(c.deck)
    if a == b:
        return []
    shown = {p.key: p for p in (*o.deck, *c.deck)}
    diff = sorted((k for k in set(a) | set(b) if a.get(k, 0) != b.get(k, 0)), key=repr)

    def text():
        name = new.name_of(cid)
        parts = [f"{shown[k].words()}: {a.get(k, 0)} → {b.get(k, 0)}" for k in diff[:4]]
        more = len(diff) - 4
        tail = pick(f"；另有 {more} 处", f"; {more} more") if more > 0 else ""
        return pick(f"牌堆中的{name}（印刷的张数）：" + "；".join(parts) + tail,
                    f"{name} in the deck (printed copies): " + "; ".join(parts) + tail)
    zh, en = both(text)
    first = next((p for p in c.deck if p.key == diff[0]), None)
    side = "new" if first is not None else "old"
    loc = (first or next((p for p in o.deck if p.key == diff[0]), None) or c).loc
    olds = "; ".join(f"{a.get(k, 0)} {shown[k].words()}" for k in diff)
    news = "; ".join(f"{b.get(k, 0)} {shown[k].words()}" for k in diff)
    return [RuleChange(cid, "deck", ("deck",), side, olds, news, zh, en, (loc.file, loc.line) if loc else ("", 0), True)]


def _rule(old, new, o, r) -> list:
    out = []
    # on: the events answered and their guards
    a, b = _on_keys(o.on), _on_keys(r.on)
    # an initial skill but a BeforeDieSkill is asked only while its holder lives (``dispatched``): its guards are
    # compared where the holder is alive (a holder-alive test beside it is no rule)
    alive = not any(dispatched(False, x.has("BeforeDieSkill"), x.initial) for x in (o, r))
    i = _on_changed(o.on, r.on, alive) if o.on and r.on else None     # nothing read on one side: UNR001's to say
    if i is not None:
        side = "new" if i < len(b) else "old"
        zh, en = both(_on_text, old, new, o, r, i)
        src = r if side == "new" else o
        on = src.on[i] if i < len(src.on) else None
        out.append(RuleChange(r.id, "on", ("on", i), side, "; ".join(a), "; ".join(b), zh, en,
                              (on.loc.file, on.loc.line) if on else (src.loc.file, src.loc.line)))
    out += _effects(old, new, o, r, r.id, o.on, r.on, False)
    out += _receive(new, o, r)
    if o.limit != r.limit:
        zh, en = both(lambda: pick(f"{new.name_of(r.id)}现在{_limit(r.limit)}（原为{_limit(o.limit)}）",
                                   f"{new.name_of(r.id)} is now used {_limit(r.limit)} (before: {_limit(o.limit)})"))
        loc = r.key_locs.get("limit") or r.loc
        out.append(RuleChange(r.id, "limit", ("limit",), "new", o.limit, r.limit, zh, en, (loc.file, loc.line)))
    if o.flips != r.flips:
        zh, en = both(lambda: pick(
            f"{new.name_of(r.id)}现在{'在使用时翻开持有者的角色牌' if r.flips else '使用时不再翻开持有者的角色牌'}",
            f"{new.name_of(r.id)} now {'turns its holder face up when used' if r.flips else 'no longer turns its holder face up when used'}"))
        loc = r.key_locs.get("flips") or r.loc
        out.append(RuleChange(r.id, "flips", ("flips",), "new", str(o.flips).lower(), str(r.flips).lower(), zh, en,
                              (loc.file, loc.line)))
    return out


def _receive(new, o, r) -> list:
    """``receive``: who must (or cannot) take the message in front of him while the rule is held — compared like a
    guard (``cond_changed``: what both sides read), so a condition changed where both read it is a change."""
    if o.receive is None or r.receive is None:
        return []
    out = []
    for part, zh_word, en_word in (("must", "必须接收", "must receive"), ("cannot", "不能接收", "cannot receive")):
        a, b = getattr(o.receive, part), getattr(r.receive, part)
        if a is None or b is None or not cond_changed(a, b):
            continue
        ta, tb = E.to_text(a), E.to_text(b)
        zh, en = both(lambda: pick(f"{new.name_of(r.id)}现在：情报面前的角色在 {tb} 时{zh_word}（原为 {ta}）",
                                   f"{new.name_of(r.id)} now: the player the message is in front of {en_word} it "
                                   f"when {tb} (before: {ta})"))
        loc = r.receive.loc or r.loc
        out.append(RuleChange(r.id, "receive", ("receive", part), "new", ta, tb, zh, en, (loc.file, loc.line)))
    return out


def _effects(old, new, o, r, rid, on_o, on_n, is_card) -> list:
    out = []
    ro = _cond_key(o.requires)
    rn = _cond_key(r.requires)
    if cond_changed(o.requires, r.requires) and not same_condition(o.requires, r.requires):
        def req():
            name = new.name_of(rid)
            was = words(o.requires, old) if o.requires is not None else pick("没有这项检查", "no such check")
            now = words(r.requires, new) if r.requires is not None else pick("没有检查", "no check")
            return pick(f"{name}现在只在{now}时能使用（原为：{was}）",
                        f"{name} can now be used only when {now} (before: {was})") if r.requires is not None else \
                pick(f"{name}不再检查：{was}", f"{name} no longer checks: {was}")
        zh, en = both(req)
        loc = (getattr(r, "key_locs", {}).get("requires") or r.loc) if r.requires is not None else \
            getattr(o, "key_locs", {}).get("requires") or o.loc
        out.append(RuleChange(rid, "requires", ("requires",), "new" if r.requires is not None else "old", ro, rn,
                              zh, en, (loc.file, loc.line), is_card))
    a = [x for x in read_ops(o.do) if "unknown" not in op_key(x)]        # an op not read whole: UNR001's
    b = [x for x in read_ops(r.do) if "unknown" not in op_key(x)]
    ka, kb = [op_key(x) for x in a], [op_key(x) for x in b]
    if ka != kb:
        sm = difflib.SequenceMatcher(None, ka, kb, autojunk=False)
        ops = [c for c in sm.get_opcodes() if c[0] != "equal"]
        tag, i1, i2, j1, j2 = ops[0]
        zh, en = both(_do_text, old, new, rid, a, b, on_o, on_n, ops)
        if j1 < len(b) and tag != "delete":
            x, side, idx = b[j1], "new", r.do.index(b[j1]) if b[j1] in r.do else j1
        else:
            x, side, idx = a[i1], "old", o.do.index(a[i1]) if a[i1] in o.do else i1
        out.append(RuleChange(rid, "do", ("do", idx), side, " | ".join(ka), " | ".join(kb), zh, en,
                              (x.loc.file, x.loc.line), is_card))
    else:
        out += _beside_unknown(old, new, o, r, rid, on_o, on_n, is_card)
    return out


def _fields(op) -> dict:
    """An op's parts as text, by field (its arguments, ``if``, ``may``, its alternatives)."""
    out = {}
    for k, v in op.args.items():
        out[k] = E.to_text(v) if isinstance(v, (E.Node, E.Lambda)) else str(v)
    if op.cond is not None:
        out["if"] = E.to_text(op.cond)
    out["may"] = str(bool(op.may))
    out["options"] = " | ".join("; ".join(op_key(x) for x in alt) for alt in op.options)
    return out


def _beside_unknown(old, new, o, r, rid, on_o, on_n, is_card) -> list:
    """The ops not read whole (a condition or a part ``unknown``) that changed only where both versions read them: op
    for op, every part holding ``unknown`` the same text on both sides, and a part read on both sides that differs
    (藏身教堂 drawing 2 instead of 1 under a condition not read) or the op's kind (试探's card discarded → taken by the
    user, under the same condition not read). Anything else there is the unread
    comparisons' (UNR001 / UNR002) to name."""
    fa, fb = read_ops(o.do), read_ops(r.do)
    if len(fa) != len(fb):
        return []
    changed = []
    for i, (x, y) in enumerate(zip(fa, fb)):
        if op_key(x) == op_key(y):
            continue
        a, b = _fields(x), _fields(y)
        for k in set(a) | set(b):
            va, vb = a.get(k, ""), b.get(k, "")
            if ("unknown" in va or "unknown" in vb) and va != vb:
                return []                                  # a part not read changed: nothing can be said of it
        changed.append(i)
    if not changed:
        return []
    ops = [("replace", i, i + 1, i, i + 1) for i in changed]
    zh, en = both(_do_text, old, new, rid, fa, fb, on_o, on_n, ops)
    x = fb[changed[0]]
    idx = r.do.index(x) if x in r.do else changed[0]
    return [RuleChange(rid, "do", ("do", idx), "new", " | ".join(op_key(fa[i]) for i in changed),
                       " | ".join(op_key(fb[i]) for i in changed), zh, en, (x.loc.file, x.loc.line), is_card)]


def _cond_key(node) -> str:
    """A condition as compared: in one spelling, its conjuncts that hold ``unknown`` (code not read) left out — a
    change there is the unread-code check's to name, not a change this comparison can claim."""
    from skillproof.model.extract.conds import _split_and, normalise
    if node is None:
        return ""
    return " and ".join(p for p in _split_and(normalise(E.to_text(node))) if "unknown" not in p)


def _conjuncts(node) -> tuple:
    """(conjuncts read, whether some conjunct is not read) of a condition, in one spelling."""
    from skillproof.model.extract.conds import _split_and, normalise
    if node is None:
        return frozenset(), False
    parts = _split_and(normalise(E.to_text(node)))
    return frozenset(p for p in parts if "unknown" not in p), any("unknown" in p for p in parts)


def cond_changed(a, b) -> bool:
    """Whether two conditions differ in what both sides read: a conjunct one side has and the other lacks counts
    only when the other side reads all of its own (else its ``unknown`` may be that very conjunct)."""
    ka, ua = _conjuncts(a)
    kb, ub = _conjuncts(b)
    only_a = ka - kb if not ub else frozenset()
    only_b = kb - ka if not ua else frozenset()
    if not (only_a or only_b) and ua and ub and len(ka - kb) == 1 and len(kb - ka) == 1:
        # beside an unknown on both sides: one read conjunct whose number changed in place (谨慎: a message of 2
        # colours → of 1) is a change; any other difference there may be the unknown's own
        x, y = next(iter(ka - kb)), next(iter(kb - ka))
        return re.sub(r"\b\d+\b", "#", x) == re.sub(r"\b\d+\b", "#", y)
    return bool(only_a or only_b)


def _on_keys(on) -> list:
    return [f"{x.event} whose={','.join(x.whose)} when={_cond_key(x.when)}" for x in on]


def _on_changed(a, b, alive: bool = False) -> int | None:
    """The first entry whose event, holder or guard changed (None when none did); ``alive``: the holder is alive
    wherever the guards are read."""
    for i in range(max(len(a), len(b))):
        if i >= len(a) or i >= len(b):
            return i
        x, y = a[i], b[i]
        if x.event != y.event or x.whose != y.whose or (
                cond_changed(x.when, y.when) and not same_condition(x.when, y.when, x.event, x.whose, alive)):
            return i
    return None


def _on_text(old, new, o, r, i) -> str:
    name = new.name_of(r.id)

    def one(cat, x):
        if x is None:
            return pick("不回应", "nothing")
        ev = pick(x.kind.zh, x.kind.en)
        whose = "" if x.whose == ("any",) else pick(f"（{'、'.join(x.whose)}）", f" ({', '.join(x.whose)})")
        cond = words(x.when, cat, event=x.event)
        return pick(f"“{ev}”{whose}，条件：{cond}", f"'{ev}'{whose} when {cond}")
    a = o.on[i] if i < len(o.on) else None
    b = r.on[i] if i < len(r.on) else None
    return pick(f"{name}现在回应{one(new, b)}（原为{one(old, a)}）", f"{name} now answers {one(new, b)} (before: {one(old, a)})")


def _do_text(old, new, rid, a, b, on_o, on_n, ops) -> str:
    name = new.name_of(rid)
    parts = []
    for tag, i1, i2, j1, j2 in ops[:3]:
        was = pick("，", ", ").join(op_words(x, old, on_o) for x in a[i1:i2])
        now = pick("，", ", ").join(op_words(x, new, on_n) for x in b[j1:j2])
        if tag == "replace":
            parts.append(pick(f"现在{now}（原为：{was}）", f"now {now} (before: {was})"))
        elif tag == "insert":
            parts.append(pick(f"现在还会{now}", f"now also: {now}"))
        else:
            parts.append(pick(f"不再{was}", f"no longer: {was}"))
    more = len(ops) - 3
    tail = pick(f"；另有 {more} 处改动", f"; {more} more change(s)") if more > 0 else ""
    return pick(f"{name}：" + "；".join(parts) + tail, f"{name}: " + "; ".join(parts) + tail)


def _limit(v) -> str:
    return pick(*LIMIT.get(v, (v, v)))


def entry(ch: RuleChange, old: Catalogue, new: Catalogue, where: tuple | None = None) -> dict:
    """A change as the report's decision changes list it (no witness: the rule itself says it), located at ``where``
    ((file, line): the server's Kotlin in the gate) or at the catalogue line."""
    file, line = where or ch.loc
    cat = new if ch.side == "new" else old
    name = cat.name_of(ch.id)
    return {"id": ch.ident, "decision": "rule", "message": ch.zh, "message_en": ch.en,
            "question": {"rule": ch.id, "key": ch.key}, "old": {ch.key: ch.old}, "new": {ch.key: ch.new},
            "values": {"old": ch.old, "new": ch.new}, "witness": None,
            "rules": [{"id": ch.id, "name": name, "file": file, "line": line, "change": "changed", "key": ch.key}]}
