"""Random traces around a role replacement (后来人), for the cross-check where tests/randtrace.py is blind:
its replacements are nearly always legal (the player's replacer, used as she dies), so a mistake in what makes
one illegal — a seat with no live replacer, a window or condition it is not used in, a character already at
the table — was never seen (benchmarks/mutate_interpreter.py: trace.py replace_errors survivors).

``replacement_trace`` takes a random trace and puts one replacement of the player into it at a random place,
with a random new role: legal or illegal each way in turn. The cross-check compares legality and every
decision on the state it reaches, as for any trace (crosskit.prepare_trace / trace_disagreement)."""
from __future__ import annotations

import random

from skillproof.model.interp.trace import Event, Trace

from randtrace import random_trace


def _invalidates(cat, site) -> bool:
    from skillproof.model.interp.grants import site_of
    g = site_of(cat, site)
    return g is not None and "InvalidSkill" in cat.skills[g.grant].closure


def _replacer(cat, character) -> bool:
    return any(cat.skills[r].replaces_role for r in cat.characters[character].skills)


def replacement_trace(rng: random.Random, cat, **kw) -> Trace:
    """A random trace whose player holds a replacing skill (the symbolic trace holds a replacement by such a
    role only) and no grants but invalidations (one handed out before the replacement is dropped by it: a state
    the symbolic trace does not show), with one replacement put at a random place of a turn."""
    for _ in range(200):
        tr = random_trace(rng, cat, **kw)
        if _replacer(cat, tr.setup.seats[0].character):
            break
    # grants to other seats, and the player's before the replacement drops them, are no events of the symbolic
    # trace (it would not fit): only invalidations are kept
    events = [e for e in tr.events if e.kind != "replace" and not (e.kind == "give" and not _invalidates(cat, e.site))]
    # a place after the first turn starts (a replacement is an event of a turn) and the player's last grant
    starts = [i for i, e in enumerate(events) if e.kind == "turn"]
    lo = starts[0] + 1 if starts else 0
    at = rng.randint(lo, len(events))
    spots = [i + 1 for i, e in enumerate(events) if e.kind == "window" and e.window in ("main", "fight", "receive")]
    if spots and rng.random() < 0.6:                    # in a dying window of the player, as 后来人 is used
        at = rng.choice(spots)
        events.insert(at, Event("window", window="dying", dying=0))
        at += 1
        if rng.random() < 0.7:                          # the rest of the trace after it left out
            events = events[:at]
    seated = [s.character for s in tr.setup.seats]
    pick = rng.random()
    if pick < 0.25 and len(seated) > 1:
        new = rng.choice(seated[1:])                    # already at the table
    else:
        new = rng.choice(list(cat.characters))
    # now and then naming the skill used (``via``): the player's own replacer — the symbolic trace has no 'via'
    # (a replacement by a skill the seat does not hold has no twin), but a named replacer must still be found
    via = None
    rules = [r for r in cat.characters[tr.setup.seats[0].character].skills if cat.skills[r].replaces_role] \
        if tr.setup.seats[0].character in cat.characters else []
    if rules and rng.random() < 0.4:
        via = rng.choice(rules)
    events.insert(at, Event("replace", seat=0, character=new, via=via))
    return Trace(tr.setup, events)
