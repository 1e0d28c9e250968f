"""What the server checks before a card or an ActiveSkill is used (``requires``), in a whole game: both twins refuse a
use that does not meet it (model/interp/usable.requires_met, checks/enc/usable.enc_requires_met, called by
GameRunner.requires_errors and GameEncoding.requires_ok). Before, neither twin read ``requires`` in a game, so a
witness could use 禁闭 on its own user (server skill/JinBi.kt:30 refuses it) or 密令 on a player with no hand card
(card/MiLing.kt:48). The cases reuse the hand-made game builder of tests/test_crosscheck_game_cases.py; each compares
the interpreter's reasons and the twin's verdict.
"""
from __future__ import annotations

import pytest

from skillproof.model import loader

from test_crosscheck_game_cases import check, fixture_catalogue, game, seated  # noqa: F401 — the shared fixture

PARTS = '''
[[character]]
id = "c3"
name = "丁"
hidden = true
female = false
skills = ["R1", "R2", "R3", "R4"]

[[skill]]
id = "R1"
name = "借"
kinds = ["ActiveSkill"]
windows = { main = "turn" }
main = "true"
requires = "target != self and not used and target.hand_count > 0"
do = [{ op = "draw", who = "target" }]

[[skill]]
id = "R2"
name = "翻"
kinds = ["ActiveSkill"]
windows = { main = "turn" }
main = "true"
flips = true
requires = "not face_up"
do = [{ op = "draw" }]

[[skill]]
id = "R3"
name = "看"
kinds = ["ActiveSkill"]
windows = { main = "turn" }
main = "true"
requires = "target.alive"
do = [{ op = "draw" }]

[[skill]]
id = "R4"
name = "择"
kinds = ["ActiveSkill"]
windows = { main = "turn" }
main = "true"
requires = "target != self"
do = [{ op = "draw", who = "chosen" }]

[[card]]
id = "RC"
name = "索"
windows = { main = "turn" }
target = "any"
requires = "target.hand_count > 1"
do = [{ op = "draw", who = "target" }]
'''

REFUSED = "the use of {} does not meet what the server checks before it (requires)"


@pytest.fixture(scope="module")
def table(game):
    _, d = game
    return fixture_catalogue(PARTS), d


def _main(d, **seat0):
    setup = seated(d, 0, "c3", ["R1", "R2", "R3", "R4"], **seat0)
    return setup, d["events"][:3]                              # seat 0's turn, drawn, 出牌阶段


def test_a_skill_meets_its_requires_on_another_player_with_cards(table):
    cat, d = table
    setup, main = _main(d)
    check(cat, setup, main + [{"event": "use", "seat": 0, "rule": "R1", "target": 1}])


@pytest.mark.parametrize("target, hand", [(0, 3), (1, 0)])
def test_a_skill_used_against_its_requires_is_refused(table, target, hand):
    """On its own user (``target != self``), and on a player with no hand card (``target.hand_count > 0``)."""
    cat, d = table
    setup, main = _main(d)
    setup["seats"][1]["hand_count"] = hand
    check(cat, setup, main + [{"event": "use", "seat": 0, "rule": "R1", "target": target}],
          [(3, REFUSED.format("借"))], zh=["【借】的使用条件不满足（服务器拒绝这次使用）"])


def test_a_requires_reading_the_target_refuses_a_use_with_none(table):
    cat, d = table
    setup, main = _main(d)
    check(cat, setup, main + [{"event": "use", "seat": 0, "rule": "R3"}], [(3, REFUSED.format("看"))])
    check(cat, setup, main + [{"event": "use", "seat": 0, "rule": "R3", "target": 2}])


def test_requires_is_read_before_the_cost_turns_the_role_up(table):
    """``not face_up`` of a skill that turns its role up as its cost holds for a face-down user (read before the
    flip), and refuses a face-up one."""
    cat, d = table
    setup, main = _main(d, face_up=False, ever_face_up=False)
    check(cat, setup, main + [{"event": "use", "seat": 0, "rule": "R2"}])
    setup, main = _main(d)
    check(cat, setup, main + [{"event": "use", "seat": 0, "rule": "R2"}],
          [(3, REFUSED.format("翻")), (3, "翻 turns the role face up: it already is")])


@pytest.mark.parametrize("hand, legal", [(2, True), (1, False)])
def test_a_card_used_against_its_requires_is_refused(table, hand, legal):
    cat, d = table
    setup, main = _main(d)
    setup["seats"][2]["hand_count"] = hand
    errs = [(3, REFUSED.format("索"))] if not legal else []
    check(cat, setup, main + [{"event": "play", "seat": 0, "card": "RC", "target": 2}], errs)


def test_every_shipped_requires_reads_players_a_game_binds():
    """Every ``requires`` of the shipped catalogue reads only the user, the use's players and the window's (those a
    game binds: GameRunner.use_players), so a game can read it."""
    from pathlib import Path
    from skillproof.model import expr as E
    cat = loader.load([str(Path(__file__).resolve().parent.parent / "model" / "catalogue")])
    window = {"turn_player", "sender", "front", "dying"}
    allowed = {"self", "target", "chosen"} | window | {f"{w}_{s}" for w in window for s in ("left", "right")}
    seen = 0
    for r in list(cat.skills.values()) + list(cat.cards.values()):
        if getattr(r, "requires", None) is None:
            continue
        seen += 1
        bound = {x.var for x in E.walk(r.requires) if isinstance(x, E.Quant)}
        assert {x.name for x in E.walk(r.requires) if isinstance(x, E.Var) and x.role == "player"} - bound <= allowed, r.id
    assert seen >= 20


def test_the_requests_player_is_the_chosen_one_where_the_effect_names_no_target(table):
    """A skill whose effect names the player it chooses (``chosen``: 先发制人, 急送) and no target: the server's
    request names that player (its targetPlayerId), so ``requires``' target is the chosen one."""
    cat, d = table
    setup, main = _main(d)
    check(cat, setup, main + [{"event": "use", "seat": 0, "rule": "R4", "chosen": 1}])
    check(cat, setup, main + [{"event": "use", "seat": 0, "rule": "R4", "chosen": 0}], [(3, REFUSED.format("择"))])
