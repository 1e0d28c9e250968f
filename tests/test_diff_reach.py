"""`diff` over what can happen in either version: a planted edit of each kind, on the shipped catalogue, fails
with the changed id and a witness trace that runs under the version where the situation exists — while the other
version's interpreter rules it out (or cannot read it); meaning-preserving edits stay quiet."""
from __future__ import annotations

import pytest

from skillproof.checks.diff import Differ, changed_rules
from skillproof.checks.diff_reach import translate, Unreadable
from skillproof.model.interp.decide import decide
from skillproof.model.interp.windows import at_decision
from skillproof.model import lang
from skillproof.model import loader
from skillproof.model.interp import trace as TR
from skillproof.model.interp.play import run as play_run
from skillproof.model.narrate_story import steps

NEWCHAR = '''
[[character]]
id = "xin_ren"
name = "新人"
hidden = false
female = true
skills = ["QiHuoKeJu"]
'''

# name -> (file, text replaced, replacement; None: appended), the changed id, the side the situation exists in,
# the kind of the other side's reason
EDITS = {
    "skill added to a character": ("characters/mao_bu_ba.toml", 'skills = ["QiHuoKeJu"]',
                                   'skills = ["QiHuoKeJu", "YingBian"]', "mao_bu_ba", "new", "illegal"),
    "new character": ("characters/mao_bu_ba.toml", None, NEWCHAR, "xin_ren", "new", "unreadable"),
    # 禁闭's two sites go out together ('with'): widening the pair lets 王田香 禁闭 himself
    "wider to": ("characters/wang_tian_xiang.toml", 'to = "others"', 'to = "target"', "JinBi#1", "new", "illegal"),
    "where widened": ("characters/chen_da_er.toml", 'where = "A != B and A in', 'where = "A in', "BianZeTong#0",
                      "new", "illegal"),
    "at widened": ("characters/chen_da_er.toml", 'at = "send_start"', 'at = ["send_start", "main"]',
                   "BianZeTong#0", "new", "illegal"),
    "invalidation to widened": ("characters/wang_tian_xiang.toml", 'to = "others"', 'to = "target"', "JinBi#0", "new",
                                "illegal"),
    "hidden flipped": ("characters/mao_bu_ba.toml", "hidden = false", "hidden = true", "mao_bu_ba", "new", "illegal"),
    "initial flipped": ("characters/wang_tian_xiang.toml", "initial = true", "initial = false", "JinBi", "new",
                        "differs"),
    # 平衡 in any player's main phase (a canUse that no longer reads whoseTurn): the player may use it on another's turn
    "card window widened": ("cards.toml", 'name = "平衡"\nwindows = { main = "turn" }',
                            'name = "平衡"\nwindows = { main = "anyone" }', "Ping_Heng", "new", "differs"),
    "where narrowed": ("characters/chen_da_er.toml", "and B in {Po_Yi, Diao_Bao, Wu_Dao, Jie_Huo}",
                       "and B in {Po_Yi, Diao_Bao, Wu_Dao}", "BianZeTong#0", "old", "illegal"),
}


def shipped():
    d = loader.shipped_path()
    return {p.relative_to(d).as_posix(): p.read_text(encoding="utf-8") for p in loader.catalogue_files([d])}


def load(texts, prefix):
    return loader.load(texts={f"{prefix}/{k}": v for k, v in texts.items()})


@pytest.fixture(scope="module")
def old():
    return load(shipped(), "old")


def edited(name):
    f, a, b, *_ = EDITS[name]
    t = shipped()
    if a is None:
        t[f] += b
    else:
        assert a in t[f], name
        t[f] = t[f].replace(a, b)
    return load(t, "new")


def assert_replays(old, new, d, p):
    """The witness runs under its own version and shows the situation; read under the other version it is
    unreadable, illegal (the interpreter's first error is the reason), or reaches another situation."""
    here, there = (new, old) if p.side == "new" else (old, new)
    trace = TR.Trace.from_dict(p.trace)
    run = play_run(here, trace)
    assert run.legal, run.errors
    assert run.state.to_dict() == p.state
    site_map = d.sites.n2o if p.side == "new" else d.sites.o2n
    kind = p.reason["kind"]
    try:
        tr = translate(trace, here, there, site_map)
    except Unreadable as e:
        assert kind == "unreadable" and str(e) in p.reason["text_en"] and e.zh in p.reason["text"]
        return
    other = play_run(there, tr)
    if kind == "illegal":
        k, why = other.errors[0]
        assert p.reason["event"] == k and why in p.reason["text_en"]
        with lang.using("zh"):
            assert play_run(there, tr).errors[0][1] in p.reason["text"]
    else:
        assert other.legal and kind in ("differs", "absent")


@pytest.mark.parametrize("name", list(EDITS))
def test_planted_edit_fails_with_the_changed_id_and_a_replayable_witness(old, name):
    _f, _a, _b, rid, side, reason = EDITS[name]
    new = edited(name)
    assert rid in changed_rules(old, new)
    d = Differ(old, new)
    possible = d.possible()
    assert not d.inconclusive
    mine = [p for p in possible if p.id == rid and p.side == side]
    assert mine, [(p.id, p.side, p.message) for p in possible]
    p = mine[0]
    assert p.reason["kind"] == reason, p.reason
    assert rid in [r["id"] for r in p.rules]
    assert p.steps_en == steps(new if side == "new" else old, TR.Trace.from_dict(p.trace))
    with lang.using("zh"):
        assert p.steps == steps(new if side == "new" else old, TR.Trace.from_dict(p.trace))
    for q in possible:
        assert_replays(old, new, d, q)
    doc = p.to_dict()
    assert doc["decision"] == "possible" and doc[side] == "可能" and doc["old" if side == "new" else "new"].startswith("不可能")


@pytest.mark.parametrize("grant", ["CannotPlayCard", "InvalidSkill"])
def test_widening_one_site_of_a_pair_changes_no_situation(old, grant):
    """禁闭's ban and invalidation go out together: one of them widened to the giver himself still needs the other,
    which does not reach him — the rule changed (the gate names it), no situation did."""
    t = shipped()
    f = "characters/wang_tian_xiang.toml"
    t[f] = t[f].replace(f'grant = "{grant}"\nto = "others"', f'grant = "{grant}"\nto = "target"')
    new = load(t, "new")
    assert "JinBi" in changed_rules(old, new)
    d = Differ(old, new)
    assert not d.inconclusive and [p for p in d.possible() if p.id.startswith("JinBi")] == []


def test_a_card_whose_windows_only_widen_makes_nothing_impossible(old):
    """平衡's window opened to anyone: every situation in which OLD lets the player use it, NEW does too — the only
    one-sided situation is NEW's (was: OLD's too, "no longer possible", because the two windows tables differ)."""
    new = edited("card window widened")
    d = Differ(old, new)
    mine = [(p.id, p.side) for p in d.possible() if p.id == "Ping_Heng"]
    assert mine == [("Ping_Heng", "new")]
    assert not d.inconclusive
    # narrowed back, the same search finds the situation only OLD has
    d = Differ(new, old)
    assert [(p.id, p.side) for p in d.possible() if p.id == "Ping_Heng"] == [("Ping_Heng", "old")]


def test_a_site_that_reaches_further_names_its_giver(old):
    new = edited("wider to")
    p = next(p for p in Differ(old, new).possible() if p.id == "JinBi#1")
    assert [r["id"] for r in p.rules] == ["JinBi#1", "JinBi"]
    assert "自己给出" in p.situation and "given by himself" in p.situation_en
    assert "cannot reach seat 0" in p.reason["text_en"] and "给不到座位0" in p.reason["text"]
    give = [e for e in p.trace["events"] if e["event"] == "give"]
    assert give and give[-1]["giver"] == give[-1]["seat"] == 0


def test_hidden_flipped_shows_a_face_down_role(old):
    new = edited("hidden flipped")
    p = next(p for p in Differ(old, new).possible() if p.side == "new")
    assert p.state["seats"][0]["face_up"] is False
    assert "public role and cannot be face down" in p.reason["text_en"] and "不能面朝下" in p.reason["text"]


def test_initial_flipped_shows_the_skill_live_while_invalidated(old):
    new = edited("initial flipped")
    p = next(p for p in Differ(old, new).possible() if p.side == "new")
    seat = p.state["seats"][0]
    assert seat["invalidated"] and not any(s.get("invalid") for s in seat["skills"] if s["rule"] == "JinBi")
    assert "invalidated: yes (in NEW: no)" in p.reason["text_en"] and "被无效为是（新版中为否）" in p.reason["text"]


def test_a_draw_rule_removed_changes_the_draw_with_witnesses_each_version_runs(old):
    t = shipped()
    f = "characters/huo_che_si_ji.toml"
    a = 'kinds = ["ChangeDrawCardCountSkill", "TriggeredSkill"]\ninitial = true\ndraw = "count + true_messages"\n'
    assert a in t[f]
    t[f] = t[f].replace(a, 'kinds = ["TriggeredSkill"]\ninitial = true\n')
    new = load(t, "new")
    d = Differ(old, new)
    changes = d.changes()
    assert not d.inconclusive                    # the old untimed replay made this an INC001
    draw = [c for c in changes if c.decision == "draw"]
    assert draw and all(c.old["draw"] > c.new["draw"] for c in draw)
    for c in draw:
        assert [r["id"] for r in c.rules] == ["WorkersAreKnowledgable"]
        tr_n = TR.Trace.from_dict(c.trace)
        tr_o = TR.Trace.from_dict(c.old_trace) if c.old_trace else translate(tr_n, new, old, d.sites.n2o)
        run_n, run_o = play_run(new, tr_n), play_run(old, tr_o)
        assert run_n.legal and run_o.legal
        assert decide(new, run_n.state, c.question)["draw"] == c.new["draw"]
        assert decide(old, run_o.state, c.question)["draw"] == c.old["draw"]
        assert at_decision(run_n.state, "draw") and run_n.state.window == "draw"
    assert {p.id for p in d.possible()} == {"WorkersAreKnowledgable"}      # it is no longer a draw skill


def test_moving_tables_and_renaming_files_stay_quiet(old):
    t = shipped()
    # a skill table moved to another file, a character file renamed, a giver's gives tables swapped
    src = t.pop("characters/mao_bu_ba.toml")
    char, skill = src.split("[[skill]]", 1)
    t["characters/renamed-mao.toml"] = char
    t["cards.toml"] += "\n[[skill]]" + skill
    f = "characters/wang_tian_xiang.toml"
    head, g1, g2 = t[f].split("[[skill.gives]]")
    t[f] = head + "[[skill.gives]]" + g2.rstrip("\n") + "\n\n[[skill.gives]]" + g1.rstrip("\n") + "\n"
    new = load(t, "new")
    assert [g.grant for g in new.skills["JinBi"].gives] == ["CannotPlayCard", "InvalidSkill"]
    assert changed_rules(old, new) == {}
    d = Differ(old, new)
    assert d.changes() == [] and d.possible() == [] and not d.inconclusive


def test_a_renamed_character_and_skill_are_read_as_one_and_stay_quiet(old):
    t = shipped()
    f = "characters/mao_bu_ba.toml"
    t[f] = (t[f].replace('id = "mao_bu_ba"\nname = "毛不拔"', 'id = "mao_da_ba"\nname = "毛大拔"')
            .replace('"QiHuoKeJu"', '"QiHuo"').replace('name = "奇货可居"', 'name = "奇货"'))
    new = load(t, "new")
    assert changed_rules(old, new) == {"QiHuo": "renamed from QiHuoKeJu", "mao_da_ba": "renamed from mao_bu_ba"}
    d = Differ(old, new)
    assert d.renamed == {"QiHuo": "QiHuoKeJu", "mao_da_ba": "mao_bu_ba"}
    assert d.changes() == [] and d.possible() == [] and not d.inconclusive
    # renamed and changed: not a rename any more, so a new character (and one gone)
    t[f] = t[f].replace("hidden = false", "hidden = true")
    new = load(t, "new")
    assert changed_rules(old, new)["mao_da_ba"] == "added" and changed_rules(old, new)["mao_bu_ba"] == "removed"
    d = Differ(old, new)
    ids = {(p.id, p.side, p.reason["kind"]) for p in d.possible()}
    assert ("mao_da_ba", "new", "unreadable") in ids and ("mao_bu_ba", "old", "unreadable") in ids


def test_a_one_sided_situation_is_shown_as_a_game_of_its_version(old):
    """The witness of a situation possible in one version is made a game of the server under that version
    (checks/realise.py, as a changed answer's is): the game replays there, shows the same situation, and the other
    version's reason is read on the game — or, where no game reaches it, the timed trace stays with why."""
    new = edited("skill added to a character")
    d = Differ(old, new)
    p = next(p for p in d.possible() if p.id == "mao_bu_ba" and p.side == "new")
    assert p.trace.get("table") and p.unrealised is None
    assert any(e["event"] == "draw" for e in p.trace["events"])
    assert_replays(old, new, d, p)
    assert "unrealised" not in p.to_dict()["witness"]
    # 变则通 fires at 传递阶段开始时 only: a site widened to 出牌阶段 reaches a situation no game of NEW plays
    new = edited("at widened")
    p = next(p for p in Differ(old, new).possible() if p.id == "BianZeTong#0")
    assert not p.trace.get("table") and p.unrealised["en"]
    assert p.to_dict()["witness"]["unrealised"] == p.unrealised
