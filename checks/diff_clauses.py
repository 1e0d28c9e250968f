"""A changed engine rule read as clauses (a win check, a game state's steps, a deck function: ``model.extract.wins`` and
``model.extract.timing``) worded in the game's terms, so that the gate's failure says what now happens and when, not
only the code that changed.

Each clause is ``action if condition and condition …`` as the extractor writes it. The action and the conditions are
read by the code forms the engine uses for them, whichever rule or state they come from:

* actions — a player recorded as declaring victory (``declare…add(x)``), added to the winners (``winner.add(x)``,
  ``win += x``), the game ended (``end``), a player dying (``x.alive = false``) or out of the game (``x.lose = true``),
  put among those who die (``diedQueue.add(x)``), a card to the discard pile (``deck.discard``), a message received
  (``messageCards.add``), an event raised (``addEvent(FooEvent(…))``), the engine going on to a state
  (``ResolveResult(State(…))``);
* conditions — an identity (``x.identity == Black``: 神秘人), a secret task (``x.secretTask == Collector``:
  双重间谍), a count of messages of a colour (``x.messageCards.count(Red) >= 3``), alive or dead, face up, whose turn.

What is not recognised is left as the code writes it: the wording adds to the clause, it never replaces it.
"""
from __future__ import annotations

import re

from skillproof.model.extract.conds import split_top_level
from skillproof.model.lang import pick

#: the identities (server ``color`` as an identity) and the secret tasks (server ``secret_task``), in each language
IDENTITY = {"Black": ("神秘人", "a mystery (black) player"), "Red": ("红方", "red"), "Blue": ("蓝方", "blue"),
            "Has_No_Identity": ("无身份", "identity-less")}
COLOUR = {"Black": ("黑色", "black"), "Red": ("红色", "red"), "Blue": ("蓝色", "blue")}
TASK = {"Killer": ("镇压者", "Killer"), "Stealer": ("簒夺者", "Stealer"), "Collector": ("双重间谍", "Collector"),
        "Mutator": ("诱变者", "Mutator"), "Pioneer": ("先行者", "Pioneer"), "Disturber": ("搅局者", "Disturber"),
        "Sweeper": ("清道夫", "Sweeper")}
_CMP = {">=": ("至少", "at least"), ">": ("多于", "more than"), "==": ("恰好", "exactly"), "<=": ("至多", "at most"),
        "<": ("少于", "fewer than"), "!=": ("不是", "not")}
_WHO = {"whoseTurn": ("当前回合角色", "the turn player"), "it": ("该角色", "that player"),
        "p": ("该角色", "that player"), "player": ("该角色", "that player"), "r": ("技能角色", "the skill's owner"),
        "whoDie": ("濒死的角色", "the dying player"), "sender": ("传出者", "the sender"),
        "inFrontOfWhom": ("情报面前的角色", "the player the message stands before"),
        "askWhom": ("被询问的角色", "the player asked")}


_TASK_LOCAL = {k.lower(): k for k in TASK}
_FILTER = re.compile(r"^[\w.]*players\.filter\s*\{\s*it\.identity\s*==\s*(\w+)\s*\}$")


def _who(expr: str) -> str:
    """A player as the clause names him: a known local (whose turn, the dying player …) in words, a local named by the
    secret task it finds (``killer = players.find { … secretTask == Killer }``) as that task, every player of an
    identity (``players.filter { it.identity == Red }``), else as the code names him."""
    e = (expr or "").strip()
    m = _FILTER.match(e)
    if m:
        ident = IDENTITY.get(m.group(1), (m.group(1),) * 2)
        return pick(f"所有{ident[0]}角色", f"every {ident[1]} player")
    if re.fullmatch(r"[\w.]*players\[\w+\]", e):                # the player at a seat a walk round the table reached
        return pick("走到的座位上的角色", "the player at the seat reached")
    last = e.split(".")[-1].strip("()") if e else ""
    pair = _WHO.get(last)
    if pair:
        return pick(*pair)
    if last in _TASK_LOCAL:
        return pick(*TASK[_TASK_LOCAL[last]])
    return last or pick("该角色", "that player")


def _state_words(name: str) -> str:
    return pick(f"进入状态 {name}", f"goes on to the state {name}")


#: (pattern of an action, its words) — first match wins
_ACTIONS = (
    # whom a win hands the game-result skills as declared winners (result_pass.declared)
    (re.compile(r"^declared\s*:=\s*nobody(, then as the check adds)?$"), lambda m: pick(
        "改变游戏结果的技能看不到宣告胜利的角色" + ("（除非判定另行加入）" if m.group(1) else ""),
        "the game-result skills see nobody as a declared winner" + (" (but whom the check adds)" if m.group(1) else ""))),
    (re.compile(r"^declared\s*:=\s*(\w+)(, then as the check adds)?$"), lambda m: pick(
        f"改变游戏结果的技能把{_who(m.group(1))}看作宣告胜利的角色" + ("（以及判定另行加入的）" if m.group(2) else ""),
        f"the game-result skills see {_who(m.group(1))} as a declared winner" + (" (and whom the check adds)"
                                                                                   if m.group(2) else ""))),
    (re.compile(r"^declare\s*\+=\s*(.+)$"), lambda m: pick(f"{_who(m.group(1))}宣告胜利",
                                                         f"{_who(m.group(1))} declares victory")),
    (re.compile(r"^win\s*\+=\s*(.+)$"), lambda m: pick(f"{_who(m.group(1))}获胜", f"{_who(m.group(1))} wins")),
    (re.compile(r"^declare\w*\s*:?=\s*list\((\w+)\)$"), lambda m: pick(f"{_who(m.group(1))}宣告胜利",
                                                                      f"{_who(m.group(1))} declares victory")),
    (re.compile(r"^win\w*\s*:?=\s*list\((\w+)\)$"), lambda m: pick(f"{_who(m.group(1))}获胜", f"{_who(m.group(1))} wins")),
    (re.compile(r"^declare\w*\s*:?=\s*(.+)$"), lambda m: pick(f"宣告胜利的改为 {m.group(1)}",
                                                          f"the declarers become {m.group(1)}")),
    (re.compile(r"\bdeclare\w*\.(?:addAll\w*|addAllPlayers)\((.*)\)"), lambda m: pick(
        f"{m.group(1)} 都宣告胜利", f"all of {m.group(1)} declare victory")),
    (re.compile(r"\bdeclare\w*\.(?:add\w*|put)\((.*)\)"), lambda m: pick(f"{_who(m.group(1))}宣告胜利",
                                                                       f"{_who(m.group(1))} declares victory")),
    (re.compile(r"\bwin\w*\.(?:addAll\w*)\((.*)\)"), lambda m: pick(f"{m.group(1)} 都获胜", f"all of {m.group(1)} win")),
    (re.compile(r"\bwin\w*\.(?:add\w*|put)\((.*)\)|\bwin\w*\s*\+=\s*(.+)$"),
     lambda m: pick(f"{_who(m.group(1) or m.group(2))}获胜", f"{_who(m.group(1) or m.group(2))} wins")),
    (re.compile(r"\bwin\w*\s*:?=\s*(.+)$"), lambda m: pick(f"获胜的改为 {m.group(1)}", f"the winners become {m.group(1)}")),
    (re.compile(r"^end\b"), lambda m: pick("游戏结束", "the game ends")),
    (re.compile(r"([\w.]+)\.alive\s*=\s*false"), lambda m: pick(f"{_who(m.group(1))}死亡", f"{_who(m.group(1))} dies")),
    (re.compile(r"([\w.]+)\.lose\s*=\s*true"), lambda m: pick(f"{_who(m.group(1))}出局", f"{_who(m.group(1))} is out")),
    (re.compile(r"\bdiedQueue\.add\w*\((.*)\)"), lambda m: pick(f"{_who(m.group(1))}列入死亡的角色",
                                                             f"{_who(m.group(1))} is put among those who die")),
    (re.compile(r"\bdeck\.discard\((.*)\)"), lambda m: pick(f"{m.group(1)} 进入弃牌堆",
                                                          f"{m.group(1)} goes to the discard pile")),
    (re.compile(r"([\w.]*)\bmessageCards\.add\w*\((.*)\)"), lambda m: pick(
        f"{_who(m.group(1).rstrip('.')) if m.group(1) else pick('该角色', 'that player')}收到情报 {m.group(2)}",
        f"{_who(m.group(1).rstrip('.')) if m.group(1) else 'that player'} receives the message {m.group(2)}")),
    (re.compile(r"\baddEvent\((\w+?)Event\("), lambda m: pick(f"引发事件 {m.group(1)}", f"raises the event {m.group(1)}")),
    # a message on its way (the send path's states): received, moved on, stopping before a player, its face
    (re.compile(r"ResolveResult\((\w*Receive\w*)\([^()]*?(\w+)\)\s*,"), lambda m: pick(
        f"情报由{_who(m.group(2))}接收", f"the message is received by {_who(m.group(2))}")),
    (re.compile(r"ResolveResult\((\w*MoveNext\w*)\("), lambda m: pick("情报移到下一名角色面前",
                                                                    "the message moves on to the next player")),
    (re.compile(r"ResolveResult\([\w.]+\.copy\(inFrontOfWhom\s*=\s*(.+?)\)\s*,"), lambda m: pick(
        f"情报停在{_who(m.group(1))}面前", f"the message stops before {_who(m.group(1))}")),
    (re.compile(r"^face\s*:=\s*(.+)$"), lambda m: _face_words(m.group(1).strip())),
    (re.compile(r"ResolveResult\((\w+)[(,]"), lambda m: _state_words(m.group(1))),
)


def _face_words(v: str) -> str:
    """The face a message is handed on with (``send_face``)."""
    if v == "false":
        return pick("情报面朝下传递", "the message travels face down")
    if v == "true":
        return pick("情报面朝上传递", "the message travels face up")
    if v == "as handed":
        return pick("情报保持传出时的朝向", "the message keeps the face it was sent with")
    return pick(f"情报的朝向为 {v}", f"the message's face is {v}")

#: (pattern of a condition, its words)
_CONDS = (
    (re.compile(r"^!\(diedQueue\.isEmpty\(\)\)$"), lambda m: pick("有角色死亡", "someone died")),
    (re.compile(r"^!\(declare\w*\.isNotEmpty\(\)\)$"), lambda m: pick("没有角色宣告胜利", "nobody declared victory")),
    (re.compile(r"^each\((\w+) in [\w.]+\)$"), lambda m: pick("对每名角色", "for each player")),
    (re.compile(r"^!\(([\w.\[\]]+)\.alive\)$"), lambda m: pick(f"{_who(m.group(1))}已死亡", f"{_who(m.group(1))} is dead")),
    (re.compile(r"^!\((.+)\)$"), lambda m: pick(f"并非（{condition_words(m.group(1)) or m.group(1)}）",
                                                 f"not ({condition_words(m.group(1)) or m.group(1)})")),
    (re.compile(r"([\w.]+?)\.?messageCards\.countTrueCard\(\)\s*(>=|<=|==|!=|>|<)\s*(\d+)"), lambda m: pick(
        f"{_who(m.group(1))}的真情报（红色或蓝色）{pick(*_CMP[m.group(2)])}{m.group(3)}张",
        f"{_who(m.group(1))} has {pick(*_CMP[m.group(2)])} {m.group(3)} true (red or blue) messages")),
    (re.compile(r"^whoseTurn\s*===?\s*([\w.]+)$"), lambda m: pick(f"{_who(m.group(1))}是当前回合角色",
                                                                f"{_who(m.group(1))} is the turn player")),
    (re.compile(r"^declare\w*\.isNotEmpty\(\)$"), lambda m: pick("有角色宣告胜利", "someone declared victory")),
    (re.compile(r"^diedQueue\.isEmpty\(\)$"), lambda m: pick("没有角色死亡", "nobody died")),
    (re.compile(r"^(\w+)\s*!=\s*null$"), lambda m: pick(f"有{_who(m.group(1))}", f"there is a {_who(m.group(1))}")
     if m.group(1) in _TASK_LOCAL else ""),
    (re.compile(r"([\w.]+)\.identity\s*(==|!=)\s*(\w+)"), lambda m: pick(
        f"{_who(m.group(1))}{'是' if m.group(2) == '==' else '不是'}{pick(*IDENTITY.get(m.group(3), (m.group(3),) * 2))}",
        f"{_who(m.group(1))} {'is' if m.group(2) == '==' else 'is not'} "
        f"{pick(*IDENTITY.get(m.group(3), (m.group(3),) * 2))}")),
    (re.compile(r"([\w.]+)\.secretTask\s*(==|!=)\s*(\w+)"), lambda m: pick(
        f"{_who(m.group(1))}的秘密任务{'是' if m.group(2) == '==' else '不是'}{pick(*TASK.get(m.group(3), (m.group(3),) * 2))}",
        f"{_who(m.group(1))}'s secret task {'is' if m.group(2) == '==' else 'is not'} "
        f"{pick(*TASK.get(m.group(3), (m.group(3),) * 2))}")),
    (re.compile(r"([\w.]+?)\.?messageCards\.count\((\w+)\)\s*(>=|<=|==|!=|>|<)\s*(\d+)"), lambda m: pick(
        f"{_who(m.group(1))}的{pick(*COLOUR.get(m.group(2), (m.group(2),) * 2))}情报{pick(*_CMP[m.group(3)])}{m.group(4)}张",
        f"{_who(m.group(1))} has {pick(*_CMP[m.group(3)])} {m.group(4)} "
        f"{pick(*COLOUR.get(m.group(2), (m.group(2),) * 2))} messages")),
    (re.compile(r"^!\s*\(?([\w.\[\]]+)\.alive\)?$"), lambda m: pick(f"{_who(m.group(1))}已死亡",
                                                                  f"{_who(m.group(1))} is dead")),
    (re.compile(r"^([\w.\[\]]+)\.alive$"), lambda m: pick(f"{_who(m.group(1))}存活", f"{_who(m.group(1))} is alive")),
    (re.compile(r"^([\w.]+)\.roleFaceUp$"), lambda m: pick(f"{_who(m.group(1))}正面朝上", f"{_who(m.group(1))} is face up")),
    (re.compile(r"^([\w.]+)\s*===?\s*whoseTurn$"), lambda m: pick(f"{_who(m.group(1))}是当前回合角色",
                                                                f"{_who(m.group(1))} is the turn player")),
    (re.compile(r"^([\w.]+)\s*!==?\s*whoseTurn$"), lambda m: pick(f"{_who(m.group(1))}不是当前回合角色",
                                                                f"{_who(m.group(1))} is not the turn player")),
    (re.compile(r"^([\w.\[\]]+?)\.cards\.isNotEmpty\(\)$"), lambda m: pick(f"{_who(m.group(1))}有手牌",
                                                                          f"{_who(m.group(1))} holds hand cards")),
    (re.compile(r"^([\w.\[\]]+?)\.cards\.isEmpty\(\)$"), lambda m: pick(f"{_who(m.group(1))}没有手牌",
                                                                       f"{_who(m.group(1))} holds no hand cards")),
    (re.compile(r"^([\w.\[\]]+)\s*===?\s*([\w.]*sender)$|^([\w.]*sender)\s*===?\s*([\w.\[\]]+)$"), lambda m: pick(
        f"{_who(m.group(1) or m.group(4))}是传出者", f"{_who(m.group(1) or m.group(4))} is the sender")),
    (re.compile(r"^[\w.]*\bdir\s*(==|!=)\s*(Up|Left|Right)$"), lambda m: pick(
        f"传递方向{'是' if m.group(1) == '==' else '不是'}{ {'Up': '向上', 'Left': '向左', 'Right': '向右'}[m.group(2)]}",
        f"the message {'goes' if m.group(1) == '==' else 'does not go'} {m.group(2).lower()}")),
    (re.compile(r"^(\w+)\.(\w+) calls the result pass$"), lambda m: pick(f"{m.group(1)}.{m.group(2)}判定胜利",
                                                                       f"{m.group(1)}.{m.group(2)} finds a win")),
    (re.compile(r"^(\w+)\.(\w+) goes on to (\w+)$"), lambda m: pick(f"{m.group(1)}.{m.group(2)}进入{m.group(3)}",
                                                                   f"{m.group(1)}.{m.group(2)} hands it on to "
                                                                   f"{m.group(3)}")),
)


def _split_conditions(cond: str) -> list:
    """The conditions of a clause: its ``and``-joined parts and the ``&&``-joined parts of each (a test the code
    writes whole is one part)."""
    out = []
    for part in re.split(r"\s+and\s+", cond):
        out += split_top_level(part, "&&", "({[", ")}]")
    return out


def condition_words(cond: str) -> str:
    """One condition in the game's terms; '' when none of its forms is recognised."""
    c = cond.strip()
    for pat, words in _CONDS:
        m = pat.search(c)
        if m and (pat.pattern.startswith("^") or len(m.group(0)) >= len(c) - 2):
            return words(m)
    return ""


_BIND = re.compile(r"^(\w+)\s*=\s*([\w.]*messageCards\.count(?:TrueCard)?\(\w*\))(?:\s+if\s|$)")


def _bindings(clauses) -> dict:
    """The locals the clauses bind to a count of messages (``red = player.messageCards.count(Red)``): a condition on
    the local is one on the count."""
    out = {}
    for c in clauses or ():
        m = _BIND.match(str(c))
        if m:
            out[m.group(1)] = m.group(2)
    return out


def _unbind(text: str, binds: dict) -> str:
    for name, expr in binds.items():
        text = re.sub(r"(?<![\w.])" + re.escape(name) + r"(?=\s*(?:>=|<=|==|!=|>|<)\s*\d)", expr, text)
    return text


def clause_words(clause: str, context=()) -> str:
    """One clause (``action if conditions``) in the game's terms: the action and each condition recognised in words,
    the rest as the code writes it; '' when the action is not recognised. ``context``: the rule's other clauses (the
    locals they bind to a count of messages)."""
    text = _unbind(str(clause), _bindings(context))
    action, _, cond = text.partition(" if ")
    said = ""
    for pat, words in _ACTIONS:
        m = pat.search(action.strip())
        if m:
            said = words(m)
            break
    if not said:
        return ""
    if not cond:
        return said
    parts = [condition_words(c) or c for c in _split_conditions(cond)]
    parts = [p for p in parts if p != pick("对每名角色", "for each player") and p != "each(true)"]   # (a loop's own)
    if not parts:
        return said
    return pick(f"当{'且'.join(parts)}时，{said}", f"{said} when {' and '.join(parts)}")


def clauses_words(base, head) -> str:
    """The clauses gone and the clauses new between two values of a clause-list engine rule, in the game's terms
    (only those whose action is recognised); '' when none is, or when a value is not a list of clauses."""
    if not isinstance(base, (list, tuple)) or not isinstance(head, (list, tuple)):
        return ""
    gone = [w for w in (clause_words(x, base) for x in base if x not in head) if w]
    came = [w for w in (clause_words(x, head) for x in head if x not in base) if w]
    parts = []
    if gone:
        parts.append(pick("不再：" + "；".join(gone), "no longer: " + "; ".join(gone)))
    if came:
        parts.append(pick("现在：" + "；".join(came), "now: " + "; ".join(came)))
    return pick("。", ". ").join(parts)


#: a player property's getter (``prop.<Class>.<name>``) → what it decides, and the atoms of its truth table, in words
_PROP = {"isFemale": ("算作女性角色", "counts as a woman"), "isMale": ("算作男性角色", "counts as a man"),
         "roleFaceUp": ("算作面朝上", "counts as face up"), "alive": ("算作存活", "counts as alive"),
         "hasEverFaceUp": ("算作曾经面朝上", "counts as having been face up")}
_PROP_ATOMS = {"female": ("角色是女性", "the role is female"), "isFaceUp": ("角色面朝上", "the role is face up"),
               "faceUp": ("角色面朝上", "the role is face up"), "roleFaceUp": ("角色面朝上", "the role is face up"),
               "alive": ("角色存活", "the player is alive"), "isPublicRole": ("是公开角色", "the role is a public one")}


def prop_words(name: str, base, head) -> str:
    """A changed player-property getter (``prop.<Class>.isFemale``: the rows of its truth table, ``female and isFaceUp``)
    in the game's terms: when a player counts as what the property says, before and now, and the tests it no longer
    makes (``whether the role is face up or not``); '' when the name or a value is not such a getter's."""
    m = re.fullmatch(r"prop\.\w+\.(\w+)", name or "")
    if not m or m.group(1) not in _PROP or not isinstance(base, (list, tuple)) or not isinstance(head, (list, tuple)):
        return ""

    def atom(a: str) -> str:
        neg = a.startswith("not ")
        a = a[4:] if neg else a
        w = pick(*_PROP_ATOMS.get(a, (a, a)))
        return pick(f"并非{w}", f"not ({w})") if neg else w

    def rows(v) -> str:
        if list(v) == ["never"]:
            return pick("从不", "never")
        return pick("或", " or ").join(pick("且", " and ").join(atom(x) for x in r.split(" and ")) for r in v)

    def atoms(v) -> set:
        return {x.removeprefix("not ") for r in v for x in str(r).split(" and ") if r != "never"}
    what = pick(*_PROP[m.group(1)])
    gone = sorted(atoms(base) - atoms(head))
    tail = pick("（无论" + "、".join(pick(*_PROP_ATOMS.get(a, (a, a))) for a in gone) + "与否）",
                " (whether " + " or ".join(pick(*_PROP_ATOMS.get(a, (a, a))) for a in gone) + " or not)") if gone else ""
    return pick(f"一名角色{what}的条件：原为 {rows(base)}，现为 {rows(head)}{tail}",
                f"a player {what} when: was {rows(base)}; now {rows(head)}{tail}")


__all__ = ["clause_words", "clauses_words", "condition_words", "prop_words"]
