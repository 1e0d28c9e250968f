"""The parser of `skillproof ask`: a question as a ``Query`` (syntax.py), by hand-written recursive descent —
never ``eval`` — with errors located at the offending word (``query:1:COL: …``) and the nearest valid name.

``Parser`` is assembled from three parts: ``parse_atoms.AtomParser`` (names, numbers and the atoms of a
claim), ``parse_grants.GrantParser`` (grant references and their parameters) and this module (the question,
its mode and player, claims, givens and ``which``). ``GRAMMAR``, below the imports, is the whole grammar
as EBNF; docs/query-language.md holds the same block (a test keeps them identical).
"""
from __future__ import annotations

import re

from skillproof.model import expr as E
from skillproof.model import vocab as V
from skillproof.model.catalogue import Catalogue
from skillproof.model.msg import Msg

from .errors import QueryError
from .lexer import GIVEN_KWS, POST_AFTER, POST_WHEN, Tok, tokenize
from .names import Names
from .params import MAX_COMBOS, param_combos
from .parse_atoms import AtomParser
from .parse_effects import EffectParser
from .parse_grants import PARAM_WORDS, GrantParser
from .parse_moments import MomentParser
from .parse_player import STATES, PlayerParser
from .parse_zh import POST_REL, ClauseParser
from .phrasing import Matcher
from .repair import nearest_phrasing, offer
from .syntax import ATOM_KINDS, Atom, BoolOp, Given, Not, Query, Which, atoms_of

#: the whole grammar of the ask language, as EBNF
GRAMMAR = r"""
(* A question is read in two steps. First the phrasebook (checks/ask/phrases.py, PHRASES: one table of how
   designers write — in Chinese first, in English too) rewrites what was written into the words of this
   grammar, each keeping the columns it came from: 在别人的出牌阶段 → in another player's turn in the main phase,
   被锁定的角色 → COND(locked) anyone, 把截获当作误导使用 → play 截获 as 误导, 摸几张牌 → which_draw … Then this
   grammar reads the result. Quoted words are keywords: each stands for all its spellings in lexer.KEYWORDS,
   English and Chinese ('play' = play | plays | get | 打出 | 出 …, 'if' = if | when | given | 如果 …, 'from' =
   from | on | of | by); words in double quotes are read as written ("which_draw", "rel" …, made by the
   phrasebook). FILLER words (still, ever, be, a, the, 吗, 呢, 的, 了, 还 …) are skipped before most words and at
   the end of the question (SP李宁玉能把截获当作误导使用吗？), and a possessive 's is dropped. A run of Chinese
   characters is split into known names, keywords and the phrasebook's words (the fewest pieces).
   CARD, CHARACTER, SKILL, GRANT: a name, alias or id of the catalogue; PHASE: fight | 争夺阶段 | dying |
   濒死求澄清 …; WINDOW: a window of the turn — main phase | 出牌阶段, send-phase start | 传递阶段开始时,
   send | 传递阶段, fight | 争夺阶段, dying | 濒死求澄清, draw phase | 摸牌阶段 … (names.WINDOW_PHRASES);
   GROUP: direction | lock | card …; DIRECTION: up | left | right; COLOUR: a colour of the catalogue;
   WORD: any word; PARAM_WORD: declarations | parameters | bans | let | allow | … (see
   parse_grants.PARAM_WORDS); CONDITION: an expression of the catalogue's condition language.
   COND, ROLE: the phrasebook's ready-made givens — COND a condition on the player (@cond: locked,
   identity == black …), ROLE a role of the table (@role: the sender of this turn's message, 密令's target,
   the turn player, a character as the sender). POST: a postposition closing a clause — 后 | 之后 | 以后 |
   时 | 的时候 … (lexer.POST_AFTER, POST_WHEN), or "rel" (…的角色: the clause describes the player). *)

question       = { given [ sep ] | clause | 'only' } [ topic { given [ sep ] } ]
                 ( which_question | claim_question ) tail ;
tail           = { sep | given | clause | 'for' ( CHARACTER | 'anyone' ) | 'only' | '?' } ;
                                                   (* 'for' only when no player was named; 'only' (需要在 …):
                                                      never the claim but at the givens after it *)
sep            = ',' | 'and' ;
topic          = ( SKILL | CARD ) [ "grant_of" ] ;   (* 博爱一回合能发动两次吗, 截获能在别人的回合使用吗: what the
                                                       question is about; a verb with no object takes it *)
claim_question = [ mode ] player { ( 'with' | 'without' | 'under' | 'outside' ) given_body | moment | ready
                 | clause | 'only' | 'anyone' | mode } [ 'cannot' ] claim ;
                                                     (* 'cannot' makes it a 'never' question; 'only' (只能):
                                                        never but at the givens after it *)
mode           = 'can' | 'always' | 'never' | 'cannot' | 'must' ;   (* 'can' = can | could | is | 能 | 能否 |
                                                       可以 …; 'cannot' not before 'receive'; 'must' first:
                                                       always … must receive *)
player         = { ready } [ ( 'anyone' | 'other' ) [ 'anyone' ] [ CHARACTER ] { 'own' }
                   [ ( "who" | "that" ) claim | 'hold' claim ]   (* a player who / holding … *)
                 | ( "any" | "some" | "every" ) 'anyone' | CHARACTER { 'own' } ] ;   (* CHARACTER: 李宁玉（SP）
                                                        too, an alias with its brackets *)
                                                     (* 'other': 其他角色 / 别人 — not the player the question
                                                        names, else not the turn player *)
ready          = COND | ROLE ;

(* clauses: what holds, or happened, before the main question — 有人濒死时, 被禁闭后, 张一挺禁用截获，… *)
clause         = clause_part { ( sep | "又" | "且" ) clause_part } ( POST | ',' | mode ) ;
                                                     (* ',' only before the main question; a mode word (not
                                                        taken) right after the player: 李书云面朝下能… *)
clause_part    = [ 'anyone' | CHARACTER ] ( ready | moment | given | event | claim ) ;
                                                     (* a CHARACTER first: the player asked about *)
event          = [ CHARACTER ] [ 'fire' | 'use' ] ( SKILL | CARD ) [ 'fire' | 'use' ]
                                                     (* a role replacement: after X; a giver: under X *)
               | CHARACTER ( 'declares' | 'banned' ) declaration ;   (* 张一挺禁用截获: under its skill *)

(* claims: 'not' binds tighter than 'and', 'and' tighter than 'or'; at most 64 levels of 'not' and
   parentheses *)
claim          = conjunction { 'or' conjunction } ;
conjunction    = unary { 'and' unary } ;                       (* not an 'and' that starts a given *)
unary          = 'not' unary | '(' claim ')' | [ 'is' ] atom ;
atom           = ( 'play' | 'use' ) card [ 'as' card [ 'play' | 'use' ] | 'to' 'play' ]
                                                            (* 'play X' alone: a card declared as X *)
               | ( 'play' | 'use' | 'fire' ) SKILL skill_use
               | 'convert' card ( 'to' | 'as' | '→' ) card
               | 'fire' SKILL [ ( 'for' | 'play' | 'use' | 'in' ) [ 'play' | 'use' ] card [ 'as' card ] ]
                                                            (* a conversion skill: a card reaches play through
                                                               it; a triggered skill with 'fires': its effect
                                                               happens now; an active skill: it is used; a
                                                               giver: it hands the player one of its grants; a
                                                               triggered skill with 'on': it answers an event
                                                               of a game (a table question) *)
               | 'banned' [ 'from' ] ( ( 'all' | 'cards' ) [ 'cards' ] | card )
               | ( 'must' | 'cannot' ) 'receive' | 'receive'    (* 'receive' alone: after 'must' first *)
               | ( 'may' | 'choose' ) { 'choose' | 'receive' | 'to' | 'or' | 'not' }
               | ( 'skipped' | 'act' ) [ phase ]               (* no phase: the question's window says it *)
               | 'remind' { 'from' | 'for' | "about" } [ SKILL ]   (* ending 出牌阶段 prompts (for the MainPhaseSkill
                                                              SKILL): the client's reminder, at its moment *)
               | 'send' GROUP [ 'rule' ] [ 'is' ] [ 'from' | 'in' ] ( 'default' | SKILL )
               | 'send' [ DIRECTION | "any" ] [ 'locking' NUMBER ] (* "any", or nothing: some direction *)
               | 'locking' NUMBER                              (* a send, in some direction *)
               | 'draw' [ 'count' ] comparison [ 'cards' ] | "draw_extra" NUMBER   (* over the base count *)
               | 'hold' ( 'not' 'cards' | 'cards' | NUMBER 'cards' | SKILL | grant_ref )
                                                            (* grant_ref: a grant, or a giver followed by '(' /
                                                               declares / banned / from herself — with its
                                                               parameters, giver, size and 'from herself' *)
               | 'declares' declaration                        (* after a topic: its grant, so declared *)
               | 'resolve' card                             (* the effect of the card happens: a card played as
                                                              it, or a skill acting as it (偷天, 应变自如 …) *)
               | "make" [ 'anyone' ] ( 'draw' | atom )      (* 让 / 令: under the topic, or its grant fires *)
               | 'locked'                                   (* locked by the message *)
               | 'win'                                      (* the table: the player is among the winners of a
                                                              game (获胜 / 赢; 以潜伏战线身份获胜) *)
               | 'die' | "be_dying"                         (* the table: she is dead (死, 死亡) / dying (濒死吗,
                                                              进入濒死) at the end of a game *)
               | 'received'                                 (* the table: she received this turn's message (收到
                                                              自己传出的情报: the sender, his own) *)
               | 'hand' comparison
               | 'invalidated' | 'face_up' | 'face_down' | 'face' ( 'up' | 'down' )
               | card [ 'is' ] 'banned'
               | card 'as' card [ 'play' | 'use' ]
               | ready ;                                    (* 成为传出者: a role as a claim *)
skill_use      = [ ( 'for' | 'play' | 'use' | 'to' ) [ 'play' | 'use' ] card [ 'as' card ] ]  (* a conversion skill *)
               | [ 'again' ] [ 'in' WINDOW | phase ] [ 'again' ] ;   (* an ActiveSkill; 'again': once it was
                                                                         used this turn *)
phase          = [ 'in' ] PHASE [ "phase" | "阶段" ] ;
comparison     = [ '==' | '=' | '!=' | '<' | '<=' | '>' | '>=' | ( 'more' | 'less' ) [ 'than' ]
                 | 'at' ( 'least' | 'most' ) | 'exactly' ] NUMBER ;
card           = CARD | '?' | "anything" | "something" | "any_card" ;

(* givens *)
given          = ( 'with' | 'without' | 'under' | 'while' | 'if' | 'where' ) given_body
               | 'after' ( SKILL | GRANT | CARD ) [ turn_ago ]  (* an event this turn: a role replacement, a
                                                                   grant to the player, an invalidation *)
               | 'outside' WINDOW                               (* 出牌阶段以外: any window but that one *)
               | ready
               | moment ;
moment         = ( 'in' | 'at' ) WINDOW                        (* the window the question is asked in *)
               | WINDOW                                         (* Chinese, with no 在: 争夺阶段能… *)
               | [ 'if' | 'while' ] 'anyone' [ 'is' ] WINDOW    (* a dying window: when someone is dying,
                                                                   有人濒死时 *)
               | 'in' [ CHARACTER | 'own' | 'other' [ 'anyone' ] | 'anyone' 'other' ] 'turn' ;
                                                                (* whose turn: in 陈大耳's turn, 在陈大耳的回合,
                                                                   in her own turn, in another player's turn,
                                                                   in someone else's turn, 在别人的回合 *)
turn_ago       = [ 'in' ] ( 'previous' | 'this' ) 'turn' | '上一回合' | '本回合' ;  (* when it happened *)
given_body     = (* after 'with' *)    ( 'cards' | 'hand' ) [ 'in' [ 'hand' ] ] | NUMBER [ 'cards' ]
                                       | 'invalidated' | grant_ref [ turn_ago ] | SKILL
               | (* after 'without' *) SKILL
               | (* after 'under' *)   'invalidated' | grant_ref [ turn_ago ] | "that"   (* "that": the grant the
                                                                     question's own player hands out *)
               | (* 'while', 'if' *)   grant_ref [ turn_ago ] | claim   (* grant_ref when the word hands out skills *)
               | (* after 'where' *)   CONDITION ;     (* up to the next with / without / under / where / after,
                                                          a moment, when / while / given, a ready given *)
grant_ref      = ( GRANT | SKILL | CARD ) [ '(' [ argument { ',' argument } [ ',' ] ] ')' ]
                 [ [ ( 'declares' | 'banned' ) [ 'from' ] ] ( declaration | comparison 'cards' ) ]
                                                               (* comparison 'cards': how many cards its set
                                                                  parameter holds — 强令 declares more than 2
                                                                  cards; a GRANT may be followed by X → Y *)
                 [ 'from' ( SKILL | CARD )                     (* the giver, when GRANT names a grant *)
                   [ ( 'declares' | 'banned' ) [ 'from' ] ( declaration | comparison 'cards' ) ] ]
                 [ 'from' SELF ]                               (* handed out by the player herself (SELF: herself,
                                                                  himself, oneself, 自己 …) *)
                 { 'is' | 'active' | 'in' "effect" } ;
argument       = WORD ( '=' | '==' ) value | value [ ( '→' | 'to' ) value ] ;
declaration    = value [ ( '→' | 'to' ) value | { ( ',' | 'and' | 'or' ) CARD } ] ;
value          = '?' | '{' [ CARD { ',' CARD } [ ',' ] ] '}' | NUMBER | 'true' | 'false' | COLOUR | CARD ;

(* which: every answer one decision can give *)
which_question = 'which' which | 'which' 'anyone' claim_question    (* 谁能… / who can …: the players *)
               | "how" "many" draw_words player { 'draw' | 'cards' } | "which_draw" ;   (* 摸几张牌 *)
which          = ( 'conversion' | 'convert' ) { 'fire' | 'rule' | 'if' | 'for' | 'is' } player
                     { 'play' | 'use' | 'is' } card [ 'as' card ]
               | 'send' { send_word } ( GROUP { send_word } | player { send_word } GROUP { send_word } ) player
               | ( 'draw' | 'cards' ) draw_words player { 'draw' | 'cards' }
               | ( 'receive' | 'rule' | 'must' ) { 'rule' | 'is' | 'for' | 'receive' } player { 'receive' }
               | 'events' { 'from' | 'is' | 'for' | 'if' } SKILL { 'fire' }    (* 遗信什么时候发动 / when does
                                                       遗信 fire: the events it answers, read from its 'on' *)
               | grant_ref { PARAM_WORD | 'for' | 'if' } player [ 'can' ] [ player ] claim ;
draw_words     = { 'count' | 'is' | 'for' | 'draw' | 'cards' } ;
send_word      = 'rule' | 'is' | 'in' | 'for' | 'from' ;
""".lstrip("\n")
#: levels of 'not' and parentheses a claim may nest (and of brackets in a 'where' condition)
MAX_DEPTH = 64
_SEND_WORDS = ("rule", "filler", "is", "in", "for", "from")


class Parser(AtomParser, GrantParser, MomentParser, ClauseParser, PlayerParser, EffectParser):
    """One question's parser: ``Parser(cat, text).parse()`` → Query."""

    def __init__(self, cat: Catalogue, text: str, names: Names | None = None):
        self.cat = cat
        self.names = names or Names(cat)
        super().__init__(text, tokenize(text, self.names))
        self.depth = 0
        self.topic = None
        self.pending_givens: list = []        # givens an atom implies (调虎离山能让…: under 调虎离山)
        Matcher(self).apply()              # how designers write it (phrases.py) → the grammar's words

    def givens_here(self, q: Query, comma: bool = False, modal: bool = False) -> bool:
        """One given at this point of the question (a given word, a moment, a ready-made given of the phrasebook,
        or a clause closed by a postposition — or by a comma, before the main question, when ``comma``), added
        to ``q``; False when there is none."""
        if self.token_given_at():
            q.givens.append(self.token_given())
        elif self.moment_at():
            g = self.moment()
            if g is not None:
                q.givens.append(g)
        elif self.at(*GIVEN_KWS):
            q.givens.append(self.given())
        elif self.clause_at(comma=comma, modal=modal):
            i, toks, n = self.i, self.toks, len(q.givens)
            try:
                q.givens.extend(self.clause(comma=comma, modal=modal))
            except QueryError as e:
                # not a clause after all (or a mistake in one): read on without it; if the question fails
                # further on, the error that got furthest is the one reported (parse)
                self.i, self.toks = i, toks
                del q.givens[n:]
                self.clause_errors.append(e)
                return False
        else:
            return False
        while self.tok.kind == "word" and self.tok.text in POST_AFTER + POST_WHEN + POST_REL:
            self.take()                                 # 被调虎离山后: the postposition after a given
        self.skip_sep()
        return True

    def parse(self) -> Query:
        self.clause_errors: list = []
        try:
            q = self._parse()
            if getattr(self, "again_game", False):
                q.again_in = "game"
            return q
        except QueryError as e:
            self.unknown_word(e)                      # a misspelt name is the likeliest cause: said first
            best = max(self.clause_errors + [e], key=lambda x: x.col)
            if best is e:
                raise
            raise best from None

    def not_the_clauses_player(self, q: Query) -> None:
        """A clause opened by a character who is not the player asked about (王魁有两张黑色情报时，李宁玉…; 李宁玉
        使用误导后，SP李宁玉…) says what that other player does or has: its claims, and its conditions on the player
        (``self``), are another player's (``other``: read as such where a reader can, else refused) — never the
        asked player's own."""
        if q.subject is None:
            return
        for char, givens in getattr(self, "clauses_of", []):
            if char == q.subject:
                continue
            for g in givens:
                if g.kind == "claim" or (g.kind == "where" and g.claim is not None and
                                         any(isinstance(x, E.Var) and x.name == "self" for x in E.walk(g.claim.value))):
                    g.other = True

    def unknown_word(self, e: QueryError) -> None:
        """A word of the question that is no keyword, name or word of the phrasebook, and is near a name: raise
        the name's error there (a misspelt name derails the phrasebook, and the error it leads to elsewhere says
        less)."""
        from .lexer import known_words
        known = known_words(self.names)
        for t in self.toks:
            if t.kind != "word" or t.kw or t.src or t.text.lower() in known or \
                    self.resolve(t, ("card", "character", "rule")):
                continue
            if t.col <= e.col < t.end:
                return                                # the error is about that word already
            if self.names.suggest(("card", "character", "rule"), t.text) is not None:
                self.name_error(t, Msg("名字", "name"), ("card", "character", "rule"))

    def _parse(self) -> Query:
        q = Query(self.text, "exists", None)
        self.skip_fillers()
        only = None
        while True:
            self.skip_fillers()
            if self.at("only") and only is None:       # 只有 X 能 … : never anyone but X
                only = len(q.givens), self.take()
                continue
            if not self.givens_here(q, comma=True):
                break
        if self.topic_at():                             # 博爱一回合能发动两次吗: what the question is about
            self.take_topic()
            self.skip_sep()
            while self.givens_here(q, comma=True):
                pass
        mode = self.mode()
        if mode == "which_draw" and self.tok.text == "which_draw":   # 摸几张牌: the question is the draw count
            mode = "which"
            self.tok.kw = "draw"
        elif mode == "which_draw":                # "how many cards does 小九 draw"
            mode = "which"
            self.toks[self.i - 1].kw = "draw"
            self.i -= 1
        if mode is not None:
            q.mode = mode
        who = q.mode == "which" and self.at("anyone")        # 谁能…, which players can …: the players
        if who:
            t = self.take()
            q.which = Which("player", t.col, end=t.end)
        if q.mode == "which" and not who:
            q.which = self.which(q)
        else:
            only_after = None
            if not who:
                self.subject(q)
            if only is not None:
                self.only(q, *only)
            if self.topic is None and (q.subject is not None or getattr(self, "subject_seen", False)) and \
                    self.topic_at():
                self.take_topic()                       # 裴玲的交际一回合能发动两次吗: her skill, then the verb
            while True:
                while True:
                    if self.at("only") and only_after is None:
                        only_after = (len(q.givens), self.take())     # 后来人只能在自己濒死时发动吗
                        continue
                    if self.at("anyone") and (q.subject is not None or getattr(self, "subject_seen", False)):
                        self.take()                     # 没被锁定的特工机关角色: one player, said twice
                        continue
                    if self.at("with", "without", "under", "outside", "if", "while") or self.moment_at() or \
                            (self.token_given_at() and not (mode is not None and self.last_before_end())) or \
                            self.clause_at():            # "can a player under 强令's ban …", SP李宁玉被禁闭后…
                        if self.givens_here(q):
                            continue
                    if mode is None and self.clause_at(modal=True) and self.givens_here(q, modal=True):
                        continue                        # 李书云面朝下能发动定论吗: a state, then the modal
                    break
                self.skip_fillers()
                if mode is None or q.mode == "exists" or who or (self.at("always") and q.mode == "always"):
                    m = self.mode()
                    if m == "which":
                        self.error(Msg("'which'（'哪个'）必须写在问题开头", "'which' must start the question"),
                                   self.toks[self.i - 1])
                    if m in ("which", "exists") and who:
                        mode = mode or m
                        continue
                    if m == "which_draw":               # CP韩梅在小九在场时摸几张牌: the draw count
                        w = self.take()
                        q.mode, q.which = "which", Which("draw", w.col)
                        break
                    if m is not None:
                        q.mode = m if q.mode == "exists" or m != "exists" else q.mode
                        mode = m
                        continue
                break
            if only_after is not None:
                self.only_then(q, *only_after)
            if q.mode != "which" or who:
                if self.at("cannot_mode", "cannot") and not (self.peek().kw == "receive"):
                    self.take()
                    q.mode = "never" if q.mode == "exists" else q.mode
                q.claim = self.claim()
        post_only = None
        while self.tok.kind != "end":
            if self.skip_sep():
                continue
            if self.at("only") and post_only is None and q.claim is not None:
                post_only = (len(q.givens), self.take())   # 王田香发动禁闭需要在自己的出牌阶段吗
                continue
            if self.at("anyone") and self.toks[self.i - 1].kind in ("role", "cond"):
                self.take()                             # … not the sender: the role's player, already asked
                continue
            if self.givens_here(q):
                continue
            if self.at("for") and q.subject is None and self.resolve(self.peek(), ("character",)):
                self.take()                                   # "is 截获 banned for SP李宁玉"
                self.subject(q)
                continue
            if self.at("for") and q.subject is None and self._anyone_at(self.i + 1):
                self.take()                                   # "is 误导 banned for anyone under 强令"
                self.subject(q)
                continue
            if self.at_final_q() or (self.at("filler") and all(
                    t.kind == "end" or t.kw == "filler" or t.text == "?" for t in self.toks[self.i:])):
                self.take()                                   # the end: '?', or a closing 吗 / 呢 (…使用吗？)
                continue
            self.moment_error()
            self.error(Msg("这里应是 'with'、'under'、'when'、'where'、一个时机（'在出牌阶段'）或问题的结尾，却是{f}",
                           "expected 'with', 'under', 'when', 'where', a window ('in the main phase') or the end of the "
                           "question, found {f}", f=self.found()))
        if post_only is not None:
            self.only_then(q, *post_only)
        q.givens.extend(self.pending_givens)
        if getattr(self, "force_never", False) and q.mode in ("exists", "always"):
            q.mode = "never"                        # 必须锁定一个人吗: never locking another number
            q.shown = atoms_of(q.claim)[0].text.split("（")[0].split(" (")[0] if atoms_of(q.claim) else ""
        self.relevant_grants(q)
        self.not_the_clauses_player(q)
        if getattr(self, "other_subject", None) is not None and q.subject is None:
            q.givens.append(self.someone_else(q, self.other_subject))
        if self.topic is not None and self.resolve(self.topic, ("rule", "card")):
            # a skill the question was about and no verb took: its effect, when it hands out what bears on the
            # claim (冷血训练能锁定两个人吗: under 冷血训练); else the player holds it (诡诈能视为使用威逼吗)
            t = self.topic
            kind, rid = self.resolve(t, ("rule", "card"))
            src = self.cat.skills.get(rid) if kind == "rule" else self.cat.cards.get(rid)
            kinds = set().union(*[ATOM_KINDS.get(a.kind, set()) for a in atoms_of(q.claim)] or [set()])
            bears = [g for g in src.gives if self.cat.skills[g.grant].closure & kinds]
            if bears:
                self.toks[self.i:self.i] = [t]
                q.givens.append(Given("grant", t.col, t.end, t.shown, grant=self.grantref()))
            elif kind == "rule":
                q.givens.append(Given("with", t.col, t.end, t.shown, rule=rid))
        self.settle(q)
        return q

    def mode(self) -> str | None:
        self.skip_fillers()
        if self.at("exists") or (self.at("is") and self.i == 0):
            self.take()
            return "exists"
        if self.at("must") and self.i == 0 and self.peek().kw != "receive":
            self.take()                                 # must a locked player receive?: always … must receive
            self.must_modal = True
            return "always"
        if self.at("always", "never", "which"):
            return self.take().kw
        if self.at("cannot_mode", "cannot") and self.peek().kw != "receive":
            self.take()
            return "never"
        if self.tok.text == "which_draw":
            return "which_draw"
        if self.tok.text.lower() == "how" and self.peek().text.lower() == "many":
            self.take()
            self.take()
            return "which_draw"
        return None

    # ---- claims
    def claim(self):
        items = [self.conj()]
        while self.at("or"):
            self.take()
            items.append(self.conj())
        return items[0] if len(items) == 1 else BoolOp("or", items, items[0].col if hasattr(items[0], "col") else 0)

    def conj(self):
        items = [self.unary()]
        while self.at("and") and not (self.peek().kind == "word" and self.peek().kw in GIVEN_KWS) \
                and not self.moment_at(self.i + 1):
            self.take()
            items.append(self.unary())
        return items[0] if len(items) == 1 else BoolOp("and", items, getattr(items[0], "col", 0))

    def unary(self):
        self.skip_fillers()
        if self.at("is") and (self.peek().kw == "not" or self.peek().kw in STATES or self.token_given_at(self.i + 1)):
            self.take()                                 # who is not the sender, when she is invalidated
        if self.at("not") and not (self.peek().kw in ("cards",)):
            t = self.take()
            self.deeper(t)
            try:
                return Not(self.unary(), t.col)
            finally:
                self.depth -= 1
        if self.at_op("("):
            self.deeper(self.take())
            try:
                c = self.claim()
                if not self.at_op(")"):
                    self.error(Msg("这里应是 ')'，却是{f}", "expected ')', found {f}", f=self.found()))
                self.take()
                return c
            finally:
                self.depth -= 1
        return self.atom()

    def deeper(self, t: Tok):
        """One level deeper (a 'not' or a parenthesis, ``t``; the caller steps back up): at most MAX_DEPTH, so
        that a question of any length is refused with a located error rather than running out of stack."""
        if self.depth >= MAX_DEPTH:
            self.error(Msg("嵌套太深：括号和 'not' 超过 {n} 层", "too deeply nested: more than {n} levels of parentheses and 'not'",
                           n=MAX_DEPTH), t)
        self.depth += 1

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
                self.error(Msg("{n}没有可以列举的参数了", "{n} has no parameters left to enumerate", n=self.cat.name_of(g.name)), t)
            if len(combos) > MAX_COMBOS:
                self.error(Msg("{n}有 {k} 种参数组合——太多了，不能逐一尝试（至多 {m}）；固定其中一些，例如 '{n}({p}=…)'",
                               "{k} parameter combinations of {n} — too many to try one by one (at most {m}); fix some, "
                               "e.g. {n}({p}=…)", n=self.cat.name_of(g.name), k=len(combos), m=MAX_COMBOS,
                               p=next(iter(combos[0]))), t)
            self.subject(q)
            m = self.mode()
            if m not in (None, "exists"):
                self.error(Msg("'which … declarations' 问的是说法何时能成立；不要写 'always' / 'never'",
                               "'which … declarations' asks when a claim can hold; write it without always/never"),
                           self.toks[self.i - 1])
            if q.subject is None:
                self.subject(q)
            q.claim = self.claim()
            return Which("params", t.col, grant=g, combos=combos, end=end)
        if self.at("conversion") or (self.at("convert")):
            self.take()
            self.skip("fire", "rule", "filler", "if", "for", "is")
            self.subject(q)
            self.skip("play", "use", "filler", "is")
            return Which("conversion", t.col, cards=self.card_pair())
        if self.at("send"):
            self.take()
            self.skip(*_SEND_WORDS)
            g = self.group()
            self.skip(*_SEND_WORDS)
            if g is None:
                self.subject(q)
                self.skip(*_SEND_WORDS)
                g = self.group()
            if g is None:
                self.error(Msg("这里应是传出技能组（'方向'、'锁定' 或 '传出哪张情报'），却是{f}",
                               "expected a send group (direction, lock or card), found {f}", f=self.found()))
            self.skip(*_SEND_WORDS)
            self.subject(q)
            return Which("send", t.col, group=g)
        if self.at("draw") or self.at("cards"):
            self.take()
            self.skip("count", "filler", "is", "for", "draw", "cards")
            self.subject(q)
            self.skip("draw", "filler", "cards")
            return Which("draw", t.col)
        if self.at("receive", "rule", "must"):
            self.take()
            self.skip("rule", "filler", "is", "for", "receive")
            self.subject(q)
            self.skip("receive", "filler")
            return Which("receive", t.col)
        if self.at("events"):                     # 遗信什么时候发动 / when does 遗信 fire: the events it answers
            self.take()
            self.skip("filler", "is", "for", "of", "from", "if")
            rid = self.rule()
            self.skip("fire", "filler", "is")
            return Which("events", t.col, rule=rid, end=self.prev_end())
        self.error(Msg("'which' 之后应是 'conversion'、'send rule'、'draw count' 或 'receive'，却是{f}",
                       "after 'which', expected 'conversion', 'send rule', 'draw count' or 'receive', found {f}",
                       f=self.found()))

    # ---- givens
    def given(self) -> Given:
        t = self.take()
        kw = t.kw
        self.skip_fillers()
        if kw == "outside":                             # 出牌阶段以外, outside the main phase
            w = self.window_at(self.i)
            if w is None:
                self.error(Msg("'以外 / outside' 之前 / 之后应是一个时机（'出牌阶段以外'）",
                               "'outside' takes a window ('outside the main phase')"))
            self.i = w[1]
            end = self.prev_end()
            return Given("outside", t.col, end, self.text[t.col:end], window=w[0])
        if kw == "under" and self.tok.kind == "word" and self.tok.text == "that":
            # 小铃铛传出情报后，被指定的角色…: what the question's own player hands out
            that = self.take()
            who = getattr(self, "clause_subject", None) or getattr(self, "mentioned", None)
            skills = self.giver_skills(who[0]) if who else []
            if len(skills) != 1:
                self.error(Msg("'被指定' 说的是谁的技能？写出技能（'被信鸽联络指定'）",
                               "named by whose skill? name the skill ('under 信鸽联络')"), that)
            self.toks[self.i:self.i] = [Tok("word", skills[0], that.col, that.end, src=that.shown)]
            g = self.grantref()
            end = self.prev_end()
            return Given("grant", t.col, end, self.text[t.col:end], grant=g)
        if kw == "where":
            return self.where(t)
        if kw == "after":
            return self.after(t)
        if kw in ("if", "while") and (self.at(*GIVEN_KWS) or self.token_given_at()):
            return self.token_given() if self.token_given_at() else self.given()    # 如果被禁闭了: if under 禁闭
        if kw in ("with", "without"):
            if kw == "with" and (self.at("cards") or self.at("hand") or self.tok.kind == "num"):
                a = self.atom_hand()
                return Given("claim", t.col, a.end, self.text[t.col:a.end], claim=a)
            if kw == "with" and self.at("invalidated"):
                a = self.atom()
                return Given("claim", t.col, a.end, self.text[t.col:a.end], claim=a)
            tt = self.tok
            rule = self.cat.skills[self.rule(take=False, wrong=Msg("'{k}' 后面要写技能", "'{k}' takes a skill", k=kw))]
            if rule.is_grant and kw == "with":
                g = self.grantref()
                ago = self.turn_ago()
                end = self.prev_end()
                return Given("grant", t.col, end, self.text[t.col:end], grant=g, ago=ago)
            self.take()
            if rule.id == "InvalidSkill":
                a = Atom("invalidated", tt.col, tt.end)
                end = tt.end
                return Given("claim", t.col, end, self.text[t.col:end],
                             claim=a if kw == "with" else Not(a, tt.col))
            end = tt.end
            return Given(kw, t.col, end, self.text[t.col:end], rule=rule.id)
        # under / while / if
        tt = self.tok
        if kw == "under" or self._grantish(tt):
            if kw == "under" and self.at("invalidated"):
                a = self.atom()
                return Given("claim", t.col, a.end, self.text[t.col:a.end], claim=a)
            g = self.grantref()
            ago = self.turn_ago()
            end = self.prev_end()
            return Given("grant", t.col, end, self.text[t.col:end], grant=g, ago=ago)
        c = self.claim()
        end = self.prev_end()
        return Given("claim", t.col, end, self.text[t.col:end], claim=c)

    def where(self, t: Tok) -> Given:
        start = self.tok.col
        j = self.i
        while self.toks[j].kind != "end" and not (self.toks[j].kind == "word" and self.toks[j].kw in
                                                    ("with", "without", "under", "where", "after")) \
                and not (self.toks[j].kw in ("in", "at", "if", "while") and self.moment_at(j)) \
                and not self.where_stops(j):
            j += 1
        end_tok = self.toks[j]
        stop = end_tok.col
        raw = self.text[start:stop].rstrip()
        while raw.endswith(("?", "？", ",", "，")):
            raw = raw[:-1].rstrip()
        if not raw:
            self.error(Msg("'where' 之后应是条件，例如 'where hand_count > 0'", "expected a condition after 'where', e.g. 'where hand_count > 0'"))
        depth = 0
        for tok in self.toks[self.i:j]:          # the condition's brackets: the same limit as the claim's
            if tok.kind == "op" and tok.text in ("(", "{"):
                depth += 1
                if depth > MAX_DEPTH:
                    self.error(Msg("嵌套太深：'where' 条件中的括号超过 {n} 层",
                                   "too deeply nested: more than {n} levels of brackets in the 'where' condition",
                                   n=MAX_DEPTH), tok)
            elif tok.kind == "op" and tok.text in (")", "}"):
                depth -= 1
        try:
            node = E.parse(raw)
            self._rename(node)
            E.check(node, E.Scope("question", E.Universe(frozenset(self.cat.cards), frozenset(self.cat.characters))),
                    V.BOOL)
        except E.ExprError as e:
            col = start + e.col
            word = re.match(r"[A-Za-z0-9_\u3400-\u9fff·]+", self.text[col:])
            raise QueryError(Msg("在 'where' 条件中：{m}", "in the 'where' condition: {m}", m=e.text), col,
                             col + (len(word.group()) if word else 1)) from None
        except RecursionError:
            # the condition language (model/expr) has no depth limit of its own: a chain of hundreds of
            # 'not' or 'and' nests its tree deeper than Python's stack
            raise QueryError(Msg("嵌套太深：'where' 条件嵌套得太深，读不了（连着几百个 'not' / 'and'？）",
                                 "too deeply nested: the 'where' condition is nested too deeply to read (hundreds of "
                                 "'not' / 'and' in a row?)"), start, start + len(raw)) from None
        self.i = j
        end = start + len(raw)
        a = Atom("where", start, end, value=node, text=raw)
        return Given("where", t.col, end, self.text[t.col:end], claim=a)

    def where_stops(self, j: int) -> bool:
        """A 'where' condition ends before 'when' / 'while' / 'given' (a claim given: "where hand_count == 0 when not
        invalidated"), before 'if' unless a 'then' follows (the condition's own if … then … else), before a '，' or
        '、' of Chinese, and before a ready-made given of the phrasebook."""
        t = self.toks[j]
        if t.kind in ("cond", "role"):
            return True
        if t.kind == "op" and t.src and t.src in ("，", "、", "；"):
            return True
        if t.kind != "word":
            return False
        w = t.text.lower()
        if w in ("when", "while", "given", "如果", "若", "当"):
            return True
        if w == "if":
            return not any(x.kind == "word" and x.text.lower() == "then" for x in self.toks[j + 1:])
        return False

    def _rename(self, node):
        """Chinese names and aliases of cards / characters in a 'where' condition become their ids."""
        for n in E.walk(node):
            if isinstance(n, E.Var) and n.name not in V.PLAYER_ATTRS and n.name not in V.GLOBALS:
                for kind in ("card", "character"):
                    ident = self.names.find(kind, n.name)
                    if ident is not None and ident != n.name and not n.name.isascii():
                        n.name = ident
                        break


def words_of(names: Names, text: str) -> list:
    """A question's words as (text, kind, id): kind card / character / rule for a name of the catalogue, else None
    (what repair.py compares questions by)."""
    out = []
    for t in tokenize(text, names):
        if t.kind == "end":
            break
        hit = None
        for kind in ("card", "character", "rule"):
            ident = names.find(kind, t.text) if t.kind == "word" and not t.kw else None
            if ident:
                hit = (t.text, kind, ident)
                break
        out.append(hit or (t.text.lower(), None, None))
    return out


def _other_reading(cat: Catalogue, tq: Query, text: str, names: Names) -> bool:
    """A target question on a triggered skill (信鸽联络能指定自己吗) that the grammar reads otherwise too: the grammar's
    reading is taken (a triggered skill's chosen player is no target the table search reads)."""
    a = tq.claim
    if a.kind != "target" or a.rule not in cat.skills or cat.skills[a.rule].has("ActiveSkill"):
        return False
    try:
        Parser(cat, text, names).parse()
    except QueryError:
        return False
    return True


#: the message's path asked of (情报还会继续传递吗, 情报会被弃置吗): refused with what may be asked instead
#: who wins together with whom (一起获胜: 四人局 红蓝同胜, 尾声, a dead teammate): no claim of the language yet
WIN_TOGETHER = re.compile(r"(?:一起|一同|共同|同时|跟着)(?:获胜|胜利|赢)")
#: two players dying together (当前回合角色和老汉同时死亡时): no premise of one player
BOTH_DIE = re.compile(r"(?:和|与|跟)[^，,？?。]{1,12}?(?:同时|都|一起|一同)(?:死亡|死掉|死了|死|濒死|阵亡)")
#: how many cards an effect moves (如归能把两张情报放入…): no claim of the language yet
EFFECT_COUNT = re.compile(r"把(?:两|二|三|四|五|多|[2-9])张")
MESSAGE_PATH = re.compile(r"(?:继续|接着)(?:传递|传下去|传|争夺)|(?:情报|它)(?:会|还会)?被弃置|情报(?:会)?(?:去哪|传给谁|怎么处理)")


#: full-width letters and digits (ＳＰ李宁玉, ＣＰ韩梅, ２张) -> their ASCII forms, one character for one (columns kept);
#: full-width punctuation is the lexer's (lexer._FULLWIDTH)
FULLWIDTH_ALNUM = {c: c - 0xFEE0 for c in [*range(0xFF10, 0xFF1A), *range(0xFF21, 0xFF3B), *range(0xFF41, 0xFF5B)]}


def parse(cat: Catalogue, text: str, names: Names | None = None) -> Query:
    """The question ``text`` as a Query, or a located QueryError that offers the nearest accepted phrasing
    (repair.py) when one is near. Full-width letters and digits are read as ASCII (``FULLWIDTH_ALNUM``)."""
    if not text or not text.strip():
        raise QueryError(Msg("问题是空的", "empty query"), 0, 1)
    text = text.translate(FULLWIDTH_ALNUM)
    names = names or Names(cat)
    both = BOTH_DIE.search(text)
    if both is not None:                    # 当前回合角色和老汉同时死亡时: 和 would join a given to the player asked about
        raise QueryError(Msg("两名角色同时死亡（或濒死）还不是能问的前提：问题只问一名角色，「和」会把前面的角色读成他本人；"
                             "请分开问（如：'老汉在别人的回合死亡时能发动如归吗'）",
                             "two players dying together is not a premise yet: a question asks of one player, and 'and' "
                             "would read the first as that player; ask each (e.g. 'can 老汉 fire 如归 when he dies in "
                             "another player's turn?')"), both.start(), both.end())
    from .order import order_query
    oq = order_query(cat, text, names) if len(text) <= 400 else None
    if oq is not None:                      # 承志和遗信在角色死亡时怎么结算: two skills' order on one event
        return oq
    from .raises import raises_query
    rq = raises_query(cat, text) if len(text) <= 400 else None
    if rq is not None:                      # 置入情报区会触发接收情报的技能吗: the event an action raises
        return rq
    from .targets import target_query
    tq, bad = target_query(cat, text, names, lambda t: Parser(cat, t, names).parse()) if len(text) <= 400 else (None, None)
    if tq is not None and not _other_reading(cat, tq, text, names):   # 试探能对自己使用吗: whom a card or skill may
        return tq                                                     # be used on
    try:
        return Parser(cat, text, names).parse()
    except QueryError as e:
        if bad is not None:                 # a target frame whose player phrase is no player word: said there
            raise bad from None
        path = MESSAGE_PATH.search(text)
        if path is not None:                # 情报还会继续传递吗: where the message goes is not a claim yet
            raise QueryError(Msg("情报的去向（继续传递、被弃置）还不是能问的事：牌局模板里没有传递途中的死亡；能问的是谁收到"
                                 "情报（如：'传出者能收到自己的情报吗'、'老汉死亡后还能收到情报吗'）",
                                 "where the message goes (passed on, discarded) is not a claim yet: no game template "
                                 "holds a death on its path; ask who receives it (e.g. 'can the sender receive his "
                                 "own message?')"), path.start(), path.end()) from None
        count = EFFECT_COUNT.search(text)
        if count is not None:               # 如归能把两张情报放入…: how many cards the effect moves
            raise QueryError(Msg("效果一次移动几张牌还不是能问的事（目录里每个效果的张数见 `skillproof explain`）；能问的是它能不能这样做"
                                 "（如：'如归能把情报放入当前回合角色的情报区吗'）",
                                 "how many cards an effect moves at once is not a claim yet (the count of each effect is in "
                                 "`skillproof explain`); ask whether it does so at all (e.g. 'can 如归 put a message into "
                                 "the area of the turn player?')"), count.start(), count.end()) from None
        together = WIN_TOGETHER.search(text)
        if together is not None:            # 潜伏战线获胜时，特工机关能一起获胜吗: whom a win is shared with
            raise QueryError(Msg("谁和谁一起获胜还不是能问的事（服务器 `ProcessFsm.checkWin`：同阵营全部获胜、四人局红蓝同胜，"
                                 "尾声让无身份的角色一同获胜）；能问的是某人能否获胜、谁会赢（如：'潜伏战线能获胜吗'、'谁会赢？'）",
                                 "who wins together with whom is not a claim yet (server `ProcessFsm.checkWin`: a whole camp "
                                 "wins, red and blue together in a four-player game, “尾声” adds the players with no "
                                 "identity); ask whether a player can win, or who can win (e.g. 'who can win?')"),
                             together.start(), together.end()) from None
        if len(text) > 400:                 # a long question is not searched for its neighbours
            raise
        near = nearest_phrasing(lambda t: Parser(cat, t, names).parse(), text, e, lambda t: words_of(names, t))
        raise offer(e, near) from None

