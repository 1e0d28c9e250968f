"""Helpers shared by the commands: loading a catalogue with located, non-traceback errors."""
from __future__ import annotations

import sys

from .exits import EXIT_USAGE, error_line
from .model.loader import CatalogueErrors, load
from .model.msg import Msg, as_msg


class UsageError(Exception):
    """Bad input: reported as one line on stderr, exit 2."""


def load_or_report(paths):
    """Load a catalogue; on errors print every one (file:line: [key] message) and return None. The catalogue's
    suppression comments and intents are checked too (names of checks, claims of the ask language)."""
    try:
        cat = load(paths or None)
    except CatalogueErrors as e:
        report_catalogue_errors(e)
        return None
    from .checks.intents import problems as intent_problems
    from .checks.suppress import problems
    bad = problems(cat) + intent_problems(cat)
    for p in bad:
        sys.stderr.write(error_line(p) + "\n")
    if bad:
        sys.stderr.write(str(closing(len(bad))) + "\n")
        return None
    return cat


def overwrites_input(targets, cat, also=()) -> bool:
    """Would a file this command writes (a report, a saved scenario: ``targets``, paths or None) replace a file it
    reads — a file of the catalogue ``cat``, or one of ``also`` (the baseline)? Then say so, located at nothing but
    the path, and return True: `check -o rules.toml`, `ask --save cards.toml` replaced a catalogue file with a report
    or a JSON scenario (exit 0), and the next run found a broken catalogue. A device or a FIFO is no file to lose."""
    import os
    import stat
    inputs = [str(f) for f in getattr(cat, "files", ()) or ()] + [str(a) for a in also if a]
    for t in targets:
        if not t:
            continue
        try:
            st = os.stat(t)
        except (OSError, ValueError):
            continue
        if not stat.S_ISREG(st.st_mode):
            continue
        for i in inputs:
            try:
                same = os.path.samefile(t, i)
            except (OSError, ValueError):
                continue
            if same:
                sys.stderr.write(error_line(Msg("{t} 是本命令读取的文件（{i}）：不会用输出覆盖它——换一个文件名",
                                                "{t} is a file this command reads ({i}): it is not overwritten with the "
                                                "output — name another file", t=str(t), i=i)) + "\n")
                return True
    return False


def empty_catalogue(cat) -> bool:
    """A catalogue with no card, character, skill or grant (every file empty, or only comments and [rules]):
    nothing to check, so say it, loudly, rather than pass with "0 findings" — a file whose line breaks TOML does
    not read was such a catalogue. True when it is (the line is written)."""
    if cat.cards or cat.characters or cat.skills:
        return False
    files = ", ".join(str(f) for f in list(cat.files)[:3]) + (" …" if len(cat.files) > 3 else "")
    sys.stderr.write(error_line(Msg("目录 {f} 中没有牌、角色、技能或给出的技能：什么也没有检查",
                                    "the catalogue {f} has no card, character, skill or grant: nothing was checked",
                                    f=files)) + "\n")
    return True


def closing(n: int, what=None, done=None) -> Msg:
    """The last line after a list of errors: "3 errors in the catalogue; nothing was checked" (目录中有 3 个错误；
    什么也没有检查)."""
    return Msg("{what}中有 {n:,} 个错误；{done}", "{n:,} error{s} in {ewhat}; {edone}", n=n, s="s" if n != 1 else "",
               what=what or Msg("目录", "the catalogue"), ewhat=what or Msg("目录", "the catalogue"),
               done=done or Msg("什么也没有检查", "nothing was checked"),
               edone=done or Msg("什么也没有检查", "nothing was checked"))


def report_catalogue_errors(e, what=None, done=None):
    """Print a catalogue's errors, causes first (a file that cannot be read), and the count, in the run's
    language (``what`` / ``done``: messages for the closing line, default "the catalogue" / "nothing was
    checked")."""
    for err in e.errors:
        sys.stderr.write(error_line(err) + "\n")
    for line in getattr(e, "folded_lines", lambda: [])():
        sys.stderr.write(f"{line}\n")
    if isinstance(what, str):                # a revision or a path: named as written
        what = Msg("'{w}' ", "{w}", w=what)
    if isinstance(done, str):
        done = Msg(_DONE_ZH[done], done) if done in _DONE_ZH else as_msg(done)
    sys.stderr.write(str(closing(len(e.errors), what, done)) + "\n")


#: what was not done after errors, as callers name it in English
_DONE_ZH = {"nothing was checked": "什么也没有检查", "nothing was compared": "什么也没有比较"}


def write_out(path: str | None, text: str) -> int:
    """Write ``text`` to ``path`` (standard output when None); 0, or 2 after saying why it failed."""
    if not path:
        sys.stdout.write(text)
        return 0
    from skillproof.model.signals import write_file
    try:
        write_file(path, text)                  # whole or not at all, whenever a signal comes (model.signals)
    except OSError as e:
        from .model.errtext import os_reason
        sys.stderr.write(error_line(Msg("写不了 {p}：{why}", "cannot write {p}: {why}", p=path, why=os_reason(e))) + "\n")
        return 2
    return 0


def add_catalogue_arg(p, positional: bool = True):
    """The catalogue a command reads, the same way for every command: ``PATH …`` (where the command takes no other
    positional words) and ``-c/--catalogue PATH`` (repeatable, every command); the configuration's ``paths`` when
    neither is given (``paths_of``)."""
    from .helpfmt import metavar
    from .model.lang import pick
    if positional:
        p.add_argument("paths", nargs="*", default=[], metavar=metavar("PATH"),
                       help=pick("目录文件或文件夹（默认：配置中的 `paths`，否则随附的真实游戏目录）",
                                 "catalogue files or directories (default: paths of the configuration, else the "
                                 "shipped catalogue of the real game)"))
    p.add_argument("-c", "--catalogue", action="append", default=[], metavar=metavar("PATH"),
                   help=pick(f"目录文件或文件夹，同 {metavar('PATH')}（可重复）", "a catalogue file or directory, as PATH (repeatable)")
                   if positional else pick("目录文件或文件夹（可重复；默认：配置中的 `paths`，否则随附的目录）",
                                           "catalogue file or directory (repeatable; default: paths of the "
                                           "configuration, else the shipped catalogue)"))


def paths_of(args) -> list:
    """The catalogue the command line names (PATH … and -c/--catalogue, in that order), else the configuration's
    ``paths``, else [] (the shipped catalogue)."""
    named = list(getattr(args, "paths", None) or []) + list(getattr(args, "catalogue", None) or [])
    return named or list(getattr(args, "config_paths", None) or [])


def add_require_paths(p):
    """``--require-paths``: the pre-commit hooks' guard against checking the shipped catalogue by mistake."""
    from .model.lang import pick
    p.add_argument("--require-paths", action="store_true",
                   help=pick("没有在命令行或配置（`paths`）中指定目录时报错退出（退出码 2），而不是检查随附的目录；"
                             "`pre-commit` 钩子用它",
                             "exit 2 when no catalogue is given on the command line or in the configuration "
                             "(paths), instead of checking the shipped catalogue; the pre-commit hooks use it"))


def missing_paths(args) -> bool:
    """With ``--require-paths`` and no catalogue named (command line or configuration): say so, loudly; True."""
    if not getattr(args, "require_paths", False) or paths_of(args):
        return False
    sys.stderr.write(error_line(Msg(
        "没有指定要检查的目录：在仓库的 pyproject.toml 的 `[tool.skillproof]` 中（或 skillproof.toml 里）写上 "
        "`paths = [\"rules\"]`，或把目录的路径写在命令行上（`pre-commit` 钩子的 `args`）；--require-paths 不检查随附的目录",
        "no catalogue to check: set `paths = [\"rules\"]` in `[tool.skillproof]` of the repository's pyproject.toml (or "
        "in a skillproof.toml), or give the catalogue's path on the command line (the pre-commit hook's `args`); "
        "--require-paths does not check the shipped catalogue")) + "\n")
    return True


__all__ = ["UsageError", "load_or_report", "add_catalogue_arg", "write_out", "EXIT_USAGE"]


def validate_selection(names):
    """What is wrong with a --select / --ignore list (a model.msg.Msg, both languages), or None."""
    from skillproof.checks.registry import all_codes, families
    from skillproof.checks.registry import RUN_CODES
    known = {f.name for f in families()} | set(all_codes()) | set(RUN_CODES)
    bad = [n for n in names if n not in known]
    if bad:
        from skillproof.model.msg import Msg
        from skillproof.model.names import did_you_mean, echo, nearest
        hint = nearest(bad[0], known)
        return Msg("未知的检查族或代码 '{b}'{dym}", "unknown family or code '{b}'{dym}", b=echo(bad[0]),
                   dym=did_you_mean(f"'{hint}'") if hint else "")
    return None
