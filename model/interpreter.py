"""The reference interpreter: the meaning of every rule, in plain Python, on concrete states.

Each decision is one function, citing the design-note line it implements (``note L<n>`` refers to
``skill-architecture.md``) and saying where the server (CuteReimu/TheMessage) goes further; where the two
disagree this follows the server. The z3 encoder in ``skillproof.checks.encode`` is its independent twin:
same names, same clauses, written as symbolic folds instead of loops with early returns. Tests cross-check
the two on many random states.

Nothing here knows about z3.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import expr as E
from .catalogue import Catalogue, Ref, Rule
from .reason import Reason
from .state import SkillInst, State
from . import trace as T


# =========================================================================== expression evaluation
@dataclass
class Env:
    cat: Catalogue
    state: State
    players: dict                          # bound variable -> seat index ("self" always bound)
    params: dict = field(default_factory=dict)
    globals: dict = field(default_factory=dict)
    used: bool = False
    winners: frozenset = frozenset()
    declared: frozenset = frozenset()

    def bind(self, var: str, seat: int) -> "Env":
        return Env(self.cat, self.state, {**self.players, var: seat}, self.params, self.globals, self.used,
                   self.winners, self.declared)


def player_attr(env: Env, seat: int, name: str):
    """A player attribute of the documented vocabulary (model.vocab.PLAYER_ATTRS)."""
    st = env.state
    s = st.seats[seat]
    ch = env.cat.characters.get(s.character)
    if name == "female":
        return s.face_up and bool(ch and ch.female)           # server isFemale: face up and female
    if name == "male":
        return s.face_up and not bool(ch and ch.female)
    if name == "hidden":
        return bool(ch and ch.hidden)
    if name == "hand_empty":
        return s.hand_count == 0
    if name == "my_turn":
        return st.turn == seat
    if name == "is_sender":
        return st.sender == seat
    if name == "in_front":
        return st.in_front == seat
    if name == "dying":
        return st.dying == seat
    if name == "in_winners":
        return seat in env.winners
    if name == "in_declared":
        return seat in env.declared
    return getattr(s, name)


def evaluate(node, env: Env):
    """Evaluate a type-checked expression on a concrete state."""
    if isinstance(node, E.Lit):
        return node.value
    if isinstance(node, E.Unknown):
        return env.state.unknowns.get(node.key, False)
    if isinstance(node, E.Const):
        return node.value
    if isinstance(node, E.Var):
        if node.role == "player":
            return env.players[node.name]
        if node.role == "param":
            v = env.params[node.name]
            return frozenset(v) if isinstance(v, (list, tuple, set)) else v
        if node.role == "global":
            v = env.globals[node.name]
            return frozenset(v) if isinstance(v, (list, tuple, set)) else v
        raise ValueError(f"unresolved name {node.name}")
    if isinstance(node, E.Attr):
        seat = evaluate(node.obj, env)
        if node.name == "used":
            return env.used
        return player_attr(env, seat, node.name)
    if isinstance(node, E.Unary):
        v = evaluate(node.arg, env)
        return (not v) if node.op == "not" else -v
    if isinstance(node, E.Bin):
        op = node.op
        if op == "and":
            return bool(evaluate(node.left, env)) and bool(evaluate(node.right, env))
        if op == "or":
            return bool(evaluate(node.left, env)) or bool(evaluate(node.right, env))
        a, b = evaluate(node.left, env), evaluate(node.right, env)
        if op == "in":
            return a in b
        if op == "notin":
            return a not in b
        return {"==": lambda: a == b, "!=": lambda: a != b, "<": lambda: a < b, "<=": lambda: a <= b,
                ">": lambda: a > b, ">=": lambda: a >= b, "+": lambda: a + b, "-": lambda: a - b,
                "*": lambda: a * b}[op]()
    if isinstance(node, E.If):
        return evaluate(node.then, env) if evaluate(node.cond, env) else evaluate(node.other, env)
    if isinstance(node, E.SetLit):
        return frozenset(evaluate(i, env) for i in node.items)
    if isinstance(node, E.Quant):
        vals = [evaluate(node.body, env.bind(node.var, i)) for i in range(len(env.state.seats))]
        if node.kind == "any":
            return any(vals)
        if node.kind == "all":
            return all(vals)
        return sum(1 for v in vals if v)
    raise ValueError(f"cannot evaluate {type(node).__name__}")


def _env(cat, state, seat, inst: SkillInst | None = None, **globals_) -> Env:
    g = {"message": state.message, "message_dir": state.message_dir,
         "message_lockable": state.message_lockable}
    g.update(globals_)
    return Env(cat, state, {"self": seat}, dict(inst.args) if inst else {}, g,
               used=bool(inst and inst.used))


# ================================================================================ skill-list views
def live_kinds(cat: Catalogue, inst: SkillInst) -> frozenset:
    """The kinds an entry of the skill list has right now: none while wrapped in an InvalidSkill.

    note L84: "InvalidSkill … 是某个isInitialSkill=true的技能被无效后套了一个壳" — the shell is only an
    InvalidSkill (note L92: not Active, not Triggered), so the wrapped rule's kinds are gone.
    """
    if inst.invalid:
        return frozenset({"InvalidSkill", "Skill"})
    return cat.skills[inst.rule].closure


def _ref_value(ref: Ref, inst: SkillInst):
    if ref.kind == "any":
        return None
    if ref.kind == "card":
        return ref.value
    return inst.args.get(ref.value)


# =================================================================================== conversion
@dataclass(frozen=True)
class Conversion:
    ok: bool
    via: int | None          # index in the skill list of the conversion skill that fires (None: none)


def conversion(cat: Catalogue, state: State, seat: int, actual: str, declared: str,
               only_must: bool = False) -> Conversion:
    """Can ``seat`` use a card whose actual type is ``actual`` as ``declared``, and which
    ConvertCardSkill fires?

    note L109-113: when the card is actually A: (1) if A must be used as B and the declared type is not
    B, it can never be used; (2) otherwise a card declared as itself is played without conversion;
    (3) if A must / may be used as B and B is declared, the conversion happens.
    Server (skill/ConvertCardSkill.kt canUseCardTypes) goes further: rule (1) is a veto by *any*
    must-conversion whose source matches and whose targets lack the declared type, wherever it stands in
    the list; a must-conversion beats an optional one, otherwise the last acquired wins; a must-conversion
    "fires" even when declared == actual; initial skills of a face-down role are skipped; a source of
    "any card" matches every card; ``only_must`` (盛老板's 如臂指使) ignores optional conversions.
    """
    s = state.seats[seat]
    ok = actual == declared
    via: int | None = None
    via_must = False
    for i, inst in enumerate(s.skills):
        rule = cat.skills[inst.rule]
        if "ConvertCardSkill" not in live_kinds(cat, inst) or rule.convert is None:
            continue
        if not s.face_up and not face_down_applies(cat, rule):
            continue                                   # server: roleFaceUp || !isInitialSkill
        source = _ref_value(rule.convert.source, inst)
        if source is not None and source != actual:
            continue
        targets = [_ref_value(t, inst) for t in rule.convert.targets]
        must = rule.convert.must
        if declared not in targets:
            if must:
                return Conversion(False, None)       # note L111: vetoed outright
            continue
        if only_must and not must:
            continue
        ok = True                                     # note L113
        if declared != actual or must:
            if via is None or not via_must or must:  # must beats optional; else later wins
                via, via_must = i, must
    return Conversion(ok, via)


def face_down_applies(cat: Catalogue, rule: Rule) -> bool:
    """Whether a conversion applies while its owner is face down: ``rules.face_down_converts`` for initial
    skills, ``rules.face_down_grant_converts`` for granted ones."""
    return cat.rules.face_down_converts if rule.initial else cat.rules.face_down_grant_converts


def banned(cat: Catalogue, state: State, seat: int, declared: str) -> bool:
    """Is the declared card type banned for ``seat``?

    note L101: CannotPlayCard has two parameters, the banned card types and whether all cards are
    banned. Server (CannotPlayCard.kt cannotPlayCard): bans look at the *declared* type — the card's
    type after conversion — and every CannotPlayCard in the list counts.
    """
    for inst in state.seats[seat].skills:
        rule = cat.skills[inst.rule]
        if "CannotPlayCard" not in live_kinds(cat, inst) or rule.ban is None:
            continue
        if ban_all(rule, inst) or declared in ban_cards(rule, inst):
            return True
    return False


def ban_all(rule: Rule, inst: SkillInst) -> bool:
    b = rule.ban.all
    return bool(inst.args.get(b.value, False)) if isinstance(b, Ref) else bool(b)


def ban_cards(rule: Rule, inst: SkillInst) -> frozenset:
    c = rule.ban.cards
    if isinstance(c, Ref):
        return frozenset(inst.args.get(c.value, ()))
    return frozenset(r.value for r in c)


def card_usable(cat: Catalogue, state: State, seat: int, declared: str) -> bool:
    """May ``seat`` use a card of the declared type in the state's window?

    Server (card/*.kt canUse): each card checks the FSM state it is used in and who may use it there
    (e.g. DiaoHuLiShan: ``r === (fsm as? MainPhaseIdle)?.whoseTurn``; PoYi: the player in front of whom
    the message is in SendPhaseIdle). The catalogue's ``windows`` table says it per card. An untimed
    state (no window) allows every card."""
    card = cat.cards.get(declared)
    return card is not None and T.in_window(state, seat, card.windows)


def at_decision(state: State, decision: str, seat: int = 0) -> bool:
    """Is the state at a moment where ``decision`` is taken by ``seat`` (model.turn.DECISION_WINDOWS)?
    An untimed state is every moment."""
    from .turn import DECISION_WINDOWS
    if state.window is None or decision not in DECISION_WINDOWS:
        return True
    wins, actor = DECISION_WINDOWS[decision]
    # a dead player takes no decision (server: a dead player in front of the message is passed over)
    return state.window in wins and T.actor_ok(state, seat, actor) and state.seats[seat].alive


def grant_matters(cat: Catalogue, state: State, seat: int, inst: SkillInst) -> bool:
    """Is the state's moment one where a rule like ``inst`` is consulted for ``seat`` — where holding it or
    not can change anything: a ban where a card it bans may be used, a receive rule where the player
    chooses, a send rule where they send, a draw rule where they draw, a conversion where a card may be
    played? (Other kinds: always.)"""
    rule = cat.skills[inst.rule]
    if rule.ban is not None:
        return any(card_usable(cat, state, seat, c) and (ban_all(rule, inst) or c in ban_cards(rule, inst))
                   for c in cat.cards)
    if rule.receive is not None:
        return at_decision(state, "receive", seat)
    if rule.send is not None:
        return at_decision(state, "send", seat)
    if rule.draw is not None:
        return at_decision(state, "draw", seat)
    if rule.convert is not None:
        return any(card_usable(cat, state, seat, c) for c in cat.cards)
    return True


def can_play(cat: Catalogue, state: State, seat: int, actual: str, declared: str) -> bool:
    """A card of type ``actual`` reaches play as ``declared``: convertible, not banned, and a card of
    the declared type may be used by this player in this window."""
    return conversion(cat, state, seat, actual, declared).ok and not banned(cat, state, seat, declared) \
        and card_usable(cat, state, seat, declared)


def plays(cat: Catalogue, state: State, skill_id: str, user: int, owner: int, actual: str, declared: str) -> dict:
    """A skill that puts ``owner``'s card of type ``actual`` into play as ``declared`` for ``user``
    (``plays`` with card_of = target; server RuBiZhiShi: the target's bans, the target's conversions with
    only must-conversions counted, then the physical card's own effect). Returns whether the server
    accepts it and which card type's effect then happens."""
    rule = cat.skills[skill_id]
    p = rule.plays
    live = any(i.rule == skill_id and skill_usable_now(cat, state, user, i) for i in state.seats[user].skills)
    conv = conversion(cat, state, owner, actual, declared, only_must=True)
    whose = owner if p.bans_of == "target" else user
    in_window = state.window is None or (declared in cat.cards and state.window in cat.cards[declared].windows
                                         and (p.resolves != "physical" or (actual in cat.cards and
                                                                            state.window in cat.cards[actual].windows)))
    ok = live and in_window and declared in p.cards and conv.ok and \
        not (p.checks_bans and banned(cat, state, whose, declared))
    return {"validated": ok, "resolves": actual if p.resolves == "physical" else declared}


def resolves(cat: Catalogue, state: State, seat: int, declared: str) -> dict:
    """Does the effect of a ``declared`` card happen by ``seat``'s doing now?

    Either a card reaches play declared as it (``can_play``, for some actual card), or a skill acting as it
    with no card at all (``plays`` with card_of = none: 偷天, 诡诈, 应变自如 — server ``JieHuo.Companion.execute(
    null, …)``, ``WuDao.Companion.onUseCard(null, …)``) is live and may be used now — an ActiveSkill in one of
    its windows, by an actor it allows, its 争夺阶段 / 濒死求澄清 condition holding there; another skill wherever
    the card itself may be used — and lets it through the user's bans when it consults them
    (``plays.checks_bans``). A skill that puts another player's card into play (如臂指使) is not counted: the
    card, its conversions and bans are the target's. Returns ``{"resolves", "via"}`` (via: the skill, or None
    for a card)."""
    for actual in cat.cards:
        if can_play(cat, state, seat, actual, declared):
            return {"resolves": True, "via": None}
    for inst in state.seats[seat].skills:
        rule = cat.skills[inst.rule]
        p = rule.plays
        if p is None or p.card_of != "none" or declared not in p.cards or inst.invalid:
            continue
        if rule.has("ActiveSkill"):
            if spent(cat, inst) or not T.in_window(state, seat, rule.windows):
                continue
            if state.window in ("fight", "dying") and not usable(cat, state, seat, inst, state.window):
                continue
        elif not card_usable(cat, state, seat, declared):
            continue
        if p.checks_bans and banned(cat, state, seat, declared):
            continue
        return {"resolves": True, "via": inst.rule}
    return {"resolves": False, "via": None}


def fires(cat: Catalogue, state: State, seat: int, rule_id: str) -> dict:
    """Does the effect of the TriggeredSkill ``rule_id`` the player holds happen now, as far as its ``fires``
    says: a live instance, the window one of ``fires.at`` (an untimed state: any), ``fires.when`` true on
    its holder (``used``: it fired already this turn)."""
    rule = cat.skills[rule_id]
    if rule.fires is None:
        return {"fires": False}
    for inst in state.seats[seat].skills:
        if inst.rule != rule_id or inst.invalid:
            continue
        if state.window is not None and state.window not in rule.fires.at:
            continue
        if evaluate(rule.fires.when, _env(cat, state, seat, inst)):
            return {"fires": True}
    return {"fires": False}


# ====================================================================================== receive
def receive(cat: Catalogue, state: State, seat: int) -> str:
    """'must', 'cannot' or 'free': may the player the message is in front of decline / accept it?

    note L117-119: MustReceiveMessage — this turn must receive / cannot receive.
    Server (MustReceiveMessage.kt): the sender and every locked player must receive; when must and
    cannot both hold, must wins (``rules.must_beats_cannot``).
    """
    must, cannot = receive_parts(cat, state, seat)
    if must and cannot:
        return "must" if cat.rules.must_beats_cannot else "cannot"
    return "must" if must else ("cannot" if cannot else "free")


def receive_parts(cat: Catalogue, state: State, seat: int) -> tuple[bool, bool]:
    """(must, cannot) before they are reconciled: which obligations hold at once."""
    s = state.seats[seat]
    mr = cat.rules.must_receive                       # server mustReceiveMessage: the sender and locked players
    must = ("sender" in mr and state.sender == seat) or ("turn" in mr and state.turn == seat) or \
        ("locked" in mr and s.locked)
    cannot = False
    for inst in s.skills:
        rule = cat.skills[inst.rule]
        if "MustReceiveMessage" not in live_kinds(cat, inst) or rule.receive is None:
            continue
        env = _env(cat, state, seat, inst)
        must = must or bool(evaluate(rule.receive.must, env))
        cannot = cannot or bool(evaluate(rule.receive.cannot, env))
    return must, cannot


# ============================================================================ send-message groups
def send_in_force(cat: Catalogue, state: State, seat: int, group: str) -> int | None:
    """Index of the skill of SendMessage ``group`` in force for ``seat``, None for the default rule.

    note L129: of skills of the same type, the later one makes the earlier one lapse.
    Server (SendMessageSkill.kt canSendCard): ``skills.lastOrNull { it is Group }`` — an invalidated skill
    is no longer of its group, so the one before it (or the default rule) is in force again; face-down
    roles are not skipped.
    """
    found = None
    for i, inst in enumerate(state.seats[seat].skills):
        if group in live_kinds(cat, inst):
            found = i
    return found


DEFAULT_SEND = {
    # server canSendCard with no skill of the group: the arrow on the card; at most one lock, only if the
    # card has a lock mark; any card that is offered
    "SendMessageDirectionSkill": lambda st, d, n: d == st.message_dir,
    "SendMessageCanLockSkill": lambda st, d, n: n <= 1 and (n == 0 or st.message_lockable),
    "SendMessageCardSkill": lambda st, d, n: True,
}


def send_allowed(cat: Catalogue, state: State, seat: int, group: str, dir_: str, lock_count: int) -> bool:
    """Does the rule in force for ``group`` allow sending in direction ``dir_`` locking ``lock_count``?"""
    i = send_in_force(cat, state, seat, group)
    if i is None:
        return DEFAULT_SEND[group](state, dir_, lock_count)
    inst = state.seats[seat].skills[i]
    rule = cat.skills[inst.rule]
    return bool(evaluate(rule.send.rule, _env(cat, state, seat, inst, dir=dir_, lock_count=lock_count)))


# ==================================================================================== skipping
def banned_all(cat: Catalogue, state: State, seat: int) -> bool:
    """note L97: "没有被禁止出所有牌" — some CannotPlayCard bans every card."""
    for inst in state.seats[seat].skills:
        rule = cat.skills[inst.rule]
        if "CannotPlayCard" in live_kinds(cat, inst) and rule.ban is not None and ban_all(rule, inst):
            return True
    return False


def _may_play_cards(cat, state, seat) -> bool:
    """note L97: a player may play cards when they hold cards and not every card is banned."""
    return state.seats[seat].hand_count > 0 and not banned_all(cat, state, seat)


def _skills_gone(cat, state, seat) -> bool:
    """Server: ``!skills.any { it.isInitialSkill || it is ActiveSkill }`` — every initial skill is
    invalidated (an InvalidSkill is not initial) and no live ActiveSkill was granted."""
    for inst in state.seats[seat].skills:
        live = live_kinds(cat, inst)
        if "ActiveSkill" in live:
            return False
        if not inst.invalid and cat.skills[inst.rule].initial:
            return False
    return True


def spent(cat: Catalogue, inst: SkillInst) -> bool:
    """A skill with a usage limit (``limit`` turn or game) already used this turn: it cannot be used again
    (server: executeProtocol refuses a second use, ``getSkillUseCount(skillId) > 0`` — 禁闭, 交际 …; a
    limit of once a game is known here only within the turn, the one the ``used`` flag covers)."""
    return cat.skills[inst.rule].limit != "none" and inst.used


def skill_usable_now(cat: Catalogue, state: State, seat: int, inst: SkillInst) -> bool:
    """May ``seat`` use the ActiveSkill ``inst`` at the state's moment: live, not ``spent``, a window and
    actor it names, and its condition there (争夺阶段: ``fight``, 濒死求澄清: ``dying``; elsewhere none)."""
    rule = cat.skills[inst.rule]
    if "ActiveSkill" not in live_kinds(cat, inst) or spent(cat, inst) or \
            not T.in_window(state, seat, rule.windows):
        return False
    cond = getattr(rule, state.window) if state.window in ("fight", "dying") else None
    return cond is None or bool(evaluate(cond, _env(cat, state, seat, inst)))


def usable(cat, state, seat, inst, when: str) -> bool:
    """A live ActiveSkill whose ``fight`` / ``dying`` condition holds now."""
    cond = getattr(cat.skills[inst.rule], when)
    return "ActiveSkill" in live_kinds(cat, inst) and cond is not None and \
        bool(evaluate(cond, _env(cat, state, seat, inst)))


def skip_fight(cat: Catalogue, state: State, seat: int) -> bool:
    """Is ``seat`` skipped in 争夺阶段?

    note L94-97: skipped when the player cannot possibly use a skill and cannot possibly play a card;
    may use a skill = has an ActiveSkill whose canUse allows 争夺阶段, or is a hidden role never face up;
    may play = holds cards and not all cards are banned.
    Server (CannotPlayCard.kt cannotPlayCardAndSkillForFightPhase) goes further: a player whose initial
    skills are all invalidated (and who has no granted ActiveSkill) counts as having no skill even when
    never face up; "hidden and never face up" is tested as ``!hasEverFaceUp``.
    """
    return _skip(cat, state, seat, "fight")


def _skip(cat: Catalogue, state: State, seat: int, phase: str) -> bool:
    """The skip predicate of ``phase`` with the ingredients ``rules.skip_fight`` / ``rules.skip_dying`` name:
    ``skills_gone`` (a player whose skills are all gone is skipped even if never face up) and ``can_use``
    (the skill test asks the phase's condition, else any ActiveSkill that is not a MainPhaseSkill counts)."""
    if _may_play_cards(cat, state, seat):
        return False
    s = state.seats[seat]
    parts = getattr(cat.rules, f"skip_{phase}")
    if "skills_gone" in parts and _skills_gone(cat, state, seat):
        return True
    if not s.ever_face_up:
        return False
    if "can_use" in parts:
        return not any(usable(cat, state, seat, inst, phase) for inst in s.skills)
    return not any("ActiveSkill" in live_kinds(cat, i) and "MainPhaseSkill" not in live_kinds(cat, i)
                   for i in s.skills)


def skip_dying(cat: Catalogue, state: State, seat: int) -> bool:
    """Is ``seat`` skipped when asked to rescue a dying player (濒死求澄清)?

    note L94-97 as for 争夺阶段. Server (cannotPlayCardAndSkillForChengQing): the skill test is only
    "has an ActiveSkill that is not a MainPhaseSkill" — its canUse is not consulted.
    """
    return _skip(cat, state, seat, "dying")


def could_act(cat: Catalogue, state: State, seat: int, phase: str) -> bool:
    """Ground truth for the skip checks in ``phase`` ("fight": 争夺阶段, "dying": 濒死求澄清): some live
    ActiveSkill is usable then, or the player holds cards and some card type playable then is not
    banned for them."""
    s = state.seats[seat]
    if any(usable(cat, state, seat, inst, phase) for inst in s.skills):
        return True
    return s.hand_count > 0 and any(
        phase in c.phases and not banned(cat, state, seat, c.id) for c in cat.cards.values())


def could_act_fight(cat: Catalogue, state: State, seat: int) -> bool:
    return could_act(cat, state, seat, "fight")


def could_act_dying(cat: Catalogue, state: State, seat: int) -> bool:
    return could_act(cat, state, seat, "dying")


# =================================================================================== draw count
def draw_count(cat: Catalogue, state: State, seat: int) -> int:
    """Cards drawn in the draw phase.

    note L143-145: ChangeDrawCardCountSkill changes the count. Server
    (ChangeDrawCardCountSkill.kt getDrawCardCountEachTurn): a fold over the skill list in order,
    starting at the configured base; face-down roles are not skipped.
    """
    count = cat.rules.draw_base
    for inst in state.seats[seat].skills:
        rule = cat.skills[inst.rule]
        if "ChangeDrawCardCountSkill" in live_kinds(cat, inst) and rule.draw is not None:
            count = int(evaluate(rule.draw, _env(cat, state, seat, inst, count=count)))
    return count


# ============================================================================ win / game result
def table_order(state: State, seating=None) -> list[int]:
    """The seats round the table starting at whose turn: ``seating`` lists the seats in their order round
    the table (default: seat numbers in order)."""
    seating = list(seating) if seating is not None else list(range(len(state.seats)))
    k = seating.index(state.turn)
    return seating[k:] + seating[:k]


def game_result(cat: Catalogue, state: State, declared, winners, kind: str = "result",
                picks: dict | None = None, seating=None):
    """Apply every WinSkill (kind="win") or ChangeGameResultSkill (kind="result") round the table.

    note L131-137. Server (WinSkill.kt checkWin, ChangeGameResultSkill.kt changeGameResult): starting at
    whose turn, each seat in order, each of its skills in list order; a dead owner's *initial* skills
    are skipped. ``picks`` chooses, for an effect's ``pick``, which matching seat is taken (keyed by
    "seat/skill index/effect index"); by default the first matching seat from whose turn.
    Returns (declared, winners) as frozensets of seats.
    """
    declared, winners = set(declared), set(winners)
    kind_name = "WinSkill" if kind == "win" else "ChangeGameResultSkill"
    order = table_order(state, seating)
    for seat in order:
        s = state.seats[seat]
        for si, inst in enumerate(s.skills):
            rule = cat.skills[inst.rule]
            if kind_name not in live_kinds(cat, inst):
                continue
            if not s.alive and rule.initial:
                continue
            for ei, eff in enumerate(getattr(rule, kind)):
                apply_effect(cat, state, seat, inst, eff, declared, winners,
                             (picks or {}).get(f"{seat}/{si}/{ei}"), order)
    return frozenset(declared), frozenset(winners)


def apply_effect(cat, state, seat, inst, eff, declared: set, winners: set, pick_choice=None, order=None):
    """One effect of one skill, mutating ``declared`` and ``winners``."""
    n = len(state.seats)
    order = order if order is not None else table_order(state)

    def env_now(bound):
        e = Env(cat, state, {"self": seat, **bound}, dict(inst.args), {}, inst.used,
                frozenset(winners), frozenset(declared))
        return e

    bindings: list[dict] = [{}]
    if eff.each is not None:
        bindings = [{eff.each.var: p} for p in order if evaluate(eff.each.body, env_now({eff.each.var: p}))]
    elif eff.pick is not None:
        cands = [p for p in order if evaluate(eff.pick.body, env_now({eff.pick.var: p}))]
        if not cands:
            return
        chosen = pick_choice if pick_choice in cands else cands[0]
        bindings = [{eff.pick.var: chosen}]
    for b in bindings:
        if not evaluate(eff.when, env_now(b)):
            continue
        # all four set operations read the sets as they stood before this effect, then apply
        env = env_now(b)
        adds_w = _select(eff.winners_add, env, n)
        rem_w = _select(eff.winners_remove, env, n)
        adds_d = _select(eff.declared_add, env, n)
        rem_d = _select(eff.declared_remove, env, n)
        winners.difference_update(rem_w)
        winners.update(adds_w)
        declared.difference_update(rem_d)
        declared.update(adds_d)


def _select(lam, env: Env, n: int) -> set:
    if lam is None:
        return set()
    return {q for q in range(n) if evaluate(lam.body, env.bind(lam.var, q))}


# ============================================================================ invalidation, turn end
def invalidate(cat: Catalogue, state: State, seat: int) -> State:
    """note L82-84: only initial skills can be invalidated; each is wrapped in an InvalidSkill.
    Server (Skill.kt InvalidSkill.deal): every initial skill in the list at that moment."""
    out = state.copy()
    out.seats[seat].invalidated = True
    for inst in out.seats[seat].skills:
        if cat.skills[inst.rule].initial:
            inst.invalid = True
    return out


def turn_end(cat: Catalogue, state: State) -> State:
    """note L84-85: invalidated skills are released at turn end; one-turn skills are lost.
    Server (phase/NextTurn.kt): InvalidSkill.reset, then OneTurnSkill.reset — in ``rules.turn_end``
    order. Use counts reset too."""
    out = state.copy()
    for step in cat.rules.turn_end:
        for s in out.seats:
            if step == "restore_invalid":
                s.invalidated = False
                for inst in s.skills:
                    inst.invalid = False
            elif step == "drop_one_turn":
                s.skills = [i for i in s.skills if "OneTurnSkill" not in live_kinds(cat, i)]
    for s in out.seats:
        for inst in s.skills:
            inst.used = False
    return out


# ================================================================================ reachability
#: the state's seats named by a role, for reasons: key -> (zh, en)
SEAT_ROLES = {"turn": ("当前回合的角色", "the turn player"), "sender": ("传出者", "the sender"),
              "in_front": ("情报面前的角色", "the player the message is in front of"),
              "dying": ("濒死的角色", "the dying player")}


def _not_a_seat(k: str) -> Reason:
    zh, en = SEAT_ROLES[k]
    return Reason(f"{zh}不是座位", f"{en} is not a seat")


def _seats_count(n: int, lo: int, hi: int) -> Reason:
    return Reason(f"{n}个座位：一局游戏有{lo}到{hi}个座位", f"{n} seats: a game has {lo} to {hi}")


def _twice() -> Reason:
    return Reason("同一个角色坐在两个座位上", "a character sits twice")


def _unknown_character(si: int, cid) -> Reason:
    from .reason import echoed
    return Reason(f"座位{si}：未知的角色「{echoed(cid)}」", f"seat {si}: unknown character “{echoed(cid)}”")


def _seat_facts(si: int, s, ch) -> list:
    """What a seat's own attributes say that cannot be: a public role face down, face up but never face up,
    message counts that do not add up."""
    why = []
    if not ch.hidden and not s.face_up:
        why.append(Reason(f"座位{si}：{ch.name}是公开角色，不能面朝下",
                          f"seat {si}: {ch.name} is a public role and cannot be face down"))
    if s.face_up and not s.ever_face_up:
        why.append(Reason(f"座位{si}：面朝上，却记为从未面朝上", f"seat {si}: face up, yet never face up"))
    if not (max(s.red_messages, s.blue_messages) <= s.true_messages <= s.red_messages + s.blue_messages):
        why.append(Reason(f"座位{si}：真情报数（{s.true_messages}）与红色情报数（{s.red_messages}）、蓝色情报数"
                          f"（{s.blue_messages}）不符",
                          f"seat {si}: {s.true_messages} red or blue messages do not fit {s.red_messages} red and "
                          f"{s.blue_messages} blue"))
    if s.non_black_messages > s.true_messages:
        why.append(Reason(f"座位{si}：非黑色情报数（{s.non_black_messages}）多于真情报数（{s.true_messages}）",
                          f"seat {si}: more messages with no black ({s.non_black_messages}) than red or blue "
                          f"messages ({s.true_messages})"))
    return why


def _granted_first(si: int) -> Reason:
    return Reason(f"座位{si}：获得的技能排在初始技能之前", f"seat {si}: a granted skill stands before an initial one")


def snapshot_errors(cat: Catalogue, state: State) -> list[Reason]:
    """What makes the table itself impossible, whatever happened before: the seats, the characters,
    attributes that contradict each other, each seat's initial skills in its character's order."""
    why: list[Reason] = []
    n = len(state.seats)
    if not cat.rules.min_seats <= n <= cat.rules.seats:
        why.append(_seats_count(n, cat.rules.min_seats, cat.rules.seats))
    chars = [s.character for s in state.seats]
    if len(set(chars)) != len(chars):
        why.append(_twice())
    if not 0 <= state.turn < n:
        why.append(_not_a_seat("turn"))
    for si, s in enumerate(state.seats):
        # server Game.start deals red, blue and black identities only; 承志 sets none on a dead player
        if s.alive and s.identity == "none":
            why.append(Reason(f"座位{si}：存活的角色总有身份", f"seat {si}: a living player always has an identity"))
    for k in ("sender", "in_front", "dying"):
        v = getattr(state, k)
        if v is not None and not 0 <= v < n:
            why.append(_not_a_seat(k))
    why.extend(lock_errors(cat, state))
    for si, s in enumerate(state.seats):
        ch = cat.characters.get(s.character)
        if ch is None:
            why.append(_unknown_character(si, s.character))
            continue
        why.extend(_seat_facts(si, s, ch))
        initial = [i for i in s.skills if not cat.skills[i.rule].is_grant]
        if s.skills[:len(initial)] != initial:
            why.append(_granted_first(si))
        why.extend(_initial_order(cat, si, ch, initial))
    return why


def lock_errors(cat: Catalogue, state: State) -> list[Reason]:
    """``rules.lock_self = false``: the sender never locks himself (server Player.canSendCard does not refuse
    it: the shipped catalogue has ``lock_self = true``)."""
    s = state.sender
    if not cat.rules.lock_self and s is not None and 0 <= s < len(state.seats) and state.seats[s].locked:
        return [Reason(f"座位{s}传出了情报，却被它锁定（[rules] lock_self = false：传出者不锁定自己）",
                       f"seat {s} sent the message and is locked by it ([rules] lock_self = false)")]
    return []


def _missing(cat, si, rid, ch) -> Reason:
    name = cat.skills[rid].name
    return Reason(f"座位{si}：{ch.name}的技能中缺少{name}", f"seat {si}: {name} is missing from {ch.name}'s skills")


def _not_own(cat, si, rid, ch) -> Reason:
    name = cat.skills[rid].name
    return Reason(f"座位{si}：{name}不是{ch.name}的技能（或顺序不对）",
                  f"seat {si}: {name} is not {ch.name}'s skill (or out of order)")


def _initial_order(cat, si, ch, initial) -> list[Reason]:
    """The character's skills in order, consumed ones possibly missing."""
    why = []
    expected = list(ch.skills)
    pos = 0
    for inst in initial:
        while pos < len(expected) and expected[pos] != inst.rule:
            if not cat.skills[expected[pos]].consumed:
                why.append(_missing(cat, si, expected[pos], ch))
            pos += 1
        if pos == len(expected):
            why.append(_not_own(cat, si, inst.rule, ch))
            return why
        pos += 1
    for rest in expected[pos:]:
        if not cat.skills[rest].consumed:
            why.append(_missing(cat, si, rest, ch))
    return why


def reachable(cat: Catalogue, state: State) -> list[Reason]:
    """Why ``state`` cannot happen in a game under this catalogue; empty when it can.

    The states the checks reason about: every seat holds a distinct character of the catalogue, at
    most ``rules.seats`` seats; a seat's list is its character's initial skills in order (consumed
    ones may be gone), then granted skills in acquisition order; invalidation wraps all initial
    skills at once and needs some way to invalidate; public roles are face up; each grant came from a
    gives site whose giver is in the game, obeys ``to``, ``when`` (for this-turn grants, the giver's
    state now), ``args``/``where`` and ``per_turn``.
    """
    from .trace import site_name
    why: list[Reason] = []
    n = len(state.seats)
    if not 1 <= n <= cat.rules.seats:
        why.append(_seats_count(n, 1, cat.rules.seats))
    chars = [s.character for s in state.seats]
    if len(set(chars)) != len(chars):
        why.append(_twice())
    for k in ("turn",):
        if not 0 <= getattr(state, k) < n:
            why.append(_not_a_seat(k))
    for k in ("sender", "in_front", "dying"):
        v = getattr(state, k)
        if v is not None and not 0 <= v < n:
            why.append(_not_a_seat(k))
    why.extend(lock_errors(cat, state))
    for si, s in enumerate(state.seats):
        ch = cat.characters.get(s.character)
        if ch is None:
            why.append(_unknown_character(si, s.character))
            continue
        why.extend(_seat_facts(si, s, ch))
        # initial prefix: the character's skills in order, consumed ones possibly missing
        initial = [i for i in s.skills if not cat.skills[i.rule].is_grant]
        grants = [i for i in s.skills if cat.skills[i.rule].is_grant]
        if s.skills[:len(initial)] != initial:
            why.append(_granted_first(si))
        expected = list(ch.skills)
        pos = 0
        for inst in initial:
            while pos < len(expected) and expected[pos] != inst.rule:
                if not cat.skills[expected[pos]].consumed:
                    why.append(_missing(cat, si, expected[pos], ch))
                pos += 1
            if pos == len(expected):
                why.append(_not_own(cat, si, inst.rule, ch))
                break
            pos += 1
        for rest in expected[pos:]:
            if not cat.skills[rest].consumed:
                why.append(_missing(cat, si, rest, ch))
        # invalidation wraps every skill marked initial at once (note L82), nothing else
        wrapped = any(i.invalid for i in s.skills)
        for inst in s.skills:
            if inst.invalid != (wrapped and cat.skills[inst.rule].initial):
                name = cat.skills[inst.rule].name
                why.append(Reason(f"座位{si}：无效同时套住每个初始技能，且只套住初始技能（{name}）",
                                  f"seat {si}: invalidation wraps every initial skill and nothing else ({name})"))
                break
        if wrapped and not _invalidation_possible(cat, state, si):
            why.append(Reason(f"座位{si}：这局游戏中没有什么能使技能无效",
                              f"seat {si}: nothing in this game can invalidate skills"))
        counts: dict = {}
        for inst in grants:
            msg = _grant_reason(cat, state, si, inst)
            if msg:
                name = cat.skills[inst.rule].name
                why.append(Reason(f"座位{si}：{name}：{msg.zh}", f"seat {si}: {name}: {msg.en}"))
            if cat.skills[inst.rule].lifetime == "turn" and inst.site:
                counts[inst.site] = counts.get(inst.site, 0) + 1
        for site, c in counts.items():
            give = _site(cat, site)
            if give is not None and c > give.per_turn:
                at = site_name(cat, site)
                why.append(Reason(f"座位{si}：本回合从给出处{at}获得了{c}次，至多{give.per_turn}次",
                                  f"seat {si}: {c} grants from {at} this turn, at most {give.per_turn}"))
    return why


def _site(cat, site: str):
    giver, _, idx = site.partition("#")
    src = cat.skills.get(giver) or cat.cards.get(giver)
    if src is None or not idx.isdigit() or int(idx) >= len(src.gives):
        return None
    return src.gives[int(idx)]


def _giver_ok(cat, state, give, giver_seat) -> bool:
    if give.giver_is_card:
        return True
    return give.giver in cat.characters[state.seats[giver_seat].character].skills


def _invalidation_possible(cat, state, seat) -> bool:
    for give in cat.invalidation_sites():
        for g in range(len(state.seats)):
            if _giver_ok(cat, state, give, g) and _to_ok(give.to, g, seat) and \
                    evaluate(give.when, _env(cat, state, g)):
                return True
    return False


def to_ok(to: str, giver: int, receiver: int) -> bool:
    """A gives site's ``to``: self — the giver; others — anyone but the giver; target / all — anyone."""
    return {"self": giver == receiver, "others": giver != receiver}.get(to, True)


_to_ok = to_ok


def _arg_value(cat, v) -> Reason:
    """A fixed argument of a gives site for people, in both languages (names, 是/否 or yes/no, sets in braces)."""
    from .narrate_base import value
    from .reason import both
    return both(value, cat, list(v) if isinstance(v, (list, tuple, set, frozenset)) else v)


def _param(p: str) -> Reason:
    from .lang import PARAMS
    zh, en = PARAMS.get(p, (p, p))
    return Reason(zh, en)


def _where_broken(cat, give) -> Reason:
    from .expr_words import words
    from .reason import both
    cond = both(words, give.where, cat)
    return Reason(f"参数不满足{cat.giver_name(give)}给出处的条件「{cond.zh}」",
                  f"its parameters break the condition of {cat.name_of(give.giver)}'s gives site: `{cond.en}`")


def args_errors(cat, state, give, grant, inst: SkillInst) -> Reason | str:
    """Why the grant's parameters cannot come from this site (a ``Reason``; '' when they can): fixed ``args``,
    every parameter given, the site's ``where``."""
    for p, v in give.args.items():
        got = inst.args.get(p)
        if (tuple(sorted(got)) if isinstance(got, (list, tuple, frozenset, set)) else got) != \
                (tuple(sorted(v)) if isinstance(v, list) else v):
            pn, val = _param(p), _arg_value(cat, v)
            return Reason(f"参数{pn.zh}必须为{val.zh}", f"parameter {pn.en} must be {val.en}")
    for p in grant.params:
        if p not in inst.args:
            return Reason(f"参数{_param(p).zh}没有值", f"parameter {_param(p).en} has no value")
    if give.where is not None:
        env = Env(cat, state, {"self": inst.giver}, dict(inst.args), {})
        if not evaluate(give.where, env):
            return _where_broken(cat, give)
    return ""


def _grant_reason(cat, state, seat, inst: SkillInst) -> Reason | str:
    from .expr_words import words
    from .reason import both
    from .trace import TO_ONLY, site_name
    rule = cat.skills[inst.rule]
    if inst.site is None or inst.giver is None:
        return Reason("获得的技能要记下给出者的座位和给出处", "a granted skill needs its giver seat and site")
    give = _site(cat, inst.site)
    if give is None or give.grant != inst.rule:
        at = site_name(cat, inst.site)
        return Reason(f"给出处{at}不给出这个技能", f"no gives site {at} hands out this grant")
    if not 0 <= inst.giver < len(state.seats):
        return Reason("给出者不是座位", "the giver is not a seat")
    src_zh, src_en = cat.giver_name(give), cat.name_of(give.giver)
    if not _giver_ok(cat, state, give, inst.giver):
        return Reason(f"座位{inst.giver}没有给出它的技能{src_zh}", f"seat {inst.giver} does not have {src_en}, which gives it")
    if not _to_ok(give.to, inst.giver, seat):
        to_zh, to_en = TO_ONLY.get(give.to, (give.to, give.to))
        return Reason(f"{src_zh}{to_zh}，给不到这个座位", f"{src_en} hands this out to {to_en}: it cannot reach this seat")
    why = args_errors(cat, state, give, rule, inst)
    if why:
        return why
    if rule.lifetime == "turn" and not evaluate(give.when, _env(cat, state, inst.giver)):
        cond = both(words, give.when, cat)
        return Reason(f"本回合获得，但给出者不满足{src_zh}给出的条件「{cond.zh}」",
                      f"given this turn, but the giver does not meet the condition {src_en} hands it out on: `{cond.en}`")
    return ""


# ===================================================================================== questions
def decide(cat: Catalogue, state: State, question: dict) -> dict:
    """Answer a question about ``state`` — the form witnesses and scenario files use.

    ``question["decision"]`` is one of: conversion (actual, declared), banned (declared), can_play
    (actual, declared), resolves (declared), fires (rule), receive, send (group, dir, lock_count), skip_fight, skip_dying, draw, reachable,
    turn_end, result (kind, declared, winners, picks). ``seat`` defaults to 0.
    """
    d = question["decision"]
    seat = question.get("seat", 0)
    if d == "reachable":
        why = reachable(cat, state)
        return {"reachable": not why, "why_not": why}
    if d == "conversion":
        c = conversion(cat, state, seat, question["actual"], question["declared"],
                       question.get("only_must", False))
        via = state.seats[seat].skills[c.via].rule if c.via is not None else None
        return {"ok": c.ok, "via": via, "via_index": c.via}
    if d == "plays":
        return plays(cat, state, question["skill"], question.get("user", 0), seat, question["actual"],
                     question["declared"])
    if d == "matters":
        inst = SkillInst(question["rule"], {k: (tuple(v) if isinstance(v, list) else v)
                                            for k, v in question.get("args", {}).items()})
        return {"matters": grant_matters(cat, state, seat, inst)}
    if d == "banned":
        return {"banned": banned(cat, state, seat, question["declared"])}
    if d == "resolves":
        return resolves(cat, state, seat, question["declared"])
    if d == "fires":
        return fires(cat, state, seat, question["rule"])
    if d == "can_play":
        return {"can_play": can_play(cat, state, seat, question["actual"], question["declared"]),
                "banned": banned(cat, state, seat, question["declared"])}
    if d == "receive":
        if "message" in question:          # the same moment with another message card
            state = state.copy()
            state.message = frozenset(question["message"])
        must, cannot = receive_parts(cat, state, seat)
        return {"receive": receive(cat, state, seat), "must": must, "cannot": cannot}
    if d == "send":
        g = question["group"]
        i = send_in_force(cat, state, seat, g)
        out = {"in_force": state.seats[seat].skills[i].rule if i is not None else None, "in_force_index": i}
        if "dir" in question:
            out["allowed"] = send_allowed(cat, state, seat, g, question["dir"], question.get("lock_count", 0))
        return out
    if d == "skip_fight":
        return {"skip": skip_fight(cat, state, seat), "could_act": could_act_fight(cat, state, seat)}
    if d == "skip_dying":
        return {"skip": skip_dying(cat, state, seat), "could_act": could_act_dying(cat, state, seat)}
    if d == "draw":
        return {"draw": draw_count(cat, state, seat)}
    if d == "holds":
        insts = [i for i in state.seats[seat].skills if i.rule == question["rule"]]
        return {"holds": bool(insts), "live": any(not i.invalid for i in insts),
                "invalidated": state.seats[seat].invalidated or any(i.invalid for i in state.seats[seat].skills),
                "turns_ago": max((i.turns_ago for i in insts), default=0)}
    if d == "turn_end":
        after = turn_end(cat, state)
        return {"skills": [{"rule": i.rule, "invalid": i.invalid} for i in after.seats[seat].skills]}
    if d == "result":
        st = state.copy()
        if "turn" in question:
            st.turn = question["turn"]
        dec, win = game_result(cat, st, question.get("declared", ()), question.get("winners", ()),
                               question.get("kind", "result"), question.get("picks"), question.get("seating"))
        return {"declared": sorted(dec), "winners": sorted(win)}
    raise ValueError(f"unknown decision '{d}'")


def matches(answer: dict, expect: dict) -> bool:
    """Does an answer show what a finding claims (every expected key equal)?"""
    return all(answer.get(k) == v for k, v in expect.items())
