"""Random traces around a grant handed out by an ActiveSkill, for the cross-check where tests/randtrace.py is
blind: its gives come from whoever holds the site's skill in whatever window the walk is in, so a give that is
illegal *only* because the ActiveSkill cannot be used there — the window is not one of the skill's, or the seat
is not the actor the skill allows (the turn player, the sender, the player the message is in front of, the
dying player …) — or legal only because the site names its own later moment (``at`` with ``on`` other than
``use``: 冷血训练's ban as the message is sent) hardly ever decides a trace (benchmarks/mutate_interpreter.py:
every mutant of trace.py ``active_giver_ok`` survived).

``active_give_trace`` builds a trace that is legal but for that one decision, mostly: a table with a holder of
the skill at a seat the site can give from, a last turn whose player, sender, message holder and dying player
are the giver or someone else at random, windows in order to a moment drawn from the site's ``at``, the
skill's windows or any window, the give there (with its ``with`` partner) to a receiver the symbolic trace
holds, and the question asked there or at a later moment of the turn. Legal and illegal traces both follow;
the cross-check compares legality and every decision on the state reached, as for any trace
(crosskit.prepare_trace / trace_disagreement)."""
from __future__ import annotations

import random

from skillproof.model.interp.grants import site_of
from skillproof.model import turn as TW
from skillproof.model.state import SkillInst
from skillproof.model.interp.trace import Event, Trace

from randtrace import _args, _sites, random_setup


def active_sites(cat) -> list:
    """Gives sites whose giver is an ActiveSkill that does not also trigger (trace.active_giver_ok decides them)
    held by some character (a grant handing out grants is left to randtrace: it must be handed out first)."""
    out = []
    for g in _sites(cat):
        if g.giver_is_card:
            continue
        r = cat.skills[g.giver]
        if r.is_grant or not r.has("ActiveSkill") or r.has("TriggeredSkill"):
            continue
        if cat.owners(g.giver):
            out.append(g)
    return out


def _place(rng, cat, setup, seat: int, cid: str) -> bool:
    """Seat ``cid`` at ``seat`` (with every skill of its role, face up unless hidden); False when it sits
    elsewhere already (a character sits once)."""
    if any(s.character == cid for i, s in enumerate(setup.seats) if i != seat):
        return False
    s = setup.seats[seat]
    ch = cat.characters[cid]
    s.character = cid
    s.skills = [SkillInst(r) for r in ch.skills]
    s.face_up = True if not ch.hidden else rng.random() < 0.5
    s.ever_face_up = s.face_up or rng.random() < 0.4
    return True


def _window_event(w: str, front, sender) -> Event:
    if TW.WINDOWS[w].message:
        return Event("window", window=w, in_front=front, sender=sender)
    return Event("window", window=w)


def active_give_trace(rng: random.Random, cat, n_max: int = 3, turns_max: int = 2, interesting=None,
                      unknown_keys=(), hot=None, inv_seats=None, **_) -> Trace | None:
    """A trace with one give of an ActiveSkill's site at a drawn moment (None: the catalogue has no such
    site, or no draw could seat a holder where the site gives from)."""
    sites = active_sites(cat)
    if not sites:
        return None
    for _ in range(20):
        tr = _draw(rng, cat, sites, n_max, turns_max, interesting, unknown_keys, hot, inv_seats)
        if tr is not None:
            return tr
    return None


def _draw(rng, cat, sites, n_max, turns_max, interesting, unknown_keys, hot, inv_seats) -> Trace | None:
    give = rng.choice(sites)
    grant = cat.skills[give.grant]
    inval = "InvalidSkill" in grant.closure
    setup = random_setup(rng, cat, n_max, interesting or list(cat.characters))
    setup.unknowns = {k: rng.random() < 0.5 for k in unknown_keys}
    n = len(setup.seats)
    # the receiver: the player (the symbolic trace holds the player's grants only), any seat it may invalidate
    seats = list(range(n))
    inv_ok = [s for s in seats if inv_seats is None or s in inv_seats]
    # (an invalidation of the player half the time: what the decisions compared on the state reached read)
    receiver = (0 if rng.random() < 0.5 and 0 in inv_ok else rng.choice(inv_ok or seats)) if inval else 0
    # the giver: a seat the site reaches the receiver from (now and then one it does not)
    if give.to == "self":
        choices = [receiver]
    elif give.to == "others":
        choices = [s for s in seats if s != receiver]
    else:
        choices = seats
    giver = rng.choice(choices) if choices and rng.random() < 0.92 else rng.randrange(n)
    holders = [c for c in cat.owners(give.giver) if c in cat.characters]
    rng.shuffle(holders)
    if not any(_place(rng, cat, setup, giver, c) for c in holders):
        return None
    events: list = []
    turns = rng.randint(1, turns_max)
    owner = rng.randrange(n)
    for t in range(turns - 1):                          # earlier turns pass without events
        events.append(Event("turn", seat=owner))
        events.append(Event("window", window="turn_end"))
        owner = (owner + 1 + rng.randrange(max(1, n - 1))) % n if n > 1 else owner
    # the last turn: its player, sender, message holder and dying player — the giver or another, at random
    pick = lambda p: giver if rng.random() < p else rng.randrange(n)       # noqa: E731
    prev = events[-2].seat if events else None
    owner = pick(0.5)
    if prev is not None and n > 1 and owner == prev:
        owner = (owner + 1) % n                         # the next turn is another player's
    sender = owner if rng.random() < 0.6 else pick(0.5)
    front = pick(0.45)
    dying = pick(0.5)
    # the moment of the give
    rule = cat.skills[give.giver]
    r = rng.random()
    if give.at and r < 0.55:
        w = rng.choice(list(give.at))
    elif rule.windows and r < 0.8:
        w = rng.choice(list(rule.windows))
    else:
        w = rng.choice([x for x in TW.WINDOWS if x not in ("turn_end", "draw")] + ["draw"] * (r < 0.82))
    base = rng.choice(TW.DYING_WITHIN) if w == "dying" else w
    events.append(Event("turn", seat=owner, sender=sender if sender != owner else None))
    path = [x for x in TW.ordered() if 0 < TW.position(x) <= TW.position(base) and x != "turn_end"]
    path = [x for x in path[:-1] if rng.random() < 0.6] + path[-1:]
    for x in path:
        events.append(_window_event(x, front if x == base else rng.randrange(n), sender))
    if w == "dying":
        events.append(Event("window", window="dying", dying=dying))
    events.append(Event("give", seat=receiver, giver=giver, site=give.site_id, args=_args(rng, cat, give, hot)))
    partner = site_of(cat, give.partner_id)
    if partner is not None and rng.random() < 0.9:       # handed out with it ('with')
        pg = cat.skills[partner.grant]
        if "InvalidSkill" in pg.closure or receiver == 0:
            events.append(Event("give", seat=receiver, giver=giver, site=partner.site_id,
                                args=_args(rng, cat, partner, hot) if "InvalidSkill" not in pg.closure else {}))
    # the question: there, or at a later moment of the turn
    if rng.random() < 0.5:
        later = [x for x in TW.ordered() if TW.position(base) < TW.position(x) and x != "turn_end"]
        if w == "dying" and rng.random() < 0.5:
            later = [base] + later
        if later:
            x = rng.choice(later)
            events.append(_window_event(x, rng.randrange(n), sender))
    return Trace(setup, events)


def active_verdict(cat, tr, run) -> str:
    """What the ActiveSkill rule decided in this trace: "refused" (every error is that the giver cannot use the
    skill then), "at its moment" (legal, handed out in a window that is not one of the skill's), "" else."""
    k, give = next((k, e) for k, e in enumerate(tr.events) if e.kind == "give")
    site = site_of(cat, give.site)
    rule = cat.skills[site.giver]
    if run.errors and all(i == k and str(r.en).startswith(f"seat {give.giver} cannot use {rule.name} ")
                          for i, r in run.errors):
        return "refused"
    if run.legal and run.moments[k]["window"] not in rule.windows:
        return "at its moment"
    return ""


def run_active(h, n: int, seed: int, label: str) -> tuple[dict, str | None]:
    """``n`` traces of ``active_give_trace`` over the harness's catalogue, each compared (legality and every
    decision): (counts — compared, legal, illegal, refused, at its moment —, the first disagreement described
    or None)."""
    from crosskit import focused_cards, hot_cards, interesting_characters, prepare_trace, trace_disagreement
    from skillproof.model import vocab as V
    cat = h.cat
    rng = random.Random(seed)
    hot, interesting = hot_cards(cat), interesting_characters(cat)
    seen = {"compared": 0, "legal": 0, "illegal": 0, "refused": 0, "at its moment": 0}
    for k in range(n):
        tr = active_give_trace(rng, cat, n_max=h.S.n, turns_max=h.S.T, unknown_keys=h.unknown_keys, hot=hot,
                               interesting=interesting, inv_seats=h.S.inv_seats)
        if tr is None:
            continue
        prepared = prepare_trace(h, tr)
        if prepared is None:
            continue
        run, eqs = prepared
        x, y = focused_cards(rng, cat, run.state, hot)
        d, lc = rng.choice(V.DIRECTIONS), rng.randint(0, 2)
        diff = trace_disagreement(h, run, eqs, x, y, d, lc)
        if diff:
            return seen, (f"{label} active-give trace #{k} (seed {seed}): interpreter vs z3 differ on {diff}\n"
                          f"errors={run.errors}\nactual={x} declared={y} dir={d} locks={lc}\ntrace={tr.to_dict()}")
        seen["compared"] += 1
        seen["legal" if run.legal else "illegal"] += 1
        v = active_verdict(cat, tr, run)
        if v:
            seen[v] += 1
    return seen, None
