"""What the protocol handlers refuse, and which of must-receive and cannot-receive wins, read from the handlers.

A player's choice reaches the server as a protocol message, and the handler that takes it — a skill's
``executeProtocol``, the ``resolveProtocol`` of a state a skill or card waits in (密令's target sending, 咱们工人有知识's
targets), a lobby-free handler's ``handle0`` (choosing whether to receive) — refuses what the rules forbid with a
*guard*: ``if (cond) { log; sendErrorMessage(…); return }`` (or ``return null``). What it checks is a rule: the send
check a skill calls with the cards and locks it allows (``canSendCard(r, card, availableCards, dir, target, locks)``),
how many players may be named (``targetPlayerIdCount > maxCount``), a skill id tested.

* ``refuse.<Class>.<function>`` — every such guard of a handler, as ``refuse if <condition>``, the condition as the
  code writes it (``wins._code_text``) with the handler's own local values written out (but a value holding a lambda) (``val maxCount =
  r.messageCards.count(Black)`` → ``… > (r.messageCards.count(Black))``; a local declared twice is left as its name),
  sorted (the order of independent refusals decides nothing). Read from that one function (``EngineRule.one``);
  a handler whose every statement the effect reader already reads (``reads``) is left to it. The rule is about the
  skill or card whose class holds the handler (``EngineRule.about``), or the card whose use request the handler
  takes (``Use<CardClass>Tos``): its change names that rule.
* ``must_beats_cannot`` (the ``[rules]`` key) — read from the receive handler's guards by what they decide, not by their
  spelling: with the player both bound to receive (every must-receive test true: ``mustReceiveMessage()``, the
  sender, a locked player) and barred (every cannot-receive test true: ``cannotReceiveMessage()``, 信鸽联络's grant),
  is receiving refused and is declining refused? Must wins when only declining is refused, cannot when only receiving
  is; anything else is not read. The local the handler keeps (``val mustReceive = …``) is written out first, so
  ``mustReceive = must && !cannot`` is read as the change it is.
"""
from __future__ import annotations

import re

from .engine import EngineRule, _Cond, _compile
from .syntax import _code, _descendants, _ir, _kid, _name_of, _stmts, _t, _unparen
from .unread import is_rule_file
from .wins import _code_text

#: the handlers of a player's protocol message
HANDLERS = frozenset({"executeProtocol", "resolveProtocol", "handle0"})
#: statements of a refusal block besides its return: logging and messages to the client
_TALK = re.compile(r"(?:logger|log|LOG)\s*\.\s*\w+\s*\(|[\w.?!]*sendErrorMessage\s*\(|[\w.?!]*\.send\s*[({]|println\(")
_RETURN = re.compile(r"return(?:@\w+)?(?:\s+(?:null|false|Unit))?\s*\Z")
#: ``return r.sendErrorMessage("…")`` in a handler returning nothing: the message sent, then the return — one refusal
_RETURN_TALK = re.compile(r"return(?:@\w+)?\s+[\w.?!]*sendErrorMessage\s*\(.*\)\s*\Z", re.S)


def _is_refusal(branch) -> bool:
    """Whether a branch of an ``if`` only talks to the client and returns nothing (``return``, ``return null``)."""
    stmts = _stmts(branch) if branch.type in ("block", "control_structure_body") else [branch]
    stmts = [s for s in stmts if s.type not in ("line_comment", "block_comment", "multiline_comment")]
    if not stmts:
        return False
    *talk, last = stmts
    if last.type not in ("jump_expression", "return_expression") or not (
            _RETURN.match(" ".join(_t(last).split())) or _RETURN_TALK.match(" ".join(_t(last).split()))):
        return False
    return all(_TALK.match(" ".join(_t(s).split())) for s in talk)


def _locals(fd) -> dict:
    """name -> its value's node, for the locals a function declares once with a value (``val x = …``)."""
    seen: dict = {}
    for pd in _descendants(fd, "property_declaration"):
        vd = _kid(pd, "variable_declaration")
        if vd is None:
            continue
        name = _t(vd).split(":")[0].strip()
        if not re.fullmatch(r"\w+", name):
            continue
        vals = [c for c in _code(pd) if c.type not in ("modifiers", "variable_declaration")]
        fixed = re.match(r"\s*(?:\w+\s+)*?val\s+" + re.escape(name) + r"\b", _t(pd))
        seen[name] = None if (name in seen or not vals or not fixed) else vals[-1]
    return {k: v for k, v in seen.items() if v is not None}


def _expanded(text: str, values: dict, rounds: int = 3) -> str:
    """``text`` with each local of ``values`` (name -> code text) written out, ``rounds`` deep."""
    for _ in range(rounds):
        new = text
        for name, v in values.items():
            new = re.sub(r"(?<![\w.])" + re.escape(name) + r"\b(?!\s*[(=])", lambda _m, v=v: f"({v})", new)
        if new == text:
            break
        text = new
    return text


class RefusalRules:
    """Mixed into the engine probes (needs ``_functions``, ``is_skill``, ``is_card``, ``cards``)."""

    def _p_refusals(self) -> list:
        out = []
        reads = self._rule_reads()
        card_of = {id(c["cls"]): cid for cid, c in (getattr(self, "cards", None) or {}).items() if c.get("cls")}
        card_named = {getattr(c["cls"], "name", None): cid for cid, c in (getattr(self, "cards", None) or {}).items()
                      if c.get("cls")}
        for src, fd, name, owner in self._functions():
            if name not in HANDLERS or owner is None or not is_rule_file(src.rel):
                continue
            path, top, x = [], None, owner
            while x is not None:
                path.append(x.name)
                top = x
                x = x.outer
            clspath = ".".join(reversed(path))
            if reads.get((src.rel, clspath, name)) is True:
                continue                                # read whole by the effect reader
            about = ()
            if self.is_card(top) or id(top) in card_of:
                about = (card_of.get(id(top)),) if card_of.get(id(top)) else ()
            elif self.is_skill(top):
                about = (top.name,)
            else:                                       # the handler of a card's use request: Use<CardClass>Tos
                m = re.fullmatch(r"Use(\w+)Tos", top.name)
                if m and card_named.get(m.group(1)):
                    about = (card_named[m.group(1)],)
            # a value holding a lambda or a block (a list read with its own guards) is left as its name: its guards
            # are refusals of their own
            values = {k: t for k, t in ((k, _code_text(v)) for k, v in _locals(fd).items()) if "{" not in t}
            clauses = set()
            for n in _descendants(fd, "if_expression"):
                cond = n.child_by_field_name("condition")
                branches = [b for b in _code(n) if b != cond]
                if cond is None or not branches or not _is_refusal(branches[0]):
                    continue
                clauses.add("refuse if " + _expanded(_code_text(cond), values))
            if clauses:
                out.append(EngineRule(f"refuse.{clspath}.{name}", tuple(sorted(clauses)), src.at(fd),
                                      f"{clspath}.{name}: when the player's choice is refused", False, one=True,
                                      about=tuple(a for a in about if a)))
        return out

    def _rule_reads(self) -> dict:
        """(file, class path, member) -> whether the effect reader read it whole, for every rule and card so far."""
        out: dict = {}
        items = [*(getattr(self, "cards", None) or {}).values(), *(getattr(self, "entries", None) or {}).values()]
        for item in items:
            for k, v in (item.get("reads") or {}).items():
                out[k] = out.get(k, True) and v
        return out

    # ------------------------------------------------------------------------------ must / cannot precedence
    def _must_beats_cannot(self) -> EngineRule:
        got = self._receive_precedence()
        if got is not None:
            return got
        return super()._must_beats_cannot()

    def _receive_precedence(self):
        """``must_beats_cannot`` from the receive handler's guards (see the module's docstring); None when no handler
        with a guard over both tests is found (the older probe reads it then)."""
        for src, fd, name, owner in self._functions():
            text = _t(fd)
            if name in ("ai", "auto") or not (re.search(r"\bmust\w*", text) and re.search(r"\bcannot\w*|findSkill", text)):
                continue
            if not src.rel.startswith("handler/") and name not in HANDLERS:
                continue
            values = _locals(fd)
            body = _kid(fd, "function_body")
            if body is None:
                continue
            atoms_seen = set()

            def atom(x, depth=0):
                x = _unparen(x)
                if x.k == "un" or (x.k == "bin" and x.a[0] in ("&&", "||")) or x.k == "lit":
                    return None
                t = " ".join(_t(x.n).split()) if x.n is not None else ""
                if x.k == "name" and x.a[0] in values and depth < 3:
                    f = _compile(_ir(values[x.a[0]]), lambda y: atom(y, depth + 1))
                    return f
                if x.k == "nav" and x.a[1] == "receive":
                    atoms_seen.add("R")
                    return "R"
                if re.search(r"cannotReceive|findSkill|cannotReceivePlayers", t):
                    atoms_seen.add("C")
                    return "C"
                if re.search(r"mustReceive|lockedPlayers|\bsender\b", t):
                    atoms_seen.add("M")
                    return "M"
                return None

            refusals = []
            ok = self._guards(body, atom, [], refusals)
            if not ok or not refusals or not {"M", "C", "R"} <= atoms_seen:
                continue

            def refused(env, refusals=refusals):
                return any(all(c(env) for c in conds) for conds in refusals)

            take = refused({"M": True, "C": True, "R": True})
            leave = refused({"M": True, "C": True, "R": False})
            where = src.at(fd)
            if leave and not take:
                return EngineRule("must_beats_cannot", True, where, f"{_name_of(fd)}: a player who must and cannot "
                                  "receive may only receive", True)
            if take and not leave:
                return EngineRule("must_beats_cannot", False, where, f"{_name_of(fd)}: a player who must and cannot "
                                  "receive may only let it pass", True)
            return EngineRule("must_beats_cannot", None, where, f"{_name_of(fd)}: a player who must and cannot "
                              f"receive may {'do neither' if take else 'do either'}", True)
        return None

    def _guards(self, block, atom, path, refusals) -> bool:
        """Collect the refusals of ``block`` under ``path`` (a list of compiled conditions): a guard's path and its
        condition, a branch's condition on each side. False when a guard or branch over the receive tests is not read."""
        if block.type == "function_body":
            kids = _code(block)
            block = kids[0] if len(kids) == 1 else block
        for s in _stmts(block) if block.type in ("block", "control_structure_body") else [block]:
            if s.type != "if_expression":
                continue
            cond = s.child_by_field_name("condition")
            branches = [b for b in _code(s) if b != cond]
            if cond is None or not branches:
                continue
            f = _compile(_ir(cond), atom)
            mentions = re.search(r"must|cannot|findSkill|receive", _t(cond), re.I)
            if f is None:
                if mentions:
                    return False
                if _is_refusal(branches[0]):
                    continue                        # a refusal on something else (the time, the seq)
                continue
            if _is_refusal(branches[0]):
                refusals.append(path + [f])
                continue
            neg = _Cond(lambda env, f=f: not f(env), f.atoms)
            if not self._guards(branches[0], atom, path + [f], refusals):
                return False
            if len(branches) > 1 and not self._guards(branches[1], atom, path + [neg], refusals):
                return False
        return True
