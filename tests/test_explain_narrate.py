"""The narration (model/narrate.py) walks the interpreter's clauses again, step by step: on many random
states it must reach the interpreter's own answer, cite real catalogue lines, and say what decided."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from skillproof.model.interp.decide import decide
from skillproof.model.interp.usable import usable
from skillproof.model import loader
from skillproof.model import narrate as N
from skillproof.model.kinds import SEND_GROUPS
from skillproof.model.state import Seat, SkillInst, State

from randstate import pick_card, random_state

SYN = Path(__file__).parent / "fixtures" / "synthetic"


@pytest.fixture(scope="module", params=["shipped", "synthetic"])
def cat(request):
    return loader.load(None) if request.param == "shipped" else loader.load([SYN])


def questions(rng, cat):
    x, y = pick_card(rng, cat), pick_card(rng, cat)
    out = [{"decision": "conversion", "actual": x, "declared": y},
           {"decision": "conversion", "actual": x, "declared": x},
           {"decision": "can_play", "actual": x, "declared": y},
           {"decision": "banned", "declared": y},
           {"decision": "receive"}, {"decision": "skip_fight"}, {"decision": "skip_dying"}, {"decision": "draw"},
           {"decision": "reachable"}]
    for g in SEND_GROUPS:
        out.append({"decision": "send", "group": g, "dir": rng.choice(["up", "left", "right"]),
                    "lock_count": rng.randint(0, 2)})
    return out


def test_narration_agrees_with_the_interpreter(cat):
    rng = random.Random(20261130)
    files = set(cat.files)
    for _ in range(600):
        st = random_state(rng, cat)
        n = len(st.seats)
        extra = [{"decision": "result", "kind": rng.choice(["win", "result"]), "turn": rng.randrange(n),
                  "declared": sorted(rng.sample(range(n), rng.randint(0, n))),
                  "winners": sorted(rng.sample(range(n), rng.randint(0, n)))}]
        for q in questions(rng, cat) + extra:
            tr = N.narrate(cat, st, q)
            assert tr.answer == decide(cat, st, q)
            assert tr.agrees, (q, st.to_dict(), tr.lines())
            assert tr.conclusion
            for s in tr.steps:
                if s.loc is not None:
                    assert s.loc.file in files and s.loc.line > 0


def test_veto_is_told_at_its_position():
    cat = loader.load(None)
    st = State(seats=[Seat("sp_li_ning_yu", skills=[
        SkillInst("YingBian"), SkillInst("YouDao"),
        SkillInst("BianZeTong2", {"A": "Jie_Huo", "B": "Po_Yi"}, giver=1, site="BianZeTong#0")]),
        Seat("chen_da_er", skills=[SkillInst("BianZeTong")])], turn=1)
    tr = N.narrate(cat, st, {"decision": "can_play", "actual": "Jie_Huo", "declared": "Wu_Dao"})
    assert tr.answer["can_play"] is False
    veto = [s for s in tr.steps if s.decisive]
    assert len(veto) == 1 and veto[0].position == 3 and veto[0].rule == "BianZeTong2"
    assert "must-conversion" in veto[0].text and "lack 误导" in veto[0].text
    assert veto[0].loc == cat.skills["BianZeTong2"].at("convert")
    origin = N.origin(cat, st)
    assert any("陈大耳" in s.text and "变则通" in s.text and s.loc == cat.skills["BianZeTong"].gives[0].loc
               for s in origin)


def test_usable_narration():
    cat = loader.load(None)
    st = State(seats=[Seat("bai_kun_shan", face_up=False, ever_face_up=False, skills=[SkillInst("DuJi")])])
    tr = N.narrate_usable(cat, st, 0, "DuJi", "fight")
    assert tr.answer == {"usable": usable(cat, st, 0, st.seats[0].skills[0], "fight")}
    assert tr.answer["usable"] is True


def test_pretty_prints_with_needed_parentheses_only():
    from skillproof.model import expr as E
    for text in ("A != B and A in {Po_Yi, Wu_Dao}", "not (a or b) and c", "(a or b) and c", "x + 1 < 3",
                 "if a then 1 else 2"):
        node = E.parse(text)
        again = E.parse(N.pretty(node))
        assert E.to_text(again) == E.to_text(node)
    assert N.pretty(E.parse("A != B and A in {Po_Yi}")) == "A != B and A in {Po_Yi}"
