"""Random concrete states for cross-checking the interpreter against the z3 encoder.

States are *shape-consistent* (what a SymState can represent: distinct characters, the player's
initial skills in their character's order then grants, invalidation wrapping exactly the initial-marked
skills) but deliberately not always reachable: givers, sites, arguments and attributes are drawn freely
so that the decisions are exercised far outside what a game produces, and reachability itself is
cross-checked too.
"""
from __future__ import annotations

import random

from skillproof.model import vocab as V
from skillproof.model.state import Seat, SkillInst, State


def hot_cards(cat) -> list:
    """Cards that some rule names (conversions, bans, grant sites) or that fight / dying phases use."""
    hot = set()
    for r in cat.skills.values():
        if r.convert:
            hot.update(t.value for t in (r.convert.source, *r.convert.targets) if t.kind == "card")
        if r.ban and isinstance(r.ban.cards, tuple):
            hot.update(x.value for x in r.ban.cards)
    for src in list(cat.skills.values()) + list(cat.cards.values()):
        for g in src.gives:
            for v in g.args.values():
                if isinstance(v, str) and v in cat.cards:
                    hot.add(v)
                elif isinstance(v, list):
                    hot.update(x for x in v if x in cat.cards)
    hot.update(c.id for c in cat.cards.values() if {"fight", "dying"} & set(c.phases))
    return sorted(hot) or list(cat.cards)


def interesting_characters(cat) -> list:
    """Characters holding a rule that some decision reads (conversions, send groups, draw, active…)."""
    keys = {"ConvertCardSkill", "SendMessageDirectionSkill", "SendMessageCanLockSkill",
            "SendMessageCardSkill", "ChangeDrawCardCountSkill", "ActiveSkill"}
    out = [c.id for c in cat.characters.values()
           if any(keys & cat.skills[s].closure or cat.skills[s].gives for s in c.skills)]
    return out or list(cat.characters)


def pick_card(rng, cat, hot=None):
    hot = hot or hot_cards(cat)
    return rng.choice(hot) if rng.random() < 0.75 else rng.choice(list(cat.cards))


def random_state(rng: random.Random, cat, n_max: int = 3, g_max: int = 2, chars=None,
                 unknown_keys=(), hot=None, interesting=None) -> State:
    chars = list(chars or cat.characters)
    interesting = interesting or interesting_characters(cat)
    n = rng.randint(1, n_max)
    picked = []
    while len(picked) < n:
        c = rng.choice(interesting) if rng.random() < 0.6 else rng.choice(chars)
        if c not in picked or rng.random() < 0.03:      # now and then a (never reachable) duplicate
            picked.append(c)
    grants = [g for g in cat.grants if cat.sites(g.id) and "InvalidSkill" not in g.closure
              and g.lifetime != "resolution"]
    seats = []
    for si, cid in enumerate(picked):
        ch = cat.characters[cid]
        s = Seat(character=cid)
        s.alive = rng.random() < 0.8
        s.face_up = rng.random() < 0.6 if ch.hidden or rng.random() < 0.1 else True
        s.ever_face_up = s.face_up or rng.random() < 0.4
        s.identity = rng.choice(V.COLOURS)
        s.hand_count = rng.choice([0, 0, 1, 2, 3, 5])
        s.red_messages = rng.randint(0, 3)
        s.blue_messages = rng.randint(0, 3)
        s.black_messages = rng.randint(0, 3)
        lo, hi = max(s.red_messages, s.blue_messages), s.red_messages + s.blue_messages
        s.true_messages = rng.randint(lo, hi) if rng.random() < 0.9 else rng.randint(0, 6)
        # the red or blue messages with black are among the black ones (snapshot_errors): mostly respected
        s.non_black_messages = rng.randint(max(0, s.true_messages - s.black_messages), s.true_messages) \
            if rng.random() < 0.9 else rng.randint(0, 6)
        s.locked = rng.random() < 0.2
        wrapped = rng.random() < 0.25
        skills = []
        for rid in ch.skills:
            if cat.skills[rid].consumed and rng.random() < 0.3:
                continue
            skills.append(SkillInst(rid, invalid=wrapped and cat.skills[rid].initial,
                                    used=rng.random() < 0.2))
        if si == 0:
            for _ in range(rng.randint(0, g_max) if grants else 0):     # (a catalogue may hand out none)
                g = rng.choice(grants)
                args = {}
                for pn, pt in g.params.items():
                    args[pn] = _value(rng, cat, pt, hot)
                sites = cat.sites(g.id)
                give = rng.choice(sites)
                skills.append(SkillInst(g.id, args, invalid=wrapped and g.initial, used=rng.random() < 0.2,
                                        giver=rng.randrange(n), site=f"{give.giver}#{give.index}"))
        s.skills = skills
        s.invalidated = wrapped
        if si == 0 and rng.random() < 0.4:          # a card the player used this turn ('played')
            s.played = frozenset({pick_card(rng, cat, hot)})
        seats.append(s)
    opt = lambda: rng.randrange(n) if rng.random() < 0.7 else None
    st = State(seats=seats, turn=rng.randrange(n), sender=opt(), in_front=opt(), dying=opt(),
               message=frozenset(c for c in V.MESSAGE_COLOURS if rng.random() < 0.4),
               message_dir=rng.choice(V.DIRECTIONS), message_lockable=rng.random() < 0.5)
    st.unknowns = {k: rng.random() < 0.5 for k in unknown_keys}
    if rng.random() < 0.8:                       # a moment of the turn (else an untimed state)
        from skillproof.model import turn as TW
        st.window = rng.choice([w for w in TW.WINDOWS if w != "turn_end"])
        if st.window == "dying":
            st.interrupted = rng.choice(TW.DYING_WITHIN)
    return st


def _value(rng, cat, pt, hot=None):
    cards = list(cat.cards)
    if pt == "card":
        return pick_card(rng, cat, hot)
    if pt == "bool":
        return rng.random() < 0.5
    if pt == "int":
        return rng.randint(0, 5)
    if pt == "colour":
        return rng.choice(V.COLOURS)
    if pt == "set<card>":
        return tuple(sorted(rng.sample(cards, rng.randint(0, min(3, len(cards))))))
    raise ValueError(pt)
