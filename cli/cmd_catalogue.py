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
    add_require_paths(p)


def _ref(r):
    return str(r) if r.kind != "any" else None


def as_json(cat) -> dict:
    skills, grants = [], []
    for r in cat.skills.values():
        d = {"id": r.id, "name": r.name, "kinds": list(r.kinds), "initial": r.initial,
             "file": r.loc.file, "line": r.loc.line}
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
        "cards": [{"id": c.id, "name": c.name, "aliases": list(c.aliases)} for c in cat.cards.values()],
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
