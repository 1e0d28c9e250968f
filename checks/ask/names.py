"""The names a question may use: cards, characters and rules (skills, grants) by id, Chinese name,
alias or spelled pinyin; phases, send groups and directions; the nearest valid name for a misspelt one."""
from __future__ import annotations

from skillproof.model.catalogue import Catalogue
from skillproof.model.msg import Msg
from skillproof.model.names import nearest

PHASES = {"fight": ("fight", "争夺阶段", "争夺", "fight_phase"),
          "dying": ("dying", "濒死求澄清", "濒死", "求澄清", "濒死阶段")}
GROUPS = {"SendMessageDirectionSkill": ("direction", "dir", "方向", "传出方向", "SendMessageDirectionSkill"),
          "SendMessageCanLockSkill": ("lock", "locking", "锁定", "SendMessageCanLockSkill"),
          "SendMessageCardSkill": ("card", "which_card", "传出哪张情报", "SendMessageCardSkill")}
DIRS = {"up": ("up", "上"), "left": ("left", "左"), "right": ("right", "右")}
#: the windows of a turn (model.turn) as a question names them, each spelling a phrase of words (the
#: tokens of the question, lower case; '-' is a token of its own); longest phrases are tried first
WINDOW_PHRASES = {
    "draw": ("draw phase", "摸牌阶段"),
    "main": ("main phase", "main", "出牌阶段"),
    "send_start": ("send - phase start", "send phase start", "send_start", "start of the send phase",
                   "传递阶段开始时", "传递阶段开始"),
    "send": ("send phase", "send", "传递阶段"),
    "fight": ("fight phase", "fight", "争夺阶段", "争夺"),
    "receive": ("receive phase", "接收阶段"),
    "dying": ("dying", "濒死求澄清", "濒死", "求澄清", "dying phase"),
}


def name_keys(s: str) -> set[str]:
    """The spellings a name is looked up by: lower case, without ``_`` / spaces / ``-``, without ``·``."""
    k = s.strip().lower()
    out = {k, k.replace("_", "").replace(" ", "").replace("-", ""), k.replace("·", "").replace("・", "")}
    return {x for x in out if x}


class Names:
    """Every name a query may use for a card, character or rule (skill or grant): ids, Chinese names,
    aliases, and the pinyin spelled by the id (``YingBian`` → ``yingbian``, ``sp_li_ning_yu`` →
    ``spliningyu``), case-insensitively."""

    def __init__(self, cat: Catalogue):
        self.cat = cat
        self.index: dict[str, dict[str, str]] = {"card": {}, "character": {}, "rule": {}}
        self.shown: dict[str, dict[str, str]] = {"card": {}, "character": {}, "rule": {}}
        for kind, table in (("card", cat.cards), ("character", cat.characters), ("rule", cat.skills)):
            for ent in table.values():
                for w in (ent.id, ent.name, *getattr(ent, "aliases", ())):
                    for k in name_keys(w):
                        self.index[kind].setdefault(k, ent.id)
                    self.shown[kind].setdefault(w, ent.id)
        self.words: set[str] = set()
        for d in self.index.values():
            self.words.update(d)

    def find(self, kind: str, word: str) -> str | None:
        for k in name_keys(word):
            if k in self.index[kind]:
                return self.index[kind][k]
        return None

    def suggest(self, kinds, word: str) -> Msg | None:
        """The nearest name of ``kinds`` to ``word`` (None: nothing near): "JieHuo (截获)" / "'JieHuo'（截获）"."""
        cands: dict[str, str] = {}
        for kind in kinds:
            for shown in self.shown[kind]:
                cands.setdefault(shown, shown)
        n = nearest(word, cands)
        if n is None:
            return None
        for kind in kinds:
            ident = self.shown[kind].get(n)
            if ident:
                name = self.cat.name_of(ident)
                return Msg("'{n}'", "{n}", n=name) if name == n else Msg("'{n}'（{name}）", "{n} ({name})", n=n, name=name)
        return Msg("'{n}'", "{n}", n=n)

