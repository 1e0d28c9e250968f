"""A whole game: the timed model's events with the table moving under them — the interpreter of game traces.

A *game trace* (``Trace.table``) is a trace of the timed model (model/interp/trace.py: turns, windows, grants, role
replacements, skills used, cards played) together with the table's own events, checked against the server's
rules of the table:

* ``draw`` — the turn player draws in 摸牌阶段 as many cards as the draw-count fold says (phase/DrawPhase.kt);
* ``send`` — this turn's sender sends a message card (model/interp/path.py); the message windows that follow are
  its path: moved on only where the player may let it pass, accepted only where he may, received by the player it
  is in front of after 争夺阶段;
* ``play`` — a card leaves its user's hand (a physical card of a type that may be played as the declared one:
  conversions and bans), raising a UseCardEvent; ``resolve`` — the card's effect (its ``do``) happens unless a
  skill cancelled it, raising a FinishResolveCardEvent;
* ``use`` — an ActiveSkill is used: its window and condition, its cost (a role turned face up), its effect;
* ``fire`` — a TriggeredSkill answers a pending event (model/interp/fires.py) and does its effect;
* ``die`` — the dying player nobody saved dies (model/interp/dying.py).

Between them the server's process nodes run (``ProcessFsm.resolve``): the triggered skills are offered the events,
then the win checks (model/interp/win.py) end the game when someone wins, then every living player with three
black messages is dying — so nothing else may happen until the 濒死求澄清 window of the first of them. A trace of
the timed model that a game trace contains (its *skeleton*: the same events without the table's) is one the timed
model allows: the table only narrows what can happen.

The z3 twin is ``checks/enc/game.py``: the same events as a straight-line program over symbolic table values.
"""
from __future__ import annotations

from ..reason import Reason, during, echoed, window as win_of
from .trace import EVENT_KINDS as SKELETON_KINDS, Event, Run, Runner, apply_replace, moment, replace_errors, \
    replacing_inst
from .grants import one_granted, one_grants, recipients, set_granted, set_grants, site_of, unsure_sites
from .core import env_of, evaluate, live_kinds
from .draw import draw_count
from .plays import can_play
from .receive import receive
from .result import game_result
from .send import send_allowed
from .usable import requires_met, skill_usable_now
from . import dying as D
from . import path as P
from . import win as W
from .fires import fire_errors
from .ops import Doing, has_prose, run_ops
from .table import COUNT_FIELDS, add_message, class_of, counts, counts_are_area, decompose, set_area

#: the table's events (a game trace has these besides the timed model's)
TABLE_KINDS = ("draw", "send", "resolve", "fire", "die")
GAME_KINDS = SKELETON_KINDS + TABLE_KINDS
#: events after which the server runs a process node (triggers dealt, wins and dying checked): every event but a
#: card's resolution in progress, a skill answering a pending event, a death being dealt with, and a grant an effect
#: hands out (the server adds it inside the effect's own resolution: ``skills += …``, no process node between)
NODE_FREE = ("fire", "resolve", "die", "give")
#: events inside the answering of the pending events: a skill answering one, and the grant its effect hands out as it
#: resolves — neither closes the pending events (Game.dealListeningSkill asks the next skill once the effect, its
#: grant included, is done) nor lets the dead's cards go (discard_dead)
ANSWERING = ("fire", "give")


def window_players(st) -> dict:
    """The players of the window a card's target condition reads (model/turn.target_players): the turn player, the
    sender and the player the message is in front of, the dying player, and each one's nearest living neighbours
    (``front_left``: server Player.getNextLeftAlivePlayer); -1 for nobody (not there now, or nobody else alive: equal
    to no player, as the twin's NONE). Twin: checks/enc/game.GameEncoding.window_players."""
    from .table import next_alive
    n = len(st.seats)
    ok = lambda v: isinstance(v, int) and not isinstance(v, bool) and 0 <= v < n     # noqa: E731
    out = {k: (v if ok(v) else -1) for k, v in (("turn_player", st.turn), ("sender", st.sender),
                                                ("front", st.in_front), ("dying", st.dying))}
    for k, v in list(out.items()):
        for side in ("left", "right"):
            got = next_alive(st, v, side) if v != -1 else None
            out[f"{k}_{side}"] = -1 if got is None else got
    return out


def target_meets(cat, st, seat: int, card_id: str, target) -> bool:
    """Does ``target`` meet the condition of ``seat``'s card in the state's window (``[[card]] target.when``, with the
    window's players bound)? True where the card has no condition there."""
    spec = getattr(cat.cards[card_id], "target", None)
    cond = spec.when.get(st.window, spec.when.get("*")) if spec is not None and spec.when else None
    if cond is None:
        return True
    env = env_of(cat, st, seat).bind("target", target)
    for name, v in window_players(st).items():
        env = env.bind(name, v)
    return bool(evaluate(cond, env))


def _result_pass(cat, st, declared, winners, kind):
    return game_result(cat, st, declared, winners, kind)


class GameRunner(Runner):
    KINDS = GAME_KINDS

    def __init__(self, cat, trace):
        super().__init__(cat, trace)
        for s in self.st.seats:              # the table: every seat's message area exactly, its counts read off it
            if s.area is None:
                area = decompose({f: getattr(s, f) for f in COUNT_FIELDS})
                if area is not None:
                    set_area(s, area)
            else:
                set_area(s, dict(s.area))
        self.pending: list = []              # events raised since the last process node (model.events kinds)
        self.card: dict | None = None        # the card being used (between play and resolve)
        self.acted: set = set()              # (seat, card or rule) that played, used or fired this turn
        self.drawn = False
        self.ending = False                  # the turn must end now (end_turn, the turn player out)
        self.discarded = False               # this turn's message was discarded (no receiver)
        self.send_via: dict | None = None    # an effect sends the message (send_message)
        self.named_sender: int | None = None  # the player another's effect made this turn's sender (密令's target)
        self.prose: list = []                # indices of events whose effect has a part in words
        self.consumed: list = []             # (seat, skill) used and gone once its grants are handed out
        self.to_discard: list = []           # who died: hand and area discarded once the death's triggers were asked
        self.done: dict = {}                 # event index -> the ops its effect did (ops.done_entry)
        self.owed: list = []                 # effects just done that hand a grant to a set of players (gives_at_once)
        self.at_once: dict | None = None     # the run of gives of such a grant being read
        self.owed_one: list = []             # effects just done that hand a grant to one player (gives_to_one)
        self.resolving: list = []            # [seat, skill entry, its card resolved]: held until that resolution ends

    def setup_errors(self) -> list:
        why = super().setup_errors()
        for i, s in enumerate(self.trace.setup.seats):
            five = {f: getattr(s, f) for f in COUNT_FIELDS}
            if s.area is None and decompose(five) is None:
                why.append(Reason(f"座位{i}：情报数目自相矛盾（没有一组情报牌是这样的）",
                                  f"seat {i}: its message counts contradict each other (no set of message cards has them)"))
            if s.area is not None:               # the area is the table; counts written beside it must be its own
                if not counts_are_area(five, dict(s.area)):
                    why.append(Reason(f"座位{i}：情报数目与情报区不符", f"seat {i}: its message counts are not its area's"))
                five = counts(dict(s.area))
            if s.alive and not s.lost and five["black_messages"] >= 3:
                why.append(Reason(f"座位{i}：开局就有三张黑色情报却还活着", f"seat {i}: alive with three black messages at the start"))
            if not s.alive and s.hand_count:
                why.append(Reason(f"座位{i}：已死亡却有手牌", f"seat {i}: dead with cards in hand"))
            if s.hand_count < 0 or any(k < 0 for _, k in (s.area or ())):
                why.append(Reason(f"座位{i}：牌数不能为负", f"seat {i}: a negative number of cards"))
        return why + W.deal_errors(self.trace.setup.seats)

    # -------------------------------------------------------------------------------- process nodes
    def raise_(self, kind: str, roles: dict, words: dict | None = None) -> None:
        self.pending.append({"kind": kind, "roles": roles, "words": words or {}, "answered": set(), "at": self.k})

    def node(self, ev: Event) -> bool:
        """The process node before ``ev``: the game must not have ended, and a dying player is dealt with first.
        Returns False when ``ev`` cannot happen at all."""
        st = self.st
        self.gives_at_once(ev)
        self.gives_to_one(ev)
        if ev.kind not in ANSWERING:
            self.discard_dead()
        if st.winners is None and ev.kind not in NODE_FREE and self.card is None and st.window not in ("dying",):
            self.check_win()
        if st.winners is not None:
            self.bad(Reason("游戏已经结束", "the game is over"))
            return False
        if self.card is not None and ev.kind not in ("fire", "resolve", "give"):
            self.bad(Reason("上一张牌还没有结算", "the card being used has not resolved yet"))
        q = D.dying_queue(st)
        if q and ev.kind not in NODE_FREE and not (st.window == "dying" and st.dying == q[0]):
            if not (ev.kind == "window" and ev.window == "dying" and ev.dying == q[0]):
                self.bad(Reason(f"座位{q[0]}有三张黑色情报：先要濒死求澄清", f"seat {q[0]} has three black messages: he is dying first"))
        if ev.kind not in ANSWERING and ev.kind != "resolve":
            self.pending = []
            self.end_resolution()
        return True

    def end_resolution(self) -> None:
        """A grant of ``lifetime = "resolution"`` (将计就计·待发, 顺势而为·待发, 就计·收牌) is held from its give until the answers
        to the next card's finishing end — the process node after that card's resolve — then it is gone. Server: the
        skill answering the UseCardEvent adds it (skill/JiangJiJiuJi.kt ``askWhom.skills += JiangJiJiuJi2()``;
        ShunShiErWei.kt, JiuJi.kt alike); ResolveCard's resolution goes on to OnFinishResolveCard, whose onSwitch raises
        the FinishResolveCardEvent it answers, and it removes itself as it fires (``skills.filterNot { it === this }``).
        A trace that ends before then ends with it held. Twin: checks/enc/game.GameEncoding.end_resolution."""
        for seat, inst, done in self.resolving:
            if done:
                self.st.seats[seat].skills = [i for i in self.st.seats[seat].skills if i is not inst]
        self.resolving = [r for r in self.resolving if not r[2]]

    # -------------------------------------------------------------------------------- grants to every player
    def gives_at_once(self, ev: Event) -> None:
        """An effect handing a grant to a set of players (``grant`` op with ``to = "all"`` / ``"others"``: 借车运货,
        强令, 冷血训练's ban, 变则通's declaration, 诱敌深入) hands it to every one of them at once (the server's
        ``g.players.forEach { it.skills += … }``: every seat, dead ones and the user included), right after it: its
        give events form one run — consecutive, of one site and giver, every recipient once, the same arguments —
        that comes before any other event, another skill answering the same event included (the server adds the
        grant inside the effect's own resolution; Game.dealListeningSkill asks the next skill only once it is
        done), but the message the effect sends (冷血训练's ban is handed out as it is sent, the site's ``at``); as
        many runs as the effect's grant ops that ran (a declined ``may`` hands out nothing), and none without such
        an effect. A give is no process node (NODE_FREE, ANSWERING): the events the effect answered stay pending.
        Twin: checks/enc/game.GameEncoding.gives_at_once."""
        give = site_of(self.cat, ev.site) if ev.kind == "give" else None
        member = give is not None and self.seat_ok(ev.giver) and self.seat_ok(ev.seat) and set_granted(self.cat, give)
        run = self.at_once
        goes_on = member and run is not None and run["key"] == (ev.site, ev.giver) and ev.seat not in run["seats"]
        if run is not None and not goes_on:
            self.close_at_once()
        if ev.kind == "send" and any(o["sends"] and not o["sent"] for o in self.owed):
            for o in self.owed:
                o["sent"] = o["sent"] or o["sends"]
        elif ev.kind != "give":
            self.settle_owed()
        if goes_on:
            run["seats"].append(ev.seat)
            run["args"].append(_args_key(ev.args))
        elif member:
            o = next((o for o in self.owed if o["src"] == (ev.giver, give.giver) and o["grant"] == give.grant), None)
            to = o["to"] if o is not None else "all"
            self.at_once = {"key": (ev.site, ev.giver), "seats": [ev.seat], "args": [_args_key(ev.args)],
                            "want": recipients(to, ev.giver, self.n), "give": give}
            what = self.cat.name_of(give.giver)
            if o is None:
                self.bad(Reason(f"{what}只在它的效果刚做完时一次给出（给每名角色）：这里没有这样的效果",
                                f"{what} hands its grant out only right after its effect, to every player at once: no "
                                f"such effect was just done"))
            else:
                o["runs"] += 1
                if o["runs"] > o["ran"]:
                    self.bad(Reason(f"{what}的效果没有给出（或已经给出过）{self.cat.name_of(give.grant)}",
                                    f"{what}'s effect did not hand out {self.cat.name_of(give.grant)} (or has already)"))

    # -------------------------------------------------------------------------------- grants to one player
    def gives_to_one(self, ev: Event) -> None:
        """An effect handing a grant to one player (``grant`` op with ``to`` naming one: ``self``, ``target``,
        ``chosen`` …: 冷血训练's MustLockOne to its user, 先发制人's InvalidSkill to the chosen player, 调虎离山's to its
        target …) hands it to that player as it resolves (the server's ``r.skills += …`` inside the effect:
        skill/LengXueXunLian.kt ExecuteLengXueXunLian.resolve, XianFaZhiRen.kt, card/DiaoHuLiShan.kt): right after
        the effect — only its other gives between, before anything else: before another skill answers the same
        event (Game.dealListeningSkill asks the next one only once the effect, its grant included, is done), before
        the card whose use it answered resolves (就计, 将计就计, 顺势而为 add theirs as they answer UseCardEvent), and
        before the message it sends — one give of the giver's site to each player its grant ops named, as many as
        ran (a declined ``may`` hands out nothing); none without such an effect, none to another player.
        Twin: checks/enc/game.GameEncoding.gives_to_one."""
        give = site_of(self.cat, ev.site) if ev.kind == "give" else None
        if give is not None and self.seat_ok(ev.giver) and self.seat_ok(ev.seat) and one_granted(self.cat, give):
            o = next((o for o in self.owed_one if o["src"] == (ev.giver, give.giver) and o["grant"] == give.grant),
                     None)
            if o is None:
                what = self.cat.name_of(give.giver)
                self.bad(Reason(f"{what}只在它的效果刚做完时给出{self.cat.name_of(give.grant)}：这里没有这样的效果",
                                f"{what} hands {self.cat.name_of(give.grant)} out only right after its effect: no such "
                                f"effect was just done"))
            else:
                o["got"][ev.seat] = o["got"].get(ev.seat, 0) + 1
            return
        if ev.kind != "give":
            self.settle_one()

    def settle_one(self, ending: bool = False) -> None:
        """Each effect just done has handed its grant to each player its grant ops named, once per op that ran (at
        most that, where its site's condition has a part the catalogue cannot say: ``unsure_sites``). A trace that
        ends before any of an effect's gives stops inside the effect's step (as one that ends before 冷血训练's message
        is sent owes its ban): excused; one that gave some of them must give all."""
        for o in self.owed_one:
            if ending and not o["got"]:
                continue
            short = any(k > o["want"].get(s, 0) for s, k in o["got"].items())
            if o["got"] != o["want"] and (not o["unsure"] or short):
                what, grant = self.cat.name_of(o["src"][1]), self.cat.name_of(o["grant"])
                want = "、".join(f"座位{s}" for s in sorted(o["want"])) or "没有人"
                got = "、".join(f"座位{s}" for s in sorted(o["got"])) or "没有人"
                self.bad(Reason(f"{what}的效果把{grant}给{want}：紧接着给出的是{got}",
                                f"{what}'s effect hands {grant} to "
                                f"{', '.join(f'seat {s}' for s in sorted(o['want'])) or 'nobody'}: right after it, "
                                f"it goes to {', '.join(f'seat {s}' for s in sorted(o['got'])) or 'nobody'}"))
        self.owed_one = []

    def close_at_once(self) -> None:
        run, self.at_once = self.at_once, None
        what = self.cat.name_of(run["give"].giver)
        if sorted(run["seats"]) != list(run["want"]):
            self.bad(Reason(f"{what}同时给每名角色（座位{'、'.join(map(str, run['want']))}）：这里只给了座位"
                            f"{'、'.join(map(str, run['seats']))}",
                            f"{what} hands its grant to every player at once (seats "
                            f"{', '.join(map(str, run['want']))}): here only to seat(s) {', '.join(map(str, run['seats']))}"))
        if len(set(run["args"])) > 1:
            self.bad(Reason(f"{what}同时给每名角色的是同一个技能：参数不同", f"{what} hands every player the same grant: "
                                                                    f"its arguments differ"))

    def settle_owed(self, ending: bool = False) -> None:
        """Each effect just done has handed its grant out as many times as its grant ops ran (at the trace's end an
        effect whose message is still to be sent is excused: its grant comes as it is sent)."""
        for o in self.owed:
            if ending and o["sends"] and not o["sent"]:
                continue
            if o["runs"] < o["ran"]:
                what = self.cat.name_of(o["src"][1])
                self.bad(Reason(f"{what}的效果给每名角色{self.cat.name_of(o['grant'])}：紧接着没有给出",
                                f"{what}'s effect hands {self.cat.name_of(o['grant'])} to every player: it is not handed "
                                f"out right after it"))
        self.owed = []

    def owe(self, actor: int, source, ops, d) -> None:
        """An effect just done owes a run of gives for each grant it hands to a set (``gives_at_once``), and a give
        to each player it handed a grant of its own (``gives_to_one``)."""
        from ..effects import walk
        for grant in one_grants(ops):
            want: dict = {}
            for g, t, seat in d.grants:
                if g == grant and t not in ("all", "others") and seat is not None:
                    want[seat] = want.get(seat, 0) + 1
            same = next((o for o in self.owed_one if o["src"] == (actor, source) and o["grant"] == grant), None)
            if same is not None:
                for seat, m in want.items():
                    same["want"][seat] = same["want"].get(seat, 0) + m
            else:
                src = self.cat.cards.get(source) or self.cat.skills.get(source)
                self.owed_one.append({"src": (actor, source), "grant": grant, "want": want, "got": {},
                                      "unsure": unsure_sites(src, grant)})
        sends = any(o.op == "send_message" for o in walk(ops))
        for grant, to in set_grants(ops).items():
            ran = sum(1 for g, t, _ in d.grants if g == grant and t in ("all", "others"))
            self.owed.append({"src": (actor, source), "grant": grant, "to": to, "ran": ran, "runs": 0,
                              "sends": sends, "sent": False})

    def discard_dead(self) -> None:
        """The dead's hand and message area go to the discard pile (AfterDieGiveCard) — after the triggers of the
        death were asked: WaitForDieGiveCard is a process node, so the PlayerDieEvent is dealt (如归, 承志 read his
        messages and hand) before AfterDieGiveCard discards them."""
        for seat in self.to_discard:
            D.discard_all(self.st, seat)
        self.to_discard = []

    def check_win(self) -> None:
        st = self.st
        got = W.check_win(self.cat, st, _result_pass) or W.check_one_camp(self.cat, st, _result_pass)
        if got is not None:
            st.declared, st.winners = got

    # -------------------------------------------------------------------------------- the events
    def steps(self) -> None:
        for k, ev in enumerate(self.trace.events):
            self.k = k
            self.moments.append(moment(self.st, self.turns))
            handler = getattr(self, f"on_{ev.kind}", None) if ev.kind in self.KINDS else None
            if handler is None:
                self.bad(Reason(f"未知的事件「{echoed(ev.kind)}」", f"unknown event “{echoed(ev.kind)}”"))
                continue
            if ev.kind != "give":
                for seat, inst in self.consumed:
                    self.st.seats[seat].skills = [i for i in self.st.seats[seat].skills if i is not inst]
                self.consumed = []
            if not self.node(ev):
                continue
            handler(ev)

    def on_turn(self, ev: Event) -> None:
        st = self.st
        if self.seat_ok(ev.seat):
            s = st.seats[ev.seat]
            if not s.alive or s.lost:
                self.bad(Reason(f"座位{ev.seat}已死亡：没有他的回合", f"seat {ev.seat} is dead: he has no turn"))
            elif st.window is not None:
                nxt = next((i for i in ((st.turn + d) % self.n for d in range(1, self.n + 1))
                            if st.seats[i].alive and not st.seats[i].lost), None)
                if nxt != ev.seat:
                    self.bad(Reason(f"下一回合是座位{nxt}的", f"the next turn is seat {nxt}'s"))
        super().on_turn(ev)
        self.drawn = self.ending = self.discarded = False
        self.acted, self.send_via, self.named_sender = set(), None, None
        st = self.st
        st.message_sent = st.message_received = False
        st.message, st.message_dir_sent, st.message_face_up = frozenset(), None, False
        for s in st.seats:
            s.locked = False

    def on_draw(self, ev: Event) -> None:
        st = self.st
        if st.window != "draw" or self.drawn:
            self.bad(Reason("只在摸牌阶段摸一次牌", "cards are drawn once, in the draw phase"))
            return
        n = draw_count(self.cat, st, st.turn)
        if ev.n is not None and ev.n != n:
            self.bad(Reason(f"摸牌阶段应摸{n}张，不是{ev.n}张", f"the draw phase draws {n} cards, not {ev.n}"))
        st.seats[st.turn].hand_count += max(0, n)
        if ev.n is None:
            ev.n = n            # the trace tells how many were drawn (as on_send records where its card came from)
        self.drawn = True

    def on_window(self, ev: Event) -> None:
        st = self.st
        w, prev = ev.window, st.window
        if prev == "draw" and w != "dying" and not self.drawn:
            self.bad(Reason("摸牌阶段还没有摸牌", "the draw phase has not drawn yet"))
        if prev == "dying" and w != "dying" and st.dying is not None and st.seats[st.dying].alive \
                and not D.saved(st, st.dying):
            self.bad(Reason(f"没有人救座位{st.dying}：他要死亡（die 事件）", f"nobody saved seat {st.dying}: he dies (a die event)"))
        if w == "dying":
            why = D.dying_errors(st, ev.dying) if self.seat_ok(ev.dying) else ""
            if why:
                self.bad(why)
        base = prev if prev != "dying" else st.interrupted
        if w in ("send", "fight", "receive") and self.seat_ok(ev.in_front):
            self.message_step(base, w, ev)
        if w == "turn_end":
            self.turn_end_ok(base)
        before = st.in_front
        super().on_window(ev)
        st = self.st
        if w in ("send", "fight", "receive") and before is not None and st.in_front != before and base == w == "fight":
            self.bad(Reason("争夺阶段里情报只会被牌或技能移动", "in the fight phase only a card or skill moves the message"))
        if w == "send_start":
            self.raise_("send_phase_start", {"turn_player": st.turn})
        if w == "turn_end":
            self.raise_("turn_end", {"turn_player": st.turn})
            got = W.check_disturber_win(self.cat, st, _result_pass)
            if got is not None:
                st.declared, st.winners = got

    def message_step(self, base, w: str, ev: Event) -> None:
        """The message's path (model/interp/path.py) as the message windows move it."""
        st = self.st
        if base == "send_start" and w == "send":
            self.bad(Reason("情报还没有传出（send 事件）", "the message has not been sent (a send event)"))
        elif base == "send" and w == "send":
            why = P.pass_errors(self.cat, st, ev.in_front, receive)
            if why:
                self.bad(why)
            else:
                st.in_front = ev.in_front
                self.raise_("move", {"front": ev.in_front}, {"message_face_up": st.message_face_up,
                                                             "message_colours": len(st.message)})
        elif base == "send" and w == "fight":
            why = P.accept_errors(self.cat, st, receive) or (
                "" if ev.in_front == st.in_front else Reason("选择接收的不是情报面前的角色", "not the player the message is in front of"))
            if why:
                self.bad(why)
            else:
                self.raise_("choose_receive", {"front": st.in_front}, {"message_colours": len(st.message)})
        elif base == "fight" and w == "fight":
            if ev.in_front != st.in_front:
                self.bad(Reason("争夺阶段里情报只会被牌或技能移动", "in the fight phase only a card or skill moves the message"))
        elif w == "receive":
            why = P.receive_errors(st, base) or (
                "" if ev.in_front == st.in_front else Reason("接收情报的是情报面前的角色", "the player it is in front of receives it"))
            if why:
                self.bad(why)
                return
            cls = class_of(st.message)
            add_message(st.seats[st.in_front], cls)
            st.message_received = True
            self.raise_("receive", {"sender": st.sender, "receiver": st.in_front},
                        {"message_in_area": True, "message_colours": len(st.message)})
            self.raise_("receive_phase", {"sender": st.sender, "receiver": st.in_front})
        elif w in ("send", "fight") and not st.message_sent:
            self.bad(Reason("情报还没有传出", "no message has been sent"))

    def turn_end_ok(self, base) -> None:
        """The turn may end: its message received or discarded, or its player out, or an effect ended it; a turn
        player with no card to send at 传递阶段开始时 loses (phase/SendPhaseStart.kt)."""
        st = self.st
        tp = st.seats[st.turn]
        if st.message_received or self.ending or not tp.alive or tp.lost:
            return
        if base in ("send", "fight") and st.message_sent:
            if base == "send" and P.next_stop(st) is None or base == "fight" and (st.in_front is None or not st.seats[st.in_front].alive):
                self.discarded = True
                return
        if base == "send_start" and not st.message_sent and tp.hand_count == 0 and not self._sends_without_hand(st.turn):
            tp.alive, tp.lost = False, True
            set_area(tp, {})
            return
        self.bad(Reason("回合结束前情报要传出并被接收（或被弃置）", "before the turn ends its message is sent and received (or discarded)"))

    def _sends_without_hand(self, seat: int) -> bool:
        """Holds a live skill that sends a message from elsewhere than the hand (冷血训练: the server's exception)."""
        from ..effects import sends_from_elsewhere
        for inst in self.st.seats[seat].skills:
            rule = self.cat.skills[inst.rule]
            if "ActiveSkill" in live_kinds(self.cat, inst) and sends_from_elsewhere(rule.do):
                return True
        return False

    def on_send(self, ev: Event) -> None:
        st = self.st
        src = ev.source or "hand"
        if src != "hand" or self.send_via is not None:
            via = self.send_via or {}
            if via.get("from") != src or via.get("by") != ev.seat:
                self.bad(Reason("只有牌或技能的效果才能这样传出情报", "only a card's or skill's effect sends a message so"))
                return
        if self.send_via is not None and "lock" in self.send_via:
            # the effect's send locks the player it names, and him alone (冷血训练: OnSendCard with listOf(lockPlayer),
            # skill/LengXueXunLian.kt resolveProtocol)
            lock = self.send_via["lock"]
            if lock is None or list(ev.locks or ()) != [lock]:
                self.bad(Reason(f"这次传出的情报锁定效果所选的角色（座位{lock}）",
                                f"the message this effect sends is locked on the player it names (seat {lock})"))
        ev.source = src
        # whose hand gives the card: the effect's ``of`` (诱敌深入: the user's), the sender's when it names nobody
        hand_of = self.send_via.get("of") if self.send_via is not None and src == "hand" else None
        why = P.send_errors(self.cat, st, ev, send_allowed, hand_of)
        if why:
            self.bad(why)
            return
        # only the turn player sends (SendPhaseStart.whoseTurn), or the player a card or skill of another player made
        # the sender this turn (card/MiLing.kt: ExecuteMiLing, OnSendCard with the target as the sender; its target may
        # send with 冷血训练 instead) — an effect of his own (冷血训练's send_message by self) does not make him one
        if ev.seat != st.turn and ev.seat != self.named_sender:
            self.bad(Reason("只有回合角色传出情报（除非别人的牌或技能让他传出，如密令）",
                            "only the turn player sends the message (unless another player's card or skill makes him "
                            "the sender, as 密令 does)"))
            return
        if src == "message_area":
            area = dict(st.seats[ev.seat].area or ())
            cls = class_of(ev.colours)
            if area.get(cls, 0) < 1:
                self.bad(Reason("情报区没有这张情报", "no such message in his area"))
                return
            add_message(st.seats[ev.seat], cls, -1)
        P.apply_send(st, ev, hand_of)
        if self.send_via is not None:
            st.message_face_up = self.send_via.get("face") == "up"
        self.send_via = None
        # the message stops in front of its first stop: the send phase's first window (OnSendCard → SendPhaseIdle)
        super().on_window(Event("window", window="send", in_front=ev.to, sender=ev.seat))
        self.raise_("send", {"sender": ev.seat, "target": ev.to}, {"dir": ev.dir, "message_colours": len(ev.colours or ())})
        self.raise_("move", {"front": ev.to}, {"message_face_up": self.st.message_face_up,
                                               "message_colours": len(ev.colours or ())})

    def on_play(self, ev: Event) -> None:
        st = self.st
        if not self.seat_ok(ev.seat):
            return super().on_play(ev)
        s = st.seats[ev.seat]
        actual = ev.actual or ev.card
        if not s.alive:
            self.bad(Reason(f"座位{ev.seat}已死亡", f"seat {ev.seat} is dead"))
        elif s.hand_count < 1:
            self.bad(Reason(f"座位{ev.seat}没有手牌可出", f"seat {ev.seat} has no card in hand to play"))
        elif ev.card in self.cat.cards and not can_play(self.cat, st, ev.seat, actual, ev.card):
            self.bad(Reason(f"座位{ev.seat}的{self.cat.name_of(actual)}不能当作{self.cat.name_of(ev.card)}打出",
                            f"seat {ev.seat} cannot play a {self.cat.name_of(actual)} as {self.cat.name_of(ev.card)}"))
        super().on_play(ev)
        if ev.card not in self.cat.cards:
            return
        why = self.target_errors(ev) or self.requires_errors(ev, self.cat.cards[ev.card])
        if why:
            self.bad(why)
        s.hand_count = max(0, s.hand_count - 1)
        self.card = {"seat": ev.seat, "card": ev.card, "target": ev.target, "cancelled": False}
        self.acted.add((ev.seat, ev.card))
        self.raise_("use_card", {"user": ev.seat, "target": ev.target},
                    {"card": ev.card, "real_card": True, "has_target": ev.target is not None, "card_valid": True})

    def target_errors(self, ev: Event) -> Reason | str:
        """The card's target (``[[card]] target``): none, any living player, another one — and its condition."""
        card = self.cat.cards[ev.card]
        spec = getattr(card, "target", None)
        who = spec.who if spec is not None else "none"
        if who == "none":
            return "" if ev.target is None else Reason(f"{card.name}没有目标", f"{card.name} has no target")
        if not self.seat_ok(ev.target) or not self.st.seats[ev.target].alive:
            return Reason(f"{card.name}要指定一名存活的角色", f"{card.name} needs a living target")
        if who == "other" and ev.target == ev.seat:
            return Reason(f"{card.name}只能指定其他角色", f"{card.name} targets another player only")
        if not target_meets(self.cat, self.st, ev.seat, ev.card, ev.target):
            return Reason(f"{card.name}的目标不满足条件", f"the target of {card.name} does not meet its condition")
        return ""

    def use_players(self, ev: Event) -> dict:
        """The players a use's ``requires`` reads (usable.requires_met): its target and chosen player where it names
        them, and the window's (window_players)."""
        out = dict(window_players(self.st))
        for w in ("target", "chosen"):
            v = getattr(ev, w)
            if v is not None:
                out[w] = v if self.seat_ok(v) else -1
        if out.get("target", -1) == -1 and "chosen" in out:
            # the player the server's request names (its targetPlayerId) is the use's target where its effect reads
            # one, else the player its effect chooses (先发制人, 急送: ``do`` reads ``chosen``)
            out["target"] = out["chosen"]
        return out

    def requires_errors(self, ev: Event, rule, inst=None) -> Reason | str:
        """What the server checks before it lets the card or skill be used (``requires``: card/*.kt canUse,
        skill/*.kt executeProtocol), read before the card leaves the hand and before any effect."""
        if rule.requires is None or requires_met(self.cat, self.st, ev.seat, rule.requires, self.use_players(ev), inst):
            return ""
        name = getattr(rule, "label", None) or rule.name
        return Reason(f"{name}的使用条件不满足（服务器拒绝这次使用）",
                      f"the use of {rule.name} does not meet what the server checks before it (requires)")


    def roles(self, actor: int, extra: dict | None = None) -> dict:
        st = self.st
        out = {"self": actor, "turn_player": st.turn, "sender": st.sender, "front": st.in_front,
               "dying": st.dying}
        out.update(extra or {})
        return {k: v for k, v in out.items() if self.seat_ok(v)}

    def do(self, actor: int, ops, ev: Event, roles: dict, words: dict | None = None, params: dict | None = None,
           source=None) -> Doing:
        """Do an effect (model/interp/ops.py) and raise what it raises; the event's decisions are consumed. ``params``:
        the arguments of the skill-list entry whose effect it is (a grant's, e.g. 江湖令's colour), as its
        conditions read them (core.env_of)."""
        for w in ("chosen", "chosen2"):
            v = getattr(ev, w)
            if v is not None and not (self.seat_ok(v) and self.st.seats[v].alive):
                self.bad(Reason(f"效果所选的角色（{w}）不是存活的角色", f"the player the effect chooses ({w}) is not a living player"))
        picked = {w: getattr(ev, w) for w in ("chosen", "chosen2") if self.seat_ok(getattr(ev, w))}
        d = Doing(self.cat, self.st, actor, {**roles, **picked},
                  dict(ev.choices or {}), dict(words or {}))
        d.by_skill = ev.kind in ("use", "fire")        # a skill's effect (a resolve is a card's)
        d.params = dict(params or {})
        run_ops(d, ops)
        self.owe(actor, source, ops, d)
        self.done.setdefault(self.k, []).extend(d.done)
        for why in d.errors:
            self.bad(why)
        for kind, r, *w in d.raised:
            self.raise_(kind, r, w[0] if w else None)
        if d.sent is not None:
            self.send_via = d.sent
            if d.sent.get("by") is not None and d.sent.get("by") != actor:
                self.named_sender = d.sent["by"]      # 密令: the effect makes another player this turn's sender
        if d.ends_turn:
            self.ending = True
        for s in d.killed:
            self.st.seats[s].alive = False
            self.raise_("die", {"victim": s})
        if d.prose or has_prose(ops):
            self.prose.append(self.k)
        return d

    def on_resolve(self, ev: Event) -> None:
        card = self.card
        if card is None:
            self.bad(Reason("没有正在结算的牌", "no card is being used"))
            return
        self.card = None
        c = self.cat.cards[card["card"]]
        if not card["cancelled"]:
            self.do(card["seat"], c.do, ev, self.roles(card["seat"], {"target": card["target"], "user": card["seat"]}),
                    source=card["card"])
        self.raise_("card_resolved", {"user": card["seat"], "target": card["target"]},
                    {"card": card["card"], "real_card": True, "has_target": card["target"] is not None})
        for r in self.resolving:             # its card has finished: gone once the answers to that end (end_resolution)
            r[2] = True

    def on_use(self, ev: Event) -> None:
        st = self.st
        rule = self.cat.skills.get(ev.rule) if isinstance(ev.rule, str) else None
        if rule is not None and rule.has("TriggeredSkill") and not rule.has("ActiveSkill"):
            self.bad(Reason(f"{rule.label}是触发技：它回应事件（fire），不是主动发动",
                            f"{rule.name} is a triggered skill: it answers an event (fire), it is not used"))
            return
        insts = [i for i in st.seats[ev.seat].skills if i.rule == ev.rule and not i.used] \
            if self.seat_ok(ev.seat) and rule is not None else []
        if insts and rule.has("ActiveSkill") and not skill_usable_now(self.cat, st, ev.seat, insts[0]):
            self.bad(Reason(f"座位{ev.seat}现在不能发动{rule.label}", f"seat {ev.seat} cannot use {rule.name} now"))
        if insts and rule.has("ActiveSkill"):          # checked before its cost (the role turned up) and its effect
            why = self.requires_errors(ev, rule, insts[0])
            if why:
                self.bad(why)
        if insts and rule.flips:
            if st.seats[ev.seat].face_up:
                self.bad(Reason(f"{rule.label}要翻开角色牌：角色已经正面朝上", f"{rule.name} turns the role face up: it already is"))
            st.seats[ev.seat].face_up = st.seats[ev.seat].ever_face_up = True
            self.done.setdefault(self.k, []).append(cost_flip(ev.seat, st.dying))
        super().on_use(ev)
        if not insts:
            return
        if ev.target is not None and not (self.seat_ok(ev.target) and st.seats[ev.target].alive):
            self.bad(Reason(f"{rule.label}的目标不是存活的角色", f"the target of {rule.name} is not a living player"))
            return
        self.acted.add((ev.seat, ev.rule))
        self.do(ev.seat, rule.do, ev, self.roles(ev.seat, {"target": ev.target} if ev.target is not None else {}),
                params=insts[0].args, source=ev.rule)
        if rule.consumed:                   # gone once used — after the grants its use hands out (give events next)
            self.consumed.append((ev.seat, insts[0]))

    def on_replace(self, ev: Event) -> None:
        """A role replacement in a game (server HouLaiRen.executeProtocol): the timed model's checks (trace.Runner),
        then the replacing skill's cost — its role turned face up (``flips``: playerSetRoleFaceUp) — and its effect
        (``do``: the messages it discards, messageCards.clear and deck.discard) before the new role's skills replace
        the list (ExecuteHouLaiRen: roleSkillsData)."""
        st, cat = self.st, self.cat
        why = replace_errors(cat, st, ev)
        if why:
            self.bad(why)
        inst = replacing_inst(cat, st, ev.seat, ev.via) if not why else None
        if inst is not None:
            rule = cat.skills[inst.rule]
            if rule.flips:
                st.seats[ev.seat].face_up = st.seats[ev.seat].ever_face_up = True
                self.done.setdefault(self.k, []).append(cost_flip(ev.seat, st.dying))
            self.acted.add((ev.seat, inst.rule))
            self.do(ev.seat, rule.do, ev, self.roles(ev.seat), params=inst.args, source=inst.rule)
        if self.seat_ok(ev.seat) and ev.character in cat.characters and st.window is not None:
            apply_replace(cat, st, ev.seat, ev.character)
        self.events_seq.append(self.k)

    def turn_face(self, ev: Event) -> bool:
        """In a game the table's own events turn faces: the cost above (``flips``) and the effect's flip ops."""
        return True

    def on_fire(self, ev: Event) -> None:
        st = self.st
        why, event, inst = fire_errors(self.cat, st, ev, self.pending)
        if why:
            self.bad(why)
            return
        rule = self.cat.skills[ev.rule]
        inst.used = True                         # the copy that answered (fires.fire_errors: the first whose guard holds)
        self.acted.add((ev.seat, ev.rule))
        roles, words = {}, {}
        if event is not None:
            event["answered"].add((ev.seat, ev.rule))
            roles, words = dict(event["roles"]), dict(event["words"])
        d = self.do(ev.seat, rule.do, ev, self.roles(ev.seat, roles), words, params=inst.args, source=ev.rule)
        if d.cancelled and self.card is not None:
            self.card["cancelled"] = True

    def on_die(self, ev: Event) -> None:
        st = self.st
        why = D.die_errors(st, ev.seat) if self.seat_ok(ev.seat) else Reason("死亡的不是座位", "not a seat")
        if why:
            self.bad(why)
            return
        D.apply_die(st, ev.seat)
        self.raise_("die", {"victim": ev.seat})
        got = W.check_killer_win(self.cat, st, [ev.seat], _result_pass)
        self.to_discard.append(ev.seat)          # discarded after the death's triggers (discard_dead)
        if got is None:
            got = W.check_one_camp(self.cat, st, _result_pass)
        if got is not None:
            st.declared, st.winners = got

    def on_give(self, ev: Event) -> None:
        give = site_of(self.cat, ev.site)
        if give is not None and self.seat_ok(ev.giver) and (ev.giver, give.giver) not in self.acted:
            what = self.cat.name_of(give.giver)
            self.bad(Reason(f"座位{ev.giver}本回合没有使用{what}：{what}不会给出技能",
                            f"seat {ev.giver} has not used {what} this turn: it hands nothing out"))
        held = len(self.st.seats[ev.seat].skills) if self.seat_ok(ev.seat) else 0
        super().on_give(ev)
        rule = self.cat.skills.get(give.grant) if give is not None else None
        if rule is not None and rule.lifetime == "resolution" and self.seat_ok(ev.seat) \
                and len(self.st.seats[ev.seat].skills) > held:
            self.resolving.append([ev.seat, self.st.seats[ev.seat].skills[-1], False])

    def finish(self) -> Run:
        if self.at_once is not None:
            self.close_at_once()
        self.settle_owed(ending=True)
        self.settle_one(ending=True)
        self.discard_dead()
        st = self.st
        if st.winners is None and self.card is None and st.window not in (None, "dying"):
            self.check_win()
        run = super().finish()
        run.done = self.done
        return run


def _args_key(args) -> tuple:
    """A give's arguments, comparable (lists as sorted tuples). Twin: checks/enc/game._args_key."""
    return tuple(sorted((k, tuple(sorted(v)) if isinstance(v, (list, tuple, set, frozenset)) else v)
                        for k, v in (args or {}).items()))


def cost_flip(seat: int, dying) -> dict:
    """The role turned face up as a skill's cost (``flips``), as an op done (ops.done_entry). Twin: enc.game's."""
    return {"op": "flip", "path": "cost", "seats": {"who": (seat,)}, "face": "up", "grant": None, "colour": None,
            "cards": (), "dying": dying}


def _walk(ops):
    from ..effects import walk
    return walk(ops)
