"""Where questions are answered: ``Session`` (a catalogue, its names and warm solvers; ``ask`` one question
after another, each on an ``Engine``, engine.py). A session narrows the state to what a question reads, or
(``general``) keeps one engine for every question, as the prompt does."""
from __future__ import annotations

import time

from skillproof.model import expr as E
from skillproof.model import vocab as V
from skillproof.model.catalogue import Catalogue
from skillproof.model.kinds import SEND_GROUPS
from skillproof.model.lang import pick

from ..enc.state import PLAYS, Codes, node_reads_played
from ..worklimit import TimeSpent
from .answer import Run
from .engine import DEFAULT_GRANTS, DEFAULT_SEATS, DEFAULT_TIMEOUT_MS, DEFAULT_TURNS, Engine
from .evaluate import after_sites
from .names import Names
from .parser import parse
from .readings import bare_plays, physical_reading, reading_note, reading_suffix
from .result import Result
from .syntax import ATOM_KINDS as _ATOM_KINDS, Query, atoms_of


_WHICH_KINDS = {"conversion": {"ConvertCardSkill"}, "send": set(SEND_GROUPS), "draw": {"ChangeDrawCardCountSkill"},
                "receive": {"MustReceiveMessage"}, "params": set(), "player": set()}


class Session:
    """A catalogue with its names and warm solvers: ask one question after another."""

    def __init__(self, cat: Catalogue, *, seats: int = DEFAULT_SEATS, grants: int | None = None,
                 timeout_ms: int = DEFAULT_TIMEOUT_MS, max_engines: int = 12, general: bool = False,
                 turns: int = DEFAULT_TURNS, rlimit: int = 0):
        """``general``: answer every question on one symbolic state holding every character and grant
        (built once by ``warm``) instead of one narrowed to the question — slower to build, then about
        as fast for any question: what a prompt wants. A single question is faster narrowed."""
        self.cat = cat
        self.general = general
        self.names = Names(cat)
        self.codes = Codes(cat)
        self.seats = seats
        self.grants = grants
        self.turns = turns                # turns a witness trace may span (the question's and those before)
        self.timeout_ms = timeout_ms
        self.rlimit = rlimit              # z3 resource limit per solver (deterministic; 0 = none)
        self.games = False                # a witness of the timed model made a game of the server (games.py)
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
            elif g.kind == "after":
                named.add(g.rule)
                named.update(s.grant for s in after_sites(self.cat, g.rule))
            elif g.kind == "grant":
                named.update(g.grant.grants)
                named.add(g.grant.name)
                if g.grant.invalid_option:
                    kinds.add("ActiveSkill")
        for a in atoms:
            kinds |= _ATOM_KINDS.get(a.kind, set())
            if a.rule:
                named.add(a.rule)
            if a.kind == "granted":
                named.update(a.value.grants)
                named.add(a.value.name)
            if a.kind == "where" and _reads_character(a.value):
                exact = True
        if q.which is not None:
            kinds |= _WHICH_KINDS[q.which.kind]
            exact = exact or q.which.kind == "player"       # every character is an answer of its own
            if q.which.grant is not None:
                named.update(q.which.grant.grants)
                named.add(q.which.grant.name)
        return kinds, named, exact

    def shape(self, q: Query):
        cat = self.cat
        kinds, named, exact = self.relevant(q)
        rel_grants = [r.id for r in cat.grants if r.id != "InvalidSkill" and cat.sites(r.id) and
                      (r.id in named or (r.closure & kinds))]
        n_grant_givens = sum(1 for g in q.givens if g.kind == "grant") + (q.which is not None and q.which.kind == "params")
        # a named skill handing out a pair at once ('with': 禁闭's invalidation and ban) takes one more slot
        paired = any(g.together is not None for rid in named if rid in cat.skills for g in cat.skills[rid].gives)
        G = self.grants if self.grants is not None else max(DEFAULT_GRANTS, n_grant_givens) + paired
        if not rel_grants:
            G = 0
        if self.general:
            # one engine over every character and grant (``general``): the shape below is not needed
            gG = self.grants if self.grants is not None else DEFAULT_GRANTS
            if G <= gG:
                every = list(cat.characters)
                return every, self.all_grants(), self.seats, gG, every
        rel_rules = set(named) | set(rel_grants)
        for r in cat.skills.values():
            if r.closure & kinds:
                rel_rules.add(r.id)
            if any(g.grant in rel_grants or g.grant == "InvalidSkill" for g in r.gives):
                rel_rules.add(r.id)
        # a relevant rule that reads which character someone is: characters cannot be grouped
        exact = exact or any(_mentions_character(r) for rid in rel_rules for r in [cat.skills.get(rid)] if r)
        # characters a 'in X's turn' names sit at the table as they are
        whose = [g.who for g in q.givens if g.kind == "turn_of" and g.who is not None]
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
            chars = list(seen.values()) + [c for c in whose if c not in seen.values()]
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
            keep |= set(whose)
            for c in cat.characters.values():
                if c.id in keep:
                    others.append(c.id)
                elif per.get((c.hidden, c.female), 0) < self.seats:
                    per[(c.hidden, c.female)] = per.get((c.hidden, c.female), 0) + 1
                    others.append(c.id)
        return chars, rel_grants, self.seats, G, others

    def all_grants(self) -> list:
        return [r.id for r in self.cat.grants if r.id != "InvalidSkill" and self.cat.sites(r.id)]

    def engine(self, chars, grants, n, G, others=None, plays: int | None = None) -> Engine:
        key = (tuple(chars), tuple(grants), n, G, tuple(others) if others is not None else None, self.turns, plays)
        e = self.engines.pop(key, None)
        if e is None:
            e = Engine(self.cat, chars, grants, n, G, self.codes, self.timeout_ms, others, self.turns, self.rlimit,
                       plays)
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

    def ask(self, text_or_query, reasons: bool = True, minimal: bool = True) -> Result:
        """Answer a question. ``reasons=False``: a proof (*no* to exists, *yes* to always / never) comes
        without its minimal core and illustration — only whether the givens can hold at all (what
        `check` needs to report a proved intent as a pass, at a fraction of the cost). ``minimal=False``:
        a witness is the solver's first one, replayed but not made the plainest (for an answer whose
        witness nobody reads, such as a proved intent)."""
        t0 = time.perf_counter()
        if isinstance(text_or_query, str):
            from .lexer import fix_typos                     # 自已 → 自己: a misspelt everyday word, put right
            text_or_query = fix_typos(text_or_query)
            from .lexer import designer_forms                # 发动S时能把… / 用过S后还能再用吗 / 收到第三张黑色情报时 …
            text_or_query = designer_forms(text_or_query, self.names)
            from .lexer import skill_effect_form             # 王魁能用以牙还牙把… → 王魁的以牙还牙能把…
            text_or_query = skill_effect_form(text_or_query, self.names)
        from .next_turn import answer as next_turn           # 下回合: the premise cleared at the turn's end
        told = next_turn(self, text_or_query)
        if told is None:
            from .deal import answer as deal                 # 四人局能抽到清道夫吗: the deal itself, no search
            told = deal(self.cat, text_or_query)
        if told is None:
            from .fight_turn import answer as fight_turn     # 截获能在别人的争夺回合使用吗: the window's own rule
            told = fight_turn(self.cat, self.names, text_or_query)
        if told is None:
            from .uses import answer as uses                 # 一回合最多能发动几次诡诈: its limit, from the catalogue
            told = uses(self.cat, self.names, text_or_query)
        if told is None and isinstance(text_or_query, str):
            from .effect_draws import answer as effect_draws, named_effect
            rid = named_effect(self.cat, self.names, text_or_query)   # 平衡结算后双方各摸几张牌: the card's effect
            if rid is not None:
                told = effect_draws(self.cat, Query(text_or_query, "which", None), rid)
        if told is not None:
            told.seconds = time.perf_counter() - t0
            return told
        q = self.parse(text_or_query) if isinstance(text_or_query, str) else text_or_query
        if q.mode == "which" and q.which is not None and q.which.kind == "order":
            from .order import answer as order_answer        # told from the catalogue and the engine: no solver
            res = order_answer(self.cat, q)
            res.seconds = time.perf_counter() - t0
            return res
        if q.which is not None and q.which.kind == "raises":
            from .raises import answer as raises_answer      # the event an action raises: the engine's table
            res = raises_answer(self.cat, q)
            res.seconds = time.perf_counter() - t0
            return res
        if q.mode == "which" and q.which is not None and q.which.kind == "events":
            from .events import answer as events_answer      # told from the catalogue: no solver
            res = events_answer(self.cat, q)
            res.seconds = time.perf_counter() - t0
            return res
        if q.again_in == "game" and q.mode == "exists":
            told = again_convert(self.cat, q)               # a conversion used up (译文暗号能再次使用吗): data
            if told is not None:
                told.seconds = time.perf_counter() - t0
                return told
        from .effect_draws import answer as effect_draws     # 小九发动广发报能摸几张牌: the effect's draws, told
        told = effect_draws(self.cat, q)                     # from the catalogue (not the draw phase's count)
        if told is not None:
            told.seconds = time.perf_counter() - t0
            return told
        told = again_in_turn(self.cat, q)                    # a triggered skill once a turn (避风一回合能发动两次吗): data
        if told is not None:
            told.seconds = time.perf_counter() - t0
            return told
        from .table import is_table_question, answer as table_answer, refuse_table_only
        if is_table_question(q, self.cat):       # the moving table: asked of games of the server (table.py)
            res = table_answer(self, q)
            res.seconds = time.perf_counter() - t0
            return res
        refuse_table_only(q)
        chars, grants, n, G, others = self.shape(q)
        eng = self.engine(chars, grants, n, G, others, plays=PLAYS if _reads_played(q) else None)
        run = Run(self, eng, q)
        run.reasons = reasons
        run.light = not minimal
        bounds = {"seats": n, "grants": G, "characters": len(chars), "turns": eng.S.T, "timeout_ms": self.timeout_ms}
        try:
            res = run.go()
            if q.mode != "which" and res.answer in ("yes", "no") and bare_plays(q):
                # 'play X' is read as a card declared as X: the answer says so, with the physical card's beside it
                alt = Run(self, eng, physical_reading(q))
                alt.reasons, alt.light = False, True
                other = alt.go().answer
                note, res.reading = reading_note(self.cat, q, res.answer, other)
                res.notes.append(note)
                if other != res.answer:
                    res.headline += reading_suffix(self.cat, q, other)
        except TimeSpent:           # the clock stopped making the witness plain: no other witness is shown
            res = Result(q, "unknown", headline=pick(f"不确定——时间预算（{self.timeout_ms} ms）已用完：没有给出答案",
                                                     f"inconclusive: time budget spent ({self.timeout_ms} ms) — "
                                                     f"no answer is claimed"),
                         reason=f"inconclusive: time budget spent ({self.timeout_ms} ms)")
            res.bounds = dict(bounds)
            res.seconds = time.perf_counter() - t0
            return res
        if q.again_in == "game" and q.mode == "exists":
            again_in_game(self.cat, q, res)
        res.bounds = dict(bounds)
        if self.games:
            from .games import as_game
            accept = None
            if q.mode == "exists" and res.answer == "yes" and q.claim is not None:
                def accept(st):             # the claim and givens the witness was replayed for (Run.replay_problem)
                    return not run.replay_problem(st, True)

            def accept_illustration(st):    # the givens hold; the claim fails there (holds, for a proved 'always')
                return not run.replay_problem(st, q.mode == "always")
            as_game(self.cat, res, accept, accept_illustration)
        res.seconds = time.perf_counter() - t0
        res.engine = eng
        return res


def again_in_game(cat, q: Query, res: Result) -> None:
    """再次使用 (again, at any later moment of the game): the timed model answers it within one turn — a *yes* there is
    a yes (used twice in one turn is used again); a *no* there says nothing of a later turn (a once-a-turn skill is
    used again next turn; a skill that flips its role face up needs it turned down again), so it becomes *unknown*,
    the within-turn answer kept as a note."""
    from skillproof.model.lang import pick
    if res.answer == "yes":
        res.notes.append(pick("一回合内就能再次使用（见例证）", "it can be used again within one turn (the witness)"))
    elif res.answer == "no" and _gone_once_used(cat, q):
        # a skill removed from its holder once used (``consumed``: 诱敌深入, 浑水摸鱼, 译文暗号 — the server's
        # ``r.skills = r.skills.filterNot { it === this }``): no later turn has it, so the within-turn no stands
        from .constraints import _ref
        rid = _gone_once_used(cat, q)
        ref = _ref(cat, rid)
        res.because = list(res.because or []) + [{
            "kind": "rule", "rules": [ref],
            "says": pick(f"{ref['name']}用过一次就从持有者身上移除（目录 consumed，服务器 filterNot），之后的回合也不再持有",
                         f"{ref['name']} is removed from its holder once used (catalogue `consumed`, the server's "
                         f"filterNot): no later turn holds it")}]
        res.notes.append(pick("一回合内不能再次使用，之后的回合也不能：它用过即移除",
                              "not again within one turn, nor in a later one: it is removed once used"))
    elif res.answer == "no":
        res.answer = "unknown"
        res.notes.append(pick("一回合内不能再次使用：" + res.headline, "not again within one turn: " + res.headline))
        res.headline = pick("不确定——一回合内不能再次使用；在之后的回合再次使用，搜索还不读（只查一回合内）",
                            "inconclusive — not again within one turn; whether it can be used again in a later turn is "
                            "not searched (within one turn only)")
        res.reason = "again in a later turn is not searched: only within one turn"
        res.because = []
        res.witness = None


def again_convert(cat, q: Query) -> Result | None:
    """再次使用 of a conversion skill its holder has once a game (译文暗号, 浑水摸鱼 — the catalogue's ``limit = "game"``,
    ``consumed``: the server's ``r.skills = r.skills.filterNot { it === this }`` once a card went through it): *no* from
    the catalogue, whatever the game. None for any other question (a conversion without a limit, 应变, is asked of
    the solver as any other: it may be used again at once)."""
    from skillproof.model.lang import pick
    from .constraints import _ref
    atoms = atoms_of(q.claim) if q.claim is not None else []
    if len(atoms) != 1 or atoms[0].kind != "fire" or q.givens:
        return None
    r = cat.skills.get(atoms[0].rule or "")
    if r is None or r.convert is None or not (r.consumed or r.limit == "game"):
        return None
    ref = _ref(cat, r.id)
    gone = pick(f"{r.name}一局只能用一次（目录 limit = game）" + ("，用过即从持有者身上移除（consumed，服务器 filterNot）"
                                                                  if r.consumed else ""),
                f"{r.name} is once a game (catalogue limit = game)" + (", removed from its holder once used "
                                                                        "(consumed, the server's filterNot)"
                                                                        if r.consumed else ""))
    res = Result(q, "no", headline=pick(f"否——{r.name}不能再次使用：{gone}", f"no — {r.name} cannot be used again: {gone}"))
    res.because = [{"kind": "rule", "rules": [ref], "says": gone},
                   {"kind": "bound", "rules": [], "says": pick("这是目录的数据：每一局都成立，与搜索界限无关",
                                                               "catalogue data: it holds of every game, whatever the bound")}]
    return res


def again_in_turn(cat, q: Query) -> Result | None:
    """A triggered skill fired twice in one turn (避风一回合能发动两次吗) whose catalogue limit is once a turn (its trigger
    reads ``not used``: the server's getSkillUseCount, reset by NextTurn): *no* from the catalogue, whatever the game and
    the premises. None for any other question (a trigger with no limit stays refused: its event happening twice is not
    searched)."""
    from skillproof.model.lang import pick
    from .constraints import _ref
    atoms = atoms_of(q.claim) if q.claim is not None else []
    if q.mode != "exists" or len(atoms) != 1 or atoms[0].kind != "fires_on" or atoms[0].value != "again_in_turn":
        return None
    r = cat.skills[atoms[0].rule]
    ref = _ref(cat, r.id)
    once = pick(f"{r.name}每回合只能发动一次（目录 limit = turn：触发条件要求本回合未发动过）",
                f"{r.name} fires once a turn (catalogue limit = turn: its trigger requires it not used this turn)")
    res = Result(q, "no", headline=pick(f"否——{r.name}一回合不能发动两次：{once}",
                                        f"no — {r.name} cannot fire twice in a turn: {once}"))
    res.because = [{"kind": "rule", "rules": [ref], "says": once},
                   {"kind": "bound", "rules": [], "says": pick("这是目录的数据：每一局都成立，与搜索界限无关",
                                                               "catalogue data: it holds of every game, whatever the bound")}]
    return res


def _gone_once_used(cat, q: Query) -> str | None:
    """The skill a 再次使用 question asks of, when it is an initial skill its holder loses once it is used."""
    for a in atoms_of(q.claim):
        r = cat.skills.get(a.rule) if a.kind == "use" and a.rule else None
        if r is not None and r.consumed and r.initial:
            return r.id
    return None


def _reads_played(q: Query) -> bool:
    """The question reads the cards the player used this turn (``played`` in a 'where')."""
    atoms = atoms_of(q.claim)
    for g in q.givens:
        if g.kind in ("claim", "where"):
            atoms += atoms_of(g.claim)
    return any(a.kind == "where" and node_reads_played(a.value) for a in atoms)


def _mentions_character(rule) -> bool:
    """A condition of the rule reads which character someone is."""
    nodes = [rule.fight, rule.dying, rule.main, rule.remind, rule.draw]
    if rule.receive is not None:
        nodes += [rule.receive.must, rule.receive.cannot]
    if rule.send is not None:
        nodes.append(rule.send.rule)
    for g in rule.gives:
        nodes += [g.when, g.where]
    return any(_reads_character(n) for n in nodes if n is not None)


def _reads_character(node) -> bool:
    """The condition reads which character someone is (so characters cannot be searched one of each kind)."""
    return any((isinstance(x, E.Attr) and x.name == "character") or (isinstance(x, E.Const) and x.type == V.CHARACTER)
               for x in E.walk(node))
