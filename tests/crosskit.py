"""Shared by the cross-checks (test_crosscheck.py, test_crosscheck_randcat.py, benchmarks/crosscheck_randcat.py):
decision terms built once over a symbolic state (``Harness``), and runs of random states and traces that
compare every decision of the interpreter with the z3 encoder's and describe the first disagreement.
"""
from __future__ import annotations

import random

import z3

from skillproof.checks.enc.bans import enc_banned
from skillproof.checks.enc.conversion import enc_conversion
from skillproof.checks.enc.draw import enc_draw_count
from skillproof.checks.enc.fires import enc_fires
from skillproof.checks.enc.lifetime import enc_turn_end_survivors
from skillproof.checks.enc.plays import enc_can_play, enc_card_usable, enc_resolves
from skillproof.checks.enc.receive import RECEIVE_NAMES, enc_receive
from skillproof.checks.enc.remind import enc_remind_parts, enc_reminds
from skillproof.checks.enc.send import enc_has_card_to_send, enc_send_allowed, enc_send_in_force
from skillproof.checks.enc.skip import enc_could_act_dying, enc_could_act_fight, enc_skip_dying, enc_skip_fight
from skillproof.checks.enc.state import SymState
from skillproof.checks.enc.trace import constraints
from skillproof.checks.enc.usable import enc_skill_usable_now
from skillproof.checks.enc.windows import enc_at_decision
from skillproof.checks import terms as T
from skillproof.checks.enc.witness import DoesNotFit, assignment, slot_to_index, trace_assignment
from skillproof.model.interp.bans import banned
from skillproof.model.interp.conversion import conversion
from skillproof.model.interp.draw import draw_count
from skillproof.model.interp.fires import fires
from skillproof.model.interp.lifetime import turn_end
from skillproof.model.interp.plays import can_play, card_usable, resolves
from skillproof.model.interp.receive import receive
from skillproof.model.interp.remind import remind_parts, reminds
from skillproof.model.interp.send import has_card_to_send, send_allowed, send_in_force
from skillproof.model.interp.skip import could_act_dying, could_act_fight, skip_dying, skip_fight
from skillproof.model.interp.usable import skill_usable_now
from skillproof.model.interp.windows import at_decision
from skillproof.model.turn import DECISION_WINDOWS
from skillproof.model.interp import trace as TR
from skillproof.model.interp.play import run as play_run
from skillproof.model.interp.grants import site_of
from skillproof.model import vocab as V
from skillproof.model.kinds import SEND_GROUPS

from randstate import hot_cards, interesting_characters, pick_card, random_state
from randtrace import random_trace


class Harness:
    """Decision terms built once over symbolic inputs; each state is then fixed and read off a model."""

    def __init__(self, cat, n=3, G=2):
        self.cat = cat
        self.S = S = SymState(cat, n=n, G=G)
        C = S.codes
        self.Xc, self.Yc = z3.Int("q_actual"), z3.Int("q_declared")
        self.D, self.Lc = z3.Int("q_dir"), z3.Int("q_lock_count")
        ok, via = enc_conversion(S, self.Xc, self.Yc)
        self.terms = {
            "conv_ok": ok, "conv_via": via,
            "banned": enc_banned(S, self.Yc),
            "usable": enc_card_usable(S, self.Yc), "can_play": enc_can_play(S, self.Xc, self.Yc),
            "receive": enc_receive(S),
            "skip_fight": enc_skip_fight(S), "skip_dying": enc_skip_dying(S),
            "could_fight": enc_could_act_fight(S), "could_dying": enc_could_act_dying(S),
            "draw": enc_draw_count(S), "resolves": enc_resolves(S, self.Yc),
        }
        for r in cat.skills.values():
            if r.fires is not None:
                self.terms[f"fires:{r.id}"] = enc_fires(S, r.id)
        # may the player use each ActiveSkill now (window, actor, its fight / dying condition): what 'plays' and the
        # bans family read (found uncompared by benchmarks/mutate_interpreter.py: a mutant of skill_usable_now)
        self.active = sorted(r.id for r in cat.skills.values() if r.has("ActiveSkill"))
        for rid in self.active:
            self.terms[f"usable_now:{rid}"] = enc_skill_usable_now(S, rid, 0)
        for g in SEND_GROUPS:
            self.terms[f"force:{g}"] = enc_send_in_force(S, g)
            self.terms[f"allow:{g}"] = enc_send_allowed(S, g, self.D, self.Lc)
        # has the player something to send (a hand card, or a live ActiveSkill sending from elsewhere): what the
        # send questions read (the question compiler's can_send is the twin's; mutate_interpreter send.py #9-#15
        # survived, compared by nothing)
        self.terms["has_card"] = enc_has_card_to_send(S)
        # the moment of each decision, for the seat each twin asks by default (the families and the questions ask
        # the player, seat 0, most without naming it), compared on timed states (an untimed one is every moment to
        # the interpreter; the symbolic state always has a window): read otherwise only through a grant's site
        # (mutate_interpreter windows.py #42 #43, the default seat moved, survived)
        for dn in DECISION_WINDOWS:
            self.terms[f"at:{dn}"] = enc_at_decision(S, dn)
        # ending 出牌阶段: whether it prompts, and per MainPhaseSkill whether it prompts and is usable then
        self.terms["remind"], per = enc_reminds(S)
        # … and once the prompt was shown this turn (mainPhaseAlreadyNotify: none; mutate_interpreter remind.py #9 #10):
        # whether it prompts or any rule does, both parts of the answer, as the interpreter's side reads both (enc.remind
        # #13, a rule prompting then, survived when only the first part was compared)
        again, again_per = enc_reminds(S, already=True)
        self.terms["remind_already"] = z3.Or([again] + list(again_per.values()))
        parts = enc_remind_parts(S)
        self.remind_rules = sorted(parts)
        for rid, (rm, us) in parts.items():
            self.terms[f"remind:{rid}"] = rm
            self.terms[f"remind_fold:{rid}"] = per[rid]
            self.terms[f"usable_end:{rid}"] = us
        for i, (p, w, o) in enumerate(enc_turn_end_survivors(S)):
            self.terms[f"survive:{i}"] = p
            self.terms[f"wrapped:{i}"] = w
            self.terms[f"oneturn:{i}"] = o
        self.reach = z3.And(constraints(S))
        self.unknown_keys = sorted(S.unknowns)
        self.solver = z3.Solver()

    def _read(self, m) -> dict:
        """Every term's value in the model: the Boolean terms packed into one integer (one evaluation in z3
        instead of one Python round trip each — the cross-check's hot loop), the others one by one. Built
        again whenever a test has added terms."""
        key = tuple(self.terms)
        if getattr(self, "_pack_key", None) != key:
            self._bit = {k: i for i, k in enumerate(k for k, t in self.terms.items() if z3.is_bool(t))}
            self._pack = z3.Sum([z3.If(self.terms[k], z3.IntVal(1 << i), z3.IntVal(0))
                                 for k, i in self._bit.items()]) if self._bit else z3.IntVal(0)
            self._pack_key = key
        bits, bit = m.eval(self._pack, model_completion=True).as_long(), self._bit
        return {k: bool(bits >> bit[k] & 1) if k in bit else m.eval(t, model_completion=True).as_long()
                for k, t in self.terms.items()}                     # the terms' own order, as before

    def z3_decisions(self, state, x, y, d, lc, eqs=None, legal=False):
        S, C = self.S, self.S.codes
        s = self.solver
        s.push()
        # (terms.add / Eq: the same terms and calls as s.add and ==, without z3's cast of each: the hot loop)
        T.add(s, assignment(S, state) if eqs is None else eqs)
        T.add(s, [T.Eq(self.Xc, C.card[x]), T.Eq(self.Yc, C.card[y]), T.Eq(self.D, C.dir[d]), T.Eq(self.Lc, lc)])
        assert T.check(s) == z3.sat
        m = s.model()
        out = self._read(m)
        out["conv_via"] = slot_to_index(S, m, out["conv_via"])
        for g in SEND_GROUPS:
            out[f"force:{g}"] = slot_to_index(S, m, out[f"force:{g}"])
        out["receive"] = RECEIVE_NAMES[out["receive"]]
        # turn end: the surviving entries, as (rule, wrapped)
        surv = []
        for sl in S.slots:
            if out.pop(f"survive:{sl.index}"):
                surv.append((S.codes.rules[m.eval(sl.rule, model_completion=True).as_long()],
                             out[f"wrapped:{sl.index}"]))
            out.pop(f"wrapped:{sl.index}")
            out.pop(f"oneturn:{sl.index}")
        out["turn_end"] = surv
        # the MainPhaseSkills usable as 出牌阶段 ends (what decide's ``remind`` lists; remind.py #28 survived)
        out["usable_list"] = [rid for rid in self.remind_rules if out[f"usable_end:{rid}"]]
        if state.window is None:
            for dn in DECISION_WINDOWS:
                out.pop(f"at:{dn}")
        if legal:
            s.add(self.reach)
            out["legal"] = s.check() == z3.sat
        s.pop()
        return out

    def interp_decisions(self, state, x, y, d, lc):
        cat = self.cat
        conv = conversion(cat, state, 0, x, y)
        out = {"conv_ok": conv.ok, "conv_via": conv.via, "banned": banned(cat, state, 0, y),
               "usable": card_usable(cat, state, 0, y), "can_play": can_play(cat, state, 0, x, y),
               "receive": receive(cat, state, 0), "skip_fight": skip_fight(cat, state, 0),
               "skip_dying": skip_dying(cat, state, 0), "could_fight": could_act_fight(cat, state, 0),
               "could_dying": could_act_dying(cat, state, 0), "draw": draw_count(cat, state, 0),
               "resolves": resolves(cat, state, 0, y)["resolves"]}
        for r in cat.skills.values():
            if r.fires is not None:
                out[f"fires:{r.id}"] = fires(cat, state, 0, r.id)["fires"]
        for rid in self.active:
            out[f"usable_now:{rid}"] = any(i.rule == rid and skill_usable_now(cat, state, 0, i)
                                           for i in state.seats[0].skills)
        for g in SEND_GROUPS:
            out[f"force:{g}"] = send_in_force(cat, state, 0, g)
            out[f"allow:{g}"] = send_allowed(cat, state, 0, g, d, lc)
        out["has_card"] = has_card_to_send(cat, state, 0)
        if state.window is not None:
            for dn in DECISION_WINDOWS:
                out[f"at:{dn}"] = at_decision(state, dn)
        after = turn_end(cat, state)
        out["turn_end"] = [(i.rule, i.invalid) for i in after.seats[0].skills]
        rm = reminds(cat, state, 0)
        out["remind"] = rm["remind"]
        again = reminds(cat, state, 0, already=True)
        out["remind_already"] = again["remind"] or bool(again["skills"])
        parts = remind_parts(cat, state, 0)
        for rid in self.remind_rules:
            got = parts.get(rid, {"remind": False, "usable": False})
            out[f"remind:{rid}"] = out[f"remind_fold:{rid}"] = got["remind"]
            out[f"usable_end:{rid}"] = got["usable"]
        out["usable_list"] = sorted(r for r, v in parts.items() if v["usable"])
        # the prompting rules in list order are the ones remind_parts says prompt (the decision's two views agree)
        assert rm["skills"] == [r for r, v in parts.items() if v["remind"]], (rm, parts)
        return out


def focused_cards(rng, cat, st, hot):
    """Half the time, the actual and declared types come from the player's own conversions, so that
    precedence between several conversions in one list is exercised, not just reached by luck."""
    srcs, tgts = [], []
    for inst in st.seats[0].skills:
        conv = cat.skills[inst.rule].convert
        if conv is None:
            continue
        val = lambda ref: inst.args.get(ref.value) if ref.kind == "param" else ref.value
        if conv.source.kind != "any":
            srcs.append(val(conv.source))
        tgts.extend(val(t) for t in conv.targets)
    srcs = [c for c in srcs if c in cat.cards]
    tgts = [c for c in tgts if c in cat.cards]
    x = rng.choice(srcs) if srcs and rng.random() < 0.5 else pick_card(rng, cat, hot)
    if tgts and rng.random() < 0.5:
        y = rng.choice(tgts)
    else:
        y = x if rng.random() < 0.3 else pick_card(rng, cat, hot)
    return x, y


def run_states(h: Harness, n_states: int, seed: int, label: str) -> tuple[int, str | None]:
    """Random states: (how many were compared, the first disagreement described — or None)."""
    cat = h.cat
    rng = random.Random(seed)
    hot, interesting = hot_cards(cat), interesting_characters(cat)
    for k in range(n_states):
        st = random_state(rng, cat, n_max=h.S.n, g_max=h.S.G, unknown_keys=h.unknown_keys, hot=hot,
                          interesting=interesting)
        x, y = focused_cards(rng, cat, st, hot)
        d = rng.choice(V.DIRECTIONS)
        lc = rng.randint(0, 2)
        a = h.interp_decisions(st, x, y, d, lc)
        b = h.z3_decisions(st, x, y, d, lc)
        if a != b:
            diff = {key: (a[key], b.get(key)) for key in a if a[key] != b.get(key)}
            return k + 1, (f"{label} state #{k} (seed {seed}): interpreter vs z3 differ on {diff}\n"
                           f"actual={x} declared={y} dir={d} locks={lc}\nstate={st.to_dict()}")
    return n_states, None


def prepare_trace(h: Harness, tr):
    """Run ``tr`` in the interpreter and pin the symbolic trace to it: (run, equations), or None when the
    trace is outside the symbolic bounds or illegal only through events the symbolic trace does not hold."""
    run = play_run(h.cat, tr)
    # another seat's automatic grants (interp.grants.must_fire) are not events of the symbolic trace, but a trace
    # without them is illegal (interp.trace.Runner.settle_fired): the symbolic trace is pinned to the trace without them
    # while legality stays the full trace's (a give that is itself illegal stays: it makes the trace illegal)
    from skillproof.model.interp.grants import must_fire
    bad = {k for k, _ in run.errors}
    mine = [e for k, e in enumerate(tr.events) if k in bad or not (
        e.kind == "give" and e.seat != 0 and site_of(h.cat, e.site) is not None and must_fire(h.cat, site_of(h.cat, e.site)))]
    fit = tr if len(mine) == len(tr.events) else TR.Trace(tr.setup, mine, tr.table)
    try:
        eqs = trace_assignment(h.S, fit, run if fit is tr else play_run(h.cat, fit))
    except DoesNotFit:
        return None
    unmodelled = unmodelled_events(h.S, tr, run)
    # a must-fire give missing for another seat, or in an earlier turn, is not one the symbolic trace holds
    # (enc.trace._must_fire: the player's grants in the question's turn): such errors are not observable
    hidden = {id(why) for _, _, r, t, site, _, why in run.missed
              if r != 0 or t != run.turns - 1 or not _fired_matters(h.cat, run.state, site)}
    if hidden:
        rest = [(k, e) for k, e in run.errors if id(e) not in hidden]
        if all(k in unmodelled for k, _ in rest) or only_unobservable_errors(tr, run, unmodelled, rest):
            return None
    if run.errors and all(k in unmodelled for k, _ in run.errors):
        return None                   # illegal only through events the symbolic trace does not hold
    if only_unobservable_errors(tr, run, unmodelled):
        return None
    return run, eqs


def trace_disagreement(h: Harness, run, eqs, x, y, d, lc) -> dict:
    """The decisions (legality included) on which interpreter and encoder differ for the state ``run``
    reaches, asked with cards x / y, direction d and lock count lc: {decision: (interpreter, z3)}."""
    a = h.interp_decisions(run.state, x, y, d, lc)
    a["legal"] = run.legal
    b = h.z3_decisions(run.state, x, y, d, lc, eqs=eqs, legal=True)
    return {key: (a[key], b.get(key)) for key in a if a[key] != b.get(key)}


def replaced_list_disagreement(h: Harness, tr, run, eqs) -> dict:
    """After a role replacement of the player, the trace alone decides which of the new role's skills she holds
    (interp.trace.apply_replace: all of them; nothing removes one later): with the initial slots' presence left free,
    the encoder must allow no other list for a legal trace. (Without a replacement the presence of a consumed
    skill is the table's at the start — used up before the trace — which the symbolic trace leaves free.)"""
    if not run.legal or not any(ev.kind == "replace" and ev.seat == 0 for ev in tr.events):
        return {}
    S = h.S
    islots = [sl for sl in S.slots if sl.initial_slot]
    pinned = lambda e: any(e.eq(sl.present) or e.eq(z3.Not(sl.present)) for sl in islots)   # noqa: E731
    free = [e for e in eqs if not pinned(e)]
    want = [any(e.eq(sl.present) for e in eqs) for sl in islots]
    s = h.solver
    s.push()
    try:
        s.add(free + [h.reach, z3.Or([sl.present != w for sl, w in zip(islots, want)])])
        if s.check() == z3.sat:
            m = s.model()
            got = [z3.is_true(m.eval(sl.present, model_completion=True)) for sl in islots]
            return {"replaced role's initial skills held": (want, got)}
    finally:
        s.pop()
    return {}


def run_traces(h: Harness, n_traces: int, seed: int, label: str) -> tuple[int, int, int, str | None]:
    """Random traces: legal exactly when the encoder's reachability holds on them; decisions agree on
    the state each reaches. Returns (legal, compared, skipped as outside the symbolic bounds, the first
    disagreement described — or None)."""
    cat = h.cat
    rng = random.Random(seed)
    hot, interesting = hot_cards(cat), interesting_characters(cat)
    legal = compared = skipped = 0
    for k in range(n_traces):
        tr = random_trace(rng, cat, n_max=h.S.n, g_max=h.S.G, turns_max=h.S.T, unknown_keys=h.unknown_keys,
                          hot=hot, interesting=interesting)
        prepared = prepare_trace(h, tr)
        if prepared is None:
            skipped += 1
            continue
        run, eqs = prepared
        x, y = focused_cards(rng, cat, run.state, hot)
        d = rng.choice(V.DIRECTIONS)
        lc = rng.randint(0, 2)
        diff = trace_disagreement(h, run, eqs, x, y, d, lc) or replaced_list_disagreement(h, tr, run, eqs)
        compared += 1
        legal += run.legal
        if diff:
            return legal, compared, skipped, (
                f"{label} trace #{k} (seed {seed}): interpreter vs z3 differ on {diff}\n"
                f"errors={run.errors}\nactual={x} declared={y} dir={d} locks={lc}\ntrace={tr.to_dict()}")
    return legal, compared, skipped, None


def unmodelled_events(S, tr, run) -> set:
    """Indices of events the symbolic trace does not hold. 'play' events nothing reads: every one when it has
    no play slots, else another seat's, an earlier turn's, or a card played again. And every 'use' event that
    failed (the seat held no unused instance of the skill — e.g. a one-turn skill a turn end dropped): the
    symbolic trace has no 'use' events, only the used flag of each skill held at the question, and a failed
    use changes nothing; the same trace without it reaches the same state."""
    out = {k for k, _ in run.errors if 0 <= k < len(tr.events) and tr.events[k].kind == "use"}
    out |= uncoupled_unshown(S.cat, tr, run)
    seen = set()
    for k, ev in enumerate(tr.events):
        if ev.kind != "play":
            continue
        mine = S.plays and ev.seat == 0 and k < len(run.moments) and run.moments[k]["turn"] == run.turns - 1
        if not mine or ev.card in seen:
            out.add(k)
        elif mine:
            seen.add(ev.card)
    return out


def uncoupled_unshown(cat, tr, run) -> set:
    """Give events lacking their ``with`` partner (interp.trace._uncoupled) where the missing partner is an event the
    symbolic trace does not hold (enc.trace._coupled): the grant an invalidation comes with, unless the
    invalidation is the player's and in force at the question (the grant, of a turn's lifetime, is then still
    held); a grant partnered with a grant of another lifetime (it may be gone by the question)."""
    out = set()
    for k in getattr(run, "uncoupled", ()):
        ev = tr.events[k]
        give = site_of(cat, ev.site)
        other = site_of(cat, give.partner_id)
        r1, r2 = cat.skills[give.grant], cat.skills[other.grant]
        if "InvalidSkill" in r1.closure:
            shown = ev.seat == 0 and run.state.seats[0].invalidated and not r2.consumed and \
                r2.lifetime in ("turn", "permanent")
        elif "InvalidSkill" in r2.closure:
            shown = True
        else:
            shown = (r1.lifetime, r1.consumed) == (r2.lifetime, r2.consumed) and r2.lifetime != "resolution"
        if not shown:
            out.add(k)
    return out


def _fired_matters(cat, st, site) -> bool:
    """Does the player holding the site's grant, with its fixed arguments, matter at the question
    (interp.grants.grant_matters)? Where it cannot, the symbolic trace needs no slot for it (enc.trace._must_fire)."""
    from skillproof.model.interp.grants import grant_matters
    from skillproof.model.state import SkillInst
    give = site_of(cat, site)
    return grant_matters(cat, st, 0, SkillInst(give.grant, dict(give.args)))


def only_unobservable_errors(tr, run, unmodelled=frozenset(), errors=None) -> bool:
    """The trace is illegal only through window moves between its events while the events themselves
    stand in turn order: another trace with the same events at the same moments is legal, and the
    symbolic trace (which records the events' moments, not the moves) cannot tell them apart."""
    from skillproof.model import turn as TW
    errors = [(k, e) for k, e in (run.errors if errors is None else errors) if k not in unmodelled]
    if any(id(e) in {id(m[6]) for m in getattr(run, "missed", ())} for _, e in errors):
        return False              # a must-fire give missing (interp.trace.Runner.settle_fired): not a window move
    moves = [(k, e) for k, e in errors if 0 <= k < len(tr.events) and tr.events[k].kind in ("window", "turn")
             and "another player's" not in e]
    if not moves or len(moves) != len(errors):
        return False
    times = []
    for k, ev in enumerate(tr.events):
        if ev.kind in ("give", "replace"):
            mo = run.moments[k]
            w = mo["interrupted"] if mo["window"] == "dying" else mo["window"]
            times.append((mo["turn"], TW.position(w) if w in TW.WINDOWS else -1))
    times.append((run.turns - 1, TW.position(run.state.interrupted if run.state.window == "dying"
                                            else run.state.window) if run.state.window else -1))
    return times == sorted(times)


