"""From a witness of the timed model to a game of the server: the table's events put under it, its values solved.

A check or a question finds a *skeleton*: a trace of the timed model (turns, windows, grants, role replacements,
skills used, cards played — model/interp/trace.py) whose table is a constant of the setup. ``realise`` turns it
into a *game trace* (model/interp/game.py) in which the table moves as the server moves it, and which reaches
the same question with the same answer:

1. ``templates`` puts the table's events under the skeleton's — the draw of each turn; the send of each turn's
   message and its path (passed on, accepted, received) as far as the skeleton's windows say, a whole message
   cycle where the skeleton ends a turn without one; the play and resolution of the card behind a card's grant,
   the use or the fire of the skill behind a skill's grant or a skill used (a triggered one answering its holder's
   card: that card played first — 换日 after his 调包; after an added seat's skill where nothing seated raises what a
   triggered giver answers: ``detour``); a card that moves the message where the skeleton's 争夺阶段 has it move;
   what makes a dying player dying — a card or skill of the window, else the turn's message received by him
   (``receive_instead``), the skeleton's later windows then dropped — or his dying window left out; a 澄清 that
   saves a dying player the skeleton keeps alive — leaving every value the
   skeleton does not fix as a ``Hole`` (model/interp/hole.py): the table at the start, message cards, the
   physical cards played, effects' decisions. Where there is more than one way (which seat sends a message back
   to its sender, which card moves the message), it yields one template per way, simplest first.
2. the z3 twin (``checks/enc/game.py``) fills the holes so that the game is legal and ends in the skeleton's
   final table (so the question reads the same values and gets the same answer);
3. the interpreter runs the game trace: it must be legal — a template the twin fills into an illegal game is a
   twins' disagreement (INT001), never a witness.

A skeleton none of whose templates can be filled is not a game of the server within these bounds: the caller
asks the solver for another skeleton or reports the question inconclusive — never the skeleton as a witness.
"""
from __future__ import annotations

import itertools
from dataclasses import replace

from skillproof.model import expr as E
from skillproof.model.catalogue import Catalogue
from skillproof.model.effects import walk
from skillproof.model.interp import trace as TR
from skillproof.model.interp.play import run as play_run
from skillproof.model.interp.grants import one_granted, one_grants, recipients, set_granted, set_grants, site_of
from skillproof.model.interp.hole import Hole
from skillproof.model.interp.table import CLASSES, COUNT_FIELDS
from skillproof.model.interp.win import TASKS

from .enc.ops import REPEAT_CAP

#: how many templates a skeleton may try (the ways multiply: every branch point doubles them)
MAX_TEMPLATES = 12
#: how many templates that end in a win check (``Builder.to_win_check``) a skeleton may try: their ways differ
#: only in who received the messages of the turns up to it and who lets the last one pass back — the solver picks
#: every colour, area, identity and task of them, and each filling costs a few turns of the game
MAX_WIN_TEMPLATES = 2
#: how many cards the turn player may shed at the end of 出牌阶段 (Builder.shed): 拼命三郎 draws three after one
#: card, on top of the draw phase's two or three
MAX_SHED = 4
#: ops that take a decision other than a choose's alternative: the colour class of the card they move
CLASS_OPS = ("put_message", "remove_message", "replace_message")


class _Names:
    def __init__(self):
        self.n = itertools.count()

    def __call__(self, base: str) -> str:
        return f"{base}#{next(self.n)}"


def decision_holes(ops, new, prefix: str = "") -> dict:
    """The decisions an effect's ops may take, as holes, by op path (model/interp/ops.py)."""
    out: dict = {}
    for i, op in enumerate(ops):
        path = f"{prefix}{i}"
        d: dict = {}
        if op.may:
            d["skip"] = Hole(new(f"skip@{path}"), "bool")
        if op.op == "choose":
            # the domain as a count (hole.hole_values): a range of one option, (0,), would read as a count of none
            d["alt"] = Hole(new(f"alt@{path}"), "alt", (len(op.options),))
            for a, alt in enumerate(op.options):
                out.update(decision_holes(alt, new, f"{path}.{a}."))
        if op.op in CLASS_OPS and op.args.get("from") != "message":
            d["cls"] = Hole(new(f"cls@{path}"), "class", CLASSES)
        if op.op == "repeat":
            # each time's decisions at <path>.<k>.<index> (ops.op_repeat), as often as the twin unrolls it
            n = op.args.get("n")
            times = n if isinstance(n, int) else REPEAT_CAP
            for k in range(min(times, REPEAT_CAP)):
                out.update(decision_holes(op.options[0], new, f"{path}.{k}."))
        if d:
            out[path] = d
    return out


def replacing_rule(cat: Catalogue, skills, via: str | None = None):
    """The skill a role replacement uses (model/interp/game.replacing_inst's rule): ``via``, else the first live
    one of ``skills`` that replaces roles (None: none)."""
    for inst in skills:
        rule = cat.skills.get(inst.rule)
        if rule is not None and rule.replaces_role and not inst.invalid and (via is None or inst.rule == via):
            return rule
    return None


def names_word(ops, word: str) -> bool:
    """Does some op of the effect name the player word ``word`` (its own or a neighbour of it)?"""
    for o in walk(ops):
        for v in o.args.values():
            if isinstance(v, str) and (v == word or v.startswith(word + "_")):
                return True
    return False


def effect_holes(ops, new) -> dict:
    """The fields of an event that does ``ops``: its decisions and the players it names that nobody fixed."""
    out: dict = {"choices": decision_holes(ops, new) or None}
    for w in ("chosen", "chosen2"):
        if names_word(ops, w):
            out[w] = Hole(new(w), "seat")
    return out


def setup_template(cat: Catalogue, setup, new):
    """The skeleton's table at the start with its values left open: hands, message areas, faces, identities and
    secret tasks (alive and the characters stay: the skeleton fixes them). The five message counts are cleared: the
    open area alone is the table (counts written beside an area bind it — table.counts_are_area — and the filled
    game's counts are written from its area, enc.game.fill_template)."""
    st = setup.copy()
    for i, s in enumerate(st.seats):
        s.hand_count = Hole(new(f"hand{i}"), "int", (0, 8))
        s.area = tuple((c, Hole(new(f"area{i}.{c}"), "int", (0, 3))) for c in CLASSES)
        for f in COUNT_FIELDS:
            setattr(s, f, 0)
        s.face_up = Hole(new(f"face_up{i}"), "bool")
        s.ever_face_up = Hole(new(f"ever_face_up{i}"), "bool")
        s.identity = Hole(new(f"identity{i}"), "identity", ("red", "blue", "black"))
        s.task = Hole(new(f"task{i}"), "task", (None,) + TASKS)
    return st


class Builder:
    """Walks a skeleton and emits the game events under it; ``branch`` points multiply the templates."""

    def __init__(self, cat: Catalogue, skeleton: TR.Trace, run: TR.Run, final, questions=()):
        self.cat, self.sk, self.run, self.final = cat, skeleton, run, final
        self.n = len(skeleton.setup.seats)
        self.win = win_check_of(questions)
        self.questions = list(questions)

    def templates(self):
        """Every template of the skeleton, simplest first (at most MAX_TEMPLATES): the leaves of the tree of
        branch points in lexicographic order of the ways taken (a way taken may change which branch points come
        after it, so the tree is walked, not a product of counts)."""
        return list(self.each())

    def each(self, uncounted=None):
        """The templates of ``templates``, one at a time as the walk meets them (``realise`` stops at the first that
        makes a game: the rest are not built). ``uncounted(template)``: a template it holds true of is yielded but
        takes none of the MAX_TEMPLATES places (the walk's own bound still holds)."""
        made = 0
        ways: list = []
        for _ in range(MAX_TEMPLATES * 4):          # walks that end in no template count too
            self._taken = []
            new = _Names()
            left = list(ways)
            events = self.emit(left, new)
            if events is not None:
                events = self.to_one(self.at_once(events), left)
                events = self.name_senders(events, new)
            taken = self._taken
            if events is not None and self.questions and \
                    not asks_there(TR.Trace(self.sk.setup, events, table=True), self.questions, self.cat):
                # a template whose game cannot be at the questions' moment answers nothing (realise_run skips it
                # unsolved): it does not take one of the MAX_TEMPLATES places of those that may
                events = None
            if events is not None:
                tmpl = TR.Trace(setup_template(self.cat, self.setup(), new), events, table=True)
                # the shed branch taken (``shed``): the ways before it, the seat, how many cards, which card
                tmpl.shed = None if self._shed is None else \
                    (tuple(c for c, _ in taken[:self._shed[0]]),) + self._shed[1:]
                free = uncounted is not None and uncounted(tmpl)
                yield tmpl
                made += 0 if free else 1
                if made >= (MAX_TEMPLATES if self.win is None else MAX_WIN_TEMPLATES):
                    break
            i = len(taken) - 1
            while i >= 0 and taken[i][0] + 1 >= taken[i][1]:
                i -= 1
            if i < 0:
                break
            ways = [c for c, _ in taken[:i]] + [taken[i][0] + 1]

    def setup(self):
        """The skeleton's table at the start, with the seats the template added (``detour``) after its own."""
        if not self._extra:
            return self.sk.setup
        from skillproof.model.state import Seat, SkillInst
        st = self.sk.setup.copy()
        st.seats = list(st.seats) + [Seat(character=c, skills=[SkillInst(r) for r in self.cat.characters[c].skills])
                                     for c in self._extra]
        return st

    # ---------------------------------------------------------------------------- branch points
    def branching(self) -> list:
        """How many ways each branch point of the simplest template has, in the order ``emit`` meets them."""
        self._taken = []
        self.emit([], _Names())
        return [k for _, k in self._taken]

    def choose(self, ways, k: int) -> int:
        """At a branch point with ``k`` ways: which one this template takes (the next of ``ways``; past them,
        the first), recorded for ``templates``' walk."""
        k = max(1, k)
        i = ways.pop(0) if ways else 0
        i = min(i, k - 1)
        self._taken.append((i, k))
        return i

    # ---------------------------------------------------------------------------- the walk
    def emit(self, ways, new) -> list | None:
        cat, sk = self.cat, self.sk
        self._extra = []        # characters of the seats this template adds (``detour``)
        self._shed = None       # (branch point index, seat, cards shed, card) of the shed branch (``shed``)
        out: list = []
        moments = self.run.moments + [None]
        sent = False            # this turn's message sent
        received = False
        front = None
        window = None
        turn_sender = turn_seat = None
        skipped = None          # the dying player of a dying excursion the game leaves out
        dropping = False        # the turn's message was moved to a dying player's receive: later windows dropped
        deferred: list = []     # (where, give) handed out by a giver that acts in the turn's next 争夺阶段 window
        for k, ev in enumerate(sk.events):
            self._k = k
            m = moments[k]
            if deferred:
                self.flush(out, deferred, new)
            if ev.kind == "turn" and (deferred or dropping):
                return None                                 # no 争夺阶段 came for a deferred grant; a turn cut short
            if ev.kind == "turn":
                if window not in (None, "turn_end"):
                    pass
                out.append(replace(ev))
                out.append(TR.Event("draw"))
                window, sent, received, front = "draw", False, False, None
                turn_sender = ev.sender if ev.sender is not None else ev.seat
                turn_seat = ev.seat
                continue
            if ev.kind == "window":
                w = ev.window
                if dropping and w != "dying":
                    continue                                # the game ends in the dying window it moved the receive to
                if dropping and any(e.kind == "window" and e.window == "dying" and e.dying == ev.dying
                                    for e in out[self._turn_start(out):]):
                    continue                                # … and in his one dying window: not a second time
                if skipped is not None:
                    if w == "dying":
                        continue
                    skipped = None
                    if w == window and ev.in_front == front:
                        continue                            # back in the window the excursion interrupted
                if w == "send" and sent and window in ("fight", "receive") or \
                        w in ("fight", "receive") and window == "receive" and ev.in_front != front:
                    # the game is past 传递阶段 (a giver acted in 争夺阶段 instead of where the skeleton has it), or the
                    # message is received: it never stops in front of anyone else again this turn — the turn's later
                    # windows are dropped, the game ends where it is (the questions are asked again on the game)
                    dropping = True
                    continue
                if w in ("send", "fight", "receive") and not sent:
                    if window in ("draw",):
                        out.append(TR.Event("window", window="main"))
                    if window in ("draw", "main"):
                        out.append(TR.Event("window", window="send_start"))
                    first, back = self.first_stop(ev.in_front, turn_sender, w, self.next_stop_of(k), ways,
                                                  self.send_checker(out, turn_sender))
                    if first is None:
                        return None
                    out.append(self.send_event(turn_sender, first, new))
                    front, sent = first, True
                    if back:                            # sent up to another player, who lets it pass back
                        out.append(TR.Event("window", window="send", in_front=ev.in_front))
                        front = ev.in_front
                    if w in ("fight", "receive"):
                        out.append(TR.Event("window", window="fight", in_front=ev.in_front))
                    window = "fight" if w in ("fight", "receive") else "send"
                    if w == "send":
                        continue
                if w == "send" and window == "send" and ev.in_front == front:
                    continue                                # the message is there already (first_stop)
                if w in ("fight", "receive") and window in ("send", "fight") and front is not None \
                        and ev.in_front != front:
                    # the skeleton's 争夺阶段 (or receive) is in front of another player than the message is: it is
                    # passed on to him, or accepted where it is and moved by a card (误导 and the like)
                    moved = self.reach(window, front, ev.in_front, turn_sender, ways, new, out, may_stay=True)
                    if moved is None:
                        return None
                    if moved == "stay":
                        continue                            # the game stays in front of ``front``
                    out.extend(moved)
                    window, front = "fight", ev.in_front
                if w == "receive":
                    if window == "send":
                        out.append(TR.Event("window", window="fight", in_front=ev.in_front))
                    received = True
                if w == "turn_end" and not received and window not in ("dying",):
                    cycle = self.cycle(window, sent, front, turn_sender, ways, new)
                    if cycle is None:
                        return None
                    out.extend(cycle)
                if w == "dying":
                    if window not in ("receive", "dying") or window == "receive" and front != ev.dying:
                        # nobody dies without a third black message: a card or skill of this window puts one in
                        killer = self.killer(ev.dying, window, turn_seat, ways, new, out)
                        if killer is None and self.turn_rests(k):
                            # nothing of this window kills him, and the skeleton asks nothing of the rest of the
                            # turn: the turn's message is his third black one (a whole cycle up to his receive)
                            killer = self.receive_by(ev.dying, window, sent, front, turn_sender, ways, new, out)
                            sent = received = True
                        if killer is None:
                            # nothing of the game can make him dying here: the timed model's excursion into the
                            # dying window is left out (the questions are asked again on the game) — or, next, the
                            # turn's message is his third black one after all (received by him instead of whoever
                            # the skeleton has receive it), and the skeleton's later windows of the turn are dropped:
                            # the game ends in his dying window
                            ways_here = (["skip"] if self.final.seats[ev.dying].alive else []) + ["receive"]
                            if ways_here[self.choose(ways, len(ways_here))] == "skip":
                                skipped = ev.dying
                                continue
                            killer = self.receive_instead(ev.dying, window, sent, received, front, turn_sender,
                                                          out, ways, new)
                            if killer is None:
                                return None
                            sent = received = dropping = True
                        out.extend(killer)
                    elif window == "dying" and self.final.seats[ev.dying].alive and \
                            ev.dying != next((e.dying for e in reversed(out) if e.kind == "window"), None):
                        # another player's dying window right after one's: as the skeleton has it (the same cause
                        # made both dying), or — next — left out (the questions are asked again on the game)
                        if self.choose(ways, 2) == 1:
                            skipped = ev.dying
                            continue
                elif window == "dying" and m is not None and m.get("dying") is not None:
                    saver = self.saver(m["dying"], ways, new, out)
                    if saver is None:
                        return None
                    out.extend(saver)
                last = next((e for e in reversed(out) if e.kind == "window"), None)
                if last is not None and last.window == w and last.in_front == ev.in_front and w != "dying" \
                        and out[-1] is last:
                    continue                                # the game trace is there already
                out.append(replace(ev))
                if w != "dying":
                    window = w
                else:
                    window = "dying"
                if ev.in_front is not None:
                    front = ev.in_front
                continue
            if ev.kind == "give":
                at, cause = self.cause_of_give(ev, out, ways, new)
                if at is None and self.later_use(ev, out, new) is not None:
                    deferred.append((len(out), ev))         # its giver acts in the next 争夺阶段 window
                    continue
                if at is None:
                    return None
                out[at:at] = cause + [replace(ev)]
                window, front = self.where(out, window, front)
                continue
            if ev.kind == "play":
                card = cat.cards.get(ev.card)
                fields = effect_holes(card.do if card else (), new)
                target = Hole(new("target"), "seat") if card is not None and card.target is not None \
                    and card.target.who != "none" else None
                if card is not None and window == "fight" and front is not None:
                    front, aim = self.moved_to(card, ev.seat, front, fields, ways)
                    if aim is not None:
                        target = aim
                out.append(replace(ev, actual=Hole(new("actual"), "card"), target=target))
                out.append(TR.Event("resolve", **fields))
                continue
            if ev.kind == "use":
                rule = cat.skills.get(ev.rule)
                if rule is None:
                    out.append(replace(ev))
                    continue
                at, cause = self.use_for(ev.seat, ev.rule, Hole(new("target"), "seat"), out, ways, new)
                if at is None:
                    return None
                out[at:at] = cause
                window, front = self.where(out, window, front)
                continue
            if ev.kind == "replace":
                # the replacing skill's effect (后来人: the messages it discards) takes decisions of its own
                rule = replacing_rule(cat, self.held_at(k)[ev.seat] if isinstance(ev.seat, int)
                                      and ev.seat < len(self.final.seats) else [], ev.via)
                out.append(replace(ev, **effect_holes(rule.do, new)) if rule is not None else replace(ev))
                continue
            out.append(replace(ev))
        if deferred:
            self.flush(out, deferred, new)
            if deferred:
                return None
        if self.win is not None:
            # the questions ask a win check: the game goes on to one, in the turn they name, and ends there
            if dropping or skipped is not None:
                return None
            tail = self.to_win_check(out, window, sent, received, front, turn_seat, turn_sender, ways, new)
            if tail is None:
                return None
            out.extend(tail)
            return out                              # cards shed change only hands: not a way to a win check
        if not self.shed(out, ways, new):
            return None
        return out

    def to_win_check(self, done: list, window, sent: bool, received: bool, front, turn_seat, sender, ways,
                     new) -> list | None:
        """The events that take the game from where the walk left it to a win check of the server in the turn of
        ``self.win`` = (turn, declared): each turn before it ends with a whole message cycle (``cycle``) and the next
        living seat's turn starts with its draw; in that turn the message is received — by a player the questions
        have declare first, else by any other (one way each) — and the process node after the receive
        (ProcessFsm.checkWin: three messages of a colour) ends the game there (the solver picks the colours and the
        areas; the replay asks whether the check passed the questions' declared winners: ``won_as_asked``)."""
        turn, declared = self.win
        alive = [i for i in range(self.n) if self.final.seats[i].alive]
        if turn not in alive:
            return None
        out: list = []
        if turn_seat is None:
            out += [TR.Event("turn", seat=turn), TR.Event("draw")]
            window, sent, received, front, turn_seat, sender = "draw", False, False, None, turn, turn
        for _ in range(self.n):
            if turn_seat == turn:
                break
            if window == "dying":
                return None
            if not received:
                cyc = self.cycle(window, sent, front, sender, ways, new)
                if cyc is None:
                    return None
                out += cyc
            out.append(TR.Event("window", window="turn_end"))
            turn_seat = next(i for i in ((turn_seat + d) % self.n for d in range(1, self.n + 1)) if i in alive)
            out += [TR.Event("turn", seat=turn_seat), TR.Event("draw")]
            window, sent, received, front, sender = "draw", False, False, None, turn_seat
        if turn_seat != turn or received or window == "dying":
            return None
        who = [i for i in declared if i in alive] + [i for i in alive if i not in declared]
        got = self.receive_by(who[self.choose(ways, len(who))], window, sent, front, sender, ways, new, done + out)
        if got is None:
            return None
        # the receive's answers before the check (ReceivePhaseIdle deals its listening skills first): none, or one
        # TriggeredSkill of a seat that answers the receive by putting a card into a message area — a check can
        # then see two areas changed since the last one (a question of two WinSkills' conditions together)
        answers = receive_putters(self.cat, self.final, turn, alive)
        k = self.choose(ways, 1 + len(answers))
        if k:
            seat, rid = answers[k - 1]
            rule = self.cat.skills[rid]
            got.append(TR.Event("fire", seat=seat, rule=rid, on="receive", **effect_holes(rule.do, new)))
        return out + got

    def later_use(self, ev, out: list | None, new):
        """The use by which a give's ActiveSkill giver that cannot act where the skeleton hands the grant out
        (先发制人 at 传递阶段开始时: no skill put a message into an area there) hands it out in 争夺阶段 instead — None
        when the giver has no 争夺阶段 use or the turn is past it (``out`` None: not asked)."""
        give = site_of(self.cat, ev.site)
        if give is None or give.giver_is_card:
            return None
        rule = self.cat.skills.get(give.giver)
        if rule is None or not rule.has("ActiveSkill") or not active_in(rule, "fight"):
            return None
        if out is not None and current_window(out) not in ("draw", "main", "send_start", "send", None):
            return None
        fields = aimed(effect_holes(rule.do, new), rule.do, give.grant, ev.seat)
        return TR.Event("use", seat=ev.giver, rule=give.giver,
                        target=ev.seat if names_word(rule.do, "target") else None, **fields)

    def flush(self, out: list, deferred: list, new) -> None:
        """Put each deferred give (with its giver's use) right after the first 争夺阶段 window of the game trace
        that follows where the skeleton handed it out; those with none yet stay deferred."""
        keep = []
        for mark, ev in deferred:
            j = next((i for i in range(mark, len(out)) if out[i].kind == "window" and out[i].window == "fight"),
                     None)
            if j is None:
                keep.append((mark, ev))
                continue
            out[j + 1:j + 1] = [self.later_use(ev, None, new), replace(ev)]
        deferred[:] = keep

    # ---------------------------------------------------------------------------- pieces
    def send_event(self, sender: int, to: int, new) -> TR.Event:
        locks = [i for i, s in enumerate(self.final.seats) if s.locked]
        return TR.Event("send", seat=sender, colours=Hole(new("message"), "class", CLASSES),
                        arrow=Hole(new("arrow"), "dir"), lockable=Hole(new("lockable"), "bool"),
                        dir=Hole(new("dir"), "dir"), to=to, locks=locks, face_up=False, source="hand")

    def first_stop(self, x: int, sender: int, w: str, ahead, ways, never: int | None = None) -> tuple:
        """(where the message stops first, whether it then passes back to ``x``) so that it is in front of ``x``
        next: ``x`` itself; or — when ``x`` is the player the send is checked from (``never``: the sender, or the
        user of a skill that sends his hand card, ``send_checker``), who is never the first stop — the player the
        skeleton's next 传递阶段 window has it in front of (``ahead``: the sender's own window is the moment of the
        send, whose grants are handed out before the first stop), or another player who lets it pass back up to him
        (one way per such player)."""
        never = sender if never is None else never
        if x != never:
            return x, False
        others = [(i, True) for i in range(self.n) if i != never and self.final.seats[i].alive]
        if w == "send" and ahead is not None and ahead != never and self.final.seats[ahead].alive:
            # the skeleton's next window has the message in front of ``ahead`` (passing, accepting or receiving
            # it): its first stop
            others.insert(0, (ahead, False))
        if not others:
            return None, False
        return others[self.choose(ways, len(others))]

    def next_stop_of(self, k: int):
        """The player the skeleton's next message window after event ``k`` of its turn has the message in front of
        (None: the turn ends first)."""
        for ev in self.sk.events[k + 1:]:
            if ev.kind == "turn":
                return None
            if ev.kind == "window" and ev.window in ("send", "fight", "receive", "turn_end"):
                return ev.in_front if ev.window != "turn_end" else None
        return None

    def mover(self, to: int, frm: int, ways, new, out: list = ()) -> list | None:
        """A card that moves the message from ``frm`` to ``to`` in 争夺阶段: ``to`` plays a card that brings it to
        himself, or anyone plays one that moves it to a neighbour (one way per card and player)."""
        opts = []
        for cid, card in self.cat.cards.items():
            if "fight" not in card.windows:
                continue
            for o in walk(card.do):
                if o.op == "move_message":
                    tgt = o.args.get("to")
                    if tgt == "self":
                        opts.append((to, cid))
                    elif tgt in ("front_left", "front_right"):
                        opts.extend((p, cid) for p in range(self.n) if self.final.seats[p].alive)
                    elif tgt == "target" and to in self.move_targets(card, frm):
                        opts.extend((p, cid) for p in range(self.n) if self.final.seats[p].alive)
        opts = [(p, c) for p, c in opts if not self.banned_here(out, p, c)]
        if not opts:
            return None
        seat, cid = opts[self.choose(ways, len(opts))]
        card = self.cat.cards[cid]
        fields = effect_holes(card.do, new)
        # the card's target, where it has one: where its move takes the message (误导: the player the message goes to)
        aim = (to if any(o.op == "move_message" and o.args.get("to") == "target" for o in walk(card.do))
               else Hole(new("target"), "seat")) if card.target is not None and card.target.who != "none" else None
        return [TR.Event("play", seat=seat, card=cid, actual=Hole(new("actual"), "card"), target=aim),
                TR.Event("resolve", **fields)]

    def move_targets(self, card, front: int, user: int | None = None) -> list:
        """The players a card of 争夺阶段 whose move takes the message to its target may aim at while the message is in
        front of ``front`` (its target's condition, model/interp/game.target_meets, on the timed model's table with
        the message there): each a way."""
        from skillproof.model.interp.game import target_meets
        st = self.final.copy()
        st.window, st.in_front = "fight", front
        who = card.target.who if card.target is not None else "none"
        return [p for p in range(self.n) if st.seats[p].alive and who != "none"
                and target_meets(self.cat, st, front if user is None else user, card.id, p)]

    def refuses(self, out: list, seat, sender) -> bool:
        """Has the game trace's turn so far handed ``seat`` — not the sender, not locked at the skeleton's end —
        a receive rule that always forbids accepting the message (``cannot = "true"``: 信鸽联络·拒收, 咱们工人有知识·拒收),
        with no rule of his that may make him accept it (a must that is not "false": model/interp/receive.py)?"""
        if not isinstance(seat, int) or seat == sender or seat >= self.n or self.final.seats[seat].locked:
            return False

        def lit(node, value) -> bool:
            return type(getattr(node, "value", None)) is bool and node.value is value
        held = [self.cat.skills.get(i.rule) for i in self.final.seats[seat].skills]
        if any(r is not None and r.receive is not None and not lit(r.receive.must, False) for r in held):
            return False
        for e in out[self._turn_start(out):]:
            give = site_of(self.cat, e.site) if e.kind == "give" and e.seat == seat else None
            rule = self.cat.skills.get(give.grant) if give is not None else None
            if rule is not None and rule.receive is not None and lit(rule.receive.cannot, True):
                return True
        return False

    def banned_here(self, out: list, seat: int, card: str) -> bool:
        """Has the game trace's turn so far handed ``seat`` a ban of ``card`` (a CannotPlayCard grant whose
        arguments name it, or all cards: model/interp/bans.py; one handed to every player, 强令's, reaches him however
        the skeleton names its receiver)? Such a play is never a way: the server refuses it
        (CannotPlayCard.kt), unless a later event takes the ban away — which the skeleton then shows first."""
        from skillproof.model.interp.bans import ban_all, ban_cards
        from skillproof.model.state import SkillInst
        for e in out[self._turn_start(out):]:
            if e.kind != "give":
                continue
            give = site_of(self.cat, e.site)
            if give is not None and e.seat != seat:
                # a grant its effect hands to every player reaches him too (``at_once`` gives it to each)
                src = self.cat.cards.get(give.giver) if give.giver_is_card else self.cat.skills.get(give.giver)
                to = set_grants(src.do).get(give.grant) if src is not None else None
                if to is None or seat not in recipients(to, e.giver, self.n + len(self._extra)):
                    continue
            rule = self.cat.skills.get(give.grant) if give is not None else None
            if rule is None or rule.ban is None:
                continue
            inst = SkillInst(rule=give.grant, args=dict(e.args or {}))
            if ban_all(rule, inst) or card in ban_cards(rule, inst):
                return True
        return False

    def moved_to(self, card, seat: int, front: int, fields: dict, ways) -> tuple:
        """(where a card played by ``seat`` in 争夺阶段 leaves the message in front of ``front``, the card's target
        when that decides it, else None): its move_message's player (self, the nearest living one left / right of the
        front, or the card's target — each player its target's condition allows a branch point, ``move_targets``); a
        choice between moves is a branch point whose way is written into the resolution's choices. Unmoved:
        ``front``."""
        from skillproof.model.interp.table import next_alive

        def dest(to):
            if to == "self":
                return seat
            if to in ("front_left", "front_right"):
                return next_alive(self.final, front, to.split("_")[1])
            return None
        for i, o in enumerate(card.do):
            if o.op == "move_message" and o.args.get("to") == "target":
                aims = self.move_targets(card, front, seat)
                if not aims:
                    return front, None
                aim = aims[self.choose(ways, len(aims))]
                return aim, aim
            if o.op == "move_message":
                got = dest(o.args.get("to"))
                return (got if got is not None else front), None
            if o.op == "choose" and any(any(x.op == "move_message" for x in walk(alt)) for alt in o.options):
                a = self.choose(ways, len(o.options))
                ch = (fields.get("choices") or {}).get(str(i))
                if ch is not None and "alt" in ch:
                    ch["alt"] = a
                mv = next((x for x in walk(o.options[a]) if x.op == "move_message"), None)
                got = dest(mv.args.get("to")) if mv is not None else None
                return (got if got is not None else front), None
        return front, None

    def reach(self, window: str, frm: int, to: int, sender: int, ways, new, out: list = (),
              may_stay: bool = False) -> list | str | None:
        """The events that bring the message from ``frm`` to ``to`` and end in 争夺阶段 in front of ``to``: in
        传递阶段, passed on seat by seat (one way per direction that reaches ``to`` before its sender, shortest
        first) then accepted by ``to``; or accepted by ``frm`` and moved by a card (``mover``). In 争夺阶段 only a
        card moves it — or, where the caller can leave the message where it is (``may_stay``), nothing: "stay"."""
        opts: list = []
        if window == "send":
            for seq in self.pass_routes(frm, to, sender):
                opts.append([TR.Event("window", window="send", in_front=k) for k in seq]
                            + [TR.Event("window", window="fight", in_front=to)])
            opts.append("mover")
        else:
            # 争夺阶段: a card moves it — or, next, the game does not move it (the skeleton's window in front of ``to``
            # left out, the game staying in front of ``frm``: a ban handed to every player may leave no card that
            # moves it — 强令's; the questions are asked again on the game)
            opts += ["mover", "stay"] if may_stay else ["mover"]
        how = opts[self.choose(ways, len(opts))]
        if how == "stay":
            return how
        if how != "mover":
            return how
        mover = self.mover(to, frm, ways, new, out)
        if mover is None:
            return None
        return ([TR.Event("window", window="fight", in_front=frm)] if window == "send" else []) + mover

    def pass_routes(self, frm: int, to: int, sender: int) -> list:
        """The seats a message in front of ``frm`` stops at, passed on until it is in front of ``to``: sent up it
        goes back to its sender; left / right to the nearest living player that way, and it stops at its sender
        (path.next_stop). One route per direction that reaches ``to``, shortest first, none repeated."""
        alive = [s.alive for s in self.final.seats]
        out: list = []
        if to == sender:
            out.append([to])
        for step in (-1, 1):
            seq, i = [], frm
            for _ in range(self.n):
                i = (i + step) % self.n
                if not alive[i] and i != to:
                    continue
                seq.append(i)
                if i == to or i == sender:
                    break
            if seq and seq[-1] == to and seq not in out:
                out.append(seq)
        return sorted(out, key=len)

    def shed(self, out: list, ways, new) -> bool:
        """A branch point at the end of the last turn's 出牌阶段: nothing more, or its player plays cards
        that leave no mark on the table but the hands (up to MAX_SHED) (``shed_cards``: 试探, 威逼 …) — the turn player drew
        cards the skeleton's table may not have (an empty hand, one card where the reminder needs more). Put
        into ``out`` in place; False when the branch taken cannot be built."""
        start = self._turn_start(out)
        if not out or out[start].kind != "turn":
            return True
        seat = out[start].seat
        i_main = next((i for i in range(start, len(out)) if out[i].kind == "window" and out[i].window == "main"),
                      None)
        cards = self.shed_cards()
        if i_main is None or not cards:
            return True
        opts = [None] + [(n, c) for c in cards for n in range(1, MAX_SHED + 1)]
        how = opts[self.choose(ways, len(opts))]
        self._shed = (len(self._taken) - 1, seat) + ((0, None) if how is None else how)
        if how is None:
            return True
        j = next((i for i in range(i_main + 1, len(out)) if out[i].kind in ("window", "send")), len(out))
        n, cid = how
        card = self.cat.cards[cid]
        events: list = []
        for _ in range(n):
            target = Hole(new("target"), "seat") if card.target is not None and card.target.who != "none" else None
            events += [TR.Event("play", seat=seat, card=cid, actual=Hole(new("actual"), "card"), target=target),
                       TR.Event("resolve", **effect_holes(card.do, new))]
        out[j:j] = events
        return True

    def shed_cards(self) -> list:
        """The cards the turn player may play in 出牌阶段 that change nothing but hands: no message, skill, face,
        message card or grant moves, and the user draws nothing (sorted by id)."""
        return self.shed_cards_of(self.cat)

    @staticmethod
    def shed_cards_of(cat: Catalogue) -> list:
        """``shed_cards`` of a catalogue."""
        quiet = {"discard", "draw", "give", "show", "choose", "prose"}
        out = []
        for cid, card in sorted(cat.cards.items()):
            if card.windows.get("main") != "turn" or card.gives:
                continue
            ops = list(walk(card.do))
            if any(o.op not in quiet for o in ops):
                continue
            if any(o.op == "draw" and o.args.get("who", "self") == "self" for o in ops):
                continue
            if any(o.op == "give" and o.args.get("to") == "self" for o in ops) and \
                    not any(o.op == "choose" for o in ops):
                continue
            out.append(cid)
        return out

    def turn_rests(self, k: int) -> bool:
        """Does the skeleton's turn have no window after event ``k`` but dying ones (its question is asked in the
        dying window, or a later turn)?"""
        for ev in self.sk.events[k + 1:]:
            if ev.kind == "turn":
                return True
            if ev.kind == "window" and ev.window != "dying":
                return False
        return True

    def receive_by(self, who: int, window, sent: bool, front, sender: int, ways, new, done: list = ()) -> list | None:
        """The turn's message from wherever the game trace left it to ``who``'s receive: sent (to him, or — when he
        is its sender — to another player who lets it pass back), accepted, received (``done``: the game trace so
        far)."""
        out: list = []
        if window in ("draw",):
            out.append(TR.Event("window", window="main"))
        if not sent:
            if window in ("draw", "main"):
                out.append(TR.Event("window", window="send_start"))
            elif window != "send_start":
                return None
            first, back = self.first_stop(who, sender, "receive", None, ways, self.send_checker(list(done), sender))
            if first is None:
                return None
            out.append(self.send_event(sender, first, new))
            if back:
                out.append(TR.Event("window", window="send", in_front=who))
            out.append(TR.Event("window", window="fight", in_front=who))
        elif window in ("send", "fight") and front is not None:
            if front != who:
                moved = self.reach(window, front, who, sender, ways, new, done)
                if moved is None:
                    return None
                out.extend(moved)
            elif window == "send":
                out.append(TR.Event("window", window="fight", in_front=who))
        else:
            return None
        out.append(TR.Event("window", window="receive", in_front=who))
        return out

    def receive_instead(self, who: int, window, sent: bool, received: bool, front, sender: int, out: list, ways,
                        new) -> list | None:
        """The events that make the turn's message ``who``'s third black one where nothing of the window can kill
        him: its cycle up to his receive (``receive_by``) when it is not received yet; when the game trace has just
        had another player receive it, that receive taken back — the message is accepted where it is and moved to
        ``who`` by a card of 争夺阶段 (``mover``), then received by him. None: neither can be built."""
        if not received:
            return self.receive_by(who, window, sent, front, sender, ways, new, out)
        last = out[-1] if out else None
        if window != "receive" or front is None or front == who or last is None or last.kind != "window" \
                or last.window != "receive" or last.in_front != front:
            return None
        out.pop()
        moved = self.reach("fight", front, who, sender, ways, new, out)
        if moved is None:
            return None
        return moved + [TR.Event("window", window="receive", in_front=who)]

    def saver(self, dying: int, ways, new, out: list = ()) -> list | None:
        """A card that saves the dying player: a living player plays one that takes a black message out of
        his area (澄清), one way per player."""
        cards = [cid for cid, c in self.cat.cards.items() if "dying" in c.windows
                 and any(o.op == "remove_message" for o in walk(c.do))]
        if not cards:
            return None
        opts = [(p, c) for c in cards for p in range(self.n) if self.final.seats[p].alive
                and not self.banned_here(out, p, c)]
        if not opts:
            return None
        seat, cid = opts[self.choose(ways, len(opts))]
        fields = effect_holes(self.cat.cards[cid].do, new)
        return [TR.Event("play", seat=seat, card=cid, actual=Hole(new("actual"), "card"), target=dying),
                TR.Event("resolve", **fields)]

    def killer(self, dying: int, window, turn_seat, ways, new, out: list = ()) -> list | None:
        """What gives ``dying`` a message in ``window`` (his third black one, the solver choosing its colour): a
        card of the window that puts a message into its target's (or its user's) area, or an ActiveSkill of the
        window someone holds that does — one way per card or skill and player."""
        alive = [p for p in range(self.n) if self.final.seats[p].alive or p == dying]
        opts = []
        for cid, card in sorted(self.cat.cards.items()):
            if window not in card.windows:
                continue
            for o in walk(card.do):
                if kills(o) and o.args.get("to") in ("target", "self"):
                    users = [dying] if o.args["to"] == "self" else alive
                    if card.windows[window] == "turn":          # played by the turn player only
                        users = [p for p in users if p == turn_seat]
                    opts.extend(("play", p, cid) for p in users if not self.banned_here(out, p, cid))
        for p in alive:
            for inst in self.held_at(self._k)[p]:
                rule = self.cat.skills.get(inst.rule)
                if rule is None or not rule.has("ActiveSkill") or not active_in(rule, window):
                    continue
                actor = (rule.windows or {}).get(window)
                if actor == "turn" and p != turn_seat or actor == "dying_player" and p != dying:
                    continue                                    # not his to use in this window (its actor)
                for o in walk(rule.do):
                    to = o.args.get("to")
                    if kills(o) and (to in ("target", "chosen") or to == "self" and p == dying):
                        opts.append(("use", p, inst.rule))
        if not opts:
            return None
        how, seat, rid = opts[self.choose(ways, len(opts))]
        if how == "play":
            fields = effect_holes(self.cat.cards[rid].do, new)
            return [TR.Event("play", seat=seat, card=rid, actual=Hole(new("actual"), "card"), target=dying),
                    TR.Event("resolve", **fields)]
        rule = self.cat.skills[rid]
        fields = effect_holes(rule.do, new)
        if "chosen" in fields:
            fields["chosen"] = dying
        return [TR.Event("use", seat=seat, rule=rid, target=dying if names_word(rule.do, "target") else None,
                         **fields)]

    def held_at(self, k: int) -> list:
        """Each seat's skills at the skeleton's event ``k`` — its final ones, unless the skeleton replaces a role
        after ``k`` (后来人): then those the skeleton's prefix leaves him (a skill of the character he becomes later
        is not his to use yet)."""
        if not any(e.kind == "replace" for e in self.sk.events[k:]):
            return [s.skills for s in self.final.seats]
        memo = self.__dict__.setdefault("_held", {})
        if k not in memo:
            st = play_run(self.cat, TR.Trace(self.sk.setup, self.sk.events[:k])).state
            memo[k] = [s.skills for s in st.seats]
        return memo[k]

    def cycle(self, window, sent: bool, front, sender: int, ways, new) -> list:
        """A whole message cycle before a turn ends: sent to a player who accepts and receives it (one way per
        player), from wherever the skeleton left it."""
        out = []
        if not sent:
            if window in ("draw",):
                out.append(TR.Event("window", window="main"))
            if window in ("draw", "main"):
                out.append(TR.Event("window", window="send_start"))
            others = [i for i in range(self.n) if i != sender and self.final.seats[i].alive]
            if not others:
                return None
            to = others[self.choose(ways, len(others))]
            out.append(self.send_event(sender, to, new))
            front, window = to, "send"
        if window == "send":
            out.append(TR.Event("window", window="fight", in_front=front))
        out.append(TR.Event("window", window="receive", in_front=front))
        return out

    def cause_of_give(self, ev, out: list, ways, new) -> tuple:
        """(where to put it, what makes the giver hand the grant out): the play and resolution of the card, the use
        of an ActiveSkill, the fire of a TriggeredSkill right after the event it answers — nothing when the game
        trace already has it this turn. (None, []) when no event it answers is raised this turn."""
        give = site_of(self.cat, ev.site)
        if give is None:
            return len(out), []
        start = self._turn_start(out)
        for i in range(len(out) - 1, start - 1, -1):
            e = out[i]
            if e.kind in ("resolve", "use", "fire") and self._source(out, i) == (ev.giver, give.giver):
                return len(out), []
        if give.giver_is_card:
            card = self.cat.cards[give.giver]
            fields = effect_holes(card.do, new)
            target = ev.seat if card.target is not None and card.target.who != "none" else None
            return len(out), [TR.Event("play", seat=ev.giver, card=give.giver, actual=Hole(new("actual"), "card"),
                                       target=target), TR.Event("resolve", **fields)]
        rule = self.cat.skills[give.giver]
        src = sends_from(rule.do)
        if rule.has("ActiveSkill") and src is not None:
            # a skill used in place of the send (冷血训练, 诱敌深入): its use comes right before this turn's send,
            # which takes its card from where the effect says
            j = next((i for i in range(len(out) - 1, start - 1, -1) if out[i].kind == "send"), None)
            if j is not None:
                fields = aimed(effect_holes(rule.do, new), rule.do, give.grant, ev.seat)
                out[j] = replace(out[j], source=src)
                out.insert(j, TR.Event("use", seat=ev.giver, rule=give.giver,
                                       target=ev.seat if names_word(rule.do, "target") else None, **fields))
                return len(out), []
        at, cause = self.use_for(ev.giver, give.giver, ev.seat, out, ways, new, give.grant)
        if at is None:
            at, cause = self.earlier_use(ev, give, out, new)
        return at, cause

    def earlier_use(self, ev, give, out: list, new) -> tuple:
        """(where, [the use]) of an ActiveSkill giver that cannot act where the skeleton hands its grant out (先发制人
        in a dying window: no skill put a message into an area there): its use in this turn's last 争夺阶段 window
        of the game trace, after every grant handed out before it — the questions are asked again on the game.
        (None, []) when there is none."""
        rule = self.cat.skills[give.giver]
        if not rule.has("ActiveSkill") or not active_in(rule, "fight"):
            return None, []
        start = self._turn_start(out)
        last_give = max((i for i in range(start, len(out)) if out[i].kind == "give"), default=start)
        j = next((i for i in range(len(out) - 1, last_give, -1)
                  if out[i].kind == "window" and out[i].window == "fight"), None)
        if j is None:
            return None, []
        fields = aimed(effect_holes(rule.do, new), rule.do, give.grant, ev.seat)
        return j + 1, [TR.Event("use", seat=ev.giver, rule=give.giver,
                                target=ev.seat if names_word(rule.do, "target") else None, **fields)]

    def use_for(self, seat: int, rid: str, target, out: list, ways, new, grant: str | None = None) -> tuple:
        """(where, [events]) that make ``seat`` act with the skill ``rid``: its use where the window is one of its
        own; else, for a skill that also answers events, its fire after one it answers; else its use in 争夺阶段
        when the message is on its way (the one it is in front of accepts it first) — one way per choice.
        ``grant``: the grant this act hands ``target`` (its effect's grant op names him)."""
        rule = self.cat.skills[rid]
        w = current_window(out)
        fields = aimed(effect_holes(rule.do, new), rule.do, grant, target)
        use = TR.Event("use", seat=seat, rule=rid, target=target if names_word(rule.do, "target") else None, **fields)
        if rule.has("ActiveSkill") and active_in(rule, w):
            return len(out), [use]
        opts = []
        if rule.has("TriggeredSkill"):
            opts.append("fire")
        if rule.has("ActiveSkill") and w == "send" and active_in(rule, "fight"):
            opts += ["fight", "fight_at_sender"]
        if rule.has("TriggeredSkill") and w == "send" and not self._fire_spots(rule, out) \
                and self.detour_character(rule) is not None:
            opts.append("detour")
        if not opts:
            return (len(out), [use]) if rule.has("ActiveSkill") else (None, [])
        how = opts[self.choose(ways, len(opts))]
        if how == "fire":
            return self.fire_for(seat, rid, out, ways, new, grant, target)
        if how == "detour":
            return self.detour(seat, rid, out, ways, new, grant, target)
        _, front = self.where(out, None, None)
        sender = next((e.seat for e in reversed(out) if e.kind == "send"), None)
        if how == "fight" and self.refuses(out, front, sender):
            return None, []                         # he cannot accept it: no 争夺阶段 in front of him
        if how == "fight_at_sender":
            # the one it is in front of lets it pass back to its sender, who must accept it
            if sender is None or sender == front:
                return None, []
            return len(out), [TR.Event("window", window="send", in_front=sender),
                              TR.Event("window", window="fight", in_front=sender), use]
        return len(out), [TR.Event("window", window="fight", in_front=front), use]

    def fire_for(self, seat: int, rid: str, out: list, ways, new, grant: str | None = None, target=None) -> tuple:
        """(where, [the fire]) of a TriggeredSkill answering an event the game trace raised this turn: right after
        the last event that raises one it answers (and the fires already answering it), one way per such event.
        (None, []) when nothing it answers is raised this turn."""
        rule = self.cat.skills[rid]
        spots = self._fire_spots(rule, out)
        cards = self.named_cards(rule, current_window(out))
        if not spots and not cards:
            return None, []
        fields = aimed(effect_holes(rule.do, new), rule.do, grant, target)
        k = self.choose(ways, len(spots) + len(cards))
        if k < len(spots):
            at, on = spots[k]
            return at, [TR.Event("fire", seat=seat, rule=rid, on=on, **fields)]
        card = self.cat.cards[cards[k - len(spots)]]
        aim = Hole(new("target"), "seat") if card.target is not None and card.target.who != "none" else None
        return len(out), [TR.Event("play", seat=seat, card=card.id, actual=Hole(new("actual"), "card"), target=aim),
                          TR.Event("resolve", **effect_holes(card.do, new)),
                          TR.Event("fire", seat=seat, rule=rid, on="card_resolved", **fields)]

    def _fire_spots(self, rule, out: list) -> list:
        """(where, the event kind) a fire of the TriggeredSkill ``rule`` may go this turn: right after each event
        of the game trace that raises one it answers (and the fires already answering it), latest first."""
        kinds = {o.event for o in rule.on}
        start = self._turn_start(out)
        spots = []
        for i in range(len(out) - 1, start - 1, -1):
            hit = kinds & set(raises(out, i, self.cat))
            if hit == {"card_resolved"} and not self.may_answer(rule, out, i):
                continue
            if hit:
                j = i + 1
                while j < len(out) and out[j].kind == "fire":
                    j += 1
                spots.append((j, sorted(hit)[0]))
        return spots

    def detour_character(self, rule):
        """(character, skill) whose skill answers the message's move and raises an event ``rule`` answers — the
        first by id of the characters the skeleton does not seat (金自来's 赌命 puts a card into his own area when the
        message comes in front of him, which 先发制人 answers in 传递阶段); None: there is none."""
        kinds = {o.event for o in rule.on}
        seated = {s.character for s in self.sk.setup.seats}
        for cid, ch in sorted(self.cat.characters.items()):
            if cid in seated:
                continue
            for rid in ch.skills:
                r = self.cat.skills.get(rid)
                if r is not None and r.has("TriggeredSkill") and any(o.event == "move" for o in r.on) \
                        and kinds & set(raised_by(r, True)):
                    return cid, rid
        return None

    def detour(self, seat: int, rid: str, out: list, ways, new, grant: str | None = None, target=None) -> tuple:
        """(where, [the fire]) of a TriggeredSkill that answers, in 传递阶段, an event nothing of the skeleton's
        seats raises there: a seat is added (``detour_character``), the turn's message is sent to him first — the
        passes the game trace had after the send are taken back, the fires and grants at them stay at the send —
        his skill answers the message's move, and ``rid`` answers what it raised. (None, []) when the game trace's
        turn did more than pass the message since its send."""
        found = self.detour_character(self.cat.skills[rid])
        start = self._turn_start(out)
        j = next((i for i in range(len(out) - 1, start - 1, -1) if out[i].kind == "send"), None)
        if found is None or j is None or self._extra:
            return None, []
        after = out[j + 1:]
        if any(e.kind not in ("window", "fire", "give") or e.kind == "window" and e.window != "send" for e in after):
            return None, []
        cid, skill = found
        x = self.n
        front = self.where(out, None, None)[1]
        if front == out[j].seat:
            # the game trace had passed it back to its sender, where a passed message stops for good (he must accept
            # it): that stop was only the moment the giver acted at, which the added seat's skill now is — the
            # message goes on to whoever the skeleton's next 传递阶段 window has it in front of
            front = self.next_stop_of(self._k)
        back = self.way_back(out[j].seat, x, front)
        if back is None:
            return None, []
        self._extra.append(cid)
        out[j:] = [replace(out[j], to=x)] + [e for e in after if e.kind != "window"]
        k = j + 1
        while k < len(out) and out[k].kind == "fire":
            k += 1                                  # with the fires answering the send, before their grants
        out.insert(k, TR.Event("fire", seat=x, rule=skill, on="move", **effect_holes(self.cat.skills[skill].do, new)))
        at, cause = self.fire_for(seat, rid, out, ways, new, grant, target)
        if at is None:
            return None, []
        out[at:at] = cause                          # its fire among the others; its grant after theirs
        end = len(out)
        # then the message goes on from him, passed seat by seat, back in front of whoever the game trace had it
        # in front of (the skeleton's next windows and questions find it there); the grants go before the passes
        out.extend(TR.Event("window", window="send", in_front=k) for k in back)
        return end, []

    def way_back(self, sender: int, x: int, front) -> list | None:
        """The seats a message sent by ``sender`` to the added seat ``x`` (the last, next to seats n-1 and 0) stops
        at when passed on from him until it is in front of ``front`` again: on in the send's direction (left / right
        — only a neighbour of ``x`` sends to him so, path.first_stop_ok), or, sent up, back to its sender
        (MessageMoveNext: up goes back to the sender; left / right to the nearest living player, stopping at the
        sender). The shortest; [] when ``front`` is ``x`` or nobody; None when no pass reaches ``front``."""
        if front is None or front == x:
            return []
        n = x + 1
        alive = [i == x or self.final.seats[i].alive for i in range(n)]
        routes = [[sender]] if front == sender else []
        for step in (-1, 1):
            i = sender
            while True:                             # the nearest living player that way: is it ``x``?
                i = (i + step) % n
                if alive[i]:
                    break
            if i != x:
                continue
            seq = []
            for _ in range(n):
                i = (i + step) % n
                if not alive[i]:
                    continue
                seq.append(i)
                if i == front or i == sender:
                    break
            if seq and seq[-1] == front:
                routes.append(seq)
        return min(routes, key=len) if routes else None

    def named_cards(self, rule, window) -> list:
        """Cards whose resolution the TriggeredSkill answers, played now by its holder: those its guard on a card's
        resolution asks for when the resolution must be the holder's own (``whose`` user — 换日: its holder's 调包 or
        破译 resolved, server skill/HuanRi.kt, FinishResolveCardEvent), of them those ``window`` allows. One way each
        after the events of the turn it answers (``fire_for``)."""
        named: list = []
        for on in rule.on:
            if on.event == "card_resolved" and tuple(on.whose) == ("user",):
                named += [c for c in sorted(guard_cards(on.when) or ()) if c not in named]
        return [cid for cid in named if cid in self.cat.cards and window in self.cat.cards[cid].windows]

    def may_answer(self, rule, out: list, i: int) -> bool:
        """Can the resolution the game trace's event ``i`` raises be one the TriggeredSkill's guard asks for: the card
        resolved (a play's declared type; a skill acting as a card, its ``plays``) among those a guard's conjunct
        names (``guard_cards``)? True when either is not known."""
        want = [guard_cards(on.when) for on in rule.on if on.event == "card_resolved"]
        if not want or any(w is None for w in want):
            return True
        e = out[i]
        if e.kind == "resolve":
            p = next((out[j] for j in range(i - 1, -1, -1) if out[j].kind == "play"), None)
            got = {p.card} if p is not None and isinstance(p.card, str) else None
        else:
            src = self.cat.skills.get(e.rule) if isinstance(e.rule, str) else None
            got = set(src.plays.cards) if src is not None and src.plays is not None else None
        return got is None or any(got & w for w in want)

    @staticmethod
    def where(out: list, window, front) -> tuple:
        """(window, the player the message is in front of) after the game trace's last event, for the walk."""
        w = current_window(out)
        if w is None:
            return window, front
        last = next((e for e in reversed(out) if e.kind == "window" or e.kind == "send"), None)
        at = last.to if last is not None and last.kind == "send" else getattr(last, "in_front", None)
        return w, at if at is not None else front

    def name_senders(self, out: list, new) -> list | None:
        """Each turn whose message another player than the turn player sends (or sends with a skill of his own, 冷血训练)
        gets the card that makes him the sender, played by the turn player at 传递阶段开始时 before anything of his
        (密令: card/MiLing.kt, ExecuteMiLing's OnSendCard with the target as sender — the catalogue's cards whose effect
        sends with ``by = "target"``, the first by id not banned to the turn player; None when there is none): the
        server lets only the turn player send otherwise (model/interp/game.GameRunner.on_send)."""
        namers = sorted(cid for cid, c in self.cat.cards.items() if c.windows.get("send_start") == "turn"
                        and any(o.op == "send_message" and o.args.get("by") == "target" for o in walk(c.do)))
        out = list(out)
        i = 0
        while i < len(out):
            e = out[i]
            if e.kind != "turn":
                i += 1
                continue
            turn, end = e.seat, next((j for j in range(i + 1, len(out)) if out[j].kind == "turn"), len(out))
            send = next((j for j in range(i, end) if out[j].kind == "send"), None)
            sender = out[send].seat if send is not None else None
            if sender is None or sender == turn or any(out[j].kind == "play" and out[j].card in namers
                                                       and out[j].target == sender for j in range(i, send)):
                i = end
                continue
            # after what answers the phase's start (its triggers fire at SendPhaseStart, before anybody plays), before
            # anything the sender does for his send (a skill in place of it, 冷血训练) and the send itself
            start = next((j for j in range(i, send) if out[j].kind == "window" and out[j].window == "send_start"), None)
            at = None if start is None else next(j for j in range(start + 1, send + 1)
                                                 if j == send or out[j].kind in ("use", "play") and out[j].seat == sender)
            cid = next((c for c in namers if not self.banned_here(out[:at] if at else out, turn, c)), None)
            if at is None or cid is None:
                return None
            card = self.cat.cards[cid]
            out[at:at] = [TR.Event("play", seat=turn, card=cid, actual=Hole(new("actual"), "card"), target=sender),
                          TR.Event("resolve", **effect_holes(card.do, new))]
            i = end + 2
        return out

    def send_checker(self, out: list, sender: int) -> int:
        """The player this turn's send is checked from (model/interp/path.send_errors): the user of a skill used this
        turn whose effect sends a card of his own hand in place of the send (诱敌深入: YouDiShenRu.kt r.canSendCard),
        else the sender."""
        for e in reversed(out[self._turn_start(out):] if out else []):
            if e.kind == "send":
                break
            rule = self.cat.skills.get(e.rule) if e.kind == "use" and isinstance(e.rule, str) else None
            if rule is None or not isinstance(e.seat, int):
                continue
            for o in walk(rule.do):
                if o.op == "send_message" and o.args.get("from", "hand") == "hand" and o.args.get("of") == "self":
                    return e.seat
        return sender

    def at_once(self, out: list) -> list:
        """The grants an effect hands to a set of players (model/interp/game.GameRunner.gives_at_once: 借车运货, 强令,
        冷血训练's ban, 变则通, 诱敌深入 — the server's ``players.forEach``) as the game hands them out: one give to every
        recipient (every seat, the ones the template adds too), right after the effect — after the fires answering
        the same event and the message the effect sends. The skeleton's gives of such a grant (one seat each, where
        the timed model has them) are gathered into it, with the first one's site and arguments; an effect whose
        gives the skeleton leaves out gets its run too where its grant op surely runs (no ``may``, no condition) and
        its site fixes every parameter of the grant (else the solver declines the ``may``, or no game is found)."""
        cat = self.cat
        n = self.n + len(self._extra)
        effects: dict = {}           # effect index -> {grant: [site, args] or None}
        turn = 0
        turn_of: list = []
        for i, e in enumerate(out):
            turn += e.kind == "turn"
            turn_of.append(turn)
            if e.kind in ("use", "fire", "resolve"):
                src = self._source(out, i)
                obj = (cat.skills.get(src[1]) or cat.cards.get(src[1])) if src is not None else None
                sets = set_grants(obj.do) if obj is not None else {}
                if sets:
                    effects[i] = {g: None for g in sets}
        if not effects:
            return out
        keep: list = []
        for j, e in enumerate(out):
            give = site_of(cat, e.site) if e.kind == "give" else None
            if give is None or not set_granted(cat, give):
                keep.append(e)
                continue
            i = next((i for i in sorted(effects, reverse=True) if i < j and turn_of[i] == turn_of[j]
                      and self._source(out, i) == (e.giver, give.giver) and give.grant in effects[i]), None)
            if i is None:
                keep.append(e)
                continue
            if effects[i][give.grant] is None:
                effects[i][give.grant] = [give, dict(e.args or {}), len(keep)]
        # positions in ``keep`` of the effects (the gathered gives dropped before them)
        pos = {}
        k = 0
        for j, e in enumerate(out):
            if k < len(keep) and keep[k] is e:
                if j in effects:
                    pos[j] = k
                k += 1
        for i in sorted(effects, reverse=True):
            src = self._source(out, i)
            obj = cat.skills.get(src[1]) or cat.cards.get(src[1])
            sets = set_grants(obj.do)
            sends = any(o.op == "send_message" for o in walk(obj.do))
            # where its gives may go: right after it, past the gives that follow it and the message it sends — not
            # past another skill answering the same event (the server adds the grant inside the effect's resolution)
            spots = [pos[i] + 1]
            passed_send = False
            while spots[-1] < len(keep) and (keep[spots[-1]].kind == "give"
                                             or keep[spots[-1]].kind == "send" and sends and not passed_send):
                passed_send = passed_send or keep[spots[-1]].kind == "send"
                spots.append(spots[-1] + 1)
            windows = [current_window(keep[:p]) for p in spots]
            runs: dict = {}
            for grant, got in effects[i].items():
                if got is None:
                    sure = all(not o.may and o.cond is None for o in walk(obj.do) if o.op == "grant"
                               and o.args.get("grant") == grant) and \
                        all(o.op != "grant" or o.args.get("grant") != grant for top in obj.do for alt in top.options
                            for o in walk(alt))
                    site = next((g for g in obj.gives if g.grant == grant and (not g.at or set(windows) & set(g.at))),
                                None)
                    params = cat.skills[grant].params if grant in cat.skills else {}
                    if not sure or site is None or any(q not in site.args for q in params):
                        continue
                    got = [site, dict(site.args), None]
                site, args, was = got
                # where the walk put its first give, if that is one of the spots; else the last spot in the site's
                # windows (冷血训练's ban once its message is sent, 诱敌深入's before)
                fits = [p for p, w in zip(spots, windows) if not site.at or w in site.at]
                at = was if was in fits else (fits[-1] if fits else None)
                if at is None:
                    if sends and not passed_send:
                        continue        # its message is not sent in this game: the grant comes only as it is
                    at = spots[-1]
                runs.setdefault(at, []).extend(
                    TR.Event("give", seat=r, giver=src[0], site=site.site_id, args=dict(args))
                    for r in recipients(sets[grant], src[0], n))
            for at in sorted(runs, reverse=True):
                keep[at:at] = runs[at]
        return keep

    def to_one(self, out: list, ways=None) -> list:
        """The grants an effect hands to one player (model/interp/game.GameRunner.gives_to_one: 冷血训练's MustLockOne
        to its user, 先发制人's, 调虎离山's …) as the game hands them out: a give of the giver's site to that player
        right after the effect (its gives the skeleton has after the fires that follow it moved up to it: no other
        skill answers the same event before the effect, its grant included, is done), where the skeleton has none and the
        grant op surely runs (no ``may``, no condition, in no alternative) for a player the event fixes (``self``;
        ``target``, ``chosen``, ``chosen2`` when the event names a seat). And the message such an effect sends
        locked on a player it names (``send_message``'s ``lock``: 冷血训练) is locked on him: the turn's send that
        follows gets the lock of the event's seat, or a hole the solver ties to it. A grant op surely run for a
        player the event leaves open (a ``chosen`` hole: 先发制人's second choice) is a branch point over the seats
        (the others first, from the actor's left): the event names the one taken, and the give goes to him."""
        cat = self.cat
        i = 0
        while i < len(out):
            e = out[i]
            src = self._source(out, i) if e.kind in ("use", "fire", "resolve") else None
            obj = (cat.skills.get(src[1]) or cat.cards.get(src[1])) if src is not None else None
            if obj is None:
                i += 1
                continue
            play = next((out[j] for j in range(i - 1, -1, -1) if out[j].kind == "play"), None) \
                if e.kind == "resolve" else None
            named = {"self": src[0], "target": play.target if play is not None else e.target,
                     "chosen": e.chosen, "chosen2": e.chosen2}
            for o in walk(obj.do):
                if o.op == "send_message" and o.args.get("lock") is not None:
                    self._lock_send(out, i, named.get(o.args["lock"]))
            j = i + 1
            while j < len(out) and out[j].kind in ("give", "fire"):
                j += 1
            # the skeleton's gives of this effect's grants to one player, after fires that follow it: right after it
            again = next((k for k in range(i + 1, j) if out[k].kind == "fire" and self._source(out, k) == src), j)
            own = [k for k in range(i + 1, again) if out[k].kind == "give" and out[k].giver == src[0]
                   and (g := site_of(cat, out[k].site)) is not None and g.giver == src[1] and one_granted(cat, g)]
            if own:
                moved = [out[k] for k in own]
                rest = [out[k] for k in range(i + 1, j) if k not in own]
                out[i + 1:j] = moved + rest
            w = current_window(out[:i + 1])
            adds = []
            for grant, words in one_grants(obj.do).items():
                ops = [o for o in walk(obj.do) if o.op == "grant" and o.args.get("grant") == grant]
                alts = any(o.op == "grant" and o.args.get("grant") == grant for top in obj.do for alt in top.options
                           for o in walk(alt))
                if alts or any(o.may or o.cond is not None for o in ops):
                    continue
                site = next((g for g in obj.gives if g.grant == grant and (not g.at or w in g.at)), None)
                params = cat.skills[grant].params if grant in cat.skills else {}
                if site is None or any(q not in site.args for q in params):
                    continue
                for o in ops:
                    word = o.args.get("to")
                    to = named.get(word)
                    if isinstance(to, Hole) and word in ("chosen", "chosen2") and ways is not None:
                        n = self.n + len(self._extra)
                        seats = [(src[0] + d) % n for d in range(1, n + 1)]
                        to = seats[self.choose(ways, n)]
                        out[i] = e = replace(e, **{word: to})
                        named[word] = to
                    if not isinstance(to, int) or isinstance(to, bool):
                        continue
                    if any(g.kind == "give" and g.site == site.site_id and g.giver == src[0] and g.seat == to
                           for g in out[i + 1:j] + adds):
                        continue
                    adds.append(TR.Event("give", seat=to, giver=src[0], site=site.site_id, args=dict(site.args)))
            out[i + 1:i + 1] = adds
            i += 1 + len(adds)
        return out

    def _lock_send(self, out: list, i: int, who) -> None:
        """The turn's send after ``out[i]`` locks ``who`` (a seat), or a set of seats the solver picks (a hole)."""
        for k in range(i + 1, len(out)):
            if out[k].kind == "turn":
                return
            if out[k].kind == "send":
                locks = [who] if isinstance(who, int) and not isinstance(who, bool) else \
                    Hole(f"locks_of_send{k}", "seats")
                out[k] = replace(out[k], locks=locks)
                return

    def _turn_start(self, out: list) -> int:
        for i in range(len(out) - 1, -1, -1):
            if out[i].kind == "turn":
                return i
        return 0

    def _source(self, out: list, i: int):
        e = out[i]
        if e.kind == "resolve":
            p = next((out[j] for j in range(i - 1, -1, -1) if out[j].kind == "play"), None)
            return (p.seat, p.card) if p is not None else None
        return (e.seat, e.rule)


def guard_cards(when) -> frozenset | None:
    """The cards a guard lets through by a conjunct on the event's card (``card == X``, ``card in {X, Y}``), or None
    when no conjunct of it says."""
    if isinstance(when, E.Bin) and when.op == "and":
        a, b = guard_cards(when.left), guard_cards(when.right)
        return a if b is None else b if a is None else a & b
    if isinstance(when, E.Bin) and isinstance(when.left, E.Var) and when.left.name == "card":
        if when.op == "==" and isinstance(when.right, E.Const):
            return frozenset({when.right.value})
        if when.op == "in" and isinstance(when.right, E.SetLit) and all(isinstance(x, E.Const) for x in when.right.items):
            return frozenset(x.value for x in when.right.items)
    return None


def current_window(out: list) -> str | None:
    """The window the game trace is in after its last event (a send stops the message in 传递阶段: "send")."""
    for e in reversed(out):
        if e.kind == "send":
            return "send"
        if e.kind == "window":
            return e.window
        if e.kind == "turn":
            return None
    return None


def aimed(fields: dict, ops, grant: str | None, receiver) -> dict:
    """An effect's fields with the player its ``grant`` op hands ``grant`` to (``chosen`` / ``chosen2``) fixed to
    the grant's receiver (先发制人 invalidates the one it chose second)."""
    if grant is None or not isinstance(receiver, int):
        return fields
    for o in walk(ops):
        to = o.args.get("to")
        if o.op == "grant" and o.args.get("grant") == grant and to in ("chosen", "chosen2") and to in fields:
            fields[to] = receiver
    return fields


def receive_putters(cat: Catalogue, table, turn: int, alive: list) -> list:
    """(seat, skill) of each TriggeredSkill a living seat holds at ``table`` that answers a receive and whose effect
    puts a card into a message area (a ``put_message``, or a ``remove_message`` into an area), in the order the
    server asks the listeners — from the turn player round the table (Game.dealListeningSkill)."""
    out = []
    n = len(table.seats)
    for d in range(n):
        seat = (turn + d) % n
        if seat not in alive:
            continue
        for inst in table.seats[seat].skills:
            rule = cat.skills.get(inst.rule)
            if rule is not None and puts_on_receive(rule):
                out.append((seat, rule.id))
    return out


def puts_on_receive(rule, own: bool = False) -> bool:
    """Is ``rule`` a TriggeredSkill that answers a receive and whose effect puts a card that may have a colour into
    a message area (a ``put_message`` of anything but a pure black card, or a ``remove_message`` into an area)?
    Such an answer is dealt before the check of the receive's process node (ProcessFsm.resolve: dealListeningSkill,
    then checkWin), so that check may see two areas changed. ``own``: it answers as the message's sender (or as
    anyone) and puts the card into its holder's own area — the turn player's, at his own message's receive."""
    ons = [o for o in rule.on if o.event == "receive" and (not own or {"sender", "any"} & set(o.whose))]
    if not rule.has("TriggeredSkill") or not ons:
        return False
    for o in walk(rule.do):
        to = o.args.get("to") if o.op == "put_message" else o.args.get("into") if o.op == "remove_message" else None
        if o.op == "put_message" and o.args.get("colour") == "pure_black":
            continue
        if o.op == "remove_message" and o.args.get("to") != "area":
            continue
        if to is not None and (not own or to in ("self", "sender")):
            return True
    return False


def kills(o) -> bool:
    """May the op give a player his third black message? A put_message whose card may make three of a colour
    (``three = "allowed"``): 利诱's card goes to its user's hand instead (card/LiYou.kt checkThreeSameMessageCard),
    广发报's may not be one that would (``forbidden``)."""
    return o.op == "put_message" and o.args.get("three", "allowed") == "allowed"


def active_in(rule, window: str | None) -> bool:
    """May the ActiveSkill be used in ``window`` at all (a window it names, its condition there not "false")?"""
    if window is None or window not in (rule.windows or {}):
        return False
    cond = getattr(rule, window, None) if window in ("main", "fight", "dying") else None
    return cond is None or not (type(getattr(cond, "value", None)) is bool and cond.value is False)


def sends_from(ops) -> str | None:
    """Where an effect that sends the message takes its card (its send_message op's ``from``); None: it sends none."""
    return next((o.args.get("from", "hand") for o in walk(ops) if o.op == "send_message"), None)


def raised_by(src, is_skill: bool) -> tuple:
    """The events the effect of a rule or card may raise (checks/firing.py ``raises``), in a fixed order."""
    from .firing import raises as effect_raises
    return tuple(sorted({r.kind for r in effect_raises(src, is_skill)}))


def raises(out: list, i: int, cat: Catalogue | None = None) -> tuple:
    """The events (model.events kinds) the game trace's event ``i`` raises (model/interp/game.py): a send raises
    send and move; a pass, move; an accept, choose_receive; a receive, receive and the receive phase; 传递阶段开始时,
    send_phase_start; the turn end, turn_end; a play, use_card; its resolution, card_resolved (and what its effect
    raises); a death, die."""
    e = out[i]
    prev = next(("send" if x.kind == "send" else x.window for x in reversed(out[:i]) if x.kind in ("window", "send")), None) \
        if e.kind == "window" else None
    if e.kind == "send":
        return ("send", "move")
    if e.kind == "window":
        if e.window == "send":
            return ("move",)
        if e.window == "fight" and prev in ("send", None):
            return ("choose_receive",)
        return {"receive": ("receive", "receive_phase"), "send_start": ("send_phase_start",),
                "turn_end": ("turn_end",)}.get(e.window, ())
    if e.kind == "play":
        return ("use_card",)
    if e.kind == "resolve":
        p = next((out[j] for j in range(i - 1, -1, -1) if out[j].kind == "play"), None)
        card = cat.cards.get(p.card) if cat is not None and p is not None else None
        return ("card_resolved",) + (raised_by(card, False) if card is not None else
                                     ("add_message", "discard", "give_card"))
    if e.kind == "die":
        return ("die",)
    if e.kind in ("use", "fire"):
        rule = cat.skills.get(e.rule) if cat is not None else None
        return raised_by(rule, True) if rule is not None else ("add_message", "discard", "give_card", "die")
    return ()


def templates(cat: Catalogue, skeleton: TR.Trace, run: TR.Run | None = None) -> list:
    """The game-trace templates of a skeleton (see the module's docstring), simplest first."""
    return list(each_template(cat, skeleton, run))


def each_template(cat: Catalogue, skeleton: TR.Trace, run: TR.Run | None = None, questions=(), uncounted=None):
    """``templates``, one at a time (built as they are asked for). ``questions``: the (question, expect) pairs
    the game must answer — a question of the result pass makes every template end in a win check
    (``win_check_of``). ``uncounted``: as ``Builder.each``'s."""
    run = run or play_run(cat, skeleton)
    return Builder(cat, skeleton, run, run.state, questions).each(uncounted)


def win_check_of(questions) -> tuple | None:
    """(turn, declared) of the win check the questions ask about — their questions of the result pass
    (decision "result": the WinSkills or the ChangeGameResultSkills folded over given declared winners, in a
    given turn); None when they ask none, or name different turns. The server folds them only in a win check
    (ProcessFsm.checkWin → Game.checkWin, changeGameResult), so a game answers such a question by ending in one."""
    asked = [q for q, _ in questions if q.get("decision") == "result"]
    turns = {q.get("turn") for q in asked}
    if not asked or len(turns) != 1 or not isinstance(next(iter(turns)), int):
        return None
    return next(iter(turns)), tuple(sorted(asked[0].get("declared", ())))


def asked_pass_terms(cat: Catalogue, enc, questions, seated: bool = False) -> list:
    """z3 terms saying that each result-pass question of ``questions`` the game's own win check folds — seated as
    the table sits (``seated``: also one the question seats otherwise, its ``seating`` — OD002 asks the pass with
    two holders' seats exchanged too), no pick chosen, in the turn the game ends in — answers as claimed over the
    game's last table (checks/enc/win.enc_result, the twin of the fold ``decide`` makes): the solver looks for a
    game whose end answers so, instead of one that ends while the replay's answers differ. The other questions are
    asked by the replay only."""
    from .enc.val import z
    from .enc.win import enc_pass_inputs, enc_result
    tab = enc.tab
    n = tab.n
    out = []
    for q, e in questions:
        if q.get("decision") != "result" or q.get("picks") or not isinstance(tab.turn, int) or \
                q.get("turn") != tab.turn or \
                (sorted if seated else list)(q.get("seating") or range(n)) != list(range(n)) or \
                not {"declared", "winners"} <= set(e):
            continue
        D0 = [i in q.get("declared", ()) for i in range(n)]
        W0 = [i in q.get("winners", ()) for i in range(n)]
        # the game's own check hands the pass the question's declared winners and winners (what `won_as_asked`
        # asks of the replay; ProcessFsm.checkWin's one-camp end left out: a game ending there is not sought)
        Din, Win = enc_pass_inputs(cat, tab, q.get("kind", "result"), "asked_in")
        out += [z(Din[i]) == z(D0[i]) for i in range(n)]
        out += [z(Win[i]) == z(W0[i]) for i in range(n)]
        D, W = enc_result(cat, tab, q.get("kind", "result"), D0, W0, "asked", seating=q.get("seating"))
        out += [z(D[i]) == z(i in e["declared"]) for i in range(n)]
        out += [z(W[i]) == z(i in e["winners"]) for i in range(n)]
    return out


def won_as_asked(cat: Catalogue, state, question: dict) -> bool:
    """Did the game end in a win check that folded the result pass the question asks about: over, in the
    question's turn, and its check (ProcessFsm.checkWin, or the one-camp check after it) handed the pass of the
    question's kind the question's declared winners and winners? A question of another decision: True."""
    if question.get("decision") != "result":
        return True
    if state.winners is None or state.turn != question.get("turn", state.turn):
        return False
    from skillproof.model.interp import win as W
    from skillproof.model.interp.result import game_result
    passed = []

    def fold(c, st, declared, winners, kind):
        passed.append((kind, frozenset(declared), frozenset(winners)))
        return game_result(c, st, declared, winners, kind)
    W.check_win(cat, state, fold) or W.check_one_camp(cat, state, fold)
    return (question.get("kind", "result"), frozenset(question.get("declared", ())),
            frozenset(question.get("winners", ()))) in passed


#: z3's resource units one filling may spend (deterministic; the shipped check's largest filling spends ~270,000 in the
#: lane's realisation context, ~170,000 in a fresh one)
RLIMIT = 50_000_000
#: z3's resource units a filling may spend in the lane's realisation context before it is solved again in a fresh one
#: (``solve``): the shipped check's fillings spend 15,000–270,000 units there, but now and then one whose terms z3
#: happens to order badly spends millions (6 million units and 0.33 s for a filling a fresh context solves in
#: 170,000 units and 0.02 s)
FIRST_RLIMIT = 600_000


#: the table attributes of the skeleton's final state a game must end with (the question reads nothing else of
#: the table): hands, the five message counts, alive, faces, locks, identities
PINNED = ("hand_count", "red_messages", "blue_messages", "black_messages", "true_messages", "non_black_messages",
          "alive", "face_up", "ever_face_up", "locked", "identity")


def solve(cat: Catalogue, template: TR.Trace, final, timeout_ms: int = 60000, focus=(), over: bool = False,
          questions=(), seated: bool = False) -> TR.Trace | None:
    """Fill a template's holes with the z3 twin (checks/enc/game.py) so that the game is legal and its table at
    the end is as close to ``final``'s as a legal game allows (each ``PINNED`` attribute a soft constraint: the
    timed model's table is one the question holds on, but some of its values no game reaches — a turn player who
    drew two cards and sent one does not end it with an empty hand); None when no legal filling exists (or the
    solver gave up). The caller replays the game and asks the questions again: the pins only guide the search.
    ``focus``: the seats the questions ask about — where the timed model's identities are no deal, theirs are kept
    before the others'. ``over``: the game must be over at its end (a template that ends in a win check:
    ``win_check_of``) — a hard constraint, not a pin: a game that does not end there answers nothing; and the
    result pass asked by each of ``questions`` that the game's own check folds (``asked_pass_terms``) answers as
    claimed on its last table (``seated``: each seated as the question seats the table, ``asked_pass_terms``)."""
    import z3
    from .terms import renew_own_context
    got = _fill(cat, template, final, timeout_ms, focus, over, questions, seated, FIRST_RLIMIT)
    if got is _GAVE_UP:
        # z3's search went a long way round in this context (its order of the terms depends on what was made in it
        # before): the filling is solved again, in a fresh context, with the whole RLIMIT — deterministic either
        # way (a resource limit); outside ``own_context`` (a caller's own solving) in the same context
        renew_own_context()
        got = _fill(cat, template, final, timeout_ms, focus, over, questions, seated, RLIMIT)
    return None if got is _GAVE_UP else got


_GAVE_UP = object()


def _fill(cat: Catalogue, template: TR.Trace, final, timeout_ms, focus, over, questions, seated, rlimit: int):
    """``solve`` within ``rlimit`` of z3's resource units: the game, None (no legal filling), or ``_GAVE_UP``."""
    import z3
    from .enc.game import GameEncoding, Illegal
    from .enc.table import NONE, enc_class_of
    from .enc.val import z
    from .terms import Eq2, assert_all
    from skillproof.model.interp.win import deal_errors
    try:                                          # a check False from the concrete parts alone: no filling is legal
        enc = GameEncoding(cat, template, keep_states=False, stop_at_false=True)
    except Illegal:
        return None
    s = z3.Optimize()
    # a resource limit, not a time limit, decides when the filling gives up: a time limit hit on a loaded machine
    # would move on to the next template and change the witness (output must not depend on the load); the time
    # limit stays only as a guard far above any filling of the shipped check (at most ~270,000 resource units and
    # ~0.03 s in the lane's realisation context)
    s.set("rlimit", rlimit)
    s.set("timeout", timeout_ms)
    # no 0-1 integers turned into Booleans first: on these games' formulas that pass costs a third of the search, and
    # the optimum (the pins kept) is the same
    s.set("elim_01", False)
    assert_all(s, [lab.expr for lab in enc.legal])
    if over:
        s.add(enc.over_term())
        for t in asked_pass_terms(cat, enc, questions, seated):
            s.add(t)
    # the timed model's identities may be no deal (two reds of two seats): then each is kept where a deal allows
    # (a legal deal keeps as many as it can, those of the seats asked about first)
    dealt = not deal_errors(final.seats)
    for i, seat in enumerate(final.seats):
        for name in PINNED:
            # the seats' status first (who is alive, face up, locked), then the counts
            weight = 4 if name in ("alive", "face_up", "ever_face_up", "locked", "identity") else 1
            if name == "identity" and not dealt:
                weight = 2 if i in focus else 1
            s.add_soft(Eq2(enc.final_attr(i, name), enc.value(name, getattr(seat, name))), weight)
    code = enc_class_of(final.message) if final.in_front is not None else NONE
    if code != NONE:
        # the travelling message's colours too, where one travels (a receive rule, 破译, 误导 read them)
        s.add_soft(Eq2(z(enc.final.message), z(code)), 2)
    r = s.check()
    if r == z3.unknown and rlimit < RLIMIT:
        return _GAVE_UP
    if r != z3.sat:
        return None
    return enc.fill(s.model())


class TwinsDisagree(Exception):
    """The z3 twin filled a template into a game the interpreter refuses: a bug in one of the twins (the caller
    reports it as INT001). ``problems``: the interpreter's reasons."""

    def __init__(self, problems: list):
        super().__init__("; ".join(str(p) for p in problems))
        self.problems = problems


def realise(cat: Catalogue, skeleton: TR.Trace, final, questions, accept=None) -> tuple:
    """(a game trace under the skeleton that the interpreter runs and answers every (question, expect) of
    ``questions`` on as claimed, None) — or (None, why none was found, in both languages). ``accept`` (game trace,
    its run) -> bool: what else the game must show (a situation of ``diff``, which is no decide question)."""
    game, _, why = realise_run(cat, skeleton, final, questions, accept)
    return game, why


def realise_run(cat: Catalogue, skeleton: TR.Trace, final, questions, accept=None, run: TR.Run | None = None) -> tuple:
    """``realise`` with the interpreter's run of the game it found: (game, its run, None) or (None, None, why).
    ``run``: the skeleton's run, when the caller has it. The fillings are solved in a z3 context of their own (one
    per lane: checks/terms.own_context): the caller's context is left as if nothing ran — a lane's later questions
    answer alike whatever realisation did, and a change to realisation changes no other witness's skeleton."""
    from .terms import own_context
    with own_context():
        return _realise_run(cat, skeleton, final, questions, accept, run)


def _realise_run(cat: Catalogue, skeleton: TR.Trace, final, questions, accept, run) -> tuple:
    """``realise_run``'s work, in the realisation context."""
    from skillproof.model.interp.decide import decide, matches
    from skillproof.model.interp.windows import at_decision
    run = run or play_run(cat, skeleton)

    def answers(game, got) -> bool:
        # the same test a witness's replay makes (checks/context.replay_problems): each question asked at its
        # decision moment, answered as claimed — a game that leaves the question's moment out (a dying window
        # nothing of the game can cause) answers nothing
        return all(at_decision(got.state, q.get("decision", ""), q.get("seat", 0))
                   and matches(decide(cat, got.state, q), e) and won_as_asked(cat, got.state, q)
                   for q, e in questions) and (accept is None or accept(game, got))
    tried = 0
    least: dict = {}            # (the ways before the shed branch, card) -> the fewest cards to shed (``_shed_more``)
    # the ways before the shed branch of templates that shed nothing and had no legal filling at all: the same events
    # with cards shed are still tried, but take no place of MAX_TEMPLATES — they crowded out the other ways of
    # putting the table's events under a skeleton (IV001: nine shed variants of one illegal path, then the cap)
    dead: set = set()

    def uncounted(t) -> bool:
        sh = getattr(t, "shed", None)
        return sh is not None and sh[2] > 0 and sh[0] in dead
    for tmpl in each_template(cat, skeleton, run, questions, uncounted):
        tried += 1
        shed = getattr(tmpl, "shed", None)
        if shed is not None and shed[2] < least.get((shed[0], shed[3]), 0):
            continue                                # too few cards shed to end with the skeleton's hand
        if not asks_there(tmpl, questions, cat):
            continue                                # no filling of it answers: the replay's test below fails
        over = win_check_of(questions) is not None
        game = solve(cat, tmpl, final, focus={q.get("seat", 0) for q, _ in questions}, over=over, questions=questions)
        if game is None:
            if shed is not None and shed[2] == 0:
                dead.add(shed[0])
            continue
        got = _replayed(cat, game)
        if answers(game, got):
            return game, got, None
        if shed is not None:
            _shed_more(cat, shed, got.state, final, least)
        if over and any(q.get("decision") == "result" and list(q.get("seating") or ()) not in ([], sorted(q["seating"]))
                        for q, _ in questions):
            # a result question seated otherwise (OD002's exchanged holders) was left to the replay and answered
            # otherwise: the template filled again with its pass folded too
            game = solve(cat, tmpl, final, focus={q.get("seat", 0) for q, _ in questions}, over=True,
                         questions=questions, seated=True)
            if game is not None:
                got = _replayed(cat, game)
                if answers(game, got):
                    return game, got, None
    ways = f"{tried} ways of putting the table's events under it were" if tried != 1 else \
        "1 way of putting the table's events under it was"
    return None, None, {"zh": f"试过{tried}种放置牌桌事件的方式", "en": f"{ways} tried"}


def _shed_more(cat: Catalogue, shed: tuple, end, final, least: dict) -> None:
    """A game of a template that sheds ``n`` cards (``Builder.shed``) that answered otherwise and ends with its turn
    player holding ``h`` cards where the skeleton's table has ``t`` < h: a card whose use takes no more than itself
    from its user's hand (``sheds_one``) cannot end with the skeleton's hand shed fewer than n + h - t times in the same
    branch — ``least`` says so for each such card (for every one after a template that shed none), and ``realise_run``
    solves none of those templates (they would answer otherwise too)."""
    ways, seat, n, cid = shed
    if seat >= len(final.seats) or seat >= len(end.seats):
        return
    h, t = end.seats[seat].hand_count, final.seats[seat].hand_count
    if type(h) is not int or type(t) is not int or h <= t:
        return
    for c in ([cid] if cid is not None else Builder.shed_cards_of(cat)):
        if sheds_one(cat.cards[c]):
            least[(ways, c)] = max(least.get((ways, c), 0), n + h - t)


def sheds_one(card) -> bool:
    """Does using ``card`` take from its user's hand only the card itself: none of its ops discards or gives away a card
    of its user (``self``, or the target where the target may be the user)?"""
    me = {"self"} | ({"target"} if card.target is not None and card.target.who not in ("other", "none") else set())
    for o in walk(card.do):
        if o.op == "discard" and o.args.get("who", "self") in me:
            return False
        if o.op == "give" and o.args.get("from", "self") in me:
            return False
    return True


def _replayed(cat: Catalogue, game: TR.Trace) -> TR.Run:
    """The interpreter's run of a game the twin filled; TwinsDisagree when it refuses it."""
    got = play_run(cat, game)
    if got.errors:
        from skillproof.model.reason import Reason, at_event
        raise TwinsDisagree([Reason(f"z3 孪生填出的牌局不合法：{w.zh}", f"the z3 twin filled an illegal game: {w.en}")
                             for w in (at_event(k, len(game.events), why) for k, why in got.errors[:3])])
    return got


def end_window(events) -> str | None:
    """The window a game trace's state is in after its events (None: no turn started): the last turn's draw phase,
    window, or 传递阶段 after a send — as the interpreter sets it (model/interp/trace.Runner.on_turn / on_window,
    game.GameRunner.on_send); the holes' values change no window."""
    for e in reversed(events):
        if e.kind == "send":
            return "send"
        if e.kind == "window":
            return e.window
        if e.kind == "turn":
            return "draw"
    return None


def asks_there(template: TR.Trace, questions, cat: Catalogue | None = None) -> bool:
    """May a game of the template be at every question's decision moment (``at_decision``: the window it ends in
    one of the decision's, model.turn.DECISION_WINDOWS) — and, for a ``matters`` question (with ``cat``), in a window
    where holding the rule can matter at all (model/interp/grants.matters_windows)? False: whatever fills its holes,
    the replay asks a question where it is not taken, or answers it otherwise (a template that left the skeleton's
    last window out) — the template needs no solving."""
    from skillproof.model.interp.grants import matters_windows
    from skillproof.model.turn import DECISION_WINDOWS
    w = end_window(template.events)
    if w is None:
        return True
    for q, _ in questions:
        d = q.get("decision", "")
        if d in DECISION_WINDOWS and w not in DECISION_WINDOWS[d][0]:
            return False
        if d == "matters" and cat is not None:
            wins = matters_windows(cat, q.get("rule", ""), q.get("args", {}))
            if wins is not None and w not in wins:
                return False
    return True


def witness_questions(w: dict) -> list:
    """The (question, expect) pairs a witness dict claims: its question and every ``also``."""
    return [(w["question"], w["expect"])] + [(a["question"], a["expect"]) for a in w.get("also", [])]


def game_witness(cat: Catalogue, w: dict, final=None, questions=None) -> tuple:
    """(the witness dict made a game of the server, the game's run) for a witness whose ``trace`` is the timed
    model's — the one driver of ``check`` (Context._made_game) and ``ask``: the same dict with the game's trace and
    state — or, when no template has a game under it, with ``unrealised`` (why, in both languages) and the run None.
    ``final``: the skeleton's final state when the caller has it (the solver's), else the interpreter's run of it;
    ``questions``: the (question, expect) pairs the game must answer alike, by default the witness's own. A witness
    with no trace, or one already a game, comes back as it is. Raises TwinsDisagree when the twin fills an illegal
    game."""
    if not isinstance(w, dict) or "trace" not in w or w["trace"].get("table"):
        return w, None
    skeleton = TR.Trace.from_dict(w["trace"])
    run = play_run(cat, skeleton)
    if final is None:
        final = run.state
    game, got, why = realise_run(cat, skeleton, final, witness_questions(w) if questions is None else questions,
                                 run=run)
    out = dict(w)
    if game is None:
        out["unrealised"] = why
        return out, None
    out["trace"] = game.to_dict()
    out["state"] = got.state.to_dict()
    return out, got
