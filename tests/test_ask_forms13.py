"""Readings stop 47 taught `ask` from the twelfth designers' table (issue 23): a question whether an ActiveSkill may be
used asks, beside its window's condition (the offer: server canUse), the checks of its use that read no player the use
or its window names (``requires_unplayered``: 移花接木's message on some living player, skill/YiHuaJieMu.kt:35); and a
table with no message — 所有角色都 / 场上 / 没有人有 / 其他角色都 没有情报 — is read over every living player, not
the player asked; 只有N张黑色情报 is the whole area (N black messages, none without black)."""
from __future__ import annotations

from askkit import cat, outcome, sess  # noqa: F401  (fixtures)
from skillproof.model import expr as E
from skillproof.model.interp.usable import USE_PLAYERS, WINDOW_PLAYERS, requires_unplayered


def test_the_checks_a_use_question_asks_read_no_player_of_the_use(cat):
    seen = 0
    for rid, r in sorted(cat.skills.items()):
        if getattr(r, "requires", None) is None:
            continue
        got = requires_unplayered(r.requires)
        assert all(c in E.conjuncts(r.requires) for c in got), rid
        for c in got:
            names = {x.name for x in E.walk(c) if isinstance(x, E.Var)}
            assert not names & (set(USE_PLAYERS) | WINDOW_PLAYERS), (rid, E.to_text(c))
        seen += bool(got)
    assert seen >= 10                                   # not used, not face_up … of most skills with requires
    han = [E.to_text(c) for c in requires_unplayered(cat.skills["YiHuaJieMu"].requires)]
    assert len(han) == 3 and "not face_up" in han
    # 博爱's target tests read the target: only `not used` is asked of a use named by nobody
    assert [E.to_text(c) for c in requires_unplayered(cat.skills["BoAi"].requires)] == ["not used"]


def test_a_use_needs_what_the_server_checks_of_the_table(cat, sess):
    # skill/YiHuaJieMu.kt:35 场上没有情报，不能发动: whatever the wording of an empty table (was yes: the offer only)
    for q in ("所有角色都没有情报时，韩梅能发动移花接木吗", "没有人有情报时，韩梅能发动移花接木吗",
              "场上没有情报时，韩梅能发动移花接木吗"):
        got, text, _ = outcome(cat, sess, q)
        assert got == "no", f"{q}: {got}\n{text}"
    # her own empty area is not the test: another's message will do
    got, text, _ = outcome(cat, sess, "韩梅没有情报时能发动移花接木吗")
    assert got == "yes", text


def test_the_others_having_no_message_is_read_over_the_others(cat, sess):
    # 其他角色都没有情报时: every living player but the one asked (TaoQu.kt:76, HouZiQieXin.kt:69 — another's message)
    for q in ("其他角色都没有情报时，SP白菲菲能发动套取吗", "其他人都没有情报时，小铃铛能发动猴子窃信吗"):
        got, text, _ = outcome(cat, sess, q)
        assert got == "no", f"{q}: {got}\n{text}"


def test_only_n_black_messages_is_the_whole_area(cat, sess):
    # 只有一张黑色情报: that one and nothing else — no message without black (was read as the count of black alone: 转交,
    # which needs a non-black message, ZhuanJiao.kt:109, was yes); 只有一张红色情报 keeps the red one 转交 needs
    got, text, _ = outcome(cat, sess, "白小年情报区只有一张黑色情报时能发动转交吗")
    assert got == "no", text
    got, text, _ = outcome(cat, sess, "白小年情报区只有一张红色情报时能发动转交吗")
    assert got == "yes", text
