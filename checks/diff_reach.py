"""Situations possible in only one version: the part of `diff` that sees what a change makes possible.

A changed decision needs a situation both versions reach; a skill added to a character, a new character, a
grant site that reaches further, a flag flipped change *what can happen* instead. For every changed id
(``checks.diff.changed_rules``) the solver is asked, over the one symbolic game both versions are read on
(``Differ``), whether a situation that involves the id is reachable in NEW but not in OLD ("now possible") and
the reverse ("no longer possible"). What "involves" means, per kind of id:

==========  ======================================================  ==============================================
kind        the situation                                           it differs when
==========  ======================================================  ==============================================
character   the player (seat 0) plays it                            it exists in one version only, or its skill
                                                                    list, ``hidden`` or ``female`` differ
skill       the player holds it (an initial skill in the list)       it exists in one version only, or what the
                                                                    engine dispatches on differs: kinds, ``initial``,
                                                                    ``consumed``, ``flips``, ``lifetime``,
                                                                    ``params``, ``windows``, ``replaces_role``,
                                                                    ``plays``
grant       the player holds it (a granted slot)                    as for a skill
card        the player may use it at the moment                     it exists in one version only, or its
                                                                    ``windows`` differ and the other version
                                                                    refuses it in the same state (windows that
                                                                    only widen make nothing "no longer possible")
gives site  the player holds a grant handed out by that site        it exists in one version only, or a grant from
                                                                    it, with what its changed keys govern — who
                                                                    gave it (``to``: the player himself or another
                                                                    seat), the window (``at``), the arguments
                                                                    (``args``, ``where``), the grant (``grant``) —
                                                                    is possible in one version only
==========  ======================================================  ==============================================

A site whose only changes are ``when``, ``per_turn`` or ``on`` and a skill whose only changes are its conditions
(``fight``, ``receive``, ``draw``, …) change decisions, not situations: the shared-situation questions of
``Differ.changes`` cover them. ``[rules]`` keys are not searched here: each changed key is itself a failing
engine change of the report, with its two values.

For a site the search is exact over what it observes: a NEW situation (its observed values) is reported only
when OLD cannot reach any situation with the same values (an enumeration with blocking — CEGAR — bounded by
``ROUNDS``; beyond it the question is inconclusive, never clean). For the other kinds a definition that differs
makes every situation involving the id one-sided, so one witness is enough; the witness is chosen to show the
difference (e.g. a face-down role when ``hidden`` flipped, an invalidated player when ``initial`` flipped).

Each witness is a trace in the version where the situation exists, run by ``model.interp.trace.run`` there; the *same*
trace is then read under the other version's catalogue — an id it names that does not exist there makes it
unreadable, and that is the reason — and run: its first error is the interpreter's own reason; when it runs, the
situation it reaches differs (the facts of the id compared), and that difference is the reason.

Every sentence — the situation, the other version's reason, an inconclusive question — is made in Chinese and in
English at once (``checks.diff_text``): JSON keeps the Chinese (``message``, ``reason["text"]``) beside the English
(``message_en``, ``reason["text_en"]``), and a report shows the run's language.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import z3

from skillproof.model.interp.plays import card_usable
from skillproof.model.interp import trace as TR
from skillproof.model.interp.play import run as play_run
from skillproof.model.interp.grants import site_of
from skillproof.model.narrate_story import steps
from skillproof.model import turn as TW
from skillproof.model.catalogue import Catalogue
from skillproof.model.lang import is_en, pick

from . import diff_text as T
from .diff_ids import rule_ref
from .enc.plays import enc_card_usable
from .findings import canonical

ROUNDS = 8              # candidate situations tried per site and direction before the question is inconclusive
SIDE = {"new": "NEW", "old": "OLD"}


class Unreadable(ValueError):
    """A trace naming something the catalogue it is read under does not have (``str``: the English; ``zh``: the
    same in Chinese)."""

    def __init__(self, zh: str, en: str):
        super().__init__(en)
        self.zh, self.en = zh, en


@dataclass
class Side:
    name: str                     # "new" | "old"
    cat: Catalogue
    q: object                     # solve.Query over this version
    S: object                     # its SymState
    reach_other: object           # z3 Bool (in q's solver): the other version reaches the same situation
    site_map: dict                # this version's site ids -> the other's
    renamed: dict = field(default_factory=dict)    # this version's renamed character / rule ids -> the other's


@dataclass
class Possible:
    """A situation that involves a changed id and is possible in one version only. Its sentences are made in
    both languages (``checks.diff_text.both``): the Chinese in ``situation`` and ``reason["text"]``, the English
    in ``situation_en`` and ``reason["text_en"]``."""
    side: str                     # "new": possible only in NEW (now possible); "old": only in OLD (no longer)
    kind: str                     # character | skill | grant | card | site
    id: str
    situation: str                # what the situation is, in the designer's terms (Chinese)
    trace: dict                   # the witness, in the version where the situation exists
    state: dict                   # that version's run of it
    steps: list                   # model.narrate_story.steps of the trace, under that version's catalogue (Chinese)
    reason: dict                  # why not in the other version: {kind: unreadable|illegal|differs|absent, text, text_en, …}
    rules: list = field(default_factory=list)
    situation_en: str = ""        # the situation in English
    steps_en: list = field(default_factory=list)   # the steps in English
    unrealised: dict | None = None  # why the witness is the timed model's trace, not a game (checks/realise.py)

    @property
    def message(self) -> str:
        what = "现在可能（只在新版中）" if self.side == "new" else "不再可能（只在旧版中）"
        return f"{what}：{self.situation}"

    @property
    def message_en(self) -> str:
        what = "now possible (NEW only)" if self.side == "new" else "no longer possible (OLD only)"
        return f"{what}: {self.situation_en or self.situation}"

    def to_dict(self) -> dict:
        here, there = ("new", "old") if self.side == "new" else ("old", "new")
        key = canonical([self.side, self.kind, self.id, self.situation])
        w = {"side": self.side, "trace": self.trace, "state": self.state, "steps": self.steps,
             "steps_en": self.steps_en, "other": self.reason}
        if self.unrealised is not None:
            w["unrealised"] = self.unrealised
        return {"id": f"possible-{self.side}-{hashlib.sha1(key.encode('utf-8')).hexdigest()[:10]}",
                "decision": "possible", "side": self.side, "message": self.message, "message_en": self.message_en,
                "question": {"situation": self.kind, "id": self.id},
                here: "可能", there: f"不可能：{self.reason['text']}",
                "witness": w, "rules": self.rules}


# ============================================================================ the shared symbolic game
def align(mine, other) -> list:
    """What this version's reading says about variables only the other version's encoding has: seats beyond
    its table and skill-list slots beyond its longest role are not there."""
    out = [z3.Not(other.present[s]) for s in range(mine.n, other.n)]
    out += [z3.Not(sl.present) for sl in other.slots if sl.initial_slot and sl.index >= mine.L]
    return out


def clean_characters(d) -> list:
    """Characters the same in both versions, whose skills (and their gives sites) are unchanged too."""
    same = lambda i: i not in d.changed or d.changed[i].startswith("renamed")      # noqa: E731
    return [cid for cid, ch in d.new.characters.items()
            if same(cid) and d.renamed.get(cid, cid) in d.old.characters and all(same(r) for r in ch.skills)]


def pins(d) -> list:
    """Values for what no trace shows — an absent seat's character and face, the parameters of an empty grant
    slot or the ones its grant does not have — so that the two readings can only differ in what a trace shows."""
    Sn, So = d.Sn, d.So
    out = []
    clean = clean_characters(d)
    common = [c for c in d.new.characters if c in d.old.characters]
    pick = (clean or common or [None])[0]
    big = Sn if Sn.n >= So.n else So
    for s in range(1, big.n):
        if pick is not None:
            out.append(z3.Implies(z3.Not(big.present[s]), z3.And(big.char[s] == d.codes.char[pick],
                                                                   big.face_up[s], big.ever[s])))
    cards = [c for c in d.new.cards if c in d.old.cards]
    card0 = d.codes.card[cards[0]] if cards else 0
    types = {}
    for S in (Sn, So):
        for pn, pt in S.param_types.items():
            types.setdefault(pn, set()).add(pt)
    gn = [sl for sl in Sn.slots if not sl.initial_slot]
    go = [sl for sl in So.slots if not sl.initial_slot]
    for a, b in zip(gn, go):
        params = {**b.params, **a.params}
        for pn, var in params.items():
            holders = [g.id for cat in (d.new, d.old) for g in cat.grants if pn in g.params]
            rel = z3.And(a.present, z3.Or([a.rule == d.codes.rule[g] for g in sorted(set(holders))]
                                          or [z3.BoolVal(False)]))
            if isinstance(var, dict):
                fixed = z3.And([z3.Not(v) for v in var.values()]) if var else z3.BoolVal(True)
            elif z3.is_bool(var):
                fixed = z3.Not(var)
            else:
                fixed = var == (card0 if "card" in types.get(pn, ()) else 0)
            out.append(z3.Implies(z3.Not(rel), fixed))
    return out


# ============================================================================== reading a trace
def translate(trace: TR.Trace, here: Catalogue, there: Catalogue, site_map: dict, renamed: dict | None = None
              ) -> TR.Trace:
    """The same trace read under ``there``: every id it names must exist there (raises Unreadable), a renamed
    character or skill is its id there (``renamed``) and a gives site is the one it pairs with (a moved site keeps
    its meaning)."""
    ren = renamed or {}

    def need(table, ident, what):
        ident = ren.get(ident, ident)
        if ident not in getattr(there, table):
            name = here.name_of(ident) if isinstance(ident, str) else ident
            raise Unreadable(f"没有{T.KIND[what][0]}{name}", f"{what} {name} does not exist there")
        return ident
    tr = TR.Trace.from_dict(trace.to_dict())
    from .diff_order import reorder_initial
    for seat in tr.setup.seats:
        seat.character = need("characters", seat.character, "character")
        for inst in seat.skills:
            inst.rule = need("skills", inst.rule, "skill")
        reorder_initial(seat, there)          # the other version's order, where that changes no decision
    for ev in tr.events:
        if ev.kind == "give" and ev.site is not None:
            if ev.site not in site_map:
                give = site_of(here, ev.site)
                zh, en = T.both(T.site_name, here, give) if give is not None and give.grant in here.skills \
                    else (ev.site, ev.site)
                raise Unreadable(f"没有给出点{zh}", f"the gives site {en} does not exist there")
            ev.site = site_map[ev.site]
        elif ev.kind == "replace" and ev.character is not None:
            ev.character = need("characters", ev.character, "character")
        elif ev.kind in ("use", "fire") and ev.rule is not None:
            ev.rule = need("skills", ev.rule, "skill")
    return tr


EVENT = {"turn": ("回合开始", "a turn starts"), "window": ("进入下一时机", "the next window"),
         "give": ("给出技能", "a grant is handed out"), "use": ("发动技能", "a skill is used"),
         "play": ("使用卡牌", "a card is played"), "replace": ("换角色", "a role is replaced")}


def _event_text(cat: Catalogue, trace: TR.Trace, k: int) -> str:
    """Event ``k`` of a trace as the narration tells it (its turn and window), in the run's language."""
    if k < 0:
        return pick("开局时的牌桌", "the table at the start")
    if k >= len(trace.events):
        return pick("经过结束时", "the end of the trace")
    before = steps(cat, TR.Trace(trace.setup, trace.events[:k]))
    upto = steps(cat, TR.Trace(trace.setup, trace.events[:k + 1]))
    if len(upto) > len(before):
        s = upto[-1]
        win = TW.window_name_of_zh(s["window"])
        return pick(f"第{s['turn']}回合·{win}：{s['text']}", f"turn {s['turn']}, {win}: {s['text']}")
    ev = trace.events[k]
    if ev.kind == "window" and ev.window in TW.WINDOWS:
        return pick(f"进入{T.window_name(ev.window)}", f"moving on to the {T.window_name(ev.window)}")
    zh, en = EVENT.get(ev.kind, (ev.kind, ev.kind))
    return pick(zh, en)


# ================================================================================= situations
def _skill_static(r) -> dict:
    """What the engine dispatches on, as plain values (compared between versions; ``diff_text.fact_value``
    shows them)."""
    if r is None:
        return {}
    return {"kinds": sorted(r.closure), "initial": r.initial, "consumed": r.consumed, "flips": r.flips,
            "lifetime": r.lifetime, "params": sorted(r.params.items()), "windows": sorted(r.windows.items()),
            "replaces_role": r.replaces_role,
            "plays": {k: v for k, v in vars(r.plays).items() if k != "loc"} if r.plays else None}


class Sit:
    """One kind of situation involving one changed id (see the module's table)."""
    kind = ""
    table = ""                    # the catalogue table the id lives in

    def __init__(self, d, rid: str):
        self.d, self.id = d, rid

    def exists(self, side: Side) -> bool:
        return self.id in getattr(side.cat, self.table)

    def static(self, cat: Catalogue):
        """The id's definition as far as situations see it (equal in both: no one-sided situation but what
        ``obs`` observes)."""
        return None

    def involve(self, S, side: Side):
        raise NotImplementedError

    def obs(self) -> list:
        """Terms observed on a situation (the same variables in both readings); [] when only ``static`` counts."""
        return []

    def prefer(self, here: Side, there: Side) -> list:
        return []

    def only_here(self, here: Side, there: Side):
        """When the definitions differ (``static``): a constraint every one-sided situation must meet, or None when
        any situation involving the id may be one (its definition itself differs)."""
        return None

    def related(self) -> set:
        """Characters other seats may play in a witness besides unchanged ones (the givers of the id)."""
        return set()

    def view(self, cat: Catalogue, run, trace, side: Side) -> dict:
        """The facts of the id where a trace's run ends: {"involved": bool, fact: value, …} (plain values:
        booleans, names, lists; ``diff_text.FACTS`` names the facts)."""
        raise NotImplementedError

    def text(self, cat: Catalogue, run, trace, side: Side) -> str:
        """The situation in the designer's terms, in the run's language."""
        raise NotImplementedError


class CharacterSit(Sit):
    kind = "character"
    table = "characters"

    def static(self, cat):
        ch = cat.characters.get(self.id)
        ren = {o: n for n, o in self.d.renamed.items()} if cat is self.d.old else {}
        from .diff_order import canonical           # an order that changes no decision is no change
        return None if ch is None else (ch.hidden, ch.female,
                                         tuple(ren.get(r, r) for r in canonical(cat, list(ch.skills), key=lambda r: ren.get(r, r))))

    def involve(self, S, side):
        return S.char[0] == S.codes.char[self.id]

    def prefer(self, here, there):
        a, b = here.cat.characters[self.id], there.cat.characters.get(self.id)
        if b is not None and a.hidden and not b.hidden:
            return [z3.Not(here.S.face_up[0])]
        return []

    def view(self, cat, run, trace, side):
        state = run.state
        ch = cat.characters[self.id]
        from .diff_order import canonical
        return {"involved": state.seats[0].character == self.id, "hidden": ch.hidden, "female": ch.female,
                "skills": [cat.name_of(r) for r in canonical(cat, list(ch.skills), key=cat.name_of)]}

    def text(self, cat, run, trace, side):
        state = run.state
        ch = cat.characters[self.id]
        skills = pick("、", ", ").join(cat.name_of(r) for r in ch.skills) or pick("无", "none")
        if is_en():
            return (f"the player plays {ch.name} (skills: {skills}; {'hidden' if ch.hidden else 'public'} role"
                    f"{', female' if ch.female else ''}{'' if state.seats[0].face_up else ', face down'})")
        face = "" if state.seats[0].face_up else "，背面朝上"
        return f"玩家扮演{ch.name}（技能：{skills}；{'隐藏' if ch.hidden else '公开'}角色{'，女性' if ch.female else ''}{face}）"


class SkillSit(Sit):
    """A skill (an initial skill of a role) or a grant, held by the player."""

    def __init__(self, d, rid):
        super().__init__(d, rid)
        r = d.new.skills.get(rid) or d.old.skills[rid]
        self.grant = r.is_grant
        self.kind = "grant" if self.grant else "skill"

    def exists(self, side):
        r = side.cat.skills.get(self.id)
        return r is not None and r.is_grant == self.grant

    def static(self, cat):
        r = cat.skills.get(self.id)
        return None if r is None else canonical(_skill_static(r))

    def involve(self, S, side):
        return z3.Or([z3.And(sl.present, S.rule_is(sl, self.id)) for sl in S.slots
                      if sl.initial_slot != self.grant and self.id in sl.candidates] or [z3.BoolVal(False)])

    def prefer(self, here, there):
        a, b = here.cat.skills[self.id], there.cat.skills.get(self.id)
        return [here.S.inv[0]] if b is not None and a.initial != b.initial else []

    def related(self):
        out = set()
        for cat in (self.d.new, self.d.old):
            out.update(cat.owners(self.id))
            for g in cat.sites(self.id):
                if not g.giver_is_card:
                    out.update(cat.owners(g.giver))
        return out

    def view(self, cat, run, trace, side):
        state = run.state
        inst = next((i for i in state.seats[0].skills if i.rule == self.id), None)
        out = {"involved": inst is not None, **_skill_static(cat.skills.get(self.id))}
        if inst is not None:
            out["invalidated"] = inst.invalid
        return out

    def text(self, cat, run, trace, side):
        state = run.state
        r = cat.skills[self.id]
        inst = next((i for i in state.seats[0].skills if i.rule == self.id), None)
        ch = cat.characters.get(state.seats[0].character)
        bits = [T.kinds_text(r.kinds)] + ([pick("初始技能", "initial skill")] if r.initial else []) + \
            ([pick("被无效", "invalidated")] if inst is not None and inst.invalid else [])
        bits = pick("，", ", ").join(b for b in bits if b)
        if is_en():
            who = f"the player ({ch.name})" if ch else "the player"
            return f"{who} {'is given' if self.grant else 'holds'} {r.name} ({bits})"
        who = f"玩家（{ch.name}）" if ch else "玩家"
        return f"{who}{'获得' if self.grant else '持有'}{r.label}（{bits}）"


class CardSit(Sit):
    kind = "card"
    table = "cards"

    def static(self, cat):
        c = cat.cards.get(self.id)
        return None if c is None else tuple(sorted(c.windows.items()))

    def involve(self, S, side):
        return enc_card_usable(S, z3.IntVal(S.codes.card[self.id]), 0)

    def prefer(self, here, there):
        if self.id not in there.cat.cards:
            return []
        return [z3.Not(enc_card_usable(there.S, z3.IntVal(there.S.codes.card[self.id]), 0))]

    def only_here(self, here, there):
        # the situation is "the player may use the card now": where the other version lets him use it in the same
        # state, it is possible there too (windows that only widen make nothing impossible)
        p = self.prefer(here, there)
        return p[0] if p else None

    def view(self, cat, run, trace, side):
        state = run.state
        c = cat.cards[self.id]
        return {"involved": card_usable(cat, state, 0, self.id), "windows": sorted(c.windows.items())}

    def text(self, cat, run, trace, side):
        state = run.state
        name = cat.cards[self.id].name
        return pick(f"玩家可{TW.in_window(state.window)}使用{name}", f"the player may use {name} {TW.in_window(state.window)}")


class SiteSit(Sit):
    """A gives site: the player holds a grant it handed out — or, for an InvalidSkill, was invalidated by it."""
    kind = "site"

    def __init__(self, d, rid, nid, oid, fields):
        super().__init__(d, rid)
        self.ids = {"new": nid, "old": oid}
        self.fields = fields

    def give_in(self, name: str):
        sid = self.ids[name]
        return site_of(self.d.new if name == "new" else self.d.old, sid) if sid else None

    def _invalidates(self, name: str) -> bool:
        g = self.give_in(name)
        cat = self.d.new if name == "new" else self.d.old
        return g is not None and g.grant in cat.skills and "InvalidSkill" in cat.skills[g.grant].closure

    def exists(self, side):
        return self.ids[side.name] is not None

    def static(self, cat):
        name = "new" if cat is self.d.new else "old"
        return ("invalidates", self._invalidates(name))

    def slots(self):
        gn = [sl for sl in self.d.Sn.slots if not sl.initial_slot]
        go = [sl for sl in self.d.So.slots if not sl.initial_slot]
        return list(zip(gn, go))

    def involve(self, S, side):
        k = S.codes.site[self.ids[side.name]]
        if self._invalidates(side.name):           # invalidated by it now (as view reads the run's end)
            return z3.And(S.inv[0], S.inv_site[0] == k)
        return z3.Or([z3.And(a.present, a.site == k) for a, _ in self.slots()] or [z3.BoolVal(False)])

    def obs(self):
        """What its changed keys govern — of the first grant slot it handed out, or of the player's
        invalidation: who gave it (``to``), the window (``at``), the arguments (``args``, ``where``), the grant."""
        if not (self.ids["new"] and self.ids["old"]):
            return []
        k = self.d.codes_n.site[self.ids["new"]]
        f = self.fields
        if self._invalidates("new"):
            S = self.d.Sn
            return ([S.inv_giver[0] == 0] if "to" in f else []) + ([S.inv_m[0].w] if "at" in f else [])
        gn, go = self.give_in("new"), self.give_in("old")
        rn, ro = self.d.new.skills.get(gn.grant), self.d.old.skills.get(go.grant)
        params_differ = (rn.params if rn else {}) != (ro.params if ro else {})
        slots = self.slots()
        terms = []

        def first(term, default):
            out = default
            for a, b in reversed(slots):
                out = z3.If(z3.And(a.present, a.site == k), term(a, b), out)
            return out
        if "grant" in f:
            terms.append(first(lambda a, b: a.rule, z3.IntVal(-1)))
        if "to" in f:
            terms.append(first(lambda a, b: a.giver == 0, z3.BoolVal(False)))
        if "at" in f:
            terms.append(first(lambda a, b: a.m.w, z3.IntVal(-1)))
        if ({"args", "where"} & f or params_differ) and slots:
            a0, b0 = slots[0]
            for pn in sorted(set(rn.params if rn else {}) | set(ro.params if ro else {})):
                var0 = {**b0.params, **a0.params}.get(pn)
                if isinstance(var0, dict):
                    for c in sorted(var0):
                        terms.append(first(lambda a, b, pn=pn, c=c: {**b.params, **a.params}[pn][c],
                                           z3.BoolVal(False)))
                elif var0 is not None:
                    terms.append(first(lambda a, b, pn=pn: {**b.params, **a.params}[pn],
                                       z3.BoolVal(False) if z3.is_bool(var0) else z3.IntVal(-1)))
        return terms

    def related(self):
        out = set()
        for side in ("new", "old"):
            g = self.give_in(side)
            if g is not None and not g.giver_is_card:
                out.update((self.d.new if side == "new" else self.d.old).owners(g.giver))
        return out

    def _event(self, run, trace, side):
        """(the give event of this site to the player, its moment) in a run, or (None, None)."""
        sid = self.ids[side.name]
        for k, ev in enumerate(trace.events):
            if ev.kind == "give" and ev.site == sid and ev.seat == 0 and sid is not None:
                inst = next((i for i in run.state.seats[0].skills if i.event == k), None)
                if inst is not None or self._invalidates(side.name):
                    return ev, run.moments[k] if k < len(run.moments) else {}
        return None, None

    def view(self, cat, run, trace, side):
        ev, mo = self._event(run, trace, side)
        g = self.give_in(side.name)
        out = {"involved": ev is not None and (not self._invalidates(side.name) or run.state.seats[0].invalidated)}
        if g is not None:
            out["grant"] = cat.name_of(g.grant)
            out["to"] = g.to
            out["at"] = list(g.at)
        if ev is not None:
            out["by_self"] = ev.giver == 0
            out["args"] = sorted((k, list(v) if isinstance(v, tuple) else v) for k, v in ev.args.items())
        return out

    def text(self, cat, run, trace, side):
        g = self.give_in(side.name)
        ev, mo = self._event(run, trace, side)
        bits = []
        if ev is not None:
            bits.append(pick("自己给出", "given by himself") if ev.giver == 0
                        else pick(f"由座位{ev.giver}给出", f"given by seat {ev.giver}"))
            wid = (mo or {}).get("window") or ""
            if wid in TW.WINDOWS:
                bits.append(pick(f"于{T.window_name(wid)}", TW.in_window(wid)))
            if ev.args:
                bits.append(T.args_text(cat, ev.args))
        more = pick(f"（{'；'.join(bits)}）", f" ({'; '.join(bits)})") if bits else ""
        giver = cat.name_of(g.giver)
        if self._invalidates(side.name):
            return pick(f"玩家被【{giver}】无效技能{more}", f"the player's skills are invalidated by {giver}{more}")
        grant = cat.name_of(g.grant)
        return pick(f"玩家从【{giver}】获得【{grant}】{more}", f"the player is given {grant} by {giver}{more}")


def situations(d) -> list[Sit]:
    out: list[Sit] = []
    for rid, change in sorted(d.changed.items()):
        if rid == "[rules]" or change.startswith("renamed"):
            continue                      # a renamed id is read as its old one: nothing to search
        if "#" in rid:
            sid = rid.split(" ")[0]
            if change == "removed":
                out.append(SiteSit(d, rid, None, sid, set()))
            elif change == "added":
                out.append(SiteSit(d, rid, sid, None, set()))
            else:
                out.append(SiteSit(d, rid, sid, d.sites.n2o[sid], d.sites.fields.get(sid, set())))
        elif rid in d.new.characters or rid in d.old.characters:
            out.append(CharacterSit(d, rid))
        elif rid in d.new.skills or rid in d.old.skills:
            out.append(SkillSit(d, rid))
        elif rid in d.new.cards or rid in d.old.cards:
            out.append(CardSit(d, rid))
    return out


# ==================================================================================== the search
def possible(d) -> list[Possible]:
    """Every changed id's situations possible in one version only (at most one witness per id and direction)."""
    new = Side("new", d.new, d.qn, d.Sn, d.reach_o, d.sites.n2o, dict(d.renamed))
    old = Side("old", d.old, d.qo, d.So, d.reach_n, d.sites.o2n, {o: n for n, o in d.renamed.items()})
    clean = set(clean_characters(d))
    out = []
    for sit in situations(d):
        for here, there in ((new, old), (old, new)):
            p = _search(d, sit, here, there, clean)
            if p is not None:
                out.append(p)
    return out


def _restrict(d, S, allowed: set):
    codes = [S.codes.char[c] for c in sorted(allowed) if c in S.codes.char]
    return z3.And([z3.Implies(S.present[s], z3.Or([S.char[s] == k for k in codes] or [z3.BoolVal(False)]))
                   for s in range(1, S.n)] or [z3.BoolVal(True)])


def _find(here: Side, goal, restrict, prefer=(), minimize=True):
    """A witness with other seats playing unchanged characters (or the id's givers) if there is one, else any."""
    a = here.q.find(z3.And(goal, restrict), prefer=list(prefer), minimize=minimize)
    if a.status == "unsat":
        a = here.q.find(goal, prefer=list(prefer), minimize=minimize)
    return a


def _label(sit: Sit, cat: Catalogue) -> str:
    """The changed id a situation involves, for people (its kind and name), in the run's language."""
    if isinstance(sit, SiteSit):
        give = sit.give_in("new" if cat is sit.d.new else "old")
        name = T.site_name(cat, give) if give is not None and give.grant in cat.skills else T.id_name(cat, sit.id)
    else:
        name = cat.name_of(sit.id)
    return pick(f"{T.kind_word(sit.kind)}{name}", f"{T.kind_word(sit.kind)} {name}")


class _Asking:
    """The question a search asks — is a situation with this id possible only in HERE? — for the inconclusive
    answers it may give: each is ``(key, zh, en)`` in ``Differ.inconclusive`` (the key is the English wording
    INC001 ids have always been made from)."""

    def __init__(self, d, sit: Sit, here: Side):
        self.d, self.here = d, here
        self.key = f"{sit.kind} {sit.id}: possible only in {SIDE[here.name]}"
        self.zh, self.en = T.both(lambda: pick(f"{_label(sit, here.cat)}是否只在{T.side_name(here.name)}中可能",
                                               f"is a situation with the {_label(sit, here.cat)} possible only in "
                                               f"{T.side_name(here.name)}"))

    def undecided(self, key: str, zh: str, en: str):
        self.d.inconclusive.append((f"{self.key}: {key}", f"{self.zh}：{zh}", f"{self.en}: {en}"))

    def unknown(self, reason: str | None):
        r = reason or "timeout"
        self.undecided(r, f"求解器未能判定（{r}）", f"the solver answered unknown ({r})")


def _search(d, sit: Sit, here: Side, there: Side, clean: set) -> Possible | None:
    if not sit.exists(here):
        return None
    what = _Asking(d, sit, here)
    involve = sit.involve(here.S, here)
    restrict = _restrict(d, here.S, clean | sit.related())
    if not sit.exists(there) or sit.static(here.cat) != sit.static(there.cat):
        need = sit.only_here(here, there) if sit.exists(there) else None
        if need is not None:
            involve = z3.And(involve, need)
        a = _find(here, involve, restrict, sit.prefer(here, there))
        return _report(d, sit, here, there, a, what)
    obs = sit.obs()
    if not obs:
        return None
    blocks = []
    for _ in range(ROUNDS):
        a = _find(here, z3.And([involve, z3.Not(here.reach_other)] + blocks), restrict, minimize=False)
        if a.status != "sat":
            if a.status == "unknown":
                what.unknown(a.reason)
            return None
        vals = [a.model.eval(t, model_completion=True) for t in obs]
        same = z3.And([t == v for t, v in zip(obs, vals)])
        b = there.q.find(z3.And(sit.involve(there.S, there), same), minimize=False)
        if b.status == "unknown":
            what.unknown(b.reason)
            return None
        if b.status == "unsat":
            a = _find(here, z3.And(involve, same), restrict, [z3.Not(here.reach_other)])
            return _report(d, sit, here, there, a, what)
        blocks.append(z3.Not(same))
    what.undecided(f"no answer within {ROUNDS} candidate situations", f"{ROUNDS} 个候选局面内没有答案",
                   f"no answer within {ROUNDS} candidate situations")
    return None


def _report(d, sit: Sit, here: Side, there: Side, a, what: _Asking) -> Possible | None:
    if a.status == "unknown":
        what.unknown(a.reason)
        return None
    if not a.sat:
        return None                          # nothing involving the id is reachable here at all
    trace = a.state.trace
    run = play_run(here.cat, trace)
    if run.errors:
        k, why = run.errors[0]
        zh, en = T.both(lambda: play_run(here.cat, trace).errors[0][1])
        side = SIDE[here.name]
        what.undecided(f"witness does not replay under {side} (event {k}: {why})",
                       f"例证在{T.SIDE_ZH[here.name]}中不能重放（第 {k} 个事件：{zh}）",
                       f"the witness does not replay under {side} (event {k}: {en})")
        return None
    mine = sit.view(here.cat, run, trace, here)
    if not mine["involved"]:
        what.undecided("the witness's run does not show the situation", "例证的经过没有走到这个局面",
                       "the witness's run does not show the situation")
        return None
    reason = why_not(sit, here, there, trace, mine)
    if reason is None:
        other = SIDE[there.name]
        what.undecided(f"the witness shows the same situation under {other}",
                       f"例证在{T.SIDE_ZH[there.name]}中是同一个局面",
                       f"the witness shows the same situation under {other}")
        return None
    rules = [rule_ref(d.old, d.new, sit.id, d.changed[sit.id])]
    if isinstance(sit, CharacterSit) and sit.id in d.new.characters and sit.id in d.old.characters:
        a, b = d.old.characters[sit.id].skills, d.new.characters[sit.id].skills
        for rid, cat, how in [(r, d.new, "added to skills") for r in b if r not in a] + \
                [(r, d.old, "removed from skills") for r in a if r not in b]:
            r = cat.skills.get(rid)
            if r is not None:
                rules.append({"id": rid, "name": r.name, "file": r.loc.file, "line": r.loc.line,
                              "change": how, "of": cat.characters[sit.id].name})
    if isinstance(sit, SiteSit):
        g = sit.give_in(here.name)
        if g is not None and g.giver in d.changed:
            rules.append(rule_ref(d.old, d.new, g.giver, d.changed[g.giver]))
        elif g is not None:
            cat = here.cat
            src = cat.skills.get(g.giver) or cat.cards.get(g.giver)
            rules.append({"id": g.giver, "name": src.name, "file": src.loc.file, "line": src.loc.line,
                          "change": "gives site changed"})
    game, unrealised = _as_game(sit, here, there, trace, run, mine, reason)
    if game is not None:
        trace, run, reason = game
    zh, en = T.both(sit.text, here.cat, run, trace, here)
    steps_zh, steps_en = T.both(steps, here.cat, trace)
    return Possible(here.name, sit.kind, sit.id, zh, trace.to_dict(), run.state.to_dict(), steps_zh, reason, rules,
                    situation_en=en, steps_en=steps_en, unrealised=unrealised)


def _as_game(sit: Sit, here: Side, there: Side, trace: TR.Trace, run, mine: dict, reason: dict) -> tuple:
    """((the game, its run, the other version's reason on it), None): the witness made a game of the server under
    its own version (checks/realise.py, as ``Differ._as_game`` makes a changed answer's), kept only where it shows
    the same situation (the id's facts alike) and the other version still rules it out for the same kind of reason
    (``why_not`` on the game; an illegal event one of the timed trace's kinds, or the table at the start — not a
    table event such as a draw, which an unrelated change of the engine may refuse) — else (None, why not, in both
    languages), and the timed trace stays."""
    from .enc.game import SKELETON_KINDS
    from .realise import TwinsDisagree, realise
    seen: dict = {}

    def accept(game, got) -> bool:
        if got.errors or sit.view(here.cat, got, game, here) != mine:
            return False
        r = why_not(sit, here, there, game, mine)
        if r is None or r["kind"] != reason["kind"] or r["kind"] == "illegal" and r["event"] >= 0 and \
                game.events[r["event"]].kind not in SKELETON_KINDS:
            seen["other"] = True
            return False
        seen["reason"] = r
        return True
    try:
        game, why = realise(here.cat, trace, run.state, [], accept)
    except TwinsDisagree as e:
        return None, {"zh": f"z3 孪生填出的牌局解释器不接受（{e}）", "en": f"the z3 twin filled a game the interpreter refuses ({e})"}
    if game is None and seen.get("other"):
        side = T.SIDE_ZH[there.name], SIDE[there.name]
        return None, {"zh": f"{why['zh']}；{side[0]}不接受找到的牌局，但理由不是这个局面本身的",
                      "en": f"{why['en']}; {side[1]} refuses the games found for another reason than the situation"}
    if game is None:
        return None, why
    return (game, play_run(here.cat, game), seen["reason"]), None


def why_not(sit: Sit, here: Side, there: Side, trace: TR.Trace, mine: dict) -> dict | None:
    """Why the witness's situation is impossible in the other version, by the interpreter: the trace is
    unreadable there, or its first illegal event, or (when it runs) how the situation it reaches differs.
    ``{"kind": …, "text": Chinese, "text_en": English}`` (``event``: the illegal event's index)."""
    def out(kind: str, fn, **more) -> dict:
        zh, en = T.both(fn)
        return {"kind": kind, **more, "text": zh, "text_en": en}
    other = lambda: T.side_name(there.name)          # noqa: E731
    try:
        tr = translate(trace, here.cat, there.cat, here.site_map, here.renamed)
    except Unreadable as e:
        err = e
        return out("unreadable", lambda: pick(f"这条经过在{other()}中读不了：{err.zh}",
                                              f"the trace cannot be read under {other()}: {err.en}"))
    run = play_run(there.cat, tr)
    if run.errors:
        k = run.errors[0][0]

        def illegal():
            why = play_run(there.cat, tr).errors[0][1]            # the interpreter's reason, in the run's language
            ev = _event_text(here.cat, trace, k)
            return pick(f"在{other()}中，{ev}：{why}", f"under {other()}, {ev}: {why}")
        return out("illegal", illegal, event=k)
    if not sit.exists(there):
        name = here.cat.name_of(sit.id)
        return out("absent", lambda: pick(f"{other()}中没有{name}", f"{name} does not exist in {other()}"))
    theirs = sit.view(there.cat, run, tr, there)
    diff = [k for k in mine if k != "involved" and theirs.get(k) != mine[k]]
    if not diff and theirs.get("involved"):
        return None

    def differs():
        mine_side = T.side_name(here.name)
        facts = pick("；", "; ").join(
            pick(f"{T.fact_name(k)}为{T.fact_value(there.cat, k, theirs.get(k))}"
                 f"（{mine_side}中为{T.fact_value(here.cat, k, mine[k])}）",
                 f"{T.fact_name(k)}: {T.fact_value(there.cat, k, theirs.get(k))} "
                 f"(in {mine_side}: {T.fact_value(here.cat, k, mine[k])})") for k in diff)
        if not theirs.get("involved"):
            facts = (pick(f"同样的事件到不了这个局面（{facts}）", f"the same events do not reach it ({facts})") if facts
                     else pick("同样的事件到不了这个局面", "the same events do not reach it"))
        return pick(f"在{other()}中同样的经过能走通，但{facts}", f"under {other()} the same trace runs, but {facts}")
    return out("differs", differs)
