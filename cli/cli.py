"""The `skillproof` command line.

Exit codes (as linters do):
  0  nothing at or above --fail-on was found
  1  findings at or above --fail-on (or, for `diff`, changed decisions / new findings; for `replay`, an
     answer differs)
  2  bad input or usage (a catalogue error names file, line and key)
  3  inconclusive: the solver answered unknown or timed out on some question (or --time-budget ran out)
  4  internal error: a bug in skillproof, not a finding — one line on stderr; --debug shows the traceback
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import NoReturn

from . import __version__

from .exits import EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, error_line, printable

#: the end of every command's --help
EXIT_EPILOG = ("exit code 4 means an internal error (a bug in skillproof, never a finding): one line on "
               "stderr asks for a report; run again with --debug for the traceback.")
EXIT_EPILOG_ZH = "退出码 4 表示内部错误（skillproof 自身的缺陷，不是检查出的问题）：标准错误上的一行请你报告它；\n" \
                 "加 --debug 重新运行可看到回溯。"

#: the top of `skillproof --help` in Chinese (the English one is this module's docstring)
DESCRIPTION_ZH = "skillproof 命令行：验证风声的技能规则。"
EPILOG_ZH = """\
退出码（与常见的检查工具一致）：
  0  没有达到 --fail-on 级别的问题
  1  有达到 --fail-on 级别的问题（skillproof diff：判定改变或有新问题；skillproof replay：有答案与预期不同）
  2  输入或用法有误（目录的错误会指出文件、行号和键）
  3  无法判定：求解器对某个问题的结果是“未知”或超时（或 --time-budget 用完）
  4  内部错误：skillproof 自身的缺陷，不是检查出的问题——标准错误上只有一行；--debug 显示回溯"""

# each command module has: NAME, HELP, add_arguments(parser), run(args) -> int
COMMANDS = ["check", "catalogue", "baseline", "diff", "ask", "explain", "replay", "extract", "schema",
            "rules"]
#: the commands that write for people: they take --lang (and ``lang`` of the configuration)
LANG_COMMANDS = ("check", "catalogue", "baseline", "diff", "ask", "explain", "replay", "rules", "extract")

# argparse's own messages (Lib/argparse.py), as regular expressions, in Chinese
_ARGPARSE_ZH = [
    (r"the following arguments are required: (.*)", "缺少必需的参数：{0}"),
    (r"unrecognized arguments: (.*)", "无法识别的参数：{0}"),
    (r"argument (.*?): invalid choice: (.*) \(choose from (.*)\)", "参数 {0} 的值 {1} 无效（可选：{2}）"),
    (r"argument (.*?): expected one argument", "参数 {0} 需要一个值"),
    (r"argument (.*?): expected at least one argument", "参数 {0} 至少需要一个值"),
    (r"argument (.*?): invalid (\w+) value: (.*)", "参数 {0} 的值 {2} 无效（应是 '{1}'）"),
    (r"argument (.*?): not allowed with argument (.*)", "参数 {0} 不能与 {1} 同用"),
    (r"argument (.*?): ignored explicit argument (.*)", "参数 {0} 不带值，却写了 {1}"),
    (r"ambiguous option: (.*?) could match (.*)", "有歧义的选项：{0} 可以是 {1}"),
    (r"argument (-[^:\s]*): (.+)", "参数 {0}：{1}"),     # a value cli.optvalues refused (already in this language)
]


def usage_message(message: str):
    """An argparse error message in both languages (model.msg): the known ones translated, any other quoted."""
    import re
    from .model.msg import Msg
    for pat, zh in _ARGPARSE_ZH:
        m = re.fullmatch(pat, message, re.S)
        if m:
            return Msg(zh.format(*("{g%d}" % i for i in range(len(m.groups())))), "{m}", m=message,
                       **{f"g{i}": g for i, g in enumerate(m.groups())})
    return Msg("“{m}”", "{m}", m=message)


class _Parser(argparse.ArgumentParser):
    """argparse's parser, its help in the run's language when it is built (cli.helpfmt): its own words, section
    titles and -h; usage errors in the run's language when they are printed."""

    def __init__(self, *args, **kwargs):
        from .helpfmt import formatter_class, localise
        kwargs["add_help"] = False
        kwargs.setdefault("formatter_class", formatter_class())
        super().__init__(*args, **kwargs)
        localise(self)

    def error(self, message):                   # usage errors exit 2, as argparse does, but say how to get help
        from .model.msg import Msg
        self.print_usage(sys.stderr)
        sys.stderr.write(str(Msg("{p}：错误：{m}\n（运行 '{p} --help' 查看帮助）\n", "{p}: error: {m}\n(run '{p} --help' for help)\n",
                                 p=self.prog, m=printable(str(usage_message(message))))))
        sys.exit(EXIT_USAGE)

    def _get_values(self, action, arg_strings):
        # argparse drops a '--' given as an option's value (``--jobs=--``) and hands the action an empty list:
        # the value is then '--' itself, typed and checked as any other
        if action.nargs in (None, argparse.OPTIONAL) and action.option_strings and arg_strings == ["--"]:
            value = self._get_value(action, "--")
            self._check_value(action, value)
            return value
        return super()._get_values(action, arg_strings)


def _text(mod, name: str, fallback: str | None = None) -> str:
    """A command module's HELP / DESCRIPTION in the run's language (``NAME_ZH`` beside ``NAME``; a module
    without ``name`` has ``fallback``'s)."""
    from .model.lang import pick
    if not hasattr(mod, name) and fallback:
        return _text(mod, fallback)
    en = getattr(mod, name)
    return pick(getattr(mod, name + "_ZH", en), en)


def _lang_help(name: str) -> str:
    from .model.lang import pick
    if name == "extract":
        return pick("终端上输出的内容和 extraction-report.md 的语言：zh（中文，默认）或 en（英文）；写出的 TOML 目录不随它变化",
                    "the language of what is written to the terminal and of extraction-report.md: zh (Chinese, the "
                    "default) or en (English); the TOML catalogue it writes does not change")
    return pick("面向人的全部输出的语言：zh（中文，默认）或 en（英文）；目录中的名字照原样；JSON 和 SARIF 的字段不变",
                "the language of everything written for people: zh (Chinese, the default) or en (English); names of "
                "the catalogue stay as written; JSON and SARIF fields do not change")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser, its help in the run's language (model.lang) as it is when this is called.
    ``only``: the command about to run — only its module is imported and its arguments built; every other command
    is still a choice of the parser (a usage error lists them all), without its help or arguments, which only the
    top-level --help shows (``command_to_run``: not given then)."""
    import importlib
    from .helpfmt import metavar
    from .model.lang import pick
    p = _Parser(prog="skillproof", description=pick(DESCRIPTION_ZH, __doc__.split("\n\n")[0]),
                epilog=pick(EPILOG_ZH, __doc__.split("\n\n", 1)[1]))
    p.add_argument("--version", action="version", version=f"skillproof {__version__}",
                   help=pick("显示版本号并退出", "show program's version number and exit"))
    p.add_argument("--debug", action="store_true",
                   help=pick("内部错误时显示 Python 回溯（也可以写在命令之后）",
                             "on an internal error, show the Python traceback (also accepted after the command)"))
    p.add_argument("--config", metavar=metavar("FILE"),
                   help=pick("从这个文件读取选项（默认：从工作目录向上找到的 skillproof.toml，或 pyproject.toml 中的 "
                             "[tool.skillproof]；命令行上的参数优先）；也可以写在命令之后",
                             "read options from this file (default: skillproof.toml or [tool.skillproof] in "
                             "pyproject.toml, found from the working directory upwards; flags override it); accepted "
                             "after the command too"))
    p.add_argument("--no-config", action="store_true", help=pick("忽略所有配置文件", "ignore every configuration file"))
    p.add_argument("--lang", choices=["zh", "en"], default=argparse.SUPPRESS,
                   help=pick("输出的语言：zh（中文，默认）或 en（英文）；也可以写在命令之后",
                             "the language of the output: zh (Chinese, the default) or en (English); accepted after "
                             "the command too"))
    sub = p.add_subparsers(dest="command", metavar=metavar("COMMAND"), parser_class=_Parser)
    p._commands = {}
    for name in COMMANDS:
        if only is not None and name != only:
            sub.add_parser(name)                # not run, never shown: its module stays unimported
            continue
        try:
            mod = importlib.import_module(f"skillproof.cmd_{name}")
        except ModuleNotFoundError as e:
            if e.name == f"skillproof.cmd_{name}":
                continue
            raise
        sp = sub.add_parser(name, help=_text(mod, "HELP"), description=_text(mod, "DESCRIPTION", "HELP"),
                            epilog=pick(EXIT_EPILOG_ZH, EXIT_EPILOG))
        mod.add_arguments(sp)
        if name in LANG_COMMANDS:
            sp.add_argument("--lang", choices=["zh", "en"], default=None, help=_lang_help(name))
        sp.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                        help=pick("内部错误时显示 Python 回溯", "on an internal error, show the Python traceback"))
        sp.set_defaults(_run=mod.run)
        p._commands[name] = sp
    return p


def command_of(argv: list[str]) -> str | None:
    """The command ``argv`` names: its first word that is neither an option nor the value of the top-level
    ``--lang``."""
    skip = False
    for a in argv:
        if skip:
            skip = False
        elif a == "--lang":
            skip = True
        elif not a.startswith("-"):
            return a
    return None


def command_to_run(argv: list[str]) -> str | None:
    """The command ``argv`` runs when its parser needs no other command's help or arguments: a known command, after
    nothing but the top-level options that neither print help nor stop the parse (None: build every command — the
    top-level --help lists them all)."""
    command = command_of(argv)
    if command not in COMMANDS:
        return None
    before = argv[:argv.index(command)]
    for i, a in enumerate(before):
        if a in ("--debug", "--no-config") or a.startswith("--lang=") or \
                (i > 0 and before[i - 1] == "--lang") or (a == "--lang" and i + 1 < len(before)):
            continue
        return None
    return command


def flag_lang(argv: list[str]) -> str | None:
    """The language ``--lang`` names on the command line, read before anything is parsed (None: not given,
    or not a language: argparse says so later)."""
    from .model.lang import LANGS
    for i, a in enumerate(argv):
        if a == "--":
            break
        if a == "--lang" and i + 1 < len(argv) and argv[i + 1] in LANGS:
            return argv[i + 1]
        if a.startswith("--lang=") and a.split("=", 1)[1] in LANGS:
            return a.split("=", 1)[1]
    return None


def apply_config(parser, argv: list[str], path: str | None, off: bool) -> int:
    """Make the configuration file's values the defaults of the command in ``argv``; 0, or 2 after
    printing the file's problems (file:line: [key] message)."""
    from . import config
    from .model import lang
    from .model.msg import Msg
    command = command_of(argv)
    if off or command not in config.COMMAND_KEYS or command not in parser._commands:
        return EXIT_OK
    try:
        found = path or config.find()
        cfg = config.load(found) if found else None
    except config.ConfigError as e:
        # the configuration's errors are found before the run's language is settled: --lang when given, else
        # the file's own 'lang' when that key is good, else the default (Chinese)
        with lang.using(flag_lang(argv) or e.lang or lang.DEFAULT):
            for prob in e.problems:
                sys.stderr.write(error_line(prob) + "\n")
            n = len(e.problems)
            sys.stderr.write(str(Msg("配置中有 {n} 个错误；什么也没有运行（--no-config 可以忽略配置）\n",
                                     "{n} error{s} in the configuration; nothing was run (--no-config ignores it)\n",
                                     n=n, s="s" if n != 1 else "")))
        return EXIT_USAGE
    if cfg is not None:
        parser._commands[command].set_defaults(_config=cfg.path, **cfg.defaults_for(command))
    return EXIT_OK


def entry() -> NoReturn:
    """The ``skillproof`` command (and ``python -m skillproof``): ``main`` in an interpreter whose string hashing
    is fixed. z3 numbers its terms in the order they are made, and its search (so the witness it finds) follows
    those numbers; a set of names iterated anywhere while a question is built makes its terms in the order of
    the set, which with Python's randomised string hashing changes from one run to the next — so the command
    runs itself again, once, with PYTHONHASHSEED=0 (an exec: the same process id, standard streams and
    signals; about 20 ms), and the same input gives byte-identical reports on every run (README,
    "Deterministic"). Where exec is not what it is on POSIX, it runs as it is.

    SIGINT and SIGTERM are blocked from here (from the start of ``python -m skillproof``) until main has its
    handlers in place, across the exec too, and the handlers stay for the rest of the process, which ends here
    (``_leave``): a signal at any moment of the command ends it with its one line and exit code (model.signals)."""
    from skillproof.model import signals
    signals.hold_until_installed()
    if sys.flags.hash_randomization and os.name == "posix" and os.environ.get("PYTHONHASHSEED") != "0":
        env = signals.exec_env(dict(os.environ, PYTHONHASHSEED="0"))
        try:
            os.execve(sys.executable, [sys.executable, "-m", "skillproof", *sys.argv[1:]], env)
        except OSError:
            pass                    # could not exec (no executable to name): run here, as before
    from . import cache
    cache.COMMAND = True            # the command keeps its results (cli/cache.py); main() as a function does not
    signals.install()               # for the whole process, never put back
    try:
        rc = main()
    except SystemExit as e:         # argparse: --help, --version, a usage error
        rc = e.code if isinstance(e.code, int) else 0 if e.code is None else 1
        if not isinstance(e.code, (int, type(None))):
            sys.stderr.write(f"{e.code}\n")
    sig = signals.late()
    if sig is not None and rc not in signals.EXIT_CODES.values():
        rc = _signalled(sig, None, _LAST_RUN.get("lang"))       # the command was over, the process not yet
    _leave(rc)


#: the language of the last run of ``main`` (for entry's line after it)
_LAST_RUN: dict = {}


def _leave(rc: int):
    """End the process with ``rc`` once the standard streams are flushed, without the interpreter's teardown: it
    puts the default handlers back first, and a signal that came during it (tens of milliseconds, more after a
    large run) killed the process without a word (status -2 / -15) instead of ending it with its line and exit
    code. Nothing is left for the teardown to do: every report is written and closed, every worker stopped and
    every temporary file removed by the command itself."""
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):       # a closed or broken standard output: nothing more can be said
            pass
    os._exit(rc)


def main(argv=None) -> int:
    from skillproof.model import signals
    token = signals.install()   # SIGINT / SIGTERM: workers stopped, temporary files removed, one line (model.signals)
    real_stdout, real_stderr = sys.stdout, sys.stderr
    run_lang = None
    _LAST_RUN.clear()
    try:
        argv = sys.argv[1:] if argv is None else list(argv)
        debug = "--debug" in argv
        command = next((a for a in argv if a in COMMANDS), "")
        from .model import lang
        # The run's language, as early as it can be known: --lang first (read here, before anything is parsed),
        # then 'lang' of the configuration (argparse defaults, once the file is read), else Chinese. Errors keep
        # both languages and are rendered when printed, so one raised before the configuration is read still
        # follows it; what is printed before the configuration is read (a bad configuration, an argparse usage
        # error) follows --lang, or the configuration's own 'lang' when the file says it, or else the default.
        run_lang = flag_lang(argv) or lang.DEFAULT
        signals.release()       # a signal held while the command started is raised here, inside this try
        if real_stdout is None or not _isatty(real_stdout):
            sys.stdout = _Stdout(real_stdout)       # a failed write is the output's, not a bug (OutputFailed)
        if real_stderr is None or not _isatty(real_stderr):
            sys.stderr = _Stderr(real_stderr)       # nowhere to say it: the exit code still tells
        return _main(argv, debug, command, run_lang)
    except BaseException as e:      # a signal before _main began, or as it was ending: the command ends as it asks
        sig = signals.settle()
        if sig is None and not isinstance(e, (KeyboardInterrupt, signals.Terminated)):
            raise
        return _signalled(sig, e, _LAST_RUN.get("lang") or run_lang)
    finally:
        signals.settle()
        sys.stdout, sys.stderr = real_stdout, real_stderr
        signals.restore(token)


class OutputFailed(Exception):
    """Standard output could not be written (a full disk, an I/O error, a closed descriptor): the run's answer
    is lost, which is the output's doing, not a bug of skillproof — one line and exit 2, never exit 4."""

    def __init__(self, error: BaseException):
        super().__init__(str(error))
        self.error = error


def _isatty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


class _Stdout:
    """``sys.stdout`` during a run (not on a terminal): a write or flush that fails raises ``OutputFailed``;
    a broken pipe stays ``BrokenPipeError`` (the reader left: exit 0). A closed standard output (``>&-``,
    ``sys.stdout`` None) fails the same way at the first write. Everything else is the real stream's."""

    def __init__(self, raw):
        self._raw = raw

    def _guard(self, name, *a):
        if self._raw is None:
            import errno
            import os
            raise OutputFailed(OSError(errno.EBADF, os.strerror(errno.EBADF)))
        try:
            return getattr(self._raw, name)(*a)
        except BrokenPipeError:
            raise
        except (OSError, ValueError) as e:            # ValueError: I/O operation on a closed file
            raise OutputFailed(e) from e

    def write(self, text):
        return self._guard("write", text)

    def writelines(self, lines):
        return self._guard("writelines", lines)

    def flush(self):
        return self._guard("flush")

    def isatty(self):
        return _isatty(self._raw)

    def __getattr__(self, name):
        return getattr(self._raw, name)


class _Stderr:
    """``sys.stderr`` during a run (not on a terminal): a message that cannot be written (a full disk, a closed
    descriptor) is dropped — there is nowhere left to say anything — so that the run still ends with its own exit
    code (a failed error message became exit 1, the code of a finding). Everything else is the real stream's."""

    def __init__(self, raw):
        self._raw = raw

    def write(self, text):
        try:
            return self._raw.write(text)
        except (AttributeError, OSError, ValueError):
            return len(text)

    def flush(self):
        try:
            self._raw.flush()
        except (AttributeError, OSError, ValueError):
            pass

    def isatty(self):
        return _isatty(self._raw)

    def __getattr__(self, name):
        return getattr(self._raw, name)


def _output_failed(e: OutputFailed, run_lang: str) -> int:
    """One line for a standard output that cannot be written; what is still buffered for it is dropped (sent to
    the null device), so that the interpreter's own flush at exit does not fail again."""
    import os
    from .model import lang
    from .model.errtext import os_reason
    from .model.msg import Msg
    err = e.error if isinstance(e.error, OSError) else OSError(str(e.error))
    raw = sys.stdout._raw if isinstance(sys.stdout, _Stdout) else None
    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(fd, raw.fileno())
        finally:
            os.close(fd)
    except (AttributeError, ValueError, OSError):
        pass
    try:
        with lang.using(run_lang):
            sys.stderr.write(error_line(Msg("写不了标准输出：{why}", "cannot write to standard output: {why}",
                                            why=os_reason(err))) + "\n")
    except (AttributeError, ValueError, OSError):
        pass
    return EXIT_USAGE


def _main(argv, debug, command, run_lang) -> int:
    """Run the command; its exit code. A signal decides the outcome wherever it came: as its own exception, as
    another one it turned into on the way, or lost on the way and the command run to its end (model.signals)."""
    from skillproof.model import signals
    from .model import lang
    run = _LAST_RUN
    run.update(lang=run_lang, debug=debug)
    try:
        rc = _run_command(argv, run)
    except BaseException as e:          # noqa: BLE001 — every failure is said in one line
        sig = signals.settle()
        if sig is not None or isinstance(e, (KeyboardInterrupt, signals.Terminated)):
            return _signalled(sig, e, run["lang"])
        if isinstance(e, OutputFailed):
            return _output_failed(e, run["lang"])
        if isinstance(e, BrokenPipeError):
            return EXIT_OK
        if isinstance(e, SystemExit):
            raise
        with lang.using(run["lang"]):   # every other failure is ours: say so, in one line
            return internal_error(command, e, run["debug"])
    sig = signals.settle()
    return rc if sig is None else _signalled(sig, None, run["lang"])


def _parse(parser, argv):
    """``parser.parse_args(argv)``, but catalogue paths may also follow an option: argparse closes a command's
    positionals at the first option after them, so `replay FILE --brief PATH` and `explain ID --save F PATH` were
    "unrecognized arguments: PATH" (exit 2) where `replay --brief FILE PATH` ran. Words left over that are not
    options go to the command's PATH list (``paths``); anything else is refused as before."""
    args, extra = parser.parse_known_args(argv)
    if extra and isinstance(getattr(args, "paths", None), list) and "--" not in argv \
            and not any(x.startswith("-") and x != "-" for x in extra):
        args.paths = list(args.paths) + extra         # (a new list: the default may be the parser's own)
        return args
    if extra:
        return parser.parse_args(argv)          # says what it does not know, as it always did (exit 2)
    return args


def _run_command(argv, run: dict) -> int:
    """Parse ``argv`` and run its command; ``run`` gets the run's language and --debug as they become known."""
    from .model import lang
    with lang.using(run["lang"]):
        from .config import take_config_args
        argv, config_path, no_config = take_config_args(argv)
        parser = build_parser(command_to_run(argv))
        if apply_config(parser, argv, config_path, no_config):
            return EXIT_USAGE
        args = _parse(parser, argv)
    run["debug"] = bool(getattr(args, "debug", run["debug"]))
    if not getattr(args, "_run", None):
        parser.print_help()
        return EXIT_USAGE
    run["lang"] = flag_lang(argv) or getattr(args, "lang", None) or lang.DEFAULT
    with lang.using(run["lang"]):
        rc = args._run(args)
        sys.stdout.flush()              # a failed write shows now, not at the interpreter's exit
        return rc


def _signalled(sig, e: BaseException | None, run_lang: str | None) -> int:
    """The end of a command a signal stopped: one line, exit 130 (SIGINT) or 143 (SIGTERM). ``sig``: the signal
    that came (None: the exception ``e`` says which)."""
    import signal
    from .model import lang
    from .model.msg import Msg
    from skillproof.model.signals import EXIT_CODES, Terminated
    if sig is None:
        sig = signal.SIGTERM if isinstance(e, Terminated) else signal.SIGINT
    msg = (Msg("已终止（收到终止信号）\n", "terminated (SIGTERM)\n") if sig == signal.SIGTERM
           else Msg("已中断\n", "interrupted\n"))
    sys.stderr.write(msg.render(run_lang or lang.DEFAULT))
    return EXIT_CODES.get(sig, 130)


def internal_error(command: str, e: BaseException, debug: bool) -> int:
    """Report a crash as exit code 4: one line naming the command and asking for a report, the
    traceback only with --debug."""
    from .model.names import shown
    if debug:
        import traceback
        traceback.print_exception(e, file=sys.stderr)
    try:
        text = str(e)
    except Exception:                   # noqa: BLE001
        text = ""
    from .model.msg import Msg
    what = f"{type(e).__name__}: {shown(text, 160)}" if text else type(e).__name__
    cmd = f"skillproof {command}" if command else "skillproof"
    sys.stderr.write(str(Msg("{cmd}：内部错误（{what}）——这是 skillproof 的缺陷，不是你的输入有问题；请把命令和它的输入"
                             "报告给 skillproof 的维护者{zd}\n",
                             "{cmd}: internal error ({what}) — this is a bug in skillproof, not a problem with "
                             "your input; please report it to the skillproof maintainers with the command and "
                             "its input{ed}\n", cmd=cmd, what=what, zd="" if debug else "（加 --debug 可看到回溯）",
                             ed="" if debug else " (run with --debug for the traceback)")))
    return EXIT_INTERNAL


if __name__ == "__main__":          # pragma: no cover
    sys.exit(main())
