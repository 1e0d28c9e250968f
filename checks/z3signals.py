"""z3 and SIGINT / SIGTERM: the signals are Python's (model.signals), and a question that is running stops on them.

Left to itself, z3 takes SIGINT while a solver's ``check`` runs: its own handler cancels the search, the check
answers *unknown* ("interrupted from keyboard"), and the signal is gone — Python never sees it. A run interrupted
during a question went on with that question inconclusive and ended as if nothing had come (exit 1, its reports
written); a Ctrl-C that came as a check was finishing was lost without a trace. So z3 is told not to (the global
parameter ``ctrl_c``; before z3 4.15, which has no such global parameter, each solver is told when it is first
asked), and the command line's signal watcher stops the question instead: when SIGINT or SIGTERM comes it
interrupts z3's context from a thread of its own (``model.signals.on_signal``), the check returns at once, and the
handler raises the signal in the main thread as soon as it does. A SIGTERM stops a question too, which it never
did before: it waited for the question to end (up to --timeout).

Imported by every module that makes a solver. Nothing else changes: the same solvers, parameters and answers.
"""
from __future__ import annotations

import functools

import z3

from skillproof.model.signals import on_signal


def _per_solver() -> None:
    """z3 before 4.15: ``ctrl_c`` is read from each solver's own parameters."""
    for cls in (z3.Solver, z3.Optimize):
        check = cls.check

        @functools.wraps(check)
        def told(self, *assumptions, _check=check):
            if not getattr(self, "_skillproof_ctrl_c", False):
                self.set("ctrl_c", False)
                self._skillproof_ctrl_c = True
            return _check(self, *assumptions)

        cls.check = told


try:
    z3.set_param("ctrl_c", False)
except z3.Z3Exception:
    _per_solver()
on_signal(z3.main_ctx().interrupt)
