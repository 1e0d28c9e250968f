"""The checks of the family ``triggers`` (TR001–TR005; its codes and pages: ``checks/families/triggers.py``) over the
model of ``checks/firing.py``: triggered skills' events (``on``) and effects (``do``) as data, questions to z3 about the
moment an event is dealt, and the findings in the designer's words."""
from __future__ import annotations

import time

import z3

from skillproof.checks import firing as F
from skillproof.checks.budget import BudgetExceeded
from skillproof.checks.findings import Finding, RuleRef, canonical
from skillproof.model import effects as EF
from skillproof.model import events as EV
from skillproof.model import expr as E
from skillproof.model.lang import using
from skillproof.model.expr_words import words, words_both
from skillproof.checks.enc.state import Codes

FAMILY = "triggers"

# ------------------------------------------------------------------------------------------------- words
_LABELS = {
    "holder": ("持有它的角色", "the characters that hold it"),
    "dispatch": ("开局技能只在持有者存活时被询问", "an initial skill is asked only while its holder is alive"),
    "whose": ("它回应的是谁的事件（whose）", "whose event it answers (whose)"),
    "event": ("事件的参与者", "the event's players"),
    "event_facts": ("事件本身的事实（如死亡事件的死者已死亡、接收者存活、情报有一到两种颜色）",
                    "the event's own facts (the victim of a death is dead, a receiver is alive, a message has one or "
                    "two colours)"),
    "table": ("每个局面都满足的事实（公开角色正面朝上、情报数目相符、存活角色有身份）",
              "the facts every state keeps (public roles face up, message counts that add up, living players have "
              "an identity)"),
    "guard": ("触发条件（on.when）", "the guard (on.when)"),
    "raisers": ("能引发这个事件的规则（由技能或由牌置入）", "the rules that raise this event (by a skill or by a card)"),
    "no_raisers": ("没有任何技能或牌的效果引发这个事件", "no effect of a skill or card raises this event"),
    "frame": ("所选角色存活", "the chosen players are alive"),
}


def _because(core) -> list:
    """The facts of an unsatisfiable core in words (the facts every state keeps always take part)."""
    return [{"zh": _LABELS[c][0], "en": _LABELS[c][1]} for c in list(core) + ["table"] if c in _LABELS]


def _ev(kind: str) -> tuple:
    k = EV.EVENT_KINDS[kind]
    return k.zh, k.en


def _whose(on) -> tuple:
    if on.whose == ("any",):
        return "任何人的", "anyone's"
    if on.whose == ("self",):
        return "自己的", "the holder's own"
    if on.whose == ("other",):
        return "别人的", "another player's"
    kind = on.kind
    zh = "或".join(kind.role(r).zh for r in on.whose)
    en = " or ".join(kind.role(r).en for r in on.whose)
    return f"自己是{zh}时的", f"its holder being {en}"


def _cond_words(cat, node, rule) -> tuple:
    players = EF.player_nouns(rule.on)
    out = []
    for lang in ("zh", "en"):
        with using(lang):
            out.append(words(node, cat, players=players))
    return tuple(out)


def _noun(rule, word) -> tuple:
    if word in (None, "self"):
        return "持有者", "the holder"
    if word == "all":
        return "每名角色", "every player"
    if word == "others":
        return "其他角色", "the other players"
    return EF.player_nouns(rule.on).get(word, (word, word))


def _op_words(rule, at) -> tuple:
    """An op in words: what it does and to whom (``give``: from whom to whom)."""
    o = EF.OPS[at.op.op]
    a = at.op.args
    k = at.op.op
    if k in ("give", "take"):
        fz, fe = _noun(rule, a.get("from", "self" if k == "give" else None))
        tz, te = _noun(rule, a.get("to", "self" if k == "take" else None))
        return f"{o.zh}（{fz}→{tz}）", f"{o.en} ({fe} → {te})"
    if k == "remove_message" and a.get("to") == "area":
        fz, fe = _noun(rule, a.get("whose", "self"))
        tz, te = _noun(rule, a.get("into"))
        return f"{o.zh}（{fz}→{tz}的情报区）", f"{o.en} ({fe} → {te}'s area)"
    who = a.get("who") or a.get("to") or a.get("whose") or a.get("from")
    if k == "flip" and a.get("what") == "message":
        who = None
    if who is None or not isinstance(who, str):
        return o.zh, o.en
    zh, en = _noun(rule, who)
    return f"{o.zh}（{zh}）", f"{o.en} ({en})"


def _ref(cat, rule, role: str, loc=None) -> RuleRef:
    loc = loc or rule.loc
    return RuleRef(rule.id, rule.name, loc.file, loc.line, role)


def _node_key(n) -> str:
    """An expression's canonical text (for finding keys: what it says, not where)."""
    if n is None:
        return ""
    if isinstance(n, E.Lit):
        return str(n.value).lower()
    if isinstance(n, E.Const):
        return n.value
    if isinstance(n, E.Var):
        return n.name
    if isinstance(n, E.Unknown):
        return f"unknown[{n.key}]"
    if isinstance(n, E.Attr):
        return f"{_node_key(n.obj)}.{n.name}"
    if isinstance(n, E.Unary):
        return f"({n.op} {_node_key(n.arg)})"
    if isinstance(n, E.Bin):
        return f"({_node_key(n.left)} {n.op} {_node_key(n.right)})"
    if isinstance(n, E.If):
        return f"(if {_node_key(n.cond)} then {_node_key(n.then)} else {_node_key(n.other)})"
    if isinstance(n, E.SetLit):
        return "{" + ",".join(_node_key(i) for i in n.items) + "}"
    if isinstance(n, E.Quant):
        return f"{n.kind}({n.var}: {_node_key(n.body)})"
    return type(n).__name__


def _op_key(at) -> str:
    args = {k: (v if not isinstance(v, E.Node) else _node_key(v)) for k, v in sorted(at.op.args.items())
            if k != "of" or not isinstance(v, tuple)}
    return f"{at.op.op}{canonical(args)}|{'&'.join(_node_key(c) for c in at.conds)}"


def _on_key(on) -> str:
    return f"{on.event}|{','.join(on.whose)}|{_node_key(on.when)}"


# ------------------------------------------------------------------------------------------------- the analysis
class Model:
    """One z3 model of the moment an event is dealt (``checks.firing``): its seats, a solver, and its frames, events
    and bound rules, each made once — every question is asked in a scope of its own, so the same frame serves every
    question that needs one frame."""

    def __init__(self, an, exact: bool):
        self.an = an
        self.world = F.World(an.cat, an.codes, an.playable, "x." if exact else "t.", exact)
        self.solver = F.Solver(self.world, an.ctx.options.timeout_ms)
        self.frames: list = []
        self._events: dict = {}
        self._bound: dict = {}

    def frame(self, i: int):
        while len(self.frames) <= i:
            f = F.Frame(self.world, f"f{len(self.frames)}")
            self.solver.add(*f.facts)
            self.frames.append(f)
        return self.frames[i]

    def event(self, i: int, kind: str):
        key = (i, kind)
        if key not in self._events:
            self._events[key] = F.event(self.world, self.frame(i), kind, f"f{i}.{kind}")
        return self._events[key]

    def bind(self, i: int, rule, on, chars, tag: str, holder=None, ev=None):
        b = F.bind(self.world, self.frame(i), ev or self.event(i, on.event), rule, on, tag, chars, True, holder)
        b.model = self
        return b

    def bound(self, i: int, rule, on):
        """``rule`` bound at its event in frame ``i``; in frame 0 its holder sits at seat 0 (the model's seats are
        interchangeable, and a concrete holder makes the questions simpler)."""
        key = (i, rule.id, id(on))
        if key not in self._bound:
            self._bound[key] = self.bind(i, rule, on, self.an.holders[rule.id], f"f{i}.{rule.id}.{rule.on.index(on)}",
                                         0 if i == 0 else None)
        return self._bound[key]


class Analysis:
    """The family's run over one catalogue: TR005 first (which ``on`` entries can answer their event at all: the
    others take part in no other check), then TR002, TR003, TR004 and TR001 over the live entries."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.cat = cat = ctx.cat
        self.codes = Codes(cat)
        self.playable = ctx.playable()
        self.rules = [r for r in cat.skills.values() if r.has("TriggeredSkill") and r.on]
        self.holders = {r.id: F.holder_chars(cat, r, self.playable) for r in self.rules}
        self._models: dict = {}
        self.out: list = []
        self.k = 0
        self.live: dict = {}            # (rule, entry index) -> True: the entry can answer its event
        self.models: dict = {}          # (rule, entry index) -> a z3 model of the entry answering its event
        self.raisers = self._raisers()

    def model(self, exact: bool) -> Model:
        """The model with exact seats (every seat a distinct character) or light ones (``checks.firing.World``)."""
        if exact not in self._models:
            self._models[exact] = Model(self, exact)
        return self._models[exact]

    def exact_for(self, *rules) -> bool:
        return any(F.reads_character(r, r.on) for r in rules)

    def _raisers(self) -> dict:
        """event kind -> [(source, Raise)]: the rules (held by someone) and cards whose effects raise it."""
        out: dict = {}
        for r in self.cat.skills.values():
            if r.is_grant and not self.cat.sites(r.id) or not r.is_grant and not self.cat.owners(r.id):
                continue
            for x in F.raises(r, True):
                out.setdefault(x.kind, []).append((r, x))
        for c in self.cat.cards.values():
            for x in F.raises(c, False):
                out.setdefault(x.kind, []).append((c, x))
        return out

    def tag(self) -> str:
        self.k += 1
        return f"q{self.k}"

    def base(self, rule, on, dispatch: bool = True, i: int = 0, exact: bool | None = None):
        """A rule bound at its event in frame ``i``, and the labelled facts of the moment (without ``dispatch``: its
        holder may be dead)."""
        b = self.model(self.exact_for(rule) if exact is None else exact).bound(i, rule, on)
        labelled = b.ev.facts + [x for x in b.facts if dispatch or x[0] != "dispatch"]
        if on.event == "add_message" and "by_skill" in b.ev.words:
            vals = sorted({dict(x.words).get("by_skill", True) for _, x in self.raisers.get("add_message", [])})
            labelled.append(("raisers", z3.Or([b.ev.words["by_skill"] == v for v in vals])) if vals
                            else ("no_raisers", z3.BoolVal(False)))
        return b, labelled

    def ask(self, labelled, extra=(), core: bool = False, via=None):
        """Ask the model of the bound rule ``via`` (default: the light one)."""
        m = via.model if via is not None else self.model(False)
        ctx = self.ctx
        if ctx.over_budget():               # --time-budget: what was found so far is kept (checks.budget)
            raise BudgetExceeded()
        t = time.perf_counter()
        st, core = m.solver.check(labelled, extra, core)
        ctx.stats["queries"] = ctx.stats.get("queries", 0) + 1
        ctx.stats["solver_seconds"] = ctx.stats.get("solver_seconds", 0.0) + time.perf_counter() - t
        if ctx.progress:
            ctx.progress({"questions": 1})
        return st, core

    def inconclusive(self, what_zh, what_en, rules):
        from skillproof.checks.solve import Answer
        self.out.append(self.ctx.inconclusive(FAMILY, what_zh, rules, Answer("unknown", reason="timeout"), what_en))

    # ----------------------------------------------------------------------------------------------- TR005
    def never_fires(self):
        cat = self.cat
        for r in self.rules:
            if not self.holders[r.id]:
                continue                       # nobody holds it: UR001 / UR002 say so
            for i, on in enumerate(r.on):
                b, labelled = self.base(r, on)
                st, core = self.ask(labelled + [("guard", b.guard())], via=b)
                if st == "unsat":
                    st, core = self.ask(labelled + [("guard", b.guard())], core=True, via=b)
                if st == "unknown":
                    self.inconclusive(f"{r.name}能否回应{_ev(on.event)[0]}", f"whether {r.name} can answer "
                                      f"{_ev(on.event)[1]}", [r.id])
                    continue
                self.live[(r.id, i)] = st == "sat"
                if st == "sat":
                    self.models[(r.id, i)] = b.model.solver.last_model
                    continue
                ezh, een = _ev(on.event)
                wzh, wen = _whose(on)
                only = len(r.on) == 1
                because = _because(core)
                bzh = "、".join(x["zh"] for x in because) or "触发条件"
                ben = ", ".join(x["en"] for x in because) or "the guard"
                g = words_both(on.when, cat, on.event)
                self.out.append(Finding(
                    "TR005", FAMILY, "warning",
                    f"{r.label}永远不能回应{wzh}“{ezh}”（触发条件：{g['zh']}）{'，所以它从不发动' if only else ''}："
                    f"排除它的是{bzh}。",
                    key=f"TR005|{r.id}|{_on_key(on)}",
                    rules=[_ref(cat, r, "never answers", on.loc)],
                    details={"event": on.event, "whose": list(on.whose), "guard": on.text, "because": because,
                             "holders": self.holders[r.id]},
                    fix=f"改正{r.label}这条 on（{on.loc}）：它的 event、whose 或 when，或者持有它的角色。",
                    message_en=(f"{r.name} can never answer {een} ({wen}; guard: {g['en']})"
                                f"{', so it never fires' if only else ''}: ruled out by {ben}."),
                    fix_en=f"fix this on entry of {r.name} ({on.loc}): its event, whose or when, or the characters "
                           f"holding it."))

    # ----------------------------------------------------------------------------------------------- TR002
    def dead_ops(self):
        for r in self.rules:
            entries = [(i, on) for i, on in enumerate(r.on) if self.live.get((r.id, i))]
            if not entries or not r.do:
                continue
            bases = [(on, self.base(r, on)) for _, on in entries]
            found = [self.models.get((r.id, i)) for i, _ in entries]
            unbound: dict = {}
            for at in F.ops_at(r.do):
                if at.conds:
                    reachable = False
                    for (on, (b, labelled)), mdl in zip(bases, found):
                        cond = b.conds(at)
                        # the model found for the trigger may already satisfy the condition: no question then
                        if mdl is not None and z3.is_true(mdl.eval(cond, model_completion=True)):
                            reachable = True
                            break
                        st, _ = self.ask(labelled + [("guard", b.guard()), ("cond", cond)], via=b)
                        if st != "unsat":
                            reachable = True
                            break
                    if not reachable:
                        self._dead(r, at)
                        continue
                for i, (on, (b, labelled)) in enumerate(bases):
                    miss = self._unbound_words(at, on, b, labelled)
                    if miss:
                        unbound.setdefault((i, miss), []).append(at)
            for (i, miss), ats in sorted(unbound.items()):
                self._unbound(r, bases[i][0], miss, ats)

    def _dead(self, r, at):
        cat = self.cat
        czh, cen = _cond_words(cat, at.conds[-1] if len(at.conds) == 1 else _and(at.conds), r)
        ozh, oen = _op_words(r, at)
        trig = "；".join(f"{_ev(o.event)[0]}：{words_both(o.when, cat, o.event)['zh']}" for o in r.on)
        trig_en = "; ".join(f"{_ev(o.event)[1]}: {words_both(o.when, cat, o.event)['en']}" for o in r.on)
        self.out.append(Finding(
            "TR002", FAMILY, "warning",
            f"{r.label}效果中的“{ozh}”永远不会发生：它的条件（{czh}）与技能的触发（{trig}）不能同时成立。",
            key=f"TR002|dead|{r.id}|{_op_key(at)}",
            rules=[_ref(cat, r, "op ruled out", at.op.loc)] + [_ref(cat, r, "trigger", o.loc) for o in r.on],
            details={"op": at.op.op, "path": at.path, "condition": {"zh": czh, "en": cen}},
            fix=f"让{r.label}这个操作的 if（{at.op.loc}）与 on.when、whose 相容，或删掉它。",
            message_en=(f"the “{oen}” of {r.name}'s effect never happens: its condition ({cen}) cannot hold together "
                        f"with the skill's trigger ({trig_en})."),
            fix_en=f"make the if of this op of {r.name} ({at.op.loc}) agree with on.when and whose, or delete it."))

    def _unbound_words(self, at, on, b, labelled) -> tuple:
        """The players an op names that the event it answers does not bind (``target``: a card that may have none),
        where the op can happen at that event."""
        used = set()
        for arg in EF.OPS[at.op.op].args:
            v = at.op.args.get(arg.name)
            if arg.type == EF.PLAYER and isinstance(v, str):
                used.add(v)
        for c in at.conds:
            used |= F._node_players(c)
        if isinstance(at.op.args.get("n"), E.Node):
            used |= F._node_players(at.op.args["n"])
        base_words = {next((w[:-len(s)] for s in EF.SIDES if w.endswith(s)), w) for w in used}
        missing = tuple(sorted(w for w in base_words if w in EV.ALL_ROLE_NAMES and w not in on.kind.role_names))
        here = labelled + [("guard", b.guard()), ("cond", b.conds(at))]
        if missing:
            st, _ = self.ask(here, via=b)
            return missing if st != "unsat" else ()
        if "target" in base_words and "has_target" in b.ev.words:
            st, _ = self.ask(here, extra=[z3.Not(b.ev.words["has_target"])], via=b)
            return ("target",) if st == "sat" else ()
        return ()

    def _unbound(self, r, on, missing, ats):
        cat = self.cat
        ops_zh = "、".join(f"“{_op_words(r, at)[0]}”" for at in ats)
        ops_en = ", ".join(f"“{_op_words(r, at)[1]}”" for at in ats)
        ezh, een = _ev(on.event)
        nouns = EF.player_nouns(r.on)
        if missing != ("target",) or "target" not in on.kind.role_names:
            nzh = "、".join(nouns.get(w, (w, w))[0] for w in missing)
            nen = ", ".join(nouns.get(w, (w, w))[1] for w in missing)
            mzh = f"点名了{nzh}（{', '.join(missing)}），但它回应的“{ezh}”没有这名角色"
            men = f"name {nen} ({', '.join(missing)}), which {een} — an event it answers — does not bind"
            hint_zh, hint_en = "", ""
        else:
            mzh = f"点名了目标（target），但它回应的“{ezh}”可以是一张没有目标的牌"
            men = f"name the target, but {een} — the event it answers — can be a card with no target"
            hint_zh, hint_en = "；或在触发条件里要求 has_target", "; or require has_target in the guard"
        self.out.append(Finding(
            "TR002", FAMILY, "warning",
            f"{r.label}效果中的{ops_zh}{mzh}：那时这名角色是谁，事件并没有说。",
            key=f"TR002|unbound|{r.id}|{_on_key(on)}|{','.join(missing)}",
            rules=[_ref(cat, r, "trigger", on.loc)] + [_ref(cat, r, "op", at.op.loc) for at in ats],
            details={"event": on.event, "unbound": list(missing), "ops": [at.path for at in ats]},
            fix=f"只在{r.label}回应的事件所包含的角色上做这些操作，或把它回应的事件拆成几条规则{hint_zh}。",
            message_en=(f"the {ops_en} of {r.name}'s effect {men if len(ats) > 1 else men.replace('name ', 'names ', 1)}: "
                        f"the event does not say who that player is then."),
            fix_en=(f"do these ops on players of the events {r.name} answers, or split its events into rules of "
                    f"their own{hint_en}.")))

    # ----------------------------------------------------------------------------------------------- TR003
    def dead_holder(self):
        cat = self.cat
        for r in self.rules:
            if r.initial or r.has("BeforeDieSkill") or not self.holders[r.id]:
                continue
            for i, on in enumerate(r.on):
                b, labelled = self.base(r, on, dispatch=False)
                st, _ = self.ask(labelled + [("guard", b.guard()), ("dead", z3.Not(F._at(b.frame.alive, b.holder)))],
                                 via=b)
                if st == "unknown":
                    self.inconclusive(f"{r.name}能否在持有者死后发动", f"whether {r.name} fires for a dead holder", [r.id])
                    continue
                if st != "sat":
                    continue
                ezh, een = _ev(on.event)
                g = words_both(on.when, cat, on.event) if on.text.strip() not in ("", "true") else \
                    {"zh": "没有条件", "en": "none"}
                life = {"turn": ("直到回合结束", "until the turn ends"), "permanent": ("一直", "for good"),
                        "until_fired": ("直到它发动", "until it fires"),
                        "resolution": ("直到那张牌结算完", "until the card resolves")}.get(r.lifetime, ("", ""))
                givers = sorted({g.giver for g in cat.sites(r.id)})
                self.out.append(Finding(
                    "TR003", FAMILY, "warning",
                    f"{r.label}是获得的技能（非初始）而不是死亡前技能，持有者死后服务器仍会询问它：它的触发条件"
                    f"（{g['zh']}）不要求持有者存活，持有者死后（它{life[0]}都在）"
                    f"“{ezh}”时它仍会发动。",
                    key=f"TR003|{r.id}|{_on_key(on)}",
                    rules=[_ref(cat, r, "fires for a dead holder", on.loc)] + [self.ctx.ref(g, "hands it out")
                                                                              for g in givers],
                    details={"event": on.event, "lifetime": r.lifetime, "guard": on.text},
                    fix=f"在{r.label}的 on.when（{on.loc}）里加上 alive；若它本就要在死后发动，把它写成 BeforeDieSkill。",
                    message_en=(f"{r.name} is handed out (not initial) and is no BeforeDieSkill, yet the server still "
                                f"asks it once its holder is dead: its guard "
                                f"({g['en']}) does not ask for a living holder, so on "
                                f"{een} after the holder died (it is held {life[1]}) it still fires."),
                    fix_en=f"add alive to {r.name}'s on.when ({on.loc}); if it is meant to act after death, make it a "
                           f"BeforeDieSkill."))

    # ----------------------------------------------------------------------------------------------- TR004
    def order(self):
        cat = self.cat
        trig = {r.id: r for r in self.rules}
        reach: dict = {}                                  # character -> its triggered rules in list order
        for c in self.playable:
            own = [s for s in cat.characters[c].skills if s in trig]
            got = [g.id for g in self.rules if g.is_grant and c in self.holders[g.id]]
            reach[c] = own + got
        pairs: dict = {}
        for c, lst in reach.items():
            for i, a in enumerate(lst):
                for b in lst[i + 1:]:
                    pairs.setdefault((a, b), []).append(c)
        for (a, b), chars in sorted(pairs.items()):
            ra, rb = trig[a], trig[b]
            for oa in ra.on:
                for ob in rb.on:
                    if oa.event != ob.event or not oa.kind.is_event:
                        continue
                    self._pair(ra, oa, rb, ob, chars)

    def _pair(self, ra, oa, rb, ob, chars):
        cat = self.cat
        wa = [x for x in F.accesses(ra) if x.mode != "read"]
        wb = [x for x in F.accesses(rb) if x.mode != "read"]
        ga, gb = F.expr_reads(oa.when), F.expr_reads(ob.when)
        ra_ops = [x for x in F.accesses(ra) if x.mode == "read"]
        rb_ops = [x for x in F.accesses(rb) if x.mode == "read"]
        # what could interfere, in the order it is reported: one's effect and the other's guard, the two effects,
        # one's effect and what the other's effect reads (nothing: the two commute, no question is asked)
        cands = [(kind, x, y, first) for kind, xs, ys, first in (
            ("guard", wa, gb, "a"), ("guard_back", wb, ga, "b"), ("effects", wa, wb, "a"), ("reads", wa, rb_ops, "a"),
            ("reads_back", wb, ra_ops, "b")) for x in xs for y in ys if F.conflict(x, y)]
        if not cands:
            return
        t = self.tag()
        m = self.model(self.exact_for(ra, rb))
        f1 = m.frame(0)
        ev = m.event(0, oa.event)
        ba = m.bind(0, ra, oa, chars, t + "a", holder=0)
        bb = m.bind(0, rb, ob, chars, t + "b", holder=0)
        base = ev.facts + ba.facts + bb.facts
        # can both be in play for one event: each guard holding when it is asked — both at once, or one after the
        # other's change (the other frame: the same table but for what that effect changes)
        states = [[("guard", ba.guard()), ("guard", bb.guard())]]
        for k, (first, rs, o2, writes, tg) in enumerate(((ba, rb, ob, wa, "ab"), (bb, ra, oa, wb, "ba"))):
            f2 = m.frame(1 + k)
            ev2 = ev
            if any(x.res == "card_valid" for x in writes) and "card_valid" in ev.words:
                ev2 = F.Event(ev.kind, ev.roles, {**ev.words, "card_valid": z3.Bool(f"{t}{tg}.card_valid")}, [])
            b2 = m.bind(1 + k, rs, o2, chars, t + tg + "2", holder=0, ev=ev2)
            states.append([("after", f1.same_as(f2, {x.res for x in writes}))] + b2.facts +
                          [("guard", first.guard()), ("guard", b2.guard())])
        labelled = None
        unknown = False
        for extra in states:
            st, _ = self.ask(base + extra, via=ba)
            unknown = unknown or st == "unknown"
            if st == "sat":
                labelled = base + extra
                break
        if labelled is None:
            if unknown:
                self.inconclusive(f"{ra.name}与{rb.name}能否同时回应一个事件", f"whether {ra.name} and {rb.name} "
                                  f"answer one event together", [ra.id, rb.id])
            return
        found = None
        for kind, x, y, first in cands:
            b1, b2 = (ba, bb) if first == "a" else (bb, ba)
            if self._alias(labelled, b1, x, b2, y):
                found = (kind, x, y)
                break
        if not found:
            return
        kind, x, y = found
        flip = None
        if kind == "guard" and x.mode == "set" and x.res in ("face", "alive", "card_valid"):
            flip = self._guard_flip(base, ba, bb, x)
        ezh, een = _ev(oa.event)
        who = "、".join(cat.characters[c].name for c in chars)
        rzh, ren = F.RESOURCES[x.res]
        x_zh, x_en = _op_words(ra if kind in ("guard", "effects", "reads") else rb, x.at)
        names = (ra, rb) if kind in ("guard", "effects", "reads") else (rb, ra)
        if kind in ("guard", "guard_back"):
            what_zh = f"{names[0].label}的“{x_zh}”改变了{rzh}，而{names[1].label}的触发条件读它"
            what_en = f"{names[0].name}'s “{x_en}” changes the {ren}, which {names[1].name}'s guard reads"
        elif kind == "effects":
            y_zh, y_en = _op_words(rb, y.at)
            what_zh = f"{ra.label}的“{x_zh}”和{rb.label}的“{y_zh}”都改变{rzh}"
            what_en = f"{ra.name}'s “{x_en}” and {rb.name}'s “{y_en}” both change the {ren}"
        else:
            y_zh, y_en = _op_words(names[1], y.at)
            what_zh = f"{names[0].label}的“{x_zh}”改变了{rzh}，而{names[1].label}的“{y_zh}”要读它"
            what_en = f"{names[0].name}'s “{x_en}” changes the {ren}, which {names[1].name}'s “{y_en}” reads"
        if flip is not None:
            before, after = flip
            if not before and after:
                out_zh = (f"按列表顺序，{ra.label}先发动，{rb.label}随后看到改变后的{rzh}而发动；反过来，{rb.label}先被询问时"
                          f"不会发动，之后也不会再被询问这个事件")
                out_en = (f"in list order {ra.name} fires first and {rb.name} then fires on the changed {ren}; the other "
                          f"way round {rb.name}, asked first, would not fire, and is never asked about this event again")
            elif before and not after:
                out_zh = (f"按列表顺序，{ra.label}先发动，改变后{rb.label}不再发动；反过来，{rb.label}会先发动")
                out_en = (f"in list order {ra.name} fires first and {rb.name} no longer fires; the other way round "
                          f"{rb.name} would fire first")
            else:
                out_zh = f"按列表顺序{rb.label}看到的是{ra.label}改变后的{rzh}；反过来看到的是改变前的"
                out_en = f"in list order {rb.name} sees the {ren} after {ra.name} changed it; the other way round, before"
        elif kind in ("guard", "reads"):
            out_zh = f"按列表顺序{rb.label}看到的是{ra.label}改变后的{rzh}；反过来看到的是改变前的"
            out_en = f"in list order {rb.name} sees the {ren} after {ra.name} changed it; the other way round, before"
        elif kind in ("guard_back", "reads_back"):
            out_zh = (f"按列表顺序{ra.label}在{rb.label}改变{rzh}之前就已被询问；反过来，{ra.label}看到的是改变后的")
            out_en = (f"in list order {ra.name} is asked before {rb.name} changes the {ren}; the other way round it "
                      f"would see it changed")
        elif x.mode == "add" and y.mode == "remove":
            out_zh = (f"按列表顺序，{rb.label}去掉的可以是{ra.label}刚加入的（之前没有可去掉的也能去掉）；反过来，"
                      f"{rb.label}只能去掉原有的，{ra.label}加入的留下")
            out_en = (f"in list order {rb.name} may take away what {ra.name} has just added (even where there was "
                      f"nothing to take before); the other way round it takes only what was there, and what "
                      f"{ra.name} adds stays")
        elif x.mode == "remove" and y.mode == "add":
            out_zh = (f"按列表顺序，{ra.label}只能去掉原有的，{rb.label}加入的留下；反过来，{ra.label}可以去掉"
                      f"{rb.label}刚加入的")
            out_en = (f"in list order {ra.name} takes only what was there and what {rb.name} adds stays; the other "
                      f"way round {ra.name} may take away what {rb.name} has just added")
        else:
            out_zh = f"按列表顺序{rb.label}的改动留在最后；反过来留下的是{ra.label}的"
            out_en = f"in list order {rb.name}'s change is the one that stays; the other way round {ra.name}'s does"
        locs = [_ref(cat, ra, "asked first", oa.loc), _ref(cat, rb, "asked second", ob.loc)]
        if x.at is not None:
            locs.append(_ref(cat, names[0], "changes it", x.at.op.loc))
        locs += [self.ctx.ref(c, "holds both") for c in chars]
        if ra.is_grant and rb.is_grant:         # two grants: the list holds them in the order they were received
            first_zh = f"先获得的在前；以下设{ra.label}先获得"
            first_en = f"the one received first comes first; below, {ra.name} was"
        elif rb.is_grant:
            first_zh, first_en = f"角色自己的技能在获得的技能之前，{ra.label}在前", f"own skills before granted ones: {ra.name} first"
        else:
            first_zh, first_en = f"{ra.label}在前", f"{ra.name} first"
        self.out.append(Finding(
            "TR004", FAMILY, "warning",
            f"{who}的{ra.label}和{rb.label}都回应“{ezh}”，{what_zh}：结果取决于技能列表的顺序（服务器按列表顺序询问，"
            f"{first_zh}）——{out_zh}。",
            key=f"TR004|{ra.id}|{rb.id}|{oa.event}",
            rules=locs,
            details={"event": oa.event, "order": [ra.id, rb.id], "holders": list(chars), "interference": kind,
                     "resource": x.res},
            fix=f"在规则书里写明{ra.label}与{rb.label}谁先结算，或让两者的效果互不影响；规则书已写明时用 intent 接受。",
            message_en=(f"{who}'s {ra.name} and {rb.name} both answer {een}, and {what_en}: the outcome depends on the "
                        f"order of the skill list (the server asks in list order, {first_en}) — {out_en}."),
            fix_en=(f"say in the rule book whether {ra.name} or {rb.name} goes first, or make their effects "
                    f"independent; accept it with an intent where the rule book says so.")))

    def _alias(self, labelled, first, x, second, y) -> bool:
        """Can the players of two accesses be the same player (the table's resources: always)?"""
        if x.res not in F.PLAYER_RESOURCES:
            return True
        if "all" in (x.who, y.who) or "others" in (x.who, y.who):
            return True
        px = first.seat_of(x.who or "self")
        py = second.seat_of(y.who or "self")
        if px is None or py is None:
            return True
        cond = []
        if x.at is not None:
            cond.append(first.conds(x.at))
        if y.at is not None:
            cond.append(second.conds(y.at))
        st, _ = self.ask(labelled + [("alias", z3.And(px == py, *cond))], via=first)
        return st != "unsat"

    def _guard_flip(self, labelled, ba, bb, x):
        """For a boolean set by the first skill's op that the second's guard reads: can the second fire before it,
        can it fire after (the attribute replaced by the value set)?"""
        seat = ba.seat_of(x.who or "self") if x.res in F.PLAYER_RESOURCES else None
        fr = bb.frame
        if x.res == "face":
            arr, val = fr.face_up, x.value == "up"
        elif x.res == "alive":
            arr, val = fr.alive, False
        else:
            arr, val = None, False
        cond = ba.conds(x.at) if x.at is not None else z3.BoolVal(True)
        if arr is not None and seat is not None:
            subst = [(arr[s], z3.If(seat == s, z3.BoolVal(val), arr[s])) for s in range(len(arr))]
            after_guard = z3.substitute(bb.guard(), *subst)
        elif x.res == "card_valid" and "card_valid" in bb.ev.words:
            after_guard = z3.substitute(bb.guard(), (bb.ev.words["card_valid"], z3.BoolVal(False)))
        else:
            return None
        lab = labelled + [("guard", ba.guard())]
        b_st, _ = self.ask(lab + [("cond", cond), ("guard", bb.guard())], via=ba)
        a_st, _ = self.ask(lab + [("cond", cond), ("guard", after_guard)], via=ba)
        return b_st == "sat", a_st == "sat"

    # ----------------------------------------------------------------------------------------------- TR001
    def cycles(self):
        cat = self.cat
        graph: dict = {}
        for r in self.rules:
            if not self.holders[r.id]:
                continue
            for i, on in enumerate(r.on):
                if self.live.get((r.id, i)) and on.kind.is_event:
                    graph.setdefault(("event", on.event), set()).add(("rule", r.id))
            for x in F.raises(r, True):
                graph.setdefault(("rule", r.id), set()).add(("event", x.kind))
        seen = set()
        for cyc in simple_cycles(graph, MAX_CYCLE * 2):
            rules = [n[1] for n in cyc if n[0] == "rule"]
            i0 = rules.index(min(rules))
            start = cyc.index(("rule", rules[i0]))
            cyc = cyc[start:] + cyc[:start]
            steps = [(cyc[k][1], cyc[k + 1][1]) for k in range(0, len(cyc), 2)]   # (rule, event it raises)
            key = "→".join(f"{r}@{e}" for r, e in steps)
            if key in seen:
                continue
            seen.add(key)
            if any(self._bounded(cat.skills[r]) for r, _ in steps):
                continue
            got = self._cycle_sat(steps)
            if got is None:
                continue
            if got == "unknown":
                self.inconclusive(f"触发链{key}能否无限重复", f"whether the chain {key} repeats without end",
                                  [r for r, _ in steps])
                continue
            self._cycle_finding(steps, key, got)

    def _bounded(self, r) -> bool:
        """Does the rule fire at most once a turn (its guard implies `not used`, a limit, consumed, a one-shot grant)?"""
        if r.limit != "none" or r.consumed or r.lifetime in ("until_fired", "resolution"):
            return True
        for i, on in enumerate(r.on):
            if not self.live.get((r.id, i)):
                continue
            b, labelled = self.base(r, on)
            st, _ = self.ask(labelled + [("guard", b.guard()), ("used", b.used)], via=b)
            if st != "unsat":
                return False
        return True

    def _cycle_sat(self, steps, laps: int = 2):
        """Can the chain run ``laps`` times round, each step's effect raising the event the next step answers, every
        guard and every condition on the way holding? Returns (per step: the op that raises, optional?) or None."""
        cat = self.cat
        seq = steps * laps
        # every way of choosing, per step, the `on` entry that answers and the op that raises the next event
        choices = []
        for k, (rid, ev) in enumerate(seq):
            r = cat.skills[rid]
            prev_ev = seq[k - 1][1] if k else None
            ons = [o for i, o in enumerate(r.on) if self.live.get((rid, i)) and (prev_ev is None or o.event == prev_ev)]
            xs = [x for x in F.raises(r, True) if x.kind == ev]
            choices.append((r, ons, xs))
        if len(steps) == 1:
            r, ons, xs = choices[0]
            combos = [[(o, x)] * len(seq) for o in ons for x in xs]
        else:
            import itertools
            per = [[(o, x) for o in ons for x in xs] for _r, ons, xs in choices[:len(steps)]]
            combos = [list(c) * laps for c in itertools.product(*per)][:32]
        unknown = False
        for combo in combos:
            if any(o.event != seq[k - 1][1] for k, (o, _) in enumerate(combo) if k):
                continue
            st = self._chain(seq, combo)
            if st == "sat":
                return [(x, o) for o, x in combo[:len(steps)]]
            unknown = unknown or st == "unknown"
        return "unknown" if unknown else None

    def _chain(self, seq, combo) -> str:
        cat = self.cat
        labelled = []
        first: list = []
        prev = None
        for k, ((rid, _), (on, x)) in enumerate(zip(seq, combo)):
            r = cat.skills[rid]
            b, lab = self.base(r, on, i=k, exact=True)
            labelled += lab + [("guard", b.guard())]
            if x.at is not None:
                labelled.append(("cond", b.conds(x.at)))
            if prev is not None:
                pb, px = prev
                link = []
                for role, w in px.roles:
                    seat = pb.seat_of(w)
                    if seat is not None and role in b.ev.roles:
                        link.append(b.ev.roles[role] == seat)
                for w, v in px.words:
                    if w in b.ev.words:
                        link.append(b.ev.words[w] == v)
                labelled.append(("chain", z3.And(*link) if link else z3.BoolVal(True)))
            prev = (b, x)
            first.append((b, r, x))
        labelled.append(("flow", self._lap_flow(first, b.model.world)))
        st, _ = self.ask(labelled, via=b)
        return st

    def _lap_flow(self, steps, world):
        """Cards over the laps of the chain, in hands and in message areas: no player ends them with fewer than he
        began with (else the chain drains a hand or an area and ends when it is empty: ``give`` / ``take`` /
        ``discard`` raise their event only when a card moves, model/interp/ops.py; a card put into an area from a hand
        leaves the hand, a message taken out leaves the area), and each step's raising op moves a card. Two laps: a
        chain whose holders take turns (回赠 held by two players) restores the hands only every other lap."""
        n = world.n
        net = {(res, t): [] for res in ("hand", "area") for t in range(n)}
        facts = []
        for b, r, x in steps:
            for at in F.ops_at(r.do):
                o = at.op
                a = o.args
                moves = _FLOW.get(o.op, lambda a: ())(a)
                if not moves:
                    continue
                amt = a.get("n", 1)
                if o.op == "discard" and a.get("which") == "all" or not isinstance(amt, int) and amt is not None:
                    amt = z3.Int(f"{world.tag}flow{self.tag()}")
                    facts.append(amt >= 0)
                gate = b.conds(at)
                if at.optional:
                    gate = z3.And(gate, z3.Bool(f"{world.tag}flowdo{self.tag()}"))
                eff = z3.If(gate, amt, 0)
                if x.at is not None and at.path == x.at.path:
                    facts.append(z3.And(gate, eff >= 1))          # the step's event: a card moved
                for res, word, sign in moves:
                    if word in EF.PLAYER_SETS:
                        seats = list(range(n))
                    else:
                        v = b.seat_of(word)
                        if v is None:
                            continue
                        seats = [v]
                    for v in seats:
                        for t in range(n):
                            hit = z3.BoolVal(v == t) if isinstance(v, int) else (v == t)
                            net[(res, t)].append(z3.If(hit, sign * eff, 0))
        facts += [z3.Sum(terms) >= 0 for terms in net.values() if terms]
        return z3.And(*facts) if facts else z3.BoolVal(True)

    def _cycle_finding(self, steps, key, got):
        cat = self.cat
        optional = any(x.at is not None and x.at.optional for x, _ in got)
        sev = "warning" if optional else "error"
        parts_zh, parts_en, refs = [], [], []
        for (rid, ev), (x, on) in zip(steps, got):
            r = cat.skills[rid]
            ezh, een = _ev(ev)
            ozh, oen = _op_words(r, x.at) if x.at is not None else ("视为使用牌", "acts as a card")
            parts_zh.append(f"{r.label}（回应“{_ev(on.event)[0]}”）的“{ozh}”引发“{ezh}”")
            parts_en.append(f"{r.name} (answering {_ev(on.event)[1]}) does “{oen}”, which raises {een}")
            refs.append(_ref(cat, r, "trigger", on.loc))
            if x.at is not None:
                refs.append(_ref(cat, r, "raises", x.at.op.loc))
        first = cat.skills[steps[0][0]]
        tail_zh = ("链上有可以放弃的一步（“可以”或选择）：只有玩家的选择能停下它" if optional else
                   "链上每一步都必须发生：除了服务器每个结算节点至多 100 轮的保护（剩下的事件推到下一个节点），什么也停不下它")
        tail_en = ("one step may be declined (a `may` or a choice): only the players' choices stop it" if optional else
                   "every step must happen: nothing stops it but the server's guard of 100 passes per process node "
                   "(which defers the events left to the next node)")
        self.out.append(Finding(
            "TR001", FAMILY, sev,
            f"触发与效果可以无限循环：{'；'.join(parts_zh)}，又回到{first.label}。{tail_zh}。",
            key=f"TR001|{key}",
            rules=refs,
            details={"cycle": [{"rule": rid, "raises": ev, "answers": on.event} for (rid, ev), (_x, on) in
                               zip(steps, got)], "optional": optional},
            fix="打断这条链：让其中一个技能每回合只发动一次（on.when 里写 not used，或写 limit），或收窄触发条件。",
            message_en=(f"triggers and effects can loop without end: {'; '.join(parts_en)}, and back to {first.name}. "
                        f"{tail_en[0].upper() + tail_en[1:]}."),
            fix_en="break the chain: make one of its skills fire once a turn (not used in on.when, or limit), or narrow "
                   "a guard."))

    # ----------------------------------------------------------------------------------------------- all
    def run(self):
        self.never_fires()
        self.dead_ops()
        self.dead_holder()
        self.order()
        self.cycles()
        return self.out


#: where the cards an op moves come from and go to: (hand or area, player word, -1 out / +1 in) — for ``_lap_flow``
_FLOW = {
    "draw": lambda a: (("hand", a.get("who", "self"), 1),),
    "discard": lambda a: (("hand", a.get("who", "self"), -1),),
    "give": lambda a: (("hand", a.get("from", "self"), -1), ("hand", a.get("to"), 1)),
    "take": lambda a: (("hand", a.get("from"), -1), ("hand", a.get("to", "self"), 1)),
    "put_message": lambda a: ((("hand", a.get("of", "self"), -1),) if a.get("from", "hand") == "hand" else
                              (("area", a.get("of", "self"), -1),) if a.get("from") == "message_area" else ()) +
                             (("area", a.get("to", "self"), 1),),
    "remove_message": lambda a: (("area", a.get("whose", "self"), -1),) + (
        (("hand", a.get("by", "self"), 1),) if a.get("to") == "hand" else
        (("area", a.get("into"), 1),) if a.get("to") == "area" else ()),
}

#: the longest chain (in skills) looked for, how many chains at most, and how long the search for them may run
MAX_CYCLE = 6
MAX_CYCLES = 64
MAX_SEARCH = 20000


def simple_cycles(graph: dict, limit: int) -> list:
    """Every elementary cycle of a small directed graph (node -> set of successors) with at most ``limit`` nodes, each
    once, starting at its least node (nodes sort as strings): a depth-first search from each node through greater
    ones. (The graph of events and triggered skills has a few dozen nodes; networkx's import alone would cost more
    than the search.)"""
    nodes = sorted(set(graph) | {m for ms in graph.values() for m in ms}, key=str)
    order = {n: i for i, n in enumerate(nodes)}
    out = []
    steps = 0
    for start in nodes:
        s0 = order[start]
        stack = [(start, [start])]
        while stack:
            steps += 1
            if steps > MAX_SEARCH or len(out) >= MAX_CYCLES:
                return out              # a catalogue with this many chains: the first ones, always the same
            node, path = stack.pop()
            for nxt in sorted(graph.get(node, ()), key=str, reverse=True):
                if nxt == start:
                    out.append(list(path))
                elif order[nxt] > s0 and nxt not in path and len(path) < limit:
                    stack.append((nxt, path + [nxt]))
    return out


def _and(conds):
    out = conds[0]
    for c in conds[1:]:
        out = E.Bin("and", out, c, type="bool")
    return out


#: every analysis run in this process, kept alive: its z3 terms are never freed, so that no term of a later family of
#: the lane (which shares z3's context) takes a freed term's place at a moment the garbage collector chose — the
#: witnesses of the families after this one stay the same whatever else the process did (tests/test_witness_same.py)
_KEEP: list = []


def run(ctx):
    an = Analysis(ctx)
    _KEEP.append(an)
    return an.run()
