"""What `extract` on the server's HEAD and the shipped catalogue say differently on the keys of issue 24 part 2 —
`on.when`, `requires`, `limit`, `flips`, the kinds of ops of `do`, the cards' printed copies (`deck`), and the
`[rules]` keys the extraction reads — computed the same way by the test
(tests/test_server_head.py) and by whoever refreshes the list of known differences
(tests/fixtures/server-head-differences.toml). Conditions are compared in one spelling (``conds.normalise``); `do`
by the kinds of op each side writes, `raise` and `ask_from` (what the shipped catalogue does not write) and `show`
(who sees a card: client messages, which the extractor does not read) left out."""
from __future__ import annotations

import collections

from skillproof.model.catalogue import deck_counts
from skillproof.model.effects_words import read_ops
from skillproof.model.extract.conds import normalise
from skillproof.model import expr as E

#: op kinds compared (the rest is said by one side only, by design: see the module's docstring)
NOT_COMPARED = frozenset({"raise", "ask_from", "show", "prose"})


def _kinds(ops) -> list:
    out = collections.Counter()
    for o in ops:
        if o.op in ("choose", "each", "repeat"):         # a choice's alternatives, a loop's body: the ops inside
            for alt in o.options:
                out.update(_kinds(alt))
        elif o.op not in NOT_COMPARED:
            out[o.op] += 1
    return sorted(out)


def differences(got, hand) -> dict:
    """key -> {id: "extracted | shipped"} for the rules and cards of the server on both sides."""
    out: dict = collections.defaultdict(dict)
    for rid, r in sorted(got.skills.items()):
        h = hand.skills.get(rid)
        if h is None or h.origin == "rulebook":
            continue
        for i, (a, b) in enumerate(zip(r.on, h.on)):
            ta, tb = normalise(a.text), normalise(b.text)
            if ta != tb:
                out["on.when"][f"{rid}[{i}]"] = f"{ta} | {tb}"
        ra = normalise(E.to_text(r.requires)) if r.requires is not None else ""
        rb = normalise(E.to_text(h.requires)) if h.requires is not None else ""
        if ra != rb:
            out["requires"][rid] = f"{ra} | {rb}"
        for key in ("limit", "flips"):
            if getattr(r, key) != getattr(h, key):
                out[key][rid] = f"{getattr(r, key)} | {getattr(h, key)}"
        ka, kb = _kinds(read_ops(r.do)), _kinds(read_ops(h.do))
        if ka != kb:
            out["do"][rid] = f"{', '.join(ka)} | {', '.join(kb)}"
    for cid, c in sorted(got.cards.items()):
        h = hand.cards.get(cid)
        if h is None:
            continue
        ra = normalise(E.to_text(c.requires)) if c.requires is not None else ""
        rb = normalise(E.to_text(h.requires)) if h.requires is not None else ""
        if ra != rb:
            out["requires"][cid] = f"{ra} | {rb}"
        ka, kb = _kinds(read_ops(c.do)), _kinds(read_ops(h.do))
        if ka != kb:
            out["do"][cid] = f"{', '.join(ka)} | {', '.join(kb)}"
        if deck_counts(c.deck) != deck_counts(h.deck):       # the printed copies (card/Deck.kt), as a multiset
            out["deck"][cid] = f"{len(c.deck)} entries | {len(h.deck)} entries"
    return {k: dict(v) for k, v in sorted(out.items())}


def _send_table(node) -> tuple:
    """A send-context condition's truth table over every direction, declared direction, lock count 0-3 and lock mark
    (so two spellings of one rule compare equal)."""
    from skillproof.model.catalogue import Catalogue, Rules
    from skillproof.model.interp.core import Env, evaluate
    out = []
    for d in ("up", "left", "right"):
        for md in ("up", "left", "right"):
            for lc in range(4):
                for lock in (False, True):
                    env = Env(Catalogue(Rules(), {}, {}, {}), None, {}, {}, {"dir": d, "message_dir": md, "lock_count": lc,
                                                          "message_lockable": lock, "message": frozenset()})
                    out.append(bool(evaluate(node, env)))
    return tuple(out)


def rules_differences(engine: dict, hand) -> dict:
    """[rules] key -> "extracted | shipped" for the keys the extraction read (``EngineRule.key`` with a value); the
    send rules (expressions) by what they allow."""
    out = {}
    for name, r in engine.items():
        if r.key and r.value is not None and name in ("send_dir", "send_lock"):
            from skillproof.model import expr as E
            node = E.parse(r.value)
            E.check(node, E.Scope("send", E.Universe(frozenset(), frozenset()), {}), "bool")
            if _send_table(node) != _send_table(getattr(hand.rules, name)):
                out[name] = f"{r.value} | {E.to_text(getattr(hand.rules, name))}"
            continue
        if r.key and r.value is not None:
            a = list(r.value) if isinstance(r.value, tuple) else r.value
            b = getattr(hand.rules, name)
            b = list(b) if isinstance(b, tuple) else b
            if (sorted(a) if isinstance(a, list) else a) != (sorted(b) if isinstance(b, list) else b):
                out[name] = f"{a} | {b}"
    return out
