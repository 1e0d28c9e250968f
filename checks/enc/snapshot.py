"""The table as it stands, symbolically: twin of ``model/interp/snapshot.py`` (``snapshot_errors``) and of the
setup check of ``model/interp/trace.py`` (``setup_errors``) — the table at the start of a symbolic trace: its
seats, characters and attributes that cannot contradict each other.
"""
from __future__ import annotations

import z3

from skillproof.model import vocab as V
from skillproof.model.state import Seat

from ..terms import And, Eq, Implies, Or
from .state import SymState


def enc_snapshot(S: SymState, add) -> None:
    """Named constraints (``add(label, rules, expr)``) on the table at the start: who sits where, distinct
    characters, identities, attribute bounds, message counts that add up, public roles face up. Twin of
    interp.snapshot.snapshot_errors / interp.trace.setup_errors; part of trace.reachability, in its order."""
    cat, C = S.cat, S.codes
    n = S.n
    for s in range(1, n - 1):
        add(f"seat order {s}", (), Implies(S.present[s + 1], S.present[s]))
    for s in range(1, min(n, cat.rules.min_seats)):
        add(f"at least {cat.rules.min_seats} players", (), S.present[s])
    for s in range(n):
        cands = S.chars_me if s == 0 else S.chars_other
        add(f"seat {s} character", (), Or([Eq(S.char[s], C.char[c]) for c in cands] or [z3.BoolVal(False)]))
        for t in range(s):
            add(f"distinct characters {t},{s}", (), Implies(And(S.present[s], S.present[t]),
                                                                 S.char[s] != S.char[t]))
        add(f"seat {s} identity", (), And(S.ident[s] >= 0, S.ident[s] < len(V.COLOURS),
                                             Implies(S.alive[s], S.ident[s] != C.colour["none"])))
        for f in Seat.INT_FIELDS:
            lo, hi = V.INT_BOUNDS[f]
            add(f"seat {s} {f}", (), And(S.ints[f][s] >= lo, S.ints[f][s] <= hi))
        red, blue, tru = S.ints["red_messages"][s], S.ints["blue_messages"][s], S.ints["true_messages"][s]
        nb, blk = S.ints["non_black_messages"][s], S.ints["black_messages"][s]
        add(f"seat {s} message counts", (), And(red <= tru, blue <= tru, tru <= red + blue, nb <= tru,
                                                   tru - nb <= blk))
        # the player's as the trace found it, before the uses that turn her role (checks/enc/face.py)
        face, ever = (S.pre_face_up, S.pre_ever) if s == 0 else (S.face_up[s], S.ever[s])
        public = [c for c in cands if not cat.characters[c].hidden]
        add(f"seat {s} public roles face up", tuple(public),
            Implies(S._char_in(s, [cat.characters[c] for c in public]), face))
        add(f"seat {s} face up implies ever", (), Implies(face, ever))
    add("message direction", (), And(S.message_dir >= 0, S.message_dir < len(V.DIRECTIONS)))
