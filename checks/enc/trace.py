"""The z3 twin of ``model.interp.trace``: which symbolic traces are legal, and back to concrete traces.

``reachability(S)`` states, as named constraints, that the symbolic trace of a ``SymState`` is one a
game under the catalogue can play: the table at the start (twin of ``interp.trace.setup_errors``), every event
legal at its moment (``enc_give_ok`` / ``interp.trace.give_errors``, ``enc_replace_ok`` /
``interp.trace.replace_errors``), events in an order consistent with the turns and windows they happen in
(``model.turn``), what survives each turn end (``interp.lifetime.turn_end``), and the moment of the question.
The constraints carry the catalogue rules behind them, so that an unsat core says "no, because …".

The interpreter executes a trace event by event; here each event is a symbolic *moment* (step, turn,
window) and the transition relation is stated per event against the state at that moment — the
timestamped form of the same bounded unrolling. ``witness(S, model)`` reads a model back as the final
``State`` with the ``Trace`` that produces it (``state.trace``) and ``assignment(S, trace)`` pins a
symbolic state to a concrete trace, for the cross-check: both live in ``checks.enc.witness``.
"""
from __future__ import annotations

import z3

from skillproof.model import turn as TW
from skillproof.model.catalogue import Give
from skillproof.model.effects import sends_users_card

from ..terms import And, Eq, Eq2, Implies, Ite, Not, Or
from .face import enc_use_faces
from .grants import enc_arg_eq, enc_fired_recipients, enc_grant_matters, enc_must_fire, enc_to_ok
from .lifetime import one_turn_kept, survives_turn_ends
from .plays import enc_card_usable
from .snapshot import enc_snapshot
from .usable import unconditional
from .state import DYING, NONE, WCODE, WCODES, Ctx, Labelled, Moment, SymState, w_in
from .windows import enc_actor_ok, enc_in_window


# ================================================================================== building blocks


def _char_at(S: SymState, g: int, m: Moment):
    """The character seat ``g`` plays at moment ``m`` (seat 0's old role before a replacement)."""
    if g == 0:
        return Ite(S.old_role(0, m), S.old_char, S.char[0])
    return S.char[g]


def _owns(S: SymState, g: int, skill: str, m: Moment):
    """At moment ``m`` seat ``g`` holds ``skill`` among its role's skills (the player: in a present
    initial slot, or its old role before a replacement)."""
    owners = set(S.cat.owners(skill))
    if g != 0:
        role = Or([Eq(S.char[g], S.codes.char[c]) for c in sorted(owners & set(S.chars_other))] or [z3.BoolVal(False)])
        return And(role, one_turn_kept(S, g, skill, m))
    old = Or([Eq(S.old_char, S.codes.char[c]) for c in sorted(owners & set(S.chars_old))] or [z3.BoolVal(False)])
    r = S.cat.skills[skill]
    if "OneTurnSkill" in r.closure:
        # a one-turn role skill (an initial one, KD001, or one marked initial = false) a later turn end dropped
        # is absent at the question but was held at ``m`` if it survived the turn ends before ``m`` (twin of
        # interp.lifetime.turn_end, as for other seats)
        one = [(skill, z3.BoolVal(True))]
        list_start = Ite(S.repl, S.repl_m.t, S.start)
        wraps = And(S.inv_ev[0], Not(And(S.repl, S.inv_m[0].before(S.repl_m))))
        old = And(old, survives_turn_ends(S, one, S.start, S.inv_ev[0], t_last=m.t))
        held = Or([S.rule_is(sl, skill) for sl in S.slots if sl.initial_slot and skill in sl.candidates]
                     or [z3.BoolVal(False)])
        # the slot may be empty by the question (the drop): the role still has the skill
        role = Or([S.char[0] == S.codes.char[c] for c in sorted(owners & set(S.chars_me))] or [z3.BoolVal(False)])
        held = And(held, role, survives_turn_ends(S, one, list_start, wraps, t_last=m.t))
    else:
        held = Or([And(sl.present, S.rule_is(sl, skill)) for sl in S.slots
                      if sl.initial_slot and skill in sl.candidates] or [z3.BoolVal(False)])
    return Ite(S.old_role(0, m), old, held)


def _invalid_at(S: SymState, g: int, m: Moment):
    """Seat ``g``'s initial skills are wrapped at moment ``m``: its invalidation came earlier and has
    not been released by a turn end ([rules] turn_end restore_invalid) — nor wiped by a replacement."""
    ev = S.inv_m[g]
    still = z3.BoolVal(True) if "restore_invalid" not in S.cat.rules.turn_end else ev.t == m.t
    out = And(S.inv_ev[g], ev.before(m), still)
    if g == 0:
        out = And(out, Not(And(S.repl, ev.before(S.repl_m), S.repl_m.before(m))))
    return out


def enc_giver_live(S: SymState, give: Give, g: int, m: Moment):
    """Twin of the giver clause of interp.trace.give_errors: at ``m`` seat ``g`` may use the card (its
    window and actor), or holds the giving skill live (and may use it now, if it is an ActiveSkill)."""
    if give.giver_is_card:
        return enc_in_window(S, m, g, S.cat.cards[give.giver].windows)
    rule = S.cat.skills[give.giver]
    if rule.is_grant:
        conds = [_holds_grant(S, g, give.giver, m)]
    else:
        conds = [_owns(S, g, give.giver, m)]
        if rule.initial:
            conds.append(Not(_invalid_at(S, g, m)))
    if rule.has("ActiveSkill") and not rule.has("TriggeredSkill"):       # twin of interp.trace.active_giver_ok
        if give.at and give.on != "use":
            conds.append(Or([enc_actor_ok(S, m, g, a) for a in rule.windows.values()] or [z3.BoolVal(False)]))
        else:
            conds.append(enc_in_window(S, m, g, rule.windows))
    return And(conds)


def _holds_grant(S: SymState, g: int, grant: str, m: Moment):
    """A grant that hands out grants ([[grant.gives]]): seat ``g`` holds it live at ``m`` (twin of the
    giver clause of interp.trace.give_errors: "holds a live <giver>"). Only the player's grant slots are symbolic:
    a grant handed out before ``m`` and held at the question (it is not wrapped by an invalidation between
    — a grant marked initial is wrapped when it came before the invalidation, note L82). Grants of other
    seats, and the player's grants dropped since, are outside the symbolic state (an under-approximation:
    such a trace has events the symbolic trace does not hold)."""
    if g != 0:
        return z3.BoolVal(False)
    r = S.cat.skills[grant]
    ways = []
    for sl in S.slots:
        if sl.initial_slot or grant not in sl.candidates:
            continue
        w = [sl.present, S.rule_is(sl, grant), sl.m.before(m)]
        if r.initial:
            w.append(Not(And(_invalid_at(S, 0, m), sl.m.before(S.inv_m[0]))))
        ways.append(And(w))
    return Or(ways) if ways else z3.BoolVal(False)


def _moment_ok(S: SymState, m: Moment):
    """A well-formed moment: a turn of the trace, a window, and the facts of that window."""
    n = S.n
    seat = lambda v: Or([And(Eq(v, s), S.present[s]) for s in range(n)])     # noqa: E731
    return Implies(m.present, And(
        m.t >= S.start, m.t <= S.T - 1, m.step >= 0, m.step < S.steps,
        m.w >= 0, m.w < len(WCODES), m.w != WCODE["turn_end"],        # nothing happens once the turn ended
        Ite(m.w == DYING, And(w_in(m.intr, TW.DYING_WITHIN), seat(m.dy)),
              And(m.intr == NONE, m.dy == NONE)),
        Ite(m.message_live(), seat(m.front), m.front == NONE)))


def _lex_le(a: Moment, b: Moment):
    """``a`` happens no later than ``b`` in the turn order (turn, then window position)."""
    return Or(a.t < b.t, And(a.t == b.t, a.pos() <= b.pos()))


def enc_when_at(S: SymState, give: Give, g: int, m: Moment, params: dict):
    """The site's ``when`` read on the giver at moment ``m``."""
    ctx = Ctx(S, {"self": g}, dict(params), S.globals_(), z3.BoolVal(False), moment=m)
    return S.compile(give.when, ctx)


def may_give(S: SymState, give: Give, g: int) -> bool:
    """Can seat ``g`` be the giver at all in this symbolic state (a card: anyone; a skill: some
    character seat ``g`` may play holds it; a grant: the player, who may hold it in a grant slot)? Sites
    that cannot are left out of the encoding."""
    if give.giver_is_card:
        return True
    if S.cat.skills[give.giver].is_grant:                 # a grant held in one of the player's grant slots
        return g == 0 and any(give.giver in sl.candidates for sl in S.slots if not sl.initial_slot)
    owners = set(S.cat.owners(give.giver))
    cands = (set(S.chars_me) | set(S.chars_old)) if g == 0 else set(S.chars_other)
    return bool(owners & cands)


def enc_give_ok(S: SymState, give: Give, g: int, receiver: int, m: Moment, params: dict | None):
    """Twin of interp.trace.give_errors for one site, giver seat and receiver seat: the grant may be handed out
    at moment ``m`` (its window, a live giver that may act then, ``to``, ``args``/``where``, ``when``)."""
    cat = S.cat
    grant = cat.skills[give.grant]
    conds = [S.present[g], enc_giver_live(S, give, g, m), enc_to_ok(give.to, g, receiver)]
    if give.at:
        conds.append(w_in(m.w, give.at))
    if params is not None:
        for pn, val in give.args.items():
            conds.append(enc_arg_eq(S, grant.params[pn], params[pn], val))
        if give.where is not None:          # read at the moment of handing out, as interp.trace.give_errors does
            conds.append(S.compile(give.where, Ctx(S, {"self": g}, dict(params), {}, z3.BoolVal(False), moment=m)))
    conds.append(enc_when_at(S, give, g, m, params or {}))
    return And(conds)


# ==================================================================================== the relation
def reachability(S: SymState) -> list[Labelled]:
    """Named constraints: the symbolic trace is one a game under the catalogue can play, ending at the
    moment of the question. Twin of model.interp.trace.run (and, for the table, interp.trace.setup_errors)."""
    cat, C = S.cat, S.codes
    out: list[Labelled] = []

    def add(label, rules, e):
        out.append(Labelled(label, tuple(rules), e))

    n, T = S.n, S.T
    seat = lambda v: Or([And(Eq(v, s), S.present[s]) for s in range(n)])     # noqa: E731
    # ---- the table (snapshot.enc_snapshot: interp.trace.setup_errors / snapshot.snapshot_errors)
    enc_snapshot(S, add)
    # ---- turns: the trace starts a turn, each turn's player sits at the table, a new turn passes on
    add("first turn", (), And(S.start >= 0, S.start <= T - 1))
    for t in range(T):
        add(f"turn {t} player", (), Implies(S.start <= t, seat(S.owner[t])))
        add(f"turn {t} sender", (), seat(S.sender_t[t]))
        if t > 0 and n > 1:
            add(f"turn {t} passes on", (), Implies(And(S.start <= t - 1, S.present[1]),
                                                        S.owner[t] != S.owner[t - 1]))
    # ---- the moment of the question
    q = S.q
    add("window", (), And(S.now >= 0, S.now < len(WCODES), S.now != WCODE["turn_end"],
                             Ite(S.now == DYING, And(w_in(S.intr, TW.DYING_WITHIN), seat(S.dying)),
                                   And(Eq(S.intr, NONE), Eq(S.dying, NONE)))))
    add("in front", (), Ite(q.message_live(), seat(S.in_front), Eq(S.in_front, NONE)))
    add("sender", (), Eq2(S.sender, S.sender_at(q)))
    # interp.trace.Runner.finish: a player is locked by the message; with no message in front of anyone, nobody is
    add("locked only by a travelling message", (),
        Implies(Not(q.message_live()), And([Not(S.locked[s]) for s in range(n)])))
    if not cat.rules.lock_self:                       # interp.snapshot.lock_errors
        add("the sender does not lock himself ([rules] lock_self = false)", (),
            And([Implies(Eq(S.sender, s), Not(S.locked[s])) for s in range(n)]))
    # ---- events: well-formed moments, one step each, in an order the turn allows
    events = [sl.m for sl in S.slots if not sl.initial_slot] + [S.inv_m[s] for s in S.inv_seats] + [S.repl_m] + \
        ([S.lost.m] if S.lost is not None else []) + [pl.m for pl in S.plays]
    for m in events:
        add(f"{m.name} moment", (), _moment_ok(S, m))
        add(f"{m.name} before the question", (), Implies(m.present, _lex_le(m, q)))
    for i, a in enumerate(events):
        for b in events[i + 1:]:
            both = And(a.present, b.present)
            add(f"{a.name} / {b.name} order", (), Implies(both, And(
                a.step != b.step, Implies(a.before(b), _lex_le(a, b)), Implies(b.before(a), _lex_le(b, a)))))
    # ---- the player's role replacement (interp.trace.replace_errors / apply_replace)
    _replacement(S, add, seat)
    # ---- her face at the question: what this turn's uses left of it (interp.face / trace.Runner.turn_face)
    enc_use_faces(S, add)
    # ---- invalidations: one per seat, from a site handing out an InvalidSkill (interp.trace.give_errors)
    sites = cat.invalidation_sites()
    giver_rules = tuple(sorted({g.giver for g in sites}))
    for s in S.inv_seats:
        m = S.inv_m[s]
        ways = []
        for give in sites:
            sc = C.site.get(give.site_id)
            for g in range(n):
                if may_give(S, give, g) and not (give.to == "self" and g != s) and not (give.to == "others" and g == s):
                    ways.append(And(Eq(S.inv_giver[s], g), Eq(S.inv_site[s], sc), enc_give_ok(S, give, g, s, m, None)))
        add(f"seat {s} invalidation needs a giver", giver_rules,
            Implies(S.inv_ev[s], Or(ways) if ways else z3.BoolVal(False)))
        now = S.inv_ev[s]
        if "restore_invalid" in cat.rules.turn_end:
            now = And(now, Eq(m.t, T - 1))
        if s == 0:
            now = And(now, Not(And(S.repl, m.before(S.repl_m))))
        add(f"seat {s} invalidated now", giver_rules, Eq2(S.inv[s], now))
        add(f"seat {s} invalidation only of a present seat", (), Implies(S.inv_ev[s], S.present[s]))
    # ---- initial slots: the role's skills in order (consumed ones may be gone), minus one-turn skills
    # dropped at a turn end since the list began
    list_start = Ite(S.repl, S.repl_m.t, S.start)
    # the seat's invalidation wraps its initial skills unless a replacement came after it
    wraps_initial = And(S.inv_ev[0], Not(And(S.repl, S.inv_m[0].before(S.repl_m))))
    for slot in S.slots:
        if not slot.initial_slot:
            continue
        j = slot.index
        by_char = []
        for c in S.chars_me:
            sk = cat.characters[c].skills
            if j < len(sk):
                held = S.rule_is(slot, sk[j])
                rule = cat.skills[sk[j]]
                if "OneTurnSkill" in rule.closure:
                    body = held
                elif rule.consumed:
                    # used up before the trace began, perhaps — but a role taken in a replacement
                    # (interp.trace.apply_replace) starts with every skill of its character
                    body = And(held, Implies(S.repl, slot.present))
                else:
                    body = And(held, slot.present)
            else:
                body = Not(slot.present)
            by_char.append(Implies(S.char[0] == C.char[c], body))
        add(f"initial skill {j}", (), And(by_char) if by_char else Not(slot.present))
        rules = [(r, S.rule_is(slot, r)) for r in slot.candidates]
        add(f"initial skill {j} survives the turn ends", (), Implies(
            slot.present, survives_turn_ends(S, rules, list_start, wraps_initial)))
        # a one-turn initial skill that was not dropped is there (nothing else removes it)
        need = []
        for c in S.chars_me:
            sk = cat.characters[c].skills
            if j < len(sk) and "OneTurnSkill" in cat.skills[sk[j]].closure and not cat.skills[sk[j]].consumed:
                need.append(Implies(S.char[0] == C.char[c], Implies(
                    survives_turn_ends(S, [(sk[j], z3.BoolVal(True))], list_start, wraps_initial),
                    slot.present)))
        if need:
            add(f"initial skill {j} kept", (), And(need))
    # ---- grant slots: each handed out at its moment by a gives site (interp.trace.give_errors), in order
    _grant_slots(S, add)
    # ---- sites handed out together ('with'): the partner's event at the same moment (interp.trace._uncoupled)
    _coupled(S, add)
    # ---- automatic grants: handed out once their event happened (interp.trace.Runner.owe_fired / settle_fired)
    _must_fire(S, add)
    # ---- a message sent from its user's hand in another's name is not in front of him at two living seats
    _user_in_front(S, add)
    # ---- cards the player used this turn (trace 'play' events): in the question's turn, by a player who
    # may use that card type in the window (interp.plays.card_usable at the moment)
    for k, pl in enumerate(S.plays):
        add(f"play {k}", (), Implies(pl.present, And(
            pl.card >= 0, pl.card < len(C.cards), pl.m.t == T - 1, enc_card_usable(S, pl.card, 0, pl.m))))
        if k:
            add(f"play {k} after play {k - 1}", (), Implies(pl.present, S.plays[k - 1].present))
    return out


def _replacement(S: SymState, add, seat):
    """Twin of interp.trace.replace_errors / apply_replace for the player (seat 0)."""
    cat, C = S.cat, S.codes
    if not S.chars_old:
        return                      # no role the player may have held replaces itself: S.repl is false
    m = S.repl_m
    ways = []
    rules = sorted({r.id for r in cat.initial_skills if r.replaces_role})
    for rid in rules:
        r = cat.skills[rid]
        holders = [c for c in cat.owners(rid) if c in S.chars_old]
        if not holders:
            continue
        conds = [Or([S.old_char == C.char[c] for c in holders]), enc_in_window(S, m, 0, r.windows)]
        # its usage condition in the window (出牌阶段: main, 争夺阶段: fight, 濒死求澄清: dying), read on the old role
        for win in TW.COND_WINDOWS:
            cond = getattr(r, win)
            if cond is not None and win in r.windows and not unconditional(r, win):
                ctx = Ctx(S, {"self": 0}, {}, S.globals_(), z3.BoolVal(False), moment=m)
                conds.append(Implies(m.w == WCODE[win], S.compile(cond, ctx)))
        if r.initial:
            ev = S.inv_m[0]
            still = z3.BoolVal(True) if "restore_invalid" not in cat.rules.turn_end else ev.t == m.t
            conds.append(Not(And(S.inv_ev[0], ev.before(m), still)))
        ways.append(And(conds))
    add("replacement needs a role-replacing skill", tuple(rules),
        Implies(S.repl, Or(ways) if ways else z3.BoolVal(False)))
    old_ok = [S.old_char == C.char[c] for c in S.chars_old]
    add("old role", (), Implies(S.repl, And(
        Or(old_ok or [z3.BoolVal(False)]),
        And([Implies(S.present[s], S.old_char != S.char[s]) for s in range(S.n)]),
        Implies(S.old_face_up, S.old_ever),
        Implies(Not(S._old_attr("hidden")), S.old_face_up))))
    # server Player.roleSkillsData setter: the new role is face up as it comes (hidden roles face down),
    # and hasEverFaceUp restarts from that; only the uses after it turn it (checks/enc/face.py)
    add("new role's face", (), Implies(S.repl, And(
        S.pre_face_up == Not(S.seat_attr(0, "hidden", S.ctx(0))), S.pre_ever == S.pre_face_up)))
    add("no replacement before the trace", (), Implies(S.repl, m.t >= S.start))


def _grant_sources(S: SymState, slot):
    """The ways ``slot`` may have been handed out: a site of one of its candidate grants, a giver seat, at
    its moment (interp.trace.give_errors)."""
    cat, C = S.cat, S.codes
    ways = []
    for gid in slot.candidates:
        for give in cat.sites(gid):
            sc = C.site[give.site_id]
            for g in range(S.n):
                if not may_give(S, give, g) or (give.to == "self" and g != 0) or (give.to == "others" and g == 0):
                    continue
                ways.append(And(S.rule_is(slot, gid), Eq(slot.site, sc), Eq(slot.giver, g),
                                   enc_give_ok(S, give, g, 0, slot.m, slot.params)))
    return Or(ways) if ways else z3.BoolVal(False)


def _grant_slots(S: SymState, add):
    cat, C = S.cat, S.codes
    T = S.T
    grant_slots = [sl for sl in S.slots if not sl.initial_slot]
    if S.lost is not None:
        sl = S.lost
        add("lost grant: wiped by the replacement", (), Implies(sl.present, And(
            S.repl, sl.m.before(S.repl_m), _grant_sources(S, sl))))
        _param_domains(S, add, "lost", sl)
    for i, slot in enumerate(grant_slots):
        m = slot.m
        if i > 0:
            prev = grant_slots[i - 1]
            add(f"grant {i} after grant {i - 1}", (), Implies(slot.present, And(prev.present,
                                                                                     prev.m.before(m))))
        add(f"grant {i} after the replacement", (), Implies(And(slot.present, S.repl), S.repl_m.before(m)))
        add(f"grant {i} source", tuple(sorted({g.giver for gid in slot.candidates for g in cat.sites(gid)})),
            Implies(slot.present, _grant_sources(S, slot)))
        rules = [(r, S.rule_is(slot, r)) for r in slot.candidates]
        add(f"grant {i} survives the turn ends", (), Implies(
            slot.present, survives_turn_ends(S, rules, m.t, And(S.inv_ev[0], m.before(S.inv_m[0])))))
        _param_domains(S, add, f"grant {i}", slot)
    # ---- per_turn: a site hands out at most per_turn grants to one player in one turn
    # (only the sites of grants the slots may hold: no other site's count can exceed anything; and only
    # when a turn can hold more grants from it than it allows)
    held = {gid for sl in grant_slots for gid in sl.candidates}
    for gid in sorted(held):
        for give in cat.sites(gid):
            if give.per_turn >= len(grant_slots):
                continue
            site_id = give.site_id
            for t in range(T):
                cnt = z3.Sum([Ite(And(sl.present, Eq(sl.site, C.site[site_id]), Eq(sl.m.t, t)), 1, 0)
                              for sl in grant_slots] or [z3.IntVal(0)])
                add(f"{site_id} per_turn (turn {t})", (give.giver,), cnt <= give.per_turn)


def _must_fire(S: SymState, add) -> None:
    """Twin of interp.trace.Runner.owe_fired / settle_fired, for the events the symbolic trace holds (the player's
    grants): in the question's turn, once the message was sent (the question is at or after the turn's first message
    window), every seat that then held a must-fire site's skill live (enc.grants.enc_must_fire: a TriggeredSkill with
    no choice), is asked (alive, or a BeforeDieSkill) and meets the site's ``when`` handed its grant to the player, if
    its grant op reaches her — a grant slot (or the grant a later replacement wiped) from that site and giver in that
    turn; a grant the state does not track (not among its grants) is left to the witness (enc.witness: the interpreter
    completes the trace, interp.trace.complete_fired). Server: skill/JieCheYunHuo.kt hands CannotPlayCard(误导) to
    every player on its holder's SendCardEvent, no prompt (phase/OnSendCardSkill.kt: before anyone acts)."""
    cat, C = S.cat, S.codes
    q, T = S.q, S.T
    sites = [g for src in list(cat.skills.values()) + list(cat.cards.values()) for g in src.gives
             if g.grant in S.grant_ids and g.site_id in C.site and enc_must_fire(cat, g)]
    if not sites:
        return
    first = min(TW.position(w) for w in TW.MESSAGE_WINDOWS)       # the message is sent: the first message window
    sent = q.pos() >= first
    slots = [sl for sl in S.slots if not sl.initial_slot] + ([S.lost] if S.lost is not None else [])
    repl_before = And(S.repl, Or(S.repl_m.t < T - 1, And(S.repl_m.t == T - 1, S.repl_m.pos() < first)))
    for give in sites:
        to, rule = enc_must_fire(cat, give), cat.skills[give.giver]
        for g in range(S.n):
            if not may_give(S, give, g) or 0 not in enc_fired_recipients(to, g, S.n):
                continue
            if g != 0:
                owns = _owns(S, g, give.giver, q)
            else:
                old = Or([S.old_char == C.char[c] for c in sorted(set(cat.owners(give.giver)) & set(S.chars_old))]
                         or [z3.BoolVal(False)])
                held = Or([And(sl.present, S.rule_is(sl, give.giver)) for sl in S.slots
                           if sl.initial_slot and give.giver in sl.candidates] or [z3.BoolVal(False)])
                owns = Ite(And(S.repl, Not(repl_before)), old, held)
            live = [S.present[g], owns, enc_when_at(S, give, g, q, {})]
            if rule.initial:
                ev = S.inv_m[g]
                inv = [S.inv_ev[g], Or(ev.t < T - 1, And(ev.t == T - 1, ev.pos() < first))]
                if "restore_invalid" in cat.rules.turn_end:
                    inv.append(ev.t == T - 1)
                if g == 0:
                    inv.append(Not(And(S.repl, ev.before(S.repl_m), repl_before)))
                live.append(Not(And(inv)))
                if not rule.has("BeforeDieSkill"):      # the sender was alive as he sent (dead at the question: since)
                    live.append(Or(S.alive[g], Eq(S.sender_t[T - 1], g)))
            has = Or([And(sl.present, S.rule_is(sl, give.grant), Eq(sl.site, C.site[give.site_id]), Eq(sl.giver, g),
                          sl.m.t == T - 1) for sl in slots if give.grant in sl.candidates] or [z3.BoolVal(False)])
            # a grant that cannot matter at the question (enc.grants.enc_grant_matters: a ban of cards she cannot use
            # now …) needs no slot: the witness hands it out (interp.trace.complete_fired), nothing read changes
            matters = enc_grant_matters(S, give.grant, _FixedArgs(S, give), 0)
            add(f"{give.site_id} fires by itself (giver seat {g})", (give.giver,),
                Implies(And([sent] + live), Or(has, Not(matters))))


class _FixedArgs:
    """A site's fixed arguments as a slot's parameters (z3 values), for what reads a grant's parameters."""

    def __init__(self, S: SymState, give: Give):
        C, out = S.codes, {}
        for p, t in S.cat.skills[give.grant].params.items():
            v = give.args[p]
            if t == "bool":
                out[p] = z3.BoolVal(bool(v))
            elif t == "int":
                out[p] = z3.IntVal(v)
            elif t == "card":
                out[p] = z3.IntVal(C.card[v])
            elif t == "colour":
                out[p] = z3.IntVal(C.colour[v])
            elif t == "set<card>":
                out[p] = {k: z3.BoolVal(C.cards[k] in v) for k in S.cards}
        self.params = out


def _user_in_front(S: SymState, add) -> None:
    """Twin of interp.path.user_in_front_errors (read by interp.trace.Runner.finish): the question's 传递阶段 window is
    not in front of a player who, in its turn, handed out a grant of a skill used to send his own hand card in another
    player's name (诱敌深入) and is not its sender, while only two players are alive — the symbolic trace's gives are
    the player's grant slots."""
    cat, C = S.cat, S.codes
    sites = [g for r in cat.skills.values() for g in r.gives if g.on == "use" and sends_users_card(r.do)
             and g.site_id in C.site]
    if not sites:
        return
    slots = [sl for sl in S.slots if not sl.initial_slot] + ([S.lost] if S.lost is not None else [])
    pairs = [(give, sl) for give in sites for sl in slots if give.grant in sl.candidates]
    if not pairs:
        return
    q = S.q
    living = z3.Sum([Ite(And(S.present[s], S.alive[s]), 1, 0) for s in range(S.n)])
    two = And(q.w == WCODE["send"], S.in_front != S.sender, living <= 2)
    for give, sl in pairs:
        add(f"{give.site_id}: its user is not in front of his message at two seats", (give.giver,),
            Not(And(two, sl.present, Eq(sl.site, C.site[give.site_id]), sl.m.t == q.t,
                       Eq(sl.giver, S.in_front))))


def _partner(cat, give: Give):
    """The site handed out together with ``give`` (its ``with``), or None."""
    if give.together is None:
        return None
    src = cat.cards.get(give.giver) if give.giver_is_card else cat.skills.get(give.giver)
    return next((g for g in (src.gives if src is not None else ()) if g.index == give.together), None)


def _coupled(S: SymState, add) -> None:
    """Twin of interp.trace._uncoupled, for the events the symbolic trace holds (the player's): a grant held from a
    site with a ``with`` partner came with the partner's event — the player's invalidation from that site, or
    another held grant from it — from the same giver in the same turn and window; and an invalidation of the
    player in force now from such a site came with the partner's grant, which is then still held. A partner
    the symbolic state cannot hold (a grant of another lifetime that may be gone by now, or none of its slots
    may hold it) is left free: the trace then has an event the symbolic trace does not show."""
    cat, C = S.cat, S.codes
    slots = [sl for sl in S.slots if not sl.initial_slot] + ([S.lost] if S.lost is not None else [])
    held = [sl for sl in S.slots if not sl.initial_slot]
    # the events a pair may not be split by (interp.trace._uncoupled: gives and the replacement; cards played are not)
    events = [sl.m for sl in slots] + [S.inv_m[s] for s in S.inv_seats] + [S.repl_m]

    def same(a, b):
        """At one moment, next to each other: the same turn and window, no event of the trace between."""
        lo, hi = Ite(a.step < b.step, a.step, b.step), Ite(a.step < b.step, b.step, a.step)
        apart = [And(e.present, lo < e.step, e.step < hi) for e in events if e is not a and e is not b]
        return And([a.t == b.t, a.w == b.w] + ([Not(Or(apart))] if apart else []))

    def invalidates(give) -> bool:
        return "InvalidSkill" in cat.skills[give.grant].closure

    for gid in sorted({g for sl in slots for g in sl.candidates}):
        for give in cat.sites(gid):
            other = _partner(cat, give)
            if other is None or give.site_id not in C.site or other.site_id not in C.site:
                continue
            mine, theirs = C.site[give.site_id], C.site[other.site_id]
            for sl in slots:
                if gid not in sl.candidates:
                    continue
                if invalidates(other):
                    need = And(S.inv_ev[0], S.inv_site[0] == theirs, S.inv_giver[0] == sl.giver, same(S.inv_m[0], sl.m))
                else:
                    r1, r2 = cat.skills[give.grant], cat.skills[other.grant]
                    if (r1.lifetime, r1.consumed) != (r2.lifetime, r2.consumed) or r2.lifetime == "resolution":
                        continue
                    need = Or([And(o.present, o.site == theirs, o.giver == sl.giver, same(o.m, sl.m))
                               for o in slots if o is not sl and other.grant in o.candidates] or [z3.BoolVal(False)])
                add(f"{sl.m.name} from {give.site_id} comes with {other.site_id}", (give.giver,),
                    Implies(And(sl.present, sl.site == mine), need))
    for give in cat.invalidation_sites():
        other = _partner(cat, give)
        if other is None or invalidates(other) or give.site_id not in C.site or other.site_id not in C.site:
            continue
        r2 = cat.skills[other.grant]
        holders = [sl for sl in held if other.grant in sl.candidates]
        if r2.consumed or r2.lifetime not in ("turn", "permanent") or not holders:
            continue
        theirs, m = C.site[other.site_id], S.inv_m[0]
        need = Or([And(sl.present, sl.site == theirs, sl.giver == S.inv_giver[0], same(sl.m, m))
                   for sl in holders])
        # the partner is gone by the question (not a grant the symbolic trace shows): a turn's grant after its
        # turn ended, any grant after a role replacement (the witness then hands it out: enc.witness._partners)
        gone = [And(S.repl, m.before(S.repl_m))] + ([m.t < S.T - 1] if r2.lifetime == "turn" else [])
        add(f"invalidation from {give.site_id} comes with {other.site_id}", (give.giver,),
            Implies(And(S.inv_ev[0], S.inv_site[0] == C.site[give.site_id]), Or([need] + gone)))


def _param_domains(S: SymState, add, name: str, slot) -> None:
    cat, C = S.cat, S.codes
    for pn, pt in S.param_types.items():
        v = slot.params[pn]
        if pt == "card":
            own = [C.card[c] for c in cat.cards if c in C.card]
            add(f"{name} {pn} is a card", (),
                And(v >= 0, v < len(C.cards)) if own == list(range(len(C.cards)))
                else Or([v == k for k in own]))
        elif pt == "colour":
            add(f"{name} {pn} is a colour", (), And(v >= 0, v < len(C.colours)))
        elif pt == "int":
            add(f"{name} {pn} bound", (), And(v >= 0, v <= 20))


def constraints(S: SymState) -> list:
    return [lab.expr for lab in reachability(S)]
