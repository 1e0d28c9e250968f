"""Card types: the Card classes (``override val type = …``, the name from ``toString``) and every ``card_type.X``
the code names, with the fixed table of the 13 card types for order and missing names."""
from __future__ import annotations

import re

from .classes import ClassIndex
from .server import _CARD_ID, CARD_ENUM, CARD_TABLE
from .syntax import _X, _const, _descendants, _ir, _last_name, _t


class CardTable(ClassIndex):
    """``_cards`` builds the card table (``run`` keeps it as ``cards``); ``_card_const`` reads a card constant."""

    def _cards(self) -> dict:
        cards: dict[str, dict] = {}
        for c in self.classes:
            if not c.concrete or not self.is_card(c):
                continue
            _o, init = self.prop(c, "type")
            if init is None:
                continue
            x = _ir(init)
            cid = _last_name(x)
            if cid is None or not _CARD_ID.match(cid):
                continue
            name = None
            _owner, fd = self.func(c, "toString")
            if fd is not None and _owner is c:
                for s in _descendants(fd, "string_literal"):
                    text = "".join(_t(p) for p in s.named_children if p.type == "string_content")
                    runs = re.findall(r"[\u4e00-\u9fff]+", text)
                    if runs:
                        name = max(runs, key=len)
                        break
            cards.setdefault(cid, {"id": cid, "name": name, "where": c.at(), "cls": c})
        for cid in self.card_refs:
            cards.setdefault(cid, {"id": cid, "name": None, "where": "", "cls": None})
        for cid, card in cards.items():
            if card["name"] is None:
                if cid in CARD_TABLE:
                    card["name"] = CARD_TABLE[cid]
                else:
                    card["name"] = cid
                    self.note("name", cid, card["where"] or self.root.name,
                              "a card type with no card class naming it; its id is used as its name")
        order = list(CARD_TABLE)
        return dict(sorted(cards.items(), key=lambda kv: (order.index(kv[0]) if kv[0] in order else len(order),
                                                          kv[0])))

    def _card_const(self, x: _X):
        """The card type ``x`` names (``Jie_Huo`` or ``card_type.Jie_Huo``), if it is one of ``cards``."""
        return _const(x, CARD_ENUM, {cid: cid for cid in self.cards})
