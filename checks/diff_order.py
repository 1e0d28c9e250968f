"""Reorderings that change no decision, for `diff`: a character's skills in another order.

The server folds skills of one kind in list order (later overrides earlier, conversion precedence, the send
rule in force …), so the order of two skills matters only when they share a kind. A witness read under the
other version (``diff_reach.translate``) keeps its seats' skill lists as they were written in its own
version; when the other version lists the same initial skills in another order that keeps the order of
every pair sharing a kind, the seat's initial skills are put in the other version's order — the same table,
so no situation is "possible in one version only" because of it. A swap of two skills of one kind is kept
as it is: that can change a decision, and diff reports it.
"""
from __future__ import annotations


def _kinds(cat, rid: str) -> set:
    r = cat.skills.get(rid)
    return set(r.kinds) if r is not None else set()


def same_decisions(cat, mine: list, theirs: list) -> bool:
    """Does listing the skills ``mine`` as ``theirs`` (the same skills) keep every pair sharing a kind in order?"""
    if sorted(mine) != sorted(theirs) or len(set(mine)) != len(mine):
        return False
    pos = {r: i for i, r in enumerate(theirs)}
    for i, a in enumerate(mine):
        for b in mine[i + 1:]:
            if pos[a] > pos[b] and _kinds(cat, a) & _kinds(cat, b):
                return False
    return True


def reorder_initial(seat, there) -> None:
    """Put ``seat``'s initial skills (a state's seat, ids of ``there``) in ``there``'s order for its character,
    when that reorders no pair sharing a kind; grants keep their places after them."""
    ch = there.characters.get(seat.character)
    if ch is None:
        return
    want = list(ch.skills)
    initial = [i for i in seat.skills if i.giver is None and i.site is None and i.rule in want]
    rules = [i.rule for i in initial]
    if rules == want or not same_decisions(there, rules, want):
        return
    by_rule = {i.rule: i for i in initial}
    it = iter(by_rule[r] for r in want)
    seat.skills = [next(it) if (i.giver is None and i.site is None and i.rule in want) else i for i in seat.skills]


def canonical(cat, rules: list, key=lambda r: r) -> list:
    """``rules`` (a character's skills) in an order that forgets what changes no decision: the smallest (by
    ``key``) first of those no earlier skill sharing a kind must precede. Two lists give the same canonical
    list exactly when they hold the same skills and every pair sharing a kind in the same order."""
    rest = list(rules)
    out = []
    while rest:
        free = [r for i, r in enumerate(rest) if not any(_kinds(cat, r) & _kinds(cat, p) for p in rest[:i])]
        nxt = min(free, key=key)
        out.append(nxt)
        rest.remove(nxt)
    return out
