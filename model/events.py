"""The events a TriggeredSkill answers: the vocabulary of the catalogue's ``on`` key, one entry per event class
of the game server.

The server (CuteReimu/TheMessage) raises an *event* object at fixed points of the turn (``Event.kt``: one
class per kind, each added with ``Game.addEvent`` by the phase or card that causes it) and, at the next
process node, offers every pending event to every TriggeredSkill (``Game.dealListeningSkill``). A skill looks
for the kind it answers with ``Game.findEvent<Kind>(skill) { guard }``; ``Event.checkResolve`` lets one skill
take one event once. Each ``EventKind`` below mirrors one such class: its catalogue name, the server class,
where the server raises it, the players it names (bound as player variables in the guard: ``sender.alive``)
and the values it carries (``card``, ``dir`` …). ``EVENT_KINDS`` is the whole vocabulary; the loader reads
``on = { event = …, whose = …, when = … }`` against it (``model/link.py``), ``docs/catalogue-format.md § on``
documents it, and a test keeps the list equal to the server's event classes.

Engine facts the kinds share (the server's, written here once rather than per skill):

- ``ORDER``: pending events are offered seat by seat starting at the turn player (``dealListeningSkill`` is
  called with ``whoseTurn.location``), each player's skills in the order of their skill list; the first skill
  that answers takes over (its ``execute`` returns a next state) and the pass starts again when it is done.
- ``ONCE``: a skill answers one event once (``Event.checkResolve`` records the skills that have seen it).
- ``dispatched(...)``: whose skills are asked at all — a living player's, and a dead player's BeforeDieSkills
  and granted (non-initial) skills; an InvalidSkill is not a TriggeredSkill, so an invalidated skill is never
  asked.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import vocab as V

#: the order the server offers events in, and how often a skill may take one (see the module's docstring)
ORDER = "seat order from the turn player, each player's skills in list order (server Game.dealListeningSkill)"
ONCE = "a skill answers one event at most once (server Event.checkResolve)"


@dataclass(frozen=True)
class Role:
    """A player an event names: bound in the guard as a player variable (``receiver.hand_count``)."""
    name: str
    zh: str
    en: str
    server: str               # the event's field (Kotlin property)


@dataclass(frozen=True)
class Word:
    """A value an event carries, readable in the guard (``card``, ``dir`` …)."""
    name: str
    type: str                 # a type of model.vocab
    zh: str
    en: str
    server: str


@dataclass(frozen=True)
class EventKind:
    key: str                  # the catalogue's name
    server: str               # the server's class (Event.kt), or the state it reads
    raised: str               # where the server raises it
    zh: str
    en: str
    windows: tuple            # the windows (model.turn) it is dealt in
    principal: str | None     # the role 'self' / 'other' speak of (None: the event has no owner — only 'any' and roles)
    roles: tuple = ()         # of Role (the turn player is always there too, as ``turn_player``)
    words: tuple = ()         # of Word
    is_event: bool = True     # False: no Event object — the skill reads the current state (no checkResolve)
    doc: str = ""
    #: what always holds when the event is dealt (conditions over its players, in the condition language): a guard
    #: that differs from another only where these are false decides alike (``checks.diff_meaning``); the interpreter
    #: raises the event so (``model/interp/game.py``)
    holds: tuple = ()

    @property
    def role_names(self) -> tuple:
        return tuple(r.name for r in self.all_roles)

    @property
    def all_roles(self) -> tuple:
        return (TURN_PLAYER,) + self.roles

    def role(self, name: str) -> Role | None:
        return next((r for r in self.all_roles if r.name == name), None)

    @property
    def word_types(self) -> dict:
        return {w.name: w.type for w in self.words}


TURN_PLAYER = Role("turn_player", "当前回合角色", "the turn player", "whoseTurn")

_USER = Role("user", "使用者", "the user", "player")
_TARGET = Role("target", "目标", "the target", "targetPlayer")
_CARD_WORDS = (
    Word("card", V.CARD, "这张牌（按所当作的牌）", "the card (as declared)", "cardType"),
    Word("real_card", V.BOOL, "是实体牌（不是技能视为使用的牌）", "a physical card (not one a skill acts as)",
         "card != null"),
    Word("has_target", V.BOOL, "有目标", "has a target", "targetPlayer != null"),
)
_MESSAGE_COLOURS = Word("message_colours", V.INT, "情报牌的颜色数", "the message card's number of colours",
                        "messageCard.colors.size")

EVENT_KINDS: dict[str, EventKind] = {k.key: k for k in [
    EventKind("use_card", "UseCardEvent", "phase/ResolveCard.kt", "使用卡牌时", "a card is used",
              ("main", "send_start", "send", "fight", "dying"), "user", (_USER, _TARGET),
              _CARD_WORDS + (Word("card_valid", V.BOOL, "这张牌尚未被无效", "the card has not been cancelled", "valid"),),
              doc="before the card resolves; a skill may cancel it (valid = false)"),
    EventKind("card_resolved", "FinishResolveCardEvent", "phase/OnFinishResolveCard.kt", "卡牌结算后",
              "a card finishes resolving", ("main", "send_start", "send", "fight", "dying"), "user", (_USER, _TARGET),
              _CARD_WORDS),
    EventKind("send_phase_start", "SendPhaseStartEvent", "phase/SendPhaseStart.kt", "传递阶段开始时",
              "the send phase starts", ("send_start",), "turn_player"),
    EventKind("send", "SendCardEvent", "phase/OnSendCardSkill.kt", "传出情报时", "a message is sent", ("send",),
              "sender", (Role("sender", "传出者", "the sender", "sender"),
                         Role("target", "情报传向的角色", "the player it is sent to first", "targetPlayer")),
              (Word("dir", V.DIRECTION, "传出方向", "the direction it is sent in", "dir"), _MESSAGE_COLOURS)),
    EventKind("move", "MessageMoveNextEvent", "phase/SendPhaseIdle.kt", "情报传到某人面前", "the message moves on",
              ("send",), "front", (Role("front", "情报面前的角色", "the player it is now in front of", "inFrontOfWhom"),),
              (Word("message_face_up", V.BOOL, "情报牌面朝上", "the message card is face up", "isMessageCardFaceUp"),
               _MESSAGE_COLOURS)),
    EventKind("choose_receive", "ChooseReceiveCardEvent", "phase/OnChooseReceiveCard.kt", "选择接收情报",
              "someone chooses to receive the message", ("fight",), "front",
              (Role("front", "选择接收的角色", "the player who chose to receive", "inFrontOfWhom"),), (_MESSAGE_COLOURS,)),
    EventKind("receive", "ReceiveCardEvent", "phase/ReceivePhaseIdle.kt", "接收情报时", "a message is received",
              ("receive",), "receiver", (Role("sender", "传出者", "the sender", "sender"),
                                         Role("receiver", "接收者", "the receiver", "inFrontOfWhom")),
              (_MESSAGE_COLOURS,
               Word("message_in_area", V.BOOL, "这份情报仍在接收者的情报区", "the message is still in the receiver's area",
                    "receiver.findMessageCard(messageCard.id) != null"))),
    EventKind("receive_phase", "ReceivePhaseIdle", "phase/ReceivePhaseIdle.kt (a state, not an event)",
              "接收阶段中（每次结算触发技能时）", "in the receive phase (each time triggered skills are dealt)",
              ("receive",), "receiver", (Role("sender", "传出者", "the sender", "sender"),
                                         Role("receiver", "接收者", "the receiver", "inFrontOfWhom")),
              is_event=False, doc="the skill reads the current state (g.fsm as? ReceivePhaseIdle): no Event object, "
                                  "no checkResolve — once a turn only through its own use count"),
    EventKind("give_card", "GiveCardEvent", "card/WeiBi.kt, handler/DieGiveCardTos.kt, skills", "一名角色交给另一名角色一张牌",
              "a player gives a card to a player (maybe himself)", ("main", "send_start", "send", "fight", "receive", "dying"),
              "giver", (Role("giver", "交出牌的角色", "the giver", "fromPlayer"),
                        Role("taker", "得到牌的角色", "the taker", "toPlayer"))),
    EventKind("discard", "DiscardCardEvent", "card/PingHeng.kt, card/ShiTan.kt, phase/AfterDieGiveCard.kt, skills",
              "弃牌", "a player discards", ("main", "send_start", "send", "fight", "receive", "dying"), "discarder",
              (Role("discarder", "弃牌的角色", "the player who discards", "player"),)),
    EventKind("add_message", "AddMessageCardEvent", "card/LiYou.kt, card/FengYunBianHuan.kt, skills", "有牌被置入情报区",
              "a card is put into a message area", ("main", "send_start", "send", "fight", "receive", "dying"), None,
              words=(Word("by_skill", V.BOOL, "由技能置入", "put there by a skill", "bySkill"),),
              doc="the event does not say whose area"),
    EventKind("die", "PlayerDieEvent", "phase/StartWaitForChengQing.kt", "角色死亡", "a player dies", ("dying",),
              "victim", (Role("victim", "死亡的角色", "the player who dies", "whoDie"),),
              doc="raised once nobody saved the dying player: he is no longer alive when it is dealt",
              holds=("not victim.alive",)),       # server StartWaitForChengQing: alive = false, then the event
    EventKind("turn_end", "TurnEndEvent", "phase/NextTurn.kt", "回合结束", "the turn ends", ("turn_end",), "turn_player",
              doc="dealt before invalidated skills are restored and one-turn skills dropped (NextTurn.resolve0)"),
]}

#: a gives site's moment (``[[skill.gives]] on``, model.turn.EVENTS) that is one of these events: a TriggeredSkill
#: hands a grant out as it answers an event, so the moment must be one of the events its ``on`` names
SITE_MOMENTS = {"use_card": "use_card", "send": "send", "choose_receive": "choose_receive", "receive": "receive",
                "send_start": "send_phase_start", "death": "die"}

#: the server's Event subclasses (Event.kt); every one has a kind above (a test reads the server to compare)
SERVER_EVENT_CLASSES = tuple(k.server for k in EVENT_KINDS.values() if k.is_event)

#: ``whose``: which player of the event the skill's holder is — a role of the event, or
WHOSE_WORDS = {"any": ("任何人的", "anyone's: the guard says the rest"),
               "self": ("自己的（事件的主角是持有者）", "the holder's own (the event's principal is the holder)"),
               "other": ("别人的（事件的主角不是持有者）", "another player's (the event's principal is not the holder)")}

#: every name a guard may read beyond the vocabulary of model.vocab (roles and words of all kinds)
ALL_ROLE_NAMES = frozenset(r.name for k in EVENT_KINDS.values() for r in k.all_roles)
ALL_WORD_NAMES = frozenset(w.name for k in EVENT_KINDS.values() for w in k.words)


def dispatched(alive: bool, before_die: bool, initial: bool) -> bool:
    """Is a skill asked at all (server ``Game.dealListeningSkill``): its holder is alive, or it is a
    BeforeDieSkill, or it is a granted (non-initial) skill."""
    return alive or before_die or not initial
