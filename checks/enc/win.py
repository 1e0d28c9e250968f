"""Who wins, symbolically: twin of ``model/interp/win.py`` (server ProcessFsm.checkWin, CheckKillerWin.kt,
Game.checkOnlyOneAliveIdentityPlayers, NextTurn.checkDisturberWin, Game.start's deal).

A check's result is ``(ends, declared, winners)``: whether the game ends now (the interpreter's "not None") and the
two sets as a value per seat. The WinSkills and ChangeGameResultSkills of the table are folded by ``enc_result``
(twin of interp/result.py ``game_result``), written as the question encoder's ``enc_result_pass`` folds effects
but over the game's concrete skill lists with folding conditions (cond.py): that encoder, reused at first, built
about 5,000 solver terms per result pass on a ground table — three passes at every process node — and made the
pinned check ten times slower; its free ``pick`` is here the first matching seat from the turn player, as the
interpreter picks, and a skill's parameters and ``used`` are read (the question encoder leaves them out).
"""
from __future__ import annotations

import z3

from skillproof.model import vocab as V
from skillproof.model.interp.win import TASKS          # the vocabulary of secret tasks (data), shared

from .table import SymTable, held
from .val import AND, EQ, GE, ITE, LE, LT, NE, NONE, NOT, OR, SUM
from .cond import Env, fcompile, params_of
from .view import codes_of, live_kinds_of

IDENT = {c: i for i, c in enumerate(V.COLOURS)}
RED, BLUE, BLACK, NOID = IDENT["red"], IDENT["blue"], IDENT["black"], IDENT["none"]
TASK = {t: i for i, t in enumerate(TASKS)}
UNKNOWN = 99                       # an identity or task no deal has (a template's typo stays illegal)


def ident_code(v) -> int:
    return IDENT.get(v, UNKNOWN) if isinstance(v, str) else UNKNOWN


def task_code(v) -> int:
    if v is None:
        return NONE
    return TASK.get(v, UNKNOWN) if isinstance(v, str) else UNKNOWN


def _task(tab: SymTable, task: str, just_dead=(), need_alive: bool = False):
    """Twin of win._task: (there is one, the first such seat): a black player in the game with this secret task
    (and alive or just dead, if ``need_alive``)."""
    found, who = False, NONE
    for i in range(tab.n - 1, -1, -1):
        s = tab.seats[i]
        c = AND(NOT(s.lost), EQ(s.identity, BLACK), EQ(s.task, TASK[task]),
                OR(s.alive, i in just_dead) if need_alive else True)
        found = OR(c, found)
        who = ITE(c, i, who)
    return found, who


def enc_result(cat, tab: SymTable, kind: str, declared: list, winners: list, tag: str = "", seating=None):
    """Twin of interp.result.game_result over the table (kind 'win': the WinSkills, 'result': the
    ChangeGameResultSkills): round the table from the turn player, each seat's skills in list order, a dead owner's
    initial skills skipped (WinSkill.kt checkWin, ChangeGameResultSkill.kt changeGameResult). Written as the
    question encoder's ``enc_result_pass`` folds its effects — each effect's set operations read the sets as they
    stood before it — over the game's concrete skill lists, with a ``pick`` taking the first matching seat from the
    turn player as the interpreter does; conditions fold (cond.py), so a ground step costs no solver terms.
    ``seating``: the seats in their order round the table (interp.result.table_order's), by default as they sit."""
    kname = "WinSkill" if kind == "win" else "ChangeGameResultSkill"
    D, W = list(declared), list(winners)
    n = tab.n
    if seating is not None and 0 <= tab.turn < n and sorted(seating) == list(range(n)):
        k = list(seating).index(tab.turn)
        order = list(seating[k:]) + list(seating[:k])
    else:
        order = [(tab.turn + d) % n for d in range(n)] if 0 <= tab.turn < n else list(range(n))
    codes = codes_of(cat)
    for seat in order:
        s = tab.seats[seat]
        for inst in s.skills:
            if kname not in live_kinds_of(cat, inst):
                continue
            rule = cat.skills[inst.rule]
            guard = AND(held(inst), OR(s.alive, not rule.initial))    # (held: a consumed copy may be gone)
            if guard is False:
                continue
            params = params_of(cat, codes, inst)
            for eff in getattr(rule, kind):
                D, W = _effect(cat, codes, tab, seat, params, inst.used, eff, guard, D, W, order)
    return D, W


def _effect(cat, codes, tab, seat, params, used, eff, guard, D, W, order):
    """Twin of result.apply_effect."""
    n = tab.n

    def env(bound, D, W):
        return Env(cat, codes, tab, {"self": seat, **bound}, params, {}, used, W, D)
    bindings = [({}, True)]
    if eff.each is not None:
        e0 = env({}, D, W)
        bindings = [({eff.each.var: p}, fcompile(eff.each.body, e0.bind(eff.each.var, p))) for p in order]
    elif eff.pick is not None:
        e0 = env({}, D, W)
        cands = [(p, fcompile(eff.pick.body, e0.bind(eff.pick.var, p))) for p in order]
        chosen = NONE
        for p, c in reversed(cands):
            chosen = ITE(c, p, chosen)
        bindings = [({eff.pick.var: chosen}, OR([c for _, c in cands]))]
    for bound, active in bindings:
        c0 = AND(guard, active)
        if c0 is False:
            continue
        e = env(bound, D, W)
        fire = AND(c0, fcompile(eff.when, e))
        if fire is False:
            continue

        def sel(lam):
            if lam is None:
                return [False] * n
            return [fcompile(lam.body, e.bind(lam.var, q)) for q in range(n)]
        aw, rw, ad, rd = sel(eff.winners_add), sel(eff.winners_remove), sel(eff.declared_add), sel(eff.declared_remove)
        W = [ITE(fire, OR(AND(W[q], NOT(rw[q])), aw[q]), W[q]) for q in range(n)]
        D = [ITE(fire, OR(AND(D[q], NOT(rd[q])), ad[q]), D[q]) for q in range(n)]
    return D, W


def _stealer_take(tab: SymTable, D: list, W: list):
    """篡夺者 in his own turn takes a win he is not part of (ProcessFsm.checkWin, after Game.checkWin)."""
    found, stealer = _task(tab, "stealer")
    turn = tab.turn
    take = AND(OR(D), found, EQ(stealer, turn), NOT(W[turn]))
    return [ITE(take, j == turn, D[j]) for j in range(tab.n)], [ITE(take, j == turn, W[j]) for j in range(tab.n)]


def _finish(cat, tab: SymTable, D: list, W: list, tag: str):
    """Twin of win._finish: the stealer's take-over, the result pass, the end if anyone declared."""
    D, W = _stealer_take(tab, D, W)
    D, W = enc_result(cat, tab, "result", D, W, tag + "r")
    return OR(D), D, W


def enc_check_win(cat, tab: SymTable, tag: str, just_dead=()):
    """Twin of win.check_win (ProcessFsm.checkWin): (ends, declared, winners)."""
    D, W = enc_win_declared(tab, just_dead)
    D, W = enc_result(cat, tab, "win", D, W, tag + "w")
    return _finish(cat, tab, D, W, tag)


def enc_pass_inputs(cat, tab: SymTable, kind: str, tag: str, just_dead=()):
    """The (declared, winners) that ProcessFsm.checkWin hands the pass of ``kind`` ("win": Game.checkWin, the
    WinSkills; "result": changeGameResult) on this table — twin of what win.check_win gives its ``fold``."""
    D, W = enc_win_declared(tab, just_dead)
    if kind == "win":
        return D, W
    D, W = enc_result(cat, tab, "win", D, W, tag + "w")
    return _stealer_take(tab, D, W)


def enc_win_declared(tab: SymTable, just_dead=()):
    """The identity and secret-task part of ProcessFsm.checkWin: (declared, winners) before any pass — the very terms
    of the table's last call when nothing it reads has changed since (the game twin checks the win at every process
    node, and most nodes change no seat's identity, task, life or red and blue counts: the same terms rebuilt)."""
    key = (tab.n, tuple(just_dead)) + tuple(x for s in tab.seats for x in (
        s.lost, s.identity, s.task, s.alive, s.count("red_messages"), s.count("blue_messages")))
    memo = tab.__dict__.get("_declared_memo")
    if memo is not None and _same_inputs(memo[0], key):
        return list(memo[1]), list(memo[2])
    D, W = _win_declared(tab, just_dead)
    tab.__dict__["_declared_memo"] = (key, D, W)
    return list(D), list(W)


def _same_inputs(a: tuple, b: tuple) -> bool:
    """The same values, position by position: equal constants of one type, or the very same z3 terms."""
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if x is y:
            continue
        if type(x) is type(y) and not isinstance(x, z3.ExprRef) and x == y:
            continue
        return False
    return True


def _win_declared(tab: SymTable, just_dead=()):
    n = tab.n
    four = n == 4
    D, W = [False] * n, [False] * n
    mut_found, mutator = _task(tab, "mutator", just_dead, need_alive=True)
    # seat j in the camp of a colour, and not out: made once, where first needed (every seat's check reads them)
    camps: dict = {}
    for i in range(n):
        s = tab.seats[i]
        ig = NOT(s.lost)
        red, blue = s.count("red_messages"), s.count("blue_messages")
        three = {}                  # colour -> three or more of it (the mutator's test reads them again)
        collector = None            # black with the collector's task (both colours' test)
        for colour, other, cnt in ((RED, BLUE, red), (BLUE, RED, blue)):
            three[colour] = GE(cnt, 3)
            hit = AND(ig, three[colour])
            if hit is False:
                continue
            mine = EQ(s.identity, colour)
            same = AND(hit, mine)
            D[i] = OR(D[i], same)
            for j in range(n):
                got = camps.get((j, colour))
                if got is None:
                    t = tab.seats[j]
                    camp = OR(EQ(t.identity, colour), AND(four, EQ(t.identity, other)))
                    got = camps[(j, colour)] = (NOT(t.lost), camp)
                W[j] = OR(W[j], AND(same, *got))
            not_mine = NOT(mine)
            if collector is None:
                collector = (EQ(s.identity, BLACK), EQ(s.task, TASK["collector"]))
            coll = AND(hit, not_mine, *collector)
            D[i] = OR(D[i], coll)
            W[i] = OR(W[i], coll)
        m = AND(ig, OR(three[RED], three[BLUE]), NOT(D[i]), mut_found)
        if m is False:
            continue
        for j in range(n):
            c = AND(m, EQ(mutator, j))
            D[j] = OR(D[j], c)
            W[j] = OR(W[j], c)
    return D, W


def enc_check_killer_win(cat, tab: SymTable, died: int, tag: str):
    """Twin of win.check_killer_win after ``died`` died (his area not yet discarded)."""
    n, turn = tab.n, tab.turn
    d = tab.seats[died]
    k_found, killer = _task(tab, "killer")
    s_found, sweeper = _task(tab, "sweeper", (died,), need_alive=True)
    kill = AND(k_found, EQ(killer, turn), GE(d.count("true_messages"), 2))
    sweep = AND(s_found, LE(d.count("red_messages"), 1), LE(d.count("blue_messages"), 1))
    pio = AND(EQ(d.identity, BLACK), EQ(d.task, TASK["pioneer"]), GE(d.count("true_messages"), 1))
    anyone = OR(kill, sweep, pio)
    D = [OR(AND(kill, j == turn), AND(sweep, EQ(sweeper, j)), AND(pio, j == died)) for j in range(n)]
    W = list(D)
    st_found, stealer = _task(tab, "stealer")
    take = AND(st_found, EQ(stealer, turn), NOT(W[turn]))
    D = [ITE(take, j == turn, D[j]) for j in range(n)]
    W = [ITE(take, j == turn, W[j]) for j in range(n)]
    if anyone is not False:
        D2, W2 = enc_result(cat, tab, "result", D, W, tag + "k")
    else:
        D2, W2 = D, W
    everyone_dead = AND([OR(tab.seats[i].lost, NOT(tab.seats[i].alive)) for i in range(n)])
    ends = OR(anyone, everyone_dead)
    D = [AND(anyone, D2[j]) for j in range(n)]
    W = [AND(anyone, W2[j]) for j in range(n)]
    return ends, D, W


def enc_check_one_camp(cat, tab: SymTable, tag: str):
    """Twin of win.check_one_camp (Game.checkOnlyOneAliveIdentityPlayers): one camp left alive wins; declared is
    empty."""
    n = tab.n
    four = n == 4
    seen, ident, split = False, NONE, False
    for i in range(n):
        s = tab.seats[i]
        here = AND(NOT(s.lost), s.alive)
        x = s.identity
        clash = OR(EQ(ident, BLACK), AND(NE(x, ident), OR(not four, EQ(x, BLACK))))
        split = OR(split, AND(here, seen, clash))
        ident = ITE(AND(here, NOT(seen)), x, ident)
        seen = OR(seen, here)
    camp = AND(seen, OR(EQ(ident, RED), EQ(ident, BLUE)))
    W = []
    for j in range(n):
        t = tab.seats[j]
        ig = NOT(t.lost)
        if four:
            by_camp = AND(ig, OR(EQ(t.identity, RED), EQ(t.identity, BLUE)))
        else:
            by_camp = AND(ig, EQ(t.identity, ident))
        W.append(ITE(camp, by_camp, AND(ig, t.alive)))
    _, W = enc_result(cat, tab, "result", [False] * n, W, tag + "c")
    return NOT(split), [False] * n, W


def enc_check_disturber_win(cat, tab: SymTable, tag: str):
    """Twin of win.check_disturber_win (NextTurn.checkDisturberWin), at the turn end of ``tab.turn``."""
    me = tab.turn
    s = tab.seats[me]
    ok = AND(NOT(s.lost), EQ(s.identity, BLACK), EQ(s.task, TASK["disturber"]))
    for j in range(tab.n):
        if j == me:
            continue
        t = tab.seats[j]
        ok = AND(ok, NOT(AND(NOT(t.lost), t.alive, LT(t.count("true_messages"), 2))))
    D = [j == me for j in range(tab.n)]
    D, W = enc_result(cat, tab, "result", D, list(D), tag + "d")
    return ok, D, W


def dealt(n: int):
    """Twin of win.dealt: how many of each identity (lo, hi) a game of ``n`` deals (None: any mix)."""
    if n < 3:                       # two players: one of black / red and one of black / blue
        return {RED: (0, 1), BLUE: (0, 1), BLACK: (0, n)}
    if n < 5:
        return {RED: (0, 1), BLUE: (0, 1), BLACK: (max(0, n - 2), 2)}
    if n < 9:
        k = (n - 1) // 2
        return {RED: (k, k), BLUE: (k, k), BLACK: (2 - n % 2, 2 - n % 2)}
    return {RED: (3, 3), BLUE: (3, 3), BLACK: (n - 6, n - 6)}


def enc_deal_ok(tab: SymTable) -> list:
    """Twin of win.deal_errors: [(label, value)] — the identities a game of this size is dealt, the secret tasks
    (distinct, the four kinds only below five players, only a black identity has one)."""
    n = tab.n
    out = []
    want = dealt(n)
    if want is not None:
        conds = []
        for c, (lo, hi) in want.items():
            k = SUM(ITE(EQ(s.identity, c), 1, 0) for s in tab.seats)
            conds += [GE(k, lo), LE(k, hi)]
        conds += [OR([EQ(s.identity, c) for c in (RED, BLUE, BLACK)]) for s in tab.seats]
        out.append(("the deal of identities", AND(conds)))
    allowed = [TASK[t] for t in ("killer", "stealer", "collector", "pioneer")] + \
        ([TASK[t] for t in ("mutator", "disturber", "sweeper")] if n >= 5 else [])
    conds = []
    for i, s in enumerate(tab.seats):
        has = NE(s.task, NONE)
        conds.append(OR(NOT(has), AND(EQ(s.identity, BLACK), OR([EQ(s.task, t) for t in allowed]))))
        conds.append(OR(NE(s.identity, BLACK), has))     # twin of deal_errors: every black identity has a task
        for j in range(i):
            conds.append(OR(NOT(has), NE(s.task, tab.seats[j].task)))
    out.append(("the deal of secret tasks", AND(conds)))
    return out
