"""The values a fired skill reads from the event it answers (its ``words``: the card resolved, ``real_card`` …) in a
whole game: the interpreter hands the effect the answered event's own (model/interp/game.py on_fire); the twin
(checks/enc/game.py on_fire) selects them among the pending events it may answer. When that selection is symbolic —
the guard reads a hole of the template, here the holder's face at the start (换日's ``face_up``) — a card's code once
came out as a truth value (the selection's default was ``False``, so ``card`` was ``If(c, True, False)``) and an
effect's condition on the card held for any card. Server: Game.dealListeningSkill hands the skill the event itself
(FinishResolveCardEvent.cardType)."""
from __future__ import annotations

import copy
import json
import os

import pytest
import z3

from skillproof.model import loader
from skillproof.model.interp.play import run
from skillproof.model.interp.trace import Trace
from skillproof.checks.enc.game import GameEncoding

import gamekit as GK
import randgame as RG

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "games", "dying-in-fight-then-receive.json")
MORE = '''
[[card]]
id = "K5"
name = "空一"
windows = { fight = "anyone" }

[[card]]
id = "K6"
name = "空二"
windows = { fight = "anyone" }

[[character]]
id = "c3"
name = "丁"
hidden = true
female = false
skills = ["Hui"]

[[skill]]
id = "Hui"
name = "回"
kinds = ["TriggeredSkill"]
initial = true
trigger = "自己（面朝上）使用的牌结算后"
on = { event = "card_resolved", whose = "user", when = "face_up" }
text = "自己的牌结算后，若那是空二，摸一张牌。"
do = [{ op = "draw", if = "card == K6" }]
'''


def _game(card: str) -> tuple:
    d = json.load(open(FIXTURE, encoding="utf-8"))
    cat = loader.load(texts={"game.toml": d.pop("expect")["catalogue_text"] + MORE})
    setup = copy.deepcopy(d["setup"])
    setup["seats"][0].update(character="c3", skills=[{"rule": "Hui"}])
    events = [{"event": "turn", "seat": 0}, {"event": "draw"}, {"event": "window", "window": "main"},
              {"event": "window", "window": "send_start"},
              {"event": "send", "seat": 0, "colours": ["red"], "arrow": "left", "lockable": False, "dir": "left",
               "to": 2, "locks": [], "source": "hand"},
              {"event": "window", "window": "fight", "in_front": 2},
              {"event": "play", "seat": 0, "card": card},
              {"event": "resolve"},
              {"event": "fire", "seat": 0, "rule": "Hui", "on": "card_resolved"}]
    return cat, Trace.from_dict({"setup": setup, "events": events, "table": True})


@pytest.mark.parametrize("card, draws", [("K5", False), ("K6", True)])
def test_a_fired_skill_reads_the_card_it_answers(card, draws):
    cat, tr = _game(card)
    r = run(cat, tr)
    assert r.legal, r.errors
    hand = r.state.seats[0].hand_count
    assert hand == 3 + 3 - 1 - 1 + (1 if draws else 0)       # drew 3, sent 1, played 1, and 回's draw on 空二
    g = GK.pinned_verdict(cat, tr, keep_states=True)          # values folded: the selection is a constant
    assert g.verdict() is True
    a, b = GK.interp_state(r.state), GK.twin_state(g)
    assert {k: (a[k], b.get(k)) for k in a if a[k] != b.get(k)} == {}
    # the template's holes as variables pinned by equations: the selection is a term (the guard reads the face)
    tpl, pins = RG.template_of(cat, tr)
    assert "s0.face_up" in pins
    g = GameEncoding(cat, tpl)
    s = z3.Solver()
    s.add(g.legal_expr())
    s.add(g.pin(pins))
    assert s.check() == z3.sat
    s.add(g.final_attr(0, "hand_count") != hand)
    assert s.check() == z3.unsat, s.model()
