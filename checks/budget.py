"""The whole run's time budget (`check --time-budget`).

After the deadline no question is asked (``Context.find`` answers *unknown* at once, and the family
reports the question as inconclusive), no new encoding is built (``BudgetExceeded``), and a family still
busy in between — building a large encoding in plain Python — is interrupted by an alarm shortly after,
keeping the findings it made before. A CI job always gets a report.
"""
from __future__ import annotations

import contextlib
import signal
import threading
import time

from .findings import Finding, collected
from .registry import INCONCLUSIVE

BUDGET_REASON = "time budget spent"
#: after the budget, a family still working (building an encoding, not asking) is stopped this late
HARD_STOP_GRACE = 1.0
#: … and a lane process that still has not answered, this much later again
KILL_GRACE = 5.0


class BudgetExceeded(BaseException):
    """The run's --time-budget is spent: stop building, stop asking. (A BaseException, like
    KeyboardInterrupt, so that no ``except Exception`` on the way swallows it.)"""


_ARMED = [False]                  # the hard stop may interrupt only a family's own work
_FIRED = [False]                  # … and did: whatever exception comes out of the family now is the stop


def _on_alarm(signum, frame):
    if _ARMED[0]:
        _FIRED[0] = True
        raise BudgetExceeded()


@contextlib.contextmanager
def hard_stop(deadline):
    """After ``deadline`` + HARD_STOP_GRACE, interrupt a family that is still busy (building a large
    encoding between questions): SIGALRM, in the main thread of this process, where there is one."""
    usable = (deadline is not None and hasattr(signal, "setitimer")
              and threading.current_thread() is threading.main_thread())
    if not usable:
        yield
        return
    old = signal.signal(signal.SIGALRM, _on_alarm)
    # and again every quarter second: a stop raised inside a ctypes call (z3) comes out wrapped in another
    # exception, which a family's `except Exception` might swallow
    signal.setitimer(signal.ITIMER_REAL, max(0.01, deadline + HARD_STOP_GRACE - time.time()), 0.25)
    _FIRED[0] = False
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        _FIRED[0] = False


def budget_finding(fam, started: bool) -> Finding:
    """The inconclusive finding of a family the time budget stopped (or never let start)."""
    what = "其余问题未提问" if started else "未运行"
    return Finding(INCONCLUSIVE.code, fam.name, "error",
                   f"无法判定：{fam.name} 检查族（{fam.title}）{what}（--time-budget 已用完）",
                   key=f"inconclusive|{fam.name}|time-budget", inconclusive=True,
                   message_en=(f"cannot decide: the {fam.name} family ({fam.title}): "
                               f"{'the rest of its questions were not asked' if started else 'not run'} "
                               f"(--time-budget ran out)"),
                   fix="提高 --time-budget，或用 --select 只检查部分检查族。",
                   fix_en="raise --time-budget, or check fewer families with --select.",
                   details={"time_budget": "stopped" if started else "not run"})


def run_family(fam, ctx) -> list[Finding]:
    """``fam.run(ctx)``; if the budget stops it half-way, the findings it made so far and one
    inconclusive finding saying the rest was not asked."""
    with collected() as made:
        try:
            try:
                _ARMED[0] = True
                found = list(fam.run(ctx))
                _ARMED[0] = False
            except BaseException as e:      # noqa: BLE001 — the stop, perhaps wrapped (see hard_stop)
                _ARMED[0] = False
                from .mismatch import WitnessMismatch, mismatch_finding
                if isinstance(e, WitnessMismatch) and not _FIRED[0]:
                    # the two back-ends disagree: an internal-error finding naming the question, not a crash
                    found = list(made) + [mismatch_finding(fam, e, getattr(ctx, "cat", None))]
                elif not (isinstance(e, BudgetExceeded) or (_FIRED[0] and isinstance(e, Exception))):
                    raise           # an error, or a signal (never the stop, even after it fired): not swallowed
                else:
                    found = list(made) + [budget_finding(fam, started=True)]
        except BudgetExceeded:              # a second alarm while the first was being handled
            _ARMED[0] = False
            found = list(made) + [budget_finding(fam, started=True)]
    if not getattr(getattr(ctx, "options", None), "require_games", False):
        return found
    return [unrealised_finding(f) if f.witness and f.witness.get("unrealised") is not None else f for f in found]


def unrealised_finding(f: Finding) -> Finding:
    """A finding whose witness the timed model found but no game of the server reaches within the bounds
    (checks/realise.py): never reported as true — an inconclusive finding naming it and why, with the timed
    model's trace kept as its witness."""
    why = f.witness["unrealised"]
    why = why if isinstance(why, dict) else {"zh": str(why), "en": str(why)}
    return Finding(INCONCLUSIVE.code, f.family, "error",
                   f"无法判定：{f.message}——时序模型找到了这个局面，但在界限内找不到服务器真能打出的一局（{why['zh']}）",
                   key=f"unrealised|{f.key}", rules=list(f.rules), witness={k: v for k, v in f.witness.items()},
                   inconclusive=True, details={"finding": f.id, "why": why},
                   message_en=f"cannot decide: {f.message_en or f.message} — the timed model reaches this situation, "
                              f"but no game the server can play reaches it within the bounds ({why['en']})",
                   fix="若这是真实局面，请报告：realise 模板缺少它所需的牌桌事件；否则它不是服务器能打出的局面",
                   fix_en="if the situation is real, report it: the realiser lacks the table events it needs; "
                          "otherwise it is not a situation the server can reach")
