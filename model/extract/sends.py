"""The default send rules read from the engine's send check (the server's ``Player.canSendCard``, skill/
SendMessageSkill.kt): what a message may do when no skill of a send group is in force — ``send_dir`` (the direction
it is sent in), ``send_lock`` (how many players it locks, and on which cards) — and ``send_to_self`` (whether the
sender may be its first stop). ``[rules]`` keys both back-ends honour.

The check is found by what it does: a function that takes the skill in force of a group (``skills.lastOrNull { it
is SendMessageCanLockSkill }``) and, where there is none (``if (x != null) … else { … }``), refuses a send with
guards (``if (lockPlayers.size > 1) return "…"``). The group's rule is the conjunction of the guards' negations,
translated into the send vocabulary (``lock_count``, ``message_lockable``, ``dir``, ``message_dir``) as a skill's own
send rule is; a guard not translated leaves the key unread (the catalogue default applies, and the report says so).
"""
from __future__ import annotations

import re

from .. import vocab as V
from .bodies import _Translator
from .conds import conj, negate, normalise
from .engine import EngineRule
from .syntax import _code, _descendants, _stmts, _fn_params, _ir, _kid, _t

#: send group → the [rules] key of its default rule
_GROUPS = {"SendMessageDirectionSkill": "send_dir", "SendMessageCanLockSkill": "send_lock"}


class SendDefaults:
    """Mixed into the engine probes (needs ``_functions``)."""

    def _p_send_defaults(self) -> list:
        found = None
        for src, fd, name, owner in self._functions():
            data = src.data[fd.start_byte:fd.end_byte]
            if b"SendMessageCanLockSkill" in data and b"lastOrNull" in data and b"return" in data:
                found = (src, fd, name, owner)
                break
        if found is None:
            why = "no send check taking the send skill in force"
            return [EngineRule(k, None, "", why, True, True) for k in ("send_dir", "send_lock", "send_to_self")]
        src, fd, name, owner = found
        out = []
        body = _kid(fd, "function_body")
        for group, key in _GROUPS.items():
            out.append(self._default_of(src, fd, body, group, key))
        out.append(self._to_self(src, fd, body))
        out.append(self._check_clauses(src, fd, owner))
        return out

    def _check_clauses(self, src, fd, owner) -> EngineRule:
        """``send_check``: every refusal of the send check (each send path calls it), as the win checks' clauses are
        read — ``refuse if <the conditions on its path>``, as the code tests them (the refusal's text left out: it is a
        client message). The guards the ``[rules]`` keys translate are among them; the others (a locked player who
        is dead, a lock repeated, the first stop not the next living neighbour …) have no key, and a change of any is
        a change of what may be sent. Read from this one function: a local renamed in it is no change."""
        from .wins import _Clauses
        clauses, _complete = _Clauses(self).run(fd)
        out = []
        for c in clauses:
            m = re.match(r'return\s+"(?:[^"\\]|\\.)*"(.*)\Z', c, re.S)
            out.append("refuse" + m.group(1) if m else c)
        return EngineRule("send_check", tuple(sorted(set(out))), src.at(fd), f"{(owner.name + '.') if owner else ''}"
                          f"{_t(fd).split('(')[0].split()[-1]}: when a send is refused", False, one=True)

    def _default_of(self, src, fd, body, group: str, key: str) -> EngineRule:
        var = None
        for pd in _descendants(body, "property_declaration"):
            if re.search(r"\bis\s+" + group + r"\b", _t(pd)):
                vd = _kid(pd, "variable_declaration")
                var = _t(_kid(vd, "identifier")) if vd is not None else None
        if not var:
            return EngineRule(key, None, src.at(fd), f"no {group} in force taken", True)
        for s in _descendants(body, "if_expression"):
            cond = s.child_by_field_name("condition")
            if cond is None or not re.fullmatch(r"\s*" + re.escape(var) + r"\s*!=\s*null\s*", _t(cond)):
                continue
            branches = [b for b in _code(s) if b != cond]
            if len(branches) < 2:
                return EngineRule(key, None, src.at(s), f"no default branch where no {group} is in force", True)
            keep = []
            tr = _Translator(self, "send", _fn_params(fd), None, {})
            for g in _stmts(branches[1]):
                if g.type != "if_expression":
                    return EngineRule(key, None, src.at(g), f"not a guard: {_t(g)[:60]}", True)
                c = g.child_by_field_name("condition")
                jump = [b for b in _code(g) if b != c]
                if len(jump) != 1 or not re.match(r"\s*return\b", _t(jump[0])):
                    return EngineRule(key, None, src.at(g), f"not a guard: {_t(g)[:60]}", True)
                text = tr.top(_ir(c), V.BOOL)
                if tr.missed or "unknown" in text:
                    return EngineRule(key, None, src.at(g), f"a guard not translated: {_t(c)[:60]}", True)
                keep.append(negate(text))
            rule = normalise(conj(keep))
            return EngineRule(key, rule, src.at(s), f"the send check with no {group} in force: {rule}", True)
        return EngineRule(key, None, src.at(fd), f"no branch on whether a {group} is in force", True)

    def _to_self(self, src, fd, body) -> EngineRule:
        """``send_to_self``: false when the check refuses a first stop that is the sender (``if (this === target)
        return …``, the receiver of the check compared with a player parameter)."""
        players = [p[0] for p in _fn_params(fd) if p[1] == "Player"]
        for s in _descendants(body, "if_expression"):
            cond = s.child_by_field_name("condition")
            text = re.sub(r"\s+", "", _t(cond)) if cond is not None else ""
            for p in players:
                if text in (f"this==={p}", f"{p}===this", f"this=={p}", f"{p}==this"):
                    return EngineRule("send_to_self", False, src.at(s), "the send check refuses the sender as the "
                                      "first stop", True)
        return EngineRule("send_to_self", True, src.at(fd), "the send check does not refuse the sender as the first "
                          "stop", True)
