"""Designers' questions: the query language of `skillproof ask`, its compiler to z3 and its answers.

A query names a player (a character, or anyone), a claim about one decision of the rules (can a card be
played as another, is it banned, must they receive, are they skipped, which send rule is in force, how
many cards they draw …) and givens (skills held, grants in force with or without their parameters,
invalidation, any condition of the catalogue's condition language). Any detail left out, or written
``?``, is left to the solver. Three forms:

* ``exists``/``can`` (default) — find a reachable state where the claim holds: a minimal witness;
* ``always`` — prove the claim for every reachable state (within the search bounds), or show a
  counterexample; ``never`` — prove it never holds, or show where it does;
* ``which`` — every answer a decision can give (which conversion fires, which send rule is in force,
  the draw count, the receive obligation), each with a witness.

The grammar and vocabulary are documented in docs/query-language.md. Parsed by us — never ``eval`` —
with errors that carry the column of the offending word and the nearest valid name.

Answers come from ``Session.ask``: a ``Result`` with ``answer`` yes / no / unknown, the witness (state,
decide-form questions and the interpreter's answers, i.e. a scenario file), the interpreter's step-by-step
narration, and for proofs the minimal unsat core over the named reachability constraints and the
query's own givens, each mapped to catalogue lines. Every witness is replayed through the reference
interpreter before it is shown.
"""
from __future__ import annotations

import itertools
import re
import time
import unicodedata
from dataclasses import dataclass, field

import z3

from skillproof.model import expr as E
from skillproof.model import interpreter as I
from skillproof.model import narrate as N
from skillproof.model import vocab as V
from skillproof.model.catalogue import Catalogue, Ref
from skillproof.model.kinds import SEND_GROUPS
from skillproof.model.names import nearest
from skillproof.model.state import State

from . import encode as X

DEFAULT_SEATS = 3
DEFAULT_GRANTS = 2
DEFAULT_TIMEOUT_MS = 10000
MAX_VALUES = 8


# ============================================================================================ errors
class QueryError(Exception):
    """A bad query: ``col``/``end`` are 0-based offsets of the offending word in the query text."""

    def __init__(self, msg: str, col: int = 0, end: int | None = None):
        super().__init__(msg)
        self.msg = msg
        self.col = col
        self.end = end if end is not None else col + 1

    def line(self, text: str | None = None) -> str:
        """One located line: ``query:1:COL: message``."""
        word = ""
        if text is not None and 0 <= self.col < len(text):
            word = f" (at '{text[self.col:self.end].strip() or text[self.col]}')"
        return f"query:1:{self.col + 1}: {self.msg}{word}"

    def caret(self, text: str, prefix: str = "") -> list[str]:
        """The query and a caret under the offending word (East Asian wide characters count double)."""
        pad = display_width(text[:self.col])
        width = max(1, display_width(text[self.col:self.end]))
        return [prefix + text, prefix + " " * pad + "^" * width]


def display_width(s: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in s)


# ============================================================================================ names
PHASES = {"fight": ("fight", "争夺阶段", "争夺", "fight_phase"),
          "dying": ("dying", "濒死求澄清", "濒死", "求澄清", "濒死阶段")}
PHASE_ZH = {"fight": "争夺阶段", "dying": "濒死求澄清"}
GROUPS = {"SendMessageDirectionSkill": ("direction", "dir", "方向", "传出方向", "SendMessageDirectionSkill"),
          "SendMessageCanLockSkill": ("lock", "locking", "锁定", "SendMessageCanLockSkill"),
          "SendMessageCardSkill": ("card", "which_card", "传出哪张情报", "SendMessageCardSkill")}
GROUP_EN = {"SendMessageDirectionSkill": "direction", "SendMessageCanLockSkill": "lock",
            "SendMessageCardSkill": "card"}
DIRS = {"up": ("up", "上"), "left": ("left", "左"), "right": ("right", "右")}


def _keys(s: str) -> set[str]:
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
                    for k in _keys(w):
                        self.index[kind].setdefault(k, ent.id)
                    self.shown[kind].setdefault(w, ent.id)
        self.words: set[str] = set()
        for d in self.index.values():
            self.words.update(d)

    def find(self, kind: str, word: str) -> str | None:
        for k in _keys(word):
            if k in self.index[kind]:
                return self.index[kind][k]
        return None

    def suggest(self, kinds, word: str) -> str | None:
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
                return name if name == n else f"{n} ({name})"
        return n


# ============================================================================================ lexer
@dataclass
class Tok:
    kind: str          # word num op arrow end
    text: str
    col: int
    end: int
    kw: str = ""       # canonical keyword, if the word is one


_TOK = re.compile(r"""
    (?P<ws>\s+)
  | (?P<arrow>->|→|=>|⇒)
  | (?P<op>==|!=|<=|>=|[<>=(){},?;，（）？；、])
  | (?P<poss>['’]s(?![A-Za-z]))
  | (?P<word>[A-Za-z0-9_\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff·・]+)
  | (?P<other>.)
""", re.VERBOSE)
_FULLWIDTH = {"，": ",", "（": "(", "）": ")", "？": "?", "；": ",", ";": ",", "、": ","}

#: keyword spellings → canonical keyword. Multi-word phrases are recognised by the parser.
KEYWORDS: dict[str, str] = {}
for _canon, _words in {
    "exists": ("can", "could", "exists", "exist", "does", "do", "is", "are", "能否", "能不能", "可否", "能", "可以",
               "是否", "会不会", "会"),
    "always": ("always", "总是", "一定", "必然", "始终"),
    "never": ("never", "从不", "绝不", "永远不", "不可能"),
    "cannot_mode": ("cannot", "can't", "cant"),
    "which": ("which", "what", "哪个", "哪些", "什么"),
    "anyone": ("anyone", "anybody", "someone", "somebody", "任何人", "任意角色", "有人", "某人", "玩家", "player",
               "players"),
    "play": ("play", "plays", "playing", "played", "get", "gets", "打出", "出"),
    "use": ("use", "uses", "using", "used", "使用", "用"),
    "as": ("as", "当作", "当成", "当", "作为"),
    "convert": ("convert", "converts", "converted", "turn", "turns", "转化"),
    "to": ("to", "into"),
    "fire": ("fire", "fires", "firing", "fired", "发动"),
    "for": ("for",),
    "banned": ("banned", "ban", "bans", "banning", "forbidden", "被禁", "禁止", "禁"),
    "from": ("from", "on", "of", "by"),
    "must": ("must", "has_to", "必须"),
    "receive": ("receive", "receives", "receiving", "accept", "接收", "收下"),
    "cannot": ("cannot", "can't", "cant", "不能"),
    "may": ("may", "可选"),
    "choose": ("choose", "decline", "choice", "free", "选择"),
    "skipped": ("skipped", "skip", "skips", "跳过"),
    "act": ("act", "acts", "行动"),
    "in": ("in", "during", "在"),
    "send": ("send", "sends", "sending", "传出", "传"),
    "rule": ("rule", "rules", "规则"),
    "default": ("default", "默认"),
    "locking": ("locking", "locks", "lock_count"),
    "draw": ("draw", "draws", "drawing", "摸", "摸牌"),
    "count": ("count", "number", "数", "数量"),
    "hold": ("hold", "holds", "holding", "have", "has", "having", "持有", "拥有"),
    "cards": ("cards", "card_in_hand", "hand_cards", "手牌"),
    "hand": ("hand", "hand_count"),
    "invalidated": ("invalidated", "invalid", "被无效", "无效"),
    "face": ("face",),
    "up": ("up",),
    "down": ("down",),
    "face_up": ("face_up", "faceup", "正面朝上", "翻开"),
    "face_down": ("face_down", "facedown", "背面朝上", "盖着"),
    "with": ("with", "带着"),
    "without": ("without", "没有"),
    "under": ("under", "受"),
    "while": ("while", "当"),
    "if": ("if", "when", "given", "after", "如果", "若"),
    "where": ("where", "such_that"),
    "declares": ("declares", "declare", "declared", "declaring", "宣言", "宣布", "names", "named"),
    "active": ("active", "effective", "生效"),
    "and": ("and", "并且", "且", "和"),
    "or": ("or", "或", "或者"),
    "not": ("not", "no", "不"),
    "all": ("all", "everything", "every", "any", "全部", "所有"),
    "more": ("more", "greater"),
    "less": ("less", "fewer"),
    "than": ("than",),
    "least": ("least",),
    "most": ("most",),
    "at": ("at",),
    "exactly": ("exactly",),
    "conversion": ("conversion", "conversions", "转化技能"),
    "true": ("true", "yes"),
    "false": ("false",),
    "filler": ("still", "ever", "be", "a", "an", "the", "she", "he", "they", "it", "her", "his", "their",
               "does", "do", "effect", "吗", "呢", "了", "的", "还", "仍", "仍然", "还能", "把", "将", "被", "时"),
    "into": ("into",),
}.items():
    for _w in _words:
        KEYWORDS.setdefault(_w.lower(), _canon)
# words that may be keywords or names / parts of phrases: resolved by the parser from their text
KEYWORDS["to"] = "to"
KEYWORDS["into"] = "to"
KEYWORDS["does"] = "filler"
KEYWORDS["do"] = "filler"
KEYWORDS["is"] = "is"
KEYWORDS["are"] = "is"
KEYWORDS["on"] = "from"

GIVEN_KWS = ("with", "without", "under", "while", "if", "where")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def tokenize(text: str, names: Names) -> list[Tok]:
    known = names.words | {k for k in KEYWORDS if _CJK.search(k)}
    for vals in list(PHASES.values()) + list(GROUPS.values()) + list(DIRS.values()):
        known.update(v.lower() for v in vals)
    out: list[Tok] = []
    i = 0
    while i < len(text):
        m = _TOK.match(text, i)
        kind = m.lastgroup
        t = m.group()
        if kind == "word":
            for col, w in _segment(t, m.start(), known):
                out.append(Tok("num" if w.isdigit() else "word", w, col, col + len(w),
                               KEYWORDS.get(w.lower(), "")))
        elif kind == "poss":
            pass                                   # possessive 's: "强令's ban"
        elif kind == "arrow":
            out.append(Tok("arrow", "→", m.start(), m.end()))
        elif kind in ("op", "other"):
            out.append(Tok("op" if kind == "op" else "other", _FULLWIDTH.get(t, t), m.start(), m.end()))
        i = m.end()
    out.append(Tok("end", "", len(text), len(text)))
    return out


def _segment(word: str, col: int, known: set) -> list[tuple[int, str]]:
    """A word that is not a name or keyword as a whole, and holds Chinese characters, is split into the
    longest known names/keywords from the left ("截获当作误导" → 截获 当作 误导)."""
    if word.lower() in known or word.lower() in KEYWORDS or not _CJK.search(word) or \
            any(k in known for k in _keys(word)):
        return [(col, word)]
    out, i, rest_start = [], 0, None
    while i < len(word):
        best = 0
        for j in range(len(word), i, -1):
            if word[i:j].lower() in known or word[i:j].lower() in KEYWORDS:
                best = j
                break
        if best:
            if rest_start is not None:
                out.append((col + rest_start, word[rest_start:i]))
                rest_start = None
            out.append((col + i, word[i:best]))
            i = best
        else:
            if rest_start is None:
                rest_start = i
            i += 1
    if rest_start is not None or any(w.lower() not in known and w.lower() not in KEYWORDS for _, w in out):
        return [(col, word)]             # not all known: keep the word whole, for a clear error message
    return out


# ============================================================================================ AST
@dataclass
class Atom:
    kind: str              # play convert fire banned banned_all receive skip act send_by send_dir draw hold
                           # use invalidated face_up hand where
    col: int
    end: int
    cards: tuple = ()      # card ids or None (unknown), e.g. (actual, declared)
    rule: str | None = None
    phase: str | None = None
    group: str | None = None
    value: object = None   # receive value, dir, draw/hand comparison (op, n), where (node)
    text: str = ""


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


@dataclass
class Given:
    kind: str              # grant | with | without | claim | where
    col: int
    end: int
    text: str
    grant: GrantRef | None = None
    rule: str | None = None
    claim: object = None


@dataclass
class Which:
    kind: str              # conversion | send | draw | receive | params
    col: int
    cards: tuple = ()
    group: str | None = None
    grant: GrantRef | None = None       # params: the grant whose parameters are enumerated
    combos: list = field(default_factory=list)   # params: [{param: value}] the gives sites allow
    end: int = 0


@dataclass
class Query:
    text: str
    mode: str              # exists | always | never | which
    subject: str | None    # character id, or None for anyone
    claim: object = None
    which: Which | None = None
    givens: list = field(default_factory=list)
    subject_col: int = 0


# ============================================================================================ parser
class Parser:
    def __init__(self, cat: Catalogue, text: str, names: Names | None = None):
        self.cat = cat
        self.text = text
        self.names = names or Names(cat)
        self.toks = tokenize(text, self.names)
        self.i = 0

    # ---- token helpers
    @property
    def tok(self) -> Tok:
        return self.toks[self.i]

    def peek(self, k: int = 1) -> Tok:
        return self.toks[min(self.i + k, len(self.toks) - 1)]

    def take(self) -> Tok:
        t = self.toks[self.i]
        if t.kind != "end":
            self.i += 1
        return t

    def at(self, *kws) -> bool:
        return self.tok.kind == "word" and self.tok.kw in kws

    def at_op(self, *ops) -> bool:
        return self.tok.kind in ("op", "arrow") and self.tok.text in ops

    def prev_end(self) -> int:
        """End of the last word taken, not counting trailing filler words."""
        j = self.i - 1
        while j > 0 and self.toks[j].kind == "word" and self.toks[j].kw == "filler":
            j -= 1
        return self.toks[max(j, 0)].end

    def skip_fillers(self):
        while self.at("filler"):
            self.take()

    def error(self, msg: str, tok: Tok | None = None):
        t = tok or self.tok
        raise QueryError(msg, t.col, max(t.end, t.col + 1))

    def found(self, t: Tok | None = None) -> str:
        t = t or self.tok
        return "the end of the query" if t.kind == "end" else f"'{t.text}'"

    # ---- names
    def resolve(self, t: Tok, kinds) -> tuple[str, str] | None:
        if t.kind not in ("word", "num"):
            return None
        for kind in kinds:
            ident = self.names.find(kind, t.text)
            if ident is not None:
                return kind, ident
        return None

    def name_error(self, t: Tok, what: str, kinds):
        if t.kind == "end":
            self.error(f"expected {what}, found the end of the query", t)
        sug = self.names.suggest(kinds, t.text) if t.kind == "word" else None
        self.error(f"unknown {what} '{t.text}'" + (f" — did you mean {sug}?" if sug else ""), t)

    def card(self, allow_unknown: bool = True) -> str | None:
        self.skip_fillers()
        t = self.tok
        if allow_unknown and self.at_op("?"):            # a card is expected here: '?' is "some card"
            self.take()
            return None
        r = self.resolve(t, ("card",))
        if r is None:
            if allow_unknown and t.kind == "word" and t.text.lower() in ("anything", "something", "any_card"):
                self.take()
                return None
            other = self.resolve(t, ("rule", "character"))
            if other:
                self.error(f"expected a card, but '{t.text}' is a {'skill' if other[0] == 'rule' else 'character'}", t)
            self.name_error(t, "card", ("card",))
        self.take()
        return r[1]

    def _is_final_q(self) -> bool:
        return self.tok.text == "?" and all(t.kind == "end" or t.text == "?" for t in self.toks[self.i + 1:])

    def rule(self, what: str = "skill") -> str:
        self.skip_fillers()
        t = self.tok
        r = self.resolve(t, ("rule",))
        if r is None:
            other = self.resolve(t, ("card", "character"))
            if other:
                self.error(f"expected a {what}, but '{t.text}' is a {other[0]}", t)
            self.name_error(t, what, ("rule",))
        self.take()
        return r[1]

    def phase(self) -> str:
        self.skip_fillers()
        if self.at("in"):
            self.take()
        self.skip_fillers()
        t = self.tok
        for p, words in PHASES.items():
            if t.text.lower() in words or t.text in words:
                self.take()
                if self.tok.text.lower() in ("phase", "阶段"):
                    self.take()
                return p
        n = nearest(t.text, [w for ws in PHASES.values() for w in ws]) if t.kind == "word" else None
        self.error(f"expected a phase (争夺阶段 or 濒死求澄清), found {self.found(t)}"
                   + (f" — did you mean {n}?" if n else ""), t)

    def group(self) -> str | None:
        t = self.tok
        for g, words in GROUPS.items():
            if t.text.lower() in [w.lower() for w in words]:
                self.take()
                return g
        return None

    def direction(self) -> str | None:
        t = self.tok
        for d, words in DIRS.items():
            if t.text.lower() in words:
                self.take()
                return d
        return None

    def number(self) -> int:
        t = self.tok
        if t.kind != "num":
            self.error(f"expected a number, found {self.found(t)}", t)
        self.take()
        return int(t.text)

    def comparison(self) -> tuple[str, int]:
        """``N`` | ``== N`` | ``> N`` | ``more than N`` | ``at least N`` | ``exactly N`` …"""
        self.skip_fillers()
        ops = {"==": "==", "=": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}
        if self.tok.kind == "op" and self.tok.text in ops:
            op = ops[self.take().text]
            return op, self.number()
        if self.at("more", "less"):
            op = ">" if self.take().kw == "more" else "<"
            if self.at("than"):
                self.take()
            return op, self.number()
        if self.at("at"):
            self.take()
            if self.at("least", "most"):
                op = ">=" if self.take().kw == "least" else "<="
                return op, self.number()
            self.error(f"expected 'at least' or 'at most', found {self.found()}")
        if self.at("exactly"):
            self.take()
        return "==", self.number()

    # ---- the query
    def parse(self) -> Query:
        q = Query(self.text, "exists", None)
        self.skip_fillers()
        while self.at(*GIVEN_KWS):
            q.givens.append(self.given())
            self.skip_sep()
        mode = self.mode()
        if mode == "which_draw":                  # "how many cards does 小九 draw"
            mode = "which"
            self.toks[self.i - 1].kw = "draw"
            self.i -= 1
        if mode is not None:
            q.mode = mode
        if q.mode == "which":
            q.which = self.which(q)
        else:
            self.subject(q)
            if mode is None:
                m = self.mode()
                if m == "which":
                    self.error("'which' must start the question", self.toks[self.i - 1])
                if m is not None:
                    q.mode = m
            while self.at("with", "without", "under"):      # "can a player under 强令's ban … play …"
                q.givens.append(self.given())
                self.skip_sep()
            if self.at("cannot_mode") and not (self.peek().kw == "receive"):
                self.take()
                q.mode = "never" if q.mode == "exists" else q.mode
            q.claim = self.claim()
        while self.tok.kind != "end":
            if self.skip_sep():
                continue
            if self.at(*GIVEN_KWS):
                q.givens.append(self.given())
                continue
            if self.at("for") and q.subject is None and self.resolve(self.peek(), ("character",)):
                self.take()                                   # "is 截获 banned for SP李宁玉"
                self.subject(q)
                continue
            if self._is_final_q():
                self.take()
                continue
            self.error(f"expected 'with', 'under', 'when', 'where' or the end of the question, found {self.found()}")
        return q

    def skip_sep(self) -> bool:
        if self.at_op(",") or self.at("and"):
            self.take()
            return True
        return False

    def mode(self) -> str | None:
        self.skip_fillers()
        if self.at("exists") or (self.at("is") and self.i == 0):
            self.take()
            return "exists"
        if self.at("always", "never", "which"):
            return self.take().kw
        if self.at("cannot_mode") and self.peek().kw != "receive":
            self.take()
            return "never"
        if self.tok.text.lower() == "how" and self.peek().text.lower() == "many":
            self.take()
            self.take()
            return "which_draw"
        return None

    def subject(self, q: Query):
        self.skip_fillers()
        t = self.tok
        if self.at("anyone"):
            self.take()
            q.subject_col = t.col
            return
        if t.text.lower() in ("any", "some", "every") and self.peek().kw == "anyone":
            self.take()
            self.take()
            return
        r = self.resolve(t, ("character",))
        if r is not None and not self.resolve(t, ("card",)):
            self.take()
            q.subject, q.subject_col = r[1], t.col
            if self.at_op("("):                  # an alias like 顾小梦（译电科科员）
                j = self.i + 1
                while j < len(self.toks) and self.toks[j].text != ")" and self.toks[j].kind != "end":
                    j += 1
                if j < len(self.toks) and self.toks[j].text == ")":
                    self.i = j + 1

    # ---- claims
    def claim(self):
        items = [self.conj()]
        while self.at("or"):
            self.take()
            items.append(self.conj())
        return items[0] if len(items) == 1 else BoolOp("or", items, items[0].col if hasattr(items[0], "col") else 0)

    def conj(self):
        items = [self.unary()]
        while self.at("and") and not (self.peek().kind == "word" and self.peek().kw in GIVEN_KWS):
            self.take()
            items.append(self.unary())
        return items[0] if len(items) == 1 else BoolOp("and", items, getattr(items[0], "col", 0))

    def unary(self):
        self.skip_fillers()
        if self.at("not") and not (self.peek().kw in ("cards",)):
            t = self.take()
            return Not(self.unary(), t.col)
        if self.at_op("("):
            self.take()
            c = self.claim()
            if not self.at_op(")"):
                self.error(f"expected ')', found {self.found()}")
            self.take()
            return c
        return self.atom()

    def atom(self) -> Atom:
        self.skip_fillers()
        t = self.tok
        start = t.col
        kw = t.kw if t.kind == "word" else ""

        def done(a: Atom) -> Atom:
            a.col, a.end = start, self.toks[self.i - 1].end
            a.text = self.text[a.col:a.end]
            return a

        if kw in ("play", "use"):
            self.take()
            self.skip_fillers()
            r = self.resolve(self.tok, ("rule",)) if not self.resolve(self.tok, ("card",)) else None
            if r is not None:
                if self.peek().kw == "as":
                    self.error(f"expected a card after '{t.text}', but '{self.tok.text}' is a skill (to ask "
                               f"whether it fires, write 'use {self.tok.text}')")
                return done(self.use_skill(r[1], kw))
            x = self.card()
            y = None
            self.skip_fillers()
            if self.at("as"):
                self.take()
                y = self.card()
            elif self.at("to") and self.peek().kw == "play":   # "get a 截获 into play"
                self.take()
                self.take()
            return done(Atom("play", 0, 0, cards=(x, y)))
        if kw == "convert":
            self.take()
            x = self.card()
            self.skip_fillers()
            if not (self.at("to", "as") or self.at_op("→")):
                self.error(f"expected 'to' or 'as' after the card, found {self.found()}")
            self.take()
            y = self.card()
            return done(Atom("convert", 0, 0, cards=(x, y)))
        if kw == "fire":
            self.take()
            rid = self.rule("conversion skill")
            self._need_conversion(rid, self.toks[self.i - 1])
            x = y = None
            if self.at("for", "play", "use") or self.at("in"):
                self.take()
                self.skip_fillers()
                if self.at("play", "use"):
                    self.take()
                x = self.card()
                if self.at("as"):
                    self.take()
                    y = self.card()
            return done(Atom("fire", 0, 0, cards=(x, y), rule=rid))
        if kw == "banned":
            self.take()
            self.skip_fillers()
            if self.at("from"):
                self.take()
            if self.at("all") or self.at("cards"):
                self.take()
                if self.at("cards"):
                    self.take()
                return done(Atom("banned_all", 0, 0))
            return done(Atom("banned", 0, 0, cards=(self.card(),)))
        if kw == "must" and self.peek().kw == "receive":
            self.take()
            self.take()
            return done(Atom("receive", 0, 0, value="must"))
        if kw in ("cannot", "cannot_mode") and self.peek().kw == "receive":
            self.take()
            self.take()
            return done(Atom("receive", 0, 0, value="cannot"))
        if kw == "may" or (kw == "choose"):
            self.take()
            while self.at("choose", "receive", "to", "filler", "or", "not"):
                self.take()
            return done(Atom("receive", 0, 0, value="free"))
        if kw == "skipped":
            self.take()
            return done(Atom("skip", 0, 0, phase=self.phase()))
        if kw == "act":
            self.take()
            return done(Atom("act", 0, 0, phase=self.phase()))
        if kw == "send":
            self.take()
            self.skip_fillers()
            g = self.group()
            if g is not None:
                if self.at("rule"):
                    self.take()
                if self.at("is"):
                    self.take()
                if self.at("from", "by") or self.at("in"):
                    self.take()
                self.skip_fillers()
                if self.at("default"):
                    self.take()
                    return done(Atom("send_by", 0, 0, group=g))
                rid = self.rule(f"{GROUP_EN[g]} send skill")
                if g not in self.cat.skills[rid].closure:
                    self.error(f"{self.cat.skills[rid].name} is not a {g}", self.toks[self.i - 1])
                return done(Atom("send_by", 0, 0, group=g, rule=rid))
            d = self.direction()
            if d is None:
                self.error(f"expected a send group (direction, lock, card) or a direction (up, left, right), "
                           f"found {self.found()}")
            n = 0
            if self.at("locking"):
                self.take()
                n = self.number()
            return done(Atom("send_dir", 0, 0, value=(d, n)))
        if kw == "draw":
            self.take()
            if self.at("count"):
                self.take()
            op, n = self.comparison()
            if self.at("cards"):
                self.take()
            return done(Atom("draw", 0, 0, value=(op, n)))
        if kw == "hold":
            self.take()
            self.skip_fillers()
            if self.at("not") and self.peek().kw == "cards":
                self.take()
                self.take()
                return done(Atom("hand", 0, 0, value=("==", 0)))
            if self.at("cards") or (self.tok.kind == "num" and self.peek().kw == "cards"):
                if self.tok.kind == "num":
                    n = self.number()
                    self.take()
                    return done(Atom("hand", 0, 0, value=("==", n)))
                self.take()
                return done(Atom("hand", 0, 0, value=(">", 0)))
            rid = self.rule()
            return done(Atom("hold", 0, 0, rule=rid))
        if kw == "hand":
            self.take()
            op, n = self.comparison()
            return done(Atom("hand", 0, 0, value=(op, n)))
        if kw == "invalidated":
            self.take()
            return done(Atom("invalidated", 0, 0))
        if kw in ("face_up", "face_down"):
            self.take()
            return done(Atom("face_up", 0, 0, value=kw == "face_up"))
        if kw == "face" and self.peek().kw in ("up", "down"):
            self.take()
            return done(Atom("face_up", 0, 0, value=self.take().kw == "up"))
        # "截获 as 误导", "截获 banned", "截获 is banned"
        if self.resolve(t, ("card",)) or (self.at_op("?") and not self._is_final_q()):
            x = self.card()
            self.skip_fillers()
            if self.at("is"):
                self.take()
                self.skip_fillers()
            if self.at("banned"):
                self.take()
                return done(Atom("banned", 0, 0, cards=(x,)))
            if self.at("as"):
                self.take()
                y = self.card()
                if self.at("play", "use"):             # 把截获当作误导打出
                    self.take()
                return done(Atom("play", 0, 0, cards=(x, y)))
            self.error(f"after a card, expected 'as CARD' or 'banned', found {self.found()}")
        r = self.resolve(t, ("rule",))
        if r is not None:
            self.error(f"say what {self.cat.skills[r[1]].name} should do: 'use {t.text}', 'hold {t.text}' or "
                       f"'fire {t.text}'", t)
        if t.kind == "end":
            self.error("expected a question such as 'play 截获 as 误导', 'banned 截获', 'must receive', "
                       "'skipped in 争夺阶段', 'send direction by 联络' or 'draw 4' — found the end of the query", t)
        words = sorted({w for w, k in KEYWORDS.items() if k in (
            "play", "use", "convert", "fire", "banned", "must", "skipped", "act", "send", "draw", "hold")
            and w.isascii()})
        sug = nearest(t.text, words) if t.kind == "word" else None
        if sug is None and t.kind == "word":
            s2 = self.names.suggest(("card", "character", "rule"), t.text)
            if s2:
                self.error(f"unknown word '{t.text}' — did you mean {s2}?", t)
        self.error(f"expected a question such as 'play 截获 as 误导', 'banned 截获', 'must receive', "
                   f"'skipped in 争夺阶段', 'send direction by 联络' or 'draw 4', found {self.found(t)}"
                   + (f" — did you mean '{sug}'?" if sug else ""), t)

    def _need_conversion(self, rid: str, t: Tok):
        if self.cat.skills[rid].convert is None:
            self.error(f"{self.cat.skills[rid].name} is not a conversion skill (ConvertCardSkill)", t)

    def use_skill(self, rid: str, verb: str) -> Atom:
        r = self.cat.skills[rid]
        t = self.toks[self.i]
        self.take()
        if r.convert is not None:
            x = y = None
            if self.at("for", "play", "use") or self.at("to"):
                self.take()
                if self.at("play", "use"):
                    self.take()
                x = self.card()
                if self.at("as"):
                    self.take()
                    y = self.card()
            return Atom("fire", 0, 0, cards=(x, y), rule=rid)
        if r.has("ActiveSkill") or r.fight is not None or r.dying is not None:
            phase = None
            if self.at("in"):
                phase = self.phase()
            return Atom("use", 0, 0, rule=rid, phase=phase)
        kinds = ", ".join(k for k in r.kinds)
        self.error(f"{r.name} is a {kinds}: it is not used on purpose — ask 'hold {t.text}' "
                   f"(or about the decision it changes)", t)

    # ---- which
    def which(self, q: Query) -> Which:
        self.skip_fillers()
        t = self.tok
        if self._grantish(t) and not self.at("conversion", "send", "draw", "receive"):
            # "which 变则通 declarations let SP李宁玉 play 截获 as 误导"
            g = self.grantref()
            end = self.prev_end()
            while self.tok.kind == "word" and (self.tok.text.lower() in PARAM_WORDS or self.at("filler", "for", "if")):
                self.take()
            combos = param_combos(self.cat, g)
            if not combos:
                self.error(f"{self.cat.name_of(g.name)} has no parameters left to enumerate", t)
            if len(combos) > MAX_COMBOS:
                self.error(f"{len(combos)} parameter combinations of {self.cat.name_of(g.name)} — too many to try one "
                           f"by one (at most {MAX_COMBOS}); fix some, e.g. {self.cat.name_of(g.name)}"
                           f"({next(iter(combos[0]))}=…)", t)
            self.subject(q)
            m = self.mode()
            if m not in (None, "exists"):
                self.error("'which … declarations' asks when a claim can hold; write it without "
                           "always/never", self.toks[self.i - 1])
            self.subject(q) if q.subject is None else None
            q.claim = self.claim()
            return Which("params", t.col, grant=g, combos=combos, end=end)
        if self.at("conversion") or (self.at("convert")):
            self.take()
            while self.at("fire", "rule", "filler", "if", "for", "is"):
                self.take()
            self.subject(q)
            self.skip_fillers()
            while self.at("play", "use", "filler", "is"):
                self.take()
            x = self.card()
            y = None
            if self.at("as"):
                self.take()
                y = self.card()
            return Which("conversion", t.col, cards=(x, y))
        if self.at("send"):
            self.take()
            while self.at("rule", "filler", "is", "in", "for", "from"):
                self.take()
            g = self.group()
            while self.at("rule", "filler", "is", "in", "for", "from"):
                self.take()
            if g is None:
                self.subject(q)
                while self.at("rule", "filler", "is", "in", "for", "from"):
                    self.take()
                g = self.group()
            if g is None:
                self.error(f"expected a send group (direction, lock or card), found {self.found()}")
            while self.at("rule", "filler", "is", "in", "for", "from"):
                self.take()
            self.subject(q)
            return Which("send", t.col, group=g)
        if self.at("draw") or self.at("cards"):
            self.take()
            while self.at("count", "filler", "is", "for", "draw", "cards"):
                self.take()
            self.subject(q)
            while self.at("draw", "filler", "cards"):
                self.take()
            return Which("draw", t.col)
        if self.at("receive", "rule", "must"):
            self.take()
            while self.at("rule", "filler", "is", "for", "receive"):
                self.take()
            self.subject(q)
            while self.at("receive", "filler"):
                self.take()
            return Which("receive", t.col)
        self.error(f"after 'which', expected 'conversion', 'send rule', 'draw count' or 'receive', "
                   f"found {self.found()}")

    # ---- givens
    def given(self) -> Given:
        t = self.take()
        kw = t.kw
        self.skip_fillers()
        if kw == "where":
            return self.where(t)
        if kw in ("with", "without"):
            if kw == "with" and (self.at("cards") or self.at("hand") or self.tok.kind == "num"):
                a = self.atom_hand()
                return Given("claim", t.col, a.end, self.text[t.col:a.end], claim=a)
            if kw == "with" and self.at("invalidated"):
                a = self.atom()
                return Given("claim", t.col, a.end, self.text[t.col:a.end], claim=a)
            tt = self.tok
            r = self.resolve(tt, ("rule",))
            if r is None:
                other = self.resolve(tt, ("card", "character"))
                if other:
                    self.error(f"'{kw}' takes a skill, but '{tt.text}' is a {other[0]}", tt)
                self.name_error(tt, "skill", ("rule",))
            rule = self.cat.skills[r[1]]
            if rule.is_grant and kw == "with":
                g = self.grantref()
                end = self.prev_end()
                return Given("grant", t.col, end, self.text[t.col:end], grant=g)
            self.take()
            if rule.id == "InvalidSkill":
                a = Atom("invalidated", tt.col, tt.end)
                end = tt.end
                return Given("claim", t.col, end, self.text[t.col:end],
                             claim=a if kw == "with" else Not(a, tt.col))
            end = tt.end
            return Given(kw, t.col, end, self.text[t.col:end], rule=r[1])
        # under / while / if
        tt = self.tok
        if kw == "under" or self._grantish(tt):
            if kw == "under" and self.at("invalidated"):
                a = self.atom()
                return Given("claim", t.col, a.end, self.text[t.col:a.end], claim=a)
            g = self.grantref()
            end = self.prev_end()
            return Given("grant", t.col, end, self.text[t.col:end], grant=g)
        c = self.claim()
        end = self.prev_end()
        return Given("claim", t.col, end, self.text[t.col:end], claim=c)

    def atom_hand(self) -> Atom:
        start = self.tok.col
        if self.tok.kind == "num":
            n = self.number()
            if self.at("cards"):
                self.take()
            a = Atom("hand", start, 0, value=("==", n))
        else:
            self.take()
            if self.at("in"):
                self.take()
                if self.at("hand"):
                    self.take()
            a = Atom("hand", start, 0, value=(">", 0))
        a.end = self.prev_end()
        a.text = self.text[a.col:a.end]
        return a

    def _grantish(self, t: Tok) -> bool:
        r = self.resolve(t, ("rule",))
        if r is not None:
            rule = self.cat.skills[r[1]]
            return rule.is_grant or bool(rule.gives)
        c = self.resolve(t, ("card",))
        if c is not None:
            nxt = self.peek()
            return bool(self.cat.cards[c[1]].gives) and not (nxt.kind == "word" and nxt.kw in ("as", "banned", "is"))
        return False

    def where(self, t: Tok) -> Given:
        start = self.tok.col
        j = self.i
        while self.toks[j].kind != "end" and not (self.toks[j].kind == "word" and self.toks[j].kw in
                                                    ("with", "without", "under", "where")):
            j += 1
        end_tok = self.toks[j]
        stop = end_tok.col
        raw = self.text[start:stop].rstrip()
        while raw.endswith(("?", "？", ",", "，")):
            raw = raw[:-1].rstrip()
        if not raw:
            self.error("expected a condition after 'where', e.g. 'where hand_count > 0'")
        try:
            node = E.parse(raw)
            self._rename(node)
            E.check(node, E.Scope("when", E.Universe(frozenset(self.cat.cards), frozenset(self.cat.characters))),
                    V.BOOL)
        except E.ExprError as e:
            col = start + e.col
            word = re.match(r"[A-Za-z0-9_\u3400-\u9fff·]+", self.text[col:])
            raise QueryError(f"in the 'where' condition: {e.msg}", col,
                             col + (len(word.group()) if word else 1)) from None
        self.i = j
        end = start + len(raw)
        a = Atom("where", start, end, value=node, text=raw)
        return Given("where", t.col, end, self.text[t.col:end], claim=a)

    def _rename(self, node):
        """Chinese names and aliases of cards / characters in a 'where' condition become their ids."""
        for n in E.walk(node):
            if isinstance(n, E.Var) and n.name not in V.PLAYER_ATTRS and n.name not in V.GLOBALS:
                for kind in ("card", "character"):
                    ident = self.names.find(kind, n.name)
                    if ident is not None and ident != n.name and not n.name.isascii():
                        n.name = ident
                        break

    def grantref(self) -> GrantRef:
        self.skip_fillers()
        t = self.tok
        r = self.resolve(t, ("rule", "card"))
        if r is None:
            self.name_error(t, "skill, grant or card", ("rule", "card"))
        kind, ident = r
        self.take()
        cat = self.cat
        if kind == "card":
            sites = tuple(cat.cards[ident].gives)
            if not sites:
                self.error(f"the card {cat.cards[ident].name} hands out no skill", t)
            grants = tuple(dict.fromkeys(g.grant for g in sites))
        else:
            rule = cat.skills[ident]
            if rule.is_grant:
                grants = (ident,)
                sites = tuple(cat.sites(ident))
                if not sites:
                    self.error(f"nothing in the catalogue hands out {rule.name}", t)
            elif rule.gives:
                sites = tuple(rule.gives)
                grants = tuple(dict.fromkeys(g.grant for g in sites))
            else:
                self.error(f"{rule.name} hands out no skill; to say the player holds it, write 'with {t.text}'", t)
        # optional: 'from GIVER'
        args_pos: list = []
        args_named: dict = {}
        if self.at_op("("):
            self.args(args_pos, args_named)
        self.skip_fillers()
        nxt = self.peek()
        valueish = nxt.kw == "from" or (nxt.kind == "op" and nxt.text in ("{", "?")) or \
            self.resolve(nxt, ("card",)) is not None or nxt.kind == "num" or nxt.text.lower() in V.COLOURS
        if (self.at("declares") and not (self.peek().kind == "word" and self.peek().text.lower() in PARAM_WORDS)) \
                or (self.at("banned") and valueish):
            self.take()
            if self.at("from"):
                self.take()
            self.declargs(args_pos)
        if self.at("from"):
            ft = self.peek()
            fr = self.resolve(ft, ("rule", "card"))
            if fr is not None and kind == "rule" and cat.skills[ident].is_grant:
                self.take()
                self.take()
                sites = tuple(s for s in sites if s.giver == fr[1])
                if not sites:
                    self.error(f"{cat.name_of(fr[1])} does not hand out {cat.skills[ident].name}", ft)
        while self.at("is", "active", "in", "filler") and self.at("is", "active", "filler") or \
                (self.at("in") and self.peek().text.lower() == "effect"):
            if self.at("in"):
                self.take()
            self.take()
        invalid_sites = tuple(g for g in sites if g.grant == "InvalidSkill")
        invalid_option = bool(invalid_sites)
        grants = tuple(g for g in grants if g != "InvalidSkill")
        sites = tuple(s for s in sites if s.grant != "InvalidSkill")
        args = self.bind_args(t, grants, sites, args_pos, args_named)
        if args:
            keep = tuple(g for g in grants if all(p in cat.skills[g].params for p in args))
            if keep:
                grants = keep
                sites = tuple(s for s in sites if s.grant in grants)
            invalid_option = False
        if not grants and not invalid_option:
            self.error(f"{cat.name_of(ident)} hands out nothing a player holds", t)
        return GrantRef(ident, grants, sites, args, invalid_option, invalid_sites if invalid_option else ())

    def args(self, pos: list, named: dict):
        self.take()                                   # (
        while True:
            t = self.tok
            if t.kind == "word" and self.peek().kind == "op" and self.peek().text in ("=", "=="):
                self.take()
                self.take()
                named[t.text] = (self.value(), t)
            elif self.at_op(")"):
                self.take()
                return
            else:
                v = self.value()
                if self.at_op("→") or self.at("to"):
                    self.take()
                    w = self.value()
                    pos.append((("arrow", v, w), t))
                else:
                    pos.append((v, t))
            if self.at_op(","):
                self.take()
                continue
            if self.at_op(")"):
                self.take()
                return
            self.error(f"expected ',' or ')' in the parameters, found {self.found()}")

    def declargs(self, pos: list):
        self.skip_fillers()
        t = self.tok
        v = self.value()
        if self.at_op("→") or self.at("to"):
            self.take()
            pos.append((("arrow", v, self.value()), t))
            return
        vals = [v]
        while (self.at_op(",") or self.at("and", "or")) and self.resolve(self.peek(), ("card",)):
            self.take()
            vals.append(self.value())
        if len(vals) == 1:
            pos.append((v, t))
        else:
            pos.append((("set", tuple(x[1] for x in vals if x and x[0] == "card")), t))

    def value(self):
        self.skip_fillers()
        t = self.tok
        if self.at_op("?"):
            self.take()
            return None
        if self.at_op("{"):
            self.take()
            items = []
            while not self.at_op("}"):
                items.append(self.card(allow_unknown=False))
                if self.at_op(","):
                    self.take()
                elif not self.at_op("}"):
                    self.error(f"expected ',' or '}}' in a set of cards, found {self.found()}")
            self.take()
            return ("set", tuple(items))
        if t.kind == "num":
            self.take()
            return ("int", int(t.text))
        if self.at("true") or t.text.lower() in ("yes", "true"):
            self.take()
            return ("bool", True)
        if self.at("false") or t.text.lower() in ("no", "false"):
            self.take()
            return ("bool", False)
        if t.text.lower() in V.COLOURS:
            self.take()
            return ("colour", t.text.lower())
        r = self.resolve(t, ("card",))
        if r is None:
            self.name_error(t, "card (or parameter value)", ("card",))
        self.take()
        return ("card", r[1])

    def bind_args(self, t: Tok, grants, sites, pos, named) -> dict:
        """Parameters given → {param: value} checked against the grants' parameter types."""
        cat = self.cat
        if not pos and not named:
            return {}
        params: dict = {}
        for g in grants:
            for p, ty in cat.skills[g].params.items():
                params.setdefault(p, ty)
        if not params:
            self.error(f"{cat.name_of(grants[0]) if grants else t.text} takes no parameters", t)
        fixed = set()
        for s in sites:
            fixed |= set(s.args)
        out: dict = {}
        for name, (v, nt) in named.items():
            p = next((x for x in params if x.lower() == name.lower()), None)
            if p is None:
                sug = nearest(name, list(params))
                self.error(f"no parameter '{name}' — {cat.name_of(grants[0])} takes "
                           f"{', '.join(params)}" + (f" (did you mean {sug}?)" if sug else ""), nt)
            out[p] = self._typed(p, params[p], v, nt)
        free = [p for p in params if p not in fixed and p not in out]
        for v, nt in pos:
            if isinstance(v, tuple) and v and v[0] == "arrow":
                src, dst = self._convert_params(grants, nt)
                out[src] = self._typed(src, params[src], v[1], nt)
                out[dst] = self._typed(dst, params[dst], v[2], nt)
                free = [p for p in free if p not in (src, dst)]
                continue
            if not free:      # the giver fixes them all: a value given anyway must agree with it
                free = [x for x in params if x not in out]
            if not free:
                self.error(f"too many parameters: {cat.name_of(grants[0])} takes {', '.join(params)}", nt)
            p = free.pop(0)
            out[p] = self._typed(p, params[p], v, nt)
        return {k: v for k, v in out.items() if v is not None}

    def _convert_params(self, grants, t: Tok):
        for g in grants:
            conv = self.cat.skills[g].convert
            if conv and conv.source.kind == "param" and conv.targets and conv.targets[0].kind == "param":
                return conv.source.value, conv.targets[0].value
        self.error("'X→Y' needs a conversion grant whose source and target are parameters", t)

    def _typed(self, p: str, ty: str, v, t: Tok):
        if v is None:
            return None
        kind = v[0]
        if ty == "card" and kind == "card":
            return v
        if ty == "set<card>" and kind in ("card", "set"):
            return ("set", (v[1],) if kind == "card" else v[1])
        if ty == "bool" and kind == "bool":
            return v
        if ty == "int" and kind == "int":
            return v
        if ty == "colour" and kind == "colour":
            return v
        self.error(f"parameter {p} is a {ty}, not a {kind}", t)


PARAM_WORDS = {"declaration", "declarations", "parameters", "parameter", "params", "args", "arguments", "values",
               "bans", "let", "lets", "allow", "allows", "make", "makes", "so", "that", "where", "under", "宣言"}
MAX_COMBOS = 48


def param_combos(cat, g: GrantRef) -> list[dict]:
    """Every value of the grant's free parameters that one of its gives sites allows (its fixed ``args``
    and its ``where``), the query's own parameters kept. A set of cards is tried one card at a time."""
    out: list[dict] = []
    seen = set()
    fixed_by_query = {p: v for p, v in g.args.items()}
    for gid in g.grants:
        rule = cat.skills[gid]
        sites = [x for x in g.sites if x.grant == gid] or list(cat.sites(gid))
        for site in sites:
            free = [p for p in rule.params if p not in site.args and p not in fixed_by_query]
            ban = rule.ban
            if ban is not None and isinstance(ban.all, Ref) and isinstance(ban.cards, Ref) and \
                    (site.args.get(ban.all.value) is True or fixed_by_query.get(ban.all.value) == ("bool", True)):
                free = [p for p in free if p != ban.cards.value]      # everything is banned: the list is moot
            domains = []
            for p in free:
                ty = rule.params[p]
                if ty == "card":
                    domains.append([("card", c) for c in cat.cards])
                elif ty == "set<card>":
                    domains.append([("set", (c,)) for c in cat.cards])
                elif ty == "bool":
                    domains.append([("bool", False), ("bool", True)])
                elif ty == "colour":
                    domains.append([("colour", c) for c in V.COLOURS])
                else:
                    domains.append([("int", k) for k in range(0, 6)])
            for combo in itertools.product(*domains):
                args = dict(zip(free, combo))
                if site.where is not None:
                    env_params = {}
                    for p, ty in rule.params.items():
                        if p in args:
                            env_params[p] = args[p][1]
                        elif p in fixed_by_query:
                            env_params[p] = fixed_by_query[p][1]
                        elif p in site.args:
                            env_params[p] = site.args[p]
                    env_params = {k: (frozenset(v) if isinstance(v, (list, tuple)) else v) for k, v in env_params.items()}
                    if set(env_params) != set(rule.params):
                        continue
                    env = I.Env(cat, State(seats=[]), {"self": 0}, env_params, {})
                    try:
                        if not I.evaluate(site.where, env):
                            continue
                    except (KeyError, IndexError, AttributeError, TypeError):
                        pass                       # a 'where' that reads the giver: leave it to the solver
                key = (gid, tuple(sorted(args.items())))
                if key not in seen and args:
                    seen.add(key)
                    out.append(args)
    return out


def parse(cat: Catalogue, text: str, names: Names | None = None) -> Query:
    if not text or not text.strip():
        raise QueryError("empty query", 0, 1)
    return Parser(cat, text, names).parse()


# ============================================================================ meaning on a concrete state
def _cmp(op: str, a: int, b: int) -> bool:
    return {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]


def _zcmp(op: str, a, b):
    return {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]


def _card_domain(cat, atom: Atom, i: int) -> list[str]:
    """Cards an unknown card of ``atom`` ranges over."""
    if atom.kind == "fire" and atom.rule:
        conv = cat.skills[atom.rule].convert
        if i == 0 and conv.source.kind == "card":
            return [conv.source.value]
        if i == 1 and all(t.kind == "card" for t in conv.targets):
            return [t.value for t in conv.targets]
    return list(cat.cards)


def atom_questions(cat, atom: Atom, cards: tuple) -> list[dict]:
    """decide-form questions that settle ``atom`` for concrete ``cards``."""
    k = atom.kind
    if k == "play":
        return [{"decision": "can_play", "seat": 0, "actual": cards[0], "declared": cards[1]}]
    if k in ("convert", "fire"):
        return [{"decision": "conversion", "seat": 0, "actual": cards[0], "declared": cards[1]}]
    if k == "banned":
        return [{"decision": "banned", "seat": 0, "declared": cards[0]}]
    if k == "receive":
        return [{"decision": "receive", "seat": 0}]
    if k in ("skip", "act"):
        return [{"decision": f"skip_{atom.phase}", "seat": 0}]
    if k == "send_by":
        return [{"decision": "send", "seat": 0, "group": atom.group}]
    if k == "send_dir":
        d, n = atom.value
        return [{"decision": "send", "seat": 0, "group": g, "dir": d, "lock_count": n} for g in SEND_GROUPS]
    if k == "draw":
        return [{"decision": "draw", "seat": 0}]
    if k == "hold":
        return [{"decision": "holds", "seat": 0, "rule": atom.rule}]
    return []


def _expect_keys(atom: Atom) -> tuple:
    return {"play": ("can_play", "banned"), "convert": ("ok", "via"), "fire": ("ok", "via"), "banned": ("banned",),
            "receive": ("receive",), "skip": ("skip",), "act": ("could_act",), "send_by": ("in_force",),
            "send_dir": ("allowed",), "draw": ("draw",), "hold": ("holds", "live")}.get(atom.kind, ())


def eval_atom_cards(cat, st: State, atom: Atom, cards: tuple) -> bool:
    k = atom.kind
    if k == "play":
        return I.can_play(cat, st, 0, cards[0], cards[1])
    if k == "convert":
        return I.conversion(cat, st, 0, cards[0], cards[1]).ok
    if k == "fire":
        c = I.conversion(cat, st, 0, cards[0], cards[1])
        return c.via is not None and st.seats[0].skills[c.via].rule == atom.rule
    if k == "banned":
        return I.banned(cat, st, 0, cards[0])
    if k == "banned_all":
        return I.banned_all(cat, st, 0)
    if k == "receive":
        return I.receive(cat, st, 0) == atom.value
    if k == "skip":
        return (I.skip_fight if atom.phase == "fight" else I.skip_dying)(cat, st, 0)
    if k == "act":
        return (I.could_act_fight if atom.phase == "fight" else I.could_act_dying)(cat, st, 0)
    if k == "send_by":
        i = I.send_in_force(cat, st, 0, atom.group)
        return (st.seats[0].skills[i].rule if i is not None else None) == atom.rule
    if k == "send_dir":
        d, n = atom.value
        return all(I.send_allowed(cat, st, 0, g, d, n) for g in SEND_GROUPS)
    if k == "draw":
        return _cmp(atom.value[0], I.draw_count(cat, st, 0), atom.value[1])
    if k == "hold":
        return any(i.rule == atom.rule and not i.invalid for i in st.seats[0].skills)
    if k == "use":
        insts = [i for i in st.seats[0].skills if i.rule == atom.rule]
        phases = [atom.phase] if atom.phase else ["fight", "dying"]
        return any(I.usable(cat, st, 0, i, p) for i in insts for p in phases)
    if k == "invalidated":
        return any(i.invalid for i in st.seats[0].skills)
    if k == "face_up":
        return st.seats[0].face_up == atom.value
    if k == "hand":
        return _cmp(atom.value[0], st.seats[0].hand_count, atom.value[1])
    if k == "where":
        env = N._env(cat, st, 0)
        return bool(I.evaluate(atom.value, env))
    raise ValueError(k)


def atom_choices(cat, atom: Atom) -> list[tuple]:
    if not atom.cards:
        return [()]
    doms = [[c] if c is not None else _card_domain(cat, atom, i) for i, c in enumerate(atom.cards)]
    if atom.kind == "play" and atom.cards[1] is None and atom.cards[0] is not None:
        doms[1] = list(cat.cards)
    return list(itertools.product(*doms))


def eval_atom(cat, st: State, atom: Atom) -> tuple[bool, tuple]:
    """(truth, the cards that show it): unknown cards are 'some card'."""
    choices = atom_choices(cat, atom)
    for ch in choices:
        if eval_atom_cards(cat, st, atom, ch):
            return True, ch
    if atom.kind == "play" and len(choices) > 1:
        # false for every card: show the one that gets furthest (the conversion allows it, a ban stops it)
        for ch in choices:
            if I.conversion(cat, st, 0, ch[0], ch[1]).ok:
                return False, ch
    return False, choices[0]


def eval_claim(cat, st: State, node) -> bool:
    if isinstance(node, Not):
        return not eval_claim(cat, st, node.arg)
    if isinstance(node, BoolOp):
        vals = [eval_claim(cat, st, x) for x in node.items]
        return all(vals) if node.op == "and" else any(vals)
    return eval_atom(cat, st, node)[0]


def atoms_of(node) -> list[Atom]:
    if isinstance(node, Not):
        return atoms_of(node.arg)
    if isinstance(node, BoolOp):
        return [a for x in node.items for a in atoms_of(x)]
    return [node] if node is not None else []


def eval_given(cat, st: State, g: Given) -> bool:
    s = st.seats[0]
    if g.kind == "with":
        return any(i.rule == g.rule and not i.invalid for i in s.skills)
    if g.kind == "without":
        return not any(i.rule == g.rule for i in s.skills)
    if g.kind in ("claim", "where"):
        return eval_claim(cat, st, g.claim)
    if g.kind == "grant":
        gr = g.grant
        for inst in s.skills:
            if inst.rule not in gr.grants:
                continue
            if gr.sites and inst.site not in {f"{x.giver}#{x.index}" for x in gr.sites}:
                continue
            if all(_arg_holds(inst.args.get(p), v) for p, v in gr.args.items()):
                return True
        if gr.invalid_option and any(i.invalid for i in s.skills):
            for give in gr.invalid_sites:
                for gs in range(len(st.seats)):
                    if give.to == "self" and gs != 0 or give.to == "others" and gs == 0:
                        continue
                    giver_ok = give.giver_is_card or give.giver in cat.characters[st.seats[gs].character].skills
                    if giver_ok and I.evaluate(give.when, N._env(cat, st, gs)):
                        return True
        return False
    raise ValueError(g.kind)


def _arg_holds(got, want) -> bool:
    kind, v = want
    if kind == "set":
        return set(v) <= set(got or ())
    return got == v


# ============================================================================================ z3 side
class Compiler:
    """A query's claim and givens as z3 terms over one SymState (seat 0 = the player)."""

    def __init__(self, engine: "Engine"):
        self.E = engine
        self.S = engine.S
        self.cat = engine.cat

    def card(self, cid):
        return z3.IntVal(self.S.codes.card[cid])

    def fresh(self):
        self.E.counter += 1
        v = z3.Int(f"q{self.E.counter}_card")
        return v, z3.And(v >= 0, v < len(self.S.codes.cards))

    def claim(self, node, pos: bool = True):
        if isinstance(node, Not):
            return z3.Not(self.claim(node.arg, not pos))
        if isinstance(node, BoolOp):
            items = [self.claim(x, pos) for x in node.items]
            return z3.And(items) if node.op == "and" else z3.Or(items)
        return self.atom(node, pos)

    def atom(self, a: Atom, pos: bool):
        if not a.cards or all(c is not None for c in a.cards) and not (a.kind == "play" and a.cards[1] is None):
            cards = tuple(self.card(c) for c in a.cards)
            return self.atom_on(a, cards)
        # unknown cards: existential — a free variable where the atom is asserted positively, else a
        # disjunction over the card domain (so that negation and 'always' mean "for every card")
        choices = atom_choices(self.cat, a)
        if pos:
            terms, doms = [], []
            for i, c in enumerate(a.cards):
                if c is not None:
                    terms.append(self.card(c))
                    continue
                v, d = self.fresh()
                dom = _card_domain(self.cat, a, i)
                if len(dom) < len(self.cat.cards):
                    d = z3.Or([v == self.S.codes.card[x] for x in dom])
                terms.append(v)
                doms.append(d)
            return z3.And(doms + [self.atom_on(a, tuple(terms))])
        return z3.Or([self.atom_on(a, tuple(self.card(c) for c in ch)) for ch in choices])

    def atom_on(self, a: Atom, cards: tuple):
        S = self.S
        k = a.kind
        if k == "play":
            return X.enc_can_play(S, cards[0], cards[1])
        if k == "convert":
            return X.enc_conversion(S, cards[0], cards[1])[0]
        if k == "fire":
            ok, via = X.enc_conversion(S, cards[0], cards[1])
            slots = [z3.And(sl.present, S.rule_is(sl, a.rule), via == sl.index)
                     for sl in S.slots if a.rule in sl.candidates]
            return z3.And(ok, z3.Or(slots)) if slots else z3.BoolVal(False)
        if k == "banned":
            return X.enc_banned(S, cards[0])
        if k == "banned_all":
            return X.enc_banned_all(S)
        if k == "receive":
            code = {"free": X.FREE, "must": X.MUST, "cannot": X.CANNOT}[a.value]
            return X.enc_receive(S) == code
        if k == "skip":
            return X.enc_skip_fight(S) if a.phase == "fight" else X.enc_skip_dying(S)
        if k == "act":
            return X.enc_could_act_fight(S) if a.phase == "fight" else X.enc_could_act_dying(S)
        if k == "send_by":
            f = X.enc_send_in_force(S, a.group)
            if a.rule is None:
                return f == X.NONE
            slots = [z3.And(sl.present, S.rule_is(sl, a.rule), f == sl.index) for sl in S.slots
                     if a.rule in sl.candidates]
            return z3.Or(slots) if slots else z3.BoolVal(False)
        if k == "send_dir":
            d, n = a.value
            dc = z3.IntVal(S.codes.dir[d])
            return z3.And([X.enc_send_allowed(S, g, dc, z3.IntVal(n)) for g in SEND_GROUPS])
        if k == "draw":
            return _zcmp(a.value[0], X.enc_draw_count(S), a.value[1])
        if k == "hold":
            return self.holds(a.rule)
        if k == "use":
            r = self.cat.skills[a.rule]
            phases = [a.phase] if a.phase else ["fight", "dying"]
            terms = []
            for sl in S.slots:
                if a.rule not in sl.candidates:
                    continue
                for p in phases:
                    cond = r.fight if p == "fight" else r.dying
                    if cond is None:
                        continue
                    terms.append(z3.And(S.live_rule(sl, a.rule, "ActiveSkill"), S.compile(cond, S.ctx(0, sl))))
            return z3.Or(terms) if terms else z3.BoolVal(False)
        if k == "invalidated":
            return S.inv[0]
        if k == "face_up":
            return S.face_up[0] if a.value else z3.Not(S.face_up[0])
        if k == "hand":
            return _zcmp(a.value[0], S.ints["hand_count"][0], a.value[1])
        if k == "where":
            return S.compile(a.value, S.ctx(0))
        raise ValueError(k)

    def holds(self, rid: str, live: bool = True):
        S = self.S
        terms = []
        for sl in S.slots:
            if rid not in sl.candidates:
                continue
            terms.append(S.live_rule(sl, rid, "Skill") if live else z3.And(sl.present, S.rule_is(sl, rid)))
        return z3.Or(terms) if terms else z3.BoolVal(False)

    def given(self, g: Given):
        if g.kind == "with":
            return self.holds(g.rule)
        if g.kind == "without":
            return z3.Not(self.holds(g.rule, live=False))
        if g.kind in ("claim", "where"):
            return self.claim(g.claim, True)
        if g.kind == "grant":
            return self.grant(g.grant)
        raise ValueError(g.kind)

    def grant(self, gr: GrantRef):
        S, C = self.S, self.S.codes
        opts = []
        for sl in S.slots:
            if sl.initial_slot:
                continue
            for gid in gr.grants:
                if gid not in sl.candidates:
                    continue
                conds = [sl.present, S.rule_is(sl, gid)]
                sites = [s for s in gr.sites if s.grant == gid]
                if sites and len(sites) < len(self.cat.sites(gid)):
                    conds.append(z3.Or([sl.site == C.site[f"{s.giver}#{s.index}"] for s in sites]))
                params = self.cat.skills[gid].params
                for p, (kind, v) in gr.args.items():
                    if p not in params:
                        conds.append(z3.BoolVal(False))
                        continue
                    var = sl.params[p]
                    if kind == "card":
                        conds.append(var == C.card[v])
                    elif kind == "set":
                        conds += [var[C.card[c]] for c in v]
                    elif kind == "bool":
                        conds.append(var == z3.BoolVal(v))
                    elif kind == "int":
                        conds.append(var == v)
                    elif kind == "colour":
                        conds.append(var == C.colour[v])
                opts.append(z3.And(conds))
        if gr.invalid_option:
            ways = []
            for give in gr.invalid_sites:
                for g in range(S.n):
                    if give.to == "self" and g != 0 or give.to == "others" and g == 0:
                        continue
                    ways.append(z3.And(S.present[g], _z_giver_ok(S, give, g), S.compile(give.when, S.ctx(g))))
            opts.append(z3.And(S.inv[0], z3.Or(ways) if ways else z3.BoolVal(False)))
        return z3.Or(opts) if opts else z3.BoolVal(False)


# ============================================================================================ engine
class Engine:
    """One symbolic state shape with its reachability constraints in a solver, kept warm."""

    def __init__(self, cat, chars_me, grants, n, G, codes, timeout_ms, chars_other=None):
        self.cat = cat
        self.key = (tuple(chars_me), tuple(grants), n, G)
        self.S = X.SymState(cat, n=n, G=G, chars_me=chars_me, chars_other=chars_other, grants=list(grants),
                            codes=codes)
        self.labels = X.reachability(self.S)
        self.solver = z3.Solver()
        self.solver.set("timeout", timeout_ms)
        self.solver.set("random_seed", 0)
        self.lits: list = []
        self.lab_of: dict = {}
        for i, lab in enumerate(self.labels):
            lit = z3.Bool(f"__reach_{i}")
            self.solver.add(z3.Implies(lit, lab.expr))
            self.lits.append(lit)
            self.lab_of[lit.get_id()] = lab
        # one literal standing for all of them: cheap to pass while looking for a witness; the
        # individual literals are used only to extract and minimise an unsat core
        self.all_lit = z3.Bool("__reach_all")
        self.solver.add(z3.Implies(self.all_lit, z3.And(self.lits)))
        self.counter = 0

    def set_timeout(self, ms: int):
        self.solver.set("timeout", ms)

    def preferences(self):
        """The plain-witness preferences, built once: [(all of a group, [(chunk, [items])])]: special
        statuses first (a witness should show the rule, not a side mechanism), then the details, then
        the smallest grant parameters."""
        if getattr(self, "_prefs", None) is None:
            S = self.S
            status = [S.sender == X.NONE, S.in_front == X.NONE, S.dying == X.NONE]
            for i in range(S.n):
                status += [z3.Not(S.locked[i]), z3.Not(S.inv[i]), S.alive[i], S.face_up[i]]
            plain = [S.turn == 0, S.ints["hand_count"][0] == 0]
            plain += [z3.Not(sl.used) for sl in S.slots]
            plain += [z3.Not(v) for v in S.msg.values() if not z3.is_false(v)]
            plain += [S.message_dir == 1, z3.Not(S.lockable)]
            for i in range(S.n):
                plain += [S.ident[i] == 0]
                plain += [S.ints[f][i] == 0 for f in ("black_messages", "red_messages", "blue_messages",
                                                        "true_messages", "non_black_messages")]
                if i > 0:
                    plain.append(S.ints["hand_count"][i] == 0)
            params = []
            for sl in S.slots:
                for v in sl.params.values():
                    if isinstance(v, dict):
                        params += [z3.Not(b) for b in v.values()]
                    elif z3.is_bool(v):
                        params.append(z3.Not(v))
            self._prefs = [(z3.And(g), [(z3.And(c), c) for c in _chunks(g, 6)])
                           for g in (status, plain, params) if g]
            self.hand_bounds = [S.ints["hand_count"][0] <= k for k in (1, 2, 3)]
        return self._prefs


@dataclass
class Item:
    """One tracked constraint of a query: a reachability constraint, the subject, a given or the claim."""
    kind: str              # reach | subject | given | claim
    label: str
    rules: tuple
    expr: object
    lit: object = None
    given: Given | None = None


@dataclass
class Result:
    query: Query
    answer: str                         # yes | no | unknown
    headline: str = ""
    witness: dict | None = None         # scenario: {state, question, expect, also}
    witness_role: str = ""              # example | counterexample
    traces: list = field(default_factory=list)
    origin: list = field(default_factory=list)
    because: list = field(default_factory=list)
    core: list = field(default_factory=list)        # Items of the minimal core (for re-checking)
    illustration: dict | None = None    # for 'no': a state where the givens hold but the claim does not
    illustration_traces: list = field(default_factory=list)
    values: list = field(default_factory=list)      # which: [{value, name, witness, traces}]
    reason: str = ""
    notes: list = field(default_factory=list)
    bounds: dict = field(default_factory=dict)
    seconds: float = 0.0
    engine: Engine | None = None

    def to_json(self) -> dict:
        d = {"answer": self.answer, "query": self.query.text, "mode": self.query.mode, "headline": self.headline,
             "witness": self.witness, "because": self.because}
        if self.witness is not None:
            d["witness_role"] = self.witness_role
            d["steps"] = [t.to_dict() for t in self.traces]
            d["origin"] = [s.to_dict() for s in self.origin]
        if self.illustration is not None:
            d["illustration"] = self.illustration
            d["illustration_steps"] = [t.to_dict() for t in self.illustration_traces]
        if self.values:
            d["values"] = [{k: v for k, v in x.items() if k != "traces"} |
                           {"steps": [t.to_dict() for t in x.get("traces", [])]} for x in self.values]
        if self.reason:
            d["reason"] = self.reason
        if self.notes:
            d["notes"] = self.notes
        d["bounds"] = self.bounds
        return d


# relevance: which kinds a question's decision reads
_ATOM_KINDS = {
    "play": {"ConvertCardSkill", "CannotPlayCard"}, "convert": {"ConvertCardSkill"}, "fire": {"ConvertCardSkill"},
    "banned": {"CannotPlayCard"}, "banned_all": {"CannotPlayCard"}, "receive": {"MustReceiveMessage"},
    "skip": {"ActiveSkill", "CannotPlayCard"}, "act": {"ActiveSkill", "CannotPlayCard"},
    "send_by": set(SEND_GROUPS), "send_dir": set(SEND_GROUPS), "draw": {"ChangeDrawCardCountSkill"},
    "use": {"ActiveSkill"}, "hold": set(), "invalidated": set(), "face_up": set(), "hand": set(), "where": set(),
}
_WHICH_KINDS = {"conversion": {"ConvertCardSkill"}, "send": set(SEND_GROUPS), "draw": {"ChangeDrawCardCountSkill"},
                "receive": {"MustReceiveMessage"}, "params": set()}


class Session:
    """A catalogue with its names and warm solvers: ask one question after another."""

    def __init__(self, cat: Catalogue, *, seats: int = DEFAULT_SEATS, grants: int | None = None,
                 timeout_ms: int = DEFAULT_TIMEOUT_MS, max_engines: int = 12, general: bool = False):
        """``general``: answer every question on one symbolic state holding every character and grant
        (built once by ``warm``) instead of one narrowed to the question — slower to build, then about
        as fast for any question: what a prompt wants. A single question is faster narrowed."""
        self.cat = cat
        self.general = general
        self.names = Names(cat)
        self.codes = X.Codes(cat)
        self.seats = seats
        self.grants = grants
        self.timeout_ms = timeout_ms
        self.engines: dict = {}
        self.max_engines = max_engines

    # ------------------------------------------------------------------------------------- shape
    def relevant(self, q: Query) -> tuple[set, set, bool]:
        """(kinds the question reads, rules it names, whether characters must be kept apart)."""
        kinds: set = set()
        named: set = set()
        exact = False
        atoms = atoms_of(q.claim)
        for g in q.givens:
            if g.kind in ("claim", "where"):
                atoms += atoms_of(g.claim)
            elif g.kind in ("with", "without"):
                named.add(g.rule)
            elif g.kind == "grant":
                named.update(g.grant.grants)
                named.add(g.grant.name)
                if g.grant.invalid_option:
                    kinds.add("ActiveSkill")
        for a in atoms:
            kinds |= _ATOM_KINDS.get(a.kind, set())
            if a.rule:
                named.add(a.rule)
            if a.kind == "where":
                for n in E.walk(a.value):
                    if (isinstance(n, E.Attr) and n.name == "character") or \
                            (isinstance(n, E.Const) and n.type == V.CHARACTER):
                        exact = True
        if q.which is not None:
            kinds |= _WHICH_KINDS[q.which.kind]
            if q.which.grant is not None:
                named.update(q.which.grant.grants)
                named.add(q.which.grant.name)
        return kinds, named, exact

    def shape(self, q: Query):
        cat = self.cat
        kinds, named, exact = self.relevant(q)
        rel_grants = [r.id for r in cat.grants if r.id != "InvalidSkill" and cat.sites(r.id) and
                      (r.id in named or (r.closure & kinds))]
        rel_rules = set(named) | set(rel_grants)
        for r in cat.skills.values():
            if r.closure & kinds:
                rel_rules.add(r.id)
            if any(g.grant in rel_grants or g.grant == "InvalidSkill" for g in r.gives):
                rel_rules.add(r.id)
        # a relevant rule that reads which character someone is: characters cannot be grouped
        exact = exact or any(_mentions_character(r) for rid in rel_rules for r in [cat.skills.get(rid)] if r)
        if q.subject is not None:
            chars = [q.subject]
        elif exact:
            chars = list(cat.characters)
        else:
            seen: dict = {}
            for c in cat.characters.values():
                sig = (c.hidden, c.female, tuple(r if r in rel_rules else ("-", cat.skills[r].initial,
                                                                          cat.skills[r].consumed)
                                                 for r in c.skills))
                seen.setdefault(sig, c.id)
            chars = list(seen.values())
        n_grant_givens = sum(1 for g in q.givens if g.kind == "grant") + (q.which is not None and q.which.kind == "params")
        G = self.grants if self.grants is not None else max(DEFAULT_GRANTS, n_grant_givens)
        if not rel_grants:
            G = 0
        # the other seats matter as givers (of the grants that matter, and of invalidation) and through what
        # expressions read of them (hidden, female): the givers' owners, and a few of every other kind
        if exact:
            others = list(cat.characters)
        else:
            givers = {g.giver for gid in list(rel_grants) + ["InvalidSkill"] for g in cat.sites(gid)
                      if not g.giver_is_card}
            keep = {c for gv in givers for c in cat.owners(gv)}
            per: dict = {}
            others = []
            for c in cat.characters.values():
                if c.id in keep:
                    others.append(c.id)
                elif per.get((c.hidden, c.female), 0) < self.seats:
                    per[(c.hidden, c.female)] = per.get((c.hidden, c.female), 0) + 1
                    others.append(c.id)
        if self.general:
            gG = self.grants if self.grants is not None else DEFAULT_GRANTS
            if G <= gG:
                every = list(cat.characters)
                return every, self.all_grants(), self.seats, gG, every
        return chars, rel_grants, self.seats, G, others

    def all_grants(self) -> list:
        return [r.id for r in self.cat.grants if r.id != "InvalidSkill" and self.cat.sites(r.id)]

    def engine(self, chars, grants, n, G, others=None) -> Engine:
        key = (tuple(chars), tuple(grants), n, G, tuple(others) if others is not None else None)
        e = self.engines.pop(key, None)
        if e is None:
            e = Engine(self.cat, chars, grants, n, G, self.codes, self.timeout_ms, others)
        e.set_timeout(self.timeout_ms)
        self.engines[key] = e
        while len(self.engines) > self.max_engines:
            self.engines.pop(next(iter(self.engines)))
        return e

    def warm(self):
        """Build the engine the most common questions use (called by the prompt at start)."""
        if self.general:
            every = list(self.cat.characters)
            gG = self.grants if self.grants is not None else DEFAULT_GRANTS
            self.engine(every, self.all_grants(), self.seats, gG, every).preferences()

    # ------------------------------------------------------------------------------------- asking
    def parse(self, text: str) -> Query:
        return parse(self.cat, text, self.names)

    def ask(self, text_or_query) -> Result:
        t0 = time.perf_counter()
        q = self.parse(text_or_query) if isinstance(text_or_query, str) else text_or_query
        chars, grants, n, G, others = self.shape(q)
        eng = self.engine(chars, grants, n, G, others)
        run = _Run(self, eng, q)
        res = run.go()
        res.bounds = {"seats": n, "grants": G, "characters": len(chars), "timeout_ms": self.timeout_ms}
        res.seconds = time.perf_counter() - t0
        res.engine = eng
        return res


class _Run:
    def __init__(self, session: Session, eng: Engine, q: Query):
        self.sess = session
        self.cat = session.cat
        self.E = eng
        self.S = eng.S
        self.q = q
        self.comp = Compiler(eng)
        self.solver = eng.solver

    # ---- items
    def items(self) -> tuple[list[Item], Item | None]:
        cat, S, q = self.cat, self.S, self.q
        extra: list[Item] = []
        if q.subject is not None:
            ch = cat.characters[q.subject]
            extra.append(Item("subject", f"the player is {ch.name}", (ch.id,),
                              S.char[0] == S.codes.char[ch.id]))
        for g in q.givens:
            rules: tuple = ()
            if g.kind in ("with", "without"):
                rules = (g.rule,)
            elif g.kind == "grant":
                rules = tuple(dict.fromkeys((g.grant.name,) + g.grant.grants))
            extra.append(Item("given", f"given `{g.text}`", rules, self.comp.given(g), given=g))
        claim = None
        if q.claim is not None:
            if q.mode == "always":
                e = z3.Not(self.comp.claim(q.claim, False))
                label = f"the question `{_claim_text(q)}`"
            else:
                e = self.comp.claim(q.claim, True)
                label = f"the question `{_claim_text(q)}`"
            claim = Item("claim", label, tuple(a.rule for a in atoms_of(q.claim) if a.rule), e)
        for k, it in enumerate(extra + ([claim] if claim else [])):
            self.E.counter += 1
            it.lit = z3.Bool(f"__q{self.E.counter}_{k}")
        return extra, claim

    def check(self, lits):
        return self.solver.check(*lits)

    def why_unknown(self, default: str) -> str:
        r = self.solver.reason_unknown() or default
        if r in ("canceled", "timeout"):
            return f"timeout: no answer within {self.sess.timeout_ms} ms (z3: {r})"
        return r

    # ---- main
    def go(self) -> Result:
        q = self.q
        if q.mode == "which" and q.which.kind == "params":
            return self.which_params()
        s = self.solver
        s.push()
        try:
            extra, claim = self.items()
            for it in extra + ([claim] if claim else []):
                s.add(z3.Implies(it.lit, it.expr))
            for e in self.S.extra:
                s.add(e)
            base = [self.E.all_lit] + [it.lit for it in extra]
            if q.mode == "which":
                return self.which(extra, base)
            lits = base + [claim.lit]
            r = self.check(lits)
            if r == z3.unknown:
                return Result(q, "unknown", headline="the solver could not decide",
                              reason=self.why_unknown("unknown"))
            if q.mode == "exists":
                if r == z3.sat:
                    return self.found(lits, "example", "yes")
                return self.proved(extra, claim, lits, "no")
            if q.mode == "always":
                if r == z3.sat:
                    return self.found(lits, "counterexample", "no")
                return self.proved(extra, claim, lits, "yes")
            if q.mode == "never":
                if r == z3.sat:
                    return self.found(lits, "counterexample", "no")
                return self.proved(extra, claim, lits, "yes")
            raise ValueError(q.mode)
        finally:
            s.pop()

    # ---- sat: a minimal witness, replayed
    light = False          # set for the many sub-questions of a parameter enumeration

    def found(self, lits, role: str, answer: str) -> Result:
        q = self.q
        st = X.witness(self.S, self.minimize(lits) if not self.light else self.solver.model())
        want = {"example": True, "counterexample": q.mode == "never"}[role]
        res = Result(q, answer, witness_role=role)
        problem = self.replay_problem(st, want)
        if problem:
            return Result(q, "unknown", headline="the solver and the interpreter disagree",
                          reason=f"the solver's witness does not replay in the interpreter: {problem}")
        res.witness, res.traces = self.scenario(st)
        res.origin = N.origin(self.cat, st)
        res.headline = self.headline(answer, role, st)
        return res

    def replay_problem(self, st: State, want: bool) -> str:
        why = I.reachable(self.cat, st)
        if why:
            return "; ".join(why)
        for g in self.q.givens:
            if not eval_given(self.cat, st, g):
                return f"the given `{g.text}` does not hold"
        if self.q.subject is not None and st.seats[0].character != self.q.subject:
            return "the player is not the one asked about"
        if self.q.claim is not None and eval_claim(self.cat, st, self.q.claim) != want:
            return f"the claim is {'false' if want else 'true'} there"
        return ""

    def scenario(self, st: State, claim_only: bool = False) -> tuple[dict, list]:
        """The witness as a scenario: decide-form questions for every decidable atom, with the
        interpreter's answers; and the narrated traces."""
        cat = self.cat
        atoms = atoms_of(self.q.claim)
        if not claim_only:
            for g in self.q.givens:
                if g.kind == "claim":
                    atoms += atoms_of(g.claim)
        items = []
        seen = set()
        for a in atoms:
            _, cards = eval_atom(cat, st, a)
            for qd in atom_questions(cat, a, cards):
                key = repr(sorted(qd.items()))
                if key in seen:
                    continue
                seen.add(key)
                ans = I.decide(cat, st, qd)
                items.append((qd, {k: ans[k] for k in _expect_keys(a) if k in ans}))
        if not items:
            items.append(({"decision": "reachable"}, {"reachable": True}))
        w = {"state": st.to_dict(), "question": items[0][0], "expect": items[0][1]}
        if len(items) > 1:
            w["also"] = [{"question": qd, "expect": e} for qd, e in items[1:]]
        traces = [N.narrate(cat, st, qd) for qd, _ in items if qd["decision"] != "reachable"]
        for a in atoms:
            if a.kind == "use":
                traces.append(N.narrate_usable(cat, st, 0, a.rule, a.phase))
        return w, traces

    def minimize(self, lits, prefer=None, model=None):
        """Fewest grants, fewest seats, then plain attributes (as solve.Query does), then the smallest
        grant parameters — each preference kept only if still satisfiable. Call right after a sat check;
        returns the final model. A preference the current model already meets is kept without asking
        the solver again."""
        S = self.S
        self.model = model if model is not None else self.solver.model()
        for c in prefer or []:
            self.try_(lits, c)
        for xs in ([sl.present for sl in S.slots if not sl.initial_slot], S.present[1:]):
            if not xs:
                continue
            count = z3.Sum([z3.If(x, 1, 0) for x in xs])
            now = self.model.eval(count, model_completion=True).as_long()
            for k in range(now + 1):
                if self.try_(lits, count <= k):
                    break
        for whole, chunks in self.E.preferences():
            if not self.try_(lits, whole):
                for chunk, items in chunks:
                    if not self.try_(lits, chunk):
                        for c in items:
                            self.try_(lits, c)
        # the smallest hand that still works, when a hand is needed
        for c in self.E.hand_bounds:
            if self.try_(lits, c):
                break
        return self.model

    def illustration_prefs(self) -> list:
        """For a state that illustrates a 'no': prefer one where the question gets as far as it can — the
        skill it names is held, the conversion is allowed (so that a ban shows), the cards cannot be
        played (so that the skill test shows)."""
        S = self.S
        out = []
        for a in atoms_of(self.q.claim):
            if a.rule:
                out.append(self.comp.holds(a.rule, live=False))
            if a.kind == "play" and all(c is not None for c in a.cards):
                out.append(X.enc_conversion(S, self.comp.card(a.cards[0]), self.comp.card(a.cards[1]))[0])
            if a.kind == "skip":
                out.append(z3.Or(S.ints["hand_count"][0] == 0, X.enc_banned_all(S)))
                out.append(S.ever[0])
        return out

    def try_(self, lits, c) -> bool:
        s = self.solver
        if z3.is_true(self.model.eval(c, model_completion=True)):
            s.add(c)                                  # the current model already meets it
            return True
        s.push()
        s.add(c)
        r = s.check(*lits)
        if r == z3.sat:
            self.model = s.model()
        s.pop()
        if r == z3.sat:
            s.add(c)
            return True
        return False

    # ---- unsat: the minimal core
    def proved(self, extra, claim, lits, answer: str) -> Result:
        q = self.q
        lits = [x for x in lits if not x.eq(self.E.all_lit)]
        lits = list(self.E.lits) + lits
        r = self.check(lits)                       # again, with every constraint named
        if r != z3.unsat:
            return Result(q, "unknown", headline="the solver could not decide",
                          reason=self.why_unknown("the core could not be extracted"))
        core_ids = {c.get_id() for c in self.solver.unsat_core()}
        by_id = {it.lit.get_id(): it for it in extra + ([claim] if claim else [])}
        items = []
        for lit in lits:
            if lit.get_id() not in core_ids:
                continue
            if lit.get_id() in by_id:
                items.append(by_id[lit.get_id()])
            else:
                lab = self.E.lab_of[lit.get_id()]
                items.append(Item("reach", lab.label, lab.rules, lab.expr, lit))
        core = self.minimize_core(items) if not self.light else items
        if core is None:
            return Result(q, "unknown", headline="the solver could not decide",
                          reason=self.why_unknown("timeout while minimising the core"))
        res = Result(q, answer, core=core)
        res.because = [self.describe(it) for it in core if it.kind != "claim" or it.rules]
        claim_in_core = any(it.kind == "claim" for it in core)
        if not claim_in_core and claim is not None:
            res.notes.append("the givens themselves can never hold (together) in a reachable state — whatever "
                             "the question, the answer follows from them alone")
        # an illustration: a state where the givens hold, narrated (the claim fails there for 'no',
        # holds for a proved 'always' / fails for a proved 'never')
        if claim_in_core:
            base = [self.E.all_lit] + [it.lit for it in extra]
            self.solver.push()
            try:
                r = self.check(base)
                if r == z3.sat:
                    m = self.minimize(base, prefer=self.illustration_prefs())
                    if m is not None:
                        st = X.witness(self.S, m)
                        want = q.mode == "always"
                        if not I.reachable(self.cat, st) and eval_claim(self.cat, st, q.claim) == want and \
                                all(eval_given(self.cat, st, g) for g in q.givens):
                            res.illustration, res.illustration_traces = self.scenario(st)
                            named = {a.rule for a in atoms_of(q.claim) if a.rule}
                            for t in res.illustration_traces:
                                for step in t.steps:
                                    if step.decisive or (step.rule and step.rule in named):
                                        res.because.append(_decided_by(self.cat, step))
            finally:
                self.solver.pop()
        res.because = _dedupe(res.because)
        res.headline = self.headline(answer, "proof", None) if claim is not None else \
            "no — no reachable state satisfies the givens"
        return res

    def minimize_core(self, items: list[Item]):
        """Deletion-based minimisation: drop each constraint whose removal keeps the rest unsat (then
        shrink to the solver's core of the rest). Background constraints are tried first, the designer's
        own givens last. Once a constraint is found necessary it stays necessary in every subset."""
        order = {"reach": 0, "subject": 1, "given": 2, "claim": 3}
        keep = sorted(items, key=lambda it: order[it.kind])
        needed: set = set()
        changed = True
        while changed:
            changed = False
            for it in list(keep):
                if id(it) in needed:
                    continue
                trial = [x for x in keep if x is not it]
                r = self.check([x.lit for x in trial])
                if r == z3.unknown:
                    return None
                if r == z3.unsat:
                    ids = {c.get_id() for c in self.solver.unsat_core()}
                    keep = [x for x in trial if x.lit.get_id() in ids or id(x) in needed]
                    changed = True
                    break
                needed.add(id(it))
        return keep

    def describe(self, it: Item) -> dict:
        named = [gid for g in self.q.givens if g.kind == "grant" for gid in g.grant.grants]
        return describe_item(self.cat, self.S, it, named)

    # ---- which
    def which(self, extra, base) -> Result:
        q, S, cat = self.q, self.S, self.cat
        C = S.codes
        w = q.which
        term, card_vars, decode, atom_for = self.which_term(w)
        values = []
        blocked = []
        lits = list(base)
        self.solver.push()
        try:
            for _ in range(MAX_VALUES):
                r = self.check(lits)
                if r == z3.unknown:
                    if values:
                        break
                    return Result(q, "unknown", headline="the solver could not decide",
                                  reason=self.why_unknown("unknown"))
                if r == z3.unsat:
                    break
                m0 = self.solver.model()                 # (a push forgets the last model)
                self.solver.push()
                try:
                    m = self.minimize(lits, model=m0)
                    v = m.eval(term, model_completion=True).as_long()
                    cards = tuple(C.cards[m.eval(x, model_completion=True).as_long()] for x in card_vars)
                    st = X.witness(S, m)
                finally:
                    self.solver.pop()
                self.solver.add(term != v)
                blocked.append(v)
                value, name = decode(v, st)
                atom, info = atom_for(value, cards)
                problem = self.replay_problem(st, True)
                if not problem and not eval_claim(cat, st, atom):
                    problem = f"the interpreter does not give {name} there"
                if problem:
                    return Result(q, "unknown", headline="the solver and the interpreter disagree",
                                  reason=f"the solver's witness does not replay in the interpreter: {problem}")
                self.q.claim = BoolOp("and", [atom] + info) if info else atom
                try:
                    wd, traces = self.scenario(st)
                finally:
                    self.q.claim = None
                entry = {"value": value, "name": name, "witness": wd, "traces": traces}
                if w.kind == "conversion":
                    entry["cards"] = list(cards)
                    entry["name"] = f"{name} ({N.card(cat, cards[0])} as {N.card(cat, cards[1])})" \
                        if None in w.cards else name
                values.append(entry)
        finally:
            self.solver.pop()
        if not values:
            if self.check(base) != z3.unsat:
                return Result(q, "unknown", headline="the solver could not decide",
                              reason=self.why_unknown("unknown"))
            return self.proved(extra, None, base, "no")
        res = Result(q, "yes", values=values)
        names = ", ".join(v["name"] for v in values)
        more = " (and possibly more: the list stops at %d)" % MAX_VALUES if len(values) == MAX_VALUES else ""
        res.headline = f"{len(values)} possible answer{'s' if len(values) != 1 else ''}: {names}{more}"
        res.witness = values[0]["witness"]
        res.witness_role = "example"
        res.traces = values[0]["traces"]
        return res

    def which_params(self) -> Result:
        """For each parameter value the gives sites allow: can the claim hold with the grant so declared?"""
        q, cat = self.q, self.cat
        w = q.which
        gr = w.grant
        name = cat.name_of(gr.grants[0]) if len(gr.grants) == 1 else cat.name_of(gr.name)
        values = []
        first_yes = None
        for combo in w.combos:
            args = dict(gr.args)
            args.update(combo)
            desc = ", ".join(f"{p}={_arg_text(cat, v)}" for p, v in args.items())
            g2 = GrantRef(gr.name, gr.grants, gr.sites, args, False, ())
            given = Given("grant", w.col, w.end, f"under {name}({desc})", grant=g2)
            sub = Query(q.text, "exists", q.subject, claim=q.claim, givens=list(q.givens) + [given],
                        subject_col=q.subject_col)
            run = _Run(self.sess, self.E, sub)
            run.light = first_yes is not None
            r = run.go()
            if r.answer == "unknown":
                return Result(q, "unknown", headline="the solver could not decide", reason=r.reason)
            entry = {"value": {p: v[1] if v[0] != "set" else list(v[1]) for p, v in combo.items()}, "name": desc,
                     "answer": r.answer, "witness": r.witness if r.answer == "yes" else None,
                     "illustration": r.illustration if r.answer == "no" else None,
                     "because": r.because, "traces": r.traces if r.answer == "yes" else r.illustration_traces}
            values.append(entry)
            if r.answer == "yes" and first_yes is None:
                first_yes = r
        yes = [v for v in values if v["answer"] == "yes"]
        no = [v for v in values if v["answer"] == "no"]
        res = Result(q, "yes" if yes else "no", values=values)
        claim = _claim_text(q)
        res.headline = (f"{name}: `{claim}` holds for {len(yes)} of the {len(values)} declarations its gives "
                        f"site allows" + (f"; not for {'; '.join(v['name'] for v in no)}" if no else ""))
        if first_yes is not None:
            res.witness, res.witness_role, res.traces = first_yes.witness, "example", first_yes.traces
            res.origin = first_yes.origin
        return res

    def which_term(self, w: Which):
        """(value term, card variables, decode(v, state) → (value, name), atom_for(value, cards) → (atom
        that holds on a witness of that value, extra atoms to narrate))."""
        S, cat, C = self.S, self.cat, self.S.codes
        if w.kind == "conversion":
            xs = []
            for c in w.cards:
                if c is None:
                    v, d = self.comp.fresh()
                    self.solver.add(d)
                    xs.append(v)
                else:
                    xs.append(z3.IntVal(C.card[c]))
            ok, via = X.enc_conversion(S, xs[0], xs[1])
            rule_at = z3.IntVal(-1)
            for sl in S.slots:
                rule_at = z3.If(via == sl.index, sl.rule, rule_at)
            term = z3.If(z3.Not(ok), -2, z3.If(via == X.NONE, -1, rule_at))

            def decode(v, st):
                if v == -2:
                    return "cannot", "cannot be used (no conversion allows it, or one vetoes it)"
                if v == -1:
                    return None, "no conversion (played as itself)"
                return C.rules[v], cat.skills[C.rules[v]].name

            def atom_for(value, cards):
                conv = Atom("convert", 0, 0, cards=cards)
                play = [Atom("play", 0, 0, cards=cards)]
                if value == "cannot":
                    return Not(conv), play
                if value is None:
                    fires = [Not(Atom("fire", 0, 0, cards=cards, rule=r)) for r in cat.skills
                             if cat.skills[r].convert is not None]
                    return BoolOp("and", [conv] + fires), play
                return Atom("fire", 0, 0, cards=cards, rule=value), play
            return term, xs, decode, atom_for
        if w.kind == "send":
            f = X.enc_send_in_force(S, w.group)
            rule_at = z3.IntVal(-1)
            for sl in S.slots:
                rule_at = z3.If(f == sl.index, sl.rule, rule_at)

            def decode(v, st):
                if v == -1:
                    return None, "the default rule"
                return C.rules[v], cat.skills[C.rules[v]].name
            return rule_at, [], decode, lambda value, cards: (Atom("send_by", 0, 0, group=w.group, rule=value), [])
        if w.kind == "draw":
            return X.enc_draw_count(S), [], (lambda v, st: (v, str(v))), \
                (lambda value, cards: (Atom("draw", 0, 0, value=("==", value)), []))
        if w.kind == "receive":
            names = {X.FREE: "free", X.MUST: "must", X.CANNOT: "cannot"}
            return X.enc_receive(S), [], (lambda v, st: (names[v], {"free": "may choose", "must": "must receive",
                                                                     "cannot": "cannot receive"}[names[v]])), \
                (lambda value, cards: (Atom("receive", 0, 0, value=value), []))
        raise ValueError(w.kind)

    # ---- words
    def headline(self, answer: str, role: str, st: State | None) -> str:
        q = self.q
        claim = _claim_text(q) or "the claim"
        given = ""
        if q.givens:
            given = " (" + "; ".join(g.text for g in q.givens) + ")"
        who = self.cat.characters[q.subject].name if q.subject else None
        seen = self.cat.characters[st.seats[0].character].name if st is not None else None
        bound = f"within {self.S.n} seats and {self.S.G} granted skills"
        if q.mode == "exists":
            if answer == "yes":
                return f"yes — e.g. {seen}: {claim}{given}"
            return f"no — {who + ' never' if who else 'no player ever'}: {claim}{given} ({bound})"
        if q.mode == "always":
            if answer == "yes":
                return f"yes — always{' for ' + who if who else ''}: {claim}{given} ({bound})"
            return f"no — counterexample ({seen}): not {claim}{given}"
        if q.mode == "never":
            if answer == "yes":
                return f"yes — never{' for ' + who if who else ''}: {claim}{given} ({bound})"
            return f"no — it happens, e.g. {seen}: {claim}{given}"
        return ""


def _arg_text(cat, v) -> str:
    kind, x = v
    if kind == "set":
        return "{" + ", ".join(N.card(cat, c) for c in x) + "}"
    if kind == "card":
        return N.card(cat, x)
    if kind == "bool":
        return "yes" if x else "no"
    return str(x)


def _mentions_character(rule) -> bool:
    nodes = [rule.fight, rule.dying, rule.draw]
    if rule.receive is not None:
        nodes += [rule.receive.must, rule.receive.cannot]
    if rule.send is not None:
        nodes.append(rule.send.rule)
    for g in rule.gives:
        nodes += [g.when, g.where]
    for n in nodes:
        if n is None:
            continue
        for x in E.walk(n):
            if (isinstance(x, E.Attr) and x.name == "character") or \
                    (isinstance(x, E.Const) and x.type == V.CHARACTER):
                return True
    return False


def _z_giver_ok(S, give, g: int):
    """Seat ``g`` can be the giver of ``give`` (a card: anyone; a skill: its owners)."""
    if give.giver_is_card:
        return z3.BoolVal(True)
    owners = set(S.cat.owners(give.giver)) & set(S.chars_me if g == 0 else S.chars_other)
    return z3.Or([S.char[g] == S.codes.char[c] for c in sorted(owners)] or [z3.BoolVal(False)])


def _chunks(xs, k):
    for i in range(0, len(xs), k):
        yield xs[i:i + k]


def _claim_text(q: Query) -> str:
    atoms = atoms_of(q.claim)
    if not atoms:
        return ""
    start = min(a.col for a in atoms if a.text) if any(a.text for a in atoms) else 0
    end = max(a.end for a in atoms if a.text) if any(a.text for a in atoms) else 0
    return q.text[start:end] if end > start else ""


def _ref(cat, ident: str, loc=None) -> dict:
    for table in (cat.skills, cat.cards, cat.characters):
        if ident in table:
            obj = table[ident]
            l = loc or obj.loc
            return {"id": ident, "name": obj.name, "file": l.file, "line": l.line}
    return {"id": ident, "name": ident, "file": "", "line": 0}


def _loc_ref(name: str, loc) -> dict:
    return {"id": "", "name": name, "file": loc.file, "line": loc.line}


def _decided_by(cat, step) -> dict:
    if step.rule:
        return {"kind": "decides", "says": step.text, "rules": [_ref(cat, step.rule, step.loc)]}
    return {"kind": "decides", "says": step.text,
            "rules": [_loc_ref("engine rule", step.loc)] if step.loc else []}


def _dedupe(items: list) -> list:
    out, seen = [], set()
    for it in items:
        key = (it["kind"], it["says"])
        if key not in seen:
            seen.add(key)
            out.append(it)
    return out


def describe_item(cat, S, it: Item, named_grants=()) -> dict:
    """A core constraint in the designer's terms, with the catalogue lines behind it."""
    lab = it.label
    if it.kind == "subject":
        return {"kind": "subject", "says": lab, "rules": [_ref(cat, r) for r in it.rules]}
    if it.kind == "given":
        g = it.given
        rules = []
        if g is not None and g.kind == "grant":
            for gid in g.grant.grants:
                rules.append(_ref(cat, gid))
            for s in g.grant.sites[:3]:
                rules.append(_loc_ref(f"{cat.name_of(s.giver)} → {cat.name_of(s.grant)} (gives)", s.loc))
        else:
            rules = [_ref(cat, r) for r in it.rules]
            if g is not None and g.kind in ("with", "without") and not cat.skills[g.rule].is_grant:
                owners = cat.owners(g.rule)
                rules += [_loc_ref(f"{cat.characters[c].name} starts with {cat.skills[g.rule].name}",
                                   cat.characters[c].loc) for c in owners[:4]]
                if not owners:
                    rules.append(_loc_ref(f"no character starts with {cat.skills[g.rule].name}",
                                          cat.skills[g.rule].loc))
        return {"kind": "given", "says": lab, "rules": rules}
    if it.kind == "claim":
        return {"kind": "claim", "says": lab, "rules": [_ref(cat, r) for r in dict.fromkeys(it.rules)]}
    # reachability constraints
    m = re.match(r"initial skill (\d+)$", lab)
    if m:
        j = int(m.group(1))
        chars = S.chars_me
        rules = []
        if len(chars) == 1:
            ch = cat.characters[chars[0]]
            names = ", ".join(cat.skills[r].name for r in ch.skills)
            says = f"{ch.name}'s skills are {names}, in that order (position {j + 1}: " + \
                   (f"{cat.skills[ch.skills[j]].name}" if j < len(ch.skills) else "none") + ")"
            rules.append(_ref(cat, ch.id))
            if j < len(ch.skills):
                rules.append(_ref(cat, ch.skills[j]))
        else:
            says = f"the player's skill at position {j + 1} is the one their character starts with"
        return {"kind": "rule", "says": says, "rules": rules}
    if lab.startswith("distinct characters"):
        return {"kind": "rule", "says": "every seat holds a different character (a character is at the table "
                                        "at most once)", "rules": []}
    if lab == "seat 0 character":
        if len(S.chars_me) == 1:
            ch = cat.characters[S.chars_me[0]]
            return {"kind": "rule", "says": f"the player is {ch.name}", "rules": [_ref(cat, ch.id)]}
        return {"kind": "rule", "says": f"the player is one of {len(S.chars_me)} characters (one of each kind "
                                        f"that matters to this question)", "rules": []}
    m = re.match(r"grant (\d+) source$", lab)
    if m:
        sites = []
        for gid in S.grant_ids:
            for give in cat.sites(gid):
                sites.append(give)
        named = [s for g in (named_grants or ()) for s in cat.sites(g)]
        if named:
            sites = named + [s for s in sites if s not in named]
        rules = [_loc_ref(f"{cat.name_of(s.giver)} gives {cat.name_of(s.grant)} to {s.to}"
                          + (f" where {N.pretty(s.where)}" if s.where is not None else ""), s.loc) for s in sites[:8]]
        return {"kind": "rule", "says": "a granted skill comes from a gives site whose giver is at the table, "
                                        "to whom the site allows, with the parameters it allows", "rules": rules}
    m = re.match(r"(.+)#(\d+) per_turn$", lab)
    if m:
        src = cat.skills.get(m.group(1)) or cat.cards.get(m.group(1))
        give = src.gives[int(m.group(2))] if src else None
        rules = [_loc_ref(f"{cat.name_of(m.group(1))} per_turn = {give.per_turn}", give.loc)] if give else []
        return {"kind": "rule", "says": f"{cat.name_of(m.group(1))} hands out its skill at most "
                                        f"{give.per_turn if give else '?'} time(s) a turn", "rules": rules}
    m = re.match(r"seat (\d+) invalidation needs a giver$", lab)
    if m:
        rules = [_loc_ref(f"{cat.name_of(g.giver)} invalidates ({g.to})", g.loc) for g in cat.sites("InvalidSkill")]
        return {"kind": "rule", "says": f"seat {m.group(1)}'s skills can only be invalidated by someone at the "
                                        f"table who can do it", "rules": rules}
    m = re.match(r"seat (\d+) public roles face up$", lab)
    if m:
        return {"kind": "rule", "says": "public roles (not 隐藏角色) are always face up",
                "rules": [_ref(cat, r) for r in it.rules if r in S.chars_me][:3]}
    return {"kind": "bound", "says": lab, "rules": [_ref(cat, r) for r in it.rules][:4]}
