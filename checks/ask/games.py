"""An answer's witnesses made games of the server (checks/realise.py): what `skillproof ask` shows.

The solver's witness of a question that is not a table question is a trace of the timed model (who holds which
skill, turn by turn and window by window). With ``Session.games`` on (the ask command), ``as_game`` puts the
table's events under it as `check` does for a finding's witness: the answer then shows the game — its trace and
state, its story told event by event, the interpreter's reasoning on the game's state — and so does each value
of a ``which`` answer. When no game is found within the bounds the timed model's trace stays and a note says so.
So does a 'no' answer's illustration (a state where the givens hold and the claim does not; for a proved 'always'
one where the claim holds too), and each 'no' value's of a ``which`` answer: the same realiser, the questions it
records asked again on the game.
"""
from __future__ import annotations

import json

from skillproof.model import narrate as N
from skillproof.model.lang import pick


def as_game(cat, res, accept=None, accept_illustration=None) -> None:
    """Replace the answer's witnesses (``res.witness`` and each value's) and its illustrations (``res.illustration``
    and each 'no' value's) by their games, in place, with their stories and reasoning; a note for each that has
    none. ``accept`` (a state -> bool, or None): what the game's last state must show besides the witness's
    recorded questions — the question's own claim and givens (``Session.ask``): a recorded question can be weaker
    than the claim (``use S again`` records ``holds S``), and a game that answers it but not the claim would show
    the designer something else than the answer says; ``accept_illustration`` the same for the illustration."""
    done: dict = {}

    def note_of(n):
        if n and n not in res.notes:
            res.notes.append(n)
    for v in res.values or ():
        if isinstance(v, dict) and v.get("witness") is not None:
            v["witness"], v["traces"], v["origin"], note = _game(cat, v["witness"], v.get("traces") or [],
                                                                 v.get("origin") or [], done)
            note_of(note)
        elif isinstance(v, dict) and v.get("illustration") is not None:
            v["illustration"], v["traces"], v["origin"], note = _game(cat, v["illustration"], v.get("traces") or [],
                                                                      v.get("origin") or [], done, None, True)
            note_of(note)
    if res.witness is not None:
        res.witness, res.traces, res.origin, note = _game(cat, res.witness, res.traces, res.origin, done, accept)
        note_of(note)
    if res.illustration is not None:
        res.illustration, res.illustration_traces, res.illustration_origin, note = _game(
            cat, res.illustration, res.illustration_traces, res.illustration_origin, done, accept_illustration, True)
        note_of(note)


def _game(cat, w, traces: list, origin: list, done: dict, accept=None, illustration: bool = False) -> tuple:
    """(witness, traces, origin, note or '') of one witness (``illustration``: a 'no' answer's illustration): its
    game, or itself with a note why not. ``done`` memoises by the witness's text (a ``which`` answer's first value
    is its witness too)."""
    from ..realise import TwinsDisagree, game_witness, witness_questions
    if not isinstance(w, dict) or "trace" not in w or "question" not in w or w["trace"].get("table"):
        return w, traces, origin, ""
    what = ("例子", "the illustration") if illustration else ("例证", "the witness")
    key = json.dumps(w, sort_keys=True, default=str)
    if key not in done:
        try:
            done[key] = game_witness(cat, w)
        except TwinsDisagree as e:
            done[key] = (w, e)
    got_w, got = done[key]
    if isinstance(got, TwinsDisagree):
        return w, traces, origin, pick(
            f"{what[0]}仍是时序模型的经过：z3 孪生填出的牌局解释器不接受（{got}）——这是 skillproof 的缺陷",
            f"{what[1]} is the timed model's trace: the z3 twin filled a game the interpreter refuses ({got}) — "
            f"a bug in skillproof")
    if got is None:
        why = got_w["unrealised"]
        return got_w, traces, origin, pick(
            f"{what[0]}是时序模型的经过：在界限内找不到服务器的一局（{why['zh']}）；牌桌不动",
            f"{what[1]} is the timed model's trace: no game of the server found within the bounds ({why['en']}); "
            f"the table does not move")
    from skillproof.model.interp import trace as TR
    game = TR.Trace.from_dict(got_w["trace"])
    st = got.state
    st.trace = game
    if accept is not None and not accept(st):
        return w, traces, origin, pick(
            f"{what[0]}是时序模型的经过：它下面找到的牌局不显示所问的情形本身；牌桌不动",
            f"{what[1]} is the timed model's trace: the game found under it does not show what was asked itself; "
            "the table does not move")
    asked = witness_questions(got_w)
    told = min(len(traces), len(asked))         # the reasoning on each question told, now on the game's state
    return got_w, [N.narrate(cat, st, qd) for qd, _ in asked[:told]] + list(traces[told:]), N.story(cat, game, None), ""
