"""What a check family gets to work with, and how the families are run."""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from skillproof.model import interpreter as I
from skillproof.model.catalogue import Catalogue

from . import budget as B
from . import encode as X
from . import graph as GR
from .budget import BUDGET_REASON, BudgetExceeded, budget_finding
from .findings import Finding, RuleRef, rule_ref
from .registry import INCONCLUSIVE, families
from .solve import DEFAULT_TIMEOUT_MS, Answer, Query


SHARED_LIMIT = 100             # characters up to which one shared symbolic state is fastest


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
    # time.time() after which no question is asked (--time-budget): each unasked question becomes an
    # inconclusive finding, and a family still building its encoding is stopped with what it found
    deadline: float | None = None


@dataclass
class Context:
    cat: Catalogue
    options: Options = field(default_factory=Options)
    progress: object = None      # callable(event dict) or None: {"total": n} | {"family": name} |
    #                              {"questions": 1} | {"done": name}

    def __post_init__(self):
        self._graph = None
        self.codes = X.Codes(self.cat)
        self._queries: dict = {}
        self.stats = {"queries": 0, "solver_seconds": 0.0, "unasked": 0}

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

    def representative(self, avoid: set) -> str | None:
        """A character holding none of ``avoid`` (stands for 'any other player')."""
        for c in self.cat.characters.values():
            if not set(c.skills) & avoid:
                return c.id
        return None

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
        if self.options.shared_query is None:
            return len(self.cat.characters) <= SHARED_LIMIT
        return self.options.shared_query

    def query(self, chars_me, G=None, n=None, grants=None) -> Query:
        if self.shared and grants is None:
            chars_me = list(self.cat.characters)
        G = self.options.max_grants if G is None else G
        n = self.options.max_seats if n is None else n
        key = (tuple(chars_me), G, n, tuple(grants) if grants is not None else None)
        if key not in self._queries:
            if self.over_budget():
                raise BudgetExceeded()
            self._queries[key] = Query(self.cat, n=n, G=G, chars_me=chars_me, grants=grants,
                                       timeout_ms=self.options.timeout_ms, codes=self.codes,
                                       rlimit=self.options.rlimit)
        return self._queries[key]

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
        try:
            a = q.find(goal, **kw)
        finally:
            if deadline is not None:
                q.solver.set("timeout", q.timeout_ms)
        self.stats["queries"] += 1
        self.stats["solver_seconds"] += time.perf_counter() - t
        if self.progress:
            self.progress({"questions": 1})
        return a

    def witness(self, state, question: dict, expect: dict, also=()) -> dict:
        """A witness dict; checks (always, cheaply) that the interpreter replays the claim on it."""
        w = {"state": state.to_dict(), "question": question, "expect": expect}
        if also:
            w["also"] = [{"question": q, "expect": e} for q, e in also]
        problems = replay_problems(self.cat, w)
        if problems:
            raise AssertionError(f"witness does not replay: {problems}")
        return w

    def inconclusive(self, family: str, what: str, rules, answer: Answer) -> Finding:
        why = ("--time-budget 已用完，未提问" if answer.reason == BUDGET_REASON else
               f"求解器返回 unknown：{answer.reason or 'timeout'}")
        return Finding(INCONCLUSIVE.code, family, "error", f"无法判定：{what}（{why}）",
                       key=f"inconclusive|{family}|{what}", rules=[self.ref(r) for r in rules],
                       inconclusive=True, fix=give_up_hint(self.options.timeout_ms, self.options.rlimit))

    def say(self, msg: str):
        if self.progress:
            self.progress({"family": msg})


def give_up_hint(timeout_ms: int, rlimit: int) -> str:
    """What to do when the solver gave up on a question: raise the limit that stopped it."""
    secs = f"{timeout_ms / 1000:g}"
    if rlimit:
        return (f"提高 --rlimit（现为 {rlimit}，或设为 0 不限）或 --timeout（现为 {secs} 秒），"
                f"或缩小 --max-seats / --max-grants。")
    return f"提高 --timeout（现为 {secs} 秒），或缩小 --max-seats / --max-grants。"


def replay_problems(cat, witness: dict) -> list[str]:
    """Replay a witness through the interpreter: what (if anything) does not show what it claims."""
    from skillproof.model.state import State
    st = State.from_dict(witness["state"])
    out = [f"unreachable: {w}" for w in I.reachable(cat, st)]
    for item in [{"question": witness["question"], "expect": witness["expect"]}] + witness.get("also", []):
        ans = I.decide(cat, st, item["question"])
        if not I.matches(ans, item["expect"]):
            out.append(f"{item['question']} expected {item['expect']}, interpreter says "
                       f"{ {k: ans.get(k) for k in item['expect']} }")
    return out


@dataclass
class Result:
    findings: list
    stats: dict
    families: list

    @property
    def inconclusive(self) -> bool:
        return any(f.inconclusive for f in self.findings)


def _selected(fam, only) -> bool:
    return not only or fam.name in only or any(c.code in only for c in fam.codes)


def _run_lane(cat: Catalogue, options: Options, lane: int, progress=None):
    """Run the selected families of one lane, in order, in one Context (one solver history)."""
    ctx = Context(cat, options, progress)
    out: list[Finding] = []
    ran = []
    with B.hard_stop(options.deadline):
        for fam in families():
            if fam.lane != lane or not _selected(fam, options.only):
                continue
            ctx.say(fam.name)
            if ctx.over_budget():
                found = [budget_finding(fam, started=False)]
            else:
                found = B.run_family(fam, ctx)
            if progress:
                progress({"done": fam.name})
            if options.only:
                found = [f for f in found if f.family in options.only or f.check in options.only or f.inconclusive]
            out.extend(found)
            ran.append(fam.name)
    return out, ran, dict(ctx.stats)


_FORK_STATE: dict = {}


def _lane_in_child(lane: int):
    st = _FORK_STATE
    queue = st.get("queue")
    return _run_lane(st["cat"], st["options"], lane, (lambda ev: queue.put(ev)) if queue is not None else None)


def run(cat: Catalogue, options: Options | None = None, progress=None, jobs: int = 2) -> Result:
    """Run every (selected) family; findings sorted by severity, code, meaning.

    Families are split into fixed lanes; each lane runs in a fresh process with its own Context, so the
    witnesses do not depend on ``jobs``: two lanes in parallel (``jobs=2``, default) or one after the
    other give byte-identical results. (Without fork, lanes run in this process, one after the other.)"""
    options = options or Options()
    t0 = time.perf_counter()
    selected = [f for f in families() if _selected(f, options.only)]
    lanes = sorted({f.lane for f in selected})
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
                with mpctx.Pool(max(1, min(jobs, len(lanes))), maxtasksperchild=1) as pool:
                    pending = {lane: pool.apply_async(_lane_in_child, (lane,)) for lane in lanes}
                    while not all(p.ready() for p in pending.values()):
                        next(p for p in pending.values() if not p.ready()).wait(0.1)
                        while queue is not None and not queue.empty():
                            progress(queue.get())
                        if options.deadline is not None and \
                                time.time() > options.deadline + B.HARD_STOP_GRACE + B.KILL_GRACE:
                            break           # a lane stuck past every grace: stop it, report the rest
                    stuck = not all(p.ready() for p in pending.values())
                    results = [p.get() if p.ready() else _lost_lane(lane, selected)
                               for lane, p in pending.items()]
                    while queue is not None and not stuck and not queue.empty():
                        progress(queue.get())      # (a stopped lane may have left half a message)
            finally:
                _FORK_STATE.clear()
    if not results:
        results = [_run_lane(cat, options, lane, progress) for lane in lanes]
    out: list[Finding] = []
    ran: list[str] = []
    stats = {"queries": 0, "solver_seconds": 0.0, "unasked": 0}
    for found, names, st in results:
        out.extend(found)
        ran.extend(names)
        for k in stats:
            stats[k] += st.get(k, 0)
    seen = set()
    uniq = []
    for f in sorted(out, key=lambda f: f.sort_key()):
        if f.id not in seen:
            seen.add(f.id)
            uniq.append(f)
    order = [f.name for f in families()]
    ran.sort(key=order.index)
    stats.update(seconds=time.perf_counter() - t0, families=len(ran))
    return Result(uniq, stats, ran)


def _lost_lane(lane: int, selected) -> tuple:
    """The result of a lane process stopped after the time budget: every family of it inconclusive."""
    fams = [f for f in selected if f.lane == lane]
    return [budget_finding(f, started=True) for f in fams], [f.name for f in fams], {}
