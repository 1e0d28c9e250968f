"""Step-by-step narration of the reference interpreter's reasoning on a concrete state.

``narrate(cat, state, question)`` walks the same clauses as ``interp.decide.decide`` for one question (the
dict form witnesses and scenario files use) and records each step that matters — which rule at which
position of the player's skill list did what, and the catalogue line it comes from:

    第3位的变则通·宣言（A=截获，B=破译）是截获的必须转化，其目标（破译）不含误导：否决——这张牌不能当作误导使用
       [model/catalogue/characters/chen_da_er.toml:39]

The final answer is the interpreter's own (``interp.decide.decide``); ``Trace.agrees`` says whether the
narrated walk reached the same answer (the tests hold it to that). ``story`` / ``origin`` tell how the
state arises in a real game.

The sentences are in the run's language (``model.lang``: Chinese by default, English under ``--lang en``);
names are the catalogue's in both, conditions are told in words (``expr_words``), never as ids or reprs.
Nothing here knows about z3. The narrators live by job: ``narrate_base`` (Step, Trace, the shared words),
``narrate_cards`` (conversion, bans, plays, effects), ``narrate_turn`` (receive, send, skipping, draw),
``narrate_skills`` (holds, reachability, results, triggers, active skills), ``narrate_story`` (how a state
arises); this module puts them together and re-exports what the other layers use.
"""
from __future__ import annotations

from .interp.decide import decide
from .catalogue import Catalogue
from .lang import pick
from .expr_words import value
from .narrate_base import GROUP_EN, Step, Trace, card, env, inst_label, pretty, seat_name  # noqa: F401
from .narrate_cards import n_banned, n_can_play, n_conversion, n_resolves
from .narrate_skills import n_fires, n_holds, n_reachable, n_result, narrate_usable  # noqa: F401
from .narrate_story import moment_text, origin, state_lines, story  # noqa: F401
from .narrate_turn import n_draw, n_receive, n_remind, n_send, n_skip
from .state import State

#: decision -> its narrator (``interp.decide.decide``'s decisions; the others get the answer alone)
NARRATORS = {"conversion": n_conversion, "banned": n_banned, "can_play": n_can_play, "receive": n_receive,
             "send": n_send, "skip_fight": n_skip, "skip_dying": n_skip, "draw": n_draw, "holds": n_holds,
             "reachable": n_reachable, "result": n_result, "resolves": n_resolves, "fires": n_fires,
             "remind": n_remind}


def narrate(cat: Catalogue, state: State, question: dict) -> Trace:
    """The interpreter's reasoning for ``question`` on ``state`` (see ``interp.decide.decide``)."""
    answer = decide(cat, state, question)
    d = question["decision"]
    seat = question.get("seat", 0)
    fn = NARRATORS.get(d)
    tr = Trace(question, answer)
    if fn is None:
        tr.conclusion = pick("，", ", ").join(f"{answer_field(k)} = {answer_value(cat, k, v)}" for k, v in answer.items())
        return tr
    fn(cat, state, seat, question, tr)
    return tr


#: the fields of ``interp.decide.decide``'s answers, for people: key -> (zh, en)
ANSWER_FIELDS = {
    "ok": ("可以", "allowed"), "via": ("通过", "via"), "banned": ("被禁止", "banned"), "can_play": ("能使用", "can play"),
    "receive": ("接收", "receive"), "must": ("必须接收", "must receive"), "cannot": ("不能接收", "cannot receive"),
    "skip": ("跳过", "skipped"), "could_act": ("能行动", "could act"), "draw": ("摸牌数", "cards drawn"),
    "holds": ("持有", "holds"), "live": ("生效", "in force"), "reachable": ("可达", "reachable"),
    "why_not": ("原因", "why not"), "resolves": ("结算", "resolves"), "validated": ("检查通过", "validated"),
    "fires": ("发动", "fires"), "matters": ("影响判定", "matters"), "allowed": ("允许", "allowed"),
    "winners": ("胜者", "winners"), "declared": ("宣胜者", "declared"), "kept": ("保留", "kept"),
    "invalid": ("被无效", "invalid"), "group": ("组", "group"), "in_force": ("生效的规则", "in force"),
    "via_index": ("转化位置", "position of the conversion"), "in_force_index": ("生效位置", "position in force"),
    "plays": ("打出", "plays"), "usable": ("可用", "usable"), "has_card": ("手里有牌", "holds a card"), "invalidated": ("被无效", "invalidated"),
    "turns_ago": ("几回合前获得", "turns ago"),
    "remind": ("提醒", "prompts"), "skills": ("技能", "skills"), "prompts": ("提醒它", "prompts for it"),
    "usable_now": ("此刻能用", "usable now"),
    "alive": ("存活", "alive"), "dying": ("濒死", "dying"), "winner": ("获胜", "winner"), "game_over": ("游戏结束", "game over"),
    "identity": ("身份", "identity"), "task": ("秘密任务", "secret task"), "hand_count": ("手牌数", "cards in hand"),
    "received": ("收到本回合的情报", "received this turn's message"), "red_messages": ("红色情报", "red messages"),
    "blue_messages": ("蓝色情报", "blue messages"), "black_messages": ("黑色情报", "black messages"),
    "true_messages": ("真情报", "true messages"), "non_black_messages": ("非黑情报", "non-black messages"),
}

#: answer values that are words, not names: value -> (zh, en)
ANSWER_WORDS = {"must": ("必须接收", "must receive"), "cannot": ("不能接收", "cannot receive"),
                "free": ("可以选择", "may choose"), "declared": ("宣言的牌", "the declared card"),
                "physical": ("实际的牌", "the physical card")}


def answer_field(k: str) -> str:
    """A field of a decision's answer for people: 可以 / allowed (never the key ``ok``)."""
    zh, en = ANSWER_FIELDS.get(k, (k, k.replace("_", " ")))
    return pick(zh, en)


def answer_value(cat: Catalogue, k: str, v) -> str:
    """A value of a decision's answer for people (names, 是/否, words for the receive obligation)."""
    if isinstance(v, str) and v in ANSWER_WORDS and k in ("receive", "resolves", "plays"):
        return pick(*ANSWER_WORDS[v])
    if k in ("declared", "winners") and isinstance(v, (list, tuple)):
        return "{" + pick("、", ", ").join(pick(f"座位{i}", f"seat {i}") for i in v) + "}"
    if k == "group" and isinstance(v, str):
        from .narrate_base import group_word
        return group_word(v)
    if v is None:
        return pick("无", "none")
    if k == "identity" and isinstance(v, str):
        from .expr_words import IDENTITY
        return pick(*IDENTITY.get(v, (v, v)))
    if k == "task" and isinstance(v, str):
        from .interp.win import TASK_WORDS
        return pick(*TASK_WORDS.get(v, (v, v)))
    return value(cat, v)


def answer_text(cat: Catalogue, answer: dict, keys=None) -> str:
    """``可以 = 否，通过 = 变则通·宣言`` / ``allowed = no, via = 变则通·宣言`` for the ``keys`` of an answer."""
    keys = list(answer) if keys is None else keys
    return pick("，", ", ").join(f"{answer_field(k)} = {answer_value(cat, k, answer.get(k))}" for k in keys)


def question_title(cat, q: dict) -> str:
    """A decide-form question for people, in the run's language: 把截获当作误导使用（能否使用） / 截获 as 误导
    (can play)."""
    from .turn import WINDOWS, window_name
    d = q.get("decision")
    who = pick(f"座位{q['seat']}：", f"seat {q['seat']}: ") if q.get("seat") not in (None, 0) else ""
    if d in ("can_play", "conversion"):
        a, b = card(cat, q["actual"]), card(cat, q["declared"])
        return who + pick(f"把{a}当作{b}（{'能否使用' if d == 'can_play' else '转化'}）",
                          f"{a} as {b} ({d.replace('_', ' ')})")
    if d == "banned":
        return who + pick(f"{card(cat, q['declared'])}是否被禁止？", f"is {card(cat, q['declared'])} banned?")
    if d == "send":
        from .expr_words import DIRECTION
        from .narrate_base import group_word
        g = group_word(q.get("group"))
        if "dir" in q:
            n = q.get("lock_count", 0)
            return who + pick(f"{g}规则（{DIRECTION.get(q['dir'], (q['dir'],))[0]}传出，锁定{n}人）",
                              f"{g} send rule, sending {q['dir']} locking {n}")
        return who + pick(f"{g}规则", f"{g} send rule")
    if d == "holds":
        return who + pick(f"是否持有{cat.name_of(q['rule'])}？", f"holds {cat.name_of(q['rule'])}?")
    if d == "remind" and q.get("rule"):
        x = cat.name_of(q["rule"])
        return who + pick(f"结束出牌阶段时是否提醒{x}？", f"prompted about {x} when ending the main phase?")
    if d == "usable":
        r, ph = cat.name_of(q["rule"]), q.get("phase")
        return who + pick(f"{r}{'在' + WINDOWS[ph].zh if ph in WINDOWS else ''}能否使用？",
                          f"can {r} be used{' in the ' + window_name(ph) if ph else ''}?")
    if d == "result":
        t = q.get("turn", 0)
        return who + pick(("谁宣胜（宣胜技能）" if q.get("kind") == "win" else "游戏结果（影响游戏结果的技能）")
                          + f"，从座位{t}的回合起",
                          ("who declares victory (WinSkill)" if q.get("kind") == "win" else
                           "the game result (ChangeGameResultSkill)") + f", from seat {t}'s turn")
    if d in ("fires", "resolves", "plays", "matters") and (q.get("rule") or q.get("declared")):
        x = cat.name_of(q.get("rule") or q.get("declared"))
        return who + {"fires": pick(f"{x}是否发动？", f"does {x} fire?"),
                      "resolves": pick(f"{x}的效果是否发生？", f"does {x}'s effect happen?"),
                      "plays": pick(f"{x}打出的牌", f"what {x} plays"),
                      "matters": pick(f"{x}是否影响判定？", f"does {x} matter?")}[d]
    words = {"receive": ("能否接收情报？", "receive the message?"),
             "skip_fight": ("争夺阶段是否跳过？", "skipped in the fight phase?"),
             "skip_dying": ("濒死求澄清是否跳过？", "skipped in the dying window?"), "draw": ("摸牌数", "draw count"),
             "reachable": ("是否可达？", "reachable?"), "turn_end": ("回合结束后", "after the turn ends"),
             "remind": ("结束出牌阶段时是否提醒？", "prompted when ending the main phase?"),
             "table": ("在牌桌上：存活、濒死、获胜、情报与手牌", "at the table: alive, dying, winning, messages and hand")}
    zh, en = words.get(d, ("判定", str(d).replace("_", " ")))
    return who + pick(zh, en)
