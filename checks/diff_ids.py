"""Which ids changed between two catalogue versions, and their names for people: what an entry means (without its
locations), ids that were only renamed, which gives site of OLD is which of NEW, the changed ids
(``changed_rules``) and their located references. The layer under ``checks.diff`` (the solver questions) and
``checks.diff_reach`` (situations possible in one version only): both read it, neither is read by it.
"""
from __future__ import annotations

from dataclasses import dataclass

from skillproof.model.interp.grants import site_of
from skillproof.model.catalogue import Catalogue

from .diff_order import canonical as in_order
from .diff_text import both, id_name
from .findings import canonical

def _strip(obj):
    """A rule's meaning, without locations: for telling changed rules from moved ones."""
    import dataclasses

    from skillproof.model import expr as E
    if isinstance(obj, E.Node) or isinstance(obj, E.Lambda):
        return E.to_text(obj)
    if dataclasses.is_dataclass(obj):
        return {f.name: _strip(getattr(obj, f.name)) for f in dataclasses.fields(obj)
                if f.name not in ("loc", "key_locs", "index", "together")}
    if isinstance(obj, dict):
        return {k: _strip(v) for k, v in sorted(obj.items())}
    if isinstance(obj, (list, tuple)):
        return [_strip(x) for x in obj]
    if isinstance(obj, frozenset):
        return sorted(obj)
    return obj


def meaning(obj, ren: dict | None = None) -> str:
    """The canonical text of what a catalogue entry means (locations and table order left out; a giver's gives
    sites compared as a set, so reordering its ``[[skill.gives]]`` tables changes nothing). ``ren`` maps renamed ids
    of the entry's version to the other version's (``renames``): a role's skills, a site's giver and grant."""
    return canonical(_meaning_dict(obj, ren or {}))


NAMING = ("id", "name", "aliases", "text", "origin")


def _meaning_dict(obj, ren: dict, naming: bool = True):
    d = _strip(obj)
    if not isinstance(d, dict):
        return d
    if not naming:
        d = {k: v for k, v in d.items() if k not in NAMING}
    if isinstance(d.get("skills"), list):                      # a character
        d["skills"] = [ren.get(x, x) for x in d["skills"]]
    if isinstance(d.get("gives"), list):
        d["gives"] = sorted(canonical(_give_dict(g, ren, naming)) for g in d["gives"])
    if "grant" in d and "giver" in d:                         # a gives site
        d = _give_dict(d, ren, naming)
    return d


def _give_dict(g: dict, ren: dict, naming: bool) -> dict:
    g = {**g, "grant": ren.get(g["grant"], g["grant"])}
    if naming:
        g["giver"] = ren.get(g["giver"], g["giver"])
    else:
        g.pop("giver", None)                                   # a renamed giver's sites name it
    return g


def renames(old: Catalogue, new: Catalogue) -> dict:
    """NEW id -> OLD id of the characters and skills (grants included) that were only renamed: an entry gone from
    OLD and one new in NEW that mean the same but for their id and name (a role's skills compared through the
    renames of its skills). A rename changes nothing a player can do; `diff` reads both ids as one."""
    out: dict = {}
    o2n: dict = {}
    for table in ("skills", "characters"):
        a, b = getattr(old, table), getattr(new, table)
        gone = [k for k in a if k not in b]
        keys = {k: canonical(_meaning_dict(a[k], o2n, naming=False)) for k in gone}
        for k in (k for k in b if k not in a):
            mine = canonical(_meaning_dict(b[k], {}, naming=False))
            match = next((g for g in gone if keys[g] == mine), None)
            if match is not None:
                gone.remove(match)
                out[k] = match
                o2n[match] = k
    return out


# ==================================================================================== gives sites
@dataclass
class SitePairs:
    """Which gives site of OLD is which of NEW. A site is ``giver#index``; a site that only moved (another index,
    same meaning) is the same place, so a trace naming it means the same in both versions."""
    n2o: dict                   # NEW site id -> OLD site id
    o2n: dict                   # OLD site id -> NEW site id
    changes: dict               # site id -> added | removed | changed (NEW's id; OLD's for removed ones)
    fields: dict                # changed NEW site id -> the keys whose meaning differs


SITE_KEYS = ("grant", "to", "args", "where", "at", "when", "per_turn", "on", "with_grant")


def site_pairs(old: Catalogue, new: Catalogue, ren: dict | None = None) -> SitePairs:
    """Pair the gives sites of each giver: first the ones whose meaning is equal (moved or untouched), then ones
    handing out the same grant (changed), then the rest in order (changed); what is left is added or removed.
    ``ren`` (``renames``, NEW id -> OLD id) pairs a renamed giver's sites and compares grants through renames."""
    ren = ren or {}
    o2n_ids = {o: n for n, o in ren.items()}
    n2o, changes, fields = {}, {}, {}
    givers = list(dict.fromkeys([*(o2n_ids.get(g, g) for g in [*old.skills, *old.cards]), *new.skills, *new.cards]))
    for gid in givers:
        ogid = ren.get(gid, gid)
        og = list((old.skills.get(ogid) or old.cards.get(ogid) or _NoGives).gives)
        ng = list((new.skills.get(gid) or new.cards.get(gid) or _NoGives).gives)
        if not og and not ng:
            continue
        o_left, n_left = list(range(len(og))), list(range(len(ng)))
        pairs = []
        same = lambda a, b: meaning(a, o2n_ids) == meaning(b)        # noqa: E731
        grant = lambda a, b: o2n_ids.get(a.grant, a.grant) == b.grant       # noqa: E731
        for match in (same, grant, lambda a, b: True):
            for j in list(n_left):
                i = next((i for i in o_left if match(og[i], ng[j])), None)
                if i is not None:
                    pairs.append((i, j))
                    o_left.remove(i)
                    n_left.remove(j)
        for i, j in pairs:
            a, b = og[i], ng[j]
            n2o[b.site_id] = a.site_id
            diff = [k for k in SITE_KEYS if canonical(_strip(getattr(a, k))) != canonical(_strip(getattr(b, k)))
                    and not (k == "grant" and o2n_ids.get(a.grant) == b.grant)]
            if diff:
                changes[b.site_id] = "changed"
                fields[b.site_id] = set(diff)
        for j in n_left:
            changes[ng[j].site_id] = "added"
        for i in o_left:
            sid = og[i].site_id
            changes[sid if sid not in changes else f"{sid} (OLD)"] = "removed"
    return SitePairs(n2o, {o: n for n, o in n2o.items()}, changes, fields)


class _NoGives:
    gives: list = []


def changed_rules(old: Catalogue, new: Catalogue) -> dict:
    """id -> 'added' | 'removed' | 'changed' | 'renamed from OLD_ID' for skills, grants, cards, characters, gives sites
    (``giver#index``) and [rules]. A renamed entry (``renames``) is listed under its new id."""
    ren = renames(old, new)
    o2n = {o: n for n, o in ren.items()}
    out = {}
    for table in ("skills", "cards", "characters"):
        a, b = getattr(old, table), getattr(new, table)
        for k in sorted(set(a) | set(b)):
            if k in ren:
                out[k] = f"renamed from {ren[k]}"
            elif k in o2n:
                continue
            elif k not in a:
                out[k] = "added"
            elif k not in b:
                out[k] = "removed"
            elif table == "characters" and _role_meaning(old, a[k], o2n) == _role_meaning(new, b[k], {}):
                continue                    # the same skills, reordered only where no decision depends on it
            elif meaning(a[k], o2n) != meaning(b[k]):
                out[k] = "changed"
    for k, v in sorted(site_pairs(old, new, ren).changes.items()):
        out.setdefault(k, v)
    if canonical(_strip(old.rules)) != canonical(_strip(new.rules)):
        out["[rules]"] = "changed"
    return out


def _role_meaning(cat: Catalogue, ch, ren: dict) -> str:
    """A character's meaning with its skills in diff_order.canonical order (ids of the other version)."""
    import dataclasses

    skills = in_order(cat, list(ch.skills), key=lambda r: ren.get(r, r))
    return meaning(dataclasses.replace(ch, skills=tuple(skills) if isinstance(ch.skills, tuple) else skills), ren)


def rule_ref(old: Catalogue, new: Catalogue, rid: str, change: str) -> dict:
    """A located reference to a changed id (a removed one is located in OLD): its name for people (``name``, and
    ``name_en`` where the English differs: a gives site, the engine rules)."""
    cat = old if change == "removed" else new
    out = {"id": rid, **changed_name(old, new, rid, change)}
    if "#" in rid:
        give = site_of(cat, rid.split(" ")[0])
        if give is not None:
            return {**out, "file": give.loc.file, "line": give.loc.line, "change": change}
    obj = cat.skills.get(rid) or cat.characters.get(rid) or cat.cards.get(rid)
    return {**out, "file": obj.loc.file if obj else "", "line": obj.loc.line if obj else 0, "change": change}


def changed_list(old: Catalogue, new: Catalogue, changed: dict) -> list[dict]:
    """``changed_rules`` as the report lists it: ``[{"id", "change", "name", …}]`` in id order."""
    return [{"id": k, "change": v, **changed_name(old, new, k, v)} for k, v in sorted(changed.items())]


def changed_name(old: Catalogue, new: Catalogue, rid: str, change: str) -> dict:
    """``{"name": …}`` (and ``"name_en"`` when the English differs; ``"from"``: the old name of a renamed id) of a
    changed id, for people: a catalogue name, a gives site as giver → grant, [rules] as the engine rules."""
    cat = old if change == "removed" else new
    zh, en = both(id_name, cat, rid)
    out = {"name": zh}
    if en != zh:
        out["name_en"] = en
    if change.startswith("renamed from "):
        out["from"] = old.name_of(change[len("renamed from "):])
    return out
