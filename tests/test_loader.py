"""The loader: every error in every file at once, located (file, line, key), with the nearest name;
no input makes it raise anything but CatalogueErrors."""
from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skillproof.model import loader
from skillproof.model.loader import CatalogueErrors

from conftest import FIXTURES

BASE = os.path.join(FIXTURES, "families", "base.toml")


def errors_of(text: str, name="bad.toml", with_base=True):
    texts = {}
    if with_base:
        texts["base.toml"] = open(BASE, encoding="utf-8").read()
    texts[name] = text
    with pytest.raises(CatalogueErrors) as ei:
        loader.load(texts=texts)
    return ei.value.errors


def one(errs, needle):
    hits = [e for e in errs if needle in e.message]
    assert hits, f"no error mentions {needle!r}: {[str(e) for e in errs]}"
    return hits[0]


def test_unknown_card_is_located_with_a_suggestion():
    text = '''[[skill]]
id = "S"
name = "测"
kinds = ["ConvertCardSkill"]
convert = { from = "Aa", to = ["B"], must = false }
'''
    e = one(errors_of(text), "unknown card 'Aa'")
    assert (e.file, e.line, e.key) == ("bad.toml", 5, "convert.from")
    assert "did you mean A (甲)?" in e.message


def test_shipped_style_suggestion_names_the_chinese_card():
    root = loader.shipped_path()
    texts = {f.relative_to(root).as_posix(): f.read_text(encoding="utf-8") for f in loader.catalogue_files([root])}
    name = "characters/sp_li_ning_yu.toml"
    texts[name] = texts[name].replace('convert = { from = "Jie_Huo"', 'convert = { from = "Jie_Hou"')
    with pytest.raises(CatalogueErrors) as ei:
        loader.load(texts=texts)
    e = one(ei.value.errors, "Jie_Hou")
    assert "did you mean Jie_Huo (截获)?" in e.message and e.key == "convert.from"
    assert (e.file, e.line) == (name, 22)


def test_every_error_of_a_file_is_reported_at_once():
    text = '''[[skill]]
id = "S1"
name = "一"
kinds = ["ConvertCardSkil"]
colour = "red"

[[skill]]
id = "S1"
name = "重复"
kinds = ["TriggeredSkill"]
initial = "yes"

[[character]]
id = "c"
name = "人"
hidden = false
female = true
skills = ["S2"]
'''
    errs = errors_of(text)
    lines = {(e.line, e.key) for e in errs}
    assert (4, "kinds") in lines                      # unknown kind, with suggestion
    assert "did you mean 'ConvertCardSkill'" in one(errs, "unknown kind").message
    assert (5, "colour") in lines                     # unknown key
    assert (8, "id") in lines                         # duplicate id, naming the first
    assert "first at bad.toml:1" in one(errs, "duplicate rule id").message
    assert (11, "initial") in lines                   # wrong type
    assert one(errs, "unknown skill 'S2'").line == 18  # dangling reference
    assert len(errs) >= 5


def test_kind_lattice_violations():
    text = '''[[grant]]
id = "G"
name = "壳"
kinds = ["InvalidSkill", "ActiveSkill"]
lifetime = "turn"

[[skill]]
id = "M"
name = "主"
kinds = ["MainPhaseSkill"]
fight = "true"

[[skill]]
id = "T"
name = "表"
kinds = ["TriggeredSkill"]
convert = { from = "A", to = ["B"], must = false }

[[skill]]
id = "K"
name = "缺"
kinds = ["ConvertCardSkill"]
'''
    errs = errors_of(text)
    assert one(errs, "InvalidSkill cannot be combined").line == 4
    assert one(errs, "MainPhaseSkill: it can never be used in the fight phase").line == 11
    assert one(errs, "'convert' belongs to ConvertCardSkill").line == 17
    assert one(errs, "needs a 'convert'").line == 19


def test_expression_errors_point_at_the_column():
    text = '''[[skill]]
id = "S"
name = "测"
kinds = ["ActiveSkill"]
fight = "not face_upp and hand_count > 1"
dying = "hand_count + true"
'''
    errs = errors_of(text)
    e = one(errs, "face_upp")
    assert e.line == 5 and e.key == "fight" and "column 5" in e.message and "did you mean 'face_up'" in e.message
    assert "'+' needs int operands" in one(errs, "int operands").message


def test_toml_syntax_error_is_located():
    errs = errors_of('[[skill]]\nid = "S"\nname = \n', with_base=False)
    assert errs[0].line == 3 and "TOML syntax error" in errs[0].message


def test_missing_and_unreadable_files(tmp_path):
    with pytest.raises(CatalogueErrors) as ei:
        loader.load([tmp_path / "nope.toml"])
    assert "no such file" in ei.value.errors[0].message
    (tmp_path / "x.toml").write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(CatalogueErrors) as ei:
        loader.load([tmp_path / "x.toml"])
    assert "not UTF-8" in ei.value.errors[0].message
    with pytest.raises(CatalogueErrors) as ei:
        loader.load([tmp_path / "empty"] if (tmp_path / "empty").mkdir() is None else [])
    assert "no .toml catalogue files" in ei.value.errors[0].message


def test_a_directory_is_read_recursively_in_relative_path_order(tmp_path):
    card = '[[card]]\nid = "{0}"\nname = "{0}"\n'
    for rel in ("b.toml", "a/z.toml", "a-b.toml", "c/d/e.toml", ".hidden/x.toml", "a/.swap.toml", "notes.txt"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(card.format(rel.replace("/", "_").replace(".", "_").replace("-", "_")),
                                    encoding="utf-8")
    files = loader.catalogue_files([tmp_path])
    assert [f.relative_to(tmp_path).as_posix() for f in files] == ["a-b.toml", "a/z.toml", "b.toml", "c/d/e.toml"]
    cat = loader.load([tmp_path])
    assert len(cat.files) == 4 and cat.files[1].endswith(os.path.join("a", "z.toml"))
    assert list(cat.cards) == ["a_b_toml", "a_z_toml", "b_toml", "c_d_e_toml"]    # cards keep the read order


def test_the_shipped_catalogue_is_named_by_its_path_inside_the_package(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)          # outside the working directory: <shipped>/relative/path
    names = loader.load().files
    assert names and all(n.startswith("<shipped>/") for n in names)
    rels = [f.relative_to(loader.shipped_path()).as_posix() for f in loader.catalogue_files([loader.shipped_path()])]
    assert list(names) == [f"<shipped>/{r}" for r in rels]


def test_grant_arguments_are_checked_against_parameters():
    text = '''[[skill]]
id = "Giver"
name = "给"
kinds = ["TriggeredSkill"]
[[skill.gives]]
grant = "Ban"
to = "everybody"
args = { card = ["A"], all_cards = "yes" }
[[grant]]
id = "Ban"
name = "禁"
kinds = ["CannotPlayCard"]
lifetime = "turn"
params = { cards = "set<card>", all_cards = "bool" }
ban = { cards = "cards", all = "all_cards" }
'''
    errs = errors_of(text)
    assert one(errs, "'to' must be self").line == 7
    assert "did you mean 'cards'" in one(errs, "no parameter 'card'").message
    assert one(errs, "all_cards: expected true or false").line == 8


def test_an_empty_parameter_name_is_refused():
    # TOML's empty key is no name: nothing reads it, and a conversion's "any" source (a reference of value "") would
    # read it as a parameter (benchmarks/mutate_interpreter.py core #159: ref_value's "any" branch emptied)
    text = '''[[grant]]
id = "Conv"
name = "转"
kinds = ["ConvertCardSkill"]
lifetime = "turn"
params = { "" = "card" }
convert = { from = "any", to = ["A"], must = false }
'''
    errs = [e for e in errors_of(text) if "parameter name cannot be empty" in e.message]
    assert [e.line for e in errs] == [6]


def test_a_grant_handed_out_at_the_turn_end_is_refused_for_what_it_is():
    text = '''[[skill]]
id = "Giver"
name = "给"
kinds = ["TriggeredSkill"]
[[skill.gives]]
grant = "Ban"
to = "self"
at = "turn_end"
[[grant]]
id = "Ban"
name = "禁"
kinds = ["CannotPlayCard", "OneTurnSkill"]
lifetime = "turn"
ban = { cards = ["A"], all = false }
'''
    e = one(errors_of(text), "no grant is handed out at the turn end")
    assert (e.line, e.key) == (8, "at") and "unknown window" not in e.message


TOML_VALUES = st.recursive(
    st.none().map(lambda _: '""') | st.integers(-3, 3).map(str) | st.booleans().map(lambda b: str(b).lower())
    | st.sampled_from(['"A"', '"any"', '"Jie_Huo"', '"not face_up"', '"ConvertCardSkill"', '"x +"', '"turn"']),
    lambda inner: st.lists(inner, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]"),
    max_leaves=6)
KEYS = st.sampled_from(["id", "name", "kinds", "initial", "convert", "fight", "skills", "hidden", "female",
                        "lifetime", "params", "to", "grant", "ban", "draw", "send", "receive", "bogus"])
TABLES = st.sampled_from(["[[skill]]", "[[grant]]", "[[character]]", "[[card]]", "[rules]", "[[skill.gives]]",
                          "[[skill.result]]", "[meta]", "[[nonsense]]"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(TABLES, st.lists(st.tuples(KEYS, TOML_VALUES), max_size=5)), max_size=5))
def test_no_input_raises_anything_but_located_errors(blocks):
    text = "\n".join(h + "\n" + "\n".join(f"{k} = {v}" for k, v in dict(kv).items()) for h, kv in blocks)
    try:
        loader.load(texts={"base.toml": open(BASE, encoding="utf-8").read(), "fuzz.toml": text})
    except CatalogueErrors as e:
        for err in e.errors:
            assert err.file in ("base.toml", "fuzz.toml") and err.line >= 1 and err.message


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_random_bytes_never_crash(data):
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return
    try:
        loader.load(texts={"x.toml": text})
    except CatalogueErrors:
        pass
