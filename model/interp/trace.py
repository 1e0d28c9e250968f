"""Bounded event traces, executed event by event: how a situation arises in a game.

A ``Trace`` is the table at the start (``setup``: the seats, their characters and attributes; no
grants, nothing invalidated) and a list of ``Event``s in order: a turn starts, the turn moves to a
window (``model.turn``), a skill or card hands out a grant, a role is replaced (后来人), a skill is used
(what its ``used`` condition reads), a card is played (what ``played`` reads). ``run`` executes them one by one, checking that each is legal in its window, and
returns the state at the end — the moment a question is asked — with every illegal step named.

This is the interpreter's side of the timed model; the z3 encoder (``skillproof.checks.enc``,
``reachability``) states the same legality as constraints over a symbolic trace whose events carry
symbolic times (the turn and the window each happened in). Tests cross-check the two on random traces.

Attributes a trace does not change (hand sizes, messages, identities, alive, locked, the message card) are the
setup's: they stand for the table as it is at the question. How a role faces changes with a role replacement
(``apply_replace``) and with a skill used whose cost or effect turns it (``model/interp/face.py``: 偷天 turns its
holder face up, 换日 face down).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .. import turn as T
from ..catalogue import Catalogue
from ..expr_words import words
from ..reason import Reason, both, during, echoed, window as win_of, windows as wins_of
from ..state import SkillInst, State
from ..turn import COND_WINDOWS
from ..events import dispatched
from .core import env_of, evaluate
from .face import apply_use_face, face_errors
from .grants import TO_ONLY, args_errors, fired_recipients, must_fire, site_of, site_name, to_ok
from .lifetime import turn_end
from .path import user_in_front_errors
from .plays import card_usable
from .snapshot import lock_errors, snapshot_errors
from .windows import actor_ok, in_window


EVENT_KINDS = ("turn", "window", "give", "replace", "use", "play")


@dataclass
class Event:
    kind: str                       # turn | window | give | replace | use | play
    seat: int | None = None         # turn: whose turn; give: the receiver; replace / use / play: whose
    window: str | None = None       # window: the window moved to
    in_front: int | None = None     # window (message windows): the player the message is in front of
    sender: int | None = None       # window (message windows): who sent it; turn: who sends this turn's
                                    # message when not the turn player (密令's target). Default: the turn player
    dying: int | None = None        # window "dying": the dying player
    giver: int | None = None        # give: the seat handing the grant out
    site: str | None = None         # give: the gives site ("<giver>#<index>")
    args: dict = field(default_factory=dict)    # give: the grant's parameters
    character: str | None = None    # replace: the new character
    rule: str | None = None         # use: the skill used this turn
    via: str | None = None          # replace: the skill used
    card: str | None = None         # play: the card type it is used as (declared)
    # ---- the table's events (a whole game, model.interp.game)
    actual: str | None = None       # play: the physical card's type (default: the declared one)
    target: int | None = None       # play / use: the player it targets
    chosen: int | None = None       # resolve / use / fire: the player the effect's ``chosen`` names
    chosen2: int | None = None      #   … and ``chosen2``
    choices: dict | None = None     # resolve / use / fire: op path -> the decision its effect takes there (model.interp.ops)
    n: int | None = None            # draw: how many cards
    on: str | None = None           # fire: the event it answers (model.events)
    colours: list | None = None     # send: the message card's colours
    arrow: str | None = None        # send: the arrow printed on it
    lockable: bool | None = None    # send: it has a lock mark
    dir: str | None = None          # send: the direction declared
    to: int | None = None           # send: its first stop
    locks: list | None = None       # send: the players it locks
    face_up: bool | None = None     # send: sent face up; use: the face it leaves its role in, where its effect may
                                    # leave more than one (model/interp/face.py)
    source: str | None = None       # send: where the message card comes from (hand, deck_top, message_area)

    FIELDS = ("seat", "window", "in_front", "sender", "dying", "giver", "site", "character", "rule", "via", "card",
              "actual", "target", "chosen", "chosen2", "choices", "n", "on", "colours", "arrow", "lockable", "dir",
              "to", "locks", "face_up", "source")

    def to_dict(self) -> dict:
        d: dict = {"event": self.kind}
        for k in self.FIELDS:
            v = getattr(self, k)
            if v is not None:
                d[k] = list(v) if isinstance(v, tuple) else v
        if self.args:
            d["args"] = {k: (sorted(v) if isinstance(v, (set, frozenset, tuple, list)) else v)
                         for k, v in sorted(self.args.items())}
        return d

    @staticmethod
    def from_dict(d: dict) -> "Event":
        args = {k: (tuple(v) if isinstance(v, list) else v) for k, v in d.get("args", {}).items()}
        ev = Event(d["event"], args=args)
        for k in Event.FIELDS:
            if k in d:
                setattr(ev, k, d[k])
        return ev


@dataclass
class Trace:
    setup: State
    events: list = field(default_factory=list)
    table: bool = False             # a whole game: the table's events are in it and its rules apply (model.interp.game)

    def to_dict(self) -> dict:
        d = {"setup": self.setup.to_dict(), "events": [e.to_dict() for e in self.events]}
        if self.table:
            d["table"] = True
        return d

    @staticmethod
    def from_dict(d: dict) -> "Trace":
        return Trace(State.from_dict(d["setup"]), [Event.from_dict(e) for e in d.get("events", [])],
                     bool(d.get("table", False)))


@dataclass
class Run:
    state: State                    # the state after the last event
    errors: list                    # (event index or -1 for the setup, reason: a ``model.reason.Reason``)
    turns: int = 0                  # how many turns the trace started
    moments: list = field(default_factory=list)   # per event: the moment it happened (see ``moment``)
    uncoupled: list = field(default_factory=list)  # give events whose ``with`` partner never came (indices)
    done: dict = field(default_factory=dict)       # a game's: event index -> the ops its effect did (ops.done_entry)
    missed: list = field(default_factory=list)     # must-fire gives never handed out: (error index, giver, receiver,
                                                   # turn, site, the window event it was owed from, the error's
                                                   # reason) (Runner.settle_fired)

    @property
    def legal(self) -> bool:
        return not self.errors


def setup_errors(cat: Catalogue, setup: State) -> list[Reason]:
    """What makes the table at the start impossible (the part of a state events do not make)."""
    why = snapshot_errors(cat, setup)
    for si, s in enumerate(setup.seats):
        for inst in s.skills:
            if cat.skills.get(inst.rule) is not None and cat.skills[inst.rule].is_grant:
                why.append(Reason(f"座位{si}：开局就持有获得的技能（技能只能在经过中给出）",
                                  f"seat {si}: a granted skill at the start (grants come from give events)"))
                break
        if s.invalidated or any(i.invalid for i in s.skills):
            why.append(Reason(f"座位{si}：开局就被无效（无效只能在经过中给出）",
                              f"seat {si}: invalidated at the start (invalidation comes from give events)"))
        if s.played:
            why.append(Reason(f"座位{si}：开局就有本回合使用过的牌（使用的牌只能由经过中的出牌事件记下）",
                              f"seat {si}: cards played at the start (plays come from play events)"))
    return why


class Runner:
    """The interpreter of the timed model: the state, and one method per event kind (``on_<kind>``)."""

    KINDS = EVENT_KINDS

    def __init__(self, cat: Catalogue, trace: Trace):
        self.cat, self.trace = cat, trace
        st = trace.setup.copy()
        st.window, st.interrupted = None, None
        st.sender = st.in_front = st.dying = None
        self.st = st
        self.errors: list = [(-1, w) for w in self.setup_errors()]
        self.counts: dict = {}           # (site, receiver) -> grants handed out this turn
        self.turns = 0
        self.n = len(st.seats)
        self.moments: list = []
        self.given: list = []            # (event index, turn, window, giver, receiver, site) of every give
        self.events_seq: list = []       # indices of the give and replace events, in order (what a pair may not split)
        self.senders = _turn_senders(trace)
        self.k = -1                      # the index of the event being run
        self.sent = False                # this turn's message was sent (the trace reached a message window)
        self.owing: list = []            # must-fire gives owed since the message was sent (owe_fired)
        self.missed: list = []           # (error index, giver, receiver, turn, site, owed from, reason): owed, never come
        self.fired_sites = [g for src in list(cat.skills.values()) + list(cat.cards.values()) for g in src.gives
                            if must_fire(cat, g)] if not trace.table else []

    def setup_errors(self) -> list:
        return setup_errors(self.cat, self.trace.setup)

    def seat_ok(self, v) -> bool:
        return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < self.n

    def bad(self, msg) -> None:
        self.errors.append((self.k, msg))

    def run(self) -> Run:
        self.steps()
        return self.finish()

    def steps(self) -> None:
        """Every event of the trace, in order — the run up to its last event, before ``finish`` closes it."""
        for k, ev in enumerate(self.trace.events):
            self.k = k
            self.moments.append(moment(self.st, self.turns))
            handler = getattr(self, f"on_{ev.kind}", None) if ev.kind in self.KINDS else None
            if handler is None:
                self.bad(Reason(f"未知的事件「{echoed(ev.kind)}」", f"unknown event “{echoed(ev.kind)}”"))
                continue
            handler(ev)

    # ------------------------------------------------------------------------------------ the events
    def on_turn(self, ev: Event) -> None:
        # a turn starts at the very beginning or after the previous one ended
        st, cat = self.st, self.cat
        if st.window not in (None, "turn_end"):
            self.bad(Reason(f"在{win_of(st.window).zh}开始了新的回合：上一回合还没有结束",
                            f"a new turn starts {during(st.window).en}, before the turn ended"))
        if not self.seat_ok(ev.seat):
            self.bad(Reason("开始回合的不是座位", "whose turn: not a seat"))
            return
        if st.window is not None and self.n > 1 and ev.seat == st.turn:
            self.bad(Reason("下一回合应是另一名角色的回合", "the next turn is another player's"))
        self.settle_fired(None)
        self.sent = False
        if st.window is not None:
            for s in st.seats:
                for inst in s.skills:
                    if cat.skills[inst.rule].is_grant:
                        inst.turns_ago += 1
        st.turn, st.window, st.interrupted = ev.seat, "draw", None
        st.sender = st.in_front = st.dying = None
        for s in st.seats:
            s.played = frozenset()                  # what was played is this turn's
        self.counts = {}
        st.turn_sender = self.senders[self.turns] if self.senders[self.turns] is not None else ev.seat
        self.turns += 1

    def on_window(self, ev: Event) -> None:
        st = self.st
        w = ev.window
        if st.window is None:
            self.bad(Reason("还没有回合开始就进入了时机", "a window before any turn started"))
            return
        if w not in T.WINDOWS:
            self.bad(Reason(f"未知的时机「{echoed(w)}」", f"unknown window “{echoed(w)}”"))
            return
        if not T.can_follow(st.window, w, st.interrupted):
            self.bad(Reason(f"{win_of(w).zh}不能接在{win_of(st.window).zh}之后",
                            f"{win_of(w).en} cannot follow {win_of(st.window).en}"))
        if w == "dying":
            if not self.seat_ok(ev.dying):
                self.bad(Reason("濒死的角色不是座位", "the dying player is not a seat"))
                return
            st.interrupted = st.window if st.window != "dying" else st.interrupted
            st.window, st.dying = "dying", ev.dying
            return
        self.settle_fired(T.position(w))
        st.dying, st.interrupted = None, None
        if T.WINDOWS[w].message:
            if not self.seat_ok(ev.in_front):
                self.bad(Reason(f"{win_of(w).zh}：情报必须在某个座位面前",
                                f"{win_of(w).en}: the message must be in front of a seat"))
                return
            sender = ev.sender if ev.sender is not None else \
                (st.sender if st.sender is not None else st.turn)
            if not self.seat_ok(sender):
                self.bad(Reason("传出者不是座位", "the sender is not a seat"))
                return
            st.in_front, st.sender = ev.in_front, sender
        else:
            st.in_front = st.sender = None
        st.window = w
        if T.WINDOWS[w].message and not self.sent:
            self.sent = True
            self.owe_fired()
        if w == "turn_end":
            after = turn_end(self.cat, st)
            after.window = "turn_end"
            self.st = after

    def on_give(self, ev: Event) -> None:
        # an illegal grant is still applied when it can be (the trace is then illegal, with the reason)
        st, cat = self.st, self.cat
        why = give_errors(cat, st, ev, self.counts)
        if why:
            self.bad(why)
        give = site_of(cat, ev.site)
        if give is None or give.grant not in cat.skills or not (self.seat_ok(ev.seat) and self.seat_ok(ev.giver)) \
                or st.window is None:
            return
        rule = cat.skills[give.grant]
        key = (ev.site, ev.seat)
        self.counts[key] = self.counts.get(key, 0) + 1
        for o in self.owing:
            if o["site"] == ev.site and o["giver"] == ev.giver and ev.seat in o["want"]:
                o["want"].discard(ev.seat)
                break
        self.given.append((self.k, self.turns, st.window, ev.giver, ev.seat, ev.site))
        self.events_seq.append(self.k)
        if "InvalidSkill" in rule.closure:
            st.seats[ev.seat].invalidated = True
            for inst in st.seats[ev.seat].skills:          # note L82: only initial skills are wrapped
                if cat.skills[inst.rule].initial:
                    inst.invalid = True
        elif rule.lifetime == "resolution" and not self.trace.table:
            pass                          # never held at a moment a player acts: the card it came with resolves first
        else:
            st.seats[ev.seat].skills.append(SkillInst(give.grant, dict(ev.args), giver=ev.giver,
                                                      site=ev.site, turns_ago=0, at=st.window, event=self.k))

    def on_use(self, ev: Event) -> None:
        # a skill used this turn (what its 'used' condition reads); it must be in the list
        st, cat = self.st, self.cat
        if not self.seat_ok(ev.seat) or st.window is None:
            self.bad(Reason("发动技能：不是座位，或还没有回合开始", "use: not a seat, or before any turn"))
            return
        insts = [i for i in st.seats[ev.seat].skills if i.rule == ev.rule and not i.used]
        if not insts:
            name = cat.name_of(ev.rule) if isinstance(ev.rule, str) else echoed(ev.rule)
            self.bad(Reason(f"发动技能：座位{ev.seat}没有持有本回合未发动的{name}",
                            f"use: seat {ev.seat} holds no unused {name}"))
            return
        if self.turn_face(ev):
            insts[0].used = True

    def turn_face(self, ev: Event) -> bool:
        """A use turns its holder's role as its cost or effect says (interp.face: 偷天 face up, 换日 face down; the
        event's ``face_up`` where the effect may leave more than one face). False: it cannot leave the face said (the
        use fails, nothing changes)."""
        why = face_errors(self.cat, self.st, ev.seat, ev.rule, ev.face_up)
        if why:
            self.bad(why)
            return False
        apply_use_face(self.cat, self.st, ev.seat, ev.rule, ev.face_up)
        return True

    def on_play(self, ev: Event) -> None:
        # a card used as ``card`` this turn (what 'played' reads): by a seat that may use that card type
        # in this window (interp.plays.card_usable; whether a conversion or ban allowed it then is not told)
        st, cat = self.st, self.cat
        if not self.seat_ok(ev.seat) or st.window is None or st.window == "turn_end":
            self.bad(Reason("出牌：不是座位，或不在回合的时机中", "play: not a seat, or outside a window of a turn"))
            return
        if ev.card not in cat.cards:
            self.bad(Reason(f"出牌：未知的牌「{echoed(ev.card)}」", f"play: unknown card “{echoed(ev.card)}”"))
            return
        if not card_usable(cat, st, ev.seat, ev.card):
            name = cat.cards[ev.card].name
            self.bad(Reason(f"座位{ev.seat}不能在{win_of(st.window).zh}使用{name}",
                            f"seat {ev.seat} cannot use {name} {during(st.window).en}"))
        st.seats[ev.seat].played = st.seats[ev.seat].played | {ev.card}

    def on_replace(self, ev: Event) -> None:
        st, cat = self.st, self.cat
        why = replace_errors(cat, st, ev)
        if why:
            self.bad(why)
        if self.seat_ok(ev.seat) and ev.character in cat.characters and st.window is not None:
            apply_replace(cat, st, ev.seat, ev.character)
        self.events_seq.append(self.k)

    # ------------------------------------------------------------------------------------ automatic grants
    def owe_fired(self) -> None:
        """The message was just sent (the turn's first message window): every must-fire site answering it
        (interp.grants.must_fire) whose giver holds its skill live, is asked (alive — the sender was as he sent, the
        timed model's ``alive`` being the question's —, or a BeforeDieSkill: events.dispatched) and meets the site's ``when`` now owes its grant to each player its grant op names — handed
        out in the site's window (``at``) before the trace moves past it, to a later window or turn, or ends (the
        question is asked after it: the server hands it out as its holder's SendCardEvent is dealt, at the on-send node
        before anyone acts — skill/JieCheYunHuo.kt, phase/OnSendCardSkill.kt). Twin: checks/enc/trace._must_fire."""
        cat, st = self.cat, self.st
        for give in self.fired_sites:
            rule = cat.skills[give.giver]
            for g, seat in enumerate(st.seats):
                if not any(i.rule == give.giver and not i.invalid for i in seat.skills):
                    continue
                # asked while alive (events.dispatched); the sender was, as he sent — dead at the question, he died since
                if not dispatched(seat.alive or st.sender == g, rule.has("BeforeDieSkill"), rule.initial):
                    continue
                if not evaluate(give.when, env_of(cat, st, g)):
                    continue
                self.owing.append({"site": give.site_id, "giver": g, "give": give, "turn": self.turns - 1, "k": self.k,
                                   "want": set(fired_recipients(must_fire(cat, give), g, self.n)),
                                   "last": max(T.position(w) for w in give.at)})

    def settle_fired(self, pos: int | None, k: int | None = None) -> None:
        """The trace moves to a window at position ``pos`` (None: a new turn, or the trace's end): each owed
        must-fire give whose windows all lie before it must have come; one that did not is an error (at ``k``,
        default the event being run), recorded in ``missed``."""
        cat, keep = self.cat, []
        for o in self.owing:
            if pos is not None and pos <= o["last"]:
                keep.append(o)
                continue
            give = o["give"]
            for r in sorted(o["want"]):
                at = wins_of(give.at)
                why = Reason(f"{cat.giver_name(give)}自动发动（没有选择）：座位{o['giver']}的情报传出后，它在{at.zh}"
                             f"给座位{r}{cat.skills[give.grant].label}——经过中没有给出",
                             f"{cat.name_of(give.giver)} fires by itself (no choice): once seat {o['giver']}'s "
                             f"message is sent it hands {cat.skills[give.grant].name} to seat {r} {at.en} — the "
                             f"trace does not")
                idx = self.k if k is None else k
                self.errors.append((idx, why))
                self.missed.append((idx, o["giver"], r, o["turn"], o["site"], o["k"], why))
        self.owing = keep

    # ------------------------------------------------------------------------------------ the end
    def finish(self) -> Run:
        cat, st, trace = self.cat, self.st, self.trace
        self.settle_fired(None, len(trace.events))
        uncoupled = _uncoupled(cat, self.given, self.events_seq)
        for k in uncoupled:
            give = site_of(cat, trace.events[k].site)
            other = site_of(cat, give.partner_id)
            self.errors.append((k, Reason(
                f"{cat.giver_name(give)}与{cat.giver_name(other)}同时给出（给同一个人，在同一时机）：经过中没有后者",
                f"{cat.name_of(give.giver)} hands {cat.name_of(give.grant)} out together with {cat.name_of(other.grant)} "
                f"(to the same player, at the same moment): the trace has no such event")))
        self.errors.extend((len(trace.events), w) for w in lock_errors(cat, st))   # the question's message and locks
        if not trace.table and st.in_front is None:    # twin: checks/enc/trace.py "locked only by a travelling message"
            for si, s in enumerate(st.seats):
                if s.locked:                          # locked by the message (SendPhaseIdle.lockedPlayers): none travels
                    self.errors.append((len(trace.events), Reason(
                        f"座位{si}被情报锁定，可现在没有传递中的情报（{win_of(st.window).zh if st.window else '—'}）",
                        f"seat {si} is locked by the message, yet no message travels now "
                        f"({win_of(st.window).en if st.window else '—'})")))
        if not trace.table:                  # a game's path decides it there (model/interp/path.py)
            why = user_in_front_errors(cat, st, self.given, self.turns)
            if why:
                self.errors.append((len(trace.events), why))
        if st.window is None:
            self.errors.append((len(trace.events), Reason("经过没有开始任何回合", "the trace starts no turn")))
        elif st.window == "turn_end" and st.winners is None:
            # a game won at the turn's end (搅局者: phase/NextTurn.kt checkDisturberWin) is over there: no window follows
            self.errors.append((len(trace.events), Reason("经过停在回合结束之后：问题要在回合的某个时机提出",
                                                          "the trace ends after the turn ended: a question is asked in a window")))
        return Run(st, self.errors, self.turns, self.moments, uncoupled, missed=self.missed)


def complete_fired(cat: Catalogue, trace: Trace) -> Trace:
    """The trace with every must-fire give it lacks (Runner.settle_fired's ``missed``) handed out right after the window
    event it was owed from (the message sent), with the site's own arguments — how a witness built from a symbolic trace
    that holds only the player's grants (checks/enc/witness.py) shows the rest of the table's automatic grants."""
    if trace.table:
        return trace
    run = Runner(cat, trace).run()
    if not run.missed:
        return trace
    extra: dict = {}
    before: dict = {}
    for _, giver, receiver, _, site, k, _ in run.missed:
        give = site_of(cat, site)
        args = {p: tuple(v) if isinstance(v, (list, set, frozenset)) else v for p, v in give.args.items()}
        extra.setdefault(k, []).append(Event("give", seat=receiver, giver=giver, site=site, args=args))
        w = trace.events[k]
        if w.window not in give.at:        # the message went past the site's window unshown: it stops there first
            before.setdefault(k, Event("window", window=give.at[0], in_front=w.in_front, sender=w.sender))
    events = []
    for k, ev in enumerate(trace.events):
        if k in before:
            events.append(before[k])
            events.extend(extra.get(k, ()))
            events.append(ev)
            continue
        events.append(ev)
        events.extend(extra.get(k, ()))
    return Trace(trace.setup, events, trace.table)


def _uncoupled(cat: Catalogue, given: list, seq: list) -> list:
    """Give events of a site with a ``with`` partner whose partner's event is missing: the two are handed out at
    once (server: one resolution deals both, e.g. 禁闭's InvalidSkill.deal and ban), so the trace must hold the
    partner's give from the same giver to the same receiver in the same turn and window, right next to it —
    no other give and no role replacement between the two (``seq``: the give and replace events in order)."""
    by_k = {k: (t, w, g, s, site) for k, t, w, g, s, site in given}
    pos = {k: i for i, k in enumerate(seq)}
    out = []
    for k, t, w, g, s, site in given:
        give = site_of(cat, site)
        if give is None or give.partner_id is None:
            continue
        i = pos[k]
        near = [by_k.get(seq[j]) for j in (i - 1, i + 1) if 0 <= j < len(seq)]
        if (t, w, g, s, give.partner_id) not in near:
            out.append(k)
    return out


def _turn_senders(trace: Trace) -> list:
    """Per turn of the trace, who sends its message: the sender named by its first message window (None:
    the turn player)."""
    out: list = []
    for ev in trace.events:
        if ev.kind == "turn":
            out.append(ev.sender)             # a turn may name who sends its message (密令's target)
        elif ev.kind == "window" and out and out[-1] is None and T.WINDOWS.get(ev.window) is not None \
                and T.WINDOWS[ev.window].message and ev.sender is not None:
            out[-1] = ev.sender
    return out + [None]


def moment(st: State, turns: int) -> dict:
    """The moment of the trace a state stands at: which turn (0 = the trace's first), the window, and
    the facts of that window."""
    return {"turn": turns - 1, "window": st.window, "interrupted": st.interrupted, "in_front": st.in_front,
            "dying": st.dying, "sender": st.sender, "turn_player": st.turn, "turn_sender": st.turn_sender}


def give_errors(cat: Catalogue, st: State, ev: Event, counts: dict) -> Reason | str:
    """Why a 'give' event cannot happen now (a ``Reason``; '' when it can)."""
    n = len(st.seats)
    give = site_of(cat, ev.site)
    if give is None:
        return Reason(f"没有给出处「{site_name(cat, ev.site)}」", f"no gives site “{site_name(cat, ev.site)}”")
    if st.window is None:
        return Reason("还没有回合开始就给出了技能", "a grant before any turn started")
    if st.window == "turn_end":
        return Reason("回合已经结束", "the turn has ended")
    if not (isinstance(ev.giver, int) and 0 <= ev.giver < n and isinstance(ev.seat, int) and 0 <= ev.seat < n):
        return Reason("给出者或获得者不是座位", "giver or receiver is not a seat")
    # the moment: the site's window (a dying window counts as the window of its own)
    if give.at and st.window not in give.at:
        at, now = wins_of(give.at), during(st.window)
        return Reason(f"{cat.giver_name(give)}只在{at.zh}给出，不在{now.zh}",
                      f"{cat.name_of(give.giver)} hands this out only {at.en}, not {now.en}")
    # the giver: holds the skill, live; or may use the card now
    gs = st.seats[ev.giver]
    if give.giver_is_card:
        card = cat.cards[give.giver]
        if not in_window(st, ev.giver, card.windows):
            now = during(st.window)
            return Reason(f"座位{ev.giver}不能在{now.zh}使用{card.name}",
                          f"seat {ev.giver} cannot use {card.name} {now.en}")
    else:
        rule = cat.skills[give.giver]
        if not any(i.rule == give.giver and not i.invalid for i in gs.skills):
            return Reason(f"座位{ev.giver}没有持有生效的{rule.label}",
                          f"seat {ev.giver} does not hold a live {rule.name}")
        # a skill that is only active hands out on use, in a window it is used in; one that also triggers
        # (先发制人) may hand out whenever its trigger fires — the site's 'at' says when
        if rule.has("ActiveSkill") and not rule.has("TriggeredSkill") and not active_giver_ok(st, ev.giver, rule, give):
            now = during(st.window)
            return Reason(f"座位{ev.giver}不能在{now.zh}发动{rule.label}",
                          f"seat {ev.giver} cannot use {rule.name} {now.en}")
    src_zh, src_en = cat.giver_name(give), cat.name_of(give.giver)
    if not to_ok(give.to, ev.giver, ev.seat):
        to_zh, to_en = TO_ONLY.get(give.to, (give.to, give.to))
        return Reason(f"{src_zh}{to_zh}，给不到座位{ev.seat}",
                      f"{src_en} hands this out to {to_en}: it cannot reach seat {ev.seat}")
    grant = cat.skills[give.grant]
    probe = SkillInst(give.grant, dict(ev.args), giver=ev.giver, site=ev.site)
    why = args_errors(cat, st, give, grant, probe)
    if why:
        return why
    if not evaluate(give.when, env_of(cat, st, ev.giver)):
        cond = both(words, give.when, cat)
        return Reason(f"给出者（座位{ev.giver}）不满足{src_zh}给出的条件「{cond.zh}」",
                      f"the giver (seat {ev.giver}) does not meet the condition {src_en} hands this out on: `{cond.en}`")
    if counts.get((ev.site, ev.seat), 0) >= give.per_turn:
        return Reason(f"{src_zh}每回合至多给同一名角色{give.per_turn}次{grant.label}",
                      f"{src_en} hands out {grant.name} at most {give.per_turn} time(s) a turn to one player")
    return ""


def active_giver_ok(st: State, seat: int, rule, give) -> bool:
    """An ActiveSkill hands out its grant when used: in a window it is used in, by an actor it allows (a
    site given on the use itself, ``on = "use"``, too: its ``at`` only narrows those windows) — or, where the
    site names its own later moment (``at``, e.g. 冷血训练's ban as the message is sent, ``on = "resolve"``),
    at that moment by a player the skill's actors allow."""
    if give.at and give.on != "use":
        return any(actor_ok(st, seat, a) for a in rule.windows.values())
    return in_window(st, seat, rule.windows)


def replace_errors(cat: Catalogue, st: State, ev: Event) -> Reason | str:
    """Why a role replacement cannot happen now (a ``Reason``; '' when it can): the seat uses a live skill that
    replaces roles, in a window and as an actor that skill allows, and the new character is not at the
    table (server HouLaiRen: drawn from the role deck, which holds no role in the game)."""
    n = len(st.seats)
    if not (isinstance(ev.seat, int) and 0 <= ev.seat < n):
        return Reason("换角色：不是座位", "replace: not a seat")
    s = st.seats[ev.seat]
    usable = [i for i in s.skills if not i.invalid and cat.skills[i.rule].replaces_role
              and (ev.via is None or i.rule == ev.via)]
    if not usable:
        return Reason(f"座位{ev.seat}没有持有生效的换角色的技能", f"seat {ev.seat} holds no live skill that replaces its role")
    ok = False
    for inst in usable:
        rule = cat.skills[inst.rule]
        if in_window(st, ev.seat, rule.windows):
            cond = getattr(rule, st.window, None) if st.window in COND_WINDOWS else None
            if cond is None or evaluate(cond, env_of(cat, st, ev.seat, inst)):
                ok = True
    if not ok:
        now = during(st.window) if st.window else Reason("时机之外", "outside any window")
        return Reason(f"座位{ev.seat}不能在{now.zh}发动换角色的技能",
                      f"seat {ev.seat} cannot use its role-replacing skill {now.en}")
    if ev.character not in cat.characters:
        return Reason(f"未知的角色「{echoed(ev.character)}」", f"unknown character “{echoed(ev.character)}”")
    if any(x.character == ev.character for x in st.seats):
        name = cat.characters[ev.character].name
        return Reason(f"{name}已经在牌桌上", f"{name} is already at the table")
    return ""


def replacing_inst(cat: Catalogue, st: State, seat: int, via: str | None = None):
    """The entry of ``seat``'s skill list a role replacement uses: ``via``, else the first live skill that replaces
    roles (None: none). Twin: checks/enc/game.GameEncoding.on_replace (the same entry)."""
    for inst in st.seats[seat].skills:
        if not inst.invalid and cat.skills[inst.rule].replaces_role and (via is None or inst.rule == via):
            return inst
    return None


def apply_replace(cat: Catalogue, st: State, seat: int, character: str) -> None:
    """Server HouLaiRen → Player.roleSkillsData: the new role's skills replace the whole list (every
    grant and invalidation of the old role is gone); face up as the new role is (hidden roles face
    down), and ``hasEverFaceUp`` restarts from that."""
    s = st.seats[seat]
    ch = cat.characters[character]
    s.character = character
    s.skills = [SkillInst(r) for r in ch.skills]
    s.face_up = not ch.hidden
    s.ever_face_up = s.face_up
    s.invalidated = False
