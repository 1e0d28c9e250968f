"""A whole game, symbolically: the z3 twin of ``model/interp/game.py`` (``GameRunner``) and of the timed model's
checks of ``model/interp/trace.py`` (``Runner``) as a game trace meets them.

``GameEncoding(cat, template)`` reads a game-trace *template* — a game trace (``Trace(setup, events, table=True)``)
some of whose values are holes (model/interp/hole.py) — and runs it as a straight-line program over symbolic table
values: the events are concrete (their kinds, who acts, the windows, the players the message windows name, the
gives' sites), so the skill lists at each step are concrete and only the table's values — hands, message areas,
faces, identities, secret tasks, alive, locked, the travelling message, where it is, the winners — are terms, and
only where a hole reaches them. Every check the interpreter makes becomes a labelled constraint (``legal``: true
exactly when filling the holes gives a trace the interpreter accepts); ``states[k]`` is the symbolic table after
event ``k`` (``final``: after the last); ``fill(model)`` writes a z3 model back as a concrete game trace.

The handlers are named as the interpreter's (``on_send`` ↔ ``GameRunner.on_send``, ``message_step``,
``turn_end_ok``, ``node``, ``finish`` …); each area's rules are in the module named as the interpreter's:
table.py, path.py, dying.py, win.py, ops.py (effects), fires.py (trigger dispatch); the skill decisions are the
existing encoders', asked on a seat's view (view.py). Server behaviour is cited where each rule is encoded.

``pins`` (hole name -> value, as a trace writes it) fixes holes at construction: a template whose holes are all
pinned is ground, and its constraints come out as ``True`` / ``False`` (the cross-check's fast path, decided while
it is encoded); ``pin(values)`` gives the same as equations over the hole variables instead.

Realising a skeleton::

    tpl = Trace(setup, [Event("turn", seat=0), Event("draw"), Event("window", window="main"),
                        Event("window", window="send_start"),
                        Event("send", seat=0, colours=Hole("card", "class", CLASSES), arrow=…, dir=…,
                              to=Hole("to", "seat", (1, 2)), locks=[]),
                        Event("window", window="fight", in_front=1), …], table=True)
    g = GameEncoding(cat, tpl)
    s = z3.Solver(); s.add(g.legal_expr())                 # or each Labelled of g.legal (unsat cores name rules)
    s.add(g.seat_term(1, "red_messages") >= 1)             # a question about the state after the last event
    if s.check() == z3.sat:
        trace = g.fill(s.model())                          # a concrete game trace; model.interp.trace.run accepts it

Not twinned: a repeated op whose count a hole reaches is unrolled to ``ops.REPEAT_CAP`` copies (a labelled bound);
the solver's model of the game is the interpreter's — what neither models (a hand's card types, the deck) is not
here either.
"""
from __future__ import annotations

import pickle

import z3

from skillproof.checks import z3signals  # noqa: F401 — z3 leaves the signals to Python, and stops on them

from skillproof.model import turn as TW
from skillproof.model.interp.hole import AUTO, Hole, holes_of, values as hole_values
from skillproof.model.interp.win import TASKS
from skillproof.model.state import SkillInst

from .dying import enc_anyone_dying, enc_apply_die, enc_discard_all, enc_die_ok, enc_dying_first, enc_dying_ok, \
    enc_saved
from .fires import Pending, enc_fire_ok
from .grants import enc_one_granted, enc_one_grants, enc_recipients, enc_set_granted, enc_set_grants, \
    enc_unsure_sites
from .ops import DIR_CODE, SymDoing, enc_run_ops
from .path import (enc_accept_ok, enc_apply_send, enc_next_stop, enc_pass_ok, enc_receive_ok, enc_send_ok,
                   seat_value_ok)
from .table import CLASSES, CODE, FIVE, K, SymTable, gone_under, held, enc_class_of, enc_next_alive, enc_counts, enc_counts_are_area, enc_decompose, \
    new_seat
from ..terms import And, Eq2, Ge, Le, Not, Or, model_int, model_true
from .val import ADD, AND, EQ, GE, ITE, LE, MAX, NE, NONE, NOT, OR, SUB, SUM, fold, is_c, pick, z
from .cond import compile_on, params_of
from .usable import enc_requires_met
from .view import (Labelled, SeatView, ask, codes_of, enc_can_play, enc_card_usable, enc_draw_count, enc_in_window,
                   enc_actor_ok, enc_skill_usable_now, live_kinds_of)
from .win import (NOID, enc_check_disturber_win, enc_check_killer_win, enc_check_one_camp,
                  enc_check_win, enc_deal_ok, ident_code, task_code)

SKELETON_KINDS = ("turn", "window", "give", "replace", "use", "play")
GAME_KINDS = SKELETON_KINDS + ("draw", "send", "resolve", "fire", "die")
NODE_FREE = ("fire", "resolve", "die", "give")
ANSWERING = ("fire", "give")      # twin of model/interp/game.ANSWERING: a give is inside its effect's resolution
INVALID_SEAT = 10 ** 6
DIRS = ("up", "left", "right")


class Illegal(Exception):
    """Raised by a ``GameEncoding`` made with ``stop_at_false``: a check came out ``False`` from the template's
    concrete parts — no filling of its holes is legal. ``label``: that check's."""

    def __init__(self, label: str):
        super().__init__(label)
        self.label = label


class GameEncoding:
    """The constraints of a game-trace template (see the module's docstring)."""

    def __init__(self, cat, template, pins: dict | None = None, keep_states: bool = True, prefix: str = "h:",
                 stop_at_false: bool = False):
        self.cat, self.template = cat, template
        self.stop_at_false = stop_at_false     # a check False whatever the holes: raise Illegal, encode no further
        self.pins = dict(pins or {})
        self.prefix = prefix
        self.keep_states = keep_states
        self.C = codes_of(cat)
        self.holes: dict = {}                 # name -> Hole
        self.vars: dict = {}                  # name -> z3 var (a list of Bools for 'seats')
        self.auto: dict = {}                  # (event index, path, key) -> hole name (choices = AUTO)
        self.legal: list = []                 # Labelled
        self.states: list = []
        self.k = -1
        self.n = len(template.setup.seats)
        self._tag = 0
        for h in holes_of(template):          # every hole has its variable, read or not
            self.hole(h)
        self.tab = self._setup()
        self.initial = self.tab.copy()
        self.pending: list = []
        self.card: dict | None = None
        self.acted: set = set()
        self.drawn = False
        self.ending = False
        self.send_via: tuple | None = None     # (present, fields) of an effect's send_message
        self.named_sender = NONE                # twin of GameRunner.named_sender (a seat value, NONE: nobody)
        self.consumed: list = []              # (seat, skill entry, the condition it is the copy used): gone once its grants are handed out
        self.to_discard: list = []            # twin of GameRunner.to_discard
        self.done: dict = {}                  # twin of GameRunner.done: event index -> [(condition, entry)]
        self.owed: list = []                  # twin of GameRunner.owed (``ran`` a term: how many grant ops ran)
        self.at_once: dict | None = None      # twin of GameRunner.at_once
        self.owed_one: list = []              # twin of GameRunner.owed_one (``want``: (condition, seat term) per op)
        self.resolving: list = []             # twin of GameRunner.resolving: [seat, skill entry, its card resolved]
        self.counts: dict = {}
        self.turns = 0
        self.given: list = []
        self.events_seq: list = []
        self.senders = self._turn_senders()
        self._run()

    # ====================================================================================== holes and values
    def hole(self, h: Hole):
        """A hole's value: its pin (a constant), or its variable (constrained to its domain)."""
        if h.name in self.holes and self.holes[h.name] != h:
            raise ValueError(f"two holes named {h.name}")
        self.holes[h.name] = h
        if h.name in self.pins:
            return self.code(h.type, self.pins[h.name])
        if h.name not in self.vars:
            nm = self.prefix + h.name
            domain = hole_values(h, self.n, self.C.cards, CLASSES, TASKS)
            label = f"hole {h.name} in its domain"
            if h.type == "bool":
                v = z3.Bool(nm)
                dom = [x for x in (True, False) if x in domain]
                if len(dom) == 1:
                    self.legal.append(Labelled(label, (), v if dom[0] else Not(v)))
                elif not dom:
                    self.legal.append(Labelled(label, (), z3.BoolVal(False)))
                # both truth values: no constraint
            elif h.type == "seats":
                v = [z3.Bool(f"{nm}[{j}]") for j in range(self.n)]
                outside = [Not(v[j]) for j in range(self.n) if j not in domain]
                if outside:
                    self.legal.append(Labelled(label, (), And(outside)))
            else:
                v = z3.Int(nm)
                codes = sorted({self.code(h.type, x) for x in domain})
                if codes and codes[-1] - codes[0] == len(codes) - 1 and len(codes) > 2:
                    dom = And(Ge(v, z(codes[0])), Le(v, z(codes[-1])))   # a range: two bounds, not an Or of values
                else:
                    dom = Or([Eq2(v, z(c)) for c in codes]) if codes else z3.BoolVal(False)
                self.legal.append(Labelled(label, (), dom))
            self.vars[h.name] = v
        return self.vars[h.name]

    def code(self, typ: str, v):
        """A value as the trace writes it, as the encoding's constant."""
        if typ == "seat":
            if v is None:
                return NONE
            return v if isinstance(v, int) and not isinstance(v, bool) else INVALID_SEAT
        if typ in ("int", "alt"):
            return int(v)
        if typ == "bool":
            return bool(v)
        if typ == "class":
            if isinstance(v, str):
                return CODE.get(v, NONE)
            return enc_class_of(v) if isinstance(v, (list, tuple, set, frozenset)) else NONE
        if typ == "dir":
            return DIR_CODE.get(v, NONE) if isinstance(v, str) else NONE
        if typ == "identity":
            return ident_code(v)
        if typ == "task":
            return task_code(v)
        if typ == "card":
            return self.C.card.get(v, NONE) if isinstance(v, str) else NONE
        if typ == "seats":
            s = set(v or ())
            return [j in s for j in range(self.n)]
        raise ValueError(typ)

    def val(self, v, typ: str):
        """A template field: a hole's value or the constant of a concrete value."""
        if isinstance(v, Hole):
            return self.hole(v)
        return self.code(typ, v)

    def decode(self, typ: str, m, var):
        """A model's value of a hole, as a trace writes it."""
        if typ == "seats":
            return [j for j in range(self.n) if model_true(m, var[j])]
        if typ == "bool":
            return model_true(m, var)
        k = model_int(m, var)
        if typ == "seat":
            return None if k == NONE else k
        if typ in ("int", "alt"):
            return k
        if typ == "class":
            return CLASSES[k] if 0 <= k < K else None
        if typ == "dir":
            return DIRS[k] if 0 <= k < 3 else None
        if typ == "identity":
            from skillproof.model import vocab as V
            return V.COLOURS[k] if 0 <= k < len(V.COLOURS) else None
        if typ == "task":
            from skillproof.model.interp.win import TASKS
            return TASKS[k] if 0 <= k < len(TASKS) else None
        if typ == "card":
            return self.C.cards[k] if 0 <= k < len(self.C.cards) else None
        raise ValueError(typ)

    def pin(self, values: dict) -> list:
        """Equations fixing holes to values (hole name -> value as the trace writes it)."""
        out = []
        for name, v in values.items():
            if name not in self.vars:
                continue
            h, var = self.holes[name], self.vars[name]
            c = self.code(h.type, v)
            if h.type == "seats":
                out += [var[j] == c[j] for j in range(self.n)]
            else:
                out.append(var == z(c))
        return out

    # ====================================================================================== constraints
    def ok(self, label: str, value, rules=()) -> None:
        # a constant is read off the term as it stands, not simplified first: the solver simplifies anyway, and
        # ``verdict`` folds a ground template's checks with simplification (on the shipped check simplifying here
        # found no False the concrete parts had not already made, and cost a fifth of the encoding)
        value = fold(value, simplify=False)
        if value is True:
            return
        label = f"event {self.k}: {label}" if self.k >= 0 else f"setup: {label}"
        if value is False and self.stop_at_false:
            raise Illegal(label)
        self.legal.append(Labelled(label, tuple(rules), z3.BoolVal(False) if value is False else value))

    def bad(self, label: str, rules=()) -> None:
        self.ok(label, False, rules)

    def verdict(self):
        """Ground templates: True / False (legal or not); otherwise None (ask a solver: ``legal_expr``)."""
        vals = [fold(lab.expr) for lab in self.legal]
        if any(v is False for v in vals):
            return False
        if all(v is True for v in vals):
            return True
        return None

    def legal_expr(self):
        return z3.And([lab.expr for lab in self.legal]) if self.legal else z3.BoolVal(True)

    @property
    def final(self) -> SymTable:
        return self.tab

    def at(self, k: int | None = -1) -> SymTable:
        """The symbolic table after event ``k`` (-1: after the last; None: at the start). Needs keep_states."""
        if k is None:
            return self.initial
        if k == -1 or k == len(self.template.events) - 1 and not self.states:
            return self.tab
        return self.states[k]

    #: the seat attributes ``seat_term`` reads (the five counts are read off the area)
    SEAT_ATTRS = ("hand_count", "red_messages", "blue_messages", "black_messages", "true_messages",
                  "non_black_messages", "alive", "lost", "face_up", "ever_face_up", "locked", "identity", "task")

    def seat_term(self, seat: int, name: str, k: int | None = -1):
        """A seat's attribute after event ``k`` as a z3 term (identity: model.vocab.COLOURS index; task:
        win.TASKS index, -1 none), for pinning or asking about a state of the game."""
        s = self.at(k).seats[seat]
        v = {"hand_count": s.hand, "alive": s.alive, "lost": s.lost, "face_up": s.face_up, "ever_face_up": s.ever,
             "locked": s.locked, "identity": s.identity, "task": s.task}.get(name)
        if v is None:
            v = s.count(name)
        return z(v)

    def final_attr(self, seat: int, name: str):
        """A seat's attribute at the end of the game, as a z3 term (checks/realise.py pins the skeleton's final
        table with it; ``value`` gives the term of a value as a trace writes it)."""
        return self.seat_term(seat, name, -1)

    def value(self, name: str, v):
        """The z3 term of an attribute's value as a state writes it (an identity's colour, a task, a count, a
        truth value), comparable with ``seat_term`` / ``final_attr``."""
        if name == "identity":
            return z(ident_code(v))
        if name == "task":
            return z(task_code(v))
        return z(bool(v)) if isinstance(v, bool) else z(int(v))

    def winner_term(self, seat: int, k: int | None = -1):
        """The seat is among the winners after event ``k`` (the game over and he won)."""
        t = self.at(k)
        return z(AND(t.ended, t.winners[seat]))

    def over_term(self, k: int | None = -1):
        return z(self.at(k).ended)

    def seat_ok(self, v) -> bool:
        return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < self.n

    def tag(self) -> str:
        self._tag += 1
        return f"{self.prefix}{self.k}_{self._tag}"

    # ====================================================================================== the setup
    def _setup(self) -> SymTable:
        """The table at the start (twin of GameRunner.__init__ and setup_errors, trace.setup_errors,
        snapshot.snapshot_errors, win.deal_errors)."""
        cat, st0 = self.cat, self.template.setup
        seats = []
        for i, s in enumerate(st0.seats):
            area = self._area(s)
            seats.append(new_seat(s.character, s.skills, self.val(s.hand_count, "int"), area or [0] * K,
                                  self.val(s.face_up, "bool"), self.val(s.ever_face_up, "bool"),
                                  self.val(s.alive, "bool"), self.val(s.identity, "identity"),
                                  self.val(s.task, "task"), lost=bool(s.lost), locked=bool(s.locked)))
            seats[-1].invalidated = bool(s.invalidated)
            seats[-1].played = frozenset(s.played)
        n = len(seats)
        tab = SymTable(seats, turn=st0.turn, window=None, interrupted=None, sender=None, dying=None,
                       turn_sender=st0.turn_sender, in_front=NONE,
                       message=enc_class_of(st0.message) if st0.message else NONE,
                       message_dir=DIR_CODE.get(st0.message_dir, NONE), lockable=bool(st0.message_lockable),
                       dir_sent=DIR_CODE.get(st0.message_dir_sent, NONE) if st0.message_dir_sent else NONE,
                       message_face_up=bool(st0.message_face_up), message_sent=bool(st0.message_sent),
                       message_received=bool(st0.message_received), ended=st0.winners is not None,
                       declared=[j in (st0.declared or ()) for j in range(n)],
                       winners=[j in (st0.winners or ()) for j in range(n)], unknowns=dict(st0.unknowns))
        self.tab = tab
        self._setup_checks(tab)
        return tab

    def _area(self, s):
        """A seat's message area as a value per class: its ``area`` (a dict or pairs, values or holes), else the
        fewest-cards area with its five counts (None when there is none)."""
        a = s.area
        if a is None:
            return enc_decompose({f: getattr(s, f) for f in ("red_messages", "blue_messages", "black_messages",
                                                             "true_messages", "non_black_messages")})
        items = a.items() if isinstance(a, dict) else a
        out = [0] * K
        for c, v in items:
            if c in CODE:
                out[CODE[c]] = self.val(v, "int")
        return out

    def _setup_checks(self, tab: SymTable) -> None:
        cat, st0 = self.cat, self.template.setup
        n = self.n
        if not cat.rules.min_seats <= n <= cat.rules.seats:
            self.bad("a game's number of seats")
        chars = [s.character for s in st0.seats]
        if len(set(chars)) != n:
            self.bad("every character sits once")
        if not 0 <= st0.turn < n:
            self.bad("the turn player is a seat")
        for key in ("sender", "in_front", "dying"):
            v = getattr(st0, key)
            if v is not None and not 0 <= v < n:
                self.bad(f"the {key} is a seat")
        if not cat.rules.lock_self and st0.sender is not None and 0 <= st0.sender < n and st0.seats[st0.sender].locked:
            self.bad("the sender does not lock himself")
        for i, (s, t) in enumerate(zip(st0.seats, tab.seats)):
            self.ok(f"seat {i}: a living player has an identity", OR(NOT(t.alive), NE(t.identity, NOID)))
            ch = cat.characters.get(s.character)
            if ch is None:
                self.bad(f"seat {i}: a character of the catalogue")
                continue
            if not ch.hidden:
                self.ok(f"seat {i}: a public role is face up", t.face_up, (ch.id,))
            self.ok(f"seat {i}: face up only if ever face up", OR(NOT(t.face_up), t.ever))
            c = enc_counts(t.area)
            r, b, tr, nb = c["red_messages"], c["blue_messages"], c["true_messages"], c["non_black_messages"]
            self.ok(f"seat {i}: message counts fit", AND(LE(r, tr), LE(b, tr), LE(tr, ADD(r, b)), LE(nb, tr),
                                                         LE(SUB(tr, nb), c["black_messages"])))
            kinds = [cat.skills[x.rule].is_grant for x in s.skills]
            if any(kinds[j] and not kinds[j + 1] for j in range(len(kinds) - 1)):
                self.bad(f"seat {i}: initial skills come before granted ones")
            if not _in_role_order([x.rule for x in s.skills if not cat.skills[x.rule].is_grant], ch, cat):
                self.bad(f"seat {i}: the role's skills in order (consumed ones may be gone)")
            if any(cat.skills[x.rule].is_grant for x in s.skills):
                self.bad(f"seat {i}: no granted skill at the start")
            if s.invalidated or any(x.invalid for x in s.skills):
                self.bad(f"seat {i}: not invalidated at the start")
            if s.played:
                self.bad(f"seat {i}: no card played at the start")
            # GameRunner.setup_errors
            if s.area is None and self._area(s) is None:
                self.bad(f"seat {i}: message counts some area has")
            if s.area is not None:               # an area with holes too: the counts written beside it bind them
                five = {f: self.val(getattr(s, f), "int") for f in FIVE}
                self.ok(f"seat {i}: its message counts are its area's", enc_counts_are_area(five, t.area))
            self.ok(f"seat {i}: not alive with three black messages at the start",
                    NOT(AND(t.alive, NOT(t.lost), GE(c["black_messages"], 3))))
            self.ok(f"seat {i}: no hand once dead", OR(t.alive, EQ(t.hand, 0)))
            self.ok(f"seat {i}: a hand is no fewer than no cards", GE(t.hand, 0))
            for k in range(K):
                self.ok(f"seat {i}: an area count is no fewer than none", GE(t.area[k], 0))
        for label, v in enc_deal_ok(tab):
            self.ok(label, v)

    # ====================================================================================== the run
    def _turn_senders(self) -> list:
        """Per turn, who sends its message when the skeleton says (twin of trace._turn_senders)."""
        out: list = []
        for ev in self.template.events:
            if ev.kind == "turn":
                out.append(ev.sender)
            elif ev.kind == "window" and out and out[-1] is None and ev.window in TW.MESSAGE_WINDOWS \
                    and ev.sender is not None:
                out[-1] = ev.sender
        return out + [None]

    def _run(self) -> None:
        for k, ev in enumerate(self.template.events):
            self.k = k
            if ev.kind not in GAME_KINDS:
                self.bad(f"an event of a known kind ({ev.kind})")
            else:
                if ev.kind != "give":          # a consumed skill leaves after the grants its use hands out
                    for seat, inst, c in self.consumed:     # (a copy used under a condition: gone under it)
                        s = self.tab.seats[seat]
                        s.skills = [i for i in s.skills if i is not inst] if c is True else \
                            [gone_under(i, c) if i is inst else i for i in s.skills]
                    self.consumed = []
                if self.node(ev):
                    getattr(self, f"on_{ev.kind}")(ev)
            if self.keep_states:
                self.states.append(self.tab.copy())
        self.k = len(self.template.events)
        self.finish()

    def raise_(self, kind: str, roles: dict, words: dict | None = None, present=True) -> None:
        self.pending.append(Pending(kind, dict(roles), dict(words or {}), present, {}, self.k))

    def node(self, ev) -> bool:
        """Twin of GameRunner.node: the process node before ``ev`` (ProcessFsm.resolve): the win checks, the game
        not over, the card being used resolved first, the dying dealt with first."""
        tab = self.tab
        self.gives_at_once(ev)
        self.gives_to_one(ev)
        if ev.kind not in ANSWERING:
            self.discard_dead()
        if ev.kind not in NODE_FREE and self.card is None and tab.window != "dying":
            self.check_win()
        if tab.ended is True:
            self.bad("the game is not over")
            return False
        self.ok("the game is not over", NOT(tab.ended))
        if self.card is not None and ev.kind not in ("fire", "resolve", "give"):
            self.bad("the card being used resolves first")
        if ev.kind not in NODE_FREE:
            exempt = False
            if tab.window == "dying" and tab.dying is not None:
                exempt = enc_dying_first(tab, tab.dying)
            if ev.kind == "window" and ev.window == "dying" and self.seat_ok(ev.dying):
                exempt = OR(exempt, enc_dying_first(tab, ev.dying))
            self.ok("a player with three black messages is dying first", OR(NOT(enc_anyone_dying(tab)), exempt))
        if ev.kind not in ANSWERING and ev.kind != "resolve":
            self.pending = []
            self.end_resolution()
        return True

    def end_resolution(self) -> None:
        """Twin of GameRunner.end_resolution: a grant of ``lifetime = "resolution"`` is held from its give until the
        answers to the next card's finishing end (skill/JiangJiJiuJi.kt: added at the UseCardEvent, fired and removed
        at the FinishResolveCardEvent OnFinishResolveCard raises)."""
        for seat, inst, done in self.resolving:
            if done:
                s = self.tab.seats[seat]
                s.skills = [i for i in s.skills if i is not inst]
        self.resolving = [r for r in self.resolving if not r[2]]

    # -------------------------------------------------------------------------------------- grants to every player
    def gives_at_once(self, ev) -> None:
        """Twin of GameRunner.gives_at_once: a grant an effect hands to a set of players comes as one run of gives
        right after it (every recipient once, one site and giver, the same arguments; only gives and the effect's
        own send between — no other skill answering the same event), as many runs as its grant ops ran."""
        give = _site(self.cat, ev.site) if ev.kind == "give" else None
        member = give is not None and self.seat_ok(ev.giver) and self.seat_ok(ev.seat) and enc_set_granted(self.cat, give)
        run = self.at_once
        goes_on = member and run is not None and run["key"] == (ev.site, ev.giver) and ev.seat not in run["seats"]
        if run is not None and not goes_on:
            self.close_at_once()
        if ev.kind == "send" and any(o["sends"] and not o["sent"] for o in self.owed):
            for o in self.owed:
                o["sent"] = o["sent"] or o["sends"]
        elif ev.kind != "give":
            self.settle_owed()
        if goes_on:
            run["seats"].append(ev.seat)
            run["args"].append(_args_key(ev.args))
        elif member:
            o = next((o for o in self.owed if o["src"] == (ev.giver, give.giver) and o["grant"] == give.grant), None)
            to = o["to"] if o is not None else "all"
            self.at_once = {"key": (ev.site, ev.giver), "seats": [ev.seat], "args": [_args_key(ev.args)],
                            "want": enc_recipients(to, ev.giver, self.n), "give": give}
            if o is None:
                self.bad("a grant to every player comes right after the effect handing it out", (give.giver,))
            else:
                o["runs"] += 1
                self.ok("the effect handed the grant out (once per grant op done)", GE(o["ran"], o["runs"]),
                        (give.giver,))

    # -------------------------------------------------------------------------------------- grants to one player
    def gives_to_one(self, ev) -> None:
        """Twin of GameRunner.gives_to_one: a grant an effect hands to one player (skill/LengXueXunLian.kt
        ExecuteLengXueXunLian.resolve: ``r.skills += MustLockOne()``) is given to that player right after it — only
        gives between, before any other answer of the same event — once per grant op that ran; none without such
        an effect."""
        give = _site(self.cat, ev.site) if ev.kind == "give" else None
        if give is not None and self.seat_ok(ev.giver) and self.seat_ok(ev.seat) and enc_one_granted(self.cat, give):
            o = next((o for o in self.owed_one if o["src"] == (ev.giver, give.giver) and o["grant"] == give.grant),
                     None)
            if o is None:
                self.bad("a grant to one player comes right after the effect handing it out", (give.giver,))
            else:
                o["got"][ev.seat] = o["got"].get(ev.seat, 0) + 1
            return
        if ev.kind != "give":
            self.settle_one()        # (before another answer of the same event, the card it answered resolving)

    def settle_one(self, ending: bool = False) -> None:
        """Twin of GameRunner.settle_one: per seat, as many gives as grant ops that named him ran (at most that, where
        the site's condition has an unknown part: ``enc_unsure_sites``); at the trace's end an effect none of whose
        gives came yet is excused."""
        for o in self.owed_one:
            if ending and not o["got"]:
                continue
            for s in range(self.n):
                ran = SUM(ITE(AND(c, EQ(seat, s)), 1, 0) for c, seat in o["want"])
                got = o["got"].get(s, 0)
                self.ok("an effect's grant to one player is given to him right after it, once per grant op done",
                        GE(ran, got) if o["unsure"] else EQ(ran, got), (o["src"][1],))
        self.owed_one = []

    def close_at_once(self) -> None:
        run, self.at_once = self.at_once, None
        if sorted(run["seats"]) != list(run["want"]):
            self.bad("a grant to every player reaches every one at once", (run["give"].giver,))
        if len(set(run["args"])) > 1:
            self.bad("a grant to every player is the same for each", (run["give"].giver,))

    def settle_owed(self, ending: bool = False) -> None:
        """Twin of GameRunner.settle_owed."""
        for o in self.owed:
            if ending and o["sends"] and not o["sent"]:
                continue
            self.ok("an effect's grant to every player is handed out right after it", LE(o["ran"], o["runs"]),
                    (o["src"][1],))
        self.owed = []

    def owe(self, actor: int, source, ops, d) -> None:
        """Twin of GameRunner.owe (the copies a fire does the effect under are one effect: their counts add up)."""
        from skillproof.model.effects import walk
        for grant in enc_one_grants(ops):
            want = [(c, seat) for c, g, t, seat in d.grants if g == grant and t not in ("all", "others")]
            same = next((o for o in self.owed_one if o["src"] == (actor, source) and o["grant"] == grant), None)
            if same is not None:
                same["want"].extend(want)
            else:
                src = self.cat.cards.get(source) or self.cat.skills.get(source)
                self.owed_one.append({"src": (actor, source), "grant": grant, "want": want, "got": {},
                                      "unsure": enc_unsure_sites(src, grant)})
        sends = any(o.op == "send_message" for o in walk(ops))
        for grant, to in enc_set_grants(ops).items():
            ran = SUM(ITE(c, 1, 0) for c, g, t, _ in d.grants if g == grant and t in ("all", "others"))
            same = next((o for o in self.owed if o["k"] == self.k and o["src"] == (actor, source)
                         and o["grant"] == grant), None)
            if same is not None:
                same["ran"] = ADD(same["ran"], ran)
                continue
            self.owed.append({"src": (actor, source), "grant": grant, "to": to, "ran": ran, "runs": 0,
                              "sends": sends, "sent": False, "k": self.k})

    def discard_dead(self) -> None:
        """Twin of GameRunner.discard_dead: the dead's hand and area discarded once the death's triggers were asked."""
        for seat in self.to_discard:
            enc_discard_all(self.tab, seat)
        self.to_discard = []

    def _end_with(self, ends, D, W) -> None:
        tab = self.tab
        new = AND(NOT(tab.ended), ends)
        tab.declared = [ITE(new, D[j], tab.declared[j]) for j in range(self.n)]
        tab.winners = [ITE(new, W[j], tab.winners[j]) for j in range(self.n)]
        tab.ended = OR(tab.ended, ends)

    def check_win(self) -> None:
        """Twin of GameRunner.check_win: check_win, else the one camp left."""
        tab = self.tab
        if tab.ended is True:
            return
        key = self._win_key()
        if key is not None and _same_key(key, self._last_win[0]):
            got = self._last_win[1]             # nothing a win check reads has changed since the last node
            if self._applied[0] is got and _same_terms(self._applied[1], self._result_terms()):
                return                          # nor the result it wrote: ending with it again changes nothing
        else:
            e1, D1, W1 = enc_check_win(self.cat, tab, self.tag())
            e2, D2, W2 = enc_check_one_camp(self.cat, tab, self.tag()) if e1 is not True else (False, D1, W1)
            got = (OR(e1, e2), [ITE(e1, D1[j], D2[j]) for j in range(self.n)],
                   [ITE(e1, W1[j], W2[j]) for j in range(self.n)])
            self._last_win = (key, got)
        self._end_with(*got)
        self._applied = (got, self._result_terms())

    _last_win = (None, None)
    _applied = (None, ())

    def _result_terms(self) -> tuple:
        """What ``_end_with`` writes: ended, then the declared and the winners per seat."""
        tab = self.tab
        return (tab.ended, *tab.declared, *tab.winners)

    def _win_key(self):
        """What the win checks read: the turn player and, per seat, out / identity / task / alive and its area —
        constants, or the very terms of the last node (``_same_key``: a term is the same when it is the same object,
        nothing having rebuilt it). Where a WinSkill or ChangeGameResultSkill is held, its result pass may read
        anything a condition reads (checks/enc/cond.py ``attr``, the skill lists and their entries): then the key
        holds every value of the table's seats and the table's own values those conditions read."""
        tab, skills = self.tab, self.cat.skills
        passes = any("WinSkill" in skills[inst.rule].closure or "ChangeGameResultSkill" in skills[inst.rule].closure
                     for s in tab.seats for inst in s.skills)
        out = [tab.turn]
        for s in tab.seats:
            row = (s.lost, s.identity, s.task, s.alive) + tuple(s.area)
            if passes:
                row += (s.character, s.face_up, s.ever, s.locked, s.hand, s.played, s.invalidated, len(s.skills))
                for inst in s.skills:
                    row += (inst.rule, repr(sorted(inst.args.items())), inst.invalid, inst.used,
                            getattr(inst, "gone", False), inst.giver, inst.site, inst.turns_ago, inst.at)
            out.append(row)
        if passes:
            out.append((tab.sender, tab.in_front, tab.dying, tab.turn_sender, repr(sorted(tab.unknowns.items()))))
        return tuple(out)

    # -------------------------------------------------------------------------------------- turn and window
    def on_turn(self, ev) -> None:
        tab = self.tab
        n = self.n
        if self.seat_ok(ev.seat):
            s = tab.seats[ev.seat]
            ok = AND(s.alive, NOT(s.lost))
            if tab.window is not None:
                d = next(d for d in range(1, n + 1) if (tab.turn + d) % n == ev.seat)
                between = [tab.seats[(tab.turn + j) % n] for j in range(1, d)]
                ok = AND(ok, AND([NOT(AND(x.alive, NOT(x.lost))) for x in between]))
            self.ok("the next turn is the next living player's", ok)
        # the timed model (trace.Runner.on_turn)
        if tab.window not in (None, "turn_end"):
            self.bad("a new turn starts after the turn ended")
        if not self.seat_ok(ev.seat):
            self.bad("whose turn is a seat")
            return
        if tab.window is not None and n > 1 and ev.seat == tab.turn:
            self.bad("the next turn is another player's")
        if tab.window is not None:
            for s in tab.seats:
                for inst in s.skills:
                    if self.cat.skills[inst.rule].is_grant:
                        inst.turns_ago += 1
        tab.turn, tab.window, tab.interrupted = ev.seat, "draw", None
        tab.sender, tab.in_front, tab.dying = None, NONE, None
        for s in tab.seats:
            s.played = frozenset()
        self.counts = {}
        snd = self.senders[self.turns] if self.turns < len(self.senders) else None
        tab.turn_sender = snd if snd is not None else ev.seat
        self.turns += 1
        self.drawn, self.ending = False, False
        self.acted, self.send_via, self.named_sender = set(), None, NONE
        tab.message_sent = tab.message_received = False
        tab.message, tab.dir_sent, tab.message_face_up = NONE, NONE, False
        for s in tab.seats:
            s.locked = False

    def on_draw(self, ev) -> None:
        """Twin of GameRunner.on_draw (phase/DrawPhase.kt: the draw-count fold, encoders' ``enc_draw_count``)."""
        tab = self.tab
        if tab.window != "draw" or self.drawn:
            self.bad("cards are drawn once, in the draw phase")
            return
        n = ask(enc_draw_count(SeatView(self.cat, tab, tab.turn)))
        if ev.n is not None:
            self.ok("the draw phase draws as many cards as the fold says", EQ(self.val(ev.n, "int"), n),
                    self._rules_of(tab.turn, "ChangeDrawCardCountSkill"))
        s = tab.seats[tab.turn]
        s.hand = ADD(s.hand, MAX(0, n))
        self.drawn = True

    def _rules_of(self, seat: int, kind: str) -> tuple:
        return tuple(i.rule for i in self.tab.seats[seat].skills if kind in self.cat.skills[i.rule].closure)

    def on_window(self, ev) -> None:
        """Twin of GameRunner.on_window with trace.Runner.on_window."""
        tab = self.tab
        w, prev = ev.window, tab.window
        if prev == "draw" and w != "dying" and not self.drawn:
            self.bad("the draw phase draws first")
        if prev == "dying" and w != "dying" and tab.dying is not None:
            d = tab.seats[tab.dying]
            self.ok("nobody saved the dying player: he dies first", OR(NOT(d.alive), enc_saved(tab, tab.dying)))
        if w == "dying" and self.seat_ok(ev.dying):
            self.ok("the dying player is the first with three black messages", enc_dying_ok(tab, ev.dying))
        base = prev if prev != "dying" else tab.interrupted
        if w in ("send", "fight", "receive") and self.seat_ok(ev.in_front):
            self.message_step(base, w, ev)
        if w == "turn_end":
            self.turn_end_ok(base)
        before = tab.in_front
        self._timed_window(ev)
        tab = self.tab
        if w in ("send", "fight", "receive") and base == w == "fight":
            self.ok("in the fight phase only a card or skill moves the message",
                    OR(EQ(before, NONE), EQ(tab.in_front, before)))
        if w == "send_start":
            self.raise_("send_phase_start", {"turn_player": tab.turn})
        if w == "turn_end":
            self.raise_("turn_end", {"turn_player": tab.turn})
            if tab.ended is not True:
                self._end_with(*enc_check_disturber_win(self.cat, tab, self.tag()))

    def _timed_window(self, ev) -> None:
        """Twin of trace.Runner.on_window: the turn's windows in order (model.turn), a dying window's player, a
        message window's players, the turn end's lifetimes (phase/NextTurn.kt)."""
        tab = self.tab
        w = ev.window
        if tab.window is None:
            self.bad("a window after a turn started")
            return
        if w not in TW.WINDOWS:
            self.bad(f"a known window ({w})")
            return
        if not _follows(tab.window, w, tab.interrupted):
            self.bad(f"{w} may follow {tab.window}")
        if w == "dying":
            if not self.seat_ok(ev.dying):
                self.bad("the dying player is a seat")
                return
            tab.interrupted = tab.window if tab.window != "dying" else tab.interrupted
            tab.window, tab.dying = "dying", ev.dying
            return
        tab.dying, tab.interrupted = None, None
        if w in TW.MESSAGE_WINDOWS:
            if not self.seat_ok(ev.in_front):
                self.bad("the message is in front of a seat")
                return
            sender = ev.sender if ev.sender is not None else (tab.sender if tab.sender is not None else tab.turn)
            if not self.seat_ok(sender):
                self.bad("the sender is a seat")
                return
            tab.in_front, tab.sender = ev.in_front, sender
        else:
            tab.in_front, tab.sender = NONE, None
        tab.window = w
        if w == "turn_end":
            self._turn_end_lifetimes()

    def _turn_end_lifetimes(self) -> None:
        """Twin of interp.lifetime.turn_end: ``rules.turn_end`` in order (InvalidSkill.reset, OneTurnSkill.reset),
        then use counts reset."""
        for step in self.cat.rules.turn_end:
            for s in self.tab.seats:
                if step == "restore_invalid":
                    s.invalidated = False
                    for inst in s.skills:
                        inst.invalid = False
                elif step == "drop_one_turn":
                    s.skills = [i for i in s.skills if "OneTurnSkill" not in live_kinds_of(self.cat, i)]
        for s in self.tab.seats:
            for inst in s.skills:
                inst.used = NOT(held(inst))    # (a consumed copy gone under a condition is not usable again)

    def message_step(self, base, w: str, ev) -> None:
        """Twin of GameRunner.message_step: the message's path as the message windows move it."""
        tab = self.tab
        cat = self.cat
        if base == "send_start" and w == "send":
            self.bad("the message is sent (a send event) before the send phase's windows")
        elif base == "send" and w == "send":
            self.ok("the message passes on to its next stop", enc_pass_ok(cat, tab, ev.in_front),
                    self._rules_of_at(tab.in_front, "MustReceiveMessage"))
            tab.in_front = ev.in_front
            self.raise_("move", {"front": ev.in_front}, {"message_face_up": tab.message_face_up,
                                                         "message_colours": _n_colours(tab.message)})
        elif base == "send" and w == "fight":
            self.ok("the player it is in front of may accept it", AND(enc_accept_ok(cat, tab), EQ(ev.in_front,
                                                                                                   tab.in_front)),
                    self._rules_of_at(tab.in_front, "MustReceiveMessage"))
            self.raise_("choose_receive", {"front": tab.in_front}, {"message_colours": _n_colours(tab.message)})
        elif base == "fight" and w == "fight":
            self.ok("in the fight phase only a card or skill moves the message", EQ(ev.in_front, tab.in_front))
        elif w == "receive":
            if base != "fight":
                self.bad("a message is received only after the fight phase")
                return
            if not tab.message_sent:
                self.bad("a message was sent to be received")
                return
            if tab.message_received:
                self.bad("a message is received once a turn")
                return
            self.ok("the player it is in front of is alive to receive it", enc_receive_ok(tab))
            self.ok("the player it is in front of receives it", EQ(ev.in_front, tab.in_front))
            self.ok("there is a message to receive", NE(tab.message, NONE))
            tab.update_area(tab.in_front, tab.message, 1)
            tab.message_received = True
            roles = {"sender": tab.sender if tab.sender is not None else NONE, "receiver": tab.in_front}
            self.raise_("receive", roles, {"message_in_area": True, "message_colours": _n_colours(tab.message)})
            self.raise_("receive_phase", roles)
        elif w in ("send", "fight") and not tab.message_sent:
            self.bad("a message has been sent")

    def _rules_of_at(self, seat, kind: str) -> tuple:
        if is_c(seat) and 0 <= seat < self.n:
            return self._rules_of(seat, kind)
        return tuple(sorted({r for s in range(self.n) for r in self._rules_of(s, kind)}))

    def turn_end_ok(self, base) -> None:
        """Twin of GameRunner.turn_end_ok: the turn may end — its message received, discarded, its player out, an
        effect ended it; a turn player with no card to send at 传递阶段开始时 loses (phase/SendPhaseStart.kt)."""
        tab = self.tab
        tp = tab.seats[tab.turn]
        done = OR(tab.message_received, self.ending, NOT(tp.alive), tp.lost)
        discarded = False
        if base in ("send", "fight") and tab.message_sent:
            if base == "send":
                discarded = EQ(enc_next_stop(tab), NONE)
            else:
                discarded = NOT(tab.at(tab.in_front, lambda s: s.alive, False))
        loses = False
        if base == "send_start" and not tab.message_sent:
            loses = AND(NOT(done), EQ(tp.hand, 0), NOT(self._sends_without_hand(tab.turn)))
        self.ok("before the turn ends its message is sent and received (or discarded)", OR(done, discarded, loses))
        if loses is not False:
            tp.alive = ITE(loses, False, tp.alive)
            tp.lost = ITE(loses, True, tp.lost)
            tp.area = [ITE(loses, 0, x) for x in tp.area]

    def _sends_without_hand(self, seat: int):
        """Holds a live ActiveSkill whose effect sends a message from elsewhere than the hand (冷血训练): a condition
        (a consumed copy may be gone under one)."""
        from skillproof.model.effects import sends_from_elsewhere
        return OR([held(inst) for inst in self.tab.seats[seat].skills
                   if "ActiveSkill" in live_kinds_of(self.cat, inst) and sends_from_elsewhere(self.cat.skills[inst.rule].do)])

    # -------------------------------------------------------------------------------------- the send
    def on_send(self, ev) -> None:
        """Twin of GameRunner.on_send with path.send_errors / apply_send."""
        tab, cat = self.tab, self.cat
        src = ev.source or "hand"
        via = self.send_via
        if src != "hand" or via is not None:
            if via is None:
                self.bad("only a card's or skill's effect sends a message so")
                return
            present, f = via
            self.ok("the send is the one the effect says",
                    ITE(present, AND(f["from"].get(src, False), EQ(f["by"], ev.seat)), src == "hand"))
        # only the turn player sends, or the player another's effect made the sender (twin of GameRunner.on_send)
        if self.seat_ok(ev.seat) and ev.seat != tab.turn:
            self.ok("only the turn player sends, unless another player's card or skill makes him the sender",
                    EQ(self.named_sender, ev.seat))
        # whose hand gives the card: the effect's ``of`` (诱敌深入: the user's), the sender's when it names nobody
        hand_of = ITE(AND(via[0], NE(via[1]["of"], NONE)), via[1]["of"], ev.seat) \
            if via is not None and src == "hand" else None
        if tab.window != "send_start":
            self.bad("a message is sent at the start of the send phase")
            return
        if tab.message_sent:
            self.bad("one message is sent a turn")
            return
        if not self.seat_ok(ev.seat) or ev.seat != tab.sender_of_turn():
            self.bad("the sender is this turn's sender")
            return
        cls = self.val(ev.colours, "class")
        arrow, d = self.val(ev.arrow, "dir"), self.val(ev.dir, "dir")
        lockable = self.val(ev.lockable, "bool") if ev.lockable is not None else False
        to = self.val(ev.to, "seat")
        locks_ok = True
        if isinstance(ev.locks, Hole):
            locks = self.hole(ev.locks)
        else:
            lst = list(ev.locks or ())
            locks_ok = len(set(lst)) == len(lst) and all(self.seat_ok(x) for x in lst)
            locks = [j in lst for j in range(self.n)]
        if not locks_ok:
            self.bad("no player locked twice, every one a seat")
        if via is not None:
            # twin of GameRunner.on_send: the effect's send locks the player it names, and him alone (冷血训练:
            # OnSendCard with listOf(lockPlayer), skill/LengXueXunLian.kt resolveProtocol)
            present, f = via
            self.ok("the message an effect sends is locked on the player it names",
                    OR(NOT(AND(present, f["locks_one"])),
                       AND(NE(f["lock"], NONE), AND([EQ(locks[j], EQ(f["lock"], j)) for j in range(self.n)]))))
        send_rules = tuple(sorted({r for g in ("SendMessageDirectionSkill", "SendMessageCanLockSkill",
                                              "SendMessageCardSkill") for r in self._rules_of(ev.seat, g)}))
        self.ok("the send rules in force allow this send",
                enc_send_ok(cat, tab, ev.seat, cls, arrow, lockable, d, to, locks, src == "hand", hand_of), send_rules)
        if src == "message_area":
            have = tab.at(ev.seat, lambda s: pick(cls, s.area, 0), 0)
            self.ok("his area has this message", GE(have, 1))
            tab.update_area(ev.seat, cls, -1)
        face_up = self.val(ev.face_up, "bool") if ev.face_up is not None else False
        enc_apply_send(tab, ev.seat, cls, arrow, lockable, d, to, locks, face_up, src == "hand", hand_of)
        if via is not None:
            tab.message_face_up = ITE(via[0], via[1]["face_up"], tab.message_face_up)
        self.send_via = None
        # the message stops in front of its first stop: the send phase's first window (OnSendCard → SendPhaseIdle;
        # trace.Runner.on_window for a window "send" in front of ``to``, sent by the sender)
        self.ok("the message is in front of a seat", seat_value_ok(self.n, to))
        tab.dying, tab.interrupted = None, None
        tab.in_front, tab.sender, tab.window = to, ev.seat, "send"
        self.raise_("send", {"sender": ev.seat, "target": to}, {"dir": d, "message_colours": _n_colours(cls)})
        self.raise_("move", {"front": to}, {"message_face_up": tab.message_face_up, "message_colours": _n_colours(cls)})

    # -------------------------------------------------------------------------------------- cards
    def on_play(self, ev) -> None:
        """Twin of GameRunner.on_play with trace.Runner.on_play (card/*.kt canUse; conversions and bans: the encoders'
        ``enc_can_play``)."""
        tab, cat = self.tab, self.cat
        if not self.seat_ok(ev.seat):
            self.bad("the player who plays is a seat")
            return
        s = tab.seats[ev.seat]
        declared = self.C.card.get(ev.card, NONE) if isinstance(ev.card, str) else NONE
        if ev.actual is None:
            actual = declared
        else:
            a = self.val(ev.actual, "card")
            actual = ITE(EQ(a, NONE), declared, a)
        self.ok("a living player plays", s.alive)
        self.ok("he has a card in hand", GE(s.hand, 1))
        view = SeatView(cat, tab, ev.seat)
        if ev.card in cat.cards:
            rules = self._rules_of(ev.seat, "ConvertCardSkill") + self._rules_of(ev.seat, "CannotPlayCard")
            self.ok("this card may be played as the declared one", ask(enc_can_play(view, z(actual), z(declared))),
                    rules + (ev.card,))
        if tab.window is None or tab.window == "turn_end":
            self.bad("a card is played in a window of a turn")
            return
        if ev.card not in cat.cards:
            self.bad("a card of the catalogue")
            return
        self.ok("a card of this type may be used now", ask(enc_card_usable(view, z(declared))), (ev.card,))
        s.played = s.played | {ev.card}
        target = self.val(ev.target, "seat")
        self.ok("the card's target", self.target_ok(ev.seat, ev.card, target), (ev.card,))
        self.ok("the card's use meets what the server checks (requires)",
                self.requires_ok(ev, cat.cards[ev.card], {"target": target}), (ev.card,))
        s.hand = MAX(0, SUB(s.hand, 1))
        self.card = {"seat": ev.seat, "card": ev.card, "target": target, "cancelled": False}
        self.acted.add((ev.seat, ev.card))
        self.raise_("use_card", {"user": ev.seat, "target": target},
                    {"card": declared, "real_card": True, "has_target": NE(target, NONE), "card_valid": True})

    def target_ok(self, seat: int, card_id: str, target):
        """Twin of GameRunner.target_errors (``[[card]] target``)."""
        tab = self.tab
        spec = getattr(self.cat.cards[card_id], "target", None)
        who = spec.who if spec is not None else "none"
        if who == "none":
            return EQ(target, NONE)
        conds = [seat_value_ok(self.n, target)]
        if is_c(target) and not self.seat_ok(target):
            return False
        conds.append(tab.at(target, lambda s: s.alive, False))
        if who == "other":
            conds.append(NE(target, seat))
        cond = spec.when.get(tab.window, spec.when.get("*")) if spec.when else None
        if cond is not None:
            players = {"self": seat, "target": target, **self.window_players()}
            conds.append(compile_on(self.cat, self.C, tab, cond, players))
        return AND(conds)

    def requires_ok(self, ev, rule, given: dict, params: dict | None = None, used=False):
        """Twin of GameRunner.requires_errors (usable.enc_requires_met): the use's players — its target and chosen
        player (NONE: none named) — and the window's bound."""
        if rule.requires is None:
            return True
        players = dict(self.window_players())
        for w in ("target", "chosen"):
            if w in given:
                players[w] = given[w]
            elif getattr(ev, w) is not None:
                players[w] = self.seat_or_none(self.val(getattr(ev, w), "seat"))
        if "chosen" in players:                     # the request's player where the use names no target: interp use_players
            t = players.get("target", NONE)
            players["target"] = players["chosen"] if is_c(t) and t == NONE else ITE(EQ(t, NONE), players["chosen"], t)
        return enc_requires_met(self.cat, self.C, self.tab, ev.seat, rule.requires, players, self.n, params, used)

    def window_players(self) -> dict:
        """Twin of GameRunner.window_players: the turn player, the sender, the player the message is in front of, the
        dying player, each with the nearest living neighbours (NONE: not there, or nobody else alive)."""
        tab = self.tab
        out = {"turn_player": tab.turn, "sender": NONE if tab.sender is None else tab.sender,
               "front": NONE if tab.in_front is None else tab.in_front, "dying": NONE if tab.dying is None else tab.dying}
        out = {k: self.seat_or_none(v) for k, v in out.items()}
        for k, v in list(out.items()):
            for side in ("left", "right"):
                out[f"{k}_{side}"] = NONE if is_c(v) and v == NONE else ITE(EQ(v, NONE), NONE, enc_next_alive(tab, v, side))
        return out

    def roles(self, actor: int, extra: dict | None = None) -> dict:
        """Twin of GameRunner.roles: the players of the moment (NONE: not there)."""
        tab = self.tab
        out = {"self": actor, "turn_player": tab.turn, "sender": NONE if tab.sender is None else tab.sender,
               "front": tab.in_front, "dying": NONE if tab.dying is None else tab.dying}
        out.update(extra or {})
        return {k: self.seat_or_none(v) for k, v in out.items()}

    def seat_or_none(self, v):
        """A player value as the roles keep it: a seat, else nobody (NONE)."""
        if is_c(v):
            return v if self.seat_ok(v) else NONE
        return ITE(AND(GE(v, 0), v < self.n), v, NONE)

    def _decider(self, ev):
        k = self.k
        ch = ev.choices

        def decide(path: str, key: str, default):
            if ch == AUTO:
                name = f"e{k}/{path}/{key}"
                typ, dom = {"alt": ("alt", (8,)), "cls": ("class", CLASSES), "skip": ("bool", (True, False)),
                            "n": ("int", (0, 8))}[key]
                self.auto[(k, path, key)] = name
                return self.hole(Hole(name, typ, dom))
            c = ch.get(path) if isinstance(ch, dict) else None
            if not isinstance(c, dict) or key not in c:
                return default
            v = c[key]
            if isinstance(v, Hole):
                return self.hole(v)
            if key == "alt":
                return v if isinstance(v, int) and not isinstance(v, bool) else NONE
            if key == "skip":
                return bool(v)
            if key == "n":
                return v if isinstance(v, int) and not isinstance(v, bool) else NONE
            return CODE.get(v, NONE) if isinstance(v, str) else NONE
        return decide

    def do(self, actor: int, ops, ev, roles: dict, words: dict | None = None, pc=True, inst=None,
           source=None) -> SymDoing:
        """Twin of GameRunner.do: an effect (ops.py) and what it raises; the event's decisions are read. ``inst``:
        the skill-list entry whose effect it is (its arguments are the effect's parameters: cond.params_of)."""
        tab = self.tab
        r = dict(roles)
        for w in ("chosen", "chosen2"):
            x = getattr(ev, w)
            if x is None:
                continue
            v = self.val(x, "seat")
            self.ok(f"the player the effect chooses ({w}) is a living player",             # (if the effect happens)
                    OR(NOT(pc), EQ(v, NONE), AND(seat_value_ok(self.n, v), tab.at(v, lambda s: s.alive, False))))
            r[w] = self.seat_or_none(v)
        d = SymDoing(self.cat, tab, actor, r, self._decider(ev), dict(words or {}), pc)
        d.by_skill = ev.kind in ("use", "fire")
        d.params = params_of(self.cat, self.C, inst) if inst is not None else {}
        enc_run_ops(d, ops)
        self.owe(actor, source, ops, d)
        self.done.setdefault(self.k, []).extend(d.done)      # twin of GameRunner.done
        for label, c in d.errors:
            self.ok(f"the effect: {label}", NOT(c))
        for label, c in d.bounds:
            self.ok(f"the effect: {label}", c)
        for present, kind, rr, ww in d.raised:
            self.raise_(kind, rr, ww, present=present)
        if d.sent is not None:
            p, f = d.sent
            # 密令: an effect whose send names another sender than its actor makes him this turn's sender
            self.named_sender = ITE(AND(p, NE(f["by"], NONE), NE(f["by"], actor)), f["by"], self.named_sender)
            if self.send_via is None:
                self.send_via = (p, f)
            else:
                op_, of = self.send_via
                merged = {key: ITE(p, f[key], of[key]) for key in ("by", "of", "face_up", "locks_one", "lock")}
                merged["from"] = {x: OR(AND(p, f["from"].get(x, False)), AND(NOT(p), of["from"].get(x, False)))
                                  for x in sorted(set(f["from"]) | set(of["from"]))}
                self.send_via = (OR(op_, p), merged)
        self.ending = OR(self.ending, d.ends_turn)
        for s, c in d.killed:
            tab.update(s, "alive", lambda v: False, c)
            self.raise_("die", {"victim": s}, present=c)
        return d

    def on_resolve(self, ev) -> None:
        """Twin of GameRunner.on_resolve (phase/ResolveCard.kt, OnFinishResolveCard.kt)."""
        card = self.card
        if card is None:
            self.bad("a card is being used")
            return
        self.card = None
        c = self.cat.cards[card["card"]]
        self.do(card["seat"], c.do, ev, self.roles(card["seat"], {"target": card["target"], "user": card["seat"]}),
                pc=NOT(card["cancelled"]), source=card["card"])
        self.raise_("card_resolved", {"user": card["seat"], "target": card["target"]},
                    {"card": self.C.card[card["card"]], "real_card": True, "has_target": NE(card["target"], NONE)})
        for r in self.resolving:              # its card has finished: gone once the answers to that end
            r[2] = True

    # -------------------------------------------------------------------------------------- skills
    def on_use(self, ev) -> None:
        """Twin of GameRunner.on_use with trace.Runner.on_use: an ActiveSkill used (its window, actor and condition:
        the encoders' ``enc_skill_usable_now``; its cost, a role turned face up; its effect)."""
        tab, cat = self.tab, self.cat
        rule = cat.skills.get(ev.rule) if isinstance(ev.rule, str) else None
        if rule is not None and rule.has("TriggeredSkill") and not rule.has("ActiveSkill"):
            self.bad("a triggered skill answers an event, it is not used")
            return
        # the entry used is the first copy not used yet (trace.Runner.on_use: ``insts[0]``; the server's findSkill
        # takes the first copy of the skill). A copy a fire marked used may be marked under a condition (a skill held
        # twice, both triggered and active: enc_fire_ok's pick of the copy whose guard held is the table's), so the
        # entry is a selection: (condition that it is the first unused copy, copy), and ``none``: every copy used
        picks, none = [], True
        if self.seat_ok(ev.seat) and rule is not None:
            for i in tab.seats[ev.seat].skills:
                if i.rule != ev.rule or i.used is True:
                    continue
                c = AND(none, NOT(i.used))
                if c is not False:
                    picks.append((c, i))
                none = AND(none, i.used)
                if none is False:
                    break
        if picks and rule.has("ActiveSkill"):
            # that copy's window, actor and condition (its arguments): interp skill_usable_now(insts[0])
            self.ok("the skill may be used now",
                    OR([none] + [AND(c, ask(enc_skill_usable_now(SeatView(cat, tab, ev.seat, insts=[i]), ev.rule)))
                                 for c, i in picks]), (ev.rule,))
        if picks and rule.has("ActiveSkill") and rule.requires is not None:
            # what the server checks before the use, before its cost and effect: interp requires_errors(insts[0])
            self.ok("the skill's use meets what the server checks (requires)",
                    OR([none] + [AND(c, self.requires_ok(ev, rule, {}, params_of(cat, self.C, i), i.used))
                                 for c, i in picks]), (ev.rule,))
        if picks and rule.flips:
            s = tab.seats[ev.seat]
            self.ok("the role is face down to be turned up", NOT(s.face_up), (ev.rule,))
            s.face_up, s.ever = True, True
            self.done.setdefault(self.k, []).append((True, {     # twin of game.cost_flip
                "op": "flip", "path": "cost", "seats": {"who": [(ev.seat, True)]}, "face": "up", "grant": None,
                "colour": None, "cards": (), "dying": tab.dying}))
        if not self.seat_ok(ev.seat) or tab.window is None:
            self.bad("use: a seat, in a turn")
            return
        if not picks:
            self.bad("use: the seat holds an unused instance of the skill")
            return
        self.ok("use: the seat holds an unused instance of the skill", NOT(none), (ev.rule,))
        for c, i in picks:
            i.used = OR(i.used, c)
        extra = {}
        if ev.target is not None:
            t = self.val(ev.target, "seat")
            self.ok("the skill's target is a living player",
                    OR(EQ(t, NONE), AND(seat_value_ok(self.n, t), tab.at(t, lambda s: s.alive, False))), (ev.rule,))
            extra["target"] = t
        self.acted.add((ev.seat, ev.rule))
        # the effect with the used copy's arguments: one copy (or copies alike) at once, else under each copy's
        # condition of being the one used (as on_fire)
        alike = len({repr(sorted(i.args.items())) for _, i in picks}) <= 1
        for c, i in (picks[:1] if alike else picks):
            self.do(ev.seat, rule.do, ev, self.roles(ev.seat, extra), pc=True if alike else c, inst=i, source=ev.rule)
        if rule.consumed:                   # gone once used — after the grants its use hands out (give events next)
            # (a copy used under a condition stays in the list, gone under it: the list itself is the skeleton's)
            self.consumed.extend((ev.seat, i, c) for c, i in picks)

    def on_fire(self, ev) -> None:
        """Twin of GameRunner.on_fire with fires.fire_errors (Game.dealListeningSkill)."""
        tab, cat = self.tab, self.cat
        if not self.seat_ok(ev.seat) or ev.rule not in cat.skills:
            self.bad("fire: a seat and a skill of the catalogue")
            return
        if not any(i.rule == ev.rule for i in tab.seats[ev.seat].skills):
            self.bad("fire: the seat holds the skill")
            return
        ok, sel, picks = enc_fire_ok(cat, tab, ev.seat, ev.rule, self.pending, ev.on)
        self.ok("a pending event the skill answers", ok, (ev.rule,))
        if ok is False:
            return
        rule = cat.skills[ev.rule]
        for c, inst in picks:                    # the copy that answered (fires.fire_errors: the first whose guard holds)
            inst.used = OR(inst.used, c)
        self.acted.add((ev.seat, ev.rule))
        roles, words = {}, {}
        if sel:
            for c, i in sel:
                e = self.pending[i]
                key = (ev.seat, ev.rule)
                e.answered[key] = OR(e.answered.get(key, False), c)
            names = {w for _, i in sel for w in self.pending[i].roles}
            wnames = {w for _, i in sel for w in self.pending[i].words}
            for w in names:
                roles[w] = _select(sel, lambda i: self.pending[i].roles.get(w, NONE), self.pending, NONE)
            for w in wnames:
                # the answered event's own value (interp GameRunner.on_fire: its words): among the events that carry
                # it, the last one's as the default, of the value's own type (a card's code stays a number)
                have = [(c, i) for c, i in sel if w in self.pending[i].words]
                words[w] = _select(have, lambda i: self.pending[i].words[w], self.pending,
                                   self.pending[have[-1][1]].words[w])
        # the effect with the answering copy's arguments: one copy (or copies alike) at once, else under each
        # copy's condition of being the one that answered
        alike = len({repr(sorted(i.args.items())) for _, i in picks}) <= 1
        for c, inst in (picks[:1] if alike else picks):
            d = self.do(ev.seat, rule.do, ev, self.roles(ev.seat, roles), words, pc=True if alike else c, inst=inst,
                        source=ev.rule)
            if self.card is not None:
                self.card["cancelled"] = OR(self.card["cancelled"], d.cancelled)

    def on_die(self, ev) -> None:
        """Twin of GameRunner.on_die (StartWaitForChengQing: nobody saved him; CheckKillerWin; AfterDieGiveCard)."""
        tab, cat = self.tab, self.cat
        if not self.seat_ok(ev.seat):
            self.bad("the player who dies is a seat")
            return
        if tab.window != "dying" or tab.dying != ev.seat:
            self.bad("the player who dies is the dying player")
            return
        self.ok("nobody saved him", enc_die_ok(tab, ev.seat))
        enc_apply_die(tab, ev.seat)
        self.raise_("die", {"victim": ev.seat})
        k_ends, kD, kW = enc_check_killer_win(cat, tab, ev.seat, self.tag())
        self.to_discard.append(ev.seat)          # discarded after the death's triggers (discard_dead)
        if k_ends is not True:
            o_ends, oD, oW = enc_check_one_camp(cat, tab, self.tag())
        else:
            o_ends, oD, oW = False, kD, kW
        self._end_with(OR(k_ends, o_ends), [ITE(k_ends, kD[j], oD[j]) for j in range(self.n)],
                       [ITE(k_ends, kW[j], oW[j]) for j in range(self.n)])

    # -------------------------------------------------------------------------------------- grants, roles
    def on_give(self, ev) -> None:
        """Twin of GameRunner.on_give with trace.Runner.on_give / give_errors."""
        tab, cat = self.tab, self.cat
        give = _site(cat, ev.site)
        if give is not None and self.seat_ok(ev.giver) and (ev.giver, give.giver) not in self.acted:
            self.bad("the giver used the giving skill or card this turn", (give.giver,))
        self.give_ok(ev, give)
        if give is None or give.grant not in cat.skills or not (self.seat_ok(ev.seat) and self.seat_ok(ev.giver)) \
                or tab.window is None:
            return
        rule = cat.skills[give.grant]
        key = (ev.site, ev.seat)
        self.counts[key] = self.counts.get(key, 0) + 1
        self.given.append((self.k, self.turns, tab.window, ev.giver, ev.seat, ev.site))
        self.events_seq.append(self.k)
        s = tab.seats[ev.seat]
        if "InvalidSkill" in rule.closure:
            s.invalidated = True
            for inst in s.skills:
                if cat.skills[inst.rule].initial:
                    inst.invalid = True
        else:                                 # a "resolution" one too, until its card's finishing (end_resolution)
            s.skills.append(SkillInst(give.grant, dict(ev.args), giver=ev.giver, site=ev.site, turns_ago=0,
                                      at=tab.window, event=self.k))
            if rule.lifetime == "resolution":
                self.resolving.append([ev.seat, s.skills[-1], False])

    def give_ok(self, ev, give) -> None:
        """Twin of trace.give_errors: the site's window, a live giver who may act, whom it reaches, its arguments
        and ``where``, its ``when`` on the giver, ``per_turn``."""
        tab, cat = self.tab, self.cat
        if give is None:
            self.bad("a gives site of the catalogue")
            return
        rules = (give.giver,)
        if tab.window is None or tab.window == "turn_end":
            self.bad("a grant is handed out in a window of a turn", rules)
            return
        if not (self.seat_ok(ev.giver) and self.seat_ok(ev.seat)):
            self.bad("giver and receiver are seats", rules)
            return
        if give.at and tab.window not in give.at:
            self.bad("the site hands out in this window", rules)
            return
        view = SeatView(cat, tab, ev.giver)
        if give.giver_is_card:
            self.ok("the giver may use the card now", ask(enc_in_window(view, view.q, z(0),
                                                                        cat.cards[give.giver].windows)), rules)
        else:
            rule = cat.skills[give.giver]
            if not any(i.rule == give.giver and not i.invalid for i in tab.seats[ev.giver].skills):
                self.bad("the giver holds the skill, live", rules)
                return
            self.ok("the giver holds the skill, live",
                    OR([held(i) for i in tab.seats[ev.giver].skills if i.rule == give.giver and not i.invalid]), rules)
            if rule.has("ActiveSkill") and not rule.has("TriggeredSkill"):
                if give.at and give.on != "use":
                    may = OR([ask(enc_actor_ok(view, view.q, z(0), a)) for a in rule.windows.values()])
                else:
                    may = ask(enc_in_window(view, view.q, z(0), rule.windows))
                self.ok("the giver may use the skill now", may, rules)
        if give.to == "self" and ev.giver != ev.seat or give.to == "others" and ev.giver == ev.seat:
            self.bad("the site reaches the receiver", rules)
            return
        grant = cat.skills[give.grant]
        for p, v in give.args.items():
            got = ev.args.get(p)
            if (tuple(sorted(got)) if isinstance(got, (list, tuple, set, frozenset)) else got) != \
                    (tuple(sorted(v)) if isinstance(v, list) else v):
                self.bad("the grant's fixed arguments", rules)
                return
        if any(p not in ev.args for p in grant.params):
            self.bad("every parameter of the grant has a value", rules)
            return
        if give.where is not None:
            params = params_of(cat, self.C, SkillInst(give.grant, dict(ev.args)))
            self.ok("the grant's parameters meet the site's where",
                    compile_on(cat, self.C, tab, give.where, {"self": ev.giver}, params, globals_={}), rules)
        self.ok("the giver meets the site's when", compile_on(cat, self.C, tab, give.when, {"self": ev.giver}), rules)
        if self.counts.get((ev.site, ev.seat), 0) >= give.per_turn:
            self.bad("the site's per_turn", rules)

    def on_replace(self, ev) -> None:
        """Twin of trace.Runner.on_replace / replace_errors / apply_replace (server HouLaiRen)."""
        tab, cat = self.tab, self.cat
        self.replace_ok(ev)
        if self.seat_ok(ev.seat) and tab.window is not None:
            # the replacing skill's cost and effect, before the new role (twin of GameRunner.on_replace)
            inst = next((i for i in tab.seats[ev.seat].skills if not i.invalid and cat.skills[i.rule].replaces_role
                         and (ev.via is None or i.rule == ev.via)), None)
            if inst is not None:
                rule = cat.skills[inst.rule]
                if rule.flips:
                    s = tab.seats[ev.seat]
                    s.face_up, s.ever = True, True
                    self.done.setdefault(self.k, []).append((True, {     # twin of game.cost_flip
                        "op": "flip", "path": "cost", "seats": {"who": [(ev.seat, True)]}, "face": "up", "grant": None,
                        "colour": None, "cards": (), "dying": tab.dying}))
                self.acted.add((ev.seat, inst.rule))
                self.do(ev.seat, rule.do, ev, self.roles(ev.seat), inst=inst, source=inst.rule)
        if self.seat_ok(ev.seat) and ev.character in cat.characters and tab.window is not None:
            s = tab.seats[ev.seat]
            ch = cat.characters[ev.character]
            s.character = ev.character
            s.skills = [SkillInst(r) for r in ch.skills]
            s.face_up = not ch.hidden
            s.ever = s.face_up
            s.invalidated = False
        self.events_seq.append(self.k)

    def replace_ok(self, ev) -> None:
        tab, cat = self.tab, self.cat
        if not self.seat_ok(ev.seat):
            self.bad("replace: a seat")
            return
        usable = [i for i in tab.seats[ev.seat].skills if not i.invalid and cat.skills[i.rule].replaces_role
                  and (ev.via is None or i.rule == ev.via)]
        if not usable:
            self.bad("replace: a live skill that replaces the role")
            return
        view = SeatView(cat, tab, ev.seat)
        ways = []
        for inst in usable:
            rule = cat.skills[inst.rule]
            w = ask(enc_in_window(view, view.q, z(0), rule.windows))
            cond = getattr(rule, tab.window, None) if tab.window in ("fight", "dying") else None
            if cond is not None:
                w = AND(w, compile_on(cat, self.C, tab, cond, {"self": ev.seat}, params_of(cat, self.C, inst), inst.used))
            ways.append(w)
        self.ok("replace: the skill may be used now", OR(ways), tuple(i.rule for i in usable))
        if ev.character not in cat.characters:
            self.bad("replace: a character of the catalogue")
            return
        if any(s.character == ev.character for s in tab.seats):
            self.bad("replace: the new character is not at the table")

    # -------------------------------------------------------------------------------------- the end
    def finish(self) -> None:
        """Twin of GameRunner.finish with trace.Runner.finish."""
        if self.at_once is not None:
            self.close_at_once()
        self.settle_owed(ending=True)
        self.settle_one(ending=True)
        self.discard_dead()
        tab, cat = self.tab, self.cat
        if tab.ended is not True and self.card is None and tab.window not in (None, "dying"):
            self.check_win()
        for k in self._uncoupled():
            self.legal.append(Labelled(f"event {k}: its 'with' partner is handed out with it", (),
                                       z3.BoolVal(False)))
        if not cat.rules.lock_self and tab.sender is not None and 0 <= tab.sender < self.n:
            self.ok("the sender does not lock himself", NOT(tab.seats[tab.sender].locked))
        if tab.window is None:
            self.bad("the trace starts a turn")
        elif tab.window == "turn_end":          # twin: unless the game was won at the turn's end (NextTurn.kt)
            self.ok("the trace ends in a window of a turn", tab.ended)

    def _uncoupled(self) -> list:
        """Twin of trace._uncoupled: gives of a site with a ``with`` partner whose partner's give is not right next
        to it (same turn, window, giver and receiver; no other give or replacement between)."""
        at = {g[0]: g[1:] for g in self.given}
        out = []
        for pos, k in enumerate(self.events_seq):
            if k not in at:
                continue
            t, w, giver, seat, site = at[k]
            give = _site(self.cat, site)
            if give is None or give.partner_id is None:
                continue
            want = (t, w, giver, seat, give.partner_id)
            if not any(0 <= j < len(self.events_seq) and at.get(self.events_seq[j]) == want for j in (pos - 1, pos + 1)):
                out.append(k)
        return out

    # ====================================================================================== back to a trace
    def fill(self, model):
        """The template with every hole replaced by its value in ``model``: a concrete game trace."""
        values = {name: self.decode(h.type, model, self.vars[name]) for name, h in self.holes.items()
                  if name in self.vars}
        values.update({name: v for name, v in self.pins.items()})
        return fill_template(self.template, values, self.auto)

    def values(self, model) -> dict:
        return {name: self.decode(h.type, model, self.vars[name]) for name, h in self.holes.items() if name in self.vars}


# ========================================================================================== helpers
def _same_terms(a: tuple, b: tuple) -> bool:
    """The same values, position by position: equal constants of one type, or the very same terms."""
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if x is y:
            continue
        if is_c(x) and is_c(y) and type(x) is type(y) and x == y:
            continue
        return False
    return True


def _same_key(a, b) -> bool:
    """Two win keys (``GameEncoding._win_key``) read the same values: equal constants, the same terms."""
    if a is None or b is None or len(a) != len(b) or a[0] != b[0]:
        return False
    return all(_same_terms(ra, rb) for ra, rb in zip(a[1:], b[1:]))


def _select(sel: list, get, pending, default):
    out = default
    for c, i in reversed(sel):
        out = ITE(c, get(i), out)
    return out


def _n_colours(cls):
    """The number of colours of a message card of class ``cls`` (a code value)."""
    sizes = [len(c.split("_")) for c in CLASSES]
    if is_c(cls):
        return sizes[cls] if 0 <= cls < K else 0
    return pick(cls, sizes, 0)


def _args_key(args) -> tuple:
    """Twin of interp.game._args_key: a give's arguments, comparable."""
    return tuple(sorted((k, tuple(sorted(v)) if isinstance(v, (list, tuple, set, frozenset)) else v)
                        for k, v in (args or {}).items()))


def _site(cat, site):
    """The gives site named ``<giver>#<index>`` (twin of grants.site_of)."""
    if not isinstance(site, str) or "#" not in site:
        return None
    giver, idx = site.rsplit("#", 1)
    src = cat.skills.get(giver) or cat.cards.get(giver)
    if src is None or not idx.isdigit():
        return None
    gives = list(src.gives)
    i = int(idx)
    return gives[i] if i < len(gives) else None


def _follows(prev, nxt, interrupted) -> bool:
    """May a turn move from window ``prev`` to ``nxt`` (model.turn: forward in turn order; a dying window interrupts
    one of DYING_WITHIN and returns to it or moves on)."""
    if prev is None or nxt not in TW.WINDOWS:
        return False
    if nxt == "dying":
        return prev in TW.DYING_WITHIN or (prev == "dying" and interrupted is not None)
    at = interrupted if prev == "dying" else prev
    return at is not None and TW.WINDOWS[nxt].position >= TW.WINDOWS[at].position


def _in_role_order(initial: list, ch, cat) -> bool:
    """The initial skills are the character's in order, only consumed ones left out (twin of
    snapshot._initial_order)."""
    it = iter(ch.skills)
    for r in initial:
        for e in it:
            if e == r:
                break
            if not cat.skills[e].consumed:
                return False
        else:
            return False
    return all(cat.skills[e].consumed for e in it)


def fill_template(template, values: dict, auto: dict | None = None):
    """A copy of ``template`` with each hole replaced by ``values[hole.name]``; a seat's five message counts
    written from its area; AUTO choices written out from ``auto`` ((event, path, key) -> hole name)."""
    from skillproof.model.interp.trace import Trace
    tr = pickle.loads(pickle.dumps(template, pickle.HIGHEST_PROTOCOL))   # a deep copy (dataclasses, lists, dicts,
    # strings and holes: nothing a pickle does not copy alike), several times cheaper than copy.deepcopy

    def sub(v):
        if isinstance(v, Hole):
            x = values[v.name]
            if v.type == "class" and isinstance(x, str):
                return x
            return x
        if isinstance(v, dict):
            return {k: sub(x) for k, x in v.items()}
        if isinstance(v, list):
            return [sub(x) for x in v]
        if isinstance(v, tuple):
            return tuple(sub(x) for x in v)
        return v
    for s in tr.setup.seats:
        for f in ("hand_count", "face_up", "ever_face_up", "identity", "task", "alive"):
            setattr(s, f, sub(getattr(s, f)))
        if s.area is not None:
            items = s.area.items() if isinstance(s.area, dict) else s.area
            area = {c: sub(v) for c, v in items}
            s.area = tuple(sorted((c, int(v)) for c, v in area.items() if v))
            five = enc_counts([area.get(c, 0) for c in CLASSES])
            for f, v in five.items():
                setattr(s, f, v)
    for k, ev in enumerate(tr.events):
        for f in ("target", "actual", "chosen", "chosen2", "n", "arrow", "lockable", "dir", "to", "face_up"):
            setattr(ev, f, sub(getattr(ev, f)))
        if isinstance(ev.colours, Hole):
            cls = values[ev.colours.name]
            ev.colours = sorted(cls.split("_")) if isinstance(cls, str) else []
        if isinstance(ev.locks, Hole):
            ev.locks = list(values[ev.locks.name])
        if ev.choices == AUTO:
            ch: dict = {}
            for (kk, path, key), name in (auto or {}).items():
                if kk == k:
                    ch.setdefault(path, {})[key] = values[name]
            ev.choices = ch
        elif isinstance(ev.choices, dict):
            ev.choices = sub(ev.choices)
    return Trace(tr.setup, tr.events, True)
