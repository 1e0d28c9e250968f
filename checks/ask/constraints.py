"""Each constraint of a proof (an unsat core of ``ask``) in the designer's terms and the run's language, with
the catalogue lines behind it: ``describe_item`` for the tracked constraints (the subject, the givens, the
claim, the reachability constraints of checks/enc/trace.py, whose labels are internal and never shown),
``decided_by`` for a deciding step of the interpreter's narration."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from skillproof.model.expr_words import NOUNS, words
from skillproof.model.lang import pick
from skillproof.model.narrate_story import TO_WORDS
from skillproof.model.interp.grants import site_of

if TYPE_CHECKING:
    from .result import Item


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
            "rules": [_loc_ref(pick("引擎规则", "engine rule"), step.loc)] if step.loc else []}


def dedupe(items: list) -> list:
    out, seen = [], set()
    for it in items:
        key = (it["kind"], it["says"])
        if key not in seen:
            seen.add(key)
            out.append(it)
    return out


def to_words(to: str) -> str:
    return pick(*TO_WORDS[to]) if to in TO_WORDS else to


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
                rules.append(_loc_ref(pick(f"{cat.name_of(s.giver)} → {cat.name_of(s.grant)}（给出）",
                                           f"{cat.name_of(s.giver)} → {cat.name_of(s.grant)} (gives)"), s.loc))
        else:
            rules = [_ref(cat, r) for r in it.rules]
            if g is not None and g.kind in ("with", "without") and not cat.skills[g.rule].is_grant:
                owners = cat.owners(g.rule)
                skill = cat.skills[g.rule].name
                rules += [_loc_ref(pick(f"{cat.characters[c].name}初始持有{skill}",
                                        f"{cat.characters[c].name} starts with {skill}"),
                                   cat.characters[c].loc) for c in owners[:4]]
                if not owners:
                    rules.append(_loc_ref(pick(f"没有角色初始持有{skill}", f"no character starts with {skill}"),
                                          cat.skills[g.rule].loc))
        return {"kind": "given", "says": lab, "rules": rules}
    if it.kind == "claim":
        return {"kind": "claim", "says": lab, "rules": [_ref(cat, r) for r in dict.fromkeys(it.rules)]}
    return describe_reach(cat, S, it, named_grants)


def describe_reach(cat, S, it: Item, named_grants=()) -> dict:
    """A reachability constraint (checks/enc/trace.py ``reachability``) for people."""
    lab = it.label
    m = re.match(r"initial skill (\d+)$", lab)
    if m:
        j = int(m.group(1))
        chars = S.chars_me
        rules = []
        if len(chars) == 1:
            ch = cat.characters[chars[0]]
            names = [cat.skills[r].name for r in ch.skills]
            at = cat.skills[ch.skills[j]].name if j < len(ch.skills) else pick("无", "none")
            says = pick(f"{ch.name}的技能依次是{'、'.join(names)}（第{j + 1}位：{at}）",
                        f"{ch.name}'s skills are {', '.join(names)}, in that order (position {j + 1}: {at})")
            rules.append(_ref(cat, ch.id))
            if j < len(ch.skills):
                rules.append(_ref(cat, ch.skills[j]))
        else:
            says = pick(f"这名角色第{j + 1}位的技能是其角色的初始技能",
                        f"the player's skill at position {j + 1} is the one their character starts with")
        return {"kind": "rule", "says": says, "rules": rules}
    if lab.startswith("distinct characters"):
        return {"kind": "rule", "says": pick("每个座位的角色各不相同（同一角色至多在桌上一次）",
                                             "every seat holds a different character (a character is at the table "
                                             "at most once)"), "rules": []}
    if lab == "seat 0 character":
        if len(S.chars_me) == 1:
            ch = cat.characters[S.chars_me[0]]
            return {"kind": "rule", "says": pick(f"所问的角色是{ch.name}", f"the player is {ch.name}"),
                    "rules": [_ref(cat, ch.id)]}
        n = len(S.chars_me)
        return {"kind": "rule", "says": pick(f"所问的角色是{n}个角色之一（对这个问题有影响的每类各一个）",
                                             f"the player is one of {n} characters (one of each kind that matters "
                                             f"to this question)"), "rules": []}
    m = re.match(r"grant (\d+) source$", lab)
    if m:
        sites = [give for gid in S.grant_ids for give in cat.sites(gid)]
        named = [s for g in (named_grants or ()) for s in cat.sites(g)]
        if named:
            sites = named + [s for s in sites if s not in named]
        rules = []
        for s in sites[:8]:
            giver, grant, to = cat.name_of(s.giver), cat.name_of(s.grant), to_words(s.to)
            where = words(s.where, cat) if s.where is not None else ""
            rules.append(_loc_ref(pick(f"{giver}{to}给出{grant}" + (f"，参数需满足「{where}」" if where else ""),
                                       f"{giver} gives {grant} {to}" + (f" where {where}" if where else "")), s.loc))
        return {"kind": "rule", "says": pick("获得的技能来自一个给出处：其给出者在桌上，给的对象和参数都是它允许的",
                                             "a granted skill comes from a gives site whose giver is at the table, "
                                             "to whom the site allows, with the parameters it allows"), "rules": rules}
    m = re.match(r"(.+)#(\d+) per_turn(?: \(turn \d+\))?$", lab)
    if m:
        src = cat.skills.get(m.group(1)) or cat.cards.get(m.group(1))
        give = src.gives[int(m.group(2))] if src else None
        name = cat.name_of(m.group(1))
        n = give.per_turn if give else "?"
        rules = [_loc_ref(pick(f"{name}每回合至多给出{n}次", f"{name} per_turn = {n}"), give.loc)] if give else []
        return {"kind": "rule", "says": pick(f"{name}每回合至多给出{n}次技能", f"{name} hands out its skill at most "
                                                                          f"{n} time(s) a turn"), "rules": rules}
    m = re.match(r"seat (\d+) invalidation needs a giver$", lab)
    if m:
        rules = [_loc_ref(pick(f"{cat.name_of(g.giver)}使技能无效（{to_words(g.to)}）",
                               f"{cat.name_of(g.giver)} invalidates ({to_words(g.to)})"), g.loc)
                 for g in cat.sites("InvalidSkill")]
        return {"kind": "rule", "says": pick(f"座位{m.group(1)}的技能只能被桌上能做到的人无效",
                                             f"seat {m.group(1)}'s skills can only be invalidated by someone at the "
                                             f"table who can do it"), "rules": rules}
    m = re.match(r".+ from (\S+#\d+) comes with (\S+#\d+)$", lab)
    if m:                                   # enc.trace._coupled: two sites handed out at once ('with')
        sites = [site_of(cat, x) for x in m.groups()]
        if all(sites):
            a, b = sites
            return {"kind": "rule", "says": pick(f"{cat.name_of(a.giver)}同时给出{cat.name_of(a.grant)}和{cat.name_of(b.grant)}"
                                                 f"（给同一个人，在同一时机）",
                                                 f"{cat.name_of(a.giver)} hands out {cat.name_of(a.grant)} and "
                                                 f"{cat.name_of(b.grant)} together (to the same player, at the same moment)"),
                    "rules": [_loc_ref(pick(f"{cat.name_of(g.giver)}给出{cat.name_of(g.grant)}",
                                            f"{cat.name_of(g.giver)} hands out {cat.name_of(g.grant)}"), g.loc)
                              for g in (a, b)]}
    m = re.match(r"seat (\d+) public roles face up$", lab)
    if m:
        return {"kind": "rule", "says": pick("公开角色（不是隐藏角色）总是面朝上",
                                             "public roles (not hidden roles) are always face up"),
                "rules": [_ref(cat, r) for r in it.rules if r in S.chars_me][:3]}
    for pat, zh, en, turn_end in REACH:
        m = re.match(pat, lab)
        if m:
            says = pick(zh, en).format(*m.groups(), **_fields(m))
            loc = cat.rules.at("turn_end") if turn_end else None
            return {"kind": "rule", "says": says,
                    "rules": [_loc_ref(pick("回合结束的规则", "[rules] turn_end"), loc)] if loc else
                    [_ref(cat, r) for r in it.rules][:4]}
    return {"kind": "bound", "says": pick("搜索范围内的一条局面约束", "a constraint of the searched states"),
            "rules": [_ref(cat, r) for r in it.rules][:4]}


def _fields(m) -> dict:
    """Named groups of a label match, in words (an attribute's noun)."""
    d = m.groupdict()
    if d.get("field"):
        d["field"] = pick(*NOUNS.get(d["field"], (d["field"], d["field"])))
    return d


#: the other reachability constraints (checks/enc/trace.py), in the designer's terms: label pattern -> (zh, en,
#: whether the [rules] turn_end line is behind it); {0}… are the pattern's groups, {field} an attribute's noun
REACH = [
    (r"window$", "问题在某回合结束前的某个时机提出（濒死求澄清打断出牌阶段、传递阶段开始时、传递阶段、争夺阶段或接收阶段）",
     "the question is asked in a window of a turn, before it ends (a dying window interrupts the main phase, the "
     "start of the send phase, the send phase, the fight phase or the receive phase)", False),
    (r"in front$", "情报传递时，它在桌上某名角色面前", "while a message travels it is in front of a player at the table", False),
    (r"sender$", "正在传递的情报由那个回合的传出者传出", "the message now travelling was sent by that turn's sender", False),
    (r"first turn$|turn \d+ player$|turn \d+ sender$", "经过中的回合属于在座的角色",
     "the trace plays turns of players at the table", False),
    (r"turn \d+ passes on$", "回合从一名角色传到另一名角色", "a turn passes from one player to another", False),
    (r".+ moment$", "经过中的每个事件都发生在某个回合的某个时机", "every event of the trace happens in a window of one of its turns",
     False),
    (r".+ before the question$", "经过中的每个事件都发生在提问之前", "every event of the trace happens before the question is asked",
     False),
    (r".+ / .+ order$", "事件依次发生，按回合中时机的顺序", "the events happen one after another, in the order of the turn's windows",
     False),
    (r"seat \d+ invalidated now$", "无效持续到施加它的回合结束", "an invalidation lasts until the end of the turn it is dealt in",
     True),
    (r"(?:initial skill|grant) \d+ survives the turn ends$", "本回合技能在其回合结束时移除（除非那时它被无效）",
     "a one-turn skill is dropped at the end of its turn (unless it is invalidated then)", True),
    (r"initial skill \d+ kept$", "初始技能只会在回合结束或用掉时失去", "an initial skill is only ever lost at a turn end or when used up",
     True),
    (r"grant \d+ after grant \d+$", "获得的技能按给出的顺序排在技能列表中",
     "granted skills stand in the list in the order they were handed out", False),
    (r"grant \d+ after the replacement$", "换角色（后来人）会失去旧角色的所有技能，包括获得的技能",
     "a role replacement (后来人) takes away every skill the old role held, granted ones included", False),
    (r"replacement needs a role-replacing skill$", "只有换角色的技能（后来人）能换角色，由持有者在其时机发动",
     "a role is replaced only by a role-replacing skill (后来人), used in its window by its owner", False),
    (r"old role$|new role's face$|no replacement before the trace$",
     "被换掉的角色是另一个不在桌上的角色；新角色按其本来的面朝向出现",
     "a replaced role was another character, not at the table; the new role shows its face as it comes", False),
    (r"lost grant: wiped by the replacement$", "换角色前获得的技能被换角色清除",
     "a grant held before a role replacement is wiped by it", False),
    (r"seat order (\d+)$", "座位依次坐满，中间不空", "seats are filled in order, with no gaps", False),
    (r"at least (\d+) players$", "一局至少有{0}名角色", "a game has at least {0} players", False),
    (r"seat (\d+) character$", "座位{0}坐着目录中的一个角色", "seat {0} holds a character of the catalogue", False),
    (r"seat (\d+) identity$", "存活的角色都有身份", "a living player has an identity", False),
    (r"seat (\d+) message counts$", "情报数彼此一致（红色和蓝色情报都是真情报）",
     "the message counts agree (red and blue messages are the true ones)", False),
    (r"seat (\d+) face up implies ever$", "现在面朝上的角色曾面朝上", "a role face up now has been face up", False),
    (r"seat (\d+) invalidation only of a present seat$", "只有在座的角色会被无效", "only a player at the table is invalidated",
     False),
    (r"seat (\d+) (?P<field>[a-z_]+)$", "座位{0}的{field}在其范围内", "seat {0}'s {field} is within its bounds", False),
    (r"message direction$", "情报牌有传递方向（上、左或右）", "the message card has an arrow (up, left or right)", False),
    (r"the sender does not lock himself", "传出者不能锁定自己（规则设定）",
     "the sender does not lock himself ([rules] lock_self = false)", False),
    (r"play (\d+)$", "经过中的牌在其使用者可以使用的时机打出", "a card of the trace is played in a window where its player may use it",
     False),
    (r"play (\d+) after play (\d+)$", "经过中的出牌依次发生", "the trace's plays happen one after another", False),
    (r"grant (\d+) (\w+) (?:is a card|is a colour|bound)$", "获得的技能的参数在其范围内（一张牌、一种颜色或一个数）",
     "the granted skill's parameter {1} is within its range (a card, a colour or a number)", False),
]
