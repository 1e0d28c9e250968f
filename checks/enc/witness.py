"""Between concrete and symbolic traces: a concrete ``State`` or ``Trace`` as equations over a ``SymState``
(``assignment``, ``trace_assignment`` — the cross-check pins the symbolic state to what the interpreter ran),
and a solver model read back as the final ``State`` with the ``Trace`` that produces it (``witness``: every
witness a check reports is such a trace, which the interpreter then replays event by event).

Which symbolic traces are legal at all is ``checks.enc.trace`` (the twin of ``model.interp.trace.run``).
"""
from __future__ import annotations

import z3

from skillproof.model.interp import trace as TR
from skillproof.model.interp.grants import site_of
from skillproof.model import turn as TW
from skillproof.model import vocab as V
from skillproof.model.state import Seat, SkillInst, State

from .face import face_of_use, witness_uses
from .grants import enc_arg_eq
from .state import NONE, WCODE, WCODES, Moment, SymState
from ..terms import Eq, model_int, model_true


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
            eqs.append(Eq(S.present[s], s < k))
        if s >= k:
            continue
        seat = st.seats[s]
        if seat.character not in C.char:
            raise DoesNotFit(f"unknown character {seat.character}")
        eqs += [Eq(S.char[s], C.char[seat.character]), Eq(S.alive[s], seat.alive), Eq(S.face_up[s], seat.face_up),
                Eq(S.ever[s], seat.ever_face_up), Eq(S.locked[s], seat.locked),
                Eq(S.ident[s], C.colour[seat.identity])]
        for f in Seat.INT_FIELDS:
            eqs.append(Eq(S.ints[f][s], getattr(seat, f)))
        if s in S.inv_seats:
            eqs.append(Eq(S.inv[s], seat.invalidated or any(i.invalid for i in seat.skills)))
        elif seat.invalidated or any(i.invalid for i in seat.skills):
            raise DoesNotFit("an invalidated seat the symbolic state leaves out")
    opt = lambda v: NONE if v is None else v      # noqa: E731
    eqs += [Eq(S.turn, st.turn), Eq(S.sender, opt(st.sender)), Eq(S.in_front, opt(st.in_front)),
            Eq(S.dying, opt(st.dying)), Eq(S.message_dir, C.dir[st.message_dir]), Eq(S.lockable, st.message_lockable)]
    for c in V.MESSAGE_COLOURS:
        eqs.append(Eq(S.msg[c], c in st.message))
    for key, val in st.unknowns.items():
        if key in S.unknowns:
            eqs.append(Eq(S.unknowns[key], val))
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
            eqs += [sl.present, Eq(sl.rule, C.rule[rid]), Eq(sl.used, inst.used)]
            pos += 1
        else:
            eqs.append(z3.Not(sl.present))
            if rid is not None:
                eqs.append(Eq(sl.rule, C.rule[rid]))
    if pos != len(initial):
        raise DoesNotFit("initial skills are not in the character's order")
    used = []
    for sl, inst in zip(gslots, grants + [None] * (len(gslots) - len(grants))):
        if inst is None:
            eqs.append(z3.Not(sl.present))
            continue
        if inst.rule not in sl.candidates:
            raise DoesNotFit(f"grant {inst.rule} is not a candidate of the symbolic slots")
        eqs += [sl.present, Eq(sl.rule, C.rule[inst.rule]), Eq(sl.used, inst.used),
                Eq(sl.giver, NONE if inst.giver is None else inst.giver),
                Eq(sl.site, C.site.get(inst.site or "", NONE))]
        rule = S.cat.skills[inst.rule]
        for pn, pt in rule.params.items():
            if pn in inst.args:
                val = inst.args[pn]
                eqs.append(enc_arg_eq(S, pt, sl.params[pn], list(val) if pt == "set<card>" else val))
        used.append((sl, inst))
    return eqs, used


def _moment_eqs(m: Moment, step: int, t: int, mo: dict) -> list:
    opt = lambda v: NONE if v is None else v      # noqa: E731
    intr = WCODE[mo["interrupted"]] if mo["interrupted"] is not None else NONE
    return [m.present, Eq(m.step, step), Eq(m.t, t), Eq(m.w, WCODE[mo["window"]]), Eq(m.intr, intr),
            Eq(m.front, opt(mo["in_front"])), Eq(m.dy, opt(mo["dying"]))]


def assignment(S: SymState, state: State) -> list:
    """Equalities fixing ``S``'s moment of the question to a concrete, untimed ``state`` (decisions only;
    the trace that led there is left free)."""
    eqs = _seat_eqs(S, state)
    slot_eqs, used = _slot_eqs(S, state)
    eqs += slot_eqs
    for sl, inst in used:            # a grant marked initial is wrapped when it came before the invalidation
        if S.cat.skills[inst.rule].initial:
            eqs.append(S.wrapped(sl) == inst.invalid)
    eqs.append(Eq(S.now, WCODE[state.window] if state.window is not None else NONE))
    eqs.append(Eq(S.intr, WCODE[state.interrupted] if state.interrupted is not None else NONE))
    eqs.append(Eq(S.sender_t[-1], state.sender_of_turn()))     # who sends the question's turn's message
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
    eqs.append(Eq(S.start, start))
    eqs.append(Eq(S.now, WCODE[st.window]) if st.window is not None else Eq(S.now, NONE))
    eqs.append(Eq(S.intr, WCODE[st.interrupted] if st.interrupted is not None else NONE))
    # turns, their players and senders
    turn_no = -1
    senders: dict = {}
    for k, ev in enumerate(trace.events):
        mo = run.moments[k] if k < len(run.moments) else None
        if ev.kind == "turn":
            turn_no += 1
            if isinstance(ev.seat, int) and not isinstance(ev.seat, bool):
                eqs.append(Eq(S.owner[start + turn_no], ev.seat))
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
        eqs.append(Eq(S.sender_t[start + t], next(iter(ss))))
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
            give = site_of(S.cat, ev.site)
            if give is not None and "InvalidSkill" in S.cat.skills[give.grant].closure:
                if ev.seat in inv_events:
                    raise DoesNotFit("two invalidations of one seat")
                inv_events[ev.seat] = k
                eqs += [Eq(S.inv_giver[ev.seat], ev.giver), Eq(S.inv_site[ev.seat], S.codes.site[ev.site])] \
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
        eqs.append(Eq(pl.card, S.codes.card[card]))
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
        eqs += [Eq(S.old_char, S.codes.char[old.character]), Eq(S.old_face_up, old.face_up),
                Eq(S.old_ever, old.ever_face_up)]
    else:
        eqs.append(z3.Not(S.repl))
    for rank, (k, m) in enumerate(sorted(modelled, key=lambda x: x[0])):
        mo = run.moments[k]
        if mo["window"] is None or mo["turn"] < 0:
            raise DoesNotFit("an event before any turn")
        eqs += _moment_eqs(m, rank, start + mo["turn"], mo)
    eqs += _pre_face_eqs(S, trace, run)
    return eqs


def _pre_face_eqs(S: SymState, trace: TR.Trace, run: TR.Run) -> list:
    """The player's face before this turn's uses turned it (enc.face): the symbolic trace holds uses that turn a role
    only as the player's, in the question's turn, after every other event (as its witness puts them)."""
    failed = {k for k, _ in run.errors}
    turning = [k for k, ev in enumerate(trace.events)
               if ev.kind == "use" and k not in failed and face_of_use(S.cat, ev.rule)[1] != {None}]
    for k in turning:
        ev = trace.events[k]
        if ev.seat != 0:
            raise DoesNotFit("another seat's role turned by a use (the symbolic trace holds the player's uses only)")
        if k >= len(run.moments) or run.moments[k]["turn"] != run.turns - 1:
            raise DoesNotFit("a use that turned the role in an earlier turn")
        if any(e.kind in ("give", "replace", "play") for e in trace.events[k + 1:]):
            raise DoesNotFit("a use that turned the role before another event of the trace")
    if not S.turning:
        if turning:
            raise DoesNotFit("a use that turned the role in a symbolic state whose list holds no such skill")
        return []
    seat = TR.Runner(S.cat, TR.Trace(trace.setup, trace.events[:turning[0]])).run().state.seats[0] if turning \
        else run.state.seats[0]
    return [Eq(S.pre_face_up, seat.face_up), Eq(S.pre_ever, seat.ever_face_up)]


def slot_to_index(S: SymState, model, slot_code: int) -> int | None:
    """The concrete skill-list index of symbolic slot ``slot_code`` (present slots before it)."""
    if slot_code == NONE:
        return None
    return sum(1 for sl in S.slots[:slot_code] if model_true(model, sl.present))


def witness(S: SymState, model) -> State:
    """The concrete final state a model describes, with the trace that produces it (``state.trace``):
    seats renumbered to the present ones; events in the order of their steps, each preceded by the turn
    and window moves that bring the trace to its moment."""
    cat, C = S.cat, S.codes
    b = lambda e: model_true(model, e)                       # noqa: E731
    iv = lambda e: model_int(model, e)                       # noqa: E731
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
            # her face before this turn's uses turned it (enc.face); the role's skills as the trace began: those
            # held now, and one-turn skills a turn end dropped (a consumed one that is gone was never there)
            start.face_up, start.ever_face_up = b(S.pre_face_up), b(S.pre_ever)
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
    # the table's automatic grants the symbolic trace does not hold (another seat's, or one the state does not track):
    # handed out as the interpreter owes them (interp.trace.complete_fired; enc.trace._must_fire holds the player's)
    st.trace = TR.complete_fired(cat, TR.Trace(setup, _events(S, model, renum)))
    return st


def _params(S: SymState, model, rule, sl) -> dict:
    C = S.codes
    out = {}
    for pn, pt in rule.params.items():
        v = sl.params[pn]
        if pt == "bool":
            out[pn] = model_true(model, v)
        elif pt == "set<card>":
            out[pn] = tuple(C.cards[c] for c, bb in sorted(v.items()) if model_true(model, bb))
        elif pt == "card":
            out[pn] = C.cards[model_int(model, v)]
        elif pt == "colour":
            out[pn] = C.colours[model_int(model, v)]
        else:
            out[pn] = model_int(model, v)
    return out


def _events(S: SymState, model, renum: dict) -> list:
    """The trace's events: turns, window moves, and the modelled events at their moments."""
    C = S.codes
    b = lambda e: model_true(model, e)                       # noqa: E731
    iv = lambda e: model_int(model, e)                       # noqa: E731
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
    happenings += _partners(S, model, happenings)
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
    # skills used this turn (what 'used' conditions read), after every other event: those that turn her role last, in
    # the order and with the choices that leave it as the question has it (enc.face.witness_uses)
    uses = [C.rules[iv(sl.rule)] for sl in S.slots if b(sl.present) and b(sl.used)]
    for rid, face in witness_uses(S.cat, uses, b(S.face_up[0]), b(S.ever[0]), b(S.pre_face_up), b(S.pre_ever)):
        out.append(TR.Event("use", seat=0, rule=rid, face_up=face))
    return out


def _partners(S: SymState, model, happenings: list) -> list:
    """The ``with`` partner of a give the trace holds, where the symbolic trace does not hold it (a grant to
    another seat, or one gone by the question: enc.trace._coupled asks for the partner only where it shows):
    handed out right after it, from the same giver to the same player, with the site's own arguments."""
    cat = S.cat
    mom = lambda m: (model.eval(m.t, model_completion=True).as_long(),       # noqa: E731
                     model_int(model, m.w))
    have = {(e.site, e.giver, e.seat, mom(m)) for _, m, e in happenings if e.kind == "give"}
    out = []
    for step, m, e in happenings:
        if e.kind != "give":
            continue
        give = site_of(cat, e.site)
        other = site_of(cat, give.partner_id) if give is not None and give.partner_id else None
        if other is None or (other.site_id, e.giver, e.seat, mom(m)) in have:
            continue
        params = cat.skills[other.grant].params
        args = _site_values(cat, other)
        if args is None or any(p not in args for p in params):
            continue                     # no assignment of its parameters the site allows: nothing to hand out
        args = {p: tuple(v) if isinstance(v, (list, set, frozenset)) else v for p, v in args.items() if p in params}
        # before an invalidation (which may wrap the giver's own skill: 禁闭 on himself), after anything else
        first = "InvalidSkill" in cat.skills[give.grant].closure
        out.append((step - 0.5 if first else step + 0.5, m,
                    TR.Event("give", seat=e.seat, giver=e.giver, site=other.site_id, args=args)))
        have.add((other.site_id, e.giver, e.seat, mom(m)))
    return out


def _site_values(cat, give) -> dict | None:
    """Arguments a gives site may hand out: its fixed ones, free parameters filled with the first assignment its
    ``where`` allows over small domains (``graph.site_args``; a free set of cards: the empty set)."""
    from ..graph import site_args
    for args in site_args(cat, give):
        out = dict(args)
        for p, t in cat.skills[give.grant].params.items():
            if p not in out and t == "set<card>":
                out[p] = ()
        return out
    return None


def _window_event(w: str, front, sender) -> TR.Event:
    if TW.WINDOWS[w].message:
        return TR.Event("window", window=w, in_front=front, sender=sender)
    return TR.Event("window", window=w)


def skeleton_terms(S: SymState) -> list:
    """The terms a witness's skeleton is made of (checks/realise.py): the seats (present, alive, face, locks) and every trace event's presence and moment (turn, window, the message's holder, the dying
    player), and the question's own moment. Two models equal on them give the same skeleton up to values no template reads, so blocking a
    model's values of these asks the solver for another skeleton."""
    out: list = [S.now, S.intr, S.turn, S.sender, S.in_front, S.dying, S.start]      # the question's moment
    for s in range(S.n):
        out += [S.present[s], S.alive[s], S.face_up[s], S.locked[s]]
    moments = [sl.m for sl in S.slots if sl.m is not None] + [pl.m for pl in S.plays] + list(S.inv_m) + [S.repl_m]
    for m in moments:
        out += [m.present, m.t, m.w, m.front, m.dy]
    return out


def block_skeleton(S: SymState, model):
    """A constraint that rules out the skeleton ``model`` describes (``skeleton_terms``)."""
    terms = skeleton_terms(S)
    return z3.Or([t != model.eval(t, model_completion=True) for t in terms]) if terms else z3.BoolVal(False)
