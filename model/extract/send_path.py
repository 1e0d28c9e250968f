"""The face a message travels with on its way, read from the engine's game states as a named engine rule.

* ``send_face`` — every hand-over between the states a message passes through in the engine's code (a game state
  whose constructor takes a Boolean face-up flag: the server's ``isMessageCardFaceUp`` of OnSendCard, OnSendCardSkill,
  SendPhaseIdle …): the flag each such state is built with, as a clause ``face := <value> if <Class>.<function> goes
  on to <State>`` — ``false`` (face down whatever was asked), ``true``, or the flag the building state was itself
  handed (the message keeps the face it was sent with). A parameter left out is its constructor default; a
  ``copy(…)`` keeps the flag. Only the engine's own functions are read (a card or skill asking for a face-up send —
  欲擒故纵 — is its own rule): what they hand on decides whether such a send stays face up.

The value is the sorted clauses, compared as values: a rewrite handing on the same flags is no change.
"""
from __future__ import annotations

import re

from .engine import EngineRule
from .syntax import _code, _descendants, _kid, _t

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
