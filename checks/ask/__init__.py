"""Designers' questions: the query language of `skillproof ask`, its compiler to z3 and its answers.

A query names a player (a character, or anyone), a claim about one decision of the rules (can a card be
played as another, is it banned, must they receive, are they skipped, which send rule is in force, how
many cards they draw …) and givens (skills held, grants in force with or without their parameters,
invalidation, any condition of the catalogue's condition language). Any detail left out, or written
``?``, is left to the solver. Three forms:

* ``exists``/``can`` (default) — find a reachable state where the claim holds: a minimal witness;
* ``always`` — prove the claim for every reachable state (within the search bounds), or show a
  counterexample; ``never`` — prove it never holds, or show where it does;
* ``which`` — every answer a decision can give (which conversion fires, which send rule is in force,
  the draw count, the receive obligation), each with a witness.

The grammar is in parser.py (and docs/query-language.md, with the vocabulary). Parsed by us — never
``eval`` — with errors that carry the column of the offending word and the nearest valid name.

Answers come from ``Session.ask``: a ``Result`` with ``answer`` yes / no / unknown, the witness (state,
decide-form questions and the interpreter's answers, i.e. a scenario file), the interpreter's step-by-step
narration, and for proofs the minimal unsat core over the named reachability constraints and the
query's own givens, each mapped to catalogue lines. Every witness is replayed through the reference
interpreter before it is shown.

The modules, in the order a question goes through them:

* names.py — the names a question may use (cards, characters, skills, grants, phases, send groups);
* lexer.py — tokens (English and Chinese keywords, runs of Chinese split into names) and the token cursor;
* parser.py — the grammar and the question's structure; parse_atoms.py — the atoms of a claim;
  parse_grants.py — grant references and their parameters; params.py — parameter values to enumerate;
  syntax.py — the tree they build; errors.py — the located QueryError;
* evaluate.py — what a claim / given means on a concrete state (the reference interpreter);
* compile.py — the same as z3 terms over the encoder's symbolic state;
* engine.py — Session (ask one question after another) and Engine (a warm solver);
* answer.py — answering: witnesses, minimal cores; which.py — ``which`` questions; result.py — Result;
* present.py — the text of an answer and of each reason.
"""
from .engine import DEFAULT_GRANTS, DEFAULT_SEATS, DEFAULT_TIMEOUT_MS, Engine, Session
from .errors import QueryError, display_width
from .evaluate import eval_claim, eval_given
from .names import GROUPS, PHASES, Names
from .parser import GRAMMAR, MAX_DEPTH, Parser, parse
from .result import Item, Result
from .syntax import Atom, BoolOp, Given, GrantRef, Not, Query, Which, atoms_of

__all__ = ["DEFAULT_GRANTS", "DEFAULT_SEATS", "DEFAULT_TIMEOUT_MS", "Engine", "Session", "QueryError", "display_width",
           "eval_claim", "eval_given", "GROUPS", "PHASES", "Names", "GRAMMAR", "MAX_DEPTH", "Parser", "parse", "Item",
           "Result", "Atom", "BoolOp", "Given", "GrantRef", "Not", "Query", "Which", "atoms_of"]
