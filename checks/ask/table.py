"""Questions about the moving table, answered on games of the server: can a player die (in whose turn, in which
window), be dying, win (with which identity or secret task), receive the message he sent himself, hold n messages
of a colour or n cards — or can a triggered skill answer an event of a game (如归 when its owner dies, 视死 on a
message 利诱 put into the area)?

The timed model (``answer.py``) keeps the table a constant of its setup; these questions are about how the table
moves, so they are asked of *games* (``model/interp/game.py``): a bounded search over game templates — the table at
the start and every value of a message, a card or an effect left open (holes, model/interp/hole.py) — each filled by
the z3 twin (``checks/enc/game.py``, ``GameEncoding``) with the question's claim and givens as constraints on its
symbolic table, the game it finds replayed by the interpreter (``model/interp/play.run``) and the question answered
again on the state it reaches before it is shown.

**The search.** A template (``Story``) is one turn of a game (``turn_words``: two when ``--max-turns`` allows and one
is not enough, a plain turn before the question's) told as the server plays it: the draw, the main phase, the send
and the message's path to the player who receives it, and an ending the claim needs — the receive (a win, a message
count, the sender receiving his own message), a death after it (a third black message, nobody saving him), a card
of the main phase putting a message into an area (利诱), the turn's end (搅局者), or the event a triggered skill
answers and its firing. Who takes the turn, who receives and which card is played are the template's (the other seats
are characters with no rule that a template without their events reads: ``QUIET``); everything else is the solver's.
The bound: ``seats`` players (five when a secret task only a five-player deal has is named), ``turns`` turns,
``MAX_TEMPLATES`` templates; hands up to 8 cards and areas up to 3 cards of each colour class at the start.

**The answers.** *yes* (``exists``; *no* to ``always`` / ``never``): a game, replayed. *no* (``exists``; *yes* to
``always`` / ``never``) only when the bound is not what stops it: in every template where the question's situation
happens (the template is a legal game without the rules of its *decisive* events — the events the claim is about: the
firing asked of, the receive, death or card that changes the table the claim reads, and what follows it), the
question's own constraints together with the rules of the decisive events alone — no hole's domain, no event before
them, no deal — have no solution: those rules refuse it on the facts the question fixes, whatever came before. The
answer names those rules (with their catalogue lines) and shows a game where the situation happens and the interpreter
names the refusal. Otherwise the answer is *unknown* (exit 3): no game within the bound, and the bound may be what
stops it — never a false *no*.
"""
from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field

import z3

from skillproof.checks import worklimit as W
from skillproof.checks import z3signals  # noqa: F401 — z3 leaves the signals to Python, and stops on them

from skillproof.model import expr as E
from skillproof.model.effects import walk
from skillproof.model.interp import trace as TR
from skillproof.model.interp.core import env_of, evaluate
from skillproof.model.interp.hole import Hole
from skillproof.model.interp.play import run as play_run, state_after
from skillproof.model.interp.table import CLASSES, counts, area_of
from skillproof.model.interp.win import TASK_WORDS, tasks_dealt
from skillproof.model.lang import pick
from skillproof.model.reason import at_event, join
from skillproof.model.state import Seat, SkillInst, State

from ..enc.cond import Env as CEnv, fcompile, table_globals
from ..enc.game import GameEncoding
from ..enc.val import AND, EQ, GE, GT, LE, LT, NE, NONE, NOT, OR, fold, z
from .result import Result
from .syntax import Atom, BoolOp, Not, Query, atoms_of

#: the table's attributes a claim may read (a condition reading one of them makes a question a table question)
TABLE_ATTRS = frozenset({"alive", "red_messages", "blue_messages", "black_messages", "true_messages",
                         "non_black_messages", "in_winners", "in_declared"})
#: kinds of skill a quiet seat's character may have: none of them is read unless a template's events use it
QUIET = frozenset({"Skill", "ActiveSkill", "TriggeredSkill", "MainPhaseSkill", "BeforeDieSkill"})
#: at most this many templates are tried for one question
MAX_TEMPLATES = 48
#: labels of the setup that hold of every table at the start of a turn (invariants, not bounds)
INVARIANTS = ("message counts fit", "a hand is no fewer than no cards", "an area count is no fewer than none",
              "face up only if ever face up", "a public role is face up", "no hand once dead",
              "not alive with three black messages at the start", "a living player has an identity")
#: the turn bound's default (the question's turn and one before it)
TURNS = 2
#: z3 resource units one solver call of a table question may spend (its budget in work: the same on every machine,
#: however loaded — a call that spends it answers unknown everywhere); the question's wall-clock time (--timeout) is
#: only the outer safety net, and running into it makes the whole answer "inconclusive: time budget spent"
CALL_RLIMIT = 50_000_000
#: the heaviest call seen (resource units), for the benchmarks: {"max": n}
RLIMIT_SEEN = {"max": 0}


NAMING_ROLES = ("sender_is", "receiver_is")      # a goal's role naming a character: "sender_is 白菲菲"


def role_naming(kind: str, character: str) -> str:
    """The goal's role saying that ``character`` is this turn's sender (``sender_is``) or receiver (``receiver_is``)."""
    return f"{kind} {character}"


def named_in_role(role: str, kind: str | None = None) -> str | None:
    """The character a naming role names (of ``kind``, or of either kind when None); None for any other role."""
    head, _, who = role.partition(" ")
    return who if who and head in NAMING_ROLES and (kind is None or head == kind) else None


def _seen(used: int) -> None:
    """The most work one call of the table search has counted (RLIMIT_SEEN: how near CALL_RLIMIT a question comes)."""
    RLIMIT_SEEN["max"] = max(RLIMIT_SEEN["max"], used)


TimeSpent = W.TimeSpent          # the question's wall-clock time ran out before its work did (checks.worklimit)


# ============================================================================================ which questions
def table_atom(a: Atom) -> bool:
    """Is the atom about the moving table (answered here rather than on the timed model)?"""
    if a.kind in ("win", "received", "fires_on", "effect", "target"):
        return True
    if a.kind == "where":
        return bool(_attrs(a.value) & TABLE_ATTRS) or _reads_dying(a.value)
    return False


RECEIVED_WORDS = ("收到", "接收到", "接收", "收下")


def received_given(giv) -> bool:
    """A given of the message's colours said as the player's receive (收到蓝色情报后, 接收含红色和黑色的情报后)."""
    return giv.kind == "where" and (giv.text or "").startswith(RECEIVED_WORDS) and \
        "message" in _vars(giv.claim.value)


def dead_given(q: Query) -> bool:
    """A given says the player is dead (死亡后 / 已死亡 / 死亡时)."""
    return any(_says_dead(x) for g in q.givens if g.kind in ("where", "claim") for x in atoms_of(g.claim))


def fired_by_self(a: Atom) -> bool:
    """A 'granted' claim a player hands herself by firing a skill (发动就计: its follow-up grant), read as the firing."""
    return a.kind == "granted" and a.value is not None and a.value.by_self


def follow_up_firing(cat, a: Atom) -> bool:
    """发动就计: a firing by oneself of a triggered skill (no active one, with an ``on``) whose grants all go to its
    holder (the follow-up it hands itself) — on the timed model it reads only as holding the follow-up; the firing
    itself is asked of games."""
    if cat is None or not fired_by_self(a) or a.value.name not in cat.skills:
        return False
    r = cat.skills[a.value.name]
    return bool(r.on) and r.has("TriggeredSkill") and not r.has("ActiveSkill") and bool(r.gives) and \
        all(g.to == "self" for g in r.gives)


def is_table_question(q: Query, cat=None) -> bool:
    """A question whose claim reads the moving table: a death, a win, a message received, a count, a firing (谁会赢:
    ``which player`` with such a claim, answered with the identities and secret tasks it holds for); a claim about
    the hand alone (能有十张手牌吗) too — the timed model's hand is a constant of its setup."""
    if q.claim is None or q.mode == "which" and (q.which is None or q.which.kind != "player"):
        return False
    atoms = atoms_of(q.claim)
    if any(table_atom(a) for a in atoms):
        return True
    if any(fired_by_self(a) or a.kind == "hold" and a.rule for a in atoms) and dead_given(q):
        return True                             # 李宁玉能在自己死亡后发动就计吗, 承志在她死后还有效吗: a dead holder
    if any(follow_up_firing(cat, a) for a in atoms):
        return True                             # 李宁玉能发动就计吗: a trigger whose only effect on the timed model is
        #                                         the follow-up it hands itself — its firing is a game's
    # the hand alone, past the timed model's bound on it (能有十张手牌吗: its hand is a setup constant of at most 8
    # cards), with givens the table search reads
    return bool(atoms) and all(a.kind == "hand" or a.kind == "where" and _attrs(a.value) == {"hand_count"}
                               for a in atoms) and any(_past_hand_bound(a) for a in atoms) and \
        all(g.kind in ("where", "window", "turn_of", "role") for g in q.givens)


def _past_hand_bound(a: Atom) -> bool:
    """A hand count the timed model's setup cannot hold (above ``vocab.INT_BOUNDS``' hand_count)."""
    from skillproof.model.vocab import INT_BOUNDS
    hi = INT_BOUNDS["hand_count"][1]
    if a.kind == "hand":
        op, n = a.value
        return n > hi or (op in (">", ">=") and n >= hi)
    nums = [x.value for x in E.walk(a.value) if isinstance(x, E.Lit) and isinstance(x.value, int)
            and not isinstance(x.value, bool)]
    return any(n >= hi for n in nums)


def _attrs(node) -> set:
    out = set()
    for x in E.walk(node):
        if isinstance(x, E.Attr):
            out.add(x.name)
    return out


def _death_index(events) -> int | None:
    """The index of the player's (seat 0's) die event in a list of game events, or None."""
    return next((i for i, e in enumerate(events) if e.kind == "die" and e.seat == 0), None)


def _describes_the_player(q: Query, giv) -> bool:
    """A condition written as an attribute of the player noun (``X的先行者``, ``X的角色``: the given followed by 的):
    it says what the player is at the moment asked about, not before the events that lead there."""
    return q.text[giv.end:giv.end + 1] == "的"


#: the deal where red and blue win together (server ProcessFsm.checkWin: game.players.size == 4)
FOUR_PLAYER_ALLIES = 4


def _identity_colours(x) -> set:
    """The camps (red, blue) a condition on the player's identity names (身为潜伏战线 / identity == "red")."""
    if not (isinstance(x, Atom) and x.kind == "where" and "identity" in _attrs(x.value)):
        return set()
    return {c.value for c in E.walk(x.value) if isinstance(c, E.Const) and c.value in ("red", "blue")}


def _wins_short_of_three(goal) -> bool:
    """The question's player is red or blue and holds fewer than three messages of his colour as the claim is read
    (an at-the-end count: 只有两张红色情报时): his win can only be another player's declaration."""
    idents = set()
    for x in goal.before + goal.after + atoms_of(goal.claim):
        idents |= _identity_colours(x)
        if isinstance(x, Atom) and x.kind == "win" and x.value and x.value[0] in ("red", "blue"):
            idents.add(x.value[0])
    for x in goal.after:
        v = x.value if isinstance(x, Atom) and x.kind == "where" and x.at_end else None
        if isinstance(v, E.Bin) and v.op in ("==", "<", "<=") and isinstance(v.left, E.Attr) and \
                isinstance(v.right, E.Lit) and v.left.name in {f"{c}_messages" for c in idents} and \
                v.right.value < (3 if v.op != "<" else 4):
            return True
    return False


def _vars(node) -> set:
    return {x.name for x in E.walk(node) if isinstance(x, E.Var)}


def _reads_dying(node) -> bool:
    return "dying" in _attrs(node)


# ============================================================================================ the goal
class Unsupported(Exception):
    """A part of the question the table search cannot read (said as the reason of an unknown answer)."""

    def __init__(self, zh: str, en: str):
        super().__init__(en)
        self.zh, self.en = zh, en


@dataclass
class Goal:
    """What a table question asks of a game."""
    claim: object                       # the claim (syntax tree), read on the table at the end of the game
    mode: str                           # exists | never | always
    subject: str | None
    before: list = field(default_factory=list)     # conditions on the player read before the decisive events
    after: list = field(default_factory=list)      # … read at the end (a role's or a claim's given)
    whose: str | None = None            # the final moment's turn: own | other | a character id
    window: str | None = None           # the final moment's window (a dying window: the one it interrupts too)
    roles: list = field(default_factory=list)      # roles of the player at the end: sender, not_sender, turn …
    plays: list = field(default_factory=list)      # (actual, declared): the player plays this card
    via: dict = field(default_factory=dict)        # (actual, declared) -> the conversion skill it is played through
    plays_by_other: bool = False        # … played by another player (别人使用截获时), not by the player
    at_death: list = field(default_factory=list)   # conditions on the player read as he dies (before his die event)
    play_target: str | None = None      # the player plays the question's card on: self | other (对别人使用试探后)
    fire: str | None = None             # the triggered skill whose firing is asked of
    tasks: set = field(default_factory=set)        # secret tasks the question names
    cards_on: list = field(default_factory=list)   # cards played on the player before (被利诱放入情报后)
    invalid: bool = False               # the skill asked of is invalidated when asked (被无效时): a card of the turn
    #                                     invalidates the player's skills first (its InvalidSkill grant)
    dead: bool = False                  # its holder is dead when it is asked (死亡后 / 已死亡)
    invalid_by: str | None = None       # the card whose invalidation the question names (被调虎离山无效后)
    effect: Atom | None = None          # an effect claim (城府会让试探无效吗): the rule whose effect is asked of …
    effect_rule: str | None = None      # … a skill or card id (its fire, use or play and resolution is the template's)
    target: Atom | None = None          # a target claim (试探能对自己使用吗): the play of effect_rule names such a target

    @property
    def needs(self) -> set:
        """What the claim reads: win, dead, dying, received, counts, hand, fire."""
        out = set()
        for a in atoms_of(self.claim) + [x for x in self.after]:
            if a.kind == "win":
                out.add("win")
            elif a.kind == "received":
                out.add("received")
            elif a.kind == "fires_on":
                out.add("fire")
            elif a.kind in ("effect", "target"):
                out.add("effect")              # a target (试探能对自己使用吗): the effect's play is the template's
            elif a.kind == "where":
                at = _attrs(a.value)
                if "alive" in at:
                    out.add("dead")
                if "dying" in at:
                    out.add("dying")
                if at & {"in_winners", "in_declared"}:
                    out.add("win")
                if at & {"red_messages", "blue_messages", "black_messages", "true_messages", "non_black_messages"}:
                    out.add("counts")
                if "hand_count" in at:
                    out.add("hand")
            elif a.kind == "hand":
                out.add("hand")
        return out


def goal_of(cat, q: Query) -> Goal:
    """The question as a Goal, or Unsupported naming what the table search does not read."""
    g = Goal(_as_firing(cat, q.claim, dead_given(q)), q.mode, q.subject)
    for a in atoms_of(g.claim):
        if a.kind == "effect":
            if g.effect is not None:
                raise Unsupported("一次只问一个效果", "one effect at a time")
            g.effect, g.effect_rule = a, a.rule
            if not _positive_effect(g.claim):
                raise Unsupported("效果只能作为要问的事本身（不能在「不」或「或」之下）",
                                  "an effect is asked as such (not under 'not' or 'or')")
            if a.rule in cat.skills and fired_rule(cat.skills[a.rule]):
                g.fire = a.rule                     # a triggered skill's effect: its firing's templates
            continue
        if a.kind == "target":
            if g.effect_rule is not None:
                raise Unsupported("一次只问一个目标", "one target at a time")
            if a.rule in cat.skills and any(getattr(e, "pick", None) is not None for e in cat.skills[a.rule].result or ()):
                name = cat.skills[a.rule].name
                raise Unsupported(f"{name}在宣胜结算时选择角色（result 的 pick）：它选中谁还不在牌局里搜索；"
                                  f"pick 的条件挡住的目标从数据回答（如：'面朝下的男性角色能成为{name}的目标吗'）",
                                  f"{name} picks a player when the game's result is settled (its result's pick): whom "
                                  f"it picks is not searched in games yet; a target its pick's condition refuses is "
                                  f"answered from the data (e.g. 'can {name} target a face-down male player?')")
            if a.rule in cat.skills and not cat.skills[a.rule].has("ActiveSkill"):
                name = cat.skills[a.rule].name
                ask = "能用{}指定{}吗".format(name, "自己" if a.value == "self" else "别人")
                raise Unsupported(f"{name}是触发技能：它选择的角色（效果里的 chosen、gives 的 to）还不能作为目标来问；"
                                  f"它交出的技能可以这样问：'{ask}'",
                                  f"{name} is a triggered skill: the player it chooses (chosen in its effect, its "
                                  f"gives' to) is not asked as a target yet; the skill it hands out can be: '{ask}'")
            g.target, g.effect_rule = a, a.rule
            continue
        if a.kind == "fires_on":
            if g.fire is not None and g.fire != a.rule:
                raise Unsupported("只能问一个技能的发动", "one skill's firing at a time")
            g.fire = a.rule
        elif a.kind == "win" and a.value and a.value[1]:
            g.tasks.add(a.value[1])
        elif a.kind == "given":
            _role_given(g, a.value, claim=True)
        elif not (table_atom(a) or a.kind in ("hand", "face_up", "locked", "where")):
            raise Unsupported(f"牌桌问题里不能同时问「{a.text}」", f"`{a.text}` cannot be asked together with the table")
    if g.fire is not None and q.subject is not None and g.fire not in cat.characters[q.subject].skills:
        who, what = cat.characters[q.subject].name, cat.name_of(g.fire)
        raise Unsupported(f"{who}开局不持有{what}：牌桌问题只问持有者的发动（{what}回应{who}的事件还读不了）",
                          f"{who} does not start with {what}: a table question asks of its holder's firing ({what} "
                          f"answering {who}'s event is not read yet)")
    if g.fire is not None and not _positive(g.claim):
        raise Unsupported("技能的发动只能作为要问的事本身（不能在「不」或「或」之下）",
                          "a skill's firing is asked as such (not under 'not' or 'or')")
    said_invalid = any(a.kind == "invalidated" for giv in q.givens if giv.kind == "claim" for a in atoms_of(giv.claim))
    receives = any(a.kind == "received" for a in atoms_of(g.claim))   # the claim is the player's receive
    described = []                              # conditions written as the player's attribute (X的先行者)
    said_at_end = []                            # conditions read at the claim's moment (phrases.py @cond(end: …))
    for giv in q.givens:
        k = giv.kind
        paired = giv.grant.name in cat.skills and any(x.giver == giv.grant.name and x.partner_id is not None
                                                      for x in cat.sites("InvalidSkill")) if k == "grant" else False
        if k == "grant" and g.fire is not None and giv.grant.invalid_option and (said_invalid or paired):
            g.invalid = True                         # 被禁闭后: its InvalidSkill always comes with the ban (one step)
            g.invalid_by = giv.grant.name            # 被调虎离山无效后: that card's InvalidSkill grant
            continue
        if giv.other and (k == "where" or k == "claim" and not all(a.kind == "play" or a.kind == "send_dir"
                                                                   for a in atoms_of(giv.claim))):
            raise Unsupported(f"牌桌问题还读不了别人的「{giv.text}」（只读别人打出一张牌：'别人使用截获时'）",
                              f"the table search does not read another player's `{giv.text}` yet (only another "
                              f"player playing a card: 'when another player plays 截获')")
        own = {g.fire} | {a.rule for a in atoms_of(g.claim) if a.kind == "effect"}
        if k == "claim" and any(a.kind == "effect" and a.rule not in own for a in atoms_of(giv.claim)):
            # 利诱把情报放入情报区后，王魁能发动以牙还牙吗: an effect is read at the firing's own event (the fired skill's
            # ops), so another card's or skill's effect as a premise would be met by the fired skill's own step
            raise Unsupported(f"牌桌问题还读不了另一张牌或技能的效果作为前提「{giv.text}」（效果只在所问技能自己的发动里读；"
                              f"问一张牌之后的发动，请写 '王魁被利诱放入情报后能发动以牙还牙吗'）",
                              f"the table search does not read another card's or skill's effect as a premise "
                              f"(`{giv.text}`): an effect is read in the asked skill's own firing only")
        if k == "claim" and giv.other and any(a.kind == "play" for a in atoms_of(giv.claim)):
            g.plays_by_other = True             # 别人使用截获时: another player plays it (never the player asked)
        if k == "where" and giv.claim.at_end:
            said_at_end.append(giv.claim)       # 收集三张红色情报 / 只有两张: the area as the claim happens
            continue
        if k == "where":
            at_end = _attrs(giv.claim.value) & {"alive", "dying"} and not (receives and _attrs(giv.claim.value) == {"alive"})
            if not at_end and _describes_the_player(q, giv) and not receives and not received_given(giv) and \
                    not any(received_given(x) for x in q.givens) and g.fire is None:
                described.append(giv.claim)     # 没有红色或蓝色情报的先行者死亡时: what he has when he dies
                continue
            (g.after if at_end else g.before).append(giv.claim)
            if received_given(giv) and not receives and g.fire is None and g.effect is None and g.target is None:
                # 收到蓝色情报后一定会获胜吗: the message's colour, and the player received it (a firing's template
                # is the receive itself; here a game whose message another player received is no game of the premise)
                g.after.append(Atom("received", giv.col, giv.end, text=giv.text))
                receives = True
        elif k == "claim":
            for a in atoms_of(giv.claim):
                if a.kind == "play" and a.cards[1] is not None:
                    g.plays.append((a.cards[0], a.cards[1]))
                elif a.kind == "send_dir" and a.value == (None, 0) and g.fire is not None and \
                        any(on.event in ("send", "move") for on in cat.skills[g.fire].on):
                    # 传出情报时能发动江湖令吗 / 别人传出情报时: who sends the message the firing answers
                    g.roles.append("not_sender" if giv.other else "sender")
                elif a.kind == "play" and a.cards == (None, None) and g.fire is not None and \
                        any(on.event in ("use_card", "card_resolved") for on in cat.skills[g.fire].on):
                    pass                        # 使用卡牌后能发动转交吗: any card — the firing's own card event plays one
                elif a.kind == "fire" and a.value == "play":
                    if a.cards[1] is not None:
                        g.plays.append((a.cards[0], a.cards[1]))
                        g.via[(a.cards[0], a.cards[1])] = a.rule
                elif a.kind == "given":
                    _role_given(g, a.value)
                elif a.kind == "received" and not receives and g.fire is None and g.effect is None and \
                        g.target is None:
                    # 接收自己传出的黑色情报后会濒死吗: the receive is one of the decisive events (read at the end, as
                    # 收到蓝色情报后 is), never a receive done before them
                    g.after.append(a)
                    receives = True
                elif a.kind == "where" and _attrs(a.value) & {"alive", "dying"}:
                    # 死亡时 / 濒死时: death and dying are read at the end — but whether he is alive before the
                    # receive a claim of receiving asks of (死亡后还能收到情报吗: dead, then the receive)
                    (g.before if receives and _attrs(a.value) == {"alive"} else g.after).append(a)
                elif a.kind == "invalidated" and g.fire is not None:
                    g.invalid = True                # 被无效时: the template invalidates the player's skills first
                elif a.kind in ("where", "face_up", "locked", "hand") or table_atom(a):
                    g.before.append(a)              # 面朝下时: read on the table before the decisive events
                else:
                    raise Unsupported(f"牌桌问题还读不了前提「{giv.text}」",
                                      f"the table search does not read the given `{giv.text}` yet")
        elif k == "window":
            g.window = giv.window if giv.window != "dying" or giv.interrupts is None else giv.window
            if giv.window == "dying" and giv.interrupts is not None:
                g.window = ("dying", giv.interrupts)
        elif k == "turn_of":
            g.whose = giv.who if giv.who is not None else ("other" if giv.other else "own")
        elif k == "role":
            _role_given(g, giv)
        elif k == "with":
            ch = cat.characters.get(q.subject) if q.subject else None
            if ch is None or giv.rule not in ch.skills:
                raise Unsupported(f"牌桌问题还读不了前提「{giv.text}」（请直接说出角色）",
                                  f"the table search does not read `{giv.text}` (name the character)")
        else:
            raise Unsupported(f"牌桌问题还读不了前提「{giv.text}」",
                              f"the table search does not read the given `{giv.text}` yet")
    for a in atoms_of(q.claim):
        if a.kind == "given" and a.value.rule == "task":
            g.tasks.add(a.value.who)
    dies = any(_says_dead(x) for x in g.after) or any(a.kind == "where" and _says_dead(a) for a in atoms_of(g.claim))
    # 没有红色或蓝色情报的先行者死亡时能获胜吗: the attribute is what he has as he dies (CheckKillerWin reads the
    # dead player's area before AfterDieGiveCard discards it); of a question with no death, before the events
    (g.at_death if dies else g.before).extend(described)
    # 先行者死亡时情报区只有黑色情报: what he has as he dies; 收集三张红色情报能获胜吗: what he has as he wins; of a
    # firing or an effect (情报区只有黑色情报时，能发动转交吗), what he has when the event it answers comes — before the
    # decisive events, as every other premise of a firing (read at the end, it was the area the firing itself left:
    # 转交 had put its one red message away)
    (g.at_death if dies else g.before if g.fire is not None or g.effect is not None else g.after).extend(said_at_end)
    if g.fire is not None and any(_says_dead(x) for x in g.after):
        g.dead = True                           # 死亡后发动: its holder is dead when the skill is asked
    for x in g.before + g.after:
        if isinstance(x, Atom) and x.kind == "given" and x.value.rule == "task":
            g.tasks.add(x.value.who)
    coloured = [x for x in g.before + g.after + g.at_death if _identity_colours(x)]
    if g.tasks and coloured:
        # 特工机关收集三张红色情报时，诱变者能获胜吗: a secret task is a black player's (Game.kt deals them to 神秘人), so
        # the identity names another player — whose condition the search does not read as his
        raise Unsupported(f"「{coloured[0].text}」和秘密任务说的是两名角色（秘密任务只发给神秘人）：牌桌问题只读所问角色"
                          f"自己的条件，还读不了另一名角色的（请只问一名角色，如：'诱变者收集三张红色情报能获胜吗'）",
                          f"`{coloured[0].text}` and the secret task are two players (secret tasks go to black players "
                          f"only): a table question reads the conditions of the player asked about, not another's yet")
    if g.cards_on and g.fire is None:
        # 被利诱放入情报后会死亡吗: only a firing's templates play the card on the player first (Builder.fire_stories);
        # the others would drop the premise and answer of a game without it
        names = "、".join(cat.name_of(c) for c in g.cards_on)
        raise Unsupported(f"「被{names}放入情报后」只在问触发技能的发动时读（如：'老汉被利诱放入情报后，能发动视死吗'）；"
                          f"死亡、濒死、获胜、情报数的问题还不读这个前提",
                          f"'after {names} put a message' is read only when a triggered skill's firing is asked "
                          f"(e.g. 'can 老汉 fire 视死 after 利诱 put a message into his area?'); questions of death, "
                          f"dying, winning or counts do not read it yet")
    return g


def fired_rule(rule) -> bool:
    """A rule whose effect happens when it answers an event (a TriggeredSkill with ``on``, not also used on purpose)."""
    return bool(rule.on) and rule.has("TriggeredSkill") and not rule.has("ActiveSkill")


def _positive_effect(node) -> bool:
    if isinstance(node, (Not,)):
        return not any(a.kind == "effect" for a in atoms_of(node))
    if isinstance(node, BoolOp):
        if node.op == "or":
            return not any(a.kind == "effect" for a in atoms_of(node))
        return all(_positive_effect(x) for x in node.items)
    return True


def _role_given(g: Goal, giv, claim: bool = False) -> None:
    if giv.rule in ("sender", "not_sender", "turn", "not_turn"):
        g.roles.append(giv.rule)
    elif giv.rule == "task":
        g.tasks.add(giv.who)
        g.after.append(Atom("given", giv.col, giv.end, value=giv, text=giv.text))
    elif giv.rule == "last_alive":
        g.after.append(Atom("given", giv.col, giv.end, value=giv, text=giv.text))   # read on the table at the end
    elif giv.rule == "card_on" and not claim:
        g.cards_on.append(giv.who)
    elif giv.rule == "plays_on" and not claim and g.fire is not None:
        g.play_target = giv.who                 # 对别人使用试探后: he plays the question's card on another (or himself)
    elif giv.rule == "sender_is" and giv.who is not None:
        g.roles.append(role_naming("sender_is", giv.who))     # 白菲菲传出的情报: that character sends this turn's message
    elif giv.rule == "receiver_is" and giv.who is not None:
        g.roles.append(role_naming("receiver_is", giv.who))   # …被老汉接收后: that character receives it
    else:
        raise Unsupported(f"牌桌问题还读不了「{giv.text}」", f"the table search does not read `{giv.text}` yet")


def _as_firing(cat, node, dead: bool = False):
    """The claim with each firing by oneself that hands out a follow-up grant (发动就计) read as the skill's firing —
    and, of a dead player (``dead``), a skill still in effect (承志在她死后还有效吗) too: a dead player's skills do
    nothing but answer events (Game.kt:361), so only a triggered one can be asked so."""
    from dataclasses import replace as _r
    if isinstance(node, Not):
        return _r(node, arg=_as_firing(cat, node.arg, dead))
    if isinstance(node, BoolOp):
        return _r(node, items=[_as_firing(cat, x, dead) for x in node.items])
    if isinstance(node, Atom) and fired_by_self(node) and node.value.name in cat.skills and cat.skills[node.value.name].on:
        return Atom("fires_on", node.col, node.end, rule=node.value.name, text=node.text)
    if isinstance(node, Atom) and dead and node.kind == "hold" and node.rule:
        r = cat.skills.get(node.rule)
        if r is None or not r.on or not r.has("TriggeredSkill"):
            raise Unsupported(f"死亡角色的{cat.name_of(node.rule)}是否还有效：只问得了触发技（是否被询问）",
                              f"whether a dead player's {cat.name_of(node.rule)} is still in effect: only a triggered "
                              f"skill's (whether it is asked) can be asked")
        if r.gives:                             # 强令死后还有效吗: its firing, or the ban it handed out?
            raise Unsupported(f"「{cat.name_of(node.rule)}还有效」有两种读法：死亡后它还会发动吗（写「死亡后还能发动"
                              f"{cat.name_of(node.rule)}吗」），或它此前给出的技能还在吗（牌桌搜索还不读）",
                              f"`{cat.name_of(node.rule)} still in effect` reads two ways: does it still fire (ask "
                              f"`can … fire {cat.name_of(node.rule)} after … died`), or does what it handed out stay "
                              f"(not read by the table search yet)")
        return Atom("fires_on", node.col, node.end, rule=node.rule, text=node.text)
    return node


def _says_dead(a) -> bool:
    """The given says the player is dead (``not alive``, 死亡时 / 死亡后 / 已死亡)."""
    v = getattr(a, "value", None)
    return isinstance(a, Atom) and a.kind == "where" and isinstance(v, E.Unary) and v.op == "not" and \
        isinstance(v.arg, E.Attr) and v.arg.name == "alive"


def _positive(node) -> bool:
    if isinstance(node, Not):
        return not any(a.kind == "fires_on" for a in atoms_of(node))
    if isinstance(node, BoolOp):
        if node.op == "or":
            return not any(a.kind == "fires_on" for a in atoms_of(node))
        return all(_positive(x) for x in node.items)
    return True


# ============================================================================================ the templates
@dataclass
class Story:
    template: TR.Trace
    decisive: int                 # index of the first decisive event: the givens are read on the table before it
    turn: int                     # whose turn the game ends in
    ending: str                   # the way it ends, for people
    fire_at: int | None = None    # the fire event asked of
    follow_at: int | None = None  # the firing of the follow-up it hands its holder for the card's finishing (将计就计·待发)


class _Names:
    def __init__(self, prefix: str = ""):
        self.n = itertools.count()
        self.prefix = prefix

    def __call__(self, base: str) -> str:
        return f"{self.prefix}{base}#{next(self.n)}"


def quiet_characters(cat) -> list:
    """Characters whose rules no template reads unless its events use them (the other seats), public ones first."""
    out = [c.id for c in cat.characters.values()
           if all(cat.skills[r].closure <= QUIET for r in c.skills)]
    return sorted(out, key=lambda c: (cat.characters[c].hidden, list(cat.characters).index(c)))


def seat_characters(cat, goal: Goal, n: int) -> list | None:
    """The characters at the table: the player asked about (or, for anyone, the first quiet character — or an owner of
    the skill asked about), a character whose turn is asked about at seat 1, quiet characters elsewhere."""
    quiet = quiet_characters(cat)
    first = goal.subject
    if first is None and goal.effect_rule in cat.cards:
        first = quiet[0]                        # a card: played by a quiet character
    if first is None and goal.fire is None and goal.effect_rule in cat.skills:
        owners = cat.owners(goal.effect_rule)
        first = owners[0] if owners else None
        if first is None:
            return None
    if first is None and goal.fire is not None:
        owners = cat.owners(goal.fire)
        first = owners[0] if owners else None
        if first is None:
            return None
    if first is None:
        first = quiet[0]
    chars = [first]
    giver = goal.invalid_by if goal.invalid_by in cat.skills else None
    if giver is not None:
        owners = [c for c in cat.owners(giver) if c != first]
        if not owners:
            return None
        if goal.whose is None:
            goal.whose = owners[0]              # 被禁闭无效后: the skill's holder takes the turn (seat 1)
        elif goal.whose != owners[0]:
            chars.append(owners[0])
    if goal.whose not in (None, "own", "other"):
        if goal.whose == first:
            goal.whose = "own"
        else:
            chars.append(goal.whose)
    who = goal.effect.value.who if goal.effect is not None else None
    if who in cat.characters and who not in chars:
        chars.append(who)                       # 让顾小梦拿走手牌: the character the effect names is at the table
    eff = goal.effect.value if goal.effect is not None else None
    target_words = goal.target.value.split("+") if goal.target is not None else []
    for w in target_words:
        if w in cat.characters and w not in chars:
            chars.append(w)                         # 李宁玉能被利诱吗: the character targeted is at the table
    for r in goal.roles:
        w = named_in_role(r)
        if w in cat.characters and w not in chars:
            chars.append(w)                         # 白菲菲传出的情报被王魁接收后: the sender (receiver) is at the table
    face_target = "face_down" in target_words
    src = (cat.skills.get(goal.effect_rule) or cat.cards.get(goal.effect_rule)) if goal.effect_rule else None
    reads_hidden = eff is not None and src is not None and any(      # the asked op done only for a hidden role
        o.op in eff.ops and o.cond is not None and "hidden" in _attrs(o.cond) and
        not (isinstance(o.cond, E.Unary) and o.cond.op == "not") for o in walk(src.do))
    if eff is not None and eff.face is not None and who != "self" or face_target or reads_hidden:
        # … and an effect with a step only for a hidden role (藏身教堂: he draws when the receiver is one)
        # an effect turning another player's role (先发制人 让别人翻开, 藏身教堂 翻回面朝下): only a hidden role is ever
        # face down (server Player.roleFaceUp starts true for a public role and nothing turns it down), so the other
        # seats are hidden quiet characters first; so for a target face down (试探能对面朝下的角色使用吗)
        quiet = sorted(quiet, key=lambda c: not cat.characters[c].hidden)
    for g in ("male", "female"):                    # a target of a gender (男性角色): quiet seats of it first
        if g in target_words:
            quiet = sorted(quiet, key=lambda c: bool(cat.characters[c].female) != (g == "female"))
    for c in quiet:
        if len(chars) >= n:
            break
        if c not in chars:
            chars.append(c)
    return chars if len(chars) == n else None


def _setup(cat, chars: list, new) -> State:
    seats = []
    for i, c in enumerate(chars):
        ch = cat.characters[c]
        s = Seat(c, skills=[SkillInst(r) for r in ch.skills])
        s.hand_count = Hole(new(f"hand{i}"), "int", (0, 8))
        s.area = tuple((k, Hole(new(f"area{i}.{k}"), "int", (0, 3))) for k in CLASSES)
        s.face_up = Hole(new(f"face_up{i}"), "bool") if ch.hidden else True
        s.ever_face_up = Hole(new(f"ever_face_up{i}"), "bool") if ch.hidden else True
        s.identity = Hole(new(f"identity{i}"), "identity", ("red", "blue", "black"))
        s.task = Hole(new(f"task{i}"), "task", (None,) + tasks_dealt(len(chars)))
        seats.append(s)
    return State(seats)


class Builder:
    """The templates of a goal at a table of ``chars`` (see the module's docstring)."""

    def __init__(self, cat, goal: Goal, chars: list, turns: int = 1):
        self.cat, self.goal, self.chars, self.n = cat, goal, chars, len(chars)
        self.turns = turns

    # ---- pieces
    def story(self, events: list, k: int, t: int, ending: str, fire_at: int | None = None,
              pre: list | None = None, follow_at: int | None = None) -> Story:
        """A template of ``events`` (decisive from ``k``) at a table whose values at the start are holes — after a
        whole turn of the player before ``t`` when the search spans two turns (``pre``: that turn's events)."""
        if pre is None:
            pre = self.quiet_turn((t - 1) % self.n, _Names("q.")) if self.turns > 1 else []
        tpl = TR.Trace(_setup(self.cat, self.chars, _Names("s.")), pre + events, table=True)
        return Story(tpl, k + len(pre), t, ending, None if fire_at is None else fire_at + len(pre),
                     None if follow_at is None else follow_at + len(pre))

    def send(self, t: int, to: int, new) -> TR.Event:
        return TR.Event("send", seat=t, colours=Hole(new("message"), "class", CLASSES),
                        arrow=Hole(new("arrow"), "dir"), lockable=Hole(new("lockable"), "bool"),
                        dir=Hole(new("dir"), "dir"), to=to, locks=[], face_up=False, source="hand")

    def path(self, t: int, r: int, new) -> list:
        """From 传递阶段开始时 to the 争夺阶段 in front of ``r``: sent to him, or — to the sender himself — sent up to
        another player who lets it pass back."""
        out = [TR.Event("window", window="send_start")]
        if r != t:
            out += [self.send(t, r, new)]
        else:
            f = next(i for i in range(self.n) if i != t and not (self.goal.dead and i == 0))   # not a dead holder
            out += [self.send(t, f, new), TR.Event("window", window="send", in_front=t)]
        out.append(TR.Event("window", window="fight", in_front=r))
        return out

    def card_events(self, seat: int, card: str, actual, new, target=None) -> list:
        from ..realise import effect_holes
        c = self.cat.cards[card]
        fields = effect_holes(c.do, new)
        if target is None and c.target is not None and c.target.who != "none":
            target = Hole(new("target"), "seat")
        act = actual if actual is not None else Hole(new("actual"), "card")
        return [TR.Event("play", seat=seat, card=card, actual=act, target=target), TR.Event("resolve", **fields)]

    def turn_start(self, t: int) -> list:
        return [TR.Event("turn", seat=t), TR.Event("draw"), TR.Event("window", window="main")]

    def quiet_turn(self, t: int, new) -> list:
        """A whole turn before the question's: drawn, sent to the next player, received, ended."""
        r = (t + 1) % self.n
        return self.turn_start(t) + self.path(t, r, new) + [TR.Event("window", window="receive", in_front=r),
                                                            TR.Event("window", window="turn_end")]

    # ---- who takes the turn, who receives
    def turn_seats(self) -> list:
        w = self.goal.whose
        roles = self.goal.roles
        mine = w == "own" or "turn" in roles or "sender" in roles
        others = w == "other" or "not_turn" in roles or "not_sender" in roles
        if mine and others:
            # the sender in another player's turn (密令's target): the templates have the turn player send, so
            # none of them is such a game — left to the bound, never answered by a game of the wrong turn
            return []
        if mine:
            return [0]
        named = [w for w in (named_in_role(r, "sender_is") for r in roles) if w is not None]
        if named and w is None:
            # another character sends this turn's message (白菲菲传出的情报…, 王魁 asked): the templates have the turn
            # player send, so it is that character's turn
            return [self.chars.index(named[0])] if named[0] in self.chars else []
        if others:
            return [1]
        if w is not None:
            return [self.chars.index(w)] if w in self.chars else []
        return [0, 1]

    def receivers(self) -> list:
        """Who receives: the player asked about or the next seat (and the one after, when the player is dead)."""
        named = [w for w in (named_in_role(r, "receiver_is") for r in self.goal.roles) if w is not None]
        if named:                                   # …被老汉接收后: that character receives
            return [self.chars.index(named[0])] if named[0] in self.chars else []
        return [0, 1, 2] if self.goal.dead and self.n > 2 else [0, 1]

    # ---- the stories
    def stories(self) -> list:
        new = _Names()
        needs = self.goal.needs
        out: list = []
        for t in self.turn_seats():
            if "fire" in needs or self.goal.fire is not None:
                out += self.fire_stories(t, new)
                continue
            if "effect" in needs:
                out += self.effect_stories(t, new)
                continue
            if needs & {"win", "counts", "received", "hand"}:
                for r in ([0] if "received" in needs else self.receivers()):
                    base = self.turn_start(t) + self.path(t, r, new)
                    k = len(base)
                    rec = TR.Event("window", window="receive", in_front=r)
                    out.append(self.story(base + [rec], k, t, "receive"))
            if needs & {"win", "dead", "dying", "counts"}:
                for d in ([0] if needs & {"dead", "dying"} else self.receivers()):
                    base = self.turn_start(t) + self.path(t, d, new)
                    k = len(base)
                    tail = [TR.Event("window", window="receive", in_front=d), TR.Event("window", window="dying", dying=d)]
                    if "dying" in needs or "counts" in needs:
                        out.append(self.story(base + tail, k, t, "receive_dying"))
                    if needs & {"dead", "win"}:
                        out.append(self.story(base + tail + [TR.Event("die", seat=d)], k, t, "receive_die"))
                for d in ([0] if needs & {"dead", "dying"} else self.receivers()):
                    for rid, act in self.killing_skills(t, d, new):
                        base = self.turn_start(t)
                        tail = act + [TR.Event("window", window="dying", dying=d)]
                        if "dying" in needs:
                            out.append(self.story(base + tail, len(base), t, "skill_dying"))
                        if needs & {"dead", "win"}:
                            out.append(self.story(base + tail + [TR.Event("die", seat=d)], len(base), t, "skill_die"))
                    for card in self.killing_cards(t):
                        base = self.turn_start(t)
                        k = len(base)
                        tail = self.card_events(t, card, None, new, target=d) + \
                            [TR.Event("window", window="dying", dying=d)]
                        if "dying" in needs:
                            out.append(self.story(base + tail, k, t, "card_dying"))
                        if needs & {"dead", "win"}:
                            out.append(self.story(base + tail + [TR.Event("die", seat=d)], k, t, "card_die"))
            if "win" in needs:
                for r in self.receivers():
                    base = self.turn_start(t) + self.path(t, r, new)
                    k = len(base)
                    out.append(self.story(base + [TR.Event("window", window="receive", in_front=r),
                                                  TR.Event("window", window="turn_end")], k + 1, t, "turn_end"))
            if "hand" in needs:
                out.append(self.story(self.turn_start(t), 1, t, "draw"))
        out = [s for s in out if self.moment_ok(s)]
        return out[:MAX_TEMPLATES]

    def killing_cards(self, t: int) -> list:
        """Cards of the main phase that put a message into their target's area (利诱), played by the turn player."""
        out = []
        for cid, card in sorted(self.cat.cards.items()):
            if card.windows.get("main") is None:
                continue
            if any(o.op == "put_message" and o.args.get("to") == "target" for o in walk(card.do)):
                out.append(cid)
        return out

    def killing_skills(self, t: int, d: int, new) -> list:
        """[(skill, its use)]: active skills of the turn player's main phase that put a message into an area — his own
        (拼命三郎: a pure black hand card into his own area) when ``d`` is he, or their target's — used on ``d``."""
        from ..realise import effect_holes, names_word
        out = []
        for rid in self.chars[t] and self.cat.characters[self.chars[t]].skills or ():
            rule = self.cat.skills[rid]
            if not rule.has("ActiveSkill") or rule.windows.get("main") != "turn":
                continue
            tos = {o.args.get("to") for o in walk(rule.do or ()) if o.op == "put_message"}
            reads_target = names_word(rule.do, "target") or (rule.requires is not None and any(
                isinstance(x, E.Var) and x.name == "target" for x in E.walk(rule.requires)))
            if not ("self" in tos and d == t or "target" in tos and reads_target):
                continue
            target = (d if "target" in tos and d != t else Hole(new("target"), "seat")) if reads_target else None
            out.append((rid, [TR.Event("use", seat=t, rule=rid, target=target, **effect_holes(rule.do, new))]))
        return out

    def fire_stories(self, t: int, new) -> list:
        """The events that raise what the skill asked of answers, then its firing by the player — after a card of
        the turn invalidated the player's skills when the question says so (被无效时), and after a turn in which the
        player died when it asks of a dead holder (死亡后: besides the skill's own event being his death)."""
        rule = self.cat.skills[self.goal.fire]
        out = []
        pres = [None]
        if self.goal.dead and self.turns > 1:
            pres.append(self.death_turn((t - 1) % self.n, _Names("d.")))
        for on in rule.on:
            if self.goal.cards_on:                   # the question's card, played on the player, then the firing
                pairs = [(e, len(e)) for e in self.cards_on_events(t, new)]
            else:
                pairs = self.raising(on, t, new)
            for pre in pres:
                if pre is not None and t == 0:
                    continue                         # a dead player takes no turn
                for events, k in pairs:
                    dies = any(e.kind == "die" and e.seat == 0 for e in (pre or []) + events)
                    if dies != self.goal.dead and (self.goal.dead or not asked_dead(rule)):
                        continue                     # the holder dead exactly when the question says so
                    for inv in (self.invalidations(t, new) if self.goal.invalid else [[]]):
                        evs = events[:3] + inv + events[3:]      # after the turn's start: its main phase
                        fire = TR.Event("fire", seat=0, rule=rule.id, on=on.event, **_effect_fields(rule, new))
                        out.append(self.story(evs + [fire], len(evs), t, f"fire:{on.event}", fire_at=len(evs),
                                              pre=pre))
                        if self.goal.effect is not None and on.event == "use_card":
                            for tail in self.follow_ups(rule, new):
                                out.append(self.story(evs + [fire] + tail, len(evs), t, f"fire:{on.event}",
                                                      fire_at=len(evs), pre=pre, follow_at=len(evs) + len(tail)))
        return out

    def follow_ups(self, rule, new) -> list:
        """An effect question on a skill answering a card's use that hands its holder a follow-up for that card's
        finishing (``lifetime = "resolution"``: 将计就计 → 将计就计·待发, 顺势而为, 就计): the follow-up's firing acts for it
        (``effect_ops``), so the story goes on — the grant handed out, the card resolved, the follow-up answering its
        finishing (skill/JiangJiJiuJi.kt: added at the UseCardEvent, fired at the FinishResolveCardEvent)."""
        out = []
        for i, site in enumerate(rule.gives or ()):
            follow = self.cat.skills.get(site.grant)
            if site.to != "self" or follow is None or follow.lifetime != "resolution" or follow.id == rule.id:
                continue
            for on in follow.on:
                if on.event == "card_resolved":
                    out.append([TR.Event("give", seat=0, giver=0, site=site.site_id), TR.Event("resolve"),
                                TR.Event("fire", seat=0, rule=follow.id, on=on.event, **_effect_fields(follow, new))])
        return out

    def effect_stories(self, t: int, new) -> list:
        """A card played by the player and resolved, or an active skill used by him, in each window it may be (出牌阶段
        of his own turn, 争夺阶段 in front of a receiver, 濒死求澄清 of a dying player): its effect the decisive event."""
        rid = self.goal.effect_rule
        card = self.cat.cards.get(rid)
        rule = self.cat.skills.get(rid)
        windows = card.windows if card is not None else rule.windows if rule is not None else {}
        out = []
        for w, actor in windows.items():
            if actor == "turn" and t != 0:
                continue
            if card is not None:
                act = self.card_events(0, rid, None, new)
            else:
                from ..realise import effect_holes, names_word
                reads_target = names_word(rule.do, "target") or (rule.requires is not None and any(
                    isinstance(x, E.Var) and x.name == "target" for x in E.walk(rule.requires)))
                act = [TR.Event("use", seat=0, rule=rid, target=Hole(new("target"), "seat") if reads_target else None,
                                **effect_holes(rule.do, new))]
            heads = []
            if w == "main":
                heads = [self.turn_start(t)]
            elif w == "fight":
                heads = [self.turn_start(t) + self.path(t, r, new) for r in self.receivers()]
            elif w == "send" and actor == "in_front":
                heads = [self.turn_start(t) + self.path(t, 0, new)[:-1]]     # 破译: the message in front of him
            elif w == "send_start":                 # 密令, 欲擒故纵: at the start of his send phase, before he sends
                heads = [self.turn_start(t) + [TR.Event("window", window="send_start")]]
            elif w == "dying":
                heads = [self.turn_start(t) + self.path(t, d, new) +
                         [TR.Event("window", window="receive", in_front=d), TR.Event("window", window="dying", dying=d)]
                         for d in self.receivers()]
            for head in heads:
                inv = self.invalidations(t, new) if self.goal.invalid and w == "main" and t != 0 else [[]]
                for pre in inv:
                    evs = head[:3] + pre + head[3:] + act
                    out.append(self.story(evs, len(evs) - len(act), t, f"effect:{w}", fire_at=len(evs) - 1))
        return out

    def invalidations(self, t: int, new) -> list:
        """The ways the turn player invalidates the player's skills in his main phase: a card whose InvalidSkill
        grant reaches its target (调虎离山), played on seat 0, resolved, the grant handed out."""
        out = []
        by = self.goal.invalid_by
        for site in self.cat.sites("InvalidSkill"):
            if by is not None and site.giver != by:
                continue
            if not site.giver_is_card:
                out += self.skill_invalidations(t, site, new)
                continue
            card = self.cat.cards.get(site.giver) if site.giver_is_card else None
            if card is None or site.to != "target" or "main" not in site.at or "main" not in card.windows:
                continue
            give = TR.Event("give", seat=0, giver=t, site=f"{site.giver}#{site.index}")
            out.append(self.card_events(t, site.giver, None, new, target=0) + [give])
        return out

    def skill_invalidations(self, t: int, site, new) -> list:
        """The turn player invalidates the player's skills in his main phase with a skill of his that hands InvalidSkill
        to its target (禁闭: skill/JinBi.kt, both grants at once — InvalidSkill.deal and the ban): its holder sits at
        the table (``seat_characters``: ``Goal.giver``), uses it on seat 0, the grants handed out."""
        from ..realise import effect_holes
        rule = self.cat.skills.get(site.giver)
        if rule is None or site.to not in ("target", "others") or "main" not in (site.at or ("main",)) or \
                "main" not in rule.windows or rule.windows["main"] == "turn" and t == 0:
            return []
        g = t if self.chars[t] in self.cat.owners(rule.id) and t != 0 else None
        if g is None:
            return []
        use = TR.Event("use", seat=g, rule=rule.id, target=0, **effect_holes(rule.do, new))
        gives = [TR.Event("give", seat=0, giver=g, site=site.site_id)]
        if site.partner_id is not None:
            from skillproof.model.interp.grants import site_of
            other = site_of(self.cat, site.partner_id)
            gives.append(TR.Event("give", seat=0, giver=g, site=other.site_id, args=dict(other.args)))
        return [[use] + gives]

    def death_turn(self, p: int, new) -> list:
        """A whole turn of ``p`` in which seat 0 receives the message, is dying and dies (nobody saving him)."""
        return self.turn_start(p) + self.path(p, 0, new) + [
            TR.Event("window", window="receive", in_front=0), TR.Event("window", window="dying", dying=0),
            TR.Event("die", seat=0), TR.Event("window", window="turn_end")]

    def raising(self, on, t: int, new) -> list:
        """(events, index) that raise ``on.event`` with the player in a role ``on.whose`` may name."""
        ev = on.event
        out = []
        if ev in ("receive", "receive_phase"):
            for r in self.receivers():
                out.append(self.turn_start(t) + self.path(t, r, new) + [TR.Event("window", window="receive", in_front=r)])
        elif ev == "die":
            for d in self.receivers():
                out.append(self.turn_start(t) + self.path(t, d, new) +
                           [TR.Event("window", window="receive", in_front=d), TR.Event("window", window="dying", dying=d),
                            TR.Event("die", seat=d)])
        elif ev in ("card_resolved", "use_card"):
            on_target = "target" in on.whose and not ({"user", "self", "any"} & set(on.whose))
            for actual, card in self.card_choices(on):
                c = self.cat.cards[card]
                if self.goal.play_target is not None:     # 对别人使用试探后: he plays it, on that player
                    user = 0
                    seats = [0] if self.goal.play_target == "self" else list(range(1, self.n))
                    for s in seats:
                        if c.target is None or c.target.who == "none":
                            continue
                        played = self.card_events(0, card, actual, new, target=s)
                        if ev == "use_card":
                            played = played[:1]
                        if "main" in c.windows and t == 0:
                            out.append(self.turn_start(t) + played)
                        elif "fight" in c.windows:
                            for r in self.receivers():
                                out.append(self.turn_start(t) + self.path(t, r, new) + played)
                    continue
                if on_target:                       # 城府: a card played on the player by another
                    user = t if t != 0 else 1
                    played = self.card_events(user, card, actual, new, target=0)
                elif self.goal.plays_by_other:      # 别人使用截获时: another player plays it
                    user = t if t != 0 else 1
                    played = self.card_events(user, card, actual, new)
                else:
                    user = 0
                    played = self.card_events(0, card, actual, new)
                if ev == "use_card":
                    played = played[:1]
                if "main" in c.windows and t == user:
                    out.append(self.turn_start(t) + played)
                elif "fight" in c.windows:
                    for r in self.receivers():
                        out.append(self.turn_start(t) + self.path(t, r, new) + played)
                elif "send" in c.windows and (user == 0 or not self.goal.dead):
                    # 破译: used in 传递阶段 by the player the message is in front of (its user), before the fight
                    out.append(self.turn_start(t) + self.path(t, user, new)[:-1] + played)
        elif ev in ("send", "move"):
            for r in self.receivers():
                if r == t:
                    continue
                p = self.path(t, r, new)
                out.append(self.turn_start(t) + p[:2])
        elif ev == "choose_receive":
            for r in self.receivers():
                out.append(self.turn_start(t) + self.path(t, r, new))
        elif ev == "give_card":
            out += self.giving(on, t, new)
        elif ev == "send_phase_start":
            out.append(self.turn_start(t) + [TR.Event("window", window="send_start")])
        elif ev == "turn_end":
            for r in self.receivers():
                out.append(self.turn_start(t) + self.path(t, r, new) +
                           [TR.Event("window", window="receive", in_front=r), TR.Event("window", window="turn_end")])
        return [(e, len(e)) for e in out]

    def giving(self, on, t: int, new) -> list:
        """A card of the main phase whose effect makes a player give another a card (威逼: the target gives the user
        one — a GiveCardEvent, ops.py ``give``), played so that the player is the giver or the taker the trigger names:
        by the turn player on him, or by him (his own turn) on another."""
        out = []
        for cid in sorted(self.cat.cards):
            c = self.cat.cards[cid]
            if "main" not in c.windows or c.windows["main"] != "turn":
                continue
            for o in walk(c.do):
                if o.op != "give":
                    continue
                frm, to = o.args.get("from", "self"), o.args.get("to")
                for role, word in (("giver", frm), ("taker", to)):
                    if role not in on.whose and "any" not in on.whose:
                        continue
                    if word == "target" and t != 0:          # played on him by the turn player
                        out.append(self.turn_start(t) + self.card_events(t, cid, None, new, target=0))
                    elif word == "self" and t == 0:          # played by him on another
                        out.append(self.turn_start(t) + self.card_events(0, cid, None, new))
        return out

    def cards_on_events(self, t: int, new) -> list:
        """The question's cards played on the player (the target) by whoever may play them, each resolved."""
        out = []
        for card in self.goal.cards_on:
            c = self.cat.cards[card]
            if "main" in c.windows:
                out.append(self.turn_start(t) + self.card_events(t, card, None, new, target=0))
            elif "fight" in c.windows:
                for r in self.receivers():
                    out.append(self.turn_start(t) + self.path(t, r, new) + self.card_events(t, card, None, new, target=0))
        return out

    def card_choices(self, on) -> list:
        """(actual, declared) cards a card event the skill answers may be about: the question's, else those its guard
        names, else every card."""
        if self.goal.plays:
            return list(self.goal.plays)
        named = [x.value for x in E.walk(on.when) if isinstance(x, E.Const) and x.value in self.cat.cards]
        return [(None, c) for c in (named or sorted(self.cat.cards))]

    def moment_ok(self, s: Story) -> bool:
        """The final moment is the question's: its window (a dying window's interrupted one too)."""
        w = self.goal.window
        if w is None:
            return True
        window, interrupted = final_window(s.template.events)
        if isinstance(w, tuple):
            return window == "dying" and interrupted == w[1]
        return window == w or window == "dying" and interrupted == w


def asked_dead(rule) -> bool:
    """Is the skill asked though its holder is dead (a BeforeDieSkill, or a granted skill: Game.kt:361)?"""
    from skillproof.model.events import dispatched
    return dispatched(False, rule.has("BeforeDieSkill"), rule.initial)


def final_window(events) -> tuple:
    """(the window a list of game events ends in, the window a dying one interrupts)."""
    window = interrupted = None
    for e in events:
        if e.kind == "turn":
            window, interrupted = "draw", None
        elif e.kind == "send":
            window, interrupted = "send", None
        elif e.kind == "window":
            if e.window == "dying":
                interrupted = window if window != "dying" else interrupted
            else:
                interrupted = None
            window = e.window
    return window, interrupted


def _effect_fields(rule, new) -> dict:
    from ..realise import effect_holes
    return effect_holes(rule.do, new)


# ============================================================================================ claims on a table
def _cmp(op: str, a, b):
    return {"==": EQ, "!=": NE, "<": LT, "<=": LE, ">": GT, ">=": GE}[op](a, b)


class Reader:
    """The claim's and the givens' atoms read on a symbolic table (z3 side) or on a state (interpreter side)."""

    def __init__(self, cat, goal: Goal, story: Story):
        self.cat, self.goal, self.story = cat, goal, story
        self.turn_sender = story.turn                # the template's: the turn player sends

    # ---- z3
    def term(self, enc: GameEncoding, node, k):
        """The claim (or a given) on the symbolic table after event ``k`` (-1: the end; None: the start)."""
        if isinstance(node, Not):
            return NOT(self.term(enc, node.arg, k))
        if isinstance(node, BoolOp):
            xs = [self.term(enc, x, k) for x in node.items]
            return AND(xs) if node.op == "and" else OR(xs)
        return self.atom_term(enc, node, k)

    def atom_term(self, enc: GameEncoding, a: Atom, k):
        tab = enc.at(k)
        won = [AND(tab.ended, w) for w in tab.winners]
        if a.kind == "where":
            env = CEnv(self.cat, enc.C, tab, {"self": 0}, {}, table_globals(tab), False, won,
                       [AND(tab.ended, d) for d in tab.declared])
            return fcompile(a.value, env)
        if a.kind == "win":
            ident, task = a.value or (None, None)
            out = won[0]
            if ident is not None:
                out = AND(out, EQ(enc.seat_term(0, "identity", k), enc.value("identity", ident)))
            if task is not None:
                out = AND(out, EQ(enc.seat_term(0, "task", k), enc.value("task", task)))
            return out
        if a.kind == "received":
            return AND(tab.message_received, EQ(tab.in_front, 0))
        if a.kind == "fires_on":
            return True                              # the template's fire event: its legality is the claim
        if a.kind == "target":
            k_use, ev = self.acting_event()
            if ev is None or ev.target is None:
                return False
            return target_term(a.value, enc.val(ev.target, "seat"), enc.at(k_use - 1 if k_use > 0 else None), self.cat)
        if a.kind == "effect":
            k_eff = self.story.fire_at
            terms = []
            done = [x for k in (k_eff, self.story.follow_at) if k is not None for x in enc.done.get(k, [])]
            _, used = self.acting_event()              # 平衡的目标: the target of the play the effect is
            tgt = enc.val(used.target, "seat") if used is not None and used.target is not None else None
            for cond, entry in done:
                if not effect_entry_ok(a.value, entry):
                    continue
                t = cond
                if a.value.card is not None:         # 让试探无效: the card the effect answers is that card
                    t = AND(t, self.answered_card() == a.value.card)
                seats = self.effect_seats(a.value, entry)
                if seats is not None:
                    t = AND(t, OR([AND(c, self.who_term(a.value.who, s, entry, a.value, tgt)) for s, c in seats]))
                terms.append(t)
            return OR(terms) if terms else False
        if a.kind == "hand":
            return _cmp(a.value[0], tab.seats[0].hand, a.value[1])
        if a.kind == "face_up":
            return EQ(tab.seats[0].face_up, bool(a.value))
        if a.kind == "locked":
            return tab.seats[0].locked
        if a.kind == "given":
            return self.role_value(a.value, enc=enc, k=k)
        raise Unsupported(f"牌桌问题读不了「{a.text}」", f"the table search does not read `{a.text}`")

    def effect_seats(self, eff, entry):
        """The seats the op's player argument the question names (None: it names none — any will do)."""
        arg = eff.args.get(entry["op"])
        if arg is None or eff.who is None and not eff.dying:
            return None
        return entry["seats"].get(arg, [])

    def who_seat(self, who, entry):
        """The seat the question's player word names (None: the word names a set: other)."""
        if who == "self":
            return 0
        if who == "dying":
            return entry["dying"] if entry["dying"] is not None else -1
        if who in ("sender", "turn"):               # 误导能把情报转移给传出者吗 / 如归…当前回合角色: the template's turn
            return self.turn_sender                 # player (he sends)
        if who in ("receiver", "dead"):             # 接收者 / 死亡角色: the template's, before the effect's event
            return self.story_seat(who)
        if who in ("front_left", "front_right"):    # 情报所在角色的上家 / 下家: the holder's living neighbour
            return self.front_neighbour(who)
        if isinstance(who, str) and who.endswith(("_left", "_right")) and who.rsplit("_", 1)[0] in SEAT_BASES:
            base, side = who.rsplit("_", 1)         # 传出者下家 / 自己的上家: that player's living neighbour
            return self.neighbour(self.who_seat(base, entry), side)
        chars = [s.character for s in self.story.template.setup.seats]
        return chars.index(who) if who in chars else -1

    def front_neighbour(self, who: str) -> int:
        """The nearest living seat left (上家, the lower seat) or right (下家) of the player the template's message is in
        front of at its last fight window before the effect's event (``neighbour``); -1 when the template has no such
        window."""
        evs = self.story.template.events
        last = self.story.fire_at if self.story.fire_at is not None else len(evs)
        front = next((e.in_front for e in reversed(evs[:last]) if e.kind == "window" and e.window == "fight"
                      and isinstance(e.in_front, int)), None)
        return -1 if front is None else self.neighbour(front, who.rsplit("_", 1)[1])

    def neighbour(self, seat: int, side: str) -> int:
        """The nearest living seat on ``seat``'s left (the lower seat) or right, dead seats — the template's deaths
        before the effect's event — skipped as the server's Player.getNextLeftAlivePlayer / getNextRightAlivePlayer do
        (model.interp.table.next_alive); -1 for no seat or nobody else living. Both twins read the template."""
        if seat is None or seat < 0:
            return -1
        evs = self.story.template.events
        last = self.story.fire_at if self.story.fire_at is not None else len(evs)
        n = len(self.story.template.setup.seats)
        dead = {e.seat for e in evs[:last] if e.kind == "die" and isinstance(e.seat, int)}
        step = -1 if side == "left" else 1
        i = seat
        for _ in range(n - 1):
            i = (i + step) % n
            if i not in dead:
                return i
        return -1

    def story_seat(self, who: str) -> int:
        """The seat the template names as this turn's receiver (its last receive window before the effect's event:
        ``in_front``) or as the dead (its last death before it); -1 when it names none. Both twins read the template."""
        evs = self.story.template.events
        last = self.story.fire_at if self.story.fire_at is not None else len(evs)
        for e in reversed(evs[:last]):
            if who == "receiver" and e.kind == "window" and e.window == "receive" and isinstance(e.in_front, int):
                return e.in_front
            if who == "dead" and e.kind == "die" and isinstance(e.seat, int):
                return e.seat
        return -1

    def who_term(self, who, seat, entry, eff=None, target=None):
        """(z3) the op's seat is the player the word names; ``target``: the seat value the played card targets (目标)."""
        dying = EQ(seat, entry["dying"] if entry["dying"] is not None else -1) if eff is not None and eff.dying else True
        if who == "other":
            return AND(NE(seat, 0), NE(seat, NONE), dying)
        if who == "target":
            return AND(EQ(seat, target), NE(seat, NONE), dying) if target is not None else False
        return AND(EQ(seat, self.who_seat(who, entry)), dying)

    def who_holds(self, who, seat, entry, eff, target=None) -> bool:
        """Twin of who_term on a played game."""
        if eff.dying and seat != entry["dying"]:
            return False
        if who == "target":
            return target is not None and seat == target
        return seat != 0 if who == "other" else seat == self.who_seat(who, entry)

    def acting_event(self) -> tuple:
        """(index, event) of the play or use whose effect the template's decisive event is (the target's)."""
        evs = self.story.template.events
        last = self.story.fire_at if self.story.fire_at is not None else len(evs) - 1
        for k in range(last, -1, -1):
            if evs[k].kind in ("play", "use") and evs[k].seat == 0:
                return k, evs[k]
        return None, None

    def answered_card(self) -> str | None:
        """The card the template's effect answers: the last card played before its effect event (declared)."""
        evs = self.story.template.events[:self.story.fire_at or 0]
        return next((e.card for e in reversed(evs) if e.kind == "play"), None)

    def role_value(self, giv, enc=None, k=None, st=None):
        r = giv.rule
        if r == "sender":
            return self.turn_sender == 0
        if r == "not_sender":
            return self.turn_sender != 0
        if r == "turn":
            return self.story.turn == 0
        if r == "not_turn":
            return self.story.turn != 0
        if named_in_role(r, "sender_is") is not None:
            chars = [x.character for x in self.story.template.setup.seats]
            who = named_in_role(r)
            return who in chars and self.turn_sender == chars.index(who)
        if named_in_role(r, "receiver_is") is not None:     # the story's message is received by that character
            chars = [x.character for x in self.story.template.setup.seats]
            who = named_in_role(r)
            return who in chars and any(e.kind == "window" and e.window == "receive" and e.in_front == chars.index(who)
                                        for e in self.story.template.events)
        if r == "last_alive":                        # 只剩一个人存活: the player, and nobody else, alive
            if st is not None:
                return st.seats[0].alive and not any(x.alive for x in st.seats[1:])
            n = len(self.story.template.setup.seats)
            return AND([enc.seat_term(0, "alive", k)] + [NOT(enc.seat_term(i, "alive", k)) for i in range(1, n)])
        if r == "task":
            if st is not None:
                return st.seats[0].task == giv.who
            return EQ(enc.seat_term(0, "task", k), enc.value("task", giv.who))
        raise Unsupported(f"牌桌问题读不了「{giv.text}」", f"the table search does not read `{giv.text}`")

    # ---- the interpreter
    def holds(self, st: State, node) -> bool:
        if isinstance(node, Not):
            return not self.holds(st, node.arg)
        if isinstance(node, BoolOp):
            xs = [self.holds(st, x) for x in node.items]
            return all(xs) if node.op == "and" else any(xs)
        return self.atom_holds(st, node)

    def atom_holds(self, st: State, a: Atom) -> bool:
        won = st.winners or frozenset()
        if a.kind == "where":
            from dataclasses import replace as _r
            env = env_of(self.cat, st, 0)
            env = _r(env, winners=frozenset(won), declared=frozenset(st.declared or ()))
            return bool(evaluate(a.value, env))
        if a.kind == "win":
            ident, task = a.value or (None, None)
            s = st.seats[0]
            return 0 in won and (ident is None or s.identity == ident) and (task is None or s.task == task)
        if a.kind == "received":
            return bool(st.message_received) and st.in_front == 0
        if a.kind == "fires_on":
            return True
        if a.kind == "target":
            game = getattr(self, "game", None)
            k_use, _ = self.acting_event()
            if game is None or k_use is None:
                return False
            ev = game.events[k_use]
            if ev.target is None:
                return False
            before = state_after(self.cat, game, k_use)
            return target_holds(a.value, ev.target, before, self.cat)
        if a.kind == "effect":
            run = getattr(self, "run", None)
            k_eff = self.story.fire_at
            if run is None or k_eff is None:
                return False
            eff = a.value
            k_use, _ = self.acting_event()
            game = getattr(self, "game", None)
            tgt = game.events[k_use].target if game is not None and k_use is not None else None
            for entry in [x for k in (k_eff, self.story.follow_at) if k is not None for x in run.done.get(k, [])]:
                if not effect_entry_ok(eff, entry):
                    continue
                if eff.card is not None and self.answered_card() != eff.card:
                    continue
                seats = self.effect_seats(eff, entry)
                if seats is None or any(self.who_holds(eff.who, s, entry, eff, tgt) for s in seats):
                    return True
            return False
        if a.kind == "hand":
            return {"==": int.__eq__, "!=": int.__ne__, "<": int.__lt__, "<=": int.__le__, ">": int.__gt__,
                    ">=": int.__ge__}[a.value[0]](st.seats[0].hand_count, a.value[1])
        if a.kind == "face_up":
            return st.seats[0].face_up == bool(a.value)
        if a.kind == "locked":
            return st.seats[0].locked
        if a.kind == "given":
            return bool(self.role_value(a.value, st=st))
        return False


#: the players whose living neighbour (上家 / 下家) an effect may name (parse_effects._effect_player)
SEAT_BASES = ("sender", "self", "turn", "receiver")


def target_term(who: str, t, tab, cat=None):
    """The target word's relation (targets.TARGET_WORDS) for the symbolic target seat ``t`` on the table ``tab``
    just before the play (z3 twin of target_holds); a compound word (face_down+male): both."""
    if "+" in who:
        return AND([target_term(w, t, tab, cat) for w in who.split("+")])
    there = NE(t, NONE)
    if cat is not None and who in cat.characters:   # 李宁玉能被利诱吗: that character
        return AND(there, tab.at(t, lambda s: s.character == who, False))
    if who in ("male", "female"):                   # the character's gender (face down too: 面朝下的男性角色)
        return AND(there, tab.at(t, lambda s: _female(cat, s.character) == (who == "female"), False))
    if who == "self":
        return EQ(t, 0)
    if who == "other":
        return AND(there, NE(t, 0))
    if who == "dying":
        return AND(there, EQ(t, tab.dying)) if tab.dying is not None else False
    if who == "not_dying":
        return AND(there, NE(t, tab.dying)) if tab.dying is not None else there
    if who == "no_hand":
        return AND(there, tab.at(t, lambda s: EQ(s.hand, 0), False))
    if who == "dead":
        return AND(there, tab.at(t, lambda s: NOT(s.alive), False))
    if who == "no_black":                           # 澄清的目标: a black message in the area
        return AND(there, tab.at(t, lambda s: EQ(s.count("black_messages"), 0), False))
    if who == "no_messages":                        # every message holds a colour: none of the three counted
        return AND(there, tab.at(t, lambda s: AND([EQ(s.count(f"{c}_messages"), 0) for c in ("red", "blue", "black")]),
                                 False))
    if who in ("face_down", "face_up"):
        return AND(there, tab.at(t, lambda s: s.face_up if who == "face_up" else NOT(s.face_up), False))
    if who == "sender":
        return AND(there, EQ(t, tab.sender)) if tab.sender is not None else False
    if who == "turn_player":
        return AND(there, EQ(t, tab.turn))
    raise Unsupported(f"目标「{who}」读不了", f"the target `{who}` is not read")


def _female(cat, character) -> bool:
    ch = cat.characters.get(character) if cat is not None else None
    return bool(ch is not None and ch.female)


def target_holds(who: str, t: int, st: State, cat=None) -> bool:
    """The target word's relation for the target seat ``t`` on the state ``st`` just before the play."""
    if "+" in who:
        return all(target_holds(w, t, st, cat) for w in who.split("+"))
    if cat is not None and who in cat.characters:   # that character
        return st.seats[t].character == who
    if who in ("male", "female"):                   # the character's gender, whatever its face
        return _female(cat, st.seats[t].character) == (who == "female")
    if who == "self":
        return t == 0
    if who == "other":
        return t != 0
    if who == "dying":
        return st.dying is not None and t == st.dying
    if who == "not_dying":
        return st.dying is None or t != st.dying
    if who == "no_hand":
        return st.seats[t].hand_count == 0
    if who == "dead":
        return not st.seats[t].alive
    if who == "no_black":
        return st.seats[t].black_messages == 0
    if who == "no_messages":
        s = st.seats[t]
        return s.red_messages == 0 and s.blue_messages == 0 and s.black_messages == 0
    if who in ("face_down", "face_up"):
        return st.seats[t].face_up == (who == "face_up")
    if who == "sender":
        return st.sender is not None and t == st.sender
    if who == "turn_player":
        return t == st.turn
    return False


def effect_entry_ok(eff, entry) -> bool:
    """An op done (ops.done_entry) is of the kind the effect claim names: its op, face, colour filter, card filter and
    grant (the players aside)."""
    if entry["op"] not in eff.ops:
        return False
    if eff.face is not None and (entry["face"] or _face_default(entry["op"])) != eff.face:
        return False
    if eff.colours and entry["colour"] not in eff.colours:
        return False
    if eff.card is not None and entry["cards"] and eff.card not in entry["cards"]:
        return False
    if eff.of_card is not None and entry["cards"] and eff.of_card not in entry["cards"]:
        return False                                # 威逼能让目标交出平衡吗: the op moves only cards of its types
    if eff.grant is not None and entry["grant"] != eff.grant:
        return False
    if eff.place is not None and entry["op"] == "remove_message" and entry.get("place") != eff.place:
        return False
    if eff.n is not None and entry.get("n") != eff.n:
        return False                                # 摸两张牌: a draw of that many (an amount not a number: none)
    if eff.place == "message" and entry["op"] == "flip" and (entry.get("args") or entry.get("seats")):
        return False                                # 让情报面朝下: a flip of the message names no player, a role's does
    return True


def _face_default(op: str) -> str:
    """The face an op's unwritten ``face`` stands for (model/effects.py: a flip turns up; a message sent or put in
    place of another lies face down)."""
    from skillproof.model.effects import OPS
    spec = OPS.get(op)
    arg = spec.arg("face") if spec is not None else None
    return arg.default if arg is not None and arg.default is not None else "up"


def effect_ops(cat, rid: str) -> list:
    """The ops a rule's or card's effect may do, as done entries without players (model/effects.walk), its role turned
    face up by its use (``flips``, the cost of an ActiveSkill) too; and whether some of it is in words (``prose``)."""
    from skillproof.model.effects import INTO_HAND, op_player_args, place_of, static_n
    src = cat.skills.get(rid) or cat.cards.get(rid)
    ops = list(walk(src.do)) if src is not None else []
    for site in (getattr(src, "gives", None) or ()):   # a follow-up it hands its holder (江湖令 → 江湖令·弃情报) acts for it
        follow = cat.skills.get(site.grant)
        if site.to == "self" and follow is not None and follow.id != rid:
            ops += [o for o in walk(follow.do) if o.op != "grant"]
    out = [{"op": o.op, "face": o.args.get("face"), "colour": o.args.get("colour"), "grant": o.args.get("grant"),
            "place": place_of(o), "n": static_n(o),
            "cards": (o.args["card"],) if isinstance(o.args.get("card"), str) else tuple(o.args.get("card") or ()),
            "args": {n: o.args.get(n, d) for n, d in op_player_args(o) if o.args.get(n, d) is not None},
            "cond": o.cond} for o in ops]
    for o in ops:                                   # three = to_hand: the card into a hand instead (effects.INTO_HAND)
        if o.args.get("three") == "to_hand":
            out.append({"op": INTO_HAND, "face": None, "colour": None, "grant": None, "place": None, "n": 1, "cards": (),
                        "args": {"who": o.args.get("by", "self")}, "cond": o.cond})
    if getattr(src, "flips", False):
        out.append({"op": "flip", "face": "up", "colour": None, "grant": None, "cards": (), "args": {"who": "self"}})
    return out


# ============================================================================================ the search
_EVENT = __import__("re").compile(r"^event (\d+): ")


def label_event(label: str) -> int | None:
    """The event index a constraint of the twin belongs to (None: the setup or a hole's domain)."""
    m = _EVENT.match(label)
    return int(m.group(1)) if m else None


def is_invariant(label: str) -> bool:
    return label.startswith("setup: ") and any(x in label for x in INVARIANTS)


@dataclass
class Tried:
    story: Story
    enc: GameEncoding
    reader: Reader
    asked: list                     # [(name, z3 term)]: the question's own constraints
    sat: bool


@dataclass
class Found:
    story: Story
    game: TR.Trace
    run: object
    before: State | None


class Search:
    """A table question's bounded search (see the module's docstring)."""

    def __init__(self, cat, goal: Goal, seats: int, turns: int, timeout_ms: int, clock=time.perf_counter):
        self.cat, self.goal = cat, goal
        self.n = max(seats, 5) if any(t not in tasks_dealt(max(seats, 2)) for t in goal.tasks) else seats
        if "win" in goal.needs and _wins_short_of_three(goal):
            # 潜伏战线只有两张红色情报时能获胜吗: short of three himself, he wins only as another declares — in a game
            # of four red and blue win together (ProcessFsm.kt checkWin, 四人局): the fewest seats where that is dealt
            self.n = max(self.n, FOUR_PLAYER_ALLIES)
        self.turns = max(1, turns)
        self.timeout_ms = timeout_ms
        self.tried: list = []
        self.templates = 0
        self.clock = clock
        self.t0 = clock()
        self.deadline = self.t0 + timeout_ms / 1000          # the safety net only: past it, TimeSpent (no verdict)

    def check(self, s, *assumptions):
        """``s.check(*assumptions)`` within the call's work budget (CALL_RLIMIT: deterministic) and the question's time
        (the safety net: each call as much as the question — as generous as the search was before its verdicts were
        bounded in work; the templates stop at the question's time): TimeSpent when the time, not the work, is what
        stopped it."""
        s.set("rlimit", CALL_RLIMIT)
        s.set("timeout", self.timeout_ms)
        return W.check(s, *assumptions, rlimit=CALL_RLIMIT, seen=_seen)

    def claim_to_find(self):
        """The claim as the search looks for it: a game where it holds (exists), or holds not (always), or — for
        never — holds (a counterexample)."""
        return Not(self.goal.claim) if self.goal.mode == "always" else self.goal.claim

    def run(self) -> Found | None:
        """The first game found: one turn, then two (at the question's number of seats: five when it names a secret
        task only a deal of five or more has)."""
        for n in self.seat_counts():
            chars = seat_characters(self.cat, self.goal, n)
            if chars is None:
                raise Unsupported("没有角色持有所问的技能", "no character starts with the skill asked about")
            self.n, self.chars = n, chars
            for turns in range(1, self.turns + 1):
                stories = Builder(self.cat, self.goal, chars, turns).stories()
                for story in stories:
                    if self.clock() > self.deadline:
                        raise TimeSpent()
                    if self.goal.at_death and _death_index(story.template.events) is None:
                        continue                # read as he dies: a template where he does not die is no such game
                    self.templates += 1
                    got = self.try_story(story)
                    if got is not None:
                        return got
        return None


    def seat_counts(self) -> list:
        """The numbers of seats tried: the question's — and, for the last player alive (只剩一个人存活), every number
        from the fewest a game has up to it, the fewest first: every other seat must die, one death a template."""
        if any(getattr(a.value, "rule", None) == "last_alive" for a in self.goal.after if a.kind == "given"):
            return list(range(max(2, self.cat.rules.min_seats), self.n + 1))
        return [self.n]

    # ---- one template
    def constraints(self, enc: GameEncoding, reader: Reader, story: Story) -> list:
        """[(name, term)]: the claim at the end, the givens before the decisive events and the roles at the end."""
        k = story.decisive - 1 if story.decisive > 0 else None
        out = [("claim", z(reader.term(enc, self.claim_to_find(), -1)))]
        for i, a in enumerate(self.goal.before):
            out.append((f"given {i}", z(reader.term(enc, a, k))))
        for i, a in enumerate(self.goal.after):
            out.append((f"at the end {i}", z(reader.term(enc, a, -1))))
        if self.goal.at_death:
            d = _death_index(story.template.events)
            for i, a in enumerate(self.goal.at_death):
                out.append((f"as he dies {i}", z(reader.term(enc, a, d - 1 if d else None)) if d is not None else
                            z3.BoolVal(False)))
        for r in self.goal.roles:
            from .syntax import Given
            out.append((f"role {r}", z(reader.role_value(Given("role", 0, 0, r, rule=r)))))
        return out

    def try_story(self, story: Story) -> Found | None:
        enc = GameEncoding(self.cat, story.template)
        reader = Reader(self.cat, self.goal, story)
        asked = self.constraints(enc, reader, story)
        s = z3.Solver()
        s.add(enc.legal_expr())
        s.add([t for _, t in asked])
        r = self.check(s)
        self.tried.append(Tried(story, enc, reader, asked, r == z3.sat))
        if r != z3.sat:
            if r == z3.unknown:
                self.tried[-1].sat = None
            return None
        model = self.plain(s, enc)
        game = enc.fill(model)
        return self.replayed(story, game, reader)

    def plain(self, s: z3.Solver, enc: GameEncoding):
        """The plainest filling: the fewest cards at the table at the start (hands and message areas), the other
        seats' first — kept only as far as the game is still found (one optimisation; the first model if it gives
        up)."""
        m = s.model()
        start = enc.at(None)
        weight = [len(c.split("_")) for c in CLASSES]          # a card of more colours counts for more

        def cards(seat):
            return [x for x in [seat.hand] if isinstance(x, z3.ExprRef)] + \
                [x * w for x, w in zip(seat.area, weight) if isinstance(x, z3.ExprRef)]
        others = [x for i in range(1, enc.n) for x in cards(start.seats[i])]
        mine = cards(start.seats[0])
        o = z3.Optimize()
        # the smallest table within a resource limit (deterministic: a time limit hit on a loaded machine would
        # show another game); the time limit only guards
        o.add(s.assertions())
        if "win" not in self.goal.needs:
            o.add_soft(z(NOT(enc.at(-1).ended)), 10)          # nobody wins unless the question is about it
        if others:
            o.minimize(z3.Sum(others))
        if mine:
            o.minimize(z3.Sum(mine))
        if self.check(o) == z3.sat:
            return o.model()
        return m

    def replayed(self, story: Story, game: TR.Trace, reader: Reader) -> Found | None:
        """The interpreter runs the game; the question is answered again on the states it reaches."""
        game = with_draws(self.cat, game)
        run = play_run(self.cat, game)
        if run.errors:
            raise TwinsDisagree(game, run.errors)
        before = None
        if story.decisive > 0:
            before = state_after(self.cat, game, story.decisive)
        else:
            before = _start_state(game)
        reader.run, reader.game = run, game
        dying = None
        if self.goal.at_death:
            d = _death_index(game.events)
            dying = None if d is None else state_after(self.cat, game, d) \
                if d > 0 else _start_state(game)
        ok = self.via_ok(game) and self.frame_ok(run.state) and reader.holds(run.state, self.claim_to_find()) and \
            all(reader.holds(before, a) for a in self.goal.before) and \
            all(reader.holds(run.state, a) for a in self.goal.after) and \
            all(dying is not None and reader.holds(dying, a) for a in self.goal.at_death)
        if not ok:
            raise TwinsDisagree(game, [(len(game.events), pick("解释器对这局游戏的回答不同", "the interpreter answers the game otherwise"))])
        return Found(story, game, run, before)

    def frame_ok(self, st: State) -> bool:
        """The question's frame holds at the end of the game the interpreter played, read from its state and not
        from the template: whose turn it is (在自己的回合 / 在别人的回合 / a character's) and the player's roles
        (the sender of this turn's message, the turn player, a character as the sender)."""
        g = self.goal
        w = g.whose
        if w == "own" and st.turn != 0 or w == "other" and st.turn == 0:
            return False
        if w not in (None, "own", "other"):
            if st.seats[st.turn].character != w:
                return False
        sender = st.sender_of_turn()
        for r in g.roles:
            if (r == "sender" and sender != 0 or r == "not_sender" and sender == 0 or r == "turn" and st.turn != 0
                    or r == "not_turn" and st.turn == 0):
                return False
            who = named_in_role(r)
            if named_in_role(r, "sender_is") is not None and st.seats[sender].character != who:
                return False
            if named_in_role(r, "receiver_is") is not None and (st.in_front is None or
                                                                 st.seats[st.in_front].character != who):
                return False
        return True

    def via_ok(self, game: TR.Trace) -> bool:
        """The player's plays the question says go through a conversion skill (用应变把截获当作误导) do: the
        conversion that fires for them, on the table just before, is that skill's."""
        from skillproof.model.interp.conversion import conversion
        for k, ev in enumerate(game.events):
            rid = self.goal.via.get((ev.actual, ev.card)) if ev.kind == "play" and ev.seat == 0 else None
            if rid is None:
                continue
            st = state_after(self.cat, game, k)
            c = conversion(self.cat, st, 0, ev.actual, ev.card)
            if c.via is None or st.seats[0].skills[c.via].rule != rid:
                return False
        return True

    def guarded(self, s: z3.Solver, t: Tried) -> z3.Solver:
        """For a firing the engine never asks (invalidated, a dead holder): the solver of the situation with the
        skill's own guard holding on an event it answers too, when it can — so the illustration refuses it for the
        engine's reason alone (its guard and whose event are met); ``s`` as it is otherwise."""
        from ..enc.fires import enc_guard_ok, enc_holder_role_ok
        g, k = self.goal, t.story.fire_at
        if not (g.invalid or g.dead) or k is None or g.fire is None:
            return s
        rule = self.cat.skills[g.fire]
        tab = t.enc.at(k - 1)
        inst = next((i for i in tab.seats[0].skills if i.rule == g.fire), None)
        if inst is None:
            return s
        terms = [AND(e.present, enc_holder_role_ok(on, e, 0), enc_guard_ok(self.cat, tab, on, e, 0, inst))
                 for on in rule.on for e in t.enc.pending if e.kind == on.event and e.at < k]
        s2 = z3.Solver()
        s2.add(s.assertions())
        s2.add(z(OR(terms)) if terms else z3.BoolVal(False))
        return s2 if self.check(s2) == z3.sat else s

    # ---- no game: the rules, or the bound?
    def premise_met(self) -> bool | None:
        """Does the question's premise (its constraints but the claim) hold in a legal game of some template tried?
        None when a solver could not tell. An *always* / *never* whose premise holds in no game is vacuous: its
        counterexample is not refused by the rules, there is no situation to refuse it in (特工机关有三张蓝色情报时:
        three blue before the decisive events is a game already won)."""
        for t in self.tried:
            s = z3.Solver()
            s.add(t.enc.legal_expr())
            s.add([term for name, term in t.asked if name != "claim"])
            r = self.check(s)
            if r == z3.sat:
                return True
            if r == z3.unknown:
                return None
        return False

    def refusal(self) -> dict | None:
        """When no template has a game: {rules, labels, near} if in every template where the situation happens the
        decisive events' rules alone refuse the question's constraints; None when the bound may be what stops it."""
        seen = False
        rules: dict = {}
        labels: list = []
        near = None
        for t in self.tried:
            if t.sat is None:
                return None
            enc, k0 = t.enc, t.story.decisive
            dec = [lab for lab in enc.legal if (label_event(lab.label) or -1) >= k0]
            rest = [lab for lab in enc.legal if lab not in dec]
            # an effect's op is done under its own condition (the claim's term, Reader.atom_term): the situation is
            # the rule's play with the question's facts, the op left out (破译 on a pure red message)
            own_cond = self.goal.effect is not None and self.goal.fire is None
            s = z3.Solver()
            s.add([lab.expr for lab in rest])
            s.add([term for name, term in t.asked if name != "claim" or (self.goal.fire is None and not own_cond)])
            r = self.check(s)
            if r == z3.unknown:
                return None
            if r == z3.unsat:
                continue                            # the situation itself does not happen in this template
            seen = True
            if near is None:
                near = (t, enc.fill(self.plain(self.guarded(s, t), enc)))
            if own_cond:
                # the op's condition and the question's facts alone (no event's rule, nothing before) — where the op
                # is done at all in this template without the facts (an op the template lacks refuses nothing)
                inv = [lab.expr for lab in enc.legal if is_invariant(lab.label)]
                claim = [term for name, term in t.asked if name == "claim"]
                may = z3.Solver()
                may.add(inv + claim)
                alone = z3.Solver()
                alone.add(inv + [term for _, term in t.asked])
                r = self.check(may)
                r = self.check(alone) if r == z3.sat else z3.unknown
                if r == z3.unknown:
                    return None
                if r == z3.unsat:
                    rules[self.goal.effect_rule] = True
                    labels.append(EFFECT_CONDITION)
                    legal = z3.Solver()             # the game shown: the play legal, the op not done
                    legal.add(enc.legal_expr())
                    legal.add([term for name, term in t.asked if name != "claim"])
                    if self.check(legal) == z3.sat:
                        near = (t, enc.fill(self.plain(legal, enc)))
                    continue
            local = z3.Solver()
            lits = []
            for i, lab in enumerate(dec):
                lit = z3.Bool(f"__dec{i}")
                local.add(z3.Implies(lit, lab.expr))
                lits.append((lit, lab))
            for lab in enc.legal:
                if is_invariant(lab.label):
                    local.add(lab.expr)
            for name, term in t.asked:
                if name != "claim" or z3.is_true(z3.simplify(term)) or self.goal.target is not None:
                    local.add(term)                 # the claim only where the template's events are the claim (or
                    #                                 it names the play's target: the play's own rules refuse it)
            r = self.check(local, [x for x, _ in lits])
            if r != z3.unsat:
                return None                         # something before the decisive events may matter: the bound
            core = {c.get_id() for c in local.unsat_core()}
            kept = [(lit, lab) for lit, lab in lits if lit.get_id() in core]
            for item in list(kept):                 # a minimal core: each rule kept is needed
                rest = [x for x, _ in kept if x is not item[0]]
                if self.check(local, rest) == z3.unsat:
                    kept = [k for k in kept if k[0] is not item[0]]
            for _, lab in kept:
                labels.append(lab.label)
                for rid in lab.rules:
                    rules[rid] = True
        if not seen:
            return None
        return {"rules": list(rules), "labels": list(dict.fromkeys(labels)), "near": near}


#: the label of a refusal by an effect's own condition (Search.refusal): the op is done only when it holds
EFFECT_CONDITION = "the effect does it only under its own condition"


def with_draws(cat, game: TR.Trace) -> TR.Trace:
    """The game with each draw's number of cards written (the draw-count fold's, as the interpreter draws)."""
    from dataclasses import replace
    from skillproof.model.interp.draw import draw_count
    from skillproof.model.interp.game import GameRunner
    events = list(game.events)
    for k, ev in enumerate(events):
        if ev.kind == "draw" and ev.n is None:
            r = GameRunner(cat, TR.Trace(game.setup, events[:k], True))
            r.run()
            events[k] = replace(ev, n=draw_count(cat, r.st, r.st.turn))
    return TR.Trace(game.setup, events, True)


class TwinsDisagree(Exception):
    def __init__(self, game, errors):
        super().__init__("; ".join(str(w) for _, w in errors[:3]))
        self.game, self.errors = game, errors


def _start_state(game: TR.Trace) -> State:
    st = game.setup.copy()
    from skillproof.model.interp.table import set_area
    for s in st.seats:
        if s.area is not None:
            set_area(s, dict(s.area))
    return st


# ============================================================================================ the answer
def table_question(st: State, seat: int = 0) -> tuple[dict, dict]:
    """The decide-form question of a table witness (model/interp/decide.py ``table``) and its answer."""
    from skillproof.model.interp.decide import decide
    q = {"decision": "table", "seat": seat}
    return q, decide(None, st, q)


#: the identities and secret tasks a ``which player`` table question lists (谁会赢: with which identity, which task)
def roles_of_deal(n: int) -> list:
    return [("red", None), ("blue", None)] + [("black", t) for t in tasks_dealt(n)]


def role_name(ident: str, task: str | None) -> str:
    from skillproof.model.expr_words import IDENTITY
    if task is not None:
        return pick(f"神秘人（{TASK_WORDS[task][0]}）", f"mystery ({TASK_WORDS[task][1]})")
    return pick(*IDENTITY[ident])


def answer_which(sess, q: Query) -> Result:
    """谁会赢 / who can win: every identity (and a mystery player's secret task) the player may have for the claim to
    hold — each with its game — and those the search cannot tell."""
    from dataclasses import replace as _r
    from .syntax import Given
    cat = sess.cat
    res = Result(q, "data")
    seats = sess.seats
    unknown = []
    roles = roles_of_deal(max(seats, 3))
    saved = sess.timeout_ms
    sess.timeout_ms = max(1000, saved // len(roles))        # the question's time, shared out
    try:
        return _which(sess, q, res, roles, unknown)
    finally:
        sess.timeout_ms = saved


def _which(sess, q: Query, res: Result, roles: list, unknown: list) -> Result:
    from dataclasses import replace as _r
    t0 = time.perf_counter()
    from .syntax import Given
    cat = sess.cat
    for ident, task in roles:
        extra = [Given("where", 0, 0, f"identity == {ident}",
                       claim=Atom("where", 0, 0, value=_identity_node(cat, ident), text=f"identity == {ident}"))]
        if task is not None:
            extra.append(Given("role", 0, 0, task, rule="task", who=task))
        sub_q = _r(q, mode="exists", which=None, givens=list(q.givens) + extra)
        got = answer(sess, sub_q)
        if got.bounds.get("out_of_time"):
            return time_spent(sess, q, res, t0)     # one role's search stopped by the clock: no list is claimed
        name = role_name(ident, task)
        if got.answer == "yes":
            res.values.append({"value": ident if task is None else task, "name": name, "answer": "yes",
                               "witness": got.witness, "traces": got.traces, "origin": got.origin})
        elif got.answer == "unknown":
            unknown.append(name)
        res.bounds = got.bounds
    claim = _claim_words(q)
    names = pick("、", ", ").join(v["name"] for v in res.values) or pick("无", "none")
    res.headline = pick(f"{claim}：{names}", f"{claim}: {names}")
    if unknown:
        res.notes.append(pick(f"界限内找不到、也不能断言不可能的：{'、'.join(unknown)}",
                              f"not found within the bound, and not shown impossible: {', '.join(unknown)}"))
    res.answer = "yes" if res.values else ("unknown" if unknown else "no")
    return res


def _identity_node(cat, ident: str):
    node = E.parse(f"identity == {ident}")
    from skillproof.model import vocab as V
    E.check(node, E.Scope("question", E.Universe(frozenset(cat.cards), frozenset(cat.characters))), V.BOOL)
    return node


def answer(sess, q: Query) -> Result:
    """A table question's Result (see the module's docstring)."""
    if q.mode == "which":
        return answer_which(sess, q)
    from skillproof.model import narrate as N
    from .constraints import _ref
    cat = sess.cat
    t0 = time.perf_counter()
    res = Result(q, "unknown")

    q = chosen_as_effect(cat, q)
    tgt = next((a for a in atoms_of(q.claim) if a.kind == "target"), None)
    if tgt is not None and q.mode == "exists":
        from .targets import from_data
        told = from_data(cat, q, tgt)
        if told is not None:
            told.seconds = time.perf_counter() - t0
            return told
    eff = next((a for a in atoms_of(q.claim) if a.kind == "effect"), None)
    if eff is not None and eff.rule is None:
        return answer_any_skill(sess, q, eff, t0)
    if eff is not None and q.mode == "exists":
        told = effect_from_data(cat, q, eff)
        if told is not None:
            told.seconds = time.perf_counter() - t0
            return told
    from ..terms import own_context, renew_own_context
    try:
        with own_context():                 # a fresh z3 context for each question: the same game whatever was asked
            renew_own_context()             # before it in the process (z3 orders its search by what it has made)
            return _searched(sess, q, res, t0)
    except TimeSpent:
        return time_spent(sess, q, res, t0)


def time_spent(sess, q: Query, res: Result, t0: float) -> Result:
    """The answer when the question's wall-clock time ran out (the outer safety net, --timeout): inconclusive, and
    no other verdict — what the search had found so far is not shown (the same question on an idle machine might
    have gone on to another answer)."""
    res.answer = "unknown"
    res.values, res.notes, res.witness, res.traces = [], [], None, []     # nothing found so far is claimed
    res.reason = f"inconclusive: time budget spent ({sess.timeout_ms} ms)"
    res.headline = pick(f"不确定——时间预算（{sess.timeout_ms} ms）已用完：{_claim_words(q, sess.cat)}；没有给出答案",
                        f"inconclusive: time budget spent ({sess.timeout_ms} ms) — {_claim_words(q, sess.cat)}: "
                        f"no answer is claimed")
    res.notes.append(pick("答案只取决于搜索的工作量，与机器快慢无关；时限只是安全网：提高 --timeout，"
                          "或减少 --seats / --max-turns（搜索的工作量）",
                          "the answer depends only on the search's work, not on the machine's speed; the time limit "
                          "is only a safety net: raise --timeout, or lower --seats / --max-turns (the search's work)"))
    res.bounds = {"table": True, "out_of_time": True, "timeout_ms": sess.timeout_ms}
    res.seconds = time.perf_counter() - t0
    return res


def _searched(sess, q: Query, res: Result, t0: float) -> Result:
    """A table question's Result from its search (TimeSpent when the safety net stops it)."""
    from skillproof.model import narrate as N
    from .constraints import _ref
    cat = sess.cat
    try:
        goal = goal_of(cat, q)
        search = Search(cat, goal, sess.seats, sess.turns if sess.turns is not None else TURNS, sess.timeout_ms,
                        clock=getattr(sess, "clock", None) or time.perf_counter)
        found = search.run()
    except Unsupported as e:
        res.headline = pick(f"无法回答：{e.zh}", f"cannot answer: {e.en}")
        res.reason = e.en
        res.bounds = {"table": True}
        return res
    except TwinsDisagree as e:
        res.headline = pick("求解器与解释器不一致", "the solver and the interpreter disagree")
        res.reason = join(at_event(k, len(e.game.events), w) for k, w in e.errors)
        res.bounds = {"table": True}
        return res
    res.bounds = {"seats": search.n, "turns": search.turns, "templates": search.templates, "table": True,
                  "out_of_time": False,     # a search the clock stopped ends in time_spent (TimeSpent), not here
                  "timeout_ms": sess.timeout_ms, "characters": list(search.chars)}
    bound = bound_words(search)
    claim = _claim_words(q, cat)
    who = cat.characters[q.subject].name if q.subject else None
    if found is not None:
        st = found.run.state
        st.trace = found.game
        role = "example" if q.mode == "exists" else "counterexample"
        res.answer = "yes" if q.mode == "exists" else "no"
        res.witness_role = role
        qd, ans = table_question(st)
        res.witness = {"trace": found.game.to_dict(), "state": st.to_dict(), "question": qd, "expect": ans}
        res.traces = [N.narrate(cat, st, qd)]
        res.origin = N.story(cat, found.game, None) + end_steps(cat, found)
        seen = cat.characters[st.seats[0].character].name
        if q.mode == "exists":
            res.headline = pick(f"是——例如{seen}：{claim}（一局服务器的游戏，已由解释器重放）",
                                f"yes — e.g. {seen}: {claim} (a game of the server, replayed by the interpreter)")
        elif q.mode == "never":
            res.headline = pick(f"否——会发生，例如{seen}：{claim}", f"no — it happens, e.g. {seen}: {claim}")
        else:
            res.headline = pick(f"否——反例（{seen}）：并非{claim}", f"no — counterexample ({seen}): not {claim}")
        res.seconds = time.perf_counter() - t0
        return res
    ref = search.refusal()
    engine = not_asked(cat, goal)
    if ref is None and engine and q.mode == "exists":
        # the engine never asks the skill on the question's premise, whatever the game (Game.kt:361, Skill.kt:30):
        # a *no* that needs no template — none of them had the situation happen (a dead player is no target …)
        res.answer = "no"
        res.because = [{"kind": "rule", "says": pick(zh, en), "rules": [{"id": "", "name": srv, "file": "", "line": 0}]}
                       for zh, en, srv in engine]
        res.because.append({"kind": "bound", "says": pick("这条规则对每一局都成立，与搜索界限无关",
                                                          "the rule holds of every game, whatever the bound"),
                            "rules": []})
        res.headline = pick(f"否——{claim}：服务器根本不会询问这个技能（规则本身，不是界限）",
                            f"no — {claim}: the server does not ask the skill at all (the rules, not the bound)") \
            if goal.fire is not None and NOT_ASKED["public_face_down"] not in engine \
            else pick(f"否——{claim}：服务器的规则不允许（规则本身，不是界限）",
                                               f"no — {claim}: the server's rules forbid it (the rules, not the bound)")
        res.seconds = time.perf_counter() - t0
        return res
    if ref is None:
        res.answer = "unknown"
        res.reason = f"no game within the bound ({bound_words(search, 'en')}); the bound may be what stops it"
        res.headline = pick(f"不确定——{bound}内没有找到这样的游戏：{claim}；界限本身可能就是原因，不能断言“否”",
                            f"inconclusive — no such game {bound}: {claim}; the bound itself may be what stops it, "
                            f"so no 'no' is claimed")
        res.notes.append(pick("提高 --seats / --max-turns 可以扩大搜索", "raise --seats / --max-turns to search further"))
        res.seconds = time.perf_counter() - t0
        return res
    if q.mode != "exists" and goal.fire is None and goal.effect is None and goal.target is None and \
            not search.premise_met():
        # (a firing's, an effect's or a target's template is the claim itself: its legality is no premise)
        res.answer = "unknown"
        res.reason = (f"the premise holds in no game of the templates tried ({bound_words(search, 'en')}): "
                      f"the answer would be vacuous")
        res.headline = pick(f"不确定——{bound}里没有一局满足前提：{claim}；这样的「一定 / 从不」只是空真，不能断言"
                            f"（前提读在决定性的事件之前，如：有三张蓝色情报时游戏已经结束）",
                            f"inconclusive — no game {bound} meets the premise: {claim}; an always / never there "
                            f"would hold vacuously, so none is claimed (the premise is read before the decisive "
                            f"events: with three blue messages the game is already over)")
        res.seconds = time.perf_counter() - t0
        return res
    res.answer = "no" if q.mode == "exists" else "yes"
    res.because = []
    t, near = ref["near"]
    near = with_draws(cat, near)
    run = play_run(cat, near)
    told = [w for k, w in run.errors if k >= t.story.decisive]
    engine = fire_engine_reasons(cat, goal, near, t.story)
    for rid in ref["rules"]:
        if engine and rid == goal.fire:
            continue                                # refused before its guard is read: the engine's rule says why
        loc = None
        if rid in cat.skills and cat.skills[rid].on:
            loc = cat.skills[rid].on[0].loc
        r = _ref(cat, rid, loc)
        rule = cat.skills.get(rid)
        when = getattr(rule, "trigger", None) if rule is not None else None
        on_text = rule.on[0].text if rule is not None and rule.on else None
        if rid == goal.effect_rule and EFFECT_CONDITION in ref["labels"]:
            res.because.append({"kind": "rule", "rules": [r],
                                "says": pick(f"{r['name']}的效果只在它的条件成立时做这一步，所问的情形不满足条件",
                                             f"{r['name']}'s effect does this only under its own condition, which the "
                                             f"question's situation fails")})
            continue
        res.because.append({"kind": "rule", "rules": [r],
                            "says": pick(f"{r['name']}只在这时发动：{when}" if when else f"{r['name']}的规则",
                                         f"{r['name']} fires only when `{on_text}`" if on_text else f"the rule of {r['name']}")})
    for eng in engine + list(dict.fromkeys(engine_rule(lab) for lab in ref["labels"])):
        if eng is not None:
            res.because.append({"kind": "rule", "says": pick(eng[0], eng[1]), "rules": [{"id": "", "name": eng[2],
                                                                                       "file": "", "line": 0}]})
    for w in told[:3]:
        res.because.append({"kind": "decides", "says": pick(w.zh, w.en) if hasattr(w, "zh") else str(w), "rules": []})
    if not told:
        res.because.append({"kind": "decides", "says": pick("在这些事件上，规则拒绝了所问的情形：",
                                                            "at these events the rules refuse it: ")
                            + "; ".join(pick("效果的条件不成立，这一步没有做", lab) if lab == EFFECT_CONDITION else lab
                                        for lab in ref["labels"][:3]), "rules": []})
    res.because.append({"kind": "bound", "says": bound, "rules": []})
    st = run.state
    st.trace = near
    res.illustration = {"trace": near.to_dict(), "state": st.to_dict()}
    res.illustration_origin = N.story(cat, near, None)
    nobody = pick(f"{who}在任何这样的游戏里都不会" if who else "在任何这样的游戏里都不会",
                  f"{who + ' never' if who else 'never'}")
    if q.mode == "exists":
        res.headline = pick(f"否——{nobody}：{claim}（{bound}；挡住它的是规则本身，不是界限）",
                            f"no — {nobody}: {claim} ({bound}; the rules refuse it, not the bound)")
    else:
        res.headline = pick(f"是——{claim}（{bound}；挡住反例的是规则本身，不是界限）",
                            f"yes — {claim} ({bound}; the rules refuse any counterexample, not the bound)")
    res.seconds = time.perf_counter() - t0
    return res


def effect_words(cat, eff) -> tuple:
    """(zh, en): what the effect claim asks the rule's effect to do, in words."""
    from skillproof.model.effects import INTO_HAND, INTO_HAND_WORDS, OPS
    zh = "、".join(INTO_HAND_WORDS[0] if o == INTO_HAND else OPS[o].zh for o in eff.ops)
    en = ", ".join(INTO_HAND_WORDS[1] if o == INTO_HAND else OPS[o].en for o in eff.ops)
    if eff.card is not None:
        zh, en = f"{zh}（{cat.name_of(eff.card)}）", f"{en} ({cat.name_of(eff.card)})"
    if eff.face is not None:
        zh, en = f"{zh}（{'朝上' if eff.face == 'up' else '朝下'}）", f"{en} ({eff.face})"
    if getattr(eff, "n", None) is not None:
        zh, en = f"{zh}（{eff.n}张）", f"{en} ({eff.n} cards)"
    if getattr(eff, "place", None) == "message" and "flip" in eff.ops:
        zh, en = f"情报的{zh}", f"the message's {en}"
    return zh, en


def word_may_name(e, o: dict, guards: list | None = None) -> bool:
    """Can the op's player argument the claim names be the player it asks about? The holder himself (``self``) is
    never another player, and ``others`` never the holder; a player the op's own condition, or every trigger guard
    of the skill (``guards``: 如归 fires only when ``self != turn_player``), says is not the holder is never he."""
    arg = e.args.get(o["op"])
    if e.who is None or arg is None:
        return True
    if arg not in o["args"]:
        return False
    word = o["args"][arg]
    if word == "self":
        return e.who != "other"
    if word == "others":
        return e.who != "self"
    if isinstance(word, str) and e.who in ("self", "dead"):
        # the op's own condition (遗信: if = "chosen != self and chosen.alive") rules the player out: never the holder,
        # never a dead one — a conjunct of it, whatever the game
        for c in E.conjuncts(o.get("cond")):
            if e.who == "self" and _not_self(c, word):
                return False
            if e.who == "dead" and isinstance(c, E.Attr) and c.name == "alive" and getattr(c.obj, "name", None) == word:
                return False
        if e.who == "self" and guards and all(any(_not_self(c, word) for c in E.conjuncts(g)) for g in guards):
            return False
    return True


def _not_self(c, word: str) -> bool:
    """The conjunct ``c`` says the player ``word`` is not the holder (``word != self``)."""
    return isinstance(c, E.Bin) and c.op == "!=" and \
        {getattr(c.left, "name", None), getattr(c.right, "name", None)} == {word, "self"}


#: target words a triggered skill's chosen player is asked with, as the effect claim's player words (parse_effects)
_CHOSEN_WORDS = ("self", "other", "dying", "dead", "sender")


def chosen_args(cat, rid: str) -> dict:
    """{op: player argument} of the ops of a rule's effect that name a player its holder picks: an argument written
    ``chosen`` (惊梦 looks at the hand of one it picks), or one whose player the alternatives of a ``choose`` tell
    apart (以牙还牙: into the area of the sender, or of the one on his left or right)."""
    from skillproof.model.effects import player_args
    src = cat.skills.get(rid)
    out: dict = {}

    def visit(ops):
        for o in ops:
            for name, default in player_args(o.op):
                if o.args.get(name, default) == "chosen":
                    out.setdefault(o.op, name)
            if len(o.options) > 1:
                seen: dict = {}
                for alt in o.options:
                    for x in walk(alt):
                        for name, default in player_args(x.op):
                            seen.setdefault((x.op, name), set()).add(x.args.get(name, default))
                for (op, name), words in seen.items():
                    if len(words) > 1:
                        out.setdefault(op, name)
            for alt in o.options:
                visit(alt)
    visit(src.do if src is not None else ())
    return out


def chosen_as_effect(cat, q: Query) -> Query:
    """A target claim on a skill that is not used on purpose (惊梦能指定自己吗, 以牙还牙能指定自己吗): the player its
    effect picks (``chosen_args``) is that player — the effect claim of those ops naming him, asked of games as any
    effect. The question unchanged when no such target is asked, or its effect picks nobody."""
    from dataclasses import replace as _r
    from .syntax import Effect
    for a in atoms_of(q.claim):
        r = cat.skills.get(a.rule) if a.kind == "target" and a.rule else None
        if r is None or r.has("ActiveSkill") or a.value not in _CHOSEN_WORDS:
            continue
        args = chosen_args(cat, r.id)
        if not args:
            continue
        eff = Effect(tuple(args), dict(args), a.value, text=a.text, dying=a.value == "dying")
        return _r(q, claim=_swap_atom(q.claim, a, Atom("effect", a.col, a.end, rule=a.rule, value=eff, text=a.text)))
    return q


def effect_from_data(cat, q: Query, eff: Atom) -> Result | None:
    """*no* from the catalogue alone: the rule's effect (its ``do``, and its cost ``flips``) has no op of the kind the
    claim names (or none naming the player it asks about) and no part in words — whatever the game. None otherwise."""
    from .constraints import _ref
    ops = effect_ops(cat, eff.rule)
    src = cat.skills.get(eff.rule) or cat.cards.get(eff.rule)
    if src is None:
        return None
    prose = any(o["op"] == "prose" for o in ops)    # a step told in words: only a step's own types decide then
    e = eff.value
    guards = [on.when for on in getattr(src, "on", None) or ()]
    if any(g is None for g in guards):
        guards = []                                 # a trigger with no guard says nothing of who is who
    fit = [o for o in ops if effect_entry_ok(e, o) and word_may_name(e, o, guards)]
    if fit or prose and not any(o["op"] in e.ops for o in ops):
        return None
    res = Result(q, "no")
    zh, en = effect_words(cat, e)
    elsewhere = any(effect_entry_ok(e, o) for o in ops)   # the op is there, done to someone else
    r = _ref(cat, eff.rule, src.do[0].loc if src.do else None)
    narrow = [] if elsewhere else [o for o in ops if o["op"] in e.ops and (
        e.colours and o["colour"] not in e.colours or e.of_card is not None and o["cards"] and e.of_card not in o["cards"])]
    if prose and not narrow:
        return None
    if narrow:
        # 欲擒故纵能传出纯黑色情报吗 / 威逼可以宣言平衡吗: the step is there, for other colours or card types only
        only = "、".join(dict.fromkeys(
            (f"颜色要求 {o['colour']}" if e.colours and o["colour"] not in e.colours else
             "、".join(cat.name_of(c) for c in o["cards"])) for o in narrow))
        only_en = "; ".join(dict.fromkeys(
            (f"colour constraint {o['colour']}" if e.colours and o["colour"] not in e.colours else
             "only " + ", ".join(cat.name_of(c) for c in o["cards"])) for o in narrow))
        what = pick("所问的颜色" if e.colours else f"所问的牌（{cat.name_of(e.of_card)}）",
                    "the colour asked" if e.colours else f"the card asked ({cat.name_of(e.of_card)})")
        res.because = [{"kind": "rule", "rules": [r],
                        "says": pick(f"{r['name']}的效果有这一步（{zh}），但它只对这样的牌做：{only}；{what}不在其中",
                                     f"{r['name']}'s effect has this step ({en}), but only for such cards: {only_en}; "
                                     f"{what} is not among them")},
                       {"kind": "bound", "says": pick("效果是数据：这对每一局都成立，与搜索界限无关",
                                                      "the effect is data: this holds of every game, whatever the bound"),
                        "rules": []}]
        res.headline = pick(f"否——{r['name']}的效果不会{zh}（目录里这一步的牌只限：{only}）",
                            f"no — {r['name']}'s effect never does that ({en}): in the catalogue that step is for "
                            f"{only_en} only")
        res.bounds = {"table": True}
        return res
    says = pick(f"{r['name']}的效果有这一步，但不对所问的角色做：效果里写的角色（或它的条件、发动条件）排除了他",
                f"{r['name']}'s effect has this step, but not on the player asked about: the player it names (or its "
                f"condition, or its trigger's guard) rules him out") if elsewhere else \
        pick(f"{r['name']}的效果（do）里没有这样的操作：{zh}", f"{r['name']}'s effect (do) has no such op: {en}")
    res.because = [{"kind": "rule", "rules": [r], "says": says},
                   {"kind": "bound", "says": pick("效果是数据：这对每一局都成立，与搜索界限无关",
                                                  "the effect is data: this holds of every game, whatever the bound"),
                    "rules": []}]
    res.headline = pick(f"否——{r['name']}的效果不会{zh}（目录里它的这一步不对所问的角色做）",
                        f"no — {r['name']}'s effect never does that ({en}): in the catalogue that step is never done "
                        f"to the player asked about") if elsewhere else \
        pick(f"否——{r['name']}的效果不会{zh}（目录里它的效果没有这一步）",
             f"no — {r['name']}'s effect never does that ({en}): its effect in the catalogue has no such step")
    res.bounds = {"table": True}
    return res


def answer_any_skill(sess, q: Query, eff: Atom, t0: float) -> Result:
    """李宁玉的技能会让别人摸牌吗: the question for each of the player's skills; yes if one does it (its answer), no if
    each does not, else unknown."""
    from dataclasses import replace as _r
    cat = sess.cat
    if q.subject is None:
        res = Result(q, "unknown", headline=pick("无法回答：没有说是谁的技能", "cannot answer: whose skills is not said"))
        res.bounds = {"table": True}
        return res
    got = []
    for rid in cat.characters[q.subject].skills:
        one = _r(eff, rule=rid)
        sub = answer(sess, _r(q, claim=_swap_atom(q.claim, eff, one)))
        if sub.bounds.get("out_of_time"):
            return time_spent(sess, q, Result(q, "unknown"), t0)     # stopped by the clock: no verdict
        name = cat.name_of(rid)
        if sub.answer == "yes":
            sub.notes.append(pick(f"是{name}做到的", f"{name} does it"))
            sub.seconds = time.perf_counter() - t0
            return sub
        got.append((name, sub))
    res = Result(q, "no" if all(s.answer == "no" for _, s in got) else "unknown")
    res.bounds = {"table": True}
    res.because = [b for _, s in got for b in (s.because or [])]
    names = "、".join(n for n, _ in got)
    if res.answer == "no":
        res.headline = pick(f"否——{names}都不会这样做", f"no — none of {', '.join(n for n, _ in got)} does it")
    else:
        res.headline = pick(f"不确定——{names}中没有找到这样做的，也不能断言都不会",
                            f"inconclusive — none of {', '.join(n for n, _ in got)} found doing it, nor shown never to")
        res.reason = "; ".join(f"{n}: {s.reason}" for n, s in got if s.answer == "unknown")
    res.seconds = time.perf_counter() - t0
    return res


def _swap_atom(node, old, new):
    from dataclasses import replace as _r
    if node is old:
        return new
    if isinstance(node, Not):
        return _r(node, arg=_swap_atom(node.arg, old, new))
    if isinstance(node, BoolOp):
        return _r(node, items=[_swap_atom(x, old, new) for x in node.items])
    return node


#: why the server does not ask a skill at all, before its guard is read (Game.dealListeningSkill): (zh, en, server)
NOT_ASKED = {
    "invalid": ("被无效的技能不会发动：它被包在 InvalidSkill 里，InvalidSkill 不是触发技，回合结束前不回应任何事件（设计说明 L82、L84）",
                "an invalidated skill does not fire: it is wrapped in an InvalidSkill, which is no TriggeredSkill and "
                "answers no event until the turn ends (design note L82, L84)",
                "server skill/Skill.kt:30 (class InvalidSkill), Game.kt:362 (dealListeningSkill asks TriggeredSkills only)"),
    "dead": ("死亡角色的初始技能不再被询问，只有 BeforeDieSkill（死亡前技能）和获得的技能例外",
             "a dead player's initial skills are not asked any more, except BeforeDieSkills and granted skills",
             "server Game.kt:361 (dealListeningSkill: player.alive || skill is BeforeDieSkill || !skill.isInitialSkill)"),
    "dead_receive": ("死亡角色不会收到情报：情报只传到存活角色面前（传递时跳过死亡角色），传回已死亡的传出者时被弃置，回合结束",
                     "a dead player never receives a message: it is passed to living players only (dead ones are "
                     "skipped), and one coming back to a dead sender is discarded and the turn ends",
                     "server phase/MessageMoveNext.kt (next living player; a dead sender: deck.discard, NextTurn); "
                     "interp path.first_stop_ok / next_stop / receive_errors"),
    "public_face_down": ("公开角色始终面朝上：公开角色开局面朝上，没有技能能把它翻到面朝下（藏身教堂只翻隐藏角色），"
                         "所以这个前提在任何一局里都不成立",
                         "a public role is face up all game: it starts face up and no skill turns it face down (藏身教堂 "
                         "turns hidden roles only), so the premise holds in no game",
                         "server skill/RoleCache.kt (isPublicRole), Player.roleFaceUp; skill/CangShenJiaoTang.kt "
                         "(isHiddenRole); catalogue characters/*.toml hidden = false"),
}


def _says_face_down(a) -> bool:
    """A premise that the player is face down (面朝下时): a face_up atom of False, or a condition `not face_up`."""
    if getattr(a, "kind", None) == "face_up":
        return not a.value
    node = getattr(a, "value", None) if getattr(a, "kind", None) == "where" else None
    return isinstance(node, E.Unary) and node.op == "not" and getattr(node.arg, "name", None) == "face_up"


def not_asked(cat, goal: Goal) -> list:
    """The engine's reasons the skill asked of is never asked on the question's premise, in any game: invalidated
    (only initial skills are wrapped) or its holder dead (not a BeforeDieSkill nor granted); a premise no game has (a
    public role face down). [] otherwise."""
    ch = cat.characters.get(goal.subject) if goal.subject else None
    if ch is not None and not ch.hidden and _positive(goal.claim) and any(_says_face_down(a) for a in goal.before):
        return [NOT_ASKED["public_face_down"]]      # 老汉面朝下时死亡，能发动如归吗: 老汉 is never face down
    if goal.fire is None and _positive(goal.claim) and any(a.kind == "received" for a in atoms_of(goal.claim)) and \
            any(_says_dead(a) for a in goal.before):
        return [NOT_ASKED["dead_receive"]]          # 死亡后还能收到情报吗: dead before the receive asked of
    rule = cat.skills.get(goal.fire) if goal.fire is not None else None
    if rule is None or not rule.has("TriggeredSkill"):
        return []
    out = []
    if goal.invalid and rule.initial:
        out.append(NOT_ASKED["invalid"])
    if goal.dead and not asked_dead(rule):
        out.append(NOT_ASKED["dead"])
    return out


def fire_engine_reasons(cat, goal: Goal, game: TR.Trace, story: Story) -> list:
    """The engine's reasons the skill asked of is not asked at all at its fire event of ``game`` (invalidated, or
    its holder dead and it no BeforeDieSkill), read by the interpreter on the table just before it; [] when it
    is asked (then its guard, or once per event, refuses it)."""
    from skillproof.model.events import dispatched
    from skillproof.model.interp.core import live_kinds
    if goal.fire is None or story.fire_at is None or not (goal.invalid or goal.dead):
        return []
    st = state_after(cat, game, story.fire_at)
    rule = cat.skills[goal.fire]
    inst = next((i for i in st.seats[0].skills if i.rule == goal.fire), None)
    if inst is None:
        return []
    out = []
    if rule.has("TriggeredSkill") and "TriggeredSkill" not in live_kinds(cat, inst):
        out.append(NOT_ASKED["invalid"])
    s = st.seats[0]
    if not dispatched(s.alive and not s.lost, rule.has("BeforeDieSkill"), rule.initial):
        out.append(NOT_ASKED["dead"])
    return out


#: rules of the engine a refusal may come from that no catalogue entry holds: label -> (zh, en, server)
ENGINE_RULES = {
    "the game is not over": ("游戏已经结束：每个处理节点先检查宣胜，有人获胜游戏就结束，不再检查濒死",
                             "the game is over: every process node checks the wins first, and a win ends the game before "
                             "anyone is found dying", "ProcessFsm.resolve: checkWin, then checkDying"),
    "nobody saved him": ("被救的角色不会死亡", "a saved player does not die", "phase/StartWaitForChengQing.kt"),
    "the dying player is the first with three black messages": (
        "只有有三张黑色情报的存活角色才濒死（从当前回合角色起依次）",
        "only a living player with three black messages is dying (in seat order from the turn player)",
        "ProcessFsm.checkDying"),
}


def engine_rule(label: str):
    for k, v in ENGINE_RULES.items():
        if label.endswith(k):
            return v
    return None


def bound_words(search: Search, lang: str | None = None) -> str:
    zh = f"在至多{search.n}个座位、{search.turns}个回合、{search.templates}种牌局模板中"
    en = f"within {search.n} seats, {search.turns} turn{'s' if search.turns != 1 else ''} and " \
         f"{search.templates} game templates"
    if lang == "en":
        return en
    return pick(zh, en)


def _claim_words(q: Query, cat=None) -> str:
    from .present import claim_text
    ct = claim_text(q)
    for a in atoms_of(q.claim):                 # 城府被无效时还能发动吗: the claim says the skill it fires
        name = cat.skills[a.rule].name if cat is not None and a.kind == "fires_on" and a.rule in cat.skills else None
        if name and name not in ct:
            ct = pick(f"发动{name}", f"fire {name}")
    given = "、".join(dict.fromkeys(g.text for g in q.givens))
    given_en = "; ".join(dict.fromkeys(g.text for g in q.givens))
    return pick(f"「{ct}」" + (f"，前提「{given}」" if given else ""), f"`{ct}`" + (f" ({given_en})" if given_en else ""))


def end_steps(cat, found: Found) -> list:
    """The game's end, told: who wins (and with which identity), who died."""
    from skillproof.model.narrate_base import Step
    st = found.run.state
    names = [cat.characters[s.character].name for s in st.seats]
    out = []
    if st.winners is not None:
        w = "、".join(names[i] for i in sorted(st.winners)) or pick("无人", "nobody")
        w_en = ", ".join(names[i] for i in sorted(st.winners)) or "nobody"
        out.append(Step(pick(f"游戏结束：{w}获胜", f"the game ends: {w_en} win(s)")))
    s0 = st.seats[0]
    c = counts(area_of(s0) or {})
    from skillproof.model.expr_words import IDENTITY
    ident = IDENTITY.get(s0.identity, (s0.identity, s0.identity))
    out.append(Step(pick(f"{names[0]}：{'存活' if s0.alive else '死亡'}，身份{ident[0]}"
                         + (f"（{TASK_WORDS[s0.task][0]}）" if s0.task else "")
                         + f"，手牌{s0.hand_count}张，情报红{c['red_messages']}蓝{c['blue_messages']}黑{c['black_messages']}",
                         f"{names[0]}: {'alive' if s0.alive else 'dead'}, identity {ident[1]}"
                         + (f" ({TASK_WORDS[s0.task][1]})" if s0.task else "")
                         + f", {s0.hand_count} cards in hand, messages red {c['red_messages']} blue {c['blue_messages']} "
                           f"black {c['black_messages']}")))
    return out


def refuse_table_only(q: Query) -> None:
    """A question of the timed model may not name what only a game has (a secret task): a located QueryError."""
    from skillproof.model.msg import Msg
    from .errors import QueryError
    from .targets import shown
    for a in atoms_of(q.claim):                     # 老汉能成为威逼的目标吗: 成为X的目标 as a claim (not a premise)
        g = a.value if a.kind == "given" else None
        if g is not None and getattr(g, "kind", None) == "role" and g.rule == "card_on":
            name = g.text
            raise QueryError(Msg("「{t}」只作为牌桌问题的前提来读（如：'老汉成为利诱的目标后能发动视死吗'）；问一张牌或技能能"
                                 "指定谁，请写 '利诱能对{w}使用吗'、'{w}能成为利诱的目标吗'",
                                 "'{t}' is read as a premise of a table question only; to ask whom a card or skill may "
                                 "target, write 'can 利诱 target {we}'", t=name, w=shown("other")[0], we=shown("other")[1]),
                             g.col, g.end)
    from .compile import TIMED_KINDS
    for g in q.givens:
        for a in (atoms_of(g.claim) if g.kind == "claim" and g.claim is not None else ()):
            if a.kind not in TIMED_KINDS and a.kind != "effect":
                # 张一挺接收情报时能发动强令吗: a receive (a table claim) as the premise of a question of the timed model
                raise QueryError(Msg("「{t}」只在牌桌问题里读得到（问死亡、濒死、获胜、情报数或触发技能的发动）；这个问题问的"
                                     "不是这些", "'{t}' is read by table questions only (death, dying, winning, message "
                                     "counts, a triggered skill's firing); this question asks of none of them",
                                     t=g.text), g.col, g.end)
        if g.kind == "claim" and getattr(g.claim, "kind", None) == "effect":
            raise QueryError(Msg("「{t}」（一张牌或技能的效果）只作为触发技能发动的前提在牌桌问题里读得到（如：'王魁被利诱"
                                 "放入情报后能发动以牙还牙吗'）；这里问的不是触发技能的发动",
                                 "'{t}' (what a card or skill does) is read as the premise of a triggered skill's firing "
                                 "in a table question only; this question asks of no firing", t=g.text), g.col, g.end)
        if g.kind in ("claim", "where") and g.other:
            raise QueryError(Msg("别人的「{t}」只在牌桌问题里读得到（问触发技能的发动：'别人使用截获时，池镜海能发动观海吗'）",
                                 "another player's '{t}' is read by table questions only (a triggered skill's firing: "
                                 "'can 池镜海 fire 观海 when another player plays 截获')", t=g.text), g.col, g.end)
        if g.kind == "role" and g.rule == "last_alive":
            raise QueryError(Msg("「{t}」只在牌桌问题里读得到（问死亡、濒死、获胜、情报数或触发技能的发动）",
                                 "'{t}' is read by table questions only (death, dying, winning, message counts, a "
                                 "triggered skill's firing)", t=g.text), g.col, g.end)
        if g.kind == "role" and g.rule == "plays_on":
            raise QueryError(Msg("「{t}」只作为触发技能发动的前提来读（如：'简先生对别人使用试探后能发动从容应对吗'）",
                                 "'{t}' is read as the premise of a triggered skill's firing only (e.g. 'can 简先生 fire "
                                 "从容应对 after playing 试探 on another player')", t=g.text), g.col, g.end)
        if g.kind == "role" and g.rule in ("task", "card_on"):
            raise QueryError(Msg("秘密任务只在牌桌问题里读得到（问死亡、濒死、获胜、情报数或触发技能的发动）",
                                 "a secret task is read by table questions only (death, dying, winning, message counts, "
                                 "a triggered skill's firing)"), g.col, g.end)
