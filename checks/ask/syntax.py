"""The syntax tree of a question (what parser.py builds): atoms, ``not`` / ``and`` / ``or``, givens, grant
references, ``which``, and the Query holding them."""
from __future__ import annotations

from dataclasses import dataclass, field

from skillproof.model.kinds import SEND_GROUPS as _SEND_GROUPS


@dataclass
class Atom:
    kind: str              # play convert fire banned banned_all receive skip act send_by send_dir draw hold
                           # use invalidated face_up hand where resolve locked fires granted; the table
                           # (checks/ask/table.py): win received fires_on effect
    col: int
    end: int
    cards: tuple = ()      # card ids or None (unknown), e.g. (actual, declared)
    rule: str | None = None
    phase: str | None = None
    group: str | None = None
    value: object = None   # receive value, dir, draw/hand comparison (op, n), where (node); granted: the
                           # GrantRef; use: "again" (used this turn already)
    text: str = ""
    at_end: bool = False   # where: read at the claim's moment, not before the events (收集三张红色情报, 只有两张)


@dataclass
class Effect:
    """What an ``effect`` atom asks an effect to do (parse_effects.py): one of ``ops`` done (model/effects.py), the
    player argument ``args[op]`` of it naming ``who`` (self: the rule's holder or the card's user; other; dying: the
    dying player; a character id; None: anyone), to a card being used ``card`` (cancel), turning a role ``face``,
    with a colour filter among ``colours`` (救: a black message), handing out ``grant``."""
    ops: tuple
    args: dict
    who: str | None = None
    card: str | None = None
    face: str | None = None
    colours: tuple = ()
    grant: str | None = None
    text: str = ""
    dying: bool = False    # 救: the player is the dying one of the moment too
    place: str | None = None   # where a message taken out of an area goes (effects.place_of): 放入 area, 弃置 discard_pile
    n: int | None = None       # how many cards a draw takes (摸两张牌): the op's ``n``
    of_card: str | None = None  # a card of this type moves (威逼能让目标交出平衡吗: the types the op's ``card`` allows)


@dataclass
class Not:
    arg: object
    col: int = 0


@dataclass
class BoolOp:
    op: str                # and | or
    items: list
    col: int = 0


@dataclass
class GrantRef:
    name: str              # the rule or card named
    grants: tuple          # grant ids it may stand for
    sites: tuple           # (Give, ...) it may come from (empty: any site of the grants)
    args: dict             # param -> ("card", id) | ("set", ids) | ("bool", b) | ("int", n) | ("colour", c)
    invalid_option: bool   # the giver can also invalidate (InvalidSkill site)
    invalid_sites: tuple = ()   # those InvalidSkill sites
    sizes: dict = field(default_factory=dict)   # set<card> param -> (op, n): how many cards it holds
    by_self: bool = False  # handed out by the player herself ('from herself')


@dataclass
class Given:
    kind: str              # grant | with | without | claim | where | window | turn_of | after
    col: int
    end: int
    text: str
    grant: GrantRef | None = None
    rule: str | None = None          # with / without: the skill; after: the skill or card
    claim: object = None
    window: str | None = None        # window: the window of the question (model.turn)
    interrupts: str | None = None    # window == "dying": the window the dying interrupts (None: any)
    who: str | None = None           # turn_of: the character whose turn it is
    other: bool = False              # turn_of: another player's turn (not the player's own); claim / where: what
    #                                  another player did or has (a clause opened by 别人: 别人使用截获时)
    ago: int | None = None           # grant / after: handed out this turn (0) or the previous one (1)


@dataclass
class Which:
    kind: str              # conversion | send | draw | receive | params | events | order
    col: int
    cards: tuple = ()
    group: str | None = None
    grant: GrantRef | None = None       # params: the grant whose parameters are enumerated
    combos: list = field(default_factory=list)   # params: [{param: value}] the gives sites allow
    end: int = 0
    rule: str | None = None             # events: the skill whose triggers are told (its 'on' entries)
    rules: tuple = ()                   # order: the two skills whose order on one event is told (order.py)
    event: str | None = None            # order: the event kind the question names (None: every one both answer)


@dataclass
class Query:
    text: str
    mode: str              # exists | always | never | which
    subject: str | None    # character id, or None for anyone
    claim: object = None
    which: Which | None = None
    givens: list = field(default_factory=list)
    subject_col: int = 0
    shown: str = ""        # the claim as the answer says it, when not in the question's words (必须锁定一个人)
    again_in: str | None = None   # 'game': 再次使用 — again at any later moment, not only within the turn (session.py)

    @property
    def windowed(self) -> bool:
        """A window word fixes the moment of the question ("in the main phase", "when someone is dying")."""
        return any(g.kind == "window" for g in self.givens)


def atoms_of(node) -> list[Atom]:
    """The atoms of a claim, left to right."""
    if isinstance(node, Not):
        return atoms_of(node.arg)
    if isinstance(node, BoolOp):
        return [a for x in node.items for a in atoms_of(x)]
    return [node] if node is not None else []



#: the kinds of rule each kind of atom reads (what a question's symbolic state must hold, which of a giver's
#: grants matter to it)
ATOM_KINDS = {
    "play": {"ConvertCardSkill", "CannotPlayCard"}, "convert": {"ConvertCardSkill"}, "fire": {"ConvertCardSkill", "CannotPlayCard"},
    "banned": {"CannotPlayCard"}, "banned_all": {"CannotPlayCard"}, "receive": {"MustReceiveMessage"},
    "skip": {"ActiveSkill", "CannotPlayCard"}, "act": {"ActiveSkill", "CannotPlayCard"},
    "send_by": set(_SEND_GROUPS), "send_dir": set(_SEND_GROUPS), "draw": {"ChangeDrawCardCountSkill"},
    "use": {"ActiveSkill"}, "hold": set(), "invalidated": set(), "face_up": set(), "hand": set(), "where": set(),
    "resolve": {"ConvertCardSkill", "CannotPlayCard", "ActiveSkill"}, "locked": set(), "fires": {"TriggeredSkill"}, "granted": set(),
    "given": set(), "win": set(), "received": set(), "fires_on": set(), "effect": set(),
    "target": set(),
}
