"""What every narration is made of: ``Step`` and ``Trace``, and the words they share — a card, a value, a
skill in the player's list, a seat, a window, a condition (``expr_words``) — in the run's language
(``model.lang``). The narrators import from here: ``narrate_cards`` (conversion, bans, plays),
``narrate_turn`` (receive, send, skipping, draw), ``narrate_skills`` (holds, reachability, results, triggers,
active skills) and ``narrate_story`` (how a state arises in a game); ``narrate`` puts them together.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import expr as E
from .interp.core import Env
from .catalogue import Catalogue, Loc, Ref
from .expr_words import value, words
from .kinds import KINDS, SEND_GROUP_ZH
from .lang import is_en, param_name, pick
from .state import SkillInst, State

GROUP_EN = {"SendMessageDirectionSkill": "direction", "SendMessageCanLockSkill": "lock",
            "SendMessageCardSkill": "card"}


@dataclass
class Step:
    text: str
    rule: str | None = None          # catalogue id of the rule (or card / character) behind the step
    loc: Loc | None = None
    position: int | None = None      # 1-based position in the player's skill list
    decisive: bool = False           # this step settles the answer
    fires: bool = False              # (conversions) this step names a conversion that may be the one that fires

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
    answer: dict                     # interp.decide.decide's answer
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


# ------------------------------------------------------------------------------------------ words
def card(cat: Catalogue, cid) -> str:
    if cid is None:
        return pick("任意牌", "any card")
    c = cat.cards.get(cid)
    return c.name if c else str(cid)


def inst_label(cat: Catalogue, inst: SkillInst) -> str:
    """A skill of the player's list with its parameters: 变则通·宣言（A=截获，B=破译） / 变则通·宣言 (A=截获, B=破译)."""
    r = cat.skills.get(inst.rule)
    name = r.name if r else inst.rule
    if inst.args:
        args = [f"{param_name(k)}={value(cat, v)}" for k, v in inst.args.items()]
        name += pick("（" + "，".join(args) + "）", " (" + ", ".join(args) + ")")
    return name


def seat_name(cat: Catalogue, state: State, seat: int) -> str:
    s = state.seats[seat]
    ch = cat.characters.get(s.character)
    name = ch.name if ch else s.character
    return pick(f"{name}（座位{seat}）", f"{name} (seat {seat})")


def char_name(cat: Catalogue, state: State, seat) -> str:
    if seat is None or not 0 <= seat < len(state.seats):
        return "?"
    return cat.name_of(state.seats[seat].character)


def seats_text(cat, state, seats) -> str:
    if not seats:
        return pick("无人", "nobody")
    return "{" + pick("、", ", ").join(seat_name(cat, state, i) for i in sorted(seats)) + "}"


def at_pos(pos: int) -> str:
    """Where a skill stands in the player's list, as a prefix (zh) or a suffix (en) — see ``lab_at``."""
    return pick(f"第{pos}位", f"at position {pos}")


def lab_at(lab: str, pos: int) -> str:
    """``第3位的变则通·宣言（…）`` / ``变则通·宣言 (…) at position 3``."""
    return pick(f"第{pos}位的{lab}", f"{lab} at position {pos}")


def kind_name(k: str) -> str:
    """A skill kind: its Chinese name under zh (不能出牌), the design note's class name under en."""
    if k in SEND_GROUP_ZH:
        return pick(SEND_GROUP_ZH[k] + "技能", k)
    return pick(KINDS[k].zh if k in KINDS else k, k)


def group_word(g: str) -> str:
    """A send group as a rule's subject: 传出方向 / direction."""
    return pick(SEND_GROUP_ZH.get(g, g), GROUP_EN.get(g, g))


def cond(node, cat=None) -> str:
    """A condition for people, quoted: 「面朝下」 / `face down`."""
    s = words(node, cat) if node is not None else pick("从不成立", "never")
    return pick(f"「{s}」", f"`{s}`")


def the_window(wid: str | None) -> str:
    """A window in a sentence: 争夺阶段 / the fight phase (the dying window, the turn end)."""
    from .turn import WINDOWS, window_name
    if wid not in WINDOWS:
        return pick("此时", "this window")
    if is_en():
        return {"dying": "the dying window (asking for rescue)"}.get(wid, "the " + window_name(wid))
    return WINDOWS[wid].zh


def window_now(state: State) -> str:
    return the_window(state.window)


def windows_text(windows: dict) -> str:
    """``{fight: anyone}`` as 争夺阶段（任何角色） / "the fight phase (any living player)"."""
    from .turn import ACTORS, WINDOWS
    if not windows:
        return pick("没有时机", "no window")
    if not is_en():
        return "、".join(f"{WINDOWS[w].zh}（{ACTORS[a][0] if a in ACTORS else a}）" for w, a in windows.items())
    return ", ".join(f"{the_window(w)} ({ACTORS[a][1] if a in ACTORS else a})" for w, a in windows.items())


def env(cat, state, seat, inst: SkillInst | None = None, **extra) -> Env:
    g = {"message": state.message, "message_dir": state.message_dir, "message_lockable": state.message_lockable}
    g.update(extra)
    return Env(cat, state, {"self": seat}, dict(inst.args) if inst else {}, g, used=bool(inst and inst.used))


def ref(cat, r: Ref, inst: SkillInst):
    if r.kind == "any":
        return None
    if r.kind == "card":
        return r.value
    return inst.args.get(r.value)


def giver_text(cat, state, inst: SkillInst) -> str:
    """Who handed a granted skill out: （来自陈大耳的变则通） / " from 陈大耳's 变则通" ('' for an own skill)."""
    if inst.site is None:
        return ""
    giver, _, _ = inst.site.partition("#")
    who = ""
    if inst.giver is not None and 0 <= inst.giver < len(state.seats):
        who = cat.name_of(state.seats[inst.giver].character)
    if giver in cat.cards:
        return pick(f"（来自{who + '使用的' if who else ''}{cat.name_of(giver)}）",
                    f" from {cat.name_of(giver)}" + (f" (played by {who})" if who else ""))
    return pick(f"（来自{who + '的' if who else ''}{cat.name_of(giver)}）",
                f" from {who + chr(39) + 's ' if who else ''}{cat.name_of(giver)}")


_PREC = {"or": 1, "and": 2, "not": 3, "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4, "in": 4, "notin": 4,
         "+": 5, "-": 5, "*": 6}


def pretty(n, parent: int = 0) -> str:
    """An expression in the catalogue's language, with only the parentheses precedence needs (for a catalogue
    author; people read ``expr_words.words``)."""
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
