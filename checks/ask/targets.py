"""Whom a card or a skill may be used on (issues 22/23): 试探能对自己使用吗, 澄清能对没有濒死的人使用吗, 威逼能对没有手牌的
人使用吗, 调虎离山可以指定自己吗, 能对死亡角色使用利诱吗, can 试探 target oneself? — read as a ``target`` atom (the rule and
a player word, ``TARGET_WORDS``) and asked of games like an effect (table.py: the card played, or the skill used, by
the player in a window it may be; the target the play names meets the word), so that a *yes* is a game both twins
play and a *no* the rules that refuse it. A *no* the catalogue's ``target`` decides alone (a dead player, oneself for a
card of ``other``, any player for a card with no target) is told from that data.

The frames (``FRAMES_ZH`` / ``FRAMES_EN``): ``RULE 能对 PLAYER 使用吗``, ``能对 PLAYER 使用 RULE 吗``, ``RULE 可以指定 PLAYER
吗``, ``RULE 能以 PLAYER 为目标吗``; ``can RULE target PLAYER``, ``can RULE be used on PLAYER``, ``can I use RULE on
PLAYER``. A frame whose player phrase is no word of ``TARGET_WORDS`` is refused at the phrase, with the words it knows."""
from __future__ import annotations

import re

from skillproof.model.msg import Msg

from skillproof.model import expr as E

from .errors import QueryError
from .syntax import Atom, Query

#: player word -> the phrases that name it (longest first when matched). The relation each stands for, on the table
#: just before the play (table.Reader: target_term / target_holds):
#: self — the user himself; other — another player; dying — the dying player; not_dying — a player who is not the
#: dying one (nobody dying, or another); no_hand — a player with no hand card; no_messages — a player with no message
#: in her area; no_black — no black message in her area (澄清 needs one); face_down / face_up — her role face down / up;
#: dead — a dead player; sender — the sender of the
#: message; turn_player — the player whose turn it is
TARGET_WORDS = {
    "not_dying": ("其他不濒死的角色", "其他不濒死的人", "不濒死的角色", "不濒死的人", "没有濒死的人", "没有濒死的角色",
                  "未濒死的人", "未濒死的角色", "不在濒死的人", "非濒死角色", "非濒死的人",
                  "没濒死的人", "不是濒死的人", "不处于濒死的人", "a player who is not dying", "someone who is not dying",
                  "a non-dying player", "players who are not dying"),
    "no_hand": ("没有手牌的人", "没有手牌的角色", "无手牌的角色", "无手牌的人", "手牌为空的人", "手牌为空的角色", "没手牌的人",
                "空手牌的人", "没有手牌的玩家", "a player with no hand cards", "a player with no cards in hand",
                "a player with no cards", "someone with no hand cards", "someone with no cards", "an empty hand",
                "a player without hand cards", "players with no hand cards"),
    "no_messages": ("没有情报的角色", "没有情报的人", "没有情报的玩家", "情报区没有情报的角色", "情报区为空的角色", "没情报的人",
                    "a player with no messages", "someone with no messages", "a player without messages"),
    "no_black": ("没有黑色情报的角色", "没有黑色情报的人", "没有黑情报的角色", "没有黑情报的人", "情报区没有黑色情报的角色",
                 "a player with no black messages", "someone with no black messages"),
    "face_down": ("面朝下的角色", "面朝下的人", "面朝下的玩家", "背面朝上的角色", "没有翻开的角色", "未翻开的角色", "盖着的角色",
                  "a face-down player", "a face-down character", "someone face down", "a player who is face down"),
    "face_up": ("面朝上的角色", "面朝上的人", "面朝上的玩家", "正面朝上的角色", "已翻开的角色", "翻开的角色",
                "a face-up player", "a face-up character", "someone face up", "a player who is face up"),
    "dead": ("死亡角色", "死亡的角色", "已死亡的角色", "已经死亡的角色", "已经死亡的人", "已经死了的角色", "已经死了的人",
             "已死的角色", "已死的人", "死亡的人", "已死亡的人", "死去的角色", "死了的人", "死人", "阵亡的角色", "死掉的人", "死掉的角色",
             "a dead player", "the dead", "dead players", "a dead character", "someone dead"),
    "dying": ("正在求澄清的人", "濒死的人", "濒死的角色", "濒死角色", "濒死者", "the dying player", "a dying player",
              "someone dying", "the player who is dying"),
    "sender": ("情报传出者", "传出者", "传情报的人", "传出情报的人", "the sender", "the message's sender", "its sender"),
    "front_left": ("情报所在角色的上家", "情报所在角色上家", "情报面前角色的上家", "情报面前的角色的上家", "持有情报的角色的上家",
                   "情报所在的角色的上家", "待收情报所在角色的上家", "the player on the left of its holder",
                   "the player to the left of its holder", "the holder's left neighbour"),
    "front_right": ("情报所在角色的下家", "情报所在角色下家", "情报面前角色的下家", "情报面前的角色的下家", "持有情报的角色的下家",
                    "情报所在的角色的下家", "待收情报所在角色的下家", "the player on the right of its holder",
                    "the player to the right of its holder", "the holder's right neighbour"),
    "self_left": ("自己的上家", "自己上家", "我的上家", "他的上家", "她的上家", "your left neighbour", "the player on your left"),
    "self_right": ("自己的下家", "自己下家", "我的下家", "他的下家", "她的下家", "your right neighbour", "the player on your right"),
    "sender_left": ("传出者的上家", "传出者上家", "the sender's left neighbour"),
    "sender_right": ("传出者的下家", "传出者下家", "the sender's right neighbour"),
    "turn_player": ("当前回合角色", "当前回合的角色", "回合角色", "当前角色", "回合玩家", "the current player", "the turn player",
                    "the player whose turn it is"),
    "male": ("男性角色", "男角色", "男性玩家", "男性", "男的", "a male player", "a male character", "a man"),
    "female": ("女性角色", "女角色", "女性玩家", "女性", "女的", "a female player", "a female character", "a woman"),
    "self": ("自己", "自身", "本人", "你自己", "他自己", "她自己", "使用者自己", "oneself", "himself", "herself",
             "themselves", "yourself", "myself", "itself", "self", "the user", "its user", "me", "you"),
    "other": ("其他角色", "其他人", "其他玩家", "别人", "他人", "另一名角色", "另一个人", "其他的角色", "other players",
              "another player", "someone else", "others", "another character", "an opponent"),
}
#: the words as an answer says them
SHOWN = {"self": ("自己", "oneself"), "other": ("别人", "another player"), "dying": ("濒死的人", "the dying player"),
         "not_dying": ("没有濒死的人", "a player who is not dying"), "no_hand": ("没有手牌的人", "a player with no hand cards"),
         "dead": ("死亡角色", "a dead player"), "no_messages": ("没有情报的角色", "a player with no messages"),
         "no_black": ("没有黑色情报的角色", "a player with no black messages"),
         "face_down": ("面朝下的角色", "a face-down player"), "face_up": ("面朝上的角色", "a face-up player"), "sender": ("传出者", "the sender"),
         "turn_player": ("当前回合角色", "the current player"), "male": ("男性角色", "a male player"),
         "female": ("女性角色", "a female player"),
         "front_left": ("情报所在角色的上家", "the player on the left of its holder"),
         "front_right": ("情报所在角色的下家", "the player on the right of its holder"),
         "self_left": ("自己的上家", "one's left neighbour"), "self_right": ("自己的下家", "one's right neighbour"),
         "sender_left": ("传出者的上家", "the sender's left neighbour"),
         "sender_right": ("传出者的下家", "the sender's right neighbour")}
#: a character's gender as a target word: the character card's, face up or down (面朝下的男性角色: a face-down player
#: whose character is male). A rule that reads the player's ``male`` / ``female`` reads it face up only (server
#: Player.isMale / isFemale; interp core.player_attr, enc cond.attr): ``refutes_pick`` says so
GENDER = ("male", "female")
#: the nouns a compound phrase's adjective is stripped off (面朝下的角色 → 面朝下: 面朝下的男性角色 is face_down+male)
_NOUNS = ("的角色", "的人", "的玩家", "角色", "人", "玩家")

_Q = r"\s*(?:吗|么|嘛)?\s*[？?。!！]*\s*$"
_CAN = r"(?:能不能|可不可以|能否|可否|能够|能|可以|可)"
_USE = r"(?:使用|用|打出|发动|出)"
#: (regex, the group names: rule / who) — the rule's name is a word of the catalogue (names.Names)
FRAMES_ZH = (
    re.compile(r"^\s*(?P<rule>\S+?)\s*" + _CAN + r"\s*(?:对|向|给|朝)\s*(?P<who>.+?)\s*" + _USE + _Q),
    re.compile(r"^\s*" + _CAN + r"\s*(?:对|向|给|朝)\s*(?P<who>.+?)\s*" + _USE + r"\s*(?P<rule>\S+?)" + _Q),
    re.compile(r"^\s*(?P<rule>\S+?)\s*" + _CAN + r"\s*(?:指定|选择)\s*(?P<who>.+?)\s*(?:为目标|作为目标|当作目标|当目标)?" + _Q),
    re.compile(r"^\s*(?P<rule>\S+?)\s*" + _CAN + r"\s*(?:以|把)\s*(?P<who>.+?)\s*(?:为目标|作为目标|当作目标|当目标)" + _Q),
    re.compile(r"^\s*(?P<rule>\S+?)\s*的目标\s*" + _CAN + r"\s*(?:是|为)\s*(?P<who>.+?)" + _Q),
    # the player first: 面朝下的男性角色能成为比翼双飞的目标吗, 没有手牌的角色能被威逼指定吗, 当前回合角色能被平衡吗
    re.compile(r"^\s*(?P<who>[^，,]+?)\s*" + _CAN + r"\s*(?:成为|作为|当)\s*(?P<rule>\S+?)\s*的\s*(?:目标|对象)" + _Q),
    re.compile(r"^\s*(?P<who>[^，,]+?)\s*" + _CAN + r"\s*被\s*(?P<rule>\S+?)\s*(?:指定|选择|选中)?(?:为目标)?" + _Q),
)
#: the user first, then the target (濒死的角色能对自己使用澄清吗, 老鳖能对自己使用利诱吗): the user is read by the grammar
#: as a question's player (``subject_of``), the target as a player word
SUBJECT_ZH = re.compile(r"^\s*(?P<subj>[^，,\s][^，,]*?)\s*" + _CAN + r"\s*(?:对|向|给|朝)\s*(?P<who>.+?)\s*" + _USE +
                        r"\s*(?P<rule>\S+?)" + _Q)
#: … in English (can a dying player play 澄清 on someone else?): the user read by the grammar the same way
SUBJECT_EN = re.compile(r"^\s*(?:can|could|may)\s+(?P<subj>\S.*?)\s+(?:use|play)\s+(?P<rule>\S+(?:\s+[A-Za-z]+)?)\s+"
                        r"(?:on|against|targeting)\s+(?P<who>.+?)\s*[?.!]*\s*$", re.I)
#: the message moved to a player (误导能把情报转移给传出者吗): an effect claim (its move_message op's ``to``)
MOVE_ZH = re.compile(r"^\s*(?:[^，,\s的]+的)?(?P<rule>\S+?)\s*" + _CAN + r"\s*把?\s*(?:情报|它|待收情报)?\s*(?:(?:转移|转|传|交|移|挪|转交)给|"
                     r"(?:移|转移|移动|挪|放|转)(?:到|至)\s*(?=.+?面前))\s*(?P<who>.+?)\s*(?:的\s*)?(?:面前)?" + _Q)
MOVE_EN = re.compile(r"^\s*(?:can|could|may)\s+(?P<rule>\S+(?:\s+[A-Za-z]+)?)\s+(?:move|pass|redirect|send)\s+(?:the message|it)\s+"
                     r"(?:to|back to)\s+(?P<who>.+?)\s*[?.!]*\s*$", re.I)
FRAMES_EN = (
    re.compile(r"^\s*(?:can|could|may)\s+(?P<rule>\S+(?:\s+[A-Za-z]+)?)\s+(?:target|be used on|be played on|be used against|choose)\s+"
               r"(?P<who>.+?)\s*[?.!]*\s*$", re.I),
    re.compile(r"^\s*(?:can|could|may)\s+(?:i|you|a player|someone|one|anyone|he|she)\s+(?:use|play)\s+(?P<rule>\S+(?:\s+[A-Za-z]+)?)\s+"
               r"(?:on|against|targeting)\s+(?P<who>.+?)\s*[?.!]*\s*$", re.I),
)


#: a window the question names (濒死时澄清能对没有濒死的人使用吗): its phrases, blanked before the frames are read and
#: kept as the question's ``window`` given
WINDOW_RX = (
    (re.compile(r"(?:在|于)?(?P<dier>有人|别人|他人|其他角色|其他人|其他玩家|别的角色|自己)?(?:濒死求澄清|濒死)"
                r"(?:时|的时候|阶段)[，,]?"), "dying"),
    (re.compile(r"(?:在|于)?(?:自己的)?出牌阶段(?:时|中|里)?[，,]?"), "main"),
    (re.compile(r"(?:在|于)?争夺阶段(?:时|中|里)?[，,]?"), "fight"),
    (re.compile(r"(?:在|于)?传递阶段开始时[，,]?"), "send_start"),
    (re.compile(r"\b(?:in the dying phase|when someone is dying|while someone is dying),?", re.I), "dying"),
    (re.compile(r"\bin the main phase,?", re.I), "main"),
    (re.compile(r"\bin the fight phase,?", re.I), "fight"),
)


#: who is dying, as the window's phrase names him (别人濒死时 / 自己濒死时): the user is not / is the dying player
DYING_OTHER = ("别人", "他人", "其他角色", "其他人", "其他玩家", "别的角色")


def _window(text: str) -> tuple:
    """(the text with a window phrase blanked, the givens it makes: the window, and — when the phrase names who is
    dying (别人濒死时, 自己濒死时) — the user's ``dying`` as a condition, as the grammar reads 别人濒死时 (phrases.py))."""
    from .syntax import Given
    for rx, w in WINDOW_RX:
        m = rx.search(text)
        if m is not None:
            blank = text[:m.start()] + " " * (m.end() - m.start()) + text[m.end():]
            out = [Given("window", m.start(), m.end(), m.group(0).strip(" ,，"), window=w)]
            dier = m.groupdict().get("dier")
            if dier in DYING_OTHER or dier == "自己":
                out.append(_dying_given(m.start("dier"), m.end(), text[m.start():m.end()].strip(" ,，"),
                                        dier == "自己"))
            return blank, out
    return text, []


def _dying_given(col: int, end: int, shown_text: str, dying: bool):
    """The condition 'the user is (not) the dying player' as a ``where`` given."""
    from skillproof.model import vocab as V
    from .syntax import Given
    node = E.parse("self.dying" if dying else "not self.dying")
    E.check(node, E.Scope("question", E.Universe(frozenset(), frozenset())), V.BOOL)
    return Given("where", col, end, shown_text, claim=Atom("where", col, end, value=node, text=shown_text))


def _rule_of(cat, names, word: str) -> str | None:
    """The card or skill a word names (a card first: 澄清 is a card)."""
    for kind in ("card", "rule"):
        rid = names.find(kind, word)
        if rid is not None and (rid in cat.cards or rid in cat.skills):
            return rid
    return None


def player_word(phrase: str) -> str | None:
    """The player word a phrase is (``TARGET_WORDS``), or a compound of two, ``a+b`` — an adjective phrase of one word
    before a phrase of another (面朝下的男性角色: face_down+male; 没有手牌的女性角色: no_hand+female) — or None."""
    p = phrase.strip().lower().rstrip("？?。.!！ ")
    for who, words in TARGET_WORDS.items():
        if p in (w.lower() for w in words):
            return who
    plain = _plain(p)
    if plain != p:                  # 一个没手牌的人, 已经死掉的人, 手里没牌的人: the same word said in speech
        return player_word(plain)
    for who, words in TARGET_WORDS.items():
        for w in sorted(words, key=len, reverse=True):
            w = w.lower()
            if not p.endswith(w) or len(w) == len(p):
                continue
            adj = p[:-len(w)].rstrip(" 的")
            first = _adjective(adj)
            if first is not None and first != who:
                return f"{first}+{who}"
    return None


#: words before a player word that do not change who it is (一个没手牌的人, 已经死掉的人)
_LEADING = ("一个", "一名", "一位", "某个", "某名", "某位", "已经")


def _plain(p: str) -> str:
    """A player phrase without a leading ``_LEADING`` word and with the lexer's spoken forms (手里没牌 → 没有手牌)."""
    from .lexer import COLLOQUIAL
    for w in _LEADING:
        if p.startswith(w) and len(p) > len(w):
            p = p[len(w):]
            break
    for spoken in sorted(COLLOQUIAL, key=len, reverse=True):
        if spoken in p and len(spoken) > 1:
            p = p.replace(spoken, "".join(COLLOQUIAL[spoken]))
    return p


def _adjective(text: str) -> str | None:
    """The word an adjective phrase is: a Chinese phrase of ``TARGET_WORDS`` with its noun left off (面朝下, 没有手牌)."""
    if not text:
        return None
    for who, words in TARGET_WORDS.items():
        for w in words:
            for n in _NOUNS:
                if w.endswith(n) and len(w) > len(n) and w[:-len(n)] == text:
                    return who
    return None


def parts(who: str) -> list:
    """The words of a player word (a compound's two)."""
    return who.split("+")


#: a character as the target (李宁玉能被利诱吗): the word is the character's id; its name as the answer says it
CHAR_NAMES: dict = {}


def shown(who: str) -> tuple:
    """(zh, en) as an answer says the player word (a compound: its adjective, then its noun; a character: its name)."""
    if who in CHAR_NAMES:
        return CHAR_NAMES[who], CHAR_NAMES[who]
    ws = parts(who)
    if len(ws) == 1:
        return SHOWN[who]
    zh_a = SHOWN[ws[0]][0]
    for n in _NOUNS:
        if zh_a.endswith(n):
            zh_a = zh_a[:-len(n)]
            break
    return zh_a + "的" + SHOWN[ws[1]][0], SHOWN[ws[1]][1] + " (" + SHOWN[ws[0]][1] + ")"


def never_one(who: str) -> bool:
    """No player is ever both words of a compound (a male female player, a face-up face-down one)."""
    ws = set(parts(who))
    return set(GENDER) <= ws or {"face_up", "face_down"} <= ws


def subject_of(text: str, end: int, grammar):
    """The question's player as the grammar (``grammar``: text -> Query, the parser's) reads the words before ``end``
    (a character, 濒死的角色, 没有手牌的角色 …): (subject, subject_col, givens), or None when they are no player of a
    claim. Read as the player of a plain claim (…能获胜吗) — the same words a question of any claim puts before its
    modal."""
    if grammar is None:
        return None
    try:
        q = grammar(text[:end] + "能获胜吗")
    except QueryError:
        return None
    if q.mode != "exists" or q.which is not None or getattr(q.claim, "kind", None) != "win" or q.claim.value:
        return None
    return q.subject, q.subject_col, list(q.givens)


def target_query(cat, text: str, names, grammar=None) -> tuple:
    """(Query, None): a question of whom a card or skill may be used on, as an ``exists`` Query with a ``target``
    atom — or, for the message moved to a player (误导能把情报转移给传出者吗), an ``effect`` atom of its move_message op;
    (None, QueryError): a frame with a player phrase that is no player word (raised by the caller when the question
    reads no other way); (None, None): no frame, or none naming a card or skill."""
    from skillproof.model.lang import pick
    from .syntax import Effect
    full = text
    text, window_givens = _window(text)
    for rx in FRAMES_ZH + FRAMES_EN + (MOVE_ZH, MOVE_EN, SUBJECT_ZH, SUBJECT_EN):
        m = rx.match(text)
        if m is None:
            continue
        rid = _rule_of(cat, names, m.group("rule"))
        if rid is None:
            continue
        user = None
        if rx is SUBJECT_ZH:
            user = subject_of(text, m.end("subj"), grammar)
            if user is None:
                continue
        if rx is SUBJECT_EN:                        # the user's words alone, at their columns
            user = subject_of(" " * m.start("subj") + m.group("subj") + " ", m.end("subj") + 1, grammar)
            if user is None:
                continue
        who = player_word(m.group("who"))
        if who is None and rx not in (MOVE_ZH, MOVE_EN):
            char = names.find("character", m.group("who").strip())
            if char is not None and char in cat.characters and names.find("card", m.group("who").strip()) is None:
                who = char                          # 李宁玉能被利诱吗: that character, wherever he sits
                CHAR_NAMES[char] = cat.name_of(char)
        if who is not None and rx in (MOVE_ZH, MOVE_EN) and len(parts(who)) > 1:
            who = None                              # the message moved to a player of two words: not read
        if who is None:
            col, end = m.span("who")
            known = "、".join(SHOWN[w][0] for w in TARGET_WORDS)
            known_en = ", ".join(SHOWN[w][1] for w in TARGET_WORDS)
            return None, QueryError(Msg("读不懂目标「{p}」：{r}的目标可以写成 {k}（如：'试探能对自己使用吗'）",
                                        "the target '{p}' is not understood: {r}'s target may be written as {ke} "
                                        "(e.g. 'can 试探 target oneself?')", p=m.group("who"), r=cat.name_of(rid),
                                        k=known, ke=known_en), col, end)
        if rx in (MOVE_ZH, MOVE_EN):
            eff = Effect(("move_message",), {"move_message": "to"}, who if who != "dying" else None,
                         dying=who == "dying", text=text[m.start():m.end()].strip())
            a = Atom("effect", m.start("rule"), m.end("who"), rule=rid, value=eff, text=full[m.start("rule"):m.end("who")])
        else:
            col, end = min(m.start("rule"), m.start("who")), max(m.end("rule"), m.end("who"))
            a = Atom("target", col, end, rule=rid, value=who, text=full[col:end].strip())
        q = Query(full, "exists", None, a, givens=list(window_givens))
        if user is not None:                        # 濒死的角色能对自己使用澄清吗: the user and what is said of her
            q.subject, q.subject_col = user[0], user[1]
            q.givens += user[2]
        if a.kind == "target":
            zh_w, en_w = shown(who)
            q.shown = pick(f"对{zh_w}使用{cat.name_of(rid)}", f"use {cat.name_of(rid)} on {en_w}")
        return q, None
    return None, None


def words(who: str) -> tuple:
    return shown(who)


# ---------------------------------------------------------------------------------------------- from the data
def _is(node, name: str) -> bool:
    return isinstance(node, E.Var) and node.name == name


def refutes(conj, who: str) -> bool:
    """Does one conjunct of a ``requires`` condition fail whenever the target is the player ``who`` names? (read by
    its shape: ``target != self`` refutes oneself, ``target.alive`` a dead player, ``target.hand_count > 0`` a player
    with no hand card)"""
    if isinstance(conj, E.Bin) and conj.op == "!=" and {who} == {"self"}:
        return _is(conj.left, "target") and _is(conj.right, "self") or \
            _is(conj.left, "self") and _is(conj.right, "target")
    if isinstance(conj, E.Attr) and conj.name == "alive" and _is(conj.obj, "target"):
        return who == "dead"
    if isinstance(conj, E.Bin) and who == "no_hand" and isinstance(conj.left, E.Attr) and \
            conj.left.name == "hand_count" and _is(conj.left.obj, "target") and isinstance(conj.right, E.Lit):
        n = conj.right.value
        return conj.op == ">" and n >= 0 or conj.op == ">=" and n >= 1 or conj.op == "!=" and n == 0
    return False


def reads_target(rule) -> bool:
    """Is a skill used on a player (its effect or its ``requires`` names ``target``)?"""
    from ..realise import names_word
    return names_word(rule.do, "target") or names_word(rule.do, "chosen") or (rule.requires is not None and any(
        isinstance(x, E.Var) and x.name == "target" for x in E.walk(rule.requires))) or \
        any(getattr(g, "to", None) in ("target", "others", "chosen") for g in getattr(rule, "gives", ()) or ())


def target_spec(cat, rid: str):
    """(who, when) of the rule's target: a card's ``target`` (none / any / other), a skill's: any when its effect or
    its ``requires`` names a target (it is used on a living player), else none."""
    if rid in cat.cards:
        spec = getattr(cat.cards[rid], "target", None)
        return (spec.who if spec is not None else "none"), (spec.when if spec is not None else None)
    return None, None


def from_data(cat, q: Query, a: Atom):
    """*no* told by the catalogue alone, whatever the game: a card with no target (a skill whose effect and
    ``requires`` name none) is used on nobody; every card with one is used on a living player (a dead one never); a
    card of ``other`` never on its user; a ``requires`` conjunct the player fails (``refutes``). None when the data
    leaves it to the game."""
    from skillproof.model.lang import pick
    from .constraints import _ref
    from .result import Result
    rule = cat.cards.get(a.rule) or cat.skills.get(a.rule)
    name = rule.name
    zh_w, en_w = shown(a.value)
    if never_one(a.value):
        return _no_one(cat, q, a, name, zh_w, en_w)
    if a.rule in cat.cards:
        spec = getattr(rule, "target", None)
        who = spec.who if spec is not None else "none"
    elif not rule.has("ActiveSkill"):
        told = _pick_refutes(cat, q, a, rule, zh_w, en_w)
        return told                                  # else a triggered skill's chosen player: table.goal_of says why not
    else:
        who = "any" if reads_target(rule) else "none"
    says, key = None, "target"
    if who == "none":
        says = (f"{name}没有目标：它不对任何角色使用" + ("（target = \"none\"）" if a.rule in cat.cards else "（效果与 requires 都不读 target）"),
                f"{name} has no target: it is used on nobody" + (" (target = \"none\")" if a.rule in cat.cards else
                                                                   " (neither its effect nor its requires reads target)"))
    elif "dead" in parts(a.value):
        says = (f"{name}的目标是一名存活的角色：死亡角色不能被指定", f"{name}'s target is a living player: a dead one is never chosen")
    elif who == "other" and "self" in parts(a.value):
        says = (f"{name}只能指定其他角色（target = \"other\"）", f"{name} targets another player only (target = \"other\")")
    else:
        bad = [c for c in E.conjuncts(getattr(rule, "requires", None)) if any(refutes(c, w) for w in parts(a.value))]
        if bad:
            cond = " and ".join(E.to_text(c) for c in bad)
            says = (f"{name}使用前服务器检查（requires）：{cond}；{zh_w}不满足",
                    f"the server checks before {name} is used (requires): {cond}; {en_w} fails it")
            key = "requires"
    if says is None:
        return None
    at = getattr(rule, "at", None)
    r = _ref(cat, a.rule, at(key) if at is not None else None)
    res = Result(q, "no")
    res.because = [{"kind": "rule", "rules": [r], "says": pick(*says)},
                   {"kind": "bound", "says": pick("目标是数据：这对每一局都成立，与搜索界限无关",
                                                  "the target is data: this holds of every game, whatever the bound"),
                    "rules": []}]
    what = ("它使用前的检查（requires）", "the check before its use (requires)") if key == "requires" else \
        ("它的目标（target）", "its target")
    res.headline = pick(f"否——{name}不能对{zh_w}使用（目录里{what[0]}如此，每一局都一样）",
                        f"no — {name} cannot be used on {en_w} ({what[1]} in the catalogue; in every game)")
    res.bounds = {"table": True}
    return res


def refutes_pick(conj, var: str, who: str) -> bool:
    """Does one conjunct of a result skill's ``pick`` (比翼双飞: p.in_declared and p.male) fail whenever the picked
    player is the word ``who``? ``p.male`` / ``p.female`` are read face up only (server Player.isMale / isFemale):
    a face-down player, or one of the other gender, fails them; ``p.face_up`` fails a face-down one."""
    if not (isinstance(conj, E.Attr) and _is(conj.obj, var)):
        return False
    if conj.name in GENDER:
        return who == "face_down" or who in GENDER and who != conj.name
    return conj.name == "face_up" and who == "face_down"


def _pick_refutes(cat, q: Query, a: Atom, rule, zh_w: str, en_w: str):
    """*no* from a result skill's ``pick`` (the player it picks: 比翼双飞's declared male winner) when a conjunct of it
    fails for every player the word names; None otherwise."""
    from skillproof.model.lang import pick
    from .constraints import _ref
    from .result import Result
    for eff in getattr(rule, "result", None) or ():
        lam = getattr(eff, "pick", None)
        if lam is None:
            continue
        bad = [c for c in E.conjuncts(lam.body) if any(refutes_pick(c, lam.var, w) for w in parts(a.value))]
        if not bad:
            continue
        cond = " and ".join(E.to_text(c) for c in bad)
        res = Result(q, "no")
        res.because = [{"kind": "rule", "rules": [_ref(cat, a.rule, eff.loc)],
                        "says": pick(f"{rule.name}只选这样的角色（result 的 pick）：{cond}；{zh_w}不满足"
                                     f"（性别只在面朝上时有：服务器 Player.isMale / isFemale）",
                                     f"{rule.name} picks only such a player (its result's pick): {cond}; {en_w} fails "
                                     f"it (a gender is a face-up player's: server Player.isMale / isFemale)")},
                       {"kind": "bound", "says": pick("这是数据：对每一局都成立，与搜索界限无关",
                                                      "this is data: it holds of every game, whatever the bound"),
                        "rules": []}]
        res.headline = pick(f"否——{rule.name}不会选中{zh_w}（目录里它的 pick 如此，每一局都一样）",
                            f"no — {rule.name} never picks {en_w} (its pick in the catalogue; in every game)")
        res.bounds = {"table": True}
        return res
    return None


def _no_one(cat, q: Query, a: Atom, name: str, zh_w: str, en_w: str):
    """*no*, whatever the rule: no player is what the compound says (a face-down player has no gender)."""
    from skillproof.model.lang import pick
    from .result import Result
    res = Result(q, "no")
    from .constraints import _ref
    ref = _ref(cat, a.rule)
    res.because = [{"kind": "rule", "rules": [ref],
                    "says": pick(f"没有角色是{zh_w}", f"no player is {en_w}")},
                   {"kind": "bound", "says": pick("这对每一局都成立，与搜索界限无关", "this holds of every game, whatever the bound"),
                    "rules": []}]
    res.headline = pick(f"否——{name}不能以{zh_w}为目标：没有这样的角色（每一局都一样）",
                        f"no — {name} never targets {en_w}: there is no such player (in every game)")
    res.bounds = {"table": True}
    return res


# ---------------------------------------------------------------------------------------------- the phrasebook
#: the frames as the phrasebook shows them (docs/query-language.md, *Targets*), in the order they are tried
FRAME_DOC = (
    ("RULE 能|可以|能否 对|向|给 PLAYER 使用|用|打出|发动 吗", "the play (use) of RULE names PLAYER as its target"),
    ("能|可以 对|向 PLAYER 使用|打出|发动 RULE 吗", "the same"),
    ("RULE 能|可以 指定|选择 PLAYER (为目标)? 吗", "the same"),
    ("RULE 能|可以 以|把 PLAYER 为目标|作为目标 吗", "the same"),
    ("RULE 的目标 能|可以 是|为 PLAYER 吗", "the same"),
    ("PLAYER 能|可以 成为|作为 RULE 的目标|对象 吗", "the same"),
    ("PLAYER 能|可以 被 RULE 指定|选择|选中 吗", "the same"),
    ("USER 能|可以 对|向 PLAYER 使用|打出|发动 RULE 吗", "the same, used by USER (read as a question's player: a "
     "character, 濒死的角色, 没有手牌的角色 …)"),
    ("can RULE target|choose PLAYER / be used on|be played on PLAYER", "the same"),
    ("can I|you|a player use|play RULE on|against PLAYER", "the same"),
    ("RULE 能 把? 情报? 转移|转|传|交 给 PLAYER 吗", "RULE's effect moves the message to PLAYER (its move_message op)"),
    ("can RULE move|pass|redirect the message|it to PLAYER", "the same"),
    ("濒死时 / 出牌阶段 / 争夺阶段 / 传递阶段开始时 / in the dying phase … anywhere", "the window the question is asked in"),
    ("ADJ的? PLAYER (面朝下的男性角色, 没有手牌的女性角色)", "both words: the adjective is a PLAYER phrase without its "
     "noun (面朝下 of 面朝下的角色); 男性 / 女性 is the character's gender, face up or down (a result skill's pick of "
     "p.male reads it face up only: server Player.isMale)"),
)


def table() -> str:
    """The targets' phrasebook (frames, then player words) as the docs show it; a test keeps the docs identical."""
    rows = ["| written (frame) | read as |", "| --- | --- |"]
    rows += [f"| `{f.replace('|', chr(92) + '|')}` | {r} |" for f, r in FRAME_DOC]
    rows += ["", "| PLAYER | written |", "| --- | --- |"]
    for who, ws in TARGET_WORDS.items():
        rows.append(f"| `{who}` ({SHOWN[who][1]}) | " + " / ".join(ws) + " |")
    return "\n".join(rows) + "\n"
