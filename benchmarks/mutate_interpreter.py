"""Mutation testing of the reference interpreter: is every small mistake in it caught by the cross-check?

    .venv/bin/python benchmarks/mutate_interpreter.py [--mutants 40] [--seed 0] [--states 200] [--games 1000]
        [--target MODULE ...] [--only FUNC] [--ids 3,17] [--timeout 180] [--jobs 1]
        [--tests TEST ...] [--skip-explained] [--no-baseline] [--no-map] [--rebuild-map] [--resume FILE] [--list]
        [--json]

Mutants of the interpreter's modules, ``model/interp/*.py`` (every one by default; ``--target`` names some of them,
e.g. ``--target conversion --target trace``) — and, when named, the z3 twin's modules ``checks/enc/*.py`` as
``enc.MODULE`` (``--target enc.game``: a mistake in the twin must make the cross-check fail too) — are generated with
the ``ast`` module, one small edit each, the rest of the file byte for byte unchanged:

    cmp       a comparison operator swapped (== / !=, < / <=, > / >=, in / not in, is / is not)
    boolop    ``and`` / ``or`` swapped
    not-      a ``not`` removed
    not+      ``not`` inserted on the condition of an ``if`` / ``elif`` / conditional expression
    const     ``True`` / ``False`` flipped
    body      the body of an ``if`` / ``elif`` branch replaced by ``pass``
    return    a returned value changed (a boolean-looking one negated, any other one replaced by None)
    int+1 / int-1    an integer constant off by one

and in the twin (``enc.MODULE``) on its solver terms, numbered after the others (whose ids they leave as they were):

    z3andor   ``And(…)`` / ``Or(…)`` swapped (z3's, or ``checks/terms``' of that name)
    z3not-    a ``Not(x)`` made ``x``

(In the twin a Python ``not`` — ``not-``, ``not+``, a negated ``return`` — put on a solver term raises: such a
mutant is caught as a *crash* at once, telling little; its comparisons, ``and`` / ``or`` on Python values, constants,
bodies and integers are the informative ones.) Each mutant is listed with its function and line; the sample (``--mutants`` of them, drawn with ``--seed``
from every mutant of the target, or of the functions named by ``--only``) is deterministic. Each mutant
runs in its own subprocess — the mutated source is loaded by an import hook in place of the real module (the
real file is never touched) — against a reduced cross-check: ``tests/test_crosscheck_cases.py``
(hand-made traces: every refusal of an event that the random traces never get wrong, and what no compared decision
reads), ``tests/test_crosscheck.py``, ``tests/test_crosscheck_extra.py``, ``tests/test_crosscheck_setup.py`` (the
table's shape asked of the solver), ``tests/test_crosscheck_core.py`` (the twin's slot lookups the families ask with), ``tests/test_crosscheck_skip.py``
(a player with no skill slot, every skip rule), ``tests/test_crosscheck_usable.py`` (every seat's use of an
ActiveSkill),
``tests/test_crosscheck_replace.py``
(role replacements anywhere), ``tests/test_crosscheck_active.py`` (grants handed out by ActiveSkills),
``tests/test_crosscheck_game_cases.py`` (hand-made whole games), ``tests/test_crosscheck_game.py`` (random whole
games: ``SKILLPROOF_CROSSCHECK_GAMES=--games``, a hundredth of them through the solver; for the whole-game modules —
dying, fires, game, ops, path, table, win, and their twins, and hole.py — the two game files run right after the first) and
``tests/test_gives_at_once.py`` / ``tests/test_gives_to_one.py`` (the grants an effect hands out, in shipped games) and
``tests/test_trace_face.py`` (the faces a use leaves), ``tests/test_realise.py`` (templates the realiser fills, the fillings
run by the interpreter), ``tests/test_reasons_lang.py`` (every reason's words), ``tests/test_ask_must_fire.py`` (which
gives sites fire by themselves) and ``tests/test_crosscheck_randcat.py`` (random catalogues) (or ``--tests``) with
``SKILLPROOF_CROSSCHECK_STATES=--states`` (and half as many extra states), stopping at the first failure. A mutant is *caught* when the cross-check fails (the interpreter and the z3 encoder disagree,
a hand-made case's verdict is not the interpreter's, or the interpreter crashes), or runs over ``--timeout``; it
*survives* when the cross-check passes.

Which files a mutant runs, in which order: a *coverage map* (``file_map``) runs each file alone once on the unmutated
code, recording which functions of every target module it runs (a call-only trace) and its CPU seconds; every file must
pass (the baseline). A mutant then runs only the files that run the function whose body holds its edit
(``Mutant.scope``; an edit run at import — module or class level, a def's header — runs every file), cheapest first,
stopping at the first failure; a mutant no file reaches survives at once (``not reached``). Run alone, a file that never
runs the function cannot tell the mutant apart (a value it reads through a cache is computed by a call it would make
itself). The map is cached in the temporary directory under a hash of the package's and the tests' sources, the files
and the sizes (``--rebuild-map`` measures it again). ``--no-map`` is the earlier way: every file, in the fixed order
(``ordered_tests``), after one run of the unmutated module.

Printed: a verdict per mutant, the totals, and every survivor with its diff. A survivor looked at by hand is
listed in ``EXPLAINED`` (below, with the table here) and printed as *explained*; any other is ``SURVIVED``.
Exit status 1 if a mutant survives unexplained (or a run fails to start).

Functions outside the cross-check's decisions are not mutated (``NOT_CROSSCHECKED``): ``decide`` / ``matches``
(question plumbing, replay tests), ``reachable`` and its helpers (untimed-state reachability of older
scenario files: no z3 twin since reachability became a property of traces), ``plays`` (no z3 twin),
``invalidate`` (a unit-test helper), and in trace.py the serialisation.

Survivors explained (seen in the runs recorded in the README's Reliability section):

| mutant | class | why |
| --- | --- | --- |
| evaluate: ``unknowns.get(node.key, False)`` -> ``True`` | equivalent | the default of an unknown the state does not bind: every state the cross-check draws binds all of them, and the encoder has no default (an unbound unknown is free there) |
| trace.py Run: ``turns: int = 0`` -> ``1`` / ``-1`` | equivalent | the default is never used: ``Runner.finish`` always passes the count, and so does the one test that makes a ``Run`` itself |
| trace.py Runner.__init__: ``self.k = -1`` -> ``-2`` / ``0`` | equivalent | nothing reads it before ``run``'s loop sets it to the event's index (setup errors carry their own -1, ``finish`` its own index, and no error or raised event is recorded before the first event) |
| trace.py give_errors: ``counts.get((ev.site, ev.seat), 0) >= give.per_turn`` -> default ``-1`` | equivalent | the loader refuses ``per_turn`` below 1, so a site not yet used this turn passes with either default |
| trace.py give_errors / replace_errors: ``return ""`` -> ``None`` | equivalent | both falsy: ``on_give`` / ``on_replace``, their only callers, record no error either way |
| table.py ``DECK``: a count off by one | equivalent | nothing reads ``DECK`` (it records the server's deck, card/Deck.kt; no rule, twin or check draws from counted cards) |
| dying.py dying_errors / die_errors, path.py pass_errors: ``return ""`` -> ``None`` | equivalent | both falsy: game.py's ``on_window`` / ``on_die`` / ``message_step``, their only callers, take ``if why:`` and record no error either way |
| table.py ``decompose``: the negative-count guard removed or loosened, a loop started at -1 or ended one step later, its no-negative-count test loosened (11 of its 29 mutants) | equivalent | an area is kept only when no class count is negative and its counts are the ones asked for: such a count makes a loop empty or no area match, and the extra steps try only areas with a negative class count (which the loops' bounds never make); the game cases compare ``decompose`` with its twin for every small count |
| table.py ``next_alive``: its walk ``range(n - 1)`` -> ``range(n)`` | equivalent | the extra step reaches the seat itself, which the walk returns after it anyway (the server's getNextLeftAlivePlayer / getNextRightAlivePlayer stop back at their own seat): alive or dead, the answer is the seat |
| ops.py ``op_remove_message``: ``.get(cls, 0) < 1`` -> default ``-1`` | equivalent | a class the area does not hold is below 1 with either default |
| ops.py ``has_prose``: its result negated | equivalent | its one caller fills ``GameRunner.prose``, which nothing reads (no decision, no compared table value, no twin) |
| ops.py ``op_swap``: ``d.prose = True`` -> ``False`` | equivalent | ``prose`` only feeds ``GameRunner.prose``, read by nothing (as ``has_prose`` above) |
| ops.py ``Doing``: ``prose`` / ``by_skill`` defaults ``False`` -> ``True`` | equivalent | ``prose`` only feeds ``GameRunner.prose`` (read by nothing); ``by_skill`` is set by ``GameRunner.do``, the one maker of a ``Doing`` |
| game.py ``on_play``: ``max(0, hand - 1)`` -> ``max(-1, …)`` | equivalent | only a play from an empty hand reaches -1, and it is refused already: the trace is illegal either way |
| game.py ``turn_end_ok``: ``base in ("send", "fight") and st.message_sent`` -> ``or`` | equivalent | a send or fight window is entered only once the message is sent (a refused window is not entered), so the window implies the send; otherwise both inner tests are false |
| path.py ``first_stop_ok``: ``to_self: bool = False`` -> ``True`` | equivalent | the default is never used: its one caller passes ``[rules] send_to_self`` |
| win.py ``dealt``: a bound off by one or a seat-count test moved by one (21 of its 71 mutants) | equivalent | every bound so changed is forced by the others (the three counts sum to ``n``) or gives the same bounds at that seat count; the game cases compare every identity count of one to nine seats between the twins, so a ``dealt`` mutant they miss decides no deal otherwise |
| game.py ``GameRunner.__init__``: ``ending`` starting ``True`` | equivalent | only ``turn_end_ok`` reads it, at a turn_end window: refused before the first turn (a window before any turn started), and ``on_turn`` resets it |
| face.py ``UNTURNED``'s last ``False`` -> ``True`` | equivalent | the faces of a rule the catalogue does not have: ``Runner.on_use`` turns a face only once the seat holds an unused copy (every held rule is the catalogue's) |
| face.py ``face_errors``: either ``return ""`` -> ``None`` (#12, #22) | equivalent | both falsy to ``turn_face``'s ``if why:``, its one caller — argued here, not in ``EXPLAINED`` (its key would name both, two edits: the test wants one) |
| bans.py ``ban_all``: the default of a ``ban.all`` parameter the entry does not bind, ``False`` -> ``True`` | equivalent | as ``evaluate``'s default of an unknown: a give missing a parameter is refused, every drawn state binds them, the encoder has no default |
| game.py ``window_players``: a player who is not there read as seat 0, not -1 | equivalent | a card's target condition reads only its window's players (``model.turn.target_players``), and each of those is a seat there (a window naming no seat is refused) |
| game.py ``GameRunner.do``: ``self.prose.append(self.k)`` emptied | equivalent | ``GameRunner.prose`` is read by nothing (as ``has_prose`` above) |
| game.py ``setup_errors``: an area's ``k < 0`` made ``k <= 0`` | equivalent | every maker of a game's setup (``State.from_dict``, ``enc.game.fill_template``) drops a class with no card |
| face.py ``turns``: its test negated or read off another field (4 mutants) | equivalent | no decision of either twin reads it: only the random trace generator (tests/randtrace.py) does, to draw role-turning skills more often |
| plays.py ``plays_when``: ``p is not None and p.when`` -> ``or`` | equivalent | every caller passes a skill that has ``plays``, and an empty ``when`` table's ``.get`` is None, the other branch's value |
| conversion.py ``Conversion`` not frozen; ``via_must`` starting ``True`` | equivalent | nothing hashes or changes a ``Conversion``; ``via_must`` is read only once ``via`` is set, and the first conversion that fires sets both |
| hole.py ``is_hole`` negated | equivalent | read by nothing |
| hole.py ``Hole`` not frozen | equivalent | nothing hashes or changes a hole; the twin compares two holes of one name with ``!=``, which a plain dataclass keeps |
| hole.py ``values``: ``d[0]`` -> ``d[-1]`` in the count branch (#32, #35) | equivalent | the branch is taken only when ``len(d) == 1``: the first value is the last |
| hole.py ``values``: no alt domain reaching index 8 (``range(9)``, #38) | equivalent | no choose op of a shipped or random catalogue has more than three alternatives, and both twins refuse an index past its op's last (the game case of a choose of eight). The cap of 8 itself is a limit, noted: a choose of nine or more alternatives can't be realised past its eighth through an empty domain or ``AUTO`` |
| hole.py ``values``: no int domain from -1 (``(0, 20)`` -> ``(-1, 20)``, #16) | equivalent | every int a template may leave open is refused below 0 by both twins: a hand or an area count (``setup_errors``), a decision's ``n`` (between the op's amounts, 0 and up) and a draw's ``n`` (it must equal the draw count: the loader refuses a negative ``draw_base``, but a ChangeDrawCardCountSkill's expression may go below 0 — there a hand-written template's empty-domain hole at that ``n`` would admit -1 under the mutant; no template the project builds opens one: the realiser never, ``randgame.template_of`` only over a drawn 0 to 7) — argued here, not in ``EXPLAINED`` (its key also names #11, ``d[0]`` -> ``d[-1]`` on the same line, which is caught) |
| grants.py ``matters_windows``: a conversion's windows made None (#42), or its ``return`` emptied (#40: None too) | equivalent | None is the sound "any moment" its docstring allows: ``realise.asks_there`` then solves a template it would have skipped, and finds no filling there (``grant_matters`` is false outside every card's windows) — the same answers, more templates solved (none of the suite's realiser tests tells them apart) |
| hole.py ``holes_of``: the holes inside a list not listed (#51) | equivalent | the only ones are a seat's area written as pairs, and the twin's ``_area`` reads every pair of a colour class, opening its variable as the loop over ``holes_of`` would |
| the twin, enc/game.py ``INVALID_SEAT``: ``10 ** 6`` -> ``10 ** 5`` | equivalent | the code of a seat value that is no seat need only be no seat and not ``NONE`` |
| the twin, enc/game.py ``GameEncoding.hole``: a domain written as bounds from four codes up, not three | equivalent | a run of three codes is then written as its three values: the same set |
| the twin, enc/game.py ``GameEncoding.on_turn``: ``turns_ago += 1`` -> ``+= 0`` | equivalent | nothing in the game twin reads a grant's ``turns_ago`` (the questions that do read the interpreter's states) |
| the twin, enc/game.py ``GameEncoding._turn_end_lifetimes``: the seat's ``invalidated`` left true at the turn end | equivalent | the game twin reads invalidation per skill copy (``SkillInst.invalid``, restored on the next line); the seat's flag only at the setup |
| the twin, enc/game.py ``GameEncoding.on_fire``: the return after a fire that answers nothing emptied | equivalent | the trace is illegal already (a false constant); the effect done after it changes only the table of an illegal trace, which nothing compares |
| the twin, enc/table.py ``enc_decompose``: its area starting as ones; ``SymTable``'s default turn -1 | equivalent | the loop sets all seven classes before reading the area; the one maker of a ``SymTable`` passes the turn |
| core.py ``ref_value``: its "any" branch emptied | equivalent | the reference falls through to ``inst.args.get("")`` (an any reference's value is ""), None as before: the loader refuses an empty parameter name |
| the twin, enc/core.py ``_key``: a z3 term keyed by itself, not by its AST id | equivalent | z3 hash-conses a context's terms: equal ids exactly when one AST, and a term's hash and ``==`` (an equality whose truth is ``eq``) say the same |
| the twin, enc/windows.py ``enc_seat_alive``: its solver-value test negated | equivalent | a Python int returns before it, a value takes the Or of equalities (the same truth), and every caller passes an int |
| grants.py ``must_fire``: ``top[0]`` -> ``top[-1]`` (#163, and its twin on the same line) | equivalent | read only once ``len(top) == 1``: the first is the last |
| grants.py ``must_fire``: ``top[0]`` -> ``top[-1]`` in ``to = …`` (#168) | equivalent | reached only past the test that ``len(top) == 1`` |
| grants.py ``one_grants``: no words de-duplicated or kept (#82 #83 #84) | equivalent | every caller reads only its keys (``GameRunner.owe``, ``one_granted``, ``randgame.gives``; ``realise``'s ``to_one`` reads the ops), set before the edit |
| grants.py ``args_errors``: ``return ""`` -> ``None`` (#120) | equivalent | both falsy: its two callers take ``if why:`` |
| grants.py ``matters_windows``: its guard for an unknown rule emptied (#25) | equivalent | unreachable: every ``matters`` question ``asks_there`` is given was answered by ``decide`` in the same catalogue, whose ``grant_matters`` reads ``cat.skills[rule]`` unguarded |
| the twin, enc/draw.py ``enc_draw_count``: its skip of a rule with no ``draw`` emptied | equivalent | unreachable: the loader refuses a ChangeDrawCardCountSkill without ``draw`` |
| the twin, enc/dying.py ``enc_dying_first``: its last ``return False`` made True | equivalent | reached only for no seat, and every caller passes a seat ``seat_ok`` checked |
| the twin, enc/remind.py ``enc_reminds_for``: the answer for a rule with no ``remind`` emptied, None or true | equivalent | unreachable: the linker gives every MainPhaseSkill a ``remind`` (the server's default when none is written) |
| the twin, enc/receive.py ``enc_receive_parts``: its skip of a rule with no ``receive`` emptied | equivalent | unreachable: the loader refuses a MustReceiveMessage without ``receive`` |
| the twin, enc/send.py ``enc_send_allowed``: its skip of a rule with no ``send`` emptied | equivalent | unreachable: the loader refuses a SendMessage skill without ``send`` |
| the twin, enc/send.py ``enc_default_send``: the default rule's terms built directly, emptied | equivalent | compiling the default's expression, as it then does, builds the same terms |
| the twin, enc/receive.py: ``FREE`` -1 or ``CANNOT`` 3 | equivalent | the codes need only be distinct: every reader names them through the constants |
| the twin, enc/receive.py ``receive_rule_parts``: the answer for a rule with no ``receive`` emptied or None | equivalent | unreachable: every caller (checks/families only) passes a rule with ``receive`` |
| the twin, enc/bans.py ``enc_banned`` / ``enc_banned_by``: the skip of a rule with no ``ban`` emptied | equivalent | unreachable: the loader refuses a CannotPlayCard without ``ban`` |
| the twin, enc/bans.py ``enc_banned_by``: the skip of an initial slot or of no sites emptied, or its ``or`` made ``and`` (#17, #18) | equivalent | the terms then added are false: an initial slot has no site (``None == c`` is False) and the Or of no site codes is false — #17 and #21 (the skip of a rule with no ``ban``) argued here, not in ``EXPLAINED`` (one key names both) |
| the twin, enc/conversion.py ``enc_conversion``: ``via_must`` starting true; the skip of a rule with no ``convert`` emptied | equivalent | as the interpreter's ``via_must``: read only once ``via`` is set, which sets both; unreachable: the loader refuses a ConvertCardSkill without ``convert`` |
| the twin, enc/windows.py ``enc_seat_alive``: the answer for a Python int or a z3 number emptied (#38, #41), the Or's value made None (#43) | equivalent | the seat falls through to the Or of equalities, which for a number is the seat's own term; the Or is reached only for a seat that is a solver term, which no caller passes |
| the twin, enc/windows.py ``enc_at_decision``: the liveness of a seat that is not a Python int made false (#47) | equivalent | unreachable: every caller passes an int seat (0, the default, or ``enc_grant_matters``' seat, 0 from each of its callers) |
| the twin, enc/snapshot.py ``enc_snapshot``: "at least ``min_seats`` players" or the seat order starting at seat 0 (#7, #1) | equivalent | seat 0 is present by construction (``SymState.present[0]`` is the constant True): the added constraint is true — #1 argued here, not in ``EXPLAINED`` (its key also names #3, the loop's end moved, which is caught) |
| the twin, enc/windows.py ``enc_seat_alive``: its Or of equalities made And, or the And inside made Or (``z3andor``) | equivalent | reached only for a seat that is a solver term, and no caller passes one (``enc_in_window``, its one caller, gets an int or an int value from every caller) |
| the twin, enc/skip.py ``_usable``: its skip of an ActiveSkill with no condition for the phase emptied (#6) | equivalent | unreachable: asked of ``fight`` / ``dying`` only, and the linker gives every ActiveSkill both (``false`` where none is written) |
| the twin, enc/usable.py ``unconditional``: a plainly true fight / dying condition left out, a plainly true ``main`` kept (#6) | equivalent | every caller uses it only to leave out ``Implies(now == w, c)`` for a plainly true ``c``, a true conjunct kept or not |
| the twin, enc/usable.py ``enc_skill_usable_now``: the answer for a rule no other seat's role holds emptied (#34) | equivalent | it falls through to the Or of no roles, false: the same answer |
| the twin, enc/usable.py ``enc_requires_met``: its default ``used`` made true (#42); its answer for no condition emptied or made false (#44 #46) | equivalent | its one caller (enc.game ``requires_ok``) passes ``used``, and returns before it when the rule has no ``requires`` |
| the twin, enc/game.py ``GameEncoding.pin``: its skip of a name with no variable emptied | equivalent | every hole of a template has its variable (read or not), and every caller pins the names ``randgame.template_of`` gave for that template |

(The earlier entries — a seat, site, character or parameter that is not one, a give before any turn, a turn started
before the last one ended, a character seated twice, a locked sender under ``lock_self = false``, the words of a
reason — are caught since ``tests/test_crosscheck_cases.py`` runs them by hand.)
"""
from __future__ import annotations

import argparse
import ast
import dataclasses
import difflib
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: the interpreter's modules, one per decision area (docs/layout.md): name -> (module, file)
TARGETS = {p.stem: (f"skillproof.model.interp.{p.stem}", p)
           for p in sorted((ROOT / "model" / "interp").glob("*.py")) if p.stem != "__init__"}
#: the interpreter's modules: what is mutated when no ``--target`` is named (ids are per module, unchanged by the twins)
INTERP_TARGETS = list(TARGETS)
#: the z3 twin's modules (checks/enc/*.py), named ``enc.MODULE``: mutated only when named (``--target enc.game``). A
#: twin mutant is caught the same way — the cross-check's two sides disagree, a case's verdict is not the
#: interpreter's, or the twin raises
TARGETS.update({f"enc.{p.stem}": (f"skillproof.checks.enc.{p.stem}", p)
                for p in sorted((ROOT / "checks" / "enc").glob("*.py")) if p.stem != "__init__"})
# the hand-made cases first: they take two seconds, and a mutant they catch stops there (``-x``)
CROSSCHECK = ["tests/test_crosscheck_cases.py", "tests/test_crosscheck.py", "tests/test_crosscheck_extra.py",
              # the table's shape asked of the solver, both twins (about 1 s of CPU): enc.snapshot #0 #1 #2 #5 #7 #13 #17
              # (a constraint loosened by one: no concrete state tells) survived the files of this list
              "tests/test_crosscheck_setup.py",
              # the twin's slot lookups the families ask with (holds, slot_is, card_var), compared with the interpreter
              # (about 3 s of CPU): 15 of enc.core's mutants survived the files of this list
              "tests/test_crosscheck_core.py",
              # a player with no skill slot at all, under every [rules] skip_fight / skip_dying (about 1.5 s of CPU):
              # enc.skip #4 #24 (the answers of an empty list flipped) survived the files of this list
              "tests/test_crosscheck_skip.py",
              # every seat's use of every ActiveSkill, and conditions written plainly (about 1 s of CPU): enc.usable
              # #7 #8 (a plainly false main left out), #33 #35-#41 (another seat's use) survived the files of this list
              "tests/test_crosscheck_usable.py",
              "tests/test_crosscheck_replace.py", "tests/test_crosscheck_active.py", "tests/test_crosscheck_game_cases.py",
              "tests/test_crosscheck_game.py",
              # the grants an effect hands out, in shipped games, each compared with the game twin (4.5 s of CPU):
              # enc.game #469 (seed 34) survived the files above and not these
              "tests/test_gives_at_once.py", "tests/test_gives_to_one.py",
              # the faces a use leaves, each compared with the twin (about 1 s of CPU): face.py #13 #19 #20 #32 (a
              # face the use cannot leave, ever face up once up) survived the files above and not this one
              "tests/test_trace_face.py",
              # the realiser's templates filled by the twin, the fillings run by the interpreter (about 9 s of CPU):
              # hole.py #0 (a hole's words), windows.py #49 (a decision asked at any moment) and grants.py #29 #35
              # (matters_windows, read by the realiser alone) survived the files above
              "tests/test_realise.py",
              # the words of every reason in both languages (about 10 s of CPU): snapshot.py #70 (a missing skill's
              # reason made None: the verdict is the same) survived the files above
              "tests/test_reasons_lang.py",
              # which gives sites fire by themselves, both twins (about 2.6 s of CPU): grants.py must_fire #143 #151 #154
              # (seed 42) survived the files above and not this one; #129 #139 not its newer shape-boundary cases either
              "tests/test_ask_must_fire.py",
              # random catalogues' states and traces (about 45 s of CPU; run where the coverage map says they reach the
              # mutated function, and last: the costliest): grants.py must_fire #150 (a second grant op of a must-fire
              # skill) survived the files above — no fixed catalogue has that shape
              "tests/test_crosscheck_randcat.py"]
#: the whole-game interpreter's modules (model/interp/play.py runs them): the game cross-check
#: (tests/test_crosscheck_game.py) is what compares them, so it runs right after the hand-made cases for them
WHOLE_GAME = {"dying", "fires", "game", "ops", "path", "table", "win"}
#: read by the game twin only: the values a template's hole may take (model/interp/hole.py, checks/enc/game.py's
#: ``GameEncoding.hole``) — no timed-model test reads a template, so its mutants too go to the game files first
GAME_FIRST = WHOLE_GAME | {"hole"}


def ordered_tests(tests: list[str], target: str) -> list[str]:
    """The cross-check files in the order a mutant of ``target`` is most quickly caught (``-x`` stops at the
    first failure): for a whole-game module the game's hand-made cases and cross-check right after the hand-made
    cases of the timed model."""
    game = [t for t in ("tests/test_crosscheck_game_cases.py", "tests/test_crosscheck_game.py") if t in tests]
    if target.removeprefix("enc.") not in GAME_FIRST or not game:
        return list(tests)
    rest = [t for t in tests if t not in game]
    k = 1 if rest[:1] == ["tests/test_crosscheck_cases.py"] else 0
    return rest[:k] + game + rest[k:]

# Functions outside the decisions the cross-check compares: question plumbing (the answer dicts of
# ``decide`` are exercised by the replay and ask tests) and narration. Their mutants are not generated.
NOT_CROSSCHECKED = {
    "decide": "maps a question dict to the decision functions (replay / ask tests)",
    "matches": "compares an answer with a finding's expectation (replay tests)",
    "Event.to_dict": "serialisation", "Event.from_dict": "serialisation",
    "Trace.to_dict": "serialisation", "Trace.from_dict": "serialisation",
    # the reachability of an untimed state (scenario files written before the timed model): it has no z3 twin
    # since reachability became a property of traces (``interp.trace.run`` is cross-checked against the encoder)
    "reachable": "untimed-state reachability: no z3 twin (tests/test_interpreter.py)",
    "_grant_reason": "part of reachable", "_site": "part of reachable", "_giver_ok": "part of reachable",
    "_invalidation_possible": "part of reachable",
    "invalidate": "a helper of tests/test_interpreter.py (traces invalidate through interp.trace.run)",
    "plays": "the 'plays' question of scenario files (如臂指使): no z3 twin",
}

# Survivors looked at by hand (the table in the docstring says why): (function, operator, the source line the
# edit starts on, the replacement) -> class: "equivalent" (nothing the encoder can represent tells it apart),
# "no twin" (a check the encoder has no counterpart of), "full strength" (the suite's 10,000 states catch it)
EXPLAINED: dict[tuple[str, str, str, str], str] = {
    ("evaluate", "const", "return env.state.unknowns.get(node.key, False)", "True"): "equivalent",
    # model/interp/trace.py
    ("Run", "int+1", "turns: int = 0                  # how many turns the trace started", "(1)"): "equivalent",
    ("Run", "int-1", "turns: int = 0                  # how many turns the trace started", "(-1)"): "equivalent",
    ("Runner.__init__", "int+1", "self.k = -1                      # the index of the event being run", "(2)"):
        "equivalent",
    ("Runner.__init__", "int-1", "self.k = -1                      # the index of the event being run", "(0)"):
        "equivalent",
    ("give_errors", "int-1", "if counts.get((ev.site, ev.seat), 0) >= give.per_turn:", "(-1)"): "equivalent",
    ("give_errors", "return", 'return ""', "None"): "equivalent",
    ("replace_errors", "return", 'return ""', "None"): "equivalent",
    # model/interp/dying.py: game.py's on_window / on_die, their only callers, test the reason for truth only
    ("dying_errors", "return", 'return ""', "None"): "equivalent",
    ("die_errors", "return", 'return ""', "None"): "equivalent",
    # model/interp/path.py: game.py's message_step, its only caller, takes ``if why:``
    ("pass_errors", "return", 'return ""', "None"): "equivalent",
}
# model/interp/table.py: DECK (the server deck's count of each colour class, card/Deck.kt) is read by nothing in
# skillproof — no rule, twin or check draws from a deck of counted cards — so a count off by one changes no result
_DECK_LINE = ('DECK = {"black": 42, "red": 30, "blue": 30, "red_black": 15, "blue_black": 15, "red_blue": 7, '
              '"red_blue_black": 4}')
EXPLAINED.update({("<module>", op, _DECK_LINE, f"({v + d})"): "equivalent"
                  for v in (42, 30, 15, 7, 4) for op, d in (("int+1", 1), ("int-1", -1))})

# model/interp/win.py dealt: a bound that the others force (the counts sum to n; a loosened bound the other colours
# fix, a branch moved by one seat count that gives the same bounds there). tests/test_crosscheck_game_cases.py
# compares every identity count of one to nine seats between the twins: a dealt mutant it misses is equivalent
EXPLAINED.update({k: "equivalent" for k in [
    ('dealt', 'body', 'return {"red": (0, 1), "blue": (0, 1), "black": (0, n)}', 'pass'),
    ('dealt', 'cmp', 'if n <= 2:          # two players: one of black / red and one of black / blue, shuffled', '(n < 2)'),
    ('dealt', 'int-1', 'if n <= 2:          # two players: one of black / red and one of black / blue, shuffled', '(1)'),
    ('dealt', 'int-1', 'return {"red": (0, 1), "blue": (0, 1), "black": (0, n)}', '(-1)'),
    ('dealt', 'cmp', 'if n <= 4:', '(n < 4)'),
    ('dealt', 'int-1', 'if n <= 4:', '(3)'),
    ('dealt', 'int-1', 'return {"red": (0, 1), "blue": (0, 1), "black": (max(0, n - 2), 2)}', '(-1)'),
    ('dealt', 'int+1', 'return {"red": (0, 1), "blue": (0, 1), "black": (max(0, n - 2), 2)}', '(1)'),
    ('dealt', 'int+1', 'return {"red": (0, 1), "blue": (0, 1), "black": (max(0, n - 2), 2)}', '(3)'),
    ('dealt', 'cmp', 'if n <= 8:', '(n < 8)'),
    ('dealt', 'int-1', 'if n <= 8:', '(7)'),
    ('dealt', 'int-1', 'return {"red": (3, 3), "blue": (3, 3), "black": (n - 6, n - 6)}', '(2)'),
    ('dealt', 'int+1', 'return {"red": (3, 3), "blue": (3, 3), "black": (n - 6, n - 6)}', '(4)'),
    ('dealt', 'int+1', 'return {"red": (3, 3), "blue": (3, 3), "black": (n - 6, n - 6)}', '(7)'),
    ('dealt', 'int-1', 'return {"red": (3, 3), "blue": (3, 3), "black": (n - 6, n - 6)}', '(5)'),
]})

# model/interp/table.py decompose: its guard on a negative count, and the ends of its four loops one step wider, change
# no result — every area the loops try is kept only when no class count is negative and its counts are ``five``; a
# negative count makes a loop empty (red, blue, black, non-black) or no area's counts (true), and a class count of -1
# (a loop from -1) or one past its loop's bound (a count the others cannot pay for) is negative itself or leaves red,
# blue or black negative. tests/test_crosscheck_game_cases.py compares decompose with its twin for every count of 0-3 / 0-6.
# Its test that no class count is negative made ``>= -1``: the loops' bounds already keep every class count at 0 or more
EXPLAINED.update({k: "equivalent" for k in [
    ('decompose', 'int-1', 'if min(area.values()) >= 0 and counts(area) == five:', '(-1)'),
    ('decompose', 'body', 'return None', 'pass'),
    ('decompose', 'int-1', 'if min(r, b, k, t, nb) < 0:', '(-1)'),
    ('decompose', 'int-1', 'for rbk in range(0, min(r, b, k) + 1):', '(-1)'),
    ('decompose', 'int+1', 'for rbk in range(0, min(r, b, k) + 1):', '(2)'),
    ('decompose', 'int-1', 'for rb in range(0, min(r, b, nb) + 1):', '(-1)'),
    ('decompose', 'int+1', 'for rb in range(0, min(r, b, nb) + 1):', '(2)'),
    ('decompose', 'int-1', 'for rk in range(0, min(r - rb - rbk, k - rbk) + 1):', '(-1)'),
    ('decompose', 'int+1', 'for rk in range(0, min(r - rb - rbk, k - rbk) + 1):', '(2)'),
    ('decompose', 'int-1', 'for bk in range(0, min(b - rb - rbk, k - rbk - rk) + 1):', '(-1)'),
    ('decompose', 'int+1', 'for bk in range(0, min(b - rb - rbk, k - rbk - rk) + 1):', '(2)'),
]})

# model/interp/path.py first_stop_ok: the default of ``to_self`` is never used — its one caller, send_errors, passes
# ``[rules] send_to_self`` (the twin enc_first_stop_ok the same)
EXPLAINED[("first_stop_ok", "const", "def first_stop_ok(state, sender: int, direction: str, to: int, to_self: bool = "
           "False) -> bool:", "True")] = "equivalent"

# model/interp/table.py next_alive: its walk one step longer reaches the seat itself, which is what the walk returns
# after it anyway (the server's getNextLeftAlivePlayer / getNextRightAlivePlayer stop back at their own seat):
# alive or dead, the answer is the seat. tests/test_crosscheck_game_cases.py compares every pattern of one to five seats
EXPLAINED[("next_alive", "int-1", "for _ in range(n - 1):", "(0)")] = "equivalent"

# model/interp/ops.py op_remove_message: the default of a class the area does not hold, 0 made -1, is below 1 either
# way (the test is ``< 1``: no such message). has_prose: its one caller fills GameRunner.prose, which nothing reads (no
# decision, no compared table value; the twin has none) — negated, no verdict or table changes
EXPLAINED[("op_remove_message", "int-1", "if (area_of(d.st.seats[whose]) or {}).get(cls, 0) < 1:", "(-1)")] = "equivalent"
EXPLAINED[("has_prose", "return", 'return any(o.op == "prose" for o in walk(ops))',
           "(not (any((o.op == 'prose' for o in walk(ops)))))")] = "equivalent"
# ops.py Doing: ``prose`` starting true only feeds GameRunner.prose (read by nothing, as above); ``by_skill``'s default is
# never used — GameRunner.do, the one maker of a Doing, sets it for every effect. game.py on_play: the hand of a seat
# that played with none is 0 or -1 — the play was refused already (``has no card in hand``): the trace is illegal
EXPLAINED[("Doing", "const", "prose: bool = False                  # some op done is in words only", "True")] = \
    "equivalent"
EXPLAINED[("Doing", "const", "by_skill: bool = False               # the effect is a skill's (not a card's): "
           "AddMessageCardEvent.bySkill", "True")] = "equivalent"
# ops.py op_swap: a swap of what it cannot name sets ``prose`` (in words only); not set, only GameRunner.prose (read by
# nothing, as above) changes
EXPLAINED[("op_swap", "const", "d.prose = True", "False")] = "equivalent"
EXPLAINED[("GameRunner.on_play", "int-1", "s.hand_count = max(0, s.hand_count - 1)", "(-1)")] = "equivalent"
# game.py turn_end_ok: ``base in ("send", "fight") and st.message_sent`` -> ``or``: a send or fight window is entered
# only once the message is sent (a refused window is not entered: the window stays), so the window implies the send;
# with the send and another window both tests inside are false and the turn end falls through as before
EXPLAINED[("GameRunner.turn_end_ok", "boolop", 'if base in ("send", "fight") and st.message_sent:',
           "(base in ('send', 'fight') or st.message_sent)")] = "equivalent"

# game.py GameRunner.__init__: ``ending`` starting true is never read — only turn_end_ok reads it, at a turn_end window;
# before the first turn that window is refused anyway (trace.Runner.on_window: a window before any turn started), and
# ``on_turn`` resets it
EXPLAINED[("GameRunner.__init__", "const", "self.ending = False                  # the turn must end now (end_turn, the "
           "turn player out)", "True")] = "equivalent"
# face.py UNTURNED (the faces of a rule the catalogue does not have): ``use_faces`` reads it only for such a rule, and
# trace.Runner.on_use turns a face only once the seat holds an unused copy of the rule (every held rule is the
# catalogue's: the setup refuses others) — a use of an unknown rule is refused before. (face_errors' two ``return ""``
# -> ``None``, #12 #22, are equivalent too — both falsy to its one caller's ``if why:`` — argued in the table, not
# listed: one key would name both)
EXPLAINED[("<module>", "const", "UNTURNED = (None, frozenset({None}), False)", "True")] = "equivalent"
# bans.py ban_all: the default of a ``ban.all`` parameter the entry does not bind, False made True — as ``evaluate``'s
# default of an unknown: a give with a parameter missing is refused (grants.args_errors), every state and setup the
# cross-check draws binds every parameter of a grant it holds, and the encoder has no default (an unbound one is free)
EXPLAINED[("ban_all", "const", "return bool(inst.args.get(b.value, False)) if isinstance(b, Ref) else bool(b)",
           "True")] = "equivalent"

# checks/enc/game.py (``--target enc.game``): INVALID_SEAT, the code of a seat value that is no seat, need only be
# no seat and not NONE (-1) — 10 ** 5 is as good as 10 ** 6; a hole's domain written as two bounds only from four codes
# up (``len(codes) > 3``) writes a run of three as its three values — the same set; ``pin`` with its skip of a name that
# has no variable removed: every hole of a template has its variable (GameEncoding.__init__ opens one for each, read or
# not) and every caller pins the names ``randgame.template_of`` gave for that very template
EXPLAINED[("<module>", "int-1", "INVALID_SEAT = 10 ** 6", "(5)")] = "equivalent"
EXPLAINED[("GameEncoding.hole", "int+1", "if codes and codes[-1] - codes[0] == len(codes) - 1 and len(codes) > 2:",
           "(3)")] = "equivalent"
EXPLAINED[("GameEncoding.pin", "body", "continue", "pass")] = "equivalent"
# GameEncoding.on_turn: a grant's ``turns_ago`` not counted up at a new turn — nothing in the game twin reads it (the
# questions that do, checks/ask/evaluate.py, read the interpreter's concrete states; the timed twin counts its own)
EXPLAINED[("GameEncoding.on_turn", "int-1", "inst.turns_ago += 1", "(0)")] = "equivalent"
# GameEncoding._turn_end_lifetimes: the seat's flag ``invalidated`` left true at the turn end — the game twin reads
# invalidation per skill copy (``SkillInst.invalid``, restored on the next line; view.SeatView.invalid, live_kinds_of);
# the seat's flag is read only by the setup's checks and by the question encoder's view of another seat, which no game
# step asks
EXPLAINED[("GameEncoding._turn_end_lifetimes", "const", "s.invalidated = False", "True")] = "equivalent"
# GameEncoding.on_fire: ``if ok is False: return`` emptied — the check just before has made the trace illegal already
# (``a pending event the skill answers`` a false constant), so the effect then done changes only the table of an illegal
# trace, which nothing compares (states are compared for legal traces, and no filling makes a false constant true)
EXPLAINED[("GameEncoding.on_fire", "body", "return", "pass")] = "equivalent"
# game.py window_players: a base player who is not there read as seat 0 instead of -1 — a card's target condition reads
# only the players of its window (model.turn.target_players): the turn player (a seat in every window of a turn), the
# sender and the front player in the message windows (a message window names its seat and its sender is a seat, or it is
# refused), the dying player in 濒死求澄清 (named, a seat): every one it may read is there. setup_errors: ``k < 0`` made
# ``k <= 0`` on the area's counts — every maker of a game's setup drops a class with no card (State.from_dict,
# enc.game.fill_template), so no count of 0 reaches it
EXPLAINED[("window_players", "int-1", 'out = {k: (v if ok(v) else -1) for k, v in (("turn_player", st.turn), '
           '("sender", st.sender),', "(0)")] = "equivalent"
# game.py GameRunner.do: the event's index not added to ``GameRunner.prose`` — read by nothing (as has_prose above)
EXPLAINED[("GameRunner.do", "body", "self.prose.append(self.k)", "pass")] = "equivalent"
EXPLAINED[("GameRunner.setup_errors", "cmp", "if s.hand_count < 0 or any(k < 0 for _, k in (s.area or ())):",
           "(k <= 0)")] = "equivalent"

# checks/enc/table.py: enc_decompose's area starting as ones — the loop then sets all seven classes (K) before reading
# it; SymTable's default turn — its one maker (GameEncoding) passes the setup's. checks/enc/windows.py enc_seat_alive:
# the test for a solver value negated — a Python int returns before it, a value takes the Or of equalities (the same
# truth), and every caller passes a Python int (trace.enc_giver_live's seat, usable's and ask's 0, the game's seats)
EXPLAINED[("enc_decompose", "int+1", "area = [0] * K", "(1)")] = "equivalent"
EXPLAINED[("SymTable", "int-1", "turn: int = 0", "(-1)")] = "equivalent"
EXPLAINED[("enc_seat_alive", "not+", "if z3.is_int_value(seat):", "(not (z3.is_int_value(seat)))")] = "equivalent"
# … and its last line, the Or of equalities for a seat that is a solver term (``z3andor``: its Or made And, the And
# inside made Or): reached by no caller — enc_in_window, its one caller, is passed a Python int by every caller of its
# own (the trace's giver seats, usable's and ask's 0, the game's ``z(0)``, an int value that returns before it)
EXPLAINED.update({("enc_seat_alive", "z3andor", "return Or([And(Eq(seat, i), a) for i, a in enumerate(S.alive)])",
                   after): "equivalent"
                  for after in ("(And([And(Eq(seat, i), a) for i, a in enumerate(S.alive)]))", "(Or(Eq(seat, i), a))")})
# face.py turns (a use of the rule may turn its holder's role): read by no decision of either twin — only by the random
# trace generator (tests/randtrace.py), to seat and use role-turning skills more often; a mutant moves what is drawn,
# never a verdict (the use's faces are face_errors' / apply_use_face's, from use_faces)
EXPLAINED.update({("turns", op, "return use_faces(cat, rid)[1] != frozenset({None})", after): "equivalent"
                  for op, after in (("return", "(not (use_faces(cat, rid)[1] != frozenset({None})))"),
                                    ("cmp", "(use_faces(cat, rid)[1] == frozenset({None}))"),
                                    ("int+1", "(2)"), ("int-1", "(0)"))})
# plays.py plays_when: ``p is not None and p.when`` made ``or`` — every caller passes an entry of a skill that has
# ``plays`` (resolves skips the others; plays() reads its own skill's), and ``when`` defaults to an empty table, whose
# ``.get`` gives None: the else branch's value. conversion.py: ``Conversion`` not frozen (nothing hashes or changes
# one); ``via_must`` starting true — it is read only once ``via`` is set, and the first conversion that fires sets both
EXPLAINED[("plays_when", "boolop", 'cond = p.when.get(declared, p.when.get("*")) if p is not None and p.when else None',
           "(p is not None or p.when)")] = "equivalent"
EXPLAINED[("Conversion", "const", "@dataclass(frozen=True)", "False")] = "equivalent"
EXPLAINED[("conversion", "const", "via_must = False", "True")] = "equivalent"
# hole.py is_hole: read by nothing (the template code tests ``isinstance`` itself)
EXPLAINED[("is_hole", "return", "return isinstance(v, Hole)", "(not (isinstance(v, Hole)))")] = "equivalent"
# hole.py Hole not frozen: nothing hashes, changes or copies-and-compares a hole by identity (templates hold holes in
# fields, dicts and lists; GameEncoding.hole compares two holes of one name with ``!=``, which a plain dataclass keeps)
EXPLAINED[("Hole", "const", "@dataclass(frozen=True)", "False")] = "equivalent"
# hole.py values: ``d[0]`` read as ``d[-1]`` in the count branch — that branch is taken only when ``len(d) == 1`` (the
# ``and`` stops before the read otherwise), where the first value is the last
EXPLAINED[("values", "int-1", "if len(d) == 1 and isinstance(d[0], int):", "(-1)")] = "equivalent"
EXPLAINED[("values", "int-1", "return tuple(range(d[0]))", "(-1)")] = "equivalent"
# hole.py values: an alt hole with no domain reaching alternative 8 too (range(9)) — no choose op of a shipped or
# random catalogue has more than three alternatives, and both twins refuse an index past its op's last
# (tests/test_crosscheck_game_cases.py: a choose of eight, index 8 and up refused by both, the count 12 admitting 0 to 7)
EXPLAINED[("values", "int+1", "return d or tuple(range(8))", "(9)")] = "equivalent"
# hole.py holes_of: the holes inside a list or tuple not listed — the only such holes a template holds are a seat's
# area written as pairs (realise.setup_template; randgame.template_of half the time), and the twin's _area reads every
# pair of a colour class, opening its variable (GameEncoding.hole) as the loop over holes_of would: the same variables,
# constraints and fillings. A pair of no colour class is read by neither twin
EXPLAINED[("holes_of.add", "body", "for x in v:", "pass")] = "equivalent"
# grants.py matters_windows: a conversion's windows (every card's) made None — None is the sound "any moment" the
# function may answer; checks/realise.asks_there then solves the templates it would skip and finds no filling there
EXPLAINED[("matters_windows", "return", "return frozenset(w for c in cat.cards.values() for w in c.windows)", "None")] = \
    "equivalent"
# … and that ``return`` emptied (#40): the function then ends and returns None, the same answer
EXPLAINED[("matters_windows", "body", "return frozenset(w for c in cat.cards.values() for w in c.windows)", "pass")] = \
    "equivalent"
# checks/enc/core.py _key: a z3 term's key by its AST id made the term itself (its ``return`` emptied: the ``return a``
# below) — z3 hash-conses the terms of one context, so two terms are one AST exactly when their ids are equal; a term
# hashes by its AST's hash and ``==`` on two terms makes an equality whose truth (``BoolRef.__bool__``) is ``eq``, the
# same identity: the memo's hits and misses are the same (only the cache now keeps the term alive, as its state does)
EXPLAINED[("_key", "body", 'return ("ast", a.get_id())', "pass")] = "equivalent"
# model/interp/core.py ref_value: the "any" branch emptied — the reference then falls through to the parameter lookup,
# ``inst.args.get("")`` (a Ref of kind any has value ""), None as before: the loader refuses an empty parameter name
EXPLAINED[("ref_value", "body", "return None", "pass")] = "equivalent"
# grants.py must_fire: ``top[0]`` read as ``top[-1]`` (either of the two on the line) — read only once ``len(top) == 1``
# (the ``or`` stops before otherwise), where the first is the last
EXPLAINED[("must_fire", "int-1", "if len(top) != 1 or len(every) != 1 or top[0].may or top[0].cond is not None:",
           "(-1)")] = "equivalent"
# … and the same read two lines below (#168, ``to = top[0].args.get("to")``): reached only past that test, so
# ``len(top) == 1`` there too
EXPLAINED[("must_fire", "int-1", 'to = top[0].args.get("to")', "(-1)")] = "equivalent"
# grants.py one_grants: the words a grant's tuple holds, de-duplicated (#82 #84: the test turned, #83: the append
# emptied — each leaves every tuple empty) — read by nothing: the key is set (``setdefault``) before the edited lines,
# and every caller reads only the keys (game.GameRunner.owe walks them, one_granted and tests/randgame.gives test
# membership, checks/realise's ``to_one`` binds the words and reads the ops instead); the twin's enc_one_grants alike
EXPLAINED.update({k: "equivalent" for k in [
    ("one_grants", "not+", "if to not in out[g]:", "(not (to not in out[g]))"),
    ("one_grants", "body", "out[g].append(to)", "pass"),
    ("one_grants", "cmp", "if to not in out[g]:", "(to in out[g])"),
]})
# grants.py args_errors: ``return ""`` -> None (#120) — both falsy: trace.give_errors and snapshot's grant check, its
# only callers, take ``if why: return why`` and go on alike
EXPLAINED[("args_errors", "return", 'return ""', "None")] = "equivalent"
# grants.py matters_windows: its guard for a rule the catalogue does not have emptied (#25: ``rule.ban`` then raises on
# None) — unreachable: its one caller, checks/realise.asks_there, passes the rule of a ``matters`` question, and every
# such question names a rule of the catalogue it is realised in: check's witnesses (context._made_game) and ask's
# answers (ask/games._game, context.game_witness) carry questions the interpreter answered in that catalogue, diff's
# (_as_game) one answered by ``decide(self.new, …)`` just before — and ``decide``'s ``matters`` reads
# ``cat.skills[rule]`` (grant_matters) with no guard, so a rule it lacks would have raised there first; diff_reach
# realises with no question, tests/test_realise.py names shipped rules
EXPLAINED[("matters_windows", "body", "return None", "pass")] = "equivalent"
# checks/enc/draw.py enc_draw_count: its skip of a rule with no ``draw`` emptied (#1) — unreachable: it walks the rules
# whose kinds (with parents) hold ChangeDrawCardCountSkill, and the loader refuses such a rule without ``draw`` (the
# parameter tables must match the kinds: "… is a ChangeDrawCardCountSkill and needs a 'draw'"); the interpreter's
# ``rule.draw is not None`` is as defensive
EXPLAINED[("enc_draw_count", "body", "continue", "pass")] = "equivalent"
# checks/enc/dying.py enc_dying_first: its last ``return False`` made True (#8) — reached only for a seat no walk from
# the turn player meets, i.e. no seat; its callers (GameEncoding's turn step and dying window) pass ``tab.dying`` or
# a dying window's seat, each checked by ``seat_ok`` first (``_timed_window`` sets ``tab.dying`` only past that test)
EXPLAINED[("enc_dying_first", "const", "return False", "True")] = "equivalent"
# checks/enc/remind.py enc_reminds_for: the answer for a rule with no ``remind`` emptied, made None or True (#1 #3 #4) —
# unreachable: it is asked of the rules whose kinds hold MainPhaseSkill, and every such rule has a ``remind`` (the
# linker writes the server's default, skill/Skill.kt mainPhaseNeedNotify, when the catalogue gives none)
EXPLAINED[("enc_reminds_for", "body", "return z3.BoolVal(False)", "pass")] = "equivalent"
EXPLAINED[("enc_reminds_for", "return", "return z3.BoolVal(False)", "None")] = "equivalent"
EXPLAINED[("enc_reminds_for", "const", "return z3.BoolVal(False)", "True")] = "equivalent"
# checks/enc/receive.py enc_receive_parts: its skip of a rule with no ``receive`` emptied (#19) — unreachable as
# enc_draw_count's: it walks the rules whose kinds hold MustReceiveMessage, and the loader refuses one without
# ``receive``. checks/enc/send.py enc_default_send: the default rule's terms built directly, emptied (#15) — it then
# compiles the default's expression, which builds the same terms (the line says so: same terms, same order)
EXPLAINED[("enc_receive_parts", "body", "continue", "pass")] = "equivalent"
# … and enc/send.py enc_send_allowed's skip of a rule with no ``send`` (#31): it walks the rules of one of the three
# SendMessage groups, and the loader refuses any of them without ``send``
EXPLAINED[("enc_send_allowed", "body", "continue", "pass")] = "equivalent"
EXPLAINED[("enc_default_send", "body", 'return d == S.message_dir if key == "send_dir" else And(lc <= 1, Or(lc == 0, '
           'S.lockable))  # was: same terms', "pass")] = "equivalent"
# checks/enc/receive.py: the codes FREE, MUST, CANNOT = 0, 1, 2 with FREE -1 or CANNOT 3 (#1 #4) — the codes need only
# be distinct: every reader names them through those constants (ask/compile, ask/which, enc/path, the families,
# tests/crosskit's decoding). receive_rule_parts (read by checks/families only, no interpreter twin: #26-#32 run
# against tests/test_families.py, 5 caught) — its answer for a rule with no ``receive`` emptied or None (#27 #29):
# unreachable, every caller passes a rule with ``receive`` (families/receive.py, unreachable.py and kinds.py pick
# ``r.receive is not None``, or the rules whose kinds hold MustReceiveMessage, which the loader gives one)
EXPLAINED[("<module>", "int-1", "FREE, MUST, CANNOT = 0, 1, 2", "(-1)")] = "equivalent"
EXPLAINED[("<module>", "int+1", "FREE, MUST, CANNOT = 0, 1, 2", "(3)")] = "equivalent"
EXPLAINED[("receive_rule_parts", "body", "return []", "pass")] = "equivalent"
EXPLAINED[("receive_rule_parts", "return", "return []", "None")] = "equivalent"
# checks/enc/snapshot.py enc_snapshot: "at least min_seats players" from seat 0, not 1 (#7) — seat 0 is present by
# construction (SymState.present[0] is the constant True), so the added constraint is true. (The seat order from seat 0,
# #1, is as equivalent — Implies(present[1], True) — but its key names #3 too, the loop's end moved, which is caught.)
EXPLAINED[("enc_snapshot", "int-1", "for s in range(1, min(n, cat.rules.min_seats)):", "(0)")] = "equivalent"
# checks/enc/bans.py: the skip of a CannotPlayCard rule with no ``ban`` emptied, in enc_banned (#10) and enc_banned_by
# (#21) — unreachable as enc_draw_count's: the loader refuses a CannotPlayCard without ``ban`` (kinds.py: its table).
# enc_banned_by's skip of an initial slot or of an empty site list emptied (#17) or made ``and`` (#18) — the terms it
# then adds are false: an initial slot has no site (``Slot.site`` None: ``None == c`` is False,
# the Or of falses false) and with no site codes the Or of nothing is false. (#17 #21 are argued in the table, not
# here: one key, ``continue`` -> ``pass`` in enc_banned_by, names both)
EXPLAINED[("enc_banned", "body", "continue", "pass")] = "equivalent"
EXPLAINED[("enc_banned_by", "boolop", "if slot.initial_slot or not codes:", "(slot.initial_slot and (not codes))")] = \
    "equivalent"
# checks/enc/conversion.py enc_conversion: ``via_must`` starting true (#2) — as the interpreter's (above): it is read
# only in ``Or(Eq(via, NONE), Not(via_must), must)``, where while ``via`` is NONE the first disjunct is true, and the
# first conversion that takes sets ``via`` and ``via_must`` together; its skip of a rule with no ``convert`` emptied
# (#4) — unreachable: the loader refuses a ConvertCardSkill without ``convert``
EXPLAINED[("enc_conversion", "const", "via_must = z3.BoolVal(False)", "True")] = "equivalent"
EXPLAINED[("enc_conversion", "body", "continue", "pass")] = "equivalent"
# checks/enc/windows.py enc_seat_alive: the answer for a Python int emptied (#38) — the int then falls through to the Or
# of equalities (not a z3 value), where ``Eq(seat, i)`` of two ints is the Python truth of ``seat == i``: the Or holds
# exactly ``S.alive[seat]`` (the same truth; every caller passes an int, as the solver-value test's entry above says)
EXPLAINED[("enc_seat_alive", "body", "return S.alive[seat]", "pass")] = "equivalent"
# … and its answer for a z3 number emptied (#41): the Or of equalities of a numeral with each seat is, as a formula, the
# seat's own term (one equality is true, the others false) — the same truth, a larger term
EXPLAINED[("enc_seat_alive", "body", "return S.alive[seat.as_long()]", "pass")] = "equivalent"
# … and that Or's value made None (#43): reached only for a seat that is a solver term, which no caller passes (as #53 #54)
EXPLAINED[("enc_seat_alive", "return", "return Or([And(Eq(seat, i), a) for i, a in enumerate(S.alive)])", "None")] = \
    "equivalent"
# checks/enc/windows.py enc_at_decision: the seat's liveness for a seat that is not a Python int made false (#47) —
# unreachable: every caller passes an int (the default 0; ask's compile and which, the families, diff; grants'
# enc_grant_matters passes its own ``seat``, 0 from each of its callers: enc/trace.py, the invalidation and replacement
# families and the extra cross-check)
EXPLAINED[("enc_at_decision", "const", "alive = S.alive[seat] if isinstance(seat, int) else z3.BoolVal(True)",
           "False")] = "equivalent"
# checks/enc/skip.py _usable: its skip of an ActiveSkill with no condition for the phase emptied (#6) — unreachable: it is
# asked of ``fight`` and ``dying`` only, and the linker gives every ActiveSkill both (``false`` where none is written,
# model/link.py ``_link_rule``), as the interpreter's ``usable`` reads them
EXPLAINED[("_usable", "body", "continue", "pass")] = "equivalent"
# checks/enc/usable.py unconditional: a plainly true condition of fight / dying left out, a plainly true ``main`` kept
# (#6) — every caller (usable, plays, trace, ask's compile) uses it only to leave out ``Implies(now == w, c)`` for a
# plainly true ``c``: that conjunct is true, kept or not (the terms, not their truth, change)
EXPLAINED[("unconditional", "cmp", 'return w == "main" and isinstance(c, E.Lit) and c.value is True', "(w != 'main')")] = \
    "equivalent"
# enc_skill_usable_now: the answer for a rule no role of the other seats holds emptied (#34) — it falls through to
# ``held = Or([])``, false: the same answer
EXPLAINED[("enc_skill_usable_now", "body", "return z3.BoolVal(False)", "pass")] = "equivalent"
# enc_requires_met: its default ``used`` made true (#42) — never used: its one caller, enc.game ``requires_ok``, passes
# its own ``used`` (False by default there); its answer for no condition emptied or made false (#44 #46) — unreachable:
# ``requires_ok`` returns before it when the rule has no ``requires``
EXPLAINED[("enc_requires_met", "const", "def enc_requires_met(cat, codes, tab, seat: int, node, players: dict, n: int, "
           "params: dict | None = None, used=False):", "True")] = "equivalent"
EXPLAINED[("enc_requires_met", "body", "return True", "pass")] = "equivalent"
EXPLAINED[("enc_requires_met", "const", "return True", "False")] = "equivalent"
#: the twin's modules some key of EXPLAINED names a mutant of (tests/test_mutate_interpreter.py generates them)
EXPLAINED_TWINS = ("enc.bans", "enc.conversion", "enc.core", "enc.draw", "enc.dying", "enc.game", "enc.receive",
                   "enc.remind", "enc.send", "enc.skip", "enc.snapshot", "enc.table", "enc.usable", "enc.windows")

_CMP_SWAP = {ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE,
             ast.GtE: ast.Gt, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is}
_BOOLISH_CALLS = {"bool", "any", "all", "isinstance"}


@dataclasses.dataclass
class Mutant:
    id: int
    target: str          # the module mutated (TARGETS: one of model/interp, or enc.X of checks/enc)
    op: str
    func: str
    line: int
    before: str          # the source replaced
    after: str           # what replaces it
    source: str          # the whole mutated file
    context: str = ""    # the original source line the edit starts on, stripped
    #: the function whose body holds the edit (dotted as ``func``: ``GameRunner.on_play``, ``holes_of.add``), or None
    #: when the edit is run at import — at module or class level, or in a def's header (a default, a decorator): a
    #: test file that never runs that function can't tell the mutant apart (the coverage map, ``file_map``)
    scope: str | None = None

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.func, self.op, self.context, self.after)

    def describe(self) -> str:
        return f"{_short_path(self.target)}:{self.line} {self.func} [{self.op}] {_short(self.before)} -> {_short(self.after)}"


def _short_path(target: str) -> str:
    """``interp/game.py`` for an interpreter's module, ``enc/game.py`` for its twin."""
    return f"enc/{target[4:]}.py" if target.startswith("enc.") else f"interp/{target}.py"


def _short(s: str, n: int = 60) -> str:
    s = " ".join(s.split())
    return s if len(s) <= n else s[: n - 1] + "…"


# ============================================================================== generating mutants
class _Points(ast.NodeVisitor):
    """Every mutation point of a module: (op, function, node, replacement text)."""

    def __init__(self, solver_ops: bool = False):
        self.stack: list[str] = []
        self.out: list[tuple[str, str, ast.AST, str, bool]] = []   # op, func, node, text, is-statement-span
        self.solver_ops = solver_ops    # only the solver-term edits (z3and/or, z3not-): a second pass over a twin

    def _func(self) -> str:
        return ".".join(self.stack) or "<module>"

    def _scoped(self, node):
        self.stack.append(node.name)
        if self._func() not in NOT_CROSSCHECKED and node.name not in NOT_CROSSCHECKED:
            self.generic_visit(node)
        self.stack.pop()

    visit_FunctionDef = visit_ClassDef = _scoped

    def add(self, op, node, text, stmt=False):
        if op.startswith("z3") == self.solver_ops:
            self.out.append((op, self._func(), node, text, stmt))

    def visit_Call(self, node):
        # the twin's solver terms: ``And(…)`` / ``Or(…)`` swapped (z3's or skillproof.checks.terms' of that name),
        # a ``Not(x)`` removed — the Python ``and`` / ``or`` / ``not`` of the interpreter, on terms
        f = node.func
        name = f.id if isinstance(f, ast.Name) else (f.attr if isinstance(f, ast.Attribute) and
                                                     isinstance(f.value, ast.Name) and f.value.id == "z3" else None)
        if name in ("And", "Or"):
            other = "Or" if name == "And" else "And"
            new_f = ast.Name(other) if isinstance(f, ast.Name) else ast.Attribute(ast.Name("z3"), other)
            self.add("z3andor", node, f"({ast.unparse(ast.Call(new_f, node.args, node.keywords))})")
        elif name == "Not" and len(node.args) == 1 and not node.keywords:
            self.add("z3not-", node, f"({ast.unparse(node.args[0])})")
        self.generic_visit(node)

    def visit_Compare(self, node):
        for i, o in enumerate(node.ops):
            new = ast.Compare(node.left, list(node.ops), node.comparators)
            new.ops[i] = _CMP_SWAP[type(o)]()
            self.add("cmp", node, f"({ast.unparse(new)})")
        self.generic_visit(node)

    def visit_BoolOp(self, node):
        other = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        self.add("boolop", node, f"({ast.unparse(ast.BoolOp(other, node.values))})")
        self.generic_visit(node)

    def visit_UnaryOp(self, node):
        if isinstance(node.op, ast.Not):
            self.add("not-", node, f"({ast.unparse(node.operand)})")
        self.generic_visit(node)

    def _insert_not(self, test):
        if not (isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)):
            self.add("not+", test, f"(not ({ast.unparse(test)}))")

    def visit_If(self, node):
        self._insert_not(node.test)
        if not (len(node.body) == 1 and isinstance(node.body[0], ast.Pass)):
            self.add("body", node.body, "pass", stmt=True)
        self.generic_visit(node)

    def visit_IfExp(self, node):
        self._insert_not(node.test)
        self.generic_visit(node)

    def visit_Constant(self, node):
        if node.value is True or node.value is False:
            self.add("const", node, str(not node.value))
        elif type(node.value) is int:
            self.add("int+1", node, f"({node.value + 1})")
            self.add("int-1", node, f"({node.value - 1})")

    def visit_Return(self, node):
        v = node.value
        if v is not None and not (isinstance(v, ast.Constant) and v.value in (True, False, None)):
            boolish = isinstance(v, (ast.Compare, ast.BoolOp)) or \
                (isinstance(v, ast.UnaryOp) and isinstance(v.op, ast.Not)) or \
                (isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id in _BOOLISH_CALLS)
            self.add("return", v, f"(not ({ast.unparse(v)}))" if boolish else "None")
        self.generic_visit(node)


def _span(src: bytes, starts: list[int], node) -> tuple[int, int]:
    first, last = (node[0], node[-1]) if isinstance(node, list) else (node, node)
    return starts[first.lineno - 1] + first.col_offset, starts[last.end_lineno - 1] + last.end_col_offset


def generate_all(only: set | None = None, targets=None) -> list[Mutant]:
    """Every mutant of every target module (``targets``: their names, default every module of the interpreter),
    module by module."""
    return [m for t in (targets or INTERP_TARGETS) for m in generate(t, only)]


def generate(target: str, only: set | None = None) -> list[Mutant]:
    """Every mutant of the target module, in source order (ids from 0), each checked to parse and to differ
    from the original and from every other mutant."""
    _, path = TARGETS[target]
    text = path.read_text(encoding="utf-8")
    src = text.encode("utf-8")
    starts = [0]
    for line in src.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    tree = ast.parse(text)
    v = _Points()
    v.visit(tree)
    if target.startswith("enc."):     # a twin's solver-term edits, after the others (their ids stay as they were)
        z = _Points(solver_ops=True)
        z.visit(tree)
        v.out += z.out
    # a mutant is compared with the original and the others region by region: the innermost function (at any
    # depth) holding its edit, else the top-level statement; the rest of the file is the same, and a region keeps
    # its count of statements. Parsing the innermost function rather than its whole top-level class keeps this
    # linear in practice (game.py: one class of ~700 mutation points took 10 s parsed top-level)
    def _region(node):
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", ())])
        return starts[first - 1], starts[node.end_lineno - 1] + node.end_col_offset
    regions = [_region(t) for t in tree.body]
    regions += [_region(n) for n in ast.walk(tree)
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n not in tree.body]
    regions = sorted(set(regions))

    def _parse(ra: int, piece: bytes):
        indented = piece[:1] in (b" ", b"\t")          # a region starts at its line's start: a method is indented
        body = ast.parse(b"if 1:\n" + piece if indented else piece).body
        return body[0].body if indented else body

    scopes = _body_scopes(tree, starts)
    seen: set = set()
    known: set = set()
    out: list[Mutant] = []
    for op, func, node, repl, _stmt in v.out:
        if only and func not in only and func.split(".")[-1] not in only:
            continue
        a, b = _span(src, starts, node)
        ra, rb = max((r for r in regions if r[0] <= a and b <= r[1]), key=lambda r: (r[0], -r[1]))
        if (ra, rb) not in known:                     # the region's own program, as first seen
            known.add((ra, rb))
            seen.add((ra, ast.dump(_parse(ra, src[ra:rb])[0])))
        try:                                          # the edited region, parsed on its own
            body = _parse(ra, src[ra:a] + repl.encode("utf-8") + src[b:rb])
        except SyntaxError:
            continue                                  # (never seen: the replacement is always bracketed)
        dump = (ra, ast.dump(body[0]) if len(body) == 1 else "")
        if len(body) != 1 or dump in seen:
            continue                                  # the same program as the original or an earlier mutant
        seen.add(dump)
        mutated = (src[:a] + repl.encode("utf-8") + src[b:]).decode("utf-8")
        first = node[0] if isinstance(node, list) else node
        inner = [sc for sc in scopes if sc[0] <= a and b <= sc[1]]
        scope = max(inner, key=lambda sc: (sc[0], -sc[1]))[2] if inner else None
        out.append(Mutant(len(out), target, op, func, first.lineno, src[a:b].decode("utf-8"), repl, mutated,
                          text.splitlines()[first.lineno - 1].strip(), scope))
    return out


def _body_scopes(tree, starts: list[int]) -> list[tuple[int, int, str | None]]:
    """The byte span of every function's and class's body (from its first statement to its end) with the function's
    dotted name — None for a class body, which runs at import as the module's own statements do."""
    out: list[tuple[int, int, str | None]] = []

    def walk(node, stack):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = stack + [child.name]
                first = child.body[0]
                out.append((starts[first.lineno - 1] + first.col_offset,
                            starts[child.end_lineno - 1] + child.end_col_offset,
                            None if isinstance(child, ast.ClassDef) else ".".join(name)))
                walk(child, name)
            else:
                walk(child, stack)
    walk(tree, [])
    return out


def sample(mutants: list[Mutant], n: int, seed: int) -> list[Mutant]:
    if n <= 0 or n >= len(mutants):
        return list(mutants)
    return sorted(random.Random(seed).sample(mutants, n), key=lambda m: (m.target, m.id))


# ============================================================================== running a mutant
def _worker(mutant_file: str, module: str, pytest_args: list[str]) -> int:
    """In the subprocess: load ``module`` from ``mutant_file`` instead of its real file, then run pytest."""
    import importlib.abc
    import importlib.util

    real = dict((m, p) for m, p in TARGETS.values())[module]
    code = compile(Path(mutant_file).read_text(encoding="utf-8"), str(real), "exec")
    loaded = []

    class Loader(importlib.abc.Loader):
        def create_module(self, spec):
            return None

        def exec_module(self, mod):
            mod.__file__ = str(real)
            loaded.append(mod)
            exec(code, mod.__dict__)

    class Finder(importlib.abc.MetaPathFinder):
        def find_spec(self, fullname, path=None, target=None):
            if fullname != module:
                return None
            return importlib.util.spec_from_loader(fullname, Loader(), origin=str(real))

    sys.meta_path.insert(0, Finder())
    import pytest
    rc = int(pytest.main(pytest_args))
    if not loaded:
        print(f"mutate_interpreter: the mutated {module} was never imported", file=sys.stderr)
        return 99
    return rc


def _map_worker(out_file: str, pytest_args: list[str]) -> int:
    """In the subprocess: run pytest on the real modules, recording every function of ``TARGETS``' files that runs
    (a call-only global trace: no line events) and each test's duration; written to ``out_file`` as JSON."""
    import json as _json
    files = {str(p): t for t, (_, p) in TARGETS.items()}
    ran: dict[str, set] = {}
    seen: set = set()

    def tracer(frame, event, arg):
        code = frame.f_code
        if code not in seen:
            seen.add(code)
            t = files.get(code.co_filename)
            if t is not None:
                ran.setdefault(t, set()).add(code.co_qualname.replace(".<locals>", ""))
        return None

    durations: dict[str, float] = {}

    class Timer:
        def pytest_runtest_logreport(self, report):
            durations[report.nodeid] = durations.get(report.nodeid, 0.0) + report.duration

    import threading
    import pytest
    threading.settrace(tracer)
    sys.settrace(tracer)
    rc = int(pytest.main(pytest_args, plugins=[Timer()]))
    sys.settrace(None)
    Path(out_file).write_text(_json.dumps({"rc": rc, "ran": {t: sorted(v) for t, v in sorted(ran.items())},
                                           "durations": durations}), encoding="utf-8")
    return rc


def map_key(tests: list[str], states: int, games: int) -> str:
    """What a coverage map depends on: the sources it was measured on (the package's; the tests' helpers and fixtures
    and the files run — a test file not run is left out), the files and the cross-check's sizes."""
    import hashlib
    h = hashlib.sha256(repr((sorted(tests), states, games)).encode())
    run = {(ROOT / t).resolve() for t in tests}
    for d in ("model", "checks", "tests"):
        for f in sorted((ROOT / d).rglob("*")):
            if f.name.startswith("test_") and f.suffix == ".py" and f.resolve() not in run:
                continue
            if f.is_file() and f.suffix in (".py", ".toml", ".json", ".kt") and "__pycache__" not in f.parts:
                h.update(f.relative_to(ROOT).as_posix().encode())
                h.update(f.read_bytes())
    return h.hexdigest()[:16]


def file_map(tests: list[str], states: int, games: int, timeout: float, rebuild: bool = False,
             log=None) -> dict:
    """The coverage map of the cross-check: for each test file, run alone on the unmutated code (fresh caches: a
    function a file reads through a cache is run by that file), the functions of every target module it runs, its
    CPU seconds and whether it passed. Cached in the temporary directory by ``map_key``; built file by file."""
    path = Path(tempfile.gettempdir()) / f"skillproof-mutate-map-{map_key(tests, states, games)}.json"
    if path.exists() and not rebuild:
        return json.loads(path.read_text(encoding="utf-8"))
    out: dict = {"files": {}}
    for t in tests:
        with tempfile.TemporaryDirectory(prefix="skillproof-map-") as tmp:
            f = Path(tmp) / "map.json"
            args = ["-q", "-n", "0", "-p", "no:cacheprovider", "--tb=line", "-W", "ignore", t]
            cmd = [sys.executable, str(Path(__file__).resolve()), "--_map", str(f), "--", *args]
            r0 = os.times()
            p = subprocess.run(cmd, cwd=ROOT, env=_env(states, games), capture_output=True, text=True,
                               timeout=timeout)
            r1 = os.times()
            cpu = (r1.children_user - r0.children_user) + (r1.children_system - r0.children_system)
            got = json.loads(f.read_text(encoding="utf-8")) if f.exists() else {"rc": p.returncode, "ran": {}}
        out["files"][t] = {"cpu": round(cpu, 2), "passed": p.returncode == 0 and got["rc"] == 0, "ran": got["ran"]}
        if log:
            log(f"map: {t}: {cpu:.1f} s of CPU, {'passed' if out['files'][t]['passed'] else 'FAILED'}")
    path.write_text(json.dumps(out, sort_keys=True), encoding="utf-8")
    return out


def tests_for(m: "Mutant", fmap: dict) -> list[str]:
    """The files of the map that run the mutated function (every file for an edit run at import), cheapest first."""
    files = fmap["files"]
    pick = [t for t, e in files.items()
            if m.scope is None or m.scope in e["ran"].get(m.target, ())]
    return sorted(pick, key=lambda t: (files[t]["cpu"], t))


def _env(states: int, games: int) -> dict:
    return {**os.environ, "SKILLPROOF_CROSSCHECK_STATES": str(states),
            "SKILLPROOF_CROSSCHECK_EXTRA_STATES": str(max(20, states // 2)),
            "SKILLPROOF_CROSSCHECK_GAMES": str(games),
            "SKILLPROOF_CROSSCHECK_GAME_SOLVER": str(max(4, games // 100))}


@dataclasses.dataclass
class Verdict:
    caught: bool
    how: str             # cross-check fails | crash | timeout | passes | error
    detail: str
    seconds: float


def run_one(module: str, source: str, states: int, timeout: float, tests: list[str], games: int = 1000) -> Verdict:
    with tempfile.TemporaryDirectory(prefix="skillproof-mutant-") as tmp:
        f = Path(tmp) / "mutant.py"
        f.write_text(source, encoding="utf-8")
        args = ["-q", "-x", "-n", "0", "-p", "no:cacheprovider", "--tb=line", "-W", "ignore", *tests]
        cmd = [sys.executable, str(Path(__file__).resolve()), "--_worker", str(f), module, "--", *args]
        env = _env(states, games)
        t0 = time.monotonic()
        try:
            p = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return Verdict(True, "timeout", f"over {timeout:.0f} s", time.monotonic() - t0)
        dt = time.monotonic() - t0
    if p.returncode == 0:
        return Verdict(False, "passes", "", dt)
    if p.returncode == 1:
        return Verdict(True, *_why(p.stdout), dt)
    if p.returncode == 2:             # interrupted: the module (or a test module importing it) fails to load
        return Verdict(True, "crash", "collection error: " + _why(p.stdout)[1], dt)
    return Verdict(False, "error", f"exit {p.returncode}: {_short(p.stderr or p.stdout, 200)}", dt)


def _why(out: str) -> tuple[str, str]:
    """From pytest's --tb=line output: whether the encoder disagreed or something raised, and the line."""
    lines = [ln for ln in out.splitlines() if ln.strip()]
    for ln in lines:
        if "differ on" in ln:
            return "cross-check fails", _short(ln[ln.find("differ on"):], 160)
    for ln in lines:                  # a case's verdict or a generator's count, not the interpreter raising
        if "AssertionError" in ln or ln.startswith("E Failed:") or ln.startswith("E   Failed:"):
            return "cross-check fails", _short(ln, 160)
    for ln in lines:
        if ln.startswith("E ") or ": " in ln and ("Error" in ln or "Exception" in ln):
            return "crash", _short(ln, 160)
    return "cross-check fails", _short(lines[-2] if len(lines) > 1 else (lines[0] if lines else ""), 160)


# ============================================================================== reporting
def _diff(m: Mutant) -> str:
    _, path = TARGETS[m.target]
    orig = path.read_text(encoding="utf-8").splitlines(keepends=True)
    new = m.source.splitlines(keepends=True)
    rel = path.relative_to(ROOT).as_posix()
    return "".join(difflib.unified_diff(orig, new, f"a/{rel}", f"b/{rel}", n=1))


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--_worker"]:
        return _worker(argv[1], argv[2], argv[4:])
    if argv[:1] == ["--_map"]:
        return _map_worker(argv[1], argv[3:])
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mutants", type=int, default=40, help="how many to run (0: all)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--states", type=int, default=200,
                    help="SKILLPROOF_CROSSCHECK_STATES for each run (states and traces, split 60/40)")
    ap.add_argument("--games", type=int, default=1000,
                    help="SKILLPROOF_CROSSCHECK_GAMES for each run (whole-game traces; a hundredth through the solver)")
    ap.add_argument("--target", action="append", choices=sorted(TARGETS), default=[], metavar="MODULE",
                    help="mutate this module of model/interp, or enc.MODULE of its z3 twin checks/enc (repeatable; "
                         "default: every module of model/interp)")
    ap.add_argument("--only", action="append", default=[], metavar="FUNC",
                    help="mutate only this function (repeatable)")
    ap.add_argument("--timeout", type=float, default=180, help="seconds per mutant before it counts as caught")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--ids", default="", help="run these mutants (comma-separated ids; with --target)")
    ap.add_argument("--list", action="store_true", help="list the sampled mutants, run nothing")
    ap.add_argument("--skip-explained", action="store_true",
                    help="do not run the mutants EXPLAINED lists (each one a survivor of a full cross-check; printed "
                         "and counted as 'explained, not run')")
    ap.add_argument("--no-baseline", action="store_true",
                    help="do not run the unmutated interpreter first (it passed these files just before: a run "
                         "split in parts)")
    ap.add_argument("--no-map", action="store_true",
                    help="run every cross-check file for every mutant, in the fixed order (ordered_tests), after the "
                         "unmutated run; by default a coverage map (each file run alone once on the unmutated code, "
                         "cached by the sources' hash) picks the files that run the mutated function, cheapest first")
    ap.add_argument("--rebuild-map", action="store_true", help="measure the coverage map again")
    ap.add_argument("--resume", default="", metavar="FILE",
                    help="record each verdict in FILE (a JSON line) as it comes, and run only the mutants FILE does "
                         "not hold yet: a run stopped part way goes on where it stopped")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--tests", nargs="*", default=CROSSCHECK, help="the cross-check tests to run")
    a = ap.parse_args(argv)
    targets = a.target or list(INTERP_TARGETS)
    pool = generate_all(set(a.only) or None, targets)
    if not pool:
        print(f"mutate_interpreter: no mutants (--only {' '.join(a.only)} names no function)", file=sys.stderr)
        return 2
    if a.ids:
        want = {int(i) for i in a.ids.split(",")}
        pool = [m for m in pool if m.id in want]
    picked = sample(pool, a.mutants, a.seed)
    if a.list:
        for m in picked:
            print(f"#{m.id:<4} {m.describe()}")
        print(f"{len(picked)} of {len(pool)} mutants")
        return 0
    t0 = time.monotonic()
    fmap = None
    if not a.no_map:
        # the coverage map: each file alone on the unmutated code (its run is the baseline: every file must pass)
        fmap = file_map(a.tests, a.states, a.games, max(a.timeout, 1800), a.rebuild_map,
                        None if a.json else (lambda s: print(s, file=sys.stderr, flush=True)))
        bad = [t for t, e in fmap["files"].items() if not e["passed"]]
        if bad:
            print(f"mutate_interpreter: the unmutated code fails {', '.join(bad)}; nothing to compare against",
                  file=sys.stderr)
            return 2
    else:
        # the unmutated interpreter, once (loaded through the same hook as a mutant, as the first target's own text)
        t = targets[0]
        b = Verdict(False, "passes", "not run (--no-baseline)", 0.0) if a.no_baseline else \
            run_one(TARGETS[t][0], TARGETS[t][1].read_text(encoding="utf-8"), a.states, a.timeout,
                    ordered_tests(a.tests, t), a.games)
        if b.caught or b.how == "error":
            print(f"mutate_interpreter: the unmutated interpreter fails the reduced cross-check "
                  f"({b.how}: {b.detail}); nothing to compare against", file=sys.stderr)
            return 2

    def one(m):
        tests = ordered_tests(a.tests, m.target) if fmap is None else tests_for(m, fmap)
        if not tests:       # no file runs the mutated function: none can tell the mutant apart
            return m, Verdict(False, "not reached", f"no cross-check file runs {m.scope}", 0.0)
        return m, run_one(TARGETS[m.target][0], m.source, a.states, a.timeout, tests, a.games)

    results = []
    skipped = [m for m in picked if a.skip_explained and m.key in EXPLAINED]
    for m in skipped:
        if not a.json:
            print(f"#{m.id:<4} {'explained':<10}   not run  {m.describe()}", flush=True)
    picked = [m for m in picked if m not in skipped]
    done: dict = {}
    if a.resume:        # the verdicts a stopped run recorded (one JSON line a mutant), for the same edits
        rf = Path(a.resume)
        for line in (rf.read_text(encoding="utf-8").splitlines() if rf.exists() else ()):
            r = json.loads(line)
            done[(r["target"], r["id"], r["before"], r["after"])] = Verdict(r["caught"], r["how"], r["detail"],
                                                                            r["seconds"])
        for m in picked:
            v = done.get((m.target, m.id, m.before, m.after))
            if v is not None:
                results.append((m, v))
        if results and not a.json:
            print(f"(--resume: {len(results)} verdicts read from {a.resume})", flush=True)
        picked = [m for m in picked if (m.target, m.id, m.before, m.after) not in done]

    def record(m, v):
        if a.resume:
            with open(a.resume, "a", encoding="utf-8") as f:
                f.write(json.dumps({"target": m.target, "id": m.id, "before": m.before, "after": m.after,
                                    "caught": v.caught, "how": v.how, "detail": v.detail,
                                    "seconds": round(v.seconds, 1)}, ensure_ascii=False) + "\n")

    with ThreadPoolExecutor(max(1, a.jobs)) as ex:
        for m, v in ex.map(one, picked):
            results.append((m, v))
            record(m, v)
            if not a.json:
                tag = "caught " if v.caught else ("explained" if m.key in EXPLAINED else
                                                  ("ERROR  " if v.how == "error" else "SURVIVED"))
                print(f"#{m.id:<4} {tag:<10} {v.seconds:5.1f}s  {m.describe()}"
                      + (f"\n        {v.how}: {v.detail}" if v.caught or v.how == "not reached" else ""),
                      flush=True)
    caught = [r for r in results if r[1].caught]
    errors = [r for r in results if r[1].how == "error"]
    survived = [r for r in results if not r[1].caught and r[1].how != "error"]
    explained = [r for r in survived if r[0].key in EXPLAINED]
    open_ = [r for r in survived if r[0].key not in EXPLAINED]
    by_how: dict = {}
    for _, v in caught:
        by_how[v.how] = by_how.get(v.how, 0) + 1
    by_class: dict = {}
    for m, _ in explained:
        by_class[EXPLAINED[m.key]] = by_class.get(EXPLAINED[m.key], 0) + 1
    total = time.monotonic() - t0
    if a.json:
        print(json.dumps({
            "pool": len(pool), "run": len(results), "caught": len(caught), "caught_by": by_how,
            "survived_explained": by_class, "explained_not_run": len(skipped), "survived": len(open_),
            "errors": len(errors),
            "seconds": round(total, 1), "states": a.states, "games": a.games, "seed": a.seed,
            "mutants": [{"id": m.id, "target": m.target, "function": m.func, "line": m.line, "op": m.op,
                         "before": m.before, "after": m.after, "caught": v.caught, "how": v.how,
                         "detail": v.detail, "seconds": round(v.seconds, 1), "explained": EXPLAINED.get(m.key),
                         **({"diff": _diff(m)} if not v.caught else {})} for m, v in results]},
            ensure_ascii=False, indent=1))
    else:
        print(f"\n{len(results)} mutants (of {len(pool)}; seed {a.seed}, {a.states} states): "
              f"{len(caught)} caught ({', '.join(f'{k} {n}' for k, n in sorted(by_how.items()))}), "
              f"{len(explained)} survived explained ({', '.join(f'{k} {n}' for k, n in sorted(by_class.items()))}), "
              + (f"{len(skipped)} explained not run, " if skipped else "") +
              f"{len(open_)} survived, {len(errors)} errors; {total:.0f} s")
        for m, v in survived + errors:
            label = EXPLAINED.get(m.key)
            tag = ("explained: " + label if label else "ERROR " + v.detail if v.how == "error" else
                   "SURVIVED" + (" (not reached)" if v.how == "not reached" else ""))
            print(f"\n#{m.id} {tag}"
                  f"\n{m.describe()}\n{_diff(m)}")
    return 1 if open_ or errors else 0


if __name__ == "__main__":
    sys.exit(main())
