"""`skillproof extract`: the Kotlin extractor and `--compare`, on small fixture sources written for these tests
(tests/fixtures/kotlin/server: an invented game server with the same language shapes as the real one)."""
from __future__ import annotations

import re

import shutil
import tomllib
from pathlib import Path

import pytest

from skillproof.cli import main
from skillproof.model import expr as E
from skillproof.model.extract import ExtractError, compare, extract
from skillproof.model.loader import load

FIX = Path(__file__).parent / "fixtures" / "kotlin"
SERVER = FIX / "server"


@pytest.fixture(scope="module")
def ex():
    return extract(SERVER)


@pytest.fixture(scope="module")
def cat(ex):
    assert ex.load_errors == []
    return ex.catalogue


def items(ex, kind=None, subject=None, undecided=None):
    return [i for i in ex.report if (kind is None or i.kind == kind) and (subject is None or i.subject == subject)
            and (undecided is None or i.undecided == undecided)]


def text(node) -> str:
    return E.to_text(node) if node is not None else None


# ------------------------------------------------------------------------------------ the catalogue
def test_extracted_catalogue_loads_from_written_files(ex, tmp_path):
    for name, body in ex.files.items():
        (tmp_path / name).write_text(body, encoding="utf-8")
    c = load([tmp_path])
    assert set(c.characters) == {"alpha", "beta", "gamma", "delta", "epsilon", "sp_beta", "zeta"}
    assert ex.stats["characters"] == 7 and ex.stats["skills"] == 15 and ex.stats["grants"] == 7
    assert ex.stats["sites"] == 8 and ex.stats["cards"] == 5
    assert not items(ex, "parse")


def test_extraction_is_deterministic(ex):
    assert extract(SERVER).files == ex.files


def test_role_table(cat, ex):
    a, b, d, e = (cat.characters[k] for k in ("alpha", "beta", "delta", "epsilon"))
    assert (a.name, a.hidden, a.female, a.skills) == ("甲", False, True, ("Lantern", "Mirror"))
    assert (b.name, b.hidden, b.female) == ("乙", True, False)
    assert cat.characters["gamma"].skills == ("Signal", "Blockade")          # qualified enum reference role.gamma
    assert d.skills == ("Swap", "Runner", "Counter")
    assert e.skills == ("Fuse", "Echo", "Mute", "Lock", "Shed")              # order kept
    assert cat.characters["sp_beta"].skills == ("Ledger",)                   # a skill class shared by two roles
    # a role-table argument that is not a skill class: left out, and said so
    assert cat.characters["zeta"].skills == ()
    assert [i.subject for i in items(ex, "role")] == ["zeta"]
    # the copy() call inside the role class (no literal name) is not a role-table entry
    assert len(cat.characters) == 7


def test_cards_from_classes_and_enum_references(cat):
    assert list(cat.cards) == ["Po_Yi", "Jie_Huo", "Diao_Bao", "Wu_Dao", "Diao_Hu_Li_Shan"]
    assert cat.cards["Jie_Huo"].name == "截获"                 # from toString's string template
    assert cat.cards["Diao_Hu_Li_Shan"].name == "调虎离山"     # toString as an expression body
    assert cat.cards["Po_Yi"].name == "破译"                   # only referenced: the fixed table of card names


def test_kinds_follow_the_class_hierarchy(cat):
    k = {r: set(cat.skills[r].kinds) for r in cat.skills}
    assert k["Lantern"] == {"MainPhaseSkill"}                  # abstract class MainPhaseSkill : ActiveSkill
    assert k["Echo"] == {"TriggeredSkill", "BeforeDieSkill"}   # through the fixture's own abstract base class
    assert k["Counter"] == {"ChangeDrawCardCountSkill", "WinSkill"}
    assert k["Deaf"] == {"MustReceiveMessage"}                 # nested class extending an abstract class
    assert k["Swap2"] == {"OneTurnSkill", "ConvertCardSkill"}  # interface + constructor invocation
    assert k["CannotPlayCard"] == {"CannotPlayCard"} and k["InvalidSkill"] == {"InvalidSkill"}
    assert cat.skills["Lantern"].has("ActiveSkill")


def test_initial_flags(cat, ex):
    assert cat.skills["Mirror"].initial is True
    assert cat.skills["Echo"].initial is True                   # a getter in the abstract superclass
    assert all(not r.initial for r in cat.grants)
    assert cat.skills["Mute"].initial is True                   # not a literal: the default, and reported
    assert [i.subject for i in items(ex, "initial")] == ["Mute"]


def test_skill_names_from_the_enum(cat):
    assert cat.skills["Lantern"].name == "提灯"
    assert cat.skills["Ledger"].name == "账本"
    assert cat.skills["Signal2"].name == "信号·Signal2"        # grants: outer skill's name · class name
    assert cat.skills["InvalidSkill"].name == "失效"
    assert cat.skills["CannotPlayCard"].name == "CannotPlayCard"   # its skillId constant is shared: no name


def test_conversion_parameters(cat):
    m = cat.skills["Mirror"].convert
    assert (str(m.source), [str(t) for t in m.targets], m.must) == ("Jie_Huo", ["Wu_Dao"], False)
    s = cat.skills["Shed"]
    assert (str(s.convert.source), [str(t) for t in s.convert.targets]) == ("any", ["Po_Yi", "Diao_Bao"])
    assert s.consumed is True                                   # removes itself from its owner
    w = cat.skills["Swap2"]
    assert w.params == {"a": "card", "b": "card"}
    assert (w.convert.source.kind, w.convert.source.value, w.convert.targets[0].value, w.convert.must) == \
        ("param", "a", "b", True)


def test_translated_rule_methods(cat):
    # `… && !user.roleFaceUp`: the prefix ! applies to the whole member access
    assert text(cat.skills["Shadow"].fight) == "in_front and not face_up"
    assert text(cat.skills["Runner"].send.rule) == "(dir == up) or (dir == left)"
    assert text(cat.skills["Lock"].send.rule) == "(lock_count == 0) or (lock_count == 2)"
    assert text(cat.skills["Counter"].draw) == "if red_messages >= 2 then count + 1 else count"
    deaf = cat.skills["Deaf"].receive
    assert text(deaf.must) == "false"
    assert text(deaf.cannot) == "(identity not in message) and (identity != black)"
    assert text(cat.skills["Lantern"].dying) == "false"         # executeProtocol only accepts MainPhaseIdle
    assert text(cat.skills["Ledger"].dying) == "false"          # … followed into a companion's function


def test_untranslatable_pieces_become_unknown_and_are_reported(ex, cat):
    fight = ex.files["skills.toml"].split('id = "Ledger"')[1].split("\n\n")[0]
    assert ('fight = "not used and (non_black_messages > 0 or hand_count > 1) and '
            '(any(p: p.alive and p.character in {beta, sp_beta}) or unknown)"') in fight
    rep = items(ex, "fight", "Ledger")
    assert len(rep) == 1 and "luckyDay(user)" in rep[0].message
    assert text(cat.skills["Shadow"].dying) == "unknown"        # accepts the dying state: condition unknown
    assert items(ex, "dying", "Shadow")
    win = cat.skills["Counter"].win
    assert len(win) == 1 and text(win[0].when) == "unknown"
    assert items(ex, "effects", "Counter")


def test_every_unknown_is_reported(ex):
    for name in ("skills.toml", "grants.toml"):
        for block in ex.files[name].split("\n\n"):
            if "unknown" not in block or "[[" not in block:
                continue
            rid = block.split('id = "')[1].split('"')[0]
            assert items(ex, subject=rid, undecided=True), f"{rid} has an unknown that the report does not list"


def test_grants_and_grant_sites(cat, ex):
    def site(giver, grant):
        src = cat.skills.get(giver) or cat.cards[giver]
        found = [g for g in src.gives if g.grant == grant]
        assert len(found) == 1, (giver, grant, src.gives)
        return found[0]

    g = site("Signal", "Signal2")
    assert (g.to, g.args) == ("self", {})                       # askWhom of execute(): the owner
    assert cat.skills["Signal2"].params == {"colour": "colour"}
    assert any("Signal2.colour" in i.message for i in items(ex, "args", "Signal"))
    g = site("Blockade", "CannotPlayCard")
    assert (g.to, g.args) == ("all", {"banned": ["Diao_Bao"], "everything": False})   # default filled in
    assert site("Blockade", "Deaf").to == "target"
    assert site("Swap", "Swap2").to == "all"                    # for (p in g.players)
    assert site("Fuse", "Fuse2").to == "self"                   # through the Fsm data class's constructor
    fuse2 = cat.skills["Fuse2"]
    assert (fuse2.lifetime, fuse2.consumed) == ("until_fired", True)
    assert cat.skills["Signal2"].lifetime == "turn" and cat.skills["Deaf"].lifetime == "turn"
    assert site("Diao_Hu_Li_Shan", "InvalidSkill").to == "target"
    g = site("Diao_Hu_Li_Shan", "CannotPlayCard")
    assert g.args == {"banned": [], "everything": True}
    ban = cat.skills["CannotPlayCard"].ban                      # the card-list and the bool parameter, by type
    assert (str(ban.cards), str(ban.all)) == ("banned", "everything")
    # every site's condition is unknown, and listed
    assert all(text(x.when) == "unknown" for r in list(cat.skills.values()) + list(cat.cards.values())
               for x in r.gives)
    assert len(items(ex, "when")) == 8


def test_unused_skill_class_is_kept_and_noted(cat, ex):
    assert "Orphan" in cat.skills and not cat.skills["Orphan"].is_grant and not cat.owners("Orphan")
    assert items(ex, "unused", "Orphan", undecided=False)


def test_shapes_it_cannot_read_are_reported(cat, ex):
    # `p.skills = p.skills + Mark()`: not read, and said so
    assert [i.subject for i in items(ex, "site")] == ["Mark"]
    # `g.players[0]!!.skills += Mark()`: written, to 'target' (any one player), and said so
    (g,) = cat.skills["Orphan"].gives
    assert (g.grant, g.to) == ("Mark", "target")
    assert [i.subject for i in items(ex, "to")] == ["Orphan"]


def test_report_markdown(ex):
    md = ex.report_markdown()
    assert md.startswith("# Extraction report")
    assert "| when | 8 |" in md and "### fight" in md and "## Notes" in md
    assert "luckyDay" in md


def test_checkout_root_and_parse_errors(tmp_path):
    root = tmp_path / "checkout"
    shutil.copytree(SERVER, root / "src" / "main" / "kotlin")
    (root / "src" / "main" / "kotlin" / "Broken.kt").write_text("class Broken { fun f( = }\n", encoding="utf-8")
    ex = extract(root)                                          # finds src/main/kotlin by itself
    assert [i.subject for i in items(ex, "parse")] == ["Broken.kt"]
    assert ex.load_errors == [] and len(ex.catalogue.characters) == 7


@pytest.mark.parametrize("where, message", [
    ("missing", "no such directory"),
    ("norole", "no role table"),
    ("empty", "no Kotlin files"),
])
def test_bad_input_raises_one_line(tmp_path, where, message):
    path = {"missing": tmp_path / "nope", "norole": FIX / "norole", "empty": tmp_path}[where]
    with pytest.raises(ExtractError) as e:
        extract(path)
    assert message in str(e.value) and "\n" not in str(e.value)


# -------------------------------------------------------------------------------------- compare
def _edit(files: dict, name: str, old: str, new: str) -> None:
    assert files[name].count(old) == 1, old
    files[name] = files[name].replace(old, new)


def test_compare_identical_is_empty(cat):
    assert compare(cat, cat) == []


def test_compare_finds_real_differences(ex, cat):
    f = dict(ex.files)
    _edit(f, "characters.toml", '\n[[character]]\nid = "delta"', '\n[[character]]\nid = "delta_gone"')
    _edit(f, "characters.toml", 'skills = ["Fuse", "Echo", "Mute", "Lock", "Shed"]',
          'skills = ["Echo", "Fuse", "Mute", "Lock", "Shed"]')
    _edit(f, "characters.toml", 'skills = ["Signal", "Blockade"]', 'skills = ["Signal"]')
    _edit(f, "skills.toml", 'convert = { from = "Jie_Huo", to = ["Wu_Dao"], must = false }',
          'convert = { from = "Jie_Huo", to = ["Wu_Dao"], must = true }')
    _edit(f, "skills.toml", 'kinds = ["SendMessageCanLockSkill"]', 'kinds = ["SendMessageDirectionSkill"]')
    _edit(f, "skills.toml", 'id = "Mute"\nname = "静默"\nkinds = ["TriggeredSkill"]\ninitial = true',
          'id = "Mute"\nname = "静默"\nkinds = ["TriggeredSkill"]\ninitial = false')
    _edit(f, "skills.toml", '[[skill.gives]]\ngrant = "Fuse2"\nto = "self"\nwhen = "unknown"\n', '')
    f["skills.toml"] = re.sub(r'(?m)^do = \[.*"Fuse2".*\]\n', '', f["skills.toml"])    # its effect hands it out
    _edit(f, "skills.toml", 'args = { banned = ["Diao_Bao"], everything = false }',
          'args = { banned = ["Jie_Huo"], everything = false }')
    _edit(f, "skills.toml", '[[skill.gives]]\ngrant = "Deaf"\nto = "target"', '[[skill.gives]]\ngrant = "Deaf"\nto = "others"')
    # renamed grant parameters are matched by the place they stand, not by name
    _edit(f, "skills.toml", 'params = { a = "card", b = "card" }\nconvert = { from = "a", to = ["b"], must = true }',
          'params = { A = "card", B = "card" }\nconvert = { from = "A", to = ["B"], must = true }')
    # the hand-kept catalogue's own entries: a rule-book-only character and skill are not compared
    f["rulebook.toml"] = ('[[skill]]\nid = "Dream"\nname = "梦"\nkinds = ["TriggeredSkill"]\norigin = "rulebook"\n\n'
                          '[[character]]\nid = "omega"\nname = "末"\nhidden = false\nfemale = false\n'
                          'skills = ["Dream"]\norigin = "rulebook"\n\n'
                          '[[skill]]\nid = "Ghost"\nname = "鬼"\nkinds = ["TriggeredSkill"]\n')
    hand = load(texts=f)
    diffs = compare(cat, hand)
    got = {(d.kind, d.subject) for d in diffs}
    assert got == {
        ("character", "delta"), ("character", "delta_gone"),
        ("order", "epsilon"), ("skills", "gamma"),
        ("convert", "Mirror"), ("kinds", "Lock"), ("initial", "Mute"),
        ("gives", "Fuse"), ("gives", "Blockade"),
        ("rule", "Ghost"),
    }, "\n".join(map(str, diffs))
    by = {(d.kind, d.subject): d for d in diffs}
    assert "must = false" in by[("convert", "Mirror")].message and "must = true" in by[("convert", "Mirror")].message
    assert by[("kinds", "Lock")].where.startswith("skills.toml:")
    blockade = [d.message for d in diffs if d.subject == "Blockade"]
    assert len(blockade) == 2
    assert any("Deaf goes to: server target, hand others" in m for m in blockade)
    assert any("banned: server [Diao_Bao], hand [Jie_Huo]" in m for m in blockade)


def test_compare_matches_parameters_by_place(ex, cat):
    """The shipped catalogue names CannotPlayCard's parameters cards / all_cards and leaves the card list free
    when all cards are banned: neither is a difference."""
    f = dict(ex.files)
    _edit(f, "grants.toml", 'params = { banned = "set<card>", everything = "bool" }\nban = { cards = "banned", all = "everything" }',
          'params = { cards = "set<card>", all_cards = "bool" }\nban = { cards = "cards", all = "all_cards" }')
    _edit(f, "cards.toml", 'args = { banned = [], everything = true }', 'args = { all_cards = true }')
    _edit(f, "skills.toml", 'args = { banned = ["Diao_Bao"], everything = false }',
          'args = { cards = ["Diao_Bao"], all_cards = false }')
    assert compare(cat, load(texts=f)) == []
    _edit(f, "cards.toml", 'args = { all_cards = true }', 'args = { all_cards = false }')
    (d,) = compare(cat, load(texts=f))
    assert (d.kind, d.subject) == ("gives", "Diao_Hu_Li_Shan")
    assert "everything: server true, hand false" in d.message and "banned: server [], hand free" in d.message


# ------------------------------------------------------------------------------------------- CLI
def test_cli_output_dir(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["extract", "--lang", "en", "--kotlin", str(SERVER), "--output", str(out)]) == 0
    names = sorted(p.name for p in out.iterdir())
    assert names == ["cards.toml", "characters.toml", "extraction-report.md", "grants.toml", "rules.toml", "skills.toml"]
    load([out])
    err = capsys.readouterr().err
    assert "extracted 7 characters, 15 skills, 7 grants" in err
    assert "[fight] Ledger" in err and "undecided by kind:" in err


def test_cli_stdout_is_one_toml_document(capsys):
    assert main(["extract", "--lang", "en", "--kotlin", str(SERVER), "--quiet"]) == 0
    cap = capsys.readouterr()
    tomllib.loads(cap.out)
    c = load(texts={"<stdout>": cap.out})
    assert len(c.characters) == 7
    assert cap.err.count("\n") == 1                            # --quiet: the summary line only


def test_cli_compare_exit_codes(tmp_path, capsys):
    out = tmp_path / "same"
    assert main(["extract", "--lang", "en", "--kotlin", str(SERVER), "--output", str(out), "-q"]) == 0
    capsys.readouterr()
    assert main(["extract", "--lang", "en", "--kotlin", str(SERVER), "--compare", str(out), "-q"]) == 0
    assert "no differences" in capsys.readouterr().out
    chars = out / "characters.toml"
    chars.write_text(chars.read_text(encoding="utf-8").replace('name = "甲"', 'name = "甲甲"'), encoding="utf-8")
    assert main(["extract", "--lang", "en", "--kotlin", str(SERVER), "--compare", str(out), "-q"]) == 1
    o = capsys.readouterr().out
    assert "character: alpha: name: server '甲', hand '甲甲'" in o and "1 difference " in o


def test_cli_compare_against_the_shipped_catalogue_runs(capsys):
    # the fixture server is not the real game: everything differs, but the comparison itself works
    assert main(["extract", "--lang", "en", "--kotlin", str(SERVER), "--compare", "-q"]) == 1
    assert "between the server and the shipped catalogue" in capsys.readouterr().out


@pytest.mark.parametrize("args, message", [
    (["--kotlin", "MISSING"], "no such directory"),
    (["--kotlin", str(FIX / "norole")], "no role table"),
    (["--kotlin", "EMPTY"], "no Kotlin files"),
    (["--kotlin", str(SERVER), "--output", "AFILE"], "exists and is not a directory"),
])
def test_cli_bad_input(tmp_path, capsys, args, message):
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    (tmp_path / "empty").mkdir()
    subst = {"MISSING": str(tmp_path / "missing"), "EMPTY": str(tmp_path / "empty"), "AFILE": str(tmp_path / "afile")}
    assert main(["extract", "--lang", "en"] + [subst.get(a, a) for a in args]) == 2
    cap = capsys.readouterr()
    assert message in cap.err and cap.err.count("\n") == 1 and "Traceback" not in cap.err
    assert cap.out == ""


def test_cli_bad_compare_catalogue(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text("[[card]]\nid = 1\n", encoding="utf-8")
    assert main(["extract", "--lang", "en", "--kotlin", str(SERVER), "--compare", str(bad)]) == 2
    assert "bad.toml" in capsys.readouterr().err


def test_card_windows_are_read_from_can_use(cat, ex):
    """A card's windows: the game states its canUse accepts (one level into its companion's function, as the
    real 截获's), each with its window's actor; a card whose canUse names none is written without windows and
    the report says so (KD007 then reports it as a card nobody can use)."""
    assert cat.cards["Jie_Huo"].windows == {"fight": "anyone"}            # Companion.canUse: g.fsm as? FightPhaseIdle
    assert cat.cards["Diao_Hu_Li_Shan"].windows == {"main": "turn"}       # r !== (g.fsm as? MainPhaseIdle)?.whoseTurn
    others = [c for c in cat.cards.values() if c.id not in ("Jie_Huo", "Diao_Hu_Li_Shan")]
    assert others and all(not c.windows for c in others)
    assert 'windows = { fight = "anyone" }' in ex.files["cards.toml"]


@pytest.mark.parametrize("removal, consumed", [("it is Shed", True), ("s -> s is Shed", True),
                                               ("it is Mirror", False)])
def test_a_skill_removing_every_skill_of_its_own_class_removes_itself(tmp_path, removal, consumed):
    """``skills.filterNot { it is Shed }`` in Shed's own code is the self-removal ``it === this`` is (the server
    switched between the two forms in a clean-up commit: the gate must not read that as a rule change)."""
    src = tmp_path / "server"
    shutil.copytree(SERVER, src)
    shed = src / "skill" / "Shed.kt"
    shed.write_text(shed.read_text(encoding="utf-8").replace("this === it", removal), encoding="utf-8")
    assert extract(src).catalogue.skills["Shed"].consumed is consumed


def test_an_active_skill_whose_protocol_accepts_only_the_main_phase_is_a_main_phase_skill(tmp_path):
    """Older server code: an ActiveSkill with no canUse whose executeProtocol refuses every game state but
    MainPhaseIdle — what the server later declared a MainPhaseSkill (the gate must not read that declaration as a
    rule change). Another game state accepted too keeps it an ActiveSkill with its unknown fight condition."""
    src = tmp_path / "server"
    shutil.copytree(SERVER, src)
    lantern = src / "skill" / "Lantern.kt"
    text = lantern.read_text(encoding="utf-8").replace("class Lantern : MainPhaseSkill()", "class Lantern : ActiveSkill")
    lantern.write_text(text, encoding="utf-8")
    s = extract(src).catalogue.skills["Lantern"]
    assert s.kinds == ("MainPhaseSkill",) and s.windows == {"main": "turn"}
    lantern.write_text(text.replace("val fsm = g.fsm as? MainPhaseIdle",
                                    "val fsm = g.fsm as? MainPhaseIdle ?: (g.fsm as? FightPhaseIdle)")
                       .replace("import demo.game.phase.MainPhaseIdle",
                                "import demo.game.phase.MainPhaseIdle\nimport demo.game.phase.FightPhaseIdle"),
                       encoding="utf-8")
    s = extract(src).catalogue.skills["Lantern"]
    assert "MainPhaseSkill" not in s.kinds and s.fight is not None
