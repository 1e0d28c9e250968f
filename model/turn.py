"""The structure of a turn, as data: its windows in order and who may act in each.

The rule book names the idle points at which a player may use a card or an active skill —
出牌阶段, 传递阶段开始时, 传递阶段, 争夺阶段, 濒死求澄清 (fengsheng-doc docs/document/strategy/detail_rules.md,
"空闲时点") — and says who may act in them (strategy/faq.md: 出牌阶段 is the turn player's alone; before
the message is sent only the turn player acts; 争夺阶段 is public). The server implements them as the FSM
states of phase/*.kt; each window below names the state it is.

A *window* is a moment of a turn in which something can happen: a card or skill used, a grant handed
out, a decision taken. Windows are ordered by ``position``; ``dying`` (濒死求澄清) has no position of its
own: it interrupts the window a player died in and returns to it, so an event in a dying window is
timed at the position of the window it interrupts.

An *actor* says who may act in a window (use a card, use a skill): the turn player, the player the
message is in front of, anyone, … ``ACTORS`` gives each a meaning both back-ends implement
(``interp.windows.actor_ok`` / ``enc.windows.enc_actor_ok``).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Window:
    id: str
    zh: str
    position: int                    # order within a turn; dying: -1 (takes the interrupted window's)
    fsm: str                         # the server's FSM state (phase/*.kt)
    actor: str                       # who may act in it by default
    doc: str
    message: bool = False            # a message is travelling: sender and in_front are seats
    follows: tuple = ()              # windows a trace may move to from this one


WINDOWS: dict[str, Window] = {w.id: w for w in [
    Window("draw", "摸牌阶段", 0, "DrawPhase", "turn",
           "the turn player draws; nobody may use cards or skills", follows=("main",)),
    Window("main", "出牌阶段", 1, "MainPhaseIdle", "turn",
           "the turn player's alone (faq: 出牌阶段只有当前回合角色能出牌)",
           follows=("send_start", "dying")),
    Window("send_start", "传递阶段开始时", 2, "SendPhaseStart", "turn",
           "before the message is sent only the turn player acts", follows=("send",)),
    Window("send", "传递阶段", 3, "SendPhaseIdle", "in_front",
           "the message is in front of a player, who chooses to receive it or let it pass",
           message=True, follows=("send", "fight")),
    Window("fight", "争夺阶段", 4, "FightPhaseIdle", "anyone",
           "public: every player is asked in turn, starting at the player the message is in front of "
           "(server FightPhaseIdle.whoseFightTurn; the round restarts after any action)", message=True,
           follows=("fight", "receive", "dying")),
    Window("receive", "接收阶段", 5, "ReceivePhaseIdle", "nobody",
           "the message is received by the player it is in front of; nobody uses cards, triggers fire",
           message=True,
           follows=("dying", "turn_end")),
    Window("dying", "濒死求澄清", -1, "WaitForChengQing", "anyone",
           "interrupts the window a player dies in; everyone is asked from the dying player on",
           follows=()),
    Window("turn_end", "回合结束", 6, "NextTurn", "nobody",
           "the turn ends: invalidated skills are released, one-turn skills dropped ([rules] turn_end)"),
]}

#: windows a dying window may interrupt: the server checks for dying players at every node
#: (ProcessFsm.checkDying), but a player only becomes dying when black messages reach their area — in
#: 出牌阶段 (风云变幻, 利诱, 试探's effects), 争夺阶段 (共焚 and other skills) and when a message is received.
#: Not modelled: 赌命 putting a card into its holder's own area while the message is passed (传递阶段).
DYING_WITHIN = ("main", "fight", "receive")

#: windows in which a message is in front of somebody
MESSAGE_WINDOWS = tuple(w.id for w in WINDOWS.values() if w.message)

#: the windows a card or skill can be used in (the idle points of the rule book)
IDLE_POINTS = ("main", "send_start", "send", "fight", "dying")


#: the players of a window a card's target condition (``[[card]] target.when``) reads beside ``self`` and ``target``:
#: the turn player, in a message window the sender and the player the message is in front of (server: FightPhaseIdle
#: / SendPhaseIdle ``sender``, ``inFrontOfWhom`` — 误导's canUse reads the neighbours of ``inFrontOfWhom``), in
#: 濒死求澄清 the dying player; each with its nearest living neighbours (``front_left``, ``front_right``: server
#: Player.getNextLeftAlivePlayer / getNextRightAlivePlayer)
SIDED = ("turn_player", "sender", "front", "dying")


def target_players(window: str) -> tuple:
    """The players a card's target condition may read in ``window`` (``*``: none but those of every window)."""
    base = ["turn_player"]
    if window in MESSAGE_WINDOWS:
        base += ["sender", "front"]
    if window == "dying":
        base += ["dying"]
    return ("self", "target") + tuple(base) + tuple(f"{p}{side}" for p in base for side in ("_left", "_right"))

#: the windows in which an ActiveSkill's use has a condition of its own in the catalogue, a key of the same name:
#: 出牌阶段 ``main`` (what the server's executeProtocol checks of the state), 争夺阶段 ``fight`` (canUse),
#: 濒死求澄清 ``dying``
COND_WINDOWS = ("main", "fight", "dying")

#: where each decision is taken in a turn (and by whom): a finding about it is shown at such a moment.
#: receive: the player in front of whom the message is chooses (SendPhaseIdle, ChooseWhetherReceiveTos);
#: send: the sender sends (SendPhaseStart) — the turn player, or the target of 密令, whose own send rules the
#: server checks (card/MiLing.kt ExecuteMiLing: target.canSendCard; skill/SendMessageSkill.kt reads the
#: sender's skills); draw: the turn player draws (DrawPhase); the skip predicates are read when 争夺阶段 /
#: 濒死求澄清 asks each player; remind: the turn player ends 出牌阶段 (handler/EndMainPhaseTos.kt: only
#: ``r === (fsm as? MainPhaseIdle)?.whoseTurn`` may) and is prompted for an unused MainPhaseSkill.
DECISION_WINDOWS: dict[str, tuple[tuple[str, ...], str]] = {
    "receive": (("send",), "in_front"),
    "send": (("send_start",), "sender"),
    "draw": (("draw",), "turn"),
    "skip_fight": (("fight",), "anyone"),
    "skip_dying": (("dying",), "anyone"),
    "remind": (("main",), "turn"),
}

#: who may act: name -> (zh, meaning). The predicate over a state is in both back-ends.
ACTORS: dict[str, tuple[str, str]] = {
    "turn": ("当前回合角色", "the turn player"),
    "others": ("其他角色", "any player but the turn player"),
    "anyone": ("任何角色", "any living player"),
    "in_front": ("情报面前的角色", "the player the message is in front of"),
    "not_in_front": ("情报不在其面前的角色", "any player the message is not in front of"),
    "sender": ("传出者", "the player who sends this turn's message: the turn player, or the target of 密令"),
    "dying_player": ("濒死角色", "the dying player"),
    "nobody": ("无人", "nobody acts"),
}

def never_acts(window: str, actor: str) -> bool:
    """Can nobody ever be ``actor`` in ``window``? ``nobody`` anywhere; the dying player outside 濒死求澄清
    (nobody is dying then). Both back-ends' actor predicates (interp.windows.actor_ok, enc.windows.enc_actor_ok) are false
    there."""
    if actor == "nobody":
        return True
    return actor == "dying_player" and window != "dying"


def dead_windows(windows: dict) -> list[str]:
    """The windows of a ``windows`` table (window -> actor) whose actor can never act there."""
    return [w for w, a in windows.items() if never_acts(w, a)]


#: the moments at which a gives site hands out its grant (informative; the window is what is checked)
EVENTS = ("use", "resolve", "use_card", "send", "choose_receive", "receive", "send_start", "death", "turn_start",
          "any")


def position(window: str) -> int:
    return WINDOWS[window].position


def ordered() -> list[str]:
    """Windows with a position, in turn order."""
    return [w.id for w in sorted(WINDOWS.values(), key=lambda w: w.position) if w.position >= 0]


def can_follow(prev: str | None, nxt: str, interrupted: str | None = None) -> bool:
    """May a trace move from window ``prev`` to ``nxt`` within one turn? Forward in turn order (windows in
    between may pass without events; the message windows repeat as the message moves); a dying window
    interrupts one of ``DYING_WITHIN`` (several players may be dying in turn) and returns to the window it
    interrupted or moves on from there."""
    if prev is None or nxt not in WINDOWS:
        return False
    if nxt == "dying":
        return prev in DYING_WITHIN or (prev == "dying" and interrupted is not None)
    base = interrupted if prev == "dying" else prev
    if base is None:
        return False
    return position(nxt) >= position(base)


#: the windows' English names (``--lang en``); the Chinese ones are ``Window.zh``
WINDOW_EN = {"draw": "draw phase", "main": "main phase", "send_start": "start of the send phase",
             "send": "send phase", "fight": "fight phase", "receive": "receive phase",
             "dying": "dying (asking for rescue)", "turn_end": "turn end"}


def window_name(wid: str | None) -> str:
    """A window's name in the run's language (its id when unknown)."""
    from .lang import is_en
    if wid not in WINDOWS:
        return wid or ""
    return WINDOW_EN[wid] if is_en() else WINDOWS[wid].zh


def in_window(wid: str | None) -> str:
    """"in the main phase" / "at the start of the send phase" (English; the Chinese is 在 + the name)."""
    from .lang import pick
    if wid not in WINDOWS:
        return pick("在任何时机", "in any window")
    if wid == "send_start":
        return pick(f"在{WINDOWS[wid].zh}", "at the start of the send phase")
    if wid == "turn_end":
        return pick(f"在{WINDOWS[wid].zh}", "at turn end")
    if wid == "dying":
        return pick(f"在{WINDOWS[wid].zh}", "while someone is dying")
    return pick(f"在{WINDOWS[wid].zh}", f"in the {WINDOW_EN[wid]}")


def window_name_of_zh(zh: str) -> str:
    """The run's-language name of a window given its Chinese name (stored narrations keep the Chinese)."""
    from .lang import is_en
    if not is_en():
        return zh
    for w in WINDOWS.values():
        if w.zh == zh:
            return WINDOW_EN[w.id]
    return zh
