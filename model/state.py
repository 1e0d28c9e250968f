"""Concrete game states: what the reference interpreter decides on, and what a witness replays.

A state is one moment of one turn: the seats of the game (a character each), every seat's skills in
acquisition order (initial skills first, then what was granted, as the server's ``player.skills`` list),
and the message in flight. States round-trip through plain JSON dicts (``to_dict`` / ``from_dict``), which
is the scenario-file format of `skillproof replay`.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields

_FIELD_NAMES: dict = {}


def fast_replace(obj, **changes):
    """``dataclasses.replace`` for the plain dataclasses of the states (every field set by ``__init__``, no
    ``__post_init__``, no slots): a new object of the same class holding the same field values but ``changes`` —
    and nothing else (an attribute set on the object that is not a field, a memo, is not carried over, as with
    ``replace``). Without the keyword call of ``__init__``: the interpreter and the game twin copy states at every
    step."""
    cls = type(obj)
    names = _FIELD_NAMES.get(cls)
    if names is None:
        assert not hasattr(cls, "__post_init__") and all(f.init for f in fields(cls)), cls
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))
    od = obj.__dict__
    out = cls.__new__(cls)
    d = out.__dict__
    for n in names:
        d[n] = changes[n] if n in changes else od[n]
    return out


@dataclass
class SkillInst:
    """One entry of a player's skill list."""
    rule: str                     # a [[skill]] or [[grant]] id
    args: dict = field(default_factory=dict)   # grant parameters: name -> card id / list / bool / colour
    invalid: bool = False         # wrapped in an InvalidSkill (only initial skills can be)
    used: bool = False            # used this turn
    giver: int | None = None      # grants: the seat that handed it out
    site: str | None = None       # grants: which gives site ("<giver rule or card>#<index>")
    turns_ago: int = 0            # grants: handed out this turn (0) or that many turns before
    at: str | None = None         # grants: the window it was handed out in (model.turn); None: untimed
    event: int | None = field(default=None, compare=False)   # grants: index of the trace event (not saved)

    def to_dict(self) -> dict:
        d: dict = {"rule": self.rule}
        if self.args:
            d["args"] = {k: (sorted(v) if isinstance(v, (set, frozenset, tuple, list)) else v)
                         for k, v in sorted(self.args.items())}
        if self.invalid:
            d["invalid"] = True
        if self.used:
            d["used"] = True
        if self.giver is not None:
            d["giver"] = self.giver
        if self.site is not None:
            d["site"] = self.site
        if self.turns_ago:
            d["turns_ago"] = self.turns_ago
        if self.at is not None:
            d["at"] = self.at
        return d

    @staticmethod
    def from_dict(d: dict) -> "SkillInst":
        args = {k: (tuple(v) if isinstance(v, list) else v) for k, v in d.get("args", {}).items()}
        return SkillInst(d["rule"], args, bool(d.get("invalid", False)), bool(d.get("used", False)),
                         d.get("giver"), d.get("site"), int(d.get("turns_ago", 0)), d.get("at"))


@dataclass
class Seat:
    character: str
    alive: bool = True
    face_up: bool = True
    ever_face_up: bool = True
    identity: str = "red"
    hand_count: int = 0
    red_messages: int = 0
    blue_messages: int = 0
    black_messages: int = 0
    true_messages: int = 0
    non_black_messages: int = 0
    locked: bool = False
    skills: list = field(default_factory=list)      # of SkillInst
    invalidated: bool = False     # an InvalidSkill was dealt to this seat this turn (its initial skills wrapped)
    played: frozenset = frozenset()   # card types (as declared) the seat used this turn (trace 'play' events)
    # the table (model.interp.table): the message area exactly, as (colour class, count) pairs — None: only the
    # five counts above are known; the secret task of a black identity; lost (out of the game, e.g. no card to
    # send: phase/SendPhaseStart.kt) rather than dead
    area: tuple | None = None
    task: str | None = None
    lost: bool = False

    INT_FIELDS = ("hand_count", "red_messages", "blue_messages", "black_messages", "true_messages",
                  "non_black_messages")

    def to_dict(self) -> dict:
        d = {"character": self.character, "alive": self.alive, "face_up": self.face_up,
             "ever_face_up": self.ever_face_up, "identity": self.identity}
        for f in self.INT_FIELDS:
            d[f] = getattr(self, f)
        d["locked"] = self.locked
        d["skills"] = [s.to_dict() for s in self.skills]
        if self.invalidated:
            d["invalidated"] = True
        if self.played:
            d["played"] = sorted(self.played)
        if self.area is not None:
            d["area"] = {c: n for c, n in self.area}
        if self.task is not None:
            d["task"] = self.task
        if self.lost:
            d["lost"] = True
        return d

    @staticmethod
    def from_dict(d: dict) -> "Seat":
        s = Seat(character=d["character"])
        for k in ("alive", "face_up", "ever_face_up", "locked"):
            if k in d:
                setattr(s, k, bool(d[k]))
        if "identity" in d:
            s.identity = d["identity"]
        for f in Seat.INT_FIELDS:
            if f in d:
                setattr(s, f, int(d[f]))
        s.skills = [SkillInst.from_dict(x) for x in d.get("skills", [])]
        s.invalidated = bool(d.get("invalidated", False)) or any(i.invalid for i in s.skills)
        s.played = frozenset(d.get("played", ()))
        if isinstance(d.get("area"), dict):
            s.area = tuple(sorted((str(c), int(n)) for c, n in d["area"].items() if int(n)))
        s.task = d.get("task")
        s.lost = bool(d.get("lost", False))
        return s


@dataclass
class State:
    seats: list                              # of Seat; seat 0 is "the player" a question is about
    turn: int = 0                            # whose turn it is
    sender: int | None = None                # who sent the message now travelling
    in_front: int | None = None              # in front of whom the message is
    dying: int | None = None                 # who is dying
    message: frozenset = frozenset()         # colours of the message card
    message_dir: str = "left"
    message_lockable: bool = False
    unknowns: dict = field(default_factory=dict)   # values of `unknown` conditions, by key
    window: str | None = None                # the window of the turn now (model.turn); None: untimed
    interrupted: str | None = None           # window == "dying": the window the dying interrupts
    turn_sender: int | None = None           # who sends this turn's message (the turn player, or 密令's target)
    # the table's message (model.interp.path): the direction it was sent in (its arrow is message_dir), face up,
    # whether this turn's message was sent and received; the game's end (model.interp.win): who declared a win
    # and who won (None: the game goes on)
    message_dir_sent: str | None = None
    message_face_up: bool = False
    message_sent: bool = False
    message_received: bool = False
    declared: frozenset | None = None
    winners: frozenset | None = None
    trace: object = field(default=None, compare=False, repr=False)   # the Trace that led here (not saved)

    def copy(self) -> "State":
        return fast_replace(self, seats=[fast_replace(s, skills=[fast_replace(k, args=dict(k.args)) for k in s.skills])
                                         for s in self.seats], unknowns=dict(self.unknowns))

    def to_dict(self) -> dict:
        return {"seats": [s.to_dict() for s in self.seats], "turn": self.turn, "sender": self.sender,
                "in_front": self.in_front, "dying": self.dying, "message": sorted(self.message),
                "message_dir": self.message_dir, "message_lockable": self.message_lockable,
                "unknowns": dict(sorted(self.unknowns.items())),
                **({"window": self.window} if self.window is not None else {}),
                **({"interrupted": self.interrupted} if self.interrupted is not None else {}),
                **({"turn_sender": self.turn_sender} if self.turn_sender is not None else {}),
                **{k: getattr(self, k) for k in ("message_dir_sent",) if getattr(self, k) is not None},
                **{k: True for k in ("message_face_up", "message_sent", "message_received") if getattr(self, k)},
                **{k: sorted(getattr(self, k)) for k in ("declared", "winners") if getattr(self, k) is not None}}

    @staticmethod
    def from_dict(d: dict) -> "State":
        return State(seats=[Seat.from_dict(x) for x in d["seats"]], turn=int(d.get("turn", 0)),
                     sender=d.get("sender"), in_front=d.get("in_front"), dying=d.get("dying"),
                     message=frozenset(d.get("message", ())), message_dir=d.get("message_dir", "left"),
                     message_lockable=bool(d.get("message_lockable", False)),
                     unknowns=dict(d.get("unknowns", {})), window=d.get("window"),
                     interrupted=d.get("interrupted"), turn_sender=d.get("turn_sender"),
                     message_dir_sent=d.get("message_dir_sent"), message_face_up=bool(d.get("message_face_up")),
                     message_sent=bool(d.get("message_sent")), message_received=bool(d.get("message_received")),
                     declared=frozenset(d["declared"]) if isinstance(d.get("declared"), list) else None,
                     winners=frozenset(d["winners"]) if isinstance(d.get("winners"), list) else None)

    def sender_of_turn(self) -> int:
        """Who sends (or sent) this turn's message: recorded by a trace, else the message's sender, else
        the turn player."""
        if self.turn_sender is not None:
            return self.turn_sender
        return self.sender if self.sender is not None else self.turn
