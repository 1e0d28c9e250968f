"""The z3 twin of ``model.trace``: which symbolic traces are legal, and back to concrete traces.

``reachability(S)`` states, as named constraints, that the symbolic trace of a ``SymState`` is one a
game under the catalogue can play: the table at the start (twin of ``trace.setup_errors``), every event
legal at its moment (``enc_give_ok`` / ``trace.give_errors``, ``enc_replace_ok`` /
``trace.replace_errors``), events in an order consistent with the turns and windows they happen in
(``model.turn``), what survives each turn end (``interpreter.turn_end``), and the moment of the question.
The constraints carry the catalogue rules behind them, so that an unsat core says "no, because …".

The interpreter executes a trace event by event; here each event is a symbolic *moment* (step, turn,
window) and the transition relation is stated per event against the state at that moment — the
timestamped form of the same bounded unrolling. ``witness(S, model)`` reads a model back as the final
``State`` with the ``Trace`` that produces it (``state.trace``); ``assignment(S, trace)`` pins a
symbolic state to a concrete trace, for the cross-check.
"""
from __future__ import annotations

import z3

from skillproof.model import trace as TR
from skillproof.model import turn as TW
from skillproof.model import vocab as V
from skillproof.model.catalogue import Give
from skillproof.model.state import Seat, SkillInst, State

from .symstate import DYING, NONE, WCODE, WCODES, Ctx, Labelled, Moment, Slot, SymState, w_in, wpos


# ================================================================================== building blocks
def _to_ok(to: str, g, receiver):
    """Twin of interpreter.to_ok."""
    if to == "self":
        return g == receiver if not isinstance(g, int) or not isinstance(receiver, int) else z3.BoolVal(g == receiver)
    if to == "others":
        return g != receiver if not isinstance(g, int) or not isinstance(receiver, int) else z3.BoolVal(g != receiver)
    return z3.BoolVal(True)


def _arg_eq(S: SymState, ptype: str, var, value):
    if ptype == "bool":
        return var == z3.BoolVal(value)
    if ptype == "int":
        return var == value
    if ptype == "card":
        return var == S.codes.card[value]
    if ptype == "colour":
        return var == S.codes.colour[value]
    if ptype == "set<card>":
        want = {S.codes.card[x] for x in value}
        return z3.And([b if c in want else z3.Not(b) for c, b in var.items()])
    raise ValueError(ptype)


def _char_at(S: SymState, g: int, m: Moment):
    """The character seat ``g`` plays at moment ``m`` (seat 0's old role before a replacement)."""
    if g == 0:
        return z3.If(S.old_role(0, m), S.old_char, S.char[0])
    return S.char[g]


def _owns(S: SymState, g: int, skill: str, m: Moment):
    """At moment ``m`` seat ``g`` holds ``skill`` among its role's skills (the player: in a present
    initial slot, or its old role before a replacement)."""
    owners = set(S.cat.owners(skill))
    if g != 0:
        role = z3.Or([S.char[g] == S.codes.char[c] for c in sorted(owners & set(S.chars_other))] or [z3.BoolVal(False)])
        return z3.And(role, _one_turn_kept(S, g, skill, m))
    old = z3.Or([S.old_char == S.codes.char[c] for c in sorted(owners & set(S.chars_old))] or [z3.BoolVal(False)])
    held = z3.Or([z3.And(sl.present, S.rule_is(sl, skill)) for sl in S.slots
                  if sl.initial_slot and skill in sl.candidates] or [z3.BoolVal(False)])
    return z3.If(S.old_role(0, m), old, held)


def _one_turn_kept(S: SymState, g: int, skill: str, m: Moment):
    """An initial skill that is also a OneTurnSkill (a generated kind marked initial, KD001) is dropped at
    the first turn end (twin of interpreter.turn_end): held at ``m`` only in the trace's first turn — or in
    the next, when [rules] turn_end drops before it restores and the skill was wrapped (the seat
    invalidated in the first turn) when that turn ended. One invalidation per seat: never past two ends."""
    r = S.cat.skills[skill]
    if not (r.initial and "OneTurnSkill" in r.closure):
        return z3.BoolVal(True)
    te = list(S.cat.rules.turn_end)
    kept = m.t == S.start
    if te.index("drop_one_turn") < te.index("restore_invalid"):
        ev = S.inv_m[g]
        kept = z3.Or(kept, z3.And(m.t == S.start + 1, S.inv_ev[g], ev.t == S.start))
    return kept


def _invalid_at(S: SymState, g: int, m: Moment):
    """Seat ``g``'s initial skills are wrapped at moment ``m``: its invalidation came earlier and has
    not been released by a turn end ([rules] turn_end restore_invalid) — nor wiped by a replacement."""
    ev = S.inv_m[g]
    still = z3.BoolVal(True) if "restore_invalid" not in S.cat.rules.turn_end else ev.t == m.t
    out = z3.And(S.inv_ev[g], ev.before(m), still)
    if g == 0:
        out = z3.And(out, z3.Not(z3.And(S.repl, ev.before(S.repl_m), S.repl_m.before(m))))
    return out


def enc_giver_live(S: SymState, give: Give, g: int, m: Moment):
    """Twin of the giver clause of trace.give_errors: at ``m`` seat ``g`` may use the card (its
    window and actor), or holds the giving skill live (and may use it now, if it is an ActiveSkill)."""
    from .encode import enc_actor_ok, enc_in_window
    if give.giver_is_card:
        return enc_in_window(S, m, g, S.cat.cards[give.giver].windows)
    rule = S.cat.skills[give.giver]
    conds = [_owns(S, g, give.giver, m)]
    if rule.initial:
        conds.append(z3.Not(_invalid_at(S, g, m)))
    if rule.has("ActiveSkill") and not rule.has("TriggeredSkill"):       # twin of trace.active_giver_ok
        if give.at:
            conds.append(z3.Or([enc_actor_ok(S, m, g, a) for a in rule.windows.values()] or [z3.BoolVal(False)]))
        else:
            conds.append(enc_in_window(S, m, g, rule.windows))
    return z3.And(conds)


def _moment_ok(S: SymState, m: Moment):
    """A well-formed moment: a turn of the trace, a window, and the facts of that window."""
    n = S.n
    seat = lambda v: z3.Or([z3.And(v == s, S.present[s]) for s in range(n)])     # noqa: E731
    return z3.Implies(m.present, z3.And(
        m.t >= S.start, m.t <= S.T - 1, m.step >= 0, m.step < S.steps,
        m.w >= 0, m.w < len(WCODES), m.w != WCODE["turn_end"],        # nothing happens once the turn ended
        z3.If(m.w == DYING, z3.And(w_in(m.intr, TW.DYING_WITHIN), seat(m.dy)),
              z3.And(m.intr == NONE, m.dy == NONE)),
        z3.If(m.message_live(), seat(m.front), m.front == NONE)))


def _lex_le(a: Moment, b: Moment):
    """``a`` happens no later than ``b`` in the turn order (turn, then window position)."""
    return z3.Or(a.t < b.t, z3.And(a.t == b.t, a.pos() <= b.pos()))


def enc_when_at(S: SymState, give: Give, g: int, m: Moment, params: dict):
    """The site's ``when`` read on the giver at moment ``m``."""
    ctx = Ctx(S, {"self": g}, dict(params), S.globals_(), z3.BoolVal(False), moment=m)
    return S.compile(give.when, ctx)


def may_give(S: SymState, give: Give, g: int) -> bool:
    """Can seat ``g`` be the giver at all in this symbolic state (a card: anyone; a skill: some
    character seat ``g`` may play holds it)? Sites that cannot are left out of the encoding."""
    if give.giver_is_card:
        return True
    owners = set(S.cat.owners(give.giver))
    cands = (set(S.chars_me) | set(S.chars_old)) if g == 0 else set(S.chars_other)
    return bool(owners & cands)


def enc_give_ok(S: SymState, give: Give, g: int, receiver: int, m: Moment, params: dict | None):
    """Twin of trace.give_errors for one site, giver seat and receiver seat: the grant may be handed out
    at moment ``m`` (its window, a live giver that may act then, ``to``, ``args``/``where``, ``when``)."""
    cat = S.cat
    grant = cat.skills[give.grant]
    conds = [S.present[g], enc_giver_live(S, give, g, m), _to_ok(give.to, g, receiver)]
    if give.at:
        conds.append(w_in(m.w, give.at))
    if params is not None:
        for pn, val in give.args.items():
            conds.append(_arg_eq(S, grant.params[pn], params[pn], val))
        if give.where is not None:
            conds.append(S.compile(give.where, Ctx(S, {"self": g}, dict(params), {}, z3.BoolVal(False))))
    conds.append(enc_when_at(S, give, g, m, params or {}))
    return z3.And(conds)


def _survives_turn_ends(S: SymState, rules: list, t_first, wrapped_by_inv):
    """Twin of interpreter.turn_end over the turn ends between turn ``t_first`` and the question: a skill
    that is a OneTurnSkill is dropped at each end unless wrapped by an invalidation at that moment.
    ``wrapped_by_inv`` says whether the seat's invalidation wraps it at all (it came after the skill)."""
    steps = list(S.cat.rules.turn_end)
    if "drop_one_turn" not in steps or not any("OneTurnSkill" in S.cat.skills[r].closure for r, _ in rules):
        return z3.BoolVal(True)
    drop_first = "restore_invalid" not in steps or steps.index("drop_one_turn") < steps.index("restore_invalid")
    ev = S.inv_m[0]
    out = []
    for e in range(S.T - 1):              # the end of turn e, when e >= t_first
        if "restore_invalid" not in steps:
            wrapped = z3.And(S.inv_ev[0], ev.t <= e)
        else:
            wrapped = z3.And(S.inv_ev[0], ev.t == e, z3.BoolVal(drop_first))
        keep = []
        for r, is_rule in rules:
            rule = S.cat.skills[r]
            if "OneTurnSkill" not in rule.closure:
                keep.append(is_rule)
            elif rule.initial:
                keep.append(z3.And(is_rule, wrapped, wrapped_by_inv))
        out.append(z3.Implies(e >= t_first, z3.Or(keep) if keep else z3.BoolVal(False)))
    return z3.And(out)


# ==================================================================================== the relation
def reachability(S: SymState) -> list[Labelled]:
    """Named constraints: the symbolic trace is one a game under the catalogue can play, ending at the
    moment of the question. Twin of model.trace.run (and, for the table, trace.setup_errors)."""
    cat, C = S.cat, S.codes
    out: list[Labelled] = []

    def add(label, rules, e):
        out.append(Labelled(label, tuple(rules), e))

    n, T = S.n, S.T
    seat = lambda v: z3.Or([z3.And(v == s, S.present[s]) for s in range(n)])     # noqa: E731
    # ---- the table (trace.setup_errors / interpreter.snapshot_errors)
    for s in range(1, n - 1):
        add(f"seat order {s}", (), z3.Implies(S.present[s + 1], S.present[s]))
    for s in range(1, min(n, cat.rules.min_seats)):
        add(f"at least {cat.rules.min_seats} players", (), S.present[s])
    for s in range(n):
        cands = S.chars_me if s == 0 else S.chars_other
        add(f"seat {s} character", (), z3.Or([S.char[s] == C.char[c] for c in cands] or [z3.BoolVal(False)]))
        for t in range(s):
            add(f"distinct characters {t},{s}", (), z3.Implies(z3.And(S.present[s], S.present[t]),
                                                                 S.char[s] != S.char[t]))
        add(f"seat {s} identity", (), z3.And(S.ident[s] >= 0, S.ident[s] < len(V.COLOURS),
                                             z3.Implies(S.alive[s], S.ident[s] != C.colour["none"])))
        for f in Seat.INT_FIELDS:
            lo, hi = V.INT_BOUNDS[f]
            add(f"seat {s} {f}", (), z3.And(S.ints[f][s] >= lo, S.ints[f][s] <= hi))
        red, blue, tru = S.ints["red_messages"][s], S.ints["blue_messages"][s], S.ints["true_messages"][s]
        add(f"seat {s} message counts", (), z3.And(red <= tru, blue <= tru, tru <= red + blue,
                                                   S.ints["non_black_messages"][s] <= tru))
        public = [c for c in cands if not cat.characters[c].hidden]
        add(f"seat {s} public roles face up", tuple(public),
            z3.Implies(S._char_in(s, [cat.characters[c] for c in public]), S.face_up[s]))
        add(f"seat {s} face up implies ever", (), z3.Implies(S.face_up[s], S.ever[s]))
    add("message direction", (), z3.And(S.message_dir >= 0, S.message_dir < len(V.DIRECTIONS)))
    # ---- turns: the trace starts a turn, each turn's player sits at the table, a new turn passes on
    add("first turn", (), z3.And(S.start >= 0, S.start <= T - 1))
    for t in range(T):
        add(f"turn {t} player", (), z3.Implies(S.start <= t, seat(S.owner[t])))
        add(f"turn {t} sender", (), seat(S.sender_t[t]))
        if t > 0 and n > 1:
            add(f"turn {t} passes on", (), z3.Implies(z3.And(S.start <= t - 1, S.present[1]),
                                                        S.owner[t] != S.owner[t - 1]))
    # ---- the moment of the question
    q = S.q
    add("window", (), z3.And(S.now >= 0, S.now < len(WCODES), S.now != WCODE["turn_end"],
                             z3.If(S.now == DYING, z3.And(w_in(S.intr, TW.DYING_WITHIN), seat(S.dying)),
                                   z3.And(S.intr == NONE, S.dying == NONE))))
    add("in front", (), z3.If(q.message_live(), seat(S.in_front), S.in_front == NONE))
    add("sender", (), S.sender == S.sender_at(q))
    if not cat.rules.lock_self:                       # interpreter.lock_errors
        add("the sender does not lock himself ([rules] lock_self = false)", (),
            z3.And([z3.Implies(S.sender == s, z3.Not(S.locked[s])) for s in range(n)]))
    # ---- events: well-formed moments, one step each, in an order the turn allows
    events = [sl.m for sl in S.slots if not sl.initial_slot] + [S.inv_m[s] for s in S.inv_seats] + [S.repl_m] + \
        ([S.lost.m] if S.lost is not None else []) + [pl.m for pl in S.plays]
    for m in events:
        add(f"{m.name} moment", (), _moment_ok(S, m))
        add(f"{m.name} before the question", (), z3.Implies(m.present, _lex_le(m, q)))
    for i, a in enumerate(events):
        for b in events[i + 1:]:
            both = z3.And(a.present, b.present)
            add(f"{a.name} / {b.name} order", (), z3.Implies(both, z3.And(
                a.step != b.step, z3.Implies(a.before(b), _lex_le(a, b)), z3.Implies(b.before(a), _lex_le(b, a)))))
    # ---- the player's role replacement (trace.replace_errors / apply_replace)
    _replacement(S, add, seat)
    # ---- invalidations: one per seat, from a site handing out an InvalidSkill (trace.give_errors)
    sites = cat.invalidation_sites()
    giver_rules = tuple(sorted({g.giver for g in sites}))
    for s in S.inv_seats:
        m = S.inv_m[s]
        ways = []
        for give in sites:
            sc = C.site.get(give.site_id)
            for g in range(n):
                if may_give(S, give, g) and not (give.to == "self" and g != s) and not (give.to == "others" and g == s):
                    ways.append(z3.And(S.inv_giver[s] == g, S.inv_site[s] == sc, enc_give_ok(S, give, g, s, m, None)))
        add(f"seat {s} invalidation needs a giver", giver_rules,
            z3.Implies(S.inv_ev[s], z3.Or(ways) if ways else z3.BoolVal(False)))
        now = S.inv_ev[s]
        if "restore_invalid" in cat.rules.turn_end:
            now = z3.And(now, m.t == T - 1)
        if s == 0:
            now = z3.And(now, z3.Not(z3.And(S.repl, m.before(S.repl_m))))
        add(f"seat {s} invalidated now", giver_rules, S.inv[s] == now)
        add(f"seat {s} invalidation only of a present seat", (), z3.Implies(S.inv_ev[s], S.present[s]))
    # ---- initial slots: the role's skills in order (consumed ones may be gone), minus one-turn skills
    # dropped at a turn end since the list began
    list_start = z3.If(S.repl, S.repl_m.t, S.start)
    # the seat's invalidation wraps its initial skills unless a replacement came after it
    wraps_initial = z3.And(S.inv_ev[0], z3.Not(z3.And(S.repl, S.inv_m[0].before(S.repl_m))))
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
                body = held if (rule.consumed or "OneTurnSkill" in rule.closure) else z3.And(held, slot.present)
            else:
                body = z3.Not(slot.present)
            by_char.append(z3.Implies(S.char[0] == C.char[c], body))
        add(f"initial skill {j}", (), z3.And(by_char) if by_char else z3.Not(slot.present))
        rules = [(r, S.rule_is(slot, r)) for r in slot.candidates]
        add(f"initial skill {j} survives the turn ends", (), z3.Implies(
            slot.present, _survives_turn_ends(S, rules, list_start, wraps_initial)))
        # a one-turn initial skill that was not dropped is there (nothing else removes it)
        need = []
        for c in S.chars_me:
            sk = cat.characters[c].skills
            if j < len(sk) and "OneTurnSkill" in cat.skills[sk[j]].closure and not cat.skills[sk[j]].consumed:
                need.append(z3.Implies(S.char[0] == C.char[c], z3.Implies(
                    _survives_turn_ends(S, [(sk[j], z3.BoolVal(True))], list_start, wraps_initial),
                    slot.present)))
        if need:
            add(f"initial skill {j} kept", (), z3.And(need))
    # ---- grant slots: each handed out at its moment by a gives site (trace.give_errors), in order
    _grant_slots(S, add)
    # ---- cards the player used this turn (trace 'play' events): in the question's turn, by a player who
    # may use that card type in the window (interpreter.card_usable at the moment)
    from .encode import enc_card_usable
    for k, pl in enumerate(S.plays):
        add(f"play {k}", (), z3.Implies(pl.present, z3.And(
            pl.card >= 0, pl.card < len(C.cards), pl.m.t == T - 1, enc_card_usable(S, pl.card, 0, pl.m))))
        if k:
            add(f"play {k} after play {k - 1}", (), z3.Implies(pl.present, S.plays[k - 1].present))
    return out


def _replacement(S: SymState, add, seat):
    """Twin of trace.replace_errors / apply_replace for the player (seat 0)."""
    cat, C = S.cat, S.codes
    if not S.chars_old:
        return                      # no role the player may have held replaces itself: S.repl is false
    m = S.repl_m
    ways = []
    rules = sorted({r.id for r in cat.initial_skills if r.replaces_role})
    for rid in rules:
        r = cat.skills[rid]
        from .encode import enc_in_window
        holders = [c for c in cat.owners(rid) if c in S.chars_old]
        if not holders:
            continue
        conds = [z3.Or([S.old_char == C.char[c] for c in holders]), enc_in_window(S, m, 0, r.windows)]
        # its usage condition in the window (争夺阶段: fight, 濒死求澄清: dying), read on the old role
        for win in ("fight", "dying"):
            cond = getattr(r, win)
            if cond is not None and win in r.windows:
                ctx = Ctx(S, {"self": 0}, {}, S.globals_(), z3.BoolVal(False), moment=m)
                conds.append(z3.Implies(m.w == WCODE[win], S.compile(cond, ctx)))
        if r.initial:
            ev = S.inv_m[0]
            still = z3.BoolVal(True) if "restore_invalid" not in cat.rules.turn_end else ev.t == m.t
            conds.append(z3.Not(z3.And(S.inv_ev[0], ev.before(m), still)))
        ways.append(z3.And(conds))
    add("replacement needs a role-replacing skill", tuple(rules),
        z3.Implies(S.repl, z3.Or(ways) if ways else z3.BoolVal(False)))
    old_ok = [S.old_char == C.char[c] for c in S.chars_old]
    add("old role", (), z3.Implies(S.repl, z3.And(
        z3.Or(old_ok or [z3.BoolVal(False)]),
        z3.And([z3.Implies(S.present[s], S.old_char != S.char[s]) for s in range(S.n)]),
        z3.Implies(S.old_face_up, S.old_ever),
        z3.Implies(z3.Not(S._old_attr("hidden")), S.old_face_up))))
    # server Player.roleSkillsData setter: the new role is face up as it comes (hidden roles face down),
    # and hasEverFaceUp restarts from that; nothing in a trace flips it afterwards
    add("new role's face", (), z3.Implies(S.repl, z3.And(
        S.face_up[0] == z3.Not(S.seat_attr(0, "hidden", S.ctx(0))), S.ever[0] == S.face_up[0])))
    add("no replacement before the trace", (), z3.Implies(S.repl, m.t >= S.start))


def _grant_sources(S: SymState, slot):
    """The ways ``slot`` may have been handed out: a site of one of its candidate grants, a giver seat, at
    its moment (trace.give_errors)."""
    cat, C = S.cat, S.codes
    ways = []
    for gid in slot.candidates:
        for give in cat.sites(gid):
            sc = C.site[give.site_id]
            for g in range(S.n):
                if not may_give(S, give, g) or (give.to == "self" and g != 0) or (give.to == "others" and g == 0):
                    continue
                ways.append(z3.And(S.rule_is(slot, gid), slot.site == sc, slot.giver == g,
                                   enc_give_ok(S, give, g, 0, slot.m, slot.params)))
    return z3.Or(ways) if ways else z3.BoolVal(False)


def _grant_slots(S: SymState, add):
    cat, C = S.cat, S.codes
    T = S.T
    grant_slots = [sl for sl in S.slots if not sl.initial_slot]
    if S.lost is not None:
        sl = S.lost
        add("lost grant: wiped by the replacement", (), z3.Implies(sl.present, z3.And(
            S.repl, sl.m.before(S.repl_m), _grant_sources(S, sl))))
        _param_domains(S, add, "lost", sl)
    for i, slot in enumerate(grant_slots):
        m = slot.m
        if i > 0:
            prev = grant_slots[i - 1]
            add(f"grant {i} after grant {i - 1}", (), z3.Implies(slot.present, z3.And(prev.present,
                                                                                     prev.m.before(m))))
        add(f"grant {i} after the replacement", (), z3.Implies(z3.And(slot.present, S.repl), S.repl_m.before(m)))
        add(f"grant {i} source", tuple(sorted({g.giver for gid in slot.candidates for g in cat.sites(gid)})),
            z3.Implies(slot.present, _grant_sources(S, slot)))
        rules = [(r, S.rule_is(slot, r)) for r in slot.candidates]
        add(f"grant {i} survives the turn ends", (), z3.Implies(
            slot.present, _survives_turn_ends(S, rules, m.t, z3.And(S.inv_ev[0], m.before(S.inv_m[0])))))
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
                cnt = z3.Sum([z3.If(z3.And(sl.present, sl.site == C.site[site_id], sl.m.t == t), 1, 0)
                              for sl in grant_slots] or [z3.IntVal(0)])
                add(f"{site_id} per_turn (turn {t})", (give.giver,), cnt <= give.per_turn)


def _param_domains(S: SymState, add, name: str, slot) -> None:
    cat, C = S.cat, S.codes
    for pn, pt in S.param_types.items():
        v = slot.params[pn]
        if pt == "card":
            own = [C.card[c] for c in cat.cards]
            add(f"{name} {pn} is a card", (),
                z3.And(v >= 0, v < len(C.cards)) if own == list(range(len(C.cards)))
                else z3.Or([v == k for k in own]))
        elif pt == "colour":
            add(f"{name} {pn} is a colour", (), z3.And(v >= 0, v < len(C.colours)))
        elif pt == "int":
            add(f"{name} {pn} bound", (), z3.And(v >= 0, v <= 20))


def constraints(S: SymState) -> list:
    return [lab.expr for lab in reachability(S)]


# ========================================================================== concrete <-> symbolic
class DoesNotFit(ValueError):
    """A concrete trace or state the symbolic shape cannot represent (more seats, grants, turns or
    events than the bounds)."""


def _seat_eqs(S: SymState, st: State) -> list:
    C = S.codes
    eqs = []
    k = len(st.seats)
    if k > S.n:
        raise DoesNotFit(f"state has {k} seats, the symbolic state {S.n}")
    for s in range(S.n):
        if s >= 1:
            eqs.append(S.present[s] == (s < k))
        if s >= k:
            continue
        seat = st.seats[s]
        if seat.character not in C.char:
            raise DoesNotFit(f"unknown character {seat.character}")
        eqs += [S.char[s] == C.char[seat.character], S.alive[s] == seat.alive, S.face_up[s] == seat.face_up,
                S.ever[s] == seat.ever_face_up, S.locked[s] == seat.locked,
                S.ident[s] == C.colour[seat.identity]]
        for f in Seat.INT_FIELDS:
            eqs.append(S.ints[f][s] == getattr(seat, f))
        if s in S.inv_seats:
            eqs.append(S.inv[s] == (seat.invalidated or any(i.invalid for i in seat.skills)))
        elif seat.invalidated or any(i.invalid for i in seat.skills):
            raise DoesNotFit("an invalidated seat the symbolic state leaves out")
    opt = lambda v: NONE if v is None else v      # noqa: E731
    eqs += [S.turn == st.turn, S.sender == opt(st.sender), S.in_front == opt(st.in_front),
            S.dying == opt(st.dying), S.message_dir == C.dir[st.message_dir], S.lockable == st.message_lockable]
    for c in V.MESSAGE_COLOURS:
        eqs.append(S.msg[c] == (c in st.message))
    for key, val in st.unknowns.items():
        if key in S.unknowns:
            eqs.append(S.unknowns[key] == val)
    return eqs


def _slot_eqs(S: SymState, st: State) -> tuple[list, list]:
    """Equalities for the player's skill list; returns them and the grant slots used, in order."""
    C = S.codes
    eqs = []
    me = st.seats[0]
    initial = [i for i in me.skills if not S.cat.skills[i.rule].is_grant]
    grants = [i for i in me.skills if S.cat.skills[i.rule].is_grant]
    if len(initial) > S.L or len(grants) > S.G:
        raise DoesNotFit("the skill list does not fit the symbolic slots")
    islots = [sl for sl in S.slots if sl.initial_slot]
    gslots = [sl for sl in S.slots if not sl.initial_slot]
    ch = S.cat.characters[me.character]
    pos = 0
    for sl in islots:
        rid = ch.skills[sl.index] if sl.index < len(ch.skills) else None
        inst = initial[pos] if pos < len(initial) else None
        if rid is not None and inst is not None and inst.rule == rid:
            eqs += [sl.present, sl.rule == C.rule[rid], sl.used == inst.used]
            pos += 1
        else:
            eqs.append(z3.Not(sl.present))
            if rid is not None:
                eqs.append(sl.rule == C.rule[rid])
    if pos != len(initial):
        raise DoesNotFit("initial skills are not in the character's order")
    used = []
    for sl, inst in zip(gslots, grants + [None] * (len(gslots) - len(grants))):
        if inst is None:
            eqs.append(z3.Not(sl.present))
            continue
        if inst.rule not in sl.candidates:
            raise DoesNotFit(f"grant {inst.rule} is not a candidate of the symbolic slots")
        eqs += [sl.present, sl.rule == C.rule[inst.rule], sl.used == inst.used,
                sl.giver == (NONE if inst.giver is None else inst.giver),
                sl.site == C.site.get(inst.site or "", NONE)]
        rule = S.cat.skills[inst.rule]
        for pn, pt in rule.params.items():
            if pn in inst.args:
                val = inst.args[pn]
                eqs.append(_arg_eq(S, pt, sl.params[pn], list(val) if pt == "set<card>" else val))
        used.append((sl, inst))
    return eqs, used


def _moment_eqs(m: Moment, step: int, t: int, mo: dict) -> list:
    opt = lambda v: NONE if v is None else v      # noqa: E731
    intr = WCODE[mo["interrupted"]] if mo["interrupted"] is not None else NONE
    return [m.present, m.step == step, m.t == t, m.w == WCODE[mo["window"]], m.intr == intr,
            m.front == opt(mo["in_front"]), m.dy == opt(mo["dying"])]


def assignment(S: SymState, state: State) -> list:
    """Equalities fixing ``S``'s moment of the question to a concrete, untimed ``state`` (decisions only;
    the trace that led there is left free)."""
    eqs = _seat_eqs(S, state)
    slot_eqs, used = _slot_eqs(S, state)
    eqs += slot_eqs
    for sl, inst in used:            # a grant marked initial is wrapped when it came before the invalidation
        if S.cat.skills[inst.rule].initial:
            eqs.append(S.wrapped(sl) == inst.invalid)
    eqs.append(S.now == (WCODE[state.window] if state.window is not None else NONE))
    eqs.append(S.intr == (WCODE[state.interrupted] if state.interrupted is not None else NONE))
    eqs.append(S.sender_t[-1] == state.sender_of_turn())     # who sends the question's turn's message
    eqs += _played_eqs(S, sorted(state.seats[0].played))
    return eqs


def _played_eqs(S: SymState, cards: list) -> list:
    """The play slots holding exactly ``cards`` (the player's cards used this turn), in order. A state built
    without play slots (nothing it is asked reads 'played') ignores them."""
    if not S.plays:
        return []
    if len(cards) > len(S.plays):
        raise DoesNotFit(f"{len(cards)} cards played, the symbolic trace holds {len(S.plays)}")
    eqs = []
    for k, pl in enumerate(S.plays):
        if k < len(cards):
            eqs += [pl.present, pl.card == S.codes.card[cards[k]]]
        else:
            eqs.append(z3.Not(pl.present))
    return eqs


def trace_assignment(S: SymState, trace: TR.Trace, run: TR.Run) -> list:
    """Equalities fixing ``S`` to a concrete trace and the state the interpreter reached by running it."""
    st = run.state
    for s, seat in enumerate(trace.setup.seats[1:], start=1):
        ch = S.cat.characters.get(seat.character)
        if ch is not None and [i.rule for i in seat.skills] != list(ch.skills):
            raise DoesNotFit("another seat without all its role's skills (the symbolic state holds them all)")
    if run.turns > S.T or run.turns < 1:
        raise DoesNotFit(f"the trace plays {run.turns} turns, the symbolic trace {S.T}")
    eqs = _seat_eqs(S, st)
    slot_eqs, used = _slot_eqs(S, st)
    eqs += slot_eqs
    start = S.T - run.turns
    eqs.append(S.start == start)
    eqs.append(S.now == WCODE[st.window] if st.window is not None else S.now == NONE)
    eqs.append(S.intr == (WCODE[st.interrupted] if st.interrupted is not None else NONE))
    # turns, their players and senders
    turn_no = -1
    senders: dict = {}
    for k, ev in enumerate(trace.events):
        mo = run.moments[k] if k < len(run.moments) else None
        if ev.kind == "turn":
            turn_no += 1
            if isinstance(ev.seat, int) and not isinstance(ev.seat, bool):
                eqs.append(S.owner[start + turn_no] == ev.seat)
        if mo is not None and mo["turn"] >= 0:
            if mo["sender"] is not None:
                senders.setdefault(mo["turn"], set()).add(mo["sender"])
            if mo.get("turn_sender") is not None:
                senders.setdefault(mo["turn"], set()).add(mo["turn_sender"])
    senders.setdefault(run.turns - 1, set()).add(st.sender_of_turn())
    if st.sender is not None:
        senders.setdefault(run.turns - 1, set()).add(st.sender)
    for t, ss in senders.items():
        if len(ss) > 1:
            raise DoesNotFit("two senders in one turn")
        eqs.append(S.sender_t[start + t] == next(iter(ss)))
    # the modelled events: the player's surviving grants, one invalidation per seat, the replacement
    modelled: list = []
    for sl, inst in used:
        if inst.event is None:
            raise DoesNotFit("a grant with no event")
        modelled.append((inst.event, sl.m))
    inv_events: dict = {}
    repl_event = None
    for k, ev in enumerate(trace.events):
        if ev.kind == "give":
            give = TR.site_of(S.cat, ev.site)
            if give is not None and "InvalidSkill" in S.cat.skills[give.grant].closure:
                if ev.seat in inv_events:
                    raise DoesNotFit("two invalidations of one seat")
                inv_events[ev.seat] = k
                eqs += [S.inv_giver[ev.seat] == ev.giver, S.inv_site[ev.seat] == S.codes.site[ev.site]] \
                    if isinstance(ev.seat, int) and 0 <= ev.seat < S.n and isinstance(ev.giver, int) else []
        elif ev.kind == "replace":
            if ev.seat != 0 or repl_event is not None:
                raise DoesNotFit("only one replacement, of the player")
            repl_event = k
    # the player's cards used in the question's turn: the play slots (other seats' and earlier turns' plays
    # are read by nothing: not events of the symbolic trace)
    plays = [k for k, ev in enumerate(trace.events) if ev.kind == "play" and ev.seat == 0 and
             k < len(run.moments) and run.moments[k]["turn"] == run.turns - 1]
    firsts: dict = {}
    for k in plays:
        firsts.setdefault(trace.events[k].card, k)
    if not S.plays:
        firsts = {}                  # nothing reads 'played' in this symbolic state
    if len(firsts) > len(S.plays):
        raise DoesNotFit("more cards played than the symbolic trace holds")
    for pl, (card, k) in zip(S.plays, sorted(firsts.items(), key=lambda x: x[1])):
        if card not in S.codes.card:
            raise DoesNotFit(f"unknown card {card}")
        eqs.append(pl.card == S.codes.card[card])
        modelled.append((k, pl.m))
    for pl in S.plays[len(firsts):]:
        eqs.append(z3.Not(pl.present))
    shown = {k for k, _ in modelled} | set(inv_events.values())
    for k, ev in enumerate(trace.events):
        if ev.kind == "give" and k not in shown:
            # a grant to another seat, or one dropped since: not an event of the symbolic trace (dropping
            # it keeps a legal trace legal, so the symbolic bounds lose nothing by it)
            raise DoesNotFit("a grant the final state no longer shows")
    for s in range(S.n):
        if s in inv_events:
            if s not in S.inv_seats:
                raise DoesNotFit("an invalidation of a seat the symbolic trace leaves out")
            modelled.append((inv_events[s], S.inv_m[s]))
        elif s in S.inv_seats:
            eqs.append(z3.Not(S.inv_ev[s]))
    if repl_event is not None:
        if trace.setup.seats[0].character not in S.chars_old:
            raise DoesNotFit("a replacement by a role that cannot replace itself")
        modelled.append((repl_event, S.repl_m))
        old = trace.setup.seats[0]
        eqs += [S.old_char == S.codes.char[old.character], S.old_face_up == old.face_up,
                S.old_ever == old.ever_face_up]
    else:
        eqs.append(z3.Not(S.repl))
    for rank, (k, m) in enumerate(sorted(modelled, key=lambda x: x[0])):
        mo = run.moments[k]
        if mo["window"] is None or mo["turn"] < 0:
            raise DoesNotFit("an event before any turn")
        eqs += _moment_eqs(m, rank, start + mo["turn"], mo)
    return eqs


def slot_to_index(S: SymState, model, slot_code: int) -> int | None:
    """The concrete skill-list index of symbolic slot ``slot_code`` (present slots before it)."""
    if slot_code == NONE:
        return None
    return sum(1 for sl in S.slots[:slot_code] if z3.is_true(model.eval(sl.present, model_completion=True)))


def witness(S: SymState, model) -> State:
    """The concrete final state a model describes, with the trace that produces it (``state.trace``):
    seats renumbered to the present ones; events in the order of their steps, each preceded by the turn
    and window moves that bring the trace to its moment."""
    cat, C = S.cat, S.codes
    ev = lambda e: model.eval(e, model_completion=True)      # noqa: E731
    b = lambda e: z3.is_true(ev(e))                          # noqa: E731
    iv = lambda e: ev(e).as_long()                           # noqa: E731
    seats_idx = [s for s in range(S.n) if b(S.present[s])]
    renum = {s: i for i, s in enumerate(seats_idx)}
    opt = lambda v: renum.get(iv(v)) if iv(v) != NONE else None     # noqa: E731
    seats, setup_seats = [], []
    for s in seats_idx:
        ch = cat.characters[C.chars[iv(S.char[s])]]
        seat = Seat(character=ch.id, alive=b(S.alive[s]), face_up=b(S.face_up[s]), ever_face_up=b(S.ever[s]),
                    identity=C.colours[iv(S.ident[s])], locked=b(S.locked[s]), invalidated=b(S.inv[s]))
        for f in Seat.INT_FIELDS:
            setattr(seat, f, iv(S.ints[f][s]))
        inv = b(S.inv[s])
        if s == 0:
            seat.played = frozenset(C.cards[iv(pl.card)] for pl in S.plays if b(pl.present))
            for sl in S.slots:
                if not b(sl.present):
                    continue
                rid = C.rules[iv(sl.rule)]
                rule = cat.skills[rid]
                wrapped = b(S.invalid(sl)) if rule.initial else False
                inst = SkillInst(rid, invalid=wrapped, used=b(sl.used))
                if not sl.initial_slot:
                    inst.args = _params(S, model, rule, sl)
                    inst.giver = renum.get(iv(sl.giver))
                    inst.site = C.sites[iv(sl.site)][0]
                    inst.at = WCODES[iv(sl.m.w)]
                    inst.turns_ago = S.T - 1 - iv(sl.m.t)
                seat.skills.append(inst)
        else:
            seat.skills = [SkillInst(r, invalid=inv and cat.skills[r].initial) for r in ch.skills]
        seats.append(seat)
        # the table at the start: no grants, nothing invalidated; the player's old role if replaced
        start = Seat(**{k: getattr(seat, k) for k in ("character", "alive", "face_up", "ever_face_up",
                                                      "identity", "locked", *Seat.INT_FIELDS)})   # not invalidated
        if s == 0 and b(S.repl):
            old = cat.characters[C.chars[iv(S.old_char)]]
            start.character, start.face_up = old.id, b(S.old_face_up)
            start.ever_face_up = start.face_up or b(S.old_ever)
            start.skills = [SkillInst(r) for r in old.skills]
        elif s == 0:
            # the role's skills as the trace began: those held now, and one-turn skills a turn end dropped
            # (a consumed one that is gone was never there)
            start.skills = []
            for sl in S.slots:
                if not sl.initial_slot:
                    continue
                rid = C.rules[iv(sl.rule)] if iv(sl.rule) in range(len(C.rules)) else None
                if rid is None or rid not in ch.skills:
                    continue
                r = cat.skills[rid]
                if b(sl.present) or ("OneTurnSkill" in r.closure and not r.consumed):
                    start.skills.append(SkillInst(rid))
        else:
            start.skills = [SkillInst(i.rule) for i in seat.skills if not cat.skills[i.rule].is_grant]
        setup_seats.append(start)
    st = State(seats=seats, turn=renum[iv(S.turn)], sender=opt(S.sender), in_front=opt(S.in_front),
               dying=opt(S.dying), message=frozenset(c for c in V.MESSAGE_COLOURS if b(S.msg[c])),
               message_dir=C.dirs[iv(S.message_dir)], message_lockable=b(S.lockable),
               window=WCODES[iv(S.now)] if iv(S.now) != NONE else None,
               interrupted=WCODES[iv(S.intr)] if iv(S.intr) not in (NONE,) else None)
    st.unknowns = {k: b(v) if z3.is_bool(v) else iv(v) for k, v in sorted(S.unknowns.items())}
    setup = State(seats=setup_seats, turn=st.turn, message=st.message, message_dir=st.message_dir,
                  message_lockable=st.message_lockable, unknowns=dict(st.unknowns))
    st.trace = TR.Trace(setup, _events(S, model, renum))
    return st


def _params(S: SymState, model, rule, sl) -> dict:
    C = S.codes
    ev = lambda e: model.eval(e, model_completion=True)      # noqa: E731
    out = {}
    for pn, pt in rule.params.items():
        v = sl.params[pn]
        if pt == "bool":
            out[pn] = z3.is_true(ev(v))
        elif pt == "set<card>":
            out[pn] = tuple(C.cards[c] for c, bb in sorted(v.items()) if z3.is_true(ev(bb)))
        elif pt == "card":
            out[pn] = C.cards[ev(v).as_long()]
        elif pt == "colour":
            out[pn] = C.colours[ev(v).as_long()]
        else:
            out[pn] = ev(v).as_long()
    return out


def _events(S: SymState, model, renum: dict) -> list:
    """The trace's events: turns, window moves, and the modelled events at their moments."""
    C = S.codes
    ev = lambda e: model.eval(e, model_completion=True)      # noqa: E731
    b = lambda e: z3.is_true(ev(e))                          # noqa: E731
    iv = lambda e: ev(e).as_long()                           # noqa: E731
    seat = lambda v: renum.get(iv(v)) if iv(v) != NONE else None     # noqa: E731
    happenings = []          # (step, moment, event)
    for sl in S.slots:
        if sl.initial_slot or not b(sl.present):
            continue
        rid = C.rules[iv(sl.rule)]
        happenings.append((iv(sl.m.step), sl.m, TR.Event("give", seat=0, giver=renum.get(iv(sl.giver)),
                                                          site=C.sites[iv(sl.site)][0],
                                                          args=_params(S, model, S.cat.skills[rid], sl))))
    if S.lost is not None and b(S.lost.present):
        sl = S.lost
        rid = C.rules[iv(sl.rule)]
        happenings.append((iv(sl.m.step), sl.m, TR.Event("give", seat=0, giver=renum.get(iv(sl.giver)),
                                                          site=C.sites[iv(sl.site)][0],
                                                          args=_params(S, model, S.cat.skills[rid], sl))))
    for s in range(S.n):
        if s in renum and b(S.inv_ev[s]):
            happenings.append((iv(S.inv_m[s].step), S.inv_m[s],
                               TR.Event("give", seat=renum[s], giver=renum.get(iv(S.inv_giver[s])),
                                        site=C.sites[iv(S.inv_site[s])][0])))
    if b(S.repl):
        happenings.append((iv(S.repl_m.step), S.repl_m,
                           TR.Event("replace", seat=0, character=C.chars[iv(S.char[0])])))
    for pl in S.plays:
        if b(pl.present):
            happenings.append((iv(pl.m.step), pl.m, TR.Event("play", seat=0, card=C.cards[iv(pl.card)])))
    happenings.sort(key=lambda h: h[0])
    out: list = []
    start = iv(S.start)
    cur_t = None
    cur = {"window": None, "interrupted": None, "in_front": None, "dying": None}

    def move(t: int, w: str, intr, front, dy):
        nonlocal cur_t, cur
        while cur_t is None or cur_t < t:
            if cur_t is not None:
                out.append(TR.Event("window", window="turn_end"))
            cur_t = start if cur_t is None else cur_t + 1
            owner, snd = renum[iv(S.owner[cur_t])], renum.get(iv(S.sender_t[cur_t]))
            out.append(TR.Event("turn", seat=owner, sender=snd if snd != owner else None))
            cur = {"window": "draw", "interrupted": None, "in_front": None, "dying": None}
        sender = renum.get(iv(S.sender_t[t]))
        if w == "dying":
            base = {"window": intr, "interrupted": None, "in_front": front, "dying": None}
            if cur["window"] != "dying" or cur["interrupted"] != intr:
                if cur["window"] != intr or cur["in_front"] != front:
                    out.append(_window_event(intr, front, sender))
                cur = base
            if cur["window"] != "dying" or cur["dying"] != dy:
                out.append(TR.Event("window", window="dying", dying=dy))
            cur = {"window": "dying", "interrupted": intr, "in_front": front, "dying": dy}
            return
        if cur["window"] != w or cur["in_front"] != front:
            out.append(_window_event(w, front, sender))
        cur = {"window": w, "interrupted": None, "in_front": front, "dying": None}

    for _, m, e in happenings:
        intr = WCODES[iv(m.intr)] if iv(m.intr) != NONE else None
        move(iv(m.t), WCODES[iv(m.w)], intr, seat(m.front), seat(m.dy))
        out.append(e)
    now = WCODES[iv(S.now)]
    intr = WCODES[iv(S.intr)] if iv(S.intr) != NONE else None
    move(S.T - 1, now, intr, seat(S.in_front), seat(S.dying))
    for sl in S.slots:                       # skills used this turn (what 'used' conditions read)
        if b(sl.present) and b(sl.used):
            out.append(TR.Event("use", seat=0, rule=C.rules[iv(sl.rule)]))
    return out


def _window_event(w: str, front, sender) -> TR.Event:
    if TW.WINDOWS[w].message:
        return TR.Event("window", window=w, in_front=front, sender=sender)
    return TR.Event("window", window=w)
