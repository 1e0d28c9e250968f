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
    """(yes | no | data | unknown | refused, the answer as printed, the Result or the error), asked in Chinese — once a
    session: a question a module asks again (its table's, then a test of the rule it needed) is not searched again."""
    memo = sess.__dict__.setdefault("_askkit_outcomes", {})
    if text not in memo:
        memo[text] = _outcome(cat, sess, text)
    return memo[text]


def _outcome(cat, sess, text: str) -> tuple[str, str, object]:
    with lang.using("zh"):
        try:
            res = sess.ask(text)
        except Q.QueryError as e:
            return "refused", str(e), e
        return res.answer, render(cat, res), res


def answered_as_expected(cat, sess, q: dict) -> tuple[str, object]:
    """Ask a table's question ``q``: its answer is one of ``expect`` and cites each of ``cites``. (answer, result)"""
    got, text, res = outcome(cat, sess, q["ask"])
    assert got in q["expect"].split("|"), f"{q['ask']}: {got}\n{text}"
    for c in q["cites"]:
        assert c in text, f"{q['ask']}: the answer does not cite {c!r}\n{text}"
    return got, res


def assert_replays(cat, res) -> None:
    """The answer's game: the interpreter plays its trace without an error."""
    from skillproof.model.interp.play import run as play_run
    from skillproof.model.interp.trace import Trace
    run = play_run(cat, Trace.from_dict(res.witness["trace"]))
    assert run.errors == []


def assert_a_fresh_table(table: list, other_tables: list, carried=frozenset()) -> None:
    """A designers' table: each question distinct, with the keys every table gives, and asked by no other table
    (``other_tables`` and the corpus) except those it carries over."""
    assert len({q["ask"] for q in table}) == len(table)
    seen = set()
    for name in other_tables:
        seen |= {q["ask"] for q in questions(name)}
    for f in sorted((FIXTURES / "ask-corpus").glob("*.toml")):
        seen |= {q["ask"] for q in tomllib.loads(f.read_text(encoding="utf-8")).get("question", []) if "ask" in q}
    for q in table:
        assert set(q) >= {"ask", "expect", "cites", "server", "source"}, q["ask"]
        assert set(q["expect"].split("|")) <= {"yes", "no", "data", "unknown", "refused"}, q["ask"]
        assert q["ask"] not in seen or q["ask"] in carried, f"{q['ask']} is already asked by another table"


def table_tests(table: str, other_tables: list, at_least: int, answered_at_least: int, carried=frozenset()):
    """The two tests every designers' table runs, for its module to bind (``test_the_table… , test_each… =
    table_tests(…)``): the table is fresh (``assert_a_fresh_table``) and holds ``at_least`` questions of which
    ``answered_at_least`` expect an answer (yes / no / data); and each question, asked in the module's one session,
    is answered as ``expect`` says and cites ``cites`` — a *yes* from the table search with its game replayed by the
    interpreter. Returns (the questions, the freshness test, the per-question test)."""
    qs = questions(table)

    def test_the_table_holds_its_questions():
        assert len(qs) >= at_least
        assert_a_fresh_table(qs, other_tables, carried)
        assert len([q for q in qs if q["expect"] in ("yes", "no", "data")]) >= answered_at_least

    @pytest.mark.parametrize("q", qs, ids=[q["ask"] for q in qs])
    def test_each_question_is_answered_as_the_server_plays(cat, sess, q):
        got, res = answered_as_expected(cat, sess, q)
        if got == "yes" and getattr(res, "bounds", {}).get("table") and getattr(res, "witness", None):
            assert_replays(cat, res)

    return qs, test_the_table_holds_its_questions, test_each_question_is_answered_as_the_server_plays


def assert_open_questions_say_the_truth(qs: list) -> None:
    """Where the tool still refuses or answers unknown, a table keeps the server's answer (``truth``: yes / no) beside
    it, and its ``server`` line starts with that answer (data: a count or a list, the line says which)."""
    for q in qs:
        assert ("truth" in q) == (q["expect"] in ("refused", "unknown")), q["ask"]
        assert q.get("truth", "yes") in ("yes", "no", "data"), q["ask"]
        if "truth" in q:
            assert q["server"].startswith(q["truth"] + " — "), q["ask"]
