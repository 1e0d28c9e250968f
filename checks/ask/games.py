"""An answer's witness made a game of the server (checks/realise.py): what `skillproof ask` shows.

The solver's witness of a question that is not a table question is a trace of the timed model (who holds which
skill, turn by turn and window by window). With ``Session.games`` on (the ask command), ``as_game`` puts the
table's events under it as `check` does for a finding's witness: the answer then shows the game — its trace and
state, its story told event by event, the interpreter's reasoning on the game's state. When no game is found
within the bounds the timed model's trace stays and a note says so. A ``which`` answer's per-value witnesses and
a 'no' answer's illustration stay the timed model's.
"""
from __future__ import annotations

from skillproof.model import narrate as N
from skillproof.model.lang import pick


def as_game(cat, res) -> None:
    """Replace ``res.witness`` (a timed trace) by its game, in place, with its story and reasoning; or add a note
    that it has none."""
    from ..realise import TwinsDisagree, game_witness, witness_questions
    w = res.witness
    if not isinstance(w, dict) or "trace" not in w or w["trace"].get("table"):
        return
    try:
        got_w, got = game_witness(cat, w)
    except TwinsDisagree as e:
        res.notes.append(pick(f"例证仍是时序模型的经过：z3 孪生填出的牌局解释器不接受（{e}）——这是 skillproof 的缺陷",
                              f"the witness is the timed model's trace: the z3 twin filled a game the interpreter "
                              f"refuses ({e}) — a bug in skillproof"))
        return
    if got is None:
        why = got_w["unrealised"]
        res.witness = got_w
        res.notes.append(pick(f"例证是时序模型的经过：在界限内找不到服务器的一局（{why['zh']}）；牌桌不动",
                              f"the witness is the timed model's trace: no game of the server found within the "
                              f"bounds ({why['en']}); the table does not move"))
        return
    from skillproof.model.interp import trace as TR
    game = TR.Trace.from_dict(got_w["trace"])
    st = got.state
    st.trace = game
    res.witness = got_w
    asked = witness_questions(got_w)
    told = min(len(res.traces), len(asked))      # the reasoning on each question told, now on the game's state
    res.traces = [N.narrate(cat, st, qd) for qd, _ in asked[:told]] + res.traces[told:]
    res.origin = N.story(cat, game, None)
