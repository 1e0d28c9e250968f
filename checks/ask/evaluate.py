"""What a question means on one concrete State, through the reference interpreter: the truth of its
atoms, claim and givens (a witness is replayed with these before it is shown), and the decide-form
questions that settle each atom in a scenario file.

Time: a question is asked at one moment of a trace (the state's window). An atom about a decision
(receive, send, draw, skip_fight, skip_dying) holds only at its decision moment
(``interp.windows.at_decision``); ``play X as Y`` holds only where a Y may be used by the player now
(``interp.plays.can_play``); ``use S`` only in a window S is used in. That moment is the atom's *frame*:
asserted, the atom is "at its frame, and the decision says so"; denied (under ``not``, or in an ``always``
claim) it is "at its frame, the decision says otherwise" — so ``always`` and ``never`` range over the
moments where the decision is taken. A window word of the question ("in the main phase") fixes the moment
itself: ``play X as Y`` is then read as it stands (a Y not usable in that window cannot be played).
``compile.py`` states the same for the solver.
"""
from __future__ import annotations

import itertools

from skillproof.model.interp.bans import banned, banned_all, banned_by
from skillproof.model.interp.conversion import conversion
from skillproof.model.interp.core import env_of, evaluate, live_kinds
from skillproof.model.interp.draw import draw_count
from skillproof.model.interp.fires import fires
from skillproof.model.interp.plays import can_play, card_usable, resolves
from skillproof.model.interp.receive import receive
from skillproof.model.interp.remind import remind_parts, reminds
from skillproof.model.interp.send import has_card_to_send, send_allowed, send_in_force
from skillproof.model.interp.skip import could_act_dying, could_act_fight, skip_dying, skip_fight
from skillproof.model.interp.usable import requires_unplayered, spent, usable
from skillproof.model.interp.windows import at_decision, in_window
from skillproof.model import narrate as N
from skillproof.model.interp import trace as TR
from skillproof.model.interp.play import run as play_run
from skillproof.model.interp.grants import site_of
from skillproof.model import vocab as V
from skillproof.model.kinds import SEND_GROUPS
from skillproof.model.state import State

from .syntax import Atom, BoolOp, Given, GrantRef, Not

#: the decision each kind of atom is about, where it has a moment of its own (model.turn.DECISION_WINDOWS)
DECISION_OF = {"receive": "receive", "send_by": "send", "send_dir": "send", "draw": "draw", "remind": "remind"}


def decision_of(atom: Atom) -> str | None:
    """The decision whose moment an atom is asked at (None: no moment of its own)."""
    if atom.kind in ("skip", "act"):
        return f"skip_{atom.phase}"
    return DECISION_OF.get(atom.kind)


def use_windows(cat, atom: Atom) -> dict:
    """The windows (window -> actor) in which ``use S [in PHASE]`` may hold: S's own, narrowed to PHASE."""
    wins = dict(cat.skills[atom.rule].windows)
    return {w: a for w, a in wins.items() if atom.phase is None or w == atom.phase}


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


def atom_questions(cat, atom: Atom, cards: tuple, st: State | None = None) -> list[dict]:
    """decide-form questions that settle ``atom`` for concrete ``cards`` (on ``st``: which skill to ask
    about for ``invalidated``)."""
    k = atom.kind
    if k == "play":
        return [{"decision": "can_play", "seat": 0, "actual": cards[0], "declared": cards[1]}]
    if k == "fire" and atom.value == "play":
        return [{"decision": "conversion", "seat": 0, "actual": cards[0], "declared": cards[1]},
                {"decision": "can_play", "seat": 0, "actual": cards[0], "declared": cards[1]}]
    if k in ("convert", "fire"):
        return [{"decision": "conversion", "seat": 0, "actual": cards[0], "declared": cards[1]}]
    if k == "banned":
        return [{"decision": "banned", "seat": 0, "declared": cards[0]}]
    if k == "resolve":
        return [{"decision": "resolves", "seat": 0, "declared": cards[0]}]
    if k == "fires":
        return [{"decision": "fires", "seat": 0, "rule": atom.rule}]
    if k == "receive":
        return [{"decision": "receive", "seat": 0}]
    if k in ("skip", "act"):
        return [{"decision": f"skip_{atom.phase}", "seat": 0}]
    if k == "send_by":
        return [{"decision": "send", "seat": 0, "group": atom.group}]
    if k == "send_dir":
        d, n = atom.value
        if d is None:                     # some direction: the first the player may send in here (else up)
            d = next((x for x in V.DIRECTIONS if st is not None and
                      all(send_allowed(cat, st, 0, g, x, n) for g in SEND_GROUPS)), V.DIRECTIONS[0])
        return [{"decision": "send", "seat": 0, "group": g, "dir": d, "lock_count": n} for g in SEND_GROUPS]
    if k == "draw":
        return [{"decision": "draw", "seat": 0}]
    if k == "remind":
        return [{"decision": "remind", "seat": 0, **({"rule": atom.rule} if atom.rule else {})}]
    if k in ("hold", "use") or (k == "granted" and atom.rule):
        return [{"decision": "holds", "seat": 0, "rule": atom.rule}]
    if k == "invalidated" and st is not None and st.seats[0].skills:
        return [{"decision": "holds", "seat": 0, "rule": st.seats[0].skills[0].rule}]
    return []


def fallback_question(cat, st: State) -> tuple[dict, dict]:
    """The question of a witness none of whose atoms is a decision: that the player holds its first skill, or
    (holding none) whether a card is banned for them — a question asked at any moment; the trace is what the
    scenario shows. An untimed state: whether it is reachable at all."""
    if st.trace is None:
        return {"decision": "reachable"}, {"reachable": True}
    if st.seats[0].skills:
        return {"decision": "holds", "seat": 0, "rule": st.seats[0].skills[0].rule}, {"holds": True}
    card = next(iter(cat.cards))
    return {"decision": "banned", "seat": 0, "declared": card}, {"banned": banned(cat, st, 0, card)}


def expect_keys(atom: Atom) -> tuple:
    return {"play": ("can_play", "banned"), "convert": ("ok", "via"), "fire": ("ok", "via", "can_play", "banned"),
            "banned": ("banned",),
            "receive": ("receive",), "skip": ("skip",), "act": ("could_act",), "send_by": ("in_force",),
            "send_dir": ("allowed", "has_card"), "draw": ("draw",), "hold": ("holds", "live"), "use": ("holds", "live"),
            "remind": ("prompts",) if atom.rule else ("remind",),
            "invalidated": ("invalidated",), "resolve": ("resolves", "via"), "fires": ("fires",),
            "granted": ("holds", "live")}.get(atom.kind, ())


def invalidated(st: State) -> bool:
    """An InvalidSkill was dealt to the player this turn: the seat's flag (a player with no initial skill to
    wrap counts too), or any skill wrapped (interp.decide.decide "holds" → "invalidated")."""
    s = st.seats[0]
    return s.invalidated or any(i.invalid for i in s.skills)


def holds_live(st: State, rule: str) -> bool:
    """The player (seat 0) holds ``rule``, not invalidated."""
    return any(i.rule == rule and not i.invalid for i in st.seats[0].skills)


def grant_sites(cat, ref: GrantRef) -> frozenset:
    """The site ids a grant reference may come from (its sites; none named: every site of its grants)."""
    sites = ref.sites or tuple(g for gid in ref.grants for g in cat.sites(gid))
    return frozenset(g.site_id for g in sites)


def eval_atom_cards(cat, st: State, atom: Atom, cards: tuple) -> bool:
    """The decision an atom reads, for concrete cards (its frame aside: see ``frame``)."""
    k = atom.kind
    if k == "play":
        return can_play(cat, st, 0, cards[0], cards[1])
    if k == "convert":
        return conversion(cat, st, 0, cards[0], cards[1]).ok
    if k == "fire":
        c = conversion(cat, st, 0, cards[0], cards[1])
        fired = c.via is not None and st.seats[0].skills[c.via].rule == atom.rule
        if atom.value == "play":              # used: the card it turns reaches play (bans, the window)
            return fired and can_play(cat, st, 0, cards[0], cards[1])
        return fired
    if k == "banned":
        if isinstance(atom.value, GrantRef):       # X能让C被禁: the ban X's grant makes, with its arguments
            return banned_by(cat, st, 0, cards[0], grant_sites(cat, atom.value))
        return banned(cat, st, 0, cards[0])
    if k == "banned_all":
        return banned_all(cat, st, 0)
    if k == "receive":
        return receive(cat, st, 0) == atom.value
    if k == "skip":
        return (skip_fight if atom.phase == "fight" else skip_dying)(cat, st, 0)
    if k == "act":
        return (could_act_fight if atom.phase == "fight" else could_act_dying)(cat, st, 0)
    if k == "send_by":
        i = send_in_force(cat, st, 0, atom.group)
        return (st.seats[0].skills[i].rule if i is not None else None) == atom.rule
    if k == "send_dir":
        d, n = atom.value
        return has_card_to_send(cat, st, 0) and any(all(send_allowed(cat, st, 0, g, x, n) for g in SEND_GROUPS)
                                                    for x in ([d] if d is not None else V.DIRECTIONS))
    if k == "draw":
        return compare(atom.value[0], draw_count(cat, st, 0), atom.value[1])
    if k == "remind":
        if atom.rule is None:
            return reminds(cat, st, 0)["remind"]
        return remind_parts(cat, st, 0).get(atom.rule, {}).get("remind", False)
    if k == "hold":
        return holds_live(st, atom.rule)
    if k == "granted":
        return grant_holds(cat, st, atom.value, None)
    if k == "use":
        return any(skill_usable(cat, st, inst, atom.phase) for inst in st.seats[0].skills
                   if inst.rule == atom.rule and (atom.value != "again" or inst.used))
    if k == "resolve":
        return resolves(cat, st, 0, cards[0])["resolves"]
    if k == "fires":
        return fires(cat, st, 0, atom.rule)["fires"]
    if k == "locked":
        return st.seats[0].locked
    if k == "invalidated":
        return invalidated(st)
    if k == "face_up":
        return st.seats[0].face_up == atom.value
    if k == "hand":
        return compare(atom.value[0], st.seats[0].hand_count, atom.value[1])
    if k == "where":
        env = N.env(cat, st, 0)
        return bool(evaluate(atom.value, env))
    if k == "given":
        return eval_given(cat, st, atom.value)
    raise ValueError(k)


def skill_usable(cat, st: State, inst, phase: str | None) -> bool:
    """The player's ActiveSkill ``inst`` may be used now, leaving its window aside (the atom's frame): live,
    not spent (interp.usable.spent: a usage limit, used this turn), and in 出牌阶段 / 争夺阶段 / 濒死求澄清 its condition for
    that window holds (interp.usable.usable). An untimed state
    (no window) is every window: its condition for ``phase`` (default: either) holds."""
    if spent(cat, inst):                 # used this turn already, and its limit allows one use
        return False
    env = env_of(cat, st, 0, inst)       # what the server checks of the user and the table, whoever the use names
    if not all(evaluate(c, env) for c in requires_unplayered(cat.skills[inst.rule].requires)):
        return False
    if st.window is None and phase in (None, "fight", "dying"):
        return any(usable(cat, st, 0, inst, p) for p in ([phase] if phase else ["fight", "dying"]))
    if st.window in ("main", "fight", "dying"):
        return usable(cat, st, 0, inst, st.window)
    return "ActiveSkill" in live_kinds(cat, inst)          # another window (or untimed, asked about one)


def frame(cat, st: State, atom: Atom, windowed: bool = False) -> bool | None:
    """Is the state at a moment the atom is asked at (None: the atom has no moment of its own)?"""
    d = decision_of(atom)
    if d is not None:
        return at_decision(st, d, 0)
    if atom.kind == "use":
        return in_window(st, 0, use_windows(cat, atom)) if st.window is not None else True
    if (atom.kind == "play" or atom.kind == "fire" and atom.value == "play") and not windowed:
        dom = [atom.cards[1]] if atom.cards[1] is not None else card_domain(cat, atom, 1)
        return any(card_usable(cat, st, 0, y) for y in dom)
    return None


def atom_choices(cat, atom: Atom) -> list[tuple]:
    if not atom.cards:
        return [()]
    doms = [[c] if c is not None else card_domain(cat, atom, i) for i, c in enumerate(atom.cards)]
    if atom.kind == "play" and atom.cards[1] is None and atom.cards[0] is not None:
        doms[1] = list(cat.cards)
    return list(itertools.product(*doms))


def eval_atom(cat, st: State, atom: Atom) -> tuple[bool, tuple]:
    """(the decision's truth, the cards that show it): unknown cards are 'some card'."""
    choices = atom_choices(cat, atom)
    for ch in choices:
        if eval_atom_cards(cat, st, atom, ch):
            return True, ch
    if atom.kind == "play" and len(choices) > 1:
        # false for every card: show the one that gets furthest (the conversion allows it, a ban stops it)
        for ch in choices:
            if conversion(cat, st, 0, ch[0], ch[1]).ok:
                return False, ch
    return False, choices[0]


def eval_claim(cat, st: State, node, pos: bool = True, windowed: bool = False) -> bool:
    """The claim's truth on ``st``. ``pos``: whether it is asserted (an atom holds at its frame and says so)
    or denied (``not``, ``always``: an atom fails only at its frame) — twin of compile.Compiler.claim."""
    if isinstance(node, Not):
        return not eval_claim(cat, st, node.arg, not pos, windowed)
    if isinstance(node, BoolOp):
        vals = [eval_claim(cat, st, x, pos, windowed) for x in node.items]
        return all(vals) if node.op == "and" else any(vals)
    truth = eval_atom(cat, st, node)[0]
    f = frame(cat, st, node, windowed)
    if f is None:
        return truth
    return (f and truth) if pos else (not f or truth)


# ============================================================================ givens, and the trace
def run_of(cat, st: State):
    """The run of the trace that led to ``st`` (None for an untimed state), computed once."""
    if st.trace is None:
        return None
    if "_run" not in st.__dict__:
        st.__dict__["_run"] = play_run(cat, st.trace)
    return st.__dict__["_run"]


def events_in_turn(cat, st: State, ago: int | None):
    """The trace's events (with their moments) in the turn ``ago`` turns before the question's (None:
    any turn)."""
    run = run_of(cat, st)
    if run is None:
        return []
    now = run.turns - 1
    return [(ev, mo) for ev, mo in zip(st.trace.events, run.moments)
            if ago is None or mo["turn"] == now - ago]


def invalidated_by(cat, st: State, sites, ago: int | None = None, by_self: bool = False) -> bool:
    """The player's invalidation came from one of ``sites`` (InvalidSkill gives sites), in the turn
    ``ago`` turns back (None: any), handed out by herself when ``by_self`` — read on the trace (twin: S.inv_ev /
    S.inv_site / S.inv_m / S.inv_giver)."""
    ids = {s.site_id for s in sites}
    hits = [ev for ev, _ in events_in_turn(cat, st, None) if ev.kind == "give" and ev.seat == 0]
    last = [ev for ev in hits if site_of(cat, ev.site) is not None and
            "InvalidSkill" in cat.skills[site_of(cat, ev.site).grant].closure]
    if not last or last[-1].site not in ids or (by_self and last[-1].giver != 0):
        return False
    if ago is None:
        return True
    return any(ev is last[-1] for ev, _ in events_in_turn(cat, st, ago))


def eval_given(cat, st: State, g: Given) -> bool:
    s = st.seats[0]
    if g.kind == "with":
        return holds_live(st, g.rule)
    if g.kind == "without":
        return not any(i.rule == g.rule for i in s.skills)
    if g.kind in ("claim", "where"):
        return eval_claim(cat, st, g.claim)
    if g.kind == "window":
        if st.window != g.window:
            return False
        return g.interrupts is None or st.interrupted == g.interrupts
    if g.kind == "outside":
        return st.window != g.window
    if g.kind == "turn_of":
        if g.other:
            return st.turn != 0
        if g.who is None:
            return st.turn == 0
        return 0 <= st.turn < len(st.seats) and st.seats[st.turn].character == g.who
    if g.kind == "after":
        return after_holds(cat, st, g.rule, g.ago if g.ago is not None else 0)
    if g.kind == "grant":
        return grant_holds(cat, st, g.grant, g.ago)
    if g.kind == "role":
        return role_holds(st, g)
    raise ValueError(g.kind)


def role_holds(st: State, g: Given) -> bool:
    """A role of the table (twin: compile.Compiler.role): who sends this turn's message (State.sender_of_turn),
    密令's target (the sender in another player's turn), the turn player, a given character as the sender."""
    sender = st.sender_of_turn()
    if g.rule == "sender":
        return sender == 0
    if g.rule == "not_sender":
        return sender != 0
    if g.rule == "miling":
        return sender == 0 and st.turn != 0
    if g.rule == "turn":
        return st.turn == 0
    if g.rule == "not_turn":
        return st.turn != 0
    if g.rule == "sender_is":
        return sender is not None and 0 <= sender < len(st.seats) and st.seats[sender].character == g.who
    if g.rule == "receiver_is":                      # the message is in front of that character (twin: Compiler.role)
        f = st.in_front
        return f is not None and 0 <= f < len(st.seats) and st.seats[f].character == g.who
    raise ValueError(g.rule)


def grant_holds(cat, st: State, gr, ago: int | None) -> bool:
    """The player holds a grant ``gr`` stands for (its sites, parameters, sizes, 'from herself'; handed out
    ``ago`` turns back, when given) — or is invalidated by its giver when that counts (twin: Compiler.grant)."""
    for inst in st.seats[0].skills:
        if inst.rule not in gr.grants:
            continue
        if gr.sites and inst.site not in {x.site_id for x in gr.sites}:
            continue
        if ago is not None and inst.turns_ago != ago:
            continue
        if gr.by_self and inst.giver != 0:
            continue
        if not all(compare(op, len(inst.args.get(p) or ()), n) for p, (op, n) in gr.sizes.items()):
            continue
        if all(_arg_holds(inst.args.get(p), v) for p, v in gr.args.items()):
            return True
    if gr.invalid_option and invalidated(st):
        return invalidated_by(cat, st, gr.invalid_sites, ago, by_self=gr.by_self)
    return False


def after_holds(cat, st: State, rid: str, ago: int) -> bool:
    """``after X``: in the turn ``ago`` turns back, the player's role was replaced (X replaces roles), the
    player received a grant X hands out (or the grant X), or X invalidated the player — what the trace
    records (twin: compile.Compiler.after)."""
    rule = cat.skills.get(rid)
    if rule is not None and rule.replaces_role:
        return any(ev.kind == "replace" and ev.seat == 0 for ev, _ in events_in_turn(cat, st, ago))
    sites = after_sites(cat, rid)
    ids = {x.site_id for x in sites if x.grant != "InvalidSkill"}
    if any(inst.site in ids and inst.turns_ago == ago for inst in st.seats[0].skills):
        return True
    inv = [x for x in sites if x.grant == "InvalidSkill"]
    return bool(inv) and invalidated_by(cat, st, inv, ago)


def after_sites(cat, rid: str) -> list:
    """The gives sites an ``after X`` given stands for: X's own (a skill or card that hands out skills), or
    every site of the grant X."""
    src = cat.skills.get(rid) or cat.cards.get(rid)
    if src is not None and src.gives:
        return list(src.gives)
    return list(cat.sites(rid))


def _arg_holds(got, want) -> bool:
    kind, v = want
    if kind == "set":
        return set(v) <= set(got or ())
    return got == v

