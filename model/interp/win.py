"""Who wins, and when the game ends: the server's win checks, run at the moments it runs them.

Server (CuteReimu/TheMessage):

* ``ProcessFsm.checkWin`` — at every process node (after the triggered skills of its events are dealt): a player
  with three red (blue) messages and that identity declares a win, every player of his identity wins (in a
  four-player game the red and blue camps win together); a black player whose secret task is 双重间谍 (Collector)
  wins with three red or three blue messages; 诱变者 (Mutator), alive or just dead, wins when anyone else reaches
  three of a colour without declaring; then the WinSkills (``Game.checkWin``); 簒夺者 (Stealer) takes a win
  declared in his own turn; then the ChangeGameResultSkills (``Game.changeGameResult``).
* ``CheckKillerWin`` — after players die: 镇压者 (Killer) in his own turn when one who died had two or more true
  messages; 清道夫 (Sweeper), alive or just dead, when one who died had at most one red and at most one blue;
  先行者 (Pioneer) when he died with a true message; 簒夺者 as above; everyone dead ends the game with no winner.
* ``Game.checkOnlyOneAliveIdentityPlayers`` — after a check and after deaths: when every living player (not out of
  the game) is of one camp (red, or blue — red and blue together in a four-player game), that camp wins; one
  living black player wins alone.
* ``NextTurn.checkDisturberWin`` — at his turn end, 搅局者 (Disturber) wins when every other living player has two
  or more true messages.

Secret tasks (Common.proto secret_task): killer 镇压者, stealer 簒夺者, collector 双重间谍, mutator 诱变者, pioneer
先行者, disturber 搅局者, sweeper 清道夫. The z3 twin is ``checks/enc/win.py`` (same names).
"""
from __future__ import annotations

from .table import area_of, counts

TASKS = ("killer", "stealer", "collector", "mutator", "pioneer", "disturber", "sweeper")
TASK_WORDS = {"killer": ("镇压者", "Killer"), "stealer": ("簒夺者", "Stealer"), "collector": ("双重间谍", "Collector"),
              "mutator": ("诱变者", "Mutator"), "pioneer": ("先行者", "Pioneer"), "disturber": ("搅局者", "Disturber"),
              "sweeper": ("清道夫", "Sweeper")}


def _c(seat) -> dict:
    return counts(area_of(seat) or {})


def _in_game(st) -> list:
    return [i for i, s in enumerate(st.seats) if not s.lost]


def _task(st, task: str, just_dead=frozenset(), need_alive: bool = False):
    for i in _in_game(st):
        s = st.seats[i]
        if s.identity == "black" and s.task == task and (not need_alive or s.alive or i in just_dead):
            return i
    return None


def _finish(cat, st, declared: set, winners: set, result_pass) -> tuple | None:
    """The stealer's take-over and the result pass (ChangeGameResultSkill), then the end if anyone declared."""
    stealer = _task(st, "stealer")
    if declared and stealer is not None and stealer == st.turn and stealer not in winners:
        declared, winners = {stealer}, {stealer}
    declared, winners = result_pass(cat, st, declared, winners, "result")
    if declared:
        return frozenset(declared), frozenset(winners)
    return None


def check_win(cat, st, result_pass, just_dead=frozenset()) -> tuple | None:
    """ProcessFsm.checkWin: (declared, winners) when the game ends now, else None. ``result_pass(cat, st,
    declared, winners, kind)`` folds the WinSkills (kind 'win') or ChangeGameResultSkills ('result') over the
    table (model/interp/result.py ``game_result``)."""
    four = len(st.seats) == 4
    declared: set = set()
    winners: set = set()
    mutator = _task(st, "mutator", just_dead, need_alive=True)
    for i in _in_game(st):
        s = st.seats[i]
        c = _c(s)
        for colour, n in (("red", c["red_messages"]), ("blue", c["blue_messages"])):
            if n < 3:
                continue
            if s.identity == colour:
                declared.add(i)
                winners.update(j for j in _in_game(st) if st.seats[j].identity == colour)
                if four:
                    other = "blue" if colour == "red" else "red"
                    winners.update(j for j in _in_game(st) if st.seats[j].identity == other)
            elif s.identity == "black" and s.task == "collector":
                declared.add(i)
                winners.add(i)
        if (c["red_messages"] >= 3 or c["blue_messages"] >= 3) and i not in declared and mutator is not None:
            declared.add(mutator)
            winners.add(mutator)
    declared, winners = result_pass(cat, st, declared, winners, "win")
    return _finish(cat, st, set(declared), set(winners), result_pass)


def check_killer_win(cat, st, died: list, result_pass) -> tuple | None:
    """CheckKillerWin, after the players in ``died`` died (their areas not yet discarded)."""
    declared: list = []
    killer = _task(st, "killer")
    sweeper = _task(st, "sweeper", frozenset(died), need_alive=True)
    pioneer = next((d for d in died if st.seats[d].identity == "black" and st.seats[d].task == "pioneer"), None)
    if killer is not None and killer == st.turn and any(_c(st.seats[d])["true_messages"] >= 2 for d in died):
        declared.append(killer)
    if sweeper is not None and any(_c(st.seats[d])["red_messages"] <= 1 and _c(st.seats[d])["blue_messages"] <= 1
                                   for d in died):
        declared.append(sweeper)
    if pioneer is not None and _c(st.seats[pioneer])["true_messages"] >= 1:
        declared.append(pioneer)
    if declared:
        d, w = set(declared), set(declared)
        stealer = _task(st, "stealer")
        if stealer is not None and stealer == st.turn and stealer not in w:
            d, w = {stealer}, {stealer}
        d, w = result_pass(cat, st, d, w, "result")
        return frozenset(d), frozenset(w)
    if all(not st.seats[i].alive for i in _in_game(st)):
        return frozenset(), frozenset()
    return None


def check_one_camp(cat, st, result_pass) -> tuple | None:
    """Game.checkOnlyOneAliveIdentityPlayers: (declared, winners) when one camp is left, else None. Declared is
    empty: nobody declares, the camp wins."""
    four = len(st.seats) == 4
    alive = [i for i in _in_game(st) if st.seats[i].alive]
    ident = None
    for i in alive:
        x = st.seats[i].identity
        if ident is None:
            ident = x
        elif ident == "black":
            return None
        elif x != ident and (not four or x == "black"):
            return None
    if ident in ("red", "blue"):
        if four:
            winners = {j for j in _in_game(st) if st.seats[j].identity in ("red", "blue")}
        else:
            winners = {j for j in _in_game(st) if st.seats[j].identity == ident}
    else:
        winners = set(alive)
    _, w = result_pass(cat, st, set(), winners, "result")
    return frozenset(), frozenset(w)


def check_disturber_win(cat, st, result_pass) -> tuple | None:
    """NextTurn.checkDisturberWin: at the turn end of a 搅局者."""
    me = st.turn
    s = st.seats[me]
    if s.lost or s.identity != "black" or s.task != "disturber":
        return None
    if any(j != me and st.seats[j].alive and _c(st.seats[j])["true_messages"] < 2 for j in _in_game(st)):
        return None
    d, w = result_pass(cat, st, {me}, {me}, "result")
    return frozenset(d), frozenset(w)


def dealt(n: int) -> dict | None:
    """How many players of each identity (lowest, highest) a game of ``n`` players deals (Game.start). Two
    players get one of black / red and one of black / blue; three or four are dealt from red, blue, black, black."""
    if n <= 2:          # two players: one of black / red and one of black / blue, shuffled
        return {"red": (0, 1), "blue": (0, 1), "black": (0, n)}
    if n <= 4:
        return {"red": (0, 1), "blue": (0, 1), "black": (max(0, n - 2), 2)}
    if n <= 8:
        k = (n - 1) // 2
        black = 1 + (1 if n % 2 == 0 else 0)
        return {"red": (k, k), "blue": (k, k), "black": (black, black)}
    return {"red": (3, 3), "blue": (3, 3), "black": (n - 6, n - 6)}


def tasks_dealt(n: int) -> tuple:
    """The secret tasks a game of ``n`` players deals to its black players (Game.start): distinct."""
    return ("killer", "stealer", "collector", "pioneer") + (("mutator", "disturber", "sweeper") if n >= 5 else ())


def deal_errors(seats) -> list:
    """Why the identities and secret tasks of the table are not a deal of the server (a list of Reasons)."""
    from ..reason import Reason
    n = len(seats)
    why = []
    want = dealt(n)
    got = {c: sum(1 for s in seats if s.identity == c) for c in ("red", "blue", "black")}
    if want is not None and (any(not lo <= got[c] <= hi for c, (lo, hi) in want.items())
                             or any(s.identity not in want for s in seats)):
        why.append(Reason(f"{n}人局不是这样发身份的", f"a game of {n} players is not dealt these identities"))
    tasks = [s.task for s in seats if s.identity == "black"]
    if any(t is not None and t not in tasks_dealt(n) for t in tasks) or \
            len([t for t in tasks if t is not None]) != len({t for t in tasks if t is not None}):
        why.append(Reason("秘密任务不是这样发的（各不相同，人数少时只有四种）",
                          "the secret tasks are not dealt so (all different; four kinds only below five players)"))
    if any(s.task is not None and s.identity != "black" for s in seats):
        why.append(Reason("只有黑色身份有秘密任务", "only a black identity has a secret task"))
    if any(s.task is None and s.identity == "black" for s in seats):
        # Game.start deals a task to each black identity (``if (identity == Black) tasks[secretIndex++]``); an identity
        # changes hands with its task (swap: identity and task together; take_identity: the other is left with none)
        why.append(Reason("每个黑色身份（神秘人）都有一个秘密任务", "every black identity has a secret task"))
    return why
