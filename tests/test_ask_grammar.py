"""The grammar of `skillproof ask` is one EBNF block, the parser's GRAMMAR, and the same in
docs/query-language.md; its keywords are the lexer's; and the parser refuses a question nested deeper than
its limit with a located error instead of running out of stack."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from skillproof.model import limits as L

from skillproof.checks import ask as Q
from skillproof.checks.ask import lexer
from skillproof.cli import main
from skillproof.model import loader

DOC = Path(__file__).resolve().parent.parent / "docs" / "query-language.md"
PHRASES_SRC = (Path(lexer.__file__).parent / "phrases.py").read_text(encoding="utf-8")
EBNF = re.compile(r"```ebnf\n(.*?)```", re.S)


@pytest.fixture(scope="module")
def cat():
    return loader.load(None)


# ------------------------------------------------------------------------------------------ the grammar
def test_the_grammar_in_the_docs_is_the_parsers():
    blocks = EBNF.findall(DOC.read_text(encoding="utf-8"))
    assert len(blocks) == 1, "docs/query-language.md must hold exactly one ```ebnf block"
    assert blocks[0] == Q.GRAMMAR


def test_the_phrasebook_in_the_docs_is_the_parsers():
    from skillproof.checks.ask import phrases
    text = DOC.read_text(encoding="utf-8")
    got = text.split("<!-- phrasebook: generated", 1)[1].split("-->\n", 1)[1].split("<!-- end of the phrasebook -->")[0]
    assert got == phrases.table(), "docs/query-language.md: the phrasebook differs from checks/ask/phrases.py"


def test_every_pattern_of_the_phrasebook_compiles_to_known_words(cat):
    """A pattern's items are words, word classes or slots; a class used inside an alternative is expanded; the
    meaning's slots are slots the pattern has."""
    from skillproof.checks.ask import phrases
    for items, meaning, pat in phrases.COMPILED:
        assert items, pat
        slots = [it.slot for it in items if it.kind == "slot"]
        for ref in re.findall(r"\{([A-Z]+)(\d?)\}", meaning):
            assert ref[0] in slots and slots.count(ref[0]) >= int(ref[1] or 1), (pat, meaning)
        for it in items:
            assert not (it.kind == "word" and any(w.upper() == w and w.isascii() and w.isalpha() and len(w) > 2
                                                     for w in it.words)), (pat, "an unknown class?")


def test_every_example_of_the_nearest_phrasing_is_accepted(cat):
    from skillproof.checks.ask.repair import EXAMPLES
    for ex in EXAMPLES:
        Q.parse(cat, ex)


def _rules(grammar: str) -> dict[str, str]:
    text = re.sub(r"\(\*.*?\*\)", " ", grammar, flags=re.S)           # comments
    return {m.group(1): m.group(2) for m in re.finditer(r"^([a-z_]+)\s+=(.*?);\s*$", text, re.S | re.M)}


def test_every_rule_is_defined_and_used():
    rules = _rules(Q.GRAMMAR)
    assert {"question", "claim", "atom", "given", "grant_ref", "which", "clause", "topic"} <= set(rules)
    used = set()
    for body in rules.values():
        body = re.sub(r"'[^']*'|\"[^\"]*\"", " ", body)
        used |= set(re.findall(r"\b[a-z_]+\b", body))
    assert used <= set(rules), f"used but not defined: {sorted(used - set(rules))}"
    assert set(rules) - used == {"question"}, f"defined but never used: {sorted(set(rules) - used - {'question'})}"


def test_every_quoted_word_of_the_grammar_is_read_by_the_parser():
    """A keyword renamed in the lexer (or a word the parser stops reading) must be renamed in the grammar."""
    words = set()
    for body in _rules(Q.GRAMMAR).values():
        words |= set(re.findall(r"'([^']+)'", body))
    ops = {"(", ")", "{", "}", ",", "?", "=", "==", "!=", "<", "<=", ">", ">=", "→"}
    # words the parser compares by their text, not through lexer.KEYWORDS
    literal = {"how", "many", "any", "some", "every", "anything", "something", "any_card", "phase", "阶段"}
    src = "".join(p.read_text(encoding="utf-8") for p in Path(lexer.__file__).parent.glob("parse*.py"))
    doubled = set()
    for body in _rules(Q.GRAMMAR).values():
        doubled |= set(re.findall(r'"([^"]+)"', body))
    for w in sorted(doubled):            # read as written: the parser (or the phrasebook) has the very word
        assert f'"{w}"' in src or f"'{w}'" in src or w in PHRASES_SRC, w
    for w in sorted(words - ops):
        if w in literal:
            assert f'"{w}"' in src, w
        else:
            assert w in lexer.KEYWORDS, f"'{w}' in the grammar is no keyword of the lexer"


# ----------------------------------------------------------------------------------------- nesting depth
def _parens(n: int) -> str:
    return "can anyone " + "(" * n + "invalidated" + ")" * n


def _nots(n: int) -> str:
    return "can anyone " + "not " * n + "invalidated"


def _mixed(n: int) -> str:
    return "can anyone " + "not (" * n + "invalidated" + ")" * n       # two levels each


@pytest.mark.parametrize("deepest, too_deep, col", [
    (_parens(Q.MAX_DEPTH), _parens(Q.MAX_DEPTH + 1), 11 + Q.MAX_DEPTH),             # the 65th '('
    (_nots(Q.MAX_DEPTH), _nots(Q.MAX_DEPTH + 1), 11 + 4 * Q.MAX_DEPTH),             # the 65th 'not'
    (_mixed(Q.MAX_DEPTH // 2), _mixed(Q.MAX_DEPTH // 2 + 1), 11 + 5 * (Q.MAX_DEPTH // 2)),
])
def test_nesting_up_to_the_limit_parses_and_beyond_is_located(cat, deepest, too_deep, col):
    q = Q.parse(cat, deepest)
    assert [a.kind for a in Q.atoms_of(q.claim)] == ["invalidated"]
    with pytest.raises(Q.QueryError) as ei:
        Q.parse(cat, too_deep)
    e = ei.value
    assert e.msg.startswith("too deeply nested") and str(Q.MAX_DEPTH) in e.msg
    assert e.col == col
    assert e.line(too_deep).startswith(f"query:1:{col + 1}: too deeply nested")


@pytest.mark.parametrize("text", [_parens(900), _nots(450), "can anyone " + "(" * 1900 + "invalidated",
                                  "which conversion fires for 截获 as 误导 when " + "not " * 450 + "invalidated",
                                  "can anyone invalidated where " + "(" * 900 + "locked" + ")" * 900])
def test_any_depth_gives_a_query_error_not_a_recursion_error(cat, text):
    """Nesting as deep as the question's length allows (limits.QUESTION_CHARS) is a located error."""
    with pytest.raises(Q.QueryError) as ei:
        Q.parse(cat, text)
    assert ei.value.msg.startswith("too deeply nested")


@pytest.mark.parametrize("text", [_parens(20000), _nots(20000), "can anyone invalidated where " + "not " * 5000 + "locked"])
def test_a_question_over_the_length_limit_is_refused_before_it_is_parsed(cat, text):
    with pytest.raises(Q.QueryError) as ei:
        Q.parse(cat, text)
    assert "over the limit of" in ei.value.msg and ei.value.col == L.QUESTION_CHARS


def test_a_where_condition_too_deep_for_the_expression_parser_is_a_query_error(cat):
    # (a condition over the expression length limit cannot fit in a question: its length limit is the same)
    short = "can anyone invalidated where " + "not " * 40 + "locked"      # within the length, too deep
    with pytest.raises(Q.QueryError) as ei:
        Q.parse(cat, short)
    assert "nested more than" in ei.value.msg and short.index("not") < ei.value.col < len(short)


def test_the_deepest_question_is_answered(cat):
    """At the limit, the rest of the pipeline (compiler, solver, interpreter replay) copes too."""
    sess = Q.Session(cat)
    res = sess.ask(_nots(Q.MAX_DEPTH))                     # an even number of 'not': the player is invalidated
    assert res.answer == "yes"
    assert sess.ask(_parens(Q.MAX_DEPTH)).answer == "yes"


def test_cli_too_deep_exit_2_located(capsys):
    text = _parens(500)
    assert main(["ask", "--lang", "en", text]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: query:1:{11 + Q.MAX_DEPTH + 1}: too deeply nested") and "Traceback" not in err


@pytest.mark.parametrize("ending", ["吗", "吗？", "呢?", "吗 ?"])
def test_a_chinese_question_may_close_with_a_particle(cat, ending):
    """"SP李宁玉能把截获当作误导使用吗？" — a closing 吗 / 呢 is a filler like any other, also at the end."""
    plain = Q.parse(cat, "SP李宁玉能把截获当作误导使用")
    closed = Q.parse(cat, "SP李宁玉能把截获当作误导使用" + ending)
    assert Q.atoms_of(closed.claim) == Q.atoms_of(plain.claim) and closed.givens == plain.givens
    with pytest.raises(Q.QueryError):                  # a particle does not excuse what follows it
        Q.parse(cat, "SP李宁玉能把截获当作误导使用吗 截获")
