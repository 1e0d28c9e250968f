"""Narrating the decisions about skills themselves: holding one (``holds``), a state's reachability
(``reachable``), the win / game-result pass (``result``), a triggered skill firing (``fires``) and an
active skill being usable now (``narrate_usable``, not a decide() question)."""
from __future__ import annotations

from .interp.core import evaluate, live_kinds
from .interp.result import apply_effect, table_order
from .lang import pick, yes_no
from .narrate_base import (Step, Trace, cond, env, inst_label, lab_at, seat_name, seats_text, the_window,
                           window_now, windows_text)


def n_holds(cat, state, seat, q, tr: Trace):
    rid = q["rule"]
    r = cat.skills.get(rid)
    name = r.name if r else rid
    insts = [(i, x) for i, x in enumerate(state.seats[seat].skills) if x.rule == rid]
    for i, x in insts:
        lab = lab_at(inst_label(cat, x), i + 1)
        tr.steps.append(Step(lab + (pick("（被无效）", " (invalidated)") if x.invalid else ""),
                             rid, r.loc if r else None, i + 1))
    if not insts:
        tr.steps.append(Step(pick(f"{seat_name(cat, state, seat)}没有{name}",
                                  f"{seat_name(cat, state, seat)} does not hold {name}")))
    a = tr.answer
    tr.conclusion = pick(f"{'持有' if a['holds'] else '没有'}{name}"
                         + ("，生效中" if a["live"] else ("，被无效" if a["holds"] else "")),
                         f"{'holds' if a['holds'] else 'does not hold'} {name}"
                         + (", live" if a["live"] else (", invalidated" if a["holds"] else "")))


def n_reachable(cat, state, seat, q, tr: Trace):
    for w in tr.answer["why_not"]:
        tr.steps.append(Step(w, decisive=True))
    tr.conclusion = pick("按这个目录，游戏能到达这个局面", "a game under the catalogue can reach this state") \
        if tr.answer["reachable"] else pick("按这个目录，没有游戏能到达这个局面", "no game under the catalogue reaches this state")


def n_result(cat, state, seat, q, tr: Trace):
    st = state.copy()
    if "turn" in q:
        st.turn = q["turn"]
    kind = q.get("kind", "result")
    kname = "WinSkill" if kind == "win" else "ChangeGameResultSkill"
    picks = q.get("picks") or {}
    declared, winners = set(q.get("declared", ())), set(q.get("winners", ()))
    what = pick("宣胜技能" if kind == "win" else "影响游戏结果的技能",
                "declaring victory (WinSkill)" if kind == "win" else "changing the game result (ChangeGameResultSkill)")
    tr.steps.append(Step(pick(f"从{seat_name(cat, st, st.turn)}的回合起按座位顺序结算{what}，开始时宣胜者为"
                              f"{seats_text(cat, st, declared)}，胜者为{seats_text(cat, st, winners)}",
                              f"skills {what} are applied round the table from {seat_name(cat, st, st.turn)}'s turn, "
                              f"starting with declared winners {seats_text(cat, st, declared)} and winners "
                              f"{seats_text(cat, st, winners)}")))
    order = table_order(st, q.get("seating"))          # round the table from whose turn (its seating)
    for s_i in order:
        s = st.seats[s_i]
        who = seat_name(cat, st, s_i)
        for si, inst in enumerate(s.skills):
            rule = cat.skills[inst.rule]
            if kname not in live_kinds(cat, inst):
                continue
            if not s.alive and rule.initial:
                tr.steps.append(Step(pick(f"{who}的{rule.name}被跳过：持有者已死亡（死后只有获得的技能生效）",
                                          f"{who}'s {rule.name} is skipped: its owner is dead (only a granted skill "
                                          f"acts after death)"), rule.id, rule.loc, si + 1))
                continue
            for ei, eff in enumerate(getattr(rule, kind)):
                before = (set(declared), set(winners))
                apply_effect(cat, st, s_i, inst, eff, declared, winners, picks.get(f"{s_i}/{si}/{ei}"), order)
                if (declared, winners) == before:
                    tr.steps.append(Step(pick(f"{who}的{rule.name}（效果{ei + 1}）：无变化（条件{cond(eff.when, cat)}）",
                                              f"{who}'s {rule.name} (effect {ei + 1}): no change "
                                              f"(when {cond(eff.when, cat)})"), rule.id, eff.loc, si + 1))
                else:
                    d0, d1 = seats_text(cat, st, before[0]), seats_text(cat, st, declared)
                    w0, w1 = seats_text(cat, st, before[1]), seats_text(cat, st, winners)
                    tr.steps.append(Step(pick(f"{who}的{rule.name}（效果{ei + 1}）：宣胜者{d0} → {d1}，胜者{w0} → {w1}",
                                              f"{who}'s {rule.name} (effect {ei + 1}): declared {d0} → {d1}, "
                                              f"winners {w0} → {w1}"), rule.id, eff.loc, si + 1, decisive=True))
    a = tr.answer
    tr.agrees = (sorted(declared), sorted(winners)) == (a["declared"], a["winners"])
    tr.conclusion = pick(f"宣胜者{seats_text(cat, st, a['declared'])}；胜者{seats_text(cat, st, a['winners'])}",
                         f"declared winners {seats_text(cat, st, a['declared'])}; winners "
                         f"{seats_text(cat, st, a['winners'])}")


def n_fires(cat, state, seat, q, tr: Trace):
    from .turn import WINDOWS
    rule = cat.skills[q["rule"]]
    f = rule.fires
    for pos, inst in enumerate(state.seats[seat].skills, 1):
        if inst.rule != rule.id or f is None:
            continue
        when = bool(evaluate(f.when, env(cat, state, seat, inst)))
        win = state.window is None or state.window in f.at
        lab = lab_at(inst_label(cat, inst), pos)
        wins = pick("、".join(WINDOWS[w].zh for w in f.at), "/".join(the_window(w) for w in f.at))
        tr.steps.append(Step(pick(f"{lab}在{wins}发动，条件{cond(f.when, cat)} → {yes_no(when)}"
                                  + ("" if win else f"；现在是{window_now(state)}"),
                                  f"{lab} fires in {wins} when {cond(f.when, cat)} → {yes_no(when)}"
                                  + ("" if win else f"; now it is {window_now(state)}")),
                             rule.id, f.loc, pos, decisive=when and win and not inst.invalid))
    fires = tr.answer["fires"]
    tr.conclusion = pick(f"{rule.name}此时{'发动' if fires else '不发动'}",
                         f"{rule.name} {'fires' if fires else 'does not fire'} now")


def narrate_usable(cat, state, seat: int, rid: str, phase: str | None) -> Trace:
    """Can ``seat`` use the ActiveSkill ``rid`` now (its canUse for 争夺阶段, its condition while someone is
    dying)? Not a decide() question: the answer is reported as ``{"usable": bool}``."""
    rule = cat.skills[rid]
    tr = Trace({"decision": "usable", "seat": seat, "rule": rid, "phase": phase}, {"usable": False})
    phases = [phase] if phase else ["fight", "dying"]
    insts = [(i, x) for i, x in enumerate(state.seats[seat].skills) if x.rule == rid]
    if not insts:
        tr.steps.append(Step(pick(f"{seat_name(cat, state, seat)}没有{rule.name}",
                                  f"{seat_name(cat, state, seat)} does not hold {rule.name}"), rid, rule.loc))
    in_window = True
    if state.window is not None:
        from .interp.windows import in_window as in_win
        from .turn import WINDOWS
        wins = {w: a for w, a in rule.windows.items() if phase is None or w == phase}
        in_window = in_win(state, seat, wins)
        phases = [state.window] if state.window in ("main", "fight", "dying") else []
        asked = pick(f"（问的是{WINDOWS[phase].zh}）", f" (asked about {the_window(phase)})") if phase in WINDOWS else ""
        tr.steps.append(Step(pick(f"{rule.name}的使用时机：{windows_text(rule.windows)}{asked}；现在是{window_now(state)}："
                                  + ("这名角色此时可以使用" if in_window else
                                     "这名角色已死亡，死亡的角色不能行动" if not state.seats[seat].alive else "此时不能使用"),
                                  f"{rule.name} is used in {windows_text(rule.windows)}{asked}; now it is "
                                  f"{window_now(state)}: "
                                  + ("a moment it may be used by this player" if in_window else
                                     "this player is dead, and a dead player does not act" if not state.seats[seat].alive
                                     else "not a moment it is used")),
                             rid, rule.at("windows"), decisive=not in_window))
    usable = False
    for i, inst in insts:
        lab = lab_at(inst_label(cat, inst), i + 1)
        if "ActiveSkill" not in live_kinds(cat, inst):
            tr.steps.append(Step(pick(f"{lab}被无效：不能使用", f"{lab} is invalidated: cannot be used"),
                                 rid, rule.loc, i + 1, decisive=True))
            continue
        if not phases:
            usable = usable or in_window
        for p in phases:
            c = getattr(rule, p)
            ok = c is not None and bool(evaluate(c, env(cat, state, seat, inst)))
            zh = {"main": "出牌阶段", "fight": "争夺阶段", "dying": "有角色濒死时"}[p]
            en = {"main": "in the main phase", "fight": "in the fight phase", "dying": "while someone is dying"}[p]
            tr.steps.append(Step(pick(f"{lab}：{zh}可用的条件{cond(c, cat)} → {yes_no(ok)}",
                                      f"{lab}: usable {en} when {cond(c, cat)} → {yes_no(ok)}"), rid, rule.at(p), i + 1,
                                 decisive=ok))
            usable = usable or (ok and in_window)
    tr.answer = {"usable": usable}
    now = state.window is not None
    tr.conclusion = pick(f"{rule.name}{'现在' if now else ''}{'能' if usable else '不能'}使用"
                         + (f"（{window_now(state)}）" if now else ""),
                         f"{rule.name} {'can' if usable else 'cannot'} be used"
                         + (f" now ({window_now(state)})" if now else ""))
    return tr
