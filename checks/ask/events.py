"""`which events SKILL` — 遗信什么时候发动 / when does 遗信 fire: the events a skill answers, told from the catalogue.

Not a solver question: the answer is what the catalogue says of the skill's trigger — each ``on`` entry (the event
kind, whose event it must be, the guard in words, with its file:line), and the engine's rules that decide whether
it is asked at all, each citing the design note or the server (model.events):

- design note L141 (BeforeDieSkill): asked though its holder is not alive; otherwise a dead holder's initial skills
  are not asked (server Game.dealListeningSkill, model.events.dispatched);
- design note L82 / L84: only initial skills are invalidated, and an invalidated one is wrapped in an InvalidSkill,
  which answers nothing until the turn ends;
- design note L85: a OneTurnSkill is lost at the turn's end;
- the order of asking and once per event (model.events.ORDER / ONCE).

A skill with no ``on`` is told as what it is: an ActiveSkill is used in its windows, another kind acts where its
kind is consulted; a TriggeredSkill without ``on`` has its trigger only in prose (answer *unknown*: never a guess).
"""
from __future__ import annotations

from skillproof.model import events as EV
from skillproof.model import turn as TW
from skillproof.model.lang import pick

from .result import Result
from .syntax import Query


def _whose(kind: EV.EventKind, whose: tuple) -> str:
    if whose == ("any",):
        return pick("任何人的事件", "anyone's event")
    if whose == ("self",):
        return pick("持有者自己的事件", "the holder's own event")
    if whose == ("other",):
        return pick("别人的事件", "another player's event")
    roles = [kind.role(w) for w in whose]
    names = [pick(r.zh, r.en) if r is not None else w for r, w in zip(roles, whose)]
    return pick("持有者是其中的" + "或".join(names), "the holder is " + " or ".join(names))


def _entry(cat, rule, o) -> dict:
    from skillproof.model.expr_words import words_both
    from skillproof.model.lang import using
    kind = EV.EVENT_KINDS[o.event]
    guards = words_both(o.when, cat, o.event) if o.text.strip() not in ("", "true") else {}
    say = {}
    for lang in ("zh", "en"):
        with using(lang):
            guard = guards.get(lang, "")
            text = pick(f"{kind.zh}（服务器 {kind.server}），{_whose(kind, o.whose)}",
                        f"{kind.en} (server {kind.server}), {_whose(kind, o.whose)}")
            if guard:
                text += pick(f"，且{guard}", f", when {guard}")
            if o.guard_prose:
                text += pick(f"（服务器还检查更多，只写在文字里：{rule.trigger or rule.text}）",
                             f" (the server tests more, said only in prose: {rule.trigger or rule.text})")
            say[lang] = text
    return {"event": o.event, "server": kind.server, "whose": list(o.whose), "when": o.text, "once": o.once,
            "guard_prose": o.guard_prose, "file": o.loc.file, "line": o.loc.line, "says": say,
            "name": pick(say["zh"], say["en"])}


def _engine_notes(rule) -> list[str]:
    out = []
    if not EV.dispatched(alive=False, before_die=rule.has("BeforeDieSkill"), initial=rule.initial):
        out.append(pick("持有者死亡后不再被询问：死亡角色只问 BeforeDieSkill 和获得的技能（服务器 Game.dealListeningSkill）",
                        "not asked once its holder is dead: a dead player is asked only for BeforeDieSkills and granted "
                        "skills (server Game.dealListeningSkill)"))
    elif rule.has("BeforeDieSkill"):
        out.append(pick("它是 BeforeDieSkill：持有者不在存活状态也会被询问（设计说明 L141）",
                        "it is a BeforeDieSkill: asked though its holder is not alive (design note L141)"))
    else:
        out.append(pick("它是获得的技能：持有者死亡后仍会被询问（服务器 Game.dealListeningSkill）",
                        "a granted skill: still asked after its holder died (server Game.dealListeningSkill)"))
    if rule.initial:
        out.append(pick("被无效时包在 InvalidSkill 里，回合结束前不响应任何事件（设计说明 L82、L84）",
                        "while invalidated it is wrapped in an InvalidSkill and answers nothing until the turn ends "
                        "(design note L82, L84)"))
    if rule.has("OneTurnSkill"):
        out.append(pick("它是 OneTurnSkill：回合结束就失去（设计说明 L85）",
                        "it is a OneTurnSkill: lost at the end of the turn (design note L85)"))
    out.append(pick("同一事件从当前回合角色起按座位顺序询问，每个技能对一个事件至多响应一次"
                    "（服务器 Game.dealListeningSkill、Event.checkResolve）",
                    f"{EV.ORDER}; {EV.ONCE}"))
    return out


def answer(cat, q: Query) -> Result:
    """The Result of a `which events` question (``q.which.rule``): answer *data* with one value per ``on`` entry,
    *unknown* when the skill's trigger is only prose."""
    rule = cat.skills[q.which.rule]
    if rule.on:
        values = [_entry(cat, rule, o) for o in rule.on]
        head = pick(f"{rule.label}在以下{len(values)}种事件发动（目录中的触发条件）：",
                    f"{rule.name} answers {len(values)} event kind(s) (its trigger in the catalogue):")
        return Result(q, "data", headline=head, values=values, notes=_engine_notes(rule))
    if rule.has("TriggeredSkill"):
        return Result(q, "unknown", headline=pick(f"{rule.label}的触发时机只写在文字里", f"{rule.name}'s trigger is only prose"),
                      reason=pick(f"目录没有它的 'on'：{rule.trigger or rule.text}",
                                  f"the catalogue has no 'on' for it: {rule.trigger or rule.text}"))
    if rule.has("ActiveSkill") and rule.windows:
        wins = [pick(f"{TW.window_name(w)}（{TW.ACTORS[a][0]}）", f"{TW.window_name(w)} ({TW.ACTORS[a][1]})")
                if a in TW.ACTORS else TW.window_name(w) for w, a in rule.windows.items()]
        return Result(q, "data", headline=pick(f"{rule.label}不是触发技，是主动使用的技能：在{'、'.join(wins)}使用",
                                               f"{rule.name} is not triggered: it is used actively, in {', '.join(wins)}"),
                      values=[], notes=[])
    kinds = "、".join(sorted(rule.closure)) if rule.closure else "?"
    return Result(q, "data", headline=pick(f"{rule.label}不是触发技：它在它的种类（{kinds}）被查询时起作用",
                                           f"{rule.name} is not triggered: it acts where its kinds ({kinds}) are consulted"),
                  values=[], notes=[])
