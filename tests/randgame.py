"""Random game traces, for cross-checking the interpreter of game traces (model/interp/game.py) against its z3 twin
(checks/enc/game.py).

A game is simulated on the interpreter itself: a table is dealt (seats, identities, secret tasks, hands, message
areas, faces, some seats dead), then turns are played — the draw, cards played in the windows that allow them
(their actual card, target and decisions drawn at random), resolved, skills used, triggered skills answering the
pending events, the send (a random card, direction, first stop and locks), the message passed or accepted, the
fight, the receive, the dying asked for and died, the turn's end. Each action is *proposed* at random and tried
on a copy of the interpreter's state: an action the interpreter refuses is taken back most of the time, and kept
now and then (the trace then ends there, illegal). ``mutate`` changes one value a template may leave open (a hand,
a colour, a target, a decision …) to another of its domain: mostly illegal traces, exactly where the twins must
agree on why. ``template_of`` turns a trace into a template with a hole at every such value and the values as
pins; ``open_some`` leaves a few of them open for the solver.
"""
from __future__ import annotations

import pickle
import random
import zlib

from skillproof.model import turn as TW
from skillproof.model.interp import dying as D
from skillproof.model.interp import path as P
from skillproof.model.interp import trace as TR
from skillproof.model.interp.draw import draw_count
from skillproof.model.interp.game import GameRunner
from skillproof.model.interp.grants import one_grants, recipients, set_grants
from skillproof.model.interp.hole import Hole
from skillproof.model.interp.table import CLASSES, COLOURS_OF, counts
from skillproof.model.interp.trace import Event, Trace
from skillproof.model.interp.win import TASKS, dealt, tasks_dealt
from skillproof.model.state import Seat, SkillInst, State

from randstate import _value

CLS_OPS = ("put_message", "remove_message", "replace_message")
#: ops that act on the travelling message (model/interp/ops.py: each fails with no message in play)
MESSAGE_OPS = ("replace_message", "take_message", "move_message", "redirect", "receive")


def touches_message(ops) -> bool:
    """Does an effect (its ops, the alternatives and loops within) act on the travelling message?"""
    for op in ops:
        if op.op in MESSAGE_OPS or (op.op == "put_message" and op.args.get("from") == "message") or \
                (op.op == "flip" and op.args.get("what") == "message") or touches_message(
                    [o for alt in op.options for o in alt]):
            return True
    return False


def _travelling(st) -> bool:
    """The message windows (传递阶段 / 争夺阶段): the message is in play — or was, until an effect took it (then an
    effect acting on it is refused: the refusal is compared too)."""
    return st.window in ("send", "fight")


def _focus(rng, items: list, acts) -> list:
    """While a message travels, half the time only the cards / skills whose effect acts on it (``acts``) — a card
    or skill replacing, taking or moving the message was played too rarely to be compared (a mutant of
    ``op_replace_message`` taking its card from the message area instead of the hand survived 1,000 games)."""
    if rng.random() < 0.5:
        focus = [x for x in items if acts(x)]
        if focus:
            return focus
    return items


# ============================================================================================ the interpreter, stepped
def _dup(obj):
    out = obj.__class__.__new__(obj.__class__)
    out.__dict__.update(obj.__dict__)
    return out


def copy_state(st: State) -> State:
    """State.copy, faster (the generator copies the state before every action it tries)."""
    out = _dup(st)
    seats = []
    for s in st.seats:
        ns = _dup(s)
        ns.skills = []
        for k in s.skills:
            nk = _dup(k)
            nk.args = dict(k.args)
            ns.skills.append(nk)
        seats.append(ns)
    out.seats = seats
    out.unknowns = dict(st.unknowns)
    return out


def clone(r: GameRunner) -> GameRunner:
    """A copy of a runner's state (what stepping changes), sharing the catalogue."""
    c = _dup(r)
    c.st = copy_state(r.st)
    c.trace = Trace(r.trace.setup, list(r.trace.events), True)
    c.errors = list(r.errors)
    c.moments = list(r.moments)
    c.pending = [dict(e, answered=set(e["answered"]), roles=dict(e["roles"]), words=dict(e["words"]))
                 for e in r.pending]
    c.card = dict(r.card) if r.card else None
    c.acted, c.counts = set(r.acted), dict(r.counts)
    c.given, c.events_seq, c.prose = list(r.given), list(r.events_seq), list(r.prose)
    c.send_via = dict(r.send_via) if r.send_via else None
    c.senders = list(r.senders)
    c.owed = [dict(o) for o in r.owed]
    c.owed_one = [dict(o, want=dict(o["want"]), got=dict(o["got"])) for o in r.owed_one]
    c.at_once = None if r.at_once is None else dict(r.at_once, seats=list(r.at_once["seats"]),
                                                      args=list(r.at_once["args"]))
    return c


def step(r: GameRunner, ev: Event) -> None:
    """One event, as GameRunner.run does it."""
    r.trace.events.append(ev)
    r.k = len(r.trace.events) - 1
    if ev.kind in ("turn", "window"):
        r.senders = TR._turn_senders(r.trace)
    r.moments.append(TR.moment(r.st, r.turns))
    handler = getattr(r, f"on_{ev.kind}", None) if ev.kind in r.KINDS else None
    if handler is None:
        r.bad("unknown")
        return
    if not r.node(ev):
        return
    handler(ev)


class Sim:
    """A game being played: the runner, and actions tried on copies of it."""

    def __init__(self, rng: random.Random, cat, setup: State, p_keep_bad: float):
        self.rng, self.cat = rng, cat
        self.r = GameRunner(cat, Trace(setup, [], True))
        self.r.senders = [None]
        self.p_keep_bad = p_keep_bad
        self.broken = bool(self.r.errors)     # an illegal setup: the trace is illegal whatever follows
        self.stopped = False

    @property
    def st(self) -> State:
        return self.r.st

    def try_(self, ev: Event) -> bool:
        """Take ``ev`` if the interpreter accepts it; else take it back (or, now and then, keep it and stop)."""
        if self.stopped:
            return False
        c = clone(self.r)
        before = len(c.errors)
        step(c, ev)
        if len(c.errors) == before:
            self.r = c
            return True
        if self.rng.random() < self.p_keep_bad:
            self.r = c
            self.stopped = True
        return False

    @property
    def over(self) -> bool:
        return self.st.winners is not None


# ============================================================================================ the table
def random_setup(rng: random.Random, cat, n_max: int = 5) -> State:
    """A table dealt as the server deals (mostly), where the game is not over yet (mostly)."""
    for _ in range(12):
        st = _random_setup(rng, cat, n_max)
        r = GameRunner(cat, Trace(st, [], True))
        r.st.window = "main"
        r.check_win()
        if r.st.winners is None or rng.random() < 0.02:
            return st
    return st


def _random_setup(rng: random.Random, cat, n_max: int = 5) -> State:
    lo = max(2, cat.rules.min_seats)
    hi = max(lo, min(n_max, cat.rules.seats))
    n = rng.randint(lo, hi)
    chars = list(cat.characters)
    rich = [c for c in chars if any(cat.skills[r].on or cat.skills[r].do or cat.skills[r].has("ActiveSkill")
                                    for r in cat.characters[c].skills)] or chars
    # now and then one whose skill acts on the travelling message (replaces, takes, moves it: 妙手, 定论 …)
    movers = [c for c in chars if any(touches_message(cat.skills[r].do) for r in cat.characters[c].skills)] or rich
    # … or whose triggered skill fires on a state (``fires``, no ``on``): few random catalogues hold one
    movers = movers + [c for c in chars if c not in movers
                       and any(not cat.skills[r].on and cat.skills[r].fires is not None for r in cat.characters[c].skills)]
    picked: list = []
    while len(picked) < min(n, len(chars)):
        x = rng.random()
        c = rng.choice(movers) if x < 0.1 else rng.choice(rich) if x < 0.75 else rng.choice(chars)
        if c not in picked:
            picked.append(c)
    n = len(picked)
    idents = _deal(rng, n)
    tasks = list(tasks_dealt(n))
    rng.shuffle(tasks)
    seats = []
    for i, cid in enumerate(picked):
        ch = cat.characters[cid]
        s = Seat(character=cid)
        s.identity = idents[i]
        # every black identity is dealt a task (Game.start); now and then none (refused by both twins: compared)
        s.task = tasks.pop() if s.identity == "black" and tasks and rng.random() < 0.97 else None
        s.alive = rng.random() < 0.9
        s.lost = not s.alive and rng.random() < 0.3   # dead and out of the game (phase/SendPhaseStart.kt: no card to send)
        area = {}
        for _ in range(rng.choice((0, 0, 1, 2, 3, 4))):
            c = rng.choice(CLASSES)
            area[c] = area.get(c, 0) + 1
        if s.alive and counts(area)["black_messages"] >= 3 and rng.random() < 0.9:
            area = {c: k for c, k in area.items() if "black" not in c}
        if s.alive and rng.random() < 0.25:         # one black message from dying: receiving one more asks for 澄清
            area = {c: k for c, k in area.items() if "black" not in c}
            area["black"] = 2
        if rng.random() < 0.25:                     # one red / blue message from three: the win checks at 2 and 3
            col = rng.choice(("red", "blue"))
            area = {c: k for c, k in area.items() if col not in c}
            area[col] = 2
        s.area = tuple(sorted(area.items()))
        for f, v in counts(area).items():
            setattr(s, f, v)
        s.hand_count = rng.choice((0, 1, 2, 3, 4, 5)) if s.alive else 0
        s.face_up = True if not ch.hidden else rng.random() < 0.4
        s.ever_face_up = s.face_up or rng.random() < 0.3
        s.skills = [SkillInst(r) for r in ch.skills if not (cat.skills[r].consumed and rng.random() < 0.2)]
        # now and then (from a stream of its own: no other draw moves) a list that is not the role's, refused by
        # both twins (interp snapshot._initial_order, enc.game._in_role_order): no random table left a skill out,
        # out of order or foreign, so the check was compared on role-ordered lists only (mutate_interpreter
        # snapshot.py #71 #75 #77 #78 … survived)
        mt = rng.getstate()[1]                      # the main stream's words and position: read, not moved
        side = random.Random(f"skill-list:{cid}:{mt[:4]}:{mt[-1]}")
        if side.random() < 0.01:
            s.skills = _disordered(side, cat, cid, s.skills)
        seats.append(s)
    if not any(s.alive for s in seats):
        seats[0].alive = True
    return State(seats=seats, turn=0)


def _disordered(rng, cat, cid: str, skills: list) -> list:
    """The seat's skills with one change that is not the role's list: a skill left out (consumed or not), two
    swapped, one of another character's added before or after, or one held twice."""
    out = list(skills)
    others = sorted({r for c, ch in cat.characters.items() if c != cid for r in ch.skills
                     if not cat.skills[r].is_grant} - {i.rule for i in out})
    x = rng.random()
    if out and x < 0.3:
        del out[rng.randrange(len(out))]
    elif len(out) > 1 and x < 0.55:
        k = rng.randrange(len(out) - 1)
        out[k], out[k + 1] = out[k + 1], out[k]
    elif others and x < 0.85:
        out.insert(rng.randint(0, len(out)), SkillInst(rng.choice(others)))
    elif out:
        k = rng.randrange(len(out))
        out.insert(k, SkillInst(out[k].rule))
    return out


def _deal(rng, n: int) -> list:
    want = dealt(n)
    if want is None:
        return [rng.choice(("red", "blue", "black")) for _ in range(n)]
    out = []
    for c, (lo, hi) in want.items():
        out += [c] * lo
    spare = [c for c, (lo, hi) in want.items() for _ in range(hi - lo)]
    rng.shuffle(spare)
    while len(out) < n and spare:
        out.append(spare.pop())
    while len(out) < n:
        out.append("black")
    rng.shuffle(out)
    return out[:n]


# ============================================================================================ actions
def _living(st) -> list:
    return [i for i, s in enumerate(st.seats) if s.alive and not s.lost]


def _choices(rng, cat, st, seat, ops, prefix: str = "") -> dict:
    """Random decisions for every deciding op of an effect (the op path's alt / cls / skip / n)."""
    out: dict = {}
    for i, op in enumerate(ops):
        path = f"{prefix}{i}"
        d: dict = {}
        if op.may and rng.random() < 0.3:
            d["skip"] = True
        if op.op in CLS_OPS and not (op.op == "put_message" and op.args.get("from") == "message"):
            d["cls"] = _cls_for(rng, st, seat, op)
        if op.args.get("up_to") is not None and rng.random() < 0.8:
            d["n"] = rng.choice((0, 1, 1, 2, 2, 3, 4))
        if op.op == "choose" and op.options:
            alt = rng.randrange(len(op.options))
            if rng.random() < 0.9:
                d["alt"] = alt
            out.update(_choices(rng, cat, st, seat, op.options[alt], f"{path}.{alt}."))
        if op.op == "each" and op.options:           # the loop's decisions: by the seat of each turn
            for s in range(len(st.seats)):
                out.update(_choices(rng, cat, st, seat, op.options[0], f"{path}.{s}."))
        if op.op == "repeat" and op.options:         # by the time (at most the bound of the z3 twin's unrolling)
            for k in range(rng.randint(1, 4)):
                out.update(_choices(rng, cat, st, seat, op.options[0], f"{path}.{k}."))
        if d:
            out[path] = d
    return out


def _cls_for(rng, st, seat, op) -> str:
    """A colour class, usually one the op can take (from an area that has it, of the filter's colours)."""
    if (op.op == "remove_message" or op.op == "replace_message" and op.args.get("from") == "message_area") \
            and rng.random() < 0.7:
        have = [c for s in st.seats for c, k in (s.area or ()) if k]
        if have:
            return rng.choice(have)
    col = op.args.get("colour")
    if col in ("black", "red", "blue") and rng.random() < 0.7:
        return rng.choice([c for c in CLASSES if col in c.split("_")])
    return rng.choice(CLASSES)


def _target(rng, cat, st, seat, card_id):
    if rng.random() < 0.08:                         # now and then anyone: the interpreter says whether he may be
        return rng.randrange(len(st.seats))
    spec = getattr(cat.cards[card_id], "target", None)
    who = spec.who if spec is not None else "none"
    if who == "none":
        return None if rng.random() < 0.95 else rng.randrange(len(st.seats))
    pool = [i for i in _living(st) if who != "other" or i != seat] or list(range(len(st.seats)))
    if card_id == "Cheng_Qing" and st.dying is not None and rng.random() < 0.8:
        return st.dying
    return rng.choice(pool)


def _actors(st, window) -> list:
    """Who may try to act now (the turn player, the player in front of the message, anyone)."""
    if window in ("main", "send_start", "draw"):
        return [st.turn]
    if window == "send" and st.in_front is not None:
        return [st.in_front] + _living(st)
    return _living(st) or [st.turn]


def try_play(sim: Sim) -> bool:
    rng, cat, st = sim.rng, sim.cat, sim.st
    w = st.window
    usable = [c for c, card in cat.cards.items() if w in card.windows]
    if not usable or rng.random() < 0.05:
        usable = list(cat.cards)
    if _travelling(st):
        usable = _focus(rng, usable, lambda c: touches_message(cat.cards[c].do))
    seat = rng.choice(_actors(st, w))
    declared = rng.choice(usable)
    actual = declared if rng.random() < 0.75 else rng.choice(list(cat.cards))
    ev = Event("play", seat=seat, card=declared, actual=actual if actual != declared or rng.random() < 0.3 else None,
               target=_target(rng, cat, st, seat, declared))
    if not sim.try_(ev):
        return False
    fires(sim)
    card = cat.cards[declared]
    st = sim.st
    for _ in range(5):
        ev = Event("resolve", choices=_choices(rng, cat, st, seat, card.do),
                   chosen=rng.randrange(len(st.seats)) if rng.random() < 0.5 else None)
        if sim.try_(ev):
            break
    else:
        return True
    fires(sim)
    gives(sim, seat, card, ev)
    return True


def try_use(sim: Sim) -> bool:
    rng, cat, st = sim.rng, sim.cat, sim.st
    cands = [(i, inst) for i in range(len(st.seats)) for inst in st.seats[i].skills
             if cat.skills[inst.rule].has("ActiveSkill") and not inst.used]
    if not cands:
        return False
    if _travelling(st):
        cands = _focus(rng, cands, lambda c: touches_message(cat.skills[c[1].rule].do))
    seat, inst = rng.choice(cands)
    rule = cat.skills[inst.rule]
    for _ in range(2):
        ev = Event("use", seat=seat, rule=inst.rule,
                   target=rng.randrange(len(st.seats)) if rng.random() < 0.5 else None,
                   chosen=rng.randrange(len(st.seats)) if rng.random() < 0.5 else None,
                   choices=_choices(rng, cat, st, seat, rule.do))
        if sim.try_(ev):
            fires(sim)
            gives(sim, seat, rule, ev)
            return True
    return False


def fires(sim: Sim, tries: int = 4) -> None:
    """Triggered skills answering the pending events (a few tries; each kept only if the interpreter agrees)."""
    rng, cat = sim.rng, sim.cat
    for _ in range(tries):
        st = sim.st
        kinds = {e["kind"] for e in sim.r.pending}
        if sim.stopped:
            return
        # a skill firing on a state (``fires``, no ``on``) is tried in its windows — and now and then in another one
        # (refused: compared; ``--target fires``: its reason gone, such a fire went through unseen)
        anywhere = rng.random() < 0.1
        cands = [(i, inst.rule) for i, s in enumerate(st.seats) for inst in s.skills
                 if any(o.event in kinds for o in cat.skills[inst.rule].on)
                 or (not cat.skills[inst.rule].on and cat.skills[inst.rule].fires is not None
                     and (anywhere or st.window in cat.skills[inst.rule].fires.at))]
        if not cands:
            return
        seat, rid = rng.choice(cands)
        rule = cat.skills[rid]
        ev = Event("fire", seat=seat, rule=rid, chosen=rng.randrange(len(st.seats)) if rng.random() < 0.6 else None,
                   choices=_choices(rng, cat, st, seat, rule.do))
        if sim.try_(ev):
            gives(sim, seat, rule, ev)


def gives(sim: Sim, seat: int, src, ev) -> None:
    """Now and then the grants the rule or card just used hands out (its gives sites); a grant its effect hands to a
    set of players (GameRunner.gives_at_once) mostly to every one of them, one after the other, with one site's
    arguments — now and then to some of them only, or with other arguments (refused: compared)."""
    rng, cat = sim.rng, sim.cat
    sets = set_grants(getattr(src, "do", ()))
    ones = one_grants(getattr(src, "do", ()))
    for g in getattr(src, "gives", ()):
        if g.grant in sets and rng.random() < 0.9:
            at_once(sim, seat, g, sets[g.grant])
            continue
        if g.grant in ones and rng.random() < 0.9:
            to_one(sim, seat, g)
            continue
        if rng.random() < 0.5:
            continue
        n = len(sim.st.seats)
        to = {"self": seat}.get(g.to, ev.target if ev.target is not None and rng.random() < 0.7 else rng.randrange(n))
        args = {}
        for pn, pt in cat.skills[g.grant].params.items():
            v = g.args.get(pn) if pn in g.args and rng.random() < 0.9 else _value(rng, cat, pt)
            args[pn] = tuple(v) if isinstance(v, list) else v
        sim.try_(Event("give", seat=to, giver=seat, site=g.site_id, args=args))


def to_one(sim: Sim, seat: int, g) -> None:
    """A grant the effect just done hands to one player (GameRunner.gives_to_one): to each player its grant ops
    named, as many times as they ran (now and then one left out, or to another seat: refused, compared)."""
    rng, cat = sim.rng, sim.cat
    n = len(sim.st.seats)
    o = next((o for o in sim.r.owed_one if o["src"] == (seat, g.giver) and o["grant"] == g.grant), None)
    want = [s for s, k in sorted((o or {}).get("want", {}).items()) for _ in range(k)]
    if want and rng.random() < 0.05:
        want.remove(rng.choice(want))
    if rng.random() < 0.05:
        want.append(rng.randrange(n))
    for s in want:
        args = {}
        for pn, pt in cat.skills[g.grant].params.items():
            v = g.args.get(pn) if pn in g.args and rng.random() < 0.95 else _value(rng, cat, pt)
            args[pn] = tuple(v) if isinstance(v, list) else v
        if not sim.try_(Event("give", seat=s, giver=seat, site=g.site_id, args=args)):
            return


def at_once(sim: Sim, seat: int, g, to: str) -> None:
    """A grant handed to a set of players: to each recipient in seat order (now and then one left out, or a seat's
    arguments drawn anew)."""
    rng, cat = sim.rng, sim.cat
    n = len(sim.st.seats)
    args = {}
    for pn, pt in cat.skills[g.grant].params.items():
        v = g.args.get(pn) if pn in g.args and rng.random() < 0.95 else _value(rng, cat, pt)
        args[pn] = tuple(v) if isinstance(v, list) else v
    want = list(recipients(to, seat, n))
    if want and rng.random() < 0.05:
        want.remove(rng.choice(want))
    for s in want:
        a = args
        if rng.random() < 0.02:
            a = {pn: (tuple(v) if isinstance(v, list) else v) for pn, v in
                 ((pn, _value(rng, cat, pt)) for pn, pt in cat.skills[g.grant].params.items())}
        if not sim.try_(Event("give", seat=s, giver=seat, site=g.site_id, args=a)):
            return


def actions(sim: Sim, k_max: int = 2) -> None:
    for _ in range(sim.rng.randint(0, k_max)):
        if sim.stopped or sim.over:
            return
        x = sim.rng.random()
        if x < 0.55:
            try_play(sim)
        elif x < 0.8:
            try_use(sim)
        else:
            fires(sim, 2)
        dying(sim)


def dying(sim: Sim) -> None:
    """Whoever has three black messages is asked for: 澄清 played now and then, else he dies."""
    rng = sim.rng
    for _ in range(4):
        st = sim.st
        if sim.stopped or sim.over:
            return
        q = D.dying_queue(st)
        if not q:
            return
        base = st.window if st.window != "dying" else st.interrupted
        if st.window != "dying" or st.dying != q[0]:
            if not sim.try_(Event("window", window="dying", dying=q[0])):
                return
        if rng.random() < 0.3:
            try_play(sim)
        st = sim.st
        if st.window == "dying" and st.dying is not None and st.seats[st.dying].alive and not D.saved(st, st.dying):
            sim.try_(Event("die", seat=st.dying))
            fires(sim, 2)
        st = sim.st
        if sim.stopped or sim.over:
            return
        if not D.dying_queue(st) and base is not None:
            front = st.in_front if TW.WINDOWS[base].message else None
            sim.try_(Event("window", window=base, in_front=front))


def send(sim: Sim) -> bool:
    """The turn's send: a few tries (the send rules in force may refuse a direction, locks or the card)."""
    for i in range(6):
        if _send(sim, i):
            return True
        if sim.stopped:
            return False
    return False


def _send(sim: Sim, attempt: int) -> bool:
    rng, st = sim.rng, sim.st
    seat = st.sender_of_turn()
    n = len(st.seats)
    arrow = rng.choice(("up", "left", "right"))
    d = arrow if rng.random() < 0.85 else rng.choice(("up", "left", "right"))
    from skillproof.model.interp.table import next_alive
    if d in ("left", "right"):
        to = next_alive(st, seat, d)
        if to == seat or rng.random() < 0.05:        # nobody else alive: next_alive is the sender himself
            to = rng.randrange(n)
    else:
        others = [i for i in _living(st) if i != seat]
        to = rng.choice(others) if others and rng.random() < 0.93 else rng.randrange(n)
    lockable = rng.random() < 0.4
    locks = [rng.choice(_living(st) or [0])] if lockable and rng.random() < 0.6 else []
    if attempt >= 2 and rng.random() < 0.5:
        locks = sorted(rng.sample(_living(st) or [0], min(len(_living(st) or [0]), rng.randint(0, 2))))
    cls = rng.choice(CLASSES) if rng.random() < 0.6 else rng.choice([c for c in CLASSES if "black" in c])
    ev = Event("send", seat=seat, colours=sorted(COLOURS_OF[cls]), arrow=arrow, lockable=lockable, dir=d, to=to,
               locks=locks, face_up=rng.random() < 0.1)
    if sim.via_area():
        ev.source = "message_area"
        have = [c for c, k in (st.seats[seat].area or ()) if k]
        if have:
            ev.colours = sorted(COLOURS_OF[rng.choice(have)])
    return sim.try_(ev)


def _via_area(self) -> bool:
    sv = self.r.send_via
    return bool(sv) and sv.get("from") == "message_area"


Sim.via_area = _via_area


def message_path(sim: Sim) -> None:
    """The message stops, passes on or is accepted, is fought over and received."""
    rng = sim.rng
    st = sim.st
    if st.window != "send":                 # the send stops the message in front of its first stop (the send window)
        return
    for _ in range(6):
        actions(sim, 1)
        st = sim.st
        if sim.stopped or sim.over or st.window != "send":
            return
        nxt = P.next_stop(st) if st.in_front is not None and st.message_dir_sent is not None else None
        if rng.random() < 0.45 and nxt is not None:
            if sim.try_(Event("window", window="send", in_front=nxt)):
                fires(sim, 2)
                continue
        if sim.try_(Event("window", window="fight", in_front=st.in_front)):
            break
        if nxt is None:
            # no next stop — an effect took the message, or it reached a dead sender — a pass now and then anyway:
            # refused, and compared when kept (a mutant of pass_errors letting it through plays on)
            if rng.random() < 0.3:
                sim.try_(Event("window", window="send", in_front=rng.randrange(len(st.seats))))
            return
        sim.try_(Event("window", window="send", in_front=nxt))
    fires(sim, 2)
    for _ in range(rng.randint(0, 2)):
        actions(sim, 2)
        st = sim.st
        if sim.stopped or sim.over:
            return
        if st.window == "fight" or st.window == "dying":
            sim.try_(Event("window", window="fight", in_front=st.in_front))
    st = sim.st
    if rng.random() < 0.05:                 # the turn ended before the message was received: refused, compared if kept
        sim.try_(Event("window", window="turn_end"))
    if sim.try_(Event("window", window="receive", in_front=st.in_front)):
        fires(sim, 3)
        dying(sim)


def play_turn(sim: Sim, first: bool) -> None:
    rng = sim.rng
    st = sim.st
    n = len(st.seats)
    living = _living(st)
    if not living:
        return
    if first:
        seat = rng.choice(living)
    else:
        seat = next((i for i in ((st.turn + d) % n for d in range(1, n + 1)) if i in living), living[0])
        if rng.random() < 0.03:
            seat = rng.randrange(n)
    if not sim.try_(Event("turn", seat=seat)):
        return
    st = sim.st
    n_draw = draw_count(sim.cat, st, st.turn)
    sim.try_(Event("draw", n=n_draw if rng.random() < 0.5 else (None if rng.random() < 0.9 else n_draw + 1)))
    if not sim.try_(Event("window", window="main")):
        return
    actions(sim, 3)
    if sim.over or sim.stopped:
        return
    if not sim.try_(Event("window", window="send_start")):
        return
    fires(sim, 2)
    if rng.random() < 0.3:
        actions(sim, 1)
    if sim.over or sim.stopped:
        return
    if send(sim):
        fires(sim, 2)
        message_path(sim)
    if sim.over or sim.stopped:
        return
    if sim.try_(Event("window", window="turn_end")):
        fires(sim, 2)


def random_game(rng: random.Random, cat, n_max: int = 5, turns_max: int = 3, p_keep_bad: float = 0.03) -> Trace:
    """A game trace (see the module's docstring)."""
    setup = random_setup(rng, cat, n_max)
    sim = Sim(rng, cat, setup, p_keep_bad)
    turns = rng.randint(1, turns_max)
    for t in range(turns):
        if sim.stopped or sim.over:
            break
        play_turn(sim, t == 0)
    events = list(sim.r.trace.events)
    # end in a window of a turn (a trace ending after the turn ended is illegal): mostly cut the last turn end
    if events and events[-1].kind != "turn" and sim.st.window == "turn_end" and rng.random() < 0.95:
        while events and not (events[-1].kind == "window" and events[-1].window == "turn_end"):
            events.pop()
        if events:
            events.pop()
    return Trace(setup, events, True)


# ============================================================================================ templates
#: per event kind, the fields a template may leave open, with their hole types
EVENT_HOLES = {
    "send": (("colours", "class"), ("arrow", "dir"), ("lockable", "bool"), ("dir", "dir"), ("to", "seat"),
             ("locks", "seats"), ("face_up", "bool")),
    "play": (("actual", "card"), ("target", "seat"), ("chosen", "seat")),
    "use": (("target", "seat"), ("chosen", "seat"), ("chosen2", "seat")),
    "resolve": (("chosen", "seat"), ("chosen2", "seat")),
    "fire": (("chosen", "seat"), ("chosen2", "seat")),
    "draw": (("n", "int"),),
}
SEAT_HOLES = (("hand_count", "int"), ("face_up", "bool"), ("ever_face_up", "bool"), ("identity", "identity"),
              ("task", "task"), ("alive", "bool"))


def _domain(cat, typ: str, n: int, value) -> tuple:
    if typ == "seat":
        dom = (None,) + tuple(range(n))
    elif typ == "int":
        dom = tuple(range(0, 8))
    elif typ == "bool":
        dom = (True, False)
    elif typ == "class":
        dom = CLASSES
    elif typ == "dir":
        dom = ("up", "left", "right")
    elif typ == "identity":
        dom = ("red", "blue", "black", "none")
    elif typ == "task":
        dom = (None,) + TASKS
    elif typ == "card":
        dom = (None,) + tuple(cat.cards)
    else:
        dom = tuple(range(n))
    return dom


def _fits(typ: str, value, dom, n: int) -> bool:
    if typ == "seats":
        return isinstance(value, (list, tuple)) and len(set(value)) == len(value) and all(
            isinstance(x, int) and 0 <= x < n for x in value)
    if typ == "class":
        return isinstance(value, (list, tuple)) and "_".join(c for c in ("red", "blue", "black") if c in value) in dom \
            and len(set(value)) == len(value)
    return value in dom and type(value) is type(next((d for d in dom if d == value), value))


def _as_pin(typ: str, value):
    if typ == "class":
        return "_".join(c for c in ("red", "blue", "black") if c in value)
    return list(value) if typ == "seats" else value


def _pick(key: str, k: int) -> int:
    """A choice among ``k`` drawn from ``key`` alone (no random stream: every caller of ``template_of`` sees the
    same template, and no other draw moves)."""
    return zlib.crc32(key.encode("utf-8")) % k


def domain_form(key: str, typ: str, dom: tuple, v) -> tuple:
    """The domain ``dom`` of a hole holding the value ``v``, written in one of the forms the template format
    (model/interp/hole.py ``values``) reads — the values listed, none (every value of the type: 0 to 20 for an
    int, the seat numbers for a seat, the alternatives 0 to 7), the value alone, an int's bounds or its values
    listed, an alternative's count or its indices — each holding ``v``. Every template the project builds writes
    one form per type (an int's two bounds, an alternative's count, a class's list): the others were read by no
    cross-checked template, so a misreading went unseen (``benchmarks/mutate_interpreter.py --target hole``)."""
    if typ == "int":                    # dom: (lo, hi)
        forms = [dom, (), tuple(range(dom[0], dom[1] + 1)), (v,), (dom[1], dom[0], v)]
    elif typ == "alt":                  # dom: (count,)
        forms = [dom, (), tuple(range(dom[0])), (v + 1,), (v, v + 1)]
    elif typ == "seat" and v is None:   # none is no seat number: the empty domain does not hold it
        forms = [dom, (v,), tuple(reversed(dom))]
    else:
        forms = [dom, (), (v,) if typ != "seats" else dom, tuple(reversed(dom))]
    return forms[_pick(key, len(forms))]


def _copy(x):
    """A deep copy of a trace or an event by a pickle round trip (dataclasses, lists, dicts, strings, holes: copied
    alike, sharing kept), as checks/enc/game.fill_template copies: several times cheaper than copy.deepcopy."""
    return pickle.loads(pickle.dumps(x, pickle.HIGHEST_PROTOCOL))


def template_of(cat, trace: Trace, forms: bool = True):
    """(template, pins): a hole at every value a template may leave open that has a value of its hole's domain
    (others stay as they are), and the trace's values as pins. ``forms``: each hole's domain written in a form
    ``domain_form`` draws from its name and the trace's length, and a seat's area as a dict or as pairs; else the
    domains listed (an int's as bounds 0 to 7, an alternative's as the count 8) and every area a dict."""
    tpl = _copy(trace)
    n = len(tpl.setup.seats)
    pins: dict = {}
    tag = f"/{len(tpl.events)}/{n}"

    def form(name, typ, dom, v):
        return domain_form(name + tag, typ, dom, v) if forms else dom

    def open_(obj, attr, name, typ):
        v = getattr(obj, attr)
        if v is None and typ not in ("seat", "card", "task"):
            return
        dom = _domain(cat, typ, n, v)
        if not _fits(typ, v, dom, n):
            return
        pin = _as_pin(typ, v)
        setattr(obj, attr, Hole(name, typ, form(name, typ, (0, 7) if typ == "int" else dom,
                                                pin if typ != "seats" else None)))
        pins[name] = pin
    for i, s in enumerate(tpl.setup.seats):
        for f, typ in SEAT_HOLES:
            open_(s, f, f"s{i}.{f}", typ)
        if s.area is not None:
            area = dict(s.area)
            tab = {}
            for c in CLASSES:
                v = area.get(c, 0)
                name = f"s{i}.area.{c}"
                if isinstance(v, int) and 0 <= v < 8:
                    tab[c] = Hole(name, "int", form(name, "int", (0, 7), v))
                    pins[name] = v
                else:
                    tab[c] = v
            # an area is class -> count pairs or a dict (model/interp/hole.py): both, its holes found either way
            s.area = tuple(tab.items()) if forms and _pick(f"s{i}.area{tag}", 2) else tab
    for k, ev in enumerate(tpl.events):
        for f, typ in EVENT_HOLES.get(ev.kind, ()):
            open_(ev, f, f"e{k}.{f}", typ)
        if isinstance(ev.choices, dict):
            ch = {}
            for path, d in ev.choices.items():
                if not isinstance(d, dict):
                    ch[path] = d
                    continue
                dd = {}
                for key, v in d.items():
                    name = f"e{k}.{path}.{key}"
                    if key == "alt" and isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 8:
                        dd[key] = Hole(name, "alt", form(name, "alt", (8,), v))
                    elif key == "skip" and isinstance(v, bool):
                        dd[key] = Hole(name, "bool", form(name, "bool", (True, False), v))
                    elif key == "cls" and v in CLASSES:
                        dd[key] = Hole(name, "class", form(name, "class", CLASSES, v))
                    elif key == "n" and isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 8:
                        dd[key] = Hole(name, "int", form(name, "int", (0, 7), v))
                    else:
                        dd[key] = v
                        continue
                    pins[name] = v
                ch[path] = dd
            ev.choices = ch
    return tpl, pins


def open_some(rng, template, pins: dict, k: int) -> dict:
    """Pins with ``k`` of the holes left open (removed)."""
    names = sorted(pins)
    rng.shuffle(names)
    return {n: pins[n] for n in names[k:]}


def mutate(rng: random.Random, cat, trace: Trace) -> Trace | None:
    """The trace with one value a template may leave open changed to another of its domain (None: none there) —
    or, a quarter of the time, its skeleton changed: an event dropped, repeated or moved, a window's player, a
    skill, a card or a seat of an event changed."""
    if rng.random() < 0.25 and trace.events:
        return mutate_skeleton(rng, cat, trace)
    tpl, pins = template_of(cat, trace, forms=False)   # another value of the listed domain
    if not pins:
        return None
    events = sorted(n for n in pins if n.startswith("e"))
    name = rng.choice(events) if events and rng.random() < 0.6 else rng.choice(sorted(pins))
    from skillproof.model.interp.hole import holes_of
    hole = next(h for h in holes_of(tpl) if h.name == name)
    n = len(trace.setup.seats)
    if hole.type == "seats":
        new = sorted(rng.sample(range(n), rng.randint(0, min(2, n))))
    else:
        from skillproof.model.interp.hole import values
        opts = [d for d in values(hole, n, list(cat.cards), CLASSES, TASKS) if d != pins[name]]
        if not opts:
            return None
        new = rng.choice(opts)
    pins = dict(pins)
    pins[name] = new
    from skillproof.checks.enc.game import fill_template
    return fill_template(tpl, pins)


def mutate_skeleton(rng: random.Random, cat, trace: Trace) -> Trace:
    tr = _copy(trace)
    ev = tr.events
    n = len(tr.setup.seats)
    k = rng.randrange(len(ev))
    x = rng.random()
    if x < 0.25:
        del ev[k]
    elif x < 0.35:
        ev.insert(k, _copy(ev[k]))
    elif x < 0.45 and len(ev) > 1:
        j = rng.randrange(len(ev))
        ev[k], ev[j] = ev[j], ev[k]
    else:
        e = ev[k]
        if e.kind == "window":
            if e.window == "dying":
                e.dying = rng.randrange(n)
            elif e.in_front is not None:
                e.in_front = rng.randrange(n)
            else:
                e.window = rng.choice(list(TW.WINDOWS))
        elif e.kind in ("fire", "use"):
            rules = [i.rule for s in tr.setup.seats for i in s.skills] or list(cat.skills)
            if rng.random() < 0.5:
                e.rule = rng.choice(rules)
            else:
                e.seat = rng.randrange(n)
        elif e.kind == "play":
            if rng.random() < 0.5:
                e.card = rng.choice(list(cat.cards))
            else:
                e.seat = rng.randrange(n)
        elif e.kind in ("turn", "send", "die"):
            e.seat = rng.randrange(n)
        elif e.kind == "give":
            e.seat = rng.randrange(n)
        else:
            del ev[k]
    return tr
