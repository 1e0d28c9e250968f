"""The table's shape, both twins: the set-ups the interpreter refuses (``interp.snapshot.snapshot_errors``, the part of
``interp.trace.setup_errors`` a table alone decides) are the ones the z3 twin's table constraints
(``checks/enc/snapshot.enc_snapshot``) exclude — asked of the solver, not of concrete states.

The random cross-check runs the twin on concrete states, which always have the table's shape (seats in a row, as many
as a game has, distinct known characters, counts that add up), so a constraint loosened by one (a seat left free, a
character domain one wider, a bound one past) changes no state it reads: found by benchmarks/mutate_interpreter.py
(enc.snapshot #0 #1 #2 #5 #7 #13 #17 survived the other files). Here each constraint is probed at its edges — a
pattern of seats present, a character code, an identity, a count, a face, a direction just inside and just outside —
and the twin's "some table has this" must be the interpreter's "a table like this is no error".
"""
from __future__ import annotations

import copy
import itertools

import pytest
import z3

from skillproof.checks.enc.snapshot import enc_snapshot
from skillproof.checks.enc.state import SymState
from skillproof.model import loader
from skillproof.model import vocab as V
from skillproof.model.interp.snapshot import snapshot_errors
from skillproof.model.state import Seat, State


@pytest.fixture(scope="module")
def cat():
    return loader.load()


def twin(S):
    """A solver holding the twin's table constraints of ``S`` (nothing else of the trace)."""
    s = z3.Solver()
    enc_snapshot(S, lambda label, rules, expr: s.add(expr))
    return s


def sat(s, *eqs) -> bool:
    s.push()
    s.add(*eqs)
    r = s.check()
    s.pop()
    assert r in (z3.sat, z3.unsat)
    return r == z3.sat


def seat(cat, c, **kw) -> dict:
    ch = cat.characters[c]
    d = {"character": c, "alive": True, "face_up": True, "ever_face_up": True, "identity": "red", "skills": [{"rule": r} for r in ch.skills]}
    d.update(kw)
    return d


def table(cat, chars, at=None, **kw) -> State:
    """A table of ``chars``, every seat as plain as the interpreter accepts, seat ``at`` changed by ``kw``."""
    return State.from_dict({"seats": [seat(cat, c, **(kw if i == at else {})) for i, c in enumerate(chars)]})


def clean(cat, st) -> bool:
    return not snapshot_errors(cat, st)


def public(cat):
    return sorted(c for c, ch in cat.characters.items() if not ch.hidden)


def hidden(cat):
    return sorted(c for c, ch in cat.characters.items() if ch.hidden)


def with_min_seats(cat, k):
    """The catalogue with ``[rules] min_seats = k`` (the loader takes 1 to ``seats``)."""
    out = copy.copy(cat)
    out.rules = copy.copy(cat.rules)
    out.rules.min_seats = k
    return out


@pytest.mark.parametrize("fewest", [1, 2, 3])
def test_the_seats_present_are_a_row_of_a_game_size(cat, fewest):
    """Every pattern of seats present: some table has it in the twin exactly when it is a row from seat 0 whose
    length the interpreter takes for a game (``[rules] min_seats`` up: at 1 the order of seats 1 and 2 is no
    consequence of the fewest seats — enc.snapshot #0 survived the shipped 2)."""
    cat = with_min_seats(cat, fewest)
    S = SymState(cat, n=5)
    s = twin(S)
    chars = public(cat)[:S.n]
    for pattern in itertools.product((False, True), repeat=S.n - 1):
        flags = (True,) + pattern
        k = flags.index(False) if False in flags else S.n
        row = all(not f for f in flags[k:])
        expected = row and clean(cat, table(cat, chars[:k]))
        got = sat(s, *[S.present[i] if f else z3.Not(S.present[i]) for i, f in enumerate(flags) if i])
        assert got == expected, (flags, got, expected)


def test_each_seat_is_a_character_of_its_domain(cat):
    """The player's seat takes exactly ``chars_me``, every other seat exactly ``chars_other`` (codes of no character are
    refused, as the interpreter refuses an unknown character); a domain with no character is no table at all."""
    pub = public(cat)
    me, other = pub[:2], pub[2:5]
    S = SymState(cat, n=3, chars_me=me, chars_other=other)
    s = twin(S)
    C = S.codes
    codes = sorted(C.char.values())
    for si, dom in ((0, me), (1, other), (2, other)):
        allowed = {C.char[c] for c in dom}
        for code in range(codes[0] - 1, codes[-1] + 2):
            assert sat(s, S.char[si] == code, S.present[si]) == (code in allowed), (si, code)
    assert not sat(twin(SymState(cat, n=3, chars_me=me, chars_other=[])))
    assert clean(cat, table(cat, [me[0], other[0]]))


def test_distinct_characters_with_few_to_choose_from(cat):
    """With only k characters to sit, a table of k seats is one and a larger one is none, as the interpreter says of
    every seating of them — the distinctness of two seats binds present seats only."""
    few = public(cat)[:2]
    S = SymState(cat, n=4, chars_me=few, chars_other=few)
    s = twin(S)
    for k in range(1, S.n + 1):
        expected = any(clean(cat, table(cat, list(p))) for p in itertools.permutations(few, k))
        flags = [S.present[i] if i < k else z3.Not(S.present[i]) for i in range(1, S.n)]
        assert sat(s, *flags) == expected, k


def test_identity_codes_and_the_living(cat):
    S = SymState(cat, n=3)
    s = twin(S)
    chars = public(cat)[:2]
    for si in (0, 1):
        for alive in (True, False):
            for code in range(-1, len(V.COLOURS) + 1):
                expected = 0 <= code < len(V.COLOURS) and clean(
                    cat, table(cat, chars, at=si, alive=alive, identity=V.COLOURS[code]))
                got = sat(s, S.ident[si] == code, S.alive[si] == alive, S.present[1])
                assert got == expected, (si, alive, code)


def test_counts_range_over_the_vocabulary_bounds(cat):
    """A seat's counts take exactly ``vocab.INT_BOUNDS`` (what the witness reads back into a state) — each bound is
    reached, one past it is not."""
    S = SymState(cat, n=3)
    s = twin(S)
    for f in Seat.INT_FIELDS:
        lo, hi = V.INT_BOUNDS[f]
        for si in (0, 1):
            for v, ok in ((lo - 1, False), (lo, True), (hi, True), (hi + 1, False)):
                assert sat(s, S.ints[f][si] == v) == ok, (f, si, v)


def test_message_counts_that_add_up(cat):
    """red, blue, red-or-blue, no-black and black counts of 0 to 2: the twin has a seat with them exactly when the
    interpreter finds nothing wrong with a seat holding them."""
    S = SymState(cat, n=3)
    s = twin(S)
    names = ("red_messages", "blue_messages", "true_messages", "non_black_messages", "black_messages")
    chars = public(cat)[:2]
    for vals in itertools.product(range(3), repeat=len(names)):
        kw = dict(zip(names, vals))
        expected = clean(cat, table(cat, chars, at=1, **kw))
        assert sat(s, *[S.ints[f][1] == v for f, v in kw.items()]) == expected, kw


def test_faces_at_the_start(cat):
    """A public role is face up and a face up role was ever face up — at the start: for the player, her face before
    this turn's uses turn it (the trace's setup, what ``setup_errors`` reads), not her face now."""
    S = SymState(cat, n=3)
    assert S.turning       # the shipped catalogue has uses that turn a role: the two faces are two terms
    s = twin(S)
    C = S.codes
    pub, hid = public(cat)[:2], hidden(cat)[0]
    for c in (pub[0], hid):
        for up, ever in itertools.product((False, True), repeat=2):
            # the player: the faces before the uses decide, her faces now are free
            expected = clean(cat, table(cat, [c, pub[1]], at=0, face_up=up, ever_face_up=ever))
            assert sat(s, S.char[0] == C.char[c], S.pre_face_up == up, S.pre_ever == ever) == expected, (c, up, ever)
            assert sat(s, S.char[0] == C.char[c], S.pre_face_up, S.pre_ever, S.face_up[0] == up, S.ever[0] == ever)
            # another seat: its faces
            expected = clean(cat, table(cat, [pub[1], c], at=1, face_up=up, ever_face_up=ever))
            assert sat(s, S.present[1], S.char[1] == C.char[c], S.face_up[1] == up, S.ever[1] == ever) == expected, \
                (c, up, ever)


def test_message_direction_codes(cat):
    S = SymState(cat, n=2)
    s = twin(S)
    for code in range(-1, len(V.DIRECTIONS) + 1):
        assert sat(s, S.message_dir == code) == (0 <= code < len(V.DIRECTIONS)), code
