"""The shipped catalogue of the real game: counts, a sample of parameters, and the published schema."""
from __future__ import annotations

import json
import tomllib

import jsonschema
import pytest

from skillproof.model import loader, schema
from skillproof.model.catalogue import Ref


@pytest.fixture(scope="module")
def cat():
    return loader.load()


def test_counts(cat):
    assert len(cat.cards) == 13
    server_chars = [c for c in cat.characters.values() if c.origin == "server"]
    assert len(server_chars) == 62
    assert [c.name for c in cat.characters.values() if c.origin == "rulebook"] == ["SP墨红霜"]
    server_skills = [r for r in cat.initial_skills if r.origin == "server"]
    assert len(server_skills) == 89
    assert len(cat.grants) == 12
    assert {g.id for g in cat.grants} >= {"BianZeTong2", "CannotPlayCard", "InvalidSkill", "YouDiShenRu2",
                                          "XinGeLianLuo2", "MustLockOne", "JiuJi2"}


def test_names_follow_the_server_with_rule_book_aliases(cat):
    assert cat.skills["LianXin"].name == "联信" and "暗度陈仓" in cat.skills["LianXin"].aliases
    assert cat.skills["JiZhi"].name == "集智" and "急智" in cat.skills["JiZhi"].aliases
    assert cat.owners("LianXin") == ["adult_han_mei", "adult_xiao_jiu"]     # characters are kept in id order
    assert cat.owners("MiXin") == []


def test_characters_keep_the_server_order_of_skills(cat):
    assert cat.characters["sp_li_ning_yu"].skills == ("YingBian", "YouDao")
    assert cat.characters["gu_xiao_meng"].skills == ("JiZhi", "ChengZhi", "WeiSheng")
    assert cat.characters["gu_xiao_meng"].hidden and cat.characters["gu_xiao_meng"].female
    assert not cat.characters["chen_da_er"].hidden


def test_conversions(cat):
    yb = cat.skills["YingBian"].convert
    assert (yb.source, [t.value for t in yb.targets], yb.must) == (Ref("card", "Jie_Huo"), ["Wu_Dao"], False)
    hs = cat.skills["HunShuiMoYu"]
    assert hs.convert.source.kind == "any" and hs.consumed
    assert [t.value for t in hs.convert.targets] == ["Yu_Qin_Gu_Zong", "Diao_Hu_Li_Shan"]
    bz = cat.skills["BianZeTong2"]
    assert bz.convert.must and bz.has("OneTurnSkill") and bz.params == {"A": "card", "B": "card"}
    site = cat.sites("BianZeTong2")[0]
    assert site.giver == "BianZeTong" and site.to == "all"


def test_bans_and_invalidation_sites(cat):
    ql = [g for g in cat.sites("CannotPlayCard") if g.giver == "QiangLing"][0]
    assert ql.to == "all" and "cards" not in ql.args and ql.args.get("all_cards") is False
    jb = {g.grant: g for g in cat.skills["JinBi"].gives}
    assert jb["InvalidSkill"].to == "others" and jb["CannotPlayCard"].args["all_cards"] is True
    dhls = {g.grant for g in cat.cards["Diao_Hu_Li_Shan"].gives}
    assert dhls == {"InvalidSkill", "CannotPlayCard"}


def test_receive_and_send_rules(cat):
    from skillproof.model.expr import to_text
    yd = cat.skills["YouDiShenRu2"].receive
    assert to_text(yd.must) == "(identity != black) and (identity in message)"
    assert to_text(cat.skills["XinGeLianLuo2"].receive.cannot) == "true"
    assert cat.skills["LianLuo"].has("SendMessageDirectionSkill")
    assert to_text(cat.skills["MustLockOne"].send.rule) == "lock_count == 1"


def test_every_entry_is_located(cat):
    for r in cat.skills.values():
        assert r.loc.file.endswith(".toml") and r.loc.line > 0


def _raw_files():
    return loader.catalogue_files([loader.shipped_path()])


def test_schema_file_is_the_generated_schema():
    import pathlib
    text = (pathlib.Path(schema.__file__).parent / "schema.json").read_text(encoding="utf-8")
    assert json.loads(text) == schema.build()


@pytest.mark.parametrize("path", _raw_files(), ids=lambda p: p.relative_to(loader.shipped_path()).as_posix())
def test_shipped_files_satisfy_the_published_schema(path):
    with open(path, "rb") as fh:
        data = tomllib.load(fh)
    jsonschema.validate(data, schema.build())


def test_schema_rejects_what_the_loader_rejects():
    bad = {"skill": [{"id": "X", "name": "x", "kinds": ["NotAKind"], "colour": 1}]}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema.build())


def test_package_data_ships_every_catalogue_file():
    # what setuptools packages: the package-data globs of skillproof.model.catalogue, relative to its
    # directory ("**" recursive); every file the loader reads from the shipped catalogue must be among them
    import glob
    import pathlib
    root = pathlib.Path(__file__).resolve().parent.parent
    with open(root / "pyproject.toml", "rb") as fh:
        tool = tomllib.load(fh)["tool"]["setuptools"]
    pkg_dir = root / tool["package-dir"]["skillproof.model.catalogue"]
    shipped = set()
    for pattern in tool["package-data"]["skillproof.model.catalogue"]:
        shipped |= set(glob.glob(pattern, root_dir=pkg_dir, recursive=True))
    wanted = {f.relative_to(pkg_dir).as_posix() for f in loader.catalogue_files([pkg_dir])}
    assert any("/" in w for w in wanted)                       # the characters/ subdirectory is there
    assert wanted <= shipped, sorted(wanted - shipped)
