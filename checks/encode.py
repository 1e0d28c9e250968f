"""The z3 twin of the reference interpreter (``skillproof.model.interpreter``).

Every decision of the interpreter has an encoder here with the same name prefixed ``enc_``, following
the interpreter clause by clause (Cedar-style) but written as symbolic folds over the slots of a
``SymState`` (``checks.symstate``) instead of loops with early returns — so a bug must be written twice,
differently, to hide. Which symbolic traces are legal is ``checks.enc_trace`` (the twin of
``model.trace``); its names are re-exported here for the families.
"""
from __future__ import annotations

import z3
from .terms import And, Eq, Or

from skillproof.model import vocab as V
from skillproof.model.catalogue import Ref, Rule

from .symstate import (NONE, WCODE, WCODES, Codes, Ctx, Labelled, Moment, Slot, SymState, _as_int,  # noqa: F401
                       _compile, _set_member, w_in)

FREE, MUST, CANNOT = 0, 1, 2
RECEIVE_NAMES = {FREE: "free", MUST: "must", CANNOT: "cannot"}


# ==================================================================================== conversion
def _memo(fn):
    """Cache a decision encoding per symbolic state and arguments (terms are immutable; building them
    is the expensive part of asking many questions about one state). Arguments are keyed by ``_key``."""
    import functools

    @functools.wraps(fn)
    def wrapper(S, *args, **kw):
        key = (fn.__name__,) + tuple(_key(a) for a in args) + tuple((k, _key(v)) for k, v in sorted(kw.items()))
        cache = S.__dict__.setdefault("_enc_cache", {})
        if key not in cache:
            cache[key] = fn(S, *args, **kw)
        return cache[key]
    return wrapper


def _key(a):
    """A cache key for an encoder argument: z3 terms by their AST id (alive as long as the state that
    holds them), moments by their window term, dicts by their items, plain values as they are."""
    if isinstance(a, z3.AstRef):
        return ("ast", a.get_id())
    if isinstance(a, Moment):
        return ("moment", a.w.get_id())
    if isinstance(a, dict):
        return ("dict",) + tuple(sorted(a.items()))
    return a


def _ref_code(S: SymState, ref: Ref, slot: Slot):
    if ref.kind == "any":
        return None
    if ref.kind == "card":
        return z3.IntVal(S.codes.card[ref.value])
    return slot.params[ref.value]


@_memo
def enc_conversion(S: SymState, actual, declared, only_must: bool = False):
    """Twin of interpreter.conversion (note L109-113 + server canUseCardTypes).
    Returns (ok, via): via is the slot index of the conversion that fires, or NONE."""
    cat = S.cat
    ok = actual == declared
    veto = z3.BoolVal(False)
    via = z3.IntVal(NONE)
    via_must = z3.BoolVal(False)
    for slot in S.slots:
        for rid in S.rules_with(slot, "ConvertCardSkill"):
            r = cat.skills[rid]
            if r.convert is None:
                continue
            applies = S.live_rule(slot, rid, "ConvertCardSkill")
            if not (cat.rules.face_down_converts if r.initial else cat.rules.face_down_grant_converts):
                applies = And(applies, S.face_up[0])
            src = _ref_code(S, r.convert.source, slot)
            matches = applies if src is None else And(applies, src == actual)
            in_targets = Or([_ref_code(S, t, slot) == declared for t in r.convert.targets])
            must = z3.BoolVal(r.convert.must)
            veto = Or(veto, And(matches, z3.Not(in_targets), must))
            passes = And(matches, in_targets) if not only_must or r.convert.must else z3.BoolVal(False)
            ok = Or(ok, passes)
            takes = And(passes, Or(actual != declared, must),
                           Or(via == NONE, z3.Not(via_must), must))
            via = z3.If(takes, slot.index, via)
            via_must = z3.If(takes, must, via_must)
    return And(ok, z3.Not(veto)), z3.If(veto, NONE, via)


def _ban_all(S, r: Rule, slot):
    b = r.ban.all
    return slot.params[b.value] if isinstance(b, Ref) else z3.BoolVal(b)


def _ban_has(S, r: Rule, slot, declared):
    c = r.ban.cards
    if isinstance(c, Ref):
        return _set_member(declared, slot.params[c.value])
    return Or([declared == S.codes.card[x.value] for x in c] or [z3.BoolVal(False)])


@_memo
def enc_banned(S: SymState, declared):
    """Twin of interpreter.banned (note L101; server cannotPlayCard looks at the declared type)."""
    terms = []
    for slot in S.slots:
        for rid in S.rules_with(slot, "CannotPlayCard"):
            r = S.cat.skills[rid]
            if r.ban is None:
                continue
            terms.append(And(S.live_rule(slot, rid, "CannotPlayCard"),
                                Or(_ban_all(S, r, slot), _ban_has(S, r, slot, declared))))
    return Or(terms) if terms else z3.BoolVal(False)


def _const(v):
    """The Python int of a constant argument (an int or a z3 numeral), else None."""
    if isinstance(v, int):
        return v
    if z3.is_int_value(v):
        return v.as_long()
    return None


@_memo
def enc_actor_ok(S: SymState, m: Moment, seat, actor: str):
    """Twin of trace.actor_ok: may ``seat`` act as ``actor`` (model.turn.ACTORS) at moment ``m``?"""
    if actor == "turn":
        return Eq(S.owner_at(m.t), seat)
    if actor == "others":
        return S.owner_at(m.t) != seat
    if actor == "anyone":
        return z3.BoolVal(True)
    if actor == "in_front":
        return Eq(m.front, seat)
    if actor == "not_in_front":
        return m.front != seat
    if actor == "sender":                   # who sends this turn's message (trace.actor_ok)
        return S.sender_of_turn(m.t) == seat
    if actor == "dying_player":
        return m.dy == seat
    return z3.BoolVal(False)


@_memo
def enc_in_window(S: SymState, m: Moment, seat, windows: dict):
    """Twin of trace.in_window: the window of moment ``m`` is one of ``windows`` with ``seat`` its actor
    (an untimed moment, window NONE, is every window)."""
    terms = [And(Eq(m.w, WCODE[w]), enc_actor_ok(S, m, seat, actor)) for w, actor in windows.items()]
    return Or([Eq(m.w, NONE)] + terms)


def enc_spent(S: SymState, slot, rid: str):
    """Twin of interpreter.spent: the slot's skill has a usage limit (turn or game) and was used this turn."""
    return slot.used if S.cat.skills[rid].limit != "none" else z3.BoolVal(False)


def enc_skill_usable_now(S: SymState, rid: str, seat: int = 0):
    """Twin of interpreter.skill_usable_now: seat ``seat`` may use the ActiveSkill ``rid`` at the question's
    moment (live, not spent, window and actor, the window's condition). Other seats hold their role's skills
    (unused: only the player's uses are in the state)."""
    r = S.cat.skills[rid]
    m = S.q

    def cond_at(ctx):
        out = []
        for w in ("fight", "dying"):
            c = getattr(r, w)
            if c is not None:
                out.append(z3.Implies(S.now == WCODE[w], S.compile(c, ctx)))
        return And(out) if out else z3.BoolVal(True)
    if seat == 0:
        return Or([And(live, z3.Not(enc_spent(S, sl, rid)), enc_in_window(S, m, 0, r.windows), cond_at(S.ctx(0, sl)))
                      for sl, live in holds(S, rid, "ActiveSkill")] or [z3.BoolVal(False)])
    owners = [c for c in S.cat.owners(rid) if c in S.chars_other]
    if not owners:                  # a grant (its parameters unknown here) or a role no other seat has
        return z3.BoolVal(False)
    held = Or([S.char[seat] == S.codes.char[c] for c in owners])
    return And(S.present[seat], held, z3.Not(S.inv[seat]) if r.initial else z3.BoolVal(True),
                  enc_in_window(S, m, seat, r.windows), cond_at(S.ctx(seat)))


def enc_grant_matters(S: SymState, rid: str, slot: Slot, seat=0):
    """Twin of interpreter.grant_matters for rule ``rid`` with ``slot``'s parameters."""
    r = S.cat.skills[rid]
    cards = [z3.IntVal(k) for k in S.cards]
    if r.ban is not None:
        return Or([And(enc_card_usable(S, c, seat), Or(_ban_all(S, r, slot), _ban_has(S, r, slot, c)))
                      for c in cards] or [z3.BoolVal(False)])
    if r.receive is not None:
        return enc_at_decision(S, "receive", seat)
    if r.send is not None:
        return enc_at_decision(S, "send", seat)
    if r.draw is not None:
        return enc_at_decision(S, "draw", seat)
    if r.convert is not None:
        return Or([enc_card_usable(S, c, seat) for c in cards] or [z3.BoolVal(False)])
    return z3.BoolVal(True)


def enc_at_decision(S: SymState, decision: str, seat=0):
    """The moment of the question is where ``decision`` is taken by ``seat`` (model.turn.DECISION_WINDOWS)
    — twin of interpreter.at_decision."""
    from skillproof.model.turn import DECISION_WINDOWS
    wins, actor = DECISION_WINDOWS[decision]
    alive = S.alive[seat] if isinstance(seat, int) else z3.BoolVal(True)
    return And(w_in(S.now, wins), enc_actor_ok(S, S.q, seat, actor), alive)


def enc_card_usable(S: SymState, declared, seat=0, m: Moment | None = None):
    """Twin of interpreter.card_usable: a card of the declared type may be used by ``seat`` now."""
    return _card_usable(S, declared, seat, m or S.q)


@_memo
def _card_usable(S: SymState, declared, seat, m: Moment):
    k = _const(declared)
    if k is not None:               # a known card type: only its own windows can hold (same term, built once)
        return enc_in_window(S, m, seat, S.cards[k].windows) if k in S.cards else z3.BoolVal(False)
    return Or([And(Eq(declared, k), enc_in_window(S, m, seat, c.windows))
                  for k, c in S.cards.items()] or [z3.BoolVal(False)])


def enc_card_window(S: SymState, declared):
    """The window of the question is one the declared card type is used in (whoever uses it)."""
    return Or([S.now == NONE] + [And(declared == i, w_in(S.now, tuple(c.windows)))
                                    for i, c in S.cards.items() if c.windows])


@_memo
def enc_can_play(S: SymState, actual, declared):
    """Twin of interpreter.can_play: convertible, not banned, usable in the window."""
    ok, _ = enc_conversion(S, actual, declared)
    return And(ok, z3.Not(enc_banned(S, declared)), enc_card_usable(S, declared))


@_memo
def enc_resolves(S: SymState, declared):
    """Twin of interpreter.resolves: some card reaches play declared as ``declared``, or a live skill acting as
    it with no card (plays.card_of = none) may be used now and passes the user's bans if it consults them."""
    cat = S.cat
    terms = [enc_can_play(S, z3.IntVal(k), declared) for k in S.cards]
    for slot in S.slots:
        for rid in slot.candidates:
            r = cat.skills[rid]
            p = r.plays
            if p is None or p.card_of != "none":
                continue
            is_card = Or([declared == S.codes.card[c] for c in p.cards])
            live = And(slot.present, S.rule_is(slot, rid), z3.Not(S.invalid(slot)))
            if r.has("ActiveSkill"):
                now = And(z3.Not(enc_spent(S, slot, rid)), enc_in_window(S, S.q, 0, r.windows))
                for win in ("fight", "dying"):
                    c = getattr(r, win)
                    ok = S.compile(c, S.ctx(0, slot)) if c is not None else z3.BoolVal(False)
                    now = And(now, z3.Implies(S.now == WCODE[win], ok))
            else:
                now = enc_card_usable(S, declared)
            bans = z3.Not(enc_banned(S, declared)) if p.checks_bans else z3.BoolVal(True)
            terms.append(And(is_card, live, now, bans))
    return Or(terms)


@_memo
def enc_fires(S: SymState, rid: str):
    """Twin of interpreter.fires: a live slot holding ``rid``, the window one of its ``fires.at`` (untimed:
    any), its ``fires.when`` true on the player."""
    r = S.cat.skills[rid]
    if r.fires is None:
        return z3.BoolVal(False)
    win = Or([S.now == NONE] + [S.now == WCODE[w] for w in r.fires.at])
    terms = [And(slot.present, S.rule_is(slot, rid), z3.Not(S.invalid(slot)),
                    S.compile(r.fires.when, S.ctx(0, slot))) for slot in S.slots if rid in slot.candidates]
    return And(win, Or(terms)) if terms else z3.BoolVal(False)


# ======================================================================================== receive
@_memo
def enc_receive_parts(S: SymState):
    mr = S.cat.rules.must_receive
    must = Or([t for k, t in (("sender", S.sender == 0), ("turn", S.turn == 0), ("locked", S.locked[0]))
                  if k in mr] or [z3.BoolVal(False)])
    cannot = z3.BoolVal(False)
    for slot in S.slots:
        for rid in S.rules_with(slot, "MustReceiveMessage"):
            r = S.cat.skills[rid]
            if r.receive is None:
                continue
            live = S.live_rule(slot, rid, "MustReceiveMessage")
            ctx = S.ctx(0, slot)
            must = Or(must, And(live, S.compile(r.receive.must, ctx)))
            cannot = Or(cannot, And(live, S.compile(r.receive.cannot, ctx)))
    return must, cannot


@_memo
def enc_receive(S: SymState):
    """Twin of interpreter.receive: FREE / MUST / CANNOT (note L117-119; server: sender and locked
    players must receive; must wins over cannot when ``rules.must_beats_cannot``)."""
    must, cannot = enc_receive_parts(S)
    both = MUST if S.cat.rules.must_beats_cannot else CANNOT
    return z3.If(And(must, cannot), both, z3.If(must, MUST, z3.If(cannot, CANNOT, FREE)))


# ================================================================================== send groups
@_memo
def enc_send_in_force(S: SymState, group: str):
    """Twin of interpreter.send_in_force (note L129: later overrides earlier; server lastOrNull)."""
    out = z3.IntVal(NONE)
    for slot in S.slots:
        out = z3.If(S.live(slot, group), slot.index, out)
    return out


def enc_default_send(S: SymState, group: str, d, lc):
    if group == "SendMessageDirectionSkill":
        return d == S.message_dir
    if group == "SendMessageCanLockSkill":
        return And(lc <= 1, Or(lc == 0, S.lockable))
    return z3.BoolVal(True)


@_memo
def enc_send_allowed(S: SymState, group: str, d, lc):
    """Twin of interpreter.send_allowed."""
    out = enc_default_send(S, group, d, lc)
    for slot in S.slots:
        for rid in S.rules_with(slot, group):
            r = S.cat.skills[rid]
            if r.send is None:
                continue
            rule = S.compile(r.send.rule, S.ctx(0, slot, dir=d, lock_count=lc))
            out = z3.If(S.live_rule(slot, rid, group), rule, out)
    return out


# ======================================================================================= skipping
@_memo
def enc_banned_all(S: SymState):
    terms = []
    for slot in S.slots:
        for rid in S.rules_with(slot, "CannotPlayCard"):
            r = S.cat.skills[rid]
            if r.ban is not None:
                terms.append(And(S.live_rule(slot, rid, "CannotPlayCard"), _ban_all(S, r, slot)))
    return Or(terms) if terms else z3.BoolVal(False)


@_memo
def enc_skills_gone(S: SymState):
    """No live ActiveSkill and no unwrapped initial skill (server: !skills.any{isInitial || Active}; twin of
    interpreter._skills_gone). Unwrapped as ``S.wrapped`` says: a grant marked initial that came after the
    seat's invalidation is not wrapped (InvalidSkill.deal wraps what is in the list then) and still counts."""
    keep = []
    for slot in S.slots:
        keep.append(S.live(slot, "ActiveSkill"))
        init = [r for r in slot.candidates if S.cat.skills[r].initial]
        if init:
            keep.append(And(slot.present, z3.Not(S.wrapped(slot)), Or([S.rule_is(slot, r) for r in init])))
    return z3.Not(Or(keep)) if keep else z3.BoolVal(True)


def _usable(S: SymState, which: str):
    terms = []
    for slot in S.slots:
        for rid in S.rules_with(slot, "ActiveSkill"):
            r = S.cat.skills[rid]
            cond = getattr(r, which)
            if cond is None:
                continue
            terms.append(And(S.live_rule(slot, rid, "ActiveSkill"), S.compile(cond, S.ctx(0, slot))))
    return Or(terms) if terms else z3.BoolVal(False)


@_memo
def enc_skip_fight(S: SymState):
    """Twin of interpreter.skip_fight (note L94-97; server cannotPlayCardAndSkillForFightPhase)."""
    return _enc_skip(S, "fight")


@_memo
def enc_skip_dying(S: SymState):
    """Twin of interpreter.skip_dying (server cannotPlayCardAndSkillForChengQing)."""
    return _enc_skip(S, "dying")


def _enc_skip(S: SymState, phase: str):
    """Twin of interpreter._skip: the ingredients ``rules.skip_<phase>`` names."""
    parts = getattr(S.cat.rules, f"skip_{phase}")
    cannot_play = Or(enc_banned_all(S), S.ints["hand_count"][0] == 0)
    if "can_use" in parts:
        has_skill = _usable(S, phase)
    else:
        non_main = [And(S.live(slot, "ActiveSkill"), z3.Not(S.live(slot, "MainPhaseSkill"))) for slot in S.slots]
        has_skill = Or(non_main) if non_main else z3.BoolVal(False)
    no_skill = And(S.ever[0], z3.Not(has_skill))
    if "skills_gone" in parts:
        no_skill = Or(enc_skills_gone(S), no_skill)
    return And(cannot_play, no_skill)


def _cards_playable_in(S: SymState, phase: str):
    return Or([z3.Not(enc_banned(S, z3.IntVal(k))) for k, c in S.cards.items() if phase in c.phases]
              or [z3.BoolVal(False)])


@_memo
def enc_could_act_fight(S: SymState):
    return Or(_usable(S, "fight"), And(S.ints["hand_count"][0] > 0, _cards_playable_in(S, "fight")))


@_memo
def enc_could_act_dying(S: SymState):
    return Or(_usable(S, "dying"), And(S.ints["hand_count"][0] > 0, _cards_playable_in(S, "dying")))


# ===================================================================================== draw count
@_memo
def enc_draw_count(S: SymState):
    """Twin of interpreter.draw_count (note L143-145; server fold over the skill list)."""
    count = z3.IntVal(S.cat.rules.draw_base)
    for slot in S.slots:
        for rid in S.rules_with(slot, "ChangeDrawCardCountSkill"):
            r = S.cat.skills[rid]
            if r.draw is None:
                continue
            new = _as_int(S.compile(r.draw, S.ctx(0, slot, count=count)))
            count = z3.If(S.live_rule(slot, rid, "ChangeDrawCardCountSkill"), new, count)
    return count


# ====================================================================================== turn end
@_memo
def enc_turn_end_survivors(S: SymState):
    """Twin of interpreter.turn_end for the player's list: per slot, (still present, still wrapped,
    still a OneTurnSkill) after the ``rules.turn_end`` steps."""
    out = []
    for slot in S.slots:
        present = slot.present
        wrapped = S.invalid(slot)
        one_turn = Or([S.rule_is(slot, r) for r in slot.candidates
                          if "OneTurnSkill" in S.cat.skills[r].closure] or [z3.BoolVal(False)])
        for step in S.cat.rules.turn_end:
            if step == "restore_invalid":
                wrapped = z3.BoolVal(False)
            else:
                present = And(present, z3.Not(And(one_turn, z3.Not(wrapped))))
        out.append((present, wrapped, And(present, one_turn)))
    return out


# ======================================================================= helpers for check queries
def holds(S: SymState, rid: str, kind: str | None = None):
    """[(slot, live)] for every slot that may hold ``rid``; live = it is there and (if ``kind``) has
    that kind now (not wrapped)."""
    out = []
    for sl in S.slots:
        if rid in sl.candidates:
            live = S.live_rule(sl, rid, kind) if kind else And(sl.present, S.rule_is(sl, rid))
            out.append((sl, live))
    return out


def conversion_applies(S: SymState, slot: Slot, rid: str):
    """The conversion ``rid`` in ``slot`` is active (live, and face up if initial)."""
    r = S.cat.skills[rid]
    a = S.live_rule(slot, rid, "ConvertCardSkill")
    if not (S.cat.rules.face_down_converts if r.initial else S.cat.rules.face_down_grant_converts):
        a = And(a, S.face_up[0])
    return a


def conversion_source_is(S: SymState, slot: Slot, rid: str, actual):
    src = _ref_code(S, S.cat.skills[rid].convert.source, slot)
    return z3.BoolVal(True) if src is None else src == actual


def conversion_targets_has(S: SymState, slot: Slot, rid: str, declared):
    return Or([_ref_code(S, t, slot) == declared for t in S.cat.skills[rid].convert.targets])


def card_var(S: SymState, name: str):
    v = z3.Int(f"{S.p}{name}")
    return v, And(v >= 0, v < len(S.codes.cards))


# =============================================================================== win / game result
def result_holders(S: SymState, kind: str, seat_chars: dict) -> dict:
    """For the result pass: seat -> [(live, rule id, skill index)] of its rules of ``kind``
    ("win" / "result"). Seat 0 uses its symbolic slots; other seats hold their character's initial
    skills (``seat_chars[seat]`` fixes which character)."""
    kname = "WinSkill" if kind == "win" else "ChangeGameResultSkill"
    out = {}
    for s in range(S.n):
        lst = []
        if s == 0:
            for sl in S.slots:
                for rid in S.rules_with(sl, kname):
                    lst.append((S.live_rule(sl, rid, kname), rid, ("slot", sl.index)))
        elif s in seat_chars:
            ch = S.cat.characters[seat_chars[s]]
            for i, rid in enumerate(ch.skills):
                r = S.cat.skills[rid]
                if kname in r.closure:
                    live = z3.Not(S.inv[s]) if r.initial else z3.BoolVal(True)
                    lst.append((live, rid, ("list", i)))
        out[s] = lst
    return out


def enc_result_pass(S: SymState, kind: str, turn: int, holders: dict, declared, winners, tag: str,
                    seating=None):
    """Twin of interpreter.game_result for a concrete ``turn`` (and seating round the table): returns
    (declared, winners, picks), the sets as lists of z3 Bools per seat and the pick variables
    {(seat, skill, effect): (var, cands)}."""
    cat = S.cat
    D, W = list(declared), list(winners)
    picks = {}
    seating = list(seating) if seating is not None else list(range(S.n))
    k0 = seating.index(turn)
    order = seating[k0:] + seating[:k0]
    for s in order:
        for live, rid, where in holders.get(s, []):
            r = cat.skills[rid]
            guard = And(S.present[s], live, Or(S.alive[s], z3.BoolVal(not r.initial)))
            for ei, eff in enumerate(getattr(r, kind)):
                D, W, pk = _enc_effect(S, s, eff, guard, D, W, order, f"{tag}_{s}_{rid}_{ei}", turn)
                if pk is not None:
                    picks[(s, rid, ei)] = pk
    return D, W, picks


def _set_of(S: SymState, lam, ctx: Ctx):
    if lam is None:
        return [z3.BoolVal(False)] * S.n
    return [And(S.present[q], _compile(lam.body, ctx.bind(lam.var, q))) for q in range(S.n)]


def _enc_effect(S, s, eff, guard, D, W, order, tag, turn=None):
    base = Ctx(S, {"self": s}, {}, {}, z3.BoolVal(False), list(W), list(D), turn=turn)
    bindings = [({}, z3.BoolVal(True))]
    pick = None
    if eff.each is not None:
        bindings = [({eff.each.var: p}, And(S.present[p], _compile(eff.each.body, base.bind(eff.each.var, p))))
                    for p in order]
    elif eff.pick is not None:
        cands = [And(S.present[p], _compile(eff.pick.body, base.bind(eff.pick.var, p))) for p in range(S.n)]
        pv = z3.Int(f"{S.p}pick_{tag}")
        pick = (pv, cands)
        any_c = Or(cands)
        S.extra.append(z3.Implies(any_c, Or([And(pv == p, cands[p]) for p in range(S.n)])))
        bindings = [({eff.pick.var: p}, And(any_c, pv == p)) for p in range(S.n)]
    for bound, sel in bindings:
        ctx = Ctx(S, {"self": s, **bound}, {}, {}, z3.BoolVal(False), list(W), list(D), turn=turn)
        fire = And(guard, sel, _compile(eff.when, ctx))
        aw, rw = _set_of(S, eff.winners_add, ctx), _set_of(S, eff.winners_remove, ctx)
        ad, rd = _set_of(S, eff.declared_add, ctx), _set_of(S, eff.declared_remove, ctx)
        W = [z3.If(fire, Or(And(W[q], z3.Not(rw[q])), aw[q]), W[q]) for q in range(S.n)]
        D = [z3.If(fire, Or(And(D[q], z3.Not(rd[q])), ad[q]), D[q]) for q in range(S.n)]
    return D, W, pick


def slot_is(S: SymState, index, rid: str):
    """The slot numbered by ``index`` (a z3 Int, e.g. the conversion that fires or the send skill in
    force) holds ``rid``."""
    terms = [And(index == sl.index, S.rule_is(sl, rid)) for sl in S.slots if rid in sl.candidates]
    return Or(terms) if terms else z3.BoolVal(False)


def receive_rule_parts(S: SymState, rid: str):
    """[(live, must, cannot)] for every slot that may hold the MustReceiveMessage rule ``rid``: whether
    it is there and in force, and its two conditions read in that slot."""
    r = S.cat.skills[rid]
    if r.receive is None:
        return []
    out = []
    for sl, live in holds(S, rid, "MustReceiveMessage"):
        c = S.ctx(0, sl)
        out.append((live, S.compile(r.receive.must, c), S.compile(r.receive.cannot, c)))
    return out


from .enc_trace import constraints, reachability  # noqa: E402,F401
from .enc_witness import assignment, slot_to_index, witness  # noqa: E402,F401
