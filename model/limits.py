"""Input limits, in one place.

Every catalogue and scenario file is held to these before anything else reads it, so that no input —
however large, deep or strange — makes skillproof crash or stall: going over a limit is an ordinary
located error (``file:line: [key] message``, exit 2). The values are far above what the real game needs
(the shipped catalogue: 13 cards, 63 characters, 103 rules, files under 20 kB, expressions of at most
150 characters nested 6 deep, a few skills per character). docs/catalogue-format.md § Limits lists them.
"""
from __future__ import annotations

# ------------------------------------------------------------------------------------------ catalogue
FILE_BYTES = 2 * 1024 * 1024          # one catalogue file
TOTAL_BYTES = 16 * 1024 * 1024        # every file of one catalogue together
FILES = 10_000                        # .toml files in one catalogue (one per character is usual)
TOML_DEPTH = 16                       # arrays and inline tables nested in one another
NAME_CHARS = 200                      # an id, a name, an alias, a key
STRING_CHARS = 10_000                 # any other string (text, trigger …)
LIST_ITEMS = 5_000                    # the entries of any one array
INT_MAX = 1_000_000                   # every integer n has -INT_MAX <= n <= INT_MAX
NUMBER_CHARS = 40                     # the digits of one number literal (TOML, expressions, JSON)

CARDS = 500
CHARACTERS = 2_000
RULES = 5_000                         # [[skill]] and [[grant]] tables together
SKILLS_PER_CHARACTER = 64
GIVES_PER_RULE = 64                   # [[…gives]] of one skill, grant or card
EFFECTS_PER_RULE = 32                 # [[skill.win]] / [[skill.result]] of one rule
TRIGGERS_PER_RULE = 32                # [[skill.on]] events one TriggeredSkill answers
EFFECT_OPS_PER_RULE = 64              # the ops of one rule's or card's 'do', its alternatives' ops included
PARAMS_PER_GRANT = 16
ALIASES = 32
INTENTS = 5_000                       # [[intent]] tables
CLAIM_CHARS = 2_000                   # one intent's claim (a question of the ask language)
QUESTION_CHARS = 2_000                # one question of `skillproof ask` (as an intent's claim)

# ---------------------------------------------------------------------------------------- expressions
EXPR_CHARS = 2_000                    # one condition
EXPR_NESTING = 32                     # parentheses, if/then/else, quantifiers, sets, not and minus chains
EXPR_DEPTH = 64                       # depth of the parsed tree; a chain of and/or/+ adds a level per term

# -------------------------------------------------------------------------------------- scenario files
SCENARIO_BYTES = 1024 * 1024
JSON_DEPTH = 32                       # arrays and objects nested in one another
SEATS = 9                             # seats of a scenario (and the [rules] seats maximum)
SKILLS_PER_SEAT = 256
QUESTIONS = 1_000                     # the question and its 'also' list
TRACE_EVENTS = 10_000                 # events of a scenario's trace

# ------------------------------------------------------------------------------------- suggestions
SUGGEST_CHARS = 64                    # no "did you mean" for a longer name (nothing is that long)
SUGGEST_CELLS_PER_NAME = 400_000      # edit-distance work for one suggestion
SUGGEST_CELLS_PER_RUN = 6_000_000     # … and for every suggestion of one load (then: no suggestion)

