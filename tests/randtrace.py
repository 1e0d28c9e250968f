"""Random bounded traces for cross-checking ``model.interp.trace.run`` against ``checks.enc.trace``.

A trace is drawn as a game would play it — a table, one or two turns, windows in order, grants handed
out, invalidations, a role replacement, skills used — but each choice is made loosely (sites in the
wrong window, givers who do not hold the skill, arguments off the site's list, a turn passed to the same
player, a window out of order), so that both legal and illegal traces are exercised and the two
back-ends must agree on which is which.
"""
from __future__ import annotations

import random

from skillproof.model.interp.face import turns as turns_role, use_faces
from skillproof.model.interp.grants import site_of
from skillproof.model import turn as TW
from skillproof.model import vocab as V
from skillproof.model.state import Seat, SkillInst, State
from skillproof.model.interp.trace import Event, Trace

from randstate import _value, interesting_characters


def _sites(cat):
    """Gives sites whose grant a trace can show (one that lasts only during a card's resolution never is)."""
    return [g for src in list(cat.skills.values()) + list(cat.cards.values()) for g in src.gives
            if g.grant in cat.skills and cat.skills[g.grant].lifetime != "resolution"]


def random_setup(rng: random.Random, cat, n_max: int, interesting) -> State:
    n = rng.randint(1, n_max) if rng.random() < 0.1 else rng.randint(min(2, n_max), n_max)
    chars = list(cat.characters)
    replacers = [c for c, ch in cat.characters.items() if any(cat.skills[r].replaces_role for r in ch.skills)]
    turners = [c for c, ch in cat.characters.items() if any(turns_role(cat, r) for r in ch.skills)]
    downers = [c for c in turners if any(False in use_faces(cat, r)[1] for r in cat.characters[c].skills)]
    picked: list = []
    while len(picked) < n:
        if not picked and replacers and rng.random() < 0.15:
            c = rng.choice(replacers)
        elif not picked and turners and rng.random() < 0.15:   # a role whose uses turn it (偷天 up, 换日 down)
            c = rng.choice(downers if downers and rng.random() < 0.5 else turners)
        else:
            c = rng.choice(interesting) if rng.random() < 0.6 else rng.choice(chars)
        if c not in picked or rng.random() < 0.02:
            picked.append(c)
    seats = []
    for cid in picked:
        ch = cat.characters[cid]
        s = Seat(character=cid)
        s.alive = rng.random() < 0.85
        s.face_up = rng.random() < 0.5 if ch.hidden or rng.random() < 0.05 else True
        s.ever_face_up = s.face_up or rng.random() < 0.4
        if s.face_up and rng.random() < 0.03:
            s.ever_face_up = False                          # now and then a setup that cannot be
        # a living player without an identity cannot be either: rarely, so that most illegal traces are
        # illegal for one reason, and each check of legality decides some trace alone
        s.identity = rng.choice(V.COLOURS) if not s.alive or rng.random() < 0.1 else \
            rng.choice([c for c in V.COLOURS if c != "none"])
        s.hand_count = rng.choice([0, 0, 1, 2, 3, 5])
        s.red_messages, s.blue_messages, s.black_messages = (rng.randint(0, 3) for _ in range(3))
        lo, hi = max(s.red_messages, s.blue_messages), s.red_messages + s.blue_messages
        s.true_messages = rng.randint(lo, hi) if rng.random() < 0.95 else rng.randint(0, 6)
        s.non_black_messages = rng.randint(max(0, s.true_messages - s.black_messages), s.true_messages) \
            if rng.random() < 0.95 else rng.randint(0, s.true_messages)
        s.locked = rng.random() < 0.2
        s.skills = [SkillInst(r) for r in ch.skills if not (cat.skills[r].consumed and rng.random() < 0.3)]
        seats.append(s)
    return State(seats=seats, turn=0, message=frozenset(c for c in V.MESSAGE_COLOURS if rng.random() < 0.4),
                 message_dir=rng.choice(V.DIRECTIONS), message_lockable=rng.random() < 0.5)


def _replace(rng, cat, setup, events) -> bool:
    """A role replacement of the player, appended to ``events`` (whether one was). Half the time the new role
    holds a skill that can be used up (consumed): which of its skills the new role holds is then the trace's
    to decide, not the table's at the start."""
    spendable = [c for c, ch in cat.characters.items() if any(cat.skills[r].consumed for r in ch.skills)]
    new = rng.choice(spendable if spendable and rng.random() < 0.5 else list(cat.characters))
    if any(s.character == new for s in setup.seats) and rng.random() < 0.8:
        return False
    events.append(Event("replace", seat=0, character=new))
    return True


def random_trace(rng: random.Random, cat, n_max: int = 3, g_max: int = 2, turns_max: int = 2,
                 unknown_keys=(), hot=None, interesting=None) -> Trace:
    interesting = interesting or interesting_characters(cat)
    setup = random_setup(rng, cat, n_max, interesting)
    setup.unknowns = {k: rng.random() < 0.5 for k in unknown_keys}
    n = len(setup.seats)
    sites = _sites(cat)
    inval = [g for g in sites if "InvalidSkill" in cat.skills[g.grant].closure]
    plain = [g for g in sites if g not in inval]
    events: list = []
    turns = rng.randint(1, turns_max)
    owner = rng.randrange(n)
    gives_to_me = 0
    invalidated: set = set()
    replaced = False
    order = TW.ordered()
    fired_at, fired_givers = _fired_windows(cat)
    for t in range(turns):
        if t > 0:
            events.append(Event("window", window="turn_end"))
            nxt = rng.randrange(n)
            owner = nxt if rng.random() < 0.1 or n == 1 else (owner + 1 + rng.randrange(max(1, n - 1))) % n
        events.append(Event("turn", seat=owner))
        sender = owner if rng.random() < 0.8 else rng.randrange(n)
        last = t == turns - 1
        stop = rng.choice(order[:-1]) if last else "turn_end"
        aim = last and bool(fired_at) and rng.random() < 0.35
        if aim:
            # the question where a grant a site hands out by itself may matter (a give it owes the player is then
            # missed or not to her loss: interp.trace.Runner.settle_fired, crosskit._fired_matters), the giver's
            # holder sending, the give owed the player missed half the time and nothing else done in the turn (no
            # play, no other give, no window out of order: the trace is illegal by the owed give or not at all) —
            # drawn only for a catalogue with such sites (the others' traces do not move)
            stop = rng.choice(fired_at)
            holders = [i for i, s in enumerate(setup.seats)
                       if any(i_.rule in fired_givers for i_ in s.skills)]
            if holders and rng.random() < 0.7:
                owner = sender = rng.choice(holders)
                events[-1] = Event("turn", seat=owner)
        path = [w for w in order if TW.position(w) <= TW.position(stop) and w != "turn_end"]
        if not aim and rng.random() < 0.05 and len(path) > 2:           # now and then out of order
            i, j = rng.sample(range(len(path)), 2)
            path[i], path[j] = path[j], path[i]
        sent = False
        for w in path:
            if w != "draw":
                front = rng.randrange(n) if TW.WINDOWS[w].message else None
                events.append(Event("window", window=w, in_front=front,
                                    sender=sender if TW.WINDOWS[w].message else None))
            if TW.WINDOWS[w].message and not sent:      # the message is sent: automatic grants, mostly all of them
                sent = True
                gives_to_me += _fired(rng, cat, setup, events, n, sender, mine=last and gives_to_me < g_max,
                                      miss=0.5 if aim else 0.08)
            # a dying window now and then, in the windows it can interrupt
            dying = None
            if not aim and w in TW.DYING_WITHIN and rng.random() < 0.15:
                dying = 0 if rng.random() < 0.5 else rng.randrange(n)
                events.append(Event("window", window="dying", dying=dying))
                if dying == 0 and not replaced and rng.random() < 0.5 and \
                        any(cat.skills[r].replaces_role for r in cat.characters[setup.seats[0].character].skills):
                    replaced = _replace(rng, cat, setup, events)      # the player's replacer, used as she dies
            if aim:
                continue       # an aimed turn holds nothing else: its legality turns on the gives owed
            if w != "draw" and rng.random() < 0.15:    # a card used now (what 'played' reads)
                events.append(Event("play", seat=0 if rng.random() < 0.8 else rng.randrange(n),
                                    card=rng.choice(hot or list(cat.cards)) if rng.random() < 0.7
                                    else rng.choice(list(cat.cards))))
            for _ in range(rng.choice([0, 0, 1, 1, 2]) if w != "draw" else 0):
                r = rng.random()
                if r < 0.15 and inval:
                    held = {r for x in setup.seats for r in cat.characters[x.character].skills}
                    avail = [g for g in inval if g.giver_is_card or g.giver in held]
                    give = rng.choice(avail if avail and rng.random() < 0.85 else inval)
                    target = rng.randrange(n)
                    if target in invalidated:
                        continue
                    invalidated.add(target)
                    giver = _giver(rng, cat, setup, give, n)
                    events.append(Event("give", seat=target, giver=giver, site=give.site_id))
                    partner = site_of(cat, give.partner_id)
                    if partner is not None and rng.random() < 0.8:          # handed out with it ('with')
                        events.append(Event("give", seat=target, giver=giver, site=partner.site_id,
                                            args=_args(rng, cat, partner, hot)))
                        gives_to_me += target == 0
                elif r < 0.22 and dying == 0 and not replaced:
                    replaced = _replace(rng, cat, setup, events)
                elif plain and gives_to_me < g_max:
                    held = {r for x in setup.seats for r in cat.characters[x.character].skills}
                    pool = plain
                    if rng.random() < 0.85:                 # mostly sites someone at the table can use
                        pool = [g for g in plain if g.giver_is_card or g.giver in held] or plain
                    if not last and rng.random() < 0.9:    # what an earlier turn hands out mostly lasts
                        pool = [g for g in pool if "OneTurnSkill" not in cat.skills[g.grant].closure]
                        if not pool:
                            continue
                    here = [g for g in pool if not g.at or w in g.at]
                    give = rng.choice(here if here and rng.random() < 0.9 else pool)
                    to = 0 if rng.random() < 0.95 else rng.randrange(n)
                    gives_to_me += to == 0
                    giver = _giver(rng, cat, setup, give, n)
                    events.append(Event("give", seat=to, giver=giver, site=give.site_id,
                                        args=_args(rng, cat, give, hot)))
                    partner = site_of(cat, give.partner_id)
                    if partner is not None and rng.random() < 0.8:          # handed out with it ('with')
                        if "InvalidSkill" in cat.skills[partner.grant].closure:
                            if to not in invalidated:
                                invalidated.add(to)
                                events.append(Event("give", seat=to, giver=giver, site=partner.site_id))
                        else:
                            events.append(Event("give", seat=to, giver=giver, site=partner.site_id,
                                                args=_args(rng, cat, partner, hot)))
            if dying is not None and rng.random() < 0.5:
                events.append(Event("window", window=w, in_front=(rng.randrange(n) if TW.WINDOWS[w].message else None),
                                    sender=sender if TW.WINDOWS[w].message else None))
        if last and stop == "dying":
            pass
    # skills used this turn, now and then in another order; one that turns the role (interp.face) more often
    uses = [inst.rule for inst in setup.seats[0].skills
            if rng.random() < (0.5 if turns_role(cat, inst.rule) else 0.15)]
    if len(uses) > 1 and rng.random() < 0.5:
        rng.shuffle(uses)
    for r in uses:       # the face it leaves, where it may leave more than one (now and then one it may not)
        may = use_faces(cat, r)[1]
        face = rng.choice(sorted(may - {None}) + [None]) if len(may) > 1 or rng.random() < 0.05 else None
        if face is None and len(may) == 1 and rng.random() < 0.05:
            face = rng.choice((True, False))
        events.append(Event("use", seat=0, rule=r, face_up=face))
    if rng.random() < 0.03:                  # now and then past the end of the turn (no question is asked there)
        events.append(Event("window", window="turn_end"))
    return Trace(setup, events)


def _fired_windows(cat) -> tuple[list, set]:
    """The windows after the send in which the grant of a site that may fire by itself may matter
    (interp.grants.matters_windows; any, for a grant it cannot bound), and the skills giving from such sites. Read
    loosely and apart from ``must_fire`` (any TriggeredSkill's site on an event, at some window): a mistake there must
    not hide the traces that would show it."""
    from skillproof.model.interp.grants import SEEN_EVENTS, matters_windows
    wins: set = set()
    givers: set = set()
    sent = [w for w in TW.ordered() if TW.WINDOWS[w].message]
    for src in cat.skills.values():
        for give in src.gives:
            rule = cat.skills.get(give.giver)
            if give.giver_is_card or rule is None or not rule.has("TriggeredSkill") or give.on not in SEEN_EVENTS \
                    or not give.at or give.grant not in cat.skills:
                continue
            givers.add(give.giver)
            ws = matters_windows(cat, give.grant, give.args)
            wins |= {w for w in sent if ws is None or w in ws}
    return [w for w in sent if w in wins], givers


def _fired(rng, cat, setup, events, n, sender, mine: bool, miss: float = 0.08) -> int:
    """The gives a must-fire site owes as the message is sent (interp.grants.must_fire, interp.trace.Runner.owe_fired):
    mostly every one, now and then one left out (one owed the player ``miss`` of the time), to the wrong player or
    none at all — both sides of legality. The player's only where ``mine`` (the question's turn, a slot free: an
    earlier turn's grant is gone by the question and the symbolic trace cannot show it). Returns how many went to the
    player."""
    from skillproof.model.interp.grants import fired_recipients, must_fire
    out = 0
    for src in cat.skills.values():
        for give in src.gives:
            to = must_fire(cat, give)
            if to is None or rng.random() < 0.1:
                continue
            for g, seat in enumerate(setup.seats):
                if not any(i.rule == give.giver for i in seat.skills) or (g != sender and rng.random() < 0.9):
                    continue                    # mostly the sender's (the sites the timed model sees answer his send)
                for r in fired_recipients(to, g, n):
                    to_seat = r if rng.random() < 0.95 else rng.randrange(n)
                    if rng.random() < (miss if to_seat == 0 else 0.08) or (to_seat == 0 and not mine):
                        continue
                    out += to_seat == 0
                    events.append(Event("give", seat=to_seat, giver=g, site=give.site_id,
                                        args={p: tuple(v) if isinstance(v, list) else v for p, v in give.args.items()}))
    return out


def _args(rng, cat, give, hot) -> dict:
    """Arguments of a grant handed out by ``give``: mostly the site's own, else any value of the type."""
    args = {}
    for pn, pt in cat.skills[give.grant].params.items():
        if pn in give.args and rng.random() < 0.85:
            v = give.args[pn]
            args[pn] = tuple(v) if isinstance(v, list) else v
        else:
            args[pn] = _value(rng, cat, pt, hot)
    return args


def _giver(rng, cat, setup, give, n) -> int:
    """Usually a seat whose role holds the giving skill (or anyone, for a card)."""
    if give.giver_is_card or rng.random() < 0.2:
        return rng.randrange(n)
    holders = [i for i, s in enumerate(setup.seats) if give.giver in cat.characters[s.character].skills]
    return rng.choice(holders) if holders else rng.randrange(n)
