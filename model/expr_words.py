"""A catalogue condition told in words: the expression AST (``model.expr``) as a phrase in the run's language.

``words(node, cat)`` renders a (type-checked) condition, count or effect predicate for people — the
narration of ``explain`` / ``replay`` / ``ask`` shows it next to its value — in Chinese under ``zh`` and
English under ``en`` (``model.lang``), with the catalogue's names for cards and characters and never an
enum id or a vocabulary key:

    not face_up and in_front                → 面朝下且情报在其面前 / face down and the message is in front of them
    A != B and A in {Po_Yi, Diao_Bao}       → A与B不同且A是破译、调包之一 / A differs from B and A is one of 破译, 调包
    if any(p: p.alive and p.character in {xiao_jiu}) then count + 1 else count
        → 若有角色p存活且p是小九则摸牌数+1，否则摸牌数 / if some player p is alive and p is 小九, then the draw
          count + 1, otherwise the draw count

Attributes of the skill's owner are said without a subject; a bound player keeps its name (``p``). Nothing
here evaluates: the interpreter gives the value.
"""
from __future__ import annotations

from . import events as EV
from . import expr as E
from .catalogue import Catalogue
from .lang import param_name, pick

#: boolean player attributes: name -> (zh true, zh false, en true, en false) said of the skill's owner (no
#: subject); a bound player ``p`` is said by ``BOUND`` when listed there, else as p + the phrase (p存活 / p is alive)
BOOL_ATTRS: dict[str, tuple[str, str, str, str]] = {
    "alive": ("存活", "已死亡", "alive", "dead"),
    "face_up": ("面朝上", "面朝下", "face up", "face down"),
    "ever_face_up": ("曾面朝上", "从未面朝上", "has been face up", "never face up"),
    "hidden": ("是隐藏角色", "不是隐藏角色", "a hidden role", "not a hidden role"),
    "female": ("是面朝上的女性角色", "不是面朝上的女性角色", "seen as female", "not seen as female"),
    "male": ("是面朝上的男性角色", "不是面朝上的男性角色", "seen as male", "not seen as male"),
    "hand_empty": ("没有手牌", "有手牌", "holding no cards", "holding cards"),
    "my_turn": ("在自己的回合", "不在自己的回合", "in their own turn", "not in their own turn"),
    "is_sender": ("是传出者", "不是传出者", "the sender", "not the sender"),
    "locked": ("被锁定", "未被锁定", "locked", "not locked"),
    "in_front": ("情报在其面前", "情报不在其面前", "the message is in front of them",
                 "the message is not in front of them"),
    "dying": ("濒死", "未濒死", "dying", "not dying"),
    "used": ("本回合已发动", "本回合未发动", "used this turn", "not used this turn"),
    "in_winners": ("已在胜者中", "不在胜者中", "among the winners so far", "not among the winners so far"),
    "in_declared": ("已在宣胜者中", "不在宣胜者中", "among the declared winners so far",
                    "not among the declared winners so far"),
}
#: a bound player's flags that do not read as "p" + the owner's phrase: name -> (zh true, zh false, en true,
#: en false), with {p} for the player
BOUND = {
    "ever_face_up": ("{p}曾面朝上", "{p}从未面朝上", "{p} has been face up", "{p} was never face up"),
    "hand_empty": ("{p}没有手牌", "{p}有手牌", "{p} holds no cards", "{p} holds cards"),
    "my_turn": ("是{p}的回合", "不是{p}的回合", "it is {p}'s turn", "it is not {p}'s turn"),
    "in_front": ("情报在{p}面前", "情报不在{p}面前", "the message is in front of {p}",
                 "the message is not in front of {p}"),
    "used": ("{p}本回合已发动", "{p}本回合未发动", "{p} has used it this turn", "{p} has not used it this turn"),
}

#: other player attributes and the globals, as nouns: name -> (zh, en)
NOUNS: dict[str, tuple[str, str]] = {
    "hand_count": ("手牌数", "cards in hand"),
    "red_messages": ("红色情报数", "red messages"),
    "blue_messages": ("蓝色情报数", "blue messages"),
    "black_messages": ("黑色情报数", "black messages"),
    "true_messages": ("真情报数", "red or blue messages"),
    "non_black_messages": ("非黑色情报数", "messages with no black"),
    "character": ("角色", "character"),
    "identity": ("身份", "identity"),
    "played": ("本回合使用过的牌", "the cards used this turn"),
    "message": ("情报的颜色", "the message's colours"),
    "message_dir": ("情报的传递方向", "the message's arrow"),
    "message_lockable": ("情报可锁定", "the message can lock"),
    "dir": ("传出方向", "the direction sent"),
    "lock_count": ("锁定人数", "players locked"),
    "count": ("摸牌数", "the draw count"),
}

#: a trigger's guard (``on.when``): the event's players, as nouns — name -> (zh, en)
ROLES: dict[str, dict[str, tuple[str, str]]] = {k.key: {r.name: (r.zh, r.en) for r in k.all_roles}
                                                 for k in EV.EVENT_KINDS.values()}
#: … and its values: the true ones as conditions (zh true, zh false, en true, en false), the others as nouns
EVENT_FLAGS: dict[str, tuple[str, str, str, str]] = {
    "real_card": ("是实体牌", "不是实体牌（技能视为使用的牌）", "a physical card", "not a physical card (one a skill acts as)"),
    "has_target": ("有目标", "没有目标", "it has a target", "it has no target"),
    "card_valid": ("这张牌尚未被无效", "这张牌已被无效", "the card is not cancelled", "the card is cancelled"),
    "message_face_up": ("情报牌面朝上", "情报牌面朝下", "the message card is face up", "the message card is face down"),
    "message_in_area": ("情报仍在接收者的情报区", "情报已不在接收者的情报区", "the message is still in the receiver's area",
                        "the message is no longer in the receiver's area"),
    "by_skill": ("由技能置入", "不是由技能置入", "put there by a skill", "not put there by a skill"),
}
EVENT_NOUNS: dict[str, tuple[str, str]] = {w.name: (w.zh, w.en) for k in EV.EVENT_KINDS.values() for w in k.words
                                           if w.name not in EVENT_FLAGS}

#: constants that are not catalogue names: identity colours, message colours, directions
IDENTITY = {"red": ("红方", "red"), "blue": ("蓝方", "blue"), "black": ("神秘人", "mystery"),
            "none": ("无身份", "no identity")}
COLOUR = {"red": ("红色", "red"), "blue": ("蓝色", "blue"), "black": ("黑色", "black"),
          "none": ("无色", "no colour")}
DIRECTION = {"up": ("向上", "up"), "left": ("向左", "left"), "right": ("向右", "right")}


def words_both(node, cat=None, event: str | None = None) -> dict:
    """``words`` in each language ({"zh": …, "en": …}), whatever the run's language (JSON and both-language texts)."""
    from .lang import using
    out = {}
    for lang in ("zh", "en"):
        with using(lang):
            out[lang] = words(node, cat, event)
    return out


def words(node, cat=None, event: str | None = None, players: dict | None = None) -> str:
    """``node`` (an expression or an effect's ``p: …``) for people, in the run's language; ``event``: it is the
    guard of a trigger answering that event kind (``on.when``), whose players are said as nouns (传出者 / the sender);
    ``players``: more players said as nouns, name -> (zh, en) (an effect op's, ``model.effects.player_nouns``)."""
    if node is None:
        return pick("从不成立", "never")
    return _Say(cat, event, players).top(node)


class _Say:
    def __init__(self, cat, event: str | None = None, players: dict | None = None):
        self.cat = cat
        # the target of a card or skill (a ``requires`` condition, a card's target condition) is said as a noun
        self.roles = {"target": ("目标", "the target"), "front": ("情报面前的角色", "the player the message is in front of"),
                      "front_left": ("情报面前角色的左邻", "the left neighbour of the player the message is in front of"),
                      "front_right": ("情报面前角色的右邻", "the right neighbour of the player the message is in front of")}
        self.roles.update(ROLES.get(event, {}) if event else {})
        self.roles.update(players or {})

    # ---- entry
    def top(self, n) -> str:
        if isinstance(n, E.Lambda):
            return pick(f"满足以下条件的角色{n.var}：{self.cond(n.body)}", f"each player {n.var} with {self.cond(n.body)}")
        if isinstance(n, E.Lit) and isinstance(n.value, bool):
            return pick("总是成立", "always") if n.value else pick("从不成立", "never")
        if _is_bool(n):
            return self.cond(n)
        return self.term(n)

    # ---- conditions
    def cond(self, n, parent: str = "") -> str:
        if isinstance(n, E.Bin) and n.op in ("and", "or"):
            joiner = {"and": pick("且", " and "), "or": pick("或", " or ")}[n.op]
            parts = [self.cond(x, n.op) for x in _flatten(n, n.op)]
            s = joiner.join(parts)
            return pick(f"（{s}）", f"({s})") if parent and parent != n.op else s
        if isinstance(n, E.Unary) and n.op == "not":
            return self.negated(n.arg, parent)
        if isinstance(n, E.Lit) and isinstance(n.value, bool):
            return pick("成立", "true") if n.value else pick("不成立", "false")
        if isinstance(n, E.Unknown):
            return pick("未知（可真可假）", "unknown (either)")
        if isinstance(n, E.Quant) and n.kind in ("any", "all"):
            body = self.cond(n.body)
            if n.kind == "any":
                return pick(f"有角色{n.var}满足：{body}", f"some player {n.var} is such that {body}")
            return pick(f"每名角色{n.var}都满足：{body}", f"every player {n.var} is such that {body}")
        if isinstance(n, E.Attr) and n.name in BOOL_ATTRS:
            return self.flag(n, True)
        if isinstance(n, E.Var) and n.role == "global" and n.name == "message_lockable":
            return pick("情报可锁定", "the message can lock")
        if isinstance(n, E.Var) and n.role == "event" and n.name in EVENT_FLAGS:
            t = EVENT_FLAGS[n.name]
            return pick(t[0], t[2])
        if isinstance(n, E.Bin):
            return self.compare(n, False)
        if isinstance(n, E.If):
            return self.if_(n)
        return self.term(n)

    def negated(self, n, parent: str) -> str:
        if isinstance(n, E.Attr) and n.name in BOOL_ATTRS:
            return self.flag(n, False)
        if isinstance(n, E.Var) and n.role == "global" and n.name == "message_lockable":
            return pick("情报不可锁定", "the message cannot lock")
        if isinstance(n, E.Var) and n.role == "event" and n.name in EVENT_FLAGS:
            t = EVENT_FLAGS[n.name]
            return pick(t[1], t[3])
        if isinstance(n, E.Bin) and n.op in ("==", "!=", "in", "notin", "<", "<=", ">", ">="):
            return self.compare(n, True)
        if isinstance(n, E.Lit) and isinstance(n.value, bool):
            return self.cond(E.Lit(not n.value))
        if isinstance(n, E.Quant) and n.kind == "any":
            return pick(f"没有角色{n.var}满足：{self.cond(n.body)}", f"no player {n.var} is such that {self.cond(n.body)}")
        s = self.cond(n, "not")
        return pick(f"并非{s}", f"not {s}")

    def flag(self, n: E.Attr, positive: bool) -> str:
        k = 0 if positive else 1
        who = self.subject(n.obj)
        if who is None:
            zh, en = BOOL_ATTRS[n.name][k], BOOL_ATTRS[n.name][2 + k]
            return pick(zh, en)
        if n.name in BOUND:
            t = BOUND[n.name]
            return pick(t[k].format(p=who), t[2 + k].format(p=who))
        zh, en = BOOL_ATTRS[n.name][k], BOOL_ATTRS[n.name][2 + k]
        return pick(f"{who}{zh}", f"{who} is {en}")

    def compare(self, n: E.Bin, negate: bool) -> str:
        op = n.op
        if negate:
            op = {"==": "!=", "!=": "==", "in": "notin", "notin": "in", "<": ">=", "<=": ">", ">": "<=",
                  ">=": "<"}[op]
        if op in ("in", "notin"):
            return self.member(n.left, n.right, op == "in")
        hint = _identity_hint(n.left, n.right)
        left, right = self.term(n.left, hint), self.term(n.right, hint)
        if op in ("==", "!="):
            if _is_int(n.left) or _is_int(n.right):
                return pick(f"{left}{'=' if op == '==' else '≠'}{right}", f"{left} {'=' if op == '==' else '≠'} {right}")
            if isinstance(n.right, E.Var) and n.right.role == "param" and isinstance(n.left, E.Var) and \
                    n.left.role == "param":
                return pick(f"{left}与{right}{'相同' if op == '==' else '不同'}",
                            f"{left} {'is the same as' if op == '==' else 'differs from'} {right}")
            return pick(f"{left}{'是' if op == '==' else '不是'}{right}",
                        f"{left} {'is' if op == '==' else 'is not'} {right}")
        sym = {"<": "<", "<=": "≤", ">": ">", ">=": "≥"}[op]
        return pick(f"{left}{sym}{right}", f"{left} {sym} {right}")

    def member(self, x, s, positive: bool) -> str:
        hint = _identity_hint(x, s)
        item = self.term(x, hint)
        if isinstance(s, E.SetLit):
            items = [self.term(i, hint) for i in s.items]
            if len(items) == 1:
                return pick(f"{item}{'是' if positive else '不是'}{items[0]}",
                            f"{item} {'is' if positive else 'is not'} {items[0]}")
            return pick(f"{item}{'是' if positive else '不是'}{'、'.join(items)}之一",
                        f"{item} {'is one of' if positive else 'is none of'} {', '.join(items)}")
        whole = self.term(s)
        return pick(f"{whole}{'包含' if positive else '不包含'}{item}",
                    f"{whole} {'include' if _plural(s) else 'includes'} {item}" if positive else
                    f"{whole} {'do not include' if _plural(s) else 'does not include'} {item}")

    def if_(self, n: E.If) -> str:
        c, a, b = self.cond(n.cond), self.top(n.then), self.top(n.other)
        return pick(f"若{c}则{a}，否则{b}", f"if {c}, then {a}, otherwise {b}")

    # ---- values
    def subject(self, obj) -> str | None:
        """Whose attribute: None for the skill's owner (said without a subject), else the bound name."""
        if isinstance(obj, E.Var) and obj.name == "self":
            return None
        if isinstance(obj, E.Var) and self.event_role(obj):
            return pick(*self.roles[obj.name])
        if isinstance(obj, E.Var):
            return obj.name
        return self.term(obj)

    def term(self, n, hint: str = "") -> str:
        if isinstance(n, E.Lit):
            if isinstance(n.value, bool):
                return pick("是", "yes") if n.value else pick("否", "no")
            return str(n.value)
        if isinstance(n, E.Unknown):
            return pick("未知", "unknown")
        if isinstance(n, E.Const):
            return self.const(n, hint)
        if isinstance(n, E.Var):
            if n.name == "self":
                return pick("自己", "the owner")
            if n.role == "param":
                return param_name(n.name)
            if n.role == "event" and n.name in EVENT_FLAGS:
                return self.cond(n)
            if n.role == "event" and n.name in EVENT_NOUNS:
                return pick(*EVENT_NOUNS[n.name])
            if n.role == "event" and n.name == "it":               # an op's ``where``: the card it moves
                return pick("这张牌", "the card")
            if n.role == "event" and not self.event_role(n):      # a name an earlier op gave what it moved (``as``)
                if str(getattr(n, "type", "")).startswith("set<"):
                    return pick("先前记下的那张牌", f"the card called {n.name}")
                return pick("先前记下的张数", f"the number called {n.name}")
            if self.event_role(n):
                return pick(*self.roles[n.name])
            if n.name in NOUNS:
                zh, en = NOUNS[n.name]
                return pick(zh, en)
            return n.name
        if isinstance(n, E.Attr):
            if n.name in BOOL_ATTRS:
                return self.flag(n, True)
            zh, en = NOUNS.get(n.name, (n.name, n.name))
            who = self.subject(n.obj)
            if who is None:
                return pick(zh, en)
            if n.name == "character":                     # p is 小九, not p's character is 小九
                return who
            return pick(f"{who}的{zh}", f"{who}'s {en}")
        if isinstance(n, E.Unary):
            if n.op == "not":
                return self.negated(n.arg, "")
            return f"-{self.term(n.arg)}"
        if isinstance(n, E.Bin):
            if n.op in ("+", "-", "*"):
                a, b = self.term(n.left), self.term(n.right)
                sym = "×" if n.op == "*" else n.op
                a = pick(f"（{a}）", f"({a})") if isinstance(n.left, E.Bin) and n.op == "*" else a
                b = pick(f"（{b}）", f"({b})") if isinstance(n.right, E.Bin) else b
                return pick(f"{a}{sym}{b}", f"{a} {sym} {b}")
            return self.cond(n)
        if isinstance(n, E.If):
            return self.if_(n)
        if isinstance(n, E.SetLit):
            items = [self.term(i, hint) for i in n.items]
            return pick("、".join(items) if items else "空集", ", ".join(items) if items else "nothing")
        if isinstance(n, E.Quant):
            if n.kind == "count":
                return pick(f"满足「{self.cond(n.body)}」的角色{n.var}的数目",
                            f"the number of players {n.var} such that {self.cond(n.body)}")
            return self.cond(n)
        if isinstance(n, E.Lambda):
            return self.top(n)
        return "?"

    def event_role(self, n: E.Var) -> bool:
        """A player the event names (a guard's ``sender``), not a player a quantifier binds."""
        return n.role == "player" and n.name in self.roles

    def const(self, n: E.Const, hint: str) -> str:
        v = n.value
        t = n.type
        if t == "colour" or (not t and v in COLOUR):
            zh, en = (IDENTITY if hint == "identity" else COLOUR).get(v, (v, v))
            return pick(zh, en)
        if t == "direction" or (not t and v in DIRECTION):
            zh, en = DIRECTION.get(v, (v, v))
            return pick(zh, en)
        if self.cat is not None:
            return self.cat.name_of(v)
        return v


def _flatten(n, op: str) -> list:
    if isinstance(n, E.Bin) and n.op == op:
        return _flatten(n.left, op) + _flatten(n.right, op)
    return [n]


def _is_bool(n) -> bool:
    """Is ``n`` a condition (said as one) rather than a value? Its checked type when it has one."""
    if n.type and n.type != "any":
        return n.type == "bool"
    if isinstance(n, E.Bin):
        return n.op not in ("+", "-", "*")
    if isinstance(n, E.If):
        return _is_bool(n.then)
    if isinstance(n, E.Quant):
        return n.kind != "count"
    if isinstance(n, E.Unary):
        return n.op == "not"
    return isinstance(n, E.Unknown) or (isinstance(n, E.Attr) and n.name in BOOL_ATTRS)


def _is_int(n) -> bool:
    if n.type:
        return n.type == "int"
    return isinstance(n, E.Lit) and not isinstance(n.value, bool) or \
        (isinstance(n, (E.Attr, E.Var)) and getattr(n, "name", "") in
         ("hand_count", "red_messages", "blue_messages", "black_messages", "true_messages", "non_black_messages",
          "lock_count", "count"))


def _identity_hint(*nodes) -> str:
    """'identity' when one side is an identity: its colours are then 红方 / 神秘人 …, not 红色 / 黑色."""
    for x in nodes:
        if isinstance(x, E.Attr) and x.name == "identity":
            return "identity"
        if isinstance(x, E.Var) and x.name == "identity":
            return "identity"
    return ""


def _plural(n) -> bool:
    return isinstance(n, E.Var) and n.name in ("message", "played") or \
        (isinstance(n, E.Attr) and n.name == "played")


def value(cat: Catalogue, v) -> str:
    """A value for people: catalogue names, 是/否 or yes/no, sets in braces — never a Python repr or an id."""
    if isinstance(v, dict):
        return pick("（" + "，".join(f"{param_name(k)}={value(cat, x)}" for k, x in v.items()) + "）",
                    "(" + ", ".join(f"{param_name(k)} = {value(cat, x)}" for k, x in v.items()) + ")")
    if isinstance(v, (list, tuple, set, frozenset)):
        items = list(v)
        if not items:                 # an empty set is none, not a pair of braces
            return pick("无", "none")
        try:
            items = sorted(items)
        except TypeError:             # not comparable (the skill list after a turn end): kept in order
            pass
        return "{" + pick("、", ", ").join(value(cat, x) for x in items) + "}"
    if isinstance(v, bool):
        return pick("是" if v else "否", "yes" if v else "no")
    if isinstance(v, str):
        if v in cat.cards or v in cat.characters or v in cat.skills:
            return cat.name_of(v)
        if v in COLOUR:
            return pick(*COLOUR[v])
        return v
    if v is None:
        return pick("无", "none")
    return str(v)
