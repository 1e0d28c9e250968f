"""The loaded catalogue: plain, immutable-by-convention data classes.

Every entry and every key remembers where it was written (``Loc``: file and line), so that a finding can
point a designer at the exact line of each rule involved.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .expr import Lambda, Node


@dataclass(frozen=True)
class Loc:
    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(frozen=True)
class Ref:
    """A card reference in a conversion or ban: a card id, any card, or a grant parameter."""
    kind: str      # 'card' | 'any' | 'param'
    value: str = ""

    def __str__(self) -> str:
        return {"card": self.value, "any": "any", "param": self.value}[self.kind]


@dataclass
class Convert:
    source: Ref
    targets: tuple            # of Ref
    must: bool
    loc: Loc


@dataclass
class Ban:
    cards: tuple | Ref        # tuple of card Refs, or Ref('param', name) of a set<card> parameter
    all: bool | Ref           # literal, or Ref('param', name) of a bool parameter
    loc: Loc


@dataclass
class Plays:
    """A skill that puts a card's effect into play without playing that card (偷天 acts as 截获)."""
    cards: tuple              # card ids it acts as
    checks_bans: bool         # whether the server consults CannotPlayCard for it
    loc: Loc
    bans_of: str = "user"     # whose bans it consults: the user's, or the target's
    card_of: str = "none"     # whose card it puts into play: none (a virtual card), the user's, the target's
    resolves: str = "declared"   # the effect that happens: of the declared type, or of the physical card
    when: dict = field(default_factory=dict)   # card id (or "*": every card) -> the condition it acts as that card on


@dataclass
class Receive:
    must: Node
    cannot: Node
    loc: Loc


@dataclass
class Send:
    rule: Node
    loc: Loc


@dataclass
class Fires:
    """When a TriggeredSkill's effect happens, as far as the catalogue says it: in one of the windows ``at``,
    where ``when`` holds for its holder (详尽思索·押注: at 接收阶段, alive and not yet fired this turn)."""
    at: tuple                 # windows (model.turn)
    when: Node
    loc: Loc


@dataclass
class On:
    """One event a TriggeredSkill answers (``[[skill.on]]`` / ``on = {…}``; the vocabulary is ``model.events``):
    the event kind, which player of the event the holder is (``whose``: ``any``, ``self``, ``other`` or roles of
    the event), a guard ``when`` (the condition language, with the event's players bound — ``sender.alive`` — and
    its values: ``card``, ``dir`` …), ``once`` (a skill answers one event once: server Event.checkResolve) and
    ``guard_prose``: the guard does not say everything the server tests — the rest is only in ``trigger``."""
    event: str
    whose: tuple              # ('any',) | ('self',) | ('other',) | role names of the event
    when: Node
    loc: Loc
    once: bool = True
    guard_prose: bool = False
    text: str = "true"        # the guard as written

    @property
    def kind(self):
        from .events import EVENT_KINDS
        return EVENT_KINDS[self.event]

    def holder_roles(self) -> tuple:
        """The roles of the event the holder plays (``any`` / ``other``: none in particular)."""
        if self.whose == ("self",):
            return (self.kind.principal,) if self.kind.principal else ()
        if self.whose in (("any",), ("other",)):
            return ()
        return self.whose


@dataclass
class DoOp:
    """One effect operation of a ``do`` list (the vocabulary is ``model.effects``): its op, its arguments as
    read (players as words, amounts as ``int`` or a type-checked ``Node``, cards as ids), its condition ``if``,
    whether its actor may decline (``may``), a reader's note, and for ``choose`` the alternatives, each a tuple
    of ``DoOp``."""
    op: str
    args: dict
    cond: Node | None
    loc: Loc
    may: bool = False
    note: str = ""
    options: tuple = ()       # choose: tuple of tuples of DoOp


@dataclass
class Effect:
    when: Node
    each: Lambda | None
    pick: Lambda | None
    winners_add: Lambda | None
    winners_remove: Lambda | None
    declared_add: Lambda | None
    declared_remove: Lambda | None
    loc: Loc


@dataclass
class Give:
    giver: str                # the skill or card id that hands it out
    giver_is_card: bool
    grant: str                # the [[grant]] id
    to: str                   # self | target | others | all
    when: Node
    per_turn: int
    args: dict                # param -> python value (card id str, tuple of card ids, bool, int, colour)
    where: Node | None
    loc: Loc
    index: int = 0            # position among the giver's gives
    at: tuple = ()            # the windows in which it hands the grant out (model.turn); (): any window
    on: str = "any"           # the event at that moment (informative: use, send, choose_receive, …)
    with_grant: str | None = None  # ``with``: the grant of the giver's other site handed out at once with this one
    together: int | None = None    # that site's index (resolved at load; not part of the meaning)

    @property
    def site_id(self) -> str:
        return f"{self.giver}#{self.index}"

    @property
    def partner_id(self) -> str | None:
        """The site handed out together with this one (same giver, same receiver, same moment), if any."""
        return f"{self.giver}#{self.together}" if self.together is not None else None


@dataclass
class Rule:
    """A [[skill]] (initial skill of a character) or a [[grant]] (template handed out at run time)."""
    id: str
    name: str
    is_grant: bool
    kinds: tuple
    closure: frozenset        # kinds with parents
    initial: bool
    loc: Loc
    aliases: tuple = ()
    text: str = ""
    flips: bool = False
    consumed: bool = False
    limit: str = "none"
    trigger: str = ""
    fight: Node | None = None
    dying: Node | None = None
    main: Node | None = None       # ActiveSkill: its condition in 出牌阶段 (default true)
    remind: Node | None = None     # MainPhaseSkill: when ending 出牌阶段 prompts for it (default: not used)
    convert: Convert | None = None
    ban: Ban | None = None
    receive: Receive | None = None
    send: Send | None = None
    draw: Node | None = None
    win: list = field(default_factory=list)
    result: list = field(default_factory=list)
    gives: list = field(default_factory=list)
    plays: Plays | None = None
    fires: Fires | None = None
    on: tuple = ()                                 # of On: the events a TriggeredSkill answers (model.events)
    do: tuple = ()                                 # of DoOp: what it does (model.effects)
    requires: Node | None = None                   # ActiveSkill: what the server checks before the use
    lifetime: str = "permanent"
    params: dict = field(default_factory=dict)     # name -> type
    origin: str = "server"
    key_locs: dict = field(default_factory=dict)   # key -> Loc
    windows: dict = field(default_factory=dict)    # ActiveSkill: window -> actor (model.turn) it is used in
    replaces_role: bool = False                    # using it replaces the owner's role (后来人)

    def has(self, kind: str) -> bool:
        return kind in self.closure

    def at(self, key: str) -> Loc:
        return self.key_locs.get(key, self.loc)

    @property
    def label(self) -> str:
        return f"【{self.name}】"

    @property
    def use_faces(self) -> tuple:
        """How a use turns its holder's role: (the face it leaves when every choice of its effect declines — True up,
        False down, None as it was —, every face it may leave — a frozenset of those —, whether it surely turns the
        role face up on the way). Up when its cost turns it (``flips``: server e.g. skill/TouTian.kt
        ``g.playerSetRoleFaceUp(r, true)`` before the effect); then as its effect turns its own role (a ``flip`` op on
        ``self``): a top-level one that is neither ``may`` nor ``if`` surely (skill/HuanRi.kt
        ``g.playerSetRoleFaceUp(askWhom, false)``), one that is a choice, conditional or inside a ``choose`` perhaps
        (skill/JieDaoShaRen.kt: face down again on the black branch, if he likes). A flip of another player or of the
        message is none of these (the timed model's faces: model/interp/face.py and its twin)."""
        from .effects import walk

        def own(op) -> bool:
            return op.op == "flip" and op.args.get("what", "role") == "role" and op.args.get("who", "self") == "self"
        sure = bool(self.flips)
        face = True if self.flips else None
        may = {face}
        for op in self.do:
            if own(op) and not op.may and op.cond is None:
                face = op.args.get("face", "up") == "up"
                may = {face}
                sure = sure or face
                continue
            for o in walk([op]):
                if own(o):
                    may.add(o.args.get("face", "up") == "up")
        return face, frozenset(may), sure


@dataclass
class CardTarget:
    """Whom a card is used on (``[[card]] target``): nobody, any living player or another one, and the condition the
    target must meet — per window (``when``: window -> condition; ``*`` for every window), with ``self``,
    ``target`` and, in 濒死求澄清, ``dying`` bound (server: each card's ``canUse``)."""
    who: str                  # none | any | other
    when: dict                # window or "*" -> Node
    loc: Loc


@dataclass(frozen=True)
class DeckPrint:
    """Printed copies of a card in the deck (server card/Deck.kt): ``n`` copies alike — their colours, the direction
    they are sent in, the lock mark, what else the card type prints (``with``: (name, value) pairs, sorted: 试探's
    ``whoDrawCard``, 密令's ``secret``) — in games of the table sizes ``seats`` ("" = every size; "5-9", "2-4, 9")."""
    n: int
    colour: tuple
    dir: str
    lock: bool = False
    seats: str = ""
    with_: tuple = ()
    loc: Loc | None = field(default=None, compare=False)

    @property
    def key(self) -> tuple:
        """What a print is, without its count."""
        return (self.colour, self.dir, self.lock, self.seats, self.with_)

    def words(self) -> str:
        """``red-black right, lock mark, whoDrawCard = red/black, in games of 5-9``: one print, in the catalogue's
        own words (no count)."""
        parts = ["-".join(self.colour) + " " + self.dir]
        if self.lock:
            parts.append("lock")
        for k, v in self.with_:
            parts.append(f"{k} = {'/'.join(v) if isinstance(v, tuple) else str(v).lower()}")
        if self.seats:
            parts.append(f"seats {self.seats}")
        return ", ".join(parts)


def deck_counts(prints) -> dict:
    """print (``DeckPrint.key``) -> copies, over a card's ``deck`` entries (the same print written twice adds up)."""
    out: dict = {}
    for p in prints:
        out[p.key] = out.get(p.key, 0) + p.n
    return out


@dataclass
class Card:
    id: str
    name: str
    loc: Loc
    aliases: tuple = ()
    text: str = ""
    gives: list = field(default_factory=list)
    windows: dict = field(default_factory=dict)   # window -> actor: where and by whom it can be used
    do: tuple = ()                                # of DoOp: what it does (model.effects)
    target: CardTarget | None = None              # whom it is used on (None: not said — no target)
    requires: Node | None = None                  # what the server checks before the use (beyond the window)
    deck: tuple = ()                              # of DeckPrint: its printed copies in the deck (() = not said)

    @property
    def phases(self) -> tuple:
        """The windows it can be used in (names of model.turn.IDLE_POINTS)."""
        return tuple(self.windows)


@dataclass
class Character:
    id: str
    name: str
    hidden: bool
    female: bool
    skills: tuple
    loc: Loc
    origin: str = "server"
    aliases: tuple = ()
    text: str = ""


@dataclass
class Rules:
    seats: int = 9
    min_seats: int = 2        # fewest players at a table
    draw_base: int = 3
    turn_end: tuple = ("restore_invalid", "drop_one_turn")
    must_beats_cannot: bool = True
    face_down_converts: bool = False
    face_down_grant_converts: bool = True       # granted (non-initial) conversions apply while face down
    must_receive: tuple = ("locked", "sender")  # who the engine makes receive: sender / turn (player) / locked
    skip_fight: tuple = ("can_use", "skills_gone")   # ingredients of the 争夺阶段 skip predicate
    skip_dying: tuple = ("skills_gone",)              # ingredients of the 濒死求澄清 skip predicate
    lock_self: bool = True        # the sender may name himself as the player his message locks
    #: the default send rules, in force where no skill of the group is (send context: ``dir``, ``lock_count``,
    #: ``message_dir``, ``message_lockable``): server SendMessageSkill.kt canSendCard
    send_dir: Node = field(default_factory=lambda: _parse_default("dir == message_dir"))
    send_lock: Node = field(default_factory=lambda: _parse_default("lock_count <= 1 and (lock_count == 0 or "
                                                                    "message_lockable)"))
    send_to_self: bool = False    # the sender may be the first stop of his own message
    loc: Loc | None = None
    key_locs: dict = field(default_factory=dict)

    def at(self, key: str) -> Loc | None:
        return self.key_locs.get(key, self.loc)


def _parse_default(text: str) -> Node:
    from .expr import parse
    return parse(text)


#: the [rules] key of each send group's default rule (in force where no skill of the group is); a group without one
#: allows any card offered (server SendMessageSkill.kt canSendCard)
SEND_DEFAULT_KEYS = {"SendMessageDirectionSkill": "send_dir", "SendMessageCanLockSkill": "send_lock"}


@dataclass(frozen=True)
class Intends:
    """A generic finding an intent documents as designed: every finding of a check code (``BN001``), those
    of the code that involve one rule (``BN002@TouTian``), or one finding by its id (``CV002-fb7e4adcce``)."""
    check: str
    rule: str = ""            # a rule, card or character id the finding must involve ('' = any)
    finding: str = ""         # a whole finding id ('' = any finding of the check)

    def __str__(self) -> str:
        return self.finding or (f"{self.check}@{self.rule}" if self.rule else self.check)

    def matches(self, check: str, finding_id: str, rule_ids) -> bool:
        if self.finding:
            return finding_id.lower() == self.finding.lower()
        return check == self.check and (not self.rule or self.rule in rule_ids)


@dataclass
class Intent:
    """An ``[[intent]]``: a promise of the rule book, written as a question of the ask language
    (``docs/query-language.md``) that must be answered *yes*; ``skillproof check`` proves it (family
    ``intent``). The claim is parsed by the checks layer (``checks/intents.py``), not here. An intent with no
    claim is a citation: the rule-book passage that documents the generic findings it ``intends`` as designed."""
    id: str
    claim: str
    source: str               # the rule book: "FILE › HEADING › SKILL", or the skill text it paraphrases
    loc: Loc
    severity: str = "warning"   # of the finding when the catalogue breaks it
    text: str = ""            # the promise in our own words
    intends: tuple = ()       # of Intends: generic findings it documents as designed behaviour
    key_locs: dict = field(default_factory=dict)

    def at(self, key: str) -> Loc:
        return self.key_locs.get(key, self.loc)


@dataclass
class Catalogue:
    rules: Rules
    cards: dict               # id -> Card (file order)
    characters: dict          # id -> Character
    skills: dict              # id -> Rule (skills and grants)
    files: tuple = ()
    suppressions: tuple = ()  # inline `# skillproof: ignore[CODE] reason` comments (model/suppress.py)
    intents: tuple = ()       # of Intent, in id order

    # ------------------------------------------------------------------ derived views (cheap, cached)
    def __post_init__(self):
        self._owners: dict[str, list[str]] = {}
        for c in self.characters.values():
            for s in c.skills:
                self._owners.setdefault(s, []).append(c.id)
        self._sites: dict[str, list[Give]] = {}
        for src in list(self.skills.values()) + list(self.cards.values()):
            for g in src.gives:
                self._sites.setdefault(g.grant, []).append(g)

    @property
    def initial_skills(self) -> list[Rule]:
        return [r for r in self.skills.values() if not r.is_grant]

    @property
    def grants(self) -> list[Rule]:
        return [r for r in self.skills.values() if r.is_grant]

    def owners(self, rule_id: str) -> list[str]:
        """Characters that start with this skill."""
        return self._owners.get(rule_id, [])

    def sites(self, grant_id: str) -> list[Give]:
        """Every place that hands out this grant."""
        return self._sites.get(grant_id, [])

    def invalidation_sites(self) -> list[Give]:
        """Every place that hands out an InvalidSkill (a grant of kind InvalidSkill)."""
        return [g for r in self.grants if "InvalidSkill" in r.closure for g in self.sites(r.id)]

    def giver_name(self, give: Give) -> str:
        if give.giver_is_card:
            return f"【{self.cards[give.giver].name}】"
        return self.skills[give.giver].label

    def name_of(self, ident: str) -> str:
        for table in (self.skills, self.cards, self.characters):
            if ident in table:
                return table[ident].name
        return ident
