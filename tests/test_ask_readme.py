"""Every question of the README's "Asking questions" section gets the answer the README gives, and every
answer is checked against the reference interpreter: witnesses replay, claimed cores are unsatisfiable and
minimal, and the interpreter agrees on the illustrating state of a 'no'."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from skillproof.checks import ask as Q
from skillproof.model import loader

from test_ask import core_minimal, holds_in_interpreter

README = Path(__file__).resolve().parent.parent / "README.md"
LINE = re.compile(r"^- `(?P<q>[^`]+)` → \*\*(?P<a>yes|no)\*\*(?: \(answers: (?P<values>[^)]*)\))?")


def examples():
    text = README.read_text(encoding="utf-8")
    section = text.split("## Asking questions", 1)[1]
    section = re.split(r"\n## ", section, maxsplit=1)[0]
    out = []
    for line in section.splitlines():
        m = LINE.match(line)
        if m:
            vals = [v.strip() for v in m.group("values").split(",")] if m.group("values") else []
            out.append((m.group("q"), m.group("a"), vals))
    return out


EXAMPLES = examples()


def table_holds(cat, res) -> None:
    """A table answer checked with the interpreter: a 'yes' game replays with the table the witness expects; a 'no'
    names rules and its game, where the situation happens, is refused by the interpreter after it starts."""
    from skillproof.model.interp.decide import decide
    from skillproof.model.interp.play import run
    from skillproof.model.interp.trace import Trace
    if res.witness is not None:
        r = run(cat, Trace.from_dict(res.witness["trace"]))
        assert r.errors == []
        got = decide(cat, r.state, res.witness["question"])
        assert all(got[k] == v for k, v in res.witness["expect"].items())
    else:
        assert [b for b in res.because if b["kind"] == "rule"]
        r = run(cat, Trace.from_dict(res.illustration["trace"]))
        assert r.errors


def test_the_readme_has_the_issue_examples_and_a_dozen_more():
    qs = [q for q, _, _ in EXAMPLES]
    assert len(qs) >= 4 + 12
    for needle in ("变则通 is active", "变则通 declares 截获→破译", "强令's ban on 截获", "顾小梦 be skipped in 濒死求澄清"):
        assert any(needle in q for q in qs), needle


@pytest.fixture(scope="module", params=["narrowed", "general"])
def sess(request):
    """One-shot questions use solvers narrowed to each question; the prompt one general solver."""
    s = Q.Session(loader.load(None), general=request.param == "general")
    s.warm()
    return s


@pytest.mark.parametrize("query, answer, values", EXAMPLES, ids=[q for q, _, _ in EXAMPLES])
def test_readme_answer(sess, query, answer, values):
    res = sess.ask(query)
    assert res.answer == answer, res.headline
    if res.bounds.get("table"):                  # a table question: its game replays, its 'no' shows the refusal
        table_holds(sess.cat, res)
        return
    holds_in_interpreter(sess.cat, res)
    if res.core:
        assert core_minimal(res.core)
    if values:
        names = {v["name"].split(" (")[0] for v in res.values}
        for v in values:
            assert v in names, (v, names)
    for v in res.values:
        if v.get("witness") is not None:
            holds_in_interpreter(sess.cat, Q.Result(res.query, "yes", witness=v["witness"], witness_role="example"))
