"""The documented state vocabulary that catalogue expressions may read.

Each name has a type and a one-line meaning. Which names an expression may use depends on where it
stands (its *context*): a send rule sees the declared direction, a draw rule sees the running count, an
effect sees the winners so far. Unknown names are load errors, with the nearest valid name suggested.
"""
from __future__ import annotations

BOOL, INT, CARD, COLOUR, DIRECTION, CHARACTER, PLAYER = (
    "bool", "int", "card", "colour", "direction", "character", "player")


def set_of(t: str) -> str:
    return f"set<{t}>"


def elem_of(t: str) -> str | None:
    return t[4:-1] if t.startswith("set<") else None


COLOURS = ("red", "blue", "black", "none")          # identity colours; "none" = 无身份 (Has_No_Identity)
MESSAGE_COLOURS = ("red", "blue", "black")
DIRECTIONS = ("up", "left", "right")

#: bounds of integer attributes in symbolic states (and in random concrete ones)
INT_BOUNDS = {"hand_count": (0, 8), "red_messages": (0, 3), "blue_messages": (0, 3),
              "black_messages": (0, 3), "true_messages": (0, 6), "non_black_messages": (0, 6), "lock_count": (0, 2), "count": (0, 20)}

#: player attributes: name -> (type, meaning)
PLAYER_ATTRS: dict[str, tuple[str, str]] = {
    "alive": (BOOL, "alive"),
    "face_up": (BOOL, "role card face up"),
    "ever_face_up": (BOOL, "has been face up at some time (public roles: always)"),
    "hidden": (BOOL, "the character is a 隐藏角色"),
    "female": (BOOL, "seen as female: face up and a female character (server isFemale)"),
    "male": (BOOL, "seen as male: face up and a male character (server isMale)"),
    "character": (CHARACTER, "the character"),
    "identity": (COLOUR, "identity colour: red, blue, black or none"),
    "hand_count": (INT, "cards in hand"),
    "hand_empty": (BOOL, "no cards in hand"),
    "red_messages": (INT, "red messages in front of the player"),
    "blue_messages": (INT, "blue messages in front of the player"),
    "black_messages": (INT, "black messages in front of the player"),
    "true_messages": (INT, "red or blue messages in front of the player"),
    "non_black_messages": (INT, "messages with no black in front of the player"),
    "my_turn": (BOOL, "it is this player's turn"),
    "is_sender": (BOOL, "this player sent the message now travelling"),
    "locked": (BOOL, "this player is locked by the message"),
    "in_front": (BOOL, "the message is in front of this player"),
    "dying": (BOOL, "this player is dying"),
}
#: attributes only meaningful inside WinSkill / ChangeGameResultSkill effects
EFFECT_ATTRS: dict[str, tuple[str, str]] = {
    "in_winners": (BOOL, "among the winners so far"),
    "in_declared": (BOOL, "among the declared winners so far"),
}
#: self-only names
SELF_ONLY: dict[str, tuple[str, str]] = {
    "used": (BOOL, "this skill has been used this turn"),
    "played": (set_of(CARD), "card types (as declared) the player used this turn"),
}
#: self-only names known only in some contexts (the trace records them for the player a question asks about)
SELF_ONLY_CONTEXTS: dict[str, tuple[str, ...]] = {"played": ("question", "fires", "on")}

GLOBALS: dict[str, tuple[str, str]] = {
    "message": (set_of(COLOUR), "colours of the message card"),
    "message_dir": (DIRECTION, "the arrow on the message card"),
    "message_lockable": (BOOL, "the message card has a lock mark"),
    "dir": (DIRECTION, "send rules: the declared direction"),
    "lock_count": (INT, "send rules: how many players the sender locks"),
    "count": (INT, "draw rules: the draw count so far"),
}

#: context -> (global names allowed, allows effect attrs, allows quantifiers)
CONTEXTS: dict[str, tuple[frozenset[str], bool]] = {
    "fight": (frozenset({"message", "message_dir", "message_lockable"}), False),
    "dying": (frozenset(), False),
    # an ActiveSkill's condition in 出牌阶段 and a MainPhaseSkill's reminder at its end: no message travels then
    "main": (frozenset(), False),
    "remind": (frozenset(), False),
    "when": (frozenset({"message", "message_dir", "message_lockable"}), False),
    "where": (frozenset(), False),
    "receive": (frozenset({"message", "message_dir", "message_lockable"}), False),
    "send": (frozenset({"message", "message_dir", "message_lockable", "dir", "lock_count"}), False),
    "draw": (frozenset({"count"}), False),
    "effect": (frozenset(), True),
    "fires": (frozenset({"message", "message_dir", "message_lockable"}), False),
    "query": (frozenset(GLOBALS), True),
    "question": (frozenset({"message", "message_dir", "message_lockable"}), False),   # a question's 'where'
    # a trigger's guard (``on.when``): the event's players are bound, its values added (model.events)
    "on": (frozenset({"message", "message_dir", "message_lockable"}), False),
    # an effect op's condition or amount (``do``: model.effects): the moment's players are bound, a trigger's
    # event values added
    "do": (frozenset({"message", "message_dir", "message_lockable"}), False),
}
