"""The words and atoms of a claim: names (card, skill, character), phases, send groups, directions,
numbers and comparisons (``Words``), and the atoms built from them — ``play X as Y``, ``banned X``,
``must receive``, ``skipped in PHASE``, ``draw > N`` … (``AtomParser``). Both are parts of ``parser.Parser``
and read the tokens through its ``Cursor``."""
from __future__ import annotations

import re

from skillproof.model import expr as E
from skillproof.model import vocab as V
from skillproof.model.catalogue import Catalogue
from skillproof.model.msg import Msg, as_msg
from skillproof.model.names import did_you_mean, nearest
from skillproof.model.turn import IDLE_POINTS
from skillproof.model.narrate import GROUP_EN

from .lexer import KEYWORDS, Cursor, Tok
from .parse_effects import OBJECT_VERBS
from .phrases import COLOURS
from .syntax import Given
from .names import DIRS, GROUPS, PHASES, WINDOW_PHRASES, Names
from .syntax import Atom, BoolOp

#: what a word was expected to name, for people
WHAT = {"card": Msg("牌", "card"), "skill": Msg("技能", "skill"), "character": Msg("角色", "character"),
        "conversion skill": Msg("转化技能", "conversion skill"), "rule": Msg("技能", "skill"),
        "skill or card": Msg("技能或牌", "skill or card")}
#: the send groups in Chinese (the ask language's own words for them)
GROUP_ZH = {"SendMessageDirectionSkill": "传出方向", "SendMessageCanLockSkill": "锁定", "SendMessageCardSkill": "传出哪张情报"}
#: the examples of a question an error offers: the ask language in Chinese and in English
EXAMPLES = Msg("'截获当作误导打出'、'截获被禁'、'必须接收'、'跳过争夺阶段'、'传出方向 联络' 或 '摸 4'",
               "'play 截获 as 误导', 'banned 截获', 'must receive', 'skipped in 争夺阶段', 'send direction by 联络' or 'draw 4'")


def what_word(what) -> Msg:
    return WHAT.get(what, as_msg(what)) if isinstance(what, str) else what


#: the phrases of every window, longest first: (window, [words])
_PHRASES = sorted(((w, p.lower().split()) for w, ps in WINDOW_PHRASES.items() for p in ps),
                  key=lambda x: -len(x[1]))


class Words(Cursor):
    """Names and small words: each takes the tokens it reads or raises a located QueryError."""

    cat: Catalogue          # set by Parser
    names: Names

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
            self.error(Msg("这里应是{w}，问题却结束了", "expected {we}, found the end of the query", w=what_word(what),
                           we=what_word(what)), t)
        sug = self.names.suggest(kinds, t.text) if t.kind == "word" else None
        self.error(Msg("未知的{w} '{t}'{dym}", "unknown {w} '{t}'{dym}", w=what_word(what), t=t.shown,
                       dym=did_you_mean(sug) if sug else ""), t)

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
                self.error(Msg("这里应是一张牌，但 '{t}' 是{k}", "expected a card, but '{t}' is a {k}", t=t.text,
                               k=what_word(other[0])), t)
            self.name_error(t, "card", ("card",))
        self.take()
        return r[1]

    def rule(self, what="skill", take: bool = True, wrong=None) -> str:
        """The rule (skill or grant) the next word names, taken unless ``take`` is false. ``wrong`` begins the
        error when the word names a card or a character instead (default: "expected a WHAT")."""
        self.skip_fillers()
        t = self.tok
        r = self.resolve(t, ("rule",))
        if r is None:
            other = self.resolve(t, ("card", "character"))
            if other:
                self.error(Msg("{w}，但 '{t}' 是{k}", "{w}, but '{t}' is a {k}", t=t.text, k=what_word(other[0]),
                               w=wrong or Msg("这里应是{x}", "expected a {x}", x=what_word(what))), t)
            self.name_error(t, what, ("rule",))
        if take:
            self.take()
        return r[1]

    def _skipf(self, j: int) -> int:
        while self.toks[j].kind == "word" and self.toks[j].kw == "filler":
            j += 1
        return j

    def window_at(self, j: int) -> tuple[str, int] | None:
        """A window phrase at token ``j`` (fillers before and between its words skipped): (window, end)."""
        for w, words in _PHRASES:
            k = j
            for word in words:
                k = self._skipf(k)
                if self.toks[k].text.lower() != word:
                    break
                k += 1
            else:
                return w, k
        return None

    def self_word_at(self, j: int) -> bool:
        """'herself' / 'himself' / 'oneself' / 自己 … at token ``j``: the player herself."""
        t = self.toks[self._skipf(j)]
        return t.kind == "word" and t.kw in ("self_word", "own")

    def moment_at(self, j: int | None = None) -> str | None:
        """Which moment phrase ("in the main phase", "in 陈大耳's turn" …) starts at token ``j``: see
        parse_moments.MomentParser, which Parser takes it from."""
        return None

    def phase(self, optional: bool = False) -> str | None:
        """A phase (争夺阶段 / 濒死求澄清). ``optional``: none may be written when no phase word follows — the
        question's window then says which (parse_moments.settle)."""
        self.skip_fillers()
        if optional and not self.at("in"):
            t = self.tok
            if not any(t.text.lower() in ws or t.text in ws for ws in PHASES.values()):
                return None
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
        self.error(Msg("这里应是阶段（'争夺阶段' 或 '濒死求澄清'），却是{f}{dym}",
                       "expected a phase ('争夺阶段' or '濒死求澄清'), found {f}{dym}", f=self.found(t),
                       dym=did_you_mean(f"'{n}'") if n else ""), t)

    def group(self) -> str | None:
        t = self.tok
        for g, words in GROUPS.items():
            if t.text.lower() in [w.lower() for w in words]:
                self.take()
                return g
        return None

    def direction_at(self) -> bool:
        return any(self.tok.text.lower() in words for words in DIRS.values())

    def fired_by(self, t: Tok) -> str | None:
        """The rule whose effect a skill's or card's ``t`` firing is (``fires``): itself, or the one grant it hands out
        that has one (详尽思索 → 详尽思索·押注)."""
        r = self.resolve(t, ("rule",))
        if r is None:
            return None
        rule = self.cat.skills[r[1]]
        if rule.fires is not None:
            return rule.id
        got = [g.grant for g in rule.gives if self.cat.skills[g.grant].fires is not None]
        return got[0] if len(set(got)) == 1 else None

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
            self.error(Msg("这里应是一个数，却是{f}", "expected a number, found {f}", f=self.found(t)), t)
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
            self.error(Msg("这里应是 'at least' 或 'at most'，却是{f}", "expected 'at least' or 'at most', found {f}",
                           f=self.found()))
        if self.at("exactly"):
            self.take()
        return "==", self.number()

    def card_pair(self) -> tuple:
        """``CARD ['as' CARD]``: (actual, declared), declared None when not said."""
        x = self.card()
        if self.at("as"):
            self.take()
            return x, self.card()
        return x, None


class AtomParser(Words):
    """The atoms of a claim (the table "atom" of docs/query-language.md)."""

    def own_skill(self, verb) -> None:
        """发动 with no skill after it, said of a character (毛不拔能在自己死亡后发动吗): her only triggered skill
        (or her only skill) is what she fires; with several, a located error lists them."""
        ch = self.cat.characters.get(getattr(self, "subject_char", None) or "")
        t = self.tok
        if ch is None or (t.kind == "word" and self.resolve(t, ("rule",)) is not None):
            return
        if not (t.kind == "end" or t.kind == "op" or t.kw == "filler" or t.kw in ("exists", "when", "while", "in")):
            return
        trig = [r for r in ch.skills if self.cat.skills[r].has("TriggeredSkill")]
        one = ch.skills if len(ch.skills) == 1 else trig if len(trig) == 1 else []
        if len(one) != 1:
            names = "、".join(self.cat.skills[r].name for r in ch.skills)
            self.error(Msg("说出{c}要发动哪个技能：{s}", "say which skill {c} fires: {s}", c=ch.name, s=names), verb)
        r = self.cat.skills[one[0]]
        self.toks[self.i:self.i] = [Tok("word", r.name, verb.col, verb.end, "", src=verb.shown)]

    def atom(self) -> Atom:
        self.skip_fillers()
        t = self.tok
        start = t.col
        kw = t.kw if t.kind == "word" else ""
        first = self.i

        def done(a: Atom) -> Atom:           # its words: all it took (a phrasebook word spans what it stands for)
            end = max([x.end for x in self.toks[first:self.i]] + [start + 1])
            for x in (a.items if isinstance(a, BoolOp) else [a]):
                x.col, x.end = start, end
                x.text = self.text[start:end].rstrip("吗呢？?")
            return a

        if t.kind == "word" and t.kw == "this_turn":          # 本回合 (the question's turn): nothing to add
            self.take()
            return self.atom()
        if t.kind == "word" and t.kw == "is" and self.token_given_at(self.i + 1):
            self.take()                                      # who is not the sender: 'is' before a role
            t = self.tok
        if t.kind in ("cond", "role"):                       # 成为传出者, 是传出者: a role as a claim
            g = self.token_given()
            if g.kind == "where":
                return g.claim
            return Atom("given", g.col, g.end, value=g, text=g.text)
        if t.kind == "word" and t.text == "make" and self.effect_wanted():
            self.take()                                      # 城府会让试探无效吗: what its effect does (parse_effects)
            rule = self.effect_rule()
            a = self.effect_after_make(t, rule)
            if a is not None:
                return a
            self.i -= 1
        j, pure, col, owner = self.i, False, None, None
        while self.toks[j].kind == "word" and (self.toks[j].kw in ("cards", "hand", "filler") or
                                               self.toks[j].kw == "" and self.toks[j].text in COLOURS or
                                               self.toks[j].text in ("纯", "牌") or
                                               self.toks[j].kw == "own" and j > 0 and
                                               self.toks[j - 1].text in ("把", "将")):   # 把牌交给…: a card
            if self.toks[j].kw == "own":                     # 把自己的情报放入手牌: his own
                owner = "self"
            elif self.toks[j].text == "纯":                  # 把纯黑色手牌…: a card of that colour only
                pure = True
            elif self.toks[j].kw == "" and self.toks[j].text in COLOURS:
                col = COLOURS[self.toks[j].text]
            j += 1                                           # 遗信能把(黑色)手牌放入…: the thing moved, then the verb
        if self.toks[j].kind == "word" and self.toks[j].kw in OBJECT_VERBS and self.effect_wanted(make=False):
            self.i = j
            hand = "pure_black" if pure and col == "black" else col
            msg = self._ba_message(j)                        # 把情报放入手牌: the thing moved is a message
            return self.effect_object(self.toks[j], self.effect_rule(), hand, msg, owner)  # 澄清能救濒死的人吗
        if t.kind == "word" and t.text == "make":           # 调虎离山能让一名角色…: the topic hands it out
            self.take()
            tp = self.topic_word(("rule", "card"))
            if tp is None or not self._grantish(tp):
                self.error(Msg("'让 / 令' 之前应是给出技能的技能或牌（'调虎离山能让一名角色…'）",
                               "'make' needs a skill or card that hands skills out before it"), t)
            self.skip("anyone", "other", "filler")
            fired = self.fired_by(tp)
            if fired is not None and self.at("draw"):          # 详尽思索还能让他摸牌吗: its effect happens
                self.take()
                return done(Atom("fires", 0, 0, rule=fired))
            saved = self.toks
            self.toks = saved[:self.i] + [tp] + saved[self.i:]
            g = self.grantref()
            self.pending_givens.append(Given("grant", tp.col, tp.end, tp.shown, grant=g))
            a = self.atom()
            if isinstance(a, Atom) and a.kind == "banned" and a.value is None:
                a.value = g                 # 借车运货能让截获被禁: the ban its grant makes (interp.bans.banned_by)
            return a
        if t.kind == "word" and t.text == "must_lock":       # 必须锁定一个人吗: never a send locking another number
            self.take()
            n = self.number()
            self.force_never = True
            others = [Atom("send_dir", start, t.end, value=(None, k), text=t.shown) for k in range(0, 4) if k != n]
            a = done(BoolOp("or", others, start))
            for x in others:                              # what is shown never to happen: another number locked
                x.text = f"锁定的人数不是{n}（{x.text}）" if re.search(r"[\u3400-\u9fff]", x.text) else \
                    f"locking other than {n} ({x.text})"
            return a
        if t.kind == "word" and t.text == "draw_extra":      # 多摸一张: the draw count over its base
            self.take()
            n = self.number()
            return done(Atom("draw", 0, 0, value=("==", self.cat.rules.draw_base + n)))
        if kw == "as" and self.topic is not None and self.resolve(self.topic, ("card",)):
            tp = self.topic_word(("card",))                  # 别人的截获还能当作截获使用吗: the topic is the card
            self.toks[self.i:self.i] = [Tok("word", "play", t.col, t.end, "play", src=t.shown), tp]
            kw = "play"
        if kw == "active" and self.topic is not None:       # 强令的禁令能在出牌阶段生效吗: the topic is held
            t.kw = kw = "hold"
        if kw == "locking":                                  # 可以不锁定任何人吗: a send, in some direction
            self.take()
            return done(Atom("send_dir", 0, 0, value=(None, self.number())))
        if kw == "declares" and self.topic is not None:       # 变则通能宣言澄清吗: the topic's grant, so declared
            tp = self.topic_word(("rule", "card"))
            self.toks[self.i:self.i] = [Tok("word", "hold", t.col, t.end, "hold", src=t.shown), tp]
            kw = "hold"
        elif kw in ("play", "use", "fire", "resolve", "hold") and self.topic is not None and \
                self.object_missing(self.i + 1):
            grant = getattr(self, "topic_grant", False)
            tp = self.topic_word(("rule", "card"))            # 截获能在别人的回合使用吗: the topic is the object
            if tp is not None:
                self.toks[self.i + 1:self.i + 1] = [tp]
                if grant:                                     # 强令的禁令能…生效吗: held, what it hands out
                    t.kw = kw = "hold"
                    self.hold_grant = True
        if kw in ("play", "use"):
            self.take()
            self.skip_fillers()
            r = self.resolve(self.tok, ("rule",)) if not self.resolve(self.tok, ("card",)) else None
            if r is not None:
                if self.peek().kw == "as":
                    self.error(Msg("'{a}' 之后应是一张牌，但 '{b}' 是技能（要问它是否发动，写 '使用 {b}'）",
                                   "expected a card after '{a}', but '{b}' is a skill (to ask whether it fires, "
                                   "write 'use {b}')", a=t.text, b=self.tok.text))
                return done(self.use_skill(r[1]))
            if kw == "use" and self.tok.kind == "word" and not self.at_op("?") and \
                    self.resolve(self.tok, ("card", "character")) is None and self.peek().kw != "as" and \
                    self.tok.text.lower() not in ("anything", "something", "any_card"):
                self.name_error(self.tok, "skill or card", ("rule", "card"))   # 'use X': a skill as much as a card
            x = self.card()
            y = None
            self.skip_fillers()
            if self.at("as"):
                self.take()
                y = self.card()
                if self.at("play", "use") and not self.resolve(self.peek(), ("rule", "card")):
                    self.take()                                # 把截获当作误导使用: the verb after
            elif self.at("to") and self.peek().kw == "play":   # "get a 截获 into play": the physical card
                self.take()
                self.take()
            elif x is not None:
                # 'play 误导' alone: a card declared as 误导 (readings.py says so and gives the physical card's
                # answer beside it)
                return done(Atom("play", 0, 0, cards=(None, x), value="bare"))
            return done(Atom("play", 0, 0, cards=(x, y)))
        if kw == "convert":
            self.take()
            x = self.card()
            self.skip_fillers()
            if not (self.at("to", "as") or self.at_op("→")):
                self.error(Msg("牌之后应是 'to' 或 'as'（'当作'），却是{f}", "expected 'to' or 'as' after the card, found {f}",
                               f=self.found()))
            self.take()
            y = self.card()
            return done(Atom("convert", 0, 0, cards=(x, y)))
        if kw == "fire":
            self.take()
            self.skip_fillers()
            self.own_skill(t)
            rid = self.rule("skill", take=False)
            r = self.cat.skills[rid]
            if r.convert is None and r.fires is None and (r.has("ActiveSkill") or r.fight is not None or
                                                          r.dying is not None):
                return done(self.use_skill(rid))                 # 发动妙手: an active skill is used
            if r.convert is None and r.fires is None and r.gives:
                # 陈大耳能在别人的回合发动变则通吗: a skill whose effect is what it hands out — fired by the
                # player, it hands her one of its grants (the trace shows the grants she holds)
                if not any(g.to in ("all", "self", "target") for g in r.gives):
                    self.error(Msg("{n}只把技能给别人：经过只记录所问角色获得的技能，问不了她是否发动了它",
                                   "{n} hands its skills to others only: the trace shows the grants the player holds, "
                                   "so whether she fired it cannot be asked", n=r.name))
                g = self.grantref()
                g.by_self = True
                g.invalid_option = g.invalid_option and any(x.to != "others" for x in g.invalid_sites)
                return done(Atom("granted", 0, 0, rule=g.grants[0] if len(g.grants) == 1 else None, value=g))
            self.take()
            if self.cat.skills[rid].fires is not None and self.cat.skills[rid].convert is None:
                return done(Atom("fires", 0, 0, rule=rid))       # a triggered skill's effect happens now
            if r.on and r.convert is None:                       # 如归: it answers an event of a game (table.py)
                return done(Atom("fires_on", 0, 0, rule=rid))
            self._need_conversion(rid, self.toks[self.i - 1])
            return done(Atom("fire", 0, 0, cards=self.fired_cards(("for", "play", "use", "in"), True), rule=rid,
                             value="play"))
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
        if kw == "receive" and getattr(self, "must_modal", False):   # must a locked player (always) receive?
            self.take()
            return done(Atom("receive", 0, 0, value="must"))
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
            self.skip("choose", "receive", "to", "filler", "or", "not")
            return done(Atom("receive", 0, 0, value="free"))
        if kw == "skipped":
            self.take()
            return done(Atom("skip", 0, 0, phase=self.phase(optional=True)))
        if kw == "act":
            self.take()
            return done(Atom("act", 0, 0, phase=self.phase(optional=True)))
        if kw == "remind":                                  # 出牌阶段结束时会提醒发动X吗 / remind X
            self.take()
            while True:
                self.skip_fillers()
                if not (self.at("from", "for") or self.tok.text.lower() == "about"):
                    break
                self.take()
            if self.resolve(self.tok, ("rule",)) is None:
                other = self.resolve(self.tok, ("card",))
                if other is not None:
                    self.error(Msg("'{t}' 是牌：结束出牌阶段时提醒的是出牌阶段技能（'提醒发动鱼死网破'）",
                                   "'{t}' is a card: ending the main phase prompts for MainPhaseSkills ('remind 鱼死网破')",
                                   t=self.tok.shown), self.tok)
                return done(Atom("remind", 0, 0))           # any prompt at all
            rid = self.rule("skill")
            if not self.cat.skills[rid].has("MainPhaseSkill"):
                self.error(Msg("{n}不是出牌阶段技能（'MainPhaseSkill'）：结束出牌阶段时只提醒出牌阶段技能",
                               "{n} is not a MainPhaseSkill: ending the main phase prompts only for those",
                               n=self.cat.skills[rid].name), self.toks[self.i - 1])
            return done(Atom("remind", 0, 0, rule=rid))
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
                rid = self.rule(Msg("{zh}技能", "{en} send skill", zh=GROUP_ZH[g], en=GROUP_EN[g]))
                if g not in self.cat.skills[rid].closure:
                    self.error(Msg("{n}不是 '{g}'", "{n} is not a {g}", n=self.cat.skills[rid].name, g=g),
                               self.toks[self.i - 1])
                return done(Atom("send_by", 0, 0, group=g, rule=rid))
            nxt = self.tok
            if not (nxt.kind == "word" and (nxt.text in ("any",) or nxt.kw == "locking" or self.direction_at())):
                return done(Atom("send_dir", 0, 0, value=(None, 0)))   # 传出 alone: a send, in some direction
            if self.tok.kind == "word" and self.tok.text == "any":      # 传出情报: in some direction
                self.take()
                n = 0
                if self.at("locking"):
                    self.take()
                    n = self.number()
                return done(Atom("send_dir", 0, 0, value=(None, n)))
            if self.at("locking"):                                      # 能锁定一名角色吗: some direction
                self.take()
                return done(Atom("send_dir", 0, 0, value=(None, self.number())))
            d = self.direction()
            if d is None:
                self.error(Msg("这里应是传出技能组（'方向'、'锁定'、'传出哪张情报'）或方向（'上'、'左'、'右'），却是{f}",
                               "expected a send group (direction, lock, card) or a direction (up, left, right), "
                               "found {f}", f=self.found()))
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
            c = self.resolve(self.tok, ("card",))
            if c is not None and self.cat.cards[c[1]].gives:                 # hold 调虎离山 from herself
                g = self.grantref()
                return done(Atom("granted", 0, 0, rule=g.grants[0] if len(g.grants) == 1 else None, value=g))
            rid = self.rule(take=False)
            rule = self.cat.skills[rid]
            nxt = self.peek()
            as_grant = getattr(self, "hold_grant", False)
            self.hold_grant = False
            if rule.is_grant or (rule.gives and (as_grant or nxt.text == "(" or nxt.kw in ("declares", "banned") or
                                                 (nxt.kw == "from" and self.self_word_at(self.i + 2)))):
                # a grant, with its parameters, giver, size or 'from herself': hold 变则通·宣言(A=截获, B=截获),
                # hold 不能出牌 from 强令 declares more than 2 cards, hold 信鸽联络·拒收 from herself
                g = self.grantref()
                return done(Atom("granted", 0, 0, rule=g.grants[0] if len(g.grants) == 1 else None, value=g))
            self.take()
            return done(Atom("hold", 0, 0, rule=rid))
        if kw == "hand":
            self.take()
            op, n = self.comparison()
            return done(Atom("hand", 0, 0, value=(op, n)))
        if kw == "invalidated":
            self.take()
            return done(Atom("invalidated", 0, 0))
        if kw == "locked":
            self.take()
            return done(Atom("locked", 0, 0))
        if kw == "win":                                     # the table: among a game's winners (table.py)
            self.take()
            return done(Atom("win", 0, 0))
        if kw == "die" or t.text == "be_dying":             # the table: dead / dying at the end of a game
            self.take()
            node = E.parse("not alive" if kw == "die" else "dying")
            E.check(node, E.Scope("question", E.Universe(frozenset(self.cat.cards), frozenset(self.cat.characters))),
                    V.BOOL)
            return done(Atom("where", 0, 0, value=node))
        if kw == "received":                                # the table: she received this turn's message
            self.take()
            return done(Atom("received", 0, 0))
        if kw == "resolve":                                 # resolve 误导 / produce 误导's effect
            self.take()
            x = self.card(allow_unknown=False)
            return done(Atom("resolve", 0, 0, cards=(x,)))
        if kw in ("face_up", "face_down"):
            self.take()
            return done(Atom("face_up", 0, 0, value=kw == "face_up"))
        if kw == "face" and self.peek().kw in ("up", "down"):
            self.take()
            return done(Atom("face_up", 0, 0, value=self.take().kw == "up"))
        # "截获 as 误导", "截获 banned", "截获 is banned"
        if self.resolve(t, ("card",)) or (self.at_op("?") and not self.at_final_q()):
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
            self.error(Msg("牌之后应是 '当作 牌' 或 '被禁'，却是{f}", "after a card, expected 'as CARD' or 'banned', found {f}",
                           f=self.found()))
        r = self.resolve(t, ("rule",))
        if r is not None:
            self.error(Msg("说出{n}要做什么：'使用 {t}'、'持有 {t}' 或 '发动 {t}'",
                           "say what {n} should do: 'use {t}', 'hold {t}' or 'fire {t}'",
                           n=self.cat.skills[r[1]].name, t=t.text), t)
        if t.kind == "end":
            self.error(Msg("这里应是一个问题，例如 {ex}——问题却结束了",
                           "expected a question such as {ex} — found the end of the query", ex=EXAMPLES), t)
        words = sorted({w for w, k in KEYWORDS.items() if k in (
            "play", "use", "convert", "fire", "banned", "must", "skipped", "act", "send", "draw", "hold", "remind")
            and w.isascii()})
        sug = nearest(t.text, words) if t.kind == "word" else None
        if sug is None and t.kind == "word":
            s2 = self.names.suggest(("card", "character", "rule"), t.text)
            if s2 and not self._names_itself(t.text):     # a name where no name may stand: said below, not "did you mean it"
                self.error(Msg("未知的词 '{t}'{dym}", "unknown word '{t}'{dym}", t=t.text, dym=did_you_mean(s2)), t)
        self.error(Msg("这里应是一个问题，例如 {ex}，却是{f}{dym}", "expected a question such as {ex}, found {f}{dym}",
                       ex=EXAMPLES, f=self.found(t), dym=did_you_mean(f"'{sug}'") if sug else ""), t)


    def _names_itself(self, word: str) -> bool:
        """``word`` is a card's, character's or rule's own name (the nearest name to it is itself)."""
        return any(self.names.find(kind, word) is not None for kind in ("card", "character", "rule"))

    def _ba_message(self, j: int) -> bool:
        """The thing a 把 / 将 moves, written before the verb at ``j``, is a message (把情报放入手牌, 将待收情报…): the words
        back to the 把 / 将, or to the rule's name, hold 情报."""
        k = j - 1
        while k >= 0 and self.toks[k].kind == "word" and self.toks[k].text not in ("把", "将"):
            if self.toks[k].text in ("情报", "待收情报"):
                return True
            if self.toks[k].kw not in ("filler", "cards", "hand", "own", ""):
                return False
            k -= 1
        return False
    def _need_conversion(self, rid: str, t: Tok):
        if self.cat.skills[rid].convert is None:
            self.error(Msg("{n}不是转化技能（'ConvertCardSkill'），也不是用 'fires' 写明效果何时发生的触发技能",
                           "{n} is not a conversion skill (ConvertCardSkill) nor a triggered "
                           "skill whose 'fires' says when its effect happens", n=self.cat.skills[rid].name), t)

    def fired_cards(self, leads: tuple, fillers: bool) -> tuple:
        """``[LEAD [filler…] ['play'|'use'] CARD ['as' CARD]]`` after a conversion skill: the cards it is asked
        to fire for (None: any). ``fire S`` takes for / play / use / in as LEAD and skips fillers after it;
        ``use S`` takes for / play / use / to and does not."""
        if not self.at(*leads) or self.moment_at() is not None:
            return None, None
        self.take()
        if fillers:
            self.skip_fillers()
        if self.at("play", "use"):
            self.take()
        return self.card_pair()

    def effect_wanted(self, make: bool = True) -> bool:
        """An effect claim is read here (parse_effects): the topic is a skill or card (or the player's skills were
        named: 李宁玉的技能), and — after 让 — it hands out no skill, or an effect verb other than what its grants do
        follows (调虎离山能让一名角色不能出牌: its grant, as before; 详尽思索能让他摸牌: its fires)."""
        tp = self.topic
        rule = self.resolve(tp, ("rule", "card")) if tp is not None else None
        if rule is None and getattr(self, "any_skill", None) is None:
            return False
        if not make or tp is None:
            return True
        if not self._grantish(tp):
            return True
        j = self._skipf(self.i + 1)
        while self.toks[j].kind == "word" and (self.toks[j].kw in ("other", "anyone", "own") or
                                               self.resolve(self.toks[j], ("character",))):
            j = self._skipf(j + 1)
        verb = self.effect_verb_at(j)
        # 详尽思索还能让他摸牌: a draw is its follow-up's firing (fired_by); a giver with no such follow-up (江湖令能让别人
        # 摸牌吗) is asked what its effect does, as any other verb
        return verb is not None and (verb != "draw" or self.fired_by(tp) is None)

    def effect_rule(self) -> str | None:
        """The rule an effect claim is about: the topic (used up), or None — any skill of the player asked about."""
        tp = self.topic_word(("rule", "card"))
        if tp is None:
            return None
        return self.resolve(tp, ("rule", "card"))[1]

    def use_skill(self, rid: str) -> Atom:
        r = self.cat.skills[rid]
        t = self.toks[self.i]
        self.take()
        if r.convert is not None:      # a card reaches play through S (evaluate.eval_atom_cards 'fire')
            cards = self.fired_cards(("for", "play", "use", "to"), False)
            if self.at("again_game", "again"):     # 译文暗号能再次使用吗: a conversion used again (session.again_convert)
                self.take()
                self.again_game = True
            return Atom("fire", 0, 0, cards=cards, rule=rid, value="play")
        if r.has("ActiveSkill") or r.fight is not None or r.dying is not None:
            phase = None
            again = None
            if self.at("again_game"):                # 再次使用: again in the game (session.py: said so)
                self.take()
                again = "again"
                self.again_game = True
            if self.at("again"):
                self.take()
                again = "again"
            if self.at("in"):
                w = self.window_at(self._skipf(self.i + 1))
                if w is not None and w[0] in IDLE_POINTS:        # use S in the main phase / in 争夺阶段
                    phase, self.i = w
                elif self.moment_at() is None:                   # (not 'in 陈大耳's turn': a given)
                    phase = self.phase()
            if self.at("again"):
                self.take()
                again = "again"
            return Atom("use", 0, 0, rule=rid, phase=phase, value=again)
        if r.on and r.has("TriggeredSkill") and r.fires is None and not self.at("again", "again_game"):
            return Atom("fires_on", 0, 0, rule=rid)      # 遗信还能用吗: a triggered skill is used as it fires
        if r.on and r.has("TriggeredSkill") and r.limit == "turn" and self.at("again") and \
                all(o.when is not None and "not used" in E.to_text(o.when) for o in r.on):
            self.take()                             # 避风一回合能发动两次吗: once a turn by its own guard (session.py)
            return Atom("fires_on", 0, 0, rule=rid, value="again_in_turn")
        if r.on and r.has("TriggeredSkill") and self.at("again", "again_game"):
            # 如归能再次发动吗: a triggered skill fires again only when the event it answers happens again — not a
            # moment the question names; said so, with the form that is asked (its event, whose turn …)
            self.error(Msg("{n}是触发技能，不是主动使用的：它是否“再次”发动取决于它回应的事件（{on}）是否再次发生，"
                           "这还不能问；可以问它在某个事件上能否发动，如 '{n}在别人的回合能发动吗'",
                           "{n} is a triggered skill, not used on purpose: whether it fires 'again' depends on the "
                           "event it answers ({on}) happening again, which is not asked yet; ask whether it fires on an "
                           "event, e.g. 'can {n} fire in another player's turn?'",
                           n=r.name, on=r.trigger or r.on[0].event), self.tok)
        self.error(Msg("{n}是 {zk}：它不是主动使用的——问 '持有 {t}'（或问它改变的判定）",
                       "{n} is a {ek}: it is not used on purpose — ask 'hold {t}' (or about the decision it changes)",
                       n=r.name, zk="、".join(f"'{k}'" for k in r.kinds), ek=", ".join(r.kinds), t=t.text), t)

    def atom_hand(self) -> Atom:
        """``with cards`` / ``with cards in hand`` / ``with N [cards]``: the hand of a ``with`` given."""
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
