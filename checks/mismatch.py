"""When the two back-ends disagree: a solver witness that does not replay in the interpreter
(``WitnessMismatch``, raised by ``context.Context`` when it checks a witness) and the INT001 finding
``budget.run_family`` makes of it (``mismatch_finding``) — the rest of that family is not asked."""
from __future__ import annotations

from .findings import Finding


class WitnessMismatch(Exception):
    """The solver's witness does not replay in the interpreter: the two back-ends disagree on ``question``.
    ``budget.run_family`` turns it into an INT001 finding (the rest of that family is not asked). ``problems``:
    ``replay_problems``' reasons, in both languages."""

    def __init__(self, question: dict, expect: dict, problems: list):
        from skillproof.model.reason import en
        super().__init__(f"witness does not replay: {'; '.join(en(p) for p in problems)}")
        self.question, self.expect, self.problems = question, expect, list(problems)


def mismatch_finding(fam, err: WitnessMismatch, cat=None) -> Finding:
    """The internal-error finding of a family whose witness did not replay (an inconclusive question): the
    question in words (with the catalogue's names when ``cat`` is given) and the interpreter's reasons, in
    Chinese and in English; the details keep the question and the reasons (English) as data."""
    from skillproof.model.reason import en, zh
    from .findings import canonical
    from .registry import INTERNAL
    q = canonical(err.question)
    title = _question_words(cat, err.question)
    return Finding(INTERNAL.code, fam.name, "error",
                   f"内部错误：{fam.name} 检查族的问题「{title.zh}」上求解器与解释器不一致（见证不能重放："
                   f"{'；'.join(zh(p) for p in err.problems)}），此族其余问题未提问",
                   key=f"internal|{fam.name}|{q}", inconclusive=True,
                   message_en=f"internal error: the solver and the interpreter disagree on a question of the "
                              f"{fam.name} family, {title.en} (the witness does not replay: "
                              f"{'; '.join(en(p) for p in err.problems)}); the rest of this family was not asked",
                   details={"question": err.question, "solver_claims": err.expect,
                            "interpreter": [en(p) for p in err.problems]})


def _question_words(cat, q: dict):
    """A decide-form question in words, in both languages (``narrate.question_title``); without a catalogue,
    its canonical form."""
    from skillproof.model.narrate import question_title
    from skillproof.model.reason import Reason, both
    from .findings import canonical
    if cat is None:
        return Reason(canonical(q), canonical(q))
    return both(question_title, cat, q)
