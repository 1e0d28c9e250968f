"""The parts of a question's grammar that Chinese word order needs (and English shares): clauses closed by a
postposition (…之后 / …以后 / …后, …时 / …的时候) or by a comma before the main question (张一挺禁用了截获，…),
the ready-made givens of the phrasebook (phrases.py: a condition, a role of the table), the topic of a question
that starts with what it is about (博爱一回合能发动两次吗？: the skill, then the verb), 只有 / only, and 谁 / who.
A part of ``parser.Parser``."""
from __future__ import annotations

import re

from skillproof.model import expr as E
from skillproof.model import vocab as V
from skillproof.model.msg import Msg

from .errors import QueryError
from .lexer import POST_AFTER, POST_WHEN, Tok
from .parse_atoms import Words
from .syntax import Atom, Given, Not

_CJK = re.compile(r"[\u3400-\u9fff]")

#: closes a clause describing the player asked about (没有手牌的角色: the phrasebook's 'rel' + 'anyone')
POST_REL = ("rel",)
#: roles the condition language has no word for (phrases.py @role)
ROLES = ("sender", "not_sender", "miling", "turn", "not_turn", "sender_is", "receiver_is", "task", "card_on", "last_alive")


class ClauseParser(Words):
    """Clauses, ready-made givens, topics, 只有 and 谁."""

    topic: Tok | None = None

    # ---- the phrasebook's ready-made givens
    def token_given_at(self, j: int | None = None) -> bool:
        j = self.i if j is None else j
        return self.toks[self._skipf(j)].kind in ("cond", "role")

    def token_given(self) -> Given:
        self.skip_fillers()
        t = self.take()
        if t.kind == "role":
            name, _, arg = t.text.partition(" ")
            if name == "sender_is":
                r = self.names.find("character", arg) if arg else None
                if r is not None:
                    self.mentioned = (r, t.col)             # 小铃铛传出情报后，被指定的角色…: her skill
                return Given("role", t.col, t.end, t.shown, who=r or arg, rule="sender_is")
            if name == "receiver_is":                       # …被老汉接收后: that character receives this turn's message
                r = self.names.find("character", arg) if arg else None
                return Given("role", t.col, t.end, t.shown, who=r or arg, rule="receiver_is")
            if name in ("task", "card_on", "plays_on"):     # 篡夺者, 被利诱放入情报后, 对别人使用试探后: table.py's
                return Given("role", t.col, t.end, t.shown, who=arg, rule=name)
            return Given("role", t.col, t.end, t.shown, rule=name)
        body, at_end = t.text, False
        if body.startswith("end:"):                         # phrases.py @cond(end: …): read at the claim's moment
            body, at_end = body[len("end:"):].strip(), True
        try:
            node = E.parse(body)
            self._rename(node)
            E.check(node, E.Scope("question", E.Universe(frozenset(self.cat.cards), frozenset(self.cat.characters))),
                    V.BOOL)
        except E.ExprError as e:
            raise QueryError(Msg("读不懂这个条件（{m}）", "cannot read this condition ({m})", m=e.text), t.col, t.end) from None
        a = Atom("where", t.col, t.end, value=node, text=t.shown, at_end=at_end)
        return Given("where", t.col, t.end, t.shown, claim=a)

    # ---- clauses closed by a postposition (or a comma, before the main question)
    def clause_end(self, j: int | None = None, comma: bool = False, modal: bool = False) -> tuple[int, int] | None:
        """A clause starting at token ``j``: (its end, the index after its postposition), or None. It ends at a
        postposition (后 / 之后 / 时 …) or, when ``comma``, at a comma; a modal (能 / 可以 …), a '?' or the end
        come first in a question that has no clause there."""
        j = self.i if j is None else j
        first = self.toks[self._skipf(j)]
        if first.kind == "word" and first.kw in ("exists", "always", "never", "cannot_mode", "which") and \
                not first.text.lower() in ("is", "are"):
            return None                              # a question's mode opens no clause
        k = j
        depth = 0
        while True:
            t = self.toks[k]
            if t.kind == "end" or (t.kind == "op" and t.text == "?" and depth == 0 and all(
                    x.kind == "end" or x.text == "?" or x.kw == "filler" for x in self.toks[k + 1:])):
                return None                         # the question's end (a '?' before more words is a card left open)
            if t.kind == "op" and t.text in ("(", "{"):
                depth += 1
            elif t.kind == "op" and t.text in (")", "}"):
                depth -= 1
            if depth > 0:
                k += 1
                continue
            if t.kind == "word" and t.text in POST_AFTER + POST_WHEN and k > j:
                return k, k + 1
            if t.kind == "word" and t.text in POST_REL and k > j:
                return k, k + 1                     # the 'anyone' after it is the player asked about
            if comma and t.kind == "op" and t.text == "," and k > j:
                return k, k + 1
            if t.kind == "word" and t.kw in ("exists", "always", "never", "cannot_mode", "which") and k > j \
                    and not (t.kw == "exists" and t.text.lower() in ("is", "are", "does", "do")):
                # 李书云面朝下能发动定论吗: after the player, what holds of her comes before the modal
                return (k, k) if modal and _CJK.search(t.text) else None
            k += 1

    def clause_at(self, comma: bool = False, modal: bool = False) -> bool:
        if self.tok.kind != "word" and not self.token_given_at():
            return False
        return self.clause_end(comma=comma, modal=modal) is not None

    def clause(self, comma: bool = False, modal: bool = False) -> list[Given]:
        """The givens of the clause here (its words up to the postposition or comma), or a QueryError — the
        clause is parsed as far as it goes: ready-made givens, given words (with / under / when …), moments,
        events ([被] X [发动 / 无效 / 指定 …]: X replaces roles, hands skills out or invalidates; CHAR / X 宣言 …)
        and, for the rest, a claim that holds then."""
        stop, after = self.clause_end(comma=comma, modal=modal)
        saved = self.toks
        self.toks = saved[:stop] + [Tok("end", "", saved[stop].col, saved[stop].col)]
        out: list[Given] = []
        opened_other = None
        opened_by = None                        # the character this clause opens with (王魁有两张黑色情报时)
        try:
            first = True
            while self.tok.kind != "end":
                if self.skip_sep() or self.skip_conj():
                    continue
                self.skip_fillers()
                if self.tok.kind == "end":
                    break
                t = self.tok
                if first and t.kind == "word" and t.kw in ("anyone", "other"):
                    self.take()                 # the player asked about opens the clause: anyone, by default
                    opened_other = t if t.kw == "other" else None   # 别人使用截获时: another player did it
                    continue
                if self.resolve(t, ("character",)) and not self.resolve(t, ("card",)) and \
                        not self.event_at() and getattr(self, "clause_subject", None) is None:
                    # 王响有两张红色情报时…, CP韩梅在小九在场时…: the clause opens with the player asked about
                    self.clause_subject = (self.resolve(self.take(), ("character",))[1], t.col)
                    opened_by = self.clause_subject
                    first = False
                    continue
                first = False
                if self.at("in") and not self.moment_at():      # 在小九在场时, 在张一挺禁用截获后: 在 … 时/后
                    self.take()
                    continue
                if self.token_given_at():
                    out.append(self.token_given())
                elif self.moment_at():
                    out.append(self.moment())
                elif self.at("with", "without", "under", "while", "if", "where", "after"):
                    out.append(self.given())
                elif self.event_at():
                    out.append(self.event())
                else:
                    start = self.tok
                    c = self.claim()
                    end = self.prev_end()
                    out.append(Given("claim", start.col, end, self.text[start.col:end], claim=c))
        finally:
            self.toks = saved
        self.i = after
        if opened_by is not None:               # settled once the player asked is known (parser: not_the_clauses_player)
            self.__dict__.setdefault("clauses_of", []).append((opened_by[0], out))
        if opened_other is not None:
            for g in out:                       # what the clause says is of that other player: marked, so that a
                if g.kind in ("claim", "where"):        # reader that cannot place it refuses (never the player's own)
                    g.other = True
                    g.col, g.text = opened_other.col, self.text[opened_other.col:g.end]
        return out

    def skip_conj(self) -> bool:
        if self.tok.kind == "word" and self.tok.text in ("又", "且", "并且", "而且", "并", "同时", "、", "也"):
            self.take()
            return True
        return False

    def event_at(self) -> bool:
        """An event of the trace or a grant in force: [CHAR] [发动 / 使用] X, X a skill or card that hands skills
        out, replaces roles or invalidates (后来人, 冷血训练, 禁闭, 调虎离山 …); or CHAR declaring (张一挺禁用截获)."""
        j = self._skipf(self.i)
        t = self.toks[j]
        if self.resolve(t, ("character",)) and not self.resolve(t, ("card",)):
            nxt = self.toks[self._skipf(j + 1)]
            if nxt.kw in ("declares", "banned"):
                return bool(self.giver_skills(self.resolve(t, ("character",))[1]))
            j = self._skipf(j + 1)
            t = self.toks[j]
        if t.kw in ("fire", "use"):
            j = self._skipf(j + 1)
            t = self.toks[j]
        return self._event_word(t)

    def _event_word(self, t: Tok) -> bool:
        r = self.resolve(t, ("rule", "card"))
        if r is None:
            return False
        src = self.cat.skills.get(r[1]) if r[0] == "rule" else self.cat.cards.get(r[1])
        return bool(src.gives) or (r[0] == "rule" and (src.replaces_role or (src.is_grant and self.cat.sites(r[1]))))

    def giver_skills(self, char: str) -> list[str]:
        """The skills of a character that hand skills out (what 'CHAR 宣言 …' / 'CHAR 禁用 …' stands for)."""
        return [r for r in self.cat.characters[char].skills if self.cat.skills[r].gives]

    def event(self) -> Given:
        """One event clause as a given: 'after X' for a role replacement, else 'under X' (its declaration kept)."""
        self.skip_fillers()
        start = self.tok
        char = None
        if self.resolve(self.tok, ("character",)) and not self.resolve(self.tok, ("card",)):
            char = self.resolve(self.take(), ("character",))[1]
            self.skip_fillers()
        if self.at("fire", "use"):
            self.take()
            self.skip_fillers()
        if char is not None and self.at("declares", "banned"):
            skills = self.giver_skills(char)
            if len(skills) != 1:
                self.error(Msg("{c}有不止一个给出技能的技能（{s}）：写出是哪一个",
                               "{c} has several skills that hand skills out ({s}): name the one", c=self.cat.name_of(char),
                               s="、".join(self.cat.name_of(x) for x in skills)), start)
            # the character stands for its skill: "张一挺禁用截获" is "强令 declares 截获"
            self.toks[self.i:self.i] = [Tok("word", skills[0], start.col, start.end, src=start.text)]
            g = self.grantref()
            ago = self.turn_ago()
            end = self.prev_end()
            return Given("grant", start.col, end, self.text[start.col:end], grant=g, ago=ago)
        if char is not None and getattr(self, "clause_subject", None) is None:
            self.clause_subject = (char, start.col)     # SP韩梅发动冷血训练后…: she did it (the player, unless
            #                                             the question names another)
        x = self.tok
        r = self.resolve(x, ("rule", "card"))
        rule = self.cat.skills.get(r[1]) if r[0] == "rule" else None
        if rule is not None and rule.replaces_role:
            self.take()
            self.skip_fillers()
            if self.at("fire", "use"):                  # 后来人发动后
                self.take()
            ago = self.turn_ago()
            end = self.prev_end()
            return Given("after", start.col, end, self.text[start.col:end], rule=rule.id, ago=ago)
        g = self.grantref()
        self.skip_fillers()
        if self.at("fire", "use"):                      # 冷血训练发动后
            self.take()
        ago = self.turn_ago()
        end = self.prev_end()
        return Given("grant", start.col, end, self.text[start.col:end], grant=g, ago=ago)

    # ---- a topic: the question starts with what it is about (博爱一回合能发动两次吗, 截获能在别人的回合使用吗)
    def topic_at(self) -> bool:
        t = self.tok
        if t.kind != "word" or self.resolve(t, ("character",)) or (t.kw and t.kw != "filler"):
            return False                             # (a keyword that is also a name is the keyword: draw)
        if self.resolve(t, ("rule", "card")) is None:
            return False
        nxt = self.toks[self._skipf(self.i + 1)]
        if nxt.kind == "word" and nxt.text == "grant_of":
            return True
        return not (nxt.kw in ("as", "banned", "declares", "is", "to") or nxt.kind in ("op", "arrow") and
                    nxt.text in ("(", "→"))

    def take_topic(self):
        self.topic = self.take()
        self.topic_grant = False
        if self.tok.kind == "word" and self.tok.text == "grant_of":     # 强令的禁令: what the skill hands out
            self.take()
            self.topic_grant = True

    def topic_word(self, kinds) -> Tok | None:
        """The topic, if the verb here lacks its object and the topic is of ``kinds`` (then it is used up)."""
        t = self.topic
        if t is None or self.resolve(t, kinds) is None:
            return None
        self.topic = None
        return t

    def use_topic(self, kinds) -> bool:
        """Put the topic back in the tokens here, as the object of the verb before it (True if it was)."""
        t = self.topic_word(kinds)
        if t is None:
            return False
        self.toks = self.toks[:self.i] + [t] + self.toks[self.i:]
        return True

    def object_missing(self, j: int) -> bool:
        """The verb before token ``j`` has no object of its own (its object is then the question's topic)."""
        k = self._skipf(j)
        t = self.toks[k]
        final_q = t.kind == "op" and t.text == "?" and all(x.kind == "end" or x.text == "?" or x.kw == "filler"
                                                           for x in self.toks[k + 1:])
        return self.resolve(t, ("rule", "card")) is None and not (t.kind == "op" and t.text == "?" and not final_q) \
            and not (t.kind == "word" and t.kw in ("cards", "not", "as"))


def negate_givens(gs: list[Given]) -> Given:
    """'only X' (只有X): the givens X stood for, as one 'not (…)' claim given — the question then asks 'never'."""
    from .syntax import BoolOp
    items = [g.claim if g.kind in ("claim", "where") else GivenAtom(g) for g in gs]
    c = items[0] if len(items) == 1 else BoolOp("and", items, gs[0].col)
    return Given("claim", gs[0].col, gs[-1].end, "not (" + " ".join(dict.fromkeys(g.text for g in gs)) + ")", claim=Not(c, gs[0].col))


def GivenAtom(g: Given) -> Atom:
    """A given that is no claim (a role, a grant …) as an atom of a claim: kind 'given', the given in value."""
    return Atom("given", g.col, g.end, value=g, text=g.text)


