"""Engine timing read from the engine's own code, as named engine rules: in what order a state of the game flow does its
steps, and from whom each asking round starts and which way it goes on.

* ``process.<Class>`` — the steps of a process state's ``resolve`` in the order it takes them (the server's
  ProcessFsm.resolve: the trigger dispatch, the win check, the last-camp check, the dying players, the state's own
  step): the names of the functions it calls, in the order they stand, helpers of the language (``let``, ``forEach``
  …), logging and client messages left out;
* ``trigger.from.<Class>.<function>`` and ``order.from.<Class>.<function>`` — where a round over the players starts:
  the seat argument of each call of the trigger dispatch (``dealListeningSkill(whoseTurn.location)``: whose triggered
  skills are asked first) and of ``sortedFrom(players, seat)`` (the order the dying players are asked in) in the
  engine's code;
* ``order.step.<Class>.<function>`` — which way a round goes on: a seat stepped round the table (``x = (x + 1) %
  players.size``), written with the seat as ``x`` (so ``+1`` is clockwise, ``+players.size-1`` the other way).

Each reads one part of its construct (no engine rule vouches for the rest of its function: unread.unread). Only the engine's
classes are read (not skills, cards, robots or handlers): a skill's order is its own rule's.
"""
from __future__ import annotations

import re

from .engine import EngineRule
from .syntax import _code, _descendants, _ir, _kid, _t
from .unread import is_rule_file
from .wins import _code_text

#: calls that are no step of a process: the language's helpers, logging, client messages
_NOT_STEPS = frozenset({"let", "also", "run", "apply", "forEach", "filter", "filterNotNull", "map", "any", "all",
                        "none", "count", "find", "first", "firstOrNull", "last", "lastOrNull", "toList",
                        "toMutableList", "send", "info", "debug", "warn", "error", "post", "ResolveResult",
                        "isEmpty", "isNotEmpty", "contains", "require", "check", "println", "listOf", "arrayListOf",
                        "mutableListOf", "LinkedList", "sortedFrom"})
_STARTS = {"dealListeningSkill": 0, "sortedFrom": 1}


class OrderRules:
    """Mixed into the engine probes (needs ``_functions`` and ``is_skill`` / ``is_card``)."""

    def _engine_fns(self):
        """(src, function node, name, owner) of the engine's own functions: in a file holding rules
        (``unread.is_rule_file``) but not in a skill, a card, a robot or a handler, not a robot helper."""
        for src, fd, name, owner in self._functions():
            if not is_rule_file(src.rel) or src.rel.startswith(("skill/", "card/", "handler/")) or \
                    name.startswith(("ai", "auto")):
                continue
            if owner is not None and (self.is_skill(owner) or self.is_card(owner) or "Robot" in owner.name):
                continue
            yield src, fd, name, owner

    def _p_orders(self) -> list:
        out = []
        for src, fd, name, owner in self._engine_fns():
            where_name = f"{owner.name if owner is not None else src.rel.rsplit('/', 1)[-1][:-3]}.{name}"
            data = src.data[fd.start_byte:fd.end_byte]
            if any(f.encode() in data for f in _STARTS):
                for call in _descendants(fd, "call_expression"):
                    x = _ir(call)
                    callee = x.a[0] if x.k == "call" else None
                    fn = callee.a[1] if callee is not None and callee.k == "nav" else \
                        callee.a[0] if callee is not None and callee.k == "name" else None
                    if fn in _STARTS and len(x.a[1]) > _STARTS[fn] and fn != name:
                        arg = _code_text(x.a[1][_STARTS[fn]].node)
                        kind = "trigger" if fn == "dealListeningSkill" else "order"      # (the trigger dispatch's)
                        out.append(EngineRule(f"{kind}.from.{where_name}", f"{fn}: {arg}", src.at(call),
                                              f"{where_name} starts {fn} from {arg}", False))
            if b"%" in data:
                for asg in _descendants(fd, "assignment"):
                    left = asg.child_by_field_name("left")
                    right = asg.child_by_field_name("right")
                    var = _t(left).strip() if left is not None else ""
                    text = _code_text(right) if right is not None else ""
                    m = re.fullmatch(r"\(\s*" + re.escape(var) + r"\s*([+-].*)\)\s*%\s*(.+)", text) if var else None
                    if m and re.search(r"\bsize\b", m.group(2)):
                        step = re.sub(r"\b" + re.escape(var) + r"\b", "x", m.group(1)).replace(" ", "")
                        out.append(EngineRule(f"order.step.{where_name}", step, src.at(asg),
                                              f"{where_name} steps a seat round the table by {step}", False))
                        rnd = self._round(fd, var)
                        if rnd is not None:
                            kind = "trigger" if name in ("dealListeningSkill",) else "order"
                            out.append(EngineRule(f"{kind}.round.{where_name}", rnd, src.at(asg),
                                                  f"{where_name}: the seat its round starts from and where it stops",
                                                  False, one=True))
        out += self._process_steps()
        out += self._flows()
        seen, uniq = set(), []
        for r in out:                                  # two sites of one rule in one function: the first stands
            if r.name not in seen:
                seen.add(r.name)
                uniq.append(r)
        return uniq

    @staticmethod
    def _round(fd, var: str):
        """The round a seat ``var`` steps in: ``from <its first value> until <the loop's test>`` with the seat written
        ``x`` (``var i = beginLocation % players.size … while (i != beginLocation % players.size)``); None when the
        function declares no such seat or no loop tests it."""
        init = None
        for pd in _descendants(fd, "property_declaration"):
            vd = _kid(pd, "variable_declaration")
            if vd is not None and _t(vd).strip().split(":")[0].strip() == var:
                vals = [c for c in _code(pd) if c.type not in ("modifiers", "variable_declaration")]
                init = _code_text(vals[-1]) if vals else None
        if init is None:
            return None
        for loop in [*_descendants(fd, "do_while_statement"), *_descendants(fd, "while_statement")]:
            kids = _code(loop)
            cond = kids[-1] if loop.type == "do_while_statement" else (kids[0] if kids else None)
            if cond is not None and re.search(r"\b" + re.escape(var) + r"\b", _t(cond)):
                test = re.sub(r"\b" + re.escape(var) + r"\b", "x", _code_text(cond))
                return f"from {init} until !({test})"
        return None

    def _flows(self) -> list:
        """``flow.<Class>.<function>``: the states a state's engine function goes on to — each state of the game built there
        (a class whose supertypes include ``Fsm``: ``WaitForChengQing(whoseTurn, whoDie, whoDie, …)``), and each call
        of a continuation its class was handed (a constructor parameter of function type: ``resolveFunc(valid)``),
        and each card it moves (a call on the deck — ``deck.discard(card)``, ``deck.addFirst(card)`` — or a
        ``draw``), with their arguments as the code writes them, in order; then the marks it sets (a literal stored
        into a member: ``whoDie.dieJustNow = true``). Whom the next state asks, from whom it starts, what
        it is handed: the engine's timing. Read from that one function: a local renamed in it is no change."""
        states = {c.name for c in self.classes if "Fsm" in self.ancestors(c) or c.name in ("Fsm", "ProcessFsm",
                                                                                              "WaitingFsm")}
        out = []
        for src, fd, name, owner in self._engine_fns():
            if owner is None or name in ("toString", "hashCode", "equals") or owner.name not in states:
                continue                    # (a state's own steps: the game's set-up is read by setup.*)
            setup = re.search(r"\bdeck\s*\.\s*init\s*\(", _t(fd)) is not None     # its hand: setup.hand
            conts = set()
            for p in _descendants(owner.node, "class_parameter"):
                ptxt = _t(p)
                m = re.match(r"\s*(?:(?:private|override|public|internal)\s+)*(?:val|var)?\s*(\w+)\s*:\s*\(.*\)\s*->",
                             ptxt, re.S)
                if m:
                    conts.add(m.group(1))
            body = _kid(fd, "function_body")
            if body is None:
                continue
            steps = []
            marks = []
            for asg in _descendants(body, "assignment"):          # a mark set on a player or a state: `p.alive = false`
                left, right = asg.child_by_field_name("left"), asg.child_by_field_name("right")
                if left is not None and right is not None and left.type == "navigation_expression" and \
                        (right.type in ("boolean_literal", "number_literal", "integer_literal", "null_literal", "null")
                         or right.type == "identifier" and _t(right).strip() in ("true", "false", "null")):
                    marks.append((asg.start_byte, f"{_code_text(left)} = {_t(right).strip()}"))
            for call in _descendants(body, "call_expression"):
                kids = _code(call)
                head = kids[0] if kids else None
                if head is not None and head.type == "navigation_expression":
                    parts = _code_text(head).split(".")
                    if len(parts) >= 2 and not (setup and parts[-1] in ("draw", "init")) and \
                            (parts[-2].split("?")[0] == "deck" or parts[-1] == "draw"):
                        va = _kid(call, "value_arguments")        # a card moved: where to, how many
                        steps.append(f"{'deck.' if parts[-2].split('?')[0] == 'deck' else ''}{parts[-1]}"
                                     f"{_code_text(va) if va is not None else '()'}")
                    continue
                if head is None or head.type != "identifier":
                    continue
                fn = _t(head).strip()
                if fn not in states and fn not in conts:
                    continue
                va = _kid(call, "value_arguments")
                args = _code_text(va) if va is not None else "()"
                steps.append(f"{fn}{args}")
            if marks:
                steps = steps + [m for _b, m in sorted(marks)]
            if steps:
                where_name = f"{owner.name}.{name}"
                out.append(EngineRule(f"flow.{where_name}", tuple(steps), src.at(fd), f"{where_name}: the states it "
                                      "goes on to, with what they are handed", False, one=True))
        return out

    def _process_steps(self) -> list:
        """``process.<Class>``: the steps the ``resolve`` of a state that runs the trigger dispatch takes, in order."""
        out = []
        for src, fd, name, owner in self._engine_fns():
            if name != "resolve" or owner is None or b"dealListeningSkill" not in src.data[fd.start_byte:fd.end_byte]:
                continue
            body = _kid(fd, "function_body")
            steps = []
            for call in _descendants(body, "call_expression") if body is not None else ():
                kids = _code(call)
                head = kids[0] if kids else None
                fn = _t(head).rsplit(".", 1)[-1].strip() if head is not None and head.type in (
                    "identifier", "navigation_expression") else ""
                fn = re.sub(r"\W", "", fn)
                if fn and fn not in _NOT_STEPS and not fn.startswith(("log", "notify", "ai")) and \
                        (not steps or steps[-1] != fn):
                    steps.append(fn)
            out.append(EngineRule(f"process.{owner.name}", tuple(steps), src.at(fd),
                                  f"{owner.name}.resolve: its steps in order", False))
        return out
