"""The engine rules added as `[rules]` keys (face_down_grant_converts, must_receive, skip_fight, skip_dying): the
loader reads and checks them, the interpreter and the z3 encoder both honour them (cross-checked on random
states with every key away from the server's default), and `diff` sees a change of one."""
from __future__ import annotations

import dataclasses

import pytest

from skillproof.cli import main
from skillproof.model.interp.conversion import conversion
from skillproof.model.interp.receive import receive
from skillproof.model.interp.skip import skip_fight
from skillproof.model import loader
from skillproof.model.catalogue import Catalogue
from skillproof.model.state import Seat, SkillInst, State

from test_crosscheck import SYNTHETIC, _run


def with_rules(cat, **kw) -> Catalogue:
    return Catalogue(rules=dataclasses.replace(cat.rules, **kw), cards=cat.cards, characters=cat.characters,
                     skills=cat.skills, files=cat.files)


OFF_DEFAULT = dict(face_down_converts=True, face_down_grant_converts=False, must_receive=("locked", "turn"),
                   skip_fight=("skills_gone",), skip_dying=("can_use",))


def test_defaults_are_the_server_of_today():
    r = loader.load().rules
    assert (r.face_down_converts, r.face_down_grant_converts) == (False, True)
    assert r.must_receive == ("locked", "sender")
    assert r.skip_fight == ("can_use", "skills_gone") and r.skip_dying == ("skills_gone",)


def test_loader_reads_and_checks_the_keys(tmp_path):
    p = tmp_path / "r.toml"
    p.write_text('[rules]\nface_down_grant_converts = false\nmust_receive = ["turn", "locked"]\n'
                 'skip_fight = []\nskip_dying = ["can_use", "skills_gone"]\n', encoding="utf-8")
    r = loader.load([p]).rules
    assert r.face_down_grant_converts is False and r.must_receive == ("locked", "turn")
    assert r.skip_fight == () and r.skip_dying == ("can_use", "skills_gone")
    p.write_text('[rules]\nmust_receive = ["sendr"]\nskip_fight = ["can_use", "can_use"]\n', encoding="utf-8")
    with pytest.raises(loader.CatalogueErrors) as e:
        loader.load([p])
    msgs = " | ".join(str(x) for x in e.value.errors)
    assert "r.toml:2" in msgs and "did you mean 'sender'" in msgs and "lists an item twice" in msgs


def _state(cat, **seat):
    ch = next(c for c in cat.characters.values() if c.skills)
    s = Seat(character=ch.id, **seat)
    return State(seats=[s, Seat(character=ch.id)], turn=0, sender=1)


def test_interpreter_honours_must_receive_and_face_down_grants():
    cat = loader.load()
    st = _state(cat)                                      # seat 0: turn player, not the sender, not locked
    assert receive(cat, st, 0) == "free"
    assert receive(with_rules(cat, must_receive=("turn",)), st, 0) == "must"
    assert receive(with_rules(cat, must_receive=()), st, 1) == "free"     # the sender need not receive
    bzt = cat.skills["BianZeTong2"]                       # 变则通's must-conversion, a grant
    st = _state(cat, face_up=False)
    st.seats[0].skills = [SkillInst(bzt.id, args={"A": "Jie_Huo", "B": "Po_Yi"})]
    assert conversion(cat, st, 0, "Jie_Huo", "Po_Yi").ok
    assert not conversion(with_rules(cat, face_down_grant_converts=False), st, 0, "Jie_Huo", "Po_Yi").ok


def test_skip_ingredients():
    cat = loader.load()
    active = next(r for r in cat.skills.values() if r.has("ActiveSkill") and not r.has("MainPhaseSkill")
                  and r.fight is not None and not r.is_grant)
    holder = next(c for c in cat.characters.values() if c.skills == (active.id,) or active.id in c.skills)
    st = State(seats=[Seat(character=holder.id, ever_face_up=True, face_up=True, hand_count=0,
                           skills=[SkillInst(active.id, invalid=True)])], turn=0, sender=0)
    assert skip_fight(cat, st, 0)                       # every skill gone: skipped
    st.seats[0].ever_face_up = False
    assert skip_fight(cat, st, 0)                       # … even if never face up (skills_gone)
    assert not skip_fight(with_rules(cat, skip_fight=("can_use",)), st, 0)


@pytest.mark.parametrize("source", ["shipped", "synthetic"])
def test_encoder_matches_interpreter_with_every_key_off_default(source):
    cat = loader.load() if source == "shipped" else loader.load([SYNTHETIC])
    reach = _run(with_rules(cat, **OFF_DEFAULT), 600, 4242 + (source == "synthetic"), f"{source}+rules")
    assert reach > 0


def test_diff_sees_a_changed_rules_key(tmp_path):
    import json
    import shutil
    shipped = loader.shipped_path()
    for side in ("old", "new"):
        shutil.copytree(shipped, tmp_path / side, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    rules_file = next(p for p in sorted((tmp_path / "new").rglob("*.toml"))
                      if "\n[rules]\n" in "\n" + p.read_text(encoding="utf-8"))
    text = rules_file.read_text(encoding="utf-8")
    rules_file.write_text(text.replace("\n[rules]\n", "\n[rules]\nface_down_grant_converts = false\n", 1)
                          if not text.startswith("[rules]\n") else
                          text.replace("[rules]\n", "[rules]\nface_down_grant_converts = false\n", 1), encoding="utf-8")
    out = tmp_path / "d.json"
    rc = main(["diff", str(tmp_path / "old"), str(tmp_path / "new"), "--format", "json", "--output", str(out), "-q"])
    d = json.loads(out.read_text(encoding="utf-8"))["diff"]
    assert rc == 1 and {"id": "[rules]", "change": "changed", "name": "引擎规则", "name_en": "engine rules ([rules])"} \
        in d["changed_rules"]
    assert any(c["decision"] == "conversion" for c in d["decision_changes"])
    eng = [c for c in d["decision_changes"] if c["decision"] == "engine"]
    assert [c["question"]["engine_rule"] for c in eng] == ["face_down_grant_converts"]
    assert eng[0]["rules"][0]["file"].endswith(rules_file.name) and eng[0]["rules"][0]["line"] > 0
    # a key no decision of `diff` reads still fails it: the turn-end order
    import re
    text = re.sub(r"(?m)^turn_end = .*\n", "", rules_file.read_text(encoding="utf-8"))
    rules_file.write_text(text.replace("face_down_grant_converts = false\n",
                                       'turn_end = ["drop_one_turn", "restore_invalid"]\n'), encoding="utf-8")
    rc = main(["diff", str(tmp_path / "old"), str(tmp_path / "new"), "--format", "json", "--output", str(out), "-q"])
    d = json.loads(out.read_text(encoding="utf-8"))["diff"]
    assert rc == 1 and [c["question"]["engine_rule"] for c in d["decision_changes"]] == ["turn_end"]
    eng = d["decision_changes"][0]
    assert "恢复被无效的技能、移除本回合技能 → 移除本回合技能、恢复被无效的技能" in eng["message"]
    assert "restore invalidated skills, drop one-turn skills → drop one-turn skills, restore invalidated skills" \
        in eng["message_en"]
    assert eng["values"] == {"old": ["restore_invalid", "drop_one_turn"], "new": ["drop_one_turn", "restore_invalid"]}
