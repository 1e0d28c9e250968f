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
    "CV002|HunShuiMoYu|BianZeTong2",     # …and SP阿芙罗拉's 浑水摸鱼
    "CV002|YiWenAnHao|BianZeTong2",      # …and 陈安娜's 译文暗号
    'BN001|QiangLing>CannotPlayCard>all>{"all_cards":false}|YingBian',   # 强令 bans 截获; 应变 plays it as 误导
    "UR001|MiXin",                       # 密信: a server class no role holds
    "OD002|result|BiYiShuangFei|WeiSheng",   # 比翼双飞 and 尾声 disagree by seat order
    "OD002|win|BaiYueGuang|YiZhongRen",      # 白月光 and 意中人 declare different winners by order
    "IV002|JiuJi2|until_fired",          # 就计's follow-up is not a one-turn skill
    "UR004|convert|YingBian|BianZeTong2",  # 变则通 declaring 截获→误导 fires instead of 应变
])
def test_known_real_findings(result, key):
    assert key in keys(result[1])


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
