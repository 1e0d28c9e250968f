"""The z3 twin of the reference interpreter (``skillproof.model.interpreter``).

A ``SymState`` is a symbolic game moment seen from seat 0 ("the player"): up to ``n`` seats with
symbolic characters and attributes, the player's skill list as ``L`` initial slots (fixed by the
character) followed by ``G`` grant slots in acquisition order, each grant slot with a symbolic template,
giver, gives site and parameters. Every decision of the interpreter has an encoder here with the same name
prefixed ``enc_``, following the interpreter clause by clause (Cedar-style) but written as symbolic folds
over slots instead of loops with early returns — so a bug must be written twice, differently, to hide.

``reachability()`` returns the constraints that make a symbolic state one a real game can produce under
the catalogue, each *named* after the catalogue rules it comes from (for unsat cores: "no, because …").
``witness(model)`` turns a z3 model back into a concrete ``State`` that the interpreter can replay.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import z3

from skillproof.model import expr as E
from skillproof.model import vocab as V
from skillproof.model.catalogue import Catalogue, Give, Ref, Rule
from skillproof.model.state import Seat, SkillInst, State

NONE = -1          # "no seat" / "no slot" / "any card"
FREE, MUST, CANNOT = 0, 1, 2
RECEIVE_NAMES = {FREE: "free", MUST: "must", CANNOT: "cannot"}


class Codes:
    """Integer codes of the enum domains of one catalogue."""

    def __init__(self, cat: Catalogue):
        self.cards = list(cat.cards)
        self.card = {c: i for i, c in enumerate(self.cards)}
        self.chars = list(cat.characters)
        self.char = {c: i for i, c in enumerate(self.chars)}
        self.colours = list(V.COLOURS)
        self.colour = {c: i for i, c in enumerate(self.colours)}
        self.dirs = list(V.DIRECTIONS)
        self.dir = {d: i for i, d in enumerate(self.dirs)}
        self.rules = list(cat.skills)
        self.rule = {r: i for i, r in enumerate(self.rules)}
        self.sites: list[tuple[str, Give]] = []
        for src in list(cat.skills.values()) + list(cat.cards.values()):
            for g in src.gives:
                self.sites.append((f"{g.giver}#{g.index}", g))
        self.site = {s: i for i, (s, _) in enumerate(self.sites)}

    @classmethod
    def union(cls, *cats) -> "Codes":
        """Codes shared by several catalogues (for questions about two versions at once): every id of
        each, in first-seen order, so that one symbolic state can be read under each version."""
        c = cls(cats[0])
        for other in cats[1:]:
            o = cls(other)
            for attr, idx in (("cards", "card"), ("chars", "char"), ("rules", "rule")):
                lst = getattr(c, attr)
                for x in getattr(o, attr):
                    if x not in getattr(c, idx):
                        getattr(c, idx)[x] = len(lst)
                        lst.append(x)
            for sid, g in o.sites:
                if sid not in c.site:
                    c.site[sid] = len(c.sites)
                    c.sites.append((sid, g))
        return c

    def domain(self, t: str) -> list:
        return {V.CARD: self.cards, V.CHARACTER: self.chars, V.COLOUR: self.colours,
                V.DIRECTION: self.dirs}[t]

    def code(self, t: str, value: str) -> int:
        return {V.CARD: self.card, V.CHARACTER: self.char, V.COLOUR: self.colour, V.DIRECTION: self.dir}[t][value]

    def name(self, t: str, code: int) -> str:
        return self.domain(t)[code]


@dataclass
class Slot:
    """One entry of the player's skill list."""
    index: int
    initial_slot: bool
    present: object                 # z3 Bool
    rule: object                     # z3 Int (a rule code)
    candidates: tuple               # rule ids this slot may hold
    used: object                     # z3 Bool
    params: dict = field(default_factory=dict)    # name -> z3 value (Int / Bool / dict code->Bool)
    giver: object = None             # z3 Int seat (grant slots)
    site: object = None              # z3 Int site code (grant slots)


@dataclass
class Labelled:
    label: str
    rules: tuple                     # catalogue ids (rules, cards, characters) behind the constraint
    expr: object


class SymState:
    def __init__(self, cat: Catalogue, n: int = 2, G: int = 1, *, chars_me=None, chars_other=None,
                 grants=None, prefix: str = "", codes: Codes | None = None):
        self.cat = cat
        self.codes = codes or Codes(cat)
        C = self.codes
        self.n = max(1, min(n, cat.rules.seats))
        self.G = G
        self.p = prefix
        self.chars_me = list(chars_me) if chars_me is not None else list(cat.characters)
        self.chars_other = list(chars_other) if chars_other is not None else list(cat.characters)
        if grants is None:
            grants = [r.id for r in cat.grants if cat.sites(r.id)]
        self.grant_ids = [g for g in grants if g in cat.skills]
        p = self.p
        rng = range(self.n)
        B, I = z3.Bool, z3.Int
        self.present = [z3.BoolVal(True)] + [B(f"{p}present_{s}") for s in range(1, self.n)]
        self.char = [I(f"{p}char_{s}") for s in rng]
        self.alive = [B(f"{p}alive_{s}") for s in rng]
        self.face_up = [B(f"{p}face_up_{s}") for s in rng]
        self.ever = [B(f"{p}ever_face_up_{s}") for s in rng]
        self.locked = [B(f"{p}locked_{s}") for s in rng]
        self.inv = [B(f"{p}invalidated_{s}") for s in rng]
        self.ident = [I(f"{p}identity_{s}") for s in rng]
        self.ints = {f: [I(f"{p}{f}_{s}") for s in rng] for f in Seat.INT_FIELDS}
        self.turn = I(f"{p}turn")
        self.sender = I(f"{p}sender")
        self.in_front = I(f"{p}in_front")
        self.dying = I(f"{p}dying")
        self.msg = {c: (B(f"{p}message_{c}") if c in V.MESSAGE_COLOURS else z3.BoolVal(False))
                    for c in V.COLOURS}
        self.message_dir = I(f"{p}message_dir")
        self.lockable = B(f"{p}message_lockable")
        self.unknowns: dict[str, object] = {}
        self.extra: list = []          # side constraints created while encoding (e.g. pick domains)
        # ---- the player's skill list: initial slots, then grant slots
        self.L = max((len(cat.characters[c].skills) for c in self.chars_me), default=0)
        self.slots: list[Slot] = []
        for j in range(self.L):
            cands = tuple(sorted({cat.characters[c].skills[j] for c in self.chars_me
                                  if j < len(cat.characters[c].skills)}))
            self.slots.append(Slot(j, True, B(f"{p}slot{j}_present"), I(f"{p}slot{j}_rule"), cands,
                                   B(f"{p}slot{j}_used")))
        self.param_types: dict[str, str] = {}
        for gid in self.grant_ids:
            for pn, pt in cat.skills[gid].params.items():
                self.param_types.setdefault(pn, pt)
        for i in range(G):
            k = self.L + i
            params = {}
            for pn, pt in sorted(self.param_types.items()):
                nm = f"{p}grant{i}_{pn}"
                if pt == "bool":
                    params[pn] = B(nm)
                elif pt == "set<card>":
                    params[pn] = {c: B(f"{nm}_{C.cards[c]}") for c in range(len(C.cards))}
                else:
                    params[pn] = I(nm)
            self.slots.append(Slot(k, False, B(f"{p}grant{i}_present"), I(f"{p}grant{i}_rule"),
                                   tuple(self.grant_ids), B(f"{p}grant{i}_used"), params,
                                   I(f"{p}grant{i}_giver"), I(f"{p}grant{i}_site")))

    # ------------------------------------------------------------------------------ rule lookups
    def rule_is(self, slot: Slot, rid: str):
        return slot.rule == self.codes.rule[rid]

    def invalid(self, slot: Slot, seat: int = 0):
        """Wrapped in an InvalidSkill: the seat is invalidated and the rule is initial (note L82)."""
        init = [rid for rid in slot.candidates if self.cat.skills[rid].initial]
        if not init:
            return z3.BoolVal(False)
        return z3.And(self.inv[seat], z3.Or([self.rule_is(slot, r) for r in init]))

    def live_rule(self, slot: Slot, rid: str, kind: str):
        """Slot holds ``rid`` and it currently has ``kind`` (present, not wrapped)."""
        r = self.cat.skills[rid]
        if kind not in r.closure:
            return z3.BoolVal(False)
        conds = [slot.present, self.rule_is(slot, rid)]
        if r.initial:
            conds.append(z3.Not(self.inv[0]))
        return z3.And(conds)

    def live(self, slot: Slot, kind: str):
        return z3.Or([self.live_rule(slot, r, kind) for r in slot.candidates] or [z3.BoolVal(False)])

    def rules_with(self, slot: Slot, kind: str) -> list[str]:
        return [r for r in slot.candidates if kind in self.cat.skills[r].closure]

    # -------------------------------------------------------------------------------- attributes
    def seat_attr(self, s: int, name: str, ctx: "Ctx"):
        cat = self.cat
        if name == "alive":
            return self.alive[s]
        if name == "face_up":
            return self.face_up[s]
        if name == "ever_face_up":
            return self.ever[s]
        if name == "locked":
            return self.locked[s]
        if name == "identity":
            return self.ident[s]
        if name == "character":
            return self.char[s]
        if name in Seat.INT_FIELDS:
            return self.ints[name][s]
        if name == "hand_empty":
            return self.ints["hand_count"][s] == 0
        if name == "hidden":
            return self._char_in(s, [c for c in cat.characters.values() if c.hidden])
        if name == "female":
            return z3.And(self.face_up[s], self._char_in(s, [c for c in cat.characters.values() if c.female]))
        if name == "male":
            return z3.And(self.face_up[s], z3.Not(self._char_in(s, [c for c in cat.characters.values() if c.female])))
        if name == "my_turn":
            return self.turn == s
        if name == "is_sender":
            return self.sender == s
        if name == "in_front":
            return self.in_front == s
        if name == "dying":
            return self.dying == s
        if name == "in_winners":
            return ctx.winners[s]
        if name == "in_declared":
            return ctx.declared[s]
        raise ValueError(f"no attribute {name}")

    def _char_in(self, s: int, chars):
        cands = self.chars_me if s == 0 else self.chars_other
        ids = {c.id for c in chars} & set(cands)
        return z3.Or([self.char[s] == self.codes.char[c] for c in sorted(ids)] or [z3.BoolVal(False)])

    def unknown(self, key: str, kind: str = "bool"):
        if key not in self.unknowns:
            self.unknowns[key] = z3.Bool(f"{self.p}unknown[{key}]") if kind == "bool" else z3.Int(f"{self.p}unknown[{key}]")
        return self.unknowns[key]

    def globals_(self) -> dict:
        return {"message": dict(enumerate(self.msg[c] for c in V.COLOURS)), "message_dir": self.message_dir,
                "message_lockable": self.lockable}

    # ------------------------------------------------------------------------------ compilation
    def compile(self, node, ctx: "Ctx"):
        return _compile(node, ctx)

    def ctx(self, seat=0, slot: Slot | None = None, **globals_) -> "Ctx":
        g = self.globals_()
        g.update(globals_)
        return Ctx(self, {"self": seat}, dict(slot.params) if slot else {}, g,
                   slot.used if slot is not None else z3.BoolVal(False))


@dataclass
class Ctx:
    S: SymState
    players: dict                       # var -> int seat or z3 Int
    params: dict
    globals: dict
    used: object
    winners: list = field(default_factory=list)
    declared: list = field(default_factory=list)

    def bind(self, var, seat) -> "Ctx":
        return Ctx(self.S, {**self.players, var: seat}, self.params, self.globals, self.used, self.winners,
                   self.declared)


def _set_member(x, sv: dict):
    if isinstance(x, int):
        return sv.get(x, z3.BoolVal(False))
    if z3.is_int_value(x):
        return sv.get(x.as_long(), z3.BoolVal(False))
    return z3.Or([(x == c) if z3.is_true(b) else z3.And(x == c, b) for c, b in sv.items()] or [z3.BoolVal(False)])


def _compile(n, ctx: Ctx):
    S = ctx.S
    if isinstance(n, E.Lit):
        return z3.BoolVal(n.value) if isinstance(n.value, bool) else z3.IntVal(n.value)
    if isinstance(n, E.Unknown):
        return S.unknown(n.key)
    if isinstance(n, E.Const):
        return z3.IntVal(S.codes.code(n.type, n.value))
    if isinstance(n, E.Var):
        if n.role == "player":
            return ctx.players[n.name]
        if n.role == "param":
            return ctx.params[n.name]
        if n.role == "global":
            return ctx.globals[n.name]
        raise ValueError(n.name)
    if isinstance(n, E.Attr):
        who = _compile(n.obj, ctx)
        if n.name == "used":
            return ctx.used
        if isinstance(who, int):
            return S.seat_attr(who, n.name, ctx)
        if z3.is_int_value(who):
            return S.seat_attr(who.as_long(), n.name, ctx)
        out = S.seat_attr(S.n - 1, n.name, ctx)
        for s in range(S.n - 2, -1, -1):
            out = z3.If(who == s, S.seat_attr(s, n.name, ctx), out)
        return out
    if isinstance(n, E.Unary):
        a = _compile(n.arg, ctx)
        return z3.Not(a) if n.op == "not" else -a
    if isinstance(n, E.Bin):
        op = n.op
        if op in ("in", "notin"):
            x = _compile(n.left, ctx)
            sv = _compile(n.right, ctx)
            m = _set_member(x, sv)
            return m if op == "in" else z3.Not(m)
        a, b = _compile(n.left, ctx), _compile(n.right, ctx)
        if isinstance(a, dict) or isinstance(b, dict):       # set equality
            keys = set(a) | set(b)
            eq = z3.And([a.get(k, z3.BoolVal(False)) == b.get(k, z3.BoolVal(False)) for k in keys])
            return eq if op == "==" else z3.Not(eq)
        if op in ("+", "-", "*", "<", "<=", ">", ">="):
            a, b = _as_int(a), _as_int(b)
        return {"and": lambda: z3.And(a, b), "or": lambda: z3.Or(a, b), "==": lambda: a == b,
                "!=": lambda: a != b, "<": lambda: a < b, "<=": lambda: a <= b, ">": lambda: a > b,
                ">=": lambda: a >= b, "+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b}[op]()
    if isinstance(n, E.If):
        return z3.If(_compile(n.cond, ctx), _compile(n.then, ctx), _compile(n.other, ctx))
    if isinstance(n, E.SetLit):
        items = [_compile(i, ctx) for i in n.items]
        if not items:
            return {}
        if all(z3.is_int_value(it) for it in items):     # a set of constants: name its members only
            return {it.as_long(): z3.BoolVal(True) for it in items}
        et = V.elem_of(n.type)
        dom = range(len(S.codes.domain(et))) if et else []
        out = {}
        for c in dom:
            b = z3.Or([(it == c) if not isinstance(it, int) else z3.BoolVal(it == c) for it in items])
            b = z3.simplify(b)
            if not z3.is_false(b):
                out[c] = b
        return out
    if isinstance(n, E.Quant):
        terms = [(S.present[s], _compile(n.body, ctx.bind(n.var, s))) for s in range(S.n)]
        if n.kind == "any":
            return z3.Or([z3.And(p, b) for p, b in terms])
        if n.kind == "all":
            return z3.And([z3.Implies(p, b) for p, b in terms])
        return z3.Sum([z3.If(z3.And(p, b), 1, 0) for p, b in terms])
    raise ValueError(f"cannot compile {type(n).__name__}")


def _as_int(v):
    return z3.If(v, 1, 0) if z3.is_bool(v) else v


# ==================================================================================== conversion
def _memo(fn):
    """Cache a decision encoding per symbolic state and arguments (terms are immutable; building them
    is the expensive part of asking many questions about one state)."""
    import functools

    @functools.wraps(fn)
    def wrapper(S, *args, **kw):
        key = (fn.__name__,) + tuple(a.get_id() if isinstance(a, z3.AstRef) else a for a in args) + \
            tuple(sorted(kw.items()))
        cache = S.__dict__.setdefault("_enc_cache", {})
        if key not in cache:
            cache[key] = fn(S, *args, **kw)
        return cache[key]
    return wrapper


def _ref_code(S: SymState, ref: Ref, slot: Slot):
    if ref.kind == "any":
        return None
    if ref.kind == "card":
        return z3.IntVal(S.codes.card[ref.value])
    return slot.params[ref.value]


@_memo
def enc_conversion(S: SymState, actual, declared, only_must: bool = False):
    """Twin of interpreter.conversion (note L109-113 + server canUseCardTypes).
    Returns (ok, via): via is the slot index of the conversion that fires, or NONE."""
    cat = S.cat
    ok = actual == declared
    veto = z3.BoolVal(False)
    via = z3.IntVal(NONE)
    via_must = z3.BoolVal(False)
    for slot in S.slots:
        for rid in S.rules_with(slot, "ConvertCardSkill"):
            r = cat.skills[rid]
            if r.convert is None:
                continue
            applies = S.live_rule(slot, rid, "ConvertCardSkill")
            if not (cat.rules.face_down_converts if r.initial else cat.rules.face_down_grant_converts):
                applies = z3.And(applies, S.face_up[0])
            src = _ref_code(S, r.convert.source, slot)
            matches = applies if src is None else z3.And(applies, src == actual)
            in_targets = z3.Or([_ref_code(S, t, slot) == declared for t in r.convert.targets])
            must = z3.BoolVal(r.convert.must)
            veto = z3.Or(veto, z3.And(matches, z3.Not(in_targets), must))
            passes = z3.And(matches, in_targets) if not only_must or r.convert.must else z3.BoolVal(False)
            ok = z3.Or(ok, passes)
            takes = z3.And(passes, z3.Or(actual != declared, must),
                           z3.Or(via == NONE, z3.Not(via_must), must))
            via = z3.If(takes, slot.index, via)
            via_must = z3.If(takes, must, via_must)
    return z3.And(ok, z3.Not(veto)), z3.If(veto, NONE, via)


def _ban_all(S, r: Rule, slot):
    b = r.ban.all
    return slot.params[b.value] if isinstance(b, Ref) else z3.BoolVal(b)


def _ban_has(S, r: Rule, slot, declared):
    c = r.ban.cards
    if isinstance(c, Ref):
        return _set_member(declared, slot.params[c.value])
    return z3.Or([declared == S.codes.card[x.value] for x in c] or [z3.BoolVal(False)])


@_memo
def enc_banned(S: SymState, declared):
    """Twin of interpreter.banned (note L101; server cannotPlayCard looks at the declared type)."""
    terms = []
    for slot in S.slots:
        for rid in S.rules_with(slot, "CannotPlayCard"):
            r = S.cat.skills[rid]
            if r.ban is None:
                continue
            terms.append(z3.And(S.live_rule(slot, rid, "CannotPlayCard"),
                                z3.Or(_ban_all(S, r, slot), _ban_has(S, r, slot, declared))))
    return z3.Or(terms) if terms else z3.BoolVal(False)


@_memo
def enc_can_play(S: SymState, actual, declared):
    ok, _ = enc_conversion(S, actual, declared)
    return z3.And(ok, z3.Not(enc_banned(S, declared)))


# ======================================================================================== receive
@_memo
def enc_receive_parts(S: SymState):
    mr = S.cat.rules.must_receive
    must = z3.Or([t for k, t in (("sender", S.sender == 0), ("turn", S.turn == 0), ("locked", S.locked[0]))
                  if k in mr] or [z3.BoolVal(False)])
    cannot = z3.BoolVal(False)
    for slot in S.slots:
        for rid in S.rules_with(slot, "MustReceiveMessage"):
            r = S.cat.skills[rid]
            if r.receive is None:
                continue
            live = S.live_rule(slot, rid, "MustReceiveMessage")
            ctx = S.ctx(0, slot)
            must = z3.Or(must, z3.And(live, S.compile(r.receive.must, ctx)))
            cannot = z3.Or(cannot, z3.And(live, S.compile(r.receive.cannot, ctx)))
    return must, cannot


@_memo
def enc_receive(S: SymState):
    """Twin of interpreter.receive: FREE / MUST / CANNOT (note L117-119; server: sender and locked
    players must receive; must wins over cannot when ``rules.must_beats_cannot``)."""
    must, cannot = enc_receive_parts(S)
    both = MUST if S.cat.rules.must_beats_cannot else CANNOT
    return z3.If(z3.And(must, cannot), both, z3.If(must, MUST, z3.If(cannot, CANNOT, FREE)))


# ================================================================================== send groups
@_memo
def enc_send_in_force(S: SymState, group: str):
    """Twin of interpreter.send_in_force (note L129: later overrides earlier; server lastOrNull)."""
    out = z3.IntVal(NONE)
    for slot in S.slots:
        out = z3.If(S.live(slot, group), slot.index, out)
    return out


def enc_default_send(S: SymState, group: str, d, lc):
    if group == "SendMessageDirectionSkill":
        return d == S.message_dir
    if group == "SendMessageCanLockSkill":
        return z3.And(lc <= 1, z3.Or(lc == 0, S.lockable))
    return z3.BoolVal(True)


@_memo
def enc_send_allowed(S: SymState, group: str, d, lc):
    """Twin of interpreter.send_allowed."""
    out = enc_default_send(S, group, d, lc)
    for slot in S.slots:
        for rid in S.rules_with(slot, group):
            r = S.cat.skills[rid]
            if r.send is None:
                continue
            rule = S.compile(r.send.rule, S.ctx(0, slot, dir=d, lock_count=lc))
            out = z3.If(S.live_rule(slot, rid, group), rule, out)
    return out


# ======================================================================================= skipping
@_memo
def enc_banned_all(S: SymState):
    terms = []
    for slot in S.slots:
        for rid in S.rules_with(slot, "CannotPlayCard"):
            r = S.cat.skills[rid]
            if r.ban is not None:
                terms.append(z3.And(S.live_rule(slot, rid, "CannotPlayCard"), _ban_all(S, r, slot)))
    return z3.Or(terms) if terms else z3.BoolVal(False)


@_memo
def enc_skills_gone(S: SymState):
    """No live ActiveSkill and no unwrapped initial skill (server: !skills.any{isInitial || Active})."""
    keep = []
    for slot in S.slots:
        keep.append(S.live(slot, "ActiveSkill"))
        init = [r for r in slot.candidates if S.cat.skills[r].initial]
        if init:
            keep.append(z3.And(slot.present, z3.Not(S.inv[0]), z3.Or([S.rule_is(slot, r) for r in init])))
    return z3.Not(z3.Or(keep)) if keep else z3.BoolVal(True)


def _usable(S: SymState, which: str):
    terms = []
    for slot in S.slots:
        for rid in S.rules_with(slot, "ActiveSkill"):
            r = S.cat.skills[rid]
            cond = getattr(r, which)
            if cond is None:
                continue
            terms.append(z3.And(S.live_rule(slot, rid, "ActiveSkill"), S.compile(cond, S.ctx(0, slot))))
    return z3.Or(terms) if terms else z3.BoolVal(False)


@_memo
def enc_skip_fight(S: SymState):
    """Twin of interpreter.skip_fight (note L94-97; server cannotPlayCardAndSkillForFightPhase)."""
    return _enc_skip(S, "fight")


@_memo
def enc_skip_dying(S: SymState):
    """Twin of interpreter.skip_dying (server cannotPlayCardAndSkillForChengQing)."""
    return _enc_skip(S, "dying")


def _enc_skip(S: SymState, phase: str):
    """Twin of interpreter._skip: the ingredients ``rules.skip_<phase>`` names."""
    parts = getattr(S.cat.rules, f"skip_{phase}")
    cannot_play = z3.Or(enc_banned_all(S), S.ints["hand_count"][0] == 0)
    if "can_use" in parts:
        has_skill = _usable(S, phase)
    else:
        non_main = [z3.And(S.live(slot, "ActiveSkill"), z3.Not(S.live(slot, "MainPhaseSkill"))) for slot in S.slots]
        has_skill = z3.Or(non_main) if non_main else z3.BoolVal(False)
    no_skill = z3.And(S.ever[0], z3.Not(has_skill))
    if "skills_gone" in parts:
        no_skill = z3.Or(enc_skills_gone(S), no_skill)
    return z3.And(cannot_play, no_skill)


def _cards_playable_in(S: SymState, phase: str):
    ids = [c.id for c in S.cat.cards.values() if phase in c.phases]
    return z3.Or([z3.Not(enc_banned(S, z3.IntVal(S.codes.card[c]))) for c in ids] or [z3.BoolVal(False)])


@_memo
def enc_could_act_fight(S: SymState):
    return z3.Or(_usable(S, "fight"), z3.And(S.ints["hand_count"][0] > 0, _cards_playable_in(S, "fight")))


@_memo
def enc_could_act_dying(S: SymState):
    return z3.Or(_usable(S, "dying"), z3.And(S.ints["hand_count"][0] > 0, _cards_playable_in(S, "dying")))


# ===================================================================================== draw count
@_memo
def enc_draw_count(S: SymState):
    """Twin of interpreter.draw_count (note L143-145; server fold over the skill list)."""
    count = z3.IntVal(S.cat.rules.draw_base)
    for slot in S.slots:
        for rid in S.rules_with(slot, "ChangeDrawCardCountSkill"):
            r = S.cat.skills[rid]
            if r.draw is None:
                continue
            new = _as_int(S.compile(r.draw, S.ctx(0, slot, count=count)))
            count = z3.If(S.live_rule(slot, rid, "ChangeDrawCardCountSkill"), new, count)
    return count


# ====================================================================================== turn end
@_memo
def enc_turn_end_survivors(S: SymState):
    """Twin of interpreter.turn_end for the player's list: per slot, (still present, still wrapped,
    still a OneTurnSkill) after the ``rules.turn_end`` steps."""
    out = []
    for slot in S.slots:
        present = slot.present
        wrapped = S.invalid(slot)
        one_turn = z3.Or([S.rule_is(slot, r) for r in slot.candidates
                          if "OneTurnSkill" in S.cat.skills[r].closure] or [z3.BoolVal(False)])
        for step in S.cat.rules.turn_end:
            if step == "restore_invalid":
                wrapped = z3.BoolVal(False)
            else:
                present = z3.And(present, z3.Not(z3.And(one_turn, z3.Not(wrapped))))
        out.append((present, wrapped, z3.And(present, one_turn)))
    return out


# ================================================================================== reachability
def _giver_ok(S: SymState, give: Give, g: int):
    if give.giver_is_card:
        return z3.BoolVal(True)
    owners = set(S.cat.owners(give.giver))
    cands = S.chars_me if g == 0 else S.chars_other
    return z3.Or([S.char[g] == S.codes.char[c] for c in sorted(owners & set(cands))] or [z3.BoolVal(False)])


def _to_ok(to: str, g: int, receiver: int):
    return {"self": g == receiver, "others": g != receiver}.get(to, True)


def _arg_eq(S: SymState, ptype: str, var, value):
    if ptype == "bool":
        return var == z3.BoolVal(value)
    if ptype == "int":
        return var == value
    if ptype == "card":
        return var == S.codes.card[value]
    if ptype == "colour":
        return var == S.codes.colour[value]
    if ptype == "set<card>":
        want = {S.codes.card[x] for x in value}
        return z3.And([b if c in want else z3.Not(b) for c, b in var.items()])
    raise ValueError(ptype)


def reachability(S: SymState) -> list[Labelled]:
    """Named constraints: the symbolic state is one a game under the catalogue can produce.
    Twin of interpreter.reachable."""
    cat, C = S.cat, S.codes
    out: list[Labelled] = []

    def add(label, rules, e):
        out.append(Labelled(label, tuple(rules), e))

    n = S.n
    for s in range(1, n - 1):
        add(f"seat order {s}", (), z3.Implies(S.present[s + 1], S.present[s]))
    for s in range(n):
        cands = S.chars_me if s == 0 else S.chars_other
        add(f"seat {s} character", (), z3.Or([S.char[s] == C.char[c] for c in cands] or [z3.BoolVal(False)]))
        for t in range(s):
            add(f"distinct characters {t},{s}", (), z3.Implies(z3.And(S.present[s], S.present[t]),
                                                                 S.char[s] != S.char[t]))
        add(f"seat {s} identity", (), z3.And(S.ident[s] >= 0, S.ident[s] < len(V.COLOURS)))
        for f in Seat.INT_FIELDS:
            lo, hi = V.INT_BOUNDS[f]
            add(f"seat {s} {f}", (), z3.And(S.ints[f][s] >= lo, S.ints[f][s] <= hi))
        red, blue, tru = S.ints["red_messages"][s], S.ints["blue_messages"][s], S.ints["true_messages"][s]
        add(f"seat {s} message counts", (), z3.And(red <= tru, blue <= tru, tru <= red + blue,
                                                   S.ints["non_black_messages"][s] <= tru))
        public = [c for c in cands if not cat.characters[c].hidden]
        add(f"seat {s} public roles face up", tuple(public),
            z3.Implies(S._char_in(s, [cat.characters[c] for c in public]), S.face_up[s]))
        add(f"seat {s} face up implies ever", (), z3.Implies(S.face_up[s], S.ever[s]))
        # invalidation needs some way to invalidate this seat
        ways = []
        sites = cat.invalidation_sites()
        for give in sites:
            for g in range(n):
                if not _to_ok(give.to, g, s):
                    continue
                ways.append(z3.And(S.present[g], _giver_ok(S, give, g),
                                   S.compile(give.when, S.ctx(g))))
        add(f"seat {s} invalidation needs a giver", tuple(sorted({g.giver for g in sites})),
            z3.Implies(S.inv[s], z3.Or(ways) if ways else z3.BoolVal(False)))
    seat_ok = lambda v, allow_none: z3.Or([z3.And(v == s, S.present[s]) for s in range(n)] +
                                         ([v == NONE] if allow_none else []))
    add("whose turn", (), seat_ok(S.turn, False))
    add("sender", (), seat_ok(S.sender, True))
    add("in front", (), seat_ok(S.in_front, True))
    add("dying", (), seat_ok(S.dying, True))
    add("message direction", (), z3.And(S.message_dir >= 0, S.message_dir < len(V.DIRECTIONS)))
    # ---- initial slots: the character's skills in order; consumed ones may be gone
    for slot in S.slots:
        if not slot.initial_slot:
            continue
        j = slot.index
        by_char = []
        for c in S.chars_me:
            sk = cat.characters[c].skills
            if j < len(sk):
                held = S.rule_is(slot, sk[j])
                body = held if cat.skills[sk[j]].consumed else z3.And(held, slot.present)
            else:
                body = z3.Not(slot.present)
            by_char.append(z3.Implies(S.char[0] == C.char[c], body))
        add(f"initial skill {j}", (), z3.And(by_char) if by_char else z3.Not(slot.present))
    # ---- grant slots: each from a gives site whose giver is in the game
    grant_slots = [sl for sl in S.slots if not sl.initial_slot]
    for i, slot in enumerate(grant_slots):
        if i > 0:
            add(f"grant {i} after grant {i - 1}", (), z3.Implies(slot.present, grant_slots[i - 1].present))
        ways = []
        for gid in slot.candidates:
            rule = cat.skills[gid]
            for give in cat.sites(gid):
                sc = C.site[f"{give.giver}#{give.index}"]
                for g in range(n):
                    if not _to_ok(give.to, g, 0):
                        continue
                    conds = [S.rule_is(slot, gid), slot.site == sc, slot.giver == g, S.present[g],
                             _giver_ok(S, give, g)]
                    for pn, val in give.args.items():
                        conds.append(_arg_eq(S, rule.params[pn], slot.params[pn], val))
                    if give.where is not None:
                        conds.append(S.compile(give.where, Ctx(S, {"self": g}, dict(slot.params), {},
                                                              z3.BoolVal(False))))
                    if rule.lifetime == "turn":
                        conds.append(S.compile(give.when, S.ctx(g)))
                    ways.append(z3.And(conds))
        add(f"grant {i} source", tuple(sorted({g.giver for gid in slot.candidates for g in cat.sites(gid)})),
            z3.Implies(slot.present, z3.Or(ways) if ways else z3.BoolVal(False)))
        for pn, pt in S.param_types.items():
            v = slot.params[pn]
            if pt == "card":
                own = [C.card[c] for c in cat.cards]
                add(f"grant {i} {pn} is a card", (),
                    z3.And(v >= 0, v < len(C.cards)) if own == list(range(len(C.cards)))
                    else z3.Or([v == k for k in own]))
            elif pt == "colour":
                add(f"grant {i} {pn} is a colour", (), z3.And(v >= 0, v < len(C.colours)))
            elif pt == "int":
                add(f"grant {i} {pn} bound", (), z3.And(v >= 0, v <= 20))
    # ---- per_turn: a site hands out a this-turn grant at most per_turn times
    own_sites = [(f"{g.giver}#{g.index}", g) for src in list(cat.skills.values()) + list(cat.cards.values())
                 for g in src.gives]
    for site_id, give in own_sites:
        rule = cat.skills.get(give.grant)
        if rule is None or rule.lifetime != "turn" or not grant_slots:
            continue
        sc = C.site[site_id]
        cnt = z3.Sum([z3.If(z3.And(sl.present, sl.site == sc), 1, 0) for sl in grant_slots])
        add(f"{site_id} per_turn", (give.giver,), cnt <= give.per_turn)
    return out


def constraints(S: SymState) -> list:
    return [l.expr for l in reachability(S)]


# ========================================================================== concrete <-> symbolic
def assignment(S: SymState, state: State) -> list:
    """Equalities fixing ``S`` to the concrete ``state`` (same seat numbering; the state must fit the
    shape: at most n seats, its initial skills in the initial slots and at most G grants)."""
    C = S.codes
    eqs = []
    k = len(state.seats)
    if k > S.n:
        raise ValueError(f"state has {k} seats, the symbolic state {S.n}")
    for s in range(S.n):
        if s >= 1:
            eqs.append(S.present[s] == (s < k))
        if s >= k:
            continue
        seat = state.seats[s]
        eqs += [S.char[s] == C.char[seat.character], S.alive[s] == seat.alive, S.face_up[s] == seat.face_up,
                S.ever[s] == seat.ever_face_up, S.locked[s] == seat.locked,
                S.ident[s] == C.colour[seat.identity]]
        for f in Seat.INT_FIELDS:
            eqs.append(S.ints[f][s] == getattr(seat, f))
        wrapped = any(i.invalid for i in seat.skills)
        eqs.append(S.inv[s] == wrapped)
    eqs += [S.turn == state.turn, S.sender == (NONE if state.sender is None else state.sender),
            S.in_front == (NONE if state.in_front is None else state.in_front),
            S.dying == (NONE if state.dying is None else state.dying),
            S.message_dir == C.dir[state.message_dir], S.lockable == state.message_lockable]
    for c in V.MESSAGE_COLOURS:
        eqs.append(S.msg[c] == (c in state.message))
    me = state.seats[0]
    initial = [i for i in me.skills if not S.cat.skills[i.rule].is_grant]
    grants = [i for i in me.skills if S.cat.skills[i.rule].is_grant]
    if len(initial) > S.L or len(grants) > S.G:
        raise ValueError("state's skill list does not fit the symbolic slots")
    islots = [sl for sl in S.slots if sl.initial_slot]
    gslots = [sl for sl in S.slots if not sl.initial_slot]
    # initial skills fill the slots of their position in the character's list
    ch = S.cat.characters[me.character]
    pos = 0
    for sl in islots:
        j = sl.index
        rid = ch.skills[j] if j < len(ch.skills) else None
        inst = initial[pos] if pos < len(initial) else None
        if rid is not None and inst is not None and inst.rule == rid:
            eqs += [sl.present, sl.rule == C.rule[rid], sl.used == inst.used]
            pos += 1
        else:
            eqs.append(z3.Not(sl.present))
            if rid is not None:
                eqs.append(sl.rule == C.rule[rid])
    if pos != len(initial):
        raise ValueError("initial skills are not in the character's order")
    for sl, inst in zip(gslots, grants + [None] * (len(gslots) - len(grants))):
        if inst is None:
            eqs.append(z3.Not(sl.present))
            continue
        eqs += [sl.present, sl.rule == C.rule[inst.rule], sl.used == inst.used,
                sl.giver == (NONE if inst.giver is None else inst.giver),
                sl.site == C.site.get(inst.site or "", NONE)]
        rule = S.cat.skills[inst.rule]
        for pn, pt in rule.params.items():
            if pn in inst.args:
                eqs.append(_arg_eq(S, pt, sl.params[pn], list(inst.args[pn]) if pt == "set<card>" else inst.args[pn]))
    for key, val in state.unknowns.items():
        if key in S.unknowns:
            eqs.append(S.unknowns[key] == val)
    return eqs


def slot_to_index(S: SymState, model, slot_code: int) -> int | None:
    """The concrete skill-list index of symbolic slot ``slot_code`` (present slots before it)."""
    if slot_code == NONE:
        return None
    return sum(1 for sl in S.slots[:slot_code] if z3.is_true(model.eval(sl.present, model_completion=True)))


def witness(S: SymState, model) -> State:
    """The concrete state described by a model of ``S`` (seats renumbered to present ones)."""
    cat, C = S.cat, S.codes
    ev = lambda e: model.eval(e, model_completion=True)
    b = lambda e: z3.is_true(ev(e))
    iv = lambda e: ev(e).as_long()
    seats_idx = [s for s in range(S.n) if b(S.present[s])]
    renum = {s: i for i, s in enumerate(seats_idx)}
    seats = []
    for s in seats_idx:
        ch = cat.characters[C.chars[iv(S.char[s])]]
        seat = Seat(character=ch.id, alive=b(S.alive[s]), face_up=b(S.face_up[s]), ever_face_up=b(S.ever[s]),
                    identity=C.colours[iv(S.ident[s])], locked=b(S.locked[s]))
        for f in Seat.INT_FIELDS:
            setattr(seat, f, iv(S.ints[f][s]))
        inv = b(S.inv[s])
        if s == 0:
            for sl in S.slots:
                if not b(sl.present):
                    continue
                rid = C.rules[iv(sl.rule)]
                rule = cat.skills[rid]
                inst = SkillInst(rid, invalid=inv and rule.initial, used=b(sl.used))
                if not sl.initial_slot:
                    for pn, pt in rule.params.items():
                        v = sl.params[pn]
                        if pt == "bool":
                            inst.args[pn] = b(v)
                        elif pt == "set<card>":
                            inst.args[pn] = tuple(C.cards[c] for c, bb in sorted(v.items()) if b(bb))
                        elif pt == "card":
                            inst.args[pn] = C.cards[iv(v)]
                        elif pt == "colour":
                            inst.args[pn] = C.colours[iv(v)]
                        else:
                            inst.args[pn] = iv(v)
                    inst.giver = renum.get(iv(sl.giver))
                    inst.site = C.sites[iv(sl.site)][0]
                seat.skills.append(inst)
        else:
            seat.skills = [SkillInst(r, invalid=inv and cat.skills[r].initial) for r in ch.skills]
        seats.append(seat)
    opt = lambda v: renum.get(iv(v)) if iv(v) != NONE else None
    st = State(seats=seats, turn=renum[iv(S.turn)], sender=opt(S.sender), in_front=opt(S.in_front),
               dying=opt(S.dying), message=frozenset(c for c in V.MESSAGE_COLOURS if b(S.msg[c])),
               message_dir=C.dirs[iv(S.message_dir)], message_lockable=b(S.lockable))
    st.unknowns = {k: b(v) if z3.is_bool(v) else iv(v) for k, v in sorted(S.unknowns.items())}
    return st


# ======================================================================= helpers for check queries
def holds(S: SymState, rid: str, kind: str | None = None):
    """[(slot, live)] for every slot that may hold ``rid``; live = it is there and (if ``kind``) has
    that kind now (not wrapped)."""
    out = []
    for sl in S.slots:
        if rid in sl.candidates:
            live = S.live_rule(sl, rid, kind) if kind else z3.And(sl.present, S.rule_is(sl, rid))
            out.append((sl, live))
    return out


def conversion_applies(S: SymState, slot: Slot, rid: str):
    """The conversion ``rid`` in ``slot`` is active (live, and face up if initial)."""
    r = S.cat.skills[rid]
    a = S.live_rule(slot, rid, "ConvertCardSkill")
    if not (S.cat.rules.face_down_converts if r.initial else S.cat.rules.face_down_grant_converts):
        a = z3.And(a, S.face_up[0])
    return a


def conversion_source_is(S: SymState, slot: Slot, rid: str, actual):
    src = _ref_code(S, S.cat.skills[rid].convert.source, slot)
    return z3.BoolVal(True) if src is None else src == actual


def conversion_targets_has(S: SymState, slot: Slot, rid: str, declared):
    return z3.Or([_ref_code(S, t, slot) == declared for t in S.cat.skills[rid].convert.targets])


def card_var(S: SymState, name: str):
    v = z3.Int(f"{S.p}{name}")
    return v, z3.And(v >= 0, v < len(S.codes.cards))


# =============================================================================== win / game result
def result_holders(S: SymState, kind: str, seat_chars: dict) -> dict:
    """For the result pass: seat -> [(live, rule id, skill index)] of its rules of ``kind``
    ("win" / "result"). Seat 0 uses its symbolic slots; other seats hold their character's initial
    skills (``seat_chars[seat]`` fixes which character)."""
    kname = "WinSkill" if kind == "win" else "ChangeGameResultSkill"
    out = {}
    for s in range(S.n):
        lst = []
        if s == 0:
            for sl in S.slots:
                for rid in S.rules_with(sl, kname):
                    lst.append((S.live_rule(sl, rid, kname), rid, ("slot", sl.index)))
        elif s in seat_chars:
            ch = S.cat.characters[seat_chars[s]]
            for i, rid in enumerate(ch.skills):
                r = S.cat.skills[rid]
                if kname in r.closure:
                    live = z3.Not(S.inv[s]) if r.initial else z3.BoolVal(True)
                    lst.append((live, rid, ("list", i)))
        out[s] = lst
    return out


def enc_result_pass(S: SymState, kind: str, turn: int, holders: dict, declared, winners, tag: str):
    """Twin of interpreter.game_result for a concrete ``turn``: returns (declared, winners, picks),
    the sets as lists of z3 Bools per seat and the pick variables {(seat, skill, effect): (var, cands)}."""
    cat = S.cat
    D, W = list(declared), list(winners)
    picks = {}
    order = [(turn + k) % S.n for k in range(S.n)]
    for s in order:
        for live, rid, where in holders.get(s, []):
            r = cat.skills[rid]
            guard = z3.And(S.present[s], live, z3.Or(S.alive[s], z3.BoolVal(not r.initial)))
            for ei, eff in enumerate(getattr(r, kind)):
                D, W, pk = _enc_effect(S, s, eff, guard, D, W, order, f"{tag}_{s}_{rid}_{ei}")
                if pk is not None:
                    picks[(s, rid, ei)] = pk
    return D, W, picks


def _set_of(S: SymState, lam, ctx: Ctx):
    if lam is None:
        return [z3.BoolVal(False)] * S.n
    return [z3.And(S.present[q], _compile(lam.body, ctx.bind(lam.var, q))) for q in range(S.n)]


def _enc_effect(S, s, eff, guard, D, W, order, tag):
    base = Ctx(S, {"self": s}, {}, {}, z3.BoolVal(False), list(W), list(D))
    bindings = [({}, z3.BoolVal(True))]
    pick = None
    if eff.each is not None:
        bindings = [({eff.each.var: p}, z3.And(S.present[p], _compile(eff.each.body, base.bind(eff.each.var, p))))
                    for p in order]
    elif eff.pick is not None:
        cands = [z3.And(S.present[p], _compile(eff.pick.body, base.bind(eff.pick.var, p))) for p in range(S.n)]
        pv = z3.Int(f"{S.p}pick_{tag}")
        pick = (pv, cands)
        any_c = z3.Or(cands)
        S.extra.append(z3.Implies(any_c, z3.Or([z3.And(pv == p, cands[p]) for p in range(S.n)])))
        bindings = [({eff.pick.var: p}, z3.And(any_c, pv == p)) for p in range(S.n)]
    for bound, sel in bindings:
        ctx = Ctx(S, {"self": s, **bound}, {}, {}, z3.BoolVal(False), list(W), list(D))
        fire = z3.And(guard, sel, _compile(eff.when, ctx))
        aw, rw = _set_of(S, eff.winners_add, ctx), _set_of(S, eff.winners_remove, ctx)
        ad, rd = _set_of(S, eff.declared_add, ctx), _set_of(S, eff.declared_remove, ctx)
        W = [z3.If(fire, z3.Or(z3.And(W[q], z3.Not(rw[q])), aw[q]), W[q]) for q in range(S.n)]
        D = [z3.If(fire, z3.Or(z3.And(D[q], z3.Not(rd[q])), ad[q]), D[q]) for q in range(S.n)]
    return D, W, pick


def slot_is(S: SymState, index, rid: str):
    """The slot numbered by ``index`` (a z3 Int, e.g. the conversion that fires or the send skill in
    force) holds ``rid``."""
    terms = [z3.And(index == sl.index, S.rule_is(sl, rid)) for sl in S.slots if rid in sl.candidates]
    return z3.Or(terms) if terms else z3.BoolVal(False)


def receive_rule_parts(S: SymState, rid: str):
    """[(live, must, cannot)] for every slot that may hold the MustReceiveMessage rule ``rid``: whether
    it is there and in force, and its two conditions read in that slot."""
    r = S.cat.skills[rid]
    if r.receive is None:
        return []
    out = []
    for sl, live in holds(S, rid, "MustReceiveMessage"):
        c = S.ctx(0, sl)
        out.append((live, S.compile(r.receive.must, c), S.compile(r.receive.cannot, c)))
    return out
