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
import sys

from . import __version__

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_INCONCLUSIVE, EXIT_INTERNAL = 0, 1, 2, 3, 4

#: the end of every command's --help
EXIT_EPILOG = ("exit code 4 means an internal error (a bug in skillproof, never a finding): one line on "
               "stderr asks for a report; run again with --debug for the traceback.")

# each command module has: NAME, HELP, add_arguments(parser), run(args) -> int
COMMANDS = ["check", "catalogue", "baseline", "diff", "ask", "explain", "replay", "extract", "schema",
            "rules"]
#: the commands that write for people: they take --lang (and ``lang`` of the configuration)
LANG_COMMANDS = ("check", "catalogue", "diff", "ask", "explain", "replay", "rules")


class _Parser(argparse.ArgumentParser):
    def error(self, message):                   # usage errors exit 2, as argparse does, but say how to get help
        self.print_usage(sys.stderr)
        sys.stderr.write(f"{self.prog}: error: {message}\n(run '{self.prog} --help' for help)\n")
        sys.exit(EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    import importlib
    p = _Parser(prog="skillproof", description=__doc__.split("\n\n")[0],
                epilog=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version=f"skillproof {__version__}")
    p.add_argument("--debug", action="store_true",
                   help="on an internal error, show the Python traceback (also accepted after the command)")
    p.add_argument("--config", metavar="FILE", help="read options from this file (default: skillproof.toml or "
                   "[tool.skillproof] in pyproject.toml, found from the working directory upwards; flags override "
                   "it); accepted after the command too")
    p.add_argument("--no-config", action="store_true", help="ignore every configuration file")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    p._commands = {}
    for name in COMMANDS:
        try:
            mod = importlib.import_module(f"skillproof.cmd_{name}")
        except ModuleNotFoundError as e:
            if e.name == f"skillproof.cmd_{name}":
                continue
            raise
        sp = sub.add_parser(name, help=mod.HELP, description=getattr(mod, "DESCRIPTION", mod.HELP),
                            epilog=EXIT_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
        mod.add_arguments(sp)
        if name in LANG_COMMANDS:
            sp.add_argument("--lang", choices=["zh", "en"], default=None,
                            help="the language of everything written for people: zh (Chinese, the default) or en "
                                 "(English); names of the catalogue stay as written; JSON and SARIF fields do not change")
        sp.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                        help="on an internal error, show the Python traceback")
        sp.set_defaults(_run=mod.run)
        p._commands[name] = sp
    return p


def apply_config(parser, argv: list[str], path: str | None, off: bool) -> int:
    """Make the configuration file's values the defaults of the command in ``argv``; 0, or 2 after
    printing the file's problems (file:line: [key] message)."""
    from . import config
    command = next((a for a in argv if not a.startswith("-")), None)
    if off or command not in config.COMMAND_KEYS or command not in parser._commands:
        return EXIT_OK
    try:
        found = path or config.find()
        cfg = config.load(found) if found else None
    except config.ConfigError as e:
        for prob in e.problems:
            sys.stderr.write(f"error: {prob}\n")
        n = len(e.problems)
        sys.stderr.write(f"{n} error{'s' if n != 1 else ''} in the configuration; nothing was run "
                         f"(--no-config ignores it)\n")
        return EXIT_USAGE
    if cfg is not None:
        parser._commands[command].set_defaults(_config=cfg.path, **cfg.defaults_for(command))
    return EXIT_OK


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    debug = "--debug" in argv
    command = next((a for a in argv if a in COMMANDS), "")
    try:
        from .config import take_config_args
        argv, config_path, no_config = take_config_args(argv)
        parser = build_parser()
        if apply_config(parser, argv, config_path, no_config):
            return EXIT_USAGE
        args = parser.parse_args(argv)
        debug = bool(getattr(args, "debug", debug))
        if not getattr(args, "_run", None):
            parser.print_help()
            return EXIT_USAGE
        from .model import lang
        with lang.using(getattr(args, "lang", None) or lang.DEFAULT):
            return args._run(args)
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except SystemExit:
        raise
    except BaseException as e:          # noqa: BLE001 — every other failure is ours: say so, in one line
        return internal_error(command, e, debug)


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
    what = f"{type(e).__name__}: {shown(text, 160)}" if text else type(e).__name__
    cmd = f"skillproof {command}" if command else "skillproof"
    sys.stderr.write(f"{cmd}: internal error ({what}) — this is a bug in skillproof, not a problem with "
                     f"your input; please report it to the skillproof maintainers with the command and "
                     f"its input{'' if debug else ' (run with --debug for the traceback)'}\n")
    return EXIT_INTERNAL


if __name__ == "__main__":          # pragma: no cover
    sys.exit(main())
