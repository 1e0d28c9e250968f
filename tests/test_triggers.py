"""Triggers as data: the ``on`` key (the events a TriggeredSkill answers, model/events.py), read by the loader with
located errors; the engine's dispatch rules the loader enforces; the shipped catalogue's figures
(``skillproof catalogue --coverage``); the vocabulary against the server's event classes."""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skillproof.model import coverage as C
from skillproof.model import events as EV
from skillproof.model import expr as E
from skillproof.model import loader
from skillproof.model import vocab as V
from skillproof.model.loader import CatalogueErrors

from conftest import FIXTURES

BASE = open(os.path.join(FIXTURES, "families", "base.toml"), encoding="utf-8").read()


def load(text: str):
    return loader.load(texts={"base.toml": BASE, "t.toml": text})


def errors_of(text: str):
    with pytest.raises(CatalogueErrors) as ei:
        load(text)
    return ei.value.errors


def only(errs, needle):
    hits = [e for e in errs if needle in e.message]
    assert hits, f"no error mentions {needle!r}: {[str(e) for e in errs]}"
    assert all(e.file == "t.toml" for e in hits)
    return hits[0]


def rule(body: str, kinds='["TriggeredSkill"]', ident="S", table="skill", extra="") -> str:
    """One rule of id ``ident`` (line 1 is its table header; ``body`` starts at line 5)."""
    life = 'lifetime = "turn"\n' if table == "grant" else ""
    return f'[[{table}]]\nid = "{ident}"\nname = "测"\nkinds = {kinds}\n{life}{body}\n{extra}'


# ------------------------------------------------------------------------------------------------ valid
def test_every_form_of_on_loads_with_its_lines():
    text = rule('on = { event = "receive", whose = "sender", when = "receiver != self and not (black in message)" }') + \
        rule('on = [{ event = "card_resolved", when = "card == A and real_card" },\n'
             '      { event = "move", whose = "front", when = "not message_face_up and not used" }]', ident="T") + \
        rule('[[skill.on]]\nevent = "use_card"\nwhose = ["user", "target"]\nwhen = "card in {A, B} and card_valid"\n'
             '[[skill.on]]\nevent = "send"\nwhen = "dir != up and sender.black_messages > 0"', ident="U")
    cat = load(text)
    s, t, u = cat.skills["S"], cat.skills["T"], cat.skills["U"]
    assert [(o.event, o.whose, o.loc.line, o.once, o.guard_prose) for o in s.on] == [
        ("receive", ("sender",), 5, True, False)]
    assert E.to_text(s.on[0].when) == "(receiver != self) and not (black in message)"
    assert [(o.event, o.whose) for o in t.on] == [("card_resolved", ("any",)), ("move", ("front",))]
    assert [(o.event, o.whose, o.loc.line) for o in u.on] == [("use_card", ("user", "target"), 16),
                                                              ("send", ("any",), 20)]
    assert u.on[0].holder_roles() == ("user", "target") and s.on[0].holder_roles() == ("sender",)


def test_the_guard_reads_the_events_players_and_values_and_the_grants_parameters():
    text = rule('params = { color = "colour" }\non = { event = "receive", whose = "sender", when = "alive and '
                '(if color == red then receiver.red_messages > 0 else receiver.black_messages > 0)" }',
                kinds='["TriggeredSkill", "OneTurnSkill"]', table="grant", ident="G")
    g = load(text).skills["G"]
    roles = {n.name: n.role for n in E.walk(g.on[0].when) if isinstance(n, E.Var)}
    assert roles == {"self": "player", "color": "param", "receiver": "player"}


def test_whose_self_means_the_events_principal_and_a_state_is_not_once_per_event():
    cat = load(rule('on = { event = "send_phase_start", whose = "self" }') +
               rule('on = { event = "receive_phase", when = "alive and not used", guard_prose = true }', ident="T"))
    assert cat.skills["S"].on[0].holder_roles() == ("turn_player",)
    t = cat.skills["T"].on[0]
    assert (t.once, t.guard_prose, t.kind.is_event) == (False, True, False)


# ------------------------------------------------------------------------ the design note's rules, loaded
def test_design_note_rules_that_must_load():
    """A BeforeDieSkill answers its holder's death; a granted skill may too (the server asks a dead player's
    granted skills); an initial skill may answer another's death; a OneTurnSkill may answer the turn end (dealt
    before one-turn skills are dropped: NextTurn.resolve0)."""
    cat = load(rule('on = { event = "die", whose = "self", when = "face_up and hand_count > 0" }',
                    kinds='["TriggeredSkill", "BeforeDieSkill"]')
               + rule('on = { event = "die", whose = "victim" }', table="grant", ident="G")
               + rule('on = { event = "die", whose = "other", when = "alive" }', ident="T")
               + rule('on = { event = "turn_end", whose = "self" }', kinds='["TriggeredSkill", "OneTurnSkill"]',
                      table="grant", ident="H"))
    assert {r.id: r.on[0].event for r in cat.skills.values() if r.on} == {"S": "die", "G": "die", "T": "die",
                                                                         "H": "turn_end"}


def test_a_before_die_skill_may_answer_another_event():
    """The server's dispatch asks a dead holder's BeforeDieSkill on any event: such a server's catalogue loads."""
    cat = load(rule('on = { event = "receive", whose = "receiver" }', kinds='["TriggeredSkill", "BeforeDieSkill"]'))
    assert [o.event for o in cat.skills["S"].on] == ["receive"]


def test_an_initial_skill_answering_its_own_death_loads():
    """The server may hold such a skill (a planted edit dropping BeforeDieSkill from 遗信 and 如归): its extracted
    catalogue must load — the twins' dispatch rules the firing out and TR005 says so (tests/test_families_triggers.py)."""
    for whose in ('"self"', '"victim"', '["victim"]'):
        cat = load(rule(f'on = {{ event = "die", whose = {whose} }}'))
        assert not cat.skills["S"].has("BeforeDieSkill") and cat.skills["S"].on


def test_only_a_triggered_skill_has_on():
    for kinds in ('["ActiveSkill"]', '["OneTurnSkill"]', '["InvalidSkill"]'):
        table = "grant" if kinds != '["ActiveSkill"]' else "skill"
        e = only(errors_of(rule('on = { event = "send" }', kinds=kinds, table=table)), "TriggeredSkill")
        assert (e.line, e.key) == (5 + (table == "grant"), "on")


# ----------------------------------------------------------------------------------------------- invalid
@pytest.mark.parametrize("body, needle, line, key", [
    ('on = { event = "recieve" }', "did you mean 'receive'", 5, "on.event"),
    ('on = { event = 3 }', "unknown event", 5, "on.event"),
    ('on = { whose = "self" }', "missing required key 'event'", 5, "on.event"),
    ('on = { event = "use_card", whose = "sender" }', "has no 'sender'", 5, "on.whose"),
    ('on = { event = "use_card", whose = "usr" }', "did you mean 'user'", 5, "on.whose"),
    ('on = { event = "use_card", whose = ["user", "any"] }', "stand alone", 5, "on.whose"),
    ('on = { event = "use_card", whose = ["user", "user"] }', "names a role twice", 5, "on.whose"),
    ('on = { event = "use_card", whose = [] }', "a list of roles", 5, "on.whose"),
    ('on = { event = "use_card", whose = 1 }', "a list of roles", 5, "on.whose"),
    ('on = { event = "add_message", whose = "self" }', "belongs to nobody", 5, "on.whose"),
    ('on = { event = "send", when = "dir != up and" }', "column", 5, "on.when"),
    ('on = { event = "send", when = "hand_count" }', "expected a bool expression", 5, "on.when"),
    ('on = { event = "send", when = "card == A" }', "unknown name 'card'", 5, "on.when"),
    ('on = { event = "receive", when = "dir == up" }', "not available", 5, "on.when"),
    ('on = { event = "send", when = "recevier.alive" }', "unknown name", 5, "on.when"),
    ('on = { event = "send", when = 1 }', "expression string", 5, "on.when"),
    ('on = { event = "send", once = "yes" }', "true or false", 5, "on.once"),
    ('on = { event = "send", guard_prose = 1 }', "true or false", 5, "on.guard_prose"),
    ('on = { event = "receive_phase", once = true }', "a state, not an event", 5, "on.once"),
    ('on = { event = "send", bogus = 1 }', "unknown key 'bogus' in on", 5, "bogus"),
    ('on = "send"', "must be a table", 5, "on"),
    ('on = []', "must be a table", 5, "on"),
    ('on = [{ event = "send" }, 3]', "must be a table", 5, "on"),
    ('[[skill.on]]\nevent = "send"\n[[skill.on]]\nevent = "sned"', "did you mean 'send'", 8, "on.event"),
])
def test_each_kind_of_bad_on_is_located(body, needle, line, key):
    e = only(errors_of(rule(body)), needle)
    assert (e.file, e.line, e.key) == ("t.toml", line, key), str(e)


def test_too_many_entries_and_a_parameter_hiding_an_events_word():
    many = "on = [" + ", ".join('{ event = "send" }' for _ in range(40)) + "]"
    e = only(errors_of(rule(many)), "the limit is 32")
    assert (e.line, e.key) == (5, "on")
    e = only(errors_of(rule('params = { card = "card" }\non = { event = "use_card" }', table="grant")), "rename")
    assert (e.line, e.key) == (7, "on.event")


def test_errors_in_both_languages(monkeypatch):
    from skillproof.model import lang
    zh = only(errors_of(rule('on = { event = "recieve" }')), "receive")
    assert "未知的事件" in zh.text.zh and "unknown event" in zh.text.en
    del lang


TOML = st.recursive(
    st.sampled_from(['"send"', '"receive"', '"die"', '"self"', '"any"', '"sender"', '"x +"', '"alive"', "1", "true",
                     '"receive_phase"', '"card == A"', '""']),
    lambda inner: st.lists(inner, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]")
    | st.lists(st.tuples(st.sampled_from(["event", "whose", "when", "once", "guard_prose", "x"]), inner), max_size=4)
    .map(lambda kv: "{ " + ", ".join(f"{k} = {v}" for k, v in dict(kv).items()) + " }"),
    max_leaves=8)


@settings(max_examples=300, deadline=None)
@given(TOML, st.sampled_from(['["TriggeredSkill"]', '["TriggeredSkill", "BeforeDieSkill"]', '["ActiveSkill"]']))
def test_no_on_value_raises_anything_but_located_errors(value, kinds):
    try:
        load(rule(f"on = {value}", kinds=kinds))
    except CatalogueErrors as e:
        for err in e.errors:
            assert err.file in ("t.toml", "base.toml") and err.line >= 1 and err.message and err.key


# -------------------------------------------------------------------------------------------- vocabulary
#: the Event subclasses of the server's Event.kt (CuteReimu/TheMessage, read at 39de534a44b7)
SERVER_EVENT_CLASSES = {"PlayerDieEvent", "MessageMoveNextEvent", "TurnEndEvent", "SendPhaseStartEvent",
                        "ChooseReceiveCardEvent", "DiscardCardEvent", "AddMessageCardEvent", "UseCardEvent",
                        "FinishResolveCardEvent", "GiveCardEvent", "SendCardEvent", "ReceiveCardEvent"}


def test_every_server_event_class_has_exactly_one_kind():
    assert sorted(EV.SERVER_EVENT_CLASSES) == sorted(SERVER_EVENT_CLASSES)
    assert len(set(EV.SERVER_EVENT_CLASSES)) == len(EV.SERVER_EVENT_CLASSES)
    states = [k for k in EV.EVENT_KINDS.values() if not k.is_event]
    assert [k.server for k in states] == ["ReceivePhaseIdle"]


@pytest.mark.skipif(not os.environ.get("SKILLPROOF_SERVER_SRC"),
                    reason="set SKILLPROOF_SERVER_SRC to the server's src/main/kotlin to compare with its Event.kt")
def test_the_vocabulary_is_the_servers_event_kt():
    text = (Path(os.environ["SKILLPROOF_SERVER_SRC"]) / "Event.kt").read_text(encoding="utf-8")
    assert set(re.findall(r"class (\w+)\([^)]*(?:\([^)]*\)[^)]*)*\)\s*:\s*Event\(\)", text, flags=re.S)) == \
        set(EV.SERVER_EVENT_CLASSES)


def test_roles_and_words_clash_with_no_other_name_of_the_language():
    taken = set(V.PLAYER_ATTRS) | set(V.SELF_ONLY) | set(V.EFFECT_ATTRS) | E.KEYWORDS | {"self"}
    for k in EV.EVENT_KINDS.values():
        assert len(set(k.role_names)) == len(k.role_names), k.key
        assert not set(k.role_names) & (taken | set(V.GLOBALS)), k.key
        assert not set(k.word_types) & taken and not set(k.word_types) & set(k.role_names), k.key
        assert set(k.windows) and k.principal in (None,) + k.role_names, k.key
        for w in k.word_types.values():
            assert w in (V.BOOL, V.INT, V.CARD, V.DIRECTION), (k.key, w)


def test_dispatch_is_the_servers():
    # Game.dealListeningSkill: player.alive || skill is BeforeDieSkill || !skill.isInitialSkill
    assert EV.dispatched(True, False, True) and EV.dispatched(False, True, True) and EV.dispatched(False, False, False)
    assert not EV.dispatched(False, False, True)


# ------------------------------------------------------------------------------ the shipped catalogue
@pytest.fixture(scope="module")
def shipped():
    return loader.load()


def test_every_shipped_triggered_rule_says_its_events(shipped):
    trig = [r for r in shipped.skills.values() if r.has("TriggeredSkill")]
    assert len(trig) == 51 and all(r.on for r in trig)
    assert all(o.event == "die" for r in trig if r.has("BeforeDieSkill") for o in r.on)
    assert {r.id for r in trig if any(o.guard_prose for o in r.on)} == {"XiangJinSiSuo2"}
    by = {r.id: [(o.event, o.whose) for o in r.on] for r in trig}
    assert by["DuMing"] == [("card_resolved", ("any",)), ("move", ("front",))]
    assert by["QiangLing"] == [("send", ("sender",)), ("choose_receive", ("front",))]
    assert by["YiXin"] == by["RuGui"] == [("die", ("self",))] and by["ChengZhi"] == [("die", ("other",))]


def test_shipped_coverage_figures(shipped):
    n = C.counts(C.coverage(shipped), "server")
    assert (n["rules"], n["triggered"], n["with_on"], n["guard_prose"]) == (101, 50, 50, 1)
    assert n["trigger"] == {"data": 100, "part": 1, "prose": 0}
    assert sum(n["events"].values()) == 52 and n["events"]["receive"] == 21
    rb = C.counts(C.coverage(shipped), "rulebook")
    assert (rb["rules"], rb["with_on"]) == (2, 1)


def test_coverage_of_a_catalogue_without_on_says_prose():
    cat = load(rule('trigger = "自己传出情报时"') + rule('fires = { at = ["receive"], when = "alive" }', ident="T") +
               rule('on = { event = "send", whose = "sender" }', ident="U") +
               rule('convert = { from = "A", to = ["B"], must = false }', kinds='["ConvertCardSkill"]', ident="V"))
    rows = {c.rule.id: (c.trigger, c.effect) for c in C.coverage(cat)}
    assert rows == {"S": ("prose", "prose"), "T": ("part", "prose"), "U": ("data", "prose"), "V": ("data", "data")}
    n = C.counts(C.coverage(cat))
    assert n["trigger"] == {"data": 2, "part": 1, "prose": 1} and n["with_on"] == 1 and n["triggered"] == 3


def test_catalogue_coverage_command(capsys):
    from skillproof.cli import main
    assert main(["--lang", "en", "catalogue", "--coverage"]) == 0
    out = capsys.readouterr().out
    assert "trigger (when it acts): 101 of 101 server rules have it as data (1 with part of the guard still prose)" in out
    assert "TriggeredSkills: 50 of 50 say the events they answer ('on')" in out
    assert "  暗藏杀机 AnCangShaJi — trigger: data receive[sender,receiver]; effect: data do" in out
    assert "详尽思索·押注 XiangJinSiSuo2 · grant — trigger: part receive_phase*" in out
    assert main(["catalogue", "--coverage", "--format", "json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["counts"]["server"]["with_on"] == 50 and len(d["rules"]) == 103
    yx = next(r for r in d["rules"] if r["id"] == "YiXin")
    assert yx["trigger"]["on"] == [{"event": "die", "server": "PlayerDieEvent", "whose": ["self"],
                                    "when": "face_up and hand_count > 0 and any(p: p.alive)",
                                    "says": {"zh": "面朝上且手牌数>0且有角色p满足：p存活",
                                             "en": "face up and cards in hand > 0 and some player p is such that p is alive"},
                                    "once": True,
                                    "guard_prose": False, "line": yx["trigger"]["on"][0]["line"]}]
    assert main(["catalogue", "--coverage"]) == 0
    assert "触发（何时发动）：101 条服务器规则中 101 条是数据" in capsys.readouterr().out


def test_every_shipped_guard_is_told_in_words_in_both_languages(shipped):
    from skillproof.model.expr_words import words
    from skillproof.model.lang import using
    for r in shipped.skills.values():
        for o in r.on:
            for lang in ("zh", "en"):
                with using(lang):
                    said = words(o.when, shipped, o.event)
                # no raw name of the language: the event's players and values are said as words
                names = set(o.kind.role_names) | set(o.kind.word_types)
                if lang == "en":
                    names = {n for n in names if "_" in n}
                assert "?" not in said and not any(re.search(rf"(?<![A-Za-z_]){n}(?![A-Za-z_])", said) for n in names), \
                    (r.id, lang, said)
    with using("en"):
        anc = shipped.skills["AnCangShaJi"].on[0]
        assert words(anc.when, shipped, anc.event).startswith("the sender is alive and the receiver is alive")


GRANT = '[[grant]]\nid = "G"\nname = "给"\nkinds = ["OneTurnSkill"]\nlifetime = "turn"\n'


def test_a_triggered_skills_sites_hand_out_on_the_events_it_answers():
    ok = rule('on = { event = "send", whose = "sender" }\n[[skill.gives]]\ngrant = "G"\nto = "self"\nat = "send"\non = "send"')
    assert load(ok + GRANT).skills["S"].gives[0].on == "send"
    # an ActiveSkill + TriggeredSkill hands out as it is used too: not held to its events
    both = rule('on = { event = "send" }\nfight = "true"\n[[skill.gives]]\ngrant = "G"\nto = "self"\nat = "fight"\n'
                'on = "use"', kinds='["ActiveSkill", "TriggeredSkill"]')
    assert load(both + GRANT).skills["S"].gives
    e = only(errors_of(rule('on = { event = "send", whose = "sender" }\n[[skill.gives]]\ngrant = "G"\nto = "self"\n'
                            'at = "fight"\non = "choose_receive"') + GRANT), "answers no such event")
    assert (e.line, e.key) == (10, "on") and "choose_receive" in e.message
    # its windows are not held to its events' (the twins read `at`; a widened site is a diff, not a bad file)
    widened = rule('on = { event = "send", whose = "sender" }\n[[skill.gives]]\ngrant = "G"\nto = "self"\n'
                   'at = ["send", "main"]\non = "send"')
    assert load(widened + GRANT).skills["S"].gives[0].at == ("send", "main")


def test_catalogue_json_carries_on(capsys):
    from skillproof.cli import main
    assert main(["catalogue", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    ql = next(s for s in doc["skills"] if s["id"] == "QiangLing")
    assert ql["on"] == [{"event": "send", "whose": ["sender"], "when": "true", "once": True, "guard_prose": False},
                        {"event": "choose_receive", "whose": ["front"], "when": "true", "once": True,
                         "guard_prose": False}]
    x2 = next(g for g in doc["grants"] if g["id"] == "XiangJinSiSuo2")
    assert x2["on"][0]["guard_prose"] is True and x2["on"][0]["once"] is False


# ------------------------------------------------------------------------------------------ extraction
def test_extract_reads_the_events_of_execute():
    """``skillproof extract`` writes ``on`` from each findEvent<…> of execute, in order, with ``whose`` where the
    guard compares the asked player with the event's players, ``when = unknown`` where it tests more."""
    from skillproof.model.extract.classes import ClassIndex
    from skillproof.model.extract.triggers import TriggerEvents

    class Index(ClassIndex, TriggerEvents):
        pass
    ix = Index(Path(FIXTURES) / "kotlin" / "triggers")
    ix.parse()
    got = {c.name: ix._trigger_events(c) for c in ix.classes}
    assert got == {
        "Plain": [{"event": "receive", "whose": "sender", "when": "unknown"}],
        "Two": [{"event": "send", "whose": "sender"}, {"event": "die", "whose": "other", "when": "unknown"},
                {"event": "card_resolved", "whose": ["user", "target"]}],
        "Mixed": [{"event": "send", "whose": "sender", "when": "unknown"}, {"event": "use_card", "when": "unknown"}],
        "State": [{"event": "receive_phase", "when": "unknown"}]}
    notes = [(r.subject, r.message) for r in ix.report if r.kind == "trigger"]
    assert ("Mixed", "findEvent<NoSuchEvent>: not an event class the catalogue knows") in notes
    assert len(notes) == 6


def test_compare_tells_events_and_whose_that_differ():
    from skillproof.model.extract.report import compare
    server = load(rule('on = [{ event = "receive", whose = "sender", when = "unknown" }, { event = "send" }]') +
                  rule('on = { event = "die", whose = "victim" }', kinds='["TriggeredSkill", "BeforeDieSkill"]',
                       ident="T") + rule('on = { event = "use_card" }', ident="U"))
    same = load(rule('on = [{ event = "receive", whose = "sender", when = "black in message" }, { event = "send" }]') +
                rule('on = { event = "die", whose = "self" }', kinds='["TriggeredSkill", "BeforeDieSkill"]', ident="T")
                + rule('on = { event = "use_card", whose = "target" }', ident="U"))
    assert [d for d in compare(server, same) if d.kind == "on"] == []     # self is die's victim; any says nothing
    other = load(rule('on = { event = "receive", whose = "receiver" }') +
                 rule('on = { event = "die", whose = "self" }', kinds='["TriggeredSkill", "BeforeDieSkill"]', ident="T")
                 + rule('on = { event = "use_card" }', ident="U"))
    diffs = [(d.subject, d.message) for d in compare(server, other) if d.kind == "on"]
    assert diffs == [("S", "server receive[sender]; send, hand receive[receiver]")]
