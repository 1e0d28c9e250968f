"""The text of an answer: its headline, the question's claim and parameters as the designer wrote them, and
each constraint of a proof (``describe_item``) in the designer's terms with the catalogue lines behind it."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from skillproof.model import narrate as N
from skillproof.model.state import State

from .syntax import Query, atoms_of

if TYPE_CHECKING:
    from .result import Item


def headline(cat, q: Query, S, answer: str, role: str, st: State | None) -> str:
    """One line: the answer to ``q`` with what shows it (a witness ``st``, or ``role`` "proof" within the
    bounds of the symbolic state ``S``)."""
    claim = claim_text(q) or "the claim"
    given = ""
    if q.givens:
        given = " (" + "; ".join(g.text for g in q.givens) + ")"
    who = cat.characters[q.subject].name if q.subject else None
    seen = cat.characters[st.seats[0].character].name if st is not None else None
    bound = f"within {S.n} seats and {S.G} granted skills"
    if q.mode == "exists":
        if answer == "yes":
            return f"yes — e.g. {seen}: {claim}{given}"
        return f"no — {who + ' never' if who else 'no player ever'}: {claim}{given} ({bound})"
    if q.mode == "always":
        if answer == "yes":
            return f"yes — always{' for ' + who if who else ''}: {claim}{given} ({bound})"
        return f"no — counterexample ({seen}): not {claim}{given}"
    if q.mode == "never":
        if answer == "yes":
            return f"yes — never{' for ' + who if who else ''}: {claim}{given} ({bound})"
        return f"no — it happens, e.g. {seen}: {claim}{given}"
    return ""


def arg_text(cat, v) -> str:
    kind, x = v
    if kind == "set":
        return "{" + ", ".join(N.card(cat, c) for c in x) + "}"
    if kind == "card":
        return N.card(cat, x)
    if kind == "bool":
        return "yes" if x else "no"
    return str(x)


def claim_text(q: Query) -> str:
    atoms = atoms_of(q.claim)
    if not atoms:
        return ""
    start = min(a.col for a in atoms if a.text) if any(a.text for a in atoms) else 0
    end = max(a.end for a in atoms if a.text) if any(a.text for a in atoms) else 0
    return q.text[start:end] if end > start else ""


def _ref(cat, ident: str, loc=None) -> dict:
    for table in (cat.skills, cat.cards, cat.characters):
        if ident in table:
            obj = table[ident]
            l = loc or obj.loc
            return {"id": ident, "name": obj.name, "file": l.file, "line": l.line}
    return {"id": ident, "name": ident, "file": "", "line": 0}


def _loc_ref(name: str, loc) -> dict:
    return {"id": "", "name": name, "file": loc.file, "line": loc.line}


def decided_by(cat, step) -> dict:
    if step.rule:
        return {"kind": "decides", "says": step.text, "rules": [_ref(cat, step.rule, step.loc)]}
    return {"kind": "decides", "says": step.text,
            "rules": [_loc_ref("engine rule", step.loc)] if step.loc else []}


def dedupe(items: list) -> list:
    out, seen = [], set()
    for it in items:
        key = (it["kind"], it["says"])
        if key not in seen:
            seen.add(key)
            out.append(it)
    return out


def describe_item(cat, S, it: Item, named_grants=()) -> dict:
    """A core constraint in the designer's terms, with the catalogue lines behind it."""
    lab = it.label
    if it.kind == "subject":
        return {"kind": "subject", "says": lab, "rules": [_ref(cat, r) for r in it.rules]}
    if it.kind == "given":
        g = it.given
        rules = []
        if g is not None and g.kind == "grant":
            for gid in g.grant.grants:
                rules.append(_ref(cat, gid))
            for s in g.grant.sites[:3]:
                rules.append(_loc_ref(f"{cat.name_of(s.giver)} → {cat.name_of(s.grant)} (gives)", s.loc))
        else:
            rules = [_ref(cat, r) for r in it.rules]
            if g is not None and g.kind in ("with", "without") and not cat.skills[g.rule].is_grant:
                owners = cat.owners(g.rule)
                rules += [_loc_ref(f"{cat.characters[c].name} starts with {cat.skills[g.rule].name}",
                                   cat.characters[c].loc) for c in owners[:4]]
                if not owners:
                    rules.append(_loc_ref(f"no character starts with {cat.skills[g.rule].name}",
                                          cat.skills[g.rule].loc))
        return {"kind": "given", "says": lab, "rules": rules}
    if it.kind == "claim":
        return {"kind": "claim", "says": lab, "rules": [_ref(cat, r) for r in dict.fromkeys(it.rules)]}
    # reachability constraints
    m = re.match(r"initial skill (\d+)$", lab)
    if m:
        j = int(m.group(1))
        chars = S.chars_me
        rules = []
        if len(chars) == 1:
            ch = cat.characters[chars[0]]
            names = ", ".join(cat.skills[r].name for r in ch.skills)
            says = f"{ch.name}'s skills are {names}, in that order (position {j + 1}: " + \
                   (f"{cat.skills[ch.skills[j]].name}" if j < len(ch.skills) else "none") + ")"
            rules.append(_ref(cat, ch.id))
            if j < len(ch.skills):
                rules.append(_ref(cat, ch.skills[j]))
        else:
            says = f"the player's skill at position {j + 1} is the one their character starts with"
        return {"kind": "rule", "says": says, "rules": rules}
    if lab.startswith("distinct characters"):
        return {"kind": "rule", "says": "every seat holds a different character (a character is at the table "
                                        "at most once)", "rules": []}
    if lab == "seat 0 character":
        if len(S.chars_me) == 1:
            ch = cat.characters[S.chars_me[0]]
            return {"kind": "rule", "says": f"the player is {ch.name}", "rules": [_ref(cat, ch.id)]}
        return {"kind": "rule", "says": f"the player is one of {len(S.chars_me)} characters (one of each kind "
                                        f"that matters to this question)", "rules": []}
    m = re.match(r"grant (\d+) source$", lab)
    if m:
        sites = []
        for gid in S.grant_ids:
            for give in cat.sites(gid):
                sites.append(give)
        named = [s for g in (named_grants or ()) for s in cat.sites(g)]
        if named:
            sites = named + [s for s in sites if s not in named]
        rules = [_loc_ref(f"{cat.name_of(s.giver)} gives {cat.name_of(s.grant)} to {s.to}"
                          + (f" where {N.pretty(s.where)}" if s.where is not None else ""), s.loc) for s in sites[:8]]
        return {"kind": "rule", "says": "a granted skill comes from a gives site whose giver is at the table, "
                                        "to whom the site allows, with the parameters it allows", "rules": rules}
    m = re.match(r"(.+)#(\d+) per_turn$", lab)
    if m:
        src = cat.skills.get(m.group(1)) or cat.cards.get(m.group(1))
        give = src.gives[int(m.group(2))] if src else None
        rules = [_loc_ref(f"{cat.name_of(m.group(1))} per_turn = {give.per_turn}", give.loc)] if give else []
        return {"kind": "rule", "says": f"{cat.name_of(m.group(1))} hands out its skill at most "
                                        f"{give.per_turn if give else '?'} time(s) a turn", "rules": rules}
    m = re.match(r"seat (\d+) invalidation needs a giver$", lab)
    if m:
        rules = [_loc_ref(f"{cat.name_of(g.giver)} invalidates ({g.to})", g.loc) for g in cat.sites("InvalidSkill")]
        return {"kind": "rule", "says": f"seat {m.group(1)}'s skills can only be invalidated by someone at the "
                                        f"table who can do it", "rules": rules}
    m = re.match(r"seat (\d+) public roles face up$", lab)
    if m:
        return {"kind": "rule", "says": "public roles (not 隐藏角色) are always face up",
                "rules": [_ref(cat, r) for r in it.rules if r in S.chars_me][:3]}
    return {"kind": "bound", "says": lab, "rules": [_ref(cat, r) for r in it.rules][:4]}
