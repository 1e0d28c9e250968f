"""Step-by-step narration of the reference interpreter's reasoning on a concrete state.

``narrate(cat, state, question)`` walks the same clauses as ``interpreter.decide`` for one question (the
dict form witnesses and scenario files use) and records each step that matters — which rule at which
position of the player's skill list did what, and the catalogue line it comes from:

    3. 变则通·宣言 (A=截获, B=破译) at position 3 is a must-conversion of 截获 whose targets lack 误导: vetoed
       [model/catalogue/characters/chen_da_er.toml:39]

The final answer is the interpreter's own (``interpreter.decide``); ``Trace.agrees`` says whether the
narrated walk reached the same answer (the tests hold it to that). ``origin(cat, state)`` tells how the
state arises in a real game: who handed out each granted skill, through which gives site, and what made
the player's skills invalid.

English sentences, Chinese names: the names are the catalogue's, the sentences are for reading next to
the rule text. Nothing here knows about z3.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import expr as E
from . import interpreter as I
from .catalogue import Catalogue, Loc, Ref
from .state import SkillInst, State

GROUP_EN = {"SendMessageDirectionSkill": "direction", "SendMessageCanLockSkill": "lock",
            "SendMessageCardSkill": "card"}
PHASE_EN = {"skip_fight": "争夺阶段", "skip_dying": "濒死求澄清"}


@dataclass
class Step:
    text: str
    rule: str | None = None          # catalogue id of the rule (or card / character) behind the step
    loc: Loc | None = None
    position: int | None = None      # 1-based position in the player's skill list
    decisive: bool = False           # this step settles the answer

    def to_dict(self) -> dict:
        d: dict = {"text": self.text}
        if self.rule:
            d["rule"] = self.rule
        if self.loc:
            d["file"], d["line"] = self.loc.file, self.loc.line
        if self.position is not None:
            d["position"] = self.position
        if self.decisive:
            d["decisive"] = True
        return d


@dataclass
class Trace:
    question: dict
    answer: dict                     # interpreter.decide's answer
    steps: list = field(default_factory=list)
    conclusion: str = ""
    agrees: bool = True              # the narrated walk reached the interpreter's answer

    def lines(self, indent: str = "  ") -> list[str]:
        out = []
        for i, s in enumerate(self.steps, 1):
            where = f"  [{s.loc}]" if s.loc else ""
            out.append(f"{indent}{i}. {s.text}{where}")
        if self.conclusion:
            out.append(f"{indent}⇒ {self.conclusion}")
        return out

    def to_dict(self) -> dict:
        return {"question": self.question, "answer": self.answer, "steps": [s.to_dict() for s in self.steps],
                "conclusion": self.conclusion}

    def rules(self, decisive_only: bool = False) -> list[str]:
        seen = []
        for s in self.steps:
            if s.rule and (s.decisive or not decisive_only) and s.rule not in seen:
                seen.append(s.rule)
        return seen


# ------------------------------------------------------------------------------------------ helpers
def card(cat: Catalogue, cid) -> str:
    if cid is None:
        return "any card"
    c = cat.cards.get(cid)
    return c.name if c else str(cid)


def value(cat: Catalogue, v) -> str:
    if isinstance(v, dict):
        return "(" + ", ".join(f"{k} = {value(cat, x)}" for k, x in v.items()) + ")"
    if isinstance(v, (list, tuple, set, frozenset)):
        items = list(v)
        try:
            items = sorted(items)
        except TypeError:             # not comparable (the skill list after a turn end): kept in order
            pass
        return "{" + ", ".join(value(cat, x) for x in items) + "}"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, str):
        if v in cat.cards or v in cat.characters or v in cat.skills:
            return cat.name_of(v)
        return v
    if v is None:
        return "none"
    return str(v)


def inst_label(cat: Catalogue, inst: SkillInst) -> str:
    r = cat.skills.get(inst.rule)
    name = r.name if r else inst.rule
    if inst.args:
        name += " (" + ", ".join(f"{k}={value(cat, v)}" for k, v in inst.args.items()) + ")"
    return name


def seat_name(cat: Catalogue, state: State, seat: int) -> str:
    s = state.seats[seat]
    ch = cat.characters.get(s.character)
    return f"{ch.name if ch else s.character} (seat {seat})"


def _env(cat, state, seat, inst: SkillInst | None = None, **extra) -> I.Env:
    g = {"message": state.message, "message_dir": state.message_dir, "message_lockable": state.message_lockable}
    g.update(extra)
    return I.Env(cat, state, {"self": seat}, dict(inst.args) if inst else {}, g, used=bool(inst and inst.used))


def _text(node) -> str:
    return pretty(node) if node is not None else "false"


_PREC = {"or": 1, "and": 2, "not": 3, "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4, "in": 4, "notin": 4,
         "+": 5, "-": 5, "*": 6}


def pretty(n, parent: int = 0) -> str:
    """An expression in the catalogue's language, with only the parentheses precedence needs."""
    if isinstance(n, E.Lambda):
        return f"{n.var}: {pretty(n.body)}"
    if isinstance(n, E.Bin):
        p = _PREC[n.op]
        op = "not in" if n.op == "notin" else n.op
        s = f"{pretty(n.left, p)} {op} {pretty(n.right, p + 1)}"
        return f"({s})" if p < parent else s
    if isinstance(n, E.Unary):
        if n.op == "not":
            s = f"not {pretty(n.arg, 3)}"
            return f"({s})" if 3 < parent else s
        return f"-{pretty(n.arg, 7)}"
    if isinstance(n, E.If):
        s = f"if {pretty(n.cond)} then {pretty(n.then)} else {pretty(n.other)}"
        return f"({s})" if parent else s
    if isinstance(n, E.SetLit):
        return "{" + ", ".join(pretty(i) for i in n.items) + "}"
    if isinstance(n, E.Quant):
        return f"{n.kind}({n.var}: {pretty(n.body)})"
    return E.to_text(n)


def _ref(cat, ref: Ref, inst: SkillInst):
    if ref.kind == "any":
        return None
    if ref.kind == "card":
        return ref.value
    return inst.args.get(ref.value)


# ======================================================================================= narrators
def narrate(cat: Catalogue, state: State, question: dict) -> Trace:
    """The interpreter's reasoning for ``question`` on ``state`` (see ``interpreter.decide``)."""
    answer = I.decide(cat, state, question)
    d = question["decision"]
    seat = question.get("seat", 0)
    fn = _NARRATORS.get(d)
    tr = Trace(question, answer)
    if fn is None:
        tr.conclusion = ", ".join(f"{k} = {value(cat, v)}" for k, v in answer.items())
        return tr
    fn(cat, state, seat, question, tr)
    return tr


def _conversion_steps(cat, state, seat, actual, declared, only_must, tr: Trace):
    s = state.seats[seat]
    a, b = card(cat, actual), card(cat, declared)
    ok = actual == declared
    via = None
    via_must = False
    if ok:
        tr.steps.append(Step(f"the card is a {a} declared as itself: it can be played as it is, unless a "
                             f"must-conversion of {a} forbids it"))
    else:
        tr.steps.append(Step(f"the card is a {a} declared as {b}: only a conversion skill can allow that"))
    seen = False
    for i, inst in enumerate(s.skills):
        rule = cat.skills[inst.rule]
        if rule.convert is None:
            continue
        seen = True
        pos = i + 1
        lab = inst_label(cat, inst)
        loc = rule.at("convert")
        if "ConvertCardSkill" not in I.live_kinds(cat, inst):
            tr.steps.append(Step(f"{lab} at position {pos} is invalidated (wrapped in an InvalidSkill): it converts "
                                 f"nothing", rule.id, rule.loc, pos))
            continue
        if not s.face_up and not I.face_down_applies(cat, rule):
            key = "face_down_converts" if rule.initial else "face_down_grant_converts"
            tr.steps.append(Step(f"{lab} at position {pos} is {'an initial' if rule.initial else 'a granted'} skill "
                                 f"of a face-down role: the server skips it ({key} = false)", rule.id,
                                 cat.rules.at(key) or rule.loc, pos))
            continue
        source = _ref(cat, rule.convert.source, inst)
        if source is not None and source != actual:
            tr.steps.append(Step(f"{lab} at position {pos} converts {card(cat, source)}, not {a}: does not apply",
                                 rule.id, loc, pos))
            continue
        targets = [_ref(cat, t, inst) for t in rule.convert.targets]
        tnames = "/".join(card(cat, t) for t in targets)
        must = rule.convert.must
        kind = "must-conversion" if must else "optional conversion"
        if declared not in targets:
            if must:
                for st_ in tr.steps:
                    st_.decisive = False
                tr.steps.append(Step(f"{lab} at position {pos} is a must-conversion of {card(cat, source)} whose "
                                     f"targets ({tnames}) lack {b}: vetoed — the card cannot be used as {b}",
                                     rule.id, loc, pos, decisive=True))
                return False, None, True
            tr.steps.append(Step(f"{lab} at position {pos} is an optional conversion to {tnames}, not {b}: no help",
                                 rule.id, loc, pos))
            continue
        if only_must and not must:
            tr.steps.append(Step(f"{lab} at position {pos} is optional and only must-conversions count here: "
                                 f"ignored", rule.id, loc, pos))
            continue
        ok = True
        if declared != actual or must:
            if via is None or not via_must or must:
                why = ("the first conversion that applies" if via is None else
                       "a must-conversion beats an optional one" if must and not via_must else
                       "of two conversions of the same strength the later acquired wins")
                art = "a" if must else "an"
                tr.steps.append(Step(f"{lab} at position {pos} is {art} {kind} of {card(cat, source)} to {tnames}: "
                                     f"allows it, and so far it is the conversion that fires ({why})", rule.id, loc,
                                     pos, decisive=True))
                via, via_must = i, must
            else:
                tr.steps.append(Step(f"{lab} at position {pos} is an optional conversion of {card(cat, source)} to "
                                     f"{tnames}: allowed, but the must-conversion at position {via + 1} fires instead",
                                     rule.id, loc, pos))
        else:
            tr.steps.append(Step(f"{lab} at position {pos} may turn {a} into {tnames}; declared as itself, no "
                                 f"conversion is needed", rule.id, loc, pos))
    for st_ in tr.steps:                       # only the conversion that finally fires decides
        if st_.decisive and st_.position is not None and "so far it is" in st_.text:
            if st_.position - 1 != via:
                st_.decisive = False
            else:
                st_.text = st_.text.replace("so far it is the conversion that fires", "it is the conversion that fires")
    if not seen:
        tr.steps.append(Step(f"{seat_name(cat, state, seat)} holds no conversion skill"))
    if not ok:
        tr.steps.append(Step(f"no conversion skill lets a {a} be used as {b}", decisive=True))
    return ok, via, False


def _n_conversion(cat, state, seat, q, tr: Trace):
    ok, via, vetoed = _conversion_steps(cat, state, seat, q["actual"], q["declared"], q.get("only_must", False), tr)
    a = tr.answer
    tr.agrees = (a["ok"], a["via_index"]) == (ok, via)
    fires = f"; {cat.skills[a['via']].name} fires" if a.get("via") else ""
    tr.conclusion = (f"{card(cat, q['actual'])} {'can' if a['ok'] else 'cannot'} be used as "
                     f"{card(cat, q['declared'])}{fires}")


def _ban_steps(cat, state, seat, declared, tr: Trace) -> bool:
    s = state.seats[seat]
    banned = False
    for i, inst in enumerate(s.skills):
        rule = cat.skills[inst.rule]
        if rule.ban is None:
            continue
        pos = i + 1
        lab = inst_label(cat, inst)
        src = _giver_text(cat, state, inst)
        if "CannotPlayCard" not in I.live_kinds(cat, inst):
            tr.steps.append(Step(f"{lab}{src} at position {pos} is invalidated: bans nothing", rule.id, rule.loc, pos))
            continue
        if I.ban_all(rule, inst):
            tr.steps.append(Step(f"{lab}{src} at position {pos} bans every card: {card(cat, declared)} is banned",
                                 rule.id, rule.at("ban"), pos, decisive=True))
            banned = True
        elif declared in I.ban_cards(rule, inst):
            tr.steps.append(Step(f"{lab}{src} at position {pos} bans {value(cat, I.ban_cards(rule, inst))}, which "
                                 f"includes the declared {card(cat, declared)}: banned (bans look at the declared "
                                 f"type)", rule.id, rule.at("ban"), pos, decisive=True))
            banned = True
        else:
            tr.steps.append(Step(f"{lab}{src} at position {pos} bans {value(cat, I.ban_cards(rule, inst))}, not "
                                 f"{card(cat, declared)}", rule.id, rule.at("ban"), pos))
    if not any(cat.skills[i.rule].ban is not None for i in s.skills):
        tr.steps.append(Step(f"{seat_name(cat, state, seat)} holds no CannotPlayCard: nothing is banned"))
    return banned


def _giver_text(cat, state, inst: SkillInst) -> str:
    if inst.site is None:
        return ""
    giver, _, _ = inst.site.partition("#")
    who = ""
    if inst.giver is not None and 0 <= inst.giver < len(state.seats):
        who = cat.name_of(state.seats[inst.giver].character)
    if giver in cat.cards:
        return f" from {cat.name_of(giver)}" + (f" (played by {who})" if who else "")
    return f" from {who + chr(39) + 's ' if who else ''}{cat.name_of(giver)}"


def _n_banned(cat, state, seat, q, tr: Trace):
    b = _ban_steps(cat, state, seat, q["declared"], tr)
    tr.agrees = b == tr.answer["banned"]
    tr.conclusion = f"{card(cat, q['declared'])} is {'banned' if tr.answer['banned'] else 'not banned'}"


def _n_can_play(cat, state, seat, q, tr: Trace):
    ok, via, _ = _conversion_steps(cat, state, seat, q["actual"], q["declared"], False, tr)
    b = _ban_steps(cat, state, seat, q["declared"], tr)
    now = _usable_step(cat, state, seat, q["declared"], tr)
    tr.agrees = (ok and not b and now) == tr.answer["can_play"] and b == tr.answer["banned"]
    a, d = card(cat, q["actual"]), card(cat, q["declared"])
    if tr.answer["can_play"]:
        tr.conclusion = f"the {a} reaches play as {d}"
    elif not ok:
        tr.conclusion = f"the {a} cannot be played as {d} (no conversion allows it)"
    elif b:
        tr.conclusion = f"the {a} could be used as {d}, but {d} is banned"
    else:
        tr.conclusion = f"the {a} could be used as {d}, but not now: {d} is not used in {_window_zh(state)}" + \
            ("" if state.window not in cat.cards[q["declared"]].windows else " by this player")


def _window_zh(state: State) -> str:
    from .turn import WINDOWS
    return WINDOWS[state.window].zh if state.window in WINDOWS else "this window"


def _windows_text(windows: dict) -> str:
    """``{fight: anyone}`` as "争夺阶段 (any player)"."""
    from .turn import ACTORS, WINDOWS
    return ", ".join(f"{WINDOWS[w].zh} ({ACTORS[a][1] if a in ACTORS else a})" for w, a in windows.items()) \
        or "no window"


def _usable_step(cat, state, seat, declared, tr: Trace) -> bool:
    """interpreter.card_usable, told: may the player use a card of the declared type in this window?"""
    c = cat.cards.get(declared)
    if state.window is None:
        return True                         # an untimed state is every moment: not a step of its own
    now = I.card_usable(cat, state, seat, declared)
    where = _windows_text(c.windows) if c is not None else "nowhere"
    tr.steps.append(Step(f"a {card(cat, declared)} is used in {where}; now it is {_window_zh(state)}: "
                         + ("this player may use it now" if now else "not usable by this player now"),
                         declared, c.loc if c is not None else None, decisive=not now))
    return now


def _n_receive(cat, state, seat, q, tr: Trace):
    s = state.seats[seat]
    must = cannot = False
    mr = cat.rules.must_receive
    if state.sender == seat and "sender" in mr:
        tr.steps.append(Step(f"{seat_name(cat, state, seat)} sent the message: the sender must receive it",
                             decisive=True))
        must = True
    if state.turn == seat and "turn" in mr and not must:
        tr.steps.append(Step(f"it is {seat_name(cat, state, seat)}'s turn: the turn player must receive it "
                             f"(must_receive)", None, cat.rules.at("must_receive"), decisive=True))
        must = True
    if s.locked and "locked" in mr:
        tr.steps.append(Step(f"{seat_name(cat, state, seat)} is locked: a locked player must receive",
                             decisive=True))
        must = True
    for i, inst in enumerate(s.skills):
        rule = cat.skills[inst.rule]
        if rule.receive is None:
            continue
        pos = i + 1
        lab = inst_label(cat, inst) + _giver_text(cat, state, inst)
        if "MustReceiveMessage" not in I.live_kinds(cat, inst):
            tr.steps.append(Step(f"{lab} at position {pos} is invalidated: no effect", rule.id, rule.loc, pos))
            continue
        env = _env(cat, state, seat, inst)
        m = bool(I.evaluate(rule.receive.must, env))
        c = bool(I.evaluate(rule.receive.cannot, env))
        tr.steps.append(Step(f"{lab} at position {pos}: must = `{_text(rule.receive.must)}` → {value(cat, m)}, "
                             f"cannot = `{_text(rule.receive.cannot)}` → {value(cat, c)}", rule.id,
                             rule.at("receive"), pos, decisive=m or c))
        must, cannot = must or m, cannot or c
    if must and cannot:
        win = "must" if cat.rules.must_beats_cannot else "cannot"
        tr.steps.append(Step(f"must and cannot both hold: {win} wins (must_beats_cannot = "
                             f"{str(cat.rules.must_beats_cannot).lower()})", None,
                             cat.rules.at("must_beats_cannot"), decisive=True))
        res = win
    else:
        res = "must" if must else ("cannot" if cannot else "free")
        if res == "free":
            tr.steps.append(Step("nothing obliges or forbids receiving: the player may choose"))
    tr.agrees = res == tr.answer["receive"] and (must, cannot) == (tr.answer["must"], tr.answer["cannot"])
    tr.conclusion = {"must": "must receive the message", "cannot": "cannot receive the message",
                     "free": "may choose whether to receive"}[tr.answer["receive"]]


_DEFAULT_SEND_TEXT = {
    "SendMessageDirectionSkill": "the direction printed on the card (message_dir)",
    "SendMessageCanLockSkill": "at most one lock, and only if the card has a lock mark",
    "SendMessageCardSkill": "any card offered",
}


def _n_send(cat, state, seat, q, tr: Trace):
    g = q["group"]
    s = state.seats[seat]
    found = None
    for i, inst in enumerate(s.skills):
        rule = cat.skills[inst.rule]
        if g not in rule.closure:
            continue
        pos = i + 1
        lab = inst_label(cat, inst)
        if g not in I.live_kinds(cat, inst):
            tr.steps.append(Step(f"{lab} at position {pos} is invalidated: no longer a {g}, it does not count",
                                 rule.id, rule.loc, pos))
            continue
        if found is None:
            tr.steps.append(Step(f"{lab} at position {pos} is a {g}", rule.id, rule.at("send"), pos))
        else:
            tr.steps.append(Step(f"{lab} at position {pos} is a {g} acquired later than "
                                 f"{inst_label(cat, s.skills[found])}: it overrides it (the later one wins)",
                                 rule.id, rule.at("send"), pos))
        found = i
    if found is None:
        tr.steps.append(Step(f"no {g} is live: the default rule is in force — {_DEFAULT_SEND_TEXT[g]}",
                             decisive=True))
    else:
        inst = s.skills[found]
        rule = cat.skills[inst.rule]
        tr.steps.append(Step(f"in force: {inst_label(cat, inst)} — `{_text(rule.send.rule)}`", rule.id,
                             rule.at("send"), found + 1, decisive=True))
    want = tr.answer["in_force_index"]
    tr.agrees = want == found
    name = cat.skills[tr.answer["in_force"]].name if tr.answer.get("in_force") else "the default rule"
    tr.conclusion = f"{GROUP_EN.get(g, g)} rule in force: {name}"
    if "allowed" in tr.answer:
        d, n = q["dir"], q.get("lock_count", 0)
        tr.conclusion += (f"; sending {d} locking {n} is {'allowed' if tr.answer['allowed'] else 'not allowed'}")


def _may_play_steps(cat, state, seat, tr: Trace) -> bool:
    s = state.seats[seat]
    if s.hand_count == 0:
        tr.steps.append(Step(f"{seat_name(cat, state, seat)} holds no cards: cannot play a card"))
        return False
    for i, inst in enumerate(s.skills):
        rule = cat.skills[inst.rule]
        if rule.ban is not None and "CannotPlayCard" in I.live_kinds(cat, inst) and I.ban_all(rule, inst):
            tr.steps.append(Step(f"holds {s.hand_count} card(s), but {inst_label(cat, inst)}"
                                 f"{_giver_text(cat, state, inst)} at position {i + 1} bans every card",
                                 rule.id, rule.at("ban"), i + 1, decisive=True))
            return False
    tr.steps.append(Step(f"holds {s.hand_count} card(s) and not every card is banned: may play a card — "
                         f"the player is asked", decisive=True))
    return True


def _skip_steps(cat, state, seat, phase, tr: Trace) -> bool:
    s = state.seats[seat]
    if _may_play_steps(cat, state, seat, tr):
        return False
    parts = getattr(cat.rules, f"skip_{phase}")
    if "skills_gone" in parts and I._skills_gone(cat, state, seat):
        inv = [inst_label(cat, i) for i in s.skills if i.invalid]
        why = f"every initial skill is invalidated ({', '.join(inv)})" if inv else "the player has no initial skill left"
        tr.steps.append(Step(f"{why} and no granted ActiveSkill is live: counts as having no skill — skipped",
                             decisive=True))
        return True
    ch = cat.characters.get(s.character)
    if not s.ever_face_up:
        tr.steps.append(Step(f"{ch.name if ch else s.character} is a hidden role never face up: might use a skill "
                             f"(the server must not reveal the role) — asked", s.character,
                             ch.loc if ch else None, decisive=True))
        return False
    usable = False
    for i, inst in enumerate(s.skills):
        rule = cat.skills[inst.rule]
        live = I.live_kinds(cat, inst)
        if "ActiveSkill" not in rule.closure:
            continue
        pos = i + 1
        lab = inst_label(cat, inst)
        if "ActiveSkill" not in live:
            tr.steps.append(Step(f"{lab} at position {pos} is invalidated", rule.id, rule.loc, pos))
            continue
        if "can_use" in parts:
            cond = getattr(rule, phase)
            ok = cond is not None and bool(I.evaluate(cond, _env(cat, state, seat, inst)))
            tr.steps.append(Step(f"{lab} at position {pos} is an ActiveSkill; usable in "
                                 f"{'争夺阶段' if phase == 'fight' else '濒死求澄清'} "
                                 f"(`{_text(cond)}`) → {value(cat, ok)}", rule.id, rule.at(phase), pos,
                                 decisive=ok))
        else:
            ok = "MainPhaseSkill" not in live
            tr.steps.append(Step(f"{lab} at position {pos} is " +
                                 ("an ActiveSkill that is not a MainPhaseSkill: the server asks (it does not "
                                  "consult the skill's condition)" if ok else
                                  "a MainPhaseSkill: does not count in 濒死求澄清"), rule.id, rule.loc, pos,
                                 decisive=ok))
        usable = usable or ok
    if not usable:
        tr.steps.append(Step(f"no card to play and no skill that counts in {'争夺阶段' if phase == 'fight' else '濒死求澄清'}"
                             f": skipped", decisive=True))
    return not usable


def _n_skip(cat, state, seat, q, tr: Trace):
    phase = "fight" if q["decision"] == "skip_fight" else "dying"
    skip = _skip_steps(cat, state, seat, phase, tr)
    tr.agrees = skip == tr.answer["skip"]
    zh = PHASE_EN[q["decision"]]
    tr.conclusion = f"{'skipped' if tr.answer['skip'] else 'asked'} in {zh}"
    could = tr.answer.get("could_act")
    if could is not None:
        tr.conclusion += (f" (and in fact {'could' if could else 'could not'} act: "
                          f"{_could_text(cat, state, seat, phase)})")


def _could_text(cat, state, seat, phase) -> str:
    s = state.seats[seat]
    usable = [inst_label(cat, i) for i in s.skills
              if I.usable(cat, state, seat, i, phase)]
    if usable:
        return "usable skill " + ", ".join(usable)
    cards_ = [c.name for c in cat.cards.values() if phase in c.phases and not I.banned(cat, state, seat, c.id)]
    if s.hand_count > 0 and cards_:
        return "may play " + "/".join(cards_)
    if s.hand_count > 0:
        return "every card of the phase is banned, and no skill is usable"
    return "no cards and no usable skill"


def _n_draw(cat, state, seat, q, tr: Trace):
    count = cat.rules.draw_base
    tr.steps.append(Step(f"the draw phase starts from draw_base = {count}", None, cat.rules.at("draw_base")))
    for i, inst in enumerate(state.seats[seat].skills):
        rule = cat.skills[inst.rule]
        if rule.draw is None:
            continue
        pos = i + 1
        lab = inst_label(cat, inst)
        if "ChangeDrawCardCountSkill" not in I.live_kinds(cat, inst):
            tr.steps.append(Step(f"{lab} at position {pos} is invalidated: no change", rule.id, rule.loc, pos))
            continue
        new = int(I.evaluate(rule.draw, _env(cat, state, seat, inst, count=count)))
        tr.steps.append(Step(f"{lab} at position {pos}: `{_text(rule.draw)}` with count = {count} → {new}",
                             rule.id, rule.at("draw"), pos, decisive=new != count))
        count = new
    tr.agrees = count == tr.answer["draw"]
    tr.conclusion = f"draws {tr.answer['draw']} card(s)"


def _n_holds(cat, state, seat, q, tr: Trace):
    rid = q["rule"]
    r = cat.skills.get(rid)
    insts = [(i, x) for i, x in enumerate(state.seats[seat].skills) if x.rule == rid]
    for i, x in insts:
        tr.steps.append(Step(f"{inst_label(cat, x)} at position {i + 1}" + (" (invalidated)" if x.invalid else ""),
                             rid, r.loc if r else None, i + 1))
    if not insts:
        tr.steps.append(Step(f"{seat_name(cat, state, seat)} does not hold {r.name if r else rid}"))
    a = tr.answer
    tr.conclusion = (f"{'holds' if a['holds'] else 'does not hold'} {r.name if r else rid}"
                     + (", live" if a["live"] else (", invalidated" if a["holds"] else "")))


def _n_reachable(cat, state, seat, q, tr: Trace):
    for w in tr.answer["why_not"]:
        tr.steps.append(Step(w, decisive=True))
    tr.conclusion = "a game under the catalogue can reach this state" if tr.answer["reachable"] else \
        "no game under the catalogue reaches this state"


def narrate_usable(cat: Catalogue, state: State, seat: int, rid: str, phase: str | None) -> Trace:
    """Can ``seat`` use the ActiveSkill ``rid`` now (its canUse for 争夺阶段, its condition while someone is
    dying)? Not a decide() question: the answer is reported as ``{"usable": bool}``."""
    rule = cat.skills[rid]
    tr = Trace({"decision": "usable", "seat": seat, "rule": rid, "phase": phase}, {"usable": False})
    phases = [phase] if phase else ["fight", "dying"]
    insts = [(i, x) for i, x in enumerate(state.seats[seat].skills) if x.rule == rid]
    if not insts:
        tr.steps.append(Step(f"{seat_name(cat, state, seat)} does not hold {rule.name}", rid, rule.loc))
    in_window = True
    if state.window is not None:
        from .trace import in_window as in_win
        from .turn import WINDOWS
        wins = {w: a for w, a in rule.windows.items() if phase is None or w == phase}
        in_window = in_win(state, seat, wins)
        phases = [state.window] if state.window in ("fight", "dying") else []
        asked = f" (asked about {WINDOWS[phase].zh})" if phase in WINDOWS else ""
        tr.steps.append(Step(f"{rule.name} is used in {_windows_text(rule.windows)}{asked}; now it is "
                             f"{_window_zh(state)}: "
                             + ("a moment it may be used by this player" if in_window else "not a moment it is used"),
                             rid, rule.at("windows"), decisive=not in_window))
    usable = False
    for i, inst in insts:
        if "ActiveSkill" not in I.live_kinds(cat, inst):
            tr.steps.append(Step(f"{inst_label(cat, inst)} at position {i + 1} is invalidated: cannot be used",
                                 rid, rule.loc, i + 1, decisive=True))
            continue
        if not phases:
            usable = usable or in_window
        for p in phases:
            cond = rule.fight if p == "fight" else rule.dying
            ok = cond is not None and bool(I.evaluate(cond, _env(cat, state, seat, inst)))
            where = "in 争夺阶段" if p == "fight" else "while someone is dying"
            tr.steps.append(Step(f"{inst_label(cat, inst)} at position {i + 1}: usable {where} when "
                                 f"`{_text(cond)}` → {value(cat, ok)}", rid, rule.at(p), i + 1, decisive=ok))
            usable = usable or (ok and in_window)
    tr.answer = {"usable": usable}
    tr.conclusion = f"{rule.name} {'can' if usable else 'cannot'} be used" + \
        (f" now ({_window_zh(state)})" if state.window is not None else "")
    return tr


def _seats_text(cat, state, seats) -> str:
    return "{" + ", ".join(seat_name(cat, state, i) for i in sorted(seats)) + "}" if seats else "nobody"


def _n_result(cat, state, seat, q, tr: Trace):
    st = state.copy()
    if "turn" in q:
        st.turn = q["turn"]
    kind = q.get("kind", "result")
    kname = "WinSkill" if kind == "win" else "ChangeGameResultSkill"
    picks = q.get("picks") or {}
    declared, winners = set(q.get("declared", ())), set(q.get("winners", ()))
    what = "declaring victory (WinSkill)" if kind == "win" else "changing the game result (ChangeGameResultSkill)"
    tr.steps.append(Step(f"skills {what} are applied round the table from {seat_name(cat, st, st.turn)}'s turn, "
                         f"starting with declared winners {_seats_text(cat, st, declared)} and winners "
                         f"{_seats_text(cat, st, winners)}"))
    order = I.table_order(st, q.get("seating"))          # round the table from whose turn (its seating)
    for s_i in order:
        s = st.seats[s_i]
        for si, inst in enumerate(s.skills):
            rule = cat.skills[inst.rule]
            if kname not in I.live_kinds(cat, inst):
                continue
            if not s.alive and rule.initial:
                tr.steps.append(Step(f"{seat_name(cat, st, s_i)}'s {rule.name} is skipped: its owner is dead (only a "
                                     f"granted skill acts after death)", rule.id, rule.loc, si + 1))
                continue
            for ei, eff in enumerate(getattr(rule, kind)):
                before = (set(declared), set(winners))
                I.apply_effect(cat, st, s_i, inst, eff, declared, winners, picks.get(f"{s_i}/{si}/{ei}"), order)
                if (declared, winners) == before:
                    tr.steps.append(Step(f"{seat_name(cat, st, s_i)}'s {rule.name} (effect {ei + 1}): no change "
                                         f"(`{_text(eff.when)}`)", rule.id, eff.loc, si + 1))
                else:
                    tr.steps.append(Step(f"{seat_name(cat, st, s_i)}'s {rule.name} (effect {ei + 1}): declared "
                                         f"{_seats_text(cat, st, before[0])} → {_seats_text(cat, st, declared)}, "
                                         f"winners {_seats_text(cat, st, before[1])} → {_seats_text(cat, st, winners)}",
                                         rule.id, eff.loc, si + 1, decisive=True))
    a = tr.answer
    tr.agrees = (sorted(declared), sorted(winners)) == (a["declared"], a["winners"])
    tr.conclusion = (f"declared winners {_seats_text(cat, st, a['declared'])}; winners "
                     f"{_seats_text(cat, st, a['winners'])}")


def _n_resolves(cat, state, seat, q, tr: Trace):
    d = q["declared"]
    a = tr.answer
    via = a.get("via")
    if a["resolves"] and via is None:
        for actual in cat.cards:
            if I.can_play(cat, state, seat, actual, d):
                sub = Trace({"decision": "can_play", "seat": seat, "actual": actual, "declared": d},
                            I.decide(cat, state, {"decision": "can_play", "seat": seat, "actual": actual, "declared": d}))
                _n_can_play(cat, state, seat, sub.question, sub)
                tr.steps.extend(sub.steps)
                tr.conclusion = f"{card(cat, d)}'s effect happens: {sub.conclusion}"
                return
    for pos, inst in enumerate(state.seats[seat].skills, 1):
        rule = cat.skills[inst.rule]
        p = rule.plays
        if p is None or p.card_of != "none" or d not in p.cards:
            continue
        bans = "it consults the player's bans" if p.checks_bans else "it does not consult bans"
        tr.steps.append(Step(f"{inst_label(cat, inst)} at position {pos} acts as {card(cat, d)} with no card; {bans}"
                             + (" (invalidated)" if inst.invalid else ""), rule.id, p.loc, pos,
                             decisive=inst.rule == via))
    if a["resolves"]:
        tr.conclusion = f"{card(cat, d)}'s effect happens through {cat.name_of(via)}"
    else:
        b = _ban_steps(cat, state, seat, d, tr)
        tr.conclusion = f"no card or skill of the player puts {card(cat, d)}'s effect into play now" + \
            (" (it is banned)" if b else "")


def _n_fires(cat, state, seat, q, tr: Trace):
    rule = cat.skills[q["rule"]]
    f = rule.fires
    for pos, inst in enumerate(state.seats[seat].skills, 1):
        if inst.rule != rule.id or f is None:
            continue
        from .turn import WINDOWS
        when = bool(I.evaluate(f.when, _env(cat, state, seat, inst)))
        win = state.window is None or state.window in f.at
        tr.steps.append(Step(f"{inst_label(cat, inst)} at position {pos} fires in "
                             f"{'/'.join(WINDOWS[w].zh for w in f.at)} when `{_text(f.when)}` → "
                             f"{'yes' if when else 'no'}" + ("" if win else f"; now it is {_window_zh(state)}"),
                             rule.id, f.loc, pos, decisive=when and win and not inst.invalid))
    tr.conclusion = f"{rule.name} {'fires' if tr.answer['fires'] else 'does not fire'} now"


_NARRATORS = {"conversion": _n_conversion, "banned": _n_banned, "can_play": _n_can_play, "receive": _n_receive,
              "send": _n_send, "skip_fight": _n_skip, "skip_dying": _n_skip, "draw": _n_draw, "holds": _n_holds,
              "reachable": _n_reachable, "result": _n_result, "resolves": _n_resolves, "fires": _n_fires}


# ======================================================================================== the story
def story(cat: Catalogue, trace, state: State | None = None) -> list[Step]:
    """How a situation arises in a game, step by step: the trace's events as ``model.trace.steps`` tells
    them (turn, window, who did what), each with the catalogue line of the gives site behind it, then the
    moment the question is asked (``state``: the state the trace reaches). An untimed state (no trace):
    ``origin``."""
    from . import trace as TR
    from .turn import WINDOWS
    if trace is None:
        return origin(cat, state) if state is not None else []
    told = TR.steps(cat, trace)
    out: list[Step] = []
    k = 0
    base = None                                      # the window a dying window interrupts
    for j, ev in enumerate(trace.events):            # which event each told step is (events may be silent)
        now = len(TR.steps(cat, TR.Trace(trace.setup, trace.events[:j + 1])))
        if ev.kind == "turn":
            base = None
        elif ev.kind == "window" and ev.window != "dying":
            base = ev.window
        while k < now:
            t = told[k]
            if ev.kind == "window" and ev.window == "dying" and base in WINDOWS:
                t = dict(t, text=f"{t['text']}（打断{WINDOWS[base].zh}）")
            rule, loc = None, None
            if ev.kind == "give":
                give = TR.site_of(cat, ev.site)
                if give is not None:
                    rule, loc = give.giver, give.loc
            elif ev.kind == "replace" and ev.character in cat.characters:
                rule, loc = ev.character, cat.characters[ev.character].loc
            out.append(Step(f"第{t['turn']}回合·{t['window']}：{t['text']}", rule, loc))
            k += 1
    if state is not None and state.window is not None:
        turns = sum(1 for ev in trace.events if ev.kind == "turn")
        out.append(Step(f"第{turns}回合·{WINDOWS[state.window].zh}：此时提问（" + moment_text(cat, state) + "）"))
    return out


def moment_text(cat: Catalogue, state: State) -> str:
    """The facts of the moment a state stands at, in a few words (Chinese, as model.trace.steps tells a trace):
    whose turn, the window a dying window interrupts, where the message is, who is dying."""
    from .turn import WINDOWS
    name = lambda i: cat.name_of(state.seats[i].character)        # noqa: E731
    ok = lambda i: i is not None and 0 <= i < len(state.seats)     # noqa: E731
    bits = [f"{name(state.turn)}的回合"] if ok(state.turn) else []
    if state.window == "dying" and state.interrupted in WINDOWS:
        bits.append(f"打断{WINDOWS[state.interrupted].zh}")
    if ok(state.in_front):
        bits.append(f"情报在{name(state.in_front)}面前" + (f"，由{name(state.sender)}传出" if ok(state.sender) else ""))
    if ok(state.dying):
        bits.append(f"{name(state.dying)}濒死")
    return "；".join(bits)


# ======================================================================================= the origin
def origin(cat: Catalogue, state: State, seat: int = 0) -> list[Step]:
    """How ``state`` comes about in a real game, for the player at ``seat``: the characters at the table,
    each granted skill's giver and gives site, invalidation, the face of the role, consumed skills."""
    out: list[Step] = []
    s = state.seats[seat]
    ch = cat.characters.get(s.character)
    others = [seat_name(cat, state, i) for i in range(len(state.seats)) if i != seat]
    table = f"{seat_name(cat, state, seat)} is the player asked about"
    if others:
        table += "; also at the table: " + ", ".join(others)
    out.append(Step(table, s.character, ch.loc if ch else None))
    out.append(Step(f"it is {seat_name(cat, state, state.turn)}'s turn"))
    if ch is not None:
        held = {i.rule for i in s.skills}
        gone = [cat.skills[r].name for r in ch.skills if r not in held]
        if gone:
            out.append(Step(f"{', '.join(gone)} was used up earlier (a consumed skill leaves its owner)",
                            next(r for r in ch.skills if r not in held),
                            cat.skills[next(r for r in ch.skills if r not in held)].loc))
        if ch.hidden:
            face = ("face up" if s.face_up else "face down, " + ("revealed earlier" if s.ever_face_up else
                                                                 "never revealed"))
            out.append(Step(f"{ch.name} is a hidden role, now {face}", ch.id, ch.loc))
        elif not s.face_up:
            out.append(Step(f"{ch.name} is a public role shown face down (not reachable)", ch.id, ch.loc))
    for i, inst in enumerate(s.skills):
        rule = cat.skills.get(inst.rule)
        if rule is None or not rule.is_grant:
            continue
        site = I._site(cat, inst.site) if inst.site else None
        giver_seat = inst.giver
        who = seat_name(cat, state, giver_seat) if giver_seat is not None and 0 <= giver_seat < len(state.seats) else "someone"
        if site is None:
            out.append(Step(f"{inst_label(cat, inst)} at position {i + 1}: granted (no site recorded)", rule.id,
                            rule.loc, i + 1))
            continue
        how = f"played {cat.name_of(site.giver)}" if site.giver_is_card else f"used {cat.name_of(site.giver)}"
        to = {"self": "to themself", "all": "to every player", "target": "to a chosen player",
              "others": "to another player"}.get(site.to, site.to)
        cond = ""
        if not (isinstance(site.when, E.Lit) and site.when.value is True):
            cond = f" (when `{_text(site.when)}`)"
        extra = ""
        if site.where is not None:
            extra = f", choosing parameters with `{_text(site.where)}`"
        out.append(Step(f"{who} {how}{cond}, which hands {rule.name} {to}{extra}: "
                        f"{inst_label(cat, inst)} lands at position {i + 1} of the list", site.giver, site.loc, i + 1))
    if any(i.invalid for i in s.skills):
        ways = []
        for give in cat.sites("InvalidSkill"):
            for g in range(len(state.seats)):
                if I._giver_ok(cat, state, give, g) and I._to_ok(give.to, g, seat) and \
                        I.evaluate(give.when, _env(cat, state, g)):
                    ways.append((give, g))
        if ways:
            give, g = ways[0]
            verb = "played" if give.giver_is_card else "used"
            out.append(Step(f"{seat_name(cat, state, g)} {verb} {cat.name_of(give.giver)} on "
                            f"{seat_name(cat, state, seat)}: every initial skill is wrapped in an InvalidSkill until "
                            f"the end of the turn", give.giver, give.loc))
        else:
            out.append(Step("the initial skills are invalidated, but nothing at this table can do that"))
    for other in range(len(state.seats)):
        if other == seat:
            continue
        o = state.seats[other]
        if any(i.invalid for i in o.skills):
            out.append(Step(f"{seat_name(cat, state, other)}'s initial skills are invalidated"))
    for k, label in (("sender", "sent the message now travelling"), ("in_front", "has the message in front"),
                     ("dying", "is dying")):
        v = getattr(state, k)
        if v is not None:
            out.append(Step(f"{seat_name(cat, state, v)} {label}"))
    if s.hand_count:
        out.append(Step(f"{seat_name(cat, state, seat)} holds {s.hand_count} card(s)"))
    if s.locked:
        out.append(Step(f"{seat_name(cat, state, seat)} is locked by the message"))
    return out


def state_lines(cat: Catalogue, state: State) -> list[str]:
    """The state in a few plain lines (English; the names are the catalogue's)."""
    out = []
    for i, s in enumerate(state.seats):
        ch = cat.characters.get(s.character)
        bits = ["face up" if s.face_up else ("face down (revealed before)" if s.ever_face_up else "face down")]
        if not s.alive:
            bits.append("dead")
        bits.append(s.identity)
        bits.append(f"{s.hand_count} card(s) in hand")
        msgs = [f"{n} {c}" for c, n in (("red", s.red_messages), ("blue", s.blue_messages),
                                         ("black", s.black_messages)) if n]
        if msgs:
            bits.append("messages: " + ", ".join(msgs))
        if s.locked:
            bits.append("locked")
        roles = [r for r, k in (("turn", "turn"), ("sender", "sender"), ("message in front", "in_front"),
                                ("dying", "dying")) if getattr(state, k) == i]
        if roles:
            bits.append("; ".join(roles))
        skills = []
        for j, inst in enumerate(s.skills, 1):
            lab = inst_label(cat, inst)
            extra = []
            if inst.giver is not None and inst.site:
                extra.append(f"from {cat.name_of(state.seats[inst.giver].character) if 0 <= inst.giver < len(state.seats) else '?'}")
            if inst.invalid:
                extra.append("invalidated")
            if inst.used:
                extra.append("used this turn")
            skills.append(f"{j}. {lab}" + (f" [{', '.join(extra)}]" if extra else ""))
        out.append(f"seat {i}: {ch.name if ch else s.character} ({', '.join(bits)})")
        out.append("    skills: " + ("; ".join(skills) if skills else "none"))
    if state.message:
        out.append(f"message colours: {', '.join(sorted(state.message))}")
    return out
