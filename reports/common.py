"""Shared formatting helpers: how a witness scenario reads in a few lines, in the designer's terms and the
run's language (names stay the catalogue's)."""
from __future__ import annotations

from skillproof.model import turn as _TW
from skillproof.model.kinds import SEND_GROUP_ZH as GROUP_ZH
from skillproof.model.narrate import answer_field
from skillproof.model.lang import is_en, param_name, pick, yes_no

IDENT_ZH = {"red": "红方", "blue": "蓝方", "black": "神秘人", "none": "无身份"}
IDENT_EN = {"red": "red", "blue": "blue", "black": "mystery", "none": "no identity"}
DIR_ZH = {"up": "上", "left": "左", "right": "右"}
WINDOW_ZH = {w.id: w.zh for w in _TW.WINDOWS.values()}
GROUP_EN = {"SendMessageDirectionSkill": "direction", "SendMessageCanLockSkill": "lock",
            "SendMessageCardSkill": "message card"}
COLOUR = {"red": ("红", "red"), "blue": ("蓝", "blue"), "black": ("黑", "black")}

# a decision's name, for people
DECISION = {"conversion": ("转化", "conversion"), "can_play": ("能否使用", "can play"), "banned": ("禁令", "ban"),
            "send": ("传出", "send"), "result": ("结算", "result"), "receive": ("接收", "receive"),
            "skip_fight": ("争夺阶段跳过", "fight skip"), "skip_dying": ("濒死求澄清跳过", "dying skip"),
            "draw": ("摸牌数", "draw count"), "turn_end": ("回合结束", "turn end"), "holds": ("持有", "holds"),
            "reachable": ("可达", "reachable"), "resolves": ("结算", "resolves"), "plays": ("打出", "plays"),
            "fires": ("发动", "fires"), "matters": ("影响", "matters"), "possible": ("局面", "situation"),
            "engine": ("引擎规则", "engine rule"), "remind": ("结束出牌阶段时的提醒", "end-of-main-phase prompt")}


def decision_word(d: str) -> str:
    zh, en = DECISION.get(d, (d, d))
    return pick(zh, en)


def field_word(k: str) -> str:
    """A decision's answer field for people: one table with the model's narration (``narrate.answer_field``)."""
    return answer_field(k)


def _val(cat, v):
    if isinstance(v, (list, tuple)):
        return pick("{" + "、".join(_val(cat, x) for x in v) + "}", "{" + ", ".join(_val(cat, x) for x in v) + "}")
    if isinstance(v, bool):
        return yes_no(v)
    if v is None:
        return "—"
    if isinstance(v, str):
        if cat is not None and (v in cat.cards or v in cat.characters or v in cat.skills):
            return cat.name_of(v)
        return v
    return str(v)


def _arg(cat, rule, k: str, v) -> str:
    """A grant's argument for people: a colour as a colour word, an empty set as none, names for ids."""
    typ = str((getattr(rule, "params", None) or {}).get(k, ""))
    if "colour" in typ:
        if isinstance(v, str):
            return pick(*COLOUR.get(v, (v, v)))
        if isinstance(v, (list, tuple)):
            return pick("{" + "、".join(COLOUR.get(x, (x, x))[0] for x in v) + "}",
                        "{" + ", ".join(COLOUR.get(x, (x, x))[1] for x in v) + "}") if v else pick("无", "none")
    if isinstance(v, (list, tuple, set)) and not v:
        return pick("无", "none")
    return _val(cat, v)


def skill_label(cat, inst: dict, seats) -> str:
    r = cat.skills.get(inst["rule"])
    name = r.name if r else inst["rule"]
    bits = []
    if inst.get("args"):
        bits.append(pick("，", ", ").join(f"{param_name(k)}={_arg(cat, r, k, v)}" for k, v in sorted(inst["args"].items())))
    if inst.get("giver") is not None and 0 <= inst["giver"] < len(seats):
        bits.append(pick(f"来自{cat.name_of(seats[inst['giver']]['character'])}",
                         f"from {cat.name_of(seats[inst['giver']]['character'])}"))
    if inst.get("invalid"):
        bits.append(pick("被无效", "invalidated"))
    if inst.get("used"):
        bits.append(pick("本回合已用", "used this turn"))
    if not bits:
        return name
    return pick(f"{name}（{'；'.join(bits)}）", f"{name} ({'; '.join(bits)})")


def seat_line(cat, i: int, seat: dict, seats, state: dict) -> str:
    ch = cat.characters.get(seat["character"])
    name = ch.name if ch else seat["character"]
    en = is_en()
    up = seat.get("face_up", True)
    attrs = [pick("正面朝上", "face up") if up else pick("背面朝上", "face down")]
    if not up and seat.get("ever_face_up"):
        attrs.append(pick("曾翻开", "was face up"))
    if not seat.get("alive", True):
        attrs.append(pick("已死亡", "dead"))
    ident = seat.get("identity")
    attrs.append((IDENT_EN if en else IDENT_ZH).get(ident, ident or ""))
    attrs.append(pick(f"手牌{seat.get('hand_count', 0)}", f"{seat.get('hand_count', 0)} in hand"))
    msgs = [(c, seat.get(k, 0)) for c, k in (("red", "red_messages"), ("blue", "blue_messages"),
                                             ("black", "black_messages")) if seat.get(k)]
    if msgs:
        attrs.append(pick("情报" + "".join(f"{COLOUR[c][0]}{n}" for c, n in msgs),
                          "messages " + " ".join(f"{n} {COLOUR[c][1]}" for c, n in msgs)))
    if seat.get("locked"):
        attrs.append(pick("被锁定", "locked"))
    roles = []
    if state.get("turn") == i:
        roles.append(pick("当前回合", "turn player"))
    if state.get("sender") == i:
        roles.append(pick("传出者", "sender"))
    if state.get("in_front") == i:
        roles.append(pick("情报在其面前", "message in front"))
    if state.get("dying") == i:
        roles.append(pick("濒死", "dying"))
    skills = pick("、", ", ").join(skill_label(cat, s, seats) for s in seat.get("skills", []))
    if en:
        head = f"seat {i} {name} ({', '.join(attrs)}{'; ' + ', '.join(roles) if roles else ''})"
        return f"{head} skills: {skills or 'none'}"
    head = f"座位{i} {name}（{'，'.join(attrs)}{'；' + '、'.join(roles) if roles else ''}）"
    return f"{head} 技能：{skills or '无'}"


def answer_text(cat, expect: dict) -> str:
    """A decision's answer for people: ``可以 = 否，通过 = 变则通·宣言`` / ``allowed = no, via = 变则通·宣言``; the
    receive obligation and what a skill resolves or plays as words (必须接收, 宣言的牌), as the narration says them."""
    from skillproof.model.narrate import answer_value
    return pick("，", ", ").join(
        f"{field_word(k)} = {answer_value(cat, k, v) if k in ('receive', 'resolves', 'plays', 'declared', 'winners', 'group') else _val(cat, v)}"
        for k, v in expect.items())


def question_line(cat, q: dict, expect: dict) -> str:
    d = q.get("decision")
    exp = answer_text(cat, expect)
    en = is_en()
    if d in ("conversion", "can_play"):
        what = pick(f"把{_val(cat, q['actual'])}当作{_val(cat, q['declared'])}使用",
                    f"play {_val(cat, q['actual'])} as {_val(cat, q['declared'])}")
    elif d == "banned":
        what = pick(f"{_val(cat, q['declared'])}是否被禁止", f"is {_val(cat, q['declared'])} banned")
    elif d == "send":
        g = q.get("group")
        what = pick(f"{GROUP_ZH.get(g, g)}规则", f"{GROUP_EN.get(g, g)} rule")
        if "dir" in q:
            what += pick(f"（方向{DIR_ZH.get(q['dir'], q['dir'])}，锁定{q.get('lock_count', 0)}人）",
                         f" (direction {q['dir']}, {q.get('lock_count', 0)} locked)")
    elif d == "result":
        win = q.get("kind") == "win"
        what = pick(f"{'宣胜' if win else '游戏结果'}结算（从座位{q.get('turn')}开始，宣胜者{_val(cat, q.get('declared'))}，"
                    f"胜者{_val(cat, q.get('winners'))}）",
                    f"{'win' if win else 'game result'} settling (from seat {q.get('turn')}, declared "
                    f"{_val(cat, q.get('declared'))}, winners {_val(cat, q.get('winners'))})")
    elif d == "holds":
        what = pick(f"是否持有【{cat.name_of(q.get('rule', ''))}】", f"holds {cat.name_of(q.get('rule', ''))}")
    elif d in ("resolves", "plays", "fires", "matters") and q.get("rule"):
        rn = cat.name_of(q["rule"])
        what = {"resolves": pick(f"【{rn}】结算的效果", f"what {rn} resolves"),
                "plays": pick(f"【{rn}】打出的牌", f"what {rn} plays"),
                "fires": pick(f"【{rn}】是否发动", f"does {rn} fire"),
                "matters": pick(f"【{rn}】是否影响判定", f"does {rn} matter")}[d]
    else:
        what = {"receive": ("能否接收情报", "can the message be received"),
                "skip_fight": ("争夺阶段是否跳过", "is the player skipped in the fight phase"),
                "skip_dying": ("濒死求澄清是否跳过", "is the player skipped while someone is dying"),
                "draw": ("摸牌数", "cards drawn"), "turn_end": ("回合结束后", "after the turn end"),
                "reachable": ("局面是否可达", "is the situation reachable"),
                "resolves": ("结算的效果", "what resolves"), "plays": ("打出的牌", "what is played"),
                "fires": ("是否发动", "does it fire"), "matters": ("是否影响判定", "does it matter")}.get(d, (d, d))
        what = what[1] if en else what[0]
    seat = q.get("seat")
    who = pick(f"座位{seat}：", f"seat {seat}: ") if seat not in (None, 0) else ""
    return f"{who}{what} ⇒ {exp}"


def trace_lines(cat, trace: dict) -> list[str]:
    """A witness's trace, one line per step: 第N回合·窗口：事件 / turn N, window: event."""
    from skillproof.model.interp import trace as TR
    from skillproof.model.narrate_story import steps
    return [step_line(s) for s in steps(cat, TR.Trace.from_dict(trace))]


def step_line(s: dict) -> str:
    """One step of a trace (``model.narrate_story.steps``' dict)."""
    win = _TW.window_name_of_zh(s.get("window", ""))
    return pick(f"第{s.get('turn')}回合·{win}：{s.get('text')}", f"turn {s.get('turn')}, {win}: {s.get('text')}")


def witness_lines(cat, witness: dict | None) -> list[str]:
    """A few lines describing a witness: the seats, the skills, the question and its answer."""
    if not witness:
        return []
    st = witness["state"]
    seats = st["seats"]
    lines = []
    un = witness.get("unrealised")
    if un is not None:
        why = un if isinstance(un, dict) else {"zh": str(un), "en": str(un)}
        lines.append(pick(f"（时序模型的轨迹：界限内没有找到服务器能打出的一局——{why['zh']}；牌桌不动）",
                          f"(the timed model's trace: no game of the server found within the bounds — {why['en']}; "
                          f"the table does not move)"))
    if witness.get("trace") and cat is not None:
        lines.append(pick("经过：", "what happened:"))
        lines.extend(f"  {step}" for step in trace_lines(cat, witness["trace"]))
        lines.append(pick("此时：", "now: ") + _TW.window_name(st.get("window")))
    lines += [seat_line(cat, i, s, seats, st) for i, s in enumerate(seats)]
    if st.get("message"):
        lines.append(pick("情报颜色：" + "、".join(COLOUR.get(c, (c, c))[0] for c in st["message"]),
                          "message colours: " + ", ".join(COLOUR.get(c, (c, c))[1] for c in st["message"])))
    lines.append(pick("问题：", "question: ") + question_line(cat, witness["question"], witness["expect"]))
    for item in witness.get("also", []):
        lines.append(pick("以及：", "also: ") + question_line(cat, item["question"], item["expect"]))
    return lines
