"""The readings of an ambiguous question, said with its answer. ``play X`` (打出X, 使用X) with no ``as`` is read as
the *physical* card X reaching play declared as any card (its conversions count: 截获 played as 误导 under 应变);
a designer may as well mean a card *declared* as X (``play ? as X``: the 误导 that 借车运货 bans). An answer
says which reading it took, and gives the other reading's answer beside it (``Session.ask``)."""
from __future__ import annotations

import copy

from skillproof.model.lang import pick

from .syntax import Atom, Query, atoms_of


def physical_plays(q: Query) -> list[Atom]:
    """The ``play X`` atoms of the question (claim and givens) whose declared card was left out."""
    atoms = list(atoms_of(q.claim))
    for g in q.givens:
        if g.kind == "claim":
            atoms += atoms_of(g.claim)
    return [a for a in atoms if a.kind == "play" and a.cards[0] is not None and a.cards[1] is None]


def declared_reading(q: Query) -> Query:
    """The question with every ``play X`` read as ``play ? as X`` (a copy; the question itself is kept)."""
    alt = copy.deepcopy(q)
    for a in physical_plays(alt):
        a.cards = (None, a.cards[0])
    return alt


def reading_note(cat, q: Query, answer: str, other: str) -> tuple[str, dict]:
    """The note saying which reading was taken and what the other gives; and its JSON form."""
    cards = list(dict.fromkeys(cat.name_of(a.cards[0]) for a in physical_plays(q)))
    names, names_en = "、".join(cards), ", ".join(cards)
    yn = {"yes": pick("是", "yes"), "no": pick("否", "no"), "unknown": pick("未知", "unknown")}
    forms = [f"play ? as {c}" for c in cards]
    text = pick(f"按实体牌读：{names}这张牌本身（可当作任何牌）进入打出；若问的是宣言为{names}的牌"
                f"（'{forms[0]}'，即'把?当作{cards[0]}打出'），答案是{yn[other]}",
                f"read as the physical card: the {names_en} card itself reaching play (declared as any card); read as "
                f"a card declared as {names_en} (`{forms[0]}`), the answer is {yn[other]}")
    return text, {"took": "physical", "other": "declared", "other_query": forms, "other_answer": other,
                  "same": answer == other}


def reading_suffix(cat, q: Query, other: str) -> str:
    """The headline's word on the readings, when they give different answers."""
    cards = "、".join(dict.fromkeys(cat.name_of(a.cards[0]) for a in physical_plays(q)))
    yn = {"yes": pick("是", "yes"), "no": pick("否", "no"), "unknown": pick("未知", "unknown")}[other]
    return pick(f"（按{cards}这张实体牌；按宣言为{cards}的牌：{yn}）", f" (the physical {cards} card; declared as {cards}: {yn})")
