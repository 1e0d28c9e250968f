"""The readings of an ambiguous question, said with its answer. ``play X`` (打出X, 使用X) with no ``as`` is read as a
card *declared* as X reaching play (``play ? as X``: the 误导 that 借车运货 bans); a designer may as well mean the
*physical* card X reaching play declared as any card (``play X as ?``, ``get a X into play``: 截获 played as 误导
under 应变). An answer says which reading it took, and gives the other reading's answer beside it
(``Session.ask``)."""
from __future__ import annotations

import copy

from skillproof.model.lang import pick

from .syntax import Atom, Query, atoms_of


def bare_plays(q: Query) -> list[Atom]:
    """The ``play X`` atoms of the question (claim and claim givens) written with no ``as``."""
    atoms = list(atoms_of(q.claim))
    for g in q.givens:
        if g.kind == "claim":
            atoms += atoms_of(g.claim)
    return [a for a in atoms if a.kind == "play" and a.value == "bare"]


def physical_reading(q: Query) -> Query:
    """The question with every bare ``play X`` read as ``play X as ?`` (a copy; the question itself is kept)."""
    alt = copy.deepcopy(q)
    for a in bare_plays(alt):
        a.cards, a.value = (a.cards[1], None), None
    return alt


def _yes_no(v: str) -> str:
    return {"yes": pick("是", "yes"), "no": pick("否", "no")}.get(v, pick("未知", "unknown"))


def reading_note(cat, q: Query, answer: str, other: str) -> tuple[str, dict]:
    """The note saying which reading was taken and what the other gives; and its JSON form."""
    cards = list(dict.fromkeys(cat.name_of(a.cards[1]) for a in bare_plays(q)))
    names = pick("、", ", ").join(cards)
    forms = [f"play {c} as ?" for c in cards]
    text = pick(f"按宣言的牌读：一张宣言为{names}的牌进入打出；若问的是{names}这张实体牌本身（可当作任何牌，"
                f"'{forms[0]}'、'把{cards[0]}当作任意牌打出'），答案是{_yes_no(other)}",
                f"read as the declared card: a card declared as {names} reaching play; read as the physical {names} "
                f"card itself (declared as any card, `{forms[0]}`), the answer is {_yes_no(other)}")
    return text, {"took": "declared", "other": "physical", "other_query": forms, "other_answer": other,
                  "same": answer == other}


def reading_suffix(cat, q: Query, other: str) -> str:
    """The headline's word on the readings, when they give different answers."""
    cards = pick("、", ", ").join(dict.fromkeys(cat.name_of(a.cards[1]) for a in bare_plays(q)))
    return pick(f"（按宣言为{cards}的牌；按{cards}这张实体牌：{_yes_no(other)}）",
                f" (declared as {cards}; the physical {cards} card: {_yes_no(other)})")
