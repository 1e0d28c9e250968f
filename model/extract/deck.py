"""The deck and the game's set-up, read from the server's code: which printed cards a game of n players plays with
(card/Deck.kt: the list of every print, ``DefaultDeck``, and ``Deck.init``, which keeps some of it by the number of
players), and the set-up the engine deals (``setup.*`` engine rules: the hand each player starts with, the secret
tasks dealt by the number of players, how many roles each player is offered).

The deck becomes each card's ``deck`` key: its prints grouped — colours, direction, lock mark, the arguments a card
type prints beyond those (试探's ``whoDrawCard``, 密令's ``secret``) — each with how many copies and, when not every
table size plays it, the table sizes that do (``seats = "5-9"``). ``Deck.init`` is *evaluated* for each table size
(its list operations — ``addAll``, ``subList(a, b).clear()``, ``removeAt(i)``, a ``forEach`` over a list of indices —
under the tests of the player count), so what a game holds is compared, not how the code builds it: two revisions
keeping the same cards are the same deck. What the evaluation cannot follow leaves the deck unread (no ``deck`` key,
and a note); nothing is guessed.
"""
from __future__ import annotations

import re

from .engine import EngineRule
from .server import COLOUR_CONSTS, DIRECTION_CONSTS
from .syntax import _code, _descendants, _stmts, _fn_params, _ir, _kid, _lambda_parts, _name_of, _t, _unparen

_LISTS = ("listOf", "arrayListOf", "mutableListOf")
#: the fewest players a table of the server has (the catalogue's ``min_seats``)
MIN_SEATS = 2


class _Unread(Exception):
    """What the evaluation cannot follow (its message says what)."""


def seat_ranges(seats, lo: int, hi: int) -> str:
    """The table sizes ``seats`` as ranges (``"5-9"``, ``"2-4, 9"``); "" when it is every size from ``lo`` to ``hi``."""
    s = sorted(set(seats))
    if s == list(range(lo, hi + 1)):
        return ""
    out, i = [], 0
    while i < len(s):
        j = i
        while j + 1 < len(s) and s[j + 1] == s[j] + 1:
            j += 1
        out.append(str(s[i]) if i == j else f"{s[i]}-{s[j]}")
        i = j + 1
    return ", ".join(out)


class DeckReader:
    """Mixed into the extractor (needs ``classes``, ``srcs``, ``cards``, ``note`` and the engine's ``_functions``)."""

    # ------------------------------------------------------------------------------------------ the prints
    def _deck_list(self):
        """(src, property node, [(card id, element node)]) of the list of every print: a property initialised with
        a list whose elements are all calls of card classes (at least ten); None when the code has none."""
        by_cls = {card["cls"].name: cid for cid, card in self.cards.items() if card.get("cls") is not None}
        best = None
        for src in self.srcs:
            if not any(n.encode() + b"(" in src.data for n in by_cls):
                continue
            for pd in _descendants(src.tree.root_node, "property_declaration"):
                init = [c for c in _code(pd) if c.type == "call_expression"]
                if not init or init[-1].end_byte - init[-1].start_byte < 200:
                    continue
                x = _ir(init[-1])
                if x.k != "call" or x.a[0].k != "name" or x.a[0].a[0] not in _LISTS or len(x.a[1]) < 10:
                    continue
                elems = []
                for a in x.a[1]:
                    e = a.x
                    if e.k == "call" and e.a[0].k == "name" and e.a[0].a[0] in by_cls:
                        elems.append((by_cls[e.a[0].a[0]], a.node))
                    else:
                        elems = None
                        break
                if elems and (best is None or len(elems) > len(best[2])):
                    best = (src, pd, elems)
        return best

    def _ctor_names(self, cid: str) -> dict:
        """arity -> parameter names of the constructors of a card class (primary and secondary)."""
        c = self.cards[cid]["cls"]
        out = {}
        text = re.sub(r"//[^\n]*", "", _t(c.node))
        for m in re.finditer(r"(?:\bconstructor|\bclass\s+\w+)\s*\(([^()]*(?:\([^()]*\)[^()]*)*)\)", text):
            params = [p.strip() for p in re.split(r",(?![^<]*>)", m.group(1)) if p.strip()]
            names = [re.sub(r"^(?:(?:private|internal|override|val|var)\s+)*", "", p).split(":")[0].strip()
                     for p in params]
            out.setdefault(len(names), names)
        return out

    def _print(self, cid: str, node) -> dict:
        """One print: ``{"colour": [...], "dir": …, "lock": …, "with": {…}}`` (raises _Unread)."""
        x = _ir(node)
        args = x.a[1]
        if len(args) < 4 or any(a.name for a in args):
            raise _Unread(f"{_t(node)[:60]}: not (id, colours, direction, lock mark, …)")
        colours = self._colours(args[1].x)
        d = _unparen(args[2].x)
        dname = d.a[0] if d.k == "name" else d.a[1] if d.k == "nav" else None
        if dname not in DIRECTION_CONSTS:
            raise _Unread(f"{_t(args[2].node)}: not a direction")
        lock = _unparen(args[3].x)
        if lock.k != "lit" or not isinstance(lock.a[0], bool):
            raise _Unread(f"{_t(args[3].node)}: not a lock mark")
        out = {"colour": colours, "dir": DIRECTION_CONSTS[dname], "lock": lock.a[0]}
        if len(args) > 4:
            names = self._ctor_names(cid).get(len(args)) or [f"arg{i + 1}" for i in range(len(args))]
            extra = {}
            for name, a in zip(names[4:], args[4:]):
                v = _unparen(a.x)
                if v.k == "lit":
                    extra[name] = v.a[0]
                else:
                    extra[name] = self._colours(v)
            out["with"] = extra
        return out

    @staticmethod
    def _colours(x) -> list:
        x = _unparen(x)
        if x.k != "call" or x.a[0].k != "name" or x.a[0].a[0] not in _LISTS:
            raise _Unread(f"{_t(x.n)[:40]}: not a list of colours")
        out = []
        for a in x.a[1]:
            v = _unparen(a.x)
            name = v.a[0] if v.k == "name" else v.a[1] if v.k == "nav" else None
            if name not in COLOUR_CONSTS:
                raise _Unread(f"{_t(a.node)}: not a colour")
            out.append(COLOUR_CONSTS[name])
        return out

    # ------------------------------------------------------------------------------------------ Deck.init
    def _deck_init(self, prop: str):
        """(src, function node, the list it fills, the player-count parameter) of the function that fills a list
        from the list of every print (``cards.addAll(DefaultDeck…)``) and takes the player count; None if none."""
        for src, fd, _name, _owner in self._functions():
            if prop.encode() not in src.data[fd.start_byte:fd.end_byte]:
                continue
            params = _fn_params(fd)
            if len(params) != 1 or params[0][1] != "Int":
                continue
            for call in _descendants(fd, "call_expression"):
                x = _ir(call)
                if x.k == "call" and x.a[0].k == "nav" and x.a[0].a[1] == "addAll" and x.a[0].a[0].k == "name" and \
                        x.a[1] and re.match(r"\s*" + re.escape(prop) + r"\b", _t(x.a[1][0].node)):
                    return src, fd, x.a[0].a[0].a[0], params[0][0]
        return None

    def _int_lists(self, src) -> dict:
        """name -> [int] of the properties of ``src`` initialised with a list of int literals (indices)."""
        out = {}
        for pd in _descendants(src.tree.root_node, "property_declaration"):
            init = [c for c in _code(pd) if c.type == "call_expression"]
            if not init:
                continue
            x = _ir(init[-1])
            if x.k == "call" and x.a[0].k == "name" and x.a[0].a[0] in _LISTS and x.a[1] and \
                    all(_unparen(a.x).k == "lit" and type(_unparen(a.x).a[0]) is int for a in x.a[1]):
                vd = _kid(pd, "variable_declaration")
                name = _t(_kid(vd, "identifier")) if vd is not None else ""
                if name:
                    out[name] = [_unparen(a.x).a[0] for a in x.a[1]]
        return out

    def _run_init(self, fd, target: str, param: str, n: int, size: int, prop: str, lists: dict) -> list:
        """The indices into the list of every print a game of ``n`` players keeps (raises _Unread)."""
        env = {param: n, **{k: v for k, v in lists.items()}}
        deck: list = []
        body = _kid(fd, "function_body")
        block = _kid(body, "block") if body is not None else None
        if block is None:
            raise _Unread("its body is not a block")
        _Eval(target, prop, size, env, deck).block(_code(block))
        return deck

    def _init_shift(self, name: str, isrc, ifd):
        """How many more players than are seated the engine builds the deck for: the argument of every call of the
        deck's fill function (``deck.init(players.size)``) read as the number of seated players plus a constant
        (``players.size + 1`` → 1); 0 when nothing calls it. A reason (str) when a call's argument is another
        expression or two calls disagree: the deck a game plays with is then not known."""
        shifts = set()
        pat = re.compile(r"(?<![\w.])(?:[\w!?]+\s*\.\s*)*" + re.escape(name) + r"\s*\(")
        for src, fd, _n, _owner in self._functions():
            if src is isrc and fd is ifd:
                continue
            for call in _descendants(fd, "call_expression"):
                text = " ".join(_t(call).split())
                if not pat.match(text) or not re.search(r"\bdeck\b", text.split(name)[0]):
                    continue
                va = _kid(call, "value_arguments")
                arg = " ".join(_t(va).split())[1:-1].strip() if va is not None else ""
                m = re.fullmatch(r"(?:[\w!?]+\s*\.\s*)*players(?:\s*\.\s*filterNotNull\(\))?\s*\.\s*size"
                                 r"(?:\s*([+-])\s*(\d+))?", arg.replace("!!", ""))
                if m is None:
                    return f"the deck is built for `{arg[:60]}` players ({src.at(call)}), not read as the seated count"
                shifts.add((int(m.group(2)) if m.group(1) == "+" else -int(m.group(2))) if m.group(1) else 0)
        if len(shifts) > 1:
            return "the deck is built for different player counts at different calls"
        return shifts.pop() if shifts else 0

    # ------------------------------------------------------------------------------------------ the whole
    def _deck(self, seats: int) -> dict:
        """card id -> its ``deck`` entries (grouped prints) and where they were read; {} when the deck is not read."""
        found = self._deck_list()
        if found is None:
            self.note("deck", "*", self.root.name, "no list of the printed cards found: no deck is written",
                      undecided=False)
            return {}
        src, pd, elems = found
        vd = _kid(pd, "variable_declaration")
        prop = _t(_kid(vd, "identifier")) if vd is not None else ""
        try:
            prints = [(cid, self._print(cid, node), node) for cid, node in elems]
        except _Unread as e:
            self.note("deck", "*", src.at(pd), f"the printed cards not read: {e}")
            return {}
        lo, hi = MIN_SEATS, max(MIN_SEATS, seats)
        init = self._deck_init(prop)
        keep: dict = {i: set(range(lo, hi + 1)) for i in range(len(prints))}
        init_at = ""
        if init is not None:
            isrc, fd, target, param = init
            init_at = isrc.at(fd)
            lists = {**self._int_lists(src), **self._int_lists(isrc)}
            keep = {i: set() for i in range(len(prints))}
            shift = self._init_shift(_name_of(fd), isrc, fd)
            if isinstance(shift, str):
                self.note("deck", "*", init_at, f"which printed cards a game keeps not read: {shift}")
                return {}
            try:
                for n in range(lo, hi + 1):          # a game of n seated players: the deck built for n + shift
                    for i in self._run_init(fd, target, param, n + shift, len(prints), prop, lists):
                        keep[i].add(n)
            except (_Unread, IndexError, KeyError, TypeError) as e:
                self.note("deck", "*", init_at, f"which printed cards a game keeps not read: {e}")
                return {}
        reads = self.__dict__.setdefault("engine_reads", {})     # read whole: a change there that keeps every
        reads[(src.rel, _owner_path(pd), prop)] = True             # game's deck is no change
        if init is not None:
            reads[(init[0].rel, _owner_path(init[1]), _name_of(init[1]))] = True
        out: dict = {}
        for i, (cid, p, node) in enumerate(prints):
            if not keep[i]:
                continue
            key = (tuple(p["colour"]), p["dir"], p["lock"], repr(sorted((p.get("with") or {}).items())),
                   seat_ranges(keep[i], lo, hi))
            entry = out.setdefault(cid, {"groups": {}, "where": src.at(node), "init": init_at})
            g = entry["groups"].get(key)
            if g is None:
                g = {"n": 0, "colour": p["colour"], "dir": p["dir"]}
                if p["lock"]:
                    g["lock"] = True
                if key[4]:
                    g["seats"] = key[4]
                if p.get("with"):
                    g["with"] = p["with"]
                entry["groups"][key] = g
            g["n"] += 1
        return {cid: {"deck": list(e["groups"].values()), "where": e["where"], "init": e["init"]}
                for cid, e in out.items()}

    # ------------------------------------------------------------------------------------------ the set-up
    def _p_setup(self) -> list:
        """``setup.hand``, ``setup.tasks``, ``setup.role_options`` (named engine rules)."""
        self._ids_shuffled = None
        self._setup_fns = []
        out = [self._setup_hand(), *self._setup_tasks(), self._setup_identities(), self._setup_role_options(),
               self._setup_roles_drawn()]
        out += self._setup_random()
        return out + ([self._ids_shuffled] if self._ids_shuffled is not None else [])

    def _setup_hand(self) -> EngineRule:
        """The hand each player starts with: the count the state that sets the deck up (``deck.init(…)``) draws for
        every player."""
        for src, fd, name, owner in self._functions():
            if b"init" not in src.data[fd.start_byte:fd.end_byte]:
                continue
            text = _t(fd)
            if not re.search(r"\bdeck\s*\.\s*init\s*\(", text):
                continue
            for call in _descendants(fd, "call_expression"):
                x = _ir(call)
                if x.k == "call" and x.a[0].k == "nav" and x.a[0].a[1] == "draw" and len(x.a[1]) == 1:
                    v, why = self._int_value(x.a[1][0].x)
                    where = src.at(call)
                    if v is None:
                        return EngineRule("setup.hand", None, where, why, False)
                    self._setup_fns.append((src, fd, name, owner))
                    return EngineRule("setup.hand", v, where, f"{(owner.name + '.') if owner else ''}{name} draws "
                                      f"{_t(x.a[1][0].node)} for each player", False)
        return EngineRule("setup.hand", None, "", "no state that sets the deck up and deals", False, True)

    def _int_value(self, x):
        """An int expression of literals and configured values (``Config.X + 1``): (value, "") or (None, why)."""
        x = _unparen(x)
        if x.k == "bin" and x.a[0] in ("+", "-", "*"):
            a, wa = self._int_value(x.a[1])
            b, wb = self._int_value(x.a[2])
            if a is None or b is None:
                return None, wa or wb
            return {"+": a + b, "-": a - b, "*": a * b}[x.a[0]], ""
        v, w = self._config_default(x)
        return (v, "") if v is not None else (None, w)

    def _setup_tasks(self) -> list:
        """The secret tasks dealt by the number of players: a list of tasks (``arrayListOf(Killer, …)``) grown under
        tests of ``players.size`` (``if (players.size >= 5) tasks.addAll(listOf(…))``), evaluated for each size."""
        for src, fd, name, owner in self._functions():
            if b"secretTask" not in src.data[fd.start_byte:fd.end_byte]:
                continue
            text = _t(fd)
            if "secretTask" not in text:
                continue
            body = _kid(fd, "function_body")
            block = _kid(body, "block") if body is not None else None
            if block is None:
                continue
            for s in _code(block):
                if s.type != "property_declaration":
                    continue
                init = [c for c in _code(s) if c.type == "call_expression"]
                x = _ir(init[-1]) if init else None
                if x is None or x.k != "call" or x.a[0].k != "name" or x.a[0].a[0] not in _LISTS or not x.a[1] or \
                        not all(_unparen(a.x).k in ("name", "nav") and
                                re.fullmatch(r"(?:\w+\.)*[A-Z]\w*", _t(a.node).strip()) for a in x.a[1]):
                    continue
                vd = _kid(s, "variable_declaration")
                var = _t(_kid(vd, "identifier")) if vd is not None else ""
                if not re.search("task", var, re.I):       # (the list the secret tasks are dealt from)
                    continue
                seats = self._seats_value()
                try:
                    by_n = {}
                    for n in range(MIN_SEATS, seats + 1):
                        by_n[n] = tuple(self._grow_list(block, s, var, n))
                except _Unread as e:
                    return [EngineRule("setup.tasks", None, src.at(s), f"the secret tasks dealt not read: {e}", False)]
                groups: dict = {}
                for n, tasks in by_n.items():
                    groups.setdefault(tasks, []).append(n)
                value = tuple(f"{seat_ranges(ns, 0, -1)}: {', '.join(t)}" for t, ns in groups.items())
                return [EngineRule("setup.tasks", value, src.at(s), f"{(owner.name + '.') if owner else ''}{name}: the "
                                   "secret tasks dealt, by the number of players", False),
                        self._tasks_told(src, block, s, var, by_n, owner, name),
                        _shuffled("setup.tasks_shuffled", block, s, var, src, "the secret tasks"),
                        _dealt("setup.tasks_dealt", block, var, src, "secret task")]
        return [EngineRule("setup.tasks", None, "", "no list of secret tasks dealt found", False, True)]

    def _tasks_told(self, src, block, decl, var: str, by_n: dict, owner, name) -> EngineRule:
        """``setup.tasks_told``: how many of the tasks dealt from are told to every player as the possible secret
        tasks of the game (``tasks.take(k)``, ``k`` evaluated for each table size: a ``when`` over the player count,
        ``coerceAtMost``). What every player is told at the set-up is part of the game (it narrows what a 神秘人 may
        be): a change of it is a rule change, like who is shown a card's face."""
        take = None
        for c in _descendants(block, "call_expression"):
            x = _ir(c)
            if x.k == "call" and x.a[0].k == "nav" and x.a[0].a[1] == "take" and len(x.a[1]) == 1 and \
                    re.fullmatch(re.escape(var), _t(x.a[0].a[0].n).strip()):
                take = (c, x.a[1][0].node)
                break
        where_name = f"{(owner.name + '.') if owner else ''}{name}"
        if take is None:
            return EngineRule("setup.tasks_told", None, "", "no part of the tasks told to the players", False, True)
        value = []
        for n, tasks in by_n.items():
            env = {"players.size": n, var: list(tasks)}
            try:
                for st in _code(block):
                    if st.start_byte >= take[0].start_byte:
                        break
                    if st.type == "property_declaration":
                        vd = _kid(st, "variable_declaration")
                        init = [c for c in _code(st) if c.type not in ("modifiers", "variable_declaration")]
                        if vd is not None and init and init[-1].type in ("when_expression", "number_literal",
                                                                          "binary_expression"):
                            env[_t(_kid(vd, "identifier"))] = _int_value(init[-1], env)
                k = _int_value(take[1], env)
            except (_Unread, ZeroDivisionError) as e:
                return EngineRule("setup.tasks_told", None, src.at(take[0]), f"the tasks told not read: {e}", False)
            value.append((n, f"{min(max(k, 0), len(tasks))} of {len(tasks)}"))
        groups: dict = {}
        for n, v in value:
            groups.setdefault(v, []).append(n)
        return EngineRule("setup.tasks_told", tuple(f"{seat_ranges(ns, 0, -1)}: {v}" for v, ns in groups.items()),
                          src.at(take[0]), f"{where_name}: how many of the tasks dealt from every player is told are "
                          "possible, by the number of players", False)

    def _setup_identities(self) -> EngineRule:
        """``setup.identities``: the identities dealt by the number of players — a list of colours started empty
        (``val identities = ArrayList<color>()``) and grown by constants under tests of the player count (``when
        (players.size)``, ``if``, ``while`` and ``repeat`` loops over local counts), evaluated for each table size; it
        is shuffled before it is dealt, so what counts is how many of each. A size whose branch the evaluation cannot
        follow (a random draw) is said so."""
        for src, fd, name, owner in self._functions():
            data = src.data[fd.start_byte:fd.end_byte]
            if b"dentit" not in data or b"players.size" not in data:
                continue
            body = _kid(fd, "function_body")
            block = _kid(body, "block") if body is not None else None
            if block is None:
                continue
            stmts = _code(block)
            for i, s in enumerate(stmts):
                if s.type != "property_declaration":
                    continue
                vd = _kid(s, "variable_declaration")
                var = _t(_kid(vd, "identifier")) if vd is not None and _kid(vd, "identifier") is not None else ""
                init = " ".join(_t(s).split("=", 1)[-1].split()) if "=" in _t(s) else ""
                if not re.search("identit", var, re.I) or not re.fullmatch(
                        r"(?:ArrayList|mutableListOf|arrayListOf|LinkedList)(?:<\s*\w+\s*>)?\(\)", init):
                    continue
                seats = self._seats_value()
                groups: dict = {}
                for n in range(MIN_SEATS, seats + 1):
                    vals: list = []
                    try:
                        _Grow(var, vals, {"players.size": n, var: vals}).block(stmts[i + 1:])
                        counts: dict = {}
                        for v in vals:
                            counts[v] = counts.get(v, 0) + 1
                        shown = ", ".join(f"{k}×{counts[k]}" for k in sorted(counts))
                    except _Unread as e:
                        shown = "not read"          # (a random draw: what it deals is not evaluated)
                    groups.setdefault(shown, []).append(n)
                value = tuple(f"{seat_ranges(ns, 0, -1)}: {v}" for v, ns in groups.items())
                self._ids_shuffled = _shuffled("setup.identities_shuffled", block, s, var, src, "the identities")
                self._setup_fns.append((src, fd, name, owner))
                return EngineRule("setup.identities", value, src.at(s), f"{(owner.name + '.') if owner else ''}{name}: "
                                  "the identities dealt from (shuffled; each player takes one), by the number of players", False)
        return EngineRule("setup.identities", None, "", "no list of identities dealt found", False, True)

    def _grow_list(self, block, decl, var: str, n: int) -> list:
        """The list ``var`` declared by ``decl`` after the statements of ``block`` that add to it, for ``n`` players."""
        vals = [_t(a.node).split(".")[-1].strip() for a in _ir([c for c in _code(decl)
                                                               if c.type == "call_expression"][-1]).a[1]]
        started = False
        env = {"players.size": n}
        for s in _code(block):
            if s is decl:
                started = True
                continue
            if not started:
                continue
            _grow(s, var, vals, env)
        return vals

    def _setup_random(self) -> list:
        """``setup.random.<Owner>.<function>``: the random draws of the set-up — each shuffle (``shuffle()``,
        ``shuffled()``), random pick (``random()``) and random number (``Random.nextInt(4)``, its bounds as written)
        of the functions that set a game up (the one that deals the identities and tasks, the one that deals the
        starting hands, the deck's ``init``), counted with those of what they call (a function of the same class or of
        an ``object``, and the property initialisers of a state they construct: who starts, the roles offered). Which
        lists are dealt at random and which in a fixed order is part of the game (an unshuffled deck, the first seat
        always starting, tasks announced in dealing order): a draw removed or its bounds changed is a rule change. The
        value counts the kinds of draws, not the names of the lists, so a local renamed or a helper extracted is the
        same."""
        roots = list(getattr(self, "_setup_fns", []))
        found = self._deck_list()
        if found is not None:
            vd = _kid(found[1], "variable_declaration")
            prop = _t(_kid(vd, "identifier")) if vd is not None else ""
            init = self._deck_init(prop) if prop else None
            if init is not None:
                isrc, ifd = init[0], init[1]
                owner = next((o for s2, f2, _n, o in self._functions() if f2 is ifd), None)
                roots.append((isrc, ifd, _name_of(ifd), owner))
        card_classes = {c["cls"].name for c in self.cards.values() if c.get("cls") is not None}
        out, seen_roots = [], set()
        for src, fd, name, owner in roots:
            key = f"setup.random.{(owner.name + '.') if owner else ''}{name}"
            if key in seen_roots:
                continue
            seen_roots.add(key)
            counts: dict = {}
            self._random_ops(fd, owner, counts, card_classes, {id(fd)}, 0)
            value = tuple(f"{op} ×{n}" if n > 1 else op for op, n in sorted(counts.items()))
            out.append(EngineRule(key, value, src.at(fd), f"{key[len('setup.random.'):]} draws at random: "
                                  f"{', '.join(value) or 'nothing'} (with what it calls)", False))
        return out

    _RANDOM_OP = re.compile(r"\.\s*(shuffle|shuffled|random|randomOrNull)\s*\(\s*\)|\bRandom\s*\.\s*(next\w*)\s*\(([^()]*)\)")

    def _random_ops(self, node, owner, counts: dict, card_classes: set, seen: set, depth: int):
        """Count the random draws of ``node``'s code (comments left out) into ``counts``, and of what it calls."""
        text = re.sub(r"//[^\n]*|/\*.*?\*/", "", _t(node), flags=re.S)
        for m in self._RANDOM_OP.finditer(text):
            args = [" ".join(a.split()) for a in m.group(3).split(",")] if m.group(3) and m.group(3).strip() else []
            if len(args) == 2 and args[0] == "0":
                args = args[1:]                          # nextInt(0, n) is nextInt(n)
            op = m.group(1) or f"Random.{m.group(2)}({', '.join(args)})"
            counts[op] = counts.get(op, 0) + 1
        if depth >= 3:
            return
        for call in _descendants(node, "call_expression"):
            x = _ir(call)
            if x.k != "call":
                continue
            targets = []
            if x.a[0].k == "name":
                n = x.a[0].a[0]
                if owner is not None and n != _name_of(node):
                    targets += [(fd2, owner) for fd2 in owner.functions(n)]
                for c in self.by_name.get(n, []):
                    if c.kind == "class" and n not in card_classes:
                        targets += [(pd, c) for pd in c.members("property_declaration")]
            elif x.a[0].k == "nav" and x.a[0].a[0].k == "name":
                for c in self.by_name.get(x.a[0].a[0].a[0], []):
                    if c.kind == "object":
                        targets += [(fd2, c) for fd2 in c.functions(x.a[0].a[1])]
            for t, o in targets:
                if id(t) not in seen:
                    seen.add(id(t))
                    self._random_ops(t, o, counts, card_classes, seen, depth + 1)

    def _setup_role_options(self) -> EngineRule:
        """How many roles each player is offered: the roles listed for each player (``players.indices.map { listOf(a,
        b, c) }``) in the state the game hands them to."""
        for src, fd, name, owner in self._functions():
            text = src.data[fd.start_byte:fd.end_byte]
            if b".indices" not in text or b"map" not in text:
                continue
            for call in _descendants(fd, "call_expression"):
                if b"map" not in src.data[call.start_byte:call.end_byte]:
                    continue
                x = _ir(call)
                if x.k != "call" or x.a[0].k != "nav" or x.a[0].a[1] != "map" or x.a[2] is None or \
                        not re.search(r"\bindices\b", _t(x.a[0].a[0].n)):
                    continue
                _params, stmts = _lambda_parts(x.a[2])
                if len(stmts) != 1:
                    continue
                inner = _ir(stmts[0])
                while inner.k == "call" and inner.a[0].k == "nav" and inner.a[0].a[1] in ("filter", "filterNot"):
                    inner = inner.a[0].a[0]                     # (a filter of the options: the list itself counts)
                if inner.k == "call" and inner.a[0].k == "name" and inner.a[0].a[0] in _LISTS and \
                        re.search(r"[Rr]ole", _t(fd)) and all("[" in _t(a.node) for a in inner.a[1]):
                    return EngineRule("setup.role_options", len(inner.a[1]), src.at(call),
                                      f"{(owner.name + '.') if owner else ''}{name}: each player is offered "
                                      f"{len(inner.a[1])} roles", False)
        return EngineRule("setup.role_options", None, "", "no list of the roles offered to each player", False, True)

    _ROLE_DRAW = re.compile(r"getRandom\w*Roles?\w*\Z")

    def _setup_roles_drawn(self) -> EngineRule:
        """``setup.roles_drawn``: how many roles the set-up draws from the role pool for the whole table — the count
        argument of each call of the role pool's random draw (``RoleCache.getRandomRoles(players.size * 3)``, and
        of its variant with roles forced in), as written (spaces left out); each branch's call counts, so a count
        changed in one of them is named."""
        found, where = set(), ""
        for src, fd, name, owner in self._functions():
            if b"getRandom" not in src.data[fd.start_byte:fd.end_byte] or (owner is not None and self.is_skill(owner)):
                continue                                 # (a skill drawing roles is the skill's rule)
            for call in _descendants(fd, "call_expression"):
                x = _ir(call)
                if x.k != "call" or x.a[0].k != "nav" or not self._ROLE_DRAW.match(x.a[0].a[1]) or not x.a[1]:
                    continue
                found.add("".join(_t(x.a[1][0].node).split()))
                where = where or src.at(call)
        if not found:
            return EngineRule("setup.roles_drawn", None, "", "no draw from the role pool", False, True)
        value = tuple(sorted(found))
        return EngineRule("setup.roles_drawn", value, where, f"the set-up draws {' / '.join(value)} roles from the "
                          "role pool", False)

    def _p_seats(self) -> list:
        """``seats`` ([rules]): the most players a room holds — the limit the code that adds a seat to the room
        tests (``if (players.size >= 9 …) return false`` before ``players = players + null``)."""
        if "_seats" in self.__dict__:
            return self._seats
        out = [EngineRule("seats", None, "", "no code that adds a seat to the room", True, True)]
        for src, fd, name, owner in self._functions():
            if b"players" not in src.data[fd.start_byte:fd.end_byte]:
                continue
            text = re.sub(r"//[^\n]*", "", _t(fd))
            if not re.search(r"\bplayers\s*=\s*players\s*\+|\bplayers\s*\.\s*add\s*\(\s*null", text):
                continue
            for call in _descendants(fd, "if_expression"):
                cond = call.child_by_field_name("condition")
                m = re.search(r"\bplayers\s*\.\s*size\s*(>=|>)\s*(\d+)", _t(cond) if cond is not None else "")
                if m:
                    v = int(m.group(2)) + (1 if m.group(1) == ">" else 0)
                    out = [EngineRule("seats", v, src.at(call), f"{(owner.name + '.') if owner else ''}{name} adds no "
                                      f"seat past {v}", True)]
                    break
            if out[0].value is not None:
                break
        self._seats = out
        return out

    def _seats_value(self) -> int:
        r = self._p_seats()[0] if hasattr(self, "_p_seats") else None
        return r.value if r is not None and isinstance(r.value, int) else 9


def _owner_path(node) -> str:
    """The class path of a declaration as the unread-code comparison names it (``Deck.Companion``)."""
    names = []
    up = node.parent
    while up is not None:
        if up.type in ("class_declaration", "object_declaration"):
            names.append(_name_of(up))
        elif up.type == "companion_object":
            names.append(_name_of(up) or "Companion")
        up = up.parent
    return ".".join(reversed(names))


def _grow(s, var: str, vals: list, env: dict):
    """One statement of a list of constants growing under tests of ``players.size`` (raises _Unread)."""
    text = " ".join(_t(s).split())
    if not re.search(r"\b" + re.escape(var) + r"\b", text):
        return
    if s.type == "if_expression":
        cond = s.child_by_field_name("condition")
        branches = [b for b in _code(s) if b != cond]
        ok = _test(_ir(cond), env)
        if ok and branches:
            for t in _stmts(branches[0]):
                _grow(t, var, vals, env)
        elif not ok and len(branches) > 1:
            for t in _stmts(branches[1]):
                _grow(t, var, vals, env)
        return
    m = re.fullmatch(re.escape(var) + r"\s*\.\s*(add|addAll)\s*\((.*)\)", text)
    if m:
        arg = m.group(2).strip()
        lm = re.fullmatch(r"(?:listOf|arrayListOf|mutableListOf)\((.*)\)", arg)
        items = [a.strip().split(".")[-1] for a in lm.group(1).split(",") if a.strip()] if lm else [arg.split(".")[-1]]
        if m.group(1) == "add" and lm:
            raise _Unread(f"{text[:60]}: a list added as one element")
        if not all(re.fullmatch(r"[A-Z]\w*", i) for i in items):
            raise _Unread(f"{text[:60]}: not constants")
        vals.extend(items)
        return
    if re.fullmatch(re.escape(var) + r"\s*\.\s*shuffle\(\)", text) or \
            re.search(r"\b" + re.escape(var) + r"\s*\[", text) and not re.search(r"\b" + re.escape(var) +
                                                                                  r"\s*\[[^\]]*\]\s*=[^=]", text) \
            and not re.search(r"\b" + re.escape(var) + r"\s*\.\s*(add|remove|clear|set|retain)", text):
        return                                          # read, not changed
    if not re.search(r"\b" + re.escape(var) + r"\s*(\.\s*(add|remove|clear|set|retain|sub)\w*|=[^=]|\+=|-=)", text):
        return
    raise _Unread(f"{text[:60]}: changes the list in a way not read")


def _int_value(node, env: dict) -> int:
    """An int of the set-up's code for one table size: ``_int``, a ``when`` over ints (its first entry that holds,
    ``else`` last), ``a.coerceAtMost(b)`` / ``coerceAtLeast``, ``minOf`` / ``maxOf`` (raises _Unread)."""
    while node is not None and node.type == "parenthesized_expression" and node.named_children:
        node = node.named_children[0]
    if node.type == "when_expression":
        body = _when_pick(node, env)
        if body is None:
            raise _Unread(f"{_t(node)[:60]}: no entry holds")
        st = _stmts(body) if body.type in ("block", "control_structure_body") else [body]
        if len(st) != 1:
            raise _Unread(f"{_t(body)[:60]}: not one value")
        return _int_value(st[0], env)
    x = _ir(node)
    if x.k == "call" and x.a[0].k == "nav" and x.a[0].a[1] in ("coerceAtMost", "coerceAtLeast") and len(x.a[1]) == 1:
        a, b = _int_value(x.a[0].a[0].n, env), _int_value(x.a[1][0].node, env)
        return min(a, b) if x.a[0].a[1] == "coerceAtMost" else max(a, b)
    if x.k == "call" and x.a[0].k == "name" and x.a[0].a[0] in ("minOf", "maxOf") and len(x.a[1]) >= 2:
        vals = [_int_value(a.node, env) for a in x.a[1]]
        return min(vals) if x.a[0].a[0] == "minOf" else max(vals)
    if x.k == "bin" and x.a[0] in ("+", "-", "*", "/", "%"):
        a, b = _int_value(x.a[1].n, env), _int_value(x.a[2].n, env)
        return {"+": a + b, "-": a - b, "*": a * b, "/": a // b if b else 0, "%": a % b if b else 0}[x.a[0]]
    return _int(x, env)


def _when_pick(node, env: dict):
    """The body of the entry of a ``when`` (over ints with a subject, or over tests without) that holds for ``env``;
    None when none does (raises _Unread for a condition not read)."""
    subj = next((c for c in node.named_children if c.type == "when_subject"), None)
    sv = None
    if subj is not None:
        inner = [c for c in subj.named_children if c.type not in ("line_comment", "block_comment")]
        if len(inner) != 1:
            raise _Unread(f"{_t(subj)[:60]}: a subject not read")
        sv = _int_value(inner[0], env)
    for e in (c for c in node.named_children if c.type == "when_entry"):
        kids = _code(e)
        if not kids:
            continue
        if len(kids) == 1 and re.match(r"\s*else\b", _t(e)):
            return kids[0]
        for c in kids[:-1]:
            if c.type == "when_condition" and c.named_children:
                c = c.named_children[0]
            if sv is None:
                if _test(_ir(c), env):
                    return kids[-1]
            elif c.type == "range_test":
                r = next((y for y in c.named_children if y.type == "range_expression"), None)
                if r is None or len(r.named_children) != 2:
                    raise _Unread(f"{_t(c)[:60]}: a range not read")
                lo, hi = (_int_value(y, env) for y in r.named_children)
                if (lo <= sv <= hi) != _t(c).lstrip().startswith("!in"):
                    return kids[-1]
            elif sv == _int_value(c, env):
                return kids[-1]
    return None


class _Grow:
    """A list of constants grown for one table size (``_setup_identities``): ``when`` / ``if`` over the player count,
    ``while`` and ``repeat`` loops, local int counters; every other statement naming the list goes to ``_grow``."""

    def __init__(self, var: str, vals: list, env: dict):
        self.var, self.vals, self.env, self.steps = var, vals, env, 0

    def block(self, stmts):
        for s in stmts:
            self.stmt(s)

    def stmt(self, s):
        self.steps += 1
        if self.steps > 5000:
            raise _Unread("a loop that does not end")
        t = s.type
        text = " ".join(_t(s).split())
        if not re.search(r"\b" + re.escape(self.var) + r"\b", text) and t not in ("property_declaration", "assignment",
                                                                               "unary_expression", "postfix_expression"):
            return                                  # (what does not name the list leaves it alone)
        if t == "when_expression":
            body = _when_pick(s, self.env)
            if body is not None:
                self.block(_stmts(body) if body.type in ("block", "control_structure_body") else [body])
            return
        if t == "if_expression":
            cond = s.child_by_field_name("condition")
            branches = [b for b in _code(s) if b != cond]
            ok = _test(_ir(cond), self.env)
            pick = branches[0] if ok and branches else branches[1] if not ok and len(branches) > 1 else None
            if pick is not None:
                self.block(_stmts(pick))
            return
        if t == "property_declaration":
            vd = _kid(s, "variable_declaration")
            init = [c for c in _code(s) if c.type not in ("modifiers", "variable_declaration")]
            if vd is not None and init and not re.search(r"\b" + re.escape(self.var) + r"\b", _t(init[-1])):
                try:
                    self.env[_t(_kid(vd, "identifier"))] = _int_value(init[-1], self.env)
                except _Unread:
                    pass
                return
        if t == "while_statement":
            kids = _code(s)
            while _test(_ir(kids[0]), self.env):
                self.block(_stmts(kids[-1]))
                self.steps += 1
                if self.steps > 5000:
                    raise _Unread("a loop that does not end")
            return
        m = re.fullmatch(r"(\w+)\s*(\+\+|--)|(\+\+|--)\s*(\w+)", text)
        if m and (m.group(1) or m.group(4)) in self.env and isinstance(self.env[m.group(1) or m.group(4)], int):
            k = m.group(1) or m.group(4)
            self.env[k] += 1 if "+" in (m.group(2) or m.group(3)) else -1
            return
        if t == "assignment":
            left = _t(s.child_by_field_name("left") or s.named_children[0]).strip()
            if left in self.env and isinstance(self.env[left], int):
                op = re.search(r"[-+*]?=", text[len(left):]).group(0)
                v = _int_value(s.named_children[-1], self.env)
                self.env[left] = {"=": v, "+=": self.env[left] + v, "-=": self.env[left] - v,
                                  "*=": self.env[left] * v}[op]
                return
        if t == "call_expression" and re.match(r"repeat\s*\(", text) and s.named_children and \
                s.named_children[0].type == "call_expression":
            va = _kid(s.named_children[0], "value_arguments")
            lam = _kid(_kid(s, "annotated_lambda"), "lambda_literal") if _kid(s, "annotated_lambda") is not None \
                else None
            args = [a for a in (va.named_children if va is not None else []) if a.type == "value_argument"]
            if lam is not None and len(args) == 1:
                times = _int_value(args[0].named_children[-1], self.env)
                _params, body = _lambda_parts(lam)
                for _ in range(max(times, 0)):
                    self.block(body)
                return
        _grow(s, self.var, self.vals, self.env)


def _test(x, env: dict) -> bool:
    """A test of ints (``players.size >= 5``, ``a && b``) with ``env`` giving the names' values (raises _Unread)."""
    x = _unparen(x)
    if x.k == "bin" and x.a[0] in ("&&", "||"):
        a = _test(x.a[1], env)
        return (a and _test(x.a[2], env)) if x.a[0] == "&&" else (a or _test(x.a[2], env))
    if x.k == "un" and x.a[0] == "!":
        return not _test(x.a[1], env)
    if x.k == "bin" and x.a[0] in ("<", "<=", ">", ">=", "==", "!="):
        a, b = _int(x.a[1], env), _int(x.a[2], env)
        return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "==": a == b, "!=": a != b}[x.a[0]]
    if x.k == "lit" and isinstance(x.a[0], bool):
        return x.a[0]
    raise _Unread(f"{_t(x.n)[:60]}: a test not read")


def _int(x, env: dict) -> int:
    x = _unparen(x)
    if x.k == "lit" and type(x.a[0]) is int:
        return x.a[0]
    if x.k == "un" and x.a[0] == "-":
        return -_int(x.a[1], env)
    if x.k == "bin" and x.a[0] in ("+", "-", "*", "/", "%"):
        a, b = _int(x.a[1], env), _int(x.a[2], env)
        return {"+": a + b, "-": a - b, "*": a * b, "/": a // b if b else 0, "%": a % b if b else 0}[x.a[0]]
    key = " ".join(_t(x.n).split()).replace("!!", "")
    for k in (key, key.split(".")[-1] if x.k == "name" else None):
        if k in env and isinstance(env[k], int):
            return env[k]
    if x.k == "nav" and x.a[1] == "size" and re.sub(r"^this\.", "", _t(x.a[0].n).strip()) in env and \
            isinstance(env[re.sub(r"^this\.", "", _t(x.a[0].n).strip())], list):
        return len(env[re.sub(r"^this\.", "", _t(x.a[0].n).strip())])
    raise _Unread(f"{key[:60]}: a value not read")


class _Eval:
    """``Deck.init`` for one table size: the list operations on ``target`` (``self.deck``: indices into the list of
    every print) under tests of ints."""

    def __init__(self, target: str, prop: str, size: int, env: dict, deck: list):
        self.target, self.prop, self.size, self.env, self.deck = target, prop, size, env, deck

    def block(self, stmts):
        for s in stmts:
            self.stmt(s)

    def mentions(self, node) -> bool:
        return re.search(r"(?<![\w.])" + re.escape(self.target) + r"\b", _t(node)) is not None

    def changes(self, node) -> bool:
        """Whether the code may change the deck (a call of a changing method on it, an assignment to it)."""
        return re.search(r"(?<![\w.])" + re.escape(self.target) + r"\s*(\.\s*(add|remove|clear|set|retain|sub)\w*|"
                         r"\[[^\]]*\]\s*=[^=]|=[^=]|\+=|-=)", _t(node)) is not None

    def stmt(self, s):
        t = s.type
        if t in ("line_comment", "block_comment"):
            return
        if not self.changes(s):
            return                                         # reads the deck (its colour rates, its size) or not at all
        if t == "if_expression":
            cond = s.child_by_field_name("condition")
            branches = [b for b in _code(s) if b != cond]
            if _test(_ir(cond), self.env):
                if branches:
                    self.block(_stmts(branches[0]))
            elif len(branches) > 1:
                self.block(_stmts(branches[1]))
            return
        if t == "for_statement":
            raise _Unread(f"{' '.join(_t(s).split())[:60]}: a loop changing the deck")
        if t == "call_expression":
            self.call(_ir(s))
            return
        raise _Unread(f"{' '.join(_t(s).split())[:60]}: a statement on the deck not read")

    def indices(self, x) -> list:
        x = _unparen(x)
        if x.k == "name" and x.a[0] == self.prop:
            return list(range(self.size))
        if x.k == "call" and x.a[0].k == "nav" and x.a[0].a[1] == "subList" and _t(x.a[0].a[0].n).strip() == self.prop \
                and len(x.a[1]) == 2:
            a, b = _int(x.a[1][0].x, self.env), _int(x.a[1][1].x, self.env)
            return list(range(self.size))[a:b]
        raise _Unread(f"{_t(x.n)[:60]}: not a part of {self.prop}")

    def call(self, x):
        if x.k != "call" or x.a[0].k != "nav":
            raise _Unread(f"{_t(x.n)[:60]}: a call not read")
        recv, method = x.a[0].a[0], x.a[0].a[1]
        args = [a.x for a in x.a[1]]
        rt = _t(recv.n).strip()
        if rt == self.target:
            if method == "clear" and not args:
                self.deck.clear()
            elif method == "addAll" and len(args) == 1:
                self.deck.extend(self.indices(args[0]))
            elif method == "removeAt" and len(args) == 1:
                del self.deck[_int(args[0], self.env)]
            elif method in ("shuffle", "sortBy", "sortedBy") and x.a[2] is None or method == "shuffle":
                pass                                       # the order of the deck, not what it holds
            else:
                raise _Unread(f"{_t(x.n)[:60]}: a change of the deck not read")
            return
        if recv.k == "call" and recv.a[0].k == "nav" and recv.a[0].a[1] == "subList" and \
                _t(recv.a[0].a[0].n).strip() == self.target and method == "clear" and len(recv.a[1]) == 2:
            a, b = _int(recv.a[1][0].x, self.env), _int(recv.a[1][1].x, self.env)
            del self.deck[a:b]
            return
        if method == "forEach" and x.a[2] is not None and rt in self.env and isinstance(self.env[rt], list):
            params, stmts = _lambda_parts(x.a[2])
            for v in list(self.env[rt]):
                saved = dict(self.env)
                self.env[params[0] if params else "it"] = v
                self.block(stmts)
                self.env.clear()
                self.env.update(saved)
            return
        raise _Unread(f"{_t(x.n)[:60]}: a call on the deck not read")


def _dealt(rule: str, block, var: str, src, what: str) -> EngineRule:
    """How the items of a list are dealt to the players (``tasks[secretIndex++]`` for each 神秘人): by an index that
    moves on after each deal (``i++``, ``i += 1``, a ``for`` loop's variable) each player takes his own item; by one
    that never moves every player dealt takes the same item. Each read of ``var[…]`` in the block, in order."""
    text = re.sub(r"//[^\n]*", "", _t(block))
    out = []
    for m in re.finditer(r"\b" + re.escape(var) + r"\s*\[([^\]\[]+)\]", text):
        idx = " ".join(m.group(1).split())
        if re.fullmatch(r"\w+\s*(\+\+|--)|(\+\+|--)\s*\w+", idx):
            out.append("one each")
            continue
        if not re.fullmatch(r"[A-Za-z_]\w*", idx):
            out.append(f"by {idx}")
            continue
        looped = re.search(r"\bfor\s*\(\s*" + idx + r"\s+in\b", text)
        declared = re.findall(r"\b(?:val|var)\s+" + idx + r"\s*=", text)
        assigned = len(re.findall(r"\b" + idx + r"\s*(\+\+|--|[-+*]?=(?!=))|(\+\+|--)\s*" + idx + r"\b", text))
        if looped or assigned > len(declared):
            out.append("one each")
        elif declared:
            out.append("the same")
        else:
            out.append(f"by {idx}")
    if not out:
        return EngineRule(rule, None, src.at(block), f"no {what} dealt by index", False, True)
    return EngineRule(rule, tuple(out), src.at(block), f"each {what} dealt: "
                      + ", ".join(out) + " (an index moved on after each deal: one each)", False)


def _shuffled(rule: str, block, decl, var: str, src, what: str) -> EngineRule:
    """Whether a list dealt out in order (``tasks[i]`` per seat) is shuffled first (``tasks.shuffle()`` after it is
    built, in the same block): without it the same seats get the same items every game."""
    after = False
    for st in _code(block):
        if st is decl:
            after = True
            continue
        if after and re.fullmatch(re.escape(var) + r"\s*\.\s*shuffle\(\)", _t(st).strip()):
            return EngineRule(rule, True, src.at(st), f"{what} are shuffled before they are dealt", False)
    return EngineRule(rule, False, src.at(decl), f"{what} are dealt in the order the list holds them", False)

