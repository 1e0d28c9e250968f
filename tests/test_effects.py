"""Effects as data: the ``do`` key (what a rule or card does, as effect ops — model/effects.py), read by the loader
with located errors in both languages; the vocabulary; the JSON Schema; the shipped catalogue's figures
(``skillproof catalogue --coverage``) and every shipped card's effect as data."""
from __future__ import annotations

import json
import os

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skillproof.model import coverage as C
from skillproof.model import effects as X
from skillproof.model import loader, schema
from skillproof.model.loader import CatalogueErrors

from conftest import FIXTURES

BASE = open(os.path.join(FIXTURES, "families", "base.toml"), encoding="utf-8").read()


def load(text: str):
    return loader.load(texts={"base.toml": BASE, "t.toml": text})


def errors_of(text: str):
    with pytest.raises(CatalogueErrors) as ei:
        load(text)
    return ei.value.errors


def only(errs, key):
    hits = [e for e in errs if e.key == key]
    assert hits, f"no error at key {key!r}: {[str(e) for e in errs]}"
    assert all(e.file == "t.toml" for e in hits)
    return hits[0]


def rule(body: str, kinds='["TriggeredSkill"]', ident="S", extra="") -> str:
    """One rule (line 1 is its header; ``body`` starts at line 5)."""
    return f'[[skill]]\nid = "{ident}"\nname = "测"\nkinds = {kinds}\n{body}\n{extra}'


ON_RECEIVE = 'on = { event = "receive", whose = "sender" }\n'


# ------------------------------------------------------------------------------------------------ valid
def test_every_form_of_do_loads_with_its_lines():
    text = rule(ON_RECEIVE + 'do = [{ op = "draw", who = "receiver", n = 2 }, { op = "discard", n = "hand_count - 1", '
                'if = "receiver != self and black in message" }]') + \
        rule(ON_RECEIVE + '[[skill.do]]\nop = "draw"\n[[skill.do]]\nop = "choose"\nwho = "receiver"\nmay = true\n'
             'of = [[{ op = "draw", who = "receiver" }], [{ op = "take", from = "receiver", which = "random" }, '
             '{ op = "prose", note = "还有别的" }]]', ident="T") + \
        '[[card]]\nid = "K"\nname = "K"\nwindows = { main = "turn" }\n' \
        'do = [{ op = "put_message", to = "target", from = "deck_top", three = "to_hand", by = "self" }]\n'
    cat = load(text)
    s, t, k = cat.skills["S"], cat.skills["T"], cat.cards["K"]
    assert [(o.op, o.args["who"], o.loc.line) for o in s.do] == [("draw", "receiver", 6), ("discard", "self", 6)]
    assert s.do[0].args["n"] == 2 and s.do[1].args["n"].type == "int" and s.do[1].cond is not None
    assert [(o.op, o.loc.line) for o in t.do] == [("draw", 12), ("choose", 14)]
    ch = t.do[1]
    assert ch.may and ch.args["who"] == "receiver" and [[o.op for o in alt] for alt in ch.options] == [["draw"], ["take", "prose"]]
    assert [o.op for o in X.walk(t.do)] == ["draw", "choose", "draw", "take", "prose"] and X.is_prose(t.do)
    assert k.do[0].args == {"to": "target", "from": "deck_top", "n": 1, "colour": "any", "three": "to_hand", "by": "self"}
    rows = {c.rule.id: (c.effect, c.effect_by) for c in C.coverage(cat) if c.rule.id in ("S", "T")}
    assert rows == {"S": ("data", ("do",)), "T": ("part", ("do",))}
    assert {c.card.id: c.effect for c in C.card_coverage(cat)}["K"] == "data"


def test_an_active_skill_names_its_windows_players_and_a_grant_its_own_site():
    text = rule('do = [{ op = "grant", grant = "G", to = "target" }, { op = "move_message", to = "front_left" }, '
                '{ op = "skip", phase = "fight" }, { op = "swap", what = "identity", b = "chosen" }, { op = "end_turn" }]',
                kinds='["ActiveSkill"]', extra='[[skill.gives]]\ngrant = "G"\nto = "target"\n') + \
        '[[grant]]\nid = "G"\nname = "给"\nkinds = ["OneTurnSkill"]\nlifetime = "turn"\n'
    cat = load(text)
    assert [o.op for o in cat.skills["S"].do] == ["grant", "move_message", "skip", "swap", "end_turn"]


def test_a_prose_only_do_counts_as_prose():
    cat = load(rule('do = [{ op = "prose", note = "全是文字" }]', kinds='["ActiveSkill"]'))
    assert {c.rule.id: c.effect for c in C.coverage(cat)}["S"] == "prose"


# ---------------------------------------------------------------------------------------------- invalid
@pytest.mark.parametrize("body, key, zh, en", [
    ('do = [{ op = "drw" }]', "do[0].op", "未知的效果操作", "did you mean"),
    ('do = [{ n = 1 }]', "do[0].op", "缺少必需的键 'op'", "missing required key 'op'"),
    ('do = [{ op = 3 }]', "do[0].op", "未知的效果操作", "unknown effect op"),
    ('do = [{ op = "draw", who = "recever" }]', "do[0].who", "一名角色", "did you mean"),
    ('do = [{ op = "draw", who = 1 }]', "do[0].who", "一名角色", "must be a player"),
    ('do = [{ op = "draw", n = true }]', "do[0].n", "非负整数", "non-negative integer"),
    ('do = [{ op = "draw", n = -1 }]', "do[0].n", "0 到 100", "between 0 and 100"),
    ('do = [{ op = "draw", n = "alive" }]', "do[0].n", "第 1 列", "at column 1"),
    ('do = [{ op = "draw", if = "hand_count +" }]', "do[0].if", "第", "column"),
    ('do = [{ op = "draw", if = 1 }]', "do[0].if", "表达式字符串", "expression string"),
    ('do = [{ op = "draw", may = "yes" }]', "do[0].may", "'true' 或 'false'", "true or false"),
    ('do = [{ op = "draw", note = 1 }]', "do[0].note", "字符串", "must be a string"),
    ('do = [{ op = "draw", colour = "red" }]', "do[0].colour", "未知的键", "unknown key"),
    ('do = [{ op = "discard", colour = "purple" }]', "do[0].colour", "必须是", "must be"),
    ('do = [{ op = "discard", card = "Nope" }]', "do[0].card", "未知的牌", "unknown card"),
    ('do = [{ op = "discard", card = [] }]', "do[0].card", "非空列表", "non-empty list"),
    ('do = [{ op = "give" }]', "do[0].to", "缺少必需的键 'to'", "missing required key 'to'"),
    ('do = [{ op = "grant", grant = "G" }]', "do[0].grant", "[[…gives]]", "has no [[…gives]]"),
    ('do = [{ op = "skip", phase = "mian" }]', "do[0].phase", "未知的阶段", "unknown phase"),
    ('do = [{ op = "prose", note = "  " }]', "do[0].note", "非空字符串", "non-empty string"),
    ('do = [{ op = "choose", of = [[{ op = "draw" }]] }]', "do[0].of", "may = true", "may = true"),
    ('do = [{ op = "choose", of = [] }]', "do[0].of", "非空列表", "non-empty list"),
    ('do = [{ op = "choose", of = [[{ op = "draw" }], [{ op = "nope" }]] }]', "do[0].of[1][0].op", "未知的效果操作",
     "unknown effect op"),
    ('do = [{ op = "take", from = "receiver", as = "Taken" }]', "do[0].as", "小写字母", "lower-case letters"),
    ('do = [{ op = "take", from = "receiver", as = "receiver" }]', "do[0].as", "已经有别的意思", "already means"),
    ('do = [{ op = "take", from = "receiver", as = "alive" }]', "do[0].as", "已经有别的意思", "already means"),
    ('do = [{ op = "take", from = "receiver", as = "t" }, { op = "give", to = "receiver", as = "t" }]', "do[1].as",
     "已经有别的意思", "already means"),
    ('do = [{ op = "take", from = "receiver", if = "t > 0", as = "t" }]', "do[0].if", "第 1 列", "at column 1"),
    ('do = [{ op = "draw", if = "black in it" }]', "do[0].if", "第", "column"),
    ('do = [{ op = "remove_message", where = "it > 1" }]', "do[0].where", "第", "column"),
    ('do = [{ op = "draw", as = "x" }]', "do[0].as", "未知的键", "unknown key"),
    ('do = [{ op = "give", to = "receiver", up_to = "x" }]', "do[0].up_to", "第 1 列", "at column 1"),
    ('do = []', "do", "非空列表", "non-empty list"),
    ('do = { op = "draw" }', "do", "非空列表", "non-empty list"),
    ('do = [1]', "do[0]", "必须是表", "must be a table"),
])
def test_each_kind_of_invalid_do_is_located_in_both_languages(body, key, zh, en):
    e = only(errors_of(rule(ON_RECEIVE + body)), key)
    assert e.line == 6
    assert zh in e.render("zh") and en in e.render("en")


def test_do_on_a_rule_that_does_not_act_and_the_limits():
    e = only(errors_of(rule('convert = { from = "A", to = ["B"], must = false }\ndo = [{ op = "draw" }]',
                            kinds='["ConvertCardSkill"]')), "do")
    assert "ActiveSkill" in e.render("en") and e.line == 6
    many = ", ".join(['{ op = "draw" }'] * 65)
    assert "limit" in only(errors_of(rule(ON_RECEIVE + f"do = [{many}]")), "do").render("en")
    deep = '{ op = "draw" }'
    for _ in range(X.DEPTH):
        deep = '{ op = "choose", of = [[' + deep + '], [{ op = "draw" }]] }'
    errs = errors_of(rule(ON_RECEIVE + f"do = [{deep}]"))
    assert any("nested" in e.render("en") for e in errs)


def test_names_for_what_an_op_moved_and_conditions_on_its_card():
    """``as`` names what an op moved for the ops after it (an int for hand cards, the colours of a card put or taken
    out of an area); ``where`` is a condition on the card an op moves (``it``); ``up_to`` lets the actor pick how many."""
    cat = load(rule(ON_RECEIVE + 'do = [{ op = "take", from = "receiver", n = 1, up_to = "receiver.hand_count", as = "t" }, '
                    '{ op = "give", to = "receiver", n = "t", if = "t > 0" }, '
                    '{ op = "remove_message", whose = "receiver", where = "black in it or red in it", as = "m" }, '
                    '{ op = "put_message", to = "receiver", where = "it == m", if = "not (blue in m)" }]'))
    do = cat.skills["S"].do
    assert do[0].args["as"] == "t" and do[0].args["up_to"].type == "int"
    assert do[2].args["where"].type == "bool" and X.bindings(do) == {"t": "int", "m": "set<colour>"}


def test_a_trigger_s_effect_names_only_its_events_players():
    e = only(errors_of(rule(ON_RECEIVE + 'do = [{ op = "draw", who = "victim" }]')), "do[0].who")
    assert "receiver" in e.render("en")
    # an event's values are words of its effect's conditions
    load(rule(ON_RECEIVE + 'do = [{ op = "draw", if = "message_colours > 1 and message_in_area" }]'))


VALUES = st.recursive(
    st.sampled_from(['"draw"', '"choose"', '"self"', '"receiver"', '"x +"', '"alive"', "1", "-3", "true", '""', '"hand"',
                     '"Jie_Huo"', '"black"', '"prose"', '"hand_count"']),
    lambda inner: st.lists(inner, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]")
    | st.lists(st.tuples(st.sampled_from(["op", "who", "n", "if", "may", "note", "of", "to", "from", "colour", "card",
                                          "grant", "three", "x"]), inner), max_size=5)
    .map(lambda kv: "{ " + ", ".join(f"{k} = {v}" for k, v in dict(kv).items()) + " }"),
    max_leaves=10)


@settings(max_examples=300, deadline=None)
@given(VALUES, st.sampled_from(['["TriggeredSkill"]', '["ActiveSkill"]', '["ConvertCardSkill"]']))
def test_no_do_value_raises_anything_but_located_errors(value, kinds):
    body = (ON_RECEIVE if kinds == '["TriggeredSkill"]' else "") + f"do = {value}"
    try:
        load(rule(body, kinds=kinds))
    except CatalogueErrors as e:
        for err in e.errors:
            assert err.file in ("t.toml", "base.toml") and err.line >= 1 and err.message and err.key


# -------------------------------------------------------------------------------------------- vocabulary
def test_the_vocabulary_says_what_each_op_mirrors_and_every_type_is_read():
    assert set(X.OPS) >= {"draw", "discard", "give", "take", "show", "put_message", "remove_message", "flip",
                          "move_message", "redirect", "lock", "replace_message", "send_message", "cancel", "grant",
                          "end_turn", "skip", "swap", "receive", "kill", "choose", "prose"}
    types = {X.PLAYER, X.AMOUNT, X.CARDS, X.GRANT, X.OPTIONS, X.TEXT, X.BOOL, X.PHASE, X.NAME, X.COND, X.BODY, "enum"}
    for o in X.OPS.values():
        assert o.server and o.zh and o.en
        for a in o.args:
            assert a.type in types and a.zh and a.en and (a.name not in X.COMMON or (o.key, a.name) == ("prose", "note"))
            if a.type == "enum":
                assert a.choices and (a.default is None or a.default in a.choices)
    assert X.players_of(()) [:2] == ("self", "target") and "front_left" in X.players_of(())


def test_the_schema_describes_do_and_the_shipped_catalogue_meets_it():
    sch = schema.build()
    do = sch["properties"]["skill"]["items"]["properties"]["do"]
    assert {o["properties"]["op"]["const"] for o in do["items"]["oneOf"]} == set(X.OPS)
    assert sch["properties"]["card"]["items"]["properties"]["do"] == do
    import tomllib
    cat_dir = os.path.join(os.path.dirname(loader.__file__), "catalogue")
    v = jsonschema.Draft202012Validator(sch)
    for root, _, files in os.walk(cat_dir):
        for f in files:
            if f.endswith(".toml"):
                with open(os.path.join(root, f), "rb") as fh:
                    v.validate(tomllib.load(fh))
    path = os.path.join(os.path.dirname(loader.__file__), "schema.json")
    assert json.load(open(path, encoding="utf-8")) == json.loads(schema.dumps())


# ---------------------------------------------------------------------------------- the shipped catalogue
@pytest.fixture(scope="module")
def shipped():
    return loader.load(None)


def test_every_shipped_card_has_its_effect_as_data(shipped):
    rows = C.card_coverage(shipped)
    assert len(rows) == 13 and all(c.card.do for c in rows)
    assert all(c.effect in ("data", "exception", "part") for c in rows)
    assert C.card_counts(rows)["effect"] == {"data": 10, "exception": 3, "part": 0, "prose": 0}
    by = {c.card.id: [o.op for o in c.card.do] for c in rows}
    assert by["Jie_Huo"] == ["move_message"] and by["Ping_Heng"] == ["discard", "discard", "draw", "draw"]
    assert by["Diao_Hu_Li_Shan"] == ["choose"]


def test_shipped_effect_figures(shipped):
    n = C.counts(C.coverage(shipped), "server")
    assert n["rules"] == 101 and n["effect"] == {"data": 88, "exception": 13, "part": 0, "prose": 0} and n["with_do"] == 85
    # every acting server rule writes do
    acting = [r for r in shipped.skills.values() if r.origin == "server" and (r.has("ActiveSkill") or r.has("TriggeredSkill"))]
    assert acting and all(r.do for r in acting)
    rb = C.counts(C.coverage(shipped), "rulebook")
    assert rb["with_do"] == 2


def test_catalogue_coverage_says_the_effects(capsys):
    from skillproof.cli import main
    assert main(["--lang", "en", "catalogue", "--coverage"]) == 0
    out = capsys.readouterr().out
    assert ("effect (what it does): 101 of 101 server rules modelled as data (13 of them with a named exception: what "
            "the model does not see, listed below), 0 in part, 0 only as prose (85 write 'do')") in out
    assert "  cards: 13 of 13 as data (3 with a named exception), 0 in part, 0 only as prose" in out
    assert "  截获 Jie_Huo · card — effect: data move_message" in out
    assert main(["catalogue", "--coverage"]) == 0
    out = capsys.readouterr().out
    assert ("效果（做什么）：101 条服务器规则中 101 条是数据（其中 13 条有注明的例外：模型看不到的部分，见下），0 条部分是数据，"
            "0 条只有文字（85 条写了 'do'）") in out
    assert "  牌：13 种牌中 13 种是数据（其中 3 种有注明的例外），0 种部分是数据，0 种只有文字" in out
    assert main(["catalogue", "--coverage", "--format", "json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["counts"]["cards"]["effect"]["data"] == 10 and d["counts"]["ops"]["draw"] > 0
    st = next(c for c in d["cards"] if c["id"] == "Shi_Tan")
    assert st["effect"]["status"] == "exception" and st["effect"]["exceptions"][0]["why"] == "hidden_card"
    assert d["reasons"]["hidden_card"]["en"] and d["counts"]["exceptions"] >= 14
    jh = next(c for c in d["cards"] if c["id"] == "Jie_Huo")
    assert jh["effect"]["status"] == "data" and jh["effect"]["do"][0]["op"] == "move_message"
    ym = next(r for r in d["rules"] if r["id"] == "YuSiWangPo")
    assert ym["effect"]["do"][1]["n"] == "black_messages + 1" and ym["effect"]["do"][1]["if"] == "target != self"


def test_the_format_doc_lists_every_op_and_the_limits():
    from skillproof.model import limits as L
    doc = open(os.path.join(os.path.dirname(__file__), "..", "docs", "catalogue-format.md"), encoding="utf-8").read()
    section = doc.split("### do — what a rule or a card does", 1)[1].split("### fires", 1)[0]
    for o in X.OPS.values():
        assert f"| `{o.key}` | {o.en} |" in section, o.key
    assert f"| {L.EFFECT_OPS_PER_RULE} / {X.DEPTH} |" in doc.split("## Limits", 1)[1]
