"""The game server's names the extractor relies on: the card types, the protocol's enums and their constants,
the 濒死求澄清 game states, the kind interfaces, the send-group methods and the player properties."""
from __future__ import annotations

import re

from .. import kinds as K


#: the 13 card types of the game, in protocol order, with their names (card names are facts, not code);
#: used for the order of [[card]] and when a card class's toString gives no name
CARD_TABLE = {
    "Cheng_Qing": "澄清", "Shi_Tan": "试探", "Wei_Bi": "威逼", "Li_You": "利诱", "Ping_Heng": "平衡",
    "Po_Yi": "破译", "Jie_Huo": "截获", "Diao_Bao": "调包", "Wu_Dao": "误导", "Feng_Yun_Bian_Huan": "风云变幻",
    "Mi_Ling": "密令", "Diao_Hu_Li_Shan": "调虎离山", "Yu_Qin_Gu_Zong": "欲擒故纵",
}
CARD_ENUM = "card_type"            # protocol enum of card types
COLOUR_ENUM = "color"              # protocol enum of colours (identities and message colours)
DIRECTION_ENUM = "direction"
COLOUR_CONSTS = {"Red": "red", "Blue": "blue", "Black": "black", "Has_No_Identity": "none"}
DIRECTION_CONSTS = {"Up": "up", "Left": "left", "Right": "right"}
#: the server's 濒死求澄清 states: an ActiveSkill whose executeProtocol accepts one is usable while dying
DYING_PHASES = frozenset({"WaitForChengQing", "WaitNextForChengQing"})
#: the game states (FSM classes) a card's canUse accepts → the windows of model.turn they stand at
PHASE_WINDOWS = {"DrawPhase": "draw", "MainPhaseIdle": "main", "SendPhaseStart": "send_start",
                 "SendPhaseIdle": "send", "FightPhaseIdle": "fight", "ReceivePhaseIdle": "receive",
                 "WaitForChengQing": "dying", "WaitNextForChengQing": "dying"}
#: the windows whose actor is one player the game state names (model.turn: the turn player in 出牌阶段 and at the
#: send's start, the player the message is in front of in 传递阶段) → the fields of the state naming that player (the
#: older server's ``MainPhaseIdle.player``); a card's canUse that reads none of them lets anyone use it there
ACTOR_FIELDS = {"main": frozenset({"whoseTurn", "player"}), "send_start": frozenset({"whoseTurn", "player"}),
                "send": frozenset({"inFrontOfWhom"})}
#: the windows an ActiveSkill is used in that its default windows never hold (model.link.default_windows: 出牌阶段 for a
#: MainPhaseSkill, 争夺阶段 and 濒死求澄清 by its conditions): read from the game states its executeProtocol accepts
SKILL_EXTRA_WINDOWS = frozenset({"send_start", "send"})
KIND_NAMES = frozenset(k for k in K.KINDS if k != "Skill")
#: kind -> (catalogue key, server method(s)) for the rule tables translated from a method body
SEND_METHODS = {"SendMessageDirectionSkill": "checkDir", "SendMessageCanLockSkill": "checkCanLock",
                "SendMessageCardSkill": "checkSendCard"}
#: player properties of the server -> vocabulary attributes
PLAYER_PROPS = {"roleFaceUp": "face_up", "alive": "alive", "isFemale": "female", "isMale": "male",
                "hasEverFaceUp": "ever_face_up"}
#: player properties of the server that are the negation of a vocabulary attribute (a public role is one not hidden)
NEGATED_PLAYER_PROPS = {"isPublicRole": "hidden"}
_CARD_ID = re.compile(r"[A-Z][a-z0-9]*(?:_[A-Z][a-z0-9]*)*\Z")
_LIST_FUNS = {"listOf", "mutableListOf", "arrayListOf", "setOf", "mutableSetOf", "hashSetOf", "listOfNotNull"}
_EMPTY_FUNS = {"emptyList", "emptySet"}
