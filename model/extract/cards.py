"""Card types: the Card classes (``override val type = …``, the name from ``toString``) and every ``card_type.X``
the code names, with the fixed table of the 13 card types for order and missing names."""
from __future__ import annotations

import re

from .classes import ClassIndex
from .server import _CARD_ID, CARD_ENUM, CARD_TABLE
from .syntax import _X, _descendants, _ir, _t


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
            cid = x.a[0] if x.k == "name" else x.a[1] if x.k == "nav" else None
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
        if x.k == "name" and x.a[0] in self.cards:
            return x.a[0]
        if x.k == "nav" and x.a[1] in self.cards and _t(x.a[0].n).split(".")[-1] == CARD_ENUM:
            return x.a[1]
        return None
