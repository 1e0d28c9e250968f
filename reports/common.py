"""Shared formatting helpers: how a witness scenario reads in a few lines, in the designer's terms."""
from __future__ import annotations

from skillproof.model import turn as _TW
from skillproof.model.kinds import SEND_GROUP_ZH as GROUP_ZH

IDENT_ZH = {"red": "红方", "blue": "蓝方", "black": "神秘人", "none": "无身份"}
DIR_ZH = {"up": "上", "left": "左", "right": "右"}
WINDOW_ZH = {w.id: w.zh for w in _TW.WINDOWS.values()}


def _val(cat, v):
    if isinstance(v, (list, tuple)):
        return "{" + "、".join(_val(cat, x) for x in v) + "}"
    if isinstance(v, bool):
        return "是" if v else "否"
    if isinstance(v, str):
        return cat.name_of(v) if v in cat.cards or v in cat.characters else v
    return str(v)


def skill_label(cat, inst: dict, seats) -> str:
    r = cat.skills.get(inst["rule"])
    name = r.name if r else inst["rule"]
    bits = []
    if inst.get("args"):
        bits.append("，".join(f"{k}={_val(cat, v)}" for k, v in sorted(inst["args"].items())))
    if inst.get("giver") is not None and 0 <= inst["giver"] < len(seats):
        bits.append(f"来自{cat.name_of(seats[inst['giver']]['character'])}")
    if inst.get("invalid"):
        bits.append("被无效")
    if inst.get("used"):
        bits.append("本回合已用")
    return name + (f"（{'；'.join(bits)}）" if bits else "")


def seat_line(cat, i: int, seat: dict, seats, state: dict) -> str:
    ch = cat.characters.get(seat["character"])
    name = ch.name if ch else seat["character"]
    attrs = ["正面朝上" if seat.get("face_up", True) else "背面朝上"]
    if not seat.get("face_up", True) and seat.get("ever_face_up"):
        attrs.append("曾翻开")
    if not seat.get("alive", True):
        attrs.append("已死亡")
    attrs.append(IDENT_ZH.get(seat.get("identity"), seat.get("identity", "")))
    attrs.append(f"手牌{seat.get('hand_count', 0)}")
    msgs = [f"{c}{seat.get(k, 0)}" for c, k in (("红", "red_messages"), ("蓝", "blue_messages"), ("黑", "black_messages")) if seat.get(k)]
    if msgs:
        attrs.append("情报" + "".join(msgs))
    if seat.get("locked"):
        attrs.append("被锁定")
    roles = []
    if state.get("turn") == i:
        roles.append("当前回合")
    if state.get("sender") == i:
        roles.append("传出者")
    if state.get("in_front") == i:
        roles.append("情报在其面前")
    if state.get("dying") == i:
        roles.append("濒死")
    skills = "、".join(skill_label(cat, s, seats) for s in seat.get("skills", []))
    head = f"座位{i} {name}（{'，'.join(attrs)}{'；' + '、'.join(roles) if roles else ''}）"
    return f"{head} 技能：{skills or '无'}"


def question_line(cat, q: dict, expect: dict) -> str:
    d = q.get("decision")
    exp = "，".join(f"{k} = {_val(cat, v) if not isinstance(v, list) else v}" for k, v in expect.items())
    if d in ("conversion", "can_play"):
        what = f"把{_val(cat, q['actual'])}当作{_val(cat, q['declared'])}使用"
    elif d == "banned":
        what = f"{_val(cat, q['declared'])}是否被禁止"
    elif d == "send":
        what = f"{GROUP_ZH.get(q.get('group'), q.get('group'))}规则"
        if "dir" in q:
            what += f"（方向{DIR_ZH.get(q['dir'], q['dir'])}，锁定{q.get('lock_count', 0)}人）"
    elif d == "result":
        what = f"{'宣胜' if q.get('kind') == 'win' else '游戏结果'}结算（从座位{q.get('turn')}开始，宣胜者{q.get('declared')}，胜者{q.get('winners')}）"
    else:
        what = {"receive": "能否接收情报", "skip_fight": "争夺阶段是否跳过", "skip_dying": "濒死求澄清是否跳过",
                "draw": "摸牌数", "turn_end": "回合结束后", "holds": f"是否持有【{cat.name_of(q.get('rule', ''))}】",
                "reachable": "局面是否可达"}.get(d, d)
    seat = q.get("seat")
    who = f"座位{seat}：" if seat not in (None, 0) else ""
    return f"{who}{what} ⇒ {exp}"


def trace_lines(cat, trace: dict) -> list[str]:
    """A witness's trace, one line per step: 第N回合·窗口：事件."""
    from skillproof.model import trace as TR
    return [f"第{s['turn']}回合·{s['window']}：{s['text']}" for s in TR.steps(cat, TR.Trace.from_dict(trace))]


def witness_lines(cat, witness: dict | None) -> list[str]:
    """A few lines describing a witness: the seats, the skills, the question and its answer."""
    if not witness:
        return []
    st = witness["state"]
    seats = st["seats"]
    lines = []
    if witness.get("trace") and cat is not None:
        lines.append("经过：")
        lines.extend(f"  {step}" for step in trace_lines(cat, witness["trace"]))
        lines.append("此时：" + (WINDOW_ZH.get(st.get("window"), st.get("window") or "")))
    lines += [seat_line(cat, i, s, seats, st) for i, s in enumerate(seats)]
    if st.get("message"):
        lines.append("情报颜色：" + "、".join({"red": "红", "blue": "蓝", "black": "黑"}.get(c, c) for c in st["message"]))
    lines.append("问题：" + question_line(cat, witness["question"], witness["expect"]))
    for item in witness.get("also", []):
        lines.append("以及：" + question_line(cat, item["question"], item["expect"]))
    return lines
