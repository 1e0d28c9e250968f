"""What a check family gets to work with, and how the families are run."""
from __future__ import annotations


import contextlib
import os
import signal
import sys
import time
from dataclasses import dataclass, field

from skillproof.model.interp.decide import decide, matches
from skillproof.model.interp.snapshot import reachable
from skillproof.model.interp.windows import at_decision
from skillproof.model.catalogue import Catalogue
from skillproof.model.signals import held

from . import budget as B
from .enc.state import Codes, PLAYS
from . import graph as GR
from .budget import BUDGET_REASON, BudgetExceeded, budget_finding
from .findings import Finding, RuleRef, rule_ref
from .mismatch import WitnessMismatch
from .registry import INCONCLUSIVE, families
from .solve import DEFAULT_TIMEOUT_MS, Answer, Query


CARD_KEEP = 2 + PLAYS         # unnamed card types of one kind a sliced state keeps: a question's two
#                              (played as / declared) and the cards the player used this turn
SHARED_LIMIT = 100             # characters up to which one shared symbolic state is fastest
CONE_LIMIT, CONE_GRANTS = 24, 6  # how far a cone's state is widened to serve the next questions too
PLAN_AHEAD = 400                # planned questions a new state is packed for (first fit, in order)


@dataclass
class Options:
    timeout_ms: int = DEFAULT_TIMEOUT_MS
    max_grants: int = 2          # grants one player can hold at once, in the symbolic state
    max_seats: int = 3           # seats in the symbolic state (bounded by [rules] seats)
    only: tuple = ()             # family names or codes to run (empty: all)
    # one symbolic state over every character, shared by all questions (fast for catalogues of the real
    # game's size); None: shared up to SHARED_LIMIT characters, else one state per conflict-graph component
    shared_query: bool | None = None
    rlimit: int = 0              # z3 resource limit per question (deterministic; 0 = none)
    turns: int = 2               # turns in a bounded trace: the rest of one turn and the next
    rulebook: bool = False       # also seat characters that exist only in the rule book (origin = "rulebook")
    # a sliced state's card types: the ones its rules name and CARD_KEEP of each interchangeable kind
    # (Context.card_codes); False keeps every card type in every state (the cross-check of the slice)
    card_slice: bool = True
    # time.time() after which no question is asked (--time-budget): each unasked question becomes an
    # inconclusive finding, and a family still building its encoding is stopped with what it found
    deadline: float | None = None
    # witnesses are games of the server: the table's events put under the timed model's witness and solved
    # (checks/realise.py); False keeps the timed model's witness (the tests of the timed model alone)
    realise: bool = True
    # a witness that is no game within the bounds makes its finding inconclusive (INC001) instead of keeping
    # the timed model's trace, marked as such (--require-games)
    require_games: bool = False


@dataclass
class Context:
    cat: Catalogue
    options: Options = field(default_factory=Options)
    progress: object = None      # callable(event dict) or None: {"total": n} | {"family": name} |
    #                              {"questions": 1} | {"done": name}

    def __post_init__(self):
        self._graph = None
        self.codes = Codes(self.cat)
        self._queries: dict = {}
        self._last_cone: dict = {}
        self._plan: dict = {}
        self._card_codes: dict = {}      # card slice (tuple of card ids) -> restricted codes
        self._cones: dict = {}           # (rules, seats) -> cone: planning reads each one many times
        self.stats = {"queries": 0, "solver_seconds": 0.0, "unasked": 0}
        self.passes: list = []       # proved promises (intents): what a report shows as passing
        self.late: list = []         # (family, work) left to the end of the lane: ``later``

    def later(self, family: str, work) -> None:
        """Leave ``work`` () -> Finding | None to the end of the lane (``_run_lane``, after every family of it, in
        the order left): the finding it returns takes the place of the family's finding with its key. For questions
        asked only where a first answer needs another (OD002's tables when the first has no game): asked before
        the lane's later families, their solver terms would move those families' witnesses (z3 numbers its terms
        in order), and asked at the end they have one history before them whatever was selected."""
        self.late.append((family, work))

    def over_budget(self) -> bool:
        d = self.options.deadline
        return d is not None and time.time() >= d

    @property
    def graph(self):
        """The conflict graph, built on first use (shared symbolic states do not need it)."""
        if self._graph is None:
            if self.over_budget():
                raise BudgetExceeded()
            self._graph = GR.build(self.cat)
        return self._graph

    # ---------------------------------------------------------------------------------- helpers
    def ref(self, ident: str, role: str = "") -> RuleRef:
        return rule_ref(self.cat, ident, role)

    def name(self, ident: str) -> str:
        return self.cat.name_of(ident)

    def card(self, cid) -> str:
        return self.cat.cards[cid].name if cid in self.cat.cards else str(cid)

    def representative(self, avoid: set, k: int = 1, skip=()) -> str | None:
        """A character holding none of ``avoid`` (stands for 'any other player'); the k-th such one."""
        for c in self.cat.characters.values():
            if not set(c.skills) & avoid and c.id not in skip and (c.origin != "rulebook" or self.options.rulebook):
                k -= 1
                if k == 0:
                    return c.id
        return None

    def plain_players(self, avoid: set, skip=()) -> list:
        """Characters holding none of ``avoid``, standing for 'any other player': the first of each kind the
        rules can tell apart by attributes alone (hidden or not, female or not) — a situation that needs
        a female or a hidden player at the table finds one — and at least two, in catalogue order."""
        out, kinds = [], set()
        for c in self.cat.characters.values():
            if set(c.skills) & avoid or c.id in skip or (c.origin == "rulebook" and not self.options.rulebook):
                continue
            if (c.hidden, c.female) not in kinds or len(out) < 2:
                kinds.add((c.hidden, c.female))
                out.append(c.id)
        return out

    @property
    def symmetry(self):
        if getattr(self, "_symmetry", None) is None:
            from skillproof.model.symmetry import Symmetry
            self._symmetry = Symmetry(self.cat)
        return self._symmetry

    def cone(self, rules, n: int | None = None) -> tuple[list, list]:
        """``_cone``, computed once per set of rules and seats (the lists returned are shared: do not
        change them)."""
        key = (frozenset(rules), n)
        got = self._cones.get(key)
        if got is None:
            got = self._cones[key] = self._cone(key[0], n)
        return got

    def _cone(self, rules, n: int | None = None) -> tuple[list, list]:
        """The cone of influence of a question about ``rules``: the characters that hold them or hand
        them out, the holders of invalidation (of characters interchangeable by ``model.symmetry``, only as
        many as there are seats: more cannot sit at one table), two plain characters for 'any other
        player', and the grants among them. A question's symbolic state holds only these, so its cost does
        not grow with the catalogue. A witness found there is a real trace of the whole
        game; a question about rules outside the cone is not asked in it."""
        cat = self.cat
        rules = {r for r in rules if r in cat.skills}
        grants = sorted(r for r in rules if cat.skills[r].is_grant and "InvalidSkill" not in cat.skills[r].closure)
        givers = {g.giver for r in rules if cat.skills[r].is_grant for g in cat.sites(r) if not g.giver_is_card}
        inv_givers = {g.giver for g in cat.invalidation_sites() if not g.giver_is_card}
        owners = {c for r in (rules - set(grants)) | givers for c in cat.owners(r)}
        order = list(cat.characters)
        out = sorted(owners, key=order.index)
        # holders of invalidation: of interchangeable ones (model.symmetry) as many as can sit at the table
        inv_owners = sorted({c for r in inv_givers for c in cat.owners(r)} - owners, key=order.index)
        seats = max(n or 0, self.options.max_seats)
        out = sorted(out + self.symmetry.thin(inv_owners, seats, kept=out), key=order.index)
        # characters the rules name (白月光 wins with a face-up 小九 at the table): without them at the table
        # the situation could not arise, and its impossibility would be one of the slice, not of the game
        named = self.symmetry.named_characters(rules | set(grants) | givers |
                                               {s for c in out for s in cat.characters[c].skills})
        out = sorted(set(out) | named, key=order.index)
        # the grants the cone's own characters hand out (a skill's ban on its holder's other skill, 伪装 after
        # 自禁): without them a give of the slice would be impossible that the game allows
        grants = sorted(set(grants) | self._handed_out({s for c in out for s in cat.characters[c].skills}))
        givers |= inv_givers
        avoid = rules | givers
        out += self.plain_players(avoid, skip=set(out))
        return out or order[:1], grants

    def _handed_out(self, skills: set) -> set:
        """The grants (not InvalidSkill ones: the invalidation holders are in every cone) that ``skills`` hand
        out, and the grants those hand out in turn."""
        cat = self.cat
        out: set = set()
        todo = [s for s in skills if s in cat.skills]
        while todo:
            for g in cat.skills[todo.pop()].gives:
                r = cat.skills.get(g.grant)
                if r is not None and g.grant not in out and "InvalidSkill" not in r.closure:
                    out.add(g.grant)
                    todo.append(g.grant)
        return out

    def query_for(self, rules, G=None, n=None, lost=False, others_invalidated=False) -> Query:
        """A question about ``rules``, over the symbolic state of their cone (``cone``) — or, for a
        catalogue of the real game's size (``shared``), over one state holding every character and grant,
        built once and faster to share than to slice."""
        if self.shared:
            return self.query(self.playable(), G=G, n=n, lost=lost, inv_all=others_invalidated)
        chars, grants = self.cone(rules, n)
        # a symbolic state already built for a wider cone answers this question too (its extra characters
        # and grants only widen what may happen): reuse it instead of building another
        G = self.options.max_grants if G is None else G
        n = self.options.max_seats if n is None else n
        want_c, want_g = set(chars), set(grants)
        for key, q in self._queries.items():
            kc, kG, kn, kg, ko, kl, ki = key
            if (kG, kn, kl, ki) == (G, n, lost, others_invalidated) and kg is not None and ko == kc \
                    and want_c <= q.S.chars_set and want_g <= q.S.grant_set:
                return q
        shape = (G, n, lost, others_invalidated)
        # the questions the family said come next (``plan``): build one state wide enough for as many of
        # them as fit, so they reuse it instead of each building its own
        planned = self._plan.get(shape)
        if planned is not None and frozenset(rules) in planned[1]:
            ahead = (self.cone(rs, n) for rs in planned[0][planned[1][frozenset(rules)] + 1:][:PLAN_AHEAD])
            self._last_cone[shape] = (chars, grants)
            chars, grants = self._widened(chars, grants, ahead, always=True, limit=planned[2], first_fit=True)
        else:
            # or build the union with the last state built, while it stays small: the families ask about
            # related rules one after another, so the next cones fall inside it
            last = self._last_cone.get(shape)
            chars, grants = self._widened(chars, grants, [last] if last is not None else [])
            self._last_cone[shape] = (chars, grants)
        return self.query(chars, G=G, n=n, grants=grants, chars_other=chars, lost=lost, inv_all=others_invalidated)

    def _widened(self, chars, grants, cones, always: bool = False, limit=None,
                 first_fit: bool = False) -> tuple[list, list]:
        """``chars`` and ``grants`` joined with each of ``cones`` (pairs of characters, grants) in turn, as
        long as the union stays within ``limit`` (characters, grants; default CONE_LIMIT, CONE_GRANTS); in
        catalogue order (when nothing joins, as given unless ``always``). ``first_fit``: a cone that would
        not fit is passed over and the later ones still tried (packing: a later question whose cone fits
        reuses this state instead of building its own)."""
        max_c, max_g = limit or (CONE_LIMIT, CONE_GRANTS)
        uc, ug = list(chars), set(grants)
        seen = set(uc)
        for c2, g2 in cones:
            new_c = [c for c in c2 if c not in seen]
            ng = ug | set(g2)
            if len(uc) + len(new_c) > max_c or len(ng) > max_g:
                if first_fit:
                    continue
                break
            uc, ug = uc + new_c, ng
            seen.update(new_c)
        if not always and uc == list(chars) and ug == set(grants):
            return chars, grants
        order = {c: i for i, c in enumerate(self.cat.characters)}
        return sorted(uc, key=order.__getitem__), sorted(ug)

    def plan(self, rule_sets, G=None, n=None, lost=False, others_invalidated=False, limit=None) -> None:
        """Say which questions come next, in order (each a set of rules, as ``query_for`` takes them, with
        the same keywords): when one of them needs a new symbolic state, it is built over the cones of the
        following ones too, as long as it stays within CONE_LIMIT characters and CONE_GRANTS grants. A wider
        state is as sound as the narrow one (its extra characters and grants only widen what may happen:
        a witness is still a real trace, and an impossibility there is one in the narrow cone too); the
        plan is part of the family, so the results stay deterministic. ``limit``: (characters, grants) instead
        of CONE_LIMIT, CONE_GRANTS, for a family whose questions are cheaper on smaller states than shared."""
        if self.shared:
            return
        G = self.options.max_grants if G is None else G
        n = self.options.max_seats if n is None else n
        seq = [frozenset(r for r in rs) for rs in rule_sets]
        first: dict = {}
        for i, rs in enumerate(seq):
            first.setdefault(rs, i)
        self._plan[(G, n, lost, others_invalidated)] = (seq, first, limit)

    def component(self, rules) -> set:
        """The rules of the conflict-graph components that hold ``rules``."""
        out: set = set()
        for r in rules:
            if r not in out:
                out |= {n for n in GR.component_of(self.graph, r) if n in self.cat.skills}
        return out

    def chars_for(self, rules: set, plain: bool = True) -> list[str]:
        """Characters that may be 'the player': owners of the rules of ``rules``' components (and of the
        skills giving them) plus one representative who owns none of them."""
        if self.shared:
            return list(self.cat.characters)
        rules = self.component(rules)
        owners = {c for r in rules for c in self.cat.owners(r)}
        for r in rules:             # a grant may reach only its giver ('self'): its givers' owners count too
            if r in self.cat.skills and self.cat.skills[r].is_grant:
                for g in self.cat.sites(r):
                    if not g.giver_is_card:
                        owners.update(self.cat.owners(g.giver))
        out = sorted(owners, key=list(self.cat.characters).index)
        if plain:
            rep = self.representative(set(rules))
            if rep and rep not in out:
                out.append(rep)
        return out or list(self.cat.characters)[:1]

    @property
    def shared(self) -> bool:
        return is_shared(self.cat, self.options)

    def playable(self) -> list:
        """The characters a game of the server can seat (rule-book-only ones with Options.rulebook)."""
        return [c for c, ch in self.cat.characters.items() if self.options.rulebook or ch.origin != "rulebook"] \
            or list(self.cat.characters)

    def query(self, chars_me, G=None, n=None, grants=None, chars_other=None, lost=False, inv_all=True) -> Query:
        ok = set(self.playable())
        if self.shared and grants is None:
            chars_me = self.playable()
        chars_me = [c for c in chars_me if c in ok] or chars_me
        if chars_other is None:
            chars_other = self.playable()
        chars_other = [c for c in chars_other if c in ok] or chars_other
        G = self.options.max_grants if G is None else G
        n = self.options.max_seats if n is None else n
        key = (tuple(chars_me), G, n, tuple(grants) if grants is not None else None,
               tuple(chars_other) if chars_other is not None else None, lost, inv_all)
        if key not in self._queries:
            if self.over_budget():
                raise BudgetExceeded()
            codes = self.codes if grants is None else self.card_codes(chars_me, chars_other, grants)
            self._queries[key] = Query(self.cat, n=n, G=G, chars_me=chars_me, grants=grants,
                                       chars_other=chars_other, timeout_ms=self.options.timeout_ms,
                                       codes=codes, rlimit=self.options.rlimit, turns=self.options.turns,
                                       lost=lost, inv_seats=None if inv_all else (0,))
        return self._queries[key]

    def card_codes(self, chars_me, chars_other, grants) -> Codes:
        """The codes of a sliced state (a cone's characters and grants): its card types cut to those its rules
        name — the characters' skills, its grants and the invalidations — and CARD_KEEP of each kind of the
        others (``Symmetry.card_slice``: unnamed card types of one kind are interchangeable), so the card
        domain, like the cone, does not grow with the catalogue. Every witness is still a real trace (its
        card types are real ones); a situation that needs more than CARD_KEEP unnamed card types of one kind
        at once is what the slice could miss, and a card type's own identity is read only by rules that
        name it. Cross-checked against unsliced states (tests/test_symmetry.py)."""
        if not self.options.card_slice or self.shared:      # one state shares every card type anyway
            return self.codes
        cat = self.cat
        rules = {s for c in list(chars_me) + list(chars_other) for s in cat.characters[c].skills}
        rules |= set(grants) | {g.grant for g in cat.invalidation_sites()}
        cards = self.symmetry.card_slice(rules, CARD_KEEP)
        if len(cards) == len(self.codes.cards):
            return self.codes
        key = tuple(cards)
        if key not in self._card_codes:
            self._card_codes[key] = self.codes.restricted(cards)
        return self._card_codes[key]

    def find(self, q: Query, goal, **kw) -> Answer:
        deadline = self.options.deadline
        if deadline is not None:
            left_ms = int((deadline - time.time()) * 1000)
            if left_ms <= 0:              # not asked: the family reports it as inconclusive
                self.stats["unasked"] += 1
                return Answer("unknown", reason=BUDGET_REASON)
            if left_ms < q.timeout_ms:
                q.solver.set("timeout", left_ms)
        t = time.perf_counter()
        cut = deadline is not None and left_ms < q.timeout_ms     # the budget, not --timeout, bounds this call
        try:
            a = q.find(goal, **kw)
        finally:
            if deadline is not None:
                q.solver.set("timeout", q.timeout_ms)
        if cut and a.status == "unknown" and a.reason in ("timeout", "canceled") and time.time() >= deadline - 0.05:
            a = Answer("unknown", reason=BUDGET_REASON)   # stopped by the spent --time-budget (raise it, not --timeout)
        self.stats["queries"] += 1
        self.stats["solver_seconds"] += time.perf_counter() - t
        if self.progress:
            self.progress({"questions": 1})
        return a

    def witness(self, state, question: dict, expect: dict, also=()) -> dict:
        """A witness dict; checks (always, cheaply) that the interpreter replays the claim on it. With
        ``options.realise`` the timed model's trace is made a game of the server (checks/realise.py): the
        witness is that game, ending in the same table with the same answers; when no game is found within the
        bounds the witness says so (``unrealised``) and ``budget.run_family`` reports the finding inconclusive."""
        w = {"state": state.to_dict(), "question": question, "expect": expect}
        if state.trace is not None:
            w["trace"] = state.trace.to_dict()
        if also:
            w["also"] = [{"question": q, "expect": e} for q, e in also]
        problems = replay_problems(self.cat, w)
        if problems:
            raise WitnessMismatch(question, expect, problems)
        if self.options.realise and state.trace is not None:
            return self._made_game(w, state, [(question, expect)] + list(also))
        return w

    def _made_game(self, w: dict, state, questions) -> dict:
        """``w`` with the game of the server under its timed trace (realise.game_witness, the one driver ``ask``
        uses too): the game's trace and final state, replayed by the interpreter (a game it refuses is a twins'
        disagreement) — or with ``unrealised`` (why none was found). Memoised: families meet the same skeleton
        with the same questions. (Asking the shared solver for another skeleton when one has no game was tried and
        left out: what it returns depends on what that solver learnt before, so witnesses would vary by the
        families selected.)"""
        import json
        from .realise import TwinsDisagree, game_witness
        key = json.dumps([state.trace.to_dict(), state.to_dict(), questions], sort_keys=True, default=str)
        memo = self.__dict__.setdefault("_realised", {})
        if key not in memo:
            t, c = time.perf_counter(), time.process_time()
            try:
                memo[key] = game_witness(self.cat, {"trace": state.trace.to_dict()}, final=state, questions=questions)[0]
            except TwinsDisagree as e:
                raise WitnessMismatch(questions[0][0], questions[0][1], e.problems)
            finally:
                self.stats["realise_seconds"] = self.stats.get("realise_seconds", 0.0) + time.perf_counter() - t
                self.stats["realise_cpu"] = self.stats.get("realise_cpu", 0.0) + time.process_time() - c
        made = memo[key]
        if "unrealised" in made:
            w["unrealised"] = made["unrealised"]
            return w
        # no replay here: realise ran the game in the interpreter and took it only legal, with every one of these
        # questions (the memo's key) asked at its decision moment and answered as claimed — replay_problems' test
        w["trace"], w["state"] = made["trace"], made["state"]
        return w

    def game_witness(self, w: dict) -> dict:
        """A witness dict made elsewhere (an intent's counterexample: checks/ask) whose ``trace`` is the timed
        model's, made a game of the server as ``witness`` makes its own. A witness that is already a game, has no
        trace, or runs with ``options.realise`` off is returned as it is."""
        if not self.options.realise or not isinstance(w, dict) or "trace" not in w or w["trace"].get("table"):
            return w
        from skillproof.model.interp import trace as TR
        from skillproof.model.interp.play import run as play_run
        from .realise import witness_questions
        trace = TR.Trace.from_dict(w["trace"])
        state = play_run(self.cat, trace).state
        state.trace = trace
        return self._made_game(dict(w), state, witness_questions(w))

    def inconclusive(self, family: str, what: str, rules, answer: Answer, what_en: str = "") -> Finding:
        """An INC001 finding; ``what`` (Chinese) keys it, ``what_en`` is the same question in English (the
        rules' names when a family gives none)."""
        budget = answer.reason == BUDGET_REASON
        why = "--time-budget 已用完，未提问" if budget else f"求解器返回 unknown：{answer.reason or 'timeout'}"
        why_en = ("--time-budget ran out before it was asked" if budget
                  else f"the solver answered unknown: {answer.reason or 'timeout'}")
        what_en = what_en or "a question about " + ", ".join(self.name(r) for r in rules)
        return Finding(INCONCLUSIVE.code, family, "error", f"无法判定：{what}（{why}）",
                       key=f"inconclusive|{family}|{what}", rules=[self.ref(r) for r in rules],
                       inconclusive=True, fix=give_up_hint(self.options.timeout_ms, self.options.rlimit),
                       message_en=f"cannot decide: {what_en} ({why_en})",
                       fix_en=give_up_hint(self.options.timeout_ms, self.options.rlimit, "en"))

    def say(self, msg: str):
        if self.progress:
            self.progress({"family": msg})


def give_up_hint(timeout_ms: int, rlimit: int, lang: str = "zh") -> str:
    """What to do when the solver gave up on a question: raise the limit that stopped it."""
    secs = f"{timeout_ms / 1000:g}"
    if lang == "en":
        if rlimit:
            return (f"raise --rlimit (now {rlimit}, or 0 for none) or --timeout (now {secs} s), or lower "
                    f"--max-seats / --max-grants.")
        return f"raise --timeout (now {secs} s), or lower --max-seats / --max-grants."
    if rlimit:
        return (f"提高 --rlimit（现为 {rlimit}，或设为 0 不限）或 --timeout（现为 {secs} 秒），"
                f"或缩小 --max-seats / --max-grants。")
    return f"提高 --timeout（现为 {secs} 秒），或缩小 --max-seats / --max-grants。"


def replay_problems(cat, witness: dict) -> list:
    """Replay a witness through the interpreter: what (if anything) does not show what it claims. Each is a
    ``model.reason.Reason`` (a str in the run's language that keeps both texts): an illegal event of its trace
    (or why its untimed state is not reachable), a question asked away from its decision moment, an answer
    other than the one claimed — in words, with the catalogue's names."""
    from skillproof.model import narrate as N
    from skillproof.model.interp import trace as TR
    from skillproof.model.interp.play import run as play_run
    from skillproof.model.reason import Reason, at_event, both, during
    from skillproof.model.state import State
    if "trace" in witness:
        trace = TR.Trace.from_dict(witness["trace"])
        run = play_run(cat, trace)
        st = run.state
        out = [Reason(f"经过不合法：{w.zh}", f"illegal trace: {w.en}")
               for w in (at_event(k, len(trace.events), why) for k, why in run.errors)]
    else:                       # an untimed state (older scenario files)
        st = State.from_dict(witness["state"])
        out = [Reason(f"局面不可达：{w.zh}", f"unreachable: {w.en}") for w in reachable(cat, st)]
    for item in [{"question": witness["question"], "expect": witness["expect"]}] + witness.get("also", []):
        q = item["question"]
        title = both(N.question_title, cat, q)
        if not at_decision(st, q.get("decision", ""), q.get("seat", 0)):
            now = during(st.window)
            out.append(Reason(f"{title.zh}：不是在其判定时机提出的（经过停在{now.zh}）",
                              f"{title.en}: not asked at its decision moment (the trace ends {now.en})"))
        ans = decide(cat, st, q)
        if not matches(ans, item["expect"]):
            keys = list(item["expect"])
            claimed, got = both(N.answer_text, cat, item["expect"]), both(N.answer_text, cat, ans, keys)
            out.append(Reason(f"{title.zh}：所述为{claimed.zh}，解释器得出{got.zh}",
                              f"{title.en}: expected {claimed.en}, interpreter says {got.en}"))
    return out


@dataclass
class Result:
    findings: list
    stats: dict
    families: list
    passes: list = field(default_factory=list)     # proved intents ({"intent", "claim", …}), in id order

    @property
    def inconclusive(self) -> bool:
        return any(f.inconclusive for f in self.findings)


def _selected(fam, only) -> bool:
    return not only or fam.name in only or any(c.code in only for c in fam.codes)


def is_shared(cat: Catalogue, options: Options) -> bool:
    """Whether the questions share one symbolic state (a catalogue of the real game's size) or are sliced."""
    if options.shared_query is None:
        return len(cat.characters) <= SHARED_LIMIT
    return options.shared_query


def lane_families(cat: Catalogue, options: Options, lane) -> list:
    """The families one lane runs, in order, each with whether it was selected: over one shared state (where the
    families of a lane share one solver, so a witness depends on the questions asked before it) every family of
    the lane up to the last selected one runs, the ones not selected only for their questions' sake — so a
    finding's witness is the same whatever ``--select`` says (and `explain`, which runs only the finding's family,
    tells the witness `check` printed); over slices each family is a lane of its own."""
    shared = is_shared(cat, options)
    fams = [f for f in families() if f.lane_for(shared) == lane]
    chosen = [f for f in fams if _selected(f, options.only)]
    if not chosen:
        return []
    if shared and all(f.solverless for f in chosen):     # no history to share: they run alone
        return [(f, True) for f in chosen]
    upto = fams.index(chosen[-1]) + 1 if shared and not any(f.defers for f in chosen) else len(fams)
    return [(f, _selected(f, options.only)) for f in fams[:upto] if shared or _selected(f, options.only)]


def _run_lane(cat: Catalogue, options: Options, lane: int, progress=None):
    """Run the families of one lane (``lane_families``), in order, in one Context (one solver history); the
    findings, proved intents and questions of the selected ones."""
    import gc
    from .terms import fresh_own_context
    cpu0 = time.process_time()
    fresh_own_context()              # the lane's witnesses are made games in a z3 context of its own (realise_run)
    ctx = Context(cat, options, None)
    out: list[Finding] = []
    ran = []
    asked, passes = 0, []

    def one(fam, selected) -> None:
        nonlocal asked, passes
        ctx.progress = progress if selected else None
        q0, p0 = ctx.stats["queries"], len(ctx.passes)
        ctx.say(fam.name)
        if ctx.over_budget():
            found = [budget_finding(fam, started=False)] if selected else []
        else:
            found = B.run_family(fam, ctx)
        if not gc.isenabled():       # a lane process (_fresh_collector): collect at the same point every run
            gc.collect()
        if not selected:             # asked for the history only: its findings are not the run's
            return
        asked += ctx.stats["queries"] - q0
        passes += ctx.passes[p0:]
        if progress:
            progress({"done": fam.name})
        if options.only:
            found = [f for f in found if f.family in options.only or f.check in options.only or f.inconclusive]
        out.extend(found)
        ran.append(fam.name)

    fams = lane_families(cat, options, lane)
    with B.hard_stop(options.deadline):
        for fam, selected in fams:
            if not fam.solverless:
                one(fam, selected)
        q0 = ctx.stats["queries"]
        _run_late(ctx, out, set(ran))
        asked += ctx.stats["queries"] - q0
        for fam, selected in fams:   # after the deferred work: they move nothing the lane's solver answers
            if fam.solverless:
                one(fam, selected)
    # passes: the intents proved; lanes_cpu: this lane's CPU seconds (benchmarks/check_bench.py: the lanes' balance)
    return out, ran, dict(ctx.stats, queries=asked, passes=passes, lanes_cpu=[time.process_time() - cpu0])


def _run_late(ctx, out: list, selected: set) -> None:
    """The work the lane's families left to its end (``Context.later``), in the order left: each finding it returns
    replaces the selected family's finding with its key in ``out`` (an unrealised one with the same rule)."""
    late, ctx.late = ctx.late, []
    for family, work in late:
        if ctx.over_budget():
            break
        try:
            new = work()
        except WitnessMismatch as e:       # the two back-ends disagree: the internal-error finding, as run_family's
            if family in selected:
                from .mismatch import mismatch_finding
                out.append(mismatch_finding(next(f for f in families() if f.name == family), e, ctx.cat))
            continue
        except BudgetExceeded:
            break
        if new is None or family not in selected:
            continue
        if getattr(ctx.options, "require_games", False) and new.witness and new.witness.get("unrealised") is not None:
            new = B.unrealised_finding(new)
        for i, f in enumerate(out):
            if f.family == family and f.key in (new.key, f"unrealised|{new.key}"):
                out[i] = new
                break


_FORK_STATE: dict = {}


def _lane_process(lane: int, conn, parent: int | None = None) -> None:
    """A lane's process: its findings (or the exception that stopped it) sent back through ``conn``."""
    _worker_signals()
    _die_with_parent(parent)
    _fresh_collector()
    try:
        out = (True, _lane_in_child(lane))
    except BaseException as e:                  # noqa: BLE001 — re-raised in the main process, as a pool would
        out = (False, e)
    try:
        conn.send(out)
    except Exception as e:                      # noqa: BLE001 — an exception that does not pickle
        conn.send((False, RuntimeError(repr(e))))
    conn.close()


def _run_forked(mpctx, lanes: list, jobs: int, queue, progress, options, selected, shared) -> list:
    """Each lane in a process of its own, at most ``jobs`` at a time, every one forked by this (the main) thread:
    a process forked by a helper thread — as a pool's worker handler forks the replacement of a finished worker
    — can inherit a lock another thread held and never start. Results in ``lanes``' order; none left behind,
    however this ends (a signal, an error, the time budget: the lanes still running are stopped)."""
    from multiprocessing.connection import wait
    todo, running, results = list(lanes), {}, {}
    try:
        while todo or running:
            while todo and len(running) < jobs:
                lane = todo.pop(0)
                r, w = mpctx.Pipe(duplex=False)
                proc = mpctx.Process(target=_lane_process, args=(lane, w, os.getpid()), daemon=True)
                with _signals_blocked(), held():    # the lane starts with them blocked (_worker_signals), and
                    proc.start()                    # is in `running` (stopped below) once it has started
                    running[lane] = (proc, r)
                w.close()
            wait([r for _, r in running.values()] + [p.sentinel for p, _ in running.values()], timeout=0.1)
            while queue is not None and not queue.empty():
                progress(queue.get())
            for lane, (proc, r) in list(running.items()):
                if r.poll():
                    try:
                        ok, val = r.recv()
                    except EOFError:
                        ok, val = True, _lost_lane(lane, selected, shared)
                    proc.join()
                    r.close()
                    del running[lane]
                    if not ok:
                        raise val
                    results[lane] = val
                elif not proc.is_alive():           # ended without a word (killed): its lane is lost
                    r.close()
                    del running[lane]
                    results[lane] = _lost_lane(lane, selected, shared)
            if options.deadline is not None and running and \
                    time.time() > options.deadline + B.HARD_STOP_GRACE + B.KILL_GRACE:
                for lane in list(running) + todo:   # a lane stuck past every grace: stop it, report the rest
                    results[lane] = _lost_lane(lane, selected, shared)
                break
        while queue is not None and not running and not queue.empty():
            progress(queue.get())
    finally:
        with held():                                # a second signal does not cut this short
            for proc, r in running.values():
                proc.terminate()
            for proc, r in running.values():
                proc.join(2)
                if proc.is_alive():
                    proc.kill()
                    proc.join()
                r.close()
    return [results[lane] for lane in lanes if lane in results]


_BLOCKED = (signal.SIGINT, signal.SIGTERM)


@contextlib.contextmanager
def _signals_blocked():
    """SIGINT and SIGTERM blocked in this thread: a lane forked now starts with them blocked, and takes them only
    once it ignores SIGINT and dies of SIGTERM (``_worker_signals``) — one that came between the fork and then
    raised in the lane, which printed its traceback. A signal sent to this process meanwhile is handled after."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _BLOCKED)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _worker_signals():
    """A lane process: Ctrl-C is the main process's to handle (it stops the lanes), SIGTERM ends it at once —
    no worker prints a traceback (model.signals); z3 does not take Ctrl-C either (checks/z3signals.py), and the
    main process's signal watcher is not told of the lane's signals. The lane was forked with both signals
    blocked (``_signals_blocked``): they are taken from here on, a SIGINT sent meanwhile dropped, a SIGTERM
    ending it now."""
    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _BLOCKED)


def _die_with_parent(parent: int | None) -> None:
    """A lane never outlives the main process. The main process stops its lanes on SIGINT and SIGTERM
    (``_run_forked``), but a signal it does not handle (SIGHUP: the terminal or ssh session closed; SIGKILL: a CI
    runner's grace spent, the OOM killer) ends it at once: its lanes, blocked writing progress into a pipe
    nobody reads any more, stayed forever (issue 27). On Linux the kernel sends the lane SIGKILL when the process
    that forked it ends (prctl PR_SET_PDEATHSIG); a parent that ended before that was set is seen by its pid."""
    if parent is None or not sys.platform.startswith("linux"):
        return
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)          # PR_SET_PDEATHSIG
    except (OSError, AttributeError):                   # no prctl: the main process's own stopping is all there is
        return
    if os.getppid() != parent:
        os._exit(1)


def _fresh_collector() -> None:
    """A lane collects cyclic garbage only between its families (``_run_lane``), never at points the allocator
    picks. A lane's witnesses are z3's models, and z3 hands the ids of freed terms (Z3_dec_ref, called when Python
    frees a term) to new ones, which changes the order its heuristics visit terms in: with the collector on, the
    parent's allocation history (what ran before the fork) and the allocator's thresholds decided when the lane's
    terms were freed, so the same questions gave other models — two runs in one process, or `check` and
    `explain`, told other games for one finding id (tests/test_witness_same.py). What the parent made before the
    fork is frozen (never collected here: a freeze is instant, where collecting a large parent's heap — a test
    process's — took seconds), so the lane's collections see only its own objects."""
    import gc
    gc.disable()
    gc.freeze()


def _lane_in_child(lane: int):
    st = _FORK_STATE
    queue = st.get("queue")
    return _run_lane(st["cat"], st["options"], lane, (lambda ev: queue.put(ev)) if queue is not None else None)


def lanes_of(cat: Catalogue, options: Options) -> list:
    """The lanes the selected families run in (``Family.lane_for``), the heaviest (``Family.weight``) first."""
    shared = is_shared(cat, options)
    weight: dict = {}
    for f in families():
        if _selected(f, options.only):
            weight[f.lane_for(shared)] = weight.get(f.lane_for(shared), 0.0) + f.weight
    return sorted(weight, key=lambda lane: (-weight[lane], str(lane)))


def run(cat: Catalogue, options: Options | None = None, progress=None, jobs: int = 2) -> Result:
    """Run every (selected) family; findings sorted by severity, code, meaning.

    Families are split into fixed lanes (``Family.lane_for``: two over one shared state, one per family over
    slices); each lane runs in a fresh process with its own Context, so the witnesses do not depend on
    ``jobs`` or on which lane starts first: lanes in parallel (``jobs=2``, default; the heaviest by
    ``Family.weight`` started first) or one after the other give byte-identical results. (Without fork,
    lanes run in this process, one after the other.)"""
    options = options or Options()
    t0 = time.perf_counter()
    selected = [f for f in families() if _selected(f, options.only)]
    shared = is_shared(cat, options)
    lanes = lanes_of(cat, options)
    if progress:
        progress({"total": len(selected)})
    results = []
    if lanes:
        import multiprocessing as mp
        try:
            mpctx = mp.get_context("fork")
        except ValueError:          # no fork on this platform: run the lanes one after the other
            mpctx = None
        if mpctx is not None:
            queue = mpctx.SimpleQueue() if progress else None
            _FORK_STATE.update(cat=cat, options=options, queue=queue)
            try:
                # one fresh process per lane: z3's global state starts clean, so results do not depend on
                # jobs or on what ran before
                results = _run_forked(mpctx, lanes, max(1, min(jobs, len(lanes))), queue, progress, options,
                                      selected, shared)
            finally:
                _FORK_STATE.clear()
    if not results:
        results = [_run_lane(cat, options, lane, progress) for lane in lanes]
    out: list[Finding] = []
    ran: list[str] = []
    passes: list = []
    # realise_cpu: CPU seconds spent making witnesses games (checks/realise.py); lanes_cpu: each lane's CPU seconds
    stats = {"queries": 0, "solver_seconds": 0.0, "unasked": 0, "realise_cpu": 0.0, "lanes_cpu": []}
    for found, names, st in results:
        out.extend(found)
        ran.extend(names)
        passes.extend(st.get("passes", []))
        for k in stats:
            stats[k] += st.get(k, type(stats[k])())
    from .intents import link_intended
    out = link_intended(cat, out)           # designed behaviour an intent documents: a note, linked to it
    seen = set()
    uniq = []
    for f in sorted(out, key=lambda f: f.sort_key()):
        if f.id not in seen:
            seen.add(f.id)
            uniq.append(f)
    order = [f.name for f in families()]
    ran.sort(key=order.index)
    stats.update(seconds=time.perf_counter() - t0, families=len(ran))
    return Result(uniq, stats, ran, sorted(passes, key=lambda p: p["intent"]))


def _lost_lane(lane: int, selected, shared: bool) -> tuple:
    """The result of a lane process stopped after the time budget: every family of it inconclusive."""
    fams = [f for f in selected if f.lane_for(shared) == lane]
    return [budget_finding(f, started=True) for f in fams], [f.name for f in fams], {}
