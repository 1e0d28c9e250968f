"""Chinese as a first language of the question grammar (issue 25): the lexer's split of a run of Chinese, the
phrasebook's rewriting (columns kept), clauses closed by a postposition or a comma, a question's topic, 只有 / 只能,
谁, the roles of the table — each role's two meanings (compile.py on the symbolic trace, evaluate.py on the trace the
interpreter runs) agreeing on random traces — and the nearest accepted phrasing of a refused question."""
from __future__ import annotations

import random

import pytest
import z3

from skillproof.checks import ask as Q
from skillproof.checks.ask.compile import Compiler
from skillproof.checks.ask.evaluate import eval_given
from skillproof.checks.ask.lexer import tokenize
from skillproof.model import loader

from test_ask import holds_in_interpreter


@pytest.fixture(scope="module")
def cat():
    return loader.load(None)


@pytest.fixture(scope="module")
def sess(cat):
    return Q.Session(cat)


def words(cat, text):
    return [t.text for t in tokenize(text, Q.Names(cat))][:-1]


@pytest.mark.parametrize("text, want", [
    ("发动后来人之后", ["发动", "后来人", "之后"]),                 # the fewest pieces, not 发动后 来人
    ("张一挺禁用了截获", ["张一挺", "禁用", "了", "截获"]),          # of two splits as short, longer pieces first
    ("锁定1人", ["锁定", "1", "人"]),
    ("SP李宁王能把截火当作误导", ["SP李宁王", "能", "把", "截火", "当作", "误导"]),   # unknown pieces kept whole
    ("濒死阶", ["濒死阶"]),                                          # a longer word misspelt, not 濒死 and 阶
])
def test_a_run_of_chinese_is_split_into_known_words(cat, text, want):
    assert words(cat, text) == want


def test_an_error_in_a_chinese_question_points_at_what_was_written(cat):
    text = "张一挺禁用了截获，SP李宁玉还能发动应变将截火视为误导使用吗？"
    with pytest.raises(Q.QueryError) as e:
        Q.parse(cat, text)
    assert text[e.value.col:e.value.end] == "截火" and "截获" in e.value.msg
    assert e.value.nearest == text.replace("截火", "截获")
    Q.parse(cat, e.value.nearest)


def kinds(q):
    return sorted(g.kind for g in q.givens)


@pytest.mark.parametrize("text, mode, subject, claim, givens", [
    ("SP李宁玉被禁闭后还能发动应变吗？", "exists", "sp_li_ning_yu", ["fire"], ["grant"]),
    ("有人濒死时，顾小梦能发动急智吗？", "exists", "gu_xiao_meng", ["use"], ["window"]),
    ("顾小梦已经翻开时还能发动急智吗？", "exists", "gu_xiao_meng", ["use"], ["claim"]),
    ("李书云面朝下能发动定论吗？", "exists", "li_shu_yun", ["use"], ["claim"]),
    ("张一挺禁用了截获，SP李宁玉还能把截获当作误导使用吗？", "exists", "sp_li_ning_yu", ["play"], ["grant"]),
    ("后来人之后，还持有后来人吗？", "exists", None, ["hold"], ["after"]),
    ("博爱一回合能发动两次吗？", "exists", None, ["use"], []),
    ("截获能在别人的回合使用吗？", "exists", None, ["play"], ["turn_of"]),
    ("被锁定的角色能选择不接收吗？", "exists", None, ["receive"], ["where"]),
    ("传出者一定要接收吗？", "always", None, ["receive"], ["role"]),
    ("只有当前回合角色能在出牌阶段出牌吗？", "never", None, ["play"], ["claim", "window"]),
    ("后来人只能在自己濒死时发动吗？", "never", None, ["use"], ["claim"]),
    ("所有角色都不能在出牌阶段使用截获吗？", "never", None, ["play"], ["window"]),
    ("被密令的SP韩梅能发动冷血训练吗？", "exists", "sp_han_mei", ["use"], ["role"]),
    ("在别人的出牌阶段能打出平衡吗？", "exists", None, ["play"], ["turn_of", "window"]),
    ("争夺阶段，别人的回合里我能出牌吗？", "exists", None, ["play"], ["turn_of", "window"]),
    ("王响有两张红色情报、没有蓝色情报时摸几张牌？", "which", "huo_che_si_ji", [], ["where", "where"]),
    ("谁能在别人的回合发动偷天？", "which", None, ["use"], ["turn_of"]),
])
def test_chinese_forms_read_as_the_grammar_reads_them(cat, text, mode, subject, claim, givens):
    q = Q.parse(cat, text)
    assert (q.mode, q.subject) == (mode, subject), (q.mode, q.subject)
    assert [a.kind for a in Q.atoms_of(q.claim)] == claim
    assert kinds(q) == sorted(givens), [(g.kind, g.text) for g in q.givens]


@pytest.mark.parametrize("text, answer", [
    ("SP李宁玉被禁闭后还能发动应变吗？", "no"),
    ("被张一挺禁用误导以后，SP李宁玉还可以用应变吗？", "no"),      # 'use' of a conversion: a card reaches play
    ("张一挺禁用了截获，SP李宁玉还能发动应变将截获视为误导使用吗？", "yes"),
    ("冷血训练以后所有角色本回合都不能用调包了吗？", "yes"),      # 'under' a giver: the grants that bear on it
    ("在别人的回合，SP韩梅发动冷血训练后能否向上传出并锁定1人？", "yes"),
    ("谁能在别人的出牌阶段出牌？", "no"),
    ("SP韩梅发动冷血训练时必须锁定一个人吗？", "yes"),          # never another number locked
    ("王田香发动禁闭需要在自己的出牌阶段吗？", "yes"),          # 'only' after the claim: never but then
    ("被锁定的玩家可不可以不收情报？", "no"),
    ("陈大耳宣言了截获当调包，李宁玉（SP）的应变还能用吗？", "no"),   # an alias in brackets; 截获 only as 调包
    ("偷天在张一挺禁用截获后还能用吗？", "yes"),                 # TouTian.kt: JieHuo.Companion.canUse, no ban
    ("当前回合角色以外的人能在出牌阶段出牌吗？", "no"),
])
def test_chinese_questions_are_answered_and_replayed(sess, text, answer):
    res = sess.ask(text)
    assert res.answer == answer, res.headline
    holds_in_interpreter(sess.cat, res)


def test_english_forms(sess):
    q = sess.parse("can anyone be skipped in 濒死求澄清 after 后来人 where hand_count == 0 when not invalidated")
    assert [g.kind for g in q.givens] == ["after", "where", "claim"]    # 'when' ends the 'where' condition
    assert sess.parse("can the sender lock himself?").givens[0].rule == "sender"
    assert sess.parse("can a player who is not the sender be locked?").givens[0].kind == "claim"
    assert sess.parse("who can send left where message_dir == up?").which.kind == "player"
    res = sess.ask("who can send left where message_dir == up?")
    assert [v["value"] for v in res.values] == ["lao_bie"]


def test_a_refused_question_offers_the_nearest_accepted_phrasing(cat):
    for text in ("变则通宣言的A和B能是同一张牌吗？", "陈大耳宣言误导只能当调包后，SP李宁玉能把截获经应变再变成调包使用吗？",
                 "can a player choose the sender of 密令?"):
        with pytest.raises(Q.QueryError) as e:
            Q.parse(cat, text)
        assert e.value.nearest and e.value.nearest in e.value.msg
        Q.parse(cat, e.value.nearest)
    with pytest.raises(Q.QueryError) as e:              # an aside after the question is left out
        Q.parse(cat, "被锁定的角色能选择不接收吗？还有什么")
    assert e.value.nearest == "被锁定的角色能选择不接收吗？"
    with pytest.raises(Q.QueryError) as e:              # a kind of thing where one is asked about: one named
        Q.parse(cat, "如果被禁闭了，还能发动技能吗？")
    assert e.value.nearest == "如果被禁闭了，还能发动偷天吗？"


def test_each_role_means_the_same_in_both_back_ends(cat):
    """The roles of the table (a given of their own, not the condition language): compile.Compiler.role on a
    symbolic trace pinned to a random trace equals evaluate.role_holds on the state the interpreter reaches."""
    from crosskit import Harness, prepare_trace
    from randstate import hot_cards, interesting_characters
    from randtrace import random_trace
    from skillproof.checks.ask.syntax import Given
    h = Harness(cat)
    comp = Compiler(type("E", (), {"S": h.S, "cat": cat, "counter": 0})())
    roles = [Given("role", 0, 1, "", rule=r) for r in ("sender", "not_sender", "miling", "turn", "not_turn")] + \
        [Given("role", 0, 1, "", rule="sender_is", who=c) for c in ("lao_bie", "sp_han_mei", "huo_che_si_ji")]
    terms = [comp.given(g) for g in roles]
    rng = random.Random(25)
    hot, inter = hot_cards(cat), interesting_characters(cat)
    seen = 0
    for _ in range(300):
        tr = random_trace(rng, cat, n_max=h.S.n, g_max=h.S.G, turns_max=h.S.T, unknown_keys=h.unknown_keys, hot=hot,
                          interesting=inter)
        prepared = prepare_trace(h, tr)
        if prepared is None or not prepared[0].legal:
            continue
        run, eqs = prepared
        st = run.state
        st.trace = tr
        s = z3.Solver()
        s.add(eqs + [h.reach])
        assert s.check() == z3.sat
        m = s.model()
        for g, t in zip(roles, terms):
            assert z3.is_true(m.eval(t, model_completion=True)) == eval_given(cat, st, g), (g.rule, g.who, tr.to_dict())
        seen += 1
    assert seen >= 20
