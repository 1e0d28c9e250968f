"""What the tables of designers' questions share (tests/fixtures/ask-*.toml, each with its own test module): the
table's questions, the shipped catalogue and one ask session per module, and a question's outcome as printed."""
from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from skillproof.checks import ask as Q
from skillproof.cmd_ask import render
from skillproof.model import lang, loader

FIXTURES = Path(__file__).parent / "fixtures"


def questions(table: str) -> list:
    """The ``[[question]]`` entries of ``tests/fixtures/<table>``."""
    return tomllib.loads((FIXTURES / table).read_text(encoding="utf-8"))["question"]


@pytest.fixture(scope="module")
def cat():
    return loader.load(None)


@pytest.fixture(scope="module")
def sess(cat):
    return Q.Session(cat)


def outcome(cat, sess, text: str) -> tuple[str, str, object]:
    """(yes | no | data | unknown | refused, the answer as printed, the Result or the error), asked in Chinese."""
    with lang.using("zh"):
        try:
            res = sess.ask(text)
        except Q.QueryError as e:
            return "refused", str(e), e
        return res.answer, render(cat, res), res
