"""Words about time in a question: the window it is asked in ("in the main phase", "at send-phase start",
"when someone is dying", 在争夺阶段), whose turn it is ("in 陈大耳's turn", 在陈大耳的回合, "in her own turn",
"in another player's turn", 在别人的回合),
when a grant was handed out ("under 变则通 in the previous turn", 上一回合) and ``after X`` — an event of the
trace this turn (a role replacement by 后来人, a grant of X's handed to the player, X's invalidation of the
player). ``settle`` checks them against each other and against the claim's decisions, with located errors.
A part of ``parser.Parser``."""
from __future__ import annotations

from skillproof.model import turn as TW
from skillproof.model.msg import Msg
from skillproof.model.names import did_you_mean

from .evaluate import decision_of, use_windows
from .parse_atoms import Words
from .syntax import BoolOp, Given, Not, Query, atoms_of

import re

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")

def _zh(w: str) -> str:
    return TW.WINDOWS[w].zh


def _en(w: str) -> str:
    return TW.WINDOW_EN[w]


def _denied(node, neg: bool) -> list:
    """The atoms of a claim that it denies (under an odd number of ``not``, the whole negated for ``always``)."""
    if isinstance(node, Not):
        return _denied(node.arg, not neg)
    if isinstance(node, BoolOp):
        return [a for x in node.items for a in _denied(x, neg)]
    return [node] if neg and node is not None else []


#: words that end a turn phrase ("in 陈大耳's turn", 在陈大耳的回合)
_TURN_WORDS = ("turn", "turns")


class MomentParser(Words):
    """The moment of a question and the turn of its events."""

    # ---- looking ahead (nothing is taken)
    def _turn_word(self, j: int) -> bool:
        t = self.toks[j]
        return t.kind == "word" and (t.text.lower() in _TURN_WORDS or t.kw == "turn_word")

    def turn_ago_at(self, j: int) -> tuple[int, int] | None:
        """``[in] previous turn`` / ``[in] this turn`` / 上一回合 / 本回合 at ``j``: (turns ago, end)."""
        j = self._skipf(j)
        t = self.toks[j]
        if t.kw in ("previous_turn", "this_turn"):
            return (1 if t.kw == "previous_turn" else 0), j + 1
        if t.kw == "in":
            j = self._skipf(j + 1)
            t = self.toks[j]
            if t.kw in ("previous_turn", "this_turn"):
                return (1 if t.kw == "previous_turn" else 0), j + 1
        if t.kw in ("previous", "this"):
            k = self._skipf(j + 1)
            if self._turn_word(k):
                return (1 if t.kw == "previous" else 0), k + 1
        return None

    def moment_at(self, j: int | None = None) -> str | None:
        """Which moment phrase starts at token ``j`` (default: here): window | dying | turn_of | turn_ago."""
        j = self.i if j is None else j
        j = self._skipf(j)
        t = self.toks[j]
        if t.kind != "word":
            return None
        if self.turn_ago_at(j) is not None:
            return "turn_ago"
        if t.kw in ("if", "while", "anyone"):
            k = self._skipf(j + 1) if t.kw != "anyone" else j
            if self.toks[k].kw == "anyone":
                k = self._skipf(k + 1)
                if self.toks[k].kw == "is":
                    k += 1
                w = self.window_at(k)
                if w is not None and w[0] == "dying":
                    return "dying"
            return None
        if t.kw in ("in", "at"):
            k = self._skipf(j + 1)
            if self.window_at(k) is not None:
                return "window"
            if t.kw == "in":
                k = self._whose_end(k)
                if self._turn_word(k):
                    return "turn_of"
        if _CJK.search(t.text) and self.window_at(j) is not None:
            return "bare_window"                  # 争夺阶段能使用破译吗: a window named with no 在
        return None

    def _whose_end(self, k: int) -> int:
        """After 'in': the words naming whose turn (own / a character / another player / someone else), skipped."""
        t = self.toks[k]
        if t.kw == "own" or self.resolve(t, ("character",)) is not None:
            return self._skipf(k + 1)
        if t.kw == "other":                                  # another [player] / 别人
            k = self._skipf(k + 1)
            return self._skipf(k + 1) if self.toks[k].kw == "anyone" else k
        if t.kw == "anyone" and self.toks[self._skipf(k + 1)].kw == "other":   # someone else
            return self._skipf(self._skipf(k + 1) + 1)
        return k

    # ---- parsing
    def moment(self) -> Given:
        """One moment phrase (``moment_at`` says which) as a given."""
        kind = self.moment_at()
        self.skip_fillers()
        start = self.tok
        if kind == "turn_ago" and self.tok.kw == "this_turn":
            self.take()                           # 本回合 on its own: the question is asked in this turn anyway
            return None
        if kind == "bare_window":
            w, end = self.window_at(self.i)
            self.i = end
            e = self.toks[end - 1].end
            self.skip_fillers()
            return Given("window", start.col, e, self.text[start.col:e], window=w)
        if kind == "turn_ago":
            self.error(Msg("'上一回合' / '本回合' 说的是给出技能或事件发生的时候：写在 'under G' 或 'after X' 之后"
                           "（例如 'under 变则通 in the previous turn'）",
                           "'in the previous turn' / 'this turn' says when a grant was handed out or an event happened: "
                           "write it after 'under G' or 'after X' (e.g. 'under 变则通 in the previous turn')"))
        if kind == "window" or kind == "dying":
            if kind == "dying":
                while not (self.tok.kind == "word" and self.window_at(self.i) is not None and
                           self.window_at(self.i)[0] == "dying"):
                    self.take()
            else:
                self.take()                                          # in / at
            w, end = self.window_at(self.i)
            self.i = end
            e = self.toks[end - 1].end
            self.skip_fillers()                                      # 有人濒死时
            return Given("window", start.col, e, self.text[start.col:e], window=w)
        # turn_of: in [CHARACTER | own | another player | someone else] turn
        self.take()
        self.skip_fillers()
        who = None
        other = self.at("other") or (self.at("anyone") and self.toks[self._skipf(self.i + 1)].kw == "other")
        if other:
            self.i = self._whose_end(self.i)
        elif self.at("own"):
            self.take()
        else:
            r = self.resolve(self.tok, ("character",))
            if r is not None:
                who = r[1]
                self.take()
        self.skip_fillers()
        e = self.take().end                                          # turn / 回合
        return Given("turn_of", start.col, e, self.text[start.col:e], who=who, other=other)

    def moment_error(self) -> None:
        """Here is 'in' / 'at' that starts no moment: a misspelt window or character, said with the nearest
        name (nothing is raised when the next word is no near miss)."""
        from skillproof.model.names import nearest

        from .names import WINDOW_PHRASES
        if not self.at("in", "at"):
            return
        j = self._skipf(self.i + 1)
        t = self.toks[j]
        if t.kind != "word":
            return
        if self._turn_word(self._skipf(j + 1)):
            self.name_error(t, "character", ("character",))
        words = sorted({p for ps in WINDOW_PHRASES.values() for p in ps if " " not in p})
        near = nearest(t.text, words)
        if near is not None:
            self.error(Msg("未知的时机 '{t}'{dym}", "unknown window '{t}'{dym}", t=t.text, dym=did_you_mean(f"'{near}'")), t)

    def turn_ago(self) -> int | None:
        """An optional ``in the previous turn`` / ``this turn`` after a grant or an ``after`` given."""
        r = self.turn_ago_at(self.i)
        if r is None:
            return None
        self.i = r[1]
        return r[0]

    def after(self, t) -> Given:
        """``after X``: X replaces roles (后来人), hands out skills or invalidates (a skill or card), or is a grant."""
        cat = self.cat
        self.skip_fillers()
        x = self.tok
        r = self.resolve(x, ("rule", "card"))
        if r is None and (self.at("is") or x.kw in ("face_up", "face_down", "invalidated", "locked", "not")):
            c = self.claim()                            # after she is face up: a state, from then on
            end = self.prev_end()
            return Given("claim", t.col, end, self.text[t.col:end], claim=c)
        if r is None:
            self.name_error(x, Msg("技能或牌", "skill or card"), ("rule", "card"))
        ident = r[1]
        rule = cat.skills.get(ident)
        src = rule if rule is not None else cat.cards[ident]
        if not (rule is not None and (rule.replaces_role or (rule.is_grant and cat.sites(ident))) or src.gives):
            self.error(Msg("'after {x}'：经过只记录换角色（后来人）、给玩家的技能和无效——{n}都不是"
                           "（要说玩家持有它，写 'with {x}'）",
                           "'after {x}': the trace records role replacements ('后来人'), grants handed to the player "
                           "and invalidations — {n} makes none of them (to say the player holds it, write 'with {x}')",
                           x=x.text, n=cat.name_of(ident)), x)
        self.take()
        ago = self.turn_ago()
        end = self.prev_end()
        return Given("after", t.col, end, self.text[t.col:end], rule=ident, ago=ago)

    # ---- checking
    def settle(self, q: Query) -> None:
        """The moment words of a question, checked together: one window (a dying window may name the window
        it interrupts: "when someone is dying in the main phase"), and no decision of the claim that is
        never taken in it."""
        wins = [g for g in q.givens if g.kind == "window"]
        self.phases_from_window(q, wins)
        dying = [g for g in wins if g.window == "dying"]
        others = [g for g in wins if g.window != "dying"]
        for g in others[1:]:
            if g.window != others[0].window:
                raise self._err(g, Msg("一个问题只问一个时刻：{a}和{b}是两个时机",
                                       "a question is asked at one moment: the {ae} and the {be} are two windows",
                                       a=_zh(others[0].window), b=_zh(g.window), ae=_en(others[0].window),
                                       be=_en(g.window)))
        for g in dying[1:] + others[1:]:
            q.givens.remove(g)
        if dying and others:
            d, o = dying[0], others[0]
            if o.window not in TW.DYING_WITHIN:
                raise self._err(o, Msg("濒死求澄清打断的是{zw}，不是{z}",
                                       "the dying window interrupts the {ew}, not the {e}",
                                       zw="、".join(_zh(w) for w in TW.DYING_WITHIN),
                                       ew=", ".join(_en(w) for w in TW.DYING_WITHIN), z=_zh(o.window),
                                       e=_en(o.window)))
            d.interrupts = o.window
            d.text = f"{d.text}, {o.text}"
            q.givens.remove(o)
        now = (dying or others or [None])[0]
        atoms = atoms_of(q.claim)
        for g in q.givens:
            if g.kind == "claim":
                atoms += atoms_of(g.claim)
        self.settle_uses(q, now)
        if now is None:
            return
        for a in atoms:
            d = decision_of(a)
            if d is None or now.window in TW.DECISION_WINDOWS[d][0]:
                continue
            at, actor = TW.DECISION_WINDOWS[d]
            raise self._err(a, Msg("'{a}' 在{zw}判定（由{za}），从不在{z}：去掉 '{now}'，或问那个时刻",
                                   "'{a}' is decided in the {ew} (by {ea}), never in the {e}: drop '{now}', or ask "
                                   "about that moment", a=a.text, zw="/".join(_zh(w) for w in at),
                                   ew="/".join(_en(w) for w in at), za=TW.ACTORS[actor][0], ea=TW.ACTORS[actor][1],
                                   z=_zh(now.window), e=_en(now.window), now=now.text))

    def settle_uses(self, q: Query, now) -> None:
        """``use S`` is asked where S is used (its windows, narrowed by ``in PHASE`` or the question's window).
        Where a named window leaves none, *S is used then* is simply false — ``can`` says no, ``never`` yes, and
        that is what the catalogue's windows say — but its denial (``always use S …``, ``never not use S …``)
        would hold at no moment at all, vacuously: that is a located error, as a decision asked in a window
        it is never taken in."""
        for a in _denied(q.claim, q.mode == "always"):
            if a.kind != "use" or (a.phase is None and now is None):
                continue
            own = dict(self.cat.skills[a.rule].windows)
            wins = use_windows(self.cat, a)
            if now is not None:
                wins = {w: x for w, x in wins.items() if w == now.window}
            if wins:
                continue
            asked = a.phase if a.phase is not None and a.phase not in own else now.window
            n = self.cat.name_of(a.rule)
            if not own:
                raise self._err(a, Msg("{n}没有使用的时机，从不在{z}使用：这样问在任何时刻都空洞地成立——问 'never … {t}'",
                                       "{n} has no window it is used in, so it is never used in the {e}: asked so, the "
                                       "claim holds at no moment, vacuously — ask 'never … {t}'",
                                       n=n, z=_zh(asked), e=_en(asked), t=a.text))
            raise self._err(a, Msg("{n}在{zw}使用（{za}），从不在{z}：这样问没有一个可问的时刻，空洞地成立——"
                                   "问 'never … {t}'（它从不在{z}使用），或问{zw}",
                                   "{n} is used in the {ew} ({ea}), never in the {e}: asked so, the claim has no "
                                   "moment to hold at and holds vacuously — ask 'never … {t}' (it is never used "
                                   "then), or about the {ew}", n=n, t=a.text,
                                   zw="/".join(_zh(w) for w in own), ew="/".join(_en(w) for w in own),
                                   za="、".join(TW.ACTORS[x][0] for x in dict.fromkeys(own.values())),
                                   ea=", ".join(TW.ACTORS[x][1] for x in dict.fromkeys(own.values())),
                                   z=_zh(asked), e=_en(asked)))

    def phases_from_window(self, q: Query, wins) -> None:
        """'skipped' / 'act' written with no phase (会被跳过吗, 能行动的角色) take it from the question's window:
        争夺阶段 or 濒死求澄清 (a located error when the question names neither)."""
        atoms = atoms_of(q.claim)
        for g in q.givens:
            if g.kind == "claim":
                atoms += atoms_of(g.claim)
        need = [a for a in atoms if a.kind in ("skip", "act") and a.phase is None]
        if not need:
            return
        phase = "dying" if any(g.window == "dying" for g in wins) else \
            next((g.window for g in wins if g.window == "fight"), None)
        if phase is None:
            raise self._err(need[0], Msg("'{a}' 问的是哪个阶段？写出 '争夺阶段' 或 '濒死求澄清'（'在争夺阶段会被跳过吗'）",
                                         "'{a}': in which phase? say '争夺阶段' (the fight phase) or '濒死求澄清' (when "
                                         "someone is dying)", a=need[0].text))
        for a in need:
            a.phase = phase

    def _err(self, node, msg):
        from .errors import QueryError
        return QueryError(msg, node.col, max(node.end, node.col + 1))
