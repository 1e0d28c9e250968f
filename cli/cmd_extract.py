"""`skillproof extract`: build a catalogue from the game server's Kotlin source, or compare one with it."""
from __future__ import annotations

import sys
from pathlib import Path

from .optvalues import nonempty_file
from .optvalues import arg_type
from .exits import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE
from .common import load_or_report
from .helpfmt import metavar
from .model.lang import pick
from .model.extract import ExtractError, compare, extract

NAME = "extract"
HELP = "extract a catalogue from the game server's Kotlin source (and compare it with a hand-kept one)"
DESCRIPTION = """\
Parse the game server's Kotlin sources (tree-sitter) and write a catalogue in skillproof's TOML format:
cards, the role table's characters, skills (kinds from the class hierarchy, isInitialSkill, conversion
parameters, canUse and the other rule methods when they are simple expressions) and grants (nested skill
classes and the places that hand skills out at run time).

What cannot be decided from the code is written as `unknown` (or a free parameter) and listed in the
extraction report, printed to stderr and written as DIR/extraction-report.md with --output.

  skillproof extract --kotlin TheMessage/src/main/kotlin --output extracted/
  skillproof extract --kotlin TheMessage/src/main/kotlin --compare            # vs the shipped catalogue
  skillproof extract --kotlin TheMessage/src/main/kotlin --compare my-catalogue/

Without --output and --compare the catalogue is printed on stdout (one TOML document).
Exit codes: 0 done (with --compare: no differences), 1 --compare found differences, 2 bad input or a degraded
extraction (a file holding rules fails to parse, a character loses skills the role table gives it, or more
undecided items than --undecided-baseline allows; the output is still written, the reasons printed);
4 internal error.

The catalogue is written the same whatever --lang says; --lang is the language of what is written to the
terminal and of DIR/extraction-report.md."""
HELP_ZH = "从游戏服务器的 Kotlin 源码中提取目录（并与手写的目录比较）"
DESCRIPTION_ZH = """\
解析游戏服务器的 Kotlin 源码（tree-sitter），写出 skillproof 的 TOML 格式的目录：牌、角色表中的角色、
技能（种类来自类的继承关系，还有 `isInitialSkill`、转化参数，以及 `canUse` 等规则方法——当它们是简单的
表达式时）和给出的技能（嵌套的技能类，以及运行时给出技能的地方）。

代码中无法确定的部分写成 `unknown`（或一个自由参数），并列在提取报告中：报告输出到标准错误，加
--output 时还写成 文件夹/extraction-report.md。

  skillproof extract --kotlin TheMessage/src/main/kotlin --output extracted/
  skillproof extract --kotlin TheMessage/src/main/kotlin --compare            # 与随附的目录比较
  skillproof extract --kotlin TheMessage/src/main/kotlin --compare my-catalogue/

不加 --output 和 --compare 时，目录输出到标准输出（一个 TOML 文档）。
退出码：0 完成（加 --compare 时：没有不同）；1 --compare 发现了不同；2 输入有误或提取降级（含规则
的文件解析失败、角色丢了角色表给它的技能，或未定项多于 --undecided-baseline 允许的数目；输出照样
写出，原因会列出）；4 内部错误。

写出的目录不随 --lang 变化；--lang 决定终端上输出的语言和 文件夹/extraction-report.md 的语言。"""

_SHIPPED = "<shipped>"
_FILES = ("rules.toml", "cards.toml", "characters.toml", "skills.toml", "grants.toml")


def add_arguments(p):
    p.add_argument("--kotlin", metavar=metavar("SRC_DIR"), required=True,
                   help=pick("服务器的 Kotlin 源码（检出的 src/main/kotlin，或检出的根目录本身）",
                             "the server's Kotlin sources (src/main/kotlin of a checkout, or the checkout itself)"))
    p.add_argument("--output", type=nonempty_file("--output"), metavar=metavar("DIR"),
                   help=pick("把目录（rules.toml、cards.toml、characters.toml、skills.toml、grants.toml）和 "
                             "extraction-report.md 写进这个文件夹（不存在时创建）",
                             "write the catalogue (rules.toml, cards.toml, characters.toml, skills.toml, grants.toml) "
                             "and extraction-report.md into DIR (created if missing)"))
    p.add_argument("--compare", metavar=metavar("CATALOGUE"), nargs="?", const=_SHIPPED,
                   help=pick("列出提取出的目录与这个目录（文件或文件夹；默认：随附的目录）的不同之处；有不同时退出码为 1",
                             "list what differs between the extracted catalogue and CATALOGUE (a file or "
                             "directory; default: the shipped catalogue); exit 1 if anything differs"))
    p.add_argument("--quiet", "-q", action="store_true",
                   help=pick("只输出报告的摘要行", "print only the summary line of the report"))
    p.add_argument("--time-budget", type=arg_type("time-budget", "--time-budget"), default=None, metavar=metavar("SECONDS"),
                   help=pick("提取最多用这么久（默认 300 秒）；超过则退出码 3 并说明读了多少",
                             "stop after this long (default 300 s): exit 3 saying what was read"))
    p.add_argument("--undecided-baseline", type=arg_type("undecided-baseline", "--undecided-baseline"), metavar="N",
                   help=pick("未定项多于 N + 20 个时，提取算作降级（退出码 2）",
                             "the extraction is degraded (exit 2) when it has more than N + 20 undecided items"))
    p.add_argument("--allow-degraded", action="store_true",
                   help=pick("提取降级时退出码仍为 0（原因照样输出）",
                             "exit 0 even when the extraction is degraded (the reasons are still printed)"))


def _err(msg) -> int:
    from .exits import printable
    sys.stderr.write(pick("skillproof extract：错误：{m}\n", "skillproof extract: error: {m}\n").format(m=printable(str(msg))))
    return EXIT_USAGE


def run(args) -> int:
    from .model.errtext import os_reason
    from .model.extract import terminal as T
    src = Path(args.kotlin)
    out_dir = Path(args.output) if args.output else None
    if out_dir is not None and out_dir.exists() and not out_dir.is_dir():
        return _err(pick(f"--output {out_dir} 已存在，且不是文件夹", f"--output {out_dir} exists and is not a directory"))
    hand = None
    if args.compare is not None:
        hand = load_or_report(None if args.compare == _SHIPPED else [args.compare])
        if hand is None:
            return EXIT_USAGE
    from .model.extract.budget import OverBudget
    try:
        ex = extract(src, seconds=args.time_budget)
    except ExtractError as e:
        return _err(str(e))
    except OverBudget as e:             # past the size or time budget: inconclusive, nothing written
        sys.stderr.write(pick(f"skillproof extract：无法判定：{e.text('zh')}\n", f"skillproof extract: inconclusive: {e.text('en')}\n"))
        return 3
    except OSError as e:
        return _err(pick(f"读不了 {src}：{os_reason(e)}", f"cannot read {src}: {os_reason(e)}"))

    if not args.quiet:
        for item in ex.report:
            sys.stderr.write(T.item_line(item) + "\n")
    sys.stderr.write(T.summary(ex) + "\n")
    counts = T.undecided_line(ex)
    if counts and not args.quiet:
        sys.stderr.write(counts + "\n")

    if out_dir is not None:
        try:
            from skillproof.model.catfiles import make_dirs
            from skillproof.model.signals import write_all
            make_dirs(out_dir)                  # without recursion (a path of 2,000 levels: RecursionError)
            # all together: an interrupted run (or one file that cannot be written) leaves all of them or none
            failed = write_all([(str(out_dir / name), text) for name, text in ex.files.items()]
                               + [(str(out_dir / "extraction-report.md"), T.report_markdown(ex))])
            if failed:
                raise failed[1]
        except OSError as e:
            return _err(pick(f"写不进 {out_dir}：{os_reason(e)}", f"cannot write to {out_dir}: {os_reason(e)}"))
        others = sorted(p.name for p in out_dir.glob("*.toml") if p.name not in _FILES)
        if others:
            sys.stderr.write(pick(f"注意：{out_dir} 中还有 {'、'.join(others)}；读入这个文件夹时它们也会被读入\n",
                                  f"note: {out_dir} also holds {', '.join(others)}; loading the directory reads "
                                  "those too\n"))
        sys.stderr.write(pick(f"已把 {'、'.join(_FILES)} 和 extraction-report.md 写进 {out_dir}\n",
                              f"wrote {', '.join(_FILES)} and extraction-report.md to {out_dir}\n"))
    elif hand is None:
        sys.stdout.write("\n".join(ex.files[n] for n in _FILES))

    if ex.load_errors:
        sys.stderr.write(pick("skillproof extract：错误：提取出的目录读不进来（请连同它所来自的源码一起报告）：\n",
                              "skillproof extract: error: the extracted catalogue does not load (please report this "
                              "with the source it came from):\n"))
        for e in ex.load_errors:
            sys.stderr.write(f"  {e}\n")
        return EXIT_USAGE

    from .model.extract.degraded import degradation
    reasons = degradation(ex, baseline=args.undecided_baseline)
    for r in reasons:
        sys.stderr.write(pick(f"skillproof extract：{'警告' if args.allow_degraded else '错误'}：提取降级：{r}\n",
                              f"skillproof extract: {'warning' if args.allow_degraded else 'error'}: the extraction is "
                              f"degraded: {r}\n"))
    if reasons and not args.allow_degraded:
        return EXIT_USAGE
    if hand is None:
        return EXIT_OK
    diffs = compare(ex.catalogue, hand)
    skipped_chars = sum(1 for c in hand.characters.values() if c.origin == "rulebook")
    skipped_rules = sum(1 for r in hand.skills.values() if r.origin == "rulebook")
    for d in diffs:
        sys.stdout.write(T.difference_line(d) + "\n")
    shipped = args.compare == _SHIPPED
    note = ""
    if skipped_chars or skipped_rules:
        note = pick(f"（手写目录中只在规则书里的条目不比较：{skipped_chars} 个角色、{skipped_rules} 条规则）",
                    f" (rule-book-only entries of the hand-kept catalogue are not compared: {skipped_chars} "
                    f"character{'s' if skipped_chars != 1 else ''}, {skipped_rules} rule{'s' if skipped_rules != 1 else ''})")
    if diffs:
        sys.stdout.write(pick(f"服务器与{'随附的目录' if shipped else f' {args.compare} '}之间有 {len(diffs)} 处不同{note}\n",
                              f"{len(diffs)} difference{'s' if len(diffs) != 1 else ''} between the server and "
                              f"{'the shipped catalogue' if shipped else args.compare}{note}\n"))
        return EXIT_FINDINGS
    sys.stdout.write(pick(f"服务器与{'随附的目录' if shipped else f' {args.compare} '}之间没有不同{note}\n",
                          f"no differences between the server and {'the shipped catalogue' if shipped else args.compare}"
                          f"{note}\n"))
    return EXIT_OK
