"""What a question means on one concrete State, through the reference interpreter: the truth of its
atoms, claim and givens (a witness is replayed with these before it is shown), and the decide-form
questions that settle each atom in a scenario file."""
from __future__ import annotations

import itertools

from skillproof.model import interpreter as I
from skillproof.model import narrate as N
from skillproof.model.kinds import SEND_GROUPS
from skillproof.model.state import State

from .syntax import Atom, BoolOp, Given, Not

def compare(op: str, a, b):
    """``a OP b`` for a comparison of the language: on ints, or on z3 terms (compile.py). Every comparison is
    built and one picked: on z3 terms the ones not picked still enter z3's term table, and the solver's
    choice of witness depends on that table — kept as it was, so that witnesses stay the same."""
    return {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]


def card_domain(cat, atom: Atom, i: int) -> list[str]:
    """Cards an unknown card of ``atom`` ranges over."""
    if atom.kind == "fire" and atom.rule:
        conv = cat.skills[atom.rule].convert
        if i == 0 and conv.source.kind == "card":
            return [conv.source.value]
        if i == 1 and all(t.kind == "card" for t in conv.targets):
            return [t.value for t in conv.targets]
    return list(cat.cards)


def atom_questions(cat, atom: Atom, cards: tuple) -> list[dict]:
    """decide-form questions that settle ``atom`` for concrete ``cards``."""
    k = atom.kind
    if k == "play":
        return [{"decision": "can_play", "seat": 0, "actual": cards[0], "declared": cards[1]}]
    if k in ("convert", "fire"):
        return [{"decision": "conversion", "seat": 0, "actual": cards[0], "declared": cards[1]}]
    if k == "banned":
        return [{"decision": "banned", "seat": 0, "declared": cards[0]}]
    if k == "receive":
        return [{"decision": "receive", "seat": 0}]
    if k in ("skip", "act"):
        return [{"decision": f"skip_{atom.phase}", "seat": 0}]
    if k == "send_by":
        return [{"decision": "send", "seat": 0, "group": atom.group}]
    if k == "send_dir":
        d, n = atom.value
        return [{"decision": "send", "seat": 0, "group": g, "dir": d, "lock_count": n} for g in SEND_GROUPS]
    if k == "draw":
        return [{"decision": "draw", "seat": 0}]
    if k == "hold":
        return [{"decision": "holds", "seat": 0, "rule": atom.rule}]
    return []


def expect_keys(atom: Atom) -> tuple:
    return {"play": ("can_play", "banned"), "convert": ("ok", "via"), "fire": ("ok", "via"), "banned": ("banned",),
            "receive": ("receive",), "skip": ("skip",), "act": ("could_act",), "send_by": ("in_force",),
            "send_dir": ("allowed",), "draw": ("draw",), "hold": ("holds", "live")}.get(atom.kind, ())


def holds_live(st: State, rule: str) -> bool:
    """The player (seat 0) holds ``rule``, not invalidated."""
    return any(i.rule == rule and not i.invalid for i in st.seats[0].skills)


def eval_atom_cards(cat, st: State, atom: Atom, cards: tuple) -> bool:
    k = atom.kind
    if k == "play":
        return I.can_play(cat, st, 0, cards[0], cards[1])
    if k == "convert":
        return I.conversion(cat, st, 0, cards[0], cards[1]).ok
    if k == "fire":
        c = I.conversion(cat, st, 0, cards[0], cards[1])
        return c.via is not None and st.seats[0].skills[c.via].rule == atom.rule
    if k == "banned":
        return I.banned(cat, st, 0, cards[0])
    if k == "banned_all":
        return I.banned_all(cat, st, 0)
    if k == "receive":
        return I.receive(cat, st, 0) == atom.value
    if k == "skip":
        return (I.skip_fight if atom.phase == "fight" else I.skip_dying)(cat, st, 0)
    if k == "act":
        return (I.could_act_fight if atom.phase == "fight" else I.could_act_dying)(cat, st, 0)
    if k == "send_by":
        i = I.send_in_force(cat, st, 0, atom.group)
        return (st.seats[0].skills[i].rule if i is not None else None) == atom.rule
    if k == "send_dir":
        d, n = atom.value
        return all(I.send_allowed(cat, st, 0, g, d, n) for g in SEND_GROUPS)
    if k == "draw":
        return compare(atom.value[0], I.draw_count(cat, st, 0), atom.value[1])
    if k == "hold":
        return holds_live(st, atom.rule)
    if k == "use":
        insts = [i for i in st.seats[0].skills if i.rule == atom.rule]
        phases = [atom.phase] if atom.phase else ["fight", "dying"]
        return any(I.usable(cat, st, 0, i, p) for i in insts for p in phases)
    if k == "invalidated":
        return any(i.invalid for i in st.seats[0].skills)
    if k == "face_up":
        return st.seats[0].face_up == atom.value
    if k == "hand":
        return compare(atom.value[0], st.seats[0].hand_count, atom.value[1])
    if k == "where":
        env = N._env(cat, st, 0)
        return bool(I.evaluate(atom.value, env))
    raise ValueError(k)


def atom_choices(cat, atom: Atom) -> list[tuple]:
    if not atom.cards:
        return [()]
    doms = [[c] if c is not None else card_domain(cat, atom, i) for i, c in enumerate(atom.cards)]
    if atom.kind == "play" and atom.cards[1] is None and atom.cards[0] is not None:
        doms[1] = list(cat.cards)
    return list(itertools.product(*doms))


def eval_atom(cat, st: State, atom: Atom) -> tuple[bool, tuple]:
    """(truth, the cards that show it): unknown cards are 'some card'."""
    choices = atom_choices(cat, atom)
    for ch in choices:
        if eval_atom_cards(cat, st, atom, ch):
            return True, ch
    if atom.kind == "play" and len(choices) > 1:
        # false for every card: show the one that gets furthest (the conversion allows it, a ban stops it)
        for ch in choices:
            if I.conversion(cat, st, 0, ch[0], ch[1]).ok:
                return False, ch
    return False, choices[0]


def eval_claim(cat, st: State, node) -> bool:
    if isinstance(node, Not):
        return not eval_claim(cat, st, node.arg)
    if isinstance(node, BoolOp):
        vals = [eval_claim(cat, st, x) for x in node.items]
        return all(vals) if node.op == "and" else any(vals)
    return eval_atom(cat, st, node)[0]


def eval_given(cat, st: State, g: Given) -> bool:
    s = st.seats[0]
    if g.kind == "with":
        return holds_live(st, g.rule)
    if g.kind == "without":
        return not any(i.rule == g.rule for i in s.skills)
    if g.kind in ("claim", "where"):
        return eval_claim(cat, st, g.claim)
    if g.kind == "grant":
        gr = g.grant
        for inst in s.skills:
            if inst.rule not in gr.grants:
                continue
            if gr.sites and inst.site not in {f"{x.giver}#{x.index}" for x in gr.sites}:
                continue
            if all(_arg_holds(inst.args.get(p), v) for p, v in gr.args.items()):
                return True
        if gr.invalid_option and any(i.invalid for i in s.skills):
            for give in gr.invalid_sites:
                for gs in range(len(st.seats)):
                    if not reaches_player(give, gs):
                        continue
                    giver_ok = give.giver_is_card or give.giver in cat.characters[st.seats[gs].character].skills
                    if giver_ok and I.evaluate(give.when, N._env(cat, st, gs)):
                        return True
        return False
    raise ValueError(g.kind)


def reaches_player(give, seat: int) -> bool:
    """A gives site used by the player at ``seat`` can hand its skill to the player (seat 0): its ``to``
    allows it."""
    return not (give.to == "self" and seat != 0 or give.to == "others" and seat == 0)


def _arg_holds(got, want) -> bool:
    kind, v = want
    if kind == "set":
        return set(v) <= set(got or ())
    return got == v

