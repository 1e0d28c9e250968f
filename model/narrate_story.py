"""How a situation arises in a game, in the run's language: ``story`` (a witness trace's events, each in its
turn and window, with the catalogue line behind it, then the moment of the question), ``origin`` (an untimed
state: who handed out each granted skill, through which gives site, what invalidated whom) and
``state_lines`` (the table in a few lines); ``steps``: a trace told event by event."""
from __future__ import annotations

from . import expr as E
from .interp.core import evaluate
from .interp.grants import site_of, to_ok
from .interp.snapshot import _giver_ok, _site
from .catalogue import Catalogue
from .expr_words import COLOUR, DIRECTION, IDENTITY
from .interp.trace import Trace
from .lang import pick
from .narrate_base import Step, cond, env, inst_label, lab_at, seat_name, the_window
from .state import State


def step_head(turn, window_zh: str) -> str:
    """第1回合·摸牌阶段： / turn 1, draw phase: — the head of a told step (the window given by its Chinese name)."""
    from .turn import window_name_of_zh
    return pick(f"第{turn}回合·{window_zh}：", f"turn {turn}, {window_name_of_zh(window_zh)}: ")


def story(cat: Catalogue, trace, state: State | None = None) -> list[Step]:
    """How a situation arises in a game, step by step: the trace's events as ``steps`` tells
    them (turn, window, who did what), each with the catalogue line of the gives site behind it, then the
    moment the question is asked (``state``: the state the trace reaches). An untimed state (no trace):
    ``origin``."""
    from .turn import WINDOWS
    if trace is None:
        return origin(cat, state) if state is not None else []
    told = steps(cat, trace)
    out: list[Step] = []
    k = 0
    base = None                                      # the window a dying window interrupts
    for j, ev in enumerate(trace.events):            # which event each told step is (events may be silent)
        now = len(steps(cat, Trace(trace.setup, trace.events[:j + 1], trace.table)))
        if ev.kind == "turn":
            base = None
        elif ev.kind == "window" and ev.window != "dying":
            base = ev.window
        while k < now:
            t = told[k]
            text = t["text"]
            if ev.kind == "window" and ev.window == "dying" and base in WINDOWS:
                text += pick(f"（打断{WINDOWS[base].zh}）", f" (interrupting {the_window(base)})")
            rule, loc = None, None
            if ev.kind == "give":
                give = site_of(cat, ev.site)
                if give is not None:
                    rule, loc = give.giver, give.loc
            elif ev.kind == "replace" and ev.character in cat.characters:
                rule, loc = ev.character, cat.characters[ev.character].loc
            out.append(Step(step_head(t["turn"], t["window"]) + text, rule, loc))
            k += 1
    if state is not None and state.window is not None:
        turns = sum(1 for ev in trace.events if ev.kind == "turn")
        out.append(Step(step_head(turns, WINDOWS[state.window].zh)
                        + pick(f"此时提问（{moment_text(cat, state)}）",
                               f"the question is asked now ({moment_text(cat, state)})")))
    return out



def steps(cat: Catalogue, trace: Trace) -> list[dict]:
    """The trace told step by step, in the designer's terms and the run's language (``model.lang``): each
    event with its turn, window and actor (``{"turn": k, "window": zh, "text": …}``; the window is its
    Chinese name, which ``turn.window_name_of_zh`` shows in English), as a report or ``explain`` shows a
    witness. Names are the catalogue's in both languages; values are 是/否 or yes/no, never Python reprs."""
    from . import turn as T
    from .lang import param_name, yes_no
    out: list = []
    st = trace.setup.copy()
    names = [cat.characters[s.character].name if s.character in cat.characters else s.character
             for s in st.seats]

    def val(v):
        if isinstance(v, bool):
            return yes_no(v)
        if isinstance(v, str) and v in COLOUR and v not in cat.cards:
            return pick(*COLOUR[v])
        if isinstance(v, str):
            return cat.name_of(v)
        return str(v)

    turn_no = 0
    window = None
    front = None                                     # a game trace: where the message is, to tell its moves
    turn_seat = None
    for ev in trace.events:
        if ev.kind == "turn":
            turn_seat = ev.seat
        if trace.table:
            told = _game_step(cat, ev, names, window, front, turn_seat)
            if told is not None:
                if ev.kind == "window":
                    window, front = ev.window, ev.in_front if ev.in_front is not None else front
                zh = T.WINDOWS[window].zh if window in T.WINDOWS else "?"
                out.append({"turn": turn_no, "window": zh, "text": told})
                if ev.kind == "send":                # the message stops in front of its first stop (传递阶段)
                    window, front = "send", ev.to
                continue
            if ev.kind == "window" and ev.in_front is not None:
                front = ev.in_front
        if ev.kind == "turn":
            turn_no += 1
            window = "draw"
            who = names[ev.seat] if isinstance(ev.seat, int) and 0 <= ev.seat < len(names) else "?"
            text = pick(f"{who}的回合开始", f"{who}'s turn begins")
            if isinstance(ev.sender, int) and 0 <= ev.sender < len(names) and ev.sender != ev.seat:
                ml = cat.cards["Mi_Ling"].name if "Mi_Ling" in cat.cards else None     # the card naming the sender
                text += pick(f"（本回合的情报由{names[ev.sender]}传出，" + (f"如被{ml}指定）" if ml else "代替当前回合角色）"),
                             f" (this turn's message is sent by {names[ev.sender]}, "
                             + (f"as when named by {ml})" if ml else "in the turn player's place)"))
            out.append({"turn": turn_no, "window": T.WINDOWS["draw"].zh, "text": text})
            continue
        if ev.kind == "window":
            window = ev.window
            if window == "turn_end":
                out.append({"turn": turn_no, "window": T.WINDOWS["turn_end"].zh,
                            "text": pick("回合结束：被无效的技能恢复，本回合技能移除",
                                         "the turn ends: invalidated skills recover, this turn's skills are removed")})
            elif window == "dying" and isinstance(ev.dying, int) and ev.dying < len(names):
                out.append({"turn": turn_no, "window": T.WINDOWS["dying"].zh,
                            "text": pick(f"{names[ev.dying]}濒死", f"{names[ev.dying]} is dying")})
            elif T.WINDOWS.get(window) and T.WINDOWS[window].message and isinstance(ev.in_front, int) \
                    and ev.in_front < len(names):
                out.append({"turn": turn_no, "window": T.WINDOWS[window].zh,
                            "text": pick(f"情报在{names[ev.in_front]}面前",
                                         f"the message is in front of {names[ev.in_front]}")})
            continue
        zh = T.WINDOWS[window].zh if window in T.WINDOWS else "?"
        if ev.kind == "give":
            give = site_of(cat, ev.site)
            giver = names[ev.giver] if isinstance(ev.giver, int) and ev.giver < len(names) else "?"
            to = names[ev.seat] if isinstance(ev.seat, int) and ev.seat < len(names) else "?"
            if give is None:
                text = pick(f"{giver}给出{ev.site}", f"{giver} hands out {ev.site}")
            else:
                grant = cat.skills[give.grant]
                inval = "InvalidSkill" in grant.closure
                bits = [f"{param_name(k)}={pick('{', '{')}{pick('、', ', ').join(val(x) for x in v)}}}" if isinstance(v, (list, tuple)) and v
                        else f"{param_name(k)}={pick('无', 'none')}" if isinstance(v, (list, tuple))   # an empty set
                        else f"{param_name(k)}={val(v)}" for k, v in sorted(ev.args.items())]
                args = pick("，", ", ").join(bits)
                src = cat.giver_name(give)
                src_en = cat.name_of(give.giver)
                text = (pick(f"{giver}的{src}对{to}" + ("使其技能无效" if inval else f"给出{grant.label}"),
                             f"{giver}'s {src_en} " + (f"invalidates {to}'s skills" if inval
                                                     else f"gives {to} {grant.name}"))
                        + (pick(f"（{args}）", f" ({args})") if args else ""))
        elif ev.kind == "replace":
            who = names[ev.seat] if isinstance(ev.seat, int) and ev.seat < len(names) else "?"
            new = cat.characters[ev.character].name if ev.character in cat.characters else str(ev.character)
            text = pick(f"{who}换成新角色{new}（原有技能全部失去）",
                        f"{who} is replaced by the new role {new} (every skill held is lost)")
            if isinstance(ev.seat, int) and ev.seat < len(names):
                names[ev.seat] = new
        elif ev.kind == "use":
            who = names[ev.seat] if isinstance(ev.seat, int) and ev.seat < len(names) else "?"
            text = pick(f"{who}本回合已发动【{cat.name_of(ev.rule)}】", f"{who} has used {cat.name_of(ev.rule)} this turn")
        elif ev.kind == "play":
            who = names[ev.seat] if isinstance(ev.seat, int) and ev.seat < len(names) else "?"
            text = pick(f"{who}使用了一张【{cat.name_of(ev.card)}】", f"{who} plays a {cat.name_of(ev.card)}")
        else:
            text = ev.kind
        out.append({"turn": turn_no, "window": zh, "text": text})
    return out

def _game_step(cat: Catalogue, ev, names: list, window, front, turn_seat=None) -> str | None:
    """A game trace's own events (model.interp.game) and the message's moves, told; None: ``steps`` tells it as
    the timed model's event."""
    from .interp.table import CLASS_WORDS, class_of

    def who(i):
        return names[i] if isinstance(i, int) and 0 <= i < len(names) else "?"

    def colours(cols) -> str:
        cls = class_of(cols or ())
        return pick(*CLASS_WORDS[cls]) if cls else "?"

    dirs = DIRECTION
    if ev.kind == "draw":
        n = ev.n if ev.n is not None else "?"
        return pick(f"{who(turn_seat)}摸{n}张牌", f"{who(turn_seat)} draws {n} card(s)")
    if ev.kind == "send":
        d = dirs.get(ev.dir, (str(ev.dir), str(ev.dir)))
        arrow = dirs.get(ev.arrow, (str(ev.arrow), str(ev.arrow)))
        src = {"deck_top": ("牌堆顶的", "from the deck top, "), "message_area": ("情报区里的", "from his message area, ")}.get(
            ev.source or "hand", ("", ""))
        locks = [who(x) for x in ev.locks or ()]
        text = pick(f"{who(ev.seat)}传出{src[0]}一张{colours(ev.colours)}情报（箭头{arrow[0]}" + ("，有锁定标记" if ev.lockable else "")
                    + f"），{d[0]}传给{who(ev.to)}" + (f"，锁定{'、'.join(locks)}" if locks else "")
                    + ("，面朝上" if ev.face_up else ""),
                    f"{who(ev.seat)} sends a {colours(ev.colours)} message {src[1]}(arrow {arrow[1]}"
                    + (", lock mark" if ev.lockable else "") + f") {d[1]} to {who(ev.to)}"
                    + (f", locking {', '.join(locks)}" if locks else "") + (", face up" if ev.face_up else ""))
        return text
    if ev.kind == "play":
        tgt = pick(f"（目标：{who(ev.target)}）", f" (target: {who(ev.target)})") if ev.target is not None else ""
        if ev.actual and ev.actual != ev.card:
            return pick(f"{who(ev.seat)}把一张【{cat.name_of(ev.actual)}】当作【{cat.name_of(ev.card)}】使用{tgt}",
                        f"{who(ev.seat)} plays a {cat.name_of(ev.actual)} as {cat.name_of(ev.card)}{tgt}")
        return pick(f"{who(ev.seat)}使用了一张【{cat.name_of(ev.card)}】{tgt}", f"{who(ev.seat)} plays a {cat.name_of(ev.card)}{tgt}")
    if ev.kind == "resolve":
        return pick("这张牌结算" + _decisions(cat, ev), "the card resolves" + _decisions(cat, ev))
    if ev.kind == "use":
        tgt = pick(f"（目标：{who(ev.target)}）", f" (target: {who(ev.target)})") if ev.target is not None else ""
        return pick(f"{who(ev.seat)}发动【{cat.name_of(ev.rule)}】{tgt}", f"{who(ev.seat)} uses {cat.name_of(ev.rule)}{tgt}") \
            + _decisions(cat, ev)
    if ev.kind == "fire":
        from .events import EVENT_KINDS
        k = EVENT_KINDS.get(ev.on) if ev.on else None
        on = pick(f"（{k.zh}）", f" ({k.en})") if k else ""
        return pick(f"{who(ev.seat)}的【{cat.name_of(ev.rule)}】发动{on}", f"{who(ev.seat)}'s {cat.name_of(ev.rule)} fires{on}") \
            + _decisions(cat, ev)
    if ev.kind == "die":
        return pick(f"无人救{who(ev.seat)}：{who(ev.seat)}死亡，手牌和情报被弃置",
                    f"nobody saves {who(ev.seat)}: {who(ev.seat)} dies, his hand and messages are discarded")
    if ev.kind == "window" and ev.window in ("send", "fight", "receive") and isinstance(ev.in_front, int):
        if ev.window == "send" and window == "send" and front is not None:
            return pick(f"{who(front)}不接收，情报传到{who(ev.in_front)}面前",
                        f"{who(front)} lets it pass: the message moves on to {who(ev.in_front)}")
        if ev.window == "send":
            return pick(f"情报到达{who(ev.in_front)}面前", f"the message reaches {who(ev.in_front)}")
        if ev.window == "fight" and window == "send":
            return pick(f"{who(ev.in_front)}选择接收情报，进入争夺阶段", f"{who(ev.in_front)} accepts the message: the fight phase begins")
        if ev.window == "receive":
            return pick(f"{who(ev.in_front)}接收了情报，放入情报区", f"{who(ev.in_front)} receives the message into his area")
    return None


def _decisions(cat: Catalogue, ev) -> str:
    """An effect's decisions in words: （选择：第2项；黑色情报）."""
    from .interp.table import CLASS_WORDS
    bits = []
    for path, c in sorted((ev.choices or {}).items()):
        if not isinstance(c, dict):
            continue
        if c.get("skip"):
            bits.append(pick("不做可选的一步", "skips an optional step"))
        if "alt" in c:
            bits.append(pick(f"选第{c['alt'] + 1}项", f"takes option {c['alt'] + 1}"))
        if c.get("cls") in CLASS_WORDS:
            bits.append(pick(f"{CLASS_WORDS[c['cls']][0]}的牌", f"a {CLASS_WORDS[c['cls']][1]} card"))
    return pick("（" + "；".join(bits) + "）", " (" + "; ".join(bits) + ")") if bits else ""


def moment_text(cat: Catalogue, state: State) -> str:
    """The facts of the moment a state stands at, in a few words (as ``steps`` tells a trace): whose
    turn, the window a dying window interrupts, where the message is, who is dying."""
    from .turn import WINDOWS
    name = lambda i: cat.name_of(state.seats[i].character)        # noqa: E731
    ok = lambda i: i is not None and 0 <= i < len(state.seats)     # noqa: E731
    bits = [pick(f"{name(state.turn)}的回合", f"{name(state.turn)}'s turn")] if ok(state.turn) else []
    if state.window == "dying" and state.interrupted in WINDOWS:
        bits.append(pick(f"打断{WINDOWS[state.interrupted].zh}", f"interrupting {the_window(state.interrupted)}"))
    if ok(state.in_front):
        by = ok(state.sender)
        bits.append(pick(f"情报在{name(state.in_front)}面前" + (f"，由{name(state.sender)}传出" if by else ""),
                         f"the message is in front of {name(state.in_front)}"
                         + (f", sent by {name(state.sender)}" if by else "")))
    if ok(state.dying):
        bits.append(pick(f"{name(state.dying)}濒死", f"{name(state.dying)} is dying"))
    return pick("；", "; ").join(bits)


#: who a gives site hands its grant to: to -> (zh, en)
TO_WORDS = {"self": ("对自己", "to themself"), "all": ("对每名角色", "to every player"),
            "target": ("对一名选定的角色", "to a chosen player"), "others": ("对另一名角色", "to another player")}


def origin(cat: Catalogue, state: State, seat: int = 0) -> list[Step]:
    """How ``state`` comes about in a real game, for the player at ``seat``: the characters at the table,
    each granted skill's giver and gives site, invalidation, the face of the role, consumed skills."""
    out: list[Step] = []
    s = state.seats[seat]
    ch = cat.characters.get(s.character)
    me = seat_name(cat, state, seat)
    others = [seat_name(cat, state, i) for i in range(len(state.seats)) if i != seat]
    table = pick(f"{me}是所问的角色", f"{me} is the player asked about")
    if others:
        table += pick("；同桌还有：" + "、".join(others), "; also at the table: " + ", ".join(others))
    out.append(Step(table, s.character, ch.loc if ch else None))
    out.append(Step(pick(f"现在是{seat_name(cat, state, state.turn)}的回合", f"it is {seat_name(cat, state, state.turn)}'s turn")))
    if ch is not None:
        held = {i.rule for i in s.skills}
        gone = [r for r in ch.skills if r not in held]
        if gone:
            names = [cat.skills[r].name for r in gone]
            out.append(Step(pick(f"{'、'.join(names)}之前已用掉（用掉的技能离开持有者）",
                                 f"{', '.join(names)} was used up earlier (a consumed skill leaves its owner)"),
                            gone[0], cat.skills[gone[0]].loc))
        if ch.hidden:
            face = (pick("面朝上", "face up") if s.face_up else
                    pick("面朝下，之前翻开过", "face down, revealed earlier") if s.ever_face_up else
                    pick("面朝下，从未翻开", "face down, never revealed"))
            out.append(Step(pick(f"{ch.name}是隐藏角色，现在{face}", f"{ch.name} is a hidden role, now {face}"),
                            ch.id, ch.loc))
        elif not s.face_up:
            out.append(Step(pick(f"{ch.name}是公开角色却面朝下（不可达）",
                                 f"{ch.name} is a public role shown face down (not reachable)"), ch.id, ch.loc))
    for i, inst in enumerate(s.skills):
        rule = cat.skills.get(inst.rule)
        if rule is None or not rule.is_grant:
            continue
        site = _site(cat, inst.site) if inst.site else None
        g = inst.giver
        who = seat_name(cat, state, g) if g is not None and 0 <= g < len(state.seats) else pick("某人", "someone")
        lab = inst_label(cat, inst)
        if site is None:
            out.append(Step(pick(f"{lab_at(lab, i + 1)}：获得的技能（没有记录来源）",
                                 f"{lab_at(lab, i + 1)}: granted (no site recorded)"), rule.id, rule.loc, i + 1))
            continue
        giver = cat.name_of(site.giver)
        how = pick(f"使用了{giver}" if site.giver_is_card else f"发动了{giver}",
                   f"played {giver}" if site.giver_is_card else f"used {giver}")
        to = pick(*TO_WORDS[site.to]) if site.to in TO_WORDS else site.to
        when = ""
        if not (isinstance(site.when, E.Lit) and site.when.value is True):
            when = pick(f"（条件：{cond(site.when, cat)}）", f" (when {cond(site.when, cat)})")
        extra = ""
        if site.where is not None:
            extra = pick(f"，参数需满足{cond(site.where, cat)}", f", choosing parameters with {cond(site.where, cat)}")
        out.append(Step(pick(f"{who}{how}{when}，{to}给出{rule.name}{extra}：{lab}排在技能列表第{i + 1}位",
                             f"{who} {how}{when}, which hands {rule.name} {to}{extra}: {lab} lands at position "
                             f"{i + 1} of the list"), site.giver, site.loc, i + 1))
    if any(i.invalid for i in s.skills):
        ways = []
        for give in cat.sites("InvalidSkill"):
            for g in range(len(state.seats)):
                if _giver_ok(cat, state, give, g) and to_ok(give.to, g, seat) and \
                        evaluate(give.when, env(cat, state, g)):
                    ways.append((give, g))
        if ways:
            give, g = ways[0]
            giver = cat.name_of(give.giver)
            out.append(Step(pick(f"{seat_name(cat, state, g)}对{me}{'使用了' if give.giver_is_card else '发动了'}{giver}："
                                 f"其所有初始技能被无效，直到回合结束",
                                 f"{seat_name(cat, state, g)} {'played' if give.giver_is_card else 'used'} {giver} on "
                                 f"{me}: every initial skill is invalidated until the end of the turn"),
                            give.giver, give.loc))
        else:
            out.append(Step(pick("初始技能被无效，但这桌上没有人能做到",
                                 "the initial skills are invalidated, but nothing at this table can do that")))
    for other in range(len(state.seats)):
        if other != seat and any(i.invalid for i in state.seats[other].skills):
            out.append(Step(pick(f"{seat_name(cat, state, other)}的初始技能被无效",
                                 f"{seat_name(cat, state, other)}'s initial skills are invalidated")))
    for k, zh, en in (("sender", "{}传出了正在传递的情报", "{} sent the message now travelling"),
                      ("in_front", "情报在{}面前", "{} has the message in front"), ("dying", "{}濒死", "{} is dying")):
        v = getattr(state, k)
        if v is not None:
            out.append(Step(pick(zh, en).format(seat_name(cat, state, v))))
    if s.hand_count:
        out.append(Step(pick(f"{me}有{s.hand_count}张手牌", f"{me} holds {s.hand_count} card(s)")))
    if s.locked:
        out.append(Step(pick(f"{me}被情报锁定", f"{me} is locked by the message")))
    return out


def state_lines(cat: Catalogue, state: State) -> list[str]:
    """The state in a few plain lines (the names are the catalogue's)."""
    out = []
    for i, s in enumerate(state.seats):
        ch = cat.characters.get(s.character)
        bits = [pick("面朝上", "face up") if s.face_up else
                (pick("面朝下（曾翻开）", "face down (revealed before)") if s.ever_face_up else pick("面朝下", "face down"))]
        if not s.alive:
            bits.append(pick("已死亡", "dead"))
        bits.append(pick(*IDENTITY.get(s.identity, (s.identity, s.identity))))
        bits.append(pick(f"手牌{s.hand_count}", f"{s.hand_count} card(s) in hand"))
        msgs = [(c, n) for c, n in (("red", s.red_messages), ("blue", s.blue_messages), ("black", s.black_messages)) if n]
        if msgs:
            bits.append(pick("情报" + "".join(f"{COLOUR[c][0][0]}{n}" for c, n in msgs),
                             "messages: " + ", ".join(f"{n} {c}" for c, n in msgs)))
        if s.locked:
            bits.append(pick("被锁定", "locked"))
        roles = [pick(zh, en) for zh, en, k in (("当前回合", "turn", "turn"), ("传出者", "sender", "sender"),
                                                ("情报在其面前", "message in front", "in_front"), ("濒死", "dying", "dying"))
                 if getattr(state, k) == i]
        head = pick("，", ", ").join(bits)
        if roles:
            head += pick("；" + "、".join(roles), ", " + "; ".join(roles))
        skills = []
        for j, inst in enumerate(s.skills, 1):
            extra = []
            if inst.giver is not None and inst.site:
                g = cat.name_of(state.seats[inst.giver].character) if 0 <= inst.giver < len(state.seats) else "?"
                extra.append(pick(f"来自{g}", f"from {g}"))
            if inst.invalid:
                extra.append(pick("被无效", "invalidated"))
            if inst.used:
                extra.append(pick("本回合已发动", "used this turn"))
            skills.append(f"{j}. {inst_label(cat, inst)}"
                          + (pick(f"［{'，'.join(extra)}］", f" [{', '.join(extra)}]") if extra else ""))
        name = ch.name if ch else s.character
        out.append(pick(f"座位{i}：{name}（{head}）", f"seat {i}: {name} ({head})"))
        out.append(pick("    技能：" + ("；".join(skills) if skills else "无"),
                        "    skills: " + ("; ".join(skills) if skills else "none")))
    if state.message:
        cols = sorted(state.message)
        out.append(pick("情报颜色：" + "、".join(COLOUR.get(c, (c, c))[0] for c in cols),
                        "message colours: " + ", ".join(COLOUR.get(c, (c, c))[1] for c in cols)))
    return out
