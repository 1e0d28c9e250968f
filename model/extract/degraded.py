"""When an extraction cannot be trusted: the reasons an extracted catalogue is *degraded* (a distinct, loud
outcome — a gate must not report "no rule changed" from it).

* a file that declares skills, cards, the role table or an engine rule fails to parse (tree-sitter recovers,
  but what stands in the broken parts is missed);
* a character of the role table loses skills the table gives it (an argument naming a class found nowhere in
  the sources: the class was not read);
* the number of undecided items is far above a baseline (the previous revision, or a number given).
"""
from __future__ import annotations

#: source folders whose files hold rules (a parse error elsewhere — handlers, network code — is reported but
#: does not degrade the extraction)
RULE_DIRS = ("skill", "card", "phase")
#: undecided items a revision may add over its baseline before the extraction counts as degraded (a new
#: character with a few conditions the extractor cannot read adds 2-8)
MAX_UNDECIDED_INCREASE = 20


def undecided(ex) -> int:
    return sum(1 for i in ex.report if i.undecided)


def degradation(ex, baseline: int | None = None, max_increase: int = MAX_UNDECIDED_INCREASE) -> list[str]:
    """Why the extraction ``ex`` (an Extraction) cannot be trusted; empty when it can. ``baseline`` is the
    undecided-item count it is compared with (None: not compared)."""
    from skillproof.model.lang import pick
    reasons = []
    engine_files = {r.where.rsplit(":", 1)[0] for r in getattr(ex, "engine", {}).values() if r.where}
    role_files = {i.where.rsplit(":", 1)[0] for i in ex.report if i.kind == "role"}
    broken = sorted(i.subject for i in ex.report if i.kind == "parse"
                    and (set(i.subject.split("/")[:-1]) & set(RULE_DIRS) or i.subject in engine_files | role_files))
    if broken:
        shown = ", ".join(broken[:5]) + (pick(f"（另有 {len(broken) - 5} 个）", f" (+{len(broken) - 5} more)")
                                         if len(broken) > 5 else "")
        reasons.append(pick(f"{len(broken)} 个含规则的文件解析失败：{shown}",
                            f"{len(broken)} file{'s' if len(broken) != 1 else ''} holding rules fail to parse: {shown}"))
    lost = sorted({i.subject for i in ex.report if i.kind == "role" and "names no class found" in i.message})
    if lost:
        shown = ", ".join(lost[:6]) + (pick(f"（另有 {len(lost) - 6} 个）", f" (+{len(lost) - 6} more)")
                                       if len(lost) > 6 else "")
        reasons.append(pick(f"{len(lost)} 个角色丢了角色表给它的技能（有技能类没有读出）：{shown}",
                            f"{len(lost)} character{'s' if len(lost) != 1 else ''} lost skills the role table gives "
                            f"them (a skill class was not read): {shown}"))
    if ex.load_errors:
        reasons.append(pick(f"提取出的目录读不进来（{len(ex.load_errors)} 个错误；第一个：{ex.load_errors[0]}）",
                            f"the extracted catalogue does not load ({len(ex.load_errors)} errors; first: "
                            f"{ex.load_errors[0]})"))
    n = undecided(ex)
    if baseline is not None and n - baseline > max_increase:
        reasons.append(pick(f"{n} 个未定项，比基准的 {baseline} 个多 {n - baseline} 个（一次改动预计至多多 {max_increase} 个）",
                            f"{n} undecided items, {n - baseline} more than the baseline's {baseline} "
                            f"(at most {max_increase} more are expected of a change)"))
    return reasons
