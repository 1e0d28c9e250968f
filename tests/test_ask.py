"""`skillproof ask`: the query language, its answers checked against the reference interpreter, the CLI."""
from __future__ import annotations

import json

import pytest
import z3

from skillproof.checks import ask as Q
from skillproof.checks.context import replay_problems
from skillproof.cli import main
from skillproof.model.interp.bans import banned
from skillproof.model.interp.conversion import conversion
from skillproof.model.interp.draw import draw_count
from skillproof.model.interp.plays import can_play
from skillproof.model.interp.receive import receive
from skillproof.model.interp.send import send_in_force
from skillproof.model.interp.skip import skip_dying
from skillproof.model.interp.usable import skill_usable_now, spent
from skillproof.model.interp import trace as TR
from skillproof.model.interp.play import run as play_run
from skillproof.model.state import State

from askkit import cat, sess  # noqa: F401  (fixtures)


# ------------------------------------------------------------------------------------- helpers
def replayed(cat, w: dict) -> State:
    """The state a witness's trace reaches, run event by event by the interpreter (it must be legal), with
    the trace; and the witness's questions are asked at their decision moments there."""
    assert "trace" in w, "a witness is a trace"
    trace = TR.Trace.from_dict(w["trace"])
    run = play_run(cat, trace)
    assert run.errors == [], run.errors
    st = run.state
    st.trace = trace
    assert st.to_dict() == w["state"], "the witness shows the state its trace reaches"
    assert replay_problems(cat, w) == [], "the witness does not replay"
    return st


def holds_in_interpreter(cat, res) -> None:
    """Everything an answer claims, checked with the reference interpreter (and z3 for cores)."""
    q = res.query
    if res.witness is not None:
        st = replayed(cat, res.witness)
        assert all(Q.eval_given(cat, st, g) for g in q.givens)
        if q.subject:
            assert st.seats[0].character == q.subject
        if q.claim is not None:
            want = res.witness_role == "example" or q.mode == "never"
            assert Q.eval_claim(cat, st, q.claim, want, q.windowed) == want
    if res.core:
        assert core_unsat(res.core), "the claimed core is satisfiable"
    if res.illustration is not None:
        st = replayed(cat, res.illustration)
        assert all(Q.eval_given(cat, st, g) for g in q.givens)
        assert Q.eval_claim(cat, st, q.claim, True, q.windowed) == (q.mode == "always")


def core_unsat(core) -> bool:
    s = z3.Solver()
    for it in core:
        s.add(it.expr)
    return s.check() == z3.unsat


def core_minimal(core) -> bool:
    for i in range(len(core)):
        s = z3.Solver()
        for j, it in enumerate(core):
            if j != i:
                s.add(it.expr)
        if s.check() != z3.sat:
            return False
    return True


def why_not(res) -> str:
    return " ".join(b["says"] for b in res.because)


# ------------------------------------------------------------------------------------- parsing
@pytest.mark.parametrize("text", [
    "can SP李宁玉 play 截获 as 误导",
    "can spliningyu play jiehuo as wudao",
    "can sp_li_ning_yu play Jie_Huo as Wu_Dao",
    "can SPLININGYU play JIEHUO as WUDAO?",
    "SP李宁玉能否把截获当作误导打出？",
])
def test_names_in_any_spelling(cat, text):
    q = Q.parse(cat, text)
    assert q.mode == "exists" and q.subject == "sp_li_ning_yu"
    a = Q.atoms_of(q.claim)[0]
    assert (a.kind, a.cards) == ("play", ("Jie_Huo", "Wu_Dao"))


@pytest.mark.parametrize("text", [
    "can SP李宁玉 play 截获 as 误导 under 变则通(A=截获, B=破译)",
    "can SP李宁玉 play 截获 as 误导 under 变则通(截获, 破译)",
    "can SP李宁玉 play 截获 as 误导 under 变则通(截获→破译)",
    "can SP李宁玉 play 截获 as 误导 under 变则通(截获 -> 破译)",
    "if 变则通 declares 截获→破译, can SP李宁玉 play 截获 as 误导",
    "can SP李宁玉 play 截获 as 误导 under bianzetong2(a=jiehuo, b=poyi)",
    "can SP李宁玉 play 截获 as 误导 under 变则通·宣言(A=Jie_Huo, B=Po_Yi)",
])
def test_grant_parameters_in_any_form(cat, text):
    q = Q.parse(cat, text)
    g = [x for x in q.givens if x.kind == "grant"][0].grant
    assert g.grants == ("BianZeTong2",)
    assert g.args == {"A": ("card", "Jie_Huo"), "B": ("card", "Po_Yi")}


def test_unknown_details_stay_unknown(cat):
    q = Q.parse(cat, "can anyone play 截获 as ? under 变则通")
    assert q.subject is None
    assert Q.atoms_of(q.claim)[0].cards == ("Jie_Huo", None)
    assert [x for x in q.givens if x.kind == "grant"][0].grant.args == {}


def test_ban_sugar(cat):
    q = Q.parse(cat, "can a player under 强令's ban on 截获 still get a 截获 into play?")
    g = q.givens[0].grant
    assert g.grants == ("CannotPlayCard",) and g.args == {"cards": ("set", ("Jie_Huo",))}
    assert {s.giver for s in g.sites} == {"QiangLing"}      # as he sends, or as he chooses to receive
    assert Q.atoms_of(q.claim)[0].cards == ("Jie_Huo", None)


@pytest.mark.parametrize("text, col, needle", [
    ("can SP李宁玉 play 截火 as 误导", 15, "did you mean 截获"),
    ("can SP李宁 play 截获 as 误导", 4, "did you mean SP李宁玉"),
    ("can SP李宁玉 plya 截获 as 误导", 10, "did you mean 'play'"),
    ("can SP李宁玉 play 截获 as 误导 under 变则通(C=截获)", 34, "no parameter 'C'"),
    ("can SP李宁玉 play 截获 as 误导 under 变则通(A=true)", 34, "parameter A is a card"),
    ("can SP李宁玉 play 截获 as 误导 where hand_cont > 0", 30, "did you mean 'hand_count'"),
    ("can SP李宁玉 play 截获 as 误导 under 应变", 30, "hands out no skill"),
    ("can SP李宁玉 play 应变 as 误导", 15, "is a skill"),
    ("can 顾小梦 be skipped in 濒死阶", 22, "expected a phase"),
    ("", 0, "empty query"),
])
def test_errors_point_at_the_word(cat, text, col, needle):
    with pytest.raises(Q.QueryError) as ei:
        Q.parse(cat, text)
    e = ei.value
    assert e.col == col, (e.col, e.msg)
    assert needle in e.msg
    line = e.line(text)
    assert line.startswith(f"query:1:{col + 1}:") and "\n" not in line


def test_caret_counts_wide_characters(cat):
    text = "can SP李宁玉 play 截火 as 误导"
    with pytest.raises(Q.QueryError) as ei:
        Q.parse(cat, text)
    shown, caret = ei.value.caret(text)
    assert caret.index("^") == Q.display_width(text[:15]) and caret.count("^") == 4


# ------------------------------------------------------------------------- the examples
def test_bianzetong_active_yes(cat, sess):
    res = sess.ask("can SP李宁玉 still play 截获 as 误导 while 变则通 is active?")
    assert res.answer == "yes"
    holds_in_interpreter(cat, res)
    st = State.from_dict(res.witness["state"])
    decl = [i for i in st.seats[0].skills if i.rule == "BianZeTong2"]
    assert decl, "the witness shows the declaration in force"
    a, b = decl[0].args["A"], decl[0].args["B"]
    assert a != "Jie_Huo" or b == "Wu_Dao"          # the only declarations that leave the play possible
    assert can_play(cat, st, 0, "Jie_Huo", "Wu_Dao")
    assert res.traces and res.traces[0].agrees


def test_bianzetong_veto_no(cat, sess):
    res = sess.ask("can SP李宁玉 play 截获 as 误导 under 变则通(A=截获, B=破译)")
    assert res.answer == "no" and res.witness is None
    holds_in_interpreter(cat, res)
    assert core_minimal(res.core)
    # the reasons name the declaration, with its catalogue lines, and the veto
    assert any(r["id"] == "BianZeTong2" and r["file"].endswith("characters/chen_da_er.toml") and r["line"] > 0
               for b in res.because for r in b["rules"])
    vetoes = [b for b in res.because if b["kind"] == "decides" and "vetoed" in b["says"]]
    assert vetoes and "position 3" in vetoes[0]["says"] and "must-conversion" in vetoes[0]["says"]
    # the illustrating state: the interpreter refuses the play there, by the veto
    st = State.from_dict(res.illustration["state"])
    assert not can_play(cat, st, 0, "Jie_Huo", "Wu_Dao")
    assert conversion(cat, st, 0, "Jie_Huo", "Po_Yi").ok


def test_bianzetong_other_card_yes(cat, sess):
    res = sess.ask("can SP李宁玉 play 截获 as 误导 under 变则通(A=破译)?")
    assert res.answer == "yes"
    holds_in_interpreter(cat, res)


def test_yingbian_under_declaration_no(cat, sess):
    res = sess.ask("if 变则通 declares 截获→破译, can SP李宁玉 use 应变?")
    assert res.answer == "no"
    holds_in_interpreter(cat, res)
    # no card at all lets 应变 fire, on the illustrating state
    st = State.from_dict(res.illustration["state"])
    for x in cat.cards:
        for y in cat.cards:
            c = conversion(cat, st, 0, x, y)
            assert c.via is None or st.seats[0].skills[c.via].rule != "YingBian"


def test_ban_sidestepped_yes(cat, sess):
    res = sess.ask("can a player under 强令's ban on 截获 still get a 截获 into play?")
    assert res.answer == "yes"
    holds_in_interpreter(cat, res)
    st = State.from_dict(res.witness["state"])
    assert banned(cat, st, 0, "Jie_Huo")
    q = res.witness["question"]
    assert q["actual"] == "Jie_Huo" and q["declared"] != "Jie_Huo"
    assert can_play(cat, st, 0, "Jie_Huo", q["declared"])
    via = conversion(cat, st, 0, "Jie_Huo", q["declared"]).via
    assert st.seats[0].skills[via].rule in ("YingBian", "HunShuiMoYu", "BianZeTong2")


def test_which_conversion_lists_every_way(cat, sess):
    res = sess.ask("which conversion fires when anyone plays 截获 as ? under 强令's ban on 截获")
    assert res.answer == "yes"
    values = {v["value"] for v in res.values}
    assert {"YingBian", "HunShuiMoYu", "BianZeTong2"} <= values
    for v in res.values:
        assert replay_problems(cat, v["witness"]) == []
        st = State.from_dict(v["witness"]["state"])
        if v["value"] in cat.skills:
            x, y = v["cards"]
            c = conversion(cat, st, 0, x, y)
            assert st.seats[0].skills[c.via].rule == v["value"]


def test_gu_xiao_meng_skipped_yes(cat, sess):
    res = sess.ask("can 顾小梦 be skipped in 濒死求澄清 while she holds cards?")
    assert res.answer == "yes"
    holds_in_interpreter(cat, res)
    st = State.from_dict(res.witness["state"])
    assert st.seats[0].hand_count > 0 and skip_dying(cat, st, 0)
    assert any("调虎离山" in s.text for s in res.origin)


def test_gu_xiao_meng_not_invalidated_no(cat, sess):
    res = sess.ask("can 顾小梦 be skipped in 濒死求澄清 while she holds cards and not invalidated?")
    assert res.answer == "no"
    holds_in_interpreter(cat, res)
    assert any(b["kind"] == "decides" and "集智" in b["says"] for b in res.because)


def test_which_declarations_of_bianzetong(cat, sess):
    """The issue's first example, in full: yes for every declaration but A=截获 with B≠误导."""
    res = sess.ask("which 变则通 declarations let SP李宁玉 play 截获 as 误导?")
    assert res.answer == "yes"
    got = {(v["value"]["A"], v["value"]["B"]): v["answer"] for v in res.values}
    assert len(got) == 12 and all(a != b for a, b in got)
    assert {k for k, a in got.items() if a == "no"} == {("Jie_Huo", "Po_Yi"), ("Jie_Huo", "Diao_Bao")}
    for v in res.values:
        w = v["witness"] if v["answer"] == "yes" else v["illustration"]
        assert replay_problems(cat, w) == []
        st = State.from_dict(w["state"])
        decl = [i for i in st.seats[0].skills if i.rule == "BianZeTong2"]
        assert decl and decl[0].args == {"A": v["value"]["A"], "B": v["value"]["B"]}
        assert can_play(cat, st, 0, "Jie_Huo", "Wu_Dao") == (v["answer"] == "yes")
        if v["answer"] == "no":
            assert any("vetoed" in b["says"] for b in v["because"])
        else:       # every listed witness is a table of living players (not only the first, made plainest)
            assert all(s.alive for s in st.seats)


@pytest.mark.parametrize("q, answer", [
    ("can 王田香 use 禁闭 again in the main phase", "no"),         # limit = "turn": the server refuses a second use
    ("can 裴玲 use 交际 again in the main phase", "no"),
    ("can 王田香 use 禁闭 in the main phase", "yes"),
])
def test_a_skill_limited_to_once_a_turn_is_not_used_again(cat, sess, q, answer):
    assert cat.skills["JinBi"].limit == "turn"
    res = sess.ask(q)
    assert res.answer == answer
    if answer == "yes":
        holds_in_interpreter(cat, res)


def test_spent_is_the_limit_and_the_use(cat):
    from skillproof.model.state import Seat, SkillInst
    used, fresh = SkillInst("JinBi", used=True), SkillInst("JinBi")
    assert spent(cat, used) and not spent(cat, fresh)
    st = State(seats=[Seat(character="wang_tian_xiang", skills=[used]), Seat(character="qian_min")], turn=0,
               window="main")
    assert not skill_usable_now(cat, st, 0, used)
    st.seats[0].skills = [fresh]
    assert skill_usable_now(cat, st, 0, fresh)


def test_which_declarations_errors(cat):
    with pytest.raises(Q.QueryError) as ei:
        Q.parse(cat, "which 调虎离山 declarations let anyone play 截获")
    assert "no parameters left" in ei.value.msg


# --------------------------------------------------------------------------------- the modes
def test_always_gives_a_counterexample(cat, sess):
    res = sess.ask("always SP李宁玉 convert 截获 to 误导 when not invalidated")
    assert res.answer == "no" and res.witness_role == "counterexample"
    holds_in_interpreter(cat, res)
    st = State.from_dict(res.witness["state"])
    assert not conversion(cat, st, 0, "Jie_Huo", "Wu_Dao").ok


def test_always_proved_with_core(cat, sess):
    # (a card is played from the hand: with no card in hand she plays nothing — the counterexample without it)
    res = sess.ask("always SP李宁玉 play 截获 as 误导 when not invalidated and face up and not banned 误导 "
                   "and hand_count > 0 without 变则通·宣言")
    assert res.answer == "yes" and res.witness is None
    holds_in_interpreter(cat, res)
    assert core_minimal(res.core)


def test_never_proved(cat, sess):
    res = sess.ask("never anyone cannot receive where locked")
    assert res.answer == "yes"
    holds_in_interpreter(cat, res)
    st = State.from_dict(res.illustration["state"])
    assert st.seats[0].locked and receive(cat, st, 0) == "must"


def test_never_refuted(cat, sess):
    res = sess.ask("never anyone skipped in 争夺阶段 while holding cards")
    assert res.answer == "no"
    holds_in_interpreter(cat, res)


def test_vacuous_givens_are_said(cat, sess):
    res = sess.ask("can 王田香 be banned from 截获 under 禁闭?")
    assert res.answer == "no"
    holds_in_interpreter(cat, res)
    assert res.notes and "givens" in res.notes[0]
    assert "different character" in why_not(res)


def test_which_draw(cat, sess):
    res = sess.ask("how many cards does CP小九 draw")
    assert sorted(v["value"] for v in res.values) == [3, 4]
    for v in res.values:
        st = State.from_dict(v["witness"]["state"])
        assert draw_count(cat, st, 0) == v["value"]
        assert st.window == "draw" and st.turn == 0        # the draw is counted in the player's draw phase


def test_which_send(cat, sess):
    res = sess.ask("which send rule for lock for SP韩梅")
    assert {v["value"] for v in res.values} == {None, "MustLockOne"}
    for v in res.values:
        st = State.from_dict(v["witness"]["state"])
        assert st.window == "send_start" and st.turn == 0      # read where she sends: her send-phase start
        i = send_in_force(cat, st, 0, "SendMessageCanLockSkill")
        assert (st.seats[0].skills[i].rule if i is not None else None) == v["value"]


@pytest.mark.zh
def test_after_hou_lai_ren(cat, sess):
    """后来人 replaces the role of a dying player (server HouLaiRen): the trace shows the replacement, the
    question is answered on the new role's skills."""
    res = sess.ask("can anyone play 截获 as 误导 after 后来人?")
    assert res.answer == "yes"
    holds_in_interpreter(cat, res)
    st = replayed(cat, res.witness)
    repl = [e for e in st.trace.events if e.kind == "replace"]
    assert len(repl) == 1 and repl[0].seat == 0 and repl[0].character == st.seats[0].character
    old = st.trace.setup.seats[0].character
    assert "HouLaiRen" in cat.characters[old].skills and "HouLaiRen" not in cat.characters[st.seats[0].character].skills
    assert any("换成新角色" in s.text for s in res.origin)


@pytest.mark.parametrize("text, answer", [
    ("is 截获 banned for SP李宁玉 under 强令?", "yes"),
    ("can anyone use 毒计 in 濒死求澄清?", "no"),
    ("can 白昆山 use 毒计 in fight", "yes"),
    ("can 老鳖 send left locking 1", "yes"),
    ("can anyone must receive under 诱敌深入?", "yes"),
    ("can SP阿芙罗拉 use 浑水摸鱼 while face down?", "no"),
    ("can anyone fire 浑水摸鱼 when invalidated?", "no"),
    ("can anyone draw more than 3", "yes"),
    ("can 陈大耳 hold 变则通·宣言 and hold 不能出牌", "yes"),
    ("can anyone act in 争夺阶段 and skipped in 争夺阶段", "no"),
    ("can 老鳖 send direction by default", "yes"),
    ("can anyone play ? as 截获 where hand_count >= 2 and identity == blue", "yes"),
])
def test_more_questions(cat, sess, text, answer):
    res = sess.ask(text)
    assert res.answer == answer, res.headline
    holds_in_interpreter(cat, res)


def test_narrow_characters_do_not_change_answers(cat):
    """Grouping alike characters (for 'anyone', and at the other seats) gives the answers of the full
    search."""
    narrow, full = Q.Session(cat), Q.Session(cat)
    every = list(cat.characters)
    full.shape = lambda q, _s=full: (every,) + Q.Session.shape(_s, q)[1:4] + (every,)
    for text in ("can anyone play 截获 as 误导 under 变则通(A=截获, B=破译)",
                 "can anyone be skipped in 争夺阶段 when holding cards and not banned all",
                 "can anyone be skipped in 濒死求澄清 while holding cards and not invalidated",
                 "can anyone fire 浑水摸鱼 when invalidated",
                 "can 王田香 be banned from 截获 under 禁闭",
                 "can 顾小梦 be skipped in 濒死求澄清 while she holds cards",
                 "never anyone cannot receive where locked"):
        assert narrow.ask(text).answer == full.ask(text).answer


# --------------------------------------------------------------------------------------- CLI
def test_cli_yes_and_no_exit_0(capsys):
    assert main(["ask", "--lang", "en", "can SP李宁玉 still play 截获 as 误导 while 变则通 is active?"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("yes") and "witness" in out and "变则通·宣言" in out
    assert main(["ask", "--lang", "en", "if", "变则通", "declares", "截获→破译,", "can", "SP李宁玉", "use", "应变?"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("no") and "vetoed" in out and "characters/chen_da_er.toml:45" in out


def test_cli_json_schema(capsys):
    assert main(["ask", "--lang", "en", "--json", "can SP李宁玉 play 截获 as 误导 under 变则通(A=截获, B=破译)"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["answer"] == "no" and d["witness"] is None
    assert d["because"] and all({"kind", "says", "rules"} <= set(b) for b in d["because"])
    assert all({"id", "name", "file", "line"} <= set(r) for b in d["because"] for r in b["rules"])
    assert main(["ask", "--lang", "en", "--json", "can anyone play 截获 as 误导"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["answer"] == "yes" and set(d["witness"]) >= {"state", "question", "expect"}
    assert d["steps"] and d["because"] == []


def test_cli_bad_query_exit_2_one_line(capsys):
    assert main(["ask", "--lang", "en", "can SP李宁玉 play 截火 as 误导"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "query:1:16:" in err and "截获" in err and "Traceback" not in err
    with pytest.raises(SystemExit) as e:              # a usage error of the option (cli.optvalues: 1 … 9 seats)
        main(["ask", "--lang", "en", "--seats", "12", "can anyone play 截获"])
    assert e.value.code == 2 and "--seats must be at most 9" in capsys.readouterr().err


def test_cli_unknown_exit_3(capsys, monkeypatch):
    monkeypatch.setattr(z3.Solver, "check", lambda self, *a: z3.unknown)
    monkeypatch.setattr(z3.Solver, "reason_unknown", lambda self: "timeout")
    # the answers' solver is asked through checks/terms.check (z3's own call, without z3py's per-assumption casts)
    from skillproof.checks.ask import answer
    monkeypatch.setattr(answer, "_check", lambda solver, *a: z3.unknown)
    assert main(["ask", "--lang", "en", "can anyone play 截获 as 误导"]) == 3
    out = capsys.readouterr().out
    assert out.startswith("the solver could not decide") or "unknown" in out
    assert "timeout" in out


def test_cli_save_then_replay(tmp_path, capsys):
    f = tmp_path / "s.json"
    assert main(["ask", "--lang", "en", "can a player under 强令's ban on 截获 still get a 截获 into play?", "--save", str(f)]) == 0
    capsys.readouterr()
    d = json.loads(f.read_text(encoding="utf-8"))
    assert d["question"]["decision"] == "can_play" and d["expect"]["can_play"] is True
    assert main(["replay", "--lang", "en", str(f)]) == 0
    assert "as expected" in capsys.readouterr().out


def test_cli_custom_catalogue(capsys):
    from pathlib import Path
    syn = Path(__file__).parent / "fixtures" / "synthetic"
    assert main(["ask", "--lang", "en", "-c", str(syn), "can anyone be skipped in 争夺阶段"]) in (0, 3)
    out = capsys.readouterr().out
    assert out.startswith(("yes", "no"))
