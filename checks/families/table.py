"""Cards on the moving table (TB).

A card is used on the table of a game: by a player its window allows (``windows``), on a target (``target``: nobody,
any living player or another one, and the condition per window the target must meet), and only when the server's own
test before the use holds (``requires``, the card's ``canUse``). The three are written apart — the windows and the
target from the rule book, ``requires`` read off the server — so they can contradict each other: a card whose
conditions can never all hold together is a card nobody can ever use, in the rules as written.

* TB001 — a card whose conditions never hold together, in any window it names, on any table: its target's condition
  and ``requires`` contradict each other or the window (濒死求澄清 has a dying player with three black messages,
  争夺阶段 a message in front of a living player). (A ``requires`` that reads the target of a card whose ``target``
  is "none" is a catalogue error the loader reports, not a finding.)

Sound by construction: the table is left open — every hand, message area, face, identity, who is alive, who is in
front of the message and who is dying a free value, only what holds of every table of a game kept (the counts fit an
area, a dead player holds no cards, the dying player has three black messages, the players the roles name are at the
table) — at every size from the smallest room to five seats. A condition that reads a character's attributes (who
the character is, female, hidden), the cards used this turn or a card's parameters is not checked (the table's
characters are not free values). The other table questions of issue 22 — a win rule that can never be met (the
unreachable family's, on the timed model); a receive rule or a lock the message's path cannot honour — are not this
family's yet.
"""
from __future__ import annotations

import z3

from skillproof.checks import worklimit as W
from skillproof.checks import z3signals  # noqa: F401 — z3 leaves the signals to Python, and stops on them

from skillproof.checks.findings import Finding, RuleRef
from skillproof.checks.registry import Code, register
from skillproof.model import expr as E
from skillproof.model import turn as TW
from skillproof.model.interp.trace import Trace
from skillproof.model.state import Seat, State

#: the family's page in Chinese (`skillproof rules table`; the docstring is the English)
DOC_ZH = """牌桌上的卡牌（TB）。

卡牌在一局游戏的牌桌上使用：由使用时机允许的角色（`windows`）、对一个目标（`target`：没有目标、任一存活角色或另一名角色，
以及每个时机目标要满足的条件）使用，而且服务器使用前自己的检查要成立（`requires`，卡牌的 `canUse`）。这三者是分开写的——
时机和目标来自规则书，`requires` 从服务器读出——所以可能互相矛盾：条件永远不能同时成立的牌，按写下的规则谁也用不了。

* TB001 — 在它写明的任何时机、任何牌桌上条件都不能同时成立的牌：目标的条件和 `requires` 互相矛盾，或者与时机矛盾
  （濒死求澄清时有一名有三张黑色情报的濒死角色，争夺阶段时情报在一名存活角色面前）。（`target = "none"` 的牌的
  `requires` 读目标，是读取目录时报告的目录错误，不是发现。）

这个检查是可靠的：牌桌完全放开——每个人的手牌、情报区、翻面、身份、谁存活、情报在谁面前、谁濒死都是自由的值，只保留
每一局游戏的牌桌都成立的事实（情报数目对得上情报区、死亡的角色没有手牌、濒死的角色有三张黑色情报、角色名指的人在座）——
从最小的房间到五个座位的每种人数。读角色属性（是哪个角色、女性、隐藏角色）、本回合用过的牌或卡牌参数的条件不检查（牌桌
上的角色不是自由的值）。议题 22 的其他牌桌检查——永远达不到的胜利条件（不可达规则那一组在有时序的模型上检查）；情报的
传递路线无法满足的接收规则或锁定——还不是这一组的。
"""

TB001 = Code("TB001", "card-conditions-never-hold", "warning",
             "a card whose conditions (its target's, its requires) never hold together in any window it names",
             "nobody can ever use the card as the rules are written; either a condition is mistyped, or the card's "
             "target and what the server checks before the use were written apart and disagree",
             todo="fix the condition that cannot hold (the finding names it), or give the card the target its "
                  "condition reads",
             summary_zh="在写明的任何时机，目标条件和 `requires` 都不能同时成立的牌",
             why_zh="按写下的规则，谁也用不了这张牌；要么条件写错了，要么目标和服务器使用前的检查是分开写的、彼此不一致",
             todo_zh="改正那个不能成立的条件（发现里会指出），或者给这张牌它的条件所读的目标",
             example='''[[card]]
id = "Push"
name = "推"
windows = { fight = "anyone" }
target = { who = "any", when = "target == front" }   # 目标是情报面前的角色……
requires = "target != front"                         # ……服务器却要求目标不是他
[[card]]
id = "Save"
name = "救"
windows = { dying = "anyone" }
target = { who = "any", when = { dying = "target == dying and target.black_messages < 3" } }   # 濒死者有三张黑色情报
[[character]]
id = "plain"
name = "路人"
hidden = false
female = false
skills = []
[[character]]
id = "plain2"
name = "路人乙"
hidden = false
female = true
skills = []''')

#: attributes whose values the open table does not leave free: a condition reading one is not checked
NOT_FREE = frozenset({"character", "female", "male", "hidden", "played", "used", "in_winners", "in_declared"})
#: the table sizes the check covers
SIZES = range(2, 6)


def _reads(node) -> tuple[set, set]:
    """(the attributes a condition reads, the player variables it reads)."""
    attrs, players = set(), set()
    for x in E.walk(node):
        if isinstance(x, E.Attr):
            attrs.add(x.name)
        if isinstance(x, E.Var) and x.role == "player":
            players.add(x.name)
        if isinstance(x, E.Var) and x.role == "param":
            attrs.add("param")
    return attrs, players


def _open_table(cat, n: int, chars: list):
    """A game twin's table at the start of a template with every value left open (checks/ask/table.py's setup),
    with the invariants of every table of a game as constraints."""
    from skillproof.checks.ask.table import _Names, _setup, is_invariant
    from skillproof.checks.enc.game import GameEncoding
    from skillproof.model.interp.trace import Event
    setup = _setup(cat, chars, _Names("t."))
    enc = GameEncoding(cat, Trace(setup, [Event("turn", seat=0)], table=True))
    # what holds of every table of a game at any moment (not only at a turn's start: a dying player lives with
    # three black messages)
    inv = [lab.expr for lab in enc.legal if is_invariant(lab.label) and "three black" not in lab.label]
    return enc, enc.at(None).copy(), inv


#: z3 resource units one "can the card's conditions hold together" question may spend: its budget in work (spent: no
#: finding, on every machine); its wall-clock time is only the safety net — running into it is an inconclusive finding
NEVER_RLIMIT = 20_000_000
NEVER_TIMEOUT_MS = 60_000


def never_holds(cat, card, window: str, chars: list, n: int):
    """None when the card's target and requires can hold together in ``window`` on some open table of ``n`` seats;
    else why not: ("never", None) (or ("unknown", None): the solver gave up)."""
    from skillproof.checks.enc.cond import compile_defined
    from skillproof.checks.enc.table import enc_next_alive
    from skillproof.checks.enc.val import AND, EQ, GE, NE, NONE, NOT, OR, z
    enc, tab, inv = _open_table(cat, n, chars)
    C = enc.C
    s = z3.Solver()
    s.set("rlimit", NEVER_RLIMIT)
    s.set("timeout", NEVER_TIMEOUT_MS)
    s.add(inv)
    seat = lambda name: z3.Int(f"tb:{name}")             # noqa: E731
    ok = lambda v: z3.And(v >= 0, v < n)                  # noqa: E731
    alive = lambda v: z3.Or([z3.And(v == i, z(tab.seats[i].alive)) for i in range(n)])   # noqa: E731
    user = seat("self")
    s.add(ok(user), alive(user))
    actor = card.windows.get(window)
    tab.window = window
    players = {"self": user, "turn_player": 0}
    if actor == "turn":
        s.add(user == 0)                                 # the turn player (seat 0 of the open table)
    if window in TW.MESSAGE_WINDOWS or window == "fight":
        front = seat("front")
        s.add(ok(front), alive(front))
        tab.in_front = front
        players["front"] = front
        sender = seat("sender")
        s.add(ok(sender))
        players["sender"] = sender
        if actor == "in_front":
            s.add(user == front)
    if window == "dying":
        dying = seat("dying")
        s.add(ok(dying), alive(dying))
        s.add(z3.Or([z3.And(dying == i, z(GE(tab.seats[i].count("black_messages"), 3))) for i in range(n)]))
        players["dying"] = dying
        tab.dying = dying
    spec = card.target
    who = spec.who if spec is not None else "none"
    conds = []
    if who != "none":
        target = seat("target")
        s.add(ok(target), alive(target))
        if who == "other":
            s.add(target != user)
        players["target"] = target
        cond = spec.when.get(window, spec.when.get("*")) if spec.when else None
        if cond is not None:
            conds.append(cond)
    if card.requires is not None:
        conds.append(card.requires)
    # the window's players' nearest living neighbours (model/turn.target_players: front_left, sender_right …)
    for base in TW.SIDED:
        if base in players:
            for side in ("left", "right"):
                players[f"{base}_{side}"] = enc_next_alive(tab, players[base], side)
    for cond in conds:
        value, defined = compile_defined(cat, C, tab, cond, players)
        s.add(z(AND(defined, value)))
    try:
        r = W.check(s, rlimit=NEVER_RLIMIT)
    except W.TimeSpent:
        return ("time", None)                   # the wall clock's safety net: no verdict, an inconclusive finding
    if r == z3.sat:
        return None
    if r == z3.unknown:
        return ("unknown", None)                # the work budget spent: the same on every machine
    return ("never", None)


def checkable(card) -> bool:
    conds = [card.requires] + (list(card.target.when.values()) if card.target and card.target.when else [])
    for c in conds:
        if c is not None and _reads(c)[0] & NOT_FREE:
            return False
    return any(c is not None for c in conds)


# shared lane 1, after the lane's deferred work (``solverless``): it asks the lane's solver nothing and has no witness,
# so no other finding changes wherever it runs; lane 0 (with the intents) is the slower of the two lanes
# (benchmarks/lanes_ab.py, December 2026), so it left the end of lane 0 for the end of lane 1
@register("table", "Cards on the moving table", [TB001], order=98, shared_lane=1, weight=1, solverless=True)
def run(ctx):
    from skillproof.checks.ask.table import quiet_characters
    cat = ctx.cat
    out = []
    # the seats: quiet characters first, then the others — a table of n seats needs n characters, and a catalogue whose
    # characters nearly all hold rules still has tables (taking only the quiet ones left every size unchecked: no
    # finding at all, never a "no" — issue 27's blind run, a card whose target is another player and whose requires is
    # `target == self`)
    quiet = quiet_characters(cat)
    quiet = quiet + [c for c in cat.characters if c not in quiet]
    for cid, card in sorted(cat.cards.items()):
        if not card.windows or not checkable(card):
            continue
        why = None
        unknown = False
        for window in card.windows:
            hold = False
            for n in SIZES:
                if not cat.rules.min_seats <= n <= cat.rules.seats:
                    continue
                chars = quiet[:n] if len(quiet) >= n else None
                if chars is None:
                    continue
                got = never_holds(cat, card, window, chars, n)
                if got is None:
                    hold = True
                    break
                if got[0] == "time":            # stopped by the clock: said, never a silent "no finding"
                    from skillproof.checks.solve import Answer
                    out.append(ctx.inconclusive(
                        "table", f"【{card.name}】的条件在{window}时能否同时成立（{n}人）", [cid],
                        Answer("unknown", reason=f"time budget spent ({NEVER_TIMEOUT_MS} ms)"),
                        f"whether the conditions of {card.name} can hold together in {window} ({n} seats)"))
                    unknown = True
                    break
                if got[0] == "unknown":
                    unknown = True
                why = got
            if hold:
                why = None
                break
        if why is None or unknown:
            continue
        out.append(_finding(cat, cid, card, why))
    return out


def _finding(cat, cid: str, card, why) -> Finding:
    name = f"【{card.name}】"
    rules = [RuleRef(cid, card.name, card.loc.file, card.loc.line, "its conditions")]
    if card.target is not None:
        rules.append(RuleRef(cid, card.name, card.target.loc.file, card.target.loc.line, "its target"))
    wins = "、".join(TW.WINDOWS[w].zh for w in card.windows)
    wins_en = ", ".join(TW.window_name(w) for w in card.windows)
    msg = (f"{name}的条件（目标的条件、requires）在它的任何时机（{wins}）、任何2–5人的牌桌上都不能同时成立："
           f"谁也用不了这张牌。")
    msg_en = (f"the conditions of {card.name} (its target's, its requires) never hold together in any window it names "
              f"({wins_en}), at any table of 2–5 seats: nobody can use the card.")
    fix = "改正不能成立的条件，或者它与时机（濒死者有三张黑色情报、情报在存活角色面前）的矛盾。"
    fix_en = ("fix the condition that cannot hold, or its contradiction with the window (the dying player has three "
              "black messages, the message is in front of a living player).")
    key = f"TB001|{cid}|never"
    return Finding("TB001", "table", "warning", msg, message_en=msg_en, fix=fix, fix_en=fix_en, key=key, rules=rules,
                   details={"cause": why[0]})
