"""Random questions built from the language's pieces: each parses or fails with a located QueryError, never
crashes, and every answer holds up against the reference interpreter (witnesses replay and show the claim,
cores are unsatisfiable and minimal, illustrations agree)."""
from __future__ import annotations

import os
import random

import pytest

from skillproof.checks import ask as Q
from skillproof.model import loader

from test_ask import core_minimal, holds_in_interpreter

N = int(os.environ.get("SKILLPROOF_ASK_RANDOM", "60"))
CARDS = ["截获", "误导", "破译", "调包", "澄清", "?", "调虎离山", "欲擒故纵"]
PLAYERS = ["SP李宁玉", "顾小梦", "陈大耳", "anyone", "SP阿芙罗拉", "王田香", "张一挺", "边云疆", "老鳖", "CP小九",
           "陈安娜", "白昆山", ""]


def atom(rng):
    c = lambda: rng.choice(CARDS)
    return rng.choice([
        lambda: f"play {c()} as {c()}", lambda: f"play {c()}", lambda: f"convert {c()} to {c()}",
        lambda: f"use {rng.choice(['应变', '浑水摸鱼', '毒计', '译文暗号', '集智'])}", lambda: f"banned {c()}",
        lambda: "banned all", lambda: rng.choice(["must receive", "cannot receive", "may choose"]),
        lambda: f"skipped in {rng.choice(['争夺阶段', '濒死求澄清'])}", lambda: f"act in {rng.choice(['fight', 'dying'])}",
        lambda: f"send {rng.choice(['direction', 'lock', 'card'])} by {rng.choice(['default', '联络', '冷血训练·必锁一人'])}",
        lambda: f"send {rng.choice(['left', 'right', 'up'])} locking {rng.randint(0, 2)}",
        lambda: f"draw {rng.choice(['', '>', 'at least', 'more than'])} {rng.randint(0, 6)}",
        lambda: f"hold {rng.choice(['应变', '变则通·宣言', '不能出牌'])}", lambda: "invalidated",
        lambda: rng.choice(["face up", "face down"]), lambda: "holding cards",
        lambda: f"remind {rng.choice(['鱼死网破', '拼命三郎', '禁闭', '自证清白', ''])}"])()


def given(rng):
    c = lambda: rng.choice(CARDS[:5])
    return rng.choice([
        lambda: f"under 变则通({c()}→{c()})", lambda: "while 变则通 is active", lambda: f"under 强令's ban on {c()}",
        lambda: "under 调虎离山", lambda: "under 禁闭", lambda: f"when {atom(rng)}", lambda: "where hand_count > 1",
        lambda: "with 应变", lambda: "without 浑水摸鱼", lambda: "under 诱敌深入", lambda: "under 冷血训练",
        lambda: f"under 不能出牌(cards={{{c()}}}, all_cards=false)", lambda: moment(rng), lambda: moment(rng),
        lambda: "under 变则通 in the previous turn", lambda: "after 调虎离山", lambda: "after 强令 this turn"])()


def moment(rng) -> str:
    """A window word: the moment of the question (some clash with the claim: a located error then)."""
    return rng.choice(["in the main phase", "at send-phase start", "at the send", "in 争夺阶段", "when someone is dying",
                       "in 陈大耳's turn", "在陈大耳的回合", "in her own turn", "in the draw phase",
                       "when someone is dying in the fight phase"])


def question(rng) -> str:
    if rng.random() < 0.12:
        return rng.choice([
            f"which conversion fires for {rng.choice(PLAYERS)} playing {rng.choice(CARDS)} as {rng.choice(CARDS)}",
            f"which send rule for {rng.choice(['direction', 'lock', 'card'])}", "which draw count", "which receive"])
    claim = atom(rng)
    if rng.random() < 0.3:
        claim += f" {rng.choice(['and', 'or'])} {'not ' if rng.random() < 0.3 else ''}{atom(rng)}"
    text = f"{rng.choice(['can', 'always', 'never', ''])} {rng.choice(PLAYERS)} {claim}"
    for _ in range(rng.randint(0, 2)):
        text += " " + given(rng)
    if rng.random() < 0.1:                      # a typo somewhere
        w = text.split()
        j = rng.randrange(len(w))
        w[j] = w[j][:-1] or "x"
        text = " ".join(w)
    return text


@pytest.fixture(scope="module")
def sess():
    return Q.Session(loader.load(None))


def test_random_questions(sess):
    rng = random.Random(int(os.environ.get("SKILLPROOF_ASK_SEED", "5")))
    answered = {"yes": 0, "no": 0}
    for _ in range(N):
        text = question(rng)
        try:
            res = sess.ask(text)
        except Q.QueryError as e:
            assert 0 <= e.col <= len(text) and e.msg
            continue
        assert res.answer in ("yes", "no"), (text, res.reason)
        answered[res.answer] += 1
        holds_in_interpreter(sess.cat, res)
        if res.core:
            assert core_minimal(res.core), text
        for v in res.values:
            if v.get("witness") is not None:
                holds_in_interpreter(sess.cat, Q.Result(res.query, "yes", witness=v["witness"],
                                                        witness_role="example"))
    assert answered["yes"] and answered["no"]
