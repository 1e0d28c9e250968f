"""A thirteenth set of designers' questions (issue 23: asked as designers speak, answered as the server plays), written
blind by a designer who has not seen the grammar tuned on the earlier tables — each answer read from the server before
the tool was run — on skills the earlier tables leave alone and in new verbs, word orders and 口语: the table
``tests/fixtures/ask-designer13.toml`` (``expect`` the tool's answer, verified; ``truth`` the server's where the tool
still refuses or answers unknown). The general readings the set needed are tested on questions of their class in
tests/test_ask_forms14.py."""
from __future__ import annotations

from askkit import assert_open_questions_say_the_truth, cat, sess, table_tests  # noqa: F401  (fixtures)

OTHER_TABLES = ["ask-triggers.toml", "ask-effects.toml", "ask-targets.toml", "ask-designer2.toml", "ask-designer3.toml",
                "ask-designer4.toml", "ask-designer5.toml", "ask-designer6.toml", "ask-designer7.toml",
                "ask-designer8.toml", "ask-designer9.toml", "ask-designer10.toml", "ask-forms11.toml",
                "ask-designer11.toml", "ask-forms12.toml", "ask-designer12.toml"]
QUESTIONS, test_the_table_holds_its_questions, test_each_question_is_answered_as_the_server_plays = \
    table_tests("ask-designer13.toml", OTHER_TABLES, at_least=54, answered_at_least=31)


def test_each_open_question_says_the_servers_answer():
    """Where the tool still refuses or answers unknown, the table keeps the server's answer (``truth``) beside it."""
    assert_open_questions_say_the_truth(QUESTIONS)
