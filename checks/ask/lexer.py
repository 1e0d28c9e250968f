"""Words of a question: the tokenizer (keywords in English and Chinese, runs of Chinese characters split
into known names) and the token cursor the parser walks with."""
from __future__ import annotations

import re
from dataclasses import dataclass

from skillproof.model import limits as L
from skillproof.model.msg import Msg

from .errors import QueryError
from .names import DIRS, GROUPS, PHASES, WINDOW_PHRASES, Names, name_keys


@dataclass
class Tok:
    kind: str          # word num op arrow end; cond role claim: a ready-made given (phrases.py)
    text: str
    col: int
    end: int
    kw: str = ""       # canonical keyword, if the word is one
    src: str = ""      # what the designer wrote, when the phrasebook (phrases.py) made this word of it

    @property
    def shown(self) -> str:
        """The word as the designer wrote it."""
        return self.src or self.text


_TOK = re.compile(r"""
    (?P<ws>\s+)
  | (?P<arrow>->|→|=>|⇒)
  | (?P<op>==|!=|<=|>=|[<>=(){},?;，（）？；、：。])
  | (?P<poss>['’]s(?![A-Za-z]))
  | (?P<word>[A-Za-z0-9_\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff·・]+)
  | (?P<other>.)
""", re.VERBOSE)
_FULLWIDTH = {"，": ",", "（": "(", "）": ")", "？": "?", "；": ",", ";": ",", "、": ",", "：": ",", "。": ","}

#: keyword spellings → canonical keyword. Multi-word phrases are recognised by the parser.
KEYWORDS: dict[str, str] = {}
for _canon, _words in {
    "exists": ("can", "could", "exists", "exist", "does", "do", "is", "are", "能否", "能不能", "可否", "能", "可以",
               "是否", "会不会", "会", "还能", "仍能", "还可以", "仍可以", "仍然可以", "仍然能", "能够", "可能", "有可能",
               "还会", "可不可以", "是不是", "有没有", "可能会", "还可能", "也能", "也可以", "还能够", "得以"),
    "always": ("always", "总是", "一定", "必然", "始终", "必定", "肯定", "都会", "一定会"),
    "never": ("never", "从不", "绝不", "永远不", "不可能", "不会", "无法", "没法", "不能够", "从来不", "绝不能"),
    "cannot_mode": ("cannot", "can't", "cant", "不可以", "不可"),
    "which": ("which", "what", "哪个", "哪些", "什么"),
    "anyone": ("anyone", "anybody", "someone", "somebody", "任何人", "任意角色", "有人", "某人", "玩家", "player",
               "players", "任何角色", "一名角色", "一名玩家", "角色", "我", "你", "某名角色", "所有人", "所有角色",
               "每个人", "每名角色", "每个角色", "任一角色", "他", "她", "everyone", "everybody",
               "有没有人", "是否有人", "有谁", "一个人", "一个角色", "一个玩家", "一位角色", "一位玩家", "某个角色",
               "某个玩家", "某位角色", "某名玩家", "任何玩家", "任意玩家", "任一玩家", "所有玩家", "每名玩家", "每个玩家"),
    "play": ("play", "plays", "playing", "played", "get", "gets", "打出", "出"),
    "use": ("use", "uses", "using", "used", "使用", "用"),
    "as": ("as", "当作", "当成", "当", "作为"),
    "convert": ("convert", "converts", "converted", "turn", "turns", "转化"),
    "to": ("to", "into"),
    "fire": ("fire", "fires", "firing", "fired", "发动", "触发"),
    "for": ("for",),
    "banned": ("banned", "ban", "bans", "banning", "forbidden", "被禁", "禁止", "禁"),
    "from": ("from", "on", "of", "by"),
    "must": ("must", "has_to", "必须"),
    "receive": ("receive", "receives", "receiving", "accept", "接收", "收下", "收取"),
    "cannot": ("cannot", "can't", "cant", "不能"),
    "may": ("may", "可选"),
    "choose": ("choose", "decline", "choice", "free", "选择"),
    "skipped": ("skipped", "skip", "skips", "跳过"),
    "act": ("act", "acts", "行动"),
    "remind": ("remind", "reminds", "reminded", "prompt", "prompts", "prompted", "提醒"),
    "win": ("win", "wins", "won", "winning"),
    "die": ("die", "dies", "died"),
    "received": ("received",),
    "in": ("in", "during", "在"),
    "send": ("send", "sends", "sending", "传出", "传"),
    "rule": ("rule", "rules", "规则"),
    "default": ("default", "默认"),
    "locking": ("locking", "locks", "lock_count"),
    "draw": ("draw", "draws", "drawing", "摸", "摸牌"),
    "count": ("count", "number", "数", "数量"),
    "hold": ("hold", "holds", "holding", "have", "has", "having", "持有", "拥有"),
    "cards": ("cards", "card_in_hand", "hand_cards", "手牌", "卡牌"),
    "hand": ("hand", "hand_count"),
    "invalidated": ("invalidated", "invalid", "无效"),
    "face": ("face",),
    "up": ("up",),
    "down": ("down",),
    "face_up": ("face_up", "faceup", "正面朝上", "翻开"),
    "face_down": ("face_down", "facedown", "背面朝上", "盖着"),
    "with": ("with", "带着"),
    "without": ("without", "没有"),
    "under": ("under", "受"),
    "while": ("while", "当"),
    "if": ("if", "when", "given", "如果", "若"),
    "after": ("after",),
    "previous": ("previous", "last", "上一", "前一"),
    "this": ("this",),
    "own": ("own", "自己"),
    "other": ("another", "other", "others", "else", "别人", "其他角色", "他人", "其他玩家", "其他人", "别的角色"),
    "self_word": ("herself", "himself", "themselves", "themself", "oneself", "itself", "self"),
    "again": ("again", "twice", "再次", "又一次"),
    "again_game": ("again_game",),         # 偷天能再次使用吗: again, at some later moment of the game
    "resolve": ("resolve", "resolves", "resolving", "produce", "produces", "产生"),
    "locked": ("locked", "被锁定"),
    "turn_word": ("回合",),
    "previous_turn": ("上一回合", "上回合", "前一回合", "上个回合"),
    "this_turn": ("本回合", "这一回合", "这回合"),
    "seat_left": ("上家",),                 # a player's living neighbour on the left (the lower seat: server getNextLeftAlivePlayer)
    "seat_right": ("下家",),                # … on the right (the next seat in turn order)
    "where": ("where", "such_that"),
    "declares": ("declares", "declare", "declared", "declaring", "宣言", "宣布", "names", "named"),
    "active": ("active", "effective", "生效", "有效", "起作用", "还有效", "仍有效"),
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
    "events": ("events", "event", "triggers"),
    "true": ("true", "yes"),
    "false": ("false",),
    "filler": ("still", "ever", "be", "a", "an", "the", "she", "he", "they", "it", "her", "his", "their",
               "does", "do", "effect", "吗", "呢", "了", "的", "还", "仍", "仍然", "把", "将", "时", "吧", "啊",
               "呀", "嘛", "也", "都", "又", "再", "已经", "已", "要", "得", "去", "来", "一张", "张", "情报", "马上",
               "立刻", "本身", "这张", "该", "此", "一回合", "每回合", "同一回合", "一局", "每局", "一局游戏", "整局",
               "那么", "那", "请问", "想问", "问一下", "时候", "目前", "现在", "此时", "当时", "这时", "那时", "之下",
               "情况下", "的情况下", "被", "one", "ones", "also", "then", "yet", "now", "there"),
    "into": ("into",),
    "only": ("only", "只有", "仅有", "只能由", "只能"),
    "outside": ("outside",),
    # effect verbs (parse_effects.py: what an effect does — 放入, 拿走, 救 …)
    "discard_v": ("弃置", "弃掉", "弃牌", "discard", "discards"),
    "take_v": ("拿走", "抽走", "获得", "take", "takes"),
    "hand_over_v": ("交出", "交给"),
    "put_v": ("放入", "置入", "放进", "放到", "put", "puts"),
    "remove_v": ("移除", "去掉", "remove", "removes"),
    "save_v": ("救", "救活", "救下", "save", "saves"),
    "kill_v": ("杀死", "杀掉", "kill", "kills"),
    "show_v": ("展示", "show", "shows"),
    "end_turn_v": ("结束回合",),
    "send_v": ("send_v",),          # the phrasebook's word for a rule's effect sending a message (欲擒故纵能传出…)
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

GIVEN_KWS = ("with", "without", "under", "while", "if", "where", "after", "outside")
#: postpositions closing a clause (parse_zh.py): after an event, at a moment
POST_AFTER = ("后", "之后", "以后", "过后", "after that")
POST_WHEN = ("时", "的时候", "时候", "之时", "期间")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def tokenize(text: str, names: Names) -> list[Tok]:
    """The tokens of ``text``, with their columns, ending with an ``end`` token. A question over
    ``limits.QUESTION_CHARS`` characters, or a number outside ``±limits.INT_MAX``, is a located error."""
    if len(text) > L.QUESTION_CHARS:
        raise QueryError(Msg("问题长 {n:,} 个字符，超过上限 {limit:,}",
                             "the question is {n:,} characters long, over the limit of {limit:,}",
                             n=len(text), limit=L.QUESTION_CHARS), L.QUESTION_CHARS, L.QUESTION_CHARS + 1)
    known = known_words(names)
    out: list[Tok] = []
    i = 0
    while i < len(text):
        m = _TOK.match(text, i)
        kind = m.lastgroup
        t = m.group()
        if kind == "word":
            for col, w in _segment(t, m.start(), known, names._longest):
                if w.isdigit() and (len(w) > len(str(L.INT_MAX)) or int(w) > L.INT_MAX):
                    raise QueryError(Msg("数超出范围（至多 {max:,}）", "number out of range (at most {max:,})",
                                         max=L.INT_MAX), col, col + len(w))
                out.append(Tok("num" if w.isdigit() else "word", w, col, col + len(w),
                               KEYWORDS.get(w.lower(), "")))
        elif kind == "poss":
            pass                                   # possessive 's: "强令's ban"
        elif kind == "arrow":
            out.append(Tok("arrow", "→", m.start(), m.end()))
        elif kind in ("op", "other"):
            out.append(Tok("op" if kind == "op" else "other", _FULLWIDTH.get(t, t), m.start(), m.end(),
                           src=t if t in _FULLWIDTH else ""))
        i = m.end()
    out.append(Tok("end", "", len(text), len(text)))
    return _aliases(_colloquial(_spaced_pinyin(out, text, names)), text, names)


def _spaced_pinyin(out: list, text: str, names: Names) -> list:
    """A name spelled in pinyin syllables apart, each capitalised (Po Yi, Jie Huo, SP Li Ningyu), is one token when the
    syllables run together are a name (names.Names spells ids without spaces)."""
    def cap(t):
        return t.kind == "word" and t.text.isascii() and t.text.isalpha() and t.text[0].isupper()
    res: list = []
    i = 0
    while i < len(out):
        for k in (4, 3, 2):
            span = out[i:i + k]
            if len(span) == k and all(cap(t) for t in span) and \
                    all(text[a.end:b.col] == " " for a, b in zip(span, span[1:])) and \
                    "".join(t.text for t in span).lower() in names.words:
                w = text[span[0].col:span[-1].end]
                res.append(Tok("word", w, span[0].col, span[-1].end, KEYWORDS.get(w.lower(), "")))
                i += k
                break
        else:
            res.append(out[i])
            i += 1
    return res


#: how designers say it in speech → the words of the question language (each word keeps the columns of what was
#: written): 挂了 (died), 手里没牌 (has no hand cards), 打牌 (plays a card), 赢 (wins)
COLLOQUIAL = {"挂了": ("死亡",), "挂掉": ("死亡",), "挂掉了": ("死亡",), "死掉了": ("死亡",),
              "手里没牌": ("没有", "手牌"), "手里没有牌": ("没有", "手牌"), "手上没牌": ("没有", "手牌"),
              "没牌": ("没有", "手牌"), "打牌": ("使用", "牌"), "赢": ("获胜",), "赢吗": ("获胜", "吗"),
              "角色牌面朝下": ("面朝下",), "角色牌面朝上": ("面朝上",), "角色牌翻开": ("面朝上",),
              # 发 / 打 for 发动 / 使用 (老虎能不能在别人的出牌阶段发运筹帷幄, 能打破译吗), 大家 for everyone
              "发": ("发动",), "打": ("使用",), "大家": ("所有角色",),
              "没手牌": ("没有", "手牌"), "手牌为空": ("没有", "手牌"), "手牌是空的": ("没有", "手牌"),
              "角色牌正面朝上": ("面朝上",), "角色牌背面朝上": ("面朝下",), "翻成正面": ("翻开",),
              "翻到正面": ("翻开",), "翻回背面": ("面朝下",), "翻成背面": ("面朝下",), "翻到背面": ("面朝下",),
              "两回": ("两次",)}
#: common misspellings of everyday words, put right in the question's text before it is read (same length, so every
#: column an error points at stays the designer's): 自已 for 自己 (威逼能对自已用吗)
TYPOS = {"自已": "自己", "以经": "已经", "在次": "再次", "从新": "重新"}


#: 王魁能用以牙还牙把黑色手牌放进…: a character using its skill on something, said as the skill's effect (王魁的以牙还牙能把…)
_USES_ON = re.compile(r"^(?P<who>[^，,\s]+?)(?P<can>能|可以|能否|能不能)(?:用|使用|发动)(?P<rule>[^，,\s把将]+?)(?P<ba>把|将)")
_AS_WORDS = ("当作", "当做", "当成", "视为", "视作", "作为", "当")


def skill_effect_form(text: str, names) -> str:
    """``text`` with 'X 能用 S 把 …' said as 'X 的 S 能把 …' when X names a character holding the skill S and the rest is
    no conversion (能用应变把截获当误导用 stays as it is: the grammar reads it)."""
    m = _USES_ON.match(text)
    if m is None or any(w in text[m.end():] for w in _AS_WORDS):
        return text
    ch, rid = names.find("character", m.group("who")), names.find("rule", m.group("rule"))
    if ch is None or rid is None or rid not in names.cat.characters[ch].skills:
        return text
    return f"{m.group('who')}的{m.group('rule')}{m.group('can')}{m.group('ba')}{text[m.end():]}"


#: 发动S时能把… — the skill named as the moment of its own effect: 'X 能用 S 把 …' (SP顾小梦发动羁绊时能把牌交给自己吗)
_FIRES_THEN = re.compile(r"^(?P<who>[^，,\s]*?)(?:发动|使用)(?P<rule>[^，,\s把将时]+?)(?:的)?时[，,]?(?P<can>能|可以|能否|能不能)"
                         r"(?P<ba>把|将)")
#: X用过S后还能再用吗 — a skill used, then the same skill asked again, no later turn named: 再次使用
_USED_AGAIN = re.compile(r"^(?P<who>[^，,\s]*?)(?:已经)?(?:用过|使用过|发动过|用了|发动了)(?P<rule>[^，,\s了之后]+?)(?:了)?(?:之)?后?[，,]?"
                         r"(?:还|又)?(?:能|可以)(?:再次|再)?(?:用|使用|发动)(?:它)?(?P<end>吗|么|呢|不)?[？?]?$")
#: 收到第三张黑色情报时 — the receive that makes the N-th message of a colour: N - 1 of it before, then the receive
_NTH = re.compile(r"(?P<verb>收到|接收|收下|接收到)第(?P<n>[二两三四五2-5])张(?P<col>红色|蓝色|黑色|红|蓝|黑)(?:的)?情报(?P<when>时|后|之后)")
#: a clause that opens with 传出的 after a comma: the sender is the player asked (李书云面朝下时，传出的红色情报被别人接收)
_BARE_SENT = re.compile(r"(?<=[，,])传出的")
#: 收回手牌 / 拿回手牌: into the hand (奇货可居能把情报收回手牌吗)
_BACK_TO_HAND = re.compile(r"(?:收回|拿回|收入|放回|拿到)(?:自己的)?(?:手牌|手里|手中)")
_NEXT_WORDS = ("下回合", "下一回合", "下个回合", "下一个回合", "下一轮", "下轮")


def designer_forms(text: str, names) -> str:
    """``text`` with five forms designers use said in the question language's own (each with its reason above):
    发动S时能把… → 能用S把…; X用过S后还能再用吗 → X能再次使用S吗 (not when a later turn is named: next_turn.py reads
    it); 收到第N张C情报时 → 有N-1张C情报时，收到C情报后; a comma-opened 传出的 → 自己传出的; 收回手牌 → 放入手牌. A
    form whose names do not resolve (S not a skill, X not a character) is left as it is."""
    m = _FIRES_THEN.match(text)
    if m is not None and names.find("rule", m.group("rule")) is not None:
        text = f"{m.group('who')}{m.group('can')}用{m.group('rule')}{m.group('ba')}{text[m.end():]}"
    m = _USED_AGAIN.match(text)
    if m is not None and not any(w in text for w in _NEXT_WORDS) and names.find("rule", m.group("rule")) is not None \
            and (not m.group("who") or names.find("character", m.group("who")) is not None):
        text = f"{m.group('who')}能再次使用{m.group('rule')}吗"

    def nth(m):
        n = {"二": 2, "两": 2, "三": 3, "四": 4, "五": 5}.get(m.group("n")) or int(m.group("n"))
        had = {1: "一", 2: "两", 3: "三", 4: "四"}[n - 1]
        return f"有{had}张{m.group('col')}情报时，{m.group('verb')}{m.group('col')}情报后"
    text = _NTH.sub(nth, text)
    text = _BARE_SENT.sub("自己传出的", text)
    text = _BACK_TO_HAND.sub("放入手牌", text)
    text = _IN_FRONT_OF_OTHER.sub(r"\g<m>不在自己面前", text)
    text = _flip_form(text, names)
    text = _emphatic_self(text, names)
    text = _chosen_as_target(text, names)
    text = _target_before_modal(text)
    text = _bare_skill_verb(text, names)
    return _draws_how_many(text, names)


#: 情报在别人面前时 — the message in front of another player: 情报不在自己面前 (a form the grammar reads)
_IN_FRONT_OF_OTHER = re.compile(r"(?P<m>情报|待收情报)在(?:别人|其他角色|其他人|他人|其他玩家)面前")
#: 商玉对没手牌的人能发动借刀杀人吗 — the target said before the modal: X 能对 T 发动 S
_TARGET_FIRST = re.compile(r"对(?P<t>[^，,对能可会]+?)(?P<can>能不能|可不可以|能否|能|可以)(?P<v>发动|使用|用|打出)")
_MODAL_END = re.compile(r"(?:能不能|可不可以|能否|能|可以|还能|还可以)(?P<dui>对[^，,]+?)?$")
_AFTER_BARE = re.compile(r"^(?:吗|么|呢|不|两次|两回|[？?，,]|$)")
_SKILL_VERBS = ("发动", "使用", "用", "触发", "打出")
_OBJECT = re.compile(r"^(?P<o>自己|别人|其他角色)")
_DRAWS_HOW_MANY = re.compile(r"(?P<v>发动|使用)(?P<rule>[^，,\s能]+?)(?P<d>摸几张)")


#: 运筹帷幄会不会把老虎翻开 / 妙手会把阿芙罗拉翻成正面吗 — a flip said with 把: S 会让 Y 翻开 (parse_effects reads it)
_FLIP_BA = re.compile(r"^(?P<rule>[^，,\s把]+?)(?P<m>会不会|会|能不能|能|可以)把(?P<who>[^，,\s]+?)"
                      r"(?P<v>翻开|翻成正面|翻到正面|翻回背面|翻成背面|翻到背面|面朝上|面朝下)")
#: 冷血训练传出去的情报会面朝上吗 — the message a skill sends, face up: S 会让情报面朝上
_FLIP_MSG = re.compile(r"^(?P<rule>[^，,\s]+?)(?:传出去|传出|发出|传)的?(?:情报|待收情报)(?P<m>会不会|会|是不是|是)?"
                       r"(?P<v>面朝上|面朝下)")


def _flip_form(text: str, names) -> str:
    """A flip said with 把 (S 会把 Y 翻开) or of the message a skill sends (S 传出的情报会面朝上): S 会让 … (an effect
    question). A form whose S is no skill is left as it is."""
    m = _FLIP_BA.match(text)
    if m is not None and names.find("rule", m.group("rule")) is not None:
        return f"{m.group('rule')}{m.group('m')}让{m.group('who')}{m.group('v')}{text[m.end():]}"
    m = _FLIP_MSG.match(text)
    if m is not None and names.find("rule", m.group("rule")) is not None:
        modal = {"是": "会", "是不是": "会不会"}.get(m.group("m") or "会", m.group("m"))
        return f"{m.group('rule')}{modal}让情报{m.group('v')}{text[m.end():]}"
    return text


#: 哑炮自己对别人用威逼时 — 自己 after the character said for emphasis, before what he does: the character alone
_EMPHATIC_SELF = re.compile(r"^(?P<who>[^，,\s自]+?)自己(?=对|使用|用|打出|传出|发动)")
#: 秦圆圆发动左右逢源的时候可以选自己当目标吗 — the target chosen as the skill is used: X 能对 T 发动 S
_CHOSEN_TARGET = re.compile(r"^(?P<who>[^，,\s]*?)(?:发动|使用)(?P<rule>[^，,\s的时]+?)的?(?:时候|时)[，,]?"
                            r"(?P<can>能不能|可不可以|能否|能|可以)(?:选择|选|指定)(?P<t>[^，,\s]+?)(?:当作|当|作为|为|做)?目标")


def _emphatic_self(text: str, names) -> str:
    """X 自己对 … / X 自己使用 … → X 对 … (自己 only stresses who acts) when X names a character."""
    m = _EMPHATIC_SELF.match(text)
    if m is None or names.find("character", m.group("who")) is None:
        return text
    return m.group("who") + text[m.end():]


def _chosen_as_target(text: str, names) -> str:
    """X 发动 S 的时候可以选 T 当目标 → X 能对 T 发动 S (when S is a skill)."""
    m = _CHOSEN_TARGET.match(text)
    if m is None or names.find("rule", m.group("rule")) is None:
        return text
    return f"{m.group('who')}{m.group('can')}对{m.group('t')}发动{m.group('rule')}{text[m.end():]}"


def _target_before_modal(text: str) -> str:
    """对 T 能发动 S → 能对 T 发动 S (the target said first, the modal after it)."""
    return _TARGET_FIRST.sub(lambda m: f"{m.group('can')}对{m.group('t')}{m.group('v')}", text, count=1)


def _bare_skill_verb(text: str, names) -> str:
    """A skill's or card's name said as the verb after a modal (能惑心自己吗, 可以对没牌的人惑心吗, 同一回合可以金口一开两次吗,
    别人还能误导吗): 发动 / 使用 put before it, and an object after it (自己 / 别人) said as its target (能对自己发动惑心吗)."""
    verb_of = {n: "发动" for n in _rule_names(names)} | {n: "使用" for n in _card_names(names)}
    for name in sorted(verb_of, key=len, reverse=True):
        verb = verb_of[name]
        i = text.find(name)
        while i >= 0:
            before, after = text[:i], text[i + len(name):]
            m = _MODAL_END.search(before)
            o = _OBJECT.match(after)
            rest = after[o.end():] if o else after
            if m is not None and _AFTER_BARE.match(rest) and not before.endswith(_SKILL_VERBS):
                if o is not None and m.group("dui") is None:
                    return f"{before}对{o.group('o')}{verb}{name}{rest}"
                return f"{before}{verb}{name}{after}"
            i = text.find(name, i + 1)
    return text


def _rule_names(names) -> list:
    """The Chinese names of the catalogue's skills and grants (built once per catalogue's names)."""
    got = getattr(names, "_rule_names", None)
    if got is None:
        got = [r.name for r in names.cat.skills.values() if _CJK.search(r.name or "")]
        names._rule_names = got
    return got


def _card_names(names) -> list:
    """The Chinese names of the catalogue's cards (built once per catalogue's names)."""
    got = getattr(names, "_card_names", None)
    if got is None:
        got = [c.name for c in names.cat.cards.values() if _CJK.search(c.name or "")]
        names._card_names = got
    return got


def _draws_how_many(text: str, names) -> str:
    """X 发动 S 摸几张牌 → X 发动 S 能摸几张牌 (the count question without its modal)."""
    def fix(m):
        if names.find("rule", m.group("rule")) is None:
            return m.group(0)
        return f"{m.group('v')}{m.group('rule')}能{m.group('d')}"
    return _DRAWS_HOW_MANY.sub(fix, text, count=1)


def fix_typos(text: str) -> str:
    """``text`` with the misspellings of ``TYPOS`` put right."""
    for bad, good in TYPOS.items():
        text = text.replace(bad, good)
    return text


def _colloquial(out: list) -> list:
    """The spoken forms of ``COLLOQUIAL`` as the question language's words, and a question closed by 不 (还能如归不)
    as one closed by 吗; the designer's own words stay in ``src``."""
    res: list = []
    for i, t in enumerate(out):
        if t.kind == "word" and t.text in COLLOQUIAL:
            res += [Tok("word", w, t.col, t.end, KEYWORDS.get(w, ""), src=t.text) for w in COLLOQUIAL[t.text]]
        elif t.kind == "word" and t.text == "不" and i + 1 < len(out) and (
                out[i + 1].kind == "end" or out[i + 1].kind == "op" and out[i + 1].text == "?"):
            res.append(Tok("word", "吗", t.col, t.end, KEYWORDS.get("吗", ""), src=t.text))
        else:
            res.append(t)
    return res


def _aliases(out: list, text: str, names: Names) -> list:
    """A name with a bracketed part that, brackets and all, names a character (李宁玉（SP）, 韩梅(sp)) is one token."""
    k = 0
    while k + 3 < len(out):
        a, b = out[k], out[k + 1]
        if a.kind == "word" and b.kind == "op" and b.text == "(":
            j = k + 2
            while j < len(out) and out[j].kind == "word":
                j += 1
            if j > k + 2 and j < len(out) and out[j].kind == "op" and out[j].text == ")":
                alias = text[a.col:out[j].end].replace("(", "（").replace(")", "）")
                if names.find("character", alias) is not None:
                    out[k:j + 1] = [Tok("word", alias, a.col, out[j].end)]
        k += 1
    return out


def known_words(names: Names) -> set:
    """The words a run of Chinese is split into: names, keywords, phases, send groups, directions, window phrases and
    the phrasebook's words (built once per catalogue's names)."""
    got = getattr(names, "_known", None)
    if got is None:
        from .phrases import words_of_table
        got = names.words | {k for k in KEYWORDS if _CJK.search(k)} | words_of_table() | set(POST_AFTER + POST_WHEN) | \
            set(COLLOQUIAL)
        for vals in list(PHASES.values()) + list(GROUPS.values()) + list(DIRS.values()):
            got.update(v.lower() for v in vals)
        for vals in WINDOW_PHRASES.values():
            got.update(v.lower() for v in vals if " " not in v)
        names._known = got
        names._longest = max([len(k) for k in got] + [len(k) for k in KEYWORDS] + [1])
    return got


def _segment(word: str, col: int, known: set, longest: int = 0) -> list[tuple[int, str]]:
    """A word that is not a name or keyword as a whole, and holds Chinese characters, is split into known
    names and keywords ("截获当作误导" → 截获 当作 误导): the split into the fewest pieces, by dynamic programming
    (so "发动后来人" is 发动 后来人, not 发动后 来人), runs of ASCII letters and digits kept whole. What no known
    word covers stays one piece — with the ASCII letters next to it ("SP李宁王" stays whole) — so that the error
    points at it and suggests the nearest name."""
    if word.lower() in known or word.lower() in KEYWORDS or not _CJK.search(word) or \
            any(k in known for k in name_keys(word)):
        return [(col, word)]
    n = len(word)
    longest = min(n, longest or max(len(k) for k in known))
    inf = float("inf")
    cost = [inf] * (n + 1)
    back: list = [None] * (n + 1)          # (start, kind): kind "k" known, "a" ASCII run, "u" unknown char
    cost[0] = 0

    def relax(j, c, how):
        # of two splits as short, the one whose earlier pieces are longer (禁用了 is 禁用 了, not 禁 用了)
        if c < cost[j] or (c == cost[j] and back[j] is not None and how[0] > back[j][0]):
            cost[j], back[j] = c, how

    for i in range(n):
        if cost[i] == inf:
            continue
        for j in range(min(n, i + longest), i, -1):
            w = word[i:j].lower()
            if w in known or w in KEYWORDS:
                relax(j, cost[i] + 1, (i, "k"))
        if word[i].isascii() and (word[i].isalnum() or word[i] == "_"):
            j = i
            while j < n and word[j].isascii() and (word[j].isalnum() or word[j] == "_"):
                j += 1
            w = word[i:j]
            relax(j, cost[i] + (1 if w.isdigit() or w.lower() in known or w.lower() in KEYWORDS else 50),
                  (i, "k" if w.isdigit() or w.lower() in known or w.lower() in KEYWORDS else "u"))
        relax(i + 1, cost[i] + 50, (i, "u"))
    pieces = []
    j = n
    while j > 0:
        i, kind = back[j]
        pieces.append([i, j, kind])
        j = i
    pieces.reverse()
    merged: list = []
    for p in pieces:                         # unknown pieces next to each other make one
        if merged and p[2] == "u" and merged[-1][2] == "u":
            merged[-1][1] = p[1]
        else:
            merged.append(p)
    # an unknown piece that, with the known piece before or after it, is a near miss of a known word is that
    # misspelt word ("濒死阶" is 濒死阶段 misspelt, not 濒死 and 阶): kept whole, the error suggests the word
    for k in range(len(merged)):
        if merged[k][2] != "u":
            continue
        from skillproof.model.names import nearest
        cands = [w for w in known if _CJK.search(w)]
        for a, b in ((k - 1, k), (k, k + 1)):
            union = word[merged[a][0]:merged[b][1]] if 0 <= a and b < len(merged) else ""
            near = nearest(union, [c for c in cands if len(c) >= len(union)]) \
                if union and merged[a][2] != merged[b][2] else None
            if near is not None:                     # a word as long or longer misspelt, not a word and a tail
                merged[a] = [merged[a][0], merged[b][1], "u"]
                merged[b] = [merged[a][1], merged[a][1], "gone"]
                break
    return [(col + i, word[i:j]) for i, j, kind in merged if kind != "gone"]


class Cursor:
    """The tokens of one question and the position of the parser in them, with the located error."""

    def __init__(self, text: str, toks: list[Tok]):
        self.text = text
        self.toks = toks
        self.i = 0

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

    def error(self, msg, tok: Tok | None = None):
        """Raise the located QueryError ``msg`` (a model.msg.Msg: both languages) at ``tok`` (default: here)."""
        t = tok or self.tok
        raise QueryError(msg, t.col, max(t.end, t.col + 1))

    def found(self, t: Tok | None = None) -> Msg:
        """What stands at ``t`` (default: here), for "…, found X": the word quoted, or the question's end."""
        t = t or self.tok
        if t.kind == "end":
            return Msg("问题的结尾", "the end of the query")
        return Msg(" '{t}'", "'{t}'", t=t.shown)

    def at_final_q(self) -> bool:
        """At a '?' that only more '?' follow: the question's end, not an unknown card."""
        return self.tok.text == "?" and all(t.kind == "end" or t.text == "?" for t in self.toks[self.i + 1:])

    def skip_sep(self) -> bool:
        if self.at_op(",") or self.at("and"):
            self.take()
            return True
        return False

    def skip(self, *kws):
        """Take every word in a row that is one of the keywords ``kws``."""
        while self.at(*kws):
            self.take()


def names_in(text: str, names: Names) -> list:
    """The names ``text`` holds, as (kind, id, the word), left to right, each word read as the parser reads it:
    characters, then rules (skills and grants), then cards."""
    out = []
    for t in tokenize(text, names):
        if t.kind != "word":
            continue
        for kind in ("character", "rule", "card"):
            ident = names.find(kind, t.text)
            if ident is not None:
                out.append((kind, ident, t.text))
                break
    return out
