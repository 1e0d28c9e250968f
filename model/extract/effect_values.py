"""The values and words the effect reader (``effects_read``) walks with: the server's state and event classes it knows,
the tests of the game state it leaves to the windows, a value of the walk (``_V``) and what one walk read
(``Reading``)."""
from __future__ import annotations

import re

from .. import events as EV
from .bodies import _T
from .syntax import _t

#: old game states a trigger reads instead of an event (``g.fsm as? X``), by the event kind they stand for
#: (ReceivePhaseIdle: a trigger that reads the receive phase, not an event — its guards are the on entry's when)
STATE_EVENTS = {"ReceivePhaseSenderSkill": "receive", "ReceivePhaseReceiverSkill": "receive",
                "ReceivePhaseSkill": "receive", "ReceivePhase": "receive", "OnUseCard": "use_card",
                "OnFinishResolveCard": "card_resolved", "OnSendCard": "send", "OnSendCardSkill": "send",
                "OnChooseReceiveCard": "choose_receive", "OnGiveCard": "give_card", "OnDiscardCard": "discard",
                "OnAddMessageCard": "add_message", "DieSkill": "die", "SendPhaseStart": "send_phase_start",
                "MessageMoveNext": "move", "ReceivePhaseIdle": "receive_phase"}
#: the engine's card resolution states: their lambdas and next state are followed, their card is the card in use
RESOLUTION_STATES = frozenset({"ResolveCard", "OnUseCard", "OnFinishResolveCard"})
#: events the server raises (``g.addEvent(XEvent(…))``) or old states that stood for them, → (kind, principal arg)
RAISED = {k.server: k.key for k in EV.EVENT_KINDS.values() if k.is_event}
OLD_RAISED = {"OnGiveCard": "give_card", "OnDiscardCard": "discard", "OnAddMessageCard": "add_message"}
#: states that end the turn / skip to a phase
END_TURN = frozenset({"NextTurn"})
#: statements of the protocol, never a rule: checks of the client's message and of whose answer it is
_PROTO_NAMES = re.compile(r"seq|timeout|waitingSecond|timeoutSecond|waitSecond")
_MAX_DEPTH = 6
_FUN = re.compile(rb"\bfun\s+(?:<[^>]*>\s*)?(?:[\w.]+\.)?(\w+)")
#: the bans of older code, kept in the game (read as the catalogue's bans and ``plays.checks_bans``)
_BANS = re.compile(r"\b(diaoHuLiShanPlayers|jinBiPlayer|qiangLingTypes)\b")
#: in a condition list: the player may decline what follows (the client answered "no": ``!message.enable``)
MAY = type("May", (str,), {})("may")
#: a test of the game state (``g.fsm as? MainPhaseIdle``, ``fsm is FightPhaseIdle``): the rule's windows, which the
#: extractor reads from the same test (``bodies._phase_types``)
_WINDOW = re.compile(r"\bfsm\b\s*(as\?|is|!is)\s|\bfsm\s+as\??\s|as\?\s*\w*(Phase|Idle|ChengQing)\w*|\bas\s+\w*(Phase|Idle|ChengQing)\w*")
#: … and, for an ActiveSkill or a card, a test that the user is the player the window asks (``r !== fsm.whoseFightTurn``)
_WINDOW_ACTOR = re.compile(r"^\s*\w+\s*!==?\s*\w+\??\.(whoseFightTurn|inFrontOfWhom|whoseTurn|askWhom)\s*$|^\s*\w+\s*==\s*null\s*\|\|")


class _V(_T):
    """A value of the walk: a ``_T`` (its sort and text in the condition language) with what the walk needs
    beyond it — a node (a lambda, a state built), a class, the environment it was made in."""
    __slots__ = ("node", "cls", "env", "pos", "filt", "link", "src", "count", "how", "types", "named", "where",
                 "conds", "found", "byid")

    def __init__(self, sort, text="", node=None, cls=None, env=None, pos=0):
        super().__init__(sort, text)
        self.node, self.cls, self.env, self.pos = node, cls, env, pos
        self.where = None              # what a message card the rule holds was checked to be (its colours: ``it``)
        self.named = None              # a message card moved by an op that names its colours (``as``): that name
        self.filt = None               # a card's colour constraint (effects.COLOUR_FILTERS), from a check of it
        self.link = None               # a card found by the id the client chose: that choice (``args[i]``), which
        #                                keeps the card's checks from ``canUse`` to ``execute``
        self.src = None                # a chosen card taken out of somewhere before it moves on: "area:<player>"
        self.count = None              # cards taken out of a hand: how many (an amount), and how they were picked
        self.how = None                # ("all": the whole hand; "random"); None: one card, or not said
        self.types = None              # a card type the client names: the types the rule allows (a tuple of ids)
        self.conds = None              # a list of players built in the rule (``plist``): the condition each was
        #                                added under (``if (c) players.add(p)``), one list per player ([]: always)
        self.found = False             # a card found in a hand (``X.findCard``) and not yet taken out of it
        self.byid = None               # a card found in an area by an id of the answer (``X.findMessageCard(m.cardId)``):
        #                                that id's text, so the op that takes the same id out moves this card


class _Filt(str):
    """A colour filter a check of a card put on it (``if (!card.isBlack()) return``): a string of its own, so the walk
    can tell whether an op took that very check up (by identity) — a check no op takes up is not read."""
    __slots__ = ()


class _Stop(Exception):
    """The rest of a block is not reached (a return, a throw)."""


class Reading:
    """What one walk read: ``do`` (op dicts as written to TOML), ``requires`` / ``when`` (condition texts), the Kotlin
    line of each op and condition, and the constructs walked with whether each was read whole."""

    def __init__(self):
        self.ops: list = []
        self.lines: list = []
        self.conds: list = []
        self.cond_lines: list = []
        self.cond_keys: list = []      # the construct each condition stands in
        self.reads: dict = {}
        self.whens: list = []          # a trigger's guard per event it answers (findEvent / a state read), in order
        self.when_lines: list = []
        self.when_kinds: list = []
        self.used = False              # addSkillUseCount: a use limit
        self.flips = False
        self.untranslated: list = []   # (where, text)
        self.target_when: dict = {}    # a card's checks of its target in one window only: window -> [condition]
        self.target_lines: list = []


def _num(text):
    try:
        return int(text)
    except ValueError:
        return text


def _note(n) -> str:
    """A prose op's note: the call not translated, by its callee's name (stable across formatting)."""
    name = _callee_last(n) or n.type
    return f"not translated: {name}(…)"


def _callee_last(n) -> str:
    kids = n.named_children
    if not kids:
        return ""
    c = kids[0]
    while c.type in ("navigation_expression", "call_expression") and c.named_children:
        if c.type == "navigation_expression":
            return _t(c.named_children[-1])
        c = c.named_children[0]
    return _t(c) if c.type == "identifier" else ""


def _descendants_calls(n):
    stack = [n]
    while stack:
        x = stack.pop()
        if x.type == "call_expression":
            yield x
        if x.type not in ("lambda_literal",):
            stack.extend(x.named_children)
