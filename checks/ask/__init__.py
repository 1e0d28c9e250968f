"""Designers' questions: the query language of `skillproof ask`, its compiler to z3 and its answers.

A query names a player (a character, or anyone), a claim about one decision of the rules (can a card be
played as another, is it banned, must they receive, are they skipped, which send rule is in force, how
many cards they draw …) and givens (skills held, grants in force with or without their parameters,
invalidation, any condition of the catalogue's condition language). Any detail left out, or written
``?``, is left to the solver. Three forms:

* ``exists``/``can`` (default) — find a reachable moment of a game where the claim holds: a minimal witness,
  a trace of the game's events that leads there;
* ``always`` — prove the claim at every reachable moment where its decisions are taken (within the search
  bounds), or show a counterexample; ``never`` — prove it never holds, or show where it does;
* ``which`` — every answer a decision can give (which conversion fires, which send rule is in force,
  the draw count, the receive obligation), each with a witness.

Time: each atom is read at the moment its decision is taken (receive in 传递阶段, send at send-phase start,
draw in the draw phase, the skips in 争夺阶段 / 濒死求澄清, a play where the declared card may be used — the
atom's *frame*, evaluate.py / compile.py); window words ("in the main phase", "when someone is dying",
"in 陈大耳's turn", "after 后来人", "… in the previous turn") fix the moment (parse_moments.py).

The grammar is in parser.py, the phrasebook in phrases.py (and both in docs/query-language.md, with the
vocabulary). Parsed by us — never ``eval`` — with errors that carry the column of the offending word, the
nearest valid name and the nearest accepted phrasing.

Answers come from ``Session.ask``: a ``Result`` with ``answer`` yes / no / unknown, the witness (a trace,
the state it reaches, decide-form questions and the interpreter's answers, i.e. a scenario file), the trace
told step by step and the interpreter's step-by-step narration, and for proofs the minimal unsat core over
the named reachability constraints and the query's own givens, each mapped to catalogue lines. Every
witness trace is run event by event through the reference interpreter (model.interp.trace.run) and the question
answered on the state it reaches before it is shown.

The modules, in the order a question goes through them:

* names.py — the names a question may use (cards, characters, skills, grants, phases, send groups);
* lexer.py — tokens (English and Chinese keywords, runs of Chinese split into names, the fewest pieces) and
  the token cursor;
* phrases.py — the phrasebook: how designers write (Chinese first, English too), rewritten into the grammar's
  words, columns kept (phrasing.py applies it to a question's tokens);
* parser.py — the grammar and the question's structure; parse_atoms.py — the atoms of a claim;
  parse_grants.py — grant references and their parameters; parse_moments.py — window words, whose turn,
  ``after X`` and ``in the previous turn``; parse_zh.py — clauses closed by a postposition, topics, the
  phrasebook's ready-made givens; parse_player.py — who the question is about (roles, 其他角色, only);
  params.py — parameter values to enumerate; syntax.py — the tree they build; errors.py — the located
  QueryError; repair.py — the nearest accepted phrasing a refused question's error offers;
* evaluate.py — what a claim / given means on a concrete state (the reference interpreter);
* compile.py — the same as z3 terms over the encoder's symbolic state;
* engine.py — Engine (a warm solver); session.py — Session (ask one question after another);
* events.py — ``which events`` (遗信什么时候发动), order.py — ``which order`` (承志和遗信谁先发动): told from the
  catalogue and the server's engine, no solver; table.py — table questions, asked of games;
* answer.py — answering: witnesses, minimal cores; which.py — ``which`` questions; readings.py — the
  readings of an ambiguous question, said with its answer; result.py — Result;
* present.py — the text of an answer and of each reason.
"""
from .engine import DEFAULT_GRANTS, DEFAULT_SEATS, DEFAULT_TIMEOUT_MS, DEFAULT_TURNS, Engine
from .session import Session
from .errors import QueryError, display_width
from .evaluate import eval_claim, eval_given
from .names import GROUPS, PHASES, WINDOW_PHRASES, Names
from .parser import GRAMMAR, MAX_DEPTH, Parser, parse
from .result import Item, Result
from .syntax import Atom, BoolOp, Given, GrantRef, Not, Query, Which, atoms_of

__all__ = ["DEFAULT_GRANTS", "DEFAULT_SEATS", "DEFAULT_TIMEOUT_MS", "DEFAULT_TURNS", "Engine", "Session", "QueryError", "display_width",
           "eval_claim", "eval_given", "GROUPS", "PHASES", "WINDOW_PHRASES", "Names", "GRAMMAR", "MAX_DEPTH", "Parser",
           "parse", "Item", "Result", "Atom", "BoolOp", "Given", "GrantRef", "Not", "Query", "Which", "atoms_of"]
