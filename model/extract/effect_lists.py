"""Players the client names in a list (mixed into ``effects_read._Walker``): ``val targets =
pb.targetPlayerIdsList.map { … g.players[r.getAbstractLocation(it)]!! … }`` after a guard that the list holds exactly
two (``if (pb.targetPlayerIdsCount != 2) return``) is the two players the client chose — ``chosen`` and ``chosen2``,
the words one chosen player at a time gets — and ``targets.forEach { … }`` is its body read once for each of them.

The checks inside the ``map`` (a seat out of range, a dead player) are the client's choice checked, not translated:
the construct stays partly read, so a change there is unread code (UNR001), never a pass. Any other shape (another
count, no such guard, a list built otherwise) is not read this way.
"""
from __future__ import annotations

import re

from .effect_values import _V
from .syntax import _code, _lambda_parts, _t

#: ``pb.fieldList.map { … }``: the protobuf's repeated field and its lambda
_MAP = re.compile(r"\s*(\w+)\.(\w+)List\s*\.\s*map\s*\{", re.S)
#: the player of the table a seat the client sent stands for
_SEAT = re.compile(r"(?:\w+\.)?players\s*\[\s*\w+\.getAbstractLocation\(\s*(\w+)\s*\)\s*\](?:!!)?\s*")


class _Lists:
    def _chosen_list(self, value, env):
        """The chosen players a ``map`` over the client's list of seats builds (see the module): a list of player
        values, or None."""
        m = _MAP.match(_t(value))
        if m is None or value.type != "call_expression":
            return None
        pb, field = m.group(1), m.group(2)
        lam = next((c for c in value.named_children if c.type == "annotated_lambda"), None)
        lam = next((c for c in lam.named_children if c.type == "lambda_literal"), None) if lam is not None else None
        if lam is None:
            return None
        params, stmts = _lambda_parts(lam)
        it = params[0] if params else "it"
        if not stmts:
            return None
        last = _t(stmts[-1]).strip()
        seat = _SEAT.fullmatch(last)
        if seat is None:                                     # `… val target = g.players[…]!! … target`
            decl = [s for s in stmts[:-1] if s.type == "property_declaration" and
                    re.fullmatch(r"\s*val\s+" + re.escape(last) + r"\s*=\s*(.*)", _t(s), re.S)]
            if len(decl) != 1 or not re.fullmatch(r"\w+", last):
                return None
            seat = _SEAT.fullmatch(re.fullmatch(r"\s*val\s+\w+\s*=\s*(.*)", _t(decl[0]), re.S).group(1).strip())
        if seat is None or seat.group(1) != it:
            return None
        fn = value
        while fn is not None and fn.type not in ("function_declaration", "lambda_literal", "anonymous_initializer"):
            fn = fn.parent
        if fn is None or fn.start_byte >= value.start_byte:
            return None
        before = self.key[1].src.data[fn.start_byte:value.start_byte].decode("utf-8", "replace")
        guard = re.search(r"\bif\s*\(\s*" + re.escape(pb) + r"\s*\.\s*" + re.escape(field) + r"(?:Count|List\s*\.\s*size)"
                          r"\s*!=\s*(\d+)\s*\)", before)
        if guard is None or int(guard.group(1)) != 2:
            return None
        words = ("chosen", "chosen2")
        if any(w in self.chosen for w in words):
            return None
        self.chosen.extend(words)
        if len(stmts) > 1 or params:
            self._miss(self.key[1], lam, "the chosen players' checks")
        out = _V("plist")
        out.link = [_V("player", w) for w in words]
        return out
