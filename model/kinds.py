"""The skill-kind lattice of the design note, as data.

Design note (skill-architecture.md), class diagram: ``Skill <|-- ActiveSkill``, ``ActiveSkill <|--
MainPhaseSkill``, ``Skill <|-- TriggeredSkill``, ``Skill <|.. InvalidSkill``, ``OneTurnSkill <|..
CannotPlayCard``, ``OneTurnSkill <|.. MustReceiveMessage``, and every special kind directly under Skill.

Each kind records its parent, whether it may ever be initial (the note's namespace "生成出的技能" —
generated skills — holds InvalidSkill, OneTurnSkill, CannotPlayCard and MustReceiveMessage), which
parameter table it requires, and which kinds it can never be combined with.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Kind:
    name: str
    parent: str | None
    zh: str
    #: the catalogue key that carries this kind's parameters (None: no parameters)
    table: str | None = None
    #: False: generated skills of this kind are never initial (design note: "生成出的技能")
    may_be_initial: bool = True
    #: True: the kind stands alone (InvalidSkill: "只继承于Skill，不属于ActiveSkill和TriggeredSkill")
    exclusive: bool = False
    doc: str = ""


KINDS: dict[str, Kind] = {k.name: k for k in [
    Kind("Skill", None, "技能", doc="the base of every rule"),
    Kind("ActiveSkill", "Skill", "主动技能",
         doc="used by its owner in 出牌阶段, 争夺阶段, or while someone is dying; canUse() says 争夺阶段"),
    Kind("MainPhaseSkill", "ActiveSkill", "出牌阶段技能",
         doc="an ActiveSkill usable only in 出牌阶段: canUse() in 争夺阶段 is always false"),
    Kind("TriggeredSkill", "Skill", "触发技能", doc="fires at other times"),
    Kind("InvalidSkill", "Skill", "被无效", may_be_initial=False, exclusive=True,
         doc="an initial skill wrapped while invalidated; released at turn end; neither Active nor Triggered"),
    Kind("OneTurnSkill", "Skill", "本回合技能", may_be_initial=False, doc="lost at turn end"),
    Kind("CannotPlayCard", "OneTurnSkill", "不能出牌", table="ban", may_be_initial=False,
         doc="the owner cannot play the banned card types (or any card) this turn"),
    Kind("MustReceiveMessage", "OneTurnSkill", "必须/不能接收情报", table="receive", may_be_initial=False,
         doc="this turn the owner must receive / cannot receive messages"),
    Kind("ConvertCardSkill", "Skill", "卡牌转化", table="convert",
         doc="the owner's cards of type A can (or must) be used as one of B"),
    Kind("SendMessageDirectionSkill", "Skill", "传情报方向", table="send",
         doc="changes the directions a message may be sent in; the last one acquired wins"),
    Kind("SendMessageCanLockSkill", "Skill", "传情报锁定", table="send",
         doc="changes whether a sent message may lock; the last one acquired wins"),
    Kind("SendMessageCardSkill", "Skill", "传哪张情报", table="send",
         doc="changes which card may be sent; the last one acquired wins"),
    Kind("WinSkill", "Skill", "宣胜技能", table="win", doc="declares victory outside the identity rules"),
    Kind("ChangeGameResultSkill", "Skill", "影响游戏结果", table="result", doc="changes the game result"),
    Kind("BeforeDieSkill", "Skill", "死亡前技能", doc="may fire while its owner is dead (no need to be alive)"),
    Kind("ChangeDrawCardCountSkill", "Skill", "摸牌数量", table="draw",
         doc="changes how many cards the owner draws in the draw phase"),
]}

#: the three SendMessage groups; within a group the last acquired, non-invalidated skill is in force
SEND_GROUPS = ("SendMessageDirectionSkill", "SendMessageCanLockSkill", "SendMessageCardSkill")
SEND_GROUP_ZH = {"SendMessageDirectionSkill": "传出方向", "SendMessageCanLockSkill": "锁定",
                 "SendMessageCardSkill": "传出哪张情报"}

#: parameter tables and the kind each belongs to
TABLE_KINDS: dict[str, tuple[str, ...]] = {}
for _k in KINDS.values():
    if _k.table:
        TABLE_KINDS.setdefault(_k.table, ())
        TABLE_KINDS[_k.table] += (_k.name,)


def ancestors(name: str) -> list[str]:
    """The kind and all its parents, most specific first."""
    out = []
    cur: str | None = name
    while cur is not None:
        out.append(cur)
        cur = KINDS[cur].parent
    return out


def closure(kinds) -> frozenset[str]:
    """All kinds a rule has, parents included."""
    out: set[str] = set()
    for k in kinds:
        out.update(ancestors(k))
    return frozenset(out)


def lattice_errors(kinds) -> list:
    """Structural violations of the lattice for a rule declaring ``kinds`` (the loader rejects these), as
    messages in both languages (model.msg)."""
    from .msg import Msg
    errs = []
    declared = list(kinds)
    full = closure(declared)
    for k in declared:
        if KINDS[k].exclusive and len(full - {"Skill"} - {k}) > 0:
            others = sorted(full - {"Skill", k})
            errs.append(Msg("'{k}' 不能与别的种类同时写（还有 {zh}）", "{k} cannot be combined with other kinds (has {en})",
                            k=k, zh="、".join(f"'{o}'" for o in others), en=", ".join(others)))
    return errs


def generated_kinds(kinds) -> list[str]:
    """The kinds of ``kinds`` (parents included) that the design note puts among generated skills —
    such a rule is never initial. A rule marked initial anyway is reported by the `kinds` check."""
    return sorted(k for k in closure(kinds) if not KINDS[k].may_be_initial)
