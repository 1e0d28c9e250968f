"""skillproof diff OLD NEW — what a rule change does: new and resolved findings, every decision whose outcome
changed and every situation possible in only one version, each with a witness trace run under each version."""
from __future__ import annotations

import os
import subprocess
import sys

from .optvalues import arg_type
from skillproof.model.lang import pick
from skillproof.model.msg import Msg

from .exits import EXIT_INCONCLUSIVE, error_line
from .cmd_check import accept_inline, add_report_args, add_solver_args, run_checks
from .common import closing, report_catalogue_errors
from .diff_report import finish, inconclusive_findings, question, rules_entries, told  # noqa: F401
from .helpfmt import metavar

NAME = "diff"
HELP = "compare two catalogue versions (paths or git REV:PATH): new findings and changed decisions"
DESCRIPTION = """Compare two versions of a catalogue. Each side is a catalogue path (file or directory) or a git
revision of one, REV:PATH (e.g. origin/main:model/catalogue/). Reports findings new in NEW and resolved
since OLD, every decision (conversion and which skill fires, bans, receive, send rules, skipping,
draw count) whose answer differs between the versions in some situation reachable under both, and every
situation involving a changed character, skill, grant, card or gives site that is possible in only one
version (now possible / no longer possible) — found by the solver over both encodings at once, each with a
witness trace run under each version's own catalogue (and, for a one-sided situation, the other version's
reason).

With --kotlin SERVER_REPO, OLD and NEW are git revisions of the game server's repository (a bare one
works): both are extracted from the Kotlin sources, a degraded extraction stops the run (exit 2 with the
reason), code that only became readable is reported as newly understood, and changed engine rules fail too:

  skillproof diff --kotlin TheMessage origin/main HEAD --format sarif --output skillproof.sarif

exit codes: 0 no new findings at or above --fail-on and no change (or --allow-changes);
1 new findings, changed decisions or engine rules, or situations possible in only one version;
2 bad input, usage or a degraded extraction; 3 inconclusive; 4 internal error."""
HELP_ZH = "比较目录的两个版本（路径或 git 的 版本:路径）：新问题和改变的判定"
DESCRIPTION_ZH = """\
比较目录的两个版本。每一边是一个目录路径（文件或文件夹），或它在 git 中的一个版本：版本:路径
（例如 origin/main:model/catalogue/）。报告新版中新出现的问题和旧版以来已解决的问题；每个在两个版本
下都可达的局面中回答不同的判定（转化及发动哪个技能、禁令、接收、传出规则、跳过、摸牌数）；以及每个
涉及改动过的角色、技能、获得的技能、牌或给出处、只在一个版本中可能的局面（现在可能／不再可能）——
由求解器同时在两个版本的编码上找出，每一个都带有在各自版本的目录下运行的例证轨迹（只在一边可能的
局面，还带有另一个版本的理由）。

加 --kotlin 服务器仓库 时，旧版和新版是游戏服务器 git 仓库（裸仓库也可以）的两个版本：两者都从 Kotlin
源码中提取；提取降级会停止运行（退出码 2，并说明原因），只是变得能读懂的代码报告为新读懂的代码，
改动的引擎规则也算失败：

  skillproof diff --kotlin TheMessage origin/main HEAD --format sarif --output skillproof.sarif

退出码：0 没有达到 --fail-on 级别的新问题，也没有改动（或加了 --allow-changes）；
1 有新问题、改变的判定或引擎规则，或只在一个版本中可能的局面；
2 输入或用法有误，或提取降级；3 无法判定；4 内部错误。"""


def add_arguments(p):
    p.add_argument("old", metavar=metavar("OLD"),
                   help=pick("旧版目录：路径，或 git 的 版本:路径（加 --kotlin 时：一个版本）",
                             "the old catalogue: PATH or git REV:PATH (with --kotlin: a revision)"))
    p.add_argument("new", metavar=metavar("NEW"),
                   help=pick("新版目录：路径，或 git 的 版本:路径（加 --kotlin 时：一个版本）",
                             "the new catalogue: PATH or git REV:PATH (with --kotlin: a revision)"))
    p.add_argument("--kotlin", metavar=metavar("SERVER_REPO"),
                   help=pick("比较游戏服务器 git 仓库的两个版本，从它的 Kotlin 代码中提取",
                             "compare two revisions of the game server's git repository, extracted from its Kotlin code"))
    p.add_argument("--max-undecided-increase", type=arg_type("max-undecided-increase", "--max-undecided-increase"), default=20, metavar="N",
                   help=pick("加 --kotlin 时：新版的未定项比旧版多出 N 个以上就算降级（默认 20）",
                             "with --kotlin: NEW is degraded when it has more than N undecided items over OLD (default 20)"))
    p.add_argument("--allow-changes", action="store_true",
                   help=pick("报告改动，但改动不使退出码非零", "report changes but exit 0 for them"))
    p.add_argument("--time-budget", type=arg_type("time-budget", "--time-budget"), default=None, metavar=metavar("SECONDS"),
                   help=pick("加 --kotlin 时：每次提取最多用这么久（默认 300 秒），超过则退出码 3 并说明读了多少",
                             "with --kotlin: stop an extraction after this long (default 300 s): exit 3 saying what "
                             "was read"))
    p.add_argument("--per-decision", type=arg_type("per-decision", "--per-decision"), default=3, metavar="N",
                   help=pick("每个改变的判定给出的例证数（默认 3）", "witnesses per changed decision (default 3)"))
    add_report_args(p)
    add_solver_args(p)


class SideError(Exception):
    pass


def _git(*args) -> str:
    try:
        r = subprocess.run(["git", *args], capture_output=True, text=True, encoding="utf-8")
    except FileNotFoundError:
        raise SideError(pick("没有安装 git", "git is not installed")) from None
    except UnicodeDecodeError as e:
        raise SideError(pick(f"git {args[-1]}：不是 UTF-8 文本（{e.reason}）",
                             f"git {args[-1]}: not UTF-8 text ({e.reason})")) from None
    if r.returncode != 0:
        raise SideError(r.stderr.strip().splitlines()[-1] if r.stderr.strip()
                        else pick(f"git {' '.join(args)} 失败", f"git {' '.join(args)} failed"))
    return r.stdout


def read_side(spec: str) -> dict:
    """{display name: TOML text} for a path or a git REV:PATH."""
    if os.path.exists(spec) or ":" not in spec:
        if not os.path.exists(spec):
            raise SideError(pick(f"{spec}：没有这个文件或目录", f"{spec}: no such file or directory"))
        from skillproof.model.loader import catalogue_files, read_limited
        refused: list = []
        paths = catalogue_files([spec], refused)       # a directory: recursively, as `check` reads it
        if refused:                                    # a symbolic link out of the directory
            raise SideError(str(refused[0]))
        if not paths:
            raise SideError(pick(f"{spec}：没有 .toml 目录文件", f"{spec}: no .toml catalogue files"))
        out = {}
        for p in paths:
            raw, err = read_limited(p, os.path.relpath(p))
            if err:
                raise SideError(str(err))
            try:
                out[os.path.relpath(p)] = raw.decode("utf-8")
            except UnicodeDecodeError as e:
                raise SideError(pick(f"{p}：读不了（不是 UTF-8：第 {e.start} 字节处 {e.reason}）",
                                     f"{p}: cannot read (not UTF-8: {e.reason} at byte {e.start})")) from None
        return out
    rev, _, path = spec.partition(":")
    path = path.rstrip("/")
    if rev.startswith("-"):
        # it would reach git as an option
        raise SideError(pick(f"{spec}：git 版本不能以 '-' 开头", f"{spec}: a git revision cannot start with '-'"))
    kind = _git("cat-file", "-t", f"{rev}:{path}" if path else f"{rev}:").strip()
    if kind == "blob":
        return {spec: _git("show", f"{rev}:{path}")}
    names = [n for n in _git("ls-tree", "-r", "--name-only", f"{rev}:{path}" if path else f"{rev}:").splitlines()
             if n.endswith(".toml") and not any(part.startswith(".") for part in n.split("/"))]
    if not names:
        raise SideError(pick(f"{spec}：那个版本没有 .toml 目录文件", f"{spec}: no .toml catalogue files at that revision"))
    return {f"{rev}:{path + '/' if path else ''}{n}": _git("show", f"{rev}:{path + '/' if path else ''}{n}")
            for n in sorted(names)}


def run(args) -> int:
    if args.kotlin:
        from .kotlin_diff import run as run_kotlin
        return run_kotlin(args)
    from skillproof.model.loader import CatalogueErrors, load

    from .cmd_check import outputs
    problem = outputs(args)[1]
    if problem:
        sys.stderr.write(error_line(problem) + "\n")
        return 2
    cats = []
    for spec in (args.old, args.new):
        try:
            texts = read_side(spec)
        except SideError as e:
            sys.stderr.write(error_line(e) + "\n")
            return 2
        try:
            cats.append(load(texts=texts))
        except CatalogueErrors as e:
            report_catalogue_errors(e, spec, "nothing was compared")
            return 2
        from skillproof.checks.suppress import problems
        bad = problems(cats[-1])
        if bad:
            sys.stderr.write("".join(error_line(p) + "\n" for p in bad))
            sys.stderr.write(str(closing(len(bad), Msg("'{w}' ", "{w}", w=spec),
                                         Msg("什么也没有比较", "nothing was compared"))) + "\n")
            return 2
    old, new = cats
    from .common import overwrites_input
    if any(overwrites_input([f for _, f in outputs(args)[0]], c) for c in cats):
        return 2
    from skillproof.checks.diff_meaning import TimeSpent
    try:
        return _compared(args, old, new)
    except TimeSpent as e:                  # the wall clock's safety net, never another verdict: inconclusive
        sys.stderr.write(error_line(pick(f"不确定：时间预算已用完（{e}）", str(e))) + "\n")
        return EXIT_INCONCLUSIVE


def _compared(args, old, new) -> int:
    from skillproof.checks.diff import Differ, changed_list
    engine = rules_entries(old, new)               # a changed [rules] key fails even where no decision shows it
    try:
        differ = Differ(old, new, n=args.max_seats, G=args.max_grants, timeout_ms=max(1, int(args.timeout * 1000)),
                        rlimit=max(0, args.rlimit))
        changes = differ.changes(per_decision=max(1, args.per_decision))
        possible = differ.possible()
    except KeyError as e:               # an id whose kind changed between versions (e.g. a skill made a grant)
        sys.stderr.write(error_line(pick(f"无法比较：{e} 在两个版本中含义不同（例如技能变成了给出的技能）",
                                         f"cannot compare: {e} means different things in the two versions")) + "\n")
        return 2
    from skillproof.checks.diff_rules import entry as rule_entry, rule_changes
    rules_changed = [rule_entry(ch, old, new) for ch in rule_changes(old, new, differ.renamed)]
    args.select, args.ignore = "", ""
    res_old = run_checks(old, args)
    res_new = run_checks(new, args)
    new_active, suppressed, in_source, _ = accept_inline(new, res_new.findings, args)
    old_active = accept_inline(old, res_old.findings, args)[0]
    old_ids = {question(f) for f in old_active}
    new_ids = {question(f) for f in res_new.findings}
    added = [f for f in new_active if question(f) not in old_ids]
    resolved = [f for f in old_active if question(f) not in new_ids]
    from skillproof.reports.model import Report
    inconc = inconclusive_findings(differ.inconclusive, args)
    report = Report(findings=added + inconc, catalogue_files=list(new.files), families=list(res_new.families),
                    fail_on=args.fail_on, title="skillproof diff",
                    extra={"diff": {"old": list(old.files), "new": list(new.files), "allow_changes": args.allow_changes,
                                    "changed_rules": changed_list(old, new, differ.changed),
                                    "resolved": [told(f, old) for f in resolved],
                                    "decision_changes": engine + rules_changed + [c.to_dict() for c in changes]
                                    + [p.to_dict() for p in possible]}},
                    stats={"solver_queries": res_new.stats.get("queries", 0)},
                    suppressed=[(f, r) for f, r in suppressed if f.id not in old_ids], in_source=in_source)
    return finish(report, args, new, bool(changes or engine or possible or rules_changed))
