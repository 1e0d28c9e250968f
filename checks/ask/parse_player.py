"""The player a question is about: a character, anyone, a role of the table before her (传出者, 被锁定的角色 …), a
pronoun for the player a clause named (王响发动借车运货后，他…), someone else (其他角色), a player who / holding …;
只有 / only X (never anyone but X); and, once the question is read, the grants of an 'under G' that bear on its claim.
A part of ``parser.Parser``."""
from __future__ import annotations

from skillproof.model import expr as E
from skillproof.model import vocab as V
from skillproof.model.msg import Msg

from .parse_atoms import Words
from .parse_zh import negate_givens
from .syntax import ATOM_KINDS, Atom, Given, Query, atoms_of

#: states a claim may be: 'is' before them is no word of its own (when she is invalidated)
STATES = ("invalidated", "locked", "face_up", "face_down", "face", "banned", "skipped")
#: pronouns standing for the player a clause named (王响发动借车运货后，他自己…)
PRONOUNS = ("他", "她", "he", "she", "him", "her", "they")
#: the words for someone else as the player asked about (其他角色能…吗)
OTHERS = ("其他角色", "别人", "其他玩家", "其他人", "他人", "别的角色", "其它角色")


class PlayerParser(Words):
    """Who the question is about."""

    def _anyone_at(self, j: int) -> bool:
        t = self.toks[self._skipf(j)]
        return t.kw == "anyone" or (t.text.lower() in ("any", "some", "every") and self.toks[self._skipf(j) + 1].kw == "anyone")

    def subject(self, q: Query):
        self.skip_fillers()
        j = self.i
        while self.token_given_at(j):
            j = self._skipf(j) + 1
        if j > self.i and self.toks[self._skipf(j)].kw == "anyone":
            while self.token_given_at():
                q.givens.append(self.token_given())     # can a locked player …: the role, then the player
        self.skip_fillers()
        t = self.tok
        if self.at("anyone", "other"):
            self.subject_seen = True
            named = self.clause_subject if getattr(self, "clause_subject", None) is not None else \
                self.named_in_givens(q) if t.text in PRONOUNS else None
            if t.text in PRONOUNS and named is not None:
                self.take()                         # 王响发动借车运货后，他自己…: the clause's player
                q.subject, q.subject_col = named    # (火车司机传出情报后，他…: the one its given names)
                self.skip("own", "self_word")
                return
            if self.at("other") or t.text in OTHERS:
                self.other_subject = t                  # 其他角色 / 别人: someone else (settled at the end)
            self.take()
            q.subject_col = t.col
            if self.at("anyone"):                       # another player
                self.take()
            r = self.resolve(self.tok, ("character",))
            if r is not None and not self.resolve(self.tok, ("card",)):   # 被密令的SP韩梅: the role, then who
                q.subject, q.subject_col = r[1], self.take().col
            self.skip("own", "self_word")
            self.who(q)
            return
        if t.text.lower() in ("any", "some", "every") and self.peek().kw == "anyone":
            self.take()
            self.take()
            return
        if q.subject is None and getattr(self, "clause_subject", None) is not None:
            q.subject, q.subject_col = self.clause_subject
        r = self.resolve(t, ("character",))
        if r is not None and not self.resolve(t, ("card",)):
            self.take()
            q.subject, q.subject_col = r[1], t.col
            self.subject_seen = True
            self.subject_char = r[1]                 # 毛不拔能发动吗: the skill a bare 发动 names (parse_atoms)
            self.skip_fillers()
            if self.tok.kind == "word" and self.tok.text in ("技能", "skills", "skill"):
                self.take()
                self.any_skill = r[1]                # 李宁玉的技能会让别人摸牌吗: any of her skills (parse_effects)
            while self.at("own", "self_word"):       # 王响自己能…: himself
                self.take()
            if self.at_op("("):                  # an alias like 顾小梦（译电科科员）
                j = self.i + 1
                while j < len(self.toks) and self.toks[j].text != ")" and self.toks[j].kind != "end":
                    j += 1
                if j < len(self.toks) and self.toks[j].text == ")":
                    self.i = j + 1

    def named_in_givens(self, q: Query):
        """(character, col) of the one character the givens so far name as a player (火车司机传出情报后: the sender;
        在王田香的回合: the turn's player) — what a pronoun then stands for; None when none or several are named."""
        named = {(g.who, g.col) for g in q.givens if g.kind in ("role", "turn_of") and isinstance(g.who, str)
                 and g.who in self.cat.characters}
        return next(iter(named)) if len({w for w, _ in named}) == 1 else None

    def relevant_grants(self, q: Query) -> None:
        """'under G' where G hands out several grants stands for the ones that bear on the question: 冷血训练之后，
        …不能用调包 is its ban, not its lock rule. A grant is kept when its kinds are among those the claim's
        atoms read (syntax.ATOM_KINDS); when none is, every grant is kept."""
        kinds = set()
        for a in atoms_of(q.claim):
            kinds |= ATOM_KINDS.get(a.kind, set())
        if not kinds:
            return
        for g in q.givens:
            gr = g.grant if g.kind == "grant" else None
            if gr is None or len(gr.grants) < 2 or gr.args or gr.sizes:
                continue
            keep = tuple(x for x in gr.grants if self.cat.skills[x].closure & kinds)
            if keep and len(keep) < len(gr.grants):
                gr.grants = keep
                gr.sites = tuple(x for x in gr.sites if x.grant in keep)

    def someone_else(self, q: Query, t) -> Given:
        """其他角色 / 别人 as the player asked about: not the characters the question names (a clause's player, the
        owner of a skill it names — 冷血训练之后，其他角色…: not SP韩梅), else not the turn player."""
        named = set()
        for g in q.givens:
            if g.kind == "role" and g.rule == "sender_is" and g.who:
                named.add(g.who)
            if g.kind == "turn_of" and g.who:
                named.add(g.who)
            if g.kind in ("grant", "after", "with"):
                rid = g.grant.name if g.grant is not None else g.rule
                named.update(self.cat.owners(rid) if rid in self.cat.skills else ())
        if getattr(self, "clause_subject", None) is not None:
            named.add(self.clause_subject[0])
        if not named:
            return Given("turn_of", t.col, t.end, t.shown, other=True)
        node = E.parse("not character in {" + ", ".join(sorted(named)) + "}")
        E.check(node, E.Scope("question", E.Universe(frozenset(self.cat.cards), frozenset(self.cat.characters))),
                V.BOOL)
        return Given("where", t.col, t.end, t.shown, claim=Atom("where", t.col, t.end, value=node, text=t.shown))

    def last_before_end(self) -> bool:
        """The token here is the last of the question (but fillers and '?'): 我可能成为传出者吗 — a claim."""
        k = self._skipf(self.i) + 1
        return all(t.kind == "end" or t.text == "?" or t.kw == "filler" for t in self.toks[k:])

    def who(self, q: Query):
        """'anyone who / that CLAIM' (a player who holds cards): the claim is a given."""
        participle = self.tok.kind == "word" and self.tok.text.lower().endswith("ing") and \
            self.tok.kw in ("hold", "play", "use")            # anyone holding cards
        if participle or self.tok.kind == "word" and self.tok.text.lower() in ("who", "that", "whose"):
            t = self.tok if participle else self.take()
            c = self.claim()
            end = self.prev_end()
            q.givens.append(Given("claim", t.col, end, self.text[t.col:end], claim=c))

    def only_then(self, q: Query, k: int, ot) -> None:
        """'only' (只能 / 需要在) before the moments and conditions ``q.givens[k:]``: never the claim but then."""
        if len(q.givens) == k:
            self.error(Msg("'只能' 之后应是时机或条件（'只能在出牌阶段发动'）",
                           "'only' takes a moment or a condition after it ('only in the main phase')"), ot)
        g = negate_givens(q.givens[k:])
        del q.givens[k:]
        q.givens.append(g)
        q.mode = "never"

    def only(self, q: Query, k: int, t):
        """只有 X 能 … / only X can …: never anyone but X. The givens X stood for (a role, a condition, a character
        as the player) are negated, and the question asks 'never'."""
        gs = q.givens[k:]
        del q.givens[k:]
        if q.subject is not None:
            ch = q.subject
            q.subject = None
            node = E.parse(f"character == {ch}")
            E.check(node, E.Scope("question", E.Universe(frozenset(self.cat.cards), frozenset(self.cat.characters))),
                    V.BOOL)
            gs.append(Given("where", t.col, t.end, self.cat.name_of(ch), claim=Atom("where", t.col, t.end, value=node,
                                                                                   text=self.cat.name_of(ch))))
        if not gs:
            self.error(Msg("'只有'之后应是一个角色或一类角色（'只有当前回合角色'）",
                           "'only' takes a player or a kind of player ('only the turn player')"), t)
        q.givens.append(negate_givens(gs))
        q.mode = "never"
        self.only_taken = True

