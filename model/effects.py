"""What a rule does, as data: the vocabulary of the catalogue's ``do`` key — a small set of effect operations that
compose, one entry per kind of thing the game server does to the table.

The model is Forge's card scripts (an ability is ``DB$ Draw | NumCards$ 1 | Defined$ You``, sub-abilities chained):
an effect is a list of *ops* done in order, each a table ``{ op = "draw", who = "self", n = 2 }``; ``choose`` holds
alternatives that are lists of ops again; any op may carry a condition ``if`` (the project's condition language,
``model/expr.py``: parsed and type-checked, never eval'd) and ``may = true`` (its actor may decline: the rule
book's 「可以」). Amounts are an integer or an integer expression (``"target.hand_count"``). Players are named by the
roles of the rule's moment — ``self`` (the holder, the user of a card), the roles of the events a TriggeredSkill
answers (``sender``, ``receiver``, ``user``, ``target`` … ``model.events``), and for an ActiveSkill or a card the
players of its window (``target``, ``sender``, ``front``, ``dying``, ``turn_player``) — plus ``chosen`` / ``chosen2``
(players the actor picks: free variables for the solver), and ``all`` / ``others`` (every living player / every
other living player, in seat order from the actor).

Each ``Op`` below records the server behaviour it mirrors (the server's class or method, in CuteReimu/TheMessage),
its keys with their types and defaults, and one line in each language. ``OPS`` is the whole vocabulary; the loader
reads ``do`` against it (``model/link_do.py``), ``docs/catalogue-format.md § do`` documents it, and
``skillproof catalogue --coverage`` counts a rule's effect as data when its ``do`` says it all (no ``prose`` op).
The check family ``triggers`` reads ``do`` statically (``checks/firing.py``: the events an op raises, what it changes
and reads); both twins do every op on the table (``model/interp/ops.py``, ``checks/enc/ops.py``). An op may also name
what it moved (``as``), put a condition on the card it moves (``where``, its colours as ``it``) and let the actor pick
how many (``up_to``); ``each`` and ``repeat`` repeat ops. A ``prose`` op that names ``why`` (``WHY``) marks what the
server decides by something the model's table does not hold: the rule is still modelled, its exception named.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import events as EV
from . import turn as T
from . import vocab as V

# ------------------------------------------------------------------------------------------- argument types
PLAYER = "player"          # a player word of the rule's moment (below)
AMOUNT = "amount"          # an integer >= 0 or an integer expression
CARDS = "cards"            # a card id or a list of card ids (a filter: cards of these types)
GRANT = "grant"            # a grant id one of the rule's own gives sites hands out
OPTIONS = "options"        # a list of alternatives, each a non-empty list of op tables
TEXT = "text"              # a short note
BOOL = "bool"
PHASE = "phase"            # a window of model.turn
NAME = "name"              # a name the op gives what it moved, for the ops after it (``as``)
COND = "cond"              # a condition on the card the op moves, its colours bound as ``it`` (``where``)
BODY = "ops"               # a non-empty list of op tables: what a loop does each time (``each``, ``repeat``)


@dataclass(frozen=True)
class Arg:
    name: str
    type: str                 # one of the types above, or "enum"
    default: object = None    # None and not required: absent means "not said"
    required: bool = False
    choices: tuple = ()       # type "enum": the values it takes
    zh: str = ""
    en: str = ""


@dataclass(frozen=True)
class Op:
    key: str
    zh: str
    en: str
    server: str               # the server behaviour it mirrors
    args: tuple = ()          # of Arg

    def arg(self, name: str) -> Arg | None:
        return next((a for a in self.args if a.name == name), None)

    @property
    def arg_names(self) -> tuple:
        return tuple(a.name for a in self.args)


#: colour constraints on a card: any; containing black / only black / no black; containing red, blue, red or blue;
#: of two colours; sharing a colour with the travelling message (or the event's message) / having a colour it lacks
COLOUR_FILTERS = ("any", "black", "pure_black", "non_black", "red", "blue", "red_or_blue", "two_colours",
                  "shares_message", "outside_message")
#: a card put into a message area that would give its owner three messages of one colour
#: (server Player.checkThreeSameMessageCard): allowed, refused, or it goes into a hand instead
THREE = ("allowed", "forbidden", "to_hand")
#: the op done when ``three = to_hand`` sends the card into ``by``'s hand instead (no op of ``do``: recorded by the
#: twins beside the op that does it — interp ops.into_hand_entry — with its words), what an effect claim reads as the
#: player gaining a card (利诱能让使用者获得手牌吗: card/LiYou.kt joinIntoHand)
INTO_HAND = "into_hand"
INTO_HAND_WORDS = ("把牌收入手牌（凑满三张同色时）", "takes the card into a hand (when it would make three of a colour)")
#: which cards of a hand: chosen by their holder, chosen by the actor, at random, or all of them
WHICH = ("choose", "actor_chooses", "random", "all")
#: where a card put into a message area comes from
PUT_FROM = ("hand", "deck_top", "message", "message_area", "this_card")
#: what is shown
SHOW_WHAT = ("hand_card", "hand", "message", "identity", "deck_top")
#: where a message taken out of an area goes
REMOVE_TO = ("discard_pile", "hand", "area")
#: where drawn cards come from: the deck top; the card the rule answers (a card that finished resolving); the card
#: this effect just discarded (the deck and the discard pile are not modelled: all three add to the hand alike)
DRAW_FROM = ("deck_top", "this_card", "discarded")
#: what is swapped
SWAP_WHAT = ("identity", "role", "hand", "messages")

#: why a ``prose`` op stays words for good — the server decides something by what the model's table does not hold.
#: A rule whose only prose ops name one of these is *modelled*: its other ops let every outcome the server can give
#: (a ``choose``, a ``may``, a free colour), and the prose op names the server's test the model cannot make
#: (``skillproof catalogue --coverage`` lists each with its reason). Without ``why`` a prose op is "not said yet".
WHY = {
    "hidden_card": ("手牌或牌堆里的牌面（颜色、牌名、牌上印的内容）不在模型的牌桌上：手牌只是张数（model/interp/table.py），"
                    "服务器据牌面作的决定在效果里是开放的决定，任何一张牌可能给出的结果都算",
                    "a card's face in a hand or the deck (its colours, its type, what is printed on it) is not on the "
                    "model's table — a hand is a count (model/interp/table.py) — so what the server decides by it is an "
                    "open decision of the effect: every outcome some card could give"),
    "own_play": ("那张牌是作为某人自己的出牌打出的：之后的 play 事件（它的禁令、转化和效果）做它的事，不是这个效果",
                 "the card is put into play as a player's own play: the game trace's play event that follows (its bans, "
                 "conversions and effect) does what it does, not this effect"),
}

_WHO = Arg("who", PLAYER, "self", zh="谁", en="who")
_N = Arg("n", AMOUNT, 1, zh="张数", en="how many")


def _which(default="choose"):
    return Arg("which", "enum", default, choices=WHICH, zh="哪几张", en="which cards")


#: the card an op moves, as its ``where`` condition names it (a set of colours)
IT = "it"
#: players every rule may name that are sets, not bound in expressions: every living player / every other one
PLAYER_SETS = ("all", "others")
#: the player of the turn of an ``each`` loop, a word of its ops (with its neighbours ``each_left`` / ``each_right``)
EACH = "each"
#: what ``as`` names, by op: the number of hand cards it moved, or the colours of the card it put, took or made the
#: message (model.vocab types)
BINDS = {"discard": V.INT, "give": V.INT, "take": V.INT,
         "put_message": V.set_of(V.COLOUR), "remove_message": V.set_of(V.COLOUR), "replace_message": V.set_of(V.COLOUR)}
_UP_TO = Arg("up_to", AMOUNT, zh="至多（张数由行动者在 n 与它之间决定）",
             en="at most: the actor picks how many, from n up to this (the decision n)")
_AS_COUNT = Arg("as", NAME, zh="把移动的张数记作（供之后的操作读）", en="a name for the number of cards it moved (for the ops after it)")
_AS_CARD = Arg("as", NAME, zh="把这张牌的颜色记作（供之后的操作读）", en="a name for the colours of the card (for the ops after it)")
_WHERE = Arg("where", COND, zh="这张牌须满足的条件（it：它的颜色）", en="a condition the card must meet (it: its colours)")


def _colour(default=None):
    return Arg("colour", "enum", default, choices=COLOUR_FILTERS, zh="颜色要求", en="its colour constraint")


_THREE = Arg("three", "enum", "allowed", choices=THREE, zh="凑满三张同色时", en="when it would make three of a colour")


OPS: dict[str, Op] = {o.key: o for o in [
    Op("draw", "摸牌", "draws cards",
       "Player.draw(n): cards from the deck top into the hand; from = this_card: the card the rule answers, kept out of the "
       "discard pile (JiuJi2: askWhom.cards.add(event.card)); from = discarded: the card this effect just discarded goes "
       "into the hand instead (HuoXin: joinIntoHand)",
       (_WHO, _N, Arg("from", "enum", choices=DRAW_FROM, zh="牌从哪里来（不写：牌堆顶）",
                      en="where the cards come from (not said: the deck top)"))),
    Op("discard", "弃牌", "discards cards",
       "Game.playerDiscardCard (raises DiscardCardEvent): cards from the hand to the discard pile",
       (_WHO, _N, _which(), Arg("card", CARDS, zh="只弃这些牌", en="only cards of these types"), _colour(), _UP_TO,
        _AS_COUNT)),
    Op("give", "交给牌", "gives cards",
       "a card moves from one hand to another (raises GiveCardEvent where the server does: WeiBi, skills)",
       (Arg("from", PLAYER, "self", zh="交出者", en="from"), Arg("to", PLAYER, required=True, zh="得到者", en="to"), _N,
        _which(), Arg("card", CARDS, zh="只交这些牌", en="only cards of these types"), _colour(), _UP_TO, _AS_COUNT)),
    Op("take", "拿走牌", "takes cards", "a card moves from another player's hand into the actor's (to defaults to self)",
       (Arg("from", PLAYER, required=True, zh="被拿者", en="from"), Arg("to", PLAYER, "self", zh="得到者", en="to"), _N,
        _which("actor_chooses"), Arg("card", CARDS, zh="只拿这些牌", en="only cards of these types"), _colour(), _UP_TO,
        _AS_COUNT)),
    Op("show", "展示", "shows", "a card or a hand is shown (notify*: the proto's show / view messages)",
       (_WHO, Arg("what", "enum", "hand_card", choices=SHOW_WHAT, zh="展示什么", en="what"),
        Arg("to", PLAYER, "all", zh="给谁看", en="to whom"), _N, _colour())),
    Op("put_message", "置入情报区", "puts a card into a message area",
       "Player.messageCards.add (raises AddMessageCardEvent where the server does: LiYou, FengYunBianHuan, skills)",
       (Arg("to", PLAYER, "self", zh="谁的情报区", en="whose area"),
        Arg("from", "enum", "hand", choices=PUT_FROM, zh="牌从哪里来", en="where the card comes from"),
        Arg("of", PLAYER, zh="谁的手牌 / 情报区", en="whose hand or area (from = hand / message_area)"), _N,
        _colour("any"), _THREE, Arg("by", PLAYER, "self", zh="改收入谁的手牌（three = to_hand）", en="into whose hand instead "
                                                                                              "(three = to_hand)"),
        _WHERE, _AS_CARD)),
    Op("remove_message", "移除情报", "takes a message out of an area",
       "Player.deleteMessageCard: to the discard pile (ChengQing), into a hand, or into another area",
       (Arg("whose", PLAYER, "self", zh="谁的情报区", en="whose area"), _N, _colour("any"),
        Arg("to", "enum", "discard_pile", choices=REMOVE_TO, zh="去向", en="where it goes"),
        Arg("by", PLAYER, "self", zh="收入谁的手牌", en="into whose hand (to = hand)"),
        Arg("into", PLAYER, zh="放进谁的情报区（to = area）", en="into whose area (to = area)"), _THREE, _WHERE, _AS_CARD)),
    Op("flip", "翻面", "turns a role card or the message",
       "Player.roleFaceUp (role card) / SendPhaseIdle.isMessageCardFaceUp (the message)",
       (_WHO, Arg("what", "enum", "role", choices=("role", "message"), zh="角色牌或情报", en="role card or message"),
        Arg("face", "enum", "up", choices=("up", "down"), zh="朝上 / 朝下", en="up / down"))),
    Op("move_message", "转移情报", "moves the message in front of a player",
       "SendPhaseIdle(inFrontOfWhom = …): JieHuo takes it, WuDao moves it to a neighbour",
       (Arg("to", PLAYER, required=True, zh="移到谁面前", en="in front of whom"),)),
    Op("redirect", "改变传递方向", "changes where the message goes next",
       "SendPhaseIdle.dir / the sender's chosen direction",
       (Arg("dir", "enum", choices=("up", "left", "right", "reverse"), required=True, zh="方向", en="direction"),)),
    Op("lock", "锁定", "locks a player on the message", "SendPhaseIdle.lockedPlayers",
       (_WHO,)),
    Op("replace_message", "替换情报", "replaces the travelling message with a card",
       "SendPhaseIdle.messageCard = a hand card (DiaoBao) or a card of a message area (MiaoShou: "
       "deleteMessageCard), the old one to the discard pile",
       (Arg("from", "enum", "hand", choices=("hand", "deck_top", "message_area", "this_card"), zh="新情报从哪里来",
            en="where the new message comes from"),
        Arg("of", PLAYER, "self", zh="谁的手牌 / 情报区", en="whose hand or message area"),
        Arg("face", "enum", "down", choices=("up", "down"), zh="朝上 / 朝下", en="face up / down"), _WHERE, _AS_CARD)),
    Op("take_message", "拿走情报", "takes the travelling message out of play",
       "the message card leaves the fight: into a hand (DingLun, SouJi: r.cards.add(messageCard)) or the discard pile "
       "(MiaoShou, YingBianZiRu: deck.discard(messageCard)); nobody receives it",
       (Arg("to", "enum", "discard_pile", choices=("discard_pile", "hand"), zh="去向", en="where it goes"),
        Arg("by", PLAYER, "self", zh="收入谁的手牌", en="into whose hand (to = hand)"))),
    Op("send_message", "传出情报", "sends a message (instead of the usual send)",
       "the send of SendPhaseStart / OnSendCard with a message card other than a hand card the sender picks freely",
       (Arg("by", PLAYER, "self", zh="传出者", en="who sends"),
        Arg("from", "enum", "hand", choices=PUT_FROM, zh="情报从哪里来", en="where the message comes from"),
        Arg("of", PLAYER, zh="谁的手牌 / 情报区", en="whose hand or area"), _colour("any"),
        Arg("face", "enum", "down", choices=("up", "down"), zh="朝上 / 朝下", en="face up / down"),
        Arg("lock", PLAYER, zh="锁定谁", en="whom it locks"))),
    Op("cancel", "使卡牌无效", "cancels the card being used", "UseCardEvent.valid = false (PoYi-like: 识破)",
       (Arg("card", CARDS, zh="只对这些牌", en="only these cards"),)),
    Op("grant", "给出技能", "hands out a grant",
       "skills.add(…) of the grant; the site (who, when, arguments) is the rule's own [[…gives]] entry",
       (Arg("grant", GRANT, required=True, zh="给出的技能", en="the grant"),
        Arg("to", PLAYER, zh="给谁", en="to whom (the site's 'to' says who may)"))),
    Op("end_turn", "结束回合", "ends the turn", "the FSM goes to NextTurn", ()),
    Op("skip", "跳过阶段", "skips a phase", "the FSM goes past the phase (e.g. MainPhaseIdle -> SendPhaseStart)",
       (Arg("phase", PHASE, required=True, zh="阶段", en="the phase"),)),
    Op("swap", "交换", "swaps two players' identities, roles, hands or messages",
       "Player.identity / Player.roleSkillsData / cards / messageCards exchanged",
       (Arg("what", "enum", required=True, choices=SWAP_WHAT, zh="交换什么", en="what"),
        Arg("a", PLAYER, "self", zh="一方", en="one"), Arg("b", PLAYER, required=True, zh="另一方", en="the other"))),
    Op("take_identity", "拿走身份", "takes another player's identity",
       "Player.identity = other.identity, other.identity = Has_No_Identity (ChengZhi): the actor's own leaves the game",
       (Arg("from", PLAYER, required=True, zh="被拿走身份者", en="whose identity"),
        Arg("to", PLAYER, "self", zh="得到身份者", en="who takes it"))),
    Op("receive", "立即接收情报", "receives the message now",
       "the FSM goes to OnChooseReceiveCard / ReceivePhase for the player; three = to_hand: when receiving it would give "
       "him three messages of one colour (Player.checkThreeSameMessageCard) it goes into by's hand instead and the turn "
       "ends (DingLun: NextTurn)",
       (_WHO, Arg("three", "enum", choices=("allowed", "to_hand"), zh="凑满三张同色时（不写：allowed）",
                  en="when it would make three of a colour (not said: allowed)"),
        Arg("by", PLAYER, zh="改收入谁的手牌（three = to_hand；不写：自己）",
            en="into whose hand instead (three = to_hand; not said: self)"))),
    Op("kill", "死亡", "dies", "the player is dead (Player.alive = false; PlayerDieEvent)", (_WHO,)),
    Op("raise", "引发事件", "raises an event",
       "Game.addEvent(XxxEvent(…)): the triggered skills answering that event are asked at the next process node "
       "(model.events)",
       (Arg("event", "enum", required=True, choices=tuple(EV.EVENT_KINDS), zh="事件", en="the event"),
        Arg("who", PLAYER, zh="事件的主角", en="the event's principal (the player it is about)"))),
    Op("ask_from", "从某人起重新询问", "asks again from a player",
       "FightPhaseIdle(whoseFightTurn = …): the round of asking in 争夺阶段 goes on from this player",
       (Arg("who", PLAYER, required=True, zh="从谁起", en="from whom"),)),
    Op("choose", "选择其一", "chooses one of",
       "the client is asked (a *Tos* message): the chooser picks one alternative — a free variable for the solver",
       (Arg("who", PLAYER, "self", zh="选择者", en="who chooses"),
        Arg("of", OPTIONS, required=True, zh="可选的效果", en="the alternatives"))),
    Op("each", "每名角色依次", "for each player in turn",
       "a loop over the living players from the actor on, the list taken as it starts (GongFen: ExecuteGongFen's queue; "
       "FengYunBianHuan: ExecuteFengYunBianHuan's players): the ops of do, with the player of the turn as each",
       (Arg("who", "enum", "all", choices=PLAYER_SETS, zh="哪些角色（all：所有存活角色；others：除行动者外）",
            en="which players (all: every living one; others: but the actor)"),
        Arg("do", BODY, required=True, zh="对每名角色做的操作（each：轮到的角色）", en="the ops done for each (each: that player)"))),
    Op("repeat", "重复", "does the same several times",
       "a loop of the server's: as many times as n (or the actor's pick up to up_to), each time its own decisions "
       "(GuangFaBao: ExecuteGuangFaBao again while he puts cards; HouLaiRen: every message but the one kept)",
       (_N, _UP_TO, Arg("do", BODY, required=True, zh="每次做的操作", en="the ops done each time"))),
    Op("prose", "（文字）", "(in words)", "what the vocabulary cannot say yet: the rule's text says it",
       (Arg("note", TEXT, required=True, zh="说明", en="what is left in words"),
        Arg("why", "enum", choices=tuple(WHY), zh="为什么不能写成数据（模型看不到的部分）",
            en="why it cannot be data (what the model does not see)"))),
]}

#: keys every op may carry besides its own
COMMON = ("op", "if", "may", "note")
#: players every rule may name; ``all`` / ``others`` are sets, not bound in expressions (defined above OPS)
CHOSEN = ("chosen", "chosen2")
#: the players of an ActiveSkill's or a card's window (the table the design note describes)
WINDOW_PLAYERS = ("target", "sender", "front", "dying", "turn_player")
#: the key ``do`` is the rule's (and card's) effect
KEY = "do"
#: the key ``requires``: what the server checks before it lets an ActiveSkill or a card be used (its handler's checks
#: beyond the window): the user's state and the chosen players, in the condition language
REQUIRES = "requires"
#: how deep ``choose`` alternatives may nest
DEPTH = 4


#: a player's nearest living neighbours (``sender_left``: the nearest living player on the sender's left)
SIDES = ("_left", "_right")


def players_of(on: tuple) -> tuple:
    """The player words a rule may name: ``self``, the chosen players, and the roles of its moment — the roles
    of every event it answers (a TriggeredSkill) or the players of its window (an ActiveSkill, a card) — and each
    of these players' nearest living neighbours (``front_left``, ``sender_right``)."""
    roles: list = []
    if on:
        for o in on:
            for r in o.kind.role_names:
                if r not in roles:
                    roles.append(r)
    else:
        roles = list(WINDOW_PLAYERS)
    base = ("self",) + tuple(roles)
    return base + CHOSEN + tuple(p + side for p in base for side in SIDES)


#: the players of a window and the chosen ones, as nouns (zh, en); an event's roles come from model.events
_NOUNS = {EACH: ("轮到的角色", "the player of the turn"), "target": ("目标", "the target"), "sender": ("传出者", "the sender"),
          "front": ("情报面前的角色", "the player the message is in front of"), "dying": ("濒死的角色", "the dying player"),
          "turn_player": ("当前回合角色", "the turn player"), "chosen": ("所选的角色", "the chosen player"),
          "chosen2": ("所选的另一名角色", "the other chosen player")}


def player_nouns(on: tuple) -> dict:
    """Every player word of a rule's effect but ``self``, as nouns in both languages (name -> (zh, en)), for
    saying its conditions in words (``expr_words.words(…, players=…)``)."""
    nouns = dict(_NOUNS)
    for o in on:
        for r in o.kind.all_roles:
            nouns[r.name] = (r.zh, r.en)
    out = {}
    names = players_of(on) + (EACH, EACH + "_left", EACH + "_right")      # each: inside an ``each`` loop
    for name in names:
        if name in nouns:
            out[name] = nouns[name]
    for name in names:
        for side, zh, en in (("_left", "左边", "left"), ("_right", "右边", "right")):
            base = name[:-len(side)] if name.endswith(side) else None
            if base is not None:
                bzh, ben = ("自己", "the holder") if base == "self" else nouns[base]
                out[name] = (f"{bzh}{zh}最近的存活角色", f"the nearest living player on the {en} of {ben}")
    return out


def words_of(on: tuple) -> dict:
    """The event values an effect may read: those every event of its ``on`` carries (name -> type)."""
    if not on:
        return {}
    words = dict(on[0].kind.word_types)
    for o in on[1:]:
        words = {k: t for k, t in words.items() if o.kind.word_types.get(k) == t}
    return words


PHASES = tuple(T.WINDOWS)


def bindings(ops) -> dict:
    """The names an effect's ops give what they moved (``as``), with their types (``BINDS``), in op order."""
    return {o.args["as"]: BINDS[o.op] for o in walk(ops) if o.op in BINDS and isinstance(o.args.get("as"), str)}


def player_args(key: str) -> tuple:
    """(name, default) of each argument of op ``key`` that names players (``PLAYER``): whom the op is done to or for
    (``draw``'s who, ``give``'s from and to …) — what an op done says of the table's players (``ops.done_entry``)."""
    o = OPS.get(key)
    return tuple((a.name, a.default) for a in (o.args if o is not None else ()) if a.type == PLAYER)


def op_player_args(op) -> tuple:
    """``player_args`` of an op as written: whom this op is done to or for — none for a flip of the message (破译
    turns the message face up: its ``who`` names no player's role card)."""
    if op.op == "flip" and op.args.get("what") == "message":
        return ()
    return player_args(op.op)


def place_of(op) -> str | None:
    """Where an op that takes a message out of an area puts it (``remove_message``'s ``to``: discard_pile, hand or
    area, its default applied); None for every other op — what ask's effect claims tell apart (弃置情报 / 放入情报区)."""
    if op.op != "remove_message":
        return None
    o = OPS[op.op]
    return op.args.get("to", next(a.default for a in o.args if a.name == "to"))


def static_n(op) -> int | None:
    """How many cards a ``draw`` takes when the catalogue writes it as a number (``n``, default 1, no ``up_to``); None
    for every other op and for an amount that is an expression — what ask's effect claims read (摸两张牌)."""
    if op.op != "draw" or op.args.get("up_to") is not None:
        return None
    n = op.args.get("n", 1)
    return n if isinstance(n, int) and not isinstance(n, bool) else None


def walk(ops):
    """Every op of a ``do`` list, its alternatives' ops included, depth first."""
    for o in ops:
        yield o
        for alt in o.options:
            yield from walk(alt)


def sends_from_elsewhere(ops) -> bool:
    """Does the effect send a message from elsewhere than the hand (冷血训练: the deck's top)? Its holder may send with
    no hand card (server phase/SendPhaseStart.kt: a turn player with no card loses, but for such a skill)."""
    return any(o.op == "send_message" and o.args.get("from", "hand") != "hand" for o in walk(ops))


def sends_users_card(ops) -> bool:
    """Does the effect send its user's own hand card in another player's name (诱敌深入: ``by = "turn_player"``, ``of =
    "self"``)? Such a send is checked as sent by the user — never to him (skill/YouDiShenRu.kt ``r.canSendCard``; the
    game's path.send_errors ``hand_of``) — while the other player is its sender."""
    return any(o.op == "send_message" and o.args.get("from", "hand") == "hand" and o.args.get("of", "self") == "self"
               and o.args.get("by", "self") != "self" for o in walk(ops))


def is_prose(ops) -> bool:
    """Does some op of the list leave part of the effect in words?"""
    return any(o.op == "prose" for o in walk(ops))
