"""Conditions and amounts of effects and guards → the catalogue's condition language, with the players of the rule's
moment bound: the asked player of a trigger (``askWhom``) is ``self``, an event's fields its roles
(``event.sender`` → ``sender``), a chosen target ``target``, the event's values its words (``event.cardType`` →
``card``, ``event.messageCard.isBlack()`` → ``black in message``). It extends the rule-method translator of
``bodies`` (``_Translator``): what it cannot say becomes ``unknown`` and is recorded in ``missed``."""
from __future__ import annotations

import re

from .. import vocab as V
from .bodies import _ATOM, _CMP, _IF, _NOT, _T, _Translator, _wrap
from .helpers import colour_pred_term
from .server import _LIST_FUNS, PHASE_WINDOWS
from .syntax import _X, _fn_expr, _fn_params, _ir, _kid, _lambda_parts, _t, _unparen

#: an event's (or an old game state's) fields that carry values of the event (model.events words)
EVENT_WORDS = {"cardType": ("card", "card"), "valid": ("bool", "card_valid"), "dir": ("dir", "dir"),
               "isMessageCardFaceUp": ("bool", "message_face_up"), "bySkill": ("bool", "by_skill")}


class CondTranslator(_Translator):
    """A ``_Translator`` whose names are given (``names``: Kotlin name → ``_T``) rather than read off a rule method's
    parameters. Sorts beyond the base's: ``player`` (a word of the moment: ``sender``, ``target``), ``event`` (an
    event object; ``fields`` maps its Kotlin fields to role names), ``cardval`` (a physical card), ``answer`` (the
    client's answer: whose fields are choices, not conditions)."""

    def __init__(self, ex, context: str, owner, names: dict, fields: dict | None = None, words: dict | None = None,
                 players=()):
        super().__init__(ex, context, [], owner, {})
        self.env.update(names)
        self.players = tuple(players)       # the player words of the moment (for a game state's players)
        self.fields = fields or {}          # event field -> role name
        self.words = words or {}            # event word -> type (what the moment carries)

    def bool(self, x: _X) -> _T:
        """``_Translator.bool`` with ``false or a`` = ``a`` and ``true and a`` = ``a`` (an event tested for null)."""
        if x.k == "bin" and x.a[0] in ("&&", "||"):
            l, r = self.bool(x.a[1]), self.bool(x.a[2])
            unit, zero = ("true", "false") if x.a[0] == "&&" else ("false", "true")
            if l.text == unit:
                return r
            if r.text == unit:
                return l
            if zero in (l.text, r.text):
                return _T("bool", zero)
            word = "and" if x.a[0] == "&&" else "or"
            prec = 3 if word == "and" else 2
            return _T("bool", f"{_wrap(l, prec)} {word} {_wrap(r, prec)}", prec)
        return super().bool(x)

    def tx(self, x: _X) -> _T | None:
        st = self._event_state(x)
        if st is not None:
            return st
        st = self._game_state(x)
        if st is not None:
            return st
        if x.k == "in":
            neg, l, r = x.a
            lt = self.tx(l)
            if lt is not None and lt.sort == "card" and r.k == "call" and r.a[0].k == "name" and \
                    r.a[0].a[0] in _LIST_FUNS and r.a[2] is None:
                items = [self.tx(a.x) for a in r.a[1]]
                if items and all(i is not None and i.sort == "card" and i.text != "card" for i in items):
                    ids = ", ".join(sorted(i.text for i in items))
                    return _T("bool", f"{lt.text} {'not in' if neg else 'in'} {{{ids}}}", _CMP)
            consts = getattr(self, "const_cards", None)
            if lt is not None and lt.sort == "card" and r.k == "name" and r.a[0] not in self.env and consts:
                ids = consts(r.a[0])                # a constant list of card types of the rule's class or companion
                if ids:
                    return _T("bool", f"{lt.text} {'not in' if neg else 'in'} {{{', '.join(sorted(ids))}}}", _CMP)
        return super().tx(x)

    def _game_state(self, x: _X) -> _T | None:
        """``(g.fsm as? FightPhaseIdle)``: the game state of a card's or skill's window, whose players are the window's
        (``front``, ``sender``, ``turn_player``, ``dying``) — read only when asked (``state_casts``: a refusal testing
        more of the state than its window and actor, ``effects_read._beyond_window``)."""
        if not getattr(self, "state_casts", False):
            return None
        while x.k == "paren":
            x = x.a[0]
        n = x.n
        if x.k != "other" or n is None or n.type != "as_expression":
            return None
        m = re.fullmatch(r"\s*(\w+\.)?fsm\s+as\??\s*(\w+)\s*", _t(n))     # as? or as (a cast in the window)
        if m is None or m.group(2) not in PHASE_WINDOWS:
            return None
        return _T("fsmobj", "")

    def _event_state(self, x: _X) -> _T | None:
        """``(event.currentFsm as? FightPhaseIdle)``: the fight state the event happened in (a trigger's guard reads
        who the message is in front of there); any other state, or not an event's, is not read here."""
        while x.k == "paren":
            x = x.a[0]
        n = x.n
        if x.k != "other" or n is None or n.type != "as_expression" or not _t(n).replace(" ", "").count("as?"):
            return None
        kids = n.named_children
        if len(kids) != 2 or not re.fullmatch(r"\w*FightPhaseIdle", _t(kids[1]).strip()):
            return None
        left = _unparen(_ir(kids[0]))
        if left.k != "nav" or left.a[1] != "currentFsm":
            return None
        o = self.tx(left.a[0])
        if o is None or o.sort != "event":
            return None
        return _T("phase", "event_fight")

    def _nav(self, x: _X) -> _T | None:
        obj, m = x.a
        r = _unparen(obj)
        if m == "size" and r.k == "call" and r.a[0].k == "nav" and r.a[0].a[1] == "filter" and r.a[2] is not None \
                and not r.a[1]:                              # messageCards.filter { colour test }.size: a count
            o2 = self.tx(r.a[0].a[0])
            if o2 is not None and o2.sort == "msgs":
                term = colour_pred_term(self.ex, r.a[2])
                if term in ("red_messages", "blue_messages", "black_messages", "true_messages") or \
                        term and term in V.PLAYER_ATTRS:
                    return _T("int", f"{o2.text}{term}")
        o = self.tx(obj) if obj.k in ("name", "nav", "call", "paren") else None
        if o is not None and o.sort == "fsmobj":
            role = {"inFrontOfWhom": "front", "whoseTurn": "turn_player", "sender": "sender", "whoDie": "dying"}.get(m)
            if role is not None and role in self.players:
                return _T("player", role)
            if m == "messageCard":
                return _T("mcard", "")
            if m == "isMessageCardFaceUp" and "message_face_up" in self.words:
                return _T("bool", "message_face_up")
            return None
        if o is not None and o.sort == "event":
            if m in self.fields:
                return _T("self", "self") if self.fields[m] == "self" else _T("player", self.fields[m])
            if m == "messageCard":
                return _T("mcard", "")
            if m == "card":
                return _T("cardval", "event")
            if m in EVENT_WORDS and EVENT_WORDS[m][1] in self.words:
                sort, word = EVENT_WORDS[m]
                return _T(sort, word)
            return None
        if o is not None and o.sort == "namedcard" and m == "colors":
            return _T("colours", o.text)
        if o is not None and o.sort == "mcard":
            if m == "colors":
                return _T("colours", "message")
            if m == "direction":
                return _T("dir", "message_dir")
            if m == "lockable":
                return _T("bool", "message_lockable")
            return None
        if o is not None and o.sort == "colours" and m == "size" and "message_colours" in self.words:
            return _T("int", "message_colours")
        if o is not None and o.sort == "player" and m == "roleName":
            return _T("rolename", o.text + ".")
        return super()._nav(x)

    def _call(self, x: _X) -> _T | None:
        callee, args, lam = x.a
        if callee.k == "name" and lam is None and getattr(self, "_depth", 0) < 3:
            t = self._private_helper(callee.a[0], args)
            if t is not None:
                return t
        if callee.k == "nav" and not args and lam is None:
            o = self.tx(callee.a[0])
            if o is not None and o.sort == "mcard":
                if callee.a[1] == "isBlack":
                    return _T("bool", "black in message", _CMP)
                if callee.a[1] == "isPureBlack":
                    return _T("bool", "message == {black}", _CMP)
            if o is not None and o.sort == "player" and callee.a[1] in ("isEmpty", "isNotEmpty"):
                return None
            if o is not None and o.sort == "namedcard":
                if callee.a[1] == "isBlack":
                    return _T("bool", f"black in {o.text}", _CMP)
                if callee.a[1] == "isPureBlack":
                    return _T("bool", f"{o.text} == {{black}}", _CMP)
        if callee.k == "nav" and callee.a[1] == "getSkillUseCount" and len(args) == 1 and \
                _unparen(args[0].x).k == "name" and _unparen(args[0].x).a[0] == "skillId":
            o = self.tx(callee.a[0])
            if o is not None and o.sort in ("self", "player"):     # the holder's own count (it is its skill)
                return _T("int", "0") if self.never_counted() else _T("usecount", "")
        if callee.k == "nav" and callee.a[1] in ("any", "none") and lam is not None and not args:
            o = self.tx(callee.a[0])
            params, stmts = _lambda_parts(lam)
            var = params[0] if params else "it"
            if o is not None and o.sort == "msgs" and len(stmts) == 1:
                body = _unparen(_ir(stmts[0]))
                if body.k == "in" and not body.a[0] and _unparen(body.a[2]).k == "nav" and \
                        _unparen(body.a[2]).a[1] == "colors" and _unparen(_unparen(body.a[2]).a[0]).k == "name" and \
                        _unparen(_unparen(body.a[2]).a[0]).a[0] == var:
                    c = self.tx(body.a[1])                 # a message of colour c in the area: its count of c
                    if c is not None and c.sort == "colour":
                        cmp = "> 0" if callee.a[1] == "any" else "== 0"
                        if c.text in ("red", "blue", "black"):
                            return _T("bool", f"{o.text}{c.text}_messages {cmp}", _CMP)
                        if re.fullmatch(r"[a-z_]\w*", c.text):
                            return _T("bool", f"if {c.text} == red then {o.text}red_messages {cmp} else if {c.text} "
                                              f"== blue then {o.text}blue_messages {cmp} else "
                                              f"{o.text}black_messages {cmp}", _IF)
                if body.k == "call" and body.a[0].k == "nav" and body.a[0].a[1] == "isBlack" and not body.a[1] and \
                        _unparen(body.a[0].a[0]).k == "name" and _unparen(body.a[0].a[0]).a[0] == var:
                    t = f"{o.text}black_messages > 0" if callee.a[1] == "any" else f"{o.text}black_messages == 0"
                    return _T("bool", t, _CMP)
        if callee.k == "nav" and callee.a[1] in ("any", "none", "count") and lam is not None and not args:
            o = self.tx(callee.a[0])                        # any other test of a message's colours: evaluated
            if o is not None and o.sort == "msgs":
                term = colour_pred_term(self.ex, lam)
                if term and term[:-len("_messages")] in ("red", "blue", "black", "true", "non_black") and \
                        (term in ("red_messages", "blue_messages", "black_messages", "true_messages")
                         or term in V.PLAYER_ATTRS):
                    if callee.a[1] == "count":
                        return _T("int", f"{o.text}{term}")
                    return _T("bool", f"{o.text}{term} {'> 0' if callee.a[1] == 'any' else '== 0'}", _CMP)
        return super()._call(x)

    def _private_helper(self, name: str, args) -> _T | None:
        """A call of the owner's private one-expression function (``isTrueMessage(event.messageCard)``): its
        expression with its parameters bound to the arguments (read as if written in place)."""
        owner = self.owner
        fds = owner.functions(name) if owner is not None and hasattr(owner, "functions") else []
        if len(fds) != 1:
            return None
        fd = fds[0]
        mods = _kid(fd, "modifiers")
        if mods is None or "private" not in _t(mods).split():
            return None
        body = _fn_expr(fd)
        params = _fn_params(fd)
        if body is None or len(params) != len(args) or any(getattr(a, "name", None) for a in args):
            return None
        bound = {}
        for (pname, _typ, _targs), a in zip(params, args):
            t = self.tx(a.x)
            if t is None:
                return None
            bound[pname] = t
        saved = {k: self.env[k] for k in bound if k in self.env}
        self.env.update(bound)
        self._depth = getattr(self, "_depth", 0) + 1
        try:
            return self.tx(_ir(body))
        finally:
            self._depth -= 1
            for k in bound:
                if k in saved:
                    self.env[k] = saved[k]
                else:
                    self.env.pop(k, None)

    def _message_in_area(self, x: _X):
        """``P.findMessageCard(event.messageCard.id)`` (null when the event's message has left P's area), P the
        event's receiver — its role, or the asked player when the trigger is the receiver's (``holder_role``): the
        word ``message_in_area``; None otherwise."""
        if "message_in_area" not in self.words or x.k != "call" or x.a[0].k != "nav" or \
                x.a[0].a[1] != "findMessageCard" or len(x.a[1]) != 1 or x.a[2] is not None:
            return None
        arg = _unparen(x.a[1][0].x)
        if arg.k != "nav" or arg.a[1] != "id" or _unparen(arg.a[0]).k != "nav" or \
                _unparen(arg.a[0]).a[1] != "messageCard":
            return None
        ev = self.tx(_unparen(arg.a[0]).a[0])
        who = self.tx(x.a[0].a[0])
        if ev is None or ev.sort != "event" or who is None:
            return None
        if who.sort == "player" and who.text == "receiver" or \
                who.sort == "self" and getattr(self, "holder_role", None) == "receiver":
            return True
        return None

    def _bin(self, x: _X) -> _T | None:
        op, l, r = x.a
        if op in ("==", "!=", "===", "!=="):
            neg = op in ("!=", "!==")
            ls, rs = _unparen(l), _unparen(r)
            if rs.k == "null" or ls.k == "null":
                other = ls if rs.k == "null" else rs
                ot = self.tx(other) if other.k == "name" else None
                if ot is not None and ot.sort == "event":          # the event read is there (its guard says so)
                    return _T("bool", "true" if neg else "false")
                if other.k == "call" and other.a[0].k == "nav" and other.a[0].a[1] == "findSkill" and \
                        len(other.a[1]) == 1 and _unparen(other.a[1][0].x).k == "name" and \
                        _unparen(other.a[1][0].x).a[0] == "skillId":
                    who = self.tx(other.a[0].a[0])             # X holds this skill: X is the holder
                    if who is not None and who.sort == "self":
                        return _T("bool", "true" if neg else "false")
                    if who is not None and who.sort == "player":
                        return _T("bool", f"{who.text} {'==' if neg else '!='} self", _CMP)
                t = self.tx(other)
                if t is not None and t.sort == "cardval" and t.text == "event" and "real_card" in self.words:
                    return _T("bool", "not real_card", _NOT) if not neg else _T("bool", "real_card")
                area = self._message_in_area(other)
                if area is not None:
                    return _T("bool", "message_in_area") if neg else _T("bool", "not message_in_area", _NOT)
                if t is not None and t.sort == "player" and t.text == "target" and "has_target" in self.words:
                    return _T("bool", "not has_target", _NOT) if not neg else _T("bool", "has_target")
                return None
            lt, rt = self.tx(l), self.tx(r)
            if lt is not None and rt is not None and {lt.sort, rt.sort} <= {"self", "player"} and \
                    "player" in (lt.sort, rt.sort):
                a = lt.text if lt.sort == "player" else "self"
                b = rt.text if rt.sort == "player" else "self"
                if a == b:
                    return _T("bool", "false" if neg else "true")
                a, b = sorted((a, b), key=lambda s: (s == "self", s))
                return _T("bool", f"{a} {'!=' if neg else '=='} {b}", _CMP)
            if lt is not None and rt is not None and lt.sort == rt.sort == "card":
                a, b = sorted((lt.text, rt.text), key=lambda s: (s != "card", s))
                return _T("bool", f"{a} {'!=' if neg else '=='} {b}", _CMP)
        return super()._bin(x)


def conj(parts) -> str:
    """The conjunction of condition texts (``true`` when there are none), each wrapped as needed."""
    ps = [p for p in parts if p and p != "true"]
    if not ps:
        return "true"
    if any(p == "false" for p in ps):
        return "false"
    out = []
    for p in ps:
        out.append(p if _atomic(p) else f"({p})")
    return " and ".join(dict.fromkeys(out))


def negate(text: str) -> str:
    parts = _split_and(text)
    if len(parts) > 1 and all(_atomic(p) for p in parts):                # De Morgan: not (a and b) = not a or not b
        return "(" + " or ".join(negate(p) for p in parts) + ")"
    ors = _split_or(text)
    if len(ors) > 1 and all(_atomic(p) for p in ors):                  # not (a or b) = not a and not b
        return " and ".join(negate(p) for p in ors)
    if text == "true":
        return "false"
    if text == "false":
        return "true"
    if text.startswith("not ") and _atomic(text[4:]):
        inner = text[4:]
        return inner[1:-1] if inner.startswith("(") and inner.endswith(")") and _balanced(inner[1:-1]) and \
            _atomic(inner[1:-1]) else inner
    for a, b in ((" != ", " == "), (" == ", " != "), (" >= ", " < "), (" <= ", " > "), (" > ", " <= "),
                 (" < ", " >= ")):
        if a in text and _atomic(text) and text.count(a) == 1 and " and " not in text and " or " not in text \
                and " in " not in text:
            return text.replace(a, b)
    return f"not {text}" if _atomic(text) else f"not ({text})"


def _atomic(text: str) -> bool:
    """Whether a condition text needs no parentheses next to ``and`` / ``not``: no top-level ``and`` / ``or`` /
    ``if``."""
    depth = 0
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in "({":
            depth += 1
        elif ch in ")}":
            depth -= 1
        elif depth == 0:
            for w in (" and ", " or ", "if "):
                if text.startswith(w, i) and (w != "if " or i == 0):
                    return False
        i += 1
    return True


__all__ = ["CondTranslator", "conj", "negate", "split_top_level", "_ATOM", "_wrap"]


def split_top_level(text: str, sep: str, opens: str = "({", closes: str = ")}") -> list:
    """``text`` cut at each ``sep`` outside brackets (a lambda's or a call's own ``sep`` stays in its part); the
    parts stripped, empty ones dropped. One walker for the conjuncts and disjuncts of a condition text here and for
    the ``&&`` of a Kotlin condition the gate words (checks/diff_clauses.py)."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(text):
        ch = text[i]
        if ch in opens:
            depth += 1
        elif ch in closes:
            depth -= 1
        elif depth == 0 and text.startswith(sep, i):
            parts.append(text[start:i])
            i += len(sep)
            start = i
            continue
        i += 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def _split_or(text: str) -> list:
    """The top-level disjuncts of a condition text (one part, the text itself, when it has a top-level ``and``)."""
    if len(split_top_level(text, " and ")) > 1:
        return [text]
    return split_top_level(text, " or ")


def _split_and(text: str) -> list:
    """The top-level conjuncts of a condition text."""
    return split_top_level(text, " and ")


_COUNT = re.compile(r"\b((?:\w+\.)?(?:hand_count|\w+_messages|message_colours))\s*(!=|>=|<)\s*([01])\b")


def normalise(text: str) -> str:
    """One spelling for conditions that say the same: a count (never negative) ``!= 0`` is ``> 0``, ``>= 1`` is
    ``> 0``, ``< 1`` is ``== 0``; and in a conjunction holding ``R == self`` (the holder is the event's role R), R's
    attributes are the holder's (``target == self and target.face_up`` → ``target == self and face_up``)."""
    def count(m):
        v, op, n = m.group(1), m.group(2), m.group(3)
        if (op, n) in (("!=", "0"), (">=", "1")):
            return f"{v} > 0"
        if (op, n) == ("<", "1"):
            return f"{v} == 0"
        return m.group(0)
    text = _COUNT.sub(count, text)
    text = text.strip()
    while text.startswith("(") and text.endswith(")") and _balanced(text[1:-1]):    # (a or b) is a or b
        text = text[1:-1].strip()
    text = re.sub(r"\bnot ((?:\w+\.)?)hand_empty\b", r"\1hand_count > 0", text)
    text = re.sub(r"\bnot (\w+) in (\w+)\b(?! or| and)", r"not (\1 in \2)", text)
    text = re.sub(r"(?<![\w.])((?:\w+\.)?)hand_empty\b", r"\1hand_count == 0", text)

    def card_in(m):
        ids = sorted(set(re.findall(r"card == (\w+)", m.group(0))))
        return "card in {" + ", ".join(ids) + "}"
    text = re.sub(r"\((card == \w+(?: or card == \w+)+)\)", card_in, text)
    text = re.sub(r"^(card == \w+(?: or card == \w+)+)$", card_in, text)
    flat = []
    for p in _split_and(text):                          # a conjunction in parentheses is its conjuncts
        inner = p[1:-1] if p.startswith("(") and p.endswith(")") and _balanced(p[1:-1]) else None
        flat += _split_and(inner) if inner is not None and len(_split_and(inner)) > 1 else [p]
    flat = [_order_operands(p) for p in flat]
    parts = sorted(dict.fromkeys(flat), key=_conj_order)    # `and` commutes: one order
    text = " and ".join(parts) if len(parts) > 1 else text
    roles = [m.group(1) for p in parts for m in [re.fullmatch(r"(\w+) == self", p)] if m]
    if roles:
        out = []
        for p in parts:
            if re.fullmatch(r"\w+ == self", p):
                out.append(p)
                continue
            for r in roles:
                p = re.sub(r"(?<![\w.])" + re.escape(r) + r"\.(\w+)", r"\1", p)
            out.append(p)
        text = " and ".join(out)
    return text


def _balanced(t: str) -> bool:
    depth = 0
    for ch in t:
        depth += ch in "({"
        depth -= ch in ")}"
        if depth < 0:
            return False
    return depth == 0


def _order_operands(p: str) -> str:
    """``a == b`` / ``a != b`` of two players with the operands in one order (``self`` always on the right); the
    cards of a set sorted."""
    m = re.fullmatch(r"(\w+) (==|!=) (\w+)", p)
    if m and "self" not in (m.group(1), m.group(3)) and m.group(1) > m.group(3) and \
            not m.group(3)[:1].isupper() and not m.group(3).isdigit():
        return f"{m.group(3)} {m.group(2)} {m.group(1)}"
    if m and m.group(1) == "self":
        return f"{m.group(3)} {m.group(2)} self"
    p = re.sub(r"(?<![\w.])self (==|!=) ([a-z_]\w*)(?![\w.(])", r"\2 \1 self", p)     # inside a disjunction too
    return re.sub(r"\{([^{}]*)\}", lambda mm: "{" + ", ".join(sorted(x.strip() for x in mm.group(1).split(","))) + "}", p)


def _conj_order(p: str):
    """The order conjuncts are written in: who the holder is first, then by text."""
    return (not re.fullmatch(r"\(?\w+ (==|!=) self.*", p), p)
