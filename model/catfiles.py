"""Which files a catalogue path names: a directory walked without following links, every entry that
cannot be read as a catalogue file refused by name (never skipped silently).

A directory is read recursively, its ``.toml`` files in sorted relative-path order; names starting with a
dot are skipped. Refused, each as a located error ``NAME:1:`` (the catalogue is then not checked):

- a symbolic link to a file outside the directory (what it leads to is not read);
- a symbolic link to a directory (not followed: it could lead out, or back in and read files twice);
- a ``.toml`` name that is not a regular file (a FIFO, a socket, a device: reading one could block);
- a sub-directory that cannot be listed;
- a path longer than ``PATH_CHARS`` characters, or one the system refuses (``File name too long``).
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

from .msg import Msg
from .names import shown

#: the longest path a command line or a configuration may name (Linux's PATH_MAX is 4,096 bytes)
PATH_CHARS = 4096
#: the most directory entries one catalogue directory is walked through (files and directories, all levels)
ENTRIES = 50_000


def path_problem(p: str | os.PathLike) -> Msg | None:
    """What is wrong with a path before it is touched: too long, a NUL byte, empty."""
    s = os.fspath(p)
    if not s:
        return Msg("路径是空的", "the path is empty")
    if "\x00" in s:
        return Msg("路径中有 NUL 字符", "the path holds a NUL character")
    if len(s) > PATH_CHARS:
        return Msg("路径有 {n:,} 个字符，上限是 {limit:,}", "the path is {n:,} characters long; the limit is {limit:,}",
                   n=len(s), limit=PATH_CHARS)
    return None


def make_dirs(path: str | os.PathLike) -> None:
    """``os.makedirs(path, exist_ok=True)`` without recursion: os.makedirs (and Path.mkdir(parents=True))
    recurse once a level, so a path of 2,000 short levels — within the path limit — raised RecursionError."""
    p = os.path.abspath(os.fspath(path))
    missing = []
    while not os.path.isdir(p):
        missing.append(p)
        parent = os.path.dirname(p)
        if parent == p:
            break
        p = parent
    for d in reversed(missing):
        try:
            os.mkdir(d)
        except FileExistsError:
            if not os.path.isdir(d):
                import errno
                raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), d) from None


def kind_of(p: Path) -> tuple[str, Msg | None]:
    """('dir' | 'file' | 'other' | 'missing' | 'error', why) of a path named by the user (links followed)."""
    bad = path_problem(p)
    if bad is not None:
        return "error", bad
    try:
        st = os.stat(p)
    except FileNotFoundError:
        return "missing", None
    except OSError as e:
        from .errtext import os_reason
        return "error", Msg("读不了：{why}", "cannot read: {why}", why=os_reason(e))
    except ValueError:
        return "error", Msg("不是合法的路径", "not a valid path")
    if stat.S_ISDIR(st.st_mode):
        return "dir", None
    if stat.S_ISREG(st.st_mode):
        return "file", None
    return "other", None


def link_out_of(path: Path, directory: Path) -> Msg | str | None:
    """Where ``path`` leads if it is a symbolic link to something outside ``directory``, else None."""
    if not path.is_symlink():
        return None
    try:
        target = path.resolve(strict=False)
        base = directory.resolve(strict=False)
    except (OSError, RuntimeError):         # a link loop
        return Msg("链接成环", "a loop of links")
    if target.parent == base or base in target.parents:
        return None
    return shown(str(target), 80)


def walk(directory: Path, refuse) -> list[Path]:
    """The ``.toml`` files under ``directory`` in sorted relative-path order; ``refuse(path, Msg)`` is called
    for every entry that is not read. Iterative; links are never followed."""
    from . import limits as L
    found: dict[str, Path] = {}
    stack = [directory]
    seen = 0
    while stack:
        if seen > ENTRIES or len(found) > L.FILES:
            refuse(directory, Msg("这个文件夹下超过 {n:,} 个条目（上限）：请指明目录所在的文件夹",
                                  "more than {n:,} entries under this directory (the limit): name the catalogue's own "
                                  "directory", n=ENTRIES if seen > ENTRIES else L.FILES))
            return []
        d = stack.pop()
        try:
            entries = list(os.scandir(d))
        except OSError as e:
            from .errtext import os_reason
            refuse(d, Msg("列不出这个文件夹的内容：{why}", "cannot list this directory: {why}", why=os_reason(e)))
            continue
        seen += len(entries)
        for ent in entries:
            if ent.name.startswith("."):
                continue
            q = Path(ent.path)
            try:
                is_link = ent.is_symlink()
                is_dir = ent.is_dir(follow_symlinks=False)
            except OSError:
                is_link, is_dir = False, False
            if is_link:
                try:
                    to_dir = ent.is_dir(follow_symlinks=True)
                except OSError:
                    to_dir = False
                if to_dir:
                    refuse(q, Msg("指向文件夹的符号链接（指向 {to}）；没有跟随——把文件复制进来，或在命令行上写出它",
                                  "a symbolic link to a directory (to {to}); not followed — copy the files in or name "
                                  "the directory on the command line", to=_target(q)))
                    continue
                if not ent.name.endswith(".toml"):
                    continue
                away = link_out_of(q, directory)
                if away is not None:
                    refuse(q, Msg("指向目录之外的符号链接（指向 {away}）；没有读取——把文件复制进来，或在命令行上写出它",
                                  "a symbolic link out of the catalogue directory (to {away}); "
                                  "not read — copy the file in or name it on the command line", away=away))
                    continue
                kind, _ = kind_of(q)
                if kind == "missing":
                    refuse(q, Msg("符号链接指向不存在的文件（{to}）", "a symbolic link to nothing ({to})", to=_target(q)))
                    continue
                if kind != "file":
                    refuse(q, Msg("不是普通文件，没有读取", "not a regular file; not read"))
                    continue
                found[q.relative_to(directory).as_posix()] = q
                continue
            if is_dir:
                stack.append(q)
                continue
            if not ent.name.endswith(".toml"):
                continue
            try:
                regular = ent.is_file(follow_symlinks=False)
            except OSError:
                regular = False
            if not regular:
                refuse(q, Msg("不是普通文件（FIFO、套接字或设备），没有读取",
                              "not a regular file (a FIFO, a socket or a device); not read"))
                continue
            found[q.relative_to(directory).as_posix()] = q
    return [found[k] for k in sorted(found)]


def _target(q: Path) -> str:
    try:
        return shown(os.readlink(q), 80)
    except OSError:
        return "?"
