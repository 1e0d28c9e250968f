"""Engine rules read from the server's engine files: what the game flow itself decides, outside the skill classes.

Each probe looks for one engine decision in the code that makes it — the conversion loop, the receive check, the
turn end, the draw fold, the fight / dying skip predicates, what InvalidSkill wraps, whether a sender may lock
himself, how triggered skills are dispatched, the win / result passes, how a role starts — and reads it into a
value. A decision is recognised by what the code *does* (a boolean guard is compared with the known shapes by
its truth table over the same atoms), not by its spelling, so formatting and renames leave the value alone.

Two sorts of engine rule come out:

* ``[rules]`` keys the catalogue format has and both back-ends honour (``face_down_converts``,
  ``face_down_grant_converts``, ``must_receive``, ``must_beats_cannot``, ``turn_end``, ``draw_base``,
  ``skip_fight``, ``skip_dying``): written to ``rules.toml``;
* named engine rules skillproof does not model (``invalidation.wraps``, ``lock_self.<path>``,
  ``trigger.source``, ``trigger.dead_owner``, ``result_pass.*``, ``win_pass.*``, ``roles.start_face_up``,
  ``convert.only_must``, ``convert.pick``, ``turn.use_counts_reset``): listed in the report and compared by
  ``skillproof diff --kotlin``.

What a probe cannot read is ``None`` (unknown) with the reason — never a guess; an unknown ``[rules]`` key is
left out of ``rules.toml`` (the catalogue default applies) and listed.
"""
from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from .classes import ClassIndex
from .server import DYING_PHASES, PLAYER_PROPS
from .syntax import (_X, _anon, _code, _conjuncts, _descendants, _fn_expr, _fn_params, _if_parts, _ir, _kid, _kids,
                     _lambda_parts, _name_of, _t, _unparen)
from .unread import is_rule_file

#: the [rules] keys the extractor reads, in the order rules.toml lists them
RULE_KEYS = ("seats", "send_dir", "send_lock", "send_to_self", "face_down_converts", "face_down_grant_converts", "must_receive", "must_beats_cannot", "turn_end",
             "draw_base", "skip_fight", "skip_dying")


@dataclass(frozen=True)
class EngineRule:
    """One engine decision as the code states it."""
    name: str           # a [rules] key, or a dotted name of a rule skillproof does not model
    value: object       # bool, int, str or tuple; None when it was not read
    where: str          # file:line of the code it was read from ("" when none was found)
    how: str            # what the code says, or why it was not read
    key: bool           # a [rules] key of the catalogue format (honoured by the interpreter and the encoder)
    absent: bool = False   # not read because the code has no such construct at all (not: in a form not read)
    #: the value is read from the one function at ``where`` alone, and from what ``reads`` names (the win rules'
    #: clauses: the result and win passes it calls, by name): two revisions whose function has the same normal
    #: form (``unread``) and the same ``reads`` state the same rule, however the clauses read
    one: bool = False
    reads: tuple = ()
    #: catalogue ids the rule is part of (the skill or card whose handler it is read from): named with it when it changes
    about: tuple = ()

    def shown(self) -> str:
        return show_value(self.value)


def show_value(v) -> str:
    if v is None:
        return "unknown"
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(show_value(x) for x in v) + "]"
    return str(v)


# ------------------------------------------------------------------------------------------- booleans
class _Cond:
    """A Kotlin condition compiled to a function of named atoms (``fn(env)``), with the atoms it reads."""
    __slots__ = ("fn", "atoms")

    def __init__(self, fn, atoms):
        self.fn, self.atoms = fn, frozenset(atoms)

    def __call__(self, env) -> bool:
        return self.fn(env)


def _compile(x: _X, atom):
    """A Kotlin condition as a ``_Cond`` over named atoms: ``atom(x)`` names the leaves it knows (or returns a
    ``_Cond`` for a composite leaf); None when some leaf is not known."""
    x = _unparen(x)
    a = atom(x)
    if isinstance(a, _Cond):
        return a
    if isinstance(a, str):
        return _Cond(lambda env: env[a], {a})
    if x.k == "lit" and isinstance(x.a[0], bool):
        v = x.a[0]
        return _Cond(lambda env: v, ())
    if x.k == "un" and x.a[0] == "!":
        f = _compile(x.a[1], atom)
        return None if f is None else _Cond(lambda env: not f(env), f.atoms)
    if x.k == "is" and x.a[0]:                      # `s !is K`: the negation of the atom `s is K`
        f = atom(_X("is", x.n, False, x.a[1], x.a[2]))
        if isinstance(f, str):
            return _Cond(lambda env: not env[f], {f})
        return None
    if x.k == "bin" and x.a[0] in ("&&", "||"):
        f, g = _compile(x.a[1], atom), _compile(x.a[2], atom)
        if f is None or g is None:
            return None
        if x.a[0] == "&&":
            return _Cond(lambda env: f(env) and g(env), f.atoms | g.atoms)
        return _Cond(lambda env: f(env) or g(env), f.atoms | g.atoms)
    return None


def _same(f: _Cond, g, atoms) -> bool:
    """Whether a compiled condition and a template (a function over ``atoms``) agree on every assignment of
    the atoms of both."""
    names = sorted(set(atoms) | f.atoms)
    for vals in itertools.product((False, True), repeat=len(names)):
        env = dict(zip(names, vals))
        if f(env) != g(env):
            return False
    return True


def _norm(name: str) -> str:
    """A class name without case and underscores: ``send_message_card_tos`` and ``SendMessageCardTos`` agree."""
    return name.replace("_", "").lower()


class EngineRules(ClassIndex):
    """The probes; ``_engine`` runs them all (after the role table is read)."""

    def _engine(self) -> dict:
        found: list[EngineRule] = []
        probes = [self._p_convert, self._p_receive, self._p_turn_end, self._p_draw, self._p_skip,
                  self._p_invalidation, self._p_lock_self, self._p_triggers, self._p_passes, self._p_roles,
                  self._p_use_counts, self._p_grant_tests, self._p_tallies, self._p_player_props,
                  self._p_class_tables]
        if hasattr(self, "_p_wins"):                         # wins.WinRules, mixed in by the extractor
            probes.append(self._p_wins)
        if hasattr(self, "_p_setup"):                        # deck.DeckReader: the room's seats, the set-up
            probes += [self._p_seats, self._p_setup]
        if hasattr(self, "_p_orders"):                       # orders.OrderRules: steps and asking orders
            probes.append(self._p_orders)
        if hasattr(self, "_p_send_defaults"):                # sends.SendDefaults: the default send rules
            probes.append(self._p_send_defaults)
        if hasattr(self, "_p_send_path"):                    # send_path.SendPath: the face a message travels with
            probes += [self._p_send_path, self._p_skill_sends]
        for extra in ("_p_timing", "_p_refusals"):          # timing.TimingRules, refusals.RefusalRules
            if hasattr(self, extra):
                probes.append(getattr(self, extra))
        for probe in probes:
            found += probe()
        out = {r.name: r for r in found}
        for r in out.values():
            if r.value is None:
                self.note("engine", r.name, r.where or self.root.name, f"not read: {r.how}")
        return dict(sorted(out.items(), key=lambda kv: (not kv[1].key, RULE_KEYS.index(kv[0])
                                                        if kv[0] in RULE_KEYS else 0, kv[0])))

    # ----------------------------------------------------------------------------------- grants' tests
    def _p_grant_tests(self) -> list:
        """``grant.<Class>.<function>``: the test a skill class given with arguments states over them (``CannotPlayCard
        (cardType, forbidAllCard)``'s ``cannotPlayCard(t) = forbidAllCard || t in this.cardType``), read by what it
        decides: the truth table over its atoms — a Boolean argument of the class, an argument of the function found
        in (or equal to) an argument of the class. The catalogue gives the grant its arguments (``args``); what the
        engine does with them is this test, so an atom dropped or added (a ban of every card no longer stopping a
        card) is a rule change, and a rewrite deciding the same is none. The rule is about the class."""
        out = []
        for c in self.classes:
            if not c.src.rel.startswith("skill/") or not c.params or not self.is_skill(c):
                continue
            props = {p.name for p in c.params}
            bools = {p.name for p in c.params if p.tname == "Boolean"}
            for fd in c.members("function_declaration"):
                body = _fn_expr(fd)
                fparams = {p[0] for p in _fn_params(fd)}
                if body is None or not fparams:
                    continue

                def prop_of(x):
                    x = _unparen(x)
                    if x.k == "name" and x.a[0] in props and x.a[0] not in fparams:
                        return x.a[0]
                    if x.k == "nav" and x.a[0].k == "this" and x.a[1] in props:
                        return x.a[1]
                    return None

                def atom(x):
                    if prop_of(x) in bools:
                        return prop_of(x)
                    if x.k == "in" and _unparen(x.a[1]).k == "name" and _unparen(x.a[1]).a[0] in fparams and \
                            prop_of(x.a[2]) is not None:
                        k = f"{_unparen(x.a[1]).a[0]} in {prop_of(x.a[2])}"
                        return _Cond(lambda env: not env[k], {k}) if x.a[0] else k
                    if x.k == "call" and x.a[0].k == "nav" and x.a[0].a[1] == "contains" and len(x.a[1]) == 1 and \
                            x.a[2] is None and prop_of(x.a[0].a[0]) is not None and \
                            _unparen(x.a[1][0].x).k == "name" and _unparen(x.a[1][0].x).a[0] in fparams:
                        return f"{_unparen(x.a[1][0].x).a[0]} in {prop_of(x.a[0].a[0])}"
                    if x.k == "bin" and x.a[0] in ("==", "===") and _unparen(x.a[1]).k == "name" and \
                            _unparen(x.a[1]).a[0] in fparams and prop_of(x.a[2]) is not None:
                        return f"{_unparen(x.a[1]).a[0]} == {prop_of(x.a[2])}"
                    return None
                f = _compile(_ir(body), atom)
                if f is None or not f.atoms or len(f.atoms) > 6:
                    continue
                atoms, rows = _truth_rows(f, "not ({})")
                name = _name_of(fd)
                out.append(EngineRule(f"grant.{c.name}.{name}", tuple(rows) if rows else ("never",), c.src.at(fd),
                                      f"{c.name}.{name}: what the test decides over the grant's arguments", False,
                                      about=(c.name,)))
        return out

    def _p_player_props(self) -> list:
        """``prop.<Class>.<name>``: a player property the vocabulary has a word for (``isMale``: *male*, ``isFemale``:
        *female*, … ``server.PLAYER_PROPS``) whose getter, in a class that is no skill or card, decides over Boolean
        properties of its own class (``RoleSkillsData.isMale = isFaceUp && !female``), read by what it decides: the
        truth table over those properties. The catalogue's words take the server's meaning as given, so a getter
        deciding otherwise (a negated or dropped conjunct) is an engine rule change, and a rewrite deciding the same
        is none. A getter handing over to another object's property (``Player.isMale = roleSkillsData.isMale``) is
        not read here."""
        out = []
        for c in self.classes:
            if self.is_skill(c) or self.is_card(c):
                continue
            bools = {p.name for p in c.params if p.tname == "Boolean"}
            props = []
            for pd in c.members("property_declaration"):
                vd = _kid(pd, "variable_declaration")
                name = _t(_kid(vd, "identifier")) if vd is not None else ""
                tnode = vd.named_children[1] if vd is not None and len(vd.named_children) > 1 else None
                init = [k for k in pd.named_children if k is not vd and (
                    _t(k) in ("true", "false") or k.type in ("identifier", "simple_identifier") and _t(k) in bools)]
                if (tnode is not None and _t(tnode) == "Boolean") or init:
                    bools.add(name)
                props.append((pd, name))
            for pd, name in props:
                getter = _kid(pd, "getter")
                if name not in PLAYER_PROPS or getter is None:
                    continue
                body = _fn_expr(getter)
                if body is None:
                    continue

                def atom(x, _b=bools, _self=name):
                    x = _unparen(x)
                    if x.k == "name" and x.a[0] in _b and x.a[0] != _self:
                        return x.a[0]
                    if x.k == "nav" and x.a[0].k == "this" and x.a[1] in _b and x.a[1] != _self:
                        return x.a[1]
                    return None
                f = _compile(_ir(body), atom)
                if f is None or not f.atoms or len(f.atoms) > 6:
                    continue
                atoms, rows = _truth_rows(f, "not {}")
                out.append(EngineRule(f"prop.{c.name}.{name}", tuple(rows) if rows else ("never",), c.src.at(pd),
                                      f"{c.name}.{name} ({PLAYER_PROPS[name]}): what the getter decides over "
                                      f"{', '.join(atoms)}", False, one=True))
        return out

    def _p_class_tables(self) -> list:
        """``table.<Owner>.<function>``: a function that picks the class to build by a ``when`` over one of its
        parameters, each branch a constant (``Po_Yi``) giving a new object of a class of the sources
        (``PoYi(card)``) — ``Card.asCard``'s table from the card type a card is used as to the class that plays it. Read as the sorted
        pairs (``Po_Yi -> PoYi``), with any other branch by its text: a pair changed, added or dropped (a card type
        played by another card's rule) is an engine rule change; the order of the branches decides nothing."""
        out = []
        for src, fd, name, owner in self._functions():
            if not is_rule_file(src.rel):
                continue
            params = {p[0] for p in _fn_params(fd)}
            for at, subject, branches in _param_switches(fd, params):
                pairs, other = [], []
                for conds, body in branches:
                    text = _branch_text(conds, body)
                    if body is None or not conds:
                        other.append(text)
                        continue
                    callee = body.named_children[0] if body.type == "call_expression" and body.named_children else None
                    cls = self.resolve(_t(callee), None) if callee is not None and callee.type in (
                        "identifier", "simple_identifier") else None
                    if cls is None or not all(c.type in ("identifier", "simple_identifier") for c in conds):
                        other.append(text)
                        continue
                    pairs += [f"{_t(c)} -> {cls.name}" for c in conds]
                if len(pairs) < 2:
                    continue
                owner_name = owner.name if owner is not None else src.rel.rsplit("/", 1)[-1].removesuffix(".kt")
                out.append(EngineRule(f"table.{owner_name}.{name}", tuple(sorted(pairs)) + tuple(other),
                                      src.at(at), f"{owner_name}.{name}: the class each value of "
                                      f"{subject} builds", False, one=True))
        return out

    def _p_tallies(self) -> list:
        """``tally.<Owner>.<function>``: a test of a player's about cards joining his message area
        (``Player.checkThreeSameMessageCard(cards)``: would they give him three messages of one colour — 利诱, 定论,
        移花接木 put the card into a hand instead), run on every colour a joining card can have with 0 to 3 messages of
        that colour already there (``helpers.tally_outcomes``): which colours it counts and from how many. The rules
        that call it are named with its change."""
        from .helpers import tally_outcomes
        out = []
        for src, fd, name, owner in self._functions():
            if owner is None or self.is_skill(owner) or self.is_card(owner) or src.rel.startswith(("skill/", "card/")):
                continue
            params = _fn_params(fd)
            if len(params) != 1 or params[0][1] not in ("List", "Iterable", "Collection") or \
                    "Card" not in str(params[0][2]):
                continue
            text = _t(fd)
            if "messageCards" not in text or ".colors" not in text:
                continue
            v = tally_outcomes(self, fd, params[0][0], "messageCards")
            out.append(EngineRule(f"tally.{owner.name}.{name}", v, src.at(fd),
                                  f"{owner.name}.{name}: for a card of each colour joining the area, the fewest "
                                  "messages of that colour already there for which the test holds"
                                  if v is not None else f"{owner.name}.{name}: the test is not read", False))
        return out

    # ----------------------------------------------------------------------------------- helpers
    def _functions(self):
        """Every function declaration of the sources: (src, node, name, class it is a member of or None)."""
        if "_fns" not in self.__dict__:
            out = []
            owners = {}
            for c in self.classes:
                for fd in c.members("function_declaration"):
                    owners[(id(c.src), fd.start_byte)] = c
            for src in self.srcs:
                for fd in _descendants(src.tree.root_node, "function_declaration"):
                    out.append((src, fd, _name_of(fd), owners.get((id(src), fd.start_byte))))
            self._fns = out
        return self._fns

    def _fn_named(self, name: str):
        return [(src, fd) for src, fd, n, _c in self._functions() if n == name]

    def _initial_atom(self, x: _X, var: str):
        """``var.isInitialSkill`` or ``var is <initial marker>`` (the marker of this code's era)."""
        marker = self.initial_marker()
        if x.k == "nav" and x.a[1] == "isInitialSkill" and _t(x.a[0].n) == var:
            return True
        return x.k == "is" and not x.a[0] and x.a[1] is not None and _t(x.a[1].n) == var and \
            marker[0] == "class" and x.a[2] == marker[1]

    def _skill_atom(self, var: str):
        """Atoms of a condition on one skill ``var``: its kinds (``is:K``), ``initial``, ``can_use``,
        ``forbid_all``."""
        def atom(x: _X):
            if self._initial_atom(x, var):
                return "initial"
            if x.k == "is" and not x.a[0] and x.a[1] is not None and _t(x.a[1].n) == var:
                return f"is:{x.a[2]}"
            if x.k == "nav" and _t(x.a[0].n) == var and x.a[1] == "forbidAllCard":
                return "forbid_all"
            if x.k == "call" and x.a[0].k == "nav" and _t(x.a[0].a[0].n) == var and x.a[0].a[1] == "canUse":
                return "can_use"
            return None
        return atom

    def _skills_any(self, x: _X, shapes: dict):
        """``skills.any { … }`` compared with ``shapes`` (name -> (atoms, function)): the name of the shape
        its body has, or None."""
        if x.k != "call" or x.a[0].k != "nav" or x.a[0].a[1] != "any" or x.a[2] is None or x.a[1]:
            return None
        recv = x.a[0].a[0]
        if not (recv.k == "name" and recv.a[0] == "skills" or recv.k == "nav" and recv.a[1] == "skills"):
            return None
        params, stmts = _lambda_parts(x.a[2])
        if len(stmts) != 1:
            return None
        f = _compile(_ir(stmts[0]), self._skill_atom(params[0] if params else "it"))
        if f is None:
            return None
        for name, (atoms, g) in shapes.items():
            if _same(f, g, atoms):
                return name
        return None

    def _config_default(self, x: _X):
        """An int a ``Config.X`` property defaults to (``pps.putIfAbsent("key", "3")`` … ``X =
        pps.getProperty("key").toInt()``), or the literal itself; (value, where) or (None, reason)."""
        x = _unparen(x)
        if x.k == "lit" and isinstance(x.a[0], int) and not isinstance(x.a[0], bool):
            return x.a[0], ""
        if x.k != "nav":
            return None, f"`{_t(x.n)}` is not a Config property or a number"
        prop = x.a[1]
        for src in self.srcs:
            keys = {}
            for a in _descendants(src.tree.root_node, "assignment"):
                left, right = a.child_by_field_name("left"), a.child_by_field_name("right")
                if left is None or right is None or _t(left).split(".")[-1] != prop:
                    continue
                for call in _descendants(right, "call_expression"):
                    cx = _ir(call)
                    if cx.k == "call" and cx.a[0].k == "nav" and cx.a[0].a[1] == "getProperty" and cx.a[1] and \
                            cx.a[1][0].x.k == "str":
                        keys[cx.a[1][0].x.a[0]] = src.at(a)
            for call in _descendants(src.tree.root_node, "call_expression"):
                cx = _ir(call)
                if cx.k == "call" and cx.a[0].k == "nav" and cx.a[0].a[1] == "putIfAbsent" and len(cx.a[1]) == 2 \
                        and cx.a[1][0].x.k == "str" and cx.a[1][0].x.a[0] in keys and cx.a[1][1].x.k == "str":
                    try:
                        return int(cx.a[1][1].x.a[0]), src.at(call)
                    except ValueError:
                        return None, f"the default of {prop} is not a number"
        return None, f"no default found for the configuration property {prop}"

    # ----------------------------------------------------------------------------- conversion
    def _conversion_fn(self):
        """The conversion loop: a function over the player's skills testing ``is ConvertCardSkill``."""
        cands = []
        for src, fd, name, owner in self._functions():
            if owner is not None and self.is_skill(owner):
                continue
            if any(_ir(n).k == "is" and _ir(n).a[2] == "ConvertCardSkill" for n in _descendants(fd, "is_expression")) \
                    and any(_t(n) == "skills" for n in _descendants(fd, "identifier")):
                cands.append((name != "canUseCardTypes", src.rel, fd.start_byte, src, fd))
        return min(cands, key=lambda c: c[:3])[3:] if cands else (None, None)

    def _p_convert(self) -> list:
        src, fd = self._conversion_fn()
        if fd is None:
            why = "no conversion loop (a function over the player's skills testing `is ConvertCardSkill`)"
            return [EngineRule(k, None, "", why, True, True) for k in ("face_down_converts",
                                                                       "face_down_grant_converts")] + \
                [EngineRule(k, None, "", why, False, True) for k in ("convert.only_must", "convert.pick")]
        where = src.at(fd)
        out = []
        loop = next((n for n in _descendants(fd, "for_statement")), None)
        var = _t(_kid(_kid(loop, "variable_declaration"), "identifier")) if loop is not None else "s"
        considered, how = self._face_guard(fd, loop, var)
        if considered is None:
            out += [EngineRule(k, None, where, how, True) for k in ("face_down_converts", "face_down_grant_converts")]
        else:
            ok = considered({"face_up": True, "initial": True}) and considered({"face_up": True, "initial": False})
            if not ok:
                out += [EngineRule(k, None, where, "the face-up test also drops skills of a face-up role", True)
                        for k in ("face_down_converts", "face_down_grant_converts")]
            else:
                out.append(EngineRule("face_down_converts", considered({"face_up": False, "initial": True}), where,
                                      how, True))
                out.append(EngineRule("face_down_grant_converts", considered({"face_up": False, "initial": False}),
                                      where, how, True))
        # only-must mode: a Boolean parameter the loop reads together with `.must`
        bools = [p[0] for p in _fn_params(fd) if p[1] == "Boolean"]
        used = [b for b in bools if any(_t(n) == b for n in _descendants(_kid(fd, "function_body"), "identifier"))]
        out.append(EngineRule("convert.only_must", bool(used), where,
                              f"parameter {used[0]} makes the loop consider must-conversions only" if used
                              else "every conversion is considered", False))
        # which conversion is taken: the assignment of the loop variable to the result
        pick, why = self._convert_pick(fd, var)
        out.append(EngineRule("convert.pick", pick, where, why, False))
        return out

    def _face_guard(self, fd, loop, var):
        """Which skills the conversion loop considers, as a function of the role's face and the skill's initial
        flag: ``roleFaceUp || !s.isInitialSkill || continue``, ``if (…) continue``, ``if (roleFaceUp) { loop }``,
        or no face test at all."""
        refs = [n for n in _descendants(fd, "identifier", "navigation_expression")
                if (_t(n) == "roleFaceUp" if n.type == "identifier" else _t(n).endswith(".roleFaceUp"))]
        if not refs:
            return (lambda env: True), "no face-up test: every conversion skill applies face down too"

        def atom(x):
            if x.k == "name" and x.a[0] == "roleFaceUp" or x.k == "nav" and x.a[1] == "roleFaceUp":
                return "face_up"
            if self._initial_atom(x, var):
                return "initial"
            return None
        node = refs[0]
        up = node.parent
        while up is not None and up != fd:
            if up.type == "binary_expression" and up.parent is not None and \
                    up.parent.type in ("block", "statements", "control_structure_body", "lambda_literal"):
                parts = _conjuncts(_ir(up), "||")                # `A || B || continue`
                if parts and _t(parts[-1].n).strip() == "continue" and len(parts) > 1:
                    cond = parts[0]
                    for p in parts[1:-1]:
                        cond = _X("bin", p.n, "||", cond, p)
                    f = _compile(cond, atom)
                    if f is not None:
                        text = " || ".join(" ".join(_t(p.n).split()) for p in parts[:-1])
                        return f, f"the loop skips a skill unless `{text}`"
                break
            if up.type == "if_expression":
                cond, branches = _if_parts(up)
                f = _compile(_ir(cond), atom) if cond is not None else None
                if f is None:
                    break
                body = branches[0] if branches else None
                if body is not None and "continue" == " ".join(_t(body).split()).strip("{} "):
                    return (lambda env: not f(env)), f"the loop skips a skill when `{' '.join(_t(cond).split())}`"
                if loop is not None and body is not None and body.start_byte <= loop.start_byte < body.end_byte:
                    return f, f"the whole loop runs only when `{' '.join(_t(cond).split())}`"
                break
            up = up.parent
        return None, "the face-up test is not in a shape read (`A || B || continue`, `if (…) continue`, " \
                     "`if (roleFaceUp) { loop }`)"

    def _convert_pick(self, fd, var):
        for a in _descendants(fd, "assignment"):
            right = a.child_by_field_name("right")
            if right is None or _t(right) != var:
                continue
            res = _t(a.child_by_field_name("left"))
            text = ""
            child, up = a, a.parent
            while up is not None and up != fd:               # the nearest test guarding the assignment
                if up.type == "if_expression":
                    cond, br = _if_parts(up)
                    if br and br[0] == child and cond is not None:
                        text = " ".join(_t(cond).split())
                        break
                child, up = up, up.parent
            if f"{res}.must" in text.replace(" ", "") or f"!{res}.must" in text.replace(" ", ""):
                return "must, else the last", "a must-conversion is taken over an optional one, else the later one"
            if text.replace(" ", "") in ("!ok", f"{res}==null"):
                return "the first", "the first matching conversion is taken"
            return None, f"the choice of the conversion (`{text}`) is not in a shape read"
        return None, "no assignment of the conversion that is taken"

    # -------------------------------------------------------------------------------- receive
    def _p_receive(self) -> list:
        return [self._must_receive(), self._must_beats_cannot()]

    def _receive_atoms(self, x: _X, me):
        """``me === sender`` / ``me === whoseTurn`` / the locked players test → the must-receive ingredient."""
        def other(a, b):
            ta, tb = _t(a.n).split(".")[-1], _t(b.n).split(".")[-1]
            return tb if ta == me else ta if tb == me else None
        x = _unparen(x)
        if x.k == "bin" and x.a[0] in ("===", "=="):
            o = other(x.a[1], x.a[2])
            return {"sender": "sender", "whoseTurn": "turn"}.get(o) if o else None
        if "lockedPlayers" in _t(x.n) and x.k in ("call", "in"):
            return "locked"
        return None

    def _must_receive(self) -> EngineRule:
        fns = self._fn_named("mustReceiveMessage")
        for src, fd in fns:
            body = _fn_expr(fd)
            if body is None:
                continue
            got, rest = self._disjuncts(_ir(body), "inFrontOfWhom")
            if got and not rest:
                return EngineRule("must_receive", tuple(sorted(got)), src.at(fd),
                                  f"mustReceiveMessage: {' or '.join(sorted(got))} must receive", True)
            return EngineRule("must_receive", None, src.at(fd), "mustReceiveMessage has a part not read: "
                              + "; ".join(f"`{' '.join(_t(r.n).split())}`" for r in rest[:2]), True)
        # older code: the receive handler refuses to let these players decline
        for c in self.classes:
            if _norm(c.name) != "choosewhetherreceivetos":
                continue
            got = set()
            for n in _descendants(c.node, "binary_expression", "property_declaration"):
                if n.type == "property_declaration":
                    vd = _kid(n, "variable_declaration")
                    if vd is None or _t(_kid(vd, "identifier")) != "mustReceive":
                        continue
                    init = [k for k in _code(n) if k.type not in ("modifiers", "variable_declaration")]
                    if init:
                        g, rest = self._disjuncts(_ir(init[-1]), "r")
                        got |= g
                    continue
                x = _ir(n)
                if x.k == "bin" and x.a[0] == "===":
                    a = self._receive_atoms(x, "r")
                    if a:
                        got.add(a)
            if any(_t(n) == "lockedPlayers" for n in _descendants(c.node, "identifier")):
                got.add("locked")
            if got:
                return EngineRule("must_receive", tuple(sorted(got)), c.at(),
                                  f"the receive handler makes {' and '.join(sorted(got))} receive", True)
        return EngineRule("must_receive", None, "", "no mustReceiveMessage function and no receive handler read", True)

    def _disjuncts(self, x: _X, me):
        got, rest = set(), []
        for p in _conjuncts(x, "||"):
            a = self._receive_atoms(p, me)
            if a:
                got.add(a)
            elif "MustReceiveMessage" in _t(p.n):
                continue                                    # the skills' own must-receive rules: modelled
            else:
                rest.append(p)
        return got, rest

    def _must_beats_cannot(self) -> EngineRule:
        for src in self.srcs:
            for n in _descendants(src.tree.root_node, "if_expression"):
                cond, _br = _if_parts(n)
                if cond is None:
                    continue
                text = " ".join(_t(cond).split())
                if "&&" not in text:
                    continue
                conj = _conjuncts(_ir(cond))
                negated_must = any(c.k == "un" and c.a[0] == "!" and
                                   ("mustReceive" in _t(c.a[1].n)) for c in conj)
                cannot = any("cannotReceive" in _t(c.n) or "findSkill" in _t(c.n) for c in conj)
                if negated_must and cannot:
                    return EngineRule("must_beats_cannot", True, src.at(n),
                                      "cannot-receive is only applied when the player need not receive", True)
        return EngineRule("must_beats_cannot", None, "", "no cannot-receive test guarded by `!mustReceive` found", True)

    def handler_cannot_receive(self) -> dict:
        """Older code (2023-09-25 … 09-26) kept a cannot-receive rule in the receive handler itself:
        ``if (!mustReceive && r.findSkill(SkillId.X) != null) return`` — holders of skill X cannot receive.
        SkillId constant X -> where."""
        out = {}
        for c in self.classes:
            if _norm(c.name) != "choosewhetherreceivetos":
                continue
            for n in _descendants(c.node, "if_expression"):
                cond, br = _if_parts(n)
                if cond is None or not br or "return" not in _t(br[0]):
                    continue
                conj = _conjuncts(_ir(cond))
                if not any(x.k == "un" and x.a[0] == "!" and "mustReceive" in _t(x.a[1].n) for x in conj):
                    continue
                for x in conj:
                    if x.k == "bin" and x.a[0] == "!=" and _t(x.a[2].n) == "null" and x.a[1].k == "call" and \
                            x.a[1].a[0].k == "nav" and x.a[1].a[0].a[1] == "findSkill" and len(x.a[1].a[1]) == 1:
                        arg = x.a[1].a[1][0].x
                        if arg.k in ("nav", "name"):
                            out[_t(arg.n).split(".")[-1]] = c.src.at(n)
        return out

    # ------------------------------------------------------------------------------- turn end
    def _p_turn_end(self) -> list:
        for src, fd, _n, _o in self._functions():
            steps = []
            for call in _descendants(fd, "call_expression"):
                x = _ir(call)
                if x.k == "call" and x.a[0].k == "nav" and x.a[0].a[1] == "reset" and x.a[0].a[0].k == "name":
                    c = self.resolve(x.a[0].a[0].a[0], None)
                    kinds = self.kinds(c) if c is not None else []
                    if "InvalidSkill" in kinds or (c is not None and c.name == "InvalidSkill"):
                        steps.append((call.start_byte, "restore_invalid"))
                    elif "OneTurnSkill" in kinds:
                        steps.append((call.start_byte, "drop_one_turn"))
            names = [s for _b, s in sorted(steps)]
            if len(set(names)) == 2 and len(names) == 2:
                return [EngineRule("turn_end", tuple(names), src.at(fd),
                                   f"{' then '.join(names)} ({_name_of(fd)})", True)]
        absent = not any(c.name == "OneTurnSkill" for c in self.classes)
        return [EngineRule("turn_end", None, "", "no function calls both InvalidSkill.reset and OneTurnSkill.reset",
                           True, absent)]

    # ----------------------------------------------------------------------------------- draw
    def _p_draw(self) -> list:
        for src, fd, name, _o in self._functions():
            body = _kid(fd, "function_body")
            if body is None or "ChangeDrawCardCountSkill" not in _t(body):
                continue
            for call in _descendants(body, "call_expression"):
                x = _ir(call)
                if x.k == "call" and x.a[0].k == "nav" and x.a[0].a[1] == "fold" and len(x.a[1]) == 1:
                    v, w = self._config_default(x.a[1][0].x)
                    return [EngineRule("draw_base", v, w or src.at(call),
                                       f"the draw fold ({name}) starts at {_t(x.a[1][0].node)}" if v is not None else w,
                                       True), self._draw_folds(name)]
        for c in self.classes:                   # before the draw fold: the draw phase draws a configured count
            if c.name != "DrawPhase":
                continue
            for call in _descendants(c.node, "call_expression"):
                x = _ir(call)
                if x.k == "call" and x.a[0].k == "nav" and x.a[0].a[1] == "draw" and len(x.a[1]) == 1:
                    v, w = self._config_default(x.a[1][0].x)
                    if v is not None:
                        return [EngineRule("draw_base", v, w or c.src.at(call),
                                           f"the draw phase draws {_t(x.a[1][0].node)}", True)]
        return [EngineRule("draw_base", None, "", "no draw fold over ChangeDrawCardCountSkill and no draw in DrawPhase",
                           True)]

    def _draw_folds(self, fold: str) -> EngineRule:
        """``draw_fold``: whether the draw phase draws the count the fold over the draw skills gives (its ``draw(…)``
        argument calls the fold's function) — when it does not, 白月光, 意中人 … change nothing."""
        for c in self.classes:
            if c.name != "DrawPhase":
                continue
            for call in _descendants(c.node, "call_expression"):
                x = _ir(call)
                if x.k == "call" and x.a[0].k == "nav" and x.a[0].a[1] == "draw" and len(x.a[1]) == 1:
                    uses = re.search(r"\b" + re.escape(fold) + r"\s*\(", _t(x.a[1][0].node)) is not None
                    return EngineRule("draw_fold", uses, c.src.at(call), f"the draw phase draws "
                                      f"{_t(x.a[1][0].node)}: {'the' if uses else 'not the'} fold over the draw skills "
                                      f"({fold})", False)
        return EngineRule("draw_fold", None, "", "no draw in DrawPhase", False, True)

    # ----------------------------------------------------------------------------------- skip
    _SHAPES = None

    def _shapes(self):
        if EngineRules._SHAPES is None:
            S = {"banned_all": (("is:CannotPlayCard", "forbid_all"),
                                lambda e: e["is:CannotPlayCard"] and e["forbid_all"]),
                 "keeps_skill": (("initial", "is:ActiveSkill"), lambda e: e["initial"] or e["is:ActiveSkill"]),
                 "non_main_active": (("is:ActiveSkill", "is:MainPhaseSkill"),
                                     lambda e: e["is:ActiveSkill"] and not e["is:MainPhaseSkill"]),
                 "usable_active": (("is:ActiveSkill", "can_use"), lambda e: e["is:ActiveSkill"] and e["can_use"])}
            EngineRules._SHAPES = S
        return EngineRules._SHAPES

    def _player_atom(self, depth=0):
        shapes = self._shapes()

        def atom(x: _X):
            if x.k == "call" and x.a[0].k == "nav" and x.a[0].a[1] == "isEmpty" and not x.a[1] and \
                    _t(x.a[0].a[0].n).split(".")[-1] == "cards":
                return "hand_empty"
            if x.k == "name" and x.a[0] == "hasEverFaceUp" or x.k == "nav" and x.a[1] == "hasEverFaceUp":
                return "ever_face_up"
            s = self._skills_any(x, shapes)
            if s is not None:
                return s
            if depth < 2 and x.k == "call" and x.a[0].k == "name":      # a helper predicate: read through
                for _src, fd in self._fn_named(x.a[0].a[0]):
                    body = _fn_expr(fd)
                    if body is not None:
                        return _compile(_ir(body), self._player_atom(depth + 1))
            return None
        return atom

    def _asked_in(self, states) -> list:
        """The top-level one-expression functions (a predicate on a player) called by name from the classes
        ``states``, when exactly one is: [(src, node, name)] or []."""
        called = set()
        for name in states:
            for c in self.by_name.get(name, []):
                for call in _descendants(c.node, "call_expression"):
                    x = _ir(call)
                    while x.k == "un" and len(x.a) == 2 and hasattr(x.a[1], "k"):
                        x = x.a[1]              # `!p.f()` is read as the call of `!p.f`
                    callee = x.a[0] if x.k == "call" and x.a else None
                    if getattr(callee, "k", None) == "nav" and not x.a[1]:
                        called.add(callee.a[1])
        found = [(src, fd, n) for src, fd, n, owner in self._functions()
                 if owner is None and n in called and _fn_expr(fd) is not None and fd.parent is not None
                 and fd.parent.type == "source_file"]
        return found if len(found) == 1 else []

    def _p_skip(self) -> list:
        preds = [(src, fd, n) for src, fd, n, _o in self._functions() if n.startswith("cannotPlayCardAndSkill")]
        fight = [p for p in preds if "fight" in p[2].lower()]
        dying = [p for p in preds if "chengqing" in p[2].lower() or "dying" in p[2].lower()]
        if not dying:                   # named otherwise: the one-expression predicate the dying states ask
            asked = self._asked_in(DYING_PHASES | {"StartWaitForChengQing"})
            if asked and asked[0][2] not in [p[2] for p in preds]:
                dying = asked
                preds = preds + asked
        if len(preds) == 1:
            fight = dying = preds
        out = []
        for key, lst in (("skip_fight", fight), ("skip_dying", dying)):
            if len(lst) != 1:
                out.append(EngineRule(key, None, "", "no single skip predicate (cannotPlayCardAndSkill…) for this "
                                      "phase", True, not preds))
                continue
            src, fd, name = lst[0]
            body = _fn_expr(fd)
            f = _compile(_ir(body), self._player_atom()) if body is not None else None
            if f is None:
                out.append(EngineRule(key, None, src.at(fd), f"{name}: a part of the predicate is not read", True))
                continue
            atoms = ("banned_all", "hand_empty", "keeps_skill", "ever_face_up", "non_main_active", "usable_active")
            match = None
            for gone, test in itertools.product((True, False), ("usable_active", "non_main_active")):
                def tmpl(e, gone=gone, test=test):
                    return (e["banned_all"] or e["hand_empty"]) and \
                        ((gone and not e["keeps_skill"]) or (e["ever_face_up"] and not e[test]))
                if _same(f, tmpl, atoms):
                    match = tuple(x for x, on in (("skills_gone", gone), ("can_use", test == "usable_active")) if on)
                    break
            if match is None:
                out.append(EngineRule(key, None, src.at(fd), f"{name}: not one of the known skip predicates", True))
            else:
                out.append(EngineRule(key, match, src.at(fd), f"{name}: skip a player who cannot play a card and "
                                      + ("whose skills are all gone, or who " if "skills_gone" in match else "who ")
                                      + "was ever face up and has no "
                                      + ("ActiveSkill usable now" if "can_use" in match
                                         else "ActiveSkill that is not a MainPhaseSkill"), True))
        return out

    # ----------------------------------------------------------------------------- invalidation
    def _p_invalidation(self) -> list:
        g = self.wrap_guard()
        if g is None:
            return [EngineRule("invalidation.wraps", None, "", "no InvalidSkill.deal", False,
                               not self.by_name.get("InvalidSkill"))]
        if g[0] == "all":
            return [EngineRule("invalidation.wraps", "every skill", g[-1], "InvalidSkill.deal wraps every skill",
                               False)]
        if g[0] == "initial" or g[0] == "is" and self.initial_marker() == ("class", g[1]):
            return [EngineRule("invalidation.wraps", "initial skills", g[-1],
                               "InvalidSkill.deal wraps the initial skills only", False)]
        return [EngineRule("invalidation.wraps", None, g[-1], "the test of InvalidSkill.deal is not read", False)]

    # ----------------------------------------------------------------------------------- locks
    def _p_lock_self(self) -> list:
        refuses_all = None
        where_all = ""
        for src, fd in self._fn_named("canSendCard"):
            where_all = src.at(fd)
            refuses_all = any(self._refuses_self(n) for n in _descendants(fd, "if_expression"))
        out = []
        for c in self.classes:
            if c.outer is not None or not any(_t(n) in ("lockPlayerIdList", "getLockPlayerId")
                                              for n in _descendants(c.node, "identifier")):
                continue
            refuses = None
            for n in _descendants(c.node, "binary_expression", "if_expression"):
                if n.type == "if_expression":
                    if self._refuses_self(n):
                        refuses = True
                    continue
                x = _ir(n)
                if x.k != "bin" or x.a[0] not in ("<=", "<", "=="):
                    continue
                lhs = _t(x.a[1].n)
                if x.a[0] == "==" and "getLockPlayerId" in lhs and _t(x.a[2].n) == "0":
                    refuses = True
                elif x.a[0] in ("<=", "<") and _t(x.a[2].n) == "0" and self._lock_id(n):
                    refuses = refuses or x.a[0] == "<="
            if refuses is None:
                continue
            calls_common = "canSendCard" in _t(c.node)
            value = not refuses and not (calls_common and refuses_all)
            why = ("it refuses relative seat 0 (the sender himself)" if refuses else
                   "canSendCard refuses the sender himself" if calls_common and refuses_all else
                   "no lock target is refused for being the sender")
            out.append(EngineRule(f"lock_self.{_norm(c.name)}", value, c.at(), why, False))
        return out

    def _lock_id(self, n) -> bool:
        """``n`` compares a lock target id (inside ``lockPlayerIdList.map { … }`` or of ``getLockPlayerId``)."""
        up = n.parent
        while up is not None and up.type not in ("function_declaration", "class_body"):
            if up.type == "call_expression" and "lockPlayerIdList" in _t(up.named_children[0]):
                return True
            up = up.parent
        return "getLockPlayerId" in _t(n)

    def _refuses_self(self, n) -> bool:
        """``if (lockPlayers.any { it === this }) return …`` and the like."""
        cond, br = _if_parts(n)
        if cond is None or not br or "return" not in _t(br[0]):
            return False
        text = "".join(_t(cond).split())
        return "lockPlayers" in text and ("===this" in text or "this===" in text or "contains(this)" in text)

    # -------------------------------------------------------------------------------- triggers
    def _p_triggers(self) -> list:
        fns = self._fn_named("dealListeningSkill")
        if not fns:
            why = "no dealListeningSkill"
            return [EngineRule("trigger.source", None, "", why, False, True),
                    EngineRule("trigger.dead_owner", None, "", why, False, True)]
        src, fd = fns[0]
        where = src.at(fd)
        ids = {_t(n) for n in _descendants(fd, "identifier")}
        if "listeningSkills" in ids:
            return [EngineRule("trigger.source", "a game-wide listening list", where,
                               "skills registered at init are asked, not the players' current skill lists", False),
                    EngineRule("trigger.dead_owner", None, where, "skills come from a listening list", False)]
        out = [EngineRule("trigger.source", "the players' skill lists", where,
                          "each player's current skills are asked", False)]
        dead = self._dead_owner(fd, "execute", "TriggeredSkill")
        out.append(EngineRule("trigger.dead_owner", dead[0], where, dead[1], False))
        out.append(self._skill_order(src, fd, "execute"))
        out.append(self._dispatch_rounds(src, fd, "execute"))
        return out

    def _dispatch_rounds(self, src, fd, method) -> EngineRule:
        """``trigger.rounds``: how many rounds of pending events one dispatch resolves — the bound of the counted loop
        (``repeat(n) { … }``) around the call ``skill.method(…)``: events raised while skills resolve are dispatched in
        the same pass up to that bound, the rest wait for the next state; 1 when no counted loop is around the call (a
        loop over the seats is no round). Not read (None) when the bound is not a number."""
        calls = [n for n in _descendants(fd, "call_expression")
                 if (lambda x: x.k == "call" and x.a[0].k == "nav" and x.a[0].a[1] == method)(_ir(n))]
        if not calls:
            return EngineRule("trigger.rounds", None, src.at(fd), f"no call of {method}", False)
        up, loops = calls[0].parent, []
        while up is not None and up != fd:
            if up.type == "lambda_literal":
                call = up.parent
                while call is not None and call.type != "call_expression":
                    call = call.parent
                x = _ir(call) if call is not None else None
                if x is not None and x.k == "call" and not x.a[1] and x.a[0].k == "call":
                    x = x.a[0]                                # ``repeat(n) { … }``: the lambda after the call
                if x is not None and x.k == "call" and x.a[0].k == "name" and x.a[0].a[0] == "repeat":
                    loops.append((call, x.a[1]))
            up = up.parent
        if not loops:
            return EngineRule("trigger.rounds", 1, src.at(fd), "one round of pending events per dispatch", False)
        call, args = loops[-1]                                # the outermost counted loop
        arg = _t(args[0].node).strip() if len(args) == 1 else ""
        if not re.fullmatch(r"\d+", arg):
            return EngineRule("trigger.rounds", None, src.at(call), "the loop's bound is not a number", False)
        n = int(arg)
        return EngineRule("trigger.rounds", n, src.at(call),
                          f"up to {n} round{'s' if n != 1 else ''} of pending events per dispatch", False)

    def _skill_order(self, src, fd, method) -> EngineRule:
        """``trigger.skill_order``: in which order one player's skills are asked when a moment is answered — the list
        the call ``skill.method(…)`` loops over (``player.skills.forEach { … }``, ``for (s in player.skills)``), in
        its order or turned round (``asReversed()``, ``reversed()``): with two skills of one player answering the
        same moment, the first asked may change what the second sees (就计 turning 李宁玉 face up before 城府)."""
        calls = [n for n in _descendants(fd, "call_expression")
                 if (lambda x: x.k == "call" and x.a[0].k == "nav" and x.a[0].a[1] == method)(_ir(n))]
        if not calls:
            return EngineRule("trigger.skill_order", None, src.at(fd), f"no call of {method}", False)
        loop_list = None
        up = calls[0].parent
        while up is not None and up != fd:
            if up.type == "lambda_literal":
                call = up.parent
                while call is not None and call.type not in ("call_expression",):
                    call = call.parent
                x = _ir(call) if call is not None else None
                if x is not None and x.k == "call" and x.a[0].k == "nav" and x.a[0].a[1] in ("forEach", "any",
                                                                                             "firstNotNullOfOrNull"):
                    loop_list = x.a[0].a[0]
                    break
            if up.type == "for_statement":
                kids = [c for c in up.named_children if c.type not in ("variable_declaration", "line_comment",
                                                                        "block_comment", "control_structure_body")]
                if kids:
                    loop_list = _ir(kids[0])
                    break
            up = up.parent
        if loop_list is None:
            return EngineRule("trigger.skill_order", None, src.at(calls[0]), "the loop around the call is not read",
                              False)
        turns, x = 0, _unparen(loop_list)
        while x.k == "call" and x.a[0].k == "nav" and not x.a[1] and x.a[2] is None:
            if x.a[0].a[1] in ("asReversed", "reversed"):
                turns += 1
            elif x.a[0].a[1] not in ("toList", "toMutableList", "asSequence", "filterNotNull"):
                return EngineRule("trigger.skill_order", None, src.at(calls[0]),
                                  f"the list is reordered ({x.a[0].a[1]}): not read", False)
            x = _unparen(x.a[0].a[0])
        if not (x.k == "nav" and x.a[1] == "skills"):
            return EngineRule("trigger.skill_order", None, src.at(calls[0]),
                              f"the loop is over {_t(loop_list.n)[:40]}, not a player's skills", False)
        value = "last first" if turns % 2 else "in order"
        return EngineRule("trigger.skill_order", value, src.at(calls[0]),
                          f"each player's skills are asked {'from his last to his first' if turns % 2 else 'in the order he holds them'}",
                          False)

    def _dead_owner(self, fd, method, kind):
        """Which skills of a dead owner the pass in ``fd`` still asks, from the guard around ``skill.method(…)``:
        a text over (in the die phase when the function has such a flag) BeforeDieSkill / initial / generated."""
        calls = [n for n in _descendants(fd, "call_expression")
                 if (lambda x: x.k == "call" and x.a[0].k == "nav" and x.a[0].a[1] == method)(_ir(n))]
        if not calls:
            return None, f"no call of {method}"
        flag = [p[0] for p in _fn_params(fd) if p[1] == "Boolean"]
        var = "skill"
        for lam in _descendants(fd, "lambda_literal"):
            ps, _st = _lambda_parts(lam)
            if ps and lam.start_byte <= calls[0].start_byte < lam.end_byte:
                var = ps[0]
        conds = []
        child, up = calls[0], calls[0].parent
        while up is not None and up != fd:
            if up.type == "if_expression":
                cond, br = _if_parts(up)
                if cond is not None and br and br[0] == child:
                    conds.append(_ir(cond))
            child, up = up, up.parent

        def atom(x):
            if x.k == "nav" and x.a[1] == "alive":
                return "alive"
            if x.k == "name" and x.a[0] in flag:
                return "flag"
            if self._initial_atom(x, var):
                return "initial"
            if x.k == "is" and not x.a[0] and x.a[1] is not None and _t(x.a[1].n) == var:
                return "before_die" if x.a[2] == "BeforeDieSkill" else f"is:{x.a[2]}"
            return None
        fs = [_compile(c, atom) for c in conds]
        if any(f is None for f in fs):
            return None, "the guard around the call is not read"
        tested = {a for f in fs for a in f.atoms} - {f"is:{kind}"}
        if tested - {"alive", "flag", "initial", "before_die"}:
            return None, "the guard tests something else (" + ", ".join(sorted(tested)) + ")"
        parts = []
        for in_die in ((False, True) if flag else (False,)):
            fires = []
            for label, init, bd in (("generated", False, False), ("initial", True, False),
                                    ("BeforeDieSkill", True, True)):
                env = {"alive": False, "flag": in_die, "initial": init, "before_die": bd, f"is:{kind}": True}
                if all(f(env) for f in fs):
                    fires.append(label)
            parts.append(("in the die phase: " if in_die else "") + (", ".join(fires) if fires else "none"))
        return "; ".join(parts), "a dead owner's skills asked: " + "; ".join(parts)

    # ---------------------------------------------------------------------------------- passes
    def _p_passes(self) -> list:
        out = []
        for name, kind, method in (("result_pass", "ChangeGameResultSkill",
                                    self.kind_method("ChangeGameResultSkill", "changeGameResult")),
                                   ("win_pass", "WinSkill", self.kind_method("WinSkill", "checkWin"))):
            found = None
            for src, fd, _n, owner in self._functions():
                if owner is not None and self.is_skill(owner):
                    continue
                body = _kid(fd, "function_body")
                if body is None or f"is {kind}" not in " ".join(_t(body).split()):
                    continue
                if any((lambda x: x.k == "call" and x.a[0].k == "nav" and x.a[0].a[1] == method)(_ir(n))
                       for n in _descendants(body, "call_expression")):
                    found = (src, fd)
                    break
            if found is None:
                why = f"no pass over the players calling {kind}.{method}"
                absent = not any(c.interface for c in self.by_name.get(kind, []))   # no such kind yet
                out += [EngineRule(f"{name}.start", None, "", why, False, absent),
                        EngineRule(f"{name}.dead_owner", None, "", why, False, absent)]
                continue
            src, fd = found
            text = "".join(_t(_kid(fd, "function_body")).split())
            start = "whose turn" if "whoseTurn.location" in text else None
            out.append(EngineRule(f"{name}.start", start, src.at(fd), "the pass starts at whose turn and goes round"
                                  if start else "where the pass starts is not read", False))
            dead = self._dead_owner(fd, method, kind)
            out.append(EngineRule(f"{name}.dead_owner", dead[0], src.at(fd), dead[1], False))
        return out

    # ----------------------------------------------------------------------------------- roles
    def _p_use_counts(self) -> list:
        """``turn.use_counts_reset``: every place the engine resets all of a player's skill-use counts (what a
        once-per-turn limit counts) and whose — every player's, or one player's (``NextTurn``: at each new turn)."""
        got = []
        for src, fd, name, owner in self._functions():
            if name == _RESET_COUNTS:
                continue
            for call in _descendants(fd, "call_expression"):
                who = _reset_whose(call)
                if who is not None:
                    got.append((f"{owner.name + '.' if owner else ''}{name}: {who}", src.at(call)))
        if not got:
            return [EngineRule("turn.use_counts_reset", None, "", "no call resetting a player's skill-use counts",
                               False, True)]
        got.sort()
        return [EngineRule("turn.use_counts_reset", tuple(v for v, _w in got), got[0][1],
                           "the skill-use counts reset (Player.resetSkillUseCount): where, and whose", False)]

    def _p_roles(self) -> list:
        rc = getattr(self, "role_cls", None)
        if rc is None:
            return [EngineRule("roles.start_face_up", None, "", "no role table", False)]
        cls, ps = rc
        idx = self.role_idx["public"]
        flag = ps[idx].name if idx < len(ps) else None
        owner, init = self.prop(cls, "isFaceUp")
        where = cls.at()
        if flag is not None and "faceup" in flag.lower():
            return [EngineRule("roles.start_face_up", "public roles", where,
                               f"the role table's {flag} says whether a role starts face up", False)]
        if init is None:
            return [EngineRule("roles.start_face_up", None, where, "no isFaceUp initializer in the role class",
                               False)]
        x = _unparen(_ir(init))
        if x.k == "name" and x.a[0] == flag:
            return [EngineRule("roles.start_face_up", "public roles", where, f"isFaceUp = {flag}", False)]
        if x.k == "un" and x.a[0] == "!" and _unparen(x.a[1]).k == "name" and _unparen(x.a[1]).a[0] == flag:
            return [EngineRule("roles.start_face_up", "hidden roles", where, f"isFaceUp = !{flag}", False)]
        return [EngineRule("roles.start_face_up", None, where, f"isFaceUp = `{_t(init)}` is not read", False)]



#: what spends a skill's per-turn and per-game use counts is the skills' own business; what resets them all is the
#: engine's (``Player.resetSkillUseCount()``, no argument: every skill of that player)
_RESET_COUNTS = "resetSkillUseCount"


def _players_expr(text: str) -> bool:
    """``game.players``, ``g.players.filterNotNull()``, ``players`` …: every seat of the game."""
    return bool(re.fullmatch(r"(\w+(!!)?\.)*players(\.filterNotNull\(\))?", re.sub(r"\s+", "", text)))


def _reset_whose(call) -> str | None:
    """Whose use counts a ``x.resetSkillUseCount()`` call resets: ``every player`` when ``x`` is the element of a loop
    over the game's players (``players.forEach { it.… }``, ``for (p in players) p.…``), ``one player`` for any other
    single receiver; None when it is not such a call."""
    callee = call.named_children[0] if call.named_children else None
    args = _kid(call, "value_arguments")
    if callee is None or callee.type != "navigation_expression" or args is None or args.named_children or \
            _t(callee.named_children[-1]) != _RESET_COUNTS:
        return None
    recv = _t(callee.named_children[0]).replace("!!", "").strip()
    n = call.parent
    while n is not None and n.type not in ("function_declaration", "class_body"):
        if n.type == "lambda_literal":
            params, _stmts = _lambda_parts(n)
            var = params[0] if params else "it"
            outer = n.parent.parent if n.parent is not None and n.parent.type == "annotated_lambda" else None
            if recv == var and outer is not None and outer.type == "call_expression" and outer.named_children and \
                    outer.named_children[0].type == "navigation_expression":
                nav = outer.named_children[0]
                if _t(nav.named_children[-1]) in ("forEach", "onEach") and _players_expr(_t(nav.named_children[0])):
                    return "every player"
        if n.type == "for_statement":
            kids = _code(n)
            var = next((k for k in kids if k.type in ("variable_declaration", "identifier")), None)
            coll = next((k for k in kids if k is not var and k.type not in ("control_structure_body", "block")), None)
            if var is not None and _t(_kid(var, "identifier") or var) == recv and coll is not None and \
                    _players_expr(_t(coll)):
                return "every player"
        n = n.parent
    return "one player"


def _truth_rows(f, negated: str) -> tuple:
    """The sorted atoms of a compiled test and its truth table: one row per assignment the test holds under, each
    atom written as itself or through ``negated`` (a format with one ``{}``)."""
    atoms = sorted(f.atoms)
    rows = []
    for vals in itertools.product((False, True), repeat=len(atoms)):
        if f(dict(zip(atoms, vals))):
            rows.append(" and ".join(a if v else negated.format(a) for a, v in zip(atoms, vals)))
    return atoms, rows


def _one_stmt(body):
    """A block holding one statement (no comment) as that statement; anything else as itself."""
    if body is not None and body.type == "block":
        inner = _kid(body, "statements")
        kids = _code(inner if inner is not None else body)
        if len(kids) == 1:
            return kids[0]
    return body


def _branch_text(conds, body) -> str:
    """A branch of a switch over a parameter as one line: ``A, B -> body`` (``else -> body`` for the rest), a
    one-statement block as its statement, whitespace as one space — alike for a ``when`` and for its ``if`` chain."""
    head = ", ".join(" ".join(_t(c).split()) for c in conds) if conds else "else"
    return f"{head} -> {' '.join(_t(body).split()) if body is not None else ''}"


def _param_switches(fd, params):
    """The switches of a function over one of its parameters ``params``: (node, parameter, [(conditions, body)]) —
    a ``when (p)`` with each entry's conditions (none for ``else``), and an ``if (p == X) … else if (X == p) … else
    …`` chain (two branches or more, every test an equality of ``p`` with something else) read as that ``when``.
    A body is the branch's one statement where its block holds one."""
    for w in _descendants(fd, "when_expression"):
        subj = _kid(w, "when_subject")
        if subj is None or _t(subj).strip("() ") not in params:
            continue
        branches = []
        for e in _kids(w, "when_entry"):
            kids = _code(e)
            body = kids[-1] if kids else None
            conds = [] if "else" in _anon(e) else kids[:-1]
            if not conds and "else" not in _anon(e):
                body = None
            branches.append((conds, _one_stmt(body)))
        yield w, _t(subj).strip("() "), branches
    for top in _descendants(fd, "if_expression"):
        if top.parent is not None and top.parent.type == "if_expression":
            continue                                        # an `else if` of a chain read from its first `if`
        branches, subject, node = [], None, top
        while node is not None and node.type == "if_expression":
            kids = _code(node)
            if len(kids) < 2 or not any(c.type == "(" for c in node.children):
                branches = []
                break
            cond, then = kids[0], kids[1]
            sides = [c for c in cond.named_children] if cond.type in ("binary_expression", "equality_expression") \
                else []
            ops = [c.type for c in cond.children if not c.is_named]
            if len(sides) != 2 or ops != ["=="]:
                branches = []
                break
            names = [_t(x) for x in sides]
            p = next((x for x in names if x in params and x == (subject or x)), None)
            if p is None or names[0] == names[1]:
                branches = []
                break
            subject = p
            const = sides[1] if names[0] == p else sides[0]
            branches.append(([const], _one_stmt(then)))
            rest = kids[2] if len(kids) > 2 and "else" in _anon(node) else None
            if rest is not None and rest.type != "if_expression":
                branches.append(([], _one_stmt(rest)))
                rest = None
            node = rest
        if len(branches) >= 2 and subject is not None:
            yield top, subject, branches
