"""The face a message travels with on its way, read from the engine's game states as a named engine rule.

* ``send_face`` — every hand-over between the states a message passes through in the engine's code (a game state
  whose constructor takes a Boolean face-up flag: the server's ``isMessageCardFaceUp`` of OnSendCard, OnSendCardSkill,
  SendPhaseIdle …): the flag each such state is built with, as a clause ``face := <value> if <Class>.<function> goes
  on to <State>`` — ``false`` (face down whatever was asked), ``true``, or the flag the building state was itself
  handed (the message keeps the face it was sent with). A parameter left out is its constructor default; a
  ``copy(…)`` keeps the flag. Only the engine's own functions are read (a card or skill asking for a face-up send —
  欲擒故纵 — is its own rule): what they hand on decides whether such a send stays face up.

The value is the sorted clauses, compared as values: a rewrite handing on the same flags is no change.

* ``send.<Class>.<function>`` — a send a skill or a card makes itself (冷血训练, 诱敌深入, 密令, 欲擒故纵 …: a state of a
  message's way built in its code): each such state with the arguments it is built with, by the state's parameter
  names (``dir = card.direction``, ``lockedPlayers = listOf(lockPlayer)``, ``isMessageCardFaceUp = true``), as the code
  writes them. The direction it goes in, whom it locks, its face: the send's rule, named with the skill or card (its
  ``about``). Read from that one function (``EngineRule.one``): a function whose normal form did not change states
  the same send; robot functions (``ai…``, ``auto…``) are not read.
"""
from __future__ import annotations

import re

from .engine import EngineRule
from .syntax import _code, _descendants, _kid, _t
from .wins import _code_text

#: a constructor parameter that is the message's face-up flag
_FACE = re.compile(r"face_?up", re.I)


class SendPath:
    """Mixed into the engine probes (needs ``classes``, ``ancestors`` and ``orders.OrderRules._engine_fns``)."""

    def _face_states(self) -> dict:
        """State class name -> (index, name, default text) of its Boolean face-up constructor parameter."""
        out = {}
        for c in self.classes:
            if "Fsm" not in self.ancestors(c) or not c.params:
                continue
            for i, p in enumerate(c.params):
                if p.tname == "Boolean" and _FACE.search(p.name):
                    out[c.name] = (i, p.name, _t(p.default).strip() if p.default is not None else None)
                    break
        return out

    def _p_send_path(self) -> list:
        if not hasattr(self, "_engine_fns"):
            return []
        faces = self._face_states()
        if not faces:
            return [EngineRule("send_face", None, "", "no game state takes a message's face-up flag", False, True)]
        clauses, where = set(), ""
        for src, fd, name, owner in self._engine_fns():
            if owner is None:
                continue
            own_face = faces.get(owner.name, (None, None, None))[1]
            for call in _descendants(fd, "call_expression"):
                kids = _code(call)
                head = kids[0] if kids else None
                if head is None or head.type not in ("identifier", "simple_identifier") or _t(head) not in faces:
                    continue
                state = _t(head)
                idx, pname, default = faces[state]
                va = _kid(call, "value_arguments")
                args = [a for a in va.named_children if a.type == "value_argument"] if va is not None else []
                value = None
                for a in args:                                    # a named argument first
                    m = re.match(r"\s*(\w+)\s*=(?!=)\s*(.*)\Z", _t(a), re.S)
                    if m and m.group(1) == pname:
                        value = m.group(2)
                if value is None and len(args) > idx and not re.match(r"\s*\w+\s*=(?!=)", _t(args[idx])):
                    value = _t(args[idx])
                if value is None:
                    value = default
                if value is None:
                    continue
                value = " ".join(value.split())
                if own_face and re.fullmatch(r"(?:this\.)?" + re.escape(own_face), value):
                    value = "as handed"                          # the building state's own flag passed on
                elif re.fullmatch(r"(?:[\w!?]+\.)*" + re.escape(pname), value.replace("!!", "")):
                    value = "as handed"
                clauses.add(f"face := {value} if {owner.name}.{name} goes on to {state}")
                where = where or src.at(call)
        if not clauses:
            return [EngineRule("send_face", None, "", "no state of a message's way is built in the engine", False, True)]
        return [EngineRule("send_face", tuple(sorted(clauses)), where, "the face each state of a message's way is "
                           "handed (face down, face up, or as it was sent)", False)]

    def _p_skill_sends(self) -> list:
        faces = self._face_states()
        if not faces:
            return []
        params = {c.name: [p.name for p in c.params] for c in self.classes if c.name in faces}
        card_ids = {card["cls"].name: cid for cid, card in (getattr(self, "cards", None) or {}).items()
                    if card.get("cls") is not None}
        out = []
        for src, fd, name, owner in self._functions():
            if owner is None or name.startswith(("ai", "auto")) or not src.rel.startswith(("skill/", "card/")):
                continue
            top = owner
            while top.outer is not None:
                top = top.outer
            if "Robot" in owner.name or not (self.is_skill(top) or self.is_card(top)):
                continue
            data = src.data[fd.start_byte:fd.end_byte]
            if not any(f.encode() + b"(" in data for f in faces):
                continue
            steps = []
            for call in _descendants(fd, "call_expression"):
                kids = _code(call)
                head = kids[0] if kids else None
                if head is None or head.type not in ("identifier", "simple_identifier") or _t(head) not in faces:
                    continue
                state = _t(head)
                names = params.get(state, [])
                va = _kid(call, "value_arguments")
                args = [a for a in va.named_children if a.type == "value_argument"] if va is not None else []
                parts = []
                for i, a in enumerate(args):
                    m = re.match(r"\s*(\w+)\s*=(?!=)\s*(.*)\Z", _t(a), re.S)
                    if m:
                        parts.append((m.group(1), " ".join(m.group(2).split())))
                    elif i < len(names):
                        parts.append((names[i], _code_text(a)))
                parts = [(k, v) for k, v in parts if not k.startswith("need")]      # (what the clients are told)
                steps.append(f"{state}({', '.join(f'{k} = {v}' for k, v in parts)})")
            if not steps:
                continue
            rid = card_ids.get(top.name, top.name)
            out.append(EngineRule(f"send.{owner.name}.{name}", tuple(steps), src.at(fd), f"{owner.name}.{name}: the "
                                  "send it makes (its direction, locks and face)", False, one=True, about=(rid,)))
        return out
