"""Claims about what an effect does (issue 23): 城府还会让试探无效吗, 李宁玉的技能会让别人摸牌吗, 澄清能救濒死的人吗,
遗信能把手牌放入别人的情报区吗 — a skill's or a card's effect doing an op of the catalogue's ``do`` vocabulary
(model/effects.py) to a player, read as an ``effect`` atom (syntax.Effect) and asked of games (table.py): some game
where the rule's effect does that op, or the rules that forbid it. A part of ``parser.Parser``.

Two forms: ``RULE … 让 [PLAYER] VERB`` (make: the player is whom the op is done to or for — 让别人摸牌, 让试探无效) and
``RULE … VERB [PLAYER]`` (the verb's object: 救濒死的人, 放入别人的情报区, 拿走他的手牌). ``VERBS`` says, for each verb,
the ops it stands for and which player argument of each the player names in each form."""
from __future__ import annotations

from skillproof.model import expr as E
from skillproof.model.effects import INTO_HAND
from skillproof.model.msg import Msg

from .lexer import Tok
from .phrases import COLOURS
from .syntax import Atom, Effect

#: verb keyword -> (ops, player argument of each op in the make form, … in the object form, face, colour filters)
#: (the arguments are model/effects.py's: whom the op is done to or for)
VERBS = {
    "draw": ({"draw": "who"}, {"draw": "who"}, None, ()),
    "discard_v": ({"discard": "who"}, {"discard": "who"}, None, ()),
    "take_v": ({"give": "to", "take": "to", INTO_HAND: "who"}, {"give": "from", "take": "from"}, None, ()),
    "hand_over_v": ({"give": "from", "take": "from"}, {"give": "to", "take": "to", INTO_HAND: "who"}, None, ()),
    "put_v": ({"put_message": "to", "remove_message": "into"}, {"put_message": "to", "remove_message": "into"}, None,
              ()),
    "remove_v": ({"remove_message": "whose"}, {"remove_message": "whose"}, None, ()),
    "save_v": ({"remove_message": "whose"}, {"remove_message": "whose"}, None, ("black", "pure_black")),
    "face_up": ({"flip": "who"}, {"flip": "who"}, "up", ()),
    "face_down": ({"flip": "who"}, {"flip": "who"}, "down", ()),
    "kill_v": ({"kill": "who"}, {"kill": "who"}, None, ()),
    "show_v": ({"show": "who"}, {"show": "who"}, None, ()),
    "end_turn_v": ({"end_turn": None}, {"end_turn": None}, None, ()),
    # the phrasebook's send_v (欲擒故纵能传出自己情报区里的情报吗): a message sent by the effect, the player whose area
    # or hand it comes from as the object
    "send_v": ({"send_message": "by"}, {"send_message": "of"}, None, ()),
}
#: where a message an op takes out of an area must go for the verb (effects.place_of): 放入 …情报区 is a card put into
#: an area (put_message) or a message moved into another's area (remove_message to = area: 如归, 转交); 弃置…情报 below
PLACES = {"put_v": "area"}
#: a message, not a hand card, as the object (弃置别人的黑色情报 — 坚韧, 先发制人; 拿走别人的情报 — 壮志满怀): the ops it
#: stands for (the player argument, where the message goes) by verb
MESSAGE_OBJECT = {"discard_v": ({"remove_message": "whose"}, "discard_pile"),
                  "take_v": ({"remove_message": "whose"}, "hand")}      # 拿走别人的情报: into the taker's hand (壮志满怀)
#: a message put into a hand (奇货可居能把情报放入手牌吗 — the message written before the verb, 手牌 after it): the
#: ops it stands for (the player argument: whose area it leaves) and where it goes (effects.place_of)
MESSAGE_INTO_HAND = {"put_v": ({"remove_message": "whose"}, "hand")}
#: colour words of a hand card the effect moves (把黑色手牌放入…, 把纯黑色手牌…) -> the colour filters of an op that may
#: move such a card (None: the op has none): a card holding black passes every filter but non_black; a red or a blue
#: card every one but pure_black; a pure black card only those some pure black card passes (model/effects.py)
_ALL_FILTERS = (None, "any", "black", "pure_black", "non_black", "red", "blue", "red_or_blue", "two_colours",
                "shares_message", "outside_message")
HAND_COLOURS = {"black": tuple(f for f in _ALL_FILTERS if f != "non_black"),
                "red": tuple(f for f in _ALL_FILTERS if f != "pure_black"),
                "blue": tuple(f for f in _ALL_FILTERS if f != "pure_black"),
                "pure_black": (None, "any", "black", "pure_black", "shares_message", "outside_message"),
                # 纯红色情报 / 纯蓝色情报: one colour, not black (a filter of black never takes it)
                "pure_red": (None, "any", "non_black", "red", "red_or_blue", "shares_message", "outside_message"),
                "pure_blue": (None, "any", "non_black", "blue", "red_or_blue", "shares_message", "outside_message")}
#: colour words of a message object -> the colour filters of an op that may take such a message: as a hand card's
#: (a two-colour message is of both colours, rule book strategy/faq.md › 双色情报: 红黑 is red, and black; an op with
#: no filter takes any)
MESSAGE_COLOURS = HAND_COLOURS
#: the user of the card (欲擒故纵能让使用者摸两张牌吗): the effect's ``self``
USER_WORDS = ("使用者", "使用者自己", "出牌者", "打出者")
#: the card's target (平衡能让目标摸三张牌吗, 平衡会弃置目标的手牌吗): the player the play the effect is chose
TARGET_WORDS = ("目标", "目标角色", "被指定的角色", "the target", "its target")

#: the ops that set the message's face (让情报面朝下): its flip (an op naming no player), its replacement by a card
#: of that face, and a message sent with a face (欲擒故纵: face up, card/YuQinGuZong.kt isMessageCardFaceUp = true) (place = "message" in the claim; table.effect_entry_ok)
MESSAGE_FACE_OPS = ("flip", "replace_message", "send_message")

#: the object form's verbs (a verb that is an atom of its own without a topic — draw, face_up — needs 让)
OBJECT_VERBS = ("take_v", "hand_over_v", "put_v", "remove_v", "save_v", "kill_v", "show_v", "end_turn_v",
                "discard_v", "send_v")
#: verbs whose object may be a card type (威逼能让目标交出平衡吗: Effect.of_card)
CARD_OBJECT_VERBS = ("take_v", "hand_over_v")
#: the words the verbs are written with: lexer.KEYWORDS (discard_v, take_v …)
#: words between the verb and its end that add nothing (手牌, 情报区 …)
_NOUNS = ("cards", "hand", "area_word", "skill_word")


class EffectParser:
    """The ``effect`` atom (see the module's docstring)."""

    def effect_verb_at(self, j: int | None = None) -> str | None:
        """The effect verb at ``j`` (a keyword of ``VERBS``; 死 / 死亡, the phrasebook's ``not alive``: kill_v)."""
        t = self.toks[self._skipf(self.i if j is None else j)]
        if t.kind == "cond" and t.text.replace(" ", "") == "notalive":
            return "kill_v"
        return t.kw if t.kind == "word" and t.kw in VERBS else None

    def effect_after_make(self, make: Tok, rule: str | None) -> Atom | None:
        """``让 [PLAYER] VERB …`` after the rule (``rule``: a skill or card id; None: any skill of the player asked
        about): the effect atom, or None when no effect verb follows (the caller reads on as before)."""
        j = self.i
        who, k = self._effect_player(j)
        verb = self.effect_verb_at(k)
        card = None
        if verb is None:                             # 让试探无效: a card made invalid (its use cancelled)
            t = self.toks[self._skipf(k)]
            self._no_outcome(t)
            c = self.resolve(t, ("card",)) if t.kind == "word" else None
            nxt = self.toks[self._skipf(self._skipf(k) + 1)]
            if c is not None and nxt.kind == "word" and nxt.kw == "invalidated":
                card = c[1]
                self.i = self._skipf(self._skipf(k) + 1) + 1
                return self._effect(make, rule, Effect(("cancel",), {"cancel": None}, None, card, None, (),
                                                       text=t.shown))
            if who is not None and self.toks[self._skipf(k)].kw == "invalidated":   # 让别人的技能无效
                self.i = self._skipf(k) + 1
                return self._effect(make, rule, Effect(("grant",), {"grant": "to"}, who, None, None, (),
                                                       grant="InvalidSkill"))
            return None
        self._no_kill(verb, k)
        self.i = self._skipf(k) + 1
        ops, args, _, face, colour = self._verb(verb, make=True)
        if face is not None and who is None and any(t.text in ("情报", "待收情报") for t in self.toks[j:k]):
            # 让情报面朝下: the message's face, not a role's — a flip naming no player, or the message replaced by a
            # card of that face (调包: replace_message face = down)
            return self._effect(make, rule, Effect(MESSAGE_FACE_OPS, {}, None, None, face, (), place="message"))
        n = self._draw_count() if verb == "draw" else None
        of_card = self._card_object(verb)
        ops, args, colour, place = self._message_object(verb, ops, args, colour, self.i)
        return self._effect(make, rule, Effect(ops, args, who, None, face, colour, dying=verb == "save_v",
                                               place=place, n=n, of_card=of_card))

    def _draw_count(self) -> int | None:
        """摸两张牌 / draw two cards: the count after the draw verb (its classifier and 牌 / cards taken), or None."""
        from .phrases import CLASSIFIERS, NUMERALS
        t = self.toks[self.i]
        if t.kind == "num":
            n = int(t.text)
        elif t.kind == "word" and t.text.lower() in NUMERALS:
            n = NUMERALS[t.text.lower()]
        elif t.kind == "word" and len(t.text) == 2 and t.text[0] in NUMERALS and t.text[1] in CLASSIFIERS:
            n = NUMERALS[t.text[0]]                 # 一张
        else:
            return None
        self.take()
        while self.tok.kind == "word" and (self.tok.text in ("张", "牌", "手牌") or self.tok.kw == "cards"):
            self.take()
        return n

    def effect_object(self, verb_tok: Tok, rule: str | None, hand_colour: str | None = None,
                      message: bool = False, owner: str | None = None) -> Atom:
        """``VERB [PLAYER]``: the verb's object is whom the op is done to (救濒死的人, 放入别人的情报区); ``hand_colour``:
        the colour of the hand card written before the verb (把黑色手牌放入…: HAND_COLOURS); ``message``: the thing
        moved, written before the verb, is a message (把情报放入手牌: a message taken out of an area into a hand —
        ``remove_message`` to ``hand``, MESSAGE_INTO_HAND); ``owner``: whose it is, said before it (把自己的情报…)."""
        verb = verb_tok.kw
        self._no_kill(verb, self.i)
        self.take()
        start = self.i
        self._nouns()
        who, k = self._effect_player(self.i)
        self.i = k
        ops, args, _, face, colour = self._verb(verb, make=False)
        of_card = self._card_object(verb)
        ops, args, colour, place = self._message_object(verb, ops, args, colour, start)
        if verb in MESSAGE_INTO_HAND and any(t.kw in ("cards", "hand") for t in self.toks[start:self.i]):
            # 放入(使用者的)手牌: into a hand, not an area — a message taken out of an area, or a card joining the
            # player's hand (利诱's card: INTO_HAND, the player the one whose hand it is)
            args, place = MESSAGE_INTO_HAND[verb] if message else ({INTO_HAND: "who"}, None)
            ops, args = tuple(args), dict(args)
            if message and who is None:
                who = owner                         # 把自己的情报放入手牌: the area it leaves is his own
        if hand_colour is not None and not colour:
            colour = HAND_COLOURS[hand_colour]
        eff = Effect(ops, args, who, None, face, colour, dying=verb == "save_v", place=place,  # 救: the dying player
                     of_card=of_card)
        return self._effect(verb_tok, rule, eff)

    # ---- pieces
    def _no_kill(self, verb: str, j: int) -> None:
        """让别人死 reads two ways — the effect kills at once (a ``kill`` op), or a death follows it (a third black
        message put into an area): refused, with the question that asks of deaths in games."""
        if verb == "kill_v":
            self.error(Msg("「让…死」有两种读法：效果直接致死，或效果之后有人死亡；要问死亡，请写「…能死吗」（牌桌问题）",
                           "`make … die` reads two ways: the effect kills at once, or a death follows it; to ask of "
                           "deaths, write `can … die` (a table question)"), self.toks[self._skipf(j)])

    def _no_outcome(self, t: Tok) -> None:
        """让别人获胜 / 让当前回合角色濒死: not an op of the effect but what the game does after it (ProcessFsm checks
        wins and dying once the effect is done) — refused, with the table questions that ask it."""
        win = t.kind == "word" and (t.kw == "win" or t.text == "win")
        dying = t.kind == "cond" and t.text.replace(" ", "") == "dying"
        if win or dying:
            zh, en = ("获胜", "win") if win else ("濒死", "be dying")
            self.error(Msg(f"「让…{zh}」不是效果本身的一步，而是效果之后牌局的结果（宣胜、濒死由之后的处理节点检查）；"
                           f"要问{zh}，请写牌桌问题，如「老汉能{zh}吗」「老汉死亡时，谁会赢」",
                           f"`make … {en}` is no step of the effect but what the game does after it (wins and dying "
                           f"are checked after it); ask a table question, e.g. `can 老汉 {en}?`"), t)

    def _verb(self, verb: str, make: bool) -> tuple:
        """(ops, {op: the player argument the player names}, None, face, colour filters) of a verb in a form."""
        m, o, face, colour = VERBS[verb]
        args = m if make else o
        return tuple(args), dict(args), None, face, colour

    def _message_object(self, verb: str, ops: tuple, args: dict, colour: tuple, start: int) -> tuple:
        """The nouns after the verb (or its object), read: a colour word and 情报 make the object a message — 弃置别人的
        黑色情报 takes a message out of an area into the discard pile (remove_message), a colour narrows what may be
        taken. (ops, args, colour filters, place)."""
        saw_msg, col, pure = False, None, False
        for t in self.toks[start:self.i]:            # the fillers the player word was read past (别人的情报)
            saw_msg = saw_msg or t.text in ("情报", "情报区")
        while self.tok.kind == "word":
            t = self.tok
            if t.text in ("情报", "情报区") or t.kw == "area_word":
                saw_msg = True
            elif t.text == "纯" and col is None:
                pure = True                          # 纯红色情报: one colour only
            elif t.kw == "" and t.text in COLOURS and col is None:
                col = COLOURS[t.text]
                col = f"pure_{col}" if pure and f"pure_{col}" in MESSAGE_COLOURS else col
            elif t.kw == "" and t.text in COLOURS and col in MESSAGE_COLOURS and not pure:
                col2 = COLOURS[t.text]               # 红黑双色情报: a message of both colours passes a filter both pass
                if col2 != col:
                    col = (col, col2)
            elif t.text in ("双色", "两色", "里", "中", "内") and saw_msg | (col is not None):
                pass
            elif not (t.kw in _NOUNS or t.kw == "filler" or t.text in ("技能", "人", "角色")):
                break
            self.take()
        place = PLACES.get(verb)
        if saw_msg and verb in MESSAGE_OBJECT:
            args, place = MESSAGE_OBJECT[verb]
            ops, args = tuple(args), dict(args)
        if col is not None and not colour and (saw_msg or verb in ("remove_v", "save_v")):
            colour = tuple(f for f in MESSAGE_COLOURS[col[0]] if f in MESSAGE_COLOURS[col[1]]) \
                if isinstance(col, tuple) else MESSAGE_COLOURS[col]
        return ops, args, colour, place

    def _card_object(self, verb: str) -> str | None:
        """A card type as the verb's object (交出平衡, 一张截获): its id, taken; None when no card name follows."""
        if verb not in CARD_OBJECT_VERBS:
            return None
        j = self._skipf(self.i)
        t = self.toks[j]
        if t.kind == "word" and t.text in ("一张", "张") :
            j = self._skipf(j + 1)
            t = self.toks[j]
        c = self.resolve(t, ("card",)) if t.kind == "word" and not t.kw else None
        if c is None:
            return None
        self.i = j + 1
        return c[1]

    def _nouns(self) -> None:
        while self.tok.kind == "word" and (self.tok.kw in _NOUNS or self.tok.kw == "filler" or
                                           self.tok.text in ("情报区", "技能", "人", "角色")):
            self.take()

    def _effect_player(self, j: int) -> tuple:
        """``_player_word``, and its living neighbour when 上家 / 下家 follows it (传出者下家, 自己的上家: ``sender_right``,
        ``self_left``; a character's or another player's neighbour is not read)."""
        who, k = self._player_word(j)
        if who in ("sender", "self", "turn", "receiver"):
            m = k
            if self.toks[m].kind == "word" and self.toks[m].text == "的":
                m = self._skipf(m + 1)
            if self.toks[m].kind == "word" and self.toks[m].kw in ("seat_left", "seat_right"):
                return f"{who}_{self.toks[m].kw[5:]}", self._skipf(m + 1)
        return who, k

    def _player_word(self, j: int) -> tuple:
        """(the player a word at ``j`` names — self | other | dying | dead (死亡角色: whose death the effect answers) |
        sender | receiver | turn (传出者, 接收者, 当前回合角色: this turn's) | a character id | None — and the index after
        it)."""
        j = self._skipf(j)
        t = self.toks[j]
        if t.kind == "cond":
            try:
                node = E.parse(t.text)
            except E.ExprError:
                return None, j
            k = self._skipf(j + 1)
            if self.toks[k].kind == "word" and self.toks[k].kw == "anyone":
                k = self._skipf(k + 1)
            if isinstance(node, E.Attr) and node.name == "dying" or getattr(node, "name", None) == "dying":
                return "dying", k
            if isinstance(node, E.Unary) and node.op == "not" and getattr(node.arg, "name", None) == "alive":
                if k != self._skipf(j + 1):         # 死亡角色 / 死亡的人: the player whose death the effect answers
                    return "dead", k
                return None, j                      # 让别人死: the dying word is the verb (kill), the player before it
            if getattr(node, "name", None) == "in_front":
                return "receiver", k                # 接收者 / 情报面前的角色: the message is in front of her
            return None, j
        if t.kind == "role" and t.text in ("sender", "turn"):  # 传出者 / 当前回合角色: this turn's sender / player
            k = self._skipf(j + 1)
            if self.toks[k].kind == "word" and self.toks[k].kw == "anyone":
                k = self._skipf(k + 1)
            return t.text, k
        if t.kind == "word" and t.kw == "other":
            k = self._skipf(j + 1)
            if self.toks[k].kind == "word" and self.toks[k].kw == "anyone":
                k = self._skipf(k + 1)
            return "other", k
        if t.kind == "word" and t.text in TARGET_WORDS:
            return "target", self._skipf(j + 1)   # 目标: the target of the card played (table: who_term)
        if t.kind == "word" and (t.kw in ("own", "self_word") or t.text in USER_WORDS):
            return "self", self._skipf(j + 1)     # 使用者: the card's user (the rule's holder for a skill)
        if t.kind == "word" and t.kw == "anyone":
            return None, self._skipf(j + 1)
        if t.kind == "word":
            c = self.resolve(t, ("character",))
            if c is not None and not self.resolve(t, ("card",)):
                return c[1], self._skipf(j + 1)
        return None, j

    def _effect(self, t: Tok, rule: str | None, eff: Effect) -> Atom:
        if rule is None and getattr(self, "any_skill", None) is None:
            self.error(Msg("是谁的效果？在前面写出技能或牌（'城府会让试探无效吗'）",
                           "whose effect? name the skill or card first ('does 城府 make 试探 invalid')"), t)
        return Atom("effect", t.col, self.prev_end(), rule=rule, value=eff, text=self.text[t.col:self.prev_end()])
