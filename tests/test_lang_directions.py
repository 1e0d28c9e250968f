"""Under zh a direction is said in Chinese (向左 / 向右 / 向上), never as the English word the trace or the catalogue
spells it in: a send refused for its first stop (interp path.send_errors, read by ``replay`` / ``explain`` and the
reports), a ``redirect`` op read out (model/effects_words.py, the narration of effects), a send told in a story
(model/narrate_story.py). The English side keeps the English word."""
from __future__ import annotations

import copy
import json
import os
import re

import pytest

from skillproof.model import lang, loader
from skillproof.model.effects_words import op_words
from skillproof.model.interp.play import run
from skillproof.model.interp.trace import Trace

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "games", "dying-in-fight-then-receive.json")
ENGLISH = re.compile(r"\b(left|right|up|reverse)\b", re.I)


@pytest.fixture(scope="module")
def game():
    d = json.load(open(FIXTURE, encoding="utf-8"))
    expect = d.pop("expect")
    return loader.load(texts={"game.toml": expect["catalogue_text"]}), d


@pytest.mark.parametrize("way, to, zh", [("left", 1, "向左"), ("right", 2, "向右")])
def test_a_send_refused_for_its_first_stop_says_the_direction_in_chinese(game, way, to, zh):
    """Seat 0 of three sends left (the nearest living player on his left is seat 2) to seat 1, or right (seat 1) to
    seat 2: refused; the Chinese reason names the direction in Chinese, the English one in English."""
    cat, d = game
    send = {"event": "send", "seat": 0, "colours": ["red"], "arrow": way, "lockable": False, "dir": way, "to": to,
            "locks": [], "source": "hand"}
    r = run(cat, Trace.from_dict({"setup": copy.deepcopy(d["setup"]), "events": d["events"][:4] + [send],
                                  "table": True}))
    (k, why), = [(k, x) for k, x in r.errors if k == 4]
    assert why.zh == f"情报不能{zh}传给座位{to}" and not ENGLISH.search(why.zh)
    assert why.en == f"a message sent {way} cannot stop first at seat {to}"


@pytest.mark.parametrize("way, zh, en", [("left", "向左", "left"), ("right", "向右", "right"), ("up", "向上", "up"),
                                         ("reverse", "反方向", "the other way")])
def test_a_redirect_read_out_says_the_direction_in_the_language(way, zh, en):
    cat = loader.load(texts={"c.toml": f'''
[[card]]
id = "RD"
name = "转向"
windows = {{ send = "anyone" }}
do = [{{ op = "redirect", dir = "{way}" }}]
'''})
    op = cat.cards["RD"].do[0]
    with lang.using("zh"):
        said = op_words(op, cat)
    assert zh in said and not ENGLISH.search(said), said
    with lang.using("en"):
        assert en in op_words(op, cat)


def test_a_send_told_in_a_story_says_the_direction_in_chinese(game):
    """The story of a game trace (model/narrate_story.py ``steps``) tells a send with its arrow and direction in
    words of the language."""
    from skillproof.model.narrate_story import steps
    cat, d = game
    tr = Trace.from_dict({"setup": copy.deepcopy(d["setup"]), "events": d["events"][:5], "table": True})
    with lang.using("zh"):
        told = [s["text"] for s in steps(cat, tr) if "传" in s["text"]]
    assert told and all("向左" in t and not ENGLISH.search(t) for t in told), told
    with lang.using("en"):
        assert any(" left" in s["text"] for s in steps(cat, tr))
