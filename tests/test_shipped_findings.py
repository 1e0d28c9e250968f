"""`skillproof check` on the shipped catalogue reports real findings about the real game."""
from __future__ import annotations

import pytest

from skillproof.checks.context import replay_problems, run
from skillproof.model import loader


@pytest.fixture(scope="module")
def result():
    cat = loader.load()
    return cat, run(cat)


def keys(res):
    return {f.key for f in res.findings}


def test_no_errors_and_nothing_inconclusive(result):
    _, res = result
    assert not res.inconclusive
    assert [f.message for f in res.findings if f.severity == "error"] == []


def test_every_witness_replays_through_the_interpreter(result):
    cat, res = result
    with_witness = [f for f in res.findings if f.witness]
    assert len(with_witness) >= 20
    for f in with_witness:
        assert replay_problems(cat, f.witness) == [], f.id


@pytest.mark.parametrize("key", [
    "CV002|YingBian|BianZeTong2",        # 变则通's declaration vetoes SP李宁玉's 应变
    "CV002|YiWenAnHao|BianZeTong2",      # …and 陈安娜's 译文暗号
    'BN001|QiangLing>CannotPlayCard>all>{"all_cards":false}|YingBian',   # 强令 bans 截获; 应变 plays it as 误导
    "UR001|MiXin",                       # 密信: a server class no role holds
    "OD002|win|BaiYueGuang|YiZhongRen",      # 白月光 and 意中人 declare different winners by seat order
    "UR004|convert|YingBian|BianZeTong2",  # 变则通 declaring 截获→误导 fires instead of 应变
    "RR001|CannotPlayCard|HouLaiRen",    # 后来人 replaces the role mid-turn: 调虎离山's ban is gone
    "BN004|RuBiZhiShi|BianZeTong2",      # 如臂指使 validates the declared type, resolves the physical card
])
def test_known_real_findings(result, key):
    assert key in keys(result[1])


@pytest.mark.parametrize("prefix", [
    # combinations that are never live in the same window of a turn (issue "Give the model time"):
    'BN001|QiangLing>CannotPlayCard>all>{"all_cards":false}|HunShuiMoYu',    # 强令's ban comes after 出牌阶段
    'BN001|JieCheYunHuo>CannotPlayCard>all>{"all_cards":false,"cards":["Wu_Dao"]}|HunShuiMoYu',
    'BN002|QiangLing>CannotPlayCard>all>{"all_cards":false}|GuiZha',         # 诡诈 only in 出牌阶段
    "CV002|HunShuiMoYu|BianZeTong2",     # 变则通's declaration exists from 陈大耳's 传递阶段开始时 on
    'UR004|ban|HunShuiMoYu|QiangLing',
    # 如臂指使 consults the bans of the target whose card it plays
    "BN002|",
    # 比翼双飞 acts only in its owner's turn, and the pass starts at the turn player
    "OD002|result|BiYiShuangFei|WeiSheng",
    # the follow-ups of 就计, 顺势而为 and 将计就计 fire when the card that gave them finishes (audit)
    "IV002|JiuJi2", "IV002|ShunShiErWei2", "IV002|JiangJiJiuJi2", "IV001|JiuJi#", "IV001|JiuJi>",
    # a receive rule lost by 后来人 could no longer matter: nobody can be dying while the message is passed
    "RR001|WorkersAreKnowledgable2", "RR001|XinGeLianLuo2", "RR001|YouDiShenRu2",
    # no living player lacks an identity (server Game.start deals red, blue, black)
    "RC002|YouDiShenRu2",
])
def test_false_findings_of_the_timeless_model_are_gone(result, prefix):
    bad = [k for k in keys(result[1]) if k.startswith(prefix) and ("RuBiZhiShi" in k or prefix != "BN002|")]
    assert bad == []


def test_replacement_wiping_a_ban_is_shown_as_a_trace(result):
    # the trace: 调虎离山 bans SP端木静 in 出牌阶段, she is dying, 后来人 replaces her role: the ban is gone
    _, res = result
    f = next(x for x in res.findings if x.key == "RR001|CannotPlayCard|HouLaiRen")
    kinds = [e["event"] for e in f.witness["trace"]["events"]]
    assert "give" in kinds and "replace" in kinds and kinds.index("give") < kinds.index("replace")
    assert f.witness["expect"] == {"holds": False}


def test_no_unsound_skip_in_the_real_game(result):
    # the server's skip test is coarse but never skips a player who could act
    assert not [f for f in result[1].findings if f.check in ("SK001", "SK002")]


def test_must_wins_receive_conflicts_are_reported_with_the_winner(result):
    cat, res = result
    rc = [f for f in res.findings if f.key == "RC001|YouDiShenRu2|XinGeLianLuo2"]
    assert rc and rc[0].details["winner"] == "must"


def test_how_the_catalogue_is_split_into_files_changes_no_report(result):
    # the same rules read as one file, in the reverse file order: the same questions, witnesses and report
    cat, res = result
    files = loader.catalogue_files([loader.shipped_path()])
    assert len(files) > 1
    whole = "\n".join(f.read_text(encoding="utf-8") for f in reversed(files))
    cat2 = loader.load(texts={"whole.toml": whole})
    assert list(cat2.characters) == list(cat.characters) == sorted(cat.characters)
    assert list(cat2.skills) == list(cat.skills) == sorted(cat.skills)
    res2 = run(cat2)
    assert [(f.id, f.severity, f.message) for f in res2.findings] == \
        [(f.id, f.severity, f.message) for f in res.findings]
    assert {r.loc.file for r in cat2.skills.values()} == {"whole.toml"}
