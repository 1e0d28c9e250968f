"""skillproof catalogue — what a catalogue contains."""
from __future__ import annotations

import json
import sys

from skillproof.model.lang import is_en, pick
from skillproof.reports.util import catalogue_paths

from .common import add_catalogue_arg, add_require_paths, load_or_report, missing_paths

NAME = "catalogue"
HELP = "summarise a catalogue (counts, characters and their skills); --format json prints all of it"
HELP_ZH = "概括一个目录（数量、角色和他们的技能）；--format json 输出全部内容"


def add_arguments(p):
    add_catalogue_arg(p)
    p.add_argument("--format", "-f", default="text", choices=["text", "json"],
                   help=pick("输出格式：text（概括，默认）或 json（全部内容）",
                             "output format: text (a summary, the default) or json (all of it)"))
    p.add_argument("--coverage", action="store_true",
                   help=pick("逐条列出每条规则的触发（何时发动）和效果（做什么）是数据还是仍只是文字，并给出数量",
                             "list, rule by rule, whether its trigger (when it acts) and its effect (what it does) are "
                             "data or still prose, with the counts"))
    add_require_paths(p)


def _ref(r):
    return str(r) if r.kind != "any" else None


def as_json(cat) -> dict:
    skills, grants = [], []
    for r in cat.skills.values():
        d = {"id": r.id, "name": r.name, "kinds": list(r.kinds), "initial": r.initial,
             "file": r.loc.file, "line": r.loc.line}
        if r.on:
            d["on"] = [{"event": o.event, "whose": list(o.whose), "when": o.text, "once": o.once,
                        "guard_prose": o.guard_prose} for o in r.on]
        if r.do:
            d["do"] = [_op_json(o) for o in r.do]
        if r.convert:
            d["convert"] = {"from": _ref(r.convert.source), "to": [str(t) for t in r.convert.targets],
                            "must": r.convert.must}
        if r.is_grant:
            sites = cat.sites(r.id)
            d["to"] = sorted({g.to for g in sites})
            d["lifetime"] = r.lifetime
            d["params"] = dict(r.params)
            d["given_by"] = [g.giver for g in sites]
            grants.append(d)
        else:
            d["origin"] = r.origin
            skills.append(d)
    return {
        "rules": {"seats": cat.rules.seats, "draw_base": cat.rules.draw_base, "turn_end": list(cat.rules.turn_end),
                  "must_beats_cannot": cat.rules.must_beats_cannot},
        "cards": [dict({"id": c.id, "name": c.name, "aliases": list(c.aliases)},
                       **({"do": [_op_json(o) for o in c.do]} if c.do else {})) for c in cat.cards.values()],
        "characters": [{"id": c.id, "name": c.name, "hidden": c.hidden, "female": c.female, "origin": c.origin,
                        "skills": [cat.skills[s].name for s in c.skills], "skill_ids": list(c.skills)}
                       for c in cat.characters.values()],
        "skills": skills, "grants": grants,
        "intents": [{"id": i.id, "claim": i.claim, "source": i.source, "severity": i.severity, "text": i.text,
                     "intends": [str(x) for x in i.intends], "file": i.loc.file, "line": i.loc.line}
                    for i in cat.intents],
    }


def run(args) -> int:
    if missing_paths(args):
        return 2
    from .common import paths_of
    cat = load_or_report(paths_of(args))
    if cat is None:
        return 2
    if getattr(args, "coverage", False):
        return _coverage(cat, args.format)
    if args.format == "json":
        sys.stdout.write(json.dumps(as_json(cat), ensure_ascii=False, indent=2) + "\n")
        return 0
    from skillproof.model.names import escape
    for line in summary_lines(cat):
        print(escape(line))
    print()
    for c in cat.characters.values():
        print(f"  {escape(c.name):<8}\t{tags(c)}\t" + escape(pick("、", ", ").join(cat.skills[s].name for s in c.skills)))
    return 0


def summary_lines(cat) -> list[str]:
    """The header of the listing, in the run's language: where the catalogue is, and what it holds."""
    chars = list(cat.characters.values())
    n_rb = sum(1 for c in chars if c.origin == "rulebook")
    shown, more = catalogue_paths(cat.files)
    nc, ns, ng, ni = len(cat.cards), len(cat.initial_skills), len(cat.grants), len(cat.intents)
    seats, draw = cat.rules.seats, cat.rules.draw_base
    if is_en():
        return [f"catalogue: {', '.join(shown)}{more}",
                f"{nc} cards, {len(chars)} characters ({n_rb} only in the rule book), {ns} skills, {ng} grants; "
                f"{seats} seats at most, draw {draw}" + (f"; {ni} intents (the rule book's promises)" if ni else "")]
    return [f"目录：{'、'.join(shown)}{more}",
            f"{nc} 种牌，{len(chars)} 个角色（{n_rb} 个只在规则书中），{ns} 个技能，{ng} 个给出的技能；最多 {seats} 人，"
            f"摸牌阶段摸 {draw} 张" + (f"；{ni} 个意图（规则书的承诺）" if ni else "")]


def tags(c) -> str:
    """A character's tags: 隐藏·女·规则书 / hidden·female·rule book."""
    bits = [pick("隐藏", "hidden") if c.hidden else pick("公开", "public"),
            pick("女", "female") if c.female else pick("男", "male")]
    if c.origin == "rulebook":
        bits.append(pick("规则书", "rule book"))
    return "·".join(bits)


# ------------------------------------------------------------------------------------------- --coverage
_STATUS = {"data": ("数据", "data"), "exception": ("数据（有注明的例外）", "data but a named exception"),
           "part": ("部分", "part"), "prose": ("文字", "prose")}


def _status(s: str) -> str:
    return pick(*_STATUS[s])


def _on_words(r) -> str:
    """The events a rule answers, short: receive[sender]、use_card[user]."""
    out = []
    for o in r.on:
        w = "" if o.whose == ("any",) else "[" + ",".join(o.whose) + "]"
        out.append(o.event + w + ("*" if o.guard_prose else ""))
    return pick("、", ", ").join(out)


def _says(o, cat) -> dict:
    """A guard in words, in both languages (JSON does not depend on the run's language)."""
    from skillproof.model.expr_words import words_both
    return words_both(o.when, cat, o.event)


def coverage_json(cat) -> dict:
    from skillproof.model import coverage as C
    from skillproof.model import events as EV
    rows = C.coverage(cat)
    rules = []
    for c in rows:
        r = c.rule
        d = {"id": r.id, "name": r.name, "grant": r.is_grant, "origin": r.origin, "kinds": list(r.kinds),
             "file": r.loc.file, "line": r.loc.line,
             "trigger": {"status": c.trigger, "by": list(c.trigger_by)},
             "effect": {"status": c.effect, "by": list(c.effect_by)}}
        if r.on:
            d["trigger"]["on"] = [{"event": o.event, "server": o.kind.server, "whose": list(o.whose),
                                   "when": o.text, "says": _says(o, cat), "once": o.once,
                                   "guard_prose": o.guard_prose, "line": o.loc.line} for o in r.on]
        if r.do:
            d["effect"]["do"] = [_op_json(o) for o in r.do]
        ex = [_exception_json(x) for x in C.exceptions(cat) if x.owner is r]
        if ex:
            d["effect"]["exceptions"] = ex
        rules.append(d)
    cards = []
    crows = C.card_coverage(cat)
    for c in crows:
        eff = {"status": c.effect, "ops": list(c.ops), "do": [_op_json(o) for o in c.card.do]}
        ex = [_exception_json(x) for x in C.exceptions(cat) if x.owner is c.card]
        if ex:
            eff["exceptions"] = ex
        cards.append({"id": c.card.id, "name": c.card.name, "file": c.card.loc.file, "line": c.card.loc.line,
                      "effect": eff})
    from skillproof.model.effects import WHY
    return {"counts": {"server": C.counts(rows, "server"), "rulebook": C.counts(rows, "rulebook"),
                       "cards": C.card_counts(crows), "ops": C.ops_used(cat),
                       "exceptions": len(C.exceptions(cat))},
            "engine": {"order": EV.ORDER, "once": EV.ONCE},
            "reasons": {k: {"zh": zh, "en": en} for k, (zh, en) in WHY.items()},
            "rules": rules, "cards": cards}


def _exception_json(x) -> dict:
    """One named exception: the prose op's note and line, its reason (model.effects.WHY) in both languages."""
    zh, en = x.reason
    return {"why": x.why, "note": x.note, "line": x.line, "reason": {"zh": zh, "en": en}}


def _op_json(o) -> dict:
    """One effect op as JSON: its op, its arguments (an expression as written), if / may / note, alternatives."""
    from skillproof.model.expr import to_text as unparse
    d = {"op": o.op}
    for k, v in o.args.items():
        d[k] = unparse(v) if hasattr(v, "col") else (list(v) if isinstance(v, tuple) else v)
    if o.cond is not None:
        d["if"] = unparse(o.cond)
    if o.may:
        d["may"] = True
    if o.note:
        d["note"] = o.note
    if o.options:
        d["of"] = [[_op_json(x) for x in alt] for alt in o.options]
    d["line"] = o.loc.line
    return d


def coverage_lines(cat) -> list[str]:
    """The text of ``catalogue --coverage``: the figures, then one line a rule."""
    from skillproof.model import coverage as C
    rows = C.coverage(cat)
    n = C.counts(rows, "server")
    t, e, tt = n["trigger"], n["effect"], n["triggered_trigger"]
    ev = pick("、", ", ").join(f"{k} {v}" for k, v in n["events"].items())
    crows = C.card_coverage(cat)
    cn = C.card_counts(crows)
    ce = cn["effect"]
    ops = pick("、", ", ").join(f"{k} {v}" for k, v in C.ops_used(cat).items())
    if is_en():
        head = [f"trigger (when it acts): {t['data'] + t['part']} of {n['rules']} server rules have it as data "
                f"({t['part']} with part of the guard still prose), {t['prose']} only as prose; "
                f"TriggeredSkills: {n['with_on']} of {n['triggered']} say the events they answer ('on')",
                f"  events answered: {ev}" if ev else "  events answered: none",
                "  the server asks in seat order from the turn player, each skill once per event "
                "(Game.dealListeningSkill, Event.checkResolve)",
                f"effect (what it does): {e['data'] + e['exception']} of {n['rules']} server rules modelled as data "
                f"({e['exception']} of them with a named exception: what the model does not see, listed below), "
                f"{e['part']} in part, {e['prose']} only as prose ({n['with_do']} write 'do')",
                f"  cards: {ce['data'] + ce['exception']} of {cn['cards']} as data ({ce['exception']} with a named "
                f"exception), {ce['part']} in part, {ce['prose']} only as prose",
                f"  ops written: {ops}" if ops else "  ops written: none",
                "  (* a guard marked guard_prose: the server tests more than it says)"]
    else:
        head = [f"触发（何时发动）：{n['rules']} 条服务器规则中 {t['data'] + t['part']} 条是数据（其中 {t['part']} 条的条件部分仍是文字），"
                f"{t['prose']} 条只有文字；触发技能 {n['triggered']} 条中 {n['with_on']} 条写了回应的事件（'on'）",
                f"  回应的事件：{ev}" if ev else "  回应的事件：无",
                "  服务器从当前回合角色起按座位顺序询问，每个技能对一个事件只回应一次（Game.dealListeningSkill、Event.checkResolve）",
                f"效果（做什么）：{n['rules']} 条服务器规则中 {e['data'] + e['exception']} 条是数据"
                f"（其中 {e['exception']} 条有注明的例外：模型看不到的部分，见下），{e['part']} 条部分是数据，{e['prose']} 条只有文字"
                f"（{n['with_do']} 条写了 'do'）",
                f"  牌：{cn['cards']} 种牌中 {ce['data'] + ce['exception']} 种是数据（其中 {ce['exception']} 种有注明的例外），"
                f"{ce['part']} 种部分是数据，{ce['prose']} 种只有文字",
                f"  写到的操作：{ops}" if ops else "  写到的操作：无",
                "  （* 条件标了 guard_prose：服务器还检查了没写成数据的条件）"]
    del tt
    lines = head + [""]
    for c in rows:
        r = c.rule
        tag = pick("给出", "grant") if r.is_grant else (pick("规则书", "rule book") if r.origin == "rulebook" else "")
        trig = _status(c.trigger) + " " + (_on_words(r) if r.on else ", ".join(c.trigger_by) or "trigger")
        eff = _status(c.effect) + (" " + ", ".join(c.effect_by) if c.effect_by else "")
        lines.append(f"  {r.name} {r.id}{(' · ' + tag) if tag else ''} — "
                     f"{pick('触发：', 'trigger: ')}{trig}{pick('；效果：', '; effect: ')}{eff}")
    lines.append("")
    for c in crows:
        eff = _status(c.effect) + (" " + pick("、", ", ").join(c.ops) if c.ops else "")
        lines.append(f"  {c.card.name} {c.card.id} · {pick('牌', 'card')} — {pick('效果：', 'effect: ')}{eff}")
    ex = C.exceptions(cat)
    if ex:
        from skillproof.model.effects import WHY
        lines += ["", pick(f"注明的例外（{len(ex)} 处：效果里留作文字、并说明原因的部分；原因见最后）：",
                           f"named exceptions ({len(ex)}: parts of an effect left in words with their reason, the reasons "
                           f"at the end):")]
        for x in ex:
            o = x.owner
            tag = pick("牌", "card") if o in cat.cards.values() else (pick("给出", "grant") if o.is_grant else "")
            lines.append(f"  {o.name} {o.id}{(' · ' + tag) if tag else ''} [{x.why}] {o.loc.file}:{x.line} — {x.note}")
        lines += [""] + [f"  {k}: {pick(zh, en)}" for k, (zh, en) in WHY.items() if any(x.why == k for x in ex)]
    return lines


def _coverage(cat, fmt: str) -> int:
    from skillproof.model.names import escape
    if fmt == "json":
        sys.stdout.write(json.dumps(coverage_json(cat), ensure_ascii=False, indent=2) + "\n")
        return 0
    for line in summary_lines(cat) + coverage_lines(cat):
        print(escape(line))
    return 0
