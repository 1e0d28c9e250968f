"""Errors lead with their cause: a catalogue file that cannot be read (a TOML syntax error, a byte-order
mark, another encoding) is reported first, and the errors that only follow from it — names it would have
defined, now unknown, with suggestions that would mislead — are folded into one line."""
from __future__ import annotations

from reportkit import sp

CHARS = """
[[character]]
id = "a"
name = "甲"
hidden = false
female = false
skills = ["YingBian", "TouTian", "Other"]

[[character]]
id = "b"
name = "乙"
hidden = false
female = false
skills = ["YingBianZiRu", "Missing"]
"""
SKILLS = """
[[card]]
id = "A"
name = "截获"

[[skill]]
id = "YingBian"
name = "应变"
kinds = ["TriggeredSkill"]

[[skill]]
id = "TouTian"
name = "偷天"
kinds = ["TriggeredSkill"]

[[skill]]
id = "Other"
name = "其他"
kinds = ["TriggeredSkill"]
"""
MORE = """
[[skill]]
id = "YingBianZiRu"
name = "应变自如"
kinds = ["TriggeredSkill"]
"""


def write(tmp_path, skills: bytes):
    (tmp_path / "a-chars.toml").write_text(CHARS, encoding="utf-8")
    (tmp_path / "b-skills.toml").write_bytes(skills)
    (tmp_path / "c-more.toml").write_text(MORE, encoding="utf-8")
    return sp("check", str(tmp_path), "--lang", "en").stderr.splitlines()


def check(lines, cause: str):
    assert cause in lines[0], lines
    assert "b-skills.toml" in lines[0]
    # the genuine error stays (Missing is defined nowhere); the three names of the unreadable file are folded
    assert any("unknown skill 'Missing'" in x for x in lines[1:]), lines
    assert not any("YingBian'" in x or "TouTian" in x or "'Other'" in x for x in lines), lines
    assert "(3 further errors hidden: they follow from" in lines[-2] and "b-skills.toml not being readable)" in lines[-2]
    assert lines[-1] == "2 errors in the catalogue; nothing was checked"


def test_toml_syntax_error_leads(tmp_path):
    broken = SKILLS.replace('name = "偷天"', 'name = "偷天')
    lines = write(tmp_path, broken.encode("utf-8"))
    check(lines, "TOML syntax error")
    line = broken.splitlines().index('name = "偷天') + 1
    assert lines[0].startswith(f"error: {tmp_path / 'b-skills.toml'}:{line}: ") or f"b-skills.toml:{line}:" in lines[0]


def test_byte_order_mark_is_named(tmp_path):
    check(write(tmp_path, b"\xef\xbb\xbf" + SKILLS.encode("utf-8")), "byte-order mark (BOM)")


def test_other_encoding_is_named(tmp_path):
    check(write(tmp_path, SKILLS.encode("gb18030")), "not UTF-8 text")
    assert "GBK/GB18030" in write(tmp_path, SKILLS.encode("gb18030"))[0]


def test_unclosed_value_at_end_of_file_points_at_the_last_line(tmp_path):
    text = SKILLS + "limit = [1,\n"                 # tomllib: "Invalid value (at end of document)"
    lines = write(tmp_path, text.encode("utf-8"))
    assert "TOML syntax error" in lines[0] and "end of document" in lines[0]
    assert f"b-skills.toml:{text.count(chr(10))}: " in lines[0], lines[0]


def test_other_follow_on_errors_fold_too(tmp_path):
    """Not only unknown skills: an argument naming a card of the unreadable file ('expected a list of card
    ids, got ['Jie_Huo']') follows from it too."""
    (tmp_path / "a-cards.toml").write_bytes(b"\xef\xbb\xbf" + '[[card]]\nid = "Jie_Huo"\nname = "截获"\n'.encode("utf-8"))
    (tmp_path / "b-rules.toml").write_text('''
[[character]]
id = "a"
name = "甲"
hidden = false
female = false
skills = ["Give"]

[[skill]]
id = "Give"
name = "给"
kinds = ["TriggeredSkill"]
[[skill.gives]]
grant = "Ban"
to = "others"
args = { cards = ["Jie_Huo"] }

[[grant]]
id = "Ban"
name = "禁"
kinds = ["CannotPlayCard"]
lifetime = "turn"
params = { cards = "set<card>" }
ban = { cards = "cards" }
''', encoding="utf-8")
    lines = sp("check", str(tmp_path), "--lang", "en").stderr.splitlines()
    assert "byte-order mark" in lines[0] and "a-cards.toml:1:" in lines[0]
    assert len(lines) == 3 and lines[1].startswith("(1 further error hidden: it follows from"), lines
    assert lines[2] == "1 error in the catalogue; nothing was checked"
