"""skillproof check — run every check family on a catalogue and report the findings."""
from __future__ import annotations

import os
import sys
import time

from .optvalues import arg_type, nonempty_file
from skillproof.model.lang import pick

from .common import add_catalogue_arg, add_require_paths, load_or_report, missing_paths, validate_selection, write_out
from .helpfmt import metavar

NAME = "check"
HELP = "check a catalogue for contradictory or unreachable rule combinations"
DESCRIPTION = """Run every check family on a catalogue (default: the shipped catalogue of the real game).

exit codes: 0 nothing at or above --fail-on; 1 findings at or above it; 2 bad input or usage;
3 inconclusive (the solver answered unknown or timed out, or --time-budget ran out) and nothing failing;
4 internal error (a bug in skillproof).

With --time-budget SECONDS the whole run stops asking when the budget is spent: the report holds the
findings so far and every question not asked as an inconclusive INC001 finding, in every format."""
HELP_ZH = "检查目录中相互矛盾或不可达的规则组合"
DESCRIPTION_ZH = """\
对目录运行每个检查族（默认：随附的真实游戏目录）。

退出码：0 没有达到 --fail-on 级别的问题；1 有达到该级别的问题；2 输入或用法有误；
3 无法判定（求解器结果未知或超时，或 --time-budget 用完）且没有失败的问题；
4 内部错误（skillproof 自身的缺陷）。

加 --time-budget 秒数 时，预算用完整个运行就停止提问：报告含有到那时为止的问题，
并在每种格式中把每个没问的问题列为无法判定的 INC001 问题。"""


def add_arguments(p):
    add_catalogue_arg(p)
    add_report_args(p)
    p.add_argument("--select", default="", metavar=metavar("CODES"),
                   help=pick("只运行这些检查族或代码，用逗号分隔（例如 conversion,BN001）",
                             "only these families or codes, comma-separated (e.g. conversion,BN001)"))
    p.add_argument("--ignore", default="", metavar=metavar("CODES"),
                   help=pick("去掉这些检查族或代码的问题", "drop findings of these families or codes"))
    p.add_argument("--baseline", type=nonempty_file("--baseline"), metavar=metavar("FILE"),
                   help=pick("隐藏这个基线中已接受的问题；标出过时的条目",
                             "hide findings accepted in this baseline; flag stale entries"))
    p.add_argument("--time-budget", type=arg_type("time-budget", "--time-budget"), default=None, metavar=metavar("SECONDS"),
                   help=pick("整个运行用了这么久就不再提问；报告已找到的问题，并把每个没问的问题列为无法判定（退出码 3）",
                             "stop asking after this long (the whole run); report what was found and list every "
                             "unasked question as inconclusive (exit 3)"))
    add_require_paths(p)
    add_solver_args(p)


def add_report_args(p):
    from skillproof.reports import FORMATS
    p.add_argument("--format", "-f", default="text", choices=FORMATS,
                   help=pick("报告格式（默认：text）", "report format (default: text)"))
    p.add_argument("--output", "-o", type=nonempty_file("--output"), metavar=metavar("FILE"),
                   help=pick("把报告写到这个文件，而不是标准输出", "write the report here instead of standard output"))
    p.add_argument("--output-format", action="append", default=None, metavar=metavar("FORMAT:FILE"),
                   help=pick("在同一次运行中另外把一份该格式的报告写进这个文件（可重复），例如 "
                             "--output-format sarif:skillproof.sarif --output-format markdown:comment.md",
                             "also write a report in FORMAT to FILE in the same run (repeatable), e.g. "
                             "--output-format sarif:skillproof.sarif --output-format markdown:comment.md"))
    p.add_argument("--fail-on", default="error", choices=["error", "warning", "note", "none"],
                   help=pick("使退出码为 1 的最低级别（默认：error）",
                             "lowest severity that makes the exit code 1 (default: error)"))
    p.add_argument("--color", default="auto", choices=["auto", "always", "never"],
                   help=pick("文本输出是否带颜色", "colours in text output"))
    p.add_argument("--quiet", "-q", action="store_true",
                   help=pick("标准错误上不显示进度", "no progress on standard error"))
    p.add_argument("--show", action="append", default=[], choices=["intended", "proved"],
                   help=pick("intended：完整列出设计如此的行为（[[intent]] 记为有意如此的问题），而不是只用一行概括"
                             "（text、markdown、html）；proved：在文本报告中逐条列出已证明的意图（可重复）",
                             "intended: list the designed behaviour (findings an [[intent]] documents as intended) "
                             "in full instead of one summary line (text, markdown, html); proved: list the proved "
                             "intents one by one in the text report (repeatable)"))


def add_solver_args(p):
    p.add_argument("--timeout", type=arg_type("timeout", "--timeout"), default=20.0, metavar=metavar("SECONDS"),
                   help=pick("每个问题的求解时限；超过时限的问题报告为无法判定",
                             "solver time limit per question; a question that hits it is reported inconclusive"))
    p.add_argument("--rlimit", type=arg_type("rlimit", "--rlimit"), default=0, metavar="N",
                   help=pick("每个问题的 z3 资源上限（与 --timeout 不同，结果确定；0 表示不限）",
                             "z3 resource limit per question (deterministic, unlike --timeout; 0 = none)"))
    p.add_argument("--max-grants", type=arg_type("max-grants", "--max-grants"), default=2, metavar="N",
                   help=pick("符号搜索中一名角色同时获得的技能数上限（默认 2）",
                             "granted skills one player holds at once in the symbolic search (default 2)"))
    p.add_argument("--max-seats", type=arg_type("max-seats", "--max-seats"), default=3, metavar="N",
                   help=pick("符号搜索中的座位数（默认 3）", "seats in the symbolic search (default 3)"))
    p.add_argument("--max-turns", type=arg_type("max-turns", "--max-turns"), default=2, metavar="N",
                   help=pick("例证轨迹最多跨越的回合数：提问所在的回合和它之前的回合（默认 2）",
                             "turns a witness trace may span: the turn of the question and those before it (default 2)"))
    p.add_argument("--jobs", "-j", type=arg_type("jobs", "--jobs"), default=2, metavar="N",
                   help=pick("进程数（默认 2；报告与它无关）", "processes (default 2; the report does not depend on it)"))
    p.add_argument("--no-cache", action="store_true",
                   help=pick("不读也不写结果缓存（同一目录、选项和版本上一次运行的结果）",
                             "neither read nor write the results cache (~/.cache/skillproof by default; "
                             "SKILLPROOF_CACHE_DIR moves it)"))


def _codes(s: str) -> tuple:
    return tuple(x.strip() for x in s.split(",") if x.strip())


class Progress:
    """A progress line on standard error — only on a terminal, and only once a run has taken a moment
    (SKILLPROOF_PROGRESS_AFTER seconds, default 0.5): a bar of the families done of those selected, the families
    running now (and the step of one, e.g. the intent being proved), the solver questions asked, the time.

    One line that never wraps: it is cut to the terminal's width (read again at every redraw; Chinese text counted
    two columns wide, ``wcwidth``), redrawn in place (carriage return, erase line) at most ten times a second, and
    erased when the run ends — nothing is left above the report."""
    WIDTH = 16

    def __init__(self, enabled: bool, stream=None):
        self.stream = stream or sys.stderr
        self.enabled = enabled and self.stream.isatty()
        self.t0 = time.perf_counter()
        try:
            self.after = float(os.environ.get("SKILLPROOF_PROGRESS_AFTER", "0.5"))
        except ValueError:
            self.after = 0.5
        self.shown = False
        self.last = 0.0
        self.total, self.done, self.questions = 0, 0, 0
        self.running: list[str] = []
        self.step = ""                 # what a family said it is at (``ctx.say``: "intent ID"), shown after it

    def __call__(self, ev: dict):
        from skillproof.checks.registry import families
        if "total" in ev:
            self.total = ev["total"]
        name = ev.get("family")
        if name:
            if name in {f.name for f in families()}:
                if name not in self.running:
                    self.running.append(name)
            else:
                self.step = str(name)
        if "done" in ev:
            self.done += 1
            if ev["done"] in self.running:
                self.running.remove(ev["done"])
            if ev["done"] == "intent":
                self.step = ""
        self.questions += ev.get("questions", 0)
        self.draw(force="done" in ev or "total" in ev)

    def columns(self) -> int:
        import shutil
        try:
            cols = os.get_terminal_size(self.stream.fileno()).columns
        except (OSError, ValueError, AttributeError):
            cols = shutil.get_terminal_size((80, 24)).columns
        return max(20, cols)

    def line(self, width: int | None = None) -> str:
        """The progress line, at most ``width`` columns (default: the terminal's, less one)."""
        from skillproof.reports.i18n import FAMILY_ZH, is_en
        width = (self.columns() - 1) if width is None else width
        frac = self.done / self.total if self.total else 0.0
        cells = self.WIDTH if width >= 90 else 8 if width >= 50 else 4
        fill = int(round(frac * cells))
        bar = "█" * fill + "░" * (cells - fill)
        secs = time.perf_counter() - self.t0
        step = self.step.split(" ", 1)[-1] if self.step else ""
        if not is_en():
            now = "、".join(FAMILY_ZH.get(f, f) for f in self.running) or "…"
            head = f"skillproof [{bar}] {self.done}/{self.total} 个检查族 · "
            tail = f" · {self.questions} 个问题 · {secs:.1f} 秒"
            now += f"（{step}）" if step and "intent" in self.running else ""
        else:
            now = ", ".join(self.running) or "…"
            head = f"skillproof [{bar}] {self.done}/{self.total} families · "
            tail = f" · {self.questions} question{'s' if self.questions != 1 else ''} · {secs:.1f}s"
            now += f" ({step})" if step and "intent" in self.running else ""
        return fit(head, now, tail, width)

    def draw(self, force: bool = False):
        now = time.perf_counter()
        if not self.enabled or now - self.t0 < self.after or (not force and now - self.last < 0.1):
            return
        self.last = now
        self.stream.write("\r\033[K" + self.line())
        self.stream.flush()
        self.shown = True

    def finish(self):
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self.shown = False


def display_width(s: str) -> int:
    """Columns ``s`` takes on a terminal (a Chinese character two)."""
    from wcwidth import wcswidth
    w = wcswidth(s)
    return w if w >= 0 else len(s) * 2


def cut_to(s: str, width: int) -> str:
    """``s`` cut to at most ``width`` columns, ending in '…' when cut."""
    if display_width(s) <= width:
        return s
    from wcwidth import wcwidth
    out, used = [], 0
    for ch in s:
        w = max(0, wcwidth(ch))
        if used + w > width - 1:
            break
        out.append(ch)
        used += w
    return "".join(out) + "…"


def fit(head: str, middle: str, tail: str, width: int) -> str:
    """``head + middle + tail`` in ``width`` columns: the middle is cut first, then the tail, then the head."""
    room = width - display_width(head) - display_width(tail)
    if room >= 4:
        return head + cut_to(middle, room) + tail
    return cut_to(head.rstrip(" ·") + tail, width)


def outputs(args) -> tuple[list[tuple[str, str | None]], object]:
    """Every report the run writes: [(format, file or None for standard output)], or an error message.
    The main one (--format, --output) comes first, then each --output-format FORMAT:FILE (from the command
    line, or else from the configuration file)."""
    from skillproof.model.msg import Msg
    from skillproof.reports import FORMATS
    out: list[tuple[str, str | None]] = [(args.format, args.output)]
    extra = getattr(args, "output_format", None)
    if extra is None:
        extra = getattr(args, "config_output_format", None) or []
    for spec in extra:
        fmt, sep, path = spec.partition(":")
        if not sep or not path:
            return out, Msg("--output-format 要写成 '格式:文件'（例如 'sarif:skillproof.sarif'），不能是 '{s}'",
                            "--output-format takes FORMAT:FILE (e.g. sarif:skillproof.sarif), not '{s}'", s=spec)
        if fmt not in FORMATS:
            from skillproof.model.names import did_you_mean, nearest
            hint = nearest(fmt, FORMATS)
            return out, Msg("--output-format：未知的格式 '{f}'{more}", "--output-format: unknown format '{f}'{more}", f=fmt,
                            more=did_you_mean(f"'{hint}'") if hint else Msg(
                                "（可选：{z}）", " (one of {e})", z="、".join(f"'{x}'" for x in FORMATS), e=", ".join(FORMATS)))
        out.append((fmt, path))
    files = [f for _, f in out if f]
    if len(set(files)) != len(files):
        return out, Msg("两个报告会写到同一个文件", "two reports would be written to the same file")
    if sum(1 for _, f in out if f is None) > 1:
        return out, Msg("只能有一个报告写到标准输出", "only one report can go to standard output")
    return out, None


def render(report, fmt: str, to_file: bool, args, cat=None) -> str | None:
    from skillproof.reports import formatter
    mod = formatter(fmt)
    if mod is None:
        return None
    if fmt == "text":
        to_tty = not to_file and sys.stdout.isatty()
        color = args.color == "always" or (args.color == "auto" and to_tty and not os.environ.get("NO_COLOR"))
        return mod.render(report, color=color, cat=cat)
    return mod.render(report) if "cat" not in mod.render.__code__.co_varnames else mod.render(report, cat=cat)


def emit(report, args, cat=None) -> int:
    """Render ``report`` in every requested format (``args.format`` to ``args.output`` or stdout, and each
    --output-format FORMAT:FILE); return 0 or 2."""
    from skillproof.model.msg import Msg

    from .exits import error_line
    targets, problem = outputs(args)
    if problem:
        sys.stderr.write(error_line(problem) + "\n")
        return 2
    texts = []
    for fmt, path in targets:
        text = render(report, fmt, path is not None, args, cat)
        if text is None:
            sys.stderr.write(error_line(Msg("这个安装中没有 '{f}' 格式", "the {f} format is not available in this installation",
                                            f=fmt)) + "\n")
            return 2
        texts.append((path, text))
    # the files all together (an interrupted run leaves every report or none: model.signals), then standard output
    from skillproof.model.signals import write_all
    failed = write_all([(p, t) for p, t in texts if p])
    if failed:
        from skillproof.model.errtext import os_reason
        sys.stderr.write(error_line(Msg("写不了 {p}：{why}（一个报告也没有写）", "cannot write {p}: {why} (no report was written)",
                                        p=failed[0], why=os_reason(failed[1]))) + "\n")
        return 2
    for path, text in texts:
        if not path and write_out(None, text):
            return 2
    return 0


def make_report(cat, result, args, suppressed=(), stale=(), findings=None):
    from skillproof.checks import graph as GR
    from skillproof.reports.model import Report
    fs = _without_ignored(result.findings if findings is None else findings, args)
    return Report(findings=list(fs), catalogue_files=list(cat.files), families=list(result.families),
                  fail_on=args.fail_on, suppressed=list(suppressed), stale=list(stale),
                  graph=GR.export(GR.build(cat)) if "html" in {f for f, _ in outputs(args)[0]} else None,
                  stats={"solver_queries": result.stats.get("queries", 0)},
                  passes=list(getattr(result, "passes", []) or []),
                  show_intended="intended" in (getattr(args, "show", None) or []),
                  show_proved="proved" in (getattr(args, "show", None) or []))


def options_of(args, only=None, started: float | None = None):
    """The checks' options from the command line's (check, baseline, explain: the same bounds give the same
    witnesses)."""
    from skillproof.checks.context import Options
    budget = getattr(args, "time_budget", None)
    return Options(timeout_ms=max(1, int(args.timeout * 1000)), max_grants=args.max_grants,
                   max_seats=args.max_seats, only=_codes(getattr(args, "select", "") or "") if only is None else only,
                   rlimit=max(0, args.rlimit), turns=getattr(args, "max_turns", 2),
                   deadline=None if budget is None else (started or time.time()) + budget)


def run_checks(cat, args, started: float | None = None):
    from skillproof.checks.context import run
    from . import cache
    opts = options_of(args, started=started)
    t = time.perf_counter()
    k = cache.key(cat, opts) if cache.enabled(args) else None
    result = cache.load(k) if k is not None else None
    if result is not None:              # the same catalogue, options and tool: the result the checks would give
        result.stats.update(cached=True, seconds=time.perf_counter() - t)
    else:
        prog = Progress(not args.quiet)
        try:
            result = run(cat, opts, progress=prog if prog.enabled else None, jobs=max(1, getattr(args, "jobs", 2)))
        finally:
            prog.finish()
        if k is not None:
            cache.store(k, result)
    result.stats["wall_seconds"] = time.perf_counter() - t
    return result


def say_time(result, args):
    """After the report, on a terminal: how many questions and how long (never in a report: reports are
    deterministic)."""
    if getattr(args, "quiet", False) or not sys.stderr.isatty():
        return
    n, secs = result.stats.get("queries", 0), result.stats.get("wall_seconds", 0.0)
    if result.stats.get("cached"):
        sys.stderr.write(pick(f"skillproof：结果取自缓存（同一目录、选项和版本的上一次运行，{n} 个问题），用时 {secs:.1f} 秒；"
                              f"--no-cache 重新求解\n",
                              f"skillproof: the result of an earlier run with the same catalogue, options and version "
                              f"({n} solver question{'s' if n != 1 else ''}), read from the cache in {secs:.1f}s; "
                              f"--no-cache solves again\n"))
        return
    sys.stderr.write(pick(f"skillproof：向求解器提了 {n} 个问题，用时 {secs:.1f} 秒\n",
                          f"skillproof: {n} solver question{'s' if n != 1 else ''} in {secs:.1f}s\n"))


def usage_problem(args):
    """What is wrong with the selection and solver options, if anything (shared by check and baseline)."""
    for sel in (getattr(args, "select", ""), getattr(args, "ignore", "")):
        msg = validate_selection(_codes(sel or ""))
        if msg:
            return msg
    from skillproof.model.msg import Msg
    if args.timeout <= 0 or args.max_grants < 0 or args.max_seats < 1 or getattr(args, "max_turns", 2) < 1:
        return Msg("--timeout 必须是正数，--max-grants >= 0，--max-seats >= 1，--max-turns >= 1",
                   "--timeout must be positive, --max-grants >= 0, --max-seats >= 1, --max-turns >= 1")
    budget = getattr(args, "time_budget", None)
    if budget is not None and not 0 < budget < 1e9:
        return Msg("--time-budget 必须是正的秒数", "--time-budget must be a positive number of seconds")
    return None


def run(args) -> int:
    started = time.time()
    from .exits import error_line
    msg = usage_problem(args) or outputs(args)[1]
    if msg:
        sys.stderr.write(error_line(msg) + "\n")
        return 2
    if missing_paths(args):
        return 2
    base = None
    if args.baseline:                  # a bad baseline fails at once, before a full run
        from skillproof.reports import baseline as B
        try:
            base = B.load(args.baseline)
        except B.BaselineError as e:
            if getattr(args.baseline, "line", None) and not os.path.lexists(args.baseline):
                # named by the configuration: said at the line that names it
                from skillproof.model.loader import CatalogueError
                from skillproof.model.msg import Msg
                e = CatalogueError(args.baseline.file, args.baseline.line, "baseline", Msg(
                    "没有这个基线文件：{p}（用 `skillproof baseline --output {p}` 写一个）",
                    "no such baseline file: {p} (write one with `skillproof baseline --output {p}`)", p=str(args.baseline)))
            sys.stderr.write(error_line(e) + "\n")
            return 2
    from .common import paths_of
    cat = load_or_report(paths_of(args))
    if cat is None:
        return 2
    from .common import empty_catalogue, overwrites_input
    if empty_catalogue(cat):
        return 2
    if overwrites_input([f for _, f in outputs(args)[0]], cat, [args.baseline]):
        return 2
    result = run_checks(cat, args, started)
    found, suppressed, in_source, stale = accept_inline(cat, _without_ignored(result.findings, args), args)
    if base is not None:
        found, by_base, base_stale = B.apply(base, found, ran=_codes(args.select) or None)
        suppressed, stale = sorted(suppressed + by_base, key=lambda x: x[0].sort_key()), stale + base_stale
    report = make_report(cat, result, args, suppressed, stale, found)
    report.in_source = in_source
    if base is not None:
        report.to_review = base.to_review() & {f.id for f, _ in suppressed}
    rc = emit(report, args, cat)
    sys.stdout.flush()
    say_time(result, args)
    hint_if_gave_up(report, args)
    return rc or report.exit_code()


def accept_inline(cat, findings, args):
    """Inline suppressions: (active, suppressed [(Finding, reason)], {id: comment location}, stale)."""
    from skillproof.checks import suppress
    return suppress.apply(cat, findings, ran=_codes(getattr(args, "select", "") or "") or None)


def hint_if_gave_up(report, args):
    """On standard error, in the run's language: why questions were inconclusive and what to do — the solver
    gave up (raise --timeout / --rlimit, or lower the bounds), --time-budget ran out (raise it, or --select
    fewer families), or the twins disagreed (INT001: a bug in skillproof, to report)."""
    inc = list(report.inconclusive)
    if not inc or getattr(args, "quiet", False):
        return
    from skillproof.model.lang import is_en
    en = is_en()
    budget = [f for f in inc if "time-budget" in (f.key or "") or "--time-budget" in (f.message_en or "")]
    internal = [f for f in inc if f.check == "INT001"]
    solver = [f for f in inc if f not in budget and f not in internal]
    n = len(inc)
    parts = []
    why = sorted({(f.message_en if en else f.message).rsplit("unknown: " if en else "：", 1)[-1].rstrip(")）")
                  for f in solver})
    why_s = (f" ({', '.join(why)})" if en else f"（{'、'.join(why)}）") if why else ""
    if solver:
        if args.rlimit:
            parts.append(f"{len(solver)} gave up in the solver{why_s}: raise --rlimit (now {args.rlimit}; 0 = no limit) or "
                         f"--timeout (now {args.timeout:g} s), or lower --max-seats / --max-grants" if en else
                         f"求解器放弃了 {len(solver)} 个{why_s}：提高 --rlimit（现为 {args.rlimit}；0 为不限）或 --timeout"
                         f"（现为 {args.timeout:g} 秒），或缩小 --max-seats / --max-grants")
        else:
            parts.append(f"{len(solver)} gave up in the solver{why_s}: raise --timeout (now {args.timeout:g} s per "
                         f"question), or lower --max-seats / --max-grants" if en else
                         f"求解器放弃了 {len(solver)} 个{why_s}：提高 --timeout（现为每题 {args.timeout:g} 秒），"
                         f"或缩小 --max-seats / --max-grants")
    if budget:
        tb = getattr(args, "time_budget", None)
        now = f" (now {tb:g} s)" if en and tb else (f"（现为 {tb:g} 秒）" if tb else "")
        parts.append(f"{len(budget)} not asked: --time-budget ran out: raise --time-budget{now}, or check fewer "
                     f"families with --select" if en else
                     f"{len(budget)} 个没有提问：--time-budget 已用完：提高 --time-budget{now}，或用 --select 少查几个检查族")
    if internal:
        parts.append(f"{len(internal)} where the z3 encoding and the interpreter disagree (INT001): a bug in "
                     f"skillproof — please report it with the catalogue" if en else
                     f"{len(internal)} 个上 z3 编码与解释器不一致（INT001）：这是 skillproof 的缺陷，请连同目录报告")
    if en:
        sys.stderr.write(f"skillproof: {n} question{'s' if n != 1 else ''} inconclusive — {'; '.join(parts)}\n")
    else:
        sys.stderr.write(f"skillproof：{n} 个问题无法判定——{'；'.join(parts)}\n")


def _without_ignored(findings, args):
    ign = _codes(getattr(args, "ignore", "") or "")
    return [f for f in findings if f.check not in ign and f.family not in ign]
