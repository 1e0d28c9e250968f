"""Shared by the game cross-check (test_crosscheck_game.py) and its long run (benchmarks/crosscheck_game.py): random
game traces compared between the interpreter (model/interp/game.py) and the z3 twin (checks/enc/game.py).

* ``pinned`` — a trace as a template with a hole at every value a template may leave open, every hole pinned to
  the trace's value: the twin's verdict (decided while encoding: the template is ground) must be the interpreter's,
  and for a legal trace the table after each of its events too (hands, areas by class, alive, out, faces, locked,
  identities, tasks, the message and where it is, the winners).
* ``symbolic`` — the same template with its holes as solver variables and the trace's values as equations: the
  solver's sat / unsat must be the interpreter's legal / illegal.
* ``fill`` — a legal trace's template with some holes left open (and now and then every decision of an effect,
  ``AUTO``): the solver finds a filling (the trace's own values are one), and the interpreter accepts ``fill``'s trace.

Each run returns a ``Tally`` (counts, times, the disagreements described with what reproduces them).
"""
from __future__ import annotations

import json
import random
import time
import traceback
from dataclasses import dataclass, field

import z3

from skillproof.checks.enc.game import GameEncoding
from skillproof.model.interp.hole import AUTO
from skillproof.model.interp.play import run
from skillproof.model.interp.trace import Trace

import randgame as RG


@dataclass
class Tally:
    compared: int = 0
    legal: int = 0
    generated: int = 0
    disagreements: list = field(default_factory=list)
    t_generate: float = 0.0
    t_interp: float = 0.0
    t_twin: float = 0.0
    kinds: dict = field(default_factory=dict)

    def add(self, other: "Tally") -> None:
        self.compared += other.compared
        self.legal += other.legal
        self.generated += other.generated
        self.disagreements += other.disagreements
        self.t_generate += other.t_generate
        self.t_interp += other.t_interp
        self.t_twin += other.t_twin
        for k, v in other.kinds.items():
            self.kinds[k] = self.kinds.get(k, 0) + v

    @property
    def illegal(self) -> int:
        return self.compared - self.legal

    def per_check_ms(self) -> float:
        return 1000 * self.t_twin / max(1, self.compared)

    def summary(self, label: str) -> str:
        return (f"{label}: {self.compared} traces compared ({self.legal} legal, {self.illegal} illegal) from "
                f"{self.generated} generated; {len(self.disagreements)} disagreements; per trace: twin "
                f"{self.per_check_ms():.1f} ms, interpreter {1000 * self.t_interp / max(1, self.compared):.1f} ms, "
                f"generator {1000 * self.t_generate / max(1, self.compared):.1f} ms")


def describe(label: str, tr: Trace, what: str) -> str:
    return f"{label}: {what}\ntrace={json.dumps(tr.to_dict(), ensure_ascii=False)}"


def _variants(rng, cat, tr: Trace, p_mutant: float) -> list:
    """The trace, and (with probability ``p_mutant``) one mutant of it — half the time cut right after the first
    event it changes, so that its verdict turns on that event alone: a mutant's later events fail for reasons of
    their own (a die after a dying window named the wrong seat, the next window after a refused play …) and hid
    the one check the change is about (benchmarks/mutate_interpreter.py: the dying and death checks survived)."""
    out = [tr]
    if rng.random() < p_mutant:
        m = RG.mutate(rng, cat, tr)
        if m is not None:
            if rng.random() < 0.5:
                m = cut_after_change(tr, m)
            out.append(m)
    return out


def cut_after_change(tr: Trace, m: Trace) -> Trace:
    """The mutant ``m`` of ``tr`` up to and including the first event where the two differ (whole when its
    setup differs, or when no event does)."""
    if m.setup.to_dict() != tr.setup.to_dict():
        return m
    for k, e in enumerate(m.events):
        if k >= len(tr.events) or e.to_dict() != tr.events[k].to_dict():
            return Trace(m.setup, m.events[:k + 1], m.table)
    return m


def pinned_verdict(cat, tr: Trace, keep_states: bool = False):
    tpl, pins = RG.template_of(cat, tr)
    return GameEncoding(cat, tpl, pins=pins, keep_states=keep_states)


def step_disagreement(cat, tr: Trace, g) -> str | None:
    """The interpreter stepped event by event against the twin's table after each event (``g`` kept its states):
    the first event after which they differ, described; None when they never do."""
    from skillproof.model.interp.game import GameRunner
    r = GameRunner(cat, Trace(tr.setup, [], True))
    r.senders = RG.TR._turn_senders(tr)
    before = len(r.errors)
    for k, ev in enumerate(tr.events):
        r.trace.events.append(ev)
        r.k = k
        r.moments.append(RG.TR.moment(r.st, r.turns))
        if r.node(ev):
            getattr(r, f"on_{ev.kind}")(ev)
        if len(r.errors) > before:
            return None                       # illegal from here: the states no longer say anything
        a, b = interp_state(r.st), _twin_state_of(g.states[k], g)
        diff = {key: (a[key], b.get(key)) for key in a if a[key] != b.get(key)}
        if diff:
            return f"after event {k} ({ev.kind}) the tables differ (interpreter, twin): {diff}"
    return None


def run_pinned(cat, n: int, seed: int, label: str, p_mutant: float = 0.8, stop_after: int = 3) -> Tally:
    """``n`` traces compared (originals and mutants) on the pinned fast path."""
    rng = random.Random(seed)
    t = Tally()
    while t.compared < n and len(t.disagreements) < stop_after:
        t0 = time.process_time()
        try:
            tr = RG.random_game(rng, cat)
            variants = _variants(rng, cat, tr, p_mutant)
        except Exception:                                   # the generator steps the interpreter: a crash of it
            t.disagreements.append(f"{label} (seed {seed}, game {t.generated}): the interpreter crashed while "
                                   f"the game was played\n{traceback.format_exc(limit=-4)}")
            t.generated += 1
            continue
        t.generated += 1
        t.t_generate += time.process_time() - t0
        for v in variants:
            if t.compared >= n:
                break
            _compare_pinned(cat, v, t, f"{label} (seed {seed}, game {t.generated - 1})")
    return t


def _compare_pinned(cat, tr: Trace, t: Tally, label: str) -> None:
    t0 = time.process_time()
    try:
        r = run(cat, tr)
    except Exception:
        t.disagreements.append(describe(label, tr, f"the interpreter crashed\n{traceback.format_exc(limit=-4)}"))
        return
    t1 = time.process_time()
    try:
        g = pinned_verdict(cat, tr, keep_states=r.legal)       # the states after each event: compared when legal
        v = g.verdict()
    except Exception:
        t.disagreements.append(describe(label, tr, f"the twin crashed\n{traceback.format_exc(limit=-4)}"))
        return
    t2 = time.process_time()
    t.t_interp += t1 - t0
    t.t_twin += t2 - t1
    t.compared += 1
    t.legal += r.legal
    for ev in tr.events:
        t.kinds[ev.kind] = t.kinds.get(ev.kind, 0) + 1
    if v != r.legal:
        why_i = [(k, e.en if hasattr(e, "en") else str(e)) for k, e in r.errors][:3]
        why_z = [lab.label for lab in g.legal if lab.expr is not True and not z3.is_true(lab.expr)][:3]
        t.disagreements.append(describe(label, tr, f"interpreter legal={r.legal} {why_i}; z3 {v} {why_z}"))
    elif r.legal:
        a, b = interp_state(r.state), twin_state(g)
        diff = {k: (a[k], b.get(k)) for k in a if a[k] != b.get(k)}
        if diff:
            t.disagreements.append(describe(label, tr, f"legal in both, but the state after the last event differs "
                                                       f"(interpreter, twin): {diff}"))
        else:
            t3 = time.process_time()
            d = step_disagreement(cat, tr, g)
            t.t_interp += time.process_time() - t3
            if d:
                t.disagreements.append(describe(label, tr, f"legal in both, but {d}"))
            else:
                d = done_disagreement(r, g)
                if d:
                    t.disagreements.append(describe(label, tr, f"legal in both, but {d}"))


def done_disagreement(r, g) -> str | None:
    """The ops each event's effect did (model/interp/ops.done_entry), the interpreter's against the twin's
    (enc.ops.enc_done_entry) read on a model of the pinned game: the first event where they differ; None otherwise."""
    s = z3.Solver()
    s.add(g.legal_expr())
    if s.check() != z3.sat:
        return None
    m = s.model()

    def val(x):
        return x if isinstance(x, (bool, int)) else m.eval(x, model_completion=True)

    def truth(x):
        v = val(x)
        return v if isinstance(v, bool) else z3.is_true(v)

    def num(x):
        v = val(x)
        return v if isinstance(v, int) else v.as_long()
    for k in sorted(set(r.done) | set(g.done)):
        a = [(e["op"], e["path"], {n: tuple(v) for n, v in e["seats"].items()}) for e in r.done.get(k, [])]
        b = [(e["op"], e["path"], {n: tuple(num(x) for x, c in v if truth(c)) for n, v in e["seats"].items()})
             for c, e in g.done.get(k, []) if truth(c)]
        if a != b:
            return f"the ops done at event {k} differ (interpreter, twin): {a} {b}"
    return None


def interp_state(st) -> dict:
    """The table after a game trace, as the interpreter holds it (what the twin's final state is compared on)."""
    from skillproof.model.interp.table import CLASSES, area_of
    out = {}
    for i, s in enumerate(st.seats):
        area = area_of(s) or {}
        out[f"seat {i}"] = (s.hand_count, tuple(area.get(c, 0) for c in CLASSES), s.alive, s.lost, s.face_up,
                            s.ever_face_up, s.locked, s.identity, s.task)
    out["in front"] = st.in_front
    out["message"] = tuple(sorted(st.message))
    # face up or down, while a message is on the table (an effect may send it face up: GameRunner.on_send)
    out["message face up"] = bool(st.message_face_up) if st.message else None
    out["winners"] = None if st.winners is None else tuple(sorted(st.winners))
    out["declared"] = None if st.declared is None else tuple(sorted(st.declared))
    return out


def twin_state(g) -> dict:
    """The same read off the twin's symbolic table (ground: constants)."""
    return _twin_state_of(g.final, g)


def _twin_state_of(tab, g) -> dict:
    from skillproof.model import vocab as V
    from skillproof.model.interp.win import TASKS
    from skillproof.checks.enc.table import colours_of_code
    out = {}
    for i, s in enumerate(tab.seats):
        ident = V.COLOURS[s.identity] if isinstance(s.identity, int) and 0 <= s.identity < len(V.COLOURS) else s.identity
        task = None if s.task == -1 else (TASKS[s.task] if isinstance(s.task, int) and 0 <= s.task < len(TASKS) else s.task)
        out[f"seat {i}"] = (s.hand, tuple(s.area), s.alive, s.lost, s.face_up, s.ever, s.locked, ident, task)
    out["in front"] = None if tab.in_front == -1 else tab.in_front
    out["message"] = tuple(sorted(colours_of_code(tab.message))) if isinstance(tab.message, int) else tab.message
    up = tab.message_face_up
    if not isinstance(up, bool):
        import z3
        up = z3.is_true(z3.simplify(up)) if z3.is_expr(up) else bool(up)
    out["message face up"] = up if isinstance(out["message"], tuple) and out["message"] else None
    out["winners"] = tuple(j for j, w in enumerate(tab.winners) if w is True) if tab.ended is True else None
    out["declared"] = tuple(j for j, w in enumerate(tab.declared) if w is True) if tab.ended is True else None
    return out


def run_symbolic(cat, n: int, seed: int, label: str, p_mutant: float = 0.8) -> Tally:
    """``n`` traces: the template's holes as variables, pinned by equations; sat exactly when legal."""
    rng = random.Random(seed)
    t = Tally()
    while t.compared < n and len(t.disagreements) < 3:
        tr = RG.random_game(rng, cat)
        t.generated += 1
        for v in _variants(rng, cat, tr, p_mutant):
            if t.compared >= n:
                break
            r = run(cat, v)
            tpl, pins = RG.template_of(cat, v)
            t0 = time.process_time()
            try:
                g = GameEncoding(cat, tpl, keep_states=False)
                s = z3.Solver()
                s.add(g.legal_expr())
                s.add(g.pin(pins))
                res = s.check()
            except Exception:
                t.disagreements.append(describe(label, v, f"the twin crashed\n{traceback.format_exc(limit=-4)}"))
                continue
            t.t_twin += time.process_time() - t0
            t.compared += 1
            t.legal += r.legal
            if res == z3.unknown or (res == z3.sat) != r.legal:
                t.disagreements.append(describe(label, v, f"interpreter legal={r.legal} "
                                                          f"{[(k, str(e)) for k, e in r.errors][:2]}; solver {res}"))
    return t


def run_fill(cat, n: int, seed: int, label: str, p_auto: float = 0.3) -> Tally:
    """``n`` templates of legal traces with holes left open: a model's fill is a trace the interpreter accepts."""
    rng = random.Random(seed)
    t = Tally()
    tries = 0
    while t.compared < n and len(t.disagreements) < 3 and tries < 20 * n:
        tries += 1
        tr = RG.random_game(rng, cat)
        t.generated += 1
        if not run(cat, tr).legal:
            continue
        tpl, pins = RG.template_of(cat, tr)
        if not pins:
            continue
        pins = RG.open_some(rng, tpl, pins, rng.randint(1, max(1, len(pins) // 3)))
        if rng.random() < p_auto:
            for k, ev in enumerate(tpl.events):
                if ev.kind in ("resolve", "use", "fire") and rng.random() < 0.6:
                    ev.choices = AUTO
                    pins = {name: v for name, v in pins.items() if not name.startswith(f"e{k}.") or
                            name.split(".")[-1] not in ("alt", "cls", "skip")}
        t0 = time.process_time()
        try:
            g = GameEncoding(cat, tpl, pins=pins, keep_states=False)
            s = z3.Solver()
            s.add(g.legal_expr())
            res = s.check()
            filled = g.fill(s.model()) if res == z3.sat else None
        except Exception:
            t.disagreements.append(describe(label, tr, f"the twin crashed\n{traceback.format_exc(limit=-4)}"))
            continue
        t.t_twin += time.process_time() - t0
        t.compared += 1
        if filled is None:
            t.disagreements.append(describe(label, tr, f"no filling found ({res}) though the trace itself is one"))
            continue
        r2 = run(cat, filled)
        t.legal += r2.legal
        if not r2.legal:
            t.disagreements.append(describe(label, filled, f"the interpreter refuses the filled trace: "
                                                           f"{[(k, str(e)) for k, e in r2.errors][:3]}"))
    return t
